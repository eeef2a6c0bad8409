"""A classical second opinion on one detected die: which pips form ONE valid top face.

Issue #16, session 16 (docs/dice.md).  The learned classifier's losses on oblique colour
photos are mostly *more* pips than the label: a side face's pips counted with the top's.
This reader looks at one die's crop geometrically:

1. **Pip candidates** in three channels of the crop (cut by the caller, ``net.crop_die``: area
   resampling when it shrinks), resampled so the die's side is ``SIDE_PX``: grey dark-on-light, grey light-on-dark, and (colour frames) each pixel's
   colour distance from the crop's median colour (coloured pips of the body's brightness).
   A difference of Gaussians at two pip scales (pips 0.12-0.25 of the side) finds blobs;
   local maxima above a share of the strongest are candidates, their strength the
   response over the crop's spread.
2. **One face**: every subset of up to ``KEEP`` strongest candidates of one channel,
   of size 1 to 6, is tested against the canonical 3 x 3 lattice layout of that value
   under an affine map (any rotation, mild foreshortening): the 4, 5 and 6 by whitening
   both point sets and searching the rotation, the 2 and 3 by their diagonal.  A fit
   must have a lattice spacing within the pip spacing of a die (``SPACING``), an aspect
   of at least ``MIN_ASPECT`` (a tilted face) and a small residual.
3. **Score** of a valid face: its pips' strength, less ``inside`` x the strength of the
   candidates it leaves inside its own face (a face that skips a visible pip of its own is
   the wrong face), less ``centre`` x its distance from the crop's centre in sides (the
   top face lies about the box's centre; side faces off it).
4. **Reading**: the best face's value; its confidence is its score's lead over the best face
   of another value, over its score.  No valid face: no reading.

Everything runs on a small crop with OpenCV's filters; the subset search is vectorised
over subsets per size (at most 127 subsets of 7 candidates a channel).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import cv2
import numpy as np

SIDE_PX = 48  # the die's side in the resampled crop
CONTEXT = 1.25  # the crop's side in die sides (the classifier's)
CROP_SIDE = round(SIDE_PX * CONTEXT)
SCALES = (0.045, 0.065, 0.09)  # DoG sigmas in die sides: pips of about 0.12-0.25 of the side across (sigma = radius / sqrt 2)
DOG_RATIO = 1.6
REACH = 0.55  # candidates this far from the crop's centre (in sides) at most
KEEP = 7  # strongest candidates per channel in the subset search
MIN_SHARE = 0.3  # a candidate's strength at least this share of its channel's strongest
MIN_STRENGTH = 0.2  # ... and at least this (response over the crop's spread)
SEPARATION = 0.11  # candidates closer than this (sides) are one pip
SPACING = (0.09, 0.36)  # a face's lattice step (centre to edge pip, in box sides: the box may hold side faces too), longer axis
MIN_ASPECT = 0.4  # the shorter lattice axis over the longer: tilts up to about 66 degrees
MAX_RESIDUAL = 0.3  # rms fit error in lattice steps
RING = 2.0  # the ring around a candidate, in DoG sigmas (just outside a pip of radius sigma x sqrt 2)
UNEVEN = 0.5  # how much the ring's spread (over the pip's contrast) weakens a candidate
_RING_COS = np.cos(np.linspace(0.0, 2.0 * np.pi, 12, endpoint=False))[None]
_RING_SIN = np.sin(np.linspace(0.0, 2.0 * np.pi, 12, endpoint=False))[None]
MIN_CHROMA = 8.0  # a crop whose pixels' channels differ less than this on average gets no colour channel

# The canonical layouts on the lattice {-1, 0, 1}^2.
LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([[0, 0]], float),
    2: np.array([[-1, -1], [1, 1]], float),
    3: np.array([[-1, -1], [0, 0], [1, 1]], float),
    4: np.array([[-1, -1], [-1, 1], [1, -1], [1, 1]], float),
    5: np.array([[-1, -1], [-1, 1], [0, 0], [1, -1], [1, 1]], float),
    6: np.array([[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]], float),
}
ANGLE_STEP = 6.0  # degrees between the rotations tried in the whitened fit


@dataclass(frozen=True)
class LayoutWeights:
    """The score's two penalties (chosen on training groups only: docs/dice.md, session 16)."""

    inside: float = 1.0  # per unit strength of a candidate left inside the face
    centre: float = 1.0  # per side of the face centre's distance from the crop's centre


