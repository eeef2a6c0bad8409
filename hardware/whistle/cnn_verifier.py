"""A second verifier for the cascade: a small CNN on the raw aligned patch (OpenCV ``dnn``, ONNX).

Same role as ``verifier.Verifier`` (a callable with a ``threshold``,
``shipped()``), but its input is the floor-normalised dB spectrum itself, not
hand features: the cascade's last ``HISTORY`` frames (8 x 16 ms = 128 ms),
cut ``SPAN`` bins either side of the candidate's centre (+-1.25 kHz, so pitch
does not matter), in three views stacked as channels (the centre's
neighbourhood, the same columns at twice and at half the frequency: a
whistle's or a toy's harmonics and a voice's fundamental line up with the
line they belong to), clipped to ``CLIP_DB`` and scaled.  Because it
``reads_patch``, ``CascadeDetector`` hands it ``cut(history, centre)`` instead
of ``patch_features``.

The network (``benchmarks/whistle_cnn_train.py``: three 3x3 convolutions,
global average and max pooling, one logit and a sigmoid; about 10k
parameters) is shipped as ``weights/whistle_cnn.onnx`` and run by
``cv2.dnn``, so the Pi needs nothing it does not already have; its threshold
(chosen on training negatives only) is in ``weights/whistle_cnn.json`` beside
it.  CI never trains.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from companion.errors import ConfigError

from .verifier import HISTORY

SPAN = 40  # bins either side of the centre: each view is HISTORY x 2*SPAN (8 x 80, +-1.25 kHz)
VIEWS = 3  # the patch at the centre, at twice its frequencies, at half (harmonics and subharmonics aligned)
CLIP_DB = (-10.0, 60.0)  # dB over the floor; 60 so a loud blow does not saturate the patch
SCALE_DB = 20.0
WEIGHTS = Path(__file__).resolve().parent / "weights" / "whistle_cnn.onnx"


def cut(hist: np.ndarray, centre: int, span: int = SPAN) -> np.ndarray:
    """VIEWS x HISTORY x 2*span, raw dB over the floor (0 past the spectrum's edges).

    View 0: bins centre-span .. centre+span-1.  View 1: at column o, the
    stronger of bins 2(centre+o) and 2(centre+o)+1, so a line's 2nd harmonic
    lies in the same column as the line (a whistle's or a toy's harmonics, a
    voice's comb twice as wide).  View 2: bin (centre+o)//2, the octave below
    (a toy's fundamental, a voice under its harmonic).  Shifting the centre by
    s shifts every view by s columns, which the training's augmentation uses.
    """
    h = np.asarray(hist, np.float32)
    n = h.shape[1]
    cols = centre + np.arange(-span, span)

    def at(idx: np.ndarray) -> np.ndarray:
        return np.where(((idx >= 0) & (idx < n))[None, :], h[:, np.clip(idx, 0, n - 1)], 0.0)

    return np.stack([at(cols), np.maximum(at(2 * cols), at(2 * cols + 1)), at(np.floor_divide(cols, 2))]).astype(np.float32)


def scaled(patch: np.ndarray) -> np.ndarray:
    """What the network reads: the dB patch clipped and scaled to about -0.5..3."""
    return (np.clip(patch, *CLIP_DB) / SCALE_DB).astype(np.float32)


def tuning_path(onnx: Path) -> Path:
    """The JSON beside the weights: the threshold chosen in training and what it was trained on."""
    return Path(onnx).with_suffix(".json")


class CnnVerifier:
    """``verifier(patch)`` is P(whistle) for ``cut(history, centre)``; ``reads_patch`` tells the cascade so."""

    reads_patch = True

    def __init__(self, path: Path = WEIGHTS, threshold: float | None = None) -> None:
        self.path = Path(path)
        try:
            self._net = cv2.dnn.readNetFromONNX(str(self.path))
            self.threshold = float(threshold) if threshold is not None else float(
                json.loads(tuning_path(self.path).read_text())["threshold"])
        except (cv2.error, OSError, ValueError, KeyError, TypeError) as e:
            raise ConfigError(self.path, "whistle CNN weights", "an .onnx from benchmarks/whistle_cnn_train.py", str(e)) from e

    @staticmethod
    def cut(hist: np.ndarray, centre: int) -> np.ndarray:
        return cut(hist, centre)

    def __call__(self, patch: np.ndarray) -> float:
        self._net.setInput(scaled(patch)[None])
        return float(self._net.forward().ravel()[0])

    def batch(self, patches: np.ndarray) -> np.ndarray:
        """P(whistle) for many patches at once (N x VIEWS x HISTORY x 2*SPAN): training and evaluation."""
        self._net.setInput(scaled(patches))
        return self._net.forward().ravel().astype(np.float64)

    _shipped: CnnVerifier | None = None

    @classmethod
    def shipped(cls) -> CnnVerifier:
        if cls._shipped is None:
            cls._shipped = cls(WEIGHTS)
        return cls._shipped


__all__ = ["HISTORY", "SPAN", "VIEWS", "CnnVerifier", "cut", "scaled"]
