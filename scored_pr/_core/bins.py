"""Bounded-memory summaries: binning, merging and certified bounds, as pure functions.

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

Which bins exist: every bin owns a dyadic *block* of order-preserving score
keys (see :func:`keys`), so that summaries built apart merge block by block
(:func:`merge_bins`); :func:`compress` merges adjacent bins, cheapest first
by :func:`merge_costs`, while there are more than the budget.

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
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from . import curves as C, points as P, scalars as M, thresholds as T
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
KeyArray = npt.NDArray[np.uint64]

_EPS = 2.0**-52
#: The smallest normal float64: a product below it has lost significant bits.
_TINY = 2.0**-1022



class Bins(NamedTuple):
    """The bins of a summary, in rank order (descending score); see the module docstring."""

    hi: FloatArray  #: highest score held by the bin
    lo: FloatArray  #: lowest score held by the bin
    pos: FloatArray  #: correct weight (count) in the bin
    neg: FloatArray  #: incorrect weight (count) in the bin
    level: IntArray  #: the bin's block is the 2**level keys that share the prefix of lo's key
    start: KeyArray  #: first key of the block (derived from lo and level)
    end: KeyArray  #: last key of the block


def make(hi: FloatArray, lo: FloatArray, pos: FloatArray, neg: FloatArray, level: IntArray) -> Bins:
    """Bins from their five defining arrays (the block keys are derived)."""
    m = _mask(level)
    start = keys(lo) & ~m
    return Bins(hi, lo, pos, neg, level, start, start | m)


class Triple(NamedTuple):
    """(lower, estimate, upper) of one measure, before the rounding margin."""

    lower: float
    estimate: float
    upper: float


def empty_bins() -> Bins:
    """The bins of an empty summary (shared, read-only arrays: every function returns new arrays)."""
    return _EMPTY


def _empty() -> Bins:
    z = np.zeros(0, dtype=np.float64)
    out = make(z, z, z, z, np.zeros(0, dtype=np.int64))
    for x in out:
        x.setflags(write=False)
    return out


def _before(x: FloatArray) -> FloatArray:
    """Sum of the entries strictly before each entry (0 for the first)."""
    out = np.zeros(x.size, dtype=np.float64)
    if x.size > 1:
        np.cumsum(x[:-1], out=out[1:])
    return out


def widen(t: Triple, terms: int, low: float = 0.0, high: float = 1.0, force: bool = False, relative: bool = False) -> Triple:
    """Move the bounds outward by the rounding margin, clamped to [low, high].

    The margin is 8 * (terms + 8) * 2**-52 relative, ``terms`` the number of
    rounded terms either computation sums (bins here, cases in the
    evaluator). A degenerate interval (lower == upper) is an exactly
    determined value, computed as the evaluator computes it, and is returned
    unchanged unless ``force`` (a weighted summary: its bin weights are sums
    the evaluator rounds differently, case by case). NaN stays NaN. The
    margin is relative to max(1, abs(bound)), or to abs(bound) alone when
    ``relative`` (a measure that is a sum of positive terms, such as the
    reciprocal rank, whose rounding scales with its value). The estimate is
    kept inside the widened interval.
    """
    if not t.lower < t.upper and not (force and math.isfinite(t.lower) and math.isfinite(t.upper)):
        return t
    margin = 8.0 * (terms + 8) * _EPS * max(0.0 if relative else 1.0, abs(t.lower), abs(t.upper))
    lower, upper = max(low, t.lower - margin), min(high, t.upper + margin)
    # the estimate's own rounding may put it an ulp past a clamped limit (a weighted AUC of
    # 1.0000000000000002): it is kept inside the interval it estimates
    estimate = t.estimate if math.isnan(t.estimate) else min(upper, max(lower, t.estimate))
    return Triple(lower, estimate, upper)


# ---------------------------------------------------------------------------
# Keys: scores as order-preserving 64-bit integers, and dyadic blocks of them
#
# Every bin owns a *block*: the 2**level consecutive keys that share the
# bin's key prefix (level 0: one score, an exact bin). Two blocks are either
# disjoint or nested, so summaries built apart (on different partitions, with
# different bins) merge by letting each block absorb the blocks inside it,
# never by chains of partly overlapping ranges. A case joins the bin whose
# block holds its key; lo and hi are the least and greatest score the bin
# actually holds (tighter than its block, for threshold queries).

_SIGN = np.uint64(1 << 63)
_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


def keys(x: FloatArray) -> KeyArray:
    """Order-preserving uint64 keys of float64 scores (no NaN; -0.0 must already be 0.0)."""
    bits = np.ascontiguousarray(x, dtype=np.float64).view(np.uint64)
    # negative scores: flip every bit; others: set the sign bit
    out = bits >> np.uint64(63)
    np.negative(out, out=out)  # 0 or all ones
    out |= _SIGN
    out ^= bits  # in place: one temporary for the whole key computation
    return out


def bit_length(x: KeyArray) -> IntArray:
    """Number of significant bits of each uint64 (0 for 0), exactly."""
    x = np.asarray(x, dtype=np.uint64)
    high = (x >> np.uint64(32)).astype(np.float64)  # < 2**32: exact in float64
    low = (x & np.uint64(0xFFFFFFFF)).astype(np.float64)
    eh = np.frexp(high)[1].astype(np.int64)
    el = np.frexp(low)[1].astype(np.int64)
    return np.where(high > 0, 32 + eh, el)


def _mask(level: IntArray) -> KeyArray:
    """2**level - 1 as uint64 (all ones for level 64)."""
    lv = np.minimum(level, 63).astype(np.uint64)
    m = (_ONE << lv) - _ONE
    return np.where(level >= 64, _ALL, m)


_EMPTY = _empty()


def blocks(b: Bins) -> tuple[KeyArray, KeyArray]:
    """First and last key of every bin's block."""
    return b.start, b.end


