"""Session 15: the verifier's patch length is a property of its weights (``Verifier.history``).

Old 8-frame weights still load (as 8 frames), a shorter verifier's length is read from its file, the cascade
asks each verifier for a patch of its own length (the CNN keeps its 8 frames), and the combined gate reads the
frames the verifier judged."""

from __future__ import annotations

import numpy as np
import pytest

from companion.errors import ConfigError
from hardware.testing import audio as ta
from hardware.testing import whistle_synth as ws
from hardware.whistle.cascade import CascadeDetector, patch_frames
from hardware.whistle.combined import CombinedDetector, CombinedParams
from hardware.whistle.detector import detect
from hardware.whistle.verifier import (
    COMBINED_WEIGHTS,
    HISTORY,
    SHORT_COMBINED_WEIGHTS,
    WEIGHTS,
    Verifier,
    n_features,
    patch_features,
)

RATE = 16000


def random_verifier(history: int, seed: int = 0) -> Verifier:
    rng = np.random.default_rng(seed)
    n = n_features(history)
    return Verifier(rng.normal(size=n), rng.uniform(0.5, 2, n), rng.normal(size=(n, 16)) / 10, rng.normal(size=16),
                    rng.normal(size=16), 0.1, meta="test", threshold=0.6, strict_threshold=0.7, history=history)


@pytest.mark.parametrize("path", [WEIGHTS, COMBINED_WEIGHTS])
def test_weights_saved_before_session_15_load_as_8_frames(path):
    with np.load(path) as z:
        assert "history" not in z.files  # written before the patch length was stored
    assert Verifier.load(path).history == HISTORY == 8


def test_the_patch_length_is_read_from_the_weights(tmp_path):
    v = random_verifier(4)
    v.save(tmp_path / "v4.npz")
    with np.load(tmp_path / "v4.npz") as z:
        assert int(z["history"]) == 4
    back = Verifier.load(tmp_path / "v4.npz")
    assert back.history == 4 and back.w1.shape[0] == n_features(4) < n_features(8)
    x = patch_features(np.random.default_rng(1).normal(0, 10, (4, 257)).astype(np.float32), 100)
    assert back(x) == pytest.approx(v(x))
    # An 8-frame verifier is saved without the key, as before (the shipped weights rebuild byte for byte).
    random_verifier(8).save(tmp_path / "v8.npz")
    with np.load(tmp_path / "v8.npz") as z:
        assert "history" not in z.files


def test_weights_whose_features_do_not_fit_their_patch_length_are_refused(tmp_path):
    v = random_verifier(4)
    v.save(tmp_path / "v.npz")
    with np.load(tmp_path / "v.npz") as z:
        parts = dict(z)
    parts["history"] = np.int32(5)  # 4-frame weights labelled 5 frames
    np.savez(tmp_path / "bad.npz", **parts)
    with pytest.raises(ConfigError, match=r"bad\.npz"):
        Verifier.load(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="frames"):
        random_verifier(9)  # longer than the cascade keeps for the gate


class _Recording:
    """A verifier that records the features it is given and says yes (``history``: the patch length it asks for)."""

    def __init__(self, history: int | None) -> None:
        if history is not None:
            self.history = history
        self.seen: list[np.ndarray] = []

    def __call__(self, x: np.ndarray) -> float:
        self.seen.append(x)
        return 1.0


@pytest.mark.parametrize("history", [None, 4, 5, 8])
def test_the_cascade_asks_for_a_patch_of_the_verifiers_length(history):
    rec = _Recording(history)
    det = CascadeDetector(verifier=rec)
    assert det.history == patch_frames(rec) == (history or HISTORY)
    found = detect(ta.in_room(ta.tone(2500, 0.6, amp=0.2)), det)
    assert len(found) == 1 and rec.seen
    assert all(len(x) == n_features(history or HISTORY) for x in rec.seen)


def test_the_cascade_hands_the_same_frames_to_a_short_verifier_as_the_newest_of_a_long_ones():
    """The 4-frame patch is the last 4 rows of the 8-frame one, frame for frame (same dB, same float32 rule)."""
    sound = ta.in_room(ta.tone(2500, 0.6, amp=0.2))
    long, short = CascadeDetector(verifier=_Recording(8)), CascadeDetector(verifier=_Recording(4))
    detect(sound, long)
    detect(sound, short)
    j = max(long.frame_now, short.frame_now)
    assert np.array_equal(long._ordered(j)[-4:], short._ordered(j))


