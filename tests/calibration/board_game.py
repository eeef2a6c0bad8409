"""A game with board data that no screen or wizard knows: ``fences.toml`` beside it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.board_check import BoardCheck, Control, DataFile, Stepper
from companion.errors import SetupError
from companion.testing import Tally


class FencesBoard(BoardCheck):
    def describe(self) -> list[str]:
        return [f"Fences: {self.data['fences']['count']}."]

    def controls(self) -> list[Control]:
        return [Stepper("fences", "Fences", self.data["fences"]["count"], self.step)]

    def step(self, delta: int) -> int:
        self.data["fences"]["count"] += delta
        return self.data["fences"]["count"]


class FencedTally(Tally):
    name = "fenced-tally"
    title = "Fenced Tally"
    board_files = (DataFile("fences.toml", "fences"),)

    def board_check(self, players: int, data: dict[str, dict[str, Any]] | None = None) -> FencesBoard:
        return FencesBoard(self, players, data or {})

    def validate_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        s = super().validate_setup(setup)
        count = s["options"].get("fences", {"count": 3}).get("count")
        if not isinstance(count, int) or not 1 <= count <= 9:
            raise SetupError("options.fences.count", "1 to 9 fences", count)
        return s


GAME = FencedTally()
