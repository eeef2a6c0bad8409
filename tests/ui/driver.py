"""Run one UI scenario in a real Kivy window: ``python -m tests.ui.driver NAME``.

A scenario is a generator that drives the app with Kivy's own test touches
(``kivy.tests.common.UnitTestTouch``) and key events, yielding the seconds to
let the app run between steps, and fills ``ctx.result``.  The result is
written as JSON for the pytest side to assert on; with ``--hold`` the app keeps
running afterwards (to be killed by the test).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

T0 = time.perf_counter()


class Ctx:
    def __init__(self, app: Any, args: argparse.Namespace, rigs: dict[str, Any]) -> None:
        self.app = app
        self.args = args
        self.rigs = rigs  # the real sensors over fake devices (hardware.testing.sensors)
        self.result: dict[str, Any] = {}
        self.size = args.size

    # -- finding -----------------------------------------------------------
    @property
    def screen(self) -> Any:
        return self.app.root.current_screen

    def buttons(self, root: Any = None) -> list[Any]:
        from kivy.uix.button import ButtonBehavior

        from .layout import _walk

        return [w for w in _walk(root or self.screen) if isinstance(w, ButtonBehavior)]

    def button(self, text: str, root: Any = None) -> Any:
        found = [b for b in self.buttons(root) if b.text == text]
        if not found:
            raise AssertionError(f"no button {text!r} on {self.app.root.current}: {[b.text for b in self.buttons(root)]}")
        return found[0]

    def texts(self) -> list[str]:
        from .layout import texts

        return texts(self.screen)

    # -- acting ------------------------------------------------------------
    def tap(self, widget: Any) -> Iterator[float]:
        """Press and release a real touch at the widget's centre."""
        from kivy.tests.common import UnitTestTouch

        if widget.disabled:
            raise AssertionError(f"tapping disabled {getattr(widget, 'text', widget)!r}")
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        yield 0.08  # longer than nothing, shorter than ScrollView's scroll_timeout decision
        touch.touch_up()
        # A ScrollView hands a tap to its children 0.2 s after the release;
        # then comes the throttled redraw (0.1 s).
        yield 0.45

    def tap_text(self, text: str) -> Iterator[float]:
        yield from self.tap(self.button(text))

    def key(self, key: int, codepoint: str | None, modifiers: tuple[str, ...] = ()) -> Iterator[float]:
        from kivy.core.window import Window

        Window.dispatch("on_key_down", key, 0, codepoint, list(modifiers))
        Window.dispatch("on_key_up", key, 0)
        yield 0.25

    def shot(self, name: str) -> str:
        folder = Path(self.args.shots) / self.size
        folder.mkdir(parents=True, exist_ok=True)
        from kivy.core.window import Window

        # The window's own pixels (what a person sees), not a re-render of the tree.
        written = Window.screenshot(name=str(folder / f"{name}.png"))
        path = folder / f"{name}.png"
        if written:
            os.replace(written, path)
        return str(path)

    def check(self, name: str) -> list[str]:
        """Layout problems on the current screen; also writes its screenshot."""
        from ui import theme

        from .layout import check

        self.shot(name)
        return check(self.screen, theme.touch_size())


def run(name: str, args: argparse.Namespace) -> int:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from ui.app import configure_kivy, parse_size

    configure_kivy(parse_size(args.size), False)
    from kivy.clock import Clock

    from companion import testing
    from ui.application import AppOptions, BellwetherApp
    from ui.sensors import SensorHub

    from . import scenarios

    scenarios.load_all()
    testing.register()
    scenario: Callable[[Ctx], Iterator[float]] = scenarios.SCENARIOS[name]
    rigs: dict[str, Any] = {}
    hub = None
    if not getattr(scenario, "real_sensors", False):
        # The real sensor classes over the fake devices shipped in the package.
        from hardware.testing.sensors import ButtonsRig, DiceRig, WhistleRig

        hub = SensorHub(specs=())
        rigs = {"dice": DiceRig(), "whistle": WhistleRig(getattr(scenario, "whistlers", ())), "buttons": ButtonsRig()}
        for rig in rigs.values():
            hub.add(rig.sensor)
            rig.sensor.start()
    options = AppOptions(data_dir=Path(args.data_dir), game=args.game, resume=args.resume, hub=hub)
    app = BellwetherApp(options)
    ctx = Ctx(app, args, rigs)
    out = Path(args.out)

    def write(result: dict[str, Any]) -> None:
        tmp = out.with_suffix(".tmp")
        tmp.write_text(json.dumps(result, default=str))
        os.replace(tmp, out)

    steps = scenario(ctx)

    def step(_dt: float) -> None:
        try:
            delay = next(steps)
        except StopIteration:
            ctx.result.setdefault("first_frame_s", (app.first_frame_at or 0) - T0 if app.first_frame_at else None)
            write(ctx.result)
            if not args.hold:
                app.stop()
            return
        except Exception:
            write({"error": traceback.format_exc(), **ctx.result})
            app.stop()
            return
        Clock.schedule_once(step, delay)

    def begin(_dt: float) -> None:
        # The clock runs before the window's first frame; start once the
        # first frame is drawn and the layout has settled.
        if app.first_frame_at is None or time.perf_counter() - app.first_frame_at < 0.3:
            Clock.schedule_once(begin, 0.05)
            return
        step(0)

    Clock.schedule_once(begin, 0)
    app.run()
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("scenario")
    p.add_argument("--size", default="800x480")
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--shots", required=True)
    p.add_argument("--game")
    p.add_argument("--resume", type=int)
    p.add_argument("--hold", action="store_true")
    args = p.parse_args(argv)
    return run(args.scenario, args)


if __name__ == "__main__":
    sys.exit(main())
