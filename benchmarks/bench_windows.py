#!/usr/bin/env python3
"""Sliding-window benchmark: scored_pr.WindowedEvaluation against its anchors.

Sections (``--only`` picks a subset):

auc
    ``--n`` (default 1,000,000) ``add_case`` calls through a ``--window``
    (default 10,000) case window with ``area_under_roc_curve()`` after every
    call, against river's ``RollingROCAUC(window_size)`` doing update + get
    (target: at most 0.2x), a bare ``SortedList.add`` + ``SortedList.remove``
    loop over the same scores (target: at most 2x) and, if installed,
    torcheval's ``WindowedBinaryAUROC`` (update + compute, on a prefix and
    scaled). Both tie policies of scored_pr are timed.
stream
    the same stream with (AP, ROC AUC, max F1) queried every ``--every``
    (default 1,000) cases, against scikit-learn recomputing the three on the
    window's cases at each query (target: at most 0.1x).
batches
    ``--batch-n`` (default 400,000) cases through a ``--batch-window``
    (default 100,000) case window in ``add_cases`` batches of ``--batch``
    (default 1,000), with (AP, ROC AUC, max F1) after each batch, against
    scikit-learn recomputing the three on the window's cases after each
    batch (target: at most 0.1x).
memory
    tracemalloc bytes retained by a 10,000-case window after 100,000 and
    after ``--memory-n`` (default 10,000,000) adds (target: within 1.2x).

Data: the generator of ``bench.py`` (30 % positives, scores N(0, 1) +
label, seed 0). Times are CPU seconds of this process (``time.process_time``),
medians over ``--reps`` repetitions in which the contenders take turns: the
machines here are shared and noisy, and CPU time is what load disturbs
least. Compare ratios, not absolute times.

Usage::

    python benchmarks/bench_windows.py                 # ~4 min with river
    python benchmarks/bench_windows.py --quick         # n = 200,000, memory 1M: < 1 min
    python benchmarks/bench_windows.py --md out.md     # also write the tables
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
from collections import deque
from typing import Any, Callable

import numpy as np
from sortedcontainers import SortedList

import scored_pr
from scored_pr import WindowedEvaluation


def _try_import(name: str) -> Any:
    try:
        return __import__(name)
    except Exception:  # ImportError, or a broken install
        return None


RIVER = _try_import("river")
SKLEARN = _try_import("sklearn")
if SKLEARN is not None:
    from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score
TORCHEVAL = None  # imported lazily: torch is slow to import


def data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    return y, s


# ---------------------------------------------------------------- contenders


def auc_project(yl: list, sl: list, window: int, ties: str) -> float:
    w = WindowedEvaluation(size=window, ties=ties)
    add, auc = w.add_case, w.area_under_roc_curve
    a = 0.0
    for c, v in zip(yl, sl):
        add(c, v)
        a = auc()
    return a


def auc_sortedlist_floor(yl: list, sl: list, window: int) -> None:
    """One sorted insert and one sorted delete per case, nothing else."""
    L = SortedList()
    add, remove = L.add, L.remove
    for i, v in enumerate(sl):
        add(v)
        if i >= window:
            remove(sl[i - window])


def auc_river(yl: list, sl: list, window: int) -> float:
    from river import metrics

    m = metrics.RollingROCAUC(window_size=window)
    update, get = m.update, m.get
    a = 0.0
    for c, v in zip(yl, sl):
        update(c, v)
        a = get()
    return a


def auc_torcheval(yl: list, sl: list, window: int) -> float:
    import torch
    from torcheval.metrics import WindowedBinaryAUROC

    m = WindowedBinaryAUROC(max_num_samples=window)
    a = 0.0
    for i, (c, v) in enumerate(zip(yl, sl)):
        m.update(torch.tensor([v], dtype=torch.float64), torch.tensor([float(c)], dtype=torch.float64))
        if i:  # torcheval 0.0.7 cannot compute on a single case (RuntimeError in torch.diff)
            a = float(m.compute())
    return a


def stream_project(yl: list, sl: list, window: int, every: int) -> list:
    w = WindowedEvaluation(size=window)
    add = w.add_case
    out = []
    for i, (c, v) in enumerate(zip(yl, sl), 1):
        add(c, v)
        if i % every == 0:
            out.append((w.average_precision(), w.area_under_roc_curve(), w.maximum_f_measure()))
    return out


def stream_sklearn(yl: list, sl: list, window: int, every: int) -> list:
    ys: deque = deque(maxlen=window)
    ss: deque = deque(maxlen=window)
    out = []
    for i, (c, v) in enumerate(zip(yl, sl), 1):
        ys.append(c)
        ss.append(v)
        if i % every == 0:
            ya, sa = np.array(ys), np.array(ss)
            p, r, _ = precision_recall_curve(ya, sa)
            with np.errstate(invalid="ignore"):
                f1 = np.max(np.nan_to_num(2 * p * r / (p + r)))
            out.append((average_precision_score(ya, sa), roc_auc_score(ya, sa), f1))
    return out


def batches_project(y: np.ndarray, s: np.ndarray, window: int, batch: int, cls: Any = WindowedEvaluation) -> list:
    w = cls(size=window)
    out = []
    for i in range(0, y.size, batch):
        w.add_cases(y[i : i + batch], s[i : i + batch])
        out.append((w.average_precision(), w.area_under_roc_curve(), w.maximum_f_measure()))
    return out


def batches_sklearn(y: np.ndarray, s: np.ndarray, window: int, batch: int) -> list:
    out = []
    for i in range(0, y.size, batch):
        end = min(i + batch, y.size)
        ya, sa = y[max(0, end - window) : end], s[max(0, end - window) : end]
        p, r, _ = precision_recall_curve(ya, sa)
        with np.errstate(invalid="ignore"):
            f1 = np.max(np.nan_to_num(2 * p * r / (p + r)))
        out.append((average_precision_score(ya, sa), roc_auc_score(ya, sa), f1))
    return out


# ------------------------------------------------------------------ helpers


def timed_interleaved(fns: dict[str, Callable[[], Any]], reps: int) -> dict[str, float]:
    """Median CPU time of each function, the functions taking turns in every repetition."""
    ts: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(reps):
        for k, fn in fns.items():
            gc.collect()
            t = time.process_time()
            fn()
            ts[k].append(time.process_time() - t)
    return {k: statistics.median(v) for k, v in ts.items()}


def fmt_s(x: float) -> str:
    if x >= 1:
        return f"{x:.2f} s"
    if x >= 1e-3:
        return f"{x * 1e3:.1f} ms"
    return f"{x * 1e6:.1f} µs"


def verdict(value: float, limit: float) -> str:
    return f"{value:.3f}x (≤{limit}x) {'PASS' if value <= limit else 'FAIL'}"


class Report:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def out(self, s: str = "") -> None:
        print(s, flush=True)
        self.lines.append(s)


def section_auc(rep: Report, n: int, window: int, reps: int, river_n: int, torcheval_n: int) -> None:
    y, s = data(n)
    yl, sl = y.tolist(), s.tolist()
    rep.out(f"## 1. ROC AUC after every case: {n:,} add_case calls through a {window:,}-case window\n")
    fns: dict[str, Callable[[], Any]] = {
        "scored_pr grouped": lambda: auc_project(yl, sl, window, "grouped"),
        "scored_pr stable": lambda: auc_project(yl, sl, window, "stable"),
        "SortedList add+remove": lambda: auc_sortedlist_floor(yl, sl, window),
    }
    t = timed_interleaved(fns, reps)
    rows = [[k, fmt_s(v), f"{v / n * 1e6:.2f} µs", f"median of {reps}"] for k, v in t.items()]
    # The anchors' values agree with ours (checked on the whole stream for river).
    if RIVER is not None:
        m = min(river_n, n)
        gc.collect()
        t0 = time.process_time()
        a_river = auc_river(yl[:m], sl[:m], window)
        tr = (time.process_time() - t0) * n / m
        a_ours = auc_project(yl[:m], sl[:m], window, "grouped")
        how = "1 run" if m == n else f"1 run of {m:,}, scaled x{n / m:g}"
        rows.append(["river RollingROCAUC update+get", fmt_s(tr), f"{tr / n * 1e6:.2f} µs", how])
        t["river"] = tr
        assert abs(a_river - a_ours) < 1e-9, (a_river, a_ours)
    else:
        rows.append(["river RollingROCAUC update+get", "not installed", "", ""])
    if torcheval_n and _load_torcheval():
        m = min(torcheval_n, n)
        gc.collect()
        t0 = time.process_time()
        a_torcheval = auc_torcheval(yl[:m], sl[:m], window)
        tt = (time.process_time() - t0) * n / m
        gap = abs(a_torcheval - auc_project(yl[:m], sl[:m], window, "grouped"))
        rows.append(["torcheval WindowedBinaryAUROC update+compute", fmt_s(tt), f"{tt / n * 1e6:.2f} µs",
                     f"1 run of {m:,}, scaled x{n / m:g}; last AUC differs from scored_pr's by {gap:.1e}"])
        t["torcheval"] = tt
    else:
        rows.append(["torcheval WindowedBinaryAUROC update+compute", "not installed" if torcheval_n else "skipped", "", ""])
    rep.out("| implementation | time (CPU) | per case | how |")
    rep.out("|---|---|---|---|")
    for r in rows:
        rep.out("| " + " | ".join(r) + " |")
    rep.out()
    ours = t["scored_pr grouped"]
    rep.out("| target | grouped | stable |")
    rep.out("|---|---|---|")
    if "river" in t:
        rep.out(f"| scored_pr / river (≤0.2x) | {verdict(ours / t['river'], 0.2)} | "
                f"{verdict(t['scored_pr stable'] / t['river'], 0.2)} |")
    floor = t["SortedList add+remove"]
    rep.out(f"| scored_pr / SortedList add+remove (≤2x) | {verdict(ours / floor, 2)} | "
            f"{verdict(t['scored_pr stable'] / floor, 2)} |")
    if "torcheval" in t:
        rep.out(f"| scored_pr / torcheval (info) | {ours / t['torcheval']:.4f}x | {t['scored_pr stable'] / t['torcheval']:.4f}x |")
    rep.out()


def _load_torcheval() -> bool:
    global TORCHEVAL
    if TORCHEVAL is None:
        TORCHEVAL = _try_import("torcheval")
        if TORCHEVAL is not None:
            import torch

            torch.set_num_threads(1)
    return TORCHEVAL is not None


def section_stream(rep: Report, n: int, window: int, every: int, reps: int) -> None:
    y, s = data(n, seed=1)
    yl, sl = y.tolist(), s.tolist()
    rep.out(f"## 2. (AP, ROC AUC, max F1) every {every:,} cases: {n:,} add_case calls, {window:,}-case window\n")
    fns: dict[str, Callable[[], Any]] = {"scored_pr": lambda: stream_project(yl, sl, window, every)}
    if SKLEARN is not None:
        fns["scikit-learn"] = lambda: stream_sklearn(yl, sl, window, every)
    t = timed_interleaved(fns, reps)
    if SKLEARN is not None:
        ours, theirs = stream_project(yl, sl, window, every), stream_sklearn(yl, sl, window, every)
        worst = max(max(abs(a - b) for a, b in zip(o, r)) for o, r in zip(ours, theirs))
        assert worst < 1e-9, worst
    rep.out("| implementation | time (CPU) | how | scored_pr / this (target) |")
    rep.out("|---|---|---|---|")
    rep.out(f"| scored_pr WindowedEvaluation (add_case + queries) | {fmt_s(t['scored_pr'])} | median of {reps} | — |")
    if SKLEARN is not None:
        rep.out(f"| scikit-learn on the window at each query | {fmt_s(t['scikit-learn'])} | median of {reps} | "
                f"{verdict(t['scored_pr'] / t['scikit-learn'], 0.1)} |")
    else:
        rep.out("| scikit-learn on the window at each query | not installed | | — |")
    rep.out()


def section_batches(rep: Report, n: int, window: int, batch: int, reps: int, before: Any = None) -> None:
    y, s = data(n, seed=3)
    rep.out(f"## 4. (AP, ROC AUC, max F1) after each add_cases batch of {batch:,}: {n:,} cases, "
            f"{window:,}-case window\n")
    fns: dict[str, Callable[[], Any]] = {"scored_pr": lambda: batches_project(y, s, window, batch)}
    if before is not None:
        fns["before"] = lambda: batches_project(y, s, window, batch, before.WindowedEvaluation)
    if SKLEARN is not None:
        fns["scikit-learn"] = lambda: batches_sklearn(y, s, window, batch)
    t = timed_interleaved(fns, reps)
    if SKLEARN is not None:
        ours, theirs = batches_project(y, s, window, batch), batches_sklearn(y, s, window, batch)
        worst = max(max(abs(a - b) for a, b in zip(o, r)) for o, r in zip(ours, theirs))
        assert worst < 1e-9, worst
    rep.out("| implementation | time (CPU) | how | scored_pr / this (target) |")
    rep.out("|---|---|---|---|")
    if before is not None:
        old, new = batches_project(y, s, window, batch, before.WindowedEvaluation), batches_project(y, s, window, batch)
        assert max(max(abs(a - b) for a, b in zip(o, r)) for o, r in zip(old, new)) < 1e-12
        rep.out(f"| before ({before.__file__.rsplit('/scored_pr/', 1)[0]}): WindowedEvaluation (add_cases + queries) | "
                f"{fmt_s(t['before'])} | median of {reps} | "
                + (f"{t['before'] / t['scikit-learn']:.3f}x of scikit-learn |" if SKLEARN is not None else "— |"))
    rep.out(f"| scored_pr WindowedEvaluation (add_cases + queries) | {fmt_s(t['scored_pr'])} | median of {reps} | — |")
    if SKLEARN is not None:
        rep.out(f"| scikit-learn on the window after each batch | {fmt_s(t['scikit-learn'])} | median of {reps} | "
                f"{verdict(t['scored_pr'] / t['scikit-learn'], 0.1)} |")
    else:
        rep.out("| scikit-learn on the window after each batch | not installed | | — |")
    rep.out()


def _retained(adds: int, window: int) -> int:
    """Bytes tracemalloc sees held after ``adds`` add_case calls through the window (the inputs excluded)."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    w = WindowedEvaluation(size=window)
    add = w.add_case
    rng = np.random.default_rng(2)
    chunk = 100_000
    done = 0
    while done < adds:
        k = min(chunk, adds - done)
        y = (rng.random(k) < 0.3).tolist()
        s = rng.random(k).tolist()
        for c, v in zip(y, s):
            add(c, v)
        done += k
        del y, s
    w.area_under_roc_curve()
    w.average_precision()  # also the ranking and the window's evaluator
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del w
    return held


