"""``bellwether calibrate whistle``: learn the room's noise and each player's whistle.

The wizard (1) listens to the quiet room, (2) asks each player for N blows,
showing progress as each is heard, (3) learns the detection band and one
signature per whistle, then (4) asks each player for one more blow, heard
with the new profile (never the blows it was fitted to), and says whether it
was heard and whose it was taken for, with another try on a miss, before
writing the profile.

The profile is ``whistle.toml`` in the config dir (``companion.paths.config_dir()``),
versioned: a missing profile, or one of another version, gives the
defaults, which still detect a generic whistle (800-6000 Hz) but attribute
nothing.  ``--from-wav DIR`` drives the wizard from recordings instead of
the microphone: ``DIR/noise.wav`` and ``DIR/<player>.wav`` (that player's
blows), optionally ``DIR/check-<player>.wav``.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.config import Table, dump_toml, load_table, profile_present, save_text_atomic
from companion.errors import BellwetherError, ConfigError
from companion.paths import config_dir

log = logging.getLogger(__name__)

PROFILE_VERSION = 1
PROFILE_NAME = "whistle.toml"
# Band learned from the blows: the generic band, widened to a little under the
# lowest fundamental and a little over the highest, so a low toy whistle (or
# one blown softer or harder) still fits.
BAND_BELOW = 0.75
BAND_ABOVE = 1.35
BAND_LIMITS = (400.0, 7000.0)
STEADY_UNDER = 0.75  # a profile's low-wobble edge (DetectorParams.steady_below_hz): under its lowest whistle by this
# Session 15: how a profile keeps the low-wobble rule and the harmonic hold's edge off the table's own whistles
# (Profile.params; the profile's ``own_whistles``).  "under": both edges move under the lowest whistle (STEADY_UNDER
# x its pitch) for every sound, as in sessions 10-14 (selectable); "near" (the default): the edges stay where they
# are and only a blow pitched within OWN_CENTS of a calibrated whistle is exempt (DetectorParams.own_hz).
OWN_WHISTLES = ("under", "near")
OWN_DEFAULT = "near"  # session 15: passed its decision rule on seed 17 (docs/whistle.md)
# A whistle's own pitch window: OWN_SPREADS x its blow-to-blow spread (Signature.pitch_spread_cents), within OWN_CENTS.
OWN_SPREADS = 3.0
OWN_CENTS = (80.0, 100.0)
LISTEN_BAND_HZ = (500.0, 7000.0)  # the wizard hears blows here, whatever the generic band
LISTEN_SUB_DIVISORS = 5  # session 18: the listener's harmonic check reaches f/5 (DetectorParams.sub_divisors; 4: off)
NEAR_MARGIN_DB = 15.0  # a blow this much quieter than every calibration blow is not from this table


class CalibrationError(BellwetherError, RuntimeError):
    """The wizard could not learn what it needs (too few blows heard, ...)."""


def profile_path(directory: str | Path | None = None) -> Path:
    return config_dir(directory) / PROFILE_NAME


# The detectors a profile can set up (``Profile.detector``), and the one the app, the sensor and
# ``bellwether whistle detect|eval`` use unless told (docs/whistle.md, "Which detector ships").
DETECTOR_KINDS = ("session4", "cascade", "combined", "cascade-cnn", "combined-short")
DEFAULT_DETECTOR = "combined"  # session 8 (v3): passed that session's decision rule on seed 3 (docs/whistle.md)


@dataclass(frozen=True)
class Profile:
    """What the detector needs from calibration (see ``detector()``)."""

    band_hz: tuple[float, float] | None = None  # None: the detector's default band
    overrides: dict[str, float] = field(default_factory=dict)  # other DetectorParams fields
    noise_db: tuple[float, ...] | None = None  # the quiet room, per STFT bin
    signatures: tuple[Any, ...] = ()  # hardware.whistle.signature.Signature
    source: str = "defaults"  # where it came from, for the Settings screen
    created: str = ""
    # Session 14: per whistle name, its spectral template (hardware/whistle/known.py), and whether the
    # combined detector's known-whistle matcher uses them (None: known.KNOWN_DEFAULT, the shipped choice).
    templates: dict[str, tuple[float, ...]] = field(default_factory=dict)
    known: bool | None = None
    # Session 15: "under" or "near" (OWN_WHISTLES; None: OWN_DEFAULT), how params() exempts the table's own whistles.
    own: str | None = None

    @property
    def is_default(self) -> bool:
        return self.source.startswith("defaults")

    def params(self) -> Any:
        from hardware.whistle.detector import DetectorParams

        p = DetectorParams(**self.overrides)
        if self.signatures and (self.own or OWN_DEFAULT) == "near":
            # Only the table's own whistles are exempt, each within its pitch window; everything else meets
            # the generic edges (a rooster or a hum under the lowest whistle, too).
            p = dataclasses.replace(p, own_hz=own_windows(self.signatures))
        elif self.signatures:
            under = STEADY_UNDER * min(s.peak_hz for s in self.signatures)
            # The table's own low whistle must not meet the low-wobble rule: the edge goes under it,
            # and the harmonic hold reaches down to it (DetectorParams.hold_above_hz).
            if "steady_below_hz" not in self.overrides:
                p = dataclasses.replace(p, steady_below_hz=min(p.steady_below_hz, under))
            if "hold_above_hz" not in self.overrides:
                p = dataclasses.replace(p, hold_above_hz=min(p.hold_above_hz, under))
        return dataclasses.replace(p, band_hz=self.band_hz) if self.band_hz else p

    def detector(self, kind: str = DEFAULT_DETECTOR, room_floor: bool = False) -> Any:
        """A detector set up from this profile (attribution only with signatures).  ``room_floor``: session 4's floor
        starts from the quiet room the wizard recorded, as it did before session 30 (``_session4``; for comparisons).

        ``kind`` "cascade" gives the cascade (hardware/whistle/cascade.py) with the
        profile's signatures and level gate but its own band and floor: widening its
        band to the learned one, or starting its floor from the quiet room, cost
        recall (benchmarks/whistle_eval.py, calibration rows: a low toy 26 of 40
        generic, 6 of 40 so), and calibration must never hurt.  "combined" gives both:
        the session-4 detector set up from the profile and the cascade as above;
        "cascade-cnn" the cascade with the CNN verifier (docs/whistle-cnn.md) instead of the MLP;
        "combined-short" the combined detector whose cascade's verifier reads a 4-frame patch (session 15)."""
        from hardware.whistle.signature import Attributor

        attribute = Attributor(self.signatures) if self.signatures else None
        if kind not in DETECTOR_KINDS:
            raise ValueError(f"detector kind: expected one of {', '.join(DETECTOR_KINDS)}, got {kind!r}")
        if kind == "session4":
            return self._session4(attribute, room_floor)
        from hardware.whistle.cascade import CascadeDetector, CascadeParams

        base = CascadeParams()
        params = dataclasses.replace(base, min_level_db=self.overrides.get("min_level_db", base.min_level_db))
        if kind == "cascade":
            return CascadeDetector(params, attribute=attribute)
        if kind == "cascade-cnn":
            from hardware.whistle.cnn_verifier import CnnVerifier

            return CascadeDetector(params, attribute=attribute, verifier=CnnVerifier.shipped())
        from hardware.whistle.combined import CombinedDetector, strict_cascade
        from hardware.whistle.verifier import Verifier

        shipped = self._session4(attribute, room_floor)
        verifier = Verifier.combined_short() if kind == "combined-short" else None
        return CombinedDetector(shipped=shipped, cascade=strict_cascade(params, attribute, verifier), attribute=attribute,
                                known=self.known_matcher())

    def _session4(self, attribute: Any, room_floor: bool = False) -> Any:
        """Session 4's detector set up from this profile, its floor started as the generic detector's (session 30;
        ``room_floor``: from the quiet room, as before).

        Not from the quiet room (``noise_db`` stays in the profile for the wizard's own listener and the templates):
        a table plays louder than the room it was calibrated in, and a floor started tens of dB under the noise takes
        about 15 s to rise (``noise_rise_s``).  Until then a hall's low lines stand far over their floor, the harmonic
        check takes them for a toy's fundamental, and blows the generic detector hears were lost (7 of 1,600
        calibration blows on seen seeds 30-39; none with this start).  Once the floor has risen the two starts hear
        the same (docs/whistle.md, session 30)."""
        import numpy as np

        from hardware.whistle.detector import WhistleDetector

        room = np.asarray(self.noise_db) if room_floor and self.noise_db is not None else None
        return WhistleDetector(self.params(), noise_db=room, attribute=attribute)

    def known_matcher(self) -> Any:
        """The known-whistle matcher of this profile's templates (None: switched off, or nothing to match)."""
        from hardware.whistle import known

        on = known.KNOWN_DEFAULT if self.known is None else self.known
        templates = known.templates_of(self.signatures, self.templates)
        if not on or not templates:
            return None
        gate = self.overrides.get("min_level_db", known.KnownParams.min_level_db)
        return known.KnownMatcher(templates, known.KnownParams(min_level_db=gate))

    # -- TOML -------------------------------------------------------------------
    def to_toml(self) -> str:
        data: dict[str, Any] = {
            "version": PROFILE_VERSION,
            "created": self.created,
            "detector": {
                "band_hz": [round(self.band_hz[0], 1), round(self.band_hz[1], 1)] if self.band_hz else None,
                **dict(sorted(self.overrides.items())),
            },
            "noise": None if self.noise_db is None else {"spectrum_db": [round(float(v), 1) for v in self.noise_db]},
            "whistle": [
                {
                    "name": s.name,
                    "peak_hz": round(s.peak_hz, 2),
                    "pitch_spread_cents": round(s.pitch_spread_cents, 2),
                    "spread_cents": round(s.spread_cents, 2),
                    "h2_db": round(s.h2_db, 2),
                    "am_db": round(s.am_db, 2),
                    "blows": s.blows,
                    "template_db": list(self.templates[s.name]) if s.name in self.templates else None,
                }
                for s in self.signatures
            ],
            "known_whistles": self.known,
            "own_whistles": self.own,
        }
        return dump_toml(data, "Bellwether whistle calibration: written by `bellwether calibrate whistle`.")

    def save(self, path: str | Path | None = None) -> Path:
        return save_text_atomic(Path(path) if path else profile_path(), self.to_toml())


