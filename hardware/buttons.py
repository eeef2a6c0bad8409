"""GPIO buttons: dice entry, confirm, undo and a manual whistle, through gpiozero.

Two ways to enter dice, chosen in the buttons profile (``calibration.buttons``):

- ``faces``: one button per face value (``face1`` .. ``face6``); each press
  enters one die, and the roll is sent as soon as the game's dice request
  (``request(DiceRequest)``) has its count, or on ``confirm``;
- ``step``: a ``step`` button counts the value up 1..6 (hold it to repeat),
  ``confirm`` enters the shown value.

``undo`` takes back the last die entered, or, with nothing entered, asks the
app to undo (``Event("undo")``); ``confirm`` with nothing entered is passed on
(``Event("confirm")``); ``whistle`` is a whistle blown by nobody in particular
for tables without a microphone.  ``Event("dice-entry", {"value", "entered"})``
reports entry progress for the screen.  Every event has ``source="gpio"``.

gpiozero callbacks run in its own thread and only put the press on a queue;
the sensor's worker turns presses into events.  On a machine without GPIO the
sensor is offline with the reason, and the touchscreen and keyboard take over.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import SensorError
from companion.events import ROLL, WHISTLE, Event, Source
from companion.game import DiceRequest

from .sensor import Sensor, choose_backend

log = logging.getLogger(__name__)

ENV = "BELLWETHER_BUTTONS_BACKEND"
UNDO = "undo"
CONFIRM = "confirm"
DICE_ENTRY = "dice-entry"
SCHEMES = ("faces", "step")
FACE_ROLES = tuple(f"face{i}" for i in range(1, 7))
ROLES = ("confirm", "undo", "whistle", "step", *FACE_ROLES)


@dataclass(frozen=True)
class ButtonMap:
    """Which pin does what (pins as gpiozero names them: 17, "GPIO17", "BOARD11")."""

    pins: Mapping[str, int | str] = field(default_factory=dict)
    scheme: str = "faces"
    bounce_s: float = 0.03  # contact bounce shorter than this is ignored
    hold_s: float = 0.5  # a held step button repeats this often
    pull_up: bool = True  # buttons wired between the pin and ground
    backend: str | None = None  # "gpiozero" (the Pi's pins) or "mock" (gpiozero's MockFactory)

    def check(self) -> None:
        unknown = set(self.pins) - set(ROLES)
        if unknown:
            raise SensorError(f"unknown button roles: {', '.join(sorted(unknown))}")
        if self.scheme == "step" and not {"step", "confirm"} <= set(self.pins):
            raise SensorError("the step scheme needs a step and a confirm button")
        used = [str(p) for p in self.pins.values()]
        if len(set(used)) != len(used):
            raise SensorError("two buttons share one pin")


def _gpio_factory() -> Any:
    from gpiozero import Device

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gpiozero warns per fallback; the one reason we keep is enough
        return Device._default_pin_factory()


def _mock_factory() -> Any:
    # gpiozero's own test convention: a MockFactory set as Device.pin_factory is
    # shared, so that a test can drive the pins of buttons made elsewhere.
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    if not isinstance(Device.pin_factory, MockFactory):
        Device.pin_factory = MockFactory()
    return Device.pin_factory


def pin_factory(configured: str | None = None) -> tuple[str, Any]:
    """(backend name, gpiozero pin factory): the Pi's pins unless mock is chosen."""
    return choose_backend(
        "buttons",
        {"gpiozero": _gpio_factory, "mock": _mock_factory},
        env=ENV,
        configured=configured or "gpiozero",  # an explicit choice: never fall back to fake pins silently
        config_file="buttons profile",
    )


