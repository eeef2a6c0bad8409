"""The known-whistle matcher (hardware/whistle/known.py) judged: what it adds with a calibrated profile.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/whistle_known.py [--seed N] [--family-hours H] [--hours H]

For each of whistle_eval.py's four calibration whistles (low toy 700 Hz, toy 1200 Hz, pea 2.8 kHz,
two-tone), calibrated by the real wizard as ``whistle_eval.calibrated_recall`` does it (the same
draws, so its "calibrated" figure is this one's "off" before session 21's second step and "on" since,
with ``KNOWN_DEFAULT`` True), and for a profile of the four real-recording
whistles of ``whistle_eval.attribution`` (A-D, robot blows pitch shifted, calibrated by the wizard):

- recall on 40 fresh blows of each whistle in hall noise at -5..+15 dB, the matcher off and on;
- false alarms with each profile active, off and on: all 400 esc10-negatives clips, the table-noise
  hour (``NegativeStream(seed + 3)``) and the music, clatter, babble and laughter families, the very
  scenes ``whistle_eval.py`` builds for the seed;
- attribution of the real whistles (25 blows each in table noise, as ``whistle_eval.attribution``):
  right, left to the table, wrong.

The combined detector throughout (``Profile.detector("combined")``), with the shipped weights; "on" is the
matcher with session 21's guard and its click test (``KnownParams``' defaults), ``--unguarded`` the matcher as sessions 14-20 ran it.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import whistle_eval as we

from calibration.whistle import Profile, _Progress, calibrate
from hardware.audio import RATE, read_wav, resample
from hardware.testing import audio as ta
from hardware.testing import whistle_synth as ws
from hardware.testing.sensors import blocks_of
from hardware.whistle import known
from hardware.whistle.detector import detect

SYNTH = we.CALIBRATION_WHISTLES
REAL = we.ATTRIBUTION_WHISTLES


def _wizard(players: dict[str, np.ndarray], quiet: np.ndarray) -> Profile | str:
    from calibration.whistle import CalibrationError

    try:
        profile, _ = calibrate(list(players), 3, lambda: blocks_of(quiet), lambda n: blocks_of(players[n]),
                               lambda _n: None, _Progress(io.StringIO()), hear_distant=True)
    except CalibrationError as e:
        return str(e)
    return profile


def synthetic_profiles(seed: int) -> dict[str, tuple[Profile | str, list[ws.Scene]]]:
    """Each calibration whistle's profile and its 40 fresh scenes, drawn as whistle_eval.calibrated_recall draws them."""
    hall = ws.HallNoise(seed=seed + 21)
    out = {}
    for name, make in SYNTH.items():
        rng = we.calibration_rng(seed, name)
        quiet = hall.piece(2.0) * 0.003
        profile = _wizard({"P": ws.wizard_take(lambda m=make, r=rng: m(r))}, quiet)
        scenes = [ws.scene("cal", hall.piece(3.0), make(rng), float(rng.uniform(-5, 15)), rng) for _ in range(40)]
        out[name] = (profile, scenes)
    return out


def real_profile(data: Path, seed: int) -> tuple[Profile | str, dict[str, list[ws.Scene]], Callable[[str], np.ndarray]]:
    """One profile of the four real-recording whistles (the wizard), 40 fresh scenes of each, and a blow maker."""
    folder = data / "robot-clips" / "whistle"
    rng = np.random.default_rng(seed + 31)
    base = {p: ws.blow_piece(resample(*read_wav(folder / f))) for p, (f, _) in REAL.items()}

    def blow(p: str) -> np.ndarray:
        x = resample(base[p], RATE * 2 ** ((REAL[p][1] + rng.uniform(-0.3, 0.3)) / 12), RATE)
        return (x / (np.max(np.abs(x)) + 1e-9)).astype(np.float32)

    hall = ws.HallNoise(seed=seed + 32)
    quiet = hall.piece(2.0) * 0.003
    profile = _wizard({p: ws.wizard_take(lambda p=p: blow(p)) for p in REAL}, quiet)
    scenes = {p: [ws.scene("cal", hall.piece(3.0), blow(p), float(rng.uniform(-5, 15)), rng) for _ in range(40)]
              for p in REAL}
    return profile, scenes, blow


def switched(profile: Profile, on: bool, guard: bool = True) -> Callable[[], object]:
    """The profile's combined detector, its matcher on or off (``guard`` False: on without session 21's guard)."""
    p = dataclasses.replace(profile, known=on)

    def make() -> object:
        det = p.detector("combined")
        if not guard and det.known is not None:
            det.known.params = dataclasses.replace(det.known.params, **known.UNGUARDED)
        return det

    return make


def attribution(profile: Profile, blow: Callable[[str], np.ndarray], seed: int, on: bool,
                guard: bool = True) -> dict[str, int]:
    """whistle_eval.attribution's measure with the wizard's profile: 25 blows each in table noise."""
    rng = np.random.default_rng(seed + 41)
    stream = ta.NegativeStream(seed=seed + 42)
    det = switched(profile, on, guard)()
    got = {"right": 0, "none": 0, "wrong": 0, "wrong_sure": 0, "missed": 0}
    for p in REAL:
        for _ in range(25):
            seg = stream.segment()[: 3 * RATE] * 0.3
            ta.place(seg, blow(p) * 10 ** (rng.uniform(-20, -6) / 20), 1.0)
            det.reset()
            found = [d for d in detect(seg, det) if 0.9 <= d.onset <= 1.3]
            if not found:
                got["missed"] += 1
            elif found[0].blower == p:
                got["right"] += 1
            elif found[0].blower is None:
                got["none"] += 1
            else:
                got["wrong"] += 1
                got["wrong_sure"] += (found[0].blower_confidence or 0) >= 0.8
    return got


