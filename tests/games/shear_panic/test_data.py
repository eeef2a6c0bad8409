"""Board data (track layout, command menu, starting flock): defaults, validation, setup overrides."""

from __future__ import annotations

import copy

import pytest

from companion.errors import ConfigError, SetupError
from companion.games.shear_panic import GAME, default_data, validate_data
from companion.games.shear_panic.track import validate_track


def test_default_data_is_valid_for_3_and_4_players() -> None:
    for n, spaces in ((3, 56), (4, 74)):
        data = default_data(n)
        track, tiles, flock = validate_data(data, n)
        assert track.spaces == spaces == track.final_pen
        assert len(tiles) == 12
        assert len(flock) == 9
    assert default_data(3)["track"]["fields"] == {
        "teammates": [1, 9],
        "roger": [10, 28],
        "black-sheep": [29, 37],
        "shearing": [38, 56],
    }
    assert default_data(4)["track"]["fields"]["shearing"] == [50, 74]


def test_one_alignment_tile_is_worth_3_as_the_rulebook_says() -> None:
    tiles = default_data(3)["tiles"]["tile"]
    assert any(t["action"] == "alignment" and t["time"] == 3 for t in tiles)


def test_a_lamb_push_tile_is_worth_3_as_in_the_rulebook_example() -> None:
    # "In the Fields", example: "Yellow chooses a Lamb Push and places a token on it. [...]
    # They advance the time counter by 3 spaces."
    tiles = default_data(4)["tiles"]["tile"]
    assert any(t["action"] == "lamb-push" and t["time"] == 3 for t in tiles)


def test_the_menu_has_every_action_twice_but_two_once() -> None:
    # BoardGameGeek review (thread 84549): "Most actions have two squares, but some only have one."
    tiles = default_data(4)["tiles"]["tile"]
    counts = sorted(sum(t["action"] == a for t in tiles) for a in {t["action"] for t in tiles})
    assert len(tiles) == 12 and counts == [1, 1, 2, 2, 2, 2, 2]


def test_the_starting_flock_is_a_square_with_the_black_sheep_in_the_middle() -> None:
    # Reviews: "a grid of nine squares", "a symmetrical pattern with the black sheep at the center".
    rows = default_data(3)["flock"]["rows"]
    assert len(rows) == 3 and all(len(r) == 3 for r in rows) and rows[1][1] == "K"


@pytest.mark.parametrize(
    ("path", "value", "key"),
    [
        (("track", "spaces"), "many", "track.spaces"),
        (("track", "fields", "roger"), [11, 28], "track.fields.roger"),
        (("track", "gates", "roger"), 40, "track.gates.roger"),
        (("track", "panic"), [3, 3], "track.panic"),
        (("track", "pictures", "shearer"), 99, "track.pictures.shearer"),
        (("track", "pictures", "roger"), 20, "track.pictures.roger"),  # after his gate (19): no Roger to score
        (("tiles", "tile", 2, "time"), 0, "tiles.tile[2].time"),
        (("tiles", "tile", 0, "action"), "jump", "tiles.tile[0].action"),
        (("tiles", "tile", 1, "id"), "lamb-push-1", "tiles.tile[1].id"),
        (("flock", "rows"), ["RGB", "YKY", "BGG"], "flock.rows"),
        (("flock", "rows"), ["RGB", "YKY", "...", "BGR"], "flock.rows"),
    ],
)
def test_validate_data_names_the_bad_key(path: tuple, value: object, key: str) -> None:
    data = copy.deepcopy(default_data(3))
    target = data
    for p in path[:-1]:
        target = target[p]
    target[path[-1]] = value
    with pytest.raises(ConfigError) as err:
        validate_data(data, 3)
    assert err.value.key == key


def test_track_of_the_wrong_length_for_the_player_count() -> None:
    with pytest.raises(ConfigError, match="spaces: expected 74"):
        validate_track(default_data(3)["track"], "t", players=4)


def test_setup_option_overrides_the_shipped_track() -> None:
    track = copy.deepcopy(default_data(3)["track"])
    track["panic"] = []
    s = GAME.validate_setup({"players": ["A", "B", "C"], "options": {"track": track}})
    assert GAME.initial_state(s).track.panic == frozenset()
    # The shipped data is copied into the setup so a record replays on its own.
    plain = GAME.validate_setup({"players": ["A", "B", "C"]})
    assert plain["options"]["track"] == default_data(3)["track"]
    assert plain["options"]["tiles"] == default_data(3)["tiles"]


def test_setup_errors_name_the_option_key() -> None:
    track = copy.deepcopy(default_data(3)["track"])
    track["gates"]["shearing"] = 5
    with pytest.raises(SetupError) as err:
        GAME.validate_setup({"players": ["A", "B", "C"], "options": {"track": track}})
    assert err.value.key == "options.track.gates.shearing"
    with pytest.raises(SetupError) as err:
        GAME.validate_setup({"players": ["A", "B", "C"], "options": {"tiles": "twelve"}})
    assert err.value.key == "options.tiles"
    with pytest.raises(SetupError) as err:
        GAME.validate_setup({"players": ["A", "B", "C"], "options": {"speed": 2}})
    assert err.value.key == "options.speed"


def test_two_players_are_refused_with_the_reason() -> None:
    with pytest.raises(SetupError, match="no 2-player variant") as err:
        GAME.validate_setup({"players": ["A", "B"]})
    assert err.value.key == "players"
    with pytest.raises(SetupError):
        GAME.validate_setup({"players": ["A", "B", "C", "D", "E"]})


def test_colours_default_in_turn_order_and_must_differ() -> None:
    s = GAME.validate_setup({"players": ["A", {"name": "B", "colour": "red"}, "C"]})
    assert [p["colour"] for p in s["players"]] == ["yellow", "red", "blue"]
    assert GAME.state_json(GAME.initial_state(s))["neutral"] == "green"
    with pytest.raises(SetupError) as err:
        GAME.validate_setup({"players": [{"name": "A", "colour": "red"}, {"name": "B", "colour": "red"}, "C"]})
    assert err.value.key == "players[1].colour"
    with pytest.raises(SetupError) as err:
        GAME.validate_setup({"players": [{"name": "A", "colour": "black"}, "B", "C"]})
    assert err.value.key == "players[0].colour"
