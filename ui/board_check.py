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
import re
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calibration import board
from companion import registry
from companion.config import dump_toml, load_toml, profile_present, save_text_atomic
from companion.errors import ConfigError, SetupError
from companion.games.battle_sheep import data as battle_sheep_data
from companion.games.battle_sheep.hexes import Hex, distance
from companion.games.sheep_hop.data import STEPS

Cell = tuple[int, int]  # Sheep Hop! meadow space (row, column), row 0 at the top


class Refused(ValueError):
    """A touch the board check does not make: one line naming the rule; nothing changed."""


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
    _area: list[Hex] | None = field(default=None, init=False, repr=False)  # Battle Sheep picture's hexes

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
        return {f.option: tomllib.loads(board._shipped(self.game, f, self.players)) for f in board.BOARDS[self.game]}

    def load(self) -> None:
        """The table's checked copy where there is one that loads, else the shipped data."""
        self.data = self.shipped()
        self.origin = "shipped"
        for f in board.BOARDS[self.game]:
            path = self.folder / f.file_for(self.players)
            if profile_present(path):
                try:
                    self.data[f.option] = load_toml(path)
                    self.origin = "checked"
                except ConfigError as e:
                    self.origin = f"shipped ({e})"

    def reset(self) -> None:
        self.data = self.shipped()
        self.origin = "shipped"
        self._area = None

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
        """Why the game would refuse this board, in one line ("" when it accepts it); where a
        touch editor knows the rule in plainer words (a path not yet a loop) it says those."""
        try:
            self.validate()
        except (SetupError, ConfigError) as e:
            hint = getattr(self, f"_hint_{self.game.replace('-', '_')}", lambda _e: "")(e)
            return hint or str(e)
        return ""

    # -- plain words -------------------------------------------------------------
    def describe(self) -> list[str]:
        return getattr(self, f"_describe_{self.game.replace('-', '_')}", self._describe_generic)()

    def _describe_shear_panic(self) -> list[str]:
        t = self.data["track"]
        lines = [
            f"Time track: {t['spaces']} spaces for {self.players} players.",
            "Panic spaces (red, circled twice): " + ", ".join(map(str, t.get("panic", []))) + ".",
            "Gates: "
            + ", ".join(
                f"{_words(k)}'s gate at {v}" if k == "roger" else f"{_words(k)} gate at {v}"
                for k, v in t.get("gates", {}).items()
            )
            + ".",
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
        lines = [
            f"Tier values: {', '.join(map(str, b.get('tier_values', [])))}; the wolf starts on {b.get('wolf_start')}."
        ]
        for pid, p in b.get("pastures", {}).items():
            lines.append(f"Pasture {pid} (tier {p['tier']}) touches {', '.join(p.get('touches', []))}.")
        lines.append(
            f"{len(b.get('pens', []))} pens: "
            + ", ".join(
                f"{p['spaces']} spaces" + (" (black sheep)" if p.get("black_sheep") else "") for p in b.get("pens", [])
            )
            + "."
        )
        return lines

    def _describe_sheep_hop(self) -> list[str]:
        b = self.data["board"]
        meadow = b.get("meadow", {})
        rows = meadow.get("rows", [])
        faces = [_face_kind(f["name"]) for f in b.get("die", {}).get("faces", [])]
        lines = [
            f"Sheep colours: {', '.join(b.get('sheep', {}).get('colours', []))}.",
            f"Die faces ({len(faces)}): "
            + ", ".join(_words(k) + (f" ({n} faces)" if n > 1 else "") for k, n in Counter(faces).items())
            + ".",
        ]
        shape = Meadow.read(rows, meadow.get("pen", ""))
        if shape:
            m = shape[0]
            lines.append(
                f"Meadow: {m.rows} rows of {m.cols} spaces; the exit is on its {m.pen} edge, the pen beyond it, "
                f"the starting area on its {OPPOSITE[m.pen]} edge."
            )
        else:
            width = max((len(r) for r in rows), default=0)
            lines.append(f"Meadow: {len(rows)} rows of {width}; the pen is to the {meadow.get('pen', '?')}.")
        for w in b.get("wolves", []):
            lines.append(
                f"The {w['name']} wolf walks {w.get('direction', '')} round {len(w.get('path', []))} spaces, "
                f"from {tuple(w['path'][0]) if w.get('path') else '?'}."
            )
        return lines

    def _describe_battle_sheep(self) -> list[str]:
        hexes = self.data["board"].get("board", {}).get("hexes", [])
        cells = ", ".join(f"({q}, {r})" for q, r in hexes)
        return [
            f"Each pasture board is {len(hexes)} hexagons, at {cells} (q, r).",
            "The field is built by touch on the Table when the game starts.",
        ]

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

    # Sheep Hop!: the die's faces, the meadow's size and exit, the wolves' paths.
    # The shipped file says which of these are guesses; the sheep colours are
    # words, not touches, and stay in the file.
    def die_counts(self) -> dict[str, int]:
        """How many faces of each kind the die has, by the kind's name, shipped kinds first."""
        counts = dict.fromkeys(self._face_kinds(), 0)
        for f in self.data["board"]["die"]["faces"]:
            counts[_face_kind(f["name"])] += 1
        return counts

    def face_count(self, kind: str, delta: int) -> int:
        """One face more or fewer of a kind; copies are named kind, kind-2, kind-3 (names are distinct)."""
        counts = self.die_counts()
        counts[kind] += delta
        if counts[kind] < 0:
            raise Refused(f"Not changed: the die has no {_words(kind)} face already.")
        if counts[kind] > MAX_FACES:
            raise Refused(f"Not changed: at most {MAX_FACES} faces of one kind (a die has 6 faces).")
        if delta > 0 and sum(counts.values()) > MAX_FACES:
            raise Refused(f"Not changed: a die has {MAX_FACES} faces; take one off another kind first.")
        if not any(counts.values()):
            raise Refused("Not changed: the die needs at least one face.")
        kinds = self._face_kinds()
        faces = []
        for name, n in counts.items():
            for copy_no in range(1, n + 1):
                faces.append({**kinds[name], "name": name if copy_no == 1 else f"{name}-{copy_no}"})
        self.data["board"]["die"]["faces"] = faces
        return counts[kind]

    def _face_kinds(self) -> dict[str, dict[str, Any]]:
        # The shipped die names every kind, so a kind taken down to 0 faces can come
        # back; a kind's attributes (what it does) are the table's own where it has them.
        shipped = self.shipped()["board"]["die"]["faces"]
        current = self.data["board"]["die"]["faces"]
        attributes: dict[str, dict[str, Any]] = {}
        for f in [*current, *shipped]:
            attributes.setdefault(_face_kind(f["name"]), {k: v for k, v in f.items() if k != "name"})
        order = dict.fromkeys(_face_kind(f["name"]) for f in [*shipped, *current])
        return {kind: attributes[kind] for kind in order}

    def meadow(self) -> tuple[Meadow, Cell] | None:
        """The meadow as a rectangle with its exit and starting area, and where its top-left
        space is in the rows; None for a shape this view cannot redraw (corrected in the file)."""
        m = self.data["board"]["meadow"]
        return Meadow.read(m["rows"], m["pen"])

    def meadow_size(self, axis: str, delta: int) -> int:
        """Grow or shrink the meadow by a row or column ("rows" / "cols")."""
        now, _ = self._regular()
        size = getattr(now, axis) + delta
        if not MEADOW_MIN <= size <= MEADOW_MAX:
            raise Refused(
                f"Not changed: the meadow here is {MEADOW_MIN} to {MEADOW_MAX} spaces a side "
                "(the 3 x 3 starting area lies along it)."
            )
        new = Meadow(**{**now.__dict__, axis: size})
        side = new.cols if new.pen in ("north", "south") else new.rows
        self._relayout(Meadow(new.rows, new.cols, new.pen, min(new.exit_at, side - 1)))
        return size

    def place_exit(self, cell: Cell) -> None:
        """Put the meadow's exit on a place just outside one of its edges; the pen lies beyond it."""
        now, origin = self._regular()
        where = now.beside(origin).get(cell)
        if where is None:
            raise Refused(
                "Not changed: the exit is a place just outside the meadow, beside one of its edges "
                "(the pen lies beyond it)."
            )
        self._relayout(Meadow(now.rows, now.cols, *where))

    def exit_places(self) -> list[Cell]:
        """Where a touch may put the exit (none for a meadow corrected in the file)."""
        found = self.meadow()
        return list(found[0].beside(found[1])) if found else []

    def pen_place(self) -> Cell | None:
        """One step beyond the exit, where the picture draws the pen (any meadow shape)."""
        m = self.data["board"]["meadow"]
        exits = [(r, c) for r, row in enumerate(m["rows"]) for c, ch in enumerate(row) if ch == "E"]
        if len(exits) != 1 or m["pen"] not in STEPS:
            return None
        return (exits[0][0] + STEPS[m["pen"]][0], exits[0][1] + STEPS[m["pen"]][1])

    def _regular(self) -> tuple[Meadow, Cell]:
        found = self.meadow()
        if found is None:
            raise Refused(
                "Not changed: this meadow is not a rectangle with its exit and starting area beside it; "
                "correct it in the file (bellwether calibrate board sheep-hop)."
            )
        return found

    def _relayout(self, new: Meadow) -> None:
        """Redraw the meadow's rows; the wolves' paths move with the meadow (a path round
        its edge stays round its edge), or the change is refused with nothing changed."""
        old, old_origin = self._regular()
        rows, origin = new.layout()
        dr, dc = origin[0] - old_origin[0], origin[1] - old_origin[1]
        spaces = _spaces(rows)
        paths = []
        for w in self.data["board"]["wolves"]:
            path = [(r, c) for r, c in w["path"]]
            if set(path) == set(old.ring(old_origin)):
                ring = new.ring(origin)
                start = (path[0][0] + dr, path[0][1] + dc)
                path = ring[ring.index(start) :] + ring[: ring.index(start)] if start in ring else ring
            else:
                path = [(r + dr, c + dc) for r, c in path]
                if not set(path) <= spaces:
                    raise Refused(
                        f"Not changed: the {w['name']} wolf's path would leave the meadow "
                        "(a wolf walks on meadow spaces); change its path first."
                    )
            paths.append([list(c) for c in path])
        self.data["board"]["meadow"] = {"rows": rows, "pen": new.pen}
        for w, path in zip(self.data["board"]["wolves"], paths, strict=True):
            w["path"] = path

    def wolf(self, name: str) -> dict[str, Any]:
        return next(w for w in self.data["board"]["wolves"] if w["name"] == name)

    def toggle_path(self, name: str, cell: Cell) -> None:
        """Add a space to a wolf's path or take it off; once the spaces make one closed
        loop they are put in order, clockwise from the wolf's start."""
        if cell not in _spaces(self.data["board"]["meadow"]["rows"]):
            raise Refused("Not changed: a wolf walks on the board's spaces only; touch a space.")
        w = self.wolf(name)
        path = [(r, c) for r, c in w["path"]]
        if cell in path:
            path.remove(cell)
        else:
            # Beside a neighbour on the path, so a loop being drawn stays in order.
            at = next((i + 1 for i, p in enumerate(path) if abs(p[0] - cell[0]) + abs(p[1] - cell[1]) == 1), len(path))
            path.insert(at, cell)
        w["path"] = [list(c) for c in (_loop(path) or path)]

    def turn_wolf(self, name: str) -> str:
        w = self.wolf(name)
        w["direction"] = "counterclockwise" if w["direction"] == "clockwise" else "clockwise"
        return w["direction"]

    def wolf_start(self, name: str, delta: int) -> Cell:
        """Move the wolf's starting space along its path (the path's first space)."""
        w = self.wolf(name)
        if not w["path"]:
            raise Refused(f"Not changed: the {name} wolf's path has no spaces yet; touch its spaces first.")
        k = delta % len(w["path"])
        w["path"] = w["path"][k:] + w["path"][:k]
        return (w["path"][0][0], w["path"][0][1])

    def _hint_sheep_hop(self, error: Exception) -> str:
        for i, w in enumerate(self.data["board"]["wolves"]):
            if f".wolves[{i}]" in getattr(error, "key", "") and _loop([(r, c) for r, c in w["path"]]) is None:
                return (
                    f"the {w['name']} wolf's path is not one closed loop: each of its spaces must be next "
                    "to exactly two others of it (each wolf walks round its own path)."
                )
        return ""

    # Battle Sheep: the shape of one pasture board.
    def piece(self) -> list[Hex]:
        return [(q, r) for q, r in self.data["board"]["board"]["hexes"]]

    def piece_area(self) -> list[Hex]:
        """The hexes the picture offers: all within 2 of the piece's middle, which holds
        every 4-hex piece; fixed while the view is open, so no hex moves under a finger."""
        if self._area is None:
            piece = self.piece() or [(0, 0)]
            mid = min(piece, key=lambda h: max(distance(h, p) for p in piece))
            self._area = [
                (mid[0] + dq, mid[1] + dr)
                for dr in range(-2, 3)
                for dq in range(-2, 3)
                if distance((0, 0), (dq, dr)) <= 2
            ]
        return self._area

    def toggle_hex(self, h: Hex) -> None:
        """Add a hex to the pasture board or take it off.  A 4th hex must make a shape the
        game accepts (validate_board) and a 5th is never added: refused, nothing changed."""
        piece = self.piece()
        want = battle_sheep_data.HEXES_PER_BOARD
        if h in piece:
            piece.remove(h)
        elif len(piece) >= want:
            raise Refused(f"Not changed: a pasture board is {want} hexes; touch one of them first to take it off.")
        else:
            piece.append(h)
        if len(piece) == want:
            try:
                battle_sheep_data.validate_board({"hexes": [list(p) for p in piece]})
            except SetupError as e:
                raise Refused(f"Not changed: a pasture board is {e.expected}.") from None
        self.data["board"]["board"]["hexes"] = [list(p) for p in piece]

    def _hint_battle_sheep(self, error: Exception) -> str:
        if not getattr(error, "key", "").endswith("board.hexes"):
            return ""
        missing = battle_sheep_data.HEXES_PER_BOARD - len(self.piece())
        return (
            f"a pasture board is {battle_sheep_data.HEXES_PER_BOARD} hexes: touch {missing} more."
            if missing > 0
            else ""
        )


MAX_FACES = 6  # of one kind: more would not fit a die
MEADOW_MIN, MEADOW_MAX = 3, 12  # spaces a side: the starting area is 3 wide; 12 still fits the picture
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}


