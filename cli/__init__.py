"""The ``bellwether`` command: one module per group of subcommands."""
