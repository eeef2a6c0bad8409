"""Helpers the command modules share: opening the store, printing JSON."""

from __future__ import annotations

import argparse
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


def print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, sort_keys=False))
