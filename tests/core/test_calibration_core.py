"""The calibration kernel's isotonic regression: vectorised pooling rounds, then the one-pass stack."""

from __future__ import annotations

import numpy as np
import pytest

from scored_pr._core import calibration as K

IsotonicRegression = pytest.importorskip("sklearn.isotonic").IsotonicRegression


@pytest.mark.parametrize("n", [1, 2, 9, 200])
def test_pav_rounds_and_the_stack_agree_on_a_long_cascade(n: int) -> None:
    # means 1, 2, ..., n - 1 then 0: every vectorised round pools one more block, so the stack finishes it
    total = np.r_[np.arange(1.0, n), 0.0]
    weight = np.ones(n)
    want = IsotonicRegression().fit(np.arange(n), total).predict(np.arange(n))
    np.testing.assert_allclose(K.pav(total, weight), want, rtol=1e-12)


def test_pav_with_weights_equals_isotonic_regression() -> None:
    rng = np.random.default_rng(0)
    total, weight = rng.random(500) * 3, rng.uniform(0.5, 3.0, 500)
    want = IsotonicRegression().fit(np.arange(500), total / weight, sample_weight=weight).predict(np.arange(500))
    np.testing.assert_allclose(K.pav(total, weight), want, rtol=1e-10)
    assert K.pav(np.zeros(0), np.zeros(0)).size == 0


def test_groups_of_distinct_scores_are_the_cases_themselves() -> None:
    """The fast path (every score distinct, no weights) equals the sums per group written out."""
    rng = np.random.default_rng(2)
    for scores in (rng.random(50), np.r_[rng.random(49), 0.5, 0.5]):  # distinct, then one tie
        neg = np.sort(-scores)
        correct = rng.random(neg.size) < 0.5
        g = K.groups(neg, correct, None)
        asc, y = -neg[::-1], correct[::-1]
        distinct = np.unique(asc)
        np.testing.assert_array_equal(g.scores, distinct)
        np.testing.assert_array_equal(g.weight, [float(np.sum(asc == v)) for v in distinct])
        np.testing.assert_array_equal(g.positive, [float(np.sum(y[asc == v])) for v in distinct])
        np.testing.assert_array_equal(g.counts, [int(np.sum(asc == v)) for v in distinct])
        np.testing.assert_array_equal(g.square, g.weight)
        assert not g.weighted and g.case_weight is None
