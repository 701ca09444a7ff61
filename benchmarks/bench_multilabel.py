#!/usr/bin/env python3
"""Multi-label benchmark: scored_pr's (n, k) average_precision / area_under_roc_curve against scikit-learn.

200,000 rows x 50 labels (``--n``, ``--k``), about 10 % positives per label,
in the score distributions users bring (``--scores`` picks some):

- ``uniform-rounded``, ``uniform``: uniform noise + 0.3 x label, rounded to 3
  decimals (heavy ties) or continuous (the original distribution);
- ``logits``: normal logits z (N(0, 1) + label: about half negative), float64;
- ``logits-float32``: the same logits as float32 (scattered ties);
- ``sigmoid``: the probabilities sigmoid(z);
- ``sigmoid-rounded``: np.round(sigmoid(z), 2) (101 distinct scores).

For each, macro AP, micro AP and macro ROC AUC by

- scored_pr.average_precision / area_under_roc_curve (one vectorised sort of all labels);
- scikit-learn 1.9's average_precision_score / roc_auc_score (target: scored_pr <= 0.3x);
- torchmetrics' multilabel_average_precision(thresholds=None) and multilabel_auroc, if
  installed (a second anchor; skipped when absent; never a dependency of scored_pr).

The values are checked to agree (max abs difference reported). Times are CPU
seconds of this process (``time.process_time``), medians over ``--reps``
repetitions in which the contenders take turns: the machine is shared and noisy,
so compare ratios, not absolute times.

Usage::

    python benchmarks/bench_multilabel.py                       # ~6 min
    python benchmarks/bench_multilabel.py --md results.md       # also write the tables
    python benchmarks/bench_multilabel.py --n 20000 --reps 1    # quick look
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import warnings
from typing import Any, Callable

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import scored_pr  # noqa: E402

TARGET = 0.3


DISTRIBUTIONS = {
    "uniform-rounded": "uniform + 0.3 x label, rounded to 3 decimals (ties)",
    "uniform": "uniform + 0.3 x label, continuous",
    "logits": "logits z = N(0, 1) + label, float64 (about half negative)",
    "logits-float32": "logits z as float32",
    "sigmoid": "probabilities sigmoid(z)",
    "sigmoid-rounded": "np.round(sigmoid(z), 2) (ties)",
}


def data(n: int, k: int, scores: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random((n, k)) < 0.1
    if scores.startswith("uniform"):
        s = rng.random((n, k)) + 0.3 * y
        return y, (np.round(s, 3) if scores == "uniform-rounded" else s)
    z = rng.standard_normal((n, k)) + y
    if scores == "logits":
        return y, z
    if scores == "logits-float32":
        return y, z.astype(np.float32)
    p = 1.0 / (1.0 + np.exp(-z))
    return y, (np.round(p, 2) if scores == "sigmoid-rounded" else p)


def timed(func: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    value = func()
    return time.process_time() - start, value


def contenders(y: np.ndarray, s: np.ndarray) -> dict[str, dict[str, Callable[[], Any]]]:
    from sklearn.metrics import average_precision_score, roc_auc_score

    out: dict[str, dict[str, Callable[[], Any]]] = {
        "macro AP": {
            "scored_pr": lambda: scored_pr.average_precision(y, s, average="macro"),
            "scikit-learn": lambda: average_precision_score(y, s, average="macro"),
        },
        "micro AP": {
            "scored_pr": lambda: scored_pr.average_precision(y, s, average="micro"),
            "scikit-learn": lambda: average_precision_score(y, s, average="micro"),
        },
        "macro ROC AUC": {
            "scored_pr": lambda: scored_pr.area_under_roc_curve(y, s, average="macro"),
            "scikit-learn": lambda: roc_auc_score(y, s, average="macro"),
        },
    }
    try:
        import torch
        from torchmetrics.functional.classification import multilabel_auroc, multilabel_average_precision
    except ImportError:
        return out
    yt, st = torch.from_numpy(y.astype(np.int64)), torch.from_numpy(s)
    k = y.shape[1]
    out["macro AP"]["torchmetrics"] = lambda: float(multilabel_average_precision(st, yt, num_labels=k, average="macro", thresholds=None))
    out["micro AP"]["torchmetrics"] = lambda: float(multilabel_average_precision(st, yt, num_labels=k, average="micro", thresholds=None))
    out["macro ROC AUC"]["torchmetrics"] = lambda: float(multilabel_auroc(st, yt, num_labels=k, average="macro", thresholds=None))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--k", type=int, default=50)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--md", help="also write the tables to this Markdown file")
    parser.add_argument("--scores", nargs="+", choices=list(DISTRIBUTIONS), default=list(DISTRIBUTIONS),
                        help="score distributions to run (default: all)")
    args = parser.parse_args()
    import sklearn

    versions = f"Python {platform.python_version()}; numpy {np.__version__}; scored_pr {scored_pr.__version__}; scikit-learn {sklearn.__version__}"
    try:
        import torchmetrics

        versions += f"; torchmetrics {torchmetrics.__version__}"
    except ImportError:
        versions += "; torchmetrics not installed (skipped)"
    lines = [
        "# scored_pr multi-label benchmark",
        "",
        f"- {versions}; {os.cpu_count()} cores; load average at start {', '.join(f'{x:.2f}' for x in os.getloadavg())}",
        f"- {args.n:,} rows x {args.k} labels, ~10 % positives per label; CPU time (time.process_time), median of {args.reps}, contenders take turns; shared noisy machine: compare ratios.",
        "",
    ]
    passed = True
    for scores in args.scores:
        y, s = data(args.n, args.k, scores)
        title = f"{scores}: {DISTRIBUTIONS[scores]}"
        lines += [f"## {title}", "", "| measure | implementation | time (CPU) | value | scored_pr / this |", "|---|---|---|---|---|"]
        for measure, funcs in contenders(y, s).items():
            times: dict[str, list[float]] = {name: [] for name in funcs}
            values: dict[str, Any] = {}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for _ in range(args.reps):
                    for name, func in funcs.items():
                        t, values[name] = timed(func)
                        times[name].append(t)
            ours = statistics.median(times["scored_pr"])
            for name in funcs:
                t = statistics.median(times[name])
                diff = abs(values[name] - values["scored_pr"])
                if name == "scored_pr":
                    ratio = "—"
                elif name == "scikit-learn":
                    ok = ours / t <= TARGET
                    passed &= ok
                    ratio = f"{ours / t:.3f}x (≤{TARGET}x) {'PASS' if ok else 'FAIL'}"
                else:
                    ratio = f"{ours / t:.3f}x (info)"
                lines.append(f"| {measure} | {name} | {t:.3f} s | {values[name]:.12f} (Δ {diff:.1e}) | {ratio} |")
            print(lines[-len(funcs):] and "\n".join(lines[-len(funcs):]), flush=True)
        lines.append("")
    lines.append(f"All targets met: {'yes' if passed else 'NO'}")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.md:
        with open(args.md, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
