"""Bounded-memory summaries: the bins, adding cases to them, merging them, choosing merges (pure functions).

A summary is a list of *bins* in rank order (descending score). Bin ``b``
covers the closed score range ``[lo[b], hi[b]]`` and holds ``pos[b]`` and
``neg[b]``, the weight (the count, without sample weights) of the correct and
incorrect cases scored in that range. Ranges never overlap:
``hi[0] >= lo[0] > hi[1] >= lo[1] > ...``. A bin with ``lo == hi`` holds one
distinct score and is exactly one tie group of the grouped policy; a bin with
``lo < hi`` (a *range* bin) holds an unknown number of tie groups in an
unknown order.

Which bins exist: every bin owns a dyadic *block* of order-preserving score
keys (see :func:`keys`), so that summaries built apart merge block by block
(:func:`merge_bins`); :func:`compress` merges adjacent bins, cheapest first
by :func:`merge_costs`, while there are more than the budget. The bounds of
every measure over the bins are in :mod:`scored_pr._core.bins`, which
re-exports this module's names.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from . import points as P

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
#: temporaries of the chain of passes (8 bytes a case each) stay in the CPU's cache (16,384 measured
#: about 10 % faster than 65,536 for 1,000,000 probabilities, with the same bins).
SUB_BLOCK = 1 << 14


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


def _edges(start_asc: KeyArray, end_asc: KeyArray) -> KeyArray:
    """The ascending edges of disjoint ascending blocks: each block's first key, then its last key + 1.

    A last key of all ones (past every score's key) is kept: it never wraps to 0.
    """
    edges: KeyArray = np.empty(2 * start_asc.size, dtype=np.uint64)
    edges[0::2] = start_asc
    edges[1::2] = np.where(end_asc == _ALL, _ALL, end_asc + _ONE)
    return edges


def _split(values: FloatArray, weight: FloatArray | None, edges: KeyArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray | None]:
    """Weight, least and greatest value of an ascending array inside each (ascending) block, and the rest.

    Returns (weight per block, least value per block (inf if none), greatest
    (-inf if none), values in no block, their weights or None), given the
    blocks' :func:`_edges`. One binary
    search of the sorted keys among the 2B block edges (the blocks are
    disjoint: a key lies inside block i exactly when 2i + 1 edges are at or
    below it) and one count per edge interval, O(n log B): a flush of a few
    thousand cases into thousands of bins searches each case once instead of
    each block edge twice.
    """
    k = keys(values)
    nb = edges.size // 2
    at = np.searchsorted(edges, k, side="right")  # edges at or below each key, ascending
    below = np.cumsum(np.bincount(at, minlength=2 * nb + 1))  # keys with at most j edges below them
    start = below[0 : 2 * nb : 2]  # keys below each block's start
    end = below[1 : 2 * nb : 2]  # keys at or below each block's end
    inside_n = end - start
    has = inside_n > 0
    first = np.where(has, values[np.minimum(start, max(values.size - 1, 0))] if values.size else np.inf, np.inf)
    last = np.where(has, values[np.maximum(end - 1, 0)] if values.size else -np.inf, -np.inf)
    n_in = int(inside_n.sum())
    if n_in == 0:
        return np.zeros(nb, dtype=np.float64), first, last, values, weight
    inside: BoolArray = (at & 1).astype(bool)  # odd: past a block's start, not past its end
    per_bin: FloatArray
    if weight is None:
        per_bin = inside_n.astype(np.float64)
    else:
        labels = np.repeat(np.arange(nb), inside_n)  # inside values follow the blocks in order
        per_bin = np.bincount(labels, weights=weight[inside], minlength=nb).astype(np.float64)
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
    edges = _edges(start[::-1], end[::-1])
    add_p, fp, lp, rest_p, rest_wp = _split(sp, wp, edges)
    add_n, fn, ln, rest_n, rest_wn = _split(sn, wn, edges)
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


def _own_widths(
    b: Bins, i: IntArray, p: FloatArray, n: FloatArray, c: FloatArray, t: FloatArray, sp: float, sn: float, st: float
) -> tuple[FloatArray, FloatArray]:
    """The scaled ROC and AP bound widths bins ``i`` already have (0 for an exact bin).

    Computed for the range bins only: the bins of a fresh batch are exact, and the AP width
    (a log per bin) is most of a cost's work. Each width is the same float as over every bin.
    """
    auc: FloatArray = np.zeros(i.size, dtype=np.float64)
    ap: FloatArray = np.zeros(i.size, dtype=np.float64)
    r = np.flatnonzero(b.lo[i] != b.hi[i])
    if r.size:
        pr, nr = p[r], n[r]
        auc[r] = (pr * sp) * (nr * sn)
        ap[r] = _ap_width(pr * st, nr * st, c[r] * st, t[r] * st)
    return auc, ap


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
    with np.errstate(under="ignore"):
        own_auc_i, own_ap_i = _own_widths(b, i, pi, ni, ci, ti, sp, sn, st)
        own_auc_j, own_ap_j = _own_widths(b, j, pj, nj, c[j], t[j], sp, sn, st)
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
    compaction of the bins (their four float columns and their three key
    columns each stacked in one array, so a round compacts two arrays, not
    seven; the pairs' levels are computed once: a merge leaves its
    neighbouring pairs' levels as they were).

    Raises
    ------
    RuntimeError
        If a round finds no minimal node, which bins whose blocks are
        disjoint and in rank order (every summary's) always have: the
        levels of two neighbouring pairs of strictly descending block
        starts differ. Bins with a repeated or unordered block start (not a
        summary's) could otherwise loop forever.
    """
    total = float(b.pos.sum() + b.neg.sum())
    if b.hi.size <= max_bins:
        return b
    part = bit_length(b.start[:-1] ^ b.start[1:])  # level of the smallest block holding bins i and i + 1
    # The bins' columns as rows of two arrays, (hi, lo, pos, neg) and (level, start, end):
    # every round takes the kept columns of each in one call. Levels (0 to 64) are held as uint64.
    fl = np.stack(b[:4])
    ky = np.stack((b.level.astype(np.uint64), b.start, b.end))
    n = b.hi.size
    while n > max_bins:
        below_left = np.ones(n - 1, dtype=bool)  # pair i parts lower than pair i - 1 (the first: no left pair)
        np.less(part[1:], part[:-1], out=below_left[1:])
        below_right = np.ones(n - 1, dtype=bool)  # ... than pair i + 1 (the last: no right pair)
        np.less(part[:-1], part[1:], out=below_right[:-1])
        below_left &= below_right
        cand = np.flatnonzero(below_left)  # minimal nodes, never adjacent
        if cand.size == 0:  # every round merges at least one pair, or stops here: never an endless loop
            raise RuntimeError(
                f"compress: no two adjacent bins of {n} can merge (no pair parts below both neighbours): "
                "the bins' blocks are not disjoint and in rank order, which every summary's are"
            )
        k = min(n - max_bins, max(1, (cand.size + 1) // 2))
        if k < cand.size:
            cost = merge_costs(_rows(fl, ky), pos_ref, neg_ref, total, max_bins, cand)
            cand = np.sort(cand[np.argpartition(cost, k - 1)[:k]])
        gone = cand + 1
        keep = np.ones(n, dtype=bool)
        keep[gone] = False
        kept = np.flatnonzero(keep)
        at = cand - np.arange(cand.size)  # where each merged pair lands once its second bin is gone
        fl2, ky2 = fl.take(kept, axis=1), ky.take(kept, axis=1)
        merged = part[cand]
        mask = _mask(merged)
        level, start, end = ky2  # rows: views (one-dimensional indexing is the fast path)
        level[at] = merged
        first = start[at] & ~mask
        start[at] = first
        end[at] = first | mask
        lo, pos, neg = fl2[1], fl2[2], fl2[3]
        lo[at] = fl[1][gone]  # the second bin's lo
        pos[at] += fl[2][gone]
        neg[at] += fl[3][gone]
        fl, ky, n = fl2, ky2, kept.size
        # A minimal node parts below both neighbours, so its merged block keeps every bit at
        # which a neighbour parts: the neighbouring pairs' levels stay, the merged pairs' go.
        part = np.compress(keep[1:], part)
    return _rows(fl, ky)


def _rows(fl: FloatArray, ky: KeyArray) -> Bins:
    """Bins whose columns are the rows of :func:`compress`'s two stacked arrays (views, no copy)."""
    return Bins(fl[0], fl[1], fl[2], fl[3], ky[0].view(np.int64), ky[1], ky[2])
