from __future__ import annotations

import pytest

from companion import records, registry
from companion.errors import IllegalAction
from companion.events import Event
from companion.games.sheep_hop import GAME, Phase
from companion.session import Session

from .helpers import move, new, placed, roll, setup


def refused(state, event: Event, rule: str) -> IllegalAction:
    before = GAME.state_json(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, event)
    assert rule in err.value.rule and err.value.rule.startswith("Sheep Hop!")
    assert GAME.state_json(state) == before
    return err.value


def test_registered_and_waits_for_the_die() -> None:
    assert registry.get("sheep-hop") is GAME
    p = GAME.prompt(new())
    assert p.player == "Ann" and p.dice is not None and p.dice.die == "sheep-hop"
    # Before the first roll the table may still place the wolves (Contents and Setup C).
    assert "double-big-wolf" in p.dice.faces and p.rule == "Contents and Setup" and "wolf" in p.text
    j = GAME.state_json(new())
    assert (j["saved"], j["captured"], j["on_board"]) == (0, 0, 9)
    assert j["wolves"]["big"] == {"position": 0, "space": [1, 0], "direction": "clockwise", "path_length": 20}
    after = GAME.apply(new(), roll("white"))
    assert GAME.prompt(GAME.apply(after, move_table("white1"))).rule == "Turn Sequence"


def move_table(sheep: str, pen: bool = False) -> Event:
    return Event("sheep", {"sheep": sheep, "pen": pen})


def test_the_table_places_the_wolves_before_the_first_roll() -> None:
    """Contents and Setup C: "place the 2 Wolf pawns each on a space of their path (your choice)"."""
    state = new(tiles=[{"tile": "rock", "at": [1, 4]}])
    starts = [e for e in GAME.legal_actions(state) if e.type == "wolf-start"]
    assert len(starts) == 19 + 7 - 1  # every other free space of both paths (the rock covers one of the big wolf's)
    state = GAME.apply(state, Event("wolf-start", {"wolf": "big", "position": 5}))
    state = GAME.apply(state, Event("wolf-start", {"wolf": "little", "position": 3}))
    j = GAME.state_json(state)
    assert j["wolves"]["big"]["position"] == 5 and j["wolves"]["little"]["position"] == 3
    assert GAME.prompt(state).alert is None  # a routine step, not a ruling
    refused(state, Event("wolf-start", {"wolf": "grey", "position": 1}), "Contents and Setup")
    refused(state, Event("wolf-start", {"wolf": "big", "position": 20}), "Contents and Setup")
    refused(state, Event("wolf-start", {"wolf": "big", "position": True}), "Contents and Setup")
    refused(state, Event("wolf-start", {"wolf": "big", "position": 4}), "Contents and Setup")  # under the rock at [1, 4]
    # The big wolf moves from where the table put it.
    state = GAME.apply(state, roll("double-big-wolf"))
    assert GAME.state_json(state)["wolves"]["big"]["position"] == 7
    refused(state, Event("wolf-start", {"wolf": "big", "position": 1}), "Contents and Setup")
    assert not [e for e in GAME.legal_actions(state) if e.type == "wolf-start"]


def test_only_news_is_a_ruling() -> None:
    state = GAME.apply(new(), roll("white"))
    state = GAME.apply(state, move_table("white1", pen=True))
    assert GAME.prompt(state).alert is None and GAME.state_json(state)["last"] == "white1 reached the pen"
    state = GAME.apply(state, roll("big-and-little-wolf"))
    state = GAME.apply(state, Event("capture", {"sheep": ["black2"]}))
    assert GAME.prompt(state).alert == "the wolves caught black2"


def test_a_roll_must_be_a_face_of_the_die() -> None:
    state = new()
    refused(state, Event("roll", {"die": "d6", "faces": [3]}), "Turn Sequence")
    refused(state, roll("purple"), "Turn Sequence")
    refused(state, Event("roll", {"die": "sheep-hop", "faces": ["white", "black"]}), "Turn Sequence")
    refused(state, Event("sheep", {"sheep": "white1"}), "Turn Sequence")
    refused(state, Event("roll", {"die": "sheep-hop", "faces": ["white"]}, player="Ben"), "Turn Sequence")
    assert GAME.apply(state, Event("roll", {"die": "sheep-hop", "faces": ["white"]}, player="Ann")).face == "white"


