"""The shipped dice networks on real photos, through the real reader (OpenCV dnn, ONNX).

Skips cleanly when the shared data is absent; the weights themselves ship in
the package, so the first test always runs.  Photos are spread over each
group's split units (not picked by hand).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from companion.errors import SensorError
from hardware.dice import labelled
from hardware.dice.net import (
    CLASSIFIER,
    COARSE_ABOVE,
    COARSE_MIN,
    DETECT_SIDE,
    DETECTOR,
    FINE_MAX,
    STRIDE,
    WEIGHTS,
    NetReader,
    as_channels,
    coarser_again,
    crop_die,
    detector_blob,
    fine_side,
    first_side,
    half_side,
    most_die_like,
    normalise_crops,
    parts_of_large,
    shared_reader,
    surety,
)
from hardware.dice.reader import DiceReader
from hardware.image_file import read_image

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from dice_eval import closer

# Regression floors, a margin under what the shipped weights read on these samples
# (docs/dice.md has the figures; the targets, 0.95 per die, are not met yet).
# The shipped weights read webcam 36/37, fisheye 28/32, iPhone 18/20, white-paper 6/10, hex-trays 39/60 of
# these dice (photos they were trained on: a check that the weights load and read, not a held-out figure).
FLOOR = {"webcam-train": 0.85, "fisheye-tray": 0.8, "iphone-table": 0.8, "white-paper": 0.5, "hex-trays": 0.55}


def _match(item: labelled.Labelled, readings: list) -> int:
    right, used = 0, set()
    for d in item.dice:
        near = [
            (abs(r.centre[0] - d.x) + abs(r.centre[1] - d.y), j)
            for j, r in enumerate(readings)
            if j not in used and abs(r.centre[0] - d.x) <= d.size / 2 and abs(r.centre[1] - d.y) <= d.size / 2
        ]
        if near:
            _, j = min(near)
            used.add(j)
            right += readings[j].face == d.value
    return right


def test_the_shipped_weights_are_small_and_load() -> None:
    size = (WEIGHTS / DETECTOR).stat().st_size + (WEIGHTS / CLASSIFIER).stat().st_size
    assert size < 5_000_000
    reader = NetReader()
    assert 0.05 <= reader.threshold <= 0.9
    blank = np.full((480, 640, 3), 128, np.uint8)
    assert reader.read(blank) == []  # an empty grey table holds no dice
    assert reader.read(np.zeros((4, 4, 3), np.uint8)) == []


def test_frames_reach_each_network_in_its_own_channels() -> None:
    """A colour network takes a grey frame as three equal channels; a grey one takes a colour frame in grey."""
    bgr = np.random.default_rng(0).integers(0, 256, (20, 30, 3), dtype=np.uint8)
    assert as_channels(bgr, 1).shape == (20, 30)
    grey3 = as_channels(bgr[..., 1], 3)
    assert grey3.shape == (20, 30, 3) and (grey3[..., 0] == grey3[..., 2]).all()
    assert detector_blob(bgr, 3).shape == (1, 3, 20, 30) and detector_blob(bgr, 1).shape == (1, 1, 20, 30)
    assert detector_blob(bgr, 3).min() >= 0 and detector_blob(bgr, 3).max() <= 1
    crops = normalise_crops(bgr[None].astype(np.float32))
    assert crops.shape == (1, 3, 20, 30) and abs(float(crops.mean())) < 1e-3  # one mean over the three channels
    assert normalise_crops(bgr[None, ..., 0].astype(np.float32)).shape == (1, 1, 20, 30)


def _heat(side: float, shape: tuple[int, int] = (60, 80)) -> np.ndarray:
    """A detector output (heat, log side / STRIDE) with three dice of ``side`` detector pixels."""
    out = np.zeros((2, *shape), np.float32)
    for i, j in ((10, 10), (40, 30), (60, 50)):
        out[0, j, i] = 0.9
        out[1, j, i] = np.log(side / STRIDE)
    return out


def test_small_dice_get_a_finer_second_look_up_to_the_frame_resolution() -> None:
    assert fine_side(_heat(30.0), 640) is None  # dice of a usual size: one pass
    assert fine_side(np.zeros((2, 60, 80), np.float32), 640) is None  # nothing found: nothing to scale by
    assert fine_side(_heat(10.0), 640) == 640  # small dice, a 640 px frame: read at its own resolution
    assert fine_side(_heat(10.0), 4000) == FINE_MAX  # a big photo: capped
    side = fine_side(_heat(14.0), 4000)
    assert side is not None and DETECT_SIDE * 1.25 <= side <= FINE_MAX and side % 8 == 0
    assert fine_side(_heat(10.0), 360) is None  # the frame is barely larger than the first pass: no gain


def test_large_dice_get_a_coarser_second_look_when_asked() -> None:
    assert fine_side(_heat(80.0), 640) is None  # off unless the tuning asks (the shipped weights' today)
    assert fine_side(_heat(80.0), 640, fine=False, coarse=True) == 120  # 320 x 30 / 80, to a multiple of 8
    assert fine_side(_heat(250.0), 640, coarse=True) == COARSE_MIN  # a close-up: no smaller than COARSE_MIN
    assert fine_side(_heat(56.0), 640, coarse=True) is None and COARSE_ABOVE > 56  # up to FINE_BELOW's mirror: one pass
    assert fine_side(_heat(10.0), 640, fine=False, coarse=True) is None  # small dice: the finer look's, off here


def test_the_coarser_looks_trigger_and_its_further_looks() -> None:
    """Session 27: ``coarse_above`` moves the trigger; ``coarser_again`` looks once more while the dice found at the
    last side still look large (the first pass's estimate of large dice is low)."""
    assert fine_side(_heat(40.0), 640, coarse=True) is None  # under COARSE_ABOVE: one pass, as session 23's
    assert fine_side(_heat(40.0), 640, coarse=True, coarse_above=37.5) == 240  # 320 x 30 / 40
    assert fine_side(_heat(37.0), 640, coarse=True, coarse_above=37.5) is None
    assert coarser_again(_heat(60.0), 240, 37.5) == 120  # read at 240, still 60 px: 240 x 30 / 60
    assert coarser_again(_heat(36.0), 240, 37.5) is None  # about FINE_SIDE now: that look stands
    assert coarser_again(_heat(40.0), 104, 37.5) is None  # 104 x 30 / 40 = 78 -> COARSE_MIN 96: within 8 px
    assert coarser_again(_heat(300.0), 240, 37.5) == COARSE_MIN  # never under COARSE_MIN
    assert coarser_again(np.zeros((2, 60, 80), np.float32), 240, 37.5) is None  # nothing found


def test_the_half_look_reads_at_half_the_first_pass_and_weighs_how_sure_each_pass_is() -> None:
    """Session 28 (``half_look``): the half pass's side, and a pass's surety (its sure dice's heat, summed)."""
    assert half_side(640) == DETECT_SIDE // 2 and half_side(4000) == DETECT_SIDE // 2
    assert half_side(150) == COARSE_MIN  # a small tray region: never under COARSE_MIN
    assert half_side(100) is None  # 96 is the first pass again (within NORMALISE_SKIP): no half look
    assert surety(_heat(30.0)) == pytest.approx(2.7)  # three dice at 0.9
    assert surety(np.zeros((2, 60, 80), np.float32)) == 0.0
    weak = _heat(30.0)
    weak[0][weak[0] > 0] = 0.2  # under FINE_HEAT: found, but not surely
    assert surety(weak) == 0.0


def test_the_half_pass_is_kept_when_surer_and_never_over_small_dice_when_guarded(shared_data: Path, tmp_path: Path) -> None:
    """Session 28: on a real webcam photo of three dice, the half pass (160 px) is kept when the first pass found
    nothing surely, or less surely than ``half_look`` x its own; with ``half_above`` it is not even read when the
    first pass's dice are smaller than that, and the first pass stands."""
    frame = read_image(shared_data / "dice" / "webcam-train" / "dice_21.jpg")
    reader = _with_tuning(tmp_path / "h", half_look=0.5, half_above=0)
    guarded = _with_tuning(tmp_path / "g", half_look=0.5, half_above=20.0)
    nothing = np.zeros((2, 60, 80), np.float32)
    side, (heat, scale) = reader.half(as_channels(frame, reader.channels), nothing)
    assert side == DETECT_SIDE // 2 and scale == pytest.approx(0.25) and surety(heat) > 1.0  # its dice, found surely
    assert reader.half(as_channels(frame, reader.channels), _heat(14.0)) is not None  # 2.7 x 0.5 is under its surety
    assert guarded.half(as_channels(frame, guarded.channels), _heat(14.0)) is None  # small dice: not looked at half
    assert guarded.half(as_channels(frame, guarded.channels), nothing) is not None  # nothing found: looked at
    assert _with_tuning(tmp_path / "x", half_look=9e-3, half_above=0).half(frame, _heat(30.0)) is not None
    assert _with_tuning(tmp_path / "off", half_look=0).half(frame, nothing) is None  # off: never read
    assert (shared_reader().half_look, shared_reader().half_above) == (0.5, 30.0)  # shipped (session 28, G30)
    assert (shared_reader().half_large, shared_reader().half_cover) == (60.0, 1.0)  # shipped (session 29, C1)


def test_a_half_pass_under_half_above_is_kept_when_the_first_pass_saw_a_large_dies_pips(shared_data: Path,
                                                                                        tmp_path: Path) -> None:
    """Session 29 (``half_large``): a real webcam die (123 px) seen three times closer (368 px) is not found by the
    first pass, but its pips are, as dice of about 19 px: under ``half_above``, so G30 never reads the half pass and
    reads nothing. With ``half_large`` the half pass is read, finds the die large and holding every pip (``half_cover``
    1), and is kept: the die reads 1.
    Three dice of 93 px as taken (first pass 25 px, under ``half_above`` too) keep their first pass."""
    one = next(i for i in labelled.webcam(shared_data / "dice" / "webcam-train") if i.path.name == "dice_3.jpg")
    view, _ = closer(None, one, 3.0)
    close = view()
    g30 = _with_tuning(tmp_path / "g30", half_large=0)
    large = _with_tuning(tmp_path / "c1", half_large=60.0, half_cover=1.0)
    first = large.heatmap(as_channels(close, large.channels))[0]
    assert g30.half(as_channels(close, g30.channels), first) is None  # the guard: its pips look like small dice
    side, _ = large.half(as_channels(close, large.channels), first)
    assert side == DETECT_SIDE // 2
    assert [r.face for r in large.read(close)] == [1] and [r.face for r in g30.read(close)] != [1]
    three = read_image(shared_data / "dice" / "webcam-train" / "dice_21.jpg")
    first = large.heatmap(as_channels(three, large.channels))[0]
    assert large.half(as_channels(three, large.channels), first) is None  # not large at half: the first pass stands
    assert sorted(r.face for r in large.read(three)) == sorted(r.face for r in g30.read(three))
    assert _with_tuning(tmp_path / "none", drop=("half_large",)).half_large == 0.0  # absent: off


def test_small_dice_are_parts_of_large_ones_only_when_the_large_ones_hold_them() -> None:
    """Session 29 (``half_cover``): the half pass's large dice must hold the first pass's small ones, as a die holds
    its pips; a crowded tray's small dice lying outside one large false find are not its parts."""
    first = np.zeros((2, 60, 80), np.float32)
    for i, j in ((18, 18), (22, 22), (26, 26), (60, 40)):  # three pips of one die and one small die far away
        first[0, j, i], first[1, j, i] = 0.5, np.log(20.0 / STRIDE)
    half = np.zeros((2, 30, 40), np.float32)
    half[0, 11, 11], half[1, 11, 11] = 0.6, np.log(40.0 / STRIDE)  # one die of 40 px at (92, 92) = 80 first-pass px
    assert parts_of_large(first, half, 2.0, 60.0, 0.75)  # three of the four inside
    assert not parts_of_large(first, half, 2.0, 60.0, 1.0)  # the far one is not
    assert not parts_of_large(first, half, 2.0, 90.0, 0.0)  # not large enough
    assert parts_of_large(first, half, 2.0, 60.0, 0.0)  # no cover asked: session 29's first candidate (L60)
    assert not parts_of_large(first, np.zeros_like(half), 2.0, 0.0, 0.0)  # the half pass found nothing surely


def test_dice_outside_the_normalise_band_are_read_again_at_about_fine_side_either_way() -> None:
    assert fine_side(_heat(30.0), 640, normalise=1.5) is None  # in the band (20-45 px): one pass
    assert fine_side(_heat(80.0), 640, normalise=1.5) == 120  # large: 320 x 30 / 80
    assert fine_side(_heat(46.0), 640, normalise=1.5) == 208  # 320 x 30 / 46 = 209, to a multiple of 8
    assert fine_side(_heat(250.0), 640, normalise=1.5) == COARSE_MIN  # a close-up: no smaller than COARSE_MIN
    assert fine_side(_heat(19.0), 640, normalise=1.5) == 504  # small: 320 x 30 / 19 = 505
    assert fine_side(_heat(10.0), 640, normalise=1.5) == 640  # no finer than the frame's own resolution
    assert fine_side(_heat(10.0), 4000, normalise=1.5) == FINE_MAX  # a big photo: capped
    assert fine_side(_heat(10.0), 360, normalise=1.5) == 360  # any gain counts (the finer look asks 1.25x)
    assert fine_side(_heat(30.5), 640, normalise=1.0) is None  # 312 px: within 8 px of the first pass, skipped
    assert fine_side(_heat(31.0), 640, normalise=1.0) == 304
    assert fine_side(np.zeros((2, 60, 80), np.float32), 640, normalise=1.5) is None  # nothing found
    # a tray region under DETECT_SIDE: the first pass read it at its own side, so its dice scale from that
    assert fine_side(_heat(60.0), 200, normalise=1.5) == COARSE_MIN  # 200 x 30 / 60 = 100
    assert fine_side(_heat(10.0), 200, normalise=1.5) is None  # never enlarged past the region's resolution
    # the band alone decides when it is given: the finer and coarser looks' thresholds are not asked
    assert fine_side(_heat(15.5), 640) == 616 and fine_side(_heat(15.5), 640, normalise=2.0) is None
    assert fine_side(_heat(60.0), 640, coarse=True) == 160 and fine_side(_heat(60.0), 640, coarse=True, normalise=2.5) is None


def test_the_first_pass_never_enlarges_a_frame() -> None:
    assert first_side(1600) == DETECT_SIDE and first_side(640) == DETECT_SIDE  # scaled down as always
    assert first_side(200) == 200 and first_side(3) == 8  # a small tray region: its own resolution


# Real white-paper photos (roboflow-mixed), each cut to a tray region round its die (1.5 die sides of margin) that is
# smaller than the detector's 320 px input. Enlarged to 320 (before session 23), none of these dice was found.
SMALL_REGIONS = {
    "5kP95uP7K1XF6jB98k6A_jpg.rf.46466d985cb3905193f208bad44893b6.jpg": ((247, 137, 90, 90), 2),
    "8pjEGEkMDsjUnXsXC4Ay_jpg.rf.007ed3f651abaf1fc31c7081936db87a.jpg": ((333, 296, 68, 67), 4),
    "0u9xMiHr1Nvqlv9Wblme_jpg.rf.0b4a03d96f858115c3f81f46c5ecfbc8.jpg": ((180, 137, 270, 270), 2),
}


def test_a_tray_region_smaller_than_the_detector_input_is_read_at_its_own_resolution(shared_data: Path) -> None:
    folder = shared_data / "dice" / "roboflow-mixed" / "images"
    reader = DiceReader(pip_reader="net")
    for name, (region, face) in SMALL_REGIONS.items():
        reader.region = region
        readings = reader.read(read_image(folder / name), expected=1)
        assert [r.face for r in readings] == [face], name
        x, y, w, h = region
        (bx, by, bw, bh) = readings[0].box  # in the whole frame's pixels, inside the region
        assert x <= bx + bw / 2 <= x + w and y <= by + bh / 2 <= y + h


def test_reads_real_webcam_photos(shared_data: Path) -> None:
    folder = shared_data / "dice" / "webcam-train"
    right, total, _found = _read_all(DiceReader().read, _sample(labelled.webcam(folder), 12))
    assert right / total >= FLOOR["webcam-train"], f"{right}/{total} dice read right"


def _read_all(read, items: list[labelled.Labelled]) -> tuple[int, int, int]:
    """(dice read right by position, labelled dice, readings) over the photos; every reading well formed."""
    right = total = found = 0
    for item in items:
        readings = read(read_image(item.path))
        right += _match(item, readings)
        total += len(item.dice)
        found += len(readings)
        for r in readings:
            assert r.kind == "pips" and 0 < r.confidence <= 1 and r.box[2] > 4
    return right, total, found


def _sample(items: list[labelled.Labelled], n: int, most: int = 48) -> list[labelled.Labelled]:
    """n photos spread over the group's units (the first of each unit, in order)."""
    seen, out = set(), []
    for i in sorted(items, key=lambda i: i.path.name):
        if i.unit not in seen and len(i.dice) <= most:
            seen.add(i.unit)
            out.append(i)
    step = max(1, len(out) // n)
    return out[::step][:n]


def test_a_grey_camera_reads_as_a_colour_one(shared_data: Path) -> None:
    """The shipped networks see colour; the same webcam photos in grey (one channel) read as well."""
    import cv2

    items = _sample(labelled.webcam(shared_data / "dice" / "webcam-train"), 12)
    reader = shared_reader()
    right, total, _found = _read_all(lambda frame: reader.read(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)), items)
    assert right / total >= FLOOR["webcam-train"], f"{right}/{total} dice read right in grey"


@pytest.mark.parametrize("group", ["fisheye-tray", "iphone-table", "white-paper"])
def test_reads_real_photos_of_other_cameras(shared_data: Path, group: str) -> None:
    items = _sample(labelled.roboflow(shared_data / "dice" / "roboflow-mixed", [group]), 10, most=5)
    right, total, _found = _read_all(shared_reader().read, items)
    assert right / total >= FLOOR[group], f"{group}: {right}/{total} dice read right"


def test_coloured_dice_pips_read_as_pips(shared_data: Path) -> None:
    """hex-trays: dice of many colours (light, dark and coloured pips) on felt trays, 5-48 a photo."""
    items = _sample(labelled.roboflow(shared_data / "dice" / "roboflow-mixed", ["hex-trays"]), 6, most=20)
    right, total, found = _read_all(shared_reader().read, items)
    assert right / total >= FLOOR["hex-trays"], f"{right}/{total} coloured dice read right"
    assert found <= total * 1.1  # the felt, the tray's rim and the carpet are not dice


def test_a_die_colour_does_not_change_its_reading(shared_data: Path) -> None:
    """The same coloured dice with every hue turned by a third of the circle read the same."""
    import cv2

    items = _sample(labelled.roboflow(shared_data / "dice" / "roboflow-mixed", ["hex-trays"]), 3, most=12)
    reader = shared_reader()
    same = total = 0
    for item in items:
        frame = read_image(item.path)
        before = reader.read(frame)
        hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
        for shift in (60, 120):  # OpenCV hue runs 0..180
            turned = hsv.copy()
            turned[..., 0] = (turned[..., 0].astype(int) + shift) % 180
            after = reader.read(cv2.cvtColor(turned, cv2.COLOR_HSV2BGR))
            for r in before:
                total += 1
                same += any(
                    a.face == r.face and abs(a.centre[0] - r.centre[0]) + abs(a.centre[1] - r.centre[1]) < r.box[2] / 2
                    for a in after
                )
    assert total and same / total >= 0.7, f"{same}/{total} readings unchanged by a colour change"


def test_reading_mirrored_too_is_the_same_for_a_mirrored_photo(shared_data: Path) -> None:
    """With ``mirror`` each crop is read at its four turns and their mirror images: a set of views that a
    mirrored photo maps onto itself, so the probabilities must match (and differ from the turns alone)."""
    item = _sample(labelled.webcam(shared_data / "dice" / "webcam-train"), 3)[1]
    frame = read_image(item.path)
    reader = shared_reader()
    dice = reader.detect(frame)
    assert dice
    w = frame.shape[1]
    flipped = [(w - x, y, s, p) for x, y, s, p in dice]  # crop_die cuts [x - half, x + half): its mirror is at w - x
    both = reader.classify(frame, dice, mirror=True)
    assert np.allclose(both, reader.classify(frame[:, ::-1].copy(), flipped, mirror=True), atol=2e-3)
    assert not np.allclose(both, reader.classify(frame, dice, mirror=False), atol=1e-4)
    assert np.allclose(both.sum(axis=1), 1.0, atol=1e-4)


def test_a_tighter_crop_is_read_from_the_same_centre(shared_data: Path) -> None:
    """``crop_context`` (tuning.json) sets the crop's side in die sides: 1.0 cuts the die's own box."""
    from hardware.dice.net import crop_die

    frame = np.zeros((200, 200), np.uint8)
    frame[80:120, 80:120] = 255  # a 40 px die
    tight = crop_die(frame, 100, 100, 40, size=40, context=1.0)
    wide = crop_die(frame, 100, 100, 40, size=40, context=1.25)
    assert tight.min() > 250  # all die
    assert wide[0, 0] < 5 and wide[20, 20] > 250  # the felt around it, the die in the middle


def _pip_crop(body: tuple[int, int, int], pip: tuple[int, int, int], felt: tuple[int, int, int] | None = None) -> np.ndarray:
    """A 32 px BGR crop of a five: a 26 px die of ``body`` colour with pips of ``pip``, on ``felt`` around it."""
    import cv2

    crop = np.full((32, 32, 3), felt or body, np.uint8)
    cv2.rectangle(crop, (3, 3), (28, 28), body, -1)
    for x, y in ((9, 9), (22, 9), (16, 16), (9, 22), (22, 22)):
        cv2.circle(crop, (x, y), 3, pip, -1)
    return crop


def _pip_contrast(crop: np.ndarray, crop_bgr: np.ndarray, pip: tuple[int, int, int]) -> float:
    """How far the pips stand from the die's body in a normalised one-channel crop (in spreads)."""
    flat = normalise_crops(crop[None].astype(np.float32))[0, 0]
    pips = (crop_bgr == pip).all(axis=2)
    body = ~pips
    body[:4] = body[-4:] = body[:, :4] = body[:, -4:] = False  # the die's body, not the felt
    return abs(float(flat[pips].mean() - flat[body].mean()))


def test_pips_of_the_bodys_luminance_keep_their_contrast_when_projected() -> None:
    """Blue pips on a green die, of equal luminance, vanish in grey; the crop's own first colour
    component shows them, over the whole crop or its centre (felt of a third colour around it)."""
    import cv2

    from hardware.dice.net import FACE_COLOURS, LUMA_BGR, project_colours

    body, pip = (60, 160, 60), (230, 127, 60)
    assert abs(float(LUMA_BGR @ np.array(body)) - float(LUMA_BGR @ np.array(pip))) < 0.5  # the same luminance
    for felt in (None, (40, 40, 150)):
        crop = _pip_crop(body, pip, felt)
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
        assert _pip_contrast(grey, crop, pip) < 0.2
        centre = project_colours(crop[None].astype(np.float32), FACE_COLOURS["pca-centre"])[0]
        assert _pip_contrast(centre, crop, pip) > 1.0
    whole = project_colours(_pip_crop(body, pip)[None].astype(np.float32), FACE_COLOURS["pca"])[0]
    assert _pip_contrast(whole, _pip_crop(body, pip), pip) > 1.0


def test_a_grey_crop_projects_to_its_grey() -> None:
    """A grey camera's crop (three equal channels) gives its grey back, so grey groups read as before;
    a crop of one colour has no component and gets its luminance; the sign follows luminance."""
    from hardware.dice.net import LUMA_BGR, project_colours

    grey = np.random.default_rng(0).uniform(0, 255, (3, 32, 32)).astype(np.float32)
    for centre in (1.0, 0.6):
        assert np.allclose(project_colours(np.repeat(grey[..., None], 3, axis=3), centre), grey, atol=1e-3)
    flat = np.full((1, 8, 8, 3), (10, 200, 90), np.float32)
    assert np.allclose(project_colours(flat), float(LUMA_BGR @ flat[0, 0, 0]), atol=1e-3)
    dark_pips = _pip_crop((230, 230, 230), (20, 20, 90)).astype(np.float32)
    projected = project_colours(dark_pips[None])[0]
    assert projected[16, 16] < projected[5, 5]  # dark pips stay dark, as in grey


def test_the_pips_direction_keeps_their_contrast_where_the_first_component_is_the_felt() -> None:
    """Blue pips on a green die, of equal luminance, on bright red felt: the crop's first colour component
    is the felt against the die and the pips fade; their own direction (``pips``) keeps them. Dark pips
    on an ivory die stay dark, as in grey."""
    from hardware.dice.net import FACE_COLOURS, project_face

    body, pip = (60, 160, 60), (230, 127, 60)
    crop = _pip_crop(body, pip, (40, 40, 230))
    assert _pip_contrast(project_face(crop[None].astype(np.float32), "pca")[0], crop, pip) < 0.5
    assert _pip_contrast(project_face(crop[None].astype(np.float32), "pips")[0], crop, pip) > 2.0
    assert FACE_COLOURS["pips"] < 1.0  # the direction is the top face's, not the felt's
    dark_pips = _pip_crop((230, 230, 230), (20, 20, 90), (90, 60, 40)).astype(np.float32)
    projected = project_face(dark_pips[None], "pips")[0]
    assert projected[16, 16] < projected[5, 5]


def test_a_grey_or_blank_crop_gets_its_grey_through_the_pips_direction() -> None:
    """A grey camera's crop gives its grey back exactly; a crop without distinct pips (one colour, or a
    blank face with faint noise) gets its luminance."""
    from hardware.dice.net import LUMA_BGR, project_pips

    rng = np.random.default_rng(0)
    grey = rng.uniform(0, 255, (3, 32, 32)).astype(np.float32)
    assert np.allclose(project_pips(np.repeat(grey[..., None], 3, axis=3)), grey, atol=1e-3)
    blank = np.full((2, 32, 32, 3), (10, 200, 90), np.float32)
    blank[1] += rng.normal(0, 2, (32, 32, 3)).astype(np.float32)
    assert np.allclose(project_pips(blank), blank @ LUMA_BGR, atol=1e-3)


@pytest.mark.parametrize("colour", ["pca", "pips"])
def test_a_projecting_reader_reads_a_grey_photo_as_the_grey_reader(tmp_path: Path, colour: str) -> None:
    """``face_colour`` in tuning.json: crops are cut in colour and projected; a grey photo's probabilities
    do not move, a colour photo's do (the projection is not luminance there)."""
    import json
    import shutil

    import cv2

    from hardware.testing.pip_render import render_set

    shutil.copytree(WEIGHTS, tmp_path, dirs_exist_ok=True)
    tuning = json.loads((tmp_path / "tuning.json").read_text())
    (tmp_path / "tuning.json").write_text(json.dumps({**tuning, "face_colour": colour}))
    grey_reader, pca_reader = NetReader(), NetReader(tmp_path)
    assert pca_reader.crop_channels == 3 and grey_reader.crop_channels == 1
    frame, dice = render_set(1, 3)[0]  # eight dice, in colour
    boxes = [(x, y, s, 1.0) for x, y, s, _ in dice]
    grey = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert np.allclose(pca_reader.classify(grey, boxes), grey_reader.classify(grey, boxes), atol=1e-3)
    assert not np.allclose(pca_reader.classify(frame, boxes), grey_reader.classify(frame, boxes), atol=1e-3)


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("face_colour", "sepia", "expected one of grey or pca or pca-centre or pips, got 'sepia'"),
        ("threshold", "high", "expected a number, got 'high'"),
        ("turns", 3, "expected one of 1 or 2 or 4, got 3"),
        ("fine", "yes", "expected true or false, got 'yes'"),
        ("crop", 4096, "expected one of 8..256, got 4096"),
        ("top_shift", 1.5, "expected a number from 0.0 to 1.0, got 1.5"),
        ("top_shift", "far", "expected a number from 0.0 to 1.0, got 'far'"),
        ("top_shift", True, "expected a number from 0.0 to 1.0, got True"),
        *((("normalise", bad, f"expected 0 (off) or a number from 1 to 8.0, got {bad!r}"))
          for bad in (0.5, -1, 9, "wide", True)),
        *((("faces_extra", bad, f"expected a list of distinct file names in the weights folder, other than "
            f"dice_detector.onnx and dice_faces.onnx, got {bad!r}"))
          for bad in ("dice_faces_s17.onnx", ["../dice_faces_s17.onnx"], ["a.onnx", "a.onnx"], ["dice_faces.onnx"], [""], [17])),
        *((("coarse_above", bad, f"expected a number from 30.0 to 320.0, got {bad!r}")) for bad in (20, 400, "large", True)),
        *((("coarse_looks", bad, f"expected one of 1..4, got {bad!r}")) for bad in (0, 5, 1.5, True)),
        *((("half_look", bad, f"expected a number from 0.0 to 4.0, got {bad!r}")) for bad in (-1, 5, "twice", True)),
        *((("half_above", bad, f"expected a number from 0.0 to 320.0, got {bad!r}")) for bad in (-1, 400, "big", True)),
        *((("half_large", bad, f"expected a number from 0.0 to 320.0, got {bad!r}")) for bad in (-1, 400, "huge", True)),
        *((("half_cover", bad, f"expected a number from 0.0 to 1.0, got {bad!r}")) for bad in (-0.1, 1.5, "all", True)),
        *((("crop_contexts", bad, f"expected a non-empty list of distinct numbers from 0.5 to 3.0, got {bad!r}"))
          for bad in (1.25, [], [1.25, 1.25], [1.25, "wide"], [True], [0.2], [1.25, 4])),
    ],
)
def test_a_bad_tuning_value_is_refused_with_its_key(tmp_path: Path, key: str, value: object, expected: str) -> None:
    """A weights folder whose tuning.json holds a bad value: one SensorError naming the file, the key and what
    was expected (the dice sensor goes offline), not a KeyError or ValueError at the first die."""
    import json
    import shutil

    from companion.errors import SensorError

    shutil.copytree(WEIGHTS, tmp_path, dirs_exist_ok=True)
    tuning = json.loads((tmp_path / "tuning.json").read_text())
    (tmp_path / "tuning.json").write_text(json.dumps({**tuning, key: value}))
    with pytest.raises(SensorError) as refused:
        NetReader(tmp_path)
    assert str(refused.value) == f"{tmp_path / 'tuning.json'}: {key}: {expected}"
    (tmp_path / "tuning.json").write_text("[1, 2]")
    with pytest.raises(SensorError, match="expected a JSON object, got list"):
        NetReader(tmp_path)


