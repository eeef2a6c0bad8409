"""``DiceSensor``: camera frames in, ``roll`` events out.

A worker thread reads frames from a source (``hardware.camera``), waits for
the dice to settle (``settle.SettleDetector``), reads the top faces
(``reader.DiceReader``) and emits::

    Event("roll", {"die": "d6", "faces": [3, 5]}, source="camera", confidence=0.93)

Rolls are emitted only while the game waits for one (``request(DiceRequest)``,
from ``Prompt.dice``); a roll that settles while nobody asked is dropped, and
the dice lying there are never reported later.  When the camera fails the
sensor goes offline with the reason, reopens it with back-off (0.5 s doubling
to 8 s) and comes back online: the app keeps running throughout.

A new camera profile (a die sampled again, a new tray) is used while the
sensor runs: ``reload(path)`` (the Calibrate screen calls it after saving),
or by itself when the watched ``profile_path`` changes on disk (``bellwether
calibrate camera`` run beside the app).  A profile that cannot be used is
reported in one line (file, key, what was expected) and the old one stays.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import SensorError
from companion.events import ROLL, Event, Source
from companion.game import DiceRequest

from ..camera import EndOfStream, FrameSource
from ..sensor import Sensor
from .model import DieReading
from .reader import PIP_DIE, DiceReader
from .settle import SettleDetector, SettleParams

log = logging.getLogger(__name__)

# Pip dice whose reading boxes are smaller than this (px, the median of a settled roll's dice) are too small for
# their pips to be read reliably, whatever the reader: read in sample by five classifiers (docs/dice.md, session
# 25), white-paper's dice under 20 px were read right 0.24-0.43 and those of 20-25 px 0.59-0.68 (50 px and more
# 0.97); held out, hex-trays' under 30 px 0.20 (session 22). The reading box is 0.87-1.07 of the labelled side at
# the median on each of the five real groups (`DiceReader.pip_die_sides`), so the hint's 22 px lies at
# about 20-25 labelled px. Only a hint in the status: the readings are unchanged.
SMALL_DIE_PX = 22

# The hint above as a notice to the app after each roll of such dice (never a game event): the Table shows it on its
# message line, where the table looks, not only in the Settings screen's sensor card.
ADVICE = "camera-advice"


class DiceSensor(Sensor):
    name = "camera"

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        reader: DiceReader | None = None,
        out: queue.Queue[Any] | None = None,
        clock: Callable[[], float] = time.time,
        settle: SettleParams | None = None,
        fps: float = 15.0,
        retry: tuple[float, float] = (0.5, 8.0),
        profile_path: Path | None = None,
        watch_s: float = 2.0,
    ) -> None:
        super().__init__(out, clock)
        self.open_source = open_source
        self.reader = reader or DiceReader()
        self.settle = SettleDetector(settle or SettleParams(), self.reader.region)
        self.fps = fps
        self.retry = retry
        self.waiting: DiceRequest | None = None
        self.last_readings: list[DieReading] = []
        self.frames = 0
        self._source: FrameSource | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        # The camera profile: watched on disk, swapped in by the worker between frames.
        self.profile_path = profile_path
        self.profile_error = ""  # why the last profile seen was not used ("" when it was)
        self.watch_s = watch_s
        self._stamp = _stamp(profile_path)
        self._watched_at = time.monotonic()
        self._next_reader: DiceReader | None = None
        self._held_frames: int | None = None  # frames since a new reader, until the scene moves
        self._dropped = 0  # dice the last read found beyond the game's count (``_likeliest``)
        self._profile_news = False  # a reload's outcome, for the worker to put in the status
        self.region_error = ""  # why the tray region does not fit the camera's frames ("" when it does)
        self.size_error = ""  # the pip dice of the last roll are too small to read well ("" when they are not)

    # -- what the app tells the sensor -------------------------------------
    def request(self, dice: DiceRequest | None) -> None:
        """The game's current dice request (``Prompt.dice``), or None: not waiting."""
        with self._lock:
            self.waiting = dice

    def use_reader(self, reader: DiceReader) -> None:
        """Read with ``reader`` from the next frame on (any thread)."""
        with self._lock:
            self._next_reader = reader
        if not self.running:
            self._swap()

    def reload(self, path: Path | None = None) -> str | None:
        """Use the camera profile at ``path`` (default: the watched one) from the next frame on.

        Returns None, or the one-line reason the profile was not used; then
        the reader in use stays, and the reason shows in the sensor's status.
        """
        from calibration.camera import load_profile
        from calibration.camera import profile_path as default_path

        path = Path(path or self.profile_path or default_path())
        self.profile_path, self._stamp = path, _stamp(path)
        try:
            reader = DiceReader.from_profile(load_profile(path))
        except Exception as e:  # any bad profile (ConfigError names file, key, expected) leaves the old reader
            self.profile_error = str(e) if str(path) in str(e) else f"{path}: {e}"
            log.warning("camera profile not used (the old one stays): %s", self.profile_error)
            self._report_profile()
            return self.profile_error
        self.profile_error = ""
        self.use_reader(reader)
        self._report_profile()
        return None

    def _report_profile(self) -> None:
        # The worker owns the status while it runs (it alone sees the camera fail
        # and return): it reports the profile's news with its next frame, so an
        # "online" from here can never overtake its "offline".
        if self.running:
            self._profile_news = True
        elif self.online:
            self._set_online()

    def _set_online(self) -> None:
        """Online, with the camera in use and a profile that could not be used (if any)."""
        source = self._source  # read once: the worker may drop it meanwhile
        if source is not None:
            note = "".join(f"; {e}" for e in (self.region_error, self.size_error) if e)
            note += f"; {self.profile_error} (not used, the old profile stays)" if self.profile_error else ""
            self.set_status(True, source.description + note)

    def _check_region(self, frame: np.ndarray) -> None:
        """Say in the status when the tray region does not lie inside the frames (a camera giving another size than
        the one it was calibrated at): the dice outside it are never read, and nothing else would say why."""
        region, (h, w) = self.reader.region, frame.shape[:2]
        error = ""
        if region is not None and (region[0] + region[2] > w or region[1] + region[3] > h):
            error = (f"the tray region {list(region)} is not inside the camera's {w}x{h} frames: "
                     "mark the tray again (Calibrate, Camera)")
        self._note("region_error", error)

    def _check_size(self, frame: np.ndarray, readings: list[DieReading]) -> None:
        """Say in the status when a settled roll's pip dice look too small to read (a camera mounted too high or set
        to a low resolution): the table's corrections would say something is wrong, but not what to change."""
        if not any(r.kind == "pips" for r in readings):
            return  # colour and symbol dice: nothing said about pips
        sides = self.reader.pip_die_sides(frame)  # once a roll: the network's boxes, whichever reader read it
        if not sides:
            return
        side = float(np.median(sides))
        error = ""
        if side < SMALL_DIE_PX:
            error = (f"dice {side:.0f} px across, too small to read well ({SMALL_DIE_PX} px or more): "
                     "lower the camera or raise its resolution")
            self.emit(Event(ADVICE, {"text": error}, time=self.clock(), source=Source.CAMERA))
        self._note("size_error", error)

    def _note(self, name: str, error: str) -> None:
        """One of the status's notes (``region_error``, ``size_error``) set: said again only when it changes."""
        if error != getattr(self, name):
            setattr(self, name, error)
            if error:
                log.warning("camera: %s", error)
            self._set_online()

    def _watch(self) -> None:
        """Reload the profile when its file changed (checked every ``watch_s``; a stat is cheap)."""
        if self.profile_path is None or time.monotonic() - self._watched_at < self.watch_s:
            return
        self._watched_at = time.monotonic()
        if _stamp(self.profile_path) != self._stamp:
            self.reload()

    def _swap(self) -> None:
        with self._lock:
            reader, self._next_reader = self._next_reader, None
        if reader is not None:
            self.reader = reader
            self.settle.region = reader.region
            self._held_frames = 0

    def _read(self, die: str, count: int | None = None) -> Callable[[np.ndarray], list[DieReading]]:
        """The read the settle detector makes: nothing while held after a new reader.

        The die just sampled still lies in the tray when a profile is saved: it
        is no roll.  Reading resumes once the scene moves.
        """
        if self._held_frames is not None:
            return lambda _f: []
        return lambda f: self._likeliest(self.reader.read(f, die, expected=count), count)

    def _likeliest(self, readings: list[DieReading], count: int | None) -> list[DieReading]:
        """At most the ``count`` dice the game asked for: the likeliest, in reading order.

        A reader that finds more dice than were rolled has mostly taken a side face, a shadow or a pattern for one,
        and reads it less surely than the real dice (session 22: on the real groups' unseen photos of at most 5 dice,
        the most sure ``count`` of an over-count were the roll in 151 of 180 webcam photos, 13 of 41 fisheye-tray, 3 of
        8 white-paper, 3 of 3 iPhone).  The roll still goes to the table to confirm (``process``), now with as many
        faces as it asked for, so one tap accepts it.
        """
        self._dropped = 0 if not count else max(0, len(readings) - count)
        if not self._dropped:
            return readings
        keep = sorted(range(len(readings)), key=lambda i: -readings[i].confidence)[:count]
        return [readings[i] for i in sorted(keep)]

    def _release(self) -> None:
        """End the hold on motion after the first frame (a new tray region always looks like motion)."""
        if self._held_frames is not None:
            self._held_frames = None if self._held_frames > 0 and self.settle.moving else self._held_frames + 1

    # -- the work ----------------------------------------------------------
    def process(self, frame: np.ndarray) -> Event | None:
        """Handle one frame (the worker calls this; tests may call it directly)."""
        self.frames += 1
        self._swap()
        self._check_region(frame)
        if self._profile_news:
            self._profile_news = False
            self._set_online()
        with self._lock:
            wanted = self.waiting
        die = wanted.die if wanted is not None else PIP_DIE
        readings = self.settle.update(frame, self._read(die, wanted.count if wanted is not None else None))
        self._release()
        if readings is None:
            return None
        self.last_readings = readings
        if wanted is None:
            log.info("camera: a roll settled while no roll was expected; ignored")
            return None
        confidence = min(r.confidence for r in readings)
        if wanted.count and (len(readings) != wanted.count or self._dropped):
            confidence *= 0.5  # a die hidden or an extra one (dropped above): let the table confirm
        event = Event(
            ROLL,
            {"die": die, "faces": [r.face for r in readings]},
            time=self.clock(),
            source=Source.CAMERA,
            confidence=round(max(0.0, min(1.0, confidence)), 3),
        )
        self.emit(event)
        self._check_size(frame, readings)  # after the event: the roll is not held up by the hint
        return event

    def _open(self) -> bool:
        try:
            self._source = self.open_source()
        except SensorError as e:
            self.set_status(False, str(e))
            return False
        self._set_online()
        return True

    def _close(self) -> None:
        if self._source is not None:
            try:
                self._source.close()
            except Exception:  # a dying device may fail to close; it is dropped anyway
                log.debug("camera close failed", exc_info=True)
            self._source = None

    def run(self) -> None:
        """The worker loop: until ``stop()`` or the end of a file source."""
        delay = self.retry[0]
        period = 1.0 / self.fps if self.fps > 0 else 0.0
        while not self._stop.is_set():
            self._watch()  # also while a die is not calibrated: a profile saved now cures that
            if self._source is None:
                if not self._open():
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.retry[1])
                    continue
                delay = self.retry[0]
            started = time.monotonic()
            try:
                frame = self._source.read()
            except EndOfStream as e:
                self._close()
                self.set_status(False, str(e))
                return
            except SensorError as e:
                self._close()
                self.set_status(False, f"{e}; retrying")
                continue
            try:
                self.process(frame)
            except SensorError as e:  # e.g. a die that was never calibrated
                self.set_status(False, str(e))
                self._stop.wait(delay)
                continue
            except Exception as e:  # a bug or a malformed frame must not kill the sensor
                log.exception("dice reading failed")
                self.set_status(False, f"dice reading failed ({type(e).__name__}); retrying")
                self._stop.wait(delay)
                continue
            if not self.online:
                self._set_online()
            if period:
                self._stop.wait(max(0.0, period - (time.monotonic() - started)))

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name="dice-camera", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._close()
        self.set_status(False, "stopped")

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the worker to end (file sources end by themselves)."""
        if self._thread is not None:
            self._thread.join(timeout)


def _stamp(path: Path | None) -> tuple[int, int, int] | None:
    """What changes when a file is written again (an atomic save replaces the inode)."""
    try:
        st = path.stat() if path is not None else None
    except OSError:
        return None
    return None if st is None else (st.st_mtime_ns, st.st_size, st.st_ino)
