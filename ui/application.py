"""The Kivy application: owns the session, the store and the sensor queue.

Screens never change the game themselves: they call ``submit``, ``undo``,
``redo`` and ``undo_to`` here, which go to the session and then ask for one
throttled redraw of the screen on show.
"""

from __future__ import annotations

import gc
import logging
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import ScreenManager

from companion import paths, registry
from companion.errors import BellwetherError, IllegalAction, NothingToUndo, StoreError
from companion.events import ROLL, WHISTLE, Event, Source
from companion.session import Session
from companion.store import Store

from . import clipping, prefs, theme
from .sensors import SensorHub
from .speech import Speaker
from .text_memory import release_label_surfaces

log = logging.getLogger(__name__)

# A sensor reading below this confidence is not applied by itself: the table
# confirms it on screen, with the read faces pre-selected.
CONFIRM_BELOW = 0.6
REDRAW_EVERY = 0.1  # seconds: at most ten redraws a second, however busy the sensors
DRAIN_EVERY = 1 / 30
# A redraw drops widgets that hold GL textures and vertex buffers. Kivy widgets
# form reference cycles, so only Python's cycle collector frees them, and once
# the heap is large it runs a full pass rarely: meanwhile the dead widgets' GL
# memory stays (+25 MB over 20 redraws of the Table, benchmarks/ui_bench.py).
# So a full collection runs this long after a redraw, at most once per period.
# It holds the interpreter (sensor threads wait meanwhile): short, frequent
# passes (10-25 ms here with the start-up objects frozen) beat rare long ones
# (50-75 ms when collecting at most every 3 s, measured with the benchmark).
COLLECT_AFTER = 1.0


def _libc_trim() -> Any:
    """glibc's malloc_trim, or None elsewhere (musl, macOS)."""
    import ctypes
    import ctypes.util

    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or None).malloc_trim
    except Exception:  # not glibc, or no C library by that name: nothing to trim
        return None


_MALLOC_TRIM = _libc_trim()


def _trim() -> None:
    # Freed textures and widgets leave free pages inside the C heap, which glibc
    # keeps for reuse; malloc_trim gives whole free pages back to the system.
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


@dataclass
class AppOptions:
    data_dir: Path = field(default_factory=paths.data_dir)
    game: str | None = None  # go straight to this game's setup
    resume: int | None = None  # reopen this stored game
    hub: SensorHub | None = None  # tests pass one holding fake sensors


