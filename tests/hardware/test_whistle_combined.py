"""The combined detector (session 4's detector, and the cascade where it cannot hear): real WAVs
through the real detectors."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from hardware.audio import read_wav, resample
from hardware.testing import audio as ta
from hardware.testing import whistle_synth as ws
from hardware.whistle.cascade import CascadeDetector, CascadeParams
from hardware.whistle.combined import CombinedDetector, CombinedParams
from hardware.whistle.detector import DetectorParams, WhistleDetector, detect
from hardware.whistle.evaluation import in_window

RATE = 16000


def wav(tmp_path: Path, x: np.ndarray, name: str = "x.wav") -> np.ndarray:
    """The sound as the sensor gets it from a file: written as 16-bit PCM and read back."""
    x = x / max(1.0, float(np.max(np.abs(x))) / 0.9)
    return read_wav(ta.write_wav(tmp_path / name, x))[0]


def hum(length: float = 3.0, hz: float = 800.0, amp: float = 0.2) -> np.ndarray:
    return (amp * np.sin(2 * np.pi * hz * np.arange(round(length * RATE)) / RATE)).astype(np.float32)


def always(_features: np.ndarray) -> float:
    return 1.0


def test_a_blow_both_detectors_hear_is_one_event(tmp_path):
    x = wav(tmp_path, ta.in_room(ta.tone(2500, 0.8, amp=0.2)))
    assert len(detect(x, WhistleDetector())) == 1
    assert len(detect(x, CascadeDetector(verifier=always))) == 1
    for gate in (True, False):
        found = detect(x, CombinedDetector(CombinedParams(gate=gate), cascade=CascadeDetector(verifier=always)))
        assert len(found) == 1, (gate, found)
        assert abs(found[0].peak_hz - 2500) < 40 and 0.95 <= found[0].onset <= 1.1


def test_two_blows_are_two_events(tmp_path):
    x = ta.in_room(ta.tone(2500, 0.4, amp=0.2), length=4.0)
    ta.place(x, ta.tone(3000, 0.4, amp=0.2), 2.5)
    found = detect(wav(tmp_path, x), CombinedDetector(cascade=CascadeDetector(verifier=always)))
    assert len(found) == 2
    assert abs(found[0].onset - 1.0) < 0.1 and abs(found[1].onset - 2.5) < 0.1


# The gate's reasons as they stood before session 26 made the weak low line a default: the tests of the older routes
# read them alone (docs/whistle.md, session 26).
BEFORE_26 = {"noise_line": False, "weak_low_db": 0.0, "steady_low_db": 8.0, "steady_rise_s": 0.0}


def test_the_gate_says_why_the_shipped_detector_cannot_hear(tmp_path):
    rng = np.random.default_rng(4)

    def reasons(x: np.ndarray, hz: float, params: CombinedParams = CombinedParams(**BEFORE_26)) -> list[str]:  # noqa: B008
        det = CombinedDetector(params)
        detect(x[: round(1.3 * RATE)], det)  # up to 0.3 s into the blow
        return det.evidence(hz).reasons(det.params)

    tone = wav(tmp_path, ta.in_room(ta.tone(2500, 0.8, amp=0.2)))
    assert reasons(tone, 2500) == []
    assert reasons(tone, 2500, CombinedParams()) == []  # the weak low line (on since session 26) needs a low line
    trill = wav(tmp_path, ta.in_room(ws.pea_trill(rng, 2800.0, 0.5) * 0.3))
    assert "trill" in reasons(trill, 2800)
    under = wav(tmp_path, ta.in_room(ta.tone(3000, 0.8, amp=0.03)) + hum())
    assert "low line" in reasons(under, 3000)


def test_a_blow_under_a_loud_hum_is_heard_once(tmp_path):
    # The shipped detector's dominance test loses the whistle to an 800 Hz hum 16 dB louder.
    x = wav(tmp_path, ta.in_room(ta.tone(3000, 0.5, amp=0.03)) + hum())
    assert detect(x, WhistleDetector()) == []
    found = detect(x, CombinedDetector(cascade=CascadeDetector(verifier=always)))
    assert len(found) == 1 and abs(found[0].peak_hz - 3000) < 60


def test_pea_trills_the_shipped_detector_misses_are_heard_with_the_shipped_weights(tmp_path):
    # Wide trills (+-200-800 Hz at 20-40 Hz) in room noise: session 4's dominance test counts the
    # sidebands as other lines and hears none of them.
    rng = np.random.default_rng(4)
    heard = 0
    for i in range(6):
        x = wav(tmp_path, ta.in_room(ws.pea_trill(rng, None, 0.5) * 0.3, seed=i), f"trill{i}.wav")
        assert detect(x, WhistleDetector()) == []
        found = detect(x, CombinedDetector())
        assert len(found) <= 1 and all(0.9 <= d.onset <= 1.2 for d in found)
        heard += len(found)
    assert heard >= 3, heard  # of 6 (session 4's detector: 0)


def test_wide_pea_trills_in_a_quiet_room_are_heard(tmp_path):
    # Session 8's gate: a trill's line may hold up to 0.7 of its +-500 Hz window (0.5 before), and
    # one yes of the strict verifier is enough.  Session 7's combined detector heard 4 of these 12.
    rng = np.random.default_rng(4)
    heard = 0
    for i in range(12):
        x = wav(tmp_path, ta.in_room(ws.pea_trill(rng, None, 0.5) * 0.3, seed=i), f"trill{i}.wav")
        found = detect(x, CombinedDetector())
        assert len(found) <= 1 and all(0.9 <= d.onset <= 1.2 for d in found)
        heard += len(found)
    assert heard >= 9, heard


def voice(length: float, f0: float = 180.0, amp: float = 0.3) -> np.ndarray:
    """A voiced sound: five harmonics of a 180 Hz pitch that wobbles 10 % (a talker under the whistle)."""
    t = np.arange(round(length * RATE)) / RATE
    phase = 2 * np.pi * np.cumsum(f0 * (1 + 0.1 * np.sin(2 * np.pi * 3 * t))) / RATE
    return (amp * sum(np.sin(k * phase) / k for k in range(1, 6))).astype(np.float32)


def test_a_voice_under_a_trill_takes_away_the_trill_reason(tmp_path):
    # Babble's harmonics jump between voices like a pea's rattle; what gives them away is a line
    # below 1 kHz as strong as the "whistle" and far over its floor (session 7's one babble false alarm).
    for seed in (2, 3):
        x = ta.in_room(ws.pea_trill(np.random.default_rng(seed), 2800.0, 0.5) * 0.3)
        for with_voice in (False, True):
            y = x.copy()
            if with_voice:
                ta.place(y, voice(0.5), 1.0)
            det = CombinedDetector()
            detect(wav(tmp_path, y)[: round(1.3 * RATE)], det)
            assert ("trill" in det.evidence(2800).reasons(det.params)) is not with_voice, (seed, with_voice)


def test_every_detector_kind_comes_from_a_profile():
    from calibration.whistle import DEFAULT_DETECTOR, DETECTOR_KINDS, Profile
    from hardware.whistle.verifier import Verifier

    made = {kind: Profile().detector(kind) for kind in DETECTOR_KINDS}
    assert type(made["session4"]) is WhistleDetector and type(made["cascade"]) is CascadeDetector
    combined = made["combined"]
    assert type(combined) is CombinedDetector
    # The combined detector's cascade runs its own verifier (recipe session9) at that verifier's strict threshold;
    # the cascade alone keeps the session8 weights.
    assert combined.cascade.verifier is Verifier.combined() and made["cascade"].verifier is Verifier.shipped()
    assert combined.cascade._threshold == Verifier.combined().strict_threshold > Verifier.combined().threshold
    assert type(Profile().detector()) is type(made[DEFAULT_DETECTOR])
    assert combined.band_hz == made["session4"].band_hz and all(len(d.band_hz) == 2 for d in made.values())
    found = detect(ta.in_room(ta.tone(2500, 0.6, amp=0.2)), combined)
    assert len(found) == 1
    with pytest.raises(ValueError, match="detector kind"):
        Profile().detector("nope")


@pytest.mark.skipif(not ta.espeak_available(), reason="espeak-ng not installed")
def test_babble_whose_low_band_swings_with_syllables_gives_the_gate_no_reason(tmp_path):
    # Session 8 (v3): espeak-ng babble (the benchmark's recipe) on which v2's gate let a cascade yes
    # through; its 188-1000 Hz level swings with the syllables (std > 3.5 dB), a hum's holds.
    noise = ws.OtherNoise(1)
    pieces = [noise.piece("babble", 6.0) for _ in range(11)]
    x = wav(tmp_path, pieces[10] * 0.1, "babble.wav")
    v2 = CombinedDetector(CombinedParams(voice_swing_db=float("inf")), cascade=CascadeDetector(verifier=always))
    assert len(detect(x, v2)) >= 1  # session 8's gate: false alarms
    seen = []
    v3 = CombinedDetector(cascade=CascadeDetector(verifier=always))
    v3.on_cascade = lambda _d, ev, ok: seen.append((ev.low_swing_db, ok))
    assert detect(x, v3) == []
    assert seen and not any(ok for _swing, ok in seen)
    assert max(swing for swing, _ok in seen) > v3.params.voice_swing_db
    # while a blow under a hum (the shipped detector deaf to it) is still heard, its low band steady
    under = wav(tmp_path, ta.in_room(ta.tone(3000, 0.5, amp=0.03)) + hum(), "hum.wav")
    heard = []
    det = CombinedDetector(cascade=CascadeDetector(verifier=always))
    det.on_cascade = lambda _d, ev, ok: heard.append(ev.low_swing_db)
    assert len(detect(under, det)) == 1 and heard and max(heard) < 1.0


SPREAD = CombinedParams(trill_spread_share=0.45, quiet_low=False)  # session 11's spread route (alone)


def heard_of(scenes: list[ws.Scene], make) -> int:
    """Blows heard in one-blow scenes, each by a fresh detector (``make``), scored as whistle eval scores them;
    never two reports of one blow."""
    heard = 0
    for s in scenes:
        (a, b), = s.blows
        found = detect(s.samples, make())
        assert len(found) <= 1
        heard += any(in_window(d.detected_at, a, b) for d in found)
    return heard


def test_a_spread_line_is_a_trill_even_when_its_peak_stays_put():
    """Session 11: in a 32 ms frame a 20-40 Hz rattle is averaged into sidebands round a peak bin that
    stays put, so a loud trill's line is spread (share under 0.45) but does not wander 200 Hz."""
    from hardware.whistle.combined import Evidence

    assert Evidence(0.40, -15.0, 8.0, 0.0).reasons(SPREAD) == ["trill"]
    assert Evidence(0.60, -15.0, 8.0, 0.0).reasons(SPREAD) == []  # a line that holds 0.6 of its window and stays put
    assert Evidence(0.40, 0.0, 15.0, 0.0).reasons(SPREAD) == []  # a voice under it
    assert Evidence(0.40, -15.0, 8.0, 0.0, low_swing_db=6.0).reasons(SPREAD) == []  # syllables
    assert Evidence(0.40, -3.4, 37.6, 0.0).reasons(SPREAD) == []  # a struck plate: new sound below 1 kHz
    assert Evidence(0.40, -15.0, 8.0, 0.0).reasons(replace(SPREAD, trill_spread_share=0.0)) == []  # off: it must wander


