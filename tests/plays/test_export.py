"""Plays out: every finished game exports to each format and reads back
through a reader written from the format's public description."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.plays import export
from companion.plays.model import ExportError, clean_name, plays, start_player

from .conftest import FINISHED
from .readers import FormatError, read_bgg_csv, read_bgstats, read_plain_csv

ROOT = Path(__file__).resolve().parents[2]


def expected(session):
    """What the table saw, from the session itself (not from the exporter)."""
    outcome = session.outcome()
    scores = session.scores()
    if outcome is None:
        winners = set()
    elif outcome.won is not None:
        winners = set(outcome.ranking) if outcome.won else set()
    else:
        winners = set(outcome.winners or outcome.ranking[:1])
    return {clean_name(n): (scores[n], n in winners) for n in session.players()}


def by_game(items, key="game"):
    return {p[key]: p for p in items}


@pytest.mark.parametrize("name", list(FINISHED))
def test_each_finished_game_round_trips_through_bg_stats(stored, name):
    text, count = export.render(stored.store, "bgstats")
    assert count == 7  # 5 games, the lost Sheep Hop!, the shared win; not the unfinished one
    session = stored.sessions[name]
    read = [p for p in read_bgstats(text) if p["game"] == session.game.title]
    play = read[0]  # the won Sheep Hop! was stored before the lost one
    assert {p["name"]: (p["score"], p["winner"]) for p in play["players"]} == expected(session)
    assert [p["name"] for p in sorted(play["players"], key=lambda p: p["seat"])] == session.players()
    assert sum(p["start"] for p in play["players"]) == 1
    assert play["bggId"] == (session.game.info.bgg_id or 0)
    assert play["cooperative"] is (name == "sheep-hop")
    assert not play["ignored"] and play["minutes"] >= 1
    assert play["date"].date() == dt.date.fromtimestamp(stored.store.session(session.id).created)


@pytest.mark.parametrize("name", list(FINISHED))
def test_each_finished_game_round_trips_through_bgg_csv(stored, name):
    text, _ = export.render(stored.store, "bgg-csv", location="Kitchen table")
    session = stored.sessions[name]
    play = next(p for p in read_bgg_csv(text) if p["game"] == session.game.title)
    assert {p["name"]: (p["score"], p["winner"]) for p in play["players"]} == expected(session)
    assert play["objectid"] == session.game.info.bgg_id
    assert not play["incomplete"]
    assert sorted(p["startposition"] for p in play["players"]) == list(range(1, len(session.players()) + 1))
    assert "Kitchen table" in text


@pytest.mark.parametrize("name", list(FINISHED))
def test_each_finished_game_round_trips_through_plain_csv(stored, name):
    text, _ = export.render(stored.store, "csv")
    session = stored.sessions[name]
    play = next(p for p in read_plain_csv(text) if p["game"] == session.game.title)
    assert {p["name"]: (p["score"], p["winner"]) for p in play["players"]} == expected(session)
    assert play["finished"]


def test_cooperative_results_are_the_whole_tables(stored):
    hop = [p for p in read_bgstats(export.render(stored.store, "bgstats")[0]) if p["game"] == "Sheep Hop!"]
    won, lost = hop
    assert all(p["winner"] and p["rank"] == 1 for p in won["players"])
    assert not any(p["winner"] for p in lost["players"])
    assert won["cooperative"] and lost["cooperative"]
    bgg = [p for p in read_bgg_csv(export.render(stored.store, "bgg-csv")[0]) if p["game"] == "Sheep Hop!"]
    assert [all(p["winner"] for p in g["players"]) for g in bgg] == [True, False]
    assert "You won together: 6 saved, 3 caught: Apprentice Shepherd" in export.render(stored.store, "csv")[0]
    assert "The wolves won: 4 saved, 5 caught" in export.render(stored.store, "csv")[0]


def test_a_shared_win_comes_through_as_a_tie_and_names_lose_control_characters(stored):
    tie = next(p for p in read_bgstats(export.render(stored.store, "bgstats")[0]) if p["game"].startswith("Tally"))
    assert {p["name"]: (p["winner"], p["rank"]) for p in tie["players"]} == {"Ann": (True, 1), "Bob": (True, 1), "Cy": (False, 3)}
    bgg = next(p for p in read_bgg_csv(export.render(stored.store, "bgg-csv")[0]) if p["game"].startswith("Tally"))
    assert [p["winner"] for p in bgg["players"]] == [True, True, False]
    for fmt in export.FORMATS:
        text = export.render(stored.store, fmt)[0]
        assert "\x07" not in text
    for fmt in ("bgstats", "bgg-csv"):  # the location is cleaned like a name
        text = export.render(stored.store, fmt, location="Kitchen\x1b[2J\ntable")[0]
        assert "Kitchen[2Jtable" in text and "\x1b" not in text and "\\u001b" not in text


def test_unfinished_games_only_when_asked_and_marked_incomplete(stored):
    text, count = export.render(stored.store, "bgstats", incomplete=True)
    assert count == 8
    left = [p for p in read_bgstats(text) if p["ignored"]]
    assert len(left) == 1 and left[0]["game"] == "Fleeced!"
    assert not any(p["winner"] for p in left[0]["players"])
    bgg = read_bgg_csv(export.render(stored.store, "bgg-csv", incomplete=True)[0])
    assert [p["incomplete"] for p in bgg].count(True) == 1
    plain = read_plain_csv(export.render(stored.store, "csv", incomplete=True)[0])
    assert [p["finished"] for p in plain].count(False) == 1


def test_the_start_player_is_who_took_the_first_turn(stored):
    # Fleeced! rolls for it: Gromit's 11 beat Wallace's 3.
    assert start_player(stored.sessions["unfinished"]) == "Gromit"
    play = next(p for p in plays(stored.store, incomplete=True) if p.session_id == stored.ids["unfinished"])
    assert [(p.name, p.start_player, p.start_position) for p in play.players] == [("Wallace", False, 2), ("Gromit", True, 1)]


def test_since_keeps_later_games(stored):
    assert export.render(stored.store, "csv", since=dt.date(2100, 1, 1))[1] == 0
    assert export.render(stored.store, "csv", since=dt.date(2000, 1, 1))[1] == 7


def test_atomic_write_replaces_or_keeps_never_half(tmp_path):
    target = tmp_path / "plays.json"
    target.write_text("old")
    export.write_atomic(target, "new text")
    assert target.read_text() == "new text"
    assert [p.name for p in tmp_path.iterdir()] == ["plays.json"]  # no temp file left behind
    with pytest.raises(ExportError, match="does not exist"):
        export.write_atomic(tmp_path / "no-such-folder" / "x.csv", "x")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        if not os.access(ro, os.W_OK):  # root writes anywhere
            with pytest.raises(ExportError, match="cannot write"):
                export.write_atomic(ro / "x.csv", "x")
    finally:
        ro.chmod(0o700)


def test_share_folders_lists_mounted_media_then_the_data_folder(tmp_path):
    media = tmp_path / "media"
    (media / "pi" / "NOT-MOUNTED").mkdir(parents=True)
    found = export.share_folders(tmp_path / "data", roots=(str(media), str(tmp_path / "absent")))
    assert found == [("This Pi's data folder", tmp_path / "data")]


def test_share_folders_finds_a_mounted_usb_stick(tmp_path, monkeypatch):
    stick = tmp_path / "media" / "pi" / "SHEEPSTICK"
    stick.mkdir(parents=True)
    (tmp_path / "media" / "pi" / "other").mkdir()
    real = os.path.ismount
    monkeypatch.setattr(os.path, "ismount", lambda p: Path(p) == stick or real(p))
    found = export.share_folders(tmp_path / "data", roots=(str(tmp_path / "media"),))
    assert found == [("USB stick SHEEPSTICK", stick), ("This Pi's data folder", tmp_path / "data")]


def test_a_bgstats_reader_refuses_a_broken_file():
    with pytest.raises(FormatError):
        read_bgstats('{"games": [], "players": [], "plays": [{"gameRefId": 1}]}')


# -- the command, in a real subprocess ----------------------------------------------------------
def run(*args, data_dir):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BELLWETHER_DATA_DIR": str(data_dir)}
    return subprocess.run([sys.executable, "-m", "cli.main", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)


def test_cli_exports_each_format_to_a_file(stored, tmp_path):
    data_dir = stored.store.path.parent
    for fmt, reader in (("bgstats", read_bgstats), ("bgg-csv", read_bgg_csv), ("csv", read_plain_csv)):
        out = tmp_path / f"out.{fmt}"
        r = run("plays", "export", "--format", fmt, "-o", str(out), data_dir=data_dir)
        assert r.returncode == 0, r.stderr
        # The shared-win test game is not registered in a fresh process: it is left out, the five games are not.
        assert r.stderr.strip() == f"6 plays written to {out}"
        assert {p["game"] for p in reader(out.read_text(encoding="utf-8"))} == {s.game.title for n, s in stored.sessions.items() if n in FINISHED}
    r = run("plays", "export", "--format", "csv", data_dir=data_dir)
    assert r.returncode == 0 and r.stdout.startswith("game_number,game,date")


def test_cli_errors_are_one_line(tmp_path):
    for args, words in (
        (("--format", "xml"), "--format: expected one of bgstats, bgg-csv, csv, got 'xml'"),
        (("--since", "yesterday"), "--since: expected a date like 2026-12-01, got 'yesterday'"),
        (("-o", str(tmp_path / "nowhere" / "x.json")), "does not exist"),
    ):
        r = run("plays", "export", *args, data_dir=tmp_path / "data")
        assert r.returncode == 1
        assert len(r.stderr.strip().splitlines()) == 1 and words in r.stderr, r.stderr


def test_cli_refuses_an_empty_output_and_the_database_itself(stored):
    data_dir = stored.store.path.parent
    db = stored.store.path
    before = db.read_bytes()
    for target, words in (("", "-o"), (str(db), "game database itself"), (f"{db}-wal", "game database itself")):
        r = run("plays", "export", "-o", target, data_dir=data_dir)
        assert r.returncode == 1 and r.stdout == "", (target, r.stdout[:200], r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1 and words in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert db.read_bytes() == before


def test_replay_says_a_cooperative_result_and_a_shared_win(tmp_path):
    hop = run("replay", str(ROOT / "tests/fixtures/sheep-hop/complete-game-table.jsonl"), data_dir=tmp_path)
    assert "Result: You won together: 6 saved, 3 caught: Apprentice Shepherd" in hop.stdout and "Ranking" not in hop.stdout
    tie = run("replay", str(ROOT / "tests/fixtures/battle-sheep/quick-mode-shared-win.jsonl"), data_dir=tmp_path)
    assert "Shared win: Ben and Cat" in tie.stdout
