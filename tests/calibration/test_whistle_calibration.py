"""Whistle calibration: the profile file, the wizard from WAV files, defaults and errors."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest

from calibration.whistle import PROFILE_VERSION, Profile, learn_band, load_profile, noise_spectrum, profile_path
from companion.errors import ConfigError
from hardware.testing import audio as ta
from hardware.testing import whistle_synth as ws
from hardware.whistle.detector import DetectorParams, detect
from hardware.whistle.signature import Signature


def blows_wav(path: Path, make, times=(0.5, 1.5, 2.5), length: float = 3.5) -> Path:
    # The same noise every run: str hash() changes per process (PYTHONHASHSEED).
    x = ta.pink_noise(length, amp=0.004, seed=zlib.crc32(path.name.encode()) % 1000)
    for i, at in enumerate(times):
        ta.place(x, make(i), at)
    return ta.write_wav(path, x)


@pytest.fixture
def recordings(tmp_path: Path) -> Path:
    d = tmp_path / "rec"
    d.mkdir()
    ta.write_wav(d / "noise.wav", ta.pink_noise(2.0, amp=0.004, seed=7))
    # Shaun: a thin whistle whose pitch moves a little blow to blow; Timmy: a pea trill.
    blows_wav(d / "Shaun.wav", lambda i: ta.tone(1800 * (1 + 0.005 * (i - 1)), 0.4))
    blows_wav(d / "Timmy.wav", lambda i: ta.trill(2700 * (1 + 0.005 * (i - 1)), 0.4))
    blows_wav(d / "check-Shaun.wav", lambda i: ta.tone(1805, 0.4), times=(0.5,), length=1.5)
    blows_wav(d / "check-Timmy.wav", lambda i: ta.trill(2690, 0.4), times=(0.5,), length=1.5)
    return d


def test_wizard_from_wav_writes_a_profile_that_attributes(cli, recordings, tmp_path):
    r = cli("calibrate", "whistle", "--players", "Shaun,Timmy", "--from-wav", str(recordings))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Step 1: quiet room" in out and "Step 2" in out and "Step 3: check" in out
    assert "Shaun        [###] 3/3" in out and "Timmy        [###] 3/3" in out
    assert "[#] 1/1 recognised" in out
    path = profile_path()
    assert f"Saved {path}" in out
    profile = load_profile()
    assert profile.source == str(path) and not profile.is_default
    assert [s.name for s in profile.signatures] == ["Shaun", "Timmy"]
    assert profile.signatures[0].peak_hz == pytest.approx(1800, rel=0.02)
    assert profile.signatures[1].peak_hz == pytest.approx(2700, rel=0.03)
    lo, hi = profile.band_hz
    assert lo < 1800 * 0.9 and hi > 2700 * 1.2
    assert len(profile.noise_db) == 257
    # The CLI uses the profile: the check recordings are attributed.
    r = cli("whistle", "detect", str(recordings / "check-Timmy.wav"), "--json")
    assert r.returncode == 0 and '"blower": "Timmy"' in r.stdout
    # A whistle far quieter than every calibration blow is another table's.
    assert "quieter than the quietest heard now will be ignored" in out
    far = ta.pink_noise(2.0, amp=0.0002, seed=3)
    ta.place(far, ta.tone(1800, 0.4, amp=0.3 * 10 ** (-30 / 20)), 0.5)
    assert detect(far, profile.detector()) == []
    assert len(detect(far, load_profile(tmp_path / "nothing.toml").detector())) == 1


def test_profile_round_trip(tmp_path):
    sigs = (
        Signature("Shaun", 1800.0, 12.5, 4.0, -38.0, 1.5, 3),
        Signature('Ti"mmy', 2700.0, 20.0, 30.0, -20.0, 3.0, 3),
    )
    noise = tuple(float(v) for v in np.linspace(-90, -60, 257).round(1))
    p = Profile(
        band_hz=(1350.0, 3645.0),
        overrides={"on_snr_db": 15.0, "min_strong_frames": 4},
        noise_db=noise,
        signatures=sigs,
        created="2026-11-29T12:00:00+00:00",
    )
    path = p.save(tmp_path / "w.toml")
    back = load_profile(path)
    assert back.band_hz == p.band_hz and back.overrides == p.overrides and back.noise_db == noise
    assert back.signatures == sigs
    params = back.params()
    assert params.band_hz == (1350.0, 3645.0) and params.on_snr_db == 15.0 and params.min_strong_frames == 4
    assert back.detector().attribute is not None


def test_missing_or_stale_profile_gives_defaults_that_detect(tmp_path):
    missing = load_profile(tmp_path / "none.toml")
    assert missing.is_default and "no profile" in missing.source
    stale = tmp_path / "old.toml"
    stale.write_text(f"version = {PROFILE_VERSION + 1}\n[detector]\nband_hz = [100.0, 200.0]\n")
    p = load_profile(stale)
    assert p.is_default and "stale" in p.source and p.band_hz is None
    x = ta.pink_noise(2.0, amp=0.005)
    ta.place(x, ta.tone(2200, 0.4), 0.5)
    assert len(detect(x, p.detector())) == 1
    assert p.params() == DetectorParams()


@pytest.mark.parametrize(
    "body, message",
    [
        (
            "[detector]\nband_hz = [3000.0, 1000.0]\n",
            "detector.band_hz: expected [low, high] with 0 < low < high <= 8000",
        ),
        ("[detector]\nloudness = 3.0\n", "detector.loudness: expected one of band_hz,"),
        (
            '[[whistle]]\nname = "A"\npeak_hz = "high"\npitch_spread_cents = 1.0\n',
            "whistle[0].peak_hz: expected a number",
        ),
        ("[noise]\nspectrum_db = [1.0, 2.0]\n", "noise.spectrum_db: expected 257 values"),
        ("[detector]\nsub_divisors = 6\n", "detector.sub_divisors: expected"),  # 4 or 5 (session 18)
        ("version = 1\n[detector\n", "(file): expected valid TOML"),
    ],
)
def test_bad_profile_names_file_and_key(tmp_path, body, message):
    path = tmp_path / "whistle.toml"
    path.write_text(("" if body.startswith("version") else f"version = {PROFILE_VERSION}\n") + body)
    with pytest.raises(ConfigError) as e:
        load_profile(path)
    assert str(e.value).startswith(f"{path}: ") and message in str(e.value)


def test_learn_band_and_noise_spectrum():
    assert learn_band([2000.0, 3000.0]) == (800.0, 6000.0)  # never narrower than the generic band
    assert learn_band([700.0]) == (525.0, 6000.0)  # widened for a low toy whistle
    assert learn_band([300.0, 6500.0]) == (400.0, 7000.0)  # within the limits
    db = noise_spectrum(ta.noise(1.0, amp=0.01))
    assert len(db) == 257 and np.ptp(db[10:-10]) < 6  # white noise: flat


def test_wizard_errors_are_one_line(cli, recordings, tmp_path):
    quiet = tmp_path / "quiet"
    quiet.mkdir()
    ta.write_wav(quiet / "noise.wav", ta.pink_noise(1.0, amp=0.004))
    ta.write_wav(quiet / "Shaun.wav", ta.pink_noise(2.0, amp=0.004))
    r = cli("calibrate", "whistle", "--players", "Shaun", "--from-wav", str(quiet))
    assert r.returncode == 1
    assert r.stderr.strip() == "bellwether: heard 0 of 3 blows from Shaun; blow longer or closer and run again"
    r = cli("calibrate", "whistle", "--players", "Shaun,Nobody", "--from-wav", str(recordings))
    assert r.returncode == 1 and "Nobody.wav: no such file" in r.stderr and "Traceback" not in r.stderr
    r = cli("calibrate", "whistle", "--players", "A,A", "--from-wav", str(recordings))
    assert r.returncode == 1 and "expected distinct comma-separated names" in r.stderr


# -- the check blows: fresh sound, heard with the new profile --------------------------


def _calibrate_with_checks(checks: dict[str, list], again=None):
    """Ann (2000 Hz) and Bob (3300 Hz) calibrated from generated blows; each player's
    check blows come from ``checks[name]`` (one recording per try, None: no check)."""
    import io

    from calibration.whistle import _Progress, calibrate
    from hardware.testing.sensors import blocks_of, blows_recording

    pitches = {"Ann": 2000.0, "Bob": 3300.0}
    asked: list[str] = []
    tries = {name: iter(recordings) for name, recordings in checks.items()}

    def check(name: str):
        asked.append(name)
        recording = next(tries[name])
        return None if recording is None else blocks_of(recording)

    out = io.StringIO()
    profile, notes = calibrate(
        list(pitches),
        3,
        lambda: blocks_of(ta.noise(1.5, 0.003, seed=3)),
        lambda name: blocks_of(blows_recording(pitches[name], 3, seed=len(name))),
        check,
        _Progress(out),
        **({} if again is None else {"again": again}),
    )
    return profile, notes, asked, out.getvalue()


def _one_blow(hz: float, seed: int = 40):
    from hardware.testing.sensors import blows_recording

    return blows_recording(hz, 1, seed=seed)


def test_a_check_blow_taken_for_another_player_is_tried_again():
    seen = []

    def again(result):
        seen.append(result)
        return True

    _profile, notes, asked, out = _calibrate_with_checks(
        {"Ann": [_one_blow(3300.0), _one_blow(2000.0)], "Bob": [_one_blow(3300.0, seed=41)]}, again
    )
    assert asked == ["Ann", "Ann", "Bob"] and notes == []
    (wrong,) = seen
    assert wrong.player == "Ann" and wrong.heard and wrong.blower == "Bob" and not wrong.ok
    assert wrong.describe().startswith("heard (33") and wrong.describe().endswith("but taken for Bob")
    assert out.count("Ann, blow once more to check.") == 2
    assert "Ann          [-] 0/1 heard (33" in out and "Ann          [#] 1/1 recognised (20" in out


def test_a_check_with_no_blow_says_so_and_the_table_may_go_on():
    quiet = ta.noise(2.0, 0.003, seed=9)
    _profile, notes, asked, out = _calibrate_with_checks({"Ann": [quiet], "Bob": [_one_blow(3300.0)]})
    assert asked == ["Ann", "Bob"]  # no retry asked for: the default goes on
    assert notes == ["Ann: check failed, no blow heard"]
    assert "Ann          [-] 0/1 no blow heard" in out


def test_the_check_never_reuses_the_calibration_blows():
    """Without a fresh check recording nothing is claimed as checked, and silence after
    calibration is no blow, however well the fitted blows themselves would match."""
    from calibration.whistle import check_blow
    from hardware.testing.sensors import blocks_of

    profile, notes, _asked, out = _calibrate_with_checks({"Ann": [None], "Bob": [None]})
    assert notes == ["Ann: not checked (no check recording)", "Bob: not checked (no check recording)"]
    assert "recognised" not in out
    result = check_blow(profile, "Ann", blocks_of(ta.noise(1.0, 0.003, seed=5)))
    assert not result.heard and result.describe() == "no blow heard"


def test_a_noise_frame_after_a_blow_does_not_hide_the_next_blow():
    """Found with noise seed 10 (1 run in ~40 before the seeds were fixed): a
    -12 dB noise frame at 738 Hz, 0.3 s after a 1791 Hz blow ended, extended the
    refractory period to just past the next blow's onset, which was then taken
    for the first blow still going.  Fixed in WhistleDetector._decide: only
    frames near the reported blow's pitch extend the refractory period."""
    from calibration.whistle import listening_detector

    x = ta.pink_noise(3.5, amp=0.004, seed=10)
    for i, at in enumerate((0.5, 1.5, 2.5)):
        ta.place(x, ta.tone(1800 * (1 + 0.005 * (i - 1)), 0.4), at)
    det = listening_detector(noise_spectrum(ta.pink_noise(2.0, amp=0.004, seed=7)))
    heard = [d for i in range(0, len(x), 1024) for d in det.process(x[i : i + 1024])]
    assert len(heard) == 3