def test_colour_face_lets_only_that_colour_move_then_any_when_none_left() -> None:
    state = GAME.apply(new(), roll("black"))
    assert state.phase is Phase.SHEEP and GAME.state_json(state)["may_move"] == ["black1", "black2", "black3"]
    assert "move one black sheep" in GAME.prompt(state).text
    refused(state, Event("sheep", {"sheep": "white1", "pen": False}), "sheep faces")
    state = GAME.apply(new(), Event("correction", {"sheep": {"black1": "pen", "black2": "den", "black3": "pen"}}))
    state = GAME.apply(state, roll("black"))
    assert len(GAME.state_json(state)["may_move"]) == 6
    assert "any sheep" in GAME.prompt(state).text
    state = GAME.apply(new(), roll("multicoloured"))
    assert len(GAME.state_json(state)["may_move"]) == 9


def test_table_mode_sheep_move_and_pen_then_next_player() -> None:
    state = GAME.apply(new(), roll("white"))
    state = GAME.apply(state, Event("sheep", {"sheep": "white2", "pen": True}))
    j = GAME.state_json(state)
    assert j["saved"] == 1 and j["on_board"] == 8 and j["sheep"]["white2"]["where"] == "pen"
    assert state.phase is Phase.ROLL and GAME.prompt(state).player == "Ben"
    state = GAME.apply(state, roll("white"))
    refused(state, Event("sheep", {"sheep": "white2", "pen": False}), "the sheep pen")
    refused(state, Event("sheep", {"sheep": "white9", "pen": False}), "sheep faces")


def test_wolf_faces_move_the_wolves_and_the_table_says_whom_they_caught() -> None:
    state = GAME.apply(new(), roll("big-and-little-wolf"))
    j = GAME.state_json(state)
    assert j["wolves"]["big"]["position"] == 1 and j["wolves"]["little"]["position"] == 1
    assert state.phase is Phase.CAPTURE and GAME.prompt(state).player is None
    assert GAME.prompt(state).choices[0].label == "No sheep caught"
    refused(state, roll("white"), "Wolf faces")
    refused(state, Event("capture", {"sheep": ["white1", "white1"]}), "Wolf faces")
    state = GAME.apply(state, Event("capture", {"sheep": ["white1"]}))
    assert GAME.state_json(state)["captured"] == 1 and state.phase is Phase.ROLL
    state = GAME.apply(state, roll("double-big-wolf"))
    j = GAME.state_json(state)
    assert j["wolves"]["big"]["position"] == 3 and j["wolves"]["little"]["position"] == 1
    state = GAME.apply(state, Event("capture", {"sheep": []}))
    assert GAME.state_json(state)["captured"] == 1


def test_full_board_wolves_capture_the_sheep_they_pass() -> None:
    state = placed(new("board"), white1=(1, 1), white2=(1, 2))
    state = GAME.apply(state, roll("double-big-wolf"))  # big wolf (1,0) -> (1,1) -> (1,2)
    j = GAME.state_json(state)
    assert j["captured"] == 2 and j["sheep"]["white1"] == {"where": "den", "at": None}
    assert j["wolves"]["big"]["space"] == [1, 2] and state.phase is Phase.ROLL
    assert "caught white1, white2" in j["last"]


def test_wolves_skip_spaces_covered_by_tiles() -> None:
    state = new("board", tiles=[{"tile": "rock", "at": [1, 1]}])
    state = GAME.apply(state, roll("double-big-wolf"))
    assert GAME.state_json(state)["wolves"]["big"]["space"] == [1, 3]  # (1,1) is not counted


