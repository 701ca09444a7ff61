"""Calibration of probability scores: pure numpy functions over the cases in rank order.

Every function here takes :class:`Groups`: the distinct scores in ascending order with,
for each, the weight of its cases and the weight of its correct cases (counts when
unweighted), built once by :func:`groups` from the evaluator's sorted arrays. Every
measure is then one pass over the distinct scores: binned measures add the groups of a
bin (``np.bincount``), the Brier score and the log loss sum per group, the CORP
reliability diagram is the pool-adjacent-violators (PAV) isotonic regression of the
groups' outcome means, and the logistic recalibration is Newton's method over the
groups. Nothing here validates: the evaluator's mixin
(:mod:`scored_pr._evaluators.exact_calibration`) checks the arguments and that every
score lies in [0, 1].
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .curves import _sampled_upper_hull
from .pairwise import run_sums
from .stats import regularized_beta

__all__ = [
    "CalibrationBins", "Groups", "LogScores", "ReliabilityDiagram", "bin_ids", "brier_score", "calibration_bins",
    "calibration_curve", "corp", "curve_of_bins", "ece", "ece_of_bins", "edges", "groups", "log_loss", "log_scores", "pav",
    "segment_calibration", "segment_group_calibration", "segment_groups",
    "slope_intercept",
]  # fmt: skip

F64 = npt.NDArray[np.float64]
#: The probability a log loss clips to, as scikit-learn's ``log_loss`` does: [EPS, 1 - EPS].
EPS = float(np.finfo(np.float64).eps)


def _dot(a: F64, b: F64) -> float:
    """sum(a * b) in this thread: ``np.einsum``'s loop, not ``np.dot``'s BLAS.

    OpenBLAS splits a dot product of more than 10,000 elements between its threads; on a
    machine whose cores are busy, each call then waits for a thread to be scheduled (measured:
    a 1,000,000-element dot took 6 ms of CPU, against 0.6 ms in one thread, and the logistic fit
    takes a dozen of them). One pass, no temporary, whatever the BLAS does.
    """
    return float(np.einsum("i,i->", a, b))


class Groups(NamedTuple):
    """The scored cases grouped by distinct score, scores ascending.

    ``scores``: the distinct scores; ``weight``: each group's weight (its case count
    when unweighted); ``positive``: the weight of its correct cases; ``square``: the
    sum of its cases' squared weights (equal to ``weight`` when unweighted: Kish's
    effective size of a set of cases is ``weight ** 2 / square``); ``counts``: the
    number of cases; ``weighted``: whether the cases carry sample weights;
    ``case_weight``: the cases' weights in ascending score order (weighted only).
    """

    scores: F64
    weight: F64
    positive: F64
    square: F64
    counts: npt.NDArray[np.int64]
    weighted: bool
    case_weight: F64 | None = None


def groups(neg: F64, correct: npt.NDArray[np.bool_], weights: F64 | None) -> Groups:
    """The distinct scores (ascending) of cases in rank order (``neg``: negated scores, ascending).

    O(n): one pass over the sorted cases (``np.add.reduceat`` of each group).
    """
    n = neg.size
    if n == 0:
        empty = np.zeros(0)
        return Groups(empty, empty, empty, empty, np.zeros(0, np.int64), weights is not None)
    scores = -neg[::-1]  # ascending
    y = correct[::-1]
    tied = scores[1:] == scores[:-1]
    if weights is None and not tied.any():  # every score distinct: each case is its group
        weight: np.ndarray = np.ones(n)
        return Groups(scores, weight, y.astype(np.float64), weight, np.ones(n, np.int64), False)
    starts = np.flatnonzero(np.r_[True, ~tied])
    counts = np.diff(np.r_[starts, n]).astype(np.int64)
    if weights is None:
        weight = counts.astype(np.float64)
        positive = np.add.reduceat(y.astype(np.float64), starts)
        square = weight
    else:
        w = weights[::-1]
        weight = np.add.reduceat(w, starts)
        positive = np.add.reduceat(np.where(y, w, 0.0), starts)
        with np.errstate(over="ignore"):  # weights up to 2**970: a square may be +inf (the debiased ECE is then inf)
            square = np.add.reduceat(w * w, starts)
        return Groups(scores[starts], weight, positive, square, counts, True, w)
    return Groups(scores[starts], weight, positive, square, counts, False)


def _segment_arrays(neg: F64, correct: npt.NDArray[np.bool_], offsets: npt.NDArray[np.int64]
                    ) -> tuple[F64, F64 | None, F64, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every segment's groups in shared arrays: ``(scores, weight, positive, lo, hi)``.

    The cases are reversed (scores ascending, the segments in reverse order); segment s's groups
    are ``[lo[s], hi[s])`` of the arrays. ``weight`` (each group's cases, as floats) is None when
    every group is one case (every score distinct within its segment).
    """
    n = neg.size
    scores = -neg[::-1]  # every segment ascending, the segments in reverse order
    y = correct[::-1]
    begin = n - offsets[1:]  # segment s's first position in the reversed arrays
    end = n - offsets[:-1]
    new = np.ones(n, dtype=bool)
    if n > 1:
        new[1:] = scores[1:] != scores[:-1]
    new[begin[begin < end]] = True
    if new.all():  # every score distinct within its segment: each case is its group
        return scores, None, y.astype(np.float64), begin.astype(np.int64), end.astype(np.int64)
    starts = np.flatnonzero(new)
    weight = np.diff(np.append(starts, n)).astype(np.float64)
    positive = np.add.reduceat(y.astype(np.float64), starts)
    lo, hi = np.searchsorted(starts, begin), np.searchsorted(starts, end)
    return scores[starts], weight, positive, lo.astype(np.int64), hi.astype(np.int64)


