"""Calibration sums of bounded memory: what binned calibration, the Brier score and the log loss need, mergeable.

A :class:`CalibrationSums` holds, for ``n`` uniform bins on [0, 1] (the edges
``linspace(0, 1, n + 1)``, the exact evaluator's), the sums of ``2 n + 1`` cells:
cell ``2 i`` the cases scored exactly at edge ``e_i``, cell ``2 i + 1`` those
strictly inside ``(e_i, e_{i+1})``. Both edge rules are then sums of cells: the
expected calibration error's bins closed on the left (``[e_i, e_{i+1})``, 1.0 in
the last) and ``calibration_curve``'s closed on the right (``(e_i, e_{i+1}]``, 0.0
in the first). For each cell: the weight, the weight of the correct cases, the
weighted score sum and the sum of squared weights; and four totals over every
case: sum w s**2, sum over correct cases of w s, sum over correct cases of w
log(s) and over incorrect cases of w log(1 - s) (s clipped to [EPS, 1 - EPS], as
the log loss clips it). The Brier score is ``(sum w s**2 - 2 sum_pos w s +
W_pos) / W`` and the log loss ``-(log terms) / W``.

Coarser bins are exact when their edges are edges of the stored ones, bit for
bit (:func:`coarse_counts`: 15 stored bins answer 1, 3 and 15; ``linspace(0, 1,
6)``'s 0.2 is not ``linspace(0, 1, 16)``'s 3 / 15). Adding is vectorised
(each score's cell by a multiply, a binary search only next to an edge, then
``np.bincount`` over a batch); merging adds the arrays. The totals' dot products
run in the calling thread (``_dot``): through OpenBLAS they waited for its
threads on busy cores, and their last bits depended on how many threads it used.

A score outside [0, 1] is not summed: the one the exact evaluator would name is
kept (``bad``: the lowest score if one is below 0, else the highest) and every
calibration query refuses, naming it; being a minimum or a maximum, it does not
depend on the order of the cases or of merges. Nothing here validates.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .calibration import EPS, CalibrationBins, _dot

__all__ = ["CalibrationSums", "add", "brier_score", "cells_of", "coarse", "coarse_counts", "empty", "exact_cells", "log_loss", "merge"]

F64 = npt.NDArray[np.float64]
#: The totals' order in :attr:`CalibrationSums.totals`.
SQUARE_SCORE, POSITIVE_SCORE, LOG_TERMS = 0, 1, 2


class CalibrationSums(NamedTuple):
    """The calibration sums of a summary (see the module).

    ``weight``, ``positive``, ``score``, ``square``: per cell (``2 n_bins + 1``);
    ``totals``: [sum w s**2, sum_pos w s, sum of the clipped log-likelihood terms];
    ``bad``: the lowest score below 0 added, else the highest above 1, or None.
    """

    n_bins: int
    weight: F64
    positive: F64
    score: F64
    square: F64
    totals: F64
    bad: float | None = None


def edges(n_bins: int) -> F64:
    """The uniform edges, exactly as the exact evaluator makes them."""
    return np.asarray(np.linspace(0.0, 1.0, n_bins + 1), dtype=np.float64)


def empty(n_bins: int) -> CalibrationSums:
    """The sums of no case."""
    z = np.zeros(2 * n_bins + 1)
    return CalibrationSums(n_bins, z, z.copy(), z.copy(), z.copy(), np.zeros(3))


def add(sums: CalibrationSums, correct: npt.NDArray[np.bool_], scores: F64, weights: F64 | None) -> CalibrationSums:
    """``sums`` with a batch of cases added (a new value; ``sums`` is not changed). O(n log n_bins).

    Once a score outside [0, 1] has been seen nothing more is summed (every
    calibration query refuses from then on); only ``bad`` is kept up to date.
    """
    if scores.size == 0:
        return sums
    lowest, highest = float(scores.min()), float(scores.max())  # NaN never arrives (the evaluator refuses it)
    if lowest < 0.0 or highest > 1.0 or sums.bad is not None:
        here = lowest if lowest < 0.0 else highest if highest > 1.0 else None
        return sums._replace(bad=_worse(sums.bad, here))
    logs = np.empty_like(scores)  # cells_of's work array, then the logs (one fresh array fewer: page faults)
    cell = cells_of(scores, sums.n_bins, logs)
    cells = sums.weight.size
    # the probability given to each case's outcome, clipped as the log loss clips the score (clipping
    # 1 - s to [EPS, 1 - EPS] is clipping s: 1 - (1 - EPS) = EPS exactly); one vectorised log for
    # both classes, log(1 - s) as scikit-learn's log_loss takes it (1 - s is exact for s >= 0.5)
    np.subtract(1.0, scores, out=logs)
    np.copyto(logs, scores, where=correct)  # the probability told of each outcome
    if lowest < EPS or highest > 1.0 - EPS:
        np.clip(logs, EPS, 1.0 - EPS, out=logs)
    np.log(logs, out=logs)
    if weights is None:
        score = _sum(cell, scores, cells)
        # the counts of each cell's cases and of its correct ones from one bincount of 2 cell + correct
        # (whole numbers: the same floats as two bincounts)
        np.left_shift(cell, 1, out=cell)
        np.add(cell, correct, out=cell)
        both = np.bincount(cell, minlength=2 * cells).reshape(cells, 2)
        positive = both[:, 1].astype(np.float64)
        weight = (both[:, 0] + both[:, 1]).astype(np.float64)
        square = weight
        # einsum casts the flags in its buffer: the same products, in the same order, as of a float copy
        totals = np.array([_dot(scores, scores), float(np.einsum("i,i->", correct, scores, dtype=np.float64)), float(logs.sum())])
    else:
        weight = _sum(cell, weights, cells)
        wp = correct * weights
        positive = _sum(cell, wp, cells)
        ws = weights * scores
        score = _sum(cell, ws, cells)
        with np.errstate(over="ignore"):  # weights up to 2**970: their squares may be +inf, as the exact evaluator's
            square = _sum(cell, weights * weights, cells)
        totals = np.array([_dot(ws, scores), _dot(wp, scores), _dot(weights, logs)])
    return CalibrationSums(
        sums.n_bins, sums.weight + weight, sums.positive + positive, sums.score + score, sums.square + square,
        sums.totals + totals,
    )


def cells_of(scores: F64, n_bins: int, work: F64 | None = None) -> npt.NDArray[np.intp]:
    """Each score's cell (scores in [0, 1]): ``2 i`` at edge ``e_i``, ``2 i + 1`` inside ``(e_i, e_{i+1})``.

    ``t = s * n``; where the fraction of t is at least ``n * 1e-12`` from 0 and from 1, the score
    is strictly inside bin ``floor(t)``: t is within ``n * 2**-53`` of s n and each edge ``e_i``
    (``linspace``'s ``i * (1 / n)``) within ``n * 2**-52`` of i in the same units, a thousand times
    less than that margin. The few others (scores at or next to an edge: 0.0, 1.0, 0.2 of 15 bins)
    are placed by a binary search of the edges (:func:`exact_cells`). The same cells as the search
    for every score, in about eight passes of one float and one int array, none of them a gather.
    ``work``: a float64 array of the scores' size to hold the float one (its values are then
    garbage). O(n).
    """
    t = np.multiply(scores, float(n_bins), out=work)
    cell = t.astype(np.intp)  # scores >= 0: truncation is floor
    np.subtract(t, cell, out=t)  # the fraction
    t -= 0.5
    np.abs(t, out=t)
    near = np.flatnonzero(t >= 0.5 - n_bins * 1e-12)
    cell *= 2
    cell += 1
    if near.size:
        cell[near] = exact_cells(scores[near], n_bins)
    return cell


def exact_cells(scores: F64, n_bins: int) -> npt.NDArray[np.intp]:
    """:func:`cells_of` by a binary search of the edges: ``e_i <= s < e_{i+1}`` gives ``2 i``, or ``2 i + 1`` if ``s != e_i``. O(n log n_bins)."""
    e = edges(n_bins)
    i = np.searchsorted(e, scores, side="right") - 1  # scores in [0, 1]: i in [0, n_bins]
    out: npt.NDArray[np.intp] = 2 * i + (scores != e[i])
    return out


def _sum(cell: npt.NDArray[np.intp], values: F64 | None, cells: int) -> F64:
    """Each cell's sum of ``values`` (its count when None), as float64."""
    out: F64 = np.bincount(cell, weights=values, minlength=cells).astype(np.float64, copy=False)
    return out


