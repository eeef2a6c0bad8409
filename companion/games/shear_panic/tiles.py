"""The command-menu tiles (action, restriction symbol, time value), read from data."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from typing import Any

from companion.errors import ConfigError

from .actions import Action


class Symbol(str, Enum):
    OWN = "own"  # sheep-face: only one of your own sheep
    DIE = "die"  # no reverse move unless a die was rolled since the previous action
    NO_REVERSE = "no-reverse"  # crossed-out circle: never undo the previous action
    NONE = "none"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Tile:
    id: str
    action: Action
    symbol: Symbol
    time: int

    def label(self) -> str:
        return f"{self.action.value} ({self.time})"


def default_tiles() -> dict[str, Any]:
    """The shipped best-known command menu, as a plain dict (``{"tile": [...]}``)."""
    text = resources.files(__package__).joinpath("tiles.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def validate_tiles(data: Mapping[str, Any], file: str = "tiles") -> tuple[Tile, ...]:
    """Check a menu table; a bad value raises ConfigError naming its key."""
    if not isinstance(data, Mapping):
        raise ConfigError(file, "(tiles)", "a table with a 'tile' list", data)
    tiles = data.get("tile")
    if not isinstance(tiles, list) or not 1 <= len(tiles) <= 24:
        raise ConfigError(file, "tile", "a list of 1 to 24 tiles", "nothing" if tiles is None else tiles)
    out: list[Tile] = []
    seen: set[str] = set()
    for i, t in enumerate(tiles):
        key = f"tile[{i}]"
        if not isinstance(t, Mapping):
            raise ConfigError(file, key, "a table with id, action, symbol and time", t)
        tid = t.get("id")
        if not isinstance(tid, str) or not tid.strip():
            raise ConfigError(file, f"{key}.id", "a non-empty name", tid)
        if tid in seen:
            raise ConfigError(file, f"{key}.id", "a name no other tile has", tid)
        seen.add(tid)
        try:
            action = Action(t.get("action"))
        except ValueError:
            raise ConfigError(
                file, f"{key}.action", "one of " + ", ".join(a.value for a in Action), t.get("action")
            ) from None
        try:
            symbol = Symbol(t.get("symbol", "none"))
        except ValueError:
            raise ConfigError(
                file, f"{key}.symbol", "one of " + ", ".join(s.value for s in Symbol), t.get("symbol")
            ) from None
        time = t.get("time")
        if isinstance(time, bool) or not isinstance(time, int) or not 1 <= time <= 20:
            raise ConfigError(file, f"{key}.time", "a whole number from 1 to 20", time)
        out.append(Tile(tid, action, symbol, time))
    return tuple(out)
