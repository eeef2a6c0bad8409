"""One entry point for every die: ``DiceReader.read(frame, die)``.

Pip dice ("d6") are read by ``pip_reader``:

- "auto" (the default): the gated hybrid.  The former classical reader
  (``pips.read_pips``, tuned on one webcam's ivory dice) answers when it reads
  at least one die, every die it reads at confidence >= ``gate``, and the
  learned reader (``net.NetReader``: find the dice, read each top face) finds
  as many dice; otherwise the learned reader does.  On the webcam it was built on the classical reader is right and sure;
  on other cameras it reads little, and what it reads is unsure, so the gate
  hands those frames to the network (docs/dice.md: the gate and its tuning).
- "net": the learned reader alone;
- "classical": the former reader alone.

The Shear Panic and Sheep Hop! dice go to the colour/symbol classifier with
the faces sampled at calibration.  The tray region from the camera profile
limits the search for all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.errors import SensorError

from .colour import ColourDie, read_colour_dice
from .model import Box, DieReading
from .net import WEIGHTS, shared_reader
from .pips import PipParams, read_pips

PIP_DIE = "d6"
COLOUR_DICE = ("panic", "regroup", "sheep-hop")
PIP_READERS = ("auto", "net", "classical")
# The classical reader's least confidence for its answer to stand.  Tuned by
# ``benchmarks/dice_eval.py --parts gate --gate-photos 100`` on the shipped network's training
# groups (every group); the leave-one-group-out table tunes it per fold.
CLASSICAL_GATE = 0.848


def sure(readings: list[DieReading], gate: float) -> bool:
    """The classical reader is sure: it read dice, every one at confidence >= ``gate``."""
    return bool(readings) and min(r.confidence for r in readings) >= gate


def classical_stands(
    classical: list[DieReading], net: list[DieReading], gate: float, expected: int | None = None
) -> bool:
    """The hybrid keeps the classical answer: it is sure, and it counts the dice the roll has.

    The count check catches the classical reader sure and wrong on other
    cameras (a side face or a shadow read as a die, a die missed). The count is
    the game's when the game says how many dice it asked for (``expected``);
    otherwise the network's, which counts dice better than it reads them but
    sometimes takes printed text or a cable label for one more die: on the
    webcam the classical reader was built on, that cost 0.97 -> 0.48 of unseen
    photos, and the game's count gives them back (docs/dice.md).
    """
    return sure(classical, gate) and len(classical) == (expected or len(net))


@dataclass
class DiceReader:
    region: Box | None = None
    pips: PipParams = field(default_factory=PipParams)
    colour: Mapping[str, ColourDie] = field(default_factory=dict)
    pip_reader: str = "auto"  # one of PIP_READERS
    gate: float = CLASSICAL_GATE
    weights: Path = WEIGHTS  # the network's weights (the benchmark's folds use their own)

    def __post_init__(self) -> None:
        if self.pip_reader not in PIP_READERS:
            raise ValueError(f"pip_reader: expected one of {', '.join(map(repr, PIP_READERS))}, got {self.pip_reader!r}")

    def kinds(self) -> list[str]:
        return [PIP_DIE, *self.colour]

    def read(self, frame: np.ndarray, die: str = PIP_DIE, expected: int | None = None) -> list[DieReading]:
        """The dice in ``frame``; ``expected``: how many the game asked for, when it says."""
        if die == PIP_DIE:
            if self.pip_reader == "classical":
                return read_pips(frame, self.region, self.pips)
            net = shared_reader(self.weights).read(frame, self.region)
            if self.pip_reader == "auto":
                classical = read_pips(frame, self.region, self.pips)
                if classical_stands(classical, net, self.gate, expected):
                    return classical
            return net
        calibrated = self.colour.get(die)
        if calibrated is None:
            raise SensorError(
                f"the {die!r} die has not been calibrated (run: bellwether calibrate camera --die {die} ...)"
            )
        return read_colour_dice(frame, calibrated, self.region)

    def pip_die_sides(self, frame: np.ndarray) -> list[int]:
        """The sides (px) of the pip dice the network reads in ``frame``, within the tray region: its boxes are about
        the labelled side (0.87-1.07 at the median on each of the five real groups), where the classical reader's box holds only
        the pips (a one's is one pip wide)."""
        return [r.side for r in shared_reader(self.weights).read(frame, self.region)]

    @classmethod
    def from_profile(cls, profile: object | None) -> DiceReader:
        """The reader a camera profile (``calibration.camera.CameraProfile``) describes."""
        if profile is None:
            return cls()
        return cls(
            region=profile.tray,  # type: ignore[attr-defined]
            pips=profile.pips,  # type: ignore[attr-defined]
            colour=dict(profile.dice),  # type: ignore[attr-defined]
            pip_reader=getattr(profile, "pip_reader", "auto"),
        )
