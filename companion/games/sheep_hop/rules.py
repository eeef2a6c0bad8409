"""Movement of sheep and wolves on the full board (Movement Rules, Wolf faces).

Pure helpers over plain values; the game module turns ``Bad`` into the
``IllegalAction`` that names the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import brief
from companion.payload import is_list

from .data import DIRECTIONS, Board, Cell
from .state import ANIMAL_TILES, SheepHopState, Tile, Where, Wolf

PEN = "pen"  # a path entry meaning "into the pen"

R_MOVE = "Movement Rules for Clever Sheep"
R_PEN = "Turn Sequence (the sheep pen)"
R_ROCK = "Special Tiles: The Rock"
R_MOLE = "Special Tiles: The Mole and Its Molehill"
R_FOX = "Special Tiles: The Fox"


class Bad(Exception):
    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


def wolf_cell(board: Board, i: int, wolf: Wolf) -> Cell:
    return board.wolves[i].path[wolf.position]


def advance(board: Board, tiles: Sequence[Tile], i: int, wolf: Wolf, steps: int) -> tuple[Wolf, list[Cell]]:
    """Move wolf ``i`` ``steps`` spaces; returns it and the spaces it entered.

    Wolves ignore special tiles: a covered space "is not counted", so it is
    skipped without being entered.
    """
    path = board.wolves[i].path
    covered = {t.at for t in tiles}
    step = 1 if wolf.clockwise else -1
    pos = wolf.position
    entered = []
    for _ in range(steps):
        for _ in range(len(path)):
            pos = (pos + step) % len(path)
            if path[pos] not in covered:
                break
        entered.append(path[pos])
    return Wolf(pos, wolf.clockwise), entered


def capture_on(state: SheepHopState, cells: Sequence[Cell]) -> tuple[Where, ...]:
    """Sheep standing on any of ``cells`` go to the wolves' den."""
    hit = set(cells)
    return tuple(
        Where.DEN if w is Where.BOARD and a in hit else w for w, a in zip(state.where, state.at, strict=True)
    )


def _blocked_message(kind: str) -> Bad:
    if kind == "rock":
        return Bad("no sheep can ever jump over the Rock or stop on it", R_ROCK)
    return Bad("no sheep can jump over or stop on the Molehill", R_MOLE)


@dataclass
class Scene:
    """What a move can change while it happens: tiles (the Mole runs), the wolves (the Raccoon
    turns them, the Fox moves them and they catch sheep), and which sheep are still about."""

    tiles: dict[Cell, str]
    wolves: list[Wolf]
    sheep: dict[Cell, int]  # the other sheep on the board, by space
    raccoon_clockwise: bool
    wolf_at: set[Cell]  # the wolves' spaces, kept in step with ``wolves``
    caught: list[int] = field(default_factory=list)  # other sheep the wolves caught during the move
    mover_caught: bool = False

    def copy(self) -> Scene:
        return Scene(
            dict(self.tiles),
            list(self.wolves),
            dict(self.sheep),
            self.raccoon_clockwise,
            set(self.wolf_at),
            list(self.caught),
            self.mover_caught,
        )


