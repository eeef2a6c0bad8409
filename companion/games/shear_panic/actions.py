"""The seven command-menu actions as pure functions on a grid.

Each takes a grid (position -> colour) and returns a *new* grid; a move the
rulebook forbids raises :class:`Refusal` with the section that forbids it,
which the game turns into ``IllegalAction``.  Which sheep a tile may touch
("own sheep only") and the no-reverse symbols are the game's business, not
these functions': the same Lamb Push serves the menu, the truck and a panic.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import Enum

from .flock import DIAGONAL, DIRECTIONS, NEIGHBOURS, ORTHOGONAL, Grid, Pos, rotate

SECTION = "A — The Command Menu"


class Refusal(Exception):
    """A move the rules forbid: the message and the rulebook section."""

    def __init__(self, message: str, rule: str = SECTION) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


class Action(str, Enum):
    LAMB_PUSH = "lamb-push"
    LINE_PUSH = "line-push"
    DIAGONAL_PUSH = "diagonal-push"
    ALIGNMENT = "alignment"
    LAMB_ROLL = "lamb-roll"
    LEAPFROG = "leapfrog"
    EWE_TURN = "ewe-turn"

    def __str__(self) -> str:
        return self.value


def _add(p: Pos, d: Pos, k: int = 1) -> Pos:
    return (p[0] + d[0] * k, p[1] + d[1] * k)


def _shift_chain(grid: Mapping[Pos, str], start: Pos, d: Pos) -> Grid:
    """Move the unbroken line of sheep from ``start`` one step along ``d``.

    Sheep beyond the first empty square are not pushed (Lamb Push, Line and
    Diagonal Push all say so), so the chain ends at the first gap.
    """
    chain = [start]
    while (nxt := _add(chain[-1], d)) in grid:
        chain.append(nxt)
    out = dict(grid)
    for p in reversed(chain):  # front of the chain first, so no square is overwritten
        out[_add(p, d)] = out.pop(p)
    return out


def lamb_push(grid: Mapping[Pos, str], sheep: Pos, d: Pos) -> Grid:
    """One sheep moves one space in any of the 8 directions, pushing the line ahead."""
    if sheep not in grid:
        raise Refusal(f"there is no sheep at {list(sheep)}")
    if d not in DIRECTIONS.values():
        raise Refusal("a Lamb Push moves one space in one of the 8 directions")
    return _shift_chain(grid, sheep, d)


def line_start(grid: Mapping[Pos, str], on_line: Pos, d: Pos) -> Pos:
    """The first sheep a push from outside the flock meets on the line through ``on_line``."""
    back = (-d[0], -d[1])
    p = on_line
    # Walk backwards along the line to the last sheep of the whole line (not only
    # of this run of sheep): the push comes from outside the flock.
    far = p
    lo = min(min(q[0] for q in grid), min(q[1] for q in grid)) - 1
    hi = max(max(q[0] for q in grid), max(q[1] for q in grid)) + 1
    while lo <= p[0] <= hi and lo <= p[1] <= hi:
        if p in grid:
            far = p
        p = _add(p, back)
    return far


def pushed_line(grid: Mapping[Pos, str], on_line: Pos, d: Pos) -> list[Pos]:
    """The sheep a Line or Diagonal Push along ``d`` moves: from the first met up to a gap."""
    chain = [line_start(grid, on_line, d)]
    while (nxt := _add(chain[-1], d)) in grid:
        chain.append(nxt)
    return chain


def line_push(grid: Mapping[Pos, str], on_line: Pos, d: Pos) -> Grid:
    """Push a whole row or column one space from outside the flock (Line Push)."""
    if d not in (DIRECTIONS[n] for n in ORTHOGONAL):
        raise Refusal("a Line Push pushes a row or column to the front, back, left or right")
    if on_line not in grid:
        raise Refusal(f"there is no sheep at {list(on_line)} to name the line")
    return _shift_chain(grid, line_start(grid, on_line, d), d)


def diagonal_push(grid: Mapping[Pos, str], on_line: Pos, d: Pos) -> Grid:
    """Push a diagonal line one space from outside the flock (Diagonal Push)."""
    if d not in (DIRECTIONS[n] for n in DIAGONAL):
        raise Refusal("a Diagonal Push pushes a diagonal line in one of the 4 diagonal directions")
    if on_line not in grid:
        raise Refusal(f"there is no sheep at {list(on_line)} to name the diagonal")
    return _shift_chain(grid, line_start(grid, on_line, d), d)


def alignment(grid: Mapping[Pos, str], side: Pos) -> Grid:
    """Pack every row or column against a barrier on one side, filling the gaps.

    The barrier stands on the flock's outermost line on that side; each line
    keeps its order of sheep.
    """
    if side not in (DIRECTIONS[n] for n in ORTHOGONAL):
        raise Refusal("an Alignment is against the front, back, left or right side")
    dx, dy = side
    out: Grid = {}
    if dx == 0:  # front or back: columns slide along y
        edge = max(y for _, y in grid) if dy > 0 else min(y for _, y in grid)
        lines: dict[int, list[tuple[Pos, str]]] = {}
        for p, c in grid.items():
            lines.setdefault(p[0], []).append((p, c))
        for x, cells in lines.items():
            cells.sort(key=lambda pc: -pc[0][1] * dy)  # nearest the barrier first
            for i, (_, c) in enumerate(cells):
                out[(x, edge - i * dy)] = c
    else:  # left or right: rows slide along x
        edge = max(x for x, _ in grid) if dx > 0 else min(x for x, _ in grid)
        lines = {}
        for p, c in grid.items():
            lines.setdefault(p[1], []).append((p, c))
        for y, cells in lines.items():
            cells.sort(key=lambda pc: -pc[0][0] * dx)
            for i, (_, c) in enumerate(cells):
                out[(edge - i * dx, y)] = c
    return out


def lamb_roll(grid: Mapping[Pos, str], sheep: Pos, d: Pos) -> Grid:
    """Move one sheep one space to an empty square, staying beside another sheep."""
    if sheep not in grid:
        raise Refusal(f"there is no sheep at {list(sheep)}")
    if d not in DIRECTIONS.values():
        raise Refusal("a Lamb Roll moves one space in one of the 8 directions")
    dest = _add(sheep, d)
    if dest in grid:
        raise Refusal("a Lamb Roll cannot push: the destination square must be empty")
    out = dict(grid)
    out[dest] = out.pop(sheep)
    # "Connected" means what it means for the flock: a shared side.
    if not any(_add(dest, n) in out for n in NEIGHBOURS):
        raise Refusal("a Lamb Roll must leave the sheep connected to at least one other sheep")
    return out


def leapfrog(grid: Mapping[Pos, str], sheep: Pos, d: Pos) -> Grid:
    """The sheep jumps along its row or column to the first empty square."""
    if sheep not in grid:
        raise Refusal(f"there is no sheep at {list(sheep)}")
    if d not in (DIRECTIONS[n] for n in ORTHOGONAL):
        raise Refusal("a Leapfrog goes along a row or column: diagonal jumps are not allowed")
    dest = _add(sheep, d)
    while dest in grid:
        dest = _add(dest, d)
    out = dict(grid)
    out[dest] = out.pop(sheep)
    return out


def ewe_turn(grid: Mapping[Pos, str], side: str) -> Grid:
    if side not in ("left", "right"):
        raise Refusal("an Ewe Turn turns the flock 90 degrees left or right")
    return rotate(grid, side)


# -- enumeration ------------------------------------------------------------


def line_representatives(grid: Mapping[Pos, str], d: Pos) -> Iterator[Pos]:
    """One sheep per distinct line along ``d``: the first sheep a push from outside meets."""
    xs = [p[0] for p in grid]
    ys = [p[1] for p in grid]
    span = max(max(xs) - min(xs), max(ys) - min(ys))
    dx, dy = d
    for x, y in sorted(grid):
        if not any((x - k * dx, y - k * dy) in grid for k in range(1, span + 1)):
            yield (x, y)
