#!/usr/bin/env python3
"""How far from one ``np.sort`` any numpy-only full report of 1,000,000 distinct scores would be.

Issue 47 asks the report of distinct float64 scores (``add_cases`` +
``summary()`` of ``ScoredPrecisionRecallEvaluation``) for <= 3x one
``np.sort`` of the scores. This script times, in one process and taking
turns, one ``np.sort`` of the scores, scored_pr's report, and the fewest
numpy operations that produce the report's numbers without scored_pr's
bookkeeping (no validation, no copy, no cache, no tie handling, no
bit-for-bit rounding rules):

1. the ranking: one value sort of int64 keys carrying each score's order
   and its label (the score's bits made monotone, the lowest bit replaced
   by the label: a floor, it drops one bit), built and the labels read
   back in cache-sized blocks (as scored_pr does: whole-array temporaries
   cost more);
2. the kernel: the ranks of the correct cases (``np.flatnonzero``), which
   for distinct scores are the operating points (the cumulative counts are
   ``1, 2, ...`` and the ranks);
3. the PR columns: recall and precision, two divisions;
4. average precision and the PR step area: a sum and a product-sum;
5. the interpolated PR area: a suffix maximum of the precision and a
   product-sum over the points that keep it;
6. the exact ROC area: one integer sum of the false positives above each
   correct case;
7. the maximum F1: four elementwise passes and a maximum;
8. the ROC convex hull: scored_pr's sampled hull of the integer counts
   (``_core.curves._sampled_upper_hull``: numpy only, the fastest hull here);
9. precision at 5 ranks, R-precision and the reciprocal rank: binary searches.

The floor is the sum of these steps' medians, each timed alone on the
previous steps' results (as ``bench_perf4.py`` section 6 times scored_pr's
steps). CPU time of this process (``time.process_time``), medians of
``--reps``: compare ratios, not times.

Usage::

    python benchmarks/bench_report_floor.py --reps 7 --md /tmp/floor.md
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, Callable

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_ties_add_case import finish, header, interleaved, scored_pr  # noqa: E402
from scored_pr._core.curves import _sampled_upper_hull  # noqa: E402

N = 1_000_000


def scores(n: int = N, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """bench_perf4's distinct input: logits of 30 % positive cases, N(0, 1) + label."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, rng.normal(size=n) + y


#: Cases per block of the floor's key build and label read-back (temporaries in the cache, as scored_pr's).
BLOCK = 1 << 15


