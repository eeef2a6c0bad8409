"""Applying one table event to the twin: each function checks the rules and
returns a new state, or raises the refusal naming the rulebook section.

Nothing here mutates its input: lists are copied, changed and frozen again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .board import MIN_FLOCK_TO_LEAVE
from .moves import MIXED, OTHER, OWN, action_moves, allowed_roles, colour_role, flock_role, may_stop, wolf_may_move
from .state import CARDS_PER_KIND, DECK_CARDS, HAND_SIZE, KINDS, SETUP_SHEPHERDS, Card, HillState, Phase, TurnSoFar

if TYPE_CHECKING:
    from companion.game import Game

ONE_RULE = 'The "1" Card'
PLUS_RULE = 'The "1+1" Card'
TWO_RULE = 'The "2" Card'


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _remove_one(flock: tuple[int, ...], seat: int) -> tuple[int, ...]:
    i = flock.index(seat)
    return flock[:i] + flock[i + 1 :]


def _card_rule(now: TurnSoFar) -> str:
    return {Card.ONE: ONE_RULE, Card.ONE_PLUS_ONE: PLUS_RULE, Card.TWO: TWO_RULE}.get(now.as_, "Actions")  # type: ignore[arg-type]


# -- reading payloads ----------------------------------------------------------


def pasture(g: Game, s: HillState, payload: Mapping[str, Any], key: str) -> int:
    pid = payload.get(key)
    if not isinstance(pid, str) or pid not in s.board.index:
        raise g.refuse(f"{key!r} must name a pasture ({', '.join(s.board.ids)}), got {pid!r}", "The Board")
    return s.board.index[pid]


def colour(g: Game, s: HillState, payload: Mapping[str, Any], key: str = "colour") -> int:
    """A colour is named by the player who owns it; it defaults to the active player's."""
    name = payload.get(key, s.names[s.active])
    if name not in s.names:
        raise g.refuse(f"{key!r} must be a player's name (their colour): {', '.join(s.names)}; got {name!r}", "Components")
    return s.names.index(name)


def pen(g: Game, s: HillState, payload: Mapping[str, Any]) -> int:
    n = payload.get("pen")
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(s.pens):
        raise g.refuse(f"'pen' must be a pen number 1 to {len(s.pens)}, got {n!r}", "The Board")
    if n - 1 not in s.pens_used:
        raise g.refuse(f"pen {n} (the pen with the black sheep) is not used in a 3-player game", "The Board")
    return n - 1


# -- turn order ----------------------------------------------------------------


def _holds_cards(s: HillState, seat: int) -> bool:
    return s.hands[seat] > 0 or s.sheepdogs[seat]


def next_turn(s: HillState) -> HillState:
    """Play passes left to the next player who still holds a card; none left ends the game."""
    n = len(s.names)
    for k in range(1, n + 1):
        seat = (s.active + k) % n
        if _holds_cards(s, seat):
            return replace(s, phase=Phase.CARD, active=seat, turn=s.turn + 1, now=TurnSoFar())
    return replace(s, phase=Phase.OVER, now=TurnSoFar())


def end_actions(s: HillState) -> HillState:
    """The actions are over: draw a replacement if the deck has one, then pass the turn.

    The card drawn stays secret, so the draw is not an event: the twin counts it
    (the deck one fewer, the hand one more) and the next prompt tells the player.
    Old records reported each draw: they wait for it (``Phase.DRAW``).
    """
    if s.deck <= 0:
        return next_turn(replace(s, drew=None))
    if s.reported:
        return replace(s, phase=Phase.DRAW)
    me = s.active
    return next_turn(replace(s, deck=s.deck - 1, hands=_set(s.hands, me, s.hands[me] + 1), drew=me))


def _complete(now: TurnSoFar) -> bool:
    if now.as_ is Card.TWO and (now.wolf_steps >= 2 or now.wolf_stopped):
        return True
    return not allowed_roles(now) and not wolf_may_move(now)


def _after_action(s: HillState, now: TurnSoFar) -> HillState:
    s = replace(s, now=now)
    return end_actions(s) if _complete(now) else s


# -- cards -----------------------------------------------------------------------


def reported_deal(s: HillState) -> HillState:
    """An old record starts with the deal reported card by card: count it from nothing."""
    return replace(s, phase=Phase.DEAL, deck=DECK_CARDS, hands=(0,) * len(s.names), reported=True)


