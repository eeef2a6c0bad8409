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
