"""Train the cascade detector's verifier (hardware/whistle/verifier.py), and its leave-one-source-out folds.

    make train-whistle                      # the shipped weights, every source
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/whistle_train.py --out hardware/whistle/weights/whistle_verifier.npz
    ... --hold-out pea-trill                # a fold: no item tagged pea-trill takes part

numpy only (no extra needed; the ``train`` extra is there for the dice
networks).  Seeded: the same seed gives the same weights.

Training items are *candidates*: the cascade's first stage runs over each
item's audio with a verifier that says no to everything and records what it
was shown, so the examples are exactly what the verifier is asked at run
time.  A candidate inside a blow (onset - 0.05 s to offset + 0.1 s) is a
whistle; one outside every blow's window (onset - 0.1 s to offset + 0.5 s,
the scoring window) is not; the rest (a blow's reverberant tail) is left out.

Every item carries **tags** naming each source it draws on (the real set of
its blow or clip, the ESC-10 fold of its noise, the synthetic recipe of its
blow and of its background).  A fold leaves out every item sharing a tag
with the held-out source, so that source takes no part in training.  The
items are made with seeds of their own (1000 and up), never the benchmark's.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.paths import shared_data
from hardware.audio import RATE, read_wav, resample
from hardware.signals import envelope
from hardware.testing import audio as ta
from hardware.testing import whistle_synth as ws
from hardware.whistle.cascade import CascadeDetector, CascadeParams
from hardware.whistle.detector import HOP, N_FFT
from hardware.whistle.verifier import HISTORY, WEIGHTS, Verifier, n_features

SEED = 1000
NEGATIVE_RATE = 0.003  # share of training negatives the verifier's threshold lets through (session 6: 0.01)
STRICT_RATE = 0.001  # its strict threshold's, for the combined detector (hardware/whistle/combined.py)
BLOCK = 1024
# The first stage that finds the training candidates, as the recipes were written (sessions 8 and 9): the
# recorder says no to everything, so the cascade's re-asks of a locked-out sound (CascadeParams.reask, on
# since session 17) would add every locked sound's re-asks as candidates (session9: 54,401 -> 69,982) and the
# recipes would no longer rebuild the shipped weights.  A default of the live detector must not move the items.
HARVEST = CascadeParams(reask=0)


@dataclasses.dataclass
class Item:
    samples: np.ndarray
    blows: tuple[tuple[float, float], ...]  # (onset, offset); empty: no blow
    tags: frozenset[str]
    whole: bool = False  # a whole-clip whistle label: every candidate is the whistle


def esc_fold(path: Path) -> int:
    return int(path.name.split("-")[0])


def shift(x: np.ndarray, semitones: float) -> np.ndarray:
    """A blow at another pitch (played faster or slower, as the attribution benchmark does)."""
    return resample(x, RATE * 2 ** (semitones / 12), RATE)


def real_sets(data: Path) -> dict[str, list[tuple[dict[str, str], np.ndarray]]]:
    import csv

    out = {}
    for name in ("robot-clips", "r2k-clips", "esc10-negatives"):
        with (data / name / "manifest.csv").open(newline="") as f:
            rows = list(csv.DictReader(f))
        out[name] = [(r, resample(*read_wav(data / name / r["path"]))) for r in rows]
    return out


RECIPES = ("session8", "session9")  # session 9 adds trilled and toy blows made from real ones (docs/whistle.md)
RECIPE = "session8"  # the cascade's shipped weights (hardware/whistle/weights/whistle_verifier.npz)
COMBINED_RECIPE = "session9"  # the combined detector's (whistle_verifier_combined.npz)


def items(data: Path, seed: int = SEED, scale: float = 1.0, recipe: str = RECIPE) -> list[Item]:
    """Every training item, tagged (see the module's doc)."""
    rng = np.random.default_rng(seed)
    real = real_sets(data)
    out: list[Item] = []
    robot_blows, r2k_blows, robot_other, r2k_other = [], [], [], []
    for r, x in real["robot-clips"]:
        if r["category"] == "distant-whistle":
            continue  # another table's whistle: neither a blow to hear nor noise to refuse
        whistle = r["label"] == "whistle"
        out.append(Item(x, (), frozenset({"robot-clips"}), whole=whistle))
        (robot_blows if whistle else robot_other).append(ws.blow_piece(x) if whistle else x)
    for r, x in real["r2k-clips"]:
        if r["label"] == "whistle":
            on, off = float(r["onset_s"]), float(r["offset_s"])
            out.append(Item(x, ((on, off),), frozenset({"r2k-clips"})))
            r2k_blows.append(ws.blow_piece(x, on, off))
        else:
            out.append(Item(x, (), frozenset({"r2k-clips"})))
            r2k_other.append(x)
    esc = [(esc_fold(Path(r["path"])), x) for r, x in real["esc10-negatives"]]
    for fold, x in esc:
        out.append(Item(x, (), frozenset({"esc10", f"esc{fold}"})))

    hall = ws.HallNoise.with_speech(ta.SPEECH_LINES[3:6], seed=seed + 1)
    table = ta.NegativeStream(seed=seed + 2)
    other = ws.OtherNoise(seed=seed + 3)

    def background(kind: str) -> tuple[np.ndarray, frozenset[str]]:
        if kind == "hall":
            return hall.piece(3.0), frozenset({"hall"})
        if kind == "hum":
            return ws.low_rumble(3.0, rng) + ta.pink_noise(3.0, amp=0.03, seed=int(rng.integers(1 << 30))), frozenset({"hum"})
        if kind == "loud-hum":
            bg = hall.piece(3.0)
            t = np.arange(len(bg)) / RATE
            hz = rng.uniform(700, 1000)
            bg = bg + (10 ** (rng.uniform(10, 25) / 20) * np.sqrt(2) * np.sin(2 * np.pi * hz * t)).astype(np.float32)
            return bg, frozenset({"loud-hum", "hall"})
        if kind == "table":
            return table.segment()[: 3 * RATE], frozenset({"table"})
        if kind in ws.NEGATIVE_FAMILIES:
            return other.piece(kind, 3.0), frozenset({kind})
        if kind == "robot-other":
            return ws.fit(robot_other[int(rng.integers(len(robot_other)))], 3.0, rng), frozenset({"robot-clips"})
        if kind == "r2k-other":
            return ws.fit(r2k_other[int(rng.integers(len(r2k_other)))], 3.0, rng), frozenset({"r2k-clips"})
        fold, x = esc[int(rng.integers(len(esc)))]
        return ws.fit(x, 3.0, rng), frozenset({"esc10", f"esc{fold}"})

    def blow(kind: str) -> tuple[np.ndarray, frozenset[str]]:
        if kind == "pea-trill":
            return ws.pea_trill(rng), frozenset({"pea-trill"})
        if kind == "toy":
            return (ws.harmonic_toy(rng) if rng.random() < 0.5 else ws.two_tone(rng)), frozenset({"toy"})
        if kind == "tone":
            n = round(rng.uniform(0.2, 0.5) * RATE)
            hz = rng.uniform(1500, 4500) * (1 + rng.uniform(0, 0.01) * np.sin(2 * np.pi * rng.uniform(3, 7) * np.arange(n) / RATE))
            y = np.sin(2 * np.pi * np.cumsum(hz) / RATE) + 0.03 * rng.standard_normal(n)
            return (y * envelope(n, RATE)).astype(np.float32), frozenset({"tone"})
        pieces, tag = (robot_blows, "robot-clips") if kind == "robot" else (r2k_blows, "r2k-clips")
        piece = shift(pieces[int(rng.integers(len(pieces)))], float(rng.uniform(-6, 6)))
        return ws.cut(piece, rng), frozenset({tag})

    backgrounds = ["hall", "hum", "loud-hum", "table", "esc", "esc", "robot-other", "r2k-other", *ws.NEGATIVE_FAMILIES]
    blows = ["pea-trill", "pea-trill", "toy", "tone", "robot", "r2k"]
    for _ in range(round(1200 * scale)):
        bg, bg_tags = background(backgrounds[int(rng.integers(len(backgrounds)))])
        if rng.random() < 0.25:  # a scene without a blow
            s = ws.scene("neg", bg, None, 0.0, rng)
            out.append(Item(s.samples, (), bg_tags))
            continue
        b, b_tags = blow(blows[int(rng.integers(len(blows)))])
        s = ws.scene("pos", bg, b, float(rng.uniform(-12, 20)), rng)
        out.append(Item(s.samples, s.blows, bg_tags | b_tags))
    for _ in range(round(60 * scale)):  # long stretches of table noise: speech, laughter, music, dice
        out.append(Item(table.segment(), (), frozenset({"table"})))
    for family in ws.NEGATIVE_FAMILIES:  # and of the other negative families, each tagged apart
        for _ in range(round(40 * scale)):
            out.append(Item(ws.scene(family, other.piece(family, 6.0), None, 0.0, rng).samples, (), frozenset({family})))
    if recipe == "session9":
        out.extend(real_made(robot_blows, r2k_blows, background, rng, scale))
    return out


def real_made(robot_blows: Sequence[np.ndarray], r2k_blows: Sequence[np.ndarray],
              background: Callable[[str], tuple[np.ndarray, frozenset[str]]], rng: np.random.Generator,
              scale: float) -> list[Item]:
    """Session 9: trills, short quiet blows and toys made from *real* blows (docs/whistle.md).

    The eval's pea-trill, short-pea and toy rows are ``ws.pea_trill``/``harmonic_toy``/``two_tone``,
    whose items (tags pea-trill, toy) their folds leave out, so before session 9 those folds had never
    seen a trill or a toy at all.  These are another recipe: a real blow warped by a pea's rattle, or
    stacked into harmonics / two tones, each tagged with its real source (the source's fold never sees
    it) and with rattle / real-toy.  Each blow is matched by a scene of the same background without it,
    so the negatives keep pace with the new positives."""
    out = []
    for _ in range(round(500 * scale)):
        src = int(rng.integers(2))
        pieces, tag = (robot_blows, "robot-clips") if src == 0 else (r2k_blows, "r2k-clips")
        piece = shift(pieces[int(rng.integers(len(pieces)))], float(rng.uniform(-6, 6)))
        kind = ["rattle", "rattle", "quiet", "toy"][int(rng.integers(4))]
        if kind == "toy":
            low = shift(piece, float(rng.uniform(-14, -6)))  # a 0.6-2 kHz fundamental from a 2-4 kHz blow
            if rng.random() < 0.5:  # harmonic: the octave and the twelfth, up to 2x as loud
                n = len(low)
                b = low + sum(rng.uniform(0.1, 2.0) * np.resize(shift(low, st), n) for st in (12.0, 19.02)[: int(rng.integers(1, 3))])
            elif rng.random() < 0.5:  # two tones at once, 15-50 % apart, one 0-10 dB weaker
                b = low + 10 ** (-rng.uniform(0, 10) / 20) * np.resize(shift(low, float(rng.uniform(2.4, 7.0))), len(low))
            else:  # one after the other
                half = len(low) // 2
                b = np.concatenate([low[:half], shift(low, float(rng.uniform(2.4, 7.0)))[half:]])
            b = ws.cut(b.astype(np.float32), rng, 0.25, 0.5)
            snr, kinds = float(rng.uniform(-12, 20)), {"real-toy"}
        else:
            short = kind == "quiet"
            b = ws.cut(piece, rng, 0.15, 0.25) if short else ws.cut(piece, rng)
            b = ws.rattled(b, rng, ws.peak_hz(b))
            snr = float(rng.uniform(-3, 3)) if short else float(rng.uniform(-12, 20))
            kinds = {"rattle"}
        bg_kind = ["hall", "hall", "hum", "table", "esc", *ws.NEGATIVE_FAMILIES][int(rng.integers(9))]
        bg, bg_tags = background(bg_kind)
        s = ws.scene("pos", bg, b, snr, rng)
        out.append(Item(s.samples, s.blows, bg_tags | kinds | {tag}))
        bg, bg_tags = background(bg_kind)
        out.append(Item(ws.scene("neg", bg, None, 0.0, rng).samples, (), bg_tags))
    return out


# -- candidates ---------------------------------------------------------------------------


class _Recorder:
    """A verifier that says no to everything and keeps what it was shown, with the stream time (a patch of
    ``history`` frames: the cascade asks it for that many, as it will ask the verifier trained on them)."""

    def __init__(self, history: int = HISTORY) -> None:
        self.history = history
        self.det: CascadeDetector | None = None
        self.seen: list[tuple[float, np.ndarray]] = []

    def __call__(self, x: np.ndarray) -> float:
        assert self.det is not None
        t = (self.det.frame_now * HOP + N_FFT) / RATE  # end of the frame being decided
        self.seen.append((t, x))
        return 0.0


def candidates(item: Item, params: CascadeParams | None = None, history: int = HISTORY) -> tuple[np.ndarray, np.ndarray]:
    """(features, labels) of the candidates the first stage finds in one item; unlabelled ones dropped."""
    rec = _Recorder(history)
    det = CascadeDetector(params or HARVEST, verifier=rec)
    rec.det = det
    for i in range(0, len(item.samples), BLOCK):
        det.process(item.samples[i : i + BLOCK])
    xs, ys = [], []
    for t, x in rec.seen:
        if item.whole or any(on - 0.05 <= t <= off + 0.1 for on, off in item.blows):
            y = 1
        elif any(on - 0.1 <= t <= off + 0.5 for on, off in item.blows):
            continue
        else:
            y = 0
        xs.append(x)
        ys.append(y)
    return (np.array(xs, np.float32).reshape(-1, n_features(history)), np.array(ys, np.int8))


@dataclasses.dataclass
class Examples:
    x: np.ndarray
    y: np.ndarray
    tags: list[frozenset[str]]
    history: int = HISTORY  # the patch's frames the features were made of

    def without(self, held_out: Iterable[str]) -> Examples:
        h = set(held_out)
        keep = np.array([not (t & h) for t in self.tags], bool)
        return Examples(self.x[keep], self.y[keep], [t for t, k in zip(self.tags, keep, strict=True) if k],
                        getattr(self, "history", HISTORY))


def examples(all_items: Sequence[Item], params: CascadeParams | None = None, history: int = HISTORY) -> Examples:
    xs, ys, tags = [], [], []
    for it in all_items:
        x, y = candidates(it, params, history)
        xs.append(x)
        ys.append(y)
        tags.extend([it.tags] * len(y))
    return Examples(np.concatenate(xs), np.concatenate(ys), tags, history)


# -- the network ----------------------------------------------------------------------------


def train(ex: Examples, seed: int = 0, hidden: int = 16, epochs: int = 400, lr: float = 0.01,
          l2: float = 1e-3, meta: str = "", negative_rate: float | None = None) -> Verifier:
    """Full-batch Adam on class-balanced cross-entropy: deterministic for a seed."""
    rng = np.random.default_rng(seed)
    x, y = ex.x.astype(np.float64), ex.y.astype(np.float64)
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-3
    # The two big products in float32: half the time of float64 (deterministic all the same).
    z = ((x - mean) / std).astype(np.float32)
    pos = max(1.0, y.sum())
    neg = max(1.0, len(y) - y.sum())
    weight = np.where(y > 0, 0.5 / pos, 0.5 / neg)
    params = [rng.normal(0, 1 / np.sqrt(z.shape[1]), (z.shape[1], hidden)), np.zeros(hidden),
              rng.normal(0, 1 / np.sqrt(hidden), hidden), np.zeros(1)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    for step in range(1, epochs + 1):
        w1, b1, w2, b2 = params
        h = np.tanh((z @ w1.astype(np.float32)).astype(np.float64) + b1)
        prob = 1 / (1 + np.exp(-(h @ w2 + b2[0])))
        g_out = (prob - y) * weight
        g_w2 = h.T @ g_out + l2 * w2
        g_b2 = np.array([g_out.sum()])
        g_h = np.outer(g_out, w2) * (1 - h**2)
        g_w1 = (z.T @ g_h.astype(np.float32)).astype(np.float64) + l2 * w1
        g_b1 = g_h.sum(axis=0)
        for i, g in enumerate((g_w1, g_b1, g_w2, g_b2)):
            m[i] = 0.9 * m[i] + 0.1 * g
            v[i] = 0.999 * v[i] + 0.001 * g * g
            params[i] = params[i] - lr * (m[i] / (1 - 0.9**step)) / (np.sqrt(v[i] / (1 - 0.999**step)) + 1e-8)
    w1, b1, w2, b2 = params
    ver = Verifier(mean, std, w1, b1, w2, float(b2[0]), meta, history=getattr(ex, "history", HISTORY))
    # The threshold: what lets through only NEGATIVE_RATE of the training negatives (a
    # negative sound is asked several times, a blow needs two yes in a row).
    scores = np.array([ver(x) for x in ex.x[ex.y == 0]])
    rate = NEGATIVE_RATE if negative_rate is None else negative_rate
    ver.threshold = float(max(0.5, np.quantile(scores, 1 - rate))) if len(scores) else 0.5
    ver.strict_threshold = float(max(ver.threshold, np.quantile(scores, 1 - STRICT_RATE))) if len(scores) else 0.5
    return ver


def folds(ex: Examples, held_outs: dict[str, set[str]], seed: int = 0,
          log: Callable[[str], None] = print, negative_rate: float | None = None) -> dict[str, Verifier]:
    """One verifier per held-out source (its tags left out of training)."""
    out = {}
    for name, tags in held_outs.items():
        part = ex.without(tags)
        t = time.process_time()
        out[name] = train(part, seed, meta=f"held out: {name} (tags {sorted(tags)})", negative_rate=negative_rate)
        log(f"   fold {name:<44} {len(part.y):>6} candidates ({int(part.y.sum())} whistle), threshold {out[name].threshold:.3f},"
            f" {time.process_time() - t:.1f} s")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=WEIGHTS)
    ap.add_argument("--hold-out", action="append", default=[], help="a tag to leave out (repeatable)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scale", type=float, default=1.0,
                    help="share of the synthetic items (1.0: 1200 scenes, 60 table stretches, 40 per negative family, "
                         "session9's 500 real-made pairs; the real clips once at any scale)")
    ap.add_argument("--recipe", choices=RECIPES, default=RECIPE, help="the training items (docs/whistle.md)")
    ap.add_argument("--history", type=int, default=HISTORY,
                    help=f"frames of the verifier's patch (default {HISTORY}; session 15 tried fewer, docs/whistle.md)")
    args = ap.parse_args()
    data = shared_data() / "whistle"
    t = time.process_time()
    ex = examples(items(data, SEED + args.seed, args.scale, args.recipe), history=args.history)
    if args.hold_out:
        ex = ex.without(args.hold_out)
    print(f"{len(ex.y)} candidates, {int(ex.y.sum())} whistle, features in {time.process_time() - t:.0f} s CPU")
    frames = "" if args.history == HISTORY else f"; {args.history} frames"
    scaled = "" if args.scale == 1.0 else f"; scale {args.scale:g}"  # none at 1: the recipes rebuild their weights byte for byte
    ver = train(ex, args.seed, meta=f"seed {args.seed}; recipe {args.recipe}; held out {sorted(args.hold_out) or 'nothing'}{frames}{scaled}")
    ver.save(args.out)
    acc = np.mean([(ver(x) >= 0.5) == bool(y) for x, y in zip(ex.x, ex.y, strict=True)])
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes); training accuracy {acc:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
