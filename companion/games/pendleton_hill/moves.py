"""Every event the rules allow now, enumerated directly (not by trial), so the
prompt can offer them as buttons and a random player can pick one cheaply.

Moves are ``(type, payload, player)`` triples; ``legal_actions`` turns them into
events.  The property tests check that each one is accepted by ``apply``.
"""

from __future__ import annotations

from typing import Any

from .board import MIN_FLOCK_TO_LEAVE
from .state import CARDS_PER_KIND, KINDS, Card, HillState, Phase, TurnSoFar

OWN, OTHER, MIXED = "own", "other", "mixed"

Move = tuple[str, dict[str, Any], str | None]


def flock_role(flock: tuple[int, ...], seat: int) -> str:
    """Whose colour moving this flock involves, as the card rules see it."""
    if seat not in flock:
        return OTHER
    return OWN if flock[0] == flock[-1] else MIXED  # sorted: all equal means only own sheep


def colour_role(colour: int, seat: int) -> str:
    return OWN if colour == seat else OTHER


def allowed_roles(now: TurnSoFar) -> frozenset[str]:
    """The kinds of action the played card still allows (empty when it is used up)."""
    if now.as_ is Card.ONE:
        return frozenset((OWN, OTHER, MIXED)) if now.actions == 0 else frozenset()
    if now.as_ is Card.ONE_PLUS_ONE:
        # "one action only for their own color and one for ... other player's color";
        # a flock of mixed colours is neither, so it is never allowed.
        return frozenset(r for r, done in ((OWN, now.own), (OTHER, now.other)) if not done)
    if now.as_ is Card.TWO:
        if now.wolf_steps or now.actions >= 2:
            return frozenset()
        return frozenset((OWN, MIXED))  # "only involving their color"; a flock needs one of theirs
    return frozenset()


def wolf_may_move(now: TurnSoFar) -> bool:
    return now.as_ is Card.TWO and now.actions == 0 and now.wolf_steps < 2 and not now.wolf_stopped


def _frighten_variants(s: HillState, flock: tuple[int, ...]) -> list[dict[str, Any]]:
    colours = sorted(set(flock))
    if len(colours) <= 1:
        return [{}]
    return [{"frighten": s.names[c]} for c in colours]


def action_moves(s: HillState) -> list[Move]:
    """The actions the active player may take now with the card played."""
    me = s.active
    who = s.names[me]
    now = s.now
    roles = allowed_roles(now)
    board = s.board
    out: list[Move] = []
    if roles:
        for c, name in enumerate(s.names):
            if colour_role(c, me) not in roles:
                continue
            if s.shepherd_pool[c] > 0:
                for p, here in enumerate(s.shepherds):
                    if c not in here:
                        out.append(("place-shepherd", {"pasture": board.ids[p], "colour": name}, who))
            if s.sheep_pool[c] > 0:
                for pen in s.pens_used:
                    if len(s.pens[pen]) < board.pen_spaces[pen]:
                        out.append(("place-sheep", {"pen": pen + 1, "colour": name}, who))
        for pen in s.pens_used:
            flock = s.pens[pen]
            if len(flock) >= MIN_FLOCK_TO_LEAVE and flock_role(flock, me) in roles:
                for p in board.bottom:
                    if not s.flocks[p]:
                        for extra in _frighten_variants(s, flock) if p == s.wolf else [{}]:
                            out.append(("move-flock", {"pen": pen + 1, "to": board.ids[p], **extra}, who))
        left = dict(now.trails)
        for p, flock in enumerate(s.flocks):
            if not flock or flock_role(flock, me) not in roles:
                continue
            gone = left.get(p, frozenset())
            for q in board.flock_steps[p]:
                if s.flocks[q] or q in gone:
                    continue
                for extra in _frighten_variants(s, flock) if q == s.wolf else [{}]:
                    out.append(("move-flock", {"from": board.ids[p], "to": board.ids[q], **extra}, who))
    if wolf_may_move(now):
        for q in sorted(board.touches[s.wolf]):
            if q in now.wolf_left:
                continue
            for extra in _frighten_variants(s, s.flocks[q]) if s.flocks[q] else [{}]:
                out.append(("move-wolf", {"to": board.ids[q], **extra}, who))
    return out


def may_stop(s: HillState, has_action: bool) -> bool:
    """Whether the player may end their actions now (the "done" event)."""
    now = s.now
    if not has_action:
        return True  # nothing the card allows is possible: the turn cannot be stuck
    if now.as_ is Card.ONE_PLUS_ONE:
        return False  # the rulebook says the 1+1 card "requires" both actions
    # "1" and "2" cards "allow" their actions, and the wolf moves "up to two spaces".
    return now.actions > 0 or now.wolf_steps > 0


def legal_moves(s: HillState) -> list[Move]:
    if s.phase is Phase.OVER:
        return []
    if s.phase in (Phase.DEAL, Phase.DRAW):
        return [("draw", {}, s.names[s.active])] if s.deck > 0 else []  # an old record's reported draw
    who = s.names[s.active]
    if s.phase is Phase.SETUP:
        return [("place-shepherd", {"pasture": s.board.ids[p]}, who) for p, here in enumerate(s.shepherds) if s.active not in here]
    if s.phase is Phase.CARD:
        # The hand is secret: any kind not yet all played may be in it.
        held = s.hands[s.active] > 0
        out: list[Move] = [("play-card", {"card": k.value}, who) for i, k in enumerate(KINDS) if held and s.played[i] < CARDS_PER_KIND]
        if s.sheepdogs[s.active]:
            out += [("play-card", {"card": Card.SHEEPDOG.value, "as": k.value}, who) for k in KINDS]
        return out
    acts = action_moves(s)
    if may_stop(s, bool(acts)):
        acts.append(("done", {}, who))
    return acts