@dataclass(frozen=True)
class LayoutReading:
    value: int  # 1..6
    confidence: float  # 0..1: the best face's lead over the best face of another value
    score: float


def channels(crop: np.ndarray) -> list[np.ndarray]:
    """The crop's channels in which pips are bright: grey inverted (dark pips), grey, colour distance."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    out = [-grey, grey]
    # a grey camera's three equal channels have no chroma: no colour channel (it would be grey's twin)
    if crop.ndim == 3 and float((crop.max(axis=2) - crop.min(axis=2)).mean()) >= MIN_CHROMA:
        body = np.median(crop.reshape(-1, 3), axis=0)
        out.append(np.linalg.norm(crop - body, axis=2))
    return out


def candidates(channel: np.ndarray) -> np.ndarray:
    """Pip candidates in one channel (pips bright): N x 3 (x, y in sides from the crop's centre; strength).

    Each scale's own local maxima (a maximum over scales would merge a column of pips into a ridge whose
    middle is no peak), each weighed by how uniform the ring around it is: a pip lies inside a face of one
    colour, a die's corner against the table (a blob too) half on the table."""
    spread = float(channel.std()) + 4.0
    c = channel.shape[0] / 2 - 0.5
    found = []
    for s in SCALES:
        sigma = s * SIDE_PX
        dog = (cv2.GaussianBlur(channel, (0, 0), sigma) - cv2.GaussianBlur(channel, (0, 0), sigma * DOG_RATIO)) / spread
        ys, xs = np.nonzero((dog >= cv2.dilate(dog, np.ones((3, 3), np.uint8))) & (dog >= MIN_STRENGTH))
        if len(xs) == 0:
            continue
        ring = RING * sigma
        rx = np.clip(np.rint(xs[:, None] + ring * _RING_COS), 0, channel.shape[1] - 1).astype(int)
        ry = np.clip(np.rint(ys[:, None] + ring * _RING_SIN), 0, channel.shape[0] - 1).astype(int)
        around = channel[ry, rx]
        contrast = channel[ys, xs] - around.mean(axis=1)
        uniform = np.clip(1.0 - UNEVEN * around.std(axis=1) / np.maximum(contrast, 1e-6), 0.0, 1.0)
        found.append(np.stack([(xs - c) / SIDE_PX, (ys - c) / SIDE_PX, dog[ys, xs] * uniform], axis=1))
    if not found:
        return np.zeros((0, 3))
    pts = np.concatenate(found)
    pts = pts[(np.hypot(pts[:, 0], pts[:, 1]) <= REACH) & (pts[:, 2] > 0)]
    pts = pts[np.argsort(-pts[:, 2])]
    kept: list[np.ndarray] = []
    for p in pts:
        if all(np.hypot(*(p[:2] - q[:2])) >= SEPARATION for q in kept):
            kept.append(p)
    if not kept:
        return np.zeros((0, 3))
    out = np.array(kept)
    return out[out[:, 2] >= MIN_SHARE * out[0, 2]][:KEEP]


@cache
def _subsets(n: int, k: int) -> np.ndarray:
    return np.array(list(combinations(range(n), k)), int).reshape(-1, k)


