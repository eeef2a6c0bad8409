"""The combined whistle detector: the shipped detector for steady tones, the cascade where it cannot hear.

Both detectors see the same STFT frames (computed once).  A blow the shipped
detector (``detector.py``, session 4) reports is reported.  A blow only the
cascade (``cascade.py``) reports is reported when the shipped detector could
not have heard it (``CombinedParams``), i.e. its evidence is of a kind the
shipped detector's tests reject:

- **trill-like**: the line's energy is spread over a few hundred hertz (a
  pea's rattle puts sidebands 250-800 Hz off the peak, which the shipped
  detector's dominance test counts as competing lines);
- **under a steady low line**: a line below 1 kHz (hum, a motor) as loud as
  the whistle or louder, which beats the peak in the shipped dominance test,
  and steady (the floor has learned it: a voice's low harmonics are new sound).

The cascade runs at its verifier's strict threshold (``strict_cascade``).
Session 8 (v3): neither rule speaks while the band below 1 kHz swings with syllables
(``CombinedParams.voice_swing_db``): a voice or a laugh, not a hum.
Both rules and their numbers were chosen on the benchmark's quick seed-0
scenes (docs/whistle.md); a third reason, a line too quiet for the shipped
detector's start SNR, was tried there and dropped (it let hall noise through).

A steady, clear tone the shipped detector did not report is not reported
by the cascade either: there the shipped detector's refusal is trusted.

One blow, one event: a detection whose onset falls before the last report's
time plus the refractory period is the same blow heard by the other detector.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .cascade import CascadeDetector, CascadeParams
from .detector import EPS, HOP, N_FFT, RATE, Attribute, Detection, DetectorParams, StreamDetector, WhistleDetector
from .verifier import HISTORY, Verifier

BIN_HZ = RATE / N_FFT
LOW_BINS = round(1000 / BIN_HZ)  # below 1 kHz
SWING_BINS = (6, 32)  # 188-1000 Hz: where a voice's first harmonics and formant put their energy
SWING_QUIET = 1e-6  # the band's level is read above this (power units of the STFT; about -97 dBFS)
SWING_FRAMES = 40  # 0.64 s of that band's level before the blow: a few syllables (3-8 a second)
SWING_RING = 2 * SWING_FRAMES  # and the frames since its onset


@dataclass(frozen=True)
class CombinedParams:
    gate: bool = True  # False: every cascade report counts (the plain union, for the benchmark)
    window_hz: float = 500.0  # the gate looks at +-this around the cascade's pitch (a trill's sidebands stay inside)
    trill_share: float = 0.7  # the line's +-2 bins hold less than this of that window's power,
    trill_wander_hz: float = 200.0  # and it jumps at least this far from frame to frame (a pea's rattle),
    # unless a voice is under it: a line below 1 kHz as strong as the whistle's (voice_low_db) standing
    # more than voice_over_db over its own floor (new sound: a voice's harmonics, which jump between
    # voices like a trill).  Both, as a trill's breath noise alone lifts a quiet room's floor by 10-17 dB.
    voice_low_db: float = 0.0
    voice_over_db: float = 12.0
    # Session 11: instead of jumping, the line may be spread this far, its +-2 bins under this share of the
    # window wherever its peak is, while nothing new sounds below 1 kHz (the low line at most voice_over_db
    # over its floor): in 32 ms frames a 20-40 Hz rattle is averaged into sidebands round a peak bin that stays
    # put (trills the gate turned down had a strict cascade yes, a share of 0.36-0.48 and a wander of 0-31 Hz).
    # 0.45 chosen on seed 5; on seed 7 without the low condition it let two struck plates through (1.1 and
    # 1.3 kHz, their low band 31-37 dB over its floor); judged with it on seed 8 (docs/whistle.md, session 11).
    trill_spread_share: float = 0.45
    # Speech or laughter below 1 kHz (session 8, v3): its level swings with the syllables, a hum's or a motor's
    # holds.  The swing is the level's std before the blow's onset and after it, pooled (so the one step a
    # blow's own breath makes at its onset is not a swing).  Seed-0 full families: babble and laughter
    # reports 4.5-12.3 dB, every blow heard under hum, loud hum, trills and short peas <= 2.6 dB.
    # Above this, neither rule below may speak for the shipped detector.
    voice_swing_db: float = 3.5
    low_line_db: float = 0.0  # a line below 1 kHz at least as strong as the whistle's,
    steady_low_db: float = 8.0  # and no more than this over its own floor: a steady hum (a voice is new sound)
    refractory_s: float = 0.3


@dataclass(frozen=True)
class Evidence:
    """What the combined detector measured of a cascade-only blow (the last frames before its report)."""

    line_share: float  # the line's +-2 bins against the +-500 Hz window, mean over frames
    low_db: float  # strongest bin below 1 kHz against the line's strongest bin, dB (median over frames)
    low_over_db: float  # that low line over its own floor, dB (median): a steady hum is learned (~0 dB), a voice is not
    wander_hz: float  # the line's median jump from frame to frame (a pea's rattle moves it hundreds of Hz)
    low_swing_db: float = 0.0  # the 188-1000 Hz level's std before and after the onset, pooled, dB: syllables swing it

    def speech(self, p: CombinedParams) -> bool:
        """The low band rises and falls like syllables: a voice or a laugh, which neither rule may take for a hum."""
        return self.low_swing_db > p.voice_swing_db

    def reasons(self, p: CombinedParams) -> list[str]:
        """Why the shipped detector could not hear this (empty: it could, so a miss of its is trusted)."""
        out: list[str] = []
        if self.speech(p):
            return out
        voice = self.low_db >= p.voice_low_db and self.low_over_db > p.voice_over_db
        spread = self.line_share < p.trill_spread_share and self.low_over_db <= p.voice_over_db
        moves = self.wander_hz >= p.trill_wander_hz or spread
        if self.line_share < p.trill_share and moves and not voice:
            out.append("trill")
        if self.low_db >= p.low_line_db and self.low_over_db <= p.steady_low_db:
            out.append("low line")
        return out


CASCADE_ACCEPTS = 1  # yes the combined detector's cascade needs (its own default: two in a row)


def strict_cascade(params: CascadeParams | None = None, attribute: Attribute | None = None,
                   verifier: Verifier | Callable[[np.ndarray], float] | None = None,
                   accepts: int = CASCADE_ACCEPTS) -> CascadeDetector:
    """The cascade as the combined detector runs it: at its verifier's strict threshold (0.1 % of the
    training negatives let through, not 0.3 %), as it only adds to what session 4's detector hears,
    and on one yes rather than two in a row (session 8: the gate's evidence is the second opinion;
    on the seed-0 quick scenes one yes heard 14 more trills of 30 and two yes 9, neither with a
    false alarm on babble, ESC-10, hall or table noise)."""
    v = verifier if verifier is not None else Verifier.combined()
    strict = getattr(v, "strict_threshold", None)
    p = replace(params or CascadeParams(), accepts=accepts)
    if strict is not None and p.threshold is None:
        p = replace(p, threshold=float(strict))
    return CascadeDetector(p, attribute=attribute, verifier=v)


class CombinedDetector(StreamDetector):
    """Same interface as ``WhistleDetector``: ``process(block)`` returns completed detections."""

    def __init__(
        self,
        params: CombinedParams | None = None,
        shipped: WhistleDetector | None = None,
        cascade: CascadeDetector | None = None,
        attribute: Attribute | None = None,
        rate: int = RATE,
        on_cascade: Callable[[Detection, Evidence, bool], None] | None = None,
    ) -> None:
        super().__init__(attribute, rate)
        self.params = params or CombinedParams()
        self.shipped = shipped or WhistleDetector(attribute=attribute)
        self.cascade = cascade or strict_cascade(attribute=attribute)
        self.on_cascade = on_cascade  # the benchmark's look at each cascade-only report (reported or not)
        self._noise = None
        self.reset()

    @classmethod
    def of(cls, shipped: DetectorParams | None = None, cascade: CascadeParams | None = None,
           noise_db: np.ndarray | None = None, attribute: Attribute | None = None,
           verifier: Verifier | Callable[[np.ndarray], float] | None = None,
           params: CombinedParams | None = None, accepts: int = CASCADE_ACCEPTS) -> CombinedDetector:
        return cls(params, WhistleDetector(shipped, noise_db, attribute), strict_cascade(cascade, attribute, verifier, accepts),
                   attribute)

    def reset(self) -> None:
        self._buf = np.zeros(0, np.float32)
        self._samples = 0
        self._frame = 0
        self.shipped.reset()
        self.cascade.reset()
        self._ring = np.zeros((HISTORY, N_FFT // 2 + 1))  # the last frames' power, for the gate
        self._swing = np.full(SWING_RING, np.nan)  # the last frames' 188-1000 Hz level, dB (nan: not heard yet)
        self._last: Detection | None = None

    @property
    def noise_db(self) -> np.ndarray | None:
        return self.shipped.noise_db

    @property
    def noise_floor(self) -> np.ndarray | None:
        return self.shipped.noise_floor

    @property
    def band_hz(self) -> tuple[float, float]:
        """The shipped detector's band (the one a profile sets; the cascade keeps its own)."""
        return self.shipped.band_hz

    def process(self, block: np.ndarray) -> list[Detection]:
        got = self._spectra(block)
        if got is None:
            return []
        first, power = got
        out: list[Detection] = []
        for sub in (self.shipped, self.cascade):
            sub.follow(self._samples, self._frame)
        mine = self.shipped.consume(first, power)
        theirs = self.cascade.consume(first, power)
        n = min(len(power), HISTORY)
        self._ring = np.concatenate([self._ring[n:], power[-n:]])
        # read above SWING_QUIET: digital silence in a test is not a swinging voice
        low = 10 * np.log10(power[-SWING_RING:, SWING_BINS[0]:SWING_BINS[1]].sum(axis=1) + SWING_QUIET)
        self._swing = np.concatenate([self._swing[len(low):], low])
        for det in mine:
            if self._fresh(det):
                out.append(self._report(det))
        for det in theirs:
            if not self._fresh(det):
                continue
            ev = self.evidence(det.peak_hz, det.onset)
            ok = not self.params.gate or bool(ev.reasons(self.params))
            if self.on_cascade is not None:
                self.on_cascade(det, ev, ok)
            if ok:
                out.append(self._report(det))
        return out

    def _fresh(self, det: Detection) -> bool:
        """Not the blow just reported (by either detector)."""
        last = self._last
        return last is None or det.onset >= last.detected_at + self.params.refractory_s

    def _report(self, det: Detection) -> Detection:
        self._last = det
        return det

    def evidence(self, hz: float, onset: float | None = None) -> Evidence:
        """The gate's measures of the last frames at the cascade's pitch ``hz`` (the blow began at ``onset``, s)."""
        p = self._ring[-HISTORY:]
        floor = self.cascade.noise_floor
        if floor is None:
            floor = np.full(p.shape[1], EPS)
        w = round(self.params.window_hz / BIN_HZ)
        k = round(hz / BIN_HZ)
        k = min(max(k, w + 2), p.shape[1] - w - 2)  # the window and the line's +-2 bins inside the spectrum
        win = p[:, k - w : k + w + 1]
        m = win.argmax(axis=1)  # the line, frame by frame (it wanders in a trill)
        rows = np.arange(len(p))[:, None]
        idx = np.clip(m[:, None] + np.arange(-2, 3)[None, :], 0, 2 * w)
        line = win[rows, idx].sum(axis=1)
        share = float(np.mean(line / (win.sum(axis=1) + EPS)))
        top = win.max(axis=1)
        lowk = p[:, 4:LOW_BINS].argmax(axis=1) + 4
        low = p[np.arange(len(p)), lowk]
        low_db = float(np.median(10 * np.log10((low + EPS) / (top + EPS))))
        low_over = float(np.median(10 * np.log10((low + EPS) / (floor[lowk] + EPS))))
        wander = float(np.median(np.abs(np.diff(m)))) * BIN_HZ
        return Evidence(share, low_db, low_over, wander, self._low_swing(onset))

    def _low_swing(self, onset: float | None) -> float:
        """The 188-1000 Hz level's std (dB) over the 0.64 s before ``onset`` and the frames since, pooled."""
        frame = self._frame - len(self._swing) + np.arange(len(self._swing))  # each level's frame index
        at = self._frame - SWING_FRAMES // 4 if onset is None else round(onset * RATE / HOP)
        parts = [self._swing[(frame >= at - SWING_FRAMES) & (frame < at)], self._swing[frame >= at]]
        parts = [x[~np.isnan(x)] for x in parts]
        n = sum(len(x) for x in parts)
        if n < 2:
            return 0.0
        return float(np.sqrt(sum(len(x) * np.var(x) for x in parts if len(x)) / n))
