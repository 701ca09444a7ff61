"""A bounded summary's decisions (operating_point, min_cost_threshold, expected_cost) against the exact evaluator.

The exact evaluator fed the same cases is the reference: with at most ``max_bins`` distinct
scores the bins are exact and every answer is its answer; with more, the chosen edge's counts
are its ``confusion_at_threshold`` and its optimum lies in the certified ``optimum`` bounds
(Hypothesis, with ties, misses and every measure and constraint).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from scored_pr import BoundedEvaluation, Bounds, ScoredPrecisionRecallEvaluation, UnsupportedQuery

MAXIMIZE = ("precision", "recall", "tnr", "f1", "accuracy", "youden", "net_benefit")
TARGETS = {"precision": (0.5, 0.7, 0.9), "recall": (0.3, 0.6, 0.9), "tnr": (0.3, 0.6), "fpr": (0.2, 0.5),
           "accepted_fraction": (0.2, 0.5)}  # fmt: skip


def _pair(labels: Any, scores: Any, max_bins: int, misses: int = 0) -> tuple[ScoredPrecisionRecallEvaluation, BoundedEvaluation]:
    ev = ScoredPrecisionRecallEvaluation()
    s = BoundedEvaluation(max_bins)
    for e in (ev, s):
        e.add_cases(labels, scores)
        e.add_misses(misses)
    return ev, s


def _plain(d: Any) -> tuple[Any, ...]:
    """The decision's fields but ``optimum``, NaN as a string (NaN != NaN)."""
    return tuple("nan" if isinstance(v, float) and math.isnan(v) else v
                 for f, v in ((f.name, getattr(d, f.name)) for f in dataclasses.fields(d)) if f != "optimum")  # fmt: skip


def _cases(seed: int, n: int, digits: int | None) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    s = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + 1.2 * y)))
    return y, (np.round(s, digits) if digits is not None else s)


# ------------------------------------------------------------------ exact bins: the exact answers


@pytest.mark.parametrize("maximize", MAXIMIZE)
def test_an_exact_summary_answers_what_the_exact_evaluator_answers(maximize: str) -> None:
    y, s = _cases(1, 300, 2)  # at most 101 distinct scores: exact bins
    ev, summary = _pair(y, s, 4096, misses=3)
    assert summary.exact
    for key, targets in TARGETS.items():
        for target in targets:
            want = ev.operating_point(maximize, {key: target})
            got = summary.operating_point(maximize, {key: target})
            assert _plain(got) == _plain(want), (maximize, key, target)
            assert got.optimum.exact and (not want.feasible or float(got.optimum) == want.value)
    two = {"precision": 0.6, "fpr": 0.4}
    assert _plain(summary.operating_point(maximize, two)) == _plain(ev.operating_point(maximize, two))


def test_an_exact_summary_costs_as_the_exact_evaluator() -> None:
    y, s = _cases(2, 200, 2)
    ev, summary = _pair(y, s, 4096, misses=2)
    for costs in ((1, 1), (1, 5), (3, 1, 0.5, 0.2), (1, 1, -2, 0)):
        got, want = summary.min_cost_threshold(*costs), ev.min_cost_threshold(*costs)
        assert _plain(got) == _plain(want) and got.optimum.exact and float(got.optimum) == want.expected_cost
    for t in (-1.0, 0.1, 0.35, 0.5, 0.77, 2.0, math.inf):
        got = summary.expected_cost(t, 2.0, 3.0, 0.5, 0.1)
        assert got == ev.expected_cost(t, 2.0, 3.0, 0.5, 0.1) and Bounds(got, got, got).exact


