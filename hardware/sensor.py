"""What all sensors share: online/offline status, the output queue, backend choice."""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.errors import ConfigError, SensorError
from companion.events import Event

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class SensorStatus:
    """A sensor's state as the Settings screen and the status bar show it."""

    sensor: str  # "microphone", "camera", "buttons"
    online: bool
    reason: str  # why offline, or what is in use when online
    time: float

    def __str__(self) -> str:
        return f"{self.sensor}: {'online' if self.online else 'offline'} ({self.reason})"


Output = "queue.Queue[Event | SensorStatus]"


class Sensor:
    """Base of the sensors: owns the output queue and reports status changes.

    Subclasses call ``emit(event)`` from their worker thread and
    ``set_status(online, reason)`` whenever the device comes or goes.  They
    never raise out of the worker: a device error makes the sensor offline.
    """

    name = "sensor"

    def __init__(self, out: queue.Queue[Any] | None = None, clock: Callable[[], float] = time.time) -> None:
        self.out: queue.Queue[Any] = out if out is not None else queue.Queue()
        self.clock = clock
        self._status = SensorStatus(self.name, False, "not started", clock())
        self._lock = threading.Lock()

    @property
    def status(self) -> SensorStatus:
        return self._status

    @property
    def online(self) -> bool:
        return self._status.online

    def set_status(self, online: bool, reason: str) -> None:
        with self._lock:
            if self._status.online == online and self._status.reason == reason:
                return
            self._status = SensorStatus(self.name, online, reason, self.clock())
        log.info("%s", self._status)
        self.out.put(self._status)

    def emit(self, event: Event) -> None:
        self.out.put(event)


def choose_backend(
    kind: str,
    backends: Mapping[str, Callable[[], T]],
    *,
    env: str,
    configured: str | None = None,
    order: tuple[str, ...] = (),
    config_file: object = "settings",
) -> tuple[str, T]:
    """Pick a device backend the way gpiozero picks a pin factory.

    An explicit choice (environment variable ``env`` first, then the
    configuration) must work or it is an error naming where it came from;
    with no choice, each backend in ``order`` is tried and a failure warns and
    falls through to the next, ending with the fake one.
    """
    wanted = os.environ.get(env) or configured
    if wanted:
        if wanted not in backends:
            source = f"environment variable {env}" if os.environ.get(env) else config_file
            raise ConfigError(source, f"{kind}.backend", "one of " + ", ".join(backends), wanted)
        try:
            return wanted, backends[wanted]()
        except (ImportError, OSError, SensorError) as e:
            raise SensorError(f"{kind} backend {wanted!r} is unavailable: {e}") from None
    errors = []
    for name in order or tuple(backends):
        try:
            return name, backends[name]()
        except (ImportError, OSError, SensorError) as e:
            errors.append(f"{name}: {e}")
            warnings.warn(f"{kind}: falling back from {name} ({e})", RuntimeWarning, stacklevel=2)
    raise SensorError(f"no {kind} backend works ({'; '.join(errors)})")
