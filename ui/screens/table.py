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
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.screenmanager import Screen

from companion.events import ROLL, WHISTLE, Event, Source
from companion.game import Choice, CountsRequest, DiceRequest

from .. import theme
from ..boards import board_class
from ..offers import legal_as_choices
from ..widgets import FitButton, FitLabel, load_kv, reuse
from . import release

log = logging.getLogger(__name__)

LEVEL_EVERY = 0.25  # seconds between updates of the live microphone level
LONG_FACE = 8  # characters of a die face's name: more, and the faces get two columns
MAX_NUMBER_BUTTONS = 12  # more whole-number answers (a hideout card's 0-34) are typed on a number pad
SHORT_LABEL = 16  # characters: answers this short go three to a row, longer ones two
BOARD_SHARE = 0.5  # of the Table's width in landscape, for the game's picture (400 px at 800x480: − / + of 48 px fit)
GAP = 0.006  # of the entry's width, for the 2 px between buttons in a row
DEFAULT_FACES = {"d6": tuple(range(1, 7))}


def dice_text(event: Event | None, accepted: bool, pending: bool = False) -> str:
    """The last dice as read: faces, source and confidence, short enough for one line; ``pending``: a doubtful
    reading the table is asked to check (not refused, so not "not accepted")."""
    if event is None:
        return "Dice: none rolled yet"
    faces = ", ".join(str(f) for f in event.get("faces", ()))
    conf = "" if event.confidence is None else f" {event.confidence:.0%}"
    state = " — to check" if pending else "" if accepted else " — not accepted"
    return f"Dice: {faces} ({event.source.value}{conf}){state}"


def whistle_text(event: Event | None, level: str | None) -> str:
    """The whistle indicator: this turn's last blow and blower, or the live level while none is heard."""
    if event is None:
        return "No whistle this turn" + (f" · mic {level}" if level is not None else "")  # level: "-51 dB"
    when = time.strftime("%H:%M:%S", time.localtime(event.time)) if event.time else ""
    blower = event.get("blower") or event.player or "unknown"
    source = "mic" if event.source is Source.MICROPHONE else event.source.value  # one line at 800x480
    return f"Whistle: {blower} at {when} ({source})"


