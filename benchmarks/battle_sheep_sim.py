"""Random-play simulation of Battle Sheep: every game built, played and scored
through the public engine (GAME.apply), with conservation checked at the end.

    .venv/bin/python benchmarks/battle_sheep_sim.py [games] [seed]

Prints games per second of CPU time (time.process_time), since the machine is shared.
"""

from __future__ import annotations

import random

from _simulate import simulate

from companion.events import Event
from companion.games.battle_sheep import GAME, Phase
from companion.games.battle_sheep.field import random_placement
from companion.games.battle_sheep.game import moves
from companion.games.battle_sheep.hexes import outside_perimeter


def play_one(rng: random.Random) -> tuple[int, int]:
    names = [f"P{i}" for i in range(rng.randint(2, 4))]
    state = GAME.initial_state(GAME.validate_setup({"players": names}))
    while state.phase is Phase.BUILD:
        at, rotation, flip = random_placement(state.field, state.shape, rng)
        state = GAME.apply(state, Event("place-board", {"at": list(at), "rotation": rotation, "flip": flip}))
    edge = sorted(outside_perimeter(state.field))
    while state.phase is Phase.START:
        taken = {s.at for s in state.stacks}
        state = GAME.apply(state, Event("start", {"at": list(rng.choice([h for h in edge if h not in taken]))}))
    plies = 0
    while state.phase is Phase.PLAY:
        # Pick (from, to) first, then a count: far cheaper than listing every event.
        src, dst, most = rng.choice(moves(state))
        state = GAME.apply(state, Event("move", {"from": list(src), "to": list(dst), "count": rng.randint(1, most)}))
        plies += 1
    outcome = GAME.outcome(state)
    assert outcome is not None and sorted(outcome.ranking) == sorted(names)
    for i in range(len(names)):  # conservation: 16 sheep each, one stack per pasture
        assert sum(s.count for s in state.stacks if s.owner == i) == 16
    assert len({s.at for s in state.stacks}) == len(state.stacks)
    assert not GAME.legal_actions(state)
    return plies, len(names)


def main() -> None:
    simulate("battle-sheep", lambda rng: play_one(rng)[0], "moves")


if __name__ == "__main__":
    main()
