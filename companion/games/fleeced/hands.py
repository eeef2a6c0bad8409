"""Cheese Card hands.  The app never sees the cards: it keeps what the table taps.

A hand is a tuple of card kinds; cards dealt at the start are ``"?"`` unless the
setup names them, and a ``"?"`` can stand for any card the player later plays.
"""

from __future__ import annotations

from . import rules
from .board import CARD_KINDS, CARD_TITLES, HAND_LIMIT, HARD_CHEESE, KEYS, SKELETON_KEY, UNSEEN
from .rules import refuse
from .state import FleecedState, Phase, evolve, set_at
from .turns import arrest


def can_play(s: FleecedState, who: int, card: str) -> bool:
    """A card in hand that was not drawn this turn (a ``"?"`` can be any card)."""
    hand = s.hands[who]
    fresh = s.fresh.count(card) if who == s.active else 0
    return hand.count(card) > fresh or UNSEEN in hand


def play(s: FleecedState, who: int, card: str) -> FleecedState:
    """Take ``card`` out of ``who``'s hand; keys are set aside, other cards go under the pile."""
    hand = s.hands[who]
    if not can_play(s, who, card):
        if card in hand:
            raise refuse(f"{CARD_TITLES[card]} was drawn this turn and cannot be played until a later one", rules.CHEESE)
        raise refuse(f"{s.names[who]} holds no {CARD_TITLES.get(card, card)}", rules.CHEESE)
    fresh = s.fresh.count(card) if who == s.active else 0
    i = hand.index(card) if hand.count(card) > fresh else hand.index(UNSEEN)
    s = evolve(s, hands=set_at(s.hands, who, hand[:i] + hand[i + 1 :]))
    if card in KEYS or card == SKELETON_KEY:
        s = evolve(s, keys_aside=(*s.keys_aside, card))
    return s


def draw(s: FleecedState, card: str) -> FleecedState:
    if card not in CARD_KINDS:
        raise refuse(f"a Cheese Card is one of {', '.join(CARD_KINDS)}, not {card!r}", rules.CHEESE)
    if card == HARD_CHEESE:
        return arrest(s, "Hard Cheese!")
    a = s.active
    hand = (*s.hands[a], card)
    s = evolve(s, hands=set_at(s.hands, a, hand), fresh=(*s.fresh, card))
    return evolve(s, phase=Phase.DISCARD if len(hand) > HAND_LIMIT else Phase.ACTIONS)


# Which copy of a kind a discard puts back, when the hand holds one drawn this
# turn and one from before ("place one of your Cheese Cards (your choice) under
# the pile"): the choice decides whether the kind can still be played this turn.
DRAWN = "drawn"  # the copy just picked up (the one held before stays playable)
HELD = "held"  # a copy held from before (the new one cannot be played this turn)
COPIES = (DRAWN, HELD)


def copies(s: FleecedState, card: str) -> tuple[int, int]:
    """(drawn this turn, held from before) copies of ``card`` in the active hand."""
    drawn = s.fresh.count(card)
    return drawn, s.hands[s.active].count(card) - drawn


def discard(s: FleecedState, card: str, copy: str | None = None) -> FleecedState:
    """Put one ``card`` under the pile; ``copy`` says which (``None``: one held
    from before when there is one, as every record made before ``copy`` existed
    was played)."""
    a = s.active
    hand = s.hands[a]
    if not isinstance(card, str) or card not in hand:
        what = CARD_TITLES.get(card, card) if isinstance(card, str) else repr(card)
        raise refuse(f"{s.player} holds no {what} to put under the pile", rules.CHEESE)
    title = CARD_TITLES.get(card, card)
    drawn, held = copies(s, card)
    if copy is None:
        copy = HELD if held else DRAWN
    elif copy not in COPIES:
        raise refuse(f"copy is {DRAWN!r} (the card just drawn) or {HELD!r} (one held from before), not {copy!r}",
                     rules.CHEESE)
    if copy == DRAWN and not drawn:
        raise refuse(f"{s.player} drew no {title} this turn: the one in hand was held from before", rules.CHEESE)
    if copy == HELD and not held:
        raise refuse(f"{s.player}'s {title} was drawn this turn; none is held from before", rules.CHEESE)
    fresh = s.fresh
    if copy == DRAWN:
        # The copy drawn last sits last in the hand (draw appends it).
        i = len(hand) - 1 - hand[::-1].index(card)
        j = len(fresh) - 1 - fresh[::-1].index(card)
        fresh = fresh[:j] + fresh[j + 1 :]
    else:
        i = hand.index(card)
    hand = hand[:i] + hand[i + 1 :]
    return evolve(s, hands=set_at(s.hands, a, hand), fresh=fresh, phase=Phase.ACTIONS)
