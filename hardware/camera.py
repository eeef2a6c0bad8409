"""Frame sources: a USB webcam (OpenCV), a Raspberry Pi camera (picamera2),
a still image or a video file, all with the same small interface.

A source's ``read()`` returns one BGR frame (numpy array) or raises
``SensorError`` when the device is gone; ``close()`` releases it.  Sources
never retry by themselves: the sensor that owns one (``hardware.dice.sensor``)
reports the loss, reopens with back-off and reports the return.

The backend is chosen like gpiozero's pin factories
(``hardware.sensor.choose_backend``): ``$BELLWETHER_CAMERA_BACKEND``, then
the camera profile's ``camera.backend``, then picamera2 when installed, then
OpenCV.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion.errors import SensorError

from .sensor import choose_backend

ENV = "BELLWETHER_CAMERA_BACKEND"
BACKENDS = ("picamera2", "opencv", "image", "video", "fake")  # "fake": a blank MemoryCamera (demo mode)


class FrameSource(Protocol):
    """What the dice sensor reads frames from."""

    description: str

    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...


class OpenCVCamera:
    """A USB webcam through ``cv2.VideoCapture``."""

    def __init__(self, device: int | str = 0, width: int = 640, height: int = 480) -> None:
        import cv2

        self._cv2 = cv2
        self.cap = cv2.VideoCapture(device)
        if not self.cap.isOpened():
            self.cap.release()
            raise SensorError(f"no camera at {device!r}")
        self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self.description = f"webcam {device!r} (OpenCV)"

    def read(self) -> np.ndarray:
        ok, frame = self.cap.read()
        if not ok or frame is None:
            raise SensorError(f"{self.description} stopped sending frames")
        return frame

    def close(self) -> None:
        self.cap.release()


class PiCamera:
    """A Raspberry Pi camera through picamera2 (imported only when chosen)."""

    def __init__(self, width: int = 640, height: int = 480) -> None:
        from picamera2 import Picamera2  # ImportError here makes choose_backend fall through

        try:
            self.cam = Picamera2()
            # picamera2's "RGB888" stores pixels as B, G, R: OpenCV's order (its "BGR888" is the reverse).
            config = self.cam.create_preview_configuration(main={"size": (width, height), "format": "RGB888"})
            self.cam.configure(config)
            self.cam.start()
        except (RuntimeError, IndexError) as e:  # picamera2 raises these when no camera is attached
            raise SensorError(f"Pi camera unavailable: {e}") from None
        self.description = "Raspberry Pi camera (picamera2)"

    def read(self) -> np.ndarray:
        try:
            return self.cam.capture_array("main")
        except RuntimeError as e:
            raise SensorError(f"Pi camera stopped: {e}") from None

    def close(self) -> None:
        self.cam.stop()
        self.cam.close()


class StillImage:
    """One photo (or a list of photos, in turn), as if a camera looked at it."""

    def __init__(self, paths: str | Path | Sequence[str | Path], loop: bool = True) -> None:
        from companion.errors import RecordError

        from .image_file import read_image

        self.paths = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
        if not self.paths:
            raise SensorError("no image given")
        self.frames = []
        for p in self.paths:
            try:
                self.frames.append(read_image(p))
            except RecordError as e:
                raise SensorError(str(e)) from None
        self.loop = loop
        self.i = 0
        self.description = f"image {self.paths[0].name}" + (f" (+{len(self.paths) - 1})" if len(self.paths) > 1 else "")

    def read(self) -> np.ndarray:
        if self.i >= len(self.frames):
            if not self.loop:
                raise EndOfStream(self.description)
            self.i = 0
        frame = self.frames[self.i]
        self.i += 1
        return frame.copy()

    def close(self) -> None:
        self.frames = []


class EndOfStream(SensorError):
    """A file source has no more frames (not a device failure: nothing to retry)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"{what}: end of stream")


