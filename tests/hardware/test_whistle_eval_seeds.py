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


def test_the_folds_cache_is_kept_apart_per_training_scale(tmp_path, monkeypatch) -> None:
    # Session 19: WHISTLE_FOLDS named one file per recipe and patch length, so folds trained at --train-scale 1
    # would have been read back for a --train-scale 3 run.  Each scale has its own file; scale 1 keeps the old name.
    from types import SimpleNamespace

    import numpy as np
    import whistle_eval as we
    import whistle_train as wt

    trained = []
    monkeypatch.setenv("WHISTLE_FOLDS", str(tmp_path / "f.pkl"))
    monkeypatch.delenv("WHISTLE_CANDIDATES", raising=False)
    monkeypatch.setattr(wt, "items", lambda _data, _seed, scale, _recipe: scale)
    monkeypatch.setattr(wt, "examples", lambda scale, history: SimpleNamespace(y=np.array([1, 0]), scale=scale))

    def folds(ex, _held_outs, _seed, negative_rate=None):
        trained.append(ex.scale)
        return {"scale": ex.scale}

    monkeypatch.setattr(wt, "folds", folds)
    for scale in (1.0, 3.0, 1.0, 3.0):
        assert we.fold_verifiers(tmp_path, 28, scale, recipe="session9")["scale"] == scale
    assert trained == [1.0, 3.0]  # trained once each, then read back from its own file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.pkl.session9", "f.pkl.session9.x3"]
