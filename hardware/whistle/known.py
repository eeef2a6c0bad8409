"""The known-whistle matcher: with a calibrated profile, hear the table's own whistles by their spectrum.

The generic detectors must refuse voices and music, so they refuse a toy whistle rich in harmonics
(a low toy at 700 Hz looks like a sung vowel to them).  After calibration the table's whistles are
known: each keeps a small spectral template, the mean whitened (over the room's per-bin floor)
log-spectrum of its calibration blows, sampled at fixed multiples of its fundamental (0.5 to 4.5
times it, eight points a harmonic), so the template holds its harmonic pattern whatever its pitch.

A frame matches a whistle when, at a pitch within the whistle's blow-to-blow spread of its own,
the frame's whitened spectrum sampled on the same grid correlates with the template (Pearson, so
the loudness does not matter) and the template's loudest lines stand well over the floor.  A blow
is reported when frames match for ``min_frames`` in a row (a missed frame is bridged: a pea's
chop), once per blow: the matcher then waits for the match to end and a refractory period.
The combined detector (``combined.py``) merges these reports with its other halves' (one blow,
one event) and attributes them to the matched whistle.

Numpy only, a few gathers per frame and whistle: it runs only with a calibrated profile.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .detector import EPS, HOP, N_FFT, RATE, Detection, decay_slopes, frames_of, power_of

BIN_HZ = RATE / N_FFT
GRID_STEP = 1 / 8  # template points per harmonic: about 3 bins apart at 700 Hz, so a line is never missed
GRID_LO, GRID_HI = 0.5, 4.5  # the template spans half the fundamental to 4.5 times it
TOP_HZ = 7800.0  # grid points over this are dropped (the STFT ends at 8 kHz)
MIN_POINTS = 9  # a template reaches at least 1.5 times its fundamental
MAX_DB = 60.0  # whitened levels are clipped here and at 0: a loud blow must not weigh more than a clear one
MAX_POINTS = 33  # the whole grid, 0.5 to 4.5 in eighths
# A whistle whose calibration blows disagree in pitch by more than this (their std, cents) gets no template:
# a pea's trill (seeds 0-14: 61-367 cents) or blows heard at different harmonics (a toy at 1.2 and 2.4 kHz)
# give no one pitch to match at, and a template of them matches anything.  Toys and real whistles: 0-55 cents.
MAX_SPREAD_CENTS = 50.0
# Whether a calibrated profile's combined detector runs the matcher (Profile.known, the profile's
# ``known_whistles``, overrides it): on, with its guard, by session 21's second rule (seed 32: the real A-D
# whistles 94 -> 128 of 160, every calibration whistle on >= off, attribution 97 of 100 either way, no false alarm
# count over the rule's bounds; docs/whistle.md).  Before: off, the session-14 rule's verdict (seed 15: the toys
# gained 14 blows of 160 where 20 were asked) and session 21's first (seed 31: clatter +8 of 133 where 5 % was
# allowed, which the guard's click test then took).  Profiles keep their templates either way.
KNOWN_DEFAULT = True


def grid(f0: float) -> np.ndarray:
    """The template's multiples of the fundamental that lie under ``TOP_HZ``."""
    x = np.arange(GRID_LO, GRID_HI + GRID_STEP / 2, GRID_STEP)
    return x[x * f0 <= TOP_HZ]


def whitened_db(power: np.ndarray, floor: np.ndarray) -> np.ndarray:
    """Frames' power over the per-bin floor in dB, clipped to [0, MAX_DB], each bin the max of itself and its
    neighbours (the grid falls between bins; a trill smears its line by a bin or two)."""
    w = np.clip(10 * np.log10((power + EPS) / (floor + EPS)), 0.0, MAX_DB)
    out = w.copy()
    out[:, 1:] = np.maximum(out[:, 1:], w[:, :-1])
    out[:, :-1] = np.maximum(out[:, :-1], w[:, 1:])
    return out


def sample(w: np.ndarray, hz: np.ndarray) -> np.ndarray:
    """``w`` (frames x bins) at the frequencies ``hz`` (linear interpolation between bins)."""
    b = np.clip(hz / BIN_HZ, 0, w.shape[-1] - 1.001)
    i = b.astype(int)
    t = b - i
    return w[..., i] * (1 - t) + w[..., i + 1] * t