def test_a_wide_pea_trill_can_be_calibrated(cli, tmp_path):
    """A pea whistle's trill spreads its line over hundreds of hertz, which session 4's dominance test
    refuses: until session 11 the wizard listened with session 4 alone and heard 0 of 3 such blows
    ("calibration failed").  It listens as the game does now, the cascade hearing what session 4 cannot."""
    d = tmp_path / "rec"
    d.mkdir()
    ta.write_wav(d / "noise.wav", ta.pink_noise(2.0, amp=0.004, seed=7))
    rng = np.random.default_rng(8)
    blows_wav(d / "Pea.wav", lambda i: ws.pea_trill(rng, 2800.0, 0.45) * 0.3)
    blows_wav(d / "check-Pea.wav", lambda i: ws.pea_trill(rng, 2800.0, 0.45) * 0.3, times=(0.5,), length=1.5)
    r = cli("calibrate", "whistle", "--players", "Pea", "--from-wav", str(d))
    assert r.returncode == 0, r.stderr
    assert "Pea          [###] 3/3" in r.stdout, r.stdout
    assert load_profile().signatures[0].peak_hz == pytest.approx(2800, rel=0.2)  # a pea swings its pitch by up to 800 Hz


def test_a_pea_blown_in_a_quiet_room_is_calibrated_from_its_three_blows():
    """Session 15: three pea blows about 36 dB over a quiet room.  Their breath lifts the whole spectrum, which
    the verifier took for noise and the gate for new sound below 1 kHz: the wizard heard only 2 of the 3 blows
    on 5 of these 12 draws ("calibration failed").  With the breath taken as the room it hears all three."""
    import io

    from calibration.whistle import _Progress, calibrate
    from hardware.testing.sensors import blocks_of

    def three_blows(rng: np.random.Generator) -> np.ndarray:
        x = ta.noise(0.4, 0.003, seed=1)
        for i in range(3):
            b = ws.pea_trill(rng, 2800.0) * 0.2
            x = np.concatenate([x, b + ta.noise(len(b) / 16000, 0.003, seed=10 + i)[: len(b)], ta.noise(0.6, 0.003, seed=2)])
        return x

    for draw in range(12):
        sound = three_blows(np.random.default_rng(100 + draw))
        profile, _ = calibrate(["Pea"], 3, lambda: blocks_of(ta.noise(1.5, 0.003, seed=3)), lambda _n, s=sound: blocks_of(s),
                               lambda _n: None, _Progress(io.StringIO()))
        assert profile.signatures[0].peak_hz == pytest.approx(2800, rel=0.3), draw


