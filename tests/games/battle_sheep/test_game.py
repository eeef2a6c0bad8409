from __future__ import annotations

import pytest

from companion import registry
from companion.errors import IllegalAction
from companion.events import Event
from companion.games.battle_sheep import GAME, Phase, Stack
from companion.session import Session

from .helpers import STRIP, setup, strip_game


def stacks(*items: tuple[tuple[int, int], str, int]) -> list[dict]:
    return [{"at": list(at), "player": who, "count": n} for at, who, n in items]


def refused(state, event: Event, rule: str) -> IllegalAction:
    before = GAME.state_json(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, event)
    assert rule in err.value.rule and err.value.rule.startswith("Battle Sheep")
    assert GAME.state_json(state) == before
    return err.value


def test_registered_under_its_name() -> None:
    assert registry.get("battle-sheep") is GAME


def test_build_phase_takes_turns_and_checks_contact() -> None:
    state = GAME.initial_state(setup(2))
    assert state.phase is Phase.BUILD and GAME.prompt(state).player == "Ann"
    state = GAME.apply(state, Event("place-board", {"at": [0, 0]}, player="Ann"))
    assert GAME.prompt(state).player == "Ben"
    refused(state, Event("place-board", {"at": [2, 0]}, player="Ann"), "Setup, step 3")
    err = refused(state, Event("place-board", {"at": [5, 5]}), "Setup, step 3")
    assert "touch" in err.reason
    err = refused(state, Event("place-board", {"at": [1, 0]}), "Setup, step 3")
    assert "already part of the field" in err.reason
    refused(state, Event("place-board", {"at": [2, 0], "rotation": 7}), "Setup, step 3")
    refused(state, Event("start", {"at": [0, 0]}), "Setup, step 3")
    for ev in GAME.legal_actions(state)[:20]:
        assert len(GAME.apply(state, ev).field) == 8


def test_start_stack_must_be_on_the_outside_perimeter() -> None:
    state = GAME.initial_state(setup(2, boards=STRIP))
    assert state.phase is Phase.START and len(state.field) == 32
    err = refused(state, Event("start", {"at": [3, 1]}), "Setup, step 4")
    assert "outside perimeter" in err.reason
    refused(state, Event("start", {"at": [9, 9]}), "Setup, step 4")
    state = GAME.apply(state, Event("start", {"at": [0, 0]}, player="Ann"))
    refused(state, Event("start", {"at": [0, 0]}), "Setup, step 4")
    assert all(c.payload["at"] != [0, 0] for c in GAME.prompt(state).choices)
    state = GAME.apply(state, Event("start", {"at": [7, 3]}))
    assert state.phase is Phase.PLAY and state.stacks == (Stack((0, 0), 0, 16), Stack((7, 3), 1, 16))


def test_a_split_leaves_both_stacks_non_empty() -> None:
    state = strip_game()
    for count in (0, 16, -1, "3", None):
        err = refused(state, Event("move", {"from": [0, 0], "to": [7, 0], "count": count}), "Game Play, step 1")
        assert "at least one sheep" in err.reason
    refused(state, Event("move", {"from": [7, 3], "to": [7, 0], "count": 3}), "Game Play, step 1")  # Ben's


def test_the_new_stack_goes_as_far_as_it_can() -> None:
    state = strip_game()
    err = refused(state, Event("move", {"from": [0, 0], "to": [3, 0], "count": 5}), "Game Play, step 2")
    assert "[7, 0]" in err.reason and "[0, 3]" in err.reason
    refused(state, Event("move", {"from": [0, 0], "to": [2, 1], "count": 5}), "Game Play, step 2")
    state = GAME.apply(state, Event("move", {"from": [0, 0], "to": [7, 0], "count": 5}, player="Ann"))
    assert state.by_hex()[(0, 0)].count == 11 and state.by_hex()[(7, 0)].count == 5
    # A stack stops in front of another stack: Ben going north from (7, 3) halts below (7, 0).
    refused(state, Event("move", {"from": [7, 3], "to": [7, 0], "count": 1}), "Game Play, step 2")
    state = GAME.apply(state, Event("move", {"from": [7, 3], "to": [7, 1], "count": 1}, player="Ben"))
    assert state.by_hex()[(7, 1)] == Stack((7, 1), 1, 1)


