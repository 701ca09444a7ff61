"""PR and ROC curves from operating points: rows, interpolation, the convex hull and the areas (partial ROC area too).

Pure functions of :class:`~scored_pr._core.points.Points` and the reference counts.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .points import BoolArray, FloatArray, IntArray, Points, seqsum, side_scale


def _ratio(num: npt.NDArray[Any], den: int | float) -> FloatArray:
    """num / den in float64, NaN for 0/0 and without warnings."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.true_divide(num, np.float64(den))


def recall(points: Points, num_positive_ref: int | float) -> FloatArray:
    """TP / num_positive_ref at every point (misses count in the denominator)."""
    return _ratio(points.tp, num_positive_ref)


def precision(points: Points, out: FloatArray | None = None, ones: FloatArray | None = None) -> FloatArray:
    """TP / k at every point (written into ``out`` when given, a float64 array of the points' size).

    ``ones``, for unit-step points, is ``np.arange(1.0, size + 1.0)`` already made (the caller's).
    """
    if points.unit_steps:  # tp = 1, 2, ...: the same values, fewer passes
        k = np.add(points.correct_idx_raw, 1.0, out=out)  # k = idx + 1, in the result's buffer
        return np.true_divide(np.arange(1.0, points.size + 1.0) if ones is None else ones, k, out=k)
    ret, tp = points.retrieved_raw, points.tp_raw
    if ret is not None and ret.dtype.kind == "i":  # integer counts, as stored: one division, no int64 copies
        # (the counts convert to float64 exactly, so this is the same division)
        return np.true_divide(np.arange(1.0, points.size + 1.0) if tp is None else tp, ret, dtype=np.float64, out=out)
    return np.true_divide(points.tp, points.retrieved.astype(np.float64), out=out)


def rejection_recall(points: Points, num_negative_ref: int | float) -> FloatArray:
    """1 - FP / num_negative_ref at every point; NaN when there are no negatives."""
    return 1.0 - _ratio(points.fp, num_negative_ref)


