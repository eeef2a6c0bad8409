"""Rulebook section names and the refusal every illegal event raises."""

from __future__ import annotations

from companion.errors import IllegalAction

SETUP = "Setting Up the Game"
WHISTLE = "Your Sheep Whistle"
TURN = "Your Turn"
MOVING = "Moving around the Board"
ABANDON = "Abandon Sheep!"
CHEESE = "Cheese Cards"
HIDEOUT = "Opening a Sheep Hideout"
RUSTLING = "Rustling!"
HOME = "Leading Sheep Home"
NICKED = "Nicked!"
VICTORY = "Victory!"
FIRST = "Setting Up the Game (who goes first)"


def refuse(message: str, rule: str) -> IllegalAction:
    """Same shape as ``Game.refuse``, for the helper modules that have no game object."""
    return IllegalAction(message, f"Fleeced!, {rule}")
