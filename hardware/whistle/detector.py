"""The streaming whistle detector: blocks of 16 kHz audio in, detections out.

Each block is cut into STFT frames and each frame gets a few numbers, all
computed for the block's frames at once with numpy:

- **peak**: the strongest bin in the detection band (refined by parabolic
  interpolation) and its energy over +-2 bins (a trill smears its line);
- **tonality**: that energy against the band's median bin, i.e. a narrow peak
  rather than broadband energy (dice, claps, breath);
- **harmonic check**: a tonal line at 1/2, 1/3 or 1/4 of the peak makes the
  peak a harmonic; the fundamental is then taken instead (toy whistles often
  sound their 2nd harmonic loudest), and a fundamental below the band (a
  voice at 150 Hz) fails the frame; with ``sub_over_floor_db`` a line that
  stands over its own noise floor is believed before one that does not (the
  hall's steady low crowd under a toy);
- **dominance**: the peak bin against the strongest bin from 250 Hz to
  7.5 kHz away from it and from the fundamental's multiples; speech and
  music have many lines of similar strength, a whistle has one (plus, for
  toys, its own harmonics);
- **voice comb**: lines at equal spacing (94-406 Hz, a voice's pitch) either
  side of the peak, with valleys between: the peak is a vowel's harmonic;
- **SNR**: the peak against an adaptive per-bin noise floor (falls fast, rises
  slowly in dB, frozen while a blow is on but never longer than
  ``max_blow_s``) so a fridge hum or a servo whine stops counting.

A blow starts on a frame passing the strict ("on") thresholds and must then
hold, frame after frame, through the loose ("off") ones at the same pitch
and loudness (hysteresis; after it is reported a short gap is allowed for
the pea's chop).  The harmonic check is read over the blow, not frame by
frame (``hold_harmonics``): a blow held at 1.6 kHz or more keeps a frame
whose loudest line is its pitch or a multiple of it, whatever line near a
third or a quarter flickered under it (a motor in the recording).  Once it
has lasted ``min_duration_s`` it is reported, unless most of its frames were voice-like; a refractory period, extended
only by frames near the reported blow's pitch, then makes one blow one
event.  The only Python loop runs over frames (about 4 per block), never
over samples.

Window and hop: 512 samples (32 ms) with a hop of 256 (16 ms).  The 31 Hz
bins are narrow enough to part a whistle's line from voice harmonics (90 Hz
and more apart) while the window is short, so a blow is certain about
``min_duration_s`` + one window after it starts; with 64 ms live blocks the
event comes out 80-150 ms after the onset.  A longer window would sharpen
the line but add its length to every detection's latency.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np

RATE = 16_000
N_FFT = 512
HOP = 256
assert N_FFT == 2 * HOP  # process() builds frames from pairs of hops
PEAK_HALF_WIDTH = 2  # bins either side counted in the peak's energy (+-62 Hz: trills smear)
NEAR_BINS = 8  # +-250 Hz around the peak belong to it (trill sidebands), not to "elsewhere"
EPS = 1e-20
WIDE_HZ = (250.0, 7500.0)  # where dominance looks for competing lines
SUB_LINE_OVER_MEDIAN = 30.0  # 15 dB: what makes a sub-harmonic bin a line rather than noise
_COMB_D = np.arange(3, 14)  # voice pitch spacings looked for, in bins (94-406 Hz)
_COMB_LINES = np.concatenate([(s * _COMB_D[:, None] + np.arange(-1, 2)[None, :]).ravel() for s in (-1, 1)])
_COMB_VALLEYS = np.concatenate([s * ((_COMB_D + 1) // 2) for s in (-1, 1)])
_PEAK = np.arange(-PEAK_HALF_WIDTH, PEAK_HALF_WIDTH + 1)
_NEAR = np.arange(-1, 2)
# A weak frame this close after the last one of a reported sound still belongs to it
# (128 ms: shorter than the 0.3 s refractory, so a lone frame at its end cannot renew it).
QUIET_FOLLOW_FRAMES = 8
HELD_RING_TOP = 3  # a struck sound is loudest in its first frames (the onset can be read a frame early)
_QUIET_RELATIONS = (1.0, 2.0, 0.5, 3.0, 1 / 3)


@functools.cache
def _sub_tables(top: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The harmonic check's tables for its divisors 2..``top`` (DetectorParams.sub_divisors: 4, or 5 for f/5 too),
    made once per ``top`` and shared by every detector (read-only):

    - the divisors;
    - where each sub-harmonic's 3 bins start in features()' gather;
    - each one's bit in the number that holds a frame's sub-harmonic lines (bit d: k/(d+2) is a line);
    - for each such number, which the fundamental is: 0 the peak bin itself, d + 1 its k/(d+2), the lowest line's.
    """
    div = np.arange(2, top + 1)
    cols = len(_PEAK) + 3 * np.arange(len(div))
    bits = 1 << np.arange(len(div))
    choice = np.array([max((d + 1 for d in range(len(div)) if c >> d & 1), default=0) for c in range(1 << len(div))])
    for a in (div, cols, bits, choice):
        a.flags.writeable = False
    return div, cols, bits, choice


WINDOW = np.hanning(N_FFT).astype(np.float32)  # the STFT's window, as every detector takes it

# The reductions ndarray.sum, .max, .min, .any and .all call, through a Python wrapper (numpy's ``_methods``) that costs
# a tenth of a microsecond a call, a sixth of a small one's time; the hot paths call them directly (session 18: the
# same calls; .any and .all pass a bool dtype, the one these reductions of bool arrays take anyway).  Without an axis
# the methods reduce every axis: ``axis=None`` is written out (the reductions' own default is axis 0).
_sum, _max, _min = np.add.reduce, np.maximum.reduce, np.minimum.reduce
_any, _all = np.logical_or.reduce, np.logical_and.reduce


def _median(xs: list[float]) -> float:
    """np.median of a few numbers, without its per-call cost (the decision loop asks every frame)."""
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def _elsewhere(wb: np.ndarray, f: int, kk: int) -> np.ndarray:
    """Which of the wide range's bins ``wb`` count as "elsewhere" for a peak at bin ``kk`` with its fundamental at
    bin ``f``: away from the peak and from the fundamental's multiples (session 4's dominance test)."""
    rem = wb % f
    return ((rem > 3) & (f - rem > 3) | (wb < f - 3)) & (np.abs(wb - kk) > NEAR_BINS)


def _centred(n: int) -> np.ndarray:
    return np.arange(n) - (n - 1) / 2


def level_slope(y: np.ndarray) -> float:
    """Least-squares slope of ``y`` against its index."""
    t = _centred(len(y))
    return float(t @ y) / float(t @ t)


