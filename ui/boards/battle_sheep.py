"""Battle Sheep: the hex field with every stack, and the legal moves highlighted.

Pastures are drawn as hexes (axial coordinates from ``state_json``); a stack
is its owner's colour with the owner's shape and the number of sheep; the
pastures a legal move or pick can reach are outlined thickly (and the picked
stack too), so the highlight does not rely on colour.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line, Mesh
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.events import Event, Source, thaw
from companion.session import Session

from .. import theme
from ..offers import PICTURE_HANDLES
from ..widgets import FitButton, fans_mesh, load_kv, outlines_mesh, reuse, shape_points
from . import Picture, SetupOption, SetupSpec

SETUP = SetupSpec(options=(SetupOption("mode", "Mode", ("board", "quick")),))
PLACE_BOARD = "place-board"
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
        self.ghosts: set[tuple[int, int]] = set()  # anchors where a pasture board may go
        self.chosen: tuple[int, int] | None = None
        self.on_pick: Any = None  # called with the anchor a finger chose
        self._counts: list[Label] = []  # the stacks' count labels, reused (see ui.widgets.reuse)
        self.bind(pos=self.redraw, size=self.redraw)

    def _all(self) -> list[tuple[int, int]]:
        return [*self.field, *(g for g in self.ghosts if g not in self.field)]

    def _layout(self) -> tuple[float, float, float]:
        """Hex size and the pixel offset that fit the field in the widget."""
        cells = self._all()
        xs = [SQRT3 * (q + r / 2) for q, r in cells]
        ys = [1.5 * r for _, r in cells]
        w = (max(xs) - min(xs)) + SQRT3
        h = (max(ys) - min(ys)) + 2
        size = min(self.width / w, self.height / h)
        ox = self.x + (self.width - w * size) / 2 - (min(xs) - SQRT3 / 2) * size
        oy = self.y + (self.height - h * size) / 2 - (min(ys) - 1) * size
        return size, ox, oy

    def centre(self, q: int, r: int, size: float, ox: float, oy: float) -> tuple[float, float]:
        # Row r grows downwards on screen, as the field is read from the top.
        return ox + size * SQRT3 * (q + r / 2), self.top - (oy - self.y) - size * 1.5 * r

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or not self.ghosts or self.on_pick is None:
            return super().on_touch_down(touch)
        size, ox, oy = self._layout()
        best = min(self.ghosts, key=lambda g: math.dist(self.centre(*g, size, ox, oy), touch.pos))
        if math.dist(self.centre(*best, size, ox, oy), touch.pos) <= size * 1.2:
            self.on_pick(best)
            return True
        return super().on_touch_down(touch)

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        self.clear_widgets()
        if not self._all():
            return
        size, ox, oy = self._layout()
        # Hexes of one colour in one mesh, the thin outlines in another, the
        # owners' marks in a third: a field of 64 hexes drawn one instruction
        # each held ~190 vertex buffers, remade at every event.
        fills: dict[tuple[float, ...], list[tuple[list[float], float, float]]] = {}
        thin: list[list[float]] = []
        lit_outlines: list[list[float]] = []
        marks: list[tuple[list[float], float, float]] = []
        for q, r in self.field:
            cx, cy = self.centre(q, r, size, ox, oy)
            corners = []
            for i in range(6):
                a = math.pi / 6 + i * math.pi / 3
                corners += [cx + size * 0.95 * math.cos(a), cy + size * 0.95 * math.sin(a)]
            stack = self.stacks.get((q, r))
            rgba = self.styles.get(stack[0], (theme.TEXT, "circle"))[0] if stack else (0.35, 0.55, 0.3, 1)
            fills.setdefault(tuple(rgba), []).append((corners, cx, cy))
            lit = (q, r) in self.highlight or (q, r) == self.picked
            (lit_outlines if lit else thin).append(corners)
            if stack:
                shape = self.styles.get(stack[0], (None, "circle"))[1]
                mx, my = cx - size * 0.35, cy + size * 0.3
                marks.append((shape_points(shape, mx, my, size * 0.22), mx, my))
        # The places a pasture board may go (up to ~150) as thin rings in one
        # mesh: a wide Kivy Line is triangulated with round joints, thousands of
        # triangles each, which cost llvmpipe ~80 MB for a field of them.
        rings = [
            shape_points("circle", *self.centre(q, r, size, ox, oy), size * 0.6)
            for q, r in self.ghosts
            if (q, r) != self.chosen
        ]
        with self.canvas:
            if rings:
                Color(*theme.MUTED)
                Mesh(**outlines_mesh(rings), mode="lines")
            if self.chosen in self.ghosts:
                Color(*theme.ACCENT)
                Line(circle=(*self.centre(*self.chosen, size, ox, oy), size * 0.6), width=2.4)
            for rgba, hexes in fills.items():
                Color(*rgba)
                Mesh(**fans_mesh(hexes), mode="triangles")
            Color(0, 0, 0, 1)
            if thin:
                Mesh(**outlines_mesh(thin), mode="lines")
            if marks:
                Mesh(**fans_mesh(marks), mode="triangles")
            Color(*theme.TEXT)
            for corners in lit_outlines:
                Line(points=[*corners, corners[0], corners[1]], width=2.4)
        box = size * 0.9
        if box < MIN_COUNT_BOX:
            return  # too small to read: the counts are listed under the field instead
        stacks = list(self.stacks.items())
        for label, ((q, r), (_owner, count)) in zip(reuse(self._counts, len(stacks), self._count_label), stacks, strict=True):
            cx, cy = self.centre(q, r, size, ox, oy)
            label.text = str(count)
            label.font_size = max(sp(8), box * 0.55)
            label.color = (0, 0, 0, 1) if count else theme.TEXT
            label.size = (box, box)
            label.pos = (cx - box / 2, cy - box / 2)
            self.add_widget(label)

    @staticmethod
    def _count_label() -> Label:
        label = Label(bold=True, size_hint=(None, None), halign="center", valign="middle")
        label.outline_width = 1
        label.outline_color = (1, 1, 1, 1)
        return label


def placements(session: Session) -> dict[tuple[int, int], list[Any]]:
    """Legal pasture-board placements by anchor: touch an anchor, then pick the turn."""
    out: dict[tuple[int, int], list[Any]] = {}
    try:
        legal = session.game.legal_actions(session.state)
    except Exception:  # optional helper: without it the board is placed by the generic frame
        return out
    for e in legal:
        at = _pos(e.get("at"))
        if e.type == PLACE_BOARD and at is not None:
            out.setdefault(at, []).append(e)
    return out


def placement_label(event: Any) -> str:
    flip = ", flipped" if event.get("flip") else ""
    return f"Turn {event.get('rotation', 0)}{flip}"


class BattleSheepBoard(Picture, BoxLayout):
    handles = PICTURE_HANDLES["battle-sheep"]  # entered on the picture, not from a list

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.anchor: tuple[int, int] | None = None
        self.session: Session | None = None
        self._placements: dict[tuple[int, int], list[Any]] = {}
        self.ids.field.on_pick = self.pick_anchor

    def held(self) -> Any:
        return self.anchor

    def hold(self, value: Any) -> None:
        self.anchor = value

    def pick_anchor(self, anchor: tuple[int, int]) -> None:
        self.anchor = anchor
        self._shown = None
        if self.session is not None:
            self.update(self.session)

    def place(self, event: Any) -> None:
        self.anchor = None
        App.get_running_app().submit(Event(event.type, thaw(event.payload), event.player, time.time(), Source.TOUCH))

    def _draw_variants(self) -> None:
        box = self.ids.variants
        box.clear_widgets()
        options = self._placements.get(self.anchor, []) if self.anchor is not None else []
        if not self._placements:
            self.ids.variants_box.height = 0
            self.ids.variants_box.opacity = 0
            return
        self.ids.variants_box.opacity = 1
        self.ids.variants_box.height = theme.touch_size() + dp(30)
        if not options:
            self.ids.variants_heading.text = f"Touch a ringed place to put the board ({len(self._placements)} places)"
            return
        q, r = self.anchor
        self.ids.variants_heading.text = f"Board at {q},{r}: choose how it lies"
        for e in options:
            b = FitButton(text=placement_label(e), size_hint_x=None, width=theme.touch_size() * 2.4, max_font=sp(16))
            b.event = e
            b.bind(on_release=lambda btn: self.place(btn.event))
            box.add_widget(b)

    def draw(self, session: Session, before: tuple[Any, ...] | None) -> None:
        app = App.get_running_app()
        if before is not None and self._shown is not None and before[:2] != self._shown[:2]:
            self.anchor = None  # the field changed: choose again
        self.session = session
        sj = session.game.state_json(session.state)
        field = self.ids.field
        self._placements = placements(session)
        field.ghosts = set(self._placements)
        field.chosen = self.anchor
        self._draw_variants()
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
