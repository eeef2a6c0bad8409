from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.errors import StoreError
from companion.events import Event
from companion.session import Session
from companion.store import APPLICATION_ID, SCHEMA_VERSION, Store


def test_store_uses_wal_full_sync_and_marks_the_file(store: Store, db_path: Path) -> None:
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    raw = sqlite3.connect(db_path)
    assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    raw.close()


def test_reopening_does_not_migrate_twice(db_path: Path) -> None:
    Store(db_path).close()
    with Store(db_path) as again:
        assert again.notice is None
        assert again.integrity_check() == "ok"


def _play(store: Store) -> int:
    s = Session.new(store, "tally", {"players": ["Ann"]})
    s.apply(Event("roll", {"die": "d6", "faces": [4]}))
    return s.id


def _aside(db_path: Path) -> list[Path]:
    # the main files only: their -wal/-shm companions are moved beside them
    return sorted(
        p for p in db_path.parent.iterdir() if ".unreadable-" in p.name and not p.name.endswith(("-wal", "-shm"))
    )


def test_corrupt_database_is_moved_aside_never_overwritten(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    garbage = b"this is not a database at all\n" * 100
    db_path.write_bytes(garbage)
    with Store(db_path) as store:
        assert store.notice and "moved to" in store.notice and "not an SQLite database" in store.notice
        _play(store)  # and the app starts clean
    moved = _aside(db_path)
    assert len(moved) == 1 and moved[0].read_bytes() == garbage


def test_damaged_sqlite_pages_are_detected(db_path: Path) -> None:
    with Store(db_path) as store:
        for _ in range(30):
            _play(store)
    data = bytearray(db_path.read_bytes())
    data[4096 : 4096 + 400] = b"\xff" * 400  # scribble over page 2: header and cell pointers
    db_path.write_bytes(bytes(data))
    with Store(db_path) as store:
        assert store.notice is not None
        assert store.sessions() == []
    assert [p.read_bytes() for p in _aside(db_path)] == [bytes(data)]


def test_another_programs_database_is_left_alone(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    other = sqlite3.connect(db_path)
    other.execute("CREATE TABLE contacts (name TEXT)")
    other.execute("INSERT INTO contacts VALUES ('Shaun')")
    other.commit()
    other.close()
    with Store(db_path) as store:
        assert store.notice and "another program" in store.notice
    moved = _aside(db_path)
    assert sqlite3.connect(moved[0]).execute("SELECT name FROM contacts").fetchone() == ("Shaun",)


def test_database_from_a_newer_version_is_not_touched(db_path: Path) -> None:
    Store(db_path).close()
    raw = sqlite3.connect(db_path)
    raw.execute(f"PRAGMA user_version={SCHEMA_VERSION + 5}")
    raw.commit()
    raw.close()
    with Store(db_path) as store:
        assert store.notice and "newer Bellwether" in store.notice
    assert len(_aside(db_path)) == 1


def test_missing_session_is_a_clear_error(store: Store) -> None:
    with pytest.raises(StoreError, match="no stored game with id 42"):
        Session.resume(store, 42)


def test_every_entry_is_its_own_committed_transaction(store: Store, db_path: Path) -> None:
    sid = _play(store)
    # A second connection (another process would see the same) sees the entry at once.
    other = sqlite3.connect(db_path)
    assert other.execute("SELECT count(*) FROM entries WHERE session_id=?", (sid,)).fetchone()[0] == 1
    other.close()


def test_a_stored_game_is_deleted_whole_or_abandoned_and_kept(store: Store, db_path: Path) -> None:
    kept, gone = _play(store), _play(store)
    store.abandon_session(kept)
    assert store.session(kept).summary["abandoned"] is True
    assert len(list(store.entries(kept))) == 1  # abandoned, not lost
    store.delete_session(gone)
    assert [i.id for i in store.sessions()] == [kept]
    assert list(store.entries(gone)) == []
    with pytest.raises(StoreError, match="no stored game with id"):
        store.delete_session(gone)
    resumed = Session.resume(store, kept)  # played on after all: no longer abandoned
    resumed.apply(Event("roll", {"die": "d6", "faces": [2]}))
    assert "abandoned" not in store.session(kept).summary


def test_a_reader_reads_in_another_thread_and_never_writes(tmp_path: Path) -> None:
    import threading

    db_path = tmp_path / "a folder with spaces" / "bellwether.db"
    with Store(db_path) as store:
        first = _play(store)
        found: list = []
        with store.reader() as reader:
            t = threading.Thread(target=lambda: found.extend(i.id for i in reader.sessions()))
            t.start()
            t.join()
            assert found == [first]
            assert [e.seq for e in reader.entries(first)] == [e.seq for e in store.entries(first)]
            second = _play(store)  # the writer goes on while the reader is open (WAL)
            assert {i.id for i in reader.sessions()} == {first, second}
            with pytest.raises(StoreError, match=r"readonly|read-only|read only"):
                reader.delete_session(first)
        assert {i.id for i in store.sessions()} == {first, second}  # nothing was deleted
