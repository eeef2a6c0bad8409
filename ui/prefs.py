"""The app's own small files in the data directory: preferences, and which
game was open when the app last ran (so a killed app reopens it).

The game itself is in the session store; these files only say how to show it.
They are written atomically (write, fsync, rename) so a kill never leaves half
a file behind.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

PREFS_FILE = "ui-preferences.json"
OPEN_FILE = "ui-open-game.json"


@dataclass
class Preferences:
    palette: str = "standard"  # or "colour-blind"
    speak: bool = False  # spoken prompts through espeak-ng
    text_size: str = "normal"  # or "large" (ui.theme.TEXT_SIZES)
    last_players: tuple[str, ...] = ()  # names offered again at the next setup
    # Per game, the last setup form as it was started: count, names, colour or
    # character per seat and the variant options, offered again next time.
    setups: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, data_dir: Path) -> Preferences:
        raw = _read(data_dir / PREFS_FILE)
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in raw.items() if k in known}
        if "last_players" in values:
            values["last_players"] = tuple(str(n) for n in values["last_players"] if isinstance(n, str))
        prefs = cls(**values)
        if not isinstance(prefs.palette, str):
            prefs.palette = "standard"
        prefs.speak = bool(prefs.speak)
        if not isinstance(prefs.text_size, str):
            prefs.text_size = "normal"
        if not isinstance(prefs.setups, dict):
            prefs.setups = {}
        return prefs

    def save(self, data_dir: Path) -> None:
        d = asdict(self)
        d["last_players"] = list(self.last_players)
        _write(data_dir / PREFS_FILE, d)


def open_game(data_dir: Path) -> int | None:
    """The stored game that was on the table when the app last ran, if any."""
    value = _read(data_dir / OPEN_FILE).get("session")
    return value if isinstance(value, int) else None


def set_open_game(data_dir: Path, session_id: int | None) -> None:
    path = data_dir / OPEN_FILE
    if session_id is None:
        try:
            path.unlink(missing_ok=True)
        except OSError as e:  # a read-only folder: the app reopens this game next time, no harm
            log.warning("%s not removed: %s", path, e.strerror or e)
    else:
        _write(path, {"session": session_id})


def _read(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # absent or unreadable: defaults are always safe here
    return value if isinstance(value, dict) else {}


def _write(path: Path, value: dict[str, Any]) -> None:
    # These files only say how to show the game (the game is in the store), so a full
    # disk or a read-only folder costs a preference, logged, never the running table.
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("w", encoding="utf-8") as f:
            json.dump(value, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        log.warning("%s not saved: %s", path, e.strerror or e)
        with contextlib.suppress(OSError):
            tmp.unlink()
