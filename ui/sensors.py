"""The sensors as the app sees them: one queue, and a status per sensor.

Each sensor module (camera dice reader, whistle microphone, GPIO buttons) is
opened in a background thread after the first frame, so neither a slow
import (OpenCV) nor a missing device delays start-up.  A module that is
missing or fails to open is reported offline with the reason, and play goes
on with on-screen entry.  Sensor threads only ever touch the queue; the app
drains it on the Kivy clock.
"""

from __future__ import annotations

import glob
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from companion.events import Event
from hardware.sensor import Sensor, SensorStatus

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class SensorSpec:
    name: str  # as SensorStatus.sensor says it: "camera", "microphone", "buttons"
    opener: Callable[[queue.Queue[Any]], Sensor | None]  # builds the sensor (not started)
    purpose: str  # what it is for, shown in Settings


class Absent(Exception):
    """No such device here: the sensor is offline and its (heavy) modules are never imported."""


@dataclass(frozen=True)
class ProfileIgnored:
    """A profile that could not be used (a bad value, a folder, an unreadable file):
    its sensor runs on the defaults, and the app says which file it ignored and why."""

    path: str
    reason: str

    def text(self) -> str:
        # The folder is the same for every profile (shown on Settings); the name and the problem fit one line.
        reason = self.reason.removeprefix(f"{self.path}: ")
        return f"Ignored {Path(self.path).name} (defaults used): {reason}"


def load_or_defaults(load: Callable[[], T], defaults: Callable[[], T], path: Any, out: queue.Queue[Any]) -> T:
    """``load()``, or on a bad profile ``defaults()`` with a ProfileIgnored notice on ``out``."""
    from companion.errors import BellwetherError

    try:
        return load()
    except BellwetherError as e:  # ConfigError names the file and key; a folder or link, the system's words
        log.warning("profile %s ignored: %s", path, e)
        out.put(ProfileIgnored(str(path), str(e)))
        return defaults()


def camera_absent() -> str | None:
    """Why there can be no camera (None: there may be one).

    Checked before importing OpenCV and numpy (~45 MB resident): with no
    explicit backend (environment or camera profile), picamera2 and OpenCV
    both need a video device node.
    """
    from calibration.camera import profile_path
    from companion.config import profile_present

    if os.environ.get("BELLWETHER_CAMERA_BACKEND") or profile_present(profile_path()) or glob.glob("/dev/video*"):
        return None
    return "no camera found (no /dev/video* device and no camera profile)"


def microphone_absent() -> str | None:
    """Why there can be no microphone (None: there may be one); checked before importing numpy and PyAudio."""
    from companion.config import load_toml, profile_present
    from companion.paths import config_dir

    if os.environ.get("BELLWETHER_AUDIO_BACKEND"):
        return None
    settings = config_dir() / "settings.toml"
    if profile_present(settings):
        try:
            if (load_toml(settings).get("microphone") or {}).get("backend"):
                return None  # an explicit backend (wav, memory, pyaudio) is opened and may fail with its reason
        except Exception:
            return None  # a bad settings file is reported by the real opener, with file and key
    if glob.glob("/dev/snd/pcmC*D*c"):
        return None
    return "no microphone found (no ALSA capture device)"


def open_camera(out: queue.Queue[Any]) -> Sensor:
    """The dice camera with the calibrated reader (or the defaults: whole frame, pip dice)."""
    reason = camera_absent()
    if reason:
        raise Absent(reason)
    from calibration.camera import CameraProfile, load_profile, profile_path
    from hardware.camera import open_camera as open_source
    from hardware.dice.reader import DiceReader
    from hardware.dice.sensor import DiceSensor

    path = profile_path()
    profile = load_or_defaults(lambda: load_profile(path), CameraProfile, path, out)
    # The profile is watched: one saved while the app runs (wizard or CLI) is used at once.
    return DiceSensor(
        lambda: open_source(profile.camera, path)[1], DiceReader.from_profile(profile), out, profile_path=path
    )


def open_microphone(out: queue.Queue[Any]) -> Sensor:
    """The configured microphone with the calibrated (or default) whistle detector."""
    reason = microphone_absent()
    if reason:
        raise Absent(reason)
    from calibration.whistle import Profile, load_profile, profile_path
    from companion.paths import config_dir
    from hardware.audio import AudioSettings
    from hardware.whistle.sensor import WhistleSensor

    settings = load_or_defaults(AudioSettings.load, AudioSettings, config_dir() / "settings.toml", out)
    profile = load_or_defaults(load_profile, Profile, profile_path(), out)
    return WhistleSensor.from_config(out, settings=settings, profile=profile)


def open_buttons(out: queue.Queue[Any]) -> Sensor | None:
    """The GPIO buttons of the button profile; None when no profile was made."""
    from calibration.buttons import load_profile, profile_path
    from hardware.buttons import ButtonsSensor

    mapping = load_or_defaults(load_profile, lambda: None, profile_path(), out)
    if mapping is None:
        return None
    return ButtonsSensor(mapping, out)


SPECS: tuple[SensorSpec, ...] = (
    SensorSpec("camera", open_camera, "reads the dice in the tray"),
    SensorSpec("microphone", open_microphone, "hears sheep-whistle blows"),
    SensorSpec("buttons", open_buttons, "GPIO buttons for dice and answers"),
)
NOT_SET_UP = {"buttons": "no button profile yet (buttons.toml)"}


