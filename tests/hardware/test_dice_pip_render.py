"""The pip-dice renders (hardware/testing/pip_render.py) and the stage measure's pairing (benchmarks/dice_stages.py)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import cv2
import numpy as np

from hardware.dice import labelled
from hardware.testing import pip_render
from hardware.testing.pip_render import (
    _die_colours,
    _draw_perspective_die,
    _draw_tilted_die,
    _perspective_faces,
    render_set,
)

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


def _plain_bodies(monkeypatch) -> None:
    """Plain die bodies, so a face's pips are the only blobs on it."""
    monkeypatch.setattr(pip_render, "_body_texture", lambda _rng, h, w, _side, body: np.broadcast_to(body, (h, w, 3)).astype(np.float32))


def _pips_on(img: np.ndarray, quad: np.ndarray, k: int = 96) -> int:
    """The pips on one face: the face warped back to a square, blobs apart from its body's grey."""
    square = np.float32([[0, 0], [k, 0], [k, k], [0, k]])
    face = cv2.warpPerspective(img, cv2.getPerspectiveTransform(quad, square), (k, k), flags=cv2.INTER_LINEAR)
    grey = cv2.cvtColor(np.clip(face, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY).astype(np.float32)
    inner = grey[k // 8:-k // 8, k // 8:-k // 8]
    apart = (np.abs(inner - np.median(inner)) > 25).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(apart)
    return sum(1 for a in stats[1:, cv2.CC_STAT_AREA] if a >= k * k * 0.004)


def test_a_perspective_die_shows_its_value_on_top_and_its_side_faces(monkeypatch) -> None:
    """Session 13's renders: the top face carries the label's pips, one to three side faces show (each
    another face's value, never the top's nor its opposite's) with their own pips, and the label is the
    square around the whole silhouette."""
    _plain_bodies(monkeypatch)
    right = 0
    for seed in range(24):
        value = seed % 6 + 1
        rng = np.random.default_rng(seed)
        _die_colours(rng)
        faces = _perspective_faces(rng, 100.0, 100.0, 60.0, value)
        img = np.zeros((200, 200, 3), np.float32)
        x, y, side = _draw_perspective_die(np.random.default_rng(seed), img, 100.0, 100.0, 60.0, value)
        assert 2 <= len(faces) <= 4 and faces[0][1] == value
        assert all(v not in (value, 7 - value) for _, v, _ in faces[1:])
        areas = [cv2.contourArea(q) for q, _, _ in faces]
        assert max(areas[1:]) > 0.15 * areas[0]  # a side face shows, not only a sliver
        for quad, _, _ in faces[1:]:  # each side face is drawn: its area shows the die, not the black table
            m = np.zeros((200, 200), np.uint8)
            cv2.fillConvexPoly(m, quad.astype(np.int32), 1)
            m = cv2.erode(m, np.ones((3, 3), np.uint8))  # off the edges (rounded corners, pixel rounding)
            assert m.sum() < 20 or (img.max(axis=2)[m > 0] > 3).mean() > 0.9
        right += _pips_on(img, faces[0][0]) == value
        ys, xs = np.nonzero(img.max(axis=2) > 3)
        assert x - side / 2 - 2 <= xs.min() and xs.max() <= x + side / 2 + 2
        assert y - side / 2 - 2 <= ys.min() and ys.max() <= y + side / 2 + 2
        assert side > 60  # the top face and a side face
    assert right >= 21  # the top's pips are the label's (a glare spot or a translucent body may hide one)


def test_perspective_renders_are_opt_in() -> None:
    """Off (the default), the tilted renders are the orthographic ones; on, their dice differ."""
    ortho, persp = render_set(2, 5, tilted=1.0), render_set(2, 5, tilted=1.0, perspective=True)
    assert all((p[0] == q[0]).all() for p, q in zip(ortho, render_set(2, 5, tilted=1.0, perspective=False), strict=True))
    assert any(not (p[0] == q[0]).all() for p, q in zip(ortho, persp, strict=True))


def test_stage_pairing_is_one_to_one_within_half_a_side() -> None:
    dice = (labelled.LabelledDie(10, 10, 20, 1), labelled.LabelledDie(40, 10, 20, 2))
    found = [(12, 10, 20, 0.9), (11, 11, 20, 0.8), (90, 90, 20, 0.9)]
    assert pair(dice, found) == {0: 1}  # the nearer peak; the second die has none within 10 px
    p = np.array([0.1, 0.0, 0.0, 0.9, 0.0, 0.0, 0.0])
    assert verdict(p, 3, 0.5) == "right" and verdict(p, 4, 0.5) == "wrong" and verdict(p, 3, 0.95) == "not a die"
    assert cv2.__version__  # the renders' OpenCV is the reader's


def _digest(renders: list) -> str:
    h = hashlib.sha256()
    for img, dice in renders:
        h.update(img.tobytes())
        h.update(repr(dice).encode())
    return h.hexdigest()


def test_ghost_renders_are_opt_in_and_the_default_is_unchanged_to_the_bit() -> None:
    """Session 22's ghost renders (translucent dice showing their hidden faces' pips, large swirls) are an
    option: off, the classifier's extra renders (seed 1602, 70 % tilted) are the renders before it, to the
    bit (the digest is the one main's pip_render gave before the option; the v1 cache stays valid); on, they
    differ, keep their dice (the same places and values) and are reproducible."""
    assert _digest(render_set(4, 1602, tilted=0.7)) == "95c554ca9eeee8b855c5211be00a49f785a7b39ab1be601299b63a63350f62f6"
    assert _digest(render_set(4, 1602, tilted=0.7, ghost=False)) == _digest(render_set(4, 1602, tilted=0.7))
    ghost = render_set(4, 1602, tilted=0.7, ghost=True)
    assert _digest(ghost) == _digest(render_set(4, 1602, tilted=0.7, ghost=True))
    assert _digest(ghost) != _digest(render_set(4, 1602, tilted=0.7))
    for img, dice in ghost:
        assert img.shape == (320, 320, 3) and img.dtype == np.uint8
        assert all(1 <= v <= 6 and s > 0 for _, _, s, v in dice)


def test_ghost_pips_show_the_hidden_faces_faintly_inside_the_die() -> None:
    """A ghost layer darkens or tints only inside the die's silhouette, and faintly (at most half the pips')."""
    rng = np.random.default_rng(3)
    img = np.full((200, 200, 3), 200.0, np.float32)
    hull = np.float32([[60, 60], [140, 60], [140, 150], [60, 150]])
    top = np.float32([[60, 60], [140, 60], [140, 130], [60, 130]])
    pip_render._ghost_pips(rng, img, hull, top, np.float32([0, 20]), np.float32([100, 95]), 1,
                           np.zeros(3, np.float32), 0.55, 7.0)
    changed = np.abs(img - 200).max(axis=2) > 1
    assert changed.any()
    ys, xs = np.nonzero(changed)
    assert xs.min() >= 58 and xs.max() <= 142 and ys.min() >= 58 and ys.max() <= 152
    assert img.min() >= 200 * 0.5 - 1  # at most half the contrast of a black pip on the body
