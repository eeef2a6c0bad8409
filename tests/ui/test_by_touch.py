"""Games played by touch alone in a real window, checked on every screen (tests/ui/touch_check.py)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


def test_the_touch_harness_sees_what_a_finger_can(scenarios):
    r = scenarios.run("touch_harness")
    assert r["offered_faces"] == [1, 2, 3, 4, 5, 6]
    assert r["unreachable"] == []
    assert r["scores"]["Player 1"] == 4
    assert r["redo_refused"] and "'Redo' is not on screen or disabled" in r["redo_refused"]
    assert any("die face" in p for p in r["scrolled_away"])
    assert any("text under 14 px" in p for p in r["small_after"]) and len(r["small_after"]) > len(r["small"])


@pytest.mark.parametrize("size", ["800x480", "1280x720", "720x1280"])
def test_fleeced_complete_by_touch(scenarios, size):
    r = scenarios.run("fleeced_complete_by_touch", size=size, timeout=240)
    assert r["touch_problems"] == {}
    assert r["screens_checked"] > 60
    assert "Ann rolled 11 and goes first" in r["first_player_alert"]
    assert r["claimed"] == {"Ann": 16, "Bob": 12, "Cy": 12}
    assert r["outcome"]["ranking"][0] == "Ann"
    assert r["sources"] == ["touch"]
    assert any("Ann wins" in t for t in r["results_texts"])
    # Bob and Cy tie on 24 points (no tie-break in the rulebook): they share 2nd.
    assert [t for t in r["results_texts"] if t in ("1st", "2nd", "3rd")] == ["1st", "2nd", "2nd"]


def test_fleeced_whistle_out_of_turn_by_touch(scenarios):
    """F6 (out-of-turn whistle by touch), F15 (stale indicator), F16 (red only for penalties)."""
    r = scenarios.run("fleeced_whistle_out_of_turn_by_touch", timeout=150)
    assert r["touch_problems"] == {}
    assert r["turn_of"] == "Bob"
    assert r["who_blew"] == "Who blew?"
    assert r["who_blew_buttons"] == ["Ann blew", "Bob blew", "Cy blew", "Nobody: cancel"]
    assert r["alert"] == "Penalty: Ann blew out of turn and loses one claimed sheep to the Village Green."
    assert r["alert_bg"][:3] == pytest.approx([0xB5 / 255, 0x17 / 255, 0x1B / 255])  # red: a penalty
    assert r["strip_button"] == "Contest"  # Ann can say she did not blow
    assert r["claimed"]["Ann"] == 10
    assert r["whistle_line"].startswith("Whistle: Ann")
    assert r["after_undo_claimed"]["Ann"] == 11
    assert r["after_undo_whistle"].startswith("No whistle this turn")
    assert r["undone_message"].startswith("Undone: whistle by Ann")
    assert r["own_whistle_line"].startswith("Whistle: Bob")
    assert r["next_turn_of"] == "Cy" and r["next_turn_whistle"].startswith("No whistle this turn")


def test_fleeced_six_players_and_a_reroll_fit_by_touch(scenarios):
    """F8 (answers on screen with a ruling), F9/F32 (six players fit), F13 (re-roll wording), F18 (characters)."""
    r = scenarios.run("fleeced_reroll_and_six_players", timeout=150)
    assert r["touch_problems"] == {}
    assert len(set(r["characters"])) == 6
    assert r["first_alert"].startswith("Ann rolled 11 and goes first")
    assert r["rows_on_screen"] == 6
    assert r["faces_on_screen"] == ["1", "2", "3", "4", "5", "6"]
    assert r["after_six"].startswith("Move 6, then roll again")
    assert r["after_reroll"].startswith("Move 4 more (10 in all)")


def test_home_tidies_stored_games_and_the_offline_line_explains(scenarios):
    """F26 (delete / abandon from Home), F25 (the offline line opens the reasons), F12 (plain reasons), F37 (quit)."""
    r = scenarios.run("home_tidy_and_reasons", timeout=120)
    assert len(r["before"]) == 2 and all("in play" in t for t in r["before"])
    assert "delete it, or abandon it" in r["asked"] and r["problems_asking"] == []
    assert r["after_abandon"][0].endswith("· abandoned") and r["after_abandon"][1].endswith("· in play")
    assert len(r["after_delete"]) == 1 and len(r["stored_ids"]) == 1
    assert r["screen"] == "settings" and r["settings_problems"] == []
    assert any(t.startswith("No camera plugged in") for t in r["settings_texts"])
    assert r["quit_asks"] == "Touch again to quit"
