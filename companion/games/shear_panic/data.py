"""The board facts the rulebook does not print, as data: defaults and validation.

``default_data(players)`` returns everything a game reads from data as one
plain dict (``{"track": ..., "tiles": ..., "flock": ...}``, each the shape of
its shipped TOML file); ``validate_data(data)`` checks such a dict and raises
``ConfigError`` naming the key.  The board calibration step uses both: it
shows the defaults, lets the table correct them, validates and saves them; a
game then carries them in ``options`` so its record replays on its own.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, TypeVar

from companion.errors import ConfigError

from .flock import COUNT, Flock, is_connected
from .tiles import Tile, default_tiles, validate_tiles
from .track import Track, default_track, validate_track

T = TypeVar("T")

LETTERS = {"B": "blue", "G": "green", "R": "red", "Y": "yellow", "K": "black"}


def default_flock() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("flock.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def validate_flock(data: Mapping[str, Any], file: str = "flock") -> Flock:
    """Check a starting flock (``{"rows": [...]}``, front row first)."""
    if not isinstance(data, Mapping):
        raise ConfigError(file, "(flock)", "a table with 'rows'", data)
    rows = data.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise ConfigError(file, "rows", "a list of strings, front row first", "nothing" if rows is None else rows)
    for i, row in enumerate(rows):
        bad = set(row.upper()) - set(LETTERS) - {"."}
        if bad:
            raise ConfigError(file, f"rows[{i}]", "letters B G R Y K or '.'", row)
    flock = Flock.from_rows(rows)
    counts = {c: flock.colours().count(c) for c in COUNT}
    if counts != COUNT:
        raise ConfigError(file, "rows", "2 blue, 2 green, 2 red, 2 yellow and 1 black sheep", counts)
    if not is_connected(p for p, _ in flock.cells):
        raise ConfigError(file, "rows", "one connected flock (sheep sharing sides)", rows)
    return flock


def default_data(players: int) -> dict[str, Any]:
    """The shipped best-known board data for a 3- or 4-player game."""
    return {"track": default_track(players), "tiles": default_tiles(), "flock": default_flock()}


def validate_data(
    data: Mapping[str, Any], players: int | None = None, file: str = "shear-panic"
) -> tuple[Track, tuple[Tile, ...], Flock]:
    """Check board data (the shape of ``default_data``); ConfigError names the key."""
    if not isinstance(data, Mapping):
        raise ConfigError(file, "(data)", "a table with track, tiles and flock", data)
    for key in ("track", "tiles", "flock"):
        if key not in data:
            raise ConfigError(file, key, "a table", "nothing")
    track = _prefixed("track", lambda: validate_track(data["track"], file, players), file)
    tiles = _prefixed("tiles", lambda: validate_tiles(data["tiles"], file), file)
    flock = _prefixed("flock", lambda: validate_flock(data["flock"], file), file)
    return track, tiles, flock


def _prefixed(section: str, check: Callable[[], T], file: str) -> T:
    # The section validators name keys inside their own table; say which table.
    try:
        return check()
    except ConfigError as e:
        raise ConfigError(file, f"{section}.{e.key}", e.expected, e.actual) from None
