"""Sheep Hop!: the wolves' paths, the nine sheep and the flock's tally, touched.

Each wolf's path is a ring of spaces with the wolf's place marked; before the
first roll a touch on the ring (or its - / + buttons) puts the wolf there.
The sheep are big touch targets in their colour: touching one offers what the
game allows for it (moved, reached the pen, jumped a tile...); after the
wolves move, touching sheep marks them caught, then one button confirms.
What a touch means comes from the game (``companion.games.sheep_hop.touch``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Ellipse, Line, Mesh
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.events import Event, Source, thaw
from companion.game import Choice
from companion.games.sheep_hop import SheepHop, touch
from companion.games.sheep_hop.game import SCALE
from companion.session import Session

from .. import theme
from ..widgets import FitButton, FitLabel, keep_children, load_kv, shapes_mesh
from .base import Picture

# The pawns' colours on screen (the box's white, black and brown sheep), by the colour's name.
SHEEP_RGBA = {"white": (0.93, 0.93, 0.9, 1), "black": (0.12, 0.12, 0.12, 1), "brown": (0.55, 0.36, 0.2, 1)}
SHEEP_TEXT = {"white": (0.1, 0.1, 0.1, 1), "black": (1, 1, 1, 1), "brown": (1, 1, 1, 1)}


def _scale(saved: int, captured: int) -> str:
    """Where the flock stands on the Shepherds' Scale (the rulebook's titles for 5 to 9 saved)."""
    least = min(SCALE)
    if saved >= least and saved > captured:
        return f"Shepherds' Scale now: {SCALE[saved]}"
    return f"Shepherds' Scale: {least} saved for {SCALE[least]}"


class PathRing(Widget):
    """One wolf's path: ``length`` spaces round a ring, the wolf's one filled.

    While the wolves may still be placed, a touch on the ring puts the wolf on
    the nearest space (the whole ring is the target, not the small dots)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.length = 0
        self.position = 0
        self.on_place: Any = None  # callable(position) while the table places the wolf
        self.bind(pos=self.redraw, size=self.redraw)

    def _spaces(self) -> tuple[list[tuple[float, float]], float]:
        r = min(self.width, self.height) * 0.42
        cx, cy = self.center
        pts = []
        for i in range(self.length):
            a = math.pi / 2 - 2 * math.pi * i / self.length
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        return pts, r

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        if self.length <= 0:
            return
        spaces, r = self._spaces()
        dot = max(3.0, min(r * math.pi / self.length * 0.7, dp(10)))
        x, y = spaces[self.position % self.length]
        size = dot * 2.2
        with self.canvas:
            # Every space in one mesh: a wolf's path has some twenty spaces, and
            # one vertex buffer each is memory for nothing.
            Color(*theme.MUTED)
            Mesh(**shapes_mesh("circle", [p for i, p in enumerate(spaces) if i != self.position], dot * 0.7), mode="triangles")
            Color(*theme.ALERT)
            Ellipse(pos=(x - size / 2, y - size / 2), size=(size, size))
            Color(*theme.TEXT)  # a ring as well as the colour marks the wolf
            Line(circle=(x, y, size / 2 + 2), width=1.5)
            if self.on_place is not None:
                Color(*theme.ACCENT)  # the ring is the target: outlined while it may be touched
                Line(circle=(*self.center, r + size), width=1.5)

    def on_touch_down(self, touch: Any) -> bool:
        if self.on_place is None or self.length <= 0 or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        spaces, _ = self._spaces()
        nearest = min(range(self.length), key=lambda i: (spaces[i][0] - touch.x) ** 2 + (spaces[i][1] - touch.y) ** 2)
        self.on_place(nearest)
        return True


