"""Is the table's dice fair?  Every roll the app has taken, counted per die,
with a chi-square test and the answer in words.

A physical die is told apart where the reader can: by its colour (a colour or
symbol die is its own type) or by its place in a two-dice roll ("first die",
"second die"); every roll also counts for its die type as a whole.  Rolls
entered by hand (touch, keyboard) are counted apart from the rolls a device
read (camera, buttons), since a person choosing a face is not a die landing.
A corrected roll counts once, with what the table said it showed, in the group
of the roll it replaced (the app corrects by undoing the roll and entering
the right faces).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import BellwetherError
from companion.events import ROLL, Event, Source
from companion.session import Session
from companion.store import Store

from .chisquare import chisquare, rolls_needed

ALPHA = 0.05  # the test's level
BIAS = 0.05  # the bias worth telling: one face 5 percentage points more often
POWER = 0.8  # ... found 4 times in 5
READ = "camera and buttons"
BY_HAND = "entered by hand"
HAND_SOURCES = {Source.TOUCH, Source.KEYBOARD}
DEFAULT_FACES: dict[str, tuple[Any, ...]] = {"d6": (1, 2, 3, 4, 5, 6)}
POSITIONS = ("first die", "second die", "third die", "fourth die")


@dataclass(frozen=True)
class Roll:
    game: str  # the game's title
    die: str  # die type, e.g. "d6", "panic"
    faces: tuple[Any, ...]  # what it showed, one face per die, in the reader's order
    legal: tuple[Any, ...]  # every face the die has
    group: str  # READ or BY_HAND


@dataclass(frozen=True)
class DieStats:
    die: str
    which: str  # "all rolls" or a place in the roll ("first die")
    group: str
    game: str | None  # None: the whole history
    faces: tuple[Any, ...]
    counts: tuple[int, ...]

    @property
    def rolls(self) -> int:
        return sum(self.counts)

    @property
    def label(self) -> str:
        where = "all games" if self.game is None else self.game
        return f"{self.die} ({self.which}), {self.group}, {where}"

    def test(self) -> tuple[float, float]:
        return chisquare(self.counts)

    @property
    def needed(self) -> int:
        """Rolls in all to tell a BIAS bias with POWER at ALPHA (docs/plays.md)."""
        return rolls_needed(len(self.faces), BIAS, ALPHA, POWER)

    def verdict(self) -> str:
        return verdict(self.faces, self.counts)

    def to_json(self) -> dict[str, Any]:
        stat, p = self.test()
        return {
            "die": self.die, "which": self.which, "group": self.group, "game": self.game,
            "faces": list(self.faces), "counts": list(self.counts), "rolls": self.rolls,
            "chi_square": stat, "df": len(self.faces) - 1, "p": p, "rolls_needed": self.needed,
            "verdict": self.verdict(),
        }  # fmt: skip


def p_words(p: float) -> str:
    """A p-value as printed: three decimals, or "p < 0.001" (never "p = 0.000")."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def verdict(faces: Sequence[Any], counts: Sequence[int]) -> str:
    """The test in words: the face that stands out, or no sign of bias (and how
    many more rolls it takes to see a 5 % one)."""
    n = sum(counts)
    if n == 0:
        return "No rolls yet."
    _, p = chisquare(counts)
    if p < ALPHA:
        e = n / len(counts)
        i = max(range(len(counts)), key=lambda j: (abs(counts[j] - e), counts[j]))  # a tie: the frequent face
        return f"Face {faces[i]} comes up {100 * counts[i] / n:.0f} % of the time: {p_words(p)}"
    text = f"No sign of bias after {n} roll{'' if n == 1 else 's'}"
    more = rolls_needed(len(faces), BIAS, ALPHA, POWER) - n
    if more > 0:
        more = max(10, math.ceil(more / 10) * 10)  # "about": to the next ten
        text += f". Roll about {more} more times to tell a {100 * BIAS:.0f} % bias"
    return text


