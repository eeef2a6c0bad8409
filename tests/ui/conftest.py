"""Real Kivy windows for the UI tests.

Kivy allows one window per process, so each scenario runs the real app in its
own subprocess (``python -m tests.ui.driver``).  With no ``DISPLAY`` (CI, a
headless Pi) an Xvfb server is started for the test session, so plain
``pytest`` works anywhere Xvfb is installed.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "screenshots"


def _free_display() -> int:
    for n in range(90, 190):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            return n
    raise RuntimeError("no free X display number between :90 and :189")


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("no DISPLAY and Xvfb is not installed (apt install xvfb)")
    for _ in range(5):
        n = _free_display()
        proc = subprocess.Popen(
            [xvfb, f":{n}", "-screen", "0", "1280x1280x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(50):
            if Path(f"/tmp/.X11-unix/X{n}").exists() or proc.poll() is not None:
                break
            time.sleep(0.1)
        if proc.poll() is None:
            break
    else:
        pytest.fail("Xvfb would not start")
    try:
        yield f":{n}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def kivy_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("kivy-home")


class Scenarios:
    """Runs ``tests.ui.driver`` scenarios against one data directory."""

    def __init__(self, display: str, kivy_home: Path, tmp: Path) -> None:
        self.display = display
        self.kivy_home = kivy_home
        self.tmp = tmp
        self.data_dir = tmp / "data"
        self.config_dir = tmp / "config"  # board checks and calibration profiles land here, never in ~/.config

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "DISPLAY": self.display,
            "KIVY_HOME": str(self.kivy_home),
            "KIVY_NO_ARGS": "1",
            "KIVY_NO_CONSOLELOG": "1",
            "KIVY_NO_FILELOG": "1",
            "BELLWETHER_DATA_DIR": str(self.data_dir),
            "BELLWETHER_CONFIG_DIR": str(self.config_dir),
            # Settings' Shut down runs this, never the real poweroff, whatever a scenario touches.
            "BELLWETHER_SHUTDOWN_COMMAND": "sh -c 'echo The tests never power the machine off. >&2; exit 1'",
        }

    def command(self, name: str, size: str, out: Path, *extra: str) -> list[str]:
        return [
            sys.executable, "-m", "tests.ui.driver", name,
            "--size", size, "--data-dir", str(self.data_dir), "--out", str(out), "--shots", str(SHOTS), *extra,
        ]  # fmt: skip

    def run(self, name: str, *extra: str, size: str = "800x480", timeout: float = 90) -> dict[str, Any]:
        out = self.tmp / f"{name}-{size}-{time.monotonic_ns()}.json"
        proc = subprocess.run(
            self.command(name, size, out, *extra), cwd=ROOT, env=self.env(), capture_output=True, text=True, timeout=timeout
        )
        if not out.exists():
            pytest.fail(f"scenario {name} wrote no result (exit {proc.returncode}):\n{proc.stderr[-4000:]}")
        result = json.loads(out.read_text())
        if result.get("error"):
            pytest.fail(f"scenario {name} failed:\n{result['error']}\n{proc.stderr[-2000:]}")
        return result

    def start(self, name: str, *extra: str, size: str = "800x480", timeout: float = 60) -> tuple[subprocess.Popen[str], dict[str, Any]]:
        """Start a scenario that keeps the app running; wait for its result file."""
        out = self.tmp / f"{name}-{size}-{time.monotonic_ns()}.json"
        proc = subprocess.Popen(
            self.command(name, size, out, "--hold", *extra), cwd=ROOT, env=self.env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        deadline = time.monotonic() + timeout
        while not out.exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"scenario {name} ended or hung before its result:\n{proc.stderr.read()[-4000:] if proc.stderr else ''}")
            time.sleep(0.1)
        time.sleep(0.05)  # the result is written with a rename; a short pause costs nothing
        result = json.loads(out.read_text())
        if result.get("error"):
            proc.kill()
            pytest.fail(f"scenario {name} failed:\n{result['error']}")
        return proc, result

    @staticmethod
    def kill(proc: subprocess.Popen[str]) -> None:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@pytest.fixture
def scenarios(display: str, kivy_home: Path, tmp_path: Path) -> Scenarios:
    return Scenarios(display, kivy_home, tmp_path)
