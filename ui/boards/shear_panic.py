"""Shear Panic: the time track, every player's tiles, and the flock twin.

The track is drawn as rows of spaces (fields shaded, gates as bars, pens
boxed, panic spaces marked with a diamond, the Roger and Shearer pictures as
rings), with the time counter and every player's score marker (their shape,
so colour is not the only cue).  The flock twin is a grid of sheep buttons,
each with its colour's initial; touching a sheep lists the legal actions for
it (tile and direction) as buttons.  Legal actions come from the game
(``legal_actions``), so the app never decides what the rules allow.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line, Mesh
from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.events import Event, Source
from companion.session import Session

from .. import theme
from ..offers import PICTURE_HANDLES
from ..widgets import FitButton, FitLabel, fan, fans_mesh, load_kv, reuse, shape_points
from . import SetupSpec

SETUP = SetupSpec(key="colour", values=("red", "yellow", "blue", "green"))

SHEEP_RGBA: dict[str, tuple[float, float, float, float]] = {
    "red": (0.84, 0.16, 0.16, 1),
    "yellow": (0.93, 0.79, 0.25, 1),
    "blue": (0.16, 0.35, 0.85, 1),
    "green": (0.16, 0.62, 0.25, 1),
    "black": (0.08, 0.08, 0.08, 1),
    "white": (0.95, 0.95, 0.95, 1),
}
SHEEP_LETTER = {"red": "R", "yellow": "Y", "blue": "B", "green": "G", "black": "K", "white": "W"}
FIELD_SHADE = {"teammates": 0.30, "roger": 0.38, "black-sheep": 0.24, "shearing": 0.44}
PER_ROW = 19  # spaces per drawn row of the track


def sheep_at(event: Event) -> tuple[int, int] | None:
    pos = event.get("sheep")
    if isinstance(pos, Sequence) and len(pos) == 2:
        return int(pos[0]), int(pos[1])
    return None


def action_label(event: Event) -> str:
    """A legal event as a button label: the tile and where it goes."""
    p = event.payload
    what = str(p.get("tile") or event.type)
    where = p.get("direction") or p.get("side") or ""
    slide = f", slide {p['slide']}" if p.get("slide") else ""
    return f"{what}: {where}{slide}".strip(": ")


class TrackView(Widget):
    """The time track, drawn from ``state_json["track"]`` and the markers."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.sj: Mapping[str, Any] = {}
        self.styles: dict[str, tuple[Any, str]] = {}
        self.bind(pos=self.redraw, size=self.redraw)

    def cell(self, space: int, n: int) -> tuple[float, float, float]:
        rows = (n + PER_ROW) // PER_ROW
        size = min(self.width / PER_ROW, self.height / max(rows, 1))
        row, col = divmod(space, PER_ROW)
        if row % 2 == 1:  # a serpentine, as tracks on boards run
            col = PER_ROW - 1 - col
        x = self.x + col * size
        y = self.top - (row + 1) * size
        return x, y, size

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        track = self.sj.get("track") or {}
        n = int(track.get("spaces", 0))
        if n <= 0:
            return
        fields = track.get("fields", {})
        panic = set(track.get("panic", ()))
        gates = set((track.get("gates") or {}).values())
        pens = set((track.get("pens") or {}).values())
        pictures = set((track.get("pictures") or {}).values())
        # Spaces of one shade in one mesh, the panic diamonds and the gates in
        # one each: one instruction per space was some 150 vertex buffers,
        # remade at every event (ui.widgets.fans_mesh).
        shades: dict[float, list[tuple[list[float], float, float]]] = {}
        diamonds: list[tuple[list[float], float, float]] = []
        bars: list[tuple[list[float], float, float]] = []
        for space in range(n + 1):
            x, y, s = self.cell(space, n)
            shade = next((FIELD_SHADE.get(f, 0.3) for f, (a, b) in fields.items() if a <= space <= b), 0.18)
            shades.setdefault(shade, []).append(_box(x + 1, y + 1, s - 2, s - 2))
            if space in panic:
                cx, cy = x + s / 2, y + s / 2
                diamonds.append((shape_points("diamond", cx, cy, s * 0.3), cx, cy))
            if space in gates:
                bars.append(_box(x, y, 3, s))
        with self.canvas:
            for shade, boxes in shades.items():
                Color(shade, shade, shade + 0.04, 1)
                Mesh(**fans_mesh(boxes), mode="triangles")
            if diamonds:
                Color(*theme.WARN)
                Mesh(**fans_mesh(diamonds), mode="triangles")
            Color(*theme.TEXT)
            if bars:
                Mesh(**fans_mesh(bars), mode="triangles")
            for space in sorted(pens):  # a few: drawn wide
                x, y, s = self.cell(space, n)
                Line(rectangle=(x + 2, y + 2, s - 4, s - 4), width=1.6)
            Color(*theme.ACCENT)
            for space in sorted(pictures):
                x, y, s = self.cell(space, n)
                Line(circle=(x + s / 2, y + s / 2, s * 0.4), width=1.4)
            counter = int(self.sj.get("time_counter", 0))
            x, y, s = self.cell(min(counter, n), n)
            Color(1, 1, 1, 1)
            Line(rectangle=(x, y, s, s), width=2.2)
            markers = self.sj.get("markers", {})
            for i, (name, space) in enumerate(markers.items()):
                rgba, shape = self.styles.get(name, (theme.TEXT, "circle"))
                x, y, s = self.cell(min(int(space), n), n)
                cx = x + s * (0.3 + 0.4 * (i % 2))
                cy = y + s * (0.3 + 0.4 * (i // 2 % 2))
                pts = shape_points(shape, cx, cy, s * 0.2)
                verts, idx = fan(pts, cx, cy)
                Color(*rgba)
                Mesh(vertices=verts, indices=idx, mode="triangle_fan")
                Color(0, 0, 0, 1)
                Line(points=[*pts, pts[0], pts[1]], width=1)


def _box(x: float, y: float, w: float, h: float) -> tuple[list[float], float, float]:
    """A rectangle as an outline and its centre, for ``fans_mesh``."""
    return [x, y, x + w, y, x + w, y + h, x, y + h], x + w / 2, y + h / 2


class ShearPanicBoard(BoxLayout):
    _shown: Any = None
    handles = PICTURE_HANDLES["shear-panic"]  # entered on the picture, not from a list

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.selected: tuple[int, int] | None = None
        self.session: Session | None = None
        self._sj: Mapping[str, Any] = {}
        # Reused from one redraw to the next (see ui.widgets.reuse).
        self._sheep: list[Any] = []
        self._gaps: list[Any] = []
        self._moves: list[Any] = []
        self.ids.flock_scroll.bind(size=lambda *_: self._draw_flock(self._sj))

    def update(self, session: Session) -> None:
        app = App.get_running_app()
        key = (id(session), len(session.log), app.palette, self.selected)
        if key == self._shown:
            return
        if self._shown is not None and self._shown[:2] != key[:2]:
            self.selected = None  # the flock changed: a new choice of sheep
            key = (*key[:3], None)
        self._shown = key
        self.session = session
        sj = session.game.state_json(session.state)
        colours = sj.get("colours", {})
        track = self.ids.track
        styles = {}
        for name in session.players():
            sw, shape = app.player_style(name)
            styles[name] = (SHEEP_RGBA.get(colours.get(name, ""), sw.rgba), shape)
        if (sj, styles) != (track.sj, track.styles):  # not on a touched sheep alone
            track.sj, track.styles = sj, styles
            track.redraw()
        roger = sj.get("roger") or {}
        shearer = sj.get("shearer") or {}
        self.ids.status.text = (
            f"Time {sj.get('time_counter', 0)} · field {sj.get('field', '?')} · facing {sj.get('facing', '?')}"
            f" · Roger {'in the flock, ' + str(roger.get('side')) if roger.get('present') else 'not out'}"
            f" · Shearer {'in the flock, ' + str(shearer.get('side')) if shearer.get('present') else 'not out'}"
        )
        scores = sj.get("scores", {})
        tiles = sj.get("tiles_left", {})
        lines = [f"{n} ({colours.get(n, '?')}): {scores.get(n, 0)} pts, {len(tiles.get(n, ()))} tiles left" for n in session.players()]
        self.ids.players.text = "\n".join(lines)
        self._draw_flock(sj)
        self._draw_actions(session)

    # -- the flock twin ------------------------------------------------------
    def _draw_flock(self, sj: Mapping[str, Any]) -> None:
        self._sj = sj
        grid = self.ids.flock
        grid.clear_widgets()
        flock = sj.get("flock", [])
        if not flock:
            grid.cols = 1
            grid.size = self.ids.flock_scroll.size
            grid.add_widget(FitLabel(text="No sheep left in the field.", halign="center"))
            return
        xs = [s["x"] for s in flock]
        ys = [s["y"] for s in flock]
        at = {(s["x"], s["y"]): s["colour"] for s in flock}
        grid.cols = max(xs) - min(xs) + 1
        rows = max(ys) - min(ys) + 1
        # Square cells as large as fit, never under a touch target: a long
        # split flock scrolls rather than shrinking its sheep below 9 mm.
        view = self.ids.flock_scroll
        cell = max(theme.touch_size(), min(view.width / grid.cols, view.height / rows))
        grid.size = (cell * grid.cols, cell * rows)
        # Row y=0 is the front of the flock: drawn at the top, like the rows in state_json.
        cells = [(x, y) for y in range(min(ys), max(ys) + 1) for x in range(min(xs), max(xs) + 1)]
        sheep = iter(reuse(self._sheep, len(at), self._sheep_button))
        gaps = iter(reuse(self._gaps, len(cells) - len(at), Widget))
        for x, y in cells:
            colour = at.get((x, y))
            if colour is None:
                grid.add_widget(next(gaps))
                continue
            b = next(sheep)
            b.text = SHEEP_LETTER.get(colour, "?") + ("*" if self.selected == (x, y) else "")
            b.background_color = SHEEP_RGBA.get(colour, theme.PANEL_LIGHT)
            b.color = (0, 0, 0, 1) if colour in ("yellow", "white") else (1, 1, 1, 1)
            b.sheep = (x, y)
            b.colour = colour
            grid.add_widget(b)

    def _sheep_button(self) -> Any:
        b = FitButton(max_font=sp(26), bold=True)
        b.bind(on_release=lambda btn: self.select(btn.sheep))
        return b

    def held(self) -> Any:
        return self.selected

    def hold(self, value: Any) -> None:
        self.selected = value

    def select(self, pos: tuple[int, int]) -> None:
        self.selected = None if self.selected == pos else pos
        if self.session is not None:
            self.update(self.session)

    # -- actions for the touched sheep ---------------------------------------
    def _draw_actions(self, session: Session) -> None:
        box = self.ids.actions
        box.clear_widgets()
        try:
            legal = session.game.legal_actions(session.state)
        except Exception as e:  # a game's optional helper failing must not break the table
            self.ids.actions_heading.text = f"Legal actions unavailable: {e}"
            return
        legal = [e for e in legal if e.type != "roll"]  # dice come from the dice entry
        if self.selected is not None:
            mine = [e for e in legal if sheep_at(e) == self.selected]
            x, y = self.selected
            self.ids.actions_heading.text = f"Sheep at {x},{y}: {len(mine)} legal moves" if mine else f"No legal move for the sheep at {x},{y}"
        else:
            mine = [e for e in legal if sheep_at(e) is None]
            needs_sheep = any(sheep_at(e) is not None for e in legal)
            self.ids.actions_heading.text = "Touch a sheep, then a move" if needs_sheep else ("Choose:" if mine else "")
        for b, e in zip(reuse(self._moves, len(mine), self._move_button), mine, strict=True):
            b.text = action_label(e)
            b.event = e
            box.add_widget(b)

    def _move_button(self) -> Any:
        b = FitButton(max_font=sp(16))
        b.bind(on_release=lambda btn: self.act(btn.event))
        return b

    def act(self, event: Event) -> None:
        app = App.get_running_app()
        self.selected = None
        app.submit(Event(event.type, dict(event.payload), event.player, time.time(), Source.TOUCH))


Board = ShearPanicBoard  # what ui.boards looks up
load_kv(__file__)
