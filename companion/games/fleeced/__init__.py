"""Fleeced!: the rules engine (registered as ``fleeced``).  See docs/games/fleeced.md."""

from __future__ import annotations

from .engine import Fleeced

GAME = Fleeced()

__all__ = ["GAME", "Fleeced"]
