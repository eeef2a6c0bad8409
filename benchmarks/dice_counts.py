"""Where a fold's pip reader gets the count wrong, and read-time settings chosen for count (issue #16).

``dice_eval.py`` says how many photos are read right; this says why the others are not. For a fold's
weights it reads each photo once down to the lowest heatmap threshold tried, keeping every local
maximum of the heatmap with its class probabilities, so that every setting of the decision (heat
threshold, absolute and relative to the photo's strongest peak, least face probability, same-die
distance, and whether a die rejected as *not a die* still suppresses the weaker peaks near it) is
replayed without running the networks again:

- **breakdown** (the fold's own tuning): per labelled die right, wrong value, rejected (its peak
  read as *not a die* or under the least probability) or missed (no peak); and the readings that
  match no labelled die (extra dice: false peaks read as values), per photo;
- **choose**: the setting with the best count (then image) accuracy on the fold's *training* groups
  (photos of any number of dice, up to ``--per-group`` a group), then that setting read on the
  held-out group. Nothing is chosen on the held-out group.

    PYTHONPATH=. python benchmarks/dice_counts.py --fold benchmarks/out/dice-folds/hex-trays --hold-out hex-trays
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from dice_stages import pair  # noqa: E402

from companion.config import save_bytes_atomic  # noqa: E402
from companion.paths import shared_data  # noqa: E402
from hardware.dice import labelled  # noqa: E402
from hardware.dice.net import NOT_A_DIE, WORK_SIDE, NetReader, as_channels, peaks  # noqa: E402
from hardware.image_file import read_image  # noqa: E402

THRESHOLDS = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6)
MIN_FACE = (0.0, 0.4, 0.5, 0.6, 0.7)
SAME_DIE = (0.6, 0.85, 1.0, 1.15)
# False: every peak above the threshold suppresses weaker ones near it (the reader today); True: only
# peaks read as a value do, so a stronger peak on a side face rejected as not a die frees the die.
READ_SUPPRESSES = (False, True)
# Session 9: a threshold relative to the photo's strongest peak as well (heat >= max(threshold, r x top)):
# on hex-trays the dice's heat is lower than on the training groups, so one absolute threshold either
# misses dice or keeps false peaks; 0.0 is the reader today.
RELATIVE = (0.0, 0.4, 0.5, 0.6)


@dataclass
class Photo:
    """One photo's heatmap maxima (frame pixels, strongest first), their probabilities, and its labels."""

    item: labelled.Labelled
    cands: np.ndarray  # N x 4: x, y, side, heat
    probs: np.ndarray  # N x 7


