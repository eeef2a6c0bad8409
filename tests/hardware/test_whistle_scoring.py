"""`whistle eval`'s scoring window: a report counts for a blow from EARLY_S before its onset to LATE_S after
its end; anything else is a false alarm, and a blow reported twice is one hit."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.whistle.detector import Detection
from hardware.whistle.evaluation import EARLY_S, LATE_S, Row, in_window, score_file


def report(t: float) -> Detection:
    return Detection(detected_at=t, onset=t - 0.2, offset=t, peak_hz=3000.0, confidence=0.9)


@pytest.mark.parametrize(("t", "inside"), [(2.0 - EARLY_S, True), (2.0 - EARLY_S - 0.01, False),
                                           (2.4 + LATE_S, True), (2.4 + LATE_S + 0.01, False), (2.2, True)])
def test_the_window_runs_from_just_before_the_onset_to_a_while_after_the_end(t, inside):
    assert in_window(t, 2.0, 2.4) is inside


def test_a_file_s_reports_are_hits_repeats_and_false_alarms_by_the_window():
    rows = [Row(Path("a.wav"), "whistle", 2.0, 2.4, "pea"), Row(Path("a.wav"), "none", None, None, "hall")]
    got = score_file(rows, [report(2.3), report(2.8), report(4.0)], duration=10.0)
    assert (got["pea"].whistles, got["pea"].hits, got["pea"].events) == (1, 1, 2)  # 2.8 is the same blow again
    assert got["pea"].latencies == [pytest.approx(0.3)]
    assert (got["hall"].false_alarms, got["hall"].events) == (1, 1)
    assert got["hall"].negative_s == pytest.approx(10.0 - (0.4 + EARLY_S + LATE_S))
