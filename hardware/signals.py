"""Generated sounds the app itself plays through its sources.

The ``memory`` audio backend (``hardware.audio.demo_signal``, the demo mode
with no microphone) is a quiet room with a thin whistle tone in it; these are
the generators it is made of.  They sit below ``hardware.audio`` and
``hardware.testing.audio`` and import neither, so the device module never
depends on the package's test backends; ``hardware.testing.audio`` builds its
richer test sounds (trills, toy whistles, laughter, music) on top of them.
All signals are float32 mono in -1..1 at ``RATE`` unless a rate is given.
"""

from __future__ import annotations

import numpy as np

RATE = 16_000  # the rate every audio source delivers (hardware.audio.RATE)


def sample_times(duration: float, rate: int) -> np.ndarray:
    """The times in seconds of ``duration`` seconds of samples."""
    return np.arange(round(duration * rate)) / rate


def envelope(n: int, rate: int, attack: float = 0.01, release: float = 0.02) -> np.ndarray:
    """A blow's loudness: quick attack and release, so it does not click."""
    env = np.ones(n)
    a, r = max(1, round(attack * rate)), max(1, round(release * rate))
    env[:a] = np.linspace(0, 1, a)[: min(a, n)]
    env[-r:] *= np.linspace(1, 0, r)[-min(r, n) :]
    return env


def tone(freq: float, duration: float, amp: float = 0.3, rate: int = RATE) -> np.ndarray:
    """A thin pure whistle tone."""
    t = sample_times(duration, rate)
    return (amp * np.sin(2 * np.pi * freq * t) * envelope(len(t), rate)).astype(np.float32)


def noise(duration: float, amp: float = 0.01, seed: int = 0, rate: int = RATE) -> np.ndarray:
    """White room noise."""
    return (amp * np.random.default_rng(seed).standard_normal(round(duration * rate))).astype(np.float32)


def place(background: np.ndarray, sound: np.ndarray, at_s: float, rate: int = RATE) -> None:
    """Add ``sound`` into ``background`` starting at ``at_s`` seconds (in place)."""
    i = round(at_s * rate)
    end = min(len(background), i + len(sound))
    background[i:end] += sound[: end - i]
