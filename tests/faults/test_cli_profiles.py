"""The commands that read profiles, in subprocesses: a broken profile is one line naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import assert_one_clear_line, bellwether

BROKEN = {
    "directory": None,
    "dangling-link": None,
    "typo'd table": "version = 1\n[detecter]\nband_hz = [1000.0, 4000.0]\n",
    "zero time constant": "version = 1\n[detector]\nnoise_rise_s = 0.0\n",
    "NaN": "version = 1\n[detector]\nmin_duration_s = nan\n",
}


def _break(path: Path, case: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    if case == "directory":
        path.mkdir()
        return "Is a directory"
    if case == "dangling-link":
        path.symlink_to(path.parent / "gone.toml")
        return "missing file"
    path.write_text(BROKEN[case])
    return "expected"


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_whistle_listen_with_a_broken_whistle_profile(tmp_path: Path, case: str) -> None:
    config = tmp_path / "cfg"
    reason = _break(config / "whistle.toml", case)
    r = bellwether(
        "--config-dir", str(config), "whistle", "listen", "--seconds", "0.5", env={"BELLWETHER_AUDIO_BACKEND": "memory"}
    )
    assert_one_clear_line(r, str(config / "whistle.toml"), reason)


@pytest.mark.parametrize("case", ["directory", "dangling-link", "bad value"])
def test_whistle_listen_with_broken_settings(tmp_path: Path, case: str) -> None:
    config = tmp_path / "cfg"
    if case == "bad value":
        config.mkdir()
        (config / "settings.toml").write_text("[microphone]\nblock_ms = inf\n")
        reason = "from 8 to 64"
    else:
        reason = _break(config / "settings.toml", case)
    r = bellwether("--config-dir", str(config), "whistle", "listen", "--seconds", "0.5")
    assert_one_clear_line(r, str(config / "settings.toml"), reason)


@pytest.mark.parametrize("case", ["directory", "negative kernel", "tray outside the frame"])
def test_dice_read_with_a_broken_camera_profile(tmp_path: Path, case: str) -> None:
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    image = tmp_path / "tray.png"
    cv2.imwrite(str(image), np.full((480, 640, 3), 200, np.uint8))
    config = tmp_path / "cfg"
    path = config / "camera.toml"
    if case == "directory":
        reason = _break(path, "directory")
    else:
        config.mkdir()
        body = "[pips]\nkernel = -3\n" if case == "negative kernel" else "[tray]\nregion = [600, 400, 100, 100]\n"
        path.write_text("version = 1\n" + body)
        reason = "pips.kernel" if case == "negative kernel" else "tray.region"
    r = bellwether("--config-dir", str(config), "dice", "read", str(image))
    assert_one_clear_line(r, str(path), reason)


def test_a_profile_error_shows_its_traceback_only_with_debug(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    _break(config / "whistle.toml", "directory")
    args = ("whistle", "listen", "--seconds", "0.5")
    env = {"BELLWETHER_AUDIO_BACKEND": "memory"}
    r = bellwether("--config-dir", str(config), *args, env=env)
    assert "Traceback" not in r.stderr
    r = bellwether("--debug", "--config-dir", str(config), *args, env=env)
    assert r.returncode == 1 and "Traceback" in r.stderr and r.stderr.strip().splitlines()[-1].startswith("bellwether:")
