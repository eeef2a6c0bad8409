"""A turn, steps A to E, as pure functions from state to state.

The game feeds each event to one of the ``on_*`` functions; they change the
flock and then call :func:`settle`, which runs every step that needs no
input (counter, scoring, shearing, the next player) until the table must
answer again: a die, a choice, or a regrouping.  Anything the rules forbid
raises :class:`~.actions.Refusal` before a new state exists.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from . import actions, regroup, reverse, scoring, words
from .actions import Action, Refusal
from .flock import (
    COUNT,
    DIAGONAL,
    DIRECTIONS,
    NEIGHBOURS,
    ORTHOGONAL,
    Flock,
    Grid,
    Pos,
    direction,
    direction_name,
    is_connected,
    turned,
)
from .state import Phase, Scoring, State, Then
from .tiles import Symbol, Tile

PANIC_FACES: tuple[str, ...] = ("blue", "green", "red", "yellow", "black", "white")
START = "Start of the Game"
MENU = "A — The Command Menu"
PANIC = "E — Panic in the Flock"
END = "End of the Game"


# -- reading payloads ---------------------------------------------------------


def sheep_at(state: State, value: object, colour: str | None = None, rule: str = MENU) -> Pos:
    """The square of the sheep an event names: ``[x, y]``, or a colour with one sheep left."""
    grid = state.flock.grid()
    if isinstance(value, str):
        where = state.flock.positions_of(value)
        if len(where) != 1:
            raise Refusal(f"name the {value} sheep by its square [x, y]: {len(where)} are in the flock", rule)
        pos = where[0]
    elif (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        pos = (value[0], value[1])
    else:
        raise Refusal(f"'sheep' must be a square [x, y] (or a colour with one sheep left), got {value!r}", rule)
    if pos not in grid:
        raise Refusal(f"there is no sheep at {list(pos)}", rule)
    if colour is not None and grid[pos] != colour:
        raise Refusal(f"the sheep at {list(pos)} is {grid[pos]}, not {colour}", rule)
    return pos


def step_of(value: object, rule: str = MENU) -> Pos:
    d = direction(value)
    if d is None:
        raise Refusal(f"unknown direction {value!r}: use front, back, left, right or e.g. front-left", rule)
    return d


# -- the tiles ----------------------------------------------------------------

# The rulebook's own words for these actions: "can only be used with one of your
# own sheep", whatever symbol a (calibrated) menu prints on the tile.
OWN_SHEEP_ACTIONS = frozenset({Action.LAMB_PUSH, Action.LAMB_ROLL, Action.LEAPFROG})


def own_only(tile: Tile) -> bool:
    return tile.symbol is Symbol.OWN or tile.action in OWN_SHEEP_ACTIONS


def tile_result(state: State, tile: Tile, payload: Mapping[str, Any]) -> tuple[Grid, str]:
    """The grid and facing a menu action leads to (before any regrouping)."""
    grid = state.flock.grid()
    colour = state.colours[state.active]
    a = tile.action
    if a is Action.EWE_TURN:
        side = payload.get("direction")
        if side not in ("left", "right"):
            raise Refusal("an Ewe Turn needs 'direction': left or right", MENU)
        return actions.ewe_turn(grid, side), turned(state.facing, side)
    if a is Action.ALIGNMENT:
        side = direction_name(payload.get("side"))
        if side not in ORTHOGONAL:
            raise Refusal("an Alignment needs 'side': front, back, left or right", MENU)
        return actions.alignment(grid, DIRECTIONS[side]), state.facing
    sheep = sheep_at(state, payload.get("sheep"))
    d = step_of(payload.get("direction"))
    if own_only(tile) and a in (Action.LINE_PUSH, Action.DIAGONAL_PUSH):
        # The line is pushed from outside: the sheep-face asks that it moves one of yours.
        fits = d in (DIRECTIONS[n] for n in (ORTHOGONAL if a is Action.LINE_PUSH else DIAGONAL))
        if fits and not any(grid[p] == colour for p in actions.pushed_line(grid, sheep, d)):
            raise Refusal(f"this tile only moves one of your own sheep ({colour}); that line moves none of them", MENU)
    elif own_only(tile) and grid[sheep] != colour:
        raise Refusal(
            f"this tile only moves one of your own sheep ({colour}); the sheep at {list(sheep)} is {grid[sheep]}", MENU
        )
    move = {
        Action.LAMB_PUSH: actions.lamb_push,
        Action.LINE_PUSH: actions.line_push,
        Action.DIAGONAL_PUSH: actions.diagonal_push,
        Action.LAMB_ROLL: actions.lamb_roll,
        Action.LEAPFROG: actions.leapfrog,
    }[a]
    return move(grid, sheep, d), state.facing


def on_action(state: State, payload: Mapping[str, Any]) -> State:
    tile_id = payload.get("tile")
    tile = state.tile(tile_id) if isinstance(tile_id, str) else None
    if tile is None:
        raise Refusal(f"unknown tile {tile_id!r}; the menu has " + ", ".join(t.id for t in state.tiles), MENU)
    mine = state.tiles_left[state.active]
    if tile.id not in mine:
        raise Refusal(f"the tile {tile.id} is already covered: it cannot be used again this game", MENU)
    grid, facing = tile_result(state, tile, payload)
    reverse.check(state, tile, payload)
    flock, shift = reverse.placed(grid)
    left = list(state.tiles_left)
    left[state.active] = tuple(t for t in mine if t != tile.id)
    new = replace(
        state,
        flock=flock,
        facing=facing,
        tiles_left=tuple(left),
        last_action=reverse.carried(reverse.undo_of(state, tile, payload), shift),
        rolled_since=False,
        pending_time=tile.time,
        then=Then.ADVANCE,
        scoring=(),
        notice=None,
    )
    return settle(new)


# -- dice and die-chosen moves ------------------------------------------------


def on_panic_roll(state: State, face: object) -> State:
    if face not in PANIC_FACES:
        raise Refusal(f"the panic die shows one of {', '.join(PANIC_FACES)}, got {face!r}", PANIC)
    rule = START if state.truck else PANIC
    if face == "white":
        return replace(state, phase=Phase.TURN, rolled_since=True, notice=None)
    assert isinstance(face, str)
    if not state.flock.positions_of(face):
        # "If no sheep of the drawn colour remain in the flock, the die is rolled again."
        return replace(state, rolled_since=True, notice=f"no {face} sheep left in the flock: roll again ({rule})")
    return replace(state, phase=Phase.PUSH, push_colour=face, rolled_since=True, notice=None)


def on_push(state: State, payload: Mapping[str, Any]) -> State:
    assert state.push_colour is not None
    # With one sheep of the colour left (always so for black) there is nothing to choose.
    rule = START if state.truck else PANIC
    sheep = sheep_at(state, payload.get("sheep", state.push_colour), state.push_colour, rule)
    grid = actions.lamb_push(state.flock.grid(), sheep, step_of(payload.get("direction"), rule))
    then = Then.END_TRUCK if state.truck else Then.END_TURN
    return settle(replace(state, **reverse.moved_to(state, grid), push_colour=None, then=then))


def on_turn(state: State, payload: Mapping[str, Any]) -> State:
    side = payload.get("direction")
    if side not in ("left", "right"):
        raise Refusal("the whole flock turns 90 degrees: 'direction' left or right", PANIC)
    grid = actions.ewe_turn(state.flock.grid(), side)
    then = Then.END_TRUCK if state.truck else Then.END_TURN
    return settle(replace(state, **reverse.moved_to(state, grid, side), facing=turned(state.facing, side), then=then))


def on_regroup_roll(state: State, face: object) -> State:
    if isinstance(face, str) and face.strip().lower() in ("x", "×"):
        face = regroup.CROSS
    if face not in regroup.FACES:
        raise Refusal(f"the regrouping die shows + or X, got {face!r}", regroup.SECTION)
    if state.regroup_face is not None:
        raise Refusal(f"the regrouping die already shows {state.regroup_face}: move the group", regroup.SECTION)
    return replace(state, regroup_face=face, rolled_since=True, notice=None)


def on_regroup(state: State, payload: Mapping[str, Any]) -> State:
    sheep = sheep_at(state, payload.get("sheep"), rule=regroup.SECTION)
    d = direction_name(payload.get("direction")) or payload.get("direction")
    slide = payload.get("slide")
    slide = None if slide is None else direction_name(slide) or slide
    options = regroup.routes(state.flock.grid(), state.regroup_face)
    in_group = [r for r in options if sheep in r.group]
    if not in_group:
        if not any(sheep in g for g in regroup.smallest_groups(state.flock.grid())):
            raise Refusal(
                f"the sheep at {list(sheep)} is not in a smallest group: only a smallest group is regrouped",
                regroup.SECTION,
            )
        if state.regroup_face is None:
            raise Refusal("roll the regrouping die: this group does not touch the flock by a corner", regroup.SECTION)
        raise Refusal("this group has no legal route", regroup.SECTION)
    for r in in_group:
        if r.direction == d and r.slide == slide:
            return settle(replace(state, **reverse.moved_to(state, r.grid), regroup_face=None))
    legal = "; ".join(r.label() for r in in_group)
    face = state.regroup_face or "no die (corner slide)"
    raise Refusal(f"not a legal regrouping with {face}: legal moves for this group are {legal}", regroup.SECTION)


# -- the steps that need no input ---------------------------------------------


def settle(state: State) -> State:
    """Run the turn on until the table must act."""
    if not is_connected(p for p, _ in state.flock.cells):
        return replace(state, phase=Phase.REGROUP, regroup_face=None)
    if state.then is Then.END_TRUCK:
        return end_turn(state)
    if state.then is Then.ADVANCE:
        return advance(state)
    if state.then is Then.PANIC:
        return panic(state)
    return end_turn(state)


def _award(state: State, by_colour: Mapping[str, int], reason: str, shorn: tuple[str, ...] = ()) -> State:
    scores = list(state.scores)
    got = []
    for i, colour in enumerate(state.colours):
        pts = by_colour.get(colour, 0)
        if pts:
            scores[i] += pts
            got.append((name_of(state, i), pts))
    players = {c: name_of(state, i) for i, c in enumerate(state.colours)}
    said = words.award_words(reason, state.flock.grid(), got, players, shorn)
    return replace(state, scores=tuple(scores), scoring=(*state.scoring, Scoring(reason, tuple(got), shorn, said)))


def _shear_and_score(state: State, reason: str) -> State:
    grid, shorn = scoring.shear(state.flock.grid())
    state = replace(state, **reverse.moved_to(state, grid), shorn=state.shorn + shorn)
    return _award(state, scoring.by_rows(grid, from_front=False), reason, shorn)


def advance(state: State) -> State:
    """C (move the counter) and D (score), then E via :func:`panic`."""
    track = state.track
    old = state.time_counter
    new = min(old + state.pending_time, track.final_pen)
    state = replace(state, time_counter=new, pending_time=0)
    for trigger in track.triggers(old, new):
        if trigger.startswith("roger"):
            state = _award(state, scoring.by_rows(state.flock.grid(), from_front=True), trigger)
        else:
            # Scoring first; any split the shearing leaves is regrouped afterwards.
            state = _shear_and_score(state, trigger)
        if trigger == "final-pen":
            return finish(state)
    colour = state.colours[state.active]
    if track.in_field(new, "teammates"):
        state = _award(state, {colour: scoring.teammates(state.flock.grid(), colour)}, "teammates")
    elif track.in_field(new, "black-sheep"):
        state = _award(state, {colour: scoring.black_sheep(state.flock.grid(), colour)}, "black-sheep")
    state = replace(state, then=Then.PANIC)
    if not is_connected(p for p, _ in state.flock.cells):
        return replace(state, phase=Phase.REGROUP, regroup_face=None)
    return panic(state)


def panic(state: State) -> State:
    if state.time_counter in state.track.panic:
        return replace(state, phase=Phase.PANIC_ROLL, then=Then.END_TURN)
    return end_turn(state)


def finish(state: State) -> State:
    # The turn that ends the game is the active player's last turn (the last tie-break).
    last = list(state.last_turn)
    last[state.active] = state.turn
    return replace(state, phase=Phase.OVER, push_colour=None, regroup_face=None, last_turn=tuple(last))


def in_game(state: State, i: int) -> bool:
    """A player whose two sheep are both shorn takes no more part (but may still win)."""
    return bool(state.flock.positions_of(state.colours[i]))


def end_turn(state: State) -> State:
    last = list(state.last_turn)
    last[state.active] = state.turn
    n = len(state.colours)
    state = replace(state, last_turn=tuple(last), push_colour=None, regroup_face=None)
    if state.truck and state.active < n - 1:
        return replace(state, active=state.active + 1, turn=state.turn + 1, phase=Phase.TRUCK_ROLL, notice=None)
    start = 0 if state.truck else state.active + 1
    for k in range(n):
        i = (start + k) % n
        if in_game(state, i) and state.tiles_left[i]:
            nxt = replace(state, active=i, truck=False, turn=state.turn + 1, phase=Phase.ACTION, notice=None)
            if has_action(nxt):
                return nxt
    # "Once all actions are finished, the final shearing takes place."
    state = replace(state, truck=False, notice=None)
    return finish(_shear_and_score(state, "final"))


def name_of(state: State, i: int) -> str:
    return state.setup["players"][i]["name"]


# -- enumeration --------------------------------------------------------------


def legal_tile_payloads(state: State) -> Iterator[dict[str, Any]]:
    """Every legal menu action now, as event payloads.

    Written for speed (the random-play benchmark calls it every turn): the
    resulting flock is only built when the no-reverse check needs it, and the
    moves that are always legal (pushes, leapfrogs) are not re-checked.
    """
    grid = state.flock.grid()
    own = state.colours[state.active]
    for tile_id in state.tiles_left[state.active]:
        tile = state.tile(tile_id)
        assert tile is not None
        guarded = reverse.guarded(state, tile)
        for payload in _candidates(state, tile, grid, own):
            if tile.action is Action.LAMB_ROLL:
                x, y = payload["sheep"]
                dx, dy = DIRECTIONS[payload["direction"]]
                dest = (x + dx, y + dy)
                if dest in grid or not any(
                    (dest[0] + nx, dest[1] + ny) in grid and (dest[0] + nx, dest[1] + ny) != (x, y)
                    for nx, ny in NEIGHBOURS
                ):
                    continue
            if guarded and reverse.undoes(state.last_action, tile, payload):
                continue
            yield payload


def _candidates(state: State, tile: Tile, grid: Mapping[Pos, str], own: str) -> Iterator[dict[str, Any]]:
    a = tile.action
    if a is Action.EWE_TURN:
        for side in ("left", "right"):
            yield {"tile": tile.id, "direction": side}
        return
    if a is Action.ALIGNMENT:
        for side in ORTHOGONAL:
            yield {"tile": tile.id, "side": side}
        return
    if a in (Action.LINE_PUSH, Action.DIAGONAL_PUSH):
        names = ORTHOGONAL if a is Action.LINE_PUSH else DIAGONAL
        for name in names:
            d = DIRECTIONS[name]
            for start in actions.line_representatives(grid, d):
                if own_only(tile) and not any(grid[p] == own for p in actions.pushed_line(grid, start, d)):
                    continue
                yield {"tile": tile.id, "sheep": list(start), "direction": name}
        return
    names = ORTHOGONAL if a is Action.LEAPFROG else tuple(DIRECTIONS)
    for pos, colour in state.flock.cells:
        if own_only(tile) and colour != own:
            continue
        for name in names:
            yield {"tile": tile.id, "sheep": list(pos), "direction": name}


def has_action(state: State) -> bool:
    return next(legal_tile_payloads(state), None) is not None


def push_payloads(state: State) -> list[dict[str, Any]]:
    assert state.push_colour is not None
    return [
        {"sheep": list(pos), "direction": name}
        for pos in state.flock.positions_of(state.push_colour)
        for name in DIRECTIONS
    ]


# -- corrections --------------------------------------------------------------


def on_correction(state: State, payload: Mapping[str, Any]) -> State:
    """The table says what is true: flock, facing, counter, scores, tiles."""
    rule = "Corrections"
    known = {"flock", "facing", "time_counter", "scores", "tiles_left"}
    unknown = set(payload) - known
    if unknown or not payload:
        raise Refusal(f"a correction sets some of {', '.join(sorted(known))}; got {sorted(payload)}", rule)
    names = [name_of(state, i) for i in range(len(state.colours))]
    changes: dict[str, Any] = {}
    if "flock" in payload:
        flock = _flock_from_json(payload["flock"], rule)
        missing = dict(COUNT)
        for c in flock.colours():
            missing[c] -= 1
        if state.phase not in (Phase.REGROUP, Phase.OVER) and not is_connected(p for p, _ in flock.cells):
            raise Refusal(
                "the corrected flock is split: outside a regrouping (and the end) the flock is one group "
                "(sheep sharing sides); put the whole flock as it stands",
                rule,
            )
        changes["flock"] = flock
        changes["shorn"] = tuple(c for c in COUNT for _ in range(missing[c]))
    if "facing" in payload:
        from .flock import COMPASS

        if payload["facing"] not in COMPASS:
            raise Refusal(f"'facing' must be one of {', '.join(COMPASS)}", rule)
        changes["facing"] = payload["facing"]
    if "time_counter" in payload:
        t = payload["time_counter"]
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= state.track.final_pen:
            raise Refusal(f"'time_counter' must be a space from 0 to {state.track.final_pen}", rule)
        changes["time_counter"] = t
    if "scores" in payload:
        pts = payload["scores"]
        if not isinstance(pts, Mapping) or set(pts) - set(names):
            raise Refusal("'scores' must map player names to points", rule)
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in pts.values()):
            raise Refusal("'scores' must be whole numbers of points, 0 or more", rule)
        changes["scores"] = tuple(int(pts.get(n, s)) for n, s in zip(names, state.scores, strict=True))
    if "tiles_left" in payload:
        tl = payload["tiles_left"]
        ids = {t.id for t in state.tiles}
        if not isinstance(tl, Mapping) or set(tl) - set(names):
            raise Refusal("'tiles_left' must map player names to lists of tile ids", rule)
        left = list(state.tiles_left)
        for n, lst in tl.items():
            if (
                not isinstance(lst, (list, tuple))
                or not all(isinstance(t, str) for t in lst)
                or set(lst) - ids
                or len(set(lst)) != len(lst)
            ):
                raise Refusal(f"'tiles_left.{n}' must list distinct tile ids from the menu", rule)
            left[names.index(n)] = tuple(t.id for t in state.tiles if t.id in lst)
        changes["tiles_left"] = tuple(left)
    new = replace(state, **changes, notice="corrected by the table")
    if new.phase is Phase.REGROUP and is_connected(p for p, _ in new.flock.cells):
        return settle(new)
    return new


def _flock_from_json(value: object, rule: str) -> Flock:
    if not isinstance(value, (list, tuple)) or not value:
        raise Refusal("'flock' must list the sheep as {colour, x, y}", rule)
    grid: Grid = {}
    counts: dict[str, int] = {}
    for i, s in enumerate(value):
        ok = (
            isinstance(s, Mapping)
            and isinstance(s.get("colour"), str)
            and s.get("colour") in COUNT
            and all(isinstance(s.get(k), int) and not isinstance(s.get(k), bool) for k in ("x", "y"))
        )
        if not ok:
            raise Refusal(f"flock[{i}] must be {{colour, x, y}} with a sheep colour and whole numbers, got {s!r}", rule)
        pos = (s["x"], s["y"])
        if pos in grid:
            raise Refusal(f"flock[{i}]: two sheep on the square {list(pos)}", rule)
        grid[pos] = s["colour"]
        counts[s["colour"]] = counts.get(s["colour"], 0) + 1
        if counts[s["colour"]] > COUNT[s["colour"]]:
            raise Refusal(f"flock[{i}]: the box has only {COUNT[s['colour']]} {s['colour']} sheep", rule)
    return Flock.of(grid)
