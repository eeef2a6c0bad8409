"""Results that leave the table, in a real window: the cooperative Sheep Hop! result."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


def test_sheep_hop_results_are_the_tables_not_a_ranking(scenarios):
    r = scenarios.run("sheep_hop_results", timeout=120)
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
