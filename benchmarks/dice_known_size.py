"""Dice read with their side known from calibration: each real group by the fold that never saw it.

The detector reads a frame scaled so its dice are about the sizes it was trained on, but it guesses that scale from
its own first pass, and a camera close over the tray (fisheye-tray's dice, 100 px at the detector) or far above it
(white-paper's, 14 px) is read at the wrong scale (session 23's probe: a group's photos scaled by 2 moved its die
accuracy by tens of points). A table's camera does not move, so its dice's side can be measured once, when the
camera is calibrated, and every frame read at the scale it gives (``NetReader.read(die_side=...)``).

Each group's photos (one per split unit, 1 to 5 dice where the group has enough; ``dice_regions.photos``) are read:

- ``shipped``: as the app reads them today (the first pass's own scale, the fold's second looks);
- ``photo's own``: at each photo's own labelled die side (a bound: calibration on that very photo);
- ``labelled 3``: at the median labelled side of 3 other photos of the group (one calibration for the camera);
- ``measured 3``: at the median of ``NetReader.measure_die_side`` on those 3 photos, told only how many dice they
  hold (what ``bellwether calibrate camera --pip-dice N`` does); ``min`` is the worst of the draws;
- ``measured, own photo`` (added after session 24's rule, not judged): each photo at the side measured on itself, as
  a camera calibrated at the height it reads at would be (the measurement's error without the group's spread of
  camera heights).

Calibration photos are drawn ``--draws`` times (seeded) from the group's photos and never read for its score; a
group's photos come from several cameras and heights, so one calibration per group is harsher than a table's.

    .venv/bin/python benchmarks/dice_known_size.py --folds benchmarks/out/dice-folds
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_eval import FOLDS, match
from dice_regions import photos

from companion.paths import shared_data
from hardware.dice import labelled, net
from hardware.image_file import read_image

CALIBRATION_PHOTOS = 3


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folds", type=Path, default=FOLDS)
    ap.add_argument("--groups", nargs="*", choices=(labelled.WEBCAM, *labelled.ROBOFLOW_GROUPS))
    ap.add_argument("--sample", type=int, default=150)
    ap.add_argument("--draws", type=int, default=5)
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--speed", action="store_true", help="only: the shipped weights' speed on dice_eval's frame of 3 dice")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    groups = labelled.real_groups(shared_data())
    if args.speed:
        return speed(groups)
    print(f"{'held out':<14} {'photos':>6} {'dice':>5}  shipped  photo's own  labelled 3  measured 3 (min)  "
          "measured / labelled side (median, range)  measured, own photo")
    means = np.zeros(5)
    names = args.groups or list(groups)
    for g in names:
        reader = net.NetReader(args.folds / g)
        items = photos(groups[g], args.sample)
        frames = [read_image(i.path) for i in items]
        total = sum(len(i.dice) for i in items)
        shipped = sum(match(i.dice, reader.read(f)) for i, f in zip(items, frames, strict=True)) / total
        own = sum(match(i.dice, reader.read(f, die_side=statistics.median(d.size for d in i.dice)))
                  for i, f in zip(items, frames, strict=True)) / total
        # session 24, after the rule: each photo at its own measured side (a camera calibrated at the height it reads at)
        measured_own = sum(match(i.dice, reader.read(f, die_side=reader.measure_die_side(f, len(i.dice))))
                           for i, f in zip(items, frames, strict=True)) / total
        rng = np.random.default_rng(args.seed)
        labelled_acc, measured_acc, ratios = [], [], []
        for _ in range(args.draws):
            chosen = set(rng.choice(len(items), CALIBRATION_PHOTOS, replace=False).tolist())
            cal_label = statistics.median(d.size for k in chosen for d in items[k].dice)
            sides = [reader.measure_die_side(frames[k], len(items[k].dice)) for k in chosen]
            cal_measured = statistics.median([s for s in sides if s]) if any(sides) else None
            ratios.append((cal_measured or 0.0) / cal_label)
            rest = [k for k in range(len(items)) if k not in chosen]
            dice = sum(len(items[k].dice) for k in rest)
            labelled_acc.append(sum(match(items[k].dice, reader.read(frames[k], die_side=cal_label)) for k in rest) / dice)
            measured_acc.append(sum(match(items[k].dice, reader.read(frames[k], die_side=cal_measured)) for k in rest) / dice)
        row = np.array([shipped, own, np.mean(labelled_acc), np.mean(measured_acc), measured_own])
        means += row / len(names)
        print(f"{g:<14} {len(items):>6} {total:>5}  {shipped:.3f}    {own:.3f}        {row[2]:.3f}       "
              f"{row[3]:.3f} ({min(measured_acc):.3f})     {np.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
              f"                 {measured_own:.3f}", flush=True)
    print(f"{'mean':<14} {'':>6} {'':>5}  {means[0]:.4f}   {means[1]:.4f}       {means[2]:.4f}      {means[3]:.4f}"
          f"                                              {means[4]:.4f}")
    return 0


def speed(groups: dict[str, list[labelled.Labelled]]) -> int:
    """The 640 x 480 frame of three dice ``dice_eval.py --parts speed`` times, read as shipped and at its measured
    side, and the measurement itself (once, at calibration), on one core."""
    from dice_eval import timed

    reader = net.shared_reader()
    three = next(i for i in sorted(groups[labelled.WEBCAM], key=lambda i: i.path.name) if len(i.dice) == 3)
    frame = read_image(three.path)
    side = reader.measure_die_side(frame, 3)
    ms, got = timed(lambda: reader.read(frame))
    print(f"speed, one core: {three.path.name} (640x480, 3 dice) as shipped {ms:.1f} ms, {len(got)} read (median of 20)")
    ms, got = timed(lambda: reader.read(frame, die_side=side))
    print(f"                 at its measured side {side:.0f} px (detector side {net.known_side(side, 640)}): {ms:.1f} ms, "
          f"{len(got)} read (median of 20; target <= 30)")
    ms, _ = timed(lambda: reader.measure_die_side(frame, 3), times=5)
    print(f"                 the measurement (at calibration): {ms:.0f} ms (median of 5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
