"""The step functions that every display of a curve draws, and the curves' points in drawing coordinates.

Pure reading: each function asks an evaluator of any kind that holds one
ranking for its public queries (``pr_curve``, ``roc_curve``, ``roc_points``,
``pr_score_curve``, ``pr_band``/``roc_band``, ``bins``) and returns numpy
arrays; nothing here draws or imports matplotlib. The displays
(:mod:`.curves`), ``scored_pr.plot`` and the HTML report (``scored_pr._html``)
all take their points from here, so the drawn curves and the page's curves
are the same numbers.

Coordinates: PR is (recall, precision); ROC is drawn in the usual
orientation, (false positive rate, true positive rate) = (1 - rejection
recall, recall).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import UnsupportedQuery, check_evaluation, check_flag

__all__ = ["pr_steps", "roc_steps", "pr_points", "roc_points_xy", "roc_boxes_xy"]

FloatArray = npt.NDArray[np.float64]

_PER_QUERY = "it holds one ranking per query; plot one query's evaluator, evaluation[query]."


def check_ranking(evaluation: Any, func: str) -> tuple[bool, Any]:
    """(bounded, the evaluator to read): a window or a shared evaluator is read through one snapshot.

    TypeError for anything that is not an evaluator, UnsupportedQuery for a
    kind that holds more than one ranking (multi-query, multi-label), each
    naming ``func`` and the argument ``evaluation``.
    """
    kind, ev = check_evaluation(evaluation, func, multi=_PER_QUERY)
    return kind == "bounded", ev


def check_interpolate(bounded: bool, interpolate: Any, func: str) -> bool:
    """``interpolate`` as a bool; UnsupportedQuery when True for a bounded summary (it has no interpolated curve)."""
    interpolate = check_flag(interpolate, func, "interpolate")
    if bounded and interpolate:
        raise UnsupportedQuery(
            f"{func}: a BoundedEvaluation has no interpolated curve: its certified bounds (pr_band(), "
            "roc_band()) hold the uninterpolated curve; plot with interpolate=False, or plot an exact "
            "ScoredPrecisionRecallEvaluation of the cases."
        )
    return interpolate


def pr_points(ev: Any, interpolate: bool, bounded: bool) -> FloatArray:
    """The PR curve's operating points as (recall, precision) rows, shape (n, 2).

    ``ev`` is a checked view (:func:`check_ranking`): ``pr_curve(interpolate)``,
    or a bounded summary's estimate curve (``pr_band().estimate``).
    """
    curve = ev.pr_band().estimate if bounded else ev.pr_curve(interpolate)
    return np.asarray(curve, dtype=np.float64).reshape(-1, 2)


def roc_points_xy(curve: Any) -> FloatArray:
    """ROC rows (recall, rejection recall) as (false positive rate, true positive rate) rows, shape (n, 2)."""
    rows = np.asarray(curve, dtype=np.float64).reshape(-1, 2)
    return np.column_stack((1.0 - rows[:, 1], rows[:, 0]))


def roc_boxes_xy(boxes: Any) -> FloatArray:
    """ROC boxes (recall low, recall high, rejection recall low, high) as (fpr low, fpr high, tpr low, tpr high)."""
    b = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    return np.column_stack((1.0 - b[:, 3], 1.0 - b[:, 2], b[:, 0], b[:, 1]))


def pr_steps(evaluation: Any, interpolate: bool = False) -> tuple[FloatArray, FloatArray]:
    """Vertices (x = recall, y = precision) of the PR step function that is plotted.

    Parameters
    ----------
    evaluation : any evaluator kind
        A window or a shared evaluator is read through ``snapshot()``; a
        BoundedEvaluation gives its estimate curve (``pr_band().estimate``).
    interpolate : bool, default False
        Use ``pr_curve(True)`` instead of ``pr_curve(False)`` (not for a
        BoundedEvaluation: UnsupportedQuery).

    Returns
    -------
    x, y : numpy.ndarray of float64, shape (2 * n_points,)
        ``(0, p_1), (r_1, p_1), (r_1, p_2), (r_2, p_2), ...``: precision
        ``p_j`` held over recall ``(r_{j-1}, r_j]``. The trapezoid area under
        this polyline is ``area_under_pr_curve(interpolate)``. Empty when the
        curve is.

    Examples
    --------
    >>> from scored_pr import ScoredPrecisionRecallEvaluation
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True], [0.9, 0.8, 0.7])
    >>> x, y = pr_steps(ev)
    >>> x.tolist(), y.round(3).tolist()
    ([0.0, 0.5, 0.5, 1.0], [1.0, 1.0, 0.667, 0.667])
    >>> float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))  # trapezoid area = AP
    0.8333333333333333
    """
    bounded, ev = check_ranking(evaluation, "pr_steps")
    interpolate = check_interpolate(bounded, interpolate, "pr_steps")
    return _pr_steps(pr_points(ev, interpolate, bounded))


def _pr_steps(curve: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The step vertices of (recall, precision) rows ``curve``."""
    r, p = curve[:, 0], curve[:, 1]
    x = np.repeat(np.concatenate(([0.0], r)), 2)[1:-1]
    y = np.repeat(p, 2)
    return x, y