def segment_groups(neg: F64, correct: npt.NDArray[np.bool_], offsets: npt.NDArray[np.int64]) -> list[Groups]:
    """:func:`groups` of every segment of unweighted cases laid end to end, each in rank order, at once.

    Segment s is ``[offsets[s], offsets[s + 1])``. Each entry holds the same
    values as ``groups(neg[a:b], correct[a:b], None)`` (views of arrays
    shared by all): the cases reversed (scores ascending), a group starting
    where the score changes or a segment starts; the counts of correct
    cases are exact in float64. O(n) for n cases.
    """
    distinct, weight, positive, lo, hi = _segment_arrays(neg, correct, offsets)
    if weight is None:
        weight = np.ones(distinct.size)
    counts = weight.astype(np.int64)
    return [Groups(distinct[a:b], weight[a:b], positive[a:b], weight[a:b], counts[a:b], False)
            for a, b in zip(lo.tolist(), hi.tolist())]


def segment_calibration(neg: F64, correct: npt.NDArray[np.bool_], offsets: npt.NDArray[np.int64],
                        n_bins: int) -> tuple[F64, F64]:
    """``(ece, brier)``: every segment's ``ece(g, n_bins, "l1", "uniform", False)`` and ``brier_score(g)`` at once.

    The segments as :func:`segment_groups` takes them (unweighted cases, each
    segment in rank order); NaN for an empty segment, and a segment holding a
    score outside [0, 1] gets a value of no meaning (the callers use those of
    probability segments only). A segment's groups ascend,
    so each of its bins is a run of them, and the (segment, bin) runs lie end to
    end: one ``np.add.reduceat`` over them gives every bin's sums, the very
    reduction :func:`calibration_bins` does on one segment's groups (a run's
    ``reduceat`` does not depend on the runs around it). Every per-segment
    total (the bins' weighted gaps, the Brier numerator) is numpy's pairwise
    ``np.sum`` of that segment's run (:func:`scored_pr._core.pairwise.run_sums`),
    as :func:`ece_of_bins` and :func:`brier_score` add them; so each value equals
    theirs bit for bit. O(n + segments * n_bins), a fixed number of numpy calls
    whatever the number of segments.
    """
    distinct, weight, positive, lo, hi = _segment_arrays(neg, correct, offsets)
    return _group_calibration(distinct, weight, positive, lo, hi, np.diff(offsets).astype(np.float64), n_bins)


def segment_group_calibration(neg: F64, counts: npt.NDArray[np.int64], positives: npt.NDArray[np.int64],
                              group_offsets: npt.NDArray[np.int64], n_bins: int) -> tuple[F64, F64]:
    """:func:`segment_calibration` from the segments' groups of equal scores instead of their cases.

    ``neg[g]`` is group g's negated score, ``counts[g]`` and ``positives[g]``
    its cases and correct cases; each segment's groups in rank order (``neg``
    ascending, one group per distinct score), segment s's being
    ``[group_offsets[s], group_offsets[s + 1])``. These are the groups
    :func:`segment_groups` makes from the cases (a group's weight and correct
    count are whole numbers, exact in float64), so the values are equal bit
    for bit. O(G + segments * n_bins) for G groups.
    """
    g = neg.size
    distinct = np.subtract(0.0, neg[::-1])  # 0.0 - x: a score of 0.0 stays +0.0, as -(-0.0) gives it
    weight = counts[::-1].astype(np.float64)
    positive = positives[::-1].astype(np.float64)
    lo, hi = g - group_offsets[1:], g - group_offsets[:-1]
    cases: npt.NDArray[np.float64] = np.zeros(group_offsets.size - 1, dtype=np.float64)
    if g:
        at = np.zeros(g + 1, dtype=np.int64)
        np.cumsum(counts, out=at[1:])
        cases = np.diff(at[group_offsets]).astype(np.float64)
    return _group_calibration(distinct, None if g == 0 or int(counts.max()) == 1 else weight, positive,
                              lo.astype(np.int64), hi.astype(np.int64), cases, n_bins)


def _bin_starts(distinct: F64, lo: npt.NDArray[np.int64], hi: npt.NDArray[np.int64], inner: F64) -> npt.NDArray[np.int64]:
    """Where each (segment, bin) run of groups starts: a segment's first group, or where its bin changes.

    Segment s's groups ``distinct[lo[s]:hi[s]]`` ascend, and a group's bin is the number of ``inner``
    edges at or below its score (:func:`bin_ids`' "left" rule for scores in [0, 1]); so its bin changes at
    the first group reaching an edge. One binary search of every (segment, edge) pair at once, in
    O(S E log n) for S segments and E edges, instead of a bin per group.
    """
    full = hi > lo
    a = np.repeat(lo[full], inner.size)  # per (segment, edge): the search's bounds
    b = np.repeat(hi[full], inner.size)
    edge = np.tile(inner, int(full.sum()))
    end = b.copy()
    last = max(distinct.size - 1, 0)
    while True:
        open_ = a < b
        if not open_.any():
            break
        mid = (a + b) // 2
        below = distinct[np.minimum(mid, last)] < edge  # (a closed search's mid is never read)
        a = np.where(open_ & below, mid + 1, a)
        b = np.where(open_ & ~below, mid, b)
    # a search past its segment's last group finds no change there
    return np.unique(np.concatenate((lo[full], a[a < end])))


