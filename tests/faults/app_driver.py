"""The real app under Xvfb with broken profiles: ``python -m tests.faults.app_driver SCENARIO ...``.

Adds this suite's scenarios to the shared UI harness (tests/ui/driver.py) and
runs it, so each scenario gets the same real window, touches and result file.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from tests.ui import driver, scenarios
from tests.ui.scenarios import scenario, wait_for


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


assert "broken_profiles" in scenarios.SCENARIOS

if __name__ == "__main__":
    sys.exit(driver.main())
