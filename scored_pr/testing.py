"""Assertions for test suites: is a model good enough, did a curve change?

:func:`assert_metrics` checks any number of measures against bounds and, on
failure, shows every measure with its bound and value; :func:`assert_curve_close`
compares two curves point by point and shows the points that differ. Both
raise ``AssertionError``, so they work in pytest, unittest or a plain script.
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

import numbers
import operator
import re
from collections.abc import Mapping
from typing import Any, Callable

import numpy as np

from ._evaluation import ScoredPrecisionRecallEvaluation
from ._report import curve_rows

__all__ = ["assert_metrics", "assert_curve_close", "metric_value"]

_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
    "!=": operator.ne,
}

#: Metrics that take no argument: name -> how to compute it.
_METRICS: dict[str, Callable[[ScoredPrecisionRecallEvaluation], float]] = {
    "num_cases": lambda ev: ev.num_cases,
    "num_positive_ref": lambda ev: ev.num_positive_ref,
    "num_negative_ref": lambda ev: ev.num_negative_ref,
    "num_misses": lambda ev: ev.num_misses,
    "num_negative_misses": lambda ev: ev.num_negative_misses,
    "average_precision": lambda ev: ev.average_precision(),
    "area_under_pr_curve": lambda ev: ev.area_under_pr_curve(False),
    "area_under_pr_curve_interpolated": lambda ev: ev.area_under_pr_curve(True),
    "area_under_roc_curve": lambda ev: ev.area_under_roc_curve(False),
    "area_under_roc_curve_interpolated": lambda ev: ev.area_under_roc_curve(True),
    "maximum_f_measure": lambda ev: ev.maximum_f_measure(),
    "pr_breakeven_point": lambda ev: ev.pr_breakeven_point(),
    "reciprocal_rank": lambda ev: ev.reciprocal_rank(),
    "r_precision": lambda ev: ev.r_precision(),
}
_PRECISION_AT = re.compile(r"precision_at_([1-9][0-9]*)")


def _metric_names() -> str:
    return ", ".join([*_METRICS, "precision_at_<k>"])


def metric_value(evaluation: ScoredPrecisionRecallEvaluation | Mapping[str, Any], name: str) -> float:
    """The value of one named metric of an evaluator (or of a summary dict).

    Parameters
    ----------
    evaluation : ScoredPrecisionRecallEvaluation or mapping
        An evaluator, or a mapping such as ``summary()`` (e.g. one logged
        earlier), looked up by key.
    name : str
        A key of ``summary()`` (``average_precision``, ``area_under_roc_curve``,
        ``num_cases``...), ``num_negative_misses``, or ``precision_at_<k>``
        for any k >= 1.

    Returns
    -------
    float or int

    Raises
    ------
    ValueError
        If ``name`` is not a metric (or not a key of the mapping).
    TypeError
        If ``evaluation`` is neither an evaluator nor a mapping.

    Examples
    --------
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True], [0.9, 0.5, 0.4])
    >>> metric_value(ev, "precision_at_2"), metric_value(ev.summary(), "num_cases")
    (0.5, 3)
    """
    if isinstance(evaluation, ScoredPrecisionRecallEvaluation):
        compute = _METRICS.get(name)
        if compute is not None:
            return compute(evaluation)
        match = _PRECISION_AT.fullmatch(name)
        if match:
            return evaluation.precision_at(int(match.group(1)))
        raise ValueError(f"unknown metric {name!r}; expected one of {_metric_names()}")
    if isinstance(evaluation, Mapping):
        if name not in evaluation:
            raise ValueError(f"unknown metric {name!r}; the mapping has {', '.join(map(str, evaluation))}")
        return evaluation[name]  # type: ignore[no-any-return]
    raise TypeError(
        "argument 'evaluation' must be a ScoredPrecisionRecallEvaluation or a mapping of metric values; "
        f"got {evaluation!r:.80} ({type(evaluation).__name__}) instead."
    )


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _bound_check(name: str, bound: Any) -> tuple[str, Callable[[Any], bool]]:
    """(how to print the bound, predicate on the value)."""
    if _is_number(bound):  # a plain number is a lower bound
        return f">= {bound!r}", lambda v: v >= bound
    if isinstance(bound, tuple) and len(bound) == 2 and isinstance(bound[0], str):
        op, limit = bound
        if op not in _OPERATORS or not _is_number(limit):
            raise ValueError(
                f"assert_metrics: the bound of {name!r} must be a number, an (operator, number) pair with "
                f"operator one of {', '.join(_OPERATORS)}, or an object compared with == such as "
                f"pytest.approx(...); got {bound!r} instead."
            )
        compare = _OPERATORS[op]
        return f"{op} {limit!r}", lambda v: bool(compare(v, limit))
    if isinstance(bound, (str, bytes, tuple, list, dict, set, type(None), bool, np.bool_)):
        raise ValueError(
            f"assert_metrics: the bound of {name!r} must be a number, an (operator, number) pair with "
            f"operator one of {', '.join(_OPERATORS)}, or an object compared with == such as "
            f"pytest.approx(...); got {bound!r} instead."
        )
    # anything else: equality with the object itself (pytest.approx, a custom matcher)
    return f"== {bound!r}", lambda v: bool(bound == v)


def _show_value(value: Any) -> str:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return str(int(value))
    return repr(float(value))


def _counts(evaluation: Any) -> str:
    try:
        n, p = metric_value(evaluation, "num_cases"), metric_value(evaluation, "num_positive_ref")
    except (ValueError, TypeError):
        return ""
    return f" ({n} cases, {p} positive)"


def assert_metrics(evaluation: ScoredPrecisionRecallEvaluation | Mapping[str, Any], **bounds: Any) -> None:
    """Assert that every named metric meets its bound; show them all if one does not.

    Parameters
    ----------
    evaluation : ScoredPrecisionRecallEvaluation or mapping
        An evaluator, or a ``summary()`` dict.
    **bounds
        ``metric=bound`` for any metric of :func:`metric_value`. A bound is

        - a number: the metric must be at least that (``>=``);
        - a pair ``(operator, number)`` with operator one of ``>=``, ``>``,
          ``<=``, ``<``, ``==``, ``!=``: e.g. ``("<=", 0.2)``;
        - any other object, compared with ``==``: ``pytest.approx(0.83,
          abs=1e-3)`` for a value within a tolerance.

        NaN (an undefined metric, e.g. ``precision_at_100`` with fewer than
        100 cases) meets no bound except ``("!=", x)``.

    Raises
    ------
    AssertionError
        If a metric misses its bound. The message is a table of every metric
        checked, its bound and its value, the failing ones marked ``FAILED``.
    ValueError
        If a name is not a metric or a bound is malformed (never an
        AssertionError: a typo is not a model failure).

    Notes
    -----
    Metrics are computed once each (the evaluator caches them); checking
    every bound before failing shows the whole picture in one run.

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
    """
    __tracebackhide__ = True
    if not bounds:
        raise ValueError("assert_metrics: give at least one metric=bound.")
    rows: list[tuple[str, str, str, bool]] = []
    for name, bound in bounds.items():
        shown, ok = _bound_check(name, bound)
        value = metric_value(evaluation, name)
        rows.append((name, shown, _show_value(value), ok(value)))
    failed = sum(1 for r in rows if not r[3])
    if not failed:
        return
    headers = ("metric", "bound", "value")
    widths = [max(len(h), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    lines = [f"{failed} of {len(rows)} metric bounds not met{_counts(evaluation)}:"]
    lines.append("  " + "  ".join(f"{h:<{w}}" for h, w in zip(headers, widths)).rstrip())
    for name, shown, value_text, passed in rows:
        cells = "  ".join(f"{c:<{w}}" for c, w in zip((name, shown, value_text), widths))
        lines.append(f"  {cells}  {'ok' if passed else 'FAILED'}")
    raise AssertionError("\n".join(lines))


def _as_curve(curve: Any, name: str) -> np.ndarray:
    return curve_rows(curve, "assert_curve_close", name)


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
        ``pr_score_curve()``, or lists of rows.
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
