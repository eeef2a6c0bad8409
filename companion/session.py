"""The game session: the one thing the UI calls.

A session is a pure fold of its log (like a boardgame.io reducer): every
accepted event is appended, the state is ``game.apply`` folded over the
events still in effect, and undo/redo are log entries too, so any number of
steps can be undone and redone, and both stacks survive a restart.

An event the rules refuse raises ``IllegalAction`` and nothing is stored.  An
entry is stored (and fsynced) *before* the in-memory state moves, so what the
UI shows was on disk first.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from . import records, registry
from .errors import IllegalAction, NothingToUndo, RecordError, StoreError, brief
from .events import Event
from .game import STORED_SETUP, Game, Outcome, Prompt, State
from .store import Store


@dataclass(frozen=True)
class LogEntry:
    """One line of the session's log as the Log screen shows it."""

    seq: int
    op: str  # "apply" | "undo" | "redo"
    event: Event | None  # for undo/redo: the event undone or redone
    turn: int | None
    phase: str | None
    at: float


class Session:
    def __init__(
        self,
        game: Game,
        setup: Mapping[str, Any],
        *,
        store: Store | None = None,
        session_id: int | None = None,
        clock: Callable[[], float] = time.time,
        history: bool = True,
    ) -> None:
        self.game = game
        self.setup = game.validate_setup(setup)
        self.store = store
        self.id = session_id
        self.clock = clock
        # history=False (replay and validate of a record): only the current state is
        # kept, so memory does not grow with the record's length; no undo, no log.
        self.history = history
        self._applied = 0  # events applied without history (with it, len(self._done) says)
        self._states: list[State] = [game.initial_state(self.setup)]
        self._done: list[Event] = []  # events in effect, oldest first
        self._redo: list[Event] = []  # undone events, most recently undone last
        self.log: list[LogEntry] = []

    # -- construction --------------------------------------------------------
    @classmethod
    def new(cls, store: Store | None, game_name: str, setup: Mapping[str, Any], **kw: Any) -> Session:
        game = registry.get(game_name)
        session = cls(game, setup, store=store, **kw)
        if store is not None:
            session.id = store.create_session(game.name, session.setup)
        return session

    @classmethod
    def resume(cls, store: Store, session_id: int, **kw: Any) -> Session:
        """Reopen a stored session: fold its log again (nothing is written)."""
        info = store.session(session_id)
        game = registry.get(info.game)
        token = STORED_SETUP.set(True)
        try:
            session = cls(game, info.setup, store=store, session_id=session_id, **kw)
        finally:
            STORED_SETUP.reset(token)
        for entry in store.entries(session_id):
            event = None if entry.event is None else Event.from_dict(entry.event)
            try:
                event = session._fold(entry.op, event)
            except (IllegalAction, IndexError) as e:
                raise StoreError(f"stored game {session_id} cannot be replayed at entry {entry.seq}: {e}") from None
            session.log.append(LogEntry(entry.seq, entry.op, event, entry.turn, entry.phase, entry.at))
        return session

    @classmethod
    def from_record(cls, record: records.Record, **kw: Any) -> Session:
        """Replay a game record in memory; an illegal line raises RecordError."""
        return cls._replay(record, zip(record.lines, record.events, strict=True), **kw)

    @classmethod
    def from_file(cls, path: str, **kw: Any) -> Session:
        """Replay a record file, stopping at its first bad line (syntax or rules).

        The file is read a line at a time; with ``history=False`` the session
        holds only the final state, so memory stays flat however long the record.
        """
        items = records.stream(records.lines(path), str(path))
        header = next(items)
        assert isinstance(header, records.Record)
        return cls._replay(header, items, **kw)  # type: ignore[arg-type]

    @classmethod
    def _replay(cls, header: records.Record, lines: Iterable[tuple[int, Event]], **kw: Any) -> Session:
        game = registry.get(header.game)
        try:
            session = cls(game, header.setup, **kw)
        except ValueError as e:
            raise RecordError(header.path, 1, str(e)) from None
        for line, event in lines:
            try:
                session.apply(event)
            except IllegalAction as e:
                raise RecordError(header.path, line, str(e)) from None
            except (TypeError, KeyError, AttributeError, IndexError) as e:
                # A payload of the wrong JSON type that the engine did not check for:
                # refused with the line named, never a traceback (see payload.py).
                raise RecordError(header.path, line, f"a payload the rules cannot read ({brief(e, 120)})") from None
        return session

    # -- reading -------------------------------------------------------------
    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def events(self) -> list[Event]:
        """The events in effect (what a record of this game holds)."""
        if not self.history:
            raise RuntimeError("a replay without history keeps no events (see event_count)")
        return list(self._done)

    @property
    def event_count(self) -> int:
        """How many events are in effect (kept with or without history)."""
        return len(self._done) if self.history else self._applied

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def prompt(self) -> Prompt:
        return self.game.prompt(self.state)

    def scores(self) -> dict[str, int]:
        return self.game.scores(self.state)

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def players(self) -> list[str]:
        return [p["name"] for p in self.setup["players"]]

    # -- changing ------------------------------------------------------------
    def apply(self, event: Event) -> State:
        """Apply one event; IllegalAction leaves everything as it was."""
        new = self.game.apply(self.state, event)
        if not self.history:
            self._states[-1] = new
            self._applied += 1
            return new
        turn, phase = self.game.turn_phase(self.state)
        self._persist("apply", event, turn, phase, new)
        self._done.append(event)
        self._states.append(new)
        self._redo.clear()
        return new

    def undo(self, steps: int = 1) -> State:
        self._need_history()
        for _ in range(steps):
            if not self._done:
                raise NothingToUndo("nothing to undo: the game is at its start")
            turn, phase = self.game.turn_phase(self._states[-2])
            self._persist("undo", self._done[-1], turn, phase, self._states[-2])
            self._fold("undo", None)
        return self.state

    def _need_history(self) -> None:
        if not self.history:
            raise NothingToUndo("this replay keeps no history: nothing to undo or redo")

    def redo(self, steps: int = 1) -> State:
        self._need_history()
        for _ in range(steps):
            if not self._redo:
                raise NothingToUndo("nothing to redo")
            event = self._redo[-1]
            new = self.game.apply(self.state, event)
            turn, phase = self.game.turn_phase(self.state)
            self._persist("redo", event, turn, phase, new)
            self._done.append(self._redo.pop())
            self._states.append(new)
        return self.state

    def undo_to(self, count: int) -> State:
        """Undo until only the first ``count`` events are in effect."""
        if not 0 <= count <= len(self._done):
            raise NothingToUndo(f"cannot undo to {count} events: {len(self._done)} are in effect")
        return self.undo(len(self._done) - count)

    def _fold(self, op: str, event: Event | None) -> Event | None:
        """Apply one stored entry to memory; returns the event it concerned."""
        if op == "apply":
            assert event is not None
            self._states.append(self.game.apply(self.state, event))
            self._done.append(event)
            self._redo.clear()
            return event
        if op == "undo":
            undone = self._done.pop()
            self._states.pop()
            self._redo.append(undone)
            return undone
        if op == "redo":
            redone = self._redo.pop()
            self._states.append(self.game.apply(self.state, redone))
            self._done.append(redone)
            return redone
        raise StoreError(f"unknown log operation {op!r}")

    def _persist(self, op: str, event: Event, turn: int, phase: str, new: State) -> None:
        seq = len(self.log) + 1
        if self.store is not None and self.id is not None:
            summary = self._summary(new, len(self._done) + (-1 if op == "undo" else 1))
            seq = self.store.append(self.id, op, event.to_dict() if op == "apply" else None, turn, phase, summary)
        self.log.append(LogEntry(seq, op, event, turn, phase, self.clock()))

    def _summary(self, state: State, events: int) -> dict[str, Any]:
        """What the Home screen lists without replaying the game."""
        outcome = self.game.outcome(state)
        return {
            "players": self.players(),
            "scores": self.game.scores(state),
            "outcome": None if outcome is None else outcome.to_dict(),
            "events": events,
        }

    # -- export --------------------------------------------------------------
    def record(self, **meta: Any) -> records.Record:
        return records.Record(game=self.game.name, setup=self.setup, events=list(self._done), meta=dict(meta))

    def to_json(self) -> dict[str, Any]:
        """The replay summary: ``bellwether replay --json`` prints this."""
        outcome = self.outcome()
        return {
            "game": self.game.name,
            "players": self.players(),
            "scores": self.scores(),
            "outcome": None if outcome is None else outcome.to_dict(),
            "state": self.game.state_json(self.state),
            "prompt": self.prompt().to_dict(),
            "events": self.event_count,
        }
