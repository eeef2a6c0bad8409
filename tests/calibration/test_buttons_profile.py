"""Buttons calibration: a mapping written, read back, checked by pressing
each button through gpiozero's MockFactory."""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from calibration import buttons as wizard
from companion.errors import ConfigError


def _args(**kw) -> argparse.Namespace:
    base = dict(pin=[], from_file=None, scheme=None, backend=None, no_check=False, timeout=2.0, profile=None,
                config_dir=None)
    return argparse.Namespace(**{**base, **kw})


@pytest.fixture
def mock_pins(monkeypatch: pytest.MonkeyPatch):
    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    monkeypatch.setenv("BELLWETHER_BUTTONS_BACKEND", "mock")
    yield factory
    factory.reset()


def _press_in_turn(factory: MockFactory, pins: list[int]) -> threading.Thread:
    def run() -> None:
        for pin in pins:
            time.sleep(0.15)
            factory.pin(pin).drive_low()
            time.sleep(0.05)
            factory.pin(pin).drive_high()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_mapping_checked_by_presses_and_read_back(mock_pins: MockFactory, capsys: pytest.CaptureFixture[str]) -> None:
    presser = _press_in_turn(mock_pins, [17, 27, 22])
    assert wizard.main(_args(pin=["confirm=17", "undo=27", "whistle=22"])) == 0
    presser.join()
    out = capsys.readouterr().out
    assert "[3/3] Whistle on pin 22: ok" in out
    m = wizard.load_profile()
    assert dict(m.pins) == {"confirm": 17, "undo": 27, "whistle": 22} and m.scheme == "faces"
    assert m.bounce_s == 0.03 and m.pull_up is True


def test_a_swapped_wire_is_reported(mock_pins: MockFactory) -> None:
    presser = _press_in_turn(mock_pins, [27])
    with pytest.raises(wizard.CalibrationError, match=r"expected the OK \(confirm\) button \(pin 17\) but Undo \(pin 27\)"):
        wizard.main(_args(pin=["confirm=17", "undo=27"]))
    presser.join()
    assert not wizard.profile_path().exists()


def test_no_press_times_out(mock_pins: MockFactory) -> None:
    with pytest.raises(wizard.CalibrationError, match=r"no press of the OK \(confirm\) button"):
        wizard.main(_args(pin=["confirm=17"], timeout=0.2))


def test_from_file_without_check(tmp_path: Path) -> None:
    src = tmp_path / "pins.toml"
    src.write_text('version = 1\nscheme = "step"\nhold_ms = 300\n[pins]\nstep = 5\nconfirm = "GPIO17"\n')
    assert wizard.main(_args(from_file=str(src), no_check=True)) == 0
    m = wizard.load_profile()
    assert m.scheme == "step" and dict(m.pins) == {"step": 5, "confirm": "GPIO17"} and m.hold_s == 0.3


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("version = 1\n[pins]\nconfirm = 99\n", "pins.confirm"),
        ("version = 1\n[pins]\nlaunch = 4\n", "pins.launch"),
        ("version = 1\n[pins]\nconfirm = 4\nundo = 4\n", "pins.undo"),
        ('version = 1\nscheme = "dial"\n[pins]\nconfirm = 4\n', "scheme"),
        ("version = 1\nbounce_ms = -1\n[pins]\nconfirm = 4\n", "bounce_ms"),
    ],
)
def test_bad_values_name_file_and_key(tmp_path: Path, text: str, key: str) -> None:
    path = tmp_path / "buttons.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        wizard.load_profile(path)
    assert str(path) in str(err.value) and f": {key}: expected" in str(err.value)


# -- the on-screen wizard's parts (ui.wizards.ButtonSetup over real Buttons on mock pins) ----------------
def _press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    time.sleep(0.02)
    factory.pin(pin).drive_high()
    time.sleep(0.05)


