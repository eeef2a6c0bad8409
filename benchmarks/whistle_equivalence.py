"""Do the whistle detectors still hear exactly what main's heard?  (issue #15's speed work: no tuning, same events.)

    BELLWETHER_SHARED_DATA=../shared/data .venv/bin/python benchmarks/whistle_equivalence.py --write   # at the reference commit
    BELLWETHER_SHARED_DATA=../shared/data .venv/bin/python benchmarks/whistle_equivalence.py           # after a change

The corpus, fixed: every clip of robot-clips, r2k-clips and esc10-negatives (resampled to 16 kHz whole, as
``whistle eval`` does, and robot-clips and r2k-clips also streamed from their own rate through the live
``Resampler`` in 64 ms blocks), and ``whistle_eval.py``'s seed-0 quick scenes (the two real mixes, pea-trill,
toy, hum, the loud hum, short quiet peas, hall noise, music, babble, laughter, clatter) plus 6 minutes of table
noise (``NegativeStream(seed=3)``).  Each runs through session 4's detector, the cascade (``accepts=2``, as the
benchmark runs it) and the combined default, all with a four-whistle attributor, so attribution is compared
too; the combined detector's look at each cascade-only report (``on_cascade``: evidence and verdict) is kept
as well.  Events must match in number and order, with every time, pitch, confidence, feature and the
attribution equal to ``--tol`` (relative; default 1e-9).  Every input the verifier is given (``patch_features``'
output, float32) is kept too, as the sha256 of its bytes in call order, and must match exactly whatever
``--tol`` says (session 9's speed-up moved these by 1 ulp, which moved the weights ``whistle_train.py``
rebuilds).  The reference is written to ``benchmarks/out/whistle_equivalence.json`` (git-ignored).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import whistle_eval as we

from companion.config import save_text_atomic
from hardware.audio import RATE, Resampler, read_wav, resample
from hardware.testing import audio as ta
from hardware.whistle.cascade import CascadeDetector, CascadeParams
from hardware.whistle.combined import CombinedDetector, strict_cascade
from hardware.whistle.detector import Detection, WhistleDetector, detect
from hardware.whistle.signature import Attributor, Signature
from hardware.whistle.verifier import Verifier

OUT = Path(__file__).resolve().parent / "out" / "whistle_equivalence.json"
BLOCK = 1024
TABLE_S = 360.0


def attributor() -> Attributor:
    """Four whistles a few semitones apart (the attribution benchmark's spacing)."""
    return Attributor([Signature(f"w{i}", hz, 25.0, 10.0, -20.0 + 5 * i, 1.5) for i, hz in
                       enumerate((1250.0, 2000.0, 2500.0, 3150.0))])


def corpus(data: Path) -> Iterator[tuple[str, np.ndarray, float]]:
    """(name, samples, rate): rate 16 kHz samples go in 64 ms blocks; other rates through the live Resampler."""
    for folder in ("robot-clips", "r2k-clips", "esc10-negatives"):
        with (data / folder / "manifest.csv").open() as f:
            paths = sorted({line.split(",")[0] for line in f.read().splitlines()[1:] if line})
        for p in paths:
            x, rate = read_wav(data / folder / p)
            yield f"{folder}/{p}", resample(x, rate), RATE
            if folder != "esc10-negatives" and rate != RATE:
                yield f"{folder}/{p}@{rate}", x, rate
    sources = we.build_sources(data, 0, True)
    for name, src in sources.items():
        for i, s in enumerate(src.scenes):
            yield f"{name}#{i}", s.samples, RATE
    stream = ta.NegativeStream(seed=3)
    yield "table noise 6 min (seed 3)", np.concatenate([stream.segment() for _ in range(round(TABLE_S / 10))]), RATE


def event(d: Detection) -> dict[str, object]:
    out = dataclasses.asdict(d)
    out["features"] = dict(sorted(d.features.items()))
    return out


def run(det: object, x: np.ndarray, rate: float) -> list[Detection]:
    if rate == RATE:
        return detect(x, det, BLOCK)
    r, block, out = Resampler(rate), round(0.064 * rate), []
    for i in range(0, len(x), block):
        out.extend(det.process(r(x[i : i + block])))
    return out


class Recording:
    """A verifier that keeps the sha256 of every input it is given (the features, bit for bit), then answers as
    the verifier it wraps (its thresholds too, which the cascade reads)."""

    def __init__(self, verifier: Verifier, inputs: list[str]) -> None:
        self.verifier, self.inputs = verifier, inputs
        self.threshold, self.strict_threshold = verifier.threshold, verifier.strict_threshold

    def __call__(self, x: np.ndarray) -> float:
        self.inputs.append(f"{x.dtype}{x.shape}:{hashlib.sha256(np.ascontiguousarray(x).tobytes()).hexdigest()}")
        return self.verifier(x)


Maker = Callable[[list[dict[str, object]], list[str]], object]


def detectors() -> dict[str, Maker]:
    """Each detector, made with a list for the combined gate's looks and one for the verifier's inputs."""
    a = attributor()

    def combined(looks: list[dict[str, object]], inputs: list[str]) -> object:
        def on_cascade(d: Detection, ev: object, ok: bool) -> None:
            looks.append({"det": event(d), "evidence": dataclasses.asdict(ev), "ok": ok})

        cascade = strict_cascade(attribute=a, verifier=Recording(Verifier.combined(), inputs))
        return CombinedDetector(shipped=WhistleDetector(attribute=a), cascade=cascade, attribute=a, on_cascade=on_cascade)

    return {
        "session4": lambda looks, inputs: WhistleDetector(attribute=a),
        "cascade": lambda looks, inputs: CascadeDetector(CascadeParams(accepts=2), attribute=a,
                                                         verifier=Recording(Verifier.shipped(), inputs)),
        "combined": combined,
    }


def measure(data: Path) -> tuple[dict[str, dict[str, object]], dict[str, float]]:
    result: dict[str, dict[str, object]] = {}
    cpu = dict.fromkeys(detectors(), 0.0)
    makers = detectors()
    for name, x, rate in corpus(data):
        item: dict[str, object] = {}
        for kind, make in makers.items():
            looks: list[dict[str, object]] = []
            inputs: list[str] = []
            det = make(looks, inputs)
            c = time.process_time()
            events = [event(d) for d in run(det, x, rate)]
            cpu[kind] += time.process_time() - c
            item[kind] = events
            if looks:
                item[f"{kind} looks"] = looks
            if inputs:
                item[f"{kind} features"] = inputs  # strings: compared exactly
        result[name] = item
    return result, cpu


def same(a: object, b: object, tol: float) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], tol) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        return a == b or math.isclose(a, b, rel_tol=tol, abs_tol=tol)
    return a == b


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write the reference (run it at the reference commit)")
    ap.add_argument("--reference", type=Path, default=OUT)
    ap.add_argument("--tol", type=float, default=1e-9)
    args = ap.parse_args()
    data = we.whistle_dir()
    if data is None:
        print("shared data not found (BELLWETHER_SHARED_DATA): nothing compared")
        return 0
    if not args.write and not args.reference.exists():
        # make bench runs every script bare: without a reference there is nothing to compare with
        print(f"no reference at {args.reference}: write one with --write at the reference commit")
        return 0
    got, cpu = measure(data)
    counts = {k: sum(len(v[k]) for v in got.values()) for k in ("session4", "cascade", "combined")}
    looks = sum(len(v.get("combined looks", [])) for v in got.values())
    inputs = {k: sum(len(v.get(f"{k} features", [])) for v in got.values()) for k in ("cascade", "combined")}
    print(f"{len(got)} items; events: {counts}; combined cascade-only looks: {looks}; verifier inputs: {inputs}; "
          f"CPU s: {', '.join(f'{k} {v:.1f}' for k, v in cpu.items())}")
    if args.write:
        save_text_atomic(args.reference, json.dumps(got))
        print(f"reference written: {args.reference}")
        return 0
    ref = json.loads(args.reference.read_text())
    got = json.loads(json.dumps(got))  # the same float round trip as the reference
    bad = [(name, kind) for name in ref for kind in ref[name] if not same(ref[name][kind], got.get(name, {}).get(kind), args.tol)]
    bad += [(name, "missing") for name in got if name not in ref]
    for name, kind in bad[:20]:
        print(f"DIFFERENT: {name} [{kind}]: reference {ref.get(name, {}).get(kind)} now {got.get(name, {}).get(kind)}")
    print(f"{'SAME' if not bad else f'{len(bad)} DIFFERENT'}: {len(ref)} items against {args.reference.name} (tol {args.tol:g})")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