def draw(g: Game, s: HillState, payload: Mapping[str, Any]) -> HillState:
    """A card dealt or drawn, as old records report it: counted, its kind only checked to be one."""
    kind = payload.get("card")
    if kind is not None and kind not in [k.value for k in KINDS]:
        raise g.refuse(f"a drawn card is '1', '1+1' or '2', got {kind!r}", "Components")
    if s.deck <= 0:
        raise g.refuse("the deck is empty: no card is left to draw", "Components")
    s = replace(s, deck=s.deck - 1, hands=_set(s.hands, s.active, s.hands[s.active] + 1))
    if s.phase is Phase.DRAW:
        return next_turn(replace(s, drew=None))
    dealt = s.placed + 1  # Set Up: dealt one at a time around the table
    n = len(s.names)
    if dealt == HAND_SIZE * n:
        return replace(s, phase=Phase.SETUP, active=0, placed=0)
    return replace(s, active=dealt % n, placed=dealt)


def play_card(g: Game, s: HillState, payload: Mapping[str, Any]) -> HillState:
    kind = payload.get("card")
    as_ = payload.get("as")
    names = [k.value for k in KINDS]
    if kind == Card.SHEEPDOG.value:
        if not s.sheepdogs[s.active]:
            raise g.refuse("your Sheepdog card is already used: it may only be used once", "The Sheepdog Card")
        if as_ not in names:
            raise g.refuse(f"say what the Sheepdog card is used as ('as': '1', '1+1' or '2'), got {as_!r}", "The Sheepdog Card")
        now = TurnSoFar(card=Card.SHEEPDOG, as_=Card(as_))
        s = replace(s, sheepdogs=_set(s.sheepdogs, s.active, False))
    else:
        if kind not in names:
            raise g.refuse(f"'card' must be '1', '1+1', '2' or 'sheepdog', got {kind!r}", "The Cards")
        if as_ is not None and as_ != kind:
            raise g.refuse(f"only the Sheepdog card is wild: a '{kind}' card cannot be used as '{as_}'", "The Sheepdog Card")
        # The hand is secret: only what the counts show can be checked.
        i = names.index(kind)
        if s.hands[s.active] == 0:
            raise g.refuse(f"{s.names[s.active]} holds no card but the Sheepdog card", "Sequence of Play")
        if s.played[i] >= CARDS_PER_KIND:
            raise g.refuse(f"all {CARDS_PER_KIND} '{kind}' cards have already been played", "Components")
        now = TurnSoFar(card=Card(kind), as_=Card(kind))
        s = replace(s, hands=_set(s.hands, s.active, s.hands[s.active] - 1), played=_set(s.played, i, s.played[i] + 1))
    return replace(s, phase=Phase.ACTION, now=now, note="", news=False, drew=None)


def done(g: Game, s: HillState) -> HillState:
    if not may_stop(s, bool(action_moves(s))):
        if s.now.as_ is Card.ONE_PLUS_ONE:
            need = "your own colour" if not s.now.own else "another player's colour"
            raise g.refuse(f"the 1+1 card requires an action for {need} as well, and one is possible", PLUS_RULE)
        raise g.refuse("take at least one action with the card you played", "Actions")
    return end_actions(s)


# -- the colour conditions of each card -------------------------------------------


def check_role(g: Game, s: HillState, role: str, what: str) -> TurnSoFar:
    """Refuse an action the played card does not allow; return the turn with it counted."""
    now = s.now
    if role in allowed_roles(now):
        if now.as_ is Card.ONE_PLUS_ONE:
            return replace(now, actions=now.actions + 1, own=now.own or role == OWN, other=now.other or role == OTHER)
        return replace(now, actions=now.actions + 1)
    if now.as_ is Card.TWO and now.wolf_steps:
        raise g.refuse("when using the 2 card to move the wolf a player may not do anything else", "The Wolf")
    if now.as_ is Card.ONE_PLUS_ONE:
        if role == MIXED:
            raise g.refuse("with the 1+1 card a player cannot move a flock that contains both their sheep and other players' sheep", PLUS_RULE)
        if role == OWN:
            raise g.refuse(f"{what} is a second action for your own colour; the 1+1 card's other action must be for another player's colour, not yours", PLUS_RULE)
        raise g.refuse(f"{what} is a second action for another colour; the 1+1 card's other action must be for your own colour", PLUS_RULE)
    if now.as_ is Card.TWO:
        if what.startswith("moving"):
            raise g.refuse("with the 2 card a player may not move a flock that contains only other players' sheep", TWO_RULE)
        raise g.refuse(f"{what} does not involve your colour: the 2 card's actions may only involve your own colour", TWO_RULE)
    raise g.refuse("the card's actions are all taken", _card_rule(now))


# -- placing ---------------------------------------------------------------------


