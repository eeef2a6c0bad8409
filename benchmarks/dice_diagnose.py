"""Where a fold's pip reader loses a held-out group's dice, in figures (session 22's diagnosis, docs/dice.md).

    python benchmarks/dice_diagnose.py --folds benchmarks/out/dice-folds --group hex-trays [--sheets DIR]

For the group's photos read by its fold's network (``--folds``/``--group``):

- **at the labelled boxes** (``dice_stages.py``'s measure: each labelled die cut where its label puts it): the
  confusion of label against reading (*not a die* or 1-6), and the share read right by die side, brightness, pip
  polarity, colourfulness, contrast and dice in the photo, each measured in the colour photo on the inner 70 % of
  the labelled box (brightness: median grey; polarity: ``(p95 - p50) - (p50 - p5)`` of the grey, pips being the
  minority, so negative for dark pips; colourfulness: median HSV saturation; contrast: ``p95 - p5``);
- **end to end** (its *both stages*): the lost dice split into missed by the detector, found and read *not a die*,
  found and misread, each with how it reads at its labelled box; the found dice re-read with the label's side or
  centre (what the detector's geometry costs); and the false dice (found where no label is, read as a value);
- with ``--sheets``: contact sheets (PNG) of the most confident misreads, misreads, *not a die* and false dice drawn
  at random, each crop in colour at twice the die's side (the labelled box drawn) beside the 32 x 32 grey input.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from dice_stages import pair, verdict  # noqa: E402

from companion.paths import shared_data  # noqa: E402
from hardware.dice import labelled  # noqa: E402
from hardware.dice.net import NOT_A_DIE, NetReader, crop_die, normalise_crops  # noqa: E402
from hardware.image_file import read_image  # noqa: E402

INNER = 0.7  # the share of the labelled box's side the features are measured on: the top face, mostly
BINS = {  # feature: (lower edges, title)
    "size": ((0, 30, 35, 40, 50), "die side (labelled box, px)"),
    "grey": ((0, 70, 120, 170), "die brightness (median grey)"),
    "polarity": ((-math.inf, -40, -10, 10, 40), "pip polarity ((p95-p50)-(p50-p5); < 0 dark pips)"),
    "saturation": ((0, 0.15, 0.3, 0.5, 0.7), "colourfulness (median saturation)"),
    "contrast": ((0, 40, 80, 120), "contrast (p95-p5 of the grey)"),
    "dice_in_photo": ((1, 6, 11, 21, 31), "dice in the photo"),
}


def features(frame: np.ndarray, die: labelled.LabelledDie) -> dict[str, float]:
    """The die's brightness, pip polarity, colourfulness and contrast on the inner part of its labelled box (BGR frame)."""
    h, w = frame.shape[:2]
    half = INNER * die.size / 2
    roi = frame[max(0, round(die.y - half)) : min(h, round(die.y + half)), max(0, round(die.x - half)) : min(w, round(die.x + half))]
    if roi.size == 0:
        return {"grey": math.nan, "polarity": math.nan, "saturation": math.nan, "contrast": math.nan}
    grey = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY)
    p5, p50, p95 = (float(v) for v in np.percentile(grey, (5, 50, 95)))
    saturation = float(np.median(cv2.cvtColor(roi, cv2.COLOR_BGR2HSV)[..., 1])) / 255
    return {"grey": p50, "polarity": (p95 - p50) - (p50 - p5), "saturation": saturation, "contrast": p95 - p5}


def reading(p: np.ndarray, min_face: float) -> int:
    """The class a die's probabilities read as: 0 (not a die) or its value, as ``verdict`` decides."""
    face = int(np.argmax(p[1:])) + 1
    return NOT_A_DIE if p[face] < p[NOT_A_DIE] or p[face] < min_face else face