def pr_columns(
    points: Points, num_positive_ref: int | float, recall_out: FloatArray | None = None,
    precision_out: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """(recall, precision) at every point: the columns of :func:`pr_curve`, bit for bit.

    Written into ``recall_out`` and ``precision_out`` when given (float64
    arrays of the points' size, e.g. the columns of a curve), else into two
    new contiguous arrays: what the areas, the interpolation and the maximum
    F read, without the strided rows of a curve.
    """
    if recall_out is None:
        recall_out = np.empty(points.size)
    if points.unit_steps:  # tp = 1, 2, ...: one float arange (exact) for both columns, no int64 counts
        ones: FloatArray = np.arange(1.0, points.size + 1.0, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):  # as _ratio: NaN for 0/0, no warning
            np.true_divide(ones, np.float64(num_positive_ref), out=recall_out)
        return recall_out, precision(points, precision_out, ones)
    with np.errstate(divide="ignore", invalid="ignore"):  # as _ratio: NaN for 0/0, no warning
        np.true_divide(points.tp, np.float64(num_positive_ref), out=recall_out)
    return recall_out, precision(points, precision_out)


def pr_curve(points: Points, num_positive_ref: int | float) -> FloatArray:
    """(recall, precision) rows, recall strictly increasing."""
    # Each column computed into the result (the values of column_stack((recall, precision)), one array fewer)
    out = np.empty((points.size, 2))
    pr_columns(points, num_positive_ref, out[:, 0], out[:, 1])
    return out


def pr_score_curve(points: Points, num_positive_ref: int | float) -> FloatArray:
    """(recall, precision, score) rows, recall strictly increasing."""
    return np.column_stack((recall(points, num_positive_ref), precision(points), -points.neg_score))


def roc_curve(points: Points, num_positive_ref: int | float, num_negative_ref: int | float) -> FloatArray:
    """(recall, rejection recall) rows, recall strictly increasing."""
    return np.column_stack((recall(points, num_positive_ref), rejection_recall(points, num_negative_ref)))


_FLOAT_MAX = float(np.finfo(np.float64).max)


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
        np.fmax.accumulate(y[:0:-1], out=later_best[-2::-1])  # written in place, from the end
        # fmax ignores NaN unless every later value is NaN; the bar stays -inf then (and, as
        # nan_to_num has always made them, infinite bars are the largest finite floats).
        # later_best[:-1] is non-increasing, so with both ends finite all of it is: only the
        # last bar needs the value nan_to_num gives it, without a pass over the rest.
        if math.isfinite(later_best[0]) and math.isfinite(later_best[-2]):
            later_best[-1] = -_FLOAT_MAX
        else:
            np.nan_to_num(later_best, copy=False, nan=-np.inf)
    with np.errstate(invalid="ignore"):
        return y > later_best


def interpolate(curve: FloatArray) -> FloatArray:
    """Rows of ``curve`` not dominated by a later row (column 1 is the y value)."""
    return np.compress(interpolation_mask(curve[:, 1]), curve, axis=0)  # curve[mask], without the slow 2-d path


def interpolate_columns(x: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The columns of ``interpolate(column_stack((x, y)))``: the points not dominated by a later one."""
    keep = interpolation_mask(y)
    return np.compress(keep, x), np.compress(keep, y)


def step_area(curve: FloatArray) -> float:
    """Area under a step function through (x, y) rows, starting at x = 0.

    sum_i (x_i - x_{i-1}) * y_i with x_0 = 0; 0.0 for an empty curve.
    """
    return step_area_xy(curve[:, 0], curve[:, 1])


def step_area_xy(x: FloatArray, y: FloatArray) -> float:
    """:func:`step_area` of the rows ``(x[i], y[i])``, given as two columns (the same operations, bit for bit)."""
    if x.size == 0:
        return 0.0
    # np.diff(x, prepend=0.0) * y, summed left to right, in one buffer (in blocks it is no faster:
    # the running sum, one dependent addition per term, is most of the time)
    term = np.empty(x.size)
    term[0] = x[0] - 0.0
    np.subtract(x[1:], x[:-1], out=term[1:])
    term *= y
    return float(np.cumsum(term, out=term)[-1])  # seqsum: a plain loop's rounding


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


def _roc_ends(
    points: Points, num_positive_ref: int | float, num_negative_ref: int | float
) -> tuple[npt.NDArray[Any], npt.NDArray[Any], FloatArray, FloatArray]:
    """(tp, fp, recall, rejection recall) at every point: the rows of :func:`roc_rows` before the misses' row."""
    tp_count = points.tp
    fp_count = points.retrieved - tp_count if points.fp_raw is None else points.fp_raw
    return tp_count, fp_count, _ratio(tp_count, num_positive_ref), 1.0 - _ratio(fp_count, num_negative_ref)


def roc_curve_rows(points: Points, num_positive_ref: int | float, num_negative_ref: int | float) -> FloatArray:
    """``column_stack((rows.recall, rows.rr_end))`` of :func:`roc_rows`: the uninterpolated ROC curve, no segments.

    The same values, bit for bit, without the segments' start columns
    (which the curve does not show; with scattered ties they are copies
    of the end columns patched at a few rows). Grouped ties with misses
    end at (1, 0), as :func:`roc_rows` does.
    """
    _, _, r, rr_end = _roc_ends(points, num_positive_ref, num_negative_ref)
    if points.grouped and num_positive_ref > points.total_tp:  # misses: the bottom tie group
        r = np.append(r, 1.0)
        rr_end = np.append(rr_end, 0.0 if num_negative_ref else np.nan)
    return np.column_stack((r, rr_end))


def roc_rows(points: Points, num_positive_ref: int | float, num_negative_ref: int | float) -> RocRows:
    """The uninterpolated ROC curve of a tie policy, with its segments.

    Stable ties: one vertical step per correct case (LingPipe); misses are
    never reached. Grouped ties: one segment per tie group holding a correct
    case, from the rejection recall before the group to the one after it;
    when there are misses, unreturned positives and unreturned negatives form
    one more tie group below every returned case, which ends at (1, 0).
    """
    tp_count, fp_count, r, rr_end = _roc_ends(points, num_positive_ref, num_negative_ref)
    tp, fp = tp_count.astype(np.float64), fp_count.astype(np.float64)
    if not points.grouped:
        return RocRows(r, rr_end, rr_end, tp, fp, fp)
    # untied: every segment is a vertical step, as under the stable policy
    if points.untied:
        rr_start, fp_start = rr_end, fp
    elif points.tied is not None:  # scattered ties: vertical steps but at the few tied points
        tied = points.tied
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


def roc_points_area_exact(points: Points, num_positive_ref: int, num_negative_ref: int) -> float:
    """``roc_rows_area_exact(roc_rows(points, P, N), P, N)`` read from the points' integer counts (unweighted points).

    The same integer numerator, summed without the float rows: with
    ``fp_j`` the incorrect cases at point j and ``fp_before_j`` those above
    its tie group::

        sum_j (tp_j - tp_{j-1}) * (2 N - fp_before_j - fp_j)
          = sum_j (tp_j - tp_{j-1}) * 2 (N - fp_j) + sum_j (tp_j - tp_{j-1}) * (fp_j - fp_before_j)

    The second sum is zero at a point whose group holds no incorrect case,
    so with scattered ties it runs over the few tied points only; and the
    first is 2 (N TP - sum_j fp_j - sum_j (dtp_j - 1) fp_j), where
    sum_j fp_j = sum_j retrieved_j - sum_j tp_j is two sums of the stored
    counts and dtp_j - 1 is zero but at the tied points. Grouped ties add the bottom
    group of misses (``(P - TP) * (N - FP)``) as :func:`roc_rows` does.
    Equal bit for bit to :func:`roc_rows_area_exact` (the same integer,
    divided once). NaN when P or N is 0; 0.0 for no rows. O(P') integer
    passes, no float array.
    """
    p, n = int(num_positive_ref), int(num_negative_ref)
    if not p or not n:
        return math.nan
    if 2 * p * n >= 2**62:  # huge counts: Python integers, through the rows
        return roc_rows_area_exact(roc_rows(points, p, n), p, n)
    total_tp, total_fp = int(points.total_tp), int(points.total_fp)
    misses = points.grouped and p > total_tp
    if points.size == 0 and not misses:
        return 0.0
    num = 0
    ret, tp = points.retrieved_raw, points.tp_raw
    if points.size and (ret is None or ret.dtype.kind == "i"):
        # sum_j dtp_j fp_j = sum_j fp_j + sum_j (dtp_j - 1) fp_j, and sum_j fp_j = sum_j retrieved_j - sum_j tp_j
        size = points.size
        ret_sum = int(np.sum(points.correct_idx_raw, dtype=np.int64)) + size if ret is None else int(np.sum(ret, dtype=np.int64))
        tp_sum = size * (size + 1) // 2 if tp is None else int(np.sum(tp, dtype=np.int64))
        tp_last = size if tp is None else int(tp[-1])
        fp_sum = ret_sum - tp_sum
        if points.tied is not None:  # scattered ties: dtp_j = 1 and fp_before_j = fp_j but at the few tied points
            j = points.tied
            assert ret is not None
            tp_j = j + 1 if tp is None else tp[j].astype(np.int64)
            dtp_j = tp_j - (j if tp is None else np.where(j > 0, tp[np.maximum(j - 1, 0)], 0))
            fp_j = ret[j] - tp_j
            fp_sum += int(np.dot(dtp_j - 1, fp_j))
            num += int(np.dot(dtp_j, fp_j - points.tied_fp_before()))  # the tie groups' diagonal segments
        elif tp is not None:  # counts kept for every point (heavy ties): read in full
            fp = points.retrieved - points.tp
            dtp = np.diff(points.tp, prepend=0)
            fp_sum += int(np.dot(dtp - 1, fp))
            if points.grouped and not points.untied:
                num += int(np.dot(dtp, fp - points.fp_before))
        num += 2 * (n * tp_last - fp_sum)
    elif points.size:  # pragma: no cover (weighted points: the evaluator sums their float rows)
        return roc_rows_area_exact(roc_rows(points, p, n), p, n)
    if misses:  # the bottom tie group: unreturned positives and negatives
        num += (p - total_tp) * (n - total_fp)
    return num / (2 * p * n)  # int / int: correctly rounded


def roc_area(points: Points, num_positive_ref: int | float, num_negative_ref: int | float) -> float:
    """Uninterpolated ROC area: :func:`roc_rows_area` of :func:`roc_rows`.

    With stable ties a point's segment is a vertical step and this is exactly
    LingPipe's step area; with grouped ties a tied correct/incorrect pair
    counts one half (the Mann-Whitney statistic, scikit-learn's
    ``roc_auc_score``), misses against unreturned negatives included.
    """
    return roc_rows_area(roc_rows(points, num_positive_ref, num_negative_ref))


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
    xs, ys = x, y  # x[idx], y[idx]: gathered once per sweep, each neighbour a slice of them
    for _ in range(64):
        if idx.size <= 2:
            return idx
        xa, ya = xs[:-2], ys[:-2]
        xb, yb = xs[1:-1], ys[1:-1]
        xc, yc = xs[2:], ys[2:]
        # cross >= 0: b is on or below the chord from a to c
        drop = (xb - xa) * (yc - ya) - (yb - ya) * (xc - xa) >= 0.0
        if not drop.any():
            return idx
        keep = np.ones(idx.size, dtype=bool)
        keep[1:-1] = ~drop
        idx, xs, ys = idx[keep], xs[keep], ys[keep]
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


#: Every how many points :func:`_sampled_upper_hull` samples.
_HULL_SAMPLE = 64
#: Points per block of the filter of :func:`_sampled_upper_hull` (128 KiB temporaries).
_HULL_BLOCK = 16384


def _integral(a: FloatArray) -> bool:
    """Whether every value of ``a`` is a whole number (in blocks: no whole-array temporaries)."""
    for lo in range(0, a.size, _HULL_BLOCK):
        part = a[lo : lo + _HULL_BLOCK]
        if not np.array_equal(part, np.rint(part)):
            return False
    return True


def _sampled_upper_hull(x: FloatArray, y: FloatArray) -> IntArray:
    """:func:`upper_hull` for coordinates whose cross products are exact, faster on long curves.

    The upper hull of every ``_HULL_SAMPLE``-th point (and the last) lies on
    or below the full hull, so a point on or below it is not a vertex of the
    full hull (on it, it would be collinear with a full hull edge, and
    dropped); one vectorised pass drops those, and :func:`upper_hull` of
    what is left (with the sample's vertices) is the full hull's. With exact
    arithmetic the vertices are the same as :func:`upper_hull`'s. O(m).

    "Exact" means every product of a coordinate and a difference of
    coordinates (y * dx, x * dy) is below 2**53 in magnitude, in units of
    the coordinates' spacing: integer counts with fp * tp < 2**52 (or such
    counts scaled by powers of two).
    """
    m = x.size
    if m <= 8 * _HULL_SAMPLE:
        return upper_hull(x, y)
    step = _HULL_SAMPLE
    sample: np.ndarray = np.arange(0, m, step, dtype=np.int64)
    if sample[-1] != m - 1:
        sample = np.append(sample, m - 1)
    h = sample[upper_hull(x[sample], y[sample])]  # from 0 to m - 1
    # A hull edge joins two sample points, so one edge lies over each run of ``step`` points
    # [k step, (k + 1) step) (and one over the last, shorter run): the points are viewed as
    # rows of ``step`` and each row is tested against its edge by broadcasting, with no
    # per-point gather. The test of upper_hull's sweeps, cross < 0, keeps the points strictly
    # above their edge, (x - xa) dy < (y - ya) dx, written y dx - x dy > ya dx - xa dy: every
    # product and difference is exact here, so both forms decide alike (a vertex is not above
    # its own edge; the sample's vertices are kept anyway).
    rows = (m - 1) // step  # full rows before the last point; the rest, [rows step, m - 1), is one run
    first = np.arange(0, rows * step + 1, step, dtype=np.int64)  # each row's first point, and the rest's
    e = np.searchsorted(h, first, side="right") - 1
    e = np.minimum(e, h.size - 2)
    a, c = h[e], h[e + 1]
    xa, ya = x[a], y[a]
    dx, dy = x[c] - xa, y[c] - ya
    bar = ya * dx
    bar -= xa * dy
    keep = np.empty(m, dtype=bool)
    full = rows * step
    if rows:
        # in blocks of rows whose temporaries stay in the cache
        xs, ys, ks = x[:full].reshape(rows, step), y[:full].reshape(rows, step), keep[:full].reshape(rows, step)
        chunk = max(_HULL_BLOCK // step, 1)
        lhs, rhs = np.empty((min(chunk, rows), step)), np.empty((min(chunk, rows), step))
        for r0 in range(0, rows, chunk):
            r1 = min(r0 + chunk, rows)
            lb, rb = lhs[: r1 - r0], rhs[: r1 - r0]
            np.multiply(ys[r0:r1], dx[r0:r1, None], out=lb)
            np.multiply(xs[r0:r1], dy[r0:r1, None], out=rb)
            lb -= rb
            np.greater(lb, bar[r0:r1, None], out=ks[r0:r1])
        del lhs, rhs
    np.greater(y[full:] * dx[rows] - x[full:] * dy[rows], bar[rows], out=keep[full:])
    keep[h] = True  # with the last point
    cand = np.flatnonzero(keep)
    return cand[upper_hull(x[cand], y[cand])]


def roc_points_hull(points: Points, num_positive_ref: int, num_negative_ref: int) -> RocRows:
    """``roc_convex_hull(roc_rows(points, P, N))`` read from the points' integer counts (unweighted points).

    The same rows, bit for bit, without the float rows of every point: the
    hull is found on the integer true/false positive counts (the misses'
    bottom row included under grouped ties, as :func:`roc_rows` adds it),
    and recall and rejection recall are computed at its vertices only, by
    the same divisions. Empty when there are no rows or N is 0. O(P').
    """
    p, n = int(num_positive_ref), int(num_negative_ref)
    misses = points.grouped and p > points.total_tp
    size = points.size
    if (size == 0 and not misses) or n == 0:
        empty = np.zeros(0, dtype=np.float64)
        return RocRows(empty, empty, empty, empty, empty, empty)
    m = size + misses
    # The counts as float64 (exact: below 2**53), the origin first and the misses' row last.
    # roc_convex_hull scales each side by a power of two; that changes no cross product's
    # sign nor any rounding (both scale exactly), so the vertices are found unscaled.
    x = np.empty(m + 1)
    if points.unit_steps:  # point j holds j + 1 correct cases among the top correct_idx[j] + 1
        idx = points.correct_idx_raw
        y = np.arange(m + 1, dtype=np.float64)  # tp_j = j + 1 at y[j + 1] (made in place: no copy)
        np.subtract(idx, y[:size], out=x[1 : size + 1])  # fp_j = idx_j - j
    else:
        y = np.empty(m + 1)
        tp_count = points.tp
        fp_count = points.retrieved - tp_count if points.fp_raw is None else points.fp_raw
        y[1 : size + 1] = tp_count
        x[1 : size + 1] = fp_count
    x[0] = y[0] = 0.0
    if misses:  # the bottom tie group, as roc_rows appends it
        x[m], y[m] = n, p
    fp_last, tp_last = float(x[m]), float(y[m])
    keep = (_sampled_upper_hull(x, y) if fp_last * tp_last < 2.0**52 else upper_hull(x, y))[1:] - 1
    # the counts at the vertices: keep indexes the points (and m - 1 the misses' row)
    tp, fp = y[keep + 1], x[keep + 1]
    del x, y
    r, rr = _ratio(tp, p), 1.0 - _ratio(fp, n)  # the divisions of roc_rows, at the vertices only
    return RocRows(r, np.concatenate(([1.0], rr[:-1])), rr, tp, fp, np.concatenate(([0.0], fp[:-1])))


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
    # The hull is the same for x and y scaled by positive factors: powers of two
    # (exact) keep the cross products of weight sums from overflowing.
    x = np.concatenate(([0.0], rows.fp)) * side_scale(float(rows.fp[-1]))
    y = np.concatenate(([0.0], rows.tp)) * side_scale(float(rows.tp[-1]))
    # Counts (no weights) small enough that every cross product is exact: drop first what lies
    # under the hull of a sample (the exact test then gives the same vertices whatever it drops).
    exact = float(rows.fp[-1]) * float(rows.tp[-1]) < 2.0**52 and _integral(rows.fp) and _integral(rows.tp)
    keep = (_sampled_upper_hull(x, y) if exact else upper_hull(x, y))[1:] - 1  # drop the origin
    r, rr = r[keep], rr[keep]
    fp = rows.fp[keep]
    return RocRows(r, np.concatenate(([1.0], rr[:-1])), rr, rows.tp[keep], fp, np.concatenate(([0.0], fp[:-1])))
