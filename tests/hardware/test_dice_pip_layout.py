"""The pip-layout second opinion (``hardware/dice/pip_layout.py``) and its fusion in ``NetReader``.

Layouts drawn as points first (what a valid face is), then real photos from the shared data through
the real readers; those skip cleanly when the shared data is absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from companion.errors import SensorError
from hardware.dice import labelled, pip_layout
from hardware.dice.net import CLASSIFIER, DETECTOR, TUNING, WEIGHTS, NetReader, crop_die
from hardware.image_file import read_image

from .test_dice_net import _sample

CHOSEN = pip_layout.LayoutWeights(inside=0.5, centre=8.0)  # session 16's choice (docs/dice.md)


def _face(value: int, step: float = 0.25, turn: float = 0.3, squash: float = 0.8, at=(0.0, 0.0), strength=0.6) -> np.ndarray:
    """A face's pips as candidates (x, y in sides, strength): the layout turned, foreshortened, moved."""
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    xy = (pip_layout.LAYOUTS[value] * step) @ rot.T * np.array([1.0, squash]) + np.array(at)
    return np.concatenate([xy, np.full((value, 1), strength)], axis=1)


@pytest.mark.parametrize("value", range(1, 7))
def test_each_layout_turned_and_foreshortened_reads_its_value(value: int) -> None:
    reading = pip_layout.read_candidates([_face(value)], CHOSEN)
    assert reading is not None and reading.value == value and 0 <= reading.confidence <= 1


def test_a_side_face_beside_the_top_is_not_counted_with_it() -> None:
    """A 3 on top at the box's centre and a squashed 3 on a side face: two triples, not a 6."""
    top = _face(3, step=0.2, turn=0.0, squash=1.0)
    side = _face(3, step=0.15, turn=0.0, squash=0.4, at=(0.0, 0.42), strength=0.5)
    reading = pip_layout.read_candidates([np.concatenate([top, side])], CHOSEN)
    assert reading is not None and reading.value == 3


def _read_die(frame: np.ndarray, x: float, y: float, side: float) -> pip_layout.LayoutReading | None:
    """One die's box read by the layout alone, cut as the reader cuts it."""
    return pip_layout.read_crop(crop_die(frame, x, y, side, pip_layout.CROP_SIDE, pip_layout.CONTEXT), CHOSEN)


def test_no_candidates_is_no_reading() -> None:
    assert pip_layout.read_candidates([np.zeros((0, 3))], CHOSEN) is None
    blank = np.full((80, 80, 3), 120, np.uint8)
    assert _read_die(blank, 40, 40, 40) is None


def test_the_fusion_speaks_only_where_the_network_is_unsure() -> None:
    fusion = pip_layout.LayoutFusion(layout_sure=0.2, net_unsure=0.6, boost=0.25)
    sure_layout = pip_layout.LayoutReading(3, 0.5, 2.0)
    unsure_net = np.array([0.05, 0, 0, 0.35, 0, 0, 0.55])
    assert pip_layout.fuse(unsure_net, sure_layout, fusion) == 3  # 0.35 + 0.25 > 0.55
    assert pip_layout.fuse(np.array([0.0, 0, 0, 0.3, 0, 0, 0.7]), sure_layout, fusion) == 6  # the network is sure
    assert pip_layout.fuse(unsure_net, pip_layout.LayoutReading(3, 0.1, 2.0), fusion) == 6  # the layout is not
    assert pip_layout.fuse(unsure_net, None, fusion) == 6
    assert not pip_layout.LayoutFusion().on()  # the default is off


def _weights_with(tmp_path: Path, **keys: object) -> Path:
    """The shipped weights (linked, the further classifiers in ``faces_extra`` too) with ``keys`` added to their tuning.json."""
    tuning = json.loads((WEIGHTS / TUNING).read_text())
    for name in (DETECTOR, CLASSIFIER, *tuning.get("faces_extra", [])):
        (tmp_path / name).symlink_to(WEIGHTS / name)
    (tmp_path / TUNING).write_text(json.dumps({**tuning, **keys}))
    return tmp_path


def test_the_shipped_reader_leaves_the_layout_off_unless_its_tuning_says() -> None:
    assert not NetReader().layout.on()


def test_a_bad_layout_key_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(SensorError, match="layout_boost"):
        NetReader(_weights_with(tmp_path, layout_sure=0.2, layout_net_unsure=0.6, layout_boost="lots"))


@pytest.mark.parametrize(("group", "floor"), [("webcam-train", 0.85), ("fisheye-tray", 0.55)])
def test_the_layout_alone_reads_real_dice_at_their_labelled_boxes(shared_data: Path, group: str, floor: float) -> None:
    """Regression floors under what the layout alone read at these groups' boxes (60 photos each, session 16:
    webcam-train 0.985, fisheye-tray 0.722; training groups of its weights, seen)."""
    items = (labelled.webcam(shared_data / "dice" / "webcam-train") if group == labelled.WEBCAM
             else labelled.roboflow(shared_data / "dice" / "roboflow-mixed", [group]))
    right = total = 0
    for item in _sample(items, 10, most=5):
        frame = read_image(item.path)
        for d in item.dice:
            reading = _read_die(frame, d.x, d.y, d.size)
            right += reading is not None and reading.value == d.value
            total += 1
    assert total and right / total >= floor, f"{group}: {right}/{total}"


def test_the_fused_reader_reads_real_photos_as_well_as_the_network(shared_data: Path, tmp_path: Path) -> None:
    """Through the real reader, the fusion on: the same photos, no die read worse in count, every reading well formed."""
    fused = NetReader(_weights_with(tmp_path, layout_sure=0.2, layout_net_unsure=0.6, layout_boost=0.25,
                                    layout_inside=0.5, layout_centre=8.0))
    assert fused.layout.on()
    plain = NetReader()
    items = _sample(labelled.roboflow(shared_data / "dice" / "roboflow-mixed", ["iphone-table"]), 6, most=5)
    for item in items:
        frame = read_image(item.path)
        a, b = plain.read(frame), fused.read(frame)
        assert len(b) >= len(a)  # the layout only changes values (and may save a die from *not a die*)
        assert all(r.kind == "pips" and 0 < r.confidence <= 1 and 1 <= r.face <= 6 for r in b)
