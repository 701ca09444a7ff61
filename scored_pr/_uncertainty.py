"""Confidence intervals and comparisons of evaluators (validation and dispatch).

The math is in :mod:`scored_pr._core.stats`; this module turns an evaluator's
stored cases into the class-wise rank arrays those functions take, validates
the public arguments and picks the method.

Cases are reduced to ranks before any computation: finite scores keep their
order and relevant items never returned (misses) rank below every returned
case. Negative misses tie with the misses under grouped ties (one bottom tie
group, as the evaluator's ROC area defines it) and rank between the returned
cases and the misses under stable ties (a miss is never reached there, so it
contributes nothing), which reproduces the evaluator's areas.

The misses (and the negative misses) are tied and interchangeable, so each
kind is one entry with a multiplicity (``counts``), never an array of
``num_misses`` elements: DeLong's variance, the bootstrap draws (a
multinomial share per resample) and the jackknife take the multiplicity, so
time and memory do not grow with the number of misses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ._core import curves as C, points as P, scalars as M
from ._core.ranking import rank_order
from ._core import stats as S
from . import _kinds
from ._measures import INTERVAL_METHODS, MEASURES, comparable_measures, interval_queries, query
from ._validation import (
    check_evaluation,
    check_flag,
    check_level,
    check_resamples,
    check_seed,
    fail,
    measure_arguments_error,
)


METHODS = INTERVAL_METHODS

# Measures with a vectorised bootstrap (scored_pr._measures: ``resampled``); every
# other scalar query is bootstrapped by re-evaluating the resampled cases one
# resample at a time.
_VECTORISED = {m.name: m.resampled for m in MEASURES if m.resampled is not None}


def _ranked(
    ev: Any,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.int64] | None]:
    """(rank scores, correct, counts) of every entry (see module doc).

    The entries are the returned cases (count 1 each), then one entry for the
    negative misses and one for the misses when there are any; ``counts`` is
    None when there are none (every entry is one case). ``ev`` is an exact
    evaluator (the view ``check_evaluation`` gives: only it has ``ranked_cases``).
    """
    returned, cor, _ = ev.ranked_cases()
    return C.ranked_entries(-returned, cor, ev.num_negative_misses, ev.num_misses, ev.ties)


def _unreturned_entries(ev: Any) -> int:
    # entries ranked below every returned case (at most two: negative misses, misses)
    return int(ev.num_negative_misses > 0) + int(ev.num_misses > 0)


def check_method(method: Any, measure: str, func: str) -> str:
    """``method`` if it applies to ``measure`` (the table's ``intervals``), else a ValueError naming why."""
    if not isinstance(method, str) or method not in METHODS:
        raise fail(ValueError, func, "method", "one of " + ", ".join(repr(m) for m in METHODS), method)
    if method not in query(measure).intervals:
        owners = " and ".join(m.name for m in MEASURES if method in m.intervals and m.kind != "count" and not m.args)
        raise fail(
            ValueError, func, "method", f"'bootstrap' or 'bca' for measure {measure!r} ({method!r} is for {owners} only)", method
        )
    return method


#: The queries of ScoredPrecisionRecallEvaluation that ``confidence_interval``
#: accepts by name: every read-only query returning one number (the methods of
#: the measures of scored_pr._measures with an interval). Nothing else is
#: looked up by name, so a mutator (``add_misses``, ``add_cases``, ...) or any
#: other attribute is refused before the evaluator is touched.
SCALAR_MEASURES = interval_queries()


def check_measure(measure: Any, func: str) -> str:
    """``measure`` if it names one of :data:`SCALAR_MEASURES`, else a ValueError naming the choices."""
    if not isinstance(measure, str) or measure not in SCALAR_MEASURES:
        raise fail(ValueError, func, "measure", "one of " + ", ".join(repr(m) for m in SCALAR_MEASURES), measure)
    return measure


def _scalar_measure(ev: Any, measure: Any, measure_args: dict[str, Any], func: str) -> float:
    """Evaluate ``measure`` on ``ev``; raises a clear error for unknown or non-scalar queries."""
    check_measure(measure, func)
    try:
        value = getattr(ev, measure)(**measure_args)
    except TypeError as exc:
        raise measure_arguments_error(func, measure, measure_args, exc) from None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise fail(ValueError, func, "measure", "a query returning one number", measure)
    return float(value)


def _default_method(measure: str, measure_args: dict[str, Any]) -> str:
    # the table's first method; with measure arguments (an interpolated area, k...) a bootstrap
    return query(measure).intervals[0] if not measure_args else "bootstrap"


def check_unweighted(ev: Any, func: str) -> None:
    """Intervals refuse weighted evaluators (see docs/uncertainty.md, "Sample weights")."""
    if ev.weighted:
        raise ValueError(
            f"{func}: confidence intervals and comparisons are not available for an evaluator with sample "
            "weights: how much a weighted measure varies between samples depends on what the weights mean "
            "(a frequency weight stands for repeated cases, an importance weight does not), which the "
            "evaluator cannot know. For frequency weights, add each case as often as its weight "
            "(numpy.repeat) and evaluate without weights."
        )


def _point_estimate(correct: npt.NDArray[np.bool_], scores: npt.NDArray[np.float64], measure: str) -> float:
    """``measure`` ("average_precision" or "area_under_roc_curve") of unweighted cases under grouped ties.

    The value a ``ScoredPrecisionRecallEvaluation(ties="grouped")`` holding
    these cases gives, bit for bit, computed by the kernel directly (this
    module sits below the evaluators and builds none from arrays).
    """
    neg, cor = rank_order(-scores, correct)
    points = P.operating_points(neg, cor, "grouped", None)
    num_pos = int(np.count_nonzero(cor))
    if measure == "average_precision":
        return M.average_precision(points, num_pos)
    num_neg = int(cor.size) - num_pos
    return C.roc_rows_area_exact(C.roc_rows(points, num_pos, num_neg), num_pos, num_neg)


def _evaluate_counts(
    ev: Any, counts: npt.NDArray[np.int64], measure: str, measure_args: dict[str, Any]
) -> float:
    # ``measure`` on the cases of ``ev`` repeated ``counts`` times (counts in
    # the case order of ``_ranked``): a fresh evaluator per call, for measures
    # without a vectorised resampled form (precision_at, maximum F, ...).
    returned, cor, _ = ev.ranked_cases()
    n_ret, nm = len(returned), int(ev.num_negative_misses > 0)  # entries: returned cases, then the miss blocks
    kind = _kinds.kind_of(ev)
    assert kind is not None and kind.new is not None  # check_evaluation gave an exact view
    r = kind.new(ev.ties)  # a fresh evaluator of the same kind
    # the cases are in rank order, so repeated cases keep their tie order
    r.add_cases(np.repeat(np.asarray(cor, dtype=bool), counts[:n_ret]), np.repeat(returned, counts[:n_ret]))
    r.add_negative_misses(int(counts[n_ret : n_ret + nm].sum()))
    r.add_misses(int(counts[n_ret + nm :].sum()))
    return float(getattr(r, measure)(**measure_args))


def _strata(scores: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_], stratified: bool) -> list[npt.NDArray[np.intp]]:
    # case indices of each stratum, in descending score order
    groups = [np.flatnonzero(correct), np.flatnonzero(~correct)] if stratified else [np.arange(correct.size)]
    return [g[np.argsort(-scores[g], kind="stable")] for g in groups if g.size]


