"""Train the pip-dice reader's two networks and export them to ONNX (``make train-dice``).

    .venv/bin/python benchmarks/dice_train.py [--out hardware/dice/weights] [--hold-out GROUP | --within]

Needs the ``train`` extra (``pip install -e '.[train]'``: torch==2.13.0 CPU,
onnx) and the shared data; the reader itself needs neither.  Seeded: the same
command gives the same weights on the same machine (one thread).

- no option: trained on every group (webcam-train, the four roboflow-mixed
  groups, the synthetic renders): the shipped weights;
- ``--hold-out GROUP``: trained and tuned without that group (a
  leave-one-group-out fold of ``benchmarks/dice_eval.py``);
- ``--within``: trained on every group less a fifth of each group's split
  units, which the benchmark then reads (the within-group figure);
- ``--face-name NAME --seed N``: a further face classifier of an ensemble
  (session 17), trained on the detector already in ``--out`` and written
  there as NAME, listed in its tuning.json's ``faces_extra``; tune the
  ensemble after with ``--tune-only``.

``make train-dice-folds`` writes every fold to ``benchmarks/out/dice-folds/``.
The networks and the recipe are described in docs/dice.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.config import atomic_writer, save_text_atomic  # noqa: E402
from companion.paths import shared_data  # noqa: E402
from hardware.dice import labelled  # noqa: E402
from hardware.dice.net import (  # noqa: E402
    CLASSIFIER,
    CROP,
    CROP_CONTEXT,
    DETECTOR,
    FACE_COLOURS,
    FACES_EXTRA,
    STRIDE,
    TUNING,
    TURNS,
    detector_input,
    project_face,
)
from hardware.testing.pip_render import render_set  # noqa: E402

CACHE = ROOT / "benchmarks" / "out" / "dice-cache-v3.npz"  # detector images and crops, in BGR and in grey
SYNTH_TRAIN = (1600, 1601)  # (images, seed) of the synthetic training renders
SYNTH_TEST = (300, 9001)  # the synthetic group's images the benchmark reads (never trained on by its fold)
# The classifier's extra renders (images, seed, share of dice tilted): dice seen obliquely, marbled and
# glittering (pip_render._draw_tilted_die), as crops only, so the detector's training data is unchanged.
FACE_RENDERS = (1600, 1602, 0.7)
FACE_CACHE = ROOT / "benchmarks" / "out" / "dice-face-renders-v1.npz"
# session 13's --face-render-view perspective: the same renders, their tilted dice drawn by a pinhole camera
# (pip_render._draw_perspective_die) instead
FACE_CACHE_PERSPECTIVE = ROOT / "benchmarks" / "out" / "dice-face-renders-persp-v1.npz"
# session 22's --face-render-view ghost: the orthographic renders, their tilted dice now and then translucent with
# the hidden faces' pips showing through, or in large two-colour swirls (pip_render._draw_tilted_die(ghost=True))
FACE_CACHE_GHOST = ROOT / "benchmarks" / "out" / "dice-face-renders-v2.npz"
FACE_RENDER_VIEWS = {"orthographic": FACE_CACHE, "perspective": FACE_CACHE_PERSPECTIVE, "ghost": FACE_CACHE_GHOST}
STORE = 64  # stored classifier crops: STORE px for STORE_CONTEXT x the die's side
STORE_CONTEXT = 2.0
PATCH = 128  # detector training patches (detector-input pixels)
# the detector's channels: stride 2, 4, 4 (s4), the stride-8 branch, the fusion; session 19: the wider detector
# (sessions 13 and 18); a tuning.json without detector_widths was trained with the former widths
DETECTOR_WIDTHS = (16, 32, 48, 48, 32, 16)
FORMER_DETECTOR_WIDTHS = (8, 16, 24, 32, 24, 16)
FACE_WIDTHS = (16, 32, 64)  # the face classifier's channels at full, half and quarter crop resolution
MOTION_SHARE = LOWRES_SHARE = 0.25  # session 12's --face-blur: the crops given motion blur, lost resolution
GREY_SHARE = 0.3  # colour detector: this share of colour training patches is shown in grey (three equal channels)
# session 21's --face-style: style randomisation of the classifier's crops (domain generalisation), off by default.
# randconv: RandConv (Xu et al., ICLR 2021), a random Gaussian kernel of one of these sides; a 1 x 1 kernel on a
# grey crop is only a scale, which the crop's normalisation undoes, so it is left out
RANDCONV_SIDES = (3, 5, 7)
CURVE_KNOTS = 6  # curve: a random piecewise-linear tone curve through this many knots over the crop's range
CURVE_NONMONOTONE = 0.3  # of the curves, this share not monotone (partial inversion: pips that turn lighter)
FACE_STYLES = ("none", "randconv", "curve", "both")


def detector_widths_of(tuning: dict) -> tuple[int, ...]:
    """The widths a folder's detector was trained with, as its ``tuning.json`` records them; a tuning written before
    the widths were recorded was trained with the former default (``DETECTOR_WIDTHS`` before session 19)."""
    return tuple(tuning.get("detector_widths", FORMER_DETECTOR_WIDTHS))


# ----------------------------------------------------------------------------- data


def save_npz(path: Path, **arrays: np.ndarray) -> None:
    """``np.savez`` through a temporary file renamed into place: a training stopped while it writes a cache of
    gigabytes leaves no half cache for the next run to load (the name as given: np.savez adds .npz only to names)."""
    with atomic_writer(path) as f:
        np.savez(f, **arrays)


def synthetic_items(n: int, seed: int, size: int = 320, tilted: float = 0.0,
                    perspective: bool = False, ghost: bool = False) -> list[tuple[np.ndarray, labelled.Labelled]]:
    out = []
    for k, (img, dice) in enumerate(render_set(n, seed, size, tilted, perspective, ghost)):
        item = labelled.Labelled(
            Path(f"synthetic/{seed}-{k}.png"),
            labelled.SYNTHETIC,
            f"synthetic/{seed}-{k}",
            tuple(labelled.LabelledDie(x, y, s, v) for x, y, s, v in dice),
        )
        out.append((img, item))
    return out


def store_side(crop: int) -> int:
    """The stored crops' side for a classifier read at ``crop`` px (session 16): the shipped 32 px crop's
    ratio (64 px for two die sides), so a finer crop is cut from a finer stored one instead of being upsampled;
    never coarser than ``STORE`` (the former cache)."""
    return max(STORE, STORE * crop // CROP)


def _store_crop(frame: np.ndarray, x: float, y: float, side: float, store: int = STORE) -> np.ndarray:
    half = STORE_CONTEXT * side / 2
    m = np.float32([[store / (2 * half), 0, store / 2 - x * store / (2 * half)], [0, store / (2 * half), store / 2 - y * store / (2 * half)]])
    if 2 * half > 2 * store:  # large die: shrink first so the warp does not alias
        f = store * 1.5 / (2 * half)
        small = cv2.resize(frame, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        m = m.copy()
        m[:, :2] /= f
        return cv2.warpAffine(small, m, (store, store), borderMode=cv2.BORDER_REPLICATE)
    return cv2.warpAffine(frame, m, (store, store), borderMode=cv2.BORDER_REPLICATE)


def _negatives(rng: np.random.Generator, frame: np.ndarray, item: labelled.Labelled, n: int) -> list[tuple[float, float, float]]:
    """Where to cut crops with no die at their centre (x, y, side): the surface, clutter, half a die."""
    h, w = frame.shape[:2]
    out = []
    sides = [d.size for d in item.dice] or [min(h, w) / 8]
    for _ in range(n * 4):
        if len(out) >= n:
            break
        side = float(rng.choice(sides)) * rng.uniform(0.8, 1.25)
        if rng.random() < 0.5 and item.dice:
            d = item.dice[int(rng.integers(len(item.dice)))]
            a = rng.uniform(0, 2 * math.pi)
            r = d.size * rng.uniform(0.6, 0.9)
            x, y = d.x + r * math.cos(a), d.y + r * math.sin(a)
        else:
            x, y = rng.uniform(0, w), rng.uniform(0, h)
        if all(math.hypot(x - d.x, y - d.y) > 0.55 * d.size for d in item.dice):
            out.append((x, y, side))
    return out


def _training_pairs(shared: Path) -> list[tuple[np.ndarray | None, labelled.Labelled]]:
    """Every labelled photo (its image read when needed), then the synthetic training and test renders."""
    groups = labelled.real_groups(shared)
    pairs: list[tuple[np.ndarray | None, labelled.Labelled]] = [(None, i) for g in groups.values() for i in g]
    return pairs + synthetic_items(*SYNTH_TRAIN) + synthetic_items(*SYNTH_TEST)


def _item_crops(rng: np.random.Generator, frame: np.ndarray, gray: np.ndarray, item: labelled.Labelled,
                store: int = STORE) -> tuple[list[np.ndarray], list[np.ndarray], list[int]]:
    """One image's stored crops (BGR, grey) and values: each labelled die, then some non-dice (0)."""
    cuts = [(d.x, d.y, d.size, d.value) for d in item.dice]
    cuts += [(x, y, side, 0) for x, y, side in _negatives(rng, frame, item, max(1, len(item.dice) // 2))]
    return ([_store_crop(frame, x, y, s, store) for x, y, s, _ in cuts], [_store_crop(gray, x, y, s, store) for x, y, s, _ in cuts],
            [v for *_, v in cuts])


def build_cache(shared: Path, seed: int = 0) -> dict[str, np.ndarray]:
    """Every image as the detector sees it, and every die (and some non-dice) as stored crops: in BGR and in grey.

    The grey ones are made from the grey frame (grey, then scaled or cut), as
    the grey networks' training always made them, so ``--channels 1
    --face-channels 1`` trains on exactly what the shipped weights were trained on.
    """
    rng = np.random.default_rng(seed)
    images, greys, img_meta, dice_rows, crops, grey_crops, crop_meta = [], [], [], [], [], [], []
    for idx, (img, item) in enumerate(_training_pairs(shared)):
        frame = cv2.imread(str(item.path)) if img is None else img
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small, scale = detector_input(frame)
        images.append(small)
        greys.append(detector_input(gray)[0])
        test = item.group == labelled.SYNTHETIC and item.unit.startswith(f"synthetic/{SYNTH_TEST[1]}-")
        img_meta.append((item.group, item.unit, test))
        for d in item.dice:
            dice_rows.append((idx, d.x * scale, d.y * scale, d.size * scale, d.value))
        bgr, grey, values = _item_crops(rng, frame, gray, item)
        crops += bgr
        grey_crops += grey
        crop_meta += [(idx, v) for v in values]
    shapes = np.array([i.shape for i in images])
    flat = np.concatenate([i.ravel() for i in images])
    return {
        "flat": flat,
        "flat_grey": np.concatenate([i.ravel() for i in greys]),
        "shapes": shapes,
        "group": np.array([m[0] for m in img_meta]),
        "unit": np.array([m[1] for m in img_meta]),
        "synth_test": np.array([m[2] for m in img_meta]),
        "dice": np.array(dice_rows, np.float32).reshape(-1, 5),
        "crops": np.stack(crops),
        "crops_grey": np.stack(grey_crops),
        "crop_meta": np.array(crop_meta, np.int64),
    }


def crops_cache(store: int, cache: Path = CACHE) -> Path:
    """Where the stored crops at ``store`` px live: in the training cache itself at ``STORE``, else a file of
    their own beside it (session 16), so the former cache and the recipes reading it stay as they were."""
    return cache if store == STORE else cache.with_name(f"{cache.stem}-crops{store}.npz")


def build_crops(shared: Path, store: int, seed: int = 0) -> dict[str, np.ndarray]:
    """``build_cache``'s crops alone, at ``store`` px: the same dice and the same non-dice (the same random
    draws, which depend on the images alone), in the same order."""
    rng = np.random.default_rng(seed)
    crops, grey_crops, crop_meta = [], [], []
    for idx, (img, item) in enumerate(_training_pairs(shared)):
        frame = cv2.imread(str(item.path)) if img is None else img
        bgr, grey, values = _item_crops(rng, frame, cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), item, store)
        crops += bgr
        grey_crops += grey
        crop_meta += [(idx, v) for v in values]
    return {"crops": np.stack(crops), "crops_grey": np.stack(grey_crops), "crop_meta": np.array(crop_meta, np.int64)}


def finer_crops(data: dict[str, np.ndarray], shared: Path, store: int, cache: Path = CACHE) -> dict[str, np.ndarray]:
    """``data`` with its stored crops at ``store`` px (built once into ``crops_cache``); unchanged at ``STORE``."""
    if store == STORE:
        return data
    path = crops_cache(store, cache)
    if not path.is_file():
        started = time.time()
        save_npz(path, **build_crops(shared, store))
        print(f"crops at {store} px built in {time.time() - started:.0f} s: {path}", flush=True)
    with np.load(path) as z:
        finer = {k: z[k] for k in z.files}
    if not np.array_equal(finer["crop_meta"], data["crop_meta"]):
        raise SystemExit(f"{path} does not hold {cache}'s crops: delete it to build it again")
    return {**data, **finer}


def face_render_crops(renders: tuple[int, int, float] = FACE_RENDERS, view: str = "orthographic",
                      store: int = STORE) -> dict[str, np.ndarray]:
    """The classifier's extra renders as stored crops (BGR and grey, ``store`` px) and their values (0: not a
    die); built once. ``view``: how their tilted dice are drawn (``FACE_RENDER_VIEWS``; each its own cache)."""
    cache = crops_cache(store, FACE_RENDER_VIEWS[view])
    if cache.is_file():
        with np.load(cache) as z:
            if tuple(z["renders"].tolist()) == tuple(renders):
                return {k: z[k] for k in z.files}
    started = time.time()
    rng = np.random.default_rng(renders[1] + 1)
    crops, grey_crops, values = [], [], []
    for frame, item in synthetic_items(*renders[:2], tilted=renders[2], perspective=view == "perspective",
                                       ghost=view == "ghost"):
        bgr, grey, item_values = _item_crops(rng, frame, cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), item, store)
        crops += bgr
        grey_crops += grey
        values += item_values
    data = {"crops": np.stack(crops), "crops_grey": np.stack(grey_crops), "values": np.array(values, np.int64),
            "renders": np.array(renders, np.float64)}
    cache.parent.mkdir(parents=True, exist_ok=True)
    save_npz(cache, **data)
    print(f"classifier renders built in {time.time() - started:.0f} s: {len(values)} crops, {cache}", flush=True)
    return data


def load_cache(shared: Path, cache: Path = CACHE) -> dict[str, np.ndarray]:
    """The training data (built once, then read: delete the file after changing the renders)."""
    if not cache.is_file():
        cache.parent.mkdir(parents=True, exist_ok=True)
        started = time.time()
        data = build_cache(shared)
        save_npz(cache, **data)
        print(f"cache built in {time.time() - started:.0f} s: {cache}", flush=True)
    with np.load(cache) as z:
        return {k: z[k] for k in z.files}


def unpack_images(data: dict[str, np.ndarray], channels: int = 1) -> list[np.ndarray]:
    """The cached detector images: BGR, or grey for a grey detector (``channels`` 1)."""
    flat = data["flat"] if channels == 3 else data["flat_grey"]
    out, at = [], 0
    for h, w, _ in data["shapes"]:
        c = channels
        out.append(flat[at : at + h * w * c].reshape((h, w, c) if c == 3 else (h, w)))
        at += h * w * c
    return out


def fold_images(data: dict[str, np.ndarray], hold_out: str | None, within: bool) -> np.ndarray:
    """Which images a fold trains on (boolean per image)."""
    train = ~data["synth_test"]
    if hold_out:
        train &= data["group"] != hold_out
    if within:
        for g in labelled.GROUPS:
            held = labelled.held_out_units(data["unit"][data["group"] == g].tolist())
            train &= ~np.isin(data["unit"], list(held))
    return train


# ----------------------------------------------------------------------------- networks


def networks():
    import torch
    from torch import nn

    def block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    class Detector(nn.Module):
        """Frame (channels x H x W, 0..1: BGR or grey) -> heat (sigmoid) and log side/4, at H/4 x W/4."""

        def __init__(self, channels: int = 1, widths: tuple[int, ...] = DETECTOR_WIDTHS) -> None:
            super().__init__()
            a, b, c, d, e, f = widths
            self.s4 = nn.Sequential(block(channels, a, 2), block(a, b, 2), block(b, c))
            self.s8 = nn.Sequential(block(c, d, 2), block(d, d), block(d, d, dilation=2), block(d, d, dilation=4))
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.fuse = nn.Sequential(nn.Conv2d(c + d, e, 1, bias=False), nn.BatchNorm2d(e), nn.ReLU(inplace=True), block(e, f))
            self.head = nn.Conv2d(f, 2, 1)
            self.head.bias.data[0] = -4.0

        def forward(self, x):
            a = self.s4(x)
            b = self.up(self.s8(a))
            out = self.head(self.fuse(torch.cat([a, b], 1)))
            return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], 1)

    class Faces(nn.Module):
        """A normalised crop (channels x crop x crop: BGR or grey) -> probabilities of: not a die, 1..6."""

        def __init__(self, channels: int = 1, widths: tuple[int, ...] = FACE_WIDTHS) -> None:
            super().__init__()
            a, b, c = widths
            self.body = nn.Sequential(
                block(channels, a), nn.MaxPool2d(2),
                block(a, b), block(b, b), nn.MaxPool2d(2),
                block(b, c), nn.MaxPool2d(2),
                block(c, c), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                nn.Linear(c, 7),
            )

        def forward(self, x, probabilities: bool = True):
            logits = self.body(x)
            return torch.softmax(logits, 1) if probabilities else logits

    return Detector, Faces