def _group(source: Source) -> str:
    return BY_HAND if source in HAND_SOURCES else READ


def session_rolls(session: Session) -> list[Roll]:
    """The rolls in effect in one game, each with the faces its die has and its group.

    The log is walked as the session folds it (apply / undo / redo): a roll
    applied where an undone roll of the same die stood is that roll corrected,
    and keeps the undone roll's group."""
    game = session.game
    done: list[tuple[Event, str]] = []
    redo: list[tuple[Event, str]] = []
    undone_at: dict[int, tuple[Event, str]] = {}
    for entry in session.log:
        if entry.op == "undo" and done:
            undone_at[len(done) - 1] = done[-1]
            redo.append(done.pop())
        elif entry.op == "redo" and redo:
            done.append(redo.pop())
        elif entry.op == "apply" and entry.event is not None:
            redo.clear()
            event = entry.event
            group = _group(event.source)
            old = undone_at.get(len(done))
            if event.type == ROLL and old is not None and old[0].type == ROLL and old[0].get("die") == event.get("die"):
                group = old[1]  # the table corrected that roll: same die, same group
            done.append((event, group))
    out = []
    state = game.initial_state(session.setup)
    title = game.title
    for event, group in done:
        if event.type == ROLL:
            die = str(event.get("die", "?"))
            asked = game.prompt(state).dice
            legal = tuple(asked.faces) if asked is not None and asked.die == die and asked.faces else DEFAULT_FACES.get(die, ())
            faces = tuple(event.get("faces", ()))
            out.append(Roll(title, die, faces, legal or tuple(dict.fromkeys(faces)), group))
        state = game.apply(state, event)
    return out


def stored_rolls(store: Store, cache: dict[tuple[int, float], list[Roll]] | None = None) -> list[Roll]:
    """Every stored game's rolls.  Each game is replayed (about 10 ms a game on
    a desktop, benchmarks/plays_bench.py); with ``cache`` a game unchanged since
    (same id, same last update) is not replayed again, and the entries of games
    since changed or gone are dropped (the cache holds the store as it is now)."""
    rolls = []
    current = set()
    for info in store.sessions():
        key = (info.id, info.updated)
        current.add(key)
        if cache is not None and key in cache:
            rolls.extend(cache[key])
            continue
        try:
            found = session_rolls(Session.resume(store, info.id))
        except BellwetherError:
            continue  # a game no longer registered, or a log this version cannot replay
        if cache is not None:
            cache[key] = found
        rolls.extend(found)
    if cache is not None:
        for stale in cache.keys() - current:
            del cache[stale]
    return rolls


def tally(rolls: Iterable[Roll], by_game: bool = True) -> list[DieStats]:
    """Counts per die type and group (and per place in multi-dice rolls), across the
    history and, with ``by_game``, per game."""
    counts: dict[tuple[str, str, str, str | None], dict[Any, int]] = defaultdict(dict)
    legal: dict[tuple[str, str, str, str | None], tuple[Any, ...]] = {}

    def add(key: tuple[str, str, str, str | None], faces: tuple[Any, ...], face: Any) -> None:
        known = legal.get(key, ())
        legal[key] = known + tuple(f for f in faces if f not in known)
        if face not in legal[key]:
            legal[key] += (face,)
        counts[key][face] = counts[key].get(face, 0) + 1

    for r in rolls:
        for game in (None, r.game) if by_game else (None,):
            for i, face in enumerate(r.faces):
                add((r.die, "all rolls", r.group, game), r.legal, face)
                if len(r.faces) > 1 and i < len(POSITIONS):
                    add((r.die, POSITIONS[i], r.group, game), r.legal, face)
    out = []
    for key in sorted(counts, key=lambda k: (k[3] is not None, k[3] or "", k[0], k[2], k[1] != "all rolls", k[1])):
        die, which, group, game = key
        faces = legal[key]
        out.append(DieStats(die, which, group, game, faces, tuple(counts[key].get(f, 0) for f in faces)))
    return out
