"""Score thresholds: the cut-offs at each distinct score, the confusion counts at a threshold, and choosing a threshold.

Pure functions of the ranked arrays (:func:`threshold_cutoffs`) and the reference counts.
"""

from __future__ import annotations

import bisect
import operator

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .curves import precision, recall
from .scalars import correct_needed, f_beta
from .points import BoolArray, FloatArray, IntArray, class_weights, group_ends, side_scale


class OperatingPoint(NamedTuple):
    """A score threshold and what accepting every case scored at or above it gives.

    All fields are NaN (and ``k`` is 0) when no threshold meets the request.
    """

    threshold: float  #: accept every case whose score is >= threshold
    precision: float
    recall: float
    k: int  #: number of cases accepted


class Cutoffs(NamedTuple):
    """Every threshold cut-off: one per distinct score, in descending score order."""

    score: FloatArray  #: the threshold: accept every case with score >= it
    retrieved: IntArray  #: number of cases accepted
    tp: npt.NDArray[Any]  #: correct cases (weight) accepted
    fp: npt.NDArray[Any]  #: incorrect cases (weight) accepted


def threshold_cutoffs(neg_scores: FloatArray, correct: BoolArray, weight: FloatArray | None = None) -> Cutoffs:
    ends = group_ends(neg_scores)
    if not ends.size:
        empty = np.zeros(0, dtype=np.int64)
        return Cutoffs(np.zeros(0), empty, empty, empty)
    if weight is None:
        tp_count = np.cumsum(correct, dtype=np.int64)[ends - 1]
        return Cutoffs(-neg_scores[ends - 1], ends, tp_count, ends - tp_count)
    cp, cn = class_weights(correct, weight)
    tp, fp = cp[ends - 1], cn[ends - 1]
    # A score held only by cases of weight 0 is no threshold (scikit-learn drops such cases).
    total = tp + fp
    keep = total > np.concatenate(([0.0], total[:-1]))
    return Cutoffs(-neg_scores[ends[keep] - 1], ends[keep], tp[keep], fp[keep])


class Confusion(NamedTuple):
    """The confusion counts of accepting every case scored at or above a threshold.

    Sums of sample weights when the evaluator is weighted (misses weigh 1
    each); ints otherwise. A :class:`~scored_pr.BoundedEvaluation` gives each
    field as a :class:`~scored_pr.Bounds`.
    """

    tp: Any  #: correct cases accepted (true positives)
    fp: Any  #: incorrect cases accepted (false positives)
    tn: Any  #: incorrect cases rejected, negative misses included (true negatives)
    fn: Any  #: correct cases rejected, misses included (false negatives)


Confusion.__module__ = "scored_pr"


def confusion_at_threshold(
    cut: Cutoffs, threshold: float, num_positive_ref: int | float, num_negative_ref: int | float
) -> Confusion:
    """TP, FP, TN, FN of accepting every case with score >= ``threshold``.

    ``cut`` holds the cumulative counts at every distinct score (descending),
    so the accepted cases are those of the cut-offs whose score is >=
    ``threshold``: a whole tie group is on one side. Cases never returned
    (misses, negative misses) are in the reference counts and never
    accepted, so they count as FN and TN. O(log d) for d distinct scores.
    """
    # scores descending: the cut-offs with score >= threshold are a prefix, found by bisection on
    # the negated scores read one at a time (negating the whole array would make each query O(d))
    i = bisect.bisect_right(cut.score, -threshold, key=operator.neg)
    if i == 0:
        tp: int | float = 0 if cut.tp.dtype.kind == "i" else 0.0
        fp: int | float = tp
    else:
        tp, fp = cut.tp[i - 1].item(), cut.fp[i - 1].item()
    return Confusion(tp, fp, num_negative_ref - fp, num_positive_ref - tp)


