"""Bounded-memory summaries: the certified lower, estimate and upper of every measure, as pure functions.

A summary is a list of *bins* in rank order (descending score). Bin ``b``
covers the closed score range ``[lo[b], hi[b]]`` and holds ``pos[b]`` and
``neg[b]``, the weight (the count, without sample weights) of the correct and
incorrect cases scored in that range. Ranges never overlap:
``hi[0] >= lo[0] > hi[1] >= lo[1] > ...``. A bin with ``lo == hi`` holds one
distinct score and is exactly one tie group of the grouped policy; a bin with
``lo < hi`` (a *range* bin) holds an unknown number of tie groups in an
unknown order.

Every grouped measure is a function of the tie groups' counts. While every bin
is exact the summary therefore determines every measure exactly. Once range
bins exist, each function below returns three numbers per measure:

``lower``, ``upper``
    bounds of the measure over every arrangement of the cases of each range
    bin into tie groups in any order (each bin stays between its neighbours,
    which is all the summary knows); most are reached by the best or the
    worst arrangement. The exact value of the data the summary was built from
    is one of these arrangements, so it lies in [lower, upper].
``estimate``
    the value when every range bin is taken as one tie group (what binned
    evaluators such as Spark's ``numBins`` compute); always within the bounds.

Notation used in the docstrings: for bin ``b``, ``P`` and ``N`` are its
correct and incorrect weight, ``c`` and ``f`` the correct and incorrect
weight in the bins above it, ``t = c + f``, ``R`` = num_positive_ref
(positive weight plus misses) and ``Q`` = num_negative_ref.

Which bins exist, how cases join them and how summaries merge and shrink is
:mod:`scored_pr._core.binning`; its names are re-exported here, so that this
module is the one a bounded summary's shell and state read.

Floating-point rounding: a value the summary determines exactly (an exact
bin, or bounds that meet) is computed with the evaluator's formula and
operation order, or from exact integer counts rounded once, so it is the
evaluator's float bit for bit (unweighted; weighted sums are rounded bin by
bin here and case by case there, so weighted results always carry bounds).
:func:`widen` moves every other interval outward by a margin of
8 * (number of bins + number of cases + 8) * 2**-52 (relative), which covers
the rounding of both this module and the evaluator's computation.
"""

from __future__ import annotations

import math

import numpy as np

from . import curves as C, points as P, scalars as M, thresholds as T
from .binning import (  # noqa: F401 - re-exported: the bins themselves, for the shell, the state and the tests
    _EPS,
    _TINY,
    SUB_BLOCK,
    Bins,
    BoolArray,
    FloatArray,
    IntArray,
    KeyArray,
    Triple,
    _ap_width,
    _before,
    _level_for,
    _log1p_ratio,
    _mask,
    add_sorted,
    bit_length,
    block_bins,
    blocks,
    compress,
    empty_bins,
    exact_bins,
    groups_of_sorted,
    interleave,
    keys,
    make,
    merge_bins,
    merge_costs,
    unsorted_block_bins,
    widen,
)


# ---------------------------------------------------------------------------
# Bounds of the measures


def _exact_mask(b: Bins) -> BoolArray:
    return b.lo == b.hi


