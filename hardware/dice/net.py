"""The learned pip-dice reader: find the dice, then read each top face.

Two small networks, trained by ``benchmarks/dice_train.py`` (``make
train-dice``) and shipped as ONNX in ``hardware/dice/weights/``, run through
OpenCV's ``dnn`` module, so the Pi installs nothing new:

1. **Detector** (CenterNet-style): the frame, in grey (the shipped weights)
   or in colour (``channels`` 3 in ``tuning.json``: a grey frame then goes
   in as three equal channels), scaled so its long side is ``DETECT_SIDE``
   pixels whatever the camera (a 12 MP photo costs the same as a webcam
   frame), gives a heatmap of die centres and each die's side (log) at a
   quarter of that resolution.  Peaks above the tuned threshold are dice; a
   peak within half a die of a stronger one is the same die.
2. **Face classifier**: each die is cut out of the frame at full resolution
   (a square of ``CROP_CONTEXT`` times its side, axis-aligned; grey, or
   colour when ``face_channels`` is 3), resampled to ``CROP`` x ``CROP`` and
   normalised by its own mean and spread, so light and dark pips, bright and
   dim light look alike; seven classes: not a die (clutter the detector took
   for one, half a die) and the values 1..6.  Trained at every angle, on
   light-on-dark and dark-on-light faces and with side faces in view, so it
   reads the face that faces the camera.

Colour for either network is supported and was measured (docs/dice.md): held
out it read no better than grey, so the shipped weights are grey.

``tuning.json`` beside the weights holds what the training command tuned on
its training groups (the heatmap threshold) and each network's input channels
(absent: grey), the classifier's crop side (``crop``, absent: ``CROP``) and the
quarter turns each crop is read at (``turns``, absent: ``TURNS``), the crop's side in die sides
(``crop_context``, absent: ``CROP_CONTEXT``), whether each turn is also read mirrored (``mirror``) and
whether a grey classifier's crops are luminance or their own colours projected on their first component
or their pips' direction (``face_colour``, absent: "grey"; ``FACE_COLOURS``), and how far each crop's
centre is moved away from the image centre towards the die's top face (``top_shift``, absent: 0, off), and
the pip-layout second opinion (``pip_layout.py``, session 16): its score's weights (``layout_inside``,
``layout_centre``) and when its value counts (``layout_sure``, ``layout_net_unsure``, ``layout_boost``;
absent: off), and further face classifiers whose class probabilities are averaged with the first's
(``faces_extra``, session 17: file names in the weights folder, each read at the same ``turns``; absent: the
one classifier), and the crop's sides each die is read at, its probabilities averaged over every side and turn
(``crop_contexts``, session 20: the detector's side estimate is often off by a sixth or more, so no one crop
side frames every die alike; absent: ``crop_context`` alone).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from companion.errors import SensorError, brief

from . import pip_layout
from .model import Box, DieReading

WEIGHTS = Path(__file__).resolve().parent / "weights"
DETECTOR = "dice_detector.onnx"
CLASSIFIER = "dice_faces.onnx"
TUNING = "tuning.json"
FACES_EXTRA = "faces_extra"  # session 17: tuning.json's further face classifiers (an ensemble; absent: one)
CROP_CONTEXTS = "crop_contexts"  # session 20: tuning.json's crop sides each die is read at (absent: crop_context)
CONTEXT_RANGE = (0.5, 3.0)  # a crop side in die sides outside this cuts less than the top face or mostly felt
DETECT_SIDE = 320  # the detector sees the frame (or tray region) scaled to this long side
STRIDE = 4  # heatmap cells per detector input pixel
CROP = 32  # the face classifier's input side
CROP_CONTEXT = 1.25  # a die's crop is this many times its side
NOT_A_DIE = 0  # the classifier's class for clutter
TURNS = 4  # the classifier reads each crop at this many quarter turns
SAME_DIE = 0.85  # default: a weaker peak closer than this many sides to a stronger one is that die (a side face)
WORK_SIDE = 1600  # a larger frame is scaled down to this long side first (crops need no more)
# The finer second look: when the dice the first pass finds are small (their median side under
# FINE_BELOW detector pixels), the frame is read again scaled so they are about FINE_SIDE (the
# middle of the sizes the detector was trained on), up to the frame's own resolution and FINE_MAX.
FINE_BELOW = 16.0
FINE_SIDE = 30.0
FINE_MAX = 800
FINE_HEAT = 0.3  # the peaks whose sides estimate the dice's size
# Session 23, the coarser look (``coarse`` in tuning.json; absent: off), the finer one's mirror: when the dice
# the first pass finds are large (their median side over COARSE_ABOVE, as far over FINE_SIDE as FINE_BELOW is
# under it), the frame is read again scaled down so they are about FINE_SIDE, down to COARSE_MIN. A detector
# trained on patches at 0.5-2x of its photos' dice finds dice far larger than those at about half their side
# (fisheye-tray's 100 px dice, held out: 0.52 of their side at the median) and cuts them too tight.
COARSE_ABOVE = FINE_SIDE**2 / FINE_BELOW  # 56.25 detector pixels
# Session 27: the trigger as a tuning value (``coarse_above``, with ``coarse`` on; absent: COARSE_ABOVE). The first
# pass finds dice far larger than it was trained on at about half their side, so at 56.25 the coarser look fires
# only on dice over about 110 px at the detector; session 23 named FINE_SIDE x 1.25 as the lead.
COARSE_ABOVE_RANGE = (FINE_SIDE, float(DETECT_SIDE))
COARSE_MIN = 96
# Session 23, dice scaled to a known size both ways (``normalise`` in tuning.json, a band B >= 1; absent or 0: off):
# when the first pass's median side (heat >= FINE_HEAT) is under FINE_SIDE / B or over FINE_SIDE x B, the frame is
# read again scaled so the dice are about FINE_SIDE, between COARSE_MIN and the frame's resolution and FINE_MAX. It
# replaces the finer and coarser looks' decisions. Probes (all real groups seen): the first pass's estimate is
# biased low for large dice, and zooming hex-trays and iphone-table 2x or shrinking fisheye-tray 2x read better.
# Session 24, the dice's side from calibration (``die_side`` to ``NetReader.read``, measured once by
# ``NetReader.measure_die_side`` from a frame with a known number of dice in view): the detector reads the frame at
# each of a ladder of sides MEASURE_STEP apart; at each, how sure it is of its ``count`` strongest peaks (their
# mean heat; a peak it does not find counts 0) and their median side; the sides it is nearly surest at vote, and the
# median of their sizes is the dice's side. A detector finds dice far from the sizes it was trained on at the wrong
# size (fisheye-tray's at half), but it is surest where they are the sizes it knows. Chosen on synthetic renders
# with the shipped weights (median of the plateau against the surest side alone: 0.71 of photos within 25 % of the
# typical ratio, against 0.60).
MEASURE_STEP = 1.25
MEASURE_PLATEAU = 0.8  # the sides within this share of the surest all vote: the median of their sizes (synthetic)
# Session 28, a look at half the side (``half_look`` in tuning.json, a ratio R > 0; absent or 0: off): dice far larger
# than the detector was trained on are found at a fraction of their side, or not at all (a camera three times closer
# over the webcam's dice: 0.455 of them read), so neither coarser look fires. The frame is also read at half the
# first pass's side (not under COARSE_MIN), and that pass is kept, as the coarser looks' start, when the dice it
# finds surely (heat >= FINE_HEAT) are surer in all (`surety`) than R x the first pass's. The half pass costs a
# quarter of the first.
HALF_LOOK_MAX = 4.0
# Session 28, after H5's judgment: the half look only where the first pass's dice are not small (``half_above`` in
# tuning.json, detector px; absent or 0: always). Read at half the side, dice the first pass finds at 14-24 px (white-
# paper's, iphone-table's) are found at 7-12 px, surely enough to win at R = 0.5, and read worse (white-paper <= 5 dice
# 0.803 -> 0.754, iphone-table 0.793 -> 0.678 as taken). With ``half_above`` A the half pass is read only when the
# first pass's sure dice have a median side of at least A, or it found none surely.
# Session 29: dice far larger still (a camera three times closer over the webcam: 150-240 px in the first pass) are
# not found at all by the first pass, but their pips are, each as a die of 20-27 px: under ``half_above``, so the half
# look that would find the dice is never read (webcam-train's fold at 3x: 41 of its 45 misreads were such dice, read
# from a crop of a fifth of their side). With ``half_large`` L (first-pass detector px; absent or 0: off) the half
# pass is read under ``half_above`` too, and kept when its sure dice, in the first pass's px, have a median side of
# at least L: then the first pass's small dice were parts of large ones. Small dice read at half the side are not
# found larger than about twice their size, so L well over twice ``half_above`` keeps them out.
# Judged with L = 60 alone (rule f2d7824) it failed: hex-trays' crowded trays (7 of 223 photos) have a half pass that
# finds one or two large "dice" of 60-89 px over 7-14 real ones of 18-20 px (die accuracy as taken 0.668 -> 0.650).
# So ``half_cover`` C (0-1; absent or 0: not asked): the half pass is kept under ``half_above`` only when at least C of
# the first pass's sure dice lie inside its sure dice (within half their side), as a die's pips do (webcam-train at 3x:
# all of them on 31 of 45 photos), and a crowded tray's dice do not (hex-trays: 0.21-0.58 of them).
# Shipped as C1 (L = 60, C = 1.0, chosen on the renders; judged by rule b43ae67: docs/dice.md).
NORMALISE_MAX = 8.0  # a wider band than this never fires on sizes the detector reports
NORMALISE_SKIP = 8  # a second pass within this many px of the first's side is the first again: skipped
# Session 11: the classifier's crop in one channel other than luminance grey (``face_colour`` in
# tuning.json): each crop's own colours projected on their first principal component, so pips whose
# luminance is close to the body's (blue pips on a green die) keep the largest contrast the crop's
# colours allow. The value is the share of the crop's side, about its centre, whose colours set the
# projection: "pca-centre" looks at the top face only, so the felt around the die does not dominate.
# Measured, not kept (docs/dice.md, session 11): held out on hex-trays both read worse than luminance,
# since the top component is mostly body against felt, not pips against body. So "pips" (session 11,
# second experiment) projects on the pips' own direction instead: in the central share of the crop,
# the body's colour (the median) and the mean of the PIP_SHARE of pixels farthest from it (``project_pips``).
# Measured, not kept either (docs/dice.md): held out on hex-trays 0.705 at the labelled boxes against 0.729.
FACE_COLOURS = {"grey": 0.0, "pca": 1.0, "pca-centre": 0.6, "pips": 0.6}
LUMA_BGR = np.array([0.114, 0.587, 0.299], np.float32)  # OpenCV's BGR -> grey weights
PIP_SHARE = 0.09  # of the central pixels, those farthest from the body's colour are the pips
PIP_DISTINCT = 20.0  # pips closer than this to the body (BGR, Euclidean) are not distinct: luminance
# Session 12, the top face (``top_shift`` in tuning.json, a read-time option; 0 is off): a camera above the
# dice sees the side faces that face its principal point (about the image centre), so a die's top face lies
# away from the image centre within its box, the farther out the die the more. Each crop's centre is moved
# away from the image centre by top_shift x the die's side x its distance from the centre over half the
# image's long side (so by top_shift sides at the middle of the long side's edge). ``TOP_SHIFT_MAX`` bounds it.
TOP_SHIFT_MAX = 1.0
# Session 16, the game's count (``read(..., expected=n)``): the reader reads the ``n`` most die-like
# candidates instead of thresholding the heatmap. Candidates are the peaks above COUNT_HEAT (far below
# any tuned threshold: a die the detector is unsure of is still a peak), the same-die suppression as
# always, at most n + COUNT_SPARE of the hottest classified (a frame's cost stays bounded); each scored
# heat x (1 - p(not a die)), the top n kept when their score clears COUNT_SCORE. Chosen before any
# measurement, on no data (docs/dice.md, "Session 16: the network reads the game's count").
COUNT_HEAT = 0.05
COUNT_SCORE = 0.02
COUNT_SPARE = 4


def detector_input(frame: np.ndarray, side: int = DETECT_SIDE) -> tuple[np.ndarray, float]:
    """The frame (grey or colour) scaled to ``side`` on its long side, padded to a multiple of 8; and the scale."""
    h, w = frame.shape[:2]
    scale = side / max(h, w)
    nh, nw = max(8, round(h * scale)), max(8, round(w * scale))
    small = cv2.resize(frame, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    ph, pw = -nh % 8, -nw % 8
    if ph or pw:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    return small, scale


def crop_die(frame: np.ndarray, x: float, y: float, side: float, size: int = CROP,
             context: float = CROP_CONTEXT) -> np.ndarray:
    """The die's square crop (``context`` x its side; grey or BGR), resampled to ``size`` (float32, 0..255)."""
    half = max(2.0, context * side / 2)
    x0, y0, x1, y1 = round(x - half), round(y - half), round(x + half), round(y + half)
    h, w = frame.shape[:2]
    roi = frame[max(0, y0) : min(h, y1), max(0, x0) : min(w, x1)]
    if roi.size == 0:
        return np.zeros((size, size, *frame.shape[2:]), np.float32)
    top, left, bottom, right = max(0, -y0), max(0, -x0), max(0, y1 - h), max(0, x1 - w)
    if top or left or bottom or right:
        roi = cv2.copyMakeBorder(roi, top, bottom, left, right, cv2.BORDER_REPLICATE)
    shrink = roi.shape[0] > size
    return cv2.resize(roi, (size, size), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR).astype(np.float32)


