"""The table overrides the twin: a ``correction`` sets what the table says is
true (it is logged like every other event, so it can be undone and replayed).

Payload keys, all optional:
``scores`` {name: points}; ``hill`` {pasture: {"flock": {name: count} | null,
"shepherds": [names]}}; ``wolf`` pasture; ``pens`` {"1": {name: count}};
``deck`` {"1": n, "1+1": n, "2": n}; ``hands`` {name: {"1": n, ...}};
``sheepdogs`` {name: still held}; ``active`` name (their turn starts again);
``reason`` free text.  The pools of pieces off the board are recounted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from companion.errors import brief
from companion.payload import is_count

from .actions import next_turn
from .board import MAX_FLOCK
from .state import (
    CARDS_PER_KIND,
    DECK_CARDS,
    KINDS,
    SHEEP_PER_COLOUR,
    SHEPHERDS_PER_COLOUR,
    HillState,
    Phase,
    TurnSoFar,
)

if TYPE_CHECKING:
    from companion.game import Game

RULE = "Components"
KEYS = {"scores", "hill", "wolf", "pens", "deck", "hands", "played", "sheepdogs", "active", "reason"}


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _seat(g: Game, s: HillState, name: Any, key: str) -> int:
    if name not in s.names:
        raise g.refuse(f"correction {key}: {name!r} is not a player ({', '.join(s.names)})", RULE)
    return s.names.index(name)


def _counts(g: Game, s: HillState, value: Any, key: str) -> tuple[int, ...]:
    """{name: count} as a sorted tuple of seats, one per sheep."""
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        raise g.refuse(f"correction {key}: expected {{player: number of sheep}}, got {value!r}", RULE)
    out: list[int] = []
    for name, n in value.items():
        seat = _seat(g, s, name, key)
        if not is_count(n, SHEEP_PER_COLOUR):
            expected = f"a whole number from 0 to {SHEEP_PER_COLOUR}"
            raise g.refuse(f"correction {key}.{name}: expected {expected}, got {brief(n)}", RULE)
        out += [seat] * n
    return tuple(sorted(out))


def _table(g: Game, payload: Mapping[str, Any], key: str, what: str) -> Mapping[str, Any]:
    """An optional {player: value} table of the payload; anything else is refused."""
    value = payload.get(key, {})
    if not isinstance(value, Mapping):
        raise g.refuse(f"correction {key}: expected {{player: {what}}}, got {value!r}", RULE)
    return value


def _by_kind(g: Game, value: Any, key: str) -> tuple[int, int, int]:
    kinds = [k.value for k in KINDS]
    if not isinstance(value, Mapping) or set(value) - set(kinds) or not all(_count(v) for v in value.values()):
        raise g.refuse(f"correction {key}: expected {{'1': n, '1+1': n, '2': n}} with whole numbers, got {value!r}", RULE)
    return tuple(value.get(k, 0) for k in kinds)  # type: ignore[return-value]


def _cards(g: Game, value: Any, key: str) -> int:
    """A number of cards; an old record's count by kind ({'1': n, ...}) counts as its total."""
    if isinstance(value, Mapping):
        return sum(_by_kind(g, value, key))
    if not _count(value):
        raise g.refuse(f"correction {key}: expected a whole number of cards >= 0, got {value!r}", RULE)
    return int(value)


