"""Building Shear Panic states for tests without playing up to them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.events import Event
from companion.games.shear_panic import GAME
from companion.games.shear_panic.flock import Flock
from companion.games.shear_panic.state import Phase, State

FOUR = [
    {"name": "Rita", "colour": "red"},
    {"name": "Gus", "colour": "green"},
    {"name": "Yan", "colour": "yellow"},
    {"name": "Bea", "colour": "blue"},
]
THREE = FOUR[:3]


def new(players: list[dict[str, Any]] | None = None, **options: Any) -> State:
    setup = GAME.validate_setup({"players": players or FOUR, "options": options})
    return GAME.initial_state(setup)


def in_fields(
    rows: list[str], *, players: list[dict[str, Any]] | None = None, active: int = 0, counter: int = 0, **kw: Any
) -> State:
    """A state in the fields: the given flock, the given player to choose an action."""
    s = new(players)
    return replace(
        s, flock=Flock.from_rows(rows), truck=False, phase=Phase.ACTION, active=active, time_counter=counter, **kw
    )


def ev(type: str, player: str | None = None, **payload: Any) -> Event:
    return Event(type, payload, player)


def roll(die: str, face: str) -> Event:
    return Event("roll", {"die": die, "faces": [face]})
