"""Settle detection on frame sequences with tumbling dice, made from real photos.

    .venv/bin/python benchmarks/dice_settle.py [--photos 40]

Each sequence (one per photo, photos spread evenly over the webcam set):
dice tumble into the places they lie in the photo (each die's patch of the
real photo slides and turns in, decelerating, with motion blur), lie still
for 2 s, a hand sweeps across, they lie still, a hand rests over the tray for
2 s, they lie still again.  Counted: rolls reported before the dice stopped
(target 0), sequences with exactly one report (target: all), and the frames
from the stop to the report.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.paths import shared_data  # noqa: E402
from hardware.dice.pips import read_pips  # noqa: E402
from hardware.dice.settle import SettleDetector  # noqa: E402
from hardware.testing.camera import hand_frames, tumbling_frames  # noqa: E402


def main() -> int:
    cv2.setNumThreads(1)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--photos", type=int, default=40)
    args = ap.parse_args()
    folder = shared_data() / "dice" / "webcam-train"
    with (folder / "manifest.csv").open() as f:
        rows = list(csv.DictReader(f))
    step = max(1, len(rows) // args.photos)
    early = once = twice = never = 0
    delays = []
    rng = np.random.default_rng(0)
    picked = rows[::step][: args.photos]
    for row in picked:
        photo = cv2.imread(str(folder / row["path"]))
        boxes = [r.box for r in read_pips(photo)] or [(300, 220, 40, 40)]
        tumble = tumbling_frames(photo, boxes, rng, frames=int(rng.integers(8, 20)))
        frames = tumble + [photo] * 30 + hand_frames(photo, rng, 12) + [photo] * 20
        frames += hand_frames(photo, rng, 10, stay=30) + [photo] * 20
        detector = SettleDetector()
        reports = []
        for i, frame in enumerate(frames):
            if detector.update(frame, read_pips) is not None:
                reports.append(i)
        early += sum(i < len(tumble) for i in reports)
        once += len(reports) == 1
        twice += len(reports) > 1
        never += not reports
        delays += [i - len(tumble) for i in reports[:1]]
    n = len(picked)
    print(f"settle detection on {n} tumbling sequences from real photos ({len(frames)} frames each, 15 fps):")
    print(f"  rolls reported before the dice stopped: {early}   (target 0)")
    print(f"  sequences reported exactly once: {once}/{n}   more than once: {twice}   never: {never}")
    if delays:
        print(f"  frames from stop to report: median {int(np.median(delays))} ({np.median(delays) / 15:.2f} s at 15 fps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