@dataclass(frozen=True)
class Meadow:
    """A Sheep Hop! meadow the view can redraw: a rectangle of spaces, the exit one place
    outside an edge (``exit_at`` along it, from the top or left), the pen beyond the exit,
    and the 3 x 3 starting area centred on the opposite edge (the shipped layout's form)."""

    rows: int
    cols: int
    pen: str
    exit_at: int

    def layout(self) -> tuple[list[str], Cell]:
        """The ``meadow.rows`` strings and where the meadow's top-left space lands in them."""
        cells = {(r, c): "." for r in range(self.rows) for c in range(self.cols)}
        cells[self._exit()] = "E"
        side = OPPOSITE[self.pen]
        across, down = (self.cols - 3) // 2, (self.rows - 3) // 2
        starts = {"south": (self.rows, across), "north": (-3, across), "east": (down, self.cols), "west": (down, -3)}
        first = starts[side]
        for dr in range(3):
            for dc in range(3):
                cells[(first[0] + dr, first[1] + dc)] = "S"
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        width = max(c for _, c in cells) - c0 + 1
        rows = []
        for r in range(r0, max(r for r, _ in cells) + 1):
            rows.append("".join(cells.get((r, c), " ") for c in range(c0, c0 + width)))
        return rows, (-r0, -c0)

    def _exit(self) -> Cell:
        """The exit's place, counted from the meadow's top-left space."""
        return next(
            place for place, (side, at) in self.beside((0, 0)).items() if (side, at) == (self.pen, self.exit_at)
        )

    def beside(self, origin: Cell) -> dict[Cell, tuple[str, int]]:
        """The places just outside each edge (where an exit may go): place -> (edge, how far along it)."""
        r0, c0 = origin
        places = {}
        for k in range(self.cols):
            places[(r0 - 1, c0 + k)] = ("north", k)
            places[(r0 + self.rows, c0 + k)] = ("south", k)
        for k in range(self.rows):
            places[(r0 + k, c0 - 1)] = ("west", k)
            places[(r0 + k, c0 + self.cols)] = ("east", k)
        return places

    def ring(self, origin: Cell) -> list[Cell]:
        """The spaces round the meadow's edge, clockwise from its top-left (the shipped big wolf)."""
        r0, c0 = origin
        top = [(r0, c0 + c) for c in range(self.cols)]
        right = [(r0 + r, c0 + self.cols - 1) for r in range(1, self.rows)]
        bottom = [(r0 + self.rows - 1, c0 + c) for c in range(self.cols - 2, -1, -1)]
        left = [(r0 + r, c0) for r in range(self.rows - 2, 0, -1)]
        return top + right + bottom + left

    @staticmethod
    def read(rows: list[str], pen: str) -> tuple[Meadow, Cell] | None:
        meadow = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]
        exits = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "E"]
        if not meadow or len(exits) != 1 or pen not in OPPOSITE:
            return None
        r0, c0 = min(r for r, _ in meadow), min(c for _, c in meadow)
        n_rows, n_cols = max(r for r, _ in meadow) - r0 + 1, max(c for _, c in meadow) - c0 + 1
        exit_at = exits[0][1] - c0 if pen in ("north", "south") else exits[0][0] - r0
        found = Meadow(n_rows, n_cols, pen, exit_at)
        # Only a meadow that redraws to exactly the same rows is edited here.
        redrawn, origin = found.layout()
        same = [r.rstrip() for r in redrawn] == [r.rstrip() for r in rows] and origin == (r0, c0)
        return (found, origin) if same else None


