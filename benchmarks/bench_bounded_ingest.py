"""Bounded ingestion and merging against the exact evaluator, before and after a change, in one process.

    python benchmarks/bench_bounded_ingest.py                          # this tree only
    python benchmarks/bench_bounded_ingest.py --before /tmp/main-tree  # also the scored_pr of another tree
    python benchmarks/bench_bounded_ingest.py --md out.md              # also write the table
    python benchmarks/bench_bounded_ingest.py --breakdown              # also each step's CPU time (this tree)

Workloads (binormal scores as in benchmarks/bounded.py: 30 % positive,
sigmoid(N(0, 1) + 1.2 * label), seed 1):

* ``BoundedEvaluation(4096).add_cases(y, s)`` + ``average_precision()`` at
  1M and 4M cases, against ``ScoredPrecisionRecallEvaluation().add_cases(y, s)``
  + ``average_precision()`` of this tree on the same arrays, timed in the
  same rounds (target: <= 0.5x); and the same with ``calibration_bins=None``
  (no calibration sums kept), so the sums' cost is the difference in one run.
* 1,000 merges (``a + b``, left to right) of 4,096-bin summaries of 50,000
  cases each (target: < 0.3 s).

Best of ``--reps`` runs of each, the runs of the two trees interleaved. The
other tree's package is imported under its own ``sys.modules`` entries, which
are swapped in around each of its runs. This 2-core machine is shared: quote
ratios measured in the same run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

HERE = Path(__file__).resolve().parent.parent


def load(tree: Path) -> dict[str, Any]:
    """The scored_pr modules of ``tree``, imported fresh, then taken out of sys.modules."""
    for name in [m for m in sys.modules if m == "scored_pr" or m.startswith("scored_pr.")]:
        del sys.modules[name]
    sys.path.insert(0, str(tree))
    try:
        import scored_pr  # noqa: F401

        try:
            import scored_pr._evaluators.bounded  # noqa: F401
        except ModuleNotFoundError:  # a tree from before the package had subpackages
            import scored_pr._bounded_evaluation  # noqa: F401
    finally:
        sys.path.remove(str(tree))
    mods = {m: sys.modules.pop(m) for m in list(sys.modules) if m == "scored_pr" or m.startswith("scored_pr.")}
    return mods


def data(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    z = rng.normal(size=n) + 1.2 * y
    return y, 1.0 / (1.0 + np.exp(-z))


def timed(mods: dict[str, Any], fn: Callable[[Any], None]) -> float:
    sys.modules.update(mods)  # lazy imports inside the package resolve to this tree
    try:
        t0 = time.perf_counter()
        fn(mods["scored_pr"])
        return time.perf_counter() - t0
    finally:
        for m in mods:
            sys.modules.pop(m, None)


def breakdown(mods: dict[str, Any], reps: int) -> list[list[str]]:
    """Rows of CPU time (``time.process_time``, best of ``reps``) of each step of this tree's ingestion of 1M cases."""
    y, s = data(1_000_000)
    sys.modules.update(mods)
    try:
        sp = mods["scored_pr"]
        bins = mods["scored_pr._core.binning"]
        sums = mods["scored_pr._core.calibration_sums"]
        check = mods["scored_pr._validation"].check_batch
        c, v = check(y, s, pos_label=None)
        fresh = bins.unsorted_block_bins(c, v, 4 * 4096)
        refs = (float(fresh.pos.sum()), float(fresh.neg.sum()))

        def exact() -> None:
            e = sp.ScoredPrecisionRecallEvaluation()
            e.add_cases(y, s)
            e.average_precision()

        def bounded(calibration_bins: int | None) -> None:
            b = sp.BoundedEvaluation(4096, calibration_bins=calibration_bins)
            b.add_cases(y, s)
            b.average_precision()

        steps: list[tuple[str, Callable[[], Any]]] = [
            ("exact evaluator: add_cases + average_precision", exact),
            ("BoundedEvaluation(4096): add_cases + average_precision", lambda: bounded(15)),
            ("the same, calibration_bins=None", lambda: bounded(None)),
            ("- validation (check_batch)", lambda: check(y, s, pos_label=None)),
            (f"- binning without a sort (unsorted_block_bins: {fresh.hi.size:,} bins)", lambda: bins.unsorted_block_bins(c, v, 4 * 4096)),
            ("- merging down to 4,096 bins (compress)", lambda: bins.compress(fresh, 4096, *refs)),
            ("- calibration sums (calibration_sums.add)", lambda: sums.add(sums.empty(15), c, v, None)),
            ("np.sort of the scores (for scale)", lambda: np.sort(s)),
        ]
        best: dict[str, float] = {}
        for _ in range(reps):
            for name, fn in steps:
                t0 = time.process_time()
                fn()
                best[name] = min(best.get(name, 1e9), time.process_time() - t0)
    finally:
        for m in mods:
            sys.modules.pop(m, None)
    anchor = best[steps[0][0]]
    return [[f"step: {name}, 1,000,000 cases (CPU time)", "after", f"{t * 1e3:.1f} ms", f"{anchor * 1e3:.1f} ms",
             f"{t / anchor:.2f}x", ""] for name, t in best.items()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path, help="a tree whose scored_pr is timed beside this one")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--md", type=Path)
    ap.add_argument("--breakdown", action="store_true", help="also time each step of this tree's 1,000,000-case ingestion")
    args = ap.parse_args(argv)
    trees = {"after": load(HERE)}
    if args.before:
        trees = {"before": load(args.before), **trees}
    rows = []
    for n in (1_000_000, 4_000_000):
        y, s = data(n)
        best: dict[str, float] = {}

        def exact(sp: Any) -> None:
            e = sp.ScoredPrecisionRecallEvaluation()
            e.add_cases(y, s)
            e.average_precision()

        def bounded(sp: Any) -> None:
            b = sp.BoundedEvaluation(4096)
            b.add_cases(y, s)
            b.average_precision()

        def no_sums(sp: Any) -> None:  # the same without the calibration sums: the difference is their cost
            b = sp.BoundedEvaluation(4096, calibration_bins=None)
            b.add_cases(y, s)
            b.average_precision()

        names = list(trees)
        for rep in range(args.reps):
            for name in names[rep % len(names):] + names[: rep % len(names)]:  # alternate which tree runs first
                # the anchor of each tree is that tree's own exact evaluator
                best["exact " + name] = min(best.get("exact " + name, 1e9), timed(trees[name], exact))
                best[name] = min(best.get(name, 1e9), timed(trees[name], bounded))
                best["none " + name] = min(best.get("none " + name, 1e9), timed(trees[name], no_sums))
        for name in names:
            t, te = best[name], best["exact " + name]
            rows.append([f"add_cases + average_precision, {n:,} cases", name, f"{t * 1e3:.0f} ms",
                         f"{te * 1e3:.0f} ms", f"{t / te:.2f}x", "<= 0.5x"])
        for name in names:
            t, te = best["none " + name], best["exact " + name]
            rows.append([f"the same, calibration_bins=None (no sums), {n:,} cases", name, f"{t * 1e3:.0f} ms",
                         f"{te * 1e3:.0f} ms", f"{t / te:.2f}x", ""])
    merges: dict[str, float] = {}
    for name, mods in trees.items():
        sys.modules.update(mods)
        try:
            parts = []
            for i in range(20):
                yy, ss = data(50_000, seed=100 + i)
                p = mods["scored_pr"].BoundedEvaluation(4096)
                p.add_cases(yy, ss)
                parts.append(p)
        finally:
            for m in mods:
                sys.modules.pop(m, None)

        def merge_1000(sp: Any, parts: list[Any] = parts) -> None:
            total = parts[0]
            for i in range(1, 1000):
                total = total + parts[i % 20]

        merges[name] = min(timed(mods, merge_1000) for _ in range(max(1, args.reps // 2)))
        rows.append(["merge 1,000 summaries of 4,096 bins (a + b)", name, f"{merges[name] * 1e3:.0f} ms", "", "", "< 300 ms"])
    if args.breakdown:
        rows.extend(breakdown(trees["after"], args.reps))
    head = ["workload", "tree", "BoundedEvaluation", "exact evaluator (same tree)", "ratio", "target"]
    table = "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + ["| " + " | ".join(r) + " |" for r in rows])
    text = f"### Bounded ingestion, best of {args.reps} (numpy {np.__version__})\n\n{table}\n"
    print(text)
    if args.md:
        args.md.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
