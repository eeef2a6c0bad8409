"""Axial hex coordinates (q, r), as in Red Blob Games' hex guide.

A pasture is a hex; two pastures touch when they share a side, i.e. when one
is a unit step from the other in one of the six axial directions.
"""

from __future__ import annotations

from collections.abc import Iterable

Hex = tuple[int, int]

# The six side neighbours, counter-clockwise from "east".  Straight lines on a
# hex grid are repeated steps in one of these directions.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes (side to side)."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def neighbours(h: Hex) -> tuple[Hex, ...]:
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def rotate(h: Hex, turns: int) -> Hex:
    """Rotate about the origin by ``turns`` sixths of a turn (60 degrees each)."""
    q, r = h
    for _ in range(turns % 6):
        # In cube coordinates (x, y, z) = (q, -q-r, r) a 60-degree turn is
        # (x, y, z) -> (-z, -x, -y); back in axial that is (q, r) -> (-r, q + r).
        q, r = -r, q + r
    return (q, r)


def mirror(h: Hex) -> Hex:
    """Reflect (the board turned face down is the same piece mirrored)."""
    return (h[1], h[0])


def connected(cells: Iterable[Hex]) -> bool:
    """True when every cell can be reached from every other by sides."""
    cells = set(cells)
    if not cells:
        return True
    return len(component(next(iter(cells)), cells)) == len(cells)


def component(start: Hex, cells: set[Hex] | frozenset[Hex]) -> set[Hex]:
    """The cells of ``cells`` connected to ``start`` by sides."""
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in neighbours(h):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def largest_component(cells: Iterable[Hex]) -> int:
    """Size of the biggest side-connected group (a player's largest herd)."""
    left = set(cells)
    best = 0
    while left:
        group = component(next(iter(left)), left)
        best = max(best, len(group))
        left -= group
    return best


def outside_perimeter(field: frozenset[Hex]) -> frozenset[Hex]:
    """Pastures touching the open ground around the field.

    A pasture beside an enclosed hole is not on the *outside* perimeter (the
    rulebook's word), so the open ground is found by flooding from beyond the
    field's bounding box rather than by counting missing neighbours.
    """
    if not field:
        return frozenset()
    qs = [h[0] for h in field]
    rs = [h[1] for h in field]
    q0, q1, r0, r1 = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    start = (q0, r0)
    outside = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in neighbours(h):
            if q0 <= n[0] <= q1 and r0 <= n[1] <= r1 and n not in field and n not in outside:
                outside.add(n)
                todo.append(n)
    return frozenset(h for h in field if any(n in outside for n in neighbours(h)))
