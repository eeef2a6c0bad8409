"""Games by name.  Each game lives in its own module under ``companion.games``
and exposes ``GAME``; modules are imported on first use so that listing games
or replaying one never pays for the others."""

from __future__ import annotations

import importlib
import importlib.util

from . import gameinfo
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

# Their titles, so a picker can list them without importing five engines
# (~2 MB of Python objects; tests check these against each game's own title).
TITLES: dict[str, str] = {
    "shear-panic": "Shear Panic",
    "fleeced": "Fleeced!",
    "battle-sheep": "Battle Sheep",
    "sheep-hop": "Sheep Hop!",
    "pendleton-hill": "Sheepdogs of Pendleton Hill",
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


def title(name: str) -> str:
    """A game's title, without importing a built-in game's module."""
    if name in _extra:
        return _extra[name].title
    if name in _loaded:
        return _loaded[name].title
    if name in TITLES:
        return TITLES[name]
    raise UnknownGame(name, names())


def missing(name: str) -> str | None:
    """Why a game cannot be loaded, if its module is not even there; else None.

    Only looks for the module: an engine that is there but fails on import
    raises from ``get`` when it is picked."""
    if name in _extra or name in _loaded:
        return None
    if name not in BUILTIN:
        raise UnknownGame(name, names())
    try:
        found = importlib.util.find_spec(BUILTIN[name]) is not None
    except (ImportError, ValueError) as e:  # its parent package is missing or broken
        return f"{type(e).__name__}: {e}"
    return None if found else f"no module named {BUILTIN[name]}"


def info(name: str) -> gameinfo.GameInfo:
    """A game's BGG id and cooperative flag by registry name, without importing a built-in game's engine."""
    if name in BUILTIN:
        return gameinfo.for_module(BUILTIN[name])
    return get(name).info
