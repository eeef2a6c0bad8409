"""Every payload key of every game, and every setup key, given the wrong JSON type.

For each scenario record of the five games, each event of it is tried again
on the state before it with one payload value (at any depth) replaced by a
JSON value of another type, or removed.  The engine must accept it or refuse
it with ``IllegalAction`` naming the rule, never raise TypeError, KeyError or
anything else, and the state before it must be unchanged.  Setups likewise
raise ``SetupError`` naming the key.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import records, registry
from companion.errors import BellwetherError, IllegalAction, SetupError
from companion.events import Event, thaw
from companion.session import Session

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GAMES = ("shear-panic", "fleeced", "battle-sheep", "sheep-hop", "pendleton-hill")

# Wrong values: every JSON type, with the awkward ones (huge counts, NaN, lists of lists) forced in.
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.sampled_from([0, -1, 10**9, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value (keys of objects, the first items of lists)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield (*prefix, k)
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):
            yield (*prefix, i)
            yield from _paths(v, (*prefix, i))


def _replaced(value: Any, path: tuple[Any, ...], new: Any, delete: bool = False) -> Any:
    value = json.loads(json.dumps(value))  # a deep, plain copy
    target = value
    for step in path[:-1]:
        target = target[step]
    if delete and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = new
    return value


@functools.cache
def _played(game: str) -> list[tuple[str, Any, Any, Event, tuple[tuple[Any, ...], ...]]]:
    """(record, game, state before, event, places in its payload) for every event of the game's scenario records."""
    out = []
    for path in sorted((FIXTURES / game).glob("*.jsonl")):
        record = records.read(path)
        if "expect_error" in record.meta:
            continue
        session = Session.from_record(record)
        for i, event in enumerate(session.events):
            places = tuple(_paths(thaw(event.payload)))
            if places:
                out.append((path.name, session.game, session._states[i], event, places))
    return out


def _state_json(game: Any, state: Any) -> str:
    return json.dumps(game.state_json(state), sort_keys=True, default=str)


def _assert_refused_cleanly(game: Any, state: Any, event: Event) -> None:
    before = _state_json(game, state)
    try:
        after = game.apply(state, event)
        # Accepted: the new state must be usable (prompt, scores, JSON), not a time bomb.
        game.prompt(after)
        game.scores(after)
        _state_json(game, after)
    except IllegalAction as e:
        assert e.rule and "rule:" in str(e)
        assert len(str(e)) < 800  # the bad value is quoted, never echoed whole
    assert _state_json(game, state) == before  # the state before is never changed


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_payload_value_of_the_wrong_type_is_refused_with_the_rule(game: str, data: st.DataObject) -> None:
    _name, g, state, event, places = data.draw(st.sampled_from(_played(game)), label="event")
    place = data.draw(st.sampled_from(places), label="place")
    delete = data.draw(st.booleans(), label="delete")
    wrong = data.draw(JSON, label="value")
    payload = _replaced(thaw(event.payload), place, wrong, delete)
    _assert_refused_cleanly(g, state, Event(event.type, payload, event.player, event.time, event.source))


@pytest.mark.parametrize("game", GAMES)
def test_the_wrong_types_the_issue_names_are_refused(game: str) -> None:
    """Die faces as a number, null or an object; a path that is an int; lists where a name is expected."""
    seen = set()
    for _name, g, state, event, places in _played(game):
        shape = (event.type, places, state.__class__.__name__, str(getattr(state, "phase", "")))
        if shape in seen:
            continue  # one event of each type, payload shape and phase: the rest would repeat it
        seen.add(shape)
        for place in places:
            for wrong in (3, None, {"a": 1}, 10**9, [[1]], ["x", 2], float("nan"), "", True):
                payload = _replaced(thaw(event.payload), place, wrong)
                _assert_refused_cleanly(g, state, Event(event.type, payload, event.player, event.time, event.source))


def _setups(game: str) -> list[dict[str, Any]]:
    return [records.read(p).setup for p in sorted((FIXTURES / game).glob("*.jsonl"))]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_setup_value_of_the_wrong_type_is_a_setup_error(game: str, data: st.DataObject) -> None:
    setup = data.draw(st.sampled_from(_setups(game)), label="setup")
    places = list(_paths(setup))
    place = data.draw(st.sampled_from(places), label="place")
    wrong = data.draw(JSON, label="value")
    bad = _replaced(setup, place, wrong, data.draw(st.booleans(), label="delete"))
    g = registry.get(game)
    try:
        s = g.validate_setup(bad)
        g.prompt(g.initial_state(s))
    except SetupError as e:
        assert e.key and "expected" in str(e)
    except BellwetherError:
        pass  # e.g. a ConfigError for board data, naming the key


@pytest.mark.parametrize("game", GAMES)
def test_a_record_with_a_wrong_type_names_its_line(game: str, tmp_path: Path) -> None:
    """Through the file reader and Session: RecordError naming the line, never a traceback."""
    for name, _g, _state, event, places in _played(game)[:40]:
        record = records.read(FIXTURES / game / name)
        lines = records.dumps(record).splitlines()
        index = next(i for i, e in enumerate(record.events) if e == event)
        payload = _replaced(thaw(event.payload), places[0], {"not": ["what", "was", "expected"]})
        lines[index + 1] = json.dumps({**event.to_dict(), "payload": payload})
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        try:
            Session.from_file(str(path), history=False)
        except records.RecordError as e:
            assert e.line == index + 2, (name, e)
