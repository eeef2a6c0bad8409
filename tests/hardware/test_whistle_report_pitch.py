"""Session 35 (CombinedParams.trill_bins, trill_body): the combined detector reads a report's pitch features again one
way, a trill at the centre of its line, so a pea whistle's blows are read alike blow to blow; with trill_body only
reports mostly a trill's frames are, and a steady whistle keeps its half's own features."""

from __future__ import annotations

import numpy as np
import pytest

from hardware.audio import read_wav, resample
from hardware.testing import audio as ta
from hardware.testing import whistle_synth as ws
from hardware.whistle.combined import CombinedDetector, CombinedParams
from hardware.whistle.detector import N_FFT, WINDOW, detect, power_of
from hardware.whistle.report_pitch import frame_pitch


def cents(hz: float, ref: float) -> float:
    return float(1200 * np.log2(hz / ref))


def frames(x: np.ndarray) -> np.ndarray:
    return power_of(np.lib.stride_tricks.sliding_window_view(x, N_FFT)[:: N_FFT // 2].astype(np.float32))


def test_a_steady_line_is_read_at_its_strongest_bin_and_a_trill_at_its_centre():
    t = np.arange(ta.RATE // 2) / ta.RATE
    floor = np.full(N_FFT // 2 + 1, 1e-6)
    steady = frames((0.3 * np.sin(2 * np.pi * 2510.0 * t)).astype(np.float32))
    for spec in steady[2:-2]:
        hz, _, trill = frame_pitch(spec, floor, 2400.0 / 31.25, trill_bins=6)
        assert abs(cents(hz, 2510.0)) < 10 and not trill
    # A pure trill (no loudness chop): 3.3 kHz swung +-400 Hz at 40 Hz.  In each 32 ms frame the strongest bin sits at
    # one end of the swing (+165 or -185 cents), so a blow's median lands at an end; its energy's centre moves about
    # the middle, and the frames' median is the pea's pitch.
    swung = 3300 + 400 * np.sin(2 * np.pi * 40 * t)
    trill = frames((0.3 * np.sin(2 * np.pi * np.cumsum(swung) / ta.RATE)).astype(np.float32))[2:-2]
    centre = [cents(frame_pitch(spec, floor, 3300 / 31.25, trill_bins=6)[0], 3300.0) for spec in trill]
    strongest = [cents(frame_pitch(spec, floor, 3300 / 31.25, trill_bins=10**6)[0], 3300.0) for spec in trill]
    assert abs(np.median(centre)) < 30 and np.median(np.abs(centre)) < 100
    assert abs(np.median(strongest)) > 150 and min(np.abs(strongest)) > 150
    assert len(WINDOW) == N_FFT  # the STFT these frames are read with is the detector's own


def pea_pitches(params: CombinedParams) -> list[float]:
    """Ten blows of one pea whistle in table noise through the combined detector, each in a fresh stream (as the
    attribution benchmark hears them): the cents of each heard blow's ``peak_hz`` feature from the pea's pitch."""
    rng, stream = np.random.default_rng(7), ta.NegativeStream(seed=11)
    out = []
    for _ in range(10):
        seg = stream.segment()[: 3 * ta.RATE] * 0.3
        x = ws.pea_whistle(rng, 3300.0, 400.0, 32.0)
        ta.place(seg, x / np.abs(x).max() * 0.2, 1.0)
        found = detect(seg, CombinedDetector.of(params=params))
        out += [cents(d.features["peak_hz"], 3300.0) for d in found if 0.9 <= d.onset <= 1.3][:1]
    return out


def test_a_pea_whistles_blows_are_read_alike():
    off = pea_pitches(CombinedParams(trill_bins=0))
    # With each half's own reading the blows fall at either end of the swing (+150..+200 and -230 cents here); read
    # again, every report (trill_body 0) or those mostly a trill's frames (0.5), nearer the middle.
    for body in (0.0, 0.5):
        on = pea_pitches(CombinedParams(trill_bins=6, trill_body=body))
        assert len(on) == len(off) >= 8  # the same blows heard: only the features move
        assert np.std(on) < 0.6 * np.std(off)


def test_a_real_whistles_pitch_is_its_strongest_line(shared_data):
    path = shared_data / "whistle" / "robot-clips" / "whistle" / "whistle_3_metres_robot_on_circle_coach_middle_edge_of_field.wav"
    if not path.exists():
        pytest.skip("robot-clips not present")
    x = resample(*read_wav(path))
    off = detect(x, CombinedDetector.of(params=CombinedParams(trill_bins=0)))
    every = detect(x, CombinedDetector.of(params=CombinedParams(trill_bins=6, trill_body=0.0)))
    trills = detect(x, CombinedDetector.of(params=CombinedParams(trill_bins=6, trill_body=0.5)))
    assert [d.onset for d in every] == [d.onset for d in trills] == [d.onset for d in off] and off
    for a, b, c in zip(every, trills, off, strict=True):
        assert a.peak_hz == b.peak_hz == c.peak_hz
        # every report read again: near each half's own reading, and steadier
        assert abs(cents(a.features["peak_hz"], c.features["peak_hz"])) < 25 and a.features["spread_cents"] < 40
        # only trills read again: a steady whistle keeps its half's own features
        assert b.features == c.features
