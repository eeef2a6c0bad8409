"""Reading TOML settings and profiles so that a bad value names its file,
its key and what was expected (``ConfigError``), never a traceback."""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from .errors import ConfigError

T = TypeVar("T")


MAX_PROFILE_BYTES = 8 << 20  # a profile is a few KiB; this is no profile


def profile_present(path: str | os.PathLike[str]) -> bool:
    """Is there something at ``path`` to load (a dangling link counts: it is an error, not "no profile")?"""
    p = Path(path)
    return p.exists() or p.is_symlink()


def load_toml(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Parse a TOML file; every failure becomes a ConfigError naming the file.

    A syntax error gives its line; an OS error (a folder where the file
    should be, an unreadable file, a dangling link) gives the system's words.
    """
    p = Path(path)
    try:
        with p.open("rb") as f:
            raw = f.read(MAX_PROFILE_BYTES + 1)
    except OSError as e:
        if p.is_symlink() and not p.exists():
            raise ConfigError(
                p, "(file)", "a readable TOML file", f"a link to a missing file ({os.readlink(p)})"
            ) from None
        raise ConfigError(p, "(file)", "a readable TOML file", e.strerror or str(e)) from None
    if len(raw) > MAX_PROFILE_BYTES:
        raise ConfigError(p, "(file)", f"a TOML file of at most {MAX_PROFILE_BYTES >> 20} MiB", "a larger file")
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(p, "(file)", "a UTF-8 text file", "bytes that are not UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(p, "(file)", "valid TOML", str(e)) from None
    except RecursionError:
        raise ConfigError(p, "(file)", "valid TOML", "nesting too deep") from None


def is_device(v: Any) -> bool:
    """A device index (0..255) or a non-empty name or path: what the microphone and camera settings take."""
    if isinstance(v, int) and not isinstance(v, bool):
        return 0 <= v <= 255
    return isinstance(v, str) and bool(v.strip()) and len(v) <= 4096 and "\0" not in v


def _range_text(lo: float | None, hi: float | None, above: float | None = None) -> str:
    if above is not None:
        return f" > {above}" + ("" if hi is None else f" and <= {hi}")
    if lo is not None and hi is not None:
        return f" from {lo} to {hi}"
    if lo is not None:
        return f" >= {lo}"
    return "" if hi is None else f" <= {hi}"


def unit_range(key: str) -> tuple[float | None, float | None, float | None]:
    """The sensible (lo, hi, above) of a profile number, from the unit its name ends in.

    Used where a loader lists no range of its own for a key (a parameter a
    sensor gained later), so that no profile number is ever unchecked:
    durations and time constants are positive, fractions lie in 0..1.
    """
    if key.endswith(("_s", "_ms")):
        return (None, 3600.0 * (1000 if key.endswith("_ms") else 1), 0.0)
    if key.endswith("_hz"):
        return (None, 100_000.0, 0.0)
    if key.endswith("_db"):
        return (-300.0, 300.0, None)
    if key.endswith(("_frames", "_px", "_steps", "_pips")):
        return (0.0, 100_000.0, None)
    if key.endswith(("fraction", "_agreement")):
        return (0.0, 1.0, None)
    return (-1e9, 1e9, None)


class Table:
    """A TOML table that knows its file and key path, for exact errors.

    >>> t = Table({"mic": {"rate": "fast"}}, "profile.toml")
    >>> t.table("mic").number("rate")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ConfigError: profile.toml: mic.rate: expected a number, got 'fast'
    """

    def __init__(self, data: Mapping[str, Any], file: object, prefix: str = "") -> None:
        self.data = data
        self.file = file
        self.prefix = prefix

    def _key(self, key: str) -> str:
        return f"{self.prefix}{key}"

    def __contains__(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, check: Callable[[Any], bool], expected: str, default: Any = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise ConfigError(self.file, self._key(key), expected, missing=True)
            return default
        value = self.data[key]
        if not check(value):
            raise ConfigError(self.file, self._key(key), expected, value)
        return value

    def table(self, key: str, default: Any = ...) -> Table:
        value = self.get(key, lambda v: isinstance(v, Mapping), "a table", default)
        return Table(value if value is not None else {}, self.file, f"{self._key(key)}.")

    def keys(self) -> list[str]:
        return list(self.data)

    def only(self, *known: str) -> Table:
        """Refuse a key this table does not know (one rule for every profile: docs/profiles.md).

        A typo (``[detecter]``, ``bounce_sm``) is named with the keys that
        are known, rather than silently ignored while the default applies.
        """
        for key in self.data:
            if key not in known:
                raise ConfigError(self.file, self._key(key), "one of " + ", ".join(known), "an unknown key")
        return self

    def number(
        self,
        key: str,
        default: Any = ...,
        lo: float | None = None,
        hi: float | None = None,
        *,
        above: float | None = None,
    ) -> float:
        """A finite number (never NaN or infinity) within ``lo``..``hi`` (and ``> above``)."""

        def ok(v: Any) -> bool:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                return False
            return (lo is None or v >= lo) and (hi is None or v <= hi) and (above is None or v > above)

        v = self.get(key, ok, f"a number{_range_text(lo, hi, above)}", default)
        return float(v) if v is not None else v

    def integer(
        self, key: str, default: Any = ..., lo: int | None = None, hi: int | None = None, *, above: int | None = None
    ) -> int:
        def ok(v: Any) -> bool:
            return (
                isinstance(v, int)
                and not isinstance(v, bool)
                and (lo is None or v >= lo)
                and (hi is None or v <= hi)
                and (above is None or v > above)
            )

        return self.get(key, ok, f"a whole number{_range_text(lo, hi, above)}", default)

    def overrides(
        self, fields: Mapping[str, str], ranges: Mapping[str, tuple[float | None, float | None, float | None]]
    ) -> dict[str, float]:
        """A table of parameter overrides: each key a known field, each value in its range.

        ``fields`` maps a parameter's name to its type name ("int" or "float");
        ``ranges`` gives (lo, hi, above) per name, else ``unit_range`` applies.
        """
        self.only(*fields)
        out: dict[str, float] = {}
        for key in self.data:
            lo, hi, above = ranges.get(key) or unit_range(key)
            value = self.data[key]
            if fields[key] == "int" and isinstance(value, float) and value.is_integer():
                self.data = {**self.data, key: int(value)}  # 3.0 written for a count is the count 3
            if fields[key] == "int":
                out[key] = self.integer(
                    key,
                    lo=None if lo is None else math.ceil(lo),
                    hi=None if hi is None else math.floor(hi),
                    above=None if above is None else math.floor(above),
                )
            else:
                out[key] = self.number(key, lo=lo, hi=hi, above=above)
        return out

    def string(self, key: str, default: Any = ..., choices: tuple[str, ...] | None = None) -> str:
        if choices:
            return self.get(key, lambda v: v in choices, "one of " + ", ".join(map(repr, choices)), default)
        return self.get(key, lambda v: isinstance(v, str), "a string", default)

    def boolean(self, key: str, default: Any = ...) -> bool:
        return self.get(key, lambda v: isinstance(v, bool), "true or false", default)

    def list(
        self, key: str, default: Any = ..., of: Callable[[Any], bool] = lambda v: True, expected: str = "a list"
    ) -> list[Any]:
        return self.get(key, lambda v: isinstance(v, list) and all(of(x) for x in v), expected, default)


def load_table(path: str | os.PathLike[str]) -> Table:
    return Table(load_toml(path), Path(path))


# -- writing ------------------------------------------------------------------
# The standard library reads TOML but does not write it.  Profiles are small
# (tables of numbers, strings and lists), so this one writer serves every
# calibration wizard; its output is read back by tomllib in the tests.


def _toml_key(key: str) -> str:
    bare = key.replace("-", "").replace("_", "").isalnum() and key.isascii()
    return key if bare else _toml_value(key)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError(f"TOML profiles hold finite numbers only, got {v}")
        return repr(round(v, 6))
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if hasattr(v, "item"):  # a numpy scalar
        return _toml_value(v.item())
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _is_table_list(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and bool(v) and all(isinstance(x, Mapping) for x in v)


def _toml_table(data: Mapping[str, Any], prefix: str, out: list[str]) -> None:
    scalars = {k: v for k, v in data.items() if not isinstance(v, Mapping) and not _is_table_list(v) and v is not None}
    for k, v in scalars.items():
        out.append(f"{_toml_key(k)} = {_toml_value(v)}")
    for k, v in data.items():
        name = f"{prefix}{_toml_key(k)}"
        if isinstance(v, Mapping):
            out += ["", f"[{name}]"]
            _toml_table(v, f"{name}.", out)
        elif _is_table_list(v):
            for item in v:
                out += ["", f"[[{name}]]"]
                _toml_table(item, f"{name}.", out)


def dump_toml(data: Mapping[str, Any], comment: str = "") -> str:
    """TOML text for ``data`` (nested dicts, lists of dicts, scalars, lists); None values are left out."""
    out = [f"# {line}" if line else "#" for line in comment.splitlines()]
    _toml_table(data, "", out)
    return "\n".join(out).lstrip("\n") + "\n"


def save_text_atomic(path: str | os.PathLike[str], text: str, *, make_folder: bool = True) -> Path:
    """Write a text file (UTF-8, its line ends as given: a CSV's \\r\\n stays \\r\\n) as ``save_bytes_atomic`` does."""
    return save_bytes_atomic(path, text.encode("utf-8"), make_folder=make_folder)


def save_bytes_atomic(path: str | os.PathLike[str], data: bytes, *, make_folder: bool = True) -> Path:
    """Write a file of ``data`` as ``atomic_writer`` does."""
    with atomic_writer(path, make_folder=make_folder) as f:
        f.write(data)
    return Path(path)


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str], *, make_folder: bool = True) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through, so that a crash, a power cut or a full disk never leaves half of
    one behind (and a file of gigabytes, a training cache, need not be held in memory first).

    What is written goes to a fresh temporary file in the same folder (so the
    rename cannot cross file systems), is fsynced when the block ends, then
    renamed over ``path``; the folder is fsynced so the rename itself survives
    a power cut.  If the block or the write fails, the temporary file is
    removed and the old file is untouched; the error propagates for the
    caller to report.
    """
    p = Path(path)
    if make_folder:
        p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with open(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())  # the new bytes are on disk before they replace the old
        if p.exists():
            with contextlib.suppress(OSError):  # keep the old file's permissions
                os.chmod(tmp, p.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o644)  # mkstemp makes it 0600; a profile or record is for everyone to read
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # not every file system lets a folder be fsynced
        dirfd = os.open(p.parent, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)


def aside_name(path: str | os.PathLike[str]) -> Path:
    """A free name beside ``path`` for a file we cannot use: ``NAME.unreadable-<time>[-n]``."""
    p = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = p.with_name(f"{p.name}.unreadable-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = p.with_name(f"{p.name}.unreadable-{stamp}-{n}")
    return target


def move_aside(path: str | os.PathLike[str]) -> Path:
    """Keep a file we cannot use under ``aside_name``: never overwritten, for a person to look at."""
    target = aside_name(path)
    Path(path).rename(target)
    return target
