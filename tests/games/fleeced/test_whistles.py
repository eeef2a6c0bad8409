"""Whistle enforcement: before the roll, the margin, out of turn, "Who blew?", contests."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction

from .table import Table, towing


def claimed(t: Table, name: str = "Wallace") -> Table:
    """Lead the flock Home with a proper whistle, then pass the turn to Gromit."""
    t.whistle(name)
    t.roll(1, 2)
    t.land("home")
    t.end_turn()
    return t


def kinds(t: Table) -> list[str]:
    return [r["kind"] for r in t.json["rulings"]]


def test_whistle_before_roll_keeps_the_flock() -> None:
    t = towing()
    assert "blow your whistle" in t.prompt().text
    assert "whistle" in t.choice_types()
    t.whistle("Wallace")
    t.roll(2, 3)
    assert t.state.check is None
    t.land()
    assert t.sheep["in_tow"]["Wallace"] == 6


def test_no_whistle_sheep_hoof_it_to_the_green_on_settle() -> None:
    t = towing()
    t.roll(2, 3)
    assert t.state.check is not None and t.sheep["in_tow"]["Wallace"] == 6  # ruling held for the margin
    assert "settle" in t.choice_types()
    t.send("settle")
    assert t.prompt().alert == "No whistle before the roll: Wallace's 6 sheep hoof it to the Village Green."
    assert t.sheep["in_tow"]["Wallace"] == 0 and t.sheep["green"] == 6
    assert t.json["last_ruling"] == t.prompt().alert


def test_late_whistle_within_margin_counts_as_before_the_roll() -> None:
    t = towing()
    t.roll(2, 3)
    rolled = t.now
    t.whistle("Wallace", at=rolled + 1.2)
    assert t.sheep["in_tow"]["Wallace"] == 6
    assert kinds(t)[-1] == "late-whistle-counted"
    assert "1.2 s after the roll" in t.prompt().alert


def test_whistle_after_the_margin_is_too_late() -> None:
    t = towing()
    t.roll(2, 3)
    t.whistle("Wallace", at=t.now + 1.6)
    assert t.sheep["in_tow"]["Wallace"] == 0
    assert kinds(t)[-1] == "no-whistle"


def test_margin_is_a_setup_option() -> None:
    t = towing(margin=0.5)
    t.roll(2, 3)
    t.whistle("Wallace", at=t.now + 0.8)
    assert t.sheep["in_tow"]["Wallace"] == 0


def test_next_event_decides_the_ruling_and_one_undo_reverses_both() -> None:
    t = towing()
    t.roll(2, 3)
    t.land("square")  # no settle sent: the landing rules on the whistle first
    assert t.sheep["in_tow"]["Wallace"] == 0 and t.phase == "actions"
    t.session.undo()
    assert t.sheep["in_tow"]["Wallace"] == 6 and t.state.check is not None


def test_double_with_sheep_rolls_again_without_a_second_whistle() -> None:
    t = towing()
    t.whistle("Wallace")
    t.roll(4, 4)
    t.roll(1, 2)
    assert t.state.check is None
    t.land()
    assert t.sheep["in_tow"]["Wallace"] == 6


def test_rustle_without_whistle_rustles_nothing() -> None:
    t = Table().start()
    t.open_hideout("pub", 6)
    t.rustle("green", 3, 4, whistle=False)
    assert t.sheep["green"] == 6 and t.sheep["in_tow"]["Wallace"] == 0
    assert "rustle fails and the sheep stay where they are" in t.json["last_ruling"]


def test_out_of_turn_whistle_costs_a_claimed_sheep() -> None:
    t = claimed(towing())
    assert t.state.player == "Gromit" and t.sheep["claimed"]["Wallace"] == 6
    t.whistle("Wallace")
    assert t.sheep["claimed"]["Wallace"] == 5 and t.sheep["green"] == 1
    assert t.prompt().alert == "Wallace blew out of turn and loses one claimed sheep to the Village Green."


def test_out_of_turn_whistle_without_claimed_sheep_is_no_penalty() -> None:
    t = Table().start()
    before = t.sheep
    t.whistle("Gromit")
    assert t.sheep == before
    assert kinds(t) == ["no-penalty"]
    assert "no claimed sheep" in t.prompt().alert


def test_warm_up_whistles_break_no_rule() -> None:
    t = Table()
    t.whistle("Gromit")
    t.whistle(None)
    assert t.json["rulings"] == [] and t.state.questions == ()


def test_unattributed_whistle_asks_who_blew() -> None:
    t = claimed(towing())
    t.whistle(None)
    p = t.prompt()
    assert p.player is None and p.text.startswith("Who blew?")
    assert [c.label for c in p.choices][:3] == ["Wallace blew", "Gromit blew", "Nobody: it was noise"]
    t.send("answer", {"blower": "Wallace"})
    assert t.sheep["claimed"]["Wallace"] == 5


def test_noise_answer_rules_nothing() -> None:
    t = claimed(towing())
    t.whistle(None)
    t.send("answer", {"blower": None})
    assert t.sheep["claimed"]["Wallace"] == 6 and kinds(t)[-1] == "noise"


def test_unattributed_whistle_before_roll_holds_the_ruling_until_answered() -> None:
    t = towing()
    t.whistle(None)
    t.roll(2, 3)  # the camera's roll is accepted; its ruling waits
    before = t.state
    with pytest.raises(IllegalAction, match="Who blew") as err:
        t.land()
    assert t.state is before and "Your Sheep Whistle" in err.value.rule
    assert {c.type for c in t.prompt().choices} == {"answer"} and t.prompt().dice is None
    t.send("answer", {"blower": "Wallace"})
    t.land()
    assert t.sheep["in_tow"]["Wallace"] == 6


def test_contest_reverses_a_no_whistle_ruling_and_keeps_both() -> None:
    t = towing()
    t.roll(2, 3)
    t.land("cheese")  # decided: the flock hoofs it; then a card
    t.send("draw", {"card": "other"})
    assert t.sheep["in_tow"]["Wallace"] == 0
    contest = [c for c in t.prompt().choices if c.type == "correction"]
    assert [c.label for c in contest] == ["Wallace: I did blow: reverse the ruling"]
    t.send("correction", dict(contest[0].payload), player="Wallace")
    assert t.sheep["in_tow"]["Wallace"] == 6 and t.sheep["green"] == 0
    assert t.json["hands"]["Wallace"][-1] == "other"  # the card drawn after the ruling still counts
    rulings = t.json["rulings"]
    assert [r["kind"] for r in rulings[-2:]] == ["no-whistle", "contested"]
    assert rulings[-2]["contested"] is True
    assert [e.type for e in t.session.events][-2:] == ["draw", "correction"]


def test_contest_reverses_an_out_of_turn_penalty() -> None:
    t = claimed(towing())
    t.whistle("Wallace")
    t.roll(3)
    t.send("correction", {"contest": True}, player="Wallace")
    assert t.sheep["claimed"]["Wallace"] == 6 and t.sheep["green"] == 0
    assert t.phase == "move"  # Gromit's roll still stands


def test_contest_refused_when_what_followed_becomes_illegal() -> None:
    t = towing()
    t.roll(2, 3)
    t.send("settle")
    t.land()
    t.send("rustle", {"from": "green"})  # possible only because the flock hoofed it
    before = t.state
    with pytest.raises(IllegalAction, match="undo back to the ruling") as err:
        t.send("correction", {"contest": True})
    assert t.state is before and "Your Sheep Whistle" in err.value.rule
    assert "correction" not in t.choice_types()


def test_contest_window_closes_when_the_turn_passes() -> None:
    t = towing()
    t.roll(2, 3)
    t.send("settle")
    t.land()
    t.end_turn()
    with pytest.raises(IllegalAction, match="no whistle ruling to contest"):
        t.send("correction", {"contest": True})


def test_settle_with_nothing_pending_is_refused() -> None:
    t = Table().start()
    with pytest.raises(IllegalAction, match="no whistle ruling is waiting"):
        t.send("settle")


def test_whistle_blower_must_be_playing() -> None:
    t = Table().start()
    with pytest.raises(IllegalAction, match="not playing"):
        t.whistle("Shaun")


def test_who_blew_answered_after_the_last_sheep_is_claimed_rules_nothing() -> None:
    from dataclasses import replace

    from companion.events import Event
    from companion.games.fleeced import GAME
    from companion.games.fleeced.state import Phase, Question

    t = claimed(towing())
    s = t.state
    s = replace(s, sheep=replace(s.sheep, hideouts=0, bag=0, green=0, claimed=(30, 10)), phase=Phase.TALLY,
                questions=(Question(t.now, s.turn, 1),))
    after = GAME.apply(s, Event("answer", {"blower": "Gromit"}))
    assert after.sheep == s.sheep and after.questions == ()
    assert "game is over" in GAME.prompt(after).alert


def test_whistle_blower_and_player_must_agree() -> None:
    t = Table().start()
    with pytest.raises(IllegalAction, match="disagree"):
        t.send("whistle", {"blower": "Gromit"}, player="Wallace")


def test_contesting_a_failed_rustle_makes_it_happen() -> None:
    t = Table().start()
    t.open_hideout("pub", 6)
    t.rustle("green", 3, 4, whistle=False)
    assert t.sheep["in_tow"]["Wallace"] == 0
    t.send("correction", {"contest": True}, player="Wallace")
    assert t.sheep["in_tow"]["Wallace"] == 6 and t.sheep["green"] == 0
    assert "Great rustle" in t.json["rulings"][-3]["text"]


def test_who_blew_answered_after_the_turn_passed_is_judged_by_that_turn() -> None:
    t = claimed(towing())  # Gromit's turn; Wallace has 6 claimed
    t.whistle(None)
    t.roll(2)
    t.land()
    t.end_turn()  # the question is still open when Wallace's turn begins
    assert t.state.player == "Wallace"
    t.send("answer", {"blower": "Gromit"})  # Gromit blew during his own turn
    assert kinds(t)[-1] == "no-penalty" and t.sheep["green"] == 0
    t.whistle(None)
    t.send("answer", {"blower": "Gromit"})  # now it is Wallace's turn: out of turn, but nothing claimed
    assert "no claimed sheep" in t.json["last_ruling"]


def test_who_blew_for_an_earlier_turn_can_still_be_out_of_turn() -> None:
    t = claimed(towing())  # Gromit's turn; Wallace has 6 claimed
    t.whistle(None)
    t.roll(2)
    t.land()
    t.end_turn()
    t.send("answer", {"blower": "Wallace"})  # Wallace blew during Gromit's turn
    assert kinds(t)[-1] == "out-of-turn" and t.sheep["claimed"]["Wallace"] == 5


def test_who_blew_from_an_earlier_turn_does_not_hold_the_roll_ruling() -> None:
    """A whistle heard during Gromit's turn cannot be Wallace's whistle before his own roll."""
    t = Table()
    t.start()
    t.open_hideout("pub", 6)
    t.rustle("green", 3, 4)
    t.end_turn()
    t.roll(1)
    t.land()
    t.whistle(None)  # during Gromit's turn, after his roll: nobody could tell whose
    t.end_turn()
    assert t.state.player == "Wallace" and t.sheep["in_tow"]["Wallace"] == 6
    t.roll(2, 3)  # no whistle from Wallace before his roll
    assert "settle" in t.choice_types() and "landed" in t.choice_types()  # the question holds nothing
    t.send("settle")
    assert t.sheep["in_tow"]["Wallace"] == 0 and kinds(t)[-1] == "no-whistle"
    t.send("answer", {"blower": "Wallace"})  # Wallace blew during Gromit's turn: out of turn, none claimed
    assert kinds(t)[-1] == "no-penalty" and t.sheep["in_tow"]["Wallace"] == 0


def test_a_whistle_within_the_margin_of_a_roll_belongs_to_that_roll_not_the_next() -> None:
    """Counted as before the roll it follows, it cannot also be the whistle before the rustle's roll."""
    t = towing()
    t.whistle("Wallace")
    t.roll(1, 2)
    t.whistle("Wallace", at=t.now + 0.4)  # the same blow heard again as the dice settle
    t.land()
    t.send("abandon")
    t.send("rustle", {"from": "green"})
    t.roll(2, 3)  # no whistle since the move's roll
    t.send("settle")
    assert kinds(t)[-1] == "no-whistle" and t.sheep["in_tow"]["Wallace"] == 0


def test_a_whistle_after_the_landing_counts_for_the_rustle_however_quick() -> None:
    t = Table().start()
    t.roll(2)
    t.land("doorstep", hideout="pub")
    t.send("open", {"hideout": "pub", "card": "key-pub"})
    t.send("hideout-card", {"count": 6})
    t.send("rustle", {"from": "green"})
    roll_time = t.state.last_roll_time
    t.whistle("Wallace", at=roll_time + 0.5)  # within the margin of the move's roll, but after the landing
    t.roll(3, 4)
    assert t.state.check is None and t.state.rustle.whistle_ok


def test_who_blew_within_the_margin_answered_after_the_landing_still_belongs_to_the_roll() -> None:
    t = towing()
    t.whistle("Wallace")
    t.roll(1, 2)
    t.whistle(None, at=t.now + 0.4)  # heard as the dice settled; nobody could tell whose
    t.land()
    t.send("answer", {"blower": "Wallace"})  # answered after the landing: still the roll's whistle
    t.send("abandon")
    t.send("rustle", {"from": "green"})
    t.roll(2, 3)
    assert t.state.check is not None  # the rustle's roll has no whistle of its own