def _with_tuning(tmp_path: Path, drop: tuple[str, ...] = (), **values: object) -> NetReader:
    """The shipped weights with ``values`` added to their tuning.json and the keys in ``drop`` taken out."""
    import json
    import shutil

    shutil.copytree(WEIGHTS, tmp_path, dirs_exist_ok=True)
    tuning = json.loads((tmp_path / "tuning.json").read_text())
    (tmp_path / "tuning.json").write_text(json.dumps({k: v for k, v in {**tuning, **values}.items() if k not in drop}))
    return NetReader(tmp_path)


def test_top_shift_off_reads_exactly_as_before(shared_data: Path, tmp_path: Path) -> None:
    """``top_shift`` 0 (and absent, the shipped tuning) reads real photos identically: same values, confidences, boxes."""
    off = _with_tuning(tmp_path, top_shift=0)
    assert off.top_shift == 0.0 and shared_reader().top_shift == 0.0
    items = _sample(labelled.roboflow(shared_data / "dice" / "roboflow-mixed", ["iphone-table"]), 2, most=5)
    items += _sample(labelled.webcam(shared_data / "dice" / "webcam-train"), 2)
    for item in items:
        frame = read_image(item.path)
        assert off.read(frame) == shared_reader().read(frame)
        dice = off.detect(frame)
        assert np.array_equal(off.classify(frame, dice), shared_reader().classify(frame, dice, top_shift=0.0))


