"""The package type-checks (it ships py.typed, so its annotations are part of the API)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_finds_no_errors(tmp_path) -> None:
    pytest.importorskip("mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "scored_pr", "--ignore-missing-imports", "--cache-dir", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_py_typed_is_shipped() -> None:
    assert (ROOT / "scored_pr" / "py.typed").exists()
