"""The streaming whistle detector: blocks of 16 kHz audio in, detections out.

Evidence, per STFT frame (all frames of a block at once, in numpy):

- **whitened spectrum**: each bin's power over its own adaptive noise floor
  (falls fast, rises slowly in dB, frozen while a blow is on but never
  longer than ``max_blow_s``).  A hum, a fan or a crowd that is always
  there sits at 0 dB however loud it is; only what rises above its own
  floor counts, and only by how far it rises (``floor_margin_db``).
- **concentration**: the share of that excess, over 250 Hz-7.8 kHz, that
  lies in one whistle-sized window (+-``half_width_hz``, wide enough for a
  pea's trill sidebands) and at the window's harmonics.  A whistle puts
  nearly all its excess there; speech, laughter, music, dice, rain and
  engines spread theirs.  The window's centre must lie in ``band_hz``.
- **harmonic reasoning**: excess at a half, third or quarter of the
  window's centre makes the window a harmonic of that fundamental, if the
  series is complete (a line at c/3 needs one at 2c/3 too: a hum at a
  third of the pitch is not a fundamental).  A fundamental below the band (a voice,
  a rooster, a baby) fails the frame; one in the band is the whistle's
  (toys often sound their 2nd harmonic loudest).
- **band SNR**: the window's power against its noise floor.
- **voice comb**: lines at a voice's pitch spacing either side of the peak
  (speech and laughter holding one loud harmonic).

Decision: evidence is **pooled** over the last ``pool_frames`` frames (about
100 ms).  A blow is reported once ``min_frames`` of them pass the loose
("off") thresholds at a consistent window centre, ``min_strong_frames`` of
those the strict ("on") ones, spanning ``min_duration_s``, and most are not
voice-like; a few bad frames in between (a trill's chop, a hum's swell, a
frame where a low tone stole the harmonic check) cost nothing.  A reported
blow lasts while frames near its pitch keep passing (gaps up to
``max_gap_frames``); then a refractory period makes one blow one event.
Only frames near the reported pitch extend it, so a stray noise frame at
another pitch cannot hide the next blow.

Window and hop: 512 samples (32 ms), hop 256 (16 ms): 31 Hz bins part a
whistle from voice harmonics while the window stays short.  With 64 ms live
blocks an event comes out about 80-140 ms after the onset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

RATE = 16_000
N_FFT = 512
HOP = 256
assert N_FFT == 2 * HOP  # process() builds frames from pairs of hops
BIN_HZ = RATE / N_FFT
EPS = 1e-20
WIDE_HZ = (250.0, 7800.0)  # where the excess a whistle must dominate is counted
SUB_OVER_EVEN = 3.0  # a sub-harmonic or harmonic line holds this many times a typical bin's excess
SUB_MIN_EXCESS = 20.0  # ... and at least this much excess in all (in floors): a line, not the floor's jitter
TOWER_DB = 15.0  # this far over the strict SNR (and half as far over the strict dominance), share matters less
LOW_HZ = 1000.0  # hum, motors and a crowd's rumble live below this
HARMONICS = 8  # windows at 1..8 x the fundamental (up to 7.8 kHz) count as the whistle's
COMB_MIN_BINS = 3  # spacings from 94 Hz up to the band's low edge: a fundamental below the band
_NEAR = np.arange(-1, 2)
_SUB_FRACTIONS = np.array([1 / 2, 1 / 3, 2 / 3, 1 / 4, 3 / 4])
_MULTIPLES = np.arange(1, HARMONICS + 1)
_RELATIONS = (1.0, 2.0, 3.0, 0.5, 1 / 3)
_SMOOTH = np.full(7, 1 / 7)


@dataclass(frozen=True)
class DetectorParams:
    band_hz: tuple[float, float] = (800.0, 6000.0)  # the fundamental (window centre) must lie here
    half_width_hz: float = 250.0  # the whistle's window: +- this around its centre (trills smear)
    floor_margin_db: float = 6.0  # a bin counts by how far it stands above this much over its floor
    on_share: float = 0.65  # strict: share of the excess in the whistle's windows
    off_share: float = 0.45  # loose
    on_snr_db: float = 10.0  # strict: window power over its noise floor
    off_snr_db: float = 5.0  # loose
    on_dominance_db: float = 3.0  # strict: the window's strongest whitened bin over any other line's
    off_dominance_db: float = -100.0  # loose: off (a trill's sidebands, a swell of noise: pooling copes)
    low_discount_db: float = 4.0  # below LOW_HZ a competing line must be this much louder to count
    near_hz: float = 800.0  # lines this close to the fundamental's multiples are the whistle's (a pea's sidebands)
    sub_harmonic_share: float = 0.02  # excess at c/2 (c/3 and 2c/3) this large vs the window: c is a harmonic
    voice_db: float = -20.0  # a comb of lines this close to the peak makes a frame voice-like
    max_voiced_fraction: float = 0.5  # more voice-like frames than this and the "blow" was a voice
    pool_frames: int = 6  # evidence pooled over this many frames (16 ms apart: ~100 ms)
    min_frames: int = 4  # frames of the pool that must pass the loose thresholds
    min_strong_frames: int = 2  # ... of which this many the strict ones
    min_duration_s: float = 0.064  # from the first passing frame's start half-hop to the last one's end
    max_jump: float = 0.08  # pitch span of the pooled frames (and a reported blow's frames from its pitch)
    max_drop_db: float = 20.0  # pooled frames spanning more loudness than this are a ringing click, not a blow
    max_gap_frames: int = 4  # frames a reported blow may drop out (pea chop, a breath) and go on
    refractory_s: float = 0.3
    min_level_db: float = -200.0  # quieter blows are another table's (calibration sets it; off by default)
    max_blow_s: float = 4.0  # no blow is longer: a tone that lasts is learned as room noise
    noise_rise_s: float = 4.0
    noise_fall_s: float = 0.3


@dataclass(frozen=True)
class Detection:
    detected_at: float  # stream seconds: end of the last block this detection needed
    onset: float  # estimated start of the blow (stream seconds)
    offset: float  # estimated end of the blow so far (it may go on after detection)
    peak_hz: float  # the fundamental, median over the blow's frames
    confidence: float  # 0..1, how far the blow stood above the thresholds
    blower: str | None = None
    blower_confidence: float | None = None  # 0..1 attribution confidence when blower is set
    features: dict[str, float] = field(default_factory=dict)  # what signatures compare

    def to_json(self) -> dict[str, Any]:
        return {
            "detected_at_s": round(self.detected_at, 4),
            "onset_s": round(self.onset, 4),
            "offset_s": round(self.offset, 4),
            "peak_hz": round(self.peak_hz, 1),
            "confidence": round(self.confidence, 3),
            "blower": self.blower,
        }


@dataclass
class _Frame:
    j: int
    strong: bool
    weak: bool
    centre: float  # window centre, Hz (the pitch the pool must agree on)
    hz: float  # fundamental, Hz (sub-bin)
    h2: float
    level: float
    margin: float
    voice: float
    share: float


@dataclass
class _Blow:
    hz: float  # the reported pitch (window centre): only frames near it extend the blow
    last_good: int
    last_end: float
    onset: float


class WhistleDetector:
    """Feed blocks with ``process``; each call returns the detections it completed."""

    def __init__(
        self,
        params: DetectorParams | None = None,
        noise_db: np.ndarray | None = None,
        attribute: Callable[[dict[str, float]], tuple[str | None, float | None]] | None = None,
        rate: int = RATE,
    ) -> None:
        if rate != RATE:
            raise ValueError(f"the detector runs at {RATE} Hz; resample first (got {rate})")
        self.params = p = params or DetectorParams()
        self.attribute = attribute
        self._win = np.hanning(N_FFT).astype(np.float32)
        n_bins = N_FFT // 2 + 1
        self._w = max(1, round(p.half_width_hz / BIN_HZ))
        self._lo_all = round(WIDE_HZ[0] / BIN_HZ)
        self._hi_all = round(WIDE_HZ[1] / BIN_HZ)
        self._klo = max(int(np.ceil(p.band_hz[0] / BIN_HZ)), self._lo_all + self._w)
        self._khi = min(int(p.band_hz[1] / BIN_HZ), self._hi_all - self._w)
        if self._khi - self._klo < 4:
            raise ValueError(f"detection band {p.band_hz} is too narrow")
        self._fund_lo = p.band_hz[0] / BIN_HZ  # a fundamental below this fails the frame
        self._margin = 10 ** (p.floor_margin_db / 10)
        self._n_bins = n_bins
        centres = np.arange(self._klo, self._khi + 1)
        self._win_lo, self._win_hi = centres - self._w - self._lo_all, centres + self._w + 1 - self._lo_all
        self._offsets = np.arange(-self._w, self._w + 1)
        self._bin_index = np.arange(self._lo_all, self._hi_all + 1, dtype=float)
        self._near_bins = max(self._w, round(p.near_hz / BIN_HZ))
        # Below 1 kHz (hum, motors, a crowd's rumble) another line must be this much louder to count.
        self._other_weight = np.where(self._bin_index * BIN_HZ < LOW_HZ, 10 ** (-p.low_discount_db / 10), 1.0)
        # Comb spacings: any fundamental below the band (voices, babies, roosters).
        d = np.arange(COMB_MIN_BINS, max(COMB_MIN_BINS + 1, int(p.band_hz[0] / BIN_HZ)))
        self._comb_d = d
        self._comb_lines = np.concatenate([(s * d[:, None] + _NEAR[None, :]).ravel() for s in (-1, 1)])
        self._comb_valleys = np.concatenate([s * ((d + 1) // 2) for s in (-1, 1)])
        self._initial_noise = None if noise_db is None else 10 ** (np.asarray(noise_db, float) / 10)
        self._on = np.array([p.on_share, p.on_snr_db])
        self.reset()

    def reset(self) -> None:
        """Forget the stream (a new recording, or the device came back)."""
        self._buf = np.zeros(0, np.float32)
        self._samples = 0
        self._frame = 0  # index of the next frame
        self._set_noise(None if self._initial_noise is None else self._initial_noise.copy())
        self._pool: list[_Frame] = []
        self._blow: _Blow | None = None
        self._quiet_until = -1.0  # refractory: no new blow before this stream time
        self._quiet_hz = 0.0  # ... and only frames near this pitch extend it,
        self._quiet_last = -1  # ... following on from this frame
        self._busy_since: float | None = None  # when the floor was frozen for a (possible) blow
        self._idle_since: float | None = None  # when the last such run went quiet

    @property
    def time(self) -> float:
        """Stream seconds consumed so far."""
        return self._samples / RATE

    @property
    def noise_db(self) -> np.ndarray | None:
        return None if self._noise is None else 10 * np.log10(self._noise + EPS)

    # -- per block -----------------------------------------------------------
    def process(self, block: np.ndarray) -> list[Detection]:
        block = np.asarray(block, np.float32)
        self._samples += len(block)
        buf = np.concatenate([self._buf, block]) if len(self._buf) else block
        if len(buf) < N_FFT:
            self._buf = buf
            return []
        n_frames = (len(buf) - N_FFT) // HOP + 1
        # N_FFT is two hops: frame i is hop-chunks i and i+1 side by side
        # (cheaper than sliding_window_view at this size).
        chunks = buf[: (n_frames + 1) * HOP].reshape(-1, HOP)
        frames = np.concatenate([chunks[:-1], chunks[1:]], axis=1)
        first = self._frame
        self._frame += n_frames
        self._buf = buf[n_frames * HOP :]
        spec = np.fft.rfft(frames * self._win, axis=1)
        power = spec.real**2 + spec.imag**2
        if self._noise is None:
            # First sound heard: the quietest of these frames is the room until we learn better.
            self._set_noise(power.min(axis=0) + EPS)
        busy = bool(self._pool) or self._blow is not None or first * HOP / RATE < self._quiet_until
        feats = self.features(power, full=busy)
        detections = self._decide(feats, first, self.time) if (feats["weak"].any() or busy) else []
        self._track_noise(power)
        return detections

    def features(self, power: np.ndarray, full: bool = True) -> dict[str, np.ndarray]:
        """Per-frame measurements (vectorised over the frames of a block).

        Written for few numpy calls rather than elegance: at 4 frames per
        block the cost is per call, not per element.  With ``full=False`` (no
        blow under way or pooled) a block where no frame's best window holds
        even half the loose share stops after the cheapest measures, and any
        block without a frame passing the loose thresholds before the pitch,
        harmonics and voice measures: most blocks of a game.
        """
        p = self.params
        n = len(power)
        rows = np.arange(n)[:, None]
        w, lo, hi = self._w, self._lo_all, self._hi_all
        top = hi - lo + 1
        ratio = power[:, lo : hi + 1] / self._floor[lo : hi + 1]
        excess = np.maximum(ratio - self._margin, 0.0)
        cs = np.zeros((n, top + 1))
        np.cumsum(excess, axis=1, out=cs[:, 1:])  # cs[:, i] = sum of excess[:, :i]
        total = cs[:, -1] + EPS
        sums = cs[:, self._win_hi] - cs[:, self._win_lo]
        best = sums.argmax(axis=1)
        main = sums[rows[:, 0], best]
        # The window's centre of excess, not its argmax: a window sum is flat while the
        # line stays inside it, and a trill's line wanders; the centroid holds still.
        around = best[:, None] + self._klo - lo + self._offsets[None, :]
        centroid = best + self._klo + (excess[rows, around] @ self._offsets) / (main + EPS)
        # Once more around that centre (the first window sat wherever the line first
        # fitted), weighing raw power over the floor: the per-bin floors are noisy
        # estimates, and whitening would bend the line's shape and so its pitch.
        c = np.minimum(np.maximum(np.rint(centroid).astype(int), self._klo), self._khi)
        around = c[:, None] + self._offsets[None, :]
        mass = np.maximum(power[rows, around] - self._margin * self._floor[around], 0.0)
        centroid = c + (mass @ self._offsets) / (mass.sum(axis=1) + EPS)
        c = np.rint(centroid).astype(int)
        c = np.minimum(np.maximum(c, self._klo), self._khi)
        # Band SNR: the window's power against its floor.
        cw = c[:, None] + self._offsets[None, :]
        wpow = power[rows, cw]
        snr = 10 * np.log10(wpow.sum(axis=1) / (self._floor[cw].sum(axis=1) + EPS) + EPS)
        if not full and not np.any((main >= 0.5 * p.off_share * total) & (snr >= p.off_snr_db)):
            nothing = np.zeros(n, bool)
            return {"share": main / total, "snr": snr, "strong": nothing, "weak": nothing}

        def windows(centres: np.ndarray, half: int) -> np.ndarray:
            # Excess within +-half bins of each centre (n x m), clipped to the counted range.
            a = np.minimum(np.maximum(centres - half - lo, 0), top)
            b = np.minimum(np.maximum(centres + half + 1 - lo, 0), top)
            return cs[rows, b] - cs[rows, a]

        # Harmonic reasoning: is the window a harmonic of a lower line?  c/2;
        # c/3 with 2c/3; c/4 with c/2 and 3c/4 (a complete series, not a lone hum).
        subs = windows(np.rint(c[:, None] * _SUB_FRACTIONS[None, :]).astype(int), max(1, w // 2))

        # A line, not noise: a share of the window's excess, and well above what a
        # window that size holds when the excess is spread evenly (hiss, clatter).
        half = max(1, w // 2)
        # "Even" is the typical (median) bin's excess: hiss has one, a whistle's quiet
        # bins have none, however loud its own lines make the total.
        typical = np.partition(excess, top // 2, axis=1)[:, top // 2] + EPS
        need = np.maximum(np.maximum(p.sub_harmonic_share * main, SUB_OVER_EVEN * typical * (2 * half + 1)),
                          SUB_MIN_EXCESS)
        line = subs >= need[:, None]
        divisor = np.where(line[:, 0] & line[:, 3] & line[:, 4], 4,
                           np.where(line[:, 1] & line[:, 2], 3, np.where(line[:, 0], 2, 1)))
        fund = centroid / divisor
        # The whistle's share: its window at the fundamental and each harmonic.
        # A harmonic's window counts only if it holds a line (else 8 windows of
        # hiss would make up a share of their own).
        km = np.rint(fund[:, None] * _MULTIPLES[None, :]).astype(int)
        held = np.where(km + w <= hi, windows(km, w), 0.0)
        is_line = held >= (SUB_OVER_EVEN * typical * (2 * w + 1))[:, None]
        is_line[:, 0] = True
        ours = (held * is_line).sum(axis=1)
        share = np.minimum(ours, total) / total
        weak = (fund >= self._fund_lo) & (share >= p.off_share) & (snr >= p.off_snr_db)
        if weak.any():
            # Dominance, whitened: the window's strongest bin over the strongest bin
            # anywhere else (away from the fundamental's multiples).  A share can be
            # won by a few voice harmonics inside one window; a whistle's line also
            # towers over every other line, each measured against its own floor.
            f = fund[:, None]
            rem = np.mod(self._bin_index[None, :], f)
            near = self._near_bins
            away = ((rem > near) & (f - rem > near)) | (self._bin_index[None, :] < f - near)
            raw = power[:, lo : hi + 1] - self._margin * self._floor[lo : hi + 1]
            other = (raw * (away * self._other_weight)).max(axis=1)
            inside = raw[rows, cw - lo].max(axis=1)
            dominance = 10 * np.log10(np.maximum(inside, EPS) / np.maximum(other, EPS * 1e-6))
            weak &= dominance >= p.off_dominance_db
        if not weak.any():
            nothing = np.zeros(n, bool)
            return {"share": share, "snr": snr, "strong": nothing, "weak": nothing}
        # The peak bin in the window: sub-bin pitch (parabolic on log power) for signatures.
        k = cw[rows[:, 0], wpow.argmax(axis=1)]
        g = np.log(power[rows, k[:, None] + _NEAR] + EPS)
        den = g[:, 0] - 2 * g[:, 1] + g[:, 2]
        delta = np.minimum(np.maximum(0.5 * (g[:, 0] - g[:, 2]) / np.where(np.abs(den) > 1e-12, den, 1.0), -0.5), 0.5)
        hz = (k + delta) * BIN_HZ / divisor
        weak &= (hz >= p.band_hz[0]) & (main > 0)
        kpow = np.exp(g[:, 1])
        voice = self._comb(power, k, kpow)
        # Strict: concentrated, or (under broadband clatter that takes the share) a line
        # towering over its floor and over every other line.
        towering = (snr >= p.on_snr_db + TOWER_DB) & (dominance >= p.on_dominance_db + TOWER_DB / 2)
        strong = weak & (snr >= p.on_snr_db) & (dominance >= p.on_dominance_db) & ((share >= p.on_share) | towering)
        f0 = np.minimum(np.rint(k / divisor).astype(int), self._n_bins - 3)
        h = power[rows, np.concatenate([f0[:, None], np.minimum(2 * f0, self._n_bins - 2)[:, None] + _NEAR], axis=1)]
        h2 = 10 * np.log10((h[:, 1:].sum(axis=1) + EPS) / (h[:, 0] + EPS))
        level = 10 * np.log10(wpow.sum(axis=1) + EPS)
        margin = np.minimum(np.minimum((share - p.on_share) * 20, snr - p.on_snr_db), dominance - p.on_dominance_db)
        return {
            "hz": hz,
            "centre_hz": fund * BIN_HZ,
            "share": share,
            "snr": snr,
            "margin": margin,
            "strong": strong,
            "weak": weak,
            "h2": h2,
            "level": level,
            "voice": voice,
        }

    def _comb(self, power: np.ndarray, k: np.ndarray, kpow: np.ndarray) -> np.ndarray:
        """How strongly the peak sits in a voice-like comb of lines (dB vs the peak).

        A voiced sound (speech, laughter, a baby, a rooster) puts lines at
        k - d and k + d, d being its pitch (94 Hz up to the band's low edge),
        with valleys between; a whistle, even a trilled one whose line is
        smeared, has no such neighbours, and a toy's own harmonics are at
        least its in-band fundamental apart.
        Returns, per frame, the strongest symmetric pair of neighbouring
        lines that stand above the valley between them and the peak.
        """
        rows = np.arange(len(power))[:, None]
        top = power.shape[1] - 1
        nd = len(self._comb_d)
        lines = power[rows, np.clip(k[:, None] + self._comb_lines, 0, top)].reshape(len(power), 2, nd, 3).max(axis=3)
        valleys = power[rows, np.clip(k[:, None] + self._comb_valleys, 0, top)].reshape(len(power), 2, nd)
        pair = np.where(np.all(lines > 2 * valleys, axis=1), lines.min(axis=1), 0.0)
        return 10 * np.log10(pair.max(axis=1) / (kpow + EPS) + EPS)

    # -- decisions -------------------------------------------------------------
    def _frame_times(self, j: int) -> tuple[float, float]:
        # Frame j covers samples [j*HOP, j*HOP + N_FFT).  A frame "has" the
        # whistle once it fills about half of it, so the blow started between
        # this frame's centre and the previous one's.
        centre = (j * HOP + N_FFT / 2) / RATE
        return centre - HOP / (2 * RATE), centre + HOP / (2 * RATE)

    def _near(self, hz: float, ref: float, share: float = 1.0) -> bool:
        return abs(hz - ref) <= share * self.params.max_jump * ref

    def _same_whistle(self, hz: float, ref: float) -> bool:
        # Near ref, or at a harmonic relation to it: a frame where a weak
        # fundamental was missed (or a low line stole the harmonic check)
        # still belongs to the blow, and need not restart it.
        return any(self._near(hz, ref * m, 0.5) for m in _RELATIONS)

    def _decide(self, f: dict[str, np.ndarray], first: int, now: float) -> list[Detection]:
        p = self.params
        out: list[Detection] = []
        for i in range(len(f["weak"])):
            j = first + i
            start, end = self._frame_times(j)
            weak = bool(f["weak"][i])
            centre = float(f["centre_hz"][i]) if weak else 0.0  # measured only when a frame passes
            blow = self._blow
            if blow is not None:
                # Reported: it lasts while frames near its pitch pass.
                if weak and self._near(centre, blow.hz):
                    blow.last_good, blow.last_end = j, end
                elif j - blow.last_good > p.max_gap_frames:
                    self._quiet_until, self._quiet_hz = blow.last_end + p.refractory_s, blow.hz
                    self._quiet_last = blow.last_good
                    self._blow = None
                continue
            if start < self._quiet_until:
                if weak and self._near(centre, self._quiet_hz) and j - self._quiet_last <= p.max_gap_frames:
                    # The reported blow's tail (its echo, a last puff): stay quiet.  Only a
                    # tail that follows on from the blow: a stray frame at its pitch later on
                    # must not stretch the quiet over the next blow.
                    self._quiet_until, self._quiet_last = end + p.refractory_s, j
                continue
            self._pool = [fr for fr in self._pool if fr.j > j - p.pool_frames]
            if weak:
                self._pool.append(_Frame(j, bool(f["strong"][i]), weak, centre, float(f["hz"][i]), float(f["h2"][i]),
                                         float(f["level"][i]), float(f["margin"][i]), float(f["voice"][i]),
                                         float(f["share"][i])))
            det = self._pooled(now)
            if det is not None:
                out.append(det)
        return out

    def _pooled(self, now: float) -> Detection | None:
        """A detection if the pool holds enough consistent evidence (the pool is then spent)."""
        p = self.params
        if len(self._pool) < p.min_frames:
            return None
        # The pitch held: the most common fundamental of the pool (harmonic slips aside).
        ref = float(np.median([fr.centre for fr in self._pool]))
        agree = [fr for fr in self._pool if self._near(fr.centre, ref, 0.5)]
        if len(agree) * 2 <= len(self._pool):
            ref = float(min((fr.centre for fr in self._pool), key=lambda c: -sum(self._near(f.centre, c, 0.5) for f in self._pool)))
        # A whistle holds its pitch: the pooled frames span at most max_jump
        # (a voice glides through more in 100 ms; a pea's centroid holds still).
        group = [fr for fr in self._pool if self._same_whistle(fr.centre, ref)]
        if len(group) < p.min_frames or sum(fr.strong for fr in group) < p.min_strong_frames:
            return None
        onset = self._frame_times(group[0].j)[0]
        offset = self._frame_times(group[-1].j)[1]
        if offset - onset < p.min_duration_s:
            return None
        levels = [fr.level for fr in group]
        if max(levels) - min(levels) > p.max_drop_db:
            return None  # a struck die rings and dies; a blow holds its loudness
        if np.mean([fr.voice > p.voice_db for fr in group]) > p.max_voiced_fraction:
            return None  # speech or laughter holding a harmonic: the pool slides on
        loudest = max(fr.level for fr in group)
        self._pool = []
        if loudest < p.min_level_db:
            # Far quieter than the calibrated blows: another table's whistle.
            self._quiet_until, self._quiet_hz, self._quiet_last = offset + p.refractory_s, ref, group[-1].j
            return None
        self._blow = _Blow(ref, group[-1].j, offset, onset)
        return self._detection(group, ref, onset, offset, loudest, now)

    def _detection(self, group: list[_Frame], ref: float, onset: float, offset: float, loudest: float,
                   now: float) -> Detection:
        margin = float(np.median([fr.margin for fr in group]))
        confidence = float(np.clip(0.5 + 0.5 * np.tanh((margin + 3.0) / 8.0), 0.0, 1.0))
        hz = np.asarray([fr.hz for fr in group])
        centres = np.asarray([fr.centre for fr in group])
        pitch = centres[np.abs(centres - ref) <= 0.5 * self.params.max_jump * ref]  # harmonic slips aside
        features = {
            # The excess centroid, not the peak bin: a trill's peak wanders, its centroid holds.
            "peak_hz": float(np.median(pitch)),
            "spread_cents": float(np.std(1200 * np.log2(hz / np.median(hz)))),
            "h2_db": float(np.median([fr.h2 for fr in group])),
            "am_db": float(np.std([fr.level for fr in group])),
            "level_db": float(loudest),
            "glide_cents": float(np.std(1200 * np.log2(pitch / np.median(pitch)))),
            "share": float(np.median([fr.share for fr in group])),
            "strong": float(sum(fr.strong for fr in group)),
        }
        det = Detection(now, onset, offset, features["peak_hz"], confidence, features=features)
        if self.attribute is not None:
            who, conf = self.attribute(features)
            det = replace(det, blower=who, blower_confidence=conf)
        return det

    def _track_noise(self, power: np.ndarray) -> None:
        # One update per block.  While a blow may be on (evidence pooled or a
        # blow reported) the floor is frozen so the blow cannot raise it, but
        # only for ``max_blow_s``: a tone that goes on longer (a fan, a fridge
        # starting) is the room, and must be learned or it would hold the
        # detector in one endless "blow".
        # The freeze is counted from the first of a run of blows less than a
        # second apart: a tone the floor is learning comes and goes near the
        # threshold, and each return must not freeze the floor anew.
        p = self.params
        if self._blow is not None or self._pool:
            if self._busy_since is None:
                self._busy_since = self.time
            self._idle_since = None
            if self.time - self._busy_since < p.max_blow_s:
                return
        elif self._busy_since is not None:
            if self._idle_since is None:
                self._idle_since = self.time
            elif self.time - self._idle_since > 1.0 + p.refractory_s:
                self._busy_since = None
        # In dB: a loud sound lifts the floor by a few dB per second, not by
        # a fixed share of its power (which for a sound 50 dB up is a jump).
        level = np.log(power.mean(axis=0) + EPS)
        dt = len(power) * HOP / RATE
        rise = 1 - np.exp(-dt / p.noise_rise_s)
        fall = 1 - np.exp(-dt / p.noise_fall_s)
        log_noise = np.log(self._noise)
        rate = np.where(level > log_noise, rise, fall)
        self._set_noise(np.exp(log_noise + rate * (level - log_noise)))

    def _set_noise(self, noise: np.ndarray | None) -> None:
        """The tracked per-bin floor, and the floor the tests use: no lower than the
        floor smoothed over +-3 bins (in dB).  Each bin's estimate is noisy by a few dB;
        a dip would make noise there look like a line.  A hum's line keeps its own peak."""
        self._noise = noise
        if noise is None:
            self._floor = None
            return
        smooth = np.exp(np.convolve(np.log(noise), _SMOOTH, mode="same"))
        smooth[:3], smooth[-3:] = noise[:3], noise[-3:]
        self._floor = np.maximum(noise, smooth)


def detect(samples: np.ndarray, detector: WhistleDetector | None = None, block: int = 1024) -> list[Detection]:
    """Run a whole 16 kHz signal through a detector in live-sized blocks."""
    det = detector or WhistleDetector()
    out: list[Detection] = []
    for i in range(0, len(samples), block):
        out.extend(det.process(samples[i : i + block]))
    return out
