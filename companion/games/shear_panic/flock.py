"""The flock on an unbounded square grid, in the flock's own frame.

Coordinates are ``(x, y)`` with x to the flock's right and y towards its front
(the way the sheep's heads point).  Keeping positions in the flock's frame
makes every rule that talks about "the row closest to Roger / the Shearer" or
"the front" a question about y alone; an Ewe Turn then *rotates the
coordinates* while the compass ``facing`` records where the front points on
the table.  A flock is always stored translated so that its smallest x and y
are 0: two flocks that differ only by where they stand on the table are the
same flock for every rule (and for the no-reverse check).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

Pos = tuple[int, int]
Grid = dict[Pos, str]  # a working copy: position -> colour

SHEEP_COLOURS: tuple[str, ...] = ("blue", "green", "red", "yellow")
BLACK = "black"
ALL_COLOURS: tuple[str, ...] = (*SHEEP_COLOURS, BLACK)
COUNT = {"blue": 2, "green": 2, "red": 2, "yellow": 2, "black": 1}  # the 9 sheep in the box

# Directions in the flock's frame.  Aliases let the table say "up" for the
# front as the rulebook's pictures do.
DIRECTIONS: dict[str, Pos] = {
    "front": (0, 1),
    "back": (0, -1),
    "left": (-1, 0),
    "right": (1, 0),
    "front-left": (-1, 1),
    "front-right": (1, 1),
    "back-left": (-1, -1),
    "back-right": (1, -1),
}
ALIASES = {
    "up": "front",
    "down": "back",
    "up-left": "front-left",
    "up-right": "front-right",
    "down-left": "back-left",
    "down-right": "back-right",
}
ORTHOGONAL: tuple[str, ...] = ("front", "back", "left", "right")
DIAGONAL: tuple[str, ...] = ("front-left", "front-right", "back-left", "back-right")
NAME_OF: dict[Pos, str] = {v: k for k, v in DIRECTIONS.items()}
NEIGHBOURS: tuple[Pos, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
CORNERS: tuple[Pos, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))

COMPASS: tuple[str, ...] = ("north", "east", "south", "west")  # clockwise


def direction(name: object) -> Pos | None:
    """The step for a direction name (or alias), None if it is not one."""
    if not isinstance(name, str):
        return None
    name = name.strip().lower()
    return DIRECTIONS.get(ALIASES.get(name, name))


def direction_name(name: object) -> str | None:
    """The canonical name of a direction (``"up"`` -> ``"front"``), None if it is not one."""
    if not isinstance(name, str):
        return None
    name = name.strip().lower()
    name = ALIASES.get(name, name)
    return name if name in DIRECTIONS else None


def turned(facing: str, side: str) -> str:
    """The compass facing after an Ewe Turn to the flock's left or right."""
    i = COMPASS.index(facing)
    return COMPASS[(i + (1 if side == "right" else -1)) % 4]


@dataclass(frozen=True)
class Flock:
    """The sheep still in the field: sorted ``((x, y), colour)`` pairs, min x = min y = 0."""

    cells: tuple[tuple[Pos, str], ...]

    @classmethod
    def of(cls, grid: Mapping[Pos, str]) -> Flock:
        """A normalised flock from any grid (translated so min x = min y = 0)."""
        if not grid:
            return cls(())
        mx = min(p[0] for p in grid)
        my = min(p[1] for p in grid)
        return cls(tuple(sorted(((x - mx, y - my), c) for (x, y), c in grid.items())))

    @classmethod
    def from_rows(cls, rows: Iterable[str]) -> Flock:
        """A flock from a picture, front row first: letters B G R Y K, '.' for empty.

        >>> Flock.from_rows(["K.", "RB"]).grid()[(0, 1)]
        'black'
        """
        letters = {"B": "blue", "G": "green", "R": "red", "Y": "yellow", "K": "black"}
        rows = list(rows)
        grid: Grid = {}
        for i, row in enumerate(rows):
            y = len(rows) - 1 - i
            for x, ch in enumerate(row.replace(" ", "")):
                if ch != ".":
                    grid[(x, y)] = letters[ch.upper()]
        return cls.of(grid)

    def grid(self) -> Mapping[Pos, str]:
        """Position -> colour, read-only (built once: every rule asks for it)."""
        return MappingProxyType(self._grid)

    @cached_property
    def _grid(self) -> Grid:
        # A plain dict (not a proxy) so that states stay copyable and picklable.
        return dict(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def colours(self) -> list[str]:
        return [c for _, c in self.cells]

    def positions_of(self, colour: str) -> list[Pos]:
        return [p for p, c in self.cells if c == colour]

    def rows(self) -> list[str]:
        """The flock as a picture, front row first (the inverse of ``from_rows``)."""
        letters = {"blue": "B", "green": "G", "red": "R", "yellow": "Y", "black": "K"}
        grid = self.grid()
        if not grid:
            return []
        w = max(x for x, _ in grid) + 1
        h = max(y for _, y in grid) + 1
        return [
            "".join(letters[grid[(x, y)]] if (x, y) in grid else "." for x in range(w)) for y in range(h - 1, -1, -1)
        ]

    def to_json(self) -> list[dict[str, object]]:
        return [{"colour": c, "x": x, "y": y} for (x, y), c in self.cells]


def rotate(grid: Mapping[Pos, str], side: str) -> Grid:
    """The grid in the flock's new frame after every sheep turns 90 degrees.

    Turning left, the old left becomes the front: new y = -old x, new x = old y.
    Turning right, the old right becomes the front: new y = old x, new x = -old y.
    """
    if side == "left":
        return {(y, -x): c for (x, y), c in grid.items()}
    return {(-y, x): c for (x, y), c in grid.items()}


def groups(cells: Iterable[Pos]) -> list[frozenset[Pos]]:
    """The orthogonally connected groups (diagonal contact does not count)."""
    left = set(cells)
    out: list[frozenset[Pos]] = []
    while left:
        start = left.pop()
        seen = {start}
        stack = [start]
        while stack:
            x, y = stack.pop()
            for dx, dy in NEIGHBOURS:
                q = (x + dx, y + dy)
                if q in left:
                    left.discard(q)
                    seen.add(q)
                    stack.append(q)
        out.append(frozenset(seen))
    return out


def is_connected(cells: Iterable[Pos]) -> bool:
    return len(groups(cells)) <= 1


def touches(a: Pos, b: Pos) -> int:
    """2 when two squares share a side, 1 when they share only a corner, else 0."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    if dx + dy == 1:
        return 2
    if dx == 1 and dy == 1:
        return 1
    return 0
