"""Shear Panic for people: moves and scorings in words, and what a touch on
the flock means (no Kivy).

The Table's picture (``ui/boards/shear_panic.py``) draws the flock and the
command menu; the words it shows ("Lamb Push 3: red sheep, back-left"),
which tiles a player has used, which sheep and arrows a touch may choose for
a tile, and every scoring announced ("Roger's gate! Row 1 (4 pts): Bob's two
yellows +8 ...") come from here, so the screen never shows tile ids or grid
coordinates and holds no rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.events import ROLL, Event

from . import actions
from .actions import Action
from .flock import DIRECTIONS, Pos
from .scoring import ROW_POINTS
from .tiles import Symbol, Tile

ACTION_NAMES: dict[Action, str] = {
    Action.LAMB_PUSH: "Lamb Push",
    Action.LINE_PUSH: "Line Push",
    Action.DIAGONAL_PUSH: "Diagonal Push",
    Action.ALIGNMENT: "Alignment",
    Action.LAMB_ROLL: "Lamb Roll",
    Action.LEAPFROG: "Leapfrog",
    Action.EWE_TURN: "Ewe Turn",
}
SYMBOL_WORDS: dict[Symbol, str] = {
    Symbol.OWN: "your own sheep only",
    Symbol.DIE: "no reverse unless a die was rolled",
    Symbol.NO_REVERSE: "no reverse move",
    Symbol.NONE: "",
}
DIE_NAMES = {"panic": "panic die", "regroup": "regrouping die"}
REASONS = {
    "teammates": "Teammates",
    "black-sheep": "Black sheep",
    "roger-gate": "Roger's gate!",
    "roger-pen": "Roger's pen!",
    "shearing-gate": "Shearing gate!",
    "final-pen": "Final pen!",
    "final": "Last shearing (all actions used)!",
}
SHEEP_EVENTS = ("action", "lamb-push")  # the events a touch on the flock makes


def tile_name(tile: Tile) -> str:
    """A command-menu tile as printed: its action and its time value ("Lamb Push 3")."""
    return f"{ACTION_NAMES.get(tile.action, tile.action.value)} {tile.time}"


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else f"{'two' if n == 2 else n} {many}"


def move_words(state: Any, event: Event) -> str:
    """A Shear Panic event in words, read against the state it is applied to."""
    p = event.payload
    grid = state.flock.grid()
    sheep = p.get("sheep")
    colour = grid.get(tuple(sheep)) if isinstance(sheep, list | tuple) and len(sheep) == 2 else None
    which = f"{colour} sheep" if colour else ""
    if event.type == ROLL:
        faces = ", ".join(str(f) for f in p.get("faces", ()))
        return f"{DIE_NAMES.get(str(p.get('die')), str(p.get('die')))}: {faces}"
    if event.type == "action":
        tile = state.tile(p.get("tile"))
        name = tile_name(tile) if tile is not None else str(p.get("tile"))
        if tile is not None and tile.action is Action.EWE_TURN:
            return f"{name}: turn {p.get('direction')}"
        if tile is not None and tile.action is Action.ALIGNMENT:
            return f"{name}: against the {p.get('side')}"
        if tile is not None and tile.action in (Action.LINE_PUSH, Action.DIAGONAL_PUSH) and colour:
            return f"{name}: the line with the {which}, {p.get('direction')}"
        return f"{name}: {which}, {p.get('direction')}".replace(": , ", ": ")
    if event.type == "lamb-push":
        return f"Lamb Push (panic): {which}, {p.get('direction')}"
    if event.type == "ewe-turn":
        return f"Ewe Turn (panic): turn {p.get('direction')}"
    if event.type == "regroup":
        return regroup_words(grid, p)
    return event.type


def regroup_words(grid: Mapping[Pos, str], payload: Mapping[str, Any]) -> str:
    """A regrouping route in words: the group (by its colours), its way, and any slide."""
    from .flock import groups

    sheep = payload.get("sheep")
    at = tuple(sheep) if isinstance(sheep, list | tuple) else None
    group = next((g for g in groups(grid) if at in g), frozenset({at}) if at else frozenset())
    colours = sorted(grid[s] for s in group if s in grid)
    who = " and ".join(colours) if len(colours) <= 3 else f"{len(colours)} sheep"
    slide = f", then slide {payload['slide']}" if payload.get("slide") else ""
    return f"Regroup the {who} {'sheep ' if len(colours) <= 3 else ''}{payload.get('direction')}{slide}"


def rows_words(grid: Mapping[Pos, str], from_front: bool, players: Mapping[str, str]) -> str:
    """Row scoring in words, row 1 first: "Row 1 (4 pts): Bob's two yellows +8".

    ``players`` maps a colour to its player (the black sheep and a neutral
    colour score for nobody, and are not named).
    """
    if not grid:
        return "no sheep left to score"
    ys = [y for _, y in grid]
    edge = max(ys) if from_front else min(ys)
    parts = []
    for row, pts in enumerate(ROW_POINTS):
        y = edge - row if from_front else edge + row
        in_row = [c for (_, yy), c in grid.items() if yy == y]
        scored = []
        for colour in sorted(set(in_row)):
            who = players.get(colour)
            if who is None:
                continue
            n = in_row.count(colour)
            scored.append(f"{who}'s {_plural(n, colour, colour + 's')} +{n * pts}")
        if in_row:
            parts.append(f"Row {row + 1} ({pts} {'pt' if pts == 1 else 'pts'}): " + (", ".join(scored) if scored else "nobody's sheep"))
    return "; ".join(parts)


def award_words(reason: str, grid: Mapping[Pos, str], points: Iterable[tuple[str, int]], players: Mapping[str, str],
                shorn: Iterable[str] = ()) -> str:
    """One scoring phase announced: why, who scored what (rows for the gates and pens)."""
    title = REASONS.get(reason, reason)
    shorn = list(shorn)
    if reason in ("teammates", "black-sheep"):
        got = ", ".join(f"{who} +{pts}" for who, pts in points)
        return f"{title}: {got}" if got else ""
    sheared = f"Shorn: {', '.join(shorn)} (front row). " if shorn else ""
    rows = rows_words(grid, reason.startswith("roger"), players)
    return f"{title} {sheared}{rows}."


@dataclass(frozen=True)
class MenuTile:
    """One tile of the active player's command menu, as the picture shows it."""

    id: str
    name: str  # "Lamb Push 3"
    rule: str  # the restriction symbol in words
    used: bool
    needs_sheep: bool  # touch a sheep for it (else only a direction)