def _group_calibration(distinct: F64, weight: F64 | None, positive: F64, lo: npt.NDArray[np.int64],
                       hi: npt.NDArray[np.int64], cases: F64, n_bins: int) -> tuple[F64, F64]:
    """:func:`segment_calibration` of the groups of every segment (as ``_segment_arrays`` lays them out).

    ``weight`` None: every group is one case (weight 1.0, and x * 1.0 is x).
    """
    count = lo.size
    sizes = hi - lo
    # each (segment, bin) is one run of groups (ascending within a segment), starting where the bin changes
    # or a segment starts
    unit = np.ones(0)
    inner = edges(Groups(distinct, unit, positive, unit, sizes, False), n_bins, "uniform")[1:-1]
    starts = _bin_starts(distinct, lo, hi, inner)
    if starts.size:
        # a bin's weight and correct count are sums of whole numbers below 2**53: exact in any order (so
        # a run's number of single groups is its weight)
        w = (np.diff(np.append(starts, distinct.size)).astype(np.float64) if weight is None
             else np.add.reduceat(weight, starts))
        bp = np.add.reduceat(positive, starts)
        bs = np.add.reduceat(distinct if weight is None else distinct * weight, starts)
    else:
        w = bp = bs = np.zeros(0)
    # segment s's runs: [cstart[s], cstart[s] + cn[s]) (the groups hold the segments in reverse order)
    cstart = np.searchsorted(starts, lo).astype(np.int64)
    cn = np.searchsorted(starts, hi).astype(np.int64) - cstart
    cseg = np.repeat(np.arange(count, dtype=np.int64)[::-1], cn[::-1])  # the segment of every run
    # cases: a segment's total weight is its number of cases (the sum of whole numbers below 2**53 is exact
    # in any order, so this is the value np.sum gives)
    acc, conf = bp / w, bs / w
    prop = w / cases[cseg]
    gap = acc - conf
    ece_all = np.where(cn > 0, run_sums(prop * np.abs(gap), cstart, cn), np.nan)
    # the Brier score: per group s**2 W - 2 s Y + Y, summed per segment, over the (exact) number of cases
    # (the same operations in the same order, in two work arrays instead of five temporaries)
    s = distinct
    terms = np.multiply(s, s)
    if weight is not None:
        terms *= weight
    twice = np.multiply(2.0, s)
    twice *= positive
    terms -= twice
    del twice
    terms += positive
    num = run_sums(terms, lo, sizes)
    with np.errstate(divide="ignore", invalid="ignore"):
        brier = np.where(sizes > 0, num / np.where(sizes > 0, cases, 1.0), np.nan)
    return ece_all, brier


# --------------------------------------------------------------------------- bins


def _lerp(a: F64, b: F64, t: F64) -> F64:
    """numpy's linear interpolation of ``np.percentile`` (from the nearer end), so edges equal numpy's bit for bit."""
    diff = b - a
    out: F64 = np.where(t >= 0.5, b - diff * (1.0 - t), a + diff * t)
    return out


def edges(g: Groups, n_bins: int, strategy: str) -> F64:
    """The ``n_bins + 1`` bin edges: ``linspace(0, 1, n_bins + 1)`` or the scores' quantiles.

    ``"quantile"``: the percentiles at ``linspace(0, 100, n_bins + 1)`` of the
    scores, numpy's linear interpolation (scikit-learn's ``calibration_curve``);
    with weights, of the scores with each case repeated ``weight`` times (for
    non-integer weights the same formula over the cumulative weights).
    """
    if strategy == "uniform":
        return np.asarray(np.linspace(0.0, 1.0, n_bins + 1), dtype=np.float64)
    # the levels as scikit-learn hands them to np.percentile (x 100, then / 100), and numpy's
    # linear virtual index (n - 1) q, operation for operation
    q = (np.linspace(0.0, 1.0, n_bins + 1) * 100) / 100
    cum = np.cumsum(g.weight)
    h = (cum[-1] - 1.0) * q  # the position in the repeated sorted scores
    lo = np.floor(h)
    last = g.scores.size - 1
    a = g.scores[np.minimum(np.searchsorted(cum, lo, side="right"), last)]
    b = g.scores[np.minimum(np.searchsorted(cum, lo + 1.0, side="right"), last)]
    return _lerp(a, b, h - lo)


class CalibrationBins(NamedTuple):
    """Per-bin sums over the cases: ``weight``, ``positive`` (correct weight), ``score`` (weighted score sum), ``square`` (squared weights)."""

    edges: F64
    weight: F64
    positive: F64
    score: F64
    square: F64


def bin_ids(scores: F64, bin_edges: F64, closed: str) -> npt.NDArray[np.intp]:
    """The bin of each score among ``bin_edges`` (see :func:`calibration_bins` for ``closed``). O(n log bins)."""
    if closed == "right":
        return np.searchsorted(bin_edges[1:-1], scores, side="left")
    ids = np.minimum(np.searchsorted(bin_edges, scores, side="right") - 1, bin_edges.size - 2)
    return np.maximum(ids, 0)


