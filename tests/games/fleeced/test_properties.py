"""Property tests: random legal play interleaved with random (mostly illegal) events.

Whatever happens, all 40 sheep are accounted for, no count goes negative, and an
event the rules refuse leaves the state as it was, with a message naming the rule.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction
from companion.events import Event
from companion.games.fleeced import GAME
from companion.games.fleeced.board import HAND_LIMIT, TOTAL_SHEEP
from companion.games.fleeced.randomplay import Clock, play_game, random_event
from companion.games.fleeced.state import FleecedState, Phase

NAMES = ["Wallace", "Gromit", "Wendolene", "Shaun", "Preston", "Feathers"]
SECTIONS = {
    "Setting Up the Game (who goes first)", "Your Sheep Whistle", "Your Turn", "Moving around the Board",
    "Abandon Sheep!", "Cheese Cards", "Opening a Sheep Hideout", "Rustling!", "Leading Sheep Home", "Nicked!",
    "Victory!",
}
TYPES = ["roll", "landed", "draw", "discard", "play", "abandon", "open", "hideout-card", "rustle", "end-turn",
         "bribe", "serve", "tally", "whistle", "answer", "correction", "settle", "dance"]
values = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 45), st.sampled_from([*NAMES, "green", "nobody", "pub", "church"]),
    st.sampled_from(["square", "cheese", "home", "doorstep", "key-pub", "skeleton-key", "roll-2", "jump-to",
                     "other", "hard-cheese", "?"]),
    st.lists(st.integers(0, 7), max_size=3),
    st.floats(0, 7), st.just({}), st.just({"pub": 1}), st.lists(st.just({}), max_size=2),  # wrong types
)
payloads = st.dictionaries(
    st.sampled_from(["faces", "where", "hideout", "card", "count", "from", "blower", "contest", "squares",
                     "via_home", "white1", "grey", "black", "die"]), values, max_size=4)
junk_events = st.builds(
    lambda t, p, who, dt: (t, p, who, dt),
    st.sampled_from(TYPES), payloads, st.sampled_from([None, *NAMES[:3], "Nobody"]), st.floats(-5, 5))


def check_invariants(s: FleecedState) -> None:
    sheep = s.sheep
    counts = [sheep.hideouts, sheep.bag, sheep.green, *sheep.in_tow, *sheep.claimed]
    assert min(counts) >= 0, counts
    assert sum(counts) == TOTAL_SHEEP, counts
    limit = HAND_LIMIT + (s.phase is Phase.DISCARD)
    assert all(len(h) <= limit for h in s.hands)
    json.dumps(GAME.state_json(s))  # the screen can always read it
    GAME.prompt(s)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    junk=st.lists(junk_events, min_size=1, max_size=60),
    steps=st.integers(20, 250),
)
def test_random_legal_and_illegal_events(seed: int, players: int, junk: list, steps: int) -> None:
    rng = random.Random(seed)
    s = GAME.initial_state(GAME.validate_setup({"players": NAMES[:players]}))
    clock = Clock()
    junk_at = {rng.randrange(steps): j for j in junk}
    refused = 0
    for i in range(steps):
        if s.phase is Phase.OVER:
            break
        if i in junk_at:
            t, payload, who, dt = junk_at[i]
            event = Event(t, payload, player=who, time=clock.now + dt)
            before = GAME.state_json(s)
            try:
                s = GAME.apply(s, event)
            except IllegalAction as err:
                refused += 1
                assert GAME.state_json(s) == before  # unchanged
                section = err.rule.removeprefix("Fleeced!, ")
                assert section in SECTIONS, err.rule
                assert f"(rule: Fleeced!, {section})" in str(err)
        else:
            s = GAME.apply(s, random_event(GAME, s, rng, clock))
        check_invariants(s)
    assert refused + steps > 0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_random_games_end_with_a_full_ranking(seed: int, players: int) -> None:
    s, n = play_game(GAME, {"players": NAMES[:players]}, random.Random(seed))
    check_invariants(s)
    out = GAME.outcome(s)
    assert out is not None and sorted(out.ranking) == sorted(NAMES[:players])
    assert sum(s.sheep.claimed) == TOTAL_SHEEP
    assert n > 0


def test_every_prompt_choice_is_legal_along_a_game() -> None:
    """What the screen offers as buttons is always accepted (the contest button included)."""
    rng = random.Random(7)
    s = GAME.initial_state(GAME.validate_setup({"players": NAMES[:3]}))
    clock = Clock()
    offered = 0
    while s.phase is not Phase.OVER:
        for choice in GAME.prompt(s).choices:
            GAME.apply(s, choice.event(time=clock.now))  # must not raise
            offered += 1
        s = GAME.apply(s, random_event(GAME, s, rng, clock))
    assert offered > 100
