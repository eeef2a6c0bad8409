"""The deploy files start the real command, and ``bellwether run`` opens a real window."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_systemd_unit_and_autostart_entry_run_the_app_full_screen():
    unit = (ROOT / "deploy" / "bellwether.service").read_text()
    exec_start = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    assert exec_start == ["ExecStart=/home/pi/bellwether/.venv/bin/bellwether run --fullscreen"]
    assert "Restart=on-failure" in unit and "WantedBy=multi-user.target" in unit
    desktop = configparser.ConfigParser(interpolation=None)
    desktop.read_string((ROOT / "deploy" / "bellwether.desktop").read_text())
    entry = desktop["Desktop Entry"]
    assert entry["Type"] == "Application" and entry["Exec"].endswith("bellwether run --fullscreen")


@pytest.mark.ui
def test_bellwether_run_opens_a_window(display, kivy_home, tmp_path):
    """The real CLI, no devices: a window titled Bellwether appears at the asked size and stays up."""
    xwininfo = shutil.which("xwininfo")
    if xwininfo is None:
        pytest.skip("xwininfo (x11-utils) is needed to see the window from outside")
    env = {**os.environ, "DISPLAY": display, "KIVY_HOME": str(kivy_home), "BELLWETHER_DATA_DIR": str(tmp_path / "data")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "run", "--size", "800x480"], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        window = ""
        deadline = time.monotonic() + 20
        while not window and time.monotonic() < deadline and proc.poll() is None:
            tree = subprocess.run([xwininfo, "-root", "-tree"], env=env, capture_output=True, text=True).stdout
            window = next((line for line in tree.splitlines() if '"Bellwether"' in line), "")
            time.sleep(0.2)
        assert window, "no window titled Bellwether appeared"
        assert " 800x480+" in window
        time.sleep(1.0)
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    finally:
        proc.terminate()
        proc.wait(timeout=15)