def place_shepherd(g: Game, s: HillState, payload: Mapping[str, Any]) -> HillState:
    p = pasture(g, s, payload, "pasture")
    c = colour(g, s, payload)
    name = s.names[c]
    rule = "Set Up" if s.phase is Phase.SETUP else "Actions"
    if s.phase is Phase.SETUP and c != s.active:
        raise g.refuse(f"during set up each player places one of their own shepherds, not {name}'s", "Set Up")
    if s.shepherd_pool[c] == 0:
        raise g.refuse(f"all 7 of {name}'s shepherds are on the hill", "Components")
    if c in s.shepherds[p]:
        raise g.refuse(f"pasture {s.board.ids[p]} already has a {name} shepherd: never more than one shepherd of the same colour in a pasture", rule)
    now = None if s.phase is Phase.SETUP else check_role(g, s, colour_role(c, s.active), f"placing {name}'s shepherd")
    s = replace(
        s,
        shepherds=_set(s.shepherds, p, s.shepherds[p] | {c}),
        shepherd_pool=_set(s.shepherd_pool, c, s.shepherd_pool[c] - 1),
        note=f"{name}'s shepherd placed on {s.board.ids[p]}.",
        news=False,
    )
    if now is not None:
        return _after_action(s, now)
    placed = s.placed + 1
    n = len(s.names)
    if placed == SETUP_SHEPHERDS * n:
        return replace(s, phase=Phase.CARD, active=0, placed=0, turn=1)
    return replace(s, active=placed % n, placed=placed)


def place_sheep(g: Game, s: HillState, payload: Mapping[str, Any]) -> HillState:
    k = pen(g, s, payload)
    c = colour(g, s, payload)
    name = s.names[c]
    if len(s.pens[k]) >= s.board.pen_spaces[k]:
        raise g.refuse(f"pen {k + 1} is full: there can only be one sheep per space ({s.board.pen_spaces[k]} spaces)", "Moving Flocks")
    if s.sheep_pool[c] == 0:
        raise g.refuse(f"{name} has no sheep left to place: all 6 are on the board", "Components")
    now = check_role(g, s, colour_role(c, s.active), f"placing {name}'s sheep")
    s = replace(
        s,
        pens=_set(s.pens, k, tuple(sorted((*s.pens[k], c)))),
        sheep_pool=_set(s.sheep_pool, c, s.sheep_pool[c] - 1),
        note=f"{name}'s sheep placed in pen {k + 1}.",
        news=False,
    )
    return _after_action(s, now)


# -- the wolf and the scoring of an arrival ---------------------------------------


def frighten(g: Game, s: HillState, flock: tuple[int, ...], payload: Mapping[str, Any], wolf_here: bool) -> tuple[tuple[int, ...], int | None]:
    """The wolf frightens one sheep, chosen by the mover; returns the flock and whose sheep ran."""
    chosen = payload.get("frighten")
    if not wolf_here:
        if chosen is not None:
            raise g.refuse("the wolf is not in that pasture, so no sheep is frightened ('frighten' not allowed)", "The Wolf")
        return flock, None
    colours = sorted(set(flock))
    if chosen is None:
        if len(colours) > 1:
            names = ", ".join(s.names[c] for c in colours)
            raise g.refuse(f"the wolf frightens one sheep and the mover chooses which: say 'frighten': one of {names}", "The Wolf")
        c = colours[0]
    else:
        if chosen not in s.names or s.names.index(chosen) not in flock:
            names = ", ".join(s.names[c] for c in colours)
            raise g.refuse(f"the frightened sheep must be one in the flock ({names}), got {chosen!r}", "The Wolf")
        c = s.names.index(chosen)
    return _remove_one(flock, c), c


def arrive(s: HillState, flock: tuple[int, ...], p: int, scared: int | None) -> HillState:
    """A flock has been moved onto pasture p (after the wolf): match, score, clear the top."""
    sheep_pool = list(s.sheep_pool)
    shepherd_pool = list(s.shepherd_pool)
    scores = list(s.scores)
    here = set(s.shepherds[p])
    value = s.board.value[p]
    notes = []
    if scared is not None:
        sheep_pool[scared] += 1
        notes.append(f"The wolf frightened {s.names[scared]}'s sheep off the hill.")
    # Collecting Sheep and Scoring: one sheep per matching shepherd; it cannot be passed up.
    for c in sorted(set(flock)):
        if c in here:
            flock = _remove_one(flock, c)
            here.discard(c)
            sheep_pool[c] += 1
            shepherd_pool[c] += 1
            scores[c] += value
            notes.append(f"{s.names[c]} scored {value} on {s.board.ids[p]}.")
    if flock and p == s.board.top:
        for c in flock:
            sheep_pool[c] += 1
        notes.append("Unmatched sheep at the top returned to their owners.")
        flock = ()
    return replace(
        s,
        flocks=_set(s.flocks, p, flock),
        shepherds=_set(s.shepherds, p, frozenset(here)),
        sheep_pool=tuple(sheep_pool),
        shepherd_pool=tuple(shepherd_pool),
        scores=tuple(scores),
        note=" ".join(notes),
        news=bool(notes),
    )


