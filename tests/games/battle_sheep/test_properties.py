"""Property tests: conservation of sheep and stacks, and refusals that change nothing."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction
from companion.events import Event, thaw
from companion.games.battle_sheep import GAME, Phase
from companion.games.battle_sheep.game import can_move

from .helpers import random_game


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_every_sheep_and_stack_is_accounted_for(seed: int, players: int) -> None:
    states = random_game(seed, players)
    final = states[-1]
    assert len(final.field) == 16 * players  # 4 boards of 4 pastures per player
    assert len({h for b in final.boards for h in b}) == 16 * players  # boards never overlap
    played = [s for s in states if s.phase in (Phase.PLAY, Phase.OVER) and s.stacks]
    previous_out: frozenset[int] = frozenset()
    for moves_made, state in enumerate(played):
        # 16 sheep per player, always on the field, one stack per pasture.
        for p in range(players):
            assert sum(s.count for s in state.stacks if s.owner == p) == 16
        assert all(s.count >= 1 and s.at in state.field for s in state.stacks)
        assert len({s.at for s in state.stacks}) == len(state.stacks)
        # Each turn adds exactly one stack (the split-off one).
        assert len(state.stacks) == players + moves_made
        # Once out, always out; and out means exactly "cannot move".
        assert previous_out <= state.out
        assert state.out == {p for p in range(players) if not can_move(state, p)}
        previous_out = state.out
    assert final.phase is Phase.OVER and GAME.legal_actions(final) == []
    outcome = GAME.outcome(final)
    assert outcome is not None and sorted(outcome.ranking) == sorted(GAME.players(final))
    pastures = outcome.detail["pastures"]
    assert sum(pastures.values()) == len(final.stacks)
    assert all(1 <= outcome.detail["largest_herd"][n] <= pastures[n] for n in pastures)


hexes = st.tuples(st.integers(-3, 10), st.integers(-3, 6)).map(list)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    at=st.integers(0, 200),
    src=hexes,
    dst=hexes,
    count=st.one_of(st.integers(-2, 18), st.none(), st.text(max_size=2)),
    player=st.sampled_from([None, "Ann", "Ben", "Zed"]),
    pick=st.one_of(st.none(), st.integers(0, 500)),
)
def test_any_move_is_either_legal_or_refused_with_the_rule(seed, at, src, dst, count, player, pick) -> None:
    states = random_game(seed, 2)
    state = states[min(at, len(states) - 1)]
    before = copy.deepcopy(state)
    legal = [thaw(e.payload) for e in GAME.legal_actions(state)] if state.phase is Phase.PLAY else []
    if pick is not None and legal:  # half the time, a move from the legal list
        src, dst, count = (legal[pick % len(legal)][k] for k in ("from", "to", "count"))
    event = Event("move", {"from": src, "to": dst, "count": count}, player=player)
    mover = GAME.players(state)[state.active] if state.phase is Phase.PLAY else None
    try:
        after = GAME.apply(state, event)
    except IllegalAction as e:
        assert e.rule.startswith("Battle Sheep, ") and len(e.rule) > len("Battle Sheep, ")
        assert state == before  # refused: nothing changed
        assert thaw(event.payload) not in legal or player not in (None, mover)
    else:
        assert thaw(event.payload) in legal and player in (None, mover)
        assert after != state and state == before
        assert len(after.stacks) == len(state.stacks) + 1
