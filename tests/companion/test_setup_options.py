"""Every game's setup options are checked in one place (Game.validate_setup), from its own list."""

from __future__ import annotations

import pytest

from companion import registry
from companion.errors import SetupError

OPTIONS = [(name, option) for name in registry.BUILTIN for option in registry.get(name).setup_options]


def _players(name: str) -> list[str]:
    return [f"P{i}" for i in range(max(2, registry.get(name).min_players))]


def test_some_game_has_options() -> None:
    assert {o.key for _n, o in OPTIONS} >= {"mode", "tie_break", "whistle_margin"}


@pytest.mark.parametrize(("name", "option"), OPTIONS, ids=[f"{n}-{o.key}" for n, o in OPTIONS])
def test_a_setup_without_the_option_gets_its_default(name: str, option) -> None:
    s = registry.get(name).validate_setup({"players": _players(name)})
    assert s["options"][option.key] == option.default_value


@pytest.mark.parametrize(("name", "option"), [(n, o) for n, o in OPTIONS if not o.open_values],
                         ids=[f"{n}-{o.key}" for n, o in OPTIONS if not o.open_values])
def test_a_value_the_option_does_not_offer_is_refused_naming_each_value(name: str, option) -> None:
    game = registry.get(name)
    for bad in ("no-such-value", ["a", "list"], None):
        with pytest.raises(SetupError) as err:
            game.validate_setup({"players": _players(name), "options": {option.key: bad}})
        assert err.value.key == f"options.{option.key}"
        assert all(repr(v) in str(err.value) for v in option.values)
        if option.names:
            assert all(n in str(err.value) for n in option.names)
