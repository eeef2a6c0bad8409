"""Log: every entry with time, source and corrections; tap one to undo to it."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.screenmanager import Screen

from .. import history, theme
from ..widgets import FitButton, load_kv

SHOWN = 150  # newest entries shown; older ones stay in the store and the export


def row_text(row: history.LogRow) -> str:
    mark = "CORRECTION · " if row.correction else ""
    state = "" if row.op != "apply" or row.position is not None else "  (undone)"
    turn = f"turn {row.turn} · " if row.turn else ""
    source = f" · {row.source}" if row.source else ""
    return f"{row.when}  #{row.seq} · {turn}{mark}{row.text}{source}{state}"


class LogScreen(Screen):
    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    _shown: Any = None

    def refresh(self) -> None:
        app = App.get_running_app()
        s = app.session
        key = (id(s), len(s.log) if s else 0)
        if key == self._shown:
            return  # rebuilding would replace a row under a finger mid-tap
        self._shown = key
        rows = self.ids.rows
        rows.clear_widgets()
        if s is None:
            self.ids.summary.text = "No game is open."
            return
        all_rows = history.log_rows(s)
        self.ids.summary.text = (
            f"{s.game.title}: {len(s.events)} events in effect, {len(all_rows)} log entries. "
            "Tap an entry to undo everything after it."
        )
        start = FitButton(text="Start of the game (undo everything)", halign="left", max_font=17)
        start.bind(on_release=lambda *_: self.undo_to(0))
        start.disabled = not s.events
        for row in reversed(all_rows[-SHOWN:]):
            b = FitButton(text=row_text(row), halign="left", max_font=17)
            b.position = row.position
            b.disabled = row.position is None
            if row.correction:
                b.background_color = theme.WARN
            b.bind(on_release=lambda btn: self.undo_to(btn.position + 1))
            rows.add_widget(b)
        rows.add_widget(start)

    def undo_to(self, count: int) -> None:
        app = App.get_running_app()
        app.undo_to(count)
        self.refresh()


load_kv(__file__)