class TableScreen(Screen):
    # The picture's share of the width in landscape: a picture may ask for another (``Board.share``).
    board_share = NumericProperty(BOARD_SHARE)
    # The game's picture takes the whole answer by touch: it gets the width of
    # the screen, and the dice/answers column (with nothing to offer) is hidden.
    picture_only = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.board: Any = None
        self.board_game: str | None = None
        # "roll", "correct" (the last roll), "confirm" (a doubtful reading) or "whistle" (who blew?)
        self.mode = "roll"
        self.selected: list[Any] = []
        self.faces_seen: dict[str, tuple[Any, ...]] = dict(DEFAULT_FACES)
        self.group: str | None = None  # the group of choices opened (Choice.group)
        self.groups: dict[Any, tuple[Choice, ...]] = {}  # each group's button and its choices, as shown
        self.pad: tuple[tuple[Choice, ...], list[Any]] | None = None  # whole-number choices and the digit buttons
        self.typed = ""  # digits typed on the number pad
        self.counts: dict[str, int] = {}  # a Prompt.counts being entered
        self._entry_key: Any = None
        self._entry_drawn: tuple[Any, ...] | None = None
        self._level_clock: Any = None
        self._on_picture = False  # the game's picture takes the answer by touch
        self._entry_pool: list[Any] = []  # the entry's buttons, reused (see _fill_entry)
        self._label_pool: list[Any] = []  # the counts' labels, reused
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
        self._label_pool.clear()
        self.groups, self.pad = {}, None
        self._entry_drawn = None  # same question on return: redrawn, a half-entered answer kept
        release()

    def on_leave(self, *_: Any) -> None:
        if self._level_clock is not None:
            self._level_clock.cancel()
            self._level_clock = None

    def _tick_level(self, _dt: float) -> None:
        # Only while the prompt takes a whistle: a game without whistles (Sheep Hop!)
        # shows no whistle line at all, and the level must not write one back.
        app = App.get_running_app()
        if app.session is None or app.hub.sensors.get("microphone") is None:
            return
        if WHISTLE in app.session.prompt().expects:
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
        whistles = WHISTLE in prompt.expects  # a game without whistles shows no whistle panel
        if self.mode == "whistle" and not whistles:
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
        self._draw_alert(prompt)
        # The dice and whistle panel, only for what the game uses.
        dice_used = prompt.dice is not None or app.last_roll is not None
        pending = app.pending_roll is not None
        ids.dice.text = dice_text(app.pending_roll or app.last_roll, not pending and app.last_roll_accepted, pending) if dice_used else ""
        ids.correct.disabled = app.last_roll is None or app.pending_roll is not None
        ids.correct.text = "Cancel" if self.mode == "correct" else "Correct"
        _show(ids.correct, dice_used)
        ids.whistle.text = whistle_text(app.last_whistle, self._mic_level(app)) if whistles else ""
        ids.whistle_button.text = "Cancel" if self.mode == "whistle" else "Whistle"
        ids.whistle_button.disabled = False
        _show(ids.whistle_button, whistles)
        ids.status.height = theme.touch_size() if dice_used or whistles else 0
        ids.status.opacity = 1 if dice_used or whistles else 0
        ids.undo.disabled = not s.can_undo
        ids.redo.disabled = not s.can_redo
        self._draw_board(s)
        handled = getattr(self.board, "handles", frozenset())
        self._on_picture = bool(handled & set(prompt.expects))
        # What the picture takes by touch is not listed again as buttons.
        choices = tuple(c for c in prompt.choices if c.type not in handled) if prompt.choices else legal_as_choices(s, prompt, handled)
        self.picture_only = (
            self._on_picture and prompt.dice is None and getattr(prompt, "counts", None) is None and not choices
            and app.pending_roll is None and self.mode == "roll"
        )  # fmt: skip
        self._draw_entry(prompt, choices)

    def _draw_alert(self, prompt: Any) -> None:
        ids = self.ids
        tone = getattr(prompt, "tone", "info")
        ids.alert.text = ("Penalty: " if tone == "penalty" else "") + (prompt.alert or "")
        ids.alert_box.bg = list({"penalty": theme.ALERT, "good": theme.OK}.get(tone, theme.PANEL_LIGHT))
        ids.alert_box.opacity = 1 if prompt.alert else 0
        ids.alert_box.height = theme.touch_size() * 1.2 if prompt.alert else 0
        ids.alert_box.disabled = not prompt.alert
        # "Contest" only where the game offers one; otherwise the strip's button simply undoes.
        ids.contest.text = "Contest" if self._contest_choice(prompt) else "Undo"

    def _mic_level(self, app: Any) -> str | None:
        mic = app.hub.sensors.get("microphone")
        if mic is None or not mic.online:
            return None
        level_db = getattr(mic, "level_db", None)
        if isinstance(level_db, (int, float)):
            return f"{level_db:.0f} dB"
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
                self.board_share = float(getattr(self.board, "share", BOARD_SHARE))
            self.board.update(session)
        except Exception as e:  # a picture that fails must not stop play: the frame still works
            log.exception("board for %s failed", session.game.name)
            holder.clear_widgets()
            self.board, self.board_game = None, None
            holder.add_widget(FitLabel(text=f"The {session.game.title} picture failed ({type(e).__name__}: {e}); play on with the buttons.", color=theme.WARN))

    def _entry_request(self, dice: DiceRequest | None) -> tuple[str, int, tuple[Any, ...]] | None:
        """(die, count, faces) the entry area offers now, by mode."""
        app = App.get_running_app()
        if self.mode == "whistle":
            return None
        if self.mode == "confirm" and app.pending_roll is not None:
            e = app.pending_roll
            die = str(e.get("die", "d6"))
            # As many faces as the game asked for, not as were read: a die hidden or one too many is why it asks.
            count = dice.count if dice is not None and dice.die == die else len(e.get("faces", ()))
            return die, count or 1, self.faces_seen.get(die, DEFAULT_FACES["d6"])
        if self.mode == "correct" and app.last_roll is not None:
            e = app.last_roll
            die = str(e.get("die", "d6"))
            return die, len(e.get("faces", ())) or 1, self.faces_seen.get(die, DEFAULT_FACES["d6"])
        if dice is not None and self.group is None:
            return dice.die, dice.count, tuple(dice.faces) or self.faces_seen.get(dice.die, DEFAULT_FACES["d6"])
        return None

    def _read_so_far(self, dice: DiceRequest | None) -> list[Any]:
        """A check of a reading with a die missing starts from the faces read: one tap for each hidden die
        ("Clear" if a read face is wrong)."""
        app = App.get_running_app()
        if self.mode != "confirm" or app.pending_roll is None:
            return []
        req = self._entry_request(dice)
        faces = list(app.pending_roll.get("faces", ()))
        return faces if req is not None and len(faces) < req[1] else []

    def _draw_entry(self, prompt: Any, choices: tuple[Choice, ...]) -> None:
        counts = getattr(prompt, "counts", None)
        groups = {c.group for c in choices if c.group}
        if self.group not in groups:
            self.group = None
        key = (self.mode, self.group, prompt.dice, choices, counts, self._on_picture, len(App.get_running_app().session.log))
        if key != self._entry_key:
            # A new question: a half-entered answer is cleared and the answers open at the top.
            self.selected, self.typed = self._read_so_far(prompt.dice), ""
            self.counts = {k: 0 for k, _ in counts.fields} if counts is not None else {}
            self._entry_key = key
            self.ids.entry_scroll.scroll_y = 1
        elif (tuple(self.selected), self.typed, tuple(self.counts.items())) == self._entry_drawn:
            return  # unchanged: rebuilding would replace a button under a finger mid-tap
        self._entry_drawn = (tuple(self.selected), self.typed, tuple(self.counts.items()))
        req = self._entry_request(prompt.dice)
        items: list[tuple[str, Any, float, float]] = []  # (label, what a tap does, largest font, width share)
        heading: list[str] = []
        self.groups, self.pad = {}, None
        if self.mode == "whistle":
            heading.append("Who blew?")
            names = App.get_running_app().session.players()
            items += [(f"{n} blew", ("whistle", n), 18, 0.5) for n in names]
            items.append(("Nobody: cancel", ("whistle", None), 18, 0.5))
        if req is not None:
            die, count, faces = req
            shown = [str(f) for f in self.selected] + ["_"] * (count - len(self.selected))
            verb = {"roll": "Enter the dice", "correct": "Correct the dice", "confirm": "Check the dice"}[self.mode]
            heading.append(f"{verb} ({die} × {count}): {' '.join(shown)}")
            long_face = any(len(str(f)) > LONG_FACE for f in faces)  # "multicoloured", "big-and-little-wolf"
            per_row = 2 if long_face else min(len(faces), 6) or 1
            # Kivy wraps only at spaces: "big-and-little-wolf" would break mid-word.
            items += [(str(face).replace("-", " "), ("face", face), 26, 1 / per_row) for face in faces]
            if self.mode == "confirm" and len(App.get_running_app().pending_roll.get("faces", ())) == count:
                items.append(("As read", ("as-read", None), sp(20), 0.5))  # only an answer the game can take
            if self.selected:
                items.append(("Clear", ("clear", None), sp(20), 0.5))
        if self.mode == "roll" and counts is not None:
            total = sum(self.counts.values())
            want = f" of {counts.total}" if counts.total is not None else ""
            heading.append(f"Count: {total}{want}")
            for k, label in counts.fields:
                items += [(f"{label}: {self.counts.get(k, 0)}", ("label", None), 18, 0.24),
                          ("−", ("count", k, -1), 24, 0.13), ("+", ("count", k, +1), 24, 0.13)]
            items.append(("Done", ("counts-done", counts), 20, 0.5))
        if choices and self.mode == "roll":
            heading.append("or choose:" if heading else "Choose:")
            items += self._choice_items(choices)
        if req is None and not choices and counts is None and self.mode != "whistle":
            heading.append(
                "Enter it on the picture." if self._on_picture else "Nothing to enter: follow the prompt at the table."
            )
        self._fill_entry(items)
        self.ids.entry_heading.text = " ".join(heading)

    def _choice_items(self, choices: tuple[Choice, ...]) -> list[tuple[str, Any, float, float]]:
        """The choices as buttons: a group behind one button, many whole numbers as a number pad."""
        if self.group is not None:
            members = [c for c in choices if c.group == self.group]
            share = 1 / 3 if len(members) > 6 else 0.5
            return [("Back", ("back", None), 18, share)] + [(c.label, ("choice", c), 16, share) for c in members]
        numbers = [c for c in choices if c.label.isdigit()]
        items: list[tuple[str, Any, float, float]] = []
        if len(numbers) > MAX_NUMBER_BUTTONS:
            shown = f"{self.typed or '_'}"
            items += [(str(d), ("digit", d), 24, 1 / 3) for d in (1, 2, 3, 4, 5, 6, 7, 8, 9)]
            items += [("Clear", ("pad-clear", None), 18, 1 / 3), ("0", ("digit", 0), 24, 1 / 3),
                      (f"Enter {shown}", ("pad-enter", tuple(numbers)), 18, 1 / 3)]
            choices = tuple(c for c in choices if c not in numbers)
        rest = [c for c in choices if not c.group]
        labels = [c.label for c in rest] + sorted({c.group for c in choices if c.group})
        share = 1 / 3 if all(len(label) <= SHORT_LABEL for label in labels) else 0.5
        items += [(c.label, ("choice", c), 18, share) for c in rest]
        for g in dict.fromkeys(c.group for c in choices if c.group):
            items.append((g, ("group", g), 18, share))
        return items

    def _fill_entry(self, items: list[tuple[str, Any, float, float]]) -> None:
        """Show these buttons in the entry, reusing the ones already made.

        The entry changes after every roll: new buttons each time would allocate
        new widgets and (GL) textures, and a button whose text stays the same
        ("1".."6") keeps its texture.
        """
        def make() -> FitButton:
            b = FitButton(size_hint_y=None, height=theme.touch_size(), min_font=sp(14))
            b.pressed = None
            b.bind(on_press=self._entry_down, on_release=self._entry_pressed)
            return b

        grid = self.ids.entry
        grid.clear_widgets()
        buttons = [i for i in items if i[1][0] != "label"]
        labels = [i for i in items if i[1][0] == "label"]
        made = iter(reuse(self._entry_pool, len(buttons), make))
        texts = iter(reuse(self._label_pool, len(labels), lambda: FitLabel(size_hint_y=None, height=theme.touch_size(), min_font=sp(14), halign="center")))
        digits: list[Any] = []
        for text, action, font, share in items:
            w = next(texts) if action[0] == "label" else next(made)
            w.text, w.max_font = text, font
            w.size_hint_x = share - GAP
            if action[0] != "label":
                w.action = action
                if action[0] == "group":
                    self.groups[w] = tuple(c for c in (self._entry_key[3] or ()) if c.group == action[1])
                if action[0] == "digit":
                    digits.append(w)
            grid.add_widget(w)
        if digits:
            pad_enter = next(a for _t, a, _f, _s in items if a[0] == "pad-enter")
            self.pad = (pad_enter[1], digits)

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
        kind, value = button.action[0], button.action[1]
        app = App.get_running_app()
        if kind == "face":
            self.enter_face(value)
        elif kind == "as-read":
            self.confirm_pending()
        elif kind == "clear":
            self.clear_faces()
        elif kind == "whistle":
            self.mode = "roll"
            if value is not None:
                app.whistle(blower=value)
            app.changed()
        elif kind == "group":
            self.group = value
            app.changed()
        elif kind == "back":
            self.group = None
            app.changed()
        elif kind == "digit":
            self.typed = (self.typed + str(value))[-3:]
            app.changed()
        elif kind == "pad-clear":
            self.typed = ""
            app.changed()
        elif kind == "pad-enter":
            chosen = next((c for c in value if self.typed and c.label == str(int(self.typed))), None)
            if chosen is None:
                app.message = f"Type a number from {value[0].label} to {value[-1].label}, then Enter."
                app.changed()
                return
            self.choose(chosen)
        elif kind == "count":
            key, step = value, button.action[2]
            self.counts[key] = max(0, self.counts.get(key, 0) + step)
            app.changed()
        elif kind == "counts-done":
            self.choose_counts(value)
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

    def toggle_whistle(self) -> None:
        """The Whistle button asks who blew (any player, or nobody), so a whistle out of turn can be entered."""
        self.mode = "roll" if self.mode == "whistle" else "whistle"
        self.selected = []
        self._entry_drawn = None
        App.get_running_app().changed()

    def choose(self, choice: Choice) -> None:
        self.group = None
        App.get_running_app().submit(choice.event(time=time.time(), source=Source.TOUCH))

    def choose_counts(self, request: CountsRequest) -> None:
        app = App.get_running_app()
        total = sum(self.counts.values())
        if request.total is not None and total != request.total:
            app.message = f"The counts add up to {total}; they must add up to {request.total}."
            app.changed()
            return
        app.submit(request.event(self.counts, time=time.time(), source=Source.TOUCH))

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


def _show(widget: Any, shown: bool) -> None:
    """Show or hide (and disable) a button in place."""
    widget.opacity = 1 if shown else 0
    if not shown:
        widget.disabled = True
    widget.width = theme.touch_size() * 1.7 if shown else 0


load_kv(__file__)
