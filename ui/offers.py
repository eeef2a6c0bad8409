"""What the Table offers as answers right now (no Kivy, so it can be tested
against every game): the prompt's choices, else the game's legal events when
they are few enough to tap, minus what the game's picture takes by touch.
"""

from __future__ import annotations

from typing import Any

from companion.events import thaw
from companion.game import Choice, Prompt
from companion.games.battle_sheep import touch as battle_sheep_touch
from companion.games.pendleton_hill import touch as pendleton_touch
from companion.games.shear_panic import words as shear_panic_words
from companion.games.sheep_hop import touch as sheep_hop_touch
from companion.session import Session

from .history import describe

MAX_LEGAL_AS_CHOICES = 60  # more would not be usable as a list of buttons

# Event types each game's picture (ui/boards) takes by touch instead of a list.
PICTURE_HANDLES: dict[str, frozenset[str]] = {
    # every step on the field: a board's place and how it lies, the starting
    # stacks, a stack then where it stops then how many go, quick mode's figures
    "battle-sheep": battle_sheep_touch.EVENT_TYPES,
    # touch a sheep, a tile of the command menu, then an arrow on the flock
    "shear-panic": frozenset(shear_panic_words.SHEEP_EVENTS),
    # These two games say it themselves (``companion/games/<game>/touch.py``).
    "pendleton-hill": pendleton_touch.HANDLES,  # touch where a piece goes
    "sheep-hop": sheep_hop_touch.HANDLES,  # touch a sheep, a wolf's path
}


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
    """The legal events the game's picture offers by touch now."""
    handled = PICTURE_HANDLES.get(session.game.name, frozenset())
    if not handled:
        return []
    try:
        return [e for e in session.game.legal_actions(session.state) if e.type in handled]
    except Exception:
        return []
