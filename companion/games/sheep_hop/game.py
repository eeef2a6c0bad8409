"""Sheep Hop! rules engine (rulebook: sheep-hop.md).  Cooperative: the table
plays together against the wolves.

Events (see docs/games/sheep-hop.md):

- ``roll`` {"die": "sheep-hop", "faces": [face]}                      Turn Sequence
- ``sheep`` {"sheep": id, "path": [...]} (board mode) or
  {"sheep": id, "pen": bool, "jumped": [tile, ...]} (table mode)      Movement Rules
- ``capture`` {"sheep": [id, ...]} (table mode, after wolves moved)   Wolf faces
- ``pass`` {} or {"sheep": id} (table mode: that sheep cannot move)   Movement Rules
- ``pick`` {"sheep": id, "jumped": [tile, ...]} or {} (table mode, touch entry)
- ``correction`` {"sheep": {...}, "wolves": {...}, "tiles": [...], "raccoon": side}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from companion.errors import SetupError, brief
from companion.events import CORRECTION, ROLL, Event, thaw
from companion.game import Choice, DiceRequest, Game, Outcome, Prompt, SetupOption
from companion.payload import is_list, is_one_of

from . import data, touch
from .board_check import FILES as BOARD_FILES
from .board_check import SheepHopBoard
from .data import Board, Cell, parse_board
from .rules import PEN, R_MOLE, R_MOVE, R_PEN, R_ROCK, Bad, Walk, advance, capture_on, wolf_cell
from .state import ANIMAL_TILES, TILE_KINDS, Mode, Phase, SheepHopState, Tile, Where, Wolf

SHEEP = "sheep"
CAPTURE = "capture"
PASS = "pass"
PICK = "pick"  # table mode, touch entry: a sheep and the tiles it jumped so far (nothing moves)
WOLF_START = "wolf-start"  # before the first roll: where a wolf stands on its path ("your choice")
DIE = "sheep-hop"

R_SETUP = "Contents and Setup"
R_TURN = "Turn Sequence"
R_WOLF = "Turn Sequence (Wolf faces)"
R_SHEEP_FACE = "Turn Sequence (sheep faces)"
R_END = "End of the Game"
R_TILES = "Special Tiles for Strategist Shepherds"
R_PATOU = "Special Tiles: The Patou"
R_RACCOON = "Special Tiles: The Raccoon"
R_FOX = "Special Tiles: The Fox"

MAX_CAPTURE_CHOICES = 100  # capture groups offered as buttons (larger groups: one event by keyboard)

# Shepherds' Scale: sheep saved -> title (fewer than 5 saved is a loss).
SCALE = {
    5: "Little Patou",
    6: "Apprentice Shepherd",
    7: "Shepherd of the Plains",
    8: "Shepherd of the Hills",
    9: "Shepherd of the Mountains",
}


def _is_cell(v: Any) -> bool:
    return isinstance(v, list | tuple) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)


class SheepHop(Game):
    name = "sheep-hop"
    touch_events = touch.HANDLES  # touch a sheep, a wolf's path
    title = "Sheep Hop!"
    rulebook = "sheep-hop.md"
    min_players = 1
    max_players = 6
    first_player = "the last person to have seen a sheep starts, then clockwise."
    board_files = BOARD_FILES  # the board facts the table checks once (board_check.py)
    setup_options = (
        SetupOption("mode", "Play", (Mode.TABLE.value, Mode.BOARD.value),
                    ("the table says where sheep end up", "every sheep followed on the picture")),
    )

    def board_check(self, players: int, data: dict[str, dict[str, Any]] | None = None) -> SheepHopBoard:
        return SheepHopBoard(self, players, data or {})

    # -- setup -------------------------------------------------------------
    def validate_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        s = super().validate_setup(setup)
        opts = s["options"]
        mode = opts["mode"]  # checked against setup_options by Game.validate_setup
        # The board data goes into the setup so the record replays without the file.
        opts["board"] = data.validate_board(opts.get("board", data.default_board()), "options.board")
        board = parse_board(opts["board"], "options.board")
        opts["tiles"] = [{"tile": t.kind, "at": list(t.at)} for t in self._tiles(opts.get("tiles", []), board, "options.tiles")]
        opts["wolves"] = self._wolf_starts(opts.get("wolves", {}), board)
        if mode == Mode.BOARD.value:
            opts["sheep"] = self._sheep_starts(opts.get("sheep"), board)
            sheep_cells = {tuple(c) for c in opts["sheep"].values()}
            for name, pos in opts["wolves"].items():
                w = next(w for w in board.wolves if w.name == name)
                if w.path[pos] in sheep_cells:
                    raise SetupError(f"options.wolves.{name}", "a path space with no sheep on it", pos)
        elif "sheep" in opts:
            raise SetupError("options.sheep", "no sheep spaces in table mode (positions are not mirrored)", opts["sheep"])
        covered = {tuple(t["at"]) for t in opts["tiles"]}
        for name, pos in opts["wolves"].items():
            w = next(w for w in board.wolves if w.name == name)
            if w.path[pos] in covered:
                raise SetupError(f"options.wolves.{name}", "a path space not covered by a tile", pos)
        if mode == Mode.BOARD.value:
            for i, t in enumerate(opts["tiles"]):
                if tuple(t["at"]) in {tuple(c) for c in opts["sheep"].values()}:
                    raise SetupError(f"options.tiles[{i}].at", "a space with no sheep on it", t["at"])
        return s

    def _tiles(self, raw: Any, board: Board, key: str) -> tuple[Tile, ...]:
        if not isinstance(raw, list | tuple):
            raise SetupError(key, "a list of {tile, at}", raw)
        tiles: list[Tile] = []
        for i, t in enumerate(raw):
            if not isinstance(t, Mapping):
                raise SetupError(f"{key}[{i}]", "an object {tile, at}", t)
            kind, at = t.get("tile"), t.get("at")
            if kind not in TILE_KINDS:
                raise SetupError(f"{key}[{i}].tile", "one of " + ", ".join(TILE_KINDS), kind)
            if not _is_cell(at) or tuple(at) not in board.spaces:
                raise SetupError(f"{key}[{i}].at", "a meadow space [row, column]", at)
            cell = (at[0], at[1])
            if any(x.at == cell for x in tiles):
                raise SetupError(f"{key}[{i}].at", "a space with no other tile", at)
            if any(x.kind == kind for x in tiles):
                raise SetupError(f"{key}[{i}].tile", "each tile at most once (one of each in the box)", kind)
            if kind == "rock" and cell == board.exit:
                raise SetupError(f"{key}[{i}].at", "not the meadow exit (the rock may not block it)", at)
            tiles.append(Tile(kind, cell))
        kinds = {t.kind for t in tiles}
        if ("mole" in kinds) != ("molehill" in kinds):
            raise SetupError(key, "the Mole and the Molehill together (always placed at the same time)", sorted(kinds))
        return tuple(tiles)

    def _wolf_starts(self, raw: Any, board: Board) -> dict[str, int]:
        if not isinstance(raw, Mapping):
            raise SetupError("options.wolves", "an object: wolf name to a space index on its path", raw)
        out = {}
        for w in board.wolves:
            pos = raw.get(w.name, 0)
            if not isinstance(pos, int) or isinstance(pos, bool) or not 0 <= pos < len(w.path):
                raise SetupError(f"options.wolves.{w.name}", f"a space index on its path, 0 to {len(w.path) - 1}", pos)
            out[w.name] = pos
        extra = set(raw) - set(out)
        if extra:
            raise SetupError(f"options.wolves.{sorted(extra)[0]}", "no such wolf ('big' or 'little')", raw[sorted(extra)[0]])
        return out

    def _sheep_starts(self, raw: Any, board: Board) -> dict[str, list[int]]:
        ids = board.sheep_ids()
        if raw is None:  # the rulebook places them at random; the default is row by row
            return {s: list(c) for s, c in zip(ids, board.start, strict=True)}
        if not isinstance(raw, Mapping) or set(raw) != set(ids):
            raise SetupError("options.sheep", f"every sheep ({', '.join(ids)}) to a starting space", raw)
        seen = set()
        for s in ids:
            at = raw[s]
            if not _is_cell(at) or tuple(at) not in board.start or tuple(at) in seen:
                raise SetupError(f"options.sheep.{s}", "a free space of the starting area", at)
            seen.add(tuple(at))
        return {s: list(raw[s]) for s in ids}

    def initial_state(self, setup: Mapping[str, Any]) -> SheepHopState:
        opts = setup["options"]
        board = parse_board(opts["board"], "options.board")
        mode = Mode(opts["mode"])
        ids = board.sheep_ids()
        at: tuple[Cell | None, ...] = (
            tuple((opts["sheep"][s][0], opts["sheep"][s][1]) for s in ids) if mode is Mode.BOARD else (None,) * len(ids)
        )
        return SheepHopState(
            setup=setup,
            mode=mode,
            board=board,
            where=(Where.BOARD,) * len(ids),
            at=at,
            wolves=tuple(Wolf(opts["wolves"][w.name], w.clockwise) for w in board.wolves),
            tiles=tuple(Tile(t["tile"], (t["at"][0], t["at"][1])) for t in opts["tiles"]),
        )

    # -- play --------------------------------------------------------------
    def apply(self, state: SheepHopState, event: Event) -> SheepHopState:
        if event.type == CORRECTION:
            return self._correct(state, event)
        if state.phase is Phase.OVER:
            raise self.refuse("the game is over: no sheep is left on the board", R_END)
        if event.type == WOLF_START:
            return self._wolf_start(state, event)
        if state.phase is Phase.ROLL:
            return self._roll(state, event)
        if state.phase is Phase.CAPTURE:
            return self._capture(state, event)
        if event.type == SHEEP:
            return self._sheep(state, event)
        if event.type == PASS:
            return self._pass(state, event)
        if event.type == PICK:
            return self._pick(state, event)
        raise self.refuse(f"expected a 'sheep' move now, got {event.type!r}", self._rule(state))

    def _rule(self, state: SheepHopState) -> str:
        return {Phase.ROLL: R_TURN, Phase.SHEEP: R_SHEEP_FACE, Phase.CAPTURE: R_WOLF, Phase.PATOU: R_PATOU}.get(
            state.phase, R_END
        )

    def _wolf_start(self, state: SheepHopState, event: Event) -> SheepHopState:
        """Contents and Setup C: "place the 2 Wolf pawns each on a space of their path (your choice)"."""
        if state.rolled:
            raise self.refuse("the wolves are placed before the first roll; later, correct the board instead", R_SETUP)
        names = [w.name for w in state.board.wolves]
        name, pos = event.get("wolf"), event.get("position")
        if name not in names:
            raise self.refuse(f"'wolf' is one of {', '.join(names)}, got {name!r}", R_SETUP)
        i = names.index(name)
        path = state.board.wolves[i].path
        if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos < len(path):
            raise self.refuse(f"'position' is a space of the {name} wolf's path, 0 to {len(path) - 1}, got {pos!r}", R_SETUP)
        if path[pos] in {t.at for t in state.tiles}:
            raise self.refuse(f"space {pos} of the {name} wolf's path is under a tile: a wolf stands on a free space", R_SETUP)
        if state.mode is Mode.BOARD and path[pos] in {a for a in state.at if a is not None}:
            raise self.refuse(f"space {pos} of the {name} wolf's path holds a sheep", R_SETUP)
        wolves = tuple(Wolf(pos, w.clockwise) if j == i else w for j, w in enumerate(state.wolves))
        return replace(state, wolves=wolves, last=f"the {name} wolf starts on space {pos} of {len(path)}", news=False)

    def _wolf_starts_now(self, state: SheepHopState) -> list[Event]:
        """Every start the table may still choose (before the first roll)."""
        if state.rolled or state.phase is not Phase.ROLL:
            return []
        covered = {t.at for t in state.tiles} | {a for a in state.at if a is not None}
        return [
            Event(WOLF_START, {"wolf": w.name, "position": k})
            for i, w in enumerate(state.board.wolves)
            for k, cell in enumerate(w.path)
            if cell not in covered and k != state.wolves[i].position
        ]

    def _roll(self, state: SheepHopState, event: Event) -> SheepHopState:
        if event.type != ROLL:
            raise self.refuse(f"roll the die first, got {event.type!r}", R_TURN)
        roller = self.players(state)[state.roller]
        if event.player is not None and event.player != roller:
            raise self.refuse(f"it is {roller}'s turn to roll, not {event.player}'s", R_TURN)
        faces = event.get("faces", ())
        names = [f.name for f in state.board.faces]
        if event.get("die") != DIE or not is_list(faces) or len(faces) != 1 or not is_one_of(faces[0], names):
            raise self.refuse(f"expected the Sheep Hop! die showing one of {', '.join(names)}, got {thaw(faces)}", R_TURN)
        face = state.board.face(faces[0])
        assert face is not None
        state = replace(state, face=face.name, last="", news=False, rolled=True)
        if face.kind == "wolves":
            wolves = list(state.wolves)
            entered: list[Cell] = []
            for name, steps in face.steps:
                i = next(i for i, w in enumerate(state.board.wolves) if w.name == name)
                wolves[i], cells = advance(state.board, state.tiles, i, wolves[i], steps)
                entered += cells
            state = replace(state, wolves=tuple(wolves))
            if state.mode is Mode.TABLE:
                return replace(state, phase=Phase.CAPTURE, capture_due=len(entered))
            return self._settle(self._captured(state, entered))
        on_board = [i for i, w in enumerate(state.where) if w is Where.BOARD]
        mine = [i for i in on_board if face.kind == "any" or self._colour(state, i) == face.colour]
        # "If there are no more sheep of the corresponding colour, choose among those still in play."
        eligible = tuple(mine or on_board)
        state = replace(state, phase=Phase.SHEEP, eligible=eligible)
        if state.mode is Mode.BOARD and not any(Walk(state, i).options(limit=1) for i in eligible):
            who = "no sheep" if face.kind == "any" else f"no {face.colour} sheep" if mine else "no sheep"
            return self._end_turn(replace(state, last=f"{who} can move: the roll is lost"))
        return state

    def _colour(self, state: SheepHopState, i: int) -> str:
        return state.board.colours[i // data.SHEEP_PER_COLOUR]

    def _sheep_index(self, state: SheepHopState, raw: Any, rule: str) -> int:
        ids = state.board.sheep_ids()
        if raw not in ids:
            raise self.refuse(f"no sheep called {raw!r} (sheep: {', '.join(ids)})", rule)
        i = ids.index(raw)
        if state.where[i] is not Where.BOARD:
            raise self.refuse(f"{raw} is no longer on the board ({state.where[i].value})", R_PEN)
        return i

    def _mover(self, state: SheepHopState, raw: Any) -> int:
        """The sheep named ``raw``, if it may move now (the die's colour, or the Patou's list)."""
        ids = state.board.sheep_ids()
        i = self._sheep_index(state, raw, self._rule(state))
        allowed = state.patou if state.phase is Phase.PATOU else state.eligible
        if i not in allowed:
            names = ", ".join(ids[j] for j in allowed)
            why = "the Patou moves the other sheep of the jumper's colour" if state.phase is Phase.PATOU else f"the die shows {state.face}"
            raise self.refuse(f"{ids[i]} may not move now: {why} (may move: {names})", self._rule(state))
        return i

    def _pick(self, state: SheepHopState, event: Event) -> SheepHopState:
        """Touch entry (table mode): the sheep tapped and the tiles it jumped so far; {} drops it."""
        if state.mode is Mode.BOARD:
            raise self.refuse("the full board takes a sheep's whole path in one 'sheep' event", R_MOVE)
        if not event.payload:
            return replace(state, picked=None, picked_jumps=())
        i = self._mover(state, event.get("sheep"))
        try:
            jumped, _ = self._table_jumps(state, event.get("jumped", ()))
        except Bad as e:
            raise self.refuse(e.message, e.rule) from None
        return replace(state, picked=i, picked_jumps=tuple(jumped))

    def _sheep(self, state: SheepHopState, event: Event) -> SheepHopState:
        ids = state.board.sheep_ids()
        i = self._mover(state, event.get("sheep"))
        state = replace(state, picked=None, picked_jumps=())
        patou_phase = state.phase is Phase.PATOU
        try:
            caught: list[int] = []
            if state.mode is Mode.BOARD:
                # The tiles acted as they were jumped (the Mole ran, the Raccoon turned the
                # wolves, the Fox moved them and they caught whom they passed).
                end, jumped, scene = Walk(state, i).run(event.get("path", ()))
                tiles = tuple(Tile(scene.tiles[t.at], t.at) for t in state.tiles)
                where = list(state.where)
                at = list(state.at)
                if scene.mover_caught:
                    where[i], at[i] = Where.DEN, None
                elif end is None:
                    where[i], at[i] = Where.PEN, None
                else:
                    at[i] = end
                caught = [*scene.caught, *([i] if scene.mover_caught else [])]
                for j in scene.caught:
                    where[j], at[j] = Where.DEN, None
                state = replace(
                    state,
                    where=tuple(where),
                    at=tuple(at),
                    tiles=tiles,
                    wolves=tuple(scene.wolves),
                    raccoon_clockwise=scene.raccoon_clockwise,
                    patou=tuple(j for j in state.patou if where[j] is Where.BOARD),
                )
            else:
                pen = event.get("pen", False)
                if not isinstance(pen, bool):
                    raise Bad(f"'pen' must be true or false, got {pen!r}", R_PEN)
                jumped, tiles = self._table_jumps(state, event.get("jumped", ()))
                where = list(state.where)
                if pen:
                    where[i] = Where.PEN
                state = replace(state, where=tuple(where), tiles=tiles)
        except Bad as e:
            raise self.refuse(e.message, e.rule) from None
        verb = "reached the pen" if state.where[i] is Where.PEN else "moved"
        state = replace(state, last=f"{ids[i]} {verb}" + (f", jumping {', '.join(jumped)}" if jumped else ""), news=False)
        state = self._effects(state, i, jumped, patou_phase)
        if state.mode is Mode.BOARD and "fox" in jumped:
            names = ", ".join(ids[j] for j in caught)
            state = replace(state, last=_join(state.last, f"the wolves caught {names}" if caught else "the wolves caught no sheep"), news=True)
        if patou_phase:
            state = replace(state, patou=tuple(j for j in state.patou if j != i))
        else:
            state = replace(state, eligible=())
        return self._settle(state)

    def _table_jumps(self, state: SheepHopState, raw: Any) -> tuple[tuple[str, ...], tuple[Tile, ...]]:
        """Check the tiles a sheep jumped (table mode) in order; flip the mole as it runs."""
        if not isinstance(raw, Sequence) or isinstance(raw, str):
            raise Bad(f"'jumped' must be a list of tiles, got {raw!r}", R_MOVE)
        tiles = list(state.tiles)
        for kind in raw:
            if kind == "rock":
                raise Bad("no sheep can ever jump over the Rock or stop on it", R_ROCK)
            if kind == "molehill":
                raise Bad("no sheep can jump over or stop on the Molehill", R_MOLE)
            if kind not in ANIMAL_TILES or not any(t.kind == kind for t in tiles):
                inplay = ", ".join(t.kind for t in tiles if t.kind in ANIMAL_TILES) or "none"
                raise Bad(f"no {kind!r} tile to jump in play (animal tiles in play: {inplay})", R_TILES)
            if kind == "mole":
                tiles = [Tile({"mole": "molehill", "molehill": "mole"}.get(t.kind, t.kind), t.at) for t in tiles]
        return tuple(raw), tuple(tiles)

    def _effects(self, state: SheepHopState, sheep: int, jumped: tuple[str, ...], patou_phase: bool) -> SheepHopState:
        """Animal tiles the sheep jumped, in order (the mole already ran during the move; on the
        full board the Raccoon and the Fox acted as they were jumped too)."""
        notes = []
        for kind in jumped:
            if state.mode is Mode.BOARD and kind in ("raccoon", "fox"):
                notes.append("the Raccoon turned the wolves round" if kind == "raccoon" else "the Fox moved both wolves one space")
            elif kind == "raccoon":
                wolves = tuple(Wolf(w.position, not w.clockwise) for w in state.wolves)
                state = replace(state, wolves=wolves, raccoon_clockwise=not state.raccoon_clockwise)
                notes.append("the Raccoon turned the wolves round")
            elif kind == "fox":
                wolves, entered = [], []
                for i, w in enumerate(state.wolves):
                    moved, cells = advance(state.board, state.tiles, i, w, 1)
                    wolves.append(moved)
                    entered += cells
                state = replace(state, wolves=tuple(wolves))
                state = replace(state, capture_due=state.capture_due + len(entered))  # the table says whom they caught
                notes.append("the Fox moved both wolves one space")
            elif kind == "patou" and not patou_phase:
                colour = self._colour(state, sheep)
                others = tuple(
                    j for j, w in enumerate(state.where) if w is Where.BOARD and j != sheep and self._colour(state, j) == colour
                )
                state = replace(state, patou=others)
                notes.append(f"the Patou rounds up the other {colour} sheep")
        if notes:  # a tile acted: worth telling the table
            state = replace(state, last=f"{state.last}; {'; '.join(notes)}", news=True)
        return state

    def _captured(self, state: SheepHopState, cells: list[Cell]) -> SheepHopState:
        before = state.where
        where = capture_on(state, cells)
        ids = state.board.sheep_ids()
        caught = [ids[i] for i, (a, b) in enumerate(zip(before, where, strict=True)) if a is not b]
        at = tuple(None if w is Where.DEN else a for w, a in zip(where, state.at, strict=True))
        note = f"the wolves caught {', '.join(caught)}" if caught else "the wolves caught no sheep"
        return replace(
            state,
            where=where,
            at=at,
            patou=tuple(j for j in state.patou if where[j] is Where.BOARD),
            last=_join(state.last, note),
            news=state.news or bool(caught),
        )

    def _capture(self, state: SheepHopState, event: Event) -> SheepHopState:
        if event.type != CAPTURE:
            raise self.refuse(
                f"say which sheep the wolves passed over (a 'capture' event), got {event.type!r}", self._capture_rule(state)
            )
        raw = event.get("sheep", ())
        if not is_list(raw, of=lambda v: isinstance(v, str)) or len(set(raw)) != len(raw):
            raise self.refuse(f"'sheep' must be a list of distinct sheep names, got {brief(thaw(raw))}", R_WOLF)
        rule = self._capture_rule(state)
        idx = [self._sheep_index(state, s, rule) for s in raw]
        if len(idx) > state.capture_due:
            raise self.refuse(
                f"the wolves entered {state.capture_due} space{'s' if state.capture_due > 1 else ''} and a space holds "
                f"one sheep: at most {state.capture_due} caught, not {len(idx)}",
                rule,
            )
        where = tuple(Where.DEN if j in idx else w for j, w in enumerate(state.where))
        note = f"the wolves caught {', '.join(raw)}" if raw else "the wolves caught no sheep"
        state = replace(
            state,
            where=where,
            capture_due=0,
            patou=tuple(j for j in state.patou if where[j] is Where.BOARD),
            last=_join(state.last, note),
            news=state.news or bool(raw),
        )
        return self._settle(state)

    def _capture_rule(self, state: SheepHopState) -> str:
        face = state.board.face(state.face or "")
        return R_WOLF if face is not None and face.kind == "wolves" else R_FOX

    def _pass(self, state: SheepHopState, event: Event) -> SheepHopState:
        if state.mode is Mode.BOARD:
            raise self.refuse("the app knows the board: a sheep that can move must move", R_MOVE)
        state = replace(state, picked=None, picked_jumps=())
        ids = state.board.sheep_ids()
        if state.phase is Phase.PATOU:
            i = self._sheep_index(state, event.get("sheep"), R_PATOU)
            if i not in state.patou:
                raise self.refuse(f"{ids[i]} is not waiting for the Patou", R_PATOU)
            return self._settle(replace(state, patou=tuple(j for j in state.patou if j != i), last=f"{ids[i]} could not move"))
        return self._end_turn(replace(state, eligible=(), last="no sheep could move: the roll is lost"))

    def _settle(self, state: SheepHopState) -> SheepHopState:
        """After any change: the end of the game, a pending question, or the next turn."""
        if state.count(Where.BOARD) == 0:
            return replace(state, phase=Phase.OVER, eligible=(), patou=(), capture_due=0)
        if state.capture_due:
            return replace(state, phase=Phase.CAPTURE)
        if state.mode is Mode.BOARD and state.patou and not any(Walk(state, j).options(limit=1) for j in state.patou):
            # The table chooses the order, so a boxed-in sheep waits while another can still
            # move (and may free it); once none of those left can move, the Patou is done.
            ids = state.board.sheep_ids()
            stuck = ", ".join(ids[j] for j in state.patou)
            state = replace(state, patou=(), last=_join(state.last, f"{stuck} cannot move"))
        if state.patou:
            return replace(state, phase=Phase.PATOU)
        if state.phase is Phase.SHEEP and state.eligible:
            return state
        return self._end_turn(state)

    def _end_turn(self, state: SheepHopState) -> SheepHopState:
        n = len(state.setup["players"])
        return replace(state, phase=Phase.ROLL, roller=(state.roller + 1) % n, turn=state.turn + 1, face=None, eligible=())

    # -- corrections -------------------------------------------------------
    def _correct(self, state: SheepHopState, event: Event) -> SheepHopState:
        p = event.payload
        keys = {"sheep", "wolves", "tiles", "raccoon"}
        if not p or set(p) - keys:
            raise self.refuse("a correction sets 'sheep', 'wolves', 'tiles' and/or 'raccoon'", "Corrections")
        if state.phase not in (Phase.ROLL, Phase.OVER):
            raise self.refuse("finish answering the current question first; corrections are made before a roll", "Corrections")
        board = state.board
        if "tiles" in p:
            try:
                tiles = self._tiles(thaw(p["tiles"]), board, "tiles")
            except SetupError as e:
                raise self.refuse(str(e), "Corrections") from None
            state = replace(state, tiles=tiles)
        if "raccoon" in p:
            if p["raccoon"] not in data.WOLF_DIRECTIONS:
                raise self.refuse("'raccoon' is 'clockwise' or 'counterclockwise'", "Corrections")
            state = replace(state, raccoon_clockwise=p["raccoon"] == "clockwise")
        if "wolves" in p:
            state = replace(state, wolves=self._corrected_wolves(state, p["wolves"]))
        if "sheep" in p:
            state = self._corrected_sheep(state, p["sheep"])
        self._check_board(state)
        if state.count(Where.BOARD) == 0:
            return replace(state, phase=Phase.OVER, last="corrected", news=True)
        return replace(state, phase=Phase.ROLL, last="corrected", news=True)

    def _corrected_wolves(self, state: SheepHopState, raw: Any) -> tuple[Wolf, ...]:
        names = [w.name for w in state.board.wolves]
        if not isinstance(raw, Mapping) or set(raw) - set(names):
            raise self.refuse("'wolves' maps 'big'/'little' to {position, direction}", "Corrections")
        wolves = list(state.wolves)
        for name, v in raw.items():
            i = names.index(name)
            path = state.board.wolves[i].path
            pos = v.get("position", wolves[i].position) if isinstance(v, Mapping) else None
            d = v.get("direction", "clockwise" if wolves[i].clockwise else "counterclockwise") if isinstance(v, Mapping) else None
            if not isinstance(pos, int) or isinstance(pos, bool) or not 0 <= pos < len(path) or d not in data.WOLF_DIRECTIONS:
                raise self.refuse(f"{name}: position 0 to {len(path) - 1} and direction clockwise/counterclockwise", "Corrections")
            wolves[i] = Wolf(pos, d == "clockwise")
        return tuple(wolves)

    def _corrected_sheep(self, state: SheepHopState, raw: Any) -> SheepHopState:
        ids = state.board.sheep_ids()
        if not isinstance(raw, Mapping) or set(raw) - set(ids):
            raise self.refuse(f"'sheep' maps sheep ({', '.join(ids)}) to where they are", "Corrections")
        where, at = list(state.where), list(state.at)
        for s, v in raw.items():
            i = ids.index(s)
            if v in ("pen", "den"):
                where[i], at[i] = Where(v), None
            elif state.mode is Mode.TABLE and v == "board":
                where[i] = Where.BOARD
            elif state.mode is Mode.BOARD and _is_cell(v) and tuple(v) in state.board.spaces:
                where[i], at[i] = Where.BOARD, (v[0], v[1])
            else:
                want = "a space [row, column], 'pen' or 'den'" if state.mode is Mode.BOARD else "'board', 'pen' or 'den'"
                raise self.refuse(f"{s}: expected {want}, got {v!r}", "Corrections")
        return replace(state, where=tuple(where), at=tuple(at))

    def _check_board(self, state: SheepHopState) -> None:
        """Every space holds at most one piece (wolves may share their own paths' crossing)."""
        if state.mode is not Mode.BOARD:
            return
        taken: dict[Cell, str] = {t.at: t.kind for t in state.tiles}
        ids = state.board.sheep_ids()
        wolves = {wolf_cell(state.board, i, w): state.board.wolves[i].name for i, w in enumerate(state.wolves)}
        for i, (w, a) in enumerate(zip(state.where, state.at, strict=True)):
            if w is not Where.BOARD:
                continue
            assert a is not None
            if a in taken or a in wolves:
                raise self.refuse(f"{ids[i]} cannot share {list(a)} with the {taken.get(a) or wolves[a] + ' wolf'}", "Corrections")
            taken[a] = ids[i]
        for cell, name in wolves.items():
            if cell in {t.at for t in state.tiles}:
                raise self.refuse(f"the {name} wolf cannot stand on a tile at {list(cell)}", "Corrections")

    # -- reading -----------------------------------------------------------
    def legal_actions(self, state: SheepHopState) -> list[Event]:
        if state.phase is Phase.ROLL:
            return [Event(ROLL, {"die": DIE, "faces": [f.name]}) for f in state.board.faces] + self._wolf_starts_now(state)
        # Complete events only: the touch-entry picks are an aid, not moves.
        return [c.event() for c in self._choices(replace(state, picked=None, picked_jumps=()), touch=False)]

    def _animals_in_play(self, state: SheepHopState) -> list[str]:
        """Animal tiles a sheep could jump now, after the mole runs for the jumps tapped so far."""
        try:
            _, tiles = self._table_jumps(state, state.picked_jumps)
        except Bad:
            tiles = state.tiles
        return list(dict.fromkeys(t.kind for t in tiles if t.kind in ANIMAL_TILES))

    def _picked_choices(self, state: SheepHopState) -> tuple[Choice, ...]:
        """Second tap onwards: each animal tile the picked sheep jumped, in order, then where it ended."""
        assert state.picked is not None
        s, jumps = state.board.sheep_ids()[state.picked], list(state.picked_jumps)
        via = f", jumping the {', the '.join(jumps)}" if jumps else ""
        out = [
            Choice(f"{s} moved{via}", SHEEP, {"sheep": s, "pen": False, "jumped": jumps}),
            Choice(f"{s} reached the pen{via}", SHEEP, {"sheep": s, "pen": True, "jumped": jumps}),
            *(Choice(f"{s} jumped the {k}", PICK, {"sheep": s, "jumped": [*jumps, k]}) for k in self._animals_in_play(state)),
        ]
        if state.phase is Phase.PATOU and not jumps:
            out.append(Choice(f"{s} cannot move", PASS, {"sheep": s}))
        out.append(Choice("Choose another sheep", PICK, {}))
        return tuple(out)

    def _choices(self, state: SheepHopState, touch: bool = True) -> tuple[Choice, ...]:
        ids = state.board.sheep_ids()
        if state.phase is Phase.CAPTURE:
            # One sheep per space the wolves entered: every group up to that size, smallest
            # first, as long as the buttons stay few enough to tap (2 spaces, 9 sheep: 46).
            on = [ids[i] for i, w in enumerate(state.where) if w is Where.BOARD]
            out = [Choice("No sheep caught", CAPTURE, {"sheep": []})]
            for k in range(1, min(state.capture_due, len(on)) + 1):
                groups = list(combinations(on, k))
                if len(out) + len(groups) > MAX_CAPTURE_CHOICES:
                    break
                out += [Choice(f"{' and '.join(g)} caught", CAPTURE, {"sheep": list(g)}) for g in groups]
            return tuple(out)
        if state.phase not in (Phase.SHEEP, Phase.PATOU):
            return ()
        if state.mode is Mode.TABLE and state.picked is not None:
            return self._picked_choices(state)
        movers = state.patou if state.phase is Phase.PATOU else state.eligible
        # Table mode with animal tiles in play: tap the sheep first, then the tiles it jumped.
        two_taps = touch and state.mode is Mode.TABLE and bool(self._animals_in_play(state))
        out: list[Choice] = []
        for i in movers:
            if two_taps:
                out.append(Choice(f"Move {ids[i]}", PICK, {"sheep": ids[i], "jumped": []}))
                if state.phase is Phase.PATOU:
                    out.append(Choice(f"{ids[i]} cannot move", PASS, {"sheep": ids[i]}))
            elif state.mode is Mode.BOARD:
                for path, jumped in Walk(state, i).options():
                    dest = "the pen" if path[-1] == PEN else str(path[-1])
                    via = f" jumping {', '.join(jumped)}" if jumped else ""
                    out.append(Choice(f"{ids[i]} to {dest}{via}", SHEEP, {"sheep": ids[i], "path": path}))
            else:
                out.append(Choice(f"{ids[i]} moves", SHEEP, {"sheep": ids[i], "pen": False}))
                out.append(Choice(f"{ids[i]} reaches the pen", SHEEP, {"sheep": ids[i], "pen": True}))
                if state.phase is Phase.PATOU:
                    out.append(Choice(f"{ids[i]} cannot move", PASS, {"sheep": ids[i]}))
        if state.mode is Mode.TABLE and state.phase is Phase.SHEEP:
            out.append(Choice("No sheep can move", PASS, {}))
        return tuple(out)

    def prompt(self, state: SheepHopState) -> Prompt:
        ids = state.board.sheep_ids()
        who = self.players(state)[state.roller]
        # A ruling on screen only for news (sheep caught, a tile's effect); a routine move is in ``last``.
        alert = state.last if state.news and state.last else None
        tone = "penalty" if alert and "caught" in alert and "caught no sheep" not in alert else "info"
        if state.phase is Phase.OVER:
            o = self.outcome(state)
            assert o is not None
            d = o.detail
            verdict = f"won: {d['title']}" if d["won"] else "lost: the wolves captured as many or more"
            text = f"The game is over: {d['saved']} saved, {d['captured']} captured. The flock {verdict}."
            return Prompt(None, text, R_END, expects=(CORRECTION,), alert=alert, tone=tone)
        if state.phase is Phase.ROLL:
            faces = tuple(f.name for f in state.board.faces)
            dice = DiceRequest(DIE, 1, faces)
            if not state.rolled:
                text = f"Put each wolf on a space of its path (your choice; touch its ring), then {who}: roll the die."
                return Prompt(who, text, R_SETUP, expects=(ROLL, WOLF_START, CORRECTION), dice=dice, alert=alert, tone=tone)
            return Prompt(who, f"{who}: roll the die.", R_TURN, expects=(ROLL, CORRECTION), dice=dice, alert=alert, tone=tone)
        if state.phase is Phase.CAPTURE:
            face = state.board.face(state.face or "")
            if face is not None and face.kind == "wolves":
                steps = dict(face.steps)
                how = "; ".join(
                    f"the {w.name} wolf goes {steps[w.name]} space{'s' if steps[w.name] > 1 else ''}"
                    if w.name in steps
                    else f"the {w.name} wolf stays"
                    for w in state.board.wolves
                )
                rule = R_WOLF
            else:
                how, rule = "the Fox sends each wolf 1 space", R_FOX
            skip = ", skipping tiles" if state.tiles else ""
            return Prompt(
                None,
                f"Move the wolves as their pawns face: {how}{skip}. Touch each sheep they passed over (caught), then confirm.",
                rule,
                expects=(CAPTURE,),
                choices=self._choices(state),
                alert=alert,
                tone=tone,
            )
        expects = (SHEEP, PASS, PICK) if state.mode is Mode.TABLE else (SHEEP,)
        if state.picked is not None:
            s = ids[state.picked]
            so_far = f" So far it jumped the {', the '.join(state.picked_jumps)}." if state.picked_jumps else ""
            return Prompt(
                who,
                f"{who}: move {s}. Tap each animal tile it jumps, in order, then where it ended.{so_far}",
                R_PATOU if state.phase is Phase.PATOU else R_MOVE,
                expects=expects,
                choices=self._choices(state),
                alert=alert,
                tone=tone,
            )
        if state.phase is Phase.PATOU:
            names = ", ".join(ids[i] for i in state.patou)
            return Prompt(
                who,
                f"The Patou rounds up the flock: move {names}, one at a time, in the order you choose.",
                R_PATOU,
                expects=expects,
                choices=self._choices(state),
                alert=alert,
                tone=tone,
            )
        face = state.board.face(state.face or "")
        names = ", ".join(ids[i] for i in state.eligible)
        if face is not None and face.kind == "sheep" and any(self._colour(state, i) == face.colour for i in state.eligible):
            text = f"{who}: {face.colour} on the die: move one {face.colour} sheep ({names})"
        else:
            text = f"{who}: move any sheep still on the board ({names})"
        # Short: the headline must stay two lines at 800x480 (the movement rules are on the rule line).
        text += ", one space or jumps over animals."
        if state.mode is Mode.TABLE and any(t.kind in ANIMAL_TILES for t in state.tiles):
            text += " Tap the sheep, then each animal tile it jumps, in order."
        return Prompt(who, text, R_SHEEP_FACE, expects=expects, choices=self._choices(state), alert=alert, tone=tone)

    def describe(self, event: Event) -> str | None:
        return touch.describe(event)

    def scores(self, state: SheepHopState) -> dict[str, int]:
        # Cooperative: everyone shares the flock's score, the sheep saved.
        saved = state.count(Where.PEN)
        return dict.fromkeys(self.players(state), saved)

    def outcome(self, state: SheepHopState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        saved, captured = state.count(Where.PEN), state.count(Where.DEN)
        won = saved > captured  # "if a majority of sheep was saved"
        title = SCALE.get(saved) if won else None
        tally = f"{saved} saved, {captured} caught"
        headline = f"You won together: {tally}{f': {title}' if title else ''}" if won else f"The wolves won: {tally}"
        # The Shepherds' Scale, the rung reached marked, so the table sees how far it was.
        notes = ("Shepherds' Scale, sheep saved:", *(f"{n}: {name}{' (you)' if n == saved and won else ''}" for n, name in sorted(SCALE.items())))
        return Outcome(
            tuple(self.players(state)),
            None,
            {"won": won, "saved": saved, "captured": captured, "title": title},
            won=won,
            headline=headline,
            notes=notes,
        )

    def state_json(self, state: SheepHopState) -> dict[str, Any]:
        ids = state.board.sheep_ids()
        o = self.outcome(state)
        return {
            "mode": state.mode.value,
            "phase": state.phase.value,
            "turn": {"number": state.turn, "player": self.players(state)[state.roller]},
            "face": state.face,
            "saved": state.count(Where.PEN),
            "captured": state.count(Where.DEN),
            "on_board": state.count(Where.BOARD),
            "wolves": {
                w.name: {
                    "position": s.position,
                    "space": list(w.path[s.position]),
                    "direction": "clockwise" if s.clockwise else "counterclockwise",
                    "path_length": len(w.path),
                }
                for w, s in zip(state.board.wolves, state.wolves, strict=True)
            },
            "tiles": [{"tile": t.kind, "at": list(t.at)} for t in state.tiles],
            "raccoon": "clockwise" if state.raccoon_clockwise else "counterclockwise",
            "sheep": {
                s: {"where": w.value, "at": None if a is None else list(a)}
                for s, w, a in zip(ids, state.where, state.at, strict=True)
            },
            "may_move": [ids[i] for i in (state.patou if state.phase is Phase.PATOU else state.eligible)],
            "picked": None if state.picked is None else {"sheep": ids[state.picked], "jumped": list(state.picked_jumps)},
            "last": state.last,
            "result": None if o is None else {"won": o.detail["won"], "title": o.detail["title"]},
        }


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a else b
