"""Sheepdogs of Pendleton Hill: registered as ``pendleton-hill``.

See ``docs/games/pendleton-hill.md`` for the event vocabulary and the board data.
"""

from __future__ import annotations

from .board import Board, default_board_data, validate_board_data
from .game import PendletonHill
from .state import Card, HillState, Phase

GAME = PendletonHill()

__all__ = ["GAME", "Board", "Card", "HillState", "PendletonHill", "Phase", "default_board_data", "validate_board_data"]
