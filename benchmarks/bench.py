#!/usr/bin/env python3
"""scored_pr performance suite: exact streaming at numpy speed, lean memory.

Reproduces the workloads of the reference harness (``shared/bench/anchors.py``)
inside the project and checks them against the targets of the performance
issue. Everything runs in one process on the same data; the machine is shared
and noisy, so every target is a *ratio* to an anchor measured in the same run
(or a size in bytes), never an absolute time.

Sections (``--only`` picks a subset):

bulk
    two numpy arrays of n cases -> full report on a fresh evaluator, against
    scikit-learn (batch), torchmetrics (exact, ``thresholds=None``) and the
    bare numpy floor (one stable argsort + cumulative sums). Targets:
    <= 0.5x scikit-learn, <= 3x numpy floor. Also the extra peak RSS.
stream
    100,000 single ``add_case`` calls, (AP, ROC AUC, max F1) queried every
    1,000 cases, against recomputing with scikit-learn at every query
    (target <= 0.1x) and torchmetrics updated per case (target <= 0.01x).
memory
    tracemalloc bytes retained per case after a bulk add + one query and
    after single adds + one query (target <= 64 B/case).
addcase
    N ``add_case`` calls against a bare ``SortedList.add`` loop (target <= 2x).
cached
    a repeated query with nothing changed (O(1): microseconds, independent of
    n), and a query after k = 1,000 new cases on n cases against a fresh
    stable argsort of n (target <= 0.25x).

Usage::

    python benchmarks/bench.py --quick               # smoke run, < 60 s, no torch needed
    python benchmarks/bench.py                       # n = 10k, 100k, 1M
    python benchmarks/bench.py --big --only bulk     # adds n = 10M (project + numpy only)
    python benchmarks/bench.py --json out.json       # also write every number as JSON

Exit status is 0 unless ``--strict`` is given and a target fails.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from typing import Any, Callable

import numpy as np

# ----------------------------------------------------------------- anchors
# Optional anchors: the suite runs without them (columns say "not installed").


def _try_import(name: str) -> Any:
    try:
        return __import__(name)
    except Exception:  # ImportError, or a broken install
        return None


SKLEARN = _try_import("sklearn")
if SKLEARN is not None:
    from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score
    from sklearn.metrics import roc_curve as sk_roc_curve

SORTEDCONTAINERS = _try_import("sortedcontainers")  # the add_case floor (a scored_pr dependency today)

import scored_pr
from scored_pr import ScoredPrecisionRecallEvaluation as E

TORCH = None  # imported lazily (slow import; --quick never needs it)
TORCHMETRICS = None


def _torch_state() -> str:
    """How torchmetrics stands when it was not (or could not be) loaded."""
    import importlib.util

    if importlib.util.find_spec("torch") and importlib.util.find_spec("torchmetrics"):
        return "installed, not used (--quick or --anchors)" if TORCH is None else "skipped"
    return "not installed"


def _sklearn_state() -> str:
    return "not installed" if SKLEARN is None else "installed, not used (--anchors)"


def _load_torch() -> bool:
    global TORCH, TORCHMETRICS
    if TORCH is None:
        TORCH = _try_import("torch")
        if TORCH is not None:
            TORCHMETRICS = _try_import("torchmetrics")
            if TORCHMETRICS is not None:
                _try_import("torchmetrics.classification")
    return TORCH is not None and TORCHMETRICS is not None


# ---------------------------------------------------------------- workloads
# Identical to shared/bench/anchors.py, so the numbers are comparable.


def data(n: int, seed: int = 0, ties: bool = False) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    if ties:
        s = np.round(s, 1)
    return y, s


def limit_numpy(y: np.ndarray, s: np.ndarray) -> Any:
    o = np.argsort(-s, kind="stable")
    yy = y[o]
    tp = np.cumsum(yy)
    k = np.arange(1, len(y) + 1)
    ap = (tp / k)[yy].sum() / max(tp[-1], 1)
    fp = k - tp
    auc = fp[yy].sum()  # rank-sum style, distinct scores
    return ap, auc


def sklearn_full(y: np.ndarray, s: np.ndarray) -> Any:
    return (average_precision_score(y, s), roc_auc_score(y, s), precision_recall_curve(y, s), sk_roc_curve(y, s))


def torchmetrics_full(y: np.ndarray, s: np.ndarray) -> Any:
    torch = TORCH
    from torchmetrics.classification import BinaryAUROC, BinaryAveragePrecision, BinaryPrecisionRecallCurve

    yt = torch.from_numpy(y.astype(np.int64))
    st = torch.from_numpy(s)
    ms = [BinaryAveragePrecision(thresholds=None), BinaryAUROC(thresholds=None), BinaryPrecisionRecallCurve(thresholds=None)]
    for m in ms:
        m.update(st, yt)
    return [m.compute() for m in ms]


def project_full(y: np.ndarray, s: np.ndarray) -> Any:
    ev = E()
    ev.add_cases(y, s)
    return (
        ev.average_precision(), ev.area_under_roc_curve(False), ev.pr_curve(False), ev.roc_curve(False),
        ev.area_under_pr_curve(True), ev.maximum_f_measure(), ev.pr_breakeven_point(), ev.reciprocal_rank(),
        ev.precision_at(100),
    )


def stream_project(y: np.ndarray, s: np.ndarray, every: int) -> Any:
    ev = E()
    add = ev.add_case
    out = []
    for i, (c, v) in enumerate(zip(y.tolist(), s.tolist()), 1):
        add(c, v)
        if i % every == 0:
            out.append((ev.average_precision(), ev.area_under_roc_curve(False), ev.maximum_f_measure()))
    return out


def stream_sklearn(y: np.ndarray, s: np.ndarray, every: int) -> Any:
    out = []
    ys: list = []
    ss: list = []
    for i, (c, v) in enumerate(zip(y.tolist(), s.tolist()), 1):
        ys.append(c)
        ss.append(v)
        if i % every == 0:
            ya = np.array(ys)
            sa = np.array(ss)
            p, r, _ = precision_recall_curve(ya, sa)
            out.append((average_precision_score(ya, sa), roc_auc_score(ya, sa), np.max(2 * p * r / np.maximum(p + r, 1e-300))))
    return out


def stream_torchmetrics(y: np.ndarray, s: np.ndarray, every: int) -> Any:
    torch = TORCH
    from torchmetrics.classification import BinaryAUROC, BinaryAveragePrecision

    ap = BinaryAveragePrecision(thresholds=None)
    auc = BinaryAUROC(thresholds=None)
    out = []
    for i, (c, v) in enumerate(zip(y.tolist(), s.tolist()), 1):
        t = torch.tensor([v], dtype=torch.float64)
        lab = torch.tensor([int(c)])
        ap.update(t, lab)
        auc.update(t, lab)
        if i % every == 0:
            out.append((float(ap.compute()), float(auc.compute())))
    return out


def add_case_project(yl: list, sl: list) -> Any:
    ev = E()
    add = ev.add_case
    for c, v in zip(yl, sl):
        add(c, v)
    return ev


def add_sortedlist_floor(yl: list, sl: list) -> Any:
    """Floor for one sorted insert per case: a bare SortedList.add of the score."""
    L = SORTEDCONTAINERS.SortedList()
    add = L.add
    for v in sl:
        add(v)
    return L


# ------------------------------------------------------------------ helpers


def timed(fn: Callable[[], Any], reps: int) -> dict[str, Any]:
    """Median (and all) of ``reps`` wall times, gc.collect() before each."""
    ts = []
    for _ in range(reps):
        gc.collect()
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return {"median_s": statistics.median(ts), "min_s": min(ts), "reps": reps, "all_s": ts}


def timed_interleaved(fns: dict[str, Callable[[], Any]], reps: int) -> dict[str, dict[str, Any]]:
    """Like :func:`timed` for several functions, taking turns in every repetition.

    On a shared machine a burst of load then hits every contender alike
    instead of all the repetitions of one of them.
    """
    ts: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(reps):
        for k, fn in fns.items():
            gc.collect()
            t = time.perf_counter()
            fn()
            ts[k].append(time.perf_counter() - t)
    return {k: {"median_s": statistics.median(v), "min_s": min(v), "reps": reps, "all_s": v} for k, v in ts.items()}


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _malloc_trim() -> None:
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except Exception:  # not glibc
        pass


def peak_rss_delta(fn: Callable[[], Any]) -> int | None:
    """Extra peak RSS (bytes) of one call above the RSS before it; None if unavailable.

    Resets the kernel's high-water mark via /proc/self/clear_refs (Linux).
    """
    gc.collect()
    _malloc_trim()  # hand freed heap pages back, so re-use of them shows up as RSS growth
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
    except OSError:
        return None
    before = _status_kb("VmRSS")
    fn()
    hwm = _status_kb("VmHWM")
    if before is None or hwm is None:
        return None
    return (hwm - before) * 1024


def traced_peak(fn: Callable[[], Any]) -> int:
    """tracemalloc peak (bytes) of one call above the traced memory before it."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        fn()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return a / b


