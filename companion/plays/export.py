"""Choosing plays, rendering them in a format, and writing the file atomically."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.config import save_text_atomic
from companion.errors import os_reason
from companion.store import Store

from . import bgstats, csvout
from .model import ExportError, Play, clean_name, plays


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
    # The location is typed like a name (--location, a settings field): cleaned the same way.
    return f.render(chosen, clean_name(location)), len(chosen)


def default_name(format_name: str, now: dt.datetime | None = None) -> str:
    now = now or dt.datetime.now()
    return f"bellwether-plays-{now:%Y-%m-%d-%H%M}{fmt(format_name).suffix}"


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` the way every Bellwether file is written
    (``save_text_atomic``: a pulled USB stick or a power cut leaves the old file
    or the new one, never half of one), with a failure as an ExportError."""
    target = Path(path)
    if not target.parent.is_dir():
        raise ExportError(f"cannot write {target}: the folder {target.parent} does not exist")
    try:
        return save_text_atomic(target, text, make_folder=False)
    except OSError as e:
        raise ExportError(f"cannot write {target}: {os_reason(e)}") from None


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
