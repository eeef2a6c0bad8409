"""Measuring a dice reader on a labelled manifest (``bellwether dice eval``).

The manifest is a CSV ``path,values,count`` (paths relative to the manifest,
values the sorted face values separated by spaces), the format of
``dice/webcam-train/manifest.csv`` in the shared data.  Time per frame is CPU
time (``time.process_time``) with OpenCV on one thread, so other work on the
machine does not distort it.
"""

from __future__ import annotations

import csv
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import RecordError

from .model import DieReading


@dataclass(frozen=True)
class Item:
    path: Path
    values: tuple[Any, ...]
    count: int


@dataclass
class Result:
    images: int = 0
    image_right: int = 0
    dice_true: int = 0
    dice_matched: int = 0
    count_right: int = 0
    ms: list[float] = field(default_factory=list)
    confusion: list[list[int]] = field(default_factory=lambda: [[0] * 6 for _ in range(6)])
    failures: list[tuple[str, list[Any], list[Any]]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        ms = np.array(self.ms) if self.ms else np.zeros(1)
        return {
            "images": self.images,
            "image_accuracy": round(self.image_right / max(self.images, 1), 4),
            "die_accuracy": round(self.dice_matched / max(self.dice_true, 1), 4),
            "count_accuracy": round(self.count_right / max(self.images, 1), 4),
            "ms_per_frame_p50": round(float(np.percentile(ms, 50)), 2),
            "ms_per_frame_p95": round(float(np.percentile(ms, 95)), 2),
            "confusion": self.confusion,
        }


def _value(v: str) -> Any:
    return int(v) if v.lstrip("-").isdigit() else v


def load_manifest(path: str | Path) -> list[Item]:
    """Rows of a ``path,values,count`` manifest; a bad row names its line."""
    path = Path(path)
    try:
        f = path.open(newline="", encoding="utf-8")
    except OSError as e:
        raise RecordError(str(path), 0, f"cannot read the manifest ({e.strerror})") from None
    items = []
    with f:
        reader = csv.DictReader(f)
        missing = {"path", "values", "count"} - set(reader.fieldnames or ())
        if missing:
            raise RecordError(str(path), 1, f"expected the columns path,values,count; missing {', '.join(sorted(missing))}")
        for line, row in enumerate(reader, 2):
            values = tuple(_value(v) for v in (row["values"] or "").split())
            try:
                count = int(row["count"])
            except (TypeError, ValueError):
                raise RecordError(str(path), line, f"count: expected a whole number, got {row['count']!r}") from None
            if count != len(values):
                raise RecordError(str(path), line, f"count {count} does not match the {len(values)} values")
            items.append(Item(path.parent / row["path"], values, count))
    if not items:
        raise RecordError(str(path), 0, "the manifest lists no images")
    return items


def _match(true: list[Any], read: list[Any]) -> int:
    """How many true dice were read (multiset intersection)."""
    return sum((Counter(true) & Counter(read)).values())


def evaluate(items: list[Item], read: Callable[[np.ndarray], list[DieReading]]) -> Result:
    import cv2

    from hardware.image_file import read_image

    cv2.setNumThreads(1)
    result = Result()
    for item in items:
        frame = read_image(item.path)
        started = time.process_time()
        readings = read(frame)
        result.ms.append(1000.0 * (time.process_time() - started))
        got = sorted((r.face for r in readings), key=str)
        want = sorted(item.values, key=str)
        result.images += 1
        result.image_right += got == want
        result.count_right += len(got) == len(want)
        result.dice_true += len(want)
        result.dice_matched += _match(want, got)
        if got != want:
            result.failures.append((str(item.path.name), want, got))
        _confuse(result.confusion, item, readings)
    return result


def _confuse(confusion: list[list[int]], item: Item, readings: list[DieReading]) -> None:
    """Pair true and read pip values for the confusion matrix.

    The manifest has no positions, so values are paired by the multiset:
    the dice read right pair with themselves, and the rest pair in sorted
    order (only when as many were read as lie there).
    """
    true = [v for v in item.values if isinstance(v, int) and 1 <= v <= 6]
    read = [r.face for r in readings if isinstance(r.face, int) and 1 <= r.face <= 6]
    common = Counter(true) & Counter(read)
    for v, n in common.items():
        confusion[v - 1][v - 1] += n
    rest_true = sorted((Counter(true) - common).elements())
    rest_read = sorted((Counter(read) - common).elements())
    if len(rest_true) == len(rest_read):
        for t, r in zip(rest_true, rest_read, strict=True):
            confusion[t - 1][r - 1] += 1