def _generic_replicates(
    ev: Any, scores: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_], measure: str,
    measure_args: dict[str, Any], n_resamples: int, seed: int | None, stratified: bool,
    mult: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.float64]:
    rng = np.random.default_rng(seed)
    strata = _strata(scores, correct, stratified)
    out = np.empty(n_resamples)
    for b in range(n_resamples):
        counts = np.zeros(correct.size, dtype=np.int64)
        for idx in strata:
            if mult is None:
                counts[idx] = np.bincount(rng.integers(0, idx.size, idx.size), minlength=idx.size)
            else:  # a block of misses gets its multinomial share (S.draw)
                counts[idx] = S.draw(rng, mult[idx], 1)[0]
        out[b] = _evaluate_counts(ev, counts, measure, measure_args)
    return out


def _generic_jackknife(
    ev: Any, scores: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_], measure: str,
    measure_args: dict[str, Any], stratified: bool, mult: npt.NDArray[np.int64] | None = None,
) -> list[npt.NDArray[np.float64]]:
    full = np.ones(correct.size, dtype=np.int64) if mult is None else mult
    out: list[npt.NDArray[np.float64]] = []
    for idx in _strata(scores, correct, stratified):
        g = max(1, min(int(full[idx].sum()), S.JACKKNIFE_BLOCKS))
        kept = S.jackknife_kept(full[idx], 0, g)
        values = np.empty(g)
        for k in range(g):
            counts = full.copy()
            counts[idx] = kept[k]
            values[k] = _evaluate_counts(ev, counts, measure, measure_args)
        out.append(values)
    return out