def test_turns_alternate_and_wrong_player_is_refused() -> None:
    state = strip_game()
    refused(state, Event("move", {"from": [0, 0], "to": [7, 0], "count": 1}, player="Ben"), "Game Play")
    refused(state, Event("place-board", {"at": [9, 9]}), "Game Play")
    state = GAME.apply(state, Event("move", {"from": [0, 0], "to": [7, 0], "count": 1}))
    assert GAME.prompt(state).player == "Ben" and state.turn == 2


def test_legal_actions_are_exactly_the_legal_moves() -> None:
    state = strip_game()
    actions = GAME.legal_actions(state)
    # From (0, 0): east to (7, 0) and south to (0, 3), the other four sides are off the field.
    assert {tuple(e.payload["to"]) for e in actions} == {(7, 0), (0, 3)}
    assert len(actions) == 2 * 15 and {e.type for e in actions} == {"move"}
    for e in actions:
        GAME.apply(state, e)


def test_a_move_is_entered_by_touch_in_two_taps() -> None:
    # Game Play: first the stack and where it slides (one button per straight line), then how
    # many sheep split off (both stacks keep one): never a wall of 90 buttons.
    state = strip_game()
    p = GAME.prompt(state)
    assert [c.type for c in p.choices] == ["pick", "pick"] and "pick" in p.expects
    assert {tuple(c.payload["to"]) for c in p.choices} == {(7, 0), (0, 3)}
    east = next(c for c in p.choices if c.payload["to"] == [7, 0])
    assert east.label == "Stack of 16 on [0, 0] to [7, 0] (7 pastures away)"
    picked = GAME.apply(state, east.event())
    assert GAME.state_json(picked)["stacks"] == GAME.state_json(state)["stacks"]  # nothing moved yet
    p = GAME.prompt(picked)
    assert p.player == "Ann" and "How many of the 16 sheep on [0, 0] go to [7, 0]" in p.text
    assert [c.label for c in p.choices] == [f"{k} sheep" for k in range(1, 16)] + ["Choose another move"]
    moved = GAME.apply(picked, p.choices[4].event())
    assert {"at": [7, 0], "player": "Ann", "count": 5} in GAME.state_json(moved)["stacks"]
    assert GAME.prompt(moved).player == "Ben" and [c.type for c in GAME.prompt(moved).choices] == ["pick"] * 2
    back = GAME.apply(picked, p.choices[-1].event())
    assert GAME.prompt(back).choices == GAME.prompt(state).choices
    # A whole move is still accepted after a pick (keyboard, camera), and picks are checked.
    GAME.apply(picked, Event("move", {"from": [0, 0], "to": [0, 3], "count": 2}))
    refused(picked, Event("move", {"from": [0, 0], "to": [7, 0], "count": 16}), "Game Play, step 1")
    refused(state, Event("pick", {"from": [0, 0], "to": [4, 0]}), "Game Play, step 2")
    refused(state, Event("pick", {"from": [7, 3], "to": [7, 0]}), "Game Play, step 1")
    refused(state, Event("pick", {"from": [0, 0], "to": [7, 0]}, player="Ben"), "Game Play")
    single = GAME.apply(state, Event("correction", {"stacks": stacks(((0, 0), "Ann", 15), ((1, 0), "Ann", 1), ((7, 3), "Ben", 16))}))
    refused(single, Event("pick", {"from": [1, 0], "to": [1, 3]}), "Game Play, step 1")


