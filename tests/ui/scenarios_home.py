"""Home and Settings by touch: tidying the stored games, the offline line's reasons (F25, F26, F12, F37)."""

from __future__ import annotations

from collections.abc import Iterator

from . import touch_check as tc
from .driver import Ctx
from .scenarios import scenario, wait_for


def _stored_texts(ctx: Ctx) -> list[str]:
    home = ctx.app.root.get_screen("home")
    return [b.text for b in tc.buttons(home.ids.stored) if b.text != "Remove"]


@scenario(real_sensors=True)
def home_tidy_and_reasons(ctx: Ctx) -> Iterator[float]:
    app = ctx.app
    yield from wait_for(lambda: all(s.reason != "starting" for s in app.hub.statuses.values()), 20)
    for face in (3, 5):  # two Tally games, each one roll in, left from the Table
        yield from tc.touch_text(ctx, "Tally")
        yield from tc.touch_text(ctx, "Start game")
        yield from tc.touch_face(ctx, face)
        yield from tc.touch_text(ctx, "Home")
    ctx.result["before"] = _stored_texts(ctx)
    home = ctx.screen
    removes = [b for b in tc.buttons(home.ids.stored) if b.text == "Remove"]
    yield from tc.touch(ctx, removes[0])
    ctx.result["asked"] = home.ids.confirm_text.text
    ctx.result["problems_asking"] = tc.check_screen(ctx, "home-remove")
    yield from tc.touch_text(ctx, "Abandon")
    ctx.result["after_abandon"] = _stored_texts(ctx)
    removes = [b for b in tc.buttons(home.ids.stored) if b.text == "Remove"]
    yield from tc.touch(ctx, removes[1])
    yield from tc.touch_text(ctx, "Delete")
    ctx.result["after_delete"] = _stored_texts(ctx)
    ctx.result["stored_ids"] = [i.id for i in app.store.sessions()]
    # The offline line opens Settings, which says why in plain words.
    yield from tc.touch(ctx, home.ids.sensors)
    ctx.result["screen"] = app.root.current
    ctx.result["settings_texts"] = tc.labels(ctx.screen)
    ctx.result["settings_problems"] = tc.check_screen(ctx, "settings-reasons")
    yield from tc.touch_text(ctx, "Quit the app")
    ctx.result["quit_asks"] = ctx.screen.ids.quit.text
