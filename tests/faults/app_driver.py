"""The real app under Xvfb with broken profiles: ``python -m tests.faults.app_driver SCENARIO ...``.

Adds this suite's scenarios to the shared UI harness (tests/ui/driver.py) and
runs it, so each scenario gets the same real window, touches and result file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.faults.conftest import fill, free
from tests.ui import driver, scenarios
from tests.ui.scenarios import scenario, start_tally, wait_for


@scenario(real_sensors=True)
def broken_profiles(ctx: Any) -> Iterator[float]:
    """The sensors open on their defaults, the app stays up and says which profiles it ignored."""
    app = ctx.app
    yield from wait_for(lambda: all(s.reason != "starting" for s in app.hub.statuses.values()), 20)
    yield 0.5
    ctx.result["screen"] = app.root.current
    ctx.result["message"] = app.message
    ctx.result["summary"] = app.sensor_summary
    ctx.result["ignored"] = {path: item.reason for path, item in app.hub.ignored.items()}
    ctx.result["statuses"] = {n: [s.online, s.reason] for n, s in app.hub.statuses.items()}
    ctx.result["home_texts"] = ctx.texts()
    ctx.shot("faults-broken-profiles")
    # And the app still works: a game's setup opens by touch.
    yield from ctx.tap_text("Tally") if any(b.text == "Tally" for b in ctx.buttons()) else iter(())
    ctx.result["after_tap"] = app.root.current


@scenario()
def full_disk_in_play(ctx: Any) -> Iterator[float]:
    """The data folder's disk fills up mid-game: the next roll and an undo are refused in one line,
    the table stays up, and once space is freed play goes on (FAULTS_DISK: the small disk's mount point)."""
    app = ctx.app
    disk = Path(os.environ["FAULTS_DISK"])
    yield from start_tally(ctx)
    entry = app.root.get_screen("table").ids.entry
    yield from ctx.tap(ctx.button("4", entry))  # Ann rolls 4: stored
    ctx.result["before"] = {"events": len(app.session.events), "message": app.message}
    fill(disk)
    yield from ctx.tap(ctx.button("5", entry))  # Bob's 5: the disk refuses it
    ctx.result["full"] = {
        "events": len(app.session.events),
        "message": app.message,
        "prompt": app.session.prompt().text,
    }
    yield from ctx.key(122, "z", ("ctrl",))  # and an undo
    ctx.result["undo_full"] = {"events": len(app.session.events), "message": app.message}
    ctx.shot("faults-full-disk")
    free(disk)
    yield from ctx.tap(ctx.button("6", entry))  # space again: Bob's 6 is stored
    ctx.result["after"] = {"events": len(app.session.events), "message": app.message, "screen": app.root.current}
    ctx.result["session_id"] = app.session.id


assert "broken_profiles" in scenarios.SCENARIOS

if __name__ == "__main__":
    sys.exit(driver.main())
