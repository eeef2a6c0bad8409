"""The time track: fields, gates, pens, panic spaces and pictures, read from data.

The rulebook gives the track lengths and the field ranges; the gates, panic
spaces and pictures are only printed on the board, so they come from
``track-3.toml`` / ``track-4.toml`` (or a setup's ``options.track``) and every
rule asks this object rather than a constant.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from companion.errors import ConfigError

FIELDS: tuple[str, ...] = ("teammates", "roger", "black-sheep", "shearing")
TRIGGERS: tuple[str, ...] = ("roger-gate", "roger-pen", "shearing-gate", "final-pen")


@dataclass(frozen=True)
class Track:
    spaces: int
    fields: tuple[tuple[str, int, int], ...]  # (name, first space, last space), in track order
    roger_gate: int
    roger_pen: int
    shearing_gate: int
    final_pen: int
    roger_picture: int
    shearer_picture: int
    panic: frozenset[int]

    def field(self, space: int) -> str:
        """The field the counter is in (space 0, the starting pen, leads into the teammates' field)."""
        for name, lo, hi in self.fields:
            if lo <= space <= hi:
                return name
        return self.fields[0][0] if space < self.fields[0][1] else self.fields[-1][0]

    def in_field(self, space: int, name: str) -> bool:
        return any(n == name and lo <= space <= hi for n, lo, hi in self.fields)

    def triggers(self, old: int, new: int) -> list[str]:
        """Gates and pens the counter reaches or passes moving from ``old`` to ``new``, in order."""
        at = {
            "roger-gate": self.roger_gate,
            "roger-pen": self.roger_pen,
            "shearing-gate": self.shearing_gate,
            "final-pen": self.final_pen,
        }
        return sorted((t for t in TRIGGERS if old < at[t] <= new), key=lambda t: at[t])

    def roger_present(self, space: int) -> bool:
        # Placed at his picture, removed as soon as the counter reaches the pen ending his field.
        return self.roger_picture <= space < self.roger_pen

    def shearer_present(self, space: int) -> bool:
        return space >= self.shearer_picture

    def to_json(self) -> dict[str, Any]:
        return {
            "spaces": self.spaces,
            "fields": {name: [lo, hi] for name, lo, hi in self.fields},
            "gates": {"roger": self.roger_gate, "shearing": self.shearing_gate},
            "pens": {"roger": self.roger_pen, "final": self.final_pen},
            "pictures": {"roger": self.roger_picture, "shearer": self.shearer_picture},
            "panic": sorted(self.panic),
        }


def default_track(players: int) -> dict[str, Any]:
    """The shipped best-known layout for 3 or 4 players, as a plain dict."""
    if players not in (3, 4):
        raise ValueError(f"Shear Panic has tracks for 3 and 4 players, not {players}")
    text = resources.files(__package__).joinpath(f"track-{players}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _int(data: Mapping[str, Any], key: str, file: str, prefix: str, lo: int, hi: int) -> int:
    v = data.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ConfigError(file, prefix + key, f"a whole number from {lo} to {hi}", "nothing" if v is None else v)
    return v


def _table(data: Mapping[str, Any], key: str, file: str) -> Mapping[str, Any]:
    v = data.get(key)
    if not isinstance(v, Mapping):
        raise ConfigError(file, key, "a table", "nothing" if v is None else v)
    return v


def validate_track(data: Mapping[str, Any], file: str = "track", players: int | None = None) -> Track:
    """Check a track table; a bad value raises ConfigError naming its key."""
    if not isinstance(data, Mapping):
        raise ConfigError(file, "(track)", "a table", data)
    spaces = _int(data, "spaces", file, "", 8, 500)
    if players is not None:
        want = {3: 56, 4: 74}.get(players)
        if want is not None and spaces != want:
            raise ConfigError(file, "spaces", f"{want} (the {players}-player track)", spaces)
    fields_t = _table(data, "fields", file)
    fields = []
    expect_start = 1
    for name in FIELDS:
        rng = fields_t.get(name)
        ok = (
            isinstance(rng, list)
            and len(rng) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in rng)
            and rng[0] == expect_start
            and rng[0] <= rng[1]
        )
        if not ok:
            raise ConfigError(
                file,
                f"fields.{name}",
                f"[first, last] spaces starting at {expect_start}",
                "nothing" if rng is None else rng,
            )
        fields.append((name, rng[0], rng[1]))
        expect_start = rng[1] + 1
    if fields[-1][2] != spaces:
        raise ConfigError(file, "fields.shearing", f"a range ending at the last space, {spaces}", list(fields[-1][1:]))
    rng = {name: (lo, hi) for name, lo, hi in fields}
    gates = _table(data, "gates", file)
    pens = _table(data, "pens", file)
    pictures = _table(data, "pictures", file)
    roger_gate = _int(gates, "roger", file, "gates.", *rng["roger"])
    roger_pen = _int(pens, "roger", file, "pens.", roger_gate + 1, rng["roger"][1])
    shearing_gate = _int(gates, "shearing", file, "gates.", rng["shearing"][0], spaces - 1)
    final_pen = _int(pens, "final", file, "pens.", spaces, spaces)
    # Roger must stand at the flock by his gate: the gate scores rows "from Roger".
    roger_picture = _int(pictures, "roger", file, "pictures.", 1, roger_gate)
    shearer_picture = _int(pictures, "shearer", file, "pictures.", 1, shearing_gate)
    panic = data.get("panic", [])
    if not isinstance(panic, list):
        raise ConfigError(file, "panic", "a list of track spaces", panic)
    for i, v in enumerate(panic):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v < spaces:
            raise ConfigError(file, f"panic[{i}]", f"a space from 1 to {spaces - 1}", v)
    if len(set(panic)) != len(panic):
        raise ConfigError(file, "panic", "spaces listed once each", panic)
    return Track(
        spaces=spaces,
        fields=tuple(fields),
        roger_gate=roger_gate,
        roger_pen=roger_pen,
        shearing_gate=shearing_gate,
        final_pen=final_pen,
        roger_picture=roger_picture,
        shearer_picture=shearer_picture,
        panic=frozenset(panic),
    )
