"""Turn order, movement, re-rolls, Nicked!, cards, hideouts, rustling and Home."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction, SetupError
from companion.games.fleeced import GAME

from .table import Table


def test_registered_and_named() -> None:
    from companion import registry

    assert registry.get("fleeced") is GAME
    assert GAME.title == "Fleeced!"


def test_first_player_ties_are_rolled_again_among_the_tied() -> None:
    t = Table(["Wallace", "Gromit", "Preston"])
    t.roll(5, 5)  # Wallace 10
    t.roll(6, 4)  # Gromit 10
    t.roll(1, 1)  # Preston 2
    assert t.json["first_roll"]["contenders"] == ["Wallace", "Gromit"]
    assert "tie on 10" in t.prompt().alert
    with pytest.raises(IllegalAction, match="only Wallace, Gromit still roll"):
        t.send("roll", {"faces": [6, 6]}, player="Preston")
    t.roll(2, 3)
    t.roll(4, 3)
    assert t.state.player == "Gromit" and t.phase == "roll" and t.state.turn == 1


def test_one_die_without_sheep_then_turn_passes_clockwise() -> None:
    t = Table(["Wallace", "Gromit", "Preston"]).start("Gromit")
    assert t.prompt().dice.count == 1
    t.roll(3)
    t.land("square")
    t.end_turn()
    assert t.state.player == "Preston" and t.state.turn == 2


def test_six_allows_another_roll_and_a_third_six_is_nicked() -> None:
    t = Table().start()
    t.roll(6)
    assert t.prompt().dice is not None and t.state.reroll
    t.roll(6)
    t.roll(6)
    # no claimed sheep: no bribe possible, so the turn passes and Wallace misses his next one
    assert t.state.player == "Gromit"
    assert t.json["police"]["misses_next_turn"] == ["Wallace"]
    assert "Nicked!" in t.prompt().alert
    t.roll(1)
    t.land()
    t.end_turn()
    assert t.state.player == "Gromit"  # Wallace's turn was skipped
    assert any(r["kind"] == "missed-turn" for r in t.json["rulings"])


def test_a_roll_without_six_gives_no_second_roll() -> None:
    t = Table().start()
    t.roll(4)
    with pytest.raises(IllegalAction, match="only a six"):
        t.roll(4)


def test_roll_must_match_the_dice_awaited() -> None:
    t = Table().start()
    before = t.state
    with pytest.raises(IllegalAction, match="one die") as err:
        t.roll(3, 4)
    assert t.state is before and "Moving around the Board" in err.value.rule


def test_roll_two_card_and_jump_card() -> None:
    t = Table().start()
    t.send("play", {"card": "roll-2"})
    assert t.prompt().dice.count == 2
    t.roll(2, 2)
    assert t.state.reroll  # a double with two dice also earns another roll
    t.land("square")
    t.end_turn()
    t.send("play", {"card": "jump-to"})
    assert t.phase == "move" and t.prompt().dice is None
    t.land("cheese")
    assert t.phase == "draw"
    assert len(t.json["hands"]["Gromit"]) == 2


def test_out_of_turn_player_cannot_act() -> None:
    t = Table().start()
    with pytest.raises(IllegalAction, match="Wallace's turn"):
        t.send("roll", {"faces": [3]}, player="Gromit")


def test_hand_limit_discard_and_fresh_card_unplayable() -> None:
    t = Table().start()
    for card in ("roll-2", "other", "key-pub"):
        t.roll(2)
        t.land("cheese")
        t.send("draw", {"card": card})
        if len(t.json["hands"]["Wallace"]) > 5:
            break
        t.end_turn()
        t.roll(1)
        t.land()
        t.end_turn()
    assert t.phase == "discard"
    assert {c.payload["card"] for c in t.prompt().choices} == {"?", "roll-2", "other", "key-pub"}
    t.send("discard", {"card": "?"})
    assert len(t.json["hands"]["Wallace"]) == 5 and t.phase == "actions"
    # the key was drawn this turn: it cannot open anything until a later turn
    assert t.json["drawn_this_turn"] == ["key-pub"]


def test_card_drawn_this_turn_cannot_be_played() -> None:
    t = Table().start()
    t.roll(2)
    t.land("cheese")
    t.send("draw", {"card": "other"})
    # Wallace still holds three unseen dealt cards, which may be 'other' cards: fine
    t.send("play", {"card": "other"})
    t.send("play", {"card": "other"})
    t.send("play", {"card": "other"})
    before = t.state
    with pytest.raises(IllegalAction, match="drawn this turn") as err:
        t.send("play", {"card": "other"})
    assert t.state is before and "Cheese Cards" in err.value.rule


def test_hard_cheese_is_nicked_at_once() -> None:
    t = Table().start()
    t.roll(3)
    t.land("cheese")
    t.send("draw", {"card": "hard-cheese"})
    assert t.state.player == "Gromit"
    assert t.json["police"]["misses_next_turn"] == ["Wallace"]
    assert len(t.json["hands"]["Wallace"]) == 3


def test_opening_a_hideout_moves_marker_to_bag_and_card_number_to_green() -> None:
    t = Table().start()
    t.open_hideout("museum", 7)
    s = t.sheep
    assert (s["hideouts"], s["bag"], s["green"]) == (6, 33 + 1 - 7, 7)
    assert t.json["hideouts"]["opened"] == [{"hideout": "museum", "sheep": 7}]
    assert t.json["keys_set_aside"] == ["key-museum"]
    with pytest.raises(IllegalAction, match="already open"):
        t.end_turn()
        t.roll(2)
        t.land("doorstep", hideout="museum")


def test_open_needs_the_doorstep_and_the_right_key() -> None:
    t = Table().start()
    t.roll(2)
    t.land("doorstep", hideout="pub")
    with pytest.raises(IllegalAction, match="own key or a skeleton key"):
        t.send("open", {"hideout": "pub", "card": "key-church"})
    with pytest.raises(IllegalAction, match="doorstep"):
        t.send("open", {"hideout": "church", "card": "key-church"})
    t.send("open", {"hideout": "pub", "card": "skeleton-key"})
    assert t.sheep["bag"] == 34  # 33 left after setup, plus the Pub's marker
    with pytest.raises(IllegalAction, match="0 to 34"):
        t.send("hideout-card", {"count": 35})


def test_last_hideout_must_empty_the_bag() -> None:
    t = Table().start()
    hideouts = ["post-office", "cinema", "town-hall", "museum", "fish-and-chip-shop", "church", "pub"]
    for h in hideouts[:6]:  # Wallace and Gromit take turns, each opening three with dealt cards
        t.open_hideout(h, 5)
        t.end_turn()
    assert t.sheep["hideouts"] == 1 and t.json["hands"] == {"Wallace": [], "Gromit": []}
    t.roll(2)
    t.land("cheese")
    t.send("draw", {"card": "key-pub"})
    t.end_turn()
    t.roll(1)
    t.land()
    t.end_turn()
    t.roll(2)
    t.land("doorstep", hideout="pub")
    t.send("open", {"hideout": "pub", "card": "key-pub"})
    bag = t.sheep["bag"]
    assert bag == 33 + 7 - 30
    assert [c.payload["count"] for c in t.prompt().choices if c.type == "hideout-card"] == [bag]
    with pytest.raises(IllegalAction, match="whole bag"):
        t.send("hideout-card", {"count": bag - 1})
    t.send("hideout-card", {"count": bag})
    assert t.sheep["bag"] == 0 and t.sheep["green"] == 40


def test_great_rustle_from_green_then_home_claims() -> None:
    t = Table().start()
    t.open_hideout("pub", 6)
    t.rustle("green", 3, 4)  # 7 >= 6: great rustle
    assert t.sheep["in_tow"]["Wallace"] == 6 and t.sheep["green"] == 0
    assert "Great rustle" in t.prompt().alert
    with pytest.raises(IllegalAction, match="once in a turn"):
        t.send("rustle", {"from": "green"})
    t.end_turn()
    t.roll(1)
    t.land()
    t.end_turn()
    assert t.prompt().dice.count == 2  # sheep in tow: two dice
    t.whistle("Wallace")
    t.roll(2, 5)
    t.land("home")
    assert t.sheep["claimed"]["Wallace"] == 6 and t.sheep["in_tow"]["Wallace"] == 0


def test_rubbish_rustle_from_green_and_blocked_rustle() -> None:
    t = Table().start()
    t.open_hideout("pub", 9)
    t.rustle("green", 1, 2, squares=2)  # rolled 3 but blocked after 2
    assert t.sheep["in_tow"]["Wallace"] == 2 and t.sheep["green"] == 7
    assert "Rubbish rustle" in t.prompt().alert


def test_rustle_from_another_player_rubbish_rest_hoofs_to_green() -> None:
    t = Table().start()
    t.open_hideout("pub", 8)
    t.rustle("green", 4, 5)  # Wallace takes all 8
    t.end_turn()
    t.roll(1)
    t.land()
    t.send("rustle", {"from": "Wallace"})
    t.whistle("Gromit")
    t.roll(1, 2)
    t.land()
    s = t.sheep
    assert (s["in_tow"]["Gromit"], s["in_tow"]["Wallace"], s["green"]) == (3, 0, 5)


def test_cannot_rustle_with_sheep_in_tow_but_can_abandon_first() -> None:
    t = Table().start()
    t.open_hideout("pub", 4)
    t.rustle("green", 2, 3)
    t.end_turn()
    t.roll(1)
    t.land()
    t.end_turn()
    t.send("abandon")  # before the move: back to one die
    assert t.sheep["green"] == 4 and t.prompt().dice.count == 1
    t.roll(2)
    t.land()
    with pytest.raises(IllegalAction, match="no sheep"):
        t.send("abandon")


def test_jump_card_refused_with_sheep_in_tow() -> None:
    t = Table().start()
    t.open_hideout("pub", 4)
    t.rustle("green", 2, 3)
    t.end_turn()
    t.roll(1)
    t.land()
    t.end_turn()
    before = t.state
    with pytest.raises(IllegalAction, match="Jump to") as err:
        t.send("play", {"card": "jump-to"})
    assert t.state is before and "Moving around the Board" in err.value.rule


def test_third_double_while_rustling_and_bribe() -> None:
    t = Table().start()
    t.open_hideout("pub", 4)
    t.rustle("green", 2, 3)
    t.end_turn()
    t.roll(1)
    t.land()
    t.end_turn()
    t.whistle("Wallace")
    t.roll(1, 2)
    t.land("home")  # claims 4
    t.end_turn()
    t.roll(1)
    t.land()
    t.end_turn()
    t.roll(3)
    t.land()
    t.end_turn()
    t.roll(1)
    t.land()
    t.end_turn()
    # Wallace: a six, a six, a six -> Nicked with 4 claimed: he may bribe
    t.roll(6)
    t.roll(6)
    t.roll(6)
    assert t.phase == "nicked"
    assert {c.type for c in t.prompt().choices} >= {"bribe", "serve"}
    t.send("bribe")
    assert t.sheep["claimed"]["Wallace"] == 3 and t.sheep["green"] == 1
    assert t.json["police"]["misses_next_turn"] == []
    t.roll(1)
    t.land()
    t.end_turn()
    assert t.state.player == "Wallace" and t.state.start_at_police
    assert "Police Station" in t.prompt().text


def test_rustle_ending_home_claims_what_followed() -> None:
    t = Table().start()
    t.open_hideout("pub", 34)  # the bag holds 34: all of them to the Green
    t.rustle("green", 6, 5, where="home")  # 11 squares of 34: rubbish, but the 11 are claimed at once
    assert t.sheep["claimed"]["Wallace"] == 11 and t.sheep["green"] == 23
    assert t.phase == "actions"


def test_tally_must_match_claimed_sheep() -> None:
    from dataclasses import replace

    from companion.games.fleeced.state import Phase

    t = Table()
    s = t.state
    s = replace(s, sheep=replace(s.sheep, hideouts=0, bag=0, claimed=(25, 15)), phase=Phase.TALLY)
    from companion.events import Event

    with pytest.raises(IllegalAction, match="claimed 25 sheep, but the kinds entered add up to 24") as err:
        GAME.apply(s, Event("tally", {"white1": 20, "black": 4}, player="Wallace"))
    assert "Victory!" in err.value.rule
    s = GAME.apply(s, Event("tally", {"white1": 20, "black": 5}, player="Wallace"))
    assert GAME.outcome(s) is None
    s = GAME.apply(s, Event("tally", {"grey": 15}, player="Gromit"))
    out = GAME.outcome(s)
    assert out is not None and out.ranking == ("Gromit", "Wallace") and out.tie_break is None
    assert GAME.scores(s) == {"Wallace": 50, "Gromit": 60}


def _level_on_40(**options: object):
    """Gromit and Wallace both on 40 points, Gromit with more sheep claimed; Preston 18."""
    from dataclasses import replace

    from companion.games.fleeced.state import Phase

    s = Table(["Wallace", "Gromit", "Preston"], **options).state
    sheep = replace(s.sheep, hideouts=0, bag=0, claimed=(10, 12, 18))
    return replace(s, sheep=sheep, phase=Phase.OVER,
                   tallies=((("grey", 10),), (("grey", 6), ("white3", 4), ("white2", 2)), (("white1", 18),)))


def test_a_tie_on_points_is_a_shared_win_by_default() -> None:
    from companion.games.fleeced.scoring import ranking

    s = _level_on_40()
    order, tie = ranking(s)
    assert order == ("Wallace", "Gromit", "Preston")  # level: in seat order
    assert tie == "Wallace and Gromit tie on 40 points; the rulebook names no tie-break, so they share first place."
    outcome = GAME.outcome(s)
    assert outcome.winners == ("Wallace", "Gromit") and outcome.winner_names() == ("Wallace", "Gromit")
    assert "Wallace and Gromit share the win" in GAME.prompt(s).text


def test_the_house_tie_break_by_sheep_claimed() -> None:
    from companion.games.fleeced.scoring import ranking

    s = _level_on_40(tie_break="sheep")
    order, tie = ranking(s)
    assert order == ("Gromit", "Wallace", "Preston")
    assert tie == "Gromit and Wallace tie on 40 points; by the house rule more sheep claimed breaks it (Gromit 12, Wallace 10)."
    assert GAME.outcome(s).winners == () and GAME.outcome(s).winner_names() == ("Gromit",)
    with pytest.raises(SetupError, match=r"options\.tie_break"):
        Table(tie_break="coin")


def test_passing_through_home_claims_and_the_move_goes_on() -> None:
    t = Table().start()
    t.open_hideout("pub", 6)
    t.rustle("green", 3, 4)
    t.end_turn()
    t.roll(1)
    t.land()
    t.end_turn()
    t.whistle("Wallace")
    t.roll(5, 6)
    t.land("cheese", via_home=True)
    assert t.sheep["claimed"]["Wallace"] == 6 and t.phase == "draw"


def test_key_drawn_this_turn_cannot_open_this_turn() -> None:
    from companion.session import Session

    t = Table()
    t.session = Session(GAME, {"players": [{"name": "Wallace", "hand": ["skeleton-key", "other", "other"]},
                                           {"name": "Gromit"}]})
    t.start()
    t.open_hideout("church", 6, card="skeleton-key")
    t.end_turn()
    t.roll(1)
    t.land()
    t.end_turn()
    t.roll(2)
    t.land("cheese")
    t.send("draw", {"card": "key-pub"})
    t.rustle("green", 1, 2, where="doorstep", hideout="pub")
    assert not [c for c in t.prompt().choices if c.type == "open"]
    before = t.state
    with pytest.raises(IllegalAction, match="drawn this turn") as err:
        t.send("open", {"hideout": "pub", "card": "key-pub"})
    assert t.state is before and "Cheese Cards" in err.value.rule


def _six_with_a_duplicate(t: Table) -> None:
    """Wallace holds 'other' from the deal's named cards and draws a second one as his sixth."""
    for card in ("roll-2", "jump-to", "other"):
        t.roll(2)
        t.land("cheese")
        t.send("draw", {"card": card})
        if t.phase == "discard":
            return
        t.end_turn()
        t.roll(1)
        t.land()
        t.end_turn()


