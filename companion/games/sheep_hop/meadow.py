"""The Sheep Hop! meadow as the board check edits it: a rectangle with its exit and starting area.

``Meadow`` redraws ``meadow.rows`` (the shipped layout's form: a rectangle of
spaces, the exit one place outside an edge, the pen beyond it, the 3 x 3
starting area centred on the opposite edge) after the table changes its size or
moves its exit; ``loop`` puts a wolf's path in order once its spaces make one
closed loop.  Pure geometry on ``(row, column)`` cells, row 0 at the top.
"""

from __future__ import annotations

from dataclasses import dataclass

from .data import Cell

OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}


@dataclass(frozen=True)
class Meadow:
    """A Sheep Hop! meadow the view can redraw: a rectangle of spaces, the exit one place
    outside an edge (``exit_at`` along it, from the top or left), the pen beyond the exit,
    and the 3 x 3 starting area centred on the opposite edge (the shipped layout's form)."""

    rows: int
    cols: int
    pen: str
    exit_at: int

    def layout(self) -> tuple[list[str], Cell]:
        """The ``meadow.rows`` strings and where the meadow's top-left space lands in them."""
        cells = {(r, c): "." for r in range(self.rows) for c in range(self.cols)}
        cells[self._exit()] = "E"
        side = OPPOSITE[self.pen]
        across, down = (self.cols - 3) // 2, (self.rows - 3) // 2
        starts = {"south": (self.rows, across), "north": (-3, across), "east": (down, self.cols), "west": (down, -3)}
        first = starts[side]
        for dr in range(3):
            for dc in range(3):
                cells[(first[0] + dr, first[1] + dc)] = "S"
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        width = max(c for _, c in cells) - c0 + 1
        rows = []
        for r in range(r0, max(r for r, _ in cells) + 1):
            rows.append("".join(cells.get((r, c), " ") for c in range(c0, c0 + width)))
        return rows, (-r0, -c0)

    def _exit(self) -> Cell:
        """The exit's place, counted from the meadow's top-left space."""
        return next(
            place for place, (side, at) in self.beside((0, 0)).items() if (side, at) == (self.pen, self.exit_at)
        )

    def beside(self, origin: Cell) -> dict[Cell, tuple[str, int]]:
        """The places just outside each edge (where an exit may go): place -> (edge, how far along it)."""
        r0, c0 = origin
        places = {}
        for k in range(self.cols):
            places[(r0 - 1, c0 + k)] = ("north", k)
            places[(r0 + self.rows, c0 + k)] = ("south", k)
        for k in range(self.rows):
            places[(r0 + k, c0 - 1)] = ("west", k)
            places[(r0 + k, c0 + self.cols)] = ("east", k)
        return places

    def ring(self, origin: Cell) -> list[Cell]:
        """The spaces round the meadow's edge, clockwise from its top-left (the shipped big wolf)."""
        r0, c0 = origin
        top = [(r0, c0 + c) for c in range(self.cols)]
        right = [(r0 + r, c0 + self.cols - 1) for r in range(1, self.rows)]
        bottom = [(r0 + self.rows - 1, c0 + c) for c in range(self.cols - 2, -1, -1)]
        left = [(r0 + r, c0) for r in range(self.rows - 2, 0, -1)]
        return top + right + bottom + left

    @staticmethod
    def read(rows: list[str], pen: str) -> tuple[Meadow, Cell] | None:
        meadow = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]
        exits = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "E"]
        if not meadow or len(exits) != 1 or pen not in OPPOSITE:
            return None
        r0, c0 = min(r for r, _ in meadow), min(c for _, c in meadow)
        n_rows, n_cols = max(r for r, _ in meadow) - r0 + 1, max(c for _, c in meadow) - c0 + 1
        exit_at = exits[0][1] - c0 if pen in ("north", "south") else exits[0][0] - r0
        found = Meadow(n_rows, n_cols, pen, exit_at)
        # Only a meadow that redraws to exactly the same rows is edited here.
        redrawn, origin = found.layout()
        same = [r.rstrip() for r in redrawn] == [r.rstrip() for r in rows] and origin == (r0, c0)
        return (found, origin) if same else None


def spaces(rows: list[str]) -> set[Cell]:
    return {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != " "}


def loop(path: list[Cell]) -> list[Cell] | None:
    """The spaces as one closed loop, clockwise from the first, or None when they are not
    one (every space next to exactly two others, all joined)."""
    cells = set(path)
    if len(cells) < 4:
        return None
    nbrs = {c: [n for n in cells if abs(n[0] - c[0]) + abs(n[1] - c[1]) == 1] for c in cells}
    if any(len(n) != 2 for n in nbrs.values()):
        return None
    order, prev = [path[0]], None
    while True:
        here = order[-1]
        nxt = next(n for n in nbrs[here] if n != prev)
        if nxt == order[0]:
            break
        order.append(nxt)
        prev = here
        if len(order) > len(cells):
            return None
    if len(order) != len(cells):
        return None  # two loops, not one
    # Shoelace with x = column, y = -row: positive area is counterclockwise on screen.
    area = sum(a[1] * -b[0] - b[1] * -a[0] for a, b in zip(order, order[1:] + order[:1], strict=True))
    return [order[0], *reversed(order[1:])] if area > 0 else order
