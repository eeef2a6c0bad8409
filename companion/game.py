"""The rules interface every game implements.

Modelled on OpenSpiel's Python games and python-chess: a game is a stateless
object of pure functions over an immutable state.  Dice are *chance events fed
from outside* (``roll`` events), never rolled by the engine, exactly as the
physical dice on the table are.  An illegal event raises
:class:`~companion.errors.IllegalAction` naming the rule, and since states are
immutable the caller's state is untouched.
"""

from __future__ import annotations

import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ClassVar

from . import gameinfo
from .board_check import BoardCheck, DataFile
from .errors import IllegalAction, SetupError
from .events import Event
from .gameinfo import GameInfo
from .payload import is_one_of

State = Any  # each game's own frozen dataclass

MAX_NAME = 40  # characters of a player's name: room on the 800x480 screen and in a line of output


# Unicode categories that must not reach a terminal, a screen or an export raw: control
# (ESC, newline, tab), format (bidi overrides) and the line/paragraph separators.
CONTROL = frozenset({"Cc", "Cf", "Zl", "Zp"})


def printable(text: str) -> bool:
    """No control or format characters (ESC, newline, bidi overrides): safe on a terminal and a screen."""
    return not any(unicodedata.category(c) in CONTROL for c in text)


def shown(text: str) -> str:
    """``text`` with any control or format character written as an escape (``\\x1b``), for a terminal."""
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in CONTROL else c for c in text)


def without_control(text: str) -> str:
    """``text`` with every control or format character left out (for a CSV cell or a JSON name)."""
    return "".join(c for c in text if unicodedata.category(c) not in CONTROL)


# Set while a stored game is reopened: its names were accepted when it was created,
# and a rule added since must not make a stored game unreachable (nothing stored is lost).
STORED_SETUP: ContextVar[bool] = ContextVar("stored_setup", default=False)


@dataclass(frozen=True)
class DiceRequest:
    """Which physical dice the game waits for, so sensors know what to read."""

    die: str  # "d6" (pip), "panic" (colour), "regroup" (+/X), "sheep-hop" (symbol)
    count: int = 1
    faces: tuple[Any, ...] = ()  # the legal faces, for on-screen entry


@dataclass(frozen=True)
class Choice:
    """One answer the table may give now, as the event it would produce.

    Screens render choices as buttons without knowing the game: a tap sends
    ``Event(type, payload, player)``.
    """

    label: str
    type: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    player: str | None = None
    group: str | None = None  # choices sharing a group are offered behind one button with this label


    def event(self, **kw: Any) -> Event:
        return Event(type=self.type, payload=dict(self.payload), player=self.player, **kw)


@dataclass(frozen=True)
class CountsRequest:
    """Several counts entered at once (one event): a screen shows − / + per field.

    ``fields`` are (payload key, label); the counts must add up to ``total``
    when it is given.
    """

    type: str
    fields: tuple[tuple[str, str], ...]
    player: str | None = None
    total: int | None = None

    def event(self, counts: Mapping[str, int], **kw: Any) -> Event:
        return Event(type=self.type, payload={k: int(counts.get(k, 0)) for k, _ in self.fields}, player=self.player, **kw)


@dataclass(frozen=True)
class Prompt:
    """Who acts now and what they must do, in plain words, with the rule."""

    player: str | None  # None: the whole table must answer
    text: str
    rule: str  # the rulebook section this step comes from
    expects: tuple[str, ...] = ()  # event types accepted now
    dice: DiceRequest | None = None
    choices: tuple[Choice, ...] = ()
    alert: str | None = None  # a ruling to show large (e.g. a whistle penalty)
    tone: str = "info"  # of the alert: "penalty" (shown red), "good" (green) or "info" (neutral)
    counts: CountsRequest | None = None  # counts the table enters at once, besides or instead of choices

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "text": self.text,
            "rule": self.rule,
            "expects": list(self.expects),
            "dice": None
            if self.dice is None
            else {"die": self.dice.die, "count": self.dice.count, "faces": list(self.dice.faces)},
            "choices": [c.label for c in self.choices],
            "alert": self.alert,
        }