def calibration_bins(g: Groups, bin_edges: F64, closed: str) -> CalibrationBins:
    """Sum the groups into the bins of ``bin_edges``.

    ``closed="right"`` (scikit-learn's ``calibration_curve``): bin i holds
    (e_i, e_{i+1}], the first bin [e_0, e_1]. ``closed="left"`` (the expected
    calibration error, torchmetrics' rule): bin i holds [e_i, e_{i+1}), the last
    bin [e_{n-1}, e_n] (a score equal to the last edge, 1.0, is in the last bin).

    The groups' scores ascend, so each bin is a run of them: its bounds are the inner edges
    searched in the scores (:func:`bin_ids`' rule, O(bins log G)), and its sums one
    ``np.add.reduceat`` over the runs that hold a group, O(G) per sum. Unweighted, the squared
    weights are the weights (one sum for both).
    """
    nb = bin_edges.size - 1
    n = g.scores.size
    bounds = np.empty(nb + 1, dtype=np.intp)
    bounds[0], bounds[-1] = 0, n
    # bin_ids: "right" counts the inner edges below a score, "left" those at or below it
    bounds[1:-1] = np.searchsorted(g.scores, bin_edges[1:-1], side="right" if closed == "right" else "left")
    np.maximum.accumulate(bounds, out=bounds)
    held = bounds[:-1] < bounds[1:]
    starts = bounds[:-1][held]

    def add(values: F64) -> F64:
        out: F64 = np.zeros(nb)
        if starts.size:
            out[held] = np.add.reduceat(values, starts)
        return out

    weight = add(g.weight)
    square = weight if g.square is g.weight else add(g.square)
    return CalibrationBins(bin_edges, weight, add(g.positive), add(g.scores * g.weight), square)


def calibration_curve(g: Groups, n_bins: int, strategy: str) -> tuple[F64, F64]:
    """(fraction of positives, mean score) of each non-empty bin, bins in ascending order (scikit-learn's rule)."""
    if g.scores.size == 0:
        return np.zeros(0), np.zeros(0)
    return curve_of_bins(calibration_bins(g, edges(g, n_bins, strategy), "right"))


def curve_of_bins(b: CalibrationBins) -> tuple[F64, F64]:
    """(fraction of positives, mean score) of each non-empty bin of ``b`` (closed on the right)."""
    nz = b.weight != 0
    return b.positive[nz] / b.weight[nz], b.score[nz] / b.weight[nz]


def _beta_quantile(p: float, a: float, b: float) -> float:
    """The ``p`` quantile of Beta(a, b), by bisection on the regularised incomplete beta function (to 1e-12)."""
    lo, hi = 0.0, 1.0
    while hi - lo > 1e-12:
        mid = 0.5 * (lo + hi)
        if regularized_beta(mid, a, b) < p:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def clopper_pearson(k: float, n: float, level: float) -> tuple[float, float]:
    """The Clopper-Pearson interval of a proportion ``k / n`` at ``level``: Beta quantiles, 0 and 1 at the ends.

    ``lower = B(alpha/2; k, n - k + 1)`` (0 when k = 0), ``upper = B(1 - alpha/2; k + 1, n - k)``
    (1 when k = n), ``alpha = 1 - level``; k and n need not be integers (a weighted bin's
    effective size). NaN, NaN when n = 0.
    """
    if not n > 0:
        return math.nan, math.nan
    alpha = 1.0 - level
    lower = 0.0 if k <= 0 else _beta_quantile(alpha / 2.0, k, n - k + 1.0)
    upper = 1.0 if k >= n else _beta_quantile(1.0 - alpha / 2.0, k + 1.0, n - k)
    return lower, upper


class ReliabilityPoints(NamedTuple):
    """The binned points of a reliability diagram, one per non-empty bin (``calibration_curve``'s bins).

    ``score``: the bin's mean score; ``fraction``: its fraction of correct cases; ``weight``:
    its weight (case count when unweighted); ``lower``, ``upper``: the Clopper-Pearson
    interval of the fraction, on the bin's effective size ``weight ** 2 / square``.
    """

    score: F64
    fraction: F64
    weight: F64
    lower: F64
    upper: F64


def reliability_points(g: Groups, n_bins: int, level: float) -> ReliabilityPoints:
    """The points of :func:`calibration_curve` (uniform bins) with their weights and Clopper-Pearson intervals."""
    b = calibration_bins(g, edges(g, n_bins, "uniform"), "right")
    nz = b.weight != 0
    weight, positive, square = b.weight[nz], b.positive[nz], b.square[nz]
    fraction = positive / weight
    size = weight * weight / square  # Kish's effective size: the case count when unweighted
    bounds = [clopper_pearson(f * n, n, level) for f, n in zip(fraction.tolist(), size.tolist())]
    lower = np.array([lo for lo, _ in bounds], dtype=np.float64)
    upper = np.array([hi for _, hi in bounds], dtype=np.float64)
    return ReliabilityPoints(b.score[nz] / weight, fraction, weight, lower, upper)


