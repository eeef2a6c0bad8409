"""Choosing plays, rendering them in a format, and writing the file atomically."""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.store import Store

from . import bgstats, csvout
from .model import ExportError, Play, plays


@dataclass(frozen=True)
class Format:
    name: str
    label: str  # what the Share button says
    suffix: str
    render: Callable[[Sequence[Play], str], str]


FORMATS: dict[str, Format] = {
    "bgstats": Format("bgstats", "BG Stats", ".bgsplay.json", bgstats.dumps),
    "bgg-csv": Format("bgg-csv", "BoardGameGeek CSV", ".bgg.csv", csvout.bgg),
    "csv": Format("csv", "Spreadsheet CSV", ".csv", lambda ps, _loc: csvout.plain(ps)),
}


def fmt(name: str) -> Format:
    if name not in FORMATS:
        raise ExportError(f"--format: expected one of {', '.join(FORMATS)}, got {name!r}")
    return FORMATS[name]


def render(store: Store, format_name: str, since: dt.date | None = None, incomplete: bool = False,
           sessions: Iterable[int] | None = None, location: str = "") -> tuple[str, int]:  # fmt: skip
    """The export's text and how many plays it holds."""
    f = fmt(format_name)
    chosen = list(plays(store, since, incomplete))
    if sessions is not None:
        wanted = set(sessions)
        chosen = [p for p in chosen if p.session_id in wanted]
    return f.render(chosen, location), len(chosen)


def default_name(format_name: str, now: dt.datetime | None = None) -> str:
    now = now or dt.datetime.now()
    return f"bellwether-plays-{now:%Y-%m-%d-%H%M}{fmt(format_name).suffix}"


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write next to ``path``, fsync, then rename over it: a pulled USB stick or a
    power cut leaves the old file or the new one, never half of one."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(f"cannot write {target}: the folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise ExportError(f"cannot write {target}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise ExportError(f"cannot write {target}: {e.strerror or e}") from None
    try:  # the rename itself on disk (not every file system lets a folder be opened)
        dirfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)
    except OSError:
        pass
    return target


def share_folders(data_dir: str | os.PathLike[str], roots: Sequence[str] = ("/media", "/run/media")) -> list[tuple[str, Path]]:
    """Where "Share results" may write: each mounted removable medium (a USB
    stick under /media/<user>/<label> or /run/media/<user>/<label>, or straight
    under /media), then the data folder.  (label, folder) pairs; no network."""
    found: list[tuple[str, Path]] = []
    for root in roots:
        base = Path(root)
        try:
            entries = sorted(base.iterdir())
        except OSError:
            continue
        for entry in entries:
            if not entry.is_dir():
                continue
            if os.path.ismount(entry):
                found.append((f"USB stick {entry.name}", entry))
                continue
            try:
                inner = sorted(entry.iterdir())  # /media/<user>/<label>
            except OSError:
                continue
            found.extend((f"USB stick {m.name}", m) for m in inner if m.is_dir() and os.path.ismount(m))
    found = [(label, path) for label, path in found if os.access(path, os.W_OK)]
    found.append(("This Pi's data folder", Path(data_dir)))
    return found
