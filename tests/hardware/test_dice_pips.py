"""The pip reader on real webcam photos (read in place from the shared data)."""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.dice.pips import Pip, find_pips, group_pips, read_pips


def _rows(shared: Path) -> list[dict[str, str]]:
    with (shared / "dice" / "webcam-train" / "manifest.csv").open() as f:
        return list(csv.DictReader(f))


def test_reads_every_face_value_on_real_photos(shared_data: Path) -> None:
    folder = shared_data / "dice" / "webcam-train"
    # One photo per face value, the first of each folder of the set (not chosen by result).
    firsts = {}
    for row in _rows(shared_data):
        firsts.setdefault(row["path"].split("_")[0], row)
    right = 0
    for row in firsts.values():
        got = sorted(r.face for r in read_pips(cv2.imread(str(folder / row["path"]))))
        right += got == sorted(int(v) for v in row["values"].split())
    assert right >= len(firsts) - 1, f"only {right} of {len(firsts)} first photos read right"


def test_readings_have_box_and_confidence(shared_data: Path) -> None:
    image = cv2.imread(str(shared_data / "dice" / "webcam-train" / "four_20.jpg"))
    readings = read_pips(image)
    assert [r.face for r in readings] == [4, 4]
    for r in readings:
        x, y, w, h = r.box
        assert 0 <= x < 640 and 0 <= y < 480 and 10 < w < 120 and 10 < h < 120
        assert 0.5 <= r.confidence <= 1.0
        assert r.to_json()["kind"] == "pips"


def test_region_limits_the_search_and_keeps_frame_coordinates(shared_data: Path) -> None:
    image = cv2.imread(str(shared_data / "dice" / "webcam-train" / "four_20.jpg"))
    whole = read_pips(image)
    left = min(whole, key=lambda r: r.box[0])
    region = (0, 0, left.box[0] + left.box[2] + 20, 480)
    inside = read_pips(image, region=region)
    assert [r.face for r in inside] == [left.face]
    assert abs(inside[0].box[0] - left.box[0]) <= 3 and abs(inside[0].box[1] - left.box[1]) <= 3


def test_empty_table_has_no_dice() -> None:
    rng = np.random.default_rng(1)
    table = np.clip(rng.normal(170, 4, (480, 640, 3)), 0, 255).astype(np.uint8)
    assert read_pips(table) == []


def test_find_pips_sees_drawn_dots_and_ignores_a_bar() -> None:
    img = np.full((480, 640), 200, np.uint8)
    for x in (100, 130, 160):
        cv2.circle(img, (x, 200), 5, 20, -1)
    cv2.rectangle(img, (300, 100), (400, 106), 20, -1)  # a cable edge: long and thin
    pips = find_pips(img)
    assert sorted(round(p.x) for p in pips) == [100, 130, 160]


def test_grouping_keeps_a_two_together_and_two_dice_apart() -> None:
    def pip(x: float, y: float) -> Pip:
        return Pip(x, y, area=50.0, elongation=1.0, contrast=0.7, box=(int(x) - 4, int(y) - 4, 8, 8))

    d = Pip(0, 0, 50.0, 1.0, 0.7, (0, 0, 8, 8)).diameter
    two = [pip(0, 0), pip(3 * d, 3 * d)]  # a two's diagonal is about 4 diameters
    other_die = [pip(10 * d, 0)]
    groups = group_pips(two + other_die, span=5.0)
    assert sorted(len(g) for g in groups) == [1, 2]


@pytest.mark.parametrize("size", [(320, 240), (1280, 960)])
def test_other_resolutions_read_the_same(shared_data: Path, size: tuple[int, int]) -> None:
    image = cv2.imread(str(shared_data / "dice" / "webcam-train" / "four_20.jpg"))
    scaled = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    assert sorted(r.face for r in read_pips(scaled)) == [4, 4]


def test_symmetric_patterns_find_die_faces_and_refuse_a_line() -> None:
    from hardware.dice.pips import symmetric_patterns

    d = 8.0
    s = 1.4 * d  # a pip grid step of 1.4 diameters, as on the photos' dice
    five = np.array([(0, 0), (2 * s, 0), (0, 2 * s), (2 * s, 2 * s), (s, s)], float)
    sizes = {len(c) for c, _ in symmetric_patterns(five, d)}
    assert 5 in sizes and 4 in sizes  # the whole five, and its corners (a four the face model must refuse)
    six = np.array([(x * s, y * s) for x in (0, 2) for y in (0, 1, 2)], float)
    assert any(len(c) == 6 for c, _ in symmetric_patterns(six, d))
    line = np.array([(x * s, 0) for x in range(4)], float)
    assert not any(len(c) == 4 for c, _ in symmetric_patterns(line, d))
