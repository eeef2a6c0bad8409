"""The event record: every input to a game, whatever it came from.

A physical die read by the camera, a GPIO button, a whistle heard by the
microphone, a tap on the screen: all become an :class:`Event`.  Games are pure
functions of their setup and the events fed to them, so a game record (a list
of events) replays to exactly the same state.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any

from .errors import brief

# Event types the core and several games share.  Games add their own types
# (for example ``move`` or ``play-card``); these are the ones sensors emit.
ROLL = "roll"  # payload: {"die": str, "faces": [...]}  (dice are chance events)
WHISTLE = "whistle"  # payload: {"blower": str|None, "peak_hz", "onset", "offset"}
CORRECTION = "correction"  # the table overrides what the app believes
ANSWER = "answer"  # the table answers a question the app asked (e.g. "Who blew?")


class Source(str, Enum):
    CAMERA = "camera"
    GPIO = "gpio"
    MICROPHONE = "microphone"
    TOUCH = "touch"
    KEYBOARD = "keyboard"
    REPLAY = "replay"

    def __str__(self) -> str:
        return self.value


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _freeze(value: Any) -> Any:
    # Payloads are JSON-shaped; freezing them keeps an Event truly immutable
    # so a state that holds one can never be changed behind the session's back.
    if type(value) in _SCALARS:  # the common case first: exact types, no ABC checks
        return value
    if type(value) is dict or isinstance(value, Mapping):
        return MappingProxyType({str(k): _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """The plain JSON form (dicts and lists) of a frozen payload value."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


MAX_TYPE = 40  # characters of an event type: names like "play-card", never a payload

_SOURCES = {s.value: s for s in Source}
_EVENT_KEYS = frozenset({"type", "payload", "player", "time", "source", "confidence"})


@dataclass(frozen=True)
class Event:
    type: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    player: str | None = None
    time: float = 0.0  # seconds since the epoch (sensors convert their stream time)
    source: Source = Source.TOUCH
    confidence: float | None = None  # sensors only: 0..1

    def __post_init__(self) -> None:
        if not isinstance(self.type, str) or not self.type or len(self.type) > MAX_TYPE:
            raise ValueError(
                f"event type: expected a non-empty name of at most {MAX_TYPE} characters, got {brief(self.type)}"
            )
        object.__setattr__(self, "payload", _freeze(self.payload or {}))
        if type(self.source) is not Source:
            object.__setattr__(self, "source", Source(self.source))
        if not isinstance(self.time, (int, float)) or not math.isfinite(self.time):
            raise ValueError(f"event time: expected a finite number, got {brief(self.time)}")
        object.__setattr__(self, "time", float(self.time))
        if self.confidence is not None:
            c = self.confidence
            if not isinstance(c, (int, float)) or not 0.0 <= c <= 1.0:
                raise ValueError(f"event confidence: expected a number from 0 to 1, got {brief(c)}")
        if self.player is not None and not isinstance(self.player, str):
            raise ValueError(f"event player: expected a name or null, got {brief(self.player)}")

    def get(self, key: str, default: Any = None) -> Any:
        return self.payload.get(key, default)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type}
        if self.payload:
            d["payload"] = thaw(self.payload)
        if self.player is not None:
            d["player"] = self.player
        d["time"] = self.time
        d["source"] = self.source.value
        if self.confidence is not None:
            d["confidence"] = self.confidence
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        if not isinstance(d, Mapping):
            raise ValueError(f"an event must be a JSON object, got {type(d).__name__}")
        if not d.keys() <= _EVENT_KEYS:
            unknown = set(d) - _EVENT_KEYS
            raise ValueError(f"unknown event keys: {', '.join(sorted(unknown))}")
        if "type" not in d:
            raise ValueError("an event needs a 'type'")
        payload = d.get("payload", {})
        if not isinstance(payload, Mapping):
            raise ValueError(f"event payload: expected an object, got {brief(payload)}")
        source = d.get("source", "touch")
        try:
            source = _SOURCES.get(source) or Source(source) if isinstance(source, str) else Source(source)
        except ValueError:
            names = ", ".join(s.value for s in Source)
            raise ValueError(f"event source: expected one of {names}, got {brief(source)}") from None
        return cls(
            type=d["type"],
            payload=payload,
            player=d.get("player"),
            time=d.get("time", 0.0),
            source=source,
            confidence=d.get("confidence"),
        )
