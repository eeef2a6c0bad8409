"""Malformed payloads (wrong types) are refused with the rule named, never a TypeError/KeyError."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction

from .table import Table


def refused(t: Table, type: str, payload: dict, match: str | None = None) -> None:
    before = t.json
    with pytest.raises(IllegalAction, match=match):
        t.send(type, payload)
    assert t.json == before


def on_doorstep() -> Table:
    t = Table().start()
    t.roll(2)
    t.land("doorstep", hideout="pub")
    return t


def test_unhashable_hideout_is_refused() -> None:
    t = on_doorstep()
    refused(t, "open", {"hideout": {"a": 1}, "card": "key-pub"}, "hideout")
    t = Table().start()
    t.roll(2)
    refused(t, "landed", {"where": "doorstep", "hideout": {}}, "hideout")


def test_unhashable_discard_is_refused() -> None:
    t = Table().start()
    for _ in range(3):  # three cheese squares: six cards in hand
        t.roll(1)
        t.land("cheese")
        t.send("draw", {"card": "other"})
        if t.phase == "discard":
            break
        t.end_turn()
        t.roll(1)
        t.land()
        t.end_turn()
    assert t.phase == "discard"
    refused(t, "discard", {"card": {}}, "Cheese Cards")
    refused(t, "discard", {"card": ["other"]}, "Cheese Cards")


def test_dice_faces_must_be_whole_numbers() -> None:
    t = Table().start()
    refused(t, "roll", {"die": "d6", "faces": [3.0]}, "1 to 6")


def test_via_home_must_be_true_or_false() -> None:
    t = Table().start()
    t.roll(2)
    refused(t, "landed", {"where": "square", "via_home": "no"}, "via_home")


def test_an_answer_must_say_who_blew() -> None:
    t = Table().start()
    t.whistle(None)
    refused(t, "answer", {}, "blower")
    refused(t, "answer", {"blower": 3})
    t.send("answer", {"blower": None})  # the noise answer is explicit
    assert t.json["whistle"]["who_blew"] == []
