"""The microphone sensor: audio source -> detector -> ``whistle`` events on the queue."""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from companion.events import WHISTLE, Event, Source

from ..audio import AudioSettings, AudioSource, open_source, run_source
from ..sensor import Sensor
from .detector import Detection, WhistleDetector

log = logging.getLogger(__name__)


# Session 23: a sound the detector took for a whistle but did not report (``take_doubts``). Not a game event: the app
# keeps the last one, and asks the table about it only where a whistle decides a ruling (ui/boards/fleeced.py).
DOUBT = "whistle-doubt"


def doubt_event(det: Detection, epoch_offset: float) -> Event:
    """The app's notice of a doubtful whistle (times in epoch seconds, as ``whistle_event``'s)."""
    return Event(
        DOUBT,
        {"peak_hz": round(det.peak_hz, 1), "onset": round(det.onset + epoch_offset, 3), "blower": det.blower},
        time=det.detected_at + epoch_offset,
        source=Source.MICROPHONE,
        confidence=round(det.confidence, 3),
    )


def whistle_event(det: Detection, epoch_offset: float) -> Event:
    """The companion event for a detection; stream seconds + ``epoch_offset`` = epoch seconds.

    ``onset``, ``offset`` and ``detected_at`` in the payload are epoch seconds
    too, so a game can compare them with the time of a dice roll.
    """
    confidence = det.confidence if det.blower_confidence is None else min(det.confidence, det.blower_confidence)
    return Event(
        WHISTLE,
        {
            "blower": det.blower,
            "peak_hz": round(det.peak_hz, 1),
            "onset": round(det.onset + epoch_offset, 3),
            "offset": round(det.offset + epoch_offset, 3),
            "detected_at": round(det.detected_at + epoch_offset, 3),
        },
        player=det.blower,
        time=det.detected_at + epoch_offset,
        source=Source.MICROPHONE,
        confidence=round(confidence, 3),
    )


class WhistleSensor(Sensor):
    """Listens in a worker thread; puts whistle Events and status changes on ``out``.

    Stream time becomes epoch time when the first block of each opening
    arrives: that block's end is "now".  A level meter (``level_db``, dBFS of
    the last block) is kept for ``bellwether whistle listen``.
    """

    name = "microphone"

    def __init__(
        self,
        source: AudioSource,
        detector: WhistleDetector | None = None,
        out: queue.Queue[Any] | None = None,
        clock: Callable[[], float] = time.time,
        backoff: tuple[float, float] = (0.5, 8.0),
    ) -> None:
        super().__init__(out, clock)
        self.source = source
        self.detector = detector or WhistleDetector()
        self.backoff = backoff
        self.level_db = -120.0
        self.detections: int = 0
        # Callables given every block in the worker thread (the live spectrum,
        # a calibration wizard; hardware/whistle/spectrum.py).  They must be quick.
        self.taps: list[Callable[[np.ndarray], None]] = []
        self._next_detector: WhistleDetector | None = None
        self._epoch_offset: float | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def from_config(
        cls, out: queue.Queue[Any] | None = None, settings: AudioSettings | None = None, profile: Any = None
    ) -> WhistleSensor:
        """The configured microphone and the calibrated (or default) detector."""
        from calibration.whistle import load_profile

        _, source = open_source(settings)
        return cls(source, (profile or load_profile()).detector(), out)

    # -- the worker -------------------------------------------------------------
    def _opened(self) -> None:
        self.detector.reset()
        self._epoch_offset = None

    def use_detector(self, detector: WhistleDetector) -> None:
        """Listen with a new detector (a fresh calibration) from the next block on."""
        self._next_detector = detector
        if not self.running:
            self._swap()

    def _swap(self) -> None:
        if self._next_detector is not None:
            self.detector, self._next_detector = self._next_detector, None
            self._epoch_offset = None  # the new detector's stream time starts again

    def _block(self, block: np.ndarray) -> None:
        self._swap()
        for tap in list(self.taps):
            try:
                tap(block)
            except Exception:  # a failing display must not stop the whistles
                log.exception("whistle sensor tap failed")
        detections = self.detector.process(block)
        if self._epoch_offset is None:
            self._epoch_offset = self.clock() - self.detector.time
        self.level_db = float(10 * np.log10(np.mean(block.astype(np.float64) ** 2) + 1e-12))
        for det in detections:
            self.detections += 1
            self.emit(whistle_event(det, self._epoch_offset))
        for det in self.detector.take_doubts():
            self.emit(doubt_event(det, self._epoch_offset))

    def run(self) -> None:
        """Listen until stopped or the recording ends (blocking; ``start`` runs it in a thread)."""
        run_source(self.source, self, self._block, self._stop, on_open=self._opened, backoff=self.backoff)

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name="whistle-sensor", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()