def fmt_s(x: float | None) -> str:
    if x is None:
        return "—"
    if x >= 1:
        return f"{x:.2f} s"
    if x >= 1e-3:
        return f"{x * 1e3:.1f} ms"
    return f"{x * 1e6:.1f} µs"


def fmt_x(x: float | None) -> str:
    return "—" if x is None else (f"{x:.3f}x" if x < 0.1 else f"{x:.2f}x")


def fmt_n(n: int) -> str:
    for div, suf in ((1_000_000, "M"), (1_000, "k")):
        if n >= div and n % div == 0:
            return f"{n // div}{suf}"
    return f"{n:,}"


def fmt_mb(b: int | None) -> str:
    return "n/a" if b is None else f"{b / 2**20:.1f} MiB"


def md_table(header: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


class Report:
    def __init__(self) -> None:
        self.sections: dict[str, Any] = {}
        self.targets: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.text: list[str] = []

    def target(self, name: str, value: float | None, limit: float, unit: str, note: str = "") -> str:
        if value is None:
            verdict = "SKIP"
        else:
            verdict = "PASS" if value <= limit else "FAIL"
        self.targets.append({"target": name, "value": value, "limit": limit, "unit": unit, "result": verdict, "note": note})
        return verdict

    def out(self, s: str = "") -> None:
        print(s, flush=True)
        self.text.append(s)


def _fmt_value(v: float | None, unit: str) -> str:
    if v is None:
        return "—"
    if unit == "x":
        return fmt_x(v)
    if unit == "B/case":
        return f"{v:.1f} B/case"
    if unit == "µs":
        return f"{v:.2f} µs"
    return f"{v:.3g} {unit}"


# ----------------------------------------------------------------- sections


def machine_info() -> dict[str, Any]:
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    try:
        with open("/proc/meminfo") as fh:
            total = int(fh.readline().split()[1]) * 1024
    except OSError:
        total = None
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=os.path.dirname(os.path.abspath(__file__)),
            capture_output=True, text=True, timeout=10, env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        ).stdout.strip() or None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", ":/scored_pr"], cwd=os.path.dirname(os.path.abspath(__file__)),
            capture_output=True, text=True, timeout=10, env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        ).stdout.strip()
        if commit and dirty:
            commit += " + uncommitted changes in scored_pr/"
    except Exception:
        commit = None
    info = {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "cores_usable": usable,
        "memory_total_bytes": total,
        "loadavg": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scikit-learn": SKLEARN.__version__ if SKLEARN else "not installed",
        "torch": TORCH.__version__ if TORCH else _torch_state(),
        "torchmetrics": TORCHMETRICS.__version__ if TORCHMETRICS else _torch_state(),
        "sortedcontainers": SORTEDCONTAINERS.__version__ if SORTEDCONTAINERS else "not installed",
        "scored_pr": scored_pr.__version__,
        "scored_pr_commit": commit,
    }
    return info


