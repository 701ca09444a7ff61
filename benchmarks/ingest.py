#!/usr/bin/env python3
"""Ingestion of array-likes: ``add_cases`` from torch, pandas, polars and lists vs numpy.

Every input holds the same 1,000,000 labels and float32 scores (float32, as a
model's output usually is); each row times ``add_cases`` on a fresh evaluator
(best of 5) and reports the ratio to the same call with numpy arrays of the
same dtypes, measured in the same run. Target (the first-hour issue): CPU torch tensors and pandas /
polars Series within 2x numpy. Libraries that are not installed are skipped
(torch: ``pip install torch==2.13.0``; pandas and polars from PyPI).

Usage::

    python benchmarks/ingest.py [--n 1000000]
"""

from __future__ import annotations

import argparse
import gc
import time
from typing import Any, Callable

import numpy as np

from scored_pr import ScoredPrecisionRecallEvaluation


def best(fn: Callable[[], Any], reps: int = 5) -> float:
    times = []
    for _ in range(reps):
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    n = ap.parse_args().n
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.3
    s = (rng.normal(size=n) + y).astype(np.float32)
    yi, yf = y.astype(np.int64), y.astype(np.float64)
    # (name, labels, scores, the same data as numpy arrays)
    inputs: list[tuple[str, Any, Any, tuple[Any, Any]]] = [("numpy bool + float32", y, s, (y, s))]
    try:
        import torch

        yt, st = torch.from_numpy(yi), torch.from_numpy(s)
        inputs.append(("torch int64 + float32 tensors", yt, st, (yi, s)))
        inputs.append(("torch bool + float32 requiring grad", torch.from_numpy(y), st.clone().requires_grad_(True), (y, s)))
    except ImportError:
        print("(torch not installed: skipped)")
    try:
        import pandas as pd

        inputs.append(("pandas Series (bool, float32)", pd.Series(y), pd.Series(s), (y, s)))
        inputs.append(("pandas Series (float labels 1.0/0.0)", pd.Series(yf), pd.Series(s), (yf, s)))
    except ImportError:
        print("(pandas not installed: skipped)")
    try:
        import polars as pl

        inputs.append(("polars Series (bool, float32)", pl.Series(y), pl.Series(s), (y, s)))
    except ImportError:
        print("(polars not installed: skipped)")
    small = 100_000
    inputs.append((f"Python lists (n={small:,}, per case)", y[:small].tolist(), s[:small].tolist(), (y[:small], s[:small])))

    def run(c: Any, sc: Any) -> None:
        ScoredPrecisionRecallEvaluation().add_cases(c, sc)

    print(f"add_cases of n = {n:,} cases; ratio to the same data as numpy arrays, same run (target <= 2x)\n")
    print("| input | time | numpy arrays | ratio |\n| --- | ---: | ---: | ---: |")
    for name, c, sc, (nc, ns) in inputs:
        t = best(lambda: run(c, sc))
        base = best(lambda: run(nc, ns))
        print(f"| {name} | {t * 1e3:.1f} ms | {base * 1e3:.1f} ms | {t / base:.2f}x |")


if __name__ == "__main__":
    main()
