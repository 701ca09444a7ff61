#!/usr/bin/env python3
"""The window's per-case paths, before and after in pairs: short runs alternating, the median of per-pair ratios.

On a shared machine a median of long runs per contender drifts with the
load; pairing each "before" run with an "after" run taken right after it,
and taking the median of the ratios, cancels most of that drift. Loops (the
same as ``bench_perf4.py``'s sections 1 and 3, shorter):

* ``WindowedEvaluation(1000).add_case`` over the exact evaluator's
  ``add_case`` (50,000 calls of one bound method each; target <= 0.25x);
* ``add_case`` + ``area_under_roc_curve()`` per case through a 10,000-case
  window (40,000 cases) over a bare ``SortedList.add`` + ``remove`` loop of
  the same scores (target <= 2x), for probabilities and for ties (rounded
  to 2 decimals).

Usage::

    python benchmarks/bench_window_pairs.py --before /tmp/win-before --pairs 11
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_ties_add_case import packages  # noqa: E402
from bench_windows import auc_sortedlist_floor  # noqa: E402


def add_loop(make: Callable[[], Any], yl: list[bool], sl: list[float]) -> float:
    add = make().add_case
    t = time.process_time()
    for c, v in zip(yl, sl):
        add(c, v)
    return time.process_time() - t


def window_loop(pkg: Any, yl: list[bool], sl: list[float], window: int) -> float:
    ev = pkg.WindowedEvaluation(window)
    add, auc = ev.add_case, ev.area_under_roc_curve
    t = time.process_time()
    for c, v in zip(yl, sl):
        add(c, v)
        auc()
    return time.process_time() - t


def floor_loop(yl: list[bool], sl: list[float], window: int) -> float:
    t = time.process_time()
    auc_sortedlist_floor(yl, sl, window)
    return time.process_time() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="a checkout whose scored_pr is timed beside this one")
    ap.add_argument("--pairs", type=int, default=11)
    args = ap.parse_args(argv)
    pkgs = packages(args.before)
    before, after = pkgs["before"], pkgs["after"]
    rng = np.random.default_rng(1)
    n = 50_000
    y = rng.random(n) < 0.3
    p = 1 / (1 + np.exp(-(rng.normal(size=n) + y)))
    yl, sl = y.tolist(), p.tolist()
    rb, ra = [], []
    for _ in range(args.pairs):
        eb = add_loop(before.ScoredPrecisionRecallEvaluation, yl, sl)
        wb = add_loop(lambda: before.WindowedEvaluation(1000), yl, sl)
        ea = add_loop(after.ScoredPrecisionRecallEvaluation, yl, sl)
        wa = add_loop(lambda: after.WindowedEvaluation(1000), yl, sl)
        rb.append(wb / eb)
        ra.append(wa / ea)
    print(f"add_case windowed / exact, median of {args.pairs} pairs: "
          f"before {statistics.median(rb):.3f}x, after {statistics.median(ra):.3f}x (<= 0.25x)")
    n, window = 40_000, 10_000
    rng = np.random.default_rng(2)
    y = rng.random(n) < 0.3
    p = 1 / (1 + np.exp(-(rng.normal(size=n) + y)))
    for label, s in (("probabilities", p), ("ties", np.round(p, 2))):
        yl, sl = y.tolist(), s.tolist()
        xb, xa = [], []
        for _ in range(max(5, args.pairs // 2)):
            f = floor_loop(yl, sl, window)
            xb.append(window_loop(before, yl, sl, window) / f)
            xa.append(window_loop(after, yl, sl, window) / f)
        print(f"window loop, {label}, / SortedList floor, median of {len(xb)} pairs: "
              f"before {statistics.median(xb):.3f}x, after {statistics.median(xa):.3f}x (<= 2x)")
    print(f"Load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
