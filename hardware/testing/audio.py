"""Fake microphones and generated sounds, shipped in the package.

``FakePyAudio`` stands in for ``pyaudio.PyAudio`` (same methods, same
callback contract) and can be told to lose its device mid-stream and to
refuse to reopen for a while, so the microphone's offline/online cycle is
tested with the real ``PyAudioSource`` code.  The generators make the sounds
the detector must accept (thin tones, trills, harmonic toy whistles) and must
reject (noise, clicks, laughter-like bursts, music, speech from espeak-ng).
All signals are float32 mono in -1..1 at ``RATE`` unless a rate is given.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import threading
import time
import wave
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hardware.audio import PA_FLOAT32, PA_INT16, PA_INT32, SAMPLE_FORMATS, read_wav, resample

# The generators the demo source also uses live in hardware.signals; they are
# re-exported here so that every test sound comes from one module.
from hardware.signals import RATE as RATE
from hardware.signals import envelope as envelope
from hardware.signals import noise as noise
from hardware.signals import place as place
from hardware.signals import sample_times as _t
from hardware.signals import tone as tone

# -- generated sounds ---------------------------------------------------------


def chirp(f0: float, f1: float, duration: float, amp: float = 0.3, rate: int = RATE) -> np.ndarray:
    """A linear glide from f0 to f1 (a slide whistle)."""
    t = _t(duration, rate)
    phase = 2 * np.pi * (f0 * t + (f1 - f0) * t**2 / (2 * duration))
    return (amp * np.sin(phase) * envelope(len(t), rate)).astype(np.float32)


def trill(
    freq: float, duration: float, rate_hz: float = 25.0, depth_hz: float = 150.0, amp: float = 0.3,
    am: float = 0.6, rate: int = RATE,
) -> np.ndarray:
    """A pea whistle: the pea chops the air, modulating pitch and loudness at rate_hz."""
    t = _t(duration, rate)
    phase = 2 * np.pi * freq * t + (depth_hz / rate_hz) * np.sin(2 * np.pi * rate_hz * t)
    loud = 1 - am * 0.5 * (1 + np.sin(2 * np.pi * rate_hz * t))
    return (amp * loud * np.sin(phase) * envelope(len(t), rate)).astype(np.float32)


def harmonic_toy(
    freq: float, duration: float, harmonics: tuple[float, ...] = (1.0, 0.7, 0.45, 0.25), amp: float = 0.3,
    breath: float = 0.02, seed: int = 0, rate: int = RATE,
) -> np.ndarray:
    """A toy whistle: a fundamental with strong harmonics and some breath noise."""
    t = _t(duration, rate)
    rng = np.random.default_rng(seed)
    # A little pitch wobble, as a blown whistle never holds exactly still.
    wobble = 1 + 0.004 * np.sin(2 * np.pi * 5 * t)
    phase = 2 * np.pi * freq * np.cumsum(wobble) / rate
    y = sum(a * np.sin((i + 1) * phase) for i, a in enumerate(harmonics) if (i + 1) * freq < rate / 2)
    y = y / max(1e-9, sum(harmonics)) + breath * rng.standard_normal(len(t))
    return (amp * y * envelope(len(t), rate)).astype(np.float32)


def steady_toy(
    freq: float, duration: float, harmonics: tuple[float, ...], amp: float = 0.2, breath: float = 0.0, seed: int = 0,
    rate: int = RATE,
) -> np.ndarray:
    """A toy whistle held dead still (no wobble): harmonics of ``freq`` at the given strengths, ``breath`` of
    white noise (seeded) before a 15 ms rise and a 30 ms fall.  The hard cases of session 18's toys (one
    sounding its 5th harmonic loudest) are written as these exact amplitudes."""
    t = np.arange(round(duration * rate)) / rate
    y = sum(a * np.sin(2 * np.pi * freq * (k + 1) * t) for k, a in enumerate(harmonics)) / sum(harmonics)
    if breath:
        y = y + breath * np.random.default_rng(seed).standard_normal(len(t))
    return (amp * y * np.minimum(1, np.minimum(t / 0.015, (t[-1] - t) / 0.03))).astype(np.float32)


def pink_noise(duration: float, amp: float = 0.01, seed: int = 0, rate: int = RATE) -> np.ndarray:
    """1/f noise, closer to a room's hum than white noise."""
    n = round(duration * rate)
    spec = np.fft.rfft(np.random.default_rng(seed).standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / rate)
    spec[1:] /= np.sqrt(f[1:])
    spec[0] = 0
    y = np.fft.irfft(spec, n)
    return (amp * y / (np.std(y) + 1e-12)).astype(np.float32)


