"""The app under Xvfb with each kind of broken profile stays up on the defaults and names the file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.conftest import ROOT, SHOTS, display, kivy_home  # noqa: F401  (the shared Xvfb fixtures)


def _run(
    display: str,  # noqa: F811
    kivy_home: Path,  # noqa: F811
    tmp: Path,
    config: Path,
    scenario: str = "broken_profiles",
    data: Path | None = None,
    env: dict[str, str] | None = None,
) -> dict:
    out = tmp / "result.json"
    data = data or tmp / "data"
    env = {
        **os.environ,
        "DISPLAY": display,
        "KIVY_HOME": str(kivy_home),
        "BELLWETHER_DATA_DIR": str(data),
        "BELLWETHER_CONFIG_DIR": str(config),
        **(env or {}),
    }
    env.pop("BELLWETHER_AUDIO_BACKEND", None)
    env.pop("BELLWETHER_CAMERA_BACKEND", None)
    cmd = [sys.executable, "-m", "tests.faults.app_driver", scenario, "--size", "800x480",
           "--data-dir", str(data), "--out", str(out), "--shots", str(SHOTS)]  # fmt: skip
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    if not out.exists():
        pytest.fail(f"the app wrote no result (exit {proc.returncode}):\n{proc.stderr[-4000:]}")
    result = json.loads(out.read_text())
    if result.get("error"):
        pytest.fail(f"the scenario failed:\n{result['error']}\n{proc.stderr[-2000:]}")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    return result


def test_broken_camera_whistle_and_button_profiles(display: str, kivy_home: Path, tmp_path: Path) -> None:  # noqa: F811
    config = tmp_path / "config"
    config.mkdir()
    (config / "camera.toml").mkdir()  # a folder where the file should be
    (config / "whistle.toml").write_text("version = 1\n[detecter]\nband_hz = [1000.0, 4000.0]\n")  # a typo'd table
    (config / "buttons.toml").symlink_to(tmp_path / "gone.toml")  # a dangling link
    (config / "settings.toml").write_text('[microphone]\nbackend = "memory"\n')  # a microphone that needs no device
    r = _run(display, kivy_home, tmp_path, config)
    ignored = r["ignored"]
    assert set(ignored) == {str(config / n) for n in ("camera.toml", "whistle.toml", "buttons.toml")}, ignored
    assert "Is a directory" in ignored[str(config / "camera.toml")]
    assert "detecter" in ignored[str(config / "whistle.toml")]
    assert "missing file" in ignored[str(config / "buttons.toml")]
    assert r["statuses"]["microphone"][0], r["statuses"]  # the whistle detector runs on its defaults
    assert r["screen"] == "home" and "Ignored" in r["message"] and "Ignored" in r["summary"]
    assert any("Ignored" in t for t in r["home_texts"]), r["home_texts"]


def test_out_of_range_settings_and_camera_values(display: str, kivy_home: Path, tmp_path: Path) -> None:  # noqa: F811
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.toml").write_text('[microphone]\nbackend = "memory"\nblock_ms = nan\n')
    (config / "camera.toml").write_text(
        "version = 1\n[camera]\nwidth = 640\nheight = 480\n[tray]\nregion = [600, 0, 100, 100]\n"
    )
    r = _run(display, kivy_home, tmp_path, config)
    ignored = r["ignored"]
    assert "microphone.block_ms" in ignored[str(config / "settings.toml")]
    assert (
        "tray.region" in ignored[str(config / "camera.toml")]
        and "inside the 640x480 frame" in ignored[str(config / "camera.toml")]
    )
    assert r["screen"] == "home" and "settings.toml" in r["summary"] and "camera.toml" in r["summary"]


def _bellwether_run(display: str, kivy_home: Path, *args: str, env: dict[str, str]) -> subprocess.Popen[str]:  # noqa: F811
    full = {**os.environ, "DISPLAY": display, "KIVY_HOME": str(kivy_home), "PYTHONPATH": str(ROOT), **env}
    for name in ("BELLWETHER_AUDIO_BACKEND", "BELLWETHER_CAMERA_BACKEND"):
        full.pop(name, None)
    return subprocess.Popen(
        [sys.executable, "-m", "cli", *args, "run", "--size", "800x480"],
        cwd=ROOT, env=full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_config_dir_reaches_the_app(display: str, kivy_home: Path, tmp_path: Path) -> None:  # noqa: F811
    chosen, default = tmp_path / "chosen", tmp_path / "default"
    for folder in (chosen, default):
        folder.mkdir()
    (chosen / "camera.toml").mkdir()  # only the chosen folder's broken profile can be reported
    env = {"BELLWETHER_CONFIG_DIR": str(default), "BELLWETHER_DATA_DIR": str(tmp_path / "data")}
    proc = _bellwether_run(display, kivy_home, "--config-dir", str(chosen), env=env)
    try:
        seen = []
        assert proc.stderr is not None
        for line in proc.stderr:
            seen.append(line)
            if "ignored" in line and "camera.toml" in line:
                break
        else:
            pytest.fail("the app never read the camera profile of --config-dir:\n" + "".join(seen[-30:]))
        assert str(chosen / "camera.toml") in seen[-1]
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_the_app_on_a_read_only_data_folder_ends_with_one_line(display: str, kivy_home: Path, tmp_path: Path) -> None:  # noqa: F811
    from .conftest import read_only

    data = tmp_path / "data"
    data.mkdir()
    with read_only(data):
        proc = _bellwether_run(display, kivy_home, "--data-dir", str(data / "games"), env={})
        try:
            _, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
    lines = [ln for ln in err.splitlines() if not ln.startswith(("INFO", "WARNING"))]
    assert proc.returncode == 1 and lines == [
        f"bellwether: cannot open the game database {data}/games/bellwether.db: {data}/games: Read-only file system"
    ], err[-3000:]
    assert "Traceback" not in err


def test_a_disk_that_fills_up_during_play(display: str, kivy_home: Path, tmp_path: Path) -> None:  # noqa: F811
    from companion import records

    from .conftest import bellwether, small_disk

    with small_disk(tmp_path / "disk", size="1m") as disk:
        data = disk / "data"
        r = _run(
            display, kivy_home, tmp_path, tmp_path / "config", "full_disk_in_play", data, {"FAULTS_DISK": str(disk)}
        )
        assert r["before"]["events"] == 1
        assert r["full"]["events"] == 1 and "the disk is full" in r["full"]["message"], r["full"]
        assert r["full"]["prompt"].startswith("Bob")  # the refused roll did not move the game
        assert r["undo_full"]["events"] == 1 and "the disk is full" in r["undo_full"]["message"]
        assert r["after"]["events"] == 2 and r["after"]["message"] == "" and r["after"]["screen"] == "table"
        out = bellwether("--data-dir", str(data), "export", str(r["session_id"]))
        assert out.returncode == 0, out.stderr
        assert [e.get("faces") for e in records.loads(out.stdout).events] == [(4,), (6,)]  # every acknowledged roll
