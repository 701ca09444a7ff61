"""One call per measure: ``average_precision(y_true, y_score)`` and friends.

Each function builds a :class:`~scored_pr.ScoredPrecisionRecallEvaluation`,
adds the cases, ``misses`` and ``negative_misses`` with the evaluator's
validation (its error messages name the function you called and its
arguments: ``average_precision: argument 'y_true' ...``), and returns the
evaluator's method of the same name: the definitions, the tie handling
and the values on empty or one-class input are those documented on the
method. Arguments follow scikit-learn's order, ``(y_true, y_score)``; the
tie policy defaults to ``"grouped"``, which reproduces scikit-learn's
``average_precision_score`` and ``roc_auc_score``.

To compute several measures on the same data, build one evaluator instead:
each function here sorts the cases again.

Examples
--------
>>> from scored_pr import average_precision, area_under_roc_curve, precision_at
>>> y_true, y_score = [1, 0, 1, 1, 0], [0.9, 0.8, 0.7, 0.3, 0.2]
>>> round(average_precision(y_true, y_score), 4), round(area_under_roc_curve(y_true, y_score), 4)
(0.8056, 0.6667)
>>> precision_at(y_true, y_score, 2), average_precision(y_true, y_score, misses=1)
(0.5, 0.6041666666666666)
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ._core import multilabel as _ml
from ._evaluators.exact import ScoredPrecisionRecallEvaluation, add_trusted
from ._core.thresholds import OperatingPoint
from ._core.decisions import Decision, NetBenefit
from ._validation import (
    as_array,
    check_average,
    check_batch,
    check_binary_only,
    check_choice,
    check_classes,
    check_count,
    check_flag,
    check_fraction,
    check_indicator,
    check_multiclass_roc,
    check_no_labels,
    check_not_binary_proba,
    check_pos_label,
    check_probability_rows,
    check_same_length,
    check_score_matrix,
    dense_labels,
    check_ties,
    check_top_k,
    check_weights,
    multi_output,
    renamed_keyword,
)

__all__ = [
    "area_under_pr_curve",
    "area_under_roc_curve",
    "average_precision",
    "brier_score",
    "calibration_curve",
    "calibration_slope_intercept",
    "coverage_error",
    "evaluation",
    "expected_calibration_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "log_loss",
    "maximum_f_measure",
    "pr_breakeven_point",
    "pr_curve",
    "precision_at",
    "precision_recall_curve",
    "r_precision",
    "recall_at",
    "reciprocal_rank",
    "reliability_diagram",
    "roc_curve",
    "roc_points",
    "roc_rows",
    "threshold_at_precision",
    "top_k_accuracy_score",
    "sliced",
    "operating_point",
    "min_cost_threshold",
    "net_benefit",
]


def evaluation(
    y_true: Any,
    y_score: Any,
    *,
    ties: str = "grouped",
    pos_label: Any = None,
    sample_weight: Any = None,
    misses: int = 0,
    negative_misses: int = 0,
) -> ScoredPrecisionRecallEvaluation:
    """The evaluator holding these cases: what every function here queries.

    Parameters
    ----------
    y_true : array-like of labels, shape (n,)
        Whether each case is a positive reference (correct): bool, 1 vs 0
        or -1 (any integer or float type), or labels compared with
        ``pos_label``.
    y_score : array-like of float, shape (n,)
        The scores; higher ranks first.
    ties : {"grouped", "stable"}, default "grouped"
        The tie policy (see :class:`~scored_pr.ScoredPrecisionRecallEvaluation`).
    pos_label : str, number or bool, optional
        The positive class's label (e.g. ``"spam"``); see the evaluator.
    sample_weight : array-like of float, shape (n,), optional
        One weight per case, as scikit-learn's ``sample_weight``: 0, or from
        2**-1022 (the smallest normal float64) to 2**970; an int must be
        exactly a float64 (the evaluator's rule).
    misses, negative_misses : int, default 0
        Positive and negative reference cases the system never returned.

    Raises
    ------
    TypeError, ValueError
        As ``ScoredPrecisionRecallEvaluation.add_cases``, ``add_misses`` and
        ``add_negative_misses``, with messages that name ``evaluation`` (or
        the function of this module that was called) and its arguments
        (``y_true``, ``y_score``, ``sample_weight``, ``misses``, ...).
    """
    return _evaluation(
        "evaluation", y_true, y_score, ties, pos_label, sample_weight, misses, negative_misses
    )


def _evaluation(
    func: str,
    y_true: Any,
    y_score: Any,
    ties: Any = "grouped",
    pos_label: Any = None,
    sample_weight: Any = None,
    misses: Any = 0,
    negative_misses: Any = 0,
) -> ScoredPrecisionRecallEvaluation:
    """:func:`evaluation`, its input checked in the name of ``func``, the function the user called.

    Every argument is checked before the evaluator is built, so that an error
    names ``func`` and this module's argument names, not the evaluator's
    ``add_cases: argument 'correct'``.
    """
    ties = check_ties(ties, func)
    pos_label = check_pos_label(pos_label, func)
    correct, scores = check_batch(y_true, y_score, func, pos_label, names=("y_true", "y_score"))
    weights = None if sample_weight is None else check_weights(sample_weight, correct.size, func)
    misses = check_count(misses, func, "misses")
    negative_misses = check_count(negative_misses, func, "negative_misses")
    ev = ScoredPrecisionRecallEvaluation(ties=ties, pos_label=pos_label)
    add_trusted(ev, correct, scores, weights, func)  # labels already compared with pos_label
    ev.add_misses(misses)
    ev.add_negative_misses(negative_misses)
    return ev


def average_precision(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    labels: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    ties: str = "grouped",
    misses: int = 0,
) -> Any:
    """Average precision, of one ranking or averaged over the columns of (n, k) scores.

    Binary (``y_true`` and ``y_score`` of shape (n,)): the evaluator's
    ``ScoredPrecisionRecallEvaluation.average_precision``: (1 / P) Σ over
    correct cases of the precision at that case (grouped: at the end of its
    tie group), P = correct cases + misses. NaN when P is 0. LingPipe name:
    ``averagePrecision()`` (3.9.2 ignores misses here). ``average`` and
    ``labels`` are ignored, as scikit-learn ignores ``average`` there.

    Multi-label (``y_true`` an indicator matrix (n, k)) or multi-class
    (``y_true`` class labels (n,)) with ``y_score`` (n, k): scikit-learn's
    ``average_precision_score``, equal to it on every input it accepts.
    Each column is a binary ranking (multi-class: its class against the
    rest) whose AP is Σ over tie groups (R_g - R_{g-1}) · P_g, ties grouped
    (one threshold per distinct score); a column (or, for ``"samples"``, a
    row) without a positive has AP 0.0 with one warning per call, as
    scikit-learn. ``average``:

    - ``None``: the k per-column values, an array in column order;
    - ``"macro"``: their unweighted mean;
    - ``"weighted"``: their mean weighted by each column's (weighted)
      positives; 0.0 when there is no positive at all;
    - ``"micro"``: AP of the n·k (case, label) pairs ranked together;
    - ``"samples"``: each row's AP over its k labels, averaged with
      ``sample_weight`` (a row without a positive counts 0.0; NaN when
      every weight is 0, where scikit-learn raises ZeroDivisionError).

    ``labels`` (multi-class only): the class of each column, in column
    order (default: the sorted distinct labels of ``y_true``, which must
    number k). One sort covers all k columns (see Notes). ``y_true`` may
    be a scipy.sparse indicator matrix (made dense: scikit-learn refuses
    one here).

    A one-column ``y_true``/``y_score`` (n, 1) is the binary case, as
    scikit-learn reads it: every ``average`` gives the binary value, a
    float (NaN without a positive, where scikit-learn gives 0.0).

    Two score columns with binary labels (n,), a binary classifier's
    ``predict_proba(X)``, are refused (ValueError), as scikit-learn refuses
    them: pass the positive class's column, ``predict_proba(X)[:, 1]``, or
    ``labels=`` to average over both columns as classes.

    Notes
    -----
    Multi-output: O(n k log n) time for one vectorised sort of the (k, n)
    transpose, O(n k) memory; ``ties``, ``misses`` and ``pos_label`` apply to
    the binary case only and must keep their defaults.

    Examples
    --------
    >>> from scored_pr import average_precision
    >>> y = [[1, 0], [0, 1], [1, 1], [0, 0]]
    >>> s = [[0.9, 0.2], [0.4, 0.8], [0.3, 0.6], [0.5, 0.3]]
    >>> average_precision(y, s, average=None).tolist(), average_precision(y, s, average="micro")
    ([0.75, 1.0], 0.8928571428571428)
    >>> average_precision([0, 2, 1, 2], [[0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.3, 0.4, 0.3], [0.1, 0.5, 0.4]])
    0.8333333333333334
    """
    func = "average_precision"
    y_true = dense_labels(y_true)
    multi = multi_output(y_true, y_score, func)
    if multi is not None:
        check_not_binary_proba(*multi, labels, func)
        check_binary_only(func, "scores of shape (n, k)", ties=(ties, "grouped"), misses=(misses, 0))
        if not (pos_label is None or (not isinstance(pos_label, (bool, np.bool_)) and pos_label == 1)):
            check_binary_only(func, "scores of shape (n, k)", pos_label=(pos_label, None))
        average = check_average(average, func, (None, "micro", "macro", "weighted", "samples"))
        truth, scores, weight = _multi_input(func, multi, labels, sample_weight)
        return _averaged(func, _ap_columns, _NO_POSITIVE, truth, scores, weight, average)
    return _evaluation(func, y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties, misses=misses).average_precision()


def area_under_pr_curve(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None, interpolate: bool = False, ties: str = "grouped", misses: int = 0
) -> float:
    """Step area under the PR curve: ``ScoredPrecisionRecallEvaluation.area_under_pr_curve``.

    0.0 with no correct case. LingPipe name: ``areaUnderPrCurve(boolean)``.
    """
    return _evaluation("area_under_pr_curve", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties, misses=misses).area_under_pr_curve(interpolate)


def area_under_roc_curve(
    y_true: Any,
    y_score: Any,
    *, pos_label: Any = None, sample_weight: Any = None,
    interpolate: bool = False,
    ties: str = "grouped",
    misses: int = 0,
    negative_misses: int = 0,
    max_fpr: float | None = None,
    standardized: bool = True,
    average: str | None = "macro",
    multi_class: str = "raise",
    labels: Any = None,
) -> Any:
    """ROC area, of one ranking or averaged over the columns of (n, k) scores.

    Binary (``y_true`` and ``y_score`` of shape (n,)):
    ``ScoredPrecisionRecallEvaluation.area_under_roc_curve`` of these cases.
    Uninterpolated: the probability that a positive case ranks above a
    negative one; grouped ties count a tied correct/incorrect pair one half
    (scikit-learn's ``roc_auc_score``). NaN with one class (no correct or no
    incorrect case, misses and negative misses included). LingPipe name:
    ``areaUnderRocCurve(boolean)``. ``average``, ``multi_class`` and
    ``labels`` are ignored.

    Partial AUC: with ``max_fpr`` in (0, 1], the area for false positive
    rates up to ``max_fpr`` under the curve joining the distinct-score
    operating points (tied pairs count one half whatever ``ties``; misses
    rank below every returned case). ``standardized`` (default) applies
    McClish's correction 0.5 * (1 + (A - max_fpr**2 / 2) / (max_fpr -
    max_fpr**2 / 2)), which equals scikit-learn's ``roc_auc_score(y_true,
    y_score, max_fpr=...)``; ``standardized=False`` gives the raw area
    (pROC's uncorrected partial AUC, at most ``max_fpr``). ``max_fpr=1``
    gives the full area. NaN with one class; ``interpolate`` must be False.
    No LingPipe equivalent.

    Multi-label (``y_true`` an indicator matrix (n, k), ``y_score`` (n, k)):
    scikit-learn's ``roc_auc_score``: each column's ROC AUC (tied pairs one
    half; NaN for a column with one class, with one warning per call, as
    scikit-learn 1.9), averaged by ``average`` as in
    :func:`average_precision` (``"weighted"`` and ``"samples"`` give 0
    weight, and so 0, to a NaN column or row of no weight); ``max_fpr``
    applies to each column (standardized).

    Multi-class (``y_true`` class labels (n,), ``y_score`` (n, k) class
    probabilities whose rows sum to 1, scikit-learn's rule): ``multi_class``
    must be chosen, as in scikit-learn:

    - ``"ovr"``: each class against the rest, a multi-label problem;
      ``average`` None, "macro", "weighted" or "micro";
    - ``"ovo"``: Hand & Till (2001): for each pair of classes present in
      ``y_true``, the mean of A(a|b) (column a separating class a from b)
      and A(b|a); the mean over pairs (``"weighted"``: weighted by the
      pair's share of cases). ``average`` "macro" or "weighted"; no
      ``sample_weight`` (scikit-learn has none either).

    ``labels``: the class of each column (default: the sorted distinct
    classes of ``y_true``, which must number k). ``max_fpr`` must be None
    or 1 for multi-class input. Rows summing to 1 within numpy's
    ``isclose``, or for float16/float32 input within 4 of its type's
    epsilon (scikit-learn sums them in their own type and refuses most
    float16 rows). One-vs-one with fewer than two classes present in
    ``y_true`` (no case at all included) has no pair to average: NaN, for
    both averages (scikit-learn gives NaN for one class and refuses an
    empty input).

    ``y_true`` may be a scipy.sparse indicator matrix (made dense;
    scikit-learn refuses one here). A one-column (n, 1) input is the binary
    case, whatever ``average``, as scikit-learn reads it. Two score columns
    with binary labels (n,) (``predict_proba(X)``) are refused unless
    ``labels=`` says they are classes: pass ``predict_proba(X)[:, 1]``.

    Raises
    ------
    TypeError, ValueError
        For bad cases (see :func:`evaluation`), or ``max_fpr`` not in (0, 1],
        ``standardized`` not a bool, or ``interpolate=True`` with ``max_fpr``;
        for (n, k) scores, a bad ``average`` / ``multi_class`` / ``labels``,
        rows not summing to 1 (multi-class), or a binary-only option
        (``ties``, ``misses``, ``interpolate``, ...) changed.

    Examples
    --------
    >>> from scored_pr import area_under_roc_curve
    >>> y, s = [1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]
    >>> area_under_roc_curve(y, s), area_under_roc_curve(y, s, max_fpr=0.5)
    (0.75, 0.6666666666666666)
    >>> area_under_roc_curve(y, s, max_fpr=0.5, standardized=False)
    0.25
    >>> p = [[0.5, 0.2, 0.3], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.3, 0.4, 0.3], [0.4, 0.4, 0.2]]
    >>> y = [0, 1, 2, 2, 1]
    >>> area_under_roc_curve(y, p, multi_class="ovr"), area_under_roc_curve(y, p, multi_class="ovo")
    (0.9166666666666666, 0.9166666666666666)
    """
    func = "area_under_roc_curve"
    y_true = dense_labels(y_true)
    multi = multi_output(y_true, y_score, func)
    if multi is None:
        ev = _evaluation(func, y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties, misses=misses, negative_misses=negative_misses)
        return ev.area_under_roc_curve(interpolate, max_fpr=max_fpr, standardized=standardized)
    check_not_binary_proba(*multi, labels, func)
    context = "scores of shape (n, k)"
    check_binary_only(
        func, context, pos_label=(pos_label, None), ties=(ties, "grouped"), misses=(misses, 0),
        negative_misses=(negative_misses, 0), interpolate=(interpolate, False), standardized=(standardized, True),
    )
    multi_class = check_choice(multi_class, func, "multi_class", ("raise", "ovr", "ovo"))
    fpr_cap = None if max_fpr is None else check_fraction(max_fpr, func, "max_fpr", low_open=True)
    truth_in, score_in = multi
    if truth_in.ndim == 2 and truth_in.shape[1] >= 2:  # multi-label: an indicator matrix
        average = check_average(average, func, (None, "micro", "macro", "weighted", "samples"))
        truth, scores, weight = _multi_input(func, multi, labels, sample_weight)
        columns = _roc_columns if fpr_cap is None or fpr_cap == 1.0 else _partial_roc(fpr_cap)
        return _averaged(func, columns, _ONE_CLASS, truth, scores, weight, average)
    check_multiclass_roc(func, multi_class, fpr_cap, sample_weight)
    scores = check_score_matrix(score_in, func)
    classes, _ = check_classes(truth_in, scores.shape[1], labels, func)
    check_probability_rows(scores, func, dtype=score_in.dtype)
    if multi_class == "ovo":
        average = check_average(average, func, ("macro", "weighted"))
        check_same_length(classes.size, scores.shape[0], func)
        return _ml.ovo_roc_auc(classes, scores, average == "weighted")
    average = check_average(average, func, (None, "micro", "macro", "weighted"))
    truth, scores, weight = _multi_input(func, multi, labels, sample_weight)
    return _averaged(func, _roc_columns, _ONE_CLASS, truth, scores, weight, average)


def maximum_f_measure(y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None, beta: float = 1.0, ties: str = "grouped", misses: int = 0) -> float:
    """Best F-beta over the PR curve's points: ``ScoredPrecisionRecallEvaluation.maximum_f_measure``.

    0.0 with no correct case. LingPipe name: ``maximumFMeasure(double)``.
    """
    return _evaluation("maximum_f_measure", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties, misses=misses).maximum_f_measure(beta)


def pr_breakeven_point(y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None, ties: str = "grouped", misses: int = 0) -> float:
    """Break-even point: ``ScoredPrecisionRecallEvaluation.pr_breakeven_point``.

    Where precision equals recall: R-precision. NaN when there is no
    positive reference. LingPipe 4.1 name: ``prBreakevenPoint()``.
    """
    return _evaluation("pr_breakeven_point", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties, misses=misses).pr_breakeven_point()


@renamed_keyword("rank", "k")
def precision_at(y_true: Any, y_score: Any, k: int, *, pos_label: Any = None, sample_weight: Any = None, ties: str = "grouped") -> float:
    """Precision over the top ``k`` cases: ``ScoredPrecisionRecallEvaluation.precision_at``.

    NaN when fewer than ``k`` cases are given; grouped ties take the
    expected count of a tie group cut by ``k``. ``k`` is named as in
    :func:`recall_at`; the former keyword ``rank=`` still works with a
    DeprecationWarning. LingPipe name: ``precisionAt(int)``; trec_eval:
    ``P_k`` (which divides by k even when fewer cases were returned).
    """
    return _evaluation("precision_at", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties).precision_at(k)


def recall_at(y_true: Any, y_score: Any, k: int, *, pos_label: Any = None, sample_weight: Any = None, ties: str = "grouped", misses: int = 0) -> float:
    """Recall over the top ``k`` cases: ``ScoredPrecisionRecallEvaluation.recall_at``.

    NaN when there is no positive reference. trec_eval name: ``recall_k``.
    """
    return _evaluation("recall_at", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties, misses=misses).recall_at(k)


def r_precision(y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None, ties: str = "grouped", misses: int = 0) -> float:
    """Precision at rank R = positives: ``ScoredPrecisionRecallEvaluation.r_precision``.

    Absent ranks count as errors; NaN when R is 0. trec_eval name: ``Rprec``.
    """
    return _evaluation("r_precision", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties, misses=misses).r_precision()


def reciprocal_rank(y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None, ties: str = "grouped") -> float:
    """1 / rank of the first correct case: ``ScoredPrecisionRecallEvaluation.reciprocal_rank``.

    0.0 with no correct case. LingPipe name: ``reciprocalRank()``; trec_eval:
    ``recip_rank``.
    """
    return _evaluation("reciprocal_rank", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties).reciprocal_rank()


def pr_curve(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None, interpolate: bool = False, ties: str = "grouped", misses: int = 0
) -> npt.NDArray[np.float64]:
    """(recall, precision) rows: ``ScoredPrecisionRecallEvaluation.pr_curve`` (read-only array).

    LingPipe name: ``prCurve(boolean)``.
    """
    return _evaluation("pr_curve", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties, misses=misses).pr_curve(interpolate)


def roc_rows(
    y_true: Any,
    y_score: Any,
    *, pos_label: Any = None, sample_weight: Any = None,
    interpolate: bool = False,
    ties: str = "grouped",
    misses: int = 0,
    negative_misses: int = 0,
) -> npt.NDArray[np.float64]:
    """(recall, rejection recall) rows: ``ScoredPrecisionRecallEvaluation.roc_curve`` (read-only).

    LingPipe's layout, an (m, 2) array of rows, not scikit-learn's (fpr, tpr,
    thresholds) tuple (that is :func:`roc_curve`). This was the functional
    ``roc_curve`` up to scored_pr 0.1; named for the rows it returns, as
    :func:`pr_curve` returns (recall, precision) rows. LingPipe name:
    ``rocCurve(boolean)``.
    """
    ev = _evaluation("roc_rows", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties, misses=misses, negative_misses=negative_misses)
    return ev.roc_curve(interpolate)


def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """scikit-learn's ROC curve layout: ``(fpr, tpr, thresholds)``, equal to ``sklearn.metrics.roc_curve``.

    One point per distinct score (tied cases share a threshold), highest
    threshold first, after a first point (0, 0) at threshold ``inf``.
    fpr = FP / N and tpr = TP / P counting the (weighted) cases scoring at
    least the threshold; cases of weight 0 are dropped. ``drop_intermediate``
    (default True, as scikit-learn) drops the points collinear with their
    neighbours (they change no area). With no negative, fpr is all NaN; with
    no positive, tpr is all NaN (scikit-learn's values; no warning here).
    For LingPipe's (recall, rejection recall) rows use :func:`roc_rows`
    (the layout this name returned up to scored_pr 0.1) or the evaluator's
    ``roc_curve``.

    Returns
    -------
    fpr, tpr : ndarray of float, shape (m + 1,)
        Non-decreasing, from 0.
    thresholds : ndarray of float, shape (m + 1,)
        Decreasing; ``thresholds[0]`` is ``inf``.

    Examples
    --------
    >>> from scored_pr.functional import roc_curve
    >>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist(), thresholds.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [inf, 0.8, 0.4, 0.35, 0.1])
    """
    truth, scores, weight, drop = _curve_input("roc_curve", y_true, y_score, pos_label, sample_weight, drop_intermediate)
    return _ml.roc_curve(truth, scores, weight, drop)


def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """scikit-learn's PR curve layout: ``(precision, recall, thresholds)``, equal to ``sklearn.metrics.precision_recall_curve``.

    One point per distinct score (grouped ties), lowest threshold first,
    and a last point (precision 1, recall 0) with no threshold. precision =
    TP / (TP + FP) (0 when no weight scores that high), recall = TP / P;
    with no positive, recall is 1 everywhere (scikit-learn's value; no
    warning here). Cases of weight 0 are dropped. ``drop_intermediate``
    drops the points inside a run of equal recall, keeping its two ends.
    For LingPipe's (recall, precision) rows use :func:`pr_curve`.

    Returns
    -------
    precision, recall : ndarray of float, shape (m + 1,)
        Recall non-increasing, ending at 0; precision ends at 1.
    thresholds : ndarray of float, shape (m,)
        Increasing.

    Examples
    --------
    >>> from scored_pr import precision_recall_curve
    >>> precision, recall, thresholds = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> precision.round(4).tolist(), recall.tolist(), thresholds.tolist()
    ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    truth, scores, weight, drop = _curve_input(
        "precision_recall_curve", y_true, y_score, pos_label, sample_weight, drop_intermediate
    )
    return _ml.precision_recall_curve(truth, scores, weight, drop)


def roc_points(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    misses: int = 0,
    negative_misses: int = 0,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(fpr, tpr, thresholds) in scikit-learn's layout: ``ScoredPrecisionRecallEvaluation.roc_points``.

    Equal to ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``
    without misses (the first threshold is ``inf``).
    """
    ev = _evaluation(
        "roc_points", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, misses=misses,
        negative_misses=negative_misses,
    )
    return ev.roc_points()


def threshold_at_precision(y_true: Any, y_score: Any, precision: float, *, pos_label: Any = None, sample_weight: Any = None, misses: int = 0) -> OperatingPoint:
    """The lowest threshold reaching ``precision``: ``ScoredPrecisionRecallEvaluation.threshold_at_precision``."""
    return _evaluation("threshold_at_precision", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, misses=misses).threshold_at_precision(precision)


def operating_point(y_true: Any, y_score: Any, maximize: str = "recall", subject_to: dict[str, float] | None = None, confidence: float | None = None, *, pos_label: Any = None, sample_weight: Any = None, misses: int = 0, seed: int = 0) -> Decision:
    """The threshold of greatest ``maximize`` meeting ``subject_to``: ``ScoredPrecisionRecallEvaluation.operating_point``.

    >>> from scored_pr.functional import operating_point
    >>> operating_point([1, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5], "recall", {"precision": 0.7}).threshold
    0.6
    """
    ev = _evaluation("operating_point", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, misses=misses)
    return ev.operating_point(maximize, subject_to, confidence, seed=seed)


def min_cost_threshold(y_true: Any, y_score: Any, cost_fp: float = 1.0, cost_fn: float = 1.0, gain_tp: float = 0.0, gain_tn: float = 0.0, *, pos_label: Any = None, sample_weight: Any = None, misses: int = 0) -> Decision:
    """The threshold of least expected cost: ``ScoredPrecisionRecallEvaluation.min_cost_threshold``."""
    ev = _evaluation("min_cost_threshold", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, misses=misses)
    return ev.min_cost_threshold(cost_fp, cost_fn, gain_tp, gain_tn)


def net_benefit(y_true: Any, y_score: Any, thresholds: Any = None, *, pos_label: Any = None, sample_weight: Any = None) -> NetBenefit:
    """Net benefit with treat-all and treat-none: ``ScoredPrecisionRecallEvaluation.net_benefit``."""
    return _evaluation("net_benefit", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight).net_benefit(thresholds)


# --- multi-label and multi-class input: one score column per label or class ---------------------

_Columns = Callable[
    [npt.NDArray[np.bool_], npt.NDArray[np.float64], "npt.NDArray[np.float64] | None"],
    "tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]",
]


def _multi_input(
    func: str, multi: tuple[np.ndarray, np.ndarray], labels: Any, sample_weight: Any
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.float64] | None]:
    """Checked (indicator (n, k), scores (n, k), weights (n,) or None) of a multi-output call.

    Class labels (n,) become the indicator matrix of their column (one-vs-rest).
    """
    truth_in, score_in = multi
    scores = check_score_matrix(score_in, func)
    n, k = scores.shape
    if truth_in.ndim == 2 and truth_in.shape[1] >= 2:
        check_no_labels(labels, func)
        truth = check_indicator(truth_in, scores.shape, func)
    else:
        classes, _ = check_classes(truth_in, k, labels, func)
        check_same_length(classes.size, n, func)
        truth = np.zeros((n, k), dtype=bool)
        truth[np.arange(n), classes] = True
    weight = None if sample_weight is None else check_weights(sample_weight, n, func)
    return truth, scores, weight


def _ap_columns(
    truth: npt.NDArray[np.bool_], scores: npt.NDArray[np.float64], weight: npt.NDArray[np.float64] | None
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """Each column's average precision and whether it was undefined (no positive: 0.0)."""
    ap, _, positives, _ = _ml.column_measures(truth, scores, weight)
    return ap, ~(positives > 0)


def _roc_columns(
    truth: npt.NDArray[np.bool_], scores: npt.NDArray[np.float64], weight: npt.NDArray[np.float64] | None
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """Each column's ROC AUC and whether it was undefined (one class: NaN)."""
    _, auc, positives, negatives = _ml.column_measures(truth, scores, weight)
    return auc, ~((positives > 0) & (negatives > 0))


def _partial_roc(max_fpr: float) -> _Columns:
    """Each column's standardized partial ROC AUC up to ``max_fpr`` (and the one-class mask)."""

    def columns(
        truth: npt.NDArray[np.bool_], scores: npt.NDArray[np.float64], weight: npt.NDArray[np.float64] | None
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        g = _ml.group_ends(truth, scores, weight)
        return _ml.partial_roc_auc_columns(g, scores.shape[1], max_fpr), ~((g.positives > 0) & (g.negatives > 0))

    return columns


_NO_POSITIVE = "no positive case: average precision 0.0 there"
_ONE_CLASS = "a single class: ROC AUC NaN there"


def _averaged(
    func: str,
    columns: _Columns,
    undefined_text: str,
    truth: npt.NDArray[np.bool_],
    scores: npt.NDArray[np.float64],
    weight: npt.NDArray[np.float64] | None,
    average: str | None,
) -> Any:
    """scikit-learn's ``_average_binary_score``: a binary measure per column (or row), then averaged.

    "micro" ranks the n·k pairs together (each case's weight repeated k
    times); "samples" scores each row over its k labels and averages with
    the sample weights; "weighted" weights columns by their (weighted)
    positives. A value of average weight 0 counts 0 (so a NaN there does
    not spread), as scikit-learn.
    """
    n, k = scores.shape
    if average == "micro":
        micro_w = None if weight is None else np.repeat(weight, k)
        values, undefined = columns(truth.reshape(-1, 1), scores.reshape(-1, 1), micro_w)
        where = "the pooled (case, label) pairs have"
    elif average == "samples":
        values, undefined = columns(truth.T, scores.T, None)  # each row: a binary ranking of its k labels
        where = f"{int(undefined.sum())} of {n} rows have"
    else:
        values, undefined = columns(truth, scores, weight)
        where = f"{int(undefined.sum())} of {k} label columns have"
    average_weight = _ml.averaging_weights(average, truth, weight)
    if undefined.any() and not _ml.no_positive_to_weigh(average, average_weight):
        warnings.warn(f"{func}: {where} {undefined_text} (scikit-learn's value).", UserWarning, stacklevel=3)
    return _ml.average_label_values(values, average, average_weight)


def _curve_input(
    func: str, y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any, drop_intermediate: Any
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.float64] | None, bool]:
    pos_label = check_pos_label(pos_label, func)
    truth, scores = check_batch(y_true, y_score, func, pos_label, names=("y_true", "y_score"))
    weight = None if sample_weight is None else check_weights(sample_weight, truth.size, func)
    return truth, scores, weight, check_flag(drop_intermediate, func, "drop_intermediate")


def _ranking_input(
    func: str, y_true: Any, y_score: Any, sample_weight: Any
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.float64] | None]:
    scores = check_score_matrix(as_array(y_score, func, "y_score"), func)
    truth = check_indicator(as_array(dense_labels(y_true), func, "y_true"), scores.shape, func)
    weight = None if sample_weight is None else check_weights(sample_weight, scores.shape[0], func)
    return truth, scores, weight


def _mean(values: npt.NDArray[np.float64], weight: npt.NDArray[np.float64] | None) -> float:
    """The (weighted) mean of per-row values; NaN with no row or no weight."""
    total = float(values.size if weight is None else weight.sum())
    if total == 0.0:
        return float("nan")
    return float(np.average(values, weights=weight))


def label_ranking_average_precision_score(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Label ranking average precision: scikit-learn's ``label_ranking_average_precision_score``.

    For each row, its labels ranked by score: the mean over its relevant
    labels j of L_j / rank_j, where rank_j = #{labels l : s_l >= s_j} and
    L_j = #{relevant l : s_l >= s_j} (tied labels count as ranked above
    each other: the pessimistic "max" rank). A row whose labels are all
    relevant or all irrelevant scores 1.0. The result is the mean over rows,
    weighted by ``sample_weight``; NaN with no row (scikit-learn raises).
    One sort of every row at once: O(n k log k).

    Parameters
    ----------
    y_true : array-like of 0/1 or bool, shape (n, k)
        The label indicator matrix; a scipy.sparse matrix too (as
        scikit-learn), made dense.
    y_score : array-like of float, shape (n, k)
    sample_weight : array-like of float, shape (n,), optional

    Examples
    --------
    >>> from scored_pr import label_ranking_average_precision_score
    >>> label_ranking_average_precision_score([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.41666666666666663
    """
    truth, scores, weight = _ranking_input("label_ranking_average_precision_score", y_true, y_score, sample_weight)
    lrap, _, _ = _ml.label_ranking_stats(truth, scores)
    return _mean(lrap, weight)


def coverage_error(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Coverage error: scikit-learn's ``coverage_error``.

    For each row, how far down its ranked labels one must go to cover every
    relevant label: the number of labels scoring at least the lowest-scored
    relevant one (ties count as covered, the pessimistic count); 0 for a
    row with no relevant label. The (weighted) mean over rows; best value
    the mean number of relevant labels. NaN with no row.

    ``y_true`` may be a scipy.sparse matrix (made dense), which
    scikit-learn refuses here. A one-column matrix (k = 1) is answered: a
    row covers its one label (1) when it is relevant, else 0, so the
    result is the (weighted) share of relevant rows; scikit-learn refuses
    it as "binary" input.

    Examples
    --------
    >>> from scored_pr import coverage_error
    >>> coverage_error([[1, 0, 0], [0, 1, 1]], [[1, 0, 0], [0, 1, 1]])
    1.5
    """
    truth, scores, weight = _ranking_input("coverage_error", y_true, y_score, sample_weight)
    _, _, coverage = _ml.label_ranking_stats(truth, scores)
    return _mean(coverage.astype(np.float64), weight)


def label_ranking_loss(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Ranking loss: scikit-learn's ``label_ranking_loss``.

    For each row, the share of (relevant, irrelevant) label pairs that are
    mis-ordered: #{(j, l) : j relevant, l irrelevant, s_l >= s_j} divided by
    (number of relevant) · (number of irrelevant) labels (a tie counts as mis-ordered); 0.0 for a row whose labels
    are all relevant or all irrelevant. The (weighted) mean over rows; NaN
    with no row.

    ``y_true`` may be a scipy.sparse matrix (made dense, as scikit-learn
    takes it). A one-column matrix (k = 1) has no pair of labels in any
    row: 0.0, where scikit-learn refuses it as "binary" input.

    Examples
    --------
    >>> from scored_pr import label_ranking_loss
    >>> label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.75
    """
    truth, scores, weight = _ranking_input("label_ranking_loss", y_true, y_score, sample_weight)
    _, loss, _ = _ml.label_ranking_stats(truth, scores)
    return _mean(loss, weight)


def top_k_accuracy_score(
    y_true: Any, y_score: Any, *, k: int = 2, normalize: bool = True, sample_weight: Any = None, labels: Any = None
) -> float:
    """Top-k accuracy: scikit-learn's ``top_k_accuracy_score``.

    Multi-class (``y_score`` of shape (n, m)): a case is a hit when its true
    class is among the ``k`` highest-scored classes, ties broken as
    scikit-learn does (among equal scores the class of the higher column
    ranks first). Binary (``y_score`` of shape (n,), the score of the second
    class): with ``k=1`` a hit when (score > 0.5 if every score is in [0, 1],
    else score > 0) says the second class exactly when it is the true one;
    with ``k >= 2`` every case is a hit. ``labels``: the class of each
    column (default: the sorted distinct classes of ``y_true``, which must
    number m, or 2 for binary). Returns the (weighted) share of hits, or
    with ``normalize=False`` their (weighted) count. A ``k`` of at least
    the number of classes gives 1.0, with a warning as scikit-learn's.
    NaN with no case (``normalize=True``). Two score columns with binary
    labels are refused unless ``labels=`` says they are classes (pass
    ``predict_proba(X)[:, 1]`` for the binary rule).

    Examples
    --------
    >>> from scored_pr import top_k_accuracy_score
    >>> y_score = [[0.5, 0.2, 0.2], [0.3, 0.4, 0.2], [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]]
    >>> top_k_accuracy_score([0, 1, 2, 2], y_score, k=2), top_k_accuracy_score([0, 1, 2, 2], y_score, k=2, normalize=False)
    (0.75, 3.0)
    """
    func = "top_k_accuracy_score"
    top = check_top_k(k, func)
    normalize = check_flag(normalize, func, "normalize")
    score_in = as_array(y_score, func, "y_score")
    truth_in = as_array(y_true, func, "y_true")
    check_not_binary_proba(truth_in, score_in, labels, func)
    if score_in.ndim == 2 and score_in.shape[1] == 1:
        score_in = score_in[:, 0]
    if score_in.ndim == 1:
        scores = check_score_matrix(score_in[:, None], func)[:, 0]
        classes, _ = check_classes(truth_in, 2, labels, func)
        n_classes = 2
    else:
        matrix = check_score_matrix(score_in, func)
        classes, _ = check_classes(truth_in, matrix.shape[1], labels, func)
        n_classes = matrix.shape[1]
    n = scores.shape[0] if score_in.ndim == 1 else matrix.shape[0]
    check_same_length(classes.size, n, func)
    weight = None if sample_weight is None else check_weights(sample_weight, n, func)
    if top >= n_classes:
        warnings.warn(
            f"{func}: k={top} is at least the number of classes ({n_classes}): every case is a hit (scikit-learn's warning).",
            UserWarning,
            stacklevel=2,
        )
    if score_in.ndim == 1:
        if top == 1:
            threshold = 0.5 if n and scores.min() >= 0 and scores.max() <= 1 else 0.0
            hits = (scores > threshold) == (classes == 1)
        else:
            hits = np.ones(n, dtype=bool)
    else:
        hits = _ml.top_k_hits(classes, matrix, top)
    if normalize:
        return _mean(hits.astype(np.float64), weight)
    return float(hits.sum() if weight is None else np.dot(hits, weight))


def sliced(
    y_true: Any,
    y_score: Any,
    by: Any,
    measures: Any = None,
    sample_weight: Any = None,
    *,
    pos_label: Any = None,
    ties: str = "grouped",
) -> list[dict[str, Any]]:
    """Every measure per slice: the table of a :class:`~scored_pr.SlicedEvaluation` of the cases.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, ties
        As :func:`average_precision`.
    by : dict of str to array-like
        The slicing features, ``{"region": region}``: one column per key,
        of the cases' length (None, NaN and nulls are the missing value).
        The overall slice and each key alone are kept.
    measures : sequence of str, optional
        The summary keys to compute; default every measure of the table.

    Returns
    -------
    list of dict
        :meth:`SlicedEvaluation.table <scored_pr.SlicedEvaluation.table>`:
        one row per slice, the overall slice first, each with its key values,
        cases, positives and measures (NaN for a one-class slice, as each
        measure documents).

    Notes
    -----
    One stable sort of the rows per key, then each slice's evaluator sorts
    its own cases: O(n log n) in all, not a sort per slice and measure.

    Examples
    --------
    >>> from scored_pr import sliced
    >>> rows = sliced([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], by={"region": ["eu", "eu", "us", "us"]},
    ...               measures=["area_under_roc_curve"])
    >>> [(str(r["slice"]), r["area_under_roc_curve"]) for r in rows]
    [('overall', 0.75), ('region=eu', 1.0), ('region=us', 1.0)]
    """
    from ._evaluators.sliced import SlicedEvaluation
    from ._validation.slices import check_by_mapping

    keys = check_by_mapping(by, "sliced")
    ev = SlicedEvaluation(keys, ties=ties, pos_label=pos_label, max_slices=2**31)
    ev.add_cases(y_true, y_score, sample_weight, **dict(by))
    return ev.table(measures)


# ------------------------------------------------------------------ calibration (scores in [0, 1])


def calibration_curve(y_true: Any, y_score: Any, *, n_bins: int = 5, strategy: str = "uniform", pos_label: Any = None, sample_weight: Any = None) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(fraction of positives, mean probability) per non-empty bin: ``ScoredPrecisionRecallEvaluation.calibration_curve``.

    Equal to scikit-learn's ``sklearn.calibration.calibration_curve`` (bins
    (e_i, e_{i+1}], the first closed); ``sample_weight`` as repeated cases.
    ValueError for a probability outside [0, 1].

    >>> from scored_pr import functional as F
    >>> [a.tolist() for a in F.calibration_curve([0, 0, 1, 1], [0.1, 0.4, 0.6, 0.9], n_bins=2)]
    [[0.0, 1.0], [0.25, 0.75]]
    """
    return _evaluation("calibration_curve", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight).calibration_curve(n_bins, strategy)


def expected_calibration_error(y_true: Any, y_score: Any, *, n_bins: int = 15, norm: str = "l1", strategy: str = "uniform", debias: bool = False, pos_label: Any = None, sample_weight: Any = None) -> float:
    """Binned calibration error (l1: ECE, l2, max): ``ScoredPrecisionRecallEvaluation.expected_calibration_error``.

    Bins [e_i, e_{i+1}), the last closed (1.0 in the last bin); torchmetrics'
    ``BinaryCalibrationError`` but for a probability of exactly 1.0, which it
    bins alone. ``debias``: Kumar, Liang & Ma (2019). NaN without a case.

    >>> from scored_pr import functional as F
    >>> round(F.expected_calibration_error([0, 1, 1, 1], [0.2, 0.2, 0.8, 0.8], n_bins=5), 6)
    0.25
    """
    return _evaluation("expected_calibration_error", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight).expected_calibration_error(n_bins, norm, strategy, debias)


def brier_score(y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None) -> float:
    """Mean squared gap between probability and outcome: ``ScoredPrecisionRecallEvaluation.brier_score``.

    Equal to scikit-learn's ``brier_score_loss``. NaN without a case.

    >>> from scored_pr import functional as F
    >>> F.brier_score([1, 0], [0.75, 0.5])
    0.15625
    """
    return _evaluation("brier_score", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight).brier_score()


def log_loss(y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None) -> float:
    """Mean negative log likelihood, probabilities clipped to [eps, 1 - eps]: ``ScoredPrecisionRecallEvaluation.log_loss``.

    Equal to scikit-learn's ``log_loss(..., labels=[0, 1])``. NaN without a case.

    >>> from scored_pr import functional as F
    >>> round(F.log_loss([1, 0], [0.5, 0.5]), 6)
    0.693147
    """
    return _evaluation("log_loss", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight).log_loss()


def reliability_diagram(y_true: Any, y_score: Any, *, confidence: float = 0.9, n_resamples: int = 100, seed: int | None = 0, pos_label: Any = None, sample_weight: Any = None) -> Any:
    """The CORP reliability diagram and Brier decomposition: ``ScoredPrecisionRecallEvaluation.reliability_diagram``.

    >>> from scored_pr import functional as F
    >>> F.reliability_diagram([0, 1, 0, 1], [0.2, 0.4, 0.6, 0.8], n_resamples=0).recalibrated.tolist()
    [0.0, 0.5, 0.5, 1.0]
    """
    return _evaluation("reliability_diagram", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight).reliability_diagram(confidence, n_resamples, seed)


def calibration_slope_intercept(y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None) -> tuple[float, float]:
    """Slope and intercept of the logistic recalibration: ``ScoredPrecisionRecallEvaluation.calibration_slope_intercept``.

    NaN, NaN with one class, one distinct probability or separated classes.
    """
    return _evaluation("calibration_slope_intercept", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight).calibration_slope_intercept()
