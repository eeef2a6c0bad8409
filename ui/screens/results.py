"""Results: ranking (or, in a cooperative game, the table's result), the tie-break, and a chart of the scores."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.wording import count

from .. import history
from ..chart import ScoreChart
from ..widgets import FitLabel, PlayerMark, TallLabel, load_kv

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")


class RankLine(BoxLayout):
    """One player on the Results: place (none in a cooperative game), mark, name, points."""

    def __init__(self, place: str, name: str, score: int | None, **kw: Any) -> None:
        super().__init__(orientation="horizontal", spacing=dp(6), size_hint_y=None, height=dp(44), **kw)
        app = App.get_running_app()
        sw, shape = app.player_style(name)
        if place:
            self.add_widget(FitLabel(text=place, size_hint_x=None, width=dp(48), max_font=sp(22), bold=True))
        self.add_widget(PlayerMark(rgba=list(sw.rgba), shape=shape, size_hint_x=None, width=dp(36)))
        # A long name wraps onto more lines and the line grows (never under 14 px, never cut).
        label = TallLabel(text=f"{name} ({sw.name})", max_font=sp(18), size_hint_y=None, min_height=dp(44))
        label.fbind("height", self._follow, label)
        self.add_widget(label)
        if score is not None:
            self.add_widget(FitLabel(text=count(score, "pt"), halign="right", size_hint_x=None, width=dp(78), max_font=sp(22)))

    def _follow(self, label: Any, *_: Any) -> None:
        self.height = label.height


def places(outcome: Any) -> list[str]:
    """Each ranked player's place in words (``Outcome.places``): shared winners are all
    "1st", players level lower down share theirs ("1st, 2nd, 2nd")."""
    return [ORDINALS[p - 1] if p <= len(ORDINALS) else str(p) for p in outcome.places()]


def headline(title: str, outcome: Any) -> str:
    """The Results heading, from the outcome alone (no game's name is tested here)."""
    words = outcome.words()
    return f"{title}: {words}" if words else title


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
        together = s.game.cooperative or (outcome is not None and outcome.won is not None)
        if outcome is None:
            self.ids.title.text = f"{s.game.title}: still in play"
            order = s.players() if together else sorted(scores, key=lambda n: -scores[n])
            marks = [""] * len(order)
            self.ids.tie_break.text = "Standings so far."
        else:
            self.ids.title.text = headline(s.game.title, outcome)
            order = list(outcome.ranking)
            marks = [""] * len(order) if together else places(outcome)
            lines = list(outcome.notes)
            if outcome.tie_break:
                lines.append(f"Tie-break: {outcome.tie_break}")
            elif not together:
                lines.append("No tie to break.")
            self.ids.tie_break.text = "\n".join(lines)
        for mark, name in zip(marks, order, strict=True):
            # Together, the flock's score is everyone's: it is in the heading, not on each line.
            ranking.add_widget(RankLine(mark, name, None if together else scores.get(name)))
        series = history.score_series(s)
        styles = {n: app.player_style(n) for n in series}
        self.ids.chart.plot(series, {n: (sw.rgba, shape, sw.name) for n, (sw, shape) in styles.items()})
        self.ids.saved.text = f"Saved as game #{s.id} in the history." if s.id is not None else "Not stored."

    def share(self) -> None:
        from ..share import SharePanel

        s = App.get_running_app().session
        SharePanel(sessions=None if s is None or s.id is None else [s.id]).open()

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
