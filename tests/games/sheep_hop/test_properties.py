"""Property tests: every sheep accounted for, pieces never stacked, refusals change nothing."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction
from companion.events import Event
from companion.games.sheep_hop import GAME, Phase, Where
from companion.games.sheep_hop.rules import wolf_cell

from .helpers import random_game

# Spaces free at the start (off the starting area, the exit and the wolves' first spaces).
SPACES = [(r, c) for r in range(2, 6) for c in range(1, 6) if (r, c) not in {(2, 2)}]


@st.composite
def tiles(draw) -> list[dict]:
    kinds = draw(st.lists(st.sampled_from(["rock", "patou", "raccoon", "fox"]), unique=True))
    if draw(st.booleans()):
        kinds += ["mole", "molehill"]
    cells = draw(st.lists(st.sampled_from(SPACES), min_size=len(kinds), max_size=len(kinds), unique=True))
    return [{"tile": k, "at": list(c)} for k, c in zip(kinds, cells, strict=True)]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(["table", "board"]), layout=tiles())
def test_every_sheep_is_on_the_board_in_the_pen_or_in_the_den(seed: int, mode: str, layout: list[dict]) -> None:
    states = random_game(seed, mode, layout)
    kinds = sorted(t["tile"] for t in layout)
    prev = states[0]
    for state in states:
        j = GAME.state_json(state)
        assert j["saved"] + j["captured"] + j["on_board"] == 9 and len(j["sheep"]) == 9
        # Saved and captured sheep never come back (no corrections in random play).
        assert j["saved"] >= GAME.state_json(prev)["saved"] and j["captured"] >= GAME.state_json(prev)["captured"]
        for i, w in enumerate(prev.where):
            if w is not Where.BOARD:
                assert state.where[i] is w
        # Tiles stay put; the mole and the molehill only swap sides.
        assert sorted(t.kind for t in state.tiles) == kinds
        assert [t.at for t in state.tiles] == [tuple(t["at"]) for t in layout]
        # Wolves stay on their paths and never stop on a tile.
        covered = {t.at for t in state.tiles}
        for i, w in enumerate(state.wolves):
            assert 0 <= w.position < len(state.board.wolves[i].path)
            assert wolf_cell(state.board, i, w) not in covered
        if mode == "board":
            cells = [a for w, a in zip(state.where, state.at, strict=True) if w is Where.BOARD]
            assert all(a in state.board.spaces for a in cells)
            assert len(set(cells)) == len(cells)  # one sheep per space
            assert not set(cells) & covered  # never on a tile
            wolves = {wolf_cell(state.board, i, w) for i, w in enumerate(state.wolves)}
            assert not set(cells) & wolves  # a sheep a wolf reaches is captured
        prev = state
    final = states[-1]
    if final.phase is Phase.OVER:
        o = GAME.outcome(final)
        assert o is not None and o.detail["saved"] + o.detail["captured"] == 9
        assert o.detail["won"] == (o.detail["saved"] >= 5)


events = st.one_of(
    st.builds(lambda f: Event("roll", {"die": "sheep-hop", "faces": [f]}), st.sampled_from(["white", "purple", "double-big-wolf", 3])),
    st.builds(
        lambda s, p: Event("sheep", {"sheep": s, "path": p}),
        st.sampled_from(["white1", "black2", "brown3", "goat"]),
        st.lists(st.one_of(st.just("pen"), st.tuples(st.integers(-1, 9), st.integers(-1, 7)).map(list)), max_size=3),
    ),
    st.builds(
        lambda s, pen, j: Event("sheep", {"sheep": s, "pen": pen, "jumped": j}),
        st.sampled_from(["white1", "black2", "brown3"]),
        st.sampled_from([True, False, "yes"]),
        st.lists(st.sampled_from(["rock", "mole", "molehill", "fox", "patou", "raccoon", "owl"]), max_size=2),
    ),
    st.builds(lambda s: Event("capture", {"sheep": s}), st.lists(st.sampled_from(["white1", "black2", "sheep"]), max_size=2)),
    st.builds(lambda s: Event("pass", {"sheep": s}), st.sampled_from(["white1", "white2"])),
    st.just(Event("correction", {"sheep": {"white1": "pen"}})),
)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(["table", "board"]), layout=tiles(), at=st.integers(0, 400), event=events)
def test_any_event_is_applied_or_refused_with_the_rule_and_nothing_changes(seed, mode, layout, at, event) -> None:
    states = random_game(seed, mode, layout)
    state = states[min(at, len(states) - 1)]
    before = copy.deepcopy(state)
    try:
        after = GAME.apply(state, event)
    except IllegalAction as e:
        assert e.rule.startswith("Sheep Hop!, ") and len(e.rule) > len("Sheep Hop!, ")
        assert state == before
    else:
        assert state == before
        j = GAME.state_json(after)
        assert j["saved"] + j["captured"] + j["on_board"] == 9


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), layout=tiles(), at=st.integers(0, 400))
def test_every_listed_choice_is_legal(seed, layout, at) -> None:
    states = random_game(seed, "board", layout)
    state = states[min(at, len(states) - 1)]
    for event in GAME.legal_actions(state):
        GAME.apply(state, event)  # must not raise
