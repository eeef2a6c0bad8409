"""Check the board: a game's board data in plain words, corrected by touch, saved once.

Reached from Setup ("Check the board").  The data and its rules live in
``ui.board_check.BoardCheck``; this screen only shows it and turns touches
into its corrections.  Save validates through the game and writes the TOML
profile the next new game's setup reads (``calibration.board.setup_options``).
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

from companion import registry
from companion.errors import ConfigError, SetupError

from .. import theme
from ..board_check import BoardCheck, Cell, Refused, _words
from ..boards.battle_sheep import SQRT3, HexField
from ..widgets import FitButton, FitLabel, FitToggle, fan, load_kv

MEADOW = (0.35, 0.55, 0.3, 1)  # the green of Battle Sheep's pastures, for the same grass
START = (0.62, 0.74, 0.5, 1)
PEN = (0.72, 0.55, 0.3, 1)
WOLF_MODES = {"big": "Big wolf's path", "little": "Little wolf's path", "exit": "Meadow exit"}


class MeadowPicture(Widget):
    """The Sheep Hop! meadow as squares, one place of margin round it (where the exit may
    go), the wolves' paths as closed lines with a dot where each starts; a touch names the
    place touched (row, column of ``meadow.rows``) to ``on_cell``."""

    def __init__(
        self,
        rows: list[str],
        wolves: list[dict[str, Any]],
        exits: list[Cell],
        pen: Cell | None,
        cell: float,
        on_cell: Callable[[Cell], None],
        **kw: Any,
    ) -> None:
        self.rows, self.wolves, self.exits, self.pen, self.cell, self.on_cell = rows, wolves, exits, pen, cell, on_cell
        width = max((len(r) for r in rows), default=0)
        super().__init__(size_hint=(None, None), size=((width + 2) * cell, (len(rows) + 2) * cell), **kw)
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
        c = self.cell
        with self.canvas:
            for r, row in enumerate(self.rows):
                for col, ch in enumerate(row):
                    if ch == " ":
                        continue
                    x, y = self.corner((r, col))
                    Color(*(START if ch == "S" else MEADOW))
                    Rectangle(pos=(x, y), size=(c, c))
                    Color(0, 0, 0, 1)
                    Line(rectangle=(x, y, c, c), width=1)
                    if ch == "S":  # a sheep's place: a white dot
                        Color(1, 1, 1, 1)
                        Ellipse(pos=(x + c * 0.35, y + c * 0.35), size=(c * 0.3, c * 0.3))
                    if ch == "E" and self.pen:  # an arrow from the exit to the pen
                        self._arrow(self.centre((r, col)), self.centre(self.pen), theme.TEXT)
            if self.pen:
                Color(*PEN)
                x, y = self.corner(self.pen)
                Line(rectangle=(x + 3, y + 3, c - 6, c - 6), width=2.5)
            Color(*theme.MUTED)
            for place in self.exits:
                Line(circle=(*self.centre(place), c * 0.3), width=1.2)
            for w in self.wolves:
                big = w["name"] == "big"
                shift = c * (-0.1 if big else 0.1)  # two paths on one space stay apart
                pts = [
                    v for p in w["path"] for v in (self.centre(tuple(p))[0] + shift, self.centre(tuple(p))[1] - shift)
                ]
                Color(*(theme.ALERT if big else theme.ACCENT))
                if len(pts) >= 4:
                    Line(points=pts, close=True, width=dp(3) if big else dp(1.5))
                if w["path"]:
                    dot = c * (0.34 if big else 0.26)
                    Ellipse(pos=(pts[0] - dot / 2, pts[1] - dot / 2), size=(dot, dot))
                if len(w["path"]) >= 2:  # which way the pawn faces: towards the next space it walks to
                    nxt = w["path"][1] if w["direction"] == "clockwise" else w["path"][-1]
                    end = self.centre(tuple(nxt))
                    self._arrow(
                        (pts[0], pts[1]), (end[0] + shift, end[1] - shift), theme.ALERT if big else theme.ACCENT
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


class PiecePicture(HexField):
    """One Battle Sheep pasture board on a small hex grid: the board's hexes filled, the
    other places ringed; touching any of them toggles it (the field picture's own drawing)."""

    def __init__(
        self,
        piece: list[tuple[int, int]],
        area: list[tuple[int, int]],
        size: float,
        on_hex: Callable[[tuple[int, int]], None],
        **kw: Any,
    ) -> None:
        # The area's bounding box in hex sizes (as HexField._layout measures it).
        xs = [SQRT3 * (q + r / 2) for q, r in area]
        ys = [1.5 * r for _, r in area]
        w, h = (max(xs) - min(xs) + SQRT3) * size, (max(ys) - min(ys) + 2) * size
        super().__init__(size_hint=(None, None), size=(w, h), **kw)
        self.field, self.ghosts, self.on_pick = piece, set(area), on_hex
        self.redraw()


class BoardCheckScreen(Screen):
    bad = BooleanProperty(False)
    check: BoardCheck | None = None

    def prepare(self, game: str, players: int) -> None:
        self.check = BoardCheck(game, players)
        self.ids.title.text = f"Check the board: {registry.get(game).title} ({players} players)"
        where = "as checked at this table" if self.check.origin == "checked" else f"as {self.check.origin}"
        self._status(f"Showing the data {where}. Compare it with your board; touch to correct.", False)
        self.selected = self.check.pastures()[0] if game == "pendleton-hill" else None
        self.meadow_mode = "big"  # what a touch on the Sheep Hop! meadow changes
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
        editor = getattr(self, f"_edit_{self.check.game.replace('-', '_')}", None)
        if editor is None:
            rows.add_widget(
                self._label("These facts are corrected in the files (bellwether calibrate board).", muted=True)
            )
        else:
            editor(rows)

    def _cols(self) -> int:
        return max(4, int(self.width // (theme.touch_size() * 1.3))) if self.width > 100 else 8

    def _edit_shear_panic(self, rows: Any) -> None:
        track = self.check.data["track"]
        rows.add_widget(self._label("Touch a space to mark or unmark it as a panic space:", muted=True))
        spaces = int(track["spaces"])
        grid = self._grid(self._cols(), spaces)
        panic = set(track.get("panic", []))
        self.space_buttons = {}
        for n in range(1, spaces + 1):
            b = FitToggle(text=str(n), state="down" if n in panic else "normal", max_font=sp(16))
            b.space = n
            b.bind(on_release=lambda btn: self.toggle_panic(btn.space))
            grid.add_widget(b)
            self.space_buttons[n] = b
        rows.add_widget(grid)
        for group, noun in (("gates", "gate"), ("pictures", "picture")):
            for key in track.get(group, {}):
                rows.add_widget(
                    self._stepper(
                        f"{_words(key)} {noun}",
                        lambda d, g=group, k=key: self.check.move(g, k, d),
                        track[group][key],
                        f"{group}.{key}",
                    )
                )
        rows.add_widget(self._label("Tile time values:", muted=True))
        for i, tile in enumerate(self.check.data["tiles"].get("tile", [])):
            rows.add_widget(
                self._stepper(
                    f"Tile {i + 1}: {_words(tile['action'])} ({tile['symbol']})",
                    lambda d, i=i: self.check.tile_time(i, d),
                    tile["time"],
                    f"tile.{i}",
                )
            )

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

    def _touch(self, change: Callable[[], Any]) -> None:
        """A touch on a picture: the correction made and the view redrawn, or its refusal
        in one line with nothing changed."""
        try:
            change()
        except Refused as e:
            self._status(str(e), True)
            return
        self._refresh_words()

    def _edit_sheep_hop(self, rows: Any) -> None:
        check = self.check
        rows.add_widget(self._label("The die: how many faces of each kind yours has.", muted=True))
        for kind, n in check.die_counts().items():
            rows.add_widget(
                self._stepper(
                    f"{_words(kind).capitalize()} faces",
                    lambda d, k=kind: check.face_count(k, d),
                    n,
                    f"face.{kind}",
                    redraw=True,
                )
            )
        found = check.meadow()
        if found is None:
            rows.add_widget(
                self._label(
                    "This meadow is not of the shipped form: its shape is corrected in the file, its paths here.",
                    muted=True,
                )
            )
        else:
            meadow = found[0]
            for axis, noun in (("rows", "Meadow rows"), ("cols", "Meadow columns")):
                rows.add_widget(
                    self._stepper(
                        noun,
                        lambda d, a=axis: check.meadow_size(a, d),
                        getattr(meadow, axis),
                        f"meadow.{axis}",
                        redraw=True,
                    )
                )
        modes = GridLayout(cols=3, spacing=dp(2), size_hint_y=None, height=theme.touch_size())
        for mode, text in WOLF_MODES.items():
            if mode == "exit" and found is None:
                continue
            b = FitToggle(
                text=text,
                group="meadow-mode",
                allow_no_selection=False,
                max_font=sp(16),
                state="down" if mode == self.meadow_mode else "normal",
            )
            b.mode = mode
            b.bind(on_release=lambda btn: self.pick_mode(btn.mode))
            modes.add_widget(b)
        rows.add_widget(modes)
        if self.meadow_mode == "exit":
            how = "Touch a ringed place beside the meadow to put the exit there; the pen lies beyond it."
        else:
            how = f"Touch a space to add it to the {self.meadow_mode} wolf's path or take it off (a closed loop)."
        rows.add_widget(self._label(how, muted=True, lines=2))
        board = check.data["board"]
        width = max(len(r) for r in board["meadow"]["rows"]) + 2
        cell = max(theme.touch_size(), min(dp(60), (self.width - dp(24)) / width if self.width > 100 else 0))
        self.meadow_picture = MeadowPicture(
            board["meadow"]["rows"],
            board["wolves"],
            check.exit_places() if self.meadow_mode == "exit" else [],
            check.pen_place(),
            cell,
            self.touch_meadow,
        )
        rows.add_widget(self._centred(self.meadow_picture))
        rows.add_widget(
            self._label(
                "Green: meadow; pale: starting area; arrow: from the exit to the pen (brown). "
                "Thick red line: big wolf; thin blue: little wolf; dot and arrowhead: where it "
                "starts and which way it walks.",
                muted=True,
                lines=3,
            )
        )
        for w in board["wolves"]:
            name = w["name"]
            start = tuple(w["path"][0]) if w["path"] else "?"
            rows.add_widget(
                self._stepper(
                    f"{name.capitalize()} wolf starts on",
                    lambda d, n=name: check.wolf_start(n, d),
                    start,
                    f"start.{name}",
                    redraw=True,
                )
            )
            turn = BoxLayout(size_hint_y=None, height=theme.touch_size(), spacing=dp(4))
            turn.add_widget(FitLabel(text=f"{name.capitalize()} wolf walks {w['direction']}", max_font=sp(17)))
            b = FitButton(text="Turn it", size_hint_x=None, width=theme.touch_size() * 2.4)
            b.step_key = f"turn.{name}"
            b.bind(on_release=lambda _b, n=name: self._touch(lambda: self.check.turn_wolf(n)))
            turn.add_widget(b)
            rows.add_widget(turn)

    def _edit_battle_sheep(self, rows: Any) -> None:
        rows.add_widget(
            self._label(
                "Touch a place to add that hexagon to the pasture board or take it off: "
                "4 hexagons joined by their sides.",
                muted=True,
                lines=2,
            )
        )
        size = theme.touch_size() * 0.7  # across a hex's flat sides: 1.2 touch sizes
        self.piece_picture = PiecePicture(
            self.check.piece(), self.check.piece_area(), size, lambda h: self._touch(lambda: self.check.toggle_hex(h))
        )
        rows.add_widget(self._centred(self.piece_picture))
        rows.add_widget(self._label("Green hexagons: one pasture board; rings: places a hexagon can go.", muted=True))

    def _centred(self, picture: Widget) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=picture.height)
        row.add_widget(Widget())
        row.add_widget(picture)
        row.add_widget(Widget())
        return row

    def pick_mode(self, mode: str) -> None:
        self.meadow_mode = mode
        self._build()

    def touch_meadow(self, place: Cell) -> None:
        if self.meadow_mode == "exit":
            self._touch(lambda: self.check.place_exit(place))
        else:
            self._touch(lambda: self.check.toggle_path(self.meadow_mode, place))

    def _edit_pendleton_hill(self, rows: Any) -> None:
        pastures = self.check.pastures()
        rows.add_widget(self._label("Touch a pasture, then the pastures it touches on your board:", muted=True))
        grid = self._grid(self._cols(), len(pastures))
        for p in pastures:
            b = FitToggle(
                text=p, group="pasture", allow_no_selection=False, state="down" if p == self.selected else "normal"
            )
            b.pasture = p
            b.bind(on_release=lambda btn: self.select(btn.pasture))
            grid.add_widget(b)
        rows.add_widget(grid)
        rows.add_widget(self._label(f"Pasture {self.selected} touches:", muted=True))
        grid = self._grid(self._cols(), len(pastures) - 1)
        self.touch_buttons = {}
        for p in pastures:
            if p == self.selected:
                continue
            b = FitToggle(text=p, state="down" if self.check.touches(self.selected, p) else "normal")
            b.pasture = p
            b.bind(on_release=lambda btn: self.toggle_touch(btn.pasture))
            grid.add_widget(b)
            self.touch_buttons[p] = b
        rows.add_widget(grid)

    # -- touches ------------------------------------------------------------------
    def toggle_panic(self, space: int) -> None:
        self.check.toggle_panic(space)
        self._refresh_words()

    def select(self, pasture: str) -> None:
        self.selected = pasture
        self._build()

    def toggle_touch(self, other: str) -> None:
        self.check.toggle_touch(self.selected, other)
        self._refresh_words()

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
            paths = self.check.save()
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
