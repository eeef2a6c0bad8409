"""Sheep Hop!: the wolves' paths, saved and captured sheep, tiles in play.

Each wolf's path is drawn as a ring of spaces with the wolf's place marked
(and its direction in words); the sheep are listed by where they are.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from kivy.graphics import Color, Ellipse, Line
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.session import Session

from .. import theme
from ..widgets import FitLabel, load_kv
from . import Picture, SetupOption, SetupSpec
from .generic import _short

SETUP = SetupSpec(options=(SetupOption("mode", "Mode", ("table", "board")),))


class PathRing(Widget):
    """One wolf's path: ``length`` spaces round a ring, the wolf's one filled."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.length = 0
        self.position = 0
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        if self.length <= 0:
            return
        r = min(self.width, self.height) * 0.42
        dot = max(3.0, min(r * math.pi / self.length * 0.7, dp(10)))
        cx, cy = self.center
        with self.canvas:
            for i in range(self.length):
                a = math.pi / 2 - 2 * math.pi * i / self.length
                x, y = cx + r * math.cos(a), cy + r * math.sin(a)
                here = i == self.position
                Color(*(theme.ALERT if here else theme.PANEL_LIGHT))
                size = dot * (2.2 if here else 1.4)
                Ellipse(pos=(x - size / 2, y - size / 2), size=(size, size))
                if here:  # a ring as well as the colour marks the wolf
                    Color(*theme.TEXT)
                    Line(circle=(x, y, size / 2 + 2), width=1.5)


class SheepHopBoard(Picture, BoxLayout):

    def draw(self, session: Session, before: tuple[Any, ...] | None) -> None:
        sj = session.game.state_json(session.state)
        wolves: Mapping[str, Any] = sj.get("wolves", {})
        rings = self.ids.rings
        rings.clear_widgets()
        for name, w in wolves.items():
            col = BoxLayout(orientation="vertical")
            ring = PathRing()
            ring.length = int(w.get("path_length", 0))
            ring.position = int(w.get("position", 0))
            col.add_widget(ring)
            col.add_widget(FitLabel(text=f"{name} wolf: space {ring.position} of {ring.length}, {w.get('direction', '?')}",
                                    size_hint_y=None, height=dp(22), max_font=sp(14), halign="center"))
            rings.add_widget(col)
            ring.redraw()
        self.ids.counts.text = f"Saved {sj.get('saved', 0)} · captured {sj.get('captured', 0)} · on the board {sj.get('on_board', 0)}"
        tiles = sj.get("tiles") or []
        self.ids.tiles.text = f"Tiles in play: {_short(tiles) if tiles else 'none'} · raccoon {sj.get('raccoon', '?')}"
        sheep = sj.get("sheep", {})
        by_place: dict[str, list[str]] = {}
        for sid, s in sheep.items():
            by_place.setdefault(str(s.get("where", "?")), []).append(sid)
        self.ids.sheep.text = " · ".join(f"{place}: {', '.join(ids)}" for place, ids in by_place.items())
        self.ids.last.text = str(sj.get("last") or "")


Board = SheepHopBoard  # what ui.boards looks up
load_kv(__file__)
