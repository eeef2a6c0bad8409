"""Fleeced! random-play simulation: complete games, random legal choices and random dice.

    .venv/bin/python benchmarks/fleeced_sim.py [--games 10000] [--seed 1]

Every game is played to the end (all 40 sheep claimed and tallied) through the
engine's pure ``apply``, with the sheep accounting checked after every event.
Prints games/s and events/s in CPU time (``time.process_time``), so the figures
mean the same on a loaded machine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _machine import describe

from companion.games.fleeced import GAME
from companion.games.fleeced.randomplay import Clock, random_event
from companion.games.fleeced.state import Phase

NAMES = ["Wallace", "Gromit", "Wendolene", "Shaun", "Preston", "Feathers"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    events = 0
    kinds: Counter[str] = Counter()
    start = time.process_time()
    for _ in range(args.games):
        players = NAMES[: rng.randint(2, 6)]
        s = GAME.initial_state(GAME.validate_setup({"players": players}))
        clock = Clock()
        while s.phase is not Phase.OVER:
            s = GAME.apply(s, random_event(GAME, s, rng, clock))
            s.sheep.check()  # all 40 accounted for, none negative
            events += 1
        if GAME.outcome(s) is None:
            raise AssertionError("a finished game has no outcome")
        kinds.update(r.kind for r in s.rulings)
    cpu = time.process_time() - start
    print(f"machine: {describe()}")
    print(f"{args.games} games, {events} events in {cpu:.1f} s CPU (seed {args.seed})")
    print(f"{args.games / cpu:.1f} games/s, {events / cpu:.0f} events/s, {events / args.games:.0f} events/game")
    print("rulings: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