def average_precision(b: Bins, pos_ref: float, integer: bool) -> Triple:
    """Average precision, grouped ties: sum over bins of each bin's term, over R.

    Exact bin (one tie group): every correct case gets the precision at the
    end of the group, term = P (c + P) / (t + P + N).

    Range bin: a correct case's precision is that at the end of its own tie
    group, (c + x) / (t + y) with x correct and y cases of the bin up to that
    point, x <= y <= x + N.

    * Upper: (c + x) / (t + y) <= (c + x) / (t + x) <= (c + P) / (t + P)
      (c <= t), reached when all correct cases of the bin form one group
      ranked first: term = P (c + P) / (t + P).
    * Lower: the j-th correct case of the bin (j = 1..P) has x >= j and
      y <= N + x, so its precision is at least (c + j) / (t + N + j), which
      is reached when all incorrect cases come first and the correct cases
      follow one by one: term = sum_j (c + j) / (t + N + j)
      = P - (t + N - c) (H(t + N + P) - H(t + N)) with harmonic numbers H.
      With sample weights (``integer`` False) the sum becomes the integral
      P - (t + N - c) ln(1 + P / (t + N)), a lower bound because the
      integrand is increasing.

    NaN (exact) when R is 0.
    """
    if pos_ref == 0:
        return Triple(math.nan, math.nan, math.nan)
    pos, neg = b.pos, b.neg
    c, f = _before(pos), _before(neg)
    t = c + f
    has = pos > 0
    pos, neg, c, t, exact = pos[has], neg[has], c[has], t[has], _exact_mask(b)[has]
    # Each term is a bin's positive weight times a ratio of sums, over R: the
    # positive weights and R are scaled by one power of two (exact, the same
    # value bit for bit) so that tiny weights leave no subnormal product.
    sp = P.side_scale(pos_ref)
    pos_s = pos * sp
    est = pos_s * ((c + pos) / (t + pos + neg))
    upper = np.where(exact, est, pos_s * ((c + pos) / (t + pos)))
    a = t + neg
    if integer:
        low = (pos - (a - c) * harmonic_diff(a, a + pos)) * sp
    else:
        with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
            safe_a = np.where(a > 0, a, 1.0)
            drop = (a - c) * _log1p_ratio(pos, safe_a)
            # Where that product is subnormal (x underflowed with a weight far below the
            # weight above it) it has lost its precision: use (a - c) x >= (a - c) ln(1 + x),
            # as pos (a - c) / a, scaled; a larger drop keeps the lower bound a lower bound.
            tiny = (drop < _TINY) & (a > c)
            drop_s = np.where(tiny, pos_s * ((a - c) / safe_a), drop * sp)
            low = np.where(a > 0, pos_s - drop_s, pos_s)
    lower = np.where(exact | (a == c), est, np.minimum(low, est))
    ref = pos_ref * sp
    return Triple(P.seqsum(lower) / ref, P.seqsum(est) / ref, P.seqsum(upper) / ref)


def roc_area(b: Bins, misses: float, negative_misses: float, pos_ref: float, neg_ref: float, integer: bool = False) -> Triple:
    """ROC AUC, grouped ties: the Mann-Whitney statistic over R * Q pairs.

    A pair (correct, incorrect) counts 1 when the correct case ranks above,
    1/2 when they tie. Pairs across bins are known: every correct case of bin
    b beats the incorrect weight of the bins below it and the negative
    misses. Misses and negative misses form one tie group below everything
    (1/2 per pair). Inside an exact bin every pair ties (P N / 2); inside a
    range bin the P N pairs count anything from 0 (all incorrect cases
    first) to P N (all correct cases first), estimate P N / 2.

    NaN (exact) when R or Q is 0.
    """
    if pos_ref == 0 or neg_ref == 0:
        return Triple(math.nan, math.nan, math.nan)
    pos, neg = b.pos, b.neg
    exact = _exact_mask(b)
    if integer:  # whole counts: twice the pair count as an exact integer, divided once
        return _roc_area_counts(b, exact, int(misses), int(negative_misses), int(pos_ref), int(neg_ref))
    # The pair weights are products of a positive and a negative weight: each
    # side is scaled by its own power of two (exact, the same value bit for bit
    # whenever the unscaled products are normal) so that R and Q lie in
    # [0.5, 1) and no product overflows (weights near 1e155) or turns
    # subnormal (weights near 1e-162).
    sp, sn = P.side_scale(pos_ref), P.side_scale(neg_ref)
    below = (float(neg.sum()) - _before(neg) - neg + negative_misses) * sn
    pos, neg = pos * sp, neg * sn
    with np.errstate(under="ignore"):
        inside = pos * neg
        base = P.seqsum(pos * below + np.where(exact, inside / 2.0, 0.0)) + (misses * sp) * (negative_misses * sn) / 2.0
        open_pairs = P.seqsum(np.where(exact, 0.0, inside))
    den = (pos_ref * sp) * (neg_ref * sn)
    return Triple(base / den, (base + open_pairs / 2.0) / den, (base + open_pairs) / den)