def learn_template(samples: np.ndarray, spans: Sequence[tuple[float, float, float]], noise_db: Sequence[float]) -> tuple[float, ...]:
    """The mean whitened log-spectrum of calibration blows (``spans``: onset s, offset s, fundamental Hz in
    ``samples``), each frame sampled on its own blow's grid; over the quiet room's floor ``noise_db``."""
    x = np.asarray(samples, np.float32)
    frames, _ = frames_of(np.zeros(0, np.float32), x)
    if frames is None or not spans:
        raise ValueError("no blow to learn a template from")
    power = power_of(frames)
    w = whitened_db(power, 10 ** (np.asarray(noise_db, float) / 10))
    n = len(grid(max(s[2] for s in spans)))  # every blow's grid has these points under TOP_HZ
    rows = []
    for onset, offset, f0 in spans:
        # frame j is centred at (j + 1) hops: take the frames whose centre lies in the blow
        a, b = math.ceil(onset * RATE / HOP - 1), math.floor(offset * RATE / HOP - 1)
        if b >= a:
            rows.append(sample(w[a : min(b + 1, len(w))], grid(f0)[:n] * f0))
    if not rows:
        raise ValueError("the blows lie outside the recording")
    return tuple(round(float(v), 1) for v in np.concatenate(rows).mean(axis=0))


@dataclass(frozen=True)
class KnownParams:
    """Chosen on seeds 12-14 (whistle_known.py's scenes, 0.25 h of each negative family, ESC-10; docs/whistle.md,
    session 14): 0.85 or more, or 10 frames, halved the toys' gain; 0.75 or 6 frames let more ESC-10 through."""

    min_corr: float = 0.8  # Pearson correlation of a frame with the template, at the best pitch
    min_snr_db: float = 30.0  # the template's loudest lines, in the frame, over the floor (whitened dB)
    min_frames: int = 8  # matching frames (16 ms each: about 130 ms) before a blow is reported
    max_gap: int = 1  # missed frames bridged within a run
    tol_cents: tuple[float, float] = (40.0, 100.0)  # pitch window: 3 x the blow-to-blow spread, within these
    step_cents: float = 20.0  # pitch candidates this far apart
    struck_db: float = 0.25  # a run loudest at its start and falling this much a frame since is a ring (0: off)
    refractory_s: float = 0.3
    min_level_db: float = -200.0  # the profile's level gate (DetectorParams.min_level_db): another table's whistle
    # Session 21: the guard that a report is blown, not struck or sung (the combined detector's ``blown``, on the
    # report's frames).  A near-pure whistle's template is one line, which a struck glass or a held note at its
    # pitch matches (seed 30, the real A-D profile: clatter 65 -> 193, music 400 -> 493 a half hour).  A report
    # is kept when it does not decay like a struck sound (``ring``: the combined detector's ring test,
    # CombinedParams.ring_*), its line wobbles (the std of its frame-to-frame pitch change, read between bins,
    # at least ``min_wobble_cents``: a blow's breath moves it; a glass, a synthesised note or a hum holds it),
    # the verifier finds it whistle-like enough (the cascade's patch at its pitch, at least ``min_vouch``: far
    # looser than the cascade's own strict threshold), and nothing below it is louder (``max_low_db``, the
    # loudest bin from 125 Hz to 0.75 x its pitch, at most 1 kHz, over its line, median over its frames: a
    # voice's low harmonics).  Chosen on seeds 28-30 (docs/whistle.md, session 21).  ``UNGUARDED``: all off.
    ring: bool = True
    min_wobble_cents: float = 5.0
    min_vouch: float = 0.4
    max_low_db: float = 0.0
    # Session 21, second step: nothing is struck while it sounds.  The clatter the guard let through (seed 31: 8 of
    # 141) is a glass struck again while it rings, or two struck together, which beat: their line wobbles and their
    # level does not fall steadily, so the ring and wobble tests pass them.  Each strike begins with a click that
    # lifts the whole spectrum at once; a blow's breath does not.  A report is kept when no frame after its second
    # rises, over the one before it, by more than ``max_click_db`` (``strike_click``: the median over the bins
    # from 500 Hz up, away from its line's pitch, half it and its multiples to 3x).  Chosen on seeds 28-31.
    max_click_db: float = 4.0


