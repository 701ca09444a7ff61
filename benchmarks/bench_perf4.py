#!/usr/bin/env python3
"""The thread guard's cost on the streaming paths, cached queries, and the full report against one sort.

Sections (``--only`` picks a subset), each run for this checkout ("after")
and, with ``--before PATH``, another checkout's ``scored_pr`` imported in the
same process ("before"), the contenders taking turns:

add
    ``add_case``, 100,000 calls of one bound method over Python floats, for
    the exact, windowed (``WindowedEvaluation(1000)``), bounded
    (``BoundedEvaluation(4096)``) and multi-label (``MultiLabelEvaluation(3)``,
    one row of three scores per call) kinds. Targets: windowed <= 0.25x and
    bounded <= 0.5x the exact ``add_case`` of the same package in the same run.
cached
    ``average_precision()`` asked again (nothing changed) against a plain
    method returning a ``functools.cached_property``. Target: <= 5x.
window
    ``add_case`` + ``area_under_roc_curve()`` after every case through a
    10,000-case window (``--window-n`` cases, default 200,000) against a bare
    ``SortedList.add`` + ``SortedList.remove`` loop of the same scores.
    Target: <= 2x.
report
    The full report of 1,000,000 scores on a fresh evaluator (``add_cases`` +
    ``summary()``) against one ``np.sort`` of the scores. Target: <= 3x for
    distinct float64 scores; the other inputs for information.
profile
    This checkout's report of distinct float64 scores under cProfile: what
    each step costs, in milliseconds and in sorts.
steps
    Each step of that report timed on its own, without the profiler (whose
    shares a loaded machine skews): milliseconds and sorts.

Inputs (what users bring; 30 % positive, N(0, 1) + label):
``probabilities`` (the logistic of that, float64), ``logits`` (the normal
scores themselves), ``float32`` (the probabilities rounded to float32, handed
over as Python floats or a float32 array) and ``ties`` (the probabilities
rounded to 2 decimals). Times are CPU time of this process
(``time.process_time``), medians of ``--reps``: the machines are shared, so
compare ratios.

Usage::

    python benchmarks/bench_perf4.py --before /tmp/before --md benchmarks/results-perf4.md
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from types import ModuleType
from typing import Any, Callable

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_ties_add_case import header, interleaved, packages, scored_pr  # noqa: E402
from bench_windows import auc_sortedlist_floor  # noqa: E402

CALLS = 100_000


def inputs(n: int, seed: int = 0) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The four score kinds of ``n`` cases (one label vector)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    logits = rng.normal(size=n) + y
    prob = 1.0 / (1.0 + np.exp(-logits))
    return {
        "probabilities": (y, prob),
        "logits": (y, logits),
        "float32": (y, prob.astype(np.float32)),
        "ties": (y, np.round(prob, 2)),
    }


def timed(fns: dict[str, Callable[[], Any]], reps: int) -> dict[str, float]:
    """Median CPU seconds of each function; every repetition runs them all, in rotating order."""
    return interleaved(fns, reps, clock=time.process_time)


def add_loop(make: Callable[[], Any], yl: list[Any], sl: list[Any]) -> None:
    add = make().add_case
    for c, v in zip(yl, sl):
        add(c, v)


def verdict(value: float, limit: float) -> str:
    return f"{value:.2f}x (<= {limit:g}x) {'PASS' if value <= limit else 'FAIL'}"


def section_add(pkgs: dict[str, ModuleType], reps: int, out: Callable[[str], None]) -> None:
    out("## 1. add_case: 100,000 calls of one bound method, ns per call, and the ratio to the exact kind's\n")
    out("| input | package | exact | windowed(1000) | bounded(4096) | multi-label(3), per row | windowed / exact (<= 0.25x) | bounded / exact (<= 0.5x) |")
    out("|---|---|---|---|---|---|---|---|")
    for label, (y, s) in inputs(CALLS, seed=1).items():
        yl, sl = y.tolist(), s.tolist()  # float32 arrives as Python floats of float32 values
        rows_y = np.stack([y, np.roll(y, 1), np.roll(y, 2)], axis=1).tolist()
        rows_s = np.stack([s, np.roll(s, 1), np.roll(s, 2)], axis=1).tolist()
        fns: dict[str, Callable[[], Any]] = {}
        for p, pkg in pkgs.items():
            fns[f"{p} exact"] = functools.partial(add_loop, pkg.ScoredPrecisionRecallEvaluation, yl, sl)
            fns[f"{p} windowed"] = functools.partial(add_loop, lambda pkg=pkg: pkg.WindowedEvaluation(1000), yl, sl)
            fns[f"{p} bounded"] = functools.partial(add_loop, lambda pkg=pkg: pkg.BoundedEvaluation(4096), yl, sl)
            fns[f"{p} multilabel"] = functools.partial(
                add_loop, lambda pkg=pkg: pkg.MultiLabelEvaluation(3), rows_y[: CALLS // 10], rows_s[: CALLS // 10])
        t = timed(fns, reps)
        for p in pkgs:
            ex, wi, bo = (t[f"{p} {k}"] / CALLS * 1e9 for k in ("exact", "windowed", "bounded"))
            ml = t[f"{p} multilabel"] / (CALLS // 10) * 1e9
            out(f"| {label} | {p} | {ex:.0f} ns | {wi:.0f} ns | {bo:.0f} ns | {ml:.0f} ns | "
                f"{verdict(wi / ex, 0.25)} | {verdict(bo / ex, 0.5)} |")
    out()


class _Plain:
    """What the cached query is held to: a method returning a functools.cached_property."""

    @functools.cached_property
    def _value(self) -> float:
        return 0.5

    def value(self) -> float:
        return self._value


def section_cached(pkgs: dict[str, ModuleType], reps: int, out: Callable[[str], None]) -> None:
    out("## 2. A cached query: average_precision() asked again, against a plain cached method (ns per call)\n")
    y, s = inputs(1000)["probabilities"]
    fns: dict[str, Callable[[], Any]] = {}

    def loop(fn: Callable[[], Any]) -> Callable[[], None]:
        def run() -> None:
            for _ in range(CALLS):
                fn()
        return run

    for p, pkg in pkgs.items():
        ev = pkg.ScoredPrecisionRecallEvaluation()
        ev.add_cases(y, s)
        ev.average_precision()
        fns[p] = loop(ev.average_precision)
        ev2 = pkg.ScoredPrecisionRecallEvaluation()
        ev2.add_cases(y, s)
        ev2.area_under_roc_curve(False)
        fns[f"{p} auc(False)"] = loop(functools.partial(ev2.area_under_roc_curve, False))
    plain = _Plain()
    fns["plain"] = loop(plain.value)
    t = timed(fns, reps)
    base = t["plain"] / CALLS * 1e9
    out("| call | ns per call | / plain cached method (<= 5x) |")
    out("|---|---|---|")
    for p in pkgs:
        for suffix, what in (("", "average_precision()"), (" auc(False)", "area_under_roc_curve(False)")):
            v = t[p + suffix] / CALLS * 1e9
            out(f"| {p}: {what} again | {v:.0f} ns | {verdict(v / base, 5)} |")
    out(f"| plain method returning a cached_property | {base:.0f} ns | 1x |")
    out()


def window_loop(pkg: ModuleType, yl: list[bool], sl: list[float], window: int) -> None:
    ev = pkg.WindowedEvaluation(window)
    add, auc = ev.add_case, ev.area_under_roc_curve
    for c, v in zip(yl, sl):
        add(c, v)
        auc()


def section_window(pkgs: dict[str, ModuleType], reps: int, n: int, out: Callable[[str], None]) -> None:
    window = 10_000
    out(f"## 3. add_case + area_under_roc_curve() per case: {n:,} cases through a {window:,}-case window\n")
    out("| input | package | scored_pr | SortedList add+remove | ratio (<= 2x) |")
    out("|---|---|---|---|---|")
    for label, (y, s) in inputs(n, seed=2).items():
        yl, sl = y.tolist(), s.tolist()
        fns: dict[str, Callable[[], Any]] = {"floor": functools.partial(auc_sortedlist_floor, yl, sl, window)}
        for p, pkg in pkgs.items():
            fns[p] = functools.partial(window_loop, pkg, yl, sl, window)
        t = timed(fns, reps)
        for p in pkgs:
            out(f"| {label} | {p} | {t[p] * 1e3:.0f} ms | {t['floor'] * 1e3:.0f} ms | {verdict(t[p] / t['floor'], 2)} |")
    out()


def report(pkg: ModuleType, y: np.ndarray, s: np.ndarray) -> Any:
    ev = pkg.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    return ev.summary()


def section_report(pkgs: dict[str, ModuleType], reps: int, out: Callable[[str], None]) -> None:
    n = 1_000_000
    out(f"## 4. The full report of {n:,} scores (add_cases + summary()) against one np.sort of the scores\n")
    out("| input | distinct scores | np.sort | " + " | ".join(pkgs) + " | " + " | ".join(f"{p} / np.sort" for p in pkgs) + " |")
    out("|---|---|---|" + "---|" * (2 * len(pkgs)))
    data = inputs(n, seed=0)
    for label, (y, s) in [("distinct float64 (logits)", data["logits"]), *data.items()]:
        fns: dict[str, Callable[[], Any]] = {"sort": functools.partial(np.sort, s)}
        for p, pkg in pkgs.items():
            fns[p] = functools.partial(report, pkg, y, s)
        t = timed(fns, reps)
        target = label.startswith("distinct")
        cells = [verdict(t[p] / t["sort"], 3) if target else f"{t[p] / t['sort']:.2f}x (info)" for p in pkgs]
        out(f"| {label} | {np.unique(s).size:,} | {t['sort'] * 1e3:.1f} ms | "
            + " | ".join(f"{t[p] * 1e3:.1f} ms" for p in pkgs) + " | " + " | ".join(cells) + " |")
    out()


#: The steps of the report, as cProfile names them (file suffix, function): cumulative time each.
STEPS = [
    ("add_cases: validate, copy, negate", "exact.py", "add_cases"),
    ("ranking: one sort of packed keys (rank_order_ties)", "ranking.py", "rank_order_ties"),
    ("kernel: operating_points", "points.py", "operating_points"),
    ("interpolated ROC: convex hull of the counts (roc_points_hull)", "curves.py", "roc_points_hull"),
    ("- of it, the sampled hull (_sampled_upper_hull)", "curves.py", "_sampled_upper_hull"),
    ("raw PR columns (pr_columns)", "curves.py", "pr_columns"),
    ("PR interpolation (interpolation_mask)", "curves.py", "interpolation_mask"),
    ("areas under the PR curves (step_area_xy)", "curves.py", "step_area_xy"),
    ("average precision (first query: holds the ranking, points, raw PR columns)", "scalars.py", "average_precision"),
    ("maximum F (f_beta)", "scalars.py", "f_beta"),
]


def section_profile(reps: int, out: Callable[[str], None]) -> None:
    import cProfile
    import pstats

    n = 1_000_000
    y, s = inputs(n, seed=0)["logits"]
    t = timed({"report": functools.partial(report, scored_pr, y, s), "sort": functools.partial(np.sort, s)}, reps)
    prof = cProfile.Profile()
    for _ in range(reps):
        prof.enable()
        report(scored_pr, y, s)
        prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    total = sum(v[3] for k, v in stats.items() if k[2] == "summary" and k[0].endswith("exact.py")) + sum(
        v[3] for k, v in stats.items() if k[2] == "add_cases" and k[0].endswith("exact.py"))
    out(f"## 5. Where the report's time goes (this checkout; cProfile of {reps} reports, distinct float64)\n")
    out(f"Report {t['report'] * 1e3:.1f} ms, np.sort {t['sort'] * 1e3:.1f} ms ({t['report'] / t['sort']:.2f}x) without the "
        "profiler; each step's share of the profiled report, scaled to the unprofiled time (steps nest: the ranking is "
        "inside the first query, the hull inside the interpolated ROC area).\n")
    out("| step | share | ms | x np.sort |")
    out("|---|---|---|---|")
    for label, suffix, func in STEPS:
        cum = sum(v[3] for k, v in stats.items() if k[2] == func and k[0].endswith(suffix))
        share = cum / total
        ms = share * t["report"] * 1e3
        out(f"| {label} | {share:.0%} | {ms:.1f} | {ms / (t['sort'] * 1e3):.2f}x |")
    out()


def section_steps(reps: int, out: Callable[[str], None]) -> None:
    """Each step of the distinct float64 report timed on its own (no profiler), against one np.sort."""
    from scored_pr._core import curves as C
    from scored_pr._core import points as P
    from scored_pr._core import scalars as M
    from scored_pr._core.ranking import rank_order

    n = 1_000_000
    y, s = inputs(n, seed=0)["logits"]
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    neg_in = -s
    neg, cor = rank_order(neg_in, y)
    p, q = int(y.sum()), int((~y).sum())
    pts = P.operating_points(neg, cor, "grouped")
    cols = C.pr_columns(pts, p)  # what summary() shares: recall and precision, contiguous
    keys = neg_in.view(np.uint64)  # in arrival order, as the ranking sorts them

    def ranked_summary() -> None:
        e = scored_pr.ScoredPrecisionRecallEvaluation()
        e.add_cases(y, s)
        e.ranked_cases()  # the ranking, outside the timed summary below
        t0 = time.process_time()
        e.summary()
        spent.append(time.process_time() - t0)

    spent: list[float] = []
    steps: dict[str, Callable[[], Any]] = {
        "add_cases (validate, copy, negate)": lambda: scored_pr.ScoredPrecisionRecallEvaluation().add_cases(y, s),
        "ranking (rank_order)": lambda: rank_order(neg_in, y),
        "- of it, one np.sort of 1M uint64 keys": lambda: np.sort(keys),
        "kernel (operating_points; the ranking found no tie)": lambda: P.operating_points(neg, cor, "grouped", distinct=True),
        "raw PR columns (pr_columns: recall, precision)": lambda: C.pr_columns(pts, p),
        "average precision (the sum of the precision column)": lambda: M.average_precision(pts, p, cols[1]),
        "area under the raw PR curve (step_area_xy)": lambda: C.step_area_xy(*cols),
        "interpolated PR columns and their area": lambda: C.step_area_xy(*C.interpolate_columns(*cols)),
        "ROC convex hull (roc_points_hull)": lambda: C.roc_points_hull(pts, p, q),
        "exact ROC area (roc_points_area_exact)": lambda: C.roc_points_area_exact(pts, p, q),
        "maximum F1 (maximum_f_columns)": lambda: M.maximum_f_columns(*cols, 1.0),
        "precision at 5 ranks, R-precision, reciprocal rank": lambda: (
            [M.precision_at(pts, n, k) for k in (5, 10, 25, 100, 500)], M.r_precision(pts, n, p), M.reciprocal_rank(pts)),
        "np.sort": functools.partial(np.sort, s),
    }
    t = timed(steps, reps)
    for _ in range(reps):
        ranked_summary()
    t["summary() after the ranking"] = sorted(spent)[len(spent) // 2]
    base = t.pop("np.sort")
    out(f"## 6. Each step of the report on its own (this checkout; distinct float64, medians of {reps}, no profiler)\n")
    out(f"One np.sort of the scores: {base * 1e3:.1f} ms. Each step runs on the previous steps' results, built once.\n")
    out("| step | ms | x np.sort |")
    out("|---|---|---|")
    for label, v in t.items():
        out(f"| {label} | {v * 1e3:.2f} | {v / base:.2f}x |")
    out()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", help="a checkout whose scored_pr is timed beside this one")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--window-n", type=int, default=200_000)
    ap.add_argument("--only", default="add,cached,window,report,profile,steps")
    ap.add_argument("--md", help="also write the markdown to this file")
    args = ap.parse_args(argv)
    pkgs = packages(args.before)
    lines: list[str] = []

    def out(line: str = "") -> None:
        print(line, flush=True)
        lines.append(line)

    header(out, "scored_pr: the guard's cost on the streaming paths, cached queries, the full report against one sort",
           args.before, f"CPU time of this process, medians of {args.reps}, contenders taking turns")
    only = set(args.only.split(","))
    if "add" in only:
        section_add(pkgs, args.reps, out)
    if "cached" in only:
        section_cached(pkgs, args.reps, out)
    if "window" in only:
        section_window(pkgs, args.reps, args.window_n, out)
    if "report" in only:
        section_report(pkgs, args.reps, out)
    if "profile" in only:
        section_profile(args.reps, out)
    if "steps" in only:
        section_steps(args.reps, out)
    out(f"Load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.md:
        with open(args.md, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