def diagnose(reader: NetReader, items: list[labelled.Labelled]) -> tuple[list[dict], list[dict]]:
    """One row per labelled die and one per false die (found where no label is and read as a value)."""
    dice, false = [], []
    for k, item in enumerate(items):
        frame = read_image(item.path)
        frame = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        at_boxes = reader.classify(frame, [(d.x, d.y, d.size, 1.0) for d in item.dice])
        found = reader.detect(frame)
        matched = pair(item.dice, found)
        probs = reader.classify(frame, found)
        weak = pair(item.dice, reader.detect(frame, threshold=0.05))
        paired = [matched[i] for i in range(len(item.dice)) if i in matched]
        # the found dice again: at the detector's centre with the label's side, and at the label's centre with its side
        mixed = [(found[j][0], found[j][1], d.size, 1.0) for d, j in ((item.dice[i], matched[i]) for i in sorted(matched))]
        mixed += [(d.x, d.y, found[matched[i]][2], 1.0) for i, d in enumerate(item.dice) if i in matched]
        remixed = reader.classify(frame, mixed)
        order = {i: n for n, i in enumerate(sorted(matched))}
        for i, d in enumerate(item.dice):
            j = matched.get(i)
            near = min((math.hypot(x - d.x, y - d.y) / d.size for x, y, *_ in found), default=math.inf)
            row = {"photo": k, "path": item.path, "x": d.x, "y": d.y, "size": d.size, "value": d.value,
                   "dice_in_photo": len(item.dice), "probs": at_boxes[i],
                   "box": verdict(at_boxes[i], d.value, reader.min_face),
                   "end": "missed" if j is None else verdict(probs[j], d.value, reader.min_face),
                   "weak_peak": i in weak, "peak_taken": j is None and near <= 0.5, "no_peak": near > 1,
                   "edge": not (d.size / 2 <= d.x <= frame.shape[1] - d.size / 2 and d.size / 2 <= d.y <= frame.shape[0] - d.size / 2),
                   **features(frame, d)}
            if j is not None:
                x, y, side, _ = found[j]
                row.update(side_ratio=side / d.size, centre_off=math.hypot(x - d.x, y - d.y) / d.size,
                           label_side=verdict(remixed[order[i]], d.value, reader.min_face),
                           label_centre=verdict(remixed[len(order) + order[i]], d.value, reader.min_face))
            dice.append(row)
        for j in set(range(len(found))) - set(paired):
            if reading(probs[j], reader.min_face) != NOT_A_DIE:
                x, y, side, heat = found[j]
                near = min((math.hypot(x - d.x, y - d.y) / d.size for d in item.dice), default=math.inf)
                false.append({"photo": k, "path": item.path, "x": x, "y": y, "size": side, "heat": heat, "probs": probs[j], "near": near})
    return dice, false


def confusion(dice: list[dict], min_face: float) -> None:
    m = np.zeros((6, 7), int)
    for r in dice:
        m[r["value"] - 1, reading(r["probs"], min_face)] += 1
    print("\n| label \\ read | not a die | 1 | 2 | 3 | 4 | 5 | 6 | dice | right |\n|---|---|---|---|---|---|---|---|---|---|")
    for v in range(6):
        print(f"| {v + 1} | " + " | ".join(str(n) for n in m[v]) + f" | {m[v].sum()} | {m[v, v + 1] / max(1, m[v].sum()):.3f} |")
    print("| all | " + " | ".join(str(n) for n in m.sum(0)) + f" | {m.sum()} | {np.trace(m[:, 1:]) / max(1, m.sum()):.3f} |")
    wrong = [(r["value"], reading(r["probs"], min_face)) for r in dice if r["box"] == "wrong"]
    print(f"read as another value: {len(wrong)}; as more pips {sum(b > a for a, b in wrong)}, as the opposite face "
          f"{sum(a + b == 7 for a, b in wrong)}")


def by_feature(dice: list[dict], key: str) -> None:
    edges, title = BINS[key]
    print(f"\n{title}\n| bin | dice | right at boxes | not a die | wrong | right end to end |\n|---|---|---|---|---|---|")
    for lo, hi in zip(edges, (*edges[1:], math.inf), strict=True):
        rows = [r for r in dice if lo <= r[key] < hi]
        if rows:
            c, n = Counter(r["box"] for r in rows), len(rows)
            print(f"| {lo:g} to {hi:g} | {n} | {c['right'] / n:.3f} | {c['not a die'] / n:.3f} | {c['wrong'] / n:.3f} | "
                  f"{sum(r['end'] == 'right' for r in rows) / n:.3f} |")


def end_to_end(dice: list[dict], false: list[dict], photos: int) -> None:
    n = len(dice)
    ends = Counter(r["end"] for r in dice)
    print(f"\nend to end: right {ends['right']} ({ends['right'] / n:.3f}) of {n}, lost {n - ends['right']}")
    print("| | dice | share | at their labelled box: right / wrong / not a die |\n|---|---|---|---|")
    for end in ("missed", "not a die", "wrong"):
        c = Counter(r["box"] for r in dice if r["end"] == end)
        print(f"| {end} | {ends[end]} | {ends[end] / n:.3f} | {c['right']} / {c['wrong']} / {c['not a die']} |")
    missed = [r for r in dice if r["end"] == "missed"]
    print(f"missed: a peak at heat 0.05 {sum(r['weak_peak'] for r in missed)}, a peak within half a side paired with "
          f"another die {sum(r['peak_taken'] for r in missed)}, no peak within a side {sum(r['no_peak'] for r in missed)}; "
          f"median side {np.median([r['size'] for r in missed]) if missed else 0:.1f} px (all {np.median([r['size'] for r in dice]):.1f}), "
          f"median dice in their photo {np.median([r['dice_in_photo'] for r in missed]) if missed else 0:.0f} "
          f"(all {np.median([r['dice_in_photo'] for r in dice]):.0f}); labelled boxes over the photo's edge: "
          f"{sum(r['edge'] for r in dice)} (at the boxes {dict(Counter(r['box'] for r in dice if r['edge']))})")
    found = [r for r in dice if r["end"] != "missed"]
    if found:
        right = {k: sum(r[k] == "right" for r in found) for k in ("end", "label_side", "label_centre", "box")}
        print(f"found dice ({len(found)}) read right: at the detector's boxes {right['end']}, its centres with the labels' sides "
              f"{right['label_side']}, the labels' centres with its sides {right['label_centre']}, the labelled boxes {right['box']}")
        for end in ("right", "wrong", "not a die"):
            rows = [r for r in found if r["end"] == end]
            if rows:
                s, o = np.array([r["side_ratio"] for r in rows]), np.array([r["centre_off"] for r in rows])
                print(f"  {end}: detector side / label side {np.percentile(s, 10):.2f} / {np.median(s):.2f} / "
                      f"{np.percentile(s, 90):.2f} (10th/50th/90th), centre off {np.median(o):.2f} / {np.percentile(o, 90):.2f} "
                      f"of a side (50th/90th)")
    values = Counter(reading(f["probs"], 0.0) for f in false)
    p = np.array([f["probs"][reading(f["probs"], 0.0)] for f in false]) if false else np.zeros(1)
    heat = np.array([f["heat"] for f in false]) if false else np.zeros(1)
    print(f"false dice: {len(false)} ({len(false) / max(1, n):.2f} a labelled die) in {len({f['photo'] for f in false})} of "
          f"{photos} photos; read as {dict(sorted(values.items()))}; value probability {np.percentile(p, 10):.2f} / "
          f"{np.median(p):.2f} / {np.percentile(p, 90):.2f}, heat {np.percentile(heat, 10):.2f} / {np.median(heat):.2f} / "
          f"{np.percentile(heat, 90):.2f} (10th/50th/90th); within a side of a labelled die {sum(f['near'] <= 1 for f in false)}")


