"""Shear Panic and Battle Sheep played to the end by touch, in real windows
(issue 17: the usability test's findings F1, F3, F4, F5, F10, F21, F27, F28)."""

from __future__ import annotations

import pytest

SIZES = ["800x480", "1280x720", "720x1280"]


@pytest.mark.parametrize("size", SIZES)
def test_battle_sheep_complete_by_touch(scenarios, size):
    r = scenarios.run("battle_sheep_complete_by_touch", size=size, timeout=240)
    assert r["problems"] == []
    assert r["steps"]["boards"] == 8 and r["steps"]["starts"] == 2 and r["steps"]["moves"] > 0
    assert r["sources"] == ["touch"]
    # F10: pasture targets a touch apart, a preview of each way a board lies, the count on every stack.
    assert r["smallest_hex_px"] >= 48 - 0.5
    assert all(n >= 1 for n in r["previews"])
    assert r["counts_drawn"] == r["counts_expected"]
    assert r["results_texts"][0].startswith("Battle Sheep: ")


@pytest.mark.parametrize("size", SIZES)
def test_battle_sheep_quick_mode_ends_at_results_by_touch(scenarios, size):
    """F1 (blocker): quick mode had no entry at all."""
    r = scenarios.run("battle_sheep_quick_by_touch", size=size, timeout=120)
    assert r["problems"] == []
    assert r["results_disabled_before"] is True  # nothing entered yet
    assert r["shown"] == [["Player 1", "9", "5"], ["Player 2", "11", "4"], ["Player 3", "10", "6"]]
    assert [e[0] for e in r["events"]] == ["result"] * 3
    assert r["events"][1] == ["result", "Player 2", {"pastures": 11, "largest_herd": 4}]
    assert r["results_texts"][0] == "Battle Sheep: Player 2 wins"


@pytest.mark.parametrize("size", SIZES)
def test_shear_panic_complete_by_touch(scenarios, size):
    r = scenarios.run("shear_panic_complete_by_touch", size=size, timeout=300)
    assert r["problems"] == []
    assert r["sources"] == ["touch"]
    assert r["counts"]["actions"] > 10 and r["counts"]["pushes"] > 0
    assert r["results_texts"][0].startswith("Shear Panic: ")
    # F5: the command menu in words, used tiles greyed; no tile ids or coordinates anywhere.
    assert r["tile_texts"][:2] == ["Lamb Push 1", "Lamb Push 3"] and len(r["tile_texts"]) == 12
    assert r["used_greyed"]
    shown = [*r["choice_labels"], *r["log"]]
    assert not [t for t in shown if "[" in t or "lamb-push-" in t or "sheep=" in t]
    # F4: every scoring announced on the table and in the Log.
    assert any(a.startswith("Roger's gate! Row 1 (4 pts): ") for a in r["announced"])
    assert any("Roger's gate!" in line for line in r["log"])
    # F3: the front marked, with who stands there.
    assert any("Roger there" in f for _, f in r["front"])


def test_shear_panic_flock_drawn_as_it_lies_on_the_table(scenarios):
    """F3 (the picture was the flock's mirror image) and F27 (a touched sheep turned grey)."""
    r = scenarios.run("shear_panic_flock_as_on_table")
    assert r["problems"] == []
    assert r["facing"] == "north"
    assert r["drawn"] == r["rows"]  # front row (nearest the heads) at the top, left to right as on the table
    assert r["front_label"].startswith("Heads: up")
    assert r["turn_choices"] == ["Ewe Turn (panic): turn left", "Ewe Turn (panic): turn right"]
    assert r["facing_after"] == "west" and r["front_after"].startswith("Heads: left")
    # Heads to the west: the front row is the leftmost column, the flock's right at the top.
    front = r["rows_after"][0]
    assert [line[0] for line in r["drawn_after"]] == list(reversed(front))
    assert r["selected"] and r["arrows"]
    assert max(abs(a - b) for a, b in zip(r["selected_pixel"], (214, 41, 41), strict=True)) <= 12  # still red
