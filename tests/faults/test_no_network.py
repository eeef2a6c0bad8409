"""The app opens no listening network socket (TCP or UDP, IPv4 or IPv6)."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest

from tests.ui.conftest import display, kivy_home  # noqa: F401  (the shared Xvfb fixtures)

from .test_app_profiles import _bellwether_run

LISTEN = "0A"  # TCP state LISTEN in /proc/net/tcp


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def _network_sockets(pid: int) -> list[str]:
    """The process's TCP sockets that listen and UDP sockets that are bound, as lines of /proc/net/*."""
    mine = _socket_inodes(pid)
    found = []
    for table in ("tcp", "tcp6", "udp", "udp6"):
        path = Path(f"/proc/{pid}/net/{table}")
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            inode, state = fields[9], fields[3]
            if inode in mine and (table.startswith("udp") or state == LISTEN):
                found.append(f"{table}: {line.strip()}")
    return found


def test_the_probe_sees_a_listening_socket() -> None:
    """The check below can fail: a socket this process listens on is found."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = f":{s.getsockname()[1]:04X} "
        assert any(line.startswith("tcp:") and port in line for line in _network_sockets(os.getpid()))
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        assert _network_sockets(os.getpid()) == []  # not listening: not counted


def test_the_running_app_listens_on_no_network_socket(display: str, kivy_home: Path, tmp_path: Path) -> None:  # noqa: F811
    if not Path("/proc/self/net/tcp").exists():
        pytest.skip("no /proc/net here to list sockets")
    env = {"BELLWETHER_CONFIG_DIR": str(tmp_path / "config"), "BELLWETHER_DATA_DIR": str(tmp_path / "data")}
    proc = _bellwether_run(display, kivy_home, env=env)
    try:
        # The sensors open in a thread after the first frame: look while the app runs, several times.
        seen: list[str] = []
        for _ in range(16):
            time.sleep(0.5)
            assert proc.poll() is None, "the app ended"
            seen += _network_sockets(proc.pid)
        assert _socket_inodes(proc.pid), "the app holds no socket at all: is it connected to the display?"
        assert seen == []
    finally:
        proc.kill()
        proc.wait(timeout=10)
