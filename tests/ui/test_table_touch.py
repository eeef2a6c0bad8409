"""The Table screen and the game pictures, by touch in a real window (issue #17; scenarios in
``tests/ui/scenarios_table.py``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


def test_no_whistle_line_in_a_game_without_whistles(scenarios):
    r = scenarios.run("table_no_whistle_line_in_sheep_hop")
    assert r["expects_whistle"] is False
    assert r["whistle_line"] == ""
    assert r["whistle_button_shown"] is False


def test_the_whistle_line_follows_the_microphone_in_fleeced(scenarios):
    r = scenarios.run("table_live_level_in_fleeced")
    assert r["live_level"] == "No whistle this turn · mic -33 dB"
    assert r["events_moved"] == 0


def test_no_text_under_14_px_with_six_long_names(scenarios):
    r = scenarios.run("table_text_floor_with_long_names", timeout=150)
    assert r["problems"] == {"table": [], "results": []}
    assert min(r["legend_fonts"]) >= 14


def test_shear_panic_time_is_a_bar_read_at_arms_length(scenarios):
    r = scenarios.run("shear_panic_progress_bar")
    assert r["progress_text"] == "Time 0 of 56 · Teammates' field"
    assert r["progress_font"] >= 18
    share, bar_px = r["bar"]
    assert share > 0.4 and bar_px >= 24  # across the picture, a finger's width tall
    assert "Time" not in r["status_text"]  # said once
    assert r["problems"] == []


def test_fleeced_another_cheese_card_says_where_it_went(scenarios):
    r = scenarios.run("fleeced_other_card_played", timeout=120)
    assert r["draw_problems"] == []  # the last card kinds were scrolled away below the keys
    assert r["alert"] == f"{r['player']} played a Cheese Card: do what it says at the table; it goes under the pile."
    assert r["alert_bg"][:3] != pytest.approx([0xB5 / 255, 0x17 / 255, 0x1B / 255])  # not a penalty's red
    assert r["problems"] == []


def test_leaving_settings_keeps_the_app_running(scenarios):
    r = scenarios.run("settings_left_from_the_table")
    assert r["screen"] == "table"
