"""The functional core: every curve and scalar from ranked numpy arrays.

Nothing here keeps state, validates user input or imports sortedcontainers.
The input is always the same pair of arrays, in rank order:

``neg_scores``
    float64, the *negated* scores in ascending order, so rank 1 (the highest
    score) comes first; cases with equal scores are already in the order the
    tie policy wants (insertion order for the stable policy).
``correct``
    bool, whether the case at that rank is correct (a positive reference).

plus the reference counts ``num_positive_ref`` (correct cases + misses) and
``num_negative_ref`` (incorrect cases + negative misses).

One routine, :func:`operating_points`, turns these into the cut-offs at which
the curves have a point and the true/false positive counts there; every curve
and scalar is derived from its result. Counts stay integers; ratios are
float64. Sums that LingPipe computes in a loop are computed with a sequential
cumulative sum (not numpy's pairwise ``sum``) so that the rounding is the same
as a left-to-right loop.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


def _compact(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Non-negative int64 counts stored as int32 when they fit (half the memory)."""
    if a.size and a[-1] < 2**31 - 1:
        return a.astype(np.int32)
    return a


class Points:
    """Operating points of a ranking: one per cut-off that adds a correct case.

    With ``ties="stable"`` there is one cut-off after every case, and a point
    after every correct case. With ``ties="grouped"`` there is one cut-off
    after every group of equal scores, and a point after every group that
    contains at least one correct case.

    With sample weights every count is a sum of weights (float64), and a
    point needs correct weight > 0 (a correct case of weight 0 adds no point).

    The fields read like arrays but only a compact core is kept, so that an
    evaluator can hold its points between queries cheaply: the ranks of the
    correct cases (stable) or the cut-off and true positive count of each
    point (grouped), as int32 when they fit; every other field is derived
    from it and the ranking's scores when read (O(P) or O(P log n), P points).
    Sample weights, and :func:`every_rank`, keep every field.

    Grouped points of scores with scattered ties (a few small tie groups,
    as float32 scores have) also keep ``_tied``, the indices of the few
    points whose tie group holds more than one case, and ``_tied_start``,
    the first rank of each one's group, and no true positive counts when
    every point adds one correct case: the other points read as untied ones
    do, and only those few are patched.
    """

    __slots__ = (
        "grouped", "total_tp", "total_fp", "neg_scores", "untied",
        "_idx", "_ret", "_tp", "_fp", "_fp_before", "_neg_score", "_tied", "_tied_start",
    )  # fmt: skip

    grouped: bool  #: whether cut-offs fall only at the ends of tie groups
    total_tp: int | float  #: correct cases (weight) returned
    total_fp: int | float  #: incorrect cases (weight) returned
    neg_scores: FloatArray  #: the ranking's negated scores (shared, not copied)
    untied: bool  #: no correct case shares its score with another case (grouped points are then the stable ones)

    def __init__(
        self,
        neg_scores: FloatArray,
        grouped: bool,
        total_tp: int | float,
        total_fp: int | float,
        *,
        correct_idx: npt.NDArray[Any] | None = None,
        retrieved: npt.NDArray[Any] | None = None,
        tp: npt.NDArray[Any] | None = None,
        fp: npt.NDArray[Any] | None = None,
        fp_before: npt.NDArray[Any] | None = None,
        neg_score: FloatArray | None = None,
        untied: bool = False,
        tied: IntArray | None = None,
        tied_start: IntArray | None = None,
    ) -> None:
        self.neg_scores, self.grouped, self.total_tp, self.total_fp = neg_scores, grouped, total_tp, total_fp
        self.untied, self._tied, self._tied_start = untied, tied, tied_start
        self._idx, self._ret, self._tp, self._fp = correct_idx, retrieved, tp, fp
        self._fp_before, self._neg_score = fp_before, neg_score

    @property
    def correct_idx(self) -> IntArray:
        """0-based ranks of the correct cases, ascending (stable and every-rank points only)."""
        if self._idx is None:
            raise AttributeError("grouped points keep no per-case ranks; use tp_through()")
        return self._idx.astype(np.int64, copy=False)

    @property
    def retrieved(self) -> npt.NDArray[Any]:
        """Cases (weight) at or above each point's cut-off (k)."""
        if self._ret is not None:
            return self._ret if self._ret.dtype.kind == "f" else self._ret.astype(np.int64, copy=False)
        return self.correct_idx + 1

    @property
    def tp(self) -> npt.NDArray[Any]:
        """Correct cases (weight) at or above each point's cut-off."""
        if self._tp is not None:
            return self._tp if self._tp.dtype.kind == "f" else self._tp.astype(np.int64, copy=False)
        return np.arange(1, self.size + 1, dtype=np.int64)

    @property
    def fp(self) -> npt.NDArray[Any]:
        """Incorrect cases (weight) at or above each point's cut-off."""
        if self._fp is not None:
            return self._fp
        return self.retrieved - self.tp

    @property
    def fp_before(self) -> npt.NDArray[Any]:
        """Incorrect cases (weight) strictly above each point's tie group."""
        if self._fp_before is not None:
            return self._fp_before
        if not self.grouped or self.untied:
            return self.fp
        if self._tied is not None:  # scattered ties: fp everywhere but at the few points of a tie group
            fp = self.fp  # a fresh array (no _fp is kept here)
            fp[self._tied] = self.tied_fp_before()
            return fp
        start = tie_group_edges(self.neg_scores, self.retrieved - 1, "left")
        tp = self.tp
        return start - np.concatenate(([0], tp[:-1])).astype(np.int64, copy=False)

    def tied_fp_before(self) -> IntArray:
        """``fp_before`` at the points ``_tied`` (scattered ties only). O(len(_tied))."""
        j, start = self._tied, self._tied_start
        assert j is not None and start is not None
        if self._tp is None:  # point i holds i + 1 correct cases
            return start - j
        return start - np.where(j > 0, self._tp[np.maximum(j - 1, 0)], 0).astype(np.int64)

    @property
    def neg_score(self) -> FloatArray:
        """Negated score of the last case above each point's cut-off."""
        if self._neg_score is not None:
            return self._neg_score
        return self.neg_scores[self.retrieved - 1]

    @property
    def unit_steps(self) -> bool:
        """Whether point i holds exactly i correct cases and the correct case ranks are kept (stable, or no ties)."""
        return self._tp is None and self._ret is None

    @property
    def unit_tp(self) -> bool:
        """Whether point i (from 1) holds exactly i correct cases: every point adds one correct case."""
        return self._tp is None

    @property
    def correct_idx_raw(self) -> npt.NDArray[Any]:
        """The stored ranks of the correct cases (int32 or int64), without a conversion."""
        assert self._idx is not None
        return self._idx

    @property
    def size(self) -> int:
        """Number of points."""
        core = self._idx if self._ret is None else self._ret
        return 0 if core is None else int(core.size)

    def group_bounds(self, i: int) -> tuple[int, int]:
        """(start, end) ranks (0-based, end exclusive) of the tie group of rank ``i``. O(log n)."""
        neg = self.neg_scores
        v = neg[i]
        return int(np.searchsorted(neg, v, side="left")), int(np.searchsorted(neg, v, side="right"))

    def tp_through(self, k: int) -> int:
        """Correct cases among the top ``k`` (unweighted; grouped: ``k`` must end a tie group). O(log n)."""
        if not self.grouped or self.untied:
            return int(np.searchsorted(self.correct_idx, k))
        assert self._ret is not None
        i = int(np.searchsorted(self._ret, k, side="right"))
        if self._tp is None:  # point i - 1 holds i correct cases
            return i
        return int(self._tp[i - 1]) if i else 0


