"""Sound in: PyAudio microphones, WAV files and in-memory signals behind one interface.

Every source hands out float32 mono blocks at ``RATE`` (16 kHz), whatever the
device or file delivers, so the detector sees one format.  A source is
opened, read block by block and closed; ``read`` returns an empty array while
nothing new has arrived and ``None`` at the end of a recording.  A device
failure raises ``SensorError``; ``run_source`` turns that into the sensor
going offline, retries with back-off, and reports online again.

The PyAudio callback runs on PortAudio's audio thread: it only copies the
bytes into a queue (anything slow there makes the device drop samples); the
worker thread converts, resamples and detects.
"""

from __future__ import annotations

import logging
import math
import queue
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.config import Table, is_device, load_table, profile_present
from companion.errors import BellwetherError, SensorError
from companion.paths import config_dir

from .sensor import Sensor, choose_backend
from .signals import noise, place, tone
from .wav_file import WavError, WavReader

log = logging.getLogger(__name__)

RATE = 16_000  # whistles sit well below 8 kHz; 16 kHz keeps the FFTs small
BLOCK_S = 0.064  # the live block: 1024 samples at 16 kHz (see hardware/whistle/detector.py)
# PortAudio's sample formats (pyaudio's constants), in the order a microphone is asked for them: the sample's numpy
# type and full scale. Most give 16-bit; an I2S microphone's hw device gives 32-bit only.
PA_INT16, PA_INT32, PA_FLOAT32 = 8, 2, 1
SAMPLE_FORMATS = {PA_INT16: ("<i2", 32768.0), PA_INT32: ("<i4", 2147483648.0), PA_FLOAT32: ("<f4", 1.0)}
SAMPLE_NAMES = {PA_INT16: "16-bit", PA_INT32: "32-bit", PA_FLOAT32: "float"}
BACKEND_ENV = "BELLWETHER_AUDIO_BACKEND"
BACKENDS = ("pyaudio", "wav", "memory")


class AudioFileError(BellwetherError, OSError):
    """A WAV file that cannot be read: names the file and why."""


# -- resampling ------------------------------------------------------------------


