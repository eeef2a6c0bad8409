"""The cases issue #15 is about: trills, hum and motors, quiet blows, real WAVs, calibration that helps.

Real recordings are read in place from the shared data (skipped when absent);
the synthetic scenes come from ``hardware.testing.whistle_synth`` (recipes in
docs/whistle.md).  Small counts keep this file to a few seconds.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from hardware.audio import read_wav, resample
from hardware.testing import audio as ta
from hardware.testing import whistle_synth as ws
from hardware.testing.sensors import blocks_of
from hardware.whistle.detector import WhistleDetector, detect
from hardware.whistle.evaluation import evaluate


def heard(scene: ws.Scene, det: WhistleDetector | None = None) -> list:
    on, off = scene.blows[0]
    return [d for d in detect(scene.samples, det) if on - 0.1 <= d.detected_at <= off + 0.5]


def test_pea_trills_with_wide_sidebands_are_heard():
    # Rattle 20-40 Hz, pitch swinging +-200-800 Hz: the old detector heard about one in five.
    hall = ws.HallNoise(seed=3)
    scenes = ws.synthetic("pea-trill", 12, seed=31, hall=hall, snr_range=(0.0, 15.0))
    hits = [len(heard(s)) for s in scenes]
    assert sum(h >= 1 for h in hits) >= 10, hits
    assert max(hits) == 1  # one blow, one event


def test_blows_under_hum_and_motors_below_1khz_are_heard():
    scenes = ws.synthetic("hum", 12, seed=32, hall=ws.HallNoise(seed=4), snr_range=(-10.0, 0.0))
    hits = [len(heard(s)) for s in scenes]
    assert sum(h >= 1 for h in hits) >= 9, hits


def test_a_steady_08khz_hum_louder_than_the_whistle_does_not_hide_it():
    x = ta.pink_noise(4.0, amp=0.003, seed=8)
    t = np.arange(len(x)) / ta.RATE
    x += (0.2 * np.sin(2 * np.pi * 800 * t)).astype(np.float32)  # 0.8 kHz hum, ~14 dB over the whistle
    ta.place(x, ta.tone(3200, 0.3, amp=0.04), 2.5)
    found = detect(x)
    assert [round(d.peak_hz, -2) for d in found] == [3200.0]


def test_a_short_quiet_blow_is_heard_soon():
    # 0.2 s, as loud as the hall (RMS, full band): reported within 200 ms of its start (the benchmark measures the p95).
    rng = np.random.default_rng(5)
    s = ws.scene("quiet", ws.HallNoise(seed=5).piece(3.0), ws.pea_trill(rng, 2600.0, 0.2), 0.0, rng)
    (d,) = heard(s)
    assert d.detected_at - s.blows[0][0] <= 0.2


def test_a_table_whistle_and_no_false_alarm_in_hall_noise():
    hall = ws.HallNoise(seed=6)
    rng = np.random.default_rng(6)
    quiet = [ws.scene("hall", hall.piece(3.0), None, 0.0, rng) for _ in range(5)]
    assert sum(len(detect(s.samples)) for s in quiet) == 0


def test_real_robot_clips_through_the_real_wav_path(shared_data):
    r = evaluate(shared_data / "whistle" / "robot-clips" / "manifest.csv")
    cats = r["by_category"]
    assert cats["whistle"]["hits"] >= 5  # of 6 near whistles (each a whole-clip label)
    others = [v for k, v in cats.items() if k not in ("whistle", "distant-whistle")]
    assert sum(v["false_alarms"] for v in others) <= 1  # of 15 non-whistle clips


def test_real_blows_mixed_into_real_noise(shared_data):
    folder = shared_data / "whistle"
    blows = [ws.blow_piece(resample(*read_wav(p))) for p in sorted((folder / "robot-clips" / "whistle").glob("*.wav"))]
    noise = [read_wav(p)[0] for p in sorted((folder / "esc10-negatives" / "002 - Rain").glob("1-*.wav"))[:3]]
    scenes = ws.real_in_noise(blows, noise, 8, seed=33, snr_range=(0.0, 10.0))
    assert sum(bool(heard(s)) for s in scenes) >= 7


LEVEL_DB = -30.0  # the hall's level in dBFS (RMS), at calibration and in play


class _Room:
    """A games room: pink noise with a voice now and then (no hum right on a low toy's pitch)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def piece(self, seconds: float) -> np.ndarray:
        x = ta.pink_noise(seconds, amp=1.0, seed=int(self.rng.integers(1 << 30)))
        if seconds > 1 and self.rng.random() < 0.5:
            ta.place(x, ta.laughter(0.8, amp=3.0, seed=int(self.rng.integers(1000))), float(self.rng.uniform(0, seconds - 0.8)))
        return x


def _hall(hall, seconds: float) -> np.ndarray:
    return hall.piece(seconds) * 10 ** (LEVEL_DB / 20)


def _profile_for(make, seed: int, hall):
    """The wizard in the hall the table plays in: its quiet minute, then three good blows."""
    from calibration.whistle import _Progress, calibrate

    rng = np.random.default_rng(seed)
    calib = _hall(hall, 0.4)
    for _ in range(3):
        b = make(rng, 0.45) * 10 ** ((LEVEL_DB + 10) / 20) * 2  # the wizard asks for a good long blow, close by
        calib = np.concatenate([calib, b + _hall(hall, len(b) / ta.RATE)[: len(b)], _hall(hall, 0.6)])
    profile, _ = calibrate(["P"], 3, lambda: blocks_of(_hall(hall, 3.0)), lambda _n: blocks_of(calib),
                           lambda _n: None, _Progress(io.StringIO()), hear_distant=True)
    return profile


@pytest.mark.parametrize("name, make", [
    ("low toy whistle, 700 Hz (below the generic band)", lambda r, d=None: ws.harmonic_toy(r, 700.0, d)),
    ("pea whistle, 2.8 kHz", lambda r, d=None: ws.pea_trill(r, 2800.0, d)),
])
def test_a_profile_from_three_blows_hears_that_whistle_at_least_as_well_as_the_generic_detector(name, make):
    hall = _Room(seed=7)
    profile = _profile_for(make, len(name), hall)
    rng = np.random.default_rng(7)
    scenes = [ws.scene("cal", hall.piece(3.0), make(rng), float(rng.uniform(-5, 15)), rng, level_db=LEVEL_DB)
              for _ in range(10)]
    generic = sum(bool(heard(s)) for s in scenes)
    calibrated = sum(bool(heard(s, profile.detector())) for s in scenes)
    assert calibrated >= max(generic, 5), (name, generic, calibrated)
