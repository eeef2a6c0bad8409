"""Whistle rulings: before the roll, out of turn, "Who blew?", the timing margin, contests.

Timing.  A camera reports a roll only once the dice settle, so a whistle blown
as the dice left the hand can be *reported* after the roll.  A whistle by the
active player up to ``margin`` seconds after the roll's time counts as before
it.  The engine is a pure fold over events, and nothing arrives when the margin
runs out, so a roll that needed a whistle and heard none leaves a pending
:class:`WhistleCheck` instead of a ruling.  It is decided by whichever comes
first:

- a whistle by the active player timed up to the deadline: it counts, no penalty;
- a ``settle`` event (the screen sends it when the deadline has passed, so the
  ruling shows at once; it is also a button), a whistle timed after the deadline,
  or any other play event: the no-whistle penalty is applied, then that event.

So the ruling is never shown and then taken back, and a replayed record rules
exactly as the table did.  While an unattributed whistle that could have come
before the roll is still unanswered ("Who blew?"), the check cannot be decided,
and events that would decide it are refused until the table answers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from companion.errors import IllegalAction
from companion.events import ANSWER, CORRECTION, WHISTLE, Event

from . import rules
from .rules import refuse
from .state import Contest, FleecedState, Phase, Question, Ruling, evolve
from .turns import add_ruling

if TYPE_CHECKING:
    from .engine import Fleeced

SETTLE = "settle"
QUIET_PHASES = (Phase.FIRST_ROLL, Phase.TALLY, Phase.OVER)  # whistles there break no rule


def must_decide_check(s: FleecedState, e: Event) -> bool:
    """Whether the pending whistle check has to be ruled before ``e`` is applied."""
    if s.check is None or e.type in (ANSWER, CORRECTION):
        return False
    if e.type == WHISTLE:  # a late whistle decides it, unless "Who blew?" still holds it open
        return e.time > s.check.deadline and not blocks_check(s)
    return True


def blocks_check(s: FleecedState) -> bool:
    """An unanswered "Who blew?" whose whistle could have come before the pending roll."""
    # Only a whistle heard during this turn can be the roller's: one heard during an earlier turn
    # is judged by that turn (out of turn, or no penalty), so it holds nothing here.
    c = s.check
    return c is not None and any(q.turn == s.turn and c.since < q.time <= c.deadline for q in s.questions)


def fail_check(s: FleecedState) -> FleecedState:
    """No whistle before the roll: apply the penalty as one contestable ruling."""
    check = s.check
    assert check is not None
    if blocks_check(s):
        raise refuse("answer 'Who blew?' first: that whistle may have come before the roll", rules.WHISTLE)
    if ("no-whistle", s.turn_events) in s.reversed:  # replaying a contest: the table says they blew
        return pass_check(s, None)
    if check.purpose == "tow":
        n = s.in_tow
        text = f"No whistle before the roll: {s.player}'s {n} sheep hoof it to the Village Green."
        s = evolve(s, sheep=s.sheep.tow_to_green(s.active))
    else:
        text = f"No whistle before the roll: {s.player}'s rustle fails and the sheep stay where they are."
        assert s.rustle is not None
        s = evolve(s, rustle=replace(s.rustle, whistle_ok=False))
    rule = rules.MOVING if check.purpose == "tow" else rules.RUSTLING
    s = add_ruling(evolve(s, check=None), Ruling("no-whistle", text, rule, s.player))
    return evolve(s, contests=(*s.contests, Contest("no-whistle", len(s.rulings) - 1, s.turn_events)))


def pass_check(s: FleecedState, at: float | None) -> FleecedState:
    """The whistle counts as before the roll (``at``: its time, when it came late)."""
    check = s.check
    assert check is not None
    if s.rustle is not None:
        s = evolve(s, rustle=replace(s.rustle, whistle_ok=True))
    s = evolve(s, check=None)
    if at is None or at <= check.roll_time:
        return s
    return add_ruling(s, Ruling(
        "late-whistle-counted",
        f"{s.player}'s whistle came {at - check.roll_time:.1f} s after the roll was seen: within the "
        f"{s.margin:g} s margin, it counts as before the roll.", rules.WHISTLE, s.player))


def blower_of(s: FleecedState, e: Event) -> str | None:
    payload_blower = e.get("blower")
    if payload_blower is None:
        payload_blower = e.player
    if e.player is not None and payload_blower is not None and payload_blower != e.player:
        raise refuse(f"the whistle's blower ({payload_blower}) and player ({e.player}) disagree", rules.WHISTLE)
    if payload_blower is not None and payload_blower not in s.names:
        raise refuse(f"{payload_blower!r} is not playing", rules.WHISTLE)
    return payload_blower


def on_whistle(s: FleecedState, e: Event) -> FleecedState:
    blower = blower_of(s, e)
    if s.phase in QUIET_PHASES:
        when = "before the game starts" if s.phase is Phase.FIRST_ROLL else "after the game"
        return evolve(s, alert=f"A whistle {when} breaks no rule.")
    if blower is None:
        return evolve(s, questions=(*s.questions, Question(e.time, s.turn, s.active, s.phase is Phase.MOVE)))
    return whistle_by(s, s.names.index(blower), e.time)


def whistle_by(s: FleecedState, who: int, t: float, moving: bool | None = None) -> FleecedState:
    """A whistle by ``who`` at ``t``; ``moving``: heard while a move was going on (default: now)."""
    if who == s.active:
        check = s.check
        if check is not None and check.since < t <= check.deadline:
            return pass_check(s, t)
        if (s.phase is Phase.MOVE if moving is None else moving) and t <= s.last_roll_time + s.margin:
            return s  # counted as before the roll it follows (the margin), so not also before the next one
        if t > s.last_roll_time:
            return evolve(s, whistled=True)
        return s
    return out_of_turn(s, who)


def out_of_turn(s: FleecedState, who: int) -> FleecedState:
    name = s.names[who]
    if not s.sheep.claimed[who]:
        return add_ruling(s, Ruling("no-penalty", f"{name} blew out of turn but has no claimed sheep to lose: "
                                    "no penalty.", rules.WHISTLE, name))
    if ("out-of-turn", s.turn_events) in s.reversed:  # replaying a contest: the table says they did not blow
        return s
    s = add_ruling(evolve(s, sheep=s.sheep.claimed_to_green(who)), Ruling(
        "out-of-turn", f"{name} blew out of turn and loses one claimed sheep to the Village Green.",
        rules.WHISTLE, name))
    return evolve(s, contests=(*s.contests, Contest("out-of-turn", len(s.rulings) - 1, s.turn_events)))


def on_answer(s: FleecedState, e: Event) -> FleecedState:
    """The table answers "Who blew?" for the oldest unattributed whistle."""
    if not s.questions:
        raise refuse("no 'Who blew?' question is waiting", rules.WHISTLE)
    if "blower" not in e.payload:
        raise refuse("say who blew: {'blower': a player's name, or null for noise}", rules.WHISTLE)
    blower = e.get("blower")
    if blower is not None and blower not in s.names:
        raise refuse(f"{blower!r} is not playing", rules.WHISTLE)
    q, rest = s.questions[0], s.questions[1:]
    s = evolve(s, questions=rest)
    if blower is None:
        return add_ruling(s, Ruling("noise", "It was noise, not a whistle: no ruling.", rules.WHISTLE))
    if s.phase in QUIET_PHASES:  # asked during play, answered once all 40 were claimed: nothing left to rule
        return evolve(s, alert="The game is over: that whistle breaks no rule now.")
    who = s.names.index(blower)
    if q.turn != s.turn:  # asked during an earlier turn: judge it by whose turn it was then
        if who == q.active:
            return add_ruling(s, Ruling("no-penalty", f"{blower} blew during their own turn: no penalty.",
                                        rules.WHISTLE, blower))
        return out_of_turn(s, who)
    return whistle_by(s, who, q.time, q.moving)


def on_contest(game: Fleeced, s: FleecedState, e: Event) -> FleecedState:
    """Reverse one penalty of this turn: replay the turn since it with the whistle ruled the other way."""
    if not s.contests:
        raise refuse("there is no whistle ruling to contest this turn (undo to go further back)", rules.WHISTLE)
    wanted = e.get("contest")
    if wanted is True:  # true means the latest penalty
        c = s.contests[-1]
    else:
        c = next((c for c in s.contests if not isinstance(wanted, bool) and wanted == c.ruling), None)
        if c is None:
            open_ = ", ".join(str(c.ruling) for c in s.contests)
            raise refuse(f"only this turn's whistle penalties (rulings {open_}) can be contested; undo to go "
                         "further back", rules.WHISTLE)
    replayed = reverse(game, s, c)
    assert c.snapshot is not None
    original = s.rulings[c.ruling]
    reason = "blew before the roll" if c.kind == "no-whistle" else "did not blow"
    note = Ruling("contested", f"Contested: {original.player} {reason}. Reversed: {original.text}", rules.WHISTLE,
                  original.player)
    # contests made since this penalty's event (their marks and notes were added after it)
    carried = tuple(r for r in s.rulings[len(c.snapshot.rulings):] if r.kind == "contested" or r.contested)
    rulings = (*replayed.rulings, *carried, replace(original, contested=True), note)
    return evolve(replayed, rulings=rulings, alert=note.text)


def reverse(game: Fleeced, s: FleecedState, c: Contest) -> FleecedState:
    assert c.snapshot is not None
    base = evolve(c.snapshot, reversed=s.reversed | {(c.kind, c.key)})
    try:
        for ev in c.events:
            base = game.apply(base, ev)
    except IllegalAction as err:  # the turn went on in a way the reversal forbids
        reason = err.reason
        raise refuse(f"cannot reverse that ruling: what followed it is no longer legal ({reason}); "
                     "undo back to the ruling instead", rules.WHISTLE) from None
    return evolve(base, alert=None)


def contestable(game: Fleeced, s: FleecedState) -> tuple[Contest, ...]:
    """This turn's penalties whose reversal is still possible."""
    ok = []
    for c in s.contests:
        try:
            reverse(game, s, c)
        except IllegalAction:
            continue
        ok.append(c)
    return tuple(ok)
