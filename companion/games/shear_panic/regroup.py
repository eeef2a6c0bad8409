"""Regrouping a split flock (rulebook "B — Regrouping the Flock").

One regrouping move takes one of the smallest groups and moves it in a
straight line until it touches (by a side) some other sheep:

- face "+": orthogonally, in any of the 4 directions that reach a sheep;
- face "X": diagonally; if the next diagonal step would land on a sheep the
  groups "meet at a corner" and the group slides one space along either side
  of that step (the player's choice); when no diagonal line reaches the flock
  the move is made orthogonally instead;
- no die at all: a group already touching the flock by a corner "simply
  slides one space", as in the rulebook's example, where the black and the
  yellow sheep are slid and only the last group of two is rolled for.

Moves repeat (one die roll each) until the flock is whole.  Routes are listed
so that the screen can offer them and the table's report can be checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .flock import CORNERS, DIAGONAL, DIRECTIONS, NAME_OF, NEIGHBOURS, ORTHOGONAL, Grid, Pos, groups

SECTION = "B — Regrouping the Flock"
PLUS = "+"
CROSS = "X"
FACES = (PLUS, CROSS)


@dataclass(frozen=True)
class Route:
    """One legal regrouping move and the grid it leads to."""

    group: frozenset[Pos]
    direction: str  # the line the group travels along
    slide: str | None  # after a corner meeting: the side it slides to
    grid: Mapping[Pos, str]

    def payload(self, sheep: Pos | None = None) -> dict[str, object]:
        """The event's payload, naming ``sheep`` of the group (by default its first)."""
        p: dict[str, object] = {"sheep": list(min(self.group) if sheep is None else sheep), "direction": self.direction}
        if self.slide is not None:
            p["slide"] = self.slide
        return p

    def payloads(self) -> list[dict[str, object]]:
        """One payload per sheep of the group: a touch on any of them moves the group."""
        return [self.payload(sheep) for sheep in sorted(self.group)]

    def label(self) -> str:
        how = self.direction if self.slide is None else f"{self.direction}, slide {self.slide}"
        return f"group at {list(min(self.group))}: {how}"


def smallest_groups(grid: Mapping[Pos, str]) -> list[frozenset[Pos]]:
    """The groups the active player may choose to regroup ([] when the flock is whole)."""
    gs = groups(grid)
    if len(gs) <= 1:
        return []
    size = min(len(g) for g in gs)
    return sorted((g for g in gs if len(g) == size), key=min)


def _moved(grid: Mapping[Pos, str], group: frozenset[Pos], dx: int, dy: int) -> Grid:
    out = {p: c for p, c in grid.items() if p not in group}
    for x, y in group:
        out[(x + dx, y + dy)] = grid[(x, y)]
    return out


def _touching(cells: list[Pos], others: set[Pos]) -> bool:
    return any((x + nx, y + ny) in others for x, y in cells for nx, ny in NEIGHBOURS)


def _reach(grid: Mapping[Pos, str]) -> int:
    # Beyond the flock's extent in both axes a moving group can meet nothing.
    xs = [p[0] for p in grid]
    ys = [p[1] for p in grid]
    return max(xs) - min(xs) + max(ys) - min(ys) + 2


def orthogonal_routes(grid: Mapping[Pos, str], group: frozenset[Pos]) -> list[Route]:
    others = set(grid) - group
    out = []
    reach = _reach(grid)
    for name in ORTHOGONAL:
        dx, dy = DIRECTIONS[name]
        for k in range(1, reach + 1):
            # A collision can only follow a side contact, so the group always stops first.
            cells = [(x + dx * k, y + dy * k) for x, y in group]
            if _touching(cells, others):
                out.append(Route(group, name, None, _moved(grid, group, dx * k, dy * k)))
                break
    return out


def diagonal_routes(grid: Mapping[Pos, str], group: frozenset[Pos]) -> list[Route]:
    others = set(grid) - group
    out = []
    reach = _reach(grid)
    for name in DIAGONAL:
        dx, dy = DIRECTIONS[name]
        for k in range(1, reach + 1):
            cells = [(x + dx * k, y + dy * k) for x, y in group]
            if any(c in others for c in cells):
                # Met at a corner one step earlier: slide one space along either side.
                for sx, sy in ((dx, 0), (0, dy)):
                    out.append(
                        Route(group, name, NAME_OF[(sx, sy)], _moved(grid, group, dx * (k - 1) + sx, dy * (k - 1) + sy))
                    )
                break
            if _touching(cells, others):
                out.append(Route(group, name, None, _moved(grid, group, dx * k, dy * k)))
                break
    return out


def corner_slides(grid: Mapping[Pos, str], group: frozenset[Pos]) -> list[Route]:
    """Slides for a group that already touches another sheep by a corner (no die)."""
    others = set(grid) - group
    out: list[Route] = []
    seen: set[tuple[int, int]] = set()
    for x, y in sorted(group):
        for dx, dy in CORNERS:
            if (x + dx, y + dy) not in others:
                continue
            for sx, sy in ((dx, 0), (0, dy)):
                if (sx, sy) in seen:
                    continue
                seen.add((sx, sy))
                out.append(Route(group, NAME_OF[(sx, sy)], None, _moved(grid, group, sx, sy)))
    return out


def routes(grid: Mapping[Pos, str], face: str | None) -> list[Route]:
    """Every legal regrouping move now: for each smallest group, by the die face."""
    out: list[Route] = []
    for group in smallest_groups(grid):
        if face is None:
            out += corner_slides(grid, group)
        elif face == CROSS:
            # "If it is impossible to regroup with a diagonal move, carry it out orthogonally."
            out += diagonal_routes(grid, group) or orthogonal_routes(grid, group)
        else:
            # Not in the rulebook: should no row or column through the group meet
            # the flock, it moves diagonally (the mirror of the rule above), so the
            # game cannot stall.
            out += orthogonal_routes(grid, group) or diagonal_routes(grid, group)
    return out