# The range of every detector number a profile may set: (lo, hi, above), where
# ``above`` is a strict lower bound (a zero time constant or duration disables
# the detector).  A parameter not listed gets the range its unit implies
# (companion.config.unit_range).
DETECTOR_RANGES: dict[str, tuple[float | None, float | None, float | None]] = {
    "on_tonality_db": (0, 100, None),
    "off_tonality_db": (0, 100, None),
    "on_dominance_db": (0, 100, None),
    "off_dominance_db": (0, 100, None),
    "on_snr_db": (0, 100, None),
    "off_snr_db": (0, 100, None),
    "sub_harmonic_db": (0, 100, None),
    "voice_db": (-100, 0, None),
    "max_voiced_fraction": (0, 1, None),
    "voice_patience_frames": (0, 1000, None),
    "min_duration_s": (None, 10, 0),
    "min_strong_frames": (1, 1000, None),
    "max_gap_frames": (0, 1000, None),
    "max_misses_before_detection": (0, 1000, None),
    "max_jump": (None, 1, 0),
    "sub_divisors": (4, 5, None),
    "own_wobble_cents": (0, 1200, None),
    "max_drop_db": (None, 100, 0),
    "refractory_s": (0, 10, None),
    "min_level_db": (-200, 200, None),  # power in the detector's dB scale, not dBFS: learned values are positive
    "max_blow_s": (None, 60, 0),
    "noise_rise_s": (None, 600, 0),
    "noise_fall_s": (None, 600, 0),
}
MIN_BAND_RATIO = 1.2  # a band narrower than about three semitones misses a whistle that wavers
# hardware.whistle.known's template, as the profile holds it (the numbers are known.py's; a test checks they agree)
TEMPLATE_KEY = "template_db"
MIN_POINTS, MAX_POINTS, MAX_DB = 9, 33, 60.0  # grid points, and the whitened dB range


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) < 1e9


