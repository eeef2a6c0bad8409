"""Train the cascade's CNN verifier (hardware/whistle/cnn_verifier.py) and export it to ONNX.

    make train-whistle-cnn                  # the shipped weights, every source
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/whistle_cnn_train.py --out hardware/whistle/weights/whistle_cnn.onnx
    ... --hold-out pea-trill                # a fold: no item tagged pea-trill takes part

Needs the ``train`` extra (torch==2.13.0 CPU, onnx) and ``../shared/data``;
the detector itself needs only OpenCV.  Seeded and on one thread: the same
seed gives the same weights on the same machine.

The training items are ``whistle_train.items()`` (the real sets and the
synthetic scenes, tagged by source; seeds 1000 and up, never the
benchmark's), and the candidates are the ones the cascade's first stage
raises in them, labelled as ``whistle_train.candidates`` labels them (inside a
blow: whistle; outside every blow's scoring window: not; a blow's tail: left
out).  A recording verifier keeps, for each candidate, the raw aligned patch
(``WIDE`` bins either side, wider than the network's input so it can be
shifted in frequency) and the MLP's 287 features (so the benchmark can train
both verifiers on exactly the same candidates).

Recipe (docs/whistle-cnn.md): class-balanced binary cross-entropy, Adam,
minibatches drawn at random, each patch augmented on the fly: shifted
-6..+6 bins in frequency and sometimes one frame in time, its level over the
floor scaled 0.6-1.3x (another SNR), sometimes a lower clip ceiling, a third
of the whistles with a negative patch mixed in at 5-30 % power, and
SpecAugment-style masks (a band of 1-6 bins, one frame) set to the floor.
The threshold is the score that lets through 0.3 % of the *training* negatives
(at least 0.5), as for the MLP; the JSON also holds the 1 % one (the benchmark's
second column, not used by the detector).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import whistle_train as wt

from companion.paths import shared_data
from hardware.whistle.cascade import CascadeDetector, CascadeParams
from hardware.whistle.cnn_verifier import SPAN, VIEWS, WEIGHTS, CnnVerifier, cut, scaled, tuning_path
from hardware.whistle.detector import HOP, N_FFT, RATE
from hardware.whistle.verifier import HISTORY, patch_features

SHIFT = 6  # frequency shift of the augmentation, bins either way
WIDE = SPAN + SHIFT  # bins either side kept per candidate
CHANNELS = (12, 24, 32)
NEGATIVE_RATE = 0.003  # share of training negatives the threshold lets through (as the MLP's since session 7; 0.01 before)
OTHER_RATES = (0.01,)  # thresholds also written to the JSON (the benchmark prints them beside; never the shipped one)
STEPS = 1000  # per training; the benchmark's 19 folds take about 30 minutes of CPU


def recipe(steps: int = STEPS) -> str:
    """The recipe in one line (the benchmark's header, the weights' JSON)."""
    return f"{steps} steps; threshold {rate_key(NEGATIVE_RATE)} of training negatives, two yes in a row"


# -- candidates: the raw patch and the MLP's features ------------------------------------------


class PatchRecorder:
    """A verifier that reads the patch, says no to everything and keeps what it was shown (and the MLP's features)."""

    reads_patch = True

    def __init__(self) -> None:
        self.det: CascadeDetector | None = None
        self.seen: list[tuple[float, np.ndarray, np.ndarray]] = []
        self._features: np.ndarray | None = None

    def cut(self, hist: np.ndarray, centre: int) -> np.ndarray:
        self._features = patch_features(hist, centre)
        return cut(hist, centre, WIDE).astype(np.float16)

    def __call__(self, patch: np.ndarray) -> float:
        assert self.det is not None and self._features is not None
        t = (self.det.frame_now * HOP + N_FFT) / RATE  # end of the frame being decided
        self.seen.append((t, patch, self._features))
        return 0.0


def label(item: wt.Item, t: float) -> int | None:
    """1 inside a blow, 0 outside every blow's scoring window, None in a blow's tail (as whistle_train.candidates)."""
    if item.whole or any(on - 0.05 <= t <= off + 0.1 for on, off in item.blows):
        return 1
    if any(on - 0.1 <= t <= off + 0.5 for on, off in item.blows):
        return None
    return 0


def harvest(items: Sequence[wt.Item], params: CascadeParams | None = None) -> tuple[wt.Examples, wt.Examples]:
    """(patches, features) of every labelled candidate: the same candidates, the same labels and tags."""
    patches, feats, ys, tags = [], [], [], []
    for it in items:
        rec = PatchRecorder()
        det = CascadeDetector(params or wt.HARVEST, verifier=rec)  # the recipe's first stage (whistle_train.HARVEST)
        rec.det = det
        for i in range(0, len(it.samples), wt.BLOCK):
            det.process(it.samples[i : i + wt.BLOCK])
        for t, patch, f in rec.seen:
            y = label(it, t)
            if y is not None:
                patches.append(patch)
                feats.append(f)
                ys.append(y)
                tags.append(it.tags)
    y = np.array(ys, np.int8)
    p = np.array(patches, np.float16).reshape(-1, VIEWS, HISTORY, 2 * WIDE)
    return wt.Examples(p, y, tags), wt.Examples(np.array(feats, np.float32), y, list(tags))


# -- the network --------------------------------------------------------------------------------


def network(channels: Sequence[int] = CHANNELS):
    """VIEWS x 8 x 80 in; three 3x3 convolutions (pooling 2 in frequency, then 2 x 2); global mean and max; one logit."""
    import torch
    from torch import nn

    c1, c2, c3 = channels

    def block(a: int, b: int) -> list[nn.Module]:
        return [nn.Conv2d(a, b, 3, padding=1, bias=False), nn.BatchNorm2d(b), nn.ReLU()]

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(*block(VIEWS, c1), nn.MaxPool2d((1, 2)), *block(c1, c2), nn.MaxPool2d(2), *block(c2, c3))
            self.mean, self.max = nn.AdaptiveAvgPool2d(1), nn.AdaptiveMaxPool2d(1)
            self.head = nn.Linear(2 * c3, 1)
            self.probability = False  # the exported graph ends in a sigmoid; training uses the logit

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            h = self.body(x)
            z = self.head(torch.cat([self.mean(h).flatten(1), self.max(h).flatten(1)], dim=1))
            return torch.sigmoid(z) if self.probability else z

    return Net()


@dataclasses.dataclass(frozen=True)
class Augment:
    """How often (p_*) and how strongly each augmentation is applied."""

    p_roll: float = 0.3
    gain: tuple[float, float] = (0.6, 1.3)
    p_mix: float = 0.33
    mix: tuple[float, float] = (0.05, 0.3)
    p_ceiling: float = 0.3
    p_band: float = 0.5
    p_frame: float = 0.3


def augment(wide: np.ndarray, y: np.ndarray, rng: np.random.Generator, negatives: np.ndarray,
            aug: Augment = Augment()) -> np.ndarray:
    """A batch of network inputs (B x HISTORY x 2*SPAN, scaled) from raw wide patches: see the module's doc."""
    b = len(wide)
    x = wide.astype(np.float32)
    s = rng.integers(-SHIFT, SHIFT + 1, b)
    idx = SHIFT + s[:, None] + np.arange(2 * SPAN)[None, :]
    x = np.take_along_axis(x, np.broadcast_to(idx[:, None, None, :], (b, VIEWS, HISTORY, 2 * SPAN)), axis=3)
    roll = rng.random(b) < aug.p_roll
    for i in np.flatnonzero(roll):  # one frame earlier or later, the edge frame repeated
        x[i] = (np.concatenate([x[i, :, 1:], x[i, :, -1:]], axis=1) if rng.random() < 0.5
                else np.concatenate([x[i, :, :1], x[i, :, :-1]], axis=1))
    gain = rng.uniform(*aug.gain, b)[:, None, None, None].astype(np.float32)
    x = np.where(x > 0, x * gain, x)
    mix = (y > 0) & (rng.random(b) < aug.p_mix)
    if mix.any() and len(negatives):
        n = negatives[rng.integers(len(negatives), size=int(mix.sum()))].astype(np.float32)
        n = n[..., SHIFT : SHIFT + 2 * SPAN]
        w = rng.uniform(*aug.mix, (len(n), 1, 1, 1)).astype(np.float32)
        a = np.minimum(x[mix], 80.0)
        x[mix] = 10 * np.log10(10 ** (a / 10) + w * 10 ** (np.minimum(n, 80.0) / 10))
    ceiling = np.where(rng.random(b) < aug.p_ceiling, rng.uniform(35, 60, b), 80.0)[:, None, None, None]
    x = np.minimum(x, ceiling)
    for i in np.flatnonzero(rng.random(b) < aug.p_band):  # SpecAugment: a band of bins back to the floor
        w = int(rng.integers(1, 7))
        lo = int(rng.integers(0, 2 * SPAN - w))
        x[i, :, :, lo : lo + w] = 0.0
    for i in np.flatnonzero(rng.random(b) < aug.p_frame):  # and one frame
        x[i, :, int(rng.integers(HISTORY))] = 0.0
    return scaled(x)


def centre(wide: np.ndarray) -> np.ndarray:
    """The network's input without augmentation."""
    return scaled(wide[..., SHIFT : SHIFT + 2 * SPAN].astype(np.float32))


def train(ex: wt.Examples, seed: int = 0, steps: int = STEPS, batch: int = 128, lr: float = 3e-3,
          log=print, aug: Augment = Augment(), channels: Sequence[int] = CHANNELS, pos_share: float = 0.5,
          negative_rate: float = NEGATIVE_RATE) -> tuple[object, float]:
    """(the trained network, its threshold): balanced cross-entropy, Adam with a cosine schedule, augmented batches."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    net = network(channels)
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    y = ex.y.astype(np.float32)
    pos = max(1.0, float(y.sum()))
    neg = max(1.0, len(y) - float(y.sum()))
    weights = np.where(y > 0, pos_share * len(y) / pos, (1 - pos_share) * len(y) / neg).astype(np.float32)  # class-balanced
    negatives = ex.x[ex.y == 0]
    net.train()
    t0 = time.process_time()
    run = 0.0
    for step in range(steps):
        i = rng.integers(len(y), size=batch)
        xb = torch.from_numpy(augment(ex.x[i], ex.y[i], rng, negatives, aug))
        logit = net(xb).squeeze(1)
        loss = (torch.nn.functional.binary_cross_entropy_with_logits(logit, torch.from_numpy(y[i]), reduction="none")
                * torch.from_numpy(weights[i])).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run = 0.98 * run + 0.02 * loss.item() if step else loss.item()
        if log and (step + 1) % 500 == 0:
            log(f"      step {step + 1}/{steps} loss {run:.3f} ({time.process_time() - t0:.0f} s)")
    net.eval()
    scores = score(net, ex.x[ex.y == 0])
    return net, threshold_at(scores, negative_rate)


def threshold_at(scores: np.ndarray, rate: float) -> float:
    """The score that lets through ``rate`` of these (training) negatives' scores, at least 0.5."""
    return float(max(0.5, np.quantile(scores, 1 - rate))) if len(scores) else 0.5


def rate_key(rate: float) -> str:
    return f"{rate:.1%}"


def score(net, wide: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """P(whistle) by the torch network (training side; the detector uses cv2.dnn)."""
    import torch

    out = []
    with torch.no_grad():
        for i in range(0, len(wide), chunk):
            out.append(torch.sigmoid(net(torch.from_numpy(centre(wide[i : i + chunk])))).squeeze(1).numpy())
    return np.concatenate(out) if out else np.zeros(0)


def export(net, threshold: float, out: Path, meta: str, others: dict[str, float] | None = None) -> CnnVerifier:
    """Write the ONNX (sigmoid included) and its JSON, and load them back as the detector will."""
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    net.probability = True
    torch.onnx.export(net, torch.zeros(1, VIEWS, HISTORY, 2 * SPAN), str(out), input_names=["patch"], output_names=["p_whistle"],
                      dynamic_axes={"patch": {0: "n"}}, opset_version=13, dynamo=False)
    net.probability = False
    n_params = sum(p.numel() for p in net.parameters())
    tuning = {"threshold": round(threshold, 6), "parameters": n_params, "meta": meta}
    if others:
        tuning["threshold_at"] = {k: round(v, 6) for k, v in others.items()}
    tuning_path(out).write_text(json.dumps(tuning, indent=1) + "\n")
    return CnnVerifier(out)


def fold(ex: wt.Examples, held_out: Iterable[str], out: Path, seed: int = 0, steps: int = STEPS, log=print) -> CnnVerifier:
    part = ex.without(held_out)
    t = time.process_time()
    net, threshold = train(part, seed, steps, log=None)
    negatives = score(net, part.x[part.y == 0])
    ver = export(net, threshold, out, f"seed {seed}; {recipe(steps)}; held out {sorted(held_out) or 'nothing'}",
                 {rate_key(r): threshold_at(negatives, r) for r in OTHER_RATES})
    if log:
        log(f"   fold {','.join(sorted(held_out)) or 'none':<44} {len(part.y):>6} candidates ({int(part.y.sum())} whistle),"
            f" threshold {threshold:.3f}, {time.process_time() - t:.0f} s")
    return ver


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=STEPS, help=f"training steps of 128 patches (default {STEPS})")
    ap.add_argument("--out", type=Path, default=WEIGHTS, help="the .onnx to write (its .json beside it)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hold-out", action="append", default=[], help="a tag to leave out (repeatable)")
    ap.add_argument("--scale", type=float, default=1.0, help="share of the synthetic items (1.0: 1200 scenes)")
    args = ap.parse_args()
    t = time.process_time()
    ex, _ = harvest(wt.items(shared_data() / "whistle", wt.SEED + args.seed, args.scale))
    print(f"{len(ex.y)} candidates, {int(ex.y.sum())} whistle, patches in {time.process_time() - t:.0f} s CPU")
    ver = fold(ex, args.hold_out, args.out, args.seed, args.steps)
    part = ex.without(args.hold_out)
    acc = float(np.mean((ver.batch(part.x[..., SHIFT : SHIFT + 2 * SPAN].astype(np.float32)) >= 0.5) == (part.y > 0)))
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, {json.loads(tuning_path(args.out).read_text())['parameters']} parameters);"
          f" threshold {ver.threshold:.3f}; training accuracy {acc:.3f} (cv2.dnn)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