def correct(g: Game, s: HillState, payload: Mapping[str, Any]) -> HillState:
    if s.phase in (Phase.DEAL, Phase.SETUP):
        # Before play nothing is scored or moved: a wrong deal or placement is undone, not corrected,
        # and a corrected deck could leave the deal waiting for a card that is not there.
        raise g.refuse("corrections apply once play has begun; during the deal and set up, undo the wrong step", "Set Up")
    unknown = sorted(set(payload) - KEYS)
    if unknown:
        raise g.refuse(f"correction: unknown key {unknown[0]!r}; known: {', '.join(sorted(KEYS))}", RULE)
    board = s.board
    scores = list(s.scores)
    for name, pts in _table(g, payload, "scores", "points").items():
        if isinstance(pts, bool) or not isinstance(pts, int):
            raise g.refuse(f"correction scores.{name}: expected a whole number, got {pts!r}", RULE)
        scores[_seat(g, s, name, "scores")] = pts
    flocks = list(s.flocks)
    shepherds = list(s.shepherds)
    hill = payload.get("hill", {})
    if not isinstance(hill, Mapping):
        raise g.refuse(f"correction hill: expected {{pasture: {{...}}}}, got {hill!r}", RULE)
    for pid, spec in hill.items():
        if pid not in board.index:
            raise g.refuse(f"correction hill: {pid!r} is not a pasture ({', '.join(board.ids)})", "The Board")
        p = board.index[pid]
        if not isinstance(spec, Mapping) or set(spec) - {"flock", "shepherds"}:
            raise g.refuse(f"correction hill.{pid}: expected {{'flock': ..., 'shepherds': [...]}}, got {spec!r}", RULE)
        if "flock" in spec:
            flock = _counts(g, s, spec["flock"], f"hill.{pid}.flock")
            if len(flock) > MAX_FLOCK:
                raise g.refuse(f"correction hill.{pid}.flock: the maximum size of a flock is five sheep, got {len(flock)}", "Moving Flocks")
            if flock and p == board.top:
                raise g.refuse("correction: a flock never stays on the top pasture (its sheep are matched or go home)", "Collecting Sheep and Scoring")
            flocks[p] = flock
        if "shepherds" in spec:
            names = spec["shepherds"]
            if not isinstance(names, (list, tuple)):
                raise g.refuse(f"correction hill.{pid}.shepherds: expected a list of player names, got {names!r}", RULE)
            seats = [_seat(g, s, n, f"hill.{pid}.shepherds") for n in names]
            if len(set(seats)) != len(seats):
                raise g.refuse(f"correction hill.{pid}.shepherds: never more than one shepherd of the same colour in a pasture", "Actions")
            shepherds[p] = frozenset(seats)
    wolf = s.wolf
    if "wolf" in payload:
        if not isinstance(payload["wolf"], str) or payload["wolf"] not in board.index:
            raise g.refuse(f"correction wolf: expected a pasture ({', '.join(board.ids)}), got {payload['wolf']!r}", "The Board")
        wolf = board.index[payload["wolf"]]
    pens = list(s.pens)
    pen_spec = payload.get("pens", {})
    if not isinstance(pen_spec, Mapping):
        raise g.refuse(f"correction pens: expected {{pen number: {{player: sheep}}}}, got {pen_spec!r}", RULE)
    for key, spec in pen_spec.items():
        k = int(key) - 1 if str(key).isdigit() else -1
        if k not in s.pens_used:
            used = ", ".join(str(i + 1) for i in s.pens_used)
            raise g.refuse(f"correction pens: {key!r} is not a pen in use ({used})", "The Board")
        pens[k] = _counts(g, s, spec, f"pens.{key}")
        if len(pens[k]) > board.pen_spaces[k]:
            raise g.refuse(f"correction pens.{key}: one sheep per space, and pen {key} has {board.pen_spaces[k]}", "Moving Flocks")

    deck, hands, played, sheepdogs = s.deck, list(s.hands), s.played, list(s.sheepdogs)
    if {"deck", "hands", "played", "sheepdogs", "active"} & set(payload) and s.phase is Phase.OVER:
        raise g.refuse("the game is over: only the hill, the pens and the scores can be corrected", "Winning the Game")
    if "deck" in payload:
        deck = _cards(g, payload["deck"], "deck")
    for name, hand in _table(g, payload, "hands", "number of cards").items():
        hands[_seat(g, s, name, "hands")] = _cards(g, hand, f"hands.{name}")
    if "played" in payload:
        played = _by_kind(g, payload["played"], "played")
    for name, held in _table(g, payload, "sheepdogs", "true or false").items():
        if not isinstance(held, bool):
            raise g.refuse(f"correction sheepdogs.{name}: expected true (still held) or false (used), got {held!r}", RULE)
        sheepdogs[_seat(g, s, name, "sheepdogs")] = held
    for i, n in enumerate(played):
        if n > CARDS_PER_KIND:
            raise g.refuse(f"correction played: the game has {CARDS_PER_KIND} '{KINDS[i].value}' cards, got {n}", RULE)
    total = deck + sum(hands) + sum(played)
    if total > DECK_CARDS:
        raise g.refuse(
            f"correction: that makes {total} cards in the deck ({deck}), the hands ({sum(hands)}) and played ({sum(played)});"
            f" the game has {DECK_CARDS} besides the Sheepdogs",
            RULE,
        )

    sheep_pool = []
    shepherd_pool = []
    for c, name in enumerate(s.names):
        on_board = sum(f.count(c) for f in flocks) + sum(f.count(c) for f in pens)
        if on_board > SHEEP_PER_COLOUR:
            raise g.refuse(f"correction: that puts {on_board} of {name}'s sheep on the board; a colour has {SHEEP_PER_COLOUR}", RULE)
        standing = sum(c in here for here in shepherds)
        if standing > SHEPHERDS_PER_COLOUR:
            raise g.refuse(f"correction: that puts {standing} of {name}'s shepherds on the hill; a colour has {SHEPHERDS_PER_COLOUR}", RULE)
        sheep_pool.append(SHEEP_PER_COLOUR - on_board)
        shepherd_pool.append(SHEPHERDS_PER_COLOUR - standing)

    new = replace(
        s,
        scores=tuple(scores),
        flocks=tuple(flocks),
        shepherds=tuple(shepherds),
        wolf=wolf,
        pens=tuple(pens),
        deck=deck,
        hands=tuple(hands),
        played=played,
        sheepdogs=tuple(sheepdogs),
        sheep_pool=tuple(sheep_pool),
        shepherd_pool=tuple(shepherd_pool),
        note="Corrected by the table." + (f" ({payload['reason']})" if payload.get("reason") else ""),
        news=True,
    )
    if "active" in payload:  # (refused above once the game is over)
        new = replace(new, active=_seat(g, s, payload["active"], "active"), phase=Phase.CARD, now=TurnSoFar())
    return _settle(new)


def _settle(s: HillState) -> HillState:
    """Keep the turn consistent with corrected cards: nobody is asked for a card they lack."""
    if s.phase is Phase.DRAW and s.deck == 0:
        return next_turn(s)
    if s.phase is Phase.CARD and not (s.hands[s.active] or s.sheepdogs[s.active]):
        return next_turn(replace(s, turn=s.turn - 1))
    return s
