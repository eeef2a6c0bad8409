"""Sheepdogs of Pendleton Hill: the hill, the pens, flocks, shepherds and the
wolf, touched where a piece goes.

The hill is drawn as its tiers, top tier first; each pasture and pen is a
touch target showing its value and, in each player's colour and shape, the
sheep (filled) and shepherds (hollow) on it.  What touching one means comes
from the game (``companion.games.pendleton_hill.touch``): the spots where a
legal placement or move ends are ringed; a spot with one answer enters it at
once, a spot with several asks which (whose shepherd, which flock).  Hands
are secret: only how many cards each player holds is shown.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Line, Mesh
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.events import Event, Source, thaw
from companion.games.pendleton_hill import PendletonHill, touch
from companion.session import Session
from companion.wording import count

from .. import theme
from ..widgets import FitButton, FitLabel, fan, keep_children, load_kv, shape_points
from .base import Picture


class Marks(Widget):
    """The pieces on one spot: each player's sheep filled, their shepherds hollow, in their shape."""

    pieces = ListProperty([])  # [(rgba, shape, number of sheep, has a shepherd)]

    def __init__(self, **kw: Any) -> None:
        self._redraw = Clock.create_trigger(self._draw, -1)
        super().__init__(**kw)
        for prop in ("pos", "size", "pieces"):
            self.fbind(prop, self._redraw)

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        marks: list[tuple[Any, str, bool]] = []
        for rgba, shape, sheep, shepherd in self.pieces:
            marks += [(rgba, shape, True)] * sheep + ([(rgba, shape, False)] if shepherd else [])
        if not marks:
            return
        r = max(3.0, min(self.height * 0.42, self.width / (2.3 * len(marks)), dp(14)))
        step = 2.3 * r
        x0 = self.center_x - step * (len(marks) - 1) / 2
        y = self.center_y
        with self.canvas:
            for i, (rgba, shape, filled) in enumerate(marks):
                pts = shape_points(shape, x0 + i * step, y, r)
                if filled:
                    verts, idx = fan(pts, x0 + i * step, y)
                    Color(*rgba)
                    Mesh(vertices=verts, indices=idx, mode="triangle_fan")
                    Color(0, 0, 0, 1)
                    Line(points=pts, width=1.2, close=True)
                else:
                    Color(*rgba)
                    Line(points=pts, width=2, close=True)


class Spot(ButtonBehavior, BoxLayout):
    """A pasture or a pen: a touch target with its name, value and pieces."""

    offered = BooleanProperty(False)  # a legal placement or move ends here
    wolf = BooleanProperty(False)  # the wolf is here (tinted as well as named)
    bg = ListProperty(list(theme.PANEL))

    def __init__(self, name: str, **kw: Any) -> None:
        super().__init__(orientation="vertical", padding=dp(2), spacing=0, **kw)
        self.name = name
        self.label = FitLabel(max_font=sp(16), min_font=sp(14), halign="center", size_hint_y=0.55)
        self.marks = Marks(size_hint_y=0.45)
        self.add_widget(self.label)
        self.add_widget(self.marks)

    @property
    def text(self) -> str:  # what the harness and a screen reader call the button
        return self.label.text