class ButtonsSensor(Sensor):
    name = "buttons"

    def __init__(
        self,
        mapping: ButtonMap,
        out: queue.Queue[Any] | None = None,
        clock: Callable[[], float] = time.time,
        factory: Any | None = None,
    ) -> None:
        super().__init__(out, clock)
        mapping.check()
        self.map = mapping
        self.factory = factory
        self.buttons: dict[str, Any] = {}
        self.waiting: DiceRequest | None = None
        self.entered: list[int] = []
        self.value = 1  # the step scheme's shown value
        self._presses: queue.Queue[tuple[str, str, float] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # -- set-up --------------------------------------------------------------
    def start(self) -> bool:
        """Claim the pins; False (and offline with the reason) when there is no GPIO."""
        try:
            if self.factory is None:
                _, self.factory = pin_factory(self.map.backend)
            from gpiozero import Button
            from gpiozero.exc import GPIOZeroError

            try:
                for role, pin in self.map.pins.items():
                    repeat = role == "step"
                    b = Button(
                        pin,
                        pull_up=self.map.pull_up,
                        bounce_time=self.map.bounce_s or None,
                        hold_time=self.map.hold_s,
                        hold_repeat=repeat,
                        pin_factory=self.factory,
                    )
                    b.when_pressed = self._callback(role, "press")
                    if repeat:
                        b.when_held = self._callback(role, "hold")
                    self.buttons[role] = b
            except (GPIOZeroError, ValueError, OSError) as e:
                raise SensorError(f"button pin problem: {e}") from None
        except SensorError as e:
            self._close_buttons()
            self.set_status(False, f"no GPIO buttons ({e}); use the touchscreen or keyboard")
            return False
        self._thread = threading.Thread(target=self._work, name="gpio-buttons", daemon=True)
        self._thread.start()
        kind = "a button per die face" if self.map.scheme == "faces" else "step and OK buttons"
        self.set_status(True, f"{len(self.buttons)} buttons, {kind} (their pins: Calibrate, Buttons)")
        return True

    def stop(self) -> None:
        self._presses.put(None)
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        self._close_buttons()
        self.set_status(False, "stopped")

    def reload(self, mapping: ButtonMap) -> bool:
        """Use a new mapping (a profile just saved) without a restart: the old pins are let go first."""
        mapping.check()
        self.stop()
        with self._lock:
            self.map = mapping
            self.entered = []
            self.value = 1
        self._presses = queue.Queue()
        return self.start()

    def _close_buttons(self) -> None:
        for b in self.buttons.values():
            b.close()
        self.buttons = {}

    def _callback(self, role: str, kind: str) -> Callable[[], None]:
        last = [-1e9]

        def on_event() -> None:  # gpiozero's thread: copy and return
            now = time.monotonic()
            # Debounce here as well as in the pin driver: not every pin factory
            # (gpiozero's MockFactory, some kernels) honours bounce_time.
            if kind == "press" and now - last[0] < self.map.bounce_s:
                return
            last[0] = now
            self._presses.put((role, kind, self.clock()))

        return on_event

    # -- what the app tells the sensor --------------------------------------
    def request(self, dice: DiceRequest | None) -> None:
        with self._lock:
            self.waiting = dice
            self.entered = []
            self.value = 1

    # -- the work ------------------------------------------------------------
    def _work(self) -> None:
        while True:
            item = self._presses.get()
            if item is None:
                return
            try:
                self.handle(*item)
            except Exception:  # a bug must not kill the buttons; log it and go on
                log.exception("button handling failed")

    def handle(self, role: str, kind: str, at: float) -> None:
        """Turn one press (or repeat) into events."""
        with self._lock:
            if role == "whistle":
                payload = {"blower": None, "peak_hz": None, "onset": at, "offset": at}
                self.emit(Event(WHISTLE, payload, time=at, source=Source.GPIO, confidence=1.0))
            elif role == "step":
                self.value = self.value % 6 + 1
                self._progress(at)
            elif role in FACE_ROLES:
                self._enter(int(role[-1]), at)
            elif role == "confirm":
                if self.map.scheme == "step" and self.waiting is not None:
                    self._enter(self.value, at)
                elif self.entered:
                    self._send(at)
                else:
                    self.emit(Event(CONFIRM, {}, time=at, source=Source.GPIO))
            elif role == "undo":
                if self.entered:
                    self.entered.pop()
                    self._progress(at)
                else:
                    self.emit(Event(UNDO, {}, time=at, source=Source.GPIO))

    def _enter(self, value: int, at: float) -> None:
        self.entered.append(value)
        need = self.waiting.count if self.waiting is not None else 1
        if len(self.entered) >= need:
            self._send(at)
        else:
            self._progress(at)

    def _face(self, value: int) -> Any:
        """Button value n is the die's n-th face (its value for a pip die)."""
        faces = self.waiting.faces if self.waiting is not None else ()
        if self.waiting is not None and self.waiting.die != "d6" and 1 <= value <= len(faces):
            return faces[value - 1]
        return value

    def _send(self, at: float) -> None:
        die = self.waiting.die if self.waiting is not None else "d6"
        faces = [self._face(v) for v in self.entered]
        self.emit(Event(ROLL, {"die": die, "faces": faces}, time=at, source=Source.GPIO, confidence=1.0))
        self.entered = []
        self.value = 1

    def _progress(self, at: float) -> None:
        self.emit(Event(DICE_ENTRY, {"value": self.value, "entered": list(self.entered)}, time=at, source=Source.GPIO))
