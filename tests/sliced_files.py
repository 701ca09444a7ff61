"""Files of sliced cases (correct, score, region, device) in every input format, for the ``--by`` tests.

``report --by`` and ``stream --by`` read the same files; both test modules write them here.
An empty region is the missing value: an empty field in CSV/TSV, null in JSON Lines and Parquet.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest


def write_sliced(tmp: Path, fmt: str, rows: list[tuple[Any, ...]]) -> Path:
    """``rows`` of (correct, score, region, device) as a file of format ``fmt`` (csv, tsv, csv.gz, jsonl, parquet)."""
    if fmt in ("csv", "tsv", "csv.gz"):
        sep = "\t" if fmt == "tsv" else ","
        text = sep.join(("correct", "score", "region", "device")) + "\n" + "".join(
            sep.join(map(str, r)) + "\n" for r in rows)
        path = tmp / f"p.{fmt}"
        path.write_bytes(gzip.compress(text.encode()) if fmt.endswith(".gz") else text.encode())
        return path
    if fmt == "jsonl":
        path = tmp / "p.jsonl"
        path.write_text("".join(json.dumps({"correct": c, "score": s, "region": r or None, "device": d}) + "\n"
                                for c, s, r, d in rows))
        return path
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp / "p.parquet"
    pq.write_table(pa.table({"correct": [r[0] for r in rows], "score": [r[1] for r in rows],
                             "region": [r[2] or None for r in rows], "device": [r[3] for r in rows]}), path)
    return path


def evaluator_of(rows: list[tuple[Any, ...]], where: dict[str, str]) -> Any:
    """An exact evaluator fed, by hand, the ``rows`` in the slice ``where`` ({"region": "eu"}; {} is overall)."""
    from scored_pr import ScoredPrecisionRecallEvaluation

    ev = ScoredPrecisionRecallEvaluation()
    for c, s, r, d in rows:
        row = {"region": r or "(missing)", "device": d}
        if all(row[k] == v for k, v in where.items()):
            ev.add_case(bool(c), s)
    return ev
