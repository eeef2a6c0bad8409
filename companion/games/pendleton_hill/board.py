"""The hill and the pens as data: which pastures touch is printed only on the
physical board, so it lives in ``board.toml`` (a documented best-known
default) and a setup may override it with ``options.board`` of the same shape.

``default_board_data()`` and ``validate_board_data()`` are the two functions a
calibration wizard needs: one gives the shipped default as a plain dict, the
other checks a dict and names the exact key at fault (``ConfigError``).
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from companion.config import Table
from companion.errors import ConfigError

DATA_FILE = "board.toml"
TIER_SIZES = (4, 3, 2, 1)  # certain: "four pastures, ... three, ... two and ... one"
PEN_COUNT = 3  # certain: "Three flocks are depicted ... in sheep pens"
PEN_SPACES = (4, 5)  # certain: "Each flock in a sheep pen is four to five spaces in size"
MIN_FLOCK_TO_LEAVE = 4  # certain: "at least four of the spaces in it are filled"
MAX_FLOCK = 5  # certain: "The maximum size of a flock is five sheep"

_TOP_KEYS = {"tier_values", "wolf_start", "pastures", "pens"}


@lru_cache(maxsize=1)
def _default_text() -> str:
    return resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8")


def default_board_data() -> dict[str, Any]:
    """The shipped board as a fresh plain dict (safe for the caller to change)."""
    return copy.deepcopy(_default_parsed())


@lru_cache(maxsize=1)
def _default_parsed() -> dict[str, Any]:
    return validate_board_data(tomllib.loads(_default_text()), DATA_FILE)


def validate_board_data(data: Mapping[str, Any], file: object = "options.board") -> dict[str, Any]:
    """Check board data and return it normalised; a fault raises ConfigError naming its key."""
    if not isinstance(data, Mapping):
        raise ConfigError(file, "(board)", "a table with tier_values, wolf_start, pastures and pens", data)
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise ConfigError(file, unknown[0], "one of " + ", ".join(sorted(_TOP_KEYS)) + " (unknown key)", data[unknown[0]])
    t = Table(data, file)

    values = t.list(
        "tier_values",
        of=lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
        expected="a list of 4 whole numbers >= 0, the points of tiers 1 to 4",
    )
    if len(values) != len(TIER_SIZES):
        raise ConfigError(file, "tier_values", "a list of 4 whole numbers >= 0, the points of tiers 1 to 4", values)

    pt = t.table("pastures")
    pastures: dict[str, dict[str, Any]] = {}
    for pid in pt.data:
        p = pt.table(pid)
        extra = sorted(set(p.data) - {"tier", "touches"})
        if extra:
            raise ConfigError(file, f"pastures.{pid}.{extra[0]}", "only 'tier' and 'touches' (unknown key)", p.data[extra[0]])
        tier = p.integer("tier", lo=1, hi=len(TIER_SIZES))
        touches = p.list("touches", of=lambda v: isinstance(v, str), expected="a list of pasture ids")
        pastures[str(pid)] = {"tier": tier, "touches": list(touches)}
    counts = [sum(1 for p in pastures.values() if p["tier"] == k) for k in range(1, len(TIER_SIZES) + 1)]
    if tuple(counts) != TIER_SIZES:
        raise ConfigError(file, "pastures", "4, 3, 2 and 1 pastures in tiers 1 to 4", f"{counts[0]}, {counts[1]}, {counts[2]} and {counts[3]}")
    for pid, p in pastures.items():
        key = f"pastures.{pid}.touches"
        for other in p["touches"]:
            if other not in pastures:
                raise ConfigError(file, key, "ids of pastures on this board", other)
            if other == pid:
                raise ConfigError(file, key, "other pastures (a pasture does not touch itself)", other)
            if abs(pastures[other]["tier"] - p["tier"]) > 1:
                raise ConfigError(file, key, "pastures in the same tier or a neighbouring tier", other)
            if pid not in pastures[other]["touches"]:
                raise ConfigError(file, f"pastures.{other}.touches", f"to list {pid!r}, since {pid} lists {other}", pastures[other]["touches"])
        if len(set(p["touches"])) != len(p["touches"]):
            raise ConfigError(file, key, "each pasture listed once", p["touches"])

    wolf = t.string("wolf_start")
    if wolf not in pastures or pastures[wolf]["tier"] != 2:
        raise ConfigError(file, "wolf_start", "the id of a tier-2 pasture (the centre '3' pasture)", wolf)

    pens_raw = t.list("pens", of=lambda v: isinstance(v, Mapping), expected="a list of 3 pen tables")
    if len(pens_raw) != PEN_COUNT:
        raise ConfigError(file, "pens", "a list of 3 pen tables", len(pens_raw))
    pens = []
    for i, raw in enumerate(pens_raw):
        pen = Table(raw, file, f"pens[{i}].")
        extra = sorted(set(raw) - {"spaces", "black_sheep"})
        if extra:
            raise ConfigError(file, f"pens[{i}].{extra[0]}", "only 'spaces' and 'black_sheep' (unknown key)", raw[extra[0]])
        pens.append({"spaces": pen.integer("spaces", lo=PEN_SPACES[0], hi=PEN_SPACES[1]), "black_sheep": pen.boolean("black_sheep", False)})
    if sum(p["black_sheep"] for p in pens) != 1:
        raise ConfigError(file, "pens", "exactly one pen with black_sheep = true (the pen left out with 3 players)", [p["black_sheep"] for p in pens])
    return {"tier_values": list(values), "wolf_start": wolf, "pastures": pastures, "pens": pens}


@dataclass(frozen=True)
class Board:
    """The validated board, indexed for speed: pastures are numbered tier by tier."""

    ids: tuple[str, ...]
    tier: tuple[int, ...]
    value: tuple[int, ...]
    touches: tuple[frozenset[int], ...]  # every touching pasture: where the wolf may go
    flock_steps: tuple[frozenset[int], ...]  # sideways or one tier up: where a flock may go
    wolf_start: int
    pen_spaces: tuple[int, ...]
    black_pen: int
    index: Mapping[str, int]

    @property
    def bottom(self) -> tuple[int, ...]:
        return tuple(i for i, t in enumerate(self.tier) if t == 1)

    @property
    def top(self) -> int:
        return self.tier.index(len(TIER_SIZES))

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Board:
        """Build from *validated* data (``validate_board_data``)."""
        past = data["pastures"]
        order = sorted(past, key=lambda pid: past[pid]["tier"])  # stable: keeps the data's order in a tier
        index = {pid: i for i, pid in enumerate(order)}
        tier = tuple(past[pid]["tier"] for pid in order)
        touches = tuple(frozenset(index[o] for o in past[pid]["touches"]) for pid in order)
        steps = tuple(frozenset(j for j in touches[i] if tier[j] in (tier[i], tier[i] + 1)) for i in range(len(order)))
        pens = data["pens"]
        return cls(
            ids=tuple(order),
            tier=tier,
            value=tuple(data["tier_values"][t - 1] for t in tier),
            touches=touches,
            flock_steps=steps,
            wolf_start=index[data["wolf_start"]],
            pen_spaces=tuple(p["spaces"] for p in pens),
            black_pen=next(i for i, p in enumerate(pens) if p["black_sheep"]),
            index=MappingProxyType(index),
        )


@lru_cache(maxsize=32)
def _board_cached(key: str) -> Board:
    return Board.from_data(json.loads(key))


def board_for(data: Mapping[str, Any]) -> Board:
    """The Board for validated data, shared between states of the same game."""
    return _board_cached(json.dumps(data, sort_keys=True))
