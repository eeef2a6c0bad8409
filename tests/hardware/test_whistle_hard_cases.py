"""The cases of issue #15 the shipped detector passes: real WAVs, real blows in real noise,
hall noise without a false alarm, calibration that helps a low toy whistle.

The cases it fails (wide pea trills, blows under hum and motors below 1 kHz, a
steady 0.8 kHz hum louder than the whistle, a short quiet pea blow heard within
200 ms, calibrating on a pea whistle) are rows of benchmarks/whistle_eval.py,
with their figures in docs/whistle.md, not tests: they are misses to fix, not
behaviour to keep.

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


def test_the_other_negative_families_are_new_sounds_and_session_4_stays_quiet_on_speech_ones():
    # Babble and laughter (espeak-ng) in sentences and voices the table noise and the hall never
    # use, so their benchmark rows are held out of the verifier; session 4 hears no whistle in them.
    assert not set(ws.BABBLE_LINES) & set(ta.SPEECH_LINES)
    other = ws.OtherNoise(seed=3)
    rng = np.random.default_rng(3)
    for family in ws.NEGATIVE_FAMILIES:
        piece = other.piece(family, 3.0)
        assert len(piece) == 3 * ta.RATE and np.isfinite(piece).all() and 0.5 < ws.rms(piece) < 2.0, family
    for family in ("babble", "laughter"):
        scenes = [ws.scene(family, other.piece(family, 6.0), None, 0.0, rng) for _ in range(4)]
        assert sum(len(detect(s.samples)) for s in scenes) == 0, family


def test_rattled_swings_a_blow_s_pitch_at_a_pea_rate(shared_data):
    # Session 9's training recipe trills real blows (ws.rattled): the line must swing by about the
    # asked +-200-800 Hz, fast (a 20-40 Hz rattle), not just be chopped in loudness.
    path = sorted((shared_data / "whistle" / "robot-clips" / "whistle").glob("*.wav"))[0]
    blow = ws.cut(ws.blow_piece(resample(*read_wav(path))), np.random.default_rng(1), 0.4, 0.4)
    trilled = ws.rattled(blow, np.random.default_rng(2), ws.peak_hz(blow))
    assert 0.7 * len(blow) < len(trilled) <= len(blow) and np.isfinite(trilled).all()
    assert 0.05 < ws.rms(trilled) / ws.rms(blow) < 1.0

    def line(x: np.ndarray) -> np.ndarray:  # the loudest bin, 8 ms frames, 2 ms hops
        n, hop = 128, 32
        f = np.fft.rfftfreq(n, 1 / ta.RATE)
        frames = [x[i:i + n] * np.hanning(n) for i in range(n, len(x) - 2 * n, hop)]
        return np.array([f[np.argmax(np.abs(np.fft.rfft(fr)))] for fr in frames])

    tone = ta.tone(3000, 0.4, amp=0.2)
    assert np.ptp(line(tone)) == 0
    swing = line(ws.rattled(tone, np.random.default_rng(3), 3000.0))
    assert np.percentile(swing, 95) - np.percentile(swing, 5) >= 250
    assert np.mean(np.abs(np.diff(swing)) > 0) > 0.2  # it moves every few frames, not once


def test_a_pea_whistle_keeps_its_own_swing_blow_to_blow():
    # Session 34's table of trilled whistles (whistle_eval's "trills" attribution): one pea whistle's blows swing
    # about its pitch by about its own swing, every blow, where pea_trill draws a new whistle each time.
    def spread(x: np.ndarray) -> tuple[float, float]:  # the loudest bin's 5th-95th percentile range, 8 ms frames, 2 ms hops
        n, hop = 128, 32
        f = np.fft.rfftfreq(n, 1 / ta.RATE)
        line = [f[np.argmax(np.abs(np.fft.rfft(x[i:i + n] * np.hanning(n))))] for i in range(n, len(x) - 2 * n, hop)]
        return float(np.percentile(line, 95) - np.percentile(line, 5)), float(np.median(line))

    rng = np.random.default_rng(5)
    for _ in range(5):
        x = ws.pea_whistle(rng, 3300.0, 400.0, 32.0)
        assert 0.25 * ta.RATE <= len(x) <= 0.5 * ta.RATE and np.isfinite(x).all()
        width, middle = spread(x)
        assert 2 * 400 * 0.6 <= width <= 2 * 400 * 1.3 and abs(middle - 3300) < 250
