"""The per-band SNR of benchmarks/whistle_toy_diag.py (session 17's diagnosis of the toys): a tone's power over
white noise's in a +-100 Hz band is its power over the noise's share of that band, and the loudest band of a noise
away from given pitches is where a tone was put in it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from whistle_toy_diag import BAND_HALF_HZ, band_snr_db, loudest_band

RATE = 16_000


def test_band_snr_of_a_tone_in_white_noise() -> None:
    rng = np.random.default_rng(3)
    t = np.arange(RATE) / RATE  # 1 s
    tone = 0.1 * np.sin(2 * np.pi * 1200.0 * t)
    noise = 0.05 * rng.standard_normal(len(t))
    # white noise spreads its variance evenly over 0-8 kHz: 200 Hz of it hold 1/40
    want = 10 * np.log10((0.1**2 / 2) / (0.05**2 * 2 * BAND_HALF_HZ / (RATE / 2)))
    assert abs(band_snr_db(tone, noise, 1200.0) - want) < 0.7  # about 200 one-hertz bins of noise: +-0.3 dB
    assert band_snr_db(tone, noise, 1500.0) < -20  # 300 Hz off the tone, only its window's leakage
    # the eval's broadband SNR of the same pair is 16 dB lower: the noise's other 7.8 kHz
    broadband = 10 * np.log10(np.mean(tone**2) / np.mean(noise**2))
    assert abs(band_snr_db(tone, noise, 1200.0) - broadband - 10 * np.log10(40)) < 0.7


def test_loudest_band_finds_the_line_away_from_the_blow() -> None:
    rng = np.random.default_rng(4)
    t = np.arange(RATE // 2) / RATE
    noise = 0.01 * rng.standard_normal(len(t)) + 0.05 * np.sin(2 * np.pi * 480.0 * t) + 0.2 * np.sin(2 * np.pi * 1200.0 * t)
    hz, power = loudest_band(noise, away=[1200.0])  # the blow's own line is not the competitor
    assert abs(hz - 480.0) <= BAND_HALF_HZ
    hz_any, power_any = loudest_band(noise, away=[])
    assert abs(hz_any - 1200.0) <= BAND_HALF_HZ and power_any > 10 * power
