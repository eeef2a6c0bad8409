from __future__ import annotations

import pytest

from companion.errors import SetupError
from companion.games.battle_sheep import GAME, default_board, validate_board
from companion.games.battle_sheep.field import legal_placements, place, placement_problem
from companion.games.battle_sheep.hexes import (
    DIRECTIONS,
    largest_component,
    neighbours,
    outside_perimeter,
    rotate,
)

from .helpers import STRIP, setup


def test_rotation_is_a_sixth_turn() -> None:
    assert rotate((1, 0), 1) == (0, 1)
    for d in DIRECTIONS:
        assert rotate(d, 6) == d
        assert rotate(d, 1) in DIRECTIONS
    assert {rotate((1, 0), k) for k in range(6)} == set(DIRECTIONS)


def test_neighbours_are_the_six_sides() -> None:
    assert len(set(neighbours((3, -2)))) == 6
    assert (4, -2) in neighbours((3, -2)) and (3, -1) in neighbours((3, -2))


def test_largest_herd_counts_side_connected_pastures() -> None:
    assert largest_component([(0, 0), (1, 0), (2, 0), (5, 5), (5, 6)]) == 3
    assert largest_component([]) == 0
    # (0,0) and (1,1) do not share a side in axial coordinates.
    assert largest_component([(0, 0), (1, 1)]) == 1


def test_outside_perimeter_ignores_pastures_beside_an_enclosed_hole() -> None:
    ring = frozenset(neighbours((0, 0))) | {n for h in neighbours((0, 0)) for n in neighbours(h)} - {(0, 0)}
    edge = outside_perimeter(ring)
    assert not edge & set(neighbours((0, 0)))  # the inner ring only borders the hole
    assert edge == ring - set(neighbours((0, 0)))


def test_default_board_is_four_connected_hexes() -> None:
    board = default_board()
    assert validate_board(board) == board
    assert len(board["hexes"]) == 4
    default_board()["hexes"].append([9, 9])  # a fresh dict each call
    assert len(default_board()["hexes"]) == 4


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"hexes": [[0, 0], [1, 0], [2, 0]]}, "board.hexes"),
        ({"hexes": [[0, 0], [1, 0], [2, 0], [9, 9]]}, "board.hexes"),
        ({"hexes": [[0, 0], [1, 0], [2, 0], [2, 0]]}, "board.hexes"),
        ({"hexes": [[0, 0], [1, 0], [2, 0], [3, "x"]]}, "board.hexes[3]"),
        ({"hexes": [[0, 0], [1, 0], [2, 0], [3, 0]], "colour": "green"}, "board.colour"),
        ([1, 2], "board"),
    ],
)
def test_bad_board_data_names_the_key(data: object, key: str) -> None:
    with pytest.raises(SetupError) as err:
        validate_board(data)
    assert err.value.key == key


def test_setup_board_option_overrides_the_default_and_is_recorded() -> None:
    line = {"hexes": [[0, 0], [1, 0], [2, 0], [3, 0]]}
    s = setup(2, board=line)
    assert s["options"]["board"] == line
    state = GAME.initial_state(s)
    assert state.shape == ((0, 0), (1, 0), (2, 0), (3, 0))
    assert setup(2)["options"]["board"] == default_board()  # the default goes into the record too
    with pytest.raises(SetupError) as err:
        setup(2, board={"hexes": [[0, 0]]})
    assert err.value.key == "options.board.hexes"


def test_preset_boards_are_checked_in_order() -> None:
    with pytest.raises(SetupError) as err:
        setup(2, boards=STRIP[:7])
    assert err.value.key == "options.boards"
    overlapping = [STRIP[0], STRIP[0], *STRIP[2:]]
    with pytest.raises(SetupError) as err:
        setup(2, boards=overlapping)
    assert err.value.key == "options.boards[1]"
    apart = [*STRIP[:7], {"at": [20, 20]}]
    with pytest.raises(SetupError) as err:
        setup(2, boards=apart)
    assert err.value.key == "options.boards[7]" and "touch" in str(err.value)
    with pytest.raises(SetupError) as err:
        setup(2, boards=[*STRIP[:7], {"at": [8, 0], "rotation": 6}])
    assert err.value.key == "options.boards[7]"
    with pytest.raises(SetupError) as err:
        setup(2, mode="quick", boards=STRIP)
    assert err.value.key == "options.boards"
    with pytest.raises(SetupError) as err:
        setup(2, mode="fast")
    assert err.value.key == "options.mode"


def test_every_listed_placement_touches_and_does_not_overlap() -> None:
    shape = ((0, 0), (1, 0), (0, 1), (1, 1))
    field = frozenset(place(shape, (0, 0), 0))
    options = legal_placements(field, shape)
    assert options and len({cells for *_, cells in options}) == len(options)
    for at, rotation, flip, cells in options:
        assert place(shape, at, rotation, flip) == cells
        assert placement_problem(field, cells) is None
