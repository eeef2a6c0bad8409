"""The dice's side known from calibration: measured without labels, and frames read at the scale it gives.

Real photos of ``roboflow-mixed`` through the shipped networks (photos they were trained on: a check that the
measurement and the reading work, not a held-out figure; ``benchmarks/dice_known_size.py`` has those).
"""

from __future__ import annotations

import itertools
import statistics
from pathlib import Path

import pytest

from hardware.dice import labelled
from hardware.dice.net import (
    COARSE_MIN,
    FINE_MAX,
    FINE_SIDE,
    known_side,
    measure_sides,
    shared_reader,
)
from hardware.image_file import read_image


def test_a_known_side_shows_the_dice_at_fine_side_within_the_frames_resolution() -> None:
    assert known_side(48, 640) == 640 * FINE_SIDE / 48  # 400: dice of 48 px at 30
    assert known_side(64, 640) == 296  # 300, down to a multiple of 8
    assert known_side(200, 640) == 96  # fisheye-tray's large dice: read small
    assert known_side(10, 640) == 640  # small dice: at most the frame's own resolution, never enlarged
    assert known_side(10, 4000) == FINE_MAX
    assert known_side(400, 640) == COARSE_MIN  # no smaller than COARSE_MIN
    assert known_side(400, 60) == 56  # a frame under COARSE_MIN: its own side (a multiple of 8)
    assert known_side(1, 5) == 8


def test_the_measuring_ladder_covers_every_side_up_to_the_frame() -> None:
    for frame in (5, 60, 100, 320, 640, 3000):
        sides = measure_sides(frame)
        assert sides == sorted(set(sides)) and all(s % 8 == 0 and s >= 8 for s in sides), sides
        assert sides[-1] == max(8, min(FINE_MAX, frame) // 8 * 8)  # the frame's own side (or FINE_MAX) is tried
        assert all(b / a <= 1.3 for a, b in itertools.pairwise(sides))  # no gap in the ladder
    assert measure_sides(640)[0] == COARSE_MIN


def _photos(shared_data: Path, group: str, n: int) -> list[labelled.Labelled]:
    """n photos of 1 to 5 dice spread over the group's split units."""
    items = labelled.roboflow(shared_data / "dice" / "roboflow-mixed", [group])
    seen: set[str] = set()
    first = []
    for item in sorted(items, key=lambda i: i.path.name):
        if 1 <= len(item.dice) <= 5 and item.unit not in seen:
            seen.add(item.unit)
            first.append(item)
    return first[:: max(1, len(first) // n)][:n]


@pytest.mark.parametrize("group", ["fisheye-tray", "iphone-table", "hex-trays"])
def test_the_dice_side_is_measured_from_a_frame_and_its_count_alone(shared_data: Path, group: str) -> None:
    """Fisheye-tray's dice are about 250 px across a 640 px photo, iphone-table's about 50: the measurement, told only
    how many dice lie in view, lands within a quarter of the labelled side (0.87-1.11 on these)."""
    reader = shared_reader()
    for item in _photos(shared_data, group, 4):
        labelled_side = statistics.median(d.size for d in item.dice)
        measured = reader.measure_die_side(read_image(item.path), len(item.dice))
        assert measured is not None and 0.8 <= measured / labelled_side <= 1.25, (item.path.name, measured, labelled_side)


def test_nothing_to_measure_on_a_blank_frame() -> None:
    import numpy as np

    assert shared_reader().measure_die_side(np.full((480, 640, 3), 128, np.uint8), 2) is None


def test_a_region_is_measured_and_read_at_the_calibrated_side(shared_data: Path) -> None:
    """The side is measured in a tray region and read there; boxes come back in the whole frame's pixels."""
    reader = shared_reader()
    right = total = 0
    for item in _photos(shared_data, "fisheye-tray", 4):
        frame = read_image(item.path)
        region = (16, 8, frame.shape[1] - 32, frame.shape[0] - 16)
        side = reader.measure_die_side(frame, len(item.dice), region)
        assert side is not None
        readings = reader.read(frame, region, die_side=side)
        for d in item.dice:
            near = [r for r in readings if abs(r.centre[0] - d.x) <= d.size / 2 and abs(r.centre[1] - d.y) <= d.size / 2]
            right += bool(near) and near[0].face == d.value
            total += 1
        assert all(0.6 <= r.box[2] / side <= 1.6 for r in readings), [r.box for r in readings]
    assert right / total >= 0.8, f"{right}/{total}"
