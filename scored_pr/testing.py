"""Assertions for test suites: is a model good enough, did a curve change?

:func:`assert_metrics` checks any number of measures against bounds and, on
failure, shows every measure with its bound and value; :func:`assert_curve_close`
compares two curves point by point and shows the points that differ. Both
raise ``AssertionError``, so they work in pytest, unittest or a plain script.

On a few hundred cases a measure moves by several points between samples,
so a bare threshold either flakes or is set too low to catch anything.
``assert_metrics(..., confidence=0.95)`` checks a bound against the one-sided
95 % confidence bound instead of the point value, and :func:`assert_not_worse`
gates a candidate model against a baseline scored on the same cases.
With pytest, the ``scored_pr_evaluation`` fixture (see
:mod:`scored_pr._pytest_plugin`) gives each test a fresh evaluator.

Examples
--------
>>> from scored_pr import ScoredPrecisionRecallEvaluation
>>> from scored_pr.testing import assert_metrics
>>> ev = ScoredPrecisionRecallEvaluation()
>>> ev.add_cases([True, True, False, True, False], [0.9, 0.8, 0.7, 0.6, 0.2])
>>> assert_metrics(ev, average_precision=0.9, area_under_roc_curve=(">=", 0.8))
>>> assert_metrics(ev, average_precision=0.95, precision_at_5=("<=", 0.5))
Traceback (most recent call last):
...
AssertionError: 2 of 2 metric bounds not met (5 cases, 3 positive):
  metric             bound    value
  average_precision  >= 0.95  0.9166666666666666  FAILED
  precision_at_5     <= 0.5   0.6                 FAILED
"""

from __future__ import annotations

import math
import numbers
import operator
import re
from collections.abc import Mapping
from typing import Any, Callable

import numpy as np

from ._evaluators.exact import ScoredPrecisionRecallEvaluation
from ._measures import MEASURES, Measure
from ._validation import (
    check_point_bounds,
    check_bounds_given,
    check_comparison_form,
    check_confidence,
    check_curve_rows,
    check_evaluation,
    check_margin,
    check_metric_bound,
    check_resamplable,
)

__all__ = ["assert_metrics", "assert_curve_close", "assert_not_worse", "assert_operating_point", "metric_value"]

_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
    "!=": operator.ne,
}

#: ``metric__<suffix>=x`` in assert_metrics: the same as ``metric=(operator, x)``.
_SUFFIXES = {"ge": ">=", "gt": ">", "le": "<=", "lt": "<", "eq": "==", "ne": "!="}


def _split_bound(key: str, bound: Any) -> tuple[str, Any]:
    """(metric name, bound) of one keyword of assert_metrics: ``ece__le=0.05`` -> ``("ece", ("<=", 0.05))``."""
    name, sep, suffix = key.rpartition("__")
    if sep and name and suffix in _SUFFIXES:
        return name, (_SUFFIXES[suffix], bound)
    return key, bound


#: Metrics that take no argument (scored_pr._measures: the counts and measures): name -> table entry.
_METRICS: dict[str, Measure] = {m.name: m for m in MEASURES if m.kind in ("count", "measure")}
#: The per-rank metrics (``precision_at_<k>``): a name matching the pattern -> (entry, rank).
_PER_RANK: tuple[tuple[re.Pattern[str], Measure], ...] = tuple(
    (re.compile(re.escape(m.name).replace(re.escape("<k>"), "([1-9][0-9]*)")), m) for m in MEASURES if m.kind == "per_rank"
)

#: Metrics with a confidence interval: name -> (measure, measure arguments).
_INTERVALS: dict[str, tuple[str, dict[str, Any]]] = {
    m.name: (m.method, m.kwargs) for m in _METRICS.values() if m.intervals
}


def _per_rank(name: str) -> tuple[Measure, int] | None:
    for pattern, m in _PER_RANK:
        match = pattern.fullmatch(name)
        if match:
            return m, int(match.group(1))
    return None


def _metric_names() -> str:
    return ", ".join([*_METRICS, *(m.name for _, m in _PER_RANK)])


#: The measures of a MultiQueryEvaluation: its means over the queries.
_MULTI_METRICS: dict[str, Callable[[Any], float]] = {
    "num_queries": len,
    "mean_average_precision": lambda mq: mq.mean_average_precision(),
    "mean_reciprocal_rank": lambda mq: mq.mean_reciprocal_rank(),
    "mean_r_precision": lambda mq: mq.mean_r_precision(),
}
_MEAN_PRECISION_AT = re.compile(r"mean_precision_at_([1-9][0-9]*)")

