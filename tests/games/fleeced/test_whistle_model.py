"""An independent model of the whistle rulings, written from docs/games/fleeced.md, checked
against the engine on random event streams around one roll with sheep in tow.

Wallace has six sheep in tow and moves; Gromit (k claimed sheep) and Preston may blow out of
turn; whistles may be unattributed ("Who blew?") and timed before the roll, within the margin
or after it; any open penalty may be contested.  The model says what the engine must do with
each event: refuse it, or what the flock, the claimed counts and the rulings become.  A contest
is modelled as "replay the turn with that penalty ruled the other way" (so a later whistle by a
player who now keeps a sheep can cost it).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from companion.errors import IllegalAction

from .table import Table

MARGIN = 1.5


@dataclass
class Model:
    claimed: dict[str, int]
    tow: int = 6
    overrides: frozenset[tuple[str, int]] = frozenset()  # contested penalties: (kind, step that made it)
    green: int = 0
    whistled: bool = False  # Wallace blew since the turn began (before the roll)
    roll_time: float | None = None
    pending: bool = False  # the roll's ruling waits
    landed: bool = False
    questions: list[float] = field(default_factory=list)  # times of unattributed whistles
    kinds: list[str] = field(default_factory=list)  # rulings standing (not contested), in order
    open: list[tuple[str, int]] = field(default_factory=list)  # penalties that can be contested
    history: list[tuple[str, tuple]] = field(default_factory=list)  # the accepted events
    start: tuple[dict[str, int], int] | None = None

    def __post_init__(self) -> None:
        self.start = (dict(self.claimed), self.tow)

    def do(self, name: str, *args) -> None:
        """Apply one event; a refused event (IllegalAction) changes nothing."""
        snapshot = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
                    for k, v in self.__dict__.items()}
        try:
            getattr(self, name)(*args)
        except IllegalAction:
            self.__dict__.update(snapshot)
            raise
        if name != "contest":
            self.history.append((name, args))

    @property
    def step(self) -> int:
        return len(self.history)

    def deadline(self) -> float:
        assert self.roll_time is not None
        return self.roll_time + MARGIN

    def blocked(self) -> bool:
        return self.pending and any(t <= self.deadline() for t in self.questions)

    def fail(self) -> None:
        self.pending = False
        if ("no-whistle", self.step) in self.overrides:
            return  # contested: Wallace did blow
        self.green += self.tow
        self.tow = 0
        self.kinds.append("no-whistle")
        self.open.append(("no-whistle", self.step))

    def decide_before(self, event: str, t: float | None = None) -> None:
        """A play event (or a whistle after the deadline) decides a waiting ruling first."""
        if not self.pending or event == "answer":
            return
        if event == "whistle" and t is not None and (t <= self.deadline() or self.blocked()):
            return
        if self.blocked():
            raise IllegalAction("blocked", "model")
        self.fail()

    def by(self, who: str, t: float) -> None:
        if who == "Wallace":
            if self.pending and t <= self.deadline():
                self.pending = False
                if t > self.roll_time:
                    self.kinds.append("late-whistle-counted")
            elif self.roll_time is None:
                self.whistled = True
            return
        if ("out-of-turn", self.step) in self.overrides:
            return  # contested: they did not blow
        if self.claimed[who]:
            self.claimed[who] -= 1
            self.green += 1
            self.kinds.append("out-of-turn")
            self.open.append(("out-of-turn", self.step))
        else:
            self.kinds.append("no-penalty")

    # -- events ------------------------------------------------------------
    def whistle(self, who: str | None, t: float) -> None:
        self.decide_before("whistle", t)
        if who is None:
            self.questions.append(t)
        else:
            self.by(who, t)

    def answer(self, who: str | None) -> None:
        if not self.questions:
            raise IllegalAction("no question", "model")
        t = self.questions.pop(0)
        if who is None:
            self.kinds.append("noise")
        else:
            self.by(who, t)

    def roll(self, t: float) -> None:
        if self.roll_time is not None:
            raise IllegalAction("one roll", "model")
        self.decide_before("roll")
        self.roll_time = t
        self.pending = not self.whistled

    def settle(self) -> None:
        if not self.pending:
            raise IllegalAction("nothing waits", "model")
        if self.blocked():
            raise IllegalAction("blocked", "model")
        self.fail()

    def land(self) -> None:
        if self.roll_time is None or self.landed:
            raise IllegalAction("not moving", "model")
        self.decide_before("landed")
        self.landed = True

    def contest(self, j: int) -> None:
        """Rule the j-th open penalty the other way and replay the turn from the start."""
        if j >= len(self.open):
            raise IllegalAction("nothing to contest", "model")
        assert self.start is not None
        claimed, tow = self.start
        again = Model(claimed=dict(claimed), tow=tow, overrides=self.overrides | {self.open[j]})
        for name, args in self.history:
            again.do(name, *args)
        self.__dict__.update(again.__dict__)
        self.start = (dict(claimed), tow)


def wallace_towing(k: int) -> Table:
    """Wallace's turn with six sheep in tow; Gromit has claimed k sheep, Preston none."""
    t = Table(("Wallace", "Gromit", "Preston"), whistle_margin=MARGIN).start("Wallace")
    t.open_hideout("pub", 6)
    t.rustle("green", 3, 4)  # Wallace: 6 in tow
    t.end_turn()
    t.open_hideout("post-office", 2)  # Gromit
    t.rustle("green", 1, 2, where="home", squares=k)  # k follow him Home
    t.end_turn()
    t.roll(1)  # Preston
    t.land()
    t.end_turn()
    assert t.state.player == "Wallace" and t.sheep["claimed"]["Gromit"] == k
    return t


