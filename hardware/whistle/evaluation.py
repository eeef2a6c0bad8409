"""Scoring the detector against a labelled manifest (``bellwether whistle eval``).

Manifest: CSV with at least ``path,label,onset_s,offset_s,category`` (paths
relative to the manifest).  A row with onset/offset labels one blow in a
longer recording: a detection whose detection time lies in
[onset - 0.1 s, offset + 0.5 s] hits it, and its latency is detection time
minus onset.  A row without them labels the whole clip: any detection in a
``whistle`` clip hits it.  Any detection in a ``none`` clip, or outside every
blow's window, is a false alarm.  Further detections inside a window already
hit are counted as events but neither hits nor false alarms.

Files are fed to the detector in live-sized blocks at their own rate,
resampled as they go; the CPU time of that (read, resample, detect) gives
the real-time factor.
"""

from __future__ import annotations

import csv
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import ConfigError

from ..audio import BLOCK_S, WavSource
from .detector import Detection, WhistleDetector

EARLY_S = 0.1
LATE_S = 0.5
REQUIRED = ("path", "label", "onset_s", "offset_s", "category")


def in_window(t: float, onset: float, offset: float) -> bool:
    """Whether a report at ``t`` counts for the blow from ``onset`` to ``offset``: from EARLY_S before its onset
    (a report may come from the blow's first frames, whose onset the labels put a little late) to LATE_S after
    its end (the detector's pooling and the 64 ms block)."""
    return onset - EARLY_S <= t <= offset + LATE_S


@dataclass(frozen=True)
class Row:
    path: Path
    label: str  # "whistle" | "none"
    onset: float | None
    offset: float | None
    category: str


def read_manifest(path: str | Path) -> list[Row]:
    path = Path(path)
    try:
        with path.open(newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
            if missing:
                raise ConfigError(path, "(header)", "columns " + ",".join(REQUIRED), ",".join(reader.fieldnames or []))
            rows = []
            for n, r in enumerate(reader, start=2):
                label = (r["label"] or "").strip()
                if label not in ("whistle", "none"):
                    raise ConfigError(path, f"line {n}: label", "'whistle' or 'none'", label)
                times = []
                for key in ("onset_s", "offset_s"):
                    v = (r[key] or "").strip()
                    try:
                        times.append(float(v) if v else None)
                    except ValueError:
                        raise ConfigError(path, f"line {n}: {key}", "seconds or blank", v) from None
                if (times[0] is None) != (times[1] is None) or (times[0] is not None and times[1] < times[0]):
                    raise ConfigError(path, f"line {n}: onset_s/offset_s", "both blank or onset <= offset", times)
                rows.append(Row(path.parent / r["path"].strip(), label, times[0], times[1], (r["category"] or label).strip()))
            return rows
    except FileNotFoundError:
        raise ConfigError(path, "(file)", "a manifest CSV", "no such file") from None


@dataclass
class Tally:
    events: int = 0
    hits: int = 0
    whistles: int = 0
    false_alarms: int = 0
    negative_s: float = 0.0
    latencies: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.events += other.events
        self.hits += other.hits
        self.whistles += other.whistles
        self.false_alarms += other.false_alarms
        self.negative_s += other.negative_s
        self.latencies += other.latencies

    def to_json(self) -> dict[str, Any]:
        lat = np.asarray(self.latencies) * 1000
        return {
            "recall": round(self.hits / self.whistles, 4) if self.whistles else None,
            "precision": round((self.events - self.false_alarms) / self.events, 4) if self.events else None,
            "false_alarms_per_hour": round(self.false_alarms / (self.negative_s / 3600), 3) if self.negative_s > 0 else None,
            "latency_ms_p50": round(float(np.percentile(lat, 50)), 1) if len(lat) else None,
            "latency_ms_p95": round(float(np.percentile(lat, 95)), 1) if len(lat) else None,
            "events": self.events,
            "hits": self.hits,
            "false_alarms": self.false_alarms,
        }


def run_file(path: Path, detector: WhistleDetector, block_s: float = BLOCK_S) -> tuple[list[Detection], float, float]:
    """Detections in one file, its duration (s) and the CPU seconds spent."""
    detector.reset()
    src = WavSource(path, block_s)
    out: list[Detection] = []
    cpu = time.process_time()
    src.open()
    try:
        while (block := src.read()) is not None:
            out.extend(detector.process(block))
    finally:
        src.close()
    return out, detector.time, time.process_time() - cpu


def score_file(rows: list[Row], detections: list[Detection], duration: float) -> dict[str, Tally]:
    """Per-category tallies for one file's rows and detections."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    windows = [r for r in rows if r.label == "whistle" and r.onset is not None]
    whole = [r for r in rows if r.label == "whistle" and r.onset is None]
    # Time that is not a whistle goes to the file's "none" category if it has one.
    home = next((r.category for r in rows if r.label == "none"), rows[0].category)
    for r in rows:
        if r.label == "whistle":
            tallies[r.category].whistles += 1
    if whole:
        # A whole-clip whistle: any detection hits it; the clip holds no negative time.
        r = whole[0]
        tallies[r.category].events += len(detections)
        tallies[r.category].hits += bool(detections)
        return tallies
    covered = sum(min(duration, r.offset + LATE_S) - max(0.0, r.onset - EARLY_S) for r in windows)
    tallies[home].negative_s += max(0.0, duration - covered)
    hit: set[int] = set()
    for d in detections:
        inside = [i for i, r in enumerate(windows) if in_window(d.detected_at, r.onset, r.offset)]
        if not inside:
            tallies[home].events += 1
            tallies[home].false_alarms += 1
            continue
        i = next((i for i in inside if i not in hit), inside[0])
        row = windows[i]
        tallies[row.category].events += 1
        if i not in hit:
            hit.add(i)
            tallies[row.category].hits += 1
            tallies[row.category].latencies.append(d.detected_at - row.onset)
    return tallies


def evaluate(manifest: str | Path, make_detector: Callable[[], WhistleDetector] | None = None,
             block_s: float = BLOCK_S) -> dict[str, Any]:
    """The ``whistle eval --json`` object for a manifest."""
    rows = read_manifest(manifest)
    by_file: dict[Path, list[Row]] = defaultdict(list)
    for r in rows:
        by_file[r.path].append(r)
    detector = (make_detector or WhistleDetector)()
    categories: dict[str, Tally] = defaultdict(Tally)
    audio_s = cpu_s = 0.0
    for path, file_rows in by_file.items():
        detections, duration, cpu = run_file(path, detector, block_s)
        audio_s += duration
        cpu_s += cpu
        for cat, t in score_file(file_rows, detections, duration).items():
            categories[cat].add(t)
    overall = Tally()
    for cat, t in categories.items():
        if not cat.startswith("distant"):
            overall.add(t)
    return {
        "overall": overall.to_json(),
        "by_category": {c: t.to_json() for c, t in sorted(categories.items())},
        "realtime_factor": round(audio_s / cpu_s, 1) if cpu_s > 0 else None,
    }
