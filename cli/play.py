"""``bellwether run``: start the touchscreen app."""

from __future__ import annotations

import argparse

from companion import registry


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="start the touchscreen app")
    p.add_argument("--game", choices=list(registry.BUILTIN), help="go straight to this game's setup")
    p.add_argument("--resume", type=int, metavar="ID", help="resume a stored game")
    p.add_argument("--fullscreen", action="store_true", help="fill the screen (on the Pi)")
    p.add_argument("--size", default=None, help="window size WxH, e.g. 800x480")
    p.set_defaults(func=cmd_run)


def cmd_run(args: argparse.Namespace) -> int:
    from ui.app import run  # Kivy is imported only here

    return run(args)
