"""The seven command-menu actions on the flock twin (rulebook "A — The Command Menu")."""

from __future__ import annotations

import pytest

from companion.games.shear_panic import actions
from companion.games.shear_panic.actions import Refusal
from companion.games.shear_panic.flock import DIRECTIONS, Flock, rotate, turned

START = Flock.from_rows(["RGB", "YKY", "BGR"])  # front row first


def rows(grid) -> list[str]:
    return Flock.of(grid).rows()


def test_from_rows_puts_the_front_row_at_the_largest_y() -> None:
    grid = START.grid()
    assert grid[(0, 2)] == "red" and grid[(1, 1)] == "black" and grid[(2, 0)] == "red"
    assert START.rows() == ["RGB", "YKY", "BGR"]


def test_lamb_push_pushes_the_line_ahead() -> None:
    out = actions.lamb_push(START.grid(), (1, 1), DIRECTIONS["right"])
    assert rows(out) == ["RGB.", "Y.KY", "BGR."]


def test_lamb_push_diagonal_pushes_the_diagonal_ahead() -> None:
    out = actions.lamb_push(START.grid(), (0, 0), DIRECTIONS["front-right"])
    # blue (0,0) pushes black (1,1) which pushes blue (2,2): the whole diagonal moves
    assert rows(out) == ["...B", "RGK.", "YBY.", ".GR."]


def test_lamb_push_stops_at_a_gap() -> None:
    flock = Flock.from_rows(["R.GB"])
    out = actions.lamb_push(flock.grid(), (0, 0), DIRECTIONS["right"])
    assert rows(out) == ["RGB"]  # red moved into the gap, green and blue were not pushed


def test_lamb_push_into_an_empty_square_pushes_nobody() -> None:
    out = actions.lamb_push(START.grid(), (0, 2), DIRECTIONS["front"])
    assert rows(out) == ["R..", ".GB", "YKY", "BGR"]


def test_line_push_starts_from_outside_the_flock() -> None:
    # Naming any sheep of the row pushes the row from its left end.
    out = actions.line_push(START.grid(), (2, 1), DIRECTIONS["right"])
    assert rows(out) == ["RGB.", ".YKY", "BGR."]


def test_line_push_leaves_sheep_beyond_a_gap() -> None:
    flock = Flock.from_rows(["RG.YB"])
    out = actions.line_push(flock.grid(), (4, 0), DIRECTIONS["left"])
    # pushed from the right end: yellow and blue move left, red and green stay
    assert rows(out) == ["RGYB"]


def test_line_push_refuses_a_diagonal() -> None:
    with pytest.raises(Refusal, match="front, back, left or right"):
        actions.line_push(START.grid(), (1, 1), DIRECTIONS["front-left"])


def test_diagonal_push_moves_one_diagonal() -> None:
    out = actions.diagonal_push(START.grid(), (1, 1), DIRECTIONS["back-left"])
    # the diagonal blue(2,2)-black(1,1)-blue(0,0) is pushed down-left from outside (top-right)
    assert rows(out) == [".RG.", ".YBY", ".KGR", "B..."]


def test_diagonal_push_refuses_an_orthogonal_direction() -> None:
    with pytest.raises(Refusal, match="diagonal"):
        actions.diagonal_push(START.grid(), (1, 1), DIRECTIONS["left"])


def test_alignment_packs_columns_against_the_front() -> None:
    flock = Flock.from_rows(["R..", "YKY", "B.R"])
    out = actions.alignment(flock.grid(), DIRECTIONS["front"])
    assert rows(out) == ["RKY", "Y.R", "B.."]


def test_alignment_packs_rows_against_the_left() -> None:
    flock = Flock.from_rows([".R.", "Y.K", "..B"])
    out = actions.alignment(flock.grid(), DIRECTIONS["left"])
    assert rows(out) == ["R.", "YK", "B."]


def test_lamb_roll_moves_to_an_empty_square_beside_the_flock() -> None:
    out = actions.lamb_roll(START.grid(), (0, 2), DIRECTIONS["front-right"])
    assert rows(out) == [".R.", ".GB", "YKY", "BGR"]


def test_lamb_roll_cannot_push() -> None:
    with pytest.raises(Refusal, match="cannot push"):
        actions.lamb_roll(START.grid(), (0, 2), DIRECTIONS["right"])


def test_lamb_roll_must_stay_connected() -> None:
    with pytest.raises(Refusal, match="connected"):
        actions.lamb_roll(START.grid(), (0, 2), DIRECTIONS["front-left"])


def test_leapfrog_jumps_to_the_first_empty_square() -> None:
    out = actions.leapfrog(START.grid(), (0, 2), DIRECTIONS["right"])
    assert rows(out) == [".GBR", "YKY.", "BGR."]
    flock = Flock.from_rows(["RG.B"])
    assert rows(actions.leapfrog(flock.grid(), (0, 0), DIRECTIONS["right"])) == ["GRB"]


def test_leapfrog_refuses_a_diagonal_jump() -> None:
    with pytest.raises(Refusal, match="diagonal jumps"):
        actions.leapfrog(START.grid(), (0, 2), DIRECTIONS["back-right"])


def test_ewe_turn_left_makes_the_old_left_the_front() -> None:
    flock = Flock.from_rows(["R", "B"])  # red in front of blue
    out = actions.ewe_turn(flock.grid(), "left")
    # facing west now, red (to the north) is on the flock's right
    assert rows(out) == ["BR"]
    assert turned("north", "left") == "west" and turned("west", "right") == "north"


def test_ewe_turn_left_then_right_is_the_identity() -> None:
    grid = START.grid()
    assert Flock.of(rotate(rotate(grid, "left"), "right")) == START
    assert Flock.of(rotate(rotate(rotate(rotate(grid, "left"), "left"), "left"), "left")) == START


def test_an_absent_sheep_is_refused() -> None:
    with pytest.raises(Refusal, match="no sheep"):
        actions.lamb_push(START.grid(), (5, 5), DIRECTIONS["left"])
