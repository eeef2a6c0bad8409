"""Check the board: a game's board data in plain words, corrected by touch, saved once.

Reached from Setup ("Check the board").  The data and its rules live in
``ui.board_check.BoardCheck``; this screen only shows it and turns touches
into its corrections.  Save validates through the game and writes the TOML
profile the next new game's setup reads (``calibration.board.setup_options``).
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion import registry
from companion.errors import ConfigError, SetupError

from .. import theme
from ..board_check import BoardCheck, _words
from ..widgets import FitButton, FitLabel, FitToggle, load_kv


class BoardCheckScreen(Screen):
    bad = BooleanProperty(False)
    check: BoardCheck | None = None

    def prepare(self, game: str, players: int) -> None:
        self.check = BoardCheck(game, players)
        self.ids.title.text = f"Check the board: {registry.get(game).title} ({players} players)"
        where = "as checked at this table" if self.check.origin == "checked" else self.check.origin
        self._status(f"Showing the {where} data. Compare it with your board; touch to correct.", False)
        self.selected = self.check.pastures()[0] if game == "pendleton-hill" else None
        self._build()

    # -- building ---------------------------------------------------------------
    def _label(self, text: str, muted: bool = False, lines: int = 1) -> FitLabel:
        return FitLabel(text=text, size_hint_y=None, height=dp(26) * lines, max_font=sp(16), min_font=sp(9),
                        color=theme.MUTED if muted else theme.TEXT)

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
            rows.add_widget(self._label("These facts are corrected in the files (bellwether calibrate board).", muted=True))
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
                rows.add_widget(self._stepper(f"{_words(key)} {noun}", lambda d, g=group, k=key: self.check.move(g, k, d),
                                              track[group][key], f"{group}.{key}"))
        rows.add_widget(self._label("Tile time values:", muted=True))
        for i, tile in enumerate(self.check.data["tiles"].get("tile", [])):
            rows.add_widget(self._stepper(f"Tile {i + 1}: {_words(tile['action'])} ({tile['symbol']})",
                                          lambda d, i=i: self.check.tile_time(i, d), tile["time"], f"tile.{i}"))

    def _stepper(self, label: str, change: Any, value: int, key: str) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=theme.touch_size(), spacing=dp(4))
        text = FitLabel(text=f"{label}: {value}", max_font=sp(17))
        row.add_widget(text)
        for delta, sign in ((-1, "−"), (+1, "+")):
            b = FitButton(text=sign, size_hint_x=None, width=theme.touch_size() * 1.2)
            b.step_key = f"{key}{'+' if delta > 0 else '-'}"
            b.bind(on_release=lambda _b, d=delta: self._step(change, d, text, label))
            row.add_widget(b)
        return row

    def _step(self, change: Any, delta: int, text: FitLabel, label: str) -> None:
        text.text = f"{label}: {change(delta)}"
        self._changed()

    def _edit_pendleton_hill(self, rows: Any) -> None:
        pastures = self.check.pastures()
        rows.add_widget(self._label("Touch a pasture, then the pastures it touches on your board:", muted=True))
        grid = self._grid(self._cols(), len(pastures))
        for p in pastures:
            b = FitToggle(text=p, group="pasture", allow_no_selection=False, state="down" if p == self.selected else "normal")
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
            self._status(f"Not saved: {e}", True)
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