def test_top_shift_moves_each_crop_away_from_the_image_centre(shared_data: Path, tmp_path: Path) -> None:
    """On a real tray photo: each die's crop is cut ``top_shift`` x its side x its distance from the image
    centre over half the long side farther out (towards its top face); the reader with the option in its
    tuning reads exactly the crops the reader without it reads at the moved centres."""
    item = _sample(labelled.roboflow(shared_data / "dice" / "roboflow-mixed", ["hex-trays"]), 3, most=20)[0]
    frame = read_image(item.path)
    h, w = frame.shape[:2]
    shifted = _with_tuning(tmp_path, top_shift=0.3)
    dice = shifted.detect(frame)
    assert len(dice) >= 3
    cx, cy, half = w / 2, h / 2, max(w, h) / 2
    moved = [(x + 0.3 * s * (x - cx) / half, y + 0.3 * s * (y - cy) / half, s, p) for x, y, s, p in dice]
    for (x, y, s, _), (mx, my, _, _) in zip(dice, moved, strict=True):
        out = np.hypot(x - cx, y - cy)
        assert np.hypot(mx - cx, my - cy) - out == pytest.approx(0.3 * s * out / half)  # outwards, not across
    assert max(np.hypot(mx - x, my - y) for (x, y, *_), (mx, my, *_) in zip(dice, moved, strict=True)) > 2  # really moved
    assert np.allclose(shifted.classify(frame, dice), shared_reader().classify(frame, moved), atol=1e-5)
    assert not np.allclose(shifted.classify(frame, dice), shifted.classify(frame, dice, top_shift=0.0), atol=1e-4)


