"""SQLite persistence: every session's log, one transaction per event.

Crash safety comes from SQLite itself: WAL journal, ``synchronous=FULL`` (the
commit is fsynced before ``append`` returns, so an event the UI has
acknowledged is on disk), and a single ``INSERT`` + summary ``UPDATE`` per
transaction.  The log is append-only: undo and redo are entries too, so the
whole history (and the undo/redo stacks) survive a restart.

A file that is not ours (corrupt, another program's, or from a newer
Bellwether) is never written to: it is renamed aside and a fresh store starts,
with a one-line ``notice`` for the user.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .config import aside_name
from .errors import StoreError

log = logging.getLogger(__name__)

APPLICATION_ID = 0x42574554  # "BWET": marks the file as Bellwether's
SQLITE_MAGIC = b"SQLite format 3\x00"


def _script(db: sqlite3.Connection, sql: str) -> None:
    # executescript() would COMMIT first, breaking the migration's transaction.
    for statement in sql.split(";"):
        if statement.strip():
            db.execute(statement)


def _v1(db: sqlite3.Connection) -> None:
    _script(
        db,
        """
        CREATE TABLE sessions (
            id       INTEGER PRIMARY KEY,
            game     TEXT NOT NULL,
            setup    TEXT NOT NULL,          -- JSON, validated
            created  REAL NOT NULL,
            updated  REAL NOT NULL,
            summary  TEXT NOT NULL DEFAULT '{}'  -- JSON: players, scores, outcome, prompt
        );
        CREATE TABLE entries (
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            seq        INTEGER NOT NULL,     -- 1, 2, ... per session
            op         TEXT NOT NULL CHECK (op IN ('apply', 'undo', 'redo')),
            event      TEXT,                 -- JSON event for 'apply', NULL otherwise
            turn       INTEGER,
            phase      TEXT,
            at         REAL NOT NULL,        -- wall time the entry was stored
            PRIMARY KEY (session_id, seq)
        ) WITHOUT ROWID;
        """,
    )


# Forward migrations: MIGRATIONS[i] takes a database from version i to i+1.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1]
SCHEMA_VERSION = len(MIGRATIONS)


@dataclass(frozen=True)
class Entry:
    seq: int
    op: str  # "apply" | "undo" | "redo"
    event: dict[str, Any] | None
    turn: int | None
    phase: str | None
    at: float


@dataclass(frozen=True)
class SessionInfo:
    id: int
    game: str
    setup: dict[str, Any]
    created: float
    updated: float
    summary: dict[str, Any]

    @property
    def players(self) -> list[str]:
        return [p["name"] for p in self.setup.get("players", [])]


class Store:
    def __init__(self, path: str | os.PathLike[str], clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.clock = clock
        self.notice: str | None = None  # one line for the user, e.g. a file moved aside
        self.path.parent.mkdir(parents=True, exist_ok=True)
        reason = self._foreign_reason()
        if reason:
            self._move_aside(reason)
        self.db = self._connect()
        try:
            self._migrate()
        except BaseException:
            self.db.close()
            raise

    # -- opening -----------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, one per event.
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def _foreign_reason(self) -> str | None:
        """Why the file at ``path`` must not be used, or None if it is ours or absent."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return None
        with self.path.open("rb") as f:
            if f.read(16) != SQLITE_MAGIC:
                return "it is not an SQLite database (corrupt or foreign)"
        try:
            db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                app_id = db.execute("PRAGMA application_id").fetchone()[0]
                version = db.execute("PRAGMA user_version").fetchone()[0]
                tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                check = db.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                db.close()
        except sqlite3.DatabaseError as e:
            return f"it cannot be read ({e})"
        if check != "ok":
            return f"its integrity check failed ({check})"
        if app_id != APPLICATION_ID and tables:
            return "it belongs to another program"
        if version > SCHEMA_VERSION:
            return f"it was written by a newer Bellwether (schema {version}, this one knows {SCHEMA_VERSION})"
        return None

    def _move_aside(self, reason: str) -> None:
        target = aside_name(self.path)
        for suffix in ("", "-wal", "-shm"):
            src = Path(f"{self.path}{suffix}")
            if src.exists():
                src.rename(Path(f"{target}{suffix}"))
        self.notice = f"The game database {self.path} could not be used: {reason}. It was moved to {target}; starting with an empty one."
        log.warning(self.notice)

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        for step in range(version, SCHEMA_VERSION):
            with self._transaction():
                MIGRATIONS[step](self.db)
                self.db.execute(f"PRAGMA user_version={step + 1}")
                self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")

    # -- transactions ------------------------------------------------------
    class _Tx:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self) -> sqlite3.Connection:
            self.db.execute("BEGIN IMMEDIATE")
            return self.db

        def __exit__(self, exc_type: object, *_: object) -> None:
            self.db.execute("ROLLBACK" if exc_type else "COMMIT")

    def _transaction(self) -> Store._Tx:
        return Store._Tx(self.db)

    # -- sessions ----------------------------------------------------------
    def create_session(self, game: str, setup: dict[str, Any]) -> int:
        now = self.clock()
        with self._transaction() as db:
            cur = db.execute(
                "INSERT INTO sessions (game, setup, created, updated) VALUES (?, ?, ?, ?)",
                (game, json.dumps(setup, sort_keys=True), now, now),
            )
            return int(cur.lastrowid or 0)

    def append(
        self,
        session_id: int,
        op: str,
        event: dict[str, Any] | None,
        turn: int | None,
        phase: str | None,
        summary: dict[str, Any],
    ) -> int:
        """Store one entry and the session's new summary in one transaction.

        Returns the entry's sequence number once the commit is on disk.
        """
        now = self.clock()
        with self._transaction() as db:
            row = db.execute("SELECT coalesce(max(seq), 0) FROM entries WHERE session_id=?", (session_id,)).fetchone()
            seq = row[0] + 1
            db.execute(
                "INSERT INTO entries (session_id, seq, op, event, turn, phase, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (session_id, seq, op, None if event is None else json.dumps(event), turn, phase, now),
            )
            db.execute(
                "UPDATE sessions SET updated=?, summary=? WHERE id=?",
                (now, json.dumps(summary), session_id),
            )
        return seq

    def session(self, session_id: int) -> SessionInfo:
        row = self.db.execute(
            "SELECT id, game, setup, created, updated, summary FROM sessions WHERE id=?", (session_id,)
        ).fetchone()
        if row is None:
            raise StoreError(f"no stored game with id {session_id} (see 'bellwether sessions')")
        return SessionInfo(row[0], row[1], json.loads(row[2]), row[3], row[4], json.loads(row[5]))

    def sessions(self) -> list[SessionInfo]:
        rows = self.db.execute(
            "SELECT id, game, setup, created, updated, summary FROM sessions ORDER BY updated DESC, id DESC"
        ).fetchall()
        return [SessionInfo(r[0], r[1], json.loads(r[2]), r[3], r[4], json.loads(r[5])) for r in rows]

    def entries(self, session_id: int) -> Iterator[Entry]:
        cur = self.db.execute(
            "SELECT seq, op, event, turn, phase, at FROM entries WHERE session_id=? ORDER BY seq", (session_id,)
        )
        for seq, op, event, turn, phase, at in cur:
            yield Entry(seq, op, None if event is None else json.loads(event), turn, phase, at)

    def integrity_check(self) -> str:
        return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
