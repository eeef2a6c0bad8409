"""Fleeced!'s whistle before a rustle, when the microphone could not vouch for it (session 23).

The real WhistleSensor (generic detector) listens to a fake live microphone into which a real recording is played: a
real robot-clips whistle blown 3 dB over a real ESC-10 dog bark, which the detector's gate refuses but doubts. The
rustle's roll then finds no whistle: with the doubt the table is asked, without it the timer rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from . import touch_check as tc
from .driver import Ctx
from .scenarios import scenario, start_fleeced, table_facts, wait_for

ROBOT = Path("whistle") / "robot-clips" / "whistle" / "whistle_2015_07_18_051223_vali.wav"
DOG = Path("whistle") / "esc10-negatives" / "001 - Dog bark" / "2-114280-A.wav"


def blow_over_a_dog() -> np.ndarray:
    """As tests/hardware/test_whistle_doubts.py mixes it: 3 s of the dog at -30 dBFS, the blow 3 dB over it."""
    from companion.paths import shared_data
    from hardware.audio import read_wav, resample
    from hardware.testing import whistle_synth as ws

    blow = ws.blow_piece(resample(*read_wav(shared_data() / ROBOT)))
    dog = resample(*read_wav(shared_data() / DOG))[: 3 * 16000]
    rng = np.random.default_rng(0)
    return ws.scene("doubt", dog, ws.cut(blow, rng, 0.4, 0.5), 3.0, rng, level_db=-30).samples


def _to_the_rustle_roll(ctx: Ctx) -> Iterator[float]:
    """Two players by touch; the camera rolls Ann first; Ann opens the Post Office and rustles its 11 sheep."""
    app = ctx.app
    yield from start_fleeced(ctx)
    dice = ctx.rigs["dice"]
    for n, faces in enumerate(([6, 5], [2, 1], [3]), start=1):
        dice.roll("d6", faces)
        yield from wait_for(lambda n=n: len(app.session.events) == n)
    yield from tc.touch_choice(ctx, "Ended on the Post Office doorstep")
    yield from tc.touch_choice(ctx, "Open it with its own key")
    yield from tc.touch_number(ctx, 11)
    yield from tc.touch_choice(ctx, "Rustle from the Village Green (11 sheep)")


def _rustle(ctx: Ctx, doubt: bool) -> Iterator[float]:
    app = ctx.app
    app.speak = app.speaker.available  # spoken prompts on, as a table that cannot always look would have them
    yield from _to_the_rustle_roll(ctx)
    if doubt:
        ctx.rigs["whistle"].microphone.play(blow_over_a_dog())
        yield from wait_for(lambda: app.whistle_doubt is not None)
    ctx.result["whistles_heard"] = sum(e.type == "whistle" for e in app.session.events)
    n = len(app.session.events)
    ctx.rigs["dice"].roll("d6", [6, 5])
    yield from wait_for(lambda: len(app.session.events) == n + 1)
    ctx.result["check"] = app.session.game.state_json(app.session.state)["whistle"]["pending_check"]
    ctx.result["doubt_time"] = app.whistle_doubt.time if app.whistle_doubt is not None else None
    yield 2.5  # past the 1.5 s margin
    ctx.result["after_margin"] = table_facts(ctx) | {"events": len(app.session.events)}
    ctx.result["pending"] = app.session.game.state_json(app.session.state)["whistle"]["pending_check"] is not None
    ctx.shot("whistle-doubt" if doubt else "whistle-none")
    ctx.result["spoken"] = app.speaker.last if app.speak else None
    if doubt:
        yield from tc.touch_choice(ctx, "Ann blows the whistle")
        yield 0.3
    state = app.session.game.state_json(app.session.state)
    ctx.result["pending_after"] = state["whistle"]["pending_check"] is not None
    ctx.result["alert"] = table_facts(ctx)["alert"]
    ctx.result["last"] = [(e.type, e.source.value, e.get("blower")) for e in app.session.events[n:]]
    ctx.result["answer_at_doubt"] = doubt and app.session.events[-1].time == ctx.result["doubt_time"]


@scenario(whistlers=())
def fleeced_whistle_doubt(ctx: Ctx) -> Iterator[float]:
    """The microphone doubted a blow before the rustle's roll: the table is asked, and its answer counts."""
    yield from _rustle(ctx, doubt=True)


@scenario(whistlers=())
def fleeced_whistle_none(ctx: Ctx) -> Iterator[float]:
    """No blow and no doubt: the timer rules the no-whistle penalty at the margin, as before."""
    yield from _rustle(ctx, doubt=False)