class _FixedRing(CombinedDetector):
    """The combined detector with its power ring given (the gate's input), to read what the gate measures."""

    ring = np.ones((24, 257))

    @property
    def _ring(self) -> np.ndarray:
        return self.ring


def test_the_gate_reads_the_frames_the_verifier_judged():
    # The last 4 frames a clean line at bin 80 (2.5 kHz), the 20 before it flat noise: the blow began 4 frames ago.
    ring = np.full((24, 257), 1e-4)
    ring[-4:, 80] = 1.0
    cascade = CombinedDetector.of(verifier=random_verifier(4)).cascade
    assert cascade.history == 4
    short = _FixedRing(cascade=cascade)
    long = _FixedRing(cascade=cascade, params=CombinedParams(gate_frames=8))
    short.ring = long.ring = ring
    on_patch, with_before = short.evidence(2500.0), long.evidence(2500.0)
    assert on_patch.line_share > 0.99  # only the blow's frames: all of the window's power in the line
    assert with_before.line_share < 0.6  # half the frames before the blow: noise spread over the window
    # An 8-frame verifier's gate reads 8 frames, as before session 15.
    assert CombinedDetector.of(verifier=random_verifier(8)).cascade.history == 8


# -- the shipped 4-frame weights (whistle_train.py --recipe session9 --history 4) ---------------------------------


def test_the_combined_short_kind_runs_the_4_frame_weights_at_their_strict_threshold():
    from calibration.whistle import DETECTOR_KINDS, Profile

    with np.load(SHORT_COMBINED_WEIGHTS) as z:
        assert int(z["history"]) == 4
    short = Verifier.combined_short()
    assert short.history == 4 and "session9" in short.meta and "4 frames" in short.meta
    assert "combined-short" in DETECTOR_KINDS
    det = Profile().detector("combined-short")
    assert det.cascade.verifier is short and det.cascade.history == 4
    assert det.cascade._threshold == short.strict_threshold >= short.threshold
    assert Profile().detector("combined").cascade.history == 8  # the default keeps its 8-frame weights


def under_loud_hum(seed: int) -> tuple[np.ndarray, float]:
    """Hall noise under a steady 0.8 kHz hum 20 dB louder, a pea trill 6-14 dB under the hum (the blow session 4's
    detector cannot hear: the cascade's), and the blow's onset."""
    rng = np.random.default_rng(seed)
    bg = ws.HallNoise(seed=seed).piece(3.0)
    bg = bg / ws.rms(bg)
    bg = bg + (10 * np.sqrt(2) * np.sin(2 * np.pi * 800 * np.arange(len(bg)) / RATE)).astype(np.float32)
    s = ws.scene("loud-hum", bg, ws.pea_trill(rng), float(rng.uniform(-14, -6)), rng)
    return s.samples, s.blows[0][0]


def test_blows_under_a_loud_hum_are_reported_sooner_with_the_4_frame_verifier():
    # 12 trills under a hum session 4's detector cannot hear over: both verifiers hear all 12; the three the 8-frame
    # verifier reported 136-168 ms after their onset the 4-frame one reports a 64 ms block sooner (72-104 ms); the
    # rest, reported at the first question (53-107 ms), at the same block.
    late, sooner, later = 0, 0, 0
    for seed in range(12):
        x, onset = under_loud_hum(seed)
        at = []
        for det in (CombinedDetector(), CombinedDetector.of(verifier=Verifier.combined_short())):
            found = [d for d in detect(x, det) if onset - 0.1 <= d.detected_at <= onset + 0.6]
            assert len(found) == 1, (seed, found)
            at.append(found[0].detected_at - onset)
        late += at[0] > 0.15
        sooner += at[1] < at[0] - 0.05
        later += at[1] > at[0] + 0.01
        assert at[1] <= 0.11, (seed, at)  # every report under 150 ms with the 4-frame verifier
    assert (late, sooner, later) == (2, 3, 0), (late, sooner, later)
