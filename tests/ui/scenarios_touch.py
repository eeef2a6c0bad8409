"""Scenarios that check the by-touch harness itself (``tests/ui/touch_check.py``)."""

from __future__ import annotations

from collections.abc import Iterator

from . import touch_check as tc
from .driver import Ctx
from .scenarios import scenario, wait_for


@scenario()
def touch_harness(ctx: Ctx) -> Iterator[float]:
    """Tally by touch alone: the harness sees the dice pad, refuses what a finger could not touch."""
    app = ctx.app
    yield from tc.touch_text(ctx, "Tally")
    yield from tc.touch_text(ctx, "Start game")
    assert app.root.current == "table"
    ctx.result["offered_faces"] = tc.offered(ctx)["faces"]
    ctx.result["unreachable"] = tc.unreachable(ctx)
    yield from tc.touch_face(ctx, 4)
    yield from wait_for(lambda: len(app.session.events) == 1)
    ctx.result["scores"] = dict(app.session.scores())
    try:
        yield from tc.touch_text(ctx, "Redo")  # disabled: nothing to redo
        ctx.result["redo_refused"] = False
    except AssertionError as e:
        ctx.result["redo_refused"] = str(e)
    # A face scrolled out of the entry is no longer "visible without scrolling".
    table = app.root.get_screen("table")
    for button in table.ids.entry.children:
        button.height = 400
    yield 0.3
    ctx.result["scrolled_away"] = tc.unreachable(ctx)
    # Text under 14 px is reported.
    ctx.result["small"] = tc.small_text(table)
    table.ids.rule.font_size = 9
    ctx.result["small_after"] = tc.small_text(table)
