"""The checks of evaluators: which kind a consumer was handed, evaluators combined, each kind's setup.

:func:`evaluation_kind` and :func:`check_evaluation` for the consumers
(testing, plot, the summary logger and sinks, intervals); the checks of a
second evaluator (merged, wrapped, a logger's window); a window's extent and
clock, a bounded summary's tie policy, a multi-query evaluation's query ids
and measures; the error of a writer called on a read-only evaluator.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from .. import _kinds
from .errors import UnsupportedQuery, clipped, fail
from .options import check_beta, check_positive_int


def read_only_evaluation(kind: str, method: str) -> TypeError:
    """The error of a writer (``add_case``, ``reset``...) called on a read-only evaluator."""
    return TypeError(
        f"{kind}.{method}: this evaluator is read-only (one label's evaluator of a MultiLabelEvaluation, "
        "or one slice's of a SlicedEvaluation, which answers every query for it); add to the "
        "MultiLabelEvaluation or SlicedEvaluation itself, or take a writable snapshot with copy.copy(view)."
    )


def check_clock(value: Any, func: str) -> Any:
    """A window's ``clock``: a callable returning the time, or None."""
    if value is not None and not callable(value):
        raise fail(TypeError, func, "clock", "a callable returning the time, or None", value)
    return value


def check_instance(value: Any, cls: type | tuple[type, ...], func: str, name: str, expected: str) -> Any:
    """``value`` if it is an instance of ``cls`` (or None); TypeError naming ``expected`` otherwise."""
    if value is not None and not isinstance(value, cls):
        raise TypeError(f"{func}: argument '{name}' must be {expected}; got {clipped(value, 80)} instead.")
    return value


def check_type_named(value: Any, cls: type, func: str, name: str, expected: str) -> Any:
    """``value`` if it is an instance of ``cls``; TypeError naming only the type received otherwise."""
    if not isinstance(value, cls):
        raise TypeError(f"{func}: argument '{name}' must be {expected}; got {type(value).__name__} instead.")
    return value


def check_grouped_for_bins(ties: str, func: str) -> None:
    """A bounded summary (``max_bins``) keeps no insertion order: only grouped ties."""
    if ties != "grouped":
        raise ValueError(f"{func}: argument 'ties' must be 'grouped' with max_bins (a bounded summary keeps no "
                         f"insertion order, which the 'stable' policy needs); got {ties!r} instead.")


def check_curve_average(value: Any, func: str) -> Any:
    """A multi-label curve's ``average``: None (one curve per label) or ``"micro"``."""
    if value is not None and value != "micro":
        raise fail(ValueError, func, "average", "None (one curve per label) or 'micro' (the pooled ranking's curve)", value)
    return value


def check_same_setup(mine: tuple[Any, ...], theirs: tuple[Any, ...], func: str, name: str, what: str) -> None:
    """Two evaluators combined must agree on ``what``: ValueError showing both otherwise."""
    if mine != theirs:
        raise ValueError(f"{func}: argument '{name}' must have the same {what} {mine!r:.200}; got {theirs!r:.200} instead.")


def check_same_pos_label(pos_label: Any, expected: Any, func: str, name: str) -> None:
    """A second evaluator (a logger's ``window``) with the first one's ``pos_label``.

    Otherwise a label could be accepted by one and rejected by the other.
    """
    if pos_label != expected:
        raise ValueError(
            f"{func}: argument '{name}' must have the evaluation's pos_label ({expected!r}); "
            f"got pos_label={pos_label!r} instead."
        )


def check_window_extent(size: Any, seconds: Any, func: str) -> tuple[int | None, float | None]:
    """A window's ``size`` (an int >= 1) or ``seconds`` (> 0): exactly one of them."""
    if (size is None) == (seconds is None):
        raise ValueError(
            f"{func}: give exactly one of 'size' (the last N cases) and 'seconds' (the last T seconds); "
            f"got size={size!r:.40} and seconds={seconds!r:.40} instead."
        )
    return (
        None if size is None else check_positive_int(size, func, "size"),
        None if seconds is None else check_beta(seconds, func, "seconds"),
    )