def test_step_jump_and_chain_on_the_full_board() -> None:
    state = GAME.apply(new("board"), roll("black"))
    # black2 at (7,3) cannot step: every side is taken; it jumps white2 at (6,3) to (5,3).
    refused(state, move("black2", (6, 3)), "Movement Rules")
    refused(state, move("black2", (6, 2)), "Movement Rules")  # diagonal
    refused(state, move("black2", (5, 3), (4, 3)), "Movement Rules")  # a step after a jump
    state = GAME.apply(state, move("black2", (5, 3)))
    assert GAME.state_json(state)["sheep"]["black2"]["at"] == [5, 3]
    state = GAME.apply(state, roll("white"))
    refused(state, move("white1", (5, 2), (4, 2)), "Movement Rules")  # a regular move is one space
    state = GAME.apply(state, move("white1", (5, 2)))
    # brown2 (8,3) jumps black2's empty space? (7,3) is empty now: no animal to jump.
    state = GAME.apply(state, roll("brown"))
    refused(state, move("brown2", (6, 3)), "Movement Rules")
    # brown1 (8,2) jumps black1 (7,2) to (6,2), then white... (5,2) white1 to (4,2): a chain.
    state = GAME.apply(state, move("brown1", (6, 2), (4, 2)))
    assert GAME.state_json(state)["sheep"]["brown1"]["at"] == [4, 2]


def test_the_pen_is_reached_from_the_exit_by_a_step_or_a_jump() -> None:
    state = placed(new("board"), white1=(0, 3), white2=(1, 3))
    state = GAME.apply(state, roll("white"))
    refused(state, move("white3", "pen"), "the sheep pen")
    state = GAME.apply(state, move("white2", (-1, 3)))  # jumping white1 on the exit lands in the pen
    assert GAME.state_json(state)["sheep"]["white2"]["where"] == "pen"
    state = GAME.apply(state, roll("white"))
    state = GAME.apply(state, move("white1", "pen"))
    assert GAME.state_json(state)["saved"] == 2
    state = placed(new("board"), white1=(1, 2))
    state = GAME.apply(state, roll("white"))
    refused(state, move("white1", (0, 2)), "Movement Rules")  # not a meadow space


def test_rock_and_molehill_can_never_be_crossed() -> None:
    tiles = [{"tile": "rock", "at": [4, 2]}, {"tile": "mole", "at": [4, 4]}, {"tile": "molehill", "at": [4, 3]}]
    state = placed(new("board", tiles=tiles), white1=(5, 2), white2=(5, 3), white3=(5, 4))
    state = GAME.apply(state, roll("white"))
    err = refused(state, move("white1", (3, 2)), "The Rock")
    assert "Rock" in err.reason
    refused(state, move("white1", (4, 2)), "The Rock")
    refused(state, move("white2", (3, 3)), "The Mole and Its Molehill")
    refused(state, move("white2", (4, 3)), "The Mole and Its Molehill")
    # Jumping the mole makes it run: the two tiles swap sides.
    state = GAME.apply(state, move("white3", (3, 4)))
    tiles_now = {tuple(t["at"]): t["tile"] for t in GAME.state_json(state)["tiles"]}
    assert tiles_now == {(4, 2): "rock", (4, 4): "molehill", (4, 3): "mole"}


def test_raccoon_turns_both_wolves_round() -> None:
    state = placed(new("board", tiles=[{"tile": "raccoon", "at": [4, 2]}]), white1=(5, 2))
    state = GAME.apply(state, roll("white"))
    state = GAME.apply(state, move("white1", (3, 2)))
    j = GAME.state_json(state)
    assert j["raccoon"] == "counterclockwise"
    assert {w["direction"] for w in j["wolves"].values()} == {"counterclockwise"}
    state = GAME.apply(state, roll("big-and-little-wolf"))
    j = GAME.state_json(state)
    assert j["wolves"]["big"]["position"] == 19 and j["wolves"]["little"]["position"] == 7


