"""One base error for the whole project, each also a built-in where one fits.

Modelled on gpiozero (``BadWaitTime(GPIOZeroError, ValueError)``): callers that
know nothing of Bellwether can still catch ``ValueError`` or ``LookupError``,
and the UI/CLI catch ``BellwetherError`` to show one clean line to users.
"""

from __future__ import annotations

import errno

QUOTE_LIMIT = 60  # characters of a bad value an error message repeats


def brief(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters: a message names a bad value, never echoes a payload whole."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # a value nested past Python's limits, an int past its digit limit
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def os_reason(e: OSError, again: str = "try again") -> str:
    """An OSError in a few words: 'the disk is full' rather than '[Errno 28] ...'."""
    if e.errno == errno.ENOSPC:
        return f"the disk is full: free space and {again}"
    return e.strerror or str(e)


class BellwetherError(Exception):
    """Base of every error Bellwether raises on purpose."""


class IllegalAction(BellwetherError, ValueError):
    """A game action the rules forbid; the state is left unchanged.

    ``rule`` names the rulebook section (or rule) that forbids it, so the
    message a player reads always says *why*.
    """

    def __init__(self, message: str, rule: str) -> None:
        if len(message) > 300:  # built from a hostile event: never echo its payload whole
            message = message[:299] + "…"
        super().__init__(f"{message} (rule: {rule})")
        self.reason = message
        self.rule = rule


class SetupError(BellwetherError, ValueError):
    """A game setup that cannot be played: names the key and what was expected."""

    def __init__(self, key: str, expected: str, actual: object = None) -> None:
        got = "" if actual is None else f", got {brief(actual)}"
        super().__init__(f"setup {key}: expected {expected}{got}")
        self.key = key
        self.expected = expected
        self.actual = actual


class UnknownGame(BellwetherError, LookupError):
    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"unknown game {name!r}; known games: {', '.join(known)}")
        self.name = name

    def __str__(self) -> str:  # LookupError/KeyError would repr() the message
        return self.args[0]


class RecordError(BellwetherError, ValueError):
    """A game record that cannot be read or replayed, with the line at fault."""

    LONGEST_REASON = 300  # a reason built from a hostile line is cut, never the whole payload

    def __init__(self, path: str, line: int, reason: str) -> None:
        if len(reason) > self.LONGEST_REASON:
            reason = reason[: self.LONGEST_REASON - 1] + "…"
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


class ConfigError(BellwetherError, ValueError):
    """A bad configuration or calibration value: file, key, expected, actual."""

    def __init__(self, file: object, key: str, expected: str, actual: object = None, *, missing: bool = False) -> None:
        got = ", but it is missing" if missing else "" if actual is None else f", got {brief(actual)}"
        super().__init__(f"{file}: {key}: expected {expected}{got}")
        self.file = str(file)
        self.key = key
        self.expected = expected
        self.actual = actual


class StoreError(BellwetherError, RuntimeError):
    """The session store cannot do what was asked (missing session, bad file)."""


class NothingToUndo(BellwetherError, IndexError):
    pass


class SensorError(BellwetherError, OSError):
    """A sensor device failed; the sensor goes offline, the game goes on."""