def roc_steps(evaluation: Any, interpolate: bool = False) -> tuple[FloatArray, FloatArray]:
    """Vertices (x = false positive rate, y = recall) of the ROC curve that is plotted.

    Parameters
    ----------
    evaluation : any evaluator kind
        A window or a shared evaluator is read through ``snapshot()``; a
        BoundedEvaluation gives its estimate curve, every bin one tie group
        (``roc_band().estimate``, with the segments across the bins).
    interpolate : bool, default False
        Use ``roc_curve(True)`` instead of the uninterpolated curve: with
        stable ties LingPipe's staircase, with grouped ties the ROC convex
        hull (not for a BoundedEvaluation: UnsupportedQuery).

    Returns
    -------
    x, y : numpy.ndarray of float64
        A monotone polyline from (0, 0) to (1, 1). Each operating point j of
        ``roc_curve(interpolate)``, with recall ``r_j`` and false positive
        rate ``f_j = 1 - rejection recall``, contributes the segment from
        ``(f_start, r_{j-1})`` to ``(f_j, r_j)``, joined by horizontal
        segments. ``f_start = f_j`` (a vertical step) with stable ties; with
        grouped ties it is the rate before the point's tie group (a diagonal
        across a mixed group), and on the convex hull the previous vertex's
        rate. The polyline ends with ``(1, r_n), (1, 1)``. The
        trapezoid area under it is ``area_under_roc_curve(interpolate)``. Empty
        when the curve is, or when there is no negative reference case
        (the false positive rate is 0/0).

    Examples
    --------
    >>> from scored_pr import ScoredPrecisionRecallEvaluation
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
    >>> x, y = roc_steps(ev)
    >>> x.tolist(), y.tolist()
    ([0.0, 0.0, 0.0, 0.5, 0.5, 1.0, 1.0], [0.0, 0.0, 0.5, 0.5, 1.0, 1.0, 1.0])
    """
    bounded, ev = check_ranking(evaluation, "roc_steps")
    interpolate = check_interpolate(bounded, interpolate, "roc_steps")
    return _roc_steps(ev, interpolate, bounded)


def _roc_steps(ev: Any, interpolate: bool, bounded: bool) -> tuple[FloatArray, FloatArray]:
    """The ROC polyline of a checked view ``ev`` (see :func:`roc_steps`)."""
    if ev.num_negative_ref == 0:
        return np.zeros(0), np.zeros(0)
    r, f_start, f_end = _bounded_roc_segments(ev) if bounded else _roc_segments(ev, interpolate)
    if r.size == 0:
        return np.zeros(0), np.zeros(0)
    r_prev = np.concatenate(([0.0], r[:-1]))
    # per point: (f_start, r_prev) -> (f_end, r); the horizontal joins are implicit
    x = np.concatenate(([0.0], np.column_stack((f_start, f_end)).ravel(), [1.0, 1.0]))
    y = np.concatenate(([0.0], np.column_stack((r_prev, r)).ravel(), [r[-1], 1.0]))
    return x, y


def _roc_segments(ev: Any, interpolate: bool) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(recall, fpr where the segment to the row starts, fpr at the row) of each ``roc_curve`` row.

    With stable ties every row is reached by a vertical step; on the convex
    hull from the previous vertex. Uninterpolated grouped rows are tie
    groups: the segment starts at the rate before the group, read from
    ``roc_points()`` at the group's score (``pr_score_curve()``), and the
    bottom tie group of the misses starts after every returned case.
    """
    curve = ev.roc_curve(interpolate)
    r, rr_end = curve[:, 0], curve[:, 1]
    if ev.ties == "stable" or r.size == 0:
        rr_start = rr_end
    elif interpolate:
        rr_start = np.concatenate(([1.0], rr_end[:-1]))
    else:
        fpr, _, thresholds = ev.roc_points()  # point 0 is (0, 0) at threshold inf, then one per distinct score
        group_scores = ev.pr_score_curve(False)[:, 2]
        before = np.searchsorted(-thresholds[1:], -group_scores)  # index of the point before each group
        n = before.size
        rr_start = rr_end.copy()
        vertical = fpr[before + 1] == fpr[before]  # no incorrect case in the group: exactly a vertical step
        rr_start[:n] = np.where(vertical, rr_end[:n], 1.0 - fpr[before])
        if r.size > n:  # the misses: the bottom tie group, after every returned case
            rr_start[n] = 1.0 - fpr[-1]
    return r, 1.0 - rr_start, 1.0 - rr_end


def _bounded_roc_segments(ev: Any) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The same for a bounded summary's estimate: every bin holding a correct case is one tie group."""
    _, _, pos, neg = ev.bins()
    pos_ref, neg_ref = ev.positive_weight, ev.negative_weight
    tp, fp = np.cumsum(pos), np.cumsum(neg)
    fp_before = np.concatenate(([0.0], fp))[:-1]
    has = pos > 0
    r, f_start, f_end = tp[has] / pos_ref, fp_before[has] / neg_ref, fp[has] / neg_ref
    if ev.num_misses:  # the bottom tie group of misses and negative misses
        returned = fp[-1] / neg_ref if fp.size else 0.0
        r, f_start, f_end = np.append(r, 1.0), np.append(f_start, returned), np.append(f_end, 1.0)
    return r, f_start, f_end
