"""Building Pendleton Hill games event by event for the tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.events import Event
from companion.games.pendleton_hill import GAME, HillState

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


def ev(type_: str, player: str | None = None, **payload: Any) -> Event:
    return Event(type_, payload, player=player)


def deal(names: Sequence[str], hands: Sequence[Sequence[str]]) -> list[Event]:
    """An old record's deal, reported one card at a time around the table (hands are secret now)."""
    return [ev("draw", names[i], card=hands[i][k]) for k in range(3) for i in range(len(names))]


def setup_shepherds(names: Sequence[str], places: Sequence[Sequence[str]]) -> list[Event]:
    """Two setup shepherds each, placed in turn: places[i] = player i's two pastures."""
    return [ev("place-shepherd", names[i], pasture=places[i][k]) for k in range(2) for i in range(len(names))]


class Table:
    """A game in progress: .do() applies one event and keeps every state."""

    def __init__(self, n: int = 3, options: dict[str, Any] | None = None) -> None:
        self.names = NAMES[:n]
        self.setup = GAME.validate_setup({"players": [{"name": x} for x in self.names], "options": options or {}})
        self.state: HillState = GAME.initial_state(self.setup)
        self.events: list[Event] = []

    def do(self, type_: str, player: str | None = None, **payload: Any) -> HillState:
        e = ev(type_, player, **payload)
        self.state = GAME.apply(self.state, e)
        self.events.append(e)
        return self.state

    def run(self, events: Sequence[Event]) -> HillState:
        for e in events:
            self.state = GAME.apply(self.state, e)
            self.events.append(e)
        return self.state

    def start(self, places: Sequence[Sequence[str]] | None = None) -> HillState:
        """Place the setup shepherds (by default on 1a, 1b); the deal is secret, nothing to enter."""
        n = len(self.names)
        return self.run(setup_shepherds(self.names, places or [["1a", "1b"]] * n))

    def json(self) -> dict[str, Any]:
        return GAME.state_json(self.state)


def flock_at(t: Table, pid: str) -> dict[str, int] | None:
    return t.json()["hill"][pid]["flock"]