class BellwetherApp(App):
    title = "Bellwether"
    session: Session | None = ObjectProperty(None, allownone=True)
    palette = StringProperty("standard")
    text_size = StringProperty("normal")  # Settings: "normal" or "large" (ui.theme.TEXT_SIZES)
    speak = BooleanProperty(False)
    sensor_summary = StringProperty("Sensors: starting")
    sensor_summary_short = StringProperty("Sensors: starting")  # on the Table's bar; touch it for Settings
    message = StringProperty("")  # the last refusal or notice, shown on the Table
    version = NumericProperty(0)  # bumped after every change the screens must show

    def __init__(self, options: AppOptions, **kw: Any) -> None:
        super().__init__(**kw)
        release_label_surfaces()
        self.options = options
        self.exit_code = 0
        self.hub = options.hub or SensorHub()
        self.speaker = Speaker()
        self.prefs = prefs.Preferences.load(options.data_dir)
        self.palette = self.prefs.palette
        self.text_size = theme.set_text_size(self.prefs.text_size)
        self.speak = self.prefs.speak and self.speaker.available
        self.store: Store | None = None
        self.last_roll: Event | None = None  # the last dice seen, accepted or not
        self.last_roll_accepted = False
        self.last_whistle: Event | None = None
        # The microphone's last doubtful whistle (hardware.whistle.sensor.DOUBT): never a move, but a game whose
        # ruling waits on a whistle asks the table about it rather than rule by itself (ui/boards/fleeced.py).
        self.whistle_doubt: Event | None = None
        self.doubt_asked: Event | None = None  # the doubt the table is being asked about (the board sets it)
        self.heard_while_calibrating: Event | None = None  # the last blow or roll sensed on the Calibrate screen
        self.pending_roll: Event | None = None  # a low-confidence reading awaiting confirmation
        self.started_at = time.perf_counter()
        self.first_frame_at: float | None = None
        self._spoken: str | None = None
        self._told_ignored: set[str] = set()  # ignored profiles already shown in the message line
        self._requested: Any = None  # the DiceRequest the sensors were last told
        self._redraw = Clock.create_trigger(self._refresh, REDRAW_EVERY)
        self._collect = Clock.create_trigger(self._collect_garbage, COLLECT_AFTER)
        self.collect_ms: list[float] = []  # the last collections' durations, in ms (benchmarks/ui_bench.py)

    # -- building ------------------------------------------------------------
    def build(self) -> ScreenManager:
        from .screens import Screens

        Window.clearcolor = theme.BACKGROUND
        clipping.install(Window)
        self.store = Store(paths.database_path(self.options.data_dir))
        if self.store.notice:
            log.warning(self.store.notice)  # the journal keeps it after the screen moves on
            self.message = self.store.notice
        root = Screens()
        Window.bind(on_key_down=self._on_key_down)
        Clock.schedule_interval(self._drain, DRAIN_EVERY)
        Clock.schedule_once(self._after_first_frame, 0)
        # What exists now (Kivy, the app's modules and objects) lives as long as the
        # app: frozen out of the collector, later full passes only walk what screens
        # and play create, so they stay short (see COLLECT_AFTER).  Screens are built
        # after this, so one that is let go is still collected.
        gc.collect()
        gc.freeze()
        self._start(root)
        return root

    def _start(self, root: ScreenManager) -> None:
        """Which screen the app opens on: an explicit resume or game, else the
        game that was on the table when the app last ran, else Home."""
        o = self.options
        try:
            if o.resume is not None:
                self.open_session(o.resume, root)
                return
            if o.game:
                registry.get(o.game)
                root.get_screen("setup").prepare(o.game)
                root.current = "setup"
                return
        except BellwetherError as e:
            self.message = str(e)
            root.current = "home"
            return
        last = prefs.open_game(o.data_dir)
        if last is not None:
            try:
                self.open_session(last, root)
                return
            except Exception as e:  # whatever is wrong with it, the app must still start
                self.message = f"Could not reopen game #{last}: {e}"
                log.warning("could not reopen game %s: %s", last, e)
                prefs.set_open_game(o.data_dir, None)
        root.current = "home"

    def _after_first_frame(self, _dt: float) -> None:
        self.first_frame_at = time.perf_counter()
        self.hub.open_all()

    def on_stop(self) -> None:
        self.hub.close()
        self.speaker.stop()
        if self.store is not None:
            self.store.close()

    # -- sessions ------------------------------------------------------------
    def new_game(self, game_name: str, setup: dict[str, Any]) -> Session:
        """Start a stored game; a bad setup raises SetupError for the Setup screen."""
        session = Session.new(self.store, game_name, setup)
        names = tuple(p["name"] for p in session.setup["players"])
        self.prefs.last_players = names
        self.prefs.save(self.options.data_dir)
        self._show_session(session)
        return session

    def open_session(self, session_id: int, root: ScreenManager | None = None) -> Session:
        assert self.store is not None
        session = Session.resume(self.store, session_id)
        self._show_session(session, root)
        return session

    def _show_session(self, session: Session, root: ScreenManager | None = None) -> None:
        self.session = session
        self.message = ""
        self.last_roll = next((e for e in reversed(session.events) if e.type == ROLL), None)
        self.last_roll_accepted = self.last_roll is not None
        self.last_whistle = next((e for e in reversed(session.events) if e.type == WHISTLE), None)
        self.whistle_doubt = self.doubt_asked = None
        self.pending_roll = None
        root = root or self.root
        finished = session.outcome() is not None
        # Remember the open game first: if the app is killed from here on, it comes back to it.
        prefs.set_open_game(self.options.data_dir, None if finished else session.id)
        root.current = "results" if finished else "table"
        self.changed()

    def close_session(self) -> None:
        """Leave the table on purpose: the game stays stored, the app no longer reopens it."""
        prefs.set_open_game(self.options.data_dir, None)
        self.session = None
        self.go("home")

    def go(self, screen: str) -> None:
        self.root.current = screen
        self.changed()

    # -- changing the game ---------------------------------------------------
    def submit(self, event: Event) -> bool:
        """Apply one event; a refusal is shown, never raised."""
        if self.session is None:
            return False
        doubted, self.doubt_asked = self.doubt_asked, None
        if doubted is not None and event.type == WHISTLE and event.source is Source.TOUCH:
            # The table's "yes" to "did they blow?": the whistle is the one the microphone doubted, blown then.
            event = replace(event, time=doubted.time)
        if event.type == ROLL and event.confidence is not None and event.confidence < CONFIRM_BELOW:
            self.pending_roll = event
            asked = self.session.prompt().dice
            read = len(event.get("faces", ()))
            # As the check screen counts (TableScreen._entry_request): the game's count when it asked for this die.
            short = (f" ({read} read, {asked.count} asked)"
                     if asked is not None and asked.die == event.get("die", "d6") and asked.count != read else "")
            self.message = f"Please check the dice: read {_faces(event)}{short} at {event.confidence:.0%} confidence."
            self.changed()
            return False
        if event.type == ROLL:
            self.last_roll = event
        if event.type == WHISTLE:
            self.last_whistle = event
        before = self.session.prompt().player
        try:
            self.session.apply(event)
        except IllegalAction as e:
            if event.type == ROLL:
                self.last_roll_accepted = False
            self.message = f"Not accepted: {e.reason} — {e.rule}"
            self.changed()
            return False
        except StoreError as e:  # the disk refused it (full, read-only): not stored, so not applied
            if event.type == ROLL:
                self.last_roll_accepted = False
            self.message = f"Not saved, nothing recorded: {getattr(e, 'reason', e)}"
            self.changed()
            return False
        except Exception as e:  # a fault in a game engine must not take the table down
            log.exception("the %s engine failed on %s", self.session.game.name, event)
            self.message = f"The {self.session.game.title} engine failed on this {event.type} ({type(e).__name__}: {e}); nothing was recorded."
            self.changed()
            return False
        if event.type == ROLL:
            self.last_roll_accepted = True
            self.pending_roll = None
        if self.session.prompt().player != before and event.type != WHISTLE:
            self.last_whistle = None  # the indicator shows this turn's whistle only
        self.message = ""
        self._after_change()
        return True

    def correct_roll(self, faces: list[Any]) -> bool:
        """Replace the last roll with what the table says the dice show.

        Generic for every game: undo back to just before the roll, apply the
        corrected roll (source: touch), then re-apply the events that followed
        it where the rules still allow.  All of it is in the log.
        """
        s = self.session
        if s is None or self.last_roll is None:
            return False
        events = s.events
        idx = max((i for i, e in enumerate(events) if e.type == ROLL), default=None)
        fixed = Event(ROLL, {**_thaw(self.last_roll.payload), "faces": list(faces)}, self.last_roll.player, time.time(), Source.TOUCH)
        if idx is None:
            return self.submit(fixed)
        later = events[idx + 1 :]
        s.undo_to(idx)
        if not self.submit(fixed):
            s.redo(1 + len(later))  # put everything back as it was
            self._after_change()
            return False
        dropped = 0
        for e in later:
            try:
                s.apply(e)
            except IllegalAction:
                dropped += 1
        self.message = f"Dice corrected to {', '.join(map(str, faces))}." + (
            f" {dropped} later event(s) no longer fit and were dropped (see the log)." if dropped else ""
        )
        self._after_change()
        return True

    def undo(self) -> None:
        s = self.session
        last, before = (s.events[-1], len(s.events)) if s is not None and s.events else (None, 0)
        self._history(lambda s: s.undo())
        if last is not None and s is not None and len(s.events) < before:
            from .history import describe

            self.message = f"Undone: {describe(last, s.game)} (Redo puts it back)."

    def redo(self) -> None:
        self._history(lambda s: s.redo())

    def undo_to(self, count: int) -> None:
        self._history(lambda s: s.undo_to(count))

    def _history(self, op: Any) -> None:
        if self.session is None:
            return
        try:
            op(self.session)
        except NothingToUndo as e:
            self.message = str(e)
            self.changed()
            return
        except StoreError as e:  # the disk refused the undo/redo entry: the game stays as it was
            self.message = f"Not saved, nothing changed: {getattr(e, 'reason', e)}"
            self.changed()
            return
        self.message = ""
        self.doubt_asked = None  # the question's message is gone with it: a later touch whistle is blown now
        # After an undo or redo the indicator shows a whistle only if it is the last thing that happened.
        last = self.session.events[-1] if self.session.events else None
        self.last_whistle = last if last is not None and last.type == WHISTLE else None
        self._after_change()

    def _after_change(self) -> None:
        s = self.session
        assert s is not None
        finished = s.outcome() is not None
        prefs.set_open_game(self.options.data_dir, None if finished else s.id)
        if finished and self.root.current == "table":
            self.root.current = "results"
        elif not finished and self.root.current == "results":
            self.root.current = "table"
        self.changed()

    def want_dice(self, request: Any) -> None:
        """Ask the dice sensors for a roll outside a game (Setup's roll for first player), or stop."""
        self._requested = request
        self.hub.request(request)

    def whistle(self, source: Source = Source.TOUCH, blower: str | None = None) -> bool:
        """A whistle entered by hand: by ``blower`` (the Table's "Who blew?"), else
        (the space bar) by the player whose turn it is."""
        if self.session is None:
            return False
        blower = blower or self.session.prompt().player
        return self.submit(Event(WHISTLE, {"blower": blower}, blower, time.time(), source))

    # -- settings --------------------------------------------------------------
    def set_palette(self, name: str) -> None:
        self.palette = name if name in theme.PALETTES else "standard"
        self.prefs.palette = self.palette
        self.prefs.save(self.options.data_dir)
        self.changed()

    def set_speak(self, on: bool) -> None:
        self.speak = bool(on) and self.speaker.available
        self.prefs.speak = self.speak
        self.prefs.save(self.options.data_dir)
        if not self.speak:
            self.speaker.stop()
        self._spoken = None
        self.changed()

    def set_text_size(self, name: str) -> None:
        """Normal or Large text on every screen at once (each text fits its box again), kept for next time."""
        from .widgets import FitMixin

        self.text_size = theme.set_text_size(name)
        self.prefs.text_size = self.text_size
        self.prefs.save(self.options.data_dir)
        stack = list(self.root.screens) if self.root is not None else []
        while stack:
            w = stack.pop()
            if isinstance(w, FitMixin):
                w._fit_trigger()
            stack.extend(w.children)
        self.changed()

    def player_style(self, name: str) -> tuple[theme.Swatch, str]:
        """A player's swatch and shape, from their seat and chosen colour."""
        s = self.session
        players = s.setup["players"] if s is not None else []
        for i, p in enumerate(players):
            if p["name"] == name:
                return theme.player_style(self.palette, p.get("colour"), i)
        return theme.swatch(self.palette, 0), theme.shape(0)

    # -- the clock -------------------------------------------------------------
    def changed(self, *_: Any) -> None:
        self._redraw()

    def _refresh(self, _dt: float) -> None:
        self.version += 1
        dice = self.session.prompt().dice if self.session is not None and self.session.outcome() is None else None
        if self._calibrating():
            dice = None  # the dice in the tray now are calibration samples, not a roll
        rolling_for_first = self.root is not None and self.root.current == "setup" and self.root.current_screen.rolling
        if dice != self._requested and not rolling_for_first:
            self._requested = dice
            self.hub.request(dice)
        screen = self.root.current_screen if self.root else None
        if screen is not None and hasattr(screen, "refresh"):
            screen.refresh()
        self._speak_prompt()
        self._collect()

    def _collect_garbage(self, _dt: float) -> None:
        self.collect_garbage()

    def collect_garbage(self) -> None:
        """A full collection and a heap trim now (the screens call it after letting a view go)."""
        started = time.perf_counter()
        gc.collect()
        _trim()
        self.collect_ms = [*self.collect_ms[-99:], (time.perf_counter() - started) * 1000]

    def _speak_prompt(self) -> None:
        if not self.speak or self.session is None:
            return
        text = self.session.prompt().text
        if text != self._spoken:
            self._spoken = text
            self.speaker.say(text)

    def _drain(self, _dt: float) -> None:
        events, status_changed = self.hub.drain()
        setup = self.root.get_screen("setup") if self.root is not None and self.root.current == "setup" else None
        if self._calibrating():
            # Blows and dice shown to the sensors while they are calibrated are samples:
            # none of them is a move in the game waiting on the Table.
            for event in events:
                if event.type in (WHISTLE, ROLL):
                    self.heard_while_calibrating = event  # a try, shown on the Calibrate screen
            if events:
                log.debug("calibrating: %d sensor event(s) not passed to the game", len(events))
            events = []
        for event in events:
            if setup is not None and setup.take_roll(event):
                continue  # a die rolled for first player on Setup
            if not self._control(event):
                self.submit(event)
        if status_changed:
            self.sensor_summary = summarise(self.hub)
            offline = len(self.hub.offline())
            self.sensor_summary_short = f"Sensors: {offline} offline" if offline else "Sensors online"
            fresh = [i for i in self.hub.ignored.values() if i.path not in self._told_ignored]
            if fresh:  # a broken profile: the sensor runs on defaults, and the table is told which file
                self._told_ignored.update(i.path for i in fresh)
                more = f" (and {len(fresh) - 1} more: see the sensor line)" if len(fresh) > 1 else ""
                self.message = fresh[0].text() + more
            self.changed()

    def _calibrating(self) -> bool:
        return self.root is not None and self.root.current == "calibrate"

    def _control(self, event: Event) -> bool:
        """Act on the GPIO buttons' control events (hardware.buttons): they are
        requests to the app, not game events, so they never reach the engine."""
        if event.type == "undo":  # hardware.buttons.UNDO
            if self.session is not None and self.session.can_undo:
                self.undo()
            return True
        if event.type == "confirm":  # hardware.buttons.CONFIRM: the doubtful reading is right
            roll = self.pending_roll
            if roll is not None:
                self.pending_roll = None
                # The table vouched for it, so it is logged as the buttons' answer.
                self.submit(Event(ROLL, _thaw(roll.payload), roll.player, time.time(), Source.GPIO))
            return True
        if event.type == "whistle-doubt":  # hardware.whistle.sensor.DOUBT: kept, asked about where it matters
            self.whistle_doubt = event
            return True
        if event.type == "camera-advice":  # hardware.dice.sensor.ADVICE: after a roll of dice too small to read well
            if self.pending_roll is None:  # a check in progress keeps the line; the next such roll says it again
                self.message = f"Camera: {event.get('text')}"
                self.changed()
            return True
        if event.type == "dice-entry":  # hardware.buttons.DICE_ENTRY: show what is being entered
            entered = ", ".join(str(v) for v in event.get("entered", ()))
            self.message = f"Buttons: entered {entered or 'nothing yet'}; showing {event.get('value')}."
            self.changed()
            return True
        return False

    def _on_key_down(self, _window: Any, key: int, _scancode: int, codepoint: str | None, modifiers: list[str]) -> bool:
        ctrl = "ctrl" in modifiers or "meta" in modifiers
        if ctrl and codepoint == "z":
            (self.redo if "shift" in modifiers else self.undo)()
            return True
        if ctrl and codepoint == "y":
            self.redo()
            return True
        if self.root.current != "table":
            return False  # typing names on the Setup screen must not enter dice
        if key == 32:
            self.whistle(Source.KEYBOARD)
            return True
        if codepoint and codepoint.isdigit() and not ctrl:
            table = self.root.get_screen("table")
            return bool(table.key_face(int(codepoint)))
        return False


def summarise(hub: SensorHub) -> str:
    offline = hub.offline()
    ignored = getattr(hub, "ignored", {})
    note = f" Ignored: {', '.join(Path(p).name for p in ignored)} (defaults used)." if ignored else ""
    if not offline:
        return "All sensors online." + note
    names = ", ".join(s.sensor for s in offline)
    return f"Offline: {names} — dice and whistles by touch." + note


def _faces(event: Event) -> str:
    return ", ".join(str(f) for f in event.get("faces", ()))


def _thaw(payload: Any) -> dict[str, Any]:
    from companion.events import thaw

    return thaw(payload)
