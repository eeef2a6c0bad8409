"""A report's pitch as attribution reads it, one measure whichever route reported the blow (session 35).

The combined detector's two halves read a blow's pitch each their own way (session 4's from its frames' fundamental,
the cascade's from the strongest bin of its pool's frames), and a table's whistle is learnt through one half in
calibration and may be heard through the other in play: the signatures must compare like with like.  So the combined
detector reads every report's pitch features again here, from the same frames of power, the same way.

A frame's pitch is its strongest bin near the report's pitch (parabolic interpolation), except where the line is a
trill: a pea's rattle swings the tone by 200-800 Hz 20-40 times a second, about once a 32 ms frame, and the
strongest bin falls at one end or the other from frame to frame and blow to blow (a pea's three calibration blows were
read 300-650 cents apart).  A line whose bins within 10 dB of its peak run wider than ``trill_bins`` is read at the
centre of its energy over the floor instead: the middle of the swing, which is the pea's own.

Session 35's second candidate (``trill_body``): only a report whose body is mostly a trill's frames is read again;
every other keeps its half's own features, so a steady whistle's signature does not move.
"""

from __future__ import annotations

import math

import numpy as np

from .detector import EPS, N_FFT, RATE

BIN_HZ = RATE / N_FFT
WINDOW = (0.8, 1.25)  # a frame's line is looked for within these ratios of the report's pitch (a pea's swing fits)
RUN_DB = 10.0  # a line's width: its bins within this of its peak, side by side
EXCESS_FLOOR = 2.0  # a trill's centre weighs each bin's power above this many times its floor (noise weighs nothing)


def frame_pitch(spec: np.ndarray, floor: np.ndarray, k0: float, trill_bins: int) -> tuple[float, float, bool]:
    """One frame's (pitch in Hz, level in dB, whether its line is a trill's) near bin ``k0``: its strongest bin's, or
    a trill's centre."""
    lo = max(2, int(k0 * WINDOW[0]))
    hi = max(lo + 1, min(len(spec) - 3, math.ceil(k0 * WINDOW[1])))
    seg = spec[lo : hi + 1]
    i = int(seg.argmax())
    hz, level = line_at(spec, i + lo)
    if _run_width(seg, i) > trill_bins:
        excess = np.maximum(seg - EXCESS_FLOOR * floor[lo : hi + 1], 0.0)
        total = float(excess.sum())
        if total > 0:
            return float(excess @ np.arange(lo, hi + 1)) / total * BIN_HZ, level, True
    return hz, level, False


def line_at(spec: np.ndarray, m: int) -> tuple[float, float]:
    """The line peaking at bin ``m``: its pitch in Hz (a parabola through the log power of bins m-1..m+1) and its
    level in dB (the power of bins m-2..m+2).  The cascade's reports read their frames so too (``_pitch``)."""
    a, b, c = np.log(spec[m - 1 : m + 2] + EPS)
    den = a - 2 * b + c
    delta = float(min(max(0.5 * (a - c) / den, -0.5), 0.5)) if abs(den) > 1e-12 else 0.0  # np.clip costs more
    return (m + delta) * BIN_HZ, float(10 * np.log10(spec[m - 2 : m + 3].sum() + EPS))


def _run_width(seg: np.ndarray, i: int) -> int:
    """How many bins side by side, ``seg[i]`` among them, stand within ``RUN_DB`` of ``seg[i]``."""
    low = seg < seg[i] * 10 ** (-RUN_DB / 10)
    left = low[:i][::-1].argmax() if low[:i].any() else i  # bins from i down to the first low one
    right = low[i + 1 :].argmax() if low[i + 1 :].any() else len(seg) - 1 - i
    return int(left + right + 1)


def pitch_features(frames: np.ndarray, floor: np.ndarray, hz: float, body_db: float, trill_bins: int,
                   trill_body: float = 0.0) -> dict[str, float] | None:
    """``peak_hz`` and ``spread_cents`` of a report at ``hz`` from its frames' power: the median and spread of the
    frames' pitches over its body (the frames within ``body_db`` of the loudest: not the attack's glide).  None when
    fewer than ``trill_body`` of the body's frames are a trill's (the report keeps the features it has)."""
    got = [frame_pitch(spec, floor, hz / BIN_HZ, trill_bins) for spec in frames]
    pitch, level, trill = (np.array(column) for column in zip(*got, strict=True))
    body = level >= level.max() - body_db if body_db > 0 else np.ones(len(level), bool)
    if trill_body > 0 and trill[body].mean() < trill_body:
        return None
    med = float(np.median(pitch[body]))
    return {"peak_hz": med, "spread_cents": float(np.std(1200 * np.log2(pitch[body] / med)))}
