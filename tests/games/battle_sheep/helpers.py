"""Shared builders for the Battle Sheep tests."""

from __future__ import annotations

import random
from typing import Any

from companion.events import Event
from companion.games.battle_sheep import GAME, BattleSheepState, Phase
from companion.games.battle_sheep.field import random_placement
from companion.games.battle_sheep.game import moves

# Eight rhombus boards side by side in two rows: the pastures q 0..7, r 0..3,
# a parallelogram that is easy to reason about by hand.
STRIP = [{"at": [q, r], "rotation": 0} for r in (0, 2) for q in (0, 2, 4, 6)]


def setup(players: int = 2, **options: Any) -> dict[str, Any]:
    return GAME.validate_setup({"players": ["Ann", "Ben", "Cat", "Dan"][:players], "options": options})


def strip_game(starts: tuple[tuple[int, int], ...] = ((0, 0), (7, 3))) -> BattleSheepState:
    """Two players on the 8 x 4 strip, starting at the given pastures."""
    state = GAME.initial_state(setup(2, boards=STRIP))
    for at in starts:
        state = GAME.apply(state, Event("start", {"at": list(at)}))
    return state


def random_game(seed: int, players: int = 2) -> list[BattleSheepState]:
    """Every state of one random game, from the empty table to the end."""
    rng = random.Random(seed)
    state = GAME.initial_state(setup(players))
    states = [state]
    while state.phase is Phase.BUILD:
        at, rotation, flip = random_placement(state.field, state.shape, rng)
        state = GAME.apply(state, Event("place-board", {"at": list(at), "rotation": rotation, "flip": flip}))
        states.append(state)
    while state.phase is Phase.START:
        state = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
        states.append(state)
    while state.phase is Phase.PLAY:
        src, dst, most = rng.choice(moves(state))
        state = GAME.apply(state, Event("move", {"from": list(src), "to": list(dst), "count": rng.randint(1, most)}))
        states.append(state)
    return states
