"""What a touch on the Sheep Hop! picture means, for the Table (``ui/`` only draws).

- Before the first roll, a wolf's path: ``wolf-start`` events, one per free space.
- A sheep: the moves, picks and "cannot move" the prompt offers for that sheep
  (their ``sheep`` payload names it); with one answer it is entered at once,
  with several the picture asks with the game's own labels.
- After the wolves moved: the sheep they caught, touched one by one (at most
  one per space they entered), then confirmed: a ``capture`` event.

Answers that name no sheep ("No sheep can move", "Choose another sheep") are
shown on the picture as buttons too, so the whole step is in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.events import Event
from companion.game import Choice

WOLF_START = "wolf-start"
CAPTURE = "capture"
HANDLES = frozenset({WOLF_START, "sheep", "pick", "pass", CAPTURE})


def sheep_of(payload: Mapping[str, Any]) -> str | None:
    """The one sheep an answer is about (None: a capture's list, or no sheep)."""
    s = payload.get("sheep")
    return s if isinstance(s, str) else None


def per_sheep(choices: tuple[Choice, ...]) -> tuple[dict[str, list[Choice]], list[Choice]]:
    """The prompt's answers by the sheep they name, and the ones naming none (captures aside)."""
    mine: dict[str, list[Choice]] = {}
    other: list[Choice] = []
    for c in choices:
        if c.type == CAPTURE:
            continue
        s = sheep_of(c.payload)
        if s is None:
            other.append(c)
        else:
            mine.setdefault(s, []).append(c)
    return mine, other


def capture_limit(choices: tuple[Choice, ...]) -> int:
    """How many sheep the wolves may have caught: the largest group the game offers."""
    return max((len(c.payload.get("sheep", ())) for c in choices if c.type == CAPTURE), default=0)


def capture_label(caught: list[str]) -> str:
    if not caught:
        return "No sheep caught"
    return " and ".join(caught) + " caught"


def capture_event(caught: list[str], order: list[str]) -> Event:
    """The capture of the touched sheep, in the board's order (as the game lists them)."""
    return Event(CAPTURE, {"sheep": [s for s in order if s in caught]})


def describe(event: Event) -> str | None:
    """An event in the players' words, for the Log ("white1 reached the pen")."""
    t, p = event.type, event.payload
    if t == WOLF_START:
        return f"The {p.get('wolf')} wolf starts on space {p.get('position')}"
    if t == "sheep":
        jumped = list(p.get("jumped") or ())
        via = f", jumping the {', the '.join(jumped)}" if jumped else ""
        done = p.get("pen") is True or (p.get("path") or [None])[-1] == "pen"
        return f"{p.get('sheep')} {'reached the pen' if done else 'moved'}{via}"
    if t == CAPTURE:
        caught = list(p.get("sheep") or ())
        return f"The wolves caught {' and '.join(caught)}" if caught else "The wolves caught no sheep"
    if t == "pass":
        return f"{p['sheep']} could not move" if p.get("sheep") else "No sheep could move"
    return None