def test_loud_pea_trills_in_hall_noise():
    # 16 trills 10-20 dB over the hall's hum, motors and pink noise: without the spread route the gate turns down 4 of
    # them at its one look (a strict cascade yes, the line spread, its peak still), which the spread route hears.
    # Session 16's second looks hear all 16, with the spread route or without.
    hall = ws.HallNoise(seed=26)
    rng = np.random.default_rng(3)
    scenes = [ws.scene("trill", hall.piece(3.0), ws.pea_trill(rng), float(rng.uniform(10, 20)), rng) for _ in range(16)]
    routes = (("off", replace(SPREAD, trill_spread_share=0.0)), ("spread", SPREAD))

    def heard(relook: int) -> dict[str, int]:
        return {name: heard_of(scenes, lambda p=replace(params, relook=relook): CombinedDetector(p))  # noqa: B008
                for name, params in routes}

    assert heard(0) == {"off": 14, "spread": 16}  # session 26's noise reason and weak low line: 12 and 15 before
    assert heard(2) == {"off": 16, "spread": 16}


# -- session 12: the quiet-low route and its ring guard -------------------------------------


def quiet_low_room(sound: np.ndarray, at: float = 2.0, length: float = 3.0, hum_amp: float = 0.005,
                   start: float = 0.5) -> np.ndarray:
    """A quiet room where a low 200 Hz hum began at ``start``: from 0.5 s (1.5 s before the sound) the band below
    1 kHz holds steady and stands 8-11 dB over a floor still learning it (the gate's "quiet low band"); from 0 the
    floor knows it by the sound's time (2-3 dB over it)."""
    x = ta.pink_noise(length, amp=0.005, seed=1)
    n = round(start * RATE)
    x[n:] += hum(length - start, 200.0, hum_amp)
    ta.place(x, sound, at)
    return x


