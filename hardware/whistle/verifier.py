"""The cascade's second stage: is this candidate a whistle? (numpy inference only)

Input: the last ``HISTORY`` STFT frames (8 x 16 ms = 128 ms; fewer for weights
trained on a shorter patch, ``Verifier.history``) of the spectrum in dB over
the per-bin noise floor, and the candidate's centre bin.  The
patch is cut around the centre (+-1 kHz), so the pitch of the whistle does
not matter, only its shape: a whistle is a steady or trilled line with
little else over the floor; a baby, a rooster, a dog or a vowel glides and
brings harmonics and a voice below.  ``patch_features`` turns the patch into
a short vector; a one-hidden-layer network (weights in
``weights/whistle_verifier.npz``, trained by ``benchmarks/whistle_train.py``)
gives the probability.  CI never trains; the Pi needs numpy only.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import ClassVar

import numpy as np

from companion.errors import ConfigError

from .detector import _max, _sum

HISTORY = 8  # frames the verifier sees (128 ms): the default, and what weights without a ``history`` were trained on
SPAN = 32  # bins either side of the centre in the aligned patch (+-1 kHz)
WINDOW = 24  # bins either side where the line itself is looked for (+-750 Hz)
LOW_BINS = 32  # below 1 kHz
HIGH_BIN = 176  # above 5.5 kHz
WEIGHTS = Path(__file__).resolve().parent / "weights" / "whistle_verifier.npz"
# The combined detector's (combined.py): trained by the session9 recipe (benchmarks/whistle_train.py
# --recipe session9: trills, short quiet and toy blows made from real blows), which passed its rule on
# held-out seed 4 for the combined detector; the cascade alone keeps WEIGHTS (with the session9 weights it
# missed two clean real r2k blows, docs/whistle.md).
COMBINED_WEIGHTS = WEIGHTS.with_name("whistle_verifier_combined.npz")
# Session 15: the same recipe on a 4-frame patch (``whistle_train.py --recipe session9 --history 4``), so the cascade
# half reports sooner; selectable (detector kind "combined-short"), the default only if it passed its seed-16 rule
# (docs/whistle.md, session 15).
SHORT_COMBINED_WEIGHTS = WEIGHTS.with_name("whistle_verifier_combined_h4.npz")
GROUP, N_GROUPS = 5, 13  # the coarse patch: 13 cells of 5 bins across the +-1 kHz


def n_features(history: int = HISTORY) -> int:
    """The length of ``patch_features`` of a ``history``-frame patch."""
    return 2 * (2 * SPAN + 1) + 2 * history + history * N_GROUPS + 15 + (history - 1) + history + 3 + 2 + 2


N_FEATURES = n_features(HISTORY)
MIN_HISTORY = 3  # the fewest frames a patch may have (a slope and a steadiness need two frame pairs)


_T = np.arange(HISTORY) - (HISTORY - 1) / 2  # frame times about the middle, for the pitch's slope
_TT = float(_T @ _T)
_LINE = np.arange(-2, 3)
_OFFSETS = (np.arange(2 * WINDOW + 1) - WINDOW) / WINDOW  # the line's offset from the centre for each argmax in w
_LINE_BINS: dict[int, np.ndarray] = {}  # per spectrum length: for each centre, the 5 bins at 2x, 1/2 and 3/2 of it


def _line_bins(n_bins: int) -> np.ndarray:
    """For every centre c of an ``n_bins`` spectrum, the bins of its lines at 2c, c // 2 and 3c // 2 (each kept 2 bins
    inside the spectrum) +- 2, as (n_bins, 3, 5)."""
    table = _LINE_BINS.get(n_bins)
    if table is None:
        c = np.arange(n_bins)
        ks = np.stack([2 * c, c // 2, 3 * c // 2], axis=1)
        table = _LINE_BINS[n_bins] = np.minimum(np.maximum(ks, 2), n_bins - 3)[:, :, None] + _LINE
    return table


def _sum8(x: list[float]) -> float:
    """The sum of 8 float64s as numpy sums a contiguous 8-element run (its pairwise unrolling: 8 partial sums,
    then pairs of pairs); ``test_patch_features_are_the_plain_formulas_bit_for_bit`` holds it to numpy's."""
    return ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]))


