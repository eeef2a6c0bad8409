"""Shear Panic: the flock as it lies on the table, the command menu, the time track.

The flock is drawn from above with the table's north at the top of the
screen: the engine keeps the flock in its own frame (front = +y, the way the
heads point) and ``facing`` says where that front points, so the picture
turns the flock by ``facing`` and never mirrors it (the old picture drew
y = 0 at the top, a mirror image of the table).  Each sheep shows its colour,
its colour's initial and a notch on the side its head points to; the front
side is labelled with who stands there (Roger, the Shearer, or just "front").

A turn by touch: a sheep, then a tile of the player's command menu (big
buttons, used ones greyed), then an arrow drawn on the flock; a tile that
takes no sheep (Alignment, Ewe Turn) shows its arrows on the flock's sides.
A panic's Lamb Push is a sheep and an arrow.  What may be touched, what each
touch means and every word shown come from the game
(``companion.games.shear_panic.words``).  Every scoring is announced in the
green strip (and in the Log).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line, Mesh, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.events import Event, Source, thaw
from companion.games.shear_panic import ShearPanic, words
from companion.games.shear_panic.flock import DIRECTIONS
from companion.session import Session

from .. import theme
from ..widgets import fan, fans_mesh, load_kv, reuse, shape_points
from .base import SetupSpec, Taps, chosen_button_class

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
FIELD_WORDS = {"teammates": "Teammates' field", "roger": "Roger's field", "black-sheep": "Black sheep field", "shearing": "Shearing field"}
BAR_SHARE = 0.62  # of the track's height for the bar; the score markers go under it
ACCENT_RGB = theme.ACCENT[:3]
Pos = tuple[int, int]

# The flock's own frame (x right, y front) turned onto the table, screen up = north.
_TURN: dict[str, Any] = {
    "north": lambda x, y: (x, y),
    "east": lambda x, y: (y, -x),
    "south": lambda x, y: (-x, -y),
    "west": lambda x, y: (-y, x),
}


def on_table(facing: str, x: int, y: int) -> Pos:
    """Where the flock-frame point (x, y) lies on the table, screen up = north."""
    return _TURN.get(facing, _TURN["north"])(x, y)


class TrackView(Widget):
    """The time track as one bar across the picture (F38: the serpentine of
    57 small squares could not be read at arm's length): each field shaded,
    the time passed filled up to the counter (a white frame), panic spaces as
    orange diamonds, gates as white bars, pens framed, pictures ringed; each
    player's score marker in their colour and shape under it.  The words go
    in the label above it (``progress_text``)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.sj: Mapping[str, Any] = {}
        self.styles: dict[str, tuple[Any, str]] = {}
        self.bind(pos=self.redraw, size=self.redraw)

    def bar_height(self) -> float:
        return self.height * BAR_SHARE

    def cell(self, space: int, n: int) -> tuple[float, float, float, float]:
        """(x, y, width, height) of a space on the bar."""
        w = self.width / (n + 1)
        h = self.bar_height()
        return self.x + space * w, self.top - h, w, h

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        track = self.sj.get("track") or {}
        n = int(track.get("spaces", 0))
        if n <= 0 or self.width < 4:
            return
        fields = track.get("fields", {})
        panic = set(track.get("panic", ()))
        gates = set((track.get("gates") or {}).values())
        pens = set((track.get("pens") or {}).values())
        pictures = set((track.get("pictures") or {}).values())
        counter = min(int(self.sj.get("time_counter", 0)), n)
        # Spaces of one shade in one mesh, the panic diamonds and the gates in
        # one each: one instruction per space was some 150 vertex buffers,
        # remade at every event (ui.widgets.fans_mesh).
        shades: dict[tuple[float, ...], list[tuple[list[float], float, float]]] = {}
        diamonds: list[tuple[list[float], float, float]] = []
        bars: list[tuple[list[float], float, float]] = []
        for space in range(n + 1):
            x, y, w, h = self.cell(space, n)
            shade = next((FIELD_SHADE.get(f, 0.3) for f, (a, b) in fields.items() if a <= space <= b), 0.18)
            # Time passed: the field's shade tinted with the accent, so the fill reads from afar.
            rgb = (shade * 0.5 + ACCENT_RGB[0] * 0.5, shade * 0.5 + ACCENT_RGB[1] * 0.5, shade * 0.5 + ACCENT_RGB[2] * 0.5) \
                if space <= counter else (shade, shade, shade + 0.04)
            shades.setdefault(rgb, []).append(_box(x, y + 1, w, h - 2))
            cx, cy = x + w / 2, y + h / 2
            if space in panic:
                diamonds.append((shape_points("diamond", cx, cy, min(w * 0.5, h * 0.3)), cx, cy))
            if space in gates:
                bars.append(_box(x + w - 2, y, 3, h))
        with self.canvas:
            for rgb, boxes in shades.items():
                Color(*rgb, 1)
                Mesh(**fans_mesh(boxes), mode="triangles")
            if diamonds:
                Color(*theme.WARN)
                Mesh(**fans_mesh(diamonds), mode="triangles")
            Color(*theme.TEXT)
            if bars:
                Mesh(**fans_mesh(bars), mode="triangles")
            for space in sorted(pens):  # a few: drawn wide
                x, y, w, h = self.cell(space, n)
                Line(rectangle=(x + 1, y + 2, w - 2, h - 4), width=1.4)
            Color(*theme.ACCENT)
            for space in sorted(pictures):
                x, y, w, h = self.cell(space, n)
                Line(circle=(x + w / 2, y + h / 2, min(w, h) * 0.45), width=1.4)
            x, y, w, h = self.cell(counter, n)
            Color(1, 1, 1, 1)
            Line(rectangle=(x - 1, y - 1, w + 2, h + 2), width=2.2)
            # Score markers under the bar, side by side where they share a space.
            r = min(self.height - self.bar_height(), dp(16)) / 2
            at: dict[int, int] = {}
            for name, space in self.sj.get("markers", {}).items():
                rgba, shape = self.styles.get(name, (theme.TEXT, "circle"))
                space = min(int(space), n)
                k = at[space] = at.get(space, -1) + 1
                mx, _my, mw, _mh = self.cell(space, n)
                cx = min(max(mx + mw / 2 + k * 2.1 * r, self.x + r), self.right - r)
                cy = self.y + r
                pts = shape_points(shape, cx, cy, r * 0.95)
                verts, idx = fan(pts, cx, cy)
                Color(*rgba)
                Mesh(vertices=verts, indices=idx, mode="triangle_fan")
                Color(0, 0, 0, 1)
                Line(points=[*pts, pts[0], pts[1]], width=1)


def progress_text(sj: Mapping[str, Any]) -> str:
    """The bar's words: the time and the field the flock is in ("Time 21 of 56 · Roger's field")."""
    t = sj.get("time_counter", 0)
    n = (sj.get("track") or {}).get("spaces", "?")
    field = FIELD_WORDS.get(str(sj.get("field")), str(sj.get("field")))
    return f"Time {t} of {n} · {field}"


def _box(x: float, y: float, w: float, h: float) -> tuple[list[float], float, float]:
    """A rectangle as an outline and its centre, for ``fans_mesh``."""
    return [x, y, x + w, y, x + w, y + h, x, y + h], x + w / 2, y + h / 2


def _arrow(cx: float, cy: float, dx: float, dy: float, r: float) -> tuple[list[float], float, float]:
    """A filled arrow head pointing along (dx, dy), for ``fans_mesh``."""
    n = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / n, dy / n
    px, py = -uy, ux
    tip = (cx + ux * r, cy + uy * r)
    left = (cx - ux * r * 0.6 + px * r * 0.8, cy - uy * r * 0.6 + py * r * 0.8)
    right = (cx - ux * r * 0.6 - px * r * 0.8, cy - uy * r * 0.6 - py * r * 0.8)
    return [*tip, *left, cx - ux * r * 0.2, cy - uy * r * 0.2, *right], cx, cy


class FlockView(Taps, Widget):
    """The flock on the table, seen from above (north up), with a ring of empty
    cells around it where arrows can point out of the flock."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.flock: dict[Pos, str] = {}  # flock frame -> colour
        self.facing = "north"
        self.selected: Pos | None = None
        self.arrows: dict[Pos | str, str] = {}  # cell (flock frame) or side -> direction name
        self.on_sheep: Any = None
        self.on_arrow: Any = None
        self.cell = 0.0
        self._origin = (0.0, 0.0)
        self._span = (0, 0, 0, 0)
        self._letters: list[Label] = []
        self.bind(pos=self.redraw, size=self.redraw)

    # -- geometry ---------------------------------------------------------------
    def _table_cells(self) -> list[Pos]:
        return [on_table(self.facing, x, y) for x, y in self.flock]

    def fit(self, width: float, height: float, least: float = 0.0) -> None:
        """Fill the view; cells never under ``least`` (a touch target while the
        flock is touched: then a wide flock scrolls)."""
        cells = self._table_cells()
        if not cells:
            self.size = (width, height)
            return
        xs, ys = [c[0] for c in cells], [c[1] for c in cells]
        cols, rows = max(xs) - min(xs) + 3, max(ys) - min(ys) + 3  # a ring of empty cells round the flock
        self.cell = max(least, min(width / cols, (height - self.band()) / rows))
        need = (cols * self.cell, rows * self.cell + self.band())
        new = (max(width, need[0]), max(height, need[1]))
        if tuple(self.size) != new:
            self.size = new
        else:
            self.redraw()

    def band(self) -> float:
        return 0.0

    def _place(self) -> None:
        cells = self._table_cells() or [(0, 0)]
        xs, ys = [c[0] for c in cells], [c[1] for c in cells]
        self._span = (min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1)
        cols, rows = self._span[1] - self._span[0] + 1, self._span[3] - self._span[2] + 1
        w, h = cols * self.cell, rows * self.cell
        top_band = self.band() if self.facing == "north" else 0.0
        bottom_band = self.band() if self.facing == "south" else 0.0
        ox = self.x + (self.width - w) / 2
        oy = self.y + bottom_band + (self.height - top_band - bottom_band - h) / 2
        self._origin = (ox, oy)

    def box(self, x: int, y: int) -> tuple[float, float]:
        """Bottom-left pixel of the flock-frame cell (x, y)."""
        tx, ty = on_table(self.facing, x, y)
        ox, oy = self._origin
        return ox + (tx - self._span[0]) * self.cell, oy + (ty - self._span[2]) * self.cell

    def _side_cell(self, side: str) -> Pos:
        """The empty cell in the middle of one side of the flock (flock frame)."""
        if not self.flock:
            return (0, 0)
        xs = [p[0] for p in self.flock]
        ys = [p[1] for p in self.flock]
        mx, my = (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
        return {
            "front": (mx, max(ys) + 1), "back": (mx, min(ys) - 1),
            "left": (min(xs) - 1, my), "right": (max(xs) + 1, my),
        }[side]  # fmt: skip

    def arrow_cells(self) -> dict[Pos, str]:
        out: dict[Pos, str] = {}
        for where, way in self.arrows.items():
            if isinstance(where, str):
                out[self._side_cell(where)] = way
            else:
                out[where] = way
        return out

    def cell_at(self, px: float, py: float) -> Pos | None:
        """The flock-frame cell under a point, if it is inside the drawn grid."""
        if self.cell <= 0:
            return None
        for p in [*self.arrow_cells(), *self.flock]:
            bx, by = self.box(*p)
            if bx <= px < bx + self.cell and by <= py < by + self.cell:
                return p
        return None

    # -- touches ------------------------------------------------------------------
    def target_at(self, x: float, y: float) -> Pos | None:
        return self.cell_at(x, y)

    def tapped(self, target: Pos) -> None:
        way = self.arrow_cells().get(target)
        if way is not None and self.on_arrow is not None:
            self.on_arrow(way)
        elif target in self.flock and self.on_sheep is not None:
            self.on_sheep(target)

    # -- drawing ------------------------------------------------------------------
    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        self.clear_widgets()
        if self.cell <= 0:
            return
        self._place()
        c = self.cell
        pad = max(2.0, c * 0.05)
        bodies: dict[str, list[tuple[list[float], float, float]]] = {}
        heads: list[tuple[list[float], float, float]] = []
        fx, fy = DIRECTIONS["front"]
        hx, hy = on_table(self.facing, fx, fy)
        for (x, y), colour in self.flock.items():
            bx, by = self.box(x, y)
            bodies.setdefault(colour, []).append(_box(bx + pad, by + pad, c - 2 * pad, c - 2 * pad))
            cx, cy = bx + c / 2, by + c / 2
            heads.append(_arrow(cx + hx * c * 0.3, cy + hy * c * 0.3, hx, hy, c * 0.12))
        arrows = [
            _arrow(*(lambda b: (b[0] + c / 2, b[1] + c / 2))(self.box(*cell)), *on_table(self.facing, *DIRECTIONS[way]), c * 0.3)
            if way in DIRECTIONS
            else _arrow(*(lambda b: (b[0] + c / 2, b[1] + c / 2))(self.box(*cell)), *self._turn_way(way), c * 0.3)
            for cell, way in self.arrow_cells().items()
        ]
        with self.canvas:
            Color(0.2, 0.34, 0.2, 1)  # the field the flock stands on
            ox, oy = self._origin
            cols, rows = self._span[1] - self._span[0] + 1, self._span[3] - self._span[2] + 1
            Rectangle(pos=(ox, oy), size=(cols * c, rows * c))
            # The front side of the flock (where the heads point) as a bar along the ring.
            Color(*theme.WARN)
            bar = {
                (0, 1): (ox, oy + rows * c - dp(5), cols * c, dp(5)),
                (0, -1): (ox, oy, cols * c, dp(5)),
                (1, 0): (ox + cols * c - dp(5), oy, dp(5), rows * c),
                (-1, 0): (ox, oy, dp(5), rows * c),
            }[(hx, hy)]
            Rectangle(pos=bar[:2], size=bar[2:])
            for colour, boxes in bodies.items():
                Color(*SHEEP_RGBA.get(colour, theme.PANEL_LIGHT))
                Mesh(**fans_mesh(boxes), mode="triangles")
            Color(1, 1, 1, 0.85)
            Mesh(**fans_mesh(heads), mode="triangles")
            if self.selected in self.flock:
                bx, by = self.box(*self.selected)
                Color(*theme.TEXT)  # the touched sheep keeps its colour, with a thick outline
                Line(rectangle=(bx + 1, by + 1, c - 2, c - 2), width=3)
                Color(0, 0, 0, 1)
                Line(rectangle=(bx + 4, by + 4, c - 8, c - 8), width=1.2)
            if arrows:
                Color(*theme.ACCENT)
                Mesh(**fans_mesh(arrows), mode="triangles")
                Color(*theme.TEXT)
                for cell in self.arrow_cells():
                    bx, by = self.box(*cell)
                    Line(rectangle=(bx + 3, by + 3, c - 6, c - 6), width=1.2)
        for label, ((x, y), colour) in zip(reuse(self._letters, len(self.flock), self._letter), self.flock.items(), strict=True):
            bx, by = self.box(x, y)
            label.text = SHEEP_LETTER.get(colour, "?")
            label.color = (0, 0, 0, 1) if colour in ("yellow", "white") else (1, 1, 1, 1)
            label.font_size = max(sp(14), c * 0.36)
            side = min(c - 4, max(c * 0.5, dp(20)))
            label.size = (side, side)
            label.center = (bx + c / 2 - hx * c * 0.12, by + c / 2 - hy * c * 0.12)
            self.add_widget(label)
        self.show_letters()

    def show_letters(self, *_: Any) -> None:
        """Letters only where wholly in sight: a letter half scrolled away would be cut."""
        view = self.parent
        if view is None or not hasattr(view, "scroll_x"):
            return
        x0, y0 = view.to_window(view.x, view.y)
        x1, y1 = view.to_window(view.right, view.top)
        for label in self.children:
            lx0, ly0 = label.to_window(label.x, label.y)
            lx1, ly1 = label.to_window(label.right, label.top)
            label.opacity = 1 if lx0 >= x0 - 1 and ly0 >= y0 - 1 and lx1 <= x1 + 1 and ly1 <= y1 + 1 else 0

    def _turn_way(self, way: str) -> Pos:
        """An Ewe Turn's arrow: the flock's left or right, on the table."""
        return on_table(self.facing, -1 if way == "left" else 1, 0)

    @staticmethod
    def _letter() -> Label:
        return Label(bold=True, size_hint=(None, None), halign="center", valign="middle")


class ShearPanicBoard(BoxLayout):
    _shown: Any = None
    flock_share = NumericProperty(0.46)  # of the width, side by side; more while the menu is not shown
    handles = ShearPanic.touch_events  # what the game says its picture takes by touch (Game.touch_events)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.selected: Pos | None = None  # the sheep touched
        self.tile: str | None = None  # the tile touched
        self.session: Session | None = None
        self._touches: words.Touches = {}
        self._tiles: list[Any] = []
        flock = self.ids.flock
        flock.on_sheep = self.select
        flock.on_arrow = self.arrow
        self.ids.flock_scroll.bind(size=self._fit, scroll_x=flock.show_letters, scroll_y=flock.show_letters)
        self.ids.menu.bind(width=lambda *_: self._refresh())

    def _fit(self, *_: Any) -> None:
        view = self.ids.flock_scroll
        self.ids.flock.fit(view.width, view.height, theme.touch_size() if self._touches else dp(30))

    def _refresh(self) -> None:
        self._shown = None
        if self.session is not None:
            self.update(self.session)

    def touch_offers(self, session: Session) -> list[Event]:
        """Every event a finger can make on the picture now: a sheep (if the
        tile takes one), a tile (if it is a menu action), an arrow."""
        try:
            legal = session.game.legal_actions(session.state)
        except Exception:
            return []
        return [e for by_sheep in words.touches(session.state, legal).values() for ways in by_sheep.values() for e in ways.values()]

    # -- what is held while the Table shows another view ---------------------
    def held(self) -> Any:
        return (self.selected, self.tile)

    def hold(self, value: Any) -> None:
        self.selected, self.tile = value

    # -- touches ------------------------------------------------------------------
    def select(self, pos: Pos) -> None:
        self.selected = None if self.selected == pos else pos
        if self.tile is not None and self.selected is not None and self.selected not in self._touches.get(self.tile, {}):
            self.tile = None  # that tile cannot move this sheep: choose again
        self._refresh()

    def choose_tile(self, button: Any) -> None:
        self.tile = None if self.tile == button.tile else button.tile
        self._refresh()

    def arrow(self, way: str) -> None:
        event = self._ways().get(way)
        if event is None:
            return
        self.selected, self.tile = None, None
        App.get_running_app().submit(Event(event.type, thaw(event.payload), event.player, time.time(), Source.TOUCH))

    def _panic(self) -> bool:
        return None in self._touches  # a panic's (or the truck's) Lamb Push: no tile

    def _ways(self) -> dict[str, Event]:
        """The arrows the flock offers now: direction -> the event it makes."""
        key = None if self._panic() else self.tile
        if key is None and not self._panic():
            return {}
        by_sheep = self._touches.get(key, {})
        if None in by_sheep:  # a tile that takes no sheep
            return dict(by_sheep[None])
        return dict(by_sheep.get(self.selected, {})) if self.selected is not None else {}

    # -- drawing --------------------------------------------------------------------
    def update(self, session: Session) -> None:
        app = App.get_running_app()
        key = (id(session), len(session.log), app.palette, self.selected, self.tile)
        if key == self._shown:
            return
        if self._shown is not None and self._shown[:2] != key[:2]:
            self.selected, self.tile = None, None  # the flock changed: choose again
            key = (*key[:3], None, None)
        self._shown = key
        self.session = session
        state = session.state
        sj = session.game.state_json(state)
        try:
            legal = session.game.legal_actions(state)
        except Exception:  # an optional helper: without it nothing on the flock is touchable
            legal = []
        self._touches = words.touches(state, legal)
        colours = sj.get("colours", {})
        track = self.ids.track
        styles = {}
        for name in session.players():
            sw, shape = app.player_style(name)
            styles[name] = (SHEEP_RGBA.get(colours.get(name, ""), sw.rgba), shape)
        if (sj, styles) != (track.sj, track.styles):  # not on a touched sheep alone
            track.sj, track.styles = sj, styles
            track.redraw()
        self._status(session, sj)
        self._draw_menu(session)
        self._draw_flock(sj)

    def _status(self, session: Session, sj: Mapping[str, Any]) -> None:
        scores = sj.get("scores", {})
        colours = sj.get("colours", {})
        self.ids.progress.text = progress_text(sj)
        self.ids.status.text = " · ".join(f"{p} ({colours.get(p, '?')}) {scores.get(p, 0)}" for p in session.players())
        said = list(sj.get("announced", ()))
        news = self.ids.news
        self.ids.news_text.text = " ".join(said)
        news.height = dp(40) if said else 0
        news.opacity = 1 if said else 0

    def _draw_menu(self, session: Session) -> None:
        state = session.state
        box = self.ids.menu
        box.clear_widgets()
        phase = session.game.state_json(state).get("phase")
        heading = self.ids.heading
        if phase != "action":
            self.flock_share = 0.6
            if self._panic():
                colour = state.push_colour or "the"
                heading.text = (
                    f"Touch the {colour} sheep, then an arrow." if self.selected is None else "Now touch an arrow on the flock."
                )
            else:
                heading.text = ""
            return
        self.flock_share = 0.46
        tiles = words.menu(state)
        who = session.prompt().player
        if self.tile is None:
            heading.text = f"{who}: touch a sheep, then a tile" if self.selected is None else "Now touch a tile"
        else:
            heading.text = "Now touch an arrow on the flock" if self._ways() else "Now touch one of your sheep"
        box.cols = 4 if box.width >= 4 * dp(96) else 3
        for b, t in zip(reuse(self._tiles, len(tiles), self._tile_button), tiles, strict=True):
            b.tile = t.id
            b.text = t.name
            moves = self._touches.get(t.id, {})
            fits = not t.needs_sheep or self.selected is None or self.selected in moves
            b.disabled = t.used or not moves or not fits
            # The chosen tile lit (not the button's own "down" state, which the finger's release resets).
            b.chosen = self.tile == t.id
            box.add_widget(b)

    def _tile_button(self) -> Any:
        b = chosen_button_class()(max_font=sp(17), min_font=sp(14), halign="center")
        b.bind(on_release=self.choose_tile)
        return b

    def _draw_flock(self, sj: Mapping[str, Any]) -> None:
        view = self.ids.flock
        view.flock = {(s["x"], s["y"]): s["colour"] for s in sj.get("flock", [])}
        view.facing = str(sj.get("facing") or "north")
        roger, shearer = sj.get("roger") or {}, sj.get("shearer") or {}
        who = [w for w, there in (("Roger", roger.get("present")), ("Shearer", shearer.get("present"))) if there]
        way = {"north": "up", "east": "right", "south": "down", "west": "left"}.get(view.facing, "up")
        at_front = f" · {' and '.join(who)} there" if who else ""
        self.ids.front.text = f"Heads: {way}, orange edge{at_front}"  # the table's north is up
        view.selected = self.selected
        ways = self._ways()
        arrows: dict[Pos | str, str] = {}
        by_sheep = self._touches.get(None if self._panic() else self.tile, {})
        for way in ways:
            if None in by_sheep:  # Alignment: an arrow on that side; Ewe Turn: on the flock's left or right
                arrows[way if way in ("front", "back", "left", "right") else "left"] = way
            elif self.selected is not None:
                dx, dy = DIRECTIONS[way]
                arrows[(self.selected[0] + dx, self.selected[1] + dy)] = way
        view.arrows = arrows
        self._fit()


Board = ShearPanicBoard  # what ui.boards looks up
load_kv(__file__)
