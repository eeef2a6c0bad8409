"""The Battle Sheep twin: an immutable picture of the field and its stacks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .hexes import Hex


class Phase(str, Enum):
    BUILD = "build"  # Setup, step 3: boards placed in turn
    START = "start"  # Setup, step 4: start stacks placed in turn
    PLAY = "play"  # Game Play
    ENTER = "enter"  # quick mode: the table enters the final figures
    OVER = "over"  # End of the Game

    def __str__(self) -> str:
        return self.value


class Mode(str, Enum):
    BOARD = "board"  # the app mirrors the field and every move
    QUICK = "quick"  # the table enters pastures and largest herd at the end

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Stack:
    at: Hex
    owner: int  # index into setup["players"]
    count: int


@dataclass(frozen=True)
class BattleSheepState:
    setup: Mapping[str, Any]
    mode: Mode
    shape: tuple[Hex, ...]  # one pasture board, from the board data
    phase: Phase
    active: int = 0  # whose turn (index into players)
    turn: int = 1  # moves made + 1 in play; boards/stacks placed + 1 in setup
    boards: tuple[tuple[Hex, ...], ...] = ()
    field: frozenset[Hex] = frozenset()
    stacks: tuple[Stack, ...] = ()  # sorted by position, one per occupied pasture
    out: frozenset[int] = frozenset()  # players who can no longer move
    picked: tuple[Hex, Hex] | None = None  # touch entry: (from, to) chosen, the count still to come
    # Quick mode: (pastures, largest herd) per player once entered.
    results: tuple[tuple[int, int] | None, ...] = ()

    def by_hex(self) -> dict[Hex, Stack]:
        return {s.at: s for s in self.stacks}
