"""Whistle calibration: the profile file, the wizard from WAV files, defaults and errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from calibration.whistle import PROFILE_VERSION, Profile, learn_band, load_profile, noise_spectrum, profile_path
from companion.errors import ConfigError
from hardware.testing import audio as ta
from hardware.whistle.detector import DetectorParams, detect
from hardware.whistle.signature import Signature


def blows_wav(path: Path, make, times=(0.5, 1.5, 2.5), length: float = 3.5) -> Path:
    x = ta.pink_noise(length, amp=0.004, seed=hash(path.name) % 1000)
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
    sigs = (Signature("Shaun", 1800.0, 12.5, 4.0, -38.0, 1.5, 3), Signature('Ti"mmy', 2700.0, 20.0, 30.0, -20.0, 3.0, 3))
    noise = tuple(float(v) for v in np.linspace(-90, -60, 257).round(1))
    p = Profile(band_hz=(1350.0, 3645.0), overrides={"on_snr_db": 15.0, "min_strong_frames": 4},
                noise_db=noise, signatures=sigs, created="2026-11-29T12:00:00+00:00")
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
        ("[detector]\nband_hz = [3000.0, 1000.0]\n", "detector.band_hz: expected [low, high] with 0 < low < high <= 8000"),
        ("[detector]\nloudness = 3.0\n", "detector.loudness: expected one of band_hz,"),
        ('[[whistle]]\nname = "A"\npeak_hz = "high"\npitch_spread_cents = 1.0\n', "whistle[0].peak_hz: expected a number"),
        ("[noise]\nspectrum_db = [1.0, 2.0]\n", "noise.spectrum_db: expected 257 values"),
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
    assert learn_band([2000.0, 3000.0]) == (1500.0, 4050.0)
    assert learn_band([300.0]) == (400.0, 600.0)  # clipped, and never narrower than half an octave
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