def struck_glass(seed: int, decay: float) -> np.ndarray:
    return (ws.struck(3000.0, ws.GLASS_MODES, decay, np.random.default_rng(seed)) * 0.2).astype(np.float32)


def held_two_tone() -> np.ndarray:
    # Two lines 300 Hz apart: session 4's dominance test counts the second as a competing line.
    return ta.tone(2500, 0.5, amp=0.03) + ta.tone(2800, 0.5, amp=0.02)


def gated(**params: object) -> CombinedDetector:
    return CombinedDetector(CombinedParams(**params), cascade=CascadeDetector(verifier=always))


@pytest.mark.parametrize(("seed", "decay"), [(3, 0.2), (5, 0.3), (7, 0.3)])
def test_a_struck_glass_the_quiet_low_band_lets_through_is_dropped_as_a_ring(tmp_path, seed, decay):
    x = wav(tmp_path, quiet_low_room(struck_glass(seed, decay)))
    looks = []
    det = gated(quiet_low=True, ring_guard=False)
    det.on_cascade = lambda d, ev, ok: looks.append((ev.reasons(det.params), det.decay(d)))
    assert len(detect(x, det)) == 1  # without the guard the glass is a "blow" (session 11's clatter)
    assert [r for r, _ in looks] == [["quiet low band"]]
    ring = looks[0][1]
    assert ring.struck(det.params) and ring.top < 2 and ring.slope_db < -0.4
    assert detect(x, gated(quiet_low=True, ring_guard=True)) == []  # struck, not blown


def test_a_held_blow_under_a_quiet_low_band_is_heard_and_not_taken_for_a_ring(tmp_path):
    x = wav(tmp_path, quiet_low_room(held_two_tone()))
    assert detect(x, WhistleDetector()) == []
    assert detect(x, gated(quiet_low=False)) == []  # no other reason speaks for it
    looks = []
    det = gated(quiet_low=True, ring_guard=True)
    det.on_cascade = lambda d, ev, ok: looks.append((ev.reasons(det.params), det.decay(d), ok))
    found = detect(x, det)
    assert len(found) == 1 and abs(found[0].peak_hz - 2500) < 60 and abs(found[0].onset - 2.0) < 0.1
    (reasons, ring, ok), = looks
    assert reasons == ["quiet low band"] and ok and not ring.struck(det.params) and abs(ring.slope_db) < 0.1


def test_the_ring_guard_leaves_a_steady_blow_alone_on_every_route(tmp_path):
    p = CombinedParams()
    assert not p.ring_all and not p.ring_shipped  # session 4's reports and the older routes are not guarded
    # A steady tone session 4 hears is one event whatever the guard watches.
    x = wav(tmp_path, ta.in_room(ta.tone(2500, 0.8, amp=0.2)))
    for extra in ({}, {"quiet_low": True, "ring_guard": True, "ring_all": True, "ring_shipped": True}):
        assert len(detect(x, gated(**extra))) == 1


def vetoing(veto_below: float) -> tuple[CombinedDetector, list[float]]:
    """The combined detector as shipped (its verifier), asking its verifier about session 4's reports."""
    det = CombinedDetector(CombinedParams(veto_below=veto_below))
    asked: list[float] = []
    vouch = det.vouch
    det.vouch = lambda d: asked.append(vouch(d)) or asked[-1]  # type: ignore[method-assign]
    return det, asked


def test_the_veto_drops_a_real_dog_bark_session_4_reports(shared_data):
    # A real ESC-10 clip (fold 2) session 4 takes for a whistle; the verifier reads it as nothing like one.
    x = resample(*read_wav(shared_data / "whistle" / "esc10-negatives" / "001 - Dog bark" / "2-114587-A.wav"))
    assert len(detect(x, WhistleDetector())) == 1
    assert len(detect(x, CombinedDetector(CombinedParams(veto_below=0.0)))) == 1  # off: passed unchecked
    det, asked = vetoing(0.1)
    assert detect(x, det) == []
    assert len(asked) == 1 and asked[0] < 0.05  # refused once, and the cascade stays quiet for that blow