def section_bulk(rep: Report, sizes: list[int], big_sizes: list[int], use_sk: bool, use_torch: bool, reps: int) -> None:
    rep.out("## 1. Bulk: numpy arrays -> full report (fresh evaluator)")
    rep.out()
    rep.out("Project = `add_cases(y, s)` then average_precision, area_under_roc_curve(False), pr_curve(False), "
            "roc_curve(False), area_under_pr_curve(True), maximum_f_measure, pr_breakeven_point, reciprocal_rank, "
            "precision_at(100). scikit-learn = average_precision_score + roc_auc_score + precision_recall_curve + "
            "roc_curve. torchmetrics = exact BinaryAveragePrecision + BinaryAUROC + BinaryPrecisionRecallCurve. "
            "numpy floor = one stable argsort + cumsums (anchors.py `limit_numpy`). Times are medians; the contenders take turns in every repetition. "
            "Peak RSS = extra resident memory of one call above the RSS before it (inputs excluded; "
            "free heap pages are returned with malloc_trim first; coarse, page-granular and noisy below ~100k cases); "
            "traced peak = tracemalloc peak of one call (Python + numpy allocations) per case.")
    rep.out()
    rows = []
    results = []
    for n in sizes + big_sizes:
        big = n in big_sizes
        r_n = reps if n <= 1_000_000 else max(1, min(reps, 3))
        for ties in (False, True):
            y, s = data(n, ties=ties)
            label = "ties (0.1)" if ties else "distinct"
            row: dict[str, Any] = {"n": n, "data": label, "reps": r_n}
            fns = {"numpy": lambda: limit_numpy(y, s), "project": lambda: project_full(y, s)}
            if use_sk and not big:
                fns["sklearn"] = lambda: sklearn_full(y, s)
            if use_torch and not big:
                fns["torchmetrics"] = lambda: torchmetrics_full(y, s)
            row.update(timed_interleaved(fns, r_n))
            del fns
            row["project_peak_rss_bytes"] = peak_rss_delta(lambda: project_full(y, s))
            row["numpy_peak_rss_bytes"] = peak_rss_delta(lambda: limit_numpy(y, s))
            row["project_traced_peak_bytes"] = traced_peak(lambda: project_full(y, s))
            row["numpy_traced_peak_bytes"] = traced_peak(lambda: limit_numpy(y, s))
            y = s = None  # free the inputs before the next (possibly 10M) size
            p = row["project"]["median_s"]
            npy = row["numpy"]["median_s"]
            sk = row.get("sklearn", {}).get("median_s")
            tm = row.get("torchmetrics", {}).get("median_s")
            r_sk, r_np, r_tm = ratio(p, sk), ratio(p, npy), ratio(p, tm)
            row.update(ratio_sklearn=r_sk, ratio_numpy=r_np, ratio_torchmetrics=r_tm)
            v_sk = rep.target(f"bulk n={fmt_n(n)} {label}: project / scikit-learn", r_sk, 0.5, "x",
                              "" if use_sk else "scikit-learn " + _sklearn_state()) if not big else "—"
            v_np = rep.target(f"bulk n={fmt_n(n)} {label}: project / numpy floor", r_np, 3.0, "x")
            sk_cell = fmt_s(sk) if use_sk else _sklearn_state()
            tm_cell = fmt_s(tm) if use_torch else _torch_state()
            if big:
                sk_cell = tm_cell = "skipped (--big)"
            rows.append([
                fmt_n(n), label, fmt_s(p), fmt_s(npy), sk_cell, tm_cell,
                f"{fmt_x(r_sk)} {v_sk}" if not big else "—",
                f"{fmt_x(r_np)} {v_np}",
                fmt_x(r_tm),
                f"{fmt_mb(row['project_peak_rss_bytes'])} / {fmt_mb(row['numpy_peak_rss_bytes'])}",
                f"{row['project_traced_peak_bytes'] / n:.0f} / {row['numpy_traced_peak_bytes'] / n:.0f}",
            ])
            results.append(row)
            gc.collect()
    rep.out(md_table(
        ["n", "scores", "project", "numpy floor", "scikit-learn", "torchmetrics",
         "project/sklearn (≤0.5x)", "project/numpy (≤3x)", "project/torchmetrics", "peak RSS project / numpy",
         "traced peak B/case project / numpy"],
        rows))
    rep.out()
    rep.sections["bulk"] = results


