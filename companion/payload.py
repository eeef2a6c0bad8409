"""Typed reading of event payloads and setup values, for the engines.

A record or a sensor may carry any JSON where a game expects a list of faces,
a path or a mode name: a number, null, an object, a list inside a list.  The
engines read such values through these helpers, so a wrong type is refused
with the key and the expected type named (``IllegalAction`` / ``SetupError``)
and never reaches a ``len()``, a loop or a set lookup as a TypeError.

>>> is_one_of([[1]], {"board", "quick"})  # a list is unhashable: not a member, no TypeError
False
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from .errors import IllegalAction, brief


def is_one_of(value: Any, choices: Collection[Any]) -> bool:
    """``value in choices`` for any JSON value (an unhashable list or object is simply not in a set)."""
    try:
        return value in choices
    except TypeError:
        return False


def is_list(value: Any, of: Callable[[Any], bool] = lambda _v: True, max_len: int = 1000) -> bool:
    """A JSON list (a tuple once frozen in an Event) of at most ``max_len`` items, each passing ``of``."""
    return isinstance(value, (list, tuple)) and len(value) <= max_len and all(of(v) for v in value)


def is_count(value: Any, hi: int) -> bool:
    """A whole number from 0 to ``hi`` (never a bool, a float or a number that would exhaust memory)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= hi


def read(
    refuse: Callable[[str, str], IllegalAction],
    payload: Mapping[str, Any],
    key: str,
    check: Callable[[Any], bool],
    expected: str,
    rule: str,
    default: Any = ...,
) -> Any:
    """``payload[key]`` if ``check`` accepts it, else the game's refusal naming the key and the expected type."""
    if key not in payload:
        if default is ...:
            raise refuse(f"{key}: expected {expected}, but it is missing", rule)
        return default
    value = payload[key]
    if not check(value):
        raise refuse(f"{key}: expected {expected}, got {brief(value)}", rule)
    return value
