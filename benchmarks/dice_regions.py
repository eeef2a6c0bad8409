"""Dice read through a tray region: each real group by the fold that never saw it, whole and cut to a region.

In the app the camera's calibrated tray region is cut from the frame before the dice are found, so the detector
sees the dice larger than in the benchmark's whole photos. Here each photo (1 to 5 dice; hex-trays' crowded trays
too, it has few such photos) is cut to the box of its labelled dice grown by ``--margins`` die sides on every side
(the frame's edge permitting), standing in for a tray drawn round the dice; die accuracy is paired by position as in
``dice_eval.py``, and image accuracy (every die of the photo read, nothing more: session 29, since clutter off the
dice is what a tray region takes out). ``--upscale`` reads as before session 23 (a region smaller than the detector's 320 px input
enlarged to it), for comparison.

    .venv/bin/python benchmarks/dice_regions.py --folds benchmarks/out/dice-folds --margins 1.0 2.5
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_eval import FOLDS, match

from companion.paths import shared_data
from hardware.dice import labelled, net
from hardware.image_file import read_image


def region_about(item: labelled.Labelled, margin: float, width: int, height: int) -> tuple[int, int, int, int]:
    side = max(d.size for d in item.dice)
    x0 = max(0, int(min(d.x for d in item.dice) - margin * side))
    x1 = min(width, int(max(d.x for d in item.dice) + margin * side))
    y0 = max(0, int(min(d.y for d in item.dice) - margin * side))
    y1 = min(height, int(max(d.y for d in item.dice) + margin * side))
    return x0, y0, x1 - x0, y1 - y0


def photos(items: list[labelled.Labelled], sample: int) -> list[labelled.Labelled]:
    """One photo per split unit (augmented copies share one), 1 to 5 dice where the group has enough."""
    few = [i for i in items if 1 <= len(i.dice) <= 5]
    pool = few if len({i.unit for i in few}) >= 20 else [i for i in items if i.dice]
    first: dict[str, labelled.Labelled] = {}
    for item in sorted(pool, key=lambda i: str(i.path)):
        first.setdefault(item.unit, item)
    return list(first.values())[:sample]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folds", type=Path, default=FOLDS)
    ap.add_argument("--groups", nargs="*", choices=(labelled.WEBCAM, *labelled.ROBOFLOW_GROUPS))
    ap.add_argument("--margins", type=float, nargs="+", default=[1.0, 2.5])
    ap.add_argument("--sample", type=int, default=150)
    ap.add_argument("--upscale", action="store_true", help="enlarge regions under 320 px to 320 (before session 23)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.upscale:
        net.first_side = lambda _side: net.DETECT_SIDE  # type: ignore[assignment]
    groups = labelled.real_groups(shared_data())
    print(f"die accuracy / image accuracy\n{'held out':<14} {'photos':>6} {'dice':>5}  whole          "
          + "  ".join(f"margin {m:g} (region px)      " for m in args.margins))
    for g in args.groups or list(groups):
        reader = net.NetReader(args.folds / g)
        items = photos(groups[g], args.sample)
        right = np.zeros(1 + len(args.margins))
        whole = np.zeros(1 + len(args.margins))  # photos read exactly
        sides: list[list[int]] = [[] for _ in args.margins]
        total = 0
        for item in items:
            frame = read_image(item.path)
            total += len(item.dice)
            reads = [reader.read(frame)]
            for k, m in enumerate(args.margins):
                box = region_about(item, m, frame.shape[1], frame.shape[0])
                sides[k].append(max(box[2], box[3]))
                reads.append(reader.read(frame, box))
            for k, readings in enumerate(reads):
                right[k] += match(item.dice, readings)
                whole[k] += sorted(r.face for r in readings) == item.values
        n = len(items)
        cells = "  ".join(f"{right[1 + k] / total:.3f} / {whole[1 + k] / n:.3f} ({np.median(sides[k]):.0f})    "
                          for k in range(len(args.margins)))
        print(f"{g:<14} {n:>6} {total:>5}  {right[0] / total:.3f} / {whole[0] / n:.3f}  {cells}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
