"""The split certification's ordering-half counts only where the half can find a candidate feasible.

The split certification (:func:`scored_pr._core.decisions.certify`) orders the candidates the
ordering half finds feasible (z > 0: every constraint's gap > 0). Its running counts at every
candidate cost a running sum over every case and a comparison at every candidate; most of the
candidates (the low thresholds, under a precision target) are surely infeasible, which their
blocks tell at once. The cases are cut into blocks of :data:`BLOCK`; the counts at a block's ends
bound every candidate whose end falls inside it (the counts never fall along the ranking), and a
block where even the most favourable corner of those bounds fails a constraint holds no feasible
candidate. The running counts, and the exact comparison of
:func:`~scored_pr._core.decisions._surely_feasible`, are then computed in the other blocks only: the
same feasible candidates with the same counts, from O(n) cheap passes (a table lookup, a sum per
block) and O(m) work for the m candidates in the blocks kept. Pure numpy.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, NamedTuple

import numpy as np
import numpy.typing as npt

from .binomial_tests import CONSTRAINTS, _sizes

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Cases per block: small enough that a block straddling the feasible region costs little, large
#: enough that the blocks' sums and bounds are a small fraction of a pass over the cases.
BLOCK = 64
#: The packed running counts hold TP in the high 32-bit word, FP in the low one (each below 2**31: no carry)
_LOW = np.int64(0xFFFFFFFF)


class KeptHalves(NamedTuple):
    """The ordering half's counts at the candidates it finds feasible, and its totals."""

    at: IntArray  #: the candidates the half finds feasible (ascending)
    tp: npt.NDArray[Any]  #: the half's TP at each of them (int64)
    fp: npt.NDArray[Any]  #: the half's FP at each of them (int64)
    pos: float  #: the half's positive reference count (its misses included)
    neg: float  #: the half's negative reference count (its negative misses included)
    count_at: Callable[[int], tuple[int, int]]  #: the half's (TP, FP) at any candidate


