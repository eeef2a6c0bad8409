"""Hostile record lines are refused in bounded time, in one line that never echoes the payload."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import records
from companion.errors import RecordError
from companion.session import Session

from .conftest import assert_one_clear_line, bellwether

HEADER = json.dumps(
    {"format": "bellwether-record", "version": 1, "game": "tally", "setup": {"players": ["Ann", "Bob"]}}
)
ROLL = json.dumps({"type": "roll", "payload": {"die": "d6", "faces": [3]}, "time": 1.0})


def _record(tmp_path: Path, bad: str) -> Path:
    path = tmp_path / "hostile.jsonl"
    path.write_text("\n".join([HEADER, ROLL, bad, ROLL]) + "\n")
    return path


HOSTILE = {
    "nested-100000-deep": ("[" * 100_000 + "]" * 100_000, "nested deeper"),
    "nested-100000-deep-in-payload": (
        '{"type": "roll", "payload": {"faces": ' + "[" * 100_000 + "]" * 100_000 + "}}",
        "nested deeper",
    ),
    "5000-digit-integer": ('{"type": "roll", "payload": {"die": "d6", "faces": [' + "9" * 5000 + "]}}", "digits"),
    "NaN": ('{"type": "roll", "payload": {"die": "d6", "faces": [NaN]}}', "finite"),
    "Infinity-time": ('{"type": "roll", "time": -Infinity}', "finite"),
    "50-MB-line": ('{"type": "roll", "payload": {"junk": "' + "A" * 50_000_000 + '"}}', "longer than"),
    "2-MB-unknown-key": ('{"' + "k" * 2_000_000 + '": 1}', "longer than"),
    "50-kB-type": ('{"type": "' + "t" * 50_000 + '"}', "event type"),
    "50-kB-bad-source": ('{"type": "roll", "source": "' + "s" * 50_000 + '"}', "event source"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_line_is_refused_with_its_line_named(tmp_path: Path, case: str) -> None:
    bad, reason = HOSTILE[case]
    path = _record(tmp_path, bad)
    with pytest.raises(RecordError) as e:
        Session.from_file(str(path), history=False)
    assert e.value.line == 3 and reason in str(e.value)
    assert len(str(e.value)) < len(str(path)) + 400  # the payload is never repeated whole


@pytest.mark.parametrize("command", ["replay", "validate"])
@pytest.mark.parametrize("case", ["nested-100000-deep", "5000-digit-integer", "50-MB-line"])
def test_the_cli_refuses_a_hostile_line_in_one_short_line(tmp_path: Path, command: str, case: str) -> None:
    bad, reason = HOSTILE[case]
    path = _record(tmp_path, bad)
    r = bellwether(command, str(path), timeout=60)
    assert_one_clear_line(r, f"{path}:3:", reason)
    assert len(r.stderr) < 600


def test_a_header_nested_too_deep_is_refused() -> None:
    deep = json.dumps({"format": "bellwether-record", "version": 1, "game": "tally", "setup": {"players": ["A"]}})
    deep = deep[:-1] + ', "title": ' + "[" * 40 + "]" * 40 + "}"
    with pytest.raises(RecordError, match="nested deeper than 32"):
        records.loads(deep + "\n")


def test_ordinary_deep_enough_values_and_long_digit_names_still_read() -> None:
    # The fast paths must not refuse what is fine: a 30-digit *string* and 20-deep nesting.
    setup = {"players": [{"name": "1" * 30}], "options": {"note": [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]}}
    text = json.dumps({"format": "bellwether-record", "version": 1, "game": "tally", "setup": setup}) + "\n" + ROLL
    record = records.loads(text)
    assert record.setup["players"][0]["name"] == "1" * 30 and len(record.events) == 1