def false_alarms(sources: dict[str, we.Source], make: Callable[[], object]) -> dict[str, int]:
    out = {}
    for name, src in sources.items():
        if src.kind == "manifest":
            r = we.evaluate(src.manifest, make)
            out[name] = int(r["overall"]["false_alarms"])
        elif src.kind == "stream":
            out[name] = int(we.negative_hour(src.stream_hours, src.stream_seed, make)["false_alarms"])
        else:
            tally, _, _ = we.score_scenes(src.scenes, make)
            out[name] = tally.false_alarms
    return out


def parser(doc: str) -> argparse.ArgumentParser:
    """This benchmark's options (benchmarks/whistle_own.py takes the same)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hours", type=float, default=1.0, help="table noise (default 1 h)")
    ap.add_argument("--family-hours", type=float, default=1.0, help="hours of each negative family (default 1)")
    ap.add_argument("--parts", default="recall,alarms,attribution", help="comma-separated: recall, alarms, attribution")
    ap.add_argument("--only", default="", help="comma-separated profile names to run (default all)")
    ap.add_argument("--unguarded", action="store_true",
                    help="whistle_known.py: the matcher on without session 21's guard (known.UNGUARDED), as session 14-20 ran it")
    return ap


def setup(doc: str) -> tuple[argparse.Namespace, set[str], Path] | None:
    """The options, the parts asked for and the shared data folder (None, said why, when there is none)."""
    args = parser(doc).parse_args()
    data = we.whistle_dir()
    if data is None:
        print("shared data not found (BELLWETHER_SHARED_DATA)")
        return None
    return args, set(args.parts.split(",")), data


def main() -> int:
    if (ready := setup(__doc__)) is None:
        return 1
    args, parts, data = ready
    c0 = time.process_time()
    g = not args.unguarded
    print(f"seed {args.seed}: the known-whistle matcher, combined detector, off / on ({'guarded' if g else 'unguarded'})")
    profiles: dict[str, tuple[Profile | str, dict[str, list[ws.Scene]]]] = {}
    for name, (prof, scenes) in synthetic_profiles(args.seed).items():
        profiles[name] = (prof, {name: scenes})
    real, real_scenes, blow = real_profile(data, args.seed)
    profiles["real A-D"] = (real, real_scenes)
    if args.only:
        keep = set(args.only.split(","))
        profiles = {k: v for k, v in profiles.items() if k in keep}

    if "recall" in parts:
        print("\n== recall on 40 fresh blows in hall noise at -5..+15 dB: off / on")
        total = [0, 0]
        for pname, (prof, scenes) in profiles.items():
            for wname, sc in scenes.items():
                if isinstance(prof, str):
                    print(f"   {pname:<16} {wname:<16} calibration failed ({prof})")
                    continue
                pname_note = " (no template: on = off)" if switched(prof, True)().known is None else ""
                off, _, _ = we.score_scenes(sc, switched(prof, False))
                on, _, _ = we.score_scenes(sc, switched(prof, True, g))
                total[0] += off.hits
                total[1] += on.hits
                print(f"   {pname:<16} {wname:<16} {off.hits:>2}/40 -> {on.hits:>2}/40   "
                      f"(false alarms in the scenes {off.false_alarms} -> {on.false_alarms}){pname_note}", flush=True)
        print(f"   all: {total[0]} -> {total[1]} (+{total[1] - total[0]})")

    if "attribution" in parts and not isinstance(real, str):
        print("\n== attribution, real A-D (wizard profile), 25 blows each in table noise: off / on")
        for on in (False, True):
            a = attribution(real, blow, args.seed, on, g)
            print(f"   {'on ' if on else 'off'}: right {a['right']}, left to the table {a['none']}, wrong {a['wrong']} "
                  f"(confidence >= 0.8: {a['wrong_sure']}), missed {a['missed']}", flush=True)

    if "alarms" in parts:
        sources = we.build_sources(data, args.seed, False, args.family_hours)
        keep = {we.ESC: sources[we.ESC]} | {f: sources[f] for f in ws.NEGATIVE_FAMILIES}
        every = we.with_table(keep, args.hours, args.seed)
        names = list(every)
        print(f"\n== false alarms with each profile active: off -> on ({', '.join(names)})")
        sums = {n: [0, 0] for n in names}  # over the four calibration whistles' profiles (the rule's figure)
        for pname, (prof, _) in profiles.items():
            if isinstance(prof, str):
                continue
            off = false_alarms(every, switched(prof, False))
            # no template (a pea's trill, blows at different pitches): the matcher is not there, on = off
            on = off if switched(prof, True)().known is None else false_alarms(every, switched(prof, True, g))
            for n in names:
                if pname in SYNTH:
                    sums[n][0] += off[n]
                    sums[n][1] += on[n]
            print(f"   {pname:<16} " + "; ".join(f"{n.split(' (')[0]} {off[n]} -> {on[n]}" for n in names), flush=True)
        print("   summed over the calibration whistles' profiles: "
              + "; ".join(f"{n.split(' (')[0]} {a} -> {b}" for n, (a, b) in sums.items()))
    print(f"\n({time.process_time() - c0:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
