"""The streaming detector, stage by stage, on generated signals (and the real clips when present)."""

from __future__ import annotations

import numpy as np
import pytest

from hardware.audio import read_wav, resample
from hardware.testing import audio as ta
from hardware.whistle.detector import HOP, N_FFT, RATE, DetectorParams, WhistleDetector, detect

BLOCK = 1024  # the live block: 64 ms


def spectrum(x: np.ndarray) -> np.ndarray:
    frames = np.lib.stride_tricks.sliding_window_view(x, N_FFT)[::HOP]
    return np.abs(np.fft.rfft(frames * np.hanning(N_FFT), axis=1)) ** 2


WHISTLES = {
    "thin tone": (ta.tone(2500, 0.5), 2500),
    "pea trill": (ta.trill(2800, 0.5, rate_hz=25, depth_hz=150), 2800),
    "toy with harmonics": (ta.harmonic_toy(1200, 0.5), 1200),
    "toy, 2nd harmonic strongest": (ta.harmonic_toy(900, 0.5, harmonics=(0.5, 1.0, 0.6, 0.3)), 900),
    "toy, weak fundamental": (ta.harmonic_toy(1500, 0.5, harmonics=(0.2, 1.0, 0.6, 0.3)), 1500),
    "slide (chirp)": (ta.chirp(2000, 2300, 0.5), 2000),  # the pitch heard so far when it is reported
}


@pytest.mark.parametrize("name", list(WHISTLES))
def test_each_kind_of_whistle_is_one_event_with_times(name):
    sound, hz = WHISTLES[name]
    found = detect(ta.in_room(sound, at=1.0))
    assert len(found) == 1, found
    d = found[0]
    assert abs(d.onset - 1.0) <= 0.05
    assert abs(d.peak_hz - hz) <= 0.06 * hz
    assert d.onset < d.offset <= d.detected_at
    assert d.detected_at - 1.0 <= 0.2  # latency from the true onset
    assert round(d.detected_at * RATE) % BLOCK == 0  # the end of the block it needed
    assert 0.5 <= d.confidence <= 1.0


@pytest.mark.parametrize(
    "name, sound",
    [
        ("white noise", ta.noise(3.0, amp=0.2, seed=3)),
        ("dice", ta.dice_clicks(3.0, seed=4)),
        ("laughter", ta.laughter(3.0, seed=5)),
        ("music", ta.music(3.0, seed=6)),
    ],
)
def test_table_noises_are_not_whistles(name, sound):
    assert detect(ta.in_room(sound, at=0.0)) == []


@pytest.mark.skipif(not ta.espeak_available(), reason="espeak-ng not installed")
def test_speech_is_not_a_whistle():
    for i, line in enumerate(ta.SPEECH_LINES[:3]):
        voice = ["en", "en+f3", "en-us+m3"][i]
        x = ta.speech(line, voice=voice, pitch=40 + 20 * i)
        assert detect(ta.in_room(x, at=0.2, length=len(x) / RATE + 0.5)) == [], line