def tile(frame: np.ndarray, row: dict, label: str) -> np.ndarray:
    """A die's crop in colour at twice its side (its box drawn) beside the classifier's 32 x 32 grey input, labelled."""
    colour = np.ascontiguousarray(crop_die(frame, row["x"], row["y"], row["size"], 128, 2.0).astype(np.uint8))
    cv2.rectangle(colour, (32, 32), (96, 96), (0, 255, 0), 1)
    grey = normalise_crops(crop_die(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), row["x"], row["y"], row["size"], 32)[None])[0, 0]
    grey = cv2.normalize(grey, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    out = np.full((150, 226, 3), 255, np.uint8)
    out[:128, :128] = colour
    out[:96, 130:] = cv2.cvtColor(cv2.resize(grey, (96, 96), interpolation=cv2.INTER_NEAREST), cv2.COLOR_GRAY2BGR)
    cv2.putText(out, label, (2, 144), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 0, 0), 1)
    return out


def sheets(dice: list[dict], false: list[dict], folder: Path, min_face: float, n: int = 30) -> None:
    """Contact sheets of misread, rejected and false dice (``folder/*.png``), 5 crops a row."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    frames: dict[Path, np.ndarray] = {}

    def frame(path: Path) -> np.ndarray:
        if path not in frames:
            f = read_image(path)
            frames[path] = f if f.ndim == 3 else cv2.cvtColor(f, cv2.COLOR_GRAY2BGR)
        return frames[path]

    def named(r: dict) -> str:
        got = reading(r["probs"], min_face)
        return f"{'t' + str(r['value']) if 'value' in r else 'false'} r{got or '-'} p{r['probs'][got]:.2f} s{r['size']:.0f}"

    def some(rows: list[dict]) -> list[dict]:
        return [rows[i] for i in rng.permutation(len(rows))[:n]]

    wrong = [r for r in dice if r["box"] == "wrong"]
    drawn = {
        "misread-confident": sorted(wrong, key=lambda r: -r["probs"][reading(r["probs"], min_face)])[:n],
        "misread-random": some(wrong),
        "not-a-die-random": some([r for r in dice if r["box"] == "not a die"]),
        "false-random": some(false),
    }
    for name, rows in drawn.items():
        if not rows:
            continue
        tiles = [tile(frame(r["path"]), r, named(r)) for r in rows]
        tiles += [np.full_like(tiles[0], 255)] * (-len(tiles) % 5)
        cv2.imwrite(str(folder / f"{name}.png"), np.vstack([np.hstack(tiles[i : i + 5]) for i in range(0, len(tiles), 5)]))
        print(f"  {folder / name}.png: {len(rows)} crops")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folds", type=Path, default=ROOT / "benchmarks" / "out" / "dice-folds", help="the fold weights")
    ap.add_argument("--group", choices=(*labelled.ROBOFLOW_GROUPS, labelled.WEBCAM), default="hex-trays")
    ap.add_argument("--sheets", type=Path, help="write contact sheets of the lost dice here")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    reader = NetReader(args.folds / args.group)
    items = labelled.real_groups(shared_data())[args.group]
    dice, false = diagnose(reader, items)
    print(f"{args.group} read by {args.folds / args.group}: {len(items)} photos, {len(dice)} labelled dice; threshold "
          f"{reader.threshold}, least face probability {reader.min_face}")
    confusion(dice, reader.min_face)
    for key in BINS:
        by_feature(dice, key)
    end_to_end(dice, false, len(items))
    if args.sheets:
        sheets(dice, false, args.sheets, reader.min_face)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