def in_room(sound: np.ndarray, at: float = 1.0, length: float = 3.0, room: float = 0.005, seed: int = 1) -> np.ndarray:
    """``sound`` placed at ``at`` s in ``length`` s of a quiet room's pink noise (amplitude ``room``)."""
    x = pink_noise(length, amp=room, seed=seed)
    place(x, sound, at)
    return x

def dice_clicks(duration: float, clicks_per_s: float = 12.0, amp: float = 0.5, seed: int = 0, rate: int = RATE) -> np.ndarray:
    """Dice rattling in a cup and hitting a wooden table: short resonant clicks."""
    rng = np.random.default_rng(seed)
    n = round(duration * rate)
    y = np.zeros(n)
    for at in rng.uniform(0, duration, rng.poisson(clicks_per_s * duration)):
        length = round(rng.uniform(0.004, 0.02) * rate)
        i = round(at * rate)
        seg = rng.standard_normal(length) * np.exp(-np.arange(length) / (length / 5))
        # Wood and plastic ring briefly at a few kHz: a decaying resonance.
        f = rng.uniform(1500, 6000)
        seg += 2 * np.sin(2 * np.pi * f * np.arange(length) / rate) * np.exp(-np.arange(length) / (length / 4))
        end = min(n, i + length)
        y[i:end] += rng.uniform(0.2, 1.0) * seg[: end - i]
    return (amp * y / (np.max(np.abs(y)) + 1e-12)).astype(np.float32)


def laughter(duration: float, amp: float = 0.3, seed: int = 0, rate: int = RATE) -> np.ndarray:
    """Laughter-like sound: voiced 'ha' bursts at ~5 per second with breathy noise.

    Each burst is a glottal pulse train (f0 200-350 Hz, rich in harmonics)
    through two formant resonances, plus aspiration noise.
    """
    rng = np.random.default_rng(seed)
    n = round(duration * rate)
    y = np.zeros(n)
    at = 0.0
    while at < duration:
        length = round(rng.uniform(0.08, 0.16) * rate)
        f0 = rng.uniform(200, 350) * (1 + 0.1 * np.linspace(0, -1, length))
        phase = np.cumsum(f0) / rate
        pulses = (np.diff(np.floor(phase), prepend=0) > 0).astype(float)
        voiced = _formants(pulses, (rng.uniform(600, 900), rng.uniform(1100, 1600)), rate)
        burst = (voiced / (np.max(np.abs(voiced)) + 1e-12) + 0.3 * rng.standard_normal(length)) * np.hanning(length)
        i = round(at * rate)
        end = min(n, i + length)
        y[i:end] += burst[: end - i]
        at += rng.uniform(0.15, 0.25) + (rng.uniform(0.4, 1.2) if rng.random() < 0.15 else 0)
    return (amp * y / (np.max(np.abs(y)) + 1e-12)).astype(np.float32)


def _formants(x: np.ndarray, freqs: tuple[float, ...], rate: int) -> np.ndarray:
    # Resonators applied in the frequency domain (no scipy): a sum of
    # Lorentzian peaks, 120 Hz wide, as a crude vocal tract.
    spec = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / rate)
    shape = sum(1 / (1 + ((f - fc) / 60) ** 2) for fc in freqs) + 0.05
    return np.fft.irfft(spec * shape, len(x))


