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

from typing import Any

import numpy as np
import numpy.typing as npt

from ._evaluators.exact import ScoredPrecisionRecallEvaluation
from ._core.kernel import OperatingPoint
from ._validation import check_batch, check_count, check_pos_label, check_ties, check_weights, renamed_keyword

__all__ = [
    "area_under_pr_curve",
    "area_under_roc_curve",
    "average_precision",
    "evaluation",
    "maximum_f_measure",
    "pr_breakeven_point",
    "pr_curve",
    "precision_at",
    "r_precision",
    "recall_at",
    "reciprocal_rank",
    "roc_curve",
    "roc_points",
    "threshold_at_precision",
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
        One weight >= 0 per case, as scikit-learn's ``sample_weight``.
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
    ev._add_checked(correct, scores, weights, func)  # labels already compared with pos_label
    ev.add_misses(misses)
    ev.add_negative_misses(negative_misses)
    return ev


def average_precision(y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None, ties: str = "grouped", misses: int = 0) -> float:
    """Average precision: ``ScoredPrecisionRecallEvaluation.average_precision`` of these cases.

    (1 / P) Σ over correct cases of the precision at that case (grouped: at
    the end of its tie group), P = correct cases + misses. NaN when P is 0.
    LingPipe name: ``averagePrecision()`` (3.9.2 ignores misses here).
    """
    return _evaluation("average_precision", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties, misses=misses).average_precision()


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
) -> float:
    """ROC area: ``ScoredPrecisionRecallEvaluation.area_under_roc_curve`` of these cases.

    Uninterpolated: the probability that a positive case ranks above a
    negative one; grouped ties count a tied correct/incorrect pair one half
    (scikit-learn's ``roc_auc_score``). NaN with one class (no correct or no
    incorrect case, misses and negative misses included). LingPipe name:
    ``areaUnderRocCurve(boolean)``.

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

    Raises
    ------
    TypeError, ValueError
        For bad cases (see :func:`evaluation`), or ``max_fpr`` not in (0, 1],
        ``standardized`` not a bool, or ``interpolate=True`` with ``max_fpr``.

    Examples
    --------
    >>> from scored_pr import area_under_roc_curve
    >>> y, s = [1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]
    >>> area_under_roc_curve(y, s), area_under_roc_curve(y, s, max_fpr=0.5)
    (0.75, 0.6666666666666666)
    >>> area_under_roc_curve(y, s, max_fpr=0.5, standardized=False)
    0.25
    """
    ev = _evaluation("area_under_roc_curve", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties, misses=misses, negative_misses=negative_misses)
    return ev.area_under_roc_curve(interpolate, max_fpr=max_fpr, standardized=standardized)


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


def roc_curve(
    y_true: Any,
    y_score: Any,
    *, pos_label: Any = None, sample_weight: Any = None,
    interpolate: bool = False,
    ties: str = "grouped",
    misses: int = 0,
    negative_misses: int = 0,
) -> npt.NDArray[np.float64]:
    """(recall, rejection recall) rows: ``ScoredPrecisionRecallEvaluation.roc_curve`` (read-only).

    LingPipe's orientation, not scikit-learn's (fpr, tpr). LingPipe name:
    ``rocCurve(boolean)``.
    """
    ev = _evaluation("roc_curve", y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, ties=ties, misses=misses, negative_misses=negative_misses)
    return ev.roc_curve(interpolate)


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
