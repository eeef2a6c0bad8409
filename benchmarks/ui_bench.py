"""Start-up time and resident memory of the touchscreen app, in a real window.

    .venv/bin/python benchmarks/ui_bench.py [--game fleeced] [--taps 60] [--camera 300] [--runs 3]
                                            [--size 800x480] [--warm-cache] [--diagnose DIR]

The app runs in a child process (a real Kivy window; under Xvfb when there is
no DISPLAY) and plays a scripted game (Fleeced! with four players by default):
each step a mouse click, through the window's own mouse provider, on what the
Table offers and shows (a die face when dice are asked for, else one of the
offered answers, chosen by a seeded random generator; a move the game takes on
its picture instead, such as a Shear Panic sheep and direction, is submitted
as the touch it would be, from the legal moves), then a burst of camera
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
Each run is a new process; the figures of every run are printed, and the
worst peak is the one to quote.  Each run starts with an empty Mesa shader
cache of its own (a first start on a new machine: LLVM compiles every shader,
3-5 MB more resident than a run that finds them cached); ``--warm-cache``
uses the one in ~/.cache as it is.  At the end the Table is drawn 30 times,
each to the last pixel, and the median time is printed (ui/llvmpipe.py trades
some of it for memory).

``--diagnose DIR`` writes, per phase, the child's /proc smaps (who holds the
resident pages), its widgets per screen, the label textures' bytes, the fonts
SDL2_ttf holds open, glibc's malloc totals and the Python modules imported
since the last phase: what was used to find where the memory goes.
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
import traceback
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def child(out: str, game: str, taps: int, camera: int, diagnose: str) -> None:
    t0 = float(os.environ["UI_BENCH_T0"])
    # UI_BENCH_TRACE=1: also the Python heap per phase (slower), to tell Python's
    # share of the memory from the GL driver's.
    tracing = os.environ.get("UI_BENCH_TRACE") == "1"
    if tracing:
        tracemalloc.start()
    from ui.app import configure_kivy, parse_size

    configure_kivy(parse_size(os.environ.get("UI_BENCH_SIZE")), False)
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion import testing
    from companion.events import ROLL, Event, Source, thaw
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

    seen_modules: set[str] = set(sys.modules)

    def rss(phase: str) -> None:
        phases[phase] = _status(os.getpid()).get("VmRSS", 0) // 1024
        if diagnose:
            _diagnose(Path(diagnose, phase.replace(" ", "-")), app, seen_modules)
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

        buttons = [b for b in reversed(table.ids.entry.children) if b.text != "Clear" and shown(b) and hasattr(b, "action")]
        if not buttons:
            return None

        def kind(*kinds: str) -> list[Any]:
            return [b for b in buttons if b.action[0] in kinds]

        if kind("face"):
            return kind("face")[i % len(kind("face"))]
        if kind("digit"):  # the number pad (a hideout card): one digit, then Enter
            return kind("pad-enter")[0] if table.typed else next(b for b in kind("digit") if b.action[1] == 1)
        if kind("count"):  # counts by kind (the final tally): + on the first until they add up, then Done
            request = next(b.action[1] for b in kind("counts-done"))
            if request.total is not None and sum(table.counts.values()) < request.total:
                return kind("count")[1]
            return kind("counts-done")[0]
        answers = kind("choice", "group")  # a group opens, its member is the next tap
        return answers[chooser.randrange(len(answers))] if answers else None

    def script() -> Iterator[float]:
        while app.first_frame_at is None:
            yield 0.02
        marks["first_frame_since_launch"] = time.time() - t0
        marks["first_frame_since_run"] = app.first_frame_at - app.started_at
        print("READY", flush=True)
        yield 0.5
        rss("home")
        app.new_game(game, {"players": [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")]})
        yield 1.0
        rss("table shown")
        table = app.root.get_screen("table")
        started = time.perf_counter()
        tapped = 0
        on_picture = 0
        for i in range(taps):
            if app.session.outcome() is not None:
                break
            button = answer(table, i)
            if button is not None:
                yield from tap(button)
                tapped += 1
                continue
            # Nothing to tap in the list: the game takes this move on its picture
            # (a sheep and a direction, a place on the field). The move a finger
            # there would make is submitted as that touch, so the picture redraws
            # as in play.
            legal = [e for e in app.session.game.legal_actions(app.session.state) if e.type != ROLL]
            if not legal:
                break
            move = legal[chooser.randrange(len(legal))]
            app.submit(Event(move.type, thaw(move.payload), move.player, time.time(), Source.TOUCH))
            on_picture += 1
            yield 0.33
        marks["taps"] = tapped
        marks["on_picture"] = on_picture
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
        yield 0.5
        marks["frame_ms"] = _frame_times(30)
        marks["events"] = len(app.session.events)
        marks["gc_ms"] = sorted(app.collect_ms)
        marks["phases"] = phases
        print("DONE " + json.dumps(marks), flush=True)
        app.stop()

    steps = script()

    def step(_dt: float) -> None:
        try:
            Clock.schedule_once(step, next(steps))
        except StopIteration:  # the script has ended
            pass
        except Exception:  # said to the parent (the child's stderr is not kept), then the app ends
            print("ERROR " + json.dumps(traceback.format_exc()), flush=True)
            app.stop()

    Clock.schedule_once(step, 0)
    app.run()


def _frame_times(count: int) -> list[float]:
    """Milliseconds to draw the whole window and have the renderer finish it, ``count`` times."""
    from kivy.core.window import Window
    from kivy.graphics import opengl as gl

    times = []
    for _ in range(count):
        started = time.perf_counter()
        Window.canvas.ask_update()
        Window.dispatch("on_draw")
        Window.flip()
        gl.glFinish()
        times.append((time.perf_counter() - started) * 1000)
    return sorted(times)


def _diagnose(base: Path, app: Any, seen_modules: set[str]) -> None:
    """What holds the memory at this phase (``--diagnose``); see the module docstring."""
    import collections
    import ctypes

    from kivy.uix.widget import Widget

    base.with_suffix(".smaps").write_text(Path("/proc/self/smaps").read_text())
    lines = []
    widgets: collections.Counter[str] = collections.Counter()
    texture_bytes: collections.Counter[str] = collections.Counter()
    texture_count: collections.Counter[str] = collections.Counter()  # llvmpipe: ~45 kB each besides the pixels
    biggest: list[tuple[int, str, str, Any, str]] = []
    for screen in app.root.screens:
        for w in screen.walk():
            if isinstance(w, Widget):
                widgets[f"{screen.name}/{type(w).__name__}"] += 1
            t = getattr(w, "texture", None)
            if t is not None:
                texture_bytes[screen.name] += t.width * t.height * 4
                texture_count[screen.name] += 1
                text = str(getattr(w, "text", ""))[:40]
                biggest.append((t.width * t.height * 4, screen.name, type(w).__name__, t.size, text))
    lines.append(f"widgets: {dict(widgets.most_common())}")
    lines.append(f"label texture bytes by screen: {dict(texture_bytes)}, textures {dict(texture_count)}")
    lines += ["  largest: " + repr(b) for b in sorted(biggest, reverse=True)[:10]]
    fonts: collections.Counter[str] = collections.Counter()
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # the listing's own descriptor is gone by now
            target = os.readlink(f"/proc/self/fd/{fd}")
            if target.endswith((".ttf", ".otf")):
                fonts[os.path.basename(target)] += 1
    lines.append(f"fonts open (one per file and size): {sum(fonts.values())} {dict(fonts)}")

    class MallInfo2(ctypes.Structure):
        _FIELDS = "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost"
        _fields_ = [(n, ctypes.c_size_t) for n in _FIELDS.split()]

    with contextlib.suppress(OSError, AttributeError):  # glibc only
        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = MallInfo2
        mi = libc.mallinfo2()
        mb = 1024 * 1024
        lines.append(
            f"malloc: heap {mi.arena / mb:.1f} MB, in use {mi.uordblks / mb:.1f} MB, "
            f"free in heap {mi.fordblks / mb:.1f} MB, own mappings {mi.hblkhd / mb:.1f} MB"
        )
    if tracemalloc.is_tracing():  # UI_BENCH_TRACE=1: where the Python heap is, by file
        top = tracemalloc.take_snapshot().statistics("filename")[:40]
        lines += ["python heap by file (kB):"] + [f"  {s.size // 1024:7d} {s.traceback[0].filename}" for s in top]
    now = set(sys.modules)
    lines.append(f"modules imported since the last phase: {sorted(now - seen_modules)}")
    seen_modules |= now
    base.with_suffix(".txt").write_text("\n".join(lines) + "\n")


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


def run_once(
    game: str, taps: int, camera: int, diagnose: str, size: str, warm_cache: bool = False
) -> tuple[dict[str, Any], list[int], dict[str, int]]:
    """One child process: its marks, its resident memory samples in play (kB), and its peaks per kind."""
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
    env.update(KIVY_HOME=str(tmp / "kivy"), KIVY_NO_ARGS="1", UI_BENCH_T0=repr(time.time()), UI_BENCH_SIZE=size)
    if not warm_cache:
        # Mesa keeps compiled shaders on disk: a run that finds them skips compiling,
        # and LLVM's code is then never paged in (3-5 MB less resident).  An empty
        # cache is a first start on a new machine, the worst case, and the same on
        # every machine.
        env["MESA_SHADER_CACHE_DIR"] = str(tmp / "mesa-shader-cache")
    peak: dict[str, int] = {}
    play: list[int] = []
    try:
        proc = subprocess.Popen(
            [sys.executable, __file__, "--child", str(tmp / "out"), game, str(taps), str(camera), diagnose],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)  # type: ignore[arg-type]
        reader.start()
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
    marks: dict[str, Any] = {}
    for line in lines:
        if line.startswith("DONE "):
            marks = json.loads(line[5:])
        elif line.startswith("ERROR "):
            print("the scripted game failed:\n" + json.loads(line[6:]), file=sys.stderr)
    return marks, play, peak


def main() -> int:
    parser = argparse.ArgumentParser(description="Start-up time and resident memory of the app in a real window.")
    parser.add_argument(
        "--game", default="fleeced", help="the game played (default fleeced; tally = the core's test game)",
        type=lambda name: name.replace("_", "-"),  # pendleton_hill as well as pendleton-hill (the registry's name)
    )
    parser.add_argument("--taps", type=int, default=60, help="touches on the Table's answers (default 60)")
    parser.add_argument(
        "--camera", type=int, default=300, help="camera readings sent through the sensor queue (default 300)"
    )
    parser.add_argument("--runs", type=int, default=3, help="separate app processes measured (default 3)")
    parser.add_argument("--diagnose", default="", metavar="DIR", help="write what holds the memory, per phase, here")
    parser.add_argument("--size", default="800x480", help="the window, WIDTHxHEIGHT (default 800x480, the Pi display)")
    parser.add_argument(
        "--warm-cache",
        action="store_true",
        help="use Mesa's shader cache in ~/.cache as it is (default: an empty one per run, as on a first start)",
    )
    args = parser.parse_args()
    from benchmarks._machine import describe

    if args.diagnose:
        Path(args.diagnose).mkdir(parents=True, exist_ok=True)
        args.diagnose = str(Path(args.diagnose).resolve())
    print(f"machine: {describe()} (shared; load {os.getloadavg()[0]:.1f})")
    cache = "as found in ~/.cache (--warm-cache)" if args.warm_cache else "empty at each run (a first start)"
    print(f"Mesa shader cache: {cache}")
    peaks, medians = [], []
    for run in range(1, args.runs + 1):
        marks, play, peak = run_once(args.game, args.taps, args.camera, args.diagnose, args.size, args.warm_cache)
        if not marks:
            print("the scripted game did not finish", file=sys.stderr)
            return 1
        peaks.append(max(play) / 1024)
        medians.append(sorted(play)[len(play) // 2] / 1024)
        print(f"run {run}:")
        print(f"  start-up, launch to first frame: {marks['first_frame_since_launch']:.2f} s")
        print(f"  start-up, App.run to first frame: {marks['first_frame_since_run']:.2f} s")
        print(
            f"  played {args.game}: {marks['events']} events ({marks['taps']} touches at {marks['taps_per_s']:.1f}/s"
            + (f", {marks['on_picture']} moves of the picture" if marks["on_picture"] else "")
            + ", "
            f"{args.camera} camera readings at {marks['camera_events_per_s']:.0f}/s), then Log, Results, Settings"
        )
        print("  resident memory by phase (MB): " + ", ".join(f"{k} {v}" for k, v in marks["phases"].items()))
        print(f"  resident memory in play: peak {peaks[-1]:.0f} MB, median {medians[-1]:.0f} MB")
        print(
            f"    of the peak: anonymous {peak.get('RssAnon', 0) / 1024:.0f} MB, "
            f"file-backed {peak.get('RssFile', 0) / 1024:.0f} MB (mostly the GL driver's shared libraries)"
        )
        frame_ms = marks["frame_ms"]
        print(
            f"  the Table drawn {len(frame_ms)} times (the whole window, to the last pixel): "
            f"median {frame_ms[len(frame_ms) // 2]:.1f} ms, longest {frame_ms[-1]:.1f} ms"
        )
        gc_ms = marks["gc_ms"]
        if gc_ms:
            print(
                f"  garbage collections on the UI thread: {len(gc_ms)}, median {gc_ms[len(gc_ms) // 2]:.1f} ms, "
                f"longest {gc_ms[-1]:.1f} ms"
            )
    print(
        f"resident memory in play over {args.runs} run(s): worst peak {max(peaks):.0f} MB, "
        f"medians {min(medians):.0f}-{max(medians):.0f} MB (target: under 150 MB)"
    )
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
        sys.exit(0)
    sys.exit(main())
