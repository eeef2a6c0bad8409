from __future__ import annotations

from pathlib import Path

import pytest

from companion import records
from companion.errors import IllegalAction, NothingToUndo, SetupError, UnknownGame
from companion.events import Event
from companion.session import Session
from companion.store import Store


def roll(face: int, player: str | None = None) -> Event:
    return Event("roll", {"die": "d6", "faces": [face]}, player=player, source="camera", confidence=0.9)


def new(store: Store | None = None, target: int = 1_000_000) -> Session:
    return Session.new(store, "tally", {"players": ["Ann", "Bob"], "options": {"target": target}})


def test_apply_folds_events_into_state() -> None:
    s = new()
    s.apply(roll(3))
    s.apply(roll(5))
    s.apply(roll(2))
    assert s.scores() == {"Ann": 5, "Bob": 5}
    assert s.prompt().player == "Bob"


def test_illegal_event_is_refused_and_nothing_changes(store: Store) -> None:
    s = new(store)
    s.apply(roll(4))
    before, log_len = s.state, len(s.log)
    with pytest.raises(IllegalAction, match="Turn"):
        s.apply(roll(7))
    with pytest.raises(IllegalAction, match="it is Bob's turn"):
        s.apply(roll(2, player="Ann"))
    assert s.state == before and len(s.log) == log_len
    assert len(list(store.entries(s.id))) == 1


def test_undo_and_redo_any_number_of_steps() -> None:
    s = new()
    for f in (1, 2, 3, 4, 5):
        s.apply(roll(f))
    s.undo(3)
    assert s.scores() == {"Ann": 1, "Bob": 2}
    s.redo(2)
    assert s.scores() == {"Ann": 4, "Bob": 6}
    s.undo_to(0)
    assert s.scores() == {"Ann": 0, "Bob": 0}
    with pytest.raises(NothingToUndo):
        s.undo()
    s.redo(5)
    assert s.scores() == {"Ann": 9, "Bob": 6}
    with pytest.raises(NothingToUndo):
        s.redo()


def test_a_new_event_clears_the_redo_stack() -> None:
    s = new()
    s.apply(roll(1))
    s.apply(roll(2))
    s.undo()
    s.apply(roll(6))
    assert not s.can_redo
    assert s.scores() == {"Ann": 1, "Bob": 6}


def test_resume_after_reopen_keeps_state_history_and_both_stacks(db_path: Path) -> None:
    with Store(db_path) as store:
        s = new(store)
        for f in (6, 5, 4, 3):
            s.apply(roll(f))
        s.undo(2)
        s.redo()
        sid, state, scores = s.id, s.state, s.scores()
    with Store(db_path) as store:
        r = Session.resume(store, sid)
        assert r.state == state and r.scores() == scores
        assert [e.op for e in r.log] == ["apply"] * 4 + ["undo", "undo", "redo"]
        assert r.can_redo and r.can_undo
        r.redo()  # the redo stack survived the restart
        assert r.scores() == {"Ann": 10, "Bob": 8}


def test_log_entries_carry_turn_and_phase() -> None:
    s = new()
    s.apply(roll(1))
    s.apply(roll(1))
    s.apply(roll(1))
    assert [(e.turn, e.phase) for e in s.log] == [(1, "roll"), (1, "roll"), (2, "roll")]


def test_export_then_replay_gives_the_identical_state(tmp_path: Path, store: Store) -> None:
    s = new(store)
    for f in (2, 2, 6, 1, 3):
        s.apply(roll(f))
    s.undo()
    s.apply(Event("correction", {"points": {"Bob": 20}}, source="touch"))
    path = tmp_path / "game.jsonl"
    records.write(s.record(title="test"), path)
    again = Session.from_record(records.read(path))
    assert again.state == s.state
    assert again.to_json() == s.to_json()
    assert again.events == s.events


def test_finished_game_reports_outcome_and_refuses_more() -> None:
    s = new(target=6)
    s.apply(roll(6))
    assert s.outcome() is not None and s.outcome().ranking == ("Ann", "Bob")
    with pytest.raises(IllegalAction, match="over"):
        s.apply(roll(1))


def test_bad_setup_and_unknown_game_are_clear() -> None:
    with pytest.raises(SetupError, match=r"players\[1\].name: expected a name no other player has"):
        Session.new(None, "tally", {"players": ["Ann", "Ann"]})
    with pytest.raises(SetupError, match=r"options\.target"):
        Session.new(None, "tally", {"players": ["Ann"], "options": {"target": 0}})
    with pytest.raises(UnknownGame, match="known games: shear-panic, fleeced"):
        Session.new(None, "chess", {"players": ["Ann"]})


def test_store_lists_sessions_with_a_summary(store: Store) -> None:
    a = new(store)
    a.apply(roll(3))
    b = new(store, target=2)
    b.apply(roll(4))
    infos = {i.id: i for i in store.sessions()}
    assert infos[a.id].summary["scores"] == {"Ann": 3, "Bob": 0}
    assert infos[b.id].summary["outcome"]["ranking"] == ["Ann", "Bob"]
    assert infos[a.id].players == ["Ann", "Bob"]
