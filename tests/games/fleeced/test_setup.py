"""Setup: players and characters, dealt hands, the whistle margin."""

from __future__ import annotations

import pytest

from companion.errors import SetupError
from companion.games.fleeced import GAME


def test_characters_default_from_names_then_first_free() -> None:
    s = GAME.validate_setup({"players": ["Ann", "Gromit", {"name": "Bob", "character": "Wallace"}]})
    assert [p["character"] for p in s["players"]] == ["Wendolene", "Gromit", "Wallace"]
    assert s["options"]["whistle_margin"] == 1.5


@pytest.mark.parametrize(
    ("setup", "key"),
    [
        ({"players": ["Ann"]}, "players"),
        ({"players": [f"P{i}" for i in range(7)]}, "players"),
        ({"players": [{"name": "A", "character": "Gromit"}, {"name": "B", "character": "Gromit"}]},
         "players[1].character"),
        ({"players": [{"name": "A", "character": "Shaun"}, "B"]}, "players[0].character"),
        ({"players": ["A", "B"], "options": {"whistle_margin": -1}}, "options.whistle_margin"),
        ({"players": ["A", "B"], "options": {"whistle_margin": "soon"}}, "options.whistle_margin"),
        ({"players": [{"name": "A", "hand": ["hard-cheese", "?", "?"]}, "B"]}, "players[0].hand"),
        ({"players": [{"name": "A", "hand": ["?", "?"]}, "B"]}, "players[0].hand"),
    ],
)
def test_bad_setups_name_the_key(setup: dict, key: str) -> None:
    with pytest.raises(SetupError) as err:
        GAME.validate_setup(setup)
    assert err.value.key == key


def test_initial_state_accounts_for_all_sheep_and_hands() -> None:
    setup = GAME.validate_setup({"players": [{"name": "A", "hand": ["key-pub", "other", "?"]}, "B"]})
    s = GAME.initial_state(setup)
    j = GAME.state_json(s)
    assert j["sheep"] == {"hideouts": 7, "bag": 33, "green": 0, "in_tow": {"A": 0, "B": 0},
                          "claimed": {"A": 0, "B": 0}}
    assert j["hands"] == {"A": ["key-pub", "other", "?"], "B": ["?", "?", "?"]}
    assert j["turn"]["phase"] == "first-roll" and j["turn"]["player"] == "A"
    assert GAME.turn_phase(s) == (0, "first-roll")
    assert GAME.outcome(s) is None and GAME.scores(s) == {"A": 0, "B": 0}
