"""``bellwether dice read/eval`` and ``calibrate camera`` as users run them (subprocesses)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from hardware.testing.dice_render import DICE, empty_tray, render


# four_21.jpg (three fours). four_20.jpg was left out when the fourth session's weights read a third die (printed
# text) on it; session 19's weights read it right, but any one photo's errors move with the weights, so the test
# keeps a photo both read right.
def test_read_json_on_a_real_photo(cli, shared_data: Path) -> None:
    r = cli("dice", "read", str(shared_data / "dice" / "webcam-train" / "four_21.jpg"), "--json")
    assert r.returncode == 0, r.stderr
    dice = json.loads(r.stdout)["dice"]
    assert [d["face"] for d in dice] == [4, 4, 4]
    for d in dice:
        assert d["kind"] == "pips" and 0 <= d["confidence"] <= 1 and len(d["box"]) == 4
    plain = cli("dice", "read", str(shared_data / "dice" / "webcam-train" / "four_21.jpg"))
    assert plain.stdout.count("pips 4") == 3


def test_eval_json_on_a_manifest(cli, shared_data: Path, tmp_path: Path) -> None:
    folder = shared_data / "dice" / "webcam-train"
    rows = (folder / "manifest.csv").read_text().splitlines()
    picked = [rows[0]] + [r for r in rows[1:] if r.split(",")[0] in {"four_21.jpg", "dice_1.jpg", "six_10.jpg"}]
    manifest = tmp_path / "manifest.csv"
    # Paths relative to the manifest, as the format says.
    manifest.write_text("\n".join([picked[0]] + [f"{folder / r.split(',')[0]},{r.split(',', 1)[1]}" for r in picked[1:]]))
    r = cli("dice", "eval", str(manifest), "--json")
    assert r.returncode == 0, r.stderr
    figures = json.loads(r.stdout)
    assert set(figures) == {"images", "image_accuracy", "die_accuracy", "count_accuracy",
                            "ms_per_frame_p50", "ms_per_frame_p95", "confusion"}
    assert figures["images"] == 3 and figures["image_accuracy"] == 1.0
    assert len(figures["confusion"]) == 6 and all(len(row) == 6 for row in figures["confusion"])
    assert figures["confusion"][3][3] == 3 and figures["ms_per_frame_p50"] > 0
    text = cli("dice", "eval", str(manifest))
    assert "image accuracy    1.000" in text.stdout


def test_errors_are_one_line(cli, tmp_path: Path) -> None:
    r = cli("dice", "read", str(tmp_path / "missing.png"))
    assert r.returncode == 1 and r.stderr.strip().count("\n") == 0 and "cannot read the image" in r.stderr
    bad = tmp_path / "bad.csv"
    bad.write_text("path,values,count\nx.jpg,1 2,3\n")
    r = cli("dice", "eval", str(bad))
    assert r.returncode == 1 and f"{bad}:2: count 3 does not match the 2 values" in r.stderr
    assert "Traceback" not in r.stderr
    r = cli("dice", "read", str(tmp_path / "missing.png"), "--die", "panic")
    assert r.returncode == 1 and "Traceback" not in r.stderr


def test_calibrate_camera_then_read_a_colour_die(cli, tmp_path: Path) -> None:
    rng = np.random.default_rng(31)
    cv2.imwrite(str(tmp_path / "empty.png"), empty_tray(rng, "cool"))
    faces = []
    for i, face in enumerate(DICE["panic"]):
        frame, _ = render(rng, [("panic", face)], "cool", tilt=False)
        cv2.imwrite(str(tmp_path / f"f{i}.png"), frame)
        faces += ["--face", f"{face}={tmp_path / f'f{i}.png'}"]
    r = cli("calibrate", "camera", "--die", "panic", "--die-px", "64", "--empty", str(tmp_path / "empty.png"), *faces)
    assert r.returncode == 0, r.stderr
    assert "[6/6]" in r.stdout
    frame, _ = render(rng, [("panic", "black"), ("panic", "green")], "cool")
    cv2.imwrite(str(tmp_path / "roll.png"), frame)
    r = cli("dice", "read", str(tmp_path / "roll.png"), "--die", "panic", "--json")
    assert r.returncode == 0, r.stderr
    dice = json.loads(r.stdout)["dice"]
    assert sorted(d["face"] for d in dice) == ["black", "green"] and {d["kind"] for d in dice} == {"colour"}
    r = cli("dice", "read", str(tmp_path / "roll.png"), "--die", "sheep-hop")
    assert r.returncode == 1 and "has not been calibrated" in r.stderr


def test_calibrate_buttons_without_gpio_is_one_line(cli) -> None:
    r = cli("calibrate", "buttons", "--pin", "confirm=17", env={"BELLWETHER_BUTTONS_BACKEND": "", "GPIOZERO_PIN_FACTORY": ""})
    assert r.returncode == 1 and "cannot check the buttons" in r.stderr and "--no-check" in r.stderr
    assert r.stderr.strip().count("\n") == 0, r.stderr
    r = cli("calibrate", "buttons", "--pin", "confirm=17", "--no-check")
    assert r.returncode == 0 and "wrote" in r.stdout


def test_calibrate_camera_with_nobody_to_answer_says_so_in_one_line(cli, tmp_path: Path) -> None:
    """The live wizard asks at the terminal; with standard input closed it stops cleanly, saving nothing."""
    cv2.imwrite(str(tmp_path / "tray.png"), empty_tray(np.random.default_rng(5), "warm"))
    profile = tmp_path / "camera.toml"
    profile.write_text(f'version = 1\n[camera]\nbackend = "image"\npath = "{tmp_path / "tray.png"}"\n')
    r = cli("calibrate", "camera", "--die", "panic", "--profile", str(profile), input="")
    assert r.returncode == 1 and r.stderr.strip().splitlines() == [
        "bellwether: no answer (standard input is closed); run it at a terminal"
    ]
    assert "Traceback" not in r.stderr and "panic" not in profile.read_text()