def music(duration: float, amp: float = 0.2, seed: int = 0, rate: int = RATE) -> np.ndarray:
    """Background music: chords of harmonic notes (piano-like decay), a bass line and hi-hat."""
    rng = np.random.default_rng(seed)
    n = round(duration * rate)
    y = np.zeros(n)
    beat = 0.5
    scale = 220 * 2 ** (np.array([0, 2, 4, 5, 7, 9, 11, 12, 14, 16]) / 12)
    at = 0.0
    while at < duration:
        i = round(at * rate)
        length = min(n - i, round(beat * rate))
        tt = np.arange(length) / rate
        decay = np.exp(-tt * 4)
        for f in rng.choice(scale, 3, replace=False) * rng.choice([1, 2]):
            y[i : i + length] += decay * sum(np.sin(2 * np.pi * k * f * tt) / k for k in range(1, 6) if k * f < rate / 2)
        y[i : i + length] += 1.5 * decay * np.sin(2 * np.pi * rng.choice(scale) / 4 * tt)
        hat = min(length, round(0.03 * rate))
        y[i : i + hat] += 0.5 * rng.standard_normal(hat) * np.exp(-np.arange(hat) / (hat / 5))
        at += beat
    return (amp * y / (np.max(np.abs(y)) + 1e-12)).astype(np.float32)


SPEECH_LINES = (
    "Whose turn is it? I think it is yours, you rolled last time.",
    "Move three spaces and then draw a cheese card.",
    "No, you cannot rustle those sheep, they are not next to you.",
    "Pass me the dice please, and the crisps.",
    "Ha! The police station again, that is the third double.",
    "Seven. One, two, three, four, five, six, seven. Done.",
)


def espeak_available() -> bool:
    return shutil.which("espeak-ng") is not None


def speech(text: str, voice: str = "en", pitch: int = 50, speed: int = 160, rate: int = RATE) -> np.ndarray:
    """Real synthesised speech from espeak-ng (raises FileNotFoundError without it)."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise FileNotFoundError("espeak-ng is not installed")
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "s.wav"
        subprocess.run([exe, "-v", voice, "-p", str(pitch), "-s", str(speed), "-w", str(out), text], check=True, capture_output=True)
        x, sr = read_wav(out)
    return resample(x, sr, rate).astype(np.float32)


def write_wav(path: str | Path, samples: np.ndarray, rate: int = RATE) -> Path:
    """Write float samples as a 16-bit mono WAV."""
    path = Path(path)
    data = (np.clip(samples, -1, 1) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(data.tobytes())
    return path


# -- a fake PyAudio -------------------------------------------------------------

paInt16 = PA_INT16  # the values pyaudio uses, so code written for pyaudio runs unchanged
paInt32 = PA_INT32
paFloat32 = PA_FLOAT32
paContinue = 0
paComplete = 1
paInputOverflow = 2


@dataclass
class FakeDevice:
    name: str = "Fake USB Microphone"
    rate: int = RATE
    channels: int = 1
    signal: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))  # looped
    # an ALSA hw device opens only with its own channel count (a ReSpeaker HAT's 2, a PS3 Eye's 4): fewer are refused
    min_channels: int = 1
    other_channels: float = 1.0  # the signal's gain in every channel past the first (0: only the first hears it)
    # the sample formats it opens with: an I2S microphone's hw device (an INMP441 on a Pi) gives 32-bit samples only
    formats: tuple[int, ...] = (paInt16,)
    fail_after_blocks: int | None = None  # lose the device after this many blocks
    unavailable_opens: int = 0  # refuse this many opens after a loss (the USB plug is out)


class FakeStream:
    """Runs the callback from its own thread, like PortAudio's audio thread."""

    def __init__(self, pa: FakePyAudio, device: FakeDevice, rate: int, channels: int, frames_per_buffer: int,
                 stream_callback: Callable[..., Any], realtime: bool, sample_format: int = paInt16) -> None:
        self._pa = pa
        self._dtype = SAMPLE_FORMATS[sample_format][0]  # written at the largest value each type holds
        self._full_scale = float(np.iinfo(self._dtype).max) if np.dtype(self._dtype).kind == "i" else 1.0
        self._device = device
        self._rate = rate
        self._channels = channels
        self._frames = frames_per_buffer
        self._callback = stream_callback
        self._realtime = realtime
        self._active = True
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fake-portaudio", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        sig = self._device.signal
        if len(sig) == 0:
            sig = np.zeros(self._frames, np.float32)
        pos = 0
        blocks = 0
        while not self._stop.is_set():
            if self._device.fail_after_blocks is not None and blocks >= self._device.fail_after_blocks:
                # The device vanished: PortAudio stops calling back and the
                # stream is no longer active.
                self._pa._lost(self._device)
                self._active = False
                return
            idx = (pos + np.arange(self._frames)) % len(sig)
            pos = (pos + self._frames) % len(sig)
            block = np.repeat(sig[idx][:, None], self._channels, axis=1)
            block[:, 1:] *= self._device.other_channels  # the microphones past the first
            data = (np.clip(block, -1, 1) * self._full_scale).astype(self._dtype).tobytes()
            _, flag = self._callback(data, self._frames, {}, 0)
            blocks += 1
            self._pa.blocks_delivered += 1
            if flag == paComplete:
                self._active = False
                return
            if self._realtime:
                time.sleep(self._frames / self._rate)
            else:
                time.sleep(0.001)  # let the consumer run; the fake is faster than real time

    def is_active(self) -> bool:
        return self._active

    def stop_stream(self) -> None:
        self._stop.set()
        self._active = False

    def close(self) -> None:
        self.stop_stream()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=2)


