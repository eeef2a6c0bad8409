"""Shear Panic's board check: the time track's printed spaces and the command-menu tiles.

The panic spaces, gates and pictures are printed only on the board and the tile
values only on the menus (see ``track-3.toml``, ``track-4.toml``, ``tiles.toml``);
the table marks the panic spaces, moves the gates and pictures and sets each
tile's time value by touch.  The starting flock is corrected in its file.
"""

from __future__ import annotations

from companion.board_check import BoardCheck, Control, DataFile, Note, Stepper, Toggle, Toggles

FILES = (DataFile("track-{n}.toml", "track"), DataFile("tiles.toml", "tiles"), DataFile("flock.toml", "flock"))
NAMES = {"roger": "Roger", "shearing": "shearing", "shearer": "the Shearer", "black-sheep": "black sheep"}


def words(key: str) -> str:
    return NAMES.get(key, key.replace("-", " "))


class ShearPanicBoard(BoardCheck):
    def describe(self) -> list[str]:
        t = self.data["track"]
        lines = [
            f"Time track: {t['spaces']} spaces for {self.players} players.",
            "Panic spaces (red, circled twice): " + ", ".join(map(str, t.get("panic", []))) + ".",
            "Gates: "
            + ", ".join(
                f"{words(k)}'s gate at {v}" if k == "roger" else f"{words(k)} gate at {v}"
                for k, v in t.get("gates", {}).items()
            )
            + ".",
            "Pens: " + ", ".join(f"{words(k)} pen at {v}" for k, v in t.get("pens", {}).items()) + ".",
            "Pictures: " + ", ".join(f"{words(k)} at {v}" for k, v in t.get("pictures", {}).items()) + ".",
            "Fields: " + ", ".join(f"{words(k)} {a}-{b}" for k, (a, b) in t.get("fields", {}).items()) + ".",
        ]
        tiles = self.data["tiles"].get("tile", [])
        lines.append(f"The {len(tiles)} tiles: " + "; ".join(f"{words(x['action'])} {x['time']}" for x in tiles) + ".")
        rows = self.data["flock"].get("rows", [])
        lines.append("Starting flock (rows): " + " / ".join(rows) + ".")
        return lines

    def controls(self) -> list[Control]:
        track = self.data["track"]
        panic = set(track.get("panic", []))
        out: list[Control] = [
            Note("Touch a space to mark or unmark it as a panic space:"),
            Toggles("panic", tuple(Toggle(str(n), n, n in panic) for n in range(1, int(track["spaces"]) + 1)),
                    self.toggle_panic),
        ]
        for group, noun in (("gates", "gate"), ("pictures", "picture")):
            for key, value in track.get(group, {}).items():
                out.append(Stepper(f"{group}.{key}", f"{words(key)} {noun}", value,
                                   lambda d, g=group, k=key: self.move(g, k, d)))
        out.append(Note("Tile time values:"))
        for i, tile in enumerate(self.data["tiles"].get("tile", [])):
            out.append(Stepper(f"tile.{i}", f"Tile {i + 1}: {words(tile['action'])} ({tile['symbol']})", tile["time"],
                               lambda d, i=i: self.tile_time(i, d)))
        return out

    # -- the corrections --------------------------------------------------------------
    def toggle_panic(self, space: int) -> None:
        panic = set(self.data["track"].setdefault("panic", []))
        panic ^= {space}
        self.data["track"]["panic"] = sorted(panic)

    def move(self, group: str, key: str, delta: int) -> int:
        """Move a gate or picture (group "gates" / "pictures") along the track, kept on it."""
        t = self.data["track"]
        value = max(1, min(int(t["spaces"]), int(t[group][key]) + delta))
        t[group][key] = value
        return value

    def tile_time(self, index: int, delta: int) -> int:
        tile = self.data["tiles"]["tile"][index]
        tile["time"] = max(0, min(9, int(tile["time"]) + delta))
        return tile["time"]