def tie_group_edges(neg_scores: FloatArray, idx: IntArray, side: Literal["left", "right"]) -> IntArray:
    """Start (``side="left"``) or exclusive end (``"right"``) of the tie group of each rank in ``idx``.

    ``idx`` is ascending. A case whose neighbour on that side has another
    score is its own edge, found in O(1); only tied cases are searched
    (O(log n) each), so untied rankings cost O(len(idx)).
    """
    n = neg_scores.size
    idx = idx.astype(np.int64, copy=False)
    if idx.size == 0:
        return idx.copy()
    v = neg_scores[idx]
    if side == "right":
        out = idx + 1
        tied = neg_scores[np.minimum(out, n - 1)] == v
        tied &= out < n
    else:
        out = idx.copy()
        tied = neg_scores[np.maximum(out - 1, 0)] == v
        tied &= out > 0
    if tied.any():
        out[tied] = np.searchsorted(neg_scores, v[tied], side=side)
    return out


def seqsum(values: FloatArray) -> float:
    """Left-to-right sum (the rounding of a plain loop); 0.0 when empty."""
    if values.size == 0:
        return 0.0
    return float(np.cumsum(values)[-1])


def group_ends(neg_scores: FloatArray) -> IntArray:
    """Exclusive end index of every run of equal scores (-0.0 equals 0.0)."""
    n = neg_scores.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    change = np.flatnonzero(neg_scores[1:] != neg_scores[:-1]) + 1
    return np.append(change, n).astype(np.int64, copy=False)


