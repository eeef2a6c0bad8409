"""The game state: one frozen value per moment of the game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .actions import Action
from .flock import Flock, Pos
from .tiles import Tile
from .track import Track


class Phase(str, Enum):
    TRUCK_ROLL = "truck-roll"  # roll the panic die for the truck start's Lamb Push
    PANIC_ROLL = "panic-roll"  # roll the panic die for a panic space's Lamb Push
    PUSH = "push"  # a die-chosen Lamb Push of ``push_colour`` (truck start or panic)
    TURN = "turn"  # the die showed white: the flock does an Ewe Turn
    ACTION = "action"  # the active player picks a tile from their command menu
    REGROUP = "regroup"  # the flock is split
    OVER = "over"

    def __str__(self) -> str:
        return self.value


class Then(str, Enum):
    """What happens once the flock is whole again (the rest of steps A to E)."""

    END_TRUCK = "end-truck"  # the truck start turn ends: marker to 0
    ADVANCE = "advance"  # C, D and E: move the counter, score, maybe panic
    PANIC = "panic"  # E only (after regrouping a shorn flock)
    END_TURN = "end-turn"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class LastAction:
    """The previous menu action, as the move that would undo it (the no-reverse symbols, ``reverse.py``).

    ``back`` is the way back: a step in the flock's frame, or for an Ewe Turn the
    other side.  ``at`` is a square on what the action moved: the sheep (Lamb
    Push, Lamb Roll, Leapfrog) or the line (Line and Diagonal Push); None when
    it moved the whole flock.  Both are in the *current* flock's frame.
    """

    action: Action
    back: Pos | str
    at: Pos | None = None


@dataclass(frozen=True)
class Scoring:
    """One scoring phase of this turn, for the screen and the log."""

    reason: str  # "teammates", "black-sheep", "roger-gate", "roger-pen", "shearing-gate", "final-pen", "final"
    points: tuple[tuple[str, int], ...]  # (player, points), players who scored only
    shorn: tuple[str, ...] = ()
    words: str = ""  # announced on the table and in the Log (words.award_words)


@dataclass(frozen=True)
class State:
    setup: Mapping[str, Any]
    track: Track
    tiles: tuple[Tile, ...]
    colours: tuple[str, ...]  # per player, in turn order
    flock: Flock
    facing: str
    time_counter: int
    scores: tuple[int, ...]
    tiles_left: tuple[tuple[str, ...], ...]  # per player: tile ids not yet covered
    active: int
    phase: Phase
    then: Then
    truck: bool = True  # still jumping down from the truck
    turn: int = 1  # turns started so far (truck turns included)
    pending_time: int = 0  # the chosen tile's value, until the counter moves
    push_colour: str | None = None
    regroup_face: str | None = None
    last_action: LastAction | None = None
    rolled_since: bool = False  # a die was rolled since the last menu action
    shorn: tuple[str, ...] = ()
    last_turn: tuple[int, ...] = ()  # per player: the turn number they last played
    scoring: tuple[Scoring, ...] = ()  # the scoring phases since the last menu action
    notice: str | None = None  # e.g. "no red sheep left: roll again"

    def tile(self, tile_id: str) -> Tile | None:
        for t in self.tiles:
            if t.id == tile_id:
                return t
        return None
