"""``bellwether calibrate {whistle,camera,buttons,board}``: the calibration wizards.

Each wizard lives in ``calibration.<name>`` and provides ``add_arguments`` and
``main``; a wizard not built yet simply does not appear.
"""

from __future__ import annotations

import argparse
import importlib

WIZARDS = {
    "whistle": "record each player's whistle and the room's noise",
    "camera": "choose the camera, mark the dice tray, sample die faces",
    "buttons": "press each mapped GPIO button to confirm its pin",
    "board": "check a game's board data (tracks, paths, pastures) against your own board",
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate", help="calibrate sensors and board data")
    wizards = p.add_subparsers(dest="wizard", metavar="WIZARD", required=True)
    for name, help_text in WIZARDS.items():
        try:
            module = importlib.import_module(f"calibration.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"calibration.{name}":
                raise
            continue
        w = wizards.add_parser(name, help=help_text)
        module.add_arguments(w)
        w.set_defaults(func=module.main)