def merge(a: CalibrationSums, b: CalibrationSums) -> CalibrationSums:
    """The sums of both summaries' cases (the same ``n_bins``)."""
    bad = _worse(a.bad, b.bad)
    return CalibrationSums(
        a.n_bins, a.weight + b.weight, a.positive + b.positive, a.score + b.score, a.square + b.square,
        a.totals + b.totals, bad,
    )


def _worse(a: float | None, b: float | None) -> float | None:
    """The score the exact evaluator names of two bad scores (either may be None): the lowest below 0, else the highest."""
    if a is None or b is None:
        return b if a is None else a
    if a < 0.0 or b < 0.0:
        return min(a, b)
    return max(a, b)


def coarse_counts(n_bins: int) -> tuple[int, ...]:
    """The bin counts answered exactly by ``n_bins`` stored bins: divisors whose edges are stored edges, bit for bit."""
    e = edges(n_bins)
    return tuple(
        d for d in range(1, n_bins + 1)
        if n_bins % d == 0 and np.array_equal(edges(d), e[:: n_bins // d])
    )  # fmt: skip


def coarse(sums: CalibrationSums, d: int, closed: str) -> CalibrationBins:
    """The per-bin sums of ``d`` uniform bins (one of :func:`coarse_counts`), closed on the ``closed`` side."""
    r = sums.n_bins // d
    if closed == "left":  # [e_i, e_{i+1}): the edge at its start and the cells up to the next edge; 1.0 in the last
        starts = 2 * r * np.arange(d)
        extra, into = 2 * sums.n_bins, d - 1
    else:  # (e_i, e_{i+1}]: the cells after its first edge up to its last; 0.0 in the first
        starts = 1 + 2 * r * np.arange(d)
        extra, into = 0, 0

    def fold(cells: F64) -> F64:
        body = cells[: 2 * sums.n_bins] if closed == "left" else cells
        out: F64 = np.add.reduceat(body, starts)
        out[into] += cells[extra]
        return out

    return CalibrationBins(edges(d), fold(sums.weight), fold(sums.positive), fold(sums.score), fold(sums.square))


def brier_score(sums: CalibrationSums) -> float:
    """(sum w s**2 - 2 sum_pos w s + W_pos) / W; NaN without weight."""
    total = float(sums.weight.sum())
    if not total > 0:
        return math.nan
    t = sums.totals
    return float((t[SQUARE_SCORE] - 2.0 * t[POSITIVE_SCORE] + float(sums.positive.sum())) / total)


def log_loss(sums: CalibrationSums) -> float:
    """-(sum_pos w log s + sum_neg w log(1 - s)) / W, s clipped to [EPS, 1 - EPS]; NaN without weight."""
    total = float(sums.weight.sum())
    if not total > 0:
        return math.nan
    return float(-sums.totals[LOG_TERMS] / total)
