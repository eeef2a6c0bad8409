"""The known-whistle matcher (hardware/whistle/known.py): a calibrated table hears its own toy whistle."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pytest

from calibration import whistle as cw
from calibration.whistle import Profile, _Progress, calibrate, load_profile
from companion.errors import ConfigError
from hardware.testing import audio as ta
from hardware.testing import whistle_synth as ws
from hardware.testing.sensors import blocks_of
from hardware.whistle import known
from hardware.whistle.detector import RATE, detect


def _low_toy_profile() -> Profile:
    """The real wizard's profile of a 700 Hz toy whistle (rich in harmonics), as whistle_eval calibrates it."""
    rng = np.random.default_rng(11)
    quiet = ws.HallNoise(seed=3).piece(2.0) * 0.003
    calib = ta.noise(0.4, 0.003, seed=1)
    for i in range(3):
        b = ws.harmonic_toy(rng, 700.0) * 0.2
        calib = np.concatenate([calib, b + ta.noise(len(b) / RATE, 0.003, seed=10 + i)[: len(b)],
                                ta.noise(0.6, 0.003, seed=2)])
    profile, _ = calibrate(["Shaun"], 3, lambda: blocks_of(quiet), lambda _n: blocks_of(calib), lambda _n: None,
                           _Progress(io.StringIO()), hear_distant=True)
    return profile


@pytest.fixture(scope="module")
def toy() -> Profile:
    return _low_toy_profile()


def _heard(profile: Profile, scenes: list[ws.Scene]) -> int:
    det = profile.detector("combined")
    hits = 0
    for s in scenes:
        det.reset()
        (a, b), = s.blows
        hits += any(a - 0.1 <= d.detected_at <= b + 0.5 for d in detect(s.samples, det))
    return hits


def test_the_wizard_keeps_a_template_per_whistle(toy):
    t = toy.templates["Shaun"]
    assert cw.MIN_POINTS <= len(t) <= cw.MAX_POINTS and all(0 <= v <= cw.MAX_DB for v in t)
    x = known.grid(toy.signatures[0].peak_hz)[: len(t)]
    # the toy's fundamental and harmonics stand out of the template, the points between them do not
    lines = np.asarray(t)[np.isin(x, [1.0, 2.0])]
    between = np.asarray(t)[np.isin(x, [1.5, 2.5])]
    assert lines.min() > between.max() + 10


def test_a_calibrated_table_hears_its_low_toy_whistle_the_generic_rules_refuse(toy):
    rng = np.random.default_rng(5)
    hall = ws.HallNoise(seed=8)
    scenes = [ws.scene("toy", hall.piece(3.0), ws.harmonic_toy(rng, 700.0), float(rng.uniform(0, 10)), rng)
              for _ in range(20)]
    # The matcher against the harmonic check as it was before session 17's floor test (sub_over_floor_db 0):
    # 4 and 8 of 20.  With the floor test (the default) the profile alone hears 10, the matcher 11.
    before = dataclasses.replace(toy, overrides={**toy.overrides, "sub_over_floor_db": 0.0})
    off = _heard(dataclasses.replace(before, known=False), scenes)
    on = _heard(dataclasses.replace(before, known=True), scenes)
    generic = _heard(Profile(), scenes)
    assert generic == 0 and on >= off + 3, (generic, off, on)
    assert _heard(dataclasses.replace(toy, known=False), scenes) >= on  # the floor test alone: as many as the matcher
    # the matched blow is attributed to the whistle it matched
    det = dataclasses.replace(before, known=True).detector("combined")
    got = [d for s in scenes for d in (det.reset(), detect(s.samples, det))[1] if "known_corr" in d.features]
    assert got and {d.blower for d in got} == {"Shaun"}


@pytest.mark.parametrize("noise", ["speech", "music", "laughter"])
def test_the_matcher_refuses_voices_and_music_with_that_profile(toy, noise):
    if noise == "speech":
        if not ta.espeak_available():
            pytest.skip("espeak-ng not installed")
        x = np.concatenate([ta.speech(line, pitch=p) for line in ta.SPEECH_LINES[:3] for p in (30, 70)]) * 0.3
    elif noise == "music":
        x = np.concatenate([ta.music(10.0, seed=s) for s in range(3)])
    else:
        x = np.concatenate([ta.laughter(10.0, seed=s) for s in range(3)])
    det = dataclasses.replace(toy, known=True).detector("combined")
    assert [d for d in detect(x, det) if "known_corr" in d.features] == []


def test_a_profile_without_templates_or_switched_off_has_no_matcher(toy):
    assert dataclasses.replace(toy, known=False).detector("combined").known is None
    assert dataclasses.replace(toy, templates={}).detector("combined").known is None
    assert Profile().detector("combined").known is None
    assert (toy.detector("combined").known is not None) == known.KNOWN_DEFAULT


def test_templates_round_trip_and_old_profiles_still_load(toy, tmp_path):
    on = dataclasses.replace(toy, known=True)
    back = load_profile(on.save(tmp_path / "w.toml"))
    assert back.templates == toy.templates and back.known is True and [s.name for s in back.signatures] == ["Shaun"]
    assert back.detector("combined").known is not None
    old = dataclasses.replace(toy, templates={}, known=None)
    text = old.to_toml()
    assert "template_db" not in text and "known_whistles" not in text
    back = load_profile(old.save(tmp_path / "old.toml"))
    assert back.templates == {} and back.known is None


@pytest.mark.parametrize(
    "body, message",
    [
        ("template_db = [1.0, 2.0]", "whistle[0].template_db: expected a list of 9-33 numbers from 0 to 60"),
        ("template_db = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 99.0]", "whistle[0].template_db: expected a list of"),
        ('template_db = "loud"', "whistle[0].template_db: expected a list of"),
    ],
)
def test_a_bad_template_names_its_key(tmp_path, body, message):
    path = tmp_path / "whistle.toml"
    path.write_text(f'version = {cw.PROFILE_VERSION}\n[[whistle]]\nname = "A"\npeak_hz = 700.0\n'
                    f"pitch_spread_cents = 5.0\n{body}\n")
    with pytest.raises(ConfigError) as e:
        load_profile(path)
    assert str(e.value).startswith(f"{path}: ") and message in str(e.value)


def test_a_bad_switch_names_its_key(tmp_path):
    path = tmp_path / "whistle.toml"
    path.write_text(f'version = {cw.PROFILE_VERSION}\nknown_whistles = "yes"\n')
    with pytest.raises(ConfigError, match="known_whistles: expected true or false"):
        load_profile(path)


def test_the_profile_and_the_matcher_agree_on_the_template():
    assert cw.TEMPLATE_KEY == "template_db"
    assert (cw.MIN_POINTS, cw.MAX_POINTS, cw.MAX_DB) == (known.MIN_POINTS, known.MAX_POINTS, known.MAX_DB)
    assert len(known.grid(1.0)) == known.MAX_POINTS
