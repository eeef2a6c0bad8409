"""benchmarks/whistle_eval.py's calibration rows draw each whistle's blows from a stream of its own per seed: until
session 19 the stream was ``seed + len(name)``, so two whistles of one seed drew the same numbers and a seed kept
for judging replayed an earlier seed's rows."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from whistle_eval import CALIBRATION_WHISTLES, calibration_rng


def test_no_two_calibration_rows_share_a_stream() -> None:
    names = list(CALIBRATION_WHISTLES)
    assert len({len(n) for n in names}) < len(names)  # the old scheme's collision is really there
    firsts = {(seed, name): calibration_rng(seed, name).integers(1 << 62) for seed in range(20, 40) for name in names}
    assert len(set(firsts.values())) == len(firsts)


def test_a_row_stream_is_the_same_every_time() -> None:
    assert calibration_rng(28, "two-tone").random() == calibration_rng(28, "two-tone").random()