def test_the_veto_leaves_real_whistles_heard(shared_data):
    folder = shared_data / "whistle" / "robot-clips" / "whistle"
    for name in ("whistle_1_metre.wav", "whistle_2015_07_13_085209_freya.wav"):
        x = resample(*read_wav(folder / name))
        det, asked = vetoing(0.3)
        assert len(detect(x, det)) == 1, name
        assert asked and min(asked) > 0.5, (name, asked)


def test_the_veto_is_off_by_default_and_asks_at_the_blows_last_frame(tmp_path):
    assert CombinedParams().veto_below == 0.0
    x = wav(tmp_path, ta.in_room(ta.tone(2500, 0.8, amp=0.2)))
    det, asked = vetoing(0.3)
    det.cascade.verifier = always
    found = detect(x, det)
    assert len(found) == 1 and asked == [1.0]
    det, asked = vetoing(0.3)
    det.cascade.verifier = lambda _f: 0.0
    assert detect(x, det) == []  # refused
    assert asked == [0.0]


# -- session 15: a pea blown in a quiet room ----------------------------------------------------------


def test_breath_under_a_spread_line_is_a_trill_but_a_knock_or_a_voice_is_not():
    """A loud pea's breath lifts a quiet room's band below 1 kHz 15-20 dB over its floor (the spread route
    refuses that as new sound), yet that band stays 20-30 dB under the line: the breath route hears it."""
    from hardware.whistle.combined import Evidence

    off = CombinedParams(breath_low_db=0.0)
    on = CombinedParams(breath_low_db=20.0, breath_share=0.55)
    pea = Evidence(0.50, -26.0, 18.0, 31.0)  # seen on the quiet-room rows: spread, still, breath far under the line
    assert pea.reasons(off) == [] and pea.reasons(on) == ["trill"]
    assert Evidence(0.60, -26.0, 18.0, 31.0).reasons(on) == []  # the line holds 0.6 of its window: a tone
    assert Evidence(0.40, -3.4, 37.6, 0.0).reasons(on) == []  # a struck plate: its low sound near the line's level
    assert Evidence(0.40, 2.0, 20.0, 0.0).reasons(on) == []  # a voice as loud as the whistle
    assert Evidence(0.50, -26.0, 18.0, 31.0, low_swing_db=6.0).reasons(on) == []  # syllables: never a trill


def quiet_room_trills(count: int, seed: int) -> list[ws.Scene]:
    """Pea trills 30-40 dB over a quiet room (hall noise turned down): a pea blown beside the board at home."""
    hall = ws.HallNoise(seed=seed)
    rng = np.random.default_rng(seed)
    return [ws.scene("quiet", hall.piece(3.0), ws.pea_trill(rng), float(rng.uniform(30, 40)), rng) for _ in range(count)]




def test_loud_clean_trills_are_shown_to_the_verifier_as_it_was_trained():
    """Trills 30-40 dB over a quiet room: the verifier, trained on blows up to +20 dB, took the breath that
    lifts every bin for broadband noise, and the gate took it for new sound below 1 kHz.  With loud_db the
    breath counts as the room, and breath far under the line counts as a trill's (docs/whistle.md, session 15)."""
    scenes = quiet_room_trills(24, seed=42)
    before = heard_of(scenes, lambda: CombinedDetector.of(loud_db=0.0, params=CombinedParams(breath_low_db=0.0)))
    after = heard_of(scenes, lambda: CombinedDetector.of(loud_db=50.0, params=CombinedParams(breath_low_db=20.0)))
    assert (before, after) == (16, 24), (before, after)


# -- session 16: the gate looks again ----------------------------------------------------------


def looking(relook: int, cascade: CascadeDetector | None = None) -> tuple[CombinedDetector, list[tuple[float, bool]]]:
    """A combined detector that logs each cascade-only look: (the report's onset, the gate's verdict)."""
    det = CombinedDetector(CombinedParams(relook=relook, **BEFORE_26), cascade=cascade)
    looks: list[tuple[float, bool]] = []
    det.on_cascade = lambda d, _ev, ok: looks.append((d.onset, ok))
    return det, looks


def test_a_trill_the_gate_refuses_at_its_first_look_is_heard_at_a_later_one():
    # Pea trills in hall noise, the shipped weights: these three the cascade reports a few frames into the blow, where
    # the line has not wandered or spread enough yet (share 0.45-0.59, wander 156-188 Hz, the low band 7-10 dB over its
    # floor: no trill); four frames later it has (share 0.51-0.56, wander 406-500 Hz).  Today's gate looked once.
    hall = ws.HallNoise(seed=26)
    rng = np.random.default_rng(3)
    scenes = [ws.scene("trill", hall.piece(3.0), ws.pea_trill(rng), float(rng.uniform(-5, 40)), rng) for _ in range(40)]
    for i in (7, 33, 39):
        s = scenes[i]
        once, looks = looking(0)
        assert detect(s.samples, once) == [] and [ok for _, ok in looks] == [False]  # refused, never asked again
        again, looks = looking(2)
        found = detect(s.samples, again)
        assert len(found) == 1 and [ok for _, ok in looks] == [False, True], (i, looks)
        (a, b), = s.blows
        assert in_window(found[0].detected_at, a, b)
        assert found[0].onset == looks[0][0]  # the blow's onset, kept from the first look
    assert CombinedParams().relook == 2  # the default since seed 21's judgment (docs/whistle.md, session 16)


