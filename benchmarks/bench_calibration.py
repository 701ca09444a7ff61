"""Calibration measures of 1,000,000 scores against scikit-learn, torchmetrics and netcal; the debiased ECE's bias.

    python benchmarks/bench_calibration.py                 # the timings and the bias table
    python benchmarks/bench_calibration.py --md out.md     # also write the tables as Markdown

Timings (best of ``--reps``, the tools interleaved in each round), on four kinds of input a
user brings: ``uniform`` (distinct float64 probabilities), ``binormal`` (sigmoid(N(0, 1) +
1.2 label), 30 % positive), ``rounded`` (the binormal rounded to 2 decimals: heavy ties) and
``float32`` (the binormal cast to float32):

* scored_pr, queries only: the evaluator already holds the cases (sorted, as after any other
  query), and these are timed: ``calibration_curve()``, ``expected_calibration_error()`` (plain
  and debiased), ``brier_score()``, ``log_loss()``, ``reliability_diagram(n_resamples=0)`` (the
  CORP fit and decomposition) and ``calibration_slope_intercept()``, each run on its own
  evaluator built (and sorted) before the timing, so each run computes everything;
* scored_pr, from arrays: ``add_cases`` plus the same queries;
* scikit-learn: ``calibration_curve`` + ``brier_score_loss`` + ``log_loss`` (the target);
* scikit-learn's ``IsotonicRegression`` fit (the CORP curve's reference);
* torchmetrics' ``binary_calibration_error`` (float64 tensors) and netcal's ``ECE`` (15 bins),
  beside them, when installed.

Bias: the mean over draws of the plain ECE (15 uniform bins, l1), its debiased estimate
(Kumar, Liang & Ma 2019) and the debiased l2 error, for calibrated data (p uniform on [0, 1],
outcome ~ Bernoulli(p): the true calibration error is 0) at n = 100 ... 100,000.

This 2-core machine is shared: quote the ratios measured in the same run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scored_pr import ScoredPrecisionRecallEvaluation  # noqa: E402


def inputs(n: int, seed: int = 1) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    u = rng.random(n)
    yu = rng.random(n) < u
    y = rng.random(n) < 0.3
    s = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + 1.2 * y)))
    return {"uniform": (yu, u), "binormal": (y, s), "rounded": (y, np.round(s, 2)),
            "float32": (y, s.astype(np.float32).astype(np.float64))}  # fmt: skip


def _queries(ev: Any) -> None:
    ev.calibration_curve()
    ev.expected_calibration_error()
    ev.expected_calibration_error(debias=True)
    ev.brier_score()
    ev.log_loss()
    ev.reliability_diagram(n_resamples=0)
    ev.calibration_slope_intercept()


def _subset(ev: Any) -> None:
    ev.calibration_curve()
    ev.brier_score()
    ev.log_loss()


def tools(y: np.ndarray, s: np.ndarray, reps: int) -> dict[str, Callable[[], Any]]:
    from sklearn.calibration import calibration_curve
    from sklearn.isotonic import IsotonicRegression
    from sklearn.metrics import brier_score_loss, log_loss

    def held() -> ScoredPrecisionRecallEvaluation:
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(y, s)
        ev.ranked_cases()  # sorted, as after any earlier query; no calibration result cached
        return ev

    pool = [held() for _ in range(reps)]

    def queries_only() -> None:
        _queries(pool.pop())

    def from_arrays() -> None:
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(y, s)
        _queries(ev)

    subset_pool = [held() for _ in range(reps)]
    out: dict[str, Callable[[], Any]] = {
        "scored_pr: all measures + CORP (held cases)": queries_only,
        "scored_pr: calibration_curve + brier_score + log_loss (held cases)": lambda: _subset(subset_pool.pop()),
        "scored_pr: add_cases + all measures + CORP": from_arrays,
        "sklearn: calibration_curve + brier_score_loss + log_loss": lambda: (
            calibration_curve(y, s, n_bins=5), brier_score_loss(y, s), log_loss(y, s)),
        "sklearn: IsotonicRegression fit (CORP curve)": lambda: IsotonicRegression().fit(s, y),
    }
    try:
        import torch
        from torchmetrics.functional.classification import binary_calibration_error

        ts, ty = torch.tensor(s, dtype=torch.float64), torch.tensor(y.astype(np.int64))
        out["torchmetrics: binary_calibration_error (l1, 15 bins)"] = lambda: binary_calibration_error(ts, ty, n_bins=15)
    except ImportError:
        pass
    try:
        from netcal.metrics import ECE

        ece = ECE(bins=15)
        out["netcal: ECE (15 bins)"] = lambda: ece.measure(s, y.astype(np.int64))
    except ImportError:
        pass
    return out


def timings(n: int, reps: int) -> list[tuple[str, str, float]]:
    rows = []
    for name, (y, s) in inputs(n).items():
        fns = tools(y, s, reps)
        best = {k: float("inf") for k in fns}
        for _ in range(reps):
            for k, fn in fns.items():
                t = time.perf_counter()
                fn()
                best[k] = min(best[k], time.perf_counter() - t)
        for k, v in best.items():
            rows.append((name, k, v))
    return rows


def bias(sizes: tuple[int, ...], seed: int = 3) -> list[tuple[int, int, float, float, float]]:
    rng = np.random.default_rng(seed)
    rows = []
    for n in sizes:
        draws = max(10, min(1000, 2_000_000 // n))
        plain, l1, l2 = [], [], []
        for _ in range(draws):
            p = rng.random(n)
            ev = ScoredPrecisionRecallEvaluation()
            ev.add_cases(rng.random(n) < p, p)
            plain.append(ev.expected_calibration_error())
            l1.append(ev.expected_calibration_error(debias=True))
            l2.append(ev.expected_calibration_error(norm="l2", debias=True))
        rows.append((n, draws, float(np.mean(plain)), float(np.mean(l1)), float(np.mean(l2))))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--md", help="write the tables as Markdown to this file")
    args = ap.parse_args()
    lines = [f"## Calibration measures of {args.n:,} scores (best of {args.reps}, seconds)", ""]
    rows = timings(args.n, args.reps)
    lines += ["| input | tool | seconds | / sklearn |", "|:--|:--|--:|--:|"]
    for name in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == name]
        ref = next(r[2] for r in mine if r[1].startswith("sklearn: calibration_curve"))
        lines += [f"| {name} | {tool} | {sec:.4f} | {sec / ref:.2f} |" for _, tool, sec in mine]
    lines += ["", "## Bias on calibrated data (true calibration error 0; 15 uniform bins)", "",
              "| n | draws | plain ECE (l1) | debiased ECE (l1) | debiased l2 |", "|--:|--:|--:|--:|--:|"]  # fmt: skip
    for n, draws, plain, l1, l2 in bias((100, 300, 1000, 3000, 10_000, 30_000, 100_000)):
        lines.append(f"| {n:,} | {draws} | {plain:.4f} | {l1:.4f} | {l2:.4f} |")
    text = "\n".join(lines)
    print(text)
    if args.md:
        Path(args.md).write_text(text + "\n")


if __name__ == "__main__":
    main()
