"""Sheepdogs of Pendleton Hill and Sheep Hop! played by touch alone (issue #17).

Each scenario starts on Home and plays a whole game through Setup to Results
with real touches only (``tests/ui/touch_check.py``); the test reads the app's
state to decide *what* to touch (as a player reads the table), never to act.
On every new question the harness's checks run on the screen as drawn.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from . import touch_check as tc
from .driver import Ctx
from .scenarios import scenario, wait_for


def trace(*parts: Any) -> None:
    """A progress line for a person watching a long run (``HILL_HOP_TRACE=<file>``; Kivy owns stderr)."""
    path = os.environ.get("HILL_HOP_TRACE")
    if path:
        with open(path, "a") as f:
            print(*parts, file=f)


def _tap(ctx: Ctx, widget: Any, moved: Callable[[], bool] | None = None) -> Iterator[float]:
    """A real touch on the widget (refused if a finger could not touch it), then wait until
    the app has taken it (``moved``) rather than a fixed time: the game is 200 touches long."""
    if not tc.touchable(widget):
        raise AssertionError(f"cannot touch {getattr(widget, 'text', widget)!r}: disabled, hidden or not wholly on screen")
    from kivy.tests.common import UnitTestTouch

    x, y = widget.to_window(*widget.center)
    t = UnitTestTouch(x, y)
    t.touch_down()
    yield 0.06
    t.touch_up()
    if moved is None:
        yield 0.4
        return
    end = time.monotonic() + 4.0
    while not moved() and time.monotonic() < end:
        yield 0.04
    yield from drawn(ctx)


def drawn(ctx: Ctx) -> Iterator[float]:
    """Wait until the Table shows the game's current question (redraws are throttled)."""
    app = ctx.app
    end = time.monotonic() + 4.0
    while time.monotonic() < end:
        s = app.session
        if app.root.current != "table" or s is None or s.outcome() is not None:
            break
        if app.root.get_screen("table").ids.prompt.text == s.prompt().text:
            break
        yield 0.04
    yield 0.1  # one more frame: the layout settles after the texts change


def _events(ctx: Ctx) -> int:
    s = ctx.app.session
    return -1 if s is None else len(s.log)


def _logged(ctx: Ctx) -> Callable[[], bool]:
    n = _events(ctx)
    return lambda: _events(ctx) != n


class Checker:
    """Runs the harness on each new question (and screenshots a few), collecting problems."""

    def __init__(self, ctx: Ctx, game: str) -> None:
        self.ctx, self.game = ctx, game
        self.seen: set[Any] = set()
        self.checked = 0
        ctx.result.setdefault("touch_problems", {})

    def __call__(self, key: Any, shot: str | None = None) -> None:
        if key in self.seen and shot is None:
            return
        self.seen.add(key)
        trace("check", key)
        found = tc.check_screen(self.ctx, f"{self.game}-{shot}") if shot else tc.problems(self.ctx)
        self.checked += 1
        if found:
            self.ctx.result["touch_problems"][f"{key}"] = found


def _choice_button(ctx: Ctx, label: str, needed: bool = True) -> Any | None:
    """The Table's button for this choice, wholly on screen (a missing one fails, naming what is shown)."""
    table = ctx.app.root.get_screen("table")
    for b in tc.buttons(table):
        a = getattr(b, "action", None)
        if a and a[0] == "choice" and a[1].label == label and tc.touchable(b):
            return b
    if needed:
        raise AssertionError(f"choice {label!r} not visible; problems: {tc.problems(ctx)}")
    return None


def _home_to_table(ctx: Ctx, title: str) -> Iterator[float]:
    yield from tc.touch_text(ctx, title)
    assert ctx.app.root.current == "setup", ctx.app.root.current
    problems = tc.check_screen(ctx, f"setup-{title.split()[0].lower()}")
    ctx.result["touch_problems"] = {"setup": problems} if problems else {}
    yield from tc.touch_text(ctx, "Start game")
    yield from settled(ctx, "table")


def settled(ctx: Ctx, screen: str) -> Iterator[float]:
    """Wait until ``screen`` shows and the screen transition has finished (nothing half drawn)."""
    root = ctx.app.root
    yield from wait_for(lambda: root.current == screen and not root.transition.is_active)
    yield 0.15


# -- Sheepdogs of Pendleton Hill ---------------------------------------------------


def _pendleton_board(ctx: Ctx) -> Any:
    return ctx.app.root.get_screen("table").board


