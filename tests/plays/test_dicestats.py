"""Dice statistics against a reference: scipy (a test dependency only)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

scipy_stats = pytest.importorskip("scipy.stats")
from scipy import optimize, special  # noqa: E402

from companion import testing  # noqa: E402
from companion.events import ROLL, Event, Source  # noqa: E402
from companion.plays import chisquare as cs  # noqa: E402
from companion.plays.dicestats import BY_HAND, READ, session_rolls, stored_rolls, tally, verdict  # noqa: E402
from companion.session import Session  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
KNOWN = [
    [35, 36, 34, 37, 33, 37],
    [17, 17, 17, 16, 16, 37],
    [10, 10, 10, 10, 10, 70],
    [1, 0, 0, 0, 0, 0],
    [5, 3],
    [100, 120, 80, 90, 110, 130, 95, 105, 99, 101],
    [3000, 3100, 2900, 3050, 2950, 3000],
    [0, 0, 0, 0, 0, 400],
]


@pytest.mark.parametrize("counts", KNOWN)
def test_chi_square_and_p_match_scipy(counts):
    stat, p = cs.chisquare(counts)
    ref = scipy_stats.chisquare(counts)
    assert stat == pytest.approx(float(ref.statistic), abs=1e-9, rel=1e-12)
    assert p == pytest.approx(float(ref.pvalue), abs=1e-9)
    assert p == pytest.approx(float(ref.pvalue), rel=1e-9) or p < 1e-300


@pytest.mark.parametrize("a", [0.5, 1.0, 2.5, 4.5, 10.0, 50.0])
@pytest.mark.parametrize("x", [0.0, 0.1, 1.0, 3.0, 7.5, 20.0, 80.0])
def test_regularized_upper_gamma_matches_scipy(a, x):
    assert cs.gammaincc(a, x) == pytest.approx(float(special.gammaincc(a, x)), abs=1e-12, rel=1e-10)


@pytest.mark.parametrize("faces", [2, 6, 10])
def test_rolls_needed_is_the_documented_power_calculation(faces):
    """docs/plays.md: one face at 1/k + 5 %, the rest equally less; chi-square at 5 %;
    the smallest n whose power (noncentral chi-square, λ = n w²) reaches 80 %."""
    df = faces - 1
    p0 = [1 / faces] * faces
    p1 = [1 / faces + 0.05] + [1 / faces - 0.05 / (faces - 1)] * (faces - 1)
    w2 = sum((b - a) ** 2 / a for a, b in zip(p0, p1, strict=True))
    assert cs.effect_w2(faces, 0.05) == pytest.approx(w2, rel=1e-12)
    crit = float(scipy_stats.chi2.isf(0.05, df))
    assert cs.chi2_isf(0.05, df) == pytest.approx(crit, rel=1e-10)
    lam = optimize.brentq(lambda lam: scipy_stats.ncx2.sf(crit, df, lam) - 0.8, 1e-6, 500, xtol=1e-12)
    assert cs.noncentrality_needed(df) == pytest.approx(lam, rel=1e-8)
    n = cs.rolls_needed(faces)
    assert n == math.ceil(lam / w2)
    assert scipy_stats.ncx2.sf(crit, df, n * w2) >= 0.8 > scipy_stats.ncx2.sf(crit, df, (n - 1) * w2)


def test_the_documented_figure_for_a_six_sided_die():
    assert cs.rolls_needed(6) == 713  # docs/plays.md


def test_verdicts_in_words():
    assert verdict(range(1, 7), [133, 134, 133, 133, 134, 133]) == "No sign of bias after 800 rolls"
    assert verdict(range(1, 7), [35, 36, 34, 37, 33, 37]) == "No sign of bias after 212 rolls. Roll about 510 more times to tell a 5 % bias"
    p = float(scipy_stats.chisquare([17, 17, 17, 16, 16, 37]).pvalue)
    assert verdict(range(1, 7), [17, 17, 17, 16, 16, 37]) == f"Face 6 comes up 31 % of the time: p = {p:.3f}"
    assert f"{p:.3f}" == "0.004"
    assert verdict(range(1, 7), [20, 21, 19, 20, 20, 20]) == "No sign of bias after 120 rolls. Roll about 600 more times to tell a 5 % bias"
    assert verdict(range(1, 7), [0] * 6) == "No rolls yet."
    assert verdict(["+", "X"], [0, 400]).startswith("Face X comes up 100 % of the time: p < 0.001")


def _tally() -> Session:
    testing.register()
    return Session.new(None, "tally", {"players": ["Ann", "Bob"]})


def test_a_correction_replaces_the_roll_and_keeps_its_group():
    s = _tally()
    s.apply(Event(ROLL, {"die": "d6", "faces": [2]}, source=Source.CAMERA, confidence=0.9))
    s.apply(Event(ROLL, {"die": "d6", "faces": [4]}, source=Source.GPIO))
    # The table corrects the camera's 2 to a 6, as the app does: undo to it, enter the 6, re-apply the rest.
    later = s.events[1:]
    s.undo_to(0)
    s.apply(Event(ROLL, {"die": "d6", "faces": [6]}, source=Source.TOUCH))
    for e in later:
        s.apply(e)
    s.apply(Event(ROLL, {"die": "d6", "faces": [3]}, source=Source.TOUCH))
    s.apply(Event(ROLL, {"die": "d6", "faces": [5]}, source=Source.KEYBOARD))
    s.undo()  # an undone roll does not count
    rolls = session_rolls(s)
    assert [(r.faces, r.group) for r in rolls] == [((6,), READ), ((4,), READ), ((3,), BY_HAND)]
    table = {(d.which, d.group, d.game): d.counts for d in tally(rolls)}
    assert table[("all rolls", READ, None)] == (0, 0, 0, 1, 0, 1)
    assert table[("all rolls", BY_HAND, "Tally")] == (0, 0, 1, 0, 0, 0)


def test_two_dice_rolls_count_each_die_by_its_place_and_colour_dice_by_their_faces(stored):
    table = tally(stored_rolls(stored.store))
    fleeced = {(d.die, d.which, d.group): d for d in table if d.game == "Fleeced!"}
    first, second, both = (fleeced[("d6", w, READ)] for w in ("first die", "second die", "all rolls"))
    assert first.rolls == second.rolls and both.rolls >= first.rolls + second.rolls
    panic = next(d for d in table if d.die == "panic" and d.game is None)
    assert set(panic.faces) == {"blue", "green", "red", "yellow", "black", "white"}  # the die's own faces, by name
    hop = next(d for d in table if d.die == "sheep-hop" and d.game is None)
    assert "double-big-wolf" in hop.faces and hop.rolls == sum(hop.counts)


def test_a_cache_replays_only_new_games(stored, monkeypatch):
    cache: dict = {}
    first = stored_rolls(stored.store, cache)
    import companion.plays.dicestats as ds

    monkeypatch.setattr(ds, "session_rolls", lambda s: (_ for _ in ()).throw(AssertionError("replayed")))
    assert stored_rolls(stored.store, cache) == first


def test_a_cache_keeps_one_entry_a_game_as_it_is_now(tmp_path):
    from companion.store import Store

    testing.register()
    store = Store(tmp_path / "bellwether.db")
    s = Session.new(store, "tally", {"players": ["Ann", "Bob"]})
    cache: dict = {}
    for faces in ([2], [5], [6]):
        s.apply(Event(ROLL, {"die": "d6", "faces": faces}, source=Source.CAMERA))
        assert len(stored_rolls(store, cache)) == len(s.events)
        assert list(cache) == [(s.id, store.session(s.id).updated)]  # the game as it was is let go
    store.close()


def test_cli_dice_stats_json(stored):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BELLWETHER_DATA_DIR": str(stored.store.path.parent)}
    r = subprocess.run([sys.executable, "-m", "cli.main", "dice", "stats", "--json"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    d6 = next(d for d in doc["dice"] if d["die"] == "d6" and d["game"] is None and d["which"] == "all rolls" and d["group"] == READ)
    ref = scipy_stats.chisquare(d6["counts"])
    assert d6["p"] == pytest.approx(float(ref.pvalue), abs=1e-9) and d6["rolls_needed"] == 713
    assert d6["verdict"].startswith(("No sign of bias after", "Face "))
    text = subprocess.run([sys.executable, "-m", "cli.main", "dice", "stats"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert text.returncode == 0 and "d6 (all rolls), camera and buttons, all games" in text.stdout
    assert "p = 0.000" not in text.stdout  # a tiny p is "p < 0.001", as in the verdict


def test_a_p_value_in_words_never_reads_zero():
    from companion.plays.dicestats import p_words

    assert p_words(0.0) == "p < 0.001" and p_words(0.0004) == "p < 0.001"
    assert p_words(0.0012) == "p = 0.001" and p_words(0.5) == "p = 0.500"
