"""The hill as data: the shipped default, its validation and the setup override."""

from __future__ import annotations

import pytest

from companion import registry
from companion.errors import ConfigError, SetupError
from companion.games.pendleton_hill import GAME, default_board_data, validate_board_data
from companion.games.pendleton_hill.board import Board

from .helpers import Table


def test_registered_under_its_name() -> None:
    assert registry.get("pendleton-hill") is GAME
    assert (GAME.min_players, GAME.max_players) == (3, 5)


def test_default_board_has_the_certain_shape() -> None:
    data = default_board_data()
    tiers = [p["tier"] for p in data["pastures"].values()]
    assert sorted(tiers) == [1, 1, 1, 1, 2, 2, 2, 3, 3, 4]
    assert data["tier_values"] == [1, 3, 5, 7]
    assert data["wolf_start"] == "2b"
    assert [p["spaces"] for p in data["pens"]] == [5, 5, 5]
    assert [p["black_sheep"] for p in data["pens"]] == [False, False, True]


def test_default_data_is_a_fresh_copy() -> None:
    data = default_board_data()
    data["tier_values"][0] = 99
    assert default_board_data()["tier_values"][0] == 1


def test_board_indexes_flock_steps_without_going_down() -> None:
    b = Board.from_data(default_board_data())
    i = b.index
    assert b.ids == ("1a", "1b", "1c", "1d", "2a", "2b", "2c", "3a", "3b", "4a")
    assert {b.ids[j] for j in b.flock_steps[i["2b"]]} == {"2a", "2c", "3a", "3b"}
    assert {b.ids[j] for j in b.touches[i["2b"]]} == {"1b", "1c", "2a", "2c", "3a", "3b"}
    assert b.value[i["4a"]] == 7 and b.value[i["3a"]] == 5 and b.top == i["4a"]
    assert b.bottom == (0, 1, 2, 3)


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda d: d.update(colour="green"), "colour"),
        (lambda d: d.update(tier_values=[1, 3, 5]), "tier_values"),
        (lambda d: d.update(tier_values=[1, 3, "5", 7]), "tier_values"),
        (lambda d: d["pastures"]["1a"].update(tier=7), "pastures.1a.tier"),
        (lambda d: d["pastures"]["1a"].update(tier=2), "pastures"),
        (lambda d: d["pastures"]["1a"].update(touches=["1b", "9z"]), "pastures.1a.touches"),
        (lambda d: d["pastures"]["1a"].update(touches=["1b", "2a", "3a"]), "pastures.1a.touches"),
        (lambda d: d["pastures"]["1a"].update(touches=["1b", "2a", "1c"]), "pastures.1c.touches"),
        (lambda d: d["pastures"]["1a"].update(touches=["1a"]), "pastures.1a.touches"),
        (lambda d: d["pastures"]["1a"].update(height=3), "pastures.1a.height"),
        (lambda d: d.update(wolf_start="1a"), "wolf_start"),
        (lambda d: d["pens"][0].update(spaces=6), "pens[0].spaces"),
        (lambda d: d["pens"][0].update(black_sheep=True), "pens"),
        (lambda d: d["pens"].pop(), "pens"),
    ],
)
def test_validation_names_the_key(change, key: str) -> None:
    data = default_board_data()
    change(data)
    with pytest.raises(ConfigError) as err:
        validate_board_data(data, "board.toml")
    assert err.value.key == key
    assert str(err.value).startswith(f"board.toml: {key}: expected")


def test_missing_key_is_named() -> None:
    data = default_board_data()
    del data["wolf_start"]
    with pytest.raises(ConfigError, match="wolf_start: expected"):
        validate_board_data(data)


def test_setup_resolves_the_board_into_the_record() -> None:
    setup = GAME.validate_setup({"players": ["Ann", "Bob", "Cat"]})
    assert setup["options"]["board"] == default_board_data()


def test_setup_override_changes_the_hill() -> None:
    data = default_board_data()
    data["tier_values"] = [2, 4, 6, 10]
    data["pens"][0]["spaces"] = 4
    t = Table(4, {"board": data})
    hill = t.json()["hill"]
    assert hill["4a"]["value"] == 10 and hill["1c"]["value"] == 2
    assert [p["spaces"] for p in t.json()["pens"]] == [4, 5, 5]


def test_setup_errors_name_the_option_key() -> None:
    data = default_board_data()
    data["pens"][1]["spaces"] = 3
    with pytest.raises(SetupError) as err:
        GAME.validate_setup({"players": ["Ann", "Bob", "Cat"], "options": {"board": data}})
    assert err.value.key == "options.board.pens[1].spaces"
    with pytest.raises(SetupError, match=r"options\.speed"):
        GAME.validate_setup({"players": ["Ann", "Bob", "Cat"], "options": {"speed": 2}})
    with pytest.raises(SetupError, match="3 to 5 players"):
        GAME.validate_setup({"players": ["Ann", "Bob"]})
