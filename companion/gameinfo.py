"""What programs outside Bellwether know a game by: its BoardGameGeek id and
whether the table plays it together (cooperative).

Each game package carries a ``meta.toml`` beside its engine; it is read here
without importing the engine, so listing plays does not load five rules
engines.  A game without one (a plugin, the core's test game) is competitive
and has no BGG id.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .config import Table, load_toml

META = "meta.toml"


@dataclass(frozen=True)
class GameInfo:
    bgg_id: int | None = None  # None: not confirmed, exports leave it empty
    cooperative: bool = False  # the whole table wins or loses together


def _folder(module: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(spec.origin).parent if spec.origin else None


@cache
def for_module(module: str) -> GameInfo:
    """The info in ``meta.toml`` of the package ``module`` (a game's package or one of its modules)."""
    folder = _folder(module)  # a package's own folder, or the folder a module lies in
    if folder is None or not (folder / META).is_file() or folder.name in ("companion", "games"):
        return GameInfo()
    path = folder / META
    t = Table(load_toml(path), path)
    return GameInfo(
        bgg_id=t.integer("bgg_id", None, lo=1),
        cooperative=t.boolean("cooperative", False),
    )
