"""Start-up time and resident memory of the touchscreen app, in a real window.

    .venv/bin/python benchmarks/ui_bench.py [--game fleeced] [--taps 60] [--camera 300]

The app runs in a child process (a real Kivy window; under Xvfb when there is
no DISPLAY) and plays a scripted game (Fleeced! with four players by default):
each step a mouse click, through the window's own mouse provider, on what the
Table offers and shows (a die face when dice are asked for, else one of the
offered answers, chosen by a seeded random generator), then a burst of camera
readings through the sensor queue, then visits to the Log, Results and Settings
screens.  The real sensors (camera, microphone, buttons) are opened as in play,
so their modules count in the memory when their devices can be there.  This
process samples the child's /proc status every 50 ms.

Start-up is measured twice: from process launch to the first drawn frame (what
a person waits for), and the app's own construction (from ``App.run`` to the
first frame).  Memory is VmRSS, split into anonymous and file-backed pages:
under Xvfb the OpenGL renderer is Mesa's llvmpipe, in software, and a bare
Kivy window with one label is already ~125 MB resident (54 MB of it LLVM's
shared library).  The app's garbage collections after redraws (see
``ui.application.COLLECT_AFTER``) are timed too: they run on the UI thread.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def child(out: str, game: str, taps: int, camera: int) -> None:
    t0 = float(os.environ["UI_BENCH_T0"])
    # UI_BENCH_TRACE=1: also the Python heap per phase (slower), to tell Python's
    # share of the memory from the GL driver's.
    tracing = os.environ.get("UI_BENCH_TRACE") == "1"
    if tracing:
        tracemalloc.start()
    from ui.app import configure_kivy

    configure_kivy((800, 480), False)
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion import testing
    from companion.events import ROLL, Event, Source
    from hardware.sensor import Sensor
    from ui.application import AppOptions, BellwetherApp
    from ui.sensors import SensorHub

    testing.register()
    chooser = random.Random(0)  # the scripted table's choices: the same every run

    class Camera(Sensor):
        name = "bench-dice"  # beside the real sensors, which stay offline here without devices

    hub = SensorHub()
    cam = Camera()
    hub.add(cam)
    cam.set_status(True, "scripted camera (benchmark)")
    app = BellwetherApp(AppOptions(data_dir=Path(out).parent / "data", hub=hub))
    marks: dict[str, float] = {}
    phases: dict[str, int] = {}

    def rss(phase: str) -> None:
        phases[phase] = _status(os.getpid()).get("VmRSS", 0) // 1024
        if tracing:
            phases[phase + " (python heap)"] = tracemalloc.get_traced_memory()[0] // (1024 * 1024)

    def tap(button: Any) -> Iterator[float]:
        # A mouse click through the window, as on a desktop: Kivy's own test
        # touches (kivy.tests) would import pytest (~4 MB) into the measured process.
        x, y = button.to_window(*button.center)
        Window.dispatch("on_mouse_down", x, Window.height - y, "left", {})
        yield 0.03
        Window.dispatch("on_mouse_up", x, Window.height - y, "left", {})
        yield 0.3  # the ScrollView passes the tap on 0.2 s after release

    def answer(table: Any, i: int) -> Any:
        """What the scripted table taps: a die face when dice are asked for, else one of the offered answers."""
        view = table.ids.entry.parent  # the ScrollView: a person taps only what it shows
        left, bottom = view.parent.to_window(view.x, view.y)

        def shown(b: Any) -> bool:
            x, y = b.to_window(*b.center)
            return left <= x <= left + view.width and bottom <= y <= bottom + view.height

        buttons = [b for b in reversed(table.ids.entry.children) if b.text != "Clear" and shown(b)]
        if not buttons:
            return None
        faces = [b for b in buttons if b.text in "123456"]
        return faces[i % len(faces)] if faces else buttons[chooser.randrange(len(buttons))]

    def script() -> Iterator[float]:
        while app.first_frame_at is None:
            yield 0.02
        marks["first_frame_since_launch"] = time.time() - t0
        marks["first_frame_since_run"] = app.first_frame_at - app.started_at
        print("READY", flush=True)
        yield 0.5
        rss("home")
        app.new_game(game, {"players": [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")]})
        yield 0.5
        table = app.root.get_screen("table")
        started = time.perf_counter()
        tapped = 0
        for i in range(taps):
            button = answer(table, i)
            if button is None or app.session.outcome() is not None:
                break
            yield from tap(button)
            tapped += 1
        marks["taps"] = tapped
        marks["taps_per_s"] = tapped / (time.perf_counter() - started)
        rss("after touches")
        started = time.perf_counter()
        for i in range(camera):
            cam.emit(Event(ROLL, {"die": "d6", "faces": [i % 6 + 1]}, None, time.time(), Source.CAMERA, 0.95))
        while not hub.queue.empty():
            yield 0.02
        marks["camera_events_per_s"] = camera / (time.perf_counter() - started)
        yield 0.3
        rss("after camera")
        for screen in ("log", "results", "settings", "table"):
            app.go(screen)
            yield 0.5
            rss(screen)
        marks["events"] = len(app.session.events)
        marks["gc_ms"] = sorted(app.collect_ms)
        marks["phases"] = phases
        print("DONE " + json.dumps(marks), flush=True)
        app.stop()

    steps = script()

    def step(_dt: float) -> None:
        with contextlib.suppress(StopIteration):  # the script has ended
            Clock.schedule_once(step, next(steps))

    Clock.schedule_once(step, 0)
    app.run()


def _status(pid: int) -> dict[str, int]:
    values = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "RssAnon", "RssFile", "RssShmem"):
                    values[key] = int(rest.split()[0])
    except OSError:
        pass
    return values


def main() -> int:
    parser = argparse.ArgumentParser(description="Start-up time and resident memory of the app in a real window.")
    parser.add_argument(
        "--game", default="fleeced", help="the game played (default fleeced; tally = the core's test game)"
    )
    parser.add_argument("--taps", type=int, default=60, help="touches on the Table's answers (default 60)")
    parser.add_argument(
        "--camera", type=int, default=300, help="camera readings sent through the sensor queue (default 300)"
    )
    args = parser.parse_args()
    game, taps, camera = args.game, args.taps, args.camera
    from benchmarks._machine import describe

    xvfb = None
    env = dict(os.environ)
    tmp = Path(tempfile.mkdtemp(prefix="ui-bench-"))
    if not env.get("DISPLAY"):
        n = next(n for n in range(190, 290) if not Path(f"/tmp/.X{n}-lock").exists())
        xvfb = subprocess.Popen(
            [shutil.which("Xvfb") or "Xvfb", f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.0)
        env["DISPLAY"] = f":{n}"
    env.update(KIVY_HOME=str(tmp / "kivy"), KIVY_NO_ARGS="1", UI_BENCH_T0=repr(time.time()))
    try:
        proc = subprocess.Popen(
            [sys.executable, __file__, "--child", str(tmp / "out"), game, str(taps), str(camera)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)  # type: ignore[arg-type]
        reader.start()
        peak: dict[str, int] = {}
        play: list[int] = []
        while proc.poll() is None:
            s = _status(proc.pid)
            if s and any(line.startswith("READY") for line in lines):
                play.append(s.get("VmRSS", 0))
                for k, v in s.items():
                    peak[k] = max(peak.get(k, 0), v)
            time.sleep(0.05)
        reader.join(timeout=5)
    finally:
        if xvfb is not None:
            xvfb.terminate()
        shutil.rmtree(tmp, ignore_errors=True)
    marks: dict[str, float] = {}
    for line in lines:
        if line.startswith("DONE "):
            marks = json.loads(line[5:])
    if not marks:
        print("the scripted game did not finish", file=sys.stderr)
        return 1
    print(f"machine: {describe()} (shared; load {os.getloadavg()[0]:.1f})")
    print(f"start-up, launch to first frame: {marks['first_frame_since_launch']:.2f} s")
    print(f"start-up, App.run to first frame: {marks['first_frame_since_run']:.2f} s")
    print(
        f"played {game}: {marks['events']} events ({marks['taps']} touches at {marks['taps_per_s']:.1f}/s, "
        f"{camera} camera readings at {marks['camera_events_per_s']:.0f}/s), then Log, Results, Settings"
    )
    print("resident memory by phase (MB): " + ", ".join(f"{k} {v}" for k, v in marks["phases"].items()))
    print(
        f"resident memory in play: peak {max(play) / 1024:.0f} MB, median {sorted(play)[len(play) // 2] / 1024:.0f} MB"
    )
    print(
        f"  of the peak: anonymous {peak.get('RssAnon', 0) / 1024:.0f} MB, file-backed {peak.get('RssFile', 0) / 1024:.0f} MB "
        "(mostly the GL driver's shared libraries)"
    )
    gc_ms = marks["gc_ms"]
    if gc_ms:
        print(
            f"garbage collections after redraws: {len(gc_ms)}, median {gc_ms[len(gc_ms) // 2]:.1f} ms, longest {gc_ms[-1]:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        sys.exit(0)
    sys.exit(main())