class Resampler:
    """Streaming sample-rate conversion: low-pass FIR and linear interpolation.

    Works for any ratio (the robot clips say 48128 Hz).  When going down, a
    windowed-sinc filter (47 taps, cut at 0.45 of the output rate) stops
    sound above the new Nyquist (keys jingling at 10 kHz) from folding into
    the whistle band; the signal is then oversampled enough that linear
    interpolation between filtered samples is accurate.  When going up
    (an 8 kHz USB microphone), linear interpolation leaves an image of every
    sound mirrored about the old Nyquist (a 3 kHz whistle gets a 5 kHz
    twin, inside the whistle band), so the interpolated signal is low-passed
    at 0.45 of the *input* rate (63 taps at the output rate).  State (filter
    history, fractional position) carries across blocks, so block
    boundaries leave no seams.
    """

    def __init__(self, src_rate: float, dst_rate: float = RATE, taps: int = 47) -> None:
        if src_rate <= 0 or dst_rate <= 0:
            raise ValueError(f"sample rates must be positive, got {src_rate} and {dst_rate}")
        self.src_rate = float(src_rate)
        self.dst_rate = float(dst_rate)
        self.step = self.src_rate / self.dst_rate
        self.identity = math.isclose(self.step, 1.0)
        # 48 kHz to 16 kHz: every third filtered sample is an output (``_decimate``)
        self._whole_step = int(self.step) if self.step > 1 and self.step.is_integer() else 0
        self._h: np.ndarray | None = None  # anti-alias filter, before interpolating (going down)
        self._h_up: np.ndarray | None = None  # anti-image filter, after interpolating (going up)
        if self.step > 1 and not self.identity:
            self._h = _lowpass(0.45 / self.step, taps)  # cycles per input sample
            self._hist = np.zeros(taps - 1, np.float32)
        elif self.step < 1 and not self.identity:
            up_taps = max(taps, 63)
            self._h_up = _lowpass(0.45 * self.step, up_taps)  # cycles per output sample
            self._hist_up = np.zeros(up_taps - 1, np.float32)
        self._carry = np.zeros(0, np.float32)
        self._pos = 0.0
        self._phase = 0  # whole steps: the next output's index in the next block's filtered samples

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, np.float32)
        if self.identity or len(x) == 0:
            return x
        if self._whole_step:
            return self._decimate(x)
        if self._h is not None:
            buf = np.concatenate([self._hist, x])
            self._hist = buf[len(buf) - len(self._hist) :]
            x = _fir(buf, self._h)
        buf = np.concatenate([self._carry, x])
        last = len(buf) - 1
        if last < self._pos:
            self._carry = buf
            return np.zeros(0, np.float32)
        n_out = int((last - self._pos) // self.step) + 1
        t = self._pos + self.step * np.arange(n_out)
        i = np.minimum(t.astype(np.intp), last - 1) if last else np.zeros(n_out, np.intp)
        f = (t - i).astype(np.float32)
        out = buf[i] + f * (buf[np.minimum(i + 1, last)] - buf[i])  # linear interpolation, without np.interp's search
        nxt = self._pos + self.step * n_out
        keep = min(int(nxt), len(buf))  # the next output may lie beyond this buffer
        self._carry = buf[keep:]
        self._pos = nxt - keep
        if self._h_up is not None:
            up = np.concatenate([self._hist_up, out])
            self._hist_up = up[len(up) - len(self._hist_up) :]
            out = _fir(up, self._h_up)
        return out

    def _decimate(self, x: np.ndarray) -> np.ndarray:
        """A whole step down (48 kHz to 16 kHz): the same filter, then every step-th filtered sample, from the
        phase the last block left.  The general path's carried samples and fractional position come to this
        when the step is whole (its carry is always empty, its position 0-2), without its second concatenation
        and float bookkeeping (session 16: a third of the resampler's cost besides the filter)."""
        buf = np.concatenate([self._hist, x])
        self._hist = buf[len(buf) - len(self._hist) :]
        y = _fir(buf, self._h)  # len(x) samples: the history makes up the filter's length
        out = y[self._phase :: self._whole_step].copy()
        self._phase = (self._phase - len(y)) % self._whole_step
        return out


def _fir(x: np.ndarray, h: np.ndarray) -> np.ndarray:
    """``np.convolve(x, h, "valid")`` for a symmetric ``h``, through OpenCV's filter (about 6x
    faster than numpy's on a 64 ms block at 48 kHz, which is what a USB microphone gives)."""
    half = (len(h) - 1) // 2
    if len(x) < len(h):
        return np.zeros(0, np.float32)
    y = cv2.filter2D(x.reshape(1, -1), cv2.CV_32F, h.reshape(1, -1), anchor=(half, 0), borderType=cv2.BORDER_CONSTANT)
    return y[0, half : len(x) - (len(h) - 1 - half)]


def _lowpass(fc: float, taps: int) -> np.ndarray:
    """A windowed-sinc low-pass FIR with unit gain at DC; ``fc`` in cycles per sample."""
    n = np.arange(taps) - (taps - 1) / 2
    h = np.sinc(2 * fc * n) * np.hamming(taps)
    return (h / h.sum()).astype(np.float32)


def resample(x: np.ndarray, src_rate: float, dst_rate: float = RATE) -> np.ndarray:
    """Resample a whole signal (the streaming resampler in one call)."""
    return Resampler(src_rate, dst_rate)(x)


# -- WAV files ---------------------------------------------------------------------


def _pcm_to_float(data: bytes, width: int, channels: int, floating: bool = False) -> np.ndarray:
    if floating:
        x = np.frombuffer(data, "<f4" if width == 4 else "<f8").astype(np.float32)
    elif width == 1:
        x = (np.frombuffer(data, np.uint8).astype(np.float32) - 128) / 128
    elif width == 2:
        x = np.frombuffer(data, "<i2").astype(np.float32) / 32768
    elif width == 3:
        b = np.frombuffer(data, np.uint8).reshape(-1, 3)
        i = b[:, 0].astype(np.int32) | (b[:, 1].astype(np.int32) << 8) | (b[:, 2].astype(np.int32) << 16)
        x = (np.where(i >= 1 << 23, i - (1 << 24), i) / float(1 << 23)).astype(np.float32)
    elif width == 4:
        x = np.frombuffer(data, "<i4").astype(np.float32) / 2**31
    else:
        raise ValueError(f"{8 * width}-bit samples")
    if channels > 1:
        x = x.reshape(-1, channels).mean(axis=1)
    return x


MAX_WAV_RATE = 768_000  # no recorder writes more; a bigger header value is damage


def _open_wav(path: str | Path) -> WavReader:
    """An open WAV whose header makes sense (rate, channels, sample size), else one clear error."""
    try:
        w = WavReader(path)
    except FileNotFoundError:
        raise AudioFileError(f"{path}: no such file") from None
    except (WavError, OSError, struct.error) as e:
        raise AudioFileError(f"{path}: not a WAV file this can read ({e})") from None
    rate = w.getframerate()
    if not 1 <= rate <= MAX_WAV_RATE:
        w.close()
        raise AudioFileError(f"{path}: broken WAV header: sample rate expected 1 to {MAX_WAV_RATE} Hz, got {rate}")
    return w


def read_wav(path: str | Path) -> tuple[np.ndarray, int]:
    """A whole WAV file as float32 mono and its sample rate."""
    with _open_wav(path) as w:
        try:
            x = _pcm_to_float(w.readframes(w.getnframes()), w.getsampwidth(), w.getnchannels(), w.floating)
        except ValueError as e:
            raise AudioFileError(f"{path}: unsupported WAV ({e})") from None
        return x, w.getframerate()


# -- sources ---------------------------------------------------------------------


class AudioSource(Protocol):
    description: str

    def open(self) -> None: ...

    def read(self, timeout: float = 0.5) -> np.ndarray | None: ...

    def close(self) -> None: ...


class ArraySource:
    """An in-memory signal, handed out in live-sized blocks."""

    def __init__(
        self,
        samples: np.ndarray,
        rate: int = RATE,
        block_s: float = BLOCK_S,
        loop: bool = False,
        realtime: bool = False,
        description: str = "in-memory signal",
    ) -> None:
        self.samples = np.asarray(samples, np.float32)
        self.rate = rate
        self.block = max(1, round(block_s * rate))
        self.loop = loop
        self.realtime = realtime
        self.description = description
        self._pos = 0
        self._resampler = Resampler(rate)

    def open(self) -> None:
        self._pos = 0
        self._resampler = Resampler(self.rate)

    def read(self, timeout: float = 0.5) -> np.ndarray | None:
        if self._pos >= len(self.samples):
            if not self.loop or len(self.samples) == 0:
                return None
            self._pos = 0
        chunk = self.samples[self._pos : self._pos + self.block]
        self._pos += len(chunk)
        if self.realtime:
            time.sleep(len(chunk) / self.rate)
        return self._resampler(chunk)

    def close(self) -> None:
        pass


class WavSource:
    """A WAV file read block by block (memory stays flat for hour-long files)."""

    def __init__(self, path: str | Path, block_s: float = BLOCK_S, realtime: bool = False, loop: bool = False) -> None:
        self.path = Path(path)
        self.block_s = block_s
        self.realtime = realtime
        self.loop = loop
        self.description = f"file {self.path.name}"
        self._wav: WavReader | None = None
        self.rate = 0

    def open(self) -> None:
        self.close()
        self._wav = _open_wav(self.path)
        self.rate = self._wav.getframerate()
        self._block = max(1, round(self.block_s * self.rate))
        self._resampler = Resampler(self.rate)

    def read(self, timeout: float = 0.5) -> np.ndarray | None:
        if self._wav is None:
            raise SensorError(f"{self.path}: not open")
        data = self._wav.readframes(self._block)
        if not data:
            if not self.loop:
                return None
            self._wav.rewind()
            data = self._wav.readframes(self._block)
        try:
            x = _pcm_to_float(data, self._wav.getsampwidth(), self._wav.getnchannels(), self._wav.floating)
        except ValueError as e:
            raise AudioFileError(f"{self.path}: unsupported WAV ({e})") from None
        if self.realtime:
            time.sleep(len(x) / self.rate)
        return self._resampler(x)

    def close(self) -> None:
        if self._wav is not None:
            self._wav.close()
            self._wav = None


@dataclass(frozen=True)
class InputDevice:
    index: int
    name: str
    channels: int
    default_rate: float

    def __str__(self) -> str:
        return f"{self.index}: {self.name} ({self.channels} ch, {self.default_rate:.0f} Hz)"


def _pyaudio_factory() -> Any:
    import pyaudio

    _quiet_sound_libraries()
    return pyaudio.PyAudio()


# PortAudio probes every host API when it starts: ALSA's and JACK's C libraries
# then print a screenful of "Unknown PCM cards.pcm.surround51" / JackShm lines
# on any machine without those devices, at every reconnect attempt.  Their own
# error hooks are pointed at quiet handlers instead (only their messages; the
# rest of stderr is untouched).  Failures still reach us as PortAudio errors and
# become the sensor's one-line reason.  The ctypes callbacks live here for good:
# the libraries keep calling them.
_SOUND_HOOKS: list[Any] = []
_SOUND_HOOKS_LOCK = threading.Lock()


def _quiet_sound_libraries() -> None:
    import ctypes

    with _SOUND_HOOKS_LOCK:
        if _SOUND_HOOKS:
            return
        # snd_lib_error_handler_t(file, line, function, err, fmt, ...): the varargs are ignored.
        alsa_hook = ctypes.CFUNCTYPE(
            None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p
        )(lambda *_: None)
        jack_hook = ctypes.CFUNCTYPE(None, ctypes.c_char_p)(
            lambda msg: log.debug("jack: %s", msg.decode(errors="replace"))
        )
        _SOUND_HOOKS.extend((alsa_hook, jack_hook))
        for library, setters, hook in (
            ("libasound.so.2", ("snd_lib_error_set_handler",), alsa_hook),
            ("libjack.so.0", ("jack_set_error_function", "jack_set_info_function"), jack_hook),
        ):
            try:
                lib = ctypes.CDLL(library)
                for setter in setters:
                    getattr(lib, setter)(hook)
            except (OSError, AttributeError):  # not installed here (no ALSA, no JACK): nothing to quiet
                continue


def list_devices(pa: Any = None) -> list[InputDevice]:
    """The input devices PortAudio sees now."""
    own = pa is None
    pa = _pyaudio_factory() if own else pa
    try:
        found = []
        for i in range(pa.get_device_count()):
            info = pa.get_device_info_by_index(i)
            if int(info.get("maxInputChannels", 0)) > 0:
                found.append(
                    InputDevice(i, str(info["name"]), int(info["maxInputChannels"]), float(info["defaultSampleRate"]))
                )
        return found
    finally:
        if own:
            pa.terminate()


def find_device(devices: list[InputDevice], wanted: int | str | None) -> InputDevice | None:
    """A device by index, or the first whose name contains ``wanted`` (any case)."""
    if wanted is None or wanted == "":
        return None
    if isinstance(wanted, int) or (isinstance(wanted, str) and wanted.isdigit()):
        index = int(wanted)
        for d in devices:
            if d.index == index:
                return d
        raise SensorError(
            f"no input device with index {index} (have: {', '.join(str(d.index) for d in devices) or 'none'})"
        )
    for d in devices:
        if wanted.lower() in d.name.lower():
            return d
    raise SensorError(f"no input device named like {wanted!r} (have: {', '.join(d.name for d in devices) or 'none'})")


class PyAudioSource:
    """A live microphone through PortAudio.

    A fresh ``PyAudio`` instance is made at every open because PortAudio
    lists devices only when it starts: a USB microphone plugged back in is
    found only by starting again.
    """

    def __init__(
        self,
        device: int | str | None = None,
        block_s: float = BLOCK_S,
        stall_s: float = 2.0,
        pyaudio_factory: Callable[[], Any] = _pyaudio_factory,
    ) -> None:
        self.device = device
        self.block_s = block_s
        self.stall_s = stall_s  # no sound for this long: the device is gone even if PortAudio does not say so
        self._factory = pyaudio_factory
        self._pa: Any = None
        self._stream: Any = None
        self._q: queue.Queue[bytes] = queue.Queue(maxsize=64)  # ~4 s of blocks: the worker never lags that far
        self.dropped_blocks = 0
        self.description = "microphone (not open)"
        self.rate = RATE
        self.channels = 1  # what the device opened with (``read`` keeps the first)
        self.sample_format = PA_INT16

    def _callback(self, in_data: bytes, frame_count: int, time_info: Any, status: int) -> tuple[None, int]:
        # PortAudio's thread: copy and return, nothing else.
        try:
            self._q.put_nowait(in_data)
        except queue.Full:
            self.dropped_blocks += 1
        return None, 0  # paContinue

    def open(self) -> None:
        self.close()
        try:
            self._pa = self._factory()
            devices = list_devices(self._pa)
            if not devices:
                raise SensorError("no input device found")
            dev = find_device(devices, self.device) or self._default(devices)
            self.channels, self.sample_format = self._channels_for(dev)
            self.rate = RATE if self._supports(dev, RATE, self.channels, self.sample_format) else int(dev.default_rate)
            self._resampler = Resampler(self.rate)
            self._q = queue.Queue(maxsize=64)
            self._stream = self._pa.open(
                format=self.sample_format,
                channels=self.channels,
                rate=self.rate,
                input=True,
                input_device_index=dev.index,
                frames_per_buffer=max(1, round(self.block_s * self.rate)),
                stream_callback=self._callback,
            )
        except SensorError:
            self.close()
            raise
        except (OSError, ValueError) as e:
            self.close()
            raise SensorError(f"cannot open the microphone: {e}") from None
        self._last = time.monotonic()
        first = f", the first of its {self.channels} channels" if self.channels > 1 else ""
        depth = "" if self.sample_format == PA_INT16 else f", {SAMPLE_NAMES[self.sample_format]} samples"
        self.description = f"{dev.name} at {self.rate} Hz{first}{depth}"

    def _default(self, devices: list[InputDevice]) -> InputDevice:
        try:
            index = int(self._pa.get_default_input_device_info()["index"])
            return next((d for d in devices if d.index == index), devices[0])
        except (OSError, KeyError):
            return devices[0]

    def _supports(self, dev: InputDevice, rate: int, channels: int = 1, sample_format: int = PA_INT16) -> bool:
        try:
            return bool(self._pa.is_format_supported(
                rate, input_device=dev.index, input_channels=channels, input_format=sample_format))
        except (ValueError, OSError):
            return False

    def _channels_for(self, dev: InputDevice) -> tuple[int, int]:
        """(channels, PortAudio sample format): mono 16-bit where the device gives it; else the fewest channels and
        the first format (16-bit, 32-bit, float) it opens with; ``read`` keeps the first channel.

        An ALSA hw device (chosen by name on a Pi without PulseAudio) opens only with its own channel count and
        sample format: a ReSpeaker 2-mic HAT's 2 channels, a PS3 Eye camera's 4, an I2S microphone's (an INMP441)
        32-bit samples; asked for mono 16-bit it refuses ("Invalid number of channels", "Sample format not
        supported") and the microphone stayed offline."""
        most = max(1, dev.channels)
        for channels in sorted({1, min(2, most), most}):
            for sample_format in SAMPLE_FORMATS:
                if any(self._supports(dev, rate, channels, sample_format) for rate in (RATE, int(dev.default_rate))):
                    return channels, sample_format
        return 1, PA_INT16  # nothing said yes: mono 16-bit, and the open's own error names the reason

    def read(self, timeout: float = 0.5) -> np.ndarray | None:
        if self._stream is None:
            raise SensorError("microphone not open")
        try:
            data = self._q.get(timeout=timeout)
        except queue.Empty:
            if not self._stream.is_active():
                raise SensorError("microphone stream stopped (unplugged?)") from None
            if time.monotonic() - self._last > self.stall_s:
                raise SensorError(f"no sound from the microphone for {self.stall_s:g} s") from None
            return np.zeros(0, np.float32)
        self._last = time.monotonic()
        dtype, full_scale = SAMPLE_FORMATS[self.sample_format]
        x = np.frombuffer(data, dtype).astype(np.float32) / full_scale
        if self.channels > 1:
            # Interleaved frames: the first microphone's. Not their mean: two microphones 6.5 cm apart (a ReSpeaker
            # HAT's) would cancel a 2.6 kHz whistle arriving along the line through them.
            x = x[:: self.channels]
        return self._resampler(x)

    def close(self) -> None:
        if self._stream is not None:
            try:
                self._stream.stop_stream()
                self._stream.close()
            except OSError as e:
                log.debug("closing the stream: %s", e)
            self._stream = None
        if self._pa is not None:
            self._pa.terminate()
            self._pa = None


# -- configuration ------------------------------------------------------------------


@dataclass(frozen=True)
class AudioSettings:
    """The ``[microphone]`` table of ``settings.toml`` in the config dir."""

    backend: str | None = None  # pyaudio | wav | memory; None: pyaudio
    device: int | str | None = None  # index or part of the name
    wav: Path | None = None  # for the wav backend
    block_ms: float = BLOCK_S * 1000
    file: object = "settings.toml"

    @classmethod
    def from_table(cls, t: Table) -> AudioSettings:
        device = t.get(
            "device",
            lambda v: is_device(v),
            "a device index from 0 to 255 or part of its name",
            None,
        )
        wav = t.string("wav", None)
        return cls(
            backend=t.string("backend", None, choices=BACKENDS),
            device=device,
            wav=Path(wav).expanduser() if wav else None,
            block_ms=t.number("block_ms", BLOCK_S * 1000, lo=8, hi=64),
            file=t.file,
        )

    @classmethod
    def load(cls, directory: str | Path | None = None) -> AudioSettings:
        path = config_dir(directory) / "settings.toml"
        if not profile_present(path):
            return cls(file=path)
        table = load_table(path).only("microphone").table("microphone", {})
        return cls.from_table(table.only("backend", "device", "wav", "block_ms"))


def demo_signal(seconds: float = 12.0) -> np.ndarray:
    """The ``memory`` backend's signal: a quiet room and one whistle blow every 6 s."""
    x = noise(seconds, amp=0.003)
    for at in np.arange(1.0, seconds - 0.5, 6.0):
        place(x, tone(2500, 0.4, amp=0.2), float(at))
    return x


def open_source(settings: AudioSettings | None = None) -> tuple[str, AudioSource]:
    """The configured source (env ``BELLWETHER_AUDIO_BACKEND`` first, then settings)."""
    s = settings or AudioSettings.load()
    block_s = s.block_ms / 1000

    def wav() -> AudioSource:
        if s.wav is None:
            raise SensorError(f"{s.file}: microphone.wav: expected a WAV path for the wav backend")
        return WavSource(s.wav, block_s, realtime=True, loop=True)

    def pyaudio_source() -> AudioSource:
        import pyaudio  # noqa: F401  (an ImportError here means the backend is unavailable)

        return PyAudioSource(s.device, block_s)

    backends: dict[str, Callable[[], AudioSource]] = {
        "pyaudio": pyaudio_source,
        "wav": wav,
        "memory": lambda: ArraySource(
            demo_signal(), block_s=block_s, loop=True, realtime=True, description="demo signal"
        ),
    }
    # With nothing chosen only the real microphone is tried: a demo signal
    # silently standing in for it would blow fake whistles into a real game.
    return choose_backend(
        "microphone", backends, env=BACKEND_ENV, configured=s.backend, order=("pyaudio",), config_file=s.file
    )


# -- the worker loop -------------------------------------------------------------------


def run_source(
    source: AudioSource,
    sensor: Sensor,
    on_block: Callable[[np.ndarray], None],
    stop: threading.Event,
    *,
    on_open: Callable[[], None] = lambda: None,
    backoff: tuple[float, float] = (0.5, 8.0),
) -> None:
    """Read ``source`` until ``stop`` or the end of a recording, surviving device loss.

    A failure (open or read) makes ``sensor`` offline with the reason; the
    loop waits (``backoff[0]`` doubling up to ``backoff[1]`` seconds), opens
    again and reports online.  Nothing escapes: an unexpected error in the
    processing is logged and treated like a device failure.
    """
    delay = backoff[0]
    while not stop.is_set():
        try:
            source.open()
        except Exception as e:  # device errors and anything else: never take the app down
            sensor.set_status(False, f"cannot open: {e}")
            stop.wait(delay)
            delay = min(delay * 2, backoff[1])
            continue
        sensor.set_status(True, source.description)
        try:
            on_open()
            while not stop.is_set():
                block = source.read(0.25)
                if block is None:
                    sensor.set_status(False, "end of recording")
                    return
                if block.size:
                    on_block(block)
                    delay = backoff[0]  # sound is flowing again: the next failure starts from the short wait
        except (OSError, SensorError) as e:
            sensor.set_status(False, str(e))
        except Exception as e:
            log.exception("audio processing failed")
            sensor.set_status(False, f"internal error: {e}")
        finally:
            source.close()
        stop.wait(delay)
        delay = min(delay * 2, backoff[1])
