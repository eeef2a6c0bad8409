"""Prompts in plain words that offer only what is possible, and the end of the
game when players are still tied (findings of the rules audit)."""

from __future__ import annotations

from companion.games.pendleton_hill import GAME, Phase

from .helpers import Table
from .test_rules import position

# -- prompts say what is possible, in plain words ------------------------------------


def test_card_prompt_offers_the_sheepdog_only_while_it_is_held() -> None:
    t = Table(3)
    t.start()
    assert "Sheepdog" in GAME.prompt(t.state).text
    t.do("play-card", card="sheepdog", **{"as": "1"})
    t.do("place-sheep", pen=1)
    for who in ("Bob", "Cat"):
        t.do("play-card", who, card="1")
        t.do("place-sheep", who, pen=2, colour=who)
    p = GAME.prompt(t.state)
    assert p.player == "Ann" and "Sheepdog" not in p.text
    assert all(c.payload["card"] != "sheepdog" for c in p.choices)


def test_card_prompt_when_only_the_sheepdog_is_left() -> None:
    t = Table(3)
    t.start()
    position(t, deck={"1": 0, "1+1": 0, "2": 0}, hands={"Ann": {}})
    p = GAME.prompt(t.state)
    assert p.player == "Ann" and p.text == "Ann: play your Sheepdog card, the only card you hold, as a 1, 1+1 or 2."


def test_action_prompt_says_when_nothing_more_is_possible() -> None:
    t = Table(3)
    t.start()
    position(t, hill={p: {"shepherds": ["Ann"]} for p in ("1c", "1d")}, pens={"1": {"Ann": 3}, "2": {"Ann": 3}})
    t.do("play-card", card="1+1")
    t.do("place-shepherd", pasture="2a", colour="Bob")
    p = GAME.prompt(t.state)
    assert [c.type for c in p.choices] == ["done"]
    assert "nothing" in p.text and "done" in p.text
    assert "take one action for your own colour" not in p.text


def test_wolf_prompt_names_the_wolf_rule() -> None:
    t = Table(3)
    t.start()
    t.do("play-card", card="2")
    t.do("move-wolf", to="1b")
    p = GAME.prompt(t.state)
    assert p.rule == "The Wolf" and "wolf" in p.text


# -- Winning the Game: the end when players are still tied ---------------------------


def test_a_tie_after_all_three_tie_breaks_is_a_shared_win() -> None:
    t = Table(3)
    t.start()
    position(t, deck={"1": 0, "1+1": 0, "2": 0}, hands={n: {} for n in ("Ann", "Bob", "Cat")},
             sheepdogs={"Ann": False, "Bob": False, "Cat": False}, scores={"Ann": 4, "Bob": 4, "Cat": 1})
    assert t.state.phase is Phase.OVER
    p = GAME.prompt(t.state)
    assert p.text == "The game is over: Ann and Bob share the win, still tied after all three tie-breaks."


def test_three_players_tied_are_named_in_plain_english() -> None:
    t = Table(3)
    t.start()
    position(t, deck={"1": 0, "1+1": 0, "2": 0}, hands={n: {} for n in ("Ann", "Bob", "Cat")},
             sheepdogs={"Ann": False, "Bob": False, "Cat": False}, pens={"1": {"Cat": 1}})
    out = GAME.outcome(t.state)
    assert out is not None and out.ranking == ("Cat", "Ann", "Bob")
    assert out.tie_break is not None and out.tie_break.startswith("Cat, Ann and Bob tied on 0 points;")
    assert GAME.prompt(t.state).text == "The game is over: Cat wins."