@pytest.mark.parametrize("subject_to", [{"recall": 0.6}, {"fpr": 0.2}, {"tnr": 0.7, "accepted_fraction": 0.4}])
def test_monotone_certified_points_of_an_exact_summary_are_the_exact_evaluators(subject_to: dict[str, float]) -> None:
    y, s = _cases(3, 2000, 2)
    ev, summary = _pair(y, s, 4096)
    for maximize in ("precision", "f1", "recall"):
        got, want = summary.operating_point(maximize, subject_to, 0.9), ev.operating_point(maximize, subject_to, 0.9)
        assert _plain(got) == _plain(want) and got.optimum is None


def test_split_certified_points_of_an_exact_summary_keep_the_guarantees_fields() -> None:
    """Precision needs the split: another draw of the coins than the exact evaluator's, the same kind of answer."""
    y, s = _cases(4, 3000, 2)
    ev, summary = _pair(y, s, 4096)
    got = summary.operating_point("recall", {"precision": 0.7}, 0.95, seed=3)
    assert got.feasible and got.confidence == 0.95 and got.optimum is None
    c = ev.confusion_at_threshold(got.threshold)
    assert (got.tp, got.fp, got.tn, got.fn) == (c.tp, c.fp, c.tn, c.fn)
    k, n = got.tp, got.tp + got.fp  # the bound the test half certified is below the point estimate's
    assert got.bounds is not None and got.bounds["precision"] <= k / n
    assert summary.operating_point("recall", {"precision": 0.7}, 0.95, seed=3) == got  # seeded: repeatable


# ------------------------------------------------------------------ range bins: bounds that hold


def test_the_docstring_example_holds_the_exact_optimum() -> None:
    y, s = [True, True, False, True, False], [0.9, 0.8, 0.7, 0.6, 0.5]
    ev, summary = _pair(y, s, 2)
    got, want = summary.operating_point("recall", {"precision": 0.7}), ev.operating_point("recall", {"precision": 0.7})
    assert (got.threshold, got.value, want.value) == (0.8, 2 / 3, 1.0)
    assert got.optimum.lower == 2 / 3 and got.optimum.upper == 1.0 and not got.optimum.exact


def test_an_upper_of_minus_infinity_certifies_that_no_threshold_is_feasible() -> None:
    y, s = _cases(5, 400, None)
    ev, summary = _pair(y, s, 4)
    got = summary.operating_point("recall", {"precision": 0.999, "recall": 0.9})
    assert not got.feasible and got.threshold is None and got.optimum.upper == -math.inf
    assert not ev.operating_point("recall", {"precision": 0.999, "recall": 0.9}).feasible


def _check_point(ev: ScoredPrecisionRecallEvaluation, summary: BoundedEvaluation, maximize: str,
                 subject_to: dict[str, float]) -> None:  # fmt: skip
    got, want = summary.operating_point(maximize, subject_to), ev.operating_point(maximize, subject_to)
    opt = got.optimum
    assert isinstance(opt, Bounds) and opt.lower <= float(opt) <= opt.upper
    if got.feasible:  # an edge is one of the exact evaluator's thresholds, with its counts
        assert want.feasible
        c = ev.confusion_at_threshold(got.threshold)
        assert (got.tp, got.fp, got.tn, got.fn) == (c.tp, c.fp, c.tn, c.fn)
        assert opt.lower == got.value or (math.isnan(got.value) and opt.lower == -math.inf)
    if want.feasible and not math.isnan(want.value):
        assert opt.lower <= want.value <= opt.upper, (maximize, subject_to, got, want)
    else:
        assert not want.feasible or math.isnan(want.value) or opt.upper >= want.value
    if opt.upper == -math.inf:  # no feasible threshold with a defined value
        assert not want.feasible or math.isnan(want.value)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 120),
    max_bins=st.integers(1, 12),
    digits=st.sampled_from([None, 1, 2]),
    misses=st.integers(0, 3),
    maximize=st.sampled_from(MAXIMIZE),
    keys=st.lists(st.sampled_from(sorted(TARGETS)), max_size=2, unique=True),
    targets=st.lists(st.floats(0.0, 1.0), min_size=2, max_size=2),
)
def test_the_exact_optimum_lies_in_the_certified_bounds(seed: int, n: int, max_bins: int, digits: int | None,
                                                        misses: int, maximize: str, keys: list[str],
                                                        targets: list[float]) -> None:  # fmt: skip
    y, s = _cases(seed, n, digits)
    ev, summary = _pair(y, s, max_bins, misses)
    subject_to = dict(zip(keys, targets))
    _check_point(ev, summary, maximize, subject_to)
    costs = (1.0 + targets[0], 1.0 + 9 * targets[1], targets[0] - 0.5, 0.0)
    got, want = summary.min_cost_threshold(*costs), ev.min_cost_threshold(*costs)
    c = ev.confusion_at_threshold(got.threshold)
    assert (got.tp, got.fp, got.tn, got.fn) == (c.tp, c.fp, c.tn, c.fn)
    assert got.expected_cost == ev.expected_cost(got.threshold, *costs)
    assert got.optimum.lower <= want.expected_cost <= got.optimum.upper == got.expected_cost
    t = float(np.quantile(s, targets[0]))
    cost = summary.expected_cost(t, *costs)
    assert cost.lower <= ev.expected_cost(t, *costs) <= cost.upper


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), max_bins=st.integers(1, 8),
       key=st.sampled_from(["recall", "fpr", "tnr", "accepted_fraction"]), target=st.floats(0.05, 0.95))  # fmt: skip
