from __future__ import annotations

import copy

import pytest

from companion.errors import SetupError
from companion.games.sheep_hop import GAME, default_board, parse_board, validate_board

from .helpers import setup


def test_default_board_facts() -> None:
    board = parse_board(default_board())
    assert board.sheep_ids() == tuple(f"{c}{k}" for c in ("white", "black", "brown") for k in (1, 2, 3))
    assert [len(w.path) for w in board.wolves] == [20, 8]
    assert {f.kind for f in board.faces} == {"sheep", "any", "wolves"}
    assert board.face("double-big-wolf").steps == (("big", 2),)
    assert board.exit == (0, 3) and board.pen == (-1, 3) and len(board.start) == 9
    assert validate_board(validate_board(default_board())) == validate_board(default_board())


def _bad(mutate) -> SetupError:
    data = copy.deepcopy(default_board())
    mutate(data)
    with pytest.raises(SetupError) as err:
        validate_board(data)
    return err.value


@pytest.mark.parametrize(
    ("mutate", "key"),
    [
        (lambda d: d["sheep"].update(colours=["white", "white", "brown"]), "board.sheep.colours"),
        (lambda d: d["sheep"].update(colours=["white", "black"]), "board.sheep.colours"),
        (lambda d: d["die"]["faces"][0].update(colour="pink"), "board.die.faces[0].colour"),
        (lambda d: d["die"]["faces"][3].update(kind="goat"), "board.die.faces[3].kind"),
        (lambda d: d["die"]["faces"][4].update(steps={"grey": 1}), "board.die.faces[4].steps"),
        (lambda d: d["die"]["faces"][5].update(steps={"big": 0}), "board.die.faces[5].steps"),
        (lambda d: d["die"]["faces"][1].update(name="white"), "board.die.faces"),
        (lambda d: d["meadow"].update(pen="up"), "board.meadow.pen"),
        (lambda d: d["meadow"].update(pen="south"), "board.meadow.pen"),
        (lambda d: d["meadow"]["rows"].__setitem__(1, "..x...."), "board.meadow.rows[1]"),
        (lambda d: d["meadow"]["rows"].__setitem__(8, "  SS.  "), "board.meadow.rows"),
        (lambda d: d["meadow"]["rows"].__setitem__(0, "   .   "), "board.meadow.rows"),
        (lambda d: d["wolves"][0]["path"].__setitem__(3, [3, 3]), "board.wolves[0].path[3]"),
        (lambda d: d["wolves"][1].update(direction="left"), "board.wolves[1].direction"),
        (lambda d: d["wolves"][1].update(name="grey"), "board.wolves[1].name"),
        (lambda d: d["wolves"].pop(), "board.wolves"),
        (lambda d: d["wolves"][1].update(name="big"), "board.wolves"),
        (lambda d: d["wolves"][0]["path"].__setitem__(0, [0, 0]), "board.wolves[0].path[0]"),
        (lambda d: d.update(extra=1), "board.extra"),
    ],
)
def test_bad_data_names_the_key(mutate, key: str) -> None:
    assert _bad(mutate).key == key


def test_board_option_overrides_the_default_and_is_recorded() -> None:
    data = copy.deepcopy(default_board())
    data["sheep"]["colours"] = ["red", "green", "blue"]
    for f, c in zip(data["die"]["faces"][:3], ("red", "green", "blue"), strict=True):
        f.update(name=c, colour=c)
    s = setup(board=data)
    assert s["options"]["board"]["sheep"]["colours"] == ["red", "green", "blue"]
    assert GAME.initial_state(s).board.sheep_ids()[0] == "red1"
    assert setup()["options"]["board"] == validate_board(default_board())
    with pytest.raises(SetupError) as err:
        setup(board={"sheep": {}})
    assert err.value.key == "options.board.sheep.colours"


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"tiles": [{"tile": "mole", "at": [3, 3]}]}, "options.tiles"),
        ({"tiles": [{"tile": "rock", "at": [0, 3]}]}, "options.tiles[0].at"),
        ({"tiles": [{"tile": "rock", "at": [9, 9]}]}, "options.tiles[0].at"),
        ({"tiles": [{"tile": "dragon", "at": [3, 3]}]}, "options.tiles[0].tile"),
        ({"tiles": [{"tile": "fox", "at": [3, 3]}, {"tile": "fox", "at": [3, 1]}]}, "options.tiles[1].tile"),
        ({"tiles": [{"tile": "fox", "at": [3, 3]}, {"tile": "rock", "at": [3, 3]}]}, "options.tiles[1].at"),
        ({"tiles": [{"tile": "fox", "at": [1, 0]}]}, "options.wolves.big"),
        ({"wolves": {"big": 20}}, "options.wolves.big"),
        ({"wolves": {"grey": 1}}, "options.wolves.grey"),
        ({"mode": "video"}, "options.mode"),
        ({"sheep": {}}, "options.sheep"),
    ],
)
def test_bad_setup_names_the_key(options: dict, key: str) -> None:
    with pytest.raises(SetupError) as err:
        setup(**options)
    assert err.value.key == key


def test_board_mode_sheep_start_on_the_starting_area() -> None:
    ids = parse_board(default_board()).sheep_ids()
    start = parse_board(default_board()).start
    swapped = {s: list(c) for s, c in zip(ids, reversed(start), strict=True)}
    state = GAME.initial_state(setup("board", sheep=swapped))
    assert state.at[0] == (8, 4)
    with pytest.raises(SetupError) as err:
        setup("board", sheep={**swapped, "white1": [3, 3]})
    assert err.value.key == "options.sheep.white1"
    with pytest.raises(SetupError) as err:
        setup("board", tiles=[{"tile": "fox", "at": [6, 2]}])
    assert err.value.key == "options.tiles[0].at"
