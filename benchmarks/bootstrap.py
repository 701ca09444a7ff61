#!/usr/bin/env python3
"""Bootstrap and DeLong timings of scored_pr against R's pROC and a resampling loop.

The claim (issue 13): 2,000 stratified bootstrap resamples of 100,000 cases in
a few seconds on a 2-core machine, because a resample is a vector of case
counts and the measures are computed from cumulative counts in numpy, not by
re-evaluating resampled copies.

Workloads, on n cases (30 % positive, scores N(0, 1) + label, seed 0):

- ``delong``: the DeLong interval of ROC AUC, against pROC's
  ``ci.auc(method="delong")``;
- ``auc boot``: a 2,000-resample stratified percentile interval of ROC AUC,
  against pROC's ``ci.auc(method="bootstrap", boot.n=2000, boot.stratified=TRUE)``
  and a Python loop of ``sklearn.metrics.roc_auc_score`` over resampled copies;
- ``ap boot`` / ``ap bca``: the same for average precision (percentile, BCa),
  against the scikit-learn loop (pROC has no AP).

The slow anchors run fewer resamples (``--anchor-resamples``) and are scaled
linearly to 2,000 (said in the table). R timings are measured inside R
(``system.time``), data loading excluded; R is optional (``Rscript`` with pROC:
``apt-get install r-cran-proc``) and so is scikit-learn.

Usage::

    python benchmarks/bootstrap.py                     # n = 1k, 10k, 100k
    python benchmarks/bootstrap.py --sizes 100000 --md benchmarks/results-bootstrap.md

The machine is shared and noisy: read the ratios, and the load average printed
with the table.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Callable

import numpy as np

import scored_pr

N_RESAMPLES = 2000


def data(n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    correct = rng.random(n) < 0.3
    return correct, rng.normal(size=n) + correct


def timed(f: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def sklearn_loop(correct: np.ndarray, scores: np.ndarray, measure: str, resamples: int) -> float | None:
    """Seconds for ``resamples`` stratified resamples re-evaluated with scikit-learn."""
    try:
        from sklearn.metrics import average_precision_score, roc_auc_score
    except ImportError:
        return None
    f = roc_auc_score if measure == "auc" else average_precision_score
    rng = np.random.default_rng(1)
    pos, neg = np.flatnonzero(correct), np.flatnonzero(~correct)
    t0 = time.perf_counter()
    for _ in range(resamples):
        idx = np.r_[rng.choice(pos, pos.size), rng.choice(neg, neg.size)]
        f(correct[idx], scores[idx])
    return time.perf_counter() - t0


R_SCRIPT = r"""
suppressPackageStartupMessages(library(pROC))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
boot_n <- as.integer(args[2])
r <- roc(d$correct, d$score, levels = c(0, 1), direction = "<", quiet = TRUE)
t_delong <- median(sapply(1:3, function(i) system.time(ci.auc(r, method = "delong"))[["elapsed"]]))
set.seed(1)
t_boot <- system.time(ci.auc(r, method = "bootstrap", boot.n = boot_n, boot.stratified = TRUE,
                             progress = "none"))[["elapsed"]]
cat(sprintf("%.6f %.6f %s\n", t_delong, t_boot, as.character(packageVersion("pROC"))))
"""


def proc_times(correct: np.ndarray, scores: np.ndarray, boot_n: int) -> tuple[float, float, str] | None:
    """(DeLong seconds, bootstrap seconds for boot_n resamples, pROC version), or None without R."""
    if shutil.which("Rscript") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "d.csv")
        np.savetxt(path, np.c_[correct.astype(int), scores], delimiter=",", header="correct,score", comments="",
                   fmt=["%d", "%.17g"])
        script = os.path.join(tmp, "b.R")
        with open(script, "w") as f:
            f.write(R_SCRIPT)
        res = subprocess.run(["Rscript", script, path, str(boot_n)], capture_output=True, text=True)
    if res.returncode != 0:
        print(f"pROC failed: {res.stderr.strip()[:300]}", file=sys.stderr)
        return None
    delong, boot, version = res.stdout.split()
    return float(delong), float(boot), version


def fmt(t: float | None) -> str:
    if t is None:
        return "-"
    return f"{t * 1000:.1f} ms" if t < 1 else f"{t:.2f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--reps", type=int, default=3, help="repetitions of the scored_pr timings (median)")
    ap.add_argument("--anchor-resamples", type=int, default=100,
                    help="resamples timed for the scikit-learn loop and for pROC beyond 10,000 cases (scaled to 2,000)")
    ap.add_argument("--md", help="also write the table to this file")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    rows = []
    proc_version = None
    for n in sizes:
        correct, scores = data(n)
        ev = scored_pr.ScoredPrecisionRecallEvaluation()
        ev.add_cases(correct, scores)
        ev.area_under_roc_curve()  # build the ranking once, outside the timings
        ours = {
            "delong": timed(lambda: ev.confidence_interval(method="delong"), args.reps),
            "auc boot": timed(lambda: ev.confidence_interval(method="bootstrap", seed=0), args.reps),
            "ap boot": timed(lambda: ev.confidence_interval("average_precision", seed=0), args.reps),
            "ap bca": timed(lambda: ev.confidence_interval("average_precision", method="bca", seed=0), args.reps),
        }
        k = args.anchor_resamples
        sk = {m: sklearn_loop(correct, scores, m, k) for m in ("auc", "ap")}
        boot_n = N_RESAMPLES if n <= 10_000 else k
        proc = proc_times(correct, scores, boot_n)
        if proc:
            proc_version = proc[2]
        scale = N_RESAMPLES / k
        for name, t in ours.items():
            if name == "delong":
                r_t = proc[0] if proc else None
                sk_t = None
            else:
                r_t = (proc[1] * N_RESAMPLES / boot_n) if (proc and name == "auc boot") else None
                base = sk["auc" if name.startswith("auc") else "ap"]
                sk_t = base * scale if base is not None else None
            rows.append((f"{n:,}", name, fmt(t), fmt(r_t), f"{r_t / t:.0f}x" if r_t else "-",
                         fmt(sk_t), f"{sk_t / t:.0f}x" if sk_t else "-"))  # fmt: skip

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    header = (
        f"Bootstrap: {N_RESAMPLES:,} stratified resamples; pROC {proc_version or 'not available'}; "
        f"scikit-learn loop and pROC beyond 10,000 cases timed on {args.anchor_resamples} resamples and "
        f"scaled to {N_RESAMPLES:,}. {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"load average {load:.1f}; scored_pr medians of {args.reps}.\n"
    )
    cols = ("n", "interval", "scored_pr", "pROC", "pROC / scored_pr", "sklearn loop", "loop / scored_pr")
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(cols)]
    lines = ["| " + " | ".join(f"{c:<{w}}" for c, w in zip(cols, widths)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]  # fmt: skip
    lines += ["| " + " | ".join(f"{c:<{w}}" for c, w in zip(r, widths)) + " |" for r in rows]
    text = header + "\n" + "\n".join(lines) + "\n"
    print(text)
    if args.md:
        with open(args.md, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
