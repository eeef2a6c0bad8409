"""Every whistle penalty of the turn can be contested, not only the latest, in any order."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction

from .test_whistle_model import wallace_towing


def two_penalties():
    """Wallace rolls with 6 in tow and no whistle; Gromit (2 claimed) blows 3 s later: both rulings in one event."""
    t = wallace_towing(2)
    t.roll(1, 2)
    t.whistle("Gromit", at=t.now + 3.0)
    kinds = [r["kind"] for r in t.json["rulings"]][-2:]
    assert kinds == ["no-whistle", "out-of-turn"]
    assert t.sheep["in_tow"]["Wallace"] == 0 and t.sheep["claimed"]["Gromit"] == 1
    return t


def index_of(t, kind: str) -> int:
    return max(i for i, r in enumerate(t.json["rulings"]) if r["kind"] == kind and not r["contested"])


def test_both_penalties_are_contestable() -> None:
    t = two_penalties()
    assert sorted(t.json["whistle"]["contestable_rulings"]) == [index_of(t, "no-whistle"), index_of(t, "out-of-turn")]
    labels = [c.label for c in t.prompt().choices if c.type == "correction"]
    assert len(labels) == 2 and any("I did blow" in x for x in labels) and any("I didn't blow" in x for x in labels)


@pytest.mark.parametrize("order", [("no-whistle", "out-of-turn"), ("out-of-turn", "no-whistle")])
def test_contest_the_earlier_penalty_then_the_later_in_either_order(order) -> None:
    t = two_penalties()
    green = t.sheep["green"]
    for kind in order:
        t.send("correction", {"contest": index_of(t, kind)})
    assert t.sheep["in_tow"]["Wallace"] == 6 and t.sheep["claimed"]["Gromit"] == 2
    assert t.sheep["green"] == green - 6 - 1
    rulings = t.json["rulings"]
    assert sum(r["kind"] == "contested" for r in rulings) == 2
    assert {r["kind"] for r in rulings if r["contested"]} == {"no-whistle", "out-of-turn"}
    assert t.json["whistle"]["contestable_rulings"] == []
    t.land()  # play goes on with the flock
    assert t.sheep["in_tow"]["Wallace"] == 6


def test_contest_only_the_earlier_keeps_the_later_penalty() -> None:
    t = two_penalties()
    t.send("correction", {"contest": index_of(t, "no-whistle")})
    assert t.sheep["in_tow"]["Wallace"] == 6 and t.sheep["claimed"]["Gromit"] == 1
    assert t.json["whistle"]["contestable_rulings"] == [index_of(t, "out-of-turn")]
    with pytest.raises(IllegalAction, match="contest"):
        t.send("correction", {"contest": 0})  # not a penalty of this turn


def test_contests_replay_from_the_record() -> None:
    from companion import records
    from companion.session import Session

    t = two_penalties()
    t.send("correction", {"contest": index_of(t, "out-of-turn")})
    t.send("correction", {"contest": index_of(t, "no-whistle")})
    again = Session.from_record(records.loads(records.dumps(t.session.record()), "mem"))
    assert again.state == t.state and t.json == t.json


def test_the_latest_penalty_is_the_first_contest_button() -> None:
    t = two_penalties()
    first = next(c for c in t.prompt().choices if c.type == "correction")
    assert first.payload["contest"] == index_of(t, "out-of-turn") and "I didn't blow" in first.label
