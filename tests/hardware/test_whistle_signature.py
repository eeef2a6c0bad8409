"""Signatures and attribution: nearest whistle when the margin is clear, else nobody."""

from __future__ import annotations

import pytest

from hardware.testing import audio as ta
from hardware.whistle.detector import detect
from hardware.whistle.signature import Attributor, Signature


def blows(hz: float, wobble: tuple[float, ...] = (0.99, 1.0, 1.01)) -> list[dict[str, float]]:
    return [{"peak_hz": hz * w, "spread_cents": 5.0, "h2_db": -40.0, "am_db": 1.0} for w in wobble]


def test_learn_takes_the_centre_and_spread_of_the_blows():
    s = Signature.learn("Shaun", blows(2000))
    assert s.name == "Shaun" and s.blows == 3
    assert s.peak_hz == pytest.approx(2000, rel=0.001)
    assert 10 < s.pitch_spread_cents < 20
    with pytest.raises(ValueError, match="no blows"):
        Signature.learn("Timmy", [])


def test_distance_grows_with_pitch_difference():
    s = Signature.learn("Shaun", blows(2000))
    assert s.distance({"peak_hz": 2000}) < 0.5
    assert s.distance({"peak_hz": 2120}) > 3  # a semitone away is several spreads
    assert s.distance({"peak_hz": 2000, "h2_db": -10.0}) > s.distance({"peak_hz": 2000, "h2_db": -40.0})


def test_attribution_nearest_when_clear_else_nobody():
    a = Attributor([Signature.learn("Shaun", blows(2000)), Signature.learn("Timmy", blows(2600))])
    who, conf = a({"peak_hz": 2010, "spread_cents": 5.0, "h2_db": -40.0, "am_db": 1.0})
    assert who == "Shaun" and 0.5 <= conf <= 1.0
    assert a({"peak_hz": 2590})[0] == "Timmy"
    assert a({"peak_hz": 2280}) == (None, None)  # halfway: ask the table
    assert a({"peak_hz": 4000}) == (None, None)  # nobody's whistle (the next table's)


def test_alike_whistles_are_left_unattributed():
    a = Attributor([Signature.learn("Shaun", blows(2000)), Signature.learn("Timmy", blows(2030))])
    assert a({"peak_hz": 2000}) == (None, None)


def test_one_known_whistle_still_needs_to_be_close():
    a = Attributor([Signature.learn("Shaun", blows(2000))])
    assert a({"peak_hz": 2005})[0] == "Shaun"
    assert a({"peak_hz": 2500}) == (None, None)
    assert Attributor([])({"peak_hz": 2000}) == (None, None)


def test_detector_attributes_blows_through_signatures():
    sigs = [Signature.learn("Shaun", blows(1800)), Signature.learn("Timmy", blows(2900))]
    from hardware.whistle.detector import WhistleDetector

    x = ta.pink_noise(3.0, amp=0.005)
    ta.place(x, ta.tone(1800, 0.4), 0.5)
    ta.place(x, ta.trill(2900, 0.4), 1.8)
    found = detect(x, WhistleDetector(attribute=Attributor(sigs)))
    assert [d.blower for d in found] == ["Shaun", "Timmy"]
    assert all(d.blower_confidence is not None and d.blower_confidence >= 0.5 for d in found)


def test_a_calibration_blow_at_another_pitch_is_left_out(monkeypatch):
    """One blow of three heard at a third of the whistle's pitch (a sub-harmonic, a noise) would make the signature's
    spread hundreds of cents wide, over its neighbours' pitches: it is left out, and the signature is the other two's."""
    from hardware.whistle import signature

    monkeypatch.setattr(signature, "OUTLIER_CENTS", 300.0)
    heard = blows(3240, (1.0, 1 / 3, 1.01))
    s = Signature.learn("Bob", heard)
    assert s.blows == 2 and s.peak_hz == pytest.approx(3240 * 1.005, rel=0.001) and s.pitch_spread_cents < 10
    a = Attributor([Signature.learn("Ann", blows(2240)), s])
    assert a({"peak_hz": 2240, "spread_cents": 5.0, "h2_db": -40.0, "am_db": 1.0})[0] == "Ann"
    # Nobody can say which of two far-apart blows is the whistle, nor which of three all far apart: all kept.
    assert Signature.learn("Cy", blows(2000, (1.0, 1.5))).blows == 2
    assert Signature.learn("Di", blows(2000, (1.0, 1.5, 2.25))).blows == 3
    # A whistle's own blow-to-blow spread stays whole.
    assert Signature.learn("Ed", blows(2000, (0.97, 1.0, 1.04))).blows == 3


@pytest.mark.parametrize("tolerance", [0.0, 1.0])
def test_a_trilled_whistles_pitch_is_known_to_within_its_trill(monkeypatch, tolerance):
    """Session 35 (TRILL_TOLERANCE): a pea whistle learnt from one heard blow (pitch spread 0), its trill swinging 120
    cents within a blow; its next blow is read 150 cents away.  With the tolerance it is the pea's; without, nobody's.
    A steady whistle's tolerance (its spread within a blow 5 cents) does not move."""
    from hardware.whistle import signature

    monkeypatch.setattr(signature, "TRILL_TOLERANCE", tolerance)
    pea = Signature.learn("Pea", [{"peak_hz": 2000.0, "spread_cents": 120.0, "h2_db": -40.0, "am_db": 1.0}])
    steady = Signature.learn("Ann", blows(3300))
    a = Attributor([pea, steady])
    blow = {"peak_hz": 2000 * 2 ** (150 / 1200), "spread_cents": 120.0, "h2_db": -40.0, "am_db": 1.0}
    assert a(blow)[0] == ("Pea" if tolerance else None)
    assert steady.pitch_spread_cents < 30 and steady.distance({"peak_hz": 3300 * 2 ** (60 / 1200)}) == pytest.approx(2.0, rel=0.01)
    assert a({"peak_hz": 3300 * 2 ** (150 / 1200), "spread_cents": 5.0, "h2_db": -40.0, "am_db": 1.0})[0] is None