def class_weights(correct: BoolArray, weight: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Cumulative weight of correct and of incorrect cases, rank by rank.

    Every weighted count of the kernel is read from these two sums, so that
    totals and curve points agree to the last bit.
    """
    return np.cumsum(np.where(correct, weight, 0.0)), np.cumsum(np.where(correct, 0.0, weight))


def operating_points(
    neg_scores: FloatArray, correct: BoolArray, ties: str, weight: FloatArray | None = None
) -> Points:
    """The kernel: cut-offs with a curve point and the counts there.

    Complexity O(n) for ``"stable"``, O(n + t log n) for ``"grouped"`` with t
    correct cases that share their score with another case. ``weight``
    (None: every case weighs 1) turns every count into a sum of weights.
    """
    n = neg_scores.size
    if weight is not None:
        return _weighted_points(neg_scores, correct, ties, weight)
    correct_idx = np.flatnonzero(correct)
    n_correct = correct_idx.size
    if ties == "stable":
        return Points(neg_scores, False, n_correct, n - n_correct, correct_idx=_compact(correct_idx))
    # Grouped: the end of the tie group of every correct case; a point where that end changes.
    differs = neg_scores[1:] != neg_scores[:-1]
    groups = int(np.count_nonzero(differs)) + 1
    if groups == n:  # no ties: every case is its own group
        return Points(neg_scores, True, n_correct, n - n_correct, correct_idx=_compact(correct_idx), untied=True)
    if 4 * groups < n:  # heavy ties: look the few group ends up among the correct cases
        group_end = np.append(np.flatnonzero(differs) + 1, n)
        tp_end = np.searchsorted(correct_idx, group_end)
        has_point = np.diff(tp_end, prepend=0) > 0
        return Points(
            neg_scores, True, n_correct, n - n_correct, retrieved=_compact(group_end[has_point]), tp=_compact(tp_end[has_point])
        )
    # Scattered ties: a correct case alone in its group is its own point (as untied); only the
    # few correct cases with an equal neighbour are looked up (their group's end).
    starts = np.ones(n + 1, dtype=bool)  # starts[i]: case i starts a tie group (i = n: the end)
    starts[1:n] = differs
    retrieved = correct_idx + 1
    tied = np.flatnonzero(~(starts[correct_idx] & starts[retrieved]))
    if not tied.size:  # the ties are all among incorrect cases: the points are the untied ones
        return Points(neg_scores, True, n_correct, n - n_correct, correct_idx=_compact(correct_idx), untied=True)
    end = _group_edges(neg_scores, starts, correct_idx[tied], "right")
    retrieved[tied] = end
    # a point only at the last correct case of a group
    shared = end[1:] == end[:-1]
    if not shared.any():  # one correct case per group: point i holds i + 1 correct cases
        start = _group_edges(neg_scores, starts, correct_idx[tied], "left")
        return Points(
            neg_scores, True, n_correct, n - n_correct, retrieved=_compact(retrieved), tied=tied, tied_start=start
        )
    last = np.ones(n_correct, dtype=bool)
    dropped = tied[:-1][shared]  # correct cases followed by another of their group (few)
    last[dropped] = False
    kept = tied[np.append(~shared, True)]
    start = _group_edges(neg_scores, starts, correct_idx[kept], "left")
    tp = np.flatnonzero(last)
    tied = kept - np.searchsorted(dropped, kept)  # the kept tied cases' indices among the points
    tp += 1
    return Points(
        neg_scores, True, n_correct, n - n_correct,
        retrieved=_compact(np.compress(last, retrieved)), tp=_compact(tp), tied=tied, tied_start=start,
    )  # fmt: skip


def _group_edges(neg_scores: FloatArray, starts: BoolArray, idx: IntArray, side: Literal["left", "right"]) -> IntArray:
    """Start (``"left"``) or exclusive end (``"right"``) of the tie group of each rank in ``idx``.

    ``starts[i]`` tells whether rank i starts a tie group (``starts[n]`` is
    True). Steps from every rank at once, so small tie groups cost a few
    O(len(idx)) passes and no binary search of the whole ranking (whose
    cache misses cost more); groups longer than 16 are finished by
    ``searchsorted``.
    """
    edge, step = (idx + 1, 1) if side == "right" else (idx.copy(), -1)
    active = np.flatnonzero(~starts[edge])
    for _ in range(16):
        if not active.size:
            return edge
        edge[active] += step
        active = active[~starts[edge[active]]]
    if active.size:
        edge[active] = np.searchsorted(neg_scores, neg_scores[idx[active]], side=side)
    return edge


def _weighted_points(neg_scores: FloatArray, correct: BoolArray, ties: str, weight: FloatArray) -> Points:
    correct_idx = np.flatnonzero(correct).astype(np.int64, copy=False)
    cp, cn = class_weights(correct, weight)
    total_tp = float(cp[-1]) if cp.size else 0.0
    total_fp = float(cn[-1]) if cn.size else 0.0
    if ties == "stable":
        idx = correct_idx[weight[correct_idx] > 0.0]
        tp, fp = cp[idx], cn[idx]
        return Points(
            neg_scores, False, total_tp, total_fp,
            correct_idx=correct_idx, retrieved=tp + fp, tp=tp, fp=fp, fp_before=fp, neg_score=neg_scores[idx],
        )  # fmt: skip
    ends = group_ends(neg_scores)
    tp_end, fp_end = cp[ends - 1], cn[ends - 1]
    tp_start = np.concatenate(([0.0], tp_end[:-1]))
    fp_start = np.concatenate(([0.0], fp_end[:-1]))
    has_point = tp_end > tp_start
    tp, fp = tp_end[has_point], fp_end[has_point]
    last = ends[has_point] - 1
    return Points(
        neg_scores, True, total_tp, total_fp,
        retrieved=tp + fp, tp=tp, fp=fp, fp_before=fp_start[has_point], neg_score=neg_scores[last],
    )  # fmt: skip


def every_rank(neg_scores: FloatArray, correct: BoolArray) -> Points:
    """Points at every cut-off, after incorrect cases too, ties in the given order.

    Row k - 1 holds the counts over the top k cases, k = 1..n; ``correct_idx``
    is as for the stable policy, so the functions of
    :class:`Points` that take cut-offs (:func:`true_positives_at`, ...) apply
    unchanged. LingPipe 4.x draws its curves through these points. O(n).
    """
    retrieved = np.arange(1, correct.size + 1, dtype=np.int64)
    tp = np.cumsum(correct, dtype=np.int64)
    fp = retrieved - tp
    correct_idx = np.flatnonzero(correct).astype(np.int64, copy=False)
    n_correct = correct_idx.size
    return Points(
        neg_scores, False, n_correct, correct.size - n_correct,
        correct_idx=correct_idx, retrieved=retrieved, tp=tp, fp=fp, fp_before=fp, neg_score=neg_scores,
    )  # fmt: skip


def _ratio(num: npt.NDArray[Any], den: int | float) -> FloatArray:
    """num / den in float64, NaN for 0/0 and without warnings."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.true_divide(num, np.float64(den))


def recall(points: Points, num_positive_ref: int | float) -> FloatArray:
    """TP / num_positive_ref at every point (misses count in the denominator)."""
    return _ratio(points.tp, num_positive_ref)


def precision(points: Points) -> FloatArray:
    """TP / k at every point."""
    if points.unit_steps:  # tp = 1, 2, ...: the same values, fewer passes
        return np.arange(1.0, points.size + 1.0) / (points.correct_idx_raw + 1.0)
    return points.tp / points.retrieved.astype(np.float64)


def rejection_recall(points: Points, num_negative_ref: int | float) -> FloatArray:
    """1 - FP / num_negative_ref at every point; NaN when there are no negatives."""
    return 1.0 - _ratio(points.fp, num_negative_ref)


def pr_curve(points: Points, num_positive_ref: int | float) -> FloatArray:
    """(recall, precision) rows, recall strictly increasing."""
    return np.column_stack((recall(points, num_positive_ref), precision(points)))


def pr_score_curve(points: Points, num_positive_ref: int | float) -> FloatArray:
    """(recall, precision, score) rows, recall strictly increasing."""
    return np.column_stack((recall(points, num_positive_ref), precision(points), -points.neg_score))


def roc_curve(points: Points, num_positive_ref: int | float, num_negative_ref: int | float) -> FloatArray:
    """(recall, rejection recall) rows, recall strictly increasing."""
    return np.column_stack((recall(points, num_positive_ref), rejection_recall(points, num_negative_ref)))


def interpolation_mask(y: FloatArray) -> BoolArray:
    """Keep a point iff its y is strictly greater than every later point's y.

    This is LingPipe's pruning of dominated points: scanning from the highest
    recall down, a point survives when it beats the best y seen so far
    (starting from -inf). NaN never survives and never raises the bar.
    """
    if y.size == 0:
        return np.zeros(0, dtype=bool)
    later_best = np.empty_like(y)
    later_best[-1] = -np.inf
    if y.size > 1:
        later_best[:-1] = np.fmax.accumulate(y[:0:-1])[::-1]
        # fmax ignores NaN unless every later value is NaN; the bar stays -inf then.
        np.nan_to_num(later_best, copy=False, nan=-np.inf)
    with np.errstate(invalid="ignore"):
        return y > later_best


def interpolate(curve: FloatArray) -> FloatArray:
    """Rows of ``curve`` not dominated by a later row (column 1 is the y value)."""
    return np.compress(interpolation_mask(curve[:, 1]), curve, axis=0)  # curve[mask], without the slow 2-d path


def step_area(curve: FloatArray) -> float:
    """Area under a step function through (x, y) rows, starting at x = 0.

    sum_i (x_i - x_{i-1}) * y_i with x_0 = 0; 0.0 for an empty curve.
    """
    if curve.shape[0] == 0:
        return 0.0
    x = curve[:, 0]
    dx = np.diff(x, prepend=0.0)
    return seqsum(dx * curve[:, 1])


class RocRows(NamedTuple):
    """The rows of a ROC curve with the segment that leads to each one.

    Row j is the operating point (recall[j], rr_end[j]); the curve reaches it
    by a straight segment from (recall[j - 1], rr_start[j]) (recall 0 before
    the first row). A vertical step (rr_start == rr_end) is a threshold that
    accepts correct cases only; a diagonal one a tie group (or, on the hull, a
    randomised choice between two thresholds) that accepts both classes.
    """

    recall: FloatArray
    rr_start: FloatArray  #: rejection recall where the segment to the row starts
    rr_end: FloatArray  #: rejection recall at the row
    tp: FloatArray  #: correct cases accepted at the row (counts, for exact geometry)
    fp: FloatArray  #: incorrect cases accepted at the row
    fp_start: FloatArray  #: incorrect cases accepted where the segment starts (``fp`` itself for vertical steps)


def roc_rows(points: Points, num_positive_ref: int | float, num_negative_ref: int | float) -> RocRows:
    """The uninterpolated ROC curve of a tie policy, with its segments.

    Stable ties: one vertical step per correct case (LingPipe); misses are
    never reached. Grouped ties: one segment per tie group holding a correct
    case, from the rejection recall before the group to the one after it;
    when there are misses, unreturned positives and unreturned negatives form
    one more tie group below every returned case, which ends at (1, 0).
    """
    tp_count = points.tp
    fp_count = points.retrieved - tp_count if points._fp is None else points._fp
    r = _ratio(tp_count, num_positive_ref)
    rr_end = 1.0 - _ratio(fp_count, num_negative_ref)
    tp, fp = tp_count.astype(np.float64), fp_count.astype(np.float64)
    if not points.grouped:
        return RocRows(r, rr_end, rr_end, tp, fp, fp)
    # untied: every segment is a vertical step, as under the stable policy
    if points.untied:
        rr_start, fp_start = rr_end, fp
    elif points._tied is not None:  # scattered ties: vertical steps but at the few tied points
        tied = points._tied
        fp_before = points.tied_fp_before()
        rr_start, fp_start = rr_end.copy(), fp.copy()
        rr_start[tied] = 1.0 - _ratio(fp_before, num_negative_ref)
        fp_start[tied] = fp_before
    else:
        fp_before = points.fp_before
        rr_start, fp_start = 1.0 - _ratio(fp_before, num_negative_ref), fp_before.astype(np.float64)
    if num_positive_ref > points.total_tp:  # misses: the bottom tie group
        r = np.append(r, 1.0)
        rr_start = np.append(rr_start, 1.0 - _ratio(np.array([points.total_fp]), num_negative_ref))
        rr_end = np.append(rr_end, 0.0 if num_negative_ref else np.nan)
        tp = np.append(tp, float(num_positive_ref))
        fp_start = np.append(fp_start, float(points.total_fp))
        fp = np.append(fp, float(num_negative_ref))
    return RocRows(r, rr_start, rr_end, tp, fp, fp_start)


def roc_rows_area(rows: RocRows) -> float:
    """sum_j (r_j - r_{j-1}) * (rr_start_j + rr_end_j) / 2, r_0 = 0; 0.0 for no rows.

    The trapezoid under every segment. For vertical steps (rr_start ==
    rr_end) the mean is exactly rr_end, so this is LingPipe's step area bit
    for bit.
    """
    if rows.recall.size == 0:
        return 0.0
    # (x + x) / 2 == x exactly, so vertical steps skip the mean
    mid = rows.rr_end if rows.rr_start is rows.rr_end else (rows.rr_start + rows.rr_end) / 2.0
    return seqsum(np.diff(rows.recall, prepend=0.0) * mid)


def roc_rows_area_exact(rows: RocRows, num_positive_ref: int, num_negative_ref: int) -> float:
    """The area :func:`roc_rows_area` sums in floating point, as an exact ratio rounded once (unweighted rows).

    With P = ``num_positive_ref``, N = ``num_negative_ref`` and, per row j,
    the true positives tp_j, the false positives fp_j at the row and
    fp_start_j where its segment starts (tp_0 = 0)::

        2 P N * area = sum_j (tp_j - tp_{j-1}) * (2 N - fp_start_j - fp_j)

    an integer: for the uninterpolated curve, twice the number of (positive,
    negative) pairs ranked in order, a tied pair counting one (one half of a
    pair) under grouped ties; misses count as the rows say. The numerator is
    exact and the division rounds once, so the result is the correctly
    rounded area (within a few ulps of :func:`roc_rows_area`, which rounds
    at every term; LingPipe's own sum is that one, see
    ``scored_pr.lingpipe``), and equal bit for bit to the statistic that
    :class:`scored_pr.WindowedEvaluation` keeps as cases enter and leave.
    NaN when P or N is 0; 0.0 for no rows.
    """
    p, n = int(num_positive_ref), int(num_negative_ref)
    if not p or not n:
        return math.nan
    if rows.tp.size == 0:
        return 0.0
    tp = rows.tp.astype(np.int64)
    fp = rows.fp.astype(np.int64)
    fp_start = fp if rows.fp_start is rows.fp else rows.fp_start.astype(np.int64)
    num = _exact_dot(np.diff(tp, prepend=0), 2 * n - fp_start - fp, 2 * p * n)
    return num / (2 * p * n)  # int / int: correctly rounded


def roc_area(points: Points, num_positive_ref: int | float, num_negative_ref: int | float) -> float:
    """Uninterpolated ROC area: :func:`roc_rows_area` of :func:`roc_rows`.

    With stable ties a point's segment is a vertical step and this is exactly
    LingPipe's step area; with grouped ties a tied correct/incorrect pair
    counts one half (the Mann-Whitney statistic, scikit-learn's
    ``roc_auc_score``), misses against unreturned negatives included.
    """
    return roc_rows_area(roc_rows(points, num_positive_ref, num_negative_ref))


# ---------------------------------------------------------------------------
# partial ROC area


def ranked_entries(
    neg_scores: FloatArray, correct: BoolArray, num_negative_misses: int, num_misses: int, ties: str
) -> tuple[FloatArray, BoolArray, IntArray | None]:
    """(rank scores, correct, counts) of every entry: the returned cases, then the unreturned blocks.

    Finite scores become dense ranks 2, 3, ... (a higher score, a higher
    rank; equal scores, one rank). The negative misses are one entry (count
    ``num_negative_misses``) and the misses one entry (count ``num_misses``),
    when there are any: the misses rank 0 below every returned case; the
    negative misses tie with them under grouped ties (one bottom tie group,
    as the ROC area defines it) and rank 1 under stable ties (a miss is never
    reached there, so it is never tied with them). ``counts`` is None when
    there are no unreturned entries (every entry is one case).

    Notes
    -----
    O(n log n) (``numpy.unique``). The confidence intervals resample these
    entries; :func:`partial_roc_area` measures them.
    """
    # dense ranks of the returned cases: 2.. (higher score, higher rank)
    _, inv = np.unique(-np.asarray(neg_scores), return_inverse=True)
    ranks = inv.astype(np.float64) + 2.0
    neg_miss_rank = 0.0 if ties == "grouped" else 1.0
    blocks = [(n, rank, c) for n, rank, c in ((num_negative_misses, neg_miss_rank, False), (num_misses, 0.0, True)) if n]
    scores = np.concatenate([ranks, np.array([b[1] for b in blocks], dtype=np.float64)])
    flags = np.concatenate([np.asarray(correct, dtype=bool), np.array([b[2] for b in blocks], dtype=bool)])
    if not blocks:
        return scores, flags, None
    counts = np.concatenate([np.ones(ranks.size, np.int64), np.array([b[0] for b in blocks], dtype=np.int64)])
    return scores, flags, counts


def partial_roc_auc(
    pos: FloatArray, neg: FloatArray, max_fpr: float, standardized: bool,
    w_pos: FloatArray | None = None, w_neg: FloatArray | None = None,
) -> float:
    """Area under the ROC curve for false positive rates in [0, max_fpr].

    The curve joins the operating points of the distinct scores by straight
    lines (a tie group is a diagonal segment, so a tied pair counts one half);
    the area up to ``max_fpr`` is the trapezoidal area with the curve's value
    at ``max_fpr`` interpolated linearly (pROC's uncorrected partial AUC).
    ``standardized`` applies McClish's correction
    0.5 * (1 + (A - max_fpr^2 / 2) / (max_fpr - max_fpr^2 / 2)), equal to
    scikit-learn's ``roc_auc_score(max_fpr=...)``. With weights ``w_pos`` and
    ``w_neg`` the rates are weighted (scikit-learn's ``sample_weight``). NaN
    without both classes (or without weight in one).
    """
    m, n = pos.size, neg.size
    if m == 0 or n == 0:
        return math.nan
    s = np.concatenate([pos, neg])
    c = np.concatenate([np.ones(m, bool), np.zeros(n, bool)])
    w = np.ones(m + n) if w_pos is None or w_neg is None else np.concatenate([w_pos, w_neg])
    order = np.argsort(-s, kind="stable")
    s, c, w = s[order], c[order], w[order]
    ends = np.r_[np.flatnonzero(s[1:] != s[:-1]), s.size - 1]
    tp, fp = np.cumsum(w * c)[ends], np.cumsum(w * ~c)[ends]
    if tp[-1] <= 0 or fp[-1] <= 0:
        return math.nan
    tpr = np.r_[0.0, tp / tp[-1]]
    fpr = np.r_[0.0, fp / fp[-1]]
    stop = int(np.searchsorted(fpr, max_fpr, side="right"))
    if stop < fpr.size:
        # linear interpolation of the segment crossing max_fpr
        x0, x1, y0, y1 = fpr[stop - 1], fpr[stop], tpr[stop - 1], tpr[stop]
        y = y0 + (y1 - y0) * (max_fpr - x0) / (x1 - x0)
        fpr = np.r_[fpr[:stop], max_fpr]
        tpr = np.r_[tpr[:stop], y]
    area = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2.0))
    if not standardized:
        return area
    min_area = 0.5 * max_fpr * max_fpr
    return 0.5 * (1.0 + (area - min_area) / (max_fpr - min_area))