class Walk:
    """One sheep's move on the full board, checked step by step.

    Every animal tile acts the moment it is jumped: the Mole runs (so a later jump meets the new
    molehill), the Raccoon turns the wolves, the Fox moves them at once and they catch what they
    pass, the moving sheep included (its move then ends there).  The Patou acts after the move.
    """

    def __init__(self, state: SheepHopState, sheep: int) -> None:
        self.board = state.board
        self.sheep = sheep
        self.start = state.at[sheep]
        self.scene = Scene(
            tiles={t.at: t.kind for t in state.tiles},
            wolves=list(state.wolves),
            sheep={a: j for j, (w, a) in enumerate(zip(state.where, state.at, strict=True)) if w is Where.BOARD and j != sheep and a is not None},
            raccoon_clockwise=state.raccoon_clockwise,
            wolf_at={wolf_cell(self.board, i, w) for i, w in enumerate(state.wolves)},
        )

    def _land(self, pos: Cell, d: Cell, target: Cell, scene: Scene) -> None:
        if target == self.board.pen:
            if (target[0] - d[0], target[1] - d[1]) != self.board.exit:
                raise Bad("the pen is reached only through the meadow exit", R_PEN)
            return
        if target not in self.board.spaces:
            raise Bad(f"{list(target)} is not a space of the meadow", R_MOVE)
        kind = scene.tiles.get(target)
        if kind in ("rock", "molehill"):
            raise _blocked_message(kind)
        if kind is not None or target in scene.sheep or target in scene.wolf_at:
            raise Bad(f"a sheep may only land on a free space; {list(target)} is taken", R_MOVE)

    def _jumped(self, kind: str, mid: Cell, landed: Cell, scene: Scene) -> None:
        """The tile's effect, at once (the Patou's comes after the move)."""
        if kind == "mole":  # the mole runs away: mole and molehill swap sides
            for c, k in scene.tiles.items():
                if k == "molehill":
                    scene.tiles[c] = "mole"
            scene.tiles[mid] = "molehill"
        elif kind == "raccoon":  # the tile flips and both pawns turn round
            scene.wolves = [Wolf(w.position, not w.clockwise) for w in scene.wolves]
            scene.raccoon_clockwise = not scene.raccoon_clockwise
        elif kind == "fox":  # the wolves advance one space each, catching what they pass
            tiles = [Tile(k, c) for c, k in scene.tiles.items()]
            entered: list[Cell] = []
            for i, w in enumerate(scene.wolves):
                scene.wolves[i], cells = advance(self.board, tiles, i, w, 1)
                entered += cells
            scene.wolf_at = {wolf_cell(self.board, i, w) for i, w in enumerate(scene.wolves)}
            for c in entered:
                if c in scene.sheep:
                    scene.caught.append(scene.sheep.pop(c))
                if c == landed:
                    scene.mover_caught = True

    def step(self, pos: Cell, target: Cell, scene: Scene, first: bool) -> tuple[bool, str | None]:
        """Check one leg and play it on ``scene``; returns (was it a jump, tile kind jumped)."""
        if scene.mover_caught:
            raise Bad(f"the wolves caught the sheep on {list(pos)} when it jumped the Fox: its move ends there", R_FOX)
        dr, dc = target[0] - pos[0], target[1] - pos[1]
        if abs(dr) + abs(dc) == 1:
            if not first:
                raise Bad("a sheep cannot make a regular move after a jump", R_MOVE)
            self._land(pos, (dr, dc), target, scene)
            return False, None
        if (dr == 0 or dc == 0) and abs(dr) + abs(dc) == 2:
            d = (dr // 2, dc // 2)
            mid = (pos[0] + d[0], pos[1] + d[1])
            kind = scene.tiles.get(mid)
            if kind in ("rock", "molehill"):
                raise _blocked_message(kind)
            if not (mid in scene.sheep or mid in scene.wolf_at or kind in ANIMAL_TILES):
                raise Bad(f"a sheep can only jump over another animal; {list(mid)} holds none", R_MOVE)
            self._land(pos, d, target, scene)
            if kind is not None:
                self._jumped(kind, mid, target, scene)
            return True, kind
        if target == self.board.pen:
            raise Bad("the pen is reached only through the meadow exit, by a step or a jump", R_PEN)
        raise Bad("a sheep moves one space, or jumps over one animal, in a straight line (never diagonally)", R_MOVE)

    def run(self, path: Sequence[Any]) -> tuple[Cell | None, tuple[str, ...], Scene]:
        """(final space or None for the pen, tiles jumped in order, the scene afterwards)."""
        if not is_list(path, max_len=64):
            raise Bad(f"path: expected a list of spaces, got {brief(path)}", R_MOVE)
        if not path:
            raise Bad("a move needs at least one space", R_MOVE)
        pos = self.start
        assert pos is not None
        scene = self.scene.copy()
        jumped: list[str] = []
        regular = False
        for i, raw in enumerate(path):
            if pos == self.board.pen:
                raise Bad("a sheep in the pen can no longer be moved", R_PEN)
            if regular:
                raise Bad("a regular move is one space only; only jumps can be chained", R_MOVE)
            target = self.board.pen if raw == PEN else _cell(raw)
            jump, kind = self.step(pos, target, scene, first=i == 0)
            regular = not jump
            if kind:
                jumped.append(kind)
            pos = target
        return (None if pos == self.board.pen else pos), tuple(jumped), scene

    def options(self, limit: int = 400) -> list[tuple[list[Any], tuple[str, ...]]]:
        """Legal moves as (path, tiles jumped), one per distinct outcome."""
        start = self.start
        assert start is not None
        seen: set[Any] = set()
        out: list[tuple[list[Any], tuple[str, ...]]] = []

        def emit(path: list[Any], jumped: tuple[str, ...], scene: Scene) -> None:
            key = (path[-1] if path[-1] == PEN else tuple(path[-1]), jumped, scene.mover_caught, tuple(sorted(scene.caught)))
            if key not in seen:
                seen.add(key)
                out.append((list(path), jumped))

        for d in DIRECTIONS:  # a regular move changes nothing but the sheep's space
            t = (start[0] + d[0], start[1] + d[1])
            try:
                self.step(start, t, self.scene, first=True)
            except Bad:
                continue
            emit([PEN if t == self.board.pen else list(t)], (), self.scene)

        def jumps(pos: Cell, scene: Scene, path: list[Any], jumped: tuple[str, ...], visited: set[Cell]) -> None:
            for d in DIRECTIONS:
                if len(out) >= limit:
                    return
                t = (pos[0] + 2 * d[0], pos[1] + 2 * d[1])
                if t in visited:
                    continue
                # Only a jump over an animal tile changes the scene: copy it just then.
                mid = (pos[0] + d[0], pos[1] + d[1])
                after = scene.copy() if scene.tiles.get(mid) in ANIMAL_TILES else scene
                try:
                    _, kind = self.step(pos, t, after, first=False)
                except Bad:
                    continue
                here = (*jumped, kind) if kind else jumped
                entry = PEN if t == self.board.pen else list(t)
                emit([*path, entry], here, after)
                if t != self.board.pen and not after.mover_caught:
                    jumps(t, after, [*path, entry], here, visited | {t})

        jumps(start, self.scene.copy(), [], (), {start})
        return out


def _cell(raw: Any) -> Cell:
    if isinstance(raw, list | tuple) and len(raw) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
        return (raw[0], raw[1])
    raise Bad(f"each step of a path is a space [row, column] or \"pen\", got {raw!r}", R_MOVE)