def _roc_area_counts(b: Bins, exact: BoolArray, misses: int, negative_misses: int, pos_ref: int, neg_ref: int) -> Triple:
    """The unweighted ROC area from integer pair counts, each bound a ratio rounded once.

    2 R Q * area = sum over bins of P (2 * (incorrect cases below) + N if
    the bin is exact), plus misses * negative misses: the integer the
    evaluator divides (:func:`scored_pr._core.curves.roc_rows_area_exact`), so
    the exact value is its float bit for bit. A range bin's P N pairs add 0
    (lower), P N (estimate) or 2 P N (upper) to it.
    """
    pos = b.pos.astype(np.int64)
    neg = b.neg.astype(np.int64)
    below = int(neg.sum()) - np.cumsum(neg) + negative_misses  # incorrect cases below each bin, misses included
    den = 2 * pos_ref * neg_ref
    inside = np.where(exact, neg, 0)
    base = C._exact_dot(pos, 2 * below + inside, den) + misses * negative_misses
    open_pairs = C._exact_dot(pos, np.where(exact, 0, neg), den)
    return Triple(base / den, (base + open_pairs) / den, (base + 2 * open_pairs) / den)


def maximum_f_measure(b: Bins, pos_ref: float, beta: float) -> Triple:
    """Maximum F-beta over the points of the PR curve.

    F at a cut-off with TP correct and k accepted is (1 + b^2) TP / (k + b^2 R):
    increasing in TP, decreasing in k. The last tie group of a bin that holds
    a correct case ends with TP = c + P and k <= t + P + N, so a point at
    least as good as (c + P, t + P + N) exists: the maximum of these (the
    estimate) is a lower bound. No point of a range bin beats
    (c + P, t + P), the upper bound. 0.0 (exact) without a correct case.
    """
    pos, neg = b.pos, b.neg
    c, f = _before(pos), _before(neg)
    has = pos > 0
    if not has.any() or pos_ref == 0:
        return Triple(0.0, 0.0, 0.0)
    tp = (c + pos)[has]
    k = (c + f + pos + neg)[has]
    r = tp / pos_ref
    with np.errstate(divide="ignore", invalid="ignore"):
        est = np.nan_to_num(M.f_beta(r, tp / k, beta), nan=0.0)
        best = np.nan_to_num(M.f_beta(r, tp / (c + f + pos)[has], beta), nan=0.0)
    best = np.where(_exact_mask(b)[has], est, np.maximum(best, est))
    e = float(max(est.max(), 0.0))
    return Triple(e, e, float(max(best.max(), 0.0)))


def _locate(b: Bins, k: float) -> tuple[int, float, float]:
    """Bin holding rank k (1-based cases), and the correct and total count above it."""
    m = b.pos + b.neg
    ends = np.cumsum(m)
    i = int(np.searchsorted(ends, k, side="left"))
    i = min(i, m.size - 1)
    before = float(ends[i] - m[i])
    return i, float(_before(b.pos)[i]), before


def true_positives_at(b: Bins, k: int) -> Triple:
    """Correct cases among the top ``k`` (0 <= k <= num_cases), grouped ties.

    The bin holding rank k has t cases above it, c of them correct, and the
    top k take s = k - t of its cases. Exact bin: the expected count over
    the orderings of the tie group, c + s P / (P + N). Range bin: whatever
    the tie groups, the count (or its expectation inside a cut group) is
    between c + max(0, s - N) and c + min(P, s); estimate c + s P / (P + N).
    """
    return top_ratio(b, k, 1)


