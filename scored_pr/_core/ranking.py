"""Stable rank order of negated scores, and the merge of two ranked runs, bit for bit.

:func:`rank_order` gives exactly what a stable argsort of the negated scores
gives (equal scores in arrival order), faster: cases of one class with equal
scores are interchangeable, so a value sort plus a pass over mixed tie groups
is enough. :func:`merge` merges two runs in O(n + k), the earlier run first
among equal scores. The case store (:mod:`scored_pr._evaluators.store`) keeps
its cases with these.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import numpy.typing as npt

#: Below this many cases a stable argsort is as fast as anything else.
_SMALL = 2048
#: Largest table (entries) of the tie-group hash of :func:`_grouped_order`.
_HASH_BITS = 24
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
#: A second odd multiplier (another hash of the same bits) for _mixed_group_order.
_GOLDEN2 = 0xD6E8FEB86659FD93
#: Mixed tie groups holding more than 1/_MIXED_LIMIT of the cases go to _tie_order (a key sort of every case).
_MIXED_LIMIT = 2
#: Cases hashed per block by :func:`_mixed_group_order` (its buffers stay in the L2 cache).
_HASH_BLOCK = 1 << 15
#: Largest bit table (entries) of the filter of _mixed_group_order: 512 KiB, within the L2 cache.
_FILTER_BITS = 19
#: 2**62 and 1, for the packed keys of :func:`_packed_order`.
_HALF = 1 << 62
_ONE = np.uint64(1)


def frozen(a: npt.NDArray[Any], dtype: Any) -> npt.NDArray[Any]:
    """``a`` as a read-only array of ``dtype``: itself if it is one that owns its data (shared), else a frozen copy.

    A read-only view is copied: its base might still be written to.
    """
    if isinstance(a, np.ndarray) and a.dtype == dtype and not a.flags.writeable and a.flags.owndata:
        return a
    out = np.array(a, dtype=dtype)
    out.setflags(write=False)
    return out


def rank_order(
    neg: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """``(neg[o], correct[o])`` for ``o = np.argsort(neg, kind="stable")``, bit for bit (see :func:`rank_order_ties`)."""
    out, cor, _ = rank_order_ties(neg, correct)
    return out, cor


def rank_order_ties(
    neg: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], bool]:
    """``(neg[o], correct[o], distinct)`` for ``o = np.argsort(neg, kind="stable")``, bit for bit.

    ``distinct`` is True when the ranking is known to hold no two equal
    scores (the value sort's tie scan found none), so that the kernel can
    skip its own scan (:func:`scored_pr._core.points.operating_points`);
    False means "not known" (ties, or a path that does not scan).

    A stable argsort of float64 is a merge sort, several times slower than
    numpy's vectorised (SIMD) value sort, and a permutation is more than the
    store needs: cases of one class with equal scores are interchangeable, so
    only a tie between a correct and an incorrect case (a *mixed* tie group)
    needs insertion order. So the scores are sorted by value with the
    label packed into the key (:func:`_packed_order`: one vectorised sort,
    correct cases first among equal scores; scores with few distinct values
    skip the float sort: :func:`_few_values_order`). When there are mixed
    tie groups, insertion order is restored inside them only: the sorted
    order shows them (a
    correct case next to an equal incorrect one), and
    :func:`_mixed_group_order` finds their cases with one hash pass and
    orders those few, so scores with scattered ties (float32 outputs,
    rounded probabilities) cost little more than distinct ones. When more
    than half of the cases are in mixed groups, :func:`_tie_order` sorts
    every case by key instead. The one other difference between equal
    scores, the sign of a zero, is restored by copying the zeros in
    insertion order. O(n log n).
    """
    n = neg.size
    if n < _SMALL or n >= 2**31:
        o = np.argsort(neg, kind="stable")
        return neg[o], correct[o], False
    few = _few_values_order(neg, correct)
    if few is not None:
        return (*few, False)
    out, cor, scanned = _packed_order(neg, correct)
    same = out[1:] == out[:-1] if scanned is None else scanned  # the packed keys' scan, made in the read-back loop
    tied = int(np.count_nonzero(same))
    if tied:
        # A mixed tie group puts a correct case next to an incorrect one of equal score:
        # the sort put its correct cases first, so it has exactly one such edge. Two
        # passes of bool operations and one flatnonzero of those few edges cost less than a
        # flatnonzero of every tied neighbour, whose cost grows with its hits (1M cases:
        # 0.7 ms against 1.8 ms at 59,000 tied neighbours, 0.33 against 0.38 ms at 7,000).
        edge = cor[1:] != cor[:-1]
        edge &= same
        mixed = np.flatnonzero(edge)
        del edge
        if mixed.size:
            values = out[mixed]  # one per mixed group, ascending
            start, end = _run_bounds(out, same, mixed)
            if _MIXED_LIMIT * int((end - start).sum()) > n:  # many cases in mixed groups: key sort of every case
                return (*_tie_order(neg, correct, out, ~same), False)
            del same
            if not _mixed_group_order(neg, correct, cor, values, start, end):
                return (*_tie_order(neg, correct, out, out[1:] != out[:-1]), False)
    _restore_zero_signs(neg, out)  # also a lone -0.0, whose sign the packed keys dropped
    return out, cor, not tied


def _packed_order(
    neg: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_] | None]:
    """The scores ``neg`` ascending, each with its label, correct cases first among equal scores, and their tie scan.

    The third item is ``out[1:] == out[:-1]`` of the sorted scores ``out``,
    made on the keys in the loop that reads them back (block by block, in
    the cache, where a scan of the scores afterwards reads 8 MB per million
    cases again); None from :func:`_merged_order` (the caller scans).

    One value sort, with the label carried in the key: each score becomes a
    63-bit key monotone in it, ``u = HALF + (|x| - off)`` for a positive
    score and ``HALF - (|x| - off)`` for a negative one (``|x|`` read as
    the integer of its bits, ``HALF = 2**62``), and the label fills the
    64th bit (0 for a correct case, so it sorts first among equal scores).
    ``off`` is set from the largest magnitude alone (two float reductions)
    so that every key fits: 0 while the scores are below 2 in magnitude,
    else a magnitude far below any score's (about 3e-308 for scores up to
    6). A zero (either sign) or a magnitude of at most ``2 off`` lands in
    the band of keys ``[HALF - off, HALF + off]``; after the sort two binary
    searches find that band: empty, or holding only the zeros (counted), the
    keys are exact and read back; otherwise (a subnormal beside large
    scores, an infinity) :func:`_merged_order`. The key is
    ``(k ^ m) + A + (m & B)`` of the score's bits ``k`` (``m = k >> 63``,
    all ones for a negative score): five integer passes per block, and the
    scores come back with one subtraction. -0.0 and 0.0 get one key (the
    caller restores zero signs). About one ``np.sort`` of the scores plus
    a dozen O(n) passes in cache-sized blocks.
    """
    n = neg.size
    hi, lo_ = float(neg.max()), float(neg.min())
    top = int(np.array([max(hi, -lo_)]).view(np.uint64)[0])  # the largest magnitude's bits
    off = max(top - _HALF + 1, 0)  # HALF + (top - off) < 2**63: every key fits 63 bits
    a = (_HALF - off) % 2**64  # u = k + A for a score of sign +, ~k + A + B for sign -
    b = (2 * off + 1 - 2**63) % 2**64
    ua, ub_const, back = np.uint64(a), np.uint64(b), np.uint64((a + b - 1) % 2**64)
    block = min(n, _HASH_BLOCK)
    key = np.empty(n, dtype=np.uint64)  # the keys, sorted, then the result read back in place
    k = key.view(np.int64)
    signed = neg.view(np.int64)
    m = np.empty(block, dtype=np.int64)
    flag = np.empty(block, dtype=bool)
    for lo in range(0, n, block):
        # in blocks whose temporaries stay in the cache: no branch on the sign (a masked
        # negation of scores of random sign mispredicts)
        kb, ub = k[lo : lo + block], key[lo : lo + block]
        w = kb.size
        mb, fb = m[:w], flag[:w]
        np.right_shift(signed[lo : lo + block], 63, out=mb)  # -1 for a negative score, else 0
        np.bitwise_xor(signed[lo : lo + block], mb, out=kb)  # k, or ~k = -k - 1
        mu = mb.view(np.uint64)
        mu &= ub_const
        ub += mu
        ub += ua  # u, in [1, 2**63)
        ub <<= _ONE
        np.logical_not(correct[lo : lo + block], out=fb)
        ub |= fb  # the label bit: 0 for a correct case
    del m, flag
    key.sort()
    # The band [HALF - off, HALF + off] of u holds every zero and every magnitude <= 2 off (and
    # with off = 0 only the zeros, at u = HALF). Empty, or only zeros: exact.
    band_lo = int(np.searchsorted(key, np.uint64(2 * (_HALF - off))))
    band_hi = int(np.searchsorted(key, np.uint64(2 * (_HALF + off) + 2)))
    if band_hi > band_lo and off and band_hi - band_lo != int(np.count_nonzero(neg == 0.0)):
        return (*_merged_order(neg, correct), None)  # a magnitude below 2 off beside the largest: keys collide
    cor = np.empty(n, dtype=bool)
    # The tie scan, on the keys with the label bit dropped: the map is one to one outside the band
    # (the check above returned on a collision), and the band's zeros (-0.0 and 0.0 have two keys
    # when off > 0) are marked equal after the loop.
    same = np.empty(max(n - 1, 0), dtype=bool)
    prev = None
    little = sys.byteorder == "little"
    low_byte = np.empty(block, dtype=np.uint8)
    for lo in range(0, n, block):
        ub = key[lo : lo + block]
        w = ub.size
        if little:  # the label bit is in each key's first byte: read 1 byte in 8
            lb = np.bitwise_and(ub.view(np.uint8)[::8], 1, out=low_byte[:w])
            np.equal(lb, 0, out=cor[lo : lo + block])
        else:  # pragma: no cover (big-endian)
            np.equal(ub & _ONE, 0, out=cor[lo : lo + block])
        ub >>= _ONE
        np.equal(ub[1:], ub[:-1], out=same[lo : lo + w - 1])
        if prev is not None:  # the pair across the blocks' boundary
            same[lo - 1] = ub[0] == prev
        prev = ub[-1]  # a scalar (a copy), read before the block is converted below
        below = min(max(band_lo - lo, 0), w)  # this block's negative scores: ub[:below]
        np.subtract(back, ub[:below], out=ub[:below])  # k = A + B - 1 - u
        ub[below:] -= ua  # k = u - A
    if band_hi > band_lo:  # the zeros: one run (0.0; the caller restores signs), correct cases first
        k[band_lo:band_hi] = 0
        run = cor[band_lo:band_hi]
        ones = int(np.count_nonzero(run))
        run[:ones] = True
        run[ones:] = False
        same[band_lo : band_hi - 1] = True  # -0.0 == 0.0, whose keys differ when off > 0
    return key.view(np.float64), cor, same


def _merged_order(
    neg: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """:func:`_packed_order` by sorting each class on its own and merging the two runs (about two sorts)."""
    # Each class sorted on its own (cases of one class with equal scores are
    # interchangeable), then merged: a correct case goes after the incorrect
    # ones with a lower negated score.
    pos = np.compress(correct, neg)  # np.compress: a third of a boolean index's time
    pos.sort()
    other = np.compress(~correct, neg)
    other.sort()
    # The merge: a stable argsort of the two sorted runs, correct ones first, is timsort
    # finding two runs and merging them in O(n): 7 ms for 1M cases, where a searchsorted of
    # the correct cases among the incorrect ones (a binary search each, cache misses at
    # every level) and the scatter it feeds took 16 ms. Equal scores keep the correct cases
    # first, as that searchsorted (side="left") put them.
    n_correct = pos.size
    both = np.concatenate((pos, other))
    del pos, other
    o = np.argsort(both, kind="stable")
    out = both[o]
    cor = o < n_correct  # the first n_correct of both are the correct cases
    return out, cor


def _few_values_order(
    neg: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]] | None:
    """:func:`rank_order` for scores with few distinct values, with no float sort; None if they are not few.

    A probe of 16,384 evenly spaced scores tells whether values repeat
    heavily; if so, the distinct values of a larger sample (every 16th
    score), ``u`` ascending, get a collision-free multiplicative hash table
    of their ranks (:func:`_hash_ranks`: up to 4,095 values, and at most
    16 slots per case). Each case looks its score up (O(1)), which also
    proves the score is one of ``u`` (``u[rank] == score``); scores the
    sample missed join ``u`` and the lookup runs once more. The ranks fit
    uint16, for which numpy's stable argsort is a radix sort: O(n), where a
    float sort is O(n log n). -0.0 and 0.0 share a rank (+ 0.0 maps one to
    the other), as in the stable argsort.
    """
    found = few_value_ranks(neg)
    if found is None:
        return None
    u, rank = found
    o = np.argsort(rank, kind="stable")  # radix sort (uint16)
    out = np.repeat(u, np.bincount(rank, minlength=u.size))  # the sorted scores, read in order
    _restore_zero_signs(neg, out)
    return out, correct[o]


def few_value_ranks(neg: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint16]] | None:
    """``(u, rank)``: the distinct scores ascending and each case's index in them, if they are few; else None.

    The O(n) hash lookup of :func:`_few_values_order`, without its sort:
    ``u[rank[i]] == neg[i]`` for every case (-0.0 and 0.0 are one value,
    ``0.0`` in ``u``); ``rank`` is uint16 (at most 4,095 values). None when
    a probe finds a quarter or more of the scores distinct, or too many
    for the table. Used by :func:`scored_pr._core.slicing.segment_order` too.
    """
    n = neg.size
    if n < _SMALL or n >= 2**31:
        return None
    probe = neg[:: max(1, n >> 14)]
    seen = int(np.unique(probe).size)
    if 4 * seen > probe.size or 2 * seen.bit_length() > _HASH_BITS:
        return None  # a quarter or more of the probed scores are distinct, or too many for the table
    v = neg + 0.0  # -0.0 -> 0.0: one value
    keys = v.view(np.uint64)
    u = np.unique(v[::16])
    for _ in range(2):
        found = _hash_ranks(u, keys, n)
        if found is None:
            return None
        slot_rank, mult, shift = found
        rank = slot_rank[(keys * mult) >> shift]
        here = u[rank] == v
        if here.all():
            return u, rank
        u = np.union1d(u, v[~here])
    return None


def _hash_ranks(
    u: npt.NDArray[np.float64], keys: npt.NDArray[np.uint64], n: int
) -> tuple[npt.NDArray[np.uint16], np.uint64, np.uint64] | None:
    """A table of the ranks of the distinct values ``u`` (ascending) under a multiplicative hash of their bits.

    (table, multiplier, shift) such that ``table[(bits * multiplier) >> shift]``
    is the rank of every value of ``u``, or None when the table of at least
    D^2 slots would exceed ``2**_HASH_BITS`` (so D <= 4,095) or 16 * ``n``
    slots, or no multiplier tried is collision-free.
    """
    d = int(u.size)
    bits = max(2 * d.bit_length(), 4)  # at least D^2 slots: no collision is likely
    if bits > _HASH_BITS or (1 << bits) > 16 * n:  # 2-byte slots: at most 32 bytes per case
        return None
    shift = np.uint64(64 - bits)
    ukeys = u.view(np.uint64)
    mult = _GOLDEN
    for _ in range(8):
        slot = (ukeys * mult) >> shift
        if np.unique(slot).size == d:
            table = np.zeros(1 << bits, dtype=np.uint16)
            table[slot] = np.arange(d, dtype=np.uint16)
            return table, mult, shift
        mult = np.uint64((int(mult) + 0x632BE59BD9B4E01A) % 2**64)
    return None


def _mixed_group_order(
    neg: npt.NDArray[np.float64],
    correct: npt.NDArray[np.bool_],
    cor: npt.NDArray[np.bool_],
    values: npt.NDArray[np.float64],
    start: npt.NDArray[np.intp],
    end: npt.NDArray[np.intp],
) -> bool:
    """Put the labels of the few mixed tie groups in insertion order (``cor`` in place); False if not done.

    ``values`` are the scores of the mixed tie groups (ascending, one per
    group) and ``[start, end)`` their ranks in the sorted order. Only the
    cases of those groups need their insertion order, so only they are
    looked for: a bit table, indexed by a multiplicative hash of the score's
    bits, marks the slots of ``values``; one O(n) pass over ``neg``, block
    by block, keeps the cases whose slot is marked (the mixed groups' cases
    and a few others: under 1/128 of the rest while the table has room); a
    second table, under another hash, names the one value of each slot (a
    ``searchsorted`` settles the few slots that several values share), which
    keeps the candidates whose score is that value and gives their group;
    and one sort of integer keys (group, then insertion order) gives each
    group's labels in insertion order. Scores
    with scattered ties (the float32 scores of a model, rounded
    probabilities) then cost one hash pass more than distinct ones, instead
    of a key sort of every case. O(n + m log m) for m cases in mixed groups.

    The multiplier is even, so the sign bit does not reach the slot: -0.0
    and 0.0 (one tie group) share a slot. Returns False, changing nothing,
    if the cases found do not fill the groups exactly (they always do).
    """
    d = int(values.size)
    bits = min(max(d.bit_length() + 7, 10), _FILTER_BITS)  # at most 1/128 of the slots marked, if it fits
    shift = np.uint64(64 - bits)
    mult = np.uint64((int(_GOLDEN) << 1) % 2**64)  # even: bit 63 (the sign) drops out
    table = np.zeros(1 << bits, dtype=bool)
    table[(values.view(np.uint64) * mult) >> shift] = True
    # In blocks that stay in the cache: the candidates' scores are read there, not by a
    # gather from the whole array later, and no array of n slots is allocated.
    bits_of = neg.view(np.uint64)
    n = bits_of.size
    block = min(n, _HASH_BLOCK)
    slot = np.empty(block, dtype=np.uint64)
    marked = np.empty(block, dtype=bool)
    found_parts, score_parts = [], []
    for lo in range(0, n, block):
        chunk = bits_of[lo : lo + block]
        k = chunk.size
        np.multiply(chunk, mult, out=slot[:k])
        slot[:k] >>= shift
        np.take(table, slot[:k].view(np.int64), out=marked[:k])  # < 2**bits: the same index as int64 (numpy 1.x takes no uint64)
        hits = np.flatnonzero(marked[:k])
        if hits.size:
            score_parts.append(neg[lo : lo + block][hits])
            hits += lo
            found_parts.append(hits)
    if not found_parts:  # pragma: no cover (the mixed groups' cases are always found)
        return False
    found, score = np.concatenate(found_parts), np.concatenate(score_parts)
    # The candidates' groups, from a second table under another hash: each slot holds
    # the index of the one value of ``values`` in it, -1 if none, -2 if several (those few
    # candidates are searched for). A candidate is in the group its slot names iff its score
    # is that group's: -0.0 == 0.0, so the zeros are one group, as in the sort.
    bits2 = min(max(d.bit_length() + 3, 10), 22)  # >= 8 slots per value: few shared slots
    shift2 = np.uint64(64 - bits2)
    mult2 = np.uint64((_GOLDEN2 << 1) % 2**64)  # even, as above
    value_slot = (values.view(np.uint64) * mult2) >> shift2
    # int16 when the group ids fit: half the bytes to fill and to read (the table is written anew each time)
    id_dtype = np.int16 if d < 2**15 else np.int32
    owner = np.full(1 << bits2, -1, dtype=id_dtype)
    ids = np.arange(d, dtype=id_dtype)
    owner[value_slot] = ids
    owner[value_slot[owner[value_slot] != ids]] = -2
    group = owner[(score.view(np.uint64) * mult2) >> shift2].astype(np.int64)
    shared_slot = np.flatnonzero(group == -2)
    if shared_slot.size:
        g = np.searchsorted(values, score[shared_slot])
        np.minimum(g, d - 1, out=g)
        group[shared_slot] = g
    hit = values[np.maximum(group, 0)] == score
    hit &= group >= 0
    found, group = np.compress(hit, found), np.compress(hit, group)  # a third of a boolean index's time
    size = end - start
    if found.size != int(size.sum()):  # pragma: no cover (the groups hold exactly these cases)
        return False
    # by group, then insertion order: one sort of integer keys (group, index), packed into int64
    index_bits = max(int(n - 1).bit_length(), 1)
    if d.bit_length() + index_bits > 63:  # pragma: no cover (more than 2**31 cases)
        return False
    key = group.astype(np.int64)
    key <<= index_bits
    key |= found
    key.sort()
    key &= (1 << index_bits) - 1
    found = key
    # the ranks of the groups' cases, group after group: start[g], start[g] + 1, ..., end[g] - 1
    first = np.cumsum(size) - size
    ranks = np.arange(found.size, dtype=np.intp) + np.repeat(start - first, size)
    cor[ranks] = correct[found]
    return True


def _run_bounds(
    out: npt.NDArray[np.float64], same: npt.NDArray[np.bool_], pos: npt.NDArray[np.intp]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """[start, end) of the run of equal values of the sorted ``out`` around each ``pos`` (``same``: out[1:] == out[:-1]).

    Steps outwards from every position at once, one case per step, so small
    tie groups cost a few O(len(pos)) passes and no binary search of the
    whole array (whose cache misses cost more); runs still growing after 16
    steps are finished by ``searchsorted``.
    """
    m = same.size
    start, end = pos.copy(), pos + 1
    # start moves left while same[start - 1]; end moves right while same[end - 1]
    active = np.flatnonzero(start > 0)
    for _ in range(16):
        if not active.size:
            break
        active = active[same[start[active] - 1]]
        start[active] -= 1
        active = active[start[active] > 0]
    if active.size:
        start[active] = np.searchsorted(out, out[pos[active]], side="left")
    active = np.flatnonzero(end <= m)
    for _ in range(16):
        if not active.size:
            break
        active = active[same[end[active] - 1]]
        end[active] += 1
        active = active[end[active] <= m]
    if active.size:
        end[active] = np.searchsorted(out, out[pos[active]], side="right")
    return start, end


def _restore_zero_signs(neg: npt.NDArray[np.float64], out: npt.NDArray[np.float64]) -> None:
    """Give the zeros of the sorted ``out`` their signs in insertion order (in place).

    Also a lone zero: :func:`_packed_order` and :func:`_few_values_order` drop the sign of -0.0.
    """
    lo, hi = np.searchsorted(out, 0.0, side="left"), np.searchsorted(out, 0.0, side="right")
    if hi > lo:
        out[lo:hi] = neg[neg == 0.0]


def _tie_order(
    neg: npt.NDArray[np.float64],
    correct: npt.NDArray[np.bool_],
    out: npt.NDArray[np.float64],
    differs: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """:func:`rank_order` with tie groups, given the sorted scores ``out`` (``differs``: out[1:] != out[:-1]).

    With few distinct scores (heavy ties), each case finds the rank of its
    tie group in a collision-free multiplicative hash table of the distinct
    scores (O(1) per case), and one ``np.sort`` of integer keys (group rank
    and insertion index packed into int32 when they fit, else int64) gives
    the stable order. Otherwise, or when no collision-free multiplier is
    found, a stable argsort.
    """
    n = neg.size
    starts = np.flatnonzero(differs) + 1
    starts = np.concatenate(([0], starts))
    bits = max(2 * int(starts.size).bit_length(), 4)  # at least D^2 slots: no collision is likely
    if bits <= _HASH_BITS and (1 << bits) <= 8 * n:
        shift = np.uint64(64 - bits)
        keys = (out[starts] + 0.0).view(np.uint64)  # + 0.0 turns -0.0 into 0.0: one group
        mult = _GOLDEN
        for _ in range(8):
            slot = (keys * mult) >> shift
            if np.unique(slot).size == starts.size:
                table = np.zeros(1 << bits, dtype=np.int32)
                table[slot] = np.arange(starts.size, dtype=np.int32)  # the group's rank among the groups
                group = table[((neg + 0.0).view(np.uint64) * mult) >> shift]
                index_bits = max(int(n - 1).bit_length(), 1)
                # key = group << index_bits | insertion index, in int32 when it fits (a sort twice as fast)
                dtype = np.int32 if starts.size <= 1 << (31 - index_bits) else np.int64
                key = group.astype(dtype)
                key <<= index_bits
                key |= np.arange(n, dtype=dtype)
                key.sort()
                key &= (1 << index_bits) - 1
                _restore_zero_signs(neg, out)
                return out, correct[key]
            mult = np.uint64((int(mult) + 0x632BE59BD9B4E01A) % 2**64)
    o = np.argsort(neg, kind="stable")
    return neg[o], correct[o]


def merge(
    old_neg: npt.NDArray[np.float64],
    old_cor: npt.NDArray[np.bool_],
    new_neg: npt.NDArray[np.float64],
    new_cor: npt.NDArray[np.bool_],
    old_w: npt.NDArray[np.float64] | None = None,
    new_w: npt.NDArray[np.float64] | None = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.float64] | None]:
    """Merge two sorted runs; on equal keys the old run comes first. O(n + k).

    The weights (both or neither) follow their cases.
    """
    n, k = old_neg.size, new_neg.size
    at = np.searchsorted(old_neg, new_neg, side="right") + np.arange(k)
    is_old = np.ones(n + k, dtype=bool)
    is_old[at] = False
    neg = np.empty(n + k, dtype=np.float64)
    cor = np.empty(n + k, dtype=bool)
    neg[at] = new_neg
    neg[is_old] = old_neg
    cor[at] = new_cor
    cor[is_old] = old_cor
    w = None
    if old_w is not None and new_w is not None:
        w = np.empty(n + k, dtype=np.float64)
        w[at] = new_w
        w[is_old] = old_w
    return neg, cor, w