def ranking(s: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One sort of int64 keys: the negated scores' bits made monotone, the lowest bit the label (0: correct).

    Built and read back in cache-sized blocks (whole-array temporaries cost
    twice as much here): per block, the negation, three integer passes
    that make the bits monotone, the label bit (two passes); after the
    sort, one pass of the keys' first bytes for the labels. No band check,
    no zero signs, no tie scan, no scores read back: what scored_pr's
    ranking does beyond this is its bookkeeping.
    """
    n = s.size
    key = np.empty(n, dtype=np.int64)
    m = np.empty(BLOCK, dtype=np.int64)
    flag = np.empty(BLOCK, dtype=bool)
    for lo in range(0, n, BLOCK):
        kb = key[lo : lo + BLOCK]
        w = kb.size
        np.negative(s[lo : lo + BLOCK], out=kb.view(np.float64))
        mb = m[:w]
        np.right_shift(kb, 63, out=mb)  # -1 for a negative value, else 0
        mb &= 0x7FFFFFFFFFFFFFFF
        kb ^= mb  # a negative value's magnitude bits flipped: monotone as int64
        kb &= -2
        np.logical_not(y[lo : lo + BLOCK], out=flag[:w])
        kb |= flag[:w]
    key.sort()
    cor = np.empty(n, dtype=bool)
    for lo in range(0, n, BLOCK):  # the label bit, in each key's first byte (little-endian)
        np.equal(key[lo : lo + BLOCK].view(np.uint8)[::8] & 1, 0, out=cor[lo : lo + BLOCK])
    return key, cor


def report_floor(y: np.ndarray, s: np.ndarray) -> dict[str, Callable[[], Any]]:
    """The floor's steps, each a function of the previous steps' results (built once here)."""
    key, cor = ranking(s, y)
    idx = np.flatnonzero(cor)
    p = idx.size
    n = cor.size
    q = n - p
    tp = np.arange(1.0, p + 1.0)
    recall, prec = tp / p, tp / (idx + 1.0)

    def kernel() -> np.ndarray:
        return np.flatnonzero(cor)

    def columns() -> tuple[np.ndarray, np.ndarray]:
        t = np.arange(1.0, p + 1.0)
        return t / p, t / (idx + 1.0)

    def ap_and_area() -> tuple[float, float]:
        step = np.diff(recall, prepend=0.0)
        step *= prec
        return float(prec.sum()) / p, float(step.sum())  # not a BLAS dot: its threads' CPU time would count

    def interpolated_area() -> float:
        best = np.fmax.accumulate(prec[::-1])[::-1]  # the suffix maximum (fmax: numpy's faster running maximum)
        keep = prec >= best
        step = np.diff(np.compress(keep, recall), prepend=0.0)
        step *= np.compress(keep, prec)
        return float(step.sum())

    def roc_area() -> float:
        fp_sum = int(idx.sum()) - p * (p - 1) // 2  # the false positives above each correct case
        return (p * q - fp_sum) / (p * q)

    def max_f1() -> float:
        f = 2.0 * recall
        f *= prec
        f /= recall + prec
        return float(f.max())

    def hull() -> np.ndarray:
        x = np.empty(p + 1)
        x[0] = 0.0
        np.subtract(idx, np.arange(p), out=x[1:])
        return _sampled_upper_hull(x, np.arange(p + 1.0))

    def rank_measures() -> list[float]:
        found = [int(np.searchsorted(idx, k)) / k for k in (5, 10, 25, 100, 500)]
        return [*found, int(np.searchsorted(idx, p)) / p, 1.0 / (int(idx[0]) + 1)]

    return {
        "ranking: one sort of int64 keys with the label, labels read back": lambda: ranking(s, y),
        "kernel: ranks of the correct cases (flatnonzero)": kernel,
        "PR columns: recall and precision (two divisions)": columns,
        "average precision and the PR step area": ap_and_area,
        "interpolated PR area (suffix maximum)": interpolated_area,
        "exact ROC area (one integer sum)": roc_area,
        "maximum F1": max_f1,
        "ROC convex hull (sampled hull of the counts)": hull,
        "precision at 5 ranks, R-precision, reciprocal rank": rank_measures,
    }


def report(y: np.ndarray, s: np.ndarray) -> Any:
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    return ev.summary()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--md", help="also write the markdown to this file")
    args = ap.parse_args(argv)
    lines: list[str] = []

    def out(line: str = "") -> None:
        print(line, flush=True)
        lines.append(line)

    header(out, "The report's numpy floor: 1,000,000 distinct float64 scores (logits), against one np.sort", None,
           f"CPU time of this process, medians of {args.reps}, taking turns")
    y, s = scores()
    steps = report_floor(y, s)
    fns = {**steps, "np.sort": lambda: np.sort(s), "scored_pr report": lambda: report(y, s)}
    t = interleaved(fns, args.reps, clock=time.process_time)
    base = t.pop("np.sort")
    ours = t.pop("scored_pr report")
    floor = sum(t.values())
    out(f"One np.sort of the scores: {base * 1e3:.1f} ms; scored_pr's report (add_cases + summary()): "
        f"{ours * 1e3:.1f} ms = {ours / base:.2f}x.\n")
    out("| step of the numpy-only floor | ms | x np.sort |")
    out("|---|---|---|")
    for label, v in t.items():
        out(f"| {label} | {v * 1e3:.2f} | {v / base:.2f}x |")
    out(f"| **the floor: every step above** | {floor * 1e3:.2f} | {floor / base:.2f}x |")
    out()
    rank_cost = t["ranking: one sort of int64 keys with the label, labels read back"]
    out(f"Without the ranking the floor's other steps cost {(floor - rank_cost) / base:.2f}x; "
        f"for 2x the ranking would have to cost at most {2.0 - (floor - rank_cost) / base:.2f}x one np.sort of the scores "
        f"(it costs {rank_cost / base:.2f}x here).")
    out()
    return finish(out, lines, args.md)


if __name__ == "__main__":
    sys.exit(main())
