"""Regrouping the flock (rulebook "B — Regrouping the Flock"), with the rulebook's example."""

from __future__ import annotations

from companion.games.shear_panic import actions, regroup
from companion.games.shear_panic.flock import DIRECTIONS, Flock, is_connected

# The rulebook's example, set up from its description: the flock is intact; the
# red at the bottom of the diagonal red-green-black is pushed up and to the left.
EXAMPLE = Flock.from_rows([".K...", "BBGY.", "...RY", "..GR."])


def whole(grid) -> bool:
    return is_connected(grid)


def test_the_example_push_splits_the_flock_into_three_groups() -> None:
    assert whole(EXAMPLE.grid())
    after = actions.diagonal_push(EXAMPLE.grid(), (3, 1), DIRECTIONS["front-left"])
    assert Flock.of(after).rows() == ["K....", ".G...", "BBRY.", "....Y", "..GR."]
    sizes = sorted(len(g) for g in regroup.groups(after))
    assert sizes == [1, 1, 2, 5]  # black alone, yellow alone, a pair, the main flock


def test_the_rulebook_regrouping_example_step_by_step() -> None:
    grid = Flock.of(actions.diagonal_push(EXAMPLE.grid(), (3, 1), DIRECTIONS["front-left"])).grid()
    # Two smallest groups of one: the black and the lone yellow; the player picks.
    smallest = regroup.smallest_groups(grid)
    assert sorted(grid[next(iter(g))] for g in smallest) == ["black", "yellow"]
    # Black touches the green by a corner: it may slide right (above the green) or down (to its left).
    black = frozenset({(0, 4)})
    slides = {r.direction: r.grid for r in regroup.corner_slides(grid, black)}
    assert set(slides) == {"right", "back"}
    assert slides["right"][(1, 4)] == "black"  # on top of the green (1, 3)
    assert slides["back"][(0, 3)] == "black"  # to the green's left
    grid = dict(slides["right"])
    assert Flock.of(grid).rows() == [".K...", ".G...", "BBRY.", "....Y", "..GR."]
    # The yellow slides up; had it slid left it would have regrouped everything at once.
    yellow = frozenset({(4, 1)})
    slides = {r.direction: r.grid for r in regroup.corner_slides(grid, yellow)}
    assert whole(slides["left"])
    grid = dict(slides["front"])
    assert not whole(grid)
    # A group of two is left; the die shows X: it moves diagonally up and to the left.
    (pair,) = regroup.smallest_groups(grid)
    assert sorted(grid[p] for p in pair) == ["green", "red"]
    routes = regroup.routes(grid, regroup.CROSS)
    up_left = [r for r in routes if r.direction == "front-left"]
    assert len(up_left) == 1 and up_left[0].slide is None
    assert whole(up_left[0].grid)
    assert Flock.of(up_left[0].grid).rows() == [".K...", ".G...", "BBRYY", ".GR.."]


def test_plus_moves_orthogonally_until_the_group_touches() -> None:
    grid = Flock.from_rows(["R...B", "G....", "Y...."]).grid()
    # the blue is alone; + lets it travel left along its row until it touches red
    routes = regroup.routes(grid, regroup.PLUS)
    assert {r.direction for r in routes} == {"left"}  # nothing lies below it
    (left,) = [r for r in routes if r.direction == "left"]
    assert Flock.of(left.grid).rows() == ["RB", "G.", "Y."]


def test_x_meeting_at_a_corner_offers_both_slides() -> None:
    grid = Flock.from_rows(["..B", "...", "R..", "G.."]).grid()
    (pair_or_one,) = regroup.smallest_groups(grid)
    assert [grid[p] for p in pair_or_one] == ["blue"]
    routes = [r for r in regroup.routes(grid, regroup.CROSS) if r.direction == "back-left"]
    # blue moves down-left; one step on it would land on red, so it slides left or down
    assert sorted(r.slide for r in routes) == ["back", "left"]
    for r in routes:
        assert whole(r.grid)


def test_x_falls_back_to_orthogonal_when_no_diagonal_reaches() -> None:
    grid = Flock.from_rows(["R.B"]).grid()  # same row, two apart: no diagonal line meets red
    routes = regroup.routes(grid, regroup.CROSS)
    assert routes and all(r.direction in ("left", "right") for r in routes)
    assert all(whole(r.grid) for r in routes)


def test_a_whole_flock_has_nothing_to_regroup() -> None:
    assert regroup.smallest_groups(EXAMPLE.grid()) == []
    assert regroup.routes(EXAMPLE.grid(), regroup.PLUS) == []


def test_plus_falls_back_to_diagonal_when_no_orthogonal_line_reaches() -> None:
    # The red stands two squares off both edges of the flock: no row or column
    # through it meets a sheep, so "+" alone would leave the game stuck.
    grid = Flock.from_rows(["..GBB", "..KYY", "..GR.", ".....", "R...."]).grid()
    assert regroup.orthogonal_routes(grid, frozenset({(0, 0)})) == []
    routes = regroup.routes(grid, regroup.PLUS)
    assert routes and all(r.direction == "front-right" for r in routes)
    assert all(whole(r.grid) for r in routes)
