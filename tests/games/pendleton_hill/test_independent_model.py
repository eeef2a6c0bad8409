"""A second, independent reading of the rulebook's action rules (written for the
rules audit, sharing no code with the engine but the board data), compared with
the engine on random games: the same legal actions at every step of every turn,
and the same hill, pens, pools and scores after each action."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from companion.events import Event
from companion.games.pendleton_hill import GAME, Phase, default_board_data
from companion.games.pendleton_hill.moves import legal_moves

BOARD = default_board_data()
TIER = {p: v["tier"] for p, v in BOARD["pastures"].items()}
TOUCH = {p: set(v["touches"]) for p, v in BOARD["pastures"].items()}
VALUE = {p: BOARD["tier_values"][t - 1] for p, t in TIER.items()}
TOP = next(p for p, t in TIER.items() if t == 4)

Action = tuple[str, Any, Any, Any]


class Table:
    """The pieces, read once from the engine at the start of each turn."""

    def __init__(self, j: dict[str, Any]) -> None:
        self.flocks = {p: Counter(v["flock"] or {}) for p, v in j["hill"].items()}
        self.shepherds = {p: set(v["shepherds"]) for p, v in j["hill"].items()}
        self.wolf = j["wolf"]
        self.pens = {p["pen"]: Counter(p["sheep"]) for p in j["pens"]}
        self.spaces = {p["pen"]: p["spaces"] for p in j["pens"]}
        self.sheep = {n: v["sheep"] for n, v in j["off_board"].items()}
        self.pool = {n: v["shepherds"] for n, v in j["off_board"].items()}
        self.scores = dict(j["scores"])

    def view(self) -> tuple[Any, ...]:
        return (
            {p: dict(+c) for p, c in self.flocks.items() if +c},
            {p: sorted(v) for p, v in self.shepherds.items()},
            self.wolf,
            {k: dict(+c) for k, c in self.pens.items()},
            self.sheep,
            self.pool,
            self.scores,
        )


def whose(flock: Counter, me: str) -> str:
    colours = set(+flock)
    return "other" if me not in colours else "own" if colours == {me} else "mixed"


class Turn:
    """What the card played allows, read straight from the card sections."""

    def __init__(self, card: str, me: str) -> None:
        self.card, self.me = card, me
        self.taken, self.own, self.other = 0, False, False
        self.wolf_steps, self.wolf_stopped, self.wolf_left = 0, False, set()
        self.left: dict[str, set[str]] = {}  # a flock's pasture now -> pastures it left this turn

    def allows(self, kind: str) -> bool:
        if self.wolf_steps:
            return False  # the wolf was moved: nothing else
        if self.card == "1":
            return self.taken == 0  # any colour
        if self.card == "1+1":  # one own, one other; never a mixed flock
            return (kind == "own" and not self.own) or (kind == "other" and not self.other)
        return self.taken < 2 and kind in ("own", "mixed")  # "2": only involving their colour

    def take(self, kind: str) -> None:
        self.taken += 1
        self.own |= kind == "own"
        self.other |= kind == "other"

    def over(self) -> bool:
        if self.card == "1":
            return self.taken == 1
        if self.card == "1+1":
            return self.own and self.other
        return self.taken == 2 or self.wolf_steps == 2 or self.wolf_stopped


def scares(flock: Counter) -> list[str | None]:
    return [None] if len(+flock) <= 1 else sorted(+flock)


def legal(t: Table, turn: Turn) -> set[Action]:
    me, out = turn.me, set()
    for name in t.sheep:
        if not turn.allows("own" if name == me else "other"):
            continue
        if t.pool[name]:
            out |= {("place-shepherd", p, name, None) for p in TIER if name not in t.shepherds[p]}
        if t.sheep[name]:
            out |= {("place-sheep", k, name, None) for k in t.pens if sum(t.pens[k].values()) < t.spaces[k]}
    for k, flock in t.pens.items():
        if sum(flock.values()) >= 4 and turn.allows(whose(flock, me)):
            for p in TIER:
                if TIER[p] == 1 and not +t.flocks[p]:
                    out |= {("from-pen", k, p, s) for s in (scares(flock) if t.wolf == p else [None])}
    for p, flock in t.flocks.items():
        if not +flock or not turn.allows(whose(flock, me)):
            continue
        for q in TOUCH[p]:
            if TIER[q] in (TIER[p], TIER[p] + 1) and not +t.flocks[q] and q not in turn.left.get(p, set()):
                out |= {("move", p, q, s) for s in (scares(flock) if t.wolf == q else [None])}
    if turn.card == "2" and turn.taken == 0 and turn.wolf_steps < 2 and not turn.wolf_stopped:
        for q in TOUCH[t.wolf] - turn.wolf_left:
            out |= {("wolf", q, None, s) for s in (scares(t.flocks[q]) if +t.flocks[q] else [None])}
    return out


def arrive(t: Table, flock: Counter, q: str, scared: str | None) -> None:
    flock = Counter(+flock)
    if t.wolf == q:  # frightened before any match
        c = scared or next(iter(+flock))
        flock[c] -= 1
        t.sheep[c] += 1
    for c in list(+flock):
        if c in t.shepherds[q]:  # one sheep per matching shepherd, scored by tier
            flock[c] -= 1
            t.shepherds[q].discard(c)
            t.sheep[c] += 1
            t.pool[c] += 1
            t.scores[c] += VALUE[q]
    if q == TOP:
        for c, n in (+flock).items():
            t.sheep[c] += n
        flock = Counter()
    t.flocks[q] = +flock


def do(t: Table, turn: Turn, a: Action) -> None:
    kind, x, y, scared = a
    if kind == "place-shepherd":
        turn.take("own" if y == turn.me else "other")
        t.shepherds[x].add(y)
        t.pool[y] -= 1
    elif kind == "place-sheep":
        turn.take("own" if y == turn.me else "other")
        t.pens[x][y] += 1
        t.sheep[y] -= 1
    elif kind == "from-pen":
        flock = t.pens[x]
        turn.take(whose(flock, turn.me))
        t.pens[x] = Counter()
        arrive(t, flock, y, scared)
        if +t.flocks[y]:
            turn.left[y] = set()
    elif kind == "move":
        flock = t.flocks[x]
        turn.take(whose(flock, turn.me))
        left = turn.left.pop(x, set()) | {x}
        t.flocks[x] = Counter()
        arrive(t, flock, y, scared)
        if +t.flocks[y]:
            turn.left[y] = left
    else:
        turn.wolf_steps += 1
        turn.wolf_left.add(t.wolf)
        t.wolf = x
        if +t.flocks[x]:  # it must stop; the mover picks the sheep
            c = scared or next(iter(+t.flocks[x]))
            t.flocks[x][c] -= 1
            t.sheep[c] += 1
            turn.wolf_stopped = True


def as_action(type_: str, p: dict[str, Any]) -> Action | None:
    if type_ == "place-shepherd":
        return ("place-shepherd", p["pasture"], p["colour"], None)
    if type_ == "place-sheep":
        return ("place-sheep", p["pen"], p["colour"], None)
    if type_ == "move-flock":
        return ("from-pen", p["pen"], p["to"], p.get("frighten")) if "pen" in p else ("move", p["from"], p["to"], p.get("frighten"))
    if type_ == "move-wolf":
        return ("wolf", p["to"], None, p.get("frighten"))
    return None


def test_the_engine_agrees_with_an_independent_reading_of_the_rules() -> None:
    rng = random.Random(7)
    for _ in range(40):
        names = ["A", "B", "C", "D", "E"][: rng.randint(3, 5)]
        s = GAME.initial_state(GAME.validate_setup({"players": names}))
        t = turn = None
        while s.phase is not Phase.OVER:
            moves = legal_moves(s)
            if s.phase is Phase.ACTION:
                if t is None or turn is None:
                    t, turn = Table(GAME.state_json(s)), Turn(s.now.as_.value, names[s.active])  # type: ignore[union-attr]
                engine = {a for tp, p, _ in moves if (a := as_action(tp, p)) is not None}
                assert legal(t, turn) == engine
            type_, payload, who = rng.choice(moves)
            acting = s.phase is Phase.ACTION
            s = GAME.apply(s, Event(type_, payload, player=who))
            a = as_action(type_, payload) if acting else None
            if a is not None and t is not None and turn is not None:
                do(t, turn, a)
                assert t.view() == Table(GAME.state_json(s)).view()
                assert turn.over() == (s.phase is not Phase.ACTION)  # the card is used up exactly then
            if s.phase is not Phase.ACTION:
                t = turn = None