def as_channels(frame: np.ndarray, channels: int) -> np.ndarray:
    """The frame as a network with ``channels`` inputs takes it: grey (H x W) or BGR (H x W x 3)."""
    if channels == 1:
        return frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)


def detector_blob(small: np.ndarray, channels: int) -> np.ndarray:
    """A detector-input image (grey or BGR) as the network's input: 1 x ``channels`` x H x W, 0..1."""
    img = as_channels(small, channels)
    img = img[..., None] if img.ndim == 2 else img
    return np.ascontiguousarray(img.transpose(2, 0, 1), np.float32)[None] / 255.0


def project_colours(crops: np.ndarray, centre: float = 1.0) -> np.ndarray:
    """Each BGR crop (N x S x S x 3, float) on the first principal component of its own colours (N x S x S).

    The component is the top eigenvector of the 3 x 3 covariance of the
    central ``centre`` share of the crop's side; its sign is chosen so that it
    agrees with luminance and its weights' magnitudes sum to 1, as
    luminance's do: a grey crop (three equal channels) gives its grey back.
    A crop of one colour has no component: it gets its luminance.
    """
    sample = _central_colours(crops, centre)
    sample = sample - sample.mean(axis=1, keepdims=True)
    cov = np.einsum("npi,npj->nij", sample, sample) / sample.shape[1]
    values, vectors = np.linalg.eigh(cov)  # ascending: the last column is the top component
    return _project(crops, vectors[:, :, -1], values[:, -1] >= 1e-6)