def test_monotone_certified_points_over_range_bins_are_exact_thresholds(seed: int, max_bins: int, key: str,
                                                                        target: float) -> None:  # fmt: skip
    y, s = _cases(seed, 300, None)
    ev, summary = _pair(y, s, max_bins)
    got = summary.operating_point("f1", {key: target}, 0.9)
    if got.feasible:  # a certified edge: an exact threshold whose one-sided bound meets the target
        c = ev.confusion_at_threshold(got.threshold)
        assert (got.tp, got.fp, got.tn, got.fn) == (c.tp, c.fp, c.tn, c.fn)
        bound = got.bounds[key]
        assert bound >= target if key in ("recall", "tnr") else bound <= target


# ------------------------------------------------------------------ refusals and bad input


def test_split_certification_over_range_bins_is_refused_saying_why() -> None:
    y, s = _cases(6, 500, None)
    _, summary = _pair(y, s, 8)
    before = summary.to_dict()
    with pytest.raises(UnsupportedQuery, match=r"^BoundedEvaluation.operating_point\(confidence=\.\.\.\): certifying "
                                               r"these constraints splits the cases.*; certify monotone constraints"):
        summary.operating_point("recall", {"precision": 0.8}, 0.95)
    with pytest.raises(UnsupportedQuery):  # constraints pulling opposite ways need the split too
        summary.operating_point("f1", {"recall": 0.5, "fpr": 0.3}, 0.95)
    assert summary.to_dict() == before
    assert summary.operating_point("recall", {"precision": 0.8}).optimum is not None  # without a confidence