def patch_features(hist: np.ndarray, centre: int) -> np.ndarray:
    """Pitch-aligned, floor-normalised features of the last frames around ``centre`` (float32).

    Written for few numpy calls (it runs on every verifier attempt: a fifth of the combined detector's time),
    and bit for bit what the plain version gave (session 14; the verifier's weights are trained on these):
    ``x.sum(axis) / n`` is ``x.mean(axis)`` (numpy's mean is the same sum, divided; float32 divided in float64
    and rounded to float32 is the float32 quotient), the same for the std, the norm and the median (the middle
    of an odd count), and zeros for np.pad.  Session 18 (each the same numbers, tested against the plain
    version): the patch copied out whole where it lies inside the spectrum (the zeros and the copy gave those
    bytes); the offsets looked up per argmax (the same float64 quotient); the offsets' std of an 8-frame patch
    in Python floats (numpy's own pairwise order for 8 values, ``_sum8``; ``math.sqrt`` and numpy's are both the
    correctly rounded root); the three lines' bins from a table per centre (the same clipped bins), gathered from
    the transposed patch, so that each line's 8 frame maxima are already a contiguous row to sum; the window's
    column means taken from the patch's (the same column sums: row by row, in order); the output cast to float32
    by the concatenation itself (the same cast as ``astype``)."""
    n, n_bins = hist.shape
    p = np.minimum(np.maximum(hist, -10.0), 40.0) / 10.0
    if SPAN <= centre < n_bins - SPAN:
        a = p[:, centre - SPAN : centre + SPAN + 1].copy()
    else:  # the patch centre +-SPAN, zeros beyond the spectrum (what np.pad gave)
        a = np.zeros((n, 2 * SPAN + 1), p.dtype)
        lo, hi = max(0, centre - SPAN), min(n_bins, centre + SPAN + 1)
        a[:, lo - centre + SPAN : hi - centre + SPAN] = p[:, lo:hi]
    w = a[:, SPAN - WINDOW : SPAN + WINDOW + 1]
    offsets = _OFFSETS[w.argmax(axis=1)]
    if n == HISTORY:
        slope = float(offsets.dot(_T) / _TT)  # the dot routine ``@`` calls for two vectors
        o = offsets.tolist()
        mean = _sum8(o) / n
        offsets_std = math.sqrt(_sum8([(v - mean) * (v - mean) for v in o]) / n)
    else:
        t = np.arange(n) - (n - 1) / 2
        slope = float(offsets @ t / (t @ t))
        d = offsets - offsets.sum() / n
        offsets_std = float(np.sqrt((d * d).sum() / n))
    # The strongest of 5 bins at 2x, 1/2 and 3/2 the centre, frame by frame, then each one's mean over frames
    # (each row contiguous, as the 1-D mean summed it).
    if 0 <= centre < n_bins and n_bins >= 5:
        at = _line_bins(n_bins)[centre]
    else:
        at = np.array([min(max(b, 2), n_bins - 3) for b in (2 * centre, centre // 2, 3 * centre // 2)])[:, None] + _LINE
    lines = _sum(_max(p.T[at], 1), 1) / n
    coarse = _sum(a[:, : GROUP * N_GROUPS].reshape(n, N_GROUPS, GROUP), 2) / GROUP  # time x frequency, 5 bins a cell
    wm = _sum(w, 1) / w.shape[1]
    mean = _sum(a, 0) / n
    row = mean[SPAN - WINDOW : SPAN + WINDOW + 1] - _sum(w, None) / w.size  # w's columns are a's: the same sums of 8
    # A voice's harmonics: the row's autocorrelation at lags 2-16 over its energy.  np.correlate makes each
    # lag's sum with the same dot routine over the same elements as ``row[:-lag] @ row[lag:]`` did (bit for
    # bit on 20,000 random rows), in one call rather than 15.
    auto = np.correlate(row, row, "full")[len(row) - 1 :]
    comb = auto[2:17] / (auto[0] + 1e-6)
    wc = w - wm[:, None]
    norms = np.sqrt(_sum(wc * wc, 1))  # np.linalg.norm's own formula, without its checks
    steady = _sum(wc[1:] * wc[:-1], 1) / (norms[1:] * norms[:-1] + 1e-6)
    median = w.copy()  # np.partition's own copy, without its wrapper
    median.partition(WINDOW, axis=1)
    peaky = _max(w, 1) - median[:, WINDOW]  # the median of 2 * WINDOW + 1 bins
    return np.concatenate([
        mean, _max(a, 0), offsets, wm, coarse.ravel(), comb, steady, peaky,
        [*lines.tolist(),  # the float32 means as Python floats, as float() of each gave
         float(_sum(p[:, :LOW_BINS], None) / (n * LOW_BINS)), float(_sum(p[:, HIGH_BIN:], None) / (n * (n_bins - HIGH_BIN))),
         slope, offsets_std],
    ], dtype=np.float32)


class Verifier:
    """A one-hidden-layer network over standardised ``patch_features``: ``verifier(x)`` is P(whistle).

    ``history`` is the patch's length in frames, a property of the weights (session 15: the cascade asks a
    verifier for a patch of its own length, so a shorter patch reports a blow sooner); saved with them, and
    weights saved before it existed load as ``HISTORY`` (8) frames."""

    def __init__(self, mean: np.ndarray, std: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
                 b2: float, meta: str = "", threshold: float = 0.5, strict_threshold: float | None = None,
                 history: int = HISTORY) -> None:
        self.mean, self.std = np.asarray(mean, np.float32), np.asarray(std, np.float32)
        self.w1, self.b1 = np.asarray(w1, np.float32), np.asarray(b1, np.float32)
        self.w2, self.b2 = np.asarray(w2, np.float32), float(b2)
        self.meta = meta
        self.threshold = float(threshold)  # chosen in training (on training data only): see whistle_train.py
        # Stricter, for the combined detector (combined.py), where the cascade only adds to session 4's detector.
        self.strict_threshold = float(threshold if strict_threshold is None else strict_threshold)
        self.history = int(history)
        if not MIN_HISTORY <= self.history <= HISTORY:
            raise ValueError(f"a patch of {self.history} frames: the cascade keeps {MIN_HISTORY} to {HISTORY}")
        n = n_features(self.history)
        if self.w1.shape[0] != n or self.mean.shape != (n,):
            raise ValueError(f"verifier weights expect {self.w1.shape[0]} features, a {self.history}-frame patch makes {n}")

    def __call__(self, x: np.ndarray) -> float:
        h = np.tanh(((x - self.mean) / self.std) @ self.w1 + self.b1)
        return float(1.0 / (1.0 + np.exp(-(h @ self.w2 + self.b2))))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        # An 8-frame verifier is saved as before (no ``history``): the shipped weights rebuild byte for byte.
        extra = {} if self.history == HISTORY else {"history": np.int32(self.history)}
        np.savez_compressed(path, mean=self.mean, std=self.std, w1=self.w1, b1=self.b1, w2=self.w2,
                            b2=np.float32(self.b2), meta=np.array(self.meta), threshold=np.float32(self.threshold),
                            strict_threshold=np.float32(self.strict_threshold), **extra)

    @classmethod
    def load(cls, path: Path) -> Verifier:
        try:
            with np.load(path) as z:
                strict = float(z["strict_threshold"]) if "strict_threshold" in z.files else None
                history = int(z["history"]) if "history" in z.files else HISTORY
                return cls(z["mean"], z["std"], z["w1"], z["b1"], z["w2"], float(z["b2"]), str(z["meta"]), float(z["threshold"]),
                           strict, history)
        except (OSError, KeyError, ValueError) as e:
            raise ConfigError(path, "verifier weights", "an .npz from benchmarks/whistle_train.py", str(e)) from e

    _loaded: ClassVar[dict[Path, Verifier]] = {}  # one load per weights file

    @classmethod
    def _cached(cls, path: Path) -> Verifier:
        if path not in cls._loaded:
            cls._loaded[path] = cls.load(path)
        return cls._loaded[path]

    @classmethod
    def shipped(cls) -> Verifier:
        """The cascade's verifier (``WEIGHTS``)."""
        return cls._cached(WEIGHTS)

    @classmethod
    def combined(cls) -> Verifier:
        """The combined detector's verifier (``COMBINED_WEIGHTS``)."""
        return cls._cached(COMBINED_WEIGHTS)

    @classmethod
    def combined_short(cls) -> Verifier:
        """The combined detector's verifier on a 4-frame patch (``SHORT_COMBINED_WEIGHTS``, session 15)."""
        return cls._cached(SHORT_COMBINED_WEIGHTS)
