"""Random-play simulation of Sheep Hop!: games in both modes, with random
special tiles, played through the public engine (GAME.apply) to the end, with
the flock counted after every event.

    .venv/bin/python benchmarks/sheep_hop_sim.py [games] [seed]

Prints games per second of CPU time (time.process_time), since the machine is shared.
"""

from __future__ import annotations

import random
from typing import Any

from _simulate import simulate

from companion.events import Event
from companion.games.sheep_hop import GAME, Phase, Where, parse_board
from companion.games.sheep_hop.data import default_board

BOARD = parse_board(default_board())
FREE = sorted(BOARD.spaces - set(BOARD.start) - {BOARD.exit} - {w.path[0] for w in BOARD.wolves})


def random_tiles(rng: random.Random) -> list[dict[str, Any]]:
    kinds = [k for k in ("rock", "patou", "raccoon", "fox") if rng.random() < 0.5]
    if rng.random() < 0.5:
        kinds += ["mole", "molehill"]
    cells = rng.sample(FREE, len(kinds))
    return [{"tile": k, "at": list(c)} for k, c in zip(kinds, cells, strict=True)]


def play_one(rng: random.Random) -> int:
    mode = rng.choice(["table", "board"])
    setup = {"players": [f"P{i}" for i in range(rng.randint(1, 4))], "options": {"mode": mode, "tiles": random_tiles(rng)}}
    state = GAME.initial_state(GAME.validate_setup(setup))
    events = 0
    while state.phase is not Phase.OVER:
        if state.phase is Phase.ROLL:  # a random face, without listing every event
            event = Event("roll", {"die": "sheep-hop", "faces": [rng.choice(BOARD.faces).name]})
        else:
            event = rng.choice(GAME.prompt(state).choices).event()
        if mode == "table" and event.type == "sheep" and rng.random() < 0.3:
            # Besides the touch picks in the choices, a complete event that names a tile jumped.
            animals = [t.kind for t in state.tiles if t.kind in ("mole", "patou", "raccoon", "fox")]
            if animals:
                event = Event("sheep", {**event.payload, "jumped": [rng.choice(animals)]})
        state = GAME.apply(state, event)
        events += 1
        # Conservation: nine sheep, each on the board, in the pen or in the den.
        assert len(state.where) == 9 and all(isinstance(w, Where) for w in state.where)
        assert all((a is None) == (mode == "table" or w is not Where.BOARD) for w, a in zip(state.where, state.at, strict=True))
        assert events < 20_000, "a game that never ends"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.detail["saved"] + outcome.detail["captured"] == 9
    return events


def main() -> None:
    simulate("sheep-hop", play_one, "events")


if __name__ == "__main__":
    main()