def exact_bins(vp: FloatArray, wp: FloatArray, vn: FloatArray, wn: FloatArray) -> Bins:
    """Exact bins (one per distinct score) from the ascending distinct scores of each class.

    The two sorted lists are merged by binary searches (no re-sort). O(n log n)
    comparisons on sorted keys.
    """
    at = np.searchsorted(vp, vn)
    shared = at < vp.size
    shared[shared] = vp[at[shared]] == vn[shared]
    neg_of_p = np.zeros(vp.size, dtype=np.float64)
    neg_of_p[at[shared]] = wn[shared]
    only_n, w_only = vn[~shared], wn[~shared]
    n = vp.size + only_n.size
    values: FloatArray = np.empty(n, dtype=np.float64)
    pos: FloatArray = np.zeros(n, dtype=np.float64)
    neg: FloatArray = np.empty(n, dtype=np.float64)
    ip = np.arange(vp.size) + np.searchsorted(only_n, vp)
    i_n = np.arange(only_n.size) + np.searchsorted(vp, only_n)
    values[ip], pos[ip], neg[ip] = vp, wp, neg_of_p
    values[i_n], neg[i_n] = only_n, w_only
    values, pos, neg = values[::-1], pos[::-1], neg[::-1]  # rank order
    k = keys(values)
    return Bins(values, values.copy(), pos, neg, np.zeros(n, dtype=np.int64), k, k.copy())


def groups_of_sorted(values: FloatArray, weight: FloatArray | None) -> tuple[FloatArray, FloatArray]:
    """Distinct values of an ascending array and the weight (count) of each."""
    if values.size == 0:
        return values, np.zeros(0, dtype=np.float64)
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    return values[starts], _segment_sums(weight, np.append(starts, values.size))


