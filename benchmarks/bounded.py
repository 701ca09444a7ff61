"""Bounded-memory evaluation: certified width vs the real error of binned evaluators, bytes, speed.

    python benchmarks/bounded.py                 # n = 1M accuracy, 10M speed (~1-2 min)
    python benchmarks/bounded.py --quick         # n = 100k, 1M speed (~15 s)
    python benchmarks/bounded.py --md out.md     # also write the tables

Data: n cases, 30 % positive, scores sigmoid(N(0, 1) + 1.2 * label) (binormal,
continuous, in (0, 1) as Keras and river expect probabilities; seed 0).

Compared, on the same scores:

* ``BoundedEvaluation(max_bins=4096)``: its estimate's actual error, and the
  width of its certified interval (upper - lower), which it reports itself.
* Keras-style ``AUC(num_thresholds=200)``: 200 thresholds, 198 equally spaced
  in (0, 1) plus -1e-7 and 1 + 1e-7, a case predicted positive when its score
  exceeds the threshold; ROC area by the trapezoid rule, PR area by the
  Davis-Goadrich interpolation between thresholds (Keras's default
  ``summation_method="interpolation"``). Computed here in numpy from those
  definitions (no TensorFlow); its PR area is compared with exact average
  precision.
* river ``ROCAUC(n_thresholds=10)`` and ``(n_thresholds=100)``: thresholds
  i / (k - 1), the end ones moved out by 1e-7, trapezoid over (fpr, tpr).
  Computed in numpy from that definition and checked equal to river itself on
  the first 20,000 cases when river is installed (river updates one case at a
  time in Python: 100 thresholds x 1M cases would take minutes).

Neither binned peer reports how wrong it is; the "certified" column says so.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scored_pr import BoundedEvaluation, ScoredPrecisionRecallEvaluation  # noqa: E402


def data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    z = rng.normal(size=n) + 1.2 * y
    return y, 1.0 / (1.0 + np.exp(-z))


def counts_above(y: np.ndarray, s: np.ndarray, thresholds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TP and FP of predicting positive when score > threshold, for every threshold."""
    sp, sn = np.sort(s[y]), np.sort(s[~y])
    tp = sp.size - np.searchsorted(sp, thresholds, side="right")
    fp = sn.size - np.searchsorted(sn, thresholds, side="right")
    return tp.astype(np.float64), fp.astype(np.float64)


