"""Battle Sheep rules engine (rulebook: battle-sheep.md).

Events (see docs/games/battle-sheep.md):

- ``place-board`` {"at": [q, r], "rotation": 0-5, "flip": bool}  Setup, step 3
- ``start`` {"at": [q, r]}                                          Setup, step 4
- ``move`` {"from": [q, r], "to": [q, r], "count": n}               Game Play
- ``pick`` {"from": [q, r], "to": [q, r]} or {} (touch entry)        Game Play
- ``result`` {"pastures": n, "largest_herd": n} (quick mode)        End of the Game
- ``correction`` {"stacks": [...], "active": name} or {"results": {...}}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import SetupError
from companion.events import CORRECTION, Event
from companion.game import Choice, Game, Outcome, Prompt, SetupOption
from companion.wording import count

from . import data, touch
from .board_check import FILES as BOARD_FILES
from .board_check import BattleSheepBoard
from .field import legal_placements, parse_placement, place, placement_problem
from .hexes import DIRECTIONS, Hex, distance, largest_component, outside_perimeter
from .state import BattleSheepState, Mode, Phase, Stack

PLACE_BOARD = "place-board"
START = "start"
MOVE = "move"
PICK = "pick"  # touch entry, first tap: a stack and where it slides (the count follows)
RESULT = "result"

R_BUILD = "Setup, step 3"
R_START = "Setup, step 4"
R_SPLIT = "Game Play, step 1"
R_MOVE = "Game Play, step 2"
R_TURN = "Game Play"
R_OUT = "Game Play (trapped stacks, out of the game)"
R_END = "End of the Game"


def _as_hex(value: Any) -> Hex | None:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    return None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def slide(start: Hex, d: Hex, field: frozenset[Hex], occupied: Mapping[Hex, Any]) -> Hex:
    """Where a stack leaving ``start`` in direction ``d`` stops (``start`` if blocked at once)."""
    q, r = start
    dq, dr = d
    while True:
        nxt = (q + dq, r + dr)
        if nxt not in field or nxt in occupied:
            return (q, r)
        q, r = nxt


def _trapped(state: BattleSheepState, at: Hex, occupied: Mapping[Hex, Any] | None = None) -> bool:
    """Blocked on all sides by other sheep (or the field's edge): the stack can no longer move."""
    occ = state.by_hex() if occupied is None else occupied
    return all(n not in state.field or n in occ for n in ((at[0] + dq, at[1] + dr) for dq, dr in DIRECTIONS))


def can_move(state: BattleSheepState, player: int, occupied: Mapping[Hex, Stack] | None = None) -> bool:
    """A player can move if some stack of 2+ sheep has a free pasture beside it."""
    occ = state.by_hex() if occupied is None else occupied
    field = state.field
    for s in state.stacks:
        if s.owner == player and s.count >= 2:
            q, r = s.at
            for dq, dr in DIRECTIONS:
                n = (q + dq, r + dr)
                if n in field and n not in occ:
                    return True
    return False


def moves(state: BattleSheepState) -> list[tuple[Hex, Hex, int]]:
    """(from, to, size of the biggest stack that may split off) for the active player."""
    occ = state.by_hex()
    out = []
    for s in state.stacks:
        if s.owner != state.active or s.count < 2:
            continue
        for d in DIRECTIONS:
            to = slide(s.at, d, state.field, occ)
            if to != s.at:
                out.append((s.at, to, s.count - 1))
    return out


class BattleSheep(Game):
    name = "battle-sheep"
    touch_events = touch.EVENT_TYPES  # every step on the field
    title = "Battle Sheep"
    rulebook = "battle-sheep.md"
    min_players = 2
    max_players = 4
    first_player = "the youngest player starts, then clockwise."
    board_files = BOARD_FILES  # the board facts the table checks once (board_check.py)
    setup_options = (
        SetupOption("mode", "Play", (Mode.BOARD.value, Mode.QUICK.value),
                    ("every move on the field", "quick: only the scores at the end")),
    )

    def board_check(self, players: int, data: dict[str, dict[str, Any]] | None = None) -> BattleSheepBoard:
        return BattleSheepBoard(self, players, data or {})

    # -- setup -------------------------------------------------------------
    def validate_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        s = super().validate_setup(setup)
        opts = s["options"]
        mode = opts["mode"]  # checked against setup_options by Game.validate_setup
        # The board data goes into the setup so that a record replays the same
        # field even if the shipped default is later corrected.
        opts["board"] = data.validate_board(opts.get("board", data.default_board()), "options.board")
        if "boards" in opts:
            if mode == Mode.QUICK.value:
                raise SetupError("options.boards", "no boards in quick mode (the field is not mirrored)", opts["boards"])
            self._field_from_options(opts["boards"], opts["board"], len(s["players"]))
        return s

    def _field_from_options(self, boards: Any, board: Mapping[str, Any], players: int) -> tuple[tuple[Hex, ...], ...]:
        want = data.BOARDS_PER_PLAYER * players
        if not isinstance(boards, list | tuple) or len(boards) != want:
            got = len(boards) if isinstance(boards, list | tuple) else boards
            raise SetupError("options.boards", f"a list of {want} board placements (4 per player)", got)
        shape = tuple((h[0], h[1]) for h in board["hexes"])
        field: frozenset[Hex] = frozenset()
        placed = []
        for i, p in enumerate(boards):
            parsed = parse_placement(p) if isinstance(p, Mapping) else "a placement must be an object"
            if isinstance(parsed, str):
                raise SetupError(f"options.boards[{i}]", parsed, p)
            cells = place(shape, *parsed)
            problem = placement_problem(field, cells)
            if problem:
                raise SetupError(f"options.boards[{i}]", problem.replace("must", "to"), p)
            placed.append(cells)
            field = field | frozenset(cells)
        return tuple(placed)

    def initial_state(self, setup: Mapping[str, Any]) -> BattleSheepState:
        opts = setup["options"]
        shape = tuple((h[0], h[1]) for h in opts["board"]["hexes"])
        n = len(setup["players"])
        if opts["mode"] == Mode.QUICK.value:
            return BattleSheepState(setup, Mode.QUICK, shape, Phase.ENTER, results=(None,) * n)
        if "boards" in opts:
            boards = self._field_from_options(opts["boards"], opts["board"], n)
            field = frozenset(h for b in boards for h in b)
            return BattleSheepState(setup, Mode.BOARD, shape, Phase.START, boards=boards, field=field)
        return BattleSheepState(setup, Mode.BOARD, shape, Phase.BUILD)

    # -- play --------------------------------------------------------------
    def apply(self, state: BattleSheepState, event: Event) -> BattleSheepState:
        if event.type == CORRECTION:
            return self._correct(state, event)
        if state.phase is Phase.OVER:
            raise self.refuse("the game is over", R_END)
        names = self.players(state)
        if state.phase is Phase.ENTER:
            return self._result(state, event, names)
        who = self._whose(state)
        if event.player is not None and event.player != names[who]:
            raise self.refuse(f"it is {names[who]}'s turn, not {event.player}'s", self._rule(state))
        expected = {Phase.BUILD: PLACE_BOARD, Phase.START: START, Phase.PLAY: MOVE}[state.phase]
        if state.phase is Phase.PLAY and event.type == PICK:
            return self._pick(state, event)
        if event.type != expected:
            raise self.refuse(f"expected a {expected!r} event now, got {event.type!r}", self._rule(state))
        if state.phase is Phase.BUILD:
            return self._place_board(state, event)
        if state.phase is Phase.START:
            return self._start(state, event)
        return self._move(state, event)

    def _rule(self, state: BattleSheepState) -> str:
        return {Phase.BUILD: R_BUILD, Phase.START: R_START, Phase.PLAY: R_TURN}.get(state.phase, R_END)

    def _whose(self, state: BattleSheepState) -> int:
        n = len(state.setup["players"])
        if state.phase is Phase.BUILD:
            return len(state.boards) % n  # players take turns arranging boards
        if state.phase is Phase.START:
            return len(state.stacks)  # youngest (first) player first, then clockwise
        return state.active

    def _place_board(self, state: BattleSheepState, event: Event) -> BattleSheepState:
        parsed = parse_placement(event.payload)
        if isinstance(parsed, str):
            raise self.refuse(parsed, R_BUILD)
        cells = place(state.shape, *parsed)
        problem = placement_problem(state.field, cells)
        if problem:
            raise self.refuse(problem, R_BUILD)
        boards = (*state.boards, cells)
        field = state.field | frozenset(cells)
        done = len(boards) == data.BOARDS_PER_PLAYER * len(state.setup["players"])
        return replace(state, boards=boards, field=field, phase=Phase.START if done else Phase.BUILD, turn=state.turn + 1)

    def _start(self, state: BattleSheepState, event: Event) -> BattleSheepState:
        at = _as_hex(event.get("at"))
        if at is None:
            raise self.refuse(f"'at' must be a pasture [q, r], got {event.get('at')!r}", R_START)
        if at not in state.field:
            raise self.refuse(f"{list(at)} is not a pasture of the field", R_START)
        if at not in outside_perimeter(state.field):
            raise self.refuse(f"{list(at)} is not on the outside perimeter of the field", R_START)
        if any(s.at == at for s in state.stacks):
            raise self.refuse(f"pasture {list(at)} already holds a stack", R_START)
        player = len(state.stacks)
        stacks = tuple(sorted((*state.stacks, Stack(at, player, data.SHEEP_PER_PLAYER)), key=lambda s: s.at))
        new = replace(state, stacks=stacks, turn=state.turn + 1)
        if len(stacks) < len(state.setup["players"]):
            return new
        return self._settle(replace(new, phase=Phase.PLAY, turn=1, active=0), advance=False)

    def _slide_of(self, state: BattleSheepState, event: Event, what: str) -> tuple[Stack, Hex]:
        """The mover's stack on 'from' and the checked end 'to' of its slide (Game Play, steps 1-2)."""
        src, dst = _as_hex(event.get("from")), _as_hex(event.get("to"))
        if src is None or dst is None:
            raise self.refuse(f"a {what} needs 'from' and 'to' pastures as [q, r]", R_TURN)
        occ = state.by_hex()
        stack = occ.get(src)
        name = self.players(state)[state.active]
        if stack is None or stack.owner != state.active:
            raise self.refuse(f"{name} has no stack on pasture {list(src)}", R_SPLIT)
        if stack.count < 2:
            raise self.refuse(f"the stack on {list(src)} is a single sheep: it cannot be split into two stacks", R_SPLIT)
        ends = {slide(src, d, state.field, occ) for d in DIRECTIONS} - {src}
        if dst not in ends:
            where = ", ".join(str(list(e)) for e in sorted(ends)) or "nowhere: the stack is trapped"
            raise self.refuse(
                f"the new stack must move in a straight line as far as it can go; from {list(src)} it can reach {where}",
                R_MOVE,
            )
        return stack, dst

    def _pick(self, state: BattleSheepState, event: Event) -> BattleSheepState:
        """Touch entry, first tap: remember the stack and its slide; {} drops the choice."""
        if not event.payload:
            return replace(state, picked=None)
        stack, dst = self._slide_of(state, event, "pick")
        return replace(state, picked=(stack.at, dst))

    def _move(self, state: BattleSheepState, event: Event) -> BattleSheepState:
        count = _count(event.get("count"))
        src = _as_hex(event.get("from"))
        stack = state.by_hex().get(src) if src is not None else None
        if stack is not None and stack.owner == state.active and (count is None or not 1 <= count <= stack.count - 1):
            raise self.refuse(
                f"both stacks must keep at least one sheep: split 1 to {stack.count - 1} "
                f"off the stack of {stack.count}, not {event.get('count')!r}",
                R_SPLIT,
            )
        stack, dst = self._slide_of(state, event, "move")
        assert count is not None
        moved = [s for s in state.stacks if s.at != stack.at]
        moved += [Stack(stack.at, stack.owner, stack.count - count), Stack(dst, stack.owner, count)]
        new = replace(state, stacks=tuple(sorted(moved, key=lambda s: s.at)), turn=state.turn + 1, picked=None)
        return self._settle(new, advance=True)

    def _settle(self, state: BattleSheepState, advance: bool) -> BattleSheepState:
        """Mark players who can no longer move as out, then pass the turn to the next one who can."""
        occ = state.by_hex()
        n = len(state.setup["players"])
        out = frozenset(p for p in range(n) if p in state.out or not can_move(state, p, occ))
        if len(out) == n:
            return replace(state, out=out, phase=Phase.OVER)
        nxt = (state.active + 1) % n if advance else state.active
        while nxt in out:  # players who are out are skipped from then on
            nxt = (nxt + 1) % n
        return replace(state, out=out, active=nxt, phase=Phase.PLAY)

    def _result(self, state: BattleSheepState, event: Event, names: list[str]) -> BattleSheepState:
        if event.type != RESULT:
            raise self.refuse(f"quick mode expects 'result' events, got {event.type!r}", R_END)
        if event.player not in names:
            raise self.refuse(f"a result must name its player (one of {', '.join(names)})", R_END)
        i = names.index(event.player)
        if state.results[i] is not None:
            raise self.refuse(f"{event.player}'s result is already entered; use a correction to change it", R_END)
        figures = self._figures(event.payload, event.player)
        results = tuple(figures if j == i else r for j, r in enumerate(state.results))
        return self._maybe_over(replace(state, results=results))

    def _figures(self, payload: Mapping[str, Any], who: str) -> tuple[int, int]:
        pastures, herd = _count(payload.get("pastures")), _count(payload.get("largest_herd"))
        cap = data.SHEEP_PER_PLAYER  # one sheep at least per occupied pasture
        if pastures is None or not 1 <= pastures <= cap:
            raise self.refuse(f"{who}: pastures must be a whole number from 1 to {cap}, got {payload.get('pastures')!r}", R_END)
        if herd is None or not 1 <= herd <= pastures:
            raise self.refuse(
                f"{who}: largest herd must be a whole number from 1 to the pastures occupied ({pastures}), "
                f"got {payload.get('largest_herd')!r}",
                R_END,
            )
        return (pastures, herd)

    def _maybe_over(self, state: BattleSheepState) -> BattleSheepState:
        done = all(r is not None for r in state.results)
        return replace(state, phase=Phase.OVER if done else Phase.ENTER)

    # -- corrections -------------------------------------------------------
    def _correct(self, state: BattleSheepState, event: Event) -> BattleSheepState:
        names = self.players(state)
        p = event.payload
        if state.mode is Mode.QUICK:
            res = p.get("results")
            if not isinstance(res, Mapping) or not res or set(res) - set(names) or set(p) - {"results"}:
                raise self.refuse("a quick-mode correction needs 'results': player name to {pastures, largest_herd}", "Corrections")
            results = list(state.results)
            for who, fig in res.items():
                if not isinstance(fig, Mapping):
                    raise self.refuse(f"{who}: expected {{pastures, largest_herd}}", "Corrections")
                results[names.index(who)] = self._figures(fig, who)
            return self._maybe_over(replace(state, results=tuple(results)))
        if state.phase not in (Phase.PLAY, Phase.OVER) or set(p) - {"stacks", "active"} or not p:
            raise self.refuse(
                "a correction sets 'stacks' (every stack on the field) and/or 'active' (whose turn), once play has begun",
                "Corrections",
            )
        new = state
        if "stacks" in p:
            new = replace(new, stacks=self._corrected_stacks(state, p["stacks"], names), out=frozenset())
        active = p.get("active", names[new.active])
        if active not in names:
            raise self.refuse(f"'active' must be a player's name, got {active!r}", "Corrections")
        # Out is recomputed from the corrected field: a correction may free a stack.
        new = replace(new, active=names.index(active), out=frozenset(), phase=Phase.PLAY, picked=None)
        return self._settle(new, advance=False)

    def _corrected_stacks(self, state: BattleSheepState, raw: Any, names: list[str]) -> tuple[Stack, ...]:
        if not isinstance(raw, list | tuple):
            raise self.refuse("'stacks' must be a list of {at, player, count}", "Corrections")
        stacks: dict[Hex, Stack] = {}
        totals = dict.fromkeys(range(len(names)), 0)
        for i, s in enumerate(raw):
            at = _as_hex(s.get("at")) if isinstance(s, Mapping) else None
            count = _count(s.get("count")) if isinstance(s, Mapping) else None
            who = s.get("player") if isinstance(s, Mapping) else None
            if at is None or count is None or count < 1 or who not in names:
                raise self.refuse(f"stacks[{i}]: expected {{at: [q, r], player: name, count: 1+}}, got {s!r}", "Corrections")
            if at not in state.field or at in stacks:
                raise self.refuse(f"stacks[{i}]: {list(at)} is not a free pasture of the field", "Corrections")
            stacks[at] = Stack(at, names.index(who), count)
            totals[names.index(who)] += count
        for i, t in totals.items():
            if t != data.SHEEP_PER_PLAYER:  # sheep never leave the field: 16 each, always
                raise self.refuse(f"{names[i]}'s stacks hold {t} sheep, not {data.SHEEP_PER_PLAYER}", "Setup, step 1")
        return tuple(sorted(stacks.values(), key=lambda s: s.at))

    # -- reading -----------------------------------------------------------
    def legal_actions(self, state: BattleSheepState) -> list[Event]:
        names = self.players(state)
        if state.phase is Phase.BUILD:
            who = names[self._whose(state)]
            return [
                Event(PLACE_BOARD, {"at": list(at), "rotation": rot, "flip": flip}, player=who)
                for at, rot, flip, _ in legal_placements(state.field, state.shape)
            ]
        if state.phase is Phase.PLAY:  # complete moves (picks are only a touch aid)
            who = names[state.active]
            return [
                Event(MOVE, {"from": list(src), "to": list(dst), "count": k}, player=who)
                for src, dst, most in moves(state)
                for k in range(1, most + 1)
            ]
        return [c.event() for c in self._choices(state)]

    def _choices(self, state: BattleSheepState) -> tuple[Choice, ...]:
        names = self.players(state)
        if state.phase is Phase.START:
            who = names[self._whose(state)]
            taken = {s.at for s in state.stacks}
            free = sorted(outside_perimeter(state.field) - taken)
            return tuple(Choice(f"Start on {list(h)}", START, {"at": list(h)}, who) for h in free)
        if state.phase is Phase.PLAY:
            who = names[state.active]
            if state.picked is not None:  # second tap: how many sheep split off
                src, dst = state.picked
                size = state.by_hex()[src].count
                return (
                    *(
                        Choice(f"{k} sheep", MOVE, {"from": list(src), "to": list(dst), "count": k}, who)
                        for k in range(1, size)
                    ),
                    Choice("Choose another move", PICK, {}, who),
                )
            occ = state.by_hex()
            return tuple(  # first tap: a stack and the end of one of its straight lines
                Choice(
                    f"Stack of {occ[src].count} on {list(src)} to {list(dst)} ({count(distance(src, dst), 'pasture')} away)",
                    PICK,
                    {"from": list(src), "to": list(dst)},
                    who,
                )
                for src, dst, _ in moves(state)
            )
        return ()

    def prompt(self, state: BattleSheepState) -> Prompt:
        names = self.players(state)
        if state.phase is Phase.OVER:
            o = self.outcome(state)
            assert o is not None
            w = o.ranking[0]
            key = (o.detail["pastures"][w], o.detail["largest_herd"][w])
            top = [n for n in o.ranking if (o.detail["pastures"][n], o.detail["largest_herd"][n]) == key]
            who = f"{' and '.join(top)} share first place" if len(top) > 1 else f"{w} wins"
            return Prompt(
                None,
                f"The game is over: {who} with {count(key[0], 'pasture')} (largest herd {key[1]}).",
                R_END,
                expects=(CORRECTION,),
            )
        if state.phase is Phase.ENTER:
            missing = [n for n, r in zip(names, state.results, strict=True) if r is None]
            return Prompt(
                None,
                f"Count each player's pastures and largest herd (pastures joined by sides); still to enter: {', '.join(missing)}.",
                R_END,
                expects=(RESULT, CORRECTION),
            )
        who = names[self._whose(state)]
        if state.phase is Phase.BUILD:
            total = data.BOARDS_PER_PLAYER * len(names)
            return Prompt(
                who,
                f"{who}: place pasture board {len(state.boards) + 1} of {total} so it touches the field by at least one side.",
                R_BUILD,
                expects=(PLACE_BOARD,),
            )
        if state.phase is Phase.START:
            return Prompt(
                who,
                f"{who}: put your stack of {data.SHEEP_PER_PLAYER} sheep on a free pasture on the outside edge of the field "
                "(best on one of your own boards, to spread out the stacks).",
                R_START,
                expects=(START,),
                choices=self._choices(state),
            )
        out = [names[i] for i in sorted(state.out)]
        note = f" Out (skipped): {', '.join(out)}." if out else ""
        if state.picked is not None:
            src, dst = state.picked
            size = state.by_hex()[src].count
            text = (
                f"{who}: How many of the {size} sheep on {list(src)} go to {list(dst)}? "
                f"From 1 to {size - 1}: at least one stays behind.{note}"
            )
            rule = R_SPLIT
        else:
            text = (
                f"{who}: split one of your stacks and move the new stack in a straight line as far as it can go: "
                f"choose the stack and where it stops, then how many sheep go.{note}"
            )
            rule = R_TURN
        return Prompt(
            who,
            text,
            rule,
            expects=(MOVE, PICK, CORRECTION),
            choices=self._choices(state),
            alert=f"{', '.join(out)} can no longer move" if out else None,
        )

    def _figures_now(self, state: BattleSheepState) -> tuple[dict[str, int], dict[str, int]]:
        names = self.players(state)
        if state.mode is Mode.QUICK:
            pastures = {n: (r[0] if r else 0) for n, r in zip(names, state.results, strict=True)}
            herds = {n: (r[1] if r else 0) for n, r in zip(names, state.results, strict=True)}
            return pastures, herds
        cells: dict[int, list[Hex]] = {i: [] for i in range(len(names))}
        for s in state.stacks:
            cells[s.owner].append(s.at)
        return (
            {names[i]: len(c) for i, c in cells.items()},
            {names[i]: largest_component(c) for i, c in cells.items()},
        )

    def scores(self, state: BattleSheepState) -> dict[str, int]:
        return self._figures_now(state)[0]

    def outcome(self, state: BattleSheepState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        names = self.players(state)
        pastures, herds = self._figures_now(state)
        ranking = sorted(names, key=lambda n: (-pastures[n], -herds[n], names.index(n)))
        notes = []
        for value in sorted(set(pastures.values()), reverse=True):
            tied = [n for n in ranking if pastures[n] == value]
            if len(tied) < 2:
                continue
            figures = ", ".join(f"{n} {herds[n]}" for n in tied)
            note = f"{' and '.join(tied)} occupy {count(value, 'pasture')} each; largest herd decides: {figures}"
            if len({herds[n] for n in tied}) < len(tied):
                note += " (equal herds share the place; the rulebook has no further tie-break, listed in turn order)"
            notes.append(note)
        best = (pastures[ranking[0]], herds[ranking[0]]) if ranking else None
        shared = tuple(n for n in ranking if (pastures[n], herds[n]) == best)  # equal herds too: a shared win
        return Outcome(
            tuple(ranking),
            "; ".join(notes) or None,
            {"pastures": pastures, "largest_herd": herds},
            winners=shared if len(shared) > 1 else (),
        )

    def state_json(self, state: BattleSheepState) -> dict[str, Any]:
        names = self.players(state)
        pastures, herds = self._figures_now(state)
        occ = state.by_hex()
        who = names[self._whose(state)] if state.phase in (Phase.BUILD, Phase.START, Phase.PLAY) else None
        return {
            "mode": state.mode.value,
            "phase": state.phase.value,
            "turn": {"number": state.turn, "player": who},
            "pastures": pastures,
            "largest_herd": herds,
            "out": [names[i] for i in sorted(state.out)],
            "boards_placed": len(state.boards),
            "field": [list(h) for h in sorted(state.field)],
            "stacks": [{"at": list(s.at), "player": names[s.owner], "count": s.count} for s in state.stacks],
            "trapped": [list(s.at) for s in state.stacks if _trapped(state, s.at, occ)],
            "picked": None if state.picked is None else {"from": list(state.picked[0]), "to": list(state.picked[1])},
        }
