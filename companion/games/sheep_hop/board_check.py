"""Sheep Hop!'s board check: the die's faces, the meadow's size and exit, the wolves' paths.

All four are printed only on the board and the die (``board.toml`` says which
are guesses).  The table sets how many faces of each kind its die has, grows or
shrinks the meadow and moves its exit, and draws each wolf's path by touching
spaces on the meadow picture; the sheep colours are words, not touches, and stay
in the file.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from companion.board_check import (
    BoardCheck,
    Control,
    DataFile,
    Loop,
    Note,
    Press,
    Refused,
    Squares,
    Stepper,
    Toggle,
    Toggles,
)
from companion.errors import ConfigError, SetupError

from .data import STEPS, Cell
from .meadow import OPPOSITE, Meadow, loop, spaces

FILES = (DataFile("board.toml", "board"),)
MAX_FACES = 6  # of one kind: more would not fit a die
MEADOW_MIN, MEADOW_MAX = 3, 12  # spaces a side: the starting area is 3 wide; 12 still fits the picture
MODES = {"big": "Big wolf's path", "little": "Little wolf's path", "exit": "Meadow exit"}


def face_kind(name: str) -> str:
    """A face's kind: "multicoloured-2" is the second multicoloured face."""
    return re.sub(r"-[2-9]$", "", name)


def words(key: str) -> str:
    return key.replace("-", " ")


