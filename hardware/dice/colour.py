"""Reading colour and symbol dice against faces sampled at calibration.

The Shear Panic panic die is a white die with a coloured sheep on each face
(white, black, blue, green, red, yellow: black and green are close), its
regrouping die shows "+" or "X", and the Sheep Hop! die carries coloured sheep,
a multicoloured sheep and two wolves, with symbols for colour-blind players.

Per die in view:

1. *Find* it: pixels whose chromaticity differs from the tray's, or that are
   clearly brighter than it (a white die body), grouped into die-sized blobs.
   A shadow darkens the tray but keeps its chromaticity, so it is not a die.
2. *Top face*: the deepest point of the blob (distance transform) is inside
   the top face even when a side face shows at one edge; the blob's rotated
   rectangle gives the face's orientation, and a square patch is cut there.
3. *Colour*: the patch is white-balanced against its own rim (the die body
   around the mark: von Kries adaptation), so warm, cool and dim light give
   the same colours; the mark's colour is the median CIELAB of the patch
   centre, compared by Euclidean distance (CIE76 Delta E) with each face's
   calibrated sample.
4. *Symbol*: the mark's shape, cut out against the rim colour and scaled to a
   small binary template, is compared (IoU, best of the four right-angle
   rotations, since a die can land any way round) with each face's template.
   "+" and "X" differ by 45 degrees and so stay apart.

Both cues become one softmax over faces; the winner's probability is the
confidence.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from .model import Box, DieReading

TEMPLATE = 24  # symbol templates are TEMPLATE x TEMPLATE
PATCH = 64  # top faces are resampled to PATCH x PATCH pixels


@dataclass(frozen=True)
class FaceSample:
    """One face as calibrated: the mark's CIELAB colour and its shape."""

    name: str
    lab: tuple[float, float, float]
    symbol: np.ndarray | None = field(default=None, compare=False)  # TEMPLATE^2 0/1 floats

    def to_toml(self) -> dict[str, object]:
        d: dict[str, object] = {"lab": [round(v, 2) for v in self.lab]}
        if self.symbol is not None:
            d["symbol"] = ["".join("1" if v > 0.5 else "0" for v in row) for row in self.symbol]
        return d


@dataclass(frozen=True)
class ColourDie:
    """A calibrated colour or symbol die: which die, how to weigh the cues."""

    die: str  # "panic", "regroup", "sheep-hop"
    kind: str  # "colour" (colour decides, symbol helps) or "symbol" (symbol decides)
    faces: tuple[FaceSample, ...]
    die_px: float = 60.0  # die side in frame pixels
    tray_lab: tuple[float, float, float] | None = None  # the empty tray's colour

    @property
    def weights(self) -> tuple[float, float]:
        """(per Delta E, per unit of symbol IoU) weights of the softmax logits."""
        return (0.25, 6.0) if self.kind == "colour" else (0.05, 20.0)


def _lab(bgr: np.ndarray) -> np.ndarray:
    """CIELAB with L in 0..100 and a, b signed (OpenCV's float conversion)."""
    return cv2.cvtColor(bgr.astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)


