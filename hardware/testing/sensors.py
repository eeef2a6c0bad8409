"""Real sensors over fake devices, shipped in the package (like gpiozero's ``pins/mock.py``).

Each *rig* builds the real sensor class on a fake backend and adds the one
thing a test or a demo needs to say: "the dice now show 4", "Bob blows his
whistle now", "the undo button is pressed".  Everything between the fake
device and the event on the queue is the production code:

- ``DiceRig``: the real ``hardware.dice.sensor.DiceSensor`` (worker thread,
  settle detector, request handling, offline/online) over ``TableCamera``, a
  camera whose frames show coloured blocks where the dice lie.  The face
  reading itself is ``TableReader``: it reports what the table was told to
  show, with the given confidence, so a test can ask for a doubtful reading
  (a pip or colour reader cannot be told how sure to be).
- ``WhistleRig``: the real ``WhistleSensor`` and ``WhistleDetector``, with a
  profile learned by the real ``calibration.whistle.calibrate`` from
  generated whistles (one pitch per player), over ``LiveMicrophone``, an
  audio source that delivers room noise in real time and mixes in a blow
  when told.
- ``ButtonsRig``: the real ``ButtonsSensor`` on gpiozero's ``MockFactory``;
  ``press(role)`` drives the pin low and high as a finger would.
"""

from __future__ import annotations

import io
import queue
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from hardware.audio import BLOCK_S, RATE

from .audio import noise, tone

# -- the dice camera -------------------------------------------------------------


class TableCamera:
    """A ``FrameSource`` looking at a tray: grey felt and one block per die."""

    SIZE = (320, 240)  # small frames: the settle detector shrinks them anyway

    def __init__(self, description: str = "fake table camera") -> None:
        self.description = description
        self.shown: list[Any] = []  # DieReadings of the dice lying there now
        self.rolls = 0
        self.reads = 0
        self._lock = threading.Lock()
        self._frame = self._draw([])

    def _draw(self, boxes: Sequence[tuple[int, int, int, int]]) -> np.ndarray:
        w, h = self.SIZE
        frame = np.full((h, w, 3), 90, np.uint8)
        frame[:, :, 1] = 120  # green felt
        for x, y, bw, bh in boxes:
            frame[y : y + bh, x : x + bw] = 235
        return frame

    def show(self, die: str, faces: Sequence[Any], confidence: float | Sequence[float], side: int = 50) -> None:
        """The dice come to rest showing ``faces`` (read at ``confidence``, one for all or one a die), each ``side`` px
        across as the reader measures them; each roll lies somewhere else."""
        from hardware.dice.model import DieReading

        sure = [float(confidence)] * len(faces) if isinstance(confidence, int | float) else list(confidence)

        with self._lock:
            self.rolls += 1
            y = 30 if self.rolls % 2 else 150  # away from the last roll, so it is a new one
            boxes = [(20 + 70 * i + 10 * (self.rolls % 3), y, side, side) for i in range(len(faces))]
            kind = "pips" if die == "d6" else "colour"
            self.shown = [DieReading(kind, f, c, b) for f, c, b in zip(faces, sure, boxes, strict=True)]
            self._frame = self._draw(boxes)

    def show_frame(self, frame: np.ndarray) -> None:
        """Show a whole picture (e.g. a ``dice_render`` photo, for the camera wizard); nothing is read from it."""
        with self._lock:
            self.shown = []
            self._frame = np.ascontiguousarray(frame)

    def clear(self) -> None:
        with self._lock:
            self.shown = []
            self._frame = self._draw([])

    def read(self) -> np.ndarray:
        with self._lock:
            self.reads += 1
            return self._frame.copy()

    def readings(self) -> list[Any]:
        with self._lock:
            return list(self.shown)

    def close(self) -> None:
        pass


class TableReader:
    """Stands in for the face classifier: reports the dice the table camera shows."""

    def __init__(self, camera: TableCamera) -> None:
        self.camera = camera
        self.region = None

    def kinds(self) -> list[str]:
        return ["d6"]

    def read(self, frame: np.ndarray, die: str = "d6", expected: int | None = None) -> list[Any]:
        return self.camera.readings()

    def pip_die_sides(self, frame: np.ndarray) -> list[int]:
        return [r.side for r in self.camera.readings() if r.kind == "pips"]


class DiceRig:
    """The real ``DiceSensor`` over a ``TableCamera``."""

    def __init__(self, out: queue.Queue[Any] | None = None, fps: float = 30.0) -> None:
        from hardware.dice.sensor import DiceSensor

        self.camera = TableCamera()
        self.sensor = DiceSensor(lambda: self.camera, TableReader(self.camera), out, fps=fps)  # type: ignore[arg-type]

    def roll(self, die: str, faces: Sequence[Any], confidence: float | Sequence[float] = 0.97, side: int = 50) -> None:
        """Dice thrown into the tray; the sensor reports them once they settle
        (and only while the game waits for a roll, as with real dice); ``side``: how large they look, in px."""
        self.camera.show(die, list(faces), confidence, side)


# -- the microphone ----------------------------------------------------------------

PITCHES = (1800.0, 2250.0, 2800.0, 3400.0, 4100.0, 4900.0)  # one whistle per seat, well apart


