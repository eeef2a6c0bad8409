"""Fake sensors for the UI tests: they write to the app's queue like real ones.

They subclass the real ``hardware.sensor.Sensor`` so the app sees the same
object kind, status flow and queue as with devices.
"""

from __future__ import annotations

import time

from companion.events import ROLL, WHISTLE, Event, Source
from hardware.sensor import Sensor


class FakeSensor(Sensor):
    def __init__(self, name: str, online: bool = True, reason: str = "fake device for tests") -> None:
        self.name = name
        super().__init__()
        self.set_status(online, reason)


class FakeDice(FakeSensor):
    def __init__(self) -> None:
        super().__init__("camera", True, "fake camera (tests)")

    def roll(self, die: str, faces: list[object], confidence: float = 0.97) -> None:
        self.emit(Event(ROLL, {"die": die, "faces": faces}, None, time.time(), Source.CAMERA, confidence))


class FakeWhistle(FakeSensor):
    def __init__(self) -> None:
        super().__init__("microphone", True, "fake microphone (tests)")
        self.level_db = -90.0  # like WhistleSensor: dBFS of the last audio block

    def blow(self, blower: str | None, confidence: float = 0.9, peak_hz: float = 2900.0) -> None:
        now = time.time()
        self.level_db = -12.0
        payload = {"blower": blower, "peak_hz": peak_hz, "onset": now - 0.4, "offset": now}
        self.emit(Event(WHISTLE, payload, blower, now, Source.MICROPHONE, confidence))
