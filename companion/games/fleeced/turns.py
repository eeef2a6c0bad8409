"""Turn flow: who plays next, rolls and re-rolls, landings, rustles, Nicked!, Home.

Every function takes a state and returns a new one; none of them checks whose
event it is (``engine`` does that) but each refuses what its rule forbids.
"""

from __future__ import annotations

from dataclasses import replace

from . import rules
from .board import CHEESE, DOORSTEP, GREEN, HIDEOUTS, HOME, LANDINGS, TOTAL_SHEEP
from .rules import refuse
from .state import FleecedState, Phase, Ruling, Rustle, WhistleCheck, evolve, set_at


def add_ruling(s: FleecedState, ruling: Ruling) -> FleecedState:
    alert = ruling.text if s.alert is None else f"{s.alert} {ruling.text}"
    return evolve(s, rulings=(*s.rulings, ruling), alert=alert)


def begin_turn(s: FleecedState, idx: int) -> FleecedState:
    """Start the next turn at seat ``idx``, skipping players serving a Nicked! penalty."""
    n = len(s.names)
    misses = s.misses_turn
    for _ in range(n + 1):  # each skip clears its flag, so one lap always finds a player
        if not misses[idx]:
            break
        misses = set_at(misses, idx, False)
        s = add_ruling(s, Ruling("missed-turn", f"{s.names[idx]} is in the Police Station and misses this turn.",
                                 rules.NICKED, s.names[idx]))
        idx = (idx + 1) % n
    return evolve(
        s,
        phase=Phase.ROLL,
        turn=s.turn + 1,
        active=idx,
        misses_turn=misses,
        start_at_police=s.at_police[idx],
        at_police=set_at(s.at_police, idx, False),
        move="main",
        dice=2 if s.sheep.in_tow[idx] else 1,
        roll2=False,
        jumped=False,
        rolls=(),
        bonuses=0,
        reroll=False,
        whistled=False,
        check=None,
        rustle=None,
        rustled=False,
        opened_this_turn=False,
        doorstep=None,
        opening=None,
        fresh=(),
        contests=(),  # a ruling can be contested only until the turn passes
        turn_events=0,
        reversed=frozenset(),
    )


def next_turn(s: FleecedState) -> FleecedState:
    return begin_turn(s, (s.active + 1) % len(s.names))


# -- the first player -------------------------------------------------------
def first_roll(s: FleecedState, who: int, total: int) -> FleecedState:
    rolled = (*s.first_rolls, (who, total))
    if len(rolled) < len(s.contenders):
        nxt = next(p for p in s.contenders if p not in {w for w, _ in rolled})
        return evolve(s, first_rolls=rolled, active=nxt)
    best = max(t for _, t in rolled)
    tied = tuple(sorted(w for w, t in rolled if t == best))
    if len(tied) > 1:
        who_tied = " and ".join(s.names[w] for w in tied)
        s = evolve(s, contenders=tied, first_rolls=(), active=tied[0],
                    alert=f"{who_tied} tie on {best}: they roll again.")
        return s
    s = evolve(s, contenders=(), first_rolls=(), alert=f"{s.names[tied[0]]} rolled {best} and goes first.")
    return begin_turn(evolve(s, active=tied[0]), tied[0])


# -- rolls ------------------------------------------------------------------
def needs_whistle(s: FleecedState) -> str | None:
    """What the coming roll needs a whistle for, if anything ("tow" or "rustle")."""
    if s.rolls or s.jumped:
        return None  # re-rolls after a six/double need no second whistle
    if s.move == "rustle":
        return "rustle"
    return "tow" if s.in_tow else None


