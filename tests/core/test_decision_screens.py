"""The shortcuts of certified operating points decide as the literal procedure would.

The point-mass screen (P(X = k) and its geometric tail bound) is held against scipy's exact
binomial tail right at the critical counts, where a loose bound would flip a decision; the
partial ordering (the feasible candidates, found from the gaps alone, sorted first; the rest only
if needed) against the full stable sort.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from scored_pr._core import decisions as D

scipy_stats = pytest.importorskip("scipy.stats")


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 200_000), st.sampled_from([0.05, 0.3, 0.5, 0.8, 0.9, 0.99]),
       st.sampled_from([0.001, 0.01, 0.05, 0.2]))
def test_screens_decide_as_the_exact_tail_at_the_critical_counts(n: int, target: float, delta: float) -> None:
    crit = int(scipy_stats.binom.isf(delta, n, target))  # the least k with P(X > k) <= delta, near the boundary
    k = np.clip(np.arange(crit - 3, crit + 4), 0, n).astype(np.float64)
    tp, fp = k, n - k  # precision: k successes in n trials
    state = D.screen("precision", target, tp, fp, float(n) + 5, float(n) + 5, delta)
    exact = scipy_stats.binom.sf(k - 1, n, target) <= delta  # P(X >= k) <= delta: rejected
    decided = state != -1
    np.testing.assert_array_equal(state[decided] == 1, exact[decided])
    np.testing.assert_array_equal(D.rejects("precision", target, tp, fp, float(n) + 5, float(n) + 5, delta), exact)


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=60),
       st.dictionaries(st.sampled_from(["precision", "recall", "fpr", "tnr", "accepted_fraction"]),
                       st.sampled_from([0.0, 0.25, 0.5, 0.9, 1.0]), min_size=1, max_size=3))  # fmt: skip
def test_partial_order_is_the_full_stable_order(counts: list[tuple[int, int]], subject_to: dict[str, float]) -> None:
    """The candidates with z > 0, found from the gaps alone and sorted by their z-scores, lead the full stable order."""
    tp = np.cumsum([0.0] + [a for a, _ in counts])
    fp = np.cumsum([0.0] + [b for _, b in counts])
    pos, neg = float(tp[-1]) + 2.0, float(fp[-1]) + 1.0
    z = D._order_statistic(subject_to, tp, fp, pos, neg)
    top = D._surely_feasible(subject_to, tp, fp, pos, neg)
    np.testing.assert_array_equal(top, np.flatnonzero(z > 0.0))
    head = top[np.argsort(-D._order_statistic(subject_to, tp[top], fp[top], pos, neg), kind="stable")]
    full = np.argsort(-z, kind="stable")
    np.testing.assert_array_equal(head, full[: head.size])
