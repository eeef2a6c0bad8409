"""Colour and symbol dice: rendered photos (hardware.testing.dice_render)
calibrated and read under warm, cool and dim light, with shadows and tilt."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from hardware.dice.colour import ColourDie, classify, describe, read_colour_dice, sample_face, symbol_similarity
from hardware.testing.dice_render import DICE, empty_tray, render


@cache  # calibration renders a photo per face: do it once per die and light
def calibrate(die: str, light: str, seed: int = 7) -> ColourDie:
    from calibration.camera import tray_colour

    rng = np.random.default_rng(seed)
    tray = tray_colour(empty_tray(rng, light), None)
    faces = []
    for face in DICE[die]:
        frame, _ = render(rng, [(die, face)], light, tilt=False)
        faces.append(sample_face(frame, face, 64.0, tray))
    return ColourDie(die, "symbol" if die == "regroup" else "colour", tuple(faces), 64.0, tray)


def _read_all(die: str, light: str, images: int, seed: int) -> tuple[int, int]:
    calibrated = calibrate(die, light)
    rng = np.random.default_rng(seed)
    right = total = 0
    faces = list(DICE[die])
    for i in range(images):
        picks = [(die, faces[(i + k) % len(faces)]) for k in range(2)]
        frame, placed = render(rng, picks, light)
        readings = read_colour_dice(frame, calibrated)
        for p in placed:
            total += 1
            near = [r for r in readings if abs(r.centre[0] - p.centre[0]) < 20 and abs(r.centre[1] - p.centre[1]) < 20]
            right += len(near) == 1 and near[0].face == p.face
    return right, total


@pytest.mark.parametrize("light", ["warm", "cool", "dim"])
@pytest.mark.parametrize("die", ["panic", "regroup", "sheep-hop"])
def test_every_face_read_under_each_light(die: str, light: str) -> None:
    right, total = _read_all(die, light, images=4, seed=100)
    assert total == 8
    assert right >= total - 1, f"{die} under {light} light: {right}/{total}"


def test_black_and_green_and_white_and_yellow_stay_apart() -> None:
    panic = calibrate("panic", "dim")
    by_name = {f.name: f for f in panic.faces}
    for a, b in (("black", "green"), ("white", "yellow")):
        rng = np.random.default_rng(3)
        for face in (a, b):
            frame, _placed = render(rng, [("panic", face)], "dim")
            (reading,) = read_colour_dice(frame, panic)
            assert reading.face == face
            assert reading.confidence > 0.8
    assert np.linalg.norm(np.subtract(by_name["black"].lab, by_name["green"].lab)) > 15


def test_plus_and_cross_differ_by_symbol_not_colour() -> None:
    regroup = calibrate("regroup", "warm")
    plus, cross = regroup.faces
    assert np.linalg.norm(np.subtract(plus.lab, cross.lab)) < 15  # same ink
    assert symbol_similarity(plus.symbol, cross.symbol) < 0.5
    assert symbol_similarity(plus.symbol, np.rot90(plus.symbol)) > 0.9  # a die may land any way round


def test_side_faces_do_not_change_the_reading() -> None:
    panic = calibrate("panic", "cool")
    rng = np.random.default_rng(11)
    for _ in range(5):
        frame, _placed = render(rng, [("panic", "red")], "cool", tilt=True)
        assert [r.face for r in read_colour_dice(frame, panic)] == ["red"]


def test_confidence_is_a_probability_over_faces() -> None:
    panic = calibrate("panic", "warm")
    frame, _placed = render(np.random.default_rng(5), [("panic", "blue")], "warm", tilt=False)
    from hardware.dice.colour import find_dice, top_patch

    ((centre, side, angle),) = find_dice(frame, 64.0, panic.tray_lab)
    face, conf, probs = classify(top_patch(frame, centre, side, angle), panic)
    assert face == "blue" and conf == max(probs.values())
    assert abs(sum(probs.values()) - 1.0) < 1e-6
    lab, symbol = describe(top_patch(frame, centre, side, angle))
    assert symbol.shape == (24, 24) and 0 <= lab[0] <= 100


def test_empty_tray_has_no_dice() -> None:
    panic = calibrate("panic", "warm")
    assert read_colour_dice(empty_tray(np.random.default_rng(9), "warm"), panic) == []


# -- a new profile while the dice sensor runs ---------------------------------------


def _panic_sensor(tmp_path, **kw):
    """A DiceSensor that knows pip dice only, waiting for the panic die."""
    from companion.game import DiceRequest
    from hardware.dice.sensor import DiceSensor
    from hardware.testing.sensors import TableCamera

    camera = TableCamera()
    sensor = DiceSensor(lambda: camera, None, fps=60.0, **kw)
    sensor.request(DiceRequest("panic", 1))
    return sensor, camera


def _save_panic_profile(path, tray=(20, 20, 600, 440)):
    from calibration.camera import CameraProfile

    return CameraProfile(tray=tray, dice={"panic": calibrate("panic", "warm")}).save(path)


def _rolls(sensor, frame, frames: int = 12) -> list[list[str]]:
    events = [sensor.process(frame) for _ in range(frames)]
    return [list(e.payload["faces"]) for e in events if e is not None]


def test_a_profile_saved_while_running_reads_the_next_roll(tmp_path) -> None:
    from companion.errors import SensorError

    sensor, _camera = _panic_sensor(tmp_path)
    rng = np.random.default_rng(31)
    lying, _ = render(rng, [("panic", "yellow")], "warm", tilt=False)  # the last face sampled, still there
    with pytest.raises(SensorError, match="not been calibrated"):
        _rolls(sensor, lying)
    assert sensor.reload(_save_panic_profile(tmp_path / "camera.toml")) is None
    assert sensor.reader.region == (20, 20, 600, 440) == sensor.settle.region
    assert _rolls(sensor, lying, 20) == []  # the die left lying from calibration is no roll
    # Each render is a new tray too (blotches, light gradient): the settle detector takes
    # such a still change for a hand until it stays (accept_after frames), then reads it once.
    rolled, _ = render(rng, [("panic", "red")], "warm", tilt=False)
    assert _rolls(sensor, rolled, 60) == [["red"]]


def test_a_bad_profile_is_one_line_and_the_old_one_stays(tmp_path) -> None:
    good = _save_panic_profile(tmp_path / "camera.toml")
    sensor, _camera = _panic_sensor(tmp_path)
    assert sensor.reload(good) is None
    reader = sensor.reader
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text().replace("region = [20, 20, 600, 440]", "region = [20, 20, 600]"))
    error = sensor.reload(bad)
    assert error == f"{bad}: tray.region: expected [x, y, width, height] with width and height >= 16, got [20, 20, 600]"
    assert sensor.reader is reader and sensor.profile_error == error
    bad.write_text("version = 1\n[dice.panic")
    assert sensor.reload(bad).startswith(f"{bad}: (file): expected valid TOML")
    assert sensor.reader is reader


def test_the_running_sensor_notices_a_profile_written_beside_it(tmp_path) -> None:
    """``bellwether calibrate camera`` run while the app is open: the watched file changes."""
    import time

    path = tmp_path / "camera.toml"
    sensor, _camera = _panic_sensor(tmp_path, profile_path=path, watch_s=0.05)
    sensor.start()
    try:
        _save_panic_profile(path)
        deadline = time.monotonic() + 5
        while "panic" not in sensor.reader.kinds() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sensor.reader.kinds() == ["d6", "panic"] and sensor.profile_error == ""
        (tmp_path / "new.toml").write_text("version = 7\n")
        (tmp_path / "new.toml").replace(path)  # saved whole, as the wizards save
        kept = "(not used, the old profile stays)"
        while not sensor.status.reason.endswith(kept) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sensor.status.reason.endswith(kept) and sensor.status.online
        assert sensor.profile_error.startswith(f"{path}: version: expected 1")
        assert "panic" in sensor.reader.kinds()  # the old profile stays
    finally:
        sensor.stop()