@dataclass
class SheepHopBoard(BoardCheck):
    mode: str = "big"  # what a touch on the meadow picture changes: a wolf's path, or the exit

    def describe(self) -> list[str]:
        b = self.data["board"]
        meadow = b.get("meadow", {})
        rows = meadow.get("rows", [])
        faces = [face_kind(f["name"]) for f in b.get("die", {}).get("faces", [])]
        lines = [
            f"Sheep colours: {', '.join(b.get('sheep', {}).get('colours', []))}.",
            f"Die faces ({len(faces)}): "
            + ", ".join(words(k) + (f" ({n} faces)" if n > 1 else "") for k, n in Counter(faces).items())
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

    def controls(self) -> list[Control]:
        out: list[Control] = [Note("The die: how many faces of each kind yours has.")]
        for kind, n in self.die_counts().items():
            out.append(Stepper(f"face.{kind}", f"{words(kind).capitalize()} faces", n,
                               lambda d, k=kind: self.face_count(k, d), redraw=True))
        found = self.meadow()
        if found is None:
            out.append(Note("This meadow is not of the shipped form: its shape is corrected in the file, its paths here."))
        else:
            for axis, noun in (("rows", "Meadow rows"), ("cols", "Meadow columns")):
                out.append(Stepper(f"meadow.{axis}", noun, getattr(found[0], axis),
                                   lambda d, a=axis: self.meadow_size(a, d), redraw=True))
        modes = [m for m in MODES if m != "exit" or found is not None]
        out.append(Toggles("meadow-mode", tuple(Toggle(MODES[m], m, m == self.mode) for m in modes), self.pick_mode,
                           one=True, cols=3))
        if self.mode == "exit":
            how = "Touch a ringed place beside the meadow to put the exit there; the pen lies beyond it."
        else:
            how = f"Touch a space to add it to the {self.mode} wolf's path or take it off (a closed loop)."
        out.append(Note(how, lines=2))
        out.append(self._picture())
        for w in self.data["board"]["wolves"]:
            name = w["name"]
            start = tuple(w["path"][0]) if w["path"] else "?"
            out.append(Stepper(f"start.{name}", f"{name.capitalize()} wolf starts on", start,
                               lambda d, n=name: self.wolf_start(n, d), redraw=True))
            out.append(Press(f"turn.{name}", f"{name.capitalize()} wolf walks {w['direction']}", "Turn it",
                             lambda n=name: self.turn_wolf(n)))
        return out

    def _picture(self) -> Squares:
        board = self.data["board"]
        rows = board["meadow"]["rows"]
        cells = [((r, c), ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != " "]
        exits = [cell for cell, ch in cells if ch == "E"]
        pen = self.pen_place()
        loops = []
        for w in board["wolves"]:
            path = tuple((r, c) for r, c in w["path"])
            towards = None
            if len(path) >= 2:  # which way the pawn faces: towards the next space it walks to
                towards = path[1] if w["direction"] == "clockwise" else path[-1]
            loops.append(Loop(path, w["name"] == "big", towards))
        return Squares(
            "meadow",
            (len(rows), max((len(r) for r in rows), default=0)),
            spaces=tuple(cell for cell, ch in cells if ch != "S"),
            starts=tuple(cell for cell, ch in cells if ch == "S"),
            loops=tuple(loops),
            rings=tuple(self.exit_places()) if self.mode == "exit" else (),
            arrow=(exits[0], pen) if exits and pen else None,
            touch=self.touch,
            legend="Green: meadow; pale: starting area; arrow: from the exit to the pen (brown). "
            "Thick red line: big wolf; thin blue: little wolf; dot and arrowhead: where it "
            "starts and which way it walks.",
        )

    # -- the corrections --------------------------------------------------------------
    def pick_mode(self, mode: str) -> None:
        self.mode = mode

    def touch(self, place: Cell) -> None:
        """A touch on the meadow picture: the exit moved there, or the space on or off the path."""
        if self.mode == "exit":
            self.place_exit(place)
        else:
            self.toggle_path(self.mode, place)

    def die_counts(self) -> dict[str, int]:
        """How many faces of each kind the die has, by the kind's name, shipped kinds first."""
        counts = dict.fromkeys(self._face_kinds(), 0)
        for f in self.data["board"]["die"]["faces"]:
            counts[face_kind(f["name"])] += 1
        return counts

    def face_count(self, kind: str, delta: int) -> int:
        """One face more or fewer of a kind; copies are named kind, kind-2, kind-3 (names are distinct)."""
        counts = self.die_counts()
        counts[kind] += delta
        if counts[kind] < 0:
            raise Refused(f"Not changed: the die has no {words(kind)} face already.")
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
            attributes.setdefault(face_kind(f["name"]), {k: v for k, v in f.items() if k != "name"})
        order = dict.fromkeys(face_kind(f["name"]) for f in [*shipped, *current])
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
        places = spaces(rows)
        paths = []
        for w in self.data["board"]["wolves"]:
            path = [(r, c) for r, c in w["path"]]
            if set(path) == set(old.ring(old_origin)):
                ring = new.ring(origin)
                start = (path[0][0] + dr, path[0][1] + dc)
                path = ring[ring.index(start) :] + ring[: ring.index(start)] if start in ring else ring
            else:
                path = [(r + dr, c + dc) for r, c in path]
                if not set(path) <= places:
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
        if cell not in spaces(self.data["board"]["meadow"]["rows"]):
            raise Refused("Not changed: a wolf walks on the board's spaces only; touch a space.")
        w = self.wolf(name)
        path = [(r, c) for r, c in w["path"]]
        if cell in path:
            path.remove(cell)
        else:
            # Beside a neighbour on the path, so a loop being drawn stays in order.
            at = next((i + 1 for i, p in enumerate(path) if abs(p[0] - cell[0]) + abs(p[1] - cell[1]) == 1), len(path))
            path.insert(at, cell)
        w["path"] = [list(c) for c in (loop(path) or path)]

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

    def hint(self, error: SetupError | ConfigError) -> str:
        for i, w in enumerate(self.data["board"]["wolves"]):
            if f".wolves[{i}]" in getattr(error, "key", "") and loop([(r, c) for r, c in w["path"]]) is None:
                return (
                    f"the {w['name']} wolf's path is not one closed loop: each of its spaces must be next "
                    "to exactly two others of it (each wolf walks round its own path)."
                )
        return ""