def menu(state: Any) -> list[MenuTile]:
    """The active player's twelve tiles in menu order, used ones marked."""
    left = set(state.tiles_left[state.active]) if state.tiles_left else set()
    return [
        MenuTile(t.id, tile_name(t), SYMBOL_WORDS[t.symbol], t.id not in left,
                 t.action not in (Action.ALIGNMENT, Action.EWE_TURN))
        for t in state.tiles
    ]


Touches = dict[str | None, dict[Pos | None, dict[str, Event]]]


def touches(state: Any, legal: Iterable[Event]) -> Touches:
    """What a touch on the flock means now: tile (None for a panic's Lamb Push)
    -> touched sheep (None for a tile that takes no sheep) -> direction -> event.

    A Line or Diagonal Push may be started from any sheep of the line it
    pushes, so every one of them offers it.
    """
    grid = state.flock.grid()
    out: Touches = {}
    for e in legal:
        if e.type not in SHEEP_EVENTS:
            continue
        tile = state.tile(e.get("tile")) if e.type == "action" else None
        key = tile.id if tile is not None else None
        way = str(e.get("direction") or e.get("side"))
        sheep = e.get("sheep")
        if sheep is None:
            cells: list[Pos | None] = [None]
        elif tile is not None and tile.action in (Action.LINE_PUSH, Action.DIAGONAL_PUSH):
            cells = list(actions.pushed_line(grid, (int(sheep[0]), int(sheep[1])), DIRECTIONS[way]))
        else:
            cells = [(int(sheep[0]), int(sheep[1]))]
        for c in cells:
            out.setdefault(key, {}).setdefault(c, {})[way] = e
    return out
