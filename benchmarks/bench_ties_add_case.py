#!/usr/bin/env python3
"""Scattered ties on the fast path, and add_case against a bare SortedList.add (issue 28, targets 1, 4, 5b).

Targets (ratios from one run, medians; the machine is shared, compare ratios):

1. The full report (``shared/bench/anchors.py``'s ``project_full``: add_cases,
   average_precision, area_under_roc_curve(False), pr_curve(False),
   roc_curve(False), area_under_pr_curve(True), maximum_f_measure,
   pr_breakeven_point, reciprocal_rank, precision_at(100)) on 1M binormal
   cases whose scores have scattered ties (float32 scores, float32
   probabilities, probabilities rounded to 7 digits) <= 1.3x the same report
   on the same scores in float64 (all distinct), under both tie policies.
   Probabilities rounded to 6 digits (a third of the cases in tie groups
   holding both classes) are shown for information.
2. ``add_case``: 100,000 calls <= 1.5x a bare ``SortedList.add`` loop of the
   same scores, and the per-call cost over 10,000,000 calls without a query
   flat (<= 1.3x the cost over 100,000 calls).
3. Memory: bytes per case held by cases waiting for a query, after 1,000,000
   ``add_case`` calls and after a 1,000,000-case ``add_cases`` (<= 9.5 B/case),
   and after the full report (information).

With ``--before PATH`` (a checkout of the code to compare with, e.g.
``git worktree add /tmp/perf-before main``), that checkout's ``scored_pr`` is
imported in the same process as ``scored_pr_before`` and every workload runs
on both, taking turns, so the before/after ratios come from one run.

Usage::

    python benchmarks/bench_ties_add_case.py --before /tmp/perf-before --md benchmarks/results-ties-add-case.md
    python benchmarks/bench_ties_add_case.py --quick     # smoke run: 100k cases, 1M add_case calls
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from types import ModuleType
from typing import Any, Callable

import numpy as np
from sortedcontainers import SortedList  # type: ignore[import-untyped]

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import scored_pr  # noqa: E402


def load_before(path: str) -> ModuleType:
    """The ``scored_pr`` package of another checkout, imported as ``scored_pr_before`` (relative imports only)."""
    init = os.path.join(path, "scored_pr", "__init__.py")
    spec = importlib.util.spec_from_file_location(
        "scored_pr_before", init, submodule_search_locations=[os.path.dirname(init)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["scored_pr_before"] = module
    spec.loader.exec_module(module)
    return module


def binormal(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """anchors.py's data(): 30 % positive, scores N(0, 1) + label."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, rng.normal(size=n) + y


def score_kinds(n: int) -> dict[str, np.ndarray]:
    y, s = binormal(n)
    prob = 1.0 / (1.0 + np.exp(-s))
    return {
        "float64 (distinct)": s,
        "float32": np.float64(s.astype(np.float32)),
        "float32 probabilities": np.float64(prob.astype(np.float32)),
        "probabilities, 7 digits": np.round(prob, 7),
        "probabilities, 6 digits (info)": np.round(prob, 6),
    }


def tie_stats(y: np.ndarray, s: np.ndarray) -> str:
    u, inv, cnt = np.unique(s, return_inverse=True, return_counts=True)
    pos = np.bincount(inv, weights=y, minlength=u.size)
    mixed = (pos > 0) & (pos < cnt)
    return f"{u.size:,} distinct, {int((cnt > 1).sum()):,} tie groups, {int(mixed.sum()):,} mixed ({int(cnt[mixed].sum()):,} cases)"


def report(ev: Any) -> tuple[Any, ...]:
    return (
        ev.average_precision(), ev.area_under_roc_curve(False), ev.pr_curve(False), ev.roc_curve(False),
        ev.area_under_pr_curve(True), ev.maximum_f_measure(), ev.pr_breakeven_point(), ev.reciprocal_rank(),
        ev.precision_at(100),
    )  # fmt: skip


