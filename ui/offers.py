"""What the Table offers as answers right now (no Kivy, so it can be tested
against every game): the prompt's choices, else the game's legal events when
they are few enough to tap, minus what the game's picture takes by touch.
"""

from __future__ import annotations

from typing import Any

from companion.events import thaw
from companion.game import Choice, Prompt
from companion.session import Session

from .history import describe

MAX_LEGAL_AS_CHOICES = 60  # more would not be usable as a list of buttons


def legal_as_choices(session: Session, prompt: Prompt, handled: frozenset[str] = frozenset()) -> tuple[Choice, ...]:
    """The game's legal events as buttons when its prompt lists no choices.

    A game may leave ``choices`` empty where the answers are many (board
    placements, menu actions); if it can enumerate them and they are few
    enough to tap, they are offered, so the generic frame can still play
    every step.  Event types in ``handled`` are left to the game's picture.
    """
    if prompt.dice is not None or not prompt.expects:
        return ()
    try:
        legal = session.game.legal_actions(session.state)
    except Exception:  # an optional helper; without it the prompt's words must do
        return ()
    legal = [e for e in legal if e.type not in handled]
    if not legal or len(legal) > MAX_LEGAL_AS_CHOICES:
        return ()
    return tuple(Choice(describe(e), e.type, thaw(e.payload), e.player) for e in legal)


def picture_events(session: Session) -> list[Any]:
    """The legal events the game's picture offers by touch now (the event types
    the game names in ``Game.touch_events``: no table of games here)."""
    handled = session.game.touch_events
    if not handled:
        return []
    try:
        return [e for e in session.game.legal_actions(session.state) if e.type in handled]
    except Exception:
        return []
