"""The pip-dice renders (hardware/testing/pip_render.py) and the stage measure's pairing (benchmarks/dice_stages.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from hardware.dice import labelled
from hardware.testing.pip_render import _draw_tilted_die, render_set

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from dice_stages import pair, verdict


def test_a_tilted_die_is_labelled_by_its_whole_silhouette() -> None:
    """As roboflow-mixed boxes a die: the square around its top and side faces, the die touching it."""
    for seed in range(8):
        rng = np.random.default_rng(seed)
        img = np.zeros((200, 200, 3), np.float32)  # black: the die's shadow leaves it black
        x, y, side = _draw_tilted_die(rng, img, 100.0, 100.0, 60.0, 3)
        ys, xs = np.nonzero(img.max(axis=2) > 3)
        x0, x1, y0, y1 = xs.min(), xs.max(), ys.min(), ys.max()
        assert x - side / 2 - 2 <= x0 and x1 <= x + side / 2 + 2 and y - side / 2 - 2 <= y0 and y1 <= y + side / 2 + 2
        assert max(x1 - x0, y1 - y0) >= side - 4  # the box is tight on its longer side
        assert side >= 60 * 0.9  # at least the top face's extent (foreshortened by at most cos 55)


def test_renders_are_reproducible_and_tilting_is_opt_in() -> None:
    a, b = render_set(2, 5), render_set(2, 5)
    assert all((p[0] == q[0]).all() and p[1] == q[1] for p, q in zip(a, b, strict=True))
    tilted = render_set(2, 5, tilted=1.0)
    assert any(not (p[0] == q[0]).all() for p, q in zip(a, tilted, strict=True))
    for img, dice in tilted:
        assert img.shape == (320, 320, 3) and img.dtype == np.uint8
        assert all(1 <= v <= 6 and s > 0 for _, _, s, v in dice)


def test_stage_pairing_is_one_to_one_within_half_a_side() -> None:
    dice = (labelled.LabelledDie(10, 10, 20, 1), labelled.LabelledDie(40, 10, 20, 2))
    found = [(12, 10, 20, 0.9), (11, 11, 20, 0.8), (90, 90, 20, 0.9)]
    assert pair(dice, found) == {0: 1}  # the nearer peak; the second die has none within 10 px
    p = np.array([0.1, 0.0, 0.0, 0.9, 0.0, 0.0, 0.0])
    assert verdict(p, 3, 0.5) == "right" and verdict(p, 4, 0.5) == "wrong" and verdict(p, 3, 0.95) == "not a die"
    assert cv2.__version__  # the renders' OpenCV is the reader's
