#!/usr/bin/env python3
"""Where the time of the bulk full report goes: 1M distinct binormal scores, step by step (issue 28, target 5).

The full report (``shared/bench/anchors.py``'s ``project_full``: add_cases,
average_precision, area_under_roc_curve(False), pr_curve(False),
roc_curve(False), area_under_pr_curve(True), maximum_f_measure,
pr_breakeven_point, reciprocal_rank, precision_at(100)) is run on a fresh
evaluator one step at a time, each step timed; the first query's sort and
merge (``CaseStore.arrays``, i.e. :func:`scored_pr._core.ranking.rank_order`)
and the kernel (``operating_points``) are timed as steps of their own. Then
the numpy operations that ``rank_order`` is made of (distinct scores) are
timed alone on the same data, and ``np.sort`` of the scores, the stable
argsort + cumsums floor (``bench_floor.py``) and the report are set side by
side. Every figure is the median of ``--reps`` runs (default 15), steps
taking turns with the whole report; ``--cpu`` times CPU time of this
process (``time.process_time``) instead of wall-clock time, which a shared
machine disturbs less.

Usage::

    python benchmarks/profile_bulk.py            # 1M, grouped ties
    python benchmarks/profile_bulk.py --ties stable --cpu
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import scored_pr  # noqa: E402
from bench import limit_numpy as floor  # noqa: E402  # the reference harness's numpy floor, as bench_floor.py times it
from scored_pr import ScoredPrecisionRecallEvaluation as E  # noqa: E402


def data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """bench_floor.py's data: 30 % positive, scores N(0, 1) + label (distinct)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, rng.normal(size=n) + y


STEPS: list[tuple[str, Callable[[Any, np.ndarray, np.ndarray], Any]]] = [
    ("add_cases (validate, copy, negate)", lambda ev, y, s: ev.add_cases(y, s)),
    ("first query: sort + merge (rank_order)", lambda ev, y, s: ev._store.arrays()),
    ("kernel: operating_points", lambda ev, y, s: ev._points()),
    ("average_precision", lambda ev, y, s: ev.average_precision()),
    ("area_under_roc_curve(False)", lambda ev, y, s: ev.area_under_roc_curve(False)),
    ("pr_curve(False)", lambda ev, y, s: ev.pr_curve(False)),
    ("roc_curve(False)", lambda ev, y, s: ev.roc_curve(False)),
    ("area_under_pr_curve(True)", lambda ev, y, s: ev.area_under_pr_curve(True)),
    ("maximum_f_measure", lambda ev, y, s: ev.maximum_f_measure()),
    ("pr_breakeven_point", lambda ev, y, s: ev.pr_breakeven_point()),
    ("reciprocal_rank", lambda ev, y, s: ev.reciprocal_rank()),
    ("precision_at(100)", lambda ev, y, s: ev.precision_at(100)),
]


