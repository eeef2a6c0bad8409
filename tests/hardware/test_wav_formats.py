"""A table's own recordings, whatever WAV their recorder writes, reach the real detector.

Each case is one real robot-clips whistle converted by sox (a real third-party tool, as a user would)
into a format recorders write: 24-bit and 96 kHz files are WAVE_FORMAT_EXTENSIBLE, float exports are
tag 3.  Python 3.11's ``wave`` refused every one of them ("unknown format: 65534").
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

from calibration.whistle import Profile
from hardware.audio import AudioFileError, WavSource, read_wav
from hardware.whistle.evaluation import run_file

pytestmark = pytest.mark.skipif(shutil.which("sox") is None, reason="needs sox (scripts/system-packages.sh)")

CLIP = Path("whistle") / "robot-clips" / "whistle" / "whistle_1_metre.wav"

# (name, sox output options, format tag in the file, sample rate)
FORMATS = [
    ("pcm24-44k-stereo", ["-r", "44100", "-c", "2", "-b", "24"], 0xFFFE, 44100),
    ("pcm32-96k-stereo", ["-r", "96000", "-c", "2", "-b", "32"], 0xFFFE, 96000),
    ("float32-48k", ["-r", "48000", "-e", "floating-point", "-b", "32"], 3, 48000),
    ("float64-22k", ["-r", "22050", "-e", "floating-point", "-b", "64"], 3, 22050),
    ("pcm24-4ch", ["-r", "48000", "-c", "4", "-b", "24"], 0xFFFE, 48000),
]


def _sox(src: Path, dst: Path, *options: str) -> Path:
    subprocess.run(["sox", str(src), *options, str(dst)], check=True, capture_output=True)
    return dst


def _tag(path: Path) -> int:
    return struct.unpack("<H", path.read_bytes()[20:22])[0]


@pytest.fixture
def clip(shared_data: Path) -> Path:
    return shared_data / CLIP


def _heard(path: Path) -> list[float]:
    detections, _, _ = run_file(path, Profile().detector())
    return [d.peak_hz for d in detections]


@pytest.mark.parametrize("name, options, tag, rate", FORMATS, ids=[f[0] for f in FORMATS])
def test_recorders_formats_are_read_and_heard_as_the_16_bit_original(tmp_path, clip, name, options, tag, rate):
    path = _sox(clip, tmp_path / f"{name}.wav", *options)
    assert _tag(path) == tag  # the case is what it claims: extensible or float
    x, got_rate = read_wav(path)
    assert got_rate == rate
    original, original_rate = read_wav(clip)
    assert abs(len(x) / rate - len(original) / original_rate) < 0.01
    # Scaled as the 16-bit original (its peak, 0.024, within resampling's overshoot), not as raw integers.
    assert float(np.abs(x).max()) == pytest.approx(float(np.abs(original).max()), rel=0.15)
    assert _heard(path) == pytest.approx(_heard(clip), abs=40)  # the same blow, the same pitch
    assert len(_heard(path)) == 1


def test_a_recording_cut_short_is_read_to_where_it_stops(tmp_path, clip):
    """A recorder unplugged mid-take leaves a data chunk longer than the file: what is there is read."""
    path = _sox(clip, tmp_path / "cut.wav", "-b", "24", "-r", "48000")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 9 // 10])
    x, rate = read_wav(path)
    whole, _ = read_wav(_sox(clip, tmp_path / "whole.wav", "-b", "24", "-r", "48000"))
    assert len(whole) * 0.85 < len(x) < len(whole) * 0.95
    np.testing.assert_array_equal(x, whole[: len(x)])
    src = WavSource(path)
    src.open()
    n = 0
    while (block := src.read()) is not None:
        n += len(block)
    src.close()
    assert abs(n - len(x) * 16000 / rate) < 64


@pytest.mark.parametrize("suffix, kind", [(".flac", "FLAC"), (".ogg", "Ogg")])
def test_other_audio_files_get_one_line_saying_how_to_convert(tmp_path, clip, cli, suffix, kind):
    path = _sox(clip, tmp_path / f"take{suffix}")
    with pytest.raises(AudioFileError) as e:
        read_wav(path)
    assert str(e.value) == (
        f"{path}: not a WAV file this can read ({kind} file, not WAV: "
        "convert it with: sox IN OUT.wav (or ffmpeg -i IN OUT.wav))"
    )
    r = cli("whistle", "detect", str(path), "--no-profile")
    assert r.returncode == 1 and r.stderr.strip() == f"bellwether: {e.value}"


def test_a_law_is_refused_by_name(tmp_path, clip):
    path = _sox(clip, tmp_path / "phone.wav", "-e", "a-law")
    with pytest.raises(AudioFileError, match=r"A-law samples, expected PCM or IEEE float: convert it with"):
        read_wav(path)


def test_the_cli_hears_a_24_bit_recording(tmp_path, clip, cli):
    path = _sox(clip, tmp_path / "take.wav", "-b", "24", "-r", "48000", "-c", "2")
    r = cli("whistle", "detect", str(path), "--no-profile", "--json")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(lines) == 1 and 2700 < lines[0]["peak_hz"] < 3000
