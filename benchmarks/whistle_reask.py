"""Session 17: the verifier's lockout, and ``CascadeParams.reask`` (docs/whistle.md, "Session 17").

The cascade leaves a sound alone once its verifier has turned it down ``max_attempts`` times.  This replays one
seed's rows (``whistle_eval.build_sources``) through the combined detector with that seed's fold verifiers
(``WHISTLE_FOLDS`` of a ``whistle_eval.py --detector combined`` run) and

- ``--diag``: for every blow the detector without re-asks (``reask=0``, the default until session 17) misses,
  says whether the lockout was on during it (a frame at the locked sound's pitch came while it lasted) and whether
  the verifier, asked at those locked frames, would have said yes (the probe asks and records but answers no, so the
  detections are reask 0's: checked against a plain run);
  the same lockouts counted on the negatives (music, clatter, ESC-10);
- ``--variants K:N,...``: reask 0 against ``reask=K, reask_frames=N``: per row, blows heard, false alarms, and per
  blow heard by both whether it was reported at another moment (each blow's first hit's report time).
- ``--sub-hold DB,...`` (session 18): the default against ``DetectorParams.sub_hold_db=DB`` (session 4's half), the same
  per-row comparison, with the p95 of the blows both hear; with ``--calibration`` (session 18, seed 25's rule) the
  same on the eval's calibration rows (``whistle_eval.calibration_rows``: each whistle's 40 fresh blows, the generic
  detector and the wizard's profile, the shipped verifier as the eval's calibration table uses), per blow.
- ``--gate KEY=V[+KEY=V],...`` (session 20): the default against ``CombinedParams`` with those fields (e.g. the gate's
  steady low line read looser: ``weak_low_db=6+steady_low_db=10``), the same per-row comparison with the p95 of the
  blows both hear; a key ``s4.NAME`` (session 26) sets session 4's ``DetectorParams.NAME`` instead.
- ``--cand-folds PATH`` (session 19): the default with the ``--folds`` verifiers against the default with another
  set of the same seed's fold verifiers (e.g. trained at ``whistle_eval.py --train-scale 3``), the same comparison.

``--diag`` is a diagnosis for seen seeds; the comparisons judged sessions 17 and 18's changes, each once on an unseen
seed under a rule committed first (docs/whistle.md).  ``PYTHONPATH=. python benchmarks/whistle_reask.py --seed 21
--folds /tmp/s21/f21.pkl.session9 --diag --variants 1:4,2:4``
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import whistle_eval as we

from hardware.whistle.cascade import CascadeParams
from hardware.whistle.combined import CombinedDetector, CombinedParams
from hardware.whistle.detector import HOP, N_FFT, RATE, DetectorParams, detect
from hardware.whistle.evaluation import in_window
from hardware.whistle.verifier import Verifier

BLOW = ["mix: robot blows in esc 1-3 + robot other", "mix: r2k blows in esc 4-5 + r2k other", "pea-trill", "toy", "hum",
        we.LOUD_HUM, we.SHORT_QUIET, we.QUIET_PEA, we.QUIET_REAL]
NEG = ["music", "clatter", "babble", "laughter", "hall noise, no blow"]
PROBE = CascadeParams(reask=10**9, reask_frames=1)  # every locked frame asked again, the answer recorded, not used


def frame_time(j: int) -> float:
    return (j * HOP + N_FFT / 2) / RATE


def probed(verifier: object) -> tuple[CombinedDetector, list[tuple[int, int, float]]]:
    """The combined detector whose cascade, at every locked frame, asks again and records the probability but
    answers no (so it never lifts the lock: reask 0's detections)."""
    det = CombinedDetector.of(verifier=verifier, cascade=PROBE)
    c, log = det.cascade, []
    ask = c.ask

    def asking(j: int, centre: int) -> float:
        prob = ask(j, centre)
        if c._reject_asked == j and c._reasks > 0:  # the lockout's ask (cascade.py sets _reject_asked just before)
            log.append((j, centre, prob))
            return 0.0
        return prob

    c.ask = asking
    return det, log


def scenes_of(src: dict, name: str, data: Path) -> list[tuple[np.ndarray, list[tuple[float, float]], str]]:
    if name == we.ESC:
        return [(x, [], f"esc{we.esc_fold(r)}")
                for r, x in we.load_real(data / "esc10-negatives", data / "esc10-negatives" / "manifest.csv", lambda r: True)]
    return [(s.samples, list(s.blows), name) for s in src[name].scenes]


def run(rows: dict, folds: dict, make) -> dict:
    """Per row: per blow its first hit's report time (ms after the onset, None: missed), and false alarms."""
    out = {}
    for name, scenes in rows.items():
        times, fa, dets = [], 0, {}
        for x, blows, key in scenes:
            det = dets.get(key) or dets.setdefault(key, make(folds[key]))
            det.reset()
            got = detect(x, det, we.BLOCK)
            used = set()
            for a, z in blows:
                hit = [i for i, d in enumerate(got) if in_window(d.detected_at, a, z)]
                used.update(hit)
                times.append((min(got[i].detected_at for i in hit) - a) * 1000 if hit else None)
            fa += len(got) - len(used)
        out[name] = (times, fa)
    return out


def diag(rows: dict, folds: dict, ref: dict) -> None:
    print("\n== diagnosis: blows reask 0 misses, and the lockout during them (probe = the verifier asked at every "
          "locked frame)")
    print(f"{'row':<42} {'blows':>5} {'missed':>6} {'locked':>6} {'yes':>4} {'yes2':>4} {'same':>4}   locked heard")
    total = [0, 0, 0, 0]
    for name, scenes in rows.items():
        missed = locked = yes = yes2 = heard_locked = neg_locked = neg_yes = 0
        times, b = [], 0
        for x, blows, key in scenes:
            det, log = probed(folds[key])
            got = detect(x, det, we.BLOCK)
            for a, z in blows:
                hit = [d.detected_at for d in got if in_window(d.detected_at, a, z)]
                times.append((min(hit) - a) * 1000 if hit else None)
                during = [(j, p) for j, _, p in log if a <= frame_time(j) <= z]
                thr = det.cascade._threshold
                if hit:
                    heard_locked += bool(during)
                else:
                    missed += 1
                    locked += bool(during)
                    yes += any(p >= thr for _, p in during)
                    yes2 += any(p >= thr and q >= thr for (_, p), (_, q) in itertools.pairwise(during))
                b += 1
            if not blows:
                neg_locked += bool(log)
                neg_yes += any(p >= det.cascade._threshold for _, _, p in log)
        same = times == ref[name][0]
        if any(s[1] for s in scenes):
            total = [t + v for t, v in zip(total, (missed, locked, yes, yes2), strict=True)]
            print(f"{name[:42]:<42} {b:>5} {missed:>6} {locked:>6} {yes:>4} {yes2:>4} {same!s:>5}   {heard_locked}", flush=True)
        else:
            print(f"{name[:42]:<42} clips/scenes {len(scenes)}: with a lockout {neg_locked}, a yes at a locked frame "
                  f"{neg_yes} (same as reask 0: {same})", flush=True)
    print(f"{'blow rows in sum':<42} {'':>5} {total[0]:>6} {total[1]:>6} {total[2]:>4} {total[3]:>4}")


def compare(rows: dict, ref: dict, cand: dict, label: str, against: str = "reask 0") -> None:
    print(f"\n== {label} against {against}")
    print(f"{'row':<42} {'ref':>4} {'cand':>4} {'both':>4} {'later':>5} {'sooner':>6} {'FA ref':>6} {'FA cand':>7}"
          f" {'p50/p95 ref':>12} {'p50/p95 cand':>12} {'p95 both':>9} new blows (ms)")
    gain = 0
    for name in rows:
        r, c = ref[name][0], cand[name][0]
        both = [(x, y) for x, y in zip(r, c, strict=True) if x is not None and y is not None]
        later = sum(y > x + 1e-6 for x, y in both)
        sooner = sum(y < x - 1e-6 for x, y in both)
        rr, cc = [x for x in r if x is not None], [y for y in c if y is not None]
        new = sorted(round(y) for x, y in zip(r, c, strict=True) if x is None and y is not None)

        def q(v):
            return "-" if not v else f"{np.percentile(v, 50):.0f}/{np.percentile(v, 95):.0f}"

        if name in BLOW:
            gain += len(cc) - len(rr)
        p95 = "-" if not both else "/".join(f"{np.percentile(v, 95):.0f}" for v in zip(*both, strict=True))
        print(f"{name[:42]:<42} {len(rr):>4} {len(cc):>4} {len(both):>4} {later:>5} {sooner:>6} {ref[name][1]:>6} "
              f"{cand[name][1]:>7} {q(rr):>12} {q(cc):>12} {p95:>9} {new}", flush=True)
    print(f"blow rows gained: {gain:+d}")


def calibration(seed: int, holds: list[str]) -> None:
    """The eval's calibration rows (generic and calibrated, the shipped verifier), the default against each
    ``sub_hold_db``, per blow: ``compare``'s table.  A whistle whose calibration failed has its generic row only."""
    import dataclasses

    from calibration.whistle import Profile

    rows, makers = {}, {}
    for name, profile, scenes in we.calibration_rows(seed):
        for col, prof in [("generic", Profile())] + ([("calibrated", profile)] if isinstance(profile, Profile) else []):
            key = f"cal {name} {col}"
            rows[key] = [(s.samples, list(s.blows), key) for s in scenes]
            makers[key] = prof
        if not isinstance(profile, Profile):
            print(f"{name}: calibration failed ({profile})")

    def make(db: float):
        def build(key: str):
            prof = makers[key]
            over = {**prof.overrides, "sub_hold_db": db} if db else prof.overrides
            return dataclasses.replace(prof, overrides=over).detector("combined")
        return build

    keys = {k: k for k in rows}
    base = run(rows, keys, make(0.0))
    for db in holds:
        cand = run(rows, keys, make(float(db)))
        compare(rows, base, cand, f"calibration rows, sub_hold_db {db}", "the default")
        for col in ("generic", "calibrated"):
            gain = sum(sum(t is not None for t in cand[k][0]) - sum(t is not None for t in base[k][0])
                       for k in rows if k.endswith(col))
            print(f"calibration rows gained, {col}: {gain:+d}")


def _set(params, key: str, value: str):
    """``params`` with one field set from text, the field keeping its type (relook=3 an int, ring_guard=1 a bool)."""
    kind = type(getattr(params, key))
    return replace(params, **{key: float(value) != 0 if kind is bool else kind(float(value))})


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--folds", default="", help="the seed's fold verifiers (a WHISTLE_FOLDS .pkl)")
    ap.add_argument("--diag", action="store_true")
    ap.add_argument("--variants", default="", help="reask:reask_frames,...")
    ap.add_argument("--no-negatives", action="store_true")
    ap.add_argument("--sub-hold", default="", help="session 4's DetectorParams.sub_hold_db values, each against the default")
    ap.add_argument("--gate", default="",
                    help="session 20: KEY=V[+KEY=V],... CombinedParams fields, each set against the default, per blow")
    ap.add_argument("--cand-folds", default="",
                    help="session 19: the default with --folds against the default with these fold verifiers (the same "
                         "seed's folds trained otherwise, e.g. at another --train-scale), per blow")
    ap.add_argument("--calibration", action="store_true",
                    help="with --sub-hold: the eval's calibration rows instead (no folds read; the shipped verifier)")
    args = ap.parse_args()
    t0 = time.time()
    if args.calibration:
        calibration(args.seed, args.sub_hold.split(",") if args.sub_hold else ["6"])
        print(f"done {time.time() - t0:.0f} s")
        return 0
    if not args.folds:
        ap.error("--folds is required (but with --calibration)")
    with open(args.folds, "rb") as f:
        folds = pickle.load(f)
    data = we.whistle_dir()
    src = we.build_sources(data, args.seed, quick=False, family_hours=1.0)
    names = BLOW + ([] if args.no_negatives else [*NEG, we.ESC])
    rows = {n: scenes_of(src, n, data) for n in names}
    print(f"seed {args.seed}, folds {args.folds}; built in {time.time() - t0:.0f} s", flush=True)

    def default(v: Verifier) -> CombinedDetector:
        return CombinedDetector.of(verifier=v)

    # The default with --folds: both comparisons below measure against it, so it is run once (1-2 min a seed).
    base = run(rows, folds, default) if args.cand_folds or args.sub_hold or args.gate else None
    for spec in filter(None, args.gate.split(",")):
        gp, sp = CombinedParams(), DetectorParams()
        for k, v in (kv.split("=") for kv in spec.split("+")):
            if k.startswith("s4."):  # session 26: session 4's half, e.g. s4.low_line_db=12
                sp = _set(sp, k[3:], v)
            else:
                gp = _set(gp, k, v)
        cand = run(rows, folds, lambda v, gp=gp, sp=sp: CombinedDetector.of(sp, verifier=v, params=gp))
        compare(rows, base, cand, f"CombinedParams {spec}", "the default")
    if args.gate and not (args.cand_folds or args.sub_hold or args.diag or args.variants):
        print(f"done {time.time() - t0:.0f} s")
        return 0
    if args.cand_folds:
        with open(args.cand_folds, "rb") as f:
            other = pickle.load(f)
        cand = run(rows, other, default)
        compare(rows, base, cand, f"the default with the folds {args.cand_folds}", f"the folds {args.folds}")
        if not (args.sub_hold or args.diag or args.variants):
            print(f"done {time.time() - t0:.0f} s")
            return 0
    if args.sub_hold:
        for db in args.sub_hold.split(","):
            sp = DetectorParams(sub_hold_db=float(db))
            cand = run(rows, folds, lambda v, sp=sp: CombinedDetector.of(sp, verifier=v))
            compare(rows, base, cand, f"sub_hold_db {db}", "the default")
        if not (args.diag or args.variants):
            print(f"done {time.time() - t0:.0f} s")
            return 0
    ref = run(rows, folds, lambda v: CombinedDetector.of(verifier=v, cascade=CascadeParams(reask=0)))
    print(f"reask 0 run {time.time() - t0:.0f} s", flush=True)
    if args.diag:
        diag(rows, folds, ref)
    for spec in filter(None, args.variants.split(",")):
        k, n = (int(v) for v in spec.split(":"))
        cp = replace(CascadeParams(), reask=k, reask_frames=n)
        cand = run(rows, folds, lambda v, cp=cp: CombinedDetector.of(verifier=v, cascade=cp))
        compare(rows, ref, cand, f"reask {k}, every {n} frames")  # against reask 0
    print(f"done {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