def _vectorised_jackknife(
    key: str, scores: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_], ranked: S.Ranked, stratified: bool,
    mult: npt.NDArray[np.int64] | None = None, pos_cases: Any = None, neg_cases: Any = None,
) -> tuple[list[npt.NDArray[np.float64]], list[npt.NDArray[np.int64]] | None]:
    """Jackknife values per stratum and, with multiplicities, how many cases each value stands for."""
    m = int(np.count_nonzero(correct))
    if key == "roc_auc":  # exact leave-one-out from the structural components
        jp, jn = S.jackknife_roc_auc(scores, correct, mult)
        weights = None if mult is None else [mult[correct], mult[~correct]]
        if stratified:
            return [jp, jn], weights
        return [np.concatenate([jp, jn])], None if weights is None else [np.concatenate(weights)]
    draw_counts = None if mult is None else np.r_[mult[pos_cases], mult[neg_cases]]
    values = S.jackknife_measure(key, ranked, m, correct.size - m, stratified, counts=draw_counts)
    return values, None


def _unit_statistic(
    key: str, ranked: S.Ranked, m: int, n: int, mult: npt.NDArray[np.int64] | None = None,
    pos_cases: Any = None, neg_cases: Any = None,
) -> float:
    # the statistic the resamples estimate: every case counted once
    if mult is None:
        wp, wn = np.ones((1, m), np.int64), np.ones((1, n), np.int64)
    else:
        wp, wn = mult[pos_cases][None, :], mult[neg_cases][None, :]
    return float(S.resampled_measure(key, ranked, wp, wn)[0])


def _accel(jack: tuple[list[npt.NDArray[np.float64]], list[npt.NDArray[np.int64]] | None]) -> float:
    return S.acceleration(jack[0], jack[1])


