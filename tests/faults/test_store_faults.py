"""The store and ``export`` under a full disk, a read-only folder and bad paths:
one clear line, every file untouched, no acknowledged event lost."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from companion import records
from companion.errors import StoreError
from companion.events import Event
from companion.session import Session
from companion.store import Store

from .conftest import assert_one_clear_line, bellwether, fill, free, read_only, small_disk


def _roll(face: int) -> Event:
    return Event("roll", {"die": "d6", "faces": [face]}, time=1.0)


def _game(db: Path, rolls: int = 5) -> int:
    with Store(db) as store:
        s = Session.new(store, "tally", {"players": ["Ann", "Bob"]})
        for i in range(rolls):
            s.apply(_roll(i % 6 + 1))
        return s.id


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def _export(data: Path, sid: int) -> list[dict]:
    r = bellwether("--data-dir", str(data), "export", str(sid))
    assert r.returncode == 0, r.stderr
    return [e.to_dict() for e in records.loads(r.stdout).events]


def test_a_full_disk_leaves_the_database_where_it_is(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        db = disk / "data" / "bellwether.db"
        sid = _game(db)
        before = _export(disk / "data", sid)
        fill(disk)
        main = hashlib.sha256(db.read_bytes()).hexdigest()
        with pytest.raises(StoreError, match="the disk is full: free space and start again"):
            Store(db)
        r = bellwether("--data-dir", str(disk / "data"), "sessions")
        assert_one_clear_line(r, str(db), "the disk is full")
        assert not [p for p in db.parent.iterdir() if ".unreadable-" in p.name]  # nothing moved aside
        assert hashlib.sha256(db.read_bytes()).hexdigest() == main
        free(disk)
        assert _export(disk / "data", sid) == before  # every acknowledged event is still there


def test_an_event_refused_by_a_full_disk_is_not_acknowledged_and_the_rest_survive(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        db = disk / "data" / "bellwether.db"
        sid = _game(db, rolls=3)
        store = Store(db)
        s = Session.resume(store, sid)
        fill(disk)
        acknowledged = len(s.events)
        with pytest.raises(StoreError, match="disk is full"):
            for _ in range(5000):
                s.apply(_roll(2))
                acknowledged += 1
        assert len(s.events) == acknowledged  # the refused event did not move the session
        store.close()
        free(disk)
        assert len(_export(disk / "data", sid)) == acknowledged


def test_a_read_only_data_folder_is_reported_not_moved_aside(tmp_path: Path) -> None:
    data = tmp_path / "data"
    sid = _game(data / "bellwether.db")
    before = _digest(data)
    with read_only(data):
        with pytest.raises(StoreError, match="read-only"):
            Store(data / "bellwether.db")
        r = bellwether("--data-dir", str(data), "sessions")
        assert_one_clear_line(r, str(data / "bellwether.db"), "read-only")
        r = bellwether("--data-dir", str(data / "new"), "sessions")
        assert_one_clear_line(r, str(data / "new"), "Read-only file system")
        assert _digest(data) == before
    assert _export(data, sid)  # readable again once the folder is


@pytest.mark.parametrize("shape", ["directory", "dangling-link", "folder-is-a-file", "unreadable"])
def test_a_database_path_that_is_not_a_file_is_named(tmp_path: Path, shape: str) -> None:
    data = tmp_path / "data"
    db = data / "bellwether.db"
    named = str(db)
    if shape == "directory":
        db.mkdir(parents=True)
        reason = "folder"
    elif shape == "dangling-link":
        data.mkdir()
        db.symlink_to(tmp_path / "gone.db")
        reason = "missing"
    elif shape == "folder-is-a-file":
        data.write_text("not a folder")
        named, reason = str(data), "Not a directory"
    else:
        _game(db)
        db.chmod(0)
        reason = "ermission"
    before = _digest(data) if data.is_dir() else None
    r = bellwether("--data-dir", str(data), "sessions", as_user=shape == "unreadable")
    assert_one_clear_line(r, named, reason)
    assert r.stderr.count(str(db)) == 1, r.stderr  # the database named once, not "cannot open X: X: ..."
    if before is not None:
        assert _digest(data) == before and not list(data.glob("*.unreadable-*"))


def test_export_writes_atomically_and_keeps_the_old_file_on_a_full_disk(tmp_path: Path) -> None:
    data = tmp_path / "data"
    sid = _game(data / "bellwether.db", rolls=400)
    with small_disk(tmp_path / "disk", size="16k") as disk:
        old = disk / "game.jsonl"
        old.write_text("the old record\n")
        r = bellwether("--data-dir", str(data), "export", str(sid), "-o", str(old))
        assert_one_clear_line(r, str(old), "disk is full")
        assert old.read_text() == "the old record\n"
        assert sorted(p.name for p in disk.iterdir()) == ["game.jsonl"]  # no temporary file left behind
    out = tmp_path / "game.jsonl"
    out.write_text("old")
    r = bellwether("--data-dir", str(data), "export", str(sid), "-o", str(out))
    assert r.returncode == 0 and len(records.read(out).events) == 400


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_export_refuses_the_database_itself(tmp_path: Path, suffix: str) -> None:
    data = tmp_path / "data"
    db = data / "bellwether.db"
    sid = _game(db)
    before = _digest(data)
    target = f"{data}/../data/bellwether.db{suffix}"  # the same file by another spelling
    r = bellwether("--data-dir", str(data), "export", str(sid), "-o", target)
    assert_one_clear_line(r, "game database itself")
    assert _digest(data) == before


def test_export_to_a_full_device_fails_with_one_line(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    data = tmp_path / "data"
    sid = _game(data / "bellwether.db")
    with open("/dev/full", "w") as full:
        r = bellwether("--data-dir", str(data), "export", str(sid), stdout=full, stderr=-1, capture_output=False)
    assert_one_clear_line(r, "disk is full")


@pytest.mark.parametrize("option", ["--data-dir", "--config-dir"])
def test_an_empty_folder_option_is_an_error(option: str) -> None:
    r = bellwether(option, "", "sessions")
    assert_one_clear_line(r, option)


def test_a_foreign_file_moved_aside_is_said_once(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "bellwether.db").write_bytes(b"not a database, " * 64)
    r = bellwether("--data-dir", str(data), "sessions")
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("could not be used") == 1, r.stderr  # not a log line and the same words again
    assert "moved to" in r.stderr and len(list(data.glob("bellwether.db.unreadable-*"))) == 1
