"""The labelled pip-dice photos of the shared data, as groups of scenes.

Used by the training command and the leave-one-group-out benchmark (never by
the reader itself).  Each photo becomes a ``Labelled``: its path, its group
(``webcam-train`` or a ``roboflow-mixed`` scene), its split unit (the copies of
one photo share a unit, so splits never cut through them) and its dice as
``LabelledDie`` (centre, die side in pixels, face value).

The two sets box different things.  ``roboflow-mixed`` boxes the whole die, so
its side is the box's.  ``webcam-train`` boxes only the pips of the top face
(a one's box is about one pip and its surround), so the die's side is
estimated from the box of its pips: a pattern's pips span a known fraction of
the face (``PIP_SPAN``, measured on the webcam's dice), and all the dice of one
frame lie at about the same distance from the camera, so the frame's estimate
is the median over its dice.
"""

from __future__ import annotations

import csv
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

WEBCAM = "webcam-train"
ROBOFLOW_GROUPS = ("fisheye-tray", "white-paper", "iphone-table", "hex-trays")
SYNTHETIC = "synthetic"
GROUPS = (WEBCAM, *ROBOFLOW_GROUPS, SYNTHETIC)

# A webcam box's side over the die's side, per face value (the box encloses the
# top face's pips and the YOLO labeller's margin).
PIP_SPAN = {1: 0.40, 2: 0.55, 3: 0.55, 4: 0.68, 5: 0.66, 6: 0.76}


@dataclass(frozen=True)
class LabelledDie:
    x: float  # centre, pixels
    y: float
    size: float  # the die's side, pixels
    value: int  # 1..6


@dataclass(frozen=True)
class Labelled:
    path: Path
    group: str
    unit: str
    dice: tuple[LabelledDie, ...]

    @property
    def values(self) -> list[int]:
        return sorted(d.value for d in self.dice)


def _yolo(path: Path, width: int, height: int) -> list[tuple[int, float, float, float, float]]:
    rows = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 5:
            c, cx, cy, w, h = int(parts[0]), *map(float, parts[1:])
            rows.append((c + 1, cx * width, cy * height, w * width, h * height))
    return rows


def webcam(root: Path) -> list[Labelled]:
    """``dice/webcam-train``: 640x480 frames, one unit per frame."""
    out = []
    for row in csv.DictReader((root / "manifest.csv").open(newline="")):
        image = root / row["path"]
        boxes = _yolo(image.with_suffix(".txt"), 640, 480)
        sides = [max(w, h) / PIP_SPAN[v] for v, _, _, w, h in boxes]
        side = statistics.median(sides) if sides else 0.0
        dice = tuple(LabelledDie(cx, cy, side, v) for v, cx, cy, _, _ in boxes)
        out.append(Labelled(image, WEBCAM, image.stem, dice))
    return out


def roboflow(root: Path, groups: Iterable[str] = ROBOFLOW_GROUPS) -> list[Labelled]:
    """``dice/roboflow-mixed``: 640x640 photos; units from ``SOURCES.csv``."""
    wanted = set(groups)
    out = []
    for row in csv.DictReader((root / "SOURCES.csv").open(newline="")):
        if row["group"] not in wanted:
            continue
        image = root / row["path"]
        label = root / "labels" / (image.stem + ".txt")
        dice = tuple(LabelledDie(cx, cy, max(w, h), v) for v, cx, cy, w, h in _yolo(label, 640, 640))
        out.append(Labelled(image, row["group"], row["group"] + "/" + row["split_unit"], dice))
    return out


def real_groups(shared: Path) -> dict[str, list[Labelled]]:
    """Every real labelled photo under the shared data folder, by group."""
    groups: dict[str, list[Labelled]] = {WEBCAM: webcam(shared / "dice" / "webcam-train")}
    for item in roboflow(shared / "dice" / "roboflow-mixed"):
        groups.setdefault(item.group, []).append(item)
    return groups


WITHIN_FRACTION = 0.2  # the within-group figure holds out this share of each group's units
WITHIN_SEED = 16


def held_out_units(units: Iterable[str], fraction: float = WITHIN_FRACTION, seed: int = WITHIN_SEED) -> set[str]:
    """About ``fraction`` of one group's split units, drawn with ``seed`` (whole units, never files)."""
    import numpy as np

    ordered = sorted(set(units))
    return set(np.random.default_rng(seed).permutation(ordered)[: round(fraction * len(ordered))].tolist())