class FakePyAudio:
    """What ``pyaudio.PyAudio()`` offers, over a list of ``FakeDevice``."""

    paInt16 = paInt16
    paContinue = paContinue
    paComplete = paComplete

    def __init__(self, devices: list[FakeDevice] | None = None, realtime: bool = False) -> None:
        self.devices = devices if devices is not None else [FakeDevice()]
        self.realtime = realtime
        self.opens = 0
        self.failed_opens = 0
        self.blocks_delivered = 0
        self.terminated = False
        self._gone: dict[int, int] = {}  # device index -> opens still refused

    def _lost(self, device: FakeDevice) -> None:
        i = self.devices.index(device)
        self._gone[i] = device.unavailable_opens
        device.fail_after_blocks = None  # once plugged back in it works

    def get_device_count(self) -> int:
        return len(self.devices)

    def get_device_info_by_index(self, index: int) -> dict[str, Any]:
        if not 0 <= index < len(self.devices):
            raise OSError(-9996, "Invalid device")
        d = self.devices[index]
        return {"index": index, "name": d.name, "maxInputChannels": d.channels, "defaultSampleRate": float(d.rate)}

    def get_default_input_device_info(self) -> dict[str, Any]:
        if not self.devices:
            raise OSError(-9996, "No Default Input Device Available")
        return self.get_device_info_by_index(0)

    def is_format_supported(self, rate: float, input_device: int | None = None, input_channels: int | None = None,
                            input_format: int | None = None, **_: Any) -> bool:
        d = self.devices[input_device or 0]
        if not d.min_channels <= (input_channels or 1) <= d.channels:
            raise ValueError("Invalid number of channels")
        if (input_format or paInt16) not in d.formats:
            raise ValueError("Sample format not supported")
        if rate != d.rate:
            raise ValueError("Invalid sample rate")
        return True

    def open(self, rate: int, channels: int, format: int, input: bool = False, input_device_index: int | None = None,
             frames_per_buffer: int = 1024, stream_callback: Callable[..., Any] | None = None, **_: Any) -> FakeStream:
        i = input_device_index or 0
        if self._gone.get(i, 0) > 0:
            self._gone[i] -= 1
            self.failed_opens += 1
            raise OSError(-9996, "Invalid input device (no default output device)")
        d = self.devices[i]
        if not d.min_channels <= channels <= d.channels:
            raise OSError(-9998, "Invalid number of channels")
        if format not in d.formats:
            raise OSError(-9994, "Sample format not supported")
        if rate != d.rate:
            raise OSError(-9997, "Invalid sample rate")
        if stream_callback is None:
            raise ValueError("the fake supports callback streams only")
        self.opens += 1
        return FakeStream(self, d, rate, channels, frames_per_buffer, stream_callback, self.realtime, format)

    def get_sample_size(self, fmt: int) -> int:
        return 2

    def terminate(self) -> None:
        self.terminated = True