def top_ratio(b: Bins, k: int, den: int) -> Triple:
    """:func:`true_positives_at` divided by ``den``, each value an exact ratio of integers rounded once.

    The exact bin's value is (c (P + N) + s P) / ((P + N) den), the
    evaluator's fraction (:func:`scored_pr._core.scalars.true_positives_at`) and
    division, so precision_at, recall_at and r_precision equal its floats
    bit for bit. The bounds, integer counts over ``den``, round the same way
    as the exact value would (correct rounding is monotone), so they hold it.
    Unweighted counts only.
    """
    if k <= 0 or b.pos.size == 0:
        return Triple(0.0, 0.0, 0.0)
    i, cf, tf = _locate(b, k)
    c, t = int(cf), int(tf)
    p, n = int(b.pos[i]), int(b.neg[i])
    s = k - t
    size = p + n
    est = (c * size + s * p) / (size * den)  # int / int: correctly rounded
    if b.lo[i] == b.hi[i]:
        return Triple(est, est, est)
    return Triple((c + max(0, s - n)) / den, est, (c + min(p, s)) / den)


#: Terms of the expected reciprocal rank of a tie group summed one by one; past
#: them the rest of the sum is bounded in O(1), so a query never costs more than
#: this many operations however many cases a bin holds.
RR_TERMS = 4096


def expected_reciprocal_rank(t: float, p: int, n: int) -> Triple:
    """E[1 / rank of the first correct case] in a tie group of p correct and n incorrect cases below t cases.

    With J the number of incorrect cases before the first correct one,
    P(J >= j) = prod_{i<j} (n - i) / (p + n - i) and
    P(J = j) = P(J >= j) p / (p + n - j); the value is
    sum_{j=0..n} P(J = j) / (t + j + 1). While n < :data:`RR_TERMS` it is
    summed term by term in the order of the evaluator's kernel
    (:func:`scored_pr._core.scalars.reciprocal_rank`), so the result is the same
    float, exact. Otherwise the first RR_TERMS terms are summed and the rest,
    T = P(J >= K) (K = RR_TERMS), is bounded two ways, and the tighter
    bound of each side kept:

    * P(J = j) and 1 / (t + j + 1) both fall with j, so the tail lies between
      T (H(t + n + 1) - H(t + K)) / (n - K + 1) (Chebyshev's sum inequality)
      and min(T / (t + K + 1), P(J = K) (H(t + n + 1) - H(t + K))); both are
      the exact value when p = 1.
    * The ranks K .. n are cut into blocks growing by a factor 1 + 1/128; over
      a block [a, b) the survival falls by a factor between
      (1 - p / (m - b + 1))^(b - a) and (1 - p / (m - a))^(b - a), m = p + n,
      which bounds the probability mass of every block, and its terms lie
      between mass / (t + b) and mass / (t + a + 1).

    The bounds are widened by the rounding of the products. O(RR_TERMS +
    128 log(n / RR_TERMS)) (at most about 7,000 blocks).
    """
    size = p + n
    k = min(n + 1, RR_TERMS)
    j = np.arange(k, dtype=np.float64)
    stay = np.concatenate(([1.0], np.cumprod((n - j[:-1]) / (size - j[:-1]))))
    head = P.seqsum(stay * p / (size - j) / (t + j + 1.0))
    if k == n + 1:
        return Triple(head, head, head)
    last = float(stay[-1]) * (n - k + 1) / (size - k + 1)  # P(J >= K)
    h = float(harmonic_diff(np.array([t + k], dtype=np.float64), np.array([t + n + 1.0]))[0])
    low = last * h / (n - k + 1)
    high = min(last / (t + k + 1.0), last * p / (size - k) * h)
    # geometric blocks [a, b) covering K .. n
    steps = int(math.ceil(math.log((n + 1.0) / k) / math.log1p(1.0 / 128))) + 1
    edges = np.unique(np.minimum(np.floor(k * (1.0 + 1.0 / 128) ** np.arange(steps + 1)), n + 1.0))
    edges = np.unique(np.concatenate(([float(k)], edges, [n + 1.0])))
    a, b = edges[:-1], edges[1:]
    length = b - a
    with np.errstate(divide="ignore"):
        fall_hi = np.exp(length * np.log1p(-p / (size - a)))
        fall_lo = np.exp(length * np.log1p(-p / (size - b + 1.0)))
    s_hi = last * np.concatenate(([1.0], np.cumprod(fall_hi)))
    s_lo = last * np.concatenate(([1.0], np.cumprod(fall_lo)))
    mass_lo = np.maximum(s_lo[:-1] - s_hi[1:], 0.0)
    mass_hi = s_hi[:-1] - s_lo[1:]
    low = max(low, float(np.sum(mass_lo / (t + b))))
    high = min(high, float(np.sum(mass_hi / (t + a + 1.0))))
    slack = 16.0 * (k + edges.size + 16) * _EPS
    lower, upper = (head + low) * (1.0 - slack), (head + high) * (1.0 + slack)
    return Triple(lower, min(max(head + (low + high) / 2.0, lower), upper), upper)


