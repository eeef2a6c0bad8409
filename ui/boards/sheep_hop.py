"""Sheep Hop!: the wolves' paths, saved and captured sheep, tiles in play.

Each wolf's path is drawn as a ring of spaces with the wolf's place marked
(and its direction in words); the sheep are listed by where they are.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from kivy.graphics import Color, Ellipse, Line, Mesh
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.session import Session

from .. import theme
from ..widgets import FitLabel, keep_children, load_kv, shapes_mesh
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
        spaces = []
        for i in range(self.length):
            a = math.pi / 2 - 2 * math.pi * i / self.length
            spaces.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        x, y = spaces[self.position % self.length]
        size = dot * 2.2
        with self.canvas:
            # Every space in one mesh: a wolf's path has some twenty spaces, and
            # one vertex buffer each is memory for nothing.
            Color(*theme.PANEL_LIGHT)
            Mesh(**shapes_mesh("circle", [p for i, p in enumerate(spaces) if i != self.position], dot * 0.7), mode="triangles")
            Color(*theme.ALERT)
            Ellipse(pos=(x - size / 2, y - size / 2), size=(size, size))
            Color(*theme.TEXT)  # a ring as well as the colour marks the wolf
            Line(circle=(x, y, size / 2 + 2), width=1.5)


class WolfColumn(BoxLayout):
    """One wolf: its path, and in words where it is (reused between redraws)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(orientation="vertical", **kw)
        self.ring = PathRing()
        self.label = FitLabel(size_hint_y=None, height=dp(22), max_font=sp(14), halign="center")
        self.add_widget(self.ring)
        self.add_widget(self.label)

    def show(self, name: str, wolf: Mapping[str, Any]) -> None:
        ring = self.ring
        ring.length = int(wolf.get("path_length", 0))
        ring.position = int(wolf.get("position", 0))
        self.label.text = f"{name} wolf: space {ring.position} of {ring.length}, {wolf.get('direction', '?')}"
        ring.redraw()


class SheepHopBoard(Picture, BoxLayout):

    def draw(self, session: Session, before: tuple[Any, ...] | None) -> None:
        sj = session.game.state_json(session.state)
        wolves: Mapping[str, Any] = sj.get("wolves", {})
        rings = self.ids.rings
        for col, (name, w) in zip(keep_children(rings, len(wolves), WolfColumn), wolves.items(), strict=True):
            col.show(name, w)
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
