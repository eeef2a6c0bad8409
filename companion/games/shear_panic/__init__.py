"""Shear Panic (Fragor Games, 2005): a twin of the flock that scores itself.

The table reports each action it takes and each die it rolls; the engine
applies the rules to its own flock, so the screen can show the flock to check
against the real one and keep the time track and the scores.  See
``docs/games/shear-panic.md`` for the event vocabulary.

Board facts the rulebook does not print (track layout, command-menu tiles,
starting flock) are data: ``default_data`` and ``validate_data`` serve the
board calibration step.
"""

from __future__ import annotations

from .data import default_data, validate_data
from .game import ShearPanic

GAME = ShearPanic()

__all__ = ["GAME", "ShearPanic", "default_data", "validate_data"]