def reciprocal_rank(b: Bins) -> Triple:
    """1 / rank of the first correct case, grouped ties (expected over a tie group).

    The first bin holding a correct case has t cases above it. Exact bin: the
    expected 1 / rank over the orderings of the group
    (:func:`expected_reciprocal_rank`: exact while the bin has fewer than
    :data:`RR_TERMS` incorrect cases, tightly bounded beyond). Range bin: the
    first correct case is at rank t + 1 at best and t + N + 1 at worst (any
    tie group inside gives an expectation in between); estimate as if the
    bin were one tie group. 0.0 (exact) without a correct case. O(bins + RR_TERMS)
    whatever the number of cases.
    """
    has = np.flatnonzero(b.pos > 0)
    if has.size == 0:
        return Triple(0.0, 0.0, 0.0)
    i = int(has[0])
    t = float((b.pos + b.neg)[:i].sum())
    p, n = int(b.pos[i]), int(b.neg[i])
    group = expected_reciprocal_rank(t, p, n)
    if b.lo[i] == b.hi[i]:
        return group
    lower, upper = 1.0 / (t + n + 1.0), 1.0 / (t + 1.0)
    return Triple(lower, min(max(group.estimate, lower), upper), upper)


def accepted_at(b: Bins, threshold: float) -> tuple[Triple, Triple, float, float]:
    """Correct and incorrect weight with score >= ``threshold``: bounds of both, and P, N of the straddling bin.

    Bins wholly at or above the threshold count fully, bins wholly below not
    at all; at most one range bin straddles it (lo < threshold <= hi), and
    any part of it may be accepted. The estimate takes the fraction
    (hi - threshold) / (hi - lo) of it, as if its scores were uniform over
    its range (1/2 when the range is infinite).
    """
    above = b.lo >= threshold
    tp, fp = float(b.pos[above].sum()), float(b.neg[above].sum())
    split = np.flatnonzero((b.lo < threshold) & (b.hi >= threshold))
    if split.size == 0:
        return Triple(tp, tp, tp), Triple(fp, fp, fp), 0.0, 0.0
    i = int(split[0])
    p, n, lo, hi = float(b.pos[i]), float(b.neg[i]), float(b.lo[i]), float(b.hi[i])
    with np.errstate(all="ignore"):
        share = (hi - threshold) / (hi - lo)
    if not 0.0 <= share <= 1.0:  # infinite range
        share = 0.5
    return Triple(tp, tp + share * p, tp + p), Triple(fp, fp + share * n, fp + n), p, n


