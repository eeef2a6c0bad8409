"""Where Bellwether keeps its files: XDG directories, overridable.

Order of precedence for data: an explicit ``--data-dir``, then
``BELLWETHER_DATA_DIR``, then ``$XDG_DATA_HOME/bellwether``, then
``~/.local/share/bellwether``.  Config (calibration profiles, board checks)
follows the same pattern with ``BELLWETHER_CONFIG_DIR`` and ``XDG_CONFIG_HOME``.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import ConfigError


def _xdg(env: str, xdg: str, fallback: str, explicit: str | os.PathLike[str] | None) -> Path:
    if explicit is not None:
        if not str(explicit).strip():
            # An empty --data-dir/--config-dir is a slip (an unset shell variable), not "the default".
            raise ConfigError(
                "--" + env.removeprefix("BELLWETHER_").lower().replace("_", "-"), "folder", "a folder path", ""
            )
        return Path(explicit).expanduser()
    if os.environ.get(env):
        return Path(os.environ[env]).expanduser()
    base = os.environ.get(xdg) or str(Path.home() / fallback)
    return Path(base).expanduser() / "bellwether"


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    return _xdg("BELLWETHER_DATA_DIR", "XDG_DATA_HOME", ".local/share", explicit)


def config_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    return _xdg("BELLWETHER_CONFIG_DIR", "XDG_CONFIG_HOME", ".config", explicit)


def database_path(explicit_data_dir: str | os.PathLike[str] | None = None) -> Path:
    return data_dir(explicit_data_dir) / "bellwether.db"


def shared_data(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The third-party development data (whistle recordings, dice photos).

    Never copied into the repository: tests and benchmarks read it through
    this path, ``$BELLWETHER_SHARED_DATA`` or ``../shared/data`` beside the checkout.
    """
    if explicit:
        return Path(explicit)
    if os.environ.get("BELLWETHER_SHARED_DATA"):
        return Path(os.environ["BELLWETHER_SHARED_DATA"])
    return Path(__file__).resolve().parent.parent.parent / "shared" / "data"
