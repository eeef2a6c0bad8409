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
    assert "[3/3] whistle on pin 22: ok" in out
    m = wizard.load_profile()
    assert dict(m.pins) == {"confirm": 17, "undo": 27, "whistle": 22} and m.scheme == "faces"
    assert m.bounce_s == 0.03 and m.pull_up is True


def test_a_swapped_wire_is_reported(mock_pins: MockFactory) -> None:
    presser = _press_in_turn(mock_pins, [27])
    with pytest.raises(wizard.CalibrationError, match=r"expected the confirm button \(pin 17\) but undo \(pin 27\)"):
        wizard.main(_args(pin=["confirm=17", "undo=27"]))
    presser.join()
    assert not wizard.profile_path().exists()


def test_no_press_times_out(mock_pins: MockFactory) -> None:
    with pytest.raises(wizard.CalibrationError, match="no press of the confirm button"):
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
