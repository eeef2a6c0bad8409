"""Shared builders for the Sheep Hop! tests.

The default meadow (board.toml), [row, column] with row 0 at the top:

    row 0      E          exit (0, 3); the pen is north of it, at (-1, 3)
    rows 1-5   .......    big wolf: round the edge of rows 1-5 (20 spaces, index 0 = (1, 0))
                          little wolf: round (2,2)-(4,4) (8 spaces, index 0 = (2, 2))
    rows 6-8     SSS      starting area: white1-3 on row 6, black1-3 row 7, brown1-3 row 8
"""

from __future__ import annotations

import random
from typing import Any

from companion.events import Event
from companion.games.sheep_hop import GAME, Phase, SheepHopState

ANIMALS = ("mole", "patou", "raccoon", "fox")


def setup(mode: str = "table", players: int = 2, **options: Any) -> dict[str, Any]:
    return GAME.validate_setup({"players": ["Ann", "Ben", "Cat"][:players], "options": {"mode": mode, **options}})


def new(mode: str = "table", **options: Any) -> SheepHopState:
    return GAME.initial_state(setup(mode, **options))


def roll(face: str) -> Event:
    return Event("roll", {"die": "sheep-hop", "faces": [face]})


def move(sheep: str, *path: Any) -> Event:
    return Event("sheep", {"sheep": sheep, "path": [list(p) if not isinstance(p, str) else p for p in path]})


def placed(state: SheepHopState, **where: Any) -> SheepHopState:
    """Correct sheep (and nothing else) before a roll."""
    return GAME.apply(state, Event("correction", {"sheep": {k: list(v) if isinstance(v, tuple) else v for k, v in where.items()}}))


def random_game(seed: int, mode: str, tiles: list[dict[str, Any]]) -> list[SheepHopState]:
    rng = random.Random(seed)
    state = new(mode, tiles=tiles)
    states = [state]
    while state.phase is not Phase.OVER and len(states) < 3000:
        event = rng.choice(GAME.legal_actions(state))
        if mode == "table" and event.type == "sheep" and rng.random() < 0.3:
            animals = [t.kind for t in state.tiles if t.kind in ANIMALS]
            if animals:
                event = Event("sheep", {**event.payload, "jumped": [rng.choice(animals)]})
        state = GAME.apply(state, event)
        states.append(state)
    return states
