"""Every profile loader fed broken files, wrong types and out-of-range values.

Each must give a ConfigError naming the file and the key with the expected
value or range, never another exception, and what it accepts must build its
sensor without error (a profile must not silently disable or crash one).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.config import dump_toml
from companion.errors import ConfigError

from .conftest import ROOT, unprivileged


def _whistle(path: Path) -> Any:
    from calibration.whistle import load_profile

    profile = load_profile(path)
    profile.detector()  # what it accepts must build the detector
    return profile


def _camera(path: Path) -> Any:
    from calibration.camera import load_profile
    from hardware.dice.reader import DiceReader

    profile = load_profile(path)
    DiceReader.from_profile(profile)
    return profile


def _buttons(path: Path) -> Any:
    from calibration.buttons import load_profile

    mapping = load_profile(path)
    if mapping is not None:
        mapping.check()
    return mapping


def _settings(path: Path) -> Any:
    from hardware.audio import AudioSettings

    return AudioSettings.load(path.parent)


def _board(path: Path) -> Any:
    from calibration.board import setup_options

    return setup_options("sheep-hop", 2, str(path.parents[2]))


@dataclass(frozen=True)
class Loader:
    name: str
    file: str  # where the profile lives under the config folder
    load: Callable[[Path], Any]
    base: str  # a valid profile


LOADERS = {
    loader.name: loader
    for loader in (
        Loader(
            "whistle",
            "whistle.toml",
            _whistle,
            'version = 1\ncreated = "today"\n[detector]\nband_hz = [1000.0, 4000.0]\nmin_level_db = 20.0\n'
            'noise_rise_s = 4.0\nmin_strong_frames = 3\n[[whistle]]\nname = "Ann"\npeak_hz = 2000.0\n'
            "pitch_spread_cents = 30.0\nblows = 3\n",
        ),
        Loader(
            "camera",
            "camera.toml",
            _camera,
            "version = 1\n[camera]\nwidth = 640\nheight = 480\n[tray]\nregion = [10, 10, 300, 200]\n"
            '[pips]\nkernel = 15\nmin_contrast = 0.3\nreference_width = 640\n[dice.panic]\nkind = "colour"\n'
            "die_px = 60.0\ntray_lab = [50.0, 0.0, 0.0]\n[dice.panic.faces.red]\nlab = [50.0, 60.0, 40.0]\n",
        ),
        Loader(
            "buttons",
            "buttons.toml",
            _buttons,
            'version = 1\nscheme = "faces"\nbounce_ms = 30\nhold_ms = 500\npull_up = true\n[pins]\nconfirm = 17\nundo = 27\n',
        ),
        Loader(
            "settings", "settings.toml", _settings, '[microphone]\nbackend = "wav"\nwav = "x.wav"\nblock_ms = 32.0\n'
        ),
        Loader("board", "boards/sheep-hop/board.toml", _board, ""),  # base: the shipped board (filled in below)
    )
}


def _base(loader: Loader) -> str:
    if loader.name == "board":
        from calibration.board import _shipped, files

        return _shipped("sheep-hop", files("sheep-hop")[0], 2)
    return loader.base


def _write(tmp_path: Path, loader: Loader, text: str | bytes) -> Path:
    path = tmp_path / "config" / loader.file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_the_valid_base_profile_loads(tmp_path: Path, name: str) -> None:
    loader = LOADERS[name]
    assert loader.load(_write(tmp_path, loader, _base(loader))) is not None


SHAPES = ("directory", "dangling-link", "not-utf8", "bad-toml", "oversized")


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name", sorted(LOADERS))
def test_a_profile_that_is_not_a_readable_toml_file_is_named(tmp_path: Path, name: str, shape: str) -> None:
    loader = LOADERS[name]
    path = tmp_path / "config" / loader.file
    path.parent.mkdir(parents=True, exist_ok=True)
    if shape == "directory":
        path.mkdir()
    elif shape == "dangling-link":
        path.symlink_to(tmp_path / "gone.toml")
    elif shape == "not-utf8":
        path.write_bytes(b"version = 1\n# \xff\xfe\n")
    elif shape == "bad-toml":
        path.write_text("version = 1\n[camera\n")
    else:
        path.write_bytes(b"# " + b"x" * (9 << 20) + b"\n")
    with pytest.raises(ConfigError) as e:
        loader.load(path)
    assert e.value.file == str(path) and len(str(e.value)) < 400


TARGETS = {
    "whistle": "_whistle",
    "camera": "_camera",
    "buttons": "_buttons",
    "settings": "_settings",
    "board": "_board",
}


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_an_unreadable_profile_is_named(tmp_path: Path, name: str) -> None:
    """Run without root's power over permission bits, so that mode 000 really is unreadable."""
    loader = LOADERS[name]
    path = _write(tmp_path, loader, _base(loader))
    path.chmod(0)
    code = (
        "import sys; from pathlib import Path; from companion.errors import ConfigError\n"
        f"from tests.faults.test_profiles import {TARGETS[name]} as load\n"
        "try:\n    load(Path(sys.argv[1]))\nexcept ConfigError as e:\n    print(e); sys.exit(3)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run(
        [*unprivileged(), sys.executable, "-c", code, str(path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 3, r.stdout + r.stderr
    assert str(path) in r.stdout and "Permission denied" in r.stdout


# -- out of range: the cases the issue names, each with the range stated -----------------------------
OUT_OF_RANGE = [
    ("whistle", "[detector]\nnoise_rise_s = 0.0", "detector.noise_rise_s", "> 0"),  # a zero time constant
    ("whistle", "[detector]\nnoise_fall_s = -1.0", "detector.noise_fall_s", "> 0"),
    ("whistle", "[detector]\nband_hz = [2000.0, 2100.0]", "detector.band_hz", "1.2 x low"),  # too narrow a band
    ("whistle", "[detector]\nmin_duration_s = nan", "detector.min_duration_s", "a number"),
    ("whistle", "[detector]\nmax_voiced_fraction = 1.5", "detector.max_voiced_fraction", "from 0 to 1"),
    ("whistle", "[detector]\nmin_strong_frames = 0", "detector.min_strong_frames", "from 1 to 1000"),
    ("whistle", "[detector]\nmax_blow_s = inf", "detector.max_blow_s", "<= 60"),
    ("whistle", '[[whistle]]\nname = "Ann"\npeak_hz = nan\npitch_spread_cents = 1.0', "whistle[0].peak_hz", "from 20"),
    ("whistle", "[detecter]\nband_hz = [1000.0, 4000.0]", "detecter", "one of version"),  # the typo
    ("camera", "[pips]\nkernel = -3", "pips.kernel", "from 1 to 255"),  # a negative kernel
    ("camera", "[pips]\nreference_width = 0", "pips.reference_width", "> 0"),  # a zero reference width
    ("camera", "[pips]\nmin_contrast = nan", "pips.min_contrast", "from 0 to 1"),
    ("camera", "[pips]\nmin_area = 300.0", "pips.min_area", "below pips.max_area"),
    ("camera", "[pips]\nkernal = 15", "pips.kernal", "one of reference_width"),
    (
        "camera",
        "[camera]\nwidth = 640\nheight = 480\n[tray]\nregion = [600, 400, 100, 100]",
        "tray.region",
        "inside the 640x480 frame",
    ),
    ("camera", "[camera]\nwidth = 640\nheight = 480\n[tray]\nregion = [0, 0, 10, 10]", "tray.region", ">= 16"),
    ("camera", "[camera]\nfps = 0", "camera.fps", "from 1 to 120"),
    ("camera", "[camera]\nwidht = 640", "camera.widht", "one of backend"),
    (
        "camera",
        "[dice.panic]\ndie_px = 60.0\n[dice.panic.faces.red]\nlab = [500.0, 0.0, 0.0]",
        "dice.panic.faces.red.lab",
        "L 0 to 100",
    ),
    ("buttons", "bounce_ms = -1\n[pins]\nconfirm = 17", "bounce_ms", "from 0 to 1000"),
    ("buttons", "hold_ms = nan\n[pins]\nconfirm = 17", "hold_ms", "from 50 to 5000"),
    ("buttons", "bounce_sm = 30\n[pins]\nconfirm = 17", "bounce_sm", "one of version"),
    ("buttons", "[pins]\nconfirm = 99", "pins.confirm", "0-40"),
    ("settings", "[microphone]\nblock_ms = 0", "microphone.block_ms", "from 8 to 64"),
    ("settings", "[microphone]\nblock_ms = nan", "microphone.block_ms", "from 8 to 64"),
    ("settings", "[microphone]\nbackend = 3", "microphone.backend", "one of"),
    ("settings", "[microphone]\ndevice = -1", "microphone.device", "0 to 255"),
    ("camera", "[camera]\ndevice = 9999", "camera.device", "0 to 255"),
    ("settings", '[microphon]\nbackend = "wav"', "microphon", "one of microphone"),
    ("board", "[meadoww]\nrows = []", "meadoww", "one of sheep, die, meadow, wolves"),
]


@pytest.mark.parametrize(
    ("name", "text", "key", "expected"), OUT_OF_RANGE, ids=[f"{c[0]}:{c[2]}" for c in OUT_OF_RANGE]
)
def test_an_out_of_range_value_is_refused_with_its_range(
    tmp_path: Path, name: str, text: str, key: str, expected: str
) -> None:
    loader = LOADERS[name]
    head = "version = 1\n" if name in ("whistle", "camera", "buttons") else ""
    path = _write(tmp_path, loader, head + text + "\n")
    with pytest.raises(ConfigError) as e:
        loader.load(path)
    assert e.value.file == str(path) and e.value.key == key, str(e.value)
    assert expected in str(e.value), str(e.value)


# -- any wrong type or value anywhere: a ConfigError or a usable profile, never another exception ----------
TOML_VALUES = st.one_of(
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.sampled_from([0, -1, 0.0, -0.5, 1e300, 2**62]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.lists(st.integers(min_value=-5, max_value=5000), max_size=5),
    st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=3),
    st.just({"a": 1}),
    st.just([{"x": 1}]),
)


def _places(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield (*prefix, k)
            yield from _places(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):
            yield (*prefix, i)
            yield from _places(v, (*prefix, i))


def _mutated(data: dict[str, Any], place: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    target = data
    for step in place[:-1]:
        target = target[step]
    target[place[-1]] = value
    return data


@pytest.mark.parametrize("name", sorted(LOADERS))
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_wrong_value_is_a_config_error_or_a_working_profile(tmp_path: Path, name: str, data: st.DataObject) -> None:
    loader = LOADERS[name]
    base = tomllib.loads(_base(loader))
    place = data.draw(st.sampled_from(list(_places(base))), label="place")
    value = data.draw(TOML_VALUES, label="value")
    if data.draw(st.booleans(), label="as a new key"):
        place = (*place[:-1], data.draw(st.sampled_from(["extra", "band_hz", "kernel", "zz"]), label="key"))
    try:
        text = dump_toml(_mutated(base, place, value))
    except (TypeError, KeyError, IndexError):
        return  # not a place a new key can go (inside a list of scalars)
    path = _write(tmp_path, loader, text)
    try:
        loader.load(path)
    except ConfigError as e:
        assert e.file == str(path) and e.key and "expected" in str(e)
