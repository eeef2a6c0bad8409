"""Shear Panic: the Game object the registry hands out (setup, events, prompts, JSON)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from companion.errors import ConfigError, SetupError
from companion.events import CORRECTION, ROLL, Event
from companion.game import Choice, DiceRequest, Game, Outcome, Prompt

from . import regroup, turn, words
from .actions import Refusal
from .board_check import FILES as BOARD_FILES
from .board_check import ShearPanicBoard
from .data import default_flock, validate_flock
from .flock import SHEEP_COLOURS
from .state import Phase, State, Then
from .tiles import default_tiles, validate_tiles
from .track import default_track, validate_track

DEFAULT_COLOURS = ("red", "yellow", "blue", "green")  # the rulebook's examples start Red, then Yellow
FEW = 40  # offer every legal answer as a button when there are at most this many

ACTION = "action"
LAMB_PUSH = "lamb-push"
EWE_TURN = "ewe-turn"
REGROUP = "regroup"


class ShearPanic(Game):
    name = "shear-panic"
    touch_events = frozenset(words.SHEEP_EVENTS)  # a sheep, a tile of the command menu, an arrow on the flock
    title = "Shear Panic"
    rulebook = "shear-panic.md"
    min_players = 3
    max_players = 4
    first_player = "whoever most recently had a haircut starts, then clockwise."
    board_files = BOARD_FILES  # the board facts the table checks once (board_check.py)

    def board_check(self, players: int, data: dict[str, dict[str, Any]] | None = None) -> ShearPanicBoard:
        return ShearPanicBoard(self, players, data or {})

    # -- setup ---------------------------------------------------------------
    def validate_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        players = setup.get("players") if isinstance(setup, Mapping) else None
        if isinstance(players, list) and len(players) == 2:
            raise SetupError(
                "players",
                "3 or 4 players: the rulebook has time tracks for 3 and 4 players only and no 2-player variant",
                2,
            )
        s = super().validate_setup(setup)
        n = len(s["players"])
        taken = set()
        for i, p in enumerate(s["players"]):
            colour = p.get("colour")
            if colour is None:
                continue
            if colour not in SHEEP_COLOURS:
                raise SetupError(f"players[{i}].colour", "one of " + ", ".join(SHEEP_COLOURS), colour)
            if colour in taken:
                raise SetupError(f"players[{i}].colour", "a colour no other player has", colour)
            taken.add(colour)
        free = [c for c in DEFAULT_COLOURS if c not in taken]
        s["players"] = [
            p if "colour" in p and p["colour"] is not None else {**p, "colour": free.pop(0)} for p in s["players"]
        ]
        options = dict(s["options"])
        unknown = set(options) - {"track", "tiles", "flock"}
        if unknown:
            key = sorted(unknown)[0]
            raise SetupError(f"options.{key}", "only track, tiles and flock (board data) as options", options[key])
        # The board data travels in the setup, so a record replays the same on any install.
        options.setdefault("track", default_track(n))
        options.setdefault("tiles", default_tiles())
        options.setdefault("flock", default_flock())
        for key, check in (
            ("track", lambda d: validate_track(d, "options.track", n)),
            ("tiles", lambda d: validate_tiles(d, "options.tiles")),
            ("flock", lambda d: validate_flock(d, "options.flock")),
        ):
            try:
                check(options[key])
            except ConfigError as e:
                where = f"options.{key}" if e.key.startswith("(") else f"options.{key}.{e.key}"
                raise SetupError(where, e.expected, e.actual) from None
        s["options"] = options
        return s

    def initial_state(self, setup: Mapping[str, Any]) -> State:
        o = setup["options"]
        n = len(setup["players"])
        tiles = validate_tiles(o["tiles"], "options.tiles")
        return State(
            setup=setup,
            track=validate_track(o["track"], "options.track", n),
            tiles=tiles,
            colours=tuple(p["colour"] for p in setup["players"]),
            flock=validate_flock(o["flock"], "options.flock"),
            facing="north",
            time_counter=0,
            scores=(0,) * n,
            tiles_left=tuple(tuple(t.id for t in tiles) for _ in range(n)),
            active=0,
            phase=Phase.TRUCK_ROLL,
            then=Then.END_TRUCK,
            last_turn=(0,) * n,
        )

    # -- play ----------------------------------------------------------------
    def apply(self, state: State, event: Event) -> State:
        try:
            return self._apply(state, event)
        except Refusal as r:
            raise self.refuse(r.message, r.rule) from None

    def _apply(self, state: State, event: Event) -> State:
        if event.type == CORRECTION:
            return turn.on_correction(state, event.payload)
        if state.phase is Phase.OVER:
            raise Refusal("the game is over", turn.END)
        prompt = self._prompt(state, with_choices=False)
        who = turn.name_of(state, state.active)
        if event.player is not None and event.player != who:
            raise Refusal(f"it is {who}'s turn, not {event.player}'s", prompt.rule)
        if event.type not in prompt.expects:
            raise Refusal(
                f"expected {' or '.join(prompt.expects)} now ({prompt.text}), got {event.type!r}", prompt.rule
            )
        p = event.payload
        if event.type == ROLL:
            faces = p.get("faces", ())
            want = prompt.dice.die if prompt.dice else "?"
            if p.get("die") != want or not isinstance(faces, tuple) or len(faces) != 1:
                raise Refusal(
                    f"expected one {want} die, got {p.get('die')!r} showing {list(faces) if isinstance(faces, tuple) else faces!r}",
                    prompt.rule,
                )
            if state.phase is Phase.REGROUP:
                return turn.on_regroup_roll(state, faces[0])
            return turn.on_panic_roll(state, faces[0])
        if event.type == ACTION:
            return turn.on_action(state, p)
        if event.type == LAMB_PUSH:
            return turn.on_push(state, p)
        if event.type == EWE_TURN:
            return turn.on_turn(state, p)
        return turn.on_regroup(state, p)

    # -- what the table sees ---------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        return self._prompt(state, with_choices=True)

    def _prompt(self, state: State, with_choices: bool) -> Prompt:
        ph = state.phase
        if ph is Phase.OVER:
            out = self.outcome(state)
            text = "The game is over." if out is None else f"The game is over: {out.ranking[0]} wins."
            return Prompt(None, text, turn.END)
        who = turn.name_of(state, state.active)
        colour = state.colours[state.active]
        # Applying an event needs only what is expected, not the (costly) list of choices.
        events = self.legal_actions(state) if with_choices else []
        if events and ph is Phase.REGROUP:
            # One button per route, the group named by its first sheep: the legal
            # moves name every sheep of the group (a touch on the picture may use any).
            routes = regroup.routes(state.flock.grid(), state.regroup_face)
            events = [Event(REGROUP, r.payload(), who) for r in routes] + [e for e in events if e.type != REGROUP]
        # Dice are entered as faces (the DiceRequest), not offered twice as choices.
        events = [e for e in events if e.type != ROLL]
        choices = tuple(Choice(words.move_words(state, e), e.type, e.payload, who) for e in events) if len(events) <= FEW else ()
        if ph is Phase.TRUCK_ROLL or ph is Phase.PANIC_ROLL:
            why = "the sheep jump down from the truck" if ph is Phase.TRUCK_ROLL else "the counter is on a panic space"
            text = (
                f"{who}: roll the panic die ({why}), then Lamb Push a sheep of the colour it shows"
                " (white: the whole flock does an Ewe Turn)." + (f" {state.notice}" if state.notice else "")
            )
            rule = turn.START if ph is Phase.TRUCK_ROLL else turn.PANIC
            return Prompt(who, text, rule, (ROLL,), DiceRequest("panic", 1, turn.PANIC_FACES), choices)
        rule = turn.START if state.truck else turn.PANIC
        then = "then your marker goes to space 0" if state.truck else "then your turn ends"
        if ph is Phase.PUSH:
            text = (
                f"{who}: Lamb Push a {state.push_colour} sheep one space in any direction, pushing the sheep "
                f"ahead of it; {then}."
            )
            return Prompt(who, text, rule, (LAMB_PUSH,), None, choices)
        if ph is Phase.TURN:
            text = (
                f"{who}: white! The whole flock does an Ewe Turn, left or right (Roger and the Shearer move to "
                f"the new front); {then}."
            )
            return Prompt(who, text, rule, (EWE_TURN,), None, choices)
        if ph is Phase.ACTION:
            text = (
                f"{who} ({colour}): choose an action from your command menu; the counter then moves on by its "
                f"number (now on space {state.time_counter}). {_field_hint(state)}"
            )
            return Prompt(who, text, turn.MENU, (ACTION,), None, choices)
        # Regrouping
        if state.regroup_face is None:
            slides = [e for e in events if e.type == REGROUP]
            text = f"{who}: the flock is split. Roll the regrouping die"
            text += " or slide a group that touches the flock by a corner." if slides else "."
            faces = regroup.FACES
            return Prompt(who, text, regroup.SECTION, (ROLL, REGROUP), DiceRequest("regroup", 1, faces), choices)
        if state.regroup_face == regroup.PLUS:
            how = "orthogonally, in a straight line,"
        else:
            how = (
                "diagonally, in a straight line (meeting the flock at a corner, it slides to the side you choose;"
                " if no diagonal reaches, orthogonally),"
            )
        text = (
            f"{who}: the regrouping die shows {state.regroup_face}: move a smallest group {how} "
            "until it rejoins the flock."
        )
        return Prompt(who, text, regroup.SECTION, (REGROUP,), None, choices)

    def legal_actions(self, state: State) -> list[Event]:
        if state.phase is Phase.OVER:
            return []
        who = turn.name_of(state, state.active)
        return [Event(kind, payload, who) for kind, payload in self.legal_moves(state)]

    def legal_moves(self, state: State) -> list[tuple[str, dict[str, Any]]]:
        """The legal events as (type, payload) pairs, without building Events.

        Building an Event freezes its payload, which costs more than finding
        the move; simulations pick a move here and build one Event.
        """
        ph = state.phase
        if ph is Phase.OVER:
            return []
        if ph is Phase.TRUCK_ROLL or ph is Phase.PANIC_ROLL:
            return [(ROLL, {"die": "panic", "faces": [f]}) for f in turn.PANIC_FACES]
        if ph is Phase.PUSH:
            return [(LAMB_PUSH, p) for p in turn.push_payloads(state)]
        if ph is Phase.TURN:
            return [(EWE_TURN, {"direction": d}) for d in ("left", "right")]
        if ph is Phase.ACTION:
            return [(ACTION, p) for p in turn.legal_tile_payloads(state)]
        out = [(REGROUP, p) for r in regroup.routes(state.flock.grid(), state.regroup_face) for p in r.payloads()]
        if state.regroup_face is None:
            out += [(ROLL, {"die": "regroup", "faces": [f]}) for f in regroup.FACES]
        return out

    def describe_move(self, state: State, event: Event) -> str | None:
        if event.type == CORRECTION:
            return None
        return words.move_words(state, event)

    def announcements(self, state: State) -> tuple[str, ...]:
        return tuple(s.words for s in state.scoring if s.words)

    def turn_phase(self, state: State) -> tuple[int, str]:
        return (state.turn, state.phase.value)

    def scores(self, state: State) -> dict[str, int]:
        return {turn.name_of(state, i): s for i, s in enumerate(state.scores)}

    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        n = len(state.colours)
        sheep = [len(state.flock.positions_of(c)) for c in state.colours]

        def key(i: int) -> tuple[int, int, int]:
            return (-state.scores[i], -sheep[i], state.last_turn[i])

        order = sorted(range(n), key=key)
        names = [turn.name_of(state, i) for i in order]
        tie_break = None
        for a, b in itertools.pairwise(order):
            if state.scores[a] != state.scores[b]:
                continue
            na, nb = turn.name_of(state, a), turn.name_of(state, b)
            if sheep[a] != sheep[b]:
                tie_break = f"{na} and {nb} tied on {state.scores[a]} points; {na} has more sheep left in the flock"
            else:
                tie_break = (
                    f"{na} and {nb} tied on {state.scores[a]} points and {sheep[a]} sheep; "
                    f"{na} would have played earlier (their last turn came first)"
                )
            break
        return Outcome(
            tuple(names), tie_break, {"sheep_left": dict(zip(names, [sheep[i] for i in order], strict=True))}
        )

    def state_json(self, state: State) -> dict[str, Any]:
        track = state.track
        t = state.time_counter
        names = [turn.name_of(state, i) for i in range(len(state.colours))]
        neutral = [c for c in SHEEP_COLOURS if c not in state.colours]
        return {
            "stage": "over" if state.phase is Phase.OVER else ("truck" if state.truck else "fields"),
            "phase": state.phase.value,
            "active": None if state.phase is Phase.OVER else names[state.active],
            "time_counter": t,
            "field": track.field(t),
            "flock": state.flock.to_json(),
            "rows": state.flock.rows(),
            "facing": state.facing,
            "shorn": list(state.shorn),
            "tiles_left": {n: list(tl) for n, tl in zip(names, state.tiles_left, strict=True)},
            "tiles": {
                tile.id: {"action": tile.action.value, "symbol": tile.symbol.value, "time": tile.time}
                for tile in state.tiles
            },
            "scores": dict(zip(names, state.scores, strict=True)),
            "markers": dict(zip(names, state.scores, strict=True)),  # score markers stand on the track at the score
            # markers still in the sheep truck: players whose truck-start Lamb Push is still to come
            "in_truck": names[state.active :] if state.truck and state.phase is not Phase.OVER else [],
            "colours": dict(zip(names, state.colours, strict=True)),
            "neutral": neutral[0] if len(neutral) == 1 else None,
            "in_game": {n: turn.in_game(state, i) for i, n in enumerate(names)},
            "roger": {"present": track.roger_present(t), "side": "front"},
            "shearer": {"present": track.shearer_present(t), "side": "front"},
            "panic_space": t in track.panic,
            "push_colour": state.push_colour,
            "regroup_die": state.regroup_face,
            "scoring": [{"reason": s.reason, "points": dict(s.points), "shorn": list(s.shorn)} for s in state.scoring],
            "announced": [s.words for s in state.scoring if s.words],  # the same phases in words
            "notice": state.notice,
            "track": track.to_json(),
        }


def _field_hint(state: State) -> str:
    """What scores in the field the counter is in, in the rulebook's words."""
    track = state.track
    t = state.time_counter
    field = track.field(t)
    if field == "teammates":
        return "Teammates' field: you score 1 if your two sheep touch by a corner, 2 if by a side."
    if field == "roger":
        where = f"passes the gate (space {track.roger_gate})" if t < track.roger_gate else "reaches his pen"
        return (
            f"Roger's field: when the counter {where}, every sheep scores 4, 3, 2, 1 by row from Roger"
            f" (pen: space {track.roger_pen})."
        )
    if field == "black-sheep":
        return (
            "Black sheep field: you score 1 for each of your sheep touching the black sheep by a corner, 2 by a side."
        )
    where = f"the gate (space {track.shearing_gate}) and " if t < track.shearing_gate else ""
    return (
        f"Shearing field: at {where}the final pen (space {track.final_pen}) the front row is shorn and the others"
        " score 4, 3, 2, 1 from the back."
    )



