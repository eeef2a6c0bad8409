"""End to end: a short video of a pair of dice rolling and lying still becomes
exactly one ``roll`` event in a Fleeced! session."""

from __future__ import annotations

import queue
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import registry
from companion.events import Event
from companion.session import Session
from hardware.camera import VideoFile
from hardware.dice.pips import read_pips
from hardware.dice.sensor import DiceSensor
from hardware.sensor import SensorStatus
from hardware.testing.camera import tumbling_frames


@pytest.mark.parametrize(("name", "faces"), [("five_11.jpg", (5, 5)), ("four_20.jpg", (4, 4))])
def test_video_of_a_settled_pair_is_one_roll_in_fleeced(shared_data: Path, tmp_path: Path, name: str, faces: tuple) -> None:
    # Two dice. On four_20.jpg the network alone takes printed text on a USB hub for a third die: the
    # sensor gives the reader the game's count (two dice), so the classical reader's sure answer stands.
    photo = cv2.imread(str(shared_data / "dice" / "webcam-train" / name))
    frames = tumbling_frames(photo, [r.box for r in read_pips(photo)], np.random.default_rng(8), frames=15)
    frames += [photo] * 30  # two seconds lying still
    video = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 15.0, (640, 480))
    for f in frames:
        writer.write(f)
    writer.release()

    session = Session(registry.get("fleeced"), {"players": [{"name": "Ann"}, {"name": "Bob"}]})
    prompt = session.game.prompt(session.state)
    assert prompt.dice is not None and prompt.dice.count == 2

    out: queue.Queue = queue.Queue()
    sensor = DiceSensor(lambda: VideoFile(video), out=out, fps=0)  # fps=0: as fast as the file plays
    sensor.request(prompt.dice)
    sensor.start()
    sensor.join(timeout=60)
    items = list(out.queue)
    events = [i for i in items if isinstance(i, Event)]
    statuses = [i for i in items if isinstance(i, SensorStatus)]
    assert statuses[0].online and "end of stream" in statuses[-1].reason
    assert len(events) == 1, events
    (roll,) = events
    assert roll.type == "roll" and roll.source.value == "camera" and roll.confidence > 0.5
    assert dict(roll.payload) == {"die": "d6", "faces": faces}

    before = len(session.log)
    session.apply(roll)
    assert len(session.log) == before + 1
    entry = session.log[-1]
    assert entry.event == roll and entry.phase == "first-roll"
    assert session.game.prompt(session.state).player == "Bob"  # Ann's roll was taken; Bob rolls next