def test_a_duplicate_card_offers_both_copies_in_words() -> None:
    t = Table(hands={"Wallace": ["other", "key-pub", "skeleton-key"]}).start()
    _six_with_a_duplicate(t)
    prompt = t.prompt()
    both = [c for c in prompt.choices if c.payload["card"] == "other"]
    assert [c.label for c in both] == ["Put the new other card under the pile", "Put the old other card under the pile"]
    assert "Keep the old other card (held before this turn) to play it now" in prompt.text
    # a kind held once has one button, as before (no copy to choose)
    assert [c.payload for c in prompt.choices if c.payload["card"] == "key-pub"] == [{"card": "key-pub"}]
    before = t.state
    t.session.apply(both[0].event())
    assert t.json["drawn_this_turn"] == [] and "Play another Cheese Card" in [c.label for c in t.prompt().choices]
    t.session.undo()
    assert t.state == before
    t.session.apply(both[1].event())
    assert t.json["drawn_this_turn"] == ["other"]
    assert "Play another Cheese Card" not in [c.label for c in t.prompt().choices]


def test_a_bad_copy_is_refused_and_changes_nothing() -> None:
    t = Table().start()
    _six_with_a_duplicate(t)
    before = t.state
    with pytest.raises(IllegalAction, match=r"'drawn' .* or 'held'"):
        t.send("discard", {"card": "other", "copy": "newest"})
    with pytest.raises(IllegalAction, match="none is held from before"):
        t.send("discard", {"card": "other", "copy": "held"})  # the deal's cards are unseen '?'
    assert t.state == before