def project_pips(crops: np.ndarray, centre: float = FACE_COLOURS["pips"]) -> np.ndarray:
    """Each BGR crop (N x S x S x 3, float) on its pips' colour direction (N x S x S).

    In the central ``centre`` share of the crop's side (the die's top face), the body's colour is the
    per-channel median and the pips are the ``PIP_SHARE`` of pixels farthest from it; the direction is
    their mean less the body's colour, its weights' magnitudes summing to 1 and its sign agreeing with
    luminance's, as ``project_colours``'s do. Pips closer than ``PIP_DISTINCT`` to the body (a blank
    face, the felt) are not distinct: the crop gets its luminance. A grey crop gives its grey back.
    """
    sample = _central_colours(crops, centre)
    body = np.median(sample, axis=1)
    far = np.linalg.norm(sample - body[:, None], axis=2)
    k = max(1, round(PIP_SHARE * sample.shape[1]))
    pips = np.take_along_axis(sample, np.argpartition(-far, k - 1, axis=1)[:, :k, None], axis=1).mean(axis=1)
    way = pips - body
    return _project(crops, way, np.linalg.norm(way, axis=1) >= PIP_DISTINCT)


def _central_colours(crops: np.ndarray, centre: float) -> np.ndarray:
    """The BGR pixels (N x P x 3, float64) of the central ``centre`` share of each crop's side."""
    n, s = crops.shape[:2]
    cut = max(2, round(s * centre))
    a = (s - cut) // 2
    return crops[:, a : a + cut, a : a + cut].reshape(n, -1, 3).astype(np.float64)


