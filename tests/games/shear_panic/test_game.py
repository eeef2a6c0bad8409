"""The turn sequence of Shear Panic: truck start, steps A to E, end of the game, prompts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion import registry
from companion.errors import IllegalAction
from companion.games.shear_panic import GAME, default_data
from companion.games.shear_panic.flock import Flock, rotate
from companion.games.shear_panic.state import Phase

from .helpers import FOUR, THREE, ev, in_fields, new, roll

TALL = ["R..", "GY.", "BKY", "RGB"]  # front row first


def test_registered_as_shear_panic() -> None:
    assert registry.get("shear-panic") is GAME


def test_truck_start_each_player_pushes_the_rolled_colour_without_scoring() -> None:
    s = new(THREE)
    p = GAME.prompt(s)
    assert p.player == "Rita" and p.dice is not None and p.dice.die == "panic"
    assert p.rule == "Start of the Game"
    s = GAME.apply(s, roll("panic", "blue"))
    assert s.phase is Phase.PUSH and s.push_colour == "blue"
    choices = GAME.prompt(s).choices
    assert len(choices) == 16  # two blue sheep, eight directions each
    with pytest.raises(IllegalAction, match="is red, not blue"):
        GAME.apply(s, ev("lamb-push", "Rita", sheep=[0, 2], direction="front"))
    s = GAME.apply(s, ev("lamb-push", "Rita", sheep=[0, 0], direction="right"))
    assert s.flock.rows() == ["RGB.", "YKY.", ".BGR"]
    assert s.active == 1 and s.phase is Phase.TRUCK_ROLL and s.time_counter == 0
    # Yellow rolls black: one black sheep, no choice of sheep needed.
    s = GAME.apply(s, roll("panic", "black"))
    s = GAME.apply(s, ev("lamb-push", "Gus", direction="left"))
    # Green rolls white: the flock does an Ewe Turn.
    s = GAME.apply(s, roll("panic", "white"))
    assert s.phase is Phase.TURN
    s = GAME.apply(s, ev("ewe-turn", "Yan", direction="right"))
    assert s.facing == "east"
    assert s.phase is Phase.ACTION and s.active == 0 and not s.truck
    assert GAME.scores(s) == {"Rita": 0, "Gus": 0, "Yan": 0}
    assert GAME.state_json(s)["stage"] == "fields"
    assert len(s.flock) == 9


def test_truck_push_that_splits_the_flock_is_regrouped_before_the_next_player() -> None:
    s = new(THREE)
    s = GAME.apply(s, roll("panic", "red"))
    s = GAME.apply(s, ev("lamb-push", "Rita", sheep=[0, 2], direction="front-left"))  # red leaves the flock
    assert s.phase is Phase.REGROUP and s.active == 0
    p = GAME.prompt(s)
    assert p.dice is not None and p.dice.die == "regroup"
    # the red touches nothing, not even by a corner: the only answers are the die faces,
    # asked for once (as faces, not again as choices: usability test F21)
    assert p.dice.faces == ("+", "X") and p.choices == ()
    s = GAME.apply(s, roll("regroup", "+"))
    s = GAME.apply(s, GAME.prompt(s).choices[0].event())
    assert s.phase is Phase.TRUCK_ROLL and s.active == 1


def test_action_moves_the_counter_by_the_tile_value_and_covers_the_tile() -> None:
    s = in_fields(TALL, counter=4)
    s2 = GAME.apply(s, ev("action", "Rita", tile="leapfrog-3", sheep=[0, 0], direction="right"))
    assert s2.time_counter == 7
    assert "leapfrog-3" not in s2.tiles_left[0] and len(s2.tiles_left[0]) == 11
    assert GAME.state_json(s2)["tiles_left"]["Rita"] == list(s2.tiles_left[0])
    assert s2.active == 1


def test_own_sheep_only_tiles_refuse_another_colour_and_leave_the_state() -> None:
    s = in_fields(TALL)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, ev("action", "Rita", tile="lamb-push-1", sheep=[0, 2], direction="left"))
    assert "own sheep" in str(err.value) and "A — The Command Menu" in err.value.rule
    assert s == in_fields(TALL)


def test_a_covered_tile_cannot_be_used_again() -> None:
    s = in_fields(TALL, tiles_left=(("lamb-push-3",),) + ((),) * 3)
    with pytest.raises(IllegalAction, match="already covered"):
        GAME.apply(s, ev("action", "Rita", tile="lamb-push-1", sheep=[0, 0], direction="back"))


def test_only_the_active_player_acts() -> None:
    s = in_fields(TALL)
    with pytest.raises(IllegalAction, match="it is Rita's turn, not Gus's"):
        GAME.apply(s, ev("action", "Gus", tile="ewe-turn-2", direction="left"))


def test_wrong_event_for_the_step_is_refused_with_what_is_expected() -> None:
    s = in_fields(TALL)
    with pytest.raises(IllegalAction, match="expected action"):
        GAME.apply(s, roll("panic", "red"))


def test_crossed_circle_forbids_undoing_the_previous_ewe_turn() -> None:
    s = in_fields(TALL)
    s = GAME.apply(s, ev("action", "Rita", tile="ewe-turn-2", direction="left"))
    with pytest.raises(IllegalAction, match="crossed-out circle"):
        GAME.apply(s, ev("action", "Gus", tile="ewe-turn-2", direction="right"))
    s2 = GAME.apply(s, ev("action", "Gus", tile="ewe-turn-2", direction="left"))  # same way again is fine
    assert s2.facing == "south"


def test_die_symbol_forbids_the_reverse_until_a_die_is_rolled() -> None:
    start = ["RGB", "YKY", "BGR"]
    s = in_fields(start)
    s = GAME.apply(s, ev("action", "Rita", tile="line-push-1", sheep=[0, 1], direction="right"))
    assert s.flock.rows() == ["RGB.", ".YKY", "BGR."]
    back = ev("action", "Gus", tile="line-push-2", sheep=[3, 1], direction="left")
    with pytest.raises(IllegalAction, match="die symbol"):
        GAME.apply(s, back)
    rolled = GAME.apply(replace(s, rolled_since=True), back)
    assert rolled.flock == Flock.from_rows(start)
    # The crossed circle forbids it even after a die.
    with pytest.raises(IllegalAction, match="crossed-out circle"):
        GAME.apply(
            replace(s, rolled_since=True), ev("action", "Gus", tile="line-push-1", sheep=[3, 1], direction="left")
        )


def test_split_flock_is_regrouped_before_the_counter_moves() -> None:
    s = in_fields(TALL)
    s = GAME.apply(s, ev("action", "Rita", tile="lamb-push-1", sheep=[0, 3], direction="front"))
    assert s.phase is Phase.REGROUP and s.time_counter == 0
    with pytest.raises(IllegalAction, match="roll the regrouping die"):
        GAME.apply(s, ev("regroup", "Rita", sheep=[0, 4], direction="back"))
    s = GAME.apply(s, roll("regroup", "+"))
    p = GAME.prompt(s)
    assert [c.payload["direction"] for c in p.choices] == ["back"]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, ev("regroup", "Rita", sheep=[0, 4], direction="right"))
    assert "B — Regrouping the Flock" in err.value.rule
    s = GAME.apply(s, ev("regroup", "Rita", sheep=[0, 4], direction="back"))
    assert s.flock == Flock.from_rows(TALL)
    assert s.time_counter == 1 and s.active == 1


def test_roger_gate_scores_rows_from_the_front() -> None:
    s = in_fields(TALL, counter=24)  # the 4-player Roger gate is on 25
    assert GAME.state_json(s)["roger"]["present"]
    s = GAME.apply(s, ev("action", "Rita", tile="lamb-push-1", sheep=[0, 0], direction="right"))
    assert s.flock.rows() == ["R...", "GY..", "BKY.", ".RGB"]
    # rows from Roger (the front): 4, 3, 2, 1 points per sheep
    assert GAME.scores(s) == {"Rita": 5, "Gus": 4, "Yan": 5, "Bea": 3}
    assert GAME.state_json(s)["scoring"][0]["reason"] == "roger-gate"


def test_roger_leaves_at_his_pen_and_the_shearer_arrives_at_his_picture() -> None:
    s = in_fields(TALL)
    track = s.track
    assert GAME.state_json(replace(s, time_counter=track.roger_pen - 1))["roger"]["present"]
    assert not GAME.state_json(replace(s, time_counter=track.roger_pen))["roger"]["present"]
    assert not GAME.state_json(replace(s, time_counter=track.shearer_picture - 1))["shearer"]["present"]
    assert GAME.state_json(replace(s, time_counter=track.shearer_picture))["shearer"]["present"]


def test_black_sheep_field_scores_the_active_player() -> None:
    s = in_fields(TALL, counter=38)
    s = GAME.apply(s, ev("action", "Rita", tile="lamb-push-1", sheep=[0, 3], direction="right"))
    assert s.time_counter == 39 and GAME.state_json(s)["field"] == "black-sheep"
    assert GAME.scores(s) == {"Rita": 1, "Gus": 0, "Yan": 0, "Bea": 0}  # the bottom red touches black by a corner


def test_no_group_scoring_after_leaving_the_teammates_field() -> None:
    s = in_fields(["RR.", "GYB", "BKY", ".G."], counter=12)
    s = GAME.apply(s, ev("action", "Rita", tile="lamb-roll-1", sheep=[1, 3], direction="front-left"))
    assert s.time_counter == 13 and GAME.scores(s)["Rita"] == 0


def test_panic_space_after_scoring_then_die_chosen_lamb_push() -> None:
    s = in_fields(["YR.", "BGY", "RKB"], active=2, counter=3)
    s = GAME.apply(s, ev("action", "Yan", tile="line-push-1", sheep=[1, 1], direction="left"))
    assert s.time_counter == 4 and s.phase is Phase.PANIC_ROLL
    assert GAME.scores(s)["Yan"] == 1  # scored before the panic
    assert GAME.prompt(s).rule == "E — Panic in the Flock"
    s = GAME.apply(s, roll("panic", "red"))
    assert s.phase is Phase.PUSH and s.active == 2
    red = s.flock.positions_of("red")[0]
    s = GAME.apply(s, ev("lamb-push", "Yan", sheep=list(red), direction="front"))
    assert GAME.scores(s)["Yan"] == 1  # no further score this turn
    assert s.active == 3


def test_panic_colour_all_shorn_is_rolled_again_and_white_turns_the_flock() -> None:
    s = in_fields(["RGB", "YKY", "BYR"], active=0, counter=40)
    s = replace(s, flock=Flock.from_rows(["RBB", "YKY", ".YR"]), shorn=("green", "green"), phase=Phase.PANIC_ROLL)
    s2 = GAME.apply(s, roll("panic", "green"))
    assert s2.phase is Phase.PANIC_ROLL and "roll again" in GAME.prompt(s2).text
    s3 = GAME.apply(s2, roll("panic", "white"))
    assert s3.phase is Phase.TURN
    s4 = GAME.apply(s3, ev("ewe-turn", "Rita", direction="left"))
    assert s4.facing == "west"
    assert s4.active == 2  # Gus's two green sheep are shorn: he takes no more turns


def test_shearing_scores_first_then_the_split_flock_is_regrouped() -> None:
    target = Flock.from_rows(["RGB", "Y.K", "B.Y", "G.R"])
    before = Flock.of(rotate(target.grid(), "right")).rows()
    s = in_fields(before, counter=61)  # the 4-player shearing gate is on 62
    s = GAME.apply(s, ev("action", "Rita", tile="ewe-turn-2", direction="left"))
    assert s.time_counter == 63 and s.shorn == ("red", "green", "blue")
    assert GAME.scores(s) == {"Rita": 4, "Gus": 4, "Yan": 5, "Bea": 3}
    assert s.phase is Phase.REGROUP and s.active == 0
    s = GAME.apply(s, roll("regroup", "X"))
    s = GAME.apply(s, GAME.prompt(s).choices[0].event())
    assert s.phase is Phase.ACTION and s.active == 1
    assert len(s.flock) == 6


def test_final_pen_ends_the_game_with_the_last_shearing() -> None:
    s = in_fields(TALL, players=THREE, counter=55)
    s = GAME.apply(s, ev("action", "Rita", tile="lamb-push-1", sheep=[0, 0], direction="right"))
    assert s.phase is Phase.OVER and s.time_counter == 56
    assert s.shorn == ("red",)
    # after the red in front is shorn: rows from the back 4, 3, 2, 1
    assert GAME.scores(s) == {"Rita": 4, "Gus": 4 + 2, "Yan": 3 + 2}
    out = GAME.outcome(s)
    assert out is not None and out.ranking == ("Gus", "Yan", "Rita")
    with pytest.raises(IllegalAction, match="game is over"):
        GAME.apply(s, roll("panic", "red"))


def test_when_every_action_is_used_the_final_shearing_takes_place() -> None:
    s = in_fields(TALL, players=THREE, counter=30, tiles_left=(("ewe-turn-2",), (), ()))
    s = GAME.apply(s, ev("action", "Rita", tile="ewe-turn-2", direction="right"))
    assert s.phase is Phase.OVER and s.time_counter == 32
    assert GAME.state_json(s)["scoring"][-1]["reason"] == "final"


def test_players_with_both_sheep_shorn_take_no_more_turns() -> None:
    s = in_fields(["BKY", "GYB", "G.."], players=THREE, counter=40)
    s = replace(s, shorn=("red", "red"))
    nxt = GAME.apply(replace(s, active=2), ev("action", "Yan", tile="ewe-turn-2", direction="left"))
    assert nxt.active == 1  # Rita (red) is out: after Yan comes Gus
    assert GAME.state_json(nxt)["in_game"] == {"Rita": False, "Gus": True, "Yan": True}


def test_tie_breaks_most_sheep_then_earliest_last_turn() -> None:
    s = in_fields(["RGY", "BKY", ".GB"], players=THREE)
    over = replace(s, phase=Phase.OVER, scores=(10, 10, 10), last_turn=(30, 31, 29))
    out = GAME.outcome(over)
    assert out is not None
    # Rita (red) has 1 sheep, Gus and Yan 2: Gus and Yan ahead; Yan's last turn came first.
    assert out.ranking == ("Yan", "Gus", "Rita")
    assert out.tie_break is not None and "would have played earlier" in out.tie_break
    over = replace(over, scores=(12, 10, 10))
    assert GAME.outcome(over).ranking == ("Rita", "Yan", "Gus")


def test_correction_sets_what_the_table_says() -> None:
    s = in_fields(TALL)
    flock = [{"colour": "red", "x": 0, "y": 0}, {"colour": "black", "x": 1, "y": 0}]
    s2 = GAME.apply(s, ev("correction", flock=flock, time_counter=20, scores={"Gus": 7}))
    j = GAME.state_json(s2)
    assert j["flock"] == flock and j["time_counter"] == 20 and j["scores"]["Gus"] == 7
    assert sorted(j["shorn"]) == sorted(["blue", "blue", "green", "green", "red", "yellow", "yellow"])
    with pytest.raises(IllegalAction, match="two sheep on the square"):
        GAME.apply(s, ev("correction", flock=[{"colour": "red", "x": 0, "y": 0}, {"colour": "blue", "x": 0, "y": 0}]))
    with pytest.raises(IllegalAction, match="Corrections"):
        GAME.apply(s, ev("correction", speed=3))


def test_state_json_has_what_a_screen_draws() -> None:
    j = GAME.state_json(new(FOUR))
    for key in (
        "time_counter",
        "field",
        "flock",
        "facing",
        "shorn",
        "tiles_left",
        "scores",
        "roger",
        "shearer",
        "track",
    ):
        assert key in j
    assert j["field"] == "teammates" and j["facing"] == "north" and j["time_counter"] == 0
    assert {"colour", "x", "y"} == set(j["flock"][0])
    assert j["track"]["spaces"] == 74 and j["track"]["panic"]


def test_every_step_of_a_game_has_a_prompt_naming_its_rule() -> None:
    import random

    from companion.events import Event

    rng = random.Random(11)
    s = new(THREE)
    seen = set()
    while s.phase is not Phase.OVER:
        p = GAME.prompt(s)
        assert p.player == GAME.state_json(s)["active"] and p.expects and p.rule and p.text.startswith(p.player)
        seen.add(s.phase)
        kind, payload = rng.choice(GAME.legal_moves(s))
        s = GAME.apply(s, Event(kind, payload))
    assert GAME.prompt(s).expects == () and GAME.prompt(s).rule == "End of the Game"
    assert {Phase.TRUCK_ROLL, Phase.PUSH, Phase.ACTION, Phase.REGROUP, Phase.PANIC_ROLL} <= seen


def test_choices_are_the_legal_actions_when_few() -> None:
    s = GAME.apply(in_fields(TALL), ev("action", "Rita", tile="lamb-push-1", sheep=[0, 3], direction="front"))
    s = GAME.apply(s, roll("regroup", "X"))
    p = GAME.prompt(s)
    assert [c.event() for c in p.choices] == GAME.legal_actions(s)
    for c in p.choices:
        assert GAME.apply(s, c.event()).phase is not Phase.REGROUP


def test_a_correction_that_mends_a_split_flock_ends_the_regrouping() -> None:
    s = GAME.apply(in_fields(TALL), ev("action", "Rita", tile="lamb-push-1", sheep=[0, 3], direction="front"))
    assert s.phase is Phase.REGROUP
    s = GAME.apply(s, ev("correction", flock=Flock.from_rows(TALL).to_json()))
    assert s.phase is Phase.ACTION and s.active == 1 and s.time_counter == 1


def test_panic_push_needs_no_sheep_when_one_of_the_colour_is_left() -> None:
    s = in_fields(["RGB", "YKY", "B.."], counter=40)  # a green and a red already shorn
    s = replace(s, shorn=("green", "red"), phase=Phase.PUSH, push_colour="green")
    out = GAME.apply(s, ev("lamb-push", "Rita", direction="front"))
    assert out.flock.rows()[0] == ".G."
    with pytest.raises(IllegalAction) as err:
        GAME.apply(replace(s, push_colour="yellow"), ev("lamb-push", "Rita", direction="front"))
    assert "E — Panic in the Flock" in err.value.rule and "name the yellow sheep" in str(err.value)


def test_lamb_push_is_own_sheep_only_whatever_symbol_the_tile_data_prints() -> None:
    tiles = default_data(4)["tiles"]
    tiles["tile"][0]["symbol"] = "die"  # a miscalibrated lamb-push-1
    s = GAME.initial_state(GAME.validate_setup({"players": FOUR, "options": {"tiles": tiles}}))
    s = replace(s, flock=Flock.from_rows(TALL), truck=False, phase=Phase.ACTION)
    with pytest.raises(IllegalAction, match="own sheep"):
        GAME.apply(s, ev("action", "Rita", tile="lamb-push-1", sheep=[0, 2], direction="left"))


def test_the_player_who_ends_the_game_has_the_latest_last_turn_for_the_tie_break() -> None:
    # Rita's alignment (3) takes the counter into the final pen: her turn 13 is the last one
    # played, so Gus (last turn 11), tied with her on points and sheep, would have played first.
    s = in_fields(
        ["BYB", "RKG", "RYG"],
        players=THREE,
        counter=53,
        turn=13,
        last_turn=(10, 11, 12),
        tiles_left=(("alignment-3",), ("alignment-3",), ("alignment-3",)),
    )
    s = GAME.apply(s, ev("action", "Rita", tile="alignment-3", side="back"))
    assert s.phase is Phase.OVER and s.last_turn[0] == 13
    assert GAME.scores(s) == {"Rita": 7, "Gus": 7, "Yan": 4}
    out = GAME.outcome(s)
    assert out is not None and out.ranking == ("Gus", "Rita", "Yan")
    assert out.tie_break is not None and "Gus" in out.tie_break.split(" and ")[0]


@pytest.mark.parametrize(
    "payload",
    [
        {"flock": [{"colour": {"a": 1}, "x": 0, "y": 0}]},
        {"flock": [{"colour": ["red"], "x": 0, "y": 0}]},
        {"tiles_left": {"Rita": [{"id": "lamb-push-1"}]}},
        {"tiles_left": {"Rita": [["lamb-push-1"]]}},
        {"facing": {"north": 1}},
        {"scores": {"Rita": {"points": 3}}},
        {"scores": [["Rita", 3]]},
    ],
)
def test_malformed_corrections_are_refused_cleanly(payload: dict) -> None:
    s = in_fields(TALL)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, ev("correction", **payload))
    assert "Corrections" in err.value.rule
    assert s == in_fields(TALL)


def test_a_correction_to_a_split_flock_is_refused_outside_a_regrouping() -> None:
    s = in_fields(TALL)
    split = [{"colour": "red", "x": 0, "y": 0}, {"colour": "black", "x": 2, "y": 0}]
    with pytest.raises(IllegalAction, match="split"):
        GAME.apply(s, ev("correction", flock=split))
    s = GAME.apply(s, ev("action", "Rita", tile="lamb-push-1", sheep=[0, 3], direction="front"))
    assert s.phase is Phase.REGROUP  # while regrouping, the table may say the flock is still split
    assert GAME.apply(s, ev("correction", flock=split)).phase is Phase.REGROUP


def test_regrouping_accepts_the_direction_aliases() -> None:
    s = GAME.apply(in_fields(TALL), ev("action", "Rita", tile="lamb-push-1", sheep=[0, 3], direction="front"))
    s = GAME.apply(s, roll("regroup", "+"))
    legal = {r.payload["direction"] for r in GAME.prompt(s).choices}
    assert "back" in legal
    assert GAME.apply(s, ev("regroup", "Rita", sheep=[0, 4], direction="down")) == GAME.apply(
        s, ev("regroup", "Rita", sheep=[0, 4], direction="back")
    )


def test_alignment_accepts_the_direction_aliases() -> None:
    s = in_fields(TALL)
    assert GAME.apply(s, ev("action", "Rita", tile="alignment-3", side="up")) == GAME.apply(
        s, ev("action", "Rita", tile="alignment-3", side="front")
    )


def test_a_sheep_face_line_push_must_move_one_of_your_own_sheep_however_the_line_is_named() -> None:
    tiles = default_data(4)["tiles"]
    line = next(t for t in tiles["tile"] if t["id"] == "line-push-1")
    line["symbol"] = "own"  # a calibrated menu may print the sheep-face on a Line Push
    s = GAME.initial_state(GAME.validate_setup({"players": FOUR, "options": {"tiles": tiles}}))
    s = replace(s, flock=Flock.from_rows(["GRB", "YKY", "BGR"]), truck=False, phase=Phase.ACTION)
    # The top row G R B pushed right: the push meets the green first but moves Rita's red too.
    named_red = GAME.apply(s, ev("action", "Rita", tile="line-push-1", sheep=[1, 2], direction="right"))
    named_green = GAME.apply(s, ev("action", "Rita", tile="line-push-1", sheep=[0, 2], direction="right"))
    assert named_red == named_green
    legal = [e.payload for e in GAME.legal_actions(s) if e.payload["tile"] == "line-push-1"]
    assert {"tile": "line-push-1", "sheep": (0, 2), "direction": "right"} in legal
    # The middle row Y K Y has no red: refused, whichever sheep names it.
    with pytest.raises(IllegalAction, match="own sheep"):
        GAME.apply(s, ev("action", "Rita", tile="line-push-1", sheep=[1, 1], direction="left"))
    assert all(p["sheep"] != (2, 1) or p["direction"] != "left" for p in legal)


def test_markers_still_in_the_truck_are_shown_until_each_player_has_jumped() -> None:
    s = new(THREE)
    assert GAME.state_json(s)["in_truck"] == ["Rita", "Gus", "Yan"]
    s = GAME.apply(s, roll("panic", "white"))
    s = GAME.apply(s, ev("ewe-turn", "Rita", direction="left"))
    j = GAME.state_json(s)
    assert j["in_truck"] == ["Gus", "Yan"] and j["markers"]["Rita"] == 0
    for who in ("Gus", "Yan"):
        s = GAME.apply(s, roll("panic", "white"))
        s = GAME.apply(s, ev("ewe-turn", who, direction="left"))
    assert GAME.state_json(s)["in_truck"] == []


def test_prompts_say_what_happens_next() -> None:
    assert "then Lamb Push a sheep of the colour" in GAME.prompt(new(THREE)).text
    s = in_fields(TALL, counter=5)
    text = GAME.prompt(s).text
    assert "counter" in text and "Teammates' field" in text and "by a side" in text
    assert "Roger" in GAME.prompt(replace(s, time_counter=20)).text
    assert "black sheep" in GAME.prompt(replace(s, time_counter=40)).text
    assert "shorn" in GAME.prompt(replace(s, time_counter=55)).text
    s = GAME.apply(s, ev("action", "Rita", tile="lamb-push-1", sheep=[0, 3], direction="front"))
    s = GAME.apply(s, roll("regroup", "+"))
    assert "orthogonally" in GAME.prompt(s).text
    s2 = GAME.apply(in_fields(TALL), ev("action", "Rita", tile="lamb-push-1", sheep=[0, 3], direction="front"))
    assert "diagonally" in GAME.prompt(GAME.apply(s2, roll("regroup", "X"))).text
    push = replace(in_fields(TALL), phase=Phase.PUSH, push_colour="blue")
    assert "pushing" in GAME.prompt(push).text
    turn = replace(in_fields(TALL), phase=Phase.TURN)
    assert "Roger and the Shearer" in GAME.prompt(turn).text
    over = replace(in_fields(TALL), phase=Phase.OVER, scores=(3, 9, 1, 2))
    assert "Gus wins" in GAME.prompt(over).text