class PendletonHillBoard(Picture, BoxLayout):
    handles = PendletonHill.touch_events  # what the game says its picture takes by touch (Game.touch_events)

    _layout: Any = None  # the tiers' spaces the hill's spots were made for

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._spots: dict[str, Spot] = {}
        self._offers: dict[str, list[Event]] = {}
        self._asking: str | None = None  # the spot whose answers the menu shows
        # The question "what goes there?" takes the hill's place while it is asked.
        # (kv ids are weak: the one not in the tree is kept here)
        self._menu = self.ids.menu.__self__
        self._main = self.ids.main.__self__
        self.remove_widget(self._menu)

    # -- what the picture offers -----------------------------------------------
    def touch_offers(self, session: Session) -> list[Event]:
        """Every legal event the picture enters by touch now (the harness checks them)."""
        offers = touch.offers(session.game, session.state)
        return [e for here in offers.values() for e in here if here and self._spots.get(touch.spot(e)) is not None]

    # -- drawing ------------------------------------------------------------------
    def draw(self, session: Session, before: tuple[Any, ...] | None) -> None:
        sj = session.game.state_json(session.state)
        hill = sj.get("hill", {})
        tiers: dict[int, list[str]] = {}
        for name, space in hill.items():
            tiers.setdefault(int(space.get("tier", 0)), []).append(name)
        layout = [sorted(tiers[t]) for t in sorted(tiers, reverse=True)]  # the top of the hill first
        pens = [touch.pen_spot(int(p["pen"])) for p in sj.get("pens", ())]
        if (layout, pens) != self._layout:  # the hill's shape is set once a game: spots made then, updated after
            self._layout = (layout, pens)
            self._build(layout, pens)
        app = App.get_running_app()
        style = {n: app.player_style(n) for n in session.players()}

        def pieces(flock: Mapping[str, int] | None, shepherds: list[str]) -> list[Any]:
            return [
                (list(style[n][0].rgba), style[n][1], int((flock or {}).get(n, 0)), n in shepherds)
                for n in session.players()
                if (flock or {}).get(n) or n in shepherds
            ]

        narrow = {name for row in layout if len(row) >= 3 for name in row}  # no room for value and wolf
        for name, space in hill.items():
            spot = self._spots[name]
            value = count(space.get("value", "?"), "pt", "pts")
            wolf = bool(space.get("wolf"))
            spot.wolf = wolf
            spot.label.text = f"{name} · WOLF" if wolf and name in narrow else f"{name} · {value}" + (" · WOLF" if wolf else "")
            spot.marks.pieces = pieces(space.get("flock"), space.get("shepherds") or [])
        for pen in sj.get("pens", ()):
            spot = self._spots[touch.pen_spot(int(pen["pen"]))]
            sheep = pen.get("sheep") or {}
            spot.label.text = f"Pen {pen['pen']} · {sum(sheep.values())}/{pen.get('spaces')}"
            spot.marks.pieces = pieces(sheep, [])
        hands = sj.get("hands", {})
        cards = ", ".join(f"{n} {h.get('cards', 0)}" for n, h in hands.items())
        self.ids.info.text = f"Deck {sj.get('deck_left', '?')} · in hand: {cards}"
        dogs = [n for n, h in hands.items() if h.get("sheepdog")]
        self.ids.dogs.text = f"Sheepdog card still held: {', '.join(dogs)}" if dogs else "Every Sheepdog card is played"
        self._offers = touch.offers(session.game, session.state) if session.outcome() is None else {}
        for name, spot in self._spots.items():
            spot.offered = name in self._offers
            spot.disabled = not spot.offered
        if self._asking not in self._offers:
            self._close_menu()
        else:
            self._open_menu(self._asking)
        where = " · touch where a piece goes" if self._offers else ""
        self.ids.hint.text = f"Filled: sheep · hollow: shepherd{where}"

    def _build(self, layout: list[list[str]], pens: list[str]) -> None:
        self._spots = {}
        hill = self.ids.hill
        hill.clear_widgets()
        for row_names in layout:
            row = BoxLayout(spacing=dp(3))
            for name in row_names:
                spot = self._spots[name] = Spot(name)
                spot.bind(on_release=self._touched)
                row.add_widget(spot)
            hill.add_widget(row)
        column = self.ids.pens
        column.clear_widgets()
        for name in pens:
            spot = self._spots[name] = Spot(name)
            spot.bind(on_release=self._touched)
            column.add_widget(spot)

    # -- touching -----------------------------------------------------------------
    def _touched(self, spot: Spot) -> None:
        here = self._offers.get(spot.name, [])
        if len(here) == 1:
            self._submit(here[0])
        elif here:
            self._open_menu(spot.name)

    def _open_menu(self, name: str) -> None:
        app = App.get_running_app()
        session = app.session
        self._asking = name
        here = self._offers[name]
        self.ids.menu_heading.text = f"What goes to {name}?"
        grid: GridLayout = self.ids.menu_grid
        labels = [touch.label(session.state, e) for e in here]
        grid.cols = 1 if len(here) <= 2 else 2
        buttons = keep_children(grid, len(here), self._make_menu_button)
        for b, e, text in zip(buttons, here, labels, strict=True):
            b.text, b.event = text, e
        self._swap(self._main, self._menu)

    def _swap(self, out: Any, shown: Any) -> None:
        """Show one of the hill and the question in the same place. The other leaves the
        tree: a hidden, disabled widget still swallows the touches that land on it."""
        if shown.parent is None:
            i = self.children.index(out) if out.parent is self else len(self.children)
            if out.parent is self:
                self.remove_widget(out)
            self.add_widget(shown, index=i)

    def _make_menu_button(self) -> FitButton:
        b = FitButton(max_font=sp(18))
        b.event = None
        b.bind(on_release=lambda btn: self._submit(btn.event))
        return b

    def _close_menu(self, *_: Any) -> None:
        self._asking = None
        self._swap(self._menu, self._main)

    def _submit(self, event: Event | None) -> None:
        if event is None:
            return
        self._close_menu()
        App.get_running_app().submit(Event(event.type, thaw(event.payload), event.player, time.time(), Source.TOUCH))

    # What was touched but not yet entered survives a visit to another view.
    def held(self) -> Any:
        return self._asking

    def hold(self, value: Any) -> None:
        self._asking = value


Board = PendletonHillBoard  # what ui.boards looks up
load_kv(__file__)
