"""The Fleeced! state: immutable values only, so ``apply`` can never change its input."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from companion.events import Event

from .board import TOTAL_SHEEP


class Phase(str, Enum):
    FIRST_ROLL = "first-roll"  # everyone rolls two dice to pick the first player
    ROLL = "roll"  # waiting for the roll that starts a move (or a rustle)
    MOVE = "move"  # the character moves; a re-roll may follow; then the table reports the landing
    DRAW = "draw"  # ended on a cheese square: the table reports the card drawn
    DISCARD = "discard"  # six cards in hand: one goes under the pile
    HIDEOUT = "hideout-card"  # a hideout was unlocked: the table reports its card's number
    ACTIONS = "actions"  # after a move: open, rustle, abandon, play, end the turn
    NICKED = "nicked"  # arrested: bribe with a claimed sheep or miss the next turn
    TALLY = "tally"  # all 40 claimed: the table enters claimed sheep by kind
    OVER = "over"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Flocks:
    """Where all 40 sheep are: the one invariant the engine never breaks."""

    hideouts: int  # white markers on closed hideouts
    bag: int  # in the Sheep Dip bag
    green: int  # on the Village Green
    in_tow: tuple[int, ...]  # per player, in seating order
    claimed: tuple[int, ...]

    def total(self) -> int:
        return self.hideouts + self.bag + self.green + sum(self.in_tow) + sum(self.claimed)

    def check(self) -> None:
        counts = (self.hideouts, self.bag, self.green, *self.in_tow, *self.claimed)
        assert min(counts) >= 0 and self.total() == TOTAL_SHEEP, f"sheep accounting broken: {self}"

    def tow_to_green(self, who: int) -> Flocks:
        return replace(self, green=self.green + self.in_tow[who], in_tow=_set(self.in_tow, who, 0))

    def claim(self, who: int) -> Flocks:
        claimed = _set(self.claimed, who, self.claimed[who] + self.in_tow[who])
        return replace(self, in_tow=_set(self.in_tow, who, 0), claimed=claimed)

    def claimed_to_green(self, who: int) -> Flocks:
        return replace(self, green=self.green + 1, claimed=_set(self.claimed, who, self.claimed[who] - 1))


def _set(values: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return (*values[:i], v, *values[i + 1 :])


def set_at(values: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*values[:i], v, *values[i + 1 :])


@dataclass(frozen=True)
class WhistleCheck:
    """A roll that needed a whistle and heard none yet: the ruling waits out the margin."""

    purpose: str  # "tow" (moving with sheep in tow) or "rustle"
    roll_time: float
    deadline: float  # roll_time + margin: a whistle up to here counts as before the roll
    since: float  # a whistle must be later than the roll before this one


@dataclass(frozen=True)
class Question:
    """An unattributed whistle awaiting "Who blew?": when, and whose turn it was then."""

    time: float
    turn: int
    active: int
    moving: bool = False  # heard while a move was still going on (see ``whistles.whistle_by``)


@dataclass(frozen=True)
class Rustle:
    source: str  # "green" or the victim's name
    whistle_ok: bool | None = None  # None until the roll is ruled on


@dataclass(frozen=True)
class Ruling:
    """One decision the engine made on the table's behalf, as shown and logged."""

    kind: str  # no-whistle, late-whistle-counted, out-of-turn, no-penalty, noise, nicked, missed-turn, contested, ...
    text: str
    rule: str
    player: str | None = None
    contested: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "rule": self.rule, "player": self.player,
                "contested": self.contested}


