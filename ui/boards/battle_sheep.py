"""Battle Sheep: the hex field filling the picture, played by touching it.

Pastures are drawn as hexes (axial coordinates from ``state_json``); a stack
is its owner's colour with the owner's shape and the number of sheep drawn on
it.  Every step is entered on the picture: touch a ringed place and a
preview of how the board lies (building the field), a ringed edge pasture
(the starting stacks), one of your stacks, then where its new stack stops
(outlined), then how many sheep go; in quick mode, each player's pastures and
largest herd with − / +, then **Results**.  What may be touched and what a
touch means come from the game (``companion.games.battle_sheep.touch``).
Hexes are never drawn smaller than a touch target: a large field scrolls.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line, Mesh
from kivy.metrics import dp, sp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion import wording
from companion.events import Event, Source, thaw
from companion.games.battle_sheep import BattleSheep, touch
from companion.session import Session

from .. import theme
from ..widgets import (
    fans_mesh,
    keep_children,
    load_kv,
    outlines_mesh,
    reuse,
    shape_points,
)
from .base import Picture, Taps, chosen_button_class

SQRT3 = math.sqrt(3)
GRASS = (0.35, 0.55, 0.3, 1)
Hex = tuple[int, int]


def _pos(value: Any) -> Hex | None:
    if isinstance(value, Sequence) and len(value) == 2:
        return int(value[0]), int(value[1])
    return None


def min_hex_size() -> float:
    """A hex's circumradius so that neighbouring hexes are a touch target apart."""
    return theme.touch_size() / SQRT3


def hex_corners(cx: float, cy: float, size: float) -> list[float]:
    out: list[float] = []
    for i in range(6):
        a = math.pi / 6 + i * math.pi / 3
        out += [cx + size * math.cos(a), cy + size * math.sin(a)]
    return out


def hex_layout(cells: Sequence[Hex], width: float, height: float, least: float = 0.0) -> tuple[float, float, float]:
    """Hex size and the offset of hex (0, 0)'s centre that fit ``cells`` in a box."""
    xs = [SQRT3 * (q + r / 2) for q, r in cells]
    ys = [-1.5 * r for _, r in cells]  # row r grows downwards on screen, as the field is read from the top
    w = (max(xs) - min(xs)) + SQRT3
    h = (max(ys) - min(ys)) + 2
    size = max(least, min(width / w, height / h))
    ox = (width - w * size) / 2 - (min(xs) - SQRT3 / 2) * size
    oy = (height - h * size) / 2 - (min(ys) - 1) * size
    return size, ox, oy


