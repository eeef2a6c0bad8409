"""The end: claimed sheep by kind, totals, ranking and the tie-break sentence."""

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


def ranking(s: FleecedState) -> tuple[tuple[str, ...], str | None]:
    """Highest value first.  The rulebook names no tie-break: more sheep claimed
    breaks a tie on points; still tied, they share the place (seating order lists them)."""
    pts = [points(t) for t in s.tallies]
    claimed = s.sheep.claimed
    order = sorted(range(len(s.names)), key=lambda i: (-pts[i], -claimed[i], i))
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
        by_count = sorted({claimed[j] for j in tied}, reverse=True)
        if len(by_count) == len(tied):
            detail = ", ".join(f"{s.names[j]} {claimed[j]}" for j in tied)
            sentences.append(f"{names} tie on {pts[i]} points; more sheep claimed breaks it ({detail}).")
        else:
            sentences.append(f"{names} tie on {pts[i]} points; sheep claimed ({', '.join(str(claimed[j]) for j in tied)}) "
                             "do not fully separate them, so tied players share their place.")
    return tuple(s.names[i] for i in order), " ".join(sentences) or None


def winners(s: FleecedState) -> tuple[str, ...]:
    """Everyone level with the leader on points and on sheep claimed (the tie-break)."""
    pts = [points(t) for t in s.tallies]
    claimed = s.sheep.claimed
    best = max(zip(pts, claimed, strict=True))
    return tuple(n for n, p, c in zip(s.names, pts, claimed, strict=True) if (p, c) == best)