def _expected_abs_normal(mean: F64, sd: F64, centre: F64) -> F64:
    """E|X - centre| for X ~ Normal(mean, sd**2) (the folded normal's mean); |mean - centre| where sd = 0."""
    d = mean - centre
    safe = np.where(sd > 0, sd, 1.0)
    z = d / (safe * math.sqrt(2.0))
    erf = np.array([math.erf(v) for v in z.tolist()], dtype=np.float64)
    folded = safe * math.sqrt(2.0 / math.pi) * np.exp(-z * z) + d * erf
    out: F64 = np.where(sd > 0, folded, np.abs(d))
    return out


def ece(g: Groups, n_bins: int, norm: str, strategy: str, debias: bool) -> float:
    """The binned calibration error of the cases (see ``expected_calibration_error``); NaN without a case."""
    if g.scores.size == 0:
        return math.nan
    return ece_of_bins(calibration_bins(g, edges(g, n_bins, strategy), "left"), norm, debias)


def ece_of_bins(b: CalibrationBins, norm: str, debias: bool) -> float:
    """The binned calibration error of bins closed on the left holding at least one case (see :func:`ece`).

    NaN when no bin holds weight (every case of weight 0: 0/0, as the Brier score); shared by every
    kind that keeps per-bin sums (the bounded summary, the cluster's results).
    """
    nz = b.weight > 0
    if not nz.any():
        return math.nan
    w, acc = b.weight[nz], b.positive[nz] / b.weight[nz]
    conf = b.score[nz] / w
    prop = w / w.sum()
    gap = acc - conf
    if not debias:
        if norm == "l1":
            return float(np.sum(prop * np.abs(gap)))
        if norm == "max":
            return float(np.max(np.abs(gap)))
        sq = float(np.sum(prop * gap * gap))
        return math.sqrt(sq) if sq > 0 else 0.0
    size = w * w / b.square[nz]  # each bin's (effective) number of cases
    if norm == "l2":
        # Kumar, Liang & Ma (2019): the plug-in squared gap less the variance of the bin's
        # outcome mean, acc (1 - acc) / (n - 1); a bin of fewer than 2 cases adds 0
        # (uncertainty-calibration's unbiased_square_ce)
        two = size >= 2
        term = np.where(two, gap * gap - acc * (1.0 - acc) / np.where(two, size - 1.0, 1.0), 0.0)
        return math.sqrt(max(float(np.sum(prop * term)), 0.0))
    # l1: 2 * plug-in - E[plug-in of outcomes resampled from Normal(acc, acc (1 - acc) / n)],
    # the expectation in closed form where the package averages 1,000 Monte Carlo draws
    plugin = float(np.sum(prop * np.abs(gap)))
    sd = np.sqrt(acc * (1.0 - acc) / size)
    return 2.0 * plugin - float(np.sum(prop * _expected_abs_normal(acc, sd, conf)))


# --------------------------------------------------------------------------- scores


def brier_score(g: Groups) -> float:
    """The weighted mean of (score - outcome)**2; NaN without a case.

    Per group: sum w (s - y)**2 = s**2 W - 2 s Y + Y, since y**2 = y.
    """
    if g.scores.size == 0 or not np.sum(g.weight) > 0:  # no case, or all of weight 0: 0/0, no warning
        return math.nan
    s = g.scores
    return float(np.sum(s * s * g.weight - 2.0 * s * g.positive + g.positive) / np.sum(g.weight))


class LogScores(NamedTuple):
    """The logs of the groups' scores clipped to [EPS, 1 - EPS]: ``score`` = log(s), ``complement`` = log(1 - s).

    Shared by :func:`log_loss` and :func:`slope_intercept` (two ``log`` passes over the distinct
    scores, computed once: the evaluator keeps them until the next change).
    """

    score: F64
    complement: F64


def log_scores(g: Groups) -> LogScores:
    """The :class:`LogScores` of the groups. O(G): two ``np.log`` passes, two arrays of G.

    log(1 - s), not log1p(-s): numpy's log is vectorised (SIMD), its log1p is not; 1 - s is exact
    for s >= 0.5 and within half an ulp below, an error of 1e-16 in a log (scikit-learn's
    ``log_loss`` takes the log of 1 - s too).
    """
    score = np.clip(g.scores, EPS, 1.0 - EPS)
    complement = np.subtract(1.0, score)
    np.log(score, out=score)
    np.log(complement, out=complement)
    return LogScores(score, complement)


def log_loss(g: Groups, logs: LogScores | None = None) -> float:
    """The weighted mean of -log(s) over correct and -log(1 - s) over incorrect cases, s clipped to [EPS, 1 - EPS].

    Per group: -(Y log s + (W - Y) log(1 - s)); ``logs``: the groups' :func:`log_scores`, if
    already computed.
    """
    if g.scores.size == 0 or not np.sum(g.weight) > 0:  # no case, or all of weight 0: 0/0, no warning
        return math.nan
    lg = log_scores(g) if logs is None else logs
    total = _dot(g.positive, lg.score) + _dot(g.weight - g.positive, lg.complement)
    return -total / float(np.sum(g.weight))


# --------------------------------------------------------------------------- isotonic


