"""The rulebook, rule by rule: each test names the section it checks."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from companion.games.pendleton_hill import GAME, Phase

from .helpers import Table, deal, ev, flock_at


def refused(t: Table, type_: str, rule: str, contains: str, player: str | None = None, **payload) -> IllegalAction:
    """The event is refused naming the rule, and the state is unchanged."""
    before = t.state
    with pytest.raises(IllegalAction) as err:
        GAME.apply(t.state, ev(type_, player, **payload))
    assert err.value.rule == f"Sheepdogs of Pendleton Hill, {rule}"
    assert contains.lower() in str(err.value).lower()
    assert t.state is before and GAME.state_json(t.state) == GAME.state_json(before)
    return err.value


def position(t: Table, **correction) -> None:
    t.do("correction", **correction)


# -- Set Up ------------------------------------------------------------------------


def test_set_up_shepherds_on_the_7_and_the_5s_and_the_wolf_in_the_centre() -> None:
    t = Table(4)
    hill = t.json()["hill"]
    for pid in ("3a", "3b", "4a"):
        assert hill[pid]["shepherds"] == ["Ann", "Bob", "Cat", "Dan"]
    assert [p for p, v in hill.items() if v["wolf"]] == ["2b"]
    assert t.json()["off_board"]["Ann"] == {"sheep": 6, "shepherds": 4}
    assert len(t.json()["pens"]) == 3


def test_set_up_deals_three_secret_cards_each() -> None:
    t = Table(3)
    # The deal is face down: nothing to enter, the twin counts three cards a hand.
    assert t.state.phase is Phase.SETUP and GAME.prompt(t.state).player == "Ann" and GAME.prompt(t.state).rule == "Set Up"
    assert t.json()["deck_left"] == 51
    assert t.json()["hands"]["Cat"] == {"cards": 3, "sheepdog": True}
    assert "draw" not in GAME.prompt(t.state).expects


def test_an_old_record_reports_the_deal_card_by_card() -> None:
    t = Table(3)
    t.do("draw", card="1")  # a first event reporting the deal: an old record
    assert t.state.reported and t.state.phase is Phase.DEAL and GAME.prompt(t.state).player == "Bob"
    refused(t, "draw", "Sequence of Play", "Bob's", player="Cat", card="1")
    refused(t, "draw", "Components", "'1', '1+1' or '2'", card="3")
    t.run(deal(t.names, [["1", "1", "1"]] * 3)[1:])
    assert t.state.phase is Phase.SETUP
    assert t.json()["deck_left"] == 51 and t.json()["hands"]["Cat"] == {"cards": 3, "sheepdog": True}
    t.start()
    t.do("play-card", card="1")
    t.do("place-sheep", pen=1)
    assert t.state.phase is Phase.DRAW and GAME.prompt(t.state).expects == ("draw", "correction")
    t.do("draw", card="2")
    assert t.json()["deck_left"] == 50 and t.json()["hands"]["Ann"]["cards"] == 3 and GAME.prompt(t.state).player == "Bob"


def test_a_draw_is_never_entered_when_hands_are_secret() -> None:
    t = Table(3)
    t.start()
    refused(t, "draw", "Sequence of Play", "hands are secret", card="1")
    t.do("play-card", card="1")
    t.do("place-sheep", pen=1)
    # The replacement is counted by itself, and the next prompt tells Ann to draw it.
    assert t.json()["deck_left"] == 50 and t.json()["hands"]["Ann"]["cards"] == 3
    assert GAME.prompt(t.state).text.startswith("Ann draws a card. Bob: play a card (3 in hand)")


def test_set_up_placement_is_own_colour_one_per_pasture() -> None:
    t = Table(3)
    refused(t, "place-shepherd", "Set Up", "own shepherds", pasture="1a", colour="Bob")
    refused(t, "place-shepherd", "Set Up", "already has a Ann shepherd", pasture="4a")
    t.do("place-shepherd", pasture="2b")  # with the wolf: allowed
    assert t.json()["hill"]["2b"]["shepherds"] == ["Ann"]
    for who, p in [("Bob", "1a"), ("Cat", "1a"), ("Ann", "1d"), ("Bob", "1b")]:
        t.do("place-shepherd", who, pasture=p)
    t.do("place-shepherd", "Cat", pasture="1c")
    assert t.state.phase is Phase.CARD and GAME.prompt(t.state).player == "Ann"


def test_three_player_game_leaves_out_the_black_sheep_pen() -> None:
    t = Table(3)
    t.start()
    assert [p["pen"] for p in t.json()["pens"]] == [1, 2]
    t.do("play-card", card="2")
    refused(t, "place-sheep", "The Board", "not used in a 3-player game", pen=3)


# -- cards -------------------------------------------------------------------------


def test_a_card_must_be_in_hand_and_only_the_sheepdog_is_wild() -> None:
    t = Table(3)
    t.start()
    # The hand is secret: a kind is refused only once all 20 are played, or the hand is empty.
    position(t, played={"1+1": 20}, deck=30)
    refused(t, "play-card", "Components", "all 20 '1+1' cards have already been played", card="1+1")
    position(t, hands={"Ann": 0})
    refused(t, "play-card", "Sequence of Play", "holds no card but the Sheepdog card", card="1")
    position(t, hands={"Ann": 3})
    refused(t, "play-card", "The Sheepdog Card", "only the Sheepdog card is wild", card="1", **{"as": "2"})
    refused(t, "play-card", "The Sheepdog Card", "say what the Sheepdog card is used as", card="sheepdog")
    refused(t, "play-card", "Sequence of Play", "Ann's turn", player="Bob", card="1")
    t.do("play-card", card="sheepdog", **{"as": "1+1"})
    assert t.json()["sheepdogs_left"] == 2 and t.json()["turn"]["as"] == "1+1"


def test_sheepdog_is_used_once_and_replaced_by_a_draw() -> None:
    t = Table(3)
    t.start()
    t.do("play-card", card="sheepdog", **{"as": "1"})
    t.do("place-sheep", pen=1)
    assert t.state.drew is not None
    assert t.json()["hands"]["Ann"] == {"cards": 4, "sheepdog": False}
    # Next time round, the Sheepdog is gone.
    for who in ("Bob", "Cat"):
        t.do("play-card", who, card="1")
        t.do("place-sheep", who, pen=2, colour=who)
    refused(t, "play-card", "The Sheepdog Card", "already used", card="sheepdog", **{"as": "2"})


def test_one_card_allows_one_action_for_any_colour() -> None:
    t = Table(3)
    t.start()
    t.do("play-card", card="1")
    t.do("place-shepherd", pasture="2a", colour="Cat")
    assert t.json()["hill"]["2a"]["shepherds"] == ["Cat"]
    assert t.state.drew is not None
    refused(t, "place-sheep", "Sequence of Play", "Bob plays a card", pen=1)


def test_one_plus_one_needs_one_own_and_one_other_action_in_any_order() -> None:
    t = Table(3)
    t.start()
    t.do("play-card", card="1+1")
    t.do("place-sheep", pen=1, colour="Bob")
    refused(t, "place-sheep", 'The "1+1" Card', "second action for another colour", pen=1, colour="Cat")
    refused(t, "done", 'The "1+1" Card', "requires an action for your own colour")
    t.do("place-shepherd", pasture="2a")
    assert t.state.drew is not None
    t.do("play-card", "Bob", card="1+1")
    t.do("place-sheep", "Bob", pen=2, colour="Bob")
    refused(t, "place-shepherd", 'The "1+1" Card', "second action for your own colour", player="Bob", pasture="2c")


def test_one_plus_one_never_moves_a_mixed_flock() -> None:
    t = Table(3)
    t.start()
    position(t, pens={"1": {"Ann": 2, "Bob": 2}, "2": {"Bob": 4}})
    t.do("play-card", card="1+1")
    refused(t, "move-flock", 'The "1+1" Card', "contains both their sheep and other players' sheep", pen=1, to="1a")
    t.do("move-flock", pen=2, to="1c")  # only other players' sheep: the "other" action
    assert flock_at(t, "1c") == {"Bob": 4}


def test_two_card_only_involves_own_colour() -> None:
    t = Table(3)
    t.start(places=[["1c", "1d"]] * 3)
    position(t, pens={"1": {"Bob": 4}, "2": {"Ann": 1, "Cat": 3}})
    t.do("play-card", card="2")
    refused(t, "place-shepherd", 'The "2" Card', "does not involve your colour", pasture="2a", colour="Bob")
    refused(t, "move-flock", 'The "2" Card', "contains only other players' sheep", pen=1, to="1a")
    t.do("move-flock", pen=2, to="1a")  # mixed, with one of Ann's: allowed
    t.do("move-flock", **{"from": "1a"}, to="2a")
    assert flock_at(t, "2a") == {"Cat": 3, "Ann": 1} and t.state.drew is not None


def test_two_card_example_fill_a_pen_then_move_it_out() -> None:
    t = Table(3)
    t.start()
    position(t, pens={"1": {"Ann": 1, "Bob": 2}})
    t.do("play-card", card="2")
    refused(t, "move-flock", "Moving Flocks", "at least four spaces", pen=1, to="1a")
    t.do("place-sheep", pen=1)
    t.do("move-flock", pen=1, to="1d")
    assert flock_at(t, "1d") == {"Ann": 2, "Bob": 2}
    assert t.json()["pens"][0]["sheep"] == {}


def test_two_card_flock_must_hold_own_sheep_at_each_move() -> None:
    t = Table(3)
    t.start(places=[["2a", "1b"], ["1c", "1d"], ["1c", "1d"]])
    # Ann's only sheep is matched on 2a, so the flock no longer holds one of hers.
    position(t, hill={"1a": {"flock": {"Ann": 1, "Bob": 2}}})
    t.do("play-card", card="2")
    t.do("move-flock", **{"from": "1a"}, to="2a")
    assert t.json()["scores"]["Ann"] == 3 and flock_at(t, "2a") == {"Bob": 2}
    refused(t, "move-flock", 'The "2" Card', "only other players' sheep", **{"from": "2a"}, to="3a")


def test_a_flock_never_moves_back_where_it_left_this_turn() -> None:
    t = Table(3)
    t.start(places=[["2a", "2c"]] * 3)
    position(t, hill={"1b": {"flock": {"Ann": 2}}})
    t.do("play-card", card="2")
    t.do("move-flock", **{"from": "1b"}, to="1c")
    refused(t, "move-flock", 'The "2" Card', "left this turn", **{"from": "1c"}, to="1b")
    t.do("move-flock", **{"from": "1c"}, to="1d")
    for who in ("Bob", "Cat"):
        t.do("play-card", who, card="2")
        t.do("move-wolf", who, to="3a")
        t.do("done", who)
        t.do("correction", wolf="2b")
    # A new turn: the flock may go back where it came from.
    t.do("play-card", card="2")
    t.do("move-flock", **{"from": "1d"}, to="1c")
    t.do("move-flock", **{"from": "1c"}, to="1b")
    assert flock_at(t, "1b") == {"Ann": 2}


def test_flock_moves_sideways_or_up_never_down_nor_far_nor_onto_a_flock() -> None:
    t = Table(3)
    t.start(places=[["2a", "2c"]] * 3)
    position(t, hill={"2b": {"flock": {"Ann": 2}}, "2c": {"flock": {"Bob": 1}}}, wolf="1a", pens={"1": {"Ann": 4}})
    t.do("play-card", card="2")
    refused(t, "move-flock", "Moving Flocks", "never be moved down", **{"from": "2b"}, to="1b")
    refused(t, "move-flock", "Moving Flocks", "not adjacent", **{"from": "2b"}, to="4a")
    refused(t, "move-flock", "Moving Flocks", "only one flock may occupy", **{"from": "2b"}, to="2c")
    refused(t, "move-flock", "Moving Flocks", "first move must be onto a pasture of the first", pen=1, to="2a")
    refused(t, "move-flock", "Moving Flocks", "no flock on 3a", **{"from": "3a"}, to="4a")
    refused(t, "move-flock", "Actions", "not both", pen=1, to="1b", **{"from": "2b"})
    t.do("move-flock", **{"from": "2b"}, to="2a")


def test_pens_hold_one_sheep_per_space() -> None:
    t = Table(3)
    t.start()
    position(t, pens={"1": {"Bob": 5}})
    t.do("play-card", card="2")
    refused(t, "place-sheep", "Moving Flocks", "pen 1 is full", pen=1)
    refused(t, "place-sheep", "The Board", "pen number", pen="1")


def test_pieces_run_out() -> None:
    t = Table(3)
    t.start()
    position(t, pens={"1": {"Ann": 5}, "2": {"Ann": 1}}, hill={"2a": {"shepherds": ["Ann"]}, "2c": {"shepherds": ["Ann"]}})
    t.do("play-card", card="2")
    refused(t, "place-sheep", "Components", "all 6 are on the board", pen=2)
    refused(t, "place-shepherd", "Components", "all 7 of Ann's shepherds", pasture="2b")


# -- scoring -------------------------------------------------------------------------


def test_matches_score_at_once_by_tier_one_sheep_per_shepherd() -> None:
    t = Table(3)
    t.start(places=[["2a", "1c"], ["2a", "1c"], ["1c", "1d"]])
    position(t, hill={"1a": {"flock": {"Ann": 2, "Bob": 1, "Cat": 1}}})
    t.do("play-card", card="2")
    t.do("move-flock", **{"from": "1a"}, to="2a")
    assert t.json()["scores"] == {"Ann": 3, "Bob": 3, "Cat": 0}
    assert flock_at(t, "2a") == {"Ann": 1, "Cat": 1}
    assert t.json()["hill"]["2a"]["shepherds"] == []
    assert t.json()["off_board"]["Ann"] == {"sheep": 5, "shepherds": 3}


def test_a_shepherd_placed_after_the_flock_arrived_does_not_match() -> None:
    t = Table(3)
    t.start(places=[["1c", "1d"]] * 3)
    position(t, hill={"1a": {"flock": {"Ann": 2}}})
    t.do("play-card", card="2")
    t.do("move-flock", **{"from": "1a"}, to="2a")
    t.do("place-shepherd", pasture="2a")
    assert t.json()["scores"]["Ann"] == 0 and flock_at(t, "2a") == {"Ann": 2}
    assert t.json()["hill"]["2a"]["shepherds"] == ["Ann"]


def test_unmatched_sheep_at_the_top_return_to_their_owners() -> None:
    t = Table(3)
    t.start()
    position(t, hill={"3a": {"flock": {"Ann": 2, "Bob": 1, "Cat": 2}}}, wolf="1d")
    t.do("play-card", card="2")
    t.do("move-flock", **{"from": "3a"}, to="4a")
    assert t.json()["scores"] == {"Ann": 7, "Bob": 7, "Cat": 7}
    assert flock_at(t, "4a") is None
    assert {n: v["sheep"] for n, v in t.json()["off_board"].items()} == {"Ann": 6, "Bob": 6, "Cat": 6}


def test_wolf_frightens_one_sheep_chosen_by_the_mover_before_matching() -> None:
    t = Table(3)
    t.start(places=[["1c", "1d"], ["1b", "2b"], ["1c", "1d"]])
    position(t, hill={"1b": {"flock": {"Ann": 1, "Bob": 1}}})
    t.do("play-card", card="2")
    refused(t, "move-flock", "The Wolf", "say 'frighten'", **{"from": "1b"}, to="2b")
    refused(t, "move-flock", "The Wolf", "must be one in the flock", **{"from": "1b"}, to="2b", frighten="Cat")
    t.do("move-flock", **{"from": "1b"}, to="2b", frighten="Bob")
    # Bob's shepherd on 2b had no sheep left to match: frightened first.
    assert t.json()["scores"]["Bob"] == 0 and flock_at(t, "2b") == {"Ann": 1}
    assert "frightened Bob's sheep" in t.json()["last"]


def test_no_frighten_without_the_wolf() -> None:
    t = Table(3)
    t.start()
    position(t, hill={"1b": {"flock": {"Ann": 1, "Bob": 1}}})
    t.do("play-card", card="2")
    refused(t, "move-flock", "The Wolf", "wolf is not in that pasture", **{"from": "1b"}, to="1c", frighten="Bob")


# -- the wolf ------------------------------------------------------------------------


def test_wolf_moves_up_to_two_spaces_with_a_two_card_and_nothing_else() -> None:
    t = Table(3)
    t.start()
    t.do("play-card", card="1")
    refused(t, "move-wolf", "The Wolf", "only a 2 card", to="1b")
    t.do("place-sheep", pen=1)
    t.do("play-card", "Bob", card="2")
    refused(t, "move-wolf", "The Wolf", "does not touch", player="Bob", to="4a")
    t.do("move-wolf", "Bob", to="2a")
    refused(t, "place-sheep", "The Wolf", "may not do anything else", player="Bob", pen=1)
    refused(t, "move-wolf", "The Wolf", "left this turn", player="Bob", to="2b")
    t.do("move-wolf", "Bob", to="1a")
    assert t.json()["wolf"] == "1a" and t.state.drew is not None


def test_wolf_stops_at_a_flock_and_frightens_one_sheep() -> None:
    t = Table(3)
    t.start()
    position(t, hill={"2a": {"flock": {"Bob": 1, "Cat": 2}}})
    t.do("play-card", card="sheepdog", **{"as": "2"})
    t.do("move-wolf", to="2a", frighten="Cat")
    assert flock_at(t, "2a") == {"Bob": 1, "Cat": 1}
    assert t.state.drew is not None  # it must stop: the turn's actions are over


def test_wolf_after_an_action_is_refused() -> None:
    t = Table(3)
    t.start()
    t.do("play-card", card="2")
    t.do("place-sheep", pen=1)
    refused(t, "move-wolf", "The Wolf", "already acted", to="1b")


def test_done_early_with_a_one_step_wolf_or_after_one_action_of_a_two() -> None:
    t = Table(3)
    t.start()
    t.do("play-card", card="2")
    refused(t, "done", "Actions", "at least one action")
    t.do("move-wolf", to="1b")
    t.do("done")
    assert t.state.drew is not None


def test_a_player_is_never_stuck_when_nothing_is_possible() -> None:
    t = Table(3)
    t.start()
    # Ann's shepherds are all on the hill and her sheep all in pens too small to leave:
    # nothing is possible for her own colour, so the 1+1 card ends after the other action.
    position(t, hill={p: {"shepherds": ["Ann"]} for p in ("1c", "1d")}, pens={"1": {"Ann": 3}, "2": {"Ann": 3}})
    t.do("play-card", card="1+1")
    assert all(c.payload.get("colour") != "Ann" for c in GAME.prompt(t.state).choices)
    refused(t, "place-shepherd", "Components", "all 7 of Ann's shepherds", pasture="2a")
    t.do("place-shepherd", pasture="2a", colour="Bob")
    assert [c.type for c in GAME.prompt(t.state).choices] == ["done"]
    t.do("done")
    assert t.state.drew is not None


# -- the end -------------------------------------------------------------------------


def _finish(t: Table) -> None:
    """Play out every remaining card with wolf moves (deck emptied by a correction)."""
    while t.state.phase is not Phase.OVER:
        choices = [
            c
            for c in GAME.prompt(t.state).choices
            if c.type in ("move-wolf", "done", "draw") or c.payload.get("as", c.payload.get("card")) == "2"
        ]
        t.state = GAME.apply(t.state, choices[0].event())


def test_the_game_ends_when_deck_and_sheepdogs_are_played_with_tie_breaks() -> None:
    t = Table(3)
    t.start()
    position(t, deck={"1": 0, "1+1": 0, "2": 0}, scores={"Ann": 10, "Bob": 10, "Cat": 12}, pens={"1": {"Ann": 2}})
    _finish(t)
    out = GAME.outcome(t.state)
    assert out is not None
    assert t.json()["deck_left"] == 0 and t.json()["sheepdogs_left"] == 0
    assert t.json()["hands"]["Bob"] == {"cards": 0, "sheepdog": False}
    # Ann and Bob tie on points and on sheep on the hill (none); Ann has 2 in the pens.
    assert out.ranking == ("Cat", "Ann", "Bob")
    assert out.tie_break == "Ann and Bob tied on 10 points; sheep on the hill: Ann 0, Bob 0; sheep in the pens: Ann 2, Bob 0."
    assert GAME.prompt(t.state).rule == "Winning the Game"
    with pytest.raises(IllegalAction, match="game is over"):
        GAME.apply(t.state, ev("play-card", card="2"))
    # The first tie-break comes first: a sheep on the hill beats two in the pens.
    t.do("correction", hill={"2c": {"flock": {"Bob": 1}}})
    out = GAME.outcome(t.state)
    assert out is not None and out.ranking == ("Cat", "Bob", "Ann")
    assert out.tie_break == "Bob and Ann tied on 10 points; sheep on the hill: Bob 1, Ann 0."
    # The third: shepherds on the hill.
    t.do("correction", hill={"2c": {"flock": None}, "2a": {"shepherds": ["Bob"]}}, pens={"1": {}})
    out = GAME.outcome(t.state)
    assert out is not None and out.ranking == ("Cat", "Bob", "Ann")
    assert out.tie_break is not None and out.tie_break.endswith("shepherds on the hill: Bob 6, Ann 5.")
    refused(t, "correction", "Winning the Game", "game is over", deck={"1": 1})


def test_outcome_reports_a_full_tie_in_seat_order() -> None:
    t = Table(3)
    t.start()
    position(t, deck={"1": 0, "1+1": 0, "2": 0}, hands={n: {} for n in ("Ann", "Bob", "Cat")},
             sheepdogs={"Ann": False, "Bob": False, "Cat": False})
    assert t.state.phase is Phase.OVER
    out = GAME.outcome(t.state)
    assert out is not None and out.ranking == ("Ann", "Bob", "Cat")
    assert "still tied after all three tie-breaks" in (out.tie_break or "")


# -- corrections ---------------------------------------------------------------------


def test_corrections_set_what_the_table_says_and_recount_pools() -> None:
    t = Table(3)
    t.start()
    t.do("correction", scores={"Bob": 4}, hill={"1c": {"flock": {"Cat": 3}, "shepherds": ["Bob"]}}, wolf="3a",
         reason="the wolf was knocked")
    j = t.json()
    assert j["scores"]["Bob"] == 4 and j["wolf"] == "3a" and j["hill"]["1c"]["flock"] == {"Cat": 3}
    assert j["off_board"]["Cat"]["sheep"] == 3 and "knocked" in j["last"]
    refused(t, "correction", "Components", "7 of Ann's sheep", pens={"1": {"Ann": 5}, "2": {"Ann": 2}})
    refused(t, "correction", "Components", "unknown key", colour="red")
    refused(t, "correction", "Collecting Sheep and Scoring", "top pasture", hill={"4a": {"flock": {"Ann": 1}}})
    refused(t, "correction", "Components", "that makes 61 cards", deck=52)
    refused(t, "correction", "Components", "the game has 20 '2' cards", played={"2": 21})
    refused(t, "correction", "Components", "a whole number of cards", hands={"Ann": -1})
    t.do("correction", deck={"1": 10, "1+1": 10, "2": 10}, hands={"Ann": {"2": 2}})  # an old record's counts by kind
    assert t.json()["deck_left"] == 30 and t.json()["hands"]["Ann"]["cards"] == 2


def test_correction_can_hand_the_turn_to_another_player() -> None:
    t = Table(3)
    t.start()
    t.do("play-card", card="2")
    t.do("correction", active="Cat")
    assert t.state.phase is Phase.CARD and GAME.prompt(t.state).player == "Cat"


def test_prompt_offers_the_legal_events_as_choices() -> None:
    t = Table(3)
    t.start()
    p = GAME.prompt(t.state)
    assert p.player == "Ann" and "play a card" in p.text and p.rule == "Sequence of Play"
    assert [c.label for c in p.choices] == ["Play a 1", "Play a 1+1", "Play a 2", "Sheepdog as a 1", "Sheepdog as a 1+1",
                                           "Sheepdog as a 2"]
    t.do("play-card", card="2")
    p = GAME.prompt(t.state)
    assert p.rule == 'The "2" Card'
    assert all(c.payload.get("colour", "Ann") == "Ann" for c in p.choices if c.type.startswith("place"))
    assert {c.type for c in p.choices} == {"place-shepherd", "place-sheep", "move-wolf"}
    assert [e.type for e in GAME.legal_actions(t.state)] == [c.type for c in p.choices]


def test_state_json_has_what_the_table_needs() -> None:
    t = Table(4)
    t.start()
    j = t.json()
    assert set(j) >= {"deck_left", "sheepdogs_left", "hill", "pens", "scores", "turn"}
    assert j["deck_left"] == 48 and j["sheepdogs_left"] == 4
    assert j["hill"]["2b"] == {"tier": 2, "value": 3, "flock": None, "shepherds": [], "wolf": True}
    assert j["turn"] == {"number": 1, "player": "Ann", "phase": "card", "card": None, "as": None, "actions": 0, "wolf_steps": 0}


def test_corrections_wait_until_play_has_begun() -> None:
    t = Table(3)
    refused(t, "correction", "Set Up", "undo the wrong step", deck=0)


def test_alert_only_for_news() -> None:
    t = Table(3)
    t.start(places=[["2a", "1c"]] * 3)
    assert GAME.prompt(t.state).alert is None  # a shepherd placed is not news
    position(t, hill={"1a": {"flock": {"Ann": 1}}})
    assert GAME.prompt(t.state).alert == "Corrected by the table."
    t.do("play-card", card="2")
    t.do("move-flock", **{"from": "1a"}, to="2a")
    assert GAME.prompt(t.state).alert == "Ann scored 3 on 2a."
