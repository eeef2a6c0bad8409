"""Fleeced! at the table, by touch alone (tests/ui/touch_check.py checks every screen)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import touch_check as tc
from .driver import Ctx
from .scenarios import scenario, wait_for
from .touch_check import Steps

NAMES = ("Ann", "Bob", "Cy")
# (sheep on the hideout card, the rustle's two dice): seven hideouts release all 40 sheep
# (33 in the bag and the seven markers), each flock small enough for a great rustle.
TURNS = ((11, (6, 5)), (11, (6, 5)), (11, (6, 5)), (4, (3, 1)), (1, (1, 2)), (1, (1, 2)), (1, (1, 2)))


def _prompt(ctx: Ctx) -> Any:
    return ctx.app.session.prompt()


def enter_names(ctx: Ctx, steps: Steps, names: tuple[str, ...]) -> Iterator[float]:
    """Each name typed on Kivy's on-screen keyboard: touch the field, then the keys."""
    setup = ctx.screen
    for row, name in zip(setup.rows, names, strict=False):
        yield from tc.touch(ctx, row.name_input)
        problems = tc.keyboard_keys_small(ctx)
        if problems:
            ctx.result["touch_problems"][f"keyboard for {name}"] = problems
        yield from tc.type_on_keyboard(ctx, name, clear=True)
        ctx.shot("name-entry")
        yield from tc.touch_text(ctx, "Done")
        yield from steps.check()


def fleeced_setup(ctx: Ctx, steps: Steps, names: tuple[str, ...] = NAMES) -> Iterator[float]:
    yield from steps.check("fleeced-home")
    yield from steps.touch(tc.touch_text(ctx, "Fleeced!"))
    setup = ctx.screen
    while setup.count < len(names):
        yield from steps.touch(tc.touch_text(ctx, "More"))
    yield from enter_names(ctx, steps, names)
    yield from steps.check("fleeced-setup")
    yield from steps.touch(tc.touch_text(ctx, "Start game"))
    assert ctx.app.root.current == "table", setup.ids.error.text


def roll(ctx: Ctx, steps: Steps, *faces: int) -> Iterator[float]:
    for f in faces:
        yield from steps.touch(tc.touch_face(ctx, f))


@scenario()
def fleeced_complete_by_touch(ctx: Ctx) -> Iterator[float]:
    """A whole three-player game of Fleeced! from Home through Setup to Results, every step a touch."""
    app = ctx.app
    steps = Steps(ctx)
    yield from fleeced_setup(ctx, steps)
    for faces in ((6, 5), (2, 1), (3, 1)):  # who goes first: Ann's 11
        yield from roll(ctx, steps, *faces)
    ctx.result["first_player_alert"] = app.root.get_screen("table").ids.alert.text
    for i, (count, dice) in enumerate(TURNS):
        who = _prompt(ctx).player
        yield from roll(ctx, steps, 3)
        door = next(c.label for c in _prompt(ctx).choices if c.label.endswith("doorstep"))
        yield from steps.touch(tc.touch_choice(ctx, door))
        opener = next(c.label for c in _prompt(ctx).choices if c.type == "open")
        yield from steps.touch(tc.touch_choice(ctx, opener))
        if app.root.get_screen("table").pad is not None:  # many possible numbers: a number pad
            yield from tc.touch_number(ctx, count)
        else:
            yield from steps.touch(tc.touch_choice(ctx, str(count)))
        yield from steps.check()
        if i == 0:
            yield from steps.check("fleeced-table")  # the hideout's sheep on the Green, a ruling strip showing
        yield from steps.touch(tc.touch_choice(ctx, next(c.label for c in _prompt(ctx).choices if c.type == "rustle")))
        yield from steps.touch(tc.touch_choice(ctx, f"{who} blows the whistle"))
        yield from roll(ctx, steps, *dice)
        if i == 0:
            yield from steps.check("fleeced-rustle-move")
        yield from steps.touch(tc.touch_choice(ctx, "Through Home, then a plain square"))
        if "tally" in _prompt(ctx).expects:
            break
        yield from steps.touch(tc.touch_choice(ctx, "End the turn"))
    ctx.result["claimed"] = dict(app.session.game.state_json(app.session.state)["sheep"]["claimed"])
    yield from steps.check("fleeced-tally")
    kinds = ("white1", "white2", "white3", "grey", "black")
    for name in NAMES:
        claimed = ctx.result["claimed"][name]
        # a spread by kind, as a real flock would be: a few of each, the rest white 1
        spread = [min(2, claimed)] * 4
        spread = [*spread, 0]
        left = claimed - sum(spread)
        spread[0] += left
        for kind, n in zip(kinds, spread, strict=True):
            yield from tc.touch_count(ctx, kind, n)
        yield from steps.check()
        yield from steps.touch(tc.touch_text(ctx, "Done"))
    yield from wait_for(lambda: app.root.current == "results")
    yield 0.5
    yield from steps.check("fleeced-results")
    ctx.result["outcome"] = app.session.outcome().to_dict()
    ctx.result["scores"] = dict(app.session.scores())
    ctx.result["sources"] = sorted({e.source.value for e in app.session.events})
    ctx.result["results_texts"] = tc.labels(ctx.screen)