def _pav_stack(mean: list[float], weight: list[float], size: list[int]) -> tuple[list[float], list[float], list[int]]:
    """Pool adjacent violators, one pass with a stack: the blocks of the nondecreasing fit.

    The top block's mean is kept in a local (``top``), so a block that does not violate (the
    common case once the vectorised rounds have run) costs one comparison and three appends;
    the list methods are bound once (a hot loop, as sortedcontainers writes them).
    """
    m: list[float] = []
    w: list[float] = []
    c: list[int] = []
    m_append, w_append, c_append = m.append, w.append, c.append
    m_pop, w_pop, c_pop = m.pop, w.pop, c.pop
    top = -math.inf
    for mi, wi, ci in zip(mean, weight, size):
        if top > mi:
            while m and m[-1] > mi:
                pw = w_pop()
                pm = m_pop()
                total = pw + wi
                mi = (pm * pw + mi * wi) / total
                wi = total
                ci += c_pop()
        m_append(mi)
        w_append(wi)
        c_append(ci)
        top = mi
    return m, w, c


#: Below this many groups :func:`pav` pools with its rounds and stack (the hull's setup costs more).
_HULL_MIN = 4096


def pav(total: F64, weight: F64, whole: bool = False) -> F64:
    """The weighted isotonic (nondecreasing) regression of ``total / weight`` over the groups, one value per group.

    ``whole``: every total and weight is a whole number, each total between 0 and its weight
    (counts of correct cases and of cases). Then, above ``_HULL_MIN`` groups whose weights sum to
    less than 2**26, the fit is read off the greatest convex minorant of the cumulative sum
    diagram (Barlow et al. 1972): the points (cumulative weight, cumulative total) from (0, 0),
    groups in order; each edge of its lower hull is one block of the solution, its slope the
    block's mean. The lower hull of (X, T) is the upper hull of (X, X - T) (both nondecreasing),
    whose cross products are exact on counts below 2**26, so the blocks are exactly PAV's and each
    mean is the exact integer ratio rounded once (PAV's running means round at each pooling;
    the two differ by a few ulps). This is the ROC convex hull of the cases read from the lowest
    score (Fawcett & Niculescu-Mizil 2007): vectorised, O(G).

    Otherwise pool-adjacent-violators. Vectorised rounds first: every maximal run of
    decreasing block means is pooled at once (pooling adjacent violators in any
    order gives the one least-squares solution); once a round removes fewer
    than a tenth of the blocks, the remaining blocks go through the one-pass
    stack, so the cost stays O(G) in the worst case.
    """
    n = total.size
    if n == 0:
        return np.zeros(0)
    if whole and n >= _HULL_MIN:
        x = np.empty(n + 1)
        x[0] = 0.0
        np.cumsum(weight, out=x[1:])
        if x[-1] < 2.0**26:  # every cross product of the hull's test below 2**52: exact
            t = np.empty(n + 1)
            t[0] = 0.0
            np.cumsum(total, out=t[1:])
            v = _sampled_upper_hull(x, x - t)  # vertices, from 0 to n: block k is groups [v_k, v_k+1)
            return np.repeat(np.diff(t[v]) / np.diff(x[v]), np.diff(v))
    tot, wt = total.astype(np.float64), weight.astype(np.float64)
    size: np.ndarray = np.ones(n, dtype=np.int64)
    while True:
        mean = tot / wt
        down = mean[:-1] > mean[1:]
        if not down.any():
            return np.repeat(mean, size)
        # a new block starts where the previous pair is not a violation
        start = np.flatnonzero(np.r_[True, ~down])
        shrink = start.size < 0.9 * tot.size  # a round that pools little: the stack finishes faster
        tot, wt = np.add.reduceat(tot, start), np.add.reduceat(wt, start)
        size = np.add.reduceat(size, start)
        if not shrink:
            break
    m, _, c = _pav_stack((tot / wt).tolist(), wt.tolist(), size.tolist())
    return np.repeat(np.asarray(m, dtype=np.float64), np.asarray(c, dtype=np.int64))


@dataclass(frozen=True, eq=False)
class ReliabilityDiagram:
    """The CORP reliability diagram of a ranking: the isotonic recalibration of its scores and the Brier decomposition.

    Attributes
    ----------
    scores : ndarray of float64, shape (G,)
        The distinct scores, ascending.
    recalibrated : ndarray of float64, shape (G,)
        The isotonic (PAV) regression of the outcomes on the scores at each
        distinct score: the calibrated probability of a case with that score,
        nondecreasing.
    mcb, dsc, unc : float
        Miscalibration (Brier of the scores - Brier of the recalibrated
        scores), discrimination (Brier of the base rate - Brier of the
        recalibrated scores) and uncertainty (Brier of the base rate,
        ybar (1 - ybar)): ``brier = mcb - dsc + unc``.
    brier : float
        The Brier score of the scores.
    lower, upper : ndarray of float64, shape (G,), or None
        The consistency band at each distinct score: the quantiles
        (1 - confidence) / 2 and (1 + confidence) / 2 of the recalibrated
        value when the outcomes are drawn from the scores themselves (the
        band a calibrated model's curve lies in); None when no resample was
        asked.
    confidence : float
        The band's level.
    """

    scores: F64
    recalibrated: F64
    mcb: float
    dsc: float
    unc: float
    brier: float
    lower: F64 | None = field(default=None)
    upper: F64 | None = field(default=None)
    confidence: float = 0.9

    __module__ = "scored_pr"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReliabilityDiagram):
            return NotImplemented
        same = lambda a, b: (a is None and b is None) or (  # noqa: E731
            a is not None and b is not None and np.array_equal(a, b, equal_nan=True)
        )
        return (
            same(self.scores, other.scores) and same(self.recalibrated, other.recalibrated)
            and same(self.lower, other.lower) and same(self.upper, other.upper)
            and all(
                x == y or (math.isnan(x) and math.isnan(y))
                for x, y in ((self.mcb, other.mcb), (self.dsc, other.dsc), (self.unc, other.unc),
                             (self.brier, other.brier), (self.confidence, other.confidence))
            )
        )  # fmt: skip

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"ReliabilityDiagram(points={self.scores.size}, mcb={self.mcb!r}, dsc={self.dsc!r}, unc={self.unc!r}, "
            f"brier={self.brier!r}, band={'none' if self.lower is None else self.confidence})"
        )


