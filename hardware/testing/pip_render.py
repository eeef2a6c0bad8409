"""Procedural photos of pip dice with domain randomisation (training and the synthetic group).

The real photos cover ivory, white, black and a few coloured dice on a desk,
paper, a fisheye tray and felt trays.  The renders cover what they lack, so
the learned reader does not tie itself to one camera, die or table.  The
recipe (also in docs/dice.md), every choice drawn from a seeded
``numpy.random.Generator``:

1. *Background* (one of): plain felt (a colour, fine noise, soft blotches);
   wood grain (warped sine stripes in browns); printed board (random coloured
   rectangles, discs and lines, then softened); paper (near-white, faint
   texture); dark cloth; speckle (carpet, grass, a patterned rug: noise at
   three scales in random tints, then 20..300 flecks of any colour, dots of
   1..4 px and short dashes, the size of pips).  A linear light gradient
   across it.
2. *Dice*: 1 to 12, side 16 to 160 px (one size per image +-15 %, as dice
   of one set lie at about one distance), anywhere, at any angle, not
   overlapping.  Body colour: ivory, white, black, red, green, blue, yellow,
   purple, orange or any random colour; *marbled* (two colours swirled by a
   smoothed noise field) 20 % of the time; *translucent* (the background
   shows through, 25..55 %) 15 % of the time.  Pip colour: dark, light or a
   random colour contrasting with the body (at least 70 grey levels apart in
   luminance); pip diameter 0.16..0.22 of the side; pip layout jittered.
3. *Perspective*: a side face (the body darkened to 45..80 %, carrying
   pips of another face, foreshortened) shows along one or two edges, as a
   camera off to one side sees it; the top face keeps its square.
4. *Shadow*: a blurred dark copy of the die's outline, offset toward a random
   light direction (multiplying the background by 0.5..0.8).  Specular
   glare (a soft white spot) on 15 % of dice.
5. *Camera*: a small perspective warp of the whole image, Gaussian or
   motion blur (0..2 px), sensor noise (sigma 0..8), brightness and
   contrast changes, JPEG compression (quality 35..95); a third of the
   images turned to greyscale (as three of the four photo groups are).

``render_scene(rng, size)`` returns the image (BGR uint8) and its dice as
``(x, y, side, value)``; ``render_set(n, seed)`` makes a reproducible set.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# Pip centres on a unit face (-1..1), per value.
LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
BODIES = [
    (225, 235, 240), (245, 245, 245), (30, 30, 30), (40, 40, 200), (60, 150, 40), (200, 80, 30),
    (40, 200, 230), (140, 40, 120), (30, 130, 240), (160, 160, 160),
]  # BGR: ivory, white, black, red, green, blue, yellow, purple, orange, grey


def _luma(c: np.ndarray) -> float:
    return float(0.114 * c[0] + 0.587 * c[1] + 0.299 * c[2])


def _noise_field(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    small = rng.random((max(2, int(h / scale)), max(2, int(w / scale)))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    kind = rng.choice(["felt", "wood", "board", "paper", "cloth", "speckle"], p=[0.22, 0.2, 0.18, 0.12, 0.1, 0.18])
    if kind == "speckle":  # carpet, grass, a patterned rug: busy at the scale of pips
        img = np.full((h, w, 3), rng.uniform(30, 200, 3), np.float32)
        for scale in (1.5, 4.0, 12.0):
            tint = rng.uniform(-1, 1, 3).astype(np.float32) * rng.uniform(20, 70)
            img += (_noise_field(rng, h, w, scale) - 0.5)[..., None] * tint[None, None, :] * 2
        for _ in range(int(rng.integers(20, 300))):  # flecks: dots and dashes the size of pips
            x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
            colour = rng.uniform(0, 255, 3).tolist()
            if rng.random() < 0.6:
                cv2.circle(img, (x, y), int(rng.integers(1, 5)), colour, -1)
            else:
                a = rng.uniform(0, 2 * math.pi)
                r = rng.uniform(2, 9)
                cv2.line(img, (x, y), (int(x + r * math.cos(a)), int(y + r * math.sin(a))), colour, int(rng.integers(1, 3)))
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.2))
    elif kind == "wood":
        base = np.array([rng.uniform(40, 120), rng.uniform(80, 160), rng.uniform(120, 210)], np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        angle = rng.uniform(0, math.pi)
        t = xx * math.cos(angle) + yy * math.sin(angle) + 40 * _noise_field(rng, h, w, 60)
        stripes = 0.5 + 0.5 * np.sin(t / rng.uniform(3, 14))
        img = base[None, None, :] * (0.75 + 0.35 * stripes[..., None])
    elif kind == "board":
        img = np.full((h, w, 3), rng.uniform(60, 230, 3), np.float32)
        for _ in range(int(rng.integers(4, 20))):
            colour = rng.uniform(0, 255, 3).tolist()
            x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
            r = int(rng.integers(8, max(10, w // 3)))
            shape = rng.integers(0, 3)
            if shape == 0:
                cv2.rectangle(img, (x, y), (x + r, y + int(rng.integers(8, r + 9))), colour, -1)
            elif shape == 1:
                cv2.circle(img, (x, y), r // 2, colour, -1)
            else:
                cv2.line(img, (x, y), (int(rng.integers(0, w)), int(rng.integers(0, h))), colour, int(rng.integers(1, 6)))
        img = cv2.GaussianBlur(img, (0, 0), 1.0)
    elif kind == "paper":
        img = np.full((h, w, 3), rng.uniform(190, 250), np.float32) + rng.normal(0, 3, (h, w, 1))
    else:
        lo, hi = (10, 90) if kind == "cloth" else (20, 220)
        img = np.full((h, w, 3), rng.uniform(lo, hi, 3), np.float32)
        img *= (0.85 + 0.3 * _noise_field(rng, h, w, 40))[..., None]
        img += rng.normal(0, 6, (h, w, 1))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = rng.uniform(-0.35, 0.35, 2)
    img *= (1 + g[0] * (xx / w - 0.5) + g[1] * (yy / h - 0.5))[..., None]
    return img


def _die_colours(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    if rng.random() < 0.75:
        body = np.array(BODIES[int(rng.integers(len(BODIES)))], np.float32) * rng.uniform(0.8, 1.1)
    else:
        body = rng.uniform(0, 255, 3).astype(np.float32)
    body = np.clip(body, 0, 255)
    for _ in range(20):
        r = rng.random()
        if r < 0.4:
            pip = np.full(3, rng.uniform(0, 50), np.float32)
        elif r < 0.75:
            pip = np.full(3, rng.uniform(200, 255), np.float32)
        else:
            pip = rng.uniform(0, 255, 3).astype(np.float32)
        if abs(_luma(pip) - _luma(body)) >= 70:
            return body, pip
    return body, (np.full(3, 20.0 if _luma(body) > 128 else 240.0, np.float32))


def _cast_shadow(rng: np.random.Generator, img: np.ndarray, outline: np.ndarray, side: float) -> None:
    """Darken ``img`` under a die's outline (its corners in the image) moved away from a random light."""
    light = rng.uniform(0, 2 * math.pi)
    off = np.array([math.cos(light), math.sin(light)]) * side * rng.uniform(0.05, 0.35)
    mask = np.zeros(img.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, (outline + off).astype(np.int32), 1.0)
    img *= (1 - rng.uniform(0.2, 0.5) * cv2.GaussianBlur(mask, (0, 0), max(1.0, side * 0.12)))[..., None]


