"""Fixtures every test folder may use."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import paths

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No test may touch the user's real games or profiles.
    monkeypatch.setenv("BELLWETHER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BELLWETHER_CONFIG_DIR", str(tmp_path / "config"))


@pytest.fixture
def shared_data() -> Path:
    """The real third-party recordings and photos (read in place, never copied)."""
    p = paths.shared_data()
    if not p.is_dir():
        pytest.skip(f"shared development data not found at {p} (set BELLWETHER_SHARED_DATA)")
    return p


def run_cli(
    *args: str, input: str | None = None, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run the real ``bellwether`` command in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        capture_output=True,
        text=True,
        input=input,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
        timeout=timeout,
    )


@pytest.fixture
def cli():
    return run_cli
