"""Session 15: a calibrated profile exempts the table's own low whistle, not every sound under it.

Profile.params with ``own_whistles = "under"`` (session 10's handling) moves the low-wobble edge
(DetectorParams.steady_below_hz) and the harmonic hold's edge (hold_above_hz) under the lowest calibrated
whistle for every sound: with a 700 Hz toy's profile a baby's cry or a rooster's crow at 0.5-1.2 kHz escapes
the low-wobble rule.  With "near" the edges stay, and only a blow pitched near a calibrated whistle
(DetectorParams.own_hz) is exempt, wobbling up to own_wobble_cents.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import numpy as np
import pytest

from calibration.whistle import OWN_CENTS, OWN_DEFAULT, PROFILE_VERSION, Profile, _Progress, calibrate, load_profile
from companion.errors import ConfigError
from hardware.audio import read_wav, resample
from hardware.testing import audio as ta
from hardware.testing import whistle_synth as ws
from hardware.testing.sensors import blocks_of
from hardware.whistle.detector import DetectorParams, WhistleDetector, detect
from hardware.whistle.signature import Signature

LOW_TOY = (Signature("toy", 690.0, 5.0, 10.0, -3.0, 7.7, 3),)


def blows(make, seed: int, times=(0.5, 1.5, 2.5), length: float = 3.5) -> np.ndarray:
    x = ta.pink_noise(length, amp=0.004, seed=seed)
    for i, at in enumerate(times):
        ta.place(x, make(i), at)
    return x


def toy_blow(seed: int) -> np.ndarray:
    return 0.2 * ws.harmonic_toy(np.random.default_rng(seed), 700.0, 0.45)


@pytest.fixture(scope="module")
def low_toy_profile() -> Profile:
    """The wizard's profile of a 700 Hz toy (3 blows over pink noise)."""
    quiet = ta.pink_noise(2.0, amp=0.004, seed=7)
    sound = blows(lambda i: toy_blow(100 + i), seed=3)
    profile, _ = calibrate(["T"], 3, lambda: blocks_of(quiet), lambda _n: blocks_of(sound), lambda _n: None,
                           _Progress(io.StringIO()), hear_distant=True)
    assert profile.signatures[0].peak_hz == pytest.approx(700, rel=0.03)
    return profile


def _heard(profile: Profile, own: str, x: np.ndarray) -> int:
    return len(detect(x, dataclasses.replace(profile, own=own).detector("combined")))


def test_near_keeps_the_generic_edges_and_windows_each_whistle():
    p = Profile(band_hz=(517.5, 6000.0), signatures=LOW_TOY, own="near").params()
    generic = DetectorParams()
    assert (p.steady_below_hz, p.hold_above_hz) == (generic.steady_below_hz, generic.hold_above_hz)
    assert p.own_hz == ((690.0, OWN_CENTS[0]),)  # 3 x 5 cents is under the window's floor
    wide = Signature("pea", 2800.0, 70.0, 10.0, -3.0, 7.7, 3)
    assert Profile(signatures=(wide,), own="near").params().own_hz == ((2800.0, OWN_CENTS[1]),)
    under = Profile(band_hz=(517.5, 6000.0), signatures=LOW_TOY, own="under").params()
    assert under.steady_below_hz == pytest.approx(517.5) and under.own_hz == ()
    assert Profile(signatures=LOW_TOY).params() == Profile(signatures=LOW_TOY, own=OWN_DEFAULT).params()


def test_a_low_wobbling_cry_is_refused_under_a_low_toys_profile_and_the_toy_still_heard(low_toy_profile, tmp_path):
    """The fresh blows of the calibrated toy are heard with "near" as with "under" (real WAVs, read back);
    a cry wobbling at 560 or 900 Hz is reported with "under" (every sound over 0.75 x 700 Hz exempt) and
    refused with "near", as by the generic detector."""
    for s in range(4):
        path = ta.write_wav(tmp_path / f"toy{s}.wav", blows(lambda i, s=s: toy_blow(200 + 3 * s + i), seed=s))
        x = resample(*read_wav(path))
        assert _heard(low_toy_profile, "under", x) == 3
        assert _heard(low_toy_profile, "near", x) == 3
    for hz in (560, 900):
        path = ta.write_wav(tmp_path / f"cry{hz}.wav",
                            blows(lambda i, hz=hz: 0.2 * ta.trill(hz, 0.5, rate_hz=6, depth_hz=hz / 30, am=0.2), seed=0))
        x = resample(*read_wav(path))
        assert _heard(low_toy_profile, "under", x) == 3
        assert _heard(low_toy_profile, "near", x) == 0
        assert len(detect(x, Profile().detector("combined"))) == 0


def test_the_toys_own_wobble_needs_its_window(low_toy_profile):
    """Without its pitch window (own_hz) the toy's wobbling blows meet the generic 3-cent rule and are lost."""
    near = dataclasses.replace(low_toy_profile, own="near")
    x = np.concatenate([blows(lambda i, s=s: toy_blow(200 + 3 * s + i), seed=s) for s in range(4)])
    with_window = len(detect(x, WhistleDetector(near.params())))
    without = len(detect(x, WhistleDetector(dataclasses.replace(near.params(), own_hz=()))))
    assert with_window == 12 and without < with_window


@pytest.mark.parametrize("clip", ["1-34119-A.wav", "2-100786-A.wav", "4-164064-B.wav"])
def test_a_real_rooster_is_not_heard_under_a_low_toys_profile(shared_data: Path, clip):
    """ESC-10 roosters crowing near 0.7 kHz: the generic detector refuses them; "under" a 690 Hz toy's profile
    took them, "near" refuses them again."""
    x = resample(*read_wav(shared_data / "whistle" / "esc10-negatives" / "009 - Rooster" / clip))
    profile = Profile(band_hz=(517.5, 6000.0), signatures=LOW_TOY)
    assert detect(x, Profile().detector("combined")) == []
    assert len(detect(x, dataclasses.replace(profile, own="under").detector("combined"))) >= 1
    assert detect(x, dataclasses.replace(profile, own="near").detector("combined")) == []


def test_own_whistles_round_trips_and_old_profiles_load(tmp_path):
    path = tmp_path / "whistle.toml"
    for own in ("near", "under", None):
        Profile(band_hz=(517.5, 6000.0), signatures=LOW_TOY, own=own).save(path)
        assert ("own_whistles" in path.read_text()) == (own is not None)
        assert load_profile(path).own == own
    old = 'version = 1\n[[whistle]]\nname = "A"\npeak_hz = 700.0\npitch_spread_cents = 5.0\n'
    path.write_text(old)
    loaded = load_profile(path)
    assert loaded.own is None and loaded.params() == Profile(signatures=loaded.signatures, own=OWN_DEFAULT).params()


@pytest.mark.parametrize("body, message", [
    ('own_whistles = "close"\n', "own_whistles: expected one of 'under', 'near', got 'close'"),
    ("own_whistles = true\n", "own_whistles: expected one of 'under', 'near'"),
    ("[detector]\nown_hz = [700.0, 80.0]\n", "detector.own_hz: expected one of band_hz,"),
])
def test_a_bad_own_whistles_names_the_key(tmp_path, body, message):
    path = tmp_path / "whistle.toml"
    path.write_text(f"version = {PROFILE_VERSION}\n" + body)
    with pytest.raises(ConfigError) as e:
        load_profile(path)
    assert str(e.value).startswith(f"{path}: ") and message in str(e.value)