def _whitened_db(v: Any) -> bool:
    return _finite(v) and 0 <= v <= MAX_DB


TEMPLATE_EXPECTED = f"a list of {MIN_POINTS}-{MAX_POINTS} numbers from 0 to {MAX_DB:g} (dB over the room's floor)"


def load_profile(path: str | Path | None = None) -> Profile:
    """The calibration profile, or the defaults when there is none or it is stale.

    A profile of the right version with a bad value is an error naming the
    file and key (it would be wrong to silently ignore a user's edit).
    """
    from hardware.whistle.detector import DetectorParams
    from hardware.whistle.signature import Signature

    path = Path(path) if path else profile_path()
    if not profile_present(path):
        return Profile(source=f"defaults (no profile at {path})")
    t = load_table(path)
    version = t.get("version", lambda v: isinstance(v, int), "a whole number", None)
    if version != PROFILE_VERSION:
        log.warning("%s: whistle profile version %s, expected %s; using defaults", path, version, PROFILE_VERSION)
        return Profile(source=f"defaults (stale profile at {path}: version {version}, run calibrate whistle again)")
    t.only("version", "created", "detector", "noise", "whistle", "known_whistles", "own_whistles")
    det = t.table("detector", {})
    band = det.list("band_hz", None, of=_finite, expected="[low, high] in Hz")
    if band is not None and (len(band) != 2 or not 0 < band[0] < band[1] <= 8000 or band[1] < band[0] * MIN_BAND_RATIO):
        raise ConfigError(
            path,
            "detector.band_hz",
            f"[low, high] with 0 < low < high <= 8000 and high >= {MIN_BAND_RATIO} x low",
            band,
        )
    fields = {f.name: "int" if f.type == "int" else "float" for f in dataclasses.fields(DetectorParams)}
    numeric = {k: v for k, v in fields.items() if k not in ("band_hz", "own_hz")}  # own_hz: from the whistles
    det.only("band_hz", *numeric)
    det_data = {k: v for k, v in det.data.items() if k != "band_hz"}
    overrides = Table(det_data, path, "detector.").overrides(numeric, DETECTOR_RANGES)
    noise = (
        t.table("noise", {})
        .only("spectrum_db")
        .list("spectrum_db", None, of=_finite, expected="a list of numbers (dB)")
    )
    if noise is not None and len(noise) != 257:
        raise ConfigError(path, "noise.spectrum_db", "257 values (one per STFT bin)", f"{len(noise)} values")
    whistles = t.list("whistle", [], of=lambda v: isinstance(v, dict), expected="a list of [[whistle]] tables")
    signatures = []
    templates: dict[str, tuple[float, ...]] = {}
    for i, w in enumerate(whistles):
        wt = Table(w, path, f"whistle[{i}].").only(
            "name", "peak_hz", "pitch_spread_cents", "spread_cents", "h2_db", "am_db", "blows", TEMPLATE_KEY
        )
        template = wt.list(TEMPLATE_KEY, None, of=_whitened_db, expected=TEMPLATE_EXPECTED)
        if template is not None and not MIN_POINTS <= len(template) <= MAX_POINTS:
            raise ConfigError(path, f"whistle[{i}].{TEMPLATE_KEY}", TEMPLATE_EXPECTED, f"{len(template)} values")
        if template is not None:
            templates[wt.string("name")] = tuple(float(v) for v in template)
        signatures.append(
            Signature(
                name=wt.string("name"),
                peak_hz=wt.number("peak_hz", lo=20, hi=8000),
                pitch_spread_cents=wt.number("pitch_spread_cents", lo=0, hi=2400),
                spread_cents=wt.number("spread_cents", 0.0, lo=0, hi=2400),
                h2_db=wt.number("h2_db", -40.0, lo=-200, hi=200),
                am_db=wt.number("am_db", 1.0, lo=0, hi=200),
                blows=wt.integer("blows", 0, lo=0),
            )
        )
    return Profile(
        band_hz=(float(band[0]), float(band[1])) if band else None,
        overrides=overrides,
        noise_db=tuple(float(v) for v in noise) if noise is not None else None,
        signatures=tuple(signatures),
        source=str(path),
        created=t.string("created", ""),
        templates=templates,
        known=t.boolean("known_whistles", None),
        own=t.string("own_whistles", None, choices=OWN_WHISTLES),
    )