def roll(s: FleecedState, faces: tuple[int, ...], time: float) -> FleecedState:
    bonus = faces[0] == 6 if len(faces) == 1 else len(set(faces)) == 1
    if bonus and s.bonuses == 2:
        what = "A third six" if len(faces) == 1 else "A third double"
        return arrest(s, f"{what} this turn.")
    purpose = needs_whistle(s)
    check = None
    rustle = s.rustle
    if purpose is not None:
        if s.whistled:
            if rustle is not None:
                rustle = replace(rustle, whistle_ok=True)
        else:
            check = WhistleCheck(purpose, time, time + s.margin, s.last_roll_time)
    return evolve(
        s,
        phase=Phase.MOVE,
        rolls=(*s.rolls, sum(faces)),
        bonuses=s.bonuses + bonus,
        reroll=bonus,
        whistled=False,
        last_roll_time=time,
        check=check,
        rustle=rustle,
    )


# -- landing ----------------------------------------------------------------
def land(s: FleecedState, where: str, hideout: str | None, via_home: bool, squares: int | None) -> FleecedState:
    if where not in LANDINGS:
        raise refuse(f"a move ends on one of {', '.join(LANDINGS)}, not {where!r}", rules.MOVING)
    if not s.rolls and not s.jumped:
        raise refuse("roll (or play a 'Jump to…' card) before reporting where the move ended", rules.MOVING)
    opened = {h for h, _ in s.opened}
    if where == DOORSTEP:
        if not isinstance(hideout, str) or hideout not in HIDEOUTS:
            raise refuse(f"name the hideout whose doorstep it is (one of {', '.join(HIDEOUTS)})", rules.HIDEOUT)
        if hideout in opened:
            raise refuse(f"the {HIDEOUTS[hideout]} is already open: report a plain square", rules.HIDEOUT)
    elif hideout is not None:
        raise refuse("only a doorstep names a hideout", rules.HIDEOUT)
    if squares is not None:
        if s.move != "rustle":
            raise refuse("squares moved are reported only for a rustle", rules.RUSTLING)
        if not isinstance(squares, int) or isinstance(squares, bool) or not 0 <= squares <= sum(s.rolls):
            raise refuse(f"a blocked rustle moves 0 to {sum(s.rolls)} squares, not {squares!r}", rules.RUSTLING)
    if s.move == "rustle":
        s = resolve_rustle(s, sum(s.rolls) if squares is None else squares)
    s = evolve(s, rolls=(), reroll=False, jumped=False, rustle=None,
                doorstep=hideout if where == DOORSTEP else None)
    if where == HOME or via_home:
        s = reach_home(s)
        if s.phase is Phase.TALLY:
            return s
    return evolve(s, phase=Phase.DRAW if where == CHEESE else Phase.ACTIONS)


def reach_home(s: FleecedState) -> FleecedState:
    n = s.in_tow
    sheep = s.sheep.claim(s.active)
    s = evolve(s, sheep=sheep)
    if n:
        s = evolve(s, alert=_join(s.alert, f"{s.player} leads {n} sheep Home and claims them."))
    if sum(sheep.claimed) == TOTAL_SHEEP:
        s = evolve(s, phase=Phase.TALLY, check=None, reroll=False,
                    alert=_join(s.alert, "All 40 sheep are claimed: the game is over. Count your sheep by kind."))
    return s


def _join(a: str | None, b: str) -> str:
    return b if a is None else f"{a} {b}"


# -- rustling ---------------------------------------------------------------
def start_rustle(s: FleecedState, source: str) -> FleecedState:
    if s.rustled:
        raise refuse("you may only attempt to rustle once in a turn", rules.RUSTLING)
    if s.in_tow:
        raise refuse("you cannot rustle sheep with sheep in tow: abandon them first", rules.RUSTLING)
    if source == GREEN:
        if not s.sheep.green:
            raise refuse("there are no sheep on the Village Green to rustle", rules.RUSTLING)
    elif source in s.names:
        if source == s.player:
            raise refuse("you cannot rustle your own flock", rules.RUSTLING)
        if not s.sheep.in_tow[s.names.index(source)]:
            raise refuse(f"{source} has no sheep in tow to rustle", rules.RUSTLING)
    else:
        raise refuse(f"rustle from 'green' or a player's name, not {source!r}", rules.RUSTLING)
    return evolve(s, phase=Phase.ROLL, move="rustle", dice=2, rolls=(), jumped=False, reroll=False,
                   rustle=Rustle(source), rustled=True, doorstep=None)


