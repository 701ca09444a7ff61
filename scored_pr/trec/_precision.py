"""trec_eval's ranked binary measures: map, gm_map, Rprec, recip_rank, P, recall, relative_P,
success, map_cut, iprec_at_recall, 11pt_avg and Rprec_mult.

Each function takes one query's :class:`~scored_pr.trec._ranking.RankedRels`
and returns its value(s) exactly as trec_eval 10 computes them: a document is
relevant when its grade is at least the relevance level, ranks beyond the
documents retrieved count as non-relevant, and the value is 0 (not NaN) where
the definition has nothing to divide by. Sums run left to right in rank order,
as trec_eval's loops do, so that the printed digits agree.

Notation: R = ``num_rel``, n = ``num_ret``, TP(k) = relevant documents in
the top min(k, n) ranks, P(k) = TP(k) / k.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ._cnum import lround, seq_sum, trunc_long
from ._ranking import RankedRels

#: trec_eval's floor for a per-query value before its logarithm (``MIN_GEO_MEAN``).
MIN_GEO_MEAN = 0.00001


def _tp(r: RankedRels) -> np.ndarray:
    """tp[i] = TP(i + 1), int64."""
    return np.cumsum(r.relevant, dtype=np.int64)


def _tp_at(tp: np.ndarray, k: int) -> int:
    m = min(k, tp.size)
    return int(tp[m - 1]) if m > 0 else 0


def _ap_terms(r: RankedRels) -> np.ndarray:
    """P(i) at each rank i (float64), 0.0 where the document is not relevant."""
    rel = r.relevant
    ranks = np.arange(1, rel.size + 1, dtype=np.float64)
    return np.where(rel, _tp(r) / ranks, 0.0)


def average_precision(r: RankedRels) -> float:
    """``map`` per query: (1/R) Σ P(i) over the ranks i of relevant documents; 0 if none is retrieved."""
    rel = r.relevant
    if not rel.any():
        return 0.0
    return seq_sum(_ap_terms(r)[rel].tolist()) / r.num_rel


def log_average_precision(r: RankedRels) -> float:
    """``gm_map`` per query: log(max(AP, 0.00001)); the mean over queries is exp of the mean of these."""
    return math.log(max(average_precision(r), MIN_GEO_MEAN))


def r_precision(r: RankedRels) -> float:
    """``Rprec``: TP(R) / R; 0 when R = 0 or nothing was retrieved."""
    if min(r.num_ret, r.num_rel) == 0:
        return 0.0
    return _tp_at(_tp(r), r.num_rel) / r.num_rel


def reciprocal_rank(r: RankedRels) -> float:
    """``recip_rank``: 1 / rank of the first relevant document; 0 if none is retrieved."""
    hits = np.flatnonzero(r.relevant)
    return 1.0 / float(hits[0] + 1) if hits.size else 0.0


def precision_at(r: RankedRels, cutoffs: Sequence[int]) -> list[float]:
    """``P_k``: TP(k) / k, missing ranks counted as non-relevant."""
    tp = _tp(r)
    return [_tp_at(tp, k) / k for k in cutoffs]


def recall_at(r: RankedRels, cutoffs: Sequence[int]) -> list[float]:
    """``recall_k``: TP(k) / R; 0 when R = 0."""
    if r.num_rel == 0:
        return [0.0] * len(cutoffs)
    tp = _tp(r)
    return [_tp_at(tp, k) / r.num_rel for k in cutoffs]


def relative_precision_at(r: RankedRels, cutoffs: Sequence[int]) -> list[float]:
    """``relative_P_k``: TP(k) / min(k, R), the precision reachable at k; 0 when R = 0."""
    if r.num_rel == 0:
        return [0.0] * len(cutoffs)
    tp = _tp(r)
    return [_tp_at(tp, k) / min(k, r.num_rel) for k in cutoffs]


def success_at(r: RankedRels, cutoffs: Sequence[int]) -> list[float]:
    """``success_k``: 1 if a relevant document is in the top k, else 0."""
    tp = _tp(r)
    return [1.0 if _tp_at(tp, k) else 0.0 for k in cutoffs]


def average_precision_cut(r: RankedRels, cutoffs: Sequence[int]) -> list[float]:
    """``map_cut_k``: (1/R) Σ P(i) over relevant ranks i <= k (divided by R, not min(k, R)); 0 when R = 0."""
    if r.num_rel == 0:
        return [0.0] * len(cutoffs)
    running = np.cumsum(_ap_terms(r))  # left-to-right, as trec_eval's loop adds
    out = []
    for k in cutoffs:
        m = min(k, running.size)
        out.append((float(running[m - 1]) if m > 0 else 0.0) / r.num_rel)
    return out


def _interpolated(r: RankedRels, counts: Sequence[int]) -> list[float]:
    """Interpolated precision when ``c`` relevant documents have been retrieved, for each c in ``counts``.

    max P(j) over j >= the rank of the c-th relevant document; 0 for c > the
    relevant documents retrieved; for c <= 0 the maximum over every rank (NaN,
    as trec_eval's 0/0, when nothing was retrieved).
    """
    n, hits = r.num_ret, np.flatnonzero(r.relevant)
    if n == 0:
        nan = -math.nan  # trec_eval divides 0 by 0; glibc prints the x86 result as "-nan"
        return [nan if c <= 0 else 0.0 for c in counts]
    prec = _tp(r) / np.arange(1, n + 1, dtype=np.float64)
    suffix_max = np.maximum.accumulate(prec[::-1])[::-1]
    out = []
    for c in counts:
        if c > hits.size:
            out.append(0.0)
        elif c <= 0:
            out.append(float(suffix_max[hits[0]]) if hits.size else float(prec[-1]))
        else:
            out.append(float(suffix_max[hits[c - 1]]))
    return out


def _recall_walk(r: RankedRels, counts: Sequence[int]) -> list[float]:
    """trec_eval 10's walk of m_iprec_at_recall.c and m_11pt_avg.c: a value per count of relevant documents.

    Counts above num_rel_ret get 0. Walking up from the last retrieved
    document with ``int_prec`` the best precision P(j) so far (starting at
    num_rel_ret / num_ret), the count in hand (taken from the last) gets
    ``int_prec`` when the c-th relevant document is reached; a count the walk
    has passed or cannot reach (c <= 0, LONG_MIN from a level of 1e308 or
    NaN) stops the crediting, and it and every count before it get the final
    ``int_prec``: the best precision from the first relevant document on. For
    counts in increasing order this is each count's interpolated precision.
    An empty ranking divides 0 by 0: NaN (glibc prints the x86 result "-nan").
    """
    values = [0.0] * len(counts)
    num_ret, num_rel_ret = r.num_ret, r.num_rel_ret
    cut = len(counts) - 1
    while cut >= 0 and counts[cut] > num_rel_ret:  # never reached
        cut -= 1
    if num_ret == 0:
        final = -math.nan  # trec_eval divides 0 by 0; glibc prints the x86 result as "-nan"
    else:
        hits = np.flatnonzero(r.relevant)
        prec = _tp(r) / np.arange(1, num_ret + 1, dtype=np.float64)
        # int_prec when rank i + 1 is reached walking up: max(P(num_ret), max P(j) over j >= i + 1)
        suffix_max = np.maximum.accumulate(prec[::-1])[::-1]
        final = float(suffix_max[hits[0]]) if hits.size else float(prec[-1])
        # The walk meets the relevant documents in decreasing order c = num_rel_ret .. 1 and credits
        # counts[cut] only when it equals the c in hand.
        reached = num_rel_ret
        while cut >= 0 and 1 <= counts[cut] <= reached:
            reached = counts[cut]
            values[cut] = float(suffix_max[hits[reached - 1]])
            cut -= 1
    for i in range(cut + 1):
        values[i] = final
    return values


def interpolated_precision_at_recall(r: RankedRels, levels: Sequence[float]) -> list[float]:
    """``iprec_at_recall_x``: interpolated precision once lround(x * R) relevant documents are retrieved.

    max P(j) over ranks j from the lround(x * R)-th relevant document on; 0
    when that many are not retrieved; for a count of 0 the best precision
    from the first relevant document on. trec_eval 10 rounds with ``lround``;
    trec_eval 9 used ``(long)(x * R + 0.9)`` (see
    :func:`interpolated_precision_at_recall_v9`). Levels are those ``-m``
    sorted; a level whose count C cannot hold (1e308, inf, NaN) ends the
    walk as in trec_eval (:func:`_recall_walk`). Ties: trec_eval's ranking
    (score descending, docno descending). Nothing retrieved: -nan (0/0) at
    counts <= 0, else 0; no relevant document (R = 0): every count is 0 and
    the value is 0.
    """
    return _recall_walk(r, [lround(x * r.num_rel) for x in levels])


def interpolated_precision_at_recall_v9(r: RankedRels, levels: Sequence[float]) -> list[float]:
    """trec_eval 9's ``iprec_at_recall``: the count is ``(long)(x * R + 0.9)`` (pytrec_eval computes this)."""
    return _interpolated(r, [trunc_long(x * r.num_rel + 0.9) for x in levels])


def eleven_point_average(r: RankedRels, levels: Sequence[float]) -> float:
    """``11pt_avg``: interpolated precision averaged over the recall ``levels``, as trec_eval 10 computes it.

    Formula: each level x becomes a count of relevant documents c = lround(x * R)
    (trec_eval 10's ``m_11pt_avg.c``, like ``iprec_at_recall``; trec_eval 9
    used ``(long)(x * R + 0.9)``). Walking the ranking from the last retrieved
    document up, with ``int_prec`` the best precision P(j) seen so far
    (starting at num_rel_ret / num_ret), the level in hand is credited
    ``int_prec`` when the c-th relevant document is reached; levels with
    c > num_rel_ret get 0 and the levels never reached (c <= 0, or out of
    order) get the final ``int_prec``. The sum, in the order credited, is
    divided by the number of levels.

    For levels in increasing order (the default 0.0, 0.1, ..., 1.0) this is
    the mean of ``iprec_at_recall`` at the same levels. The levels are taken
    as given, not sorted; with levels out of increasing order the walk
    credits them as trec_eval's loop does (a level can take the final value
    although its count is reached). Ties: the ranking is trec_eval's (score
    descending, docno descending). Empty ranking: 0/0, printed ``-nan`` as
    glibc prints it, for the levels with c <= 0; a query with R = 0: every
    count is 0, the value is num_rel_ret / num_ret = 0.
    """
    values = _recall_walk(r, [lround(x * r.num_rel) for x in levels])
    # trec_eval adds the credited values in the order credited: from the last level to the first
    return seq_sum(reversed(values)) / len(levels)


def precision_at_r_multiple(r: RankedRels, multiples: Sequence[float]) -> list[float]:
    """``Rprec_mult_x``: P(c) at c = (long)(x * R + 0.9) documents; 0 when c <= 0.

    trec_eval's m_Rprec_mult.c, step for step: counts beyond the ranking get
    num_rel_ret / c; then, walking up from the last retrieved document while
    relevant documents remain, the value P(i) is given to the count in hand
    when i equals it. Levels arrive sorted (``-m`` sorts them), so for sane
    levels this is P(c) for every c; a count the walk never meets (c <= 0,
    or a level of 1e308 or NaN, which C's conversion turns into LONG_MIN)
    keeps 0, and so does every count below it. An empty ranking gives 0.
    Ties: trec_eval's ranking (score descending, docno descending).
    """
    counts = [trunc_long(x * r.num_rel + 0.9) for x in multiples]
    values = [0.0] * len(counts)
    n, num_rel_ret = r.num_ret, r.num_rel_ret
    cut = len(counts) - 1
    while cut >= 0 and counts[cut] > n:
        values[cut] = num_rel_ret / counts[cut]
        cut -= 1
    if n == 0 or num_rel_ret == 0:
        return values
    tp = _tp(r)
    hits = np.flatnonzero(r.relevant)
    # The walk goes down i = n .. first relevant rank (hits[0] + 1), where rel_so_far reaches 0;
    # it meets counts[cut] when i == counts[cut], so a count outside that range stops it for good.
    lowest = int(hits[0]) + 1
    reached = n
    while cut >= 0 and lowest <= counts[cut] <= reached:
        c = counts[cut]
        values[cut] = int(tp[c - 1]) / c
        reached = c
        cut -= 1
    return values