def test_top_shift_in_a_region_is_away_from_the_whole_image_centre(shared_data: Path, tmp_path: Path) -> None:
    """Reading the calibrated tray region of a frame, the crops move away from the whole image's centre
    (the camera's), not the region's."""
    item = _sample(labelled.roboflow(shared_data / "dice" / "roboflow-mixed", ["hex-trays"]), 3, most=20)[0]
    frame = read_image(item.path)
    h, w = frame.shape[:2]
    shifted = _with_tuning(tmp_path, top_shift=0.3)
    ox, oy, rw, rh = 40, 100, 500, 400
    cut = frame[oy : oy + rh, ox : ox + rw]
    dice = shifted.detect(cut)
    assert dice
    view = (w / 2 - ox, h / 2 - oy, max(w, h) / 2)
    probs = shifted.classify(cut, dice, view=view)
    kept = [(p, (x, y, s)) for (x, y, s, _), p in zip(dice, probs, strict=True)
            if p[1:].max() >= max(shifted.min_face, p[0])]
    got = shifted.read(frame, (ox, oy, rw, rh))
    assert [r.face for r in got] == [int(np.argmax(p[1:])) + 1 for p, _ in kept]
    assert [r.confidence for r in got] == pytest.approx([float(p[1:].max()) for p, _ in kept], abs=1e-6)
    assert not np.allclose(probs, shifted.classify(cut, dice), atol=1e-4)  # the region's own centre differs


