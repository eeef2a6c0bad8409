"""Battle Sheep: split stacks, slide them as far as they go, claim the most pastures."""

from __future__ import annotations

from .data import default_board, validate_board
from .game import BattleSheep
from .state import BattleSheepState, Mode, Phase, Stack

GAME = BattleSheep()

__all__ = ["GAME", "BattleSheep", "BattleSheepState", "Mode", "Phase", "Stack", "default_board", "validate_board"]
