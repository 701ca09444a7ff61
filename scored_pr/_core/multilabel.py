"""Binary measures over the k columns of an (n, k) score matrix, sorted in one pass.

The k columns are k independent binary rankings (one label each). Every
column is sorted by one ``argsort`` over the transposed (k, n) matrix, tie
groups are found with one comparison of neighbours, and the cumulative
true/false positive counts at the end of each tie group come from one
``cumsum`` along the rows: no Python loop over the labels. Each measure is
then a ``bincount`` over the tie-group ends, keyed by column.

The definitions are scikit-learn's (``average_precision_score``,
``roc_auc_score``, ``precision_recall_curve``, ``roc_curve``,
``label_ranking_average_precision_score``, ``coverage_error``,
``label_ranking_loss``, ``top_k_accuracy_score``): tied scores form one
threshold (grouped ties), and a case of weight 0 changes nothing. The
functions here trust their input (checked arrays of float64 scores, bool
truth and float64 weights or None); the public functions that validate and
average live in :mod:`scored_pr.functional`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

F64 = npt.NDArray[np.float64]
Bool = npt.NDArray[np.bool_]


class GroupEnds(NamedTuple):
    """Cumulative counts at every tie group of every column, flattened column by column.

    ``column[i]`` is the column of group ``i``; within a column the groups
    run from the LOWEST score up. ``tps``/``fps`` are the (weighted)
    positives and negatives scoring at or above that group's score (the
    counts at the group's end in a descending ranking), ``prev_tps`` /
    ``prev_fps`` the same for the next higher group of the same column (0
    for a column's highest group). ``positives``/``negatives`` are the
    column totals, shape (k,). ``thresholds`` are the groups' scores when
    asked for, else empty.
    """

    column: npt.NDArray[np.intp]
    tps: F64
    fps: F64
    prev_tps: F64
    prev_fps: F64
    thresholds: F64
    positives: F64
    negatives: F64


_ONE = np.uint64(1)
_MAGNITUDE = np.int64((1 << 63) - 1)  # every bit of a float64 but its sign
_HALF = 1 << 62


def _label_keys(truth: Bool, scores: F64) -> npt.NDArray[np.uint64] | None:
    """The (k, n) transpose of (n, k) ``scores`` and ``truth`` as one uint64 sort key per case: the score's order in the high 63 bits, the label in the lowest.

    Sorting these keys sorts the scores and carries the labels along, with
    no argsort and no gather. Two encodings, both exact (equal keys exactly
    for equal scores; -0.0 is first made 0.0, as ties compare equal):

    - every score >= 0 (probabilities): the float's bits already sort as
      unsigned ints and their sign bit is 0, so the shift drops nothing;
    - otherwise (logits, scores of both signs): a positive float's bits
      grow with its value, so with ``m`` = the bits of the smallest nonzero
      |score|, the magnitude ``b = bits(|x|)`` becomes ``b - m + 1`` (0 for
      0.0), and the sign is applied to that: an int of the scores' order
      within +-(span of the magnitudes' bits + 1). It fits in 63 bits when
      that span is below 2**62, i.e. unless the magnitudes range over more
      than about 2**1023 (a tiny subnormal beside a large score).

    None when it does not fit: the caller falls back to an argsort. Scores
    are never NaN here (validated); +-inf sort last and first. O(n k): a
    few passes over the keys, far less than their sort.
    """
    # a fresh C-ordered (k, n) array (each column's cases contiguous), reinterpreted in place
    keys = np.add(scores.T, 0.0, order="C").view(np.int64)
    if not scores.size:
        return keys.view(np.uint64)
    if scores.min() >= 0.0:
        # the common case (probabilities): every sign bit is 0 (-0.0 became 0.0), so the bits of
        # the float already sort as unsigned ints and the shift below drops only that 0 bit
        out = keys.view(np.uint64)
        out <<= _ONE
        out |= truth.T
        return out
    sign = keys >> 63  # -1 for a negative score, else 0 (an arithmetic shift)
    keys &= _MAGNITUDE  # |score|'s bits: ordered as |score|
    high, low = int(keys.max()), int(keys.min())
    zeros = low == 0
    if zeros:
        low = int(keys.min(where=keys != 0, initial=high))  # the smallest nonzero magnitude
    if high - low + 1 >= _HALF:
        return None
    keys -= low - 1  # nonzero magnitudes -> 1 .. high - low + 1, order kept
    if zeros:
        np.maximum(keys, 0, out=keys)  # 0.0 (which went to 1 - low <= 0) -> 0, below every nonzero one
    keys ^= sign  # the sign applied as two's complement, -m = (m ^ -1) + 1 (masked ufuncs are slower)
    keys -= sign
    del sign
    keys += _HALF  # into [1, 2**63): a uint64 of the scores' order with its top bit free
    out = keys.view(np.uint64)
    out <<= _ONE
    out |= truth.T
    return out


def group_ends(truth: Bool, scores: F64, weight: F64 | None = None, thresholds: bool = False) -> GroupEnds:
    """Sort the k columns of ``scores`` (n, k) at once and cut them into tie groups.

    ``truth`` is (n, k) bool, ``weight`` (n,) or None (every case 1);
    ``thresholds`` asks for each group's score. Unweighted, one sort of
    (score, label) keys over the (k, n) transpose (see :func:`_label_keys`);
    weighted (or when the keys do not fit), one argsort along the rows and
    gathers of labels and weights. O(n k log n) time, O(n k) memory.
    With n = 0 every column has no group (empty arrays, totals 0).
    """
    n, k = scores.shape
    if n == 0:
        empty = np.zeros(0)
        zeros = np.zeros(k)
        return GroupEnds(np.zeros(0, dtype=np.intp), empty, empty, empty, empty, empty, zeros, zeros)
    keys = None if weight is not None or thresholds else _label_keys(truth, scores)
    if keys is not None:
        keys.sort(axis=1)
        ones = keys & _ONE  # the labels, in score order
        keys >>= _ONE
        is_start = np.empty((k, n), dtype=bool)
        np.not_equal(keys[:, 1:], keys[:, :-1], out=is_start[:, 1:])
        del keys
        s_asc = None
    else:
        s_t = np.ascontiguousarray(scores.T)  # (k, n): each column contiguous, so the sort runs row by row
        # ascending unstable argsort (numpy's fastest): the order inside a tie group never matters
        order = np.argsort(s_t, axis=1)
        s_asc = np.take_along_axis(s_t, order, axis=1)
        y_asc = np.take_along_axis(np.ascontiguousarray(truth.T), order, axis=1)
        is_start = np.empty((k, n), dtype=bool)
        np.not_equal(s_asc[:, 1:], s_asc[:, :-1], out=is_start[:, 1:])
    is_start[:, 0] = True
    idx = np.flatnonzero(is_start)  # group starts (in ascending order), column by column
    del is_start
    column = idx // n
    above = n - (idx - column * n)  # cases scoring at or above the group's score
    if weight is None:
        if s_asc is not None:
            ones = y_asc.astype(np.uint64)
        first = ones.ravel()[idx]
        np.cumsum(ones, axis=1, out=ones)  # in place: positives up to and including each case
        pos_total = ones[:, -1].astype(np.int64)
        tp = pos_total[column] - (ones.ravel()[idx] - first).astype(np.int64)  # exact integers
        tps = tp.astype(np.float64)
        fps = (above - tp).astype(np.float64)
        positives = pos_total.astype(np.float64)
        negatives = n - positives
    else:
        w_asc = weight[order]
        # suffix sums (a cumulative sum from the top, as scikit-learn's descending cumsum),
        # each of its own so that both stay monotone under rounding
        pos_w = np.cumsum(np.where(y_asc, w_asc, 0.0)[:, ::-1], axis=1)[:, ::-1]
        neg_w = np.cumsum(np.where(y_asc, 0.0, w_asc)[:, ::-1], axis=1)[:, ::-1]
        tps = pos_w.ravel()[idx]
        fps = neg_w.ravel()[idx]
        positives = pos_w[:, 0].copy()
        negatives = neg_w[:, 0].copy()
    last = np.ones(idx.size, dtype=bool)  # a column's highest group: nothing above it
    last[:-1] = column[1:] != column[:-1]
    prev_tps = np.zeros_like(tps)
    prev_fps = np.zeros_like(fps)
    prev_tps[:-1] = tps[1:]
    prev_fps[:-1] = fps[1:]
    prev_tps[last] = 0.0
    prev_fps[last] = 0.0
    thr = s_asc.ravel()[idx] if thresholds and s_asc is not None else np.zeros(0)
    return GroupEnds(column, tps, fps, prev_tps, prev_fps, thr, positives, negatives)


def average_precision_columns(g: GroupEnds, k: int) -> F64:
    """scikit-learn's average precision of each column, shape (k,).

    Σ over tie groups of (R_g - R_{g-1}) · P_g, with recall R and precision P
    at the group's end (0 where no case of positive weight scores that high).
    A column without a positive is 0.0 (scikit-learn sets its recall to 1, so
    no step adds area).
    """
    positives = g.positives
    ps = g.tps + g.fps
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(ps > 0, g.tps / np.where(ps > 0, ps, 1.0), 0.0)
    sums = np.bincount(g.column, weights=(g.tps - g.prev_tps) * precision, minlength=k)
    with np.errstate(divide="ignore", invalid="ignore"):
        ap = np.where(positives > 0, sums / np.where(positives > 0, positives, 1.0), 0.0)
    return np.maximum(ap, 0.0)


def _scales(totals: F64) -> F64:
    """Per column, the power of two that brings a total > 0 into [0.5, 1) (1.0 for 0)."""
    exponent = np.frexp(totals)[1]
    return np.where(totals > 0, np.ldexp(1.0, -exponent), 1.0)


def roc_auc_columns(g: GroupEnds, k: int) -> F64:
    """Area under each column's ROC curve (trapezoids between group ends), shape (k,).

    Tied positive/negative pairs count one half. NaN for a column with no
    positive or no negative (scikit-learn's value for one class).
    """
    # each column's weight sums scaled by powers of two (exact: the same area bit for
    # bit) that bring its totals into [0.5, 1), so no product of weights overflows or
    # turns subnormal whatever the weights' magnitude
    sp, sn = _scales(g.positives), _scales(g.negatives)
    spc, snc = sp[g.column], sn[g.column]
    with np.errstate(under="ignore"):
        area = np.bincount(g.column, weights=((g.fps - g.prev_fps) * snc) * ((g.tps + g.prev_tps) * spc), minlength=k)
    denom = 2.0 * (g.positives * sp) * (g.negatives * sn)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denom > 0, area / np.where(denom > 0, denom, 1.0), np.nan)


def partial_roc_auc_columns(g: GroupEnds, k: int, max_fpr: float) -> F64:
    """McClish-standardised partial ROC area up to ``max_fpr`` of each column, as scikit-learn.

    The curve is cut at ``max_fpr`` by linear interpolation between its
    last point at or below ``max_fpr`` and the next one; NaN with one class.
    """
    out = np.full(k, np.nan)
    bounds = np.searchsorted(g.column, np.arange(k + 1))
    for c in range(k):  # one searchsorted per column over its already sorted group ends
        p, q = g.positives[c], g.negatives[c]
        if p <= 0 or q <= 0:
            continue
        lo, hi = bounds[c], bounds[c + 1]
        fpr = np.concatenate(([0.0], g.fps[lo:hi][::-1] / q))  # descending scores: increasing rates
        tpr = np.concatenate(([0.0], g.tps[lo:hi][::-1] / p))
        stop = int(np.searchsorted(fpr, max_fpr, "right"))
        x = np.append(fpr[:stop], max_fpr)
        y = np.append(tpr[:stop], np.interp(max_fpr, fpr[stop - 1 : stop + 1], tpr[stop - 1 : stop + 1]))
        partial = float(np.sum(np.diff(x) * (y[1:] + y[:-1])) / 2.0)
        min_area, max_area = 0.5 * max_fpr**2, max_fpr
        out[c] = 0.5 * (1.0 + (partial - min_area) / (max_area - min_area))
    return out


def binary_curve_counts(truth: Bool, scores: F64, weight: F64 | None) -> tuple[F64, F64, F64]:
    """(fps, tps, thresholds) at every distinct score, highest first, as scikit-learn's.

    Cases of weight 0 are dropped first (they would add a threshold that
    changes no count).
    """
    if weight is not None:
        keep = weight != 0
        truth, scores, weight = truth[keep], scores[keep], weight[keep]
    g = group_ends(truth[:, None], scores[:, None], weight, thresholds=True)
    return g.fps[::-1].copy(), g.tps[::-1].copy(), g.thresholds[::-1].copy()


def roc_curve(truth: Bool, scores: F64, weight: F64 | None, drop_intermediate: bool) -> tuple[F64, F64, F64]:
    """scikit-learn's ``roc_curve``: (fpr, tpr, thresholds), thresholds decreasing from +inf.

    NaN rates where there is no negative (fpr) or no positive (tpr).
    """
    fps, tps, thr = binary_curve_counts(truth, scores, weight)
    if drop_intermediate and fps.size > 2:
        keep = np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True]
        fps, tps, thr = fps[keep], tps[keep], thr[keep]
    fps = np.r_[0.0, fps]
    tps = np.r_[0.0, tps]
    thr = np.r_[np.inf, thr]
    fpr = fps / fps[-1] if fps[-1] > 0 else np.full(fps.shape, np.nan)
    tpr = tps / tps[-1] if tps[-1] > 0 else np.full(tps.shape, np.nan)
    return fpr, tpr, thr


def precision_recall_curve(
    truth: Bool, scores: F64, weight: F64 | None, drop_intermediate: bool
) -> tuple[F64, F64, F64]:
    """scikit-learn's ``precision_recall_curve``: (precision, recall, thresholds), thresholds increasing.

    precision and recall have one more entry than thresholds: the last is
    (1, 0). Precision is 0 where no weight scores that high; recall is 1
    everywhere when there is no positive.
    """
    fps, tps, thr = binary_curve_counts(truth, scores, weight)
    if drop_intermediate and fps.size > 2:
        keep = np.r_[True, np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:])), True]
        fps, tps, thr = fps[keep], tps[keep], thr[keep]
    ps = tps + fps
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(ps != 0, tps / np.where(ps != 0, ps, 1.0), 0.0)
    recall = tps / tps[-1] if tps.size and tps[-1] != 0 else np.ones(tps.shape)
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thr[::-1].copy()


def ovo_roc_auc(classes: npt.NDArray[np.intp], scores: F64, weighted: bool) -> float:
    """Hand & Till's one-vs-one ROC AUC over the classes present in ``classes`` (column indices).

    For every pair (a, b) of present classes: the mean of A(a|b), the AUC of
    column a separating class a from class b, and A(b|a); then the mean over
    pairs (``weighted``: weighted by the pair's share of cases, as
    scikit-learn). Each column is sorted once; its AUC against every other
    class comes from per-class cumulative counts over its tie groups.
    NaN when fewer than two classes are present (no pair to average; no
    case at all included).
    """
    n, k = scores.shape
    present = np.unique(classes)
    onehot = np.zeros((n, k), dtype=np.float64)
    onehot[np.arange(n), classes] = 1.0
    counts = onehot.sum(axis=0)
    auc = np.full((k, k), np.nan)  # auc[a, b] = A(a|b) from column a
    for a in present:  # per present class: O(n k) with one sort, no per-pair work over the cases
        order = np.argsort(scores[:, a])  # ascending
        s = scores[order, a]
        starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
        per_group = np.add.reduceat(onehot[order], starts, axis=0)  # (groups, k) class counts
        below = np.cumsum(per_group, axis=0) - per_group  # cases of each class strictly below the group
        wins = (per_group[:, a : a + 1] * (below + 0.5 * per_group)).sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            auc[a] = wins / (counts[a] * counts)
    pair_scores, prevalence = [], []
    for i, a in enumerate(present):
        for b in present[i + 1 :]:
            pair_scores.append((auc[a, b] + auc[b, a]) / 2.0)
            prevalence.append((counts[a] + counts[b]) / n)
    if not pair_scores:
        return float("nan")
    return float(np.average(pair_scores, weights=prevalence if weighted else None))


def label_ranking_stats(truth: Bool, scores: F64) -> tuple[F64, F64, npt.NDArray[np.intp]]:
    """Per row: LRAP, ranking loss (pairs) and coverage, from one sort of every row.

    With each row sorted ascending and tie groups found, for a relevant label
    j: rank_j = #{l : s_l >= s_j} and L_j = #{relevant l : s_l >= s_j} (ties
    count as ranked above, scikit-learn's ``rankdata(..., "max")``); the
    ranking loss counts pairs (relevant j, irrelevant l) with s_l >= s_j;
    coverage is the number of labels scoring at least the lowest relevant one.
    Returns (lrap (n,), ranking loss (n,), coverage (n,)) with scikit-learn's
    values for rows with no or only relevant labels (1.0, 0.0 and 0).
    """
    n, k = scores.shape
    order = np.argsort(scores, axis=1)
    s = np.take_along_axis(scores, order, axis=1)
    rel = np.take_along_axis(truth, order, axis=1)
    pos = np.broadcast_to(np.arange(k), (n, k))
    is_start = np.ones((n, k), dtype=bool)
    if k > 1:
        is_start[:, 1:] = s[:, 1:] != s[:, :-1]
    start = np.maximum.accumulate(np.where(is_start, pos, 0), axis=1)  # first position of each tie group
    rel_before: npt.NDArray[np.int64] = np.cumsum(rel, axis=1, dtype=np.int64) - rel  # relevant labels strictly before each position
    n_rel = rel.sum(axis=1)
    rel_below: npt.NDArray[np.int64] = np.take_along_axis(rel_before, start, axis=1)  # relevant labels scoring strictly lower
    at_or_above = k - start  # labels scoring >= this one
    rel_at_or_above = n_rel[:, None] - rel_below
    irr_at_or_above = at_or_above - rel_at_or_above
    with np.errstate(divide="ignore", invalid="ignore"):
        lrap = np.where(rel, rel_at_or_above / at_or_above, 0.0).sum(axis=1) / n_rel
        loss = np.where(rel, irr_at_or_above, 0).sum(axis=1) / (n_rel * (k - n_rel))
    trivial = (n_rel == 0) | (n_rel == k)
    lrap[trivial] = 1.0
    loss[trivial] = 0.0
    lowest = np.where(rel, pos, k).min(axis=1)  # position of the lowest relevant label
    coverage = np.where(n_rel > 0, k - np.take_along_axis(start, np.minimum(lowest, k - 1)[:, None], axis=1)[:, 0], 0)
    return lrap, loss, coverage


def top_k_hits(classes: npt.NDArray[np.intp], scores: F64, k: int) -> Bool:
    """Whether each row's true class is among its ``k`` highest scores, ties as scikit-learn.

    scikit-learn ranks by score, and among equal scores the higher column
    index first (a stable ascending sort, reversed), so the true class c is
    a hit when #{l : s_l > s_c} + #{l > c : s_l = s_c} < k. O(n k), no sort.
    """
    n, m = scores.shape
    s_true = scores[np.arange(n), classes][:, None]
    above = (scores > s_true).sum(axis=1)
    tied_after = ((scores == s_true) & (np.arange(m) > classes[:, None])).sum(axis=1)
    return np.asarray(above + tied_after < k)


#: Cases per block of columns in :func:`column_measures`: the block's temporaries (a few arrays of
#: this many 8-byte items, 16 MiB each) stay small enough for the allocator to reuse them from
#: block to block; fresh memory (first touch of every page) would cost more than the sort itself.
BLOCK = 1 << 21


def column_measures(truth: Bool, scores: F64, weight: F64 | None = None) -> tuple[F64, F64, F64, F64]:
    """(average precision, ROC AUC, positives, negatives) of every column of (n, k) scores.

    The columns are taken in blocks of about :data:`BLOCK` cases; each block
    is sorted and cut into tie groups at once by :func:`group_ends` (a
    vectorised pass over the block's columns, not a loop over labels).
    Values as :func:`average_precision_columns` and :func:`roc_auc_columns`.
    """
    n, k = scores.shape
    if k == 1 and n > BLOCK and weight is None:
        keys = _label_keys(truth, scores)
        if keys is not None:
            return _long_column(keys[0])
    ap, auc = np.empty(k), np.empty(k)
    positives, negatives = np.empty(k), np.empty(k)
    step = max(1, BLOCK // max(n, 1))
    for lo in range(0, k, step):
        hi = min(k, lo + step)
        keys = None if weight is not None or n == 0 else _label_keys(truth[:, lo:hi], scores[:, lo:hi])
        if keys is not None:
            ap[lo:hi], auc[lo:hi], positives[lo:hi], negatives[lo:hi] = _key_block(keys)
            continue
        g = group_ends(truth[:, lo:hi], scores[:, lo:hi], weight)
        ap[lo:hi] = average_precision_columns(g, hi - lo)
        auc[lo:hi] = roc_auc_columns(g, hi - lo)
        positives[lo:hi], negatives[lo:hi] = g.positives, g.negatives
    return ap, auc, positives, negatives


def _long_column(keys: npt.NDArray[np.uint64]) -> tuple[F64, F64, F64, F64]:
    """:func:`column_measures` of one long unweighted column given as :func:`_label_keys` keys.

    One sort of all the keys, then segments of about :data:`BLOCK` cases
    cut at tie-group starts, from the highest scores down, each carrying
    the positives and cases above it: the temporaries stay block-sized.
    """
    keys.sort()
    m = keys.size
    ap_sum = area = 0.0
    tp_above = cases_above = 0
    hi = m
    while hi > 0:
        lo = max(0, hi - BLOCK)
        if lo > 0:  # move the cut down to the start of the tie group it falls in
            group_key = (keys[lo] >> _ONE) << _ONE  # the smallest key of that score
            lo = int(np.searchsorted(keys[:hi], group_key, "left"))
        seg = keys[lo:hi]
        ones = (seg & _ONE).astype(np.int64)
        values = seg >> _ONE
        starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
        incl = np.cumsum(ones)
        seg_pos = int(incl[-1])
        tp = tp_above + seg_pos - (incl[starts] - ones[starts])  # positives at or above each group
        above = cases_above + (seg.size - starts)
        fp = above - tp
        prev_tp = np.r_[tp[1:], tp_above]  # the next higher group (the one above the segment for the last)
        prev_fp = np.r_[fp[1:], cases_above - tp_above]
        ap_sum += float(np.sum((tp - prev_tp) * (tp / above)))
        area += float(np.sum((fp - prev_fp) * (tp + prev_tp).astype(np.float64)))
        tp_above += seg_pos
        cases_above += seg.size
        hi = lo
    positives, negatives = float(tp_above), float(m - tp_above)
    ap = ap_sum / positives if positives > 0 else 0.0
    denom = 2.0 * positives * negatives
    auc = area / denom if denom > 0 else np.nan
    return np.array([max(ap, 0.0)]), np.array([auc]), np.array([positives]), np.array([negatives])


def _key_block(keys: npt.NDArray[np.uint64]) -> tuple[F64, F64, F64, F64]:
    """:func:`column_measures` of a block of unweighted columns given as (kb, n) :func:`_label_keys` keys.

    The same sums as :func:`average_precision_columns` and
    :func:`roc_auc_columns` over :func:`group_ends`, fused so that the
    block's tie groups are visited once: per group the positives at or
    above it (tp), the cases at or above it, and the same for the next
    higher group; per column a ``reduceat`` over its (contiguous) groups.
    """
    keys.sort(axis=1)
    kb, n = keys.shape
    incl = keys & _ONE  # the labels in score order, then (in place) their running count
    keys >>= _ONE
    is_start = np.empty((kb, n), dtype=bool)
    np.not_equal(keys[:, 1:], keys[:, :-1], out=is_start[:, 1:])
    is_start[:, 0] = True
    del keys
    tied = is_start.size - int(np.count_nonzero(is_start))
    if tied * _FEW_TIES <= is_start.size:  # continuous scores (float32 ones too): work over the positives
        return _per_positive_block(incl.astype(bool), is_start if tied else None)
    np.cumsum(incl, axis=1, out=incl)
    positives = incl[:, -1].astype(np.float64)
    negatives = n - positives
    flat = np.flatnonzero(is_start)  # group starts, ascending within each column, column by column
    counts = is_start.sum(axis=1)
    del is_start
    first = np.zeros(kb, dtype=np.intp)
    np.cumsum(counts[:-1], out=first[1:])
    column = np.repeat(np.arange(kb), counts)
    below = incl.ravel()[flat - 1].astype(np.float64)  # positives below the group (the previous case's count)
    below[first] = 0.0  # a column's lowest group: nothing below (flat - 1 was the previous column's end)
    tp = positives[column] - below
    above = (n * (column + 1) - flat).astype(np.float64)  # cases at or above the group
    fp = above - tp
    prev_tp = np.empty_like(tp)
    prev_fp = np.empty_like(fp)
    prev_tp[:-1], prev_fp[:-1] = tp[1:], fp[1:]
    top = np.r_[first[1:] - 1, tp.size - 1]  # each column's highest group: nothing above it
    prev_tp[top] = 0.0
    prev_fp[top] = 0.0
    ap_sum = np.add.reduceat((tp - prev_tp) * (tp / above), first)
    area = np.add.reduceat((fp - prev_fp) * (tp + prev_tp), first)
    with np.errstate(divide="ignore", invalid="ignore"):
        ap = np.where(positives > 0, ap_sum / np.where(positives > 0, positives, 1.0), 0.0)
        denom = 2.0 * positives * negatives
        auc = np.where(denom > 0, area / np.where(denom > 0, denom, 1.0), np.nan)
    return np.maximum(ap, 0.0), auc, positives, negatives


#: :func:`_key_block` takes the per-positive path while at most one case in this many shares its
#: score with the case below it (its cost grows with the positives and the tied cases, the
#: tie-group path's with the groups, which are about every case then).
_FEW_TIES = 8


def _per_positive_block(labels: Bool, is_start: Bool | None = None) -> tuple[F64, F64, F64, F64]:
    """:func:`_key_block` over the positives alone, when no or few cases are tied.

    ``labels`` (kb, n) in ascending score order; ``is_start`` marks where
    each tie group starts (None: every case is its own group). A positive
    in the group of positions [g, e) of its column, with b positives below
    g and p positives in the group, has P - b positives and n - g cases at
    or above the group's end (its precision, as scikit-learn takes it at
    the end of the tie group), and wins g - b negatives below it plus one
    half of the e - g - p negatives tied with it: AP = (1 / P) Σ (P - b) /
    (n - g) and ROC AUC = Σ wins / (P N). Untied, g = j (its position),
    e = j + 1, p = 1 and b = r - 1 for the r-th positive from the bottom.
    The groups of more than one case are found from the tied positions
    alone, so the work is O(positives + tied cases) after the sort.
    """
    kb, n = labels.shape
    flat = np.flatnonzero(labels)  # the positives, column by column, ascending positions
    rows = flat // n
    counts = np.bincount(rows, minlength=kb)
    first = np.zeros(kb, dtype=np.intp)
    np.cumsum(counts[:-1], out=first[1:])
    below = np.arange(flat.size) - first[rows]  # b: positives below each (untied)
    start = flat - rows * n  # g: each positive's group start (untied: its position)
    wins = (start - below).astype(np.float64)
    tied = np.zeros(0, dtype=np.intp) if is_start is None else np.flatnonzero(~is_start.ravel())
    if is_start is not None and tied.size:
        # the cases of groups of more than one case: each tied case and the case before it
        members = np.union1d(tied - 1, tied)
        opens = is_start.ravel()[members]
        group = np.cumsum(opens) - 1  # each member's group, numbered in order
        group_start = members[opens]
        last = np.r_[np.flatnonzero(opens)[1:], members.size] - 1  # each group's last member
        size = (members[last] + 1 - group_start).astype(np.float64)
        member_pos = labels.ravel()[members]
        pos_in_group = np.bincount(group, weights=member_pos, minlength=group_start.size)
        at = np.searchsorted(flat, members[member_pos])  # these positives' places in ``flat``
        g_flat = group_start[group[member_pos]]
        g_row = g_flat // n
        below[at] = np.searchsorted(flat, g_flat) - first[g_row]
        start[at] = g_flat - g_row * n
        negatives_tied = size - pos_in_group
        wins[at] = (start[at] - below[at]) + 0.5 * negatives_tied[group[member_pos]]
    positives = counts.astype(np.float64)
    negatives = n - positives
    precision_sum = np.bincount(rows, weights=(counts[rows] - below) / (n - start), minlength=kb)
    wins_sum = np.bincount(rows, weights=wins, minlength=kb)
    with np.errstate(divide="ignore", invalid="ignore"):
        ap = np.where(positives > 0, precision_sum / np.where(positives > 0, positives, 1.0), 0.0)
        denom = positives * negatives
        auc = np.where(denom > 0, wins_sum / np.where(denom > 0, denom, 1.0), np.nan)
    return ap, auc, positives, negatives


def averaging_weights(average: str | None, truth: Bool, weight: F64 | None) -> F64 | None:
    """The weights scikit-learn's ``_average_binary_score`` averages label (or row) values with.

    "weighted": each label's positives (the sum of its positive rows'
    weights); "samples": the sample weights (None: equal); otherwise None
    (a plain mean). ``truth`` is the (n, k) indicator matrix.
    """
    if average == "weighted":
        return (truth.sum(axis=0) if weight is None else (truth * weight[:, None]).sum(axis=0)).astype(np.float64)
    if average == "samples":
        return weight
    return None


def no_positive_to_weigh(average: str | None, average_weight: F64 | None) -> bool:
    """True for "weighted" when no label has a positive: scikit-learn's average is then 0 and its
    per-label values are never computed (so they warn of nothing)."""
    # weights are >= 0, so they sum to 0 only when each is 0 (scikit-learn's np.isclose would
    # also take labels whose positives weigh 1e-9 in all for none)
    return average == "weighted" and average_weight is not None and not bool((average_weight > 0).any())


def average_label_values(values: F64, average: str | None, average_weight: F64 | None) -> F64 | float:
    """The last step of scikit-learn's ``_average_binary_score``: per-label (or per-row) values averaged.

    None: the values themselves. "weighted" with no positive anywhere: 0.0.
    Weights summing to 0 ("samples" with every weight 0): NaN, where
    scikit-learn divides by zero. No value at all ("samples" with no row):
    NaN, without numpy's warning. A value of weight 0 counts 0, so that a
    NaN there (a label without a positive) does not spread. Otherwise
    ``np.average(values, weights=average_weight)``.
    """
    if average is None:
        return values
    if no_positive_to_weigh(average, average_weight):
        return 0.0
    if average_weight is not None:
        if not (average_weight > 0).any():
            return float("nan")
        values = np.where(average_weight == 0, 0.0, values)
        # a power of two (exact) from the largest weight: their sum neither overflows nor underflows
        average_weight = average_weight * float(_scales(np.array([average_weight.max()]))[0])
    if values.size == 0:
        return float("nan")
    return float(np.average(values, weights=average_weight))

