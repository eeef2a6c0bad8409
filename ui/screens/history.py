"""History: is the table's dice fair?  A bar chart per die from every stored
game (or one game's), the test in words, and "Share results" for the plays."""

from __future__ import annotations

import logging
import threading
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import sp
from kivy.uix.screenmanager import Screen

from companion.errors import BellwetherError
from companion.plays.dicestats import DieStats, Roll, stored_rolls, tally

from ..chart import BarChart
from ..widgets import FitToggle, load_kv

ALL = "All games"
# Each stored game's rolls by (id, last update): the screen is let go when
# left, this is not, so opening History again replays only new games.
_ROLLS: dict[tuple[int, float], list[Any]] = {}
log = logging.getLogger(__name__)


def chart_title(d: DieStats) -> str:
    which = "" if d.which == "all rolls" else f", {d.which}"
    return f"{d.die}{which} · {d.group} · {d.rolls} roll{'' if d.rolls == 1 else 's'}"


class HistoryScreen(Screen):
    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.game: str | None = None  # None: the whole history
        self.stats: list[DieStats] = []
        self._asked = 0  # refresh() calls so far: a count that ends after a newer call is counted again
        self._worker: threading.Thread | None = None

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Count the dice of every stored game on a worker thread: replaying a
        season of games the first time takes seconds on a Pi, and the screen
        must answer touches meanwhile.  Games already counted come from
        ``_ROLLS`` (one worker at a time owns it)."""
        app = App.get_running_app()
        if app.store is None:
            self._counted([])
            return
        self._asked += 1
        if self._worker is not None and self._worker.is_alive():
            return  # the running count sees this call's games too, or is asked again when it ends
        self.ids.summary.text = "Counting the dice of the stored games…"
        asked, store = self._asked, app.store
        self._worker = threading.Thread(target=self._count, args=(store, asked), name="history-dice", daemon=True)
        self._worker.start()

    def _count(self, store: Any, asked: int) -> None:
        rolls: list[Roll] | None = None
        error = ""
        try:
            with store.reader() as reader:
                rolls = stored_rolls(reader, _ROLLS)
        except BellwetherError as e:
            log.warning("History: %s", e)
            error = str(e)
        Clock.schedule_once(lambda _dt: self._done(rolls, asked, error))

    def _done(self, rolls: list[Roll] | None, asked: int, error: str) -> None:
        if asked != self._asked:  # asked again (a game stored meanwhile): count once more
            self._worker = None
            self.refresh()
            return
        if rolls is None:
            self.ids.summary.text = f"The stored games cannot be read: {error}"
            return
        self._counted(rolls)

    def _counted(self, rolls: list[Roll]) -> None:
        self.stats = tally(rolls)
        games = sorted({r.game for r in rolls})
        if self.game not in games:
            self.game = None
        picker = self.ids.games
        picker.clear_widgets()
        for name in (ALL, *games):
            t = FitToggle(text=name, group="history-game", allow_no_selection=False, max_font=sp(17), min_font=sp(14),
                          state="down" if (name == ALL and self.game is None) or name == self.game else "normal")  # fmt: skip
            t.game_name = None if name == ALL else name
            t.bind(on_release=lambda btn: self.show(btn.game_name))
            picker.add_widget(t)
        self.show(self.game)

    def show(self, game: str | None) -> None:
        self.game = game
        charts = self.ids.charts
        charts.clear_widgets()
        shown = [d for d in self.stats if d.game == game]
        for d in shown:
            charts.add_widget(BarChart(chart_title(d), d.faces, d.counts, d.verdict()))
        where = "every stored game" if game is None else game
        self.ids.summary.text = (
            f"Dice read in {where}: a bar per face, the dashed line is a fair die's share."
            if shown
            else "No dice rolled in the stored games yet."
        )

    def share(self) -> None:
        from ..share import SharePanel

        SharePanel().open()


load_kv(__file__)
