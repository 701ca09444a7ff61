"""The exact binomial kernel without scipy (scored_pr._core.binomial), held to scipy's functions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from scored_pr._core import binomial as B

scipy_stats = pytest.importorskip("scipy.stats")
scipy_special = pytest.importorskip("scipy.special")


@settings(max_examples=80, deadline=None)
@given(st.floats(0.5, 5000), st.floats(0.5, 5000), st.floats(0.0, 1.0))
def test_betainc_equals_scipy(a: float, b: float, x: float) -> None:
    assert float(B.betainc(a, b, x)) == pytest.approx(float(scipy_special.betainc(a, b, x)), abs=1e-10)


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-6, 1 - 1e-6), st.integers(1, 3000), st.integers(1, 3000))
def test_beta_ppf_equals_scipy(q: float, a: int, b: int) -> None:
    assert B.beta_ppf(q, a, b) == pytest.approx(float(scipy_stats.beta.ppf(q, a, b)), rel=1e-8, abs=1e-12)


def test_beta_ppf_large_counts_and_ends() -> None:
    assert B.beta_ppf(0.05, 900_000, 100_001) == pytest.approx(scipy_stats.beta.ppf(0.05, 900_000, 100_001), rel=1e-9)
    assert B.beta_ppf(0.0, 2, 3) == 0.0 and B.beta_ppf(1.0, 2, 3) == 1.0


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 400), st.integers(0, 400), st.floats(0.01, 0.99), st.floats(0.5, 0.999))
def test_clopper_pearson_and_tails_equal_scipy(k: int, extra: int, p: float, confidence: float) -> None:
    n = k + extra
    assert float(B.tail_at_least(k, n, p)[()]) == pytest.approx(scipy_stats.binom.sf(k - 1, n, p), abs=1e-10)
    assert float(B.tail_at_most(k, n, p)[()]) == pytest.approx(scipy_stats.binom.cdf(k, n, p), abs=1e-10)
    if n == 0:
        assert np.isnan(B.clopper_pearson_lower(k, n, confidence))
        return
    # the literal definitions: lower = Beta(k, n-k+1).ppf(1-c), upper = Beta(k+1, n-k).ppf(c)
    lower = 0.0 if k == 0 else scipy_stats.beta.ppf(1 - confidence, k, n - k + 1)
    upper = 1.0 if k == n else scipy_stats.beta.ppf(confidence, k + 1, n - k)
    assert B.clopper_pearson_lower(k, n, confidence) == pytest.approx(lower, rel=1e-8, abs=1e-12)
    assert B.clopper_pearson_upper(k, n, confidence) == pytest.approx(upper, rel=1e-8, abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 3000)), min_size=1, max_size=20),
       st.sampled_from(["precision", "recall", "fpr", "tnr", "accepted_fraction"]),
       st.sampled_from([0.0, 0.1, 0.5, 0.9, 0.97, 1.0]), st.sampled_from([0.01, 0.05, 0.2, 0.6]))
def test_screened_rejections_equal_the_exact_p_values(counts, key, target, delta) -> None:  # type: ignore[no-untyped-def]
    """The Chernoff and median screens decide exactly as the exact binomial p-value would."""
    from scored_pr._core import decisions as D

    tp = np.array([float(a) for a, _ in counts])
    fp = np.array([float(b) for _, b in counts])
    pos, neg = float(tp.max() + 50), float(fp.max() + 20)
    want = D.p_values(key, target, tp, fp, pos, neg) <= delta
    np.testing.assert_array_equal(D.rejects(key, target, tp, fp, pos, neg, delta), want)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 3_000_000), st.floats(0.0, 1.0), st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 0.999999, None]),
       st.floats(0.5, 0.999999))
def test_beta_ppf_is_the_bisection_at_every_midpoint_bit_for_bit(n: int, share: float, level, other: float) -> None:  # type: ignore[no-untyped-def]
    """The shortcut past the midpoints far from the quantile gives the plain bisection's bound, bit for bit."""
    confidence = other if level is None else level
    k = min(n, int(share * n))
    for q, a, b in ((1.0 - confidence, k, n - k + 1), (confidence, k + 1, n - k)):
        if a > 0 and b > 0:
            assert B.beta_ppf(q, a, b) == B._bisection_ppf(q, a, b)


@pytest.mark.parametrize("q, a, b", [(0.05, 90_000, 10_001), (0.95, 5_001, 40_000), (0.05, 30, 3), (1e-6, 7, 2_000_000),
                                     (0.5, 1, 1), (0.05, 1, 1_000_000), (0.999999, 2_000_000, 1)])
def test_the_sure_bracket_holds_on_both_sides(q: float, a: float, b: float) -> None:
    """Every midpoint the shortcut skips compares with q as the incomplete beta would (checked on a grid either side)."""
    lo, hi = B._sure_bracket(q, a, b)
    assert 0.0 <= lo < hi <= 1.0
    assert B.beta_ppf(q, a, b) == B._bisection_ppf(q, a, b)
    for frac in (1.0, 1.0 - 1e-12, 1.0 - 1e-9, 1.0 - 1e-6, 0.999, 0.9, 0.5):
        if lo > 0.0:
            assert B.betainc_scalar(a, b, lo * frac) < q
        if hi < 1.0:
            y = 1.0 - (1.0 - hi) * frac
            assert B.betainc_scalar(a, b, y) >= q