class WolfColumn(BoxLayout):
    """One wolf: its path, where it is in words, and - / + while it may be placed."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(orientation="vertical", spacing=dp(2), **kw)
        self.ring = PathRing()
        self.label = FitLabel(size_hint_y=None, height=dp(36), max_font=sp(15), min_font=sp(14), halign="center")
        self.steps = BoxLayout(size_hint_y=None, height=0, spacing=dp(4), opacity=0)
        self.earlier = FitButton(text="-", max_font=sp(22))
        self.later = FitButton(text="+", max_font=sp(22))
        self.add_widget(self.ring)
        self.add_widget(self.label)
        self.add_widget(self.steps)
        self.name = ""
        self.starts: dict[int, Event] = {}

    def show(self, name: str, wolf: Mapping[str, Any], starts: dict[int, Event], submit: Any) -> None:
        ring = self.ring
        self.name = name
        ring.length = int(wolf.get("path_length", 0))
        ring.position = int(wolf.get("position", 0))
        # Two short lines: a wolf's column is narrow at 800x480.
        self.label.text = f"{name} wolf on {ring.position} of {ring.length}\n{wolf.get('direction', '?')}"
        self.starts = starts
        placing = bool(starts)
        ring.on_place = (lambda k: submit(starts[k]) if k in starts else None) if placing else None
        # The - / + buttons leave the tree when not asked: a hidden button still takes touches.
        if placing and not self.steps.children:
            self.steps.add_widget(self.earlier)
            self.steps.add_widget(self.later)
        elif not placing:
            self.steps.clear_widgets()
        self.steps.height, self.steps.opacity = (theme.touch_size(), 1) if placing else (0, 0)
        if placing:
            self.earlier.on_release = lambda: self._step(-1, submit)
            self.later.on_release = lambda: self._step(+1, submit)
        ring.redraw()

    def _step(self, delta: int, submit: Any) -> None:
        n = self.ring.length
        for k in range(1, n):
            pos = (self.ring.position + delta * k) % n
            if pos in self.starts:  # skip spaces under a tile
                submit(self.starts[pos])
                return


class SheepToken(FitButton):
    """A sheep pawn: its colour, its name, where it is; toggled while marking captures."""

    marked = BooleanProperty(False)
    fill = ListProperty([1, 1, 1, 1])


class SheepHopBoard(Picture, BoxLayout):
    handles = SheepHop.touch_events  # what the game says its picture takes by touch (Game.touch_events)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._tokens: dict[str, SheepToken] = {}
        self._asking: str | None = None  # the sheep whose answers are asked
        self._caught: list[str] = []  # captures touched, not yet confirmed
        self._choices: tuple[Choice, ...] = ()
        self._order: list[str] = []
        # The question about one sheep takes the flock's place (kv ids are weak: kept here).
        self._flock = self.ids.flock.__self__
        self._menu = self.ids.menu.__self__
        self._rings = self.ids.rings.__self__
        self.remove_widget(self._menu)
        self._in_slot: Any = self._flock

    # -- what the picture offers -----------------------------------------------
    def touch_offers(self, session: Session) -> list[Event]:
        """Every legal event of the types the picture takes (each is entered on it, see the module doc)."""
        return [e for e in session.game.legal_actions(session.state) if e.type in self.handles]

    # -- drawing ------------------------------------------------------------------
    def draw(self, session: Session, before: tuple[Any, ...] | None) -> None:
        sj = session.game.state_json(session.state)
        prompt = session.prompt()
        over = session.outcome() is not None
        legal = [] if over else session.game.legal_actions(session.state)
        wolves: Mapping[str, Any] = sj.get("wolves", {})
        starts: dict[str, dict[int, Event]] = {}
        for e in legal:
            if e.type == touch.WOLF_START:
                starts.setdefault(e.payload["wolf"], {})[int(e.payload["position"])] = e
        rings = self.ids.rings
        for col, (name, w) in zip(keep_children(rings, len(wolves), WolfColumn), wolves.items(), strict=True):
            col.show(name, w, starts.get(name, {}), self._submit)
        sheep: Mapping[str, Any] = sj.get("sheep", {})
        self._order = list(sheep)
        choices = () if over else prompt.choices
        if choices != self._choices:
            self._caught = []
            self._asking = None
        self._choices = choices
        mine, other = touch.per_sheep(choices)
        capturing = any(c.type == touch.CAPTURE for c in choices)
        self._mine = mine
        grid = self._flock
        for token, sid in zip(keep_children(grid, len(sheep), self._make_token), sheep, strict=True):
            self._tokens[sid] = token
            where = sheep[sid].get("where", "board")
            colour = sid.rstrip("0123456789")
            token.sid = sid
            token.fill = list(SHEEP_RGBA.get(colour, theme.PANEL_LIGHT))
            token.color = SHEEP_TEXT.get(colour, theme.TEXT)
            token.text = sid if where == "board" else f"{sid}\n{'saved' if where == 'pen' else 'caught'}"
            token.marked = sid in self._caught
            token.disabled = not (sid in mine or (capturing and where == "board"))
        saved, captured, left = sj.get("saved", 0), sj.get("captured", 0), sj.get("on_board", 0)
        self.ids.counts.text = f"Saved {saved} · caught {captured} · {left} on the board"
        self.ids.last.text = str(sj.get("last") or "")
        # Buttons under the flock: the capture to confirm, or the answers naming no sheep.
        strip = [(touch.capture_label(self._caught), "capture")] if capturing else [(c.label, c) for c in other]
        buttons = keep_children(self.ids.strip, len(strip), self._make_button)
        for b, (text, what) in zip(buttons, strip, strict=True):
            b.text, b.what = text, what
        self.ids.strip.height = theme.touch_size() if strip else 0
        picked = (sj.get("picked") or {}).get("sheep")
        if picked in mine:  # a sheep picked before (table mode with tiles): its next answers at once
            self._asking = picked
        if self._asking in mine:
            self._open_menu(self._asking)
        else:
            self._close_menu()
        if starts:  # placing the wolves: their rings get the flock's room (no sheep moves yet)
            self._show(None)
        elif self._in_slot is None:
            self._show(self._flock)
        self.ids.hint.text = (
            "Touch each caught sheep, then confirm" if capturing
            else "Touch the sheep that moves" if mine
            else "Touch a wolf's ring (or - / +) to place it" if starts
            else _scale(saved, captured)
        )

    def _make_token(self) -> SheepToken:
        t = SheepToken(max_font=sp(16), min_font=sp(14))
        t.sid = ""
        t.bind(on_release=self._touched)
        return t

    def _make_button(self) -> FitButton:
        b = FitButton(max_font=sp(17), min_font=sp(14))
        b.what = None
        b.bind(on_release=self._strip_pressed)
        return b

    # -- touching -----------------------------------------------------------------
    def _touched(self, token: SheepToken) -> None:
        sid = token.sid
        if any(c.type == touch.CAPTURE for c in self._choices):
            if sid in self._caught:
                self._caught.remove(sid)
            elif len(self._caught) < touch.capture_limit(self._choices):
                self._caught.append(sid)
            token.marked = sid in self._caught
            self.ids.strip.children[-1].text = touch.capture_label(self._caught)
            return
        here = self._mine.get(sid, [])
        if len(here) == 1:
            self._submit(here[0].event())
        elif here:
            self._open_menu(sid)

    def _strip_pressed(self, button: FitButton) -> None:
        if button.what == "capture":
            self._submit(touch.capture_event(self._caught, self._order))
        elif isinstance(button.what, Choice):
            self._submit(button.what.event())

    def _open_menu(self, sid: str) -> None:
        self._asking = sid
        here = self._mine[sid]
        self.ids.menu_heading.text = f"What did {sid} do?"
        grid = self.ids.menu_grid
        grid.cols = 1 if len(here) <= 1 else 2
        for b, c in zip(keep_children(grid, len(here), self._make_button), here, strict=True):
            b.text, b.what = c.label, c
        self._show(self._menu)

    def _close_menu(self, *_: Any) -> None:
        self._asking = None
        if self._in_slot is self._menu:
            self._show(self._flock)

    def _show(self, widget: Any) -> None:
        """The flock, the question about one sheep (with the rings' room too: the full board offers
        a button per path), or nothing, in the flock's place. What is not shown leaves the tree:
        a hidden, disabled widget still swallows the touches that land on it."""
        if widget is self._in_slot:
            return
        self._in_slot = widget
        slot = self.ids.slot
        slot.clear_widgets()
        asking = widget is self._menu
        if asking and self._rings.parent is self:
            self.remove_widget(self._rings)
        elif not asking and self._rings.parent is None:
            self.add_widget(self._rings, index=len(self.children))
        if widget is None:
            slot.size_hint_y, slot.height = None, 0
            return
        slot.add_widget(widget)
        if asking:
            slot.size_hint_y = 1
        else:
            slot.size_hint_y, slot.height = None, theme.touch_size() * 2 + dp(3)

    def _submit(self, event: Event) -> None:
        self._close_menu()
        self._caught = []
        App.get_running_app().submit(Event(event.type, thaw(event.payload), event.player, time.time(), Source.TOUCH))

    def held(self) -> Any:
        return (self._asking, tuple(self._caught))

    def hold(self, value: Any) -> None:
        self._asking, caught = value
        self._caught = list(caught)


Board = SheepHopBoard  # what ui.boards looks up
load_kv(__file__)
