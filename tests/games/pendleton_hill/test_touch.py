"""What a touch on the picture of the hill means (companion/games/pendleton_hill/touch.py)."""

from __future__ import annotations

from companion.games.pendleton_hill import GAME, touch

from .helpers import Table


def test_every_placement_and_move_is_entered_where_the_piece_goes() -> None:
    t = Table(3)
    t.start()
    t.do("correction", pens={"1": {"Ann": 2, "Bob": 2}})
    t.do("play-card", card="1")
    offers = touch.offers(GAME, t.state)
    legal = [e for e in GAME.legal_actions(t.state) if e.type in touch.HANDLES]
    on_spots = [e for here in offers.values() for e in here]
    assert len(on_spots) == len(legal) and all(e in on_spots for e in legal)  # each on exactly one spot
    # 1c: any colour's shepherd (Ann's own is "Your shepherd"), or the flock from pen 1.
    assert [touch.label(t.state, e) for e in offers["1c"]] == [
        "Your shepherd", "Bob's shepherd", "Cat's shepherd", "Flock from pen 1",
    ]
    assert [touch.label(t.state, e) for e in offers["pen 2"]] == ["Your sheep", "Bob's sheep", "Cat's sheep"]
    assert "done" not in touch.HANDLES and "play-card" not in touch.HANDLES  # those stay buttons


def test_the_wolf_and_the_frightened_sheep_are_named() -> None:
    t = Table(3)
    t.start()
    t.do("correction", hill={"1b": {"flock": {"Ann": 1, "Bob": 1}}})
    t.do("play-card", card="2")
    labels = [touch.label(t.state, e) for e in touch.offers(GAME, t.state)["1b"]]
    assert "The wolf, Ann's sheep runs" in labels and "The wolf, Bob's sheep runs" in labels


def test_the_log_and_the_ruling_strip_speak_the_game() -> None:
    from companion.events import Event

    assert touch.describe(Event("place-shepherd", {"pasture": "2a", "colour": "Bob"}, player="Ann")) == "Ann put Bob's shepherd on 2a"
    assert touch.describe(Event("move-flock", {"pen": 1, "to": "1a"}, player="Ann")) == "Ann moved the flock from pen 1 to 1a"
    assert GAME.describe(Event("play-card", {"card": "sheepdog", "as": "2"}, player="Cy")) == "Cy played the Sheepdog card as a 2"
    t = Table(3)
    t.start(places=[["2a", "1c"]] * 3)
    t.do("correction", hill={"1a": {"flock": {"Ann": 1}}})
    assert GAME.prompt(t.state).tone == "info"  # a correction is neither good nor bad news
    t.do("play-card", card="2")
    t.do("move-flock", **{"from": "1a"}, to="2a")
    assert GAME.prompt(t.state).tone == "good"  # Ann scored 3 on 2a