# ----------------------------------------------------------------------------- detector training


def _step(opt, sched, loss, what: str, started: float, report: bool) -> None:
    """One optimiser step (and the learning-rate schedule's), with a progress line now and then."""
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if report:
        print(f"  {what} loss {loss.item():.3f} ({time.time() - started:.0f} s)", flush=True)


def colour_jitter(rng: np.random.Generator, p: np.ndarray, permute: float = 0.0) -> np.ndarray:
    """A colour patch (H x W x 3) shown as a grey camera would (``GREY_SHARE``), or white-balanced otherwise,
    its channels swapped at random with probability ``permute`` (a die's colour does not change its value)."""
    if p.ndim != 3:
        return p
    if rng.random() < GREY_SHARE:  # a grey camera: three equal channels
        return np.repeat(p.mean(axis=2, keepdims=True), 3, axis=2)
    if rng.random() < permute:
        p = p[..., rng.permutation(3)]
    if rng.random() < 0.5:  # another white balance
        p = p * rng.uniform(0.85, 1.15, 3).astype(np.float32)
    return p


def detector_sample(rng: np.random.Generator, img: np.ndarray, dice: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A random patch (scale, quarter turn, flip, light, inversion; colour: grey share, tint) and its targets.

    ``img`` is BGR (H x W x 3) for a colour detector, grey (H x W) for a grey one.
    """
    scale = math.exp(rng.uniform(math.log(0.5), math.log(2.0)))
    h, w = img.shape[:2]
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    m = np.float32([[scale, 0, PATCH / 2 - cx * scale], [0, scale, PATCH / 2 - cy * scale]])
    patch = cv2.warpAffine(img, m, (PATCH, PATCH), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    pts = dice[:, 1:3] * scale + m[:, 2]
    sides = dice[:, 3] * scale
    k = int(rng.integers(4))
    patch = np.rot90(patch, k)
    for _ in range(k):  # rot90 turns counter-clockwise: (x, y) -> (y, W - 1 - x)
        pts = np.stack([pts[:, 1], PATCH - pts[:, 0]], 1)
    if rng.random() < 0.5:
        patch = patch[:, ::-1]
        pts = np.stack([PATCH - pts[:, 0], pts[:, 1]], 1)
    p = colour_jitter(rng, patch.astype(np.float32))
    if rng.random() < 0.15:
        p = 255 - p
    p = p * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    if rng.random() < 0.3:
        p = cv2.GaussianBlur(p, (0, 0), rng.uniform(0.5, 1.5))
    p += rng.normal(0, rng.uniform(0, 6), p.shape[:2])[..., None] if p.ndim == 3 else rng.normal(0, rng.uniform(0, 6), p.shape)
    p = np.clip(p, 0, 255) / 255.0
    p = p.transpose(2, 0, 1) if p.ndim == 3 else p[None]
    g = PATCH // STRIDE
    heat = np.zeros((g, g), np.float32)
    size = np.zeros((g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for (x, y), s in zip(pts, sides, strict=True):
        i, j = int(x // STRIDE), int(y // STRIDE)
        if not (0 <= i < g and 0 <= j < g) or s < 4:
            continue
        sigma = max(0.6, 0.12 * s / STRIDE)
        heat = np.maximum(heat, np.exp(-((xx - i) ** 2 + (yy - j) ** 2) / (2 * sigma * sigma)))
        r = max(1.0, 0.15 * s / STRIDE)
        near = (xx - i) ** 2 + (yy - j) ** 2 <= r * r
        size[near] = math.log(s / STRIDE)
        mask[near] = 1
    return np.ascontiguousarray(p, np.float32), heat, size, mask


def train_detector(
    images: list[np.ndarray], dice: np.ndarray, chosen: np.ndarray, steps: int, seed: int,
    channels: int = 1, widths: tuple[int, ...] = DETECTOR_WIDTHS,
):
    import torch

    Detector, _ = networks()
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = Detector(channels, widths)
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 4e-3, total_steps=steps, pct_start=0.15)
    by_image = [dice[dice[:, 0] == i] for i in range(len(images))]
    index = np.nonzero(chosen)[0]
    groups = {}
    for i in index:
        groups.setdefault(GROUP_OF[i], []).append(i)
    names = sorted(groups)
    started = time.time()
    for step in range(steps):
        batch = []
        for _ in range(24):
            pool = groups[names[int(rng.integers(len(names)))]]
            i = pool[int(rng.integers(len(pool)))]
            batch.append(detector_sample(rng, images[i], by_image[i]))
        x = torch.from_numpy(np.stack([b[0] for b in batch]))
        heat = torch.from_numpy(np.stack([b[1] for b in batch]))
        size = torch.from_numpy(np.stack([b[2] for b in batch]))
        mask = torch.from_numpy(np.stack([b[3] for b in batch]))
        out = net(x)
        p = out[:, 0].clamp(1e-4, 1 - 1e-4)
        pos = (heat > 0.999).float()
        focal = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * (1 - heat) ** 4 * p**2 * torch.log(1 - p)).sum()
        loss = focal / pos.sum().clamp(min=1) + (mask * (out[:, 1] - size).abs()).sum() / mask.sum().clamp(min=1)
        _step(opt, sched, loss, f"detector step {step}/{steps}", started, step % 200 == 0)
    return net.eval()


# ----------------------------------------------------------------------------- face classifier training


def face_sample(rng: np.random.Generator, crop: np.ndarray, errors: np.ndarray | None = None, size: int = CROP,
                colour: str = "grey", blur: bool = False, style: str = "none", style_share: float = 0.0) -> np.ndarray:
    """The stored crop at a random angle, scale and offset, light and polarity, as the reader would cut it.

    ``colour`` (``FACE_COLOURS``; "grey": none): a BGR crop is projected on its own colours (their first
    component, or its pips' direction) once cut and re-white-balanced, as the reader projects its crops,
    before the grey augmentations.

    ``errors`` (N x 3: centre offset x and y in sides, log of the side ratio) are
    the fold's own detector's errors on its training dice: three crops in four
    are cut where that detector would put them (one of its errors, drawn at
    random, plus a little noise), the rest with a wider uniform jitter. ``blur``: also ``degrade`` it
    (session 12, measured: docs/dice.md). ``style`` (``FACE_STYLES``; "none", the default, draws no random
    number of its own, so the former recipe is unchanged): ``restyle`` a ``style_share`` of the crops (session 21).
    """
    store = crop.shape[0]  # the stored crop's side (``store_side``)
    side = store / STORE_CONTEXT  # the die's side in the stored crop
    if errors is not None and len(errors) and rng.random() < 0.75:
        dx, dy, log_ratio = errors[int(rng.integers(len(errors)))]
        offset = np.array([dx, dy]) * side + rng.normal(0, 0.02 * side, 2)
        jitter = math.exp(log_ratio) * rng.uniform(0.95, 1.05)
    else:
        offset = rng.normal(0, 0.09 * side, 2)
        jitter = math.exp(rng.uniform(math.log(0.6), math.log(1.4)))
    jitter = min(max(jitter, 0.5), STORE_CONTEXT / CROP_CONTEXT * 0.97)  # within what the stored crop holds
    out_side = CROP_CONTEXT * side * jitter  # what the reader's crop covers, in stored pixels
    f = size / out_side
    centre = np.array([store / 2, store / 2]) + np.clip(offset, -0.3 * side, 0.3 * side)
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), rng.uniform(0, 360), f)
    m[:, 2] += size / 2 - centre
    p = colour_jitter(rng, cv2.warpAffine(crop, m, (size, size), borderMode=cv2.BORDER_REPLICATE).astype(np.float32), 0.5)
    if colour != "grey":
        p = project_face(p[None], colour)[0]
    if rng.random() < 0.5:
        p = p[:, ::-1]
    if rng.random() < 0.3:
        p = 255 - p
    if rng.random() < 0.3:
        p = cv2.GaussianBlur(p, (0, 0), rng.uniform(0.4, 1.2))
    if blur:
        p = degrade(rng, p)
    if style != "none" and rng.random() < style_share:
        p = restyle(rng, p, style)
    p = p * rng.uniform(0.6, 1.4) + rng.normal(0, rng.uniform(0, 6), p.shape)
    return p


def degrade(rng: np.random.Generator, p: np.ndarray) -> np.ndarray:
    """Session 12's ``--face-blur``: what the hex-trays phone photos do to a die (docs/dice.md), on a cut
    crop: a quarter of the time motion blur (a line 2-5 crop pixels long at a random angle), a quarter of
    the time lost resolution (scaled down to 0.4-0.75 and back up)."""
    if rng.random() < MOTION_SHARE:
        n = int(rng.integers(2, 6))
        k = np.zeros((n + 2, n + 2), np.float32)
        k[(n + 2) // 2, 1 : n + 1] = 1.0
        k = cv2.warpAffine(k, cv2.getRotationMatrix2D(((n + 1) / 2, (n + 1) / 2), rng.uniform(0, 180), 1.0), k.shape[::-1])
        p = cv2.filter2D(p, -1, k / max(float(k.sum()), 1e-6), borderType=cv2.BORDER_REPLICATE)
    if rng.random() < LOWRES_SHARE:
        h, w = p.shape[:2]
        f = rng.uniform(0.4, 0.75)
        small = cv2.resize(p, (max(4, round(w * f)), max(4, round(h * f))), interpolation=cv2.INTER_AREA)
        p = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    return p


def restyle(rng: np.random.Generator, p: np.ndarray, style: str) -> np.ndarray:
    """Session 21's ``--face-style``: the crop's texture and tones changed, its shape (the pip layout) kept, so
    the classifier cannot lean on the training cameras' die bodies and pip contrasts (glitter, marbling, coloured
    pips in grey). "both" picks one of the two at random for each crop."""
    if style == "both":
        style = "randconv" if rng.random() < 0.5 else "curve"
    return random_convolution(rng, p) if style == "randconv" else tone_curve(rng, p)


def _in_range_of(out: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``out`` rescaled to ``p``'s mean and spread: the later light and noise see the crop's former levels."""
    spread = float(out.std())
    if spread < 1e-6:
        return p
    return ((out - float(out.mean())) * (float(p.std()) / spread) + float(p.mean())).astype(np.float32)


def random_convolution(rng: np.random.Generator, p: np.ndarray) -> np.ndarray:
    """RandConv with mixing: the crop through a kernel of Gaussian weights (``RANDCONV_SIDES``), rescaled to the
    crop's own levels and blended with it at a random weight, so some crops keep much of their look."""
    k = int(rng.choice(RANDCONV_SIDES))
    kernel = rng.normal(0, 1 / k, (k, k)).astype(np.float32)
    out = _in_range_of(cv2.filter2D(p, -1, kernel, borderType=cv2.BORDER_REPLICATE), p)
    mix = rng.uniform(0, 1)
    return (mix * out + (1 - mix) * p).astype(np.float32)


def tone_curve(rng: np.random.Generator, p: np.ndarray) -> np.ndarray:
    """A random tone curve over the crop's own range: piecewise linear through ``CURVE_KNOTS`` knots, monotone
    (rising or falling) but for ``CURVE_NONMONOTONE`` of the curves, after a random gamma."""
    lo, hi = float(p.min()), float(p.max())
    if hi - lo < 1e-6:
        return p
    t = ((p - lo) / (hi - lo)) ** math.exp(rng.uniform(-0.7, 0.7))  # gamma 0.5-2
    knots = rng.uniform(0, 1, CURVE_KNOTS)
    if rng.random() >= CURVE_NONMONOTONE:
        knots = np.sort(knots)[:: 1 if rng.random() < 0.5 else -1]
    out = np.interp(t, np.linspace(0, 1, CURVE_KNOTS), knots)
    return (lo + out * (hi - lo)).astype(np.float32)


def mine_detector(
    folder: Path, images: list[np.ndarray], dice: np.ndarray, chosen: np.ndarray, seed: int, per_group: int = 300,
    crop_from: list[np.ndarray] | None = None, store: int = STORE,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the fold's own detector does on its training photos: its false finds and its errors on real dice.

    The false finds (a peak where no labelled die lies: side faces, keys,
    labels) become *not a die* crops, so the classifier learns to reject
    exactly the detector's mistakes.  For each labelled die the detector finds
    (its nearest peak within half a side), the error: centre offset in sides
    and log of the side ratio, so the classifier is trained on crops cut
    where this detector puts them (``face_sample``).  The hard negatives are
    cut from ``crop_from`` (the same images in BGR, for a classifier that
    projects colours) when given, else from the detector's own images, at ``store`` px.
    """
    import cv2 as cv

    from hardware.dice.net import detector_blob, peaks

    net = cv.dnn.readNetFromONNX(str(folder / DETECTOR))
    rng = np.random.default_rng(seed + 3)
    by_group: dict[str, list[int]] = {}
    for i in np.nonzero(chosen)[0]:
        by_group.setdefault(GROUP_OF[i], []).append(int(i))
    crops, meta, errors = [], [], []
    for g in sorted(by_group):
        for i in rng.permutation(by_group[g])[:per_group]:
            img = images[i]
            net.setInput(detector_blob(img, 1 if img.ndim == 2 else 3))
            out = net.forward()[0]
            labels = dice[dice[:, 0] == i]
            found = peaks(out[0], out[1], 0.15, 0.6)
            for x, y, side, _score in found:
                if all(math.hypot(x - d[1], y - d[2]) > 0.5 * d[3] for d in labels):
                    crops.append(_store_crop(img if crop_from is None else crop_from[i], x, y, side, store))
                    meta.append((i, 0))
            for d in labels:
                near = [(math.hypot(x - d[1], y - d[2]), x, y, s) for x, y, s, _ in found]
                near = [n for n in near if n[0] <= 0.5 * d[3]]
                if near and d[3] >= 4:
                    _, x, y, s = min(near)
                    errors.append(((x - d[1]) / d[3], (y - d[2]) / d[3], math.log(s / d[3])))
    errors_a = np.array(errors, np.float32).reshape(-1, 3)
    if len(errors_a):
        q = np.percentile(np.exp(errors_a[:, 2]), [10, 50, 90])
        off = np.percentile(np.hypot(errors_a[:, 0], errors_a[:, 1]), [50, 90])
        print(f"  detector on {len(errors_a)} training dice: side ratio p10/50/90 {q[0]:.2f}/{q[1]:.2f}/{q[2]:.2f}, "
              f"centre off p50/90 {off[0]:.3f}/{off[1]:.3f} sides", flush=True)
    print(f"  {len(crops)} hard negatives mined from {sum(min(len(v), per_group) for v in by_group.values())} photos", flush=True)
    if not crops:
        return np.zeros((0, store, store), np.uint8), np.zeros((0, 2), np.int64), errors_a
    return np.stack(crops), np.array(meta, np.int64), errors_a


def face_batch(rng: np.random.Generator, groups: dict[str, list[int]], renders: np.ndarray | None = None,
               render_share: float = 0.0, n: int = 64) -> list[int]:
    """One classifier batch's crop indices: each drawn from a group chosen with equal weight; with
    ``render_share`` (session 12), each first from the classifier's extra renders (``renders``, indices)
    with that probability. At 0 the draws are exactly the former recipe's (the same random numbers)."""
    names = sorted(groups)
    if not render_share:
        return [groups[g][int(rng.integers(len(groups[g])))] for g in (names[int(rng.integers(len(names)))] for _ in range(n))]
    out = []
    for _ in range(n):
        if renders is not None and len(renders) and rng.random() < render_share:
            out.append(int(renders[int(rng.integers(len(renders)))]))
        else:
            g = names[int(rng.integers(len(names)))]
            out.append(groups[g][int(rng.integers(len(groups[g])))])
    return out


def train_faces(
    crops: np.ndarray, meta: np.ndarray, chosen_images: np.ndarray, steps: int, seed: int,
    errors: np.ndarray | None = None, channels: int = 1, widths: tuple[int, ...] = FACE_WIDTHS, size: int = CROP,
    colour: str = "grey", renders: np.ndarray | None = None, render_share: float = 0.0, blur: bool = False,
    style: str = "none", style_share: float = 0.0,
):
    """The face classifier on the stored crops (BGR; grey for a grey classifier, ``channels`` 1, unless it
    projects colours, ``colour``), read at ``size`` px; ``render_share`` of each batch drawn from the crops
    ``renders`` marks (the classifier's extra renders; 0: they are part of the synthetic group, as before)."""
    import torch

    from hardware.dice.net import normalise_crops

    _, Faces = networks()
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed + 1)
    net = Faces(channels, widths)
    opt = torch.optim.AdamW(net.parameters(), 3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 5e-3, total_steps=steps, pct_start=0.15)
    use = np.nonzero(chosen_images[meta[:, 0]])[0]
    extra = np.zeros(len(meta), bool) if renders is None or not render_share else renders
    groups = {}
    for k in use:
        if not extra[k]:
            groups.setdefault(GROUP_OF[meta[k, 0]], []).append(k)
    pool = use[extra[use]] if render_share else None  # none when the synthetic group is held out
    started = time.time()
    for step in range(steps):
        ks = face_batch(rng, groups, pool, render_share)
        x = torch.from_numpy(normalise_crops(np.stack([face_sample(rng, crops[k], errors, size, colour, blur, style, style_share) for k in ks])))
        y = torch.from_numpy(meta[ks, 1])
        loss = torch.nn.functional.cross_entropy(net(x, probabilities=False), y, label_smoothing=0.05)
        _step(opt, sched, loss, f"faces step {step}/{steps}", started, step % 200 == 0)
    return net.eval()


# ----------------------------------------------------------------------------- export and tuning


def export(detector, faces, out: Path, channels: int = 1, face_channels: int = 1, size: int = CROP, name: str = CLASSIFIER) -> None:
    import torch

    out.mkdir(parents=True, exist_ok=True)
    if detector is not None:
        torch.onnx.export(detector, torch.zeros(1, channels, 240, 320), str(out / DETECTOR), input_names=["frame"], output_names=["heat"],
                          dynamic_axes={"frame": {0: "n", 2: "h", 3: "w"}}, opset_version=13, dynamo=False)
    if faces is not None:
        torch.onnx.export(faces, torch.zeros(1, face_channels, size, size), str(out / name), input_names=["crops"], output_names=["faces"],
                          dynamic_axes={"crops": {0: "n"}}, opset_version=13, dynamo=False)


def count_macs(net, shape: tuple[int, ...]) -> int:
    """Multiply-adds of the convolutions and linear layers for one input of ``shape``."""
    import torch

    total = 0

    def hook(module, _inputs, output) -> None:
        nonlocal total
        if isinstance(module, torch.nn.Conv2d):
            k = module.kernel_size[0] * module.kernel_size[1] * module.in_channels // module.groups
            total += output.numel() * k
        elif isinstance(module, torch.nn.Linear):
            total += output.numel() * module.in_features

    handles = [m.register_forward_hook(hook) for m in net.modules()]
    with torch.no_grad():
        net(torch.zeros(*shape))
    for h in handles:
        h.remove()
    return total


def macs(channels: int = 1, widths: tuple[int, ...] = DETECTOR_WIDTHS, face_channels: int = 1,
         face_widths: tuple[int, ...] = FACE_WIDTHS, size: int = CROP) -> dict[str, int]:
    """Multiply-adds of the two networks (weights do not matter): the benchmark's Pi estimate."""
    Detector, Faces = networks()
    detector, faces = Detector(channels, widths), Faces(face_channels, face_widths)
    return {"macs_detector_640x480": count_macs(detector.eval(), (1, channels, 240, 320)),
            "macs_face": count_macs(faces.eval(), (1, face_channels, size, size))}


def tuning_photos(shared: Path, hold_out: str | None, within: bool, seed: int,
                  objective: str = "image") -> list[tuple[np.ndarray | None, labelled.Labelled]]:
    """The photos of each group the fold trains on that the tuning reads, at full resolution: for the ``image``
    objective up to 40 photos of at most 5 dice per group; for ``dice`` and ``dice-threshold`` (session 13) up to
    ``DICE_TUNE_PHOTOS`` per group of any number of dice, crowded trays too, one photo per split unit (copies of a
    photo are not new evidence)."""
    by_dice = objective in ("dice", "dice-threshold")
    rng = np.random.default_rng(seed + 2)
    groups: dict[str, list[tuple[np.ndarray | None, labelled.Labelled]]] = {
        g: [(None, i) for i in items] for g, items in labelled.real_groups(shared).items()
    }
    groups[labelled.SYNTHETIC] = synthetic_items(60, SYNTH_TRAIN[1])  # the first 60 training renders
    out = []
    for g in sorted(groups):
        if g == hold_out:
            continue
        if by_dice:
            pool = list({p[1].unit: p for p in groups[g] if p[1].dice}.values())
        else:
            pool = [p for p in groups[g] if 1 <= len(p[1].dice) <= 5]
        if within:
            held = labelled.held_out_units(i.unit for _, i in groups[g])
            pool = [p for p in pool if p[1].unit not in held]
        out += [pool[k] for k in rng.permutation(len(pool))[:DICE_TUNE_PHOTOS if by_dice else 40]]
    return out


THRESHOLDS = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
MIN_FACE = (0.0, 0.4, 0.5, 0.6, 0.7)
SAME_DIE = (0.6, 0.85, 1.0, 1.15)
# Session 33: the same-die distance is no longer tuned (``--tune-same-die`` tunes it over SAME_DIE, the recipe before).
# Two dice lying flat cannot stand closer than a side, so any distance under one only merges a die's own peaks; the
# smallest merges no neighbour whose size the heat overestimates. Every fold of sessions 19-32 and the shipped
# weights chose it but session 32's fisheye-tray fold, which chose 0.85 for +0.012 on its training photos and lost
# 0.13 of the held-out camera's dice (docs/dice.md).
SAME_DIE_RECIPE = (0.6,)
# Session 9: the crop's side in die sides (a tighter crop sees less of the side faces, whose pips the
# classifier added to the top's) and reading each turn mirrored too; chosen here, on training photos only.
# Measured, not kept (docs/dice.md, session 9): held-out hex-trays read better at the labelled boxes (0.723 ->
# 0.738) but worse end to end (die 0.580 -> 0.562), so the shipped recipe tunes at the reader's own (1.25 sides, unmirrored);
# --tune-read-options widens the grid to these.
CONTEXTS = (1.0, 1.125, 1.25)
MIRRORS = (False, True)


# Session 13, third experiment: what the tuning maximises. "image" (the recipe before): the share of photos whose
# values are read exactly, over 40 photos of at most 5 dice per group; a flat plateau from 0.15 to 0.35 where one or
# two photos of 200 decide the threshold. "dice": per photo the dice read right (matched to the labels as a multiset)
# minus the values read that match no die (false dice and misread ones), over each group's dice, the groups weighted
# equally as in training, over up to DICE_TUNE_PHOTOS photos per group, crowded trays too; and of the thresholds within
# DICE_TUNE_MARGIN of the best score, the lowest (on a plateau the lower one keeps the dice a new camera's weaker heat draws).
# "dice-threshold" (session 13, fourth experiment): the threshold, finer pass and same-die distance by "dice"'s score and
# margin, the least face probability kept at the one the "image" objective chooses (the score charges a misread die
# twice and a rejected one once, so it chose 0.4 and rejected the unsure reads a new camera needs: docs/dice.md).
TUNE_OBJECTIVES = ("image", "dice", "dice-threshold")
DICE_TUNE_PHOTOS = 100
DICE_TUNE_MARGIN = 0.01
# Session 28: the read-time options judged and shipped with the weights (G30: the coarser looks of session 27's B2
# and the half look guarded by the first pass's sizes; session 29's C1: that half look also where the first pass saw a
# large die's pips; docs/dice.md). They were judged on folds tuned without them, so
# ``--tune-only`` tunes without them and puts back those the folder had; ``--read-time`` writes these (``make
# train-dice``).
READ_TIME = {"coarse": True, "coarse_above": 37.5, "coarse_looks": 2, "half_look": 0.5, "half_above": 30.0,
             "half_large": 60.0, "half_cover": 1.0}
IMAGE_TUNE_MARGIN = 0.01  # --tune-margin's default with the image objective since session 19 (0.0 before)


def read_counts(faces: list[tuple[float, int, np.ndarray]], truth: list[int]) -> np.ndarray:
    """For each (threshold, least face probability): [photo read exactly, dice read right, values read matching no die].
    ``faces``: (heat, value read, the classifier's probabilities) of each peak; ``truth``: the photo's labelled values."""
    from hardware.dice.net import NOT_A_DIE

    counts = np.zeros((len(THRESHOLDS), len(MIN_FACE), 3))
    labels = Counter(truth)
    for a, t in enumerate(THRESHOLDS):
        for b, m in enumerate(MIN_FACE):
            got = sorted(f for s, f, p in faces if s >= t and p[f] >= m and p[f] >= p[NOT_A_DIE])
            matched = sum((Counter(got) & labels).values())
            counts[a, b] = (got == sorted(truth), matched, len(got) - matched)
    return counts


def lowest_within(grid: np.ndarray, margin: float, threshold_axis: int = -2) -> tuple[int, ...]:
    """The lowest threshold whose best value (over the grid's other axes) is within ``margin`` of the grid's best, and
    there its best cell (the first of equals)."""
    near = np.moveaxis(grid, threshold_axis, 0).reshape(grid.shape[threshold_axis], -1).max(1) >= grid.max() - margin - 1e-9
    a = int(np.argmax(near))
    at = np.take(grid, a, axis=threshold_axis)
    cell = list(int(i) for i in np.unravel_index(int(np.argmax(at)), at.shape))
    cell.insert(threshold_axis % grid.ndim, a)
    return tuple(cell)


def choose(image: np.ndarray, dice: np.ndarray, objective: str, threshold_axis: int = -2,
           margin: float = DICE_TUNE_MARGIN, image_margin: float = 0.0) -> tuple[int, ...]:
    """The grid cell the objective picks: ``image`` the best image accuracy (the first of equals), or with an
    ``image_margin`` (session 18, ``--tune-margin``) the lowest threshold within it, as ``dice`` does; ``dice`` the
    lowest threshold whose best die score is within ``margin`` of the best, and there its best cell."""
    if objective != "image":
        return lowest_within(dice, margin, threshold_axis)
    if image_margin:
        return lowest_within(image, image_margin, threshold_axis)
    return tuple(int(i) for i in np.unravel_index(int(np.argmax(image)), image.shape))


def face_recipe(args: argparse.Namespace) -> dict[str, object]:
    """The options a face classifier was trained with, as ``tuning.json`` records a further one's
    (``faces_extra_recipe``, session 22): its crop-style and render options, steps and seed (the crop, channels,
    colour and widths are the first classifier's, checked when it is trained)."""
    return {"face_style": args.face_style, "face_style_share": args.face_style_share if args.face_style != "none" else 0.0,
            "face_renders": args.face_renders, "face_render_share": args.face_render_share,
            "face_render_view": args.face_render_view, "face_blur": bool(args.face_blur), "face_steps": args.face_steps,
            "seed": args.seed}


def record_extra(tuning: dict, name: str, recipe: dict[str, object]) -> dict:
    """``tuning`` with the further classifier ``name`` listed in ``faces_extra`` (once, last) and its recipe
    recorded: its seed in ``faces_extra_seeds`` (session 17) and every option in ``faces_extra_recipe`` (session 22)."""
    tuning[FACES_EXTRA] = [*(n for n in tuning.get(FACES_EXTRA, []) if n != name), name]
    tuning.setdefault("faces_extra_seeds", {})[name] = recipe["seed"]
    tuning.setdefault("faces_extra_recipe", {})[name] = dict(recipe)
    return tuning


def tune(out: Path, photos: list[tuple[np.ndarray | None, labelled.Labelled]], read_options: bool = False,
         objective: str = "image", min_face: float | None = None, margin: float = 0.0,
         same_dice: tuple[float, ...] = SAME_DIE_RECIPE) -> dict[str, float]:
    """The finer second pass (on or off), heatmap threshold, least face probability and same-die distance
    (with ``read_options``, the crop side and mirroring too) that read the fold's own training photos best, by
    ``objective`` (``TUNE_OBJECTIVES``); ``dice-threshold`` needs ``min_face``, the least face probability it
    keeps (``tune_fold`` takes it from the image objective) and chooses the rest as ``dice`` does. ``margin``
    (the image objective only): the lowest threshold whose best image accuracy is within it of the best.
    ``same_dice``: the same-die distances tried (session 33: 0.6 alone, ``SAME_DIE_RECIPE``)."""
    if (objective == "dice-threshold") != (min_face is not None):
        raise ValueError("min_face is given with the dice-threshold objective, and only with it")
    if margin and objective != "image":
        raise ValueError("the margin is the image objective's; the dice objectives have DICE_TUNE_MARGIN")
    from hardware.dice.net import NetReader, as_channels, peaks
    from hardware.image_file import read_image

    reader = NetReader(out)
    contexts, mirrors = (CONTEXTS, MIRRORS) if read_options else ((reader.context,), (reader.mirror,))
    groups = sorted({item.group for _, item in photos})
    # per group: photos read exactly, dice read right, values read matching no die; and the group's dice
    counts = np.zeros((len(groups), 2, len(same_dice), len(contexts), len(mirrors), len(THRESHOLDS), len(MIN_FACE), 3))
    n_dice = np.zeros(len(groups))
    for img, item in photos:
        frame = read_image(item.path) if img is None else img
        first, fine = reader.heatmaps(as_channels(frame, reader.channels))
        k = groups.index(item.group)
        n_dice[k] += len(item.dice)
        for e, (heat, scale) in enumerate((first, fine or first)):
            for c, same in enumerate(same_dice):
                found = [(x / scale, y / scale, s / scale, p) for x, y, s, p in peaks(heat[0], heat[1], min(THRESHOLDS), same)]
                for g, context in enumerate(contexts):
                    for h, mirror in enumerate(mirrors):
                        probs = reader.classify(frame, found, context=context, mirror=mirror)
                        faces = [(s, int(np.argmax(p[1:])) + 1, p) for (_, _, _, s), p in zip(found, probs, strict=True)]
                        counts[k, e, c, g, h] += read_counts(faces, item.values)
    right = counts[..., 0].sum(0)  # photos read exactly
    score = ((counts[..., 1] - counts[..., 2]) / np.maximum(n_dice, 1).reshape(-1, *[1] * (counts.ndim - 2))).mean(0)
    if objective == "dice-threshold":  # the least probability out of the score's reach
        b = MIN_FACE.index(min_face)
        e, c, g, h, a, _ = choose(right[..., b:b + 1], score[..., b:b + 1], "dice")
    else:
        e, c, g, h, a, b = choose(right / len(photos), score, objective, image_margin=margin)
    best = right[e, c, g, h, a, b] / len(photos)
    plain = THRESHOLDS[choose(right, score, objective)[-2]] if margin else None  # without the margin, printed beside
    keep = slice(b, b + 1) if objective == "dice-threshold" else slice(None)  # its curves at the kept least probability
    for name, grid in (("image accuracy", right[..., keep] / len(photos)), ("die score", score[..., keep])):
        for f in (0, 1):
            curve = grid[f].reshape(-1, len(THRESHOLDS), grid.shape[-1]).max(axis=(0, 2))
            print(f"  {name}, finer pass {'on ' if f else 'off'}: " + "  ".join(f"{t}: {v:.3f}" for t, v in zip(THRESHOLDS, curve, strict=True)),
                  flush=True)
    print(f"  tuned ({objective}) on {len(photos)} training photos ({int(n_dice.sum())} dice): finer pass {'on' if e else 'off'} "
          f"(off: {right[0].max() / len(photos):.3f}, on: {right[1].max() / len(photos):.3f}), same die {same_dice[c]}, "
          f"threshold {THRESHOLDS[a]}, least face probability {MIN_FACE[b]}, crop {contexts[g]} sides{', mirrored' if mirrors[h] else ''}, "
          f"image accuracy {best:.3f}, die score {score[e, c, g, h, a, b]:.3f}"
          + (f"; margin {margin} (without it: threshold {plain})" if margin else ""), flush=True)
    return {"fine": bool(e), "threshold": THRESHOLDS[a], "min_face": MIN_FACE[b], "same_die": same_dice[c],
            **({"crop_context": contexts[g], "mirror": bool(mirrors[h])} if read_options else {}),
            "tuned_on_photos": len(photos), "tuned_image_accuracy": round(float(best), 4),
            "tune_objective": objective, "tuned_die_score": round(float(score[e, c, g, h, a, b]), 4),
            "tune_margin": margin if objective == "image" else DICE_TUNE_MARGIN,
            **({"threshold_without_margin": plain} if margin else {})}


def tune_fold(out: Path, shared: Path, hold_out: str | None, within: bool, seed: int, read_options: bool,
              objective: str, margin: float = 0.0, same_dice: tuple[float, ...] = SAME_DIE_RECIPE) -> dict[str, float]:
    """``tune`` on the fold's own training photos; for ``dice-threshold`` first the image objective on its photos,
    whose least face probability the dice score then keeps (recorded as ``min_face_from_image``). ``margin``: the
    image objective's (``tune``); ``same_dice`` the distances tried."""
    if objective != "dice-threshold":
        return tune(out, tuning_photos(shared, hold_out, within, seed, objective), read_options, objective, margin=margin,
                    same_dice=same_dice)
    image = tune(out, tuning_photos(shared, hold_out, within, seed, "image"), read_options, "image", same_dice=same_dice)
    tuned = tune(out, tuning_photos(shared, hold_out, within, seed, objective), read_options, objective, image["min_face"],
                 same_dice=same_dice)
    return {**tuned, "min_face_from_image": image["min_face"], "image_tuning_threshold": image["threshold"]}


GROUP_OF: np.ndarray = np.array([])


def parser() -> argparse.ArgumentParser:
    """The command line's options."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "hardware" / "dice" / "weights")
    ap.add_argument("--hold-out", choices=labelled.GROUPS)
    ap.add_argument("--within", action="store_true", help="hold out a fifth of every group's split units")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--detector-steps", type=int, default=3000)
    ap.add_argument("--face-steps", type=int, default=6000)
    ap.add_argument("--channels", type=int, choices=(1, 3), default=1,
                    help="the detector's input: 1 grey (the shipped recipe), 3 colour (BGR; measured, not kept: docs/dice.md)")
    ap.add_argument("--face-channels", type=int, choices=(1, 3), default=1,
                    help="the face classifier's crops: 1 grey (the shipped recipe), 3 colour (measured, not kept)")
    ap.add_argument("--detector-widths", type=lambda v: tuple(int(c) for c in v.split(",")), default=DETECTOR_WIDTHS,
                    help="the detector's six channel counts, comma-separated (default: %(default)s)")
    ap.add_argument("--face-widths", type=lambda v: tuple(int(c) for c in v.split(",")), default=FACE_WIDTHS,
                    help="the face classifier's three channel counts, comma-separated (default: %(default)s)")
    ap.add_argument("--face-colour", choices=tuple(FACE_COLOURS), default="grey",
                    help="a grey classifier's crops: luminance (the shipped recipe), or each crop's colours projected on their "
                         "first principal component, over the whole crop (pca) or its centre (pca-centre), or on its "
                         "pips' colour direction against the body's (pips)")
    ap.add_argument("--crop", type=int, default=CROP, help="the face classifier's input side in pixels (default: %(default)s)")
    ap.add_argument("--turns", type=int, choices=(1, 2, 4), default=TURNS,
                    help="quarter turns the reader averages each crop over (default: %(default)s; fewer: faster)")
    ap.add_argument("--face-renders", type=int, default=FACE_RENDERS[0],
                    help="the classifier's extra tilted, marbled and glittering renders (0: none, the recipe before; default: %(default)s)")
    ap.add_argument("--face-render-share", type=float, default=0.0,
                    help="the share of each classifier batch drawn from the extra renders (session 12; 0: they are part of "
                         "the synthetic group, the shipped recipe)")
    ap.add_argument("--face-render-view", choices=tuple(FACE_RENDER_VIEWS), default="orthographic",
                    help="how the extra renders' tilted dice are drawn (session 13): orthographic, side faces darkened "
                         "(the shipped recipe), or perspective, a pinhole camera above the table, side faces lit nearly as the top, "
                         "or ghost (session 22), orthographic with translucent dice showing their hidden faces' pips "
                         "and large two-colour swirls")
    ap.add_argument("--face-blur", action="store_true",
                    help="also give the classifier's crops motion blur and lost resolution (session 12; measured)")
    ap.add_argument("--face-style", choices=FACE_STYLES, default="none",
                    help="style randomisation of the classifier's crops (session 21): random convolution (RandConv), a random "
                         "tone curve, or either at random (both); none: the shipped recipe")
    ap.add_argument("--face-style-share", type=float, default=0.5,
                    help="with --face-style: the share of crops restyled (default: %(default)s)")
    ap.add_argument("--shared", type=Path, default=None)
    ap.add_argument("--cache", type=Path, default=CACHE, help="the training data, built on first use")
    ap.add_argument("--tune-only", action="store_true", help="only tune the weights already in --out")
    ap.add_argument("--read-time", action="store_true",
                    help="with --tune-only: write the shipped read-time options (READ_TIME, session 28) after tuning")
    ap.add_argument("--detector-from", type=Path, help="take the detector from this folder; train the face classifier only")
    ap.add_argument("--face-name", default=CLASSIFIER,
                    help="train a further face classifier of an ensemble (session 17) on the detector in --out, written there "
                         "under this name and added to its tuning.json's faces_extra; tune after with --tune-only")
    ap.add_argument("--tune-objective", choices=TUNE_OBJECTIVES, default="image",
                    help="what the tuning maximises on the fold's training photos: image accuracy of photos of at most 5 dice "
                         "(the recipe before), or dice read right minus false ones, crowded photos too, the lowest threshold "
                         "within a margin of the best (session 13), or that threshold with the least face probability the image objective "
                         "chooses (dice-threshold, session 13's fourth experiment; default: %(default)s)")
    ap.add_argument("--tune-margin", type=float, default=None,
                    help="with the image objective: take the lowest threshold whose best image accuracy is within this of the "
                         f"best, there the best cell (session 18; default {IMAGE_TUNE_MARGIN} with the image objective since "
                         "session 19, none with the others; 0: the best cell, the recipe before)")
    ap.add_argument("--tune-same-die", action="store_true",
                    help=f"tune the same-die distance over {SAME_DIE} (the recipe before session 33; now {SAME_DIE_RECIPE[0]})")
    ap.add_argument("--tune-read-options", action="store_true",
                    help="tune the crop's side (1-1.25 die sides) and mirrored reading too (measured, not kept)")
    return ap


def main() -> int:
    global GROUP_OF
    ap = parser()
    args = ap.parse_args()
    colour = args.face_colour != "grey"
    if args.tune_margin and args.tune_objective != "image":
        ap.error("--tune-margin is the image objective's (the dice objectives have their own, DICE_TUNE_MARGIN)")
    if args.tune_margin is None:
        args.tune_margin = IMAGE_TUNE_MARGIN if args.tune_objective == "image" else 0.0
    same_dice = SAME_DIE if args.tune_same_die else SAME_DIE_RECIPE  # the same-die distances tuned (session 33)
    if colour and args.face_channels != 1:
        ap.error("--face-colour projects colour crops to one channel: it needs --face-channels 1")

    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    cv2.setNumThreads(1)
    shared = shared_data(args.shared)
    what = f"without {args.hold_out}" if args.hold_out else ("within-group split" if args.within else "everything")
    if args.tune_only:  # weights already trained: tune them again (the tuning recipe changed)
        before = json.loads((args.out / TUNING).read_text())
        before.pop("threshold_without_margin", None)  # a former tuning's record
        read_time = {k: before.pop(k) for k in READ_TIME if k in before}  # tuned without them, as judged
        save_text_atomic(args.out / TUNING, json.dumps(before, indent=1) + "\n")
        before.update(tune_fold(args.out, shared, args.hold_out, args.within, args.seed, args.tune_read_options, args.tune_objective,
                                args.tune_margin, same_dice))
        before.update(macs(before.get("channels", 1), detector_widths_of(before), before.get("face_channels", 1),
                           tuple(before.get("face_widths", FACE_WIDTHS)), before.get("crop", CROP)))
        before.update(READ_TIME if args.read_time else read_time)
        save_text_atomic(args.out / TUNING, json.dumps(before, indent=1) + "\n")
        return 0
    further = args.face_name != CLASSIFIER  # session 17: a further classifier of the ensemble in --out
    if further:
        if Path(args.face_name).name != args.face_name or args.face_name in (DETECTOR, TUNING):
            ap.error(f"--face-name: {args.face_name!r} is not a new file name in --out")
        kept = json.loads((args.out / TUNING).read_text())
        ours = (args.crop, args.face_channels, args.face_colour, list(args.face_widths))
        if ours != (kept.get("crop", CROP), kept.get("face_channels", 1), kept.get("face_colour", "grey"), kept.get("face_widths", list(FACE_WIDTHS))):
            ap.error(f"--face-name: the classifier's options ({ours}) are not those of {args.out}'s classifier")
        if args.detector_from and args.detector_from.resolve() != args.out.resolve():
            ap.error("--face-name trains on the detector in --out itself")
        args.detector_from = args.out
    if args.detector_from:  # the kept detector's input and widths
        kept = json.loads((args.detector_from / TUNING).read_text())
        args.channels = int(kept.get("channels", 1))
        args.detector_widths = detector_widths_of(kept)
    store = store_side(args.crop)  # finer stored crops for a finer classifier crop (session 16)
    data = finer_crops(load_cache(shared, args.cache), shared, store, args.cache)
    images = unpack_images(data, args.channels)
    GROUP_OF = data["group"]
    chosen = fold_images(data, args.hold_out, args.within)
    print(f"training on {int(chosen.sum())} images ({what})", flush=True)
    started = time.time()
    detector_steps = args.detector_steps
    if args.detector_from:  # keep a trained detector (same fold), train the face classifier only
        import shutil

        detector = None
        detector_steps = json.loads((args.detector_from / TUNING).read_text()).get("detector_steps")
        args.out.mkdir(parents=True, exist_ok=True)
        if args.detector_from.resolve() != args.out.resolve():
            shutil.copy(args.detector_from / DETECTOR, args.out / DETECTOR)
    else:
        detector = train_detector(images, data["dice"], chosen, args.detector_steps, args.seed, args.channels, args.detector_widths)
    if detector is not None:
        export(detector, None, args.out, args.channels)
    bgr = args.face_channels == 3 or colour  # the classifier's crops are cut in colour
    mined, mined_meta, errors = mine_detector(args.out, images, data["dice"], chosen, args.seed,
                                              crop_from=unpack_images(data, 3) if bgr and args.channels == 1 else None, store=store)
    if not bgr and mined.ndim == 4:  # hard negatives cut from colour images
        mined = np.stack([cv2.cvtColor(c, cv2.COLOR_BGR2GRAY) for c in mined])
    crops = [data["crops" if bgr else "crops_grey"], mined]
    meta = [data["crop_meta"], mined_meta]
    if args.face_render_share and not args.face_renders:
        ap.error("--face-render-share needs the extra renders (--face-renders)")
    n_before = sum(len(c) for c in crops)
    if args.face_renders:  # the synthetic group's: a training render's image index stands for them
        extra = face_render_crops((args.face_renders, *FACE_RENDERS[1:]), args.face_render_view, store)
        crops.append(extra["crops" if bgr else "crops_grey"])
        stand_in = int(np.nonzero((data["group"] == labelled.SYNTHETIC) & ~data["synth_test"])[0][0])
        meta.append(np.stack([np.full(len(extra["values"]), stand_in), extra["values"]], 1))
    crops, meta = np.concatenate(crops), np.concatenate(meta)
    renders = np.arange(len(meta)) >= n_before  # the extra renders' crops (session 12's --face-render-share)
    faces = train_faces(crops, meta, chosen, args.face_steps, args.seed, errors, args.face_channels, args.face_widths, args.crop,
                        args.face_colour, renders, args.face_render_share, args.face_blur, args.face_style, args.face_style_share)
    export(None, faces, args.out, face_channels=args.face_channels, size=args.crop, name=args.face_name)
    if further:  # listed beside the first classifier; the rest of the tuning kept until --tune-only
        kept = json.loads((args.out / TUNING).read_text())
        record_extra(kept, args.face_name, face_recipe(args))
        save_text_atomic(args.out / TUNING, json.dumps(kept, indent=1) + "\n")
        print(f"done in {time.time() - started:.0f} s: {args.out / args.face_name} (tune the ensemble: --tune-only)", flush=True)
        return 0
    channels = {"channels": args.channels, "face_channels": args.face_channels, "detector_widths": list(args.detector_widths),
                "face_widths": list(args.face_widths), "crop": args.crop, "turns": args.turns,
                "face_renders": args.face_renders, **({"face_colour": args.face_colour} if colour else {}),
                **({"face_render_share": args.face_render_share} if args.face_render_share else {}),
                **({"face_blur": True} if args.face_blur else {}),
                **({"face_style": args.face_style, "face_style_share": args.face_style_share} if args.face_style != "none" else {}),
                **({"face_render_view": args.face_render_view} if args.face_render_view != "orthographic" else {})}
    save_text_atomic(args.out / TUNING, json.dumps({"threshold": 0.35, "min_face": 0.5, **channels}))
    del data, images
    tuning = tune_fold(args.out, shared, args.hold_out, args.within, args.seed, args.tune_read_options, args.tune_objective,
                       args.tune_margin, same_dice)
    tuning.update(macs(args.channels, args.detector_widths, args.face_channels, args.face_widths, args.crop))
    tuning.update({"trained_on": what, "seed": args.seed, "detector_steps": detector_steps, "face_steps": args.face_steps, **channels})
    save_text_atomic(args.out / TUNING, json.dumps(tuning, indent=1) + "\n")
    print(f"done in {time.time() - started:.0f} s: {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