class HexField(Taps, Widget):
    """The field, drawn from pastures and stacks; ``on_hex`` gets each touched pasture."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.field: list[Hex] = []
        self.stacks: dict[Hex, tuple[str, int]] = {}
        self.targets: set[Hex] = set()  # what a touch may choose now (ringed or outlined)
        self.rings: set[Hex] = set()  # targets off the field (where a board may go), drawn as rings
        self.picked: Hex | None = None
        self.preview: tuple[Hex, ...] = ()  # a board placement being considered
        self.styles: dict[str, tuple[Any, str]] = {}
        self.on_hex: Any = None
        self.hex_size = 0.0
        self._origin = (0.0, 0.0)
        self._counts: list[Label] = []  # the stacks' count labels, reused (see ui.widgets.reuse)
        self.bind(pos=self.redraw, size=self.redraw)

    def _all(self) -> list[Hex]:
        return [*self.field, *(g for g in self.rings if g not in self.field), *self.preview]

    def fit(self, width: float, height: float) -> None:
        """Fill the view; never hexes under a touch target (then the view scrolls)."""
        cells = self._all()
        if not cells:
            self.size = (width, height)
            return
        size, _, _ = hex_layout(cells, width, height, min_hex_size())
        xs = [SQRT3 * (q + r / 2) for q, r in cells]
        ys = [1.5 * r for _, r in cells]
        need = ((max(xs) - min(xs) + SQRT3) * size, (max(ys) - min(ys) + 2) * size)
        new = (max(width, need[0]), max(height, need[1]))
        if tuple(self.size) != new:
            self.size = new
        else:
            self.redraw()

    def centre(self, q: int, r: int) -> tuple[float, float]:
        ox, oy = self._origin
        return self.x + ox + self.hex_size * SQRT3 * (q + r / 2), self.y + oy - self.hex_size * 1.5 * r

    def hex_at(self, x: float, y: float) -> Hex | None:
        """The target hex under a point of this widget, if any."""
        if not self.targets or self.hex_size <= 0:
            return None
        best = min(self.targets, key=lambda h: math.dist(self.centre(*h), (x, y)))
        return best if math.dist(self.centre(*best), (x, y)) <= self.hex_size else None

    def target_at(self, x: float, y: float) -> Hex | None:
        return self.hex_at(x, y)

    def tapped(self, target: Hex) -> None:
        if self.on_hex is not None:
            self.on_hex(target)

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        self.clear_widgets()
        cells = self._all()
        if not cells:
            return
        size, ox, oy = hex_layout(cells, self.width, self.height, min_hex_size())
        self.hex_size, self._origin = size, (ox, oy)
        # Hexes of one colour in one mesh, the thin outlines in another, the
        # owners' marks in a third: a field of 64 hexes drawn one instruction
        # each held ~190 vertex buffers, remade at every event.
        fills: dict[tuple[float, ...], list[tuple[list[float], float, float]]] = {}
        thin: list[list[float]] = []
        lit: list[list[float]] = []
        marks: dict[str, list[tuple[list[float], float, float]]] = {}
        for q, r in self.field:
            cx, cy = self.centre(q, r)
            corners = hex_corners(cx, cy, size * 0.95)
            stack = self.stacks.get((q, r))
            rgba = self.styles.get(stack[0], (theme.TEXT, "circle"))[0] if stack else GRASS
            fills.setdefault(tuple(rgba), []).append((corners, cx, cy))
            (lit if (q, r) in self.targets or (q, r) == self.picked else thin).append(corners)
            if stack:
                shape = self.styles.get(stack[0], (None, "circle"))[1]
                mx, my = cx - size * 0.42, cy + size * 0.36
                marks.setdefault(shape, []).append((shape_points(shape, mx, my, size * 0.2), mx, my))
        # The places a pasture board may go (up to ~150) as thin rings in one
        # mesh: a wide Kivy Line is triangulated with round joints, thousands of
        # triangles each, which cost llvmpipe ~80 MB for a field of them.
        rings = [shape_points("circle", *self.centre(q, r), size * 0.6) for q, r in self.rings if (q, r) not in self.preview]
        preview = [(hex_corners(*self.centre(q, r), size * 0.95), *self.centre(q, r)) for q, r in self.preview]
        with self.canvas:
            if rings:
                Color(*theme.MUTED)
                Mesh(**outlines_mesh(rings), mode="lines")
            for rgba, hexes in fills.items():
                Color(*rgba)
                Mesh(**fans_mesh(hexes), mode="triangles")
            if preview:
                Color(GRASS[0], GRASS[1], GRASS[2], 0.55)
                Mesh(**fans_mesh(preview), mode="triangles")
            Color(0, 0, 0, 1)
            if thin:
                Mesh(**outlines_mesh(thin), mode="lines")
            for hexes in marks.values():
                Mesh(**fans_mesh(hexes), mode="triangles")
            Color(*theme.TEXT)
            for corners in lit:  # a few: drawn wide
                Line(points=[*corners, corners[0], corners[1]], width=2.4)
            if preview:
                Color(*theme.ACCENT)
                for pts, _, _ in preview:
                    Line(points=[*pts, pts[0], pts[1]], width=2.4)
        box = size * 0.9
        stacks = list(self.stacks.items())
        for label, ((q, r), (_owner, count)) in zip(reuse(self._counts, len(stacks), self._count_label), stacks, strict=True):
            cx, cy = self.centre(q, r)
            label.text = str(count)
            label.font_size = max(sp(14), box * 0.55)
            label.size = (box, box)
            label.pos = (cx - box / 2, cy - box / 2)
            self.add_widget(label)

    @staticmethod
    def _count_label() -> Label:
        label = Label(bold=True, size_hint=(None, None), halign="center", valign="middle", color=(0, 0, 0, 1))
        label.outline_width = 2
        label.outline_color = (1, 1, 1, 1)
        return label


class PlacementPreview(chosen_button_class()):  # type: ignore[misc]
    """A button showing the pasture board lying one way, beside the field near it."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.cells: tuple[Hex, ...] = ()
        self.near: list[Hex] = []
        self.bind(pos=self._draw, size=self._draw)

    def show(self, cells: tuple[Hex, ...], field: Sequence[Hex]) -> None:
        self.cells = cells
        around = {(q + dq, r + dr) for q, r in cells for dq in (-1, 0, 1) for dr in (-1, 0, 1)}
        self.near = [h for h in field if h in around]
        self._draw()

    def _draw(self, *_: Any) -> None:
        # Its own group: the button's frame and text flush live in canvas.after too.
        self.canvas.after.remove_group("preview")
        cells = [*self.cells, *self.near]
        if not cells:
            return
        pad = dp(4)
        size, ox, oy = hex_layout(cells, self.width - 2 * pad, self.height - 2 * pad)

        def at(h: Hex) -> tuple[float, float]:
            return self.x + pad + ox + size * SQRT3 * (h[0] + h[1] / 2), self.y + pad + oy - size * 1.5 * h[1]

        after = self.canvas.after
        after.add(Color(*theme.MUTED, group="preview"))
        after.add(Mesh(**fans_mesh([(hex_corners(*at(h), size * 0.9), *at(h)) for h in self.near]), mode="triangles", group="preview"))
        after.add(Color(*GRASS, group="preview"))
        after.add(Mesh(**fans_mesh([(hex_corners(*at(h), size * 0.9), *at(h)) for h in self.cells]), mode="triangles", group="preview"))


