from __future__ import annotations

import json

import pytest

from companion.errors import BellwetherError, IllegalAction
from companion.events import Event, Source


def test_event_round_trips_through_json() -> None:
    e = Event("roll", {"die": "d6", "faces": [3, 5]}, player="Ann", time=12.5, source="camera", confidence=0.91)
    again = Event.from_dict(json.loads(json.dumps(e.to_dict())))
    assert again == e
    assert again.source is Source.CAMERA
    assert again.get("faces") == (3, 5)


def test_event_payload_is_frozen() -> None:
    payload = {"faces": [1]}
    e = Event("roll", payload)
    payload["faces"].append(2)  # the caller's dict changing must not change the event
    assert e.get("faces") == (1,)
    with pytest.raises(TypeError):
        e.payload["faces"] = (6,)  # type: ignore[index]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"payload": {}}, "needs a 'type'"),
        ({"type": "roll", "source": "telepathy"}, "event source: expected one of"),
        ({"type": "roll", "confidence": 2}, "confidence: expected a number from 0 to 1"),
        ({"type": "roll", "colour": "red"}, "unknown event keys: colour"),
        ({"type": "roll", "time": "noon"}, "event time"),
    ],
)
def test_bad_events_say_what_is_wrong(raw: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Event.from_dict(raw)


def test_illegal_action_is_a_value_error_naming_the_rule() -> None:
    err = IllegalAction("no whistle", "Fleeced!, Your Sheep Whistle")
    assert isinstance(err, ValueError) and isinstance(err, BellwetherError)
    assert "rule: Fleeced!, Your Sheep Whistle" in str(err)
