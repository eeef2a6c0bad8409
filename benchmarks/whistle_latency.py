"""Where the combined detector's latency goes, blow by blow (issue #15's p95 <= 150 ms target).

    BELLWETHER_SHARED_DATA=../shared/data WHISTLE_FOLDS=/tmp/folds.pkl \\
        .venv/bin/python benchmarks/whistle_latency.py --seed 13

For the rows of ``whistle_eval.py`` that hold blows, each heard blow's latency (the end of the block that
reported it, less the labelled onset, as ``whistle eval`` scores it) is split in two: how late the detector's
own estimate of the onset is (the blow's first frames not recognised: masked, or a slow attack), and the wait
from that estimate to the report (the detector's minimum duration, pooling, the verifier's patch and the 64 ms
block).  It says which half of the combined detector reported it: session 4's (the same report from session
4's detector alone) or the cascade's.  Each row is heard by the fold verifier trained without its source, as in
``whistle_eval.py`` (``WHISTLE_FOLDS`` reuses its cache).  A diagnosis, not a judged figure: run it on a seed
already seen.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import whistle_eval as we
import whistle_train as wt

from hardware.whistle.combined import CombinedDetector
from hardware.whistle.detector import WhistleDetector, detect
from hardware.whistle.evaluation import in_window

ROWS = ("mix: robot blows in esc 1-3 + robot other", "mix: r2k blows in esc 4-5 + r2k other", "pea-trill",
        we.SHORT_QUIET, "hum", we.LOUD_HUM, "toy")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--worst", type=int, default=8, help="the latest blows to list per row")
    ap.add_argument("--history", type=int, default=None, help="frames of the fold verifiers' patch (default 8)")
    ap.add_argument("--train-scale", type=float, default=1.0,
                    help="share of the synthetic training items for the folds, as whistle_eval.py's (default 1: the "
                         "shipped weights')")
    args = ap.parse_args()
    data = we.whistle_dir()
    if data is None:
        print("skipped: no whistle data (set BELLWETHER_SHARED_DATA)")  # make bench goes on
        return 0
    sources = we.build_sources(data, args.seed, quick=False, family_hours=0.01)
    folds = we.fold_verifiers(data, args.seed, args.train_scale, recipe=wt.COMBINED_RECIPE, history=args.history)
    print(f"\n== latency of the combined detector, seed {args.seed}, 64 ms blocks (ms; 'onset late': the detector's "
          "onset estimate after the labelled one; 'wait': from that estimate to the report)")
    for name in ROWS:
        combined, alone = CombinedDetector.of(verifier=folds[name]), WhistleDetector()
        heard: list[tuple[float, float, float, float, bool]] = []  # snr, latency, onset late, wait, session 4's
        for scene in sources[name].scenes:
            combined.reset()
            alone.reset()
            found, by_s4 = detect(scene.samples, combined, we.BLOCK), detect(scene.samples, alone, we.BLOCK)
            for a, b in scene.blows:
                hits = [d for d in found if in_window(d.detected_at, a, b)]
                if hits:
                    d = hits[0]
                    s4 = any(abs(x.detected_at - d.detected_at) < 1e-6 for x in by_s4)
                    heard.append((scene.snr_db or 0.0, d.detected_at - a, d.onset - a, d.detected_at - d.onset, s4))
        if not heard:
            print(f"   {name}: none heard")
            continue
        ms = np.array([h[1:4] for h in heard]) * 1000
        late = ms[:, 0] > 150
        print(f"   {name}: {len(heard)} heard, session 4's half {sum(h[4] for h in heard)}; latency p50 "
              f"{np.percentile(ms[:, 0], 50):.0f} p95 {np.percentile(ms[:, 0], 95):.0f}; over 150 ms {late.sum()}: "
              f"onset late p50 {np.median(ms[late, 1]) if late.any() else 0:.0f}, wait p50 "
              f"{np.median(ms[late, 2]) if late.any() else 0:.0f}")
        for i in np.argsort(-ms[:, 0])[: args.worst]:
            snr, _, _, _, s4 = heard[i]
            print(f"      snr {snr:6.1f} dB  latency {ms[i, 0]:4.0f}  onset late {ms[i, 1]:5.0f}  wait {ms[i, 2]:4.0f}  "
                  f"{'session 4' if s4 else 'cascade'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
