"""The no-reverse symbols read as "undo the previous player's action" (docs/games/shear-panic.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.errors import IllegalAction
from companion.games.shear_panic import GAME
from companion.games.shear_panic.actions import Action
from companion.games.shear_panic.reverse import carried
from companion.games.shear_panic.state import LastAction

from .helpers import ev, in_fields, roll

SQUARE = ["RGB", "YKY", "BGR"]  # front row first


def legal(s, tile: str) -> list[dict]:
    return [e.payload for e in GAME.legal_actions(s) if e.payload["tile"] == tile]


def test_the_same_row_pushed_back_is_refused_even_when_the_flock_would_not_return() -> None:
    # The middle row has a gap: Rita's push from the left moves only Y; Gus's push back
    # from the right moves K and Y instead, so the flock does not return where it was; it is still
    # the same action the opposite way on the same row.
    s = in_fields(["RGB", "Y.KY", "BGR"])
    s = GAME.apply(s, ev("action", "Rita", tile="line-push-1", sheep=[0, 1], direction="right"))
    assert s.flock.rows() == ["RGB.", ".YKY", "BGR."]
    with pytest.raises(IllegalAction, match=r"same row or column .*die symbol"):
        GAME.apply(s, ev("action", "Gus", tile="line-push-2", sheep=[1, 1], direction="left"))
    assert not [p for p in legal(s, "line-push-2") if p["direction"] == "left" and p["sheep"][1] == 1]
    # Another row pushed the opposite way is no undo, nor the same row pushed on.
    assert {"tile": "line-push-2", "sheep": (2, 2), "direction": "left"} in legal(s, "line-push-2")
    GAME.apply(s, ev("action", "Gus", tile="line-push-2", sheep=[1, 1], direction="right"))


def test_a_diagonal_pushed_back_is_refused_a_parallel_one_is_not() -> None:
    s = in_fields(SQUARE)
    s = GAME.apply(s, ev("action", "Rita", tile="diagonal-push-2", sheep=[1, 0], direction="front-right"))
    assert s.flock.rows() == ["RGBY", "YKG.", "B.R."]
    back = [p for p in legal(s, "diagonal-push-2") if p["direction"] == "back-left"]
    assert back and not [p for p in back if p["sheep"][0] - p["sheep"][1] == 1]  # the diagonal x - y = 1
    with pytest.raises(IllegalAction, match=r"same diagonal .*crossed-out circle"):
        GAME.apply(s, ev("action", "Gus", tile="diagonal-push-2", sheep=[3, 2], direction="back-left"))


def test_the_die_symbol_allows_the_undo_after_any_die_the_crossed_circle_never() -> None:
    s = in_fields(SQUARE, counter=10)  # 14 after the alignment: no panic space
    s = GAME.apply(s, ev("action", "Rita", tile="alignment-4", side="front"))
    s = replace(s, rolled_since=True)  # a panic or regrouping die since Rita's action
    GAME.apply(s, ev("action", "Gus", tile="alignment-3", side="back"))
    with pytest.raises(IllegalAction, match="crossed-out circle"):
        GAME.apply(s, ev("action", "Gus", tile="alignment-4", side="back"))


def test_the_undo_follows_the_flock_through_a_panic_ewe_turn() -> None:
    # Rita pushes the left column to the front on the last step before a panic space;
    # the panic turns the flock left, so that column is now a row pushed to the right.
    s = in_fields(SQUARE, counter=2)
    s = GAME.apply(s, ev("action", "Rita", tile="line-push-2", sheep=[0, 0], direction="front"))
    assert s.time_counter == 4
    s = GAME.apply(s, roll("panic", "white"))
    s = GAME.apply(s, ev("ewe-turn", "Rita", direction="left"))
    assert s.last_action is not None and s.last_action.back == (-1, 0)
    row = s.last_action.at[1]
    refused = [p for p in legal(s, "line-push-1") if p["direction"] == "left" and p["sheep"][1] == row]
    assert refused == []
    assert [p for p in legal(s, "line-push-1") if p["direction"] == "left" and p["sheep"][1] != row]


def test_an_undo_is_carried_by_turns_and_shifts() -> None:
    last = LastAction(Action.LAMB_PUSH, (0, -1), (2, 1))
    assert carried(last, (0, 0), "left") == LastAction(Action.LAMB_PUSH, (-1, 0), (1, -2))
    assert carried(last, (1, 3), "right") == LastAction(Action.LAMB_PUSH, (1, 0), (0, 5))
    turn = LastAction(Action.EWE_TURN, "right")
    assert carried(turn, (4, 4), "left") == turn  # a side is a side whichever way the flock faces