def test_a_player_who_cannot_move_is_out_and_skipped() -> None:
    state = strip_game()
    # Ben's stack of 15 is boxed in at the corner (7, 3) by Ann; his other sheep are singles.
    layout = stacks(
        ((0, 0), "Ann", 12), ((6, 3), "Ann", 1), ((7, 2), "Ann", 1), ((6, 2), "Ann", 2),  # (6,3),(7,2) border (7,3)
        ((7, 3), "Ben", 15), ((3, 1), "Ben", 1),
    )
    state = GAME.apply(state, Event("correction", {"stacks": layout, "active": "Ben"}))
    assert state.out == frozenset({1}) and GAME.prompt(state).player == "Ann"
    assert GAME.state_json(state)["out"] == ["Ben"]
    # Game Play: a stack blocked on all sides (sheep or the field's edge) is trapped; Ben's single
    # on (3, 1) is not trapped, it just cannot be split.
    assert GAME.state_json(state)["trapped"] == [[7, 3]]
    state = GAME.apply(state, Event("move", {"from": [0, 0], "to": [0, 3], "count": 1}))
    assert GAME.prompt(state).player == "Ann"  # Ben is skipped from then on
    assert "Ben" in GAME.prompt(state).alert


def test_game_ends_when_nobody_can_move_and_ties_go_to_the_largest_herd() -> None:
    state = strip_game()
    # Both players have only single sheep: nobody can move.  8 pastures each.
    ann = [((q, 0), "Ann", 2) for q in range(8)]
    ben = [((0, 1), "Ben", 9)] + [((q, 3), "Ben", 1) for q in (0, 2, 4, 6, 7)] + [((7, 2), "Ben", 1), ((5, 2), "Ben", 1)]
    with pytest.raises(IllegalAction) as err:  # Ann has 16 sheep, Ben 16; make Ben's stack of 9 trapped
        GAME.apply(state, Event("correction", {"stacks": stacks(*ann, *ben[:-1])}))
    assert "15 sheep" in str(err.value)
    ann = [((q, 0), "Ann", 2) for q in range(8)]
    ben = [((q, 1), "Ben", 1) for q in range(7)] + [((7, 1), "Ben", 9)]
    # Ann's (q,0) stacks each have free neighbours? No: row 0 is the top edge and row 1 is full.
    state = GAME.apply(state, Event("correction", {"stacks": stacks(*ann, *ben)}))
    # Ben's 9 at (7, 1) can still go south: play on.
    assert state.phase is Phase.PLAY and state.out == frozenset({0})
    state = GAME.apply(state, Event("move", {"from": [7, 1], "to": [7, 3], "count": 8}, player="Ben"))
    assert state.phase is Phase.PLAY
    state = GAME.apply(state, Event("move", {"from": [7, 3], "to": [0, 3], "count": 7}))
    state = GAME.apply(state, Event("move", {"from": [0, 3], "to": [0, 2], "count": 6}))
    # (0,2) -> north is (0,1) occupied; continue splitting until stuck.
    while state.phase is Phase.PLAY:
        state = GAME.apply(state, GAME.legal_actions(state)[0])
    outcome = GAME.outcome(state)
    assert outcome is not None
    s = GAME.scores(state)
    assert s["Ann"] == 8 and s["Ben"] == sum(1 for st in state.stacks if st.owner == 1)
    assert outcome.ranking[0] == max(s, key=lambda n: (s[n], outcome.detail["largest_herd"][n]))
    refused(state, Event("move", {"from": [7, 1], "to": [7, 3], "count": 1}), "End of the Game")


def test_tie_on_pastures_broken_by_the_largest_herd() -> None:
    state = strip_game()
    # Every pasture filled with single sheep, so nobody can move and the game ends at once.
    # Ann: rows 0-1 without (7, 1), plus the corner (0, 3) cut off from the rest -> 16 pastures, herd 15.
    # Ben: rows 2-3 without (0, 3), plus (7, 1), which touches his (7, 2) -> 16 pastures, herd 16.
    ann = [((q, r), "Ann", 1) for r in (0, 1) for q in range(8) if (q, r) != (7, 1)] + [((0, 3), "Ann", 1)]
    ben = [((q, r), "Ben", 1) for r in (2, 3) for q in range(8) if (q, r) != (0, 3)] + [((7, 1), "Ben", 1)]
    state = GAME.apply(state, Event("correction", {"stacks": stacks(*ann, *ben)}))
    assert state.phase is Phase.OVER and state.out == frozenset({0, 1})
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranking == ("Ben", "Ann")
    assert outcome.detail == {"pastures": {"Ann": 16, "Ben": 16}, "largest_herd": {"Ann": 15, "Ben": 16}}
    assert outcome.tie_break == "Ben and Ann occupy 16 pastures each; largest herd decides: Ben 16, Ann 15"
    assert "Ben wins with 16 pastures (largest herd 16)" in GAME.prompt(state).text
    assert GAME.legal_actions(state) == []