class LiveMicrophone:
    """An ``AudioSource`` delivering room noise in real time; ``play`` mixes a sound in."""

    def __init__(self, noise_amp: float = 0.003, rate: int = RATE, description: str = "fake live microphone") -> None:
        self.rate = rate
        self.block = round(BLOCK_S * rate)
        self.noise_amp = noise_amp
        self.hum_amp = 0.0
        self.description = description
        self.blocks = 0
        self._pending: list[np.ndarray] = []
        self._lock = threading.Lock()
        self._next = 0.0
        self._noise = noise(4.0, noise_amp, seed=7, rate=rate)
        self._pos = 0

    def open(self) -> None:
        self._next = time.monotonic()

    def set_hum(self, level_db: float) -> None:
        """A steady low hum (125 Hz, below any whistle band) making the level meter read ``level_db`` dBFS."""
        self.hum_amp = float(np.sqrt(2 * 10 ** (level_db / 10)))

    def play(self, sound: np.ndarray) -> None:
        with self._lock:
            self._pending.append(np.asarray(sound, np.float32))

    def read(self, timeout: float = 0.5) -> np.ndarray | None:
        self._next += self.block / self.rate
        delay = self._next - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        elif delay < -1.0:
            self._next = time.monotonic()  # a stalled test machine: do not try to catch up
        n = self.block
        if self.noise_amp > 0:
            idx = (self._pos + np.arange(n)) % len(self._noise)
            out = self._noise[idx].copy()
        else:
            out = np.zeros(n, np.float32)
        if self.hum_amp > 0:
            t = (self._pos + np.arange(n)) / self.rate
            out += (self.hum_amp * np.sin(2 * np.pi * 125.0 * t)).astype(np.float32)
        self._pos += n
        with self._lock:
            while self._pending and n > 0:
                head = self._pending[0]
                take = min(len(head), self.block)
                out[:take] += head[:take]
                if take < len(head):
                    self._pending[0] = head[take:]
                    break
                self._pending.pop(0)
                break
        self.blocks += 1
        return out

    def close(self) -> None:
        pass


def whistle_blow(freq: float, duration: float = 0.5, amp: float = 0.25) -> np.ndarray:
    """One blow: a thin tone, as a sheep whistle makes."""
    return tone(freq, duration, amp)


def blows_recording(freq: float, blows: int = 3, amp: float = 0.25, seed: int = 0) -> np.ndarray:
    """``blows`` blows of one whistle with pauses, in room noise (for calibration)."""
    rng = np.random.default_rng(seed)
    parts = [noise(0.4, 0.003, seed=seed)]
    for i in range(blows):
        cents = rng.uniform(-6, 6)
        parts.append(whistle_blow(freq * 2 ** (cents / 1200), 0.45, amp) + noise(0.45, 0.003, seed=seed + i + 1))
        parts.append(noise(0.5, 0.003, seed=seed + 50 + i))
    return np.concatenate(parts).astype(np.float32)


def blocks_of(samples: np.ndarray, block: int = round(BLOCK_S * RATE)) -> Iterator[np.ndarray]:
    for i in range(0, len(samples), block):
        yield samples[i : i + block]


def learned_profile(pitches: Mapping[str, float], blows: int = 3) -> Any:
    """A whistle profile learned by the real wizard from generated blows."""
    from calibration.whistle import _Progress, calibrate

    profile, _notes = calibrate(
        list(pitches),
        blows,
        lambda: blocks_of(noise(1.5, 0.003, seed=3)),
        lambda name: blocks_of(blows_recording(pitches[name], blows, seed=list(pitches).index(name) * 10)),
        lambda name: None,
        _Progress(io.StringIO()),
    )
    return profile


class WhistleRig:
    """The real ``WhistleSensor`` (calibrated for ``players``) over a ``LiveMicrophone``."""

    def __init__(
        self,
        players: Sequence[str] = (),
        out: queue.Queue[Any] | None = None,
        pitches: Mapping[str, float] | None = None,
    ) -> None:
        from calibration.whistle import Profile
        from hardware.whistle.sensor import WhistleSensor

        self.pitches = (
            dict(pitches) if pitches is not None else {p: PITCHES[i % len(PITCHES)] for i, p in enumerate(players)}
        )
        self.profile = learned_profile(self.pitches) if self.pitches else Profile()
        self.microphone = LiveMicrophone()
        self.sensor = WhistleSensor(self.microphone, self.profile.detector(), out)

    def blow(self, blower: str | None = None, duration: float = 0.5, freq: float | None = None) -> None:
        """A blow on ``blower``'s whistle (or at ``freq``), heard from now on."""
        hz = freq if freq is not None else self.pitches.get(blower or "", 2600.0)
        self.microphone.play(whistle_blow(hz, duration))


# -- the buttons --------------------------------------------------------------------

DEFAULT_PINS: dict[str, int] = {
    "confirm": 5, "undo": 6, "whistle": 13,
    "face1": 16, "face2": 19, "face3": 20, "face4": 21, "face5": 26, "face6": 12,
}  # fmt: skip


class ButtonsRig:
    """The real ``ButtonsSensor`` on gpiozero's ``MockFactory``."""

    def __init__(
        self, pins: Mapping[str, int] | None = None, out: queue.Queue[Any] | None = None, scheme: str = "faces"
    ) -> None:
        from hardware.buttons import ButtonMap, ButtonsSensor, pin_factory

        self.map = ButtonMap(pins=dict(pins or DEFAULT_PINS), scheme=scheme, backend="mock")
        _, self.factory = pin_factory("mock")
        self.sensor = ButtonsSensor(self.map, out, factory=self.factory)

    def press(self, role: str, hold_s: float = 0.05) -> None:
        """Press and release a button (pulled up: pressed is low)."""
        pin = self.factory.pin(self.map.pins[role])
        pin.drive_low()
        time.sleep(hold_s)
        pin.drive_high()