def partial_roc_area(
    neg_scores: FloatArray, correct: BoolArray, weight: FloatArray | None, num_negative_misses: int,
    num_misses: int, ties: str, max_fpr: float, standardized: bool,
) -> float:
    """:func:`partial_roc_auc` of stored cases plus unreturned ones (each weighing 1).

    The misses rank below every returned case and the negative misses with
    them (grouped ties) or just above them (stable ties; see
    :func:`ranked_entries`); a block of k unreturned cases weighs k.
    ``weight`` is the returned cases' sample weights, None when unweighted.
    NaN with a class missing (or without weight in one).
    """
    scores, flags, counts = ranked_entries(neg_scores, correct, num_negative_misses, num_misses, ties)
    if weight is None and counts is None:
        return partial_roc_auc(scores[flags], scores[~flags], max_fpr, standardized)
    # unreturned items weigh 1 each, as in the evaluator's own rates: a block of k misses weighs k
    n_ret = np.asarray(neg_scores).size
    w = np.ones(scores.size) if weight is None else np.concatenate([weight, np.ones(scores.size - n_ret)])
    if counts is not None:
        w[n_ret:] = counts[n_ret:]
    return partial_roc_auc(scores[flags], scores[~flags], max_fpr, standardized, w[flags], w[~flags])


