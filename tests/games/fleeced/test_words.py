"""Fleeced!'s words agree with their numbers (issue #17, F28), and tied players share a place."""

from __future__ import annotations

from dataclasses import replace

from companion.game import Outcome
from companion.games.fleeced import GAME
from companion.games.fleeced.state import Phase
from companion.wording import count

from .table import Table


def test_count_agrees_with_its_number():
    assert [count(1, "sheep", "sheep"), count(2, "card"), count(0, "square"), count(1, "pt")] == [
        "1 sheep", "2 cards", "0 squares", "1 pt"]


def test_a_great_rustle_of_one_sheep_is_not_all_1_sheep():
    t = Table().start()
    t.open_hideout("pub", 1)
    t.rustle("green", 3, 4)
    alert = t.prompt().alert
    assert "takes the only sheep from the Village Green" in alert and "all 1" not in alert


def test_a_great_rustle_of_many_takes_all():
    t = Table().start()
    t.open_hideout("pub", 6)
    t.rustle("green", 3, 4)
    assert "takes all 6 sheep from the Village Green" in t.prompt().alert


def test_a_rubbish_rustle_of_one_square_says_one_follows():
    t = Table().start()
    t.open_hideout("pub", 9)
    t.rustle("green", 1, 2, squares=1)  # rolled 3 but blocked after 1
    alert = t.prompt().alert
    assert "only 1 of 9 sheep from the Village Green follows." in alert
    assert GAME.describe(t.session.events[-1]).endswith("(blocked after 1 square)")


def _finished(pts_claimed: tuple[int, ...], **options: object):
    s = Table(["Ann", "Bob", "Cy", "Di"], **options).state
    sheep = replace(s.sheep, hideouts=0, bag=0, claimed=pts_claimed)
    return replace(s, sheep=sheep, phase=Phase.OVER, tallies=tuple((("white1", n),) for n in pts_claimed))


def test_players_level_lower_down_share_their_place():
    # Ann 16, Bob and Cy 10 each, Di 4: no tie-break in the rulebook, so Bob and Cy are both 2nd.
    outcome = GAME.outcome(_finished((16, 10, 10, 4)))
    assert outcome.ranking == ("Ann", "Bob", "Cy", "Di")
    assert outcome.shared == (("Bob", "Cy"),)
    assert outcome.places() == (1, 2, 2, 4)
    assert outcome.to_dict()["shared"] == [["Bob", "Cy"]]


def test_shared_winners_are_all_first_and_the_next_place_skips():
    outcome = GAME.outcome(_finished((10, 10, 4, 4)))
    assert outcome.winner_names() == ("Ann", "Bob") and outcome.places() == (1, 1, 3, 3)


def test_outcome_places_without_shared_groups_and_cooperative():
    assert Outcome(("A", "B", "C")).places() == (1, 2, 3)
    assert Outcome(("A", "B"), won=True).places() == (1, 1)


def test_playing_another_cheese_card_says_what_became_of_it():
    t = Table(hands={"Wallace": ["other", "key-pub", "roll-2"]}).start()
    t.send("play", {"card": "other"})
    assert t.prompt().alert == "Wallace played a Cheese Card: do what it says at the table; it goes under the pile."
