"""Games by name.  Each game lives in its own module under ``companion.games``
and exposes ``GAME``; modules are imported on first use so that listing games
or replaying one never pays for the others."""

from __future__ import annotations

import importlib

from .errors import UnknownGame
from .game import Game

# The five games of the product, in the order the picker shows them.
BUILTIN: dict[str, str] = {
    "shear-panic": "companion.games.shear_panic",
    "fleeced": "companion.games.fleeced",
    "battle-sheep": "companion.games.battle_sheep",
    "sheep-hop": "companion.games.sheep_hop",
    "pendleton-hill": "companion.games.pendleton_hill",
}

_extra: dict[str, Game] = {}
_loaded: dict[str, Game] = {}


def register(game: Game) -> None:
    """Add a game at run time (plugins, and the core's own test game)."""
    _extra[game.name] = game


def names() -> list[str]:
    return [*BUILTIN, *(n for n in _extra if n not in BUILTIN)]


def get(name: str) -> Game:
    if name in _extra:
        return _extra[name]
    if name in _loaded:
        return _loaded[name]
    if name not in BUILTIN:
        raise UnknownGame(name, names())
    module = importlib.import_module(BUILTIN[name])
    game: Game = module.GAME
    _loaded[name] = game
    return game
