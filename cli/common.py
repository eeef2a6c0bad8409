"""Helpers the command modules share: opening the store, printing JSON."""

from __future__ import annotations

import argparse
import errno
import json
import sys
from typing import Any

from companion import paths
from companion.store import Store


def open_store(args: argparse.Namespace) -> Store:
    store = Store(paths.database_path(getattr(args, "data_dir", None)))
    if store.notice:
        print(f"bellwether: {store.notice}", file=sys.stderr)
    return store


def os_reason(e: OSError) -> str:
    """An OSError in a few words: 'the disk is full' rather than '[Errno 28] ...'."""
    if e.errno == errno.ENOSPC:
        return "the disk is full: free space and try again"
    return e.strerror or str(e)


def print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, sort_keys=False))