def test_builder_refuses_a_pin_twice_and_needs_every_face() -> None:
    b = wizard.ProfileBuilder("step")
    assert b.press(5) == "Step (counts the die up): pin 5."
    assert b.press(5).startswith("That button is already Step (counts the die up): press a different one for OK")
    assert b.current == "confirm" and b.pins == {"step": 5}
    with pytest.raises(wizard.CalibrationError, match=r"Not saved: OK \(confirm\) still need a button"):
        b.mapping()
    b.press(6)
    b.redo()
    assert b.current == "confirm" and "confirm" not in b.pins
    b.press(7)
    b.skip()
    b.skip()
    assert b.done and dict(b.mapping().pins) == {"step": 5, "confirm": 7}


def test_on_screen_setup_saves_and_the_running_sensor_reloads(mock_pins: MockFactory, tmp_path: Path) -> None:
    from companion.events import ROLL
    from companion.game import DiceRequest
    from hardware.buttons import ButtonMap, ButtonsSensor
    from ui.sensors import SensorHub
    from ui.wizards import ButtonSetup

    hub = SensorHub(specs=())
    old = ButtonsSensor(ButtonMap(pins={"confirm": 17}, backend="mock"), factory=mock_pins)
    hub.add(old)
    old.start()
    path = tmp_path / "buttons.toml"
    path.write_text("version = 1\ncandidate_pins = [17, 22, 23]\n[pins]\nconfirm = 17\n")
    setup = ButtonSetup(hub, "step", path)
    setup.start()
    assert setup.running and not old.online  # the pins are lent to the wizard
    assert sorted(setup.listener.buttons) == [17, 22, 23]
    for pin in (22, 17):
        _press(mock_pins, pin)
    assert setup.poll() == ["Step (counts the die up): pin 22.", "OK (confirm): pin 17."]
    assert setup.save().startswith("Saved: the buttons work now")
    assert hub.sensors["buttons"] is old and old.online and dict(old.map.pins) == {"step": 22, "confirm": 17}
    assert dict(wizard.load_profile(path).pins) == {"step": 22, "confirm": 17}
    assert wizard.candidate_pins(path) == (17, 22, 23)  # kept in the profile
    while not hub.queue.empty():
        hub.queue.get()
    old.request(DiceRequest("d6", 1, (1, 2, 3, 4, 5, 6)))
    for pin in (22, 22, 17):  # step 1 -> 2 -> 3, then OK: one die showing 3
        _press(mock_pins, pin)
    deadline = time.monotonic() + 2
    rolls = []
    while time.monotonic() < deadline and not rolls:
        events, _ = hub.drain()
        rolls = [e for e in events if e.type == ROLL]
        time.sleep(0.02)
    assert rolls and list(rolls[0].payload["faces"]) == [3]
    old.stop()


def test_cancel_gives_the_pins_back(mock_pins: MockFactory, tmp_path: Path) -> None:
    from hardware.buttons import ButtonMap, ButtonsSensor
    from ui.sensors import SensorHub
    from ui.wizards import ButtonSetup

    hub = SensorHub(specs=())
    sensor = ButtonsSensor(ButtonMap(pins={"confirm": 17}, backend="mock"), factory=mock_pins)
    hub.add(sensor)
    sensor.start()
    setup = ButtonSetup(hub, "faces", tmp_path / "buttons.toml")
    setup.start()
    setup.cancel()
    assert sensor.online and not (tmp_path / "buttons.toml").exists()
    sensor.stop()


def test_on_screen_setup_without_gpio_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A desktop (no header): one line in words, nothing written."""
    from hardware.buttons import pin_factory
    from ui.sensors import SensorHub
    from ui.wizards import ButtonSetup

    monkeypatch.delenv("BELLWETHER_BUTTONS_BACKEND", raising=False)
    try:
        pin_factory(None)
    except Exception:
        pass
    else:
        pytest.skip("this machine has GPIO pins")
    setup = ButtonSetup(SensorHub(specs=()), "faces", tmp_path / "buttons.toml")
    setup.start()
    assert setup.state == "failed" and setup.error.startswith("No GPIO pins here")
    assert not (tmp_path / "buttons.toml").exists()