def test_a_relook_still_refuses_what_the_gate_refuses_and_looks_at_most_relook_more_times(tmp_path):
    # Babble (its low band swings with syllables) and two steady lines over a quiet low hum: no reason at any look.
    noise = ws.OtherNoise(1)
    babble = [noise.piece("babble", 6.0) for _ in range(11)][10] * 0.1
    for x in (wav(tmp_path, babble, "babble.wav"), wav(tmp_path, quiet_low_room(held_two_tone()), "two.wav")):
        once, looks = looking(0, CascadeDetector(verifier=always))
        assert detect(x, once) == []
        first = len(looks)
        for relook in (1, 3):
            det, looks = looking(relook, CascadeDetector(verifier=always))
            assert detect(x, det) == []
            assert looks and not any(ok for _, ok in looks)
            per_blow = {onset: sum(o == onset for o, _ in looks) for onset, _ in looks}  # a blow keeps its onset
            assert max(per_blow.values()) <= relook + 1, (relook, looks)
            assert len(looks) > first  # it did look again


# -- session 17: a sound the verifier turned down is asked again (CascadeParams.reask) -----------


def test_a_trill_the_verifier_locked_out_is_heard_when_asked_again_and_nothing_else_moves():
    # Trills and short quiet peas in hall noise, the shipped weights.  Trill 43 (-5..+10 dB) is turned down five times
    # while its patch is mostly noise and then locked out; asked again (reask = 4, the default since session 17) it is
    # heard, 0.35 s in.  The other 119 blows are heard or missed at the same moments with or without the re-asks.
    hall = ws.HallNoise(seed=26)
    rng = np.random.default_rng(3)
    trills = [ws.scene("trill", hall.piece(3.0), ws.pea_trill(rng), float(rng.uniform(-5, 10)), rng) for _ in range(60)]
    rng = np.random.default_rng(3)
    short = [ws.scene("quiet", hall.piece(3.0), ws.pea_trill(rng, None, 0.2), 0.0, rng) for _ in range(60)]
    assert CascadeParams().reask == 4
    moved = []
    for i, s in enumerate(trills + short):
        (a, b), = s.blows
        heard = []
        for params in (CascadeParams(reask=0), CascadeParams()):
            det = CombinedDetector.of(cascade=params)
            heard.append([d.detected_at for d in detect(s.samples, det) if in_window(d.detected_at, a, b)])
        if heard[0] != heard[1]:
            moved.append((i, heard, det.cascade._reasks))
    assert len(moved) == 1 and moved[0][0] == 43, moved
    (_, (off, on), asks), = moved
    (a, b), = trills[43].blows
    assert off == [] and len(on) == 1 and a + 0.2 <= on[0] <= b and asks >= 1


WEAK = {"weak_low_db": 6.0, "steady_low_db": 10.0}  # session 20's candidate (judged on seed 30: failed on music, off)


def test_a_weak_steady_low_line_is_a_reason_only_when_asked_and_nothing_else_speaks():
    """Session 20: a steady low line down to ``weak_low_db`` under the whistle (the hum row's refused blows), still
    no more than ``steady_low_db`` over its floor; a voice's syllables, new sound or a line farther under give none."""
    from hardware.whistle.combined import WEAK_LOW, Evidence

    on = replace(CombinedParams(), **WEAK)
    assert CombinedParams().weak_low_db == 6.0 and CombinedParams().steady_low_db == 10.0  # on since session 26
    assert Evidence(0.9, -4.0, 9.0, 0.0).reasons(CombinedParams(**BEFORE_26)) == []
    assert Evidence(0.9, -4.0, 9.0, 0.0).reasons(on) == [WEAK_LOW]
    assert Evidence(0.9, -6.5, 9.0, 0.0).reasons(on) == []  # farther under the whistle than 6 dB
    assert Evidence(0.9, -4.0, 11.0, 0.0).reasons(on) == []  # new sound, not a hum the floor has learned
    assert Evidence(0.9, -4.0, 9.0, 0.0, low_swing_db=5.0).reasons(on) == []  # syllables
    assert Evidence(0.9, 1.0, 9.0, 0.0).reasons(on) == ["low line"]  # as strong as the whistle: the route as before


def test_a_held_blow_a_few_db_over_a_learned_hum_is_heard_with_weak_low_db(tmp_path):
    from hardware.whistle.combined import WEAK_LOW

    x = wav(tmp_path, quiet_low_room(held_two_tone() * 0.3, hum_amp=0.006, start=0.0))  # the hum line 2.7 dB under the whistle's
    assert detect(x, WhistleDetector()) == []  # two lines: session 4's dominance fails
    assert detect(x, gated(**BEFORE_26)) == []  # the low line weaker than the whistle: no reason before session 26
    looks = []
    det = gated()  # the weak low line, a default since session 26
    det.on_cascade = lambda d, ev, ok: looks.append((ev.reasons(det.params), ok))
    found = detect(x, det)
    assert len(found) == 1 and abs(found[0].peak_hz - 2500) < 60 and abs(found[0].onset - 2.0) < 0.1
    assert looks == [([WEAK_LOW], True)]


def test_a_struck_glass_over_a_weak_low_line_is_dropped_as_a_ring(tmp_path):
    """The weak route is always watched by the ring test (seed 28's clatter: 5 more false alarms without it, 1 with)."""
    from hardware.whistle.combined import WEAK_LOW

    x = wav(tmp_path, quiet_low_room(struck_glass(3, 0.2), hum_amp=0.006))
    looks = []
    det = gated(**WEAK)
    det.on_cascade = lambda d, ev, ok: looks.append((ev.reasons(det.params), det.decay(d).struck(det.params), ok))
    assert detect(x, det) == []
    assert ([WEAK_LOW], True, False) in looks and not any(ok for *_, ok in looks)


# -- session 31: "steady" against a floor that keeps up (CombinedParams.steady_rise_s) ----------------------------------


