"""Shear Panic engine figures: legal-move generation, apply, and random play.

Run: ``.venv/bin/python benchmarks/shear_panic_bench.py [--games 10000] [--seed 1]``

All times are CPU time (``time.process_time``): the machine is shared, so
wall-clock time would measure the neighbours.  The random-play simulation
plays complete games (3 and 4 players alternately) choosing uniformly among
the legal moves, including the dice faces, and fails loudly on any error.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from companion.events import Event
from companion.games.shear_panic import GAME
from companion.games.shear_panic.state import Phase, State

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def new_game(n: int) -> State:
    return GAME.initial_state(GAME.validate_setup({"players": NAMES[:n]}))


def play(rng: random.Random, n: int, keep: list[tuple[State, Event]] | None = None) -> tuple[State, int]:
    s = new_game(n)
    steps = 0
    while s.phase is not Phase.OVER:
        moves = GAME.legal_moves(s)
        if not moves:
            raise AssertionError(f"no legal move in phase {s.phase} at step {steps}")
        kind, payload = rng.choice(moves)
        event = Event(kind, payload)
        if keep is not None:
            keep.append((s, event))
        s = GAME.apply(s, event)
        steps += 1
        if steps > 5000:
            raise AssertionError("a game did not end within 5000 events")
    return s, steps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)

    # A corpus of real positions (every phase, as often as play meets them).
    corpus: list[tuple[State, Event]] = []
    for i in range(200):
        play(rng, 3 + i % 2, corpus)
    actions = [s for s, _ in corpus if s.phase is Phase.ACTION]

    t = time.process_time()
    generated = sum(len(GAME.legal_moves(s)) for s in actions)
    dt = time.process_time() - t
    print(f"legal moves, action phase:   {len(actions) / dt:10,.0f} positions/s  {generated / dt:12,.0f} moves/s"
          f"  (mean {generated / len(actions):.0f} legal actions per position)")
    t = time.process_time()
    for s in actions:
        GAME.legal_actions(s)
    dt = time.process_time() - t
    print(f"legal_actions (as Events):   {len(actions) / dt:10,.0f} positions/s  {generated / dt:12,.0f} events/s")
    t = time.process_time()
    for s, _ in corpus:
        GAME.legal_moves(s)
    dt = time.process_time() - t
    print(f"legal moves, all phases:     {len(corpus) / dt:10,.0f} positions/s")
    t = time.process_time()
    for s, e in corpus:
        GAME.apply(s, e)
    dt = time.process_time() - t
    print(f"apply:                       {len(corpus) / dt:10,.0f} events/s  ({len(corpus):,} events of 200 games)")

    t = time.process_time()
    steps_all = 0
    lengths = []
    winners_points = []
    for i in range(args.games):
        final, steps = play(rng, 3 + i % 2)
        steps_all += steps
        lengths.append(steps)
        winners_points.append(max(final.scores))
        if GAME.outcome(final) is None:
            raise AssertionError("a finished game has no outcome")
    dt = time.process_time() - t
    print(
        f"random play:                 {args.games:,} complete games, no error, in {dt:.1f} s CPU"
        f"  ({args.games / dt:,.1f} games/s, {steps_all / dt:,.0f} events/s;"
        f" {statistics.mean(lengths):.0f} events per game, winner's mean score {statistics.mean(winners_points):.1f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