def test_fox_advances_both_wolves_and_they_capture() -> None:
    state = placed(new("board", tiles=[{"tile": "fox", "at": [4, 1]}]), white1=(4, 2), black1=(1, 1))
    state = GAME.apply(state, roll("white"))
    state = GAME.apply(state, move("white1", (4, 0)))
    j = GAME.state_json(state)
    assert j["wolves"]["big"]["position"] == 1 and j["wolves"]["little"]["position"] == 1
    assert j["sheep"]["black1"]["where"] == "den" and "Fox" in j["last"]
    # Table mode: the fox's wolves move, then the table says what they caught.
    state = GAME.apply(new(tiles=[{"tile": "fox", "at": [4, 1]}]), roll("white"))
    state = GAME.apply(state, Event("sheep", {"sheep": "white1", "pen": False, "jumped": ["fox"]}))
    assert state.phase is Phase.CAPTURE and GAME.prompt(state).rule.endswith("The Fox")
    state = GAME.apply(state, Event("capture", {"sheep": ["brown3"]}))
    assert GAME.state_json(state)["captured"] == 1 and state.phase is Phase.ROLL


def test_patou_moves_the_other_sheep_of_the_colour_in_any_order() -> None:
    state = GAME.apply(new(tiles=[{"tile": "patou", "at": [3, 3]}]), roll("white"))
    refused(state, Event("sheep", {"sheep": "white1", "pen": False, "jumped": ["rock"]}), "The Rock")
    refused(state, Event("sheep", {"sheep": "white1", "pen": False, "jumped": ["fox"]}), "Special Tiles")
    state = GAME.apply(state, Event("sheep", {"sheep": "white1", "pen": False, "jumped": ["patou"]}))
    assert state.phase is Phase.PATOU and GAME.state_json(state)["may_move"] == ["white2", "white3"]
    assert GAME.prompt(state).rule.endswith("The Patou")
    refused(state, Event("sheep", {"sheep": "black1", "pen": False}), "The Patou")
    state = GAME.apply(state, Event("sheep", {"sheep": "white3", "pen": True}))
    state = GAME.apply(state, Event("pass", {"sheep": "white2"}))
    assert state.phase is Phase.ROLL and GAME.state_json(state)["saved"] == 1
    # Full board: the patou's sheep move by the movement rules; one that cannot move is skipped
    # once none of those left can move.
    # white3 and brown3 swap places: white3 in the corner (8,4) is boxed in (no free space, no landing).
    state = placed(new("board", tiles=[{"tile": "patou", "at": [4, 2]}]), white1=(5, 2), white2=(5, 4), white3=(8, 4), brown3=(6, 4))
    state = GAME.apply(state, roll("white"))
    state = GAME.apply(state, move("white1", (3, 2)))
    assert state.phase is Phase.PATOU and GAME.state_json(state)["may_move"] == ["white2", "white3"]
    assert {c.payload["sheep"] for c in GAME.prompt(state).choices} == {"white2"}
    refused(state, Event("pass", {"sheep": "white2"}), "Movement Rules")
    state = GAME.apply(state, move("white2", (4, 4)))
    assert state.phase is Phase.ROLL and "white3 cannot move" in GAME.state_json(state)["last"]


def test_end_win_and_shepherds_scale() -> None:
    state = GAME.apply(new(), Event("correction", {"sheep": {s: "pen" for s in GAME.initial_state(setup()).board.sheep_ids()[:6]}}))
    state = GAME.apply(state, Event("correction", {"sheep": {"brown1": "den", "brown2": "den"}}))
    state = GAME.apply(state, roll("brown"))
    assert GAME.outcome(state) is None
    state = GAME.apply(state, Event("sheep", {"sheep": "brown3", "pen": True}))
    o = GAME.outcome(state)
    assert o is not None and o.detail == {"won": True, "saved": 7, "captured": 2, "title": "Shepherd of the Plains"}
    assert GAME.state_json(state)["result"] == {"won": True, "title": "Shepherd of the Plains"}
    refused(state, roll("white"), "End of the Game")
    assert GAME.scores(state) == {"Ann": 7, "Ben": 7}
    lost = GAME.apply(new(), Event("correction", {"sheep": {s: ("pen" if i < 4 else "den") for i, s in enumerate(state.board.sheep_ids())}}))
    o = GAME.outcome(lost)
    assert o is not None and o.detail["won"] is False and o.detail["title"] is None
    assert "lost" in GAME.prompt(lost).text