def first_turn_claims(ctx: Ctx, steps: Steps) -> Iterator[float]:
    """Ann's first turn: the Post Office opened, its 11 sheep rustled and led Home (Ann claims 11)."""
    for faces in ((6, 5), (2, 1), (3, 1)):
        yield from roll(ctx, steps, *faces)
    yield from roll(ctx, steps, 3)
    yield from steps.touch(tc.touch_choice(ctx, "Ended on the Post Office doorstep"))
    yield from steps.touch(tc.touch_choice(ctx, "Open it with its own key"))
    yield from tc.touch_number(ctx, 11)
    yield from steps.touch(tc.touch_choice(ctx, "Rustle from the Village Green (11 sheep)"))
    yield from steps.touch(tc.touch_choice(ctx, "Ann blows the whistle"))
    yield from roll(ctx, steps, 6, 5)
    yield from steps.touch(tc.touch_choice(ctx, "Through Home, then a plain square"))
    yield from steps.touch(tc.touch_choice(ctx, "End the turn"))


@scenario()
def fleeced_whistle_out_of_turn_by_touch(ctx: Ctx) -> Iterator[float]:
    """F6/F15/F16: during Bob's turn Ann blows; with no microphone the table enters it by touch
    (Whistle → Who blew? → Ann), the penalty is shown red, and the indicator clears with the turn and on undo."""
    app = ctx.app
    steps = Steps(ctx)
    yield from fleeced_setup(ctx, steps)
    yield from first_turn_claims(ctx, steps)
    table = app.root.get_screen("table")
    ctx.result["turn_of"] = _prompt(ctx).player
    yield from steps.touch(tc.touch_text(ctx, "Whistle"))
    ctx.result["who_blew"] = table.ids.entry_heading.text
    ctx.result["who_blew_buttons"] = [b.text for b in tc.buttons(table.ids.entry) if tc.touchable(b)]
    yield from steps.check("fleeced-who-blew")
    yield from steps.touch(tc.touch_text(ctx, "Ann blew"))
    ctx.result["alert"] = table.ids.alert.text
    ctx.result["alert_bg"] = list(table.ids.alert_box.bg)
    ctx.result["strip_button"] = table.ids.contest.text
    ctx.result["whistle_line"] = table.ids.whistle.text
    ctx.result["claimed"] = dict(app.session.game.state_json(app.session.state)["sheep"]["claimed"])
    yield from steps.check("fleeced-penalty")
    yield from steps.touch(tc.touch_text(ctx, "Undo"))  # the nav bar's Undo
    ctx.result["after_undo_whistle"] = table.ids.whistle.text
    ctx.result["after_undo_claimed"] = dict(app.session.game.state_json(app.session.state)["sheep"]["claimed"])
    ctx.result["undone_message"] = app.message
    # Bob blows in his own turn (touch), then his turn ends: the indicator clears.
    yield from steps.touch(tc.touch_text(ctx, "Whistle"))
    yield from steps.touch(tc.touch_text(ctx, "Bob blew"))
    ctx.result["own_whistle_line"] = table.ids.whistle.text
    yield from roll(ctx, steps, 2)
    yield from steps.touch(tc.touch_choice(ctx, "Ended on a plain square"))
    yield from steps.touch(tc.touch_choice(ctx, "End the turn"))
    ctx.result["next_turn_whistle"] = table.ids.whistle.text
    ctx.result["next_turn_of"] = _prompt(ctx).player


@scenario()
def fleeced_reroll_and_six_players(ctx: Ctx) -> Iterator[float]:
    """F8/F9/F13/F18/F32: six players with distinct characters by default; a six then a re-roll
    says "Move 4 more (10 in all)"; with a ruling strip showing, all six players and the dice pad fit."""
    app = ctx.app
    steps = Steps(ctx)
    names = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
    yield from fleeced_setup(ctx, steps, names)
    ctx.result["characters"] = [p["character"] for p in app.session.setup["players"]]
    for faces in ((6, 5), (2, 1), (3, 1), (1, 1), (2, 2), (1, 3)):
        yield from roll(ctx, steps, *faces)
    table = app.root.get_screen("table")
    ctx.result["first_alert"] = table.ids.alert.text  # a ruling strip shows: "Ann rolled 11 and goes first."
    board = table.board
    rows = list(board.ids.players.children)
    ctx.result["rows_on_screen"] = sum(tc.on_screen(r) for r in rows)
    ctx.result["faces_on_screen"] = [b.text for b in tc.buttons(table.ids.entry) if tc.touchable(b) and b.action[0] == "face"]
    yield from steps.check("fleeced-six-players")
    yield from roll(ctx, steps, 6)
    ctx.result["after_six"] = _prompt(ctx).text
    yield from roll(ctx, steps, 4)
    ctx.result["after_reroll"] = _prompt(ctx).text
    yield from steps.check("fleeced-reroll")