def _squared_error(g: Groups, fitted: F64) -> float:
    """sum w (fitted - y)**2 over the cases, per group: sum W f**2 - 2 sum Y f + sum Y (y**2 = y).

    Three sums of terms of one sign (weights, counts and fitted values are >= 0), so the
    difference loses at most a few ulps of the largest of them; one temporary.
    """
    return _dot(fitted * fitted, g.weight) - 2.0 * _dot(fitted, g.positive) + float(np.sum(g.positive))


def corp(g: Groups, confidence: float, n_resamples: int, seed: int | None) -> ReliabilityDiagram:
    """The CORP reliability diagram (Dimitriadis, Gneiting & Jordan 2021) of the groups.

    O(G) for the fit and the decomposition, O(n_resamples * G) time and memory for the band
    (unweighted: each group's outcomes drawn at once as a binomial; weighted: each case's).
    """
    nan = math.nan
    if g.scores.size == 0:
        empty = np.zeros(0)
        band = None if n_resamples == 0 else empty
        return ReliabilityDiagram(empty, empty, nan, nan, nan, nan, band, band, confidence)
    fit = pav(g.positive, g.weight, whole=not g.weighted)
    total = float(np.sum(g.weight))
    base = float(np.sum(g.positive)) / total
    unc = base * (1.0 - base)
    brier = brier_score(g)  # the same float as the query brier_score
    recal = _squared_error(g, fit) / total
    mcb, dsc = brier - recal, unc - recal
    lower = upper = None
    if n_resamples:
        rng = np.random.default_rng(seed)
        draws = np.empty((n_resamples, g.scores.size), dtype=np.float64)
        starts = np.r_[0, np.cumsum(g.counts)[:-1]]
        per_case = np.repeat(g.scores, g.counts) if g.case_weight is not None else g.scores
        for r in range(n_resamples):
            if g.case_weight is None:  # a group's correct count is binomial(count, score)
                hits = rng.binomial(g.counts, g.scores).astype(np.float64)
            else:  # each case's outcome drawn, its weight summed per group
                drawn = rng.random(per_case.size) < per_case
                hits = np.add.reduceat(np.where(drawn, g.case_weight, 0.0), starts)
            draws[r] = pav(hits, g.weight, whole=g.case_weight is None)
        lo_q, hi_q = (1.0 - confidence) / 2.0, (1.0 + confidence) / 2.0
        lower, upper = np.quantile(draws, lo_q, axis=0), np.quantile(draws, hi_q, axis=0)
    return ReliabilityDiagram(g.scores, fit, mcb, dsc, unc, brier, lower, upper, confidence)


# --------------------------------------------------------------------------- logistic


#: Above this many groups the logistic fit starts from the fit of an evenly spaced subset of them.
_START_SIZE = 20_000


#: A Newton step that moves no linear predictor a + b x by more than this is taken whole, without
#: the likelihood's check (see :func:`slope_intercept`).
_FULL_STEP = 0.5


