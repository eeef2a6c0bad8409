"""Real-time factor of the whistle detectors, as ``whistle_eval.py`` measures it, without the rest of the benchmark.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/whistle_speed.py [--detector combined] [--repeat 3] [--profile N]

The measure is ``whistle_eval.speed``'s: 120 s of table noise (``NegativeStream(seed=9)``) with a
2.5 kHz blow every 5 s, fed in 64 ms blocks, CPU time (``time.process_time``); then the same sound
from 48 kHz through the streaming ``Resampler``.  ``--repeat`` runs it several times and prints each
(the machine is shared: the best is the least disturbed).  ``--min-of R`` instead times each block on
its own in R runs and sums every block's least CPU time: the run is deterministic, so block i costs the same
work each time and its least time is its least disturbed, a figure that holds under another job's load
(session 9: whole-run figures of the same code spread 1.5x on the loaded machine).  ``--profile N`` prints the N
costliest functions (cProfile, by own time) of one 16 kHz run and of one from 48 kHz through the ``Resampler``
(session 16: where the 48 kHz path's extra time goes) instead.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _machine import describe

from hardware.audio import RATE, Resampler, resample
from hardware.testing import audio as ta
from hardware.whistle.detector import detect

BLOCK = 1024  # 64 ms at 16 kHz: the live block


def makers() -> dict[str, Callable[[], object]]:
    from hardware.whistle.cascade import CascadeDetector, CascadeParams
    from hardware.whistle.combined import CombinedDetector
    from hardware.whistle.detector import WhistleDetector
    from hardware.whistle.verifier import Verifier

    return {
        "session4": WhistleDetector,
        "combined": CombinedDetector.of,
        "combined-short": lambda: CombinedDetector.of(verifier=Verifier.combined_short()),  # session 15's 4-frame patch
        "cascade": lambda: CascadeDetector(CascadeParams(accepts=2)),  # as whistle_eval.py runs it
    }


def sound(seconds: float) -> np.ndarray:
    stream = ta.NegativeStream(seed=9)
    x = np.concatenate([stream.segment() for _ in range(round(seconds / stream.SEGMENT_S))])
    for at in np.arange(1, seconds, 5.0):
        ta.place(x, ta.tone(2500, 0.4, amp=0.2), float(at))
    return x


def rtf(make: Callable[[], object], x: np.ndarray, x48: np.ndarray) -> tuple[float, float, float]:
    """(16 kHz RTF, from-48 kHz RTF, resampler alone RTF) on the same sound."""
    seconds = len(x) / RATE
    det = make()
    c = time.process_time()
    detect(x, det, BLOCK)
    r16 = seconds / (time.process_time() - c)
    det.reset()
    r = Resampler(48000)
    block = round(0.064 * 48000)
    c = time.process_time()
    for i in range(0, len(x48), block):
        det.process(r(x48[i : i + block]))
    r48 = seconds / (time.process_time() - c)
    r = Resampler(48000)
    c = time.process_time()
    for i in range(0, len(x48), block):
        r(x48[i : i + block])
    rs = seconds / (time.process_time() - c)
    return r16, r48, rs


def block_min_rtf(make: Callable[[], object], x: np.ndarray, x48: np.ndarray, runs: int) -> tuple[float, float]:
    """(16 kHz RTF, from-48 kHz RTF incl. resampling) from each block's least CPU time over ``runs`` runs."""
    seconds = len(x) / RATE
    clock = time.process_time

    def times(sig: np.ndarray, rate: int) -> np.ndarray:
        det = make()
        resampler = Resampler(48000) if rate != RATE else None
        block = BLOCK if resampler is None else round(0.064 * 48000)
        out = []
        for i in range(0, len(sig), block):
            b = sig[i : i + block]
            c = clock()
            det.process(b if resampler is None else resampler(b))
            out.append(clock() - c)
        return np.array(out)

    r16 = seconds / np.min([times(x, RATE) for _ in range(runs)], axis=0).sum()
    r48 = seconds / np.min([times(x48, 48000) for _ in range(runs)], axis=0).sum()
    return float(r16), float(r48)


def profile(make: Callable[[], object], sig: np.ndarray, rate: int) -> cProfile.Profile:
    """cProfile of one run over ``sig`` in 64 ms blocks (through the live Resampler unless it is 16 kHz)."""
    det, block = make(), round(0.064 * rate)
    resampler = Resampler(rate) if rate != RATE else None
    prof = cProfile.Profile()
    prof.enable()
    for i in range(0, len(sig), block):
        det.process(sig[i : i + block] if resampler is None else resampler(sig[i : i + block]))
    prof.disable()
    return prof


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--detector", action="append", choices=["session4", "combined", "cascade", "combined-short"])
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--min-of", type=int, default=0, help="per-block least CPU time over this many runs")
    ap.add_argument("--profile", type=int, default=0)
    args = ap.parse_args()
    names = args.detector or ["session4", "combined", "cascade"]
    print(f"machine: {describe()}; load {os.getloadavg()[0]:.1f}; CPU time, 64 ms blocks")
    x = sound(args.seconds)
    x48 = resample(x, RATE, 48000)
    make = makers()
    for name in names:
        if args.profile:
            for rate, sig in ((RATE, x), (48000, x48)):
                prof = profile(make[name], sig, rate)
                print(f"\n== {name}, {'16 kHz' if rate == RATE else 'from 48 kHz incl. resampling'}")
                pstats.Stats(prof).sort_stats("tottime").print_stats(args.profile)
            continue
        if args.min_of:
            r16, r48 = block_min_rtf(make[name], x, x48, args.min_of)
            print(f"{name:9s} real-time factor, each block's least of {args.min_of} runs: 16 kHz {r16:.0f}; "
                  f"from 48 kHz incl. resampling {r48:.0f}")
            continue
        for _ in range(args.repeat):
            r16, r48, rs = rtf(make[name], x, x48)
            print(f"{name:9s} real-time factor: 16 kHz {r16:.0f}; from 48 kHz incl. resampling {r48:.0f} "
                  f"(resampler alone {rs:.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
