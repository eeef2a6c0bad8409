"""Results: ranking, the tie-break that decided it, and a chart of the scores."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from .. import history
from ..chart import ScoreChart
from ..widgets import FitLabel, PlayerMark, load_kv

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")


class RankLine(BoxLayout):
    def __init__(self, place: int, name: str, score: int | None, **kw: Any) -> None:
        super().__init__(orientation="horizontal", spacing=dp(6), size_hint_y=None, height=dp(44), **kw)
        app = App.get_running_app()
        sw, shape = app.player_style(name)
        self.add_widget(FitLabel(text=ORDINALS[place] if place < len(ORDINALS) else str(place + 1), size_hint_x=None, width=dp(48), max_font=sp(22), bold=True))
        self.add_widget(PlayerMark(rgba=list(sw.rgba), shape=shape, size_hint_x=None, width=dp(36)))
        self.add_widget(FitLabel(text=f"{name} ({sw.name})", max_font=sp(22), min_font=sp(14)))
        self.add_widget(FitLabel(text="" if score is None else f"{score} pts", halign="right", size_hint_x=0.45, max_font=sp(22)))


class ResultsScreen(Screen):
    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        s = app.session
        ranking = self.ids.ranking
        ranking.clear_widgets()
        if s is None:
            return
        outcome = s.outcome()
        scores = s.scores()
        if outcome is None:
            self.ids.title.text = f"{s.game.title}: still in play"
            order = sorted(scores, key=lambda n: -scores[n])
            self.ids.tie_break.text = "Standings so far."
        else:
            self.ids.title.text = f"{s.game.title}: {outcome.ranking[0]} wins" if outcome.ranking else s.game.title
            order = list(outcome.ranking)
            self.ids.tie_break.text = f"Tie-break: {outcome.tie_break}" if outcome.tie_break else "No tie to break."
        for i, name in enumerate(order):
            ranking.add_widget(RankLine(i, name, scores.get(name)))
        series = history.score_series(s)
        styles = {n: app.player_style(n) for n in series}
        self.ids.chart.plot(series, {n: (sw.rgba, shape, sw.name) for n, (sw, shape) in styles.items()})
        self.ids.saved.text = f"Saved as game #{s.id} in the history." if s.id is not None else "Not stored."

    def play_again(self) -> None:
        app = App.get_running_app()
        s = app.session
        if s is None:
            return
        app.root.get_screen("setup").prepare(s.game.name)
        app.session = None
        app.go("setup")


_ = ScoreChart
load_kv(__file__)
