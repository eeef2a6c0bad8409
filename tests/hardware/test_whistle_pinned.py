"""The detectors' events on a few real recordings, pinned (issue #15, session 9: speed work must not change a detection).

The numbers are what main's detectors gave at commit 2da562d (benchmarks/whistle_equivalence.py holds the whole
corpus; this is a fast sample of it), the combined detector's with its own verifier since session 9 (recipe
session9, whistle_verifier_combined.npz: only the r2k blow's confidence moved): a near robot blow, a far one the
combined gate lets through from the cascade since session 31 (it turned it down before), an r2k blow the combined
detector hears earlier through the cascade (attributed), an r2k non-whistle
session 4 takes for one, a dog's barks and a baby's cry (the barks no false alarm since session 11's low-wobble rule;
the cry's one left attributed).  Each detector is run with
four known whistles, so attribution is pinned too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.audio import read_wav, resample
from hardware.whistle.cascade import CascadeDetector, CascadeParams
from hardware.whistle.combined import CombinedDetector, strict_cascade
from hardware.whistle.detector import WhistleDetector, detect
from hardware.whistle.signature import Attributor, Signature

# (onset s, detected at s, pitch Hz, confidence, blower) per detector
PINNED = {
    "robot-clips/whistle/whistle_1_metre.wav": {
        "session4": [(1.592, 1.664, 2847.5, 0.9111, None)],
        "cascade": [(1.528, 1.664, 2840.5, 0.998, None)],
        "combined": [(1.592, 1.664, 2847.5, 0.9111, None)],
    },
    # Session 12's hold_harmonics: this far blow no longer breaks where a line under it flips the
    # fundamental, so session 4 (and the combined detector through it) hears it, as the cascade did.
    "robot-clips/far-whistle/whistle_2016_07_02_082436_far_away.wav": {
        "session4": [(1.72, 1.792, 3935.3, 0.843, None)],
        "cascade": [(1.56, 1.792, 3936.4, 0.9448, None)],
        # Session 31: the low line under it is steady to the low band's faster floor (CombinedParams.steady_rise_s),
        # so the gate lets the cascade's earlier report through (64 ms sooner): what session 12's quiet-low route
        # gave (off: it failed its seed-10 rule).  Before: (1.72, 1.792, 3935.3, 0.843, None), session 4's.
        "combined": [(1.56, 1.728, 3943.1, 0.9882, None)],
    },
    "r2k-clips/16k/w1.wav": {
        "session4": [(0.392, 0.512, 2382.0, 0.9285, None)],
        "cascade": [(0.392, 0.512, 2382.0, 0.9986, "w2")],
        "combined": [(0.392, 0.448, 2379.8, 0.9981, "w2")],  # 0.999 with the session8 verifier (2da562d)
    },
    "r2k-clips/16k/a4.wav": {
        "session4": [(0.152, 0.256, 1794.8, 0.5885, None)],
        "cascade": [],
        "combined": [(0.152, 0.256, 1794.8, 0.5885, None)],
    },
    # Until session 11 session 4 (so the combined detector) took the four barks for blows at 1.10-1.20 kHz
    # and the cry's (2.12, 2.176, 1032.8) for one: all wobbling lines under 1.2 kHz (DetectorParams.steady_below_hz).
    "esc10-negatives/001 - Dog bark/5-213855-A.wav": {
        "session4": [],
        "cascade": [],
        "combined": [],
    },
    "esc10-negatives/004 - Baby cry/2-107351-B.wav": {
        "session4": [(0.504, 0.64, 2062.6, 0.531, "w1")],
        "cascade": [(2.728, 2.944, 2304.4, 0.9579, None)],
        "combined": [(0.504, 0.64, 2062.6, 0.531, "w1")],
    },
}


def attributor() -> Attributor:
    """The equivalence benchmark's four whistles."""
    return Attributor([Signature(f"w{i}", hz, 25.0, 10.0, -20.0 + 5 * i, 1.5) for i, hz in
                       enumerate((1250.0, 2000.0, 2500.0, 3150.0))])


def make(kind: str) -> object:
    a = attributor()
    if kind == "session4":
        return WhistleDetector(attribute=a)
    if kind == "cascade":
        return CascadeDetector(CascadeParams(accepts=2), attribute=a)
    return CombinedDetector(shipped=WhistleDetector(attribute=a), cascade=strict_cascade(attribute=a), attribute=a)


@pytest.mark.parametrize("name", sorted(PINNED))
def test_real_recordings_give_the_pinned_events(shared_data: Path, name: str):
    folder, _, rest = name.partition("/")
    x = resample(*read_wav(shared_data / "whistle" / folder / rest))
    for kind, want in PINNED[name].items():
        got = [(round(d.onset, 4), round(d.detected_at, 4), round(d.peak_hz, 1), round(d.confidence, 4), d.blower)
               for d in detect(x, make(kind))]
        assert got == want, (kind, got)