# session 14's matcher
UNGUARDED = {"ring": False, "min_wobble_cents": 0.0, "min_vouch": 0.0, "max_low_db": math.inf, "max_click_db": math.inf}


LOW_HZ = (125.0, 1000.0)  # the band the voice test reads, below 0.75 x the report's pitch


def line_motion(power: np.ndarray, hz: float) -> tuple[float, float]:
    """A report's frames (frames x bins, power): its line's wobble, the std of the frame-to-frame change of its
    pitch in cents (the loudest bin within 3 of ``hz``, read between bins on the log spectrum), and the loudest
    bin below it (``LOW_HZ``, under 0.75 x ``hz``) over the line (its +-2 bins), median over the frames, dB
    (-inf where that band is empty).  Fewer than 3 frames: (0, -inf), no wobble seen."""
    if len(power) < 3:
        return 0.0, -math.inf
    n = power.shape[1]
    k = min(max(round(hz / BIN_HZ), 4), n - 5)
    rows = np.arange(len(power))
    m = power[:, k - 3 : k + 4].argmax(axis=1) + k - 3
    db = 10 * np.log10(power[rows[:, None], m[:, None] + np.arange(-1, 2)] + EPS)
    bend = db[:, 0] - 2 * db[:, 1] + db[:, 2]
    off = np.clip(0.5 * (db[:, 0] - db[:, 2]) / np.minimum(bend, -1e-9), -0.5, 0.5)
    cents = 1200 * np.log2((m + off) * BIN_HZ)
    line = 10 * np.log10(power[rows[:, None], m[:, None] + np.arange(-2, 3)].sum(axis=1) + EPS)
    a, b = round(LOW_HZ[0] / BIN_HZ), min(round(LOW_HZ[1] / BIN_HZ), math.floor(0.75 * hz / BIN_HZ))
    low = float(np.median(10 * np.log10(power[:, a:b].max(axis=1) + EPS) - line)) if b > a else -math.inf
    return float(np.std(np.diff(cents))), low


CLICK_LO_HZ = 500.0  # the band the click test reads starts here (a voice's and a hum's low lines below)
CLICK_SKIP = 8  # bins left out on either side of the line's pitch, half it and its multiples (250 Hz)


def strike_click(power: np.ndarray, hz: float) -> float:
    """A report's frames (frames x bins, power, from its onset): the largest broadband jump after its second frame,
    the median over the bins from ``CLICK_LO_HZ`` up, away from ``hz`` x 0.5, 1, 1.5 ... 3 (``CLICK_SKIP`` bins
    either side), of a frame's level over the one before it, dB (-inf with fewer than 3 frames).  A strike's click
    lifts every bin at once (a glass struck again while it rings, or a second one); a blow moves its own lines."""
    if len(power) < 3:
        return -math.inf
    keep = np.ones(power.shape[1], bool)
    keep[: round(CLICK_LO_HZ / BIN_HZ)] = False
    for h in np.arange(0.5, 3.01, 0.5):
        k = round(h * hz / BIN_HZ)
        keep[max(0, k - CLICK_SKIP) : k + CLICK_SKIP + 1] = False
    db = 10 * np.log10(power[:, keep].astype(float) + EPS)
    return float(np.median(np.diff(db[1:], axis=0), axis=1).max())


@dataclass(frozen=True)
class Template:
    """One whistle: its name, fundamental, blow-to-blow spread (cents) and spectral template."""

    name: str
    peak_hz: float
    spread_cents: float
    template_db: tuple[float, ...]


@dataclass
class _Run:
    start: int  # first matching frame
    last: int  # last matching frame
    frames: int = 0
    scores: list[float] = field(default_factory=list)
    shifts: list[float] = field(default_factory=list)
    levels: list[float] = field(default_factory=list)
    snrs: list[float] = field(default_factory=list)
    emitted: bool = False