def own_windows(signatures: Any) -> tuple[tuple[float, float], ...]:
    """Each whistle's (pitch Hz, cents) window for DetectorParams.own_hz: OWN_SPREADS x its blow-to-blow
    spread, within OWN_CENTS."""
    lo, hi = OWN_CENTS
    return tuple((float(s.peak_hz), min(max(OWN_SPREADS * s.pitch_spread_cents, lo), hi)) for s in signatures)


# -- learning ---------------------------------------------------------------------


def learn_band(peaks: list[float]) -> tuple[float, float]:
    """The generic band, widened to take in the table's whistles (never narrowed:
    with a profile, recall on a calibrated whistle must be at least the generic
    detector's, and voices and keys are refused by the detector's own tests)."""
    from hardware.whistle.detector import DetectorParams

    generic = DetectorParams().band_hz
    lo = max(BAND_LIMITS[0], min(min(peaks) * BAND_BELOW, generic[0]))
    hi = min(BAND_LIMITS[1], max(max(peaks) * BAND_ABOVE, generic[1]))
    return round(lo, 1), round(max(hi, lo * 1.5), 1)


def noise_spectrum(samples: Any) -> tuple[float, ...]:
    """The room's mean power per STFT bin (dB), as the detector measures it."""
    import numpy as np

    from hardware.whistle.detector import HOP, N_FFT

    x = np.asarray(samples, np.float32)
    if len(x) < N_FFT:
        raise CalibrationError("the quiet-room recording is shorter than one analysis window")
    frames = np.lib.stride_tricks.sliding_window_view(x, N_FFT)[::HOP]
    power = np.abs(np.fft.rfft(frames * np.hanning(N_FFT), axis=1)) ** 2
    # The median, not the mean: a cough during the quiet minute should not count.
    return tuple(float(v) for v in np.round(10 * np.log10(np.median(power, axis=0) + 1e-20), 1))


