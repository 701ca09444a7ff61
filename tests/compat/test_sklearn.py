"""Grouped ties against scikit-learn on tie-heavy random data, any insertion order."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score

from scored_pr import ScoredPrecisionRecallEvaluation

SKLEARN_VERSION = tuple(int(part) for part in sklearn.__version__.split(".")[:2])


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


# ------------------------------------------------------------------ levels read from curves
# Recall and precision levels are compared with the ratio as the curves report it (its float64
# value), weighted or not, as precision_recall_curve computes its rows. They used to be compared
# exactly (integer arithmetic on the level's binary value) without weights and in float64 with
# them, so 0.2 with 5 positives skipped the row whose recall the curve reports as 0.2.


def _sklearn_rows(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(precision, recall, threshold) per distinct score, thresholds descending."""
    p, r, t = precision_recall_curve(y, s, sample_weight=w, drop_intermediate=False)
    return p[:-1][::-1], r[:-1][::-1], t[::-1]


def _level_data(seed: int, weights: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 400))
    y = rng.random(n) < rng.uniform(0.1, 0.9)
    y[0] = True
    s = np.round(rng.normal(size=n) + y, int(rng.integers(0, 3)))  # ties
    if weights == "none":
        return y, s, None
    if weights == "integer":
        return y, s, rng.integers(1, 4, n).astype(float)
    return y, s, rng.gamma(1.0, 2.0, n)


@pytest.mark.parametrize("weights", ["none", "integer", "float"])
@pytest.mark.parametrize("seed", range(8))
def test_level_queries_match_precision_recall_curve(seed: int, weights: str) -> None:
    if weights == "float" and SKLEARN_VERSION < (1, 9):
        pytest.skip("scikit-learn before 1.9 (the dependency-floor run has 1.5.2) rounds the precision of "
                    "float-weighted rows differently in the last bit; the bit-for-bit comparison is made "
                    "with 1.9 (integer weights and no weights are compared on every version)")
    y, s, w = _level_data(seed, weights)
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases(y, s, sample_weight=w)
    prec, rec, thr = _sklearn_rows(y, s, w)
    levels = sorted({*rec.tolist(), 0.0, 0.1, 0.2, 1 / 3, 0.7, 1.0})
    for level in levels:
        got = ev.threshold_at_recall(level)
        i = int(np.flatnonzero(rec >= level)[0])  # the highest threshold reaching the level
        assert (got.threshold, got.precision, got.recall) == (thr[i], prec[i], rec[i]), level
        assert got.k == int(np.count_nonzero(s >= thr[i]))
        if w is None and level > 0:
            assert ev.k_at_recall(level) == got.k
            assert ev.precision_at_recall(level) == prec[i]
    for level in sorted({*prec.tolist(), 0.0, 0.2, 0.5, 0.7, 1.0}):
        got = ev.threshold_at_precision(level)
        ok = np.flatnonzero(prec >= level)
        if not ok.size:
            assert got.k == 0 and np.isnan(got.threshold)
            continue
        i = int(ok[-1])  # the lowest threshold reaching the level
        assert (got.threshold, got.precision, got.recall) == (thr[i], prec[i], rec[i]), level


def test_the_issue_example_matches_precision_recall_curve() -> None:
    for weight in (None, [2] * 5, [3, 1, 2, 5, 1]):
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases([True] * 5, [5, 4, 3, 2, 1], sample_weight=weight)
        prec, rec, thr = _sklearn_rows(np.ones(5, bool), np.array([5.0, 4, 3, 2, 1]), None if weight is None else np.array(weight, float))
        i = int(np.flatnonzero(rec >= 0.2)[0])
        assert ev.threshold_at_recall(0.2)[:3] == (thr[i], 1.0, rec[i])
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True] * 5, [5, 4, 3, 2, 1])
    assert ev.threshold_at_recall(0.2) == (5.0, 1.0, 0.2, 1)  # scikit-learn: threshold 5, recall 0.2 (was 4.0, 0.4)
    assert ev.k_at_recall(0.2) == 1 and ev.precision_at_recall(0.2) == 1.0


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=1, max_size=60),
    st.integers(0, 3),
    st.sampled_from(["grouped", "stable"]),
    st.sampled_from([None, "integer", "float"]),
)
def test_every_curve_value_passed_back_returns_its_own_row(cases: list, misses: int, ties: str, weights: str | None) -> None:
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    y = np.array([c for c, _ in cases], dtype=bool)
    s = np.array([float(v) for _, v in cases]) / 7.0  # inexact quotients
    w = None
    if weights is not None:
        rng = np.random.default_rng(len(cases))
        w = rng.integers(1, 4, len(cases)).astype(float) if weights == "integer" else rng.uniform(0.1, 3.0, len(cases))
    ev.add_cases(y, s, sample_weight=w)
    ev.add_misses(misses)
    rows = ev.pr_score_curve()
    for r, p, score in rows.tolist():
        got = ev.threshold_at_recall(r)
        assert got.threshold == score  # this row's threshold (stable ties: its tie group's)
        if ties == "grouped":
            assert (got.recall, got.precision) == (r, p)
            at_p = ev.threshold_at_precision(p)
            assert at_p.threshold <= score and at_p.precision >= p  # this row qualifies; a lower one may too
        else:  # a stable row inside a tie group is no threshold: its group's end is
            assert got.recall >= r
    if w is None:
        points = ev.pr_curve()
        hits = np.cumsum(y[np.argsort(-s, kind="stable")]) if ties == "stable" else None
        for j, (r, p) in enumerate(points.tolist()):
            k = ev.k_at_recall(r)
            assert ev.precision_at_recall(r) == p
            if hits is not None:  # stable: the row of the (j+1)-th correct case, in insertion order of ties
                assert k == int(np.searchsorted(hits, j + 1)) + 1
