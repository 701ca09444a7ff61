"""summary() builds the raw PR curve once and answers what each query asked alone answers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr._evaluators import exact as exact_module


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def _count_calls(monkeypatch: pytest.MonkeyPatch, name: str, *modules: object) -> list[int]:
    """Replace ``name`` in each module by a wrapper of the first module's function; the list grows by one a call."""
    real = getattr(modules[0], name)
    calls: list[int] = []

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)

    for module in modules:
        monkeypatch.setattr(module, name, counted)
    return calls


def test_summary_builds_the_pr_columns_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache holds curves by weak reference; summary() holds the raw PR curve's columns for the
    call, so the average precision, the area, the interpolated area and the maximum F read one pair
    of columns (they were built three times), and no PR curve of rows is built at all."""
    rng = np.random.default_rng(4)
    y = rng.random(5000) < 0.3
    s = rng.normal(size=5000) + y
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    calls = _count_calls(monkeypatch, "pr_columns", exact_module.C)
    rows = _count_calls(monkeypatch, "pr_curve", exact_module.C)
    first = ev.summary()
    assert len(calls) == 1
    assert rows == []
    calls.clear()
    assert ev.summary() == first  # every answer cached: no curve is built, none is held
    assert calls == []
    assert exact_module._HELD not in ev._memo  # the call's hold is gone with it


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]) | st.floats(-5, 5)), max_size=40),
    st.sampled_from(["grouped", "stable"]),
    st.booleans(),
)
def test_summary_equals_each_query_on_a_fresh_evaluator(cases: list[tuple[bool, float]], ties: str, weighted: bool) -> None:
    """Every entry of summary() is bit for bit the query's answer on an evaluator that cached nothing."""
    y = np.array([c for c, _ in cases], dtype=bool)
    s = np.array([x for _, x in cases], dtype=np.float64)
    w = np.linspace(0.5, 2.0, len(cases)) if weighted else None
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    ev.add_cases(y, s, w)
    got = ev.summary()
    for name in ("average_precision", "area_under_pr_curve", "area_under_roc_curve", "maximum_f_measure"):
        fresh = ScoredPrecisionRecallEvaluation(ties=ties)
        fresh.add_cases(y, s, w)
        assert _same(got[name], getattr(fresh, name)())
    for name, interpolate in (("area_under_pr_curve_interpolated", True), ("area_under_roc_curve_interpolated", True)):
        fresh = ScoredPrecisionRecallEvaluation(ties=ties)
        fresh.add_cases(y, s, w)
        assert _same(got[name], getattr(fresh, name.removesuffix("_interpolated"))(interpolate))


@pytest.mark.parametrize("ties", ["grouped", "stable"])
def test_summary_average_precision_reads_the_pr_curve(ties: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside summary() the average precision sums the raw PR curve's precision column (computed once, by pr_columns),
    and equals, bit for bit, the average precision asked alone."""
    rng = np.random.default_rng(9)
    y = rng.random(20_000) < 0.3
    s = rng.normal(size=20_000) + y
    alone = ScoredPrecisionRecallEvaluation(ties=ties)
    alone.add_cases(y, s)
    want = alone.average_precision()
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    ev.add_cases(y, s)
    calls = _count_calls(monkeypatch, "precision", exact_module.C, exact_module.M)  # the scalars' own binding too
    assert ev.summary()["average_precision"] == want
    assert len(calls) == 1


def test_the_pr_measures_read_a_curve_the_caller_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A PR curve a caller still holds is read in place: its area and the maximum F build no columns,
    and equal, bit for bit, what a fresh evaluator answers from its own columns."""
    rng = np.random.default_rng(5)
    y = rng.random(3000) < 0.4
    s = rng.normal(size=3000) + y
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    curve, interpolated = ev.pr_curve(), ev.pr_curve(True)
    calls = _count_calls(monkeypatch, "pr_columns", exact_module.C)
    got = (ev.area_under_pr_curve(), ev.area_under_pr_curve(True), ev.maximum_f_measure())
    assert calls == []
    fresh = ScoredPrecisionRecallEvaluation()
    fresh.add_cases(y, s)
    assert got == (fresh.area_under_pr_curve(), fresh.area_under_pr_curve(True), fresh.maximum_f_measure())
    assert curve.shape[0] > interpolated.shape[0] > 0