def confidence_interval(
    ev: Any,
    measure: Any = "area_under_roc_curve",
    level: Any = 0.95,
    method: Any = None,
    n_resamples: Any = 2000,
    seed: int | None = None,
    stratified: Any = True,
    *,
    progress: Callable[[int], None] | None = None,
    **measure_args: Any,
) -> S.Interval:
    """Confidence interval of a scalar measure of ``ev``; see ``ScoredPrecisionRecallEvaluation.confidence_interval``.

    ``ev`` is any evaluator that holds its cases: the exact evaluator, a
    :class:`~scored_pr.WindowedEvaluation` (the cases in the window now) or a
    :class:`~scored_pr.SynchronizedEvaluation` (the cases when the call
    began), both read through one ``snapshot()``. A
    :class:`~scored_pr.BoundedEvaluation` raises
    :class:`~scored_pr.UnsupportedQuery`: it keeps bin counts, not the cases
    a resampling needs. ``progress`` (for the command line) is called with
    the number of resamples done, for ROC AUC and average precision.
    """
    func = "confidence_interval"
    _, ev = check_evaluation(ev, func, "evaluation", bounded=NO_CASES, multi=PER_QUERY)
    # every argument is checked before the measure is evaluated
    check_measure(measure, func)
    check_unweighted(ev, func)
    level = check_level(level, func)
    method = check_method(_default_method(measure, measure_args) if method is None else method, measure, func)
    stratified = check_flag(stratified, func, "stratified")
    seed = check_seed(seed, func)
    if method in ("bootstrap", "bca"):
        n_resamples = check_resamples(n_resamples, func)
    estimate = _scalar_measure(ev, measure, measure_args, func)
    scores, correct, mult = _ranked(ev)
    if method == "delong":
        if measure_args:
            raise fail(ValueError, func, "method", "'bootstrap' or 'bca' when measure arguments are given", method)
        cp, cn = (None, None) if mult is None else (mult[correct], mult[~correct])
        iv = S.delong_interval(scores[correct], scores[~correct], level, cp, cn)
        return iv._replace(estimate=estimate)
    if method == "logit":
        return S.logit_interval(estimate, ev.num_positive_ref, level)
    n_unreturned = _unreturned_entries(ev)
    if measure in _VECTORISED and not measure_args:
        key = _VECTORISED[measure]
        reps = S.bootstrap_distribution(
            scores, correct, key, n_resamples, seed, stratified, n_unreturned, counts=mult, progress=progress
        )
        if method == "bootstrap":
            return S.percentile_interval(estimate, reps, level)
        ranked, pos_cases, neg_cases = S.rank_positions(scores, correct, n_unreturned)
        accel = _accel(_vectorised_jackknife(key, scores, correct, ranked, stratified, mult, pos_cases, neg_cases))
        statistic = _unit_statistic(key, ranked, pos_cases.size, neg_cases.size, mult, pos_cases, neg_cases)
        return S.bca_interval(estimate, statistic, reps, accel, level)
    reps = _generic_replicates(ev, scores, correct, measure, measure_args, n_resamples, seed, stratified, mult)
    if method == "bootstrap":
        return S.percentile_interval(estimate, reps, level)
    accel = S.acceleration(_generic_jackknife(ev, scores, correct, measure, measure_args, stratified, mult))
    return S.bca_interval(estimate, estimate, reps, accel, level)


_COMPARABLE = comparable_measures()