def test_equal_herds_share_the_place() -> None:
    state = strip_game()
    ann = [((q, r), "Ann", 1) for r in (0, 1) for q in range(8)]
    ben = [((q, r), "Ben", 1) for r in (2, 3) for q in range(8)]
    state = GAME.apply(state, Event("correction", {"stacks": stacks(*ann, *ben)}))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranking == ("Ann", "Ben")
    assert "no further tie-break" in outcome.tie_break
    assert "Ann and Ben share first place" in GAME.prompt(state).text


def test_quick_mode_ranks_entered_figures() -> None:
    state = GAME.initial_state(setup(3, mode="quick"))
    assert state.phase is Phase.ENTER and GAME.prompt(state).player is None
    state = GAME.apply(state, Event("result", {"pastures": 15, "largest_herd": 9}, player="Ann"))
    state = GAME.apply(state, Event("result", {"pastures": 15, "largest_herd": 10}, player="Ben"))
    assert GAME.outcome(state) is None
    refused(state, Event("result", {"pastures": 12, "largest_herd": 13}, player="Cat"), "End of the Game")
    refused(state, Event("result", {"pastures": 17, "largest_herd": 3}, player="Cat"), "End of the Game")
    refused(state, Event("result", {"pastures": 10, "largest_herd": 3}, player="Ann"), "End of the Game")
    refused(state, Event("result", {"pastures": 10, "largest_herd": 3}), "End of the Game")
    refused(state, Event("move", {}), "End of the Game")
    state = GAME.apply(state, Event("result", {"pastures": 11, "largest_herd": 11}, player="Cat"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranking == ("Ben", "Ann", "Cat")
    assert "Ann and Ben" not in outcome.tie_break and "Ben and Ann occupy 15" in outcome.tie_break
    assert GAME.state_json(state)["largest_herd"] == {"Ann": 9, "Ben": 10, "Cat": 11}
    state = GAME.apply(state, Event("correction", {"results": {"Ann": {"pastures": 16, "largest_herd": 2}}}))
    assert GAME.outcome(state).ranking == ("Ann", "Ben", "Cat")
    assert GAME.outcome(state).tie_break is None


def test_corrections_are_checked() -> None:
    state = strip_game()
    refused(state, Event("correction", {"stacks": stacks(((0, 0), "Ann", 16), ((9, 9), "Ben", 16))}), "Corrections")
    refused(state, Event("correction", {"stacks": stacks(((0, 0), "Ann", 16), ((0, 0), "Ben", 16))}), "Corrections")
    refused(state, Event("correction", {"active": "Zed"}), "Corrections")
    refused(state, Event("correction", {"colour": "red"}), "Corrections")
    pre = GAME.initial_state(setup(2, boards=STRIP))
    refused(pre, Event("correction", {"active": "Ben"}), "Corrections")
    state = GAME.apply(state, Event("correction", {"active": "Ben"}))
    assert GAME.prompt(state).player == "Ben"


def test_session_undo_and_state_json() -> None:
    session = Session(GAME, setup(2, boards=STRIP))
    session.apply(Event("start", {"at": [0, 0]}))
    session.apply(Event("start", {"at": [7, 3]}))
    session.apply(Event("move", {"from": [0, 0], "to": [0, 3], "count": 4}))
    j = session.to_json()["state"]
    assert j["pastures"] == {"Ann": 2, "Ben": 1} and j["out"] == [] and len(j["field"]) == 32
    assert {"at": [0, 3], "player": "Ann", "count": 4} in j["stacks"]
    session.undo()
    assert session.to_json()["state"]["pastures"] == {"Ann": 1, "Ben": 1}
