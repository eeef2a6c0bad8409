"""Who goes first: each game's rule in plain words (``Game.first_player``), and a roll-off (plain Python, no Kivy).

Only Fleeced! decides the first player with dice in its rules, and its engine
asks for that roll at the table (recorded, ties rolled again).  The other
games name a person (the youngest, the last haircut, ...); a table that
prefers dice rolls for it on Setup: each player's die entered by touch or
read by the camera, highest first, tied players roll again.  The seats stay
in clockwise order; the winner's seat becomes the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion import registry
from companion.errors import UnknownGame
from companion.game import Game


def _game(name: str) -> Game | None:
    try:
        return registry.get(name)
    except UnknownGame:
        return None


def rule(game: str) -> str:
    """The game's own rule for who starts (``Game.first_player``), and how Setup lets the table apply it."""
    g = _game(game)
    text = f"Rulebook: {g.first_player}" if g is not None and g.first_player else "Turn order is top to bottom."
    if not offers_roll(game):
        return text
    return text + " Move players with Up and Down, or roll for it."


def offers_roll(game: str) -> bool:
    """Setup offers a roll-off unless the game's engine asks for the first-player roll itself."""
    g = _game(game)
    return not (g is not None and g.engine_rolls_first)


@dataclass
class RollOff:
    """Each contender rolls one die; the highest goes first; ties roll again."""

    names: Sequence[str]
    contenders: list[int] = field(default_factory=list)
    rolls: dict[int, int] = field(default_factory=dict)
    winner: int | None = None
    message: str = ""
    history: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.contenders:
            self.contenders = list(range(len(self.names)))

    @property
    def next(self) -> int | None:
        """The seat to roll now (None once there is a winner)."""
        if self.winner is not None:
            return None
        return next(i for i in self.contenders if i not in self.rolls)

    def prompt(self) -> str:
        if self.winner is not None:
            return f"{self.names[self.winner]} goes first."
        return f"{self.names[self.next]}: roll a die for first player."

    def enter(self, face: int) -> None:
        who = self.next
        if who is None:
            return
        if not 1 <= int(face) <= 6:
            raise ValueError(f"a die shows 1 to 6, not {face}")
        self.rolls[who] = int(face)
        self.history.append(f"{self.names[who]} {face}")
        if len(self.rolls) < len(self.contenders):
            self.message = f"{self.names[who]} rolled {face}."
            return
        best = max(self.rolls.values())
        tied = [i for i in self.contenders if self.rolls[i] == best]
        if len(tied) > 1:
            self.message = f"{' and '.join(self.names[i] for i in tied)} tie on {best}: they roll again."
            self.contenders, self.rolls = tied, {}
            return
        self.winner = tied[0]
        self.message = f"{self.names[self.winner]} rolled {best} and goes first."

    def order(self) -> list[int]:
        """Seats in play order: the winner's seat first, the others clockwise after it."""
        start = self.winner or 0
        n = len(self.names)
        return [(start + k) % n for k in range(n)]