def _whiten(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each point set (S x k x 2), centred, times the inverse square root of its covariance; and that matrix."""
    xc = x - x.mean(axis=1, keepdims=True)
    cov = np.einsum("ski,skj->sij", xc, xc) / x.shape[1] + 1e-9 * np.eye(2)
    vals, vecs = np.linalg.eigh(cov)
    inv = np.einsum("sij,sj,skj->sik", vecs, 1.0 / np.sqrt(vals), vecs)
    return np.einsum("ski,sij->skj", xc, inv), inv


def _affine_fits(pts: np.ndarray, value: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For point sets S x k x 2 (k = value >= 4): the fitted lattice centre (S x 2), the lattice's axes
    lengths (S x 2: longer, shorter; in sides), the rms residual in lattice steps (S) and the affine maps
    (S x 3 x 2: lattice position and 1 -> image)."""
    layout = LAYOUTS[value]
    canon, _ = _whiten(layout[None])
    canon = canon[0]
    y, _ = _whiten(pts)
    # the whitened layouts are symmetric under quarter turns (4, 5) or half turns (6) and mirrors
    angles = np.deg2rad(np.arange(0.0, 90.0 if value < 6 else 180.0, ANGLE_STEP))
    rot = np.stack([np.cos(angles), -np.sin(angles), np.sin(angles), np.cos(angles)], axis=1).reshape(-1, 2, 2)
    q = np.einsum("kj,aij->aki", canon, rot)  # A x k x 2
    d = np.linalg.norm(y[:, None, :, None, :] - q[None, :, None], axis=4)  # S x A x k (points) x k (layout)
    order = d.argmin(axis=3)
    srt = np.sort(order, axis=2)
    onto = (np.diff(srt, axis=2) > 0).all(axis=2)  # one layout pip per point
    cost = np.where(onto, d.min(axis=3).sum(axis=2), np.inf)
    pick = cost.argmin(axis=1)
    rows = np.arange(len(pts))
    best_cost, best_order = cost[rows, pick], order[rows, pick]
    src = layout[best_order]  # S x k x 2: each point's lattice position
    design = np.concatenate([src, np.ones((*src.shape[:2], 1))], axis=2)  # S x k x 3
    sols = np.einsum("sij,skj,skl->sil", np.linalg.pinv(np.einsum("ski,skj->sij", design, design)), design, pts)
    fitted = np.einsum("ski,sij->skj", design, sols)
    axes = np.linalg.svd(sols[:, :2, :], compute_uv=False)  # S x 2, descending
    resid = np.sqrt(((fitted - pts) ** 2).sum(axis=2).mean(axis=1)) / np.maximum(axes[:, 1], 1e-6)
    resid[~np.isfinite(best_cost)] = np.inf
    return sols[:, 2, :], axes, resid, sols


def _faces(cands: np.ndarray, value: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The valid faces of ``value`` among the candidates: subsets (F x value), centres (F x 2), residuals (F),
    and for each candidate whether it lies inside that face (F x N)."""
    n = len(cands)
    subs = _subsets(n, value)
    if len(subs) == 0:
        return subs, np.zeros((0, 2)), np.zeros(0), np.zeros((0, n), bool)
    pts = cands[subs][:, :, :2]
    xy = cands[:, :2]
    if value >= 4:
        centre, axes, resid, sols = _affine_fits(pts, value)
        ok = (axes[:, 0] >= SPACING[0]) & (axes[:, 0] <= SPACING[1]) & (axes[:, 1] >= MIN_ASPECT * axes[:, 0]) & (resid <= MAX_RESIDUAL)
        lin = sols[:, :2, :]  # lattice -> image (row vectors)
        det = np.linalg.det(lin)
        ok &= np.abs(det) > 1e-9
        inv = np.linalg.inv(np.where(ok[:, None, None], lin, np.eye(2)))
        q = np.einsum("sni,sij->snj", xy[None] - centre[:, None], inv)
        inside = np.abs(q).max(axis=2) <= 1.5
    elif value == 1:
        centre, resid = pts[:, 0], np.zeros(len(subs))
        ok = np.ones(len(subs), bool)
        inside = np.linalg.norm(xy[None] - centre[:, None], axis=2) <= SPACING[1] * 1.2
    else:  # 2 and 3: the face's diagonal
        a, b, resid = pts[:, 0], pts[:, -1], np.zeros(len(subs))
        if value == 3:  # the middle pip is the one nearest the others' mean; it must lie midway
            rows = np.arange(len(pts))
            mid = np.linalg.norm(pts - pts.mean(axis=1, keepdims=True), axis=2).argmin(axis=1)
            a, b = pts[rows, (mid + 1) % 3], pts[rows, (mid + 2) % 3]
            resid = np.linalg.norm(pts[rows, mid] - (a + b) / 2, axis=1) / np.maximum(np.linalg.norm(b - a, axis=1) / 2, 1e-6)
        half = np.linalg.norm(b - a, axis=1) / 2  # centre to corner pip: the step times about sqrt 2
        centre = (a + b) / 2
        ok = (half >= SPACING[0] * MIN_ASPECT * 1.41) & (half <= SPACING[1] * 1.41) & (resid <= MAX_RESIDUAL)
        inside = np.linalg.norm(xy[None] - centre[:, None], axis=2) <= np.maximum(half, 1e-6)[:, None] * 1.1
    chosen = np.zeros((len(subs), n), bool)
    np.put_along_axis(chosen, subs, True, axis=1)
    inside &= ~chosen
    return subs[ok], centre[ok], resid[ok], inside[ok]


def read_candidates(channel_cands: list[np.ndarray], weights: LayoutWeights = LayoutWeights()) -> LayoutReading | None:
    """The best valid face over every channel's candidates (each N x 3), or None."""
    best: dict[int, float] = {}
    for cands in channel_cands:
        if len(cands) == 0:
            continue
        for value in range(1, min(6, len(cands)) + 1):
            subs, centre, resid, inside = _faces(cands, value)
            if len(subs) == 0:
                continue
            s = cands[:, 2]
            score = (s[subs].sum(axis=1) - weights.inside * (inside * s[None]).sum(axis=1)
                     - weights.centre * np.linalg.norm(centre, axis=1) - resid)
            best[value] = max(best.get(value, -np.inf), float(score.max()))
    if not best:
        return None
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    value, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0.0
    confidence = float(np.clip((top - max(second, 0.0)) / max(top, 1e-6), 0.0, 1.0)) if top > 0 else 0.0
    return LayoutReading(value, confidence, top)


def read_crop(crop: np.ndarray, weights: LayoutWeights = LayoutWeights()) -> LayoutReading | None:
    """The face read from one die's crop (grey or BGR, ``CROP_SIDE`` square, ``CONTEXT`` sides wide: the
    caller cuts it, ``net.crop_die``), or None."""
    return read_candidates([candidates(c) for c in channels(crop)], weights)


@dataclass(frozen=True)
class LayoutFusion:
    """When and how much the layout's value counts beside the network's (chosen on training groups only:
    docs/dice.md, session 16). The defaults are the fusion off."""

    layout_sure: float = 1.01  # the layout's confidence at least this (above 1: never)
    net_unsure: float = 0.0  # ... and the network's likeliest class (not a die included) under this
    boost: float = 1.0  # then this is added to the layout's value's probability (1: the layout's value wins)

    def on(self) -> bool:
        return self.layout_sure <= 1.0 and self.net_unsure > 0.0


def wanted(probs: np.ndarray, fusion: LayoutFusion) -> bool:
    """Whether the layout is worth reading for this die: the fusion is on and the network is unsure."""
    return fusion.on() and float(probs.max()) < fusion.net_unsure


def fused(probs: np.ndarray, reading: LayoutReading | None, fusion: LayoutFusion) -> np.ndarray:
    """The network's 7 probabilities with the layout's value boosted where the fusion says so."""
    if reading is None or reading.confidence < fusion.layout_sure or not wanted(probs, fusion):
        return probs
    out = probs.copy()
    out[reading.value] += fusion.boost
    return out


def fuse(probs: np.ndarray, reading: LayoutReading | None, fusion: LayoutFusion) -> int:
    """One die's value (0: not a die) from the network's 7 probabilities and the layout's reading."""
    p = fused(probs, reading, fusion)
    face = int(np.argmax(p[1:])) + 1
    return 0 if p[face] < p[0] else face
