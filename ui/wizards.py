"""The calibration wizards, driven from the touchscreen (plain Python, no Kivy).

Each wizard runs the logic of ``calibration/`` in a worker thread and keeps
its progress in plain attributes (``state``, ``lines``, ``bars``, ``error``)
that the Calibrate screen shows ten times a second.  They work on the sensors
the app already has open: the whistle wizard listens through the running
microphone sensor (``hardware.whistle.spectrum.BlockTap``), the button test
borrows the pins from the running buttons sensor and gives them back, and the
camera wizard sees the frames the dice sensor reads.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from companion.config import profile_present

log = logging.getLogger(__name__)

IDLE, RUNNING, DONE, FAILED = "idle", "running", "done", "failed"


class _Wizard:
    def __init__(self) -> None:
        self.state = IDLE
        self.lines: list[str] = []
        self.bars: dict[str, tuple[int, int, str]] = {}
        self.error = ""
        self.saved: Path | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    # the calibration modules' progress interface (calibration.whistle._Progress)
    def step(self, text: str) -> None:
        self.lines.append(text.strip())
        del self.lines[:-12]

    def bar(self, name: str, done: int, total: int, note: str = "") -> None:
        self.bars[name] = (done, total, note)

    def _run(self, work: Any) -> None:
        self.state, self.error, self.lines, self.bars = RUNNING, "", [], {}
        self._stop.clear()

        def body() -> None:
            try:
                work()
            except Exception as e:  # a wizard's failure is shown, never fatal
                log.info("wizard failed: %s", e)
                self.error = str(e)
                self.state = FAILED
                return
            self.state = DONE

        self._thread = threading.Thread(target=body, name=type(self).__name__, daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        self._stop.set()

    @property
    def running(self) -> bool:
        return self.state == RUNNING


SETTLE_S = 1.5  # seconds of a previous blow's tail skipped before listening to the next player
CHECK_S = 10.0  # seconds to wait for a check blow before saying none was heard
CHOICE_S = 300.0  # seconds to wait for Check again / Go on before giving up (nothing is saved)


def _level_db(block: Any) -> float:
    import numpy as np

    return float(10 * np.log10(np.mean(np.asarray(block, np.float64) ** 2) + 1e-12))


class WhistleWizard(_Wizard):
    """``calibration.whistle.calibrate`` on the running microphone; saves and uses the profile."""

    def __init__(
        self,
        sensor: Any,
        players: Sequence[str],
        blows: int = 3,
        quiet_s: float = 2.0,
        per_player_s: float = 30.0,
        path: Path | None = None,
    ) -> None:
        super().__init__()
        self.sensor = sensor
        self.players = [p for p in players if p]
        self.blows = blows
        self.quiet_s = quiet_s
        self.per_player_s = per_player_s
        self.path = path
        self.check_s = CHECK_S
        self.notes: list[str] = []
        self.checks: dict[str, Any] = {}  # player -> calibration.whistle.CheckResult of the last check blow
        self.asking = ""  # the player whose check failed, while the table chooses: check again or go on
        self._choice = threading.Event()
        self._again = False

    @property
    def current(self) -> str:
        """What the table should do now (the wizard's last instruction)."""
        return self.lines[-1] if self.lines else ""

    # the calibration module's progress interface, for the check blows
    def check(self, result: Any) -> None:
        self.checks[result.player] = result
        if result.ok:
            self.step(f"{result.player}: {result.describe()}.")

    def answer(self, again: bool) -> None:
        """The table's choice after a failed check (from the screen): another check blow, or go on."""
        self._again = again
        self._choice.set()

    def _ask_again(self, result: Any) -> bool:
        """After a failed check, wait (in the worker) for the table's choice on the screen."""
        self._choice.clear()
        self.asking = result.player
        self.step(f"{result.player}: {result.describe()}. Check again, or go on?")
        deadline = time.monotonic() + CHOICE_S
        try:
            while not self._choice.wait(0.1):
                if self._stop.is_set():
                    raise RuntimeError("stopped before the check was done; nothing saved")
                if time.monotonic() > deadline:  # nobody at the screen: an unchecked profile is not saved
                    raise RuntimeError(f"no answer after {result.player}'s check; nothing saved")
        finally:
            self.asking = ""
        return self._again

    def start(self) -> None:
        from calibration.whistle import calibrate, profile_path
        from hardware.whistle.spectrum import BlockTap, attach, detach

        def work() -> None:
            if self.sensor is None or not hasattr(self.sensor, "taps"):
                raise RuntimeError("no microphone: the whistle sensor is offline")
            tap = attach(self.sensor, BlockTap())
            quiet: list[float] = []

            def room() -> Iterator[Any]:
                for block in tap.blocks(self.quiet_s, self._stop):
                    quiet.append(_level_db(block))
                    yield block

            def listen(seconds: float) -> Iterator[Any]:
                # The last blow may still be sounding when the next player is
                # asked: its tail is not this player's (at most SETTLE_S of it).
                floor = (sum(quiet) / len(quiet) if quiet else -90.0) + 10.0
                settling = SETTLE_S
                for block in tap.blocks(seconds, self._stop):
                    if settling > 0 and _level_db(block) > floor:
                        settling -= len(block) / tap.rate
                        continue
                    settling = 0.0
                    yield block

            def check(name: str) -> Iterator[Any]:
                tap.drain()  # sound from while the table was choosing is no check blow
                return listen(self.check_s)

            try:
                profile, self.notes = calibrate(
                    self.players,
                    self.blows,
                    room,
                    lambda name: listen(self.per_player_s),
                    check,  # fresh blows, never the ones the profile was fitted to
                    self,
                    again=self._ask_again,
                )
            finally:
                detach(self.sensor, tap)
            for note in self.notes:
                self.step(f"note: {note}")
            self.saved = profile.save(self.path or profile_path())
            self.sensor.use_detector(profile.detector())
            self.step(f"Saved {self.saved}; the microphone now knows {', '.join(self.players)}.")

        self._run(work)


class ButtonTest(_Wizard):
    """``calibration.buttons.check_buttons``: press each button in turn (the pins are borrowed)."""

    def __init__(self, sensor: Any, timeout: float = 20.0) -> None:
        super().__init__()
        self.sensor = sensor
        self.timeout = timeout
        self.ok: list[str] = []

    def start(self) -> None:
        from calibration.buttons import ROLE_WORDS, check_buttons

        roles = {words: role for role, words in ROLE_WORDS.items()}

        def progress(text: str) -> None:
            self.step(text)
            if text.endswith(": ok"):
                words = text.split("] ", 1)[1].split(" on pin")[0]
                self.ok.append(roles.get(words, words))

        def work() -> None:
            if self.sensor is None or getattr(self.sensor, "map", None) is None:
                raise RuntimeError("no buttons are set up yet: touch a Set up button first")
            factory = self.sensor.factory
            was_online = self.sensor.online
            self.sensor.stop()  # the test claims the pins; the sensor gets them back after
            try:
                check_buttons(self.sensor.map, factory, self.timeout, progress)
            finally:
                if was_online:
                    self.sensor.start()
            self.step("Every button answered on its pin.")

        self._run(work)


class ButtonSetup:
    """Makes the button profile on screen: each action asked for in turn, the pin
    pressed for it recorded (``calibration.buttons.ProfileBuilder``), then saved and
    used by the running buttons sensor at once (``SensorHub.use_buttons``).

    While it listens it has every candidate pin, so a running buttons sensor
    lends its pins and gets them back on Cancel.  Driven by the screen's clock
    (``poll``): gpiozero's callbacks only queue the pins pressed.
    """

    def __init__(self, hub: Any, scheme: str = "faces", profile: Path | None = None) -> None:
        from calibration.buttons import ProfileBuilder, profile_path

        self.hub = hub
        self.path = profile or profile_path()
        self.sensor = hub.sensors.get("buttons")
        self.builder = ProfileBuilder(scheme, getattr(self.sensor, "map", None))
        self.listener: Any = None
        self.factory: Any = None
        self.state = IDLE
        self.error = ""
        self.saved: Path | None = None
        self._lent = False

    def start(self) -> None:
        from calibration.buttons import PinListener, candidate_pins
        from companion.errors import BellwetherError
        from hardware.buttons import pin_factory

        self.state, self.error = RUNNING, ""
        try:
            self.candidates = candidate_pins(self.path)
            self.factory = getattr(self.sensor, "factory", None)
            if self.factory is None:
                _, self.factory = pin_factory(getattr(getattr(self.sensor, "map", None), "backend", None))
        except (BellwetherError, ImportError) as e:
            log.info("button set-up: %s", e)
            self.state = FAILED
            self.error = "No GPIO pins here: buttons need a Raspberry Pi's header (the touchscreen does everything they would)."
            return
        if self.sensor is not None and self.sensor.online:
            self.sensor.stop()  # its pins are among the candidates; given back on Cancel
            self._lent = True
        self.listener = PinListener(self.candidates, self.factory)
        if not self.listener.buttons:
            self.cancel()
            self.state = FAILED
            self.error = "None of the GPIO pins could be opened: is another program using them?"

    def poll(self) -> list[str]:
        """Take the presses since the last call; what the wizard said about each."""
        if self.listener is None or self.state != RUNNING:
            return []
        return [self.builder.press(pin) for pin in self.listener.presses()]

    def save(self) -> str:
        """Write the profile and use it now; the words to show (a refusal keeps listening)."""
        from calibration.buttons import CalibrationError, save

        try:
            mapping = self.builder.mapping()
        except CalibrationError as e:
            return str(e)
        self._close()
        self.saved = save(mapping, self.path, self.candidates)
        self._lent = False
        sensor = self.hub.use_buttons(mapping, self.factory)
        self.state = DONE
        if sensor.online:
            return f"Saved: the buttons work now ({len(mapping.pins)} buttons)."
        return f"Saved, but the buttons could not start: {sensor.status.reason}"

    def cancel(self) -> None:
        self._close()
        if self._lent and self.sensor is not None:
            self.sensor.start()
        self._lent = False
        if self.state == RUNNING:
            self.state = IDLE

    def _close(self) -> None:
        if self.listener is not None:
            self.listener.close()
            self.listener = None

    @property
    def running(self) -> bool:
        return self.state == RUNNING


class FramePreview:
    """The frames the dice sensor reads, for the preview (the sensor keeps working)."""

    def __init__(self) -> None:
        self.last: Any = None
        self.reads = 0

    def attach(self, sensor: Any) -> bool:
        """Watch what ``sensor`` (a DiceSensor) reads, from its current source and every reopened one."""
        if sensor is None or not hasattr(sensor, "open_source"):
            return False
        if getattr(sensor, "_preview", None) is self:
            return True
        opener = sensor.open_source
        sensor.open_source = lambda: _Tapped(opener(), self)
        current = getattr(sensor, "_source", None)
        if current is not None and not isinstance(current, _Tapped):
            sensor._source = _Tapped(current, self)
        sensor._preview = self
        return True

    def see(self, frame: Any) -> None:
        self.last = frame
        self.reads += 1


class _Tapped:
    def __init__(self, source: Any, preview: FramePreview) -> None:
        self.source = source
        self.preview = preview
        self.description = source.description

    def read(self) -> Any:
        frame = self.source.read()
        self.preview.see(frame)
        return frame

    def close(self) -> None:
        self.source.close()


class CameraWizard(_Wizard):
    """Tray and colour sampling (``calibration.camera``) from the live preview."""

    def __init__(self, preview: FramePreview, path: Path | None = None) -> None:
        super().__init__()
        from calibration.camera import CameraProfile, load_profile, profile_path
        from companion.errors import BellwetherError

        self.preview = preview
        self.path = path or profile_path()
        self.unusable = False  # the file there could not be read: Save keeps it aside, never overwrites it
        try:
            self.profile = load_profile(self.path) if profile_present(self.path) else CameraProfile()
        except BellwetherError as e:  # a hand-edited profile gone bad must not close the screen
            self.profile = CameraProfile()
            self.unusable = True
            self.step(f"{e}; Save keeps that file aside and writes a new profile.")
        self.die = "panic"
        self.empty: Any = None
        self.frames: dict[str, Any] = {}

    @property
    def faces(self) -> tuple[str, ...]:
        from calibration.camera import DEFAULT_FACES

        return DEFAULT_FACES[self.die]

    def choose_die(self, die: str) -> None:
        self.die, self.empty, self.frames = die, None, {}
        self.lines = [f"{die} die: clear the tray, then touch Capture."]

    def set_tray(self, box: tuple[int, int, int, int] | None) -> None:
        self.profile.tray = box
        self._frame_size()
        self.step("Tray: whole frame." if box is None else "Tray: {} {} {}x{} px.".format(*box))

    def _frame_size(self) -> None:
        """The size the camera really gives, which the tray was drawn on: a webcam may not give the size asked for
        (1280 x 720 for 640 x 480), and a tray drawn on its frames did not fit the size the profile named (session 24:
        the profile saved was refused at every start)."""
        frame = self.preview.last
        if frame is not None:
            self.profile.camera["width"], self.profile.camera["height"] = int(frame.shape[1]), int(frame.shape[0])

    def next_capture(self) -> str:
        """What the next Capture takes: 'empty' or a face name ('' when all are taken)."""
        if self.empty is None:
            return "empty"
        return next((f for f in self.faces if f not in self.frames), "")

    def capture(self) -> str:
        frame = self.preview.last
        if frame is None:
            raise RuntimeError("no frame from the camera yet")
        what = self.next_capture()
        if what == "empty":
            self.empty = frame.copy()
        elif what:
            self.frames[what] = frame.copy()
        nxt = self.next_capture()
        self.step(
            f"Put the {self.die} die in the tray with {nxt!r} on top, then touch Capture."
            if nxt
            else "All faces taken: touch Save."
        )
        return what

    def save(self, sensor: Any = None) -> str:
        """Sample the die, save the profile, and have the running dice ``sensor`` use it at once.

        Returns "" or why the camera keeps its old profile (the file is saved either way).
        """
        from calibration.camera import sample_die

        kind = "symbol" if self.die == "regroup" else "colour"
        die_px = 60.0 * (self.preview.last.shape[1] if self.preview.last is not None else 640) / 640
        self.profile.dice[self.die] = sample_die(
            self.die, kind, self.frames, die_px, self.empty, self.profile.tray, self.step
        )
        self._frame_size()
        if self.unusable and profile_present(self.path):  # a dangling link or a folder is kept aside too
            from companion.config import move_aside

            self.step(f"The unreadable profile is kept as {move_aside(self.path)}.")
            self.unusable = False
        self.saved = self.profile.save(self.path)
        if not callable(getattr(sensor, "reload", None)):
            self.step(f"Saved {self.saved}; no camera is open: it reads the {self.die} die from the next start.")
            return ""
        error = sensor.reload(self.saved) or ""
        self.step(
            f"Saved {self.saved}, but the camera keeps its old profile: {error}"
            if error
            else f"Saved {self.saved}; the camera reads the {self.die} die now."
        )
        return error
