"""SQLite persistence: every session's log, one transaction per event.

Crash safety comes from SQLite itself: WAL journal, ``synchronous=FULL`` (the
commit is fsynced before ``append`` returns, so an event the UI has
acknowledged is on disk), and a single ``INSERT`` + summary ``UPDATE`` per
transaction.  The log is append-only: undo and redo are entries too, so the
whole history (and the undo/redo stacks) survive a restart.

A file that is not ours (corrupt, another program's, or from a newer
Bellwether) is never written to: it is renamed aside and a fresh store starts,
with a one-line ``notice`` for the user.  Only that: a full disk, an I/O
error, a read-only folder or a file we may not read says so in one line
(``StoreError``) and leaves every file where it is, since the games in it are
fine and reachable again once the disk is mended.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .config import aside_name
from .errors import StoreError, os_reason

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


# SQLite's primary result codes that mean the *file* is damaged or not a
# database; every other failure (full disk, I/O error, read-only, permission,
# locked) is about the machine, not the file, and must never move it aside.
DAMAGED_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})


def _sqlite_code(e: sqlite3.Error) -> int | None:
    code = getattr(e, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF  # the primary code of an extended one


def _disk_full(path: Path) -> bool:
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


def store_error(e: BaseException, path: Path, doing: str = "open") -> StoreError:
    """One line for a failure of the machine under the store (never a traceback).

    ``.reason`` holds the part after the file's name, for a screen with little room.
    """
    again = "start again" if doing == "open" else "try again"
    reason = _machine_reason(e, path, again)
    err = StoreError(f"cannot {doing} the game database {path}: {reason}")
    err.reason = reason  # type: ignore[attr-defined]
    return err


def _machine_reason(e: BaseException, path: Path, again: str) -> str:
    if isinstance(e, sqlite3.Error):
        code = _sqlite_code(e)
        # SQLite reports a WAL index that cannot grow on a full disk as an I/O error.
        if code == sqlite3.SQLITE_FULL or (code == sqlite3.SQLITE_IOERR and _disk_full(path)):
            return f"the disk is full: free space and {again}"
        if code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_AUTH):
            return (
                f"its folder or file is read-only or not ours ({e}); "
                "make the data folder writable or choose another with --data-dir"
            )
        if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return f"another program holds it locked ({e}); close it and {again}"
        if code == sqlite3.SQLITE_IOERR:
            return f"the disk failed to read or write ({e}); check it and {again}"
        return str(e)
    if isinstance(e, OSError):
        reason = os_reason(e, again)
        # Another file (the data folder, a link's target) is named; the database itself already is.
        other = e.filename is not None and str(e.filename) != str(path) and e.errno != errno.ENOSPC
        return f"{e.filename}: {reason}" if other else reason
    return str(e)


class Store:
    def __init__(self, path: str | os.PathLike[str], clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.clock = clock
        self.notice: str | None = None  # one line for the user, e.g. a file moved aside
        if not str(path).strip():
            raise StoreError("the game database path is empty: give a data folder")
        try:
            if self.path.parent.exists() and not self.path.parent.is_dir():
                raise NotADirectoryError(
                    errno.ENOTDIR, "Not a directory: a file where the data folder should be", str(self.path.parent)
                )
            self.path.parent.mkdir(parents=True, exist_ok=True)
            reason = self._foreign_reason()
            if reason:
                self._move_aside(reason)
        except (OSError, sqlite3.Error) as e:
            raise store_error(e, self.path) from None
        try:
            self.db = self._connect()
        except sqlite3.Error as e:
            raise store_error(e, self.path) from None
        try:
            self._migrate()
        except sqlite3.Error as e:
            self.db.close()
            raise store_error(e, self.path, "prepare") from None
        except BaseException:
            self.db.close()
            raise

    def reader(self) -> Store:
        """A second, read-only connection to the same file, for a worker thread
        (History counts the dice of every stored game off the UI thread).  It
        skips the checks and migration ``__init__`` did, so it can never move the
        file aside; WAL lets it read while this connection writes.  Close it."""
        other = object.__new__(Store)
        other.path, other.clock, other.notice = self.path, self.clock, None
        try:
            other.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        except sqlite3.Error as e:
            raise store_error(e, self.path, "read") from None
        return other

    # -- opening -----------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, one per event.
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            # Reading the schema touches the file (and the WAL index): a full disk or a
            # read-only folder shows here, as a StoreError, not at the first event.
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except BaseException:
            db.close()
            raise
        return db

    def _foreign_reason(self) -> str | None:
        """Why the file at ``path`` must not be used, or None if it is ours or absent.

        OSError and the machine's SQLite errors (full, I/O, read-only) propagate:
        the caller reports them and leaves the file alone.
        """
        if self.path.is_symlink() and not self.path.exists():
            raise FileNotFoundError(errno.ENOENT, "a link to a missing file", str(self.path))
        if not self.path.exists():
            return None
        if self.path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a database file", str(self.path))
        if self.path.stat().st_size == 0:
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
            if _sqlite_code(e) not in DAMAGED_CODES:
                raise  # the disk, not the file: reported, the file untouched
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
        # Shown (and logged) by whoever opened the store: the app's message line, the CLI's one line.
        self.notice = f"The game database {self.path} could not be used: {reason}. It was moved to {target}; starting with an empty one."

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        for step in range(version, SCHEMA_VERSION):
            with self._transaction():
                MIGRATIONS[step](self.db)
                self.db.execute(f"PRAGMA user_version={step + 1}")
                self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")

    # -- transactions ------------------------------------------------------
    class _Tx:
        """One transaction; a failure of the disk (full, I/O, read-only) rolls it
        back and becomes one StoreError line: the entry was not stored, so the
        session does not move and nothing shown was lost."""

        def __init__(self, store: Store) -> None:
            self.store = store
            self.db = store.db

        def __enter__(self) -> sqlite3.Connection:
            try:
                self.db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise store_error(e, self.store.path, "write to") from None
            return self.db

        def __exit__(self, exc_type: object, exc: BaseException | None, _tb: object) -> bool:
            if exc_type is None:
                try:
                    self.db.execute("COMMIT")
                    return False
                except sqlite3.Error as e:
                    exc = e
            with contextlib.suppress(sqlite3.Error):  # no transaction left if SQLite already rolled back
                self.db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise store_error(exc, self.store.path, "write to") from None
            return False

    def _transaction(self) -> Store._Tx:
        return Store._Tx(self)

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as e:
            raise store_error(e, self.path, "read") from None

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
        with self._reading():
            row = self.db.execute(
                "SELECT id, game, setup, created, updated, summary FROM sessions WHERE id=?", (session_id,)
            ).fetchone()
        if row is None:
            raise StoreError(f"no stored game with id {session_id} (see 'bellwether sessions')")
        return SessionInfo(row[0], row[1], json.loads(row[2]), row[3], row[4], json.loads(row[5]))

    def sessions(self) -> list[SessionInfo]:
        with self._reading():
            rows = self.db.execute(
                "SELECT id, game, setup, created, updated, summary FROM sessions ORDER BY updated DESC, id DESC"
            ).fetchall()
        return [SessionInfo(r[0], r[1], json.loads(r[2]), r[3], r[4], json.loads(r[5])) for r in rows]

    def delete_session(self, session_id: int) -> None:
        """Remove a stored game and all its entries (Home's Delete), in one transaction."""
        with self._transaction() as db:
            db.execute("DELETE FROM entries WHERE session_id=?", (session_id,))
            if db.execute("DELETE FROM sessions WHERE id=?", (session_id,)).rowcount == 0:
                raise StoreError(f"no stored game with id {session_id} (see 'bellwether sessions')")

    def abandon_session(self, session_id: int) -> None:
        """Mark an unfinished game abandoned (Home's Abandon): it stays in the history, its entries kept.

        The mark lives in the summary, so a game played on after all is no longer abandoned.
        """
        summary = {**self.session(session_id).summary, "abandoned": True}
        with self._transaction() as db:
            db.execute("UPDATE sessions SET summary=? WHERE id=?", (json.dumps(summary), session_id))

    def entries(self, session_id: int) -> Iterator[Entry]:
        with self._reading():
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
