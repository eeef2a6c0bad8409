"""Property tests: any sequence of legal events keeps the flock twin sound, and
any event the rules forbid is refused with the rule named and the state unchanged."""

from __future__ import annotations

import copy
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction
from companion.events import Event
from companion.games.shear_panic import GAME
from companion.games.shear_panic.actions import Action, line_start
from companion.games.shear_panic.flock import DIRECTIONS, is_connected
from companion.games.shear_panic.state import Phase, State

# More examples for a soak run: SHEAR_PANIC_EXAMPLES=500 pytest tests/games/shear_panic
EXAMPLES = int(os.environ.get("SHEAR_PANIC_EXAMPLES", "25"))
PLAYERS = ["Ann", "Bob", "Cat", "Dan"]
WHOLE_PHASES = {Phase.ACTION, Phase.TRUCK_ROLL, Phase.PANIC_ROLL, Phase.PUSH, Phase.TURN}
DIRECTION_NAMES = [*DIRECTIONS, "sideways"]


def check_invariants(s: State) -> None:
    positions = [p for p, _ in s.flock.cells]
    assert len(set(positions)) == len(positions), "two sheep on one square"
    assert len(s.flock) == 9 - len(s.shorn)
    assert sorted(s.flock.colours() + list(s.shorn)) == sorted(
        ["blue", "blue", "green", "green", "red", "red", "yellow", "yellow", "black"]
    )
    if s.phase in WHOLE_PHASES:
        assert is_connected(positions), f"flock split in phase {s.phase}: {s.flock.rows()}"
    assert 0 <= s.time_counter <= s.track.final_pen


def random_event(data: st.DataObject, s: State) -> Event:
    """An event that may or may not be legal now, shaped like the real ones."""
    coord = st.lists(st.integers(-1, 6), min_size=2, max_size=2)
    kind = data.draw(st.sampled_from(["action", "roll", "lamb-push", "ewe-turn", "regroup"]))
    if kind == "roll":
        die = data.draw(st.sampled_from(["panic", "regroup", "d6"]))
        face = data.draw(st.sampled_from(["red", "white", "black", "green", "+", "X", "purple", 3]))
        return Event("roll", {"die": die, "faces": [face]})
    if kind == "action":
        tile = data.draw(st.sampled_from([t.id for t in s.tiles] + ["bogus"]))
        t = s.tile(tile)
        if t is not None and t.action is Action.EWE_TURN:
            return Event(kind, {"tile": tile, "direction": data.draw(st.sampled_from(["left", "right", "back"]))})
        if t is not None and t.action is Action.ALIGNMENT:
            return Event(kind, {"tile": tile, "side": data.draw(st.sampled_from(DIRECTION_NAMES))})
        return Event(
            kind, {"tile": tile, "sheep": data.draw(coord), "direction": data.draw(st.sampled_from(DIRECTION_NAMES))}
        )
    if kind == "ewe-turn":
        return Event(kind, {"direction": data.draw(st.sampled_from(["left", "right", "front"]))})
    payload: dict[str, Any] = {"sheep": data.draw(coord), "direction": data.draw(st.sampled_from(DIRECTION_NAMES))}
    if kind == "regroup" and data.draw(st.booleans()):
        payload["slide"] = data.draw(st.sampled_from(["left", "right", "front", "back"]))
    return Event(kind, payload)


def canonical(s: State, e: Event) -> tuple[str, dict[str, Any]]:
    """The form legal_moves lists an accepted event in (a push names its line's first sheep)."""
    from companion.events import thaw

    payload = thaw(e.payload)
    if e.type == "action":
        t = s.tile(payload["tile"])
        if t is not None and t.action in (Action.LINE_PUSH, Action.DIAGONAL_PUSH):
            d = DIRECTIONS[payload["direction"]]
            payload["sheep"] = list(line_start(s.flock.grid(), tuple(payload["sheep"]), d))
    return e.type, payload


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([3, 4]), st.integers(10, 90))
def test_legal_play_keeps_the_flock_sound_and_illegal_events_are_refused(
    data: st.DataObject, n: int, steps: int
) -> None:
    s = GAME.initial_state(GAME.validate_setup({"players": PLAYERS[:n]}))
    check_invariants(s)
    for _ in range(steps):
        if s.phase is Phase.OVER:
            assert GAME.outcome(s) is not None
            break
        moves = GAME.legal_moves(s)
        assert moves, f"no legal move in phase {s.phase}"
        # Probe with an arbitrary event: refused with a rule and no change, or a legal one.
        probe = random_event(data, s)
        snapshot = copy.deepcopy(s)
        try:
            GAME.apply(s, probe)
        except IllegalAction as err:
            assert err.rule.startswith("Shear Panic, ") and len(err.rule) > len("Shear Panic, ")
            assert s == snapshot
        else:
            kind, payload = canonical(s, probe)
            if kind == "roll":
                legal_faces = [p["faces"] for k, p in moves if k == "roll"]
                assert payload["faces"] in legal_faces
            else:
                assert (kind, payload) in moves, f"accepted but not listed as legal: {probe}"
        kind, payload = moves[data.draw(st.integers(0, len(moves) - 1))]
        s = GAME.apply(s, Event(kind, payload))
        check_invariants(s)


@settings(max_examples=max(10, EXAMPLES // 3), deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_games_end_with_a_ranking_of_everyone(seed: int) -> None:
    import random

    rng = random.Random(seed)
    n = rng.choice([3, 4])
    s = GAME.initial_state(GAME.validate_setup({"players": PLAYERS[:n]}))
    for _ in range(2000):
        if s.phase is Phase.OVER:
            break
        kind, payload = rng.choice(GAME.legal_moves(s))
        s = GAME.apply(s, Event(kind, payload))
        check_invariants(s)
    out = GAME.outcome(s)
    assert out is not None and sorted(out.ranking) == sorted(PLAYERS[:n])
    scores = GAME.scores(s)
    assert [scores[p] for p in out.ranking] == sorted(scores.values(), reverse=True)