def find_dice(
    frame: np.ndarray, die_px: float, tray_lab: Sequence[float] | None = None, region: Box | None = None
) -> list[tuple[tuple[float, float], float, float]]:
    """Dice in view as (centre, side, angle in degrees), frame coordinates."""
    ox = oy = 0
    if region is not None:
        ox, oy, w, h = region
        frame = frame[oy : oy + h, ox : ox + w]
    # Segment at half resolution (a die stays 25+ pixels wide): 4x less work.
    f = 2 if die_px >= 40 else 1
    die_px = die_px / f
    half = (
        cv2.resize(frame, (frame.shape[1] // f, frame.shape[0] // f), interpolation=cv2.INTER_AREA) if f > 1 else frame
    )
    small = cv2.GaussianBlur(half, (3, 3), 0).astype(np.float32) + 1.0
    total = small.sum(axis=2, keepdims=True)
    chroma = small / total
    # The tray's colour and brightness around each pixel: a coarse median
    # follows uneven light across the tray and ignores the (small) dice.
    h, w = small.shape[:2]
    coarse = cv2.resize(small, (max(4, w * f // 16), max(4, h * f // 16)), interpolation=cv2.INTER_AREA)
    coarse = cv2.medianBlur(np.clip(coarse, 0, 255).astype(np.uint8), 5).astype(np.float32) + 1.0
    local = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    tray_chroma = local / local.sum(axis=2, keepdims=True)
    if tray_lab is not None:
        # A calibrated tray colour is trusted where the light still matches it
        # (it survives a heap of dice hiding the tray locally); if the light
        # has changed since calibration, the local estimate alone is used.
        lab = np.array([[tray_lab]], np.float32)
        tray_bgr = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)[0, 0] * 255.0 + 1.0
        calibrated = tray_bgr / tray_bgr.sum()
        seen = np.median(tray_chroma.reshape(-1, 3), axis=0)
        if np.abs(seen - calibrated).sum() < 0.04:
            tray_chroma = np.broadcast_to(calibrated, tray_chroma.shape)
    chroma_diff = np.abs(chroma - tray_chroma).sum(axis=2)
    brighter = total[:, :, 0] > 1.25 * local.sum(axis=2)
    mask = ((chroma_diff > 0.08) | brighter).astype(np.uint8)
    k = max(3, int(die_px / 12) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for c in contours:
        area = cv2.contourArea(c)
        if not 0.45 * die_px**2 <= area <= 2.2 * die_px**2:
            continue
        x, y, w, h = cv2.boundingRect(c)
        blob = np.zeros((h, w), np.uint8)
        cv2.drawContours(blob, [c], -1, 1, -1, offset=(-x, -y))
        top = _top_face(total[y : y + h, x : x + w, 0], blob)
        if top is None:
            continue
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(top)
        side = float(np.clip(max(rw, rh), 0.75 * die_px, 1.15 * die_px))
        found.append((((x + cx) * f + ox, (y + cy) * f + oy), side * f, float(angle)))
    return found


def _top_face(brightness: np.ndarray, blob: np.ndarray) -> np.ndarray | None:
    """The outline of a die's top face within its blob.

    The top face faces the light, so it is the brightest part of the die;
    side faces seen at a tilt are shaded.  Its convex hull takes the mark
    printed on it back in.
    """
    body = brightness[blob > 0]
    if body.size == 0:
        return None
    level = float(np.percentile(body, 90))
    lit = ((brightness >= 0.86 * level) & (blob > 0)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(lit, connectivity=8)
    if n < 2:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    pts = cv2.findNonZero((labels == biggest).astype(np.uint8))
    return cv2.convexHull(pts)


def top_patch(frame: np.ndarray, centre: tuple[float, float], side: float, angle: float) -> np.ndarray:
    """The top face, rotated upright and resampled to PATCH x PATCH."""
    inner = 0.86 * side  # the face without the die's rounded edges
    m = cv2.getRotationMatrix2D(centre, angle, PATCH / inner)
    m[0, 2] += PATCH / 2 - centre[0]
    m[1, 2] += PATCH / 2 - centre[1]
    return cv2.warpAffine(frame, m, (PATCH, PATCH), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def describe(patch: np.ndarray) -> tuple[tuple[float, float, float], np.ndarray]:
    """A face patch's mark colour (CIELAB, white-balanced) and symbol template."""
    f = patch.astype(np.float32) + 1.0
    rim = np.concatenate(
        [f[:6].reshape(-1, 3), f[-6:].reshape(-1, 3), f[:, :6].reshape(-1, 3), f[:, -6:].reshape(-1, 3)]
    )
    white = np.percentile(rim, 60, axis=0)
    # von Kries: scale each channel so that the die body is neutral white.
    balanced = np.clip(f * (235.0 / np.maximum(white, 8.0)), 0, 255).astype(np.uint8)
    lab = _lab(balanced)
    body = np.median(np.concatenate([lab[:6].reshape(-1, 3), lab[-6:].reshape(-1, 3)]), axis=0)
    diff = np.sqrt(((lab - body) ** 2).sum(axis=2))
    shape = (diff > 18.0).astype(np.uint8)
    inner = shape[6:-6, 6:-6]
    marked = lab[6:-6, 6:-6][inner > 0]
    # The mark's colour; a face with no mark (a white sheep on a white die) is its body.
    source = marked if len(marked) >= 0.03 * inner.size else lab[6:-6, 6:-6].reshape(-1, 3)
    mark = tuple(float(v) for v in np.median(source, axis=0))
    symbol = cv2.resize(inner.astype(np.float32), (TEMPLATE, TEMPLATE), interpolation=cv2.INTER_AREA)
    return mark, (symbol > 0.5).astype(np.float32)


def symbol_similarity(a: np.ndarray | None, b: np.ndarray | None) -> float:
    """IoU of two symbol templates, best of the four right-angle rotations."""
    if a is None or b is None:
        return 0.0
    best = 0.0
    for k in range(4):
        r = np.rot90(b, k)
        union = float(np.maximum(a, r).sum())
        if union == 0:
            return 1.0  # both blank: the same (blank) face
        best = max(best, float(np.minimum(a, r).sum()) / union)
    return best


def classify(patch: np.ndarray, die: ColourDie) -> tuple[str, float, dict[str, float]]:
    """(face name, confidence, probability per face) for one top-face patch."""
    lab, symbol = describe(patch)
    per_de, per_iou = die.weights
    logits = []
    for face in die.faces:
        de = math.dist(lab, face.lab)
        iou = symbol_similarity(symbol, face.symbol) if face.symbol is not None else 0.0
        logits.append(-per_de * de + per_iou * iou)
    z = np.array(logits)
    p = np.exp(z - z.max())
    p /= p.sum()
    best = int(p.argmax())
    return die.faces[best].name, float(p[best]), {f.name: float(v) for f, v in zip(die.faces, p, strict=True)}


def read_colour_dice(frame: np.ndarray, die: ColourDie, region: Box | None = None) -> list[DieReading]:
    """Every die of this calibrated kind in view, top face read."""
    readings = []
    for centre, side, angle in find_dice(frame, die.die_px, die.tray_lab, region):
        face, conf, _ = classify(top_patch(frame, centre, side, angle), die)
        half = side / 2
        box = (int(centre[0] - half), int(centre[1] - half), int(side), int(side))
        readings.append(DieReading(kind=die.kind, face=face, confidence=round(conf, 3), box=box))
    readings.sort(key=lambda r: (r.box[1], r.box[0]))
    return readings


def sample_face(
    frame: np.ndarray, name: str, die_px: float, tray_lab: Sequence[float] | None = None, region: Box | None = None
) -> FaceSample:
    """Calibrate one face from a frame showing exactly one die with that face up."""
    from companion.errors import SensorError

    found = find_dice(frame, die_px, tray_lab, region)
    if len(found) != 1:
        raise SensorError(f"face {name!r}: expected one die in view, found {len(found)}")
    centre, side, angle = found[0]
    lab, symbol = describe(top_patch(frame, centre, side, angle))
    return FaceSample(name, lab, symbol)