NO_CASES = (
    "a bounded summary keeps the weight of each score range, not the cases that a resampling or "
    "DeLong's variance needs; keep an exact ScoredPrecisionRecallEvaluation of the cases (or of a "
    "random sample of them) for intervals and comparisons."
)
PER_QUERY = (
    "intervals are computed per ranking; pass one query's evaluator (evaluation[query]) or pool "
    "the cases into one ScoredPrecisionRecallEvaluation."
)


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
    stratified: bool = True,
    pos_label: Any = None,
) -> S.Comparison:
    """Compare two models: the difference of a measure, its interval and a two-sided test.

    Two forms:

    - ``compare(correct, scores_a, scores_b)``: two models scored on the
      same cases (paired). DeLong's test for correlated ROC curves equals R's
      pROC ``roc.test(paired=TRUE, method="delong")`` (Z and p, tested to
      1e-9); the bootstrap resamples the cases once for both models.
    - ``compare(ev_a, ev_b)``: two evaluators built on different cases
      (unpaired). DeLong's unpaired test equals pROC's
      ``roc.test(paired=FALSE, method="delong")`` (t, its Welch-type degrees
      of freedom and p); the bootstrap resamples each evaluator on its own.

    Parameters
    ----------
    a, b, c
        ``correct, scores_a, scores_b`` (array-likes of one length), or two
        evaluators that hold their cases (``c`` omitted):
        :class:`~scored_pr.ScoredPrecisionRecallEvaluation`,
        :class:`~scored_pr.WindowedEvaluation` or
        :class:`~scored_pr.SynchronizedEvaluation` (read through one
        ``snapshot()`` each, a shared one under its lock).
    measure : {"area_under_roc_curve", "average_precision"}
    method : {None, "delong", "bootstrap", "bca"}
        DeLong (ROC AUC only; its default), percentile bootstrap (the
        default for AP) or BCa bootstrap.
    level : float, default 0.95
        Confidence level of the interval of the difference.
    n_resamples, seed, stratified
        Bootstrap resamples (>= 10), the seed of
        ``numpy.random.default_rng`` (None or a non-negative integer), and
        whether each class is resampled separately (default).
    pos_label : optional
        The label of a correct case in the paired form, as in ``add_cases``.

    Returns
    -------
    Comparison
        ``estimate_a``, ``estimate_b``, ``difference`` (a - b), ``interval``
        (an :class:`~scored_pr.Interval` of the difference), ``statistic``
        (Z; t for unpaired DeLong; for the bootstrap the difference over the
        replicates' standard deviation), ``p_value`` (two-sided), ``method``
        and ``df`` (unpaired DeLong only).

    Raises
    ------
    ValueError, TypeError
        For a measure or method that does not apply, labels without both
        classes, arrays of different lengths, an evaluator with sample
        weights, or a ``seed`` that is not None or a non-negative integer.
    UnsupportedQuery
        For a :class:`~scored_pr.BoundedEvaluation` (it keeps no cases to
        resample) or a :class:`~scored_pr.MultiQueryEvaluation`.

    Notes
    -----
    Ties count one half (grouped ties), whatever the evaluators' tie
    policy. DeLong: O(n log n). Bootstrap: O(n_resamples * n).

    Degenerate cases follow pROC 1.18 and never raise or warn. Paired
    DeLong: a zero variance with equal AUCs (identical models, a monotone
    transform, two perfect rankings) gives Z = 0, p = 1 and the interval
    [0, 0]; a zero variance with different AUCs gives Z = +-inf, p = 0;
    one case of a class gives NaN. Unpaired DeLong: two zero variances, one
    case of a class or a missing class give NaN for t, ``df`` or p.

    Examples
    --------
    >>> from scored_pr import compare
    >>> y = [True, True, False, True, False, False, True, False]
    >>> r = compare(y, [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2], [0.9, 0.2, 0.8, 0.7, 0.3, 0.6, 0.4, 0.5])
    >>> round(r.difference, 4), round(r.p_value, 4), r.method
    (0.25, 0.3545, 'delong')
    """
    func = "compare"
    if not isinstance(measure, str) or measure not in _COMPARABLE:
        raise fail(ValueError, func, "measure", "one of " + ", ".join(repr(m) for m in _COMPARABLE), measure)
    if method is None:
        method = "delong" if measure == "area_under_roc_curve" else "bootstrap"
    if method not in ("delong", "bootstrap", "bca"):
        raise fail(ValueError, func, "method", "'delong', 'bootstrap' or 'bca'", method)
    check_method(method, measure, func)
    level = check_level(level, func)
    stratified = check_flag(stratified, func, "stratified")
    seed = check_seed(seed, func)
    from ._validation import check_batch

    key = _VECTORISED[measure]
    if _kinds.kind_of(a) is not None:
        if _kinds.kind_of(b) is None or c is not None:
            raise fail(
                TypeError, func, "b", "an evaluator like 'a', and no 'c' (unpaired form compare(ev_a, ev_b))",
                b if _kinds.kind_of(b) is None else c,
            )
        _, a = check_evaluation(a, func, "a", bounded=NO_CASES, multi=PER_QUERY)
        _, b = check_evaluation(b, func, "b", bounded=NO_CASES, multi=PER_QUERY)
        check_unweighted(a, func)
        check_unweighted(b, func)
        sa, ca, ma = _ranked(a)
        sb, cb, mb = _ranked(b)
        if method == "delong":
            counts = None
            if ma is not None or mb is not None:
                fa = np.ones(sa.size, np.int64) if ma is None else ma
                fb = np.ones(sb.size, np.int64) if mb is None else mb
                counts = (fa[ca], fa[~ca], fb[cb], fb[~cb])
            return S.delong_unpaired(sa[ca], sa[~ca], sb[cb], sb[~cb], level, counts)
        n_resamples = check_resamples(n_resamples, func)
        est_a = float(getattr(a, measure)())
        est_b = float(getattr(b, measure)())
        ss = np.random.SeedSequence(seed)
        seed_a, seed_b = (int(x.generate_state(1)[0]) for x in ss.spawn(2))
        ua, ub = _unreturned_entries(a), _unreturned_entries(b)
        ra = S.bootstrap_distribution(sa, ca, key, n_resamples, seed_a, stratified, ua, counts=ma)
        rb = S.bootstrap_distribution(sb, cb, key, n_resamples, seed_b, stratified, ub, counts=mb)
        if method == "bootstrap":
            return S.bootstrap_comparison(est_a, est_b, ra, rb, level)
        rka, pa, na = S.rank_positions(sa, ca, ua)
        rkb, pb, nb = S.rank_positions(sb, cb, ub)
        # theta = theta_a - theta_b: a case of b moves theta by minus its own effect
        ja, wa = _vectorised_jackknife(key, sa, ca, rka, stratified, ma, pa, na)
        jb, wb = _vectorised_jackknife(key, sb, cb, rkb, stratified, mb, pb, nb)
        weights = None
        if wa is not None or wb is not None:
            weights = (wa or [np.ones(v.size, np.int64) for v in ja]) + (wb or [np.ones(v.size, np.int64) for v in jb])
        accel = S.acceleration(ja + [-v for v in jb], weights)
        stat = _unit_statistic(key, rka, pa.size, na.size, ma, pa, na) - _unit_statistic(
            key, rkb, pb.size, nb.size, mb, pb, nb
        )
        return S.bootstrap_comparison(est_a, est_b, ra, rb, level, accel, stat)
    # paired form compare(correct, scores_a, scores_b)
    correct, scores_a = check_batch(a, b, func, pos_label)
    _, scores_b = check_batch(a, c, func, pos_label)
    if not correct.any() or correct.all():
        raise fail(ValueError, func, "correct", "labels with at least one correct and one incorrect case", a)
    if method == "delong":
        return S.delong_paired(correct, scores_a, scores_b, level)
    n_resamples = check_resamples(n_resamples, func)
    est_a, est_b = _point_estimate(correct, scores_a, measure), _point_estimate(correct, scores_b, measure)
    reps = S.paired_bootstrap_distribution([scores_a, scores_b], correct, key, n_resamples, seed, stratified)
    if method == "bootstrap":
        return S.bootstrap_comparison(est_a, est_b, reps[0], reps[1], level)
    rka, pos_cases, neg_cases = S.rank_positions(scores_a, correct)
    rkb = S.rank_positions(scores_b, correct, 0, pos_cases, neg_cases)[0]
    ja = _vectorised_jackknife(key, scores_a, correct, rka, stratified)[0]
    jb = _vectorised_jackknife(key, scores_b, correct, rkb, stratified)[0]
    # paired: the same case (block) is left out of both models
    accel = S.acceleration([x - y for x, y in zip(ja, jb)])
    m, n = pos_cases.size, neg_cases.size
    stat = _unit_statistic(key, rka, m, n) - _unit_statistic(key, rkb, m, n)
    return S.bootstrap_comparison(est_a, est_b, reps[0], reps[1], level, accel, stat)


__all__ = ["compare", "confidence_interval"]
