"""The verifier's training candidates are the recipe's, whatever the live detector's defaults.

``whistle_train.candidates`` records what the cascade's first stage asks a verifier that says no to everything.
Since session 17 the live cascade asks a locked-out sound again (``CascadeParams.reask``): with that default
the harvest gained every locked sound's re-asks (session9: 54,401 -> 69,982 candidates) and ``make
train-whistle`` stopped rebuilding the shipped weights.  The harvest keeps the recipes' first stage."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from hardware.testing import audio as ta
from hardware.whistle.cascade import CascadeParams

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import whistle_train as wt


def test_the_harvest_ignores_the_live_re_asks():
    # A 1.2 s tone the recorder refuses at every ask: the live default locks it out, then asks it again.
    x = ta.in_room(ta.chirp(3000.0, 3050.0, 1.2), at=0.5, length=2.5)
    item = wt.Item(x, ((0.5, 1.7),), frozenset({"test"}))
    harvest, live = wt.candidates(item), wt.candidates(item, CascadeParams())
    assert CascadeParams().reask > 0 and wt.HARVEST.reask == 0
    pinned = wt.candidates(item, CascadeParams(reask=0))
    assert np.array_equal(harvest[0], pinned[0]) and np.array_equal(harvest[1], pinned[1])
    assert len(live[1]) > len(harvest[1]) > 0  # the re-asks would be candidates of their own