def _exact_dot(a: npt.NDArray[Any], b: npt.NDArray[Any], bound: int) -> int:
    """sum(a * b) as an int; ``bound`` bounds the absolute value of every partial sum and product."""
    if bound < 2**62:
        return int(np.dot(a.astype(np.int64, copy=False), b.astype(np.int64, copy=False)))
    return sum(x * y for x, y in zip(a.tolist(), b.tolist()))


def upper_hull(x: FloatArray, y: FloatArray) -> IntArray:
    """Indices of the vertices of the upper convex hull of a monotone polyline.

    ``x`` and ``y`` are non-decreasing (a ROC curve as false positive and
    true positive counts, starting at the origin: counts keep collinear points
    exactly collinear, where rates would round). Returns the indices, ascending,
    of the points strictly above the chord of their hull neighbours; the first
    and last points are always kept. Points on a hull edge (collinear) are
    dropped.

    Vectorised sweeps first drop every point that is on or below the segment
    joining its current neighbours (such a point is never a hull vertex,
    whichever other points are dropped with it); a monotone-chain pass over
    the few survivors finishes the job. O(m) per sweep.
    """
    idx = np.arange(x.size, dtype=np.int64)
    for _ in range(64):
        if idx.size <= 2:
            return idx
        xa, ya = x[idx[:-2]], y[idx[:-2]]
        xb, yb = x[idx[1:-1]], y[idx[1:-1]]
        xc, yc = x[idx[2:]], y[idx[2:]]
        # cross >= 0: b is on or below the chord from a to c
        drop = (xb - xa) * (yc - ya) - (yb - ya) * (xc - xa) >= 0.0
        if not drop.any():
            return idx
        keep = np.ones(idx.size, dtype=bool)
        keep[1:-1] = ~drop
        idx = idx[keep]
    hull: list[int] = []
    for i in idx.tolist():
        xi, yi = x[i], y[i]
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (x[b] - x[a]) * (yi - y[a]) - (y[b] - y[a]) * (xi - x[a]) >= 0.0:
                hull.pop()
            else:
                break
        hull.append(i)
    return np.asarray(hull, dtype=np.int64)


