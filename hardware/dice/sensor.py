"""``DiceSensor``: camera frames in, ``roll`` events out.

A worker thread reads frames from a source (``hardware.camera``), waits for
the dice to settle (``settle.SettleDetector``), reads the top faces
(``reader.DiceReader``) and emits::

    Event("roll", {"die": "d6", "faces": [3, 5]}, source="camera", confidence=0.93)

Rolls are emitted only while the game waits for one (``request(DiceRequest)``,
from ``Prompt.dice``); a roll that settles while nobody asked is dropped, and
the dice lying there are never reported later.  When the camera fails the
sensor goes offline with the reason, reopens it with back-off (0.5 s doubling
to 8 s) and comes back online: the app keeps running throughout.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from companion.errors import SensorError
from companion.events import ROLL, Event, Source
from companion.game import DiceRequest

from ..camera import EndOfStream, FrameSource
from ..sensor import Sensor
from .model import DieReading
from .reader import PIP_DIE, DiceReader
from .settle import SettleDetector, SettleParams

log = logging.getLogger(__name__)


class DiceSensor(Sensor):
    name = "camera"

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        reader: DiceReader | None = None,
        out: queue.Queue[Any] | None = None,
        clock: Callable[[], float] = time.time,
        settle: SettleParams | None = None,
        fps: float = 15.0,
        retry: tuple[float, float] = (0.5, 8.0),
    ) -> None:
        super().__init__(out, clock)
        self.open_source = open_source
        self.reader = reader or DiceReader()
        self.settle = SettleDetector(settle or SettleParams(), self.reader.region)
        self.fps = fps
        self.retry = retry
        self.waiting: DiceRequest | None = None
        self.last_readings: list[DieReading] = []
        self.frames = 0
        self._source: FrameSource | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # -- what the app tells the sensor -------------------------------------
    def request(self, dice: DiceRequest | None) -> None:
        """The game's current dice request (``Prompt.dice``), or None: not waiting."""
        with self._lock:
            self.waiting = dice

    # -- the work ----------------------------------------------------------
    def process(self, frame: np.ndarray) -> Event | None:
        """Handle one frame (the worker calls this; tests may call it directly)."""
        self.frames += 1
        with self._lock:
            wanted = self.waiting
        die = wanted.die if wanted is not None else PIP_DIE
        readings = self.settle.update(frame, lambda f: self.reader.read(f, die))
        if readings is None:
            return None
        self.last_readings = readings
        if wanted is None:
            log.info("camera: a roll settled while no roll was expected; ignored")
            return None
        confidence = min(r.confidence for r in readings)
        if wanted.count and len(readings) != wanted.count:
            confidence *= 0.5  # a die hidden or an extra one: let the table confirm
        event = Event(
            ROLL,
            {"die": die, "faces": [r.face for r in readings]},
            time=self.clock(),
            source=Source.CAMERA,
            confidence=round(max(0.0, min(1.0, confidence)), 3),
        )
        self.emit(event)
        return event

    def _open(self) -> bool:
        try:
            self._source = self.open_source()
        except SensorError as e:
            self.set_status(False, str(e))
            return False
        self.set_status(True, self._source.description)
        return True

    def _close(self) -> None:
        if self._source is not None:
            try:
                self._source.close()
            except Exception:  # a dying device may fail to close; it is dropped anyway
                log.debug("camera close failed", exc_info=True)
            self._source = None

    def run(self) -> None:
        """The worker loop: until ``stop()`` or the end of a file source."""
        delay = self.retry[0]
        period = 1.0 / self.fps if self.fps > 0 else 0.0
        while not self._stop.is_set():
            if self._source is None:
                if not self._open():
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.retry[1])
                    continue
                delay = self.retry[0]
            started = time.monotonic()
            try:
                frame = self._source.read()
            except EndOfStream as e:
                self._close()
                self.set_status(False, str(e))
                return
            except SensorError as e:
                self._close()
                self.set_status(False, f"{e}; retrying")
                continue
            try:
                self.process(frame)
            except SensorError as e:  # e.g. a die that was never calibrated
                self.set_status(False, str(e))
                self._stop.wait(delay)
                continue
            except Exception as e:  # a bug or a malformed frame must not kill the sensor
                log.exception("dice reading failed")
                self.set_status(False, f"dice reading failed ({type(e).__name__}); retrying")
                self._stop.wait(delay)
                continue
            if not self.online and self._source is not None:
                self.set_status(True, self._source.description)
            if period:
                self._stop.wait(max(0.0, period - (time.monotonic() - started)))

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name="dice-camera", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._close()
        self.set_status(False, "stopped")

    def join(self, timeout: float | None = None) -> None:
        """Wait for the worker to end (file sources end by themselves)."""
        if self._thread is not None:
            self._thread.join(timeout)
