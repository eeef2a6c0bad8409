"""Procedural photos of colour and symbol dice, for tests and the benchmark.

No photos of the Shear Panic or Sheep Hop! dice exist in the development
data, so the project makes its own.  The recipe (also in docs/dice.md):

1. *Tray*: a felt-like surface, a base colour with per-pixel noise and a
   smooth low-frequency blotch field (random per image).
2. *Shadow*: a soft (Gaussian-blurred) dark copy of the die's outline, offset
   towards a random light direction, multiplying the tray by 0.45..0.7.
3. *Die*: a rounded square of off-white body (random small ivory tint), at a
   random angle and position.  Tilt: one or two side faces show as a shaded
   strip along the die's edges (body darkened to 55..80 %), carrying a
   fragment of another face's mark, so the reader must ignore side faces.
4. *Top face mark*: a sheep (body ellipse, head, legs) in the face's colour,
   or a symbol ("+", "X", a wolf's head), or both (Sheep Hop!).
5. *Light*: the whole image multiplied by an illuminant: warm (tungsten-like,
   R 1.12, G 0.97, B 0.68), cool (daylight-LED-like, R 0.80, G 0.97, B 1.18)
   or dim (x 0.42 overall, slightly warm), times a linear brightness gradient
   (0.8..1.1 across the frame), then sensor noise (Gaussian, sigma 2.5, 4 when
   dim), a slight blur, and a small random perspective warp (camera not
   exactly overhead).

Everything is drawn from a seeded ``numpy.random.Generator``, so a seed gives
the same image on every machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

LIGHTS: dict[str, tuple[float, float, float]] = {  # R, G, B gains
    "neutral": (1.0, 1.0, 1.0),
    "warm": (1.12, 0.97, 0.68),
    "cool": (0.80, 0.97, 1.18),
    "dim": (0.46, 0.42, 0.36),
}

# Mark colours as RGB; black and dark green are deliberately close (the rulebook warns).
COLOURS: dict[str, tuple[int, int, int]] = {
    "white": (236, 236, 230),
    "black": (28, 30, 30),
    "blue": (30, 80, 190),
    "green": (30, 92, 52),
    "red": (200, 36, 40),
    "yellow": (238, 205, 40),
    "orange": (236, 130, 30),
    "pink": (230, 120, 170),
    "grey": (120, 120, 120),
}

# The dice of the games as the renderer draws them: face name -> (colour, symbol).
PANIC = {c: (c, "sheep") for c in ("white", "black", "blue", "green", "red", "yellow")}
REGROUP = {"+": ("black", "+"), "X": ("black", "X")}
SHEEP_HOP = {
    "orange": ("orange", "sheep-dot"),
    "pink": ("pink", "sheep-bar"),
    "blue": ("blue", "sheep-ring"),
    "multicolour": ("multi", "sheep"),
    "wolves": ("grey", "wolf"),
    "big-wolf": ("black", "wolf2"),
}
DICE = {"panic": PANIC, "regroup": REGROUP, "sheep-hop": SHEEP_HOP}
TRAYS = {"felt-green": (40, 95, 60), "felt-brown": (105, 70, 45), "wood": (150, 110, 70)}


@dataclass(frozen=True)
class Placed:
    """A die as drawn: die kind, top face name, centre, side (px), angle (deg)."""

    die: str
    face: str
    centre: tuple[float, float]
    side: float
    angle: float


def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return (rgb[2], rgb[1], rgb[0])


def _draw_mark(canvas: np.ndarray, colour: str, symbol: str, s: int) -> None:
    """Draw a face mark in an upright s x s canvas (BGR, float)."""
    c = s // 2
    if colour == "multi":
        parts = [COLOURS["red"], COLOURS["blue"], COLOURS["yellow"], COLOURS["green"]]
    else:
        parts = [COLOURS[colour]]
    ink = _bgr(parts[0])
    if symbol.startswith("sheep"):
        axes = (int(s * 0.26), int(s * 0.18))
        if len(parts) > 1:
            for i, p in enumerate(parts):
                cv2.ellipse(canvas, (c, c), axes, 0, i * 90, (i + 1) * 90, _bgr(p), -1, cv2.LINE_AA)
        else:
            cv2.ellipse(canvas, (c, c), axes, 0, 0, 360, ink, -1, cv2.LINE_AA)
        cv2.circle(canvas, (c + int(s * 0.27), c - int(s * 0.08)), int(s * 0.09), ink, -1, cv2.LINE_AA)
        for dx in (-0.14, 0.12):
            x = c + int(s * dx)
            cv2.line(canvas, (x, c + int(s * 0.12)), (x, c + int(s * 0.3)), ink, max(2, s // 22), cv2.LINE_AA)
        white = (240, 240, 240)
        if symbol == "sheep-dot":
            cv2.circle(canvas, (c - int(s * 0.05), c), int(s * 0.06), white, -1, cv2.LINE_AA)
        elif symbol == "sheep-bar":
            cv2.rectangle(canvas, (c - int(s * 0.16), c - int(s * 0.03)), (c + int(s * 0.08), c + int(s * 0.03)), white, -1)
        elif symbol == "sheep-ring":
            cv2.circle(canvas, (c - int(s * 0.05), c), int(s * 0.08), white, max(2, s // 30), cv2.LINE_AA)
    elif symbol in ("+", "X"):
        arm, t = int(s * 0.3), max(3, int(s * 0.11))
        pts = [((c - arm, c), (c + arm, c)), ((c, c - arm), (c, c + arm))]
        if symbol == "X":
            a = int(arm / math.sqrt(2))
            pts = [((c - a, c - a), (c + a, c + a)), ((c - a, c + a), (c + a, c - a))]
        for p, q in pts:
            cv2.line(canvas, p, q, ink, t, cv2.LINE_AA)
    elif symbol.startswith("wolf"):
        head = np.array([[c - s * 0.28, c - s * 0.25], [c - s * 0.12, c - s * 0.05], [c + s * 0.12, c - s * 0.05],
                         [c + s * 0.28, c - s * 0.25], [c + s * 0.22, c + s * 0.1], [c, c + s * 0.3],
                         [c - s * 0.22, c + s * 0.1]], np.int32)
        cv2.fillPoly(canvas, [head], ink, cv2.LINE_AA)
        if symbol == "wolf2":
            cv2.circle(canvas, (c - int(s * 0.1), c - int(s * 0.06)), int(s * 0.05), (240, 240, 240), -1, cv2.LINE_AA)


def face_image(die: str, face: str, s: int, body: tuple[int, int, int]) -> np.ndarray:
    """An upright s x s top face: die body colour with the face's mark."""
    canvas = np.full((s, s, 3), body, np.uint8)
    colour, symbol = DICE[die][face]
    if not (die == "panic" and face == "white"):
        _draw_mark(canvas, colour, symbol, s)
    else:  # the white sheep: a white mark with a thin grey outline, as printed
        _draw_mark(canvas, "white", "sheep", s)
        gray = cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY)
        edges = cv2.Canny(gray, 5, 15)
        canvas[edges > 0] = (150, 150, 150)
    return canvas


