"""One module (and one .kv file) per screen, like Kivy's showcase example.

``Screens`` builds each screen the first time it is shown or asked for: a
table that never opens Calibrate or the board check does not carry their
widgets and textures (measured with ``benchmarks/ui_bench.py``).
"""

from __future__ import annotations

import importlib
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

# Each screen's module (and its .kv rules) is imported when the screen is first
# built: Calibrate and the board check bring the calibration code and two game
# engines' board data, which a table that never opens them does not need in
# memory (~5 MB resident at Home, benchmarks/ui_bench.py).
SCREENS: dict[str, str] = {
    "home": "home:HomeScreen",
    "setup": "setup:SetupScreen",
    "table": "table:TableScreen",
    "log": "log:LogScreen",
    "results": "results:ResultsScreen",
    "settings": "settings:SettingsScreen",
    "board_check": "board_check:BoardCheckScreen",
    "calibrate": "calibrate:CalibrateScreen",
    "history": "history:HistoryScreen",
}


def release() -> None:
    """Collect what a screen has just let go, now, so that the view built next
    reuses that memory (a full collection: Kivy widgets are reference cycles)."""
    app = App.get_running_app()
    if hasattr(app, "collect_garbage"):
        app.collect_garbage()


def screen_class(name: str) -> type[Screen]:
    module, _, cls = SCREENS[name].partition(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), cls)


# Views rebuilt from the session or the preferences each time they are shown.
# The peak in play is the Table plus one of them, so when one is left its
# content is let go and collected at once, before the next screen is drawn
# (which is then built in that memory, not beside it); the emptied screen is
# removed on the next frame (benchmarks/ui_bench.py: peak 151 -> 144 MB with
# the Table's own letting go, see TableScreen.on_pre_leave).
LET_GO = frozenset({"log", "results", "settings", "history"})
LET_GO_AFTER = 0  # the next frame after leaving


class Screens(ScreenManager):
    """A ScreenManager over ``SCREENS`` that builds a screen on first use and
    lets go of the ``LET_GO`` views once left."""

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("transition", NoTransition())
        super().__init__(**kw)
        self._let_go = Clock.create_trigger(self._let_go_hidden, LET_GO_AFTER)

    def on_current(self, instance: Any, value: str) -> None:
        leaving = self.current_screen
        if leaving is not None and leaving.name in LET_GO and leaving.name != value:
            # Its content goes before the next screen is drawn, not beside it.
            leaving.clear_widgets()
            release()
        super().on_current(instance, value)
        self._let_go()

    def _let_go_hidden(self, _dt: float) -> None:
        if self.transition.is_active:  # even NoTransition completes on a later frame
            self._let_go()
            return
        gone = [screen for screen in self.screens if screen.name in LET_GO and screen is not self.current_screen]
        for screen in gone:
            self.remove_widget(screen)  # already emptied and collected when left

    def get_screen(self, name: str) -> Screen:
        for stale in [s for s in self.screens if s.name == name and name in LET_GO and not s.children]:
            # Emptied when left (see on_current) and shown again before the next
            # frame removed it: a fresh one is built instead of a blank one shown.
            self.remove_widget(stale)
        if name in SCREENS and not any(s.name == name for s in self.screens):
            self.add_widget(screen_class(name)(name=name))
        return super().get_screen(name)

    def has_screen(self, name: str) -> bool:
        return name in SCREENS or super().has_screen(name)
