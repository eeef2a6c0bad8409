from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion.config import Table, dump_toml, load_table, save_bytes_atomic, save_text_atomic
from companion.errors import ConfigError


def test_dump_toml_round_trips_through_tomllib(tmp_path: Path) -> None:
    data = {
        "version": 2,
        "created": 'say "baa"',
        "detector": {"band_hz": [1500.0, 4200.5], "enabled": True, "odd key": 1},
        "dice": {"panic": {"kind": "colour", "faces": {"red": {"lab": [50.0, 60.25, 40.0]}}}},
        "whistle": [{"name": "Ann", "peak_hz": 2900.0}, {"name": "Bob", "peak_hz": 3400.0}],
        "skipped": None,
    }
    text = dump_toml(data, comment="written by a test\nsecond line")
    assert text.startswith("# written by a test\n# second line\n")
    back = tomllib.loads(text)
    data.pop("skipped")
    assert back == data
    path = save_text_atomic(tmp_path / "sub" / "p.toml", text)
    assert tomllib.loads(path.read_text()) == data
    assert not list(path.parent.glob("*.tmp"))


def test_atomic_writes_keep_bytes_and_line_ends_as_given_and_the_old_file_on_failure(tmp_path: Path) -> None:
    blob = bytes(range(256)) * 3  # not UTF-8: a cache's pickle
    path = save_bytes_atomic(tmp_path / "c.pkl", blob)
    assert path.read_bytes() == blob
    assert save_text_atomic(tmp_path / "t.csv", "a,b\r\nå,ø\n").read_bytes() == "a,b\r\nå,ø\n".encode()
    with pytest.raises(TypeError):  # fails inside the write: the old file stays whole, no temporary is left
        save_bytes_atomic(path, "text is not bytes")  # type: ignore[arg-type]
    assert path.read_bytes() == blob
    assert not list(tmp_path.glob("*.tmp"))


def test_dump_toml_refuses_what_toml_cannot_hold() -> None:
    with pytest.raises(ValueError):
        dump_toml({"x": float("nan")})
    with pytest.raises(TypeError):
        dump_toml({"x": object()})


def test_table_errors_name_file_key_and_expectation(tmp_path: Path) -> None:
    path = tmp_path / "camera.toml"
    path.write_text('[camera]\nfps = "fast"\nindex = 1.5\n')
    t = load_table(path).table("camera")
    with pytest.raises(ConfigError) as err:
        t.number("fps")
    assert str(err.value) == f"{path}: camera.fps: expected a number, got 'fast'"
    with pytest.raises(ConfigError, match=r"camera\.index: expected a whole number from 0 to 9, got 1\.5"):
        t.integer("index", lo=0, hi=9)
    with pytest.raises(ConfigError, match=r"camera\.device: expected a string, but it is missing"):
        t.string("device")
    assert t.string("device", "auto") == "auto"
    path.write_text("[camera\n")
    with pytest.raises(ConfigError, match="expected valid TOML"):
        load_table(path)


def test_table_choices() -> None:
    t = Table({"backend": "usb"}, "settings.toml")
    with pytest.raises(ConfigError, match="expected one of 'opencv', 'picamera2'"):
        t.string("backend", choices=("opencv", "picamera2"))