def listening_detector(noise_db: tuple[float, ...] | None) -> Any:
    """The detector used while calibrating: any whistle-like blow in a wide band.

    Session 4's detector in 500-7000 Hz, with no low-wobble rule (the blows to learn may be a low
    toy's), plus the strict cascade where session 4 cannot hear (a pea's trill spreads its line over
    hundreds of hertz, which session 4's dominance test refuses): the combined detector, as the game
    listens, so a pea whistle can be calibrated (session 10: pea 2.8 kHz, failed -> calibrated 34/40)."""
    import numpy as np

    from hardware.whistle.combined import CombinedDetector
    from hardware.whistle.detector import DetectorParams

    # The sub-harmonic floor test (sub_over_floor_db, session 17) stays off here: the wizard's loud blows over the
    # quiet room's floor put a low toy's fundamental near its 20 dB, and a reading that flips frame by frame broke
    # a 700 Hz toy's blows (tests/hardware/test_whistle_hard_cases.py; not part of seed 23's judged run).
    # Session 18 (the wizard and the 1200 Hz toy): the harmonic check reaches f/5 here (``sub_divisors``), so a toy
    # blow sounding its 5th harmonic loudest is read at its fundamental; at f/4 no frame of it passed (seeds 21-25:
    # the toy 1200 Hz and the low toy 700 Hz heard 2 of 3 blows).  The generic detector and a profile keep f/4.
    params = DetectorParams(band_hz=LISTEN_BAND_HZ, steady_below_hz=0.0, sub_over_floor_db=0.0,
                            sub_divisors=LISTEN_SUB_DIVISORS)
    return CombinedDetector.of(params, noise_db=None if noise_db is None else np.asarray(noise_db))


