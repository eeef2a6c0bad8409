from __future__ import annotations

from pathlib import Path

import pytest

from companion.store import Store
from companion.testing import register


@pytest.fixture(autouse=True)
def tally() -> None:
    register()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games" / "bellwether.db"


@pytest.fixture
def store(db_path: Path):
    s = Store(db_path)
    yield s
    s.close()
