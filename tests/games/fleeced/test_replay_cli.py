"""`bellwether replay --json` on a Fleeced! record shows the sheep accounting and the turn."""

from __future__ import annotations

import json

from tests.conftest import FIXTURES


def test_replay_json_prints_the_accounting(cli) -> None:
    path = FIXTURES / "fleeced" / "nicked-three-doubles-bribe.jsonl"
    done = cli("replay", "--json", str(path))
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)["state"]
    sheep = state["sheep"]
    assert set(sheep) == {"hideouts", "bag", "green", "in_tow", "claimed"}
    total = sheep["hideouts"] + sheep["bag"] + sheep["green"] + sum(sheep["in_tow"].values()) \
        + sum(sheep["claimed"].values())
    assert total == 40
    assert state["turn"]["player"] == "Wallace" and state["turn"]["phase"] == "roll"


def test_replay_text_names_the_winner(cli) -> None:
    done = cli("replay", str(FIXTURES / "fleeced" / "full-game-two-players.jsonl"))
    assert done.returncode == 0, done.stderr
    assert "Ranking: Wallace, Gromit" in done.stdout