def decay_slopes(level: np.ndarray) -> tuple[int, float, float]:
    """A level's (dB, frame by frame) loudest frame, and its slope from there to the last frame and over
    the later half of those frames (0.0 where fewer than 2 frames): what a struck sound's tests read."""
    top = int(level.argmax())
    after = level[top:]
    late = after[(len(after) - 1) // 2 :]
    return (top, level_slope(after) if len(after) >= 2 else 0.0, level_slope(late) if len(late) >= 2 else 0.0)


def frames_of(buf: np.ndarray, block: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """The whole STFT frames that the samples left over plus ``block`` make (a read-only view: frames overlap
    by a hop), and what is left over."""
    buf = np.concatenate([buf, block]) if len(buf) else np.ascontiguousarray(block)
    if len(buf) < N_FFT:
        return None, buf
    n_frames = (len(buf) - N_FFT) // HOP + 1
    # Frame i starts i hops in: a strided view of the samples (session 16: no copy; cheaper than
    # sliding_window_view and than gluing hop-chunks i and i+1 side by side).
    frames = np.ndarray((n_frames, N_FFT), buf.dtype, buf, 0, (HOP * buf.itemsize, buf.itemsize))
    frames.flags.writeable = False
    return frames, buf[n_frames * HOP :]


def _private_rfft() -> Callable[..., np.ndarray] | None:
    """numpy 2's FFT ufunc, which np.fft.rfft calls after its per-call checks (a third of its time here), if
    this numpy has it and it gives the spectrum of a probe; else None (the public call).  It is
    private: a numpy that renames it or changes its arguments must cost speed, never a crash or other numbers."""
    try:
        from numpy.fft._pocketfft_umath import rfft_n_even
    except ImportError:  # numpy 1.x
        return None
    probe = (np.random.default_rng(0).standard_normal((3, N_FFT)) * WINDOW).astype(np.float32)
    try:
        z = _rfft_rows(rfft_n_even, probe)
    except Exception:  # any failure of a private call means: use the public one
        return None
    # checked against the complex FFT, another routine (np.fft.rfft is this very call)
    want = np.fft.fft(probe, axis=1)[:, : N_FFT // 2 + 1]
    return rfft_n_even if np.allclose(z, want, rtol=1e-4, atol=1e-3) else None


def _rfft_rows(rfft_n_even: Callable[..., np.ndarray], x: np.ndarray) -> np.ndarray:
    """The ufunc called as np.fft.rfft calls it for float32 rows of N_FFT (factor 1, the last axis, complex64 out):
    the one place that knows its private arguments."""
    return rfft_n_even(x, 1, axes=[(1,), (), (1,)], out=np.empty((len(x), N_FFT // 2 + 1), np.complex64))


_rfft_n_even = _private_rfft()


def power_of(frames: np.ndarray) -> np.ndarray:
    """The frames' STFT power, ``np.abs(np.fft.rfft(frames * WINDOW, axis=1)) ** 2``: for float32 frames under
    numpy 2, the very call np.fft.rfft makes (the same ufunc, factor 1, axes and a complex64 output)."""
    x = frames * WINDOW
    if _rfft_n_even is None or x.dtype != np.float32:
        return np.abs(np.fft.rfft(x, axis=1)) ** 2
    return np.abs(_rfft_rows(_rfft_n_even, x)) ** 2


Attribute = Callable[[dict[str, float]], tuple[str | None, float | None]]  # a blow's features -> (blower, confidence)


class StreamDetector:
    """What both detectors share: stream time, STFT power per block, the per-bin noise floor."""

    def __init__(self, attribute: Attribute | None, rate: int) -> None:
        if rate != RATE:
            raise ValueError(f"the detector runs at {RATE} Hz; resample first (got {rate})")
        self.attribute = attribute

    _steps: ClassVar[dict[tuple[int, float, float], np.ndarray]] = {}  # the floor's [fall, rise] step per block size
    _buf: np.ndarray
    _samples: int
    _frame: int
    _noise: np.ndarray | None
    # (block power, its log level): the combined detector's two halves track their floors on the same block
    # object; one tuple, read and written whole, so another detector's thread cannot mix the pair.
    _level_cache: ClassVar[tuple[np.ndarray | None, np.ndarray]] = (None, np.zeros(0))

    @property
    def time(self) -> float:
        """Stream seconds consumed so far."""
        return self._samples / RATE

    @property
    def noise_db(self) -> np.ndarray | None:
        return None if self._noise is None else 10 * np.log10(self._noise + EPS)

    @property
    def noise_floor(self) -> np.ndarray | None:
        """The per-bin noise floor (power), None before the first block: what another detector compares with."""
        return self._noise

    def take_doubts(self) -> list[Detection]:
        """Sounds taken for a whistle but not reported, since the last call (session 23): none, but for the combined
        detector's (``CombinedDetector.take_doubts``)."""
        return []

    @property
    def band_hz(self) -> tuple[float, float]:
        """Where this detector looks for a whistle (the calibration screen shades it)."""
        return self.params.band_hz  # type: ignore[attr-defined]  # every detector's params have a band

    def follow(self, samples: int, frames: int) -> None:
        """Stream position set by a detector that computes the STFT for this one (``consume``)."""
        self._samples, self._frame = samples, frames

    def _spectra(self, block: np.ndarray) -> tuple[int, np.ndarray] | None:
        """The index of the block's first whole frame and the frames' power spectra (None: no whole frame yet)."""
        block = np.asarray(block, np.float32)
        self._samples += len(block)
        frames, self._buf = frames_of(self._buf, block)
        if frames is None:
            return None
        first = self._frame
        self._frame += len(frames)
        return first, power_of(frames)

    def _floor_rates(self, power: np.ndarray, rise_s: float, fall_s: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(log floor, log block level over it, per-bin step): in dB, a loud sound lifts the floor by a few dB
        per second, not by a fixed share of its power (which for a sound 50 dB up is a jump).  The floor's next
        log is ``log floor + step * level over it``."""
        n = len(power)
        cached = StreamDetector._level_cache
        if cached[0] is power:
            level = cached[1]
        else:
            level = np.log(_sum(power, 0) / n + EPS)  # the mean, without np.mean's per-call cost
            StreamDetector._level_cache = (power, level)
        steps = self._steps.get((n, rise_s, fall_s))
        if steps is None:
            dt = n * HOP / RATE
            steps = self._steps[(n, rise_s, fall_s)] = np.array([1 - math.exp(-dt / fall_s), 1 - math.exp(-dt / rise_s)])
            steps.flags.writeable = False  # shared by every detector; take() copies
        log_noise = np.log(self._noise)
        over = level - log_noise
        # over > 0 exactly where level > log_noise (a difference of floats is 0 only when they are equal; an
        # infinity or a nan fails both), one subtraction fewer than comparing and then subtracting (session 16); each
        # bin's step taken from [fall, rise] by that comparison's 0 or 1 (session 18: the same float64 numbers as
        # np.where gave from the two Python floats, a third cheaper)
        return log_noise, over, steps.take((over > 0).view(np.uint8))


@dataclass(frozen=True)
class DetectorParams:
    band_hz: tuple[float, float] = (800.0, 6000.0)  # fundamental must lie here
    on_tonality_db: float = 20.0
    off_tonality_db: float = 9.0
    on_dominance_db: float = 12.0
    off_dominance_db: float = 5.0
    on_snr_db: float = 12.0
    off_snr_db: float = 6.0
    sub_harmonic_db: float = 20.0  # a tonal line at f/2, f/3 or f/4 within this of the peak makes f a harmonic
    # Session 17 (issue #15, the toys): of the lines at f/2, f/3 and f/4, those whose loudest bin also stands this
    # far over that bin's own adaptive noise floor are believed first, and the fundamental is the lowest of them;
    # only where none does is the lowest line taken as before.  The hall's crowd and rumble at 300-900 Hz stand
    # far over the band's median (so they pass as lines) but hardly over their own floor, and under a toy they
    # were taken for its fundamental; a toy's true fundamental is a new line, well over its floor.  (Dropping
    # the floorless lines outright heard more two-tones but let music's chords through: +38 % false alarms on
    # seeds 20-21.)  0: off (the check as before, bit for bit).  Chosen on seeds 20-22; judged on seed 23: toy rows
    # +10 blows (toy +4, toy 1200 Hz +3 / +2 calibrated, two-tone calibrated +1), hum +2, no false alarm more
    # anywhere (music -4, clatter -1): on (docs/whistle.md, session 17).
    sub_over_floor_db: float = 20.0
    # Session 18 (issue #15): a hysteresis on that reading, within a blow.  A frame whose own reading loses the blow
    # (another pitch, or failing) is measured again at the blow's fundamental when that is a line under the frame's
    # peak (at k/2, k/3 or k/4, a line by the check's other tests) standing at least sub_over_floor_db - sub_hold_db
    # over its floor, and keeps the blow if it passes there: a fundamental near sub_over_floor_db over its floor no
    # longer flips frame by frame (a 700 Hz toy read at its 1.4 kHz 2nd harmonic, failing its dominance; a 1.2 kHz
    # toy read at a hall line that rose over the threshold under it).  0: off (bit for bit); only with the floor test.
    # Judged at 6 on seed 24: blow rows +0 where +6 were asked (calibrated toys +4, not in the rule): off.  Judged
    # again on seed 25 by a rule counting the calibration rows: calibrated +3 (low toy 700 Hz 18 -> 21), blow rows +2,
    # music +2 of 804, nothing else: on (docs/whistle.md, session 18).  The wizard's listener keeps the floor test
    # off (calibration.whistle.listening_detector), so the hold does nothing there.
    sub_hold_db: float = 6.0
    # Session 18 (issue #15, the wizard and the 1200 Hz toy): the harmonic check's highest divisor, 4 (f/2-f/4, as
    # ever) or 5 (f/5 too).  A toy sounding its 5th harmonic loudest is otherwise read at that harmonic, whose
    # dominance its own lower harmonics fail (1-4 dB): no frame passes, the blow is never heard.  Only the wizard's
    # listener sets 5 (calibration.whistle.listening_detector); the generic detector and a profile keep 4.
    sub_divisors: int = 4
    voice_db: float = -20.0  # a comb of lines this close to the peak makes a frame voice-like
    max_voiced_fraction: float = 0.5  # more voice-like frames than this and the "blow" was a voice
    voice_patience_frames: int = 8  # frames to wait for a voiced-looking start to prove itself a whistle
    min_duration_s: float = 0.048  # from the first strong frame's start half-hop to the last one's end half-hop
    min_strong_frames: int = 3
    max_gap_frames: int = 2  # frames a reported blow may drop out (pea chop, a breath) and go on
    max_misses_before_detection: int = 0  # frames a blow may miss before it is reported
    max_jump: float = 0.1  # relative pitch change from the held pitch still the same blow
    max_drop_db: float = 15.0  # a frame this far below the blow's loudest is its end
    # A struck glass rings like a short whistle, but starts at full level and decays steadily; a blow
    # rises and holds.  A "blow" whose loudest frame is one of its first two and that has fallen since
    # along a straight line in dB (ring_decay_db a frame or more, in its later half too; no frame
    # ring_jitter_db off the line) is heard for up to ring_frames frames before it is reported; still
    # so by then, it is a ring (0: off).
    ring_frames: int = 8
    ring_decay_db: float = 0.25
    ring_jitter_db: float = 0.5
    # Under steady_below_hz a report must hold its pitch: its frames' median absolute deviation from
    # their median pitch at most steady_cents.  Every real whistle in the data sounds at 2-4.5 kHz, and
    # 44 of session 4's 65 ESC-10 false alarms (babies, roosters, dogs) were pitched at 0.8-1.2 kHz with a
    # wobbling line; a toy whistle's steady tone passes.  Calibration lowers the edge under the table's
    # lowest whistle (calibration.whistle.Profile.params); 0 turns the rule off.  Chosen in session 10 on
    # ESC-10 folds 1-3 and seed-5 scenes, judged on seed 6 (docs/whistle.md).
    steady_below_hz: float = 1200.0
    steady_cents: float = 3.0
    # Session 12: the harmonic check is made consistent over a blow rather than frame by frame.  A line
    # near f/3 or f/4 that comes and goes (a motor in the recording, sea or hall noise) flipped the
    # estimated fundamental from frame to frame (2470 -> 622 -> 2466 Hz in a real r2k blow in sea noise,
    # 3029 -> 996 Hz in a robot blow), and each flip ended the blow: issue #15's "harmonic check" fault.
    # With hold_harmonics, a blow under way keeps a frame whose loudest line is the held pitch or its
    # 2nd-4th multiple (the other reading of the same sound), and the blow's pitch is the loudest line's
    # unless a sub-harmonic line was heard in at least sub_majority of its frames (a toy's true fundamental).
    # Only over hold_above_hz: every real whistle in the data sounds at 2-4.5 kHz, while roosters, dogs
    # and babies put harmonics at 1-1.5 kHz whose fundamentals the frame-by-frame check used to find,
    # breaking them (ESC-10 folds 1-3: 21 false alarms frame by frame, 29 held at any pitch, 24 over
    # 1.6 kHz).  Calibration lowers it under the table's lowest whistle, as steady_below_hz.
    # Judged on seed 11 without held_ring_db it heard 5 more real-mix blows of 240 but let 11 more struck
    # plates and glasses through in an hour of clatter; with it, on seed 12, 16 more blows of 720 (7 in the
    # real mixes) for music +3.4 %, ESC-10 +3, clatter -1: kept (docs/whistle.md, session 12).
    hold_harmonics: bool = True
    sub_majority: float = 0.8
    hold_above_hz: float = 1600.0
    # A blow the held reading kept is dropped when it is loudest in its first frames and falls this much a
    # frame since, over its later half too (least squares; session 4's ring test wants a straight line,
    # which a flickering sub-line breaks).  0: off.  Looked at (OtherNoise(seed=105), 150 x 6 s): clatter
    # 31 -> 33 held, 31 with this; 144 real robot blows in ESC-10 noise: 96 -> 118 held, 112 with this.
    held_ring_db: float = 0.25
    # Session 15: the table's own whistles, as (pitch Hz, cents) pairs (calibration.whistle.Profile.params,
    # when the profile's own_whistles is "near").  A blow whose median pitch lies within those cents of one
    # gets the harmonic hold whatever hold_above_hz says, and under steady_below_hz may wobble up to
    # own_wobble_cents (the same median absolute deviation) instead of steady_cents: a low toy's fresh blows
    # wobbled up to 15 cents (164 of 166 on seeds 0-15; a 1.2 kHz toy's up to 20), the dogs, babies and
    # roosters that a whole exemption at the toy's pitch let through mostly 21-86.  Every other sound meets the generic edges.
    # Lowering both edges under the table's lowest whistle for every sound instead (the "under" handling)
    # let every low steady tone through: the low toy's profile took ESC-10's false alarms from about 36 to
    # 153 on seeds 12-13 (docs/whistle.md, session 15).
    own_hz: tuple[tuple[float, float], ...] = ()
    own_wobble_cents: float = 20.0
    # Session 13 (issue #15: a real whistle in real noise that session 4 does not hear).  Of the 60 real-mix
    # blows session 4 alone missed on seed 9, 58 had at least three frames whose in-band peak was the
    # whistle itself standing 12 dB over its floor and failed the dominance test: a line elsewhere within
    # 12 dB of it, new sound in 53 of them (a steady line the floor knew in 7), mostly far under the whistle
    # (a dog, a baby, a motor at 0.3-1.5 kHz under a 2.2-3 kHz blow).  With low_line_db > 0, for a
    # fundamental at low_above_hz or more, a line under low_under of it (more than an octave down) counts
    # low_line_db less against its dominance, strict and loose.  Struck glasses and plates ring so (a high
    # partial over their own fundamental), and music's flute notes over their chords: so a blow needs
    # low_own_strong frames that pass session 4's own dominance, and one with frames strong only thanks to
    # the handicap is not reported while its level falls (held_ring_db a frame, least squares over the blow,
    # or held_ring_db's struck test).  2 kHz: the band-share reference's lower edge (1.6 kHz: more music).
    # Chosen on seeds 4, 5, 8, 9, 12 (session 4 alone) and OtherNoise(seed=105).  Judged on seed 13 at 12 dB:
    # +7 real-mix blows of 240, clatter -7, ESC-10 -1, but music +38 false alarms an hour (+5.05 %, the rule
    # allowed 5 %): off (0.0; docs/whistle.md, session 13).
    low_line_db: float = 0.0
    low_above_hz: float = 2000.0
    low_under: float = 0.5
    low_own_strong: int = 1
    refractory_s: float = 0.3
    min_level_db: float = -200.0  # quieter blows are another table's (calibration sets it; off by default)
    # Session 20 (issue #15's ESC-10 false alarms: 34 of 37 reports of the shipped combined detector are this half's,
    # crowing and crying at 0.8-3 kHz reported 50-130 ms into the call, before the glide or the wobble that
    # _wobbling_low and the voice test catch has shown).  A blow whose pitch so far is under patient_below_hz needs
    # patient_strong_frames strong frames before it is reported instead of min_strong_frames: every real whistle in
    # the data sounds at 2-4.5 kHz and keeps its min_strong_frames.  0: off.  Measured on seen seed 29 only, not
    # judged: under 2 kHz, 5-8 frames took 2-9 of 36 ESC-10 reports and 74-217 of music's 778 for 4-8 of the toy
    # row's 22 blows (a toy's vibrato fails _wobbling_low too, given the frames): off (docs/whistle.md, session 20).
    patient_below_hz: float = 0.0
    patient_strong_frames: int = 6
    patient_s: float = 0.0  # and that long from its onset (0: no wait but the strong frames')
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
class _Blow:
    onset: float
    start_frame: int
    last_good: int
    last_end: float
    hz: list[float]
    h2: list[float]
    level: list[float]
    margin: list[float]
    voice: list[float]
    recent_hz: list[float]  # the last 3 good frames: the pitch the blow holds
    loudest: float
    peak_hz: list[float] = field(default_factory=list)  # each frame's loudest line (hold_harmonics)
    subs: int = 0  # frames whose fundamental was a sub-harmonic line under the loudest
    held: int = 0  # frames kept by the held reading (hold_harmonics)
    lowed: int = 0  # strong frames whose dominance a far lower line would have failed (low_line_db)
    strong: int = 1
    misses: int = 0
    emitted: bool = False


class WhistleDetector(StreamDetector):
    """Feed blocks with ``process``; each call returns the detections it completed."""

    def __init__(
        self,
        params: DetectorParams | None = None,
        noise_db: np.ndarray | None = None,
        attribute: Attribute | None = None,
        rate: int = RATE,
    ) -> None:
        super().__init__(attribute, rate)
        self.params = params or DetectorParams()
        p = self.params
        freqs = np.fft.rfftfreq(N_FFT, 1 / RATE)
        self._klo = int(np.searchsorted(freqs, p.band_hz[0]))
        self._khi = int(min(np.searchsorted(freqs, p.band_hz[1], side="right"), len(freqs) - PEAK_HALF_WIDTH - 1))
        if self._khi - self._klo < 4:
            raise ValueError(f"detection band {p.band_hz} is too narrow")
        self._bins = np.arange(len(freqs))
        self._wide = slice(int(np.searchsorted(freqs, WIDE_HZ[0])), int(np.searchsorted(freqs, WIDE_HZ[1])))
        self._wide_bins = self._bins[self._wide][None, :]
        self._sub_ratio = 10 ** (-p.sub_harmonic_db / 10)
        self._sub_floor_ratio = 10 ** (p.sub_over_floor_db / 10) if p.sub_over_floor_db else 0.0
        hold = p.sub_hold_db and p.sub_over_floor_db  # the hold is the floor test's: nothing to hold without it
        self._sub_hold_ratio = 10 ** ((p.sub_over_floor_db - p.sub_hold_db) / 10) if hold else 0.0
        self._initial_noise = None if noise_db is None else 10 ** (np.asarray(noise_db, float) / 10)
        # Index tables, so that each block's gathers are one fancy index each (features()).
        n_bins = len(freqs)
        self._ext = slice(max(0, self._klo - PEAK_HALF_WIDTH), self._khi + PEAK_HALF_WIDTH + 1)
        ks = np.arange(n_bins)
        if p.sub_divisors not in (4, 5):
            raise ValueError(f"sub_divisors: expected 4 or 5, got {p.sub_divisors}")
        self._divisors, self._sub_cols, self._sub_bits, self._fund_choice = _sub_tables(p.sub_divisors)
        self._subs = np.rint(ks[:, None] / self._divisors[None, :]).astype(int)  # k/2, k/3, k/4 (k/5) for every k
        band_k = ks[self._klo : self._khi + 1]
        self._gather_offsets = np.concatenate(
            [np.broadcast_to(_PEAK, (len(band_k), len(_PEAK))),
             (self._subs[band_k][:, :, None] + _NEAR).reshape(len(band_k), -1) - band_k[:, None]], axis=1)
        self._gather_index = band_k[:, None] + self._gather_offsets  # the same bins, absolute (one call less)
        # The fundamental for every peak bin k and set of sub-harmonic lines (``_sub_bits``): the lowest line's, the
        # largest divisor that fits, else k itself (session 18: one lookup for an argmax, a flip, an any and a where).
        self._fund_of = np.concatenate([ks[:, None], self._subs], axis=1)[:, self._fund_choice]
        # _keep's rows for every band bin and choice of fundamental, once needed (none where a fundamental can be bin 0)
        self._keep_of: np.ndarray | None = None
        self._keep_tabled = bool(self._subs[self._klo : self._khi + 1].min() >= 1)
        self._h2_index = np.concatenate([ks[:, None], np.minimum(2 * ks, n_bins - 2)[:, None] + _NEAR], axis=1)
        self._comb_index = np.clip(ks[:, None] + np.concatenate([_COMB_LINES, _COMB_VALLEYS])[None, :], 0, n_bins - 1)
        self._on_snr_ratio = 10 ** (p.on_snr_db / 10)
        self._low_weight = 10 ** (-p.low_line_db / 10)
        self._on_dom_ratio = 10 ** (p.on_dominance_db / 10)
        self._low_above = p.low_above_hz / (RATE / N_FFT)  # in bins
        self._on_tonality_ratio = 10 ** (p.on_tonality_db / 10)
        self._rows_cache: dict[int, np.ndarray] = {}
        self._keep_cache: dict[tuple[int, int], np.ndarray] = {}
        # The own whistles' pitch windows, in Hz (lo, hi): a blow's pitch in one is the table's own.
        self._own_windows = tuple((hz * 2 ** (-cents / 1200), hz * 2 ** (cents / 1200)) for hz, cents in p.own_hz)
        on = np.array([p.on_tonality_db, p.on_dominance_db, p.on_snr_db])
        off = np.array([p.off_tonality_db, p.off_dominance_db, p.off_snr_db])
        self._on, self._off = on, off
        self.reset()

    def reset(self) -> None:
        """Forget the stream (a new recording, or the device came back)."""
        self._buf = np.zeros(0, np.float32)
        self._samples = 0
        self._frame = 0  # index of the next frame
        self._noise = None if self._initial_noise is None else self._initial_noise.copy()
        self._blow: _Blow | None = None
        self._quiet_until = -1.0  # refractory: no new blow before this stream time
        # The pitch of the reported blow the refractory period follows (None after a
        # dropped voice or a far quieter blow: then any weak frame extends it), and
        # the last frame that was the blow or extended the quiet.
        self._quiet_hz: float | None = None
        self._quiet_last = -1
        self._gap = 0

    # -- per block -----------------------------------------------------------
    def process(self, block: np.ndarray) -> list[Detection]:
        got = self._spectra(block)
        return [] if got is None else self.consume(*got)

    def consume(self, first: int, power: np.ndarray) -> list[Detection]:
        """Decide on a block's frames (``first`` the index of its first frame), their STFT power given."""
        if self._noise is None:
            # First sound heard: the quietest of these frames is the room until we learn better.
            self._noise = power.min(axis=0) + EPS
        # Only a strong frame can start a blow, unless one is under way or was
        # just reported (its weak frames then extend the refractory period).
        busy = self._blow is not None or first * HOP / RATE < self._quiet_until
        feats = self.features(power, full=busy, lazy=self._blow is None)
        if self._sub_hold_ratio:
            feats["power"] = power  # the frames' spectra, measured again at a blow's fundamental (_hold_fundamental)
        detections = self._decide(feats, first, self.time) if _any(feats["weak"]) or self._blow else []
        self._track_noise(power)
        return detections

    def features(self, power: np.ndarray, full: bool = True, lazy: bool = False) -> dict[str, np.ndarray]:
        """Per-frame measurements (vectorised over the frames of a block).

        Written for few numpy calls rather than elegance: at 4 frames per
        block the cost is per call, not per element.  With ``full=False`` (no
        blow under way, none just reported) a block where no frame could
        start a blow stops after the cheap measures: most blocks of a game.
        With ``lazy=True`` (no blow under way) a block where no frame is weak
        stops once that is known, with only "strong" and "weak": nothing
        reads the rest (``consume`` does not decide on such a block; on the
        speed sound, 418 of the 601 blocks measured in full).
        """
        n = len(power)
        rows = self._rows(n)
        if not full and not _any(power[:, self._ext] >= self._noise[self._ext] * self._on_snr_ratio, None):
            # A strong frame needs its peak's 5 bins 12 dB over their floor, so one of them at
            # least that far over its own: no such bin near the band, no frame can start a blow.
            return self._nothing(n)
        band = power[:, self._klo : self._khi + 1]
        kb = band.argmax(axis=1)
        k = kb + self._klo
        # One gather: the peak +-2 bins, and +-1 bin around k/2, k/3 and k/4.
        at = self._gather_index[kb]
        g = power[rows, at]
        kpow = g[:, PEAK_HALF_WIDTH]
        peak = _sum(g[:, : len(_PEAK)], 1)
        floor = _sum(self._noise[at[:, : len(_PEAK)]], 1)
        if not full:
            snr_ok = peak >= floor * self._on_snr_ratio
            if not _any(snr_ok):
                return self._nothing(n)
        median = band.copy()  # np.partition's own copy and partition, without its wrapper
        median.partition(band.shape[1] // 2, axis=1)
        median = median[:, band.shape[1] // 2]
        spread = (2 * PEAK_HALF_WIDTH + 1) * median + EPS  # the peak's bins were they the band's median
        if not full and not _any(snr_ok & (peak >= spread * self._on_tonality_ratio)):
            return self._nothing(n)
        # Harmonic check: a line at k/2, k/3 or k/4 that is itself tonal (well above
        # the band's median) and not too far below the peak makes k a harmonic
        # of it: toy whistles often sound their 2nd harmonic loudest.
        subs = g[:, len(_PEAK) :].reshape(n, len(self._divisors), 3)
        sub = _max(subs, 2)
        # (over both thresholds: over the larger, the same float32 products compared; a nan fails either way)
        is_line = sub >= np.maximum(kpow * self._sub_ratio, SUB_LINE_OVER_MEDIAN * median)[:, None]
        if self._sub_floor_ratio and _any(is_line, None):  # (no line: nothing to choose; session 17's cost, mostly saved)
            # Session 17 (sub_over_floor_db): the lines whose loudest bin also stands over that bin's own floor
            # (a new sound, as a toy's true fundamental is; the hall's steady crowd is not) are believed first;
            # only where none does are all the lines read as before.
            loudest = at[rows, subs.argmax(axis=2) + self._sub_cols]  # each sub's loudest bin
            new = is_line & (sub >= self._noise[loudest] * self._sub_floor_ratio)
            is_line = np.where(_any(new, 1)[:, None], new, is_line)
        # The lowest such line is the fundamental (the largest divisor that fits): k/2, k/3 or k/4, else k.
        code = is_line.dot(self._sub_bits)
        fund = self._fund_of[k, code]
        # Dominance: the peak bin against the band away from the peak and
        # from the multiples of the fundamental (a toy whistle's own harmonics).
        # "Elsewhere" is the whole voice and music range, not just the band:
        # a vowel's loudest harmonics lie below a band that starts at 800 Hz.
        table = self._keep_table()
        wide = power[:, self._wide] * (self._keep(fund, k) if table is None else table[kb, self._fund_choice[code]])
        if self.params.low_line_db:
            # Lines more than an octave under a high fundamental count low_line_db less (DetectorParams).
            low = (self._wide_bins < fund[:, None] * self.params.low_under) & (fund >= self._low_above)[:, None]
            other = (wide * np.where(low, self._low_weight, 1.0)).max(axis=1) + EPS
            # Strong only thanks to the handicap: session 4 would have failed its dominance.
            lowed = kpow < (wide.max(axis=1) + EPS) * self._on_dom_ratio
        else:
            other = _max(wide, 1) + EPS
            lowed = self._none(n)
        with np.errstate(divide="ignore"):
            # frames down the columns (np.array of the rows is np.stack's copy without its per-call checks)
            db = 10 * np.log10(np.array([peak / spread, kpow / other, peak / (floor + EPS), peak]).T + EPS)
        measures = db[:, :3]
        in_band = fund >= self._klo
        weak_any = _all(measures >= self._off, 1)
        strong = in_band & _all(measures >= self._on, 1)
        weak = in_band & weak_any
        if lazy and not _any(weak):
            return {"strong": strong, "weak": weak}
        # Parabolic interpolation of the peak on log power: sub-bin pitch for signatures.
        lg = np.log(g[:, PEAK_HALF_WIDTH - 1 : PEAK_HALF_WIDTH + 2] + EPS)
        a, b, c = lg[:, 0], lg[:, 1], lg[:, 2]
        den = a - 2 * b + c
        delta = np.minimum(np.maximum(0.5 * (a - c) / np.where(np.abs(den) > 1e-12, den, 1.0), -0.5), 0.5)  # np.clip, cheaper
        fund_hz = (k + delta) * (RATE / N_FFT) * fund / k
        voice = self._comb(power, k, kpow)
        h = power[rows, self._h2_index[fund]]
        h2 = 10 * np.log10((_sum(h[:, 1:], 1) + EPS) / (h[:, 0] + EPS))
        return {
            "hz": fund_hz,
            "tonality": measures[:, 0],
            "dominance": measures[:, 1],
            "snr": measures[:, 2],
            "margin": _min(measures - self._on, 1),
            "strong": strong,
            "weak": weak,
            "h2": h2,
            "level": db[:, 3],
            "voice": voice,
            "peak_hz": (k + delta) * (RATE / N_FFT),
            "sub": fund != k,
            "lowed": lowed,
            "weak_any": weak_any,
        }

    def _rows(self, n: int) -> np.ndarray:
        rows = self._rows_cache.get(n)
        if rows is None:
            rows = self._rows_cache[n] = np.arange(n)[:, None]
        return rows

    _nothing_kept: ClassVar[dict[int, np.ndarray]] = {}

    @classmethod
    def _none(cls, n: int) -> np.ndarray:
        """``n`` frames' False (session 18: kept per block size, read-only: no one writes them)."""
        nothing = cls._nothing_kept.get(n)
        if nothing is None:
            nothing = cls._nothing_kept[n] = np.zeros(n, bool)
            nothing.flags.writeable = False
        return nothing

    @classmethod
    def _nothing(cls, n: int) -> dict[str, np.ndarray]:
        nothing = cls._none(n)
        return {"strong": nothing, "weak": nothing}

    _keep_tables: ClassVar[dict[tuple[int, int, int], np.ndarray]] = {}  # by band and number of divisors

    def _keep_table(self) -> np.ndarray | None:
        """``_keep``'s row for every peak bin of the band (by its index in the band) and choice of fundamental (the
        bin itself, its k/2, k/3 or k/4 (k/5): ``_fund_choice``): the same formula, once per band for all detectors
        (session 18: one gather a block for a loop over its frames and their stacking).  None for a band so low
        that a fundamental may be bin 0 (``_keep`` then, frame by frame, as before)."""
        if self._keep_of is None and self._keep_tabled:
            key = (self._klo, self._khi, len(self._divisors))
            table = WhistleDetector._keep_tables.get(key)
            if table is None:
                wb = self._wide_bins[0]
                k = np.arange(self._klo, self._khi + 1)
                funds = np.concatenate([k[:, None], self._subs[k]], axis=1)
                table = np.array([[_elsewhere(wb, f, kk) for f in fs] for fs, kk in zip(funds.tolist(), k.tolist(), strict=True)])
                table.flags.writeable = False
                WhistleDetector._keep_tables[key] = table
            self._keep_of = table
        return self._keep_of

    def _keep(self, fund: np.ndarray, k: np.ndarray) -> np.ndarray:
        """Per frame, the bins of the wide range that count as "elsewhere": away from the peak k
        and from the fundamental's multiples (cached per (fund, k): the same few pairs recur)."""
        rows = []
        for f, kk in zip(fund.tolist(), k.tolist(), strict=True):
            m = self._keep_cache.get((f, kk))
            if m is None:
                m = _elsewhere(self._wide_bins[0], f, kk)
                if len(self._keep_cache) < 20_000:
                    self._keep_cache[(f, kk)] = m
            rows.append(m)
        return np.array(rows)

    def _comb(self, power: np.ndarray, k: np.ndarray, kpow: np.ndarray) -> np.ndarray:
        """How strongly the peak sits in a voice-like comb of lines (dB vs the peak).

        A voiced sound (speech, laughter) puts lines at k - d and k + d, d
        being its pitch (94-406 Hz here), with valleys between; a whistle,
        even a trilled one whose line is smeared, has no such neighbours.
        Returns, per frame, the strongest symmetric pair of neighbouring
        lines that stand above the valley between them and the peak.
        """
        n = len(power)
        got = power[self._rows(n), self._comb_index[k]]  # the lines' bins, then the valleys' (one gather)
        lines = _max(got[:, : len(_COMB_LINES)].reshape(n, 2, len(_COMB_D), 3), 3)
        valleys = got[:, len(_COMB_LINES) :].reshape(n, 2, len(_COMB_D))
        pair = np.where(_all(lines > 2 * valleys, 1), _min(lines, 1), 0.0)
        return 10 * np.log10(_max(pair, 1) / (kpow + EPS) + EPS)

    # -- decisions -------------------------------------------------------------
    def _frame_times(self, j: int) -> tuple[float, float]:
        # Frame j covers samples [j*HOP, j*HOP + N_FFT).  A frame "has" the
        # whistle once it fills about half of it, so the blow started between
        # this frame's centre and the previous one's.
        centre = (j * HOP + N_FFT / 2) / RATE
        return centre - HOP / (2 * RATE), centre + HOP / (2 * RATE)

    def _decide(self, f: dict[str, np.ndarray], first: int, now: float) -> list[Detection]:
        p = self.params
        out: list[Detection] = []
        hz, strong, weak = f["hz"], f["strong"], f["weak"]
        for i in range(len(hz)):
            j = first + i
            start, end = self._frame_times(j)
            blow = self._blow
            if blow is None:
                if strong[i] and start >= self._quiet_until:
                    self._blow = _Blow(start, j, j, end, [hz[i]], [f["h2"][i]], [f["level"][i]], [f["margin"][i]],
                                       [f["voice"][i]], [hz[i]], f["level"][i], [f["peak_hz"][i]], int(f["sub"][i]),
                                       lowed=int(f["lowed"][i]))
                elif weak[i] and start < self._quiet_until and self._tail_of_quiet(hz[i], j):
                    # The blow that was already reported is still going: stay quiet.
                    self._quiet_until, self._quiet_last = end + p.refractory_s, j
                continue
            # Same blow: near the pitch it has held, and not fallen far below
            # its loudest frame (a struck die rings and dies within a frame).
            held_hz = float(_median(blow.recent_hz))
            if self._sub_hold_ratio and not (weak[i] and abs(hz[i] - held_hz) <= p.max_jump * held_hz):
                self._hold_fundamental(f, i, held_hz)  # session 18: the frame read at the blow's fundamental, if it passes
            loud = f["level"][i] >= blow.loudest - p.max_drop_db
            hz_i, weak_i = hz[i], weak[i]
            own = weak_i and abs(hz_i - held_hz) <= p.max_jump * held_hz
            # Only before the report: after it, the blow's end only sets the quiet that follows, which
            # must not grow over the next blow's onset.
            if p.hold_harmonics and not blow.emitted and not own and (held_hz >= p.hold_above_hz
                                                                   or self._own_pitch(held_hz)):
                hz_i, weak_i = self._held_reading(f, i, held_hz, hz_i, weak_i)
            same = abs(hz_i - held_hz) <= p.max_jump * held_hz and loud
            if weak_i and same:
                blow.last_good, blow.last_end = j, end
                blow.recent_hz = [*blow.recent_hz[-2:], hz_i]
                blow.loudest = max(blow.loudest, f["level"][i])
                if blow.emitted:
                    continue  # reported: only its end matters now (and memory stays flat)
                blow.hz.append(hz_i)
                blow.peak_hz.append(f["peak_hz"][i])
                blow.subs += bool(f["sub"][i])
                blow.held += not own
                blow.h2.append(f["h2"][i])
                blow.level.append(f["level"][i])
                blow.margin.append(f["margin"][i])
                blow.voice.append(f["voice"][i])
                blow.strong += bool(strong[i])  # a frame the held reading kept is never strong
                blow.lowed += bool(strong[i] and f["lowed"][i])
                if (blow.last_end - blow.onset >= p.min_duration_s and blow.strong >= p.min_strong_frames
                        and blow.strong - blow.lowed >= p.low_own_strong and not self._impatient(blow)):
                    voiced = np.mean(np.asarray(blow.voice) > p.voice_db)
                    if voiced > p.max_voiced_fraction:
                        if len(blow.voice) < p.voice_patience_frames:
                            continue  # a whistle's attack can look voiced: hear a few more frames
                        # Speech or laughter holding a harmonic: drop it and
                        # stay quiet while it lasts.
                        self._drop(end)
                        continue
                    if p.ring_frames and self._ringing(blow.level):
                        if len(blow.level) < p.ring_frames:
                            continue  # a struck glass, or a blow's attack: hear a few more frames
                        # A ring (glass, cutlery): drop it and stay quiet while it lasts.
                        self._drop(end)
                        continue
                    if blow.lowed and p.held_ring_db and (self._struck(blow.level)
                                                          or level_slope(np.asarray(blow.level)) <= -p.held_ring_db):
                        # Some strong frames only thanks to low_line_db, and falling like a struck glass's
                        # partial: not yet (a blow's attack settles and it is heard then; a ring fades out).
                        continue
                    if blow.held and p.held_ring_db and self._struck(blow.level):
                        # Held through a flickering sub-line and falling since its start: a struck glass
                        # or plate whose partials flicker, not a blow.
                        self._drop(end)
                        continue
                    if self._wobbling_low(self._blow_pitches(blow)):
                        # A low line that wobbles: a baby, a rooster, a dog; not a whistle.
                        self._drop(end)
                        continue
                    if blow.loudest < p.min_level_db:
                        # Far quieter than the calibrated blows: another table's whistle.
                        self._drop(end)
                        continue
                    blow.emitted = True
                    out.append(self._detection(blow, now))
                continue
            if not blow.emitted:
                # Before it is reported a blow must be nearly continuous:
                # dice clicks and chopped speech come and go, a blow holds.
                blow.misses += 1
                if blow.misses > p.max_misses_before_detection:
                    self._blow = None
            elif j - blow.last_good > p.max_gap_frames:
                if blow.emitted:
                    self._quiet_until = blow.last_end + p.refractory_s
                    self._quiet_hz, self._quiet_last = float(_median(blow.recent_hz)), blow.last_good
                self._blow = None
        return out

    def _drop(self, end: float) -> None:
        """Drop the blow under way (not a whistle) and stay quiet while its sound lasts, at any pitch."""
        self._quiet_until, self._quiet_hz = end + self.params.refractory_s, None
        self._blow = None

    def _ringing(self, level: list[float]) -> bool:
        """Loudest at the start and falling along a straight line in dB since: a struck glass's ring.
        A blow's attack that overshoots and settles falls too, but ever more slowly: its later half
        is not falling ``ring_decay_db`` a frame any more."""
        p = self.params
        top = 0 if level[0] >= level[1] else 1
        after = np.asarray(level[top:])
        if len(after) < 2 or after[1:].max() > after[0]:
            return False
        slope = level_slope(after)
        late = after[(len(after) - 1) // 2 :]
        return slope <= -p.ring_decay_db and level_slope(late) <= -p.ring_decay_db and bool(
            np.abs(after - after.mean() - slope * _centred(len(after))).max() <= p.ring_jitter_db)

    def _held_reading(self, f: dict[str, np.ndarray], i: int, held_hz: float, hz: float,
                      weak: bool) -> tuple[float, bool]:
        """Frame ``i``'s (pitch, weak) read as the blow under way (``held_hz``) would read it: its loudest
        line is the held pitch or a 2nd-4th multiple of it, whatever sub-harmonic line the frame alone took
        for the fundamental (which may lie under the band).  Otherwise the frame's own reading.  Such a
        frame keeps the blow going but never counts as strong: the blow's strong frames are its own
        readings (music's notes held so gave 10 % more false alarms, 3 % so)."""
        peak = float(f["peak_hz"][i])
        for d in (1, 2, 3, 4):
            if abs(peak / d - held_hz) <= self.params.max_jump * held_hz:
                return peak / d, bool(f["weak_any"][i])
        return hz, weak

    def _hold_fundamental(self, f: dict[str, np.ndarray], i: int, held_hz: float) -> None:
        """Session 18 (``sub_hold_db``): frame ``i`` measured with the blow's fundamental ``held_hz`` as its own, when
        that is a line at 1/2, 1/3 or 1/4 (1/5) of the frame's peak that the harmonic check would take but for its floor
        test (within ``sub_harmonic_db`` of the peak, 15 dB over the band's median, and ``sub_over_floor_db`` less
        ``sub_hold_db`` over its floor).  If the frame passes the loose thresholds so, its measures in ``f`` become
        those (pitch, weak, strong, margin, h2); otherwise ``f`` is left as it was."""
        p = self.params
        power = f["power"][i]
        band = power[self._klo : self._khi + 1]
        k = int(band.argmax()) + self._klo
        peak_hz = float(f["peak_hz"][i])
        d = next((d for d in self._divisors.tolist() if abs(peak_hz / d - held_hz) <= p.max_jump * held_hz), 0)
        if not d:
            return
        c = int(self._subs[k, d - 2])
        line = power[c - 1 : c + 2].max()
        b = c - 1 + int(power[c - 1 : c + 2].argmax())
        median = np.partition(band, len(band) // 2)[len(band) // 2]
        if (c < self._klo or line < power[k] * self._sub_ratio or line < SUB_LINE_OVER_MEDIAN * median
                or line < self._noise[b] * self._sub_hold_ratio):
            return
        wide = power[self._wide] * self._keep(np.array([c]), np.array([k]))[0]  # dominance, as features() takes it
        if p.low_line_db and c >= self._low_above:
            wide = wide * np.where(self._wide_bins[0] < c * p.low_under, self._low_weight, 1.0)
        measures = np.array([f["tonality"][i], 10 * np.log10(power[k] / (wide.max() + EPS) + EPS), f["snr"][i]])
        if not (measures >= self._off).all():
            return
        h = power[self._h2_index[c]]
        f["hz"][i], f["weak"][i], f["strong"][i] = peak_hz * c / k, True, bool((measures >= self._on).all())
        f["margin"][i], f["sub"][i] = (measures - self._on).min(), True
        f["h2"][i] = 10 * np.log10((h[1:].sum() + EPS) / (h[0] + EPS))

    def _blow_pitches(self, blow: _Blow) -> list[float]:
        """The blow's pitch, frame by frame: its loudest line's, unless a sub-harmonic line was the
        fundamental in at least ``sub_majority`` of its frames or the loudest line moved between
        harmonics (then the frames' fundamentals, as read against the held pitch)."""
        p = self.params
        if not p.hold_harmonics or blow.subs >= p.sub_majority * len(blow.hz):
            return blow.hz
        peaks = np.asarray(blow.peak_hz)
        centre = float(np.median(peaks))
        # The loudest line must be one line (a toy's loudest harmonic may change from frame to frame).
        return blow.peak_hz if bool((np.abs(peaks - centre) <= p.max_jump * centre).all()) else blow.hz

    def _struck(self, level: list[float]) -> bool:
        """Loudest in its first HELD_RING_TOP frames, at least 3 frames from there, and falling ``held_ring_db``
        a frame or more since (least squares), over the later half too: a struck sound (no straight-line
        test: flicker breaks it)."""
        top, slope, late = decay_slopes(np.asarray(level))
        d = self.params.held_ring_db
        return top < HELD_RING_TOP and len(level) - top >= 3 and slope <= -d and late <= -d

    def _impatient(self, blow: _Blow) -> bool:
        """Whether a blow low in pitch (``patient_below_hz``) would be reported before its
        ``patient_strong_frames`` strong frames."""
        p = self.params
        return (p.patient_below_hz > 0
                and (blow.strong < p.patient_strong_frames or blow.last_end - blow.onset < p.patient_s)
                and float(_median(blow.hz)) < p.patient_below_hz)

    def _wobbling_low(self, hz: list[float]) -> bool:
        """Under ``steady_below_hz``, whether the blow's pitch wanders more than ``steady_cents`` (median
        absolute deviation: the first frame, half in the blow, must not count, as it does in the std
        ``spread_cents``, where a pure 700 Hz tone scores 43 cents)."""
        p = self.params
        centre = float(_median(hz))
        if centre >= p.steady_below_hz:
            return False
        limit = p.own_wobble_cents if self._own_pitch(centre) else p.steady_cents
        return float(np.median(np.abs(1200 * np.log2(np.asarray(hz) / centre)))) > limit

    def _own_pitch(self, hz: float) -> bool:
        """Whether ``hz`` lies in one of the table's own whistles' pitch windows (``own_hz``)."""
        return any(lo <= hz <= hi for lo, hi in self._own_windows)

    def _tail_of_quiet(self, hz: float, j: int) -> bool:
        """Whether a weak frame during the refractory period belongs to the sound it follows:
        near the reported blow's pitch or a harmonic relation of it (the harmonic check can
        flip an octave), or following on within ``QUIET_FOLLOW_FRAMES`` from the blow or a
        frame that extended the quiet (a sound still going, gliding: a rooster, a baby).
        A lone weak noise frame at another pitch must not stretch the quiet over the next
        blow's onset (noise seed 10 in tests/calibration/test_whistle_calibration.py)."""
        if self._quiet_hz is None or j - self._quiet_last <= QUIET_FOLLOW_FRAMES:
            return True
        tol = self.params.max_jump
        return any(abs(hz - m * self._quiet_hz) <= tol * m * self._quiet_hz for m in _QUIET_RELATIONS)

    def _detection(self, blow: _Blow, now: float) -> Detection:
        margin = float(np.median(blow.margin))
        confidence = float(np.clip(0.5 + 0.5 * np.tanh((margin + 3.0) / 8.0), 0.0, 1.0))
        hz = np.asarray(self._blow_pitches(blow))
        features = {
            "peak_hz": float(np.median(hz)),
            "spread_cents": float(np.std(1200 * np.log2(hz / np.median(hz)))),
            "h2_db": float(np.median(blow.h2)),
            "am_db": float(np.std(blow.level)),
            "level_db": float(blow.loudest),
        }
        det = Detection(now, blow.onset, blow.last_end, features["peak_hz"], confidence, features=features)
        if self.attribute is not None:
            who, conf = self.attribute(features)
            det = replace(det, blower=who, blower_confidence=conf)
        return det

    def _track_noise(self, power: np.ndarray) -> None:
        # One update per block.  During a blow the floor is frozen so the blow
        # cannot raise it, but only for ``max_blow_s``: a tone that goes on
        # longer (a fan, a fridge starting) is the room, and must be learned
        # or it would hold the detector in one endless "blow".
        p = self.params
        if self._blow is not None and self.time - self._blow.onset < p.max_blow_s:
            return
        log_noise, over, rate = self._floor_rates(power, p.noise_rise_s, p.noise_fall_s)
        self._noise = np.exp(log_noise + rate * over)


def detect(samples: np.ndarray, detector: WhistleDetector | None = None, block: int = 1024) -> list[Detection]:
    """Run a whole 16 kHz signal through a detector in live-sized blocks."""
    det = detector or WhistleDetector()
    out: list[Detection] = []
    for i in range(0, len(samples), block):
        out.extend(det.process(samples[i : i + block]))
    return out

