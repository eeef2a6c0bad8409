"""Kill a writer with SIGKILL at random moments; the store must keep every
acknowledged entry, invent none, and stay intact."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.session import Session
from companion.store import Store

from .crash_child import op

KILLS = int(os.environ.get("BELLWETHER_CRASH_KILLS", "200"))
CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).resolve().parents[2]


def expected_after(n_ops: int) -> Session:
    s = Session.new(None, "tally", {"players": ["Ann", "Bob", "Cy"]})
    for k in range(n_ops):
        op(s, k)
    return s


@pytest.mark.slow
def test_sigkill_loses_no_acknowledged_entry_and_adds_none(db_path: Path) -> None:
    rng = random.Random(20261129)
    with Store(db_path) as store:
        sid = Session.new(store, "tally", {"players": ["Ann", "Bob", "Cy"]}).id
    acked = 0
    for kill in range(KILLS):
        child = subprocess.Popen(
            [sys.executable, str(CHILD), str(db_path), str(sid)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.03))  # somewhere in the middle of a write, sometimes
        child.send_signal(signal.SIGKILL)
        out = child.communicate()[0].split()
        child.wait()
        acks = [int(out[i + 1]) for i, w in enumerate(out[:-1]) if w == "ack"]
        if acks:
            acked = acks[-1] + 1

        with Store(db_path) as store:
            assert store.notice is None, store.notice
            assert store.integrity_check() == "ok"
            session = Session.resume(store, sid)
        stored = len(session.log)
        # Every acknowledged op is there; at most the one in flight was also committed.
        assert acked <= stored <= acked + 1, f"kill {kill}: {acked} acknowledged, {stored} stored"
        assert session.state == expected_after(stored).state
        acked = stored
    assert acked > KILLS  # the children really wrote between kills