def section_stream(rep: Report, n: int, every: int, use_sk: bool, use_torch: bool, torch_n: int | None, reps: int) -> None:
    rep.out(f"## 2. Streaming: {n:,} single add_case calls, (AP, ROC AUC, max F1) queried every {every:,}")
    rep.out()
    y, s = data(n, seed=1)
    res: dict[str, Any] = {"n": n, "every": every}
    res["project"] = timed(lambda: stream_project(y, s, every), reps)
    p = res["project"]["median_s"]
    rows = [["scored_pr (add_case + query)", fmt_s(p), f"median of {reps}", "—"]]
    if use_sk:
        res["sklearn"] = timed(lambda: stream_sklearn(y, s, every), 1)
        sk = res["sklearn"]["median_s"]
        r = ratio(p, sk)
        v = rep.target(f"stream n={fmt_n(n)}: project / scikit-learn recompute", r, 0.1, "x")
        rows.append(["scikit-learn, recompute at each query", fmt_s(sk), "1 run", f"{fmt_x(r)} (≤0.1x) {v}"])
    else:
        rep.target(f"stream n={fmt_n(n)}: project / scikit-learn recompute", None, 0.1, "x", "scikit-learn " + _sklearn_state())
        rows.append(["scikit-learn, recompute at each query", _sklearn_state(), "", "—"])
    if use_torch:
        tn = n if not torch_n or torch_n >= n else torch_n
        tm_run = timed(lambda: stream_torchmetrics(y[:tn], s[:tn], every), 1)
        tm = tm_run["median_s"] * n / tn
        res["torchmetrics"] = {**tm_run, "cases_timed": tn, "scaled_to_n_s": tm}
        r = ratio(p, tm)
        if tn < n:
            note = (f"timed on the first {tn:,} cases and scaled linearly x{n / tn:g} (a lower bound: "
                    "torchmetrics' per-query compute grows with n)")
            # Same-prefix comparison, no extrapolation, for reference.
            pp = timed(lambda: stream_project(y[:tn], s[:tn], every), reps)["median_s"]
            res["project_on_prefix"] = pp
            note += f"; on the same {tn:,}-case prefix project/torchmetrics = {fmt_x(ratio(pp, tm_run['median_s']))}"
        else:
            note = "full run"
        v = rep.target(f"stream n={fmt_n(n)}: project / torchmetrics per case", r, 0.01, "x", note)
        rows.append(["torchmetrics exact, update per case", fmt_s(tm), note, f"{fmt_x(r)} (≤0.01x) {v}"])
    else:
        rep.target(f"stream n={fmt_n(n)}: project / torchmetrics per case", None, 0.01, "x", "torchmetrics " + _torch_state())
        rows.append(["torchmetrics exact, update per case", _torch_state(), "", "—"])
    rep.out(md_table(["implementation", "time", "how", "project / this (target)"], rows))
    rep.out()
    rep.sections["stream"] = res


