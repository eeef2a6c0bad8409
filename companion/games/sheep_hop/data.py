"""Board, die and piece facts for Sheep Hop!, as validated data.

The default lives in ``board.toml`` beside this module (what is certain and
what is a best guess is written there); a setup option of the same shape
overrides it, and the validated data is written into the setup so a game
record replays without the file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

from companion.errors import SetupError
from companion.payload import is_one_of

Cell = tuple[int, int]  # (row, column), row 0 at the top

SHEEP_PER_COLOUR = 3  # rulebook: 9 sheep, three of each colour
# Orthogonal steps only: "not diagonally".
STEPS: dict[str, Cell] = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
DIRECTIONS: tuple[Cell, ...] = tuple(STEPS.values())
FACE_KINDS = ("sheep", "any", "wolves")
WOLF_DIRECTIONS = ("clockwise", "counterclockwise")


@dataclass(frozen=True)
class Face:
    name: str
    kind: str  # "sheep" | "any" | "wolves"
    colour: str | None = None
    steps: tuple[tuple[str, int], ...] = ()  # (wolf name, spaces) for "wolves"


@dataclass(frozen=True)
class WolfPath:
    name: str
    path: tuple[Cell, ...]  # a closed loop, clockwise
    clockwise: bool  # the pawn's direction at the start


@dataclass(frozen=True)
class Board:
    colours: tuple[str, ...]
    faces: tuple[Face, ...]
    spaces: frozenset[Cell]
    start: tuple[Cell, ...]  # starting-area spaces, row by row
    exit: Cell
    pen: Cell  # the cell one step beyond the exit: reaching it means "in the pen"
    wolves: tuple[WolfPath, ...]

    def face(self, name: str) -> Face | None:
        return next((f for f in self.faces if f.name == name), None)

    @cached_property  # asked for on every event; cached on the (immutable) board
    def ids(self) -> tuple[str, ...]:
        return tuple(f"{c}{k}" for c in self.colours for k in range(1, SHEEP_PER_COLOUR + 1))

    def sheep_ids(self) -> tuple[str, ...]:
        """Sheep names, colour then number: white1, white2, white3, black1, ..."""
        return self.ids


@cache
def _default_text() -> str:
    return resources.files(__package__).joinpath("board.toml").read_text(encoding="utf-8")


def default_board() -> dict[str, Any]:
    """The shipped best-known data as a fresh dict (sheep, die, meadow, wolves)."""
    return tomllib.loads(_default_text())


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _cell(v: Any, key: str) -> Cell:
    if not (isinstance(v, list | tuple) and len(v) == 2 and all(_is_int(x) for x in v)):
        raise SetupError(key, "a space [row, column]", v)
    return (v[0], v[1])


def _table(data: Mapping[str, Any], name: str, key: str) -> Mapping[str, Any]:
    v = data.get(name)
    if not isinstance(v, Mapping):
        raise SetupError(f"{key}.{name}", "a table", v)
    return v


def validate_board(data: Any, key: str = "board") -> dict[str, Any]:
    """Check the data and return it normalised (plain JSON); SetupError names the bad key."""
    board = parse_board(data, key)
    return {
        "sheep": {"colours": list(board.colours)},
        "die": {
            "faces": [
                {"name": f.name, "kind": f.kind}
                | ({"colour": f.colour} if f.colour else {})
                | ({"steps": dict(f.steps)} if f.kind == "wolves" else {})
                for f in board.faces
            ]
        },
        "meadow": {"rows": list(data["meadow"]["rows"]), "pen": data["meadow"]["pen"]},
        "wolves": [
            {"name": w.name, "direction": "clockwise" if w.clockwise else "counterclockwise", "path": [list(c) for c in w.path]}
            for w in board.wolves
        ],
    }


def parse_board(data: Any, key: str = "board") -> Board:
    if not isinstance(data, Mapping):
        raise SetupError(key, "a table with sheep, die, meadow and wolves", data)
    for k in data:
        if k not in ("sheep", "die", "meadow", "wolves"):
            raise SetupError(f"{key}.{k}", "no such key (sheep, die, meadow, wolves)", data[k])
    colours = _table(data, "sheep", key).get("colours")
    if (
        not isinstance(colours, list | tuple)
        or len(colours) != 3
        or not all(isinstance(c, str) and c.strip() and c.isidentifier() for c in colours)
        or len(set(colours)) != 3
    ):
        raise SetupError(f"{key}.sheep.colours", "three distinct colour names (letters, no spaces)", colours)
    spaces, start, exit_, pen = _meadow(data, key)
    wolves = _wolves(data, key, spaces)
    faces = _faces(data, key, tuple(colours), {w.name for w in wolves})
    if len(start) != 3 * SHEEP_PER_COLOUR:
        raise SetupError(f"{key}.meadow.rows", f"{3 * SHEEP_PER_COLOUR} starting spaces 'S' (one per sheep)", len(start))
    return Board(tuple(colours), faces, spaces, start, exit_, pen, wolves)


def _faces(data: Mapping[str, Any], key: str, colours: tuple[str, ...], wolf_names: set[str]) -> tuple[Face, ...]:
    raw = _table(data, "die", key).get("faces")
    if not isinstance(raw, list | tuple) or not raw:
        raise SetupError(f"{key}.die.faces", "a list of faces", raw)
    faces = []
    for i, f in enumerate(raw):
        k = f"{key}.die.faces[{i}]"
        if not isinstance(f, Mapping):
            raise SetupError(k, "a table with name and kind", f)
        name, kind = f.get("name"), f.get("kind")
        if not isinstance(name, str) or not name:
            raise SetupError(f"{k}.name", "a face name", name)
        if kind not in FACE_KINDS:
            raise SetupError(f"{k}.kind", "'sheep', 'any' or 'wolves'", kind)
        colour, steps = f.get("colour"), f.get("steps")
        if kind == "sheep" and colour not in colours:
            raise SetupError(f"{k}.colour", f"one of the sheep colours {list(colours)}", colour)
        if kind != "sheep" and colour is not None:
            raise SetupError(f"{k}.colour", "no colour on a non-sheep face", colour)
        if kind == "wolves":
            if (
                not isinstance(steps, Mapping)
                or not steps
                or set(steps) - wolf_names
                or not all(_is_int(v) and v >= 1 for v in steps.values())
            ):
                raise SetupError(f"{k}.steps", f"spaces (1+) per wolf name {sorted(wolf_names)}", steps)
        elif steps is not None:
            raise SetupError(f"{k}.steps", "steps only on a wolves face", steps)
        faces.append(Face(name, kind, colour, tuple(sorted(steps.items())) if kind == "wolves" else ()))
    if len({f.name for f in faces}) != len(faces):
        raise SetupError(f"{key}.die.faces", "faces with distinct names", [f.name for f in faces])
    return tuple(faces)


def _meadow(data: Mapping[str, Any], key: str) -> tuple[frozenset[Cell], tuple[Cell, ...], Cell, Cell]:
    m = _table(data, "meadow", key)
    rows = m.get("rows")
    if not isinstance(rows, list | tuple) or not rows or not all(isinstance(r, str) for r in rows):
        raise SetupError(f"{key}.meadow.rows", "a list of strings", rows)
    spaces, start, exits = set(), [], []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in ".SE ":
                raise SetupError(f"{key}.meadow.rows[{r}]", "only '.', 'S', 'E' and ' '", row)
            if ch != " ":
                spaces.add((r, c))
            if ch == "S":
                start.append((r, c))
            if ch == "E":
                exits.append((r, c))
    if len(exits) != 1:
        raise SetupError(f"{key}.meadow.rows", "exactly one exit 'E'", len(exits))
    pen_dir = m.get("pen")
    if not is_one_of(pen_dir, STEPS):
        raise SetupError(f"{key}.meadow.pen", "'north', 'south', 'east' or 'west'", pen_dir)
    d = STEPS[pen_dir]
    pen = (exits[0][0] + d[0], exits[0][1] + d[1])
    if pen in spaces:
        raise SetupError(f"{key}.meadow.pen", "a direction leading off the meadow from the exit", pen_dir)
    return frozenset(spaces), tuple(start), exits[0], pen


def _wolves(data: Mapping[str, Any], key: str, spaces: frozenset[Cell]) -> tuple[WolfPath, ...]:
    raw = data.get("wolves")
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        raise SetupError(f"{key}.wolves", "two wolves (big and little)", raw if not isinstance(raw, list | tuple) else len(raw))
    out = []
    for i, w in enumerate(raw):
        k = f"{key}.wolves[{i}]"
        if not isinstance(w, Mapping):
            raise SetupError(k, "a table with name, direction and path", w)
        name, direction, path = w.get("name"), w.get("direction"), w.get("path")
        if name not in ("big", "little"):
            raise SetupError(f"{k}.name", "'big' or 'little'", name)
        if direction not in WOLF_DIRECTIONS:
            raise SetupError(f"{k}.direction", "'clockwise' or 'counterclockwise'", direction)
        if not isinstance(path, list | tuple) or len(path) < 2:
            raise SetupError(f"{k}.path", "a loop of 2 or more spaces", path)
        cells = tuple(_cell(c, f"{k}.path[{j}]") for j, c in enumerate(path))
        for j, c in enumerate(cells):
            if c not in spaces:
                raise SetupError(f"{k}.path[{j}]", "a meadow space", list(c))
        if len(set(cells)) != len(cells):
            raise SetupError(f"{k}.path", "distinct spaces", [list(c) for c in cells])
        for j, (a, b) in enumerate(zip(cells, cells[1:] + cells[:1], strict=True)):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                raise SetupError(f"{k}.path[{(j + 1) % len(cells)}]", f"a space next to {list(a)} (the path is a loop)", list(b))
        out.append(WolfPath(name, cells, direction == "clockwise"))
    if {w.name for w in out} != {"big", "little"}:
        raise SetupError(f"{key}.wolves", "one 'big' and one 'little' wolf", [w.name for w in out])
    return tuple(out)