_EVALUATION_OR_MAPPING = (
    "a ScoredPrecisionRecallEvaluation or a mapping of metric values (such as a summary()), or another "
    "evaluator: WindowedEvaluation, BoundedEvaluation, SynchronizedEvaluation, MultiQueryEvaluation"
)
_NO_CASES = (
    "'confidence' resamples the cases, and a bounded summary keeps the weight of each score range, not "
    "the cases; keep an exact ScoredPrecisionRecallEvaluation of the cases for confidence bounds, or "
    "check the summary's certified bounds without 'confidence'."
)
_PER_QUERY = (
    "'confidence' resamples one ranking; check one query's evaluator (evaluation[query]) instead."
)


def _view(evaluation: Any, func: str) -> tuple[str, Any]:
    """(kind, what to read) of an evaluator or a mapping; see :func:`scored_pr._validation.check_evaluation`."""
    if isinstance(evaluation, Mapping):
        return "mapping", evaluation
    return check_evaluation(evaluation, func, expected=_EVALUATION_OR_MAPPING)


def _multi_value(mq: Any, name: str) -> float:
    compute = _MULTI_METRICS.get(name)
    if compute is not None:
        return compute(mq)
    match = _MEAN_PRECISION_AT.fullmatch(name)
    if match:
        return float(mq.mean_precision_at(int(match.group(1))))
    raise ValueError(
        f"unknown metric {name!r} of a MultiQueryEvaluation; expected one of "
        f"{', '.join([*_MULTI_METRICS, 'mean_precision_at_<k>'])} (or check one query: evaluation[query])"
    )


def metric_value(evaluation: Any, name: str) -> float:
    """The value of one named metric of an evaluator (or of a summary dict).

    Parameters
    ----------
    evaluation : evaluator or mapping
        Any evaluator kind: :class:`~scored_pr.ScoredPrecisionRecallEvaluation`,
        :class:`~scored_pr.WindowedEvaluation` (the cases in the window now),
        :class:`~scored_pr.SynchronizedEvaluation` (read under its lock),
        :class:`~scored_pr.BoundedEvaluation` (the value is a
        :class:`~scored_pr.Bounds`), :class:`~scored_pr.MultiQueryEvaluation`
        (its means over the queries); or a mapping such as ``summary()``
        (e.g. one logged earlier), looked up by key.
    name : str
        A key of ``summary()`` (``average_precision``, ``area_under_roc_curve``,
        ``num_cases``...), ``num_negative_misses``, or ``precision_at_<k>``
        for any k >= 1. For a MultiQueryEvaluation: ``num_queries``,
        ``mean_average_precision``, ``mean_reciprocal_rank``,
        ``mean_r_precision`` or ``mean_precision_at_<k>``.

    Returns
    -------
    float or int
        A :class:`~scored_pr.Bounds` for a bounded summary.

    Raises
    ------
    ValueError
        If ``name`` is not a metric (or not a key of the mapping).
    TypeError
        If ``evaluation`` is neither an evaluator nor a mapping.
    UnsupportedQuery
        If the evaluator kind cannot answer the metric at all.

    Examples
    --------
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True], [0.9, 0.5, 0.4])
    >>> metric_value(ev, "precision_at_2"), metric_value(ev.summary(), "num_cases")
    (0.5, 3)
    """
    kind, ev = _view(evaluation, "metric_value")
    if kind == "mapping":
        if name not in ev:
            raise ValueError(f"unknown metric {name!r}; the mapping has {', '.join(map(str, ev))}")
        return ev[name]  # type: ignore[no-any-return]
    if kind == "per_query":
        return _multi_value(ev, name)
    entry = _METRICS.get(name)
    if entry is not None:
        return entry.compute(ev)
    ranked = _per_rank(name)
    if ranked:
        return ranked[0].compute(ev, k=ranked[1])
    raise ValueError(f"unknown metric {name!r}; expected one of {_metric_names()}")


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _range(value: Any) -> tuple[Any, Any]:
    """(lower, upper) of a :class:`~scored_pr.Bounds`; (value, value) for any other value."""
    lower, upper = getattr(value, "lower", None), getattr(value, "upper", None)
    if isinstance(lower, float) and isinstance(upper, float):
        return lower, upper
    return value, value


def _matches(bound: Any, value: Any) -> bool:
    """``bound == value`` for a value or, for Bounds, for some value within them."""
    lower, upper = _range(value)
    if bool(bound == value) or bool(bound == lower) or bool(bound == upper):
        return True
    expected = getattr(bound, "expected", None)  # pytest.approx: its value lies within the bounds
    return _is_number(expected) and lower <= expected <= upper