def test_the_steadiness_tests_read_the_low_bands_own_floor_and_the_trills_voice_test_does_not():
    """``steady_db`` (the low line over the low band's faster floor) stands for ``low_over_db`` in the low-line and
    weak-low-line tests only; unmeasured (None) they read the cascade's floor as before."""
    from hardware.whistle.combined import WEAK_LOW, Evidence

    p = CombinedParams()
    assert p.steady_rise_s == 2.0 and p.steady_min_hz == 2000.0  # on since session 31
    assert Evidence(0.9, -4.0, 13.0, 0.0).reasons(p) == []  # 13 dB over the cascade's floor: new sound
    assert Evidence(0.9, -4.0, 13.0, 0.0, steady_db=6.0).reasons(p) == [WEAK_LOW]
    assert Evidence(0.9, 1.0, 13.0, 0.0, steady_db=6.0).reasons(p) == ["low line"]
    assert Evidence(0.9, -4.0, 13.0, 0.0, steady_db=11.0).reasons(p) == []  # new to the faster floor too
    # A wandering line over a low line as loud, 13 dB over the cascade's floor, is a voice under a trill, whatever the
    # faster floor says (the voice test keeps the cascade's floor): only the low line's reason is given.
    assert Evidence(0.5, 1.0, 13.0, 300.0).reasons(p) == []
    assert Evidence(0.5, 1.0, 13.0, 300.0, steady_db=6.0).reasons(p) == ["low line"]


def motor_then_blow(tmp_path: Path, before: float) -> np.ndarray:
    """A quiet room (pink noise) where a 200 Hz motor starts ``before`` seconds before a held two-tone blow a few dB
    over it (session 4 hears neither line as dominant): the cascade's floor, rising 4 s a time constant, is still
    13-24 dB under the motor when the blow comes."""
    length = 0.5 + before + 1.0
    x = ta.pink_noise(length, amp=0.001, seed=1)
    x[round(0.5 * RATE) :] += hum(length - 0.5, 200.0, 0.006)
    ta.place(x, held_two_tone() * 0.3, 0.5 + before)
    return wav(tmp_path, x)


def test_a_blow_over_a_motor_that_started_seconds_ago_is_heard_with_a_floor_that_keeps_up(tmp_path):
    """Session 31: in one long recording the gate refused blows over a low sound that had begun a few seconds before
    (the cascade's floor still learning it: 13 dB under), which it heard in 3 s scenes (whose floor starts at the
    noise).  With steady_rise_s the low band's own floor has learned it (6 dB): a steady low line."""
    from hardware.whistle.combined import WEAK_LOW

    x = motor_then_blow(tmp_path, 3.0)
    assert detect(x, WhistleDetector()) == []
    looks = []
    det = gated(steady_rise_s=0.0)
    det.on_cascade = lambda d, ev, ok: looks.append((ev.reasons(det.params), ok, ev.low_over_db))
    assert detect(x, det) == []
    assert looks and all(r == [] and not ok and over > 12 for r, ok, over in looks)
    looks.clear()
    det = gated(steady_rise_s=2.0)
    det.on_cascade = lambda d, ev, ok: looks.append((ev.reasons(det.params), ok, ev.steady_db))
    found = detect(x, det)
    assert len(found) == 1 and abs(found[0].peak_hz - 2500) < 60 and abs(found[0].onset - 3.5) < 0.1
    assert len(looks) == 1 and looks[0][:2] == ([WEAK_LOW], True) and looks[0][2] < 8
    # steady_min_hz: under 2 kHz (a motor's or a voice's harmonics, a robot's beep) the faster floor is not read
    assert det.evidence(2500.0).steady_db is not None and det.evidence(1500.0).steady_db is None
    det.params = replace(det.params, steady_min_hz=0.0)
    assert det.evidence(1500.0).steady_db is not None


@pytest.mark.parametrize("before", [0.5, 1.0])
def test_a_low_sound_that_began_just_before_a_blow_is_still_new_to_the_faster_floor(tmp_path, before):
    """A motor (or a voice's held vowel) begun 0.5-1 s before the blow stands 15-21 dB over the faster floor too:
    no reason, as before."""
    looks = []
    det = gated(steady_rise_s=2.0)
    det.on_cascade = lambda d, ev, ok: looks.append((ev.reasons(det.params), ok, ev.steady_db))
    assert detect(motor_then_blow(tmp_path, before), det) == []
    assert looks and all(r == [] and not ok and steady > 14 for r, ok, steady in looks)


# -- session 21, third step: the blown route (CombinedParams.blown_vouch) ----------------------------------------------


def unsure(_features: np.ndarray) -> float:
    return 0.6  # under the strict threshold below, over the blown route's looser one


def blown_route(**params: object) -> CombinedDetector:
    """The combined detector whose verifier is unsure of everything (0.6 against a strict 0.96); the blown route off
    and no line-share floor unless ``params`` set them."""
    cascade = CascadeDetector(CascadeParams(threshold=0.96, accepts=1), verifier=unsure)
    return CombinedDetector(CombinedParams(**{"blown_vouch": 0.0, "blown_share": 0.0} | params), cascade=cascade)


def under_hum(sound: np.ndarray) -> np.ndarray:
    """A sound 1 s into a room with an 800 Hz hum over it (the gate's "low line"; session 4 loses the whistle to it)."""
    x = ta.in_room(np.zeros(1, np.float32), length=3.0) + hum()
    ta.place(x, sound, 1.0)
    return x