def roc_convex_hull(rows: RocRows) -> RocRows:
    """The ROC convex hull (ROCCH) of uninterpolated rows: the interpolated curve.

    Every point on the hull is achievable by choosing at random between the
    two thresholds at the ends of its edge (Provost & Fawcett, 2001), and the
    hull lies on or above every operating point, so its area is never below
    the uninterpolated area. Rows are the hull vertices with recall > 0, each
    reached by a straight segment from the previous vertex (from recall 0 and
    rejection recall 1 for the first). Empty when ``rows`` is, or when the
    rejection recall is NaN (no negative reference).
    """
    r, rr = rows.recall, rows.rr_end
    if r.size == 0 or np.isnan(rr).any():
        empty = np.zeros(0, dtype=np.float64)
        return RocRows(empty, empty, empty, empty, empty, empty)
    x = np.concatenate(([0.0], rows.fp))
    y = np.concatenate(([0.0], rows.tp))
    keep = upper_hull(x, y)[1:] - 1  # drop the origin
    r, rr = r[keep], rr[keep]
    fp = rows.fp[keep]
    return RocRows(r, np.concatenate(([1.0], rr[:-1])), rr, rows.tp[keep], fp, np.concatenate(([0.0], fp[:-1])))


def average_precision(points: Points, num_positive_ref: int | float) -> float:
    """Sum of the precision at every correct case, divided by num_positive_ref.

    A correct case inside a tie group (grouped policy) gets the precision at
    the end of its group. NaN when num_positive_ref is 0. With weights, the
    weight sums' rounding can put the ratio an ulp above 1: it is clamped
    to 1.
    """
    if num_positive_ref == 0:
        return float("nan")
    if points.unit_tp:  # every point adds one correct case: dtp = 1 and x * 1 == x
        return seqsum(precision(points)) / num_positive_ref
    if points._tied is not None:  # scattered ties: dtp = 1 but at the few points of a tie group
        prec = precision(points)
        j = points._tied
        tp = points._tp
        assert tp is not None
        prec[j] *= tp[j].astype(np.int64) - np.where(j > 0, tp[np.maximum(j - 1, 0)], 0)
        return seqsum(prec) / num_positive_ref
    dtp = np.diff(points.tp, prepend=0)
    # weighted: the rounded sum of weight x precision can exceed the rounded total weight by an
    # ulp (AP 1.0000000000000002 for a perfect ranking); AP is at most 1, as scikit-learn's is
    return min(1.0, seqsum(precision(points) * dtp) / num_positive_ref)


def maximum_f_measure(curve: FloatArray, beta: float) -> float:
    """max over (r, p) rows of (1 + b^2) r p / (r + b^2 p); 0.0 for no rows.

    The operands are multiplied in LingPipe's order, so the result is the
    same float64 LingPipe 3.9.2 computes.
    """
    if curve.shape[0] == 0:
        return 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        f = f_beta(curve[:, 0], curve[:, 1], beta)
    best = np.nanmax(f) if not np.all(np.isnan(f)) else 0.0
    return float(max(best, 0.0))