class _Recorder:
    """Stands in for the classifier network: records the blob it is given, answers *a one* for every view."""

    def __init__(self) -> None:
        self.shapes: list[tuple[int, ...]] = []

    def setInput(self, blob: np.ndarray) -> None:  # OpenCV's name
        self.shapes.append(blob.shape)

    def forward(self) -> np.ndarray:
        out = np.zeros((self.shapes[-1][0], 7), np.float32)
        out[:, 1] = 1.0
        return out


def test_the_reader_cuts_crops_of_the_side_its_tuning_names(tmp_path: Path) -> None:
    """``crop`` in tuning.json (session 16's 48 px classifier): every die reaches the classifier at that
    side, at each of its turns; absent, the shipped 32 px."""
    assert NetReader().crop == 32
    reader = _with_tuning(tmp_path, crop=48, turns=2)
    reader._faces = recorder = _Recorder()
    frame = np.full((120, 160), 128, np.uint8)
    probs = reader.classify(frame, [(40.0, 40.0, 20.0, 1.0), (100.0, 60.0, 30.0, 1.0)])
    assert recorder.shapes == [(4, 1, 48, 48)] and probs.shape == (2, 7)


def test_the_games_count_keeps_the_most_die_like_candidates_above_the_floor() -> None:
    heat = np.array([0.6, 0.5, 0.4, 0.01])
    probs = np.zeros((4, 7))
    probs[:, 0] = [0.0, 0.9, 0.0, 0.0]  # the second is hot but clutter
    probs[:, 3] = 1 - probs[:, 0]
    assert most_die_like(heat, probs, 2) == [0, 2]  # clutter ranks under a cooler die
    assert most_die_like(heat, probs, 4) == [0, 2, 1]  # the fourth scores under the floor: fewer, never invented
    assert most_die_like(heat, probs, 0) == [] and most_die_like(np.zeros(0), np.zeros((0, 7)), 3) == []


