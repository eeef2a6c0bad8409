"""Issue #15's untuned reference detector, for comparison only (never shipped).

The issue measured, on 23 minutes of real hall recordings the project never saw, "an untuned
40-line detector (share of the 2-4.5 kHz band >= 0.6 for three frames)": 56 of 72 blows at
precision 0.85.  Running the same rule over this benchmark's sources says how far the benchmark's
families resemble those recordings: where it scores far above or below that, the family is easier
or harder than the real hall.  Written from the issue's one line: 32 ms frames (512 samples, Hann,
no overlap), band 2000-4500 Hz, share = band power / all power above 100 Hz, three frames in a row at
>= 0.6 report one blow, and nothing more until a frame falls under 0.6.
"""

from __future__ import annotations

import numpy as np

from hardware.audio import RATE
from hardware.whistle.detector import Detection

FRAME = 512
BAND_HZ = (2000.0, 4500.0)
SHARE = 0.6
FRAMES = 3


class BandShareDetector:
    def __init__(self) -> None:
        freqs = np.fft.rfftfreq(FRAME, 1 / RATE)
        self._band = (freqs >= BAND_HZ[0]) & (freqs <= BAND_HZ[1])
        self._above = freqs >= 100.0  # room rumble and DC are not "elsewhere"
        self._freqs = freqs
        self._window = np.hanning(FRAME).astype(np.float32)
        self.reset()

    def reset(self) -> None:
        self._buf = np.zeros(0, np.float32)
        self._frames = 0  # frames consumed since the stream began
        self._run = 0  # consecutive frames at or over the share
        self._reported = False
        self.time = 0.0  # stream seconds fed (what hardware.whistle.evaluation reads)

    def process(self, block: np.ndarray) -> list[Detection]:
        self._buf = np.concatenate([self._buf, np.asarray(block, np.float32)])
        self.time += len(block) / RATE
        n = len(self._buf) // FRAME
        if n == 0:
            return []
        frames = self._buf[: n * FRAME].reshape(n, FRAME) * self._window
        self._buf = self._buf[n * FRAME :]
        power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
        band = power[:, self._band].sum(axis=1)
        share = band / np.maximum(power[:, self._above].sum(axis=1), 1e-20)
        out: list[Detection] = []
        for i in range(n):
            index = self._frames + i
            if share[i] < SHARE:
                self._run, self._reported = 0, False
                continue
            self._run += 1
            if self._run >= FRAMES and not self._reported:
                self._reported = True
                end = (index + 1) * FRAME / RATE
                peak = float(self._freqs[self._band][np.argmax(power[i, self._band])])
                out.append(Detection(end, end - FRAMES * FRAME / RATE, end, peak, float(share[i])))
        self._frames += n
        return out
