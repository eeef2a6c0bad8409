"""A minimal game for exercising the core (session, store, records, CLI).

Shipped in the package, like gpiozero's mock pins, so tests and benchmarks of
the core need none of the real games.  Register it with ``register()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from . import registry
from .events import CORRECTION, ROLL, Event
from .game import DiceRequest, Game, Outcome, Prompt


@dataclass(frozen=True)
class TallyState:
    setup: Mapping[str, Any]
    points: tuple[int, ...]
    turn: int = 1
    active: int = 0
    finished: bool = False
    phase: str = "roll"


class Tally(Game):
    """Each turn the active player rolls one die and scores its face; first to the target wins."""

    name = "tally"
    title = "Tally"
    rulebook = "(test game)"
    min_players = 1
    max_players = 6

    def validate_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        s = super().validate_setup(setup)
        target = s["options"].setdefault("target", 1_000_000)
        if not isinstance(target, int) or target < 1:
            from .errors import SetupError

            raise SetupError("options.target", "a whole number >= 1", target)
        return s

    def initial_state(self, setup: Mapping[str, Any]) -> TallyState:
        return TallyState(setup=setup, points=(0,) * len(setup["players"]))

    def apply(self, state: TallyState, event: Event) -> TallyState:
        names = self.players(state)
        if state.finished:
            raise self.refuse("the game is over", "End")
        if event.type == CORRECTION:
            pts = event.get("points", {})
            if not isinstance(pts, Mapping) or set(pts) - set(names):
                raise self.refuse("a correction needs 'points': player name to points", "Corrections")
            new = tuple(int(pts.get(n, p)) for n, p in zip(names, state.points, strict=True))
            return replace(state, points=new)
        if event.type != ROLL:
            raise self.refuse(f"a {event.type!r} event is not part of this game", "Turn")
        faces = event.get("faces", ())
        if len(faces) != 1 or faces[0] not in range(1, 7):
            raise self.refuse(f"expected one die showing 1 to 6, got {list(faces)}", "Turn")
        if event.player is not None and event.player != names[state.active]:
            raise self.refuse(f"it is {names[state.active]}'s turn, not {event.player}'s", "Turn")
        points = list(state.points)
        points[state.active] += faces[0]
        finished = points[state.active] >= state.setup["options"]["target"]
        nxt = (state.active + 1) % len(names)
        return replace(
            state,
            points=tuple(points),
            active=nxt,
            turn=state.turn + (nxt == 0),
            finished=finished,
        )

    def prompt(self, state: TallyState) -> Prompt:
        if state.finished:
            return Prompt(None, "The game is over.", "End")
        who = self.players(state)[state.active]
        return Prompt(
            who, f"{who}: roll the die.", "Turn", expects=(ROLL,), dice=DiceRequest("d6", 1, tuple(range(1, 7)))
        )

    def scores(self, state: TallyState) -> dict[str, int]:
        return dict(zip(self.players(state), state.points, strict=True))

    def outcome(self, state: TallyState) -> Outcome | None:
        if not state.finished:
            return None
        ranked = sorted(self.players(state), key=lambda n: -self.scores(state)[n])
        return Outcome(tuple(ranked), None)

    def state_json(self, state: TallyState) -> dict[str, Any]:
        return {
            "points": self.scores(state),
            "turn": {"number": state.turn, "player": self.players(state)[state.active]},
        }


GAME = Tally()


def register() -> Tally:
    registry.register(GAME)
    return GAME
