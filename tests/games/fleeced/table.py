"""A test table: a Fleeced! session with a clock and short verbs for what the table reports."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.events import Event
from companion.games.fleeced import GAME
from companion.games.fleeced.state import FleecedState
from companion.session import Session

T0 = 1_750_000_000.0


class Table:
    def __init__(self, players: Sequence[str] = ("Wallace", "Gromit"), hands: dict[str, list[str]] | None = None,
                 **options: Any) -> None:
        hands = hands or {}
        setup: dict[str, Any] = {"players": [{"name": p, **({"hand": hands[p]} if p in hands else {})} for p in players]}
        if options:
            setup["options"] = options
        self.session = Session(GAME, setup)
        self.now = T0

    # -- reading -----------------------------------------------------------
    @property
    def state(self) -> FleecedState:
        return self.session.state

    @property
    def json(self) -> dict[str, Any]:
        return GAME.state_json(self.state)

    @property
    def sheep(self) -> dict[str, Any]:
        return self.json["sheep"]

    @property
    def phase(self) -> str:
        return self.state.phase.value

    def prompt(self):
        return self.session.prompt()

    def choice_types(self) -> list[str]:
        return [c.type for c in self.prompt().choices]

    # -- reporting ---------------------------------------------------------
    def send(
        self,
        type: str,
        payload: dict[str, Any] | None = None,
        player: str | None = None,
        at: float | None = None,
        source: str = "touch",
    ) -> FleecedState:
        self.now = self.now + 1.0 if at is None else at
        return self.session.apply(Event(type, payload or {}, player=player, time=self.now, source=source))

    def roll(self, *faces: int, at: float | None = None) -> FleecedState:
        return self.send("roll", {"die": "d6", "faces": list(faces)}, at=at, source="camera")

    def whistle(self, blower: str | None, at: float | None = None) -> FleecedState:
        return self.send("whistle", {"blower": blower}, player=blower, at=at, source="microphone")

    def land(self, where: str = "square", **extra: Any) -> FleecedState:
        return self.send("landed", {"where": where, **extra})

    def start(self, first: str | None = None) -> Table:
        """The first-player roll, won by ``first`` (default: the first seat)."""
        first = first or self.state.names[0]
        while self.phase == "first-roll":
            who = self.prompt().player
            self.send("roll", {"die": "d6", "faces": [6, 6] if who == first else [1, 2]}, player=who)
        assert self.state.player == first
        return self

    def end_turn(self) -> FleecedState:
        return self.send("end-turn")

    def total(self) -> int:
        s = self.sheep
        return s["hideouts"] + s["bag"] + s["green"] + sum(s["in_tow"].values()) + sum(s["claimed"].values())

    def open_hideout(self, hideout: str, count: int, card: str | None = None) -> FleecedState:
        """The active player rolls a 2, stops on the hideout's doorstep and opens it."""
        self.roll(2)
        self.land("doorstep", hideout=hideout)
        self.send("open", {"hideout": hideout, "card": card or f"key-{hideout}"})
        return self.send("hideout-card", {"count": count})

    def rustle(self, source: str, *faces: int, whistle: bool = True, **landing: Any) -> FleecedState:
        """From the actions step: rustle ``source``, blow (or not), roll, and land."""
        self.send("rustle", {"from": source})
        if whistle:
            self.whistle(self.state.player)
        self.roll(*faces)
        if self.state.check is not None:
            self.send("settle")
        return self.land(**({"where": "square"} | landing))


def towing(margin: float | None = None) -> Table:
    """Wallace's turn, six sheep in tow; Gromit has none."""
    t = Table() if margin is None else Table(whistle_margin=margin)
    t.start()
    t.open_hideout("pub", 6)
    t.rustle("green", 3, 4)
    t.end_turn()
    t.roll(1)
    t.land()
    t.end_turn()
    assert t.state.player == "Wallace" and t.sheep["in_tow"]["Wallace"] == 6
    return t
