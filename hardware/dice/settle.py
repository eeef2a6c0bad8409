"""When has a roll come to rest, and was it reported already?

Smart-dice users complain of two faults: a roll reported while the dice still
tumble, and the same lying dice reported twice.  ``SettleDetector`` avoids both:

- *motion*: consecutive frames are compared at low resolution; while enough
  pixels change (dice tumbling, a hand reaching in) nothing is read;
- *still*: only after ``still_frames`` quiet frames are the dice read, and a
  roll counts only once ``stable_reads`` reads in a row agree;
- *hand*: a still frame that differs from the last settled scene by one
  region far larger than a die (a hand resting in the tray) is not read,
  unless it stays so long that it must be the new scene;
- *once*: after a report the detector is disarmed until the scene moves
  again; a settled scene that matches the last report (same faces at the
  same places: a hand passed over the tray, the light flickered) is not
  reported again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .model import Box, DieReading


@dataclass(frozen=True)
class SettleParams:
    width: int = 160  # frames are compared at this width
    pixel_change: int = 20  # levels (any colour channel) by which a pixel must change to count as moving
    moving_share: float = 0.002  # share of moving pixels that makes a frame "in motion"
    still_frames: int = 6  # quiet frames before the dice are read (0.4 s at 15 fps)
    stable_reads: int = 2  # identical reads in a row make a roll
    same_place: float = 0.5  # a die within this share of its size of the last report's is the same die
    big_change: float = 0.04  # a still change larger than this share of the view is a hand, not dice
    accept_after: int = 45  # ... unless it stays this many frames (a moved tray, a new light)


def same_dice(a: Sequence[DieReading], b: Sequence[DieReading], tolerance: float = 0.5) -> bool:
    """The same faces lying at the same places (each die within tolerance x its size)."""
    if len(a) != len(b):
        return False
    left = list(b)
    for r in a:
        size = max(r.side, 1)
        match = next(
            (
                o
                for o in left
                if o.face == r.face
                and abs(o.centre[0] - r.centre[0]) <= tolerance * size
                and abs(o.centre[1] - r.centre[1]) <= tolerance * size
            ),
            None,
        )
        if match is None:
            return False
        left.remove(match)
    return True


class SettleDetector:
    """Feed it every frame; it returns a roll (the readings) once per settled roll."""

    def __init__(self, params: SettleParams = SettleParams(), region: Box | None = None) -> None:
        self.p = params
        self.region = region
        self._previous: np.ndarray | None = None
        self._quiet = 0
        self._armed = True  # a roll may be reported (nothing reported since the last motion)
        self._candidate: list[DieReading] | None = None
        self._agree = 0
        self.last_report: list[DieReading] | None = None
        self.motion = 0.0  # share of moving pixels in the last frame (for previews and tests)
        self.hand = False  # something large and foreign is in view
        self._scene: np.ndarray | None = None  # the last settled scene
        self._blocked = 0

    @property
    def moving(self) -> bool:
        return self._quiet == 0

    def _small(self, frame: np.ndarray) -> np.ndarray:
        if self.region is not None:
            x, y, w, h = self.region
            frame = frame[y : y + h, x : x + w]
        # Colour, not grey: a hand on a wooden table differs in hue more than in brightness.
        h, w = frame.shape[:2]
        small = cv2.resize(frame, (self.p.width, max(1, h * self.p.width // w)), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (3, 3), 0)

    def _changed(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        diff = cv2.absdiff(a, b)
        if diff.ndim == 3:
            diff = diff.max(axis=2)
        return diff > self.p.pixel_change

    def _big_change(self, small: np.ndarray) -> bool:
        """Does one region, much larger than a die, differ from the last settled scene?"""
        if self._scene is None or self._scene.shape != small.shape:
            return False
        changed = self._changed(small, self._scene).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        biggest = int(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0
        return biggest > self.p.big_change * changed.size

    def update(self, frame: np.ndarray, read: Callable[[np.ndarray], list[DieReading]]) -> list[DieReading] | None:
        """Take one frame; return the readings of a newly settled roll, else None."""
        small = self._small(frame)
        if self._previous is None or self._previous.shape != small.shape:
            moving = True
            self.motion = 1.0
        else:
            changed = self._changed(small, self._previous)
            self.motion = float(np.count_nonzero(changed)) / changed.size
            moving = self.motion > self.p.moving_share
        self._previous = small
        if moving:
            self._quiet = 0
            self._armed = True
            self._candidate, self._agree = None, 0
            return None
        self._quiet += 1
        if not self._armed or self._quiet < self.p.still_frames:
            return None
        self.hand = self._big_change(small)
        if self.hand:
            self._blocked += 1
            if self._blocked < self.p.accept_after:
                return None
        self._blocked = 0
        self._scene = small
        readings = read(frame)
        if not readings:
            self._candidate, self._agree = None, 0
            return None
        if self._candidate is not None and same_dice(readings, self._candidate, self.p.same_place):
            self._agree += 1
        else:
            self._candidate, self._agree = readings, 1
        if self._agree < self.p.stable_reads:
            return None
        self._armed = False
        self._candidate, self._agree = None, 0
        if self.last_report is not None and same_dice(readings, self.last_report, self.p.same_place):
            return None  # the same lying dice, seen again after a hand or a flicker
        self.last_report = readings
        return readings
