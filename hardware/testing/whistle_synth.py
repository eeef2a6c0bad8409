"""Synthetic whistle scenes for what the real sets lack (recipes in docs/whistle.md).

Every scene is a few seconds of background with at most one blow at a known
time, so recall, precision and latency can be scored exactly.  Families:

- ``real_in_noise``: a 0.2-0.5 s piece of a *real* blow (cut from a real
  recording) mixed into *real* noise (ESC-10 clips, the robot's non-whistle
  clips) at -10 to +20 dB SNR;
- ``pea_trill``: trilled pea whistles (rattle 20-40 Hz, frequency swing
  +-200-800 Hz, the pea's chop on the loudness, breath) in hall noise;
- ``toy``: two-tone toys (two pitches at once, or one after the other) and
  harmonic toys (600-2000 Hz fundamentals, harmonics up to 2x as loud);
- ``hum``: blows under mains hum, a motor and rumble below 1 kHz up to 20 dB
  louder than the whistle.

SNR is the blow's RMS against the background's RMS (over the whole scene,
full band): "10 dB under" means the background carries ten times the power.
Hall noise is a crowd (several espeak-ng voices at once, when installed;
shaped noise otherwise), motors and hum below 1 kHz, and pink noise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from hardware.signals import RATE, envelope, place

from .audio import noise, pink_noise, speech

HOP = 256


@dataclass(frozen=True)
class Scene:
    family: str
    samples: np.ndarray
    blows: tuple[tuple[float, float], ...]  # (onset, offset) in seconds
    snr_db: float | None = None
    kind: str = ""
    blow_snrs: tuple[float, ...] = ()  # each blow's SNR, where the scene holds many (a long recording)


def blow_piece(x: np.ndarray, onset: float | None = None, offset: float | None = None) -> np.ndarray:
    """The blow in a real whistle recording: the labelled span, or (unlabelled)
    the longest run of frames whose 1-6 kHz power is within 12 dB of its loudest."""
    if onset is not None and offset is not None:
        return x[round(onset * RATE) : round(offset * RATE)].copy()
    frames = np.lib.stride_tricks.sliding_window_view(x, 512)[::HOP]
    power = np.abs(np.fft.rfft(frames * np.hanning(512), axis=1)) ** 2
    band = 10 * np.log10(power[:, 32:193].sum(axis=1) + 1e-20)
    on = band >= band.max() - 12
    best, run, start = (0, 0), 0, 0
    for i, v in enumerate(on):
        run = run + 1 if v else 0
        if run == 1:
            start = i
        if run > best[1] - best[0]:
            best = (start, i + 1)
    return x[best[0] * HOP : best[1] * HOP + 512].copy()


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64))) + 1e-12)


def mix(background: np.ndarray, blow: np.ndarray, at: float, snr_db: float) -> tuple[float, float]:
    """Add ``blow`` at ``at`` s, scaled to ``snr_db`` over the background's RMS; returns (onset, offset).

    The whole background's RMS, not just the samples the blow covers: real
    clips have stretches of digital silence, where a local SNR means nothing."""
    i = round(at * RATE)
    under = background[i : i + len(blow)]
    blow = blow[: len(under)] * (rms(background) * 10 ** (snr_db / 20) / rms(blow[: len(under)]))
    place(background, blow.astype(np.float32), at)
    return at, at + len(blow) / RATE


def cut(piece: np.ndarray, rng: np.random.Generator, lo: float = 0.2, hi: float = 0.5) -> np.ndarray:
    """A 0.2-0.5 s blow from a longer real one (short fades, so the cut does not click)."""
    n = min(len(piece), round(rng.uniform(lo, hi) * RATE))
    s = int(rng.integers(0, len(piece) - n + 1))
    return (piece[s : s + n] * envelope(n, RATE, 0.01, 0.02)).astype(np.float32)


# -- the sounds ---------------------------------------------------------------------------


def pea_trill(rng: np.random.Generator, hz: float | None = None, duration: float | None = None) -> np.ndarray:
    """A pea whistle: the pea swings the pitch by +-200-800 Hz and chops the loudness at 20-40 Hz."""
    hz = hz or float(rng.uniform(1800, 4200))
    duration = duration or float(rng.uniform(0.2, 0.5))
    n = round(duration * RATE)
    t = np.arange(n) / RATE
    rattle = rng.uniform(20, 40) * (1 + 0.1 * np.sin(2 * np.pi * rng.uniform(1, 4) * t))  # the pea never spins evenly
    rphase = 2 * np.pi * np.cumsum(rattle) / RATE
    swing = rng.uniform(200, 800)
    inst = hz + swing * np.sin(rphase)
    loud = 1 - rng.uniform(0.3, 0.9) * 0.5 * (1 + np.sin(rphase + rng.uniform(0, np.pi)))
    y = loud * np.sin(2 * np.pi * np.cumsum(inst) / RATE)
    y += 0.3 * rng.uniform(0, 1) * loud * np.sin(4 * np.pi * np.cumsum(inst) / RATE)  # a little 2nd harmonic
    y += 0.05 * rng.standard_normal(n)  # breath
    return (y * envelope(n, RATE, 0.015, 0.03)).astype(np.float32)


def pea_whistle(rng: np.random.Generator, hz: float, swing: float, rattle: float) -> np.ndarray:
    """One blow of a particular pea whistle (session 34's table of trilled whistles): its pitch ``hz``, its pea's
    swing and rattle its own, moving a little blow to blow (pitch +-1 %, swing +-15 %, rattle +-10 %); the loudness
    chopped 30 % by the pea, 0.25-0.5 s, breath.  ``pea_trill`` draws a new whistle at every blow instead."""
    n = round(float(rng.uniform(0.25, 0.5)) * RATE)
    t = np.arange(n) / RATE
    rate = rattle * rng.uniform(0.9, 1.1) * (1 + 0.1 * np.sin(2 * np.pi * rng.uniform(1, 4) * t))
    phase = 2 * np.pi * np.cumsum(rate) / RATE
    inst = hz * rng.uniform(0.99, 1.01) + swing * rng.uniform(0.85, 1.15) * np.sin(phase)
    loud = 1 - 0.3 * (1 + np.sin(phase + rng.uniform(0, np.pi)))
    y = loud * np.sin(2 * np.pi * np.cumsum(inst) / RATE) + 0.05 * rng.standard_normal(n)
    return (y * envelope(n, RATE, 0.015, 0.03)).astype(np.float32)


def rattled(piece: np.ndarray, rng: np.random.Generator, peak_hz: float = 3000.0) -> np.ndarray:
    """A real blow trilled as a pea would trill it: time-warped so its pitch swings +-200-800 Hz at a
    20-40 Hz rattle, and its loudness chopped in step (a recipe apart from ``pea_trill``'s pure tone,
    for training: the rattle's spec, not the eval's generator)."""
    n = len(piece)
    t = np.arange(n) / RATE
    rattle = rng.uniform(20, 40) * (1 + 0.1 * np.sin(2 * np.pi * rng.uniform(1, 4) * t))
    rphase = 2 * np.pi * np.cumsum(rattle) / RATE
    depth = min(0.3, rng.uniform(200, 800) / max(peak_hz, 1000.0))
    rate = 1 + depth * np.sin(rphase)  # every component's pitch scales with the warp's speed
    where = np.cumsum(rate) - rate[0]
    where = where[where <= n - 1]
    y = np.interp(where, np.arange(n), piece)
    loud = 1 - rng.uniform(0.3, 0.9) * 0.5 * (1 + np.sin(rphase[: len(y)] + rng.uniform(0, np.pi)))
    return (y * loud * envelope(len(y), RATE, 0.01, 0.02)).astype(np.float32)


def peak_hz(x: np.ndarray) -> float:
    """The loudest frequency of a blow (1-6 kHz)."""
    f = np.fft.rfftfreq(len(x), 1 / RATE)
    p = np.abs(np.fft.rfft(x * np.hanning(len(x))))
    band = (f >= 1000) & (f <= 6000)
    return float(f[band][np.argmax(p[band])])


def harmonic_toy(rng: np.random.Generator, hz: float | None = None, duration: float | None = None) -> np.ndarray:
    """A toy whistle: a 600-2000 Hz fundamental with 2-4 harmonics, the 2nd sometimes the loudest."""
    hz = hz or float(np.exp(rng.uniform(np.log(600), np.log(2000))))
    duration = duration or float(rng.uniform(0.2, 0.5))
    n = round(duration * RATE)
    t = np.arange(n) / RATE
    wobble = 1 + rng.uniform(0.002, 0.01) * np.sin(2 * np.pi * rng.uniform(3, 7) * t)
    phase = 2 * np.pi * hz * np.cumsum(wobble) / RATE
    amps = [1.0, *rng.uniform(0.1, 2.0, int(rng.integers(2, 5)))]
    y = sum(a * np.sin((k + 1) * phase) for k, a in enumerate(amps) if (k + 1) * hz < 7500)
    y = y / sum(amps) + 0.03 * rng.standard_normal(n)
    return (y * envelope(n, RATE, 0.015, 0.03)).astype(np.float32)


def two_tone(rng: np.random.Generator, duration: float | None = None) -> np.ndarray:
    """A two-tone toy: two pitches 15-50 % apart, sounding together (one 0-10 dB weaker) or one after the other."""
    hz = float(np.exp(rng.uniform(np.log(800), np.log(3000))))
    other = hz * rng.uniform(1.15, 1.5)
    duration = duration or float(rng.uniform(0.25, 0.5))
    n = round(duration * RATE)
    t = np.arange(n) / RATE
    if rng.random() < 0.5:
        y = np.sin(2 * np.pi * hz * t) + 10 ** (-rng.uniform(0, 10) / 20) * np.sin(2 * np.pi * other * t)
    else:
        half = n // 2
        f = np.where(np.arange(n) < half, hz, other)
        y = np.sin(2 * np.pi * np.cumsum(f) / RATE)
    y = y + 0.03 * rng.standard_normal(n)
    return (y * envelope(n, RATE, 0.015, 0.03)).astype(np.float32)


def low_rumble(seconds: float, rng: np.random.Generator) -> np.ndarray:
    """Hum and motors below 1 kHz: mains (50/60 Hz and harmonics), a strong 0.8-1 kHz hum line,
    a motor whose speed wanders (harmonics of 80-200 Hz up to 1 kHz), and low-passed rumble."""
    n = round(seconds * RATE)
    t = np.arange(n) / RATE
    mains = rng.choice([50.0, 60.0])
    y = sum(rng.uniform(0.1, 1.0) / k * np.sin(2 * np.pi * mains * k * t + rng.uniform(0, 6)) for k in range(1, 8))
    y = y + rng.uniform(0.3, 1.0) * np.sin(2 * np.pi * rng.uniform(750, 1000) * t)
    speed = rng.uniform(80, 200) * (1 + 0.05 * np.sin(2 * np.pi * rng.uniform(0.2, 1.5) * t))
    phase = 2 * np.pi * np.cumsum(speed) / RATE
    y = y + sum(rng.uniform(0.1, 0.6) * np.sin(k * phase) for k in range(1, 8) if 200 * k < 1000)
    rumble = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / RATE)
    rumble[f > 1000] = 0
    y = y + 2 * np.fft.irfft(rumble, n) / np.sqrt(np.mean(np.abs(rumble) ** 2) / n + 1e-12)
    return (y / rms(y)).astype(np.float32)


class HallNoise:
    """A noisy hall: a crowd, hum and motors below 1 kHz, and pink noise (unit RMS per piece)."""

    def __init__(self, seed: int = 0, voices: Sequence[np.ndarray] = ()) -> None:
        self.rng = np.random.default_rng(seed)
        self.voices = list(voices)

    @classmethod
    def with_speech(cls, lines: Sequence[str], seed: int = 0) -> HallNoise:
        from .audio import espeak_available

        voices = []
        if espeak_available():
            for i, line in enumerate(lines):
                for voice, pitch in (("en", 30), ("en+f3", 70), ("en-us+m3", 45)):
                    voices.append(speech(line, voice=voice, pitch=pitch + i))
        return cls(seed, voices)

    def crowd(self, seconds: float) -> np.ndarray:
        n = round(seconds * RATE)
        y = np.zeros(n, np.float32)
        if not self.voices:
            return pink_noise(seconds, amp=1.0, seed=int(self.rng.integers(1 << 30)))
        for _ in range(6):
            v = self.voices[int(self.rng.integers(len(self.voices)))]
            reps = np.tile(v, n // len(v) + 2)
            s = int(self.rng.integers(len(v)))
            y += reps[s : s + n] * self.rng.uniform(0.3, 1.0)
        return y / rms(y)

    def piece(self, seconds: float) -> np.ndarray:
        r = self.rng
        y = (self.crowd(seconds) * r.uniform(0.3, 1.0) + low_rumble(seconds, r) * r.uniform(0.5, 2.0)
             + pink_noise(seconds, amp=r.uniform(0.1, 0.5), seed=int(r.integers(1 << 30))))
        return (y / rms(y)).astype(np.float32)


# -- scenes ---------------------------------------------------------------------------------


def scene(family: str, background: np.ndarray, blow: np.ndarray | None, snr_db: float, rng: np.random.Generator,
          level_db: float | None = None, kind: str = "") -> Scene:
    """``blow`` placed 0.8-1.6 s into ``background`` at ``snr_db``; the whole scene at ``level_db`` dBFS RMS."""
    x = np.array(background, np.float32, copy=True)
    level_db = float(rng.uniform(-45, -20)) if level_db is None else level_db
    x *= 10 ** (level_db / 20) / rms(x)
    blows: tuple[tuple[float, float], ...] = ()
    if blow is not None:
        blows = (mix(x, blow, float(rng.uniform(0.8, 1.6)), snr_db),)
    peak = float(np.max(np.abs(x)))
    if peak > 0.99:  # a gain set by `whistle listen` keeps the recording unclipped
        x *= 0.99 / peak
    return Scene(family, x, blows, snr_db if blow is not None else None, kind)


def fit(noise: np.ndarray, seconds: float, rng: np.random.Generator) -> np.ndarray:
    """``seconds`` of a noise clip (looped if short), from a random start."""
    n = round(seconds * RATE)
    reps = np.tile(noise, n // max(1, len(noise)) + 2)
    s = int(rng.integers(0, max(1, len(noise))))
    return reps[s : s + n]


def wizard_take(make: Callable[[], np.ndarray]) -> np.ndarray:
    """The calibration wizard's recording of a whistle: three blows (``make``) over faint noise, with pauses."""
    calib = noise(0.4, 0.003, seed=1)
    for i in range(3):
        b = make() * 0.2
        b = b + noise(len(b) / RATE, 0.003, seed=10 + i)[: len(b)]
        calib = np.concatenate([calib, b, noise(0.6, 0.003, seed=2)])
    return calib


def warmed(scenes: Sequence[Scene], hall: HallNoise, seconds: float) -> list[Scene]:
    """Each scene after ``seconds`` of ``hall`` at its own level (its first 0.5 s, before any blow, set the level),
    the blows moved with it: a detector reset before it hears the scene with its floor risen to the noise, as hours
    into a game, not just after a start (session 30)."""
    out = []
    for s in scenes:
        pre = hall.piece(seconds).astype(np.float32)
        pre *= rms(s.samples[: RATE // 2]) / rms(pre)
        blows = tuple((a + seconds, b + seconds) for a, b in s.blows)
        out.append(replace(s, samples=np.concatenate([pre, s.samples]), blows=blows))
    return out


def long_recording(pieces: Sequence[np.ndarray], noises: Sequence[np.ndarray], minutes: float, rng: np.random.Generator,
                   family: str = "long") -> tuple[Scene, list[float]]:
    """One long recording (session 30): ``minutes`` of noise clips (5 s each, 50 ms cross-fades, each at the
    recording's level +-3 dB, that level drawn from -40..-25 dBFS), a blow from ``pieces`` every 6-9 s from 3 s in at
    -10..+20 dB over the RMS of the 3 s around it (a window starting 0.8-1.6 s before the blow, as a 3 s scene's).
    The scene (its blows' spans and SNRs) and where each blow's 3 s window starts."""
    n = round(minutes * 60 * RATE)
    level = float(rng.uniform(-40, -25))
    fade = round(0.05 * RATE)
    ramp = np.ones(5 * RATE, np.float32)
    ramp[:fade], ramp[-fade:] = np.linspace(0, 1, fade), np.linspace(1, 0, fade)
    x = np.zeros(n + 5 * RATE, np.float32)
    pos = 0
    while pos < n:
        seg = fit(noises[int(rng.integers(len(noises)))], 5.0, rng).astype(np.float32)
        seg *= 10 ** ((level + rng.uniform(-3, 3)) / 20) / rms(seg)
        x[pos : pos + len(seg)] += seg * ramp[: len(seg)]
        pos += len(seg) - fade
    x = x[:n]
    spans, snrs, starts = [], [], []
    t = 3.0
    while t + 3 < n / RATE:
        blow = cut(pieces[int(rng.integers(len(pieces)))], rng)
        w0 = t - float(rng.uniform(0.8, 1.6))
        around = x[round(w0 * RATE) : round((w0 + 3) * RATE)]
        snr = float(rng.uniform(-10, 20))
        b = blow * (rms(around) * 10 ** (snr / 20) / rms(blow))
        i = round(t * RATE)
        x[i : i + len(b)] += b
        spans.append((t, t + len(b) / RATE))
        snrs.append(snr)
        starts.append(w0)
        t += float(rng.uniform(6, 9))
    peak = float(np.abs(x).max())
    if peak > 0.99:
        x *= 0.99 / peak
    return Scene(family, x, tuple(spans), blow_snrs=tuple(snrs)), starts


def real_in_noise(pieces: Sequence[np.ndarray], noises: Sequence[np.ndarray], count: int, seed: int,
                  snr_range: tuple[float, float] = (-10.0, 20.0), seconds: float = 3.0) -> list[Scene]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        blow = cut(pieces[int(rng.integers(len(pieces)))], rng)
        bg = fit(noises[int(rng.integers(len(noises)))], seconds, rng)
        out.append(scene("real-in-noise", bg, blow, float(rng.uniform(*snr_range)), rng))
    return out


def synthetic(family: str, count: int, seed: int, hall: HallNoise, snr_range: tuple[float, float] = (-10.0, 20.0),
              seconds: float = 3.0) -> list[Scene]:
    """Scenes of one synthetic family: ``pea-trill``, ``toy`` or ``hum``."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        snr = float(rng.uniform(*snr_range))
        if family == "pea-trill":
            blow, kind, bg = pea_trill(rng), "trill", hall.piece(seconds)
        elif family == "toy":
            kind = "two-tone" if rng.random() < 0.5 else "harmonic"
            blow = two_tone(rng) if kind == "two-tone" else harmonic_toy(rng)
            bg = hall.piece(seconds)
        elif family == "hum":
            kind = ["tone", "trill", "toy"][int(rng.integers(3))]
            hz = float(rng.uniform(1500, 4000))
            dur = float(rng.uniform(0.2, 0.5))
            if kind == "tone":
                n = round(dur * RATE)
                blow = (np.sin(2 * np.pi * hz * np.arange(n) / RATE) * envelope(n, RATE)).astype(np.float32)
            elif kind == "trill":
                blow = pea_trill(rng, hz, dur)
            else:
                blow = harmonic_toy(rng, hz / 2, dur)
            # Nothing but rumble, hum and motors, and a little room noise.
            bg = low_rumble(seconds, rng) + pink_noise(seconds, amp=0.03, seed=int(rng.integers(1 << 30)))
        else:
            raise ValueError(f"unknown synthetic family {family!r}")
        out.append(scene(family, bg, blow, snr, rng, kind=kind))
    return out


# -- negatives of other families: music, babble, laughter, kitchen clatter ------------------
# Recipes apart from the table noise's (``audio.music``, ``audio.laughter``, its six sentences)
# and the hall's crowd, so the verifier can be trained and judged with each held out.

BABBLE_LINES = (
    "Did anyone see where the blue sheep went? It was on the bridge a minute ago.",
    "I will trade you two wool for one hay, that is my last offer.",
    "Hang on, let me read the card again, it says roll twice.",
    "Who wants another cup of tea before we start the next round?",
    "That was not fair at all, you looked at my cards.",
    "Right, everybody ready? Go on then, your move.",
)
BABBLE_VOICES = (("en+f2", 55), ("en+m4", 40), ("en-us+f5", 75), ("en-gb-scotland+m7", 35), ("en+f1", 65), ("en-029+m2", 45))
LAUGH_LINES = ("ha ha ha ha ha", "hee hee hee hee", "ho ho ho ho", "ha haa ha ha haaa", "hahahaha", "heh heh heh heh")
NEGATIVE_FAMILIES = ("music", "babble", "laughter", "clatter")


def _note(hz: float, n: int, kind: str, rng: np.random.Generator) -> np.ndarray:
    """One note of a harmonic instrument (``organ``, ``clarinet``, ``strings``, ``pluck``) or a ``flute``."""
    t = np.arange(n) / RATE
    vib = 1 + (0.006 if kind in ("strings", "flute") else 0.0) * np.sin(2 * np.pi * rng.uniform(4.5, 6.5) * t)
    phase = 2 * np.pi * hz * np.cumsum(vib) / RATE
    if kind == "flute":  # nearly a sine, a weak 2nd harmonic and breath: the hardest non-whistle
        y = np.sin(phase) + 0.15 * np.sin(2 * phase) + 0.03 * rng.standard_normal(n)
        env = np.minimum(1, t / 0.04) * np.minimum(1, (t[-1] - t + 1e-3) / 0.05)
        return y * env
    ks = [k for k in range(1, 13) if k * hz < 7500]
    if kind == "clarinet":
        amps = [1 / k if k % 2 else 0.08 / k for k in ks]
    elif kind == "organ":
        amps = [rng.uniform(0.3, 1.0) / np.sqrt(k) for k in ks]
    else:  # strings and pluck: a sawtooth-like series
        amps = [1 / k for k in ks]
    y = sum(a * np.sin(k * phase) for k, a in zip(ks, amps, strict=True))
    if kind == "pluck":
        env = np.exp(-t * rng.uniform(3, 8))
    else:
        env = np.minimum(1, t / 0.03) * np.minimum(1, (t[-1] - t + 1e-3) / 0.06)
    return y * env


def music_piece(seconds: float, rng: np.random.Generator) -> np.ndarray:
    """A few seconds of music: chords (organ, strings, plucked) and a melody (clarinet, strings or a
    flute-like sine 1-3 kHz) over them, in a random key and tempo (unit RMS)."""
    n = round(seconds * RATE)
    y = np.zeros(n)
    root = float(rng.uniform(110, 260))
    major = np.array([0, 2, 4, 5, 7, 9, 11, 12, 14, 16, 17, 19])
    beat = float(rng.uniform(0.25, 0.6))
    chord_kind = ["organ", "strings", "pluck"][int(rng.integers(3))]
    melody_kind = ["clarinet", "strings", "flute", "flute"][int(rng.integers(4))]
    mel_root = root * (2 ** int(rng.integers(2, 4)) if melody_kind == "flute" else 2)  # flute notes 0.9-3 kHz
    at = 0
    while at < n:
        length = min(n - at, round(beat * int(rng.integers(2, 5)) * RATE))
        deg = int(rng.integers(0, 7))
        for d in (deg, deg + 2, deg + 4):
            place(y, (0.3 * _note(root * 2 ** (major[d % 12] / 12), length, chord_kind, rng)).astype(np.float32), at / RATE)
        at += length
    at = round(rng.uniform(0, beat) * RATE)
    while at < n:
        length = min(n - at, round(beat * rng.choice([0.5, 1, 1, 2]) * RATE))
        if rng.random() < 0.85:
            hz = mel_root * 2 ** (major[int(rng.integers(0, len(major)))] / 12)
            place(y, (rng.uniform(0.5, 1.0) * _note(hz, length, melody_kind, rng)).astype(np.float32), at / RATE)
        at += length
    return (y / rms(y)).astype(np.float32)


def clatter_piece(seconds: float, rng: np.random.Generator) -> np.ndarray:
    """Kitchen clatter: cutlery, glasses and plates struck (inharmonic ringing modes 0.5-7 kHz that
    decay in 20-400 ms: a clinked glass rings like a short whistle), pans, and the rattle between."""
    n = round(seconds * RATE)
    y = np.zeros(n)
    for at in rng.uniform(0, seconds, rng.poisson(rng.uniform(2, 8) * seconds)):
        kind = ["glass", "cutlery", "plate", "pan"][int(rng.integers(4))]
        f0, ratios, decay = {
            "glass": (rng.uniform(1500, 4500), GLASS_MODES, rng.uniform(0.15, 0.4)),
            "cutlery": (rng.uniform(2000, 6000), (1.0, 2.76, 5.40), rng.uniform(0.02, 0.12)),
            "plate": (rng.uniform(800, 2500), (1.0, 1.59, 2.14, 2.65, 3.5), rng.uniform(0.05, 0.2)),
            "pan": (rng.uniform(300, 900), (1.0, 1.5, 2.0, 2.9, 3.8), rng.uniform(0.2, 0.6)),
        }[kind]
        s = struck(f0, ratios, decay, rng, seconds)
        place(y, (rng.uniform(0.2, 1.0) * s).astype(np.float32), float(at))
    return (y / rms(y)).astype(np.float32)


GLASS_MODES = (1.0, 2.32, 4.25)


def struck(f0: float, ratios: tuple[float, ...], decay: float, rng: np.random.Generator, longest: float = 10.0) -> np.ndarray:
    """One strike: inharmonic modes ``f0 x ratios`` ringing with time constant ``decay`` (the higher
    faster), each at a random strength and phase, after a 5 ms click; 4 time constants long."""
    m = round(min(decay * 4, longest) * RATE)
    t = np.arange(m) / RATE
    s = sum(rng.uniform(0.3, 1.0) * np.exp(-t / (decay / r ** 0.5)) * np.sin(2 * np.pi * f0 * r * t + rng.uniform(0, 6))
            for r in ratios if f0 * r < 7800)
    click = min(m, 80)
    s[:click] += rng.standard_normal(click) * np.exp(-np.arange(click) / 15)
    return s


class OtherNoise:
    """Negatives of the four families (``NEGATIVE_FAMILIES``), a piece at a time, over pink room noise."""

    def __init__(self, seed: int = 0) -> None:
        from .audio import espeak_available

        self.rng = np.random.default_rng(seed)
        self.voices: list[np.ndarray] = []
        self.laughs: list[np.ndarray] = []
        if espeak_available():
            for i, (voice, pitch) in enumerate(BABBLE_VOICES):
                for line in BABBLE_LINES[i % 2 :: 2]:
                    self.voices.append(speech(line, voice=voice, pitch=pitch, speed=150 + 10 * i))
                for j, line in enumerate(LAUGH_LINES[i % 3 :: 3]):
                    self.laughs.append(speech(line, voice=voice, pitch=min(99, pitch + 20 + 10 * j), speed=220))

    def piece(self, family: str, seconds: float) -> np.ndarray:
        r = self.rng
        n = round(seconds * RATE)
        if family == "music":
            y = music_piece(seconds, r)
        elif family == "clatter":
            y = clatter_piece(seconds, r)
        elif family in ("babble", "laughter"):
            pool = self.voices if family == "babble" else self.laughs
            if not pool:
                return pink_noise(seconds, amp=1.0, seed=int(r.integers(1 << 30)))
            y = np.zeros(n, np.float32)
            for _ in range(int(r.integers(2, 5)) if family == "babble" else int(r.integers(1, 4))):
                v = pool[int(r.integers(len(pool)))]
                at = float(r.uniform(-len(v) / RATE / 2, seconds - 0.3))
                part = v[max(0, round(-at * RATE)) :] * r.uniform(0.4, 1.0)
                place(y, part.astype(np.float32), max(0.0, at))
            if rms(y) < 1e-6:
                y = pink_noise(seconds, amp=1.0, seed=int(r.integers(1 << 30)))
            y = y / rms(y)
        else:
            raise ValueError(f"unknown negative family {family!r}")
        room = pink_noise(seconds, amp=10 ** (r.uniform(-30, -15) / 20), seed=int(r.integers(1 << 30)))
        return (y + room).astype(np.float32)
