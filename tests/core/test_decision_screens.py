"""The shortcuts of certified operating points decide as the literal procedure would.

The point-mass screen (P(X = k) and its geometric tail bound) is held against scipy's exact
binomial tail right at the critical counts, where a loose bound would flip a decision; the
partial ordering (the feasible candidates sorted first, the rest only if needed) against the
full stable sort.
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


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from([-np.inf, -2.0, -0.5, 0.0, 0.0, 0.3, 1.0, 1.0, 4.0, np.inf]), min_size=0, max_size=60))
def test_partial_order_is_the_full_stable_order(values: list[float]) -> None:
    z = np.asarray(values, dtype=np.float64)
    head, whole = D._sure_first(z, 0.0)
    assert whole == bool(np.all(z > 0.0))
    full = np.argsort(-z, kind="stable")
    np.testing.assert_array_equal(head, full[: head.size])
    np.testing.assert_array_equal(np.concatenate((head, D._sure_rest(z, 0.0))), full)