def precision_at_threshold(b: Bins, threshold: float) -> Triple:
    """Precision of accepting every case scored >= threshold; NaN when nothing is accepted.

    With a straddling bin (P, N) and A = TP + FP accepted by the other bins,
    the precision (TP + x) / (A + x + y), 0 <= x <= P, 0 <= y <= N, is
    smallest at x = 0, y = N and largest at x = P, y = 0. When A = 0 the
    bin may contribute nothing, and the precision may then be NaN; the
    bounds cover every value it takes when it is defined.
    """
    tp, fp, p, n = accepted_at(b, threshold)
    a = tp.lower + fp.lower
    if p == 0 and n == 0:
        v = tp.lower / a if a > 0 else math.nan
        return Triple(v, v, v)
    low = tp.lower / (a + n) if a + n > 0 else 1.0
    high = (tp.lower + p) / (a + p) if a + p > 0 else 0.0
    est_den = tp.estimate + fp.estimate
    est = tp.estimate / est_den if est_den > 0 else (high + low) / 2.0
    return Triple(low, min(max(est, low), high), high)


def f_measure_at_threshold(b: Bins, threshold: float, pos_ref: float, beta: float) -> Triple:
    """F-beta of accepting every case scored >= threshold, exact or bounded.

    With x correct and y incorrect weight accepted, F = (1 + b^2) x / (x +
    b^2 R + y) (the evaluator's :func:`scored_pr._core.thresholds.f_measure`, FN = R -
    x) grows with x and falls with y, and x and y range independently over
    the straddling bin's share: the lower bound takes x low and y high, the
    upper x high and y low. NaN for 0/0 (nothing accepted, no positive
    reference); the bounds cover every value F takes when it is defined
    (0.0 there, since then x is 0).
    """
    tp, fp, p, n = accepted_at(b, threshold)

    def f(x: float, y: float) -> float:
        return T.f_measure(x, x + y, pos_ref, beta)

    if p == 0 and n == 0:
        v = f(tp.lower, fp.lower)
        return Triple(v, v, v)
    low, high = f(tp.lower, fp.upper), f(tp.upper, fp.lower)
    low = 0.0 if math.isnan(low) else low
    high = 0.0 if math.isnan(high) else high
    est = f(tp.estimate, fp.estimate)
    return Triple(low, low if math.isnan(est) else min(max(est, low), high), high)


def f_measure_top(b: Bins, k: int, pos_ref: int, beta: float) -> Triple:
    """F-beta of the top ``k`` cases (0 <= k <= cases), exact or bounded; unweighted counts.

    The top ``k`` hold between the bounds of :func:`top_ratio` correct cases
    and exactly ``k`` cases, so F = (1 + b^2) TP / (b^2 R + k) grows with TP:
    its bounds are F at the two TP bounds. The exact bin's TP is the
    evaluator's float (:func:`scored_pr._core.scalars.tp_top`), so is F then.
    """
    t = top_ratio(b, k, 1)
    return Triple(*(T.f_measure(x, k, pos_ref, beta) for x in t))


