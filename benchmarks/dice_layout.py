"""The pip-layout second opinion (``hardware/dice/pip_layout.py``) at the labelled boxes, leave one group out.

    PYTHONPATH=. .venv/bin/python benchmarks/dice_layout.py choose --fold hex-trays [--photos 100]
    PYTHONPATH=. .venv/bin/python benchmarks/dice_layout.py judge --fold hex-trays --rule RULE.json
    PYTHONPATH=. .venv/bin/python benchmarks/dice_layout.py fold --fold hex-trays --rule RULE.json   # for dice_eval.py
    PYTHONPATH=. .venv/bin/python benchmarks/dice_layout.py speed --fold - --rule RULE.json

``choose``: on every group but ``--fold`` (at most ``--photos`` photos each, spread over the group), each
labelled die is read by the fold's network (4 turns) and its pip candidates found once; then the layout
score's weights and the fusion's two thresholds are chosen to read most dice right at the boxes, each group
weighted equally.  Writes the choice as JSON.  ``judge``: the held-out group read with that choice, at the
labelled boxes (the layout alone, the network, the fusion; the fusion's confusion).  ``fold``: R's fold with the
choice in a copy of its ``tuning.json`` (``--out``), read end to end by ``dice_eval.py --folds``; ``speed``: the
shipped weights with the choice, ``dice_eval.py``'s speed figures.  Session 16, docs/dice.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import product
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from dice_eval import FOLDS, groups_items, speed, subsample  # noqa: E402

from companion.config import save_text_atomic  # noqa: E402
from companion.paths import shared_data  # noqa: E402
from hardware.dice import labelled, pip_layout  # noqa: E402
from hardware.dice.net import CLASSIFIER, DETECTOR, TUNING, WEIGHTS, NetReader, crop_die  # noqa: E402
from hardware.dice.pip_layout import LayoutFusion, fuse  # noqa: E402
from hardware.image_file import read_image  # noqa: E402

INSIDE = (0.0, 0.5, 1.0)
CENTRE = (0.0, 2.0, 4.0, 8.0)
BOOST = (0.25, 0.5, 1.0)
LAYOUT_SURE = (0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.01)  # 1.01: never
NET_UNSURE = (0.5, 0.6, 0.7, 0.8, 0.9, 1.01)


def collect(reader: NetReader, items: list) -> list[tuple[int, np.ndarray, list[np.ndarray]]]:
    """Each labelled die: its value, the network's probabilities (7) and its layout candidates per channel."""
    out = []
    for img, item in items:
        frame = read_image(item.path) if img is None else img
        boxes = [(d.x, d.y, d.size, 1.0) for d in item.dice]
        if not boxes:
            continue
        probs = reader.classify(frame, boxes, turns=4)
        for d, p in zip(item.dice, probs, strict=True):
            crop = crop_die(frame, d.x, d.y, d.size, pip_layout.CROP_SIDE, pip_layout.CONTEXT)
            out.append((d.value, p, [pip_layout.candidates(c) for c in pip_layout.channels(crop)]))
    return out


def net_value(p: np.ndarray) -> int:
    face = int(np.argmax(p[1:])) + 1
    return 0 if p[face] < p[0] else face


def layout_values(dice: list, w: pip_layout.LayoutWeights) -> list[pip_layout.LayoutReading | None]:
    return [pip_layout.read_candidates(c, w) for _, _, c in dice]


def accuracy(values: list[int], dice: list) -> float:
    return float(np.mean([v == d[0] for v, d in zip(values, dice, strict=True)])) if dice else 0.0


def choose(folds: Path, fold: str, photos: int, out: Path) -> None:
    cv2.setNumThreads(1)
    items = groups_items(shared_data())
    reader = NetReader(folds / fold)
    train = [g for g in labelled.GROUPS if g != fold]
    data = {}
    for g in train:
        started = time.process_time()
        data[g] = collect(reader, subsample(items[g], photos))
        print(f"{g}: {len(data[g])} dice, {time.process_time() - started:.0f} s", flush=True)
    # 1. the layout's own weights: most dice right by the layout alone, each group equally
    best = None
    for inside, centre in product(INSIDE, CENTRE):
        w = pip_layout.LayoutWeights(inside, centre)
        accs = {g: accuracy([r.value if r else 0 for r in layout_values(d, w)], d) for g, d in data.items()}
        mean = float(np.mean(list(accs.values())))
        print(f"  layout alone inside {inside} centre {centre}: {mean:.4f} " + " ".join(f"{g} {a:.3f}" for g, a in accs.items()))
        if best is None or mean > best[0] + 1e-12:
            best = (mean, w)
    w = best[1]
    layouts = {g: layout_values(d, w) for g, d in data.items()}
    # 2. the fusion: the layout's value replaces the network's when the layout is sure and the network is not
    fbest = None
    for sure, unsure, boost in product(LAYOUT_SURE, NET_UNSURE, BOOST):
        f = LayoutFusion(sure, unsure, boost)
        accs = {g: accuracy([fuse(p, r, f) for (_, p, _), r in zip(d, layouts[g], strict=True)], d) for g, d in data.items()}
        mean = float(np.mean(list(accs.values())))
        print(f"  fusion layout sure {sure} net unsure {unsure} boost {boost}: {mean:.4f} " + " ".join(f"{g} {a:.3f}" for g, a in accs.items()))
        if fbest is None or mean > fbest[0] + 1e-12:
            fbest = (mean, f)
    net = {g: accuracy([net_value(p) for _, p, _ in d], d) for g, d in data.items()}
    print(f"network alone: {np.mean(list(net.values())):.4f} " + " ".join(f"{g} {a:.3f}" for g, a in net.items()))
    choice = {"fold": fold, "groups": train, "photos": photos, "inside": w.inside, "centre": w.centre,
              "layout_sure": fbest[1].layout_sure, "net_unsure": fbest[1].net_unsure, "boost": fbest[1].boost,
              "layout_alone": best[0], "fusion": fbest[0], "network": float(np.mean(list(net.values())))}
    print(json.dumps(choice))
    save_text_atomic(out, json.dumps(choice, indent=1) + "\n")


