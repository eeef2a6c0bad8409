"""One module (and one .kv file) per screen, like Kivy's showcase example."""

from __future__ import annotations

from .board_check import BoardCheckScreen
from .calibrate import CalibrateScreen
from .home import HomeScreen
from .log import LogScreen
from .results import ResultsScreen
from .settings import SettingsScreen
from .setup import SetupScreen
from .table import TableScreen

SCREENS = {
    "home": HomeScreen,
    "setup": SetupScreen,
    "table": TableScreen,
    "log": LogScreen,
    "results": ResultsScreen,
    "settings": SettingsScreen,
    "board_check": BoardCheckScreen,
    "calibrate": CalibrateScreen,
}
