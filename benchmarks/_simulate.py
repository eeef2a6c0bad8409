"""The random-play simulation loop the game benchmarks share.

``play_one(rng)`` plays one complete game with random legal choices (checking
the game's conservation rules as it goes) and returns how many events it
applied.  Usage: ``<benchmark>.py [games] [seed]``; figures are CPU time.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from _machine import describe


def simulate(name: str, play_one: Callable[[random.Random], int], unit: str = "events") -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 2026)
    start = time.process_time()
    events = sum(play_one(rng) for _ in range(games))
    cpu = time.process_time() - start
    print(describe())
    print(
        f"{name}: {games} games, {events} {unit}, no error; {cpu:.1f} s CPU, "
        f"{games / cpu:.0f} games/s, {events / cpu:.0f} {unit}/s"
    )