# -- a long stream of table noise without whistles ---------------------------------


class NegativeStream:
    """Endless games-table sound with no whistle in it, made 10 s at a time.

    Each segment is room noise (pink, -50 to -35 dBFS) plus one to three of:
    espeak-ng speech (several voices and pitches), synthesised laughter,
    music, dice rattling and clicking, and any real non-whistle recordings
    given as ``clips`` (16 kHz arrays), at random times and levels.  Nothing
    is kept between segments, so an hour of it costs no more memory than 10 s.
    """

    SEGMENT_S = 10.0

    def __init__(self, clips: list[np.ndarray] | tuple[np.ndarray, ...] = (), seed: int = 0, rate: int = RATE) -> None:
        self.rate = rate
        self.clips = [np.asarray(c, np.float32) for c in clips]
        self.rng = np.random.default_rng(seed)
        self.speech: list[np.ndarray] = []
        if espeak_available():
            for i, line in enumerate(SPEECH_LINES):
                for voice, pitch in (("en", 35), ("en+f3", 60), ("en-us+m3", 50), ("en+f4", 80)):
                    if (i + pitch) % 2 == 0 or voice == "en":
                        self.speech.append(speech(line, voice=voice, pitch=pitch, rate=rate))
        self.kinds = ["laughter", "music", "dice"] + (["speech"] * 2 if self.speech else []) + (["clip"] if self.clips else [])
        self.counts: dict[str, int] = dict.fromkeys(["laughter", "music", "dice", "speech", "clip"], 0)
        self.last_parts: list[tuple[str, float, float]] = []  # (kind, start s, length s) of the last segment

    def describe(self) -> str:
        parts = [f"{n}x {k}" for k, n in self.counts.items() if n]
        return ", ".join(parts) + " over pink room noise"

    def segment(self) -> np.ndarray:
        rng = self.rng
        n = round(self.SEGMENT_S * self.rate)
        seed = int(rng.integers(1 << 31))
        x = pink_noise(self.SEGMENT_S, amp=10 ** (rng.uniform(-50, -35) / 20), seed=seed, rate=self.rate)
        self.last_parts = []
        for _ in range(int(rng.integers(1, 4))):
            kind = self.kinds[int(rng.integers(len(self.kinds)))]
            self.counts[kind] += 1
            gain = 10 ** (rng.uniform(-20, 0) / 20)
            s = int(rng.integers(1 << 31))
            if kind == "laughter":
                sound = laughter(rng.uniform(1, 4), amp=0.4 * gain, seed=s, rate=self.rate)
            elif kind == "music":
                sound = music(rng.uniform(3, 10), amp=0.3 * gain, seed=s, rate=self.rate)
            elif kind == "dice":
                sound = dice_clicks(rng.uniform(0.5, 2.5), amp=0.7 * gain, seed=s, rate=self.rate)
            elif kind == "speech":
                sound = self.speech[int(rng.integers(len(self.speech)))] * (1.5 * gain)
            else:
                which = int(rng.integers(len(self.clips)))
                kind = f"clip {which}"
                clip = self.clips[which]
                sound = clip * (gain / (np.max(np.abs(clip)) + 1e-9) * 0.5)
            at = rng.uniform(0, max(0.0, self.SEGMENT_S - len(sound) / self.rate))
            place(x, sound[:n].astype(np.float32), at, self.rate)
            self.last_parts.append((kind, at, len(sound) / self.rate))
        return np.clip(x, -1, 1)
