"""Fleeced!: turn order, sheep in tow and claimed, the Village Green, the bag,
hideouts, hands, the police, and the whistle rulings.

Everything is read from ``state_json``; the rulings themselves are shown
large by the Table frame (``Prompt.alert``) with "Contest".  This module also
keeps the game's whistle timer: when a whistle check's deadline passes it
sends ``settle`` so the ruling appears at once (the engine's documented
contract; it is also offered as a button).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout

from companion.events import Event, Source
from companion.session import Session

from .. import theme
from ..widgets import FitLabel, PlayerMark, keep_children, load_kv
from .base import Picture, SetupSpec

# The characters of the rulebook (Setting Up the Game), in its order.
CHARACTERS = ("Wallace", "Gromit", "Wendolene", "Shaun the Sheep", "Preston", "Feathers McGraw")
SETUP = SetupSpec(key="character", values=CHARACTERS)
SETTLE = "settle"
KNOWN_CARDS_SHOWN = 24  # characters of known card names on a player's line


def place(name: str) -> str:
    """"fish-and-chip-shop" -> "Fish And Chip Shop": the engine's ids in words."""
    return name.replace("-", " ").title()


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def player_line(name: str, sj: Mapping[str, Any]) -> str:
    """One player's flock and hand in a short line (the hand's known cards by name)."""
    sheep = sj.get("sheep", {})
    tow = sheep.get("in_tow", {}).get(name, 0)
    claimed = sheep.get("claimed", {}).get(name, 0)
    hand = sj.get("hands", {}).get(name, [])
    known = [place(str(c)) for c in hand if c != "?"]
    names = ", ".join(known)
    # One 14 px line per player: a long hand is counted, not listed (the Table's answers name the cards).
    cards = _cards(len(hand)) + (f" ({names})" if known and len(names) <= KNOWN_CARDS_SHOWN else
                                 f" ({len(known)} known)" if known else "")
    police = sj.get("police", {})
    extra = ""
    if name in police.get("in_station", ()):
        extra += " · in the Police Station"
    if name in police.get("misses_next_turn", ()):
        extra += " · misses next turn"
    first = (sj.get("first_roll") or {}).get("rolls", {})
    if name in first:  # who goes first: each player's total stays on show until everyone has rolled
        extra += f" · rolled {first[name]} for first"
    return f"in tow {tow} · claimed {claimed} · {cards}{extra}"


def flock_text(sj: Mapping[str, Any]) -> str:
    sheep = sj.get("sheep", {})
    hideouts = sj.get("hideouts", {})
    closed = len(hideouts.get("closed", ()))
    shut = "all hideouts open" if not closed else f"{closed} hideout{'s' if closed != 1 else ''} shut"
    return f"Village Green: {sheep.get('green', 0)} sheep · bag {sheep.get('bag', 0)} · {shut}"