def _retained_bulk(n: int) -> dict[str, Any]:
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        y, s = data(n, seed=3)
        tracemalloc.reset_peak()
        ev = E()
        ev.add_cases(y, s)
        ev.average_precision()
        peak = tracemalloc.get_traced_memory()[1] - base
        del y, s
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0] - base
        snap = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    top = _top_allocs(snap, 4)
    del ev
    return {"n": n, "retained_bytes": retained, "per_case": retained / n, "peak_bytes": peak, "top": top}


def _retained_singles(n: int, query: bool) -> dict[str, Any]:
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        y, s = data(n, seed=4)
        yl, sl = y.tolist(), s.tolist()  # fresh Python bool/float objects
        del y, s
        ev = E()
        add = ev.add_case
        for c, v in zip(yl, sl):
            add(c, v)
        if query:
            ev.average_precision()
        del yl, sl, add
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0] - base
        snap = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    top = _top_allocs(snap, 4)
    del ev
    return {"n": n, "query": query, "retained_bytes": retained, "per_case": retained / n, "top": top}


def _top_allocs(snap: tracemalloc.Snapshot, k: int) -> list[str]:
    snap = snap.filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
    out = []
    for st in snap.statistics("lineno")[:k]:
        fr = st.traceback[0]
        out.append(f"{os.path.basename(fr.filename)}:{fr.lineno} {st.size / 2**20:.1f} MiB")
    return out