def _glare(rng: np.random.Generator, img: np.ndarray, centre: np.ndarray, side: float, top: np.ndarray) -> None:
    """Now and then (15 %) a specular glare spot near ``centre``, on the top face (``top``: its mask)."""
    if rng.random() < 0.15:
        g = np.zeros(img.shape[:2], np.float32)
        q = centre + rng.uniform(-0.3, 0.3, 2) * side
        cv2.circle(g, (int(q[0]), int(q[1])), max(1, int(side * 0.15)), 1.0, -1)
        img[:] = img + 120 * (cv2.GaussianBlur(g, (0, 0), max(1.0, side * 0.1)) * top)[..., None]


def _silhouette_box(hull: np.ndarray) -> tuple[float, float, float]:
    """The square around a die's whole silhouette, as roboflow-mixed labels a die: (x, y, side)."""
    x0, y0 = hull.min(axis=0)
    x1, y1 = hull.max(axis=0)
    return float(x0 + x1) / 2, float(y0 + y1) / 2, float(max(x1 - x0, y1 - y0))


def _draw_die(
    rng: np.random.Generator, img: np.ndarray, cx: float, cy: float, side: float, value: int
) -> None:
    h, w = img.shape[:2]
    body, pip = _die_colours(rng)
    angle = rng.uniform(0, 2 * math.pi)
    u = np.array([math.cos(angle), math.sin(angle)]) * side / 2
    v = np.array([-math.sin(angle), math.cos(angle)]) * side / 2
    c = np.array([cx, cy])
    top = np.array([c - u - v, c + u - v, c + u + v, c - u + v], np.float32)
    _cast_shadow(rng, img, top, side)
    # side faces (perspective): one or two edges, foreshortened
    layers: list[tuple[np.ndarray, np.ndarray, float]] = []
    for edge in rng.choice(4, size=int(rng.integers(0, 3)), replace=False):
        a, b = top[edge], top[(edge + 1) % 4]
        out = (a + b) / 2 - c
        out = out / (np.linalg.norm(out) + 1e-6)
        depth = side * rng.uniform(0.08, 0.4)
        quad = np.array([a, b, b + out * depth, a + out * depth], np.float32)
        layers.append((quad, body * rng.uniform(0.45, 0.8), depth))
    translucent = rng.random() < 0.15
    alpha = rng.uniform(0.45, 0.75) if translucent else 1.0
    marble = rng.random() < 0.2
    second = np.clip(body * rng.uniform(0.4, 1.6) + rng.normal(0, 40, 3), 0, 255)
    for quad, colour, depth in layers:
        m = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(m, quad.astype(np.int32), 1.0, lineType=cv2.LINE_AA)
        img[:] = img * (1 - alpha * m[..., None]) + colour * alpha * m[..., None]
        # a side face's pips, squashed
        if rng.random() < 0.8 and depth > side * 0.15:
            along = quad[1] - quad[0]
            across = quad[3] - quad[0]
            for px, py in LAYOUT[int(rng.integers(1, 7))]:
                p = quad[0] + along * (0.5 + 0.28 * px) + across * (0.5 + 0.28 * py)
                r = side * 0.09
                axes = (max(1, int(r)), max(1, int(r * depth / side * 2)))
                ang = math.degrees(math.atan2(along[1], along[0]))
                cv2.ellipse(img, (int(p[0]), int(p[1])), axes, ang, 0, 360, (pip * 0.7).tolist(), -1, cv2.LINE_AA)
    m = np.zeros((h, w), np.float32)
    corner = side * rng.uniform(0.05, 0.2)
    cv2.fillConvexPoly(m, top.astype(np.int32), 1.0, lineType=cv2.LINE_AA)
    if corner > 2:
        m = cv2.GaussianBlur(m, (0, 0), corner * 0.3)
        m = np.clip((m - 0.5) * 3 + 0.5, 0, 1)
    face = np.broadcast_to(body, img.shape).copy()
    if marble:
        t = _noise_field(rng, h, w, max(4, side / 3))
        swirl = 0.5 + 0.5 * np.sin(t * rng.uniform(8, 20))
        face = face * (1 - swirl[..., None]) + second * swirl[..., None]
    shade = 1 + rng.uniform(-0.15, 0.15) * ((np.mgrid[0:h, 0:w][1] - cx) / max(side, 1))
    face *= shade[..., None]
    img[:] = img * (1 - alpha * m[..., None]) + face * alpha * m[..., None]
    # pips
    spread = rng.uniform(0.48, 0.6)
    r = side * rng.uniform(0.08, 0.11)
    for px, py in LAYOUT[value]:
        p = c + (px * u + py * v) * spread + rng.normal(0, side * 0.01, 2)
        centre = (int(round(p[0] * 4)), int(round(p[1] * 4)))  # noqa: RUF046 (numpy floats: cv2 wants ints)
        cv2.circle(img, centre, max(1, int(r * 4)), pip.tolist(), -1, cv2.LINE_AA, 2)
    if rng.random() < 0.15:
        g = np.zeros((h, w), np.float32)
        q = c + rng.uniform(-0.3, 0.3, 2) * side
        cv2.circle(g, (int(q[0]), int(q[1])), max(1, int(side * 0.15)), 1.0, -1)
        g = cv2.GaussianBlur(g, (0, 0), max(1.0, side * 0.1)) * m
        img[:] = img + 120 * g[..., None]


