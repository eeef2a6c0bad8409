"""How a calibrated profile exempts the table's own whistles (``own_whistles``: "under" or "near"), judged.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/whistle_own.py [--seed N] [--family-hours H] [--hours H]

Session 15 (issue #15: calibration must help, not hurt).  For each of whistle_eval.py's four calibration
whistles (low toy 700 Hz, toy 1200 Hz, pea 2.8 kHz, two-tone), calibrated by the real wizard as
``whistle_eval.calibrated_recall`` does it (the same draws: whistle_known.synthetic_profiles), and for the
wizard's profile of the four real-recording whistles A-D (whistle_known.real_profile):

- recall on 40 fresh blows of each calibration whistle in hall noise at -5..+15 dB: the generic detector,
  the profile with "under" (session 10's handling: both edges under the lowest whistle, for every sound) and
  with "near" (only blows near a calibrated whistle's pitch exempt: DetectorParams.own_hz);
- false alarms with each calibration whistle's profile active, "under" and "near" (and the generic detector
  once): all 400 esc10-negatives clips, the table-noise stream (``NegativeStream(seed + 3)``) and the music,
  clatter, babble and laughter families, the very scenes ``whistle_eval.py`` builds for the seed (with
  ``--only`` some whistles, the generic detector's only when "generic" is in ``--parts``);
- attribution of the real whistles A-D (25 blows each in table noise, whistle_known.attribution) and their
  recall (40 fresh blows each), "under" and "near".

The combined detector throughout (``Profile.detector("combined")``), with the shipped weights, the
known-whistle matcher off (its shipped default).
"""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import whistle_eval as we
import whistle_known as wk

from calibration.whistle import OWN_WHISTLES, Profile
from hardware.testing import whistle_synth as ws


def handled(profile: Profile, own: str) -> Profile:
    """The profile with its own whistles handled so ("under" or "near"), the known-whistle matcher off."""
    return dataclasses.replace(profile, own=own, known=False)


def main() -> int:
    if (ready := wk.setup(__doc__)) is None:
        return 1
    args, parts, data = ready
    c0 = time.process_time()
    print(f"seed {args.seed}: the table's own whistles, combined detector, generic / under / near", flush=True)
    profiles = wk.synthetic_profiles(args.seed)
    if args.only:
        keep = set(args.only.split(","))
        profiles = {k: v for k, v in profiles.items() if k in keep}
    generic = Profile()

    if "recall" in parts:
        print("\n== recall on 40 fresh blows in hall noise at -5..+15 dB: generic / under / near")
        total = dict.fromkeys(("generic", *OWN_WHISTLES), 0)
        for name, (prof, scenes) in profiles.items():
            if isinstance(prof, str):
                g, _, _ = we.score_scenes(scenes, generic.detector)
                print(f"   {name:<16} calibration failed ({prof}); generic {g.hits}/40", flush=True)
                continue
            got = {"generic": we.score_scenes(scenes, generic.detector)[0].hits}
            for own in OWN_WHISTLES:
                got[own] = we.score_scenes(scenes, handled(prof, own).detector)[0].hits
            for k, v in got.items():
                total[k] += v
            s = prof.signatures[0]
            print(f"   {name:<16} {s.peak_hz:.0f} Hz (spread {s.pitch_spread_cents:.0f} cents): "
                  + ", ".join(f"{k} {v}/40" for k, v in got.items()), flush=True)
        print("   all calibrated: " + ", ".join(f"{k} {v}" for k, v in total.items()))

    if "attribution" in parts:
        real, real_scenes, blow = wk.real_profile(data, args.seed)
        if isinstance(real, str):
            print(f"\n== real A-D: calibration failed ({real})")
        else:
            print("\n== real A-D (wizard profile): attribution, 25 blows each in table noise; recall of 40 fresh blows each")
            for own in OWN_WHISTLES:
                prof = handled(real, own)
                a = wk.attribution(prof, blow, args.seed, False)
                rec = {p: we.score_scenes(sc, prof.detector)[0].hits for p, sc in real_scenes.items()}
                print(f"   {own:<6} right {a['right']}, left to the table {a['none']}, wrong {a['wrong']} "
                      f"(confidence >= 0.8: {a['wrong_sure']}), missed {a['missed']}; recall "
                      + ", ".join(f"{p} {n}/40" for p, n in rec.items()), flush=True)

    # The generic detector's false alarms (the same for every profile): with --only, only when "generic" is in
    # --parts, so a run split over processes by whistle counts them once.
    with_generic = "generic" in parts or ("alarms" in parts and not args.only)
    if "alarms" in parts or with_generic:
        sources = we.build_sources(data, args.seed, False, args.family_hours)
        keep = {we.ESC: sources[we.ESC]} | {f: sources[f] for f in ws.NEGATIVE_FAMILIES}
        every = we.with_table(keep, args.hours, args.seed)
        names = list(every)
        short = {n: n.split(" (")[0] for n in names}
        print(f"\n== false alarms with each profile active ({', '.join(names)})")
        if with_generic:
            g = wk.false_alarms(every, generic.detector)
            print("   generic detector: " + "; ".join(f"{short[n]} {g[n]}" for n in names), flush=True)
        sums = {own: dict.fromkeys(names, 0) for own in OWN_WHISTLES}
        for name, (prof, _) in profiles.items():
            if isinstance(prof, str) or "alarms" not in parts:
                continue
            got = {own: wk.false_alarms(every, handled(prof, own).detector) for own in OWN_WHISTLES}
            for own in OWN_WHISTLES:
                for n in names:
                    sums[own][n] += got[own][n]
            print(f"   {name:<16} under -> near: " + "; ".join(f"{short[n]} {got['under'][n]} -> {got['near'][n]}"
                                                           for n in names), flush=True)
        print("   summed over the calibration whistles' profiles, under -> near: "
              + "; ".join(f"{short[n]} {sums['under'][n]} -> {sums['near'][n]}" for n in names))
    print(f"\n({time.process_time() - c0:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
