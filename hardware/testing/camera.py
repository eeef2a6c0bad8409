"""Fake cameras for tests and the demo mode (the ``fake`` camera backend).

``FakeCamera`` plays a list of frames (looping on the last one, as a camera
looking at a still table would): the real ``hardware.camera.MemoryCamera``
that the demo mode uses, made unpluggable.  ``FakeCameraDevice`` is a camera that can be
unplugged and plugged back in from a test: while it is unplugged every read
and every reopen fails with ``SensorError``, exactly as a USB webcam pulled
out of the Pi does.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from companion.errors import SensorError
from hardware.camera import MemoryCamera


class FakeCamera(MemoryCamera):
    """Frames from memory that fail, as a webcam pulled out does, while their
    ``FakeCameraDevice`` is unplugged."""

    def __init__(self, frames: Sequence[np.ndarray], description: str = "fake camera", hold_last: bool = True) -> None:
        super().__init__(frames, description, hold_last)
        self.device: FakeCameraDevice | None = None

    def read(self) -> np.ndarray:
        if not self.closed and self.device is not None and not self.device.plugged:
            raise SensorError(f"{self.description} was unplugged")
        return super().read()


class FakeCameraDevice:
    """A pluggable fake camera: ``open()`` is the backend factory a sensor calls.

    ``unplug()`` makes the current source fail and every ``open()`` fail until
    ``plug()``; frames continue where they were, as the table has not changed.
    """

    def __init__(self, frames: Sequence[np.ndarray], hold_last: bool = True) -> None:
        self.frames = list(frames)
        self.hold_last = hold_last
        self.plugged = True
        self.opens = 0
        self._position = 0
        self._lock = threading.Lock()
        self._current: FakeCamera | None = None

    def open(self) -> FakeCamera:
        with self._lock:
            if not self.plugged:
                raise SensorError("fake camera: no such device")
            if self._current is not None:
                self._position = self._current.i
            cam = FakeCamera(self.frames, f"fake camera #{self.opens}", self.hold_last)
            cam.i = self._position
            cam.device = self
            self.opens += 1
            self._current = cam
            return cam

    def unplug(self) -> None:
        with self._lock:
            self.plugged = False

    def plug(self) -> None:
        with self._lock:
            self.plugged = True


# -- frame sequences made from real photos ------------------------------------


def _die_patches(photo: np.ndarray, boxes: Sequence[tuple[int, int, int, int]], grow: float = 1.9):
    """Square patches around each die box and the photo with the dice painted out."""
    import cv2

    h, w = photo.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    patches = []
    for x, y, bw, bh in boxes:
        cx, cy, half = x + bw / 2, y + bh / 2, grow * max(bw, bh) / 2
        x0, y0 = int(max(0, cx - half)), int(max(0, cy - half))
        x1, y1 = int(min(w, cx + half)), int(min(h, cy + half))
        patches.append(((x0, y0), photo[y0:y1, x0:x1].copy()))
        cv2.rectangle(mask, (x0, y0), (x1, y1), 255, -1)
    empty = cv2.inpaint(photo, mask, 5, cv2.INPAINT_TELEA)
    return patches, empty


def tumbling_frames(
    photo: np.ndarray, boxes: Sequence[tuple[int, int, int, int]], rng: np.random.Generator, frames: int = 12
) -> list[np.ndarray]:
    """Dice tumbling into the places they lie in ``photo``: each die's patch of
    the real photo slides in from a random offset, turning, slowing to a stop.

    The last frame returned is still moving; ``photo`` itself is the first
    settled frame.
    """
    import cv2

    patches, empty = _die_patches(photo, boxes)
    h, w = photo.shape[:2]
    starts = [(rng.uniform(-150, 150), rng.uniform(-120, 120), rng.uniform(90, 360)) for _ in patches]
    out = []
    for i in range(frames):
        t = (1.0 - i / frames) ** 1.5  # decelerating
        frame = empty.copy()
        for ((x0, y0), patch), (dx, dy, turn) in zip(patches, starts, strict=True):
            ph, pw = patch.shape[:2]
            m = cv2.getRotationMatrix2D((pw / 2, ph / 2), turn * t, 1.0)
            rotated = cv2.warpAffine(patch, m, (pw, ph), borderMode=cv2.BORDER_REFLECT)
            x = int(np.clip(x0 + dx * t, 0, w - pw))
            y = int(np.clip(y0 + dy * t, 0, h - ph))
            frame[y : y + ph, x : x + pw] = rotated
        out.append(cv2.GaussianBlur(frame, (0, 0), 1.0 + 2.0 * t))  # motion blur while fast
    return out


def hand_frames(base: np.ndarray, rng: np.random.Generator, frames: int = 10, stay: int = 0) -> list[np.ndarray]:
    """A hand (a skin-coloured blob with an arm) sweeping across ``base``;
    with ``stay`` it rests over the middle of the tray for that many frames
    (never quite still, as hands are not)."""
    import cv2

    h, w = base.shape[:2]
    skin = (int(rng.integers(120, 170)), int(rng.integers(150, 190)), int(rng.integers(200, 235)))  # BGR
    y = rng.uniform(0.3, 0.7) * h
    xs = list(np.linspace(-0.2 * w, 0.6 * w, frames // 2)) + [0.6 * w] * stay + list(np.linspace(0.6 * w, -0.2 * w, frames - frames // 2))
    out = []
    for i, x in enumerate(xs):
        frame = base.copy()
        jitter = rng.normal(0, 2.0, 2) if i > 0 else np.zeros(2)
        cx, cy = int(x + jitter[0]), int(y + jitter[1])
        cv2.rectangle(frame, (-10, cy - 35), (cx, cy + 35), tuple(int(v * 0.9) for v in skin), -1)
        cv2.ellipse(frame, (cx, cy), (85, 60), 0, 0, 360, skin, -1, cv2.LINE_AA)
        out.append(cv2.GaussianBlur(frame, (5, 5), 0))
    return out