class ResultRow(BoxLayout):
    """Quick mode: one player's pastures and largest herd, set with − / +."""

    board = ObjectProperty(None)
    player = StringProperty("")


class BattleSheepBoard(Picture, BoxLayout):
    handles = BattleSheep.touch_events  # what the game says its picture takes by touch (Game.touch_events)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.anchor: Hex | None = None  # building: the place touched
        self.option: Any = None  # building: the way the board lies, being previewed
        self.source: Hex | None = None  # playing: the stack touched
        self.dest: Hex | None = None  # playing: where its new stack stops
        self.figures: dict[str, list[int]] = {}  # quick mode: what the table has set so far
        self.session: Session | None = None
        self._legal: list[Event] = []
        self._options: list[Any] = []
        field = self.ids.field
        field.on_hex = self.touched
        self.ids.field_scroll.bind(size=self._fit)
        self.ids.options.bind(width=lambda *_: self._again())  # how many counts fit a row

    def touch_offers(self, session: Session) -> list[Event]:
        """Every event a finger can make on the picture now (a ring and a
        preview; an edge pasture; a stack, where it stops and a count)."""
        try:
            legal = session.game.legal_actions(session.state)
        except Exception:
            return []
        out: list[Event] = [e for options in touch.placements_by_anchor(legal).values() for e in options]
        out += list(touch.start_pastures(legal).values())
        who = session.prompt().player
        slides = touch.slides(legal)
        out += [slides.move(src, dst, k, who) for src, ends in slides.ends.items() for dst, most in ends.items() for k in range(1, most + 1)]
        return out

    # -- what is held while the Table shows another view --------------------
    def held(self) -> Any:
        return (self.anchor, self.option, self.source, self.dest, {k: list(v) for k, v in self.figures.items()})

    def hold(self, value: Any) -> None:
        self.anchor, self.option, self.source, self.dest, self.figures = value

    def _fit(self, *_: Any) -> None:
        view = self.ids.field_scroll
        self.ids.field.fit(view.width, view.height)

    def _again(self) -> None:
        self._shown = None
        if self.session is not None:
            self.update(self.session)

    # -- touches --------------------------------------------------------------
    def touched(self, at: Hex) -> None:
        s = self.session
        if s is None:
            return
        phase = s.game.state_json(s.state).get("phase")
        if phase == "build":
            self.anchor, self.option = at, None
            options = touch.placements_by_anchor(self._legal).get(at, [])
            if len(options) == 1:
                self.option = options[0]
        elif phase == "start":
            event = touch.start_pastures(self._legal).get(at)
            if event is not None:
                self.submit(event)
                return
        elif phase == "play":
            ends = touch.slides(self._legal).ends
            if self.source is not None and at in ends.get(self.source, {}):
                self.dest = at
            elif at == self.source:
                self.source, self.dest = None, None
            elif at in ends:
                self.source, self.dest = at, None
        self._again()

    def choose_option(self, button: Any) -> None:
        action = button.action
        if action[0] == "lie":
            self.option = action[1]
        elif action[0] == "place":
            self.submit(self.option)
            return
        elif action[0] == "count":
            src, dst, count, who = action[1]
            self.submit(touch.Slides({}).move(src, dst, count, who))
            return
        elif action[0] == "again":
            self.source, self.dest = None, None
            if self.session is not None and touch.picked(self.session.state) is not None:
                self.submit(Event(touch.PICK, {}, self.session.prompt().player))
                return
        self._again()

    def step(self, name: str, key: str, delta: int) -> None:
        value = self.figures.setdefault(name, [0, 0])
        i = 0 if key == "pastures" else 1
        value[i] = max(0, min(touch.MOST_PASTURES, value[i] + delta))
        value[1] = min(value[1], value[0]) if value[0] else 0
        if i == 0 and value[0] and not value[1]:
            value[1] = 1
        self._again()

    def results(self) -> None:
        s = self.session
        if s is None:
            return
        for name, entered in touch.results_to_enter(s.state, s.players()):
            if entered is None:
                pastures, herd = self.figures.get(name, [0, 0])
                if not self.submit(touch.result_event(name, pastures, herd)):
                    return

    def submit(self, event: Any) -> bool:
        self.anchor = self.option = self.source = self.dest = None
        app = App.get_running_app()
        return bool(app.submit(Event(event.type, thaw(event.payload), event.player, time.time(), Source.TOUCH)))

    # -- drawing --------------------------------------------------------------
    def draw(self, session: Session, before: tuple[Any, ...] | None) -> None:
        app = App.get_running_app()
        if before is not None and self._shown is not None and before[:2] != self._shown[:2]:
            self.anchor = self.option = self.source = self.dest = None  # the field changed: choose again
        self.session = session
        sj = session.game.state_json(session.state)
        try:
            self._legal = session.game.legal_actions(session.state)
        except Exception:  # an optional helper: without it nothing on the field is touchable
            self._legal = []
        quick = sj.get("mode") == "quick"
        # The hidden one is see-through but never disabled: a disabled widget
        # swallows every touch that lands on it (Kivy's rule), and the quick-mode
        # form's rows stick out of its squeezed box over the field.
        self.ids.play.opacity = 0 if quick else 1
        self.ids.play.disabled = quick
        self.ids.play.size_hint_y = 0.001 if quick else 1
        self.ids.form.opacity = 1 if quick else 0
        self.ids.form.disabled = False
        self.ids.form.size_hint_y = 1 if quick else 0.001
        # In board mode the form's Results button is hidden with no width (so it takes no touch).
        self.ids.results.width = theme.touch_size() * 2.4 if quick else 0
        styles = {}
        for name in session.players():
            sw, shape = app.player_style(name)
            styles[name] = (sw.rgba, shape)
        if quick:
            self._draw_form(session, styles)
            return
        field = self.ids.field
        field.styles = styles
        field.field = [p for p in (_pos(x) for x in sj.get("field", ())) if p is not None]
        field.stacks = {}
        for s in sj.get("stacks", ()):
            at = _pos(s.get("at"))
            if at is not None:
                field.stacks[at] = (s.get("player", ""), int(s.get("count", 0)))
        phase = sj.get("phase")
        heading, buttons = self._step(session, sj)
        self.ids.heading.text = heading
        again = [b for b in buttons if b[2][0] == "again"]
        buttons = [b for b in buttons if b[2][0] != "again"]
        self.ids.again.text = again[0][1] if again else ""
        self.ids.again.action = again[0][2] if again else None
        self.ids.again.opacity = 1 if again else 0
        self.ids.again.disabled = not again
        grid = self.ids.options
        grid.clear_widgets()
        previews = [b for b in buttons if b[0] == "preview"]
        # Previews two a row, tall enough to show the board; counts as many a
        # row as fit, so that 1 to 15 show without scrolling.
        touch_px = theme.touch_size()
        grid.cols = 2 if previews else max(2, int((grid.width + dp(4)) // (touch_px + dp(4))))
        grid.row_default_height = touch_px * 1.5 if previews else touch_px
        for b, (kind, text, action, extra) in zip(reuse(self._options, len(buttons), self._option_button), buttons, strict=True):
            b.text, b.action = text, action
            b.show(*extra) if kind == "preview" else b.show((), [])
            b.chosen = action[0] == "lie" and action[1] == self.option
            grid.add_widget(b)
        self._fit()
        pastures, herd = sj.get("pastures", {}), sj.get("largest_herd", {})
        out = set(sj.get("out", []))
        self.ids.summary.text = "" if phase != "play" and phase != "over" else "   ".join(
            f"{n}: {wording.count(pastures.get(n, 0), 'pasture')}, largest herd {herd.get(n, 0)}" + (" (out)" if n in out else "")
            for n in session.players()
        )

    def _option_button(self) -> Any:
        b = PlacementPreview(max_font=sp(18), min_font=sp(14))
        b.bind(on_release=self.choose_option)
        return b

    def _step(self, session: Session, sj: Mapping[str, Any]) -> tuple[str, list[tuple[str, str, Any, tuple[Any, ...]]]]:
        """What the side panel asks, and its buttons; sets what the field rings."""
        field = self.ids.field
        field.rings, field.targets, field.picked, field.preview = set(), set(), None, ()
        phase = sj.get("phase")
        who = session.prompt().player
        if phase == "build":
            by_anchor = touch.placements_by_anchor(self._legal)
            field.rings = set(by_anchor)
            field.targets = set(by_anchor)
            options = by_anchor.get(self.anchor, []) if self.anchor is not None else []
            if not options:
                self.anchor, self.option = None, None
                return f"{who}: touch a ringed place where the pasture board goes.", []
            field.picked = self.anchor
            if self.option is not None:
                field.preview = touch.placement_cells(session.state, self.option)
            buttons: list[tuple[str, str, Any, tuple[Any, ...]]] = [
                ("preview", "", ("lie", e), (touch.placement_cells(session.state, e), field.field)) for e in options
            ]
            if self.option is None:
                return f"Which way does the board lie? ({wording.count(len(options), 'way')} fit here)", buttons
            return "The board as shown on the field?", [*buttons, ("text", "Place it", ("place", None), ())]
        if phase == "start":
            field.targets = set(touch.start_pastures(self._legal))
            return f"{who}: touch an outlined pasture on the edge for your stack of 16.", []
        if phase == "play":
            ends = touch.slides(self._legal).ends
            picked = touch.picked(session.state)
            if picked is not None:
                self.source, self.dest = picked
            if self.source not in ends:
                self.source, self.dest = None, None
                field.targets = set(ends)
                return f"{who}: touch one of your stacks (outlined) to split it.", []
            field.picked = self.source
            field.targets = {self.source, *ends[self.source]}
            if self.dest is None:
                return "Now touch where the new stack stops (outlined).", [("text", "Another stack", ("again", None), ())]
            most = ends[self.source][self.dest]
            field.targets = {self.source, self.dest}
            counts = [("text", str(k), ("count", (self.source, self.dest, k, who)), ()) for k in range(1, most + 1)]
            return f"How many sheep go? (1 to {most})", [*counts, ("text", "Another move", ("again", None), ())]
        return "", []

    def _draw_form(self, session: Session, styles: Mapping[str, tuple[Any, str]]) -> None:
        rows = touch.results_to_enter(session.state, session.players())
        box = self.ids.rows
        ready = True
        for row, (name, entered) in zip(keep_children(box, len(rows), lambda: ResultRow(board=self)), rows, strict=True):
            rgba, shape = styles.get(name, (theme.TEXT, "circle"))
            row.ids.mark.rgba, row.ids.mark.shape = list(rgba), shape
            row.ids.name.text = name
            row.player = name
            value = list(entered) if entered is not None else self.figures.setdefault(name, [0, 0])
            row.ids.pastures.text = str(value[0]) if value[0] else "–"
            row.ids.herd.text = str(value[1]) if value[1] else "–"
            for key in ("p_minus", "p_plus", "h_minus", "h_plus"):
                row.ids[key].disabled = entered is not None
            if entered is None:
                row.ids.p_minus.disabled = value[0] <= 1
                row.ids.p_plus.disabled = value[0] >= touch.MOST_PASTURES
                row.ids.h_minus.disabled = value[1] <= 1
                row.ids.h_plus.disabled = not value[0] or value[1] >= value[0]
                ready = ready and value[0] >= 1 and 1 <= value[1] <= value[0]
        self.ids.results.disabled = not ready or not rows
        self.ids.form_heading.text = (
            "Set each player's pastures and largest herd with − and +, then touch Results."
        )


Board = BattleSheepBoard  # what ui.boards looks up
load_kv(__file__)
