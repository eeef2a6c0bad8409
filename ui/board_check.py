"""The one-time board check as data: what the Setup screen's "Check the board" view edits.

Plain Python (no Kivy), so it is tested without a window.  ``BoardCheck``
holds each board file's data (the table's corrected copy in the config dir,
else the shipped file), describes it in plain words, changes the common facts
the table corrects by touch, validates through the game (``validate_setup``)
and saves the files with ``companion.config.dump_toml`` /
``save_text_atomic`` into ``calibration.board.profile_dir(game)``, where
``calibration.board.setup_options`` finds them for every new game.
"""

from __future__ import annotations

import copy
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calibration import board
from companion import registry
from companion.config import dump_toml, load_toml, save_text_atomic
from companion.errors import ConfigError, SetupError


def has_board(game: str) -> bool:
    return game in board.BOARDS


def board_note(game: str, players: int, config_dir: str | None = None) -> tuple[dict[str, Any], str, bool]:
    """(options for the new game's setup, one line for the Setup screen, whether the profile is bad)."""
    if not has_board(game):
        return {}, "", False
    try:
        options = board.setup_options(game, players, config_dir)
    except ConfigError as e:
        # One line: the file's name (its folder is the same for every game), the key, the problem.
        return {}, f"Board check: {str(e).replace(str(Path(e.file).parent) + '/', '', 1)}", True
    if options:
        return options, "Board: as checked at this table (Check the board to change it).", False
    return {}, "Board: the shipped data, not yet checked against your board.", False


