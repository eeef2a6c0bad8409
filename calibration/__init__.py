"""Calibration wizards: they write versioned TOML profiles into the config dir
(``companion.paths.config_dir()``) that ``hardware/`` reads at start-up.

Each module (``whistle``, ``camera``, ``buttons``, ``board``) offers
``add_arguments(parser)`` and ``main(args) -> int`` for ``bellwether calibrate``.
"""