def section_memory(rep: Report, n_bulk: int, n_single: int) -> None:
    rep.out("## 3. Memory retained by the evaluator (tracemalloc)")
    rep.out()
    rep.out("Inputs are created under tracing, then deleted and gc.collect()ed; retained = traced memory still "
            "held (by the evaluator) relative to before the inputs existed.")
    rep.out()
    a = _retained_bulk(n_bulk)
    b = _retained_singles(n_single, query=True)
    c = _retained_singles(n_single, query=False)
    va = rep.target(f"memory: bulk add_cases n={fmt_n(n_bulk)} + 1 query", a["per_case"], 64, "B/case")
    vb = rep.target(f"memory: {fmt_n(n_single)} add_case + 1 query", b["per_case"], 64, "B/case")
    rows = [
        [f"(a) add_cases of {fmt_n(n_bulk)} + average_precision()", f"{a['retained_bytes'] / 2**20:.1f} MiB",
         f"{a['per_case']:.1f}", f"≤64 {va}", f"peak during: {a['peak_bytes'] / n_bulk:.0f} B/case; top: {'; '.join(a['top'])}"],
        [f"(b) {fmt_n(n_single)} × add_case + average_precision()", f"{b['retained_bytes'] / 2**20:.1f} MiB",
         f"{b['per_case']:.1f}", f"≤64 {vb}", "top: " + "; ".join(b["top"])],
        [f"(c) {fmt_n(n_single)} × add_case, no query yet (info)", f"{c['retained_bytes'] / 2**20:.1f} MiB",
         f"{c['per_case']:.1f}", "—", "top: " + "; ".join(c["top"])],
    ]
    rep.out(md_table(["workload", "retained", "B/case", "target", "detail"], rows))
    rep.out()
    rep.sections["memory"] = {"bulk_query": a, "singles_query": b, "singles_pending": c}


def section_addcase(rep: Report, n: int, reps: int) -> None:
    rep.out(f"## 4. add_case cost: {n:,} calls, no query")
    rep.out()
    if SORTEDCONTAINERS is None:
        rep.target(f"add_case n={fmt_n(n)}: project / bare SortedList.add", None, 2.0, "x", "sortedcontainers not installed")
        rep.out("sortedcontainers not installed: no floor to compare with.")
        rep.out()
        return
    y, s = data(n, seed=1)
    yl, sl = y.tolist(), s.tolist()
    tt = timed_interleaved({"project": lambda: add_case_project(yl, sl), "floor": lambda: add_sortedlist_floor(yl, sl)}, reps)
    p, f = tt["project"], tt["floor"]
    r = ratio(p["median_s"], f["median_s"])
    v = rep.target(f"add_case n={fmt_n(n)}: project / bare SortedList.add", r, 2.0, "x")
    rows = [
        ["ev.add_case(c, v) loop", fmt_s(p["median_s"]), f"{p['median_s'] / n * 1e9:.0f} ns", f"{fmt_x(r)} (≤2x) {v}"],
        ["SortedList.add(v) loop (floor)", fmt_s(f["median_s"]), f"{f['median_s'] / n * 1e9:.0f} ns", "1x"],
    ]
    rep.out(md_table(["loop", f"median of {reps}", "per call", "ratio (target)"], rows))
    rep.out()
    rep.sections["addcase"] = {"n": n, "project": p, "sortedlist": f, "ratio": r}


def _per_call(fn: Callable[[], Any], calls: int, reps: int = 7) -> float:
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        ts.append((time.perf_counter() - t) / calls)
    return statistics.median(ts)