# -- moving ----------------------------------------------------------------------


def move_flock(g: Game, s: HillState, payload: Mapping[str, Any]) -> HillState:
    if ("pen" in payload) == ("from" in payload):
        raise g.refuse("say where the flock comes from: 'pen' (a pen number) or 'from' (a pasture), not both", "Actions")
    to = pasture(g, s, payload, "to")
    board = s.board
    trails = dict(s.now.trails)
    if "pen" in payload:
        k = pen(g, s, payload)
        flock = s.pens[k]
        if len(flock) < MIN_FLOCK_TO_LEAVE:
            raise g.refuse(f"a flock cannot be moved out of a pen until at least four spaces are filled; pen {k + 1} has {len(flock)}", "Moving Flocks")
        if board.tier[to] != 1:
            raise g.refuse(f"a flock's first move must be onto a pasture of the first (bottom) tier; {board.ids[to]} is in tier {board.tier[to]}", "Moving Flocks")
        left: frozenset[int] = frozenset()
        where = f"pen {k + 1}"
    else:
        p = pasture(g, s, payload, "from")
        flock = s.flocks[p]
        where = board.ids[p]
        if not flock:
            raise g.refuse(f"there is no flock on {where}", "Moving Flocks")
        if to not in board.flock_steps[p]:
            if to in board.touches[p]:
                raise g.refuse(f"a flock may never be moved down to a lower tier ({where} to {board.ids[to]})", "Moving Flocks")
            raise g.refuse(f"{where} and {board.ids[to]} are not adjacent: a flock moves one pasture sideways or up to a connecting pasture", "Moving Flocks")
        left = trails.pop(p, frozenset())
        if to in left:
            raise g.refuse(f"a flock cannot be moved back into {board.ids[to]}, which it left this turn", TWO_RULE)
        left = left | {p}
    if s.flocks[to]:
        raise g.refuse(f"{board.ids[to]} already holds a flock: only one flock may occupy a pasture", "Moving Flocks")
    now = check_role(g, s, flock_role(flock, s.active), f"moving the flock from {where}")
    moved, scared = frighten(g, s, flock, payload, to == s.wolf)
    # The flock leaves where it was (pen or pasture) before it arrives.
    s = replace(s, pens=_set(s.pens, k, ())) if "pen" in payload else replace(s, flocks=_set(s.flocks, p, ()))
    s = arrive(s, moved, to, scared)
    if s.flocks[to]:
        trails[to] = left
    now = replace(now, trails=tuple(sorted(trails.items())))
    return _after_action(s, now)


def move_wolf(g: Game, s: HillState, payload: Mapping[str, Any]) -> HillState:
    now = s.now
    if now.as_ is not Card.TWO:
        raise g.refuse("only a 2 card (or a Sheepdog card used as a 2) moves the wolf", "The Wolf")
    if now.actions:
        raise g.refuse("when using the 2 card to move the wolf a player may not do anything else, and you have already acted", "The Wolf")
    if now.wolf_stopped or now.wolf_steps >= 2:
        raise g.refuse("the wolf has moved as far as it may this turn", "The Wolf")
    to = pasture(g, s, payload, "to")
    board = s.board
    if to not in board.touches[s.wolf]:
        raise g.refuse(f"the wolf moves into a connecting pasture; {board.ids[to]} does not touch {board.ids[s.wolf]}", "The Wolf")
    if to in now.wolf_left:
        raise g.refuse(f"the wolf cannot be moved back into {board.ids[to]}, which it left this turn", "The Wolf")
    flock = s.flocks[to]
    stopped = bool(flock)
    note = f"The wolf moved to {board.ids[to]}."
    if flock:
        # "As soon as the wolf encounters a flock it must stop"; the mover picks the sheep.
        flock, scared = frighten(g, s, flock, payload, True)
        assert scared is not None
        s = replace(s, flocks=_set(s.flocks, to, flock), sheep_pool=_set(s.sheep_pool, scared, s.sheep_pool[scared] + 1))
        note += f" It frightened {s.names[scared]}'s sheep off the hill and stops."
        trails = tuple((p, left) for p, left in now.trails if flock or p != to)
        now = replace(now, trails=trails)
    elif payload.get("frighten") is not None:
        raise g.refuse(f"there is no flock on {board.ids[to]} for the wolf to frighten", "The Wolf")
    now = replace(now, wolf_steps=now.wolf_steps + 1, wolf_left=now.wolf_left | {s.wolf}, wolf_stopped=stopped)
    s = replace(s, wolf=to, note=note, news=stopped)
    return _after_action(s, now)
