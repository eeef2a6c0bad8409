"""A real SQLite store holding a finished game of each of the five games, a
cooperative loss, a shared win and a game left unfinished."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion import records, registry
from companion.events import CORRECTION, ROLL, Event
from companion.game import STORED_SETUP, Outcome
from companion.session import Session
from companion.store import Store
from companion.testing import Tally

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FINISHED = {
    "shear-panic": "shear-panic/complete-game-3-players.jsonl",
    "fleeced": "fleeced/full-game-two-players.jsonl",
    "battle-sheep": "battle-sheep/complete-game-strip.jsonl",
    "sheep-hop": "sheep-hop/complete-game-table.jsonl",
    "pendleton-hill": "pendleton-hill/complete-game-three-players.jsonl",
}
START = 1_764_600_000.0  # 2025-12-01, a fixed clock: 30 s an entry


class SharedTally(Tally):
    """Tally whose equal top scores are a shared win (as the rulings make Fleeced! ties)."""

    name = "tally-shared"
    title = "Tally (shared wins)"

    def outcome(self, state):
        o = super().outcome(state)
        if o is None:
            return None
        scores = self.scores(state)
        top = [n for n in o.ranking if scores[n] == scores[o.ranking[0]]]
        return Outcome(o.ranking, None, winners=tuple(top) if len(top) > 1 else ())


@dataclass
class Stored:
    store: Store
    ids: dict[str, int]  # what each game is, by a short name
    sessions: dict[str, Session]


def play(store: Store, fixture: str) -> Session:
    record = records.read(FIXTURES / fixture)
    session = Session.new(store, record.game, record.setup)
    for event in record.events:
        session.apply(event)
    return session


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Stored:
    tmp_path = tmp_path_factory.mktemp("plays")
    clock = itertools.count(START, 30.0)
    store = Store(tmp_path / "data" / "bellwether.db", clock=lambda: next(clock))  # where the CLI looks
    registry.register(SharedTally())
    sessions = {name: play(store, fixture) for name, fixture in FINISHED.items()}
    sessions["sheep-hop-lost"] = play(store, "sheep-hop/lost-game-few-saved.jsonl")
    # A name with control characters, as a game stored before setups refused them (STORED_SETUP is how
    # reopening such a game skips the rule): the exports must still never carry them.
    token = STORED_SETUP.set(True)
    try:
        tie = Session.new(store, "tally-shared", {"players": ["Ann", "Bob\x07\n", "Cy"], "options": {"target": 5}})
    finally:
        STORED_SETUP.reset(token)
    tie.apply(Event(CORRECTION, {"points": {"Bob\x07": 5}}))
    tie.apply(Event(ROLL, {"die": "d6", "faces": [5]}))
    sessions["tie"] = tie
    # Fleeced! left after the roll for first player, which Gromit won: unfinished.
    left = Session.new(store, "fleeced", {"players": [{"name": "Wallace"}, {"name": "Gromit"}]})
    left.apply(Event(ROLL, {"die": "d6", "faces": [1, 2]}, player="Wallace"))
    left.apply(Event(ROLL, {"die": "d6", "faces": [6, 5]}, player="Gromit"))
    sessions["unfinished"] = left
    yield Stored(store, {k: s.id for k, s in sessions.items()}, sessions)
    store.close()
