"""Grouping cases by the values of their slicing features: pure numpy, no evaluator.

A feature column becomes integer codes (:func:`factorize`): each distinct value
one code, in sorted order, and a missing value (NaN in a float column) one
code of its own after the others. Several columns are crossed into one code
per combination (:func:`cross`), and the rows of each code are found by one
stable argsort (:func:`group_rows`), so a batch is cut into its slices in
O(n log n) once, whatever the number of slices, each slice keeping its cases
in arrival order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .ranking import few_value_ranks

IntArray = npt.NDArray[np.int64]
#: Bits of the packed keys of :func:`segment_order` (tests lower it to reach the lexsort).
KEY_BITS = 64
#: Bits of the 32-bit packed keys of :func:`slice_order` (tests lower it to reach the radix argsort).
PACKED32_BITS = 32
#: Integers spanning at most ``DENSE_PER_ROW * n + DENSE_EXTRA`` values are numbered by counting (O(n + span))
#: instead of ``np.unique``'s sort; the result is the same (tests lower both to reach the sort).
DENSE_PER_ROW = 4
DENSE_EXTRA = 1 << 16


def _dense_unique(offsets: IntArray, span: int) -> tuple[IntArray, IntArray]:
    """``np.unique(offsets, return_inverse=True)`` of integers in ``range(span)``, by counting: O(n + span).

    When every integer of the range occurs (the usual feature ids: codes 0 to k - 1), ``offsets`` are
    their own codes and are returned as they are (no gather of n codes).
    """
    present = np.bincount(offsets, minlength=span) > 0  # (a count, not a scatter of n flags: less CPU)
    if bool(present.all()):
        return np.arange(span, dtype=np.int64), offsets
    uniques = np.flatnonzero(present).astype(np.int64, copy=False)
    number = np.cumsum(present, dtype=np.int64)
    number -= 1
    return uniques, number[offsets]


def _small_span(values: np.ndarray) -> tuple[int, int] | None:
    """``(lowest, span)`` of an integer array whose values span few enough for :func:`_dense_unique`, else None."""
    if values.dtype.kind not in "iu" or not values.size:
        return None
    lo, hi = int(values.min()), int(values.max())
    if hi >= 2**63 or hi - lo >= DENSE_PER_ROW * values.size + DENSE_EXTRA:
        return None
    return lo, hi - lo + 1


def factorize(values: np.ndarray) -> tuple[IntArray, list[Any], bool]:
    """``(codes, uniques, missing)`` of a 1-d numeric, boolean or string array.

    ``uniques`` are the distinct values as Python scalars in ascending order;
    ``codes[i]`` is the index of ``values[i]`` in them. In a float array NaN is
    missing: it takes code ``len(uniques)`` and ``missing`` is True. ``-0.0``
    and ``0.0`` are one value (numpy's ``unique``). O(n log n); O(n + span) for integers
    spanning fewer than ``DENSE_PER_ROW * n + DENSE_EXTRA`` values (counted, not sorted).

    Examples
    --------
    >>> import numpy as np
    >>> from scored_pr._core.slicing import factorize
    >>> codes, uniques, missing = factorize(np.array([2.0, np.nan, 1.0, 2.0]))
    >>> codes.tolist(), uniques, missing
    ([1, 2, 0, 1], [1.0, 2.0], True)
    """
    if values.dtype.kind == "f":
        nan = np.isnan(values)
        if nan.any():
            uniques, inverse = np.unique(values[~nan], return_inverse=True)
            codes: npt.NDArray[np.int64] = np.full(values.size, uniques.size, dtype=np.int64)
            codes[~nan] = inverse.reshape(-1)
            return codes, uniques.tolist(), True
    small = _small_span(values)
    if small is not None:  # integer codes of a small range (the usual feature ids): no sort
        lo, span = small
        found, codes = _dense_unique(values.astype(np.int64) - lo, span)
        return codes, (found + lo).tolist(), False
    uniques, inverse = np.unique(values, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64, copy=False), uniques.tolist(), False


def cross(codes: list[IntArray], sizes: list[int]) -> tuple[IntArray, npt.NDArray[np.int64]]:
    """One code per combination of several columns' codes: ``(combined codes, table)``.

    ``codes[j]`` takes values in ``range(sizes[j])``. The combinations present
    are numbered in lexicographic order of the columns' codes; row ``r`` of
    ``table`` (shape (m, len(codes))) is the columns' codes of combination
    ``r``. With no column every row is the one combination ``()``. O(n +
    span) by counting when the sizes multiply to fewer than ``DENSE_PER_ROW
    * n + DENSE_EXTRA`` (one column of codes, a few small ones), else O(n
    log n); the same result either way.
    """
    if not codes:
        return np.zeros(0, dtype=np.int64), np.zeros((1, 0), dtype=np.int64)
    if len(codes) == 1 and codes[0].size and bool((np.bincount(codes[0], minlength=sizes[0]) > 0).all()):
        # one column whose every code occurs (a factorised column): its codes are the combinations
        return codes[0].astype(np.int64, copy=False), np.arange(sizes[0], dtype=np.int64).reshape(-1, 1)
    key: np.ndarray = np.zeros(codes[0].size, dtype=np.int64)
    for c, size in zip(codes, sizes):
        key = key * max(size, 1) + c  # mixed radix: sizes multiply to at most the rows' combinations
    span = 1
    for size in sizes:
        span *= max(size, 1)
    if span < DENSE_PER_ROW * key.size + DENSE_EXTRA:  # few possible combinations: numbered by counting, no sort
        uniques, inverse = _dense_unique(key, span)
    else:
        uniques, inverse = np.unique(key, return_inverse=True)
    table = np.empty((uniques.size, len(codes)), dtype=np.int64)
    rest = uniques.copy()
    for j in range(len(codes) - 1, -1, -1):
        size = max(sizes[j], 1)
        table[:, j] = rest % size
        rest //= size
    return inverse.reshape(-1).astype(np.int64, copy=False), table


def group_rows(ids: IntArray) -> tuple[npt.NDArray[np.intp], IntArray, IntArray]:
    """``(order, starts, groups)``: the rows of each distinct id, in arrival order within an id.

    ``order`` is a stable argsort of ``ids``; the rows of ``groups[g]`` are
    ``order[starts[g]:starts[g + 1]]`` (``starts`` has one more entry, the
    number of rows). One sort, whatever the number of groups.

    Examples
    --------
    >>> import numpy as np
    >>> from scored_pr._core.slicing import group_rows
    >>> order, starts, groups = group_rows(np.array([3, 1, 3, 1, 2]))
    >>> order.tolist(), starts.tolist(), groups.tolist()
    ([1, 3, 4, 0, 2], [0, 2, 3, 5], [1, 2, 3])
    """
    order = np.argsort(ids, kind="stable")
    if not ids.size:
        return order, np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    ranked = ids[order]
    cut = np.flatnonzero(ranked[1:] != ranked[:-1]) + 1
    starts = np.concatenate(([0], cut, [ids.size])).astype(np.int64)
    return order, starts, ranked[starts[:-1]].astype(np.int64, copy=False)


def score_ranks(neg: npt.NDArray[np.float64]) -> IntArray:
    """The dense rank of every score among the distinct scores (ascending; -0.0 and 0.0 one value).

    Few distinct values (rounded scores): the O(n) hash lookup of
    :func:`scored_pr._core.ranking.few_value_ranks`; otherwise one unstable
    argsort (any order of equal scores gives them the same rank). O(n log n).
    """
    n = neg.size
    few = few_value_ranks(neg)
    if few is not None:
        return few[1].astype(np.int64)
    order = np.argsort(neg)
    ranked = neg[order]
    rank = np.empty(n, dtype=np.int64)
    distinct = np.empty(n, dtype=np.int64)
    if n:
        distinct[0] = 0
        np.cumsum(ranked[1:] != ranked[:-1], out=distinct[1:])  # -0.0 == 0.0: one rank, as one tie group
    rank[order] = distinct
    return rank


def stable_ranking(neg: npt.NDArray[np.float64], rank: IntArray | None = None) -> IntArray:
    """``np.argsort(neg, kind="stable")``: every case in rank order, equal scores in arrival order.

    Few distinct values (the few-values hash of :func:`score_ranks`): one
    value sort of packed (score rank, index) keys (numpy's vectorised sort
    of distinct uint64 keys gives the stable order; a stable argsort of
    float64 is a merge sort, several times slower). Otherwise the value
    sort of packed (score, index) keys of :func:`rank_with_scores`.
    ``rank``: the :func:`score_ranks` of ``neg`` if already computed.
    O(n log n).

    Examples
    --------
    >>> import numpy as np
    >>> from scored_pr._core.slicing import stable_ranking
    >>> stable_ranking(np.array([-0.2, -0.9, 0.0, -0.2, -0.0])).tolist()
    [1, 0, 3, 2, 4]
    """
    n = neg.size
    if not n:
        return np.zeros(0, dtype=np.int64)
    if rank is None:
        few = few_value_ranks(neg)
        if few is None:
            return _value_ranking(neg)[0]
        rank = few[1].astype(np.int64)
    bits_n = max((n - 1).bit_length(), 1)
    if bits_n + max(int(rank.max()).bit_length(), 1) > KEY_BITS:  # pragma: no cover (tests lower KEY_BITS)
        return np.argsort(neg, kind="stable").astype(np.int64, copy=False)
    key = ((rank << bits_n) | np.arange(n, dtype=np.int64)).view(np.uint64)
    key.sort()
    return (key & np.uint64((1 << bits_n) - 1)).view(np.int64)


def rank_with_scores(neg: npt.NDArray[np.float64],
                     rank: IntArray | None = None) -> tuple[IntArray, npt.NDArray[np.float64]]:
    """``(order, neg[order])`` for ``order = stable_ranking(neg, rank)``: the ranking and the ranked scores.

    Mostly distinct scores: each case's key packs its score's bits, made
    monotone in the score (the sign flips the magnitude's bits; -0.0 and
    0.0 one key), in the high bits and its index in the low bits, and
    numpy's vectorised value sort of these uint64 keys (not an argsort of
    float64) gives the stable order. When the
    scores span more bits than the index leaves (wide ranges of
    probabilities: 1,000,000 cases leave 44), the lowest bits of each score
    are dropped: cases whose scores then share a key are put in order by a
    sort of those few alone (``np.lexsort`` of (score, index)), found where
    the ranked scores step down. O(n log n); the ranked scores come from the
    one gather the check needs.

    Examples
    --------
    >>> import numpy as np
    >>> from scored_pr._core.slicing import rank_with_scores
    >>> order, ranked = rank_with_scores(np.array([-0.2, -0.9, 0.0, -0.2, -0.0]))
    >>> order.tolist(), ranked.tolist()
    ([1, 0, 3, 2, 4], [-0.9, -0.2, -0.2, 0.0, -0.0])
    """
    if rank is None and neg.size and few_value_ranks(neg) is None:
        return _value_ranking(neg)
    order = stable_ranking(neg, rank)
    return order, neg[order]


#: The magnitude bits of a float64 (flipped for a negative score, so that the int64 order of the bits is the
#: score order), and the int64 keys of -inf and +inf so made (a key outside them is a NaN's).
_MAGNITUDE = 0x7FFF_FFFF_FFFF_FFFF
_KEY_NEG_INF = int(np.array([-np.inf]).view(np.int64)[0]) ^ _MAGNITUDE
_KEY_POS_INF = int(np.array([np.inf]).view(np.int64)[0])
#: Cases in keys shared by different scores above which the packed ranking gives way to an argsort.
_CLASH_LIMIT = 8


def _value_ranking(neg: npt.NDArray[np.float64]) -> tuple[IntArray, npt.NDArray[np.float64]]:
    """:func:`rank_with_scores` of mostly distinct scores (packed keys, else one argsort)."""
    packed = _packed_ranking(neg)
    if packed is not None:
        return packed
    # one unstable value-order argsort, then only the runs of equal scores (if any) put in arrival order
    order = np.argsort(neg)
    ranked = neg[order]
    tied = ranked[1:] == ranked[:-1]
    if tied.any():
        order = _arrival_order_in_ties(order, tied)
        ranked = neg[order]
    return order.astype(np.int64, copy=False), ranked


def _packed_ranking(neg: npt.NDArray[np.float64]) -> tuple[IntArray, npt.NDArray[np.float64]] | None:
    """The stable ranking by one value sort of (monotone score bits, index) keys; None: a NaN, or too many clashes."""
    n = neg.size
    bits_n = max((n - 1).bit_length(), 1)
    if bits_n >= KEY_BITS:  # pragma: no cover (tests lower KEY_BITS)
        return None
    k = np.add(neg, 0.0).view(np.int64)  # -0.0 + 0.0 is 0.0: the two zeros compare equal, so one key
    flip = k >> 63  # -1 for a negative score, else 0
    flip &= _MAGNITUDE
    k ^= flip  # a negative score's magnitude bits flipped: the int64 order is the score order
    del flip
    lo, hi = int(k.min()), int(k.max())
    if lo < _KEY_NEG_INF or hi > _KEY_POS_INF:  # a NaN
        return None
    # the keys less the lowest, in as many bits as the index leaves (the lowest dropped when they span more)
    shift = max((hi - lo).bit_length() - (KEY_BITS - bits_n), 0)
    key = k.view(np.uint64)
    key -= np.uint64(lo % (1 << 64))  # (mod 2**64: the difference, in [0, 2**64))
    if shift:
        key >>= np.uint64(shift)
    key <<= np.uint64(bits_n)
    key |= np.arange(n, dtype=np.uint64)
    key.sort()  # distinct keys: the value sort is the stable order
    order = (key & np.uint64((1 << bits_n) - 1)).view(np.int64)
    ranked = neg[order]
    if not shift:
        return order, ranked
    # a key shared by different scores holds its cases in index order: find those keys where the ranked
    # scores step down, and sort their cases by (key, score), stably (equal scores stay in index order)
    down = np.flatnonzero(ranked[1:] < ranked[:-1])
    if not down.size:
        return order, ranked
    high = key >> np.uint64(bits_n)
    clashes = np.unique(high[down])
    a = np.searchsorted(high, clashes, "left")
    return (order, ranked) if _sort_clashes(order, ranked, a, np.searchsorted(high, clashes, "right") - a, n) else None


def _sort_clashes(order: IntArray, ranked: npt.NDArray[np.float64], begin: IntArray, sizes: IntArray,
                  total: int) -> bool:
    """Sort each run ``[begin, begin + size)`` of ``ranked`` (and ``order`` alike) by score, stably, in place;
    False (nothing changed) when the runs hold more than ``total / _CLASH_LIMIT`` cases."""
    clashed = int(sizes.sum())
    if _CLASH_LIMIT * clashed > total:
        return False
    ends = np.cumsum(sizes)
    at = np.arange(clashed, dtype=np.int64) + np.repeat(begin - (ends - sizes), sizes)  # every position of the runs
    sub = np.lexsort((ranked[at], np.repeat(np.arange(sizes.size), sizes)))
    order[at] = order[at][sub]
    ranked[at] = ranked[at][sub]
    return True


#: Cases per block of :func:`slice_ranking`'s keys (their temporaries stay in the cache).
_KEY_BLOCK = 1 << 15


def _monotone(neg: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """Each score's bits as an int64 in the scores' order (a negative score's magnitude bits flipped)."""
    k = neg.view(np.int64).copy()
    k ^= (k >> 63) & _MAGNITUDE
    return k


def slice_ranking(neg: npt.NDArray[np.float64], columns: Sequence[npt.NDArray[np.integer[Any]]],
                  count: int) -> tuple[IntArray, IntArray, npt.NDArray[np.float64]] | None:
    """``(rows, offsets, neg[rows])``: :func:`segment_order`'s by one value sort of (slice id, score, index) keys.

    The same rows, in the same order (each slice's cases as a stable
    argsort of ``neg`` ranks them), without ranking every case first: each
    case's key packs its slice id in the high bits, its score's bits made
    monotone (as :func:`rank_with_scores` makes them) in the middle, the
    lowest of them dropped when the three do not fit 64 bits, and its index
    in the low bits; numpy's value sort of these distinct keys is the order.
    Cases of one slice whose scores then share a key are put in order by a
    sort of those few alone (``np.lexsort`` of (score, index)), found where
    the ranked scores step down inside a key. None (the caller sorts
    otherwise) for a NaN score, or when such cases are more than an eighth
    of all. O(n log n) for n cases per column, one sort.

    Examples
    --------
    >>> import numpy as np
    >>> from scored_pr._core.slicing import slice_ranking
    >>> rows, offsets, ranked = slice_ranking(np.array([-0.2, -0.9, -0.2, -0.5]), [np.array([0, 1, 1, 0])], 2)
    >>> rows.tolist(), offsets.tolist(), ranked.tolist()
    ([3, 0, 1, 2], [0, 2, 4], [-0.5, -0.2, -0.9, -0.2])
    """
    n = neg.size
    offsets = np.zeros(count + 1, dtype=np.int64)
    if not n or not columns:
        return np.zeros(0, dtype=np.int64), offsets, np.zeros(0)
    many = len(columns) > 1
    total = n * len(columns)
    bits_n = max((total - 1).bit_length(), 1)
    bits_s = max((count - 1).bit_length(), 1)
    free = KEY_BITS - bits_n - bits_s  # bits left for the score
    if free < 1:  # no bit left for the score (tests lower KEY_BITS)
        return None
    low, top = float(neg.min()), float(neg.max())
    if math.isnan(low):  # a NaN
        return None
    # the keys in cache-sized blocks (no whole-array temporaries): the score's bits made monotone less the
    # lowest (its lowest bits dropped when they span more than ``free``), the slice id above, the index below
    lo, hi = (int(_monotone(np.array([x + 0.0]))[0]) for x in (low, top))
    shift = max((hi - lo).bit_length() - free, 0)
    # no positive negated score (scores of at least 0, probabilities): the monotone bits less the lowest are
    # the lowest score's magnitude bits less the score's (two integer passes, not four)
    signed = top <= 0.0
    u_lo = np.uint64(lo % (1 << 64) if not signed else int(np.array([low]).view(np.int64)[0]) & _MAGNITUDE)
    u_shift, u_bits = np.uint64(shift), np.uint64(bits_n)
    np.cumsum(np.bincount(np.concatenate(columns) if many else columns[0], minlength=count), out=offsets[1:])
    u_sid = np.uint64(free + bits_n)  # where a key's slice id starts
    key = np.empty(total, dtype=np.uint64)
    block = min(n, _KEY_BLOCK)
    m = np.empty(block, dtype=np.int64)
    step = np.arange(block, dtype=np.int64)
    for j, col in enumerate(columns):
        for a in range(0, n, block):
            b = min(a + block, n)
            kb = key[j * n + a:j * n + b]
            ki, mb = kb.view(np.int64), m[:b - a]
            mu = mb.view(np.uint64)
            np.add(neg[a:b], 0.0, out=kb.view(np.float64))  # -0.0 + 0.0 is 0.0: the two zeros one key
            if signed:
                ki &= _MAGNITUDE
                np.subtract(u_lo, kb, out=kb)  # the lowest's magnitude bits less this score's: >= 0
            else:
                np.right_shift(ki, 63, out=mb)
                mb &= _MAGNITUDE
                ki ^= mb  # a negative score's magnitude bits flipped: the int64 order is the score order
                kb -= u_lo  # (mod 2**64: the difference, in [0, 2**64))
            if shift:
                kb >>= u_shift
            kb <<= u_bits
            mb[:] = col[a:b]
            mu <<= u_sid
            kb |= mu
            np.add(step[:b - a], j * n + a, out=mb)
            kb |= mu
    key.sort()  # distinct keys: the value sort is the stable order
    rows = (key & np.uint64((1 << bits_n) - 1)).view(np.int64)
    if many:
        rows %= n
    ranked = neg[rows]
    if not shift:
        return rows, offsets, ranked
    # a key shared by different scores of one slice holds its cases in index order: find those keys where the
    # ranked scores step down inside a key, and sort their cases by (key, score), stably
    down = np.flatnonzero(ranked[1:] < ranked[:-1])
    high = key[down] >> u_bits
    down = down[high == key[down + 1] >> u_bits]  # (not a step from one slice to the next)
    if not down.size:
        return rows, offsets, ranked
    clashes = np.unique(key[down] >> u_bits)
    # each shared key's cases: the sorted keys from (key, index 0) to (key, the largest index)
    first_key = clashes << u_bits
    begin = np.searchsorted(key, first_key, "left")
    sizes = np.searchsorted(key, first_key | np.uint64((1 << bits_n) - 1), "right") - begin
    return (rows, offsets, ranked) if _sort_clashes(rows, ranked, begin, sizes, total) else None


def slice_score_groups(distinct: npt.NDArray[np.float64], rank: npt.NDArray[np.integer[Any]],
                       correct: npt.NDArray[np.bool_], columns: Sequence[npt.NDArray[np.integer[Any]]], count: int,
                       whole: int | None = None) -> tuple[npt.NDArray[np.float64], IntArray, IntArray, IntArray] | None:
    """``(neg, counts, positives, offsets)``: every slice's cases as groups of one score, with no sort.

    ``distinct`` holds the distinct negated scores ascending and ``rank[i]``
    case i's index in them (:func:`scored_pr._core.ranking.few_value_ranks`);
    ``columns`` as in :func:`segment_order`. Group g is the cases of slice s
    with score ``-neg[g]``: ``counts[g]`` of them, ``positives[g]`` correct;
    slice s's groups are ``[offsets[s], offsets[s + 1])``, in rank order
    (``neg`` ascending). One ``np.bincount`` of the codes ``slice * D +
    rank`` (D distinct scores), doubled plus the case's correctness, counts
    the wrong and the correct cases of every (slice, score) cell; the cells that are not empty, in code order,
    are the groups. ``whole``: the id of a slice of every case, in no
    column (the overall slice), whose groups are the per-score totals (one
    more ``np.bincount``, of ``2 rank + correct``). O(n + S D) for n cases per column; None when the S D
    cells outnumber 2 n (many slices and many scores: sort instead).

    Examples
    --------
    >>> import numpy as np
    >>> from scored_pr._core.slicing import slice_score_groups
    >>> neg, counts, pos, offsets = slice_score_groups(np.array([-0.9, -0.5]), np.array([1, 0, 0, 1]),
    ...     np.array([False, True, False, True]), [np.array([0, 0, 1, 0])], 2)
    >>> neg.tolist(), counts.tolist(), pos.tolist(), offsets.tolist()
    ([-0.9, -0.5, -0.9], [1, 2, 1], [1, 1, 0], [0, 2, 3])
    """
    d, n = distinct.size, rank.size
    if count * d > 2 * n * len(columns):  # a transient table of 2 S D counts: at most 32 bytes per case
        return None
    many = len(columns) > 1
    code = np.concatenate(columns).astype(np.int64) if many else columns[0].astype(np.int64)
    # code 2 (slice D + rank) + correct: one bincount counts the wrong and the correct cases of every cell
    code *= 2 * d
    r = np.tile(rank, len(columns)) if many else rank
    code += r
    code += r
    code += np.tile(correct, len(columns)) if many else correct
    both = np.bincount(code, minlength=2 * count * d)
    del code, r
    cases = both[0::2] + both[1::2]
    g_slice, g_rank = np.nonzero(cases.reshape(count, d))  # the cells that are not empty, in (slice, rank) order
    cell = g_slice * d
    cell += g_rank
    offsets = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(np.count_nonzero(cases.reshape(count, d), axis=1), out=offsets[1:])
    counts = cases[cell].astype(np.int64, copy=False)
    cell += cell
    cell += 1  # the correct cases' counts
    neg, positives = distinct[g_rank], both[cell].astype(np.int64, copy=False)
    if whole is None:
        return neg, counts, positives, offsets
    # the whole slice's groups (its segment above is empty: no column holds it), spliced in at its place
    code = rank.astype(np.int64)
    code += code
    code += correct
    per = np.bincount(code, minlength=2 * d)
    del code
    w_cases = per[0::2] + per[1::2]
    keep = np.flatnonzero(w_cases)
    at = int(offsets[whole])
    offsets[whole + 1:] += keep.size
    return (np.insert(neg, at, distinct[keep]), np.insert(counts, at, w_cases[keep]),
            np.insert(positives, at, per[2 * keep + 1]), offsets)


def slice_order(columns: Sequence[npt.NDArray[np.integer[Any]]], count: int) -> tuple[IntArray, IntArray]:
    """``(positions, offsets)``: the cases of every crossing grouped by slice id, in their order within a slice.

    ``columns[j][p]`` is the slice id (in ``range(count)``) of case ``p`` in
    crossing ``j``, as in :func:`segment_order`; slice ``k``'s cases are
    ``positions[offsets[k]:offsets[k + 1]]``, ascending. Given the columns
    in rank order (each indexed by :func:`stable_ranking`), each slice's
    cases come out ranked. One value sort of packed (slice id, position)
    keys: of 32 bits when both fit (1,000,000 cases in up to 4,096 slices),
    numpy's vectorised sort, O(n log n); else, up to 65,536 slices, one stable radix argsort of the ids as 16-bit
    integers, O(n); beyond, packed keys of 64 bits, O(n log n), for n cases
    per column.

    Examples
    --------
    >>> import numpy as np
    >>> from scored_pr._core.slicing import slice_order
    >>> positions, offsets = slice_order([np.array([1, 0, 1, 0])], 2)
    >>> positions.tolist(), offsets.tolist()
    ([1, 3, 0, 2], [0, 2, 4])
    """
    offsets = np.zeros(count + 1, dtype=np.int64)
    n = columns[0].size if columns else 0
    if not n:
        return np.zeros(0, dtype=np.int64), offsets
    bits_n = max((n - 1).bit_length(), 1)
    if bits_n + max((count - 1).bit_length(), 1) <= min(KEY_BITS, PACKED32_BITS):
        # (slice id, position) in 32 bits: numpy's vectorised value sort of distinct uint32 keys is the stable
        # order (less CPU than the 16-bit radix argsort below for 1,000,000 cases in 1,000 slices: the sliced
        # table's runs in benchmarks/results-sliced.md, branch r8-slc)
        key = np.concatenate(columns, dtype=np.uint32, casting="unsafe") if len(columns) > 1 else \
            columns[0].astype(np.uint32)
        np.cumsum(np.bincount(key, minlength=count), out=offsets[1:])
        key <<= np.uint32(bits_n)
        position = np.arange(n, dtype=np.uint32)
        key |= np.tile(position, len(columns)) if len(columns) > 1 else position
        key.sort()
        key &= np.uint32((1 << bits_n) - 1)
        return key.astype(np.int64), offsets
    if count <= 1 << 16:
        # ids of 16 bits: numpy's stable argsort of 16-bit integers is a radix sort, O(n) (a third less
        # CPU than the value sort of 64-bit packed keys below, for 1,000,000 cases in 1,000 slices); the ids are
        # narrowed once, from the columns as they are (no 64-bit copy), and counted from the narrow copy
        narrow = np.int16 if count <= 1 << 15 else np.uint16
        small = np.concatenate(columns, dtype=narrow, casting="unsafe") if len(columns) > 1 else \
            columns[0].astype(narrow)
        np.cumsum(np.bincount(small, minlength=count), out=offsets[1:])
        order = np.argsort(small, kind="stable")
        return (order % n if len(columns) > 1 else order).astype(np.int64, copy=False), offsets
    sid = np.concatenate(columns).astype(np.int64, copy=False) if len(columns) > 1 else columns[0].astype(np.int64)
    np.cumsum(np.bincount(sid, minlength=count), out=offsets[1:])
    if bits_n + max((count - 1).bit_length(), 1) > KEY_BITS:
        return np.argsort(sid, kind="stable") % n, offsets
    position = np.arange(n, dtype=np.uint64)
    key = (sid.view(np.uint64) << np.uint64(bits_n)) | (np.tile(position, len(columns)) if len(columns) > 1 else position)
    key.sort()  # distinct keys: the value sort is the stable order
    return (key & np.uint64((1 << bits_n) - 1)).view(np.int64), offsets


def _arrival_order_in_ties(order: IntArray, tied: npt.NDArray[np.bool_]) -> IntArray:
    """``order`` (indices sorted by score) with each run of equal scores (``tied[i]``: i and i + 1 equal) ascending."""
    n = order.size
    inside = np.zeros(n, dtype=bool)
    inside[1:] = tied
    inside[:-1] |= tied  # every position of a run of two or more
    at = np.flatnonzero(inside)
    run = np.cumsum(~np.r_[False, tied][at])  # the run of each such position (ascending, from 1)
    bits_n = max((n - 1).bit_length(), 1)
    if bits_n + max(int(run[-1]).bit_length(), 1) > KEY_BITS:  # pragma: no cover (tests lower KEY_BITS)
        sub = np.lexsort((order[at], run))
    else:
        key = (run.astype(np.int64) << bits_n) | order[at]
        sub = np.argsort(key)  # distinct keys: any sort is the stable one
    out = order.astype(np.int64, copy=True)
    out[at] = order[at][sub]
    return out


def segment_order(neg: npt.NDArray[np.float64], columns: Sequence[npt.NDArray[np.integer[Any]]], count: int) -> tuple[IntArray, IntArray]:
    """``(rows, offsets)``: every crossing's cases ordered by (slice, negated score, arrival), laid end to end.

    ``columns[j][i]`` is the slice id (in ``range(count)``) of case ``i`` in
    crossing ``j``; each case is in one slice per column, and no slice id is
    in two columns. ``rows`` holds, for
    each slice id in ascending order, its cases' indices ranked as a stable
    argsort of ``neg`` ranks that slice's cases alone (ties in arrival
    order); slice ``k``'s are ``rows[offsets[k]:offsets[k + 1]]``.

    One value sort: each case's key packs its slice id in the high bits,
    the dense rank of its score among the distinct scores
    (:func:`score_ranks`) in the middle and its index in the low bits, so
    the keys are distinct and sorting them by value (numpy's vectorised
    sort) gives the stable order. When the three do not fit in 64 bits, one
    ``np.lexsort``. O(n log n) for n cases per column. (A caller that also
    wants every case ranked takes :func:`stable_ranking`, then
    :func:`slice_order` of the ranked columns: the same order.)

    Examples
    --------
    >>> import numpy as np
    >>> from scored_pr._core.slicing import segment_order
    >>> rows, offsets = segment_order(np.array([-0.2, -0.9, -0.2, -0.5]), [np.array([0, 1, 1, 0])], 2)
    >>> rows.tolist(), offsets.tolist()
    ([3, 0, 1, 2], [0, 2, 4])
    """
    n = neg.size
    offsets = np.zeros(count + 1, dtype=np.int64)
    if not n or not columns:
        return np.zeros(0, dtype=np.int64), offsets
    sid = np.concatenate(columns).astype(np.int64, copy=False) if len(columns) > 1 else columns[0].astype(np.int64)
    np.cumsum(np.bincount(sid, minlength=count), out=offsets[1:])
    bits_n = max((n - 1).bit_length(), 1)
    bits_s = max((count - 1).bit_length(), 1)
    rank = score_ranks(neg)
    bits_v = max(int(rank.max()).bit_length(), 1)
    index = np.arange(n, dtype=np.int64)
    if bits_n + bits_v + bits_s <= KEY_BITS:
        low = ((rank << bits_n) | index).view(np.uint64)
        key = (sid.view(np.uint64) << np.uint64(bits_n + bits_v)) | (np.tile(low, len(columns)) if len(columns) > 1 else low)
        key.sort()  # distinct keys: the value sort is the stable order
        rows = (key & np.uint64((1 << bits_n) - 1)).view(np.int64)
        return rows, offsets
    tiled = np.tile(rank, len(columns))
    order2 = np.lexsort((tiled, sid))  # stable: equal (slice, score) stay in arrival order
    return order2 % n, offsets


def adjust_p_values(p: npt.NDArray[np.float64], method: str) -> npt.NDArray[np.float64]:
    """p-values adjusted for ``m`` comparisons: Holm's step-down or Bonferroni's (NaN stays NaN, not counted).

    Bonferroni: ``min(1, m p)``. Holm: the i-th smallest (from 0) is
    ``max over j <= i of min(1, (m - j) p_(j))``, which controls the
    family-wise error rate like Bonferroni and rejects at least as often
    (statsmodels' ``multipletests(method="holm")``).

    Examples
    --------
    >>> import numpy as np
    >>> from scored_pr._core.slicing import adjust_p_values
    >>> adjust_p_values(np.array([0.01, 0.04, 0.03]), "holm").tolist()
    [0.03, 0.06, 0.06]
    """
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = q.size
    if method == "bonferroni":
        out[ok] = np.minimum(1.0, m * q)
        return out
    order = np.argsort(q, kind="stable")
    stepped = np.minimum(1.0, (m - np.arange(m)) * q[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(stepped)
    out[ok] = adjusted
    return out
