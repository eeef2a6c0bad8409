"""Audio input: resampling, WAV and in-memory sources, PyAudio over the shipped fake, backend choice."""

from __future__ import annotations

import contextlib
import queue
import threading
import time
import wave
from pathlib import Path

import numpy as np
import pytest

from companion.errors import ConfigError, SensorError
from hardware.audio import (
    RATE,
    ArraySource,
    AudioFileError,
    AudioSettings,
    PyAudioSource,
    Resampler,
    WavSource,
    find_device,
    list_devices,
    open_source,
    read_wav,
    resample,
    run_source,
)
from hardware.sensor import Sensor, SensorStatus
from hardware.testing.audio import FakeDevice, FakePyAudio, tone, write_wav


def peak_hz(x: np.ndarray, rate: int = RATE) -> float:
    spec = np.abs(np.fft.rfft(x * np.hanning(len(x))))
    return float(np.fft.rfftfreq(len(x), 1 / rate)[spec.argmax()])


def test_resampler_keeps_pitch_and_length_at_an_odd_rate():
    src = 48128
    t = np.arange(src) / src
    y = resample(np.sin(2 * np.pi * 1000 * t).astype(np.float32), src)
    assert abs(len(y) - RATE) <= 2
    assert abs(peak_hz(y) - 1000) < 5


def test_resampler_streaming_matches_one_call():
    rng = np.random.default_rng(1)
    x = rng.standard_normal(44100).astype(np.float32)
    whole = Resampler(44100)(x)
    r = Resampler(44100)
    parts = []
    i = 0
    for size in rng.integers(1, 3000, 100):
        parts.append(r(x[i : i + size]))
        i += size
        if i >= len(x):
            break
    parts.append(r(x[i:]))
    streamed = np.concatenate(parts)
    assert len(streamed) == len(whole)
    np.testing.assert_allclose(streamed, whole, atol=1e-5)


def test_resampler_whole_step_takes_every_third_filtered_sample():
    """48 kHz to 16 kHz (session 16's ``_decimate``): streamed in blocks of any size, the outputs are exactly
    every third sample of the filtered stream (each block filtered after the last 46 samples, as the
    resampler does), whatever phase a block leaves."""
    from hardware.audio import _fir, _lowpass

    rng = np.random.default_rng(7)
    x = (0.3 * rng.standard_normal(120_000)).astype(np.float32)
    h = _lowpass(0.45 / 3, 47)
    r, hist, filtered, got, i = Resampler(48000), np.zeros(46, np.float32), [], [], 0
    for size in [*rng.integers(1, 5, 50), *rng.integers(1, 4000, 60), 3072, 3072]:
        block = x[i : i + size]
        buf = np.concatenate([hist, block])
        hist, i = buf[-46:], i + size
        filtered.append(_fir(buf, h))
        got.append(r(block))
        assert got[-1].dtype == np.float32 and got[-1].flags.c_contiguous
    want = np.concatenate(filtered)[::3]
    assert np.concatenate(got).tobytes() == want.tobytes()


