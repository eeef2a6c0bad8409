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
