"""Colour and symbol dice on rendered photos under warm, cool and dim light.

    .venv/bin/python benchmarks/dice_colour.py [--images 60]

For each die (Shear Panic panic and regrouping dice, Sheep Hop! die) and each
light, the die is calibrated the way ``bellwether calibrate camera`` does it
(an empty tray and one photo per face, under that light, no tilt), then read
on fresh photos with one to three dice, shadows, tilt and a perspective warp
(recipe: hardware/testing/dice_render.py).  Also: calibration under one light
and play under another (the white balance against the die body is what
carries that), the black/green and white/yellow confusions, and CPU time.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calibration.camera import sample_die  # noqa: E402
from hardware.dice.colour import ColourDie, read_colour_dice  # noqa: E402
from hardware.testing.dice_render import DICE, empty_tray, render  # noqa: E402

LIGHTS = ("warm", "cool", "dim")


def calibrate(die: str, light: str, seed: int) -> ColourDie:
    rng = np.random.default_rng(seed)
    empty = empty_tray(rng, light)
    frames = {face: render(rng, [(die, face)], light, tilt=False)[0] for face in DICE[die]}
    return sample_die(die, "symbol" if die == "regroup" else "colour", frames, 64.0, empty, None, progress=lambda _: None)


def measure(calibrated: ColourDie, die: str, light: str, images: int, seed: int, confusions: Counter, ms: list[float]):
    rng = np.random.default_rng(seed)
    faces = list(DICE[die])
    right = total = 0
    for _ in range(images):
        picks = [(die, faces[int(rng.integers(len(faces)))]) for _ in range(int(rng.integers(1, 4)))]
        frame, placed = render(rng, picks, light)
        started = time.process_time()
        readings = read_colour_dice(frame, calibrated)
        ms.append(1000 * (time.process_time() - started))
        for p in placed:
            total += 1
            near = [r for r in readings if abs(r.centre[0] - p.centre[0]) < 20 and abs(r.centre[1] - p.centre[1]) < 20]
            got = near[0].face if len(near) == 1 else None
            right += got == p.face
            if got != p.face:
                confusions[(die, p.face, got)] += 1
    return right, total


def main() -> int:
    cv2.setNumThreads(1)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--images", type=int, default=60, help="photos per die and light (1-3 dice each)")
    args = ap.parse_args()
    confusions: Counter = Counter()
    ms: list[float] = []
    grand = [0, 0]
    print("face accuracy, calibrated and read under the same light (target >= 0.99):")
    for die in DICE:
        cells = []
        for light in LIGHTS:
            r, t = measure(calibrate(die, light, 1), die, light, args.images, 1000 + LIGHTS.index(light), confusions, ms)
            grand[0] += r
            grand[1] += t
            cells.append(f"{light} {r / t:.3f} ({t} dice)")
        print(f"  {die:10s} " + "   ".join(cells))
    print(f"  all: {grand[0] / grand[1]:.4f} of {grand[1]} dice")
    print("calibrated under neutral light, read under another (not a target; shows the white balance at work):")
    for die in DICE:
        neutral = calibrate(die, "neutral", 2)
        cells = []
        for light in LIGHTS:
            r, t = measure(neutral, die, light, args.images // 2, 2000 + LIGHTS.index(light), Counter(), [])
            cells.append(f"{light} {r / t:.3f}")
        print(f"  {die:10s} " + "   ".join(cells))
    pairs = [("black", "green"), ("green", "black"), ("white", "yellow"), ("yellow", "white")]
    print("panic die confusions black<->green, white<->yellow: "
          + ", ".join(f"{a}->{b} {confusions[('panic', a, b)]}" for a, b in pairs))
    if confusions:
        print("all confusions (die, true, read): " + ", ".join(f"{k} x{v}" for k, v in confusions.most_common(8)))
    arr = np.array(ms)
    print(f"ms per 640x480 frame (CPU, 1 thread): p50 {np.percentile(arr, 50):.1f}  p95 {np.percentile(arr, 95):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
