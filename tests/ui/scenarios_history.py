"""History while it counts: the dice of every stored game are counted off the UI thread."""

from __future__ import annotations

import time
from collections.abc import Iterator

from .driver import Ctx
from .scenarios import _store_record, scenario, wait_for


@scenario()
def history_counts_in_the_background(ctx: Ctx) -> Iterator[float]:
    """A slow count (a season of games on a Pi, made slow here on purpose) must
    not freeze the window: History says it is counting, Home still answers a
    touch, and the charts appear when the count ends."""
    import ui.screens.history as history

    app = ctx.app
    _store_record(ctx, "fleeced/full-game-two-players.jsonl")
    app.close_session()
    history._ROLLS.clear()
    slow = history.stored_rolls

    def slow_count(store, cache):  # type: ignore[no-untyped-def]
        time.sleep(2.0)
        return slow(store, cache)

    history.stored_rolls = slow_count
    yield 0.5
    frames: list[float] = []
    from kivy.clock import Clock

    ev = Clock.schedule_interval(lambda dt: frames.append(dt), 0)
    yield from ctx.tap_text("History")
    yield 0.6
    screen = app.root.get_screen("history")
    ctx.result["while_counting"] = screen.ids.summary.text
    ctx.result["charts_while_counting"] = len(screen.ids.charts.children)
    ctx.result["longest_frame_while_counting"] = max(frames, default=0.0)
    yield from wait_for(lambda: len(screen.ids.charts.children) > 0, 10)
    ev.cancel()
    ctx.result["after"] = screen.ids.summary.text
    ctx.result["charts"] = len(screen.ids.charts.children)
    history.stored_rolls = slow
