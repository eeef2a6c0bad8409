"""What a touch on the Sheep Hop! picture means (companion/games/sheep_hop/touch.py)."""

from __future__ import annotations

from companion.events import Event
from companion.games.sheep_hop import GAME, touch

from .helpers import new, roll


def test_every_answer_is_on_a_sheep_or_named_on_the_picture() -> None:
    state = GAME.apply(new(tiles=[{"tile": "fox", "at": [3, 1]}]), roll("white"))
    mine, other = touch.per_sheep(GAME.prompt(state).choices)
    # With an animal tile in play a move starts with a pick of the sheep, one answer per sheep.
    assert sorted(mine) == ["white1", "white2", "white3"] and all(len(v) == 1 for v in mine.values())
    assert [c.label for c in other] == ["No sheep can move"]
    state = GAME.apply(state, mine["white2"][0].event())
    mine, other = touch.per_sheep(GAME.prompt(state).choices)
    assert list(mine) == ["white2"]  # the picked sheep's answers, asked at once on the picture
    assert [c.label for c in mine["white2"]] == ["white2 moved", "white2 reached the pen", "white2 jumped the fox"]
    assert [c.label for c in other] == ["Choose another sheep"]
    assert set(touch.HANDLES) >= {e.type for e in GAME.legal_actions(state)}


def test_captures_are_touched_then_confirmed() -> None:
    state = GAME.apply(new(), roll("big-and-little-wolf"))
    choices = GAME.prompt(state).choices
    assert touch.capture_limit(choices) == 2  # one sheep per space the two wolves entered
    assert touch.capture_label([]) == "No sheep caught"
    e = touch.capture_event(["black2", "white1"], list(GAME.state_json(state)["sheep"]))
    assert e == Event("capture", {"sheep": ["white1", "black2"]})  # in the board's order, as the game lists it
    assert any(c.event().payload == e.payload for c in choices)


def test_the_log_and_the_ruling_strip_speak_the_game() -> None:
    assert GAME.describe(Event("wolf-start", {"wolf": "big", "position": 5})) == "The big wolf starts on space 5"
    assert GAME.describe(Event("sheep", {"sheep": "white1", "pen": True, "jumped": ["fox"]})) == "white1 reached the pen, jumping the fox"
    assert GAME.describe(Event("capture", {"sheep": []})) == "The wolves caught no sheep"
    state = GAME.apply(GAME.apply(new(), roll("big-and-little-wolf")), Event("capture", {"sheep": ["white1"]}))
    assert GAME.prompt(state).tone == "penalty" and GAME.prompt(state).alert == "the wolves caught white1"
