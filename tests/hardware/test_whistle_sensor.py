"""The microphone sensor: detections become companion events; device loss is survived."""

from __future__ import annotations

import contextlib
import queue
import time

import numpy as np

from companion.events import Event, Source
from hardware.audio import ArraySource, PyAudioSource
from hardware.sensor import SensorStatus
from hardware.testing import audio as ta
from hardware.whistle.sensor import WhistleSensor

T0 = 1_800_000_000.0


def two_blows() -> np.ndarray:
    x = ta.pink_noise(4.0, amp=0.005)
    ta.place(x, ta.tone(2500, 0.4), 1.0)
    ta.place(x, ta.harmonic_toy(1500, 0.4), 2.5)
    return x


def drain(q: queue.Queue) -> list:
    return [q.get_nowait() for _ in range(q.qsize())]


def test_detections_become_whistle_events_in_epoch_time():
    sensor = WhistleSensor(ArraySource(two_blows()), clock=lambda: T0)
    sensor.run()  # a recording: runs to its end in this thread
    items = drain(sensor.out)
    events = [i for i in items if isinstance(i, Event)]
    statuses = [i for i in items if isinstance(i, SensorStatus)]
    assert [s.online for s in statuses] == [True, False] and statuses[-1].reason == "end of recording"
    assert len(events) == 2
    # The first block (64 ms) arrived "now", so stream time t is T0 - 0.064 + t.
    for e, onset in zip(events, (1.0, 2.5), strict=True):
        assert e.type == "whistle" and e.source is Source.MICROPHONE and e.player is None
        assert set(e.payload) == {"blower", "peak_hz", "onset", "offset", "detected_at"}
        assert abs(e.get("onset") - (T0 - 0.064 + onset)) < 0.05
        assert e.time == e.get("detected_at") or abs(e.time - e.get("detected_at")) < 1e-3
        assert 0 < e.time - (T0 - 0.064 + onset) <= 0.2
        assert 0.5 <= e.confidence <= 1.0
    assert [round(e.get("peak_hz"), -2) for e in events] == [2500, 1500]


def test_sensor_survives_device_loss_and_keeps_hearing():
    blow = ta.pink_noise(1.0, amp=0.005)
    ta.place(blow, ta.tone(2500, 0.4), 0.3)
    dev = ta.FakeDevice("USB mic", signal=blow, fail_after_blocks=20, unavailable_opens=1)
    pa = ta.FakePyAudio([dev])
    sensor = WhistleSensor(PyAudioSource("USB", stall_s=0.5, pyaudio_factory=lambda: pa), backoff=(0.02, 0.05))
    sensor.start()
    seen: list = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with contextlib.suppress(queue.Empty):
            seen.append(sensor.out.get(timeout=0.05))
        online = [i for i, s in enumerate(seen) if isinstance(s, SensorStatus) and s.online]
        if len(online) >= 2 and any(isinstance(e, Event) for e in seen[online[-1] :]):
            break
    sensor.stop()
    assert not sensor.running
    online = [s.online for s in seen if isinstance(s, SensorStatus)]
    assert online[:2] == [True, False] and online.count(True) >= 2
    # Whistles were heard before the loss and again after the device came back.
    kinds = ["status" if isinstance(i, SensorStatus) else "event" for i in seen]
    first_off = next(i for i, s in enumerate(seen) if isinstance(s, SensorStatus) and not s.online)
    assert "event" in kinds[:first_off] and "event" in kinds[first_off:]
