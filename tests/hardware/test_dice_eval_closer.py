"""``dice_eval.closer``: a labelled photo as a camera a few times closer would take it (session 27's --zoom)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from hardware.dice import labelled

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from dice_eval import closer, zoomed


def _photo(*dice: tuple[float, float, float]) -> tuple[np.ndarray, labelled.Labelled]:
    """A 640 x 480 grey photo with a white square where each die (x, y, side) lies, labelled 3."""
    frame = np.zeros((480, 640, 3), np.uint8)
    for x, y, s in dice:
        frame[round(y - s / 2) : round(y + s / 2), round(x - s / 2) : round(x + s / 2)] = 255
    item = labelled.Labelled(Path("photo.jpg"), "test", "u", tuple(labelled.LabelledDie(x, y, s, 3) for x, y, s in dice))
    return frame, item


def test_the_dice_are_enlarged_with_their_labels_and_the_window_stays_in_the_photo() -> None:
    frame, item = _photo((100.0, 100.0, 40.0), (180.0, 140.0, 40.0))
    view, near = closer(frame, item, 2.0)
    out = view()
    assert out.shape == frame.shape and near.values == item.values
    assert [d.size for d in near.dice] == [80.0, 80.0]
    for d in near.dice:  # each label lies on its enlarged white square, inside the frame
        assert d.size / 2 <= d.x <= 640 - d.size / 2 and d.size / 2 <= d.y <= 480 - d.size / 2
        assert out[round(d.y), round(d.x)].min() == 255
        assert out[round(d.y - 0.6 * d.size), round(d.x)].max() == 0  # the square ends where its label does
    # the dice lie near the photo's corner: the window is moved inside the photo, not cut by its edge
    assert near.dice[0].x == 200.0 and near.dice[0].y == 200.0


def test_a_photo_whose_dice_do_not_fit_the_window_is_left_out() -> None:
    frame, item = _photo((100.0, 100.0, 40.0), (500.0, 100.0, 40.0))  # 440 px apart: more than 640 / 2
    assert closer(frame, item, 2.0) is None and closer(frame, item, 1.4) is not None
    assert closer(frame, labelled.Labelled(Path("empty.jpg"), "test", "u", ()), 2.0) is None
    assert [len(g) for g in zoomed({"test": [(frame, item)]}, 2.0).values()] == [0]


def test_a_camera_farther_shrinks_the_photo_about_its_centre_with_its_labels() -> None:
    """Session 28: a zoom under 1 is a camera 1/zoom times farther: the photo shrunk about its centre, its edges'
    pixels carried out, every die kept at its new place and size."""
    frame, item = _photo((100.0, 100.0, 40.0), (500.0, 100.0, 40.0))
    frame[:, :, 1] = np.maximum(frame[:, :, 1], 60)  # a table colour the edges carry out
    view, far = closer(frame, item, 0.5)
    out = view()
    assert out.shape == frame.shape and far.values == item.values
    assert [(d.x, d.y, d.size) for d in far.dice] == [(210.0, 170.0, 20.0), (410.0, 170.0, 20.0)]
    for d in far.dice:
        assert out[round(d.y), round(d.x)].min() == 255
    assert tuple(out[5, 5]) == (0, 60, 0) and tuple(out[475, 635]) == (0, 60, 0)  # the table, not black


def _closer_reads(shared_data: Path, tmp_path: Path, group: str, zoom: float, step: int, dropped: tuple[str, ...],
                  dice: int) -> tuple[int, int]:
    """Dice read right by the shipped reader and by a copy without the ``dropped`` tuning keys, of every ``step``-th
    photo of ``group`` (by name) as a camera ``zoom`` times closer would take it (12 views, ``dice`` dice in all)."""
    import json
    import shutil

    from dice_eval import match

    from hardware.dice.net import WEIGHTS, NetReader, shared_reader

    shutil.copytree(WEIGHTS, tmp_path, dirs_exist_ok=True)
    tuning = json.loads((tmp_path / "tuning.json").read_text())
    (tmp_path / "tuning.json").write_text(json.dumps({k: v for k, v in tuning.items() if k not in dropped}))
    without = NetReader(tmp_path)
    items = sorted(labelled.real_groups(shared_data)[group], key=lambda i: i.path.name)
    views = [v for v in (closer(None, i, zoom) for i in items[::step]) if v is not None][:12]
    assert sum(len(item.dice) for _, item in views) == dice
    shipped = sum(match(item.dice, shared_reader().read(view())) for view, item in views)
    return shipped, sum(match(item.dice, without.read(view())) for view, item in views)


def test_the_shipped_reader_reads_large_dice_a_closer_camera_sees(shared_data: Path, tmp_path: Path) -> None:
    """Session 28 (G30 shipped: the coarser looks and the guarded half look): fisheye-tray's photos as a camera twice
    as close would take them (their dice about 200 px at the detector's scale), read by the shipped weights with and
    without those read-time options. Measured: 11 of 12 dice against 7 (the held-out figure: docs/dice.md)."""
    from dice_train import READ_TIME

    shipped, plain = _closer_reads(shared_data, tmp_path, "fisheye-tray", 2.0, 7, tuple(READ_TIME), 12)
    assert shipped >= 10 and plain <= 8


def test_the_shipped_reader_reads_the_webcams_dice_three_times_closer(shared_data: Path, tmp_path: Path) -> None:
    """Session 29 (C1 shipped: ``half_large``, ``half_cover``): webcam-train's photos as a camera three times as close
    would take them (dice of 250-450 px, whose pips the first pass takes for small dice), read by the shipped weights
    with and without those two options. Measured: 12 of 13 dice against 6 (the held-out figure: docs/dice.md)."""
    shipped, plain = _closer_reads(shared_data, tmp_path, "webcam-train", 3.0, 7, ("half_large", "half_cover"), 13)
    assert shipped >= 11 and plain <= 8


def test_the_training_recipe_writes_the_read_time_options_that_ship() -> None:
    """``make train-dice`` (``dice_train.py --tune-only --read-time``) rebuilds the shipped tuning's read-time options."""
    import json

    from dice_train import READ_TIME

    from hardware.dice.net import TUNING, WEIGHTS

    shipped = json.loads((WEIGHTS / TUNING).read_text())
    assert {k: shipped[k] for k in READ_TIME} == READ_TIME
