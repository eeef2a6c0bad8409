"""The picture for a game without its own: scores and the state as text.

Shows every player (mark, name, score, whose turn) and then each key of the
game's ``state_json`` as a labelled line, so nothing the twin knows is hidden
even before a game has its drawn board.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout

from companion.session import Session

from .. import theme
from ..widgets import FitLabel, PlayerMark, TallLabel, load_kv
from .base import Picture

MAX_LINES = 60  # long states scroll; beyond this they are summarised


def flatten(value: Any, prefix: str = "") -> list[tuple[str, str]]:
    """``state_json`` as (label, text) lines, nested keys joined with " · "."""
    out: list[tuple[str, str]] = []
    if isinstance(value, Mapping):
        for k, v in value.items():
            key = f"{prefix} · {k}" if prefix else str(k)
            if isinstance(v, Mapping) and v and len(out) < MAX_LINES:
                out += flatten(v, key)
            else:
                out.append((key, _short(v)))
    else:
        out.append((prefix or "state", _short(value)))
    return out


def _short(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"  # players read this, not Python
    if isinstance(v, (list, tuple)):
        if all(not isinstance(x, (list, tuple, Mapping)) for x in v):
            return ", ".join(str(x) for x in v) or "none"
        return f"{len(v)} items: " + "; ".join(_short(x) for x in v[:6]) + ("; …" if len(v) > 6 else "")
    if isinstance(v, Mapping):
        return ", ".join(f"{k}: {_short(x)}" for k, x in v.items()) or "none"
    return str(v)


class PlayerLine(BoxLayout):
    """Mark, name and score of one player; "now" marks whose turn it is."""

    def __init__(self, name: str, score: int | None, active: bool, **kw: Any) -> None:
        super().__init__(orientation="horizontal", spacing=dp(6), size_hint_y=None, height=dp(36), **kw)
        app = App.get_running_app()
        sw, shape = app.player_style(name)
        self.add_widget(PlayerMark(rgba=list(sw.rgba), shape=shape, active=active, size_hint_x=None, width=dp(36)))
        label = f"{name}  ({sw.name})" + ("  — now" if active else "")
        self.add_widget(FitLabel(text=label, max_font=sp(20), bold=active))
        if score is not None:
            self.add_widget(FitLabel(text=str(score), max_font=sp(22), halign="right", size_hint_x=0.3))


class GenericBoard(Picture, BoxLayout):

    def draw(self, session: Session, before: tuple[Any, ...] | None) -> None:
        players = self.ids.players
        players.clear_widgets()
        scores = session.scores()
        active = session.prompt().player
        for name in session.players():
            players.add_widget(PlayerLine(name, scores.get(name), name == active))
        lines = self.ids.lines
        lines.clear_widgets()
        for key, text in flatten(session.game.state_json(session.state))[:MAX_LINES]:
            # As tall as the line needs at 16 px: a long state line wraps instead of shrinking to 10 px.
            lines.add_widget(TallLabel(text=f"{key}: {text}", max_font=sp(16), size_hint_y=None, min_height=dp(26)))


_ = theme
load_kv(__file__)
