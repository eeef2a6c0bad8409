"""What a touch on the Battle Sheep picture means, in the game's terms (no Kivy).

The picture (``ui/boards/battle_sheep.py``) only draws and hit-tests hexes;
which pastures may be touched now, where a stack may slide, which sheep
counts may split off, what a pasture board covers in each way it may lie,
and what quick mode asks the table to enter all come from here, built from
the game's own ``legal_actions``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.events import Event

from . import data
from .field import place
from .hexes import Hex
from .state import BattleSheepState, Phase

PLACE_BOARD = "place-board"
START = "start"
MOVE = "move"
PICK = "pick"
RESULT = "result"
EVENT_TYPES = frozenset({PLACE_BOARD, START, MOVE, PICK, RESULT})  # all taken on the picture

MOST_PASTURES = data.SHEEP_PER_PLAYER  # one sheep at least on each occupied pasture


def _hex(value: Any) -> Hex | None:
    if isinstance(value, list | tuple) and len(value) == 2:
        return int(value[0]), int(value[1])
    return None


def placements_by_anchor(legal: Iterable[Event]) -> dict[Hex, list[Event]]:
    """Board placements grouped by the pasture the board is anchored on."""
    out: dict[Hex, list[Event]] = {}
    for e in legal:
        at = _hex(e.get("at"))
        if e.type == PLACE_BOARD and at is not None:
            out.setdefault(at, []).append(e)
    return out


def placement_cells(state: BattleSheepState, event: Event) -> tuple[Hex, ...]:
    """The pastures a placement covers (for its preview)."""
    at = _hex(event.get("at")) or (0, 0)
    return place(state.shape, at, int(event.get("rotation", 0)), bool(event.get("flip", False)))


def start_pastures(legal: Iterable[Event]) -> dict[Hex, Event]:
    """Where the player whose turn it is may put their starting stack."""
    out: dict[Hex, Event] = {}
    for e in legal:
        at = _hex(e.get("at"))
        if e.type == START and at is not None:
            out[at] = e
    return out


@dataclass(frozen=True)
class Slides:
    """A turn's moves: for each stack that may split, where its new stack may stop,
    and the largest number of sheep that may go."""

    ends: Mapping[Hex, Mapping[Hex, int]]  # from -> {to: most sheep}

    def move(self, src: Hex, dst: Hex, count: int, player: str | None) -> Event:
        return Event(MOVE, {"from": list(src), "to": list(dst), "count": count}, player)


def slides(legal: Iterable[Event]) -> Slides:
    ends: dict[Hex, dict[Hex, int]] = {}
    for e in legal:
        src, dst = _hex(e.get("from")), _hex(e.get("to"))
        if e.type == MOVE and src is not None and dst is not None:
            most = ends.setdefault(src, {})
            most[dst] = max(most.get(dst, 0), int(e.get("count", 1)))
    return Slides(ends)


def picked(state: BattleSheepState) -> tuple[Hex, Hex] | None:
    """A stack and its slide chosen by an earlier ``pick`` (the count still to come)."""
    return state.picked if state.phase is Phase.PLAY else None


def results_to_enter(state: BattleSheepState, names: list[str]) -> list[tuple[str, tuple[int, int] | None]]:
    """Quick mode: each player with the (pastures, largest herd) already entered, or None."""
    if state.phase not in (Phase.ENTER, Phase.OVER) or not state.results:
        return []
    return list(zip(names, state.results, strict=True))


def result_event(player: str, pastures: int, largest_herd: int) -> Event:
    return Event(RESULT, {"pastures": pastures, "largest_herd": largest_herd}, player)