class SensorHub:
    """All sensors, their statuses, and the one queue they write to."""

    def __init__(self, specs: Iterable[SensorSpec] = SPECS, clock: Callable[[], float] = time.time) -> None:
        self.queue: queue.Queue[Any] = queue.Queue()
        self.specs = {s.name: s for s in specs}
        self.clock = clock
        self.sensors: dict[str, Sensor] = {}
        self.statuses: dict[str, SensorStatus] = {
            s.name: SensorStatus(s.name, False, "starting", clock()) for s in self.specs.values()
        }
        self._thread: threading.Thread | None = None
        self.ignored: dict[str, ProfileIgnored] = {}  # profile path -> why it was ignored

    # -- opening -------------------------------------------------------------
    def add(self, sensor: Sensor) -> None:
        """Use an already built sensor (a fake in tests, or a demo backend)."""
        sensor.out = self.queue
        self.sensors[sensor.name] = sensor
        self.statuses[sensor.name] = sensor.status
        self.queue.put(sensor.status)  # so the app's summary hears of it like any change
        self.specs.setdefault(sensor.name, SensorSpec(sensor.name, lambda _q: sensor, "added by the app"))

    def open_all(self, background: bool = True) -> None:
        pending = [s for s in self.specs.values() if s.name not in self.sensors]
        if background:
            self._thread = threading.Thread(target=self._open, args=(pending,), name="sensor-open", daemon=True)
            self._thread.start()
        else:
            self._open(pending)

    def _open(self, specs: list[SensorSpec]) -> None:
        for spec in specs:
            try:
                sensor = spec.opener(self.queue)
            except Absent as e:
                self._offline(spec.name, str(e))
                continue
            except ImportError as e:
                self._offline(spec.name, f"module {e.name or e} is not installed or not built yet")
                continue
            except Exception as e:  # no device, bad profile, broken module: offline, never fatal
                self._offline(spec.name, f"could not open: {e}")
                continue
            if sensor is None:
                self._offline(spec.name, NOT_SET_UP.get(spec.name, "not set up"))
                continue
            sensor.out = self.queue
            self.sensors[spec.name] = sensor
            try:
                sensor.start()  # sensors report their own status (online, or offline and why)
            except Exception as e:
                sensor.set_status(False, f"could not start: {e}")

    def _offline(self, name: str, reason: str) -> None:
        log.info("%s offline: %s", name, reason)
        self.queue.put(SensorStatus(name, False, reason, self.clock()))

    def use_buttons(self, mapping: Any, factory: Any = None) -> Sensor:
        """Buttons from a profile saved while the app runs: the running sensor reloads it, or one starts."""
        from hardware.buttons import ButtonsSensor

        sensor = self.sensors.get("buttons")
        if isinstance(sensor, ButtonsSensor):
            sensor.reload(mapping)
            return sensor
        sensor = ButtonsSensor(mapping, self.queue, factory=factory)
        self.sensors["buttons"] = sensor
        sensor.start()
        return sensor

    def request(self, dice: Any) -> None:
        """Tell the dice sensors (camera, buttons) which dice the game waits for."""
        for sensor in list(self.sensors.values()):
            request = getattr(sensor, "request", None)
            if callable(request):
                try:
                    request(dice)
                except Exception as e:  # a sensor failing here must not stop play
                    log.warning("%s: request(%s) failed: %s", sensor.name, dice, e)

    def close(self) -> None:
        for sensor in self.sensors.values():
            for attr in ("stop", "close"):
                f = getattr(sensor, attr, None)
                if callable(f):
                    try:
                        f()
                    except Exception as e:
                        log.warning("closing %s: %s", sensor.name, e)
                    break

    # -- draining ------------------------------------------------------------
    def drain(self, limit: int = 50) -> tuple[list[Event], bool]:
        """Events waiting in the queue, and whether any status changed.

        ``limit`` bounds the work per clock tick so a flood of sensor output
        cannot freeze the screen; the rest waits for the next tick.
        """
        events: list[Event] = []
        changed = False
        for _ in range(limit):
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, SensorStatus):
                self.statuses[item.sensor] = item
                changed = True
            elif isinstance(item, ProfileIgnored):
                self.ignored[item.path] = item
                changed = True
            elif isinstance(item, Event):
                events.append(item)
        return events, changed

    def offline(self) -> list[SensorStatus]:
        return [s for s in self.statuses.values() if not s.online]

    def details(self, name: str) -> list[tuple[str, str]]:
        """What a sensor object itself reports, for the Settings screen.

        Only public, plain attributes the sensor exposes (level, backend,
        last event, ...) are shown; nothing is invented for a sensor that
        offers none.
        """
        sensor = self.sensors.get(name)
        if sensor is None:
            return []
        out: list[tuple[str, str]] = [("class", f"{type(sensor).__module__}.{type(sensor).__name__}")]
        for attr in sorted(vars(sensor)):
            if attr.startswith("_") or attr in {"out", "clock", "name"}:
                continue
            value = getattr(sensor, attr)
            if isinstance(value, (str, int, float, bool)) or value is None:
                out.append((attr, str(value)))
            elif (
                isinstance(value, (tuple, list))
                and 0 < len(value) <= 8
                and all(isinstance(v, (str, int, float, bool)) for v in value)
            ):
                out.append((attr, ", ".join(str(v) for v in value)))
        for attr in ("level", "level_db", "backend", "last_event", "device", "running"):
            if attr in vars(type(sensor)) and isinstance(getattr(type(sensor), attr), property):
                try:
                    out.append((attr, str(getattr(sensor, attr))))
                except Exception as e:
                    out.append((attr, f"unavailable: {e}"))
        return out
