"""The Sheep Hop! twin: an immutable picture of sheep, wolves and tiles."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .data import Board, Cell


class Phase(str, Enum):
    ROLL = "roll"  # waiting for the die
    SHEEP = "sheep"  # a sheep face: which sheep moves, and how
    CAPTURE = "capture"  # table mode: which sheep did the wolves pass over?
    PATOU = "patou"  # the Patou: the other sheep of the jumper's colour move
    OVER = "over"

    def __str__(self) -> str:
        return self.value


class Mode(str, Enum):
    TABLE = "table"  # the table reports where sheep end up and what the wolves caught
    BOARD = "board"  # full board: every sheep's space is mirrored, moves and captures checked

    def __str__(self) -> str:
        return self.value


class Where(str, Enum):
    BOARD = "board"
    PEN = "pen"  # saved
    DEN = "den"  # captured by the wolves

    def __str__(self) -> str:
        return self.value


# Tiles sheep may jump (animals); the Rock and the Molehill can never be crossed.
ANIMAL_TILES = ("mole", "patou", "raccoon", "fox")
BLOCKING_TILES = ("rock", "molehill")
TILE_KINDS = ("rock", "mole", "molehill", "patou", "raccoon", "fox")


@dataclass(frozen=True)
class Wolf:
    position: int  # index on its path
    clockwise: bool  # the way the pawn faces


@dataclass(frozen=True)
class Tile:
    kind: str
    at: Cell


@dataclass(frozen=True)
class SheepHopState:
    setup: Mapping[str, Any]
    mode: Mode
    board: Board
    where: tuple[Where, ...]  # per sheep, in board.sheep_ids() order
    at: tuple[Cell | None, ...]  # per sheep, board mode only
    wolves: tuple[Wolf, ...]  # in board.wolves order
    tiles: tuple[Tile, ...] = ()
    raccoon_clockwise: bool = True  # the Raccoon tile starts on its "clockwise" side
    phase: Phase = Phase.ROLL
    turn: int = 1
    roller: int = 0  # index into players: whose turn it is to roll
    face: str | None = None  # the face being resolved
    eligible: tuple[int, ...] = ()  # sheep that may move for this face
    capture_due: int = 0  # table mode: spaces the wolves entered whose captures are not yet entered
    patou: tuple[int, ...] = ()  # sheep the Patou still has to move
    # Table mode, touch entry: the sheep tapped and the animal tiles tapped so far (nothing moved yet).
    picked: int | None = None
    picked_jumps: tuple[str, ...] = ()
    last: str = ""  # what the last event did, in words
    news: bool = False  # ``last`` is worth a ruling on screen (sheep caught, a tile's effect), not a routine move
    rolled: bool = False  # the first roll is made: until then the table may still place the wolves

    def count(self, where: Where) -> int:
        return sum(1 for w in self.where if w is where)
