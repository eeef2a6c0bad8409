"""The cascade with the CNN verifier: shipped ONNX weights through cv2.dnn, real WAVs through the real detector."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from companion.errors import ConfigError
from hardware.audio import read_wav, resample
from hardware.whistle.cascade import CascadeDetector
from hardware.whistle.cnn_verifier import SPAN, VIEWS, WEIGHTS, CnnVerifier, cut, tuning_path
from hardware.whistle.detector import detect
from hardware.whistle.verifier import HISTORY

ESC_CLASSES = ["002 - Rain", "003 - Sea waves", "005 - Clock tick", "007 - Helicopter"]


def clip(path: Path) -> np.ndarray:
    return resample(*read_wav(path))


def cnn_cascade() -> CascadeDetector:
    return CascadeDetector(verifier=CnnVerifier.shipped())


def test_shipped_weights_load_are_small_and_give_a_probability():
    v = CnnVerifier.shipped()
    tuning = json.loads(tuning_path(WEIGHTS).read_text())
    assert WEIGHTS.stat().st_size < 200_000
    assert tuning["parameters"] < 50_000
    # What `make train-whistle-cnn` writes: seed 0, nothing held out, the threshold at 0.3 % of training negatives.
    assert tuning["meta"].startswith("seed 0; 1000 steps; threshold 0.3% of training negatives") and "held out nothing" in tuning["meta"]
    assert 0.5 <= tuning["threshold_at"]["1.0%"] <= v.threshold < 1.0
    quiet = v(np.zeros((VIEWS, HISTORY, 2 * SPAN), np.float32))
    hist = np.zeros((HISTORY, 257), np.float32)
    hist[:, 79:81] = 35.0  # a steady 2.5 kHz line 35 dB over the floor, nothing else
    line = v(cut(hist, 80))
    # Silence is refused; a bare line scores far above it, but under the shipped threshold (0.877 against
    # 0.956): the network wants a real blow's texture, and clear real blows score near its threshold too.
    assert 0.0 <= quiet < 0.5 and quiet + 0.3 < line < v.threshold


def test_a_bad_weights_file_is_named(tmp_path):
    bad = tmp_path / "w.onnx"
    bad.write_bytes(b"not an onnx file")
    tuning_path(bad).write_text('{"threshold": 0.7}')
    with pytest.raises(ConfigError, match=r"w\.onnx"):
        CnnVerifier(bad)


def test_missing_threshold_is_named(tmp_path):
    onnx = tmp_path / "w.onnx"
    onnx.write_bytes(WEIGHTS.read_bytes())
    with pytest.raises(ConfigError, match=r"w\.onnx"):
        CnnVerifier(onnx)  # no w.json beside it


def test_the_views_are_cut_around_the_centre_its_octave_above_and_below():
    hist = np.tile(np.arange(257, dtype=np.float32), (HISTORY, 1))  # each bin holds its own index
    p = cut(hist, 100)
    assert p.shape == (VIEWS, HISTORY, 2 * SPAN)
    assert p[0, 0, SPAN] == 100 and p[0, -1, 0] == 100 - SPAN  # the centre's neighbourhood
    assert p[1, 0, SPAN] == 201 and p[1, 0, 0] == 2 * (100 - SPAN) + 1  # twice the frequency (stronger of 2 bins)
    assert p[2, 0, SPAN] == 50 and p[2, 0, 0] == (100 - SPAN) // 2  # half
    edge = cut(hist, 10)
    assert (edge[0, :, : SPAN - 10] == 0).all() and edge[0, 0, SPAN] == 10  # nothing below bin 0
    top = cut(hist, 160)
    assert (top[1, :, SPAN:] == 0).all() and top[1, 0, SPAN - 33] == 255  # nothing above the last bin


class _Patches:
    """A verifier that reads the patch: what the cascade hands it (and never says yes)."""

    reads_patch = True
    threshold = 0.5

    def __init__(self) -> None:
        self.seen: list[np.ndarray] = []

    @staticmethod
    def cut(hist: np.ndarray, centre: int) -> np.ndarray:
        return cut(hist, centre)

    def __call__(self, patch: np.ndarray) -> float:
        self.seen.append(patch)
        return 0.0


@pytest.mark.parametrize("name", ["w1.wav", "w2.wav", "w3.wav", "w4.wav"])
def test_the_cascade_hands_a_patch_reader_the_aligned_patch(shared_data, name):
    rec = _Patches()
    detect(clip(shared_data / "whistle" / "r2k-clips" / "16k" / name), CascadeDetector(verifier=rec))
    assert rec.seen and all(p.shape == (VIEWS, HISTORY, 2 * SPAN) for p in rec.seen)
    # The first question comes as the blow starts: its newest frame's line is at the centre column.
    assert abs(int(rec.seen[0][0, -1].argmax()) - SPAN) <= 1


def r2k_onsets(shared_data: Path) -> dict[str, float]:
    with (shared_data / "whistle" / "r2k-clips" / "manifest.csv").open(newline="") as f:
        return {Path(r["path"]).name: float(r["onset_s"]) for r in csv.DictReader(f) if r["label"] == "whistle"}


# The shipped CNN (threshold 0.956, 0.3 % of training negatives) misses all four real r2k blows,
# although it was trained on them: its scores over the cascade's attempts are w1 0.96, 0.86, 0.83, ...;
# w2 0.51-0.84; w3 0.97, 0.93, 0.76, ...; w4 0.89, 0.80, ... and it must say yes twice in a row
# (at the 1 % threshold, 0.879, it hears w3 and w4). A miss of the CNN, kept visible (docs/whistle-cnn.md).
R2K_MISSED = pytest.mark.xfail(strict=True, reason="the shipped CNN misses the real r2k blows (scores near its 0.956 threshold)")


@pytest.mark.parametrize("name", [pytest.param(n, marks=R2K_MISSED) for n in ("w1.wav", "w2.wav", "w3.wav", "w4.wav")])
def test_a_real_r2k_whistle_is_heard_once_as_it_starts(shared_data, name):
    onset = r2k_onsets(shared_data)[name]
    found = [(d.detected_at, d.peak_hz) for d in detect(clip(shared_data / "whistle" / "r2k-clips" / "16k" / name), cnn_cascade())]
    assert len(found) == 1, found
    assert onset - 0.1 <= found[0][0] <= onset + 0.3 and 2200 <= found[0][1] <= 2700, found


def test_real_robot_whistles_are_heard(shared_data):
    folder = shared_data / "whistle" / "robot-clips" / "whistle"
    heard = {p.name: len(detect(clip(p), cnn_cascade())) for p in sorted(folder.glob("*.wav"))}
    assert len(heard) == 6 and all(n >= 1 for n in heard.values()), heard


@pytest.mark.parametrize("folder", ESC_CLASSES)
def test_real_environmental_sounds_stay_quiet(shared_data, folder):
    clips = sorted((shared_data / "whistle" / "esc10-negatives" / folder).glob("*.wav"))[:3]
    assert len(clips) == 3
    alarms = {p.name: len(detect(clip(p), cnn_cascade())) for p in clips}
    assert not any(alarms.values()), alarms
