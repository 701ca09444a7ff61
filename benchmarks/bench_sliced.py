"""Sliced evaluation against the unsliced report of the same cases, and fairlearn's MetricFrame beside it.

    python benchmarks/bench_sliced.py                 # print the tables
    python benchmarks/bench_sliced.py --md out.md     # also write them

Workloads (seed 7; 30 % positive; each slice's scores shifted by its own
quality so slices differ):

* ``table``: 1,000,000 cases in 1,000 slices of one key (Zipf-like sizes)
  plus the overall slice. ``SlicedEvaluation("g").add_cases(y, s, g=g)`` then
  ``table()`` (every measure of the table, every slice) against
  ``ScoredPrecisionRecallEvaluation().add_cases(y, s)`` then ``summary()``
  (the unsliced full report), target <= 3x; fairlearn's ``MetricFrame`` with
  ``average_precision_score`` and ``roc_auc_score`` on the same arrays,
  timed beside it. Scores: probabilities (float64 sigmoid of a binormal
  score) and the same rounded to 3 decimals (ties).
* ``add_case``: 200,000 single cases with two keys (region: 8 values,
  device: 3) into a ``SlicedEvaluation(("region", "device"))`` (overall +
  each key) against plain exact ``add_case``; the first ``summary()`` after
  the adds (which hands the buffered cases to the slices) timed apart.
  Target <= 3x for the adds.
* memory: ``tracemalloc`` bytes held by the evaluation after its first query
  (``table()``), sliced (1,000 slices + overall) against unsliced, same
  1,000,000 cases; and after every slice's own evaluator was asked for
  (``ev[p]``), which the evaluation keeps while its cases do not change.

Best of ``--reps`` runs. This 2-core machine is shared: quote ratios
measured in the same run. ``--clock cpu`` times with ``time.process_time``
(this process's CPU time) instead of the wall clock, which other processes
on a loaded machine inflate unevenly.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable

import numpy as np

from scored_pr import ScoredPrecisionRecallEvaluation, SlicedEvaluation


#: The clock of every timing (``--clock``): the wall clock, or this process's CPU time.
clock: Callable[[], float] = time.perf_counter


def best(fn: Callable[[], Any], reps: int) -> float:
    times = []
    for _ in range(reps):
        gc.collect()
        t = clock()
        fn()
        times.append(clock() - t)
    return min(times)


def data(n: int, slices: int, rounded: bool, seed: int = 7) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, slices + 1) ** 0.7
    g = rng.choice(slices, size=n, p=weights / weights.sum())
    y = rng.random(n) < 0.3
    quality = rng.uniform(0.3, 2.0, size=slices)
    s = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + quality[g] * y)))
    if rounded:
        s = np.round(s, 3)
    return y, s, g


def first_table(y: np.ndarray, s: np.ndarray, g: np.ndarray, slices: int, reps: int) -> float:
    """The first table() after the adds, timed alone (the slices' sorts and the measures), best of ``reps``."""
    times = []
    for _ in range(reps):
        ev = SlicedEvaluation("g", max_slices=slices)
        ev.add_cases(y, s, g=g)
        gc.collect()
        t = clock()
        ev.table()
        times.append(clock() - t)
    return min(times)


def workload(y: np.ndarray, s: np.ndarray, g: np.ndarray, slices: int) -> tuple[Callable[[], None], Callable[[], None]]:
    """The table workload's two sides: the unsliced full report, and the sliced table (``slices`` slices)."""

    def unsliced() -> None:
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(y, s)
        ev.summary()

    def sliced() -> None:
        ev = SlicedEvaluation("g", max_slices=slices)
        ev.add_cases(y, s, g=g)
        ev.table()

    return unsliced, sliced


def table_rows(n: int, slices: int, reps: int) -> list[tuple[str, ...]]:
    from fairlearn.metrics import MetricFrame
    from sklearn.metrics import average_precision_score, roc_auc_score

    rows = []
    for rounded in (False, True):
        y, s, g = data(n, slices, rounded)

        unsliced, sliced = workload(y, s, g, slices)

        def sliced_two() -> None:
            ev = SlicedEvaluation("g", max_slices=slices)
            ev.add_cases(y, s, g=g)
            ev.table(["average_precision", "area_under_roc_curve"])

        def fairlearn() -> None:
            MetricFrame(metrics={"ap": average_precision_score, "auc": roc_auc_score}, y_true=y, y_pred=s,
                        sensitive_features=g)

        t0, t1, t2 = best(unsliced, reps), best(sliced, reps), best(sliced_two, reps)
        t4 = first_table(y, s, g, slices, reps)
        t3 = best(fairlearn, 1)
        rows.append(("rounded to 3 decimals" if rounded else "probabilities (float64)", f"{t0:.3f}", f"{t1:.3f}",
                     f"{t1 / t0:.2f}x", f"{t4:.3f}", f"{t4 / t0:.2f}x", f"{t2:.3f}", f"{t3:.3f}", f"{t3 / t2:.1f}x"))
    return rows


def pair_rows(n: int, slices: int, reps: int) -> list[tuple[float, float]]:
    """(unsliced, sliced) of the table workload on the probabilities, best of ``reps``, measured twice in turn."""
    unsliced, sliced = workload(*data(n, slices, False), slices)
    return [(best(unsliced, reps), best(sliced, reps)) for _ in range(2)]


def add_case_rows(n: int, reps: int) -> list[tuple[str, ...]]:
    rng = np.random.default_rng(3)
    y = (rng.random(n) < 0.3).tolist()
    s = rng.random(n).tolist()
    region = [f"r{i}" for i in rng.integers(0, 8, size=n)]
    device = [("mobile", "desktop", "tablet")[i] for i in rng.integers(0, 3, size=n)]

    def plain() -> Any:
        ev = ScoredPrecisionRecallEvaluation()
        add = ev.add_case
        for c, x in zip(y, s):
            add(c, x)
        return ev

    def sliced() -> Any:
        ev = SlicedEvaluation(("region", "device"))
        add = ev.add_case
        for c, x, r, d in zip(y, s, region, device):
            add(c, x, region=r, device=d)
        return ev

    t0 = best(plain, reps)
    t1 = best(sliced, reps)

    def first_query(build: Callable[[], Any]) -> float:
        ev = build()
        t = clock()
        ev.summary()
        return clock() - t

    q0, q1 = first_query(plain), first_query(sliced)
    return [(f"{n:,} add_case", f"{t0 / n * 1e9:.0f}", f"{t1 / n * 1e9:.0f}", f"{t1 / t0:.2f}x",
             f"{q0:.3f}", f"{q1:.3f}")]


def memory_rows(n: int, slices: int) -> list[tuple[str, ...]]:
    y, s, g = data(n, slices, False)

    def held(build: Callable[[], Any]) -> int:
        gc.collect()
        tracemalloc.start()
        obj = build()
        size = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        del obj
        return size

    def unsliced() -> Any:
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(y, s)
        ev.average_precision()
        return ev

    def sliced(specs: Any, every_slice: bool = False) -> Callable[[], Any]:
        def build() -> Any:
            ev = SlicedEvaluation("g", slices=specs, max_slices=slices)
            ev.add_cases(y, s, g=g)
            ev.table(["average_precision"])
            if every_slice:  # each slice's own evaluator asked for (and kept while the cases do not change)
                for p in ev.slices():
                    ev[p].average_precision()
            return ev
        return build

    m0 = held(unsliced)
    m1 = held(sliced(None))
    m2 = held(sliced([("g",)]))
    m3 = held(sliced(None, every_slice=True))
    g_full = g
    g = g % 10  # the same cases in 10 slices: the difference is what the other 990 slices cost
    m4 = held(sliced([("g",)]))
    g = g_full
    per_slice = (m2 - m4) / (slices - 10)
    return [(f"{n:,} cases, {slices:,} slices", f"{m0 / 1e6:.1f}", f"{m1 / 1e6:.1f}", f"{m1 / m0:.2f}x",
             f"{m2 / 1e6:.1f}", f"{per_slice / 1e3:.1f}", f"{m3 / 1e6:.1f}", f"{m3 / m0:.2f}x")]


def step_rows(n: int, slices: int, reps: int) -> list[tuple[str, ...]]:
    """The sliced table()'s steps on the probabilities, each timed alone (best of ``reps``), as table() runs them."""
    from scored_pr._core import calibration as K
    from scored_pr._core import slicing as G
    from scored_pr._core.ranking import rank_order
    from scored_pr._core.segmented import segment_summaries
    from scored_pr._measures import REPORT_RANKS

    y, s, g = data(n, slices, False)
    ev = SlicedEvaluation("g", max_slices=slices)
    ev.add_cases(y, s, g=g)
    c, scores, _, cols = ev._store.columns()
    neg = np.negative(scores)
    count = len(ev.slices())
    ranked = G.slice_ranking(neg, cols, count)
    assert ranked is not None
    rows, offsets, seg_neg = ranked
    seg_c = c[rows]
    zeros = np.zeros(offsets.size - 1, dtype=np.int64)
    seg, whole = ev._segments(table=True), ev._overall_sid()  # the overall slice's evaluator: made from the ranking
    steps: list[tuple[str, Callable[[], Any]]] = [
        ("add_cases (sliced)", lambda: SlicedEvaluation("g", max_slices=slices).add_cases(y, s, g=g)),
        ("rank the overall slice (rank_order)", lambda: rank_order(neg, c)),
        ("rank every slice (slice_ranking, with the scores' gather)", lambda: G.slice_ranking(neg, cols, count)),
        ("gather the labels into slice order", lambda: c[rows]),
        ("segmented pass (segment_summaries)",
         lambda: segment_summaries(seg_neg, seg_c, offsets, zeros, zeros, "grouped", REPORT_RANKS)),
        ("calibration pass (segment_calibration)", lambda: K.segment_calibration(seg_neg, seg_c, offsets, 15)),
        ("the overall slice's summary()", lambda: ev._store_ev(whole, seg).summary()),
    ]
    out = [(name, f"{best(fn, reps):.4f}") for name, fn in steps]
    out.append(("the whole first table()", f"{first_table(y, s, g, slices, reps):.4f}"))
    return out


def md(headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--slices", type=int, default=1000)
    ap.add_argument("--adds", type=int, default=200_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--md", type=Path)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    ap.add_argument("--steps", action="store_true",
                    help="only the sliced table()'s steps on the probabilities, each timed alone")
    ap.add_argument("--pair", action="store_true",
                    help="only the table() workload on the probabilities, unsliced then sliced, twice (public API "
                         "only: run it against another tree's PYTHONPATH to compare)")
    args = ap.parse_args()
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.pair:
        print(" ".join(f"{a:.3f} {b:.3f} {b / a:.2f}x" for a, b in pair_rows(args.n, args.slices, args.reps)))
        return
    if args.steps:
        print(f"## sliced table() steps: {args.n:,} probabilities in {args.slices:,} slices (seconds, best of "
              f"{args.reps}, {args.clock} clock)\n")
        print(md(("step", "seconds"), step_rows(args.n, args.slices, args.reps)))
        return
    parts = [
        f"## table(): {args.n:,} cases in {args.slices:,} slices + overall (seconds, best of {args.reps}, "
        f"{args.clock} clock)\n",
        md(("scores", "unsliced add_cases + summary()", "sliced add_cases + table()", "ratio (target <= 3x)",
            "of which the first table()", "first table() / unsliced", "sliced, AP + ROC AUC only",
            "fairlearn MetricFrame (AP + ROC AUC)", "fairlearn / sliced (AP + AUC)"),
           table_rows(args.n, args.slices, args.reps)),
        f"\n## add_case with two keys (ns per case, best of {args.reps}; first summary() in seconds)\n",
        md(("workload", "exact add_case", "sliced add_case (2 keys)", "ratio (target <= 3x)",
            "exact first summary()", "sliced first summary() (flush + 3 slices' kinds)"), add_case_rows(args.adds, args.reps)),
        "\n## memory held after the first query (MB, tracemalloc)\n",
        md(("data", "unsliced", "sliced (overall + key)", "ratio (target <= 1.5x + per slice)", "sliced (key only)",
            "fixed cost per slice (KB: key only, 1,000 slices less 10 slices, / 990)",
            "overall + key, every slice's evaluator asked",
            "ratio"), memory_rows(args.n, args.slices)),
    ]
    text = "\n".join(parts)
    print(text)
    if args.md:
        args.md.write_text(text + "\n")


if __name__ == "__main__":
    main()