def _segment_sums(weight: FloatArray | None, bounds: npt.NDArray[np.intp]) -> FloatArray:
    """Sum of ``weight[bounds[i]:bounds[i + 1]]`` for every i (the count when weight is None)."""
    if weight is None:
        return np.diff(bounds).astype(np.float64)
    out = np.zeros(bounds.size - 1, dtype=np.float64)
    nonempty = np.flatnonzero(bounds[1:] > bounds[:-1])
    if nonempty.size:
        out[nonempty] = np.add.reduceat(weight, bounds[:-1][nonempty])
    return out


def _level_for(sample: KeyArray, target: int) -> int:
    """The least level at which the ascending sample's keys fall in at most ``target`` blocks."""
    return _level_for_parts(sample[1:] ^ sample[:-1], target)


def _level_for_parts(parts: KeyArray, target: int) -> int:
    """:func:`_level_for` from the xor of each adjacent pair of the ascending sample.

    Two adjacent keys fall in different blocks of level L exactly when their
    xor has a bit at L or above (``parts >> L`` is not 0), so the block count
    at level L is 1 + the number of such pairs.
    """
    low, high = 0, 63  # at level 63 there are two blocks at most
    while low < high:  # the block count only falls as the level rises: bisect
        mid = (low + high) // 2
        if np.count_nonzero(parts >> np.uint64(mid)) + 1 <= target:
            high = mid
        else:
            low = mid + 1
    return low


