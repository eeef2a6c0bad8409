"""Player names with control characters never reach the terminal (or the screen) raw."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import registry
from companion.errors import SetupError
from companion.game import printable
from companion.plays.model import clean_name

from .conftest import assert_one_clear_line, bellwether

HOSTILE = [
    "\x1b[2J\x1b[HRanking: Eve",  # clear the screen, forge a result line
    "Ann\nRanking: Eve",
    "Bob\rEve",  # a carriage return overwrites the line shown
    "\x07bell",
    "\u202eevE",  # right-to-left override: shows reversed
    "Zed\u200b",  # zero-width space: two names that look the same
    "Ann\u2028Eve",  # a line separator: a new line on a screen, a broken CSV row
    "x" * 41,
]


@pytest.mark.parametrize("game", ["tally", *registry.BUILTIN])
@pytest.mark.parametrize("name", HOSTILE, ids=range(len(HOSTILE)))
def test_a_name_with_control_characters_is_refused_at_setup(game: str, name: str) -> None:
    g = registry.get(game)
    players = [{"name": name}] + [{"name": f"P{i}"} for i in range(max(1, g.min_players) - 1)]
    with pytest.raises(SetupError, match=r"players\[0\]\.name"):
        g.validate_setup({"players": players})


def test_plain_names_in_any_script_are_still_welcome() -> None:
    g = registry.get("tally")
    names = ["Zoë", "Søren", "山田", "O'Brien", "Anne-Marie", "Ольга"]
    assert [p["name"] for p in g.validate_setup({"players": names})["players"]] == names


@pytest.mark.parametrize("name", HOSTILE[:-1], ids=range(len(HOSTILE) - 1))
def test_a_plays_export_leaves_out_exactly_what_setup_refuses(name: str) -> None:
    # A stored game may hold a name from before the rule: its export is cleaned by the same definition.
    cleaned = clean_name(name)
    assert printable(cleaned) and not printable(name)
    assert clean_name("Zoë \u5c71\u7530") == "Zoë 山田"


def _record(tmp_path: Path, names: list[str], player: str | None = None) -> Path:
    header = {"format": "bellwether-record", "version": 1, "game": "tally", "setup": {"players": names}}
    event = {"type": "roll", "payload": {"die": "d6", "faces": [3]}, "time": 1.0}
    if player is not None:
        event["player"] = player
    path = tmp_path / "names.jsonl"
    path.write_text(json.dumps(header) + "\n" + json.dumps(event) + "\n")
    return path


@pytest.mark.parametrize("command", ["replay", "validate"])
def test_the_cli_never_prints_an_escape_sequence(tmp_path: Path, command: str) -> None:
    r = bellwether(command, str(_record(tmp_path, [HOSTILE[0], "Bob"])))
    assert_one_clear_line(r, "players[0].name", "control characters")
    assert "\x1b" not in r.stderr + r.stdout and "\\x1b" in r.stderr
    r = bellwether(command, str(_record(tmp_path, ["Ann", "Bob"], player="\x1b[2JBob")))
    assert_one_clear_line(r, f"{tmp_path / 'names.jsonl'}:2:")
    assert "\x1b" not in r.stderr + r.stdout


def test_a_stored_game_from_before_the_rule_still_opens_and_prints_safely(tmp_path: Path) -> None:
    """A name stored before names were checked: the game is not lost, and never printed raw."""
    import sqlite3

    from companion.events import Event
    from companion.session import Session
    from companion.store import Store

    data = tmp_path / "data"
    with Store(data / "bellwether.db") as store:
        s = Session.new(store, "tally", {"players": ["Ann", "Bob"]})
        s.apply(Event("roll", {"die": "d6", "faces": [4]}))
        sid = s.id
    db = sqlite3.connect(data / "bellwether.db")  # as an older Bellwether would have stored it
    setup = json.dumps({"players": [{"name": "\x1b[2JAnn"}, {"name": "Bob"}], "options": {"target": 1_000_000}})
    db.execute(
        "UPDATE sessions SET setup=?, summary=? WHERE id=?",
        (setup, json.dumps({"players": ["\x1b[2JAnn", "Bob"]}), sid),
    )
    db.commit()
    db.close()
    for args in (("sessions",), ("export", str(sid))):
        r = bellwether("--data-dir", str(data), *args)
        assert r.returncode == 0, r.stderr
        assert "\x1b" not in r.stdout or args[0] == "export"  # export is JSON: the escape is \u001b there
        assert "\x1b" not in r.stdout.replace("\\u001b", "")