# -- the check -----------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """One fresh blow after calibration, as the new profile hears it."""

    player: str  # who was asked to blow
    heard: bool  # did the new profile's detector hear a blow at all
    blower: str | None = None  # whom it attributed the blow to (None: could not tell)
    peak_hz: float = 0.0

    @property
    def ok(self) -> bool:
        return self.heard and self.blower == self.player

    def describe(self) -> str:
        if not self.heard:
            return "no blow heard"
        hz = f"{self.peak_hz:.0f} Hz"
        if self.ok:
            return f"recognised ({hz})"
        if self.blower is None:
            return f"heard ({hz}) but not told apart: the app would ask who blew"
        return f"heard ({hz}) but taken for {self.blower}"


def check_blow(profile: Profile, player: str, blocks: Iterator[Any]) -> CheckResult:
    """The first blow in ``blocks`` as ``profile`` hears it (blocks recorded after
    calibration: a check on the blows the profile was fitted to proves nothing)."""
    det = profile.detector()
    try:
        for block in blocks:
            for d in det.process(block):
                return CheckResult(player, True, d.blower, float(d.peak_hz))
    finally:
        close = getattr(blocks, "close", None)
        if callable(close):
            close()  # a live source stops listening at the first blow
    return CheckResult(player, False)


def _never(_result: CheckResult) -> bool:
    return False


# -- the wizard -----------------------------------------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", required=True, help="comma-separated names, one per whistle (e.g. Shaun,Timmy)")
    p.add_argument("--blows", type=int, default=3, help="blows to record per whistle (default 3)")
    p.add_argument("--quiet-seconds", type=float, default=3.0, help="seconds of quiet room to record (default 3)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for each player's blows (default 30)")
    p.add_argument(
        "--from-wav", metavar="DIR", help="read noise.wav and <player>.wav from DIR instead of the microphone"
    )
    p.add_argument("--output", help=f"profile to write (default: {PROFILE_NAME} in the config dir)")
    p.add_argument(
        "--hear-distant",
        action="store_true",
        help="also report quiet, distant whistles (default: ignore those far quieter than the calibration blows)",
    )


class _Progress:
    """One line per step, a bar that fills as blows are heard (plain text: works in any terminal)."""

    def __init__(self, stream: Any = sys.stdout) -> None:
        self.stream = stream

    def step(self, text: str) -> None:
        print(text, file=self.stream, flush=True)

    def bar(self, name: str, done: int, total: int, note: str = "") -> None:
        filled = "#" * done + "-" * (total - done)
        print(f"  {name:<12} [{filled}] {done}/{total} {note}".rstrip(), file=self.stream, flush=True)

    def check(self, result: CheckResult) -> None:
        self.bar(result.player, int(result.ok), 1, result.describe())


def _wav_blocks(path: Path) -> Iterator[Any]:
    from hardware.audio import WavSource

    src = WavSource(path)
    src.open()
    try:
        while (block := src.read()) is not None:
            yield block
    finally:
        src.close()


def _mic_blocks(seconds: float) -> Iterator[Any]:
    from hardware.audio import RATE, open_source

    _, src = open_source()
    src.open()
    try:
        got = 0.0
        deadline = time.monotonic() + seconds + 5  # a device that delivers nothing must not hang the wizard
        while got < seconds and time.monotonic() < deadline:
            block = src.read(0.5)
            if block is None:
                return
            got += len(block) / RATE
            yield block
    finally:
        src.close()