def f_beta(r: FloatArray, p: FloatArray, beta: float) -> FloatArray:
    """(1 + b^2) r p / (r + b^2 p), elementwise, in LingPipe's operand order.

    When b^2 overflows float64 (beta > ~1.3e154) the same quantity is computed
    as r p (1 + c) / (r c + p) with c = 1 / b^2, which tends to recall as it
    should; every smaller beta takes the first form, bit for bit.
    """
    b2 = beta * beta
    if math.isinf(b2):
        c = (1.0 / beta) ** 2
        return r * p * (1.0 + c) / (r * c + p)
    return (1.0 + b2) * r * p / (r + b2 * p)


def breakeven_point(interpolated_pr: FloatArray) -> float:
    """Precision of the first interpolated point whose recall exceeds its precision.

    0.0 when no point has recall > precision (including recall == precision).
    """
    r = interpolated_pr[:, 0]
    p = interpolated_pr[:, 1]
    hits = np.flatnonzero(r > p)
    return float(p[hits[0]]) if hits.size else 0.0


def true_positives_at(points: Points, rank: int) -> tuple[int, int]:
    """(numerator, denominator) of the number of correct cases in the top ``rank``.

    Stable ties: an integer count (denominator 1). Grouped ties: when ``rank``
    splits a tie group, the expected count over all orderings of that group,
    tp_before + (rank - start) * p_group / n_group, as an exact fraction.
    ``rank`` must be between 0 and the number of cases.
    """
    if not points.grouped or rank == 0:
        return points.tp_through(rank), 1
    start, end = points.group_bounds(rank - 1)
    if end == rank:
        return points.tp_through(rank), 1
    tp_start = points.tp_through(start)
    tp_group = points.tp_through(end) - tp_start
    size = end - start
    return tp_start * size + (rank - start) * tp_group, size


def precision_at(points: Points, num_cases: int, rank: int) -> float:
    """Correct cases in the top ``rank`` divided by ``rank``; NaN if rank > num_cases."""
    if rank > num_cases:
        return float("nan")
    num, den = true_positives_at(points, rank)
    return num / (den * rank)


def r_precision(points: Points, num_cases: int, num_positive_ref: int) -> float:
    """Correct cases in the top R divided by R, R = num_positive_ref.

    Ranks beyond the returned cases count as errors; NaN when R is 0.
    """
    if num_positive_ref == 0:
        return float("nan")
    num, den = true_positives_at(points, min(num_positive_ref, num_cases))
    return num / (den * num_positive_ref)


def reciprocal_rank(points: Points) -> float:
    """1 / rank (from 1) of the first correct case; 0.0 when there is none.

    Grouped ties: the expected value of 1 / rank over all orderings of the
    first tie group that holds a correct case (exact sum, no sampling).
    """
    if not points.grouped:
        idx = points.correct_idx
        return 1.0 / (int(idx[0]) + 1) if idx.size else 0.0
    if points.size == 0:
        return 0.0
    end = int(points.retrieved[0])  # the first tie group holding a correct case
    start, _ = points.group_bounds(end - 1)
    size = end - start
    pos = int(points.tp[0])
    neg = size - pos
    # P(first correct at offset j) = prod_{i<j} (neg - i) / (size - i) * pos / (size - j)
    j = np.arange(neg + 1, dtype=np.float64)
    stay = np.concatenate(([1.0], np.cumprod((neg - j[:-1]) / (size - j[:-1]))))
    prob = stay * pos / (size - j)
    return seqsum(prob / (start + j + 1.0))


# ---------------------------------------------------------------------------
# IR measures at a cut-off, recall levels and thresholds


def tp_top(points: Points, k: int) -> float:
    """Correct cases among the top ``k`` (0 <= k <= n) as a float (see true_positives_at)."""
    num, den = true_positives_at(points, k)
    return num / den


def recall_at(points: Points, num_cases: int, num_positive_ref: int, k: int) -> float:
    """Correct cases among the top min(k, n) over num_positive_ref; NaN when that is 0."""
    if num_positive_ref == 0:
        return float("nan")
    num, den = true_positives_at(points, min(k, num_cases))
    return num / (den * num_positive_ref)


def average_precision_at(points: Points, num_positive_ref: int, k: int) -> float:
    """sum over the top k of precision(i) * rel(i), divided by min(k, num_positive_ref).

    Grouped ties: every correct case of a tie group gets the precision at the
    end of its group, and a group cut by k contributes its expected number of
    correct cases in the top k. NaN when num_positive_ref is 0.
    """
    den = min(k, num_positive_ref)
    if den == 0:
        return float("nan")
    if not points.grouped:
        m = int(np.searchsorted(points.correct_idx, k))  # correct cases in the top k
        return seqsum(points.tp[:m] / points.retrieved[:m].astype(np.float64)) / den
    weight = np.diff(points.tp, prepend=0).astype(np.float64)
    full = int(np.searchsorted(points.retrieved, k, side="right"))  # groups wholly in the top k
    total = seqsum(weight[:full] * precision(points)[:full])
    if full < points.tp.size:  # the tie group that k cuts through, if it holds a correct case
        g_end = int(points.retrieved[full])
        tp_prev = int(points.tp[full - 1]) if full else 0
        g_start = tp_prev + int(points.fp_before[full])
        if k > g_start:
            share = weight[full] * (k - g_start) / (g_end - g_start)
            total += share * float(points.tp[full]) / g_end
    return total / den


def correct_needed(level: float, num_positive_ref: int) -> int:
    """The fewest correct cases t whose recall, as the curves report it, is >= ``level``.

    The curves' recall is the float64 value of t / num_positive_ref (correctly
    rounded; numpy and Python agree), so the test is fl(t / P) >= level, not
    the exact t / P >= level: a recall read from a curve and passed back
    reaches that curve's row. Example: 1/5 is not 0.2's binary value (which is
    slightly larger), but fl(1/5) == 0.2, so level 0.2 with P = 5 needs 1
    correct case. Computed exactly in O(1): t0 = ceil(level * P) on the binary
    value of ``level`` satisfies the test (rounding is monotone and ``level``
    is a float64), and t0 - 1, t0 - 2, ... may round up to ``level`` too.
    """
    if num_positive_ref == 0:
        return 0
    t = math.ceil(Fraction(level) * num_positive_ref)
    while t > 0 and (t - 1) / num_positive_ref >= level:
        t -= 1
    return t


