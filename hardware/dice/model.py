"""What a die reader returns: one reading per die it found."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Box = tuple[int, int, int, int]  # x, y, w, h in frame pixels


@dataclass(frozen=True)
class DieReading:
    """One die's top face as read from one frame.

    ``kind`` is "pips", "colour" or "symbol"; ``face`` is an int 1..6 for pip
    dice and the calibrated face name (e.g. "green", "+", "wolf") otherwise.
    ``confidence`` is 0..1: below the app's threshold the table is asked, with
    this face pre-selected.
    """

    kind: str
    face: Any
    confidence: float
    box: Box

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return (x + w / 2.0, y + h / 2.0)

    @property
    def side(self) -> int:
        """The box's longer side, px: the die's size as its reader measured it."""
        return max(self.box[2], self.box[3])

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "face": self.face,
            "confidence": round(float(self.confidence), 3),
            "box": [int(v) for v in self.box],
        }
