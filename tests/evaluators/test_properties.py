"""Hypothesis properties of the evaluator and its incremental store."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import Reference
from scored_pr import ScoredPrecisionRecallEvaluation

finite = st.floats(-1e6, 1e6, allow_nan=False)
case_lists = st.lists(st.tuples(st.booleans(), finite), max_size=50)
policies = st.sampled_from(["stable", "grouped"])


def evaluation(cases: list, ties: str = "stable", misses: int = 0) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    for c, s in cases:
        ev.add_case(c, s)
    ev.add_misses(misses)
    return ev


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        (isinstance(a[k], float) and math.isnan(a[k]) and math.isnan(b[k])) or a[k] == b[k] for k in a
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), finite), max_size=40, unique_by=lambda c: c[1]), st.randoms(use_true_random=False), policies)
def test_distinct_scores_make_insertion_order_irrelevant(cases: list, rnd, ties: str) -> None:
    shuffled = list(cases)
    rnd.shuffle(shuffled)
    a, b = evaluation(cases, ties), evaluation(shuffled, ties)
    assert same(a.summary(), b.summary())
    np.testing.assert_array_equal(a.pr_score_curve(), b.pr_score_curve())
    np.testing.assert_array_equal(a.roc_curve(), b.roc_curve())


@settings(max_examples=200, deadline=None)
@given(case_lists, st.integers(0, 3), policies, st.integers(1, 10))
def test_add_cases_equals_a_loop_of_add_case(cases: list, misses: int, ties: str, chunk: int) -> None:
    looped = evaluation(cases, ties, misses)
    batched = ScoredPrecisionRecallEvaluation(ties=ties)
    for i in range(0, len(cases), chunk):
        part = cases[i : i + chunk]
        batched.add_cases([c for c, _ in part], [s for _, s in part])
    batched.add_misses(misses)
    assert same(looped.summary(), batched.summary())
    np.testing.assert_array_equal(looped.pr_score_curve(), batched.pr_score_curve())
    np.testing.assert_array_equal(looped.roc_curve(True), batched.roc_curve(True))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(-3, 3).map(float)), max_size=50), st.integers(0, 3), policies)
def test_invariants(cases: list, misses: int, ties: str) -> None:
    ev = evaluation(cases, ties, misses)
    ap = ev.average_precision()
    if ev.num_positive_ref:
        assert 0.0 <= ap <= 1.0
        assert ap == pytest.approx(ev.area_under_pr_curve(False), rel=1e-12, abs=1e-15)
    else:
        assert math.isnan(ap)
    assert ev.area_under_pr_curve(True) >= ev.area_under_pr_curve(False) - 1e-15
    if ev.num_positive_ref:
        assert ev.pr_breakeven_point() == ev.r_precision()
        assert ev.pr_breakeven_point() <= ev.maximum_f_measure() + 1e-15
    else:
        assert math.isnan(ev.pr_breakeven_point())
    for name in ("pr_curve", "roc_curve"):
        curve = getattr(ev, name)(False)
        assert (np.diff(curve[:, 0]) > 0).all()
        assert (np.diff(getattr(ev, name)(True)[:, 1]) < 0).all()  # interpolated: strictly decreasing


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.one_of(st.integers(-3, 3).map(float), st.floats(-2, 2))), max_size=60),
    st.integers(0, 3),
    st.integers(0, 3),
    policies,
)
def test_interpolated_areas_are_never_below_the_raw_ones(cases: list, misses: int, neg_misses: int, ties: str) -> None:
    """An interpolated curve lies on or above the raw one, so its area does too (every policy)."""
    ev = evaluation(cases, ties, misses)
    ev.add_negative_misses(neg_misses)
    assert ev.area_under_pr_curve(True) >= ev.area_under_pr_curve(False) - 1e-15
    raw, interpolated = ev.area_under_roc_curve(False), ev.area_under_roc_curve(True)
    if ev.num_positive_ref and ev.num_negative_ref:
        assert interpolated >= raw  # both exact ratios, rounded once: no rounding slack
        assert 0.0 <= raw <= 1.0 and interpolated <= 1.0
    else:  # one class: no pair to rank
        assert math.isnan(raw) and math.isnan(interpolated)


# Interleaved mutations and queries: no query may ever return a stale cached value.
ops = st.lists(
    st.one_of(
        st.tuples(st.just("case"), st.booleans(), st.integers(-2, 2).map(float)),
        st.tuples(st.just("cases"), st.lists(st.tuples(st.booleans(), st.integers(-2, 2).map(float)), max_size=5)),
        st.tuples(st.just("misses"), st.integers(0, 2)),
        st.tuples(st.just("negative_misses"), st.integers(0, 2)),
        st.tuples(st.just("query"), st.sampled_from(["summary", "pr_curve", "roc_curve", "precision_at"])),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(ops, policies)
def test_queries_after_mutations_are_never_stale(program: list, ties: str) -> None:
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    ref = Reference(ties)
    for op in program:
        if op[0] == "case":
            ev.add_case(op[1], op[2])
            ref.add_case(op[1], op[2])
        elif op[0] == "cases":
            ev.add_cases([c for c, _ in op[1]], [s for _, s in op[1]])
            for c, s in op[1]:
                ref.add_case(c, s)
        elif op[0] == "misses":
            ev.add_misses(op[1])
            ref.add_misses(op[1])
        elif op[0] == "negative_misses":
            ev.add_negative_misses(op[1])
            ref.add_negative_misses(op[1])
        else:
            ev._store._check()
            if op[1] == "summary":
                s = ev.summary()
                assert s["num_cases"] == len(ref.cases)
                assert s["average_precision"] == pytest.approx(ref.average_precision(), nan_ok=True, rel=1e-12)
                assert s["area_under_roc_curve"] == pytest.approx(ref.area_under_roc_curve(), nan_ok=True, rel=1e-12)
                assert s["reciprocal_rank"] == pytest.approx(ref.reciprocal_rank(), rel=1e-12)
            elif op[1] == "pr_curve":
                np.testing.assert_allclose(ev.pr_curve(True), np.array(ref.pr_curve(True)).reshape(-1, 2), rtol=1e-12)
            elif op[1] == "roc_curve":
                np.testing.assert_allclose(ev.roc_curve(), np.array(ref.roc_curve()).reshape(-1, 2), rtol=1e-12)
            else:
                k = max(1, len(ref.cases))
                assert ev.precision_at(k) == pytest.approx(ref.precision_at(k), nan_ok=True, rel=1e-12)
    ev._store._check()
    assert ev.num_cases == len(ref.cases)