@pytest.mark.parametrize("src", [48000, 44100, 48128, 8000])
def test_resampler_fast_paths_equal_the_plain_formula(src):
    """The streaming resampler (OpenCV's FIR, whole-step slicing at 48 kHz) gives what the plain
    formula gives: np.convolve over the signal, then np.interp at every output time."""
    from hardware.audio import _lowpass

    rng = np.random.default_rng(src)
    x = (0.1 * rng.standard_normal(src // 2)).astype(np.float32)
    step = src / RATE
    r = Resampler(src)
    streamed, i = [], 0
    for size in rng.integers(1, 4000, 200):
        streamed.append(r(x[i : i + size]))
        i += size
    streamed.append(r(x[i:]))
    got = np.concatenate(streamed)
    if step > 1:
        h = _lowpass(0.45 / step, 47)
        y = np.convolve(np.concatenate([np.zeros(46, np.float32), x]), h, "valid")
        want = np.interp(step * np.arange(len(got)), np.arange(len(y)), y)
    else:
        h = _lowpass(0.45 * step, 63)
        up = np.interp(step * np.arange(len(got)), np.arange(len(x)), x)
        want = np.convolve(np.concatenate([np.zeros(62), up]), h, "valid")
    assert abs(len(got) - len(x) / step) <= 2
    np.testing.assert_allclose(got, want, atol=1e-5)


def test_resampler_stops_high_sound_folding_into_the_band():
    src = 48000
    t = np.arange(src) / src
    y = resample(0.5 * np.sin(2 * np.pi * 11000 * t).astype(np.float32), src)
    # 11 kHz would fold to 5 kHz, right in the whistle band, without the filter.
    assert 20 * np.log10(np.std(y[200:]) / (0.5 / np.sqrt(2))) < -40


def test_resampler_identity_and_upsampling():
    x = tone(1000, 0.5)
    assert Resampler(RATE)(x) is not None and np.array_equal(Resampler(RATE)(x), x)
    up = resample(tone(1000, 0.5, rate=8000), 8000)
    assert abs(len(up) - 8000) <= 2 and abs(peak_hz(up) - 1000) < 5


def _write_stereo_44k(path: Path) -> None:
    t = np.arange(44100) / 44100
    left = (0.3 * np.sin(2 * np.pi * 2000 * t) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(44100)
        w.writeframes(np.stack([left, left], axis=1).tobytes())


def test_wav_source_reads_blocks_mono_16k(tmp_path):
    path = tmp_path / "stereo.wav"
    _write_stereo_44k(path)
    src = WavSource(path, block_s=0.064)
    src.open()
    blocks = []
    while (b := src.read()) is not None:
        blocks.append(b)
    src.close()
    assert all(len(b) <= 1030 for b in blocks)
    y = np.concatenate(blocks)
    assert abs(len(y) - RATE) <= 2
    assert abs(peak_hz(y) - 2000) < 5
    x, rate = read_wav(path)
    assert rate == 44100 and len(x) == 44100


def test_bad_wav_files_are_one_line_errors(tmp_path):
    with pytest.raises(AudioFileError, match="no such file"):
        read_wav(tmp_path / "missing.wav")
    junk = tmp_path / "junk.wav"
    junk.write_text("not audio")
    with pytest.raises(AudioFileError, match="not a WAV file this can read") as e:
        read_wav(junk)
    assert "\n" not in str(e.value) and str(junk) in str(e.value)


def test_array_source_loops_and_ends():
    src = ArraySource(np.ones(2000, np.float32), block_s=0.064)
    src.open()
    assert [len(src.read()) for _ in range(2)] == [1024, 976]
    assert src.read() is None
    looping = ArraySource(np.ones(2000, np.float32), loop=True)
    looping.open()
    assert sum(len(looping.read()) for _ in range(5)) > 2000


def test_devices_by_index_and_name():
    pa = FakePyAudio([FakeDevice("HDA Intel PCH: ALC"), FakeDevice("USB PnP Sound Device")])
    devices = list_devices(pa)
    assert [d.name for d in devices] == ["HDA Intel PCH: ALC", "USB PnP Sound Device"]
    assert find_device(devices, "usb pnp").index == 1
    assert find_device(devices, 0).name.startswith("HDA")
    assert find_device(devices, "1").index == 1
    assert find_device(devices, None) is None
    with pytest.raises(SensorError, match="no input device named like 'Blue Yeti'"):
        find_device(devices, "Blue Yeti")
    with pytest.raises(SensorError, match="no input device with index 7"):
        find_device(devices, 7)


def test_pyaudio_source_resamples_a_48k_device():
    dev = FakeDevice("USB mic", rate=48000, signal=tone(1500, 1.0, rate=48000))
    pa = FakePyAudio([dev])
    src = PyAudioSource("USB", pyaudio_factory=lambda: pa)
    src.open()
    got = []
    deadline = time.monotonic() + 5
    while sum(map(len, got)) < RATE and time.monotonic() < deadline:
        got.append(src.read(0.5))
    src.close()
    y = np.concatenate(got)
    assert src.rate == 48000 and "USB mic at 48000 Hz" in src.description
    assert abs(peak_hz(y[: RATE // 2]) - 1500) < 10
    assert pa.terminated


def _read_seconds(src: PyAudioSource, seconds: float) -> np.ndarray:
    got = []
    deadline = time.monotonic() + 5
    while sum(map(len, got)) < seconds * RATE and time.monotonic() < deadline:
        got.append(src.read(0.5))
    return np.concatenate(got)


@pytest.mark.parametrize(("rate", "channels"), [(48000, 2), (RATE, 4)])
def test_a_device_that_refuses_mono_is_opened_with_its_own_channels_and_read_in_its_first(rate, channels):
    """An ALSA hw device chosen by name opens only with its own channel count (a ReSpeaker 2-mic HAT's 2, a PS3 Eye
    camera's 4); asked for one channel it refused, and the microphone stayed offline."""
    dev = FakeDevice("hw mic array", rate=rate, channels=channels, min_channels=channels, signal=tone(2500, 1.0, rate=rate),
                     other_channels=-0.5)  # the others hear it in another phase: their mean would halve it
    pa = FakePyAudio([dev])
    src = PyAudioSource("array", pyaudio_factory=lambda: pa)
    src.open()
    y = _read_seconds(src, 1.0)
    src.close()
    assert src.channels == channels and src.rate == rate
    assert src.description == f"hw mic array at {rate} Hz, the first of its {channels} channels"
    level = np.abs(dev.signal).max()
    assert abs(peak_hz(y[: RATE // 2]) - 2500) < 10 and abs(np.abs(y[100:]).max() - level) < 0.05 * level  # mono
    # a mono-capable device is still opened in mono
    mono = FakePyAudio([FakeDevice("USB mic", channels=2, signal=tone(2500, 1.0))])
    src = PyAudioSource("USB", pyaudio_factory=lambda: mono)
    src.open()
    src.close()
    assert src.channels == 1 and src.description == "USB mic at 16000 Hz"


@pytest.mark.parametrize(("formats", "depth"), [((2,), ", 32-bit samples"), ((1,), ", float samples"), ((8, 2), "")])
def test_a_device_that_refuses_16_bit_samples_is_read_in_its_own(formats, depth):
    """An I2S microphone's hw device (an INMP441 on a Pi) gives 32-bit stereo only; asked for 16-bit it refused."""
    dev = FakeDevice("i2s mic", rate=48000, channels=2, min_channels=2, formats=formats, signal=tone(2500, 1.0, rate=48000))
    src = PyAudioSource("i2s", pyaudio_factory=lambda: FakePyAudio([dev]))
    src.open()
    y = _read_seconds(src, 1.0)
    src.close()
    assert src.description == f"i2s mic at 48000 Hz, the first of its 2 channels{depth}"
    level = np.abs(dev.signal).max()
    assert abs(peak_hz(y[: RATE // 2]) - 2500) < 10 and abs(np.abs(y[100:]).max() - level) < 0.05 * level


def test_a_real_whistle_through_a_four_channel_array_is_heard(shared_data):
    from hardware.whistle.combined import CombinedDetector

    x, rate = read_wav(shared_data / "whistle" / "robot-clips" / "whistle" / "whistle_2015_07_18_051223_vali.wav")
    dev = FakeDevice("PS3 Eye", rate=rate, channels=4, min_channels=4, signal=np.concatenate([x, np.zeros(rate, np.float32)]))
    src = PyAudioSource("PS3", pyaudio_factory=lambda: FakePyAudio([dev]))
    src.open()
    y = _read_seconds(src, len(dev.signal) / rate)
    src.close()
    det = CombinedDetector()
    heard = [d for i in range(0, len(y), 1024) for d in det.process(y[i : i + 1024])]
    assert len(heard) == 1 and 2600 < heard[0].peak_hz < 3300


class _Recorder(Sensor):
    name = "microphone"


def test_device_lost_mid_stream_goes_offline_then_online_again():
    dev = FakeDevice("USB mic", signal=tone(1000, 0.5), fail_after_blocks=5, unavailable_opens=2)
    pa = FakePyAudio([dev])
    source = PyAudioSource("USB", stall_s=0.5, pyaudio_factory=lambda: pa)
    sensor = _Recorder(queue.Queue())
    stop = threading.Event()
    blocks: list[int] = []
    thread = threading.Thread(
        target=run_source,
        args=(source, sensor, lambda b: blocks.append(len(b)), stop),
        kwargs={"backoff": (0.02, 0.1)},
        daemon=True,
    )
    thread.start()
    statuses: list[SensorStatus] = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with contextlib.suppress(queue.Empty):
            statuses.append(sensor.out.get(timeout=0.05))
        if sum(s.online for s in statuses) >= 2 and len(blocks) > 10:
            break
    stop.set()
    thread.join(5)
    assert not thread.is_alive()
    online = [s.online for s in statuses]
    # online, then offline (stream stopped), offline while it cannot open, then online again.
    assert online[0] is True and online[1] is False and online[-1] is True, statuses
    assert any("stopped" in s.reason for s in statuses if not s.online)
    assert any("cannot open" in s.reason for s in statuses if not s.online)
    assert pa.failed_opens == 2 and pa.opens == 2
    assert len(blocks) > 10


def test_processing_error_never_escapes_the_worker():
    src = ArraySource(tone(1000, 0.5))
    sensor = _Recorder(queue.Queue())
    stop = threading.Event()
    calls = []

    def broken(block: np.ndarray) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("bug in a detector")
        stop.set()

    run_source(src, sensor, broken, stop, backoff=(0.01, 0.01))
    statuses = [sensor.out.get_nowait() for _ in range(sensor.out.qsize())]
    assert [s.online for s in statuses][:3] == [True, False, True]
    assert "internal error: bug in a detector" in statuses[1].reason


def test_backend_from_env_and_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("BELLWETHER_AUDIO_BACKEND", "memory")
    name, src = open_source(AudioSettings())
    assert name == "memory" and isinstance(src, ArraySource)
    monkeypatch.setenv("BELLWETHER_AUDIO_BACKEND", "tape")
    with pytest.raises(ConfigError, match=r"BELLWETHER_AUDIO_BACKEND: microphone\.backend: expected one of"):
        open_source(AudioSettings())
    monkeypatch.delenv("BELLWETHER_AUDIO_BACKEND")
    wav = write_wav(tmp_path / "a.wav", tone(1000, 0.2))
    (tmp_path / "settings.toml").write_text(f'[microphone]\nbackend = "wav"\nwav = "{wav}"\nblock_ms = 32\n')
    name, src = open_source(AudioSettings.load(tmp_path))
    assert name == "wav" and isinstance(src, WavSource) and src.block_s == 0.032


def test_bad_settings_name_file_and_key(tmp_path):
    (tmp_path / "settings.toml").write_text("[microphone]\nblock_ms = 500\n")
    with pytest.raises(ConfigError) as e:
        AudioSettings.load(tmp_path)
    assert str(e.value) == f"{tmp_path / 'settings.toml'}: microphone.block_ms: expected a number from 8 to 64, got 500"
    (tmp_path / "settings.toml").write_text('[microphone]\nbackend = "wav"\n')
    with pytest.raises(SensorError, match=r"microphone\.wav: expected a WAV path"):
        open_source(AudioSettings.load(tmp_path))


@pytest.mark.parametrize("width", [1, 2, 3, 4])
def test_wav_sample_widths(tmp_path, width):
    x = tone(1000, 0.25)
    if width == 1:
        data = np.clip(x * 127 + 128, 0, 255).astype(np.uint8).tobytes()
    elif width == 3:
        v = np.round(x * (2**23 - 1)).astype("<i4").view(np.uint8).reshape(-1, 4)[:, :3]
        data = v.tobytes()
    else:
        data = np.round(x * (2 ** (8 * width - 1) - 1)).astype(f"<i{width}").tobytes()
    path = tmp_path / f"w{width}.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(width)
        w.setframerate(RATE)
        w.writeframes(data)
    y, rate = read_wav(path)
    assert rate == RATE and len(y) == len(x)
    np.testing.assert_allclose(y, x, atol=0.01)


def test_portaudio_probe_prints_nothing_and_stderr_still_works():
    """The real PyAudio, in a real process: ALSA/JACK probe noise is silenced, later stderr is not."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from hardware.audio import list_devices\n"
        "list_devices()\n"
        "print('after the probe', file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "after the probe\n"


def test_upsampling_leaves_no_image_in_the_whistle_band():
    # An 8 kHz microphone: a 3 kHz whistle must not get a 5 kHz twin (8 kHz - 3 kHz)
    # from the interpolation, which would sit inside the whistle band.
    x = tone(3000, 1.0, amp=0.5, rate=8000)
    up = resample(x, 8000)
    spec = np.abs(np.fft.rfft(up[400:-400] * np.hanning(len(up) - 800))) ** 2
    f = np.fft.rfftfreq(len(up) - 800, 1 / RATE)
    image = spec[(f > 4800) & (f < 5200)].sum() / spec[(f > 2800) & (f < 3200)].sum()
    assert 10 * np.log10(image) < -40
    # Streaming in blocks gives the same as one call.
    r = Resampler(8000)
    parts = np.concatenate([r(x[i : i + 333]) for i in range(0, len(x), 333)])
    np.testing.assert_allclose(parts, up, atol=1e-5)


@pytest.mark.parametrize("offset, value, message", [
    (24, 0, "broken WAV header: sample rate expected 1 to 768000 Hz, got 0"),
    (24, 10**9, "broken WAV header: sample rate expected 1 to 768000 Hz, got 1000000000"),
    (22, 0, "not a WAV file this can read (channels expected at least 1, got 0)"),
])
def test_a_broken_wav_header_is_one_clear_error(tmp_path, cli, offset, value, message):
    import struct

    path = write_wav(tmp_path / "broken.wav", tone(2000, 0.2))
    data = bytearray(path.read_bytes())
    data[offset : offset + (4 if offset == 24 else 2)] = struct.pack("<I" if offset == 24 else "<H", value)
    path.write_bytes(bytes(data))
    import re

    with pytest.raises(AudioFileError, match=re.escape(message)):
        read_wav(path)
    with pytest.raises(AudioFileError, match=re.escape(message)):
        WavSource(path).open()
    manifest = tmp_path / "m.csv"
    manifest.write_text("path,label,onset_s,offset_s,category\nbroken.wav,whistle,,,whistle\n")
    for args in (("whistle", "detect", str(path), "--no-profile"), ("whistle", "eval", str(manifest))):
        r = cli(*args)
        assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
        assert r.stderr.strip() == f"bellwether: {path}: {message}"