def _order(op: str, limit: Any) -> Callable[[Any], bool]:
    """The predicate ``value op limit``; for Bounds, true when some value within them meets it."""
    compare = _OPERATORS[op]
    if op in (">=", ">"):
        return lambda v: bool(compare(_range(v)[1], limit))
    if op in ("<=", "<"):
        return lambda v: bool(compare(_range(v)[0], limit))
    if op == "==":
        return lambda v: bool(_range(v)[0] <= limit <= _range(v)[1])
    return lambda v: not (_range(v)[0] == limit == _range(v)[1])  # "!=": unless it is exactly the limit


def _bound_check(name: str, bound: Any) -> tuple[str, Callable[[Any], bool]]:
    """(how to print the bound, predicate on the value)."""
    check_metric_bound(name, bound, _OPERATORS, "assert_metrics")
    if _is_number(bound):  # a plain number is a lower bound
        return f">= {bound!r}", _order(">=", bound)
    if isinstance(bound, tuple):  # (operator, number), as checked
        op, limit = bound
        return f"{op} {limit!r}", _order(op, limit)
    # anything else: equality with the object itself (pytest.approx, a custom matcher)
    return f"== {bound!r}", lambda v: _matches(bound, v)


def _show_value(value: Any) -> str:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return str(int(value))
    lower, upper = _range(value)
    if lower is not value and not (lower == upper or (math.isnan(lower) and math.isnan(upper))):
        return f"{float(value)!r} [{lower!r}, {upper!r}]"  # a Bounds: the estimate and its bounds
    return repr(float(value))


def _counts(evaluation: Any) -> str:
    try:
        n, p = metric_value(evaluation, "num_cases"), metric_value(evaluation, "num_positive_ref")
    except (ValueError, TypeError):
        return ""
    return f" ({n} cases, {p} positive)"


def _interval_spec(name: str) -> tuple[str, dict[str, Any]] | None:
    spec = _INTERVALS.get(name)
    if spec is not None:
        return spec
    ranked = _per_rank(name)
    if ranked:
        return ranked[0].method, ranked[0].args_with({"k": ranked[1]})
    return None  # a count (exact) or a calibration measure: no interval