def _project(crops: np.ndarray, way: np.ndarray, usable: np.ndarray) -> np.ndarray:
    """Each crop on its colour direction ``way`` (N x 3), or on luminance where not ``usable``.

    The weights' magnitudes sum to 1 and their sign agrees with luminance's, as luminance's own do: a grey
    crop's (1, 1, 1) / 3 gives its grey exactly, and the normaliser's spread floor means the same for both."""
    way = way / np.maximum(np.abs(way).sum(axis=1, keepdims=True), 1e-9) * np.where(way @ LUMA_BGR < 0, -1.0, 1.0)[:, None]
    way[~usable] = LUMA_BGR
    return np.einsum("nhwc,nc->nhw", crops, way.astype(np.float32)).astype(np.float32)


def project_face(crops: np.ndarray, colour: str) -> np.ndarray:
    """BGR crops (N x S x S x 3) to one channel as ``FACE_COLOURS[colour]`` says (not for "grey")."""
    return (project_pips if colour == "pips" else project_colours)(crops, FACE_COLOURS[colour])


def normalise_crops(crops: np.ndarray) -> np.ndarray:
    """Each crop by its own mean and spread, over all its channels (N x S x S [x 3] -> N x C x S x S).

    One mean and spread for the three channels of a colour crop, so its
    colours keep their contrasts (red pips on a blue die differ in hue more
    than in brightness).
    """
    crops = crops[..., None] if crops.ndim == 3 else crops
    mean = crops.mean(axis=(1, 2, 3), keepdims=True)
    std = crops.std(axis=(1, 2, 3), keepdims=True)
    return np.ascontiguousarray(((crops - mean) / (std + 8.0)).transpose(0, 3, 1, 2), np.float32)


def peaks(
    heat: np.ndarray, size: np.ndarray, threshold: float, same_die: float = SAME_DIE
) -> list[tuple[float, float, float, float]]:
    """(x, y, side, score) in detector-input pixels for each heatmap peak above ``threshold``.

    Two dice lying side by side are a side apart; a side face seen in
    perspective peaks nearer, so a weaker peak within ``same_die`` sides of a
    stronger one is dropped (tuned with the threshold).
    """
    local = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= local) & (heat >= threshold))
    found = sorted(
        ((float(heat[j, i]), i, j) for j, i in zip(ys, xs, strict=True)), reverse=True
    )
    kept: list[tuple[float, float, float, float]] = []
    for score, i, j in found:
        side = float(np.exp(size[j, i])) * STRIDE
        x, y = (i + 0.5) * STRIDE, (j + 0.5) * STRIDE
        if all((x - a) ** 2 + (y - b) ** 2 > (same_die * max(side, s)) ** 2 for a, b, s, _ in kept):
            kept.append((x, y, side, score))
    return kept


def first_side(frame_side: int) -> int:
    """The first pass's detector input side: ``DETECT_SIDE``, but never more than the frame's own long side.

    A calibrated tray region smaller than DETECT_SIDE was enlarged to it (session 23): its dice grew by the same
    factor, blurred, past the sizes the detector was trained on. Cut to a region about its dice (1.5 dice sides of
    margin, 165 px at the median), white-paper's photos of at most 5 dice read 0.503 of their dice with the shipped
    weights where the whole photos read 0.865; read at the region's own resolution, 0.781 (docs/dice.md)."""
    return max(8, min(DETECT_SIDE, frame_side))


def fine_side_for(median: float, frame_side: int) -> int:
    """The detector input side that reads dice of ``median`` first-pass px at about FINE_SIDE: from COARSE_MIN up to
    the frame's own resolution and FINE_MAX, a multiple of 8 (every second look scales by this)."""
    side = min(FINE_MAX, frame_side, max(COARSE_MIN, round(first_side(frame_side) * FINE_SIDE / median)))
    return side - side % 8


def normalised_side(median: float, frame_side: int, band: float) -> int | None:
    """The second look's side when ``median`` lies outside FINE_SIDE / ``band`` .. FINE_SIDE x ``band``
    (``normalise``); None when the first pass's scale stands."""
    if FINE_SIDE / band <= median <= FINE_SIDE * band:
        return None
    side = fine_side_for(median, frame_side)
    return None if abs(side - first_side(frame_side)) <= NORMALISE_SKIP else side


