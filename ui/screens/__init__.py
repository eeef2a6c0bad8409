"""One module (and one .kv file) per screen, like Kivy's showcase example.

``Screens`` builds each screen the first time it is shown or asked for: a
table that never opens Calibrate or the board check does not carry their
widgets and textures (measured with ``benchmarks/ui_bench.py``).
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from .board_check import BoardCheckScreen
from .calibrate import CalibrateScreen
from .home import HomeScreen
from .log import LogScreen
from .results import ResultsScreen
from .settings import SettingsScreen
from .setup import SetupScreen
from .table import TableScreen

SCREENS: dict[str, type[Screen]] = {
    "home": HomeScreen,
    "setup": SetupScreen,
    "table": TableScreen,
    "log": LogScreen,
    "results": ResultsScreen,
    "settings": SettingsScreen,
    "board_check": BoardCheckScreen,
    "calibrate": CalibrateScreen,
}


# Views rebuilt from the session or the preferences each time they are shown:
# once left, they are let go, so their widgets and textures do not stay
# resident during play.
LET_GO = frozenset({"log", "results", "settings"})
LET_GO_AFTER = 0.5  # seconds after leaving


class Screens(ScreenManager):
    """A ScreenManager over ``SCREENS`` that builds a screen on first use and
    lets go of the ``LET_GO`` views once left."""

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("transition", NoTransition())
        super().__init__(**kw)
        self._let_go = Clock.create_trigger(self._let_go_hidden, LET_GO_AFTER)

    def on_current(self, instance: Any, value: str) -> None:
        super().on_current(instance, value)
        self._let_go()

    def _let_go_hidden(self, _dt: float) -> None:
        for screen in list(self.screens):
            if screen.name in LET_GO and screen is not self.current_screen and not self.transition.is_active:
                self.remove_widget(screen)

    def get_screen(self, name: str) -> Screen:
        if name in SCREENS and not any(s.name == name for s in self.screens):
            self.add_widget(SCREENS[name](name=name))
        return super().get_screen(name)

    def has_screen(self, name: str) -> bool:
        return name in SCREENS or super().has_screen(name)
