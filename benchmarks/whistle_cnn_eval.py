"""The cascade with the CNN verifier against the cascade with the MLP, every row held out.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/whistle_cnn_eval.py --seed 1 [--quick] [--steps N] [--only cnn|mlp]

The rows are ``whistle_eval.py``'s cascade table (the same sources, built by
its ``build_sources`` for the seed; ``USED``-style marks from its
``STAGE1_SAW``).  Each row is heard by a CNN trained *without* that row's
source (``whistle_eval.HELD_OUT``, and each ESC-10 fold for its own clips),
and, beside it, by the MLP verifier trained without it on exactly the same
candidates (``whistle_cnn_train.harvest`` records the raw patch and the 287
features of each).  Folds with the same held-out tags share one training.
Then the real-time factor of each cascade (64 ms blocks, one core, CPU time).
``WHISTLE_CNN_CANDIDATES=/tmp/c.pkl`` keeps the training candidates between
runs while developing.  Needs the ``train`` extra and ``../shared/data``.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import whistle_cnn_train as ct
import whistle_eval as we
import whistle_train as wt

from companion.config import save_bytes_atomic
from hardware.audio import RATE
from hardware.whistle.cascade import CascadeDetector
from hardware.whistle.cnn_verifier import CnnVerifier, tuning_path
from hardware.whistle.detector import detect


def fold_tags() -> dict[str, frozenset[str]]:
    """Each verifier fold's held-out tags: every row of the table, each ESC-10 fold."""
    return {f"esc{f}": frozenset({f"esc{f}"}) for f in range(1, 6)} | {k: frozenset(v) for k, v in we.HELD_OUT.items()}


def candidates(data: Path, seed: int, scale: float) -> tuple[wt.Examples, wt.Examples]:
    cache = os.environ.get("WHISTLE_CNN_CANDIDATES")
    if cache and Path(cache).exists():
        with open(cache, "rb") as f:
            return pickle.load(f)
    got = ct.harvest(wt.items(data, wt.SEED + seed, scale))
    if cache:
        save_bytes_atomic(cache, pickle.dumps(got))  # a run stopped mid-write leaves no half cache
    return got


class Folds:
    """One verifier per fold, trained when first asked for; folds leaving out the same tags share it.

    With ``supersets`` a fold may take a verifier already trained without a
    superset of its tags (still held out: it saw less), so a ``--rows`` run
    trains once for, e.g., the robot mix and ESC-10 folds 1-3.
    """

    def __init__(self, train: Callable[[frozenset[str]], Callable[[np.ndarray], float]], supersets: bool = False) -> None:
        self.train, self.supersets = train, supersets
        self.by_tags: dict[frozenset[str], Callable[[np.ndarray], float]] = {}

    def __getitem__(self, name: str) -> Callable[[np.ndarray], float]:
        tags = fold_tags()[name]
        if tags not in self.by_tags:
            wider = [v for t, v in self.by_tags.items() if self.supersets and t >= tags]
            self.by_tags[tags] = wider[0] if wider else self.train(tags)
        return self.by_tags[tags]


def cnn_folds(ex: wt.Examples, seed: int, steps: int, folder: Path, supersets: bool = False) -> Folds:
    def one(tags: frozenset[str]) -> CnnVerifier:
        return ct.fold(ex, tags, folder / f"{'_'.join(sorted(tags))}.onnx", seed, steps)

    return Folds(one, supersets)


class AtRate:
    """The same fold verifiers at the threshold of another share of training negatives (from their JSON)."""

    def __init__(self, folds: Folds, rate: float) -> None:
        self.folds, self.key = folds, ct.rate_key(rate)

    def __getitem__(self, name: str) -> CnnVerifier:
        v = self.folds[name]
        return CnnVerifier(v.path, threshold=json.loads(tuning_path(v.path).read_text())["threshold_at"][self.key])


def mlp_folds(ex: wt.Examples, seed: int, supersets: bool = False) -> Folds:
    def one(tags: frozenset[str]):
        t = time.process_time()
        part = ex.without(tags)
        ver = wt.train(part, seed, meta=f"held out {sorted(tags)}")
        print(f"   fold {','.join(sorted(tags)):<44} {len(part.y):>6} candidates, threshold {ver.threshold:.3f},"
              f" {time.process_time() - t:.0f} s")
        return ver

    return Folds(one, supersets)


def esc_folds(data: Path, folds: Sequence[int], make_for_fold: Callable[[int], CascadeDetector]) -> dict[str, object]:
    """ESC-10's clips of some folds, each heard by a cascade whose verifier never saw its fold (all five: we.esc_by_fold)."""
    alarms, seconds = 0, 0.0
    for r, x in we.load_real(data / "esc10-negatives", data / "esc10-negatives" / "manifest.csv",
                             lambda r: we.esc_fold(r) in folds):
        alarms += len(detect(x, make_for_fold(we.esc_fold(r)), we.BLOCK))
        seconds += len(x) / RATE
    return {"recall": None, "precision": 0.0 if alarms else None, "false_alarms_per_hour": round(alarms / seconds * 3600, 2),
            "false_alarms": alarms, "latency_ms_p50": None, "latency_ms_p95": None}