def section_cached(rep: Report, n_small: int, n_large: int, n_inc: int, k: int, reps: int) -> None:
    rep.out("## 5. Cached and incremental queries")
    rep.out()
    res: dict[str, Any] = {"cached": {}}
    rows = []
    for n in (n_small, n_large):
        y, s = data(n, seed=5)
        ev = E()
        ev.add_cases(y, s)
        ev.summary()
        res["cached"][n] = {
            "average_precision_s": _per_call(ev.average_precision, 20000),
            "summary_s": _per_call(ev.summary, 2000),
        }
        del ev, y, s
    cs, cl = res["cached"][n_small], res["cached"][n_large]
    for key, name, lim in (("average_precision_s", "average_precision()", 10.0), ("summary_s", "summary()", 100.0)):
        vs = rep.target(f"cached {name} n={fmt_n(n_small)}", cs[key] * 1e6, lim, "µs")
        vl = rep.target(f"cached {name} n={fmt_n(n_large)}", cl[key] * 1e6, lim, "µs")
        rr = ratio(cl[key], cs[key])
        vr = rep.target(f"cached {name}: time at n={fmt_n(n_large)} / n={fmt_n(n_small)}", rr, 2.0, "x")
        rows.append([f"repeat {name}, nothing changed", f"{cs[key] * 1e6:.2f} µs {vs}", f"{cl[key] * 1e6:.2f} µs {vl}",
                     f"≤{lim:g} µs; {fmt_x(rr)} (≤2x) {vr}"])
    rep.out(md_table(["cached query", f"n={fmt_n(n_small)}", f"n={fmt_n(n_large)}", "target (large/small)"], rows))
    rep.out()

    # A query after k new single cases on an evaluator of n_inc cases.
    y, s = data(n_inc, seed=6)
    yk, sk_ = data(k * reps, seed=7)
    ykl, skl = yk.tolist(), sk_.tolist()
    ev = E()
    ev.add_cases(y, s)
    ev.average_precision(), ev.area_under_roc_curve(False), ev.maximum_f_measure()
    ts = []
    for r in range(reps):
        for c, v in zip(ykl[r * k:(r + 1) * k], skl[r * k:(r + 1) * k]):
            ev.add_case(c, v)
        gc.collect()
        t = time.perf_counter()
        ev.average_precision(), ev.area_under_roc_curve(False), ev.maximum_f_measure()
        ts.append(time.perf_counter() - t)
    inc = statistics.median(ts)
    del ev
    sort = timed(lambda: np.argsort(-s, kind="stable"), reps)["median_s"]
    y2, s2 = np.concatenate([y, yk[:k]]), np.concatenate([s, sk_[:k]])

    def fresh() -> Any:
        e = E()
        e.add_cases(y2, s2)
        return e.average_precision(), e.area_under_roc_curve(False), e.maximum_f_measure()

    fr = timed(fresh, reps)["median_s"]
    r = ratio(inc, sort)
    v = rep.target(f"query after k={k:,} new cases on n={fmt_n(n_inc)} / stable argsort of n", r, 0.25, "x")
    rows = [
        [f"(AP, ROC AUC, max F1) after {k:,} add_case on n={fmt_n(n_inc)}", fmt_s(inc), f"{fmt_x(r)} (≤0.25x) {v}"],
        [f"bare np.argsort(-s, kind='stable') of n={fmt_n(n_inc)}", fmt_s(sort), "1x"],
        ["fresh evaluator: add_cases(n+k) + same query (info)", fmt_s(fr), fmt_x(ratio(fr, sort))],
    ]
    rep.out(md_table(["incremental query", f"median of {reps}", "vs fresh full sort (target)"], rows))
    rep.out()
    res["incremental"] = {"n": n_inc, "k": k, "query_s": inc, "all_s": ts, "argsort_s": sort, "fresh_project_s": fr, "ratio": r}
    rep.sections["cached"] = res


