"""Random-play simulation of Sheepdogs of Pendleton Hill: every game dealt, set
up, played card by card and scored through the public engine (GAME.apply), with
every sheep, shepherd and card accounted for at the end.

    .venv/bin/python benchmarks/pendleton_hill_sim.py [games] [seed]

Prints games per second of CPU time (time.process_time), since the machine is shared.
"""

from __future__ import annotations

import random

from _simulate import simulate

from companion.events import Event
from companion.games.pendleton_hill import GAME, Phase
from companion.games.pendleton_hill.moves import legal_moves


def play_one(rng: random.Random) -> tuple[int, int]:
    names = [f"P{i}" for i in range(rng.randint(3, 5))]
    state = GAME.initial_state(GAME.validate_setup({"players": names}))
    events = 0
    while state.phase is not Phase.OVER:
        # The enumeration is cheap tuples; only the chosen one becomes an Event,
        # and apply checks it against the rules like any event from the table.
        kind, payload, who = rng.choice(legal_moves(state))
        state = GAME.apply(state, Event(kind, payload, player=who))
        events += 1
    outcome = GAME.outcome(state)
    assert outcome is not None and sorted(outcome.ranking) == sorted(names)
    assert state.turn == 60 + len(names)  # one turn per deck card and per Sheepdog card
    assert state.deck == 0 and not any(state.hands) and not any(state.sheepdogs)
    assert state.played == (20, 20, 20)
    for c in range(len(names)):
        assert state.sheep_pool[c] + sum(f.count(c) for f in (*state.flocks, *state.pens)) == 6
        assert state.shepherd_pool[c] + sum(c in h for h in state.shepherds) == 7
    return events, len(names)


def main() -> None:
    simulate("pendleton-hill", lambda rng: play_one(rng)[0], "events")


if __name__ == "__main__":
    main()