def test_corrections() -> None:
    state = new("board")
    state = GAME.apply(state, Event("correction", {"wolves": {"big": {"position": 5, "direction": "counterclockwise"}}}))
    assert GAME.state_json(state)["wolves"]["big"]["direction"] == "counterclockwise"
    refused(state, Event("correction", {"wolves": {"big": {"position": 50}}}), "Corrections")
    refused(state, Event("correction", {"sheep": {"white1": [1, 5]}}), "Corrections")  # the big wolf is there
    refused(state, Event("correction", {"sheep": {"white1": [6, 3]}}), "Corrections")  # white2 is there
    refused(state, Event("correction", {"sheep": {"white1": "board"}}), "Corrections")
    refused(state, Event("correction", {"tiles": [{"tile": "mole", "at": [3, 3]}]}), "Corrections")
    refused(state, Event("correction", {"goats": 1}), "Corrections")
    state = GAME.apply(state, Event("correction", {"tiles": [{"tile": "fox", "at": [3, 3]}], "raccoon": "counterclockwise"}))
    assert GAME.state_json(state)["tiles"] == [{"tile": "fox", "at": [3, 3]}]
    mid = GAME.apply(state, roll("white"))
    refused(mid, Event("correction", {"sheep": {"white1": "pen"}}), "Corrections")


def test_session_record_round_trip() -> None:
    session = Session(GAME, setup("board", tiles=[{"tile": "fox", "at": [3, 3]}]))
    for event in (roll("black"), move("black2", (5, 3)), roll("big-and-little-wolf")):
        session.apply(event)
    again = Session.from_record(records.loads(records.dumps(session.record())))
    assert again.state == session.state
    assert session.to_json()["state"]["sheep"]["black2"]["at"] == [5, 3]


def test_patou_order_is_chosen_so_a_boxed_in_sheep_waits_for_the_others() -> None:
    # Special Tiles, The Patou: "move the other sheep of the same color ..., choosing the order".
    # white3 in the corner (8,4) is boxed in until white2 (7,4) moves away: it must stay on the list.
    tiles = [{"tile": "patou", "at": [4, 2]}]
    state = placed(new("board", tiles=tiles), white1=(5, 2), white2=(7, 4), white3=(8, 4), black3=(6, 4), brown3=(6, 2))
    state = GAME.apply(state, roll("white"))
    state = GAME.apply(state, move("white1", (3, 2)))
    assert state.phase is Phase.PATOU and GAME.state_json(state)["may_move"] == ["white2", "white3"]
    assert {c.payload["sheep"] for c in GAME.prompt(state).choices} == {"white2"}  # only white2 can move now
    refused(state, move("white3", (7, 4)), "Movement Rules")
    state = GAME.apply(state, move("white2", (5, 4)))  # jumps black3
    assert state.phase is Phase.PATOU and GAME.state_json(state)["may_move"] == ["white3"]
    state = GAME.apply(state, move("white3", (7, 4)))
    assert state.phase is Phase.ROLL and GAME.state_json(state)["sheep"]["white3"]["at"] == [7, 4]


def test_table_mode_captures_at_most_one_sheep_per_space_the_wolves_entered() -> None:
    # Turn Sequence (Wolf faces): a wolf captures the sheep on the spaces it passes over, one
    # sheep to a space, so one roll of "Big Bad Wolf & Little Bad Wolf" catches 2 sheep at most.
    state = GAME.apply(new(), roll("big-and-little-wolf"))
    err = refused(state, Event("capture", {"sheep": ["white1", "white2", "white3"]}), "Wolf faces")
    assert "2 spaces" in err.reason
    labels = [c.label for c in GAME.prompt(state).choices]
    assert "white1 and black2 caught" in labels and len(labels) == 1 + 9 + 36  # none, one, or two
    assert all(GAME.apply(state, c.event()).phase is Phase.ROLL for c in GAME.prompt(state).choices)
    state = GAME.apply(state, Event("capture", {"sheep": ["white1", "black2"]}))
    assert GAME.state_json(state)["captured"] == 2
    # The Fox moves each wolf 1 space: 2 spaces in all.
    state = GAME.apply(new(tiles=[{"tile": "fox", "at": [4, 1]}]), roll("white"))
    state = GAME.apply(state, Event("sheep", {"sheep": "white1", "pen": False, "jumped": ["fox"]}))
    refused(state, Event("capture", {"sheep": ["black1", "black2", "black3"]}), "The Fox")