def section_memory(rep: Report, window: int, small: int, large: int) -> None:
    rep.out(f"## 3. Memory retained by a {window:,}-case window (tracemalloc)\n")
    a = _retained(small, window)
    b = _retained(large, window)
    rep.out("| adds | retained | B per case in the window |")
    rep.out("|---|---|---|")
    rep.out(f"| {small:,} | {a / 2**20:.2f} MiB | {a / window:.0f} |")
    rep.out(f"| {large:,} | {b / 2**20:.2f} MiB | {b / window:.0f} |")
    rep.out()
    rep.out(f"Ratio {large:,} / {small:,} adds: {verdict(b / a, 1.2)}")
    rep.out()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="n = 200,000, memory up to 1,000,000 adds, 3 repetitions")
    p.add_argument("--n", type=int, default=None, help="cases in the stream (default 1,000,000)")
    p.add_argument("--window", type=int, default=10_000)
    p.add_argument("--every", type=int, default=1_000)
    p.add_argument("--reps", type=int, default=None, help="repetitions (default 3)")
    p.add_argument("--river-n", type=int, default=None, help="time river on the first N cases and scale (default: all)")
    p.add_argument("--torcheval-n", type=int, default=20_000,
                   help="time torcheval on the first N cases and scale (0: skip; default 20,000)")
    p.add_argument("--memory-n", type=int, default=None, help="adds of the large memory run (default 10,000,000)")
    p.add_argument("--batch-n", type=int, default=400_000, help="cases of the batches section")
    p.add_argument("--batch-window", type=int, default=100_000)
    p.add_argument("--batch", type=int, default=1_000)
    p.add_argument("--only", default="auc,stream,memory,batches")
    p.add_argument("--md", metavar="PATH", help="also write the tables to PATH")
    p.add_argument("--before", metavar="PATH", help="batches section: also time the WindowedEvaluation of the "
                   "checkout at PATH (imported as scored_pr_before), taking turns in the same run")
    args = p.parse_args(argv)
    n = args.n or (200_000 if args.quick else 1_000_000)
    reps = args.reps or 3
    memory_n = args.memory_n or (1_000_000 if args.quick else 10_000_000)
    only = set(args.only.split(","))
    rep = Report()
    load = os.getloadavg()
    rep.out("# scored_pr sliding-window benchmark\n")
    rep.out(f"- Python {platform.python_version()}; numpy {np.__version__}; scored_pr {scored_pr.__version__}; "
            f"river {getattr(RIVER, '__version__', 'not installed')}; "
            f"scikit-learn {getattr(SKLEARN, '__version__', 'not installed')}; "
            f"{os.cpu_count()} cores; load average at start {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}")
    rep.out("- CPU time of this process (time.process_time); contenders take turns; shared noisy machine: "
            "compare ratios.\n")
    if "auc" in only:
        section_auc(rep, n, args.window, reps, args.river_n or n, args.torcheval_n)
    if "stream" in only:
        section_stream(rep, n, args.window, args.every, reps)
    if "memory" in only:
        section_memory(rep, args.window, 100_000, memory_n)
    if "batches" in only:
        before = None
        if args.before:
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            from bench_ties_add_case import load_before  # the same loader for every before/after benchmark

            before = load_before(args.before)
        section_batches(rep, args.batch_n, args.batch_window, args.batch, reps, before)
    if args.md:
        with open(args.md, "w", encoding="utf-8") as fh:
            fh.write("\n".join(rep.lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