def _operating_point(cut: Cutoffs, num_positive_ref: int | float, i: int | None) -> OperatingPoint:
    if i is None:
        nan = float("nan")
        return OperatingPoint(nan, nan, nan, 0)
    tp, fp = cut.tp[i], cut.fp[i]
    rec = float(tp / num_positive_ref) if num_positive_ref else float("nan")
    return OperatingPoint(float(cut.score[i]), float(tp / (tp + fp)), rec, int(cut.retrieved[i]))


def _cut_precision(cut: Cutoffs) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):  # 0/0 only for all-zero weights
        return cut.tp / (cut.tp + cut.fp).astype(np.float64)


def threshold_at_precision(cut: Cutoffs, num_positive_ref: int | float, target: float) -> OperatingPoint:
    """The lowest threshold whose precision is >= target (so the highest recall there)."""
    with np.errstate(invalid="ignore"):
        ok = np.flatnonzero(_cut_precision(cut) >= target) if cut.tp.size else cut.tp
    return _operating_point(cut, num_positive_ref, int(ok[-1]) if ok.size else None)


def threshold_at_recall(cut: Cutoffs, num_positive_ref: int | float, level: float) -> OperatingPoint:
    """The highest threshold whose recall is >= level.

    Weighted or not, recall is compared as the curves and the returned
    point report it: the float64 value of tp / num_positive_ref >= level
    (unweighted in O(log n) through :func:`correct_needed`; weighted, tp is
    already a float64 sum and the recalls are compared directly, O(n)). An
    integer weight k then gives what k copies give, and the recall of a
    curve row passed back selects that row.
    """
    if num_positive_ref == 0 or cut.tp.size == 0:
        return _operating_point(cut, num_positive_ref, None)
    if cut.tp.dtype.kind == "f":
        recall = cut.tp / np.float64(num_positive_ref)  # non-decreasing: the first row reaching level
        i = int(np.searchsorted(recall, level, side="left"))
        return _operating_point(cut, num_positive_ref, i if i < recall.size else None)
    needed = correct_needed(level, int(num_positive_ref))
    if needed > cut.tp[-1]:
        return _operating_point(cut, num_positive_ref, None)
    return _operating_point(cut, num_positive_ref, int(np.searchsorted(cut.tp, needed)))


def maximum_f_measure_threshold(cut: Cutoffs, num_positive_ref: int | float, beta: float) -> OperatingPoint:
    """The threshold with the greatest F-beta (the highest such threshold on a tie)."""
    if num_positive_ref == 0 or cut.tp.size == 0 or cut.tp[-1] == 0:
        return _operating_point(cut, num_positive_ref, None)
    r = cut.tp / np.float64(num_positive_ref)
    p = _cut_precision(cut)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.nan_to_num(f_beta(r, p, beta), nan=0.0)
    return _operating_point(cut, num_positive_ref, int(np.argmax(f)))


def f_measure(tp: float, retrieved: int | float, num_positive_ref: int | float, beta: float) -> float:
    """(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP); NaN for 0/0."""
    b2 = beta * beta
    fn = num_positive_ref - tp
    fp = retrieved - tp
    big = max(num_positive_ref, retrieved)
    if not 2.0**-500 < big < 2.0**500 and big > 0:
        # weight sums far from 1: F is a ratio of terms of degree one in the weights, so
        # scaling them by a power of two (exact) changes nothing but keeps (1 + b^2) TP
        # from overflowing and b^2 FN from losing bits
        s = side_scale(float(big))
        tp, fn, fp = tp * s, fn * s, fp * s
    if b2 > 1e250:  # (1 + b^2) * tp could overflow: divide through by b^2 (the limit is recall)
        c = (1.0 / beta) ** 2
        den = (c + 1.0) * tp + fn + c * fp
        return (c + 1.0) * tp / den if den else float("nan")
    den = (1.0 + b2) * tp + b2 * fn + fp
    return (1.0 + b2) * tp / den if den else float("nan")


# OperatingPoint and Confusion report the public module (pickles, reprs); __test__ keeps the
# doctests of the classes collected from this file.
OperatingPoint.__module__ = "scored_pr"
__test__ = {"OperatingPoint": OperatingPoint, "Confusion": Confusion}