def _spaces(rows: list[str]) -> set[Cell]:
    return {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != " "}


def _face_kind(name: str) -> str:
    """A face's kind: "multicoloured-2" is the second multicoloured face."""
    return re.sub(r"-[2-9]$", "", name)


def _loop(path: list[Cell]) -> list[Cell] | None:
    """The spaces as one closed loop, clockwise from the first, or None when they are not
    one (every space next to exactly two others, all joined)."""
    cells = set(path)
    if len(cells) < 4:
        return None
    nbrs = {c: [n for n in cells if abs(n[0] - c[0]) + abs(n[1] - c[1]) == 1] for c in cells}
    if any(len(n) != 2 for n in nbrs.values()):
        return None
    order, prev = [path[0]], None
    while True:
        here = order[-1]
        nxt = next(n for n in nbrs[here] if n != prev)
        if nxt == order[0]:
            break
        order.append(nxt)
        prev = here
        if len(order) > len(cells):
            return None
    if len(order) != len(cells):
        return None  # two loops, not one
    # Shoelace with x = column, y = -row: positive area is counterclockwise on screen.
    area = sum(a[1] * -b[0] - b[1] * -a[0] for a, b in zip(order, order[1:] + order[:1], strict=True))
    return [order[0], *reversed(order[1:])] if area > 0 else order


def _words(key: str) -> str:
    return {"roger": "Roger", "shearing": "shearing", "shearer": "the Shearer", "black-sheep": "black sheep"}.get(
        key, key.replace("-", " ")
    )
