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
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import save_text_atomic
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
    """Write a record atomically: a crash or a full disk never leaves half of one (or of the old one)."""
    save_text_atomic(path, dumps(record), make_folder=False)


# Bounds on what a reader accepts, so that a hostile or broken file is refused
# at once in bounded time and memory instead of exhausting either.  A real event
# line is ~100 bytes and a header with corrected board data a few KiB.
MAX_LINE = 1 << 20  # bytes of one line
MAX_DEPTH = 32  # nesting of objects and lists in one line
MAX_DIGITS = 20  # digits of one integer (2**64 has 20)


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a number with {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a number a record may hold (finite numbers only)")


class _Refused(ValueError):
    """Raised from inside the JSON parser's hooks: the reason, without the payload."""


_PLAIN = json.JSONDecoder()
_CHECKED = json.JSONDecoder(parse_int=_bounded_int, parse_constant=_no_constant)
_LONG_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1}}}")


def _depth(obj: Any) -> int:
    """Nesting depth of a parsed JSON value, without recursion."""
    deepest, todo = 0, [(obj, 1)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                return depth
            todo.extend((v, depth + 1) for v in value if isinstance(v, (dict, list)))
    return deepest


def _parse_line(path: str, n: int, text: str) -> dict[str, Any]:
    if len(text) > MAX_LINE:
        raise RecordError(path, n, f"a line of {len(text):,} characters (at most {MAX_LINE:,}); is it a game record?")
    try:
        # The checked decoder is slower; most lines cannot need it (no long digit
        # run, no NaN/Infinity anywhere in the text), and those take the fast one.
        suspect = _LONG_DIGITS.search(text) or "NaN" in text or "Infinity" in text
        obj = (_CHECKED if suspect else _PLAIN).decode(text)
    except _Refused as e:
        raise RecordError(path, n, str(e)) from None
    except json.JSONDecodeError as e:
        raise RecordError(path, n, f"not valid JSON ({e.msg} at column {e.colno}); is the file truncated?") from None
    except RecursionError:
        raise RecordError(path, n, f"nested deeper than {MAX_DEPTH} levels") from None
    if not isinstance(obj, dict):
        raise RecordError(path, n, f"expected a JSON object, got {type(obj).__name__}")
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(obj) > MAX_DEPTH:
        raise RecordError(path, n, f"nested deeper than {MAX_DEPTH} levels")
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
    return "".join(lines(path))


def lines(path: str | os.PathLike[str]) -> Iterator[str]:
    """The lines of a record file, read one at a time (memory does not grow with the file).

    A line longer than ``MAX_LINE`` is refused without reading the rest of
    it; an OS error (a folder, a missing or unreadable file) and bytes that
    are not UTF-8 become RecordError naming the file.
    """
    p = Path(path)
    n = 0
    try:
        with p.open(encoding="utf-8", newline="") as f:
            while True:
                line = f.readline(MAX_LINE + 1)
                if not line:
                    return
                n += 1
                if len(line) > MAX_LINE:
                    raise RecordError(str(p), n, f"a line longer than {MAX_LINE:,} characters; is it a game record?")
                yield line
    except UnicodeDecodeError:
        raise RecordError(str(p), n + 1, "not a text file (expected UTF-8 JSON Lines)") from None
    except OSError as e:
        raise RecordError(str(p), 0, e.strerror or str(e)) from None


def read(path: str | os.PathLike[str]) -> Record:
    return parse(lines(path), str(path))