def candidates(reader: NetReader, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every heatmap local maximum above the lowest threshold, as ``NetReader.read`` would see them."""
    if reader.channels == 1 and reader.crop_channels == 1:
        frame = as_channels(frame, 1)
    shrink = 1.0
    if max(frame.shape[:2]) > WORK_SIDE:
        shrink = WORK_SIDE / max(frame.shape[:2])
        frame = cv2.resize(frame, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    det = as_channels(frame, reader.channels)
    first, fine = reader.heatmaps(det) if reader.second_look else (reader.heatmap(det), None)
    heat, scale = fine or first
    found = [(x / scale, y / scale, s / scale, p) for x, y, s, p in peaks(heat[0], heat[1], min(THRESHOLDS), 0.0)]
    probs = reader.classify(frame, found)
    cands = np.array(found, np.float64).reshape(-1, 4)
    cands[:, :3] /= shrink
    return cands, probs


def decide(photo: Photo, threshold: float, min_face: float, same_die: float, read_suppresses: bool,
           relative: float = 0.0, every: bool = False) -> list[tuple[float, float, int]]:
    """The readings (x, y, value) one setting gives (the reader's rule, replayed on stored maxima);
    ``every``: every peak the setting keeps, read or rejected (to tell a rejection from a miss)."""
    if relative and len(photo.cands):
        threshold = max(threshold, relative * float(photo.cands[0, 3]))
    kept: list[tuple[float, float, float]] = []
    out: list[tuple[float, float, int]] = []
    for (x, y, side, score), p in zip(photo.cands, photo.probs, strict=True):
        if score < threshold:
            break  # strongest first
        if any((x - a) ** 2 + (y - b) ** 2 <= (same_die * max(side, s)) ** 2 for a, b, s in kept):
            continue
        face = int(np.argmax(p[1:])) + 1
        is_read = p[face] >= min_face and p[face] >= p[NOT_A_DIE]
        if is_read or not read_suppresses:
            kept.append((x, y, side))
        if is_read or every:
            out.append((x, y, face))
    return out


def figures(photos: list[Photo], setting: tuple) -> dict[str, float]:
    """Image, die (matched by position, 2 px slack as ``dice_eval``) and count accuracy, and the breakdown."""
    c: Counter = Counter()
    for ph in photos:
        reads = decide(ph, *setting)
        n = len(ph.item.dice)
        pairs = pair(ph.item.dice, reads, slack=2)
        right = sum(reads[j][2] == ph.item.dice[i].value for i, j in pairs.items())
        c.update(images=1, dice=n, right=right, wrong=len(pairs) - right, unpaired=n - len(pairs),
                 extra=len(reads) - len(pairs), image_right=sorted(r[2] for r in reads) == ph.item.values,
                 count_right=len(reads) == n, over=len(reads) > n, under=len(reads) < n)
    return {"image": c["image_right"] / c["images"], "die": c["right"] / max(1, c["dice"]),
            "count": c["count_right"] / c["images"], **{k: c[k] for k in ("images", "dice", "right", "wrong", "unpaired", "extra", "over", "under")}}


def breakdown(reader: NetReader, photos: list[Photo], setting: tuple) -> None:
    """Per labelled die: right, wrong, rejected, missed (no peak at the setting); extra readings per photo."""
    c: Counter = Counter()
    for ph in photos:
        reads = decide(ph, *setting)
        pairs = pair(ph.item.dice, reads, slack=2)
        # the peaks the setting keeps at all (read or not), to tell a rejection from a miss
        peaks_kept = decide(ph, *setting, every=True)
        ppairs = pair(ph.item.dice, peaks_kept, slack=2)
        for i, d in enumerate(ph.item.dice):
            if i in pairs:
                c["right" if reads[pairs[i]][2] == d.value else "wrong"] += 1
            elif i in ppairs:
                c["rejected"] += 1
            else:
                c["missed"] += 1
        c["extra"] += len(reads) - len(pairs)
        c["dice"] += len(ph.item.dice)
        diff = len(reads) - len(ph.item.dice)
        c["count over" if diff > 0 else "count under" if diff < 0 else "count right"] += 1
    n = max(1, c["dice"])
    print(f"    labelled dice {c['dice']}: right {c['right']} ({c['right'] / n:.3f}), wrong value {c['wrong']}, "
          f"rejected {c['rejected']}, missed (no peak) {c['missed']}; extra readings (no labelled die) {c['extra']} "
          f"({c['extra'] / n:.2f} per die); photos counted over {c['count over']}, under {c['count under']}, "
          f"right {c['count right']}", flush=True)


def load(reader: NetReader, items: list[tuple[np.ndarray | None, labelled.Labelled]]) -> list[Photo]:
    out = []
    for img, item in items:
        frame = read_image(item.path) if img is None else img
        cands, probs = candidates(reader, frame)
        out.append(Photo(item, cands, probs))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fold", type=Path, required=True, help="the fold's weights folder")
    ap.add_argument("--hold-out", required=True, choices=labelled.GROUPS)
    ap.add_argument("--per-group", type=int, default=60, help="training photos a group (any number of dice) to choose on")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--store", type=Path, help="keep the photos' maxima here (pickle) and reuse them when it exists")
    ap.add_argument("--held-limit", type=int, default=0, help="read only this many held-out photos (0: all; for a quick look)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    from dice_eval import groups_items

    reader = NetReader(args.fold)
    items = groups_items(shared_data())
    tuned = (reader.threshold, reader.min_face, reader.same_die, False, 0.0)
    rng = np.random.default_rng(args.seed)
    if args.store and args.store.is_file():  # the maxima read before (same fold, same photos)
        train, held = pickle.loads(args.store.read_bytes())
    else:
        train = []
        for g in sorted(items):
            if g == args.hold_out:
                continue
            pool = [p for p in items[g] if p[1].dice]
            train += load(reader, [pool[k] for k in rng.permutation(len(pool))[: args.per_group]])
        held = load(reader, items[args.hold_out][: args.held_limit or None])
        if args.store:
            save_bytes_atomic(args.store, pickle.dumps((train, held)))
    print(f"fold {args.fold}: {len(train)} training photos ({args.per_group} a group), held out {args.hold_out} {len(held)}")
    settings = list(itertools.product(THRESHOLDS, MIN_FACE, SAME_DIE, READ_SUPPRESSES, RELATIVE))
    scored = [(figures(train, s), s) for s in settings]
    for label, key in (("count", lambda f: (f[0]["count"], f[0]["image"])), ("image", lambda f: (f[0]["image"], f[0]["count"])),
                       ("die", lambda f: (f[0]["die"], f[0]["count"]))):
        best, setting = max(scored, key=key)
        out = figures(held, setting)
        print(f"  chosen for training {label}: threshold {setting[0]}, least face probability {setting[1]}, same die {setting[2]}, "
              f"{'read dice' if setting[3] else 'every peak'} suppress, relative {setting[4]}; training image {best['image']:.3f} die {best['die']:.3f} "
              f"count {best['count']:.3f}; held out image {out['image']:.3f} die {out['die']:.3f} count {out['count']:.3f}")
        breakdown(reader, held, setting)
    t = figures(train, tuned)
    h = figures(held, tuned)
    print(f"  the fold's tuning {tuned}: training image {t['image']:.3f} die {t['die']:.3f} count {t['count']:.3f}; "
          f"held out image {h['image']:.3f} die {h['die']:.3f} count {h['count']:.3f}")
    breakdown(reader, held, tuned)
    for rs in READ_SUPPRESSES:  # the held-out group's sensitivity, for the record only (never chosen on)
        s = (reader.threshold, reader.min_face, reader.same_die, rs, 0.0)
        h = figures(held, s)
        print(f"    held out at the tuning, {'read dice' if rs else 'every peak'} suppress: image {h['image']:.3f} die {h['die']:.3f} count {h['count']:.3f}")
    for th in THRESHOLDS:
        h = figures(held, (th, reader.min_face, reader.same_die, False, 0.0))
        print(f"    held out at threshold {th} (else the tuning, not chosen on): image {h['image']:.3f} die {h['die']:.3f} "
              f"count {h['count']:.3f}, over {h['over']}, under {h['under']}, extra {h['extra']}")
    for r in RELATIVE[1:]:  # likewise for the record: the relative threshold over the fold's tuning
        h = figures(held, (*tuned[:4], r))
        print(f"    held out at relative {r} over the tuning (not chosen on): image {h['image']:.3f} die {h['die']:.3f} "
              f"count {h['count']:.3f}, over {h['over']}, under {h['under']}, extra {h['extra']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