def k_at_recall(points: Points, num_positive_ref: int, level: float) -> tuple[int, int] | None:
    """(k, tp) of the smallest cut-off with recall >= ``level``, or None if unreachable.

    Recall is compared as the curves report it, fl(tp / num_positive_ref)
    >= level (see :func:`correct_needed`): 0.7 with 10 positives needs 7
    correct cases, 0.2 with 5 positives needs 1. Grouped ties: cut-offs fall
    only at the ends of tie groups. O(log n).
    """
    needed = max(1, correct_needed(level, num_positive_ref))
    if num_positive_ref == 0 or needed > points.total_tp:
        return None
    i = int(np.searchsorted(points.tp, needed))  # first point with tp >= needed
    return int(points.retrieved[i]), int(points.tp[i])


ELEVEN_LEVELS = tuple(i / 10 for i in range(11))


def eleven_point_cutoffs(num_positive_ref: int, rounding: str) -> list[int]:
    """Correct cases needed to reach each recall level 0.0, 0.1, ..., 1.0.

    ``"exact"``: ceil(i * R / 10) in integers. ``"trec_eval9"``:
    ``int(level * R + 0.9)`` in float64 (trec_eval <= 9, pytrec_eval).
    ``"trec_eval10"``: ``lround(level * R)`` (half away from zero).
    """
    r = num_positive_ref
    if rounding == "exact":
        return [-(-i * r // 10) for i in range(11)]
    if rounding == "trec_eval9":
        return [int(level * r + 0.9) for level in ELEVEN_LEVELS]
    return [math.floor(level * r + 0.5) for level in ELEVEN_LEVELS]  # lround for x >= 0


def eleven_point_interpolated_precision(points: Points, num_positive_ref: int, rounding: str) -> FloatArray:
    """Max precision over cut-offs holding >= the needed correct cases; 0.0 if none."""
    out = np.zeros(11, dtype=np.float64)
    if points.tp.size == 0:
        return out
    prec = precision(points)
    # best[i] = max precision over points i, i+1, ... (interpolated precision)
    best = np.maximum.accumulate(prec[::-1])[::-1]
    for j, needed in enumerate(eleven_point_cutoffs(num_positive_ref, rounding)):
        i = int(np.searchsorted(points.tp, max(needed, 1)))
        if i < best.size:
            out[j] = best[i]
    return out


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
    # -score ascending: the cut-offs with score >= threshold are a prefix
    i = int(np.searchsorted(-cut.score, -threshold, side="right"))
    if i == 0:
        tp: int | float = 0 if cut.tp.dtype.kind == "i" else 0.0
        fp: int | float = tp
    else:
        tp, fp = cut.tp[i - 1].item(), cut.fp[i - 1].item()
    return Confusion(tp, fp, num_negative_ref - fp, num_positive_ref - tp)


def hit_curve(neg_scores: FloatArray, correct: BoolArray, ties: str) -> npt.NDArray[np.int64] | FloatArray:
    """h(t): correct cases among the top t, for t = 1..n.

    Stable: int64 counts. Grouped: float64 expected counts, linear inside a
    tie group (every ordering of the group equally likely).
    """
    hits = np.cumsum(correct, dtype=np.int64)
    if ties == "stable" or hits.size == 0:
        return hits
    ends = group_ends(neg_scores)
    t = np.arange(1, hits.size + 1, dtype=np.float64)
    return np.interp(t, np.concatenate(([0], ends)), np.concatenate(([0], hits[ends - 1])))


def expected_average_precision(neg_scores: FloatArray, correct: BoolArray, num_positive_ref: int | float) -> float:
    """Average precision in expectation over all orderings of tied scores.

    McSherry & Najork (ECIR 2008): for a tie group of n cases holding p correct
    ones, preceded by t cases of which c are correct, the i-th position of the
    group (i = 1..n) contributes

        (p / n) * (c + 1 + (i - 1) * (p - 1) / (n - 1)) / (t + i)

    (the expected relevance there times the expected precision given that it
    is relevant; the fraction is 0 when n = 1). The sum over all positions is
    divided by num_positive_ref. O(n). NaN when num_positive_ref is 0.
    """
    if num_positive_ref == 0:
        return float("nan")
    n_total = neg_scores.size
    if n_total == 0:
        return 0.0
    ends = group_ends(neg_scores)
    starts = np.concatenate(([0], ends[:-1]))
    sizes = ends - starts
    cum = np.concatenate(([0], np.cumsum(correct, dtype=np.int64)))
    pos = cum[ends] - cum[starts]
    before = cum[starts]
    keep = pos > 0
    sizes, starts, pos, before = sizes[keep], starts[keep], pos[keep], before[keep]
    n = np.repeat(sizes, sizes).astype(np.float64)
    t = np.repeat(starts, sizes).astype(np.float64)
    p = np.repeat(pos, sizes).astype(np.float64)
    c = np.repeat(before, sizes).astype(np.float64)
    i = np.arange(n.size, dtype=np.float64) - np.repeat(np.cumsum(sizes) - sizes, sizes) + 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        pair = np.where(n > 1, (p - 1.0) / (n - 1.0), 0.0)
    terms = (p / n) * (c + 1.0 + (i - 1.0) * pair) / (t + i)
    return seqsum(terms) / num_positive_ref


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
    if b2 > 1e250:  # (1 + b^2) * tp could overflow: divide through by b^2 (the limit is recall)
        c = (1.0 / beta) ** 2
        den = (c + 1.0) * tp + fn + c * fp
        return (c + 1.0) * tp / den if den else float("nan")
    den = (1.0 + b2) * tp + b2 * fn + fp
    return (1.0 + b2) * tp / den if den else float("nan")


# OperatingPoint report the public module (pickles, reprs); __test__ keeps the doctests
# of the class collected from this file.
OperatingPoint.__module__ = "scored_pr"
__test__ = {"OperatingPoint": OperatingPoint}
