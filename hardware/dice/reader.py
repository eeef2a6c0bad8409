"""One entry point for every die: ``DiceReader.read(frame, die)``.

Pip dice ("d6") go to the learned pip reader (``net.NetReader``: find the
dice, read each top face; ``pips.read_pips``, the former classical reader, when
``pip_reader`` is "classical"); the Shear Panic and Sheep Hop! dice go
to the colour/symbol classifier with the faces sampled at calibration.  The
tray region from the camera profile limits the search for both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from companion.errors import SensorError

from .colour import ColourDie, read_colour_dice
from .model import Box, DieReading
from .net import shared_reader
from .pips import PipParams, read_pips

PIP_DIE = "d6"
COLOUR_DICE = ("panic", "regroup", "sheep-hop")


@dataclass
class DiceReader:
    region: Box | None = None
    pips: PipParams = field(default_factory=PipParams)
    colour: Mapping[str, ColourDie] = field(default_factory=dict)
    pip_reader: str = "net"  # or "classical": the former pip counter, tuned on one webcam (docs/dice.md)

    def kinds(self) -> list[str]:
        return [PIP_DIE, *self.colour]

    def read(self, frame: np.ndarray, die: str = PIP_DIE) -> list[DieReading]:
        if die == PIP_DIE:
            if self.pip_reader == "classical":
                return read_pips(frame, self.region, self.pips)
            return shared_reader().read(frame, self.region)
        calibrated = self.colour.get(die)
        if calibrated is None:
            raise SensorError(
                f"the {die!r} die has not been calibrated (run: bellwether calibrate camera --die {die} ...)"
            )
        return read_colour_dice(frame, calibrated, self.region)

    @classmethod
    def from_profile(cls, profile: object | None) -> DiceReader:
        """The reader a camera profile (``calibration.camera.CameraProfile``) describes."""
        if profile is None:
            return cls()
        return cls(region=profile.tray, pips=profile.pips, colour=dict(profile.dice))  # type: ignore[attr-defined]
