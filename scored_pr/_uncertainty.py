"""Confidence intervals and comparisons of evaluators (validation and dispatch).

The math is in :mod:`scored_pr._stats`; this module turns an evaluator's
stored cases into the class-wise rank arrays those functions take, validates
the public arguments and picks the method.

Cases are reduced to ranks before any computation: finite scores keep their
order and relevant items never returned (misses) rank below every returned
case. Negative misses tie with the misses under grouped ties (one bottom tie
group, as the evaluator's ROC area defines it) and rank between the returned
cases and the misses under stable ties (a miss is never reached there, so it
contributes nothing), which reproduces the evaluator's areas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import _stats as S
from ._validation import _fail

if TYPE_CHECKING:
    from ._evaluation import ScoredPrecisionRecallEvaluation

METHODS = ("delong", "bootstrap", "logit")

# Measures with a vectorised bootstrap; every other scalar query is
# bootstrapped by re-evaluating the resampled cases one resample at a time.
_VECTORISED = {"area_under_roc_curve": "roc_auc", "average_precision": "average_precision"}


def _ranked(ev: ScoredPrecisionRecallEvaluation) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """(rank scores, correct) for every case, misses included (see module doc)."""
    neg, cor = ev._store.arrays()
    # dense ranks of the returned cases: 2.. (higher score, higher rank)
    _, inv = np.unique(-np.asarray(neg), return_inverse=True)
    ranks = inv.astype(np.float64) + 2.0
    neg_miss_rank = 0.0 if ev.ties == "grouped" else 1.0
    scores = np.concatenate([ranks, np.full(ev.num_negative_misses, neg_miss_rank), np.zeros(ev.num_misses)])
    correct = np.concatenate(
        [np.asarray(cor, dtype=bool), np.zeros(ev.num_negative_misses, bool), np.ones(ev.num_misses, bool)]
    )
    return scores, correct


def check_level(level: Any, func: str) -> float:
    if isinstance(level, bool) or not isinstance(level, (int, float, np.integer, np.floating)) or not (
        0.0 < float(level) < 1.0
    ):
        raise _fail(ValueError, func, "level", "a real number strictly between 0 and 1", level)
    return float(level)


def check_resamples(n: Any, func: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 10:
        raise _fail(ValueError, func, "n_resamples", "an integer >= 10", n)
    return int(n)


def check_method(method: Any, measure: str, func: str) -> str:
    if not isinstance(method, str) or method not in METHODS:
        raise _fail(ValueError, func, "method", "one of " + ", ".join(repr(m) for m in METHODS), method)
    if method == "delong" and measure != "area_under_roc_curve":
        raise _fail(
            ValueError, func, "method", f"'bootstrap' for measure {measure!r} ('delong' is for area_under_roc_curve only)", method
        )
    if method == "logit" and measure != "average_precision":
        raise _fail(
            ValueError, func, "method", f"'bootstrap' for measure {measure!r} ('logit' is for average_precision only)", method
        )
    return method


def _scalar_measure(ev: Any, measure: Any, measure_args: dict[str, Any], func: str) -> float:
    """Evaluate ``measure`` on ``ev``; raises a clear error for unknown or non-scalar queries."""
    from ._evaluation import ScoredPrecisionRecallEvaluation

    names = [n for n in dir(ScoredPrecisionRecallEvaluation) if not n.startswith("_")]
    if not isinstance(measure, str) or measure not in names or not callable(getattr(ev, measure)):
        raise _fail(ValueError, func, "measure", "the name of a scalar query of ScoredPrecisionRecallEvaluation", measure)
    try:
        value = getattr(ev, measure)(**measure_args)
    except TypeError as exc:
        raise TypeError(f"{func}: bad arguments {measure_args!r} for measure {measure!r}: {exc}") from None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise _fail(ValueError, func, "measure", "a query returning one number", measure)
    return float(value)


def partial_auc(ev: ScoredPrecisionRecallEvaluation, interpolate: bool, max_fpr: Any, standardized: Any) -> float:
    """Validated partial ROC area of ``ev`` (see ``area_under_roc_curve``)."""
    func = "area_under_roc_curve"
    if (
        isinstance(max_fpr, bool)
        or not isinstance(max_fpr, (int, float, np.integer, np.floating))
        or not (0.0 < float(max_fpr) <= 1.0)
    ):
        raise _fail(ValueError, func, "max_fpr", "None or a real number in (0, 1]", max_fpr)
    if not isinstance(standardized, (bool, np.bool_)):
        raise _fail(TypeError, func, "standardized", "a bool", standardized)
    if interpolate:
        raise _fail(ValueError, func, "interpolate", "False when max_fpr is given", interpolate)
    scores, correct = _ranked(ev)
    return S.partial_roc_auc(scores[correct], scores[~correct], float(max_fpr), bool(standardized))


def _default_method(measure: str, measure_args: dict[str, Any]) -> str:
    return "delong" if measure == "area_under_roc_curve" and not measure_args else "bootstrap"


def _generic_replicates(
    ev: Any, scores: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_], measure: str,
    measure_args: dict[str, Any], n_resamples: int, seed: int | None,
) -> npt.NDArray[np.float64]:
    # One evaluator per resample, rebuilt from the case counts: used only for
    # measures without a vectorised weighted form (precision_at, max F, ...).
    from ._evaluation import ScoredPrecisionRecallEvaluation

    rng = np.random.default_rng(seed)
    neg, cor = ev._store.arrays()
    s_ret, c_ret = -np.asarray(neg), np.asarray(cor, dtype=bool)
    n_ret = s_ret.size
    pos_idx = np.flatnonzero(correct)
    neg_idx = np.flatnonzero(~correct)
    out = np.empty(n_resamples)
    for b in range(n_resamples):
        counts = np.bincount(pos_idx[rng.integers(0, pos_idx.size, pos_idx.size)], minlength=correct.size) if pos_idx.size else np.zeros(correct.size, np.int64)
        if neg_idx.size:
            counts = counts + np.bincount(neg_idx[rng.integers(0, neg_idx.size, neg_idx.size)], minlength=correct.size)
        r = ScoredPrecisionRecallEvaluation(ties=ev.ties)
        r.add_cases(np.repeat(c_ret, counts[:n_ret]), np.repeat(s_ret, counts[:n_ret]))
        r.add_negative_misses(int(counts[n_ret : n_ret + ev.num_negative_misses].sum()))
        r.add_misses(int(counts[n_ret + ev.num_negative_misses :].sum()))
        out[b] = float(getattr(r, measure)(**measure_args))
    return out


def confidence_interval(
    ev: ScoredPrecisionRecallEvaluation,
    measure: Any = "area_under_roc_curve",
    level: Any = 0.95,
    method: Any = None,
    n_resamples: Any = 2000,
    seed: int | None = None,
    **measure_args: Any,
) -> S.Interval:
    func = "confidence_interval"
    estimate = _scalar_measure(ev, measure, measure_args, func)
    level = check_level(level, func)
    method = check_method(_default_method(measure, measure_args) if method is None else method, measure, func)
    scores, correct = _ranked(ev)
    if method == "delong":
        if measure_args:
            raise _fail(ValueError, func, "method", "'bootstrap' when measure arguments are given", method)
        iv = S.delong_interval(scores[correct], scores[~correct], level)
        return iv._replace(estimate=estimate)
    if method == "logit":
        return S.logit_interval(estimate, ev.num_positive_ref, level)
    n_resamples = check_resamples(n_resamples, func)
    if measure in _VECTORISED and not measure_args:
        reps = S.bootstrap_distribution(scores, correct, _VECTORISED[measure], n_resamples, seed, n_unreturned=ev.num_misses + ev.num_negative_misses)
    else:
        reps = _generic_replicates(ev, scores, correct, measure, measure_args, n_resamples, seed)
    return S.percentile_interval(estimate, reps, level)




_COMPARABLE = ("area_under_roc_curve", "average_precision")


def compare(
    a: Any,
    b: Any,
    c: Any = None,
    *,
    measure: str = "area_under_roc_curve",
    method: str | None = None,
    level: float = 0.95,
    n_resamples: int = 2000,
    seed: int | None = None,
) -> S.Comparison:
    func = "compare"
    if not isinstance(measure, str) or measure not in _COMPARABLE:
        raise _fail(ValueError, func, "measure", "one of " + ", ".join(repr(m) for m in _COMPARABLE), measure)
    if method is None:
        method = "delong" if measure == "area_under_roc_curve" else "bootstrap"
    if method not in ("delong", "bootstrap"):
        raise _fail(ValueError, func, "method", "'delong' or 'bootstrap'", method)
    check_method(method, measure, func)
    level = check_level(level, func)
    from ._evaluation import ScoredPrecisionRecallEvaluation
    from ._validation import check_batch

    if isinstance(a, ScoredPrecisionRecallEvaluation):
        if not isinstance(b, ScoredPrecisionRecallEvaluation) or c is not None:
            raise _fail(TypeError, func, "b", "a ScoredPrecisionRecallEvaluation (unpaired form compare(ev_a, ev_b))", b)
        sa, ca = _ranked(a)
        sb, cb = _ranked(b)
        if method == "delong":
            return S.delong_unpaired(sa[ca], sa[~ca], sb[cb], sb[~cb], level)
        n_resamples = check_resamples(n_resamples, func)
        key = _VECTORISED[measure]
        est_a = float(getattr(a, measure)())
        est_b = float(getattr(b, measure)())
        ss = np.random.SeedSequence(seed)
        seed_a, seed_b = (int(x.generate_state(1)[0]) for x in ss.spawn(2))
        ra = S.bootstrap_distribution(sa, ca, key, n_resamples, seed_a, n_unreturned=a.num_misses + a.num_negative_misses)
        rb = S.bootstrap_distribution(sb, cb, key, n_resamples, seed_b, n_unreturned=b.num_misses + b.num_negative_misses)
        return S.bootstrap_comparison(est_a, est_b, ra, rb, level)
    # paired form compare(correct, scores_a, scores_b)
    correct, scores_a = check_batch(a, b, func)
    _, scores_b = check_batch(a, c, func)
    if not correct.any() or correct.all():
        raise _fail(ValueError, func, "correct", "labels with at least one correct and one incorrect case", a)
    if method == "delong":
        return S.delong_paired(correct, scores_a, scores_b, level)
    n_resamples = check_resamples(n_resamples, func)
    key = _VECTORISED[measure]
    ev_a = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev_a.add_cases(correct, scores_a)
    ev_b = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev_b.add_cases(correct, scores_b)
    reps = S.paired_bootstrap_distribution([scores_a, scores_b], correct, key, n_resamples, seed)
    return S.bootstrap_comparison(float(getattr(ev_a, measure)()), float(getattr(ev_b, measure)()), reps[0], reps[1], level)


__all__ = ["compare", "confidence_interval", "partial_auc"]