def keras_auc(y: np.ndarray, s: np.ndarray, num_thresholds: int = 200) -> tuple[float, float]:
    """(ROC AUC, PR AUC) of Keras-style AUC(num_thresholds) with summation_method='interpolation'."""
    eps = 1e-7
    inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    thresholds = np.array([-eps, *inner, 1.0 + eps])
    tp, fp = counts_above(y, s, thresholds)  # thresholds ascending: counts descending
    pos, neg = float(y.sum()), float((~y).sum())
    tpr, fpr = tp / pos, fp / neg
    roc = float(np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2.0))
    # Davis-Goadrich: between consecutive thresholds A (lower, more accepted) and B,
    # precision follows tp = slope * p + intercept along the predicted-positive count p,
    # and the area is slope * (dtp + intercept * ln(p_A / p_B)) / positives.
    p = tp + fp
    dtp, dp = tp[:-1] - tp[1:], p[:-1] - p[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = np.where(dp > 0, dtp / np.where(dp > 0, dp, 1.0), 0.0)
        intercept = tp[1:] - slope * p[1:]
        ratio = np.where((p[:-1] > 0) & (p[1:] > 0), p[:-1] / np.where(p[1:] > 0, p[1:], 1.0), 1.0)
        pr = float(np.sum(slope * (dtp + intercept * np.log(ratio)) / pos))
    return roc, pr


def river_auc(y: np.ndarray, s: np.ndarray, n_thresholds: int) -> float:
    """river ROCAUC(n_thresholds)'s value, from its definition."""
    thresholds = np.array([i / (n_thresholds - 1) for i in range(n_thresholds)])
    thresholds[0] -= 1e-7
    thresholds[-1] += 1e-7
    tp, fp = counts_above(y, s, thresholds)
    pos, neg = float(y.sum()), float((~y).sum())
    return float(-np.trapezoid(y=tp / pos, x=fp / neg))


def river_check(y: np.ndarray, s: np.ndarray) -> str:
    try:
        from river import metrics
    except ImportError:
        return "river not installed: its formula was not checked against river itself"
    m = 20_000
    out = []
    for k in (10, 100):
        metric = metrics.ROCAUC(n_thresholds=k)
        for yi, si in zip(y[:m].tolist(), s[:m].tolist()):
            metric.update(yi, si)
        ours = river_auc(y[:m], s[:m], k)
        if abs(metric.get() - ours) > 1e-12:
            raise SystemExit(f"river ROCAUC({k}) = {metric.get()} but its formula gives {ours}")
        out.append(f"ROCAUC({k}) = {ours:.12f}")
    return "river itself agrees on the first 20,000 cases: " + ", ".join(out)


def best(fn: Any, reps: int) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def md(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def saved_bytes(s: BoundedEvaluation) -> int:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.npz")
        s.save(path)
        return os.path.getsize(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--md", type=Path)
    args = ap.parse_args(argv)
    n_acc = 100_000 if args.quick else 1_000_000
    n_big = 1_000_000 if args.quick else 10_000_000
    reps = 1 if args.quick else 3
    out: list[str] = []

    # ---------------------------------------------------------------- accuracy
    y, s = data(n_acc)
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    auc, ap_ = ev.area_under_roc_curve(), ev.average_precision()
    b = BoundedEvaluation(4096)
    b.add_cases(y, s)
    b_auc, b_ap = b.area_under_roc_curve(), b.average_precision()
    assert b_auc.lower <= auc <= b_auc.upper and b_ap.lower <= ap_ <= b_ap.upper
    k_roc, k_pr = keras_auc(y, s)
    rows = [
        ["scored_pr BoundedEvaluation(4096)", f"{saved_bytes(b):,} B", f"{abs(float(b_auc) - auc):.1e}",
         f"{abs(float(b_ap) - ap_):.1e}", f"yes: AUC width {b_auc.width:.1e}, AP width {b_ap.width:.1e}"],
        ["Keras-style AUC(num_thresholds=200)", "200 x 4 counts", f"{abs(k_roc - auc):.1e}",
         f"{abs(k_pr - ap_):.1e} (PR AUC)", "no"],
    ]
    for k in (10, 100):
        rows.append([f"river ROCAUC(n_thresholds={k})", f"{k} x 4 counts", f"{abs(river_auc(y, s, k) - auc):.1e}",
                     "n/a", "no"])
    out.append(f"### Accuracy: {n_acc:,} cases, binormal scores, 30 % positive "
               f"(exact ROC AUC {auc:.6f}, AP {ap_:.6f})\n")
    out.append(md(["method", "state", "ROC AUC error", "AP error", "certified bound?"], rows))
    out.append("\n" + river_check(y, s) + "\n")

    # ---------------------------------------------------------------- speed and bytes
    y, s = data(n_big, seed=1)

    def exact_bulk() -> None:
        e = ScoredPrecisionRecallEvaluation()
        e.add_cases(y, s)
        e.average_precision()

    def bounded_bulk() -> None:
        x = BoundedEvaluation(4096)
        x.add_cases(y, s)
        x.average_precision()

    t_exact, t_bounded = best(exact_bulk, reps), best(bounded_bulk, reps)
    parts = []
    for i in range(20):
        yy, ss = data(50_000, seed=100 + i)
        p = BoundedEvaluation(4096)
        p.add_cases(yy, ss)
        parts.append(p)

    def merge_1000() -> None:
        total = parts[0]
        for i in range(1, 1000):
            total = total + parts[i % 20]

    t_merge = best(merge_1000, 1 if args.quick else 3)
    rows = [
        [f"add_cases + average_precision, {n_big:,} cases", f"{t_bounded:.2f} s", f"{t_exact:.2f} s (exact evaluator)",
         f"{t_bounded / t_exact:.2f}x", "<= 0.5x"],
        ["merge 1,000 summaries of 4,096 bins (a + b, left to right)", f"{t_merge:.2f} s", "", "", "< 1 s"],
    ]
    out.append(f"### Speed (best of {reps}; this 2-core machine is shared: quote ratios)\n")
    out.append(md(["workload", "BoundedEvaluation", "anchor", "ratio", "target"], rows))
    rows = []
    for n in (10_000, 100_000, 1_000_000, n_big):
        yy, ss = data(n, seed=2)
        x = BoundedEvaluation(4096)
        x.add_cases(yy, ss)
        rows.append([f"{n:,}", str(x.num_bins), f"{saved_bytes(x):,}", f"{len(pickle.dumps(x)):,}",
                     f"{len(str(x.to_dict())):,}"])
    out.append("\n### Serialised size (max_bins=4096; target <= 131,072 B at any n)\n")
    out.append(md(["cases", "bins", "save() .npz bytes", "pickle bytes", "to_dict() repr chars"], rows))
    text = "\n".join(out)
    print(text)
    if args.md:
        args.md.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
