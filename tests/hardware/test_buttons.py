"""GPIO buttons through gpiozero's own MockFactory and real Button objects."""

from __future__ import annotations

import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.events import Event
from companion.game import DiceRequest
from hardware.buttons import ButtonMap, ButtonsSensor

FACES = {f"face{i}": 4 + i for i in range(1, 7)}  # face1 -> GPIO5 ... face6 -> GPIO10
CONTROLS = {"confirm": 17, "undo": 27, "whistle": 22}


def press(factory: MockFactory, pin: int, hold: float = 0.06) -> None:
    p = factory.pin(pin)
    p.drive_low()  # buttons are wired to ground: pressed is low
    time.sleep(hold)
    p.drive_high()
    time.sleep(0.06)  # longer than the bounce time


def next_event(q: queue.Queue, timeout: float = 3.0) -> Event:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            item = q.get(timeout=0.05)
        except queue.Empty:
            continue
        if isinstance(item, Event):
            return item
    raise AssertionError("no event")


def no_event(q: queue.Queue, wait: float = 0.3) -> bool:
    time.sleep(wait)
    return not any(isinstance(item, Event) for item in list(q.queue))


@pytest.fixture
def faces_sensor():
    factory = MockFactory()
    sensor = ButtonsSensor(ButtonMap({**FACES, **CONTROLS}, bounce_s=0.02), factory=factory)
    assert sensor.start()
    yield sensor, factory
    sensor.stop()


def test_face_buttons_enter_a_two_dice_roll(faces_sensor) -> None:
    sensor, factory = faces_sensor
    assert sensor.online and sensor.status.reason.startswith("9 buttons, a button per die face")
    sensor.request(DiceRequest("d6", 2))
    press(factory, FACES["face3"])
    progress = next_event(sensor.out)
    assert progress.type == "dice-entry" and progress.payload["entered"] == (3,)
    press(factory, FACES["face5"])
    roll = next_event(sensor.out)
    assert roll.type == "roll" and roll.source.value == "gpio"
    assert dict(roll.payload) == {"die": "d6", "faces": (3, 5)}


def test_contact_bounce_is_one_press() -> None:
    factory = MockFactory()
    # A generous bounce time, so that a loaded test machine's slow sleeps stay inside it.
    sensor = ButtonsSensor(ButtonMap(FACES, bounce_s=0.2), factory=factory)
    assert sensor.start()
    try:
        sensor.request(DiceRequest("d6", 2))
        pin = factory.pin(FACES["face2"])
        for _ in range(4):  # a bouncing contact: several edges within a few milliseconds
            pin.drive_low()
            time.sleep(0.002)
            pin.drive_high()
            time.sleep(0.002)
        assert next_event(sensor.out).payload["entered"] == (2,)
        assert no_event(sensor.out)
        press(factory, FACES["face2"])  # a real second press, after the bounce time
        assert next_event(sensor.out).type == "roll"
    finally:
        sensor.stop()


def test_undo_takes_back_a_die_then_asks_the_app(faces_sensor) -> None:
    sensor, factory = faces_sensor
    sensor.request(DiceRequest("d6", 2))
    press(factory, FACES["face6"])
    assert next_event(sensor.out).payload["entered"] == (6,)
    press(factory, CONTROLS["undo"])
    assert next_event(sensor.out).payload["entered"] == ()
    press(factory, CONTROLS["undo"])
    assert next_event(sensor.out).type == "undo"


def test_colour_die_faces_follow_the_request_and_whistle_button(faces_sensor) -> None:
    sensor, factory = faces_sensor
    sensor.request(DiceRequest("panic", 1, ("blue", "green", "red", "yellow", "black", "white")))
    press(factory, FACES["face2"])
    roll = next_event(sensor.out)
    assert dict(roll.payload) == {"die": "panic", "faces": ("green",)}
    press(factory, CONTROLS["whistle"])
    whistle = next_event(sensor.out)
    assert whistle.type == "whistle" and whistle.payload["blower"] is None and whistle.confidence == 1.0
    press(factory, CONTROLS["confirm"])
    assert next_event(sensor.out).type == "confirm"


def test_step_scheme_counts_up_and_repeats_while_held() -> None:
    factory = MockFactory()
    sensor = ButtonsSensor(ButtonMap({"step": 5, "confirm": 17}, scheme="step", bounce_s=0.01, hold_s=0.1),
                           factory=factory)
    assert sensor.start()
    try:
        sensor.request(DiceRequest("d6", 1))
        press(factory, 5)
        assert next_event(sensor.out).payload["value"] == 2
        factory.pin(5).drive_low()
        time.sleep(0.35)  # held: the press, then a repeat every 0.1 s
        factory.pin(5).drive_high()
        values = []
        while not sensor.out.empty():
            item = sensor.out.get()
            if isinstance(item, Event):
                values.append(item.payload["value"])
        assert values[0] == 3 and len(values) >= 3 and values == sorted(values)
        shown = sensor.value
        time.sleep(0.1)
        press(factory, 17)
        roll = next_event(sensor.out)
        assert roll.type == "roll" and roll.payload["faces"] == (shown,)
    finally:
        sensor.stop()


def test_no_gpio_means_offline_with_a_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BELLWETHER_BUTTONS_BACKEND", raising=False)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    sensor = ButtonsSensor(ButtonMap({"confirm": 17}))
    assert sensor.start() is False
    assert not sensor.online
    assert "no GPIO" in sensor.status.reason and "touchscreen" in sensor.status.reason
    status = sensor.out.get_nowait()
    assert not status.online