def check_query_id(value: Any, func: str, name: str = "query") -> Any:
    """A query id: a str or an int (a numpy integer becomes an int)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (str, int, np.integer)):
        raise TypeError(
            f"{func}: argument '{name}' must be a query id (str or int); got {value!r:.60} ({type(value).__name__}) instead."
        )
    return int(value) if isinstance(value, np.integer) else value


#: The mutators of an evaluator, which ``per_query`` refuses to call.
_MUTATORS = ("add_case", "add_cases", "add_misses", "add_negative_misses", "merge", "save")


def check_measure_method(name: Any, cls: type, func: str) -> str:
    """The name of a public measure method of ``cls`` (not a mutator)."""
    if not isinstance(name, str) or name.startswith("_") or not callable(getattr(cls, name, None)):
        raise ValueError(
            f"{func}: argument 'name' must name a measure method of {cls.__name__}; got {name!r:.60} instead."
        )
    if name in _MUTATORS:
        raise ValueError(f"{func}: argument 'name' must name a measure, not the mutator {name!r}.")
    return name


def check_no_relevant(value: Any, func: str) -> str:
    """What a mean over queries does with a query without relevant cases: 'zero' or 'skip'."""
    if value not in ("zero", "skip"):
        raise ValueError(f"{func}: argument 'no_relevant' must be 'zero' or 'skip'; got {value!r} instead.")
    return cast(str, value)


def check_same_ties(ties: str, own: str, func: str, name: str = "other") -> None:
    """A second evaluator (merged into this one) with this one's tie policy."""
    if ties != own:
        raise ValueError(
            f"{func}: argument '{name}' must use the same tie policy; got ties={ties!r} for ties={own!r} instead."
        )


_EVALUATION_EXPECTED = (
    "a ScoredPrecisionRecallEvaluation, WindowedEvaluation, BoundedEvaluation or SynchronizedEvaluation "
    "(an evaluator: any object with the queries of scored_pr.Evaluation)"
)

#: What a consumer of every kind (``SummaryLogger``) expects.
EVERY_KIND_EXPECTED = (
    "an evaluator of any kind: ScoredPrecisionRecallEvaluation, WindowedEvaluation, BoundedEvaluation, "
    "SynchronizedEvaluation, MultiQueryEvaluation or MultiLabelEvaluation (or any object with the queries of "
    "scored_pr.Evaluation)"
)

_PER_LABEL = ("it holds one ranking per label; pass evaluation[label] for one label, or evaluation.pooled() for "
              "the micro-averaged ranking of every (row, label) pair")


_PER_SLICE = ("it holds one evaluator per slice; pass evaluation.slice(key=value) for one slice, or "
              "evaluation.overall for every case")


def evaluation_kind(value: Any) -> str | None:
    """What evaluator ``value`` holds, from the registry of kinds (``scored_pr._kinds``).

    ``"ranking"``: one ranking answered exactly (the exact evaluator, a
    window, a shared evaluator, or any object satisfying
    ``scored_pr.Evaluation``); ``"bounded"``: a summary with certified
    bounds; ``"per_query"``: one ranking per query; ``"per_label"``: one
    ranking per label (``scored_pr._kinds.HOLDS``). None for anything else.
    """
    kind = _kinds.kind_of(value)
    return None if kind is None else kind.holds


def check_evaluation(
    value: Any,
    func: str,
    name: str = "evaluation",
    *,
    bounded: str | None = None,
    multi: str | None = None,
    per_label: str | None = _PER_LABEL,
    per_slice: str | None = _PER_SLICE,
    expected: str = _EVALUATION_EXPECTED,
    snapshot: bool = True,
) -> tuple[str, Any]:
    """(kind, view) of an evaluator handed to ``func``; the view answers every query of one moment.

    A kind with a ``snapshot()`` (:class:`scored_pr.WindowedEvaluation`,
    :class:`scored_pr.SynchronizedEvaluation`, which takes it under its lock)
    is read through one snapshot, so that every number a consumer reads comes
    from the same cases (a time window can otherwise slide between two
    queries, another thread add cases). Every other kind is its own view.

    ``bounded`` / ``multi`` / ``per_label``: None when ``func`` serves that
    kind (one bounded ranking, one ranking per query, one per label), otherwise
    why it cannot and what to use instead (``per_label`` says so by default); that kind then raises
    :class:`UnsupportedQuery` with the reason. Anything that is not an
    evaluator raises TypeError (``expected`` says what would do). Nothing is
    read or changed before the checks. ``snapshot=False``: the view is
    ``value`` itself (for a consumer that feeds the evaluator).
    """
    kind = _kinds.kind_of(value)
    if kind is None:
        raise fail(TypeError, func, name, expected, value)
    reason = {"bounded": bounded, "per_query": multi, "per_label": per_label, "per_slice": per_slice}.get(kind.holds)
    if reason is not None:
        raise UnsupportedQuery(f"{func}: {type(value).__name__} is not supported here: {reason}")
    if snapshot and kind.snapshot:
        return kind.holds, value.snapshot()
    return kind.holds, value
