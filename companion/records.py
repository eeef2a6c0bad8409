"""Game records: the project's PGN.  JSON Lines, stable and shareable.

Line 1 is a header object::

    {"format": "bellwether-record", "version": 1, "game": "fleeced",
     "setup": {"players": [...], "options": {...}}}

and every further line is one event (``Event.to_dict``).  Extra header keys
(``title``, ``checks``, ``expect``, ``exported``) are kept but never needed to
replay.  See ``docs/game-records.md``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import RecordError
from .events import Event

FORMAT = "bellwether-record"
VERSION = 1


@dataclass
class Record:
    game: str
    setup: dict[str, Any]
    events: list[Event] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)  # title, checks, expect, ...
    lines: list[int] = field(default_factory=list)  # file line of each event
    path: str = "<record>"

    def header(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "game": self.game, "setup": self.setup, **self.meta}


def dumps(record: Record) -> str:
    out = [json.dumps(record.header(), ensure_ascii=False)]
    out += [json.dumps(e.to_dict(), ensure_ascii=False) for e in record.events]
    return "\n".join(out) + "\n"


def write(record: Record, path: str | os.PathLike[str]) -> None:
    Path(path).write_text(dumps(record), encoding="utf-8")


def _parse_line(path: str, n: int, text: str) -> dict[str, Any]:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(path, n, f"not valid JSON ({e.msg} at column {e.colno}); is the file truncated?") from None
    if not isinstance(obj, dict):
        raise RecordError(path, n, f"expected a JSON object, got {type(obj).__name__}")
    return obj


def stream(lines: Iterable[str], path: str = "<record>") -> Iterator[Record | tuple[int, Event]]:
    """Yield the header as a Record (without events), then ``(line, event)`` pairs.

    Lazy, so that a replay stops at the *first* bad line in file order,
    whether it is malformed JSON or an event the rules refuse.
    """
    header_seen = False
    for n, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue  # blank lines are allowed, e.g. a trailing newline
        obj = _parse_line(path, n, text)
        if not header_seen:
            header_seen = True
            yield _header(path, n, obj)
            continue
        try:
            yield n, Event.from_dict(obj)
        except ValueError as e:
            raise RecordError(path, n, str(e)) from None
    if not header_seen:
        raise RecordError(path, 1, "empty file: expected a header line")


def parse(lines: Iterable[str], path: str = "<record>") -> Record:
    """Read a whole record; a malformed line raises RecordError with its number."""
    items = stream(lines, path)
    record = next(items)
    assert isinstance(record, Record)
    for n, event in items:  # type: ignore[misc]
        record.events.append(event)
        record.lines.append(n)
    return record


def _header(path: str, n: int, obj: Mapping[str, Any]) -> Record:
    if obj.get("format") != FORMAT:
        raise RecordError(path, n, f"not a game record: the header's 'format' must be {FORMAT!r}")
    version = obj.get("version")
    if not isinstance(version, int) or not 1 <= version <= VERSION:
        raise RecordError(path, n, f"record version: expected 1 to {VERSION}, got {version!r}")
    game = obj.get("game")
    if not isinstance(game, str):
        raise RecordError(path, n, "the header needs a 'game' name")
    setup = obj.get("setup")
    if not isinstance(setup, dict):
        raise RecordError(path, n, "the header needs a 'setup' object")
    meta = {k: v for k, v in obj.items() if k not in {"format", "version", "game", "setup"}}
    return Record(game=game, setup=setup, meta=meta, path=path)


def loads(text: str, path: str = "<record>") -> Record:
    return parse(text.splitlines(), path)


def read_text(path: str | os.PathLike[str]) -> str:
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordError(str(p), 1, "not a text file (expected UTF-8 JSON Lines)") from None
    except OSError as e:
        raise RecordError(str(p), 0, e.strerror or str(e)) from None


def read(path: str | os.PathLike[str]) -> Record:
    return loads(read_text(path), str(path))
