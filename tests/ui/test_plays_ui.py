"""Results that leave the table, in a real window: the cooperative Sheep Hop! result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("size", ["800x480", "1280x720", "720x1280"])
def test_sheep_hop_results_are_the_tables_not_a_ranking(scenarios, size):
    r = scenarios.run("sheep_hop_results", size=size, timeout=120)
    won, lost = r["won"], r["lost"]
    assert won["title"] == "Sheep Hop!: You won together: 6 saved, 3 caught: Apprentice Shepherd"
    assert lost["title"] == "Sheep Hop!: The wolves won: 4 saved, 5 caught"
    for result in (won, lost):
        assert "wins" not in result["title"]
        # No ranking: no places and no points per player, just who played.
        for line in result["lines"]:
            assert not any(t in ("1st", "2nd", "3rd") or t.endswith(" pts") for t in line), line
        assert [t.split(" (")[0] for line in result["lines"] for t in line if " (" in t] == ["Ann", "Ben"]
        assert "Tie-break" not in result["notes"] and "No tie to break" not in result["notes"]
        assert result["problems"] == []
    # The Shepherds' Scale, the rung reached marked when won.
    assert "6: Apprentice Shepherd (you)" in won["notes"] and "9: Shepherd of the Mountains" in won["notes"]
    assert "Shepherds' Scale" in lost["notes"] and "(you)" not in lost["notes"]
    home = r["home"]
    assert any("finished: You won together: 6 saved, 3 caught: Apprentice Shepherd" in t for t in home), home
    assert any("finished: The wolves won: 4 saved, 5 caught" in t for t in home), home
    assert not any("won by" in t for t in home)
    assert r["home_problems"] == []
    # Share results on Results: this game alone, as BG Stats reads it.
    assert r["share_status"].startswith("1 play written: bellwether-plays-") and r["share_status"].endswith(".bgsplay.json (This Pi's data folder)")
    doc = json.loads(Path(r["share_written"]).read_text(encoding="utf-8"))
    assert [g["name"] for g in doc["games"]] == ["Sheep Hop!"] and doc["games"][0]["cooperative"] is True
    assert [ps["winner"] for ps in doc["plays"][0]["playerScores"]] == [True, True]


@pytest.mark.parametrize("size", ["800x480", "1280x720", "720x1280"])
def test_history_shows_a_bar_chart_per_die_and_shares_plays(scenarios, size):
    r = scenarios.run("history_dice", size=size, timeout=150)
    assert r["screen"] == "history"
    assert r["games"] == ["All games", "Fleeced!", "Shear Panic", "Sheep Hop!"]
    titles = [c["title"] for c in r["all"]]
    assert any(t.startswith("d6 · camera and buttons · ") for t in titles), titles
    assert any(t.startswith("d6, first die · camera and buttons") for t in titles)
    assert any(t.startswith("panic · entered by hand") for t in titles)
    assert any(t.startswith("sheep-hop · entered by hand") for t in titles)
    panic = next(c for c in r["all"] if c["title"].startswith("panic"))
    # One column a face: its count, the bar, the face by its name.
    assert [col[-1] for col in panic["columns"]] == ["blue", "green", "red", "yellow", "black", "white"]
    assert sum(int(col[0]) for col in panic["columns"]) == int(panic["title"].rsplit("· ", 1)[1].split()[0])
    for c in r["all"]:
        assert c["verdict"].startswith(("No sign of bias after", "Face ")), c
    assert {c["title"].split(" · ")[0] for c in r["fleeced"]} == {"d6", "d6, first die", "d6, second die"}
    assert r["problems_all"] == [] and r["problems_fleeced"] == []
    assert [b for b in r["share_buttons"] if b in ("BG Stats", "BoardGameGeek CSV", "Spreadsheet CSV")] == ["BG Stats", "BoardGameGeek CSV", "Spreadsheet CSV"]
    assert r["share_status"].startswith("3 plays written: bellwether-plays-") and r["share_status"].endswith(".bgg.csv (This Pi's data folder)")
    written = r["share_written"]
    assert written.startswith(str(scenarios.data_dir))
    assert Path(written).read_text(encoding="utf-8").startswith("playid,objectid,objectname,date,length")
    assert r["problems_share"] == [] and r["panel_closed"]


def test_a_shared_win_on_results_and_home(scenarios):
    r = scenarios.run("shared_win_results", timeout=120)
    assert r["title"] == "Battle Sheep: Ben and Cat share the win"
    assert r["places"] == ["1st", "1st", "3rd"]
    assert r["problems"] == []
    assert any("finished, shared by Ben and Cat" in t for t in r["home"]), r["home"]


def test_history_counts_the_stored_games_without_freezing_the_window(scenarios):
    r = scenarios.run("history_counts_in_the_background", size="800x480", timeout=120)
    assert r["while_counting"] == "Counting the dice of the stored games…"
    assert r["charts_while_counting"] == 0
    assert r["longest_frame_while_counting"] < 1.0  # the 2 s count ran beside the window, not in it
    assert r["charts"] > 0 and r["after"].startswith("Dice read in every stored game")