def assert_metrics(
    evaluation: Any,
    *,
    confidence: float | None = None,
    method: str | None = None,
    n_resamples: int = 2000,
    seed: int | None = 0,
    **bounds: Any,
) -> None:
    """Assert that every named metric meets its bound; show them all if one does not.

    Parameters
    ----------
    evaluation : evaluator or mapping
        Any evaluator kind (see :func:`metric_value`), or a ``summary()``
        dict. A window or a shared evaluator is read through one
        ``snapshot()``, so every bound is checked on the same cases.
    confidence : float in [0.5, 1), optional
        Check each order bound against a one-sided confidence bound instead
        of the point value: ``metric=0.80`` with ``confidence=0.95`` asserts
        that the lower 95 % confidence bound of the metric (the low end of its
        two-sided 90 % interval) is at least 0.80, i.e. the data show the
        metric is at least 0.80 at 95 % confidence. ``("<=", x)`` and
        ``("<", x)`` use the upper bound. Counts (``num_cases`` ...), ``==``,
        ``!=`` and ``pytest.approx`` bounds are checked on the value. Needs an
        unweighted evaluator that holds its cases (not a mapping, not a
        BoundedEvaluation).
    method : {None, "delong", "bootstrap", "bca", "logit"}
        The interval's method (see
        :meth:`~scored_pr.ScoredPrecisionRecallEvaluation.confidence_interval`);
        by default DeLong for ``area_under_roc_curve`` and the percentile
        bootstrap otherwise.
    n_resamples, seed : int, default 2000 and 0
        Bootstrap resamples and seed. The fixed default seed makes the
        assertion deterministic: a test does not flake on resampling noise.
    **bounds
        ``metric=bound`` for any metric of :func:`metric_value`. A bound is

        - a number: the metric must be at least that (``>=``);
        - a pair ``(operator, number)`` with operator one of ``>=``, ``>``,
          ``<=``, ``<``, ``==``, ``!=``: e.g. ``("<=", 0.2)``;
        - any other object, compared with ``==``: ``pytest.approx(0.83,
          abs=1e-3)`` for a value within a tolerance.

        ``metric__le=x`` is ``metric=("<=", x)`` (likewise ``__lt``,
        ``__ge``, ``__gt``, ``__eq``, ``__ne``), so one metric can take
        two bounds: ``expected_calibration_error__le=0.05``. A calibration
        metric (``expected_calibration_error``, ``brier_score``) needs
        scores in [0, 1] (a ValueError names the score otherwise) and has no
        interval: with ``confidence`` it is checked on its value.

        NaN (an undefined metric, e.g. ``precision_at_100`` with fewer than
        100 cases) meets no bound except ``("!=", x)``.

        A :class:`~scored_pr.BoundedEvaluation` answers with
        :class:`~scored_pr.Bounds` (``lower <= exact value <= upper``); a
        bound is met when some value within them meets it, i.e. unless the
        bounds prove the exact evaluator would miss it: ``x`` (``>=``) when
        ``upper >= x``, ``("<=", x)`` when ``lower <= x``, ``("==", x)``
        when ``lower <= x <= upper``, ``pytest.approx(x, abs=tol)`` when
        ``x`` lies within ``[lower - tol, upper + tol]``. Exact bounds
        (``lower == upper``) are the value itself. The failure message shows
        the estimate and ``[lower, upper]``. For a certified pass, bound the
        Bounds' ``lower`` yourself (:func:`metric_value`).
    Raises
    ------
    AssertionError
        If a metric misses its bound. The message is a table of every metric
        checked, its bound and its value (with ``confidence``: the estimate,
        the interval and the confidence bound compared), the failing ones
        marked ``FAILED``.
    ValueError
        If a name is not a metric, a bound is malformed, or ``confidence`` is
        given with a mapping or a weighted evaluator (never an AssertionError:
        a typo is not a model failure).
    UnsupportedQuery
        If ``confidence`` is given with a BoundedEvaluation or a
        MultiQueryEvaluation (neither keeps one ranking's cases), or the kind
        cannot answer a metric.

    Notes
    -----
    Metrics are computed once each (the evaluator caches them); checking
    every bound before failing shows the whole picture in one run. With
    ``confidence``, each bootstrapped metric costs ``n_resamples``
    resamples: milliseconds for ROC AUC and average precision on thousands
    of cases, longer for the metrics that rebuild an evaluator per resample.

    Examples
    --------
    >>> import pytest
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
    >>> assert_metrics(ev, average_precision=pytest.approx(0.8333, abs=1e-4), num_cases=("==", 4))
    >>> assert_metrics(ev, area_under_roc_curve=0.8, precision_at_1=1.0)
    Traceback (most recent call last):
    ...
    AssertionError: 1 of 2 metric bounds not met (4 cases, 2 positive):
      metric                bound   value
      area_under_roc_curve  >= 0.8  0.75   FAILED
      precision_at_1        >= 1.0  1.0    ok

    With ``confidence`` a good-looking value on few cases is not enough:

    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True] * 6 + [False] * 6, [0.9, 0.8, 0.75, 0.7, 0.4, 0.3, 0.6, 0.5, 0.35, 0.2, 0.1, 0.05])
    >>> assert_metrics(ev, area_under_roc_curve=0.8)
    >>> assert_metrics(ev, area_under_roc_curve=0.8, confidence=0.95)
    Traceback (most recent call last):
    ...
    AssertionError: 1 of 1 metric bounds not met at 95% confidence (12 cases, 6 positive):
      metric                bound   estimate            90% interval  compared
      area_under_roc_curve  >= 0.8  0.8611111111111112  [0.6761, 1]   0.6761 (lower)  FAILED
    """
    __tracebackhide__ = True
    check_bounds_given(bounds, "assert_metrics")
    if confidence is not None:
        _confidence_metrics(evaluation, check_confidence(confidence, "assert_metrics"), method, n_resamples, seed, bounds)
        return
    evaluation = _view(evaluation, "assert_metrics")[1]  # one snapshot for every bound
    rows: list[tuple[str, str, str, bool]] = []
    for key, bound in bounds.items():
        name, bound = _split_bound(key, bound)
        shown, ok = _bound_check(name, bound)
        value = metric_value(evaluation, name)
        rows.append((name, shown, _show_value(value), ok(value)))
    failed = sum(1 for r in rows if not r[3])
    if not failed:
        return
    _fail_table(f"{failed} of {len(rows)} metric bounds not met{_counts(evaluation)}:", ("metric", "bound", "value"), rows)


