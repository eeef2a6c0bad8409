"""Battle Sheep's board check: the shape of one pasture board (``board.toml``).

Every pasture board is one piece of 4 hexes of a single shape, which only the
box shows; the table touches hexes on a small grid to give the shape its own
boards have.  A 4th hex must make a shape the game accepts and a 5th is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.board_check import BoardCheck, Control, DataFile, Hexes, Note, Refused
from companion.errors import ConfigError, SetupError

from . import data as battle_sheep_data
from .hexes import Hex, distance

FILES = (DataFile("board.toml", "board", lambda d: d["board"]),)
WANT = battle_sheep_data.HEXES_PER_BOARD


@dataclass
class BattleSheepBoard(BoardCheck):
    _area: list[Hex] | None = field(default=None, init=False, repr=False)

    def reset(self) -> None:
        super().reset()
        self._area = None

    def describe(self) -> list[str]:
        hexes = self.data["board"].get("board", {}).get("hexes", [])
        cells = ", ".join(f"({q}, {r})" for q, r in hexes)
        return [
            f"Each pasture board is {len(hexes)} hexagons, at {cells} (q, r).",
            "The field is built by touch on the Table when the game starts.",
        ]

    def controls(self) -> list[Control]:
        return [
            Note(f"Touch a place to add that hexagon to the pasture board or take it off: "
                 f"{WANT} hexagons joined by their sides.", lines=2),
            Hexes("piece", tuple(self.piece()), tuple(self.piece_area()), self.toggle_hex,
                  legend="Green hexagons: one pasture board; rings: places a hexagon can go."),
        ]

    def piece(self) -> list[Hex]:
        return [(q, r) for q, r in self.data["board"]["board"]["hexes"]]

    def piece_area(self) -> list[Hex]:
        """The hexes the picture offers: all within 2 of the piece's middle, which holds
        every 4-hex piece; fixed while the check is open, so no hex moves under a finger."""
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
        if h in piece:
            piece.remove(h)
        elif len(piece) >= WANT:
            raise Refused(f"Not changed: a pasture board is {WANT} hexes; touch one of them first to take it off.")
        else:
            piece.append(h)
        if len(piece) == WANT:
            try:
                battle_sheep_data.validate_board({"hexes": [list(p) for p in piece]})
            except SetupError as e:
                raise Refused(f"Not changed: a pasture board is {e.expected}.") from None
        self.data["board"]["board"]["hexes"] = [list(p) for p in piece]

    def hint(self, error: SetupError | ConfigError) -> str:
        if not getattr(error, "key", "").endswith("board.hexes"):
            return ""
        missing = WANT - len(self.piece())
        return f"a pasture board is {WANT} hexes: touch {missing} more." if missing > 0 else ""
