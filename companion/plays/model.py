"""A stored game as a *play*: what a play log keeps of it (who, when, how long,
scores, who won, who started), independent of any export format."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from companion import registry
from companion.errors import BellwetherError
from companion.game import without_control
from companion.session import Session
from companion.store import SessionInfo, Store


@dataclass(frozen=True)
class PlayerResult:
    name: str
    seat: int  # 1-based, in the table's (clockwise) order
    score: int | None
    winner: bool  # a shared win or a cooperative win: several players are winners
    start_player: bool
    rank: int  # 1 for every winner; ties share a rank
    start_position: int  # place in the turn order: 1 for the start player, then clockwise
    colour: str = ""  # the piece's colour, or the character played, when the setup names one


@dataclass(frozen=True)
class Play:
    session_id: int
    game: str  # registry name
    title: str
    bgg_id: int | None
    cooperative: bool
    started: float  # epoch seconds
    ended: float
    finished: bool  # False: abandoned or still in play, exported as incomplete
    players: tuple[PlayerResult, ...]
    result: str  # the outcome in words ("Ann wins", "You won together: ...", "not finished")

    @property
    def duration_min(self) -> int:
        return max(0, round((self.ended - self.started) / 60))

    @property
    def shared_win(self) -> bool:
        return sum(p.winner for p in self.players) > 1

    @property
    def won(self) -> bool | None:
        """A cooperative game's result for the whole table; None in a competitive one."""
        if not self.cooperative or not self.finished:
            return None
        return all(p.winner for p in self.players)

    def local_start(self) -> dt.datetime:
        return dt.datetime.fromtimestamp(self.started)


def clean_name(name: str) -> str:
    """A name as the table typed it, without control characters (tabs, newlines,
    escapes) that would break a CSV row or a BG Stats name."""
    return without_control(name).strip()


COLOUR_KEYS = ("colour", "color", "character")


def _colour(setup_player: dict) -> str:
    for key in COLOUR_KEYS:
        value = setup_player.get(key)
        if isinstance(value, str) and value:
            return clean_name(value)
    return ""


def start_player(session: Session) -> str | None:
    """Who took the first turn: the player the game asks at the first state of
    turn 1 (Fleeced! rolls for it, the others start with the first seat)."""
    game = session.game
    state = game.initial_state(session.setup)
    if game.turn_phase(state)[0] >= 1:
        return game.prompt(state).player
    for event in session.events:
        state = game.apply(state, event)
        if game.turn_phase(state)[0] >= 1:
            return game.prompt(state).player
    return None


def play_of(session: Session, info: SessionInfo) -> Play:
    game = session.game
    meta = registry.info(game.name)
    outcome = session.outcome()
    scores = session.scores()
    names = session.players()
    first = start_player(session) or (names[0] if names else None)
    if outcome is None:
        winners: tuple[str, ...] = ()
        ranking = tuple(sorted(names, key=lambda n: -scores.get(n, 0)))
        result = "not finished"
    else:
        winners = outcome.winner_names()
        ranking = outcome.ranking
        result = clean_name(outcome.words()) or "no winner"
    cooperative = game.cooperative or (outcome is not None and outcome.won is not None)
    places = outcome.places() if outcome is not None else tuple(range(1, len(ranking) + 1))
    rank = {n: (1 if n in winners or cooperative else place) for n, place in zip(ranking, places, strict=True)}
    setup_players = {p["name"]: p for p in session.setup.get("players", [])}
    start_seat = names.index(first) if first in names else 0
    players = tuple(
        PlayerResult(
            name=clean_name(n),
            seat=i + 1,
            score=scores.get(n),
            winner=n in winners,
            start_player=n == first,
            rank=rank.get(n, len(names)),
            start_position=(i - start_seat) % len(names) + 1,
            colour=_colour(setup_players.get(n, {})),
        )
        for i, n in enumerate(names)
    )
    ended = session.log[-1].at if session.log else info.updated
    return Play(
        session_id=info.id,
        game=game.name,
        title=game.title,
        bgg_id=meta.bgg_id,
        cooperative=cooperative,
        started=info.created,
        ended=max(ended, info.created),
        finished=outcome is not None,
        players=players,
        result=result,
    )


def parse_since(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ExportError(f"--since: expected a date like 2026-12-01, got {text!r}") from None


class ExportError(BellwetherError, ValueError):
    """A plays export that cannot be made (a bad option, a folder that cannot be written)."""


def plays(store: Store, since: dt.date | None = None, incomplete: bool = False) -> Iterable[Play]:
    """The stored games as plays, oldest first: finished ones, and with
    ``incomplete`` also those not finished (marked so)."""
    for info in sorted(store.sessions(), key=lambda i: (i.created, i.id)):
        if since is not None and dt.date.fromtimestamp(info.created) < since:
            continue
        if not incomplete and not info.summary.get("outcome"):
            continue  # the summary says so without replaying the game
        try:
            session = Session.resume(store, info.id)
        except BellwetherError:
            continue  # a game no longer registered, or a log this version cannot replay
        play = play_of(session, info)
        if play.finished or incomplete:
            yield play
