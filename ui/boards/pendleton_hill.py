"""Sheepdogs of Pendleton Hill: the hill, the pens, flocks, shepherds, the
wolf and the deck.

The hill is drawn as its tiers, top tier first, one box per space with its
value, the flock on it, the shepherds (names, not colours) and the wolf in
words; pens, deck and hands are listed beside it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout

from companion.session import Session

from ..widgets import FitLabel, Panel, load_kv
from . import Picture
from .generic import _short


def space_text(name: str, space: Mapping[str, Any]) -> str:
    lines = [f"{name} · {space.get('value', '?')} pts" + ("  WOLF" if space.get("wolf") else "")]
    flock = space.get("flock")
    if flock:
        lines.append(f"flock: {_short(flock)}")
    shepherds = space.get("shepherds") or []
    if shepherds:
        lines.append("shepherds: " + ", ".join(shepherds))
    return "\n".join(lines)


class PendletonHillBoard(Picture, BoxLayout):
    _layout: Any = None  # the tiers' spaces the hill's boxes were made for

    def draw(self, session: Session, before: tuple[Any, ...] | None) -> None:
        sj = session.game.state_json(session.state)
        hill = sj.get("hill", {})
        tiers: dict[int, list[tuple[str, Mapping[str, Any]]]] = {}
        for name, space in hill.items():
            tiers.setdefault(int(space.get("tier", 0)), []).append((name, space))
        order = [sorted(tiers[tier]) for tier in sorted(tiers, reverse=True)]  # the top of the hill first
        layout = [[name for name, _ in row] for row in order]
        if layout != self._layout:  # the hill's shape is set up once a game: boxes made then, texts updated after
            self._layout = layout
            self._cells: dict[str, FitLabel] = {}
            box = self.ids.hill
            box.clear_widgets()
            for row_spaces in layout:
                row = BoxLayout(spacing=dp(3))
                for name in row_spaces:
                    cell = Panel(padding=dp(2))
                    self._cells[name] = FitLabel(max_font=sp(14), min_font=sp(7), halign="center")
                    cell.add_widget(self._cells[name])
                    row.add_widget(cell)
                box.add_widget(row)
        for row in order:
            for name, space in row:
                self._cells[name].text = space_text(name, space)
        pens = "; ".join(f"pen {p.get('pen')}: {p.get('spaces')} spaces, {_short(p.get('sheep') or {})}" for p in sj.get("pens", ()))
        deck = sj.get("deck", {})
        self.ids.pens.text = f"Pens: {pens or 'none'}"
        self.ids.deck.text = (
            f"Deck {sj.get('deck_left', '?')} cards ({_short(deck)}) · sheepdogs left {sj.get('sheepdogs_left', '?')}"
            f" · wolf on {sj.get('wolf', '?')}"
        )
        scores = sj.get("scores", {})
        hands = sj.get("hands", {})
        self.ids.players.text = "\n".join(f"{n}: {scores.get(n, 0)} pts · hand {_short(hands.get(n, {}))}" for n in session.players())


Board = PendletonHillBoard  # what ui.boards looks up
load_kv(__file__)