def _body_texture(rng: np.random.Generator, h: int, w: int, side: float, body: np.ndarray) -> np.ndarray:
    """A die body's colour over the frame (H x W x 3): plain, marbled, finely marbled or glittering.

    The tilted renders' bodies (``_draw_tilted_die``): the hex-trays photos'
    dice are often marbled in swirls the size of pips, or glitter (sparkles
    of a pixel or two all over the body, brighter and darker than it).
    """
    face = np.broadcast_to(body, (h, w, 3)).astype(np.float32)
    kind = rng.choice(["plain", "marble", "fine marble", "glitter"], p=[0.3, 0.2, 0.25, 0.25])
    if kind in ("marble", "fine marble"):
        second = np.clip(body * rng.uniform(0.3, 1.8) + rng.normal(0, 60, 3), 0, 255).astype(np.float32)
        scale = side / (3 if kind == "marble" else rng.uniform(5, 9))
        t = _noise_field(rng, h, w, max(2.0, scale))
        swirl = (0.5 + 0.5 * np.sin(t * rng.uniform(8, 25)))[..., None]
        face = face * (1 - swirl) + second * swirl
    elif kind == "glitter":
        density = rng.uniform(0.05, 0.3)
        spark = (rng.random((h, w)) < density).astype(np.float32) * rng.uniform(-1, 1, (h, w)).astype(np.float32)
        if rng.random() < 0.5:  # flakes of two pixels
            spark = cv2.GaussianBlur(spark, (0, 0), 0.7) * 2
        face = face + spark[..., None] * rng.uniform(50, 140)
    return face


