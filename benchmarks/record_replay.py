"""Replaying and validating a long game record: events per second and peak memory.

Each command runs as its own process (the real ``bellwether replay`` and
``bellwether validate``), so its peak resident memory is its own
(``os.wait4``'s rusage).  Two lengths show whether memory grows with the
record: it must not (target: flat memory, >= 50,000 events/s).

    .venv/bin/python benchmarks/record_replay.py [--events 200000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _machine import describe

ROOT = Path(__file__).resolve().parent.parent
WITH_TALLY = (
    "import sys; from companion.testing import register; register(); from cli.main import main; sys.exit(main())"
)


def write_record(path: Path, events: int) -> None:
    """A Tally game that never ends: one camera roll per line, like a long evening's log."""
    header = {
        "format": "bellwether-record",
        "version": 1,
        "game": "tally",
        "setup": {"players": [{"name": "Ann"}, {"name": "Bob"}], "options": {"target": 10**12}},
    }
    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps(header) + "\n")
        for i in range(events):
            roll = {"die": "d6", "faces": [i % 6 + 1]}
            f.write(json.dumps({"type": "roll", "payload": roll, "time": float(i), "source": "camera", "confidence": 0.9}))
            f.write("\n")


def run(command: str, path: Path) -> tuple[float, float, int]:
    """(wall s, CPU s, peak RSS KiB) of one ``bellwether`` command in its own process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", WITH_TALLY, command, str(path)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{command} failed with status {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=200_000)
    args = ap.parse_args()
    print(f"machine: {describe()}")
    with tempfile.TemporaryDirectory() as d:
        for n in (args.events // 4, args.events):
            path = Path(d) / f"long-{n}.jsonl"
            write_record(path, n)
            size = path.stat().st_size / 2**20
            for command in ("replay", "validate"):
                wall, cpu, rss = run(command, path)
                print(
                    f"{command} {n:,} events ({size:.1f} MiB): {n / cpu:,.0f} events/s (CPU, start-up included), "
                    f"{n / wall:,.0f} events/s (wall), peak RSS {rss / 1024:.1f} MiB"
                )


if __name__ == "__main__":
    main()
