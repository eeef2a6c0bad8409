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


# As long as the on-screen keyboard takes (ui/name_entry.py: 24 characters).
LONG_NAMES = ("Alexandrina Montgomery", "Bartholomew Fairweather", "Clementine Ashworth-Lee",
              "Dorothea Wolstenholme", "Evangeline Blackwood", "Florentyna Higginbottom")


@scenario()
def table_text_floor_with_long_names(ctx: Ctx) -> Iterator[float]:
    """Six players with long names, a game drawn by the generic picture (Tally, to
    12 points: its setup as a stored record would give it), played by touch to its
    Results: the chart's legend squeezed each name into a 26 px row down to 11 px,
    the FitLabel floor was 10 px.  No text may be under 14 px, and none clipped instead."""
    app = ctx.app
    app.new_game("tally", {"players": [{"name": n} for n in LONG_NAMES], "options": {"target": 12}})
    yield 0.5
    ctx.result["problems"] = {}
    while app.session.outcome() is None:
        yield from tc.touch_face(ctx, 6)
        if len(app.session.log) == 3:
            yield from tc.settle(ctx)
            ctx.result["problems"]["table"] = tc.check_screen(ctx, "table-generic-long-names")
    yield from wait_for(lambda: app.root.current == "results")
    yield 1.0
    ctx.result["problems"]["results"] = tc.check_screen(ctx, "results-long-names")
    legend = ctx.screen.ids.chart.legend
    ctx.result["legend_fonts"] = sorted({round(w.font_size) for w in legend.children if hasattr(w, "font_size")})


@scenario()
def shear_panic_progress_bar(ctx: Ctx) -> Iterator[float]:
    """F38: Shear Panic's time and field as a bar read at arm's length at 800x480 (it was a
    57-square serpentine 57 px tall, and "Time 0 of 56 · Teammates' field" in the status
    line), with the flock and the answers still on screen."""
    yield from start(ctx, "Shear Panic")
    board = table(ctx).board
    yield from tc.settle(ctx)
    yield 0.3
    progress, track = board.ids.progress, board.ids.track
    from kivy.core.window import Window

    ctx.result["progress_text"] = progress.text
    ctx.result["progress_font"] = progress.font_size
    ctx.result["bar"] = [track.width / Window.width, track.bar_height()]
    ctx.result["status_text"] = board.ids.status.text
    ctx.result["problems"] = tc.check_screen(ctx, "shear-panic-progress")


@scenario()
def fleeced_other_card_played(ctx: Ctx) -> Iterator[float]:
    """F23: "Play another Cheese Card" took a card from the hand with no word on screen;
    now the ruling strip says what became of it (neutral: a routine step)."""
    app = ctx.app
    yield from start(ctx, "Fleeced!", players=2)
    for faces in ((6, 5), (2, 1)):  # who goes first: the first seat's 11
        for f in faces:
            yield from tc.touch_face(ctx, f)
    first = app.session.prompt().player
    yield from tc.touch_face(ctx, 3)
    yield from tc.touch_choice(ctx, "Ended on a cheese square")
    yield from tc.settle(ctx)
    ctx.result["draw_problems"] = tc.check_screen(ctx, "fleeced-draw-card")  # every card kind in sight
    yield from tc.touch_choice(ctx, "Drew another Cheese Card")
    yield from tc.touch_choice(ctx, "End the turn")
    yield from tc.touch_face(ctx, 2)
    yield from tc.touch_choice(ctx, "Ended on a plain square")
    yield from tc.touch_choice(ctx, "End the turn")
    assert app.session.prompt().player == first, app.session.prompt().text
    yield from tc.touch_choice(ctx, "Play another Cheese Card")
    ids = table(ctx).ids
    ctx.result["player"] = first
    ctx.result["alert"] = ids.alert.text
    ctx.result["alert_bg"] = list(ids.alert_box.bg)
    ctx.result["problems"] = tc.check_screen(ctx, "fleeced-other-card")


@scenario()
def settings_left_from_the_table(ctx: Ctx) -> Iterator[float]:
    """Table → Settings → Table: leaving Settings ended the app (its on_leave set a button's
    text after the screen had let its widgets go: a ReferenceError; found by
    benchmarks/ui_bench.py after merging main).  The views are changed as the app's own
    code does (``app.go``, the benchmark's round of the views): a finger's touch on
    Settings keeps its widgets alive a while (the touch holds them), which hid the bug."""
    yield from start(ctx, "Fleeced!")
    for view in ("log", "results", "settings", "table"):  # the benchmark's round of the views
        ctx.app.go(view)
        yield 0.5
    yield 1.5  # the slide out, the screen let go and collected
    ctx.result["screen"] = ctx.app.root.current
