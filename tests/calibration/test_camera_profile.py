"""Camera calibration: sampled from photo files, written, read back, used."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import camera as wizard
from companion.errors import ConfigError
from hardware.dice.reader import DiceReader
from hardware.testing.dice_render import DICE, empty_tray, render


def _args(**kw) -> argparse.Namespace:
    base = dict(
        backend=None,
        device=None,
        source=None,
        size=None,
        tray=None,
        die=None,
        kind=None,
        faces=None,
        face=[],
        empty=None,
        die_px=None,
        preview=None,
        profile=None,
        config_dir=None,
    )
    return argparse.Namespace(**{**base, **kw})


def _photos(tmp: Path, die: str, light: str, seed: int = 21) -> tuple[str, list[str]]:
    rng = np.random.default_rng(seed)
    empty = tmp / "empty.png"
    cv2.imwrite(str(empty), empty_tray(rng, light))
    faces = []
    for face in DICE[die]:
        frame, _ = render(rng, [(die, face)], light, tilt=False)
        path = tmp / f"{die}-{len(faces)}.png"
        cv2.imwrite(str(path), frame)
        faces.append(f"{face}={path}")
    return str(empty), faces


def test_round_trip_from_photo_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty, faces = _photos(tmp_path, "panic", "warm")
    preview = tmp_path / "preview.png"
    assert (
        wizard.main(
            _args(
                backend="opencv",
                device="0",
                tray=[10, 10, 620, 460],
                die="panic",
                face=faces,
                empty=empty,
                die_px=64.0,
                preview=str(preview),
            )
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "[6/6] panic face 'yellow'" in out and "wrote" in out
    assert preview.is_file()
    profile = wizard.load_profile()
    assert profile.camera["backend"] == "opencv" and profile.camera["device"] == 0
    assert profile.tray == (10, 10, 620, 460)
    panic = profile.dice["panic"]
    assert [f.name for f in panic.faces] == list(DICE["panic"])
    assert panic.kind == "colour" and panic.die_px == 64.0 and panic.tray_lab is not None
    assert all(f.symbol is not None and f.symbol.shape == (24, 24) for f in panic.faces)
    # A second die is added to the same profile; the first stays.
    empty2, faces2 = _photos(tmp_path, "regroup", "warm", seed=22)
    wizard.main(_args(die="regroup", face=faces2, empty=empty2, die_px=64.0))
    profile = wizard.load_profile()
    assert set(profile.dice) == {"panic", "regroup"} and profile.dice["regroup"].kind == "symbol"
    # And the reader built from the profile reads a new photo.
    frame, _ = render(np.random.default_rng(99), [("panic", "green"), ("regroup", "X")], "warm")
    reader = DiceReader.from_profile(profile)
    assert [r.face for r in reader.read(frame, "panic")].count("green") == 1


def test_no_profile_gives_defaults(tmp_path: Path) -> None:
    profile = wizard.load_profile(tmp_path / "none.toml")
    assert profile.tray is None and profile.dice == {} and "defaults" in profile.source


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('version = 1\n[camera]\nbackend = "polaroid"\n', "camera.backend"),
        ("version = 1\n[tray]\nregion = [0, 0, 5]\n", "tray.region"),
        ("version = 1\n[pips]\nkernal = 3\n", "pips.kernal"),
        ("version = 1\n[dice.panic.faces.red]\nlab = [50, 60]\n", "dice.panic.faces.red.lab"),
        ("version = 2\n", "version"),
    ],
)
def test_bad_values_name_file_and_key(tmp_path: Path, text: str, key: str) -> None:
    path = tmp_path / "camera.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        wizard.load_profile(path)
    assert str(path) in str(err.value) and f": {key}: expected" in str(err.value)


def test_two_dice_in_a_calibration_photo_is_refused(tmp_path: Path) -> None:
    frame, _ = render(np.random.default_rng(5), [("panic", "red"), ("panic", "blue")], "cool", tilt=False)
    photo = tmp_path / "two.png"
    cv2.imwrite(str(photo), frame)
    with pytest.raises(wizard.CalibrationError, match="expected one die in view, found 2"):
        wizard.main(_args(die="panic", face=[f"red={photo}"], die_px=64.0))


def test_live_wizard_captures_each_face_from_the_camera(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The "camera" is a video: 5 frames of the empty tray, then 5 frames per face, in the order asked.
    rng = np.random.default_rng(41)
    clips = [empty_tray(rng, "dim")] + [render(rng, [("regroup", f)], "dim", tilt=False)[0] for f in DICE["regroup"]]
    video = tmp_path / "camera.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 15.0, (640, 480))
    for frame in clips:
        for _ in range(5):
            writer.write(frame)
    writer.release()
    asked: list[str] = []
    monkeypatch.setattr("builtins.input", lambda prompt="": asked.append(prompt) or "")
    assert wizard.main(_args(backend="video", source=str(video), die="regroup", die_px=64.0)) == 0
    assert len(asked) == 3 and "'+' on top" in asked[1] and "'X' on top" in asked[2]
    assert "[2/2] regroup face 'X'" in capsys.readouterr().out
    profile = wizard.load_profile()
    assert profile.camera["backend"] == "video" and [f.name for f in profile.dice["regroup"].faces] == ["+", "X"]
    frame, _ = render(np.random.default_rng(42), [("regroup", "X"), ("regroup", "+")], "dim")
    assert sorted(r.face for r in DiceReader.from_profile(profile).read(frame, "regroup")) == ["+", "X"]


# -- the touchscreen's camera wizard (ui.wizards, plain Python) ----------------------------


def _sampled(cam: object, rng: np.random.Generator) -> None:
    """The regroup die captured as the Calibrate screen does: the empty tray, then each face."""
    cam.choose_die("regroup")
    for frame in (empty_tray(rng, "warm"), *(render(rng, [("regroup", f)], "warm", tilt=False)[0] for f in ("+", "X"))):
        cam.preview.see(frame)
        cam.capture()


def test_the_screen_wizard_has_the_running_sensor_use_the_saved_die(tmp_path: Path) -> None:
    from hardware.dice.sensor import DiceSensor
    from hardware.testing.sensors import TableCamera
    from ui.wizards import CameraWizard, FramePreview

    sensor = DiceSensor(TableCamera)
    cam = CameraWizard(FramePreview(), tmp_path / "camera.toml")
    _sampled(cam, np.random.default_rng(3))
    assert cam.save(sensor) == ""
    assert cam.lines[-1].endswith("the camera reads the regroup die now.")
    assert sensor.reader.kinds() == ["d6", "regroup"] and sensor.profile_path == tmp_path / "camera.toml"


def test_the_screen_wizard_starts_afresh_from_a_bad_profile_and_says_why(tmp_path: Path) -> None:
    from ui.wizards import CameraWizard, FramePreview

    path = tmp_path / "camera.toml"
    bad = "version = 1\n[tray]\nregion = [0, 0, 5]\n"
    path.write_text(bad)
    cam = CameraWizard(FramePreview(), path)
    assert cam.profile.dice == {} and cam.lines == [
        f"{path}: tray.region: expected [x, y, width, height] with width and height >= 16, got [0, 0, 5];"
        " Save keeps that file aside and writes a new profile."
    ]

    class Refusing:  # a sensor that cannot use what was saved keeps its old profile
        def reload(self, saved: Path) -> str:
            return f"{saved}: dice.regroup.kind: expected one of colour, symbol"

    _sampled(cam, np.random.default_rng(4))
    error = cam.save(Refusing())
    assert error.endswith("expected one of colour, symbol")
    # The table's file is never overwritten: it is kept beside the new profile, word for word.
    (kept,) = tmp_path.glob("camera.toml.unreadable-*")
    assert kept.read_text() == bad and cam.lines[-2] == f"The unreadable profile is kept as {kept}."
    assert cam.lines[-1] == f"Saved {path}, but the camera keeps its old profile: {error}"
    cam.save(None)
    assert cam.lines[-1] == f"Saved {path}; no camera is open: it reads the regroup die from the next start."