class KnownMatcher:
    """Frames in (the combined detector's STFT power and floor), reports of known whistles out."""

    def __init__(self, templates: Sequence[Template], params: KnownParams | None = None) -> None:
        self.params = p = params or KnownParams()
        self.templates = list(templates)
        self._hz: list[np.ndarray] = []  # per template: pitch candidates x grid points, in Hz
        self._t: list[np.ndarray] = []  # the template, mean-removed and unit-norm (Pearson by a dot product)
        self._top: list[np.ndarray] = []  # the template's loudest points (within 6 dB of its top)
        self._cents: list[np.ndarray] = []
        self._reach: list[list[slice]] = []  # _snr_bound's bins: each loudest point's, over every pitch candidate
        for tm in self.templates:
            t = np.asarray(tm.template_db, float)
            x = grid(tm.peak_hz)[: len(t)]
            t = t[: len(x)]
            tol = min(max(3 * tm.spread_cents, p.tol_cents[0]), p.tol_cents[1])
            cents = np.arange(-tol, tol + 1e-9, p.step_cents)
            self._cents.append(cents)
            self._hz.append(tm.peak_hz * 2 ** (cents[:, None] / 1200) * x[None, :])
            c = t - t.mean()
            self._t.append(c / (np.linalg.norm(c) + 1e-9))
            self._top.append(t >= t.max() - 6.0)
            # ``sample``'s two bins for each candidate of each loudest point, on the detector's spectrum
            b = np.clip(self._hz[-1][:, self._top[-1]] / BIN_HZ, 0, N_FFT // 2 + 1 - 1.001).astype(int)
            self._reach.append([slice(lo, hi + 2) for lo, hi in zip(b.min(axis=0), b.max(axis=0), strict=True)])
        # The benchmark's look at every block's numbers (first frame, frame_stats, time), None: not kept.
        self.trace: list[tuple[int, list[tuple[np.ndarray, ...]], float]] | None = None
        self.reset()

    def reset(self) -> None:
        self._runs: list[_Run | None] = [None] * len(self.templates)
        self._quiet_until = -1  # no new report before this frame

    def scores(self, w: np.ndarray, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Template ``i`` against whitened frames ``w``: per frame the best correlation, its pitch (cents off the
        whistle's) and the template's loudest lines' mean level there (dB over the floor)."""
        v = sample(w, self._hz[i])  # frames x candidates x points
        v_c = v - v.mean(axis=2, keepdims=True)
        corr = (v_c @ self._t[i]) / (np.linalg.norm(v_c, axis=2) + 1e-9)
        best = corr.argmax(axis=1)
        rows = np.arange(len(w))
        return corr[rows, best], self._cents[i][best], v[rows, best][:, self._top[i]].mean(axis=1)

    def consume(self, first: int, power: np.ndarray, floor: np.ndarray | None, now: float) -> list[Detection]:
        """Decide on a block's frames (``first`` its first frame's index); ``now`` the stream time at its end."""
        if floor is None or not self.templates:
            return []
        stats = self.frame_stats(power, floor, lazy=self.trace is None)
        if self.trace is not None:
            self.trace.append((first, stats, now))
        return self.decide(first, stats, now)

    def frame_stats(self, power: np.ndarray, floor: np.ndarray, lazy: bool = False) -> list[tuple[np.ndarray, ...]]:
        """Per template, per frame: correlation, pitch (cents off the whistle's), lines over the floor (dB), and
        the fundamental's level as the profile's gate reads it (session 4's: its +-2 bins, dB).

        ``lazy``: a template with no run under way whose loudest lines cannot reach ``min_snr_db`` in any frame
        (``_snr_bound``, less 0.01 dB for rounding) gets no correlation (-inf: ``decide`` skips it, as it would
        have); its other numbers are not read.  Most blocks are such, and the correlations were most of a
        calibrated detector's time (the real A-D profile: 209 -> 334 times real time from 48 kHz, session 21)."""
        w = whitened_db(power, floor)
        out = []
        for i, tm in enumerate(self.templates):
            if lazy and self._runs[i] is None and not (self._snr_bound(w, i) >= self.params.min_snr_db - 0.01).any():
                none = np.full(len(w), -np.inf)
                out.append((none, np.zeros(len(w)), none, none))
                continue
            corr, cents, snr = self.scores(w, i)
            k = round(tm.peak_hz / BIN_HZ)
            line = 10 * np.log10(power[:, max(0, k - 2) : k + 3].sum(axis=1) + EPS)
            out.append((corr, cents, snr, line))
        return out

    def _snr_bound(self, w: np.ndarray, i: int) -> np.ndarray:
        """Per frame, an upper bound of ``scores``' third number for template ``i``, whatever its best pitch: each
        loudest line at its pitch candidates (``sample``'s two bins each) is at most the loudest bin it reads, so
        their mean is at most the mean of those maxima."""
        reach = self._reach[i]
        bound = w[:, reach[0]].max(axis=1).astype(np.float64)
        for r in reach[1:]:
            bound += w[:, r].max(axis=1)
        return bound / len(reach)

    def decide(self, first: int, stats: list[tuple[np.ndarray, ...]], now: float) -> list[Detection]:
        """The runs of matching frames, and a report for each run that has lasted (``frame_stats``' numbers)."""
        p = self.params
        out: list[Detection] = []
        for i, (corr, cents, snr, line) in enumerate(stats):
            ok = (corr >= p.min_corr) & (snr >= p.min_snr_db)
            if self._runs[i] is None and not ok.any():
                continue  # most blocks: nothing matches and nothing is under way
            for n in range(len(corr)):
                j = first + n
                run = self._runs[i]
                if ok[n]:
                    if run is None or j - run.last > p.max_gap + 1:
                        run = self._runs[i] = _Run(j, j)
                    run.last = j
                    run.frames += 1
                    if run.emitted:
                        continue
                    run.scores.append(float(corr[n]))
                    run.shifts.append(float(cents[n]))
                    run.levels.append(float(line[n]))
                    run.snrs.append(float(snr[n]))
                    if (run.frames >= p.min_frames and run.start >= self._quiet_until
                            and max(run.levels) >= p.min_level_db and not self._struck(run.levels)):
                        run.emitted = True
                        out.append(self._detection(i, run, now))
                elif run is not None and j - run.last > p.max_gap:
                    if run.emitted:
                        self._quiet_until = run.last + 1 + round(p.refractory_s * RATE / HOP)
                    self._runs[i] = None
        return out

    def _struck(self, levels: list[float]) -> bool:
        """Loudest in its first frames and falling since: a struck glass or plate that rings at the whistle's
        pitch, not a blow (which holds).  Not yet reported; a blow's attack that overshoots settles and is heard."""
        d = self.params.struck_db
        if not d:
            return False
        top, slope, late = decay_slopes(np.asarray(levels))
        return top < 3 and slope <= -d and late <= -d

    def _detection(self, i: int, run: _Run, now: float) -> Detection:
        tm = self.templates[i]
        hz = tm.peak_hz * 2 ** (float(np.median(run.shifts)) / 1200)
        score = float(np.mean(run.scores))
        # Another whistle matching in the same frames: the table is asked who blew.
        rival = any(r is not None and r.frames >= self.params.min_frames - 1 and k != i
                    for k, r in enumerate(self._runs))
        confidence = float(np.clip((score - self.params.min_corr) / (1 - self.params.min_corr), 0.5, 1.0))
        onset = (run.start * HOP + N_FFT / 2 - HOP / 2) / RATE
        offset = (run.last * HOP + N_FFT / 2 + HOP / 2) / RATE
        top, slope, late = decay_slopes(np.asarray(run.levels))
        features = {"peak_hz": hz, "spread_cents": float(np.std(run.shifts)), "level_db": max(run.levels),
                    "am_db": float(np.std(run.levels)), "known_corr": score, "known_min_corr": min(run.scores),
                    "known_snr": float(np.mean(run.snrs)), "known_top": top, "known_slope": slope,
                    "known_late": late, "known_frames": len(run.scores)}
        return Detection(now, onset, offset, hz, confidence, None if rival else tm.name,
                         None if rival else confidence, features)


def templates_of(signatures: Sequence[object], templates: Mapping[str, Sequence[float]]) -> list[Template]:
    """The matcher's templates: each signature with a stored template (others are left to the generic halves)."""
    out = []
    for s in signatures:
        t = templates.get(s.name)  # type: ignore[attr-defined]
        if t is not None and s.pitch_spread_cents <= MAX_SPREAD_CENTS:  # type: ignore[attr-defined]
            out.append(Template(s.name, s.peak_hz, s.pitch_spread_cents, tuple(t)))  # type: ignore[attr-defined]
    return out