@dataclass(frozen=True)
class Outcome:
    """The final ranking, best first, and the tie-break that decided it.

    Screens and exports read it without knowing the game: ``winners`` names a
    shared win (a tie no rule breaks; empty: the first of the ranking alone);
    a cooperative game sets ``won`` (the whole table won or lost together, and
    its ranking is only the seat order); ``headline`` is the result in words
    and ``notes`` are lines to show under it (a scale, the tie-break);
    ``shared`` names, lower down too, the players level on every key the game
    ranks by (each group in ranking order), who share a place (``places``).
    """

    ranking: tuple[str, ...]
    tie_break: str | None = None  # a sentence, or None when no tie had to be broken
    detail: Mapping[str, Any] = field(default_factory=dict)
    winners: tuple[str, ...] = ()
    won: bool | None = None  # cooperative games only
    headline: str | None = None
    notes: tuple[str, ...] = ()
    shared: tuple[tuple[str, ...], ...] = ()

    def places(self) -> tuple[int, ...]:
        """Each ranked player's place, 1 first: shared winners are all 1st, a group of
        ``shared`` takes the place of its first member, and the next place skips as
        many as shared ("1st, 2nd, 2nd, 4th"); a cooperative game has no places (all 1)."""
        if self.won is not None:
            return tuple(1 for _ in self.ranking)
        winners = set(self.winner_names())
        group_of = {n: g for g in self.shared for n in g}
        out: list[int] = []
        for i, name in enumerate(self.ranking):
            if name in winners:
                out.append(1)
            elif name in group_of:
                out.append(min(self.ranking.index(n) for n in group_of[name] if n in self.ranking) + 1)
            else:
                out.append(i + 1)
        return tuple(out)

    def winner_names(self) -> tuple[str, ...]:
        """Who won: everyone or no one in a cooperative game, else the shared winners or the first."""
        if self.won is not None:
            return self.ranking if self.won else ()
        return self.winners or self.ranking[:1]

    def words(self) -> str:
        """The result in words for a screen or an export: the game's ``headline``, else
        who won ("Ann wins", "Ann and Bob share the win"); empty when no one did."""
        if self.headline:
            return self.headline
        winners = self.winner_names()
        if len(winners) > 1:
            return f"{', '.join(winners[:-1])} and {winners[-1]} share the win"
        return f"{winners[0]} wins" if winners else ""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"ranking": list(self.ranking), "tie_break": self.tie_break}
        if self.winners:
            d["winners"] = list(self.winners)
        if self.won is not None:
            d["won"] = self.won
        if self.headline:
            d["headline"] = self.headline
        if self.notes:
            d["notes"] = list(self.notes)
        if self.shared:
            d["shared"] = [list(g) for g in self.shared]
        return d


@dataclass(frozen=True)
class SetupOption:
    """A variant the table chooses before the game (``setup["options"][key]``), with each value's
    name in the players' words: the Setup screen shows ``label`` and ``name(value)``, never raw values."""

    key: str
    label: str  # "Play", "A tie on points"
    values: tuple[object, ...]  # in the order a touch steps through them
    names: tuple[str, ...] = ()  # one per value; a value without one is shown as it is
    default: object = None  # None: the first value
    # True when a stored setup may hold a value the screen does not offer (Fleeced!'s margin is any
    # 0-10 s): the game checks it itself.  Otherwise Game.validate_setup refuses any other value.
    open_values: bool = False

    @property
    def default_index(self) -> int:
        return self.values.index(self.default) if self.default in self.values else 0

    def name(self, value: object) -> str:
        return self.names[self.values.index(value)] if value in self.values and self.names else str(value)

    @property
    def default_value(self) -> object:
        """The value a setup without this option gets (``default``, or the first value when that is None)."""
        return self.values[self.default_index]

    def expected(self) -> str:
        """The values in words, for an error message: "'board' (every move ...) or 'quick' (...)"."""
        return " or ".join(f"{v!r} ({self.name(v)})" if self.names else repr(v) for v in self.values)


