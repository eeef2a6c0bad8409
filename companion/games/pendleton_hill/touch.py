"""What a touch on the picture of the hill means, for the Table (``ui/`` only draws).

Every placement and move is entered where it ends: a pasture (a shepherd
placed there, a flock or the wolf moved there) or a pen (a sheep put in it).
The game's legal events are grouped by that spot; when a spot has more than
one (whose shepherd, which flock, which sheep the wolf frightens), the
picture asks with these short labels.  Cards and "done" stay buttons.
"""

from __future__ import annotations

from typing import Any

from companion.events import Event

from .state import HillState

HANDLES = frozenset({"place-shepherd", "place-sheep", "move-flock", "move-wolf"})


def pen_spot(number: int) -> str:
    return f"pen {number}"


def spot(event: Event) -> str | None:
    """The pasture id or ``"pen N"`` a finger touches to enter this event (None: not on the picture)."""
    p = event.payload
    if event.type == "place-shepherd":
        return str(p.get("pasture"))
    if event.type == "place-sheep":
        return pen_spot(int(p.get("pen", 0)))
    if event.type in ("move-flock", "move-wolf"):
        return str(p.get("to"))
    return None


def _whose(state: HillState, event: Event, thing: str) -> str:
    name = event.payload.get("colour", event.player)
    return f"Your {thing}" if name == event.player else f"{name}'s {thing}"


def label(state: HillState, event: Event) -> str:
    """What this event does at its spot, in a few words ("Bob's shepherd", "Flock from 1a")."""
    p = event.payload
    scare = f", {p['frighten']}'s sheep runs" if "frighten" in p else ""
    if event.type == "place-shepherd":
        return _whose(state, event, "shepherd")
    if event.type == "place-sheep":
        return _whose(state, event, "sheep")
    if event.type == "move-flock":
        src = pen_spot(p["pen"]) if "pen" in p else p["from"]
        return f"Flock from {src}{scare}"
    return f"The wolf{scare}"


def by_spot(events: list[Event]) -> dict[str, list[Event]]:
    """The legal events the picture takes, grouped by the spot touched (in the game's order)."""
    out: dict[str, list[Event]] = {}
    for e in events:
        where = spot(e) if e.type in HANDLES else None
        if where is not None:
            out.setdefault(where, []).append(e)
    return out


def offers(game: Any, state: HillState) -> dict[str, list[Event]]:
    return by_spot(game.legal_actions(state))


def describe(event: Event) -> str | None:
    """An event in the players' words, for the Log ("Ann put Bob's shepherd on 2a")."""
    t, p, who = event.type, event.payload, event.player
    whose = p.get("colour", who)
    mine = "their" if whose == who else f"{whose}'s"
    scare = f", frightening {p['frighten']}'s sheep" if "frighten" in p else ""
    words = None
    if t == "play-card":
        words = f"played the Sheepdog card as a {p.get('as')}" if p.get("card") == "sheepdog" else f"played a {p.get('card')}"
    elif t == "place-shepherd":
        words = f"put {mine} shepherd on {p.get('pasture')}"
    elif t == "place-sheep":
        words = f"put {mine} sheep in pen {p.get('pen')}"
    elif t == "move-flock":
        src = f"pen {p['pen']}" if "pen" in p else p.get("from")
        words = f"moved the flock from {src} to {p.get('to')}{scare}"
    elif t == "move-wolf":
        words = f"moved the wolf to {p.get('to')}{scare}"
    elif t == "done":
        words = "ended the actions"
    elif t == "draw":
        words = "drew a card"
    if words is None:
        return None
    return f"{who} {words}" if who else words[0].upper() + words[1:]