def test_tonal_test_wants_a_narrow_peak_not_loud_broadband():
    det = WhistleDetector()
    det._noise = np.full(N_FFT // 2 + 1, 1e-6)
    tone = det.features(spectrum(ta.in_room(ta.tone(3000, 1.0), at=0.0, length=1.0)))
    hiss = det.features(spectrum(ta.noise(1.0, amp=0.3)))
    assert np.median(tone["tonality"]) > 30 and np.median(hiss["tonality"]) < 12
    assert tone["strong"][5:-5].all() and not hiss["strong"].any()


def test_harmonic_check_finds_the_fundamental_and_rejects_low_voices():
    det = WhistleDetector()
    det._noise = np.full(N_FFT // 2 + 1, 1e-6)
    toy = det.features(spectrum(ta.harmonic_toy(900, 1.0, harmonics=(0.5, 1.0, 0.6, 0.3))))
    assert abs(np.median(toy["hz"]) - 900) < 30  # not the louder 1800 Hz harmonic
    # A "voice" at 200 Hz whose 6th harmonic (1200 Hz) is loudest: the fundamental is below the band.
    t = np.arange(RATE) / RATE
    voice = sum(a * np.sin(2 * np.pi * 200 * h * t) for h, a in [(1, 0.5), (2, 0.3), (3, 0.2), (6, 0.6)])
    f = det.features(spectrum(voice.astype(np.float32)))
    assert not f["weak"].any()


def test_voice_comb_marks_evenly_spaced_lines():
    det = WhistleDetector()
    det._noise = np.full(N_FFT // 2 + 1, 1e-6)
    t = np.arange(RATE) / RATE
    comb = sum(np.sin(2 * np.pi * 250 * h * t) * (1.0 if h == 5 else 0.2) for h in range(3, 8))
    assert np.median(det.features(spectrum(comb.astype(np.float32)))["voice"]) > -20
    assert np.median(det.features(spectrum(ta.trill(2500, 1.0)))["voice"]) < -40


def test_hysteresis_keeps_a_blow_with_a_short_dropout_as_one_event():
    blow = ta.tone(2500, 0.6)
    blow[round(0.3 * RATE) : round(0.33 * RATE)] *= 0.05  # 30 ms breath
    assert len(detect(ta.in_room(blow))) == 1


def test_refractory_period_and_separate_blows():
    x = ta.pink_noise(4.0, amp=0.005)
    ta.place(x, ta.tone(2500, 0.4), 0.5)
    ta.place(x, ta.tone(2500, 0.4), 1.5)  # 0.6 s later: a second blow
    ta.place(x, ta.tone(2500, 1.5), 2.3)  # a long blow: still one
    found = detect(x)
    assert [round(d.onset, 1) for d in found] == [0.5, 1.5, 2.3]


def test_a_sound_that_goes_on_at_another_pitch_stays_one_event():
    # A two-tone toy that steps from 2 kHz to 2.6 kHz without a pause (a rooster or a
    # baby gliding does the same): the frames at the new pitch follow on from the
    # reported blow, so they keep the refractory period going; only a lone frame at
    # another pitch after a gap may not (test_whistle_calibration, noise seed 10).
    x = ta.pink_noise(3.0, amp=0.005, seed=2)
    ta.place(x, np.concatenate([ta.tone(2000, 0.3), ta.tone(2600, 0.8)]), 0.5)
    assert [round(d.peak_hz, -2) for d in detect(x)] == [2000.0]


def test_too_short_is_not_a_blow():
    # 10 ms of tone spans 42 ms of 32 ms frames: under the 48 ms minimum.
    assert detect(ta.in_room(ta.tone(2500, 0.010))) == []
    assert len(detect(ta.in_room(ta.tone(2500, 0.1)))) == 1


def test_outside_the_band_is_ignored_and_the_band_is_configurable():
    x = ta.in_room(ta.tone(700, 0.5))
    assert detect(x) == []
    assert len(detect(x, WhistleDetector(DetectorParams(band_hz=(500, 3000))))) == 1


def test_noise_floor_learns_a_steady_hum_and_still_hears_a_whistle():
    x = ta.pink_noise(8.0, amp=0.005)
    t = np.arange(len(x)) / RATE
    x += (0.05 * np.sin(2 * np.pi * 2000 * t)).astype(np.float32)  # a fan's whine, always there
    ta.place(x, ta.tone(3200, 0.5, amp=0.3), 6.0)
    det = WhistleDetector()
    found = detect(x, det)
    assert [round(d.peak_hz, -2) for d in found] == [3200]
    assert det.noise_db[64] > det.noise_db[60] + 20  # the 2 kHz bin knows the whine


def test_calibrated_noise_floor_is_used_from_the_first_block():
    room = ta.pink_noise(1.0, amp=0.005)
    noise_db = 10 * np.log10(np.median(spectrum(room), axis=0))
    det = WhistleDetector(noise_db=noise_db)
    np.testing.assert_allclose(det.noise_db, noise_db, atol=0.01)
    # A whistle already sounding when listening starts is still heard.
    assert len(detect(ta.tone(2500, 0.5, amp=0.3) + ta.pink_noise(0.5, amp=0.005, seed=9), det)) == 1


def test_block_size_does_not_change_what_is_found():
    x = ta.in_room(ta.trill(2600, 0.5))
    a = detect(x, block=256)
    b = detect(x, block=BLOCK)
    assert len(a) == len(b) == 1
    assert a[0].onset == b[0].onset and a[0].peak_hz == b[0].peak_hz
    assert a[0].detected_at <= b[0].detected_at  # smaller blocks, earlier events


def test_reset_forgets_the_stream():
    det = WhistleDetector()
    detect(ta.in_room(ta.tone(2500, 0.5)), det)
    assert det.time > 0
    det.reset()
    assert det.time == 0 and det.noise_db is None


def test_real_near_whistles_are_heard(shared_data):
    folder = shared_data / "whistle" / "robot-clips" / "whistle"
    for path in sorted(folder.glob("*.wav")):
        x, rate = read_wav(path)
        assert len(detect(resample(x, rate))) == 1, path.name


def test_a_hum_that_starts_later_is_learned_not_an_endless_blow():
    x = ta.pink_noise(20.0, amp=0.005)
    t = np.arange(len(x)) / RATE
    hum = (0.05 * np.sin(2 * np.pi * 2000 * t)).astype(np.float32)
    hum[: 2 * RATE] = 0  # the fridge starts after 2 s and never stops
    x += hum
    ta.place(x, ta.tone(3200, 0.5, amp=0.3), 15.0)
    found = detect(x)
    # At most one report as the hum starts; then it is room noise and the whistle is heard.
    assert len(found) <= 2 and round(found[-1].peak_hz, -2) == 3200 and abs(found[-1].onset - 15.0) < 0.05


def test_the_quick_exit_never_drops_a_frame_that_could_start_a_blow():
    # features(full=False) stops early on blocks where no frame can be strong (most blocks of a
    # game); over tones, trills, toys, speech-like laughter and music at many levels, every block
    # it stops on has no strong frame when measured in full.
    det = WhistleDetector()
    det.process(ta.pink_noise(0.2, amp=0.005, seed=3))
    sounds = [s for s, _ in WHISTLES.values()] + [ta.laughter(1.0, seed=2), ta.music(1.0, seed=3), ta.dice_clicks(1.0, seed=4)]
    stopped = 0
    for i, sound in enumerate(sounds):
        for amp in (0.003, 0.02, 0.3):
            power = spectrum(ta.in_room(sound / (np.max(np.abs(sound)) + 1e-9) * amp, at=0.1, length=0.8, seed=i))
            for b in range(0, len(power) - 4, 4):
                quick = det.features(power[b : b + 4], full=False)
                if "hz" not in quick:
                    stopped += 1
                    assert not det.features(power[b : b + 4], full=True)["strong"].any()
    assert stopped > 20  # the quick exit was taken, and checked


def wav(tmp_path, x: np.ndarray, name: str) -> np.ndarray:
    return read_wav(ta.write_wav(tmp_path / name, x / max(1.0, float(np.max(np.abs(x))) / 0.9)))[0]


def test_a_struck_glass_rings_but_is_not_a_blow(tmp_path):
    # A clinked glass starts at full level and decays steadily: session 4's detector took
    # 7 of these 8 for blows (kitchen clatter, 940 false alarms an hour in the benchmark).
    from hardware.testing import whistle_synth as ws

    rng = np.random.default_rng(0)
    heard = 0
    for i in range(8):
        strike = ws.struck(float(rng.uniform(1500, 4500)), ws.GLASS_MODES, float(rng.uniform(0.15, 0.4)), rng)
        heard += len(detect(wav(tmp_path, ta.in_room(0.3 * strike, at=0.7, length=2.0, seed=i), f"glass{i}.wav")))
    assert heard == 0, heard


def test_a_blow_that_starts_loud_and_settles_is_still_heard(tmp_path):
    # The ring test must not take a blow's attack for a ring: 3 dB over, settling in 60 ms, then held.
    n = round(0.5 * RATE)
    t = np.arange(n) / RATE
    swell = 1 + 0.4 * np.exp(-t / 0.03)
    blow = (0.15 * swell * np.sin(2 * np.pi * 2600 * t)).astype(np.float32)
    found = detect(wav(tmp_path, ta.in_room(blow), "settle.wav"))
    assert len(found) == 1 and abs(found[0].onset - 1.0) < 0.05
    assert found[0].detected_at - 1.0 < 0.25, found[0].detected_at


def test_a_low_line_that_wobbles_is_not_a_whistle_unless_the_table_blows_one():
    """Under 1.2 kHz a blow must hold its pitch (DetectorParams.steady_below_hz): most of session 4's ESC-10
    false alarms were babies, roosters and dogs at 0.8-1.2 kHz, their line wobbling, while a toy whistle's
    tone holds.  Above the edge a wobble is a pea's trill and is heard; a profile whose lowest whistle is
    this low moves the edge under it with ``own_whistles = "under"`` (sessions 10-14), and with "near" (session
    15's default) lets its own pitch wobble up to own_wobble_cents (20), not a cry's 50."""
    from calibration.whistle import Profile
    from hardware.whistle.signature import Signature

    cry = ta.in_room(ta.trill(1000, 0.5, rate_hz=6, depth_hz=40, am=0.2))
    assert detect(cry) == []
    assert len(detect(cry, WhistleDetector(DetectorParams(steady_below_hz=0.0)))) == 1
    assert len(detect(ta.in_room(ta.tone(1000, 0.5)))) == 1  # a steady low toy
    assert len(detect(ta.in_room(ta.trill(2500, 0.5, rate_hz=6, depth_hz=100, am=0.2)))) == 1
    profile = Profile(signatures=(Signature("low toy", 1000.0, 10.0, 20.0, -30.0, 1.0, 3),), own="under")
    assert profile.params().steady_below_hz == 750.0
    assert len(detect(cry, profile.detector("session4"))) == 1
    near = Profile(signatures=profile.signatures)
    assert near.params().steady_below_hz == 1200.0 and near.params().own_hz == ((1000.0, 80.0),)
    assert detect(cry, near.detector("session4")) == []
    toy = ta.in_room(ta.trill(1000, 0.5, rate_hz=6, depth_hz=8, am=0.2))  # wobbling about 10 cents
    assert detect(toy) == [] and len(detect(toy, near.detector("session4"))) == 1


HOLD = DetectorParams(hold_harmonics=True)  # session 12's option (docs/whistle.md)


def test_a_line_at_a_third_of_the_whistle_does_not_break_the_blow(shared_data):
    """Issue #15's harmonic-check fault, on real parts: real robot whistles (their recordings hold a robot's
    ~1 kHz line, a third of the whistle) mixed into real ESC-10 noise at +8 dB.  Read frame by frame the
    fundamental flipped between the whistle and the line, and each flip ended the blow: 27 of 48 heard.
    Read against the blow under way (``hold_harmonics``) the loudest line holds it (34), at its own pitch."""
    import csv

    from hardware.testing import whistle_synth as ws

    folder = shared_data / "whistle"
    rows = {r["path"]: r for r in csv.DictReader((folder / "robot-clips" / "manifest.csv").open())}
    pieces = [ws.blow_piece(resample(*read_wav(folder / "robot-clips" / p))) for p in sorted(rows)
              if rows[p]["category"] == "whistle" and ("in_goal" in p or "freya" in p)]
    noises = [resample(*read_wav(folder / "esc10-negatives" / c)) for c in (
        "001 - Dog bark/3-180256-A.wav", "008 - Chainsaw/1-47250-A.wav", "004 - Baby cry/3-151081-B.wav",
        "002 - Rain/1-63871-A.wav")]
    assert len(pieces) == 2
    heard, pitches = 0, []
    for piece in pieces:
        for noise in noises:
            for k in range(6):
                rng = np.random.default_rng(k)
                scene = ws.scene("t", ws.fit(noise, 3.0, rng), ws.cut(piece, rng), 8.0, rng)
                (a, b), = scene.blows
                found = [d for d in detect(scene.samples, WhistleDetector(HOLD)) if a - 0.05 <= d.detected_at <= b + 0.25]
                heard += bool(found)
                pitches += [d.peak_hz for d in found]
    assert heard >= 32, (heard, len(pitches))  # of 48
    # The whistle's pitch, not the robot's line under it (unless that line sounded in nearly every frame:
    # then it is read as a toy's fundamental would be).
    assert np.mean(np.asarray(pitches) > 2000) >= 0.9, sorted(pitches)


def test_a_flickering_line_under_a_tone_is_read_as_the_tone():
    """A 3 kHz tone over a 1 kHz line that comes and goes frame by frame: one blow at 3 kHz; frame by
    frame (``hold_harmonics`` off) the flips to 1 kHz break it."""
    t = np.arange(int(0.5 * RATE)) / RATE
    tone = 0.2 * np.sin(2 * np.pi * 3000 * t)
    gate = (np.random.default_rng(3).random(len(t) // HOP + 1) < 0.5).repeat(HOP)[: len(t)]
    line = 0.05 * np.sin(2 * np.pi * 1000 * t) * gate
    x = ta.noise(2.0, 0.003, seed=1)
    ta.place(x, (tone + line).astype(np.float32), 0.7)
    found = detect(x, WhistleDetector(HOLD))
    assert [round(d.peak_hz, -2) for d in found] == [3000.0]
    assert not detect(x, WhistleDetector(DetectorParams(hold_harmonics=False)))
    # Under hold_above_hz (1.6 kHz: roosters' and dogs' harmonics) the frame-by-frame reading stands, unless
    # the table's own whistle is that low: a profile moves the edge under its lowest whistle ("under") or holds
    # blows pitched near it ("near", the default).
    low = ta.noise(2.0, 0.003, seed=1)
    ta.place(low, (0.2 * np.sin(2 * np.pi * 1200 * t) + 0.05 * np.sin(2 * np.pi * 400 * t) * gate).astype(np.float32), 0.7)
    assert not detect(low, WhistleDetector(HOLD))
    import dataclasses

    from calibration.whistle import Profile
    from hardware.whistle.signature import Signature

    profile = Profile(signatures=(Signature("low toy", 1200.0, 10.0, 20.0, -30.0, 1.0, 3),), own="under")
    assert profile.params().hold_above_hz == 900.0
    for p in (profile, Profile(signatures=profile.signatures)):
        held = dataclasses.replace(p.params(), hold_harmonics=True)
        assert [round(d.peak_hz, -2) for d in detect(low, WhistleDetector(held))] == [1200.0]


def test_a_struck_ring_held_through_a_flickering_line_is_dropped():
    """A struck 3 kHz ring (decaying, its level jittering, so session 4's straight-line ring test does not
    take it) over a flickering 1 kHz partial: kept by the held reading, it must meet the held blows' own
    ring test (``held_ring_db``) instead."""
    held, ringing = 0, 0
    for seed in range(8):
        rng = np.random.default_rng(seed)
        t = np.arange(int(0.6 * RATE)) / RATE
        jitter = 1 + 0.15 * np.repeat(rng.standard_normal(len(t) // HOP + 1), HOP)[: len(t)]
        ring = 0.3 * jitter * np.exp(-t / 0.25) * np.sin(2 * np.pi * 3000 * t)
        gate = (rng.random(len(t) // HOP + 1) < 0.5).repeat(HOP)[: len(t)]
        line = 0.05 * np.exp(-t / 0.25) * np.sin(2 * np.pi * 1000 * t) * gate
        x = ta.noise(2.0, 0.003, seed=1)
        ta.place(x, (ring + line + 0.01 * rng.standard_normal(len(t))).astype(np.float32), 0.7)
        held += len(detect(x, WhistleDetector(DetectorParams(hold_harmonics=True, held_ring_db=0.0))))
        ringing += len(detect(x, WhistleDetector(DetectorParams(hold_harmonics=True))))
    assert held == 8 and ringing <= 5, (held, ringing)


LOW_LINES = DetectorParams(low_line_db=12.0)


def _bark(n: int, hz: float, amp: float, seed: int) -> np.ndarray:
    """A dog-like voiced sound: a wobbling 450-500 Hz fundamental (not at 1/4 of the whistle: the harmonic check) and two weaker harmonics (none near 2.5 kHz)."""
    t = np.arange(n) / RATE
    rng = np.random.default_rng(seed)
    f = hz * (1 + 0.03 * np.sin(2 * np.pi * rng.uniform(3, 6) * t))
    phase = 2 * np.pi * np.cumsum(f) / RATE
    return amp * sum(a * np.sin(k * phase) for k, a in ((1, 1.0), (2, 0.3), (3, 0.05)))


def test_a_whistle_over_a_louder_low_voice_is_heard_with_low_line_db():
    """Issue #15's real mixes: a 2.5 kHz blow, and a dog's 450-500 Hz line louder than it starting a frame or two
    later, fails session 4's dominance (the loudest line elsewhere) from then on: two strong frames, not the
    three it needs.  With ``low_line_db`` a line more than an octave under a whistle at 2 kHz or more counts
    12 dB less, and the blow (its own first frames strong by session 4's measure) is one event at its pitch."""
    t = np.arange(int(0.4 * RATE)) / RATE
    for seed in range(3):
        x = ta.pink_noise(2.5, amp=0.003, seed=seed)
        ta.place(x, _bark(int(1.0 * RATE), 450.0 + 20 * seed, 0.1, seed).astype(np.float32), 1.016)
        ta.place(x, (0.15 * np.sin(2 * np.pi * 2500 * t)).astype(np.float32), 1.0)
        assert detect(x) == []
        found = detect(x, WhistleDetector(LOW_LINES))
        assert [round(d.peak_hz, -2) for d in found] == [2500.0], (seed, found)
        assert abs(found[0].onset - 1.0) <= 0.05
    # Under low_above_hz (a 1.2 kHz toy's line over the same voice) the rule is session 4's.
    low = ta.pink_noise(2.5, amp=0.003, seed=0)
    ta.place(low, _bark(int(1.0 * RATE), 450.0, 0.1, 0).astype(np.float32), 1.016)
    ta.place(low, (0.15 * np.sin(2 * np.pi * 1200 * t)).astype(np.float32), 1.0)
    assert detect(low, WhistleDetector(LOW_LINES)) == []


def test_a_struck_partial_over_its_fundamental_stays_unheard_with_low_line_db():
    """A struck glass: a 2.6 kHz partial over its own 0.55 kHz fundamental (within 12 dB of it), both decaying
    (jittered, so session 4's straight-line ring test does not take it).  The handicap alone would let the
    partial dominate; a blow must also have a strong frame by session 4's own measure (``low_own_strong``) and
    is not reported while it falls (``held_ring_db``), so none is an event."""
    heard, unguarded = 0, 0
    for seed in range(8):
        rng = np.random.default_rng(seed)
        t = np.arange(int(0.6 * RATE)) / RATE
        decay = np.exp(-t / 0.15) * (1 + 0.15 * rng.standard_normal(len(t) // HOP + 1).repeat(HOP)[: len(t)])
        glass = decay * (0.15 * np.sin(2 * np.pi * 550 * t) + 0.2 * np.sin(2 * np.pi * 2600 * t))
        x = ta.pink_noise(2.0, amp=0.003, seed=seed)
        ta.place(x, glass.astype(np.float32), 0.7)
        assert detect(x) == []  # session 4: the 0.55 kHz line fails the partial's dominance
        heard += len(detect(x, WhistleDetector(LOW_LINES)))
        unguarded += len(detect(x, WhistleDetector(DetectorParams(low_line_db=12.0, held_ring_db=0.0, low_own_strong=0))))
    assert unguarded == 8
    assert heard == 0, heard


def test_frames_and_power_equal_the_plain_formula():
    """Session 16: the frames are a strided view and the power the FFT's own ufunc; both give, bit for bit,
    what gluing hop-chunks together and np.abs(np.fft.rfft(frames * WINDOW)) ** 2 gave, in any block size
    (and a strided block)."""
    from hardware.whistle.detector import WINDOW, frames_of, power_of

    rng = np.random.default_rng(3)
    x = (0.2 * rng.standard_normal(100_000)).astype(np.float32)
    buf, i = np.zeros(0, np.float32), 0
    for size in [*rng.integers(1, 3000, 40), 1024, 1024]:
        frames, buf = frames_of(buf, x[i : i + size])
        i += size
        if frames is None:
            continue
        first = (i - len(buf)) // HOP - len(frames)  # the first frame's hop, counted from the stream's start
        want = np.stack([x[(first + j) * HOP : (first + j) * HOP + N_FFT] for j in range(len(frames))])
        assert np.array_equal(frames, want) and not frames.flags.writeable
        assert power_of(frames).tobytes() == (np.abs(np.fft.rfft(want * WINDOW, axis=1)) ** 2).tobytes()
    strided, _ = frames_of(np.zeros(0, np.float32), x[: 2 * N_FFT * 2 : 2])
    assert np.array_equal(strided[0], x[: 2 * N_FFT : 2])


def test_a_private_fft_that_fails_or_differs_is_not_used(monkeypatch: pytest.MonkeyPatch):
    """The STFT's private numpy call proves itself at import: one that raises or gives other numbers falls
    back to np.fft.rfft (a future numpy costs speed, never a crash or other detections)."""
    import numpy.fft._pocketfft_umath as umath

    from hardware.whistle import detector

    def broken(*_args: object, **_kwargs: object) -> np.ndarray:
        raise TypeError("rfft_n_even() takes other arguments now")

    def other(x: np.ndarray, *_args: object, out: np.ndarray, **_kwargs: object) -> np.ndarray:
        out[:] = 0
        return out

    for fake in (broken, other):
        monkeypatch.setattr(umath, "rfft_n_even", fake)
        assert detector._private_rfft() is None
    monkeypatch.undo()
    assert detector._private_rfft() is not None  # this numpy's own passes its probe


SUB_FLOOR = DetectorParams(sub_over_floor_db=20.0, sub_hold_db=0.0)  # session 17's sub-harmonic check (docs/whistle.md)
NO_SUB_FLOOR = DetectorParams(sub_over_floor_db=0.0)  # the check as before


def low_hall(duration: float, amp: float, seed: int) -> np.ndarray:
    """Pink noise with nothing over 900 Hz: a hall's crowd and rumble, loud under a 1.2 kHz toy, silent at it."""
    x = ta.pink_noise(duration, 1.0, seed=seed)
    spec = np.fft.rfft(x)
    spec[np.fft.rfftfreq(len(x), 1 / RATE) > 900] = 0
    y = np.fft.irfft(spec, len(x))
    return (amp * y / y.std()).astype(np.float32)


def toy_in_hall(seed: int, amp: float = 0.03) -> np.ndarray:
    """A 1.2 kHz toy sounding its 2nd harmonic loudest, 3 s into the hall (the floor has learned the hall)."""
    y = low_hall(5.0, amp, seed)
    toy = ta.harmonic_toy(1200.0, 0.6, harmonics=(0.6, 1.0, 0.4, 0.2), amp=0.1, seed=seed)
    y[3 * RATE : 3 * RATE + len(toy)] += toy
    return y


def heard_toy(found: list) -> list[float]:
    return [d.peak_hz for d in found if 2.9 <= d.onset <= 3.7]


def test_a_hall_line_under_a_toy_is_not_taken_for_its_fundamental():
    """Session 17 (issue #15): under a toy's 2.4 kHz harmonic the hall's crowd at 600, 400 and 300 Hz is far
    over the band's median, so the harmonic check took it for the fundamental (under the band: the frame fails)
    and the toy went unheard.  With sub_over_floor_db the toy's own 1.2 kHz line, new and far over its floor,
    is believed before the hall's, which stands hardly over its own: heard, at its pitch, by session 4's
    detector and by the combined detector (whose cascade, off, heard 1 of the 5)."""
    from calibration.whistle import Profile

    assert DetectorParams().sub_over_floor_db == 20.0  # on since seed 23 (docs/whistle.md, session 17)
    combined_off = 0
    for seed in range(5):
        x = toy_in_hall(seed)
        assert heard_toy(detect(x, WhistleDetector(NO_SUB_FLOOR))) == [], seed
        combined_off += len(heard_toy(detect(x, Profile(overrides={"sub_over_floor_db": 0.0}).detector("combined"))))
        for det in (WhistleDetector(SUB_FLOOR), Profile(overrides={"sub_over_floor_db": 20.0, "sub_hold_db": 0.0}).detector("combined"),
                    WhistleDetector(SUB_HOLD)):
            pitches = heard_toy(detect(x, det))
            assert len(pitches) == 1 and abs(pitches[0] - 1200) <= 0.06 * 1200, (seed, pitches)
    assert combined_off <= 3  # 1 before session 26's weak low line (the gate's reason for the toy over the hall's line)


def test_voices_and_roosters_stay_refused_with_the_sub_floor(shared_data):
    """The sounds whose harmonic check the floor changes and that must still be refused: the two ESC-10
    roosters whose strong frames it moves (of the 400 clips, only these and one rooster heard either way), and
    voices, whose pitch lies under the band (their lines stand over their floor: the old reading stands)."""
    from calibration.whistle import Profile

    folder = shared_data / "whistle" / "esc10-negatives" / "009 - Rooster"
    sounds = [resample(*read_wav(folder / c)) for c in ("1-34119-A.wav", "3-137152-A.wav")]
    if ta.espeak_available():
        sounds += [ta.in_room(ta.speech(line, voice=v, pitch=40 + 20 * i), at=0.2, length=3.0)
                   for i, (line, v) in enumerate(zip(ta.SPEECH_LINES[:3], ["en", "en+f3", "en-us+m3"], strict=True))]
    for x in sounds:
        for params in (SUB_FLOOR, SUB_HOLD):
            assert detect(x, WhistleDetector(params)) == []
        for overrides in ({"sub_over_floor_db": 20.0, "sub_hold_db": 0.0}, {"sub_over_floor_db": 20.0, "sub_hold_db": 6.0}):
            assert detect(x, Profile(overrides=overrides).detector("combined")) == []


def test_the_fundamental_table_is_the_lowest_sub_harmonic_line():
    """Session 18: the fundamental is looked up by peak bin and set of sub-harmonic lines (bit d: k/(d+2)); it must be
    what the argmax of the lines reversed, their any and a where gave, for every bin and every set."""
    det = WhistleDetector()
    n_bins = N_FFT // 2 + 1
    for code in range(8):
        is_line = np.array([[bool(code >> d & 1) for d in range(3)]] * n_bins)
        k = np.arange(n_bins)
        last = 2 - np.argmax(is_line[:, ::-1], axis=1)
        want = np.where(is_line.any(axis=1), det._subs[k, last], k)
        assert np.array_equal(det._fund_of[k, is_line @ (1 << np.arange(3))], want), code


@pytest.mark.parametrize("band_hz", [DetectorParams().band_hz, (100.0, 7000.0), (40.0, 6000.0)])
def test_the_elsewhere_table_is_the_frame_by_frame_rows(band_hz):
    """Session 18: the dominance test's "elsewhere" rows come from a table per band (peak bin, choice of fundamental);
    each row must be ``_keep``'s for that peak and fundamental.  A band so low that a fundamental may be bin 0 keeps
    the frame-by-frame rows."""
    det = WhistleDetector(DetectorParams(band_hz=band_hz))
    table = det._keep_table()
    if band_hz[0] < 62.5:
        assert table is None
        return
    k = np.arange(det._klo, det._khi + 1)
    for choice in range(4):
        fund = k if choice == 0 else det._subs[k, choice - 1]
        assert np.array_equal(table[:, choice], det._keep(fund, k)), choice


SUB_HOLD = DetectorParams(sub_over_floor_db=20.0, sub_hold_db=6.0)  # session 18's hysteresis on the floor test
LISTEN = {"band_hz": (500.0, 7000.0), "steady_below_hz": 0.0}  # as the wizard's listener hears a low toy


def flipping_toy(over_db: float = 19.0, swing_db: float = 2.0, seed: int = 0) -> np.ndarray:
    """A 687.5 Hz toy loudest at its 4th harmonic, 2 s into a murmur at its fundamental: the fundamental stands
    ``over_db`` +- ``swing_db`` over its floor, 32 ms each way, so session 17's floor test (20 dB) believes it in
    some frames only; in the others the 2nd harmonic (far over its floor) is read as the fundamental, and the
    frame fails its dominance (the true fundamental's line under it): the 700 Hz toy of the wizard's blows."""
    rng = np.random.default_rng(seed)
    f = np.fft.rfftfreq(3 * RATE, 1 / RATE)
    shape = np.where(np.abs(f - 687.5) <= 90, 1.0, 0.05)  # the murmur, 26 dB over the rest of the spectrum
    noise = (1e-3 * np.fft.irfft(np.fft.rfft(rng.standard_normal(3 * RATE)) * shape, 3 * RATE)).astype(np.float32)
    probe = WhistleDetector(DetectorParams(**LISTEN))
    detect(noise[: 2 * RATE], probe)
    w = np.hanning(N_FFT)
    a = np.sqrt(probe.noise_floor[22] * 10 ** (over_db / 10)) / (w.sum() / 2)  # a line's peak bin: (a sum(w) / 2)^2
    t = np.arange(RATE // 2) / RATE
    swing = 10 ** (swing_db / 20 * np.sign(np.sin(np.pi * RATE / N_FFT * t + 0.1)))
    toy = a * (swing * np.sin(2 * np.pi * 687.5 * t) + 1.3 * np.sin(2 * np.pi * 1375 * t) + 1.5 * np.sin(2 * np.pi * 2750 * t))
    noise[2 * RATE : 2 * RATE + len(toy)] += toy.astype(np.float32)
    return noise


class _Readings(WhistleDetector):
    """Session 4's detector noting each frame's fundamental and whether it passed the loose thresholds, as its
    decisions took them (the hold reads a frame again at the blow's fundamental)."""

    def _decide(self, f, first, now):
        out = super()._decide(f, first, now)
        self.read = getattr(self, "read", [])
        self.read += [(first + i, f["hz"][i], f["weak"][i]) for i in range(len(f["weak"]))] if "hz" in f else []
        return out


def test_a_fundamental_read_in_a_blow_holds_through_it():
    """Session 18 (sub_hold_db): the toy's fundamental swings about the floor test's 20 dB; without the hold its frames
    flip between 687.5 Hz and the 1,375 Hz harmonic, which fails, and the blow is lost.  With it, a frame that loses
    the blow is read again at the blow's fundamental, a line 14 dB or more over its floor: every frame reads 687.5 Hz."""
    assert DetectorParams().sub_hold_db == 6.0  # on: failed on seed 24, passed seed 25's rule (docs/whistle.md, session 18)
    x = flipping_toy()
    blow = lambda det: [(hz, weak) for j, hz, weak in det.read if 2.0 <= j * HOP / RATE <= 2.45]  # noqa: E731
    off = _Readings(DetectorParams(**LISTEN, sub_over_floor_db=20.0, sub_hold_db=0.0))
    assert detect(x, off) == []
    assert {round(hz) for hz, _ in blow(off)} >= {687, 1375}
    on = _Readings(DetectorParams(**LISTEN, sub_over_floor_db=20.0, sub_hold_db=6.0))
    found = detect(x, on)
    assert len(found) == 1 and 1.98 <= found[0].onset <= 2.02 and abs(found[0].peak_hz - 687.5) < 2
    assert all(abs(hz - 687.5) < 2 and weak for hz, weak in blow(on))
    # The floor test without its hysteresis and the check before session 17 read the same sound as before.
    assert detect(x, _Readings(DetectorParams(**LISTEN, sub_over_floor_db=0.0, sub_hold_db=6.0))) == detect(
        x, _Readings(DetectorParams(**LISTEN, sub_over_floor_db=0.0)))


@pytest.mark.parametrize("hz", [1200.0, 700.0])
def test_the_harmonic_check_reaches_the_fifth_harmonic_only_when_asked(hz):
    """Session 18 (the wizard and the 1200 Hz toy): with f/2-f/4 a toy loudest at its 5th harmonic is read there,
    its own lower harmonics fail that reading's dominance (1-4 dB) and no frame passes; ``sub_divisors = 5`` reads
    it at its fundamental.  The default stays 4 (the generic detector unchanged)."""
    assert DetectorParams().sub_divisors == 4
    x = ta.noise(1.5, 0.003, seed=1)
    # seed 24's missed calibration blow of the toy 1200 Hz (whistle_synth.harmonic_toy's amplitudes for it)
    ta.place(x, ta.steady_toy(hz, 0.3, (1.0, 0.8, 1.08, 0.94, 1.55), breath=0.03), 0.5)
    band = {"band_hz": (500.0, 7000.0), "steady_below_hz": 0.0, "sub_over_floor_db": 0.0}
    assert detect(x, WhistleDetector(DetectorParams(**band))) == []
    heard = detect(x, WhistleDetector(DetectorParams(**band, sub_divisors=5)))
    assert len(heard) == 1 and heard[0].peak_hz == pytest.approx(hz, rel=0.03)
    with pytest.raises(ValueError, match="sub_divisors"):
        WhistleDetector(DetectorParams(sub_divisors=6))


def test_the_fifth_divisor_tables_extend_the_fourth():
    """With ``sub_divisors = 5`` the fundamental is still the lowest sub-harmonic line (now down to k/5), and every
    frame whose lines are at k/2-k/4 only reads as with 4; the elsewhere table is ``_keep``'s rows."""
    four, five = WhistleDetector(DetectorParams(band_hz=(500.0, 7000.0))), WhistleDetector(
        DetectorParams(band_hz=(500.0, 7000.0), sub_divisors=5))
    n_bins = N_FFT // 2 + 1
    k = np.arange(n_bins)
    assert np.array_equal(five._subs[:, :3], four._subs)
    for code in range(16):
        is_line = np.array([[bool(code >> d & 1) for d in range(4)]] * n_bins)
        last = 3 - np.argmax(is_line[:, ::-1], axis=1)
        want = np.where(is_line.any(axis=1), five._subs[k, last], k)
        assert np.array_equal(five._fund_of[k, is_line @ (1 << np.arange(4))], want), code
        if code < 8:
            assert np.array_equal(five._fund_of[k, code], four._fund_of[k, code]), code
    table = five._keep_table()
    kk = np.arange(five._klo, five._khi + 1)
    for choice in range(5):
        fund = kk if choice == 0 else five._subs[kk, choice - 1]
        assert np.array_equal(table[:, choice], five._keep(fund, kk)), choice
    assert four._keep_table().shape[1] == 4  # its own table, not the 5-divisor one of the same band


PATIENT = DetectorParams(patient_below_hz=2000.0, patient_strong_frames=8)  # session 20's look (off as shipped)


def test_a_low_blow_waits_for_its_patient_frames_and_a_high_one_does_not():
    """Session 20 (``patient_below_hz``, off): a blow pitched under the edge is reported only after
    ``patient_strong_frames`` strong frames, later than the shipped three; one over it exactly as before."""
    assert DetectorParams().patient_below_hz == 0.0  # measured on seen seed 29, not judged (docs/whistle.md)
    low, high = ta.in_room(ta.tone(1200, 0.5)), ta.in_room(ta.tone(2500, 0.5))
    (before,), (after,) = detect(low, WhistleDetector(), HOP), detect(low, WhistleDetector(PATIENT), HOP)
    assert after.onset == pytest.approx(before.onset)
    assert after.detected_at - before.detected_at >= 4 * HOP / RATE
    assert detect(high, WhistleDetector(PATIENT), HOP) == detect(high, WhistleDetector(), HOP)


def test_patience_lets_the_wobble_test_hear_a_crying_baby(shared_data):
    """What it was for: ESC-10 crying reported 50 ms into the call, before the wobble under 1.2 kHz showed
    (session 20); waiting for eight strong frames the same call is refused.  A blow that never reaches them
    is not heard at all: the toys it cost (docs/whistle.md)."""
    clip = shared_data / "whistle" / "esc10-negatives" / "004 - Baby cry" / "2-66637-A.wav"
    x = resample(*read_wav(clip))
    assert [round(d.peak_hz) for d in detect(x, WhistleDetector())] == [797]
    assert detect(x, WhistleDetector(PATIENT)) == []
    short = ta.in_room(ta.tone(1200, 0.09))  # about six strong frames: enough for three, not for eight
    assert len(detect(short, WhistleDetector())) == 1
    assert detect(short, WhistleDetector(PATIENT)) == []