def _swirl_texture(
    rng: np.random.Generator, h: int, w: int, side: float, body: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Large two-colour swirls (session 22's ghost renders): a few broad bands of two contrasting colours
    across the die (a noise field a half to a whole side across, through a steep sine), and pips of a third
    colour (gold, red, blue, white, black or any), so a band's edge may hide a pip or look like one."""
    second = rng.uniform(0, 255, 3).astype(np.float32)
    if abs(_luma(second) - _luma(body)) < 60:
        second = np.clip(255 - body + rng.normal(0, 30, 3), 0, 255).astype(np.float32)
    t = _noise_field(rng, h, w, max(4.0, side * rng.uniform(0.5, 1.0)))
    swirl = (0.5 + 0.5 * np.tanh(rng.uniform(2, 6) * np.sin(t * rng.uniform(6, 12))))[..., None]
    face = body.astype(np.float32) * (1 - swirl) + second * swirl
    pips = [(30, 190, 230), (40, 40, 200), (200, 90, 30), (245, 245, 245), (25, 25, 25)]
    pip = (np.array(pips[int(rng.integers(len(pips)))], np.float32) * rng.uniform(0.8, 1.1) if rng.random() < 0.8
           else rng.uniform(0, 255, 3).astype(np.float32))
    return face.astype(np.float32), np.clip(pip, 0, 255)


def _ghost_pips(
    rng: np.random.Generator, img: np.ndarray, hull: np.ndarray, top: np.ndarray, drop: np.ndarray,
    c: np.ndarray, value: int, pip: np.ndarray, spread: float, r: float,
) -> None:
    """A translucent die's hidden faces' pips seen through its body (session 22's ghost renders), in ``img``
    inside the die's silhouette (``hull``): the opposite face's (7 - ``value``), its layout mirrored as seen
    through the die and shifted by the vertical edges (``drop``), and the side faces' that turn away from the
    camera (their values as a die's, opposite faces summing to 7), blurred, at 15..50 % of the real pips'
    contrast.  ``top``: the top face's corners; ``c``: its centre; ``spread``, ``r``: the real pips'."""
    h, w = img.shape[:2]
    layer = np.zeros((h, w), np.float32)
    u, v = (top[1] - top[0]) / 2, (top[3] - top[0]) / 2  # the top face's half edges, foreshortened
    quarter = int(rng.integers(4))
    for px, py in LAYOUT[7 - value]:
        for _ in range(quarter):
            px, py = -py, px
        p = c + drop + (-px * u + py * v) * spread + rng.normal(0, r * 0.1, 2)  # mirrored: seen from above
        cv2.circle(layer, (int(round(p[0] * 4)), int(round(p[1] * 4))), max(1, int(r * 4 * 0.9)), 1.0, -1,  # noqa: RUF046
                   cv2.LINE_AA, 2)
    for edge, around in enumerate(_side_values(rng, value)):
        a, b = top[edge], top[(edge + 1) % 4]
        if float(((a + b) / 2 - c) @ drop) > 0 or rng.random() < 0.3:  # shown on the outside, or faint
            continue
        along = b - a
        for px, py in LAYOUT[around]:
            p = a + along * (0.5 + 0.27 * px) + drop * (0.5 + 0.27 * py) + (c - (a + b) / 2) * rng.uniform(0, 0.3)
            axes = (max(1, int(r * 4)), max(1, int(r * 4 * rng.uniform(0.3, 0.8))))
            ang = math.degrees(math.atan2(along[1], along[0]))
            cv2.ellipse(layer, (int(round(p[0] * 4)), int(round(p[1] * 4))), axes, ang, 0, 360, 1.0, -1,  # noqa: RUF046
                        cv2.LINE_AA, 2)
    inside = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(inside, hull.astype(np.int32), 1.0, lineType=cv2.LINE_AA)
    layer = cv2.GaussianBlur(layer, (0, 0), max(0.6, r * rng.uniform(0.15, 0.5))) * inside
    k = rng.uniform(0.15, 0.5) * layer[..., None]
    img[:] = img * (1 - k) + pip * k


def _draw_tilted_die(
    rng: np.random.Generator, img: np.ndarray, cx: float, cy: float, side: float, value: int, ghost: bool = False
) -> tuple[float, float, float]:
    """A die seen obliquely, drawn in ``img``; returns its box as roboflow-mixed labels one: (x, y, side).

    The camera looks at the die from a tilt of 15..55 degrees toward a random
    direction (orthographic): the top face is foreshortened by cos(tilt) along
    that direction, and the cube's vertical edges all project onto one vector
    of length sin(tilt) x side, so the side faces that face the camera (one or
    two, adjacent) are the top face's edges swept along it, each shaded and
    carrying another face's pips, squashed.  The label is the square around
    the whole silhouette (top and side faces), as the photos' boxes are: the
    top face then fills half to three quarters of it, off its centre.

    ``ghost`` (session 22; off, the former renders draw by draw): after the
    former draws, the die's look is drawn again: 30 % translucent with its
    hidden faces' pips showing through (``_ghost_pips``), 20 % in large
    two-colour swirls with pips of a third colour (``_swirl_texture``), else
    as before.
    """
    h, w = img.shape[:2]
    body, pip = _die_colours(rng)
    angle = rng.uniform(0, 2 * math.pi)
    tilt = math.radians(rng.uniform(15, 55))
    towards = rng.uniform(0, 2 * math.pi)
    d = np.array([math.cos(towards), math.sin(towards)])
    c = np.array([cx, cy])

    def project(p: np.ndarray) -> np.ndarray:  # foreshorten offsets from c along d by cos(tilt)
        q = p - c
        return c + q - np.asarray(q @ d)[..., None] * d * (1 - math.cos(tilt))

    u = np.array([math.cos(angle), math.sin(angle)]) * side / 2
    v = np.array([-math.sin(angle), math.cos(angle)]) * side / 2
    flat = np.array([c - u - v, c + u - v, c + u + v, c - u + v])
    top = project(flat).astype(np.float32)
    drop = (d * side * math.sin(tilt)).astype(np.float32)  # the vertical edges, as the camera sees them
    outline = np.concatenate([top, top + drop])
    hull = cv2.convexHull(outline.astype(np.float32)).reshape(-1, 2)
    _cast_shadow(rng, img, hull, side)  # of the whole silhouette
    texture = _body_texture(rng, h, w, side, body)
    translucent = rng.random() < 0.15
    alpha = rng.uniform(0.45, 0.75) if translucent else 1.0
    look = rng.choice(["as before", "ghost", "swirl"], p=[0.5, 0.3, 0.2]) if ghost else "as before"
    if look == "ghost":
        alpha = rng.uniform(0.55, 0.85)
    elif look == "swirl":
        texture, pip = _swirl_texture(rng, h, w, side, body)
    for edge in range(4):
        a, b = top[edge], top[(edge + 1) % 4]
        outward = (a + b) / 2 - c
        if float(outward @ drop) <= 0:  # this side face turns away from the camera
            continue
        quad = np.array([a, b, b + drop, a + drop], np.float32)
        m = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(m, quad.astype(np.int32), 1.0, lineType=cv2.LINE_AA)
        shade = rng.uniform(0.4, 0.85)
        img[:] = img * (1 - alpha * m[..., None]) + texture * shade * alpha * m[..., None]
        along, across = b - a, drop
        depth = float(np.linalg.norm(across))
        if depth > side * 0.12:
            r = side * rng.uniform(0.08, 0.1)
            ang = math.degrees(math.atan2(along[1], along[0]))
            for px, py in LAYOUT[int(rng.integers(1, 7))]:
                p = a + along * (0.5 + 0.27 * px) + across * (0.5 + 0.27 * py)
                axes = (max(1, int(r)), max(1, int(r * depth / side)))
                cv2.ellipse(img, (int(p[0]), int(p[1])), axes, ang, 0, 360, (pip * shade).tolist(), -1, cv2.LINE_AA)
    m = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(m, top.astype(np.int32), 1.0, lineType=cv2.LINE_AA)
    img[:] = img * (1 - alpha * m[..., None]) + texture * rng.uniform(0.95, 1.15) * alpha * m[..., None]
    spread = rng.uniform(0.48, 0.6)
    r = side * rng.uniform(0.08, 0.11)
    if look == "ghost":
        _ghost_pips(rng, img, hull, top, drop, c, value, pip, spread, r)
    for px, py in LAYOUT[value]:
        p = project(c + (px * u + py * v) * spread + rng.normal(0, side * 0.01, 2))
        axes = (max(1, int(r * math.cos(tilt) * 4)), max(1, int(r * 4)))
        centre = (int(round(p[0] * 4)), int(round(p[1] * 4)))  # noqa: RUF046 (numpy floats: cv2 wants ints)
        cv2.ellipse(img, centre, axes, math.degrees(towards), 0, 360, pip.tolist(), -1, cv2.LINE_AA, 2)
    _glare(rng, img, c, side, m)
    return _silhouette_box(hull)


def _rounded_square(k: int, corner: float) -> np.ndarray:
    """A k x k alpha mask of a die's face: a square with rounded corners (``corner``: radius over half the side)."""
    t = (np.arange(k, dtype=np.float32) + 0.5) / k * 2 - 1
    a = 1 - corner
    dx = np.maximum(np.abs(t)[None, :] - a, 0)
    dy = np.maximum(np.abs(t)[:, None] - a, 0)
    outside = np.sqrt(dx * dx + dy * dy) - corner  # < 0 inside, in half sides
    return np.clip(0.5 - outside * k / 2, 0, 1)


def _face_texture(
    rng: np.random.Generator, body: np.ndarray, pip: np.ndarray, value: int, spread: float, radius: float
) -> np.ndarray:
    """One face of a die, square (its side is ``body``'s): the body's texture and ``value``'s pips, jittered."""
    k = body.shape[0]
    face = body.copy()
    quarter = int(rng.integers(4))  # the layouts of 2, 3 and 6 lie either way on a face
    for px, py in LAYOUT[value]:
        for _ in range(quarter):
            px, py = -py, px
        p = k / 2 + np.array([px, py]) * spread * k / 2 + rng.normal(0, k * 0.01, 2)
        centre = (int(round(p[0] * 4)), int(round(p[1] * 4)))  # noqa: RUF046 (numpy floats: cv2 wants ints)
        cv2.circle(face, centre, max(1, int(radius * k * 4)), pip.tolist(), -1, cv2.LINE_AA, 2)
    return face


def _side_values(rng: np.random.Generator, top: int) -> list[int]:
    """The four side faces' values around a die whose top is ``top``, in order: opposite faces sum to 7."""
    a = int(rng.choice([v for v in range(1, 7) if v not in (top, 7 - top)]))
    b = int(rng.choice([v for v in range(1, 7) if v not in (top, 7 - top, a, 7 - a)]))
    return [a, b, 7 - a, 7 - b]


def _pinhole_view(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A camera above the table looking at a die (units: the die's side): its centre and its axes
    (rows: image right, image down, forward).  Height 6..35 sides, pitched 0..45 degrees from straight down
    (a quarter straight down, as the Pi's camera), the die 0..40 degrees off the optical axis (a phone's
    field of view); the ray to the die 15..65 degrees from vertical, so one to three side faces show, as
    deep as the hex-trays photos' oblique dice."""
    for _ in range(50):
        height = float(np.exp(rng.uniform(math.log(6), math.log(35))))
        pitch = 0.0 if rng.random() < 0.25 else math.radians(rng.uniform(0, 45))
        yaw = rng.uniform(0, 2 * math.pi)
        fwd = np.array([math.sin(pitch) * math.cos(yaw), math.sin(pitch) * math.sin(yaw), -math.cos(pitch)])
        right = np.cross(fwd, [math.cos(yaw + 1.0), math.sin(yaw + 1.0), 0.0])
        right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        off, where = math.radians(40) * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
        ray = math.cos(off) * fwd + math.sin(off) * (math.cos(where) * right + math.sin(where) * down)
        if math.radians(15) <= math.acos(-ray[2]) <= math.radians(65):
            break
    centre = -ray * (height - 0.5) / -ray[2]  # the die's centre at the origin, the table at z = -0.5
    return centre, np.stack([right, down, fwd])


def _perspective_faces(
    rng: np.random.Generator, cx: float, cy: float, side: float, value: int
) -> list[tuple[np.ndarray, int, float]]:
    """The faces a pinhole camera above the table sees of a die (``_pinhole_view``): the top first, then
    the side faces that turn toward the camera, each as (its corners in the image, 4 x 2; its value;
    its light).  Scaled so the top face's edges are ``side`` long on average, centred on (cx, cy)."""
    camera, axes = _pinhole_view(rng)
    spin = rng.uniform(0, 2 * math.pi)
    e1 = np.array([math.cos(spin), math.sin(spin), 0.0]) / 2
    e2 = np.array([-math.sin(spin), math.cos(spin), 0.0]) / 2
    up = np.array([0.0, 0.0, 0.5])
    top3 = np.array([up - e1 - e2, up + e1 - e2, up + e1 + e2, up - e1 + e2])
    cam = (top3 - camera) @ axes.T
    flat = cam[:, :2] / cam[:, 2:]
    scale = side / float(np.mean(np.linalg.norm(flat - np.roll(flat, -1, 0), axis=1)))
    shift = np.array([cx, cy]) - flat.mean(axis=0) * scale

    def project(p: np.ndarray) -> np.ndarray:
        q = (p - camera) @ axes.T
        return (q[..., :2] / q[..., 2:] * scale + shift).astype(np.float32)

    faces = [(project(top3), value, rng.uniform(0.95, 1.15))]
    for edge, around in enumerate(_side_values(rng, value)):
        a, b = top3[edge], top3[(edge + 1) % 4]
        outward = (a + b) / 2 - up
        if float((camera - outward) @ outward) > 0:  # this side face turns toward the camera
            faces.append((project(np.array([a, b, b - 2 * up, a - 2 * up])), around, rng.uniform(0.7, 1.05)))
    return faces


def _draw_perspective_die(
    rng: np.random.Generator, img: np.ndarray, cx: float, cy: float, side: float, value: int
) -> tuple[float, float, float]:
    """A die seen by a pinhole camera above the table (``_pinhole_view``), drawn in ``img``; returns its box
    as roboflow-mixed labels one: (x, y, side), the square around the whole silhouette.

    Every visible face (the top and the side faces that face the camera) is a square texture (the body:
    plain, marbled or glittering, ``_body_texture``; its own pips, opposite faces summing to 7; rounded
    corners) warped by the face's homography, so the side faces' pips are foreshortened and converge as a
    photo's.  Side faces are lit nearly as the top (0.7..1.05 against 0.95..1.15).  The projection is
    scaled so the top face's edges are ``side`` long on average and centred on (cx, cy).
    """
    h, w = img.shape[:2]
    body, pip = _die_colours(rng)
    faces = _perspective_faces(rng, cx, cy, side, value)
    quads = [q for q, _, _ in faces]
    hull = cv2.convexHull(np.concatenate(quads)).reshape(-1, 2)
    _cast_shadow(rng, img, hull, side)  # of the whole silhouette
    k = int(max(16, side * 1.5))
    texture = _body_texture(rng, k, k * len(faces), k, body)
    translucent = rng.random() < 0.15
    alpha = rng.uniform(0.45, 0.75) if translucent else 1.0
    rounded = _rounded_square(k, rng.uniform(0.1, 0.3))
    spread, radius = rng.uniform(0.48, 0.6), rng.uniform(0.08, 0.11)
    square = np.float32([[0, 0], [k, 0], [k, k], [0, k]])
    top_mask = np.zeros((h, w), np.float32)
    for n, ((_, shown, shade), quad) in enumerate(zip(faces, quads, strict=True)):
        tex = _face_texture(rng, np.ascontiguousarray(texture[:, n * k:(n + 1) * k]), pip, shown, spread, radius) * shade
        warp = cv2.getPerspectiveTransform(square, quad)
        t = cv2.warpPerspective(tex, warp, (w, h), flags=cv2.INTER_LINEAR)
        m = cv2.warpPerspective(rounded, warp, (w, h), flags=cv2.INTER_LINEAR)[..., None] * alpha
        img[:] = img * (1 - m) + t * m
        if n == 0:
            top_mask = m[..., 0]
    _glare(rng, img, quads[0].mean(axis=0), side, top_mask)
    return _silhouette_box(hull)


def render_scene(
    rng: np.random.Generator, size: int = 320, tilted: float = 0.0, perspective: bool = False, ghost: bool = False
) -> tuple[np.ndarray, list[tuple[float, float, float, int]]]:
    """A photo of pip dice and its dice (x, y, side, value).

    ``tilted``: the share of dice drawn seen obliquely (``_draw_tilted_die``:
    deep side faces, marbled and glittering bodies, labelled by their whole
    silhouette); 0, the default, draws exactly the former renders.  ``perspective``
    (session 13): those dice are drawn by ``_draw_perspective_die`` (a pinhole
    camera above the table, side faces lit nearly as the top) instead.  ``ghost`` (session 22): the
    tilted dice drawn by ``_draw_tilted_die(..., ghost=True)`` (translucent dice showing their hidden
    faces' pips, large two-colour swirls); off, the former renders to the bit.
    """
    h = w = size
    img = background(rng, h, w)
    n = int(rng.choice([1, 2, 3, 4, 5, 6, 8, 12], p=[0.2, 0.2, 0.15, 0.15, 0.1, 0.08, 0.07, 0.05]))
    base = float(np.exp(rng.uniform(math.log(16), math.log(min(160, size / 2.8)))))
    dice: list[tuple[float, float, float, int]] = []
    for _ in range(n * 6):
        if len(dice) == n:
            break
        side = base * rng.uniform(0.85, 1.15)
        x, y = rng.uniform(side, w - side), rng.uniform(side, h - side)
        if all(math.hypot(x - a, y - b) > 0.75 * (side + s) * 1.45 for a, b, s, _ in dice):
            dice.append((x, y, side, int(rng.integers(1, 7))))
    drawn = []
    for x, y, side, value in dice:
        if tilted and rng.random() < tilted:
            if perspective:
                x, y, side = _draw_perspective_die(rng, img, x, y, side, value)
            else:
                x, y, side = _draw_tilted_die(rng, img, x, y, side, value, ghost)
        else:
            _draw_die(rng, img, x, y, side, value)
        drawn.append((x, y, side, value))
    dice = drawn
    # camera
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + rng.uniform(-0.04, 0.04, (4, 2)).astype(np.float32) * size
    warp = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(np.clip(img, 0, 255).astype(np.uint8), warp, (w, h), borderMode=cv2.BORDER_REFLECT)
    pts = cv2.perspectiveTransform(np.float32([[[x, y] for x, y, _, _ in dice]]), warp)[0] if dice else []
    dice = [(float(p[0]), float(p[1]), s, v) for p, (_, _, s, v) in zip(pts, dice, strict=True)]
    out = img.astype(np.float32)
    blur = rng.uniform(0, 2.0)
    if blur > 0.4:
        if rng.random() < 0.3:
            k = max(3, int(blur * 3) | 1)
            kernel = np.zeros((k, k), np.float32)
            kernel[k // 2, :] = 1.0 / k
            rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
            out = cv2.filter2D(out, -1, cv2.warpAffine(kernel, rot, (k, k)))
        else:
            out = cv2.GaussianBlur(out, (0, 0), blur)
    out = out * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    out += rng.normal(0, rng.uniform(0, 8), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.33:
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    _ok, jpg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
    return cv2.imdecode(jpg, cv2.IMREAD_COLOR), dice


def render_set(
    n: int, seed: int, size: int = 320, tilted: float = 0.0, perspective: bool = False, ghost: bool = False
) -> list[tuple[np.ndarray, list[tuple[float, float, float, int]]]]:
    rng = np.random.default_rng(seed)
    return [render_scene(rng, size, tilted, perspective, ghost) for _ in range(n)]
