"""Sheepdogs of Pendleton Hill and Sheep Hop! by touch alone in real windows (issue #17).

Each ``test_<game>_complete_by_touch`` plays a whole game from Home through Setup to
Results with real touches (``tests/ui/scenarios_hill_hop.py``), the by-touch harness's
checks (``tests/ui/touch_check.py``) asserted on every new question, at the 7" panel's
800x480 and at 1280x720 and 720x1280.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.ui

SIZES = ["800x480", "1280x720", "720x1280"]


@pytest.mark.parametrize("size", SIZES)
def test_pendleton_hill_complete_by_touch(scenarios, size):
    r = scenarios.run("pendleton_hill_by_touch", size=size, timeout=420)
    assert r["touch_problems"] == {}
    assert r["results_problems"] == []
    state = r["state"]
    # The whole deck and every Sheepdog card played; no card was ever entered but the ones played.
    assert state["deck_left"] == 0 and state["sheepdogs_left"] == 0 and state["turn"]["phase"] == "over"
    assert "draw" not in r["events"] and r["events"].count("play-card") == 63
    assert all(h == {"cards": 0, "sheepdog": False} for h in state["hands"].values())
    # F11: hands stay secret: no deal to enter, and nothing on screen says which cards anyone holds.
    assert "place one of your shepherds" in r["first_prompt"] and "Deal" not in r["first_prompt"]
    shown = " ".join(r["card_texts"])
    assert "in hand: Player 1 3, Player 2 3, Player 3 3" in shown
    assert not re.search(r"1\+1: \d|hand 1: \d|Drew a", shown), shown
    assert r["checked"] >= 8 and r["menus"] >= 1  # several kinds of question, and the picture asked "what goes there?"
    assert any("wins" in t or "share the win" in t for t in r["results_texts"])


@pytest.mark.parametrize("size", SIZES)
def test_sheep_hop_complete_by_touch(scenarios, size):
    r = scenarios.run("sheep_hop_by_touch", size=size, timeout=240)
    assert r["touch_problems"] == {}
    assert r["results_problems"] == []
    # F31: the first prompt asks where the wolves start, and touches on the picture placed them.
    assert "wolf" in r["first_prompt"] and r["wolves"] == {"big": 5, "little": 2}
    assert r["events"][:3] == ["wolf-start"] * 3
    # F8: captures are touched on the picture (no list of 46 groups to scroll), "No sheep caught" included.
    assert r["confirm_label"] == "black1 caught" and r["events"].count("capture") == 2
    state = r["state"]
    assert (state["saved"], state["captured"], state["on_board"]) == (8, 1, 0)
    assert state["result"] == {"won": True, "title": "Shepherd of the Hills"}
    assert r["checked"] >= 6
