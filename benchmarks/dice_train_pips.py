"""Train the pip reader's two models (top-face pips, top faces) from the development photos.

    .venv/bin/python benchmarks/dice_train_pips.py            # writes hardware/dice/pip_model.py
    .venv/bin/python benchmarks/dice_train_pips.py --folds 2  # also prints held-out image accuracy

A pip candidate is labelled "top" when its centre lies inside one of the
YOLO boxes beside each photo (they enclose the top face's pips).  A face
candidate (a centrally symmetric pip pattern, hardware.dice.pips.symmetric_patterns)
is labelled "top face" when its centre lies in a box grown by a quarter and it
has as many pips as the box's class says.  Both models are logistic regressions
over scale-free features (hardware.dice.pips.FEATURES, FACE_FEATURES) and their
squares, fitted by plain gradient descent with L2 from zero, so the result is
deterministic and needs nothing beyond numpy.  With --folds the photos are split by file order
into folds; each fold is read with a model trained on the others, which is the
honest figure for photos the reader has never seen.
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
from hardware.dice.evaluation import Result, evaluate, load_manifest  # noqa: E402
from hardware.dice.pips import (  # noqa: E402
    PipParams,
    TopModel,
    expand,
    face_candidates,
    face_design,
    locate_pips,
    pip_features,
    read_pips,
)

MODEL_FILE = ROOT / "hardware" / "dice" / "pip_model.py"

# The models learn from the pips as the sharp path finds them: a blurred frame's second look
# at a lower contrast (PipParams.blur_contrast) only recovers pips when reading.
TRAIN_PARAMS = PipParams(blur_contrast=0.0)


def _boxes(folder: Path, row: dict[str, str], w: int, h: int, grow: float = 0.0) -> list[tuple[float, ...]]:
    boxes = []
    for line in (folder / row["path"]).with_suffix(".txt").read_text().split("\n"):
        if line.strip():
            c, cx, cy, bw, bh = (float(v) for v in line.split())
            bw, bh = bw * (1 + grow), bh * (1 + grow)
            boxes.append(((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h, int(c) + 1))
    return boxes


def labelled_faces(folder: Path, rows: list[dict[str, str]], top: TopModel) -> tuple[np.ndarray, np.ndarray]:
    """Face candidates (found with the given pip model), labelled "top face"
    when their centre lies in a YOLO box grown by a quarter."""
    xs, ys = [], []
    for row in rows:
        gray = cv2.cvtColor(cv2.imread(str(folder / row["path"])), cv2.COLOR_BGR2GRAY)
        boxes = _boxes(folder, row, gray.shape[1], gray.shape[0], grow=0.25)
        candidates = face_candidates(gray, TRAIN_PARAMS, None, top)
        if not candidates:
            continue
        xs.append(face_design(candidates))
        ys.extend(
            any(b[0] <= c.x <= b[2] and b[1] <= c.y <= b[3] and len(c.pips) == b[4] for b in boxes) for c in candidates
        )
    return np.concatenate(xs), np.array(ys, np.float64)


def labelled_pips(folder: Path, rows: list[dict[str, str]]) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    params = TRAIN_PARAMS
    for row in rows:
        image = cv2.imread(str(folder / row["path"]))
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        h, w = gray.shape
        boxes = _boxes(folder, row, w, h)
        pips, regions, _ = locate_pips(gray, params)
        if not pips:
            continue
        xs.append(expand(pip_features(pips, regions)))
        ys.extend(any(b[0] <= q.x <= b[2] and b[1] <= q.y <= b[3] for b in boxes) for q in pips)
    return np.concatenate(xs), np.array(ys, np.float64)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 3000, rate: float = 0.5) -> TopModel:
    """Logistic regression over a design matrix (features already expanded)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-6
    z = (x - mean) / scale
    w = np.zeros(z.shape[1])
    b = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        g = p - y
        w -= rate * (z.T @ g / len(y) + l2 * w)
        b -= rate * float(g.mean())
    return TopModel(tuple(map(float, mean)), tuple(map(float, scale)), tuple(map(float, w)), float(b))