def _block_sums(step: npt.NDArray[np.uint8]) -> IntArray:
    """The sum of each block of :data:`BLOCK` bytes (each 0 or 1), without a pass per byte.

    A block is BLOCK / 8 words of 8 bytes: the words are added (each byte then holds at most
    BLOCK / 8, no carry), and the 8 bytes of the sum by one product, whose top byte is their sum
    (at most BLOCK < 256: no carry either).
    """
    words = step.view(np.uint64).reshape(-1, BLOCK // 8)
    total = words[:, 0].copy()
    for j in range(1, BLOCK // 8):
        total += words[:, j]
    total *= np.uint64(0x0101010101010101)
    total >>= np.uint64(56)
    return total.astype(np.int64)


def _unpack(packed: IntArray) -> tuple[IntArray, IntArray]:
    return packed >> 32, packed & _LOW


def kept_halves(subject_to: Mapping[str, float], ends: IntArray, correct: npt.NDArray[np.bool_],
                first: npt.NDArray[np.bool_], misses: float, negative_misses: float,
                feasible: Callable[..., IntArray]) -> KeptHalves | None:  # fmt: skip
    """The candidates the ordering half finds feasible, with its counts there; None where the blocks cannot tell.

    ``ends``: each candidate's number of ranked cases accepted (0 first, ascending); ``first``: each
    case's coin (True: the ordering half). Every constraint must have a target strictly between 0
    and 1 (else None: the caller counts every candidate). A candidate left out of ``at`` surely
    fails :func:`~scored_pr._core.decisions._surely_feasible`'s test: with (k, n) its constraint's
    successes and trials, and k_lo <= k <= k_hi, n_lo <= n <= n_hi the bounds of its block, a
    ">=" constraint needs k > fl(n t) >= fl(n_lo t) and a "<=" one fl(n t) > k with
    fl(n t) <= fl(n_hi t) (a float product is monotone in n), so k_hi <= fl(n_lo t), or
    fl(n_hi t) <= k_lo, rules out the whole block; k_lo > fl(n_hi t), or fl(n_lo t) > k_hi, for
    every constraint makes every candidate of the block feasible. ``feasible(subject_to, tp, fp,
    pos, neg)`` (the positions that pass) decides the rest, elementwise.
    """
    n = first.size
    if not subject_to or n == 0 or n >= 2**31 - 1 or any(not 0.0 < t < 1.0 for t in subject_to.values()):
        return None
    blocks = -(-n // BLOCK)
    # each case's TP step and FP step (in the half, correct / incorrect) as bytes, the last block
    # padded with no step; a block's steps are 8 words of 8 bytes, each word's bytes summed by one
    # multiplication (the byte sum lands in the top byte: at most 8, no carry)
    tp_step = np.zeros(blocks * BLOCK, dtype=np.uint8)
    fp_step = np.zeros(blocks * BLOCK, dtype=np.uint8)
    np.logical_and(first, correct, out=tp_step[:n].view(np.bool_))
    np.greater(first, correct, out=fp_step[:n].view(np.bool_))
    edge = np.zeros(blocks + 1, dtype=np.int64)  # the packed running count at each block's start
    edge[1:] = _block_sums(tp_step) << 32
    edge[1:] |= _block_sums(fp_step)
    np.cumsum(edge, out=edge)
    tp_e, fp_e = _unpack(edge)
    pos, neg = float(tp_e[-1]) + misses, float(fp_e[-1]) + negative_misses
    lo_tp, lo_fp, hi_tp, hi_fp = (v.astype(np.float64) for v in (tp_e[:-1], fp_e[:-1], tp_e[1:], fp_e[1:]))
    keep = np.ones(blocks, dtype=bool)  # a candidate in the block may be feasible
    sure = np.ones(blocks, dtype=bool)  # every candidate in the block is (the least favourable corner is)
    for key, target in subject_to.items():
        k_a, n_a = _sizes(key, lo_tp, lo_fp, pos, neg)
        k_b, n_b = _sizes(key, hi_tp, hi_fp, pos, neg)
        k_lo, k_hi = np.minimum(k_a, k_b), np.maximum(k_a, k_b)
        n_lo, n_hi = np.minimum(n_a, n_b), np.maximum(n_a, n_b)
        if CONSTRAINTS[key] == ">=":
            keep &= k_hi > n_lo * target
            sure &= k_lo > n_hi * target
        else:
            keep &= n_hi * target > k_lo
            sure &= n_lo * target > k_hi
    kept = np.flatnonzero(keep)
    # the packed steps, then the running count, inside the blocks kept (from each block's start)
    run = tp_step.reshape(blocks, BLOCK)[kept].astype(np.int64)
    run <<= 32
    run |= fp_step.reshape(blocks, BLOCK)[kept]
    np.cumsum(run, axis=1, out=run)
    run += edge[kept][:, None]
    # the candidates whose end falls in a kept block (end e in block (e - 1) // BLOCK), and where
    # their count sits in ``run``: row r holds block kept[r]
    if ends.size == n + 1:  # every case its own candidate: candidate j accepts j cases
        start = kept * BLOCK + 1
        stop = np.minimum(start + BLOCK, n + 1)
    else:
        start = np.searchsorted(ends, kept * BLOCK, side="right")
        stop = np.searchsorted(ends, kept * BLOCK + BLOCK, side="right")
    sizes = stop - start
    total = int(sizes.sum())
    if total + 1 > ends.size // 2:  # most candidates kept: counting every one is as cheap
        return None
    at = np.empty(total + 1, dtype=np.int64)
    at[0] = 0  # inf: accepts nothing, counts 0, always kept
    packed = np.empty(total + 1, dtype=np.int64)
    packed[0] = 0
    if ends.size == n + 1:  # each case of a kept row is a candidate, in row order: the rows as they are
        at[1:] = (kept[:, None] * BLOCK + np.arange(1, BLOCK + 1)).reshape(-1)[:total]
        packed[1:] = run.reshape(-1)[:total]  # only the last block has padding, and it is the last row
    else:
        first_of = np.cumsum(sizes) - sizes  # each row's first position among the kept candidates
        at[1:] = np.arange(total) + np.repeat(start - first_of, sizes)
        flat = ends[at[1:]] - 1 + np.repeat((np.arange(kept.size) - kept) * BLOCK, sizes)
        np.take(run.reshape(-1), flat, out=packed[1:])
    # the feasible ones: those of the blocks surely feasible, and where the test says so in the
    # others (and at inf); the test is ``feasible``'s, elementwise, on the counts of each
    undecided = np.empty(total + 1, dtype=bool)
    undecided[0] = True
    undecided[1:] = np.repeat(~sure[kept], sizes)
    check = np.flatnonzero(undecided)
    ok = ~undecided
    tp_c, fp_c = _unpack(packed[check])
    ok[check[feasible(subject_to, tp_c, fp_c, pos, neg)]] = True
    if not ok.all():
        at, packed = at[ok], packed[ok]
    tp, fp = _unpack(packed)

    def count_at(i: int) -> tuple[int, int]:
        e = int(ends[i])
        if e == 0:
            return 0, 0
        b = (e - 1) // BLOCK
        return int(edge[b] >> 32) + int(tp_step[b * BLOCK : e].sum()), int(edge[b] & _LOW) + int(fp_step[b * BLOCK : e].sum())

    return KeptHalves(at, tp, fp, pos, neg, count_at)
