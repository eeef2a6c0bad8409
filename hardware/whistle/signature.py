"""Per-whistle signatures and attribution: whose whistle was that?

Calibration hears each player's whistle a few times and keeps, per whistle,
the mean and spread of what the detector measured on each blow:

- ``peak_hz``: the fundamental (the strongest separator: two whistles of the
  same model still differ by a few per cent, different models by much more);
- ``spread_cents``: how much the pitch moves within a blow (a pea's trill);
- ``h2_db``: the second harmonic against the fundamental (toys are rich in
  harmonics, thin whistles are not);
- ``am_db``: how much the loudness moves within a blow.

A blow is attributed to the nearest signature (a distance in units of each
feature's spread) only when that one is close enough and clearly nearer than
the runner-up; otherwise it stays unattributed and the game asks the table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

# Spreads are never taken as smaller than these: three calibration blows
# understate how differently a nervous player blows in the middle of a game.
MIN_PITCH_CENTS = 30.0
FEATURE_SCALES = {"spread_cents": 15.0, "h2_db": 6.0, "am_db": 3.0}
FEATURE_WEIGHTS = {"spread_cents": 0.3, "h2_db": 0.3, "am_db": 0.2}  # pitch weighs 1
# A calibration blow this far in pitch from the blows' median is not the whistle's pitch: a sub-harmonic or a noise
# the detector reported, or a blow caught mid-glide.  A whistle's own blows lie within 10-80 cents of each other (its
# blow-to-blow spread), two whistles of a table a tone (200 cents) or more apart; kept, one such blow made a
# signature's spread hundreds of cents wide, over its neighbours' pitches, and every blow near them was left to the
# table (attribution benchmark, seen seed 6: a 3.2 kHz whistle's blow heard at 1.06 kHz, 36 of 99 blows attributed).
# Session 34, judged with CascadeParams.body_db (passed, docs/whistle.md); inf: off (every blow kept).  A pea whistle's
# blows are read at either end of its swing, up to 650 cents apart, so its odd blow is left out too: its signature then
# covers one end (measured since: no loss on a table of peas, docs/whistle.md, "After the verdict").
OUTLIER_CENTS = 300.0
# A signature's pitch is known to within at least this many times its whistle's own pitch spread within a blow
# (``spread_cents``): a pea whistle's trill swings its pitch 100-150 cents about its middle, and however a blow is read its
# pitch lands within about that of the signature's, where a steady whistle's blows land within 10-30 cents.  Below
# MIN_PITCH_CENTS (a steady whistle's spread within a blow is 5-30 cents) it changes nothing.  Session 35 (seen seeds:
# the trilled table's pea blows left to the table were a median 150 cents from their signature, most of them learnt
# from one heard blow, so a pitch spread of 0).  Judged on attribution seeds 1600-1799: passed (trilled table 86.06 ->
# 91.35 %, robot table 99.80 -> 99.81 %, none wrong; docs/whistle.md).  0: off.
TRILL_TOLERANCE = 1.0


def agreeing(peaks: Sequence[float]) -> list[int]:
    """The blows (indices) whose pitch lies within ``OUTLIER_CENTS`` of the blows' median: all of them unless the
    outliers are fewer than the rest (with two blows, or three far apart, nobody can say which is the whistle)."""
    cents = 1200 * np.log2(np.asarray(peaks, float) / float(np.median(peaks)))
    keep = [i for i, c in enumerate(cents) if abs(c) <= OUTLIER_CENTS]
    return keep if len(keep) > len(peaks) - len(keep) else list(range(len(peaks)))


@dataclass(frozen=True)
class Signature:
    name: str
    peak_hz: float
    pitch_spread_cents: float  # blow-to-blow spread of peak_hz
    spread_cents: float = 0.0
    h2_db: float = -40.0
    am_db: float = 1.0
    blows: int = 0

    @classmethod
    def learn(cls, name: str, blows: Sequence[Mapping[str, float]]) -> Signature:
        """A signature from the detector's features of a few blows, a blow at another pitch than the rest left out
        (``agreeing``)."""
        if not blows:
            raise ValueError(f"no blows to learn {name!r}'s whistle from")
        blows = [blows[i] for i in agreeing([b["peak_hz"] for b in blows])]
        peaks = np.array([b["peak_hz"] for b in blows])
        centre = float(np.exp(np.mean(np.log(peaks))))
        cents = 1200 * np.log2(peaks / centre)
        return cls(
            name=name,
            peak_hz=centre,
            pitch_spread_cents=float(np.std(cents)),
            spread_cents=float(np.mean([b.get("spread_cents", 0.0) for b in blows])),
            h2_db=float(np.mean([b.get("h2_db", -40.0) for b in blows])),
            am_db=float(np.mean([b.get("am_db", 1.0) for b in blows])),
            blows=len(blows),
        )

    def distance(self, features: Mapping[str, float]) -> float:
        """How far a blow is from this whistle, in spreads (about: standard deviations)."""
        pitch = 1200 * math.log2(max(features["peak_hz"], 1.0) / self.peak_hz)
        d2 = (pitch / max(self.pitch_spread_cents, MIN_PITCH_CENTS, TRILL_TOLERANCE * self.spread_cents)) ** 2
        for key, scale in FEATURE_SCALES.items():
            if key in features:
                d2 += FEATURE_WEIGHTS[key] * ((features[key] - getattr(self, key)) / scale) ** 2
        return math.sqrt(d2)


class Attributor:
    """Nearest signature when the margin is clear, else nobody.

    ``max_distance``: beyond this the blow matches no known whistle (a guest's,
    or one from the next table).  ``min_margin``: the runner-up must be at
    least this much farther away.  The confidence grows with the margin.
    """

    def __init__(self, signatures: Iterable[Signature], max_distance: float = 4.0, min_margin: float = 2.0) -> None:
        self.signatures = list(signatures)
        self.max_distance = max_distance
        self.min_margin = min_margin

    def __call__(self, features: Mapping[str, float]) -> tuple[str | None, float | None]:
        if not self.signatures:
            return None, None
        dists = sorted((s.distance(features), s.name) for s in self.signatures)
        d1, name = dists[0]
        # With one whistle known, the "runner-up" is the edge of the match.
        d2 = dists[1][0] if len(dists) > 1 else self.max_distance + self.min_margin
        margin = min(d2 - d1, self.max_distance + self.min_margin - d1)
        if d1 > self.max_distance or margin < self.min_margin:
            return None, None
        confidence = 1.0 - 0.5 * math.exp(-(margin - self.min_margin) / 2.0)
        return name, round(confidence, 3)