@scenario()
def pendleton_hill_by_touch(ctx: Ctx) -> Iterator[float]:
    """A whole 3-player game: setup shepherds on the picture, cards as buttons, every action on the picture."""
    app = ctx.app
    yield from _home_to_table(ctx, "Sheepdogs of Pendleton Hill")
    ctx.result["first_prompt"] = app.session.prompt().text
    check = Checker(ctx, "pendleton-hill")
    check("table-first", shot="table-setup")
    shots = {"card": "table-card", "menu": "table-menu", "action": "table-action"}
    touches = 0
    menus = 0
    while app.session.outcome() is None:
        s = app.session
        trace("step", touches, s.state.phase.value, len(s.log), s.prompt().text[:60], repr(app.message))
        state = s.state
        board = _pendleton_board(ctx)
        phase = state.phase.value
        prompt = s.prompt()
        if board._asking is not None:  # the picture asks which piece goes there
            key = ("menu", len(board._offers[board._asking]))
            check(key, shot=shots.pop("menu", None))
            button = next(b for b in board.ids.menu_grid.children if tc.touchable(b))
            yield from _tap(ctx, button, _logged(ctx))
            touches += 1
            continue
        check((phase, tuple(c.label for c in prompt.choices if c.type not in board.handles), bool(prompt.alert)), shot=shots.pop(phase, None))
        if phase == "card" and "card_texts" not in ctx.result:
            ctx.result["card_texts"] = tc.labels(app.root.current_screen)  # what everyone at the table can read
        if phase == "card":
            labels = [c.label for c in prompt.choices]
            want = next((x for x in ("Play a 2", "Sheepdog as a 2") if x in labels), labels[0])
            yield from _tap(ctx, _choice_button(ctx, want), _logged(ctx))
            touches += 1
            continue
        offers = board._offers
        single = [name for name, here in offers.items() if len(here) == 1]
        # Move the wolf (the quickest turn), else any spot with one answer, else Done, else ask.
        wolf = [n for n in single if offers[n][0].type == "move-wolf"]
        done = _choice_button(ctx, "Done", needed=False)
        if wolf or single:
            spot = board._spots[(wolf or single)[0]]
            yield from _tap(ctx, spot, _logged(ctx))
        elif done is not None:
            yield from _tap(ctx, done, _logged(ctx))
        elif offers:
            spot = board._spots[next(iter(offers))]
            yield from _tap(ctx, spot, lambda: _pendleton_board(ctx)._asking is not None)
            menus += 1
        else:
            raise AssertionError(f"nothing to touch: {prompt.text}")
        touches += 1
        if touches > 700:
            raise AssertionError("the game did not end in 700 touches")
    yield from settled(ctx, "results")
    ctx.result["results_problems"] = tc.check_screen(ctx, "pendleton-hill-results")
    ctx.result["touches"] = touches
    ctx.result["menus"] = menus
    ctx.result["checked"] = check.checked
    ctx.result["events"] = [e.type for e in app.session.events]
    ctx.result["state"] = app.session.game.state_json(app.session.state)
    ctx.result["results_texts"] = tc.labels(app.root.current_screen)


# -- Sheep Hop! ------------------------------------------------------------------


def _hop_board(ctx: Ctx) -> Any:
    return ctx.app.root.get_screen("table").board


def _token(ctx: Ctx, sid: str) -> Any:
    return _hop_board(ctx)._tokens[sid]


def _face(ctx: Ctx, check: Checker, face: str) -> Iterator[float]:
    """Roll: the face on the dice pad, after the harness's checks on the roll prompt."""
    check(("roll", bool(ctx.app.session.prompt().alert)))
    yield from tc.touch_face(ctx, face)
    yield from drawn(ctx)


@scenario()
def sheep_hop_by_touch(ctx: Ctx) -> Iterator[float]:
    """A whole game: the wolves placed on their rings, dice faces on the pad, sheep and captures on the picture."""
    app = ctx.app
    yield from _home_to_table(ctx, "Sheep Hop!")
    check = Checker(ctx, "sheep-hop")
    board = _hop_board(ctx)
    check("wolves", shot="table-wolves")
    big, little = board.ids.rings.children[::-1]
    ctx.result["first_prompt"] = app.session.prompt().text
    # The big wolf: a touch on its ring, a quarter of the way round (clockwise from the top).
    ring = big.ring
    x, y = ring.center_x + min(ring.width, ring.height) * 0.42, ring.center_y
    yield from tc.touch_at(ctx, ring, ring.to_widget(*ring.to_window(x, y)))
    yield from drawn(ctx)
    yield from _tap(ctx, little.later, _logged(ctx))
    yield from _tap(ctx, little.later, _logged(ctx))
    ctx.result["wolves"] = {n: w["position"] for n, w in app.session.game.state_json(app.session.state)["wolves"].items()}
    # The wolves move first: they caught black1 (touched on the picture, then confirmed).
    yield from _face(ctx, check, "big-and-little-wolf")
    check("capture", shot="table-capture")
    yield from _tap(ctx, _token(ctx, "black1"))
    ctx.result["confirm_label"] = _hop_board(ctx).ids.strip.children[-1].text
    check("capture-marked", shot="table-capture-marked")
    yield from _tap(ctx, _hop_board(ctx).ids.strip.children[-1], _logged(ctx))
    # Another wolf roll: nobody caught.
    yield from _face(ctx, check, "double-big-wolf")
    yield from _tap(ctx, _hop_board(ctx).ids.strip.children[-1], _logged(ctx))
    # Then every sheep left reaches the pen: its colour on the die, the sheep, "reaches the pen".
    for i, sid in enumerate(["white1", "white2", "white3", "black2", "black3", "brown1", "brown2", "brown3"]):
        face = "multicoloured" if i == 3 else sid.rstrip("0123456789")
        yield from _face(ctx, check, face)
        check(("sheep", i == 3), shot="table-sheep" if i == 0 else None)
        yield from _tap(ctx, _token(ctx, sid))
        check("menu", shot="table-sheep-menu")
        menu = _hop_board(ctx).ids.menu_grid
        button = next(b for b in menu.children if b.text == f"{sid} reaches the pen")
        yield from _tap(ctx, button, _logged(ctx))
    yield from settled(ctx, "results")
    ctx.result["results_problems"] = tc.check_screen(ctx, "sheep-hop-results")
    ctx.result["checked"] = check.checked
    ctx.result["state"] = app.session.game.state_json(app.session.state)
    ctx.result["events"] = [e.type for e in app.session.events]
    ctx.result["results_texts"] = tc.labels(app.root.current_screen)