def judge(folds: Path, fold: str, rule: Path, groups: list[str]) -> None:
    cv2.setNumThreads(1)
    choice = json.loads(rule.read_text())
    w = pip_layout.LayoutWeights(choice["inside"], choice["centre"])
    f = LayoutFusion(choice["layout_sure"], choice["net_unsure"], choice["boost"])
    items = groups_items(shared_data())
    reader = NetReader(folds / fold)
    for g in groups:
        d = collect(reader, items[g])
        lay = layout_values(d, w)
        net = [net_value(p) for _, p, _ in d]
        fused = [fuse(p, r, f) for (_, p, _), r in zip(d, lay, strict=True)]
        seen = "held out" if g == fold else "seen (chosen on it)" if g in choice["groups"] else "not in the choice"
        print(f"{g} ({seen}), {len(d)} dice at the labelled boxes: network {accuracy(net, d):.3f}, "
              f"layout alone {accuracy([r.value if r else 0 for r in lay], d):.3f} (no reading {sum(r is None for r in lay)}), "
              f"fusion {accuracy(fused, d):.3f} (changed {sum(a != b for a, b in zip(net, fused, strict=True))})")
        for name, vals in (("layout alone", [r.value if r else 0 for r in lay]), ("fusion", fused)):
            m = np.zeros((6, 7), int)
            for v, (t, _, _) in zip(vals, d, strict=True):
                m[t - 1, v] += 1
            print(f"  confusion, {name} (rows true 1-6; columns no reading / not a die, 1-6):")
            for t in range(6):
                print(f"  {t + 1}: " + " ".join(f"{x:4d}" for x in m[t]))


LAYOUT_KEYS = {"inside": "layout_inside", "centre": "layout_centre", "layout_sure": "layout_sure",
               "net_unsure": "layout_net_unsure", "boost": "layout_boost"}


def with_choice(weights: Path, out: Path, choice: dict) -> Path:
    """A copy of a weights folder (the ONNX linked) whose ``tuning.json`` adds the layout's chosen keys."""
    out.mkdir(parents=True, exist_ok=True)
    for name in (DETECTOR, CLASSIFIER):
        if not (out / name).exists():
            (out / name).symlink_to((weights / name).resolve())
    tuning = json.loads((weights / TUNING).read_text())
    tuning.update({key: choice[k] for k, key in LAYOUT_KEYS.items()})
    save_text_atomic(out / TUNING, json.dumps(tuning, indent=1) + "\n")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("choose", "judge", "fold", "speed"))
    ap.add_argument("--out", type=Path, default=Path("benchmarks/out/dice-folds-layout"))
    ap.add_argument("--fold", required=True)
    ap.add_argument("--folds", type=Path, default=FOLDS, help="the folds' weights (R's: dice_train.py --hold-out)")
    ap.add_argument("--photos", type=int, default=100)
    ap.add_argument("--rule", type=Path, default=Path("benchmarks/out/layout-choice.json"))
    ap.add_argument("--groups", nargs="*", default=None)
    args = ap.parse_args()
    if args.what == "choose":
        args.rule.parent.mkdir(parents=True, exist_ok=True)
        choose(args.folds, args.fold, args.photos, args.rule)
    elif args.what == "judge":
        judge(args.folds, args.fold, args.rule, args.groups or [args.fold])
    elif args.what == "fold":  # R's fold with the choice, for dice_eval.py --folds OUT
        print(with_choice(args.folds / args.fold, args.out / args.fold, json.loads(args.rule.read_text())))
    else:  # the shipped weights with the choice, through dice_eval.py's speed figures
        cv2.setNumThreads(1)
        speed(NetReader(with_choice(WEIGHTS, args.out / "shipped", json.loads(args.rule.read_text()))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
