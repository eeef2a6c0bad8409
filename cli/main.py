"""``bellwether``: the command line.

Each module in ``COMMANDS`` adds its subcommands with ``register(sub)`` and
keeps heavy imports (numpy, OpenCV, Kivy) inside its handlers, so that
``bellwether games`` answers at once.  Every ``BellwetherError`` becomes one
line on stderr and exit status 1; nobody sees a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from companion.errors import BellwetherError

COMMANDS = ("cli.play", "cli.records", "cli.whistle", "cli.dice", "cli.calibrate", "cli.plays")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bellwether", description="A table companion for sheep board games.")
    parser.add_argument("--data-dir", help="where games are stored (default: $BELLWETHER_DATA_DIR or XDG data dir)")
    parser.add_argument("--config-dir", help="where profiles live (default: $BELLWETHER_CONFIG_DIR or XDG config dir)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the app does")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            continue  # a command group not built yet
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        return int(args.func(args) or 0)
    except BellwetherError as e:
        print(f"bellwether: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except EOFError:  # a question asked with no one to answer (stdin closed): nothing half-done is saved
        print("bellwether: no answer (standard input is closed); run it at a terminal", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