class Game(ABC):
    """Base of the five games.  Subclasses are stateless; states are values."""

    name: ClassVar[str]  # registry name, e.g. "fleeced"
    title: ClassVar[str]  # shown to people, e.g. "Fleeced!"
    rulebook: ClassVar[str]  # file name in the rules folder
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    board_files: ClassVar[tuple[DataFile, ...]] = ()  # board facts shipped as TOML beside the game
    first_player: ClassVar[str] = ""  # the rulebook's rule for who starts, in words ("" : none given)
    engine_rolls_first: ClassVar[bool] = False  # the engine's first turn is the roll for first player
    setup_options: ClassVar[tuple[SetupOption, ...]] = ()  # variants the Setup screen offers, in words
    box_has_d6: ClassVar[bool] = False  # an ordinary six-sided die comes in the box (a roll for first player needs one)
    # Event types a drawn picture of the game enters by touch on the picture
    # rather than as a list of buttons (what each touch means is the game's own,
    # in its package, e.g. ``touch.py``); the Table lists the rest.  A game
    # shown by the generic picture takes none of them there.
    touch_events: ClassVar[frozenset[str]] = frozenset()

    # -- setup -------------------------------------------------------------
    def validate_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """Check and normalise a setup; raise SetupError naming the bad key.

        The common part (a ``players`` list of objects with unique names) is
        checked here; games extend it with ``super().validate_setup(...)``.
        """
        if not isinstance(setup, Mapping):
            raise SetupError("setup", "an object with a 'players' list", setup)
        players = setup.get("players")
        if not isinstance(players, Sequence) or isinstance(players, str):
            raise SetupError("players", "a list of players", players)
        n = len(players)
        if not self.min_players <= n <= self.max_players:
            raise SetupError(
                "players",
                f"{self.min_players} to {self.max_players} players for {self.title}",
                n,
            )
        seen: set[str] = set()
        norm = []
        for i, p in enumerate(players):
            if isinstance(p, str):
                p = {"name": p}
            if not isinstance(p, Mapping):
                raise SetupError(f"players[{i}]", "an object with a 'name'", p)
            name = p.get("name")
            if not isinstance(name, str) or not name.strip():
                raise SetupError(f"players[{i}].name", "a non-empty name", name)
            name = name.strip()
            if len(name) > MAX_NAME and not STORED_SETUP.get():
                raise SetupError(f"players[{i}].name", f"a name of at most {MAX_NAME} characters", name)
            if not printable(name) and not STORED_SETUP.get():
                # An escape sequence in a name would reach the terminal raw (clear the
                # screen, forge a "Ranking:" line) and the screen as garbage.
                raise SetupError(f"players[{i}].name", "a name without control characters", name)
            if name in seen:
                raise SetupError(f"players[{i}].name", "a name no other player has", name)
            seen.add(name)
            norm.append({**p, "name": name})
        options = setup.get("options", {})
        if not isinstance(options, Mapping):
            raise SetupError("options", "an object", options)
        options = dict(options)
        for option in self.setup_options:
            value = options.setdefault(option.key, option.default_value)
            if not option.open_values and not is_one_of(value, option.values):
                raise SetupError(f"options.{option.key}", option.expected(), value)
        return {**setup, "players": norm, "options": options}

    @abstractmethod
    def initial_state(self, setup: Mapping[str, Any]) -> State:
        """The state before the first event, from a *validated* setup."""

    # -- play --------------------------------------------------------------
    @abstractmethod
    def apply(self, state: State, event: Event) -> State:
        """The state after ``event``; raise IllegalAction (state unchanged)."""

    @abstractmethod
    def prompt(self, state: State) -> Prompt:
        """Who acts now and what they must do."""

    @abstractmethod
    def scores(self, state: State) -> dict[str, int]:
        """Points per player name, as they stand now."""

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """None while the game goes on, else the final ranking."""

    @abstractmethod
    def state_json(self, state: State) -> dict[str, Any]:
        """What the twin knows, as JSON (``bellwether replay --json``'s ``state``)."""

    # -- what other programs know it by ------------------------------------
    @property
    def info(self) -> GameInfo:
        """BGG id and cooperative flag, from the ``meta.toml`` in the game's package."""
        return gameinfo.for_module(type(self).__module__)

    @property
    def cooperative(self) -> bool:
        """The whole table wins or loses together (Results shows no ranking)."""
        return self.info.cooperative

    # -- optional ----------------------------------------------------------
    def players(self, state: State) -> list[str]:
        return [p["name"] for p in state.setup["players"]]

    def is_terminal(self, state: State) -> bool:
        return self.outcome(state) is not None

    def legal_actions(self, state: State) -> list[Event]:
        """Events the rules allow now, where the game can enumerate them."""
        return [c.event() for c in self.prompt(state).choices]

    def describe(self, event: Event) -> str | None:
        """An event in the players' words for the Log ("Ann ended on a plain square"), or None for the generic wording."""
        return None

    def describe_move(self, state: State, event: Event) -> str | None:
        """``event`` in the table's words, read against the state it applies to
        (a game whose words need the state: "Lamb Push 3: red sheep, back-left");
        None: ``describe``'s words."""
        return None

    def announcements(self, state: State) -> tuple[str, ...]:
        """What the last steps brought about (a scoring, a shearing), in words,
        oldest first; the Table shows them and the Log adds the new ones to
        the event that caused them."""
        return ()

    def turn_phase(self, state: State) -> tuple[int, str]:
        """(turn number, phase name) for the log, like boardgame.io's ctx."""
        return (getattr(state, "turn", 0), str(getattr(state, "phase", "")))

    def refuse(self, message: str, rule: str) -> IllegalAction:
        """Build the error for a forbidden event; raise it at the call site."""
        return IllegalAction(message, f"{self.title}, {rule}")

    def board_check(self, players: int, data: dict[str, dict[str, Any]] | None = None) -> BoardCheck | None:
        """The board check over ``data`` (default: the shipped ``board_files``): the facts
        printed only on the physical board, in words, corrected by touch; None without any."""
        return None
