"""Every measure, both tie policies, against the literal reference in reference.py."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import Reference, paired
from scored_pr import ScoredPrecisionRecallEvaluation

# Scores from a small set produce heavy ties; floats exercise distinct values.
scores = st.one_of(
    st.integers(-3, 3).map(float),
    st.floats(-5, 5, allow_nan=False),
    st.sampled_from([math.inf, -math.inf, 0.0, -0.0]),
)
cases = st.lists(st.tuples(st.booleans(), scores), max_size=60)
counts = st.integers(0, 4)


def close(a: float, b: float) -> bool:
    if math.isnan(b):
        return math.isnan(a)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def assert_rows(actual: np.ndarray, expected: list, label: str) -> None:
    assert len(actual) == len(expected), f"{label}: {actual.tolist()} vs {expected}"
    for a_row, e_row in zip(actual.tolist(), expected):
        assert all(close(a, e) for a, e in zip(a_row, e_row)), f"{label}: {a_row} vs {e_row}"


def assert_same(ev: ScoredPrecisionRecallEvaluation, ref: Reference) -> None:
    assert ev.num_cases == len(ref.cases)
    assert ev.num_positive_ref == ref.P
    assert ev.num_negative_ref == ref.N
    for interp in (False, True):
        assert_rows(ev.pr_curve(interp), ref.pr_curve(interp), f"pr_curve({interp})")
        assert_rows(ev.pr_score_curve(interp), ref.pr_score_curve(interp), f"pr_score_curve({interp})")
        assert_rows(ev.roc_curve(interp), ref.roc_curve(interp), f"roc_curve({interp})")
        assert close(ev.area_under_pr_curve(interp), ref.area_under_pr_curve(interp))
        assert close(ev.area_under_roc_curve(interp), ref.area_under_roc_curve(interp)), interp
    assert close(ev.average_precision(), ref.average_precision())
    for beta in (0.5, 1.0, 2.0):
        assert close(ev.maximum_f_measure(beta), ref.maximum_f_measure(beta))
    assert close(ev.pr_breakeven_point(), ref.pr_breakeven_point())
    assert close(ev.reciprocal_rank(), ref.reciprocal_rank())
    assert close(ev.r_precision(), ref.r_precision())
    for k in range(1, len(ref.cases) + 3):
        assert close(ev.precision_at(k), ref.precision_at(k)), k


@pytest.mark.parametrize("ties", ["stable", "grouped"])
@settings(max_examples=300, deadline=None)
@given(data=cases, misses=counts, neg_misses=counts)
def test_every_measure_matches_the_reference(ties: str, data: list, misses: int, neg_misses: int) -> None:
    ev, ref = paired(ties, data, misses, neg_misses)
    assert_same(ev, ref)


@pytest.mark.parametrize("ties", ["stable", "grouped"])
def test_one_big_tie_group(ties: str) -> None:
    data = [(i % 3 == 0, 1.0) for i in range(30)] + [(True, 0.5), (False, 2.0)]
    ev, ref = paired(ties, data, 2, 1)
    assert_same(ev, ref)


def test_grouped_reciprocal_rank_is_the_expectation_over_orderings() -> None:
    # One correct and one incorrect case tied at rank 1-2: E[1/rank] = (1 + 1/2) / 2.
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases([False, True], [1.0, 1.0])
    assert ev.reciprocal_rank() == 0.75
    assert ev.precision_at(1) == 0.5
