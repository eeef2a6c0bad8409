"""Whistle sensing figures, per source, with the sources each choice was tuned on named.

    .venv/bin/python benchmarks/whistle_eval.py [--quick] [--seed 0] [--hours 1.0]

Sources: the three real sets in ``shared/data/whistle`` (robot-clips, r2k-clips,
esc10-negatives, the last split by its recording fold) and the synthetic
families of ``hardware.testing.whistle_synth`` (real blows in real noise, pea
trills, two-tone and harmonic toys, hum and motors, hall noise without a
blow) plus an hour of table noise (``hardware.testing.audio.NegativeStream``:
espeak-ng speech, laughter, music, dice).

No threshold is chosen here: the shipped detector is session 4's (eb88db3,
its refractory bug fixed), whose thresholds were set in session 1 on the
robot clips, on synthesised blows (thin tones, mild pea trills, harmonic
toys) and on the synthetic table-noise stream.  Each source is marked with
what that tuning saw of it (``USED``): r2k-clips, esc10-negatives, the hall
noise and the wide-trill, toy and hum recipes of ``whistle_synth`` came
later and are held out.  The hard cases the detector fails (a steady hum
louder than the whistle, a short quiet pea blow) are rows here, not tests.

Then: real-time factor in 64 ms blocks on one core, attribution on four
distinct whistles, and calibrated recall against the generic detector.
Figures are CPU time (time.process_time), so other load does not distort them.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import io
import os
import pickle
import sys
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # whistle_train, for the cascade's folds

from companion.config import save_bytes_atomic
from companion.paths import shared_data
from hardware.audio import RATE, read_wav, resample
from hardware.testing import audio as ta
from hardware.testing import whistle_synth as ws
from hardware.whistle.detector import DetectorParams, WhistleDetector, detect
from hardware.whistle.evaluation import Row, Tally, evaluate, in_window, read_manifest, score_file
from hardware.whistle.signature import Signature

BLOCK = 1024  # 64 ms at 16 kHz: the live block
CASCADE_ACCEPTS = 2  # consecutive yes the cascade's default (CascadeParams.accepts) needs
TABLE = "table noise {hours:g} h (seed + 3)"
TARGETS = "targets on held-out sources: recall >= 0.95 at precision >= 0.95; FA <= 0.5/h; latency p95 <= 150 ms"


# -- the sources -----------------------------------------------------------------------


@dataclasses.dataclass
class Source:
    name: str
    kind: str  # "manifest" | "scenes" | "stream"
    manifest: Path | None = None
    scenes: list[ws.Scene] = dataclasses.field(default_factory=list)
    stream_hours: float = 0.0
    stream_seed: int = 0


def whistle_dir() -> Path | None:
    p = shared_data() / "whistle"
    return p if (p / "robot-clips" / "manifest.csv").exists() else None


def esc_fold(r: dict[str, str]) -> int:
    return int(Path(r["path"]).name.split("-")[0])


def load_real(folder: Path, manifest: Path, keep: Callable[[dict[str, str]], bool]) -> list[tuple[dict[str, str], np.ndarray]]:
    with manifest.open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if keep(r)]
    return [(r, resample(*read_wav(folder / r["path"]))) for r in rows]


FAMILY_SCENE_S = 6.0  # the other negative families' scenes


def real_mix_parts(data: Path) -> dict[str, tuple[list[np.ndarray], list[np.ndarray]]]:
    """Per real whistle set ("robot", "r2k"): its blows and the real noise clips its mix row puts them in (ESC-10
    folds 1-3 and robot-clips' other clips; folds 4-5 and r2k-clips' other clips)."""
    robot = load_real(data / "robot-clips", data / "robot-clips" / "manifest.csv", lambda r: True)
    r2k = load_real(data / "r2k-clips", data / "r2k-clips" / "manifest.csv", lambda r: True)
    esc = load_real(data / "esc10-negatives", data / "esc10-negatives" / "manifest.csv", lambda r: True)
    return {
        "robot": ([ws.blow_piece(x) for r, x in robot if r["category"] == "whistle"],
                  [x for r, x in esc if esc_fold(r) <= 3] + [x for r, x in robot if r["label"] == "none"]),
        "r2k": ([ws.blow_piece(x, float(r["onset_s"]), float(r["offset_s"])) for r, x in r2k if r["label"] == "whistle"],
                [x for r, x in esc if esc_fold(r) >= 4] + [x for r, x in r2k if r["label"] == "none"]),
    }


def build_sources(data: Path, seed: int, quick: bool, family_hours: float = 1.0) -> dict[str, Source]:
    robot_m = data / "robot-clips" / "manifest.csv"
    r2k_m = data / "r2k-clips" / "manifest.csv"
    esc_m = data / "esc10-negatives" / "manifest.csv"
    n_mix, n_syn = (40, 30) if quick else (120, 80)
    parts = real_mix_parts(data)
    (robot_blows, robot_noises), (r2k_blows, r2k_noises) = parts["robot"], parts["r2k"]
    sources = {
        "robot-clips": Source("robot-clips", "manifest", robot_m),
        "r2k-clips": Source("r2k-clips", "manifest", r2k_m),
        "esc10-negatives (all 400)": Source("esc10-negatives (all 400)", "manifest", esc_m),
        "mix: robot blows in esc 1-3 + robot other": Source(
            "mix: robot blows in esc 1-3 + robot other", "scenes",
            scenes=ws.real_in_noise(robot_blows, robot_noises, n_mix, seed + 11)),
        "mix: r2k blows in esc 4-5 + r2k other": Source(
            "mix: r2k blows in esc 4-5 + r2k other", "scenes",
            scenes=ws.real_in_noise(r2k_blows, r2k_noises, n_mix, seed + 12)),
    }
    # Session 31: the same real blows and noise as the two mixes, in one long recording each (a blow every 6-9 s),
    # never reset: issue #15's judge plays long recordings, and a floor that has listened for minutes is not a new one.
    for k, (long_name, (blows, noises)) in enumerate(zip(LONG_ROWS, (parts["robot"], parts["r2k"]), strict=True)):
        rec, _ = ws.long_recording(blows, noises, LONG_MIN / (4 if quick else 1), np.random.default_rng(seed + 13 + k))
        sources[long_name] = Source(long_name, "scenes", scenes=[rec])
    hall, families = synthetic_rows(seed, n_syn)
    rng = np.random.default_rng(seed + 6)
    for fam, scenes in families.items():
        sources[fam] = Source(fam, "scenes", scenes=scenes)
    sources[LOUD_HUM] = Source(LOUD_HUM, "scenes", scenes=[loud_hum_scene(hall, rng) for _ in range(n_syn)])
    sources[SHORT_QUIET] = Source(SHORT_QUIET, "scenes", scenes=[
        ws.scene("quiet", hall.piece(3.0), ws.pea_trill(rng, None, 0.2), 0.0, rng) for _ in range(n_syn)])
    sources["hall noise, no blow"] = Source("hall noise, no blow", "scenes", scenes=[
        ws.scene("hall", hall.piece(3.0), None, 0.0, rng) for _ in range(n_syn)])
    other = ws.OtherNoise(seed=seed + 7)
    # 6 s scenes, an hour of each by default (session 8; session 7 had 0.25 h, where one false alarm was 4/h)
    n_fam = 40 if quick else max(1, round(family_hours * 3600 / FAMILY_SCENE_S))
    for fam in ws.NEGATIVE_FAMILIES:
        sources[fam] = Source(fam, "scenes", scenes=[
            ws.scene(fam, other.piece(fam, FAMILY_SCENE_S), None, 0.0, rng) for _ in range(n_fam)])
    # Session 15: a quiet living room, where a blow stands 20-40 dB over the room (the rows above stop at +20).
    # Last, on a generator of their own, so the rows above draw what they drew before.
    quiet = np.random.default_rng(seed + 8)
    sources[QUIET_PEA] = Source(QUIET_PEA, "scenes", scenes=[
        ws.scene("quiet-pea", hall.piece(3.0), ws.pea_trill(quiet), float(quiet.uniform(20, 40)), quiet) for _ in range(n_syn)])
    real_blows = robot_blows + r2k_blows
    sources[QUIET_REAL] = Source(QUIET_REAL, "scenes", scenes=[
        ws.scene("quiet-real", hall.piece(3.0), ws.cut(real_blows[int(quiet.integers(len(real_blows)))], quiet),
                 float(quiet.uniform(20, 40)), quiet) for _ in range(n_syn)])
    return sources


def synthetic_rows(seed: int, n_syn: int) -> tuple[ws.HallNoise, dict[str, list[ws.Scene]]]:
    """The hall and the pea-trill, toy and hum rows' scenes, in the order the table draws them (the hall's pieces
    follow on from these for the rows after them)."""
    hall = ws.HallNoise.with_speech(ta.SPEECH_LINES[:3], seed=seed + 5)
    return hall, {fam: ws.synthetic(fam, n_syn, seed + 200 + len(fam), hall) for fam in ("pea-trill", "toy", "hum")}


LOUD_HUM = "steady 0.8 kHz hum 20 dB over the hall"
SHORT_QUIET = "short quiet pea blow (0.2 s, 0 dB)"
QUIET_PEA = "pea-trill, quiet room (+20..+40 dB)"
QUIET_REAL = "real blows, quiet room (+20..+40 dB)"
# What session 1's tuning of the shipped thresholds saw of each source.
USED = {
    "robot-clips": "tuned",
    "mix: robot blows in esc 1-3 + robot other": "blows",  # the robot blows and other clips were seen, esc noise not
    "table": "recipe",  # the NegativeStream recipe (seeds 0-1) was; this seed was not
    # Session 5 chose the refractory fix's follow-on window (8 frames, harmonic relations)
    # looking at this set's false alarms (86 with the bare pitch rule, 71 unfixed, 73 chosen).
    "esc10-negatives (all 400)": "refract",
}


def loud_hum_scene(hall: ws.HallNoise, rng: np.random.Generator) -> ws.Scene:
    """Hall noise under a steady 0.8 kHz hum 20 dB louder than it, a blow 6-14 dB under the hum
    (the hum the floor learns, louder than the whistle: issue #15's 'never heard' case)."""
    bg = hall.piece(3.0)
    bg = bg / ws.rms(bg)
    t = np.arange(len(bg)) / RATE
    bg = bg + (10 * np.sqrt(2) * np.sin(2 * np.pi * 800 * t + rng.uniform(0, 6.3))).astype(np.float32)
    return ws.scene("loud-hum", bg, ws.pea_trill(rng) if rng.random() < 0.5 else ws.harmonic_toy(rng),
                    float(rng.uniform(-14, -6)), rng)


# -- scoring ----------------------------------------------------------------------------


def score_scenes(scenes: Sequence[ws.Scene], make: Callable[[], WhistleDetector]) -> tuple[Tally, float, float]:
    """One tally over the scenes (each its own stream), the audio seconds and the CPU seconds."""
    total = Tally()
    det = make()
    audio = cpu = 0.0
    for i, s in enumerate(scenes):
        det.reset()
        c = time.process_time()
        found = detect(s.samples, det, BLOCK)
        cpu += time.process_time() - c
        duration = len(s.samples) / RATE
        audio += duration
        path = Path(f"scene-{i}")
        rows = [Row(path, "whistle", a, b, "x") for a, b in s.blows] or [Row(path, "none", None, None, "x")]
        if not s.blows:  # a clip without a blow: all of it is negative time
            t = Tally(events=len(found), false_alarms=len(found), negative_s=duration)
            total.add(t)
            continue
        for t in score_file(rows, found, duration).values():
            total.add(t)
    return total, audio, cpu


def run_source(src: Source, make: Callable[[], WhistleDetector]) -> dict[str, object]:
    if src.kind == "manifest":
        r = evaluate(src.manifest, make)
        out = dict(r["overall"])
        out["distant"] = r["by_category"].get("distant-whistle")
        out["whistles"] = sum(row.label == "whistle" and not row.category.startswith("distant")
                              for row in read_manifest(src.manifest))
        return out
    if src.kind == "stream":
        return negative_hour(src.stream_hours, src.stream_seed, make)
    tally, _, _ = score_scenes(src.scenes, make)
    out = tally.to_json()
    out["whistles"] = tally.whistles
    if src.scenes and src.scenes[0].snr_db is not None:
        out["by_snr"] = snr_recall(src.scenes, make)
    elif src.scenes and src.scenes[0].blow_snrs:
        out["by_snr"] = blow_snr_recall(src.scenes, make)
    return out


def snr_recall(scenes: Sequence[ws.Scene], make: Callable[[], WhistleDetector]) -> str:
    # (low, high, label): the quiet-room rows' blows stand +20..+40 dB (session 15)
    bins = [(-10, -5, "-10..-5"), (-5, 0, "-5..+0"), (0, 10, "+0..+10"), (10, 20, "+10..+20"), (20, 30, "+20..+30"),
            (30, 41, "+30..+40")]
    parts = []
    for lo, hi, label in bins:
        sel = [s for s in scenes if lo <= (s.snr_db or 0) < hi]
        if sel:
            t, _, _ = score_scenes(sel, make)
            parts.append(f"{label} dB {t.hits}/{t.whistles}")
    return ", ".join(parts)


def blow_snr_recall(scenes: Sequence[ws.Scene], make: Callable[[], WhistleDetector]) -> str:
    """The long rows' recall by each blow's SNR (their scenes hold many blows, each at its own SNR)."""
    heard: list[tuple[float, bool]] = []
    det = make()
    for s in scenes:
        det.reset()
        found = detect(s.samples, det, BLOCK)
        heard += [(snr, any(in_window(d.detected_at, a, b) for d in found))
                  for (a, b), snr in zip(s.blows, s.blow_snrs, strict=True)]
    return by_snr([h for _, h in heard], [snr for snr, _ in heard])


SNR_BINS = ((-10, -5), (-5, 0), (0, 10), (10, 20))  # the real mixes' SNRs (dB)


def by_snr(hits: Sequence[bool], snrs: Sequence[float]) -> str:
    """Blows heard of those in each SNR bin, one per blow (the bins without a blow left out)."""
    parts = []
    for lo, hi in SNR_BINS:
        sel = [h for h, snr in zip(hits, snrs, strict=True) if lo <= snr < hi]
        if sel:
            parts.append(f"{lo:+d}..{hi:+d} dB {sum(sel)}/{len(sel)}")
    return ", ".join(parts)


def negative_hour(hours: float, seed: int, make: Callable[[], WhistleDetector]) -> dict[str, object]:
    stream = ta.NegativeStream(seed=seed)
    det = make()
    alarms = 0
    n_seg = max(1, round(hours * 3600 / stream.SEGMENT_S))
    for _ in range(n_seg):
        alarms += len(detect(stream.segment(), det, BLOCK))
    h = n_seg * stream.SEGMENT_S / 3600
    return {"recall": None, "precision": None, "false_alarms_per_hour": round(alarms / h, 2), "false_alarms": alarms,
            "events": alarms, "hits": 0, "whistles": 0, "latency_ms_p50": None, "latency_ms_p95": None, "contents": stream.describe()}


def fmt(v: object, width: int, digits: int = 3) -> str:
    if v is None:
        return "-".rjust(width)
    if isinstance(v, float):
        return f"{v:.{digits}f}".rjust(width)
    return str(v).rjust(width)


HEADER = f"   {'source':<44} {'used':<8} {'recall':>7} {'prec':>6} {'FA/h':>7} {'FA':>4} {'p50ms':>6} {'p95ms':>6}  notes"


def print_row(name: str, used: str, r: dict[str, object]) -> None:
    notes = []
    if r.get("by_snr"):
        notes.append(str(r["by_snr"]))
    if r.get("distant"):
        d = r["distant"]
        notes.append(f"distant whistles (scored apart) {d['hits']}/7 heard")
    if r.get("contents"):
        notes.append(str(r["contents"]))
    print(f"   {name:<44} {used:<8} {fmt(r['recall'], 7)} {fmt(r['precision'], 6)} {fmt(r['false_alarms_per_hour'], 7, 2)}"
          f" {fmt(r['false_alarms'], 4)} {fmt(r['latency_ms_p50'], 6, 0)} {fmt(r['latency_ms_p95'], 6, 0)}  {'; '.join(notes)}")


def with_table(sources: dict[str, Source], hours: float, seed: int) -> dict[str, Source]:
    every = dict(sources)
    if hours > 0:
        every[TABLE.format(hours=hours)] = Source("table", "stream", stream_hours=hours, stream_seed=seed + 3)
    return every


def table(title: str, sources: dict[str, Source], params: DetectorParams, hours: float, seed: int,
          make: Callable[[], WhistleDetector] | None = None, untuned: bool = False) -> None:
    print(f"\n== {title}")
    print(f"   {TARGETS}")
    print(HEADER)
    make = make or (lambda: WhistleDetector(params))
    for name, src in with_table(sources, hours, seed).items():
        print_row(name, "untuned" if untuned else USED.get(src.name, "held out"), run_source(src, make))


# -- the cascade, leave one source out -------------------------------------------------------

# The training tags (benchmarks/whistle_train.py) each row's verifier is trained without:
# every item drawing on that source is left out, so the row is unseen by the verifier.
LONG_MIN = 16.0  # each long row's minutes (--quick: a quarter)
# The long rows (LONG_MIN minutes each), each heard by its mix row's held-out verifier (the same blows' and noise's
# sources).
LONG_ROWS = {
    "long recording: robot blows, esc 1-3 + robot": "mix: robot blows in esc 1-3 + robot other",
    "long recording: r2k blows, esc 4-5 + r2k": "mix: r2k blows in esc 4-5 + r2k other",
}
HELD_OUT = {
    "robot-clips": {"robot-clips"},
    "r2k-clips": {"r2k-clips"},
    "mix: robot blows in esc 1-3 + robot other": {"robot-clips", "esc1", "esc2", "esc3"},
    "mix: r2k blows in esc 4-5 + r2k other": {"r2k-clips", "esc4", "esc5"},
    "pea-trill": {"pea-trill"},
    "toy": {"toy"},
    "hum": {"hum"},
    LOUD_HUM: {"loud-hum"},
    SHORT_QUIET: {"pea-trill"},
    QUIET_PEA: {"pea-trill"},
    QUIET_REAL: {"robot-clips", "r2k-clips"},
    "hall noise, no blow": {"hall"},
    "table": {"table"},
} | {fam: {fam} for fam in ws.NEGATIVE_FAMILIES}
ESC = "esc10-negatives (all 400)"
# What the cascade's first stage (its hand-set thresholds) was chosen looking at: the synthetic
# recipes' seed-0 scenes (hall-noise candidates, coverage of every family) and the two mixes'
# coverage; never the real clips themselves.  Report with --seed 1 or more for fresh scenes.
STAGE1_SAW = {"mix: robot blows in esc 1-3 + robot other", "mix: r2k blows in esc 4-5 + r2k other", "pea-trill", "toy",
              "hum", LOUD_HUM, SHORT_QUIET, "hall noise, no blow", QUIET_PEA, *LONG_ROWS}


def esc_by_fold(data: Path, make_for_fold: Callable[[int], WhistleDetector]) -> dict[str, object]:
    """ESC-10 with each fold heard by a detector whose verifier never saw that fold."""
    alarms, seconds = 0, 0.0
    for r, x in load_real(data / "esc10-negatives", data / "esc10-negatives" / "manifest.csv", lambda r: True):
        det = make_for_fold(esc_fold(r))
        det.reset()
        alarms += len(detect(x, det, BLOCK))
        seconds += len(x) / RATE
    return {"recall": None, "precision": 0.0 if alarms else None, "false_alarms_per_hour": round(alarms / seconds * 3600, 2),
            "false_alarms": alarms, "latency_ms_p50": None, "latency_ms_p95": None}


def fold_verifiers(data: Path, seed: int, scale: float, negative_rate: float | None = None,
                   recipe: str | None = None, history: int | None = None) -> dict[str, object]:
    """One verifier per held-out row (and per ESC-10 fold), trained without that row's sources, on patches of
    ``history`` frames (default the verifier's HISTORY)."""
    import whistle_train as wt

    c = time.process_time()
    recipe = recipe or wt.RECIPE
    history = history or wt.HISTORY

    def cached(var: str) -> str | None:
        """A development cache's path: one file per recipe (the cascade's and the combined's), per patch length
        (session 15) and per training scale (session 19); the 8-frame, scale-1 one keeps its old name."""
        path = os.environ.get(var)
        frames = "" if history == wt.HISTORY else f".h{history}"
        scaled = "" if scale == 1.0 else f".x{scale:g}"
        return None if not path else (path if recipe == wt.RECIPE else f"{path}.{recipe}") + frames + scaled

    folds_cache = cached("WHISTLE_FOLDS")  # a .pkl to reuse the trained folds between runs (development)
    if folds_cache and Path(folds_cache).exists():
        with open(folds_cache, "rb") as f:
            print(f"\n== the verifier's folds: from {folds_cache}")
            return pickle.load(f)
    cache = cached("WHISTLE_CANDIDATES")  # a .pkl to reuse the candidates between runs (development)
    if cache and Path(cache).exists():
        with open(cache, "rb") as f:
            ex = pickle.load(f)
    else:
        ex = wt.examples(wt.items(data, wt.SEED + seed, scale, recipe), history=history)
        if cache:
            save_bytes_atomic(cache, pickle.dumps(ex))  # a run stopped mid-write leaves no half cache
    print(f"\n== the verifier's folds (recipe {recipe}, {history}-frame patches, training scale {scale:g}): training candidates {len(ex.y)} ({int(ex.y.sum())} whistle), found in "
          f"{time.process_time() - c:.0f} s CPU; threshold at {negative_rate or wt.NEGATIVE_RATE:.2%} of training negatives")
    folds = {f"esc{f}": {f"esc{f}"} for f in range(1, 6)} | HELD_OUT
    out = wt.folds(ex, folds, seed, negative_rate=negative_rate)
    if folds_cache:
        save_bytes_atomic(folds_cache, pickle.dumps(out))
    return out


def held_out_table(title: str, sources: dict[str, Source], data: Path, hours: float, seed: int,
                   verifiers: dict[str, object], make: Callable[[object], WhistleDetector]) -> dict[str, object]:
    """Every row heard by a detector (``make(verifier)``) whose verifier was trained without that row's source."""
    print(f"\n== {title}, its verifier retrained per row without that row's source")
    print(f"   {TARGETS}")
    print("   used: held out = the verifier never saw it; held/s1 = held out, but the first stage's thresholds were "
          "chosen looking at this recipe (seed 0)")
    print(HEADER)
    results = {}
    for name, src in with_table(sources, hours, seed).items():
        if name == ESC:
            r = esc_by_fold(data, lambda f: make(verifiers[f"esc{f}"]))
            used = "held out"
        else:
            key = "table" if src.kind == "stream" else LONG_ROWS.get(name, name)
            r = run_source(src, lambda k=key: make(verifiers[k]))
            used = "held/s1" if name in STAGE1_SAW else "held out"
        results[name] = r
        print_row(name, used, r)
    return results


# -- speed ----------------------------------------------------------------------------------


def speed(make: Callable[[], object] = WhistleDetector, label: str = "shipped", seconds: float = 120.0) -> None:
    from whistle_speed import rtf, sound  # the one measure (whistle_speed.py runs it alone, repeatable)

    x = sound(seconds)
    rtf16, rtf48, _ = rtf(make, x, resample(x, RATE, 48000))
    print(f"\n== real-time factor of the {label} detector, 64 ms blocks, one core (table noise with a blow every 5 s): "
          f"16 kHz {rtf16:.0f} (target >= 300, goal 1000); from 48 kHz incl. resampling {rtf48:.0f}")


# -- attribution -----------------------------------------------------------------------------


# The attribution benchmark's four whistles: a robot recording and its pitch shift (semitones).
ATTRIBUTION_WHISTLES = {
    "A": ("whistle_1_metre.wav", -5.0),
    "B": ("whistle_2015_07_13_085209_freya.wav", 0.0),
    "C": ("whistle_2015_07_18_051223_vali.wav", 3.0),
    "D": ("whistle_3_metres_robot_on_circle_coach_middle_edge_of_field.wav", 6.0),
}
# The calibration rows' whistles: one blow each from a random generator.
CALIBRATION_WHISTLES: dict[str, Callable[[np.random.Generator], np.ndarray]] = {
    "low toy 700 Hz": lambda r: ws.harmonic_toy(r, 700.0),
    "toy 1200 Hz": lambda r: ws.harmonic_toy(r, 1200.0),
    "pea 2.8 kHz": lambda r: ws.pea_trill(r, 2800.0),
    "two-tone": lambda r: ws.two_tone(np.random.default_rng(7), float(r.uniform(0.25, 0.5))),
}


# Session 34: a table of trilled whistles besides (pitch, the pea's swing, its rattle in Hz), with a toy and robot D.
TRILL_WHISTLES = {"P1": (2000.0, 250.0, 25.0), "P2": (3300.0, 400.0, 32.0)}


def _shifted(piece: np.ndarray, semitones: float) -> Callable[[np.random.Generator], np.ndarray]:
    """A recording's blows pitch-shifted by ``semitones``, +-0.3 blow to blow."""
    return lambda r: resample(piece, RATE * 2 ** ((semitones + r.uniform(-0.3, 0.3)) / 12), RATE)


def attribution(data: Path, rng: np.random.Generator, kind: str = "session4", table: str = "robot") -> None:
    """Issue #15's attribution: four whistles calibrated from 3 blows each, then 25 blows each in table noise.
    ``table`` "robot": the four pitch-shifted robot recordings (the target's table); "trills" (session 34): two pea
    whistles (``TRILL_WHISTLES``), the 1.2 kHz harmonic toy and robot D."""
    from calibration.whistle import Profile

    folder = data / "robot-clips" / "whistle"
    piece = {p: ws.blow_piece(resample(*read_wav(folder / f))) for p, (f, _) in ATTRIBUTION_WHISTLES.items()}
    made: dict[str, Callable[[np.random.Generator], np.ndarray]]
    if table == "robot":
        print(f"\n== attribution ({kind}): 4 whistles made from real robot recordings by pitch shifting, 3 blows to calibrate, 25 each")
        made = {p: _shifted(piece[p], shift) for p, (_, shift) in ATTRIBUTION_WHISTLES.items()}
    else:
        print(f"\n== attribution ({kind}), trilled whistles: peas " + ", ".join(
            f"{p} {hz:.0f} Hz (swing {sw:.0f} Hz, rattle {ra:.0f} Hz)" for p, (hz, sw, ra) in TRILL_WHISTLES.items())
            + ", the 1.2 kHz toy T and robot D as R; 3 blows to calibrate, 25 each (not a target's table)")
        made = {p: (lambda r, w=w: ws.pea_whistle(r, *w)) for p, w in TRILL_WHISTLES.items()}
        made |= {"T": lambda r: ws.harmonic_toy(r, 1200.0), "R": _shifted(piece["D"], ATTRIBUTION_WHISTLES["D"][1])}
    stream = ta.NegativeStream(seed=int(rng.integers(1000)))

    def blow(p: str) -> np.ndarray:
        x = made[p](rng)
        return x / (np.max(np.abs(x)) + 1e-9) * 10 ** (rng.uniform(-20, -6) / 20)

    def heard(p: str, det: WhistleDetector):
        seg = stream.segment()[: 3 * RATE] * 0.3
        ta.place(seg, blow(p), 1.0)
        det.reset()
        found = [d for d in detect(seg, det) if 0.9 <= d.onset <= 1.3]
        return found[0] if found else None

    plain = Profile().detector(kind)
    sigs, failed = [], []
    for p in made:
        blows = [d.features for d in (heard(p, plain) for _ in range(3)) if d is not None]
        if blows:
            sigs.append(Signature.learn(p, blows))
        else:
            failed.append(p)  # the wizard would say "heard 0 of 3 blows": that whistle is not calibrated
    print("   whistles: " + ", ".join(f"{s.name} {s.peak_hz:.0f} Hz" for s in sigs)
          + (f"; not calibrated (none of 3 blows heard): {', '.join(failed)}" if failed else ""))
    det = Profile(signatures=tuple(sigs)).detector(kind)
    right = wrong = none = missed = wrong_sure = 0
    for p in made:
        for _ in range(25):
            d = heard(p, det)
            if d is None:
                missed += 1
            elif d.blower == p:
                right += 1
            elif d.blower is None:
                none += 1
            else:
                wrong += 1
                wrong_sure += (d.blower_confidence or 0) >= 0.8
    n = right + wrong + none
    aim = ("; target >= 95 %", "; target 0") if table == "robot" else ("", "")
    print(f"   blows 100, heard {n}: right {right} ({right / max(1, n):.1%} of heard{aim[0]}), left to the table {none}, "
          f"wrong {wrong} (with confidence >= 0.8: {wrong_sure}{aim[1]})")


def calibration_rng(seed: int, name: str) -> np.random.Generator:
    """A calibration whistle's own random stream for a seed.  Until session 19 it was ``seed + len(name)``, so
    "toy 1200 Hz" and "pea 2.8 kHz" drew the same numbers, and seed s's row of one whistle drew seed s + 3's of
    another ("two-tone" at 28 was "pea 2.8 kHz" at 25): a seed kept for judging was partly seen.  The seed and
    the name's CRC-32 together seed one SeedSequence: no two seeds or names share a stream."""
    return np.random.default_rng([seed, zlib.crc32(name.encode())])


def calibration_rows(seed: int) -> Iterator[tuple[str, object, list[ws.Scene]]]:
    """Per calibration whistle: its name, the wizard's profile from 3 blows (or the ``CalibrationError`` that
    stopped it) and its 40 fresh blows in hall noise at -5..+15 dB, drawn in the order the rows are printed."""
    from calibration.whistle import CalibrationError, _Progress, calibrate
    from hardware.testing.sensors import blocks_of

    hall = ws.HallNoise(seed=seed + 21)
    for name, make in CALIBRATION_WHISTLES.items():
        rng = calibration_rng(seed, name)
        quiet = hall.piece(2.0) * 0.003
        calib = ws.wizard_take(lambda m=make, r=rng: m(r))
        profile: object
        try:
            profile, _ = calibrate(["P"], 3, lambda q=quiet: blocks_of(q), lambda _n, c=calib: blocks_of(c),
                                   lambda _n: None, _Progress(io.StringIO()), hear_distant=True)
        except CalibrationError as e:
            profile = e
        yield name, profile, [ws.scene("cal", hall.piece(3.0), make(rng), float(rng.uniform(-5, 15)), rng) for _ in range(40)]


WARM_S = 20.0  # session 30: the hall heard before a steady-state calibration scene (the floor's rise is 4 s)


def warmed(scenes: Sequence[ws.Scene], seed: int, seconds: float = WARM_S) -> list[ws.Scene]:
    """``ws.warmed`` with a hall stream of its own (``seed + 521``), so the calibration rows' scenes are unchanged."""
    return ws.warmed(scenes, ws.HallNoise(seed=seed + 521), seconds)


def calibrated_recall(seed: int, kind: str = "session4") -> None:
    """The wizard's profile from 3 blows of a whistle against the generic detector, on 40 fresh blows of it: each
    scene heard just after a start (the detector reset, as every row above) and, since session 30, hours into a game
    (``warmed``: the floor risen to the hall)."""
    from calibration.whistle import Profile

    print(f"\n== calibration ({kind}): profile from 3 blows vs the generic detector, 40 fresh blows each in hall noise at -5..+15 dB,"
          f" just after a start / after {WARM_S:.0f} s of the hall")
    generic_make = lambda: Profile().detector(kind)  # noqa: E731
    for name, profile, scenes in calibration_rows(seed):
        steady = warmed(scenes, seed)
        generic, _, _ = score_scenes(scenes, generic_make)
        generic_steady, _, _ = score_scenes(steady, generic_make)
        if not isinstance(profile, Profile):
            print(f"   {name:<16} calibration failed ({profile}); recall generic {generic.hits}/40 / {generic_steady.hits}/40")
            continue
        tuned, _, _ = score_scenes(scenes, lambda pr=profile: pr.detector(kind))
        tuned_steady, _, _ = score_scenes(steady, lambda pr=profile: pr.detector(kind))
        lo, hi = profile.band_hz
        print(f"   {name:<16} band {lo:.0f}-{hi:.0f} Hz: recall generic {generic.hits}/40 / {generic_steady.hits}/40, "
              f"calibrated {tuned.hits}/40 / {tuned_steady.hits}/40 (target: calibrated >= generic); "
              f"false alarms {generic.false_alarms} / {tuned.false_alarms}, {generic_steady.false_alarms} / {tuned_steady.false_alarms}")


def param_default(modules: Sequence[ModuleType], name: str, **fields: object) -> None:
    """Every ``name`` (a frozen params dataclass) built with its defaults takes ``fields`` instead: the same code with
    parameters set (a candidate judged by this benchmark).  ``modules`` are every module that binds the class by name
    and builds it with its defaults (the tables', the attribution's and the calibration's detectors included)."""
    base = getattr(modules[0], name)
    swapped = dataclasses.make_dataclass(name, [(f, type(v), v) for f, v in fields.items()], bases=(base,), frozen=True)
    for module in modules:
        setattr(module, name, swapped)


def relook_default(n: int) -> None:
    """The combined detector's ``CombinedParams.relook = n`` (session 16's candidate)."""
    import hardware.whistle.combined as hc

    param_default([hc], "CombinedParams", relook=n)
    print(f"combined detector: CombinedParams.relook = {n}")


def reask_default(n: int, frames: int | None = None) -> None:
    """The cascade's ``CascadeParams.reask = n`` (and ``reask_frames``; session 17's candidate)."""
    import hardware.whistle.cascade as hk
    import hardware.whistle.combined as hc

    every = hk.CascadeParams().reask_frames if frames is None else frames
    param_default([hk, hc], "CascadeParams", reask=n, reask_frames=every)
    print(f"cascade: CascadeParams.reask = {n}, reask_frames = {every}")


def detector_default(**fields: float) -> None:
    """Session 4's ``DetectorParams`` with ``fields`` as its defaults (session 17's ``sub_over_floor_db``, session 18's
    ``sub_hold_db``); this module's tables build it by name too."""
    import hardware.whistle.detector as hd

    param_default([hd, sys.modules[__name__]], "DetectorParams", **fields)
    print("session 4's detector: " + ", ".join(f"DetectorParams.{k} = {v:g}" for k, v in fields.items()))


def steady_rise_default(s: float) -> None:
    """The combined detector's ``CombinedParams.steady_rise_s = s`` (session 31's candidate)."""
    import hardware.whistle.combined as hc

    param_default([hc], "CombinedParams", steady_rise_s=float(s))
    print(f"combined detector: CombinedParams.steady_rise_s = {s:g}")


def quiet_near_default(on: bool) -> None:
    """The cascade's ``CascadeParams.quiet_near`` (session 33's change, judged three times and off; on: the candidate).
    The verifier's training harvests its candidates with ``whistle_train.HARVEST``, which never reports, so it is
    unchanged either way."""
    import hardware.whistle.cascade as hk
    import hardware.whistle.combined as hc

    # (a profile's cascade imports the class from hk when it is built: swapped too)
    param_default([hk, hc], "CascadeParams", quiet_near=on)
    print(f"cascade: CascadeParams.quiet_near = {on}")


def body_db_default(db: float) -> None:
    """The cascade's ``CascadeParams.body_db`` (session 34's candidate: a report's pitch features on its body)."""
    import hardware.whistle.cascade as hk
    import hardware.whistle.combined as hc

    param_default([hk, hc], "CascadeParams", body_db=float(db))
    print(f"cascade: CascadeParams.body_db = {db:g}")


def trill_min_default(hz: float) -> None:
    """The combined detector's ``CombinedParams.trill_min_hz = hz`` (session 33's candidate)."""
    import hardware.whistle.combined as hc

    param_default([hc], "CombinedParams", trill_min_hz=float(hz))
    print(f"combined detector: CombinedParams.trill_min_hz = {hz:g}")


def trill_bins_default(n: int, share: float = 0.0) -> None:
    """The combined detector's ``CombinedParams.trill_bins = n`` and ``trill_body`` (session 35's candidates: one
    pitch measure for every report, a trill read at its centre; with ``trill_body``, only reports mostly a trill's)."""
    import hardware.whistle.combined as hc

    param_default([hc], "CombinedParams", trill_bins=int(n), trill_body=float(share))
    print(f"combined detector: CombinedParams.trill_bins = {n:g}, trill_body = {share:g}")


def sub_over_floor_default(db: float) -> None:
    """Session 4's ``DetectorParams.sub_over_floor_db = db`` (session 17's sub-harmonic candidate)."""
    detector_default(sub_over_floor_db=float(db))


def param_option(ap: argparse.ArgumentParser, flag: str, metavar: str, what: str, session: int) -> None:
    """A candidate's number, set wherever its class is built with its defaults (None: the shipped value)."""
    ap.add_argument(flag, type=float, default=None, metavar=metavar,
                    help=f"{what} wherever it is built with its defaults (session {session}; default the shipped value)")


def main() -> int:
    import whistle_train as wt

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hours", type=float, default=1.0, help="length of the table-noise stream (default 1 h)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--family-hours", type=float, default=1.0,
                    help="hours of each other negative family (music, babble, laughter, clatter; --quick: 40 scenes, 4 min)")
    ap.add_argument("--quick", action="store_true", help="fewer scenes, 0.1 h of table noise")
    ap.add_argument("--detector", choices=["all", "both", "shipped", "cascade", "combined", "shipped+combined", "bandshare"],
                    default="all", help="which tables to print (the cascade's trains its verifier once per held-out source; "
                    "bandshare: issue #15's untuned reference rule, benchmarks/_bandshare.py, for comparison)")
    ap.add_argument("--train-scale", type=float, default=1.0, help="share of the synthetic training items for the folds")
    ap.add_argument("--recipe", choices=wt.RECIPES, default=None,
                    help="the folds' training items (benchmarks/whistle_train.py; default: each detector's shipped "
                         f"weights' recipe, {wt.RECIPE} for the cascade, {wt.COMBINED_RECIPE} for the combined detector)")
    ap.add_argument("--negative-rate", type=float, default=None,
                    help="share of training negatives the verifier's threshold lets through (default whistle_train's)")
    ap.add_argument("--accepts", type=int, default=None,
                    help=f"consecutive yes the cascade needs (1: best attempt; default {CASCADE_ACCEPTS}, "
                         "the combined detector's own 1)")
    ap.add_argument("--history", type=int, default=None,
                    help="frames of the folds' verifier patch (default the shipped weights': 8; session 15, docs/whistle.md)")
    ap.add_argument("--relook", type=int, default=None,
                    help="the combined detector's CombinedParams.relook wherever it is built with its defaults (session 16; "
                         "default the shipped value)")
    ap.add_argument("--reask", default=None, metavar="K[:N]",
                    help="the cascade's CascadeParams.reask (and reask_frames) wherever it is built with its defaults "
                         "(session 17; default the shipped value)")
    param_option(ap, "--sub-over-floor", "DB", "session 4's DetectorParams.sub_over_floor_db", 17)
    param_option(ap, "--sub-hold", "DB", "session 4's DetectorParams.sub_hold_db, the floor test's hysteresis,", 18)
    param_option(ap, "--steady-rise", "S", "the combined detector's CombinedParams.steady_rise_s", 31)
    ap.add_argument("--quiet-near", choices=("on", "off"),
                    help="the cascade's CascadeParams.quiet_near wherever it is built with its defaults (session 33; "
                         "default the shipped value, off)")
    param_option(ap, "--trill-min", "HZ", "the combined detector's CombinedParams.trill_min_hz", 33)
    param_option(ap, "--body-db", "DB", "the cascade's CascadeParams.body_db", 34)
    param_option(ap, "--trill-bins", "N", "the combined detector's CombinedParams.trill_bins (0: off)", 35)
    param_option(ap, "--trill-body", "F", "the combined detector's CombinedParams.trill_body (with --trill-bins)", 35)
    ap.add_argument("--outlier-cents", type=float, default=None, metavar="CENTS",
                    help="signature.OUTLIER_CENTS, a calibration blow this far from the others' pitch left out "
                         "(session 34; inf: off; default the shipped value)")
    ap.add_argument("--trill-tolerance", type=float, default=None, metavar="K",
                    help="signature.TRILL_TOLERANCE, a signature's pitch known to within K times its whistle's spread "
                         "within a blow (session 35; 0: off; default the shipped value)")
    args = ap.parse_args()
    if args.trill_tolerance is not None:
        import hardware.whistle.signature as sg

        sg.TRILL_TOLERANCE = args.trill_tolerance
        print(f"signature: TRILL_TOLERANCE = {args.trill_tolerance:g}")
    if args.body_db is not None:
        body_db_default(args.body_db)
    if args.trill_bins is not None:
        trill_bins_default(int(args.trill_bins), args.trill_body or 0.0)
    if args.outlier_cents is not None:
        import hardware.whistle.signature as sg

        sg.OUTLIER_CENTS = args.outlier_cents
        print(f"signature: OUTLIER_CENTS = {args.outlier_cents:g}")
    if args.steady_rise is not None:
        steady_rise_default(args.steady_rise)
    if args.trill_min is not None:
        trill_min_default(args.trill_min)
    if args.quiet_near:
        quiet_near_default(args.quiet_near == "on")
    if args.sub_over_floor is not None:
        sub_over_floor_default(args.sub_over_floor)
    if args.sub_hold is not None:
        detector_default(sub_hold_db=args.sub_hold)
    if args.relook is not None:
        relook_default(args.relook)
    if args.reask is not None:
        k, _, n = args.reask.partition(":")
        reask_default(int(k), int(n) if n else None)
    hours = 0.1 if args.quick else args.hours
    data = whistle_dir()
    print(f"machine: {len(os.sched_getaffinity(0))} cores available; CPU-time figures; seed {args.seed}")
    if data is None:
        print("shared data not found (BELLWETHER_SHARED_DATA): real-set tables skipped")
        speed()
        return 0
    sources = build_sources(data, args.seed, args.quick, args.family_hours)
    shipped = DetectorParams()
    print("\nshipped detector: session 4's (eb88db3) with its refractory fix, defaults untouched: "
          + ", ".join(f"{f.name} {getattr(shipped, f.name)}" for f in dataclasses.fields(shipped)))
    print("used: tuned = its thresholds were set on this source (session 1); blows = its blows were seen, "
          "its noise not; recipe = the generator was, this seed not; refract = looked at for the refractory fix only; "
          "held out = never seen")
    if args.detector == "both":
        args.detector = "all"  # as before the combined detector: every table
    if args.detector == "bandshare":
        from _bandshare import BandShareDetector

        table("issue #15's untuned reference: 2-4.5 kHz band share >= 0.6 for 3 frames (benchmarks/_bandshare.py)",
              sources, shipped, hours, args.seed, BandShareDetector, untuned=True)
        speed(BandShareDetector, "band-share reference")
        return 0
    if args.detector in ("all", "shipped", "shipped+combined"):
        table("every source, shipped defaults", sources, shipped, hours, args.seed)
        speed()
    if args.detector in ("all", "cascade", "combined", "shipped+combined"):
        from hardware.whistle.cascade import CascadeDetector, CascadeParams
        from hardware.whistle.combined import CASCADE_ACCEPTS as COMBINED_ACCEPTS
        from hardware.whistle.combined import CombinedDetector

        # Each detector's folds are trained by the recipe of its shipped weights (hardware/whistle/verifier.py).
        def folds_for(recipe: str) -> dict[str, object]:
            return fold_verifiers(data, args.seed, args.train_scale, args.negative_rate, args.recipe or recipe, args.history)

        cp = CascadeParams(accepts=args.accepts or CASCADE_ACCEPTS)
        combined_accepts = args.accepts or COMBINED_ACCEPTS
        if args.detector in ("all", "cascade"):
            held_out_table("the cascade (hardware/whistle/cascade.py)", sources, data, hours, args.seed, folds_for(wt.RECIPE),
                           lambda v: CascadeDetector(cp, verifier=v))
            speed(lambda: CascadeDetector(cp), "cascade")
            attribution(data, np.random.default_rng(args.seed), "cascade")
            calibrated_recall(args.seed, "cascade")
        if args.detector != "cascade":
            held_out_table("the combined detector (hardware/whistle/combined.py)", sources, data, hours, args.seed,
                           folds_for(wt.COMBINED_RECIPE), lambda v: CombinedDetector.of(verifier=v, accepts=combined_accepts))
            speed(lambda: CombinedDetector.of(accepts=combined_accepts), "combined")
            attribution(data, np.random.default_rng(args.seed), "combined")
            attribution(data, np.random.default_rng(args.seed), "combined", "trills")
            calibrated_recall(args.seed, "combined")
    if args.detector in ("cascade", "combined"):
        return 0
    attribution(data, np.random.default_rng(args.seed))
    calibrated_recall(args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
