"""Scoring by field (rulebook "D — Scoring Points"), as pure functions of the flock.

Points are per sheep colour; the game maps colours to players (the black
sheep and, with 3 players, the neutral colour score for nobody).
"""

from __future__ import annotations

from collections.abc import Mapping

from .flock import BLACK, Grid, Pos, touches

SECTION = "D — Scoring Points"
ROW_POINTS = (4, 3, 2, 1)  # row 1 (nearest Roger, or furthest from the Shearer) first


def teammates(grid: Mapping[Pos, str], colour: str) -> int:
    """1 when the colour's two sheep touch by a corner, 2 when they share a side."""
    mine = [p for p, c in grid.items() if c == colour]
    if len(mine) < 2:
        return 0
    return touches(mine[0], mine[1])


def black_sheep(grid: Mapping[Pos, str], colour: str) -> int:
    """1 per sheep of the colour touching the black sheep by a corner, 2 by a side."""
    black = [p for p, c in grid.items() if c == BLACK]
    if not black:
        return 0
    return sum(touches(p, black[0]) for p, c in grid.items() if c == colour)


def by_rows(grid: Mapping[Pos, str], from_front: bool) -> dict[str, int]:
    """4/3/2/1 points per sheep in the 1st..4th row counted from the front or the back.

    Rows are counted from the flock's own outermost row, so an empty line
    inside a flock (impossible once regrouped) would still count as a row.
    """
    out: dict[str, int] = {}
    if not grid:
        return out
    ys = [y for _, y in grid]
    edge = max(ys) if from_front else min(ys)
    for (_, y), c in grid.items():
        row = (edge - y) if from_front else (y - edge)
        if row < len(ROW_POINTS):
            out[c] = out.get(c, 0) + ROW_POINTS[row]
    return out


def shear(grid: Mapping[Pos, str]) -> tuple[Grid, tuple[str, ...]]:
    """Remove the front row (nearest the Shearer); a one-colour flock is not shorn."""
    if not grid or len(set(grid.values())) == 1:
        return dict(grid), ()
    front = max(y for _, y in grid)
    shorn = tuple(c for (x, y), c in sorted(grid.items()) if y == front)
    return {p: c for p, c in grid.items() if p[1] != front}, shorn