class VideoFile:
    """A recorded video, frame by frame (for tests and evaluation)."""

    def __init__(self, path: str | Path, loop: bool = False) -> None:
        import cv2

        self.path = Path(path)
        self.cap = cv2.VideoCapture(str(self.path))
        if not self.cap.isOpened():
            self.cap.release()
            raise SensorError(f"cannot open video {self.path}")
        self.loop = loop
        self._cv2 = cv2
        self.fps = float(self.cap.get(cv2.CAP_PROP_FPS)) or 30.0
        self.description = f"video {self.path.name}"

    def read(self) -> np.ndarray:
        ok, frame = self.cap.read()
        if not ok and self.loop:
            self.cap.set(self._cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self.cap.read()
        if not ok or frame is None:
            raise EndOfStream(self.description)
        return frame

    def close(self) -> None:
        self.cap.release()


class MemoryCamera:
    """Frames from memory; after the last one it keeps showing the last one.

    The ``fake`` backend is one of these over a blank grey table: the demo
    mode with no camera, where dice are entered on screen.  The pluggable test
    cameras in ``hardware.testing.camera`` build on it.
    """

    def __init__(self, frames: Sequence[np.ndarray], description: str = "fake camera", hold_last: bool = True) -> None:
        if not frames:
            raise SensorError("a fake camera needs at least one frame")
        self.frames = list(frames)
        self.i = 0
        self.hold_last = hold_last
        self.description = description
        self.closed = False

    @classmethod
    def blank(cls, width: int = 640, height: int = 480, grey: int = 160) -> MemoryCamera:
        return cls([np.full((height, width, 3), grey, np.uint8)], "blank fake camera")

    @property
    def exhausted(self) -> bool:
        return self.i >= len(self.frames)

    def read(self) -> np.ndarray:
        if self.closed:
            raise SensorError(f"{self.description} is closed")
        if self.i >= len(self.frames):
            if not self.hold_last:
                raise EndOfStream(self.description)
            return self.frames[-1].copy()
        frame = self.frames[self.i]
        self.i += 1
        return frame.copy()

    def close(self) -> None:
        self.closed = True


def backends(settings: dict[str, Any]) -> dict[str, Callable[[], FrameSource]]:
    """Factories for every backend from the profile's ``[camera]`` settings."""
    width = int(settings.get("width", 640))
    height = int(settings.get("height", 480))

    def fake() -> FrameSource:
        return MemoryCamera.blank(width, height)

    return {
        "picamera2": lambda: PiCamera(width, height),
        "opencv": lambda: OpenCVCamera(settings.get("device", 0), width, height),
        "image": lambda: StillImage(_need(settings, "path")),
        "video": lambda: VideoFile(_need(settings, "path"), loop=bool(settings.get("loop", False))),
        "fake": fake,
    }


def _need(settings: dict[str, Any], key: str) -> Any:
    if key not in settings:
        raise SensorError(f"camera backend needs camera.{key}")
    return settings[key]


def open_camera(settings: dict[str, Any] | None = None, config_file: object = "camera profile") -> tuple[str, FrameSource]:
    """Open the configured camera: (backend name, source).

    With no explicit choice, picamera2 is tried first (it is only installed on
    a Pi) and OpenCV second; an explicit choice that fails is an error.
    """
    settings = settings or {}
    return choose_backend(
        "camera",
        backends(settings),
        env=ENV,
        configured=settings.get("backend"),
        order=("picamera2", "opencv"),
        config_file=config_file,
    )


def frame_interval(fps: float) -> Callable[[], None]:
    """A pacer that sleeps so that a loop runs at most ``fps`` times a second."""
    period = 1.0 / fps if fps > 0 else 0.0
    last = [0.0]

    def wait() -> None:
        now = time.monotonic()
        delay = last[0] + period - now
        if delay > 0:
            time.sleep(delay)
        last[0] = max(now, last[0] + period)

    return wait