def test_the_blown_route_hears_a_blow_the_verifier_is_unsure_of_and_not_a_held_note_or_a_glass(tmp_path):
    from .test_whistle_known import _blown, _held

    rng = np.random.default_rng(2)
    blows = [wav(tmp_path, under_hum(_blown(rng, 3000.0) * 0.03), f"b{i}.wav") for i in range(4)]
    notes = [wav(tmp_path, under_hum(_held(rng, 3000.0, parts) * 0.03), f"n{i}.wav")
             for i, parts in enumerate([(1.0, 0.15), (1.0, 0.5, 0.33)] * 2)]
    glasses = [wav(tmp_path, under_hum(struck_glass(seed, 0.3) * 0.15), f"g{seed}.wav") for seed in (3, 5, 7)]
    for x in blows + notes + glasses:
        assert detect(x, WhistleDetector()) == []  # session 4 hears none of them under the hum
        assert detect(x, blown_route()) == []  # nor, the route off, the combined detector: the verifier is unsure
    heard = [detect(x, blown_route(blown_vouch=0.4)) for x in blows]
    assert sum(len(f) == 1 for f in heard) >= 3, heard  # one event a blow
    for found in heard:
        for d in found:
            assert abs(d.peak_hz - 3000) < 60 and abs(d.onset - 1.0) < 0.1
            assert d.features["blown_wobble"] >= 5 and not d.features["blown_struck"]
    # a held note holds its pitch, a struck glass decays: neither sounds blown, though the gate gives each a reason
    for x in notes + glasses:
        det, looked = blown_route(blown_vouch=0.4), []
        take = det.cascade.take_soft

        def taking(take=take, looked=looked) -> list:
            got = take()
            looked.extend(got)
            return got

        det.cascade.take_soft = taking  # type: ignore[method-assign]
        assert detect(x, det) == []
        guarded = [d for d in looked if "blown_struck" in d.features]  # the candidates the gate passed
        assert guarded and all(d.features["blown_struck"] or d.features["blown_wobble"] < 5 for d in guarded)
    # a clear line: the shipped share floor (0.6 of the window) keeps them; a floor over any line's share, none
    assert [len(detect(x, blown_route(blown_vouch=0.4, blown_share=0.6))) for x in blows] == [len(f) for f in heard]
    assert [detect(x, blown_route(blown_vouch=0.4, blown_share=1.01)) for x in blows] == [[]] * 4
    # the route asks the verifier's looser score: under it, nothing
    assert [detect(x, blown_route(blown_vouch=0.7)) for x in blows] == [[]] * 4


def test_the_blown_route_is_on_by_default_and_off_keeps_no_candidates(tmp_path):
    p = CombinedParams()  # session 21, third step: judged on seed 33, on
    assert (p.blown_vouch, p.blown_share, p.blown_gate) == (0.8, 0.6, True)
    assert CombinedDetector().cascade.soft == 0.8
    x = wav(tmp_path, under_hum(ta.tone(3000, 0.5, amp=0.03)))
    det = blown_route()
    assert det.cascade.soft == 0.0 and detect(x, det) == [] and det.cascade.take_soft() == []
    on = blown_route(blown_vouch=0.4)
    assert on.cascade.soft == 0.4
    # a steady tone under the hum: candidates kept, none blown (it does not wobble)
    assert detect(x, on) == []


def rain(seed: int, length: float = 3.0) -> np.ndarray:
    """Rain-like noise: white noise whose level swells and falls (gusts) every 0.12 s, drops' decaying clicks, pink
    noise under it: broadband and impulsive, neither a steady hum nor a voice's harmonics."""
    rng = np.random.default_rng(seed)
    n = round(length * RATE)
    y = rng.standard_normal(n)
    for at in rng.integers(0, n - 200, round(40 * length)):
        y[at : at + 200] += rng.uniform(2, 8) * rng.standard_normal(200) * np.exp(-np.arange(200) / 30)
    knots = np.arange(0, length + 0.2, 0.12)
    gust = 10 ** (np.interp(np.arange(n) / RATE, knots, rng.uniform(-8, 8, len(knots))) / 20)
    return (0.03 * y * gust + ta.pink_noise(length, 0.03, seed)).astype(np.float32)


def cry(seed: int, f0: float = 560.0, seconds: float = 0.6, peak: float = 3000.0) -> np.ndarray:
    """A crow's or a baby's cry: seven harmonics of a 560 Hz pitch with a 6 Hz vibrato, the one nearest 3 kHz loudest."""
    rng = np.random.default_rng(seed)
    n = round(seconds * RATE)
    t = np.arange(n) / RATE
    f = f0 * (1 + 0.03 * np.sin(2 * np.pi * 6 * t) + 0.01 * np.cumsum(rng.standard_normal(n)) / np.sqrt(n))
    phase = 2 * np.pi * np.cumsum(f) / RATE
    y = sum(np.sin(k * phase) / (1 + ((k * f0 - peak) / 400) ** 2) for k in range(1, 8))
    return (y * ws.envelope(n, RATE, 0.03, 0.06)).astype(np.float32)


def talk(seed: int, f0: float = 160.0, seconds: float = 0.8, peak: float = 2800.0) -> np.ndarray:
    """A voice's syllables (4 a second): harmonics of a 160 Hz pitch, one formant near 2.8 kHz."""
    n = round(seconds * RATE)
    t = np.arange(n) / RATE
    phase = 2 * np.pi * np.cumsum(f0 * (1 + 0.08 * np.sin(2 * np.pi * 3 * t))) / RATE
    y = sum(np.sin(k * phase) * (0.6 / k + 1.5 / (1 + ((k * f0 - peak) / 120) ** 2)) for k in range(1, 25) if k * f0 < 7000)
    return (y * 0.5 * (1 + np.sin(2 * np.pi * 4 * t)) ** 2 * ws.envelope(n, RATE, 0.03, 0.06)).astype(np.float32)


def noise_route(**params: object) -> tuple[CombinedDetector, list]:
    """A sure verifier (every candidate a strict yes), the gate's looks kept; the gate and session 4 as before session 26
    but for ``params`` (the noise reason's own tests)."""
    det = CombinedDetector(CombinedParams(**{**BEFORE_26, **params}), WhistleDetector(DetectorParams(low_line_db=0.0)),
                           CascadeDetector(CascadeParams(threshold=0.96, accepts=1), verifier=always))
    looks: list = []
    det.on_cascade = lambda _d, ev, ok: looks.append((ev, ok))
    return det, looks


