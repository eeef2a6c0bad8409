"""Where a calibrated detector's floor starts (issue #15's "calibration must help, not hurt"; docs/whistle.md, session 30).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/whistle_calibration_start.py --seeds 100 101 102 103 104

For each seed, ``whistle_eval.py``'s calibration rows (four whistles, the wizard's profile from 3 blows, 40 fresh
blows each in hall noise at -5..+15 dB), heard by the combined detector three ways: generic (no profile), the
profile with session 4's floor started from the quiet room it recorded (``quiet``: the shipped start until session 30)
and the profile with that floor started as the generic detector's (``first``: the shipped start since session 30),
each just after a start (the detector reset before each 3 s scene, as every row of the benchmark) and in the steady
state (``whistle_eval.warmed``: 20 s of the hall first).  Per row: blows heard, blows the generic detector heard
and the profile did not ("lost"), false alarms.  Shipped verifier; CPU about 1 minute a seed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import whistle_eval as we

from calibration.whistle import Profile
from hardware.testing import whistle_synth as ws
from hardware.whistle.detector import detect
from hardware.whistle.evaluation import in_window


def heard(scenes: Sequence[ws.Scene], make: Callable[[], object]) -> tuple[np.ndarray, int]:
    """Per scene whether its blow was heard, and the reports off every blow."""
    det = make()
    hits, alarms = [], 0
    for s in scenes:
        det.reset()  # type: ignore[attr-defined]
        found = detect(s.samples, det, we.BLOCK)  # type: ignore[arg-type]
        on, off = s.blows[0]
        hits.append(any(in_window(d.detected_at, on, off) for d in found))
        alarms += sum(not in_window(d.detected_at, on, off) for d in found)
    return np.array(hits), alarms


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", required=True)
    args = ap.parse_args()
    totals: dict[tuple[str, str], list[int]] = {}
    for seed in args.seeds:
        for name, profile, scenes in we.calibration_rows(seed):
            if not isinstance(profile, Profile):
                print(f"{seed} {name:<14} calibration failed ({profile})")
                continue
            for framing, rows in (("after a start", scenes), ("steady", we.warmed(scenes, seed))):
                generic, g_alarms = heard(rows, lambda: Profile().detector("combined"))
                line = [f"generic {generic.sum()} ({g_alarms} FA)"]
                for start, make in (("quiet", lambda p=profile: p.detector("combined", room_floor=True)), ("first", lambda p=profile: p.detector("combined"))):
                    got, alarms = heard(rows, make)
                    lost = int((generic & ~got).sum())
                    t = totals.setdefault((framing, start), [0, 0, 0, 0, 0])
                    t[0] += int(generic.sum())
                    t[1] += int(got.sum())
                    t[2] += lost
                    t[3] += alarms
                    t[4] += int(got.sum() < generic.sum())
                    line.append(f"{start} {got.sum()} (lost {lost}, {alarms} FA)")
                print(f"{seed} {name:<14} {framing:<13} " + "; ".join(line), flush=True)
    print("\ntotals (generic heard, calibrated heard, lost, false alarms, rows under generic):")
    for (framing, start), (g, c, lost, fa, under) in sorted(totals.items()):
        print(f"   {framing:<13} {start:<5} generic {g}, calibrated {c}, lost {lost}, false alarms {fa}, rows under generic {under}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