@pytest.mark.parametrize("hz", [1200.0, 700.0])
def test_a_toy_sounding_its_fifth_harmonic_loudest_is_calibrated(hz, monkeypatch):
    """Session 18 (the wizard and the 1200 Hz toy): whistle_eval.py's toy 1200 Hz (seeds 24-25) and low toy 700 Hz
    (seeds 21-23) failed calibration, "heard 2 of 3 blows": the missed blow's loudest line was its 5th harmonic,
    out of the harmonic check's reach (f/2-f/4), and its own lower harmonics failed that reading's dominance.  The
    wizard's listener reaches f/5 (``LISTEN_SUB_DIVISORS``): three blows heard, the whistle learnt at its fundamental.
    These are seed 24's three toy blows' harmonics (the middle one the 5th loudest), as the eval's wizard hears them."""
    import io

    import calibration.whistle as cw
    from calibration.whistle import CalibrationError, _Progress, calibrate
    from hardware.testing.sensors import blocks_of

    sound = ta.noise(0.4, 0.003, seed=1)
    for i, (amps, s) in enumerate([((1, 0.28, 0.1), 0.3), ((1, 0.8, 1.08, 0.94, 1.55), 0.27), ((1, 1.65, 0.61), 0.5)]):
        b = ta.steady_toy(hz, s, amps)
        sound = np.concatenate([sound, b + ta.noise(s, 0.003, seed=10 + i)[: len(b)], ta.noise(0.6, 0.003, seed=2)])

    def run():
        return calibrate(["Toy"], 3, lambda: blocks_of(ta.noise(2.0, 0.003, seed=3)), lambda _n: blocks_of(sound),
                         lambda _n: None, _Progress(io.StringIO()), hear_distant=True)

    profile, _ = run()
    assert profile.signatures[0].peak_hz == pytest.approx(hz, rel=0.03)
    assert profile.signatures[0].pitch_spread_cents < 60  # the three blows agree: none read at a harmonic
    assert profile.params().sub_divisors == 4  # the profile's detector keeps the generic harmonic check
    monkeypatch.setattr(cw, "LISTEN_SUB_DIVISORS", 4)  # the listener as before session 18
    with pytest.raises(CalibrationError, match="heard 2 of 3 blows"):
        run()


