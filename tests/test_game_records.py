"""Scenario tests written as game records (``tests/fixtures/<game>/*.jsonl``).

Each record's header says what it checks and what must follow:

- ``"checks"``: the rule under test, in words (required: a scenario says why it exists);
- ``"expect"``: a subset of ``bellwether replay --json``'s object that must match
  (nested objects are compared key by key, lists exactly);
- or ``"expect_error": {"line": N, "contains": "text"}``: replay must stop at
  line N with a message containing that text (an illegal action, refused).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import records
from companion.errors import RecordError
from companion.session import Session

FIXTURES = Path(__file__).resolve().parent / "fixtures"
RECORDS = sorted(FIXTURES.glob("*/*.jsonl"))


def assert_subset(expected: Any, actual: Any, where: str = "") -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where or '.'}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}.{key}: missing (have {sorted(actual)})"
            assert_subset(value, actual[key], f"{where}.{key}")
    else:
        assert actual == expected, f"{where}: expected {expected!r}, got {actual!r}"


@pytest.mark.parametrize("path", RECORDS, ids=[f"{p.parent.name}/{p.stem}" for p in RECORDS])
def test_scenario(path: Path) -> None:
    record = records.read(path)
    assert record.meta.get("checks"), f"{path.name}: the header must say which rule it checks ('checks')"
    if "expect_error" in record.meta:
        want = record.meta["expect_error"]
        with pytest.raises(RecordError) as err:
            Session.from_record(record)
        assert err.value.line == want["line"], str(err.value)
        assert want.get("contains", "").lower() in str(err.value).lower()
        return
    assert "expect" in record.meta, f"{path.name}: needs 'expect' or 'expect_error'"
    session = Session.from_record(record)
    assert_subset(record.meta["expect"], session.to_json())
    # Round trip: export then replay gives the identical state.
    again = Session.from_record(records.loads(records.dumps(session.record()), str(path)))
    assert again.state == session.state
