"""Log: every entry with time, source and corrections; tap one to undo to it."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.recycleview.views import RecycleDataViewBehavior
from kivy.uix.screenmanager import Screen

from .. import history, theme
from ..widgets import FitButton, load_kv


def row_text(row: history.LogRow) -> str:
    mark = "Correction: " if row.correction else ""
    state = "" if row.op != "apply" or row.position is not None else "  (undone)"
    turn = f"turn {row.turn} · " if row.turn else ""
    source = f" · by {row.source}" if row.source else ""
    return f"{row.when} · {turn}{mark}{row.text}{source}{state}"


def _moves(n: int) -> str:
    return "1 move" if n == 1 else f"{n} moves"


class LogRowButton(RecycleDataViewBehavior, FitButton):
    """One log row; the RecycleView reuses a handful of these for any length of game."""

    position = NumericProperty(-1)  # index in session.events; -1: the start of the game

    def on_release(self) -> None:
        screen = App.get_running_app().root.get_screen("log")
        screen.ask_undo_to(int(self.position) + 1, self.text)


class LogScreen(Screen):
    _shown: Any = None
    _asked: int | None = None  # the undo-to waiting for Yes


    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        s = app.session
        key = (id(s), len(s.log) if s else 0)
        if key == self._shown:
            return  # rebuilding would replace a row under a finger mid-tap
        self._shown = key
        view = self.ids.view
        if s is None:
            self.ids.summary.text = "No game is open."
            view.data = []
            return
        all_rows = history.log_rows(s)
        self.ids.summary.text = f"{s.game.title}: touch an entry to go back to just after it (you are asked first)."
        self.cancel_undo()
        data = [
            {
                "text": row_text(row),
                "position": -2 if row.position is None else row.position,
                "disabled": row.position is None,
                "background_color": theme.WARN if row.correction else theme.PANEL_LIGHT,
            }
            for row in reversed(all_rows)
        ]
        data.append(
            {
                "text": "Start of the game (undo everything)",
                "position": -1,
                "disabled": not s.events,
                "background_color": theme.PANEL_LIGHT,
            }
        )
        view.data = data

    def ask_undo_to(self, count: int, text: str) -> None:
        """A touch on an entry asks first: one touch must never wipe a game (Redo would bring it back)."""
        s = App.get_running_app().session
        if s is None:
            return
        undone = len(s.events) - count
        if undone <= 0:
            self.ids.confirm_text.text = "Nothing to undo: that is the last move in effect."
            self._asked = None
        else:
            back = "to the start of the game" if count == 0 else f"back to “{text.split(' · ', 1)[-1]}”"
            self.ids.confirm_text.text = f"Undo {_moves(undone)} {back}?"
            self._asked = count
        self.ids.confirm.height = theme.touch_size() + dp(8)
        self.ids.confirm.opacity = 1
        self.ids.confirm.disabled = False
        self.ids.confirm_yes.disabled = self._asked is None

    def cancel_undo(self) -> None:
        self._asked = None
        self.ids.confirm.height = 0
        self.ids.confirm.opacity = 0
        self.ids.confirm.disabled = True

    def confirm_undo(self) -> None:
        count, self._asked = self._asked, None
        if count is not None:
            self.undo_to(count)
        self.cancel_undo()

    def undo_to(self, count: int) -> None:
        app = App.get_running_app()
        app.undo_to(count)
        self.refresh()


load_kv(__file__)
