"""Helpers the command modules share: opening the store, printing JSON."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from companion import paths
from companion.errors import ConfigError, StoreError
from companion.store import Store


def open_store(args: argparse.Namespace) -> Store:
    store = Store(paths.database_path(getattr(args, "data_dir", None)))
    if store.notice:
        print(f"bellwether: {store.notice}", file=sys.stderr)
    return store


def _is_database(output: Path, database: Path) -> bool:
    """Would writing ``output`` overwrite the live database or its WAL/shared-memory files?"""
    out = output.expanduser().resolve()
    for suffix in ("", "-wal", "-shm", "-journal"):
        db = Path(f"{database}{suffix}")
        if out == db.resolve() or (out.exists() and db.exists() and os.path.samefile(out, db)):
            return True
    return False


def check_output(args: argparse.Namespace) -> None:
    """Refuse an ``-o`` that is empty or the game database itself, before anything is read."""
    if args.output is None:
        return
    if not args.output.strip():
        raise ConfigError("-o", "output", "a file path", args.output)
    if _is_database(Path(args.output), paths.database_path(getattr(args, "data_dir", None))):
        raise StoreError(f"will not export onto the game database itself ({args.output}): choose another file")


def print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, sort_keys=False))