def test_table_mode_reports_jumped_tiles_by_touch() -> None:
    # Special Tiles: each animal tile acts when a sheep jumps it, so the table must be able to
    # say, by touch, which tiles a sheep jumped and in what order: tap the sheep, then each tile.
    tiles = [{"tile": "fox", "at": [4, 1]}, {"tile": "mole", "at": [3, 3]}, {"tile": "molehill", "at": [2, 5]}]
    state = GAME.apply(new(tiles=tiles), roll("white"))
    p = GAME.prompt(state)
    assert [c.label for c in p.choices] == ["Move white1", "Move white2", "Move white3", "No sheep can move"]
    picked = GAME.apply(state, p.choices[0].event())
    assert GAME.state_json(picked)["picked"] == {"sheep": "white1", "jumped": []}
    labels = [c.label for c in GAME.prompt(picked).choices]
    assert labels == [
        "white1 moved", "white1 reached the pen", "white1 jumped the fox", "white1 jumped the mole", "Choose another sheep"
    ]
    picked = GAME.apply(picked, GAME.prompt(picked).choices[3].event())  # the mole: it runs, the molehill becomes a mole
    picked = GAME.apply(picked, GAME.prompt(picked).choices[2].event())  # then the fox
    assert GAME.state_json(picked)["picked"] == {"sheep": "white1", "jumped": ["mole", "fox"]}
    assert "jumped the mole, the fox" in GAME.prompt(picked).text
    done = GAME.apply(picked, GAME.prompt(picked).choices[0].event())
    assert done.phase is Phase.CAPTURE and GAME.state_json(done)["picked"] is None
    assert {t["tile"]: t["at"] for t in GAME.state_json(done)["tiles"]} == {"fox": [4, 1], "molehill": [3, 3], "mole": [2, 5]}
    again = GAME.apply(picked, Event("pick", {}))
    assert GAME.prompt(again).choices == p.choices
    refused(state, Event("pick", {"sheep": "black1", "jumped": []}), "sheep faces")
    refused(state, Event("pick", {"sheep": "white1", "jumped": ["rock"]}), "The Rock")
    # Legal actions stay complete events (a move with no tile jumped, or a pass).
    assert {e.type for e in GAME.legal_actions(state)} == {"sheep", "pass"}


def test_fox_moves_the_wolves_at_once_even_in_the_middle_of_a_chain() -> None:
    # Special Tiles, The Fox: "the wolves immediately advance one space each". white1 (3,1) jumps
    # the fox (2,1) to (1,1); the big wolf advances from (1,0) onto (1,1) and catches it there, so
    # its chain of jumps ends: it cannot go on over black1 (1,2) to (1,3).
    tiles = [{"tile": "fox", "at": [2, 1]}]
    state = placed(new("board", tiles=tiles), white1=(3, 1), black1=(1, 2))
    state = GAME.apply(state, roll("white"))
    err = refused(state, move("white1", (1, 1), (1, 3)), "The Fox")
    assert "caught" in err.reason
    paths = [c.payload["path"] for c in GAME.prompt(state).choices if c.payload["sheep"] == "white1"]
    assert [[1, 1]] in paths and [[1, 1], [1, 3]] not in paths
    after = GAME.apply(state, move("white1", (1, 1)))
    j = GAME.state_json(after)
    assert j["sheep"]["white1"] == {"where": "den", "at": None} and j["wolves"]["big"]["space"] == [1, 1]
    assert j["sheep"]["black1"]["where"] == "board" and "caught white1" in j["last"]
