"""The end: claimed sheep by kind, totals, ranking, shared places and the tie-break sentence."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import rules
from .board import SHEEP_VALUES
from .rules import refuse
from .state import FleecedState, Phase, evolve, set_at


def tally(s: FleecedState, who: int, counts: Mapping[str, Any]) -> FleecedState:
    unknown = set(counts) - set(SHEEP_VALUES) - {"player"}
    if unknown:
        raise refuse(f"sheep kinds are {', '.join(SHEEP_VALUES)}; not {', '.join(sorted(unknown))}", rules.VICTORY)
    entry = []
    for kind in SHEEP_VALUES:
        n = counts.get(kind, 0)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise refuse(f"{kind}: expected a count of 0 or more, got {n!r}", rules.VICTORY)
        entry.append((kind, n))
    total = sum(n for _, n in entry)
    claimed = s.sheep.claimed[who]
    if total != claimed:
        raise refuse(f"{s.names[who]} claimed {claimed} sheep, but the kinds entered add up to {total}", rules.VICTORY)
    tallies = set_at(s.tallies, who, tuple(entry))
    done = all(t is not None for t in tallies)
    return evolve(s, tallies=tallies, phase=Phase.OVER if done else Phase.TALLY)


def points(entry: tuple[tuple[str, int], ...] | None) -> int:
    return 0 if entry is None else sum(SHEEP_VALUES[k] * n for k, n in entry)


# How a tie on points is settled.  The rulebook: "The winner is the player with
# the highest value of sheep!", and no tie-break; a table may agree a house rule.
TIE_BREAKS: dict[str, str] = {
    "none": "players level on points share the place (the rulebook names no tie-break)",
    "sheep": "a house rule: more sheep claimed breaks a tie on points",
}
DEFAULT_TIE_BREAK = "none"


def tie_break(s: FleecedState) -> str:
    return str(s.setup.get("options", {}).get("tie_break", DEFAULT_TIE_BREAK))


def _rank_keys(s: FleecedState) -> list[tuple[int, ...]]:
    """Each player's place key, smaller first: points, and sheep claimed under the house rule."""
    pts = [points(t) for t in s.tallies]
    if tie_break(s) == "sheep":
        return [(-p, -c) for p, c in zip(pts, s.sheep.claimed, strict=True)]
    return [(-p,) for p in pts]


def ranking(s: FleecedState) -> tuple[tuple[str, ...], str | None]:
    """Highest value first; players still level share the place (seating order lists them).
    The sentence says every tie on points and how it was settled, or is None."""
    pts = [points(t) for t in s.tallies]
    claimed = s.sheep.claimed
    keys = _rank_keys(s)
    order = sorted(range(len(s.names)), key=lambda i: (keys[i], i))
    house = tie_break(s) == "sheep"
    sentences = []
    seen: set[int] = set()
    for i in order:
        if i in seen:
            continue
        tied = [j for j in order if pts[j] == pts[i]]
        seen.update(tied)
        if len(tied) < 2:
            continue
        names = " and ".join(s.names[j] for j in tied)
        if not house:
            place = "first place" if i == order[0] else "their place"
            sentences.append(f"{names} tie on {pts[i]} points; the rulebook names no tie-break, so they share {place}.")
        elif len({claimed[j] for j in tied}) == len(tied):
            detail = ", ".join(f"{s.names[j]} {claimed[j]}" for j in tied)
            sentences.append(f"{names} tie on {pts[i]} points; by the house rule more sheep claimed breaks it ({detail}).")
        else:
            sentences.append(f"{names} tie on {pts[i]} points; by the house rule sheep claimed "
                             f"({', '.join(str(claimed[j]) for j in tied)}) do not fully separate them, "
                             "so tied players share their place.")
    return tuple(s.names[i] for i in order), " ".join(sentences) or None


def winners(s: FleecedState) -> tuple[str, ...]:
    """Everyone level with the leader: on points, and on sheep claimed under the house rule."""
    keys = _rank_keys(s)
    best = min(keys)
    return tuple(n for n, k in zip(s.names, keys, strict=True) if k == best)


def shared_places(s: FleecedState) -> tuple[tuple[str, ...], ...]:
    """Players level on every ranking key (points, and sheep claimed under the house
    rule), lower places too: each group shares its place on the Results."""
    keys = _rank_keys(s)
    order = ranking(s)[0]
    groups: dict[tuple[int, ...], list[str]] = {}
    for name in order:
        groups.setdefault(keys[s.names.index(name)], []).append(name)
    return tuple(tuple(g) for g in groups.values() if len(g) > 1)