def test_told_the_games_count_the_network_reads_that_many_dice(shared_data: Path) -> None:
    # three_19.jpg: two threes, and a cable label's printed text the shipped network reads as a third die (a 6)
    # (three_15.jpg's clutter at the top edge until session 19's weights, which read that photo right).
    frame = read_image(shared_data / "dice" / "webcam-train" / "three_19.jpg")
    reader = NetReader(WEIGHTS)
    today = reader.read(frame)
    assert sorted(r.face for r in today) == [3, 3, 6]
    assert reader.read(frame, expected=None) == today and reader.read(frame, expected=0) == today  # no count: as today
    two = reader.read(frame, expected=2)
    assert sorted(r.face for r in two) == [3, 3]
    assert {r.box for r in two} == {r.box for r in today if r.face == 3}  # the same two dice, where they lie
    assert [r.face for r in reader.read(frame, expected=1)] == [3]


def _ensemble_items(shared_data: Path) -> list[labelled.Labelled]:
    items = _sample(labelled.roboflow(shared_data / "dice" / "roboflow-mixed", ["hex-trays"]), 2, most=20)
    return items + _sample(labelled.webcam(shared_data / "dice" / "webcam-train"), 2)


def test_the_shipped_reader_averages_two_classifiers() -> None:
    """Session 21, second step: the shipped tuning lists S's style-randomised classifier beside C's."""
    reader = shared_reader()
    assert reader.faces_extra == ("dice_faces_s.onnx",) and len(reader._faces_extra) == 1


