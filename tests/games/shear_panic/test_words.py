"""Shear Panic in words and touches (words.py): what the table reads and touches."""

from __future__ import annotations

from dataclasses import replace

from companion.events import Event
from companion.games.shear_panic import GAME, words

from .helpers import ev, in_fields, new, roll


def test_the_rulebook_shearing_example_is_announced_row_by_row() -> None:
    s = in_fields(["G..", "RKB", "RGY", ".Y.", ".B."], active=1, counter=61)
    s = GAME.apply(s, ev("action", "Gus", tile="lamb-push-1", sheep=[0, 4], direction="right"))
    said = GAME.state_json(s)["announced"]
    # Red 3 (2+1), Green 2, Yellow 5 (3+2), Blue 5 (4+1), as in the rulebook's example.
    assert said == [
        "Shearing gate! Shorn: green (front row). Row 1 (4 pts): Bea's blue +4; Row 2 (3 pts): Yan's yellow +3; "
        "Row 3 (2 pts): Gus's green +2, Rita's red +2, Yan's yellow +2; Row 4 (1 pt): Bea's blue +1, Rita's red +1."
    ]
    assert GAME.announcements(s) == tuple(said)


def test_moves_in_words_never_ids_or_coordinates() -> None:
    s = in_fields(["RGB", "YKY", "BGR"], active=0, counter=0)
    red = next(p for p, c in s.flock.grid().items() if c == "red")
    said = GAME.describe_move(s, Event("action", {"tile": "lamb-push-3", "sheep": list(red), "direction": "back-left"}, "Rita"))
    assert said == "Lamb Push 3: red sheep, back-left"
    assert GAME.describe_move(s, Event("action", {"tile": "alignment-3", "side": "front"}, "Rita")) == "Alignment 3: against the front"
    assert GAME.describe_move(s, Event("roll", {"die": "panic", "faces": ["white"]})) == "panic die: white"
    t = new([{"name": n} for n in ("Rita", "Gus", "Yan")])
    labels = [c.label for c in GAME.prompt(GAME.apply(t, roll("panic", "blue"))).choices]
    assert labels and all(label.startswith("Lamb Push (panic): blue sheep, ") for label in labels)
    assert not [label for label in labels if "[" in label]


def test_the_command_menu_and_what_a_touch_means() -> None:
    s = in_fields(["RGB", "YKY", "BGR"], active=0, counter=0)
    menu = words.menu(s)
    assert [t.name for t in menu][:2] == ["Lamb Push 1", "Lamb Push 3"] and len(menu) == 12
    assert not any(t.used for t in menu)
    touches = words.touches(s, GAME.legal_actions(s))
    # A Line Push may be started from any sheep of the row it pushes.
    line = next(t.id for t in s.tiles if t.action.value == "line-push")
    row = [p for p in s.flock.grid() if p[1] == 1]
    assert all("right" in touches[line][p] for p in row)
    assert all(touches[line][p]["right"] == touches[line][row[0]]["right"] for p in row)  # one push
    # Alignment takes no sheep: only a side.
    align = next(t.id for t in s.tiles if t.action.value == "alignment")
    assert set(touches[align]) == {None} and set(touches[align][None]) <= {"front", "back", "left", "right"}
    played = GAME.apply(s, touches[align][None][next(iter(touches[align][None]))])
    assert [t.used for t in words.menu(replace(played, active=0)) if t.id == align] == [True]  # greyed for Rita
