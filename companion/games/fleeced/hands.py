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


def discard(s: FleecedState, card: str) -> FleecedState:
    a = s.active
    hand = s.hands[a]
    if not isinstance(card, str) or card not in hand:
        what = CARD_TITLES.get(card, card) if isinstance(card, str) else repr(card)
        raise refuse(f"{s.player} holds no {what} to put under the pile", rules.CHEESE)
    i = hand.index(card)
    hand = hand[:i] + hand[i + 1 :]
    fresh = s.fresh
    if card in fresh and hand.count(card) < fresh.count(card):
        j = fresh.index(card)
        fresh = fresh[:j] + fresh[j + 1 :]
    return evolve(s, hands=set_at(s.hands, a, hand), fresh=fresh, phase=Phase.ACTIONS)
