"""What benchmarks/dice_train.py records of a further face classifier in tuning.json (session 22): its
options beside its seed, so the shipped pair's second classifier can be retrained from its record."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from dice_train import face_recipe, parser, record_extra  # noqa: E402

from hardware.dice.net import NetReader  # noqa: E402


def makefile_pair() -> list[str]:
    """The Makefile's DICE_PAIR options: how the shipped second classifier is trained."""
    line = next(x for x in (ROOT / "Makefile").read_text().splitlines() if x.startswith("DICE_PAIR :="))
    return shlex.split(line.split(":=", 1)[1])


def test_the_pairs_second_classifier_records_its_options() -> None:
    args = parser().parse_args(["--out", "somewhere", *makefile_pair()])
    tuning = record_extra({"threshold": 0.2}, args.face_name, face_recipe(args))
    assert tuning["faces_extra"] == ["dice_faces_s.onnx"]
    assert tuning["faces_extra_seeds"] == {"dice_faces_s.onnx": 16}
    recipe = tuning["faces_extra_recipe"]["dice_faces_s.onnx"]
    assert {k: recipe[k] for k in ("face_style", "face_style_share", "seed")} == {
        "face_style": "both", "face_style_share": 0.5, "seed": 16}
    assert recipe["face_steps"] == 6000 and recipe["face_blur"] is False
    assert json.loads(json.dumps(tuning)) == tuning  # written as JSON


def test_retraining_a_classifier_replaces_its_record_and_keeps_the_others() -> None:
    a = parser().parse_args(["--face-name", "a.onnx", "--seed", "3"])
    b = parser().parse_args(["--face-name", "b.onnx", "--face-style", "curve", "--face-style-share", "0.3"])
    tuning = record_extra(record_extra({}, "a.onnx", face_recipe(a)), "b.onnx", face_recipe(b))
    a2 = parser().parse_args(["--face-name", "a.onnx", "--seed", "4"])
    tuning = record_extra(tuning, "a.onnx", face_recipe(a2))
    assert tuning["faces_extra"] == ["b.onnx", "a.onnx"]
    assert tuning["faces_extra_seeds"] == {"a.onnx": 4, "b.onnx": 16}
    assert tuning["faces_extra_recipe"]["a.onnx"]["face_style"] == "none"
    assert tuning["faces_extra_recipe"]["a.onnx"]["face_style_share"] == 0.0
    assert tuning["faces_extra_recipe"]["b.onnx"]["face_style_share"] == 0.3


def test_the_shipped_weights_record_their_second_classifiers_recipe() -> None:
    tuning = json.loads((ROOT / "hardware" / "dice" / "weights" / "tuning.json").read_text())
    args = parser().parse_args(makefile_pair())
    assert tuning["faces_extra_recipe"] == {"dice_faces_s.onnx": face_recipe(args)}
    assert NetReader(ROOT / "hardware" / "dice" / "weights").faces_extra == ("dice_faces_s.onnx",)  # the record is not read
