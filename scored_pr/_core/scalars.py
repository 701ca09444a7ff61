"""The scalar measures of a ranking: average precision, F, break-even point, and the measures at a rank or a recall level.

Pure functions of :class:`~scored_pr._core.points.Points` (or the ranked arrays) and the reference counts.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from .curves import precision
from .points import BoolArray, FloatArray, Points, group_ends, seqsum


def average_precision(points: Points, num_positive_ref: int | float, prec: FloatArray | None = None) -> float:
    """Sum of the precision at every correct case, divided by num_positive_ref.

    A correct case inside a tie group (grouped policy) gets the precision at
    the end of its group. NaN when num_positive_ref is 0. With weights, the
    weight sums' rounding can put the ratio an ulp above 1: it is clamped
    to 1. ``prec``, when given, is ``precision(points)`` already computed
    (the precision column of the raw PR curve).
    """
    if num_positive_ref == 0:
        return float("nan")
    if points.unit_tp:  # every point adds one correct case: dtp = 1 and x * 1 == x
        return seqsum(precision(points) if prec is None else prec) / num_positive_ref
    if points.tied is not None:  # scattered ties: dtp = 1 but at the few points of a tie group
        prec = precision(points)
        j = points.tied
        tp = points.tp_raw
        assert tp is not None
        prec[j] *= tp[j].astype(np.int64) - np.where(j > 0, tp[np.maximum(j - 1, 0)], 0)
        return seqsum(prec) / num_positive_ref
    dtp = np.diff(points.tp, prepend=0)
    # weighted: the rounded sum of weight x precision can exceed the rounded total weight by an
    # ulp (AP 1.0000000000000002 for a perfect ranking); AP is at most 1, as scikit-learn's is
    return min(1.0, seqsum(precision(points) * dtp) / num_positive_ref)


#: Rows per block of :func:`maximum_f_columns` (128 KiB temporaries, in the cache: 0.62x the time of
#: whole-column temporaries at 300,000 rows, ``benchmarks/results-perf4.md``).
F_BLOCK = 16384


def maximum_f_measure(curve: FloatArray, beta: float) -> float:
    """max over (r, p) rows of (1 + b^2) r p / (r + b^2 p); 0.0 for no rows.

    The operands are multiplied in LingPipe's order, so the result is the
    same float64 LingPipe 3.9.2 computes.
    """
    return maximum_f_columns(curve[:, 0], curve[:, 1], beta)


def maximum_f_columns(r: FloatArray, p: FloatArray, beta: float) -> float:
    """:func:`maximum_f_measure` of the rows ``(r[i], p[i])``, given as two columns (bit for bit)."""
    if r.size == 0:
        return 0.0
    # in blocks whose temporaries stay in the cache; the maximum of the blocks' maxima is the
    # maximum (fmax ignores NaN unless all are, in a block as in the whole)
    block_best = []
    with np.errstate(divide="ignore", invalid="ignore"):
        for lo in range(0, r.size, F_BLOCK):
            f = f_beta(r[lo : lo + F_BLOCK], p[lo : lo + F_BLOCK], beta)
            block_best.append(np.fmax.reduce(f))  # np.nanmax's own reduction, without its all-NaN warning or a test pass
    best = block_best[0] if len(block_best) == 1 else np.fmax.reduce(np.array(block_best))
    return 0.0 if np.isnan(best) else float(max(best, 0.0))


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
    if not (isinstance(r, np.ndarray) and isinstance(p, np.ndarray) and r.shape == p.shape
            and r.dtype == p.dtype == np.float64):  # fmt: skip
        return (1.0 + b2) * r * p / (r + b2 * p)
    # ((1 + b2) * r) * p / (r + b2 * p), in two buffers (x + y == y + x exactly in IEEE arithmetic)
    num = np.multiply(1.0 + b2, r)
    num *= p
    if b2 == 1.0:  # 1 * p == p exactly: one multiplication fewer (F1, the default)
        den = np.add(p, r)
    else:
        den = np.multiply(b2, p)
        den += r
    num /= den
    return num


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
    # the first point's counts, read from the stored core (not its whole derived columns)
    ret, tp = points.retrieved_raw, points.tp_raw
    end = int(points.correct_idx_raw[0]) + 1 if ret is None else int(ret[0])  # the first tie group holding a correct case
    start, _ = points.group_bounds(end - 1)
    return expected_reciprocal_rank(start, end - start, 1 if tp is None else int(tp[0]))


def expected_reciprocal_rank(start: int, size: int, pos: int) -> float:
    """E[1 / rank of the first correct case] when the first tie group holding one starts at rank ``start`` + 1.

    The group holds ``size`` cases, ``pos`` of them correct, every order equally likely.
    """
    neg = size - pos
    # P(first correct at offset j) = prod_{i<j} (neg - i) / (size - i) * pos / (size - j)
    j = np.arange(neg + 1, dtype=np.float64)
    stay = np.concatenate(([1.0], np.cumprod((neg - j[:-1]) / (size - j[:-1]))))
    prob = stay * pos / (size - j)
    return seqsum(prob / (start + j + 1.0))


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
