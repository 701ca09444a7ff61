"""The bounded kind's calibration sums of one batch, alone: ``calibration_sums.add`` and ``cells_of``.

    python benchmarks/bench_calibration_sums.py --before /tmp/main-tree --reps 7

One batch of 1,000,000 binormal probabilities (30 % positive, sigmoid(N(0, 1) + 1.2 label),
seed 1), unweighted and weighted, added to empty 15-bin sums; and the cells alone. Best of
``--reps`` of each, the trees interleaved in each round, wall time and CPU time of the process
(CPU time counts every thread's: a BLAS thread spinning or waiting shows there). This 2-core
machine is shared: quote the ratios of one run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bounded_ingest import HERE, data, load  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path, help="a tree whose scored_pr is timed beside this one")
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args(argv)
    trees = {"after": load(HERE)}
    if args.before:
        trees = {"before": load(args.before), **trees}
    y, s = data(1_000_000)
    w = np.random.default_rng(2).random(s.size) * 3
    work: dict[str, Callable[[Any], Any]] = {
        "add, unweighted": lambda cs: cs.add(cs.empty(15), y, s, None),
        "add, weighted": lambda cs: cs.add(cs.empty(15), y, s, w),
        "cells_of": lambda cs: cs.cells_of(s, 15),
    }
    wall: dict[tuple[str, str], float] = {}
    cpu: dict[tuple[str, str], float] = {}
    for _ in range(args.reps):
        for what, fn in work.items():
            for tree, mods in trees.items():
                cs = mods["scored_pr._core.calibration_sums"]
                t0, c0 = time.perf_counter(), time.process_time()
                fn(cs)
                t1, c1 = time.perf_counter(), time.process_time()
                wall[what, tree] = min(wall.get((what, tree), 1e9), t1 - t0)
                cpu[what, tree] = min(cpu.get((what, tree), 1e9), c1 - c0)
    lines = [f"### calibration_sums of 1,000,000 scores, best of {args.reps} (numpy {np.__version__})", "",
             "| work | tree | wall | CPU |", "|---|---|---|---|"]  # fmt: skip
    for what in work:
        for tree in trees:
            lines.append(f"| {what} | {tree} | {wall[what, tree] * 1e3:.1f} ms | {cpu[what, tree] * 1e3:.1f} ms |")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