@dataclass(frozen=True)
class Contest:
    """Enough to reverse one penalty of this turn: the state just before the event that made it,
    and that event with every event since (corrections aside).

    Contesting replays those events on that state with this penalty (and every penalty already
    reversed, named by ``key``) ruled the other way, so a reversal is exact however far the turn
    went on, and penalties can be contested in any order (until the turn passes).
    """

    kind: str  # "no-whistle" or "out-of-turn"
    ruling: int  # index in FleecedState.rulings
    key: int  # the position in the turn of the event that made the penalty (stable across replays)
    snapshot: FleecedState | None = None  # filled in by ``Fleeced.apply``
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class FleecedState:
    setup: Mapping[str, Any]
    names: tuple[str, ...]
    characters: tuple[str, ...]
    margin: float
    sheep: Flocks
    hands: tuple[tuple[str, ...], ...]
    phase: Phase = Phase.FIRST_ROLL
    turn: int = 0  # turns started; 0 during the first-player roll
    active: int = 0  # whose turn (during the first roll: who rolls next)
    # first-player roll: who still contends and the totals rolled this round
    contenders: tuple[int, ...] = ()
    first_rolls: tuple[tuple[int, int], ...] = ()  # (player, total)
    # this turn
    move: str = "main"  # "main" or "rustle"
    dice: int = 1  # dice for this move
    roll2: bool = False  # a 'Roll 2 x Dice' card was played
    jumped: bool = False
    rolls: tuple[int, ...] = ()  # totals rolled in this move
    bonuses: int = 0  # sixes/doubles this turn (the third one is Nicked!)
    reroll: bool = False  # the last roll was a six/double: the player may roll again
    whistled: bool = False  # the active player blew since the last roll
    last_roll_time: float = float("-inf")
    check: WhistleCheck | None = None
    rustle: Rustle | None = None
    rustled: bool = False  # rustle once a turn
    opened_this_turn: bool = False
    doorstep: str | None = None  # hideout whose doorstep the last move ended on
    opening: str | None = None  # hideout unlocked, card number awaited
    fresh: tuple[str, ...] = ()  # cards the active player drew this turn (unplayable this turn)
    # whole game
    opened: tuple[tuple[str, int], ...] = ()  # (hideout, number on its card), in order
    keys_aside: tuple[str, ...] = ()
    misses_turn: tuple[bool, ...] = ()  # Nicked! without a bribe: skip the next turn
    at_police: tuple[bool, ...] = ()  # starts the next turn next to the Police Station
    questions: tuple[Question, ...] = ()  # unattributed whistles, oldest first: "Who blew?"
    rulings: tuple[Ruling, ...] = ()
    alert: str | None = None  # the ruling the latest event produced, to show large
    # How to reverse this turn's penalties: bookkeeping derived from the log, not
    # part of the position, so two states differing only in it compare equal.
    contests: tuple[Contest, ...] = field(default=(), compare=False)
    turn_events: int = field(default=0, compare=False)  # events applied this turn (corrections aside)
    reversed: frozenset[tuple[str, int]] = field(default=frozenset(), compare=False)  # (kind, key) contested
    start_at_police: bool = False  # this turn starts next to the Police Station
    tallies: tuple[tuple[tuple[str, int], ...] | None, ...] = ()  # claimed sheep by kind, at the end

    @property
    def player(self) -> str:
        return self.names[self.active]

    @property
    def in_tow(self) -> int:
        return self.sheep.in_tow[self.active]

    @property
    def contest(self) -> Contest | None:
        """The latest penalty that can still be contested."""
        return self.contests[-1] if self.contests else None


_STATE_FIELDS = frozenset(FleecedState.__dataclass_fields__)


def evolve(s: FleecedState, **changes: Any) -> FleecedState:
    """``dataclasses.replace`` for the state, without re-running ``__init__``.

    The state has some forty fields and is copied several times per event;
    ``replace`` was most of the engine's time.  The copy is still a new frozen
    object: nothing here mutates ``s``.
    """
    unknown = changes.keys() - _STATE_FIELDS
    if unknown:
        raise TypeError(f"FleecedState has no field(s) {sorted(unknown)}")
    new = object.__new__(FleecedState)
    new.__dict__.update(s.__dict__)
    new.__dict__.update(changes)
    return new