def resolve_rustle(s: FleecedState, squares: int) -> FleecedState:
    """Great rustle when the movement covers the flock, rubbish rustle otherwise."""
    r = s.rustle
    if r is None or not r.whistle_ok:
        return s  # no whistle: the sheep stay where they are (already ruled)
    a, sheep = s.active, s.sheep
    tow = sheep.in_tow
    if r.source == GREEN:
        flock = sheep.green
        take = min(squares, flock)
        sheep = replace(sheep, green=flock - take, in_tow=set_at(tow, a, tow[a] + take))
        where = "the Village Green"
        rest = ""
    else:
        v = s.names.index(r.source)
        flock = tow[v]
        take = min(squares, flock)
        tow = set_at(set_at(tow, v, 0), a, tow[a] + take)
        sheep = replace(sheep, in_tow=tow, green=sheep.green + flock - take)
        where = f"{r.source}'s flock"
        left = flock - take
        rest = f"; the other {'one hoofs' if left == 1 else f'{left} hoof'} it to the Village Green" if left else ""
    if squares >= flock:
        # "takes all 1 sheep" read wrong: one sheep is "the only sheep", never "all".
        whole = "the only sheep" if flock == 1 else f"all {flock} sheep"
        ruling = Ruling("great-rustle", f"Great rustle! {s.player} moved {squares} and takes {whole} "
                        f"from {where}.", rules.RUSTLING, s.player)
    else:
        ruling = Ruling("rubbish-rustle", f"Rubbish rustle: {s.player} moved {squares}, so only {take} of "
                        f"{flock} sheep from {where} {'follows' if take == 1 else 'follow'}{rest}.", rules.RUSTLING, s.player)
    return add_ruling(evolve(s, sheep=sheep, rustle=None), ruling)


# -- Nicked! ----------------------------------------------------------------
def arrest(s: FleecedState, reason: str) -> FleecedState:
    a = s.active
    if s.rustle is not None and s.rustle.whistle_ok and sum(s.rolls):
        s = resolve_rustle(s, sum(s.rolls))  # what followed so far; it hoofs it just below
    hoofed = s.in_tow
    tail = f" and {hoofed} sheep in tow hoof it to the Village Green" if hoofed else ""
    s = evolve(s, sheep=s.sheep.tow_to_green(a), at_police=set_at(s.at_police, a, True), check=None,
                rustle=None, reroll=False, rolls=(), jumped=False)
    s = add_ruling(s, Ruling("nicked", f"Nicked! {reason} {s.player} goes to the Police Station{tail}.",
                             rules.NICKED, s.player))
    if s.sheep.claimed[a]:
        return evolve(s, phase=Phase.NICKED)
    s = evolve(s, misses_turn=set_at(s.misses_turn, a, True),
               alert=_join(s.alert, f"With no claimed sheep to bribe the police, {s.player} misses the next turn."))
    return next_turn(s)


def settle_nicked(s: FleecedState, bribe: bool) -> FleecedState:
    a = s.active
    if bribe:
        if not s.sheep.claimed[a]:
            raise refuse("only a player with claimed sheep can bribe the police", rules.NICKED)
        s = add_ruling(evolve(s, sheep=s.sheep.claimed_to_green(a)),
                       Ruling("bribe", f"{s.player} bribes the police with a claimed sheep (to the Village Green) "
                              "and will not miss a turn.", rules.NICKED, s.player))
    else:
        s = evolve(s, misses_turn=set_at(s.misses_turn, a, True),
                   alert=_join(s.alert, f"{s.player} misses the next turn."))
    return next_turn(s)
