"""Prompts say what happens next in plain words, and offer only what is possible."""

from __future__ import annotations

from .table import Table, towing


def test_roll_prompt_with_sheep_says_what_a_missing_whistle_costs() -> None:
    t = towing()
    assert "hoof it to the Village Green" in t.prompt().text


def test_waiting_ruling_says_what_happens_without_a_whistle() -> None:
    t = towing()
    t.roll(2, 3)
    text = t.prompt().text
    assert "No whistle heard yet" in text and "6 sheep hoof it to the Village Green" in text
    t = Table().start()
    t.open_hideout("pub", 6)
    t.send("rustle", {"from": "green"})
    assert "the sheep won't follow" in t.prompt().text
    t.roll(2, 3)
    assert "the rustle fails" in t.prompt().text


def test_rustle_move_prompt_explains_great_and_rubbish() -> None:
    t = Table().start()
    t.open_hideout("pub", 6)
    t.send("rustle", {"from": "green"})
    t.whistle("Wallace")
    t.roll(2, 3)
    text = t.prompt().text
    assert "5 squares" in text and "6 sheep" in text and "rubbish rustle" in text
    labels = [c.label for c in t.prompt().choices]
    assert any("Through Home" in label for label in labels)  # a rustle can lead its sheep Home and go on


def test_actions_prompt_names_only_what_is_possible() -> None:
    t = Table().start()
    t.roll(2)
    t.land()
    text = t.prompt().text
    assert "rustle" not in text and "abandon" not in text and "open" not in text
    assert "end the turn" in text
    t = Table().start()
    t.open_hideout("pub", 6)
    text = t.prompt().text
    assert "rustle" in text and "abandon" not in text


def test_nicked_without_claimed_sheep_says_the_next_turn_is_missed() -> None:
    t = Table().start()
    t.roll(6)
    t.roll(6)
    t.roll(6)
    alert = t.prompt().alert
    assert "Nicked!" in alert and "misses the next turn" in alert


def test_serving_says_the_next_turn_is_missed() -> None:
    from .test_whistles import claimed

    t = claimed(towing())  # Gromit's turn; Wallace has 6 claimed
    t.roll(1)
    t.land()
    t.end_turn()
    t.roll(6)
    t.roll(6)
    t.roll(6)
    assert t.phase == "nicked"
    t.send("serve")
    assert "Wallace misses the next turn" in t.prompt().alert


def test_a_full_tie_at_the_top_is_a_shared_win() -> None:
    from dataclasses import replace

    from companion.games.fleeced import GAME
    from companion.games.fleeced.state import Phase

    s = Table(["Wallace", "Gromit", "Preston"]).state
    s = replace(s, sheep=replace(s.sheep, hideouts=0, bag=0, claimed=(15, 15, 10)), phase=Phase.OVER,
                tallies=((("grey", 15),), (("grey", 15),), (("white1", 10),)))
    text = GAME.prompt(s).text
    assert "Wallace and Gromit share the win" in text and "Wallace wins" not in text


def test_who_blew_says_what_each_answer_means() -> None:
    t = towing()
    t.whistle(None)
    t.roll(2, 3)  # the answer decides the roll's ruling
    text = t.prompt().text
    assert text.startswith("Who blew?") and "If it was Wallace" in text and "hoof it" in text
    t = towing()
    t.whistle("Wallace")
    t.roll(2, 3)
    t.whistle(None)
    assert "out of turn costs the blower one claimed sheep" in t.prompt().text
