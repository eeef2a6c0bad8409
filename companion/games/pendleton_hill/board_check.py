"""Sheepdogs of Pendleton Hill's board check: which pastures touch (``board.toml``).

The adjacency of the pastures is printed only on the board; the table picks a
pasture, then touches the pastures it touches.  Touching is both ways, so a change
is made on both pastures.  Tier values, pens and the wolf's start stay in the file.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.board_check import BoardCheck, Control, DataFile, Note, Toggle, Toggles

FILES = (DataFile("board.toml", "board"),)


@dataclass
class PendletonHillBoard(BoardCheck):
    selected: str | None = None  # the pasture whose neighbours the touches change

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.selected is None and self.pastures():
            self.selected = self.pastures()[0]

    def describe(self) -> list[str]:
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

    def controls(self) -> list[Control]:
        pastures, here = self.pastures(), self.selected
        return [
            Note("Touch a pasture, then the pastures it touches on your board:"),
            Toggles("pasture", tuple(Toggle(p, p, p == here) for p in pastures), self.select, one=True),
            Note(f"Pasture {here} touches:"),
            Toggles("touches", tuple(Toggle(p, p, self.touches(here, p)) for p in pastures if p != here and here),
                    lambda p: self.toggle_touch(str(here), p)),
        ]

    def pastures(self) -> list[str]:
        return list(self.data["board"].get("pastures", {}))

    def select(self, pasture: str) -> None:
        self.selected = pasture

    def touches(self, a: str | None, b: str) -> bool:
        return a is not None and b in self.data["board"]["pastures"][a].get("touches", [])

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
