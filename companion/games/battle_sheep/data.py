"""Board facts printed only on the physical pieces, as validated data.

The default lives in ``board.toml`` beside this module; a setup option of the
same shape overrides it so that a game record replays without the file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from companion.errors import SetupError

from .hexes import Hex, connected

HEXES_PER_BOARD = 4  # rulebook/box: 16 boards, 4 per player, 4 pastures each
BOARDS_PER_PLAYER = 4
SHEEP_PER_PLAYER = 16


@cache
def _default_text() -> str:
    return resources.files(__package__).joinpath("board.toml").read_text(encoding="utf-8")


def default_board() -> dict[str, Any]:
    """The shipped best-known board data, as a fresh dict ({"hexes": [[q, r], ...]})."""
    return dict(tomllib.loads(_default_text())["board"])


def validate_board(data: Any, key: str = "board") -> dict[str, Any]:
    """Check board data and return it normalised; SetupError names the bad key."""
    if not isinstance(data, Mapping):
        raise SetupError(key, "a table with 'hexes'", data)
    unknown = set(data) - {"hexes"}
    if unknown:
        raise SetupError(f"{key}.{sorted(unknown)[0]}", "no such key (only 'hexes')", data[sorted(unknown)[0]])
    hexes = data.get("hexes")
    if not isinstance(hexes, list | tuple):
        raise SetupError(f"{key}.hexes", f"a list of {HEXES_PER_BOARD} [q, r] pairs", hexes)
    if len(hexes) != HEXES_PER_BOARD:
        raise SetupError(f"{key}.hexes", f"exactly {HEXES_PER_BOARD} [q, r] pairs", len(hexes))
    cells: list[Hex] = []
    for i, h in enumerate(hexes):
        if (
            not isinstance(h, list | tuple)
            or len(h) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in h)
        ):
            raise SetupError(f"{key}.hexes[{i}]", "a pair of whole numbers [q, r]", h)
        cells.append((h[0], h[1]))
    if len(set(cells)) != len(cells):
        raise SetupError(f"{key}.hexes", "distinct hexes", [list(c) for c in cells])
    if not connected(cells):
        raise SetupError(f"{key}.hexes", "hexes joined by sides into one piece", [list(c) for c in cells])
    return {"hexes": [list(c) for c in cells]}
