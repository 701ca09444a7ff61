"""The LingPipe conformance vectors (tests/data/lingpipe-*-vectors.jsonl) and the helpers that replay and compare them."""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

#: The worked example of LingPipe's ScoredPrecisionRecallEvaluation documentation
#: (3.9.2 and 4.1 alike): (score, correct) in rank order; 4.1 adds one miss.
LINGPIPE_EXAMPLE = [
    (-1.21, False),
    (-1.27, True),
    (-1.39, False),
    (-1.47, True),
    (-1.60, True),
    (-1.65, False),
    (-1.79, False),
    (-1.80, False),
    (-2.01, True),
    (-3.70, False),
]


def decode(value: Any) -> Any:
    """The conformance files write non-finite numbers as strings."""
    if isinstance(value, str) and value in ("NaN", "Infinity", "-Infinity"):
        return float(value.replace("Infinity", "inf"))
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        return {k: decode(v) for k, v in value.items()}
    return value


def load_vectors(version: str = "3.9.2") -> list[dict[str, Any]]:
    """The LingPipe conformance vectors of ``version`` ("3.9.2" or "4.1.0"), decoded."""
    with open(DATA / f"lingpipe-{version}-vectors.jsonl", encoding="utf-8") as fh:
        return [decode(json.loads(line)) for line in fh]


def same_float(actual: float, expected: float, rel: float = 1e-12) -> bool:
    """Equal within ``rel`` (relative), NaN equal to NaN, infinities exact."""
    if math.isnan(expected):
        return math.isnan(actual)
    if math.isinf(expected) or expected == 0.0:
        return actual == expected
    return math.isclose(actual, expected, rel_tol=rel, abs_tol=0.0)


def mismatches(actual: Any, expected: Any, path: str = "") -> list[str]:
    """Paths where ``actual`` differs from ``expected``: floats by their bits (so
    0.0 differs from -0.0), any NaN equal to any NaN, lengths and types exact."""
    if isinstance(expected, float):
        if not isinstance(actual, float):
            return [f"{path}: {actual!r} is not a float"]
        if math.isnan(expected) and math.isnan(actual):
            return []
        if struct.pack("<d", actual) != struct.pack("<d", expected):
            return [f"{path}: {actual!r} != {expected!r}"]
        return []
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: length {len(actual)} != {len(expected)}"]
        return [m for i, (a, e) in enumerate(zip(actual, expected)) for m in mismatches(a, e, f"{path}[{i}]")]
    if isinstance(expected, dict):
        if set(actual) != set(expected):
            return [f"{path}: keys {sorted(actual)} != {sorted(expected)}"]
        return [m for k in expected for m in mismatches(actual[k], expected[k], f"{path}.{k}")]
    if type(actual) is not type(expected) or actual != expected:
        return [f"{path}: {actual!r} != {expected!r}"]
    return []


def lingpipe_replay(ops: list, version: str) -> Any:
    """A scored_pr.lingpipe evaluation of ``version`` after a conformance vector's ops."""
    from scored_pr.lingpipe import ScoredPrecisionRecallEvaluation

    ev = ScoredPrecisionRecallEvaluation(version=version)
    for op in ops:
        if op[0] == "case":
            ev.addCase(op[1], float(op[2]))
        elif op[0] == "misses":
            ev.addMisses(op[1])
        else:
            ev.addNegativeMisses(op[1])
    return ev


def lingpipe_observe(ev: Any, ranks: Any) -> dict[str, Any]:
    """Every value the conformance file of ``ev.version`` records, under its keys.

    Curves become nested lists; 4.1's ragged interpolated ``prScoreCurve``
    (a list of rows) too.
    """
    four = ev.version == "4.1"
    got: dict[str, Any] = {"numCases": ev.numCases()}
    if four:
        got["numPositiveRef"] = ev.numPositiveRef()
        got["numNegativeRef"] = ev.numNegativeRef()
    for interpolate in (False, True):
        key = "true" if interpolate else "false"
        for name in ("prCurve", "prScoreCurve", "rocCurve"):
            got[f"{name}_{key}"] = [row.tolist() for row in getattr(ev, name)(interpolate)]
        got[f"areaUnderPrCurve_{key}"] = ev.areaUnderPrCurve(interpolate)
        got[f"areaUnderRocCurve_{key}"] = ev.areaUnderRocCurve(interpolate)
    got["averagePrecision"] = ev.averagePrecision()
    got["maximumFMeasure"] = ev.maximumFMeasure()
    got["maximumFMeasure_0.5"] = ev.maximumFMeasure(0.5)
    got["maximumFMeasure_2"] = ev.maximumFMeasure(2.0)
    got["prBreakevenPoint"] = ev.prBreakevenPoint()
    if four:
        got["rPrecision"] = ev.rPrecision()
        got["elevenPtInterpPrecision"] = ev.elevenPtInterpPrecision().tolist()
    got["reciprocalRank"] = ev.reciprocalRank()
    got["precisionAt"] = {str(rank): ev.precisionAt(int(rank)) for rank in ranks}
    got["toString"] = ev.toString()
    return got
