"""The game registry: names, titles without imports, and clear errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion import registry
from companion.errors import UnknownGame


@pytest.mark.parametrize("name", list(registry.BUILTIN))
def test_listed_title_is_the_games_own(name: str) -> None:
    assert registry.title(name) == registry.get(name).title
    assert registry.missing(name) is None


def test_titles_cover_every_builtin_game() -> None:
    assert set(registry.TITLES) == set(registry.BUILTIN)


def test_listing_titles_imports_no_engine() -> None:
    # A fresh interpreter: this one has imported the engines already.
    code = (
        "import sys\n"
        "from companion import registry\n"
        "print([registry.title(n) for n in registry.names()], [registry.missing(n) for n in registry.names()])\n"
        "print(sorted(m for m in sys.modules if m.startswith('companion.games.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert "Fleeced!" in out[0] and "None" in out[0]
    assert out[1] == "[]"


def test_unknown_game_is_named() -> None:
    with pytest.raises(UnknownGame, match="chess"):
        registry.title("chess")
    with pytest.raises(UnknownGame, match="chess"):
        registry.missing("chess")


def test_a_missing_module_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.BUILTIN, "ghost-game", "companion.games.ghost_game")
    monkeypatch.setitem(registry.TITLES, "ghost-game", "Ghost Game")
    assert registry.title("ghost-game") == "Ghost Game"
    assert registry.missing("ghost-game") == "no module named companion.games.ghost_game"