def train(folder: Path, rows: list[dict[str, str]]) -> tuple[TopModel, TopModel, int]:
    """Both models: the pip model first, then the face model on its output."""
    x, y = labelled_pips(folder, rows)
    top = fit(x, y)
    face = fit(*labelled_faces(folder, rows, top))
    return top, face, len(y)


def image_accuracy(folder: Path, rows: list[dict[str, str]], model: TopModel, face: TopModel) -> float:
    good = 0
    for row in rows:
        got = sorted(r.face for r in read_pips(cv2.imread(str(folder / row["path"])), model=model, face_model=face))
        good += got == sorted(int(v) for v in row["values"].split())
    return good / len(rows)


def write_model(model: TopModel, face: TopModel, n_pips: int, n_images: int) -> None:
    def fmt(v: tuple[float, ...]) -> str:
        # Sixteen numbers a line, so that the file stays readable and ruff leaves it alone (fmt: off).
        lines = [", ".join(f"{x:.6g}" for x in v[i : i + 16]) for i in range(0, len(v), 16)]
        return "(\n" + "".join(f"    {line},\n" for line in lines) + ")"

    MODEL_FILE.write_text(
        '"""The pip reader\'s models (generated by benchmarks/dice_train_pips.py; do not edit).\n\n'
        f"Trained on {n_pips} pip candidates from {n_images} photos of dice/webcam-train.\n"
        "The face model's weights: 20 pattern features, their squares, then the 16 x 16 face patch.\n"
        '"""\n\n'
        "# fmt: off\n"
        f"MEAN = {fmt(model.mean)}\n"
        f"SCALE = {fmt(model.scale)}\n"
        f"WEIGHTS = {fmt(model.weights)}\n"
        f"BIAS = {model.bias:.6g}\n"
        "\n# The face model (hardware.dice.pips.FACE_FEATURES).\n"
        f"FACE_MEAN = {fmt(face.mean)}\n"
        f"FACE_SCALE = {fmt(face.scale)}\n"
        f"FACE_WEIGHTS = {fmt(face.weights)}\n"
        f"FACE_BIAS = {face.bias:.6g}\n"
        "# fmt: on\n"
    )


def main() -> int:
    cv2.setNumThreads(1)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=shared_data() / "dice" / "webcam-train")
    ap.add_argument("--folds", type=int, default=0, help="also report held-out accuracy over this many folds")
    ap.add_argument("--no-write", action="store_true", help="do not overwrite the model file")
    args = ap.parse_args()
    with (args.data / "manifest.csv").open() as f:
        rows = list(csv.DictReader(f))
    if args.folds > 1:
        items = load_manifest(args.data / "manifest.csv")
        pooled = Result()
        for k in range(args.folds):
            train_rows = [r for i, r in enumerate(rows) if i % args.folds != k]
            test = [it for i, it in enumerate(items) if i % args.folds == k]
            top, face, _ = train(args.data, train_rows)
            r = evaluate(test, lambda frame, top=top, face=face: read_pips(frame, model=top, face_model=face))
            print(f"fold {k}: held-out image accuracy {r.image_right / r.images:.3f} on {r.images} images")
            pooled.images += r.images
            pooled.image_right += r.image_right
            pooled.dice_true += r.dice_true
            pooled.dice_matched += r.dice_matched
            pooled.count_right += r.count_right
        f = pooled.to_json()
        print(
            f"held-out over {args.folds} folds (each fold read by models trained on the others): image accuracy "
            f"{f['image_accuracy']:.3f}, die accuracy {f['die_accuracy']:.3f}, count accuracy {f['count_accuracy']:.3f}"
        )
    top, face, n_pips = train(args.data, rows)
    print(f"trained on {n_pips} pip candidates from {len(rows)} images")
    print(f"image accuracy on the training photos: {image_accuracy(args.data, rows, top, face):.3f}")
    if not args.no_write:
        write_model(top, face, n_pips, len(rows))
        print(f"wrote {MODEL_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
