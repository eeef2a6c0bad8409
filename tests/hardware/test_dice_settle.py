"""Settle detection on frame sequences made from real webcam photos: dice
tumbling in, a hand passing and resting, the same dice lying on."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from hardware.dice.model import DieReading
from hardware.dice.pips import read_pips
from hardware.dice.settle import SettleDetector, SettleParams, same_dice
from hardware.testing.camera import hand_frames, tumbling_frames


def _photo(shared: Path, name: str) -> np.ndarray:
    return cv2.imread(str(shared / "dice" / "webcam-train" / name))


def _run(frames: list[np.ndarray]) -> list[tuple[int, list[int]]]:
    detector = SettleDetector()
    reports = []
    for i, frame in enumerate(frames):
        got = detector.update(frame, read_pips)
        if got is not None:
            reports.append((i, sorted(r.face for r in got)))
    return reports


def test_tumbling_then_still_is_one_roll_after_the_dice_stop(shared_data: Path) -> None:
    photo = _photo(shared_data, "four_20.jpg")
    tumble = tumbling_frames(photo, [r.box for r in read_pips(photo)], np.random.default_rng(1), frames=14)
    reports = _run(tumble + [photo] * 25)
    assert reports == [(reports[0][0], [4, 4])]
    assert reports[0][0] >= len(tumble) + SettleParams().still_frames - 1


def test_a_hand_passing_or_resting_does_not_report_again(shared_data: Path) -> None:
    photo = _photo(shared_data, "two_11.jpg")
    rng = np.random.default_rng(2)
    tumble = tumbling_frames(photo, [r.box for r in read_pips(photo)], rng)
    frames = tumble + [photo] * 15 + hand_frames(photo, rng, 10) + [photo] * 15
    frames += hand_frames(photo, rng, 10, stay=30) + [photo] * 15
    reports = _run(frames)
    assert len(reports) == 1 and reports[0][1] == [2, 2]


def test_nothing_is_read_while_frames_keep_changing(shared_data: Path) -> None:
    photo = _photo(shared_data, "six_10.jpg")
    rng = np.random.default_rng(3)
    reads = []
    detector = SettleDetector()
    for frame in tumbling_frames(photo, [r.box for r in read_pips(photo)], rng, frames=20):
        detector.update(frame, lambda f: reads.append(1) or read_pips(f))
    assert reads == []


def test_same_dice_allows_small_shifts_only() -> None:
    a = [DieReading("pips", 3, 0.9, (100, 100, 40, 40)), DieReading("pips", 5, 0.9, (300, 200, 40, 40))]
    nudged = [DieReading("pips", 5, 0.9, (305, 198, 40, 40)), DieReading("pips", 3, 0.9, (102, 101, 40, 40))]
    moved = [DieReading("pips", 3, 0.9, (200, 100, 40, 40)), DieReading("pips", 5, 0.9, (300, 200, 40, 40))]
    other = [DieReading("pips", 4, 0.9, (100, 100, 40, 40)), DieReading("pips", 5, 0.9, (300, 200, 40, 40))]
    assert same_dice(a, nudged)
    assert not same_dice(a, moved)
    assert not same_dice(a, other)
    assert not same_dice(a, a[:1])