def render(
    rng: np.random.Generator,
    dice: Sequence[tuple[str, str]],
    light: str = "neutral",
    size: tuple[int, int] = (640, 480),
    die_px: float = 64.0,
    tray: str = "felt-green",
    tilt: bool = True,
    shadow: bool = True,
    jitter: bool = True,
) -> tuple[np.ndarray, list[Placed]]:
    """A BGR frame with the given (die, face) pairs lying on a tray, and where they lie."""
    w, h = size
    base = np.array(_bgr(TRAYS[tray]), np.float32)
    blotch = cv2.resize(rng.normal(1.0, 0.06, (6, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img = base[None, None, :] * blotch[:, :, None] + rng.normal(0, 5, (h, w, 3)).astype(np.float32)
    placed: list[Placed] = []
    light_dir = rng.uniform(0, 2 * math.pi)
    for die, face in dice:
        for _ in range(200):  # find a free spot
            side = die_px * (rng.uniform(0.9, 1.1) if jitter else 1.0)
            cx, cy = rng.uniform(side * 1.2, w - side * 1.2), rng.uniform(side * 1.2, h - side * 1.2)
            if all(math.hypot(cx - p.centre[0], cy - p.centre[1]) > 1.9 * max(side, p.side) for p in placed):
                break
        angle = float(rng.uniform(0, 90))
        placed.append(Placed(die, face, (float(cx), float(cy)), float(side), angle))
    for p in placed:
        s = round(p.side)
        body = tuple(int(v) for v in rng.integers(226, 246, 3))
        body = (body[0] - int(rng.integers(0, 12)), body[1], body[2])  # a hint of ivory
        top = face_image(p.die, p.face, s, body).astype(np.float32)
        # tilt: a side face strip along one or two edges, shaded, with part of another mark
        pad = int(s * 0.32) if tilt else 0
        tile = np.zeros((s + 2 * pad, s + 2 * pad, 3), np.float32)
        alpha = np.zeros((s + 2 * pad, s + 2 * pad), np.float32)
        if tilt:
            others = [f for f in DICE[p.die] if f != p.face]
            other = face_image(p.die, others[int(rng.integers(len(others)))], s, body).astype(np.float32)
            depth = int(s * rng.uniform(0.12, 0.3))
            shade = rng.uniform(0.55, 0.8)
            side_face = cv2.resize(other, (s, depth), interpolation=cv2.INTER_AREA) * shade
            tile[pad + s : pad + s + depth, pad : pad + s] = side_face
            alpha[pad + s : pad + s + depth, pad : pad + s] = 1.0
            if rng.random() < 0.5:
                depth2 = int(s * rng.uniform(0.08, 0.22))
                side2 = cv2.resize(other, (depth2, s), interpolation=cv2.INTER_AREA) * rng.uniform(0.6, 0.85)
                tile[pad : pad + s, pad + s : pad + s + depth2] = side2
                alpha[pad : pad + s, pad + s : pad + s + depth2] = 1.0
        tile[pad : pad + s, pad : pad + s] = top
        rounded = np.zeros((s, s), np.uint8)
        r = max(2, s // 9)
        cv2.rectangle(rounded, (r, 0), (s - r, s), 1, -1)
        cv2.rectangle(rounded, (0, r), (s, s - r), 1, -1)
        for x, y in ((r, r), (s - r, r), (r, s - r), (s - r, s - r)):
            cv2.circle(rounded, (x, y), r, 1, -1, cv2.LINE_AA)
        alpha[pad : pad + s, pad : pad + s] = rounded
        n = tile.shape[0]
        m = cv2.getRotationMatrix2D((n / 2, n / 2), p.angle, 1.0)
        m[0, 2] += p.centre[0] - n / 2
        m[1, 2] += p.centre[1] - n / 2
        warped = cv2.warpAffine(tile, m, (w, h), flags=cv2.INTER_LINEAR)
        a = cv2.warpAffine(alpha, m, (w, h), flags=cv2.INTER_LINEAR)
        if shadow:
            off = p.side * rng.uniform(0.12, 0.3)
            ms = m.copy()
            ms[0, 2] += off * math.cos(light_dir)
            ms[1, 2] += off * math.sin(light_dir)
            sh = cv2.warpAffine(alpha, ms, (w, h), flags=cv2.INTER_LINEAR)
            sh = cv2.GaussianBlur(sh, (0, 0), p.side * 0.12)
            img *= (1.0 - rng.uniform(0.3, 0.55) * sh)[:, :, None]
        img = img * (1 - a[:, :, None]) + warped * a[:, :, None]
    gains = np.array(LIGHTS[light][::-1], np.float32)  # BGR order
    gx = np.linspace(0.8, 1.1, w, dtype=np.float32)
    if rng.random() < 0.5:
        gx = gx[::-1]
    img = img * gains[None, None, :] * gx[None, :, None]
    img += rng.normal(0, 4.0 if light == "dim" else 2.5, img.shape).astype(np.float32)
    img = cv2.GaussianBlur(np.clip(img, 0, 255), (3, 3), 0.7)
    out = img.astype(np.uint8)
    if tilt:
        d = 0.03 * min(w, h)
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        dst = src + rng.uniform(-d, d, (4, 2)).astype(np.float32)
        hm = cv2.getPerspectiveTransform(src, dst)
        out = cv2.warpPerspective(out, hm, (w, h), borderMode=cv2.BORDER_REFLECT)
        pts = cv2.perspectiveTransform(np.float32([[p.centre for p in placed]]), hm)[0]
        placed = [Placed(p.die, p.face, (float(x), float(y)), p.side, p.angle) for p, (x, y) in zip(placed, pts, strict=True)]
    return out, placed


def empty_tray(rng: np.random.Generator, light: str = "neutral", size: tuple[int, int] = (640, 480),
               tray: str = "felt-green") -> np.ndarray:
    """The tray with no dice, under the same light (for calibration)."""
    frame, _ = render(rng, [], light, size, tray=tray, tilt=False)
    return frame