@dataclass
class BoardCheck:
    game: str
    players: int
    config_dir: str | None = None
    data: dict[str, dict[str, Any]] = field(default_factory=dict)  # option -> the file's data
    origin: str = "shipped"  # "shipped", "checked" or the reason a checked copy was not used

    def __post_init__(self) -> None:
        if not self.data:
            self.load()

    # -- files -----------------------------------------------------------------
    @property
    def folder(self) -> Path:
        return board.profile_dir(self.game, self.config_dir)

    def path(self, option: str) -> Path:
        f = next(f for f in board.BOARDS[self.game] if f.option == option)
        return self.folder / f.file_for(self.players)

    def shipped(self) -> dict[str, dict[str, Any]]:
        return {
            f.option: tomllib.loads(board._shipped(self.game, f, self.players)) for f in board.BOARDS[self.game]
        }

    def load(self) -> None:
        """The table's checked copy where there is one that loads, else the shipped data."""
        self.data = self.shipped()
        self.origin = "shipped"
        for f in board.BOARDS[self.game]:
            path = self.folder / f.file_for(self.players)
            if path.exists():
                try:
                    self.data[f.option] = load_toml(path)
                    self.origin = "checked"
                except ConfigError as e:
                    self.origin = f"shipped ({e})"

    def reset(self) -> None:
        self.data = self.shipped()
        self.origin = "shipped"

    def options(self) -> dict[str, Any]:
        return {f.option: f.extract(copy.deepcopy(self.data[f.option])) for f in board.BOARDS[self.game]}

    def validate(self) -> None:
        """Raises SetupError (key, expected, actual) when the game would refuse this board."""
        setup = {"players": [{"name": f"Player {i + 1}"} for i in range(self.players)], "options": self.options()}
        registry.get(self.game).validate_setup(setup)

    def save(self) -> list[Path]:
        self.validate()
        stamp = time.strftime("%Y-%m-%d %H:%M")
        written = []
        for f in board.BOARDS[self.game]:
            comment = (
                f"{registry.get(self.game).title}: {f.file_for(self.players)}, checked against the table's own board\n"
                f"on the touchscreen ({stamp}). New games use it; delete this file for the shipped data."
            )
            written.append(save_text_atomic(self.path(f.option), dump_toml(self.data[f.option], comment)))
        self.origin = "checked"
        return written

    def check_error(self) -> str:
        try:
            self.validate()
        except (SetupError, ConfigError) as e:
            return str(e)
        return ""

    # -- plain words -------------------------------------------------------------
    def describe(self) -> list[str]:
        return getattr(self, f"_describe_{self.game.replace('-', '_')}", self._describe_generic)()

    def _describe_shear_panic(self) -> list[str]:
        t = self.data["track"]
        lines = [
            f"Time track: {t['spaces']} spaces for {self.players} players.",
            "Panic spaces (red, circled twice): " + ", ".join(map(str, t.get("panic", []))) + ".",
            "Gates: " + ", ".join(f"{_words(k)}'s gate at {v}" if k == "roger" else f"{_words(k)} gate at {v}" for k, v in t.get("gates", {}).items()) + ".",
            "Pens: " + ", ".join(f"{_words(k)} pen at {v}" for k, v in t.get("pens", {}).items()) + ".",
            "Pictures: " + ", ".join(f"{_words(k)} at {v}" for k, v in t.get("pictures", {}).items()) + ".",
            "Fields: " + ", ".join(f"{_words(k)} {a}-{b}" for k, (a, b) in t.get("fields", {}).items()) + ".",
        ]
        tiles = self.data["tiles"].get("tile", [])
        lines.append(f"The {len(tiles)} tiles: " + "; ".join(f"{_words(x['action'])} {x['time']}" for x in tiles) + ".")
        rows = self.data["flock"].get("rows", [])
        lines.append("Starting flock (rows): " + " / ".join(rows) + ".")
        return lines

    def _describe_pendleton_hill(self) -> list[str]:
        b = self.data["board"]
        lines = [f"Tier values: {', '.join(map(str, b.get('tier_values', [])))}; the wolf starts on {b.get('wolf_start')}."]
        for pid, p in b.get("pastures", {}).items():
            lines.append(f"Pasture {pid} (tier {p['tier']}) touches {', '.join(p.get('touches', []))}.")
        lines.append(f"{len(b.get('pens', []))} pens: " + ", ".join(f"{p['spaces']} spaces" + (" (black sheep)" if p.get("black_sheep") else "") for p in b.get("pens", [])) + ".")
        return lines

    def _describe_sheep_hop(self) -> list[str]:
        b = self.data["board"]
        meadow = b.get("meadow", {})
        rows = meadow.get("rows", [])
        lines = [
            f"Sheep colours: {', '.join(b.get('sheep', {}).get('colours', []))}.",
            "Die faces: " + ", ".join(_words(f["name"]) for f in b.get("die", {}).get("faces", [])) + ".",
            f"Meadow: {len(rows)} rows of {max((len(r) for r in rows), default=0)}; the pen is to the {meadow.get('pen', '?')}.",
        ]
        for w in b.get("wolves", []):
            lines.append(f"The {w['name']} wolf walks {w.get('direction', '')} round {len(w.get('path', []))} spaces, "
                         f"from {tuple(w['path'][0]) if w.get('path') else '?'}.")
        return lines

    def _describe_battle_sheep(self) -> list[str]:
        hexes = self.data["board"].get("board", {}).get("hexes", [])
        cells = ", ".join(f"({q}, {r})" for q, r in hexes)
        return [f"Each pasture board is {len(hexes)} hexagons, at {cells} (q, r).",
                "The field is built by touch on the Table when the game starts."]

    def _describe_generic(self) -> list[str]:
        lines = []
        for option, data in self.data.items():
            for key, value in data.items():
                text = value if not isinstance(value, (dict, list)) else f"{len(value)} entries"
                lines.append(f"{_words(option)}: {_words(key)}: {text}")
        return lines

    # -- the corrections the table makes by touch -----------------------------------
    def toggle_panic(self, space: int) -> None:
        panic = set(self.data["track"].setdefault("panic", []))
        panic ^= {space}
        self.data["track"]["panic"] = sorted(panic)

    def move(self, group: str, key: str, delta: int) -> int:
        """Move a Shear Panic gate or picture (group "gates" / "pictures") along the track."""
        t = self.data["track"]
        value = max(1, min(int(t["spaces"]), int(t[group][key]) + delta))
        t[group][key] = value
        return value

    def tile_time(self, index: int, delta: int) -> int:
        tile = self.data["tiles"]["tile"][index]
        tile["time"] = max(0, min(9, int(tile["time"]) + delta))
        return tile["time"]

    def pastures(self) -> list[str]:
        return list(self.data["board"].get("pastures", {}))

    def touches(self, a: str, b: str) -> bool:
        return b in self.data["board"]["pastures"][a].get("touches", [])

    def toggle_touch(self, a: str, b: str) -> None:
        """Pastures touch both ways: the change is made on both."""
        if a == b:
            return
        pastures = self.data["board"]["pastures"]
        on = not self.touches(a, b)
        for x, y in ((a, b), (b, a)):
            lst = [p for p in pastures[x].get("touches", []) if p != y]
            if on:
                lst.append(y)
            pastures[x]["touches"] = sorted(lst)


def _words(key: str) -> str:
    return {"roger": "Roger", "shearing": "shearing", "shearer": "the Shearer", "black-sheep": "black sheep"}.get(
        key, key.replace("-", " ")
    )
