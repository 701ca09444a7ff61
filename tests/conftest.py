"""Shared helpers for the test suite."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


def decode(value: Any) -> Any:
    """The conformance files write non-finite numbers as strings."""
    if isinstance(value, str) and value in ("NaN", "Infinity", "-Infinity"):
        return float(value.replace("Infinity", "inf"))
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        return {k: decode(v) for k, v in value.items()}
    return value


def load_vectors() -> list[dict[str, Any]]:
    with open(DATA / "lingpipe-3.9.2-vectors.jsonl", encoding="utf-8") as fh:
        return [decode(json.loads(line)) for line in fh]


def same_float(actual: float, expected: float, rel: float = 1e-12) -> bool:
    """Equal within ``rel`` (relative), NaN equal to NaN, infinities exact."""
    if math.isnan(expected):
        return math.isnan(actual)
    if math.isinf(expected) or expected == 0.0:
        return actual == expected
    return math.isclose(actual, expected, rel_tol=rel, abs_tol=0.0)
