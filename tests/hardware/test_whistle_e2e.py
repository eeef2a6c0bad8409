"""End to end: a WAV with two blows, through the real detector and sensor, into a Fleeced! session."""

from __future__ import annotations

from calibration.whistle import Profile, listening_detector
from companion.events import Event
from hardware.audio import WavSource
from hardware.testing import audio as ta
from hardware.whistle.detector import detect
from hardware.whistle.sensor import WhistleSensor
from hardware.whistle.signature import Signature
from tests.games.fleeced.table import towing  # the Fleeced! tests' own table helper

WALLACE = lambda: ta.tone(2400, 0.45)  # noqa: E731
GROMIT = lambda: ta.trill(3400, 0.45)  # noqa: E731


def learned(name: str, make) -> Signature:
    x = ta.pink_noise(3.5, amp=0.004, seed=len(name))
    for at in (0.5, 1.5, 2.5):
        ta.place(x, make(), at)
    return Signature.learn(name, [d.features for d in detect(x, listening_detector(None))])


def test_two_blows_become_two_whistle_events_in_a_fleeced_session(tmp_path):
    x = ta.pink_noise(4.0, amp=0.005, seed=11)
    ta.place(x, WALLACE(), 1.0)
    ta.place(x, GROMIT(), 2.5)
    wav = ta.write_wav(tmp_path / "table.wav", x, rate=16000)

    profile = Profile(signatures=(learned("Wallace", WALLACE), learned("Gromit", GROMIT)))
    t = towing()
    start = t.now + 5.0  # the microphone starts listening 5 s after the last table event
    sensor = WhistleSensor(WavSource(wav), profile.detector(), clock=lambda: start)
    sensor.run()
    events = [e for e in (sensor.out.get_nowait() for _ in range(sensor.out.qsize())) if isinstance(e, Event)]
    assert [e.player for e in events] == ["Wallace", "Gromit"]

    base = start - 0.064  # the first 64 ms block arrived at `start`
    for e, onset in zip(events, (1.0, 2.5), strict=True):
        assert abs(e.get("onset") - (base + onset)) < 0.05
        assert 0 < e.time - (base + onset) <= 0.2  # reported within 200 ms of the blow's start
        t.session.apply(e)
    assert [e.type for e in t.session.events[-2:]] == ["whistle", "whistle"]
    assert [e.time for e in t.session.events[-2:]] == [e.time for e in events]
    # Wallace's own whistle before his roll: his flock will follow.
    assert t.state.whistled
    # Gromit blew out of turn, with no claimed sheep to lose.
    assert t.json["rulings"][-1]["kind"] == "no-penalty"
    t.roll(2, 3)
    t.land()
    assert t.sheep["in_tow"]["Wallace"] == 6