class FleecedPlayer(BoxLayout):
    """One player's row; ``show`` refreshes it in place (rows are reused between redraws)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(orientation="horizontal", spacing=dp(6), size_hint_y=None, height=dp(38), **kw)
        self.mark = PlayerMark(size_hint_x=None, width=dp(34))
        self.add_widget(self.mark)
        text = BoxLayout(orientation="vertical")
        self.title = FitLabel(max_font=sp(16), min_font=sp(14))
        self.detail = FitLabel(max_font=sp(14), min_font=sp(14), color=theme.MUTED)
        text.add_widget(self.title)
        text.add_widget(self.detail)
        self.add_widget(text)

    def show(self, name: str, character: str, active: bool, detail: str) -> None:
        sw, shape = App.get_running_app().player_style(name)
        self.mark.rgba, self.mark.shape, self.mark.active = list(sw.rgba), shape, active
        self.title.text = f"{name} ({character})" + ("  — now" if active else "")
        self.title.bold = active
        self.detail.text = detail


class FleecedBoard(Picture, BoxLayout):

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._settle_at: float | None = None

    def draw(self, session: Session, before: tuple[Any, ...] | None) -> None:
        sj = session.game.state_json(session.state)
        ids = self.ids
        ids.flocks.text = flock_text(sj)
        current = sj.get("turn", {}).get("player")
        players = sj.get("players", {})
        names = list(players) or session.players()
        if current in names:  # turn order, starting with whoever acts now
            i = names.index(current)
            names = names[i:] + names[:i]
        rows = ids.players
        # The rows are reused: a redraw after every event would otherwise make
        # and drop a dozen widgets and their textures each time.
        for row, n in zip(keep_children(rows, len(names), FleecedPlayer), names, strict=True):
            row.show(n, players.get(n, {}).get("character", ""), n == current, player_line(n, sj))
        self._arm_settle(session, sj)

    def _arm_settle(self, session: Session, sj: Mapping[str, Any]) -> None:
        check = (sj.get("whistle") or {}).get("pending_check")
        deadline = check.get("deadline") if check else None
        if not isinstance(deadline, (int, float)) or deadline == self._settle_at:
            return
        self._settle_at = deadline
        # The timer holds the session, not this picture: the Table lets its
        # picture go while the Log or Settings shows, and the ruling must still
        # come on time. A picture made again arms it again: the second call
        # finds the check settled and sends nothing.
        Clock.schedule_once(lambda _dt: _settle(session, deadline), max(0.0, deadline - time.time()) + 0.05)


def _settle(session: Session, deadline: float) -> None:
    app = App.get_running_app()
    if app.session is not session:
        return
    sj = session.game.state_json(session.state)
    check = (sj.get("whistle") or {}).get("pending_check")
    if not check or check.get("deadline") != deadline:
        return  # answered in time
    question = doubt_question(check, getattr(app, "whistle_doubt", None), sj.get("turn", {}).get("player"))
    if question:
        # The microphone heard something it could not vouch for: the table rules, not the timer (the prompt offers
        # "<player> blows the whistle" and "No whistle: rule now"). A penalty the table must contest is worse.
        app.message = question
        app.doubt_asked = app.whistle_doubt  # a "yes" is that whistle, at its time (ui/application.py submit)
        if getattr(app, "speak", False):  # the table may not be looking: prompts are spoken, so is this question
            app.speaker.say(question)
        app.changed()
        return
    app.submit(Event(SETTLE, {}, None, time.time(), Source.TOUCH))


# A whistle "before rolling the dice" is blown just before the throw, and the camera sees the roll once the dice
# settle: a doubt further back than this is not that whistle (in the benchmark's table noise the detector doubts
# about once a minute, so a whole turn's window would ask about most rolls that needed a whistle).
DOUBT_BEFORE_S = 10.0


def doubt_question(check: Mapping[str, Any], doubt: Event | None, player: str | None) -> str:
    """What to ask the table when the microphone's last doubtful whistle could be the one the roll needed (heard
    after the previous roll, at most DOUBT_BEFORE_S before this one, and up to the deadline); "" when there is none."""
    since = max(check.get("since", -math.inf), check["roll_time"] - DOUBT_BEFORE_S)
    if doubt is None or player is None or not since < doubt.time <= check["deadline"]:
        return ""
    blower = doubt.get("blower")  # a calibrated table's whistle it sounded like, when it could tell
    if blower is not None and blower != player:
        return ""  # someone else's whistle: not the one this roll needed
    when = doubt.time - check["roll_time"]
    at = f"{-when:.1f} s before the roll" if when < 0 else f"{when:.1f} s after the roll"
    whose = f"{player}'s whistle" if blower == player else "a whistle"
    return (f"The microphone may have heard {whose} ({at}) but could not be sure. Did {player} blow? "
            f"Tap '{player} blows the whistle', or 'No whistle: rule now'.")


Board = FleecedBoard  # what ui.boards looks up
load_kv(__file__)