def average_precision_at(b: Bins, num_positive_ref: int, k: int) -> Triple:
    """AP@k, grouped ties: the sum over the top ``k`` of precision * rel, over min(k, R); unweighted.

    Bins wholly in the top ``k`` contribute their :func:`average_precision`
    terms (exact bin P (c + P) / (t + P + N); range bin between the sum over
    j of (c + j) / (t + N + j) and P (c + P) / (t + P)). The bin that rank
    ``k`` cuts (s = k - t of its cases in the top k): exact bin, the
    evaluator's pro-rata term P s / (P + N) * (c + P) / (t + P + N); range
    bin, between 0 and min(P, s) (c + P) / (t + P), since at most min(P, s)
    correct cases (in expectation) of it are in the top k, each with a
    precision at most (c + P) / (t + P). Estimate: each bin one tie group.
    The exact value is summed in the evaluator's order, so an exact summary
    gives its float. NaN when min(k, R) is 0.
    """
    den = min(k, num_positive_ref)
    if den == 0:
        return Triple(math.nan, math.nan, math.nan)
    pos, neg = b.pos, b.neg
    c, f = _before(pos), _before(neg)
    t = c + f
    end = t + pos + neg
    exact = _exact_mask(b)
    sel = (end <= k) & (pos > 0)  # bins wholly in the top k that hold a correct case
    p, n, cc, tt, ex = pos[sel], neg[sel], c[sel], t[sel], exact[sel]
    est = p * ((cc + p) / (tt + p + n))
    upper = np.where(ex, est, p * ((cc + p) / (tt + p)))
    a = tt + n
    lower = np.where(ex | (a == cc), est, np.minimum(p - (a - cc) * harmonic_diff(a, a + p), est))
    lo, mid, hi = P.seqsum(lower), P.seqsum(est), P.seqsum(upper)
    cut = np.flatnonzero((t < k) & (end > k) & (pos > 0))
    if cut.size:
        i = int(cut[0])
        pi, ni, ci, ti = pos[i], neg[i], c[i], t[i]
        share = pi * (k - ti) / (pi + ni)
        term = share * (ci + pi) / (ti + pi + ni)  # the evaluator's operations, in its order
        mid += term
        if exact[i]:
            lo += term
            hi += term
        else:
            hi += min(float(pi), k - float(ti)) * ((ci + pi) / (ti + pi))
    return Triple(float(lo) / den, float(mid) / den, float(hi) / den)


def k_at_recall(b: Bins, num_positive_ref: int, level: float) -> tuple[Triple, Triple] | None:
    """(k, precision) at the smallest grouped cut-off with recall >= ``level``, or None if unreachable.

    Unweighted counts. The needed number m of correct cases is the
    evaluator's (:func:`scored_pr._core.scalars.correct_needed`). The bin where
    the correct count reaches m has t cases and c correct ones above it and
    P correct, N incorrect in it; the exact cut-off ends the tie group that
    holds the m-th correct case, so it takes x >= m - c of the bin's correct
    cases and y <= N of its incorrect ones: k in [t + m - c, t + P + N] and
    precision (c + x) / (t + x + y) in [m / (t + m - c + N), (c + P) / (t +
    P)] (it grows with x, falls with y). Estimate (and exact bin): the bin
    as one tie group, k = t + P + N, precision (c + P) / (t + P + N), the
    evaluator's integer ratio.
    """
    needed = max(1, M.correct_needed(level, num_positive_ref))
    if num_positive_ref == 0 or needed > int(b.pos.sum()):
        return None
    cum = np.cumsum(b.pos)
    i = int(np.searchsorted(cum, needed, side="left"))  # the first bin whose correct count reaches it
    p, n = int(b.pos[i]), int(b.neg[i])
    c = int(cum[i]) - p
    t = int(b.pos[:i].sum() + b.neg[:i].sum())
    k = t + p + n
    precision = (c + p) / k  # int / int: correctly rounded, as the evaluator's tp / k
    if b.lo[i] == b.hi[i]:
        return Triple(k, k, k), Triple(precision, precision, precision)
    return Triple(t + needed - c, k, k), Triple(needed / (t + needed - c + n), precision, (c + p) / (t + p))


