"""Fault injection on a real file system: full disks, read-only folders, broken files.

A full disk is a small tmpfs mounted for the test (CI and the development
machine run as root, which may mount); a read-only folder is a read-only bind
mount of a real folder, since root ignores permission bits.  Where the
machine refuses both (not root, no mount namespace), the test is skipped with
that reason, never passed without the fault.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.testing import register

ROOT = Path(__file__).resolve().parents[2]
# The core's test game is registered in the child, then the real CLI runs.
WITH_TALLY = (
    "import sys; from companion.testing import register; register(); from cli.main import main; sys.exit(main())"
)


@pytest.fixture(autouse=True)
def tally() -> None:
    register()


def unprivileged() -> list[str]:
    """A command prefix under which file permission bits apply, even to root.

    Root overrides mode bits through two capabilities; dropping them from the
    bounding set (util-linux ``setpriv``) makes an unreadable file unreadable.
    """
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: permission bits cannot be made to apply")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]


def bellwether(*args: str, timeout: float = 60, as_user: bool = False, **kw) -> subprocess.CompletedProcess[str]:
    """The real command in a subprocess (with the core's test game registered).

    ``as_user``: without root's power over permission bits (see ``unprivileged``).
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT), **kw.pop("env", {})}
    kw.setdefault("capture_output", True)
    kw.setdefault("cwd", ROOT)
    prefix = unprivileged() if as_user else []
    return subprocess.run([*prefix, sys.executable, "-c", WITH_TALLY, *args], text=True, env=env, timeout=timeout, **kw)


def assert_one_clear_line(r: subprocess.CompletedProcess[str], *named: str, status: int = 1) -> None:
    """The user-facing contract of a refusal: the status, at most three lines, no traceback, the culprit named."""
    assert r.returncode == status, (r.returncode, r.stdout[-500:], r.stderr[-2000:])
    lines = r.stderr.strip().splitlines()
    assert 1 <= len(lines) <= 3, r.stderr[-2000:]
    assert "Traceback" not in r.stderr and "Error:" not in r.stderr.split("bellwether:", 1)[0], r.stderr
    for name in named:
        assert name in r.stderr, (name, r.stderr)


def _mount(*args: str) -> str | None:
    """Run mount; None when it worked, else why not."""
    try:
        r = subprocess.run(["mount", *args], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    return None if r.returncode == 0 else (r.stderr.strip() or f"mount exited {r.returncode}")


def _umount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True, timeout=20)


@contextlib.contextmanager
def small_disk(path: Path, size: str = "256k") -> Iterator[Path]:
    """A real, small file system at ``path`` (tmpfs of ``size``) that fills up for real."""
    path.mkdir(parents=True, exist_ok=True)
    why = _mount("-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(path))
    if why:
        pytest.skip(f"cannot mount a small tmpfs here to fill a disk ({why})")
    try:
        yield path
    finally:
        _umount(path)


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[Path]:
    """Make the folder ``path`` read-only for real (a read-only bind mount: root ignores mode bits)."""
    why = _mount("--bind", str(path), str(path))
    if why:
        pytest.skip(f"cannot bind-mount a folder read-only here ({why})")
    try:
        why = _mount("-o", "remount,ro,bind", str(path))
        if why:
            pytest.skip(f"cannot remount a bind mount read-only here ({why})")
        probe = path / ".probe"
        with contextlib.suppress(OSError):
            probe.touch()
            probe.unlink()
            pytest.skip("the read-only bind mount still accepted a write")
        yield path
    finally:
        _umount(path)


def fill(disk: Path) -> None:
    """Fill the file system at ``disk`` to the last byte."""
    block = b"\0" * 4096
    with contextlib.suppress(OSError), open(disk / "ballast", "ab") as f:
        while True:
            f.write(block)
            f.flush()
    with contextlib.suppress(OSError), open(disk / "ballast-tail", "ab", buffering=0) as f:
        while True:
            f.write(b"\0")


def free(disk: Path) -> None:
    for name in ("ballast", "ballast-tail"):
        with contextlib.suppress(FileNotFoundError):
            (disk / name).unlink()