def block_bins(sp: FloatArray, wp: FloatArray | None, sn: FloatArray, wn: FloatArray | None, target: int, coarse_level: int | None = None) -> Bins:
    """Ascending scores of both classes grouped into about ``target`` blocks, in O(n).

    Two levels of blocks: a coarse level chosen on a strided sample so that
    the cases fill about target / 8 blocks, then each coarse block is cut at
    the finer level that splits it into about as many blocks as its share of
    the splitting mass (its cases, weighted by 1/W + g/(t + 1) at rank t, so
    that blocks are finer near the top of the ranking where precision-based
    bounds need them). Each block's bin shrinks to the smallest block holding
    its least and greatest score (level 0, an exact bin, for one score).
    """
    values = np.concatenate((sp, sn))
    order = np.argsort(values, kind="stable") if sp.size and sn.size else np.arange(values.size)
    values = values[order]
    is_pos = order < sp.size
    if wp is None and wn is None:
        weight = None
    else:
        weight = np.concatenate((np.ones(sp.size) if wp is None else wp, np.ones(sn.size) if wn is None else wn))[order]
    k = keys(values)
    n = k.size
    stride = max(1, n // (8 * target))
    coarse = np.uint64(_level_for(k[::stride], max(2, target // 8)) if coarse_level is None else coarse_level)
    ck = k >> coarse
    cstart = np.flatnonzero(np.concatenate(([True], ck[1:] != ck[:-1])))
    ccount = np.diff(np.append(cstart, n)).astype(np.float64)
    # splitting mass of each coarse block, ranks counted from the top (descending score)
    above = n - np.append(cstart[1:], n)  # cases above the block
    g = 1.0 / math.log(2.0 + target)
    mass = ccount / n + g * (np.log1p(above + ccount) - np.log1p(above))
    pieces = np.maximum(1.0, np.ceil(mass / (1.0 + g * math.log1p(n)) * target))
    drop = np.minimum(np.ceil(np.log2(pieces)).astype(np.int64), int(coarse))
    level = np.repeat(int(coarse) - drop, np.diff(np.append(cstart, n))).astype(np.uint64)
    fine = k >> level
    new = np.concatenate(([True], (fine[1:] != fine[:-1]) | (level[1:] != level[:-1])))
    starts = np.flatnonzero(new)
    bounds = np.append(starts, n)
    lo, hi = values[starts], values[bounds[1:] - 1]
    if weight is None:
        wpos = np.add.reduceat(is_pos.astype(np.float64), starts)
        wneg = np.diff(bounds).astype(np.float64) - wpos
    else:
        wpos = _segment_sums(np.where(is_pos, weight, 0.0), bounds)
        wneg = _segment_sums(np.where(is_pos, 0.0, weight), bounds)
    lv = bit_length(keys(lo) ^ keys(hi))
    return make(hi[::-1], lo[::-1], wpos[::-1], wneg[::-1], lv[::-1])


def _from_keys(k: KeyArray) -> FloatArray:
    """The float64 scores whose :func:`keys` are ``k`` (the inverse of :func:`keys`)."""
    flip = np.negative((k >> np.uint64(63)) ^ _ONE)  # sign bit clear (a negative score): all ones
    return (k ^ (flip | _SIGN)).view(np.float64)


#: Cases whose bin index is computed at a time by :func:`unsorted_block_bins`: the
#: temporaries of the chain of passes (8 bytes a case each) stay in the CPU's cache.
SUB_BLOCK = 1 << 16


def unsorted_block_bins(correct: BoolArray, scores: FloatArray, target: int, coarse_level: int | None = None) -> Bins | None:
    """:func:`block_bins` of an unsorted, unweighted batch (no NaN) without sorting it, or None.

    The same two-level blocks as :func:`block_bins`: with the same coarse
    level, the bins are the same, bit for bit (-0.0 is taken as 0.0). Only
    the coarse level is chosen on a sorted strided sample of the batch as it
    comes (a sort of about 8 * target keys) instead of on a strided sample of
    the sorted batch. Every case then costs one key, one shift, a
    bincount-like count per coarse block, one bin index (a shift and an
    offset looked up by coarse block) and three reductions by bin (the least
    and greatest key by ``np.minimum.at`` / ``np.maximum.at``, the counts of
    both classes by one ``np.bincount`` of 2 * bin + label). The index and
    the extremes are computed :data:`SUB_BLOCK` cases at a time, so that
    the temporaries stay in cache. O(n + B) with no sort of the batch.

    Returns None, for :func:`add_sorted` to bin the batch instead, when the
    sample has at most 16 * target / 4 distinct scores (the batch might then
    be binned exactly) or the coarse blocks between the least and greatest
    key are too many to count in an array (scores spread over many binades
    with outliers).
    """
    n = scores.size
    if n == 0:
        return None
    scores = np.ascontiguousarray(scores, dtype=np.float64)
    least, greatest = scores.min(), scores.max()
    stride = max(1, n // (8 * target))
    sample = np.sort(keys(scores[::stride] + 0.0))  # + 0.0: -0.0 ties with 0.0
    parts = sample[1:] ^ sample[:-1]  # nonzero where adjacent sampled keys differ
    # add_sorted bins a batch exactly while it has at most 16 * max_bins = 4 * target
    # distinct scores: only a sample with more than that proves the batch has more.
    if np.count_nonzero(parts) + 1 <= 4 * target:
        return None
    coarse = _level_for_parts(parts, max(2, target // 8)) if coarse_level is None else coarse_level
    ends = keys(np.array([least, greatest]) + 0.0)  # keys are monotone: the least and greatest key
    c64 = np.uint64(coarse)
    base, top = ends >> c64
    span = int(top - base) + 1
    if span > 64 * target:
        return None
    if least > 0.0:  # every score positive: its key is its bits with the sign bit set, in one pass
        k = scores.view(np.uint64) | _SIGN
    else:
        k = keys(scores + 0.0)
    cid = k >> c64
    cid -= base
    cid = cid.view(np.int64)  # coarse slot of every case, < span
    ccount = np.bincount(cid, minlength=span).astype(np.float64)
    # the splitting mass of block_bins, over every coarse slot (empty slots get no bins)
    above = n - np.cumsum(ccount)  # cases in higher blocks
    g = 1.0 / math.log(2.0 + target)
    mass = ccount / n + g * (np.log1p(above + ccount) - np.log1p(above))
    pieces = np.maximum(1.0, np.ceil(mass / (1.0 + g * math.log1p(n)) * target))
    drop = np.minimum(np.ceil(np.log2(pieces)).astype(np.int64), coarse)
    drop[ccount == 0] = 0
    width = np.left_shift(1, drop)  # fine blocks per coarse slot
    offset = np.concatenate(([0], np.cumsum(width)[:-1]))
    # A case's fine block is k >> (coarse - drop); the first fine block of coarse slot j
    # is (base + j) << drop, so its bin is k >> shift[j] + adjust[j] (uint64, modulo 2**64).
    shift = (coarse - drop).astype(np.uint64)
    adjust = offset.astype(np.uint64) - ((np.arange(span, dtype=np.uint64) + base) << drop.astype(np.uint64))
    slots = int(offset[-1] + width[-1])
    lo_all: KeyArray = np.full(slots, _ALL, dtype=np.uint64)
    hi_all: KeyArray = np.zeros(slots, dtype=np.uint64)
    idx = cid.view(np.uint64)  # each case's index overwrites its coarse slot, block by block
    for i in range(0, n, SUB_BLOCK):
        slot = cid[i : i + SUB_BLOCK]
        kb = k[i : i + SUB_BLOCK]
        j = kb >> shift[slot]
        j += adjust[slot]  # the bin, ascending with the key
        np.minimum.at(lo_all, j.view(np.int64), kb)  # the bin's least and greatest key, while j is in cache
        np.maximum.at(hi_all, j.view(np.int64), kb)
        j <<= _ONE
        j += correct[i : i + SUB_BLOCK]  # 2 * bin + label: the counts of both classes in one bincount
        idx[i : i + SUB_BLOCK] = j
    both = np.bincount(cid, minlength=2 * slots)
    wneg, wpos = both[0::2], both[1::2]
    used = np.flatnonzero(wneg + wpos)
    lo_k: KeyArray = lo_all[used]
    hi_k: KeyArray = hi_all[used]
    lo, hi = _from_keys(lo_k), _from_keys(hi_k)
    lv = bit_length(lo_k ^ hi_k)
    return make(hi[::-1], lo[::-1], wpos[used][::-1].astype(np.float64), wneg[used][::-1].astype(np.float64), lv[::-1])


def _split(values: FloatArray, weight: FloatArray | None, start_asc: KeyArray, end_asc: KeyArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray | None]:
    """Weight, least and greatest value of an ascending array inside each (ascending) block, and the rest.

    Returns (weight per block, least value per block (inf if none), greatest
    (-inf if none), values in no block, their weights or None). O(B log n)
    searches of the block edges in the sorted keys, plus O(n) when some
    values fall inside blocks and others do not.
    """
    k = keys(values)
    start = np.searchsorted(k, start_asc, side="left")
    end = np.searchsorted(k, end_asc, side="right")
    inside_n = end - start
    has = inside_n > 0
    first = np.where(has, values[np.minimum(start, max(values.size - 1, 0))] if values.size else np.inf, np.inf)
    last = np.where(has, values[np.maximum(end - 1, 0)] if values.size else -np.inf, -np.inf)
    n_in = int(inside_n.sum())
    if n_in == 0:
        return np.zeros(start_asc.size, dtype=np.float64), first, last, values, weight
    if n_in == values.size:
        inside: BoolArray = np.ones(values.size, dtype=bool)
    else:
        marks = np.zeros(values.size + 1, dtype=np.int64)
        np.add.at(marks, start, 1)
        np.add.at(marks, end, -1)
        inside = np.cumsum(marks[:-1]) > 0
    per_bin: FloatArray
    if weight is None:
        per_bin = inside_n.astype(np.float64)
    else:
        labels = np.repeat(np.arange(start_asc.size), inside_n)  # inside values follow the blocks in order
        per_bin = np.bincount(labels, weights=weight[inside], minlength=start_asc.size).astype(np.float64)
    if n_in == values.size:
        return per_bin, first, last, values[:0], None if weight is None else weight[:0]
    outside = ~inside
    return per_bin, first, last, values[outside], None if weight is None else weight[outside]


def _distinct(x: FloatArray) -> int:
    return int(np.count_nonzero(x[1:] != x[:-1])) + 1 if x.size else 0


def add_sorted(
    bins: Bins, sp: FloatArray, wp: FloatArray | None, sn: FloatArray, wn: FloatArray | None, max_bins: int
) -> Bins:
    """Add ascending correct scores ``sp`` and incorrect scores ``sn`` (weights or None) to ``bins``.

    A case whose key falls in an existing bin's block joins that bin. The
    others become exact bins of their own while they have at most
    16 * max_bins distinct scores (so a batch is binned exactly whenever it
    could be); beyond that :func:`block_bins` groups them into about
    4 * max_bins bins. Nothing is merged down to the budget here (see
    :func:`compress`).
    """
    start, end = blocks(bins)
    start_asc, end_asc = start[::-1], end[::-1]
    add_p, fp, lp, rest_p, rest_wp = _split(sp, wp, start_asc, end_asc)
    add_n, fn, ln, rest_n, rest_wn = _split(sn, wn, start_asc, end_asc)
    lo = np.minimum(bins.lo, np.minimum(fp, fn)[::-1])
    hi = np.maximum(bins.hi, np.maximum(lp, ln)[::-1])
    old = Bins(hi, lo, bins.pos + add_p[::-1], bins.neg + add_n[::-1], bins.level, bins.start, bins.end)
    if rest_p.size == 0 and rest_n.size == 0:
        return old
    if _distinct(rest_p) + _distinct(rest_n) <= 16 * max_bins:
        vp, cp = groups_of_sorted(rest_p, rest_wp)
        vn, cn = groups_of_sorted(rest_n, rest_wn)
        return interleave(old, exact_bins(vp, cp, vn, cn))  # new scores lie outside every block
    # New blocks may hold old ones (never straddle them): let the larger absorb the smaller.
    return merge_bins(old, block_bins(rest_p, rest_wp, rest_n, rest_wn, 4 * max_bins))


def interleave(a: Bins, b: Bins) -> Bins:
    """Two lists of bins whose blocks do not overlap, merged into rank order."""
    if a.hi.size == 0:
        return b
    if b.hi.size == 0:
        return a
    # Position of every bin in the merged descending order: its own index plus
    # the number of bins of the other list ranked above it.
    pa = np.arange(a.hi.size) + np.searchsorted(-b.hi, -a.hi, side="left")
    pb = np.arange(b.hi.size) + np.searchsorted(-a.hi, -b.hi, side="left")
    n = a.hi.size + b.hi.size
    out: list[Any] = [np.empty(n, dtype=x.dtype) for x in a]
    for dst, xa, xb in zip(out, a, b):
        dst[pa] = xa
        dst[pb] = xb
    return Bins(*out)


def merge_bins(a: Bins, b: Bins) -> Bins:
    """The bins of two summaries (each in rank order, its blocks disjoint) as one summary's bins.

    Blocks are nested or disjoint, so every group of overlapping blocks is
    one block and the blocks inside it: they merge into one bin with the
    outer block, the least lo and the greatest hi (two exact bins of the same
    score become one exact bin). The two lists are interleaved by binary
    searches (by descending block end, the outer block first on a tie), not
    re-sorted. O(B log B).
    """
    if a.hi.size == 0:
        return b
    if b.hi.size == 0:
        return a
    na, nb = ~a.end, ~b.end  # ascending
    # Bins of the other list placed before each bin: a greater block end, or the
    # same end and a larger block (a's bin first when the blocks are the same).
    la = np.searchsorted(nb, na, side="left")
    at = np.minimum(la, nb.size - 1)
    pa = np.arange(na.size) + la + ((nb[at] == na) & (b.level[at] > a.level))
    n = na.size + nb.size
    slot_b = np.ones(n, dtype=bool)
    slot_b[pa] = False  # b's bins keep their order in the remaining slots
    perm = np.empty(n, dtype=np.intp)
    perm[pa] = np.arange(na.size)
    perm[np.flatnonzero(slot_b)] = np.arange(na.size, n)  # by index: a boolean mask assignment is slower
    merged = Bins._make(np.concatenate((xa, xb))[perm] for xa, xb in zip(a, b))
    # A bin opens a new group unless its block ends inside a block before it (then it is nested).
    reach = np.minimum.accumulate(merged.start)
    first = np.concatenate(([True], merged.end[1:] < reach[:-1]))
    if first.all():
        return merged
    return _reduce_groups(merged, first)


def _reduce_groups(b: Bins, first: BoolArray) -> Bins:
    """Merge each run of nested bins that starts at a ``first`` bin (its outer block)."""
    idx = np.flatnonzero(first)
    rest = np.flatnonzero(~first)
    # the group of the r-th nested bin (at position q): q - r group openers precede it
    g = rest - np.arange(1, rest.size + 1)
    hi, lo, pos, neg = (x[idx] for x in b[:4])
    np.maximum.at(hi, g, b.hi[rest])
    np.minimum.at(lo, g, b.lo[rest])
    np.add.at(pos, g, b.pos[rest])  # in rank order, like a loop
    np.add.at(neg, g, b.neg[rest])
    # the first bin of a group has the outer block: its level and keys are the group's
    level, start, end = b.level[idx], b.start[idx], b.end[idx]
    return Bins(hi, lo, pos, neg, level, start, end)


# ---------------------------------------------------------------------------
# Choosing merges


def _log1p_ratio(p: FloatArray, a: FloatArray) -> FloatArray:
    """ln(1 + p / a) for weights p >= 0, a > 0, also where p / a overflows (as ln p - ln a)."""
    with np.errstate(over="ignore", under="ignore"):
        x = p / a
    out = np.log1p(x)
    big = np.isinf(x)
    if big.any():
        out[big] = np.log(p[big]) - np.log(a[big])
    return out


def _ap_width(pos: FloatArray, neg: FloatArray, c: FloatArray, t: FloatArray) -> FloatArray:
    """Upper minus (continuous) lower AP contribution of range bins, times num_positive_ref."""
    with np.errstate(divide="ignore", invalid="ignore"):
        upper = np.where(pos > 0, pos * (c + pos) / (t + pos), 0.0)
        a = t + neg
        lower = np.where(a > 0, pos - (a - c) * _log1p_ratio(pos, np.where(a > 0, a, 1.0)), pos)
    return np.maximum(upper - lower, 0.0)


def merge_costs(b: Bins, pos_ref: float, neg_ref: float, total: float, budget: int, pairs: IntArray | None = None) -> FloatArray:
    """Cost of merging each adjacent pair (i, i + 1): how much the bounds widen.

    The sum of the increase in ROC AUC bound width, (P_i N_j + P_j N_i) / (R Q)
    plus the within-bin terms of exact bins that stop being exact, and the
    increase in average precision bound width (divided by R), plus a small
    term proportional to the merged weight so that, among free merges (e.g.
    two bins holding only negatives), small bins merge first.

    ``pairs``: the indices i of the pairs to cost (ascending), or None for
    every pair; each cost is the same float either way.
    """
    pos, neg = b.pos, b.neg
    c, f = _before(pos), _before(neg)
    t = c + f
    i = np.arange(pos.size - 1) if pairs is None else pairs
    j = i + 1
    # products of weights, scaled by powers of two (exact) so that none overflows:
    # the AUC terms per side (positive by R's scale, negative by Q's), the AP
    # terms, which mix both, by the scale of the total
    sp, sn, st = P.side_scale(pos_ref), P.side_scale(neg_ref), P.side_scale(total)
    rq = (pos_ref * sp) * (neg_ref * sn) if pos_ref > 0 and neg_ref > 0 else 1.0
    r = pos_ref * st if pos_ref * st > 0 else 1.0
    pi, ni, pj, nj, ci, ti = pos[i], neg[i], pos[j], neg[j], c[i], t[i]
    exact_i, exact_j = b.lo[i] == b.hi[i], b.lo[j] == b.hi[j]
    with np.errstate(under="ignore"):
        own_auc_i = np.where(exact_i, 0.0, (pi * sp) * (ni * sn))
        own_auc_j = np.where(exact_j, 0.0, (pj * sp) * (nj * sn))
        own_ap_i = np.where(exact_i, 0.0, _ap_width(pi * st, ni * st, ci * st, ti * st))
        own_ap_j = np.where(exact_j, 0.0, _ap_width(pj * st, nj * st, c[j] * st, t[j] * st))
        mp, mn = pi + pj, ni + nj
        auc = ((mp * sp) * (mn * sn) - own_auc_i - own_auc_j) / rq
        ap = (_ap_width(mp * st, mn * st, ci * st, ti * st) - own_ap_i - own_ap_j) / r
    size = (mp + mn) / (total if total > 0 else 1.0) * (1e-3 / budget)
    return np.maximum(auc, 0.0) + np.maximum(ap, 0.0) + size


def compress(b: Bins, max_bins: int, pos_ref: float, neg_ref: float) -> Bins:
    """Merge adjacent bins until at most ``max_bins`` remain, widening the bounds least.

    Two adjacent bins merge into the smallest block holding both. That block
    holds no other bin exactly when the pair is a *minimal node*: the level
    at which the two bins' keys part is lower than that of each neighbouring
    pair. Each round ranks the minimal nodes by :func:`merge_costs` and
    merges the cheaper half of them (at most the number of merges still
    needed); merging creates new minimal nodes for the next round. Every
    round is O(B) numpy work: the costs of the minimal nodes only, and one
    compaction of each array (and of the pairs' levels, computed once: a
    merge leaves its neighbouring pairs' levels as they were).
    """
    total = float(b.pos.sum() + b.neg.sum())
    if b.hi.size <= max_bins:
        return b
    part = bit_length(b.start[:-1] ^ b.start[1:])  # level of the smallest block holding bins i and i + 1
    while b.hi.size > max_bins:
        n = b.hi.size
        below_left = np.ones(n - 1, dtype=bool)  # pair i parts lower than pair i - 1 (the first: no left pair)
        np.less(part[1:], part[:-1], out=below_left[1:])
        below_right = np.ones(n - 1, dtype=bool)  # ... than pair i + 1 (the last: no right pair)
        np.less(part[:-1], part[1:], out=below_right[:-1])
        below_left &= below_right
        cand = np.flatnonzero(below_left)  # minimal nodes, never adjacent
        k = min(n - max_bins, max(1, (cand.size + 1) // 2))
        if k < cand.size:
            cost = merge_costs(b, pos_ref, neg_ref, total, max_bins, cand)
            cand = np.sort(cand[np.argpartition(cost, k - 1)[:k]])
        gone = cand + 1
        keep = np.ones(n, dtype=bool)
        keep[gone] = False
        at = cand - np.arange(cand.size)  # where each merged pair lands once its second bin is gone
        hi, lo, pos, neg = (np.compress(keep, x) for x in b[:4])
        level, start, end = np.compress(keep, b.level), np.compress(keep, b.start), np.compress(keep, b.end)
        merged = part[cand]
        mask = _mask(merged)
        level[at] = merged
        start[at] &= ~mask
        end[at] = start[at] | mask
        lo[at] = b.lo[gone]
        pos[at] += b.pos[gone]
        neg[at] += b.neg[gone]
        b = Bins(hi, lo, pos, neg, level, start, end)
        # A minimal node parts below both neighbours, so its merged block keeps every bit at
        # which a neighbour parts: the neighbouring pairs' levels stay, the merged pairs' go.
        part = np.compress(keep[1:], part)
    return b


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
