"""Table: the shared frame every game is played in.

Top: who acts and what to do, with the rule (and a ruling shown large, with
"Contest").  Right: the last dice with source and confidence and a one-tap
correction, the whistle indicator, then the answers the game accepts now:
dice faces from ``Prompt.dice`` and a button per ``Prompt.choices``.  Left:
the game's own picture (``ui.boards``).  Any game is playable from this frame
alone, before it has a picture of its own.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import sp
from kivy.properties import BooleanProperty
from kivy.uix.screenmanager import Screen

from companion.events import ROLL, Event, Source
from companion.game import Choice, DiceRequest

from .. import theme
from ..boards import board_class
from ..offers import legal_as_choices
from ..widgets import FitButton, FitLabel, load_kv, reuse
from . import release

log = logging.getLogger(__name__)

LEVEL_EVERY = 0.25  # seconds between updates of the live microphone level
LONG_LABEL = 24  # characters
LONG_FACE = 8  # characters of a die face's name: more, and the faces get two columns
MAX_CHOICES = 120  # more would not be usable by touch; the rest stays reachable by keyboard/log
DEFAULT_FACES = {"d6": tuple(range(1, 7))}


def dice_text(event: Event | None, accepted: bool) -> str:
    """The last dice as read: faces, die, source and confidence."""
    if event is None:
        return "Dice: none rolled yet"
    faces = ", ".join(str(f) for f in event.get("faces", ()))
    conf = "" if event.confidence is None else f", {event.confidence:.0%} sure"
    state = "" if accepted else " — not accepted"
    return f"Dice {event.get('die', '')}: {faces}  (by {event.source.value}{conf}){state}"


def whistle_text(event: Event | None, level: str | None) -> str:
    """The whistle indicator: last blow, blower, and the live level if the sensor reports one."""
    parts = []
    if event is None:
        parts.append("Whistle: none heard yet")
    else:
        when = time.strftime("%H:%M:%S", time.localtime(event.time)) if event.time else ""
        blower = event.get("blower") or event.player or "unknown blower"
        conf = "" if event.confidence is None else f", {event.confidence:.0%}"
        hz = event.get("peak_hz")
        pitch = f", {float(hz) / 1000:.1f} kHz" if isinstance(hz, (int, float)) else ""
        parts.append(f"Whistle: {blower} at {when} (by {event.source.value}{pitch}{conf})")
    if level is not None:
        parts.append(f"mic {level}")
    return " · ".join(parts)


class TableScreen(Screen):
    # The game's picture takes the whole answer by touch: it gets the width of
    # the screen, and the dice/answers column (with nothing to offer) is hidden.
    picture_only = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.board: Any = None
        self.board_game: str | None = None
        self.mode = "roll"  # "roll", "correct" (the last roll) or "confirm" (a doubtful reading)
        self.selected: list[Any] = []
        self.faces_seen: dict[str, tuple[Any, ...]] = dict(DEFAULT_FACES)
        self._entry_key: Any = None
        self._entry_drawn: tuple[Any, ...] | None = None
        self._level_clock: Any = None
        self._on_picture = False  # the game's picture takes the answer by touch
        self._entry_pool: list[Any] = []  # the entry grid's buttons, reused (see _fill_entry)
        self._held: tuple[Any, ...] | None = None  # (game, log length, what the picture held) while it is let go

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def on_enter(self, *_: Any) -> None:
        # The microphone's level changes without any game event: only that
        # one label is refreshed, four times a second, while the Table shows.
        self._level_clock = Clock.schedule_interval(self._tick_level, LEVEL_EVERY)

    def on_pre_leave(self, *_: Any) -> None:
        # The view about to be shown (Log, Settings, Results) is built next: the
        # game's picture and the answer buttons are let go first, so it is built
        # in their memory instead of beside it (the peak in play is the Table
        # plus one such view), and drawn again from the session on return.
        app = App.get_running_app()
        held = getattr(self.board, "held", None)  # a picture may hold nothing (ui.boards.Picture)
        if callable(held) and app.session is not None:
            self._held = (self.board_game, len(app.session.log), held())
        self.ids.board_holder.clear_widgets()
        self.board, self.board_game = None, None
        self.ids.entry.clear_widgets()
        self._entry_pool.clear()
        self._entry_drawn = None  # same question on return: redrawn, a half-entered answer kept
        release()

    def on_leave(self, *_: Any) -> None:
        if self._level_clock is not None:
            self._level_clock.cancel()
            self._level_clock = None

    def _tick_level(self, _dt: float) -> None:
        app = App.get_running_app()
        if app.session is not None and app.hub.sensors.get("microphone") is not None:
            self.ids.whistle.text = whistle_text(app.last_whistle, self._mic_level(app))

    # -- drawing -----------------------------------------------------------
    def refresh(self) -> None:
        app = App.get_running_app()
        s = app.session
        if s is None:
            return
        prompt = s.prompt()
        if prompt.dice is not None and prompt.dice.faces:
            self.faces_seen[prompt.dice.die] = tuple(prompt.dice.faces)
        if app.pending_roll is not None:
            self.mode = "confirm"
        elif self.mode == "confirm":
            self.mode = "roll"
        # Prompt: mark and name of who acts, in words too.
        ids = self.ids
        if prompt.player:
            sw, shape = app.player_style(prompt.player)
            ids.who_mark.rgba = list(sw.rgba)
            ids.who_mark.shape = shape
            ids.who_mark.opacity = 1
        else:
            ids.who_mark.opacity = 0
        ids.prompt.text = prompt.text
        ids.rule.text = f"Rule: {prompt.rule}" + (f"   ·   {s.game.title}" if s.game.title else "")
        ids.alert.text = f"RULING: {prompt.alert}" if prompt.alert else ""
        ids.alert_box.opacity = 1 if prompt.alert else 0
        ids.alert_box.height = theme.touch_size() * 1.6 if prompt.alert else 0
        ids.alert_box.disabled = not prompt.alert
        ids.contest.text = "Contest" if self._contest_choice(prompt) else "Contest (undo)"
        ids.dice.text = dice_text(app.pending_roll or app.last_roll, app.pending_roll is None and app.last_roll_accepted)
        ids.correct.disabled = app.last_roll is None or app.pending_roll is not None
        ids.correct.text = "Cancel" if self.mode == "correct" else "Correct"
        level = self._mic_level(app)
        ids.whistle.text = whistle_text(app.last_whistle, level)
        ids.undo.disabled = not s.can_undo
        ids.redo.disabled = not s.can_redo
        self._draw_board(s)
        handled = getattr(self.board, "handles", frozenset())
        self._on_picture = bool(handled & set(prompt.expects))
        # What the picture takes by touch is not listed again as buttons.
        choices = tuple(c for c in prompt.choices if c.type not in handled) or legal_as_choices(s, prompt, handled)
        self.picture_only = self._on_picture and prompt.dice is None and not choices and app.pending_roll is None and self.mode == "roll"
        self._draw_entry(prompt.dice, choices)

    def _mic_level(self, app: Any) -> str | None:
        mic = app.hub.sensors.get("microphone")
        if mic is None or not mic.online:
            return None
        level_db = getattr(mic, "level_db", None)
        if isinstance(level_db, (int, float)):
            return f"level {level_db:.0f} dBFS"
        level = getattr(mic, "level", None)
        if isinstance(level, (int, float)):
            return f"level {level:.0%}" if 0 <= level <= 1 else f"level {level:.1f}"
        return None

    def _draw_board(self, session: Any) -> None:
        holder = self.ids.board_holder
        try:
            if self.board is None or self.board_game != session.game.name:
                holder.clear_widgets()
                self.board = board_class(session.game.name)()
                self.board_game = session.game.name
                held, self._held = self._held, None
                if held is not None and held[:2] == (session.game.name, len(session.log)) and held[2] is not None:
                    self.board.hold(held[2])  # touched before the table looked at another view
                holder.add_widget(self.board)
            self.board.update(session)
        except Exception as e:  # a picture that fails must not stop play: the frame still works
            log.exception("board for %s failed", session.game.name)
            holder.clear_widgets()
            self.board, self.board_game = None, None
            holder.add_widget(FitLabel(text=f"The {session.game.title} picture failed ({type(e).__name__}: {e}); play on with the buttons.", color=theme.WARN))

    def _entry_request(self, dice: DiceRequest | None) -> tuple[str, int, tuple[Any, ...]] | None:
        """(die, count, faces) the entry area offers now, by mode."""
        app = App.get_running_app()
        if self.mode == "confirm" and app.pending_roll is not None:
            e = app.pending_roll
            die = str(e.get("die", "d6"))
            return die, len(e.get("faces", ())) or 1, self.faces_seen.get(die, DEFAULT_FACES["d6"])
        if self.mode == "correct" and app.last_roll is not None:
            e = app.last_roll
            die = str(e.get("die", "d6"))
            return die, len(e.get("faces", ())) or 1, self.faces_seen.get(die, DEFAULT_FACES["d6"])
        if dice is not None:
            return dice.die, dice.count, tuple(dice.faces) or self.faces_seen.get(dice.die, DEFAULT_FACES["d6"])
        return None

    def _draw_entry(self, dice: DiceRequest | None, choices: tuple[Choice, ...]) -> None:
        req = self._entry_request(dice)
        key = (self.mode, req, choices, self._on_picture)
        if key != self._entry_key:
            self.selected = []  # a new question clears a half-entered answer
            self._entry_key = key
        elif tuple(self.selected) == self._entry_drawn:
            return  # unchanged: rebuilding would replace a button under a finger mid-tap
        self._entry_drawn = tuple(self.selected)
        grid = self.ids.entry
        # Long answers get two columns, so they wrap less and stay large.
        die, count, faces = req if req is not None else ("", 0, ())
        long_face = any(len(str(f)) > LONG_FACE for f in faces)  # "multicoloured", "big-and-little-wolf"
        grid.cols = 2 if long_face or any(len(c.label) > LONG_LABEL for c in choices) else 3
        buttons: list[tuple[str, Any, float]] = []  # (label, what a tap does, largest font)
        heading = []
        if req is not None:
            shown = [str(f) for f in self.selected] + ["_"] * (count - len(self.selected))
            verb = {"roll": "Enter the dice", "correct": "Correct the dice", "confirm": "Check the dice"}[self.mode]
            heading.append(f"{verb} ({die} × {count}): {' '.join(shown)}")
            # Kivy wraps only at spaces: "big-and-little-wolf" would break mid-word.
            buttons += [(str(face).replace("-", " "), ("face", face), 26) for face in faces]
            if self.mode == "confirm":
                buttons.append(("As read", ("as-read", None), sp(20)))
            if self.selected:
                buttons.append(("Clear", ("clear", None), sp(20)))
        if choices and self.mode == "roll":
            heading.append("or choose:" if req is not None else "Choose:")
            buttons += [(c.label, ("choice", c), 18) for c in choices[:MAX_CHOICES]]
        if req is None and not choices:
            heading.append(
                "Enter it on the picture." if self._on_picture else "Nothing to enter: follow the prompt at the table."
            )
        self._fill_entry(grid, buttons)
        self.ids.entry_heading.text = " ".join(heading)

    def _fill_entry(self, grid: Any, buttons: list[tuple[str, Any, float]]) -> None:
        """Show these buttons in the entry grid, reusing the ones already made.

        The grid changes after every roll: new buttons each time would allocate
        new widgets and (GL) textures, and a button whose text stays the same
        ("1".."6") keeps its texture.
        """
        def make() -> FitButton:
            b = FitButton()
            b.pressed = None
            b.bind(on_press=self._entry_down, on_release=self._entry_pressed)
            return b

        grid.clear_widgets()
        for b, (text, action, font) in zip(reuse(self._entry_pool, len(buttons), make), buttons, strict=True):
            b.text, b.action, b.max_font = text, action, font
            grid.add_widget(b)

    @staticmethod
    def _moment(button: Any) -> tuple[Any, int]:
        """What a button answers, and to which point of the game."""
        session = App.get_running_app().session
        return button.action, len(session.log) if session is not None else -1

    def _entry_down(self, button: Any) -> None:
        button.pressed = self._moment(button)

    def _entry_pressed(self, button: Any) -> None:
        # A reading can arrive while a finger rests on a button: the game has moved
        # on (and this reused button may show another answer), so lifting the finger
        # answers nothing; the table sees the new question and taps again.
        pressed, button.pressed = button.pressed, None
        if pressed != self._moment(button):
            return
        kind, value = button.action
        if kind == "face":
            self.enter_face(value)
        elif kind == "as-read":
            self.confirm_pending()
        elif kind == "clear":
            self.clear_faces()
        else:
            self.choose(value)

    # -- input -------------------------------------------------------------
    def enter_face(self, face: Any) -> None:
        app = App.get_running_app()
        req = self._entry_request(app.session.prompt().dice if app.session else None)
        if req is None:
            return
        die, count, _faces = req
        self.selected.append(face)
        if len(self.selected) < count:
            app.changed()
            return
        faces, self.selected = list(self.selected), []
        if self.mode == "correct":
            self.mode = "roll"
            app.correct_roll(faces)
        elif self.mode == "confirm":
            app.pending_roll = None
            self.mode = "roll"
            app.submit(Event(ROLL, {"die": die, "faces": faces}, None, time.time(), Source.TOUCH))
        else:
            app.submit(Event(ROLL, {"die": die, "faces": faces}, None, time.time(), Source.TOUCH))
        self._entry_key = None
        self._entry_drawn = None
        app.changed()

    def key_face(self, number: int) -> bool:
        """A number key: the face with that number (or the n-th face for named faces)."""
        app = App.get_running_app()
        req = self._entry_request(app.session.prompt().dice if app.session else None)
        if req is None:
            return False
        faces = req[2]
        if number in faces:
            self.enter_face(number)
            return True
        if all(not isinstance(f, int) for f in faces) and 1 <= number <= len(faces):
            self.enter_face(faces[number - 1])
            return True
        return False

    def clear_faces(self) -> None:
        self.selected = []
        self._entry_drawn = None
        App.get_running_app().changed()

    def confirm_pending(self) -> None:
        app = App.get_running_app()
        e = app.pending_roll
        if e is None:
            return
        app.pending_roll = None
        self.mode = "roll"
        app.submit(Event(ROLL, dict(e.payload), e.player, time.time(), Source.TOUCH))

    def toggle_correct(self) -> None:
        self.mode = "roll" if self.mode == "correct" else "correct"
        self.selected = []
        self._entry_drawn = None
        App.get_running_app().changed()

    def choose(self, choice: Choice) -> None:
        App.get_running_app().submit(choice.event(time=time.time(), source=Source.TOUCH))

    def contest(self) -> None:
        """The table disputes the ruling on show.

        If the game offers a correction or contest answer it is used;
        otherwise the event that caused the ruling is undone (and stays in
        the log, so it can be redone).
        """
        app = App.get_running_app()
        s = app.session
        if s is None:
            return
        choice = self._contest_choice(s.prompt())
        if choice is not None:
            app.submit(choice.event(time=time.time(), source=Source.TOUCH))
        else:
            app.undo()

    @staticmethod
    def _contest_choice(prompt: Any) -> Choice | None:
        for c in prompt.choices:
            if c.type == "correction" or "contest" in c.label.lower():
                return c
        return None


load_kv(__file__)