def _fail_table(title: str, headers: tuple[str, ...], rows: list[Any]) -> None:
    __tracebackhide__ = True
    widths = [max(len(h), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    lines = [title]
    lines.append("  " + "  ".join(f"{h:<{w}}" for h, w in zip(headers, widths)).rstrip())
    for *cells, passed in rows:
        text = "  ".join(f"{c:<{w}}" for c, w in zip(cells, widths))
        lines.append(f"  {text}  {'ok' if passed else 'FAILED'}")
    raise AssertionError("\n".join(lines))


def _confidence_metrics(
    evaluation: Any, confidence: float, method: str | None, n_resamples: int, seed: int | None, bounds: dict[str, Any]
) -> None:
    __tracebackhide__ = True
    check_resamplable(evaluation, "assert_metrics")
    _, evaluation = check_evaluation(
        evaluation, "assert_metrics", bounded=_NO_CASES, multi=_PER_QUERY, expected=_EVALUATION_OR_MAPPING
    )
    two_sided = 2.0 * confidence - 1.0  # its low (high) end is the one-sided lower (upper) bound
    rows: list[tuple[str, str, str, str, str, bool]] = []
    for key, bound in bounds.items():
        name, bound = _split_bound(key, bound)
        shown, ok = _bound_check(name, bound)
        spec = _interval_spec(name)
        op = bound[0] if isinstance(bound, tuple) else (">=" if _is_number(bound) else "==")
        if spec is None or op in ("==", "!="):
            value = metric_value(evaluation, name)
            rows.append((name, shown, _show_value(value), "-", "value", ok(value)))
            continue
        measure, args = spec
        m = method
        if m is None and measure == "area_under_roc_curve" and args:
            m = "bootstrap"  # the interpolated area has no DeLong variance
        iv = evaluation.confidence_interval(measure, two_sided, m, n_resamples, seed, **args)
        side, value = ("lower", iv.low) if op in (">=", ">") else ("upper", iv.high)
        interval = f"[{iv.low:.4g}, {iv.high:.4g}]"
        rows.append((name, shown, _show_value(iv.estimate), interval, f"{value:.4g} ({side})", ok(value)))
    failed = sum(1 for r in rows if not r[-1])
    if not failed:
        return
    level = f"{100 * two_sided:.4g}% interval"
    _fail_table(
        f"{failed} of {len(rows)} metric bounds not met at {100 * confidence:.4g}% confidence{_counts(evaluation)}:",
        ("metric", "bound", "estimate", level, "compared"),
        rows,
    )


def assert_not_worse(
    correct: Any,
    candidate_scores: Any,
    baseline_scores: Any = None,
    measure: str = "area_under_roc_curve",
    margin: float = 0.0,
    confidence: float = 0.95,
    *,
    method: str | None = None,
    n_resamples: int = 2000,
    seed: int | None = 0,
    pos_label: Any = None,
) -> None:
    """Assert that a candidate model is not worse than a baseline on the same cases (a regression gate).

    Compares the two models paired (:func:`scored_pr.compare`) and fails when
    the data show, at the given confidence, that the candidate is worse than
    the baseline by more than ``margin``: when the one-sided upper
    confidence bound of ``measure(candidate) - measure(baseline)`` is below
    ``-margin``. A difference within sampling noise passes.

    Two forms, as :func:`scored_pr.compare`: ``assert_not_worse(correct,
    candidate_scores, baseline_scores)`` for two models scored on the same
    cases (paired), and ``assert_not_worse(candidate, baseline)`` for two
    evaluators that hold their cases (exact, windowed or synchronized, each
    read through one snapshot), built on different cases (unpaired; pass
    ``measure`` and the rest by keyword). A BoundedEvaluation raises
    :class:`~scored_pr.UnsupportedQuery`: it keeps no cases to compare.

    Parameters
    ----------
    correct : array-like of bool (or labels with ``pos_label``), or an evaluator
        The reference labels of the cases both models scored; or the
        candidate's evaluator (unpaired form).
    candidate_scores, baseline_scores : array-like of float
        The two models' scores of the same cases, in the same order; or the
        baseline's evaluator and nothing (unpaired form).
    measure : {"area_under_roc_curve", "average_precision"}
    margin : float >= 0, default 0.0
        How much worse the candidate may be before the gate fails.
    confidence : float in [0.5, 1), default 0.95
        One-sided confidence: the upper bound is the high end of the
        two-sided ``2 * confidence - 1`` interval.
    method : {None, "delong", "bootstrap", "bca"}
        DeLong's paired test for ROC AUC by default (pROC's
        ``roc.test(paired=TRUE)``), a paired bootstrap for AP.
    n_resamples, seed : int, default 2000 and 0
        For the bootstrap; the fixed seed makes the gate deterministic.
    pos_label : optional
        The label of a correct case, as in ``add_cases``.

    Raises
    ------
    AssertionError
        When the candidate is worse beyond ``margin``; the message shows both
        estimates, the difference, its interval, the bound compared and the
        p-value of the two-sided test of no difference.
    ValueError, TypeError
        For malformed arguments (never an AssertionError).

    Notes
    -----
    The gate fails only on evidence: on a small test set a real regression
    can pass because the interval is wide. To require evidence that the
    candidate is *at least as good* (non-inferiority), check
    ``compare(...).interval.low`` at level ``2 * confidence - 1`` against
    ``-margin`` instead.

    Examples
    --------
    >>> y = [True, False] * 10
    >>> baseline = [1.85, 0.82, 1.83, -1.3, 2.41, 0.45, 0.96, 0.58, 1.86, 0.29,
    ...             1.53, 0.55, 0.76, -0.16, 1.02, 0.6, 1.54, -0.29, 0.72, -0.26]
    >>> assert_not_worse(y, [s + 0.1 for s in baseline], baseline)   # the same ranking
    >>> candidate = [0.01, -0.28, 1.29, 1.01, -2.71, -1.89, -0.17, -0.42, 0.21, 0.22,
    ...              2.12, -1.11, -0.38, 2.04, 0.65, 0.66, -0.51, -1.65, 0.17, 0.11]
    >>> assert_not_worse(y, candidate, baseline)
    Traceback (most recent call last):
    ...
    AssertionError: the candidate is worse than the baseline on area_under_roc_curve at 95% confidence (20 cases, 10 positive; paired delong):
      candidate   0.55
      baseline    0.98
      difference  -0.43  90% interval [-0.6627, -0.1973]
      compared    upper bound -0.1973 < -margin (margin = 0.0)
      p-value     0.002375
    """
    __tracebackhide__ = True
    from ._uncertainty import NO_CASES, PER_QUERY, compare
    from . import _kinds

    func = "assert_not_worse"
    confidence = check_confidence(confidence, func)
    check_margin(margin, func)
    two_sided = 2.0 * confidence - 1.0
    unpaired = _kinds.kind_of(correct) is not None
    check_comparison_form(unpaired, baseline_scores, func)
    if unpaired:  # assert_not_worse(candidate, baseline): one snapshot each, then compare(ev_a, ev_b)
        correct = check_evaluation(correct, func, "correct", bounded=NO_CASES, multi=PER_QUERY)[1]
        candidate_scores = check_evaluation(candidate_scores, func, "candidate_scores", bounded=NO_CASES, multi=PER_QUERY)[1]
    r = compare(
        correct, candidate_scores, baseline_scores, measure=measure, method=method, level=two_sided,
        n_resamples=n_resamples, seed=seed, pos_label=pos_label,
    )
    upper = r.interval.high
    if math.isnan(upper):  # no variance (every pair ranked alike): the difference is the evidence
        upper = r.difference
    if not upper < -margin:
        return
    if unpaired:
        cases = (
            f"{correct.num_cases} and {candidate_scores.num_cases} cases, {correct.num_positive_ref} and "
            f"{candidate_scores.num_positive_ref} positive; unpaired {r.method}"
        )
    else:
        from ._validation import check_batch

        labels, _ = check_batch(correct, candidate_scores, func, pos_label)
        cases = f"{labels.size} cases, {int(labels.sum())} positive; paired {r.method}"
    lines = [
        f"the candidate is worse than the baseline on {measure} at {100 * confidence:.4g}% confidence "
        f"({cases}):",
        f"  candidate   {r.estimate_a:.6g}",
        f"  baseline    {r.estimate_b:.6g}",
        f"  difference  {r.difference:.6g}  {100 * two_sided:.4g}% interval [{r.interval.low:.4g}, {upper:.4g}]",
        f"  compared    upper bound {upper:.4g} < -margin (margin = {margin!r})",
        f"  p-value     {r.p_value:.4g}",
    ]
    raise AssertionError("\n".join(lines))


def _as_curve(curve: Any, name: str) -> np.ndarray:
    return check_curve_rows(curve, "assert_curve_close", name)


def _row(values: np.ndarray) -> str:
    return "(" + ", ".join(repr(v) for v in values.tolist()) + ")"


def assert_curve_close(
    actual: Any, expected: Any, atol: float = 1e-9, rtol: float = 0.0, max_rows: int = 10
) -> None:
    """Assert that two curves have the same points, within a tolerance.

    Parameters
    ----------
    actual, expected : array-like, shape (n, 2) or (n, 3)
        Curves such as ``pr_curve()``, ``roc_curve()`` or
        ``pr_score_curve()``, or lists of rows. ``actual`` may also be a
        :class:`~scored_pr.CurveBand` of a bounded summary (``pr_band()``,
        ``roc_band()``): then every point of ``expected`` (an (n, 2) curve
        in the band's coordinates, e.g. the exact evaluator's ``pr_curve()``
        or ``roc_curve()``) must lie in one of its boxes, each widened by
        ``atol + rtol * |point|``; the number of points may differ.
    atol, rtol : float
        Per coordinate, ``|a - e| <= atol + rtol * |e|`` (numpy.isclose);
        NaN equals NaN, infinities must match exactly.
    max_rows : int, default 10
        How many differing points the message lists.

    Raises
    ------
    AssertionError
        If the shapes differ or a point differs. The message gives the
        number of differing points and, for each of the first ``max_rows``,
        its index, both rows and the largest absolute difference.
    ValueError
        If an argument is not a 2-dimensional array of numbers.

    Examples
    --------
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True], [0.9, 0.5, 0.4])
    >>> assert_curve_close(ev.pr_curve(), [[0.5, 1.0], [1.0, 0.6667]], atol=1e-4)
    >>> assert_curve_close(ev.pr_curve(), [[0.5, 1.0], [1.0, 0.75]], atol=1e-4)
    Traceback (most recent call last):
    ...
    AssertionError: curves differ at 1 of 2 points (atol=0.0001, rtol=0.0):
      index  actual                     expected     max |diff|
      1      (1.0, 0.6666666666666666)  (1.0, 0.75)  0.0833
    """
    __tracebackhide__ = True
    if _is_band(actual):
        _assert_in_band(actual, _as_curve(expected, "expected"), atol, rtol, max_rows)
        return
    a = _as_curve(actual, "actual")
    e = _as_curve(expected, "expected")
    problems: list[str] = []
    if a.shape[1:] != e.shape[1:]:
        raise AssertionError(
            f"curves have different columns: actual has shape {a.shape}, expected {e.shape}"
        )
    n = min(a.shape[0], e.shape[0])
    close = np.isclose(a[:n], e[:n], atol=atol, rtol=rtol, equal_nan=True).all(axis=1)
    bad = np.flatnonzero(~close)
    if a.shape[0] != e.shape[0]:
        problems.append(f"actual has {a.shape[0]} points, expected {e.shape[0]}")
    if not bad.size and not problems:
        return
    header = f"curves differ at {bad.size} of {n} points" if bad.size else "curves differ"
    lines = [f"{header} (atol={atol}, rtol={rtol}):"]
    lines += [f"  {p}" for p in problems]
    table = [("index", "actual", "expected", "max |diff|")]
    for i in bad[:max_rows].tolist():
        with np.errstate(invalid="ignore"):
            diff = np.nanmax(np.abs(a[i] - e[i])) if not np.all(np.isnan(a[i] - e[i])) else float("nan")
        table.append((str(i), _row(a[i]), _row(e[i]), f"{diff:.3g}"))
    for i in range(n, max(a.shape[0], e.shape[0])):
        if len(table) > max_rows:
            break
        table.append(
            (str(i), _row(a[i]) if i < a.shape[0] else "-", _row(e[i]) if i < e.shape[0] else "-", "")
        )
    if len(table) > 1:
        widths = [max(len(r[c]) for r in table) for c in range(4)]
        for r in table:
            lines.append("  " + "  ".join(f"{c:<{w}}" for c, w in zip(r, widths)).rstrip())
    more = bad.size - min(bad.size, max_rows)
    if more:
        lines.append(f"  ... and {more} more")
    raise AssertionError("\n".join(lines))


def _is_band(value: Any) -> bool:
    """A :class:`~scored_pr.CurveBand` (by its fields: estimate, boxes, contains)."""
    return isinstance(getattr(value, "boxes", None), np.ndarray) and callable(getattr(value, "contains", None))


def _assert_in_band(band: Any, expected: np.ndarray, atol: float, rtol: float, max_rows: int) -> None:
    __tracebackhide__ = True
    boxes = np.asarray(band.boxes, dtype=np.float64).reshape(-1, 4)
    if expected.shape[1] != 2:
        raise AssertionError(
            f"a CurveBand holds (x, y) points: expected must have 2 columns; got shape {expected.shape}"
        )
    x, y = expected[:, :1], expected[:, 1:]
    dx, dy = atol + rtol * np.abs(x), atol + rtol * np.abs(y)
    inside = (boxes[:, 0] - dx <= x) & (x <= boxes[:, 1] + dx) & (boxes[:, 2] - dy <= y) & (y <= boxes[:, 3] + dy)
    bad = np.flatnonzero(~inside.any(axis=1))
    if not bad.size:
        return
    lines = [
        f"curve points outside the band at {bad.size} of {expected.shape[0]} points "
        f"({boxes.shape[0]} boxes; atol={atol}, rtol={rtol}):"
    ]
    table = [("index", "expected")] + [(str(i), _row(expected[i])) for i in bad[:max_rows].tolist()]
    width = max(len(r[0]) for r in table)
    lines += ["  " + f"{i:<{width}}  {row}".rstrip() for i, row in table]
    more = bad.size - min(bad.size, max_rows)
    if more:
        lines.append(f"  ... and {more} more")
    raise AssertionError("\n".join(lines))


_POINT_OPS: dict[str, Callable[[float, float], bool]] = {
    "ge": operator.ge, "gt": operator.gt, "le": operator.le, "lt": operator.lt,
}  # fmt: skip
_POINT_SIGNS = {"ge": ">=", "gt": ">", "le": "<=", "lt": "<"}


def assert_operating_point(
    evaluation: Any,
    maximize: str = "recall",
    subject_to: dict[str, float] | None = None,
    confidence: float | None = None,
    *,
    seed: int = 0,
    **bounds: float,
) -> Any:
    """Assert that the threshold chosen under ``subject_to`` exists and meets ``bounds``; return it.

    Chooses the point with ``evaluation.operating_point(maximize, subject_to,
    confidence, seed=seed)`` (any kind that answers it) and checks each
    bound, given as ``FIELD__OP=number`` with FIELD one of threshold,
    precision, recall, f1, fpr, tnr, accepted_fraction, value (the maximized
    measure) and OP one of ge, gt, le, lt. With ``confidence`` the
    constraints are certified on new data (see
    :meth:`~scored_pr.ScoredPrecisionRecallEvaluation.operating_point`), so
    a CI gate passes only when the threshold it ships keeps its constraint
    with that probability.

    Returns
    -------
    Decision
        The chosen point, to ship its threshold.

    Raises
    ------
    AssertionError
        If no threshold meets the constraints, or a bound fails: the
        message shows every bound and the point's value.
    ValueError
        If a bound's keyword is not of the FIELD__OP form, or no bound is given.

    Examples
    --------
    >>> from scored_pr import ScoredPrecisionRecallEvaluation
    >>> from scored_pr.testing import assert_operating_point
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, True, False, True, False], [0.9, 0.8, 0.7, 0.6, 0.5])
    >>> assert_operating_point(ev, "recall", {"precision": 0.7}, recall__ge=0.9).threshold
    0.6
    >>> assert_operating_point(ev, "recall", {"precision": 0.9}, recall__ge=0.9)
    Traceback (most recent call last):
    ...
    AssertionError: 1 of 1 bounds not met at the threshold 0.8 (maximize recall subject to precision >= 0.9):
      field   bound   value
      recall  >= 0.9  0.6666666666666666  FAILED
    """
    func = "assert_operating_point"
    checks = check_point_bounds(bounds, func)
    point = evaluation.operating_point(maximize, subject_to, confidence, seed=seed)
    signs = {"precision": ">=", "recall": ">=", "tnr": ">=", "fpr": "<=", "accepted_fraction": "<="}
    wanted = ", ".join(f"{k} {signs[k]} {v}" for k, v in (subject_to or {}).items()) or "no constraint"
    level = "" if confidence is None else f" at confidence {confidence}"
    if not point.feasible:
        raise AssertionError(
            f"no threshold meets {wanted}{level} (maximize {maximize}); the nearest point has precision "
            f"{point.precision}, recall {point.recall}, fpr {point.fpr}"
        )
    rows, failed = [], 0
    for name, op, limit in checks:
        value = getattr(point, name)
        ok = value is not None and not math.isnan(value) and _POINT_OPS[op](value, limit)
        failed += not ok
        rows.append((name, f"{_POINT_SIGNS[op]} {limit:g}", repr(value), "" if ok else "FAILED"))
    if failed:
        widths = [max(len(r[i]) for r in [("field", "bound", "value", ""), *rows]) for i in range(3)]
        lines = ["  " + "  ".join(c.ljust(w) for c, w in zip(("field", "bound", "value"), widths)).rstrip()]
        lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(r[:3], widths)) + ("  " + r[3] if r[3] else "")
                  for r in rows]  # fmt: skip
        lines = [ln.rstrip() for ln in lines]
        raise AssertionError(
            f"{failed} of {len(rows)} bounds not met at the threshold {point.threshold!r} (maximize {maximize} "
            f"subject to {wanted}{level}):\n" + "\n".join(lines)
        )
    return point
