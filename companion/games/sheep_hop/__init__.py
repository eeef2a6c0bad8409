"""Sheep Hop!: a cooperative race to pen the flock before the wolves catch it."""

from __future__ import annotations

from .data import Board, default_board, parse_board, validate_board
from .game import SCALE, SheepHop
from .state import Mode, Phase, SheepHopState, Tile, Where, Wolf

GAME = SheepHop()

__all__ = [
    "GAME",
    "SCALE",
    "Board",
    "Mode",
    "Phase",
    "SheepHop",
    "SheepHopState",
    "Tile",
    "Where",
    "Wolf",
    "default_board",
    "parse_board",
    "validate_board",
]