def test_without_faces_extra_the_reader_reads_exactly_as_before(shared_data: Path, tmp_path: Path) -> None:
    """No ``faces_extra`` (every tuning before session 21's second step) or an empty list: each die's probabilities
    are, to the bit, its crop's four quarter turns through the one classifier, averaged (the reader before session
    17), and both read alike."""
    import cv2

    reader = _with_tuning(tmp_path / "absent", drop=("faces_extra",))
    empty = _with_tuning(tmp_path / "empty", faces_extra=[])
    assert reader.faces_extra == () == empty.faces_extra and "faces_extra" not in reader.tuning
    net = cv2.dnn.readNetFromONNX(str(WEIGHTS / CLASSIFIER))
    for item in _ensemble_items(shared_data):
        frame = read_image(item.path)
        dice = reader.detect(frame)
        assert dice
        crops = normalise_crops(np.stack([crop_die(as_channels(frame, 1), x, y, s) for x, y, s, _ in dice]))
        net.setInput(np.ascontiguousarray(np.concatenate([np.rot90(crops, k, axes=(2, 3)) for k in range(4)])))
        before = net.forward().reshape(4, len(dice), -1).mean(axis=0)
        assert np.array_equal(reader.classify(frame, dice), before)
        assert np.array_equal(empty.classify(frame, dice), before)
        assert empty.read(frame) == reader.read(frame)


