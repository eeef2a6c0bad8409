"""The Fleeced! game object: setup, the event dispatcher, scores and the JSON the screen reads."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import SetupError
from companion.events import ANSWER, CORRECTION, ROLL, WHISTLE, Event
from companion.game import Game, Outcome, Prompt, SetupOption
from companion.payload import is_one_of

from . import hands, prompts, rules, scoring, turns, whistles
from .board import (
    CARD_KINDS,
    HARD_CHEESE,
    HIDEOUTS,
    HOMES,
    JUMP_TO,
    KEYS,
    ROLL_TWO,
    SKELETON_KEY,
    STARTING_HAND,
    TOTAL_SHEEP,
    UNSEEN,
    key_for,
)
from .rules import refuse
from .state import FleecedState, Flocks, Phase, evolve

DEFAULT_MARGIN = 1.5  # seconds; see docs/games/fleeced.md, "Whistle timing"

# Table-reported event types (besides the shared roll / whistle / answer / correction).
LANDED = "landed"
DRAW = "draw"
DISCARD = "discard"
PLAY = "play"
ABANDON = "abandon"
OPEN = "open"
HIDEOUT_CARD = "hideout-card"
RUSTLE = "rustle"
END_TURN = "end-turn"
BRIBE = "bribe"
SERVE = "serve"
TALLY = "tally"
SETTLE = whistles.SETTLE


class Fleeced(Game):
    name = "fleeced"
    title = "Fleeced!"
    rulebook = "fleeced.md"
    min_players = 2
    max_players = 6
    first_player = "everyone rolls two dice when the game starts, highest first; the table asks for them."
    box_has_d6 = True  # \"2 dice\" (Contents)
    setup_options = (
        # How late after the roll a whistle still counts (the rulebook gives no margin; docs/games/fleeced.md).
        SetupOption("whistle_margin", "A late whistle counts up to", (1.0, 1.5, 2.0, 3.0),
                    ("1 s after the roll", "1.5 s after the roll", "2 s after the roll", "3 s after the roll"),
                    default=DEFAULT_MARGIN, open_values=True),  # a stored setup may hold any 0-10 s (checked below)
        SetupOption("tie_break", "A tie on points", tuple(scoring.TIE_BREAKS),
                    ("a shared win (the rulebook)", "most sheep claimed wins (house rule)")),
    )
    engine_rolls_first = True  # its first phase is that roll (Phase.FIRST_ROLL), recorded as events

    # -- setup ---------------------------------------------------------------
    def validate_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        s = super().validate_setup(setup)
        taken: set[str] = set()
        for i, p in enumerate(s["players"]):
            c = p.get("character")
            if c is not None:
                if not is_one_of(c, HOMES):
                    raise SetupError(f"players[{i}].character", f"one of {', '.join(HOMES)}", c)
                if c in taken:
                    raise SetupError(f"players[{i}].character", "a character no other player has", c)
                taken.add(c)
        # A player called "Gromit" plays Gromit (unless someone chose Gromit); others get the first free one.
        chosen = [p.get("character") for p in s["players"]]
        for i, p in enumerate(s["players"]):
            if chosen[i] is None and p["name"] in HOMES and p["name"] not in taken:
                chosen[i] = p["name"]
                taken.add(p["name"])
        for i in range(len(chosen)):
            if chosen[i] is None:
                chosen[i] = next(h for h in HOMES if h not in taken)
                taken.add(chosen[i])
        players = [{**p, "character": c} for p, c in zip(s["players"], chosen, strict=True)]
        for i, p in enumerate(players):
            hand = p.get("hand")
            if hand is None:
                continue
            if (not isinstance(hand, list) or len(hand) != STARTING_HAND
                    or any(c not in (*CARD_KINDS, UNSEEN) or c == HARD_CHEESE for c in hand)):
                raise SetupError(f"players[{i}].hand", f"{STARTING_HAND} cards dealt (no Hard Cheese), of "
                                 f"{', '.join(k for k in CARD_KINDS if k != HARD_CHEESE)} or '?'", hand)
        margin = s["options"].setdefault("whistle_margin", DEFAULT_MARGIN)
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 <= margin <= 10 \
                or not math.isfinite(margin):
            raise SetupError("options.whistle_margin", "seconds from 0 to 10", margin)
        return {**s, "players": players}

    def initial_state(self, setup: Mapping[str, Any]) -> FleecedState:
        players = setup["players"]
        n = len(players)
        names = tuple(p["name"] for p in players)
        return FleecedState(
            setup=setup,
            names=names,
            characters=tuple(p["character"] for p in players),
            margin=float(setup["options"].get("whistle_margin", DEFAULT_MARGIN)),
            sheep=Flocks(hideouts=len(HIDEOUTS), bag=TOTAL_SHEEP - len(HIDEOUTS), green=0,
                         in_tow=(0,) * n, claimed=(0,) * n),
            hands=tuple(tuple(p.get("hand") or (UNSEEN,) * STARTING_HAND) for p in players),
            contenders=tuple(range(n)),
            misses_turn=(False,) * n,
            at_police=(False,) * n,
            tallies=(None,) * n,
        )

    # -- play ----------------------------------------------------------------
    def apply(self, state: FleecedState, event: Event) -> FleecedState:
        s = evolve(state, alert=None) if state.alert is not None else state
        if event.type == CORRECTION:
            return self._dispatch(s, event)
        s = evolve(s, turn_events=s.turn_events + 1)
        if event.type == SETTLE:  # the screen's timer: the margin has passed, rule now
            if s.check is None:
                raise refuse("no whistle ruling is waiting", rules.WHISTLE)
            s = whistles.fail_check(s)
        else:
            if whistles.must_decide_check(s, event):
                s = whistles.fail_check(s)
            s = self._dispatch(s, event)
        if s.contests:  # to replay if contested: new penalties start here, older ones see one more event
            old = {id(c) for c in state.contests}
            s = evolve(s, contests=tuple(
                replace(c, events=(*c.events, event)) if id(c) in old
                else replace(c, snapshot=state, events=(event,)) if c.snapshot is None else c
                for c in s.contests))
        return s

    def _dispatch(self, s: FleecedState, e: Event) -> FleecedState:
        t = e.type
        if t == WHISTLE:
            return whistles.on_whistle(s, e)
        if t == ANSWER:
            return whistles.on_answer(s, e)
        if t == CORRECTION:
            if "contest" not in e.payload:
                raise refuse("a correction here contests a whistle ruling: {'contest': ruling number}", rules.WHISTLE)
            return whistles.on_contest(self, s, e)
        if s.phase is Phase.OVER:
            raise refuse("the game is over", rules.VICTORY)
        if t == PLAY:
            return self._play(s, e)
        if t == TALLY:
            return self._tally(s, e)
        if s.phase is Phase.TALLY:
            raise refuse("all 40 sheep are claimed: enter each player's sheep by kind", rules.VICTORY)
        if s.phase is Phase.FIRST_ROLL:
            return self._first_roll(s, e)
        self._check_turn(s, e)
        handler = {
            ROLL: self._roll,
            LANDED: self._landed,
            DRAW: self._draw,
            DISCARD: self._discard,
            ABANDON: self._abandon,
            OPEN: self._open,
            HIDEOUT_CARD: self._hideout_card,
            RUSTLE: self._rustle,
            END_TURN: self._end_turn,
            BRIBE: self._nicked,
            SERVE: self._nicked,
        }.get(t)
        if handler is None:
            raise refuse(f"{t!r} is not a Fleeced! event", rules.TURN)
        return handler(s, e)

    def _check_turn(self, s: FleecedState, e: Event) -> None:
        if e.player is not None and e.player != s.player:
            raise refuse(f"it is {s.player}'s turn, not {e.player}'s", rules.TURN)

    def _expect(self, s: FleecedState, e: Event, *phases: Phase, rule: str) -> None:
        if s.phase not in phases:
            raise refuse(f"{e.type!r} is not possible now: {prompts.phase_text(s)}", rule)

    def _faces(self, e: Event, count: int) -> tuple[int, ...]:
        if e.get("die", "d6") != "d6":
            raise refuse(f"Fleeced! uses ordinary dice, not {e.get('die')!r}", rules.MOVING)
        faces = e.get("faces", ())
        if (not isinstance(faces, tuple) or len(faces) != count
                or any(isinstance(f, bool) or not isinstance(f, int) or f not in range(1, 7) for f in faces)):
            n = "one die" if count == 1 else f"{count} dice"
            raise refuse(f"expected {n} showing 1 to 6, got {list(faces) if isinstance(faces, tuple) else faces!r}",
                         rules.MOVING)
        return faces

    def _first_roll(self, s: FleecedState, e: Event) -> FleecedState:
        if e.type != ROLL:
            raise refuse("first everyone rolls two dice to see who goes first", rules.FIRST)
        faces = self._faces(e, 2)
        rolled = {w for w, _ in s.first_rolls}
        who = s.active if e.player is None else s.names.index(e.player) if e.player in s.names else -1
        if who not in s.contenders or who in rolled:
            left = ", ".join(s.names[p] for p in s.contenders if p not in rolled)
            raise refuse(f"only {left} still roll for first player", rules.FIRST)
        return turns.first_roll(s, who, sum(faces))

    def _roll(self, s: FleecedState, e: Event) -> FleecedState:
        if s.phase is Phase.MOVE and not s.reroll:
            raise refuse("only a six (one die) or a double (two dice) earns another roll", rules.MOVING)
        self._expect(s, e, Phase.ROLL, Phase.MOVE, rule=rules.MOVING)
        if s.jumped:
            raise refuse("a 'Jump to…' card replaces the roll", rules.MOVING)
        return turns.roll(s, self._faces(e, s.dice), e.time)

    def _landed(self, s: FleecedState, e: Event) -> FleecedState:
        self._expect(s, e, Phase.MOVE, rule=rules.MOVING)
        via_home = e.get("via_home", False)
        if not isinstance(via_home, bool):
            raise refuse(f"via_home is true or false (passed through Home with movement to spare), not {via_home!r}",
                         rules.HOME)
        return turns.land(s, e.get("where"), e.get("hideout"), via_home, e.get("squares"))

    def _draw(self, s: FleecedState, e: Event) -> FleecedState:
        self._expect(s, e, Phase.DRAW, rule=rules.CHEESE)
        return hands.draw(s, e.get("card"))

    def _discard(self, s: FleecedState, e: Event) -> FleecedState:
        self._expect(s, e, Phase.DISCARD, rule=rules.CHEESE)
        return hands.discard(s, e.get("card"), e.get("copy"))

    def _play(self, s: FleecedState, e: Event) -> FleecedState:
        card = e.get("card")
        if card not in CARD_KINDS:
            raise refuse(f"a Cheese Card is one of {', '.join(CARD_KINDS)}, not {card!r}", rules.CHEESE)
        if s.phase in (Phase.FIRST_ROLL, Phase.TALLY):
            raise refuse("Cheese Cards are played during the game", rules.CHEESE)
        who = s.active if e.player is None else s.names.index(e.player) if e.player in s.names else -1
        if who < 0:
            raise refuse(f"{e.player!r} is not playing", rules.CHEESE)
        if card == HARD_CHEESE:
            raise refuse("a Hard Cheese card is played the moment it is drawn", rules.CHEESE)
        if card in KEYS or card == SKELETON_KEY:
            raise refuse("a key is played by opening a hideout on its doorstep ('open')", rules.HIDEOUT)
        if card in (ROLL_TWO, JUMP_TO):
            if who != s.active:
                raise refuse(f"it is {s.player}'s turn, not {s.names[who]}'s", rules.TURN)
            if s.phase is not Phase.ROLL or s.move != "main":
                raise refuse("movement cards are played before the move's roll", rules.MOVING)
            if s.in_tow:
                what = "'Jump to…'" if card == JUMP_TO else "'Roll 2 x Dice' (with sheep you roll two anyway)"
                raise refuse(f"no {what} with sheep in tow", rules.MOVING)
            if card == ROLL_TWO and s.roll2:
                raise refuse("'Roll 2 x Dice' is already played this turn", rules.MOVING)
        s = hands.play(s, who, card)
        if card == ROLL_TWO:
            return evolve(s, roll2=True, dice=2)
        if card == JUMP_TO:
            return evolve(s, jumped=True, phase=Phase.MOVE)
        # Any other card (a protection, ...): the table applies it; say so, or the hand shrinks unseen (F23).
        return evolve(s, alert=f"{s.names[who]} played a Cheese Card: do what it says at the table; "
                      "it goes under the pile.")

    def _abandon(self, s: FleecedState, e: Event) -> FleecedState:
        if not (s.phase is Phase.ACTIONS or (s.phase is Phase.ROLL and s.move == "main")):
            raise refuse("sheep are abandoned before or after the move, not during it", rules.ABANDON)
        if not s.in_tow:
            raise refuse(f"{s.player} has no sheep in tow to abandon", rules.ABANDON)
        n = s.in_tow
        s = evolve(s, sheep=s.sheep.tow_to_green(s.active), dice=2 if s.roll2 else 1,
                    alert=f"{s.player} abandons {n} sheep to the Village Green.")
        return s

    def _open(self, s: FleecedState, e: Event) -> FleecedState:
        self._expect(s, e, Phase.ACTIONS, rule=rules.HIDEOUT)
        h, card = e.get("hideout"), e.get("card")
        if not isinstance(h, str) or h not in HIDEOUTS:
            raise refuse(f"hideouts are {', '.join(HIDEOUTS)}, not {h!r}", rules.HIDEOUT)
        if s.opened_this_turn:
            raise refuse("one hideout a turn", rules.HIDEOUT)
        if s.doorstep != h:
            raise refuse(f"the move must end on the {HIDEOUTS[h]}'s doorstep", rules.HIDEOUT)
        if card not in (key_for(h), SKELETON_KEY):
            raise refuse(f"the {HIDEOUTS[h]} opens with its own key or a skeleton key, not {card!r}", rules.HIDEOUT)
        s = hands.play(s, s.active, card)
        sheep = replace(s.sheep, hideouts=s.sheep.hideouts - 1, bag=s.sheep.bag + 1)
        return evolve(s, sheep=sheep, opening=h, opened_this_turn=True, phase=Phase.HIDEOUT,
                       alert=f"The {HIDEOUTS[h]}'s marker sheep goes into the Sheep Dip bag: draw a hideout card.")

    def _hideout_card(self, s: FleecedState, e: Event) -> FleecedState:
        self._expect(s, e, Phase.HIDEOUT, rule=rules.HIDEOUT)
        n, bag = e.get("count"), s.sheep.bag
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= bag:
            raise refuse(f"the hideout card's number is 0 to {bag} (the sheep in the bag), not {n!r}", rules.HIDEOUT)
        if s.sheep.hideouts == 0 and n != bag:
            raise refuse(f"the last hideout card must release the whole bag ({bag} sheep) so all 40 can be claimed",
                         rules.HIDEOUT)
        assert s.opening is not None
        sheep = replace(s.sheep, bag=bag - n, green=s.sheep.green + n)
        return evolve(s, sheep=sheep, opened=(*s.opened, (s.opening, n)), opening=None, doorstep=None,
                       phase=Phase.ACTIONS,
                       alert=f"{n} sheep from the {HIDEOUTS[s.opening]} go to the Village Green.")

    def _rustle(self, s: FleecedState, e: Event) -> FleecedState:
        self._expect(s, e, Phase.ACTIONS, rule=rules.RUSTLING)
        return turns.start_rustle(s, e.get("from"))

    def _end_turn(self, s: FleecedState, e: Event) -> FleecedState:
        self._expect(s, e, Phase.ACTIONS, rule=rules.TURN)
        return turns.next_turn(s)

    def _nicked(self, s: FleecedState, e: Event) -> FleecedState:
        self._expect(s, e, Phase.NICKED, rule=rules.NICKED)
        return turns.settle_nicked(s, e.type == BRIBE)

    def _tally(self, s: FleecedState, e: Event) -> FleecedState:
        if s.phase is not Phase.TALLY:
            raise refuse("sheep are counted by kind once all 40 are claimed", rules.VICTORY)
        who = e.player if e.player is not None else e.get("player")
        if who not in s.names:
            raise refuse(f"say whose sheep these are (a player), not {who!r}", rules.VICTORY)
        return scoring.tally(s, s.names.index(who), e.payload)

    # -- reading -------------------------------------------------------------
    def prompt(self, state: FleecedState) -> Prompt:
        return prompts.prompt(self, state)

    def scores(self, state: FleecedState) -> dict[str, int]:
        """Sheep claimed while playing (values stay hidden); points once every tally is in."""
        if state.phase is Phase.OVER:
            return {n: scoring.points(t) for n, t in zip(state.names, state.tallies, strict=True)}
        return dict(zip(state.names, state.sheep.claimed, strict=True))

    def outcome(self, state: FleecedState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        ranking, tie = scoring.ranking(state)
        shared = scoring.winners(state)  # everyone level with the leader (scoring.tie_break): a shared win
        return Outcome(ranking, tie, {"points": self.scores(state)}, winners=shared if len(shared) > 1 else (),
                       shared=scoring.shared_places(state))

    def describe(self, event: Event) -> str | None:
        return prompts.describe(event)

    def turn_phase(self, state: FleecedState) -> tuple[int, str]:
        return (state.turn, state.phase.value)

    def state_json(self, state: FleecedState) -> dict[str, Any]:
        return prompts.state_json(state)
