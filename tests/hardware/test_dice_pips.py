"""The pip reader on real webcam photos (read in place from the shared data)."""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.dice.pips import Pip, PipParams, find_pips, group_pips, read_pips


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


def test_a_blurred_frame_is_searched_at_its_own_contrast() -> None:
    """Motion blur makes every pip fainter: in a frame whose pips are all faint the
    threshold is scaled down with them; a sharp frame keeps the threshold, so its
    faint spots (grain, dirt) stay out."""
    blurred = np.full((480, 640), 200, np.uint8)
    sharp = blurred.copy()
    for x in (100, 130, 160):
        cv2.circle(blurred, (x, 200), 4, 120, -1)  # faint after the blur
        cv2.circle(blurred, (x, 240), 4, 140, -1)  # fainter still: below the sharp threshold
        cv2.circle(sharp, (x, 200), 5, 20, -1)
        cv2.circle(sharp, (x, 240), 4, 150, -1)
    streak = np.zeros((9, 9), np.float32)
    streak[4, :] = 1 / 9  # a horizontal motion of 9 px
    blurred = cv2.filter2D(blurred, -1, streak)
    assert len(find_pips(blurred, PipParams(blur_contrast=0.0))) == 3
    assert len(find_pips(blurred)) == 6
    assert len(find_pips(sharp)) == len(find_pips(sharp, PipParams(blur_contrast=0.0))) == 3


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


def test_viewpoint_is_estimated_not_assumed(shared_data: Path) -> None:
    """The reader must not depend on the camera standing below the frame.

    The real photos turned 180 degrees are the same dice seen by a camera on
    the other side of the table: its foot point lies above the frame.  The
    estimated foot point turns with the photo, and the turned photos read as
    well as the originals.
    """
    from hardware.dice.pips import OVERHEAD, estimate_nadir, locate_pips

    folder = shared_data / "dice" / "webcam-train"
    sample = _rows(shared_data)[::10]  # every tenth photo of the manifest (not chosen by result)
    right = turned_right = followed = estimated = 0
    for row in sample:
        image = cv2.imread(str(folder / row["path"]))
        turned = cv2.rotate(image, cv2.ROTATE_180)
        want = sorted(int(v) for v in row["values"].split())
        right += sorted(r.face for r in read_pips(image)) == want
        turned_right += sorted(r.face for r in read_pips(turned)) == want
        nadirs = []
        for frame in (image, turned):
            gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
            pips, regions, _ = locate_pips(gray, PipParams())
            nadirs.append(estimate_nadir(pips, regions, gray.shape))
        (x, y), (tx, ty) = nadirs
        estimated += (x, y) != OVERHEAD
        followed += abs((1.0 - x) - tx) < 0.05 and abs((1.0 - y) - ty) < 0.05
    assert estimated >= len(sample) // 2  # these photos show side faces: a viewpoint is inferred
    assert followed >= len(sample) - 2  # and it turns with the photo
    assert turned_right >= right - 1


def test_viewpoint_falls_back_to_overhead_and_a_profile_fixes_it() -> None:
    from hardware.dice.pips import OVERHEAD, estimate_nadir, locate_pips

    # Drawn dice seen straight down: round pips of one size, no side faces.
    img = np.full((480, 640), 120, np.uint8)
    for cx, cy in ((200, 200), (420, 300)):
        cv2.rectangle(img, (cx - 30, cy - 30), (cx + 30, cy + 30), 230, -1)
        for dx, dy in ((-14, -14), (14, 14), (-14, 14), (14, -14)):
            cv2.circle(img, (cx + dx, cy + dy), 5, 20, -1)
    pips, regions, _ = locate_pips(img, PipParams())
    assert len(pips) == 8
    assert estimate_nadir(pips, regions, img.shape) == OVERHEAD
    assert estimate_nadir([], [], img.shape) == OVERHEAD
    # A profile's explicit foot point is used as given: it decides which pips lie "away".
    below, _, _ = locate_pips(img, PipParams(nadir_x=0.5, nadir_y=2.0))
    above, _, _ = locate_pips(img, PipParams(nadir_x=0.5, nadir_y=-1.0))
    for a, b in zip(above, below, strict=True):
        upper = a.y < 200 if a.x < 300 else a.y < 300  # the upper row of its die
        assert (b.away > 0.5) == upper and (a.away < -0.5) == upper


def test_face_patch_turns_with_the_camera() -> None:
    """The face model sees each die with the camera's foot point below it, so a
    die seen from the other side of the table looks the same to it."""
    from hardware.dice.pips import PATCH_SIZE, face_patch

    # One die: a bright square, its shaded side face towards a camera below the frame.
    img = np.full((480, 640), 100, np.uint8)
    cv2.rectangle(img, (290, 205), (350, 262), 220, -1)
    cv2.rectangle(img, (290, 263), (350, 290), 150, -1)
    turned = cv2.rotate(img, cv2.ROTATE_180)
    below = face_patch(img, 320.0, 240.0, 9.0, 220.0, np.array([320.0, 1200.0]))
    above = face_patch(turned, 639 - 320.0, 479 - 240.0, 9.0, 220.0, np.array([320.0, -720.0]))
    assert below.shape == (PATCH_SIZE * PATCH_SIZE,)
    assert np.abs(below - above).max() < 0.05
    rows = below.reshape(PATCH_SIZE, PATCH_SIZE)
    assert rows[PATCH_SIZE // 2, PATCH_SIZE // 2] > 0.95  # the face, in units of its own brightness
    assert 0.6 < rows[-1, PATCH_SIZE // 2] < 0.8  # the shaded side face below it
    assert rows[0, PATCH_SIZE // 2] < 0.5  # the table beyond it