def held_out_rows(title: str, sources: dict[str, we.Source], data: Path, hours: float, seed: int,
                  verifiers: Folds | AtRate, rows: Sequence[str] = (), esc: Sequence[int] = (1, 2, 3, 4, 5)) -> dict[str, dict[str, object]]:
    """Every row heard by the cascade whose verifier never saw that row's source (as whistle_eval's cascade table).

    ``rows``: only the rows whose name holds one of these (ESC-10 last, so its
    folds can take a verifier trained without more); ``esc``: its folds.
    """
    print(f"\n== {title}")
    print(f"   {we.TARGETS}")
    print("   used: held out = the verifier never saw it; held/s1 = held out, but the first stage's thresholds were "
          "chosen looking at this recipe (seed 0)")
    print(we.HEADER)
    every = we.with_table(sources, hours, seed)
    if rows:
        every = {k: v for k, v in every.items() if any(r in k for r in rows)}
        every = {k: every[k] for k in sorted(every, key=lambda k: k == we.ESC)}
    results = {}
    for name, src in every.items():
        if name == we.ESC:
            def make(f: int) -> CascadeDetector:
                return CascadeDetector(verifier=verifiers[f"esc{f}"])

            r = we.esc_by_fold(data, make) if len(esc) == 5 else esc_folds(data, esc, make)
            used = "held out"
            name = name if len(esc) == 5 else f"esc10-negatives (folds {','.join(map(str, esc))})"
        else:
            key = "table" if src.kind == "stream" else name
            r = we.run_source(src, lambda k=key: CascadeDetector(verifier=verifiers[k]))
            used = "held/s1" if name in we.STAGE1_SAW else "held out"
        results[name] = r
        we.print_row(name, used, r)
    return results


def cell(r: dict[str, object]) -> str:
    def f(v: object, d: int = 3) -> str:
        return "-" if v is None else f"{v:.{d}f}" if isinstance(v, float) else str(v)

    return (f"{f(r['recall'])} / {f(r['precision'])} / {f(r['false_alarms_per_hour'], 1)} / "
            f"{f(r['latency_ms_p50'], 0)} / {f(r['latency_ms_p95'], 0)}")


def side_by_side(columns: dict[str, dict[str, dict[str, object]]]) -> None:
    print("\n== side by side, held out (recall / precision / FA per hour / latency p50 / p95 ms)")
    print(f"   {'source':<44} " + " ".join(f"{c:<36}" for c in columns))
    first = next(iter(columns.values()))
    for name in first:
        print(f"   {name:<44} " + " ".join(f"{cell(rows[name]) if name in rows else '':<36}" for rows in columns.values()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hours", type=float, default=1.0, help="length of the table-noise stream (default 1 h)")
    ap.add_argument("--quick", action="store_true", help="fewer scenes, 0.1 h of table noise")
    ap.add_argument("--train-scale", type=float, default=1.0, help="share of the synthetic training items")
    ap.add_argument("--steps", type=int, default=ct.STEPS, help="CNN training steps per fold")
    ap.add_argument("--only", choices=["cnn", "mlp"], help="one verifier's table only (the CNN's folds take most of the run)")
    ap.add_argument("--rows", action="append", default=[],
                    help="only the rows whose name holds this (repeatable; for choosing a recipe on a few folds)")
    ap.add_argument("--esc-folds", default="1,2,3,4,5", help="ESC-10 folds of its row (e.g. 1,2,3 with --rows robot)")
    ap.add_argument("--family-hours", type=float, default=1.0,
                    help="hours of each new negative family (music, babble, laughter, clatter), as whistle_eval.py's")
    ap.add_argument("--no-speed", action="store_true", help="skip the real-time factors")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    data = we.whistle_dir()
    if data is None:
        print("shared data not found (BELLWETHER_SHARED_DATA): nothing to evaluate")
        return 1
    hours = 0.1 if args.quick else args.hours
    esc = tuple(int(f) for f in args.esc_folds.split(","))
    print(f"machine: {len(os.sched_getaffinity(0))} cores available; CPU-time figures; seed {args.seed}; one thread;"
          f" CNN recipe: {ct.recipe(args.steps)}")
    t = time.process_time()
    sources = we.build_sources(data, args.seed, args.quick, args.family_hours)
    patches, features = candidates(data, args.seed, args.train_scale)
    print(f"training candidates: {len(patches.y)} ({int(patches.y.sum())} whistle); sources and candidates in "
          f"{time.process_time() - t:.0f} s CPU")
    columns: dict[str, dict[str, dict[str, object]]] = {}
    if args.only != "mlp":
        with tempfile.TemporaryDirectory() as tmp:
            print(f"\n-- CNN folds ({args.steps} steps each), trained as the rows need them")
            t = time.process_time()
            cnn = cnn_folds(patches, args.seed, args.steps, Path(tmp), bool(args.rows))
            rate = ct.rate_key(ct.NEGATIVE_RATE)
            columns[f"CNN, {rate} (shipped rule)"] = held_out_rows(
                f"the cascade with the CNN verifier at {rate} of training negatives, retrained per row without that row's source",
                sources, data, hours, args.seed, cnn, args.rows, esc)
            print(f"   CNN folds and rows: {time.process_time() - t:.0f} s CPU")
            for other in ct.OTHER_RATES:
                columns[f"CNN, {ct.rate_key(other)}"] = held_out_rows(
                    f"the same CNN folds at {ct.rate_key(other)} of training negatives (not the shipped rule)",
                    sources, data, hours, args.seed, AtRate(cnn, other), args.rows, esc)
    if args.only != "cnn":
        print("\n-- MLP folds (whistle_train.train on the same candidates' features)")
        columns[f"MLP, {ct.rate_key(wt.NEGATIVE_RATE)}"] = held_out_rows(
            "the cascade with the MLP verifier, retrained per row without that row's source",
            sources, data, hours, args.seed, mlp_folds(features, args.seed, bool(args.rows)), args.rows, esc)
    if len(columns) > 1:
        side_by_side(columns)
    if not args.no_speed:
        we.speed(lambda: CascadeDetector(verifier=CnnVerifier.shipped()), "cascade + CNN (shipped weights)")
        we.speed(CascadeDetector, "cascade + MLP (shipped weights)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