def _collect_blows(
    name: str, blocks: Iterator[Any], wanted: int, noise_db: tuple[float, ...] | None, progress: _Progress,
    heard: list[Any] | None = None, spans: list[tuple[float, float, float]] | None = None,
) -> list[dict[str, float]]:
    """The features of the first ``wanted`` blows; the sound read (``heard``, its blocks) and each blow's
    (onset s, offset s, fundamental Hz) in it (``spans``) are kept when asked, for the known-whistle template."""
    det = listening_detector(noise_db)
    blows: list[dict[str, float]] = []
    progress.bar(name, 0, wanted)
    for block in blocks:
        if heard is not None:
            heard.append(block)
        for d in det.process(block):
            blows.append(dict(d.features))
            if spans is not None:
                spans.append((d.onset, d.offset, d.peak_hz))
            progress.bar(name, len(blows), wanted, f"heard {d.peak_hz:.0f} Hz")
            if len(blows) >= wanted:
                return blows
    return blows


def calibrate(
    players: list[str],
    blows: int,
    noise_blocks: Callable[[], Iterator[Any]],
    player_blocks: Callable[[str], Iterator[Any]],
    check_blocks: Callable[[str], Iterator[Any] | None],
    progress: _Progress,
    hear_distant: bool = False,
    again: Callable[[CheckResult], bool] = _never,
) -> tuple[Profile, list[str]]:
    """The wizard's steps, independent of where the sound comes from. Returns the profile and check notes.

    ``check_blocks(name)`` is fresh sound for the player's check blow (None: no
    check for that player); after a check that failed, ``again(result)`` says
    whether to ask for another check blow.
    """
    import numpy as np

    from hardware.whistle.signature import Signature, agreeing

    progress.step("Step 1: quiet room. Please keep still and quiet...")
    noise = list(noise_blocks())
    if not noise:
        raise CalibrationError("no sound came in for the quiet-room step")
    noise_db = noise_spectrum(np.concatenate(noise))
    progress.step(f"  room noise: {np.mean(noise_db):.0f} dB per bin on average")

    progress.step(f"Step 2: each player blows their whistle {blows} times, one blow at a time.")
    learned: dict[str, list[dict[str, float]]] = {}
    sounds: dict[str, tuple[list[Any], list[tuple[float, float, float]]]] = {}
    for name in players:
        progress.step(f"  {name}: blow now.")
        sound: list[Any] = []
        spans: list[tuple[float, float, float]] = []
        heard = _collect_blows(name, player_blocks(name), blows, noise_db, progress, sound, spans)
        if len(heard) < blows:
            raise CalibrationError(
                f"heard {len(heard)} of {blows} blows from {name}; blow longer or closer and run again"
            )
        kept = agreeing([b["peak_hz"] for b in heard])
        for i in sorted(set(range(len(heard))) - set(kept)):
            progress.step(f"  {name}: the blow heard at {heard[i]['peak_hz']:.0f} Hz is far from the others; left out")
        learned[name] = [heard[i] for i in kept]
        sounds[name] = (sound, [spans[i] for i in kept])
    signatures = tuple(Signature.learn(n, b) for n, b in learned.items())
    templates = {s.name: _template(*sounds[s.name], noise_db) for s in signatures if _templated(s)}
    band = learn_band([s.peak_hz for s in signatures])
    overrides: dict[str, float] = {}
    if not hear_distant:
        # Blows far quieter than any heard now come from another table.
        quietest = min(b["level_db"] for blows_ in learned.values() for b in blows_)
        overrides["min_level_db"] = round(quietest - NEAR_MARGIN_DB, 1)
        progress.step(f"  blows more than {NEAR_MARGIN_DB:g} dB quieter than the quietest heard now will be ignored")
    profile = Profile(
        band_hz=band,
        overrides=overrides,
        noise_db=noise_db,
        signatures=signatures,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        templates=templates,
    )

    progress.step(f"Step 3: check (detection band {band[0]:.0f}-{band[1]:.0f} Hz).")
    notes = [note for name in players if (note := _check_player(profile, name, check_blocks, progress, again))]
    for i, a in enumerate(signatures):
        for b in signatures[i + 1 :]:
            cents = abs(1200 * np.log2(a.peak_hz / b.peak_hz))
            if cents < 100:
                notes.append(f"{a.name} and {b.name} sound alike ({cents:.0f} cents apart): the app will ask who blew")
    return profile, notes


