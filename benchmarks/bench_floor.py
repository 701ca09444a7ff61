#!/usr/bin/env python3
"""Bulk speed against the stable-argsort "floor", retained memory, and add_case at scale.

Targets (ratios from one run, medians; the machine is shared, compare ratios):

1. bulk full report (the set of queries of docs/performance.md) on a fresh evaluator,
   against ``np.argsort(-s, kind="stable")`` + cumulative sums
   (``shared/bench/anchors.py`` ``limit_numpy``): <= 0.35x at 1M distinct
   scores, <= 0.5x with 1,000 distinct values, <= 0.5x at 10M (``--big``),
   under both tie policies. ``np.sort`` of the scores is shown for scale.
2. retained memory (tracemalloc, inputs deleted): <= 9.5 B/case after
   ``add_cases`` with no query, <= 12 B/case after the full report.
3. ``add_case``: per-call cost over 10M calls without a query <= 1.3x the
   cost over 100k calls and <= 1.5x a bare ``SortedList.add`` loop of 100k
   scores; pending cases <= 12 B/case (1M calls under tracemalloc).

Usage::

    python benchmarks/bench_floor.py            # 1M; add_case at 10M calls
    python benchmarks/bench_floor.py --big      # also bulk and memory at 10M
    python benchmarks/bench_floor.py --quick    # smoke run (small n)
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
import tracemalloc
from typing import Any, Callable

import numpy as np
from sortedcontainers import SortedList

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import scored_pr  # noqa: E402
from bench import limit_numpy as floor  # noqa: E402  # the reference harness's numpy floor
from scored_pr import ScoredPrecisionRecallEvaluation as E  # noqa: E402


def data(n: int, distinct: int | None = None, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    if distinct:
        lo, hi = s.min(), s.max()
        s = np.round((s - lo) / (hi - lo) * (distinct - 1))
    return y, s


def report(ev: E) -> tuple[Any, ...]:
    return (
        ev.average_precision(), ev.area_under_roc_curve(False), ev.pr_curve(False), ev.roc_curve(False),
        ev.area_under_pr_curve(True), ev.maximum_f_measure(), ev.pr_breakeven_point(), ev.reciprocal_rank(),
        ev.precision_at(100),
    )  # fmt: skip


def full(y: np.ndarray, s: np.ndarray, ties: str) -> Any:
    ev = E(ties=ties)
    ev.add_cases(y, s)
    return report(ev)


def interleaved(fns: dict[str, Callable[[], Any]], reps: int) -> dict[str, float]:
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(reps):
        for k, fn in fns.items():
            gc.collect()
            t = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in times.items()}


def ms(x: float) -> str:
    return f"{x * 1e3:.1f} ms" if x < 10 else f"{x:.2f} s"


def verdict(value: float, limit: float) -> str:
    return f"{value:.2f}x (≤{limit}x) {'PASS' if value <= limit else 'FAIL'}"


def retained(n: int, ties: str, distinct: int | None) -> tuple[float, float]:
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        y, s = data(n, distinct, seed=3)
        ev = E(ties=ties)
        ev.add_cases(y, s)
        del y, s
        gc.collect()
        after_add = tracemalloc.get_traced_memory()[0] - base
        out = report(ev)
        del out
        gc.collect()
        after_report = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    del ev
    return after_add / n, after_report / n


def add_case_per_call(calls: int, chunk: int = 100_000) -> float:
    """Seconds per add_case over ``calls`` calls without a query (inputs made in chunks, not timed)."""
    ev = E()
    add = ev.add_case
    total = 0.0
    done = 0
    seed = 0
    while done < calls:
        k = min(chunk, calls - done)
        y, s = data(k, seed=seed)
        yl, sl = y.tolist(), s.tolist()
        t = time.perf_counter()
        for c, v in zip(yl, sl):
            add(c, v)
        total += time.perf_counter() - t
        done += k
        seed += 1
    return total / calls


def sortedlist_per_call(calls: int) -> float:
    _, s = data(calls, seed=0)
    sl = s.tolist()
    lst = SortedList()
    add = lst.add
    t = time.perf_counter()
    for v in sl:
        add(v)
    return (time.perf_counter() - t) / calls


def pending_bytes(calls: int) -> float:
    y, s = data(calls, seed=5)
    yl, sl = y.tolist(), s.tolist()
    del y, s
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        ev = E()
        add = ev.add_case
        for c, v in zip(yl, sl):
            add(c, v)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    del ev
    return held / calls


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--big", action="store_true", help="also n = 10,000,000 for the bulk and memory sections")
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    n = 100_000 if args.quick else 1_000_000
    big_calls = 300_000 if args.quick else 10_000_000
    out = print
    load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
    out("# scored_pr: bulk against the stable-argsort floor, memory, add_case at scale\n")
    out(f"- Python {platform.python_version()}; numpy {np.__version__}; scored_pr {scored_pr.__version__}; "
        f"{os.cpu_count()} cores; load average at start {', '.join(f'{x:.2f}' for x in load)}")  # fmt: skip
    out(f"- medians of {args.reps}, contenders take turns; shared noisy machine: compare ratios\n")

    out("## 1. Bulk: numpy arrays -> full report, fresh evaluator\n")
    out("Full report = add_cases, average_precision, area_under_roc_curve(False), pr_curve(False), roc_curve(False), "
        "area_under_pr_curve(True), maximum_f_measure, pr_breakeven_point, reciprocal_rank, precision_at(100). "
        "Floor = np.argsort(-s, kind='stable') + cumsums (anchors.py limit_numpy).\n")
    out("| n | scores | floor | np.sort | grouped | stable | grouped / floor | stable / floor |")
    out("|---|---|---|---|---|---|---|---|")
    cases = [(n, None, 0.35), (n, 1000, 0.5)]
    if args.big:
        cases.append((10 * n, None, 0.5))
    for size, distinct, limit in cases:
        y, s = data(size, distinct)
        reps = args.reps if size <= 1_000_000 else 3
        t = interleaved({
            "floor": lambda: floor(y, s), "sort": lambda: np.sort(-s),
            "grouped": lambda: full(y, s, "grouped"), "stable": lambda: full(y, s, "stable"),
        }, reps)  # fmt: skip
        label = "distinct" if distinct is None else f"{distinct:,} distinct"
        out(f"| {size:,} | {label} | {ms(t['floor'])} | {ms(t['sort'])} | {ms(t['grouped'])} | {ms(t['stable'])} | "
            f"{verdict(t['grouped'] / t['floor'], limit)} | {verdict(t['stable'] / t['floor'], limit)} |")
        del y, s
    out()

    out("## 2. Memory retained by the evaluator (tracemalloc, inputs deleted)\n")
    out("| n | scores | ties | after add_cases (≤9.5 B/case) | after full report (≤12 B/case) |")
    out("|---|---|---|---|---|")
    sizes = [n, 10 * n] if args.big else [n]
    for size in sizes:
        for distinct in (None, 1000):
            for ties in ("grouped", "stable"):
                a, r = retained(size, ties, distinct)
                label = "distinct" if distinct is None else f"{distinct:,} distinct"
                out(f"| {size:,} | {label} | {ties} | {a:.2f} {'PASS' if a <= 9.5 else 'FAIL'} | "
                    f"{r:.2f} {'PASS' if r <= 12 else 'FAIL'} |")
    out()

    out("## 3. add_case without a query\n")
    small = statistics.median(add_case_per_call(100_000) for _ in range(args.reps))
    bare = statistics.median(sortedlist_per_call(100_000) for _ in range(args.reps))
    large = add_case_per_call(big_calls)
    pend = pending_bytes(min(big_calls, 1_000_000))
    out("| loop | per call | ratio (target) |")
    out("|---|---|---|")
    out(f"| add_case, 100,000 calls (median of {args.reps}) | {small * 1e9:.0f} ns | 1x |")
    out(f"| add_case, {big_calls:,} calls (1 run) | {large * 1e9:.0f} ns | {large / small:.2f}x of 100k (≤1.3x) "
        f"{'PASS' if large / small <= 1.3 else 'FAIL'}; {large / bare:.2f}x of SortedList.add (≤1.5x) "
        f"{'PASS' if large / bare <= 1.5 else 'FAIL'} |")  # fmt: skip
    out(f"| bare SortedList.add, 100,000 calls (median of {args.reps}) | {bare * 1e9:.0f} ns | — |")
    out()
    out(f"Pending cases after {min(big_calls, 1_000_000):,} add_case calls: {pend:.2f} B/case (≤12) "
        f"{'PASS' if pend <= 12 else 'FAIL'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