# --------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", help="bulk sizes, comma-separated (default 10000,100000,1000000; --quick 10000,100000)")
    ap.add_argument("--quick", action="store_true", help="small sizes for a CI smoke run (< 60 s, torch not needed)")
    ap.add_argument("--big", action="store_true", help="also bulk n = 10,000,000 (project + numpy floor only)")
    ap.add_argument("--json", metavar="PATH", help="also write every number as JSON to PATH")
    ap.add_argument("--only", default="bulk,stream,memory,addcase,cached",
                    help="sections to run (comma-separated subset of bulk,stream,memory,addcase,cached)")
    ap.add_argument("--anchors", default=None,
                    help="anchors to time: comma-separated subset of sklearn,torchmetrics "
                         "(default: both if installed; --quick: sklearn)")
    ap.add_argument("--reps", type=int, default=None, help="repetitions for medians (default 5; --quick 3)")
    ap.add_argument("--stream-n", type=int, default=None, help="streaming cases (default 100000, also with --quick)")
    ap.add_argument("--every", type=int, default=1000, help="query every this many cases (default 1000)")
    ap.add_argument("--stream-torch-n", type=int, default=None,
                    help="time torchmetrics streaming on only this many first cases and scale linearly "
                         "(default: the whole stream)")
    ap.add_argument("--strict", action="store_true", help="exit 1 if a target fails")
    ap.add_argument("--md", metavar="PATH", help="also write the printed markdown to PATH")
    a = ap.parse_args(argv)

    q = a.quick
    sizes = [int(x) for x in a.sizes.split(",")] if a.sizes else ([10_000, 100_000] if q else [10_000, 100_000, 1_000_000])
    big_sizes = [10_000_000] if a.big else []
    reps = a.reps or (3 if q else 5)
    stream_n = a.stream_n or 100_000  # the targets are defined at this size
    only = set(a.only.split(","))
    anchors = set((a.anchors if a.anchors is not None else ("sklearn" if q else "sklearn,torchmetrics")).split(","))
    use_sk = "sklearn" in anchors and SKLEARN is not None
    use_torch = "torchmetrics" in anchors and _load_torch()

    rep = Report()
    t0 = time.perf_counter()
    info = machine_info()
    rep.out("# scored_pr benchmark")
    rep.out()
    rep.out(f"- CPU: {info['cpu']}; {info['cores']} cores ({info['cores_usable']} usable); "
            f"memory {info['memory_total_bytes'] / 2**30:.0f} GiB; load average at start "
            f"{', '.join(f'{x:.2f}' for x in info['loadavg']) if info['loadavg'] else 'n/a'}")
    rep.out(f"- Python {info['python']} ({info['platform']}); numpy {info['numpy']}; scikit-learn {info['scikit-learn']}; "
            f"torch {info['torch']}; torchmetrics {info['torchmetrics']}; sortedcontainers {info['sortedcontainers']}")
    rep.out(f"- scored_pr {info['scored_pr']} (commit {info['scored_pr_commit'] or 'unknown'})")
    mode = "quick" if q else "default"
    rep.out(f"- mode: {mode}{' + big' if a.big else ''}; sections: {', '.join(s for s in ('bulk', 'stream', 'memory', 'addcase', 'cached') if s in only)}; "
            f"anchors: scikit-learn {'on' if use_sk else _sklearn_state()}, "
            f"torchmetrics {'on' if use_torch else _torch_state()}; "
            f"medians of {reps} unless stated")
    rep.out("- Shared, noisy machine: compare ratios (same process, same data), not absolute times.")
    rep.out()

    # Warm up imports and first-call paths outside the timings.
    y, s = data(1000)
    project_full(y, s)
    limit_numpy(y, s)
    if use_sk:
        sklearn_full(y, s)
    if use_torch:
        torchmetrics_full(y, s)
    del y, s

    if "bulk" in only:
        section_bulk(rep, sizes, big_sizes, use_sk, use_torch, reps)
    if "stream" in only:
        section_stream(rep, stream_n, a.every, use_sk, use_torch, a.stream_torch_n, 3 if not q else 1)
    if "memory" in only:
        section_memory(rep, 100_000 if q else 1_000_000, 50_000 if q else 200_000)
    if "addcase" in only:
        section_addcase(rep, stream_n, reps)
    if "cached" in only:
        section_cached(rep, 1_000 if q else 10_000, 100_000 if q else 1_000_000, 100_000 if q else 1_000_000, 1000, reps)

    rep.out("## Targets")
    rep.out()
    rows = [[t["target"], _fmt_value(t["value"], t["unit"]),
             ("≤ " + (f"{t['limit']:g}x" if t["unit"] == "x" else f"{t['limit']:g} {t['unit']}")),
             t["result"] + (f" ({t['note']})" if t["note"] and t["result"] == "SKIP" else "")] for t in rep.targets]
    rep.out(md_table(["target", "measured", "target", "result"], rows))
    rep.out()
    counts = {k: sum(t["result"] == k for t in rep.targets) for k in ("PASS", "FAIL", "SKIP")}
    rep.out(f"{counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped "
            f"(wall time {time.perf_counter() - t0:.0f} s)")

    if a.json:
        with open(a.json, "w", encoding="utf-8") as fh:
            json.dump({"machine": info, "args": vars(a), "sections": rep.sections, "targets": rep.targets}, fh, indent=1,
                      default=str)
    if a.md:
        with open(a.md, "w", encoding="utf-8") as fh:
            fh.write("\n".join(rep.text) + "\n")
    return 1 if (a.strict and counts["FAIL"]) else 0


if __name__ == "__main__":
    sys.exit(main())