def test_a_blow_under_rain_is_heard_with_the_noise_reason_and_crows_cries_voices_are_not(tmp_path):
    from tests.hardware.test_whistle_known import _blown

    # Session 22, third step: blows under rain-like noise that neither session 4 nor the gate hears (no steady hum,
    # no trill); with noise_line the gate's new reason hears some, once each, near 3 kHz and their onset.
    gained = 0
    for seed in range(8):
        x = rain(seed)
        ta.place(x, _blown(np.random.default_rng(seed), 3000.0) * 0.05, 1.0)
        x = wav(tmp_path, x)
        if detect(x, WhistleDetector(DetectorParams(low_line_db=0.0))) or detect(x, noise_route()[0]):
            continue
        det, looks = noise_route(noise_line=True)
        found = detect(x, det)
        assert len(found) <= 1 and all(0.9 <= d.onset <= 1.2 and 2800 <= d.peak_hz <= 3200 for d in found), found
        assert all("noise_harm" in d.features for d in found)
        gained += len(found)
    assert gained >= 2, gained
    # a cry (harmonics of 560 Hz, its loudest near 3 kHz) in the rain and in a quiet room, a voice's syllables with a
    # formant near 2.8 kHz in the rain, laughter: candidates the sure verifier passes; the noise reason hears none
    # (the voice in the rain is heard as a trill with the option off too: the gate's own reasons are not changed here)
    for seed in range(3):
        scenes = [rain(seed), ta.in_room(cry(seed) * 0.2), rain(seed), ta.in_room(ta.laughter(1.0, 0.3, seed))]
        ta.place(scenes[0], cry(seed) * 0.2, 1.0)
        ta.place(scenes[2], talk(seed) * 0.1, 1.0)
        for i, x in enumerate(scenes):
            x = wav(tmp_path, x)
            det, looks = noise_route(noise_line=True)
            found = detect(x, det)
            assert looks, (seed, i)
            assert not any("noise_harm" in d.features for d in found), (seed, i)
            assert [d.onset for d in found] == [d.onset for d in detect(x, noise_route()[0])], (seed, i)


def test_the_noise_reason_is_off_by_default():
    p = CombinedParams()
    assert p.noise_line is False
    ev = CombinedDetector().evidence(3000.0)
    assert ev.harm == ev.harm_on == ev.sub_db == float("inf")  # not measured when off


def test_the_noise_reason_reads_a_detector_that_has_heard_nothing_yet():
    """Session 26: with ``noise_line`` on, the gate's evidence before any frame (nothing kept to comb) is no comb at all,
    not numpy's ValueError from an empty apply_along_axis."""
    ev = CombinedDetector(CombinedParams(noise_line=True)).evidence(3000.0)
    assert ev.harm == ev.harm_on == 0.0


# -- session 26: the weak low line, on by default (judged alone on seed 39: passed) ------------------------------------


def test_a_real_blow_under_hum_and_motors_is_heard_by_the_default(shared_data):
    """Issue #15's hum: a real robot blow under mains hum, a 0.8-1 kHz line and motors (the eval's hum row's background),
    at -8, -4 and 0 dB, the shipped verifier.  Before session 26 the combined detector missed 11 of these 30 (the hum's
    line beat the blow's dominance, and the gate found no reason: the hum's line a few dB under the whistle's); with
    the weak low line on (docs/whistle.md, session 26) it hears every one, once, on the blow."""
    x = ws.blow_piece(resample(*read_wav(shared_data / "whistle" / "robot-clips" / "whistle" / "whistle_1_metre.wav")))
    x = (x / np.max(np.abs(x))).astype(np.float32)
    before = CombinedDetector(CombinedParams(**BEFORE_26))
    heard = {"default": 0, "before": 0}
    for snr in (-8.0, -4.0, 0.0):
        for seed in range(10):
            rng = np.random.default_rng(seed)
            s = ws.scene("hum", ws.low_rumble(3.0, rng) + ta.pink_noise(3.0, amp=0.03, seed=seed), x, snr, rng)
            (a, b), = s.blows
            for name, det in (("default", CombinedDetector()), ("before", before)):
                det.reset()
                found = detect(s.samples, det)
                assert all(in_window(d.detected_at, a, b) for d in found) and len(found) <= 1, (name, snr, seed, found)
                heard[name] += len(found)
    assert heard == {"default": 30, "before": 19}, heard


def test_the_trill_reason_speaks_only_over_its_least_pitch():
    """Session 33 (CombinedParams.trill_min_hz): a spread line over a quiet low band is a trill at 2.5 kHz, not at 1.2
    kHz with the least pitch at 1.5 kHz (robot motors and beeps on the long recordings); a pitch not given always may
    be one; off (0) any pitch, as before. The low line reason is not the trill's: it speaks at any pitch."""
    from hardware.whistle.combined import Evidence

    trill, cut = Evidence(0.40, -15.0, 8.0, 0.0, hz=2500.0), replace(SPREAD, trill_min_hz=1500.0)
    assert CombinedParams().trill_min_hz == 0.0
    assert trill.reasons(cut) == ["trill"]
    assert replace(trill, hz=1200.0).reasons(cut) == [] and replace(trill, hz=1200.0).reasons(SPREAD) == ["trill"]
    assert Evidence(0.40, -15.0, 8.0, 0.0).reasons(cut) == ["trill"]
    hum = Evidence(0.90, 3.0, 2.0, 0.0, hz=1200.0)  # a steady low line as loud as the whistle: not a trill
    assert hum.reasons(cut) == hum.reasons(SPREAD) == ["low line"]
