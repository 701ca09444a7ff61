"""Grouped ties against scikit-learn on tie-heavy random data, any insertion order."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score

from scored_pr import ScoredPrecisionRecallEvaluation


def grouped(y: np.ndarray, s: np.ndarray) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases(y, s)
    return ev


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("levels", [2, 5, 30, None])
def test_grouped_matches_sklearn(seed: int, levels: int | None) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 3000))
    y = rng.random(n) < rng.uniform(0.05, 0.95)
    y[0], y[1] = True, False  # both classes present
    s = rng.normal(size=n) + y
    if levels is not None:
        s = np.round(s * levels / 4) / levels  # heavy ties
    ev = grouped(y, s)
    assert ev.average_precision() == pytest.approx(average_precision_score(y, s), rel=1e-12)
    assert ev.area_under_roc_curve(False) == pytest.approx(roc_auc_score(y, s), rel=1e-12)
    # The grouped PR curve is scikit-learn's, restricted to thresholds that add a positive.
    p, r, thr = precision_recall_curve(y, s)
    pts = {(round(a, 12), round(b, 12)) for a, b in zip(r[:-1], p[:-1])}
    for rec, prec in ev.pr_curve().tolist():
        assert (round(rec, 12), round(prec, 12)) in pts


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 4)), min_size=2, max_size=40).filter(
        lambda xs: 0 < sum(c for c, _ in xs) < len(xs)
    ),
    st.randoms(use_true_random=False),
)
def test_grouped_is_independent_of_insertion_order(cases: list, rnd) -> None:
    y = np.array([c for c, _ in cases])
    s = np.array([v for _, v in cases], dtype=float)
    ev = grouped(y, s)
    order = list(range(len(cases)))
    rnd.shuffle(order)
    shuffled = grouped(y[order], s[order])
    assert shuffled.summary() == pytest.approx(ev.summary(), rel=1e-12, nan_ok=True)
    assert ev.average_precision() == pytest.approx(average_precision_score(y, s), rel=1e-12)
    assert ev.area_under_roc_curve(False) == pytest.approx(roc_auc_score(y, s), rel=1e-12)


@pytest.mark.parametrize("ties", ["grouped", "stable"])
@pytest.mark.parametrize("seed", range(8))
def test_roc_points_equal_scikit_learns_roc_curve(ties: str, seed: int) -> None:
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    y = rng.random(n) < 0.4
    y[:2] = [True, False]  # both classes
    s = rng.integers(0, 12, n).astype(float) if seed % 2 else rng.normal(size=n)
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    ev.add_cases(y, s)
    fpr, tpr, thresholds = ev.roc_points()
    want = roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(fpr, want[0], rtol=0, atol=1e-15)
    np.testing.assert_allclose(tpr, want[1], rtol=0, atol=1e-15)
    assert thresholds[0] == np.inf and np.array_equal(thresholds[1:], want[2][1:])
    # the same points as LingPipe's layout where an operating point exists
    lp = ev.roc_curve()
    if ties == "grouped" and lp.size:
        pts = {(round(t, 12), round(1 - f, 12)) for f, t in zip(fpr, tpr)}
        assert all((round(r, 12), round(rr, 12)) in pts for r, rr in lp.tolist())
