"""Plays out and dice statistics over a season of stored games: CPU time to
count every die (what the History screen does when opened) and to render each
export format, and the size of the files.

    .venv/bin/python benchmarks/plays_bench.py [--copies 6]

``--copies`` stores that many copies of a finished game of each of the five
games (tests/fixtures), 30 games by default: a club's season.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from _machine import describe

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.plays import export  # noqa: E402
from companion.plays.dicestats import stored_rolls, tally  # noqa: E402
from companion.store import Store  # noqa: E402
from tests.plays.conftest import FINISHED, play  # noqa: E402


def timed(f):  # -> (result, cpu seconds)
    c0 = time.process_time()
    out = f()
    return out, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=6)
    args = ap.parse_args()
    print(f"machine: {describe()}")
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bellwether.db")
        store.db.execute("PRAGMA synchronous=OFF")  # building the season only; reads are what is measured
        for _ in range(args.copies):
            for fixture in FINISHED.values():
                play(store, fixture)
        games = len(store.sessions())
        print(f"stored games: {games}")
        (rolls, stats), cpu = timed(lambda: (lambda r: (r, tally(r)))(stored_rolls(store)))
        print(f"dice statistics (History screen): {cpu:.2f} s CPU for {len(rolls)} rolls, {len(stats)} charts")
        for name in export.FORMATS:
            (text, count), cpu = timed(lambda name=name: export.render(store, name))
            print(f"export {name:8s}: {cpu:.2f} s CPU, {count} plays, {len(text.encode()) / 1024:.0f} KiB")
        store.close()


if __name__ == "__main__":
    main()
