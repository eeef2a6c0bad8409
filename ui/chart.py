"""Charts drawn with Kivy: every player's score over the game (a line each), and a die's face counts (bars).

Each line has the player's colour and, at every point, the player's shape, and
the legend names each player, so the chart reads without colour.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Line, Mesh, Rectangle
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from . import theme
from .widgets import FitLabel, PlayerMark, shapes_mesh

LEGEND_COLS = 3  # players per legend row: room for long names
LEGEND_ONE_LINE = 10  # characters of the longest name that fit one line of a legend cell at 14 px
LEGEND_LONG_NAME = 16  # characters: longer, and the legend goes two players a row
MAX_MARKERS = 40  # beyond this, markers every n-th point keep the lines readable


class PlotArea(Widget):
    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.series: dict[str, list[int]] = {}
        self.styles: dict[str, tuple[Any, str, str]] = {}
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        longest = max((len(v) for v in self.series.values()), default=0)
        top = max((max(v) for v in self.series.values() if v), default=0)
        low = min((min(v) for v in self.series.values() if v), default=0)
        low = min(low, 0)
        span = max(top - low, 1)
        with self.canvas:
            Color(*theme.MUTED)
            Line(points=[self.x, self.top, self.x, self.y, self.right, self.y], width=1.2)
            if longest < 2:
                return
            step_x = self.width / (longest - 1)
            every = max(1, longest // MAX_MARKERS)
            for name, values in self.series.items():
                rgba, shape, _ = self.styles.get(name, (theme.TEXT, "circle", ""))
                pts: list[float] = []
                for i, v in enumerate(values):
                    pts += [self.x + i * step_x, self.y + (v - low) / span * self.height]
                Color(*rgba)
                Line(points=pts, width=dp(1.6))
                # All of a player's markers in two meshes (a black one a pixel
                # larger under the coloured one, as an outline): one mesh and
                # one line per marker cost ~17 MB of vertex buffers at 160
                # markers under Mesa's software GL (benchmarks/ui_bench.py).
                at = [(pts[2 * i], pts[2 * i + 1]) for i in range(0, len(values), every)]
                for colour, radius in (((0, 0, 0, 1), dp(5) + 1.5), (rgba, dp(5))):
                    Color(*colour)
                    Mesh(**shapes_mesh(shape, at, radius), mode="triangles")


class ScoreChart(BoxLayout):
    """Legend on top, y range at the left, the plot, and the x axis named."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(orientation="vertical", spacing=dp(2), **kw)
        self.legend = GridLayout(cols=LEGEND_COLS * 2, size_hint_y=None, spacing=dp(2), row_default_height=dp(26), row_force_default=True)
        self.legend.bind(minimum_height=self.legend.setter("height"))
        body = BoxLayout(spacing=dp(4))
        self.y_axis = BoxLayout(orientation="vertical", size_hint_x=None, width=dp(44))
        self.y_top = FitLabel(halign="right", max_font=sp(14), size_hint_y=None, height=dp(20))
        self.y_low = FitLabel(halign="right", max_font=sp(14), size_hint_y=None, height=dp(20))
        self.y_axis.add_widget(self.y_top)
        self.y_axis.add_widget(Widget())
        self.y_axis.add_widget(self.y_low)
        self.plot_area = PlotArea()
        body.add_widget(self.y_axis)
        body.add_widget(self.plot_area)
        self.x_label = FitLabel(text="Score after each event", halign="center", size_hint_y=None, height=dp(22), max_font=sp(14), color=theme.MUTED)
        for w in (self.legend, body, self.x_label):
            self.add_widget(w)

    def plot(self, series: dict[str, list[int]], styles: dict[str, tuple[Any, str, str]]) -> None:
        self.plot_area.series = series
        self.plot_area.styles = styles
        values = [v for vs in series.values() for v in vs]
        self.y_top.text = str(max(values, default=0))
        self.y_low.text = str(min([0, *values]))
        self.legend.clear_widgets()
        # Names stay at 14 px or more: long ones get fewer per row and two lines each.
        longest = max((len(n) for n in series), default=0)
        self.legend.cols = (LEGEND_COLS if longest <= LEGEND_LONG_NAME else LEGEND_COLS - 1) * 2
        self.legend.row_default_height = dp(26) if longest <= LEGEND_ONE_LINE else dp(38)
        for name in series:
            rgba, shape, _ = styles.get(name, (theme.TEXT, "circle", ""))
            self.legend.add_widget(PlayerMark(rgba=list(rgba), shape=shape, size_hint_x=0.15))
            self.legend.add_widget(FitLabel(text=name, max_font=sp(15)))
        self.plot_area.redraw()


class Bar(Widget):
    """One face's bar, scaled to the tallest count, with the fair share as a line
    across it (the bars of a fair die hover around that line)."""

    def __init__(self, count: int, top: int, expected: float, **kw: Any) -> None:
        super().__init__(**kw)
        self.count, self.top_count, self.expected = count, max(top, 1), expected
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        h = self.height * self.count / self.top_count
        line = self.y + self.height * self.expected / self.top_count
        with self.canvas:
            Color(*theme.ACCENT)
            Rectangle(pos=(self.x + self.width * 0.15, self.y), size=(self.width * 0.7, h))
            Color(*theme.MUTED)
            Line(points=[self.x, line, self.right, line], width=1, dash_length=6, dash_offset=4)  # dashes need width 1


class BarChart(BoxLayout):
    """A die's face counts: a titled row of bars, each with its count above and its
    face below, the fair share marked, and the test's verdict in words under it."""

    def __init__(self, title: str, faces: tuple[Any, ...], counts: tuple[int, ...], verdict: str, **kw: Any) -> None:
        kw.setdefault("size_hint_y", None)
        kw.setdefault("height", dp(200))
        super().__init__(orientation="vertical", spacing=dp(2), padding=(dp(4), dp(2)), **kw)
        self.add_widget(FitLabel(text=title, size_hint_y=None, height=dp(26), max_font=sp(17), min_font=sp(14), bold=True))
        bars = BoxLayout(spacing=dp(4))
        top = max(counts, default=0)
        expected = sum(counts) / len(counts) if counts else 0.0
        for face, count in zip(faces, counts, strict=True):
            col = BoxLayout(orientation="vertical", spacing=dp(1))
            col.add_widget(FitLabel(text=str(count), halign="center", size_hint_y=None, height=dp(22), max_font=sp(15), min_font=sp(14)))
            col.add_widget(Bar(count, top, expected))
            # Word faces wrap at their hyphens ("double big wolf"); pips stay digits.
            col.add_widget(FitLabel(text=str(face).replace("-", " "), halign="center", size_hint_y=None, height=dp(40), max_font=sp(15), min_font=sp(14)))
            bars.add_widget(col)
        self.add_widget(bars)
        self.verdict = FitLabel(text=verdict, size_hint_y=None, height=dp(26), max_font=sp(16), min_font=sp(14), color=theme.MUTED)
        self.add_widget(self.verdict)
