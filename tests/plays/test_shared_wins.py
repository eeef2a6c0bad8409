"""A tie no rule breaks is a shared win (Outcome.winners), which the exports give as a tie."""

from __future__ import annotations

from companion import records
from companion.games.pendleton_hill.game import TIE_BREAKS
from companion.session import Session

from .conftest import FIXTURES


def _final(fixture: str) -> Session:
    return Session.from_record(records.read(FIXTURES / fixture))


def test_pendleton_hill_still_tied_after_every_tie_break_is_a_shared_win(monkeypatch):
    s = _final("pendleton-hill/complete-game-three-players.jsonl")
    game = s.game
    assert s.outcome().winners == ()  # Bob beat Ann on sheep on the hill: one winner
    real = game.figures(s.state)
    level = {k: 3 for k in ("points", *TIE_BREAKS)}
    monkeypatch.setattr(type(game), "figures", lambda self, st: {**real, "Ann": {**real["Ann"], **level}, "Cat": {**real["Cat"], **level}, "Bob": {**real["Bob"], **level, "points": 1}})
    o = game.outcome(s.state)
    assert o.winners == ("Ann", "Cat") and o.winner_names() == ("Ann", "Cat")
    assert "still tied after all three tie-breaks" in o.tie_break


def test_battle_sheep_equal_pastures_and_herds_share_the_win():
    o = _final("battle-sheep/quick-mode-shared-win.jsonl").outcome()
    assert o.winner_names() == ("Ben", "Cat")
    broken = _final("battle-sheep/quick-mode-tie-break.jsonl").outcome()
    assert broken.winner_names() == ("Cat",)


def test_fleeced_players_level_on_points_and_sheep_share_the_win(monkeypatch):
    from companion.games.fleeced import scoring

    s = _final("fleeced/full-game-two-players.jsonl")
    assert s.outcome().winners == ()  # Wallace won outright
    monkeypatch.setattr(scoring, "winners", lambda st: ("Wallace", "Gromit"))
    assert s.game.outcome(s.state).winner_names() == ("Wallace", "Gromit")


def test_the_result_in_words_that_results_and_the_exports_both_show():
    from companion.game import Outcome

    cases = [
        (Outcome(("Ann", "Bob")), "Ann wins"),
        (Outcome(("Ann", "Bob", "Cy"), winners=("Ann", "Bob", "Cy")), "Ann, Bob and Cy share the win"),
        (Outcome(("Ann", "Bob"), won=False), ""),
        (Outcome(("Ann", "Bob"), won=True, headline="You won together"), "You won together"),
    ]
    for outcome, words in cases:
        assert outcome.words() == words