def _template(sound: list[Any], spans: list[tuple[float, float, float]], noise_db: tuple[float, ...]) -> tuple[float, ...]:
    """A whistle's known-whistle template from its calibration blows (hardware/whistle/known.py)."""
    import numpy as np

    from hardware.whistle.known import learn_template

    return learn_template(np.concatenate([np.asarray(b, np.float32) for b in sound]), spans, noise_db)


def _templated(signature: Any) -> bool:
    """Whether the whistle's blows agree in pitch well enough for a known-whistle template (known.py)."""
    from hardware.whistle.known import MAX_SPREAD_CENTS

    return bool(signature.pitch_spread_cents <= MAX_SPREAD_CENTS)


def _check_player(
    profile: Profile,
    name: str,
    check_blocks: Callable[[str], Iterator[Any] | None],
    progress: _Progress,
    again: Callable[[CheckResult], bool],
) -> str:
    """Check blows from ``name`` until one is recognised or the table goes on; a note when none was."""
    while True:
        progress.step(f"  {name}, blow once more to check.")
        blocks = check_blocks(name)
        if blocks is None:
            return f"{name}: not checked (no check recording)"
        result = check_blow(profile, name, blocks)
        progress.check(result)
        if result.ok:
            return ""
        if not again(result):
            return f"{name}: check failed, {result.describe()}"


def _ask_again(result: CheckResult) -> bool:
    """At the terminal: another check blow after a failed one?"""
    try:
        answer = input(f"  {result.player}: {result.describe()}. Blow again to check? [Y/n] ")
    except EOFError:  # nobody at a terminal: the miss stands, noted in the profile
        print()
        return False
    return answer.strip().lower() not in ("n", "no")


def main(args: argparse.Namespace) -> int:
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    if not players or len(set(players)) != len(players):
        raise CalibrationError(f"--players: expected distinct comma-separated names, got {args.players!r}")
    if args.blows < 1:
        raise CalibrationError(f"--blows: expected a whole number >= 1, got {args.blows}")
    progress = _Progress()
    if args.from_wav:
        folder = Path(args.from_wav)
        for needed in ["noise", *players]:
            if not (folder / f"{needed}.wav").exists():
                raise CalibrationError(
                    f"{folder / (needed + '.wav')}: no such file (--from-wav needs noise.wav and one WAV per player)"
                )

        def check(name: str) -> Iterator[Any] | None:
            p = folder / f"check-{name}.wav"
            return _wav_blocks(p) if p.exists() else None

        profile, notes = calibrate(
            players,
            args.blows,
            lambda: _wav_blocks(folder / "noise.wav"),
            lambda n: _wav_blocks(folder / f"{n}.wav"),
            check,
            progress,
            args.hear_distant,
        )
    else:
        profile, notes = calibrate(
            players,
            args.blows,
            lambda: _mic_blocks(args.quiet_seconds),
            lambda n: _mic_blocks(args.timeout),
            lambda n: _mic_blocks(min(args.timeout, 10.0)),
            progress,
            args.hear_distant,
            _ask_again,
        )
    for note in notes:
        progress.step(f"  note: {note}")
    out = profile.save(Path(args.output) if args.output else profile_path(getattr(args, "config_dir", None)))
    progress.step(f"Saved {out}")
    return 0
