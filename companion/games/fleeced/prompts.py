"""What the screen shows: the prompt (with every decision as a ready-made event) and the state JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.events import ANSWER, CORRECTION, ROLL, WHISTLE
from companion.game import Choice, CountsRequest, DiceRequest, Prompt
from companion.wording import count

from . import rules, scoring
from .board import (
    CARD_KINDS,
    CARD_TITLES,
    CHEESE,
    DOORSTEP,
    GREEN,
    HIDEOUTS,
    HOME,
    HOMES,
    JUMP_TO,
    KEYS,
    OTHER,
    ROLL_TWO,
    SHEEP_VALUES,
    SKELETON_KEY,
    SQUARE,
    key_for,
)
from .hands import DRAWN, HELD, can_play, copies
from .state import FleecedState, Phase
from .turns import needs_whistle
from .whistles import blocks_check, contestable

if TYPE_CHECKING:
    from .engine import Fleeced

FACES = tuple(range(1, 7))
SETTLE = "settle"
# The final count by kind, as the sheep's undersides show them.
KIND_LABELS = (("white1", "White 1"), ("white2", "White 2"), ("white3", "White 3"), ("grey", "Grey 4"),
               ("black", "Black 6"))
PENALTIES = frozenset({"no-whistle", "out-of-turn", "nicked", "missed-turn"})
GOOD_NEWS = frozenset({"great-rustle", "late-whistle-counted", "contested"})
# Groups of landing choices, each behind one button (a screen shows the likely answers first).
DOORSTEPS = "Ended on a doorstep…"
THROUGH_HOME = "Through Home, then…"
BLOCKED = "Blocked on the way…"
KEY_CARDS = "Drew a key…"  # the eight keys behind one button: twelve card kinds do not fit a 7" screen


def phase_text(s: FleecedState) -> str:
    return {
        Phase.FIRST_ROLL: "everyone rolls two dice to see who goes first",
        Phase.ROLL: f"{s.player} rolls to {'rustle' if s.move == 'rustle' else 'move'}",
        Phase.MOVE: f"{s.player} is moving; report where the move ended",
        Phase.DRAW: f"{s.player} draws a Cheese Card",
        Phase.DISCARD: f"{s.player} puts one Cheese Card under the pile",
        Phase.HIDEOUT: "the hideout card's number is awaited",
        Phase.ACTIONS: f"{s.player} may open, rustle, abandon or end the turn",
        Phase.NICKED: f"{s.player} decides whether to bribe the police",
        Phase.TALLY: "the table counts claimed sheep by kind",
        Phase.OVER: "the game is over",
    }[s.phase]


def _whistle(name: str) -> Choice:
    return Choice(f"{name} blows the whistle", WHISTLE, {"blower": name}, player=name)


def _sheep(n: int) -> str:
    return f"{n} sheep"


def prompt(game: Fleeced, s: FleecedState) -> Prompt:
    base = _phase_prompt(s)
    choices = list(base.choices)
    text, player, expects = base.text, base.player, list(base.expects)
    if s.check is not None and s.phase not in (Phase.TALLY, Phase.OVER):
        if s.check.purpose == "tow":
            otherwise = f"{s.player}'s {_sheep(s.in_tow)} hoof it to the Village Green"
        else:
            otherwise = "the rustle fails and the sheep stay where they are"
        # Short: the table reads it in the second and a half it lasts.
        text = f"No whistle heard yet ({s.margin:g} s after the roll still counts; else {otherwise}). " + text
        choices = [_whistle(s.player), Choice("No whistle: rule now", SETTLE), *choices]
        expects = [WHISTLE, SETTLE, *expects]
    dice = base.dice
    if s.questions:
        player = None
        text = "Who blew? A whistle was heard but nobody could tell whose."
        answers = [Choice(f"{n} blew", ANSWER, {"blower": n}) for n in s.names] + [
            Choice("Nobody: it was noise", ANSWER, {"blower": None})]
        if blocks_check(s):  # the roll's ruling waits for this answer: nothing else can go on
            assert s.check is not None
            lost = (f"{s.player}'s {_sheep(s.in_tow)} hoof it to the Village Green" if s.check.purpose == "tow"
                    else "the rustle fails")
            text += (f" If it was {s.player}, it counts as the whistle before the roll; otherwise {lost} "
                     "(and a whistle out of turn costs the blower one claimed sheep).")
            choices, expects, dice = answers, [ANSWER, WHISTLE], None
        else:
            text += " A whistle out of turn costs the blower one claimed sheep."
            choices, expects = answers + choices, [ANSWER, *expects]
    # latest first: a screen with one "Contest" button takes the first, the ruling just shown
    for c in reversed(contestable(game, s)) if s.contests and s.phase is not Phase.OVER else ():
        r = s.rulings[c.ruling]
        label = "I did blow: reverse the ruling" if c.kind == "no-whistle" else "I didn't blow: reverse the ruling"
        choices.append(Choice(f"{r.player}: {label}", CORRECTION, {"contest": c.ruling}, player=r.player))
        expects.append(CORRECTION)
    if s.phase is not Phase.OVER:
        expects.append(WHISTLE)  # a whistle is always heard (and ruled on), whoever blows it
    alert, tone = _alert(s)
    return Prompt(player, text, base.rule, tuple(dict.fromkeys(expects)), dice, tuple(choices), alert, tone,
                  base.counts)


def _alert(s: FleecedState) -> tuple[str | None, str]:
    """The ruling to show, in words that say what happens now, and its tone (red only for penalties)."""
    alert = s.alert
    if alert is None:
        return None, "info"
    last = s.rulings[-1] if s.rulings else None
    if last is None or last.text not in alert:
        good = "claims them" in alert or "goes first" in alert
        return alert, "good" if good else "info"
    if last.kind == "contested":
        original = next((r for r in reversed(s.rulings[:-1]) if r.contested), None)
        if original is not None and original.kind == "no-whistle":
            now = ("the rustle goes ahead" if "rustle" in original.text
                   else f"{original.player}'s sheep stay in tow")
            return f"Contest accepted: {original.player}'s whistle counts, so {now}.", "good"
        if original is not None:
            return (f"Contest accepted: {original.player} did not blow, so the claimed sheep goes back to "
                    f"{original.player}."), "good"
    if last.kind in PENALTIES:
        return alert, "penalty"
    return alert, "good" if last.kind in GOOD_NEWS or "claims them" in alert else "info"


def _phase_prompt(s: FleecedState) -> Prompt:
    p = s.player
    dice = DiceRequest("d6", s.dice, FACES)
    if s.phase is Phase.FIRST_ROLL:
        return Prompt(p, f"{p}: roll two dice to see who goes first (highest total starts).", rules.FIRST,
                      (ROLL,), DiceRequest("d6", 2, FACES))
    if s.phase is Phase.ROLL:
        return _roll_prompt(s, dice)
    if s.phase is Phase.MOVE:
        return _move_prompt(s, dice)
    if s.phase is Phase.DRAW:
        cards = [Choice(f"Drew {CARD_TITLES[c]}", "draw", {"card": c}, player=p,
                        group=KEY_CARDS if c in KEYS or c == SKELETON_KEY else None) for c in CARD_KINDS]
        return Prompt(p, f"{p} ended on a cheese square: draw a Cheese Card and tap which it is.", rules.CHEESE,
                      ("draw",), choices=tuple(cards))
    if s.phase is Phase.DISCARD:
        return _discard_prompt(s)
    if s.phase is Phase.HIDEOUT:
        assert s.opening is not None
        bag = s.sheep.bag
        counts = [bag] if s.sheep.hideouts == 0 else list(range(bag + 1))
        return Prompt(p, f"Take a Sheep Hideout Card for the {HIDEOUTS[s.opening]}: how many sheep does it show? "
                      "Take that many from the bag, unseen, onto the Village Green.", rules.HIDEOUT,
                      ("hideout-card",), choices=tuple(Choice(str(n), "hideout-card", {"count": n}, player=p)
                                                      for n in counts))
    if s.phase is Phase.ACTIONS:
        return _actions_prompt(s)
    if s.phase is Phase.NICKED:
        return Prompt(p, f"{p} is Nicked! Bribe the police with one claimed sheep (it goes to the Village Green), "
                      "or miss the next turn.", rules.NICKED, ("bribe", "serve"), choices=(
                          Choice("Bribe the police (one claimed sheep)", "bribe", player=p),
                          Choice("Miss the next turn", "serve", player=p)))
    if s.phase is Phase.TALLY:
        todo = [i for i, t in enumerate(s.tallies) if t is None]
        who = s.names[todo[0]]
        zero = tuple(Choice(f"{s.names[i]} claimed no sheep", "tally", dict.fromkeys(SHEEP_VALUES, 0),
                            player=s.names[i]) for i in todo if not s.sheep.claimed[i])
        counts = CountsRequest("tally", KIND_LABELS, player=who, total=s.sheep.claimed[todo[0]])
        return Prompt(who, f"All 40 sheep are claimed. Turn them over: how many white (1, 2, 3), grey (4) and "
                      f"black (6) did {who} claim ({_sheep(s.sheep.claimed[todo[0]])})?", rules.VICTORY, ("tally",),
                      choices=zero, counts=counts if s.sheep.claimed[todo[0]] else None)
    _, tie = scoring.ranking(s)
    winners = scoring.winners(s)
    won = f"{winners[0]} wins" if len(winners) == 1 else f"{' and '.join(winners)} share the win"
    text = f"Game over. {won}." + (f" {tie}" if tie else "")
    return Prompt(None, text, rules.VICTORY)


def _noun(card: str) -> str:
    """``card`` after "the new" / "the old": "Key to the Pub", "other card"."""
    return "other card" if card == OTHER else CARD_TITLES[card]


def _discard_prompt(s: FleecedState) -> Prompt:
    """One button per kind in hand; a kind held twice, once from before and once
    just drawn, gets a button for each copy, since only the old one can be played
    this turn (the rulebook's "one of your Cheese Cards (your choice)")."""
    p = s.player
    cards: list[Choice] = []
    text = f"{p} holds six Cheese Cards: put one under the pile to keep five."
    for c in dict.fromkeys(s.hands[s.active]):
        drawn, held = copies(s, c)
        if drawn and held:
            noun = _noun(c)
            cards += [Choice(f"Put the new {noun} under the pile", "discard", {"card": c, "copy": DRAWN}, player=p),
                      Choice(f"Put the old {noun} under the pile", "discard", {"card": c, "copy": HELD}, player=p)]
            text += (f" Keep the old {noun} (held before this turn) to play it now: the new one, just drawn, "
                     "cannot be played until a later turn.")
        else:
            cards.append(Choice(f"Put {CARD_TITLES[c]} under the pile", "discard", {"card": c}, player=p))
    return Prompt(p, text, rules.CHEESE, ("discard",), choices=tuple(cards))


def _roll_prompt(s: FleecedState, dice: DiceRequest) -> Prompt:
    p, a = s.player, s.active
    choices: list[Choice] = []
    want_whistle = needs_whistle(s) is not None and not s.whistled
    if want_whistle:
        choices.append(_whistle(p))
    if s.move == "rustle":
        assert s.rustle is not None
        src = "the Village Green" if s.rustle.source == GREEN else f"{s.rustle.source}'s flock"
        text = f"{p} rustles from {src}: blow your whistle, then roll two dice (no whistle: the sheep won't follow)."
        if s.whistled:
            text = f"{p} rustles from {src}: whistle heard, roll two dice."
        return Prompt(p, text, rules.RUSTLING, (ROLL, WHISTLE), dice, tuple(choices))
    start = "Start next to the Police Station. " if s.start_at_police else ""
    if s.in_tow:
        text = (f"{start}{p} has {_sheep(s.in_tow)} in tow: blow your whistle, then roll two dice "
                "(no whistle: the sheep hoof it to the Village Green).")
        if s.whistled:
            text = f"{start}{p}: whistle heard, roll two dice and move with your {_sheep(s.in_tow)}."
        choices.append(Choice(f"Abandon {_sheep(s.in_tow)} to the Green", "abandon", player=p))
    else:
        text = f"{start}{p}: roll {'two dice' if s.dice == 2 else 'one die'} and move."
        if not s.roll2 and can_play(s, a, ROLL_TWO):
            choices.append(Choice("Play 'Roll 2 x Dice'", "play", {"card": ROLL_TWO}, player=p))
        if can_play(s, a, JUMP_TO):
            choices.append(Choice("Play 'Jump to…' instead of rolling", "play", {"card": JUMP_TO}, player=p))
    if can_play(s, a, OTHER):
        choices.append(Choice("Play another Cheese Card", "play", {"card": OTHER}, player=p))
    return Prompt(p, text, rules.MOVING, (ROLL, WHISTLE, "play", "abandon"), dice, tuple(choices))


def _move_prompt(s: FleecedState, dice: DiceRequest) -> Prompt:
    p = s.player
    total = sum(s.rolls)
    if s.jumped:
        moved = "Jump to the card's place"
    elif len(s.rolls) > 1:  # after a six or a double the piece has already moved the earlier rolls
        moved = f"Move {s.rolls[-1]} more ({total} in all)"
    else:
        moved = f"Move {total}"
    rustling = s.move == "rustle"
    landings: list[Choice] = [
        Choice("Ended on a plain square", "landed", {"where": SQUARE}, player=p),
        Choice("Ended on a cheese square", "landed", {"where": CHEESE}, player=p),
        Choice(f"Reached Home ({HOMES[s.characters[s.active]]})", "landed", {"where": HOME}, player=p),
    ]
    opened = {h for h, _ in s.opened}
    landings += [Choice(f"Ended on the {title} doorstep", "landed", {"where": DOORSTEP, "hideout": h}, player=p,
                        group=DOORSTEPS)
                 for h, title in HIDEOUTS.items() if h not in opened]
    if (s.in_tow and not rustling) or (rustling and s.rustle is not None and s.rustle.whistle_ok is not False):
        landings += [Choice(f"Through Home, then a {w} square", "landed", {"where": k, "via_home": True}, player=p,
                            group=THROUGH_HOME)
                     for k, w in ((SQUARE, "plain"), (CHEESE, "cheese"))]
    if rustling:
        landings += [Choice(f"Blocked after {n} of {total} squares", "landed", {"where": SQUARE, "squares": n},
                            player=p, group=BLOCKED) for n in range(total)]
    follow = _rustle_text(s, total) if rustling else ""
    if s.reroll:
        kind = "six" if s.dice == 1 else "double"
        text = (f"{moved}, then roll again (a {kind}; a third this turn is Nicked!), or report where you stopped."
                f"{follow}")
        return Prompt(p, text, rules.MOVING, (ROLL, "landed"), dice, tuple(landings))
    return Prompt(p, f"{moved}, then report where {p} ended.{follow}", rules.RUSTLING if rustling else rules.MOVING,
                  ("landed",), None, tuple(landings))


def _rustle_text(s: FleecedState, total: int) -> str:
    r = s.rustle
    if r is None:
        return ""
    if r.whistle_ok is False:
        return " No whistle: the rustle fails and the sheep stay where they are."
    flock = s.sheep.green if r.source == GREEN else s.sheep.in_tow[s.names.index(r.source)]
    if total >= flock:
        follows = "the sheep follows" if flock == 1 else "the whole flock follows"
        return f" {total} squares for {_sheep(flock)}: a great rustle, {follows} (unless blocked)."
    rest = "" if r.source == GREEN else "; the rest hoof it to the Village Green"
    return f" {total} squares for {_sheep(flock)}: a rubbish rustle, one sheep follows per square moved{rest}."


def _actions_prompt(s: FleecedState) -> Prompt:
    p, a = s.player, s.active
    choices: list[Choice] = []
    h = s.doorstep
    if h is not None and not s.opened_this_turn:
        for card in (key_for(h), SKELETON_KEY):
            if can_play(s, a, card):
                # Short enough for a button: the prompt names the hideout.
                how = "its own key" if card == key_for(h) else f"the {CARD_TITLES[card]}"
                choices.append(Choice(f"Open it with {how}", "open",
                                      {"hideout": h, "card": card}, player=p))
    if not s.rustled and not s.in_tow:
        if s.sheep.green:
            choices.append(Choice(f"Rustle from the Village Green ({_sheep(s.sheep.green)})", "rustle",
                                  {"from": GREEN}, player=p))
        choices += [Choice(f"Rustle from {n}'s flock ({_sheep(t)})", "rustle", {"from": n}, player=p)
                    for i, (n, t) in enumerate(zip(s.names, s.sheep.in_tow, strict=True)) if t and i != a]
    if s.in_tow:
        choices.append(Choice(f"Abandon {_sheep(s.in_tow)} to the Green", "abandon", player=p))
    if can_play(s, a, OTHER):
        choices.append(Choice("Play another Cheese Card", "play", {"card": OTHER}, player=p))
    choices.append(Choice("End the turn", "end-turn", player=p))
    kinds = {c.type for c in choices}
    parts = [what for kind, what in (("open", f"open the {HIDEOUTS[h]}" if h else ""),
                                     ("rustle", "rustle a flock next to you (two dice, whistle first)"))
             if kind in kinds]
    # The usual step first; abandoning the flock is the rare one.
    text = f"{p}: " + (f"{', '.join(parts)}, or end the turn." if parts else "end the turn.")
    if "abandon" in kinds:
        text += f" (You may also abandon your {_sheep(s.in_tow)} to the Village Green.)"
    return Prompt(p, text, rules.TURN, ("open", "rustle", "abandon", "play", "end-turn"), None, tuple(choices))


def state_json(s: FleecedState) -> dict[str, Any]:
    names = s.names
    opened = {h for h, _ in s.opened}
    check = s.check
    last = s.rulings[-1] if s.rulings else None
    return {
        "sheep": {
            "hideouts": s.sheep.hideouts,
            "bag": s.sheep.bag,
            "green": s.sheep.green,
            "in_tow": dict(zip(names, s.sheep.in_tow, strict=True)),
            "claimed": dict(zip(names, s.sheep.claimed, strict=True)),
        },
        "turn": {
            "number": s.turn,
            "player": s.player,
            "phase": s.phase.value,
            "move": s.move,
            "dice": s.dice,
            "rolls": list(s.rolls),
            "sixes_or_doubles": s.bonuses,
            "may_roll_again": s.reroll,
            "whistled": s.whistled,
            "rustle": None if s.rustle is None else {"from": s.rustle.source, "whistle_ok": s.rustle.whistle_ok},
            "rustled": s.rustled,
            "doorstep": s.doorstep,
            "start_next_to_police_station": s.start_at_police,
        },
        "first_roll": None if s.phase is not Phase.FIRST_ROLL else {
            "contenders": [names[i] for i in s.contenders],
            "rolls": {names[i]: t for i, t in s.first_rolls},
        },
        "players": {
            n: {"character": c, "home": HOMES[c]} for n, c in zip(names, s.characters, strict=True)
        },
        "hands": {n: list(h) for n, h in zip(names, s.hands, strict=True)},
        "drawn_this_turn": list(s.fresh),
        "hideouts": {
            "opened": [{"hideout": h, "sheep": n} for h, n in s.opened],
            "closed": [h for h in HIDEOUTS if h not in opened],
        },
        "keys_set_aside": list(s.keys_aside),
        "police": {
            "misses_next_turn": [n for n, m in zip(names, s.misses_turn, strict=True) if m],
            "in_station": [n for n, m in zip(names, s.at_police, strict=True) if m],
        },
        "whistle": {
            "margin": s.margin,
            "pending_check": None if check is None else {
                "purpose": check.purpose, "roll_time": check.roll_time, "deadline": check.deadline,
                "since": check.since},
            "who_blew": [{"time": q.time, "turn_of": names[q.active]} for q in s.questions],
            "contestable": None if s.contest is None else s.contest.ruling,  # the latest
            "contestable_rulings": [c.ruling for c in s.contests],
        },
        "rulings": [r.to_json() for r in s.rulings],
        "last_ruling": None if last is None else last.text,
        "tallies": {n: None if t is None else dict(t) for n, t in zip(names, s.tallies, strict=True)},
    }



def describe(event: Any) -> str | None:
    """A Fleeced! event in the players' words, for the Log."""
    t, p, who = event.type, event.payload, event.player
    words: str | None = None
    if t == "landed":
        where = p.get("where")
        words = {SQUARE: "ended on a plain square", CHEESE: "ended on a cheese square", HOME: "reached Home"}.get(
            where, f"ended on the {HIDEOUTS.get(p.get('hideout'), 'hideout')} doorstep" if where == DOORSTEP else None)
        if words and p.get("via_home"):
            words = "went through Home, then " + words
        if words and p.get("squares") is not None:
            words += f" (blocked after {count(int(p.get('squares') or 0), 'square')})"
    elif t in ("draw", "discard", "play"):
        title = CARD_TITLES.get(p.get("card"), "a Cheese Card")
        words = {"draw": f"drew {title}", "discard": f"put {title} under the pile", "play": f"played {title}"}[t]
    elif t == "open":
        words = f"opened the {HIDEOUTS.get(p.get('hideout'), 'hideout')}"
    elif t == "hideout-card":
        words = f"hideout card: {_sheep(p.get('count', 0))}"
    elif t == "rustle":
        src = p.get("from")
        words = "rustled from the Village Green" if src == GREEN else f"rustled from {src}'s flock"
    elif t == ANSWER:
        words = f"answered Who blew?: {p.get('blower') or 'nobody, it was noise'}"
    else:
        words = {"abandon": "abandoned the sheep in tow", "end-turn": "ended the turn", "bribe": "bribed the police",
                 "serve": "chose to miss the next turn", SETTLE: "no whistle in time: ruled",
                 CORRECTION: "contested a whistle ruling", "tally": "counted the claimed sheep by kind"}.get(t)
    if words is None:
        return None
    return f"{who} {words}" if who else words[0].upper() + words[1:]
