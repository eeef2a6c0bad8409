"""``bellwether``: the command line.

Each module in ``COMMANDS`` adds its subcommands with ``register(sub)`` and
keeps heavy imports (numpy, OpenCV, Kivy) inside its handlers, so that
``bellwether games`` answers at once.  Every ``BellwetherError``, ``OSError``
and ``sqlite3.Error`` becomes one line on stderr (capped in length) and exit
status 1; nobody sees a traceback unless they ask with ``--debug``.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sqlite3
import sys
from collections.abc import Sequence

from companion import paths
from companion.errors import BellwetherError, os_reason
from companion.game import shown

log = logging.getLogger("bellwether")

COMMANDS = ("cli.play", "cli.records", "cli.whistle", "cli.dice", "cli.calibrate", "cli.plays")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bellwether", description="A table companion for sheep board games.")
    parser.add_argument("--data-dir", help="where games are stored (default: $BELLWETHER_DATA_DIR or XDG data dir)")
    parser.add_argument("--config-dir", help="where profiles live (default: $BELLWETHER_CONFIG_DIR or XDG config dir)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the app does")
    parser.add_argument("--debug", action="store_true", help="on an error, log its full traceback too")
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


LONGEST_LINE = 400  # characters of an error shown: a hostile file's payload is never echoed whole


def _say(message: object) -> None:
    text = " ".join(str(message).split())  # one line, whatever the message held
    # A message may quote a hostile value (a player field with an escape sequence): never raw to the terminal.
    text = shown(text)
    if len(text) > LONGEST_LINE:
        text = text[: LONGEST_LINE - 1] + "…"
    # Kivy (bellwether run) replaces sys.stderr with a logger that would prefix the line: past it.
    stream = sys.__stderr__ if type(sys.stderr).__module__.startswith("kivy") and sys.__stderr__ else sys.stderr
    print(f"bellwether: {text}", file=stream, flush=True)


def _machine_error(e: BaseException) -> str:
    """One line for an OSError or an sqlite3.Error that no command turned into a BellwetherError."""
    if isinstance(e, OSError):
        reason = os_reason(e)
        if e.filename is None:
            return f"cannot write the output: {reason}"
        return f"{e.filename}: {reason}"
    return f"database error: {e} (run with --debug for details)"


def _flush_stdout() -> None:
    # Data still buffered for stdout is written here, inside the error edge, so that
    # a full disk or /dev/full is reported (and the status is 1), not lost at exit.
    sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose or args.debug else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        # An empty path is an error, not "the default".
        if args.data_dir is not None:
            paths.data_dir(args.data_dir)
        if args.config_dir is not None:
            paths.config_dir(args.config_dir)
        status = int(args.func(args) or 0)
        _flush_stdout()
        return status
    except BellwetherError as e:
        if args.debug:
            log.exception("the error in full")
        _say(e)
        return 1
    except KeyboardInterrupt:
        return 130
    except EOFError:  # a question asked with no one to answer (stdin closed): nothing half-done is saved
        _say("no answer (standard input is closed); run it at a terminal")
        return 1
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except (OSError, sqlite3.Error) as e:
        if args.debug:
            log.exception("the error in full")
        if isinstance(e, OSError) and e.filename is None:
            _quiet_stdout()  # stdout itself failed: Python must not try (and fail) again at exit
        _say(_machine_error(e))
        return 1


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's own flush at exit has nothing to fail on."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