def work_frame(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """A frame larger than WORK_SIDE scaled down to it (nothing is read finer), and the scale (1.0: as it was)."""
    if max(frame.shape[:2]) <= WORK_SIDE:
        return frame, 1.0
    shrink = WORK_SIDE / max(frame.shape[:2])
    return cv2.resize(frame, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA), shrink


def known_side(die_side: float, frame_side: int) -> int:
    """The detector input side for dice of a calibrated side (``die_side`` frame px): about FINE_SIDE at the
    detector, between COARSE_MIN and the frame's own resolution and FINE_MAX, a multiple of 8 (session 24)."""
    side = min(FINE_MAX, frame_side, max(COARSE_MIN, round(frame_side * FINE_SIDE / die_side)))
    return max(8, side - side % 8)


def measure_sides(frame_side: int) -> list[int]:
    """The detector input sides ``NetReader.measure_die_side`` tries: from COARSE_MIN up to the frame's own
    resolution and FINE_MAX, each MEASURE_STEP times the last, multiples of 8."""
    top = max(8, min(FINE_MAX, frame_side))
    sides: list[int] = []
    side = float(min(COARSE_MIN, top))
    while side < top * MEASURE_STEP:
        s = min(top, round(side))
        s = max(8, s - s % 8)
        if s not in sides:
            sides.append(s)
        side *= MEASURE_STEP
    return sides


def median_side(heat: np.ndarray) -> float | None:
    """The median side of the dice a pass found surely (heat >= FINE_HEAT), in its detector px; None: none found."""
    found = peaks(heat[0], heat[1], FINE_HEAT)
    return float(np.median([s for _, _, s, _ in found])) if found else None


def fine_side(heat: np.ndarray, frame_side: int, fine: bool = True, coarse: bool = False,
              normalise: float = 0.0, coarse_above: float = COARSE_ABOVE) -> int | None:
    """The detector input side of the second pass: finer when the dice found are small (``fine``), coarser
    when they are large (``coarse``: their median side over ``coarse_above``), either way when they are outside the
    ``normalise`` band (when given, it alone decides); None when the first pass's scale stands."""
    median = median_side(heat)
    if median is None:
        return None
    if normalise:
        return normalised_side(median, frame_side, normalise)
    if coarse and median > coarse_above:  # not capped at the frame, as judged (a frame under COARSE_MIN is enlarged)
        return coarser_for(median, first_side(frame_side))
    if not fine or median >= FINE_BELOW:
        return None
    side = fine_side_for(median, frame_side)
    return side if side >= first_side(frame_side) * 1.25 else None


def half_side(frame_side: int) -> int | None:
    """Session 28: the half look's detector input side, half the first pass's (not under COARSE_MIN, a multiple of
    8); None when that is not smaller than the first's by more than NORMALISE_SKIP."""
    first = first_side(frame_side)
    side = max(COARSE_MIN, first // 2)
    side -= side % 8
    return side if side < first - NORMALISE_SKIP else None


def surety(heat: np.ndarray) -> float:
    """Session 28: how surely a pass found dice, the sum of its sure peaks' heat (each die counted once)."""
    return float(sum(p for *_, p in peaks(heat[0], heat[1], FINE_HEAT)))


def parts_of_large(first: np.ndarray, half: np.ndarray, ratio: float, large: float, cover: float) -> bool:
    """Session 29: whether the first pass's small sure dice look like parts of larger ones (a die's pips): the half
    pass's sure dice, ``ratio`` times larger in the first pass's px, have a median side of at least ``large``, and at
    least ``cover`` of the first pass's sure dice lie inside them (within half their side)."""
    found = [(x * ratio, y * ratio, s * ratio) for x, y, s, _ in peaks(half[0], half[1], FINE_HEAT)]
    if not found or float(np.median([s for *_, s in found])) < large:
        return False
    small = peaks(first[0], first[1], FINE_HEAT)
    inside = sum(any(abs(x - a) <= s / 2 and abs(y - b) <= s / 2 for a, b, s in found) for x, y, *_ in small)
    return inside >= cover * len(small)


def coarser_for(median: float, side: int) -> int:
    """The detector input side that shows dice of ``median`` px, read at ``side``, at about FINE_SIDE (not under
    COARSE_MIN), a multiple of 8."""
    new = max(COARSE_MIN, round(side * FINE_SIDE / median))
    return new - new % 8


def coarser_again(heat: np.ndarray, side: int, coarse_above: float) -> int | None:
    """Session 27: a further coarser look after one read at ``side``, when its dice still look larger than
    ``coarse_above`` (the first pass's estimate of large dice is low, so one look leaves them large) and the
    new side is smaller by more than NORMALISE_SKIP; None when that look stands."""
    median = median_side(heat)
    if median is None:
        return None
    new = coarser_for(median, side) if median > coarse_above else side
    return new if new < side - NORMALISE_SKIP else None


def top_faces(dice: list[tuple[float, float, float, float]], shift: float,
              view: tuple[float, float, float]) -> list[tuple[float, float, float, float]]:
    """Each die's (x, y, side, score) with its centre moved towards its top face: away from the image's
    centre (``view``: its x, y and half its long side) by ``shift`` x the side x the die's distance from
    the centre over half the long side (``top_shift``)."""
    cx, cy, half = view
    k = shift / max(half, 1.0)
    return [(x + k * s * (x - cx), y + k * s * (y - cy), s, p) for x, y, s, p in dice]


def most_die_like(heat: np.ndarray, probs: np.ndarray, expected: int, floor: float = COUNT_SCORE) -> list[int]:
    """The indices of the ``expected`` candidates likeliest to be dice (heat x (1 - p(not a die))), best
    first, those scoring under ``floor`` left out: the game's count caps the dice, never invents one."""
    scores = heat * (1.0 - probs[:, NOT_A_DIE]) if len(probs) else np.zeros(0)
    order = np.argsort(-scores, kind="stable")[: max(0, expected)]
    return [int(i) for i in order if scores[i] >= floor]


_T = TypeVar("_T")


class _TuningValues:
    """Reads ``tuning.json``'s values, each bad one refused as a ``SensorError`` naming its key and what was expected."""

    def __init__(self, path: Path, tuning: object) -> None:
        if not isinstance(tuning, dict):
            raise SensorError(f"{path}: expected a JSON object, got {type(tuning).__name__}")
        self.path = path
        self.tuning = tuning

    def _refuse(self, key: str, expected: str) -> SensorError:
        return SensorError(f"{self.path}: {key}: expected {expected}, got {brief(self.tuning[key])}")

    def number(self, key: str, default: float, low: float | None = None, high: float | None = None) -> float:
        value = self.tuning.get(key, default)
        bounded = low is not None and high is not None
        if isinstance(value, bool) or not isinstance(value, int | float) or (bounded and not low <= value <= high):
            raise self._refuse(key, f"a number from {low} to {high}" if bounded else "a number")
        return float(value)

    def band(self, key: str, high: float) -> float:
        """0 (absent: off) or a number from 1 to ``high``."""
        value = self.tuning.get(key, 0.0)
        if isinstance(value, bool) or not isinstance(value, int | float) or not (value == 0 or 1 <= value <= high):
            raise self._refuse(key, f"0 (off) or a number from 1 to {high}")
        return float(value)

    def flag(self, key: str, default: bool) -> bool:
        value = self.tuning.get(key, default)
        if not isinstance(value, bool):
            raise self._refuse(key, "true or false")
        return value

    def choice(self, key: str, default: _T, allowed: tuple[_T, ...] | range) -> _T:
        value = self.tuning.get(key, default)
        if isinstance(value, bool) or value not in allowed:
            shown = f"{allowed.start}..{allowed.stop - 1}" if isinstance(allowed, range) else " or ".join(map(str, allowed))
            raise self._refuse(key, f"one of {shown}")
        return value

    def numbers(self, key: str, default: tuple[float, ...], low: float, high: float) -> tuple[float, ...]:
        """A non-empty list of distinct numbers from ``low`` to ``high`` (absent: ``default``)."""
        if key not in self.tuning:
            return default
        value = self.tuning[key]
        if (not isinstance(value, list) or not value or len(set(value)) < len(value)
                or not all(not isinstance(v, bool) and isinstance(v, int | float) and low <= v <= high for v in value)):
            raise self._refuse(key, f"a non-empty list of distinct numbers from {low} to {high}")
        return tuple(float(v) for v in value)

    def file_names(self, key: str, taken: tuple[str, ...]) -> tuple[str, ...]:
        """A list of distinct plain file names (absent: none), none of them in ``taken``."""
        value = self.tuning.get(key, [])
        if (not isinstance(value, list) or not all(isinstance(v, str) and v and Path(v).name == v for v in value)
                or len(set(value)) < len(value) or set(value) & set(taken)):
            raise self._refuse(key, "a list of distinct file names in the weights folder, other than " + " and ".join(taken))
        return tuple(value)


@dataclass
class NetReader:
    """Reads pip dice with the shipped (or given) ONNX weights."""

    weights: Path = WEIGHTS

    def __post_init__(self) -> None:
        self.weights = Path(self.weights)
        try:
            tuning = json.loads((self.weights / TUNING).read_text())
            value = _TuningValues(self.weights / TUNING, tuning)
            # Session 17: further face classifiers (an ensemble), their probabilities averaged with the first's.
            self.faces_extra = value.file_names(FACES_EXTRA, (DETECTOR, CLASSIFIER))
            self._detector, self._faces, *self._faces_extra = (
                cv2.dnn.readNetFromONNX(str(self.weights / name)) for name in (DETECTOR, CLASSIFIER, *self.faces_extra))
        except SensorError:  # a bad tuning value, named by _TuningValues
            raise
        except (cv2.error, OSError, ValueError) as e:
            raise SensorError(f"cannot load the dice reader's weights from {self.weights}: {e}") from None
        self.tuning = tuning
        self.threshold = value.number("threshold", 0.35)
        self.min_face = value.number("min_face", 0.5)
        self.same_die = value.number("same_die", SAME_DIE)
        self.fine = value.flag("fine", False)  # the finer second pass (tuned: on or off)
        self.coarse = value.flag("coarse", False)  # session 23: the coarser second pass
        self.coarse_above = value.number("coarse_above", COARSE_ABOVE, *COARSE_ABOVE_RANGE)  # session 27: its trigger
        self.coarse_looks = value.choice("coarse_looks", 1, range(1, 5))  # session 27: looks while dice stay large
        self.normalise = value.band("normalise", NORMALISE_MAX)  # session 23: both ways, a band (0: off)
        self.half_look = value.number("half_look", 0.0, 0.0, HALF_LOOK_MAX)  # session 28: a look at half the side
        self.half_above = value.number("half_above", 0.0, 0.0, float(DETECT_SIDE))  # session 28: ... over such dice
        self.half_large = value.number("half_large", 0.0, 0.0, float(DETECT_SIDE))  # session 29: ... or larger ones
        self.half_cover = value.number("half_cover", 0.0, 0.0, 1.0)  # session 29: ... whose parts the first pass saw
        self.channels = value.choice("channels", 1, (1, 3))  # the detector's input: 3 colour, 1 grey
        self.face_channels = value.choice("face_channels", 1, (1, 3))  # the classifier's crops: 3 colour, 1 grey
        # Session 11: a one-channel crop projected on its own colours (``FACE_COLOURS``) instead of grey.
        # An unknown projection is refused here, not at the first die.
        self.face_colour = value.choice("face_colour", "grey", tuple(FACE_COLOURS))
        self.crop_channels = 3 if self.face_channels == 3 or self.face_colour != "grey" else 1  # what crops are cut from
        self.crop = value.choice("crop", CROP, range(8, 257))  # the classifier's input side
        self.turns = value.choice("turns", TURNS, (1, 2, 4))  # quarter turns each crop is read at
        # Session 9, read-time options (chosen on the training groups, docs/dice.md): the crop's side in
        # die sides, and whether each turn is also read mirrored (a face's value does not mirror either).
        self.context = value.number("crop_context", CROP_CONTEXT)
        # Session 20: each die read at several crop sides, their probabilities averaged with the turns'. The
        # detector's side is often off (0.83 to 1.56 of the die's, 10th to 90th percentile, on a fold's dice),
        # so one crop side frames some dice too tight and others too loose. Absent: crop_context alone.
        self.contexts = value.numbers(CROP_CONTEXTS, (self.context,), *CONTEXT_RANGE)
        self.mirror = value.flag("mirror", False)
        # Session 12: each crop moved towards the die's top face, away from the image centre (``top_shift``, 0: off).
        self.top_shift = value.number("top_shift", 0.0, 0.0, TOP_SHIFT_MAX)
        # Session 16: the pip-layout second opinion on the dice the network is unsure of (absent: off).
        off, weights = pip_layout.LayoutFusion(), pip_layout.LayoutWeights()
        self.layout = pip_layout.LayoutFusion(
            value.number("layout_sure", off.layout_sure, 0.0, 2.0), value.number("layout_net_unsure", off.net_unsure, 0.0, 2.0),
            value.number("layout_boost", off.boost, 0.0, 10.0))
        self.layout_weights = pip_layout.LayoutWeights(
            value.number("layout_inside", weights.inside, 0.0, 100.0), value.number("layout_centre", weights.centre, 0.0, 100.0))

    def heatmap(self, frame: np.ndarray, side: int | None = None) -> tuple[np.ndarray, float]:
        """The detector's output (heat, log side) for a frame (grey or BGR), and the frame's scale to its input;
        ``side`` None: the first pass's (``first_side``)."""
        small, scale = detector_input(frame, first_side(max(frame.shape[:2])) if side is None else side)
        self._detector.setInput(detector_blob(small, self.channels))
        return self._detector.forward()[0], scale

    @property
    def second_look(self) -> bool:
        """Whether a second pass may be asked for (``fine``, ``coarse``, ``normalise`` or ``half_look``); off, the
        first pass's peaks are not measured for it."""
        return self.fine or self.coarse or bool(self.normalise) or bool(self.half_look)

    def heatmaps(self, frame: np.ndarray) -> tuple[tuple[np.ndarray, float], tuple[np.ndarray, float] | None]:
        """The first pass's heatmap, and the second pass's when the half look (`half`) or `fine_side` asks for one (else
        None); with ``coarse_looks`` over 1, a coarser second pass (or the half pass) is itself looked at again
        (`coarser_again`) and the last one kept."""
        first = self.heatmap(frame)
        half = self.half(frame, first[0])
        if half is not None:  # the half look's dice were surer: the coarser looks go on from it
            side, second = half
        else:
            side = fine_side(first[0], max(frame.shape[:2]), self.fine, self.coarse, self.normalise, self.coarse_above)
            if not side:
                return first, None
            second = self.heatmap(frame, side)
        for _ in range(self.coarse_looks - 1 if self.coarse and side < first_side(max(frame.shape[:2])) else 0):
            side = coarser_again(second[0], side, self.coarse_above)
            if side is None:
                break
            second = self.heatmap(frame, side)
        return first, second

    def half(self, frame: np.ndarray, first: np.ndarray) -> tuple[int, tuple[np.ndarray, float]] | None:
        """Session 28 (``half_look``): the pass at `half_side` and its side when its dice are surer than
        ``half_look`` x the first pass's; None when the first pass stands (or the option is off, or the first pass's
        dice are under ``half_above``: then the half pass is not read, unless ``half_large`` asks whether they were
        parts of large dice; session 29)."""
        frame_side = max(frame.shape[:2])
        side = half_side(frame_side) if self.half_look else None
        if side is None:
            return None
        small = bool(self.half_above) and (median_side(first) or math.inf) < self.half_above
        if small and not self.half_large:
            return None
        half = self.heatmap(frame, side)
        if small:  # the first pass's small dice stand unless the half pass finds large ones where they lie
            large = parts_of_large(first, half[0], first_side(frame_side) / side, self.half_large, self.half_cover)
            return (side, half) if large else None
        return (side, half) if surety(half[0]) > self.half_look * surety(first) else None

    def detect(self, frame: np.ndarray, threshold: float | None = None, same_die: float | None = None,
               die_side: float | None = None) -> list[tuple[float, float, float, float]]:
        """Dice in a frame (grey or BGR): (x, y, side, score) in frame pixels. ``die_side``: the dice's side in
        this frame's pixels when calibrated (one pass at ``known_side``, no second look)."""
        frame = as_channels(frame, self.channels)
        if die_side:
            out, scale = self.heatmap(frame, known_side(die_side, max(frame.shape[:2])))
        else:
            first, fine = self.heatmaps(frame) if self.second_look else (self.heatmap(frame), None)
            out, scale = fine or first
        found = peaks(out[0], out[1], self.threshold if threshold is None else threshold, same_die or self.same_die)
        return [(x / scale, y / scale, s / scale, p) for x, y, s, p in found]

    def measure_die_side(self, frame: np.ndarray, count: int, region: Box | None = None) -> float | None:
        """The side of the dice in ``frame`` (or its ``region``), in frame pixels, from ``count`` dice in view and
        no labels (see MEASURE_STEP); None when the detector finds nothing at any side."""
        if region is not None:
            x, y, w, h = region
            frame = frame[y : y + h, x : x + w]
        frame, shrink = work_frame(as_channels(frame, self.channels))
        seen: list[tuple[float, float]] = []  # (surety, the dice's side in frame px) at each side tried
        for side in measure_sides(max(frame.shape[:2])):
            heat, scale = self.heatmap(frame, side)
            found = peaks(heat[0], heat[1], COUNT_HEAT, self.same_die)[: max(1, count)]
            if found:
                seen.append((sum(p for *_, p in found) / max(1, count), float(np.median([s for _, _, s, _ in found])) / scale / shrink))
        if not seen:
            return None
        top = max(surety for surety, _ in seen)
        return float(np.median([side for surety, side in seen if surety >= MEASURE_PLATEAU * top]))

    def classify(self, frame: np.ndarray, dice: list[tuple[float, float, float, float]], turns: int | None = None,
                 context: float | None = None, mirror: bool | None = None, top_shift: float | None = None,
                 view: tuple[float, float, float] | None = None) -> np.ndarray:
        """Class probabilities (N x 7: not a die, 1..6) for each detected die in a frame (grey or BGR),
        averaged over ``turns`` quarter turns of a crop of each of the tuned crop sides (``crop_contexts``;
        ``context`` given: that side alone), each also mirrored when ``mirror``, each crop moved by
        ``top_shift`` towards the top face (None: the tuned ones). ``view`` is the image's centre and half
        its long side in the frame's pixels (None: the frame's own; ``read`` passes the whole image's when
        it reads a region of it)."""
        if not dice:
            return np.zeros((0, 7), np.float32)
        frame = as_channels(frame, self.crop_channels)
        contexts = self.contexts if context is None else (context,)
        shift = self.top_shift if top_shift is None else top_shift
        if shift:
            dice = top_faces(dice, shift, view or (frame.shape[1] / 2, frame.shape[0] / 2, max(frame.shape[:2]) / 2))
        # every die at the first side, then every die at the next: the views below reshape side by side
        crops = np.stack([crop_die(frame, x, y, s, self.crop, c) for c in contexts for x, y, s, _ in dice])
        crops = normalise_crops(project_face(crops, self.face_colour) if self.face_colour != "grey" else crops)
        # The four quarter turns of each crop, averaged: the face's value does not turn with it.
        turns = self.turns if turns is None else turns
        views = [np.rot90(crops, k, axes=(2, 3)) for k in range(turns)]
        if self.mirror if mirror is None else mirror:
            views += [v[..., ::-1] for v in views]
        blob = np.ascontiguousarray(np.concatenate(views))
        probs = []
        for net in (self._faces, *self._faces_extra):  # session 17: every classifier's views weigh alike
            net.setInput(blob)
            probs.append(net.forward())
        return np.concatenate(probs).reshape(len(probs) * len(views) * len(contexts), len(dice), -1).mean(axis=0)

    def with_layout(self, frame: np.ndarray, dice: list[tuple[float, float, float, float]], probs: np.ndarray) -> np.ndarray:
        """The classifier's probabilities with the pip layout's second opinion fused in, for the dice the
        network is unsure of (``pip_layout.wanted``); unchanged when the fusion is off."""
        if not self.layout.on():
            return probs
        out = probs.copy()
        for i, ((x, y, side, _), p) in enumerate(zip(dice, probs, strict=True)):
            if pip_layout.wanted(p, self.layout):
                crop = crop_die(frame, x, y, side, pip_layout.CROP_SIDE, pip_layout.CONTEXT)
                reading = pip_layout.read_crop(crop, self.layout_weights)
                out[i] = pip_layout.fused(p, reading, self.layout)
        return out

    def macs(self) -> tuple[float, float]:
        """Multiply-adds of the detector on a 640x480 frame, and of the classifier per die (from training)."""
        return float(self.tuning.get("macs_detector_640x480", 0)), float(self.tuning.get("macs_face", 0))

    def read(self, frame: np.ndarray, region: Box | None = None, expected: int | None = None,
             die_side: float | None = None) -> list[DieReading]:
        """The dice in a frame (or its ``region``). ``expected``: how many the game asked for; given, the
        ``expected`` most die-like candidates are read, each as its likeliest value, instead of the dice
        above the tuned threshold (``most_die_like``). ``die_side``: the dice's side in the frame's pixels,
        when the camera profile knows it (``measure_die_side``); the detector then sees them at FINE_SIDE."""
        ox = oy = 0
        full_h, full_w = frame.shape[:2]
        if region is not None:
            ox, oy, w, h = region
            frame = frame[oy : oy + h, ox : ox + w]
        if frame.shape[0] < 8 or frame.shape[1] < 8:
            return []
        # grey networks: grey first, a third of the resizing (the layout reads colour: it keeps the frame's)
        if self.channels == 1 and self.crop_channels == 1 and not self.layout.on():
            frame = as_channels(frame, 1)
        frame, shrink = work_frame(frame)  # a huge frame: nothing is read finer than WORK_SIDE
        counted = expected is not None and expected > 0
        known = die_side * shrink if die_side else None
        dice = (self.detect(frame, COUNT_HEAT, die_side=known)[: expected + COUNT_SPARE] if counted
                else self.detect(frame, die_side=known))
        # the whole image's centre and half long side in this (cut, scaled) frame's pixels: the top face's way
        view = ((full_w / 2 - ox) * shrink, (full_h / 2 - oy) * shrink, max(full_w, full_h) / 2 * shrink)
        probs = self.with_layout(frame, dice, self.classify(frame, dice, view=view))
        if counted:
            kept = most_die_like(np.array([d[3] for d in dice]), probs, expected)
            dice, probs = [dice[i] for i in kept], probs[kept]
        readings = []
        for (x, y, side, _score), p in zip(dice, probs, strict=True):
            x, y, side = x / shrink, y / shrink, side / shrink
            face = int(np.argmax(p[1:])) + 1
            if not counted and (p[face] < self.min_face or p[face] < p[NOT_A_DIE]):
                continue
            # a boosted probability (the layout's second opinion) may pass 1: a confidence is at most 1
            half = side / 2
            box = (round(ox + x - half), round(oy + y - half), round(side), round(side))
            readings.append(DieReading("pips", face, min(1.0, float(p[face])), box))
        return readings


_shared: dict[Path, NetReader] = {}


def shared_reader(weights: Path = WEIGHTS) -> NetReader:
    """One loaded reader per weights folder (loading the nets takes a few ms)."""
    if weights not in _shared:
        _shared[weights] = NetReader(weights)
    return _shared[weights]
