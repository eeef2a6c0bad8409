"""The combined detector's doubts (session 23): a real blow the gate refuses over a real dog is not reported, but the
detector says it doubted; the dog alone raises no doubt; a clear real blow is reported, with no doubt beside it.
The real WhistleSensor passes a doubt on as a ``whistle-doubt`` notice, never as a whistle."""

from __future__ import annotations

import queue
from pathlib import Path

import numpy as np
import pytest

from companion.events import WHISTLE
from hardware.audio import ArraySource, read_wav, resample
from hardware.signals import noise
from hardware.testing import whistle_synth as ws
from hardware.whistle.combined import CombinedDetector
from hardware.whistle.detector import Detection
from hardware.whistle.sensor import DOUBT, WhistleSensor

ROBOT = Path("whistle") / "robot-clips" / "whistle" / "whistle_2015_07_18_051223_vali.wav"
DOG = Path("whistle") / "esc10-negatives" / "001 - Dog bark" / "2-114280-A.wav"


def _mix(shared: Path) -> tuple[np.ndarray, np.ndarray, tuple[float, float]]:
    """As a live microphone hears it: a second of a quiet room, then the dog's first 3 s at -30 dBFS with 0.4-0.5 s of
    the real blow 3 dB over it, the room's noise (-50 dBFS) under all of it; the same without the blow; the blow's
    span (s)."""
    blow = ws.blow_piece(resample(*read_wav(shared / ROBOT)))
    dog = resample(*read_wav(shared / DOG))[: 3 * 16000]
    rng = np.random.default_rng(0)
    scene = ws.scene("doubt", dog, ws.cut(blow, rng, 0.4, 0.5), 3.0, rng, level_db=-30)
    alone = ws.scene("doubt", dog, None, 0.0, rng, level_db=-30)

    def live(x: np.ndarray) -> np.ndarray:
        y = np.concatenate([np.zeros(16000, np.float32), x])
        return (y + np.resize(noise(4.0, 0.003, seed=7), len(y))).astype(np.float32)

    onset, offset = scene.blows[0]
    return live(scene.samples), live(alone.samples), (onset + 1.0, offset + 1.0)


def _run(x: np.ndarray) -> tuple[list[Detection], list[Detection]]:
    det = CombinedDetector()
    reports, doubts = [], []
    for i in range(0, len(x), 1024):
        reports += det.process(x[i : i + 1024])
        doubts += det.take_doubts()
    assert det.take_doubts() == []  # taken once
    return reports, doubts


def test_a_blow_refused_over_a_dog_is_a_doubt_and_the_dog_alone_is_not(shared_data: Path) -> None:
    mixed, dog, (onset, offset) = _mix(shared_data)
    reports, doubts = _run(mixed)
    assert reports == []  # the gate refuses it: the dog's bark under it is harmonic
    assert len(doubts) == 1 and onset - 0.1 <= doubts[0].detected_at <= offset + 0.5
    assert 2600 < doubts[0].peak_hz < 3300  # the robot whistle's
    assert _run(dog) == ([], [])


def test_a_clear_real_blow_is_reported_without_a_doubt(shared_data: Path) -> None:
    x = resample(*read_wav(shared_data / ROBOT))
    reports, doubts = _run(x)
    assert len(reports) == 1 and doubts == []


@pytest.mark.parametrize("clip", ["mixed", "dog"])
def test_the_sensor_passes_a_doubt_on_as_a_notice_never_as_a_whistle(shared_data: Path, clip: str) -> None:
    mixed, dog, _ = _mix(shared_data)
    out: queue.Queue = queue.Queue()
    sensor = WhistleSensor(ArraySource(mixed if clip == "mixed" else dog), CombinedDetector(), out, clock=lambda: 1000.0)
    sensor.run()
    events = []
    while not out.empty():  # the events, and the sensor's status changes (no type)
        item = out.get_nowait()
        if hasattr(item, "type"):
            events.append(item)
    assert not any(e.type == WHISTLE for e in events) and sensor.detections == 0
    doubts = [e for e in events if e.type == DOUBT]
    if clip == "dog":
        assert doubts == []
        return
    assert len(doubts) == 1
    d = doubts[0]
    assert d.source.value == "microphone" and 2600 < d.payload["peak_hz"] < 3300
    # epoch seconds, as a whistle's: the first block ended at "now" (1000.0), the blow about two seconds later
    assert 1001 < d.payload["onset"] < d.time < 1004
