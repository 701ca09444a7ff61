#!/usr/bin/env python3
"""What the thread guard on every entry point costs (issue 34): add_case and the calls it now wraps.

1. ``add_case``: 100,000 calls <= 1.5x a bare ``SortedList.add`` loop of the
   same scores (the owner thread's lock-free path, unchanged by the guard).
2. The calls that now take the guard: a cached query (``average_precision()``
   asked again), a property (``num_cases``), ``add_cases`` of 10 cases, and
   the windowed and bounded kinds' ``add_case`` (which had no guard before),
   each before and after, in ns per call.

With ``--before PATH`` (a checkout of the code before the guard, e.g.
``git worktree add /tmp/before f6692ab``) that checkout's ``scored_pr`` runs in
the same process as ``scored_pr_before``, the contenders taking turns, so the
ratios come from one run.

Usage::

    python benchmarks/bench_guard.py --before /tmp/before --md benchmarks/results-guard.md
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from types import ModuleType
from typing import Any, Callable

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_ties_add_case import (  # noqa: E402
    add_case_table,
    binormal,
    commit_of,
    interleaved,
    load_before,
    scored_pr,
)

CALLS = 100_000


def _loop(make: Callable[[], Any], step: Callable[[Any, int], Any], calls: int = CALLS) -> Callable[[], None]:
    def run() -> None:
        ev = make()
        for i in range(calls):
            step(ev, i)

    return run


def _cached_query(pkg: ModuleType) -> Callable[[], None]:
    ev = pkg.ScoredPrecisionRecallEvaluation()
    y, s = binormal(1000)
    ev.add_cases(y, s)
    ev.average_precision()
    ap = ev.average_precision

    def run() -> None:
        for _ in range(CALLS):
            ap()

    return run


def _property(pkg: ModuleType) -> Callable[[], None]:
    ev = pkg.ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False], [0.5, 0.25])

    def run() -> None:
        for _ in range(CALLS):
            ev.num_cases  # noqa: B018

    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", help="a checkout whose scored_pr is timed beside this one")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--md", help="also write the markdown to this file")
    args = ap.parse_args(argv)
    pkgs: dict[str, ModuleType] = {}
    if args.before:
        pkgs["before"] = load_before(args.before)
    pkgs["after"] = scored_pr
    lines: list[str] = []

    def out(line: str = "") -> None:
        print(line, flush=True)
        lines.append(line)

    out("# scored_pr: the cost of the thread guard on every entry point (issue 34)\n")
    out(f"- Python {platform.python_version()}; numpy {np.__version__}; {os.cpu_count()} cores; "
        f"load average at start {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    out(f"- after = this checkout (commit {commit_of(os.path.join(HERE, '..'))})"
        + (f"; before = {args.before} (commit {commit_of(args.before)}), imported in the same process" if args.before else ""))
    out(f"- wall-clock medians of {args.reps}, contenders taking turns; shared machine: compare ratios\n")

    out("## 1. add_case against a bare SortedList.add\n")
    add_case_table(pkgs, args.reps, out)
    yy, ss = binormal(CALLS, seed=1)
    yl, sl = yy.tolist(), ss.tolist()

    out("## 2. The calls the guard now wraps (ns per call; 100,000 calls, add_cases 10,000)\n")
    small = CALLS // 10  # a batch of 10 costs tens of microseconds before and after: fewer calls
    workloads: dict[str, tuple[int, Callable[[ModuleType], Callable[[], None]]]] = {
        "exact: average_precision() again (cached)": (CALLS, _cached_query),
        "exact: num_cases (a property)": (CALLS, _property),
        "exact: add_cases of 10 cases": (small, lambda pkg: _loop(
            pkg.ScoredPrecisionRecallEvaluation, lambda ev, i: ev.add_cases(yy[:10], ss[i % 1000: i % 1000 + 10]),
            small)),
        "WindowedEvaluation(1000).add_case": (CALLS, lambda pkg: _loop(
            lambda: pkg.WindowedEvaluation(1000), lambda ev, i: ev.add_case(yl[i], sl[i]))),
        "BoundedEvaluation(4096).add_case": (CALLS, lambda pkg: _loop(
            lambda: pkg.BoundedEvaluation(4096), lambda ev, i: ev.add_case(yl[i], sl[i]))),
    }
    out("| call | " + " | ".join(pkgs) + (" | after / before |" if "before" in pkgs else " |"))
    out("|---|" + "---|" * len(pkgs) + ("---|" if "before" in pkgs else ""))
    for label, (calls, build) in workloads.items():
        t = interleaved({p: build(pkg) for p, pkg in pkgs.items()}, args.reps)
        cells = [f"{t[p] / calls * 1e9:.0f} ns" for p in pkgs]
        ratio = f" {t['after'] / t['before']:.2f}x |" if "before" in pkgs else ""
        out(f"| {label} | " + " | ".join(cells) + " |" + ratio)
    out(f"\nLoad average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.md:
        with open(args.md, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