def slope_intercept(g: Groups, logs: LogScores | None = None) -> tuple[float, float]:
    """(slope, intercept) of the logistic regression of the outcome on logit(score), by Newton's method.

    Scores are clipped to [EPS, 1 - EPS] first (as the log loss does), so 0.0 and
    1.0 have finite logits. NaN, NaN without both classes, with one distinct score,
    or when the fit does not converge (separated classes: the maximum likelihood
    estimate is infinite). ``logs``: the groups' :func:`log_scores`, if already computed.

    Each Newton step is a dozen passes over the G distinct scores in two work arrays (no
    temporaries of G elements): the fitted probabilities, one ``exp``; the gradient and the
    Hessian, dot products with the logits and the weights computed once. The likelihood
    (one ``exp`` and one ``log`` more) is evaluated only to check a step that moves some linear
    predictor by more than ``_FULL_STEP`` (a smaller one provably gains), and to halve it.
    """
    nan = (math.nan, math.nan)
    pos, w = g.positive, g.weight
    total = float(w.sum())
    if g.scores.size < 2 or not (0 < pos.sum() < total):
        return nan
    lg = log_scores(g) if logs is None else logs
    x = np.subtract(lg.score, lg.complement)  # the logits
    work = np.empty_like(x)
    base = float(pos.sum() / total)
    # start from the base rate (every case alike): the Hessian is then well conditioned, where a
    # start at the identity can overshoot to saturated fits when a score is near 0 or 1
    a, b = math.log(base) - math.log1p(-base), 0.0
    stride = g.scores.size // _START_SIZE
    if stride > 1:  # many groups: start from the fit of every stride-th group (the same maximum, fewer steps)
        sub = Groups(g.scores[::stride], w[::stride], pos[::stride], w[::stride], g.counts[::stride], g.weighted)
        part = LogScores(np.ascontiguousarray(lg.score[::stride]), np.ascontiguousarray(lg.complement[::stride]))
        b0, a0 = slope_intercept(sub, part)
        if math.isfinite(a0) and math.isfinite(b0):
            a, b = a0, b0
    unit = not g.weighted and total == w.size  # every group one case of weight 1: w x is x
    wx = x if unit else w * x
    wxx = x * x if unit else wx * x
    x_max = max(abs(float(x[0])), abs(float(x[-1])))  # the logits ascend with the scores
    mu = np.empty_like(x)

    def fitted(a: float, b: float) -> F64:
        """The logistic function of a + b x, into ``mu``: 1 / (1 + exp(-(a + b x))), an overflow giving 0."""
        np.multiply(x, -b, out=mu)
        np.subtract(mu, a, out=mu)
        with np.errstate(over="ignore"):
            np.exp(mu, out=mu)
        np.add(mu, 1.0, out=mu)
        return np.reciprocal(mu, out=mu)

    def likelihood(a: float, b: float) -> float:
        """The log likelihood at (a, b), stable: sum pos eta - w log(1 + exp(eta))."""
        eta = a + b * x
        soft = np.exp(-np.abs(eta))
        # log(1 + exp(eta)), stable; log(1 + e) for log1p(e) (vectorised): off by at most e * 1e-16
        np.log(soft + 1.0, out=soft)
        soft += np.maximum(eta, 0.0)
        return _dot(pos, eta) - _dot(w, soft)

    # Newton's method; a large step is halved until the (concave) log likelihood does not fall.
    # The point where the step vanishes is the maximum, and a run that does not settle is NaN.
    fitted(a, b)
    current = math.nan  # the likelihood at (a, b), when known
    for _ in range(100):
        # the residuals case by case (not sum pos - sum w mu, which cancels): near a separation
        # every residual is tiny and the gradient must still see them
        np.subtract(pos, mu if unit else np.multiply(w, mu, out=work), out=work)
        g0, g1 = float(np.sum(work)), _dot(work, x)
        np.subtract(1.0, mu, out=work)
        work *= mu  # the variance of each group's outcome: the Hessian's weights
        h00, h01, h11 = _dot(w, work), _dot(wx, work), _dot(wxx, work)
        det = h00 * h11 - h01 * h01
        if not det > 0 or not math.isfinite(det):
            return nan
        da, db = (h11 * g0 - h01 * g1) / det, (h00 * g1 - h01 * g0) / det
        if abs(da) <= 1e-8 * (1.0 + abs(a)) and abs(db) <= 1e-8 * (1.0 + abs(b)):
            # Newton converges quadratically here: after this step the error is of the order of
            # the step squared (1e-16), so the step lands on the maximum
            return b + db, a + da
        step = 1.0
        if abs(da) + abs(db) * x_max <= _FULL_STEP:
            # every eta = a + b x moves by at most d = 1/2, so each weight mu (1 - mu) of the Hessian
            # (whose log has slope 1 - 2 mu, within [-1, 1], in eta) grows by at most e**d along the
            # step: the likelihood gains at least q (1 - e**d / 2) > 0, q = g' H^-1 g the Newton
            # decrement squared. The full step provably does not fall: no check needed.
            na, nb, current = a + da, b + db, math.nan
        else:
            if math.isnan(current):
                current = likelihood(a, b)
            while True:
                na, nb = a + step * da, b + step * db
                new = likelihood(na, nb)
                if new >= current - 1e-12 * abs(current) or step < 1e-10:
                    break
                step /= 2.0
            current = new
        a, b = na, nb
        if not (math.isfinite(a) and math.isfinite(b)) or abs(b) > 1e6:
            return nan
        if abs(step * da) <= 1e-12 * (1.0 + abs(a)) and abs(step * db) <= 1e-12 * (1.0 + abs(b)):
            return b, a
        fitted(a, b)
    return nan


# --------------------------------------------------------------------------- multi-class rows


def unsorted_groups(scores: F64, outcome: npt.NDArray[np.bool_], weight: F64 | None) -> Groups:
    """:func:`groups` of cases in any order: one stable sort by descending score first. O(n log n)."""
    order = np.argsort(-scores, kind="stable")
    return groups(-scores[order], outcome[order], None if weight is None else weight[order])


def top_label(scores: F64, truth: npt.NDArray[np.bool_]) -> tuple[F64, npt.NDArray[np.bool_]]:
    """Each row's highest score (its confidence) and whether that column is a positive label (first column on ties)."""
    pred = np.argmax(scores, axis=1)
    rows = np.arange(scores.shape[0])
    return scores[rows, pred], truth[rows, pred]


def multiclass_ece(scores: F64, truth: npt.NDArray[np.bool_], weight: F64 | None, n_bins: int, norm: str,
                   average: str) -> float:  # fmt: skip
    """The binned calibration error of (n, k) rows: of the top label, or the mean over columns (classwise)."""
    if scores.shape[0] == 0:
        return math.nan
    if average == "top_label":
        conf, hit = top_label(scores, truth)
        return ece(unsorted_groups(conf, hit, weight), n_bins, norm, "uniform", False)
    each = [ece(unsorted_groups(scores[:, j], truth[:, j], weight), n_bins, norm, "uniform", False)
            for j in range(scores.shape[1])]  # fmt: skip
    return float(np.mean(each))