def rank_order_parts(y: np.ndarray, s: np.ndarray) -> dict[str, Callable[[], Any]]:
    """The numpy operations of rank_order on distinct scores, each on its own (inputs made beforehand).

    rank_order merges the two sorted classes with a stable argsort of their
    concatenation (numpy's timsort merges the two runs in O(n)) and a gather
    of the ranking it gives. Also timed, for comparison: the merge it used
    before, a searchsorted of the correct cases among the incorrect ones and
    a scatter into the ranking.
    """
    neg = -s
    n = neg.size
    pos = np.sort(neg[y])
    other = np.sort(neg[~y])
    at = np.searchsorted(other, pos) + np.arange(pos.size)
    cor = np.zeros(n, dtype=bool)
    cor[at] = True
    out = np.empty(n)
    out[at] = pos
    out[~cor] = other
    both = np.concatenate((pos, other))
    o = np.argsort(both, kind="stable")

    def scatter() -> None:
        c = np.zeros(n, dtype=bool)
        c[at] = True
        r = np.empty(n)
        r[at] = pos
        np.place(r, ~c, other)

    return {
        "  compress each class (np.compress x2)": lambda: (np.compress(y, neg), np.compress(~y, neg)),
        "  np.sort of each class": lambda: (np.sort(pos), np.sort(other)),
        "  merge: concatenate + stable argsort (timsort, two runs)": lambda: np.argsort(
            np.concatenate((pos, other)), kind="stable"
        ),
        "  merge: gather the ranking it gives (scores, labels)": lambda: (both[o], o < pos.size),
        "  tie check (out[1:] == out[:-1], count)": lambda: int(np.count_nonzero(out[1:] == out[:-1])),
        "  (former merge) searchsorted(incorrect, correct) + arange": lambda: np.searchsorted(other, pos) + np.arange(pos.size),
        "  (former merge) scatter into the ranking (labels, scores, np.place)": scatter,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--ties", default="grouped", choices=["grouped", "stable"])
    ap.add_argument("--cpu", action="store_true", help="CPU time of this process instead of wall-clock time")
    args = ap.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter
    y, s = data(args.n)
    times: dict[str, list[float]] = {}

    def timed(name: str, fn: Callable[[], Any]) -> Any:
        gc.collect()
        t = clock()
        value = fn()
        times.setdefault(name, []).append(clock() - t)
        return value

    parts = rank_order_parts(y, s)
    for rep in range(args.reps + 1):  # the first round warms up and is not counted
        ev = E(ties=args.ties)
        held = []
        for name, step in STEPS:  # one step at a time; the results are held, as the report holds them
            t = clock()
            held.append(step(ev, y, s))
            times.setdefault(name, []).append(clock() - t)
        del held, ev

        def whole() -> Any:
            ev = E(ties=args.ties)
            ev.add_cases(y, s)
            return tuple(step(ev, y, s) for _, step in STEPS[1:])

        timed("full report (one go)", whole)
        timed("np.sort(-scores)", lambda: np.sort(-s))
        timed("floor: stable argsort + cumsums", lambda: floor(y, s))
        for name, fn in parts.items():
            timed(name, fn)
        if rep == 0:
            times.clear()
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    report = med["full report (one go)"]
    unit = "CPU ms" if args.cpu else "ms"
    print(f"# Where the full report's time goes: {args.n:,} distinct binormal scores, ties={args.ties}\n")
    print(f"- scored_pr {scored_pr.__version__}; Python {platform.python_version()}; numpy {np.__version__}; "
          f"{os.cpu_count()} cores; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")  # fmt: skip
    print(f"- medians of {args.reps} runs ({'CPU time' if args.cpu else 'wall-clock'}); steps run one at a time on a fresh evaluator\n")
    print(f"| step | {unit} | share of the report |")
    print("|---|---|---|")
    total = 0.0
    for name, _ in STEPS:
        total += med[name]
        print(f"| {name} | {med[name]:.2f} | {med[name] / report:.0%} |")
    print(f"| sum of the steps | {total:.2f} | {total / report:.0%} |")
    print(f"| **full report (one go)** | **{report:.2f}** | 100% |")
    print()
    print("rank_order's operations on these scores, each timed alone:\n")
    print(f"| operation | {unit} | share of the report |")
    print("|---|---|---|")
    for name in parts:
        print(f"| {name.strip()} | {med[name]:.2f} | {med[name] / report:.0%} |")
    print()
    print(f"| for scale | {unit} | report / this |")
    print("|---|---|---|")
    for name in ("np.sort(-scores)", "floor: stable argsort + cumsums"):
        print(f"| {name} | {med[name]:.2f} | {report / med[name]:.2f}x |")
    print(f"\nnp.sort of the scores is {med['np.sort(-scores)'] / report:.0%} of the report; "
          f"the report is {report / med['floor: stable argsort + cumsums']:.3f}x the floor (target <= 0.35x).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
