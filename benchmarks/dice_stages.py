"""Where a fold's pip reader loses dice: each stage measured apart (``dice_eval.py --parts stages``).

For a held-out group and its fold's weights (``benchmarks/out/dice-folds/<group>/``):

- **detector alone**: the share of labelled dice it finds at the fold's tuned
  threshold and same-die distance (with the finer pass when the tuning turned
  it on), a die found when a peak lies within half its side (one peak to one
  die, nearest first), and the peaks left over (false peaks) per labelled die;
- **classifier at the labelled boxes** (a perfect detector): each labelled die
  cut where its label puts it and read; right, wrong (another value) or
  *not a die* (rejected: the *not a die* class wins, or the value's
  probability is under the tuned least probability), at the reader's quarter
  turns and at fewer (what a cheaper reading would cost);
- **both**: each labelled die through the whole network reader: right,
  wrong, rejected, or missed by the detector.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from hardware.dice import labelled
from hardware.dice.net import NOT_A_DIE, NetReader
from hardware.image_file import read_image

Item = tuple[np.ndarray | None, labelled.Labelled]


def pair(dice: tuple[labelled.LabelledDie, ...], found: list[tuple[float, ...]], slack: float = 0.0) -> dict[int, int]:
    """Labelled die index -> found index (each found item starts with its x, y): nearest first, one to
    one, within half the die's side plus ``slack`` px."""
    pairs = sorted(
        (math.hypot(x - d.x, y - d.y), i, j)
        for i, d in enumerate(dice)
        for j, (x, y, *_rest) in enumerate(found)
        if math.hypot(x - d.x, y - d.y) <= 0.5 * d.size + slack
    )
    out: dict[int, int] = {}
    for _, i, j in pairs:
        if i not in out and j not in out.values():
            out[i] = j
    return out


def verdict(p: np.ndarray, value: int, min_face: float) -> str:
    """One die's class probabilities against its label: right, wrong or not a die (rejected)."""
    face = int(np.argmax(p[1:])) + 1
    if p[face] < p[NOT_A_DIE] or p[face] < min_face:
        return "not a die"
    return "right" if face == value else "wrong"


def measure(reader: NetReader, items: list[Item], turns: tuple[int, ...]) -> dict[str, Counter]:
    """The stage counts over a group's photos (see the module docstring)."""
    out: dict[str, Counter] = {"detector": Counter(), "both": Counter(), **{f"boxes{t}": Counter() for t in turns}}
    for img, item in items:
        frame = read_image(item.path) if img is None else img
        found = reader.detect(frame)
        matched = pair(item.dice, found)
        out["detector"].update(dice=len(item.dice), found=len(matched), false=len(found) - len(matched))
        boxes = [(d.x, d.y, d.size, 1.0) for d in item.dice]
        for t in turns:
            probs = reader.classify(frame, boxes, turns=t)
            out[f"boxes{t}"].update(verdict(p, d.value, reader.min_face) for d, p in zip(item.dice, probs, strict=True))
        probs = reader.classify(frame, found)
        for i, d in enumerate(item.dice):
            out["both"]["missed" if i not in matched else verdict(probs[matched[i]], d.value, reader.min_face)] += 1
    return out


def print_stages(group: str, reader: NetReader, counts: dict[str, Counter], photos: int) -> None:
    det = counts["detector"]
    n = max(1, det["dice"])
    fine = ", finer pass on" if reader.fine else ""
    print(f"  {group}: {photos} photos, {det['dice']} labelled dice; tuned threshold {reader.threshold}, "
          f"same die {reader.same_die}{fine}, least face probability {reader.min_face}")
    print(f"    detector alone: finds {det['found'] / n:.3f} of the dice ({det['found']}), "
          f"false peaks {det['false'] / n:.2f} per die ({det['false']})")
    for key in sorted(k for k in counts if k.startswith("boxes")):
        c = counts[key]
        print(f"    classifier at the labelled boxes, {key[5:]} turn(s): right {c['right'] / n:.3f} ({c['right']}), "
              f"wrong {c['wrong']}, not a die {c['not a die']}")
    b = counts["both"]
    print(f"    both stages: right {b['right'] / n:.3f} ({b['right']}), wrong {b['wrong']}, rejected {b['not a die']}, "
          f"missed {b['missed']}", flush=True)


def stages(folds_readers, items: dict[str, list[Item]]) -> None:
    """The stage table of each fold (``(group, reader)`` pairs) on its held-out group."""
    print("Stages, leave one group out: each group read by its fold's networks, stage by stage")
    for g, reader in folds_readers:
        turns = tuple(sorted({reader.turns, 1, 2}, reverse=True))
        print_stages(g, reader, measure(reader, items[g], turns), len(items[g]))
