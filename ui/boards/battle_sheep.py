"""Battle Sheep: the hex field with every stack, and the legal moves highlighted.

Pastures are drawn as hexes (axial coordinates from ``state_json``); a stack
is its owner's colour with the owner's shape and the number of sheep; the
pastures a legal move or pick can reach are outlined thickly (and the picked
stack too), so the highlight does not rely on colour.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping, Sequence
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line, Mesh
from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.session import Session

from .. import theme
from ..widgets import fan, load_kv, shape_points
from . import SetupOption, SetupSpec

SETUP = SetupSpec(options=(SetupOption("mode", "Mode", ("board", "quick")),))
SQRT3 = math.sqrt(3)
MIN_COUNT_BOX = 16  # px: below this a stack's number is not drawn in its hex


def _pos(value: Any) -> tuple[int, int] | None:
    if isinstance(value, Sequence) and len(value) == 2:
        return int(value[0]), int(value[1])
    return None


def reachable(session: Session) -> set[tuple[int, int]]:
    """Pastures the current legal moves, picks or choices end on."""
    out: set[tuple[int, int]] = set()
    events: list[Any] = [c.event() for c in session.prompt().choices]
    with contextlib.suppress(Exception):  # optional helper: the prompt's choices are enough
        events += session.game.legal_actions(session.state)
    for e in events:
        to = _pos(e.get("to"))
        if to is not None:
            out.add(to)
    return out


class HexField(Widget):
    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.field: list[tuple[int, int]] = []
        self.stacks: dict[tuple[int, int], tuple[str, int]] = {}
        self.highlight: set[tuple[int, int]] = set()
        self.picked: tuple[int, int] | None = None
        self.styles: dict[str, tuple[Any, str]] = {}
        self.bind(pos=self.redraw, size=self.redraw)

    def _layout(self) -> tuple[float, float, float]:
        """Hex size and the pixel offset that fit the field in the widget."""
        xs = [SQRT3 * (q + r / 2) for q, r in self.field]
        ys = [1.5 * r for _, r in self.field]
        w = (max(xs) - min(xs)) + SQRT3
        h = (max(ys) - min(ys)) + 2
        size = min(self.width / w, self.height / h)
        ox = self.x + (self.width - w * size) / 2 - (min(xs) - SQRT3 / 2) * size
        oy = self.y + (self.height - h * size) / 2 - (min(ys) - 1) * size
        return size, ox, oy

    def centre(self, q: int, r: int, size: float, ox: float, oy: float) -> tuple[float, float]:
        # Row r grows downwards on screen, as the field is read from the top.
        return ox + size * SQRT3 * (q + r / 2), self.top - (oy - self.y) - size * 1.5 * r

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        self.clear_widgets()
        if not self.field:
            return
        size, ox, oy = self._layout()
        with self.canvas:
            for q, r in self.field:
                cx, cy = self.centre(q, r, size, ox, oy)
                corners = []
                for i in range(6):
                    a = math.pi / 6 + i * math.pi / 3
                    corners += [cx + size * 0.95 * math.cos(a), cy + size * 0.95 * math.sin(a)]
                stack = self.stacks.get((q, r))
                rgba = self.styles.get(stack[0], (theme.TEXT, "circle"))[0] if stack else (0.35, 0.55, 0.3, 1)
                verts, idx = fan(corners, cx, cy)
                Color(*rgba)
                Mesh(vertices=verts, indices=idx, mode="triangle_fan")
                lit = (q, r) in self.highlight or (q, r) == self.picked
                Color(*(theme.TEXT if lit else (0, 0, 0, 1)))
                Line(points=[*corners, corners[0], corners[1]], width=2.4 if lit else 1)
                if stack:
                    shape = self.styles.get(stack[0], (None, "circle"))[1]
                    pts = shape_points(shape, cx - size * 0.35, cy + size * 0.3, size * 0.22)
                    v2, i2 = fan(pts, cx - size * 0.35, cy + size * 0.3)
                    Color(0, 0, 0, 1)
                    Mesh(vertices=v2, indices=i2, mode="triangle_fan")
        box = size * 0.9
        if box < MIN_COUNT_BOX:
            return  # too small to read: the counts are listed under the field instead
        for (q, r), (_owner, count) in self.stacks.items():
            cx, cy = self.centre(q, r, size, ox, oy)
            label = Label(text=str(count), font_size=max(sp(8), box * 0.55), bold=True, color=(0, 0, 0, 1) if count else theme.TEXT,
                          size_hint=(None, None), size=(box, box), pos=(cx - box / 2, cy - box / 2), halign="center", valign="middle")
            label.outline_width = 1
            label.outline_color = (1, 1, 1, 1)
            self.add_widget(label)


class BattleSheepBoard(BoxLayout):
    _shown: Any = None

    def update(self, session: Session) -> None:
        app = App.get_running_app()
        key = (id(session), len(session.log), app.palette)
        if key == self._shown:
            return
        self._shown = key
        sj = session.game.state_json(session.state)
        field = self.ids.field
        field.field = [p for p in (_pos(x) for x in sj.get("field", ())) if p is not None]
        field.stacks = {}
        for s in sj.get("stacks", ()):
            at = _pos(s.get("at"))
            if at is not None:
                field.stacks[at] = (s.get("player", ""), int(s.get("count", 0)))
        field.styles = {}
        for name in session.players():
            sw, shape = app.player_style(name)
            field.styles[name] = (sw.rgba, shape)
        picked = sj.get("picked") or {}
        field.picked = _pos(picked.get("from")) if isinstance(picked, Mapping) else None
        field.highlight = reachable(session)
        field.redraw()
        pastures = sj.get("pastures", {})
        herd = sj.get("largest_herd", {})
        out = sj.get("out", [])
        stacks: dict[str, list[int]] = {}
        for owner, count in field.stacks.values():
            stacks.setdefault(owner, []).append(count)
        self.ids.summary.text = " · ".join(
            f"{n}: {pastures.get(n, 0)} pastures, herd {herd.get(n, 0)}, stacks {sorted(stacks.get(n, []), reverse=True)}"
            + (" (out)" if n in out else "")
            for n in session.players()
        )
        self.ids.phase.text = (
            f"Phase {sj.get('phase', '?')} · {len(field.field)} pastures · boards placed {sj.get('boards_placed', 0)}"
            + (f" · {len(field.highlight)} reachable pastures outlined" if field.highlight else "")
        )


Board = BattleSheepBoard  # what ui.boards looks up
load_kv(__file__)
