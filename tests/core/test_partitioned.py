"""The partitioned kernel (scored_pr._core.partitioned) against the exact evaluator fed every case.

The ranking is cut into score buckets and partitions as an engine cuts it;
every measure must equal ``ScoredPrecisionRecallEvaluation(ties="grouped")``:
bit for bit where the kernel computes the same float operation on the same
integers (unweighted ROC areas, max F, precision at k, R-precision,
reciprocal rank), within 1e-12 relative where it sums in another order.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr._core.partitioned import bucket_of, choose_bounds, evaluate_blocks

KS = (1, 2, 3, 5, 10, 25, 100)


def close(a: float, b: float, exact: bool) -> bool:
    if math.isnan(b):
        return math.isnan(a)
    return a == b if exact else abs(a - b) <= 1e-12 * max(1.0, abs(b))


def case(seed: int) -> tuple[list, np.ndarray, np.ndarray, np.ndarray | None, int, int]:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 300))
    labels = rng.random(n) < rng.random()
    scores = rng.normal(size=n) + labels * rng.random() * 2
    rounding = int(rng.integers(0, 3))
    if rounding:
        scores = np.round(scores, rounding - 1)  # many ties, mixed groups
    if rng.random() < 0.1:
        scores[:] = 0.5  # one tie group
    if rng.random() < 0.1:
        scores[: n // 2] = -0.0  # -0.0 and 0.0 are one score
        scores[n // 2 : n // 2 + 3] = 0.0
    weights = rng.choice([0.0, 0.5, 1.0, 2.0, 3.0], size=n) if rng.random() < 0.3 else None
    misses = int(rng.integers(0, 3)) if rng.random() < 0.5 else 0
    cuts = np.sort(rng.integers(0, n + 1, size=int(rng.integers(0, 4))))  # empty partitions too
    blocks = [(scores[i], labels[i], None if weights is None else weights[i]) for i in np.split(np.arange(n), cuts)]
    return blocks, labels, scores, weights, misses, int(rng.integers(1, 10))


@pytest.mark.parametrize("seed", range(200))
def test_every_measure_equals_the_exact_evaluator(seed: int) -> None:
    blocks, labels, scores, weights, misses, buckets = case(seed)
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases(labels, scores, weights)
    if misses:
        ev.add_misses(misses)
    r_rank = min(ev.num_positive_ref, ev.num_cases)
    got = evaluate_blocks(blocks, misses, buckets=buckets, ranks=(*KS, r_rank), curve_points=10**9)
    unweighted = not ev.weighted
    assert (got["num_cases"], got["num_positive_ref"], got["num_negative_ref"]) == (
        ev.num_cases, ev.num_positive_ref, ev.num_negative_ref)
    checks = [
        ("average_precision", ev.average_precision(), False),
        ("maximum_f_measure", ev.maximum_f_measure(), True),
        ("area_under_roc_curve", ev.area_under_roc_curve(), unweighted),
        ("area_under_roc_curve_interpolated", ev.area_under_roc_curve(True), unweighted),
        ("area_under_pr_curve", ev.area_under_pr_curve(), False),
        ("area_under_pr_curve_interpolated", ev.area_under_pr_curve(True), False),
    ]
    for name, want, exact in checks:
        assert close(got[name], want, exact), (name, got[name], want)
    if unweighted:
        assert got["reciprocal_rank"] == ev.reciprocal_rank()
        for k in KS:
            if k <= ev.num_cases:
                num, den = got["tp_at"][k]
                assert num / (den * k) == ev.precision_at(k)
                if ev.num_positive_ref:
                    assert close(got["ap_at"][k] / min(k, ev.num_positive_ref), ev.average_precision_at(k), False)
        if r_rank:
            num, den = got["tp_at"][r_rank]
            assert num / (den * ev.num_positive_ref) == ev.r_precision()
    # with room for every point, the curves are the exact ones
    np.testing.assert_allclose(got["pr"], ev.pr_score_curve(), rtol=1e-12)
    np.testing.assert_allclose(got["pr_interpolated"], ev.pr_score_curve(True), rtol=1e-12)
    np.testing.assert_allclose(got["roc"], ev.roc_curve(), rtol=1e-12)
    np.testing.assert_allclose(got["roc_interpolated"], ev.roc_curve(True), rtol=1e-12)


def test_down_sampled_curves_hold_only_points_of_the_exact_curve() -> None:
    rng = np.random.default_rng(7)
    labels = rng.random(20_000) < 0.3
    scores = np.round(rng.normal(size=20_000) + labels, 3)
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(labels, scores)
    got = evaluate_blocks([(scores[:5000], labels[:5000], None), (scores[5000:], labels[5000:], None)],
                          buckets=16, curve_points=50)
    exact = {tuple(row) for row in ev.pr_score_curve().tolist()}
    assert 2 <= got["pr"].shape[0] <= 51
    assert all(tuple(row) in exact for row in got["pr"].tolist())
    assert tuple(got["pr"][-1]) == tuple(ev.pr_score_curve()[-1])  # the curve's end is kept


def test_bounds_keep_tied_scores_in_one_bucket() -> None:
    scores = np.array([3.0, 2.0, 2.0, 2.0, 1.0, 0.0, -0.0, -0.0, -1.0])
    bounds = choose_bounds(scores, 4)
    assert np.all(np.diff(bounds) < 0)
    b = bucket_of(scores, bounds)
    assert np.all(np.diff(b) >= 0)  # descending scores, non-decreasing buckets
    assert len(set(b[1:4])) == 1 and len(set(b[5:8])) == 1  # the 2.0s together, the zeros together
    assert choose_bounds(np.zeros(0), 4).size == 0 and np.all(bucket_of(scores, np.zeros(0)) == 0)