def curve_boxes(b: Bins, pos_ref: float, neg_ref: float, misses: float, negative_misses: float, integer: bool) -> tuple[FloatArray, FloatArray]:
    """Boxes that hold the exact PR and ROC curves, one row per bin.

    Returns (pr, roc), arrays of rows (x_low, x_high, y_low, y_high).

    PR, rows for the bins with a correct case: every operating point of bin b
    has recall (c + x) / R and precision (c + x) / (t + y) with x correct
    cases (x >= 1 unweighted, > 0 weighted) and y >= x cases of the bin, y
    <= x + N: recall in [(c + x_min) / R, (c + P) / R], precision in
    [(c + x_min) / (t + N + x_min), (c + P) / (t + P)]. An exact bin is one
    point.

    ROC (recall, rejection recall), rows for every bin and, with misses, the
    bottom tie group: the curve crosses bin b by a monotone path from
    (c / R, 1 - f / Q) to ((c + P) / R, 1 - (f + N) / Q), which stays inside
    that rectangle (a straight segment for an exact bin).
    """
    pos, neg = b.pos, b.neg
    c, f = _before(pos), _before(neg)
    t = c + f
    exact = _exact_mask(b)
    has = pos > 0
    x_min = 1.0 if integer else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        r1 = (c + pos) / pos_ref
        r0 = np.where(exact, r1, (c + x_min) / pos_ref)
        p_est = (c + pos) / (t + pos + neg)
        p_hi = np.where(exact, p_est, (c + pos) / (t + pos))
        a = t + neg + x_min
        p_lo = np.where(exact, p_est, np.where(a > 0, (c + x_min) / np.where(a > 0, a, 1.0), 1.0))
    pr = np.column_stack((r0, r1, p_lo, p_hi))[has]
    cc, ff, pp, nn = c, f, pos, neg
    if misses > 0:
        cc = np.append(c, float(pos.sum()))
        ff = np.append(f, float(neg.sum()))
        pp = np.append(pos, misses)
        nn = np.append(neg, negative_misses)
    with np.errstate(divide="ignore", invalid="ignore"):
        roc = np.column_stack((cc / pos_ref, (cc + pp) / pos_ref, 1.0 - (ff + nn) / neg_ref, 1.0 - ff / neg_ref))
    return pr, roc


def estimate_curves(b: Bins, pos_ref: float, neg_ref: float, misses: float, negative_misses: float) -> tuple[FloatArray, FloatArray]:
    """The PR and ROC curves with every bin taken as one tie group (the evaluator's layout).

    PR: (recall, precision) rows, one per bin holding a correct case. ROC:
    (recall, rejection recall) rows at the same cut-offs, plus (1, 0) for
    the bottom tie group of misses and negative misses when there are
    misses. With exact bins these are the grouped evaluator's curves.
    """
    pos, neg = b.pos, b.neg
    c, f = _before(pos), _before(neg)
    has = pos > 0
    tp = (c + pos)[has]
    fp = (f + neg)[has]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = tp / np.float64(pos_ref)
        pr = np.column_stack((r, tp / (tp + fp)))
        rr = 1.0 - fp / np.float64(neg_ref)
    if misses > 0:
        r = np.append(r, 1.0)
        rr = np.append(rr, 0.0 if neg_ref else math.nan)
    return pr, np.column_stack((r, rr))


# ---------------------------------------------------------------------------
# Numerics


def _psi_tail(x: FloatArray) -> FloatArray:
    """digamma(x) - ln(x) for x >= 17 by its asymptotic series (error < 1e-16)."""
    x2 = 1.0 / (x * x)
    return -0.5 / x - x2 * (1 / 12 - x2 * (1 / 120 - x2 * (1 / 252 - x2 * (1 / 240 - x2 / 132))))


def harmonic_diff(a: FloatArray, b: FloatArray) -> FloatArray:
    """H(b) - H(a) = sum_{j = a + 1}^{b} 1 / j for integers 0 <= a <= b (float64 arrays).

    Computed as digamma(b + 1) - digamma(a + 1): the recurrence moves both
    arguments up by 16, the logarithms are subtracted with ``log1p`` and the
    asymptotic series of digamma does the rest, so the result is accurate to
    a few ulps even when b - a is tiny next to a. O(1) per element.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    d = b - a
    x, y = a + 1.0, b + 1.0
    shift = np.zeros(np.broadcast(a, b).shape, dtype=np.float64)
    for i in range(16):
        shift += d / ((x + i) * (y + i))
    xs, ys = x + 16.0, y + 16.0
    return np.log1p(d / xs) + (_psi_tail(ys) - _psi_tail(xs)) + shift
