"""The Table screen and the game pictures, by touch (issue #17, ui-table's part).

Each scenario plays through the real window with touches only
(``tests/ui/touch_check.py``) and records what the screen shows; the tests in
``tests/ui/test_table_touch.py`` assert on it.  Each one failed before the fix
it stands for (named in its docstring).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import touch_check as tc
from .driver import Ctx
from .scenarios import scenario, wait_for


def start(ctx: Ctx, title: str, players: int = 3) -> Iterator[float]:
    """Home → the game's Setup → Start game, by touch (the default names)."""
    yield from tc.touch_text(ctx, title)
    setup = ctx.screen
    while setup.count < players:
        yield from tc.touch_text(ctx, "More")
    yield from tc.touch_text(ctx, "Start game")
    assert ctx.app.root.current == "table", (ctx.app.root.current, setup.ids.error.text)
    yield from tc.settle(ctx)


def table(ctx: Ctx) -> Any:
    return ctx.app.root.get_screen("table")


@scenario()
def table_no_whistle_line_in_sheep_hop(ctx: Ctx) -> Iterator[float]:
    """Sheep Hop! takes no whistle: the Table's whistle line stays empty while
    the microphone's level changes (it read "No whistle this turn · mic -33 dB":
    the level's 4 Hz tick wrote it whatever the prompt)."""
    yield from start(ctx, "Sheep Hop!")
    ctx.rigs["whistle"].microphone.set_hum(-33.0)
    yield 1.2  # several level ticks (every 0.25 s)
    ctx.result["expects_whistle"] = "whistle" in ctx.app.session.prompt().expects
    ctx.result["whistle_line"] = table(ctx).ids.whistle.text
    ctx.result["whistle_button_shown"] = table(ctx).ids.whistle_button.opacity > 0
    ctx.shot("table-sheep-hop-no-whistle")


@scenario()
def table_live_level_in_fleeced(ctx: Ctx) -> Iterator[float]:
    """Fleeced! takes a whistle at every prompt: its whistle line follows the
    microphone's level with no game event (moved here from the Tally round,
    which takes no whistle)."""
    yield from start(ctx, "Fleeced!")
    events = len(ctx.app.session.log)
    ctx.rigs["whistle"].microphone.set_hum(-33.0)
    yield from wait_for(lambda: table(ctx).ids.whistle.text.endswith("mic -33 dB"))
    ctx.result["live_level"] = table(ctx).ids.whistle.text
    ctx.result["events_moved"] = len(ctx.app.session.log) - events
