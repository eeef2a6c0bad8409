"""Reading pip dice: find dark round pips on bright faces, group them into dice,
keep each die's top face, count.

Why pips first rather than dice first: ivory dice on a light wooden table barely
differ from the table in colour, but a pip is always a small dark round spot on
a bright surface, whatever the table.  A morphological black-hat (closing minus
the image) turns exactly such spots into bright blobs and ignores dark things
larger than the kernel (cables, keyboards, shadows).

Side faces seen at an angle carry pips too, and clutter (a port in a laptop, a
letter on a label) can look like a pip.  So:

1. ``find_pips``: candidate pips (black-hat, solid, round enough, bright all
   round); blobs too large or long for one pip (blurred pips run together)
   are thresholded again at higher contrast, where their cores come apart;
   in a blurred frame (its pips' median contrast is low) the contrast
   threshold is scaled down with its pips;
2. ``die_regions``: the bright objects they lie on (white top-hat);
3. ``top_probability``: a small logistic model says which pips are on a top
   face (largest, roundest, best lit of their die, on its far side from the
   camera's foot point, which ``estimate_nadir`` infers from the frame's dice);
4. ``symmetric_patterns``: every set of nearby pips that could be a die face
   (its pips pair off across the face's centre, plus a centre pip for odd
   faces), among all pips that chain together, not only the trusted ones;
5. ``face_probability``: a second logistic model scores each pattern (its
   pips' probabilities, the likely pips it leaves out, its geometry, and
   ``face_patch``: the die around it, turned so the camera lies below);
6. ``_one_face_per_die``: the likeliest patterns win; two faces closer than
   two dice can lie are one die.

The models' weights are in ``pip_model.py``, written by
``benchmarks/dice_train_pips.py`` from the development photos (docs/dice.md).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .model import Box, DieReading


@dataclass(frozen=True)
class PipParams:
    """Geometry and contrast of pips at the reference width of 640 pixels.

    Sizes scale with the frame (or tray region) width so that the same
    parameters serve other resolutions; calibration may override them.
    """

    reference_width: int = 640
    kernel: int = 15  # black-hat kernel (px): larger than a pip, smaller than a cable blob
    min_area: float = 14.0  # pip area limits (px^2) at the reference width
    max_area: float = 260.0
    min_contrast: float = 0.30  # pip darkness relative to its local surround (0..1)
    min_background: float = 80.0  # the surround of a pip must be a bright face (grey level)
    max_elongation: float = 2.6  # major/minor axis: longer blobs are cable edges or scratches
    min_ring: float = 0.4  # the face around a pip is bright all round (keyboard keys, edges are not)
    min_fill: float = 0.45  # area / bounding-box area: pips are solid
    die_size: float = 6.5  # a die's side in pip diameters
    min_die_gap: float = 6.2  # two dice's face centres are at least this far apart (pip diameters)
    face_span: float = 5.0  # no two pips of one face are further apart (pip diameters)
    die_kernel: int = 82  # white top-hat kernel (px) that keeps dice and drops the table
    die_contrast: int = 15  # a die is this much brighter than the table around it (grey levels)
    min_top: float = 0.5  # probability from the top-face model above which a pip is on a top face
    min_face: float = 0.5  # probability from the face model above which a pip group is a die's top face
    # Where the camera's foot point (the table point straight below the lens) lies, in
    # fractions of the frame's width and height: a webcam looking across the table has
    # it outside the frame, an overhead camera at the centre.  A die's visible side faces
    # are on its side towards that point, its top face on the far side.  None (the
    # default): estimated from each frame's own dice (``estimate_nadir``); a profile may
    # set both to fix it.
    nadir_x: float | None = None
    nadir_y: float | None = None
    nadir_distance: float = 1.5  # an estimated foot point outside the frame: this many frame heights from its centre
    min_view_evidence: float = 1.0  # side-face evidence (pip diameters) below which the view is taken as overhead
    min_view_agreement: float = 0.3  # the dice must agree this well on the direction (resultant length 0..1)
    max_view_misfit: float = 0.7  # only bright objects about one die's size (|log area ratio|) show a direction
    contrast_steps: int = 3  # also threshold at 1.5, 2 x min_contrast: blurred pips that run together part there
    min_pattern_top: float = 0.05  # pips less likely than this to be on a top face join no face pattern
    max_region_pips: int = 40  # the likeliest pips of one bright object that patterns are sought among
    sharp_contrast: float = 0.68  # a sharp photo's median pip contrast (the development photos' median)
    blur_contrast: float = 0.5  # a frame whose pips' median contrast is below this is blurred: threshold scaled down
    min_blur_contrast: float = 0.2  # the scaled-down threshold stays above this (noise, grain)


@dataclass(frozen=True)
class Pip:
    x: float
    y: float
    area: float
    elongation: float
    contrast: float
    box: Box
    surround: float = 0.0  # median grey level of the face around the pip
    ring: float = 1.0  # how evenly bright that surround is (1 = all round)
    depth: float = 0.0  # distance to the edge of the die it lies on, in pip diameters
    fill: float = 0.785  # area / bounding-box area: a round pip fills pi/4, a square hole 1
    region_misfit: float = 0.0  # |log(area of the bright object / one die's area)|
    region_fill: float = 1.0  # area / bounding-box area of that object: a die is compact
    away: float = 0.0  # offset from that object's centre away from the camera's foot point (pip diameters)

    @property
    def diameter(self) -> float:
        return 2.0 * math.sqrt(self.area / math.pi)


def find_pips(gray: np.ndarray, p: PipParams = PipParams(), scale: float | None = None) -> list[Pip]:
    """Candidate pips in a grey image: small, solid, round, dark on bright.

    ``scale`` is the camera frame's width over the reference width (a tray
    region cut from a frame keeps the frame's scale).

    Motion blur (a die still rolling, a hand-held camera) or defocus spreads
    each pip's darkness over a larger area, so every pip of the frame is
    fainter, some below ``min_contrast``.  When the median contrast of the
    pips found is below ``blur_contrast`` (a sharp photo's is about
    ``sharp_contrast``), the frame is searched again with the threshold
    scaled down by the same factor (not below ``min_blur_contrast``); a
    sharp frame keeps the threshold, so faint grain and dirt stay out.
    """
    scale = gray.shape[1] / p.reference_width if scale is None else scale
    pips = _find_pips(gray, p, scale)
    if p.blur_contrast > 0 and pips:
        # A blurred (moving or out-of-focus) frame: every pip is fainter than in a sharp
        # photo, so look again with the threshold scaled down by the same factor.
        typical = statistics.median(q.contrast for q in pips)
        if typical < p.blur_contrast:
            faint = max(p.min_contrast * typical / p.sharp_contrast, p.min_blur_contrast)
            pips = _find_pips(gray, replace(p, min_contrast=faint), scale)
    return pips


def _find_pips(gray: np.ndarray, p: PipParams, scale: float) -> list[Pip]:
    k = max(5, round(p.kernel * scale) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, kernel)
    hat = cv2.subtract(closed, gray)
    # Contrast relative to the surround, so dim light and bright light agree.
    rel = hat.astype(np.float32) / np.maximum(closed.astype(np.float32), 1.0)
    bright = closed >= p.min_background
    # Blurred pips run into bars at the base contrast; at higher levels only
    # each pip's dark core remains, so they come apart again.  Only blobs
    # too large or too long to be one pip are looked at again.
    mask = ((rel >= p.min_contrast) & bright).astype(np.uint8)
    pips, merged = _blobs(gray, mask, hat, closed, p, scale, (0, 0))
    for step in range(1, max(1, p.contrast_steps)):
        again = []
        for x, y, w, h, area, own in merged:
            # Only the blob's own pixels: another pip inside its box was found already.
            sub = (rel[y : y + h, x : x + w] >= p.min_contrast * (1.0 + 0.5 * step)) & own
            found, rest = _blobs(gray, sub.astype(np.uint8), hat, closed, p, scale, (x, y))
            if len(found) >= 2:
                # A core is smaller than its pip: the pips that ran together share the blob's area.
                share = area / (len(found) + len(rest))
                found = [replace(q, area=max(q.area, share)) for q in found]
            pips += found
            again += [(*b[:4], area, b[5]) for b in rest]
        merged = again
    return pips


Merged = tuple[int, int, int, int, int, np.ndarray]  # x, y, w, h, area, the blob's own pixels in its box


def _blobs(
    gray: np.ndarray,
    mask: np.ndarray,
    hat: np.ndarray,
    closed: np.ndarray,
    p: PipParams,
    scale: float,
    origin: tuple[int, int],
) -> tuple[list[Pip], list[Merged]]:
    """The pip-like blobs of one thresholded black-hat window at ``origin``
    (small, solid, round, bright all round), and the boxes and areas of blobs
    too large or too long for one pip (pips run together)."""
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    amin, amax = p.min_area * scale * scale, p.max_area * scale * scale
    ox, oy = origin
    pips: list[Pip] = []
    merged: list[Merged] = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < amin:
            continue
        if area > amax or area < p.min_fill * w * h:
            if area <= 8 * amax:
                merged.append((x + ox, y + oy, w, h, area, labels[y : y + h, x : x + w] == i))
            continue
        roi = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
        m = cv2.moments(roi, binaryImage=True)
        mu20, mu02, mu11 = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
        common = math.sqrt(max(0.0, (mu20 - mu02) ** 2 + 4 * mu11 * mu11))
        l1 = (mu20 + mu02 + common) / 2
        l2 = max((mu20 + mu02 - common) / 2, 1e-6)
        elong = math.sqrt(l1 / l2)
        x, y = x + ox, y + oy
        if elong > p.max_elongation:
            merged.append((x, y, w, h, area, roi > 0))
            continue
        cx, cy = cents[i][0] + ox, cents[i][1] + oy
        uniformity, surround = _ring(gray, cx, cy, math.sqrt(area / math.pi))
        if uniformity < p.min_ring:
            continue
        contrast = float(hat[y : y + h, x : x + w][roi > 0].mean()) / max(float(closed[int(cy), int(cx)]), 1.0)
        pips.append(
            Pip(
                float(cx),
                float(cy),
                float(area),
                elong,
                contrast,
                (x, y, w, h),
                surround,
                uniformity,
                fill=area / (w * h),
            )
        )
    return pips, merged


_ANGLES = np.linspace(0.0, 2.0 * np.pi, 16, endpoint=False)
_COS, _SIN = np.cos(_ANGLES), np.sin(_ANGLES)


def _ring(gray: np.ndarray, cx: float, cy: float, r: float) -> tuple[float, float]:
    """How evenly bright a ring just outside the pip is (1 = bright all round),
    and its median grey level.

    A pip on a die face is surrounded by face on every side; a dark gap
    between keyboard keys or a notch at a die's edge is not.
    """
    h, w = gray.shape
    rad = max(1.7 * r, r + 3.0)
    xs = np.clip((cx + rad * _COS).astype(np.intp), 0, w - 1)
    ys = np.clip((cy + rad * _SIN).astype(np.intp), 0, h - 1)
    ring = gray[ys, xs].astype(np.float32)
    centre = float(gray[min(int(cy), h - 1), min(int(cx), w - 1)])
    ring.sort()
    median = 0.5 * float(ring[7] + ring[8])  # np.median of 16 values
    spread = median - centre
    if spread <= 1.0:
        return 0.0, median
    return (float(ring[3]) - centre) / spread, median  # ring[3]: the 20th percentile of 16 values


def group_pips(pips: list[Pip], span: float) -> list[list[Pip]]:
    """Complete-linkage groups: no two pips of a face are more than ``span``
    pip diameters apart.

    A face's pips all lie within about four diameters of each other (a six's
    corners), while the centres of two dice lying side by side are seven or
    more apart, so complete linkage keeps a two's far-apart pips together and
    never joins two touching dice, where single linkage would do both wrong.
    """
    if not pips:
        return []
    d = float(np.median([q.diameter for q in pips]))
    pts = np.array([(q.x, q.y) for q in pips])
    dist = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(-1))
    clusters: list[list[int]] = [[i] for i in range(len(pips))]
    limit = span * d
    while len(clusters) > 1:
        best, pair = limit, None
        for i in range(len(clusters)):
            for j in range(i + 1, len(clusters)):
                far = dist[np.ix_(clusters[i], clusters[j])].max()
                if far <= best:
                    best, pair = far, (i, j)
        if pair is None:
            break
        i, j = pair
        clusters[i] = clusters[i] + clusters.pop(j)
    return [[pips[i] for i in c] for c in clusters]


def _box(pips: list[Pip], pad: float) -> Box:
    x0 = min(q.box[0] for q in pips) - pad
    y0 = min(q.box[1] for q in pips) - pad
    x1 = max(q.box[0] + q.box[2] for q in pips) + pad
    y1 = max(q.box[1] + q.box[3] for q in pips) + pad
    return (int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def _confidence(face: list[Pip], top: float) -> float:
    """How sure the count is: the top-face model's belief in its pips, their
    uniform size and their contrast."""
    areas = np.array([q.area for q in face])
    spread = float(areas.std() / areas.mean()) if len(face) > 1 else 0.0
    contrast = float(np.mean([min(q.contrast / 0.6, 1.0) for q in face]))
    c = 0.6 * top + 0.25 * max(0.0, 1.0 - 2.5 * spread) + 0.15 * contrast
    if len(face) > 6:
        c *= 0.3  # more pips than a die has: two dice merged or clutter
    return max(0.0, min(1.0, c))


def die_regions(
    gray: np.ndarray, pips: list[Pip], p: PipParams, scale: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Label the bright objects that carry pips (dice) at half resolution,
    with their stats and each pixel's distance to the object's edge.

    A white top-hat keeps what is brighter than its surroundings and smaller
    than the kernel: dice, not the table or a laptop lid.  Pips are painted in
    so that they do not punch holes that split a face.
    """
    small = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2), interpolation=cv2.INTER_AREA)
    k = max(9, round(p.die_kernel * scale / 2) | 1)
    hat = cv2.morphologyEx(small, cv2.MORPH_TOPHAT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = (hat >= p.die_contrast).astype(np.uint8)
    for q in pips:
        cv2.circle(mask, (int(q.x / 2), int(q.y / 2)), max(1, int(q.diameter / 4 + 1)), 1, -1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    return labels, stats, depth


@dataclass(frozen=True)
class TopModel:
    """Standardisation and weights of the top-face logistic regression."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float


FEATURES = (
    "log_area_vs_region_max",
    "log_area_vs_frame_median",
    "elongation",
    "elongation_vs_region_min",
    "surround_vs_region_max",
    "ring",
    "contrast",
    "depth",
    "fill",
    "region_misfit",
    "region_fill",
    "away",
)


def pip_features(pips: list[Pip], regions: list[int]) -> np.ndarray:
    """Scale-free features of each pip against its region and the whole frame.

    The top face of a die faces the camera and the light, so its pips are the
    largest, roundest and most brightly surrounded of their die; side-face
    pips are foreshortened and shaded.  These comparisons hold for any
    camera distance and light, which is why they are relative.
    """
    if not pips:
        return np.zeros((0, len(FEATURES)), np.float32)
    area = np.array([q.area for q in pips], np.float64)
    elong = np.array([q.elongation for q in pips], np.float64)
    sur = np.array([q.surround for q in pips], np.float64)
    reg = np.array(regions)
    round_areas = area[elong < 1.4]
    frame_median = float(np.median(round_areas)) if len(round_areas) else float(np.median(area))
    region_max_area = np.empty_like(area)
    region_min_elong = np.empty_like(area)
    region_max_sur = np.empty_like(area)
    for r in set(regions):
        sel = reg == r
        if r == 0:  # not on a bright object: compare with itself only
            region_max_area[sel], region_min_elong[sel], region_max_sur[sel] = area[sel], elong[sel], sur[sel]
            continue
        region_max_area[sel] = area[sel].max()
        region_min_elong[sel] = elong[sel].min()
        region_max_sur[sel] = sur[sel].max()
    return np.stack(
        [
            np.log(area / region_max_area),
            np.log(area / frame_median),
            elong,
            elong - region_min_elong,
            (sur - region_max_sur) / np.maximum(region_max_sur, 1.0),
            np.array([q.ring for q in pips]),
            np.array([q.contrast for q in pips]),
            np.minimum(np.array([q.depth for q in pips]), 4.0),
            np.array([q.fill for q in pips]),
            np.minimum(np.array([q.region_misfit for q in pips]), 4.0),
            np.array([q.region_fill for q in pips]),
            np.array([q.away for q in pips]),
        ],
        axis=1,
    ).astype(np.float32)


def expand(features: np.ndarray) -> np.ndarray:
    """The features and their squares: lets a linear model say "neither too small nor too large"."""
    return np.concatenate([features, features**2], axis=1)


def top_probability(features: np.ndarray, model: TopModel | None = None) -> np.ndarray:
    """The top-face model: a logistic regression trained by benchmarks/dice_train_pips.py."""
    if model is None:
        from . import pip_model

        model = TopModel(pip_model.MEAN, pip_model.SCALE, pip_model.WEIGHTS, pip_model.BIAS)
    return logistic(expand(features), model)


def logistic(design: np.ndarray, model: TopModel) -> np.ndarray:
    """A logistic regression over a design matrix, standardised as in training."""
    z = ((design - np.asarray(model.mean)) / np.asarray(model.scale)) @ np.asarray(model.weights) + model.bias
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def _one_face_per_die(faces: list[tuple[FaceCandidate, float]], p: PipParams) -> list[tuple[FaceCandidate, float]]:
    """Keep the likeliest face where two lie closer than two dice can.

    Two dice on a table cannot have centres closer than about a die's side
    (seven pip diameters), so of two faces closer than ``min_die_gap`` one is a
    side face of the other's die: keep the one the face model prefers.
    """
    kept: list[tuple[FaceCandidate, float]] = []
    for c, pr in sorted(faces, key=lambda f: (-f[1], -len(f[0].pips))):
        if all(math.hypot(c.x - k.x, c.y - k.y) >= p.min_die_gap * max(c.d, k.d) for k, _ in kept):
            kept.append((c, pr))
    return kept


OVERHEAD = (0.5, 0.5)


def estimate_nadir(
    pips: list[Pip], regions: list[int], shape: tuple[int, ...], params: PipParams = PipParams()
) -> tuple[float, float]:
    """The camera's foot point in fractions of the frame, from the dice's own perspective.

    A camera sees the side faces of a die that face it; their pips are
    foreshortened (elongated) and smaller than the top face's.  So within each
    bright object of about one die's size (``max_view_misfit``), the direction
    in which pip size and roundness grow points away from the foot point (from
    the side faces to the top face).  The dice's directions are summed: when they say enough (``min_view_evidence``, in pip
    diameters) and agree (``min_view_agreement``), the foot point lies
    ``nadir_distance`` frame heights from the frame's centre against that
    direction (a camera looking across the table); otherwise the camera is
    taken to look straight down (the frame's centre).  Uses only the pips'
    shapes, not the trained models, so training and reading agree.
    """
    h, w = shape[0], shape[1]
    total = np.zeros(2)
    evidence = 0.0
    reg = np.array(regions)
    for r in set(regions) - {0}:
        sel = np.flatnonzero(reg == r)
        if len(sel) < 2 or min(pips[j].region_misfit for j in sel) > params.max_view_misfit:
            continue  # one pip says nothing; an object of several dice mixes their directions
        area = np.array([pips[j].area for j in sel])
        elong = np.array([pips[j].elongation for j in sel])
        pts = np.array([(pips[j].x, pips[j].y) for j in sel])
        d = float(np.median([pips[j].diameter for j in sel]))
        top = np.log(area / area.max()) - (elong - elong.min())  # larger, rounder: more likely the top face
        v = ((top - top.mean())[:, None] * (pts - pts.mean(0))).sum(0) / d
        total += v
        evidence += float(np.linalg.norm(v))
    size = float(np.linalg.norm(total))
    if evidence < params.min_view_evidence or size < params.min_view_agreement * evidence:
        return OVERHEAD
    ux, uy = (float(v) for v in total / size)
    return (0.5 - params.nadir_distance * h * ux / w, 0.5 - params.nadir_distance * uy)


Regions = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # labels, stats, depth (half resolution), foot point


def locate_pips(
    gray: np.ndarray, params: PipParams, scale: float | None = None
) -> tuple[list[Pip], list[int], Regions]:
    """Candidate pips, the bright region each lies on (0 = none), and the
    regions (labels, stats, depth at half resolution) with the camera's foot
    point (full-resolution pixels)."""
    scale = gray.shape[1] / params.reference_width if scale is None else scale
    pips = find_pips(gray, params, scale)
    labels, stats, depth = die_regions(gray, pips, params, scale)
    h, w = labels.shape
    at = [(min(int(q.y / 2), h - 1), min(int(q.x / 2), w - 1)) for q in pips]
    regions = [int(labels[y, x]) for y, x in at]
    # Depth inside the bright object, in pip diameters (half-resolution pixels x 2).
    out = []
    for q, r, (y, x) in zip(pips, regions, at, strict=True):
        if r:
            _, _, bw, bh, area = (float(v) for v in stats[r])
            misfit = abs(math.log(4.0 * area / (params.die_size * q.diameter) ** 2))
            fill = area / (bw * bh)
        else:
            misfit, fill = 4.0, 0.0
        out.append(replace(q, depth=2.0 * float(depth[y, x]) / q.diameter, region_misfit=misfit, region_fill=fill))
    if params.nadir_x is not None and params.nadir_y is not None:
        nadir = (params.nadir_x, params.nadir_y)
    else:
        nadir = estimate_nadir(out, regions, gray.shape, params)
    foot = np.array([nadir[0] * gray.shape[1], nadir[1] * gray.shape[0]])
    for n, (q, r) in enumerate(zip(out, regions, strict=True)):
        if r:
            rx, ry, bw, bh, _ = (float(v) for v in stats[r])
            centre = np.array([2.0 * rx + bw, 2.0 * ry + bh])
            u = centre - foot
            u /= max(float(np.linalg.norm(u)), 1e-6)
            away = float(np.clip(np.dot(np.array([q.x, q.y]) - centre, u) / q.diameter, -4.0, 4.0))
            out[n] = replace(q, away=away)
    return out, regions, (labels, stats, depth, foot)


FACE_FEATURES = (
    "single_pip",
    "pips",
    "top_mean",
    "top_min",
    "region_misfit",
    "region_at_border",
    "bright_window",
    "centre_depth",
    "log_size_vs_frame",
    "size_spread",
    "contrast",
    "symmetry",
    "span",
    "pair_ratio",
    "diagonal_sine",
    "left_out",
    "left_out_max",
    "surround_spread",
    "elongation_max",
    "away",
)


@dataclass
class FaceCandidate:
    """A pip pattern that may be a die's top face, before the face model decides."""

    pips: list[Pip]
    top: float  # mean top-face probability of its pips
    features: np.ndarray
    x: float
    y: float
    d: float
    patch: np.ndarray  # face_patch: the die around it as the face model sees it


PATCH_SIZE = 16  # side of a face patch (pixels)
PATCH_SPAN = 8.0  # pip diameters it covers: a die (6.5) and a little of what lies around it


def face_patch(gray: np.ndarray, cx: float, cy: float, d: float, level: float, foot: np.ndarray) -> np.ndarray:
    """The die around a face candidate as a small picture the face model weighs
    pixel by pixel: 16 x 16 samples over 8 pip diameters, turned so that the
    camera's foot point lies below it, in units of the face's own brightness.

    Turned so, every die is seen alike whatever the camera's position: its
    side faces below the top face, the table beyond it above.  A real top face
    is a bright square centred on its pips with the shaded side faces under
    it; a pattern made of a top pip and a side pip straddles an edge, and a
    spot on a laptop or a label lies in no die.  Relative brightness, so dim
    and bright light agree.
    """
    u = np.array([cx, cy]) - foot
    norm = float(np.linalg.norm(u))
    u = u / norm if norm > 1e-6 else np.array([0.0, -1.0])  # at the foot point itself: any way round
    step = PATCH_SPAN * d / PATCH_SIZE  # frame pixels per patch pixel
    ax, ay = np.array([-u[1], u[0]]) * step, -u * step  # patch x across, patch y towards the foot point
    half = PATCH_SIZE / 2.0
    m = np.array(
        [
            [ax[0], ay[0], cx - half * (ax[0] + ay[0])],
            [ax[1], ay[1], cy - half * (ax[1] + ay[1])],
        ]
    )
    flags = cv2.INTER_AREA | cv2.WARP_INVERSE_MAP
    patch = cv2.warpAffine(gray, m, (PATCH_SIZE, PATCH_SIZE), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    return patch.astype(np.float32).ravel() / max(level, 1.0)


def _bright_window(gray: np.ndarray, face: list[Pip], cx: float, cy: float, d: float) -> float:
    """Share of a 4-diameter square around the face's centre that is face-bright.

    A real top face is bright all round its pips; a dark hole in a laptop or a
    letter on a label sits in a busier surround.
    """
    h, w = gray.shape
    r = 2.0 * d
    x0, x1 = max(0, int(cx - r)), min(w, int(cx + r) + 1)
    y0, y1 = max(0, int(cy - r)), min(h, int(cy + r) + 1)
    win = gray[y0:y1, x0:x1].astype(np.float32)
    if win.size == 0:
        return 0.0
    level = statistics.median(q.surround for q in face)
    dark = win < 0.6 * level  # the pips themselves
    usable = win.size - int(dark.sum())
    return float(((win >= 0.8 * level) & ~dark).sum()) / max(usable, 1)


def pattern_fits(face: list[Pip]) -> bool:
    """Could these pips be one face of a standard die, seen from above?

    Every die face is centrally symmetric: its pips pair off across the
    face's centre (a one, three and five add a pip at the centre).  So the
    pips must split into such pairs (``symmetric_patterns`` finds them).
    """
    if not face:
        return False
    d = float(np.median([q.diameter for q in face]))
    pts = np.array([(q.x, q.y) for q in face])
    return any(len(c) == len(face) for c, _ in symmetric_patterns(pts, d))


def symmetric_patterns(
    pts: np.ndarray, d: float, max_sym: float = 0.75, min_pair: float = 1.6, max_pair: float = 5.2
) -> list[tuple[tuple[int, ...], tuple[float, float, float, float]]]:
    """Every subset of points that could be a die face: index tuples with
    (symmetry residual, span, pair length ratio, diagonal sine).

    A face of n pips is n // 2 pairs sharing a midpoint, plus the centre pip
    when n is odd; a four's and a six's diagonals cross (a row of four pips
    in a line does not make a four).  Distances are in pip diameters ``d``:
    a pair spans 1.6-5.2 (a six's middle pair about 2.6, a corner diagonal
    about 4), midpoints agree within ``max_sym``.
    """
    n = len(pts)
    out: list[tuple[tuple[int, ...], tuple[float, float, float, float]]] = [
        ((i,), (0.0, 0.0, 1.0, 1.0)) for i in range(n)
    ]
    if n < 2:
        return out
    diff = pts[:, None, :] - pts[None, :, :]
    dist = np.sqrt((diff**2).sum(-1)) / d
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if min_pair <= dist[i, j] <= max_pair]
    if not pairs:
        return out
    mids = np.array([(pts[i] + pts[j]) / 2.0 for i, j in pairs])
    lengths = np.array([dist[i, j] for i, j in pairs])
    vecs = np.array([pts[j] - pts[i] for i, j in pairs]) / d
    close = np.sqrt(((mids[:, None] - mids[None]) ** 2).sum(-1)) / d <= max_sym

    def centre_pips(members: tuple[int, ...], centre: np.ndarray) -> list[tuple[int, float]]:
        r = np.sqrt(((pts - centre) ** 2).sum(1)) / d
        return [(k, float(r[k])) for k in range(n) if k not in members and r[k] <= max_sym]

    def describe(pair_ids: tuple[int, ...], extra: float) -> tuple[np.ndarray, tuple[float, float, float, float]]:
        centre = mids[list(pair_ids)].mean(0)
        sym = max([float(np.linalg.norm(mids[p] - centre)) / d for p in pair_ids] + [extra])
        ls = lengths[list(pair_ids)]
        sine = 1.0
        if len(pair_ids) >= 2:
            a, b = (vecs[p] for p in sorted(pair_ids, key=lambda p: -lengths[p])[:2])
            sine = abs(float(a[0] * b[1] - a[1] * b[0])) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-6)
        return centre, (sym, float(ls.max()), float(ls.max() / ls.min()), sine)

    for a, (i, j) in enumerate(pairs):
        centre, desc = describe((a,), 0.0)
        out.append(((i, j), desc))
        for k, r in centre_pips((i, j), centre):
            out.append((tuple(sorted((i, j, k))), (max(desc[0], r), *desc[1:])))
        for b in range(a + 1, len(pairs)):
            if not close[a, b] or len({i, j, *pairs[b]}) < 4:
                continue
            quad = (i, j, *pairs[b])
            centre4, desc4 = describe((a, b), 0.0)
            if desc4[3] < 0.3:
                continue  # diagonals nearly parallel: a line of pips, not a face
            out.append((tuple(sorted(quad)), desc4))
            for k, r in centre_pips(quad, centre4):
                out.append((tuple(sorted((*quad, k))), (max(desc4[0], r), *desc4[1:])))
            for c in range(b + 1, len(pairs)):
                if close[a, c] and close[b, c] and len({*quad, *pairs[c]}) == 6:
                    _, desc6 = describe((a, b, c), 0.0)
                    out.append((tuple(sorted((*quad, *pairs[c]))), desc6))
    return out


def _clusters(pips: list[Pip], keep: list[int], reach: float = 5.2) -> list[list[int]]:
    """Pips that chain together at most ``reach`` pip diameters apart: the
    pips of one die, or of dice lying close together.  Faces are sought
    within each, whatever the bright-object segmentation says (it splits a
    die in two now and then)."""
    parent = {n: n for n in keep}

    def root(n: int) -> int:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for a, i in enumerate(keep):
        for j in keep[a + 1 :]:
            lim = reach * max(pips[i].diameter, pips[j].diameter)
            if (pips[i].x - pips[j].x) ** 2 + (pips[i].y - pips[j].y) ** 2 <= lim * lim:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for n in keep:
        groups.setdefault(root(n), []).append(n)
    return list(groups.values())


def face_candidates(
    gray: np.ndarray, params: PipParams = PipParams(), scale: float | None = None, model: TopModel | None = None
) -> list[FaceCandidate]:
    """Every pip pattern on each bright object that could be a die face, with
    the features the face model weighs.

    Patterns are found among all candidate pips of an object (not only those
    the pip model trusts), so that one doubtful pip does not split a face;
    the pips' top-face probabilities and the likely pips a pattern leaves out
    close to its centre are features of the face model instead.
    """
    pips, regions, (labels, stats, depth, foot) = locate_pips(gray, params, scale)
    if not pips:
        return []
    prob = top_probability(pip_features(pips, regions), model)
    pr_list = [float(v) for v in prob]
    round_areas = [q.area for q in pips if q.elongation < 1.4] or [q.area for q in pips]
    frame_area = float(np.median(round_areas))
    hh, ww = labels.shape
    border = {0: 1.0}
    for lab in set(regions) - {0}:
        x, y, bw, bh, _ = (int(v) for v in stats[lab])
        border[lab] = float(x == 0 or y == 0 or x + bw >= ww or y + bh >= hh)
    out = []
    for members in _clusters(pips, [n for n in range(len(pips)) if prob[n] >= params.min_pattern_top]):
        members = sorted(members, key=lambda n: -prob[n])[: params.max_region_pips]
        pts = np.array([(pips[n].x, pips[n].y) for n in members])
        dreg = float(np.median([pips[n].diameter for n in members]))
        patterns = symmetric_patterns(pts, dreg)
        for subset, (sym, span, ratio, sine) in patterns:
            # Plain Python on these few numbers: numpy's per-call overhead dominates here.
            idx = [members[i] for i in subset]
            ps = [pr_list[n] for n in idx]
            top = sum(ps) / len(ps)
            if top < params.min_top * 0.5:
                continue
            face = [pips[n] for n in idx]
            k = len(face)
            areas = [q.area for q in face]
            mean_area = sum(areas) / k
            sur = [q.surround for q in face]
            cx = sum(q.x for q in face) / k
            cy = sum(q.y for q in face) / k
            d = statistics.median(q.diameter for q in face)
            # Within a face's reach of its centre (span is in the cluster's pip diameters, dreg).
            reach2 = (max(0.5 * span * dreg + 1.5 * d, (4.5 if k == 1 else 3.0) * d)) ** 2
            left = [
                pr_list[n] for n in members if n not in idx and (pips[n].x - cx) ** 2 + (pips[n].y - cy) ** 2 <= reach2
            ]
            cdepth = 2.0 * float(depth[min(int(cy / 2), hh - 1), min(int(cx / 2), ww - 1)]) / d
            feats = np.array(
                [
                    float(k == 1),
                    float(k),
                    top,
                    min(ps),
                    min(face[0].region_misfit, 4.0),
                    border[regions[idx[0]]],
                    _bright_window(gray, face, cx, cy, d),
                    min(cdepth, 5.0),
                    math.log(mean_area / frame_area),
                    math.sqrt(sum((a - mean_area) ** 2 for a in areas) / k) / mean_area,
                    sum(q.contrast for q in face) / k,
                    sym,
                    span,
                    min(ratio, 3.0),
                    sine,
                    sum(left),
                    max(left, default=0.0),
                    (max(sur) - min(sur)) / max(max(sur), 1.0),
                    max(q.elongation for q in face),
                    sum(q.away for q in face) / k,
                ],
                np.float32,
            )
            patch = face_patch(gray, cx, cy, d, statistics.median(sur), foot)
            out.append(FaceCandidate(face, top, feats, cx, cy, d, patch))
    return out


def face_design(candidates: list[FaceCandidate]) -> np.ndarray:
    """What the face model weighs: each pattern's features and their squares, then its patch's pixels."""
    features = np.stack([c.features for c in candidates])
    return np.concatenate([expand(features), np.stack([c.patch for c in candidates])], axis=1)


def face_probability(candidates: list[FaceCandidate], model: TopModel | None = None) -> np.ndarray:
    """The face model: is this group of pips a die's top face (not a side face or clutter)?"""
    if model is None:
        from . import pip_model

        if not hasattr(pip_model, "FACE_WEIGHTS"):
            return np.ones(len(candidates))
        model = TopModel(pip_model.FACE_MEAN, pip_model.FACE_SCALE, pip_model.FACE_WEIGHTS, pip_model.FACE_BIAS)
    return logistic(face_design(candidates), model)


def read_pips(
    frame: np.ndarray,
    region: Box | None = None,
    params: PipParams = PipParams(),
    model: TopModel | None = None,
    face_model: TopModel | None = None,
) -> list[DieReading]:
    """Every pip die in ``frame`` (BGR or grey), within ``region`` if given."""
    ox = oy = 0
    scale = frame.shape[1] / params.reference_width
    if region is not None:
        ox, oy, w, h = region
        frame = frame[oy : oy + h, ox : ox + w]
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    candidates = face_candidates(gray, params, scale, model)
    if not candidates:
        return []
    p_face = face_probability(candidates, face_model)
    kept = [(c, float(p)) for c, p in zip(candidates, p_face, strict=True) if p >= params.min_face]
    readings = []
    for c, p in _one_face_per_die(kept, params):
        x, y, w, h = _box(c.pips, pad=0.5 * c.d)
        readings.append(
            DieReading(
                kind="pips",
                face=min(len(c.pips), 6),
                confidence=round(_confidence(c.pips, p), 3),
                box=(x + ox, y + oy, w, h),
            )
        )
    readings.sort(key=lambda r: (r.box[1], r.box[0]))
    return readings
