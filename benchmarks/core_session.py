"""Core session figures: events applied per second (in memory, and stored in
SQLite with one fsynced transaction each) and the time to reopen a stored
session of 10,000 events.

    .venv/bin/python benchmarks/core_session.py [--events 10000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _machine import describe

from companion.events import Event
from companion.session import Session
from companion.store import Store
from companion.testing import register

SETUP = {"players": ["Ann", "Bob", "Cy", "Di"]}


def rolls(n: int) -> list[Event]:
    return [Event("roll", {"die": "d6", "faces": [i % 6 + 1]}, time=float(i), source="camera", confidence=0.95) for i in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=10_000)
    args = ap.parse_args()
    register()
    events = rolls(args.events)
    print(f"machine: {describe()}")

    s = Session.new(None, "tally", SETUP)
    t0, c0 = time.perf_counter(), time.process_time()
    for e in events:
        s.apply(e)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"in memory: {len(events) / cpu:,.0f} events/s (CPU), {len(events) / wall:,.0f} events/s (wall)")

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "bench.db"
        with Store(path) as store:
            s = Session.new(store, "tally", SETUP)
            t0, c0 = time.perf_counter(), time.process_time()
            for e in events:
                s.apply(e)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            sid = s.id
        print(
            f"stored (WAL, synchronous=FULL, one transaction each): {len(events) / wall:,.0f} events/s (wall, "
            f"includes fsync), {len(events) / cpu:,.0f} events/s (CPU)"
        )
        for _ in range(3):
            t0, c0 = time.perf_counter(), time.process_time()
            with Store(path) as store:
                r = Session.resume(store, sid)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            assert len(r.events) == len(events)
        print(f"reopen a session of {len(events):,} events: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU")
        print(f"database size: {path.stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
