"""The core commands, run as real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from companion import records
from companion.events import Event
from companion.session import Session
from companion.store import Store
from companion.testing import register

ROOT = Path(__file__).resolve().parents[2]
# The core's test game is registered in the child, then the real CLI runs.
WITH_TALLY = (
    "import sys; from companion.testing import register; register(); from cli.main import main; sys.exit(main())"
)


def tally_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITH_TALLY, *args], capture_output=True, text=True, cwd=ROOT, env=os.environ, timeout=60
    )


def write_record(path: Path, faces: list[int], target: int = 1_000_000) -> Path:
    register()
    s = Session.new(None, "tally", {"players": ["Ann", "Bob"], "options": {"target": target}})
    for f in faces:
        s.apply(Event("roll", {"die": "d6", "faces": [f]}, time=1.0))
    records.write(s.record(), path)
    return path


def test_games_lists_the_five_games(cli) -> None:
    r = cli("games")
    assert r.returncode == 0
    assert r.stdout.split() == ["shear-panic", "fleeced", "battle-sheep", "sheep-hop", "pendleton-hill"]


def test_replay_json_has_the_documented_keys(tmp_path: Path) -> None:
    path = write_record(tmp_path / "g.jsonl", [6, 2, 5], target=10)
    r = tally_cli("replay", "--json", str(path))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["game"] == "tally" and out["players"] == ["Ann", "Bob"]
    assert out["scores"] == {"Ann": 11, "Bob": 2}
    assert out["outcome"] == {"ranking": ["Ann", "Bob"], "tie_break": None}
    assert "state" in out


def test_replay_of_a_truncated_or_non_json_file_is_one_line(tmp_path: Path) -> None:
    path = write_record(tmp_path / "g.jsonl", [1, 2, 3])
    text = path.read_text()
    truncated = tmp_path / "cut.jsonl"
    truncated.write_text(text[: len(text) - 20])
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n not a record")
    for bad, line in ((truncated, 4), (junk, 1)):
        r = tally_cli("replay", str(bad))
        assert r.returncode == 1
        assert r.stdout == ""
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert f"{bad}:{line}:" in r.stderr and "Traceback" not in r.stderr


def test_validate_names_the_first_illegal_line(tmp_path: Path) -> None:
    path = write_record(tmp_path / "g.jsonl", [1, 2, 3, 4])
    lines = path.read_text().splitlines()
    lines[2] = json.dumps({"type": "roll", "payload": {"die": "d6", "faces": [9]}, "time": 2.0})
    lines[4] = "{oops"
    path.write_text("\n".join(lines) + "\n")
    r = tally_cli("validate", str(path))
    assert r.returncode == 1
    assert r.stderr.strip().startswith(f"bellwether: {path}:3:")
    assert "expected one die showing 1 to 6" in r.stderr
    good = write_record(tmp_path / "ok.jsonl", [1, 2])
    r = tally_cli("validate", str(good))
    assert r.returncode == 0 and "ok, 2 events" in r.stdout


def test_sessions_and_export_read_the_store(tmp_path: Path) -> None:
    data = tmp_path / "data"
    register()
    with Store(data / "bellwether.db") as store:
        s = Session.new(store, "tally", {"players": ["Ann", "Bob"]})
        for f in (3, 4, 5):
            s.apply(Event("roll", {"die": "d6", "faces": [f]}))
        s.undo()
        sid = s.id
    r = tally_cli("--data-dir", str(data), "sessions")
    assert r.returncode == 0 and f"{sid:>4}" in r.stdout and "Ann, Bob" in r.stdout
    r = tally_cli("--data-dir", str(data), "export", str(sid))
    assert r.returncode == 0, r.stderr
    exported = records.loads(r.stdout)
    assert [e.get("faces") for e in exported.events] == [(3,), (4,)]
    r = tally_cli("--data-dir", str(data), "export", "99")
    assert r.returncode == 1 and "no stored game with id 99" in r.stderr


def test_unknown_game_in_a_record_is_one_line(tmp_path: Path, cli) -> None:
    path = tmp_path / "chess.jsonl"
    path.write_text(
        json.dumps({"format": "bellwether-record", "version": 1, "game": "chess", "setup": {"players": []}}) + "\n"
    )
    r = cli("replay", str(path))
    assert r.returncode == 1 and "unknown game 'chess'" in r.stderr and len(r.stderr.splitlines()) == 1