def _toy_1200_profile(hall: ws.HallNoise) -> Profile:
    """The real wizard's profile of a 1200 Hz toy whistle, its quiet room 50 dB under the hall (whistle_eval's recipe)."""
    import io

    from calibration.whistle import _Progress, calibrate
    from hardware.testing.sensors import blocks_of

    rng = np.random.default_rng(12)
    quiet = hall.piece(2.0) * 0.003
    calib = ws.wizard_take(lambda: ws.harmonic_toy(rng, 1200.0))
    profile, _ = calibrate(["Toy"], 3, lambda: blocks_of(quiet), lambda _n: blocks_of(calib), lambda _n: None,
                           _Progress(io.StringIO()), hear_distant=True)
    return profile


def test_a_calibrated_floor_starts_as_the_generic_one_and_loses_no_blow_it_hears():
    # Session 30: a blow 1 s after the detector starts, in a hall 50 dB louder than the room the wizard recorded.
    # Started from that room, session 4's floor still lay tens of dB under the hall, the hall's low lines passed the
    # harmonic check's floor test as the toy's fundamental, and the calibrated detector lost a blow the generic one
    # hears.  Started as the generic detector's (the default), it hears it; after 20 s of the hall both starts agree.
    hall = ws.HallNoise(seed=4)
    profile = _toy_1200_profile(hall)
    rng = np.random.default_rng(20)
    scenes = [ws.scene("cal", hall.piece(3.0), ws.harmonic_toy(rng, 1200.0), float(rng.uniform(-5, 15)), rng) for _ in range(20)]
    scene = scenes[19]

    def heard(det, s: ws.Scene) -> bool:
        det.reset()
        (a, b), = s.blows
        return any(a - 0.1 <= d.detected_at <= b + 0.5 for d in detect(s.samples, det))

    generic, room, first = Profile().detector("combined"), profile.detector("combined", room_floor=True), profile.detector("combined")
    assert heard(generic, scene) and not heard(room, scene) and heard(first, scene)
    warm, = ws.warmed([scene], hall, 20.0)
    assert heard(room, warm) and heard(first, warm)
    assert np.allclose(room.shipped.noise_db, first.shipped.noise_db, atol=1.0)  # the floors have met


def test_a_calibration_blow_heard_at_another_pitch_is_left_out_and_said(monkeypatch):
    """The wizard hears three blows of a 2 kHz whistle, one of them as a 1.2 kHz tone (a noise, a sub-harmonic):
    the signature is the other two's, and the wizard says which blow it left out."""
    import io

    from hardware.whistle import signature

    monkeypatch.setattr(signature, "OUTLIER_CENTS", 300.0)

    from calibration.whistle import _Progress, calibrate
    from hardware.testing.sensors import blocks_of

    x = ta.pink_noise(3.5, amp=0.004, seed=5)
    for at, hz in ((0.5, 2000.0), (1.5, 1200.0), (2.5, 2010.0)):
        ta.place(x, ta.tone(hz, 0.4), at)
    out = io.StringIO()
    profile, _ = calibrate(["Ann"], 3, lambda: blocks_of(ta.noise(1.5, 0.003, seed=3)), lambda _n: blocks_of(x),
                           lambda _n: None, _Progress(out))
    (sig,) = profile.signatures
    assert sig.blows == 2 and sig.peak_hz == pytest.approx(2005, rel=0.01) and sig.pitch_spread_cents < 30
    assert "Ann: the blow heard at 1200 Hz is far from the others; left out" in out.getvalue()
