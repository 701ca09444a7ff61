"""The calibration kernel: the isotonic regression (the hull of the cumulative sums on counts; vectorised
pooling rounds, then the one-pass stack, otherwise) and the logistic fit's Newton steps.

Each is held against a slow literal reference written here: PAV with exact fractions, block by
block, whose means rounded once are what the hull must give bit for bit.
"""

from __future__ import annotations

import math
from fractions import Fraction
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

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


# --------------------------------------------------------------- the hull of the cumulative sums


def _literal_pav(total: list[int], weight: list[int]) -> list[float]:
    """Pool adjacent violators with exact fractions: merge the last two blocks while they violate."""
    blocks: list[tuple[Fraction, int, int]] = []  # (sum of totals, sum of weights, groups)
    for t, w in zip(total, weight):
        blocks.append((Fraction(t), w, 1))
        while len(blocks) >= 2 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            (t1, w1, c1), (t2, w2, c2) = blocks[-2], blocks[-1]
            blocks[-2:] = [(t1 + t2, w1 + w2, c1 + c2)]
    return [float(t / w) for t, w, c in blocks for _ in range(c)]


@st.composite
def _counts(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """Groups of 1-5 cases (ties), their correct counts from 0 to all (outcome means 0.0 and 1.0), up to 1,500 groups."""
    n = draw(st.integers(1, 1500))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    weight = rng.integers(1, draw(st.integers(1, 5)) + 1, n)
    shape = draw(st.sampled_from(["rising", "flat", "falling", "extremes"]))
    p = {"rising": np.linspace(0, 1, n), "flat": np.full(n, 0.3), "falling": np.linspace(1, 0, n),
         "extremes": rng.integers(0, 2, n).astype(float)}[shape]  # fmt: skip
    return rng.binomial(weight, p).astype(np.float64), weight.astype(np.float64)


@settings(max_examples=80, deadline=None)
@given(_counts())
def test_the_hull_of_the_cumulative_sums_is_the_literal_pav_rounded_once(c: tuple[np.ndarray, np.ndarray]) -> None:
    total, weight = c
    want = _literal_pav([int(t) for t in total], [int(w) for w in weight])
    with mock.patch.object(K, "_HULL_MIN", 1):  # every size through the hull (above 512 groups: its sampled prefilter)
        got = K.pav(total, weight, whole=True)
    np.testing.assert_array_equal(got, want)  # the exact ratio of each block, rounded once
    np.testing.assert_allclose(K.pav(total, weight), want, rtol=1e-12)  # the stack: running means


def test_the_hull_fits_large_tied_cases_as_isotonic_regression() -> None:
    """Through the evaluator: 20,000 cases on a grid with 0.0 and 1.0 (ties), above ``_HULL_MIN`` groups."""
    from scored_pr import ScoredPrecisionRecallEvaluation

    rng = np.random.default_rng(5)
    p = np.r_[np.round(rng.random(19_998), 4), 0.0, 1.0]
    y = rng.random(p.size) < p**2
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, p)
    d = ev.reliability_diagram(n_resamples=0)
    assert d.scores.size > K._HULL_MIN
    want = IsotonicRegression().fit(p, y).predict(d.scores)
    np.testing.assert_allclose(d.recalibrated, want, rtol=1e-12, atol=1e-15)
    assert d.mcb - d.dsc + d.unc == pytest.approx(ev.brier_score(), abs=1e-12)
    g = K.unsorted_groups(p, y, None)
    np.testing.assert_array_equal(d.recalibrated, _literal_pav([int(t) for t in g.positive], [int(w) for w in g.weight]))


def test_the_hull_is_not_used_where_its_cross_products_could_round() -> None:
    """Counts summing to 2**26 or more: the rounds and the stack (the same values)."""
    total, weight = np.array([3.0, 0.0, 2.0**26]), np.array([4.0, 1.0, 2.0**26])
    with mock.patch.object(K, "_HULL_MIN", 1), mock.patch.object(K, "_sampled_upper_hull", side_effect=AssertionError):
        got = K.pav(total, weight, whole=True)
    np.testing.assert_array_equal(got, [0.6, 0.6, 1.0])


# --------------------------------------------------------------- the logistic fit


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 400), st.booleans())
def test_whole_newton_steps_land_where_every_step_is_checked(seed: int, n: int, ties: bool) -> None:
    """A step moving no a + b x by more than ``_FULL_STEP`` is taken unchecked: the same maximum as checking each."""
    rng = np.random.default_rng(seed)
    p = rng.random(n)
    p = np.round(p, 1) if ties else p
    p[: n // 10] = rng.choice([0.0, 1.0], n // 10)
    y = rng.random(n) < np.clip(1.3 * p - 0.1, 0, 1)
    g = K.unsorted_groups(p, y, None)
    with mock.patch.object(K, "_FULL_STEP", 0.0):
        checked = K.slope_intercept(g)
    got = K.slope_intercept(g)
    if math.isnan(checked[0]):
        assert math.isnan(got[0]) and math.isnan(got[1])
    else:
        assert got == pytest.approx(checked, rel=1e-9, abs=1e-9)


# --------------------------------------------------------------- the shared logs


@pytest.mark.parametrize("p", [1.0, 1.0 - 1e-12, 0.999, 0.5, 1e-9, 0.0])
def test_the_log_loss_from_the_shared_logs_keeps_confident_cases_precise(p: float) -> None:
    """Correct cases scored p and incorrect ones 1 - p: the loss -log(p) to a few ulps, even when it is near 1e-16."""
    from scored_pr import ScoredPrecisionRecallEvaluation

    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False] * 3, [p, 1.0 - p] * 3)
    q = min(max(p, K.EPS), 1.0 - K.EPS)
    want = -math.fsum([math.log(q), math.log(1.0 - max(min(1.0 - p, 1.0 - K.EPS), K.EPS))] * 3) / 6
    assert ev.log_loss() == pytest.approx(want, rel=1e-12, abs=0.0)
    g = K.unsorted_groups(np.array([p, 1.0 - p] * 3), np.array([True, False] * 3), None)
    assert K.log_loss(g) == K.log_loss(g, K.log_scores(g)) == ev.log_loss()
