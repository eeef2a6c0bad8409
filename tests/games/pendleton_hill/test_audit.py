"""Illegal events are refused naming a rule, never with a crash: malformed payloads
(findings of the rules audit; each failed before the fix)."""

from __future__ import annotations

import pytest

from .helpers import Table
from .test_rules import refused

# -- illegal events are refused naming a rule, never a crash ------------------------


@pytest.mark.parametrize(
    ("type_", "payload", "rule"),
    [
        ("place-shepherd", {"pasture": {}}, "The Board"),
        ("place-shepherd", {"pasture": ["1a"]}, "The Board"),
        ("move-flock", {"from": "1a", "to": {"x": 1}}, "The Board"),
        ("move-flock", {"from": ["1a"], "to": "1b"}, "The Board"),
        ("move-wolf", {"to": ["1b"]}, "The Board"),
        ("correction", {"wolf": ["1a"]}, "The Board"),
        ("correction", {"scores": 2.5}, "Components"),
        ("correction", {"scores": True}, "Components"),
        ("correction", {"hands": "Ann"}, "Components"),
        ("correction", {"sheepdogs": None}, "Components"),
        ("correction", {"sheepdogs": -1}, "Components"),
    ],
)
def test_malformed_payloads_are_refused_with_the_rule_and_change_nothing(type_: str, payload: dict, rule: str) -> None:
    t = Table(3)
    t.start()
    t.do("play-card", card="2")
    refused(t, type_, rule, "", **payload)
