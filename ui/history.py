"""What the Log and Results screens list, computed from a session (no Kivy).

Kept apart from the widgets so the logic is plain Python: the log rows with
which of them are still in effect, and the scores after every event.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import IllegalAction
from companion.events import CORRECTION, ROLL, WHISTLE, Event
from companion.game import Game
from companion.session import Session


@dataclass(frozen=True)
class LogRow:
    seq: int
    op: str  # "apply" | "undo" | "redo"
    text: str  # what happened, in words
    when: str  # HH:MM:SS
    source: str
    correction: bool  # the table overrode the app (a correction event, or a re-entered roll)
    position: int | None  # index in session.events if this entry's event is still in effect
    turn: int | None


def describe(event: Event, game: Any = None) -> str:
    """An event in words, e.g. "rolled 3 and 5" or "whistle by Ann"; the game's own words where it has them."""
    said = game.describe(event) if game is not None and hasattr(game, "describe") else None
    if said:
        return said
    if event.type == ROLL:
        faces = " and ".join(str(f) for f in event.get("faces", ()))
        die = event.get("die", "")
        text = f"rolled {faces}" if die in ("d6", "") else f"rolled the {die} die: {faces}"
        return f"{event.player} {text}" if event.player else text
    elif event.type == WHISTLE:
        blower = event.get("blower") or event.player or "someone"
        text = f"whistle by {blower}"
    else:
        text = event.type.replace("-", " ") + _payload_words(event.payload)
    if event.player and event.type != WHISTLE:
        text = f"{event.player}: {text}"
    return text


def _payload_words(payload: Mapping[str, Any]) -> str:
    """The payload's values in words ("square", "red 3"), never ``key=value``."""
    parts = []
    for v in payload.values():
        if isinstance(v, Mapping):
            v = ", ".join(f"{a} {b}" for a, b in v.items())
        elif isinstance(v, (list, tuple)):
            v = ", ".join(str(x) for x in v)
        parts.append(str(v).replace("-", " "))
    return (": " + ", ".join(parts)) if parts else ""


def log_rows(session: Session) -> list[LogRow]:
    """Every log entry, oldest first, marking the ones whose event is in effect.

    Replays the apply/undo/redo stack the same way the session does, so each
    "apply" or "redo" row knows its position among the events in effect and a
    tap can undo back to it.
    """
    done: list[int] = []  # row index holding each event in effect
    redo: list[int] = []
    rows: list[dict[str, Any]] = []
    words = _Words(session)
    for entry in session.log:
        i = len(rows)
        event = entry.event
        text = describe(event, session.game) if event is not None else entry.op
        if entry.op in ("apply", "redo"):
            if entry.op == "apply":
                redo.clear()
                text = words.applied(event) or text
            elif redo:
                text = rows[redo[-1]]["text"]
                words.redone()
                redo.pop()
            done.append(i)
        elif entry.op == "undo" and done:
            text = rows[done[-1]]["text"]
            words.undone()
            redo.append(done.pop())
        if entry.op != "apply":
            text = f"{entry.op}: {text}"
        when_at = event.time if event is not None and event.time and entry.op == "apply" else entry.at
        rows.append(
            {
                "seq": entry.seq,
                "op": entry.op,
                "text": text,
                "when": time.strftime("%H:%M:%S", time.localtime(when_at)),
                "source": event.source.value if event is not None else "",
                "correction": event is not None and event.type == CORRECTION,
                "turn": entry.turn,
            }
        )
    position = {row: pos for pos, row in enumerate(done)}
    return [LogRow(position=position.get(i), **r) for i, r in enumerate(rows)]


class _Words:
    """The game's own words for each event read against its state
    (``Game.describe_move``) and what it
    brought about (``Game.announcements``), replayed along the log; games
    without words cost no replay."""

    def __init__(self, session: Session) -> None:
        game = session.game
        cls = type(game)
        self.game = game
        self.on = cls.describe_move is not Game.describe_move or cls.announcements is not Game.announcements
        self.states: list[Any] = [game.initial_state(session.setup)] if self.on else []
        self.undone_states: list[Any] = []

    def applied(self, event: Event | None) -> str | None:
        if not self.on or event is None:
            return None
        before = self.states[-1]
        try:
            after = self.game.apply(before, event)
            said = self.game.describe_move(before, event)
        except Exception:  # the words are a nicety: a game that cannot replay keeps the generic ones
            self.on = False
            return None
        self.undone_states.clear()
        self.states.append(after)
        old, new = self.game.announcements(before), self.game.announcements(after)
        news = new[len(old) :] if new[: len(old)] == old else new
        text = f"{event.player}: {said}" if said and event.player else said
        return " — ".join([text or describe(event, self.game), *news])

    def undone(self) -> None:
        if self.on and len(self.states) > 1:
            self.undone_states.append(self.states.pop())

    def redone(self) -> None:
        if self.on and self.undone_states:
            self.states.append(self.undone_states.pop())


def score_series(session: Session) -> dict[str, list[int]]:
    """Each player's score after every event in effect (index 0: the start)."""
    game = session.game
    state = game.initial_state(session.setup)
    names = session.players()
    series: dict[str, list[int]] = {n: [int(game.scores(state).get(n, 0))] for n in names}
    for event in session.events:
        try:
            state = game.apply(state, event)
        except IllegalAction:
            break  # cannot happen for events the session accepted; stop rather than guess
        scores = game.scores(state)
        for n in names:
            series[n].append(int(scores.get(n, 0)))
    return series
