"""The unweighted ROC area is the exact Mann-Whitney ratio, rounded once.

References: a literal count of every (positive, negative) pair with
``fractions.Fraction`` for the uninterpolated area, and the exact area under
the published interpolated curve (its rows' counts recovered from the
curve) for the interpolated one.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr._core import curves as C
def pairs_ratio(cases: list[tuple[bool, float]], misses: int, negative_misses: int, ties: str) -> Fraction:
    """P(positive ranks above negative) by counting pairs; ties one half (grouped) or by insertion order (stable)."""
    pos = [(i, s) for i, (c, s) in enumerate(cases) if c]
    neg = [(i, s) for i, (c, s) in enumerate(cases) if not c]
    p, n = len(pos) + misses, len(neg) + negative_misses
    twice = 0
    for i, a in pos:
        for j, b in neg:
            if a > b:
                twice += 2
            elif a == b:
                twice += 1 if ties == "grouped" else 2 * (i < j)
        twice += 2 * negative_misses  # a returned positive ranks above every unreturned negative
    if ties == "grouped":
        twice += misses * negative_misses  # the unreturned of both classes tie at the bottom
    return Fraction(twice, 2 * p * n)


def curve_area(curve: np.ndarray, p: int, n: int, vertical: bool) -> Fraction:
    """The exact area under a ROC curve's rows (recall, rejection recall), from the first row on.

    ``vertical``: each row is reached by a vertical step; otherwise by a
    straight segment from the previous row (the convex hull).
    """
    area, tp0, fp0 = Fraction(0), 0, 0
    for r, rr in curve.tolist():
        tp, fp = round(r * p), round((1 - rr) * n)
        start = fp if vertical else fp0
        area += Fraction(tp - tp0, p) * Fraction(2 * n - start - fp, 2 * n)
        tp0, fp0 = tp, fp
    return area


CASES = st.lists(
    st.tuples(st.booleans(), st.one_of(st.integers(-3, 3).map(float), st.floats(-2, 2), st.just(-0.0))),
    max_size=40,
)


@settings(max_examples=400, deadline=None)
@given(CASES, st.integers(0, 3), st.integers(0, 3), st.sampled_from(["grouped", "stable"]))
def test_the_area_is_the_pair_count_rounded_once(cases: list, misses: int, negative_misses: int, ties: str) -> None:
    ev = E(ties=ties)
    for c, s in cases:
        ev.add_case(c, s)
    ev.add_misses(misses)
    ev.add_negative_misses(negative_misses)
    got = ev.area_under_roc_curve()
    if not ev.num_positive_ref or not ev.num_negative_ref:
        assert math.isnan(got)
        return
    exact = pairs_ratio(cases, misses, negative_misses, ties)
    assert got == float(exact), (got, exact)
    interpolated = ev.area_under_roc_curve(True)
    curve = ev.roc_curve(True)  # stable: LingPipe's pruned steps; grouped: the convex hull
    area = curve_area(curve, ev.num_positive_ref, ev.num_negative_ref, vertical=ties == "stable")
    assert interpolated == float(area), (interpolated, area)
    assert interpolated >= got


def test_against_scikit_learn_and_the_float_sum() -> None:
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(11)
    for trial in range(20):
        y = rng.random(5000) < 0.3
        s = np.round(rng.normal(size=5000) + y, 2)  # many ties
        for ties in ("grouped", "stable"):
            ev = E(ties=ties)
            ev.add_cases(y, s)
            got = ev.area_under_roc_curve()
            summed = C.roc_rows_area(ev._roc_rows(False))  # the term-by-term float sum
            assert abs(got - summed) <= 1e-13  # the float sum drifts by a few ulps per thousand terms
            if ties == "grouped":
                assert abs(got - sklearn_metrics.roc_auc_score(y, s)) <= 1e-13


def test_weighted_areas_keep_the_float_sum() -> None:
    ev = E(ties="grouped")
    ev.add_cases([True, False, True, False], [0.9, 0.8, 0.8, 0.1], sample_weight=[1.0, 2.0, 0.5, 1.5])
    assert ev.area_under_roc_curve() == C.roc_rows_area(ev._roc_rows(False))
    # (1 * 3.5 + 0.5 * (1.5 + 2 / 2)) / (1.5 * 3.5), by hand
    assert ev.area_under_roc_curve() == pytest.approx((3.5 + 0.5 * 2.5) / (1.5 * 3.5), rel=1e-15)


def test_huge_counts_switch_to_python_integers() -> None:
    a = np.array([3, 1, 2], dtype=np.int64)
    b = np.array([2**40, 5, 2**41], dtype=np.int64)
    small = C._exact_dot(a, b, 2**61)
    big = C._exact_dot(a, b, 2**63)
    assert small == big == 3 * 2**40 + 5 + 2 * 2**41
    # the ratio of integers beyond 2**63 still rounds once
    rows = C.RocRows(*(np.array([1.0]),) * 2, np.array([1.0]), np.array([float(2**33)]), np.array([0.0]), np.array([0.0]))
    assert C.roc_rows_area_exact(rows, 2**33, 2**31) == 1.0


@pytest.mark.parametrize("ties", ["grouped", "stable"])
@pytest.mark.parametrize("kind", ["distinct", "scattered", "scattered, shared groups", "heavy"])
def test_the_area_from_the_points_is_the_area_from_the_rows_bit_for_bit(kind: str, ties: str) -> None:
    """The integer sum over the points (the evaluator's path) against the one over the float rows, every tie layout."""
    from scored_pr._core import points as P
    from scored_pr._core.ranking import rank_order

    rng = np.random.default_rng(5)
    layouts = set()
    for trial in range(12):
        n = int(rng.integers(1, 30_000))
        correct = rng.random(n) < rng.choice([0.02, 0.3, 0.9])
        scores = rng.normal(size=n) + correct
        if kind == "scattered":  # a few small tie groups, as float32 outputs have
            tied = rng.random(n) < 0.01
            scores[tied] = scores[rng.integers(0, n, int(tied.sum()))]
        elif kind == "scattered, shared groups":  # several correct cases in a tie group
            scores = np.round(scores, 3)
        elif kind == "heavy":
            scores = np.round(scores, 1)
        neg, cor = rank_order(-scores, correct)
        points = P.operating_points(neg, cor, ties)
        layouts.add((points._tied is not None, points.unit_tp))
        p0, n0 = int(cor.sum()), int((~cor).sum())
        for misses, negative_misses in [(0, 0), (int(rng.integers(1, 50)), 0), (0, 7), (3, 11)]:
            p, nn = p0 + misses, n0 + negative_misses
            rows = C.roc_rows(points, p, nn)
            want = C.roc_rows_area_exact(rows, p, nn)
            got = C.roc_points_area_exact(points, p, nn)
            # the curve without its segments: the rows' ends, bit for bit
            assert C.roc_curve_rows(points, p, nn).tobytes() == np.column_stack((rows.recall, rows.rr_end)).tobytes()
            assert got == want or (math.isnan(got) and math.isnan(want)), (kind, ties, trial, misses, negative_misses)
        every = P.every_rank(neg, cor)  # a point after every case: counts kept in full, steps of 0 or 1
        assert C.roc_points_area_exact(every, p0 + 1, n0 + 3) == C.roc_rows_area_exact(C.roc_rows(every, p0 + 1, n0 + 3), p0 + 1, n0 + 3)
    if kind == "scattered" and ties == "grouped":
        assert (True, True) in layouts  # the few tied points are patched
    if kind == "scattered, shared groups" and ties == "grouped":
        assert (True, False) in layouts  # ... and some groups hold several correct cases


def test_the_area_from_the_points_with_huge_counts_takes_python_integers() -> None:
    from scored_pr._core import points as P

    neg = np.array([-3.0, -2.0, -2.0, -1.0])
    cor = np.array([True, False, True, False])
    points = P.operating_points(neg, cor, "grouped")
    for p, n in [(2**33, 2**31), (2, 2)]:
        assert C.roc_points_area_exact(points, p, n) == C.roc_rows_area_exact(C.roc_rows(points, p, n), p, n)


@pytest.mark.parametrize("ties", ["grouped", "stable"])
def test_the_weighted_curve_without_segments_is_the_rows_ends(ties: str) -> None:
    from scored_pr._core import points as P

    rng = np.random.default_rng(8)
    neg = np.sort(-np.round(rng.normal(size=3000), 2))
    cor = rng.random(3000) < 0.4
    w = rng.random(3000) * 3
    points = P.operating_points(neg, cor, ties, w)
    for p, n in [(float(w[cor].sum()), float(w[~cor].sum())), (float(w[cor].sum()) + 4.0, float(w[~cor].sum()) + 2.0)]:
        rows = C.roc_rows(points, p, n)
        assert C.roc_curve_rows(points, p, n).tobytes() == np.column_stack((rows.recall, rows.rr_end)).tobytes()
