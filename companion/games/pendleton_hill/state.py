"""The twin of the table: an immutable value, replaced (never changed) by each event."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .board import Board

SHEEP_PER_COLOUR = 6  # Components: "30 Sheep - 6 each in 5 colors"
SHEPHERDS_PER_COLOUR = 7  # Components: "35 Shepherds - 7 each in 5 colors"
CARDS_PER_KIND = 20  # Components: 20 x "1", 20 x "1+1", 20 x "2"
DECK_CARDS = 3 * CARDS_PER_KIND  # the draw deck: every card but the Sheepdogs
HAND_SIZE = 3  # Set Up: "deal each player three cards"
SETUP_SHEPHERDS = 2  # Set Up: "until each player has placed two shepherds"


class Phase(str, Enum):
    # DEAL and DRAW only occur in records made before hands were secret, which
    # reported every card dealt and drawn (``HillState.reported``).
    DEAL = "deal"  # dealing three cards to each player (draws reported by the table)
    SETUP = "setup"  # each player places two shepherds, in turn
    CARD = "card"  # the active player plays a card
    ACTION = "action"  # the active player performs the card's actions
    DRAW = "draw"  # the active player draws a replacement card (reported)
    OVER = "over"

    def __str__(self) -> str:
        return self.value


class Card(str, Enum):
    ONE = "1"
    ONE_PLUS_ONE = "1+1"
    TWO = "2"
    SHEEPDOG = "sheepdog"

    def __str__(self) -> str:
        return self.value


KINDS: tuple[Card, ...] = (Card.ONE, Card.ONE_PLUS_ONE, Card.TWO)  # the deck's cards, in count order


@dataclass(frozen=True)
class TurnSoFar:
    """What the active player has done this turn: the card and the actions taken."""

    card: Card | None = None  # the card in hand that was played
    as_: Card | None = None  # what it counts as (a Sheepdog names one of the three kinds)
    actions: int = 0  # actions other than moving the wolf
    own: bool = False  # "1+1": the own-colour action is done
    other: bool = False  # "1+1": the other-colour action is done
    wolf_steps: int = 0
    wolf_left: frozenset[int] = frozenset()  # pastures the wolf left this turn
    wolf_stopped: bool = False  # it met a flock: "must stop and cannot be moved any further"
    # Each flock moved this turn: (where it is now, pastures it left this turn).
    trails: tuple[tuple[int, frozenset[int]], ...] = ()


@dataclass(frozen=True)
class HillState:
    setup: Mapping[str, Any]
    board: Board
    names: tuple[str, ...]
    phase: Phase
    active: int  # seat of the player who acts (in DEAL: who receives the next card)
    turn: int  # 0 during deal and setup, then 1, 2, ... one per card played
    flocks: tuple[tuple[int, ...], ...]  # per pasture: the owners' seats of its sheep, sorted; () = no flock
    shepherds: tuple[frozenset[int], ...]  # per pasture: seats whose shepherd stands there
    wolf: int
    pens: tuple[tuple[int, ...], ...]  # per pen (board order): owners' seats, sorted
    pens_used: tuple[int, ...]
    sheep_pool: tuple[int, ...]  # sheep each player has off the board
    shepherd_pool: tuple[int, ...]
    scores: tuple[int, ...]
    # Hands are secret: the twin knows how many cards each player holds and how
    # many the deck has, never which; only a card played is seen (and counted).
    deck: int  # cards left in the draw deck
    hands: tuple[int, ...]  # cards in each player's hand (the Sheepdog apart)
    played: tuple[int, int, int]  # cards played face up, by KINDS
    sheepdogs: tuple[bool, ...]  # True while a player still holds their Sheepdog card
    placed: int = 0  # DEAL: cards dealt; SETUP: shepherds placed
    reported: bool = False  # an old record: every card dealt and drawn is a ``draw`` event
    drew: int | None = None  # the seat that drew a replacement card after its turn (for the prompt)
    now: TurnSoFar = TurnSoFar()
    note: str = ""  # what the last event did, for the log and the screen
    news: bool = False  # the note is worth an alert: points scored, a sheep frightened, a correction
