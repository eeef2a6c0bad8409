"""What the microphone hears, for the Settings screen and the calibration wizard.

``WhistleSensor`` hands every audio block to its ``taps`` (callables) in its
worker thread.  ``Spectrum`` keeps a coarse power spectrum of the latest
blocks (a few dozen bands, cheap enough to run beside the detector on a Pi);
``BlockTap`` queues the blocks themselves for a wizard that needs the sound
while the sensor keeps listening (one device, one reader).
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from hardware.audio import RATE


class Spectrum:
    """A live spectrum: ``bands`` equal bands from 0 to ``rate/2``, in dBFS, smoothed over a few blocks."""

    def __init__(self, bands: int = 48, rate: int = RATE, smoothing: float = 0.5) -> None:
        self.bands = bands
        self.rate = rate
        self.smoothing = smoothing  # share of the previous value kept per block
        self.db = np.full(bands, -120.0)
        self.blocks = 0
        self._lock = threading.Lock()

    @property
    def band_width_hz(self) -> float:
        return self.rate / 2 / self.bands

    def __call__(self, block: np.ndarray) -> None:
        x = np.asarray(block, np.float64)
        if len(x) < 2:
            return
        power = np.abs(np.fft.rfft(x * np.hanning(len(x)))) ** 2 / (len(x) * 0.375 * len(x) / 4)
        edges = np.linspace(0, len(power), self.bands + 1).astype(int)
        sums = np.add.reduceat(power, edges[:-1])
        db = 10 * np.log10(sums + 1e-12)
        with self._lock:
            self.db = db if self.blocks == 0 else self.smoothing * self.db + (1 - self.smoothing) * db
            self.blocks += 1

    def snapshot(self) -> tuple[np.ndarray, np.ndarray]:
        """(band centre frequencies in Hz, level per band in dB)."""
        with self._lock:
            db = self.db.copy()
        centres = (np.arange(self.bands) + 0.5) * self.band_width_hz
        return centres, db

    def peak_hz(self) -> float:
        centres, db = self.snapshot()
        return float(centres[int(np.argmax(db))])


class BlockTap:
    """Blocks from a running sensor, for as long as someone reads them."""

    def __init__(self, rate: int = RATE, limit: int = 2000) -> None:
        self.rate = rate
        self._q: queue.Queue[np.ndarray] = queue.Queue(maxsize=limit)
        self.closed = False

    def __call__(self, block: np.ndarray) -> None:
        if not self.closed:
            with contextlib.suppress(queue.Full):  # nobody is reading: drop, never block the sensor
                self._q.put_nowait(np.array(block, np.float32, copy=True))

    def drain(self) -> None:
        while not self._q.empty():
            self._q.get_nowait()

    def blocks(self, seconds: float, stop: threading.Event | None = None) -> Iterator[np.ndarray]:
        """Blocks for ``seconds`` of sound (or until ``stop``); ends early if the sensor goes quiet for 2 s."""
        got = 0.0
        end = time.monotonic() + seconds + 5
        while got < seconds and time.monotonic() < end and not (stop is not None and stop.is_set()):
            try:
                block = self._q.get(timeout=2.0)
            except queue.Empty:
                return
            got += len(block) / self.rate
            yield block


def attach(sensor: Any, tap: Any) -> Any:
    """Add ``tap`` to a sensor's taps (a sensor without taps is left alone); returns the tap."""
    taps = getattr(sensor, "taps", None)
    if isinstance(taps, list) and tap not in taps:
        taps.append(tap)
    return tap


def detach(sensor: Any, tap: Any) -> None:
    taps = getattr(sensor, "taps", None)
    if isinstance(taps, list) and tap in taps:
        taps.remove(tap)