def run(seed: int) -> tuple[list[str], int, int]:
    """One random stream; returns the rulings made, how many events both refused, how many contested."""
    rng = random.Random(seed)
    refusals = 0
    t = wallace_towing(rng.choice([0, 1, 2]))
    m = Model(claimed={"Gromit": t.sheep["claimed"]["Gromit"], "Preston": 0}, tow=t.sheep["in_tow"]["Wallace"])
    green0 = t.sheep["green"]
    now = t.now + 10.0
    roll_at = now + rng.uniform(2.0, 6.0)
    for _ in range(rng.randint(1, 10)):
        kind = rng.choices(["whistle", "roll", "answer", "settle", "land", "contest"], [5, 2, 2, 1, 2, 1])[0]
        j = rng.randrange(2)
        who = rng.choice(["Wallace", "Wallace", "Gromit", "Preston", None])
        if kind == "whistle":
            base = roll_at if m.roll_time is None else m.roll_time
            at = base + rng.choice([-1.0, -0.2, 0.4, 1.5, 1.6, 3.0])
            at = max(at, now)  # sensors report in order of their own clock
            now = at
            args = (who, at)
        else:
            now = max(now + rng.uniform(0.1, 1.0), roll_at if kind == "roll" else now)
            args = ()
        try:
            if kind == "whistle":
                m.do("whistle", *args)
            elif kind == "roll":
                m.do("roll", now)
            elif kind == "answer":
                m.do("answer", who)
            elif kind == "settle":
                m.do("settle")
            elif kind == "contest":
                m.do("contest", j)
            else:
                m.do("land")
            model_ok = True
        except IllegalAction:
            model_ok = False
        before = t.json
        try:
            if kind == "whistle":
                t.whistle(who, at=now)
            elif kind == "roll":
                t.roll(1, 2, at=now)
            elif kind == "answer":
                t.send("answer", {"blower": who}, at=now)
            elif kind == "settle":
                t.send("settle", at=now)
            elif kind == "contest":
                open_ = t.json["whistle"]["contestable_rulings"]
                t.send("correction", {"contest": open_[j] if j < len(open_) else -1}, at=now)
            else:
                t.send("landed", {"where": "square"}, at=now)
            engine_ok = True
        except IllegalAction:
            engine_ok = False
            assert t.json == before
        assert engine_ok == model_ok, (seed, kind, who, args, m)
        refusals += not engine_ok
        assert t.sheep["in_tow"]["Wallace"] == m.tow, (kind, who, m)
        assert t.sheep["claimed"]["Gromit"] == m.claimed["Gromit"]
        assert t.sheep["green"] == green0 + m.green
        rulings = [r for r in t.json["rulings"] if r["kind"] not in ("great-rustle", "rubbish-rustle")]
        assert [r["kind"] for r in rulings if not r["contested"] and r["kind"] != "contested"] == m.kinds, \
            (seed, kind, who, m)
        assert sum(r["kind"] == "contested" for r in rulings) == len(m.overrides) == sum(r["contested"] for r in rulings)
        assert len(t.json["whistle"]["contestable_rulings"]) == len(m.open)
    return m.kinds, refusals, len(m.overrides)


def test_engine_rules_whistles_like_the_model() -> None:
    seen: Counter[str] = Counter()
    refused = 0
    for seed in range(1000):
        kinds, n, contested = run(seed)
        seen.update(kinds)
        seen["contested"] += contested
        refused += n
    # the streams reach every ruling, and some events are refused (a blocked ruling, a second roll...)
    for kind in ("no-whistle", "late-whistle-counted", "out-of-turn", "no-penalty", "noise", "contested"):
        assert seen[kind] >= 20, seen
    assert refused >= 100
