"""Every candidate of a ranking whose rows live apart (``thresholds="all"``): the evaluator's answers.

The engines' protocol run in this process (``partitioned.evaluate_blocks``: bounds, buckets, offsets,
each bucket's candidates with its global counts, joined on the driver) over rows with ties of both
classes, -0.0, misses and many buckets; the :class:`~scored_pr.DistributedEvaluation` built from it
must answer every decision query as the exact evaluator fed the same rows does, bit for bit
(unweighted), requests not made at ``evaluate`` and ``confidence=`` with monotone constraints
included; a certified precision (a coin per row) is refused saying why and what to do.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from scored_pr import DistributedEvaluation, ScoredPrecisionRecallEvaluation, UnsupportedQuery
from scored_pr._core import partitioned_decisions as PD
from scored_pr._core.partitioned import evaluate_blocks


def _result(scores: np.ndarray, correct: np.ndarray, misses: int, buckets: int, blocks: int,
            weights: np.ndarray | None = None) -> DistributedEvaluation:  # fmt: skip
    """What an engine hands back for these rows with ``thresholds="all"``, computed in this process."""
    cut = np.linspace(0, scores.size, blocks + 1).astype(int)
    parts = [(scores[a:b], correct[a:b], None if weights is None else weights[a:b]) for a, b in zip(cut[:-1], cut[1:])]
    specs = PD.DecisionSpecs(((1.0, 1.0, 0.0, 0.0),), (("recall", ()),), every=True)
    return DistributedEvaluation(evaluate_blocks(parts, misses, buckets=buckets, decisions=specs), engine="test")


def _same(got: Any, want: Any) -> None:
    a, b = dataclasses.asdict(got), dataclasses.asdict(want)
    np.testing.assert_equal(a, b)  # field for field, NaN equal to NaN (the bounds' dict included)
    for key, v in b.items():
        assert type(a[key]) is type(v), (key, a[key], v)  # ints stay ints (unweighted counts)


_POINTS = [("recall", {"precision": 0.8}), ("f1", {}), ("precision", {"recall": 0.5, "fpr": 0.3}), ("youden", {}),
           ("accuracy", {"precision": 0.999}), ("tnr", {"accepted_fraction": 0.4})]
_CERTIFIED = [("precision", {"recall": 0.6}), ("recall", {"fpr": 0.2}), ("f1", {"tnr": 0.7, "accepted_fraction": 0.5}),
              ("precision", {"recall": 1.0})]  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 400), st.integers(0, 3), st.integers(1, 9), st.integers(1, 4),
       st.sampled_from([0.01, 0.1, 0.0]))  # fmt: skip
def test_every_decision_query_is_the_evaluators(seed: int, n: int, misses: int, buckets: int, blocks: int,
                                                rounding: float) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    raw = rng.random(n)
    s = np.round(raw / rounding) * rounding if rounding else raw  # ties of both classes, or distinct scores
    s = np.where(s == 0.0, -0.0, s)  # -0.0 and 0.0 are one score
    y = rng.random(n) < s
    got = _result(s, y, misses, buckets, blocks)
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    ev.add_misses(misses)
    for maximize, subject_to in _POINTS:  # none was requested at evaluate
        _same(got.operating_point(maximize, subject_to), ev.operating_point(maximize, subject_to))
    for maximize, subject_to in _CERTIFIED:
        _same(got.operating_point(maximize, subject_to, 0.9), ev.operating_point(maximize, subject_to, 0.9))
    for costs in ((1.0, 5.0, 0.0, 0.0), (2.0, 1.0, 0.5, 0.1), (-1.0, 2.0, 0.0, 0.0)):
        _same(got.min_cost_threshold(*costs), ev.min_cost_threshold(*costs))
    for t in (0.0, 0.05, 0.5, float(s[0]), 2.0, -1.0):
        assert got.expected_cost(t, 2.0, 3.0, 0.5) == ev.expected_cost(t, 2.0, 3.0, 0.5) or (
            math.isnan(got.expected_cost(t)) and math.isnan(ev.expected_cost(t)))
    for a, b in zip(got.net_benefit(), ev.net_benefit()):  # every distinct score: the default
        np.testing.assert_array_equal(a, b)
    for a, b in zip(got.net_benefit([0.5, 0.1, 0.0]), ev.net_benefit([0.5, 0.1, 0.0])):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(got.cost_curve(), ev.cost_curve()):
        np.testing.assert_array_equal(a, b)


def test_weighted_candidates_agree_and_fractional_weights_refuse_confidence() -> None:
    rng = np.random.default_rng(5)
    s = np.round(rng.random(500), 2)
    y = rng.random(500) < s
    w = rng.choice([0.5, 1.0, 2.0], size=500)
    got = _result(s, y, 0, 6, 3, w)
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s, w)
    for maximize, subject_to in _POINTS:
        a, b = got.operating_point(maximize, subject_to), ev.operating_point(maximize, subject_to)
        assert a.threshold == b.threshold and math.isclose(a.tp, b.tp, rel_tol=1e-12)
    with pytest.raises(ValueError) as want:
        ev.operating_point("precision", {"recall": 0.5}, 0.9)
    with pytest.raises(ValueError) as have:
        got.operating_point("precision", {"recall": 0.5}, 0.9)
    assert str(have.value) == str(want.value)


def test_a_certified_precision_is_refused_saying_why_and_what_instead() -> None:
    rng = np.random.default_rng(3)
    s = rng.random(300)
    got = _result(s, rng.random(300) < s, 0, 4, 2)
    with pytest.raises(UnsupportedQuery, match=r"a fair coin per row drawn in rank order.*recall >=, fpr <="):
        got.operating_point("recall", {"precision": 0.8}, 0.9)
    with pytest.raises(UnsupportedQuery, match="pulling opposite ways"):
        got.operating_point("f1", {"recall": 0.5, "fpr": 0.2}, 0.9)  # safe ends low and high: a split too
    assert got.operating_point("f1", None, 0.9) == got.operating_point("f1")  # no constraint: nothing to certify


def test_without_every_candidate_the_refusals_name_the_way_to_ask() -> None:
    rng = np.random.default_rng(4)
    s = rng.random(200)
    y = rng.random(200) < s
    specs = PD.DecisionSpecs(((1.0, 1.0, 0.0, 0.0),), (("recall", ()),))
    got = DistributedEvaluation(evaluate_blocks([(s, y, None)], 0, buckets=3, decisions=specs), engine="test")
    with pytest.raises(UnsupportedQuery, match=r"thresholds='all' at evaluate.*pass thresholds='all' to evaluate"):
        got.operating_point("recall", {"fpr": 0.2}, 0.9)
    with pytest.raises(UnsupportedQuery, match=r"\(or thresholds='all'\) to evaluate"):
        got.operating_point("f1")
    with pytest.raises(UnsupportedQuery, match=r"\(or thresholds='all'\) to evaluate"):
        got.min_cost_threshold(1, 5)
