"""A random table: legal events chosen at random, for the benchmark and the property tests.

Choices come from the prompt (what a touchscreen would offer), dice are random,
and now and then someone blows a whistle (sometimes unattributed, sometimes
late).  The weights only nudge play toward the end (lead sheep Home, open
hideouts, rustle) so that games finish; every event is still one the screen offers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.events import ROLL, WHISTLE, Event
from companion.game import Choice

from .board import HOME, SHEEP_VALUES, UNSEEN
from .engine import Fleeced
from .state import FleecedState, Phase


@dataclass
class Clock:
    now: float = 1_750_000_000.0

    def tick(self, rng: random.Random) -> float:
        self.now += rng.uniform(0.5, 4.0)
        return self.now


def _weight(s: FleecedState, c: Choice) -> float:
    t, p = c.type, c.payload
    if t == "correction":
        return 0.3
    if t == "landed":
        if p.get("where") == HOME or p.get("via_home"):
            return 12.0 if s.in_tow else 0.5
        if p.get("where") == "doorstep":
            hand = s.hands[s.active]
            return 3.0 if UNSEEN in hand or f"key-{p.get('hideout')}" in hand or "skeleton-key" in hand else 0.2
        return 1.0
    if t == "rustle":
        return 8.0
    if t == "open":
        return 20.0
    if t == "end-turn":
        return 2.0
    if t == "abandon":
        return 0.3
    if t == "play":
        return 0.5
    if t == "whistle":
        return 6.0
    if t == "settle":
        return 2.0
    if t == "draw":
        return 0.4 if p.get("card") == "hard-cheese" else 1.0
    if t == "hideout-card":
        # keep hideout cards near an even share of the bag, as real cards would be
        share = s.sheep.bag / (s.sheep.hideouts + 1)
        return 1.0 / (1.0 + abs(p.get("count", 0) - share))
    return 1.0


def random_tally(rng: random.Random, n: int) -> dict[str, int]:
    counts = dict.fromkeys(SHEEP_VALUES, 0)
    kinds = list(SHEEP_VALUES)
    for _ in range(n):
        counts[rng.choice(kinds)] += 1
    return counts


def random_event(game: Fleeced, s: FleecedState, rng: random.Random, clock: Clock) -> Event:
    """One event the table could legally produce now."""
    now = clock.tick(rng)
    if s.phase is Phase.TALLY:
        who = next(i for i, t in enumerate(s.tallies) if t is None)
        return Event("tally", random_tally(rng, s.sheep.claimed[who]), player=s.names[who], time=now)
    if rng.random() < 0.02 and s.phase is not Phase.OVER:  # a stray whistle: anyone, sometimes unattributed
        blower = rng.choice([*s.names, None])
        return Event(WHISTLE, {"blower": blower}, player=blower, time=now, source="microphone")
    prompt = game.prompt(s)
    if s.check is not None and rng.random() < 0.3:  # a late whistle, inside or just outside the margin
        t = s.check.roll_time + rng.uniform(0.0, 2.0 * s.margin)
        return Event(WHISTLE, {"blower": s.player}, player=s.player, time=max(t, now - 10.0), source="microphone")
    choices = list(prompt.choices)
    if prompt.dice is not None and not s.questions:
        roll_p = 0.55 if choices else 1.0
        if s.phase is Phase.ROLL and any(c.type == WHISTLE for c in choices):
            roll_p = 0.15  # usually whistle first
        if rng.random() < roll_p:
            faces = [rng.randint(1, 6) for _ in range(prompt.dice.count)]
            return Event(ROLL, {"die": "d6", "faces": faces}, time=now, source="camera")
    if not choices:
        raise RuntimeError(f"random play is stuck: {prompt.text}")
    weights = [_weight(s, c) for c in choices]
    choice = rng.choices(choices, weights)[0]
    return choice.event(time=now)


def play_game(game: Fleeced, setup: dict, rng: random.Random, max_events: int = 20_000) -> tuple[FleecedState, int]:
    """Play one game to the end; returns the final state and the number of events."""
    s = game.initial_state(game.validate_setup(setup))
    clock = Clock()
    for n in range(1, max_events + 1):
        s = game.apply(s, random_event(game, s, rng, clock))
        if s.phase is Phase.OVER:
            return s, n
    raise RuntimeError(f"no end after {max_events} events")