def test_bad_arguments_name_themselves_before_anything_is_computed() -> None:
    summary = BoundedEvaluation()
    summary.add_cases([True, False], [0.5, 3.0])
    with pytest.raises(ValueError, match=r"operating_point.*'maximize'.*'recall'.*'lift'"):
        summary.operating_point("lift")
    with pytest.raises(ValueError, match=r"subject_to\['precision'\].*\[0, 1\].*1.5"):
        summary.operating_point("recall", {"precision": 1.5})
    with pytest.raises(ValueError, match=r"confidence.*strictly between 0 and 1.*1.0"):
        summary.operating_point("recall", {"recall": 0.5}, 1.0)
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]; the highest score, 3.0, is not"):
        summary.operating_point("net_benefit")
    with pytest.raises(TypeError, match=r"min_cost_threshold.*'cost_fn'.*finite real number.*'x'"):
        summary.min_cost_threshold(1.0, "x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"expected_cost.*'gain_tp'.*finite.*inf"):
        summary.expected_cost(0.5, gain_tp=math.inf)
    weighted = BoundedEvaluation()
    weighted.add_cases([True, False], [0.5, 0.2], sample_weight=[0.5, 1.0])
    with pytest.raises(ValueError, match=r"'confidence' needs whole counts"):
        weighted.operating_point("recall", {"recall": 0.5}, 0.9)


def test_an_empty_summary_accepts_nothing() -> None:
    summary, ev = BoundedEvaluation(), ScoredPrecisionRecallEvaluation()
    assert _plain(summary.operating_point("f1", {"recall": 0.5})) == _plain(ev.operating_point("f1", {"recall": 0.5}))
    got = summary.min_cost_threshold()
    assert got.threshold == math.inf and math.isnan(got.expected_cost) and math.isnan(summary.expected_cost(0.5))


# ------------------------------------------------------------------ net benefit


def test_an_exact_summary_gives_the_evaluators_net_benefit_at_every_distinct_score() -> None:
    y, s = _cases(7, 400, 2)
    ev, summary = _pair(y, s, 4096, misses=2)
    assert summary.exact
    got, want = summary.net_benefit(), ev.net_benefit()
    np.testing.assert_array_equal(got.threshold, want.threshold)
    assert all(isinstance(m, Bounds) and m.exact for m in got.model)
    np.testing.assert_array_equal(np.asarray(got.model, dtype=float), want.model)  # bit for bit
    np.testing.assert_array_equal(got.treat_all, want.treat_all)
    np.testing.assert_array_equal(got.treat_none, want.treat_none)


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 300), st.sampled_from([1, 2, 3, 8, 32]), st.integers(0, 3),
       st.sampled_from([None, 1, 2]), st.booleans(),
       st.lists(st.sampled_from([0.0, 0.01, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 0.99]), min_size=1, max_size=6))  # fmt: skip
def test_net_benefit_bounds_hold_the_exact_evaluators_value(seed: int, n: int, max_bins: int, misses: int,
                                                            digits: int | None, weighted: bool,
                                                            thresholds: list[float]) -> None:  # fmt: skip
    y, s = _cases(seed, n, digits)
    w = np.random.default_rng(seed).choice([0.5, 1.0, 3.0], size=n) if weighted else None
    ev, summary = ScoredPrecisionRecallEvaluation(), BoundedEvaluation(max_bins)
    for e in (ev, summary):
        e.add_cases(y, s, w)
        e.add_misses(misses)
    got, want = summary.net_benefit(thresholds), ev.net_benefit(thresholds)
    np.testing.assert_array_equal(got.threshold, want.threshold)
    np.testing.assert_array_equal(got.treat_none, want.treat_none)
    np.testing.assert_allclose(got.treat_all, want.treat_all, rtol=0 if w is None else 1e-12)
    for b, v in zip(got.model, want.model.tolist()):
        assert b.lower <= v <= b.upper, (b, v)
        assert b.lower <= float(b) <= b.upper
        if b.exact and w is None:
            assert float(b) == v  # the evaluator's float


def test_default_net_benefit_of_a_summary_with_range_bins_is_refused_saying_what_to_do() -> None:
    y, s = _cases(3, 500, None)
    summary = BoundedEvaluation(8)
    summary.add_cases(y, s)
    with pytest.raises(UnsupportedQuery, match=r"every distinct score.*pass thresholds=\(\.\.\.\)"):
        summary.net_benefit()
    with pytest.raises(ValueError, match="'thresholds'"):
        summary.net_benefit([1.0])  # the evaluator's check: a threshold in [0, 1)
    logits = BoundedEvaluation(8)
    logits.add_cases(y, s * 4 - 2)
    with pytest.raises(ValueError, match="must be probabilities"):
        logits.net_benefit([0.5])
