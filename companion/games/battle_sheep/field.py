"""Building the playing field from pasture boards (Setup, step 3)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from .hexes import Hex, add, mirror, neighbours, rotate


def place(shape: Iterable[Hex], at: Hex, rotation: int, flip: bool = False) -> tuple[Hex, ...]:
    """The pastures a board covers: its shape (mirrored if flipped), turned, then moved to ``at``."""
    cells = (mirror(h) if flip else h for h in shape)
    return tuple(sorted(add(at, rotate(h, rotation)) for h in cells))


def placement_problem(field: frozenset[Hex], cells: Iterable[Hex]) -> str | None:
    """Why a board may not go there (None if it may)."""
    cells = tuple(cells)
    overlap = [h for h in cells if h in field]
    if overlap:
        return f"the board would cover pasture {list(overlap[0])}, which is already part of the field"
    if field and not any(n in field for h in cells for n in neighbours(h)):
        return "the board must touch the field by at least one side"
    return None


def parse_placement(payload: Mapping[str, Any]) -> tuple[Hex, int, bool] | str:
    """(at, rotation, flip) from {"at": [q, r], "rotation": 0-5, "flip": bool}, or what is wrong."""
    at = payload.get("at")
    if not (
        isinstance(at, list | tuple) and len(at) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in at)
    ):
        return f"'at' must be a pasture [q, r], got {at!r}"
    rotation = payload.get("rotation", 0)
    if not isinstance(rotation, int) or isinstance(rotation, bool) or not 0 <= rotation <= 5:
        return f"'rotation' must be 0 to 5 (sixths of a turn), got {rotation!r}"
    flip = payload.get("flip", False)
    if not isinstance(flip, bool):
        return f"'flip' must be true or false, got {flip!r}"
    return (at[0], at[1]), rotation, flip


def legal_placements(field: frozenset[Hex], shape: tuple[Hex, ...]) -> list[tuple[Hex, int, bool, tuple[Hex, ...]]]:
    """Every distinct way to add one board, as (at, rotation, flip, cells)."""
    if not field:
        return [((0, 0), 0, False, place(shape, (0, 0), 0))]
    frontier = {n for h in field for n in neighbours(h) if n not in field}
    seen: set[tuple[Hex, ...]] = set()
    out = []
    for flip in (False, True):
        for rotation in range(6):
            piece = place(shape, (0, 0), rotation, flip)
            for f in sorted(frontier):
                for h in piece:
                    at = (f[0] - h[0], f[1] - h[1])
                    cells = place(shape, at, rotation, flip)
                    if cells in seen or placement_problem(field, cells):
                        continue
                    seen.add(cells)
                    out.append((at, rotation, flip, cells))
    return out


def random_placement(field: frozenset[Hex], shape: tuple[Hex, ...], rng: random.Random) -> tuple[Hex, int, bool]:
    """One legal placement drawn at random, cheaply (for simulations and tests).

    Anchoring a random piece cell on a random frontier cell guarantees contact,
    so only overlap needs retrying.
    """
    if not field:
        return (0, 0), rng.randrange(6), False
    frontier = sorted({n for h in field for n in neighbours(h) if n not in field})
    while True:
        rotation, flip = rng.randrange(6), rng.random() < 0.5
        piece = place(shape, (0, 0), rotation, flip)
        f, h = rng.choice(frontier), rng.choice(piece)
        at = (f[0] - h[0], f[1] - h[1])
        if placement_problem(field, place(shape, at, rotation, flip)) is None:
            return at, rotation, flip