def full(pkg: ModuleType, y: np.ndarray, s: np.ndarray, ties: str) -> Any:
    ev = pkg.ScoredPrecisionRecallEvaluation(ties=ties)
    ev.add_cases(y, s)
    return report(ev)


def numpy_floor(y: np.ndarray, s: np.ndarray) -> Any:
    """anchors.py's limit_numpy: one stable argsort + cumsums."""
    o = np.argsort(-s, kind="stable")
    yy = y[o]
    tp = np.cumsum(yy)
    k = np.arange(1, len(y) + 1)
    return (tp / k)[yy].sum() / max(tp[-1], 1), (k - tp)[yy].sum()


def interleaved(fns: dict[str, Callable[[], Any]], reps: int, clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Median seconds of each function (by ``clock``); every repetition runs them all, in rotating order."""
    for fn in fns.values():
        fn()  # warm up imports and first-call paths
    times: dict[str, list[float]] = {k: [] for k in fns}
    names = list(fns)
    for r in range(reps):
        for name in names[r % len(names):] + names[: r % len(names)]:
            gc.collect()
            t = clock()
            fns[name]()
            times[name].append(clock() - t)
    return {k: statistics.median(v) for k, v in times.items()}


def add_case_loop(pkg: ModuleType, yl: list[bool], sl: list[float]) -> None:
    ev = pkg.ScoredPrecisionRecallEvaluation()
    add = ev.add_case
    for c, v in zip(yl, sl):
        add(c, v)


def sortedlist_loop(sl: list[float]) -> None:
    lst = SortedList()
    add = lst.add
    for v in sl:
        add(v)


def add_case_per_call(pkg: ModuleType, calls: int, chunk: int = 100_000) -> float:
    """Seconds per add_case over ``calls`` calls on one evaluator, no query (inputs made in chunks, not timed)."""
    ev = pkg.ScoredPrecisionRecallEvaluation()
    add = ev.add_case
    total, done, seed = 0.0, 0, 1
    while done < calls:
        k = min(chunk, calls - done)
        y, s = binormal(k, seed=seed)
        yl, sl = y.tolist(), s.tolist()
        gc.collect()
        t = time.perf_counter()
        for c, v in zip(yl, sl):
            add(c, v)
        total += time.perf_counter() - t
        done += k
        seed += 1
    return total / calls


def held_bytes(make: Callable[[], Any], n: int) -> float:
    """tracemalloc bytes per case still held by the object ``make`` returns (its inputs made and freed inside)."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        obj = make()
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    del obj
    return held / n


def singles(pkg: ModuleType, n: int, query: bool) -> Callable[[], Any]:
    def make() -> Any:
        y, s = binormal(n, seed=5)
        yl, sl = y.tolist(), s.tolist()
        del y, s
        ev = pkg.ScoredPrecisionRecallEvaluation()
        add = ev.add_case
        for c, v in zip(yl, sl):
            add(c, v)
        del yl, sl
        if query:
            report(ev)
        return ev

    return make


def batch(pkg: ModuleType, n: int, query: bool) -> Callable[[], Any]:
    def make() -> Any:
        y, s = binormal(n, seed=5)
        ev = pkg.ScoredPrecisionRecallEvaluation()
        ev.add_cases(y, s)
        del y, s
        if query:
            report(ev)
        return ev

    return make


def verdict(value: float, limit: float) -> str:
    return "PASS" if value <= limit else "FAIL"


def ms(x: float) -> str:
    return f"{x * 1e3:.1f} ms"


def commit_of(path: str) -> str:
    try:
        out = subprocess.run(["git", "-C", path, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or "?"
    except OSError:
        return "?"


def packages(before: str | None) -> dict[str, ModuleType]:
    """``{"before": <that checkout's scored_pr>, "after": scored_pr}`` (no "before" without a path)."""
    pkgs: dict[str, ModuleType] = {}
    if before:
        pkgs["before"] = load_before(before)
    pkgs["after"] = scored_pr
    return pkgs


def header(out: Callable[[str], None], title: str, before: str | None, timing: str) -> None:
    """A results file's title and its machine, commits and timing lines."""
    out(f"# {title}\n")
    out(f"- Python {platform.python_version()}; numpy {np.__version__}; {os.cpu_count()} cores; "
        f"load average at start {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    out(f"- after = this checkout (commit {commit_of(os.path.join(HERE, '..'))})"
        + (f"; before = {before} (commit {commit_of(before)}), imported in the same process" if before else ""))
    out(f"- {timing}; shared machine: compare ratios\n")


def finish(out: Callable[[str], None], lines: list[str], md: str | None) -> int:
    """A results file's last line (the load average), then the lines written to ``md`` if given; 0."""
    out(f"Load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if md:
        with open(md, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", help="a checkout whose scored_pr is timed beside this one")
    ap.add_argument("--n", type=int, default=1_000_000, help="cases of the bulk report (default 1M)")
    ap.add_argument("--calls", type=int, default=10_000_000, help="add_case calls of the flatness run (default 10M)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="n = 100k, 1M add_case calls, 3 repetitions")
    ap.add_argument("--only", default="ties,addcase,memory", help="sections to run (default: all three)")
    ap.add_argument("--md", help="also write the markdown to this file")
    args = ap.parse_args(argv)
    if args.quick:
        args.n, args.calls, args.reps = 100_000, 1_000_000, 3
    pkgs: dict[str, ModuleType] = {}
    if args.before:
        pkgs["before"] = load_before(args.before)
    pkgs["after"] = scored_pr
    lines: list[str] = []

    def out(line: str = "") -> None:
        print(line, flush=True)
        lines.append(line)

    here = os.path.join(HERE, "..")
    out("# scored_pr: scattered ties and add_case (issue 28, targets 1, 4 and the memory part of 5)\n")
    out(f"- Python {platform.python_version()}; numpy {np.__version__}; {os.cpu_count()} cores; "
        f"load average at start {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    out(f"- after = this checkout (commit {commit_of(here)})"
        + (f"; before = {args.before} (commit {commit_of(args.before)}), imported in the same process" if args.before else ""))
    out(f"- wall-clock medians of {args.reps}, contenders taking turns; shared noisy machine: compare ratios\n")

    # 1. scattered ties -------------------------------------------------------------------------
    if "ties" in args.only:
        ties_section(pkgs, args, out)
    if "addcase" in args.only:
        add_case_section(pkgs, args, out)
    if "memory" in args.only:
        memory_section(pkgs, args, out)
    out(f"\nLoad average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.md:
        with open(args.md, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return 0


def ties_section(pkgs: dict[str, ModuleType], args: Any, out: Callable[..., None]) -> None:
    out(f"## 1. Full report on {args.n:,} binormal cases, scattered ties vs float64\n")
    out("Full report = anchors.py's project_full. ratio = time / time of the same code and tie policy on the "
        "float64 scores (all distinct). Target: <= 1.3x for the scattered ties (float32, float32 probabilities, "
        "7 digits); 6 digits for information.\n")
    kinds = score_kinds(args.n)
    y, _ = binormal(args.n)
    for name, s in kinds.items():
        out(f"- {name}: {tie_stats(y, s)}")
    out()
    base_s = kinds["float64 (distinct)"]
    scale = interleaved({"floor": lambda: numpy_floor(y, base_s), "sort": lambda: np.sort(-base_s)}, args.reps)
    header = "| scores | ties | " + " | ".join(f"{p} | {p} ratio" for p in pkgs) + " |"
    out(header)
    out("|---|---|" + "---|---|" * len(pkgs))
    for ties in ("grouped", "stable"):
        fns: dict[str, Callable[[], Any]] = {}
        for pname, pkg in pkgs.items():
            for kname, s in kinds.items():
                fns[f"{pname}|{kname}"] = functools.partial(full, pkg, y, s, ties)
        times = interleaved(fns, args.reps)
        for kname in kinds:
            cells = []
            for pname in pkgs:
                t = times[f"{pname}|{kname}"]
                ratio = t / times[f"{pname}|float64 (distinct)"]
                judged = kname not in ("float64 (distinct)",) and "info" not in kname
                cells.append(f"{ms(t)} | {ratio:.2f}x" + (f" {verdict(ratio, 1.3)}" if judged and pname == "after" else ""))
            out(f"| {kname} | {ties} | " + " | ".join(cells) + " |")
    out(f"\nFor scale, same run: numpy floor (stable argsort + cumsums) {ms(scale['floor'])}, "
        f"np.sort of the float64 scores {ms(scale['sort'])}.\n")



def add_case_table(pkgs: dict[str, ModuleType], reps: int, out: Callable[..., None]) -> None:
    """100,000 ``add_case`` calls of each package against a bare ``SortedList.add`` loop (target <= 1.5x)."""
    yy, ss = binormal(100_000, seed=1)
    yl, sl = yy.tolist(), ss.tolist()
    fns: dict[str, Callable[[], Any]] = {"SortedList.add": functools.partial(sortedlist_loop, sl)}
    for pname, pkg in pkgs.items():
        fns[pname] = functools.partial(add_case_loop, pkg, yl, sl)
    t = interleaved(fns, reps)
    floor = t["SortedList.add"]
    out("| loop (100,000 calls, no query) | median | per call | vs SortedList.add (target <= 1.5x) |")
    out("|---|---|---|---|")
    for pname in pkgs:
        r = t[pname] / floor
        out(f"| {pname}: ev.add_case(c, v) | {ms(t[pname])} | {t[pname] / 1e5 * 1e9:.0f} ns | {r:.2f}x"
            + (f" {verdict(r, 1.5)}" if pname == "after" else "") + " |")
    out(f"| bare SortedList.add(v) | {ms(floor)} | {floor / 1e5 * 1e9:.0f} ns | 1x |")
    out()


def add_case_section(pkgs: dict[str, ModuleType], args: Any, out: Callable[..., None]) -> None:
    out("## 2. add_case against a bare SortedList.add\n")
    add_case_table(pkgs, args.reps, out)
    out(f"| per-call cost, one evaluator, no query | 100,000 calls (median of {args.reps}) | {args.calls:,} calls (1 run) | ratio (target <= 1.3x) |")
    out("|---|---|---|---|")
    for pname, pkg in pkgs.items():
        small = statistics.median(add_case_per_call(pkg, 100_000) for _ in range(args.reps))
        large = add_case_per_call(pkg, args.calls)
        r = large / small
        out(f"| {pname} | {small * 1e9:.0f} ns | {large * 1e9:.0f} ns | {r:.2f}x" + (f" {verdict(r, 1.3)}" if pname == "after" else "") + " |")
    out()



def memory_section(pkgs: dict[str, ModuleType], args: Any, out: Callable[..., None]) -> None:
    mem_n = min(args.n, 1_000_000)
    out(f"## 3. Memory held per case (tracemalloc, {mem_n:,} cases, inputs freed)\n")
    out("| workload | " + " | ".join(pkgs) + " | target |")
    out("|---|" + "---|" * len(pkgs) + "---|")
    rows = [
        (f"{mem_n:,} add_case calls, no query (pending)", singles, False, 9.5),
        (f"add_cases of {mem_n:,}, no query (pending)", batch, False, 9.5),
        (f"{mem_n:,} add_case calls + full report", singles, True, None),
        (f"add_cases of {mem_n:,} + full report", batch, True, None),
    ]
    for label, maker, query, limit in rows:
        for pkg in pkgs.values():
            maker(pkg, 1000, query)()  # warm up: first-call imports are not the evaluator's memory
        vals = {p: held_bytes(maker(pkg, mem_n, query), mem_n) for p, pkg in pkgs.items()}
        cells = [f"{v:.2f} B" for v in vals.values()]
        target = "info" if limit is None else f"<= {limit} B {verdict(vals['after'], limit)}"
        out(f"| {label} | " + " | ".join(cells) + f" | {target} |")


if __name__ == "__main__":
    sys.exit(main())