class _Sure:
    """Stands in for a further classifier: records the blob it is given, answers ``probs`` for every view."""

    def __init__(self, probs: np.ndarray) -> None:
        self.probs, self.shapes = probs.astype(np.float32), []

    def setInput(self, blob: np.ndarray) -> None:  # OpenCV's name
        self.shapes.append(blob.shape)

    def forward(self) -> np.ndarray:
        return np.tile(self.probs, (self.shapes[-1][0], 1))


def test_an_ensemble_averages_its_classifiers_probabilities(shared_data: Path, tmp_path: Path) -> None:
    """``faces_extra`` (session 17): each further classifier reads the same crops at the same turns, and every
    classifier weighs alike. The shipped first classifier beside a copy of itself reads as it does alone; beside a
    classifier sure of a six, each die's probabilities are halfway between the shipped ones and that one's."""
    import shutil

    lone = _with_tuning(tmp_path / "alone", drop=("faces_extra",))  # the first classifier alone
    tmp_path = tmp_path / "ensemble"
    shutil.copytree(WEIGHTS, tmp_path, dirs_exist_ok=True)
    shutil.copy(WEIGHTS / CLASSIFIER, tmp_path / "dice_faces_copy.onnx")
    ensemble = _with_tuning(tmp_path, faces_extra=["dice_faces_copy.onnx"])
    assert ensemble.faces_extra == ("dice_faces_copy.onnx",) and len(ensemble._faces_extra) == 1
    six = np.eye(7)[6]
    for item in _ensemble_items(shared_data):
        frame = read_image(item.path)
        dice = ensemble.detect(frame)
        alone = lone.classify(frame, dice)
        assert np.allclose(ensemble.classify(frame, dice), alone, atol=1e-6)
        assert [(r.face, r.box) for r in ensemble.read(frame)] == [(r.face, r.box) for r in lone.read(frame)]
        copy = ensemble._faces_extra[0]
        ensemble._faces_extra[0] = sure = _Sure(six)
        assert np.allclose(ensemble.classify(frame, dice), (alone + six) / 2, atol=1e-6)
        assert sure.shapes == [(4 * len(dice), 1, 32, 32)]
        ensemble._faces_extra[0] = copy
    (tmp_path / "dice_faces_copy.onnx").unlink()
    with pytest.raises(SensorError, match="cannot load the dice reader's weights"):
        NetReader(tmp_path)


def test_without_crop_contexts_each_die_is_read_at_crop_context_alone(shared_data: Path, tmp_path: Path) -> None:
    """No ``crop_contexts`` (every tuning.json before session 20), or a list of ``crop_context`` alone: each die's
    probabilities are, to the bit, its crop at ``crop_context`` sides read at the tuned quarter turns and averaged
    (the reader before session 20), and both read alike. With the first classifier alone (``faces_extra`` dropped)."""
    import cv2

    absent = _with_tuning(tmp_path / "absent", drop=("crop_contexts", "faces_extra"))
    one = _with_tuning(tmp_path / "one", drop=("faces_extra",), crop_contexts=[absent.context])
    assert absent.contexts == one.contexts == (absent.context,) and "crop_contexts" not in absent.tuning
    net = cv2.dnn.readNetFromONNX(str(WEIGHTS / CLASSIFIER))
    for item in _ensemble_items(shared_data):
        frame = read_image(item.path)
        dice = absent.detect(frame)
        assert dice
        crops = normalise_crops(np.stack([crop_die(as_channels(frame, 1), x, y, s, context=absent.context) for x, y, s, _ in dice]))
        net.setInput(np.ascontiguousarray(np.concatenate([np.rot90(crops, k, axes=(2, 3)) for k in range(absent.turns)])))
        before = net.forward().reshape(absent.turns, len(dice), -1).mean(axis=0)
        assert np.array_equal(absent.classify(frame, dice), before)
        assert np.array_equal(one.classify(frame, dice), before)
        assert one.read(frame) == absent.read(frame)


def test_crop_contexts_average_every_crop_side_and_turn(shared_data: Path, tmp_path: Path) -> None:
    """``crop_contexts`` (session 20): each die is cut at every listed side, each cut read at the tuned turns, every
    view weighing alike: the mean of what the reader reads at each side alone (``context=``, which also overrides
    the list, as the tuning's search asks)."""
    sides = [1.1, 1.25, 1.45]
    reader = _with_tuning(tmp_path, crop_contexts=sides)
    assert reader.contexts == tuple(sides)
    for item in _ensemble_items(shared_data):
        frame = read_image(item.path)
        dice = reader.detect(frame)
        each = [reader.classify(frame, dice, context=c) for c in sides]
        assert np.allclose(reader.classify(frame, dice), np.mean(each, axis=0), atol=1e-6)
        assert not np.allclose(each[0], each[2], atol=1e-4)  # the sides do read differently
