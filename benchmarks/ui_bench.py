"""Start-up time and resident memory of the touchscreen app, in a real window.

    .venv/bin/python benchmarks/ui_bench.py [taps] [camera_events]

The app runs in a child process (a real Kivy window; under Xvfb when there is
no DISPLAY) and plays a scripted game of Tally: every player's roll entered by
a mouse click on the face buttons (the window's own mouse provider), a burst of camera readings through the
sensor queue, and visits to the Log and Results screens.  The real sensors
(camera, microphone, buttons) are opened as in play, so their modules
(OpenCV, numpy, PyAudio) count in the memory even when the devices are absent.  This process samples
the child's /proc status every 50 ms.

Start-up is measured twice: from process launch to the first drawn frame (what
a person waits for), and the app's own construction (from ``App.run`` to the
first frame).  Memory is VmRSS; its split into anonymous and file-backed pages
is printed because under Xvfb the software OpenGL renderer (Mesa llvmpipe,
with LLVM) maps ~90 MB of shared library pages that a Pi's GPU driver does not.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def child(out: str, taps: int, camera: int) -> None:
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

    def script():
        while app.first_frame_at is None:
            yield 0.02
        marks["first_frame_since_launch"] = time.time() - t0
        marks["first_frame_since_run"] = app.first_frame_at - app.started_at
        print("READY", flush=True)
        yield 0.5
        rss("home")
        app.new_game("tally", {"players": [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")]})
        yield 0.5
        table = app.root.get_screen("table")
        started = time.perf_counter()
        for i in range(taps):
            face = str(i % 6 + 1)
            button = next(b for b in table.ids.entry.children if b.text == face)
            # A mouse click through the window, as on a desktop: Kivy's own test
            # touches (kivy.tests) would import pytest (~4 MB) into the measured process.
            x, y = button.to_window(*button.center)
            Window.dispatch("on_mouse_down", x, Window.height - y, "left", {})
            yield 0.03
            Window.dispatch("on_mouse_up", x, Window.height - y, "left", {})
            yield 0.3  # the ScrollView passes the tap on 0.2 s after release
        marks["taps_per_s"] = taps / (time.perf_counter() - started)
        rss("after touches")
        started = time.perf_counter()
        for i in range(camera):
            cam.emit(Event(ROLL, {"die": "d6", "faces": [i % 6 + 1]}, None, time.time(), Source.CAMERA, 0.95))
        while len(app.session.events) < taps + camera:
            yield 0.02
        marks["camera_events_per_s"] = camera / (time.perf_counter() - started)
        yield 0.3
        rss("after camera")
        for screen in ("log", "results", "settings", "table"):
            app.go(screen)
            yield 0.5
            rss(screen)
        marks["events"] = len(app.session.events)
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
    taps = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    camera = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    from benchmarks._machine import describe

    xvfb = None
    env = dict(os.environ)
    tmp = Path(tempfile.mkdtemp(prefix="ui-bench-"))
    if not env.get("DISPLAY"):
        n = next(n for n in range(190, 290) if not Path(f"/tmp/.X{n}-lock").exists())
        xvfb = subprocess.Popen([shutil.which("Xvfb") or "Xvfb", f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"], stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        env["DISPLAY"] = f":{n}"
    env.update(KIVY_HOME=str(tmp / "kivy"), KIVY_NO_ARGS="1", UI_BENCH_T0=repr(time.time()))
    try:
        proc = subprocess.Popen(
            [sys.executable, __file__, "--child", str(tmp / "out"), str(taps), str(camera)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
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
    print(f"played: {marks['events']} events ({taps} touches at {marks['taps_per_s']:.1f}/s, "
          f"{camera} camera readings at {marks['camera_events_per_s']:.0f}/s), then Log, Results, Settings")
    print("resident memory by phase (MB): " + ", ".join(f"{k} {v}" for k, v in marks["phases"].items()))
    print(f"resident memory in play: peak {max(play) / 1024:.0f} MB, median {sorted(play)[len(play) // 2] / 1024:.0f} MB")
    print(f"  of the peak: anonymous {peak.get('RssAnon', 0) / 1024:.0f} MB, file-backed {peak.get('RssFile', 0) / 1024:.0f} MB "
          "(mostly the GL driver's shared libraries)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        sys.exit(0)
    sys.exit(main())
