"""Per-game pictures for the Table screen, one module per game.

``ui.boards.<module>`` (the game's registry name with ``-`` as ``_``) may
define ``Board`` (a widget with ``update(session)``) and ``SETUP`` (a
:class:`SetupSpec`).  A game without a module, or whose module fails to
import, gets the generic view of its ``state_json``, so every game is
playable the day its engine lands.
"""

from __future__ import annotations

import importlib
import logging
from types import ModuleType

from .base import Picture, SetupSpec, Taps, chosen_button_class

log = logging.getLogger(__name__)

__all__ = ["Picture", "SetupSpec", "Taps", "board_class", "chosen_button_class", "setup_spec"]


def _module(game_name: str) -> ModuleType | None:
    name = f"{__name__}.{game_name.replace('-', '_')}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            log.warning("board %s: %s", name, e)
        return None


def setup_spec(game_name: str) -> SetupSpec:
    module = _module(game_name)
    return getattr(module, "SETUP", None) or SetupSpec()


def board_class(game_name: str) -> type:
    module = _module(game_name)
    board = getattr(module, "Board", None)
    if board is None:
        from .generic import GenericBoard

        return GenericBoard
    return board
