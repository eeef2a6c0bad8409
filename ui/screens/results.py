"""Results: ranking (or, in a cooperative game, the table's result), the tie-break, and a chart of the scores."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from .. import history
from ..chart import ScoreChart
from ..widgets import FitLabel, PlayerMark, load_kv

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
        self.add_widget(FitLabel(text=f"{name} ({sw.name})", max_font=sp(22), min_font=sp(14)))
        self.add_widget(FitLabel(text="" if score is None else f"{score} pts", halign="right", size_hint_x=0.45, max_font=sp(22)))


def places(ranking: tuple[str, ...], winners: tuple[str, ...]) -> list[str]:
    """Each ranked player's place in words: shared winners are all "1st", the rest follow."""
    out = []
    for i, name in enumerate(ranking):
        i = 0 if name in winners else i
        out.append(ORDINALS[i] if i < len(ORDINALS) else str(i + 1))
    return out


def headline(title: str, outcome: Any) -> str:
    """The Results heading, from the outcome alone (no game's name is tested here)."""
    words = outcome.words()
    return f"{title}: {words}" if words else title


NOTES_FONT = 15  # sp: the notes are read at the table, not shrunk below body text


class ResultsScreen(Screen):
    def on_pre_enter(self, *_: Any) -> None:
        # A method, not a lambda: bind() skips a callback already bound, so entering
        # Results again does not add another copy of the same work to every resize.
        self.ids.tie_break.bind(width=self._fit_notes)
        self.refresh()

    def _fit_notes(self, *_: Any) -> None:
        """Make the notes (tie-break, a scale) as tall as their wrapped text at NOTES_FONT,
        so a long ruling is read whole instead of shrunk or cut."""
        label = self.ids.tie_break
        core = CoreLabel(text=label.text, font_size=sp(NOTES_FONT), text_size=(max(label.width - dp(4), dp(40)), None), halign="left")
        core.refresh()
        label.height = max(dp(48), core.texture.size[1] + dp(6))

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
            marks = [""] * len(order) if together else places(outcome.ranking, outcome.winner_names())
            lines = list(outcome.notes)
            if outcome.tie_break:
                lines.append(f"Tie-break: {outcome.tie_break}")
            elif not together:
                lines.append("No tie to break.")
            self.ids.tie_break.text = "\n".join(lines)
        self._fit_notes()
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
