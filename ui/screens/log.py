"""Log: every entry with time, source and corrections; tap one to undo to it."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import NumericProperty
from kivy.uix.recycleview.views import RecycleDataViewBehavior
from kivy.uix.screenmanager import Screen

from .. import history, theme
from ..widgets import FitButton, load_kv


def row_text(row: history.LogRow) -> str:
    mark = "CORRECTION · " if row.correction else ""
    state = "" if row.op != "apply" or row.position is not None else "  (undone)"
    turn = f"turn {row.turn} · " if row.turn else ""
    source = f" · {row.source}" if row.source else ""
    return f"{row.when}  #{row.seq} · {turn}{mark}{row.text}{source}{state}"


class LogRowButton(RecycleDataViewBehavior, FitButton):
    """One log row; the RecycleView reuses a handful of these for any length of game."""

    position = NumericProperty(-1)  # index in session.events; -1: the start of the game

    def on_release(self) -> None:
        screen = App.get_running_app().root.get_screen("log")
        screen.undo_to(int(self.position) + 1)


class LogScreen(Screen):
    _shown: Any = None

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
        self.ids.summary.text = (
            f"{s.game.title}: {len(s.events)} events in effect, {len(all_rows)} log entries. "
            "Tap an entry to undo everything after it."
        )
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

    def undo_to(self, count: int) -> None:
        app = App.get_running_app()
        app.undo_to(count)
        self.refresh()


load_kv(__file__)
