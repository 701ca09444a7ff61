"""10,000,000 cases with heavy ties and 2**40 misses: finite and equal to a closed form."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation

N = 10_000_000
MISSES = 2**40


@pytest.fixture(scope="module")
def groups():
    rng = np.random.default_rng(42)
    sizes = np.full(10, N // 10)
    positives = (sizes * np.linspace(0.9, 0.05, 10)).astype(np.int64)  # good ranking: positives on top
    scores = np.repeat(np.arange(10, 0, -1, dtype=np.float64) / 10, sizes)
    correct = np.concatenate([np.arange(s) < p for s, p in zip(sizes, positives)])
    order = rng.permutation(N)
    return sizes, positives, correct[order], scores[order]


def expected_reciprocal_rank(m: int, p: int, terms: int = 40) -> Fraction:
    """E[1 / rank of the first correct case] in a random ordering of one group (first 40 terms:
    the remainder is below (1 - p/m)**40 = 1e-40 here)."""
    total, stay = Fraction(0), Fraction(1)
    for j in range(terms):
        total += stay * Fraction(p, m - j) / (j + 1)
        stay *= Fraction(m - p - j, m - j)
    return total


def test_ten_million_heavily_tied_cases_with_2_40_misses(groups) -> None:
    sizes, positives, correct, scores = groups
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases(correct, scores)
    ev.add_misses(MISSES)
    ev.add_negative_misses(MISSES)
    P = int(positives.sum()) + MISSES
    Nn = int((sizes - positives).sum()) + MISSES
    assert ev.num_cases == N and ev.num_positive_ref == P and ev.num_negative_ref == Nn

    # Closed forms over the ten tie groups (exact rationals).
    tp = np.cumsum(positives).tolist()
    k = np.cumsum(sizes).tolist()
    ap = sum(Fraction(int(p) * t, kk) for p, t, kk in zip(positives, tp, k)) / P
    negs = (sizes - positives).tolist()
    neg_above = np.concatenate(([0], np.cumsum(negs)[:-1])).tolist()
    auc = sum(int(p) * (Fraction(Nn - a - g) + Fraction(g, 2)) for p, a, g in zip(positives, neg_above, negs))
    auc = (auc + Fraction(MISSES * MISSES, 2)) / (P * Nn)  # misses tie with the unreturned negatives
    expected = {
        "average_precision": float(ap),
        "area_under_pr_curve": float(ap),
        "area_under_roc_curve": float(auc),
        "precision_at_100": float(positives[0]) / sizes[0],
        "r_precision": float(Fraction(tp[-1], P)),  # R > n: every returned case counts, the rest are errors
        "reciprocal_rank": float(expected_reciprocal_rank(int(sizes[0]), int(positives[0]))),
    }
    summary = ev.summary()
    for name, value in expected.items():
        assert math.isfinite(summary[name])
        assert summary[name] == pytest.approx(value, rel=1e-9), name
    best_f1 = max(2 * t / (P + kk) for t, kk in zip(tp, k))  # F1 = 2TP / (P + k)
    assert ev.maximum_f_measure() == pytest.approx(best_f1, rel=1e-9)
    assert all(math.isfinite(v) for v in ev.pr_curve().ravel())
    assert ev.recall_at(N) == pytest.approx(tp[-1] / P, rel=1e-9)
