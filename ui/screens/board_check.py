"""Check the board: a game's board data in plain words, corrected by touch, saved once.

Reached from Setup ("Check the board").  The data, its words and its rules are
the game's (``Game.board_check``: ``companion/games/<game>/board_check.py``);
this screen only draws the controls the check offers (``companion.board_check``:
notes, toggles, steppers, buttons, a squares picture, a hexes picture) and turns
touches into their corrections, knowing no game by name.  Save validates through
the game and writes the TOML profile the next new game's setup reads
(``calibration.board.save_check`` / ``setup_options``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from calibration import board
from companion.board_check import (
    BoardCheck,
    Cell,
    Control,
    Hexes,
    Note,
    Press,
    Refused,
    Squares,
    Stepper,
    Toggles,
)
from companion.errors import ConfigError, SetupError

from .. import theme
from ..widgets import FitButton, FitLabel, FitToggle, fan, load_kv

MEADOW = (0.35, 0.55, 0.3, 1)  # grass: the green the game pictures draw pastures in
SQRT3 = math.sqrt(3)
START = (0.62, 0.74, 0.5, 1)
PEN = (0.72, 0.55, 0.3, 1)


class SquaresPicture(Widget):
    """A :class:`~companion.board_check.Squares` picture: square places with one place of
    margin round them (where rings may offer a place), loops as closed lines with a dot
    where each starts and an arrowhead the way it walks, an arrow from a space to a target
    outlined beyond it; a touch names the place touched (row, column) to ``on_cell``."""

    def __init__(self, picture: Squares, cell: float, on_cell: Callable[[Cell], None], **kw: Any) -> None:
        self.picture, self.cell, self.on_cell = picture, cell, on_cell
        rows, cols = picture.size
        super().__init__(size_hint=(None, None), size=((cols + 2) * cell, (rows + 2) * cell), **kw)
        self.bind(pos=self.redraw, size=self.redraw)
        self.redraw()

    def corner(self, place: Cell) -> tuple[float, float]:
        """The bottom-left pixel of a place; row -1 and column -1 are the margin."""
        return self.x + (place[1] + 1) * self.cell, self.top - (place[0] + 2) * self.cell

    def centre(self, place: Cell) -> tuple[float, float]:
        x, y = self.corner(place)
        return x + self.cell / 2, y + self.cell / 2

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        self.on_cell((int((self.top - touch.y) // self.cell) - 1, int((touch.x - self.x) // self.cell) - 1))
        return True

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        c, pic = self.cell, self.picture
        starts = set(pic.starts)
        target = pic.arrow[1] if pic.arrow else None
        with self.canvas:
            for place in sorted({*pic.spaces, *starts}):
                x, y = self.corner(place)
                Color(*(START if place in starts else MEADOW))
                Rectangle(pos=(x, y), size=(c, c))
                Color(0, 0, 0, 1)
                Line(rectangle=(x, y, c, c), width=1)
                if place in starts:  # a sheep's place: a white dot
                    Color(1, 1, 1, 1)
                    Ellipse(pos=(x + c * 0.35, y + c * 0.35), size=(c * 0.3, c * 0.3))
                if pic.arrow and place == pic.arrow[0]:  # an arrow from the space to the target
                    self._arrow(self.centre(place), self.centre(pic.arrow[1]), theme.TEXT)
            if target:
                Color(*PEN)
                x, y = self.corner(target)
                Line(rectangle=(x + 3, y + 3, c - 6, c - 6), width=2.5)
            Color(*theme.MUTED)
            for place in pic.rings:
                Line(circle=(*self.centre(place), c * 0.3), width=1.2)
            for loop in pic.loops:
                shift = c * (-0.1 if loop.bold else 0.1)  # two loops on one space stay apart
                pts = [v for p in loop.cells for v in (self.centre(p)[0] + shift, self.centre(p)[1] - shift)]
                Color(*(theme.ALERT if loop.bold else theme.ACCENT))
                if len(pts) >= 4:
                    Line(points=pts, close=True, width=dp(3) if loop.bold else dp(1.5))
                if loop.cells:
                    dot = c * (0.34 if loop.bold else 0.26)
                    Ellipse(pos=(pts[0] - dot / 2, pts[1] - dot / 2), size=(dot, dot))
                if loop.towards is not None:  # which way it walks: towards the next space
                    end = self.centre(loop.towards)
                    self._arrow(
                        (pts[0], pts[1]), (end[0] + shift, end[1] - shift), theme.ALERT if loop.bold else theme.ACCENT
                    )

    def _arrow(self, a: tuple[float, float], b: tuple[float, float], rgba: Any) -> None:
        """A filled triangle halfway from a to b, pointing at b."""
        ang = math.atan2(b[1] - a[1], b[0] - a[0])
        mx, my, s = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2, self.cell * 0.22
        tip = (mx + s * math.cos(ang), my + s * math.sin(ang))
        left = (mx + s * math.cos(ang + 2.5), my + s * math.sin(ang + 2.5))
        right = (mx + s * math.cos(ang - 2.5), my + s * math.sin(ang - 2.5))
        verts, idx = fan([*tip, *left, *right], mx, my)
        Color(*rgba)
        Mesh(vertices=verts, indices=idx, mode="triangle_fan")


class HexesPicture(Widget):
    """A :class:`~companion.board_check.Hexes` picture: pointy-top hexagons at axial (q, r),
    the filled ones as grass with black edges, the other places of the area ringed;
    a touch names the nearest place to ``on_hex``.  Fixed in size (``hex_size`` from
    centre to corner), so no hexagon moves under a finger while the view is open."""

    def __init__(self, picture: Hexes, hex_size: float, on_hex: Callable[[tuple[int, int]], None], **kw: Any) -> None:
        self.picture, self.hex_size, self.on_hex = picture, hex_size, on_hex
        places = [*picture.area, *(h for h in picture.filled if h not in picture.area)]
        xs = [SQRT3 * (q + r / 2) for q, r in places]
        ys = [1.5 * r for _, r in places]
        self._left, self._low = min(xs), min(ys)
        w, h = (max(xs) - min(xs) + SQRT3) * hex_size, (max(ys) - min(ys) + 2) * hex_size
        super().__init__(size_hint=(None, None), size=(w, h), **kw)
        self.bind(pos=self.redraw, size=self.redraw)
        self.redraw()

    def hex_centre(self, h: tuple[int, int]) -> tuple[float, float]:
        """A place's centre, in the coordinates of this widget's pos (r grows downwards)."""
        q, r = h
        s = self.hex_size
        return (self.x + (SQRT3 * (q + r / 2) - self._left + SQRT3 / 2) * s, self.top - (1.5 * r - self._low + 1) * s)

    def _corners(self, h: tuple[int, int], scale: float) -> list[float]:
        cx, cy = self.hex_centre(h)
        s = self.hex_size * scale
        return [v for k in range(6) for v in (cx + s * math.cos(math.radians(60 * k - 30)),
                                               cy + s * math.sin(math.radians(60 * k - 30)))]

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        places = [*self.picture.area, *self.picture.filled]
        best = min(places, key=lambda h: math.dist(self.hex_centre(h), touch.pos))
        if math.dist(self.hex_centre(best), touch.pos) <= self.hex_size:
            self.on_hex(best)
        return True

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        filled = set(self.picture.filled)
        with self.canvas:
            Color(*theme.MUTED)
            for h in self.picture.area:
                if h not in filled:
                    Line(circle=(*self.hex_centre(h), self.hex_size * 0.6), width=1.2)
            for h in self.picture.filled:
                corners = self._corners(h, 0.95)
                verts, idx = fan(corners, *self.hex_centre(h))
                Color(*MEADOW)
                Mesh(vertices=verts, indices=idx, mode="triangle_fan")
                Color(0, 0, 0, 1)
                Line(points=[*corners, corners[0], corners[1]], width=1.2)


class BoardCheckScreen(Screen):
    bad = BooleanProperty(False)
    check: BoardCheck | None = None

    def prepare(self, game: str, players: int) -> None:
        self.check = board.open_check(game, players)
        self.ids.title.text = f"Check the board: {self.check.game.title} ({players} players)"
        where = "as checked at this table" if self.check.origin == "checked" else f"as {self.check.origin}"
        self._status(f"Showing the data {where}. Compare it with your board; touch to correct.", False)
        self._build()

    # -- building ---------------------------------------------------------------
    def _label(self, text: str, muted: bool = False, lines: int = 1) -> FitLabel:
        return FitLabel(
            text=text,
            size_hint_y=None,
            height=dp(26) * lines,
            max_font=sp(16),
            min_font=sp(9),
            color=theme.MUTED if muted else theme.TEXT,
        )

    def _grid(self, cols: int, count: int) -> GridLayout:
        rows = -(-count // cols)
        size = theme.touch_size()
        return GridLayout(cols=cols, spacing=dp(2), size_hint_y=None, height=rows * size + (rows - 1) * dp(2))

    def _build(self) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        assert self.check is not None
        for line in self.check.describe():
            rows.add_widget(self._label(line, lines=2 if len(line) > 70 else 1))
        self.toggles: dict[str, dict[Any, FitToggle]] = {}  # control key -> value -> its button
        self.pictures: dict[str, Widget] = {}  # control key -> its picture
        for control in self.check.controls():
            for widget in self._draw(control):
                rows.add_widget(widget)

    def _draw(self, control: Control) -> list[Widget]:
        """The widgets of one control, in order."""
        if isinstance(control, Note):
            return [self._label(control.text, muted=control.muted, lines=control.lines)]
        if isinstance(control, Toggles):
            return [self._toggles(control)]
        if isinstance(control, Stepper):
            return [self._stepper(control.label, control.change, control.value, control.key, control.redraw)]
        if isinstance(control, Press):
            return [self._press(control)]
        if isinstance(control, Squares):
            width = control.size[1] + 2
            cell = max(theme.touch_size(), min(dp(60), (self.width - dp(24)) / width if self.width > 100 else 0))
            picture: Widget = SquaresPicture(control, cell, lambda p, c=control: self._touch(lambda: c.touch(p)))
        else:
            assert isinstance(control, Hexes)
            size = theme.touch_size() * 0.7  # across a hex's flat sides: 1.2 touch sizes
            picture = HexesPicture(control, size, lambda h, c=control: self._touch(lambda: c.touch(h)))
        self.pictures[control.key] = picture
        out = [self._centred(picture)]
        if control.legend:
            out.append(self._label(control.legend, muted=True, lines=-(-len(control.legend) // 80)))
        return out

    def _cols(self) -> int:
        return max(4, int(self.width // (theme.touch_size() * 1.3))) if self.width > 100 else 8

    def _toggles(self, control: Toggles) -> GridLayout:
        """A grid of toggles; one of a choice (``one``) only changes what the view shows."""
        cols = control.cols or self._cols()
        grid = self._grid(cols, len(control.items))
        buttons = self.toggles[control.key] = {}
        for item in control.items:
            b = FitToggle(text=item.label, state="down" if item.on else "normal", max_font=sp(16))
            if control.one:
                b.group, b.allow_no_selection = f"board-check-{control.key}", False
            b.bind(on_release=lambda _b, v=item.value, c=control: self._touch(lambda: c.press(v), view=c.one))
            grid.add_widget(b)
            buttons[item.value] = b
        return grid

    def _stepper(self, label: str, change: Any, value: Any, key: str, redraw: bool = False) -> BoxLayout:
        """A fact in words with − / + beside it; ``redraw`` when a step changes a picture too."""
        row = BoxLayout(size_hint_y=None, height=theme.touch_size(), spacing=dp(4))
        text = FitLabel(text=f"{label}: {value}", max_font=sp(17))
        row.add_widget(text)
        for delta, sign in ((-1, "−"), (+1, "+")):
            b = FitButton(text=sign, size_hint_x=None, width=theme.touch_size() * 1.2)
            b.step_key = f"{key}{'+' if delta > 0 else '-'}"
            b.bind(on_release=lambda _b, d=delta: self._step(change, d, text, label, redraw))
            row.add_widget(b)
        return row

    def _press(self, control: Press) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=theme.touch_size(), spacing=dp(4))
        row.add_widget(FitLabel(text=control.label, max_font=sp(17)))
        b = FitButton(text=control.text, size_hint_x=None, width=theme.touch_size() * 2.4)
        b.step_key = control.key
        b.bind(on_release=lambda _b: self._touch(control.press))
        row.add_widget(b)
        return row

    def _step(self, change: Any, delta: int, text: FitLabel, label: str, redraw: bool = False) -> None:
        try:
            value = change(delta)
        except Refused as e:
            self._status(str(e), True)
            return
        if redraw:
            self._refresh_words()
        else:
            text.text = f"{label}: {value}"
            self._changed()

    def _touch(self, change: Callable[[], Any], view: bool = False) -> None:
        """A touch: the correction made and the view redrawn, or its refusal in one line
        with nothing changed; ``view``: it changed only what the view shows."""
        try:
            change()
        except Refused as e:
            self._status(str(e), True)
            return
        if view:
            self._build()
        else:
            self._refresh_words()

    def _centred(self, picture: Widget) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=picture.height)
        row.add_widget(Widget())
        row.add_widget(picture)
        row.add_widget(Widget())
        return row

    def _refresh_words(self) -> None:
        y = self.ids.scroll.scroll_y
        self._build()
        self.ids.scroll.scroll_y = y
        self._changed()

    def _changed(self) -> None:
        error = self.check.check_error()
        if error:
            self._status(f"Not valid yet: {error}", True)
        else:
            self._status("Changed, not saved: touch Save the board to keep it for new games.", False)

    def _status(self, text: str, bad: bool) -> None:
        self.bad = bad
        self.ids.status.text = text

    # -- the nav bar ----------------------------------------------------------------
    def reset(self) -> None:
        self.check.reset()
        self._build()
        self._status("The shipped data: touch Save the board to use it again.", False)

    def save(self) -> bool:
        try:
            paths = board.save_check(self.check)
        except (SetupError, ConfigError) as e:
            self._status(f"Not saved: {self.check.check_error() or e}", True)
            return False
        except OSError as e:
            self._status(f"Not saved: {e}", True)
            return False
        self._status(f"Saved in {paths[0].parent}: new games use this board.", False)
        return True

    def leave(self) -> None:
        app = App.get_running_app()
        setup = app.root.get_screen("setup")
        app.go("setup")
        setup.refresh_board()


load_kv(__file__)
