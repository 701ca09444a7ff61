"""Operating points: the cut-offs of a ranking and the true/false positive counts there.

Nothing here keeps state, validates user input or imports sortedcontainers.
The input is always the same pair of arrays, in rank order:

``neg_scores``
    float64, the *negated* scores in ascending order, so rank 1 (the highest
    score) comes first; cases with equal scores are already in the order the
    tie policy wants (insertion order for the stable policy).
``correct``
    bool, whether the case at that rank is correct (a positive reference).

plus the reference counts ``num_positive_ref`` (correct cases + misses) and
``num_negative_ref`` (incorrect cases + negative misses).

One routine, :func:`operating_points`, turns these into the cut-offs at which
the curves have a point and the true/false positive counts there; every curve
(:mod:`.curves`), measure (:mod:`.measures`) and threshold query
(:mod:`.thresholds`) is derived from its result. Counts stay integers; ratios are
float64. Sums that LingPipe computes in a loop are computed with a sequential
cumulative sum (not numpy's pairwise ``sum``) so that the rounding is the same
as a left-to-right loop.

"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


def _compact(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Non-negative int64 counts stored as int32 when they fit (half the memory)."""
    if a.size and a[-1] < 2**31 - 1:
        return a.astype(np.int32)
    return a


class Points:
    """Operating points of a ranking: one per cut-off that adds a correct case.

    With ``ties="stable"`` there is one cut-off after every case, and a point
    after every correct case. With ``ties="grouped"`` there is one cut-off
    after every group of equal scores, and a point after every group that
    contains at least one correct case.

    With sample weights every count is a sum of weights (float64), and a
    point needs correct weight > 0 (a correct case of weight 0 adds no point).

    The fields read like arrays but only a compact core is kept, so that an
    evaluator can hold its points between queries cheaply: the ranks of the
    correct cases (stable) or the cut-off and true positive count of each
    point (grouped), as int32 when they fit; every other field is derived
    from it and the ranking's scores when read (O(P) or O(P log n), P points).
    Sample weights, and :func:`every_rank`, keep every field.

    Grouped points of scores with scattered ties (a few small tie groups,
    as float32 scores have) also keep ``_tied``, the indices of the few
    points whose tie group holds more than one case, and ``_tied_start``,
    the first rank of each one's group, and no true positive counts when
    every point adds one correct case: the other points read as untied ones
    do, and only those few are patched.
    """

    __slots__ = (
        "grouped", "total_tp", "total_fp", "neg_scores", "untied",
        "_idx", "_ret", "_tp", "_fp", "_fp_before", "_neg_score", "_tied", "_tied_start",
    )  # fmt: skip

    grouped: bool  #: whether cut-offs fall only at the ends of tie groups
    total_tp: int | float  #: correct cases (weight) returned
    total_fp: int | float  #: incorrect cases (weight) returned
    neg_scores: FloatArray  #: the ranking's negated scores (shared, not copied)
    untied: bool  #: no correct case shares its score with another case (grouped points are then the stable ones)

    def __init__(
        self,
        neg_scores: FloatArray,
        grouped: bool,
        total_tp: int | float,
        total_fp: int | float,
        *,
        correct_idx: npt.NDArray[Any] | None = None,
        retrieved: npt.NDArray[Any] | None = None,
        tp: npt.NDArray[Any] | None = None,
        fp: npt.NDArray[Any] | None = None,
        fp_before: npt.NDArray[Any] | None = None,
        neg_score: FloatArray | None = None,
        untied: bool = False,
        tied: IntArray | None = None,
        tied_start: IntArray | None = None,
    ) -> None:
        self.neg_scores, self.grouped, self.total_tp, self.total_fp = neg_scores, grouped, total_tp, total_fp
        self.untied, self._tied, self._tied_start = untied, tied, tied_start
        self._idx, self._ret, self._tp, self._fp = correct_idx, retrieved, tp, fp
        self._fp_before, self._neg_score = fp_before, neg_score

    @property
    def correct_idx(self) -> IntArray:
        """0-based ranks of the correct cases, ascending (stable and every-rank points only)."""
        if self._idx is None:
            raise AttributeError("grouped points keep no per-case ranks; use tp_through()")
        return self._idx.astype(np.int64, copy=False)

    @property
    def retrieved(self) -> npt.NDArray[Any]:
        """Cases (weight) at or above each point's cut-off (k)."""
        if self._ret is not None:
            return self._ret if self._ret.dtype.kind == "f" else self._ret.astype(np.int64, copy=False)
        return self.correct_idx + 1

    @property
    def tp(self) -> npt.NDArray[Any]:
        """Correct cases (weight) at or above each point's cut-off."""
        if self._tp is not None:
            return self._tp if self._tp.dtype.kind == "f" else self._tp.astype(np.int64, copy=False)
        return np.arange(1, self.size + 1, dtype=np.int64)

    @property
    def fp(self) -> npt.NDArray[Any]:
        """Incorrect cases (weight) at or above each point's cut-off."""
        if self._fp is not None:
            return self._fp
        return self.retrieved - self.tp

    @property
    def fp_before(self) -> npt.NDArray[Any]:
        """Incorrect cases (weight) strictly above each point's tie group."""
        if self._fp_before is not None:
            return self._fp_before
        if not self.grouped or self.untied:
            return self.fp
        if self._tied is not None:  # scattered ties: fp everywhere but at the few points of a tie group
            fp = self.fp  # a fresh array (no _fp is kept here)
            fp[self._tied] = self.tied_fp_before()
            return fp
        start = tie_group_edges(self.neg_scores, self.retrieved - 1, "left")
        tp = self.tp
        return start - np.concatenate(([0], tp[:-1])).astype(np.int64, copy=False)

    def tied_fp_before(self) -> IntArray:
        """``fp_before`` at the points ``_tied`` (scattered ties only). O(len(_tied))."""
        j, start = self._tied, self._tied_start
        assert j is not None and start is not None
        if self._tp is None:  # point i holds i + 1 correct cases
            return start - j
        return start - np.where(j > 0, self._tp[np.maximum(j - 1, 0)], 0).astype(np.int64)

    @property
    def neg_score(self) -> FloatArray:
        """Negated score of the last case above each point's cut-off."""
        if self._neg_score is not None:
            return self._neg_score
        return self.neg_scores[self.retrieved - 1]

    @property
    def unit_steps(self) -> bool:
        """Whether point i holds exactly i correct cases and the correct case ranks are kept (stable, or no ties)."""
        return self._tp is None and self._ret is None

    @property
    def unit_tp(self) -> bool:
        """Whether point i (from 1) holds exactly i correct cases: every point adds one correct case."""
        return self._tp is None

    @property
    def retrieved_raw(self) -> npt.NDArray[Any] | None:
        """The stored cut-offs as kept (int32, int64 or float64), or None when they are ``correct_idx + 1``."""
        return self._ret

    @property
    def tp_raw(self) -> npt.NDArray[Any] | None:
        """The stored true positive counts as kept, or None when point i holds i + 1 correct cases."""
        return self._tp

    @property
    def fp_raw(self) -> npt.NDArray[Any] | None:
        """The stored false positive counts (weighted and every-rank points), or None when derived."""
        return self._fp

    @property
    def tied(self) -> IntArray | None:
        """Indices of the points whose tie group holds more than one case (grouped scattered ties), or None."""
        return self._tied

    @property
    def correct_idx_raw(self) -> npt.NDArray[Any]:
        """The stored ranks of the correct cases (int32 or int64), without a conversion."""
        assert self._idx is not None
        return self._idx

    @property
    def size(self) -> int:
        """Number of points."""
        core = self._idx if self._ret is None else self._ret
        return 0 if core is None else int(core.size)

    def group_bounds(self, i: int) -> tuple[int, int]:
        """(start, end) ranks (0-based, end exclusive) of the tie group of rank ``i``. O(log n)."""
        neg = self.neg_scores
        v = neg[i]
        return int(np.searchsorted(neg, v, side="left")), int(np.searchsorted(neg, v, side="right"))

    def tp_through(self, k: int) -> int:
        """Correct cases among the top ``k`` (unweighted; grouped: ``k`` must end a tie group). O(log n)."""
        if not self.grouped or self.untied:
            idx = self._idx
            assert idx is not None
            if k >= 2**31 - 1:  # beyond an int32 core's values (and its dtype): the int64 ranks
                idx = idx.astype(np.int64, copy=False)
            # the key in the ranks' own dtype: numpy 2 searches an int32 array for a Python int by
            # converting the whole array to int64 (0.2 ms at 300,000 ranks, each precision_at)
            return int(np.searchsorted(idx, idx.dtype.type(k)))  # the stored ranks, without an int64 copy
        ret = self._ret
        assert ret is not None
        if ret.dtype.kind == "i" and k >= 2**31 - 1:  # pragma: no cover (beyond an int32 core's values)
            ret = ret.astype(np.int64, copy=False)
        i = int(np.searchsorted(ret, ret.dtype.type(k), side="right"))
        if self._tp is None:  # point i - 1 holds i correct cases
            return i
        return int(self._tp[i - 1]) if i else 0


def tie_group_edges(neg_scores: FloatArray, idx: IntArray, side: Literal["left", "right"]) -> IntArray:
    """Start (``side="left"``) or exclusive end (``"right"``) of the tie group of each rank in ``idx``.

    ``idx`` is ascending. A case whose neighbour on that side has another
    score is its own edge, found in O(1); only tied cases are searched
    (O(log n) each), so untied rankings cost O(len(idx)).
    """
    n = neg_scores.size
    idx = idx.astype(np.int64, copy=False)
    if idx.size == 0:
        return idx.copy()
    v = neg_scores[idx]
    if side == "right":
        out = idx + 1
        tied = neg_scores[np.minimum(out, n - 1)] == v
        tied &= out < n
    else:
        out = idx.copy()
        tied = neg_scores[np.maximum(out - 1, 0)] == v
        tied &= out > 0
    if tied.any():
        out[tied] = np.searchsorted(neg_scores, v[tied], side=side)
    return out


def side_scale(total: float) -> float:
    """The power of two that brings ``total`` > 0 into [0.5, 1); 1.0 for 0 (or a non-finite total).

    Multiplying weights by it is exact in binary floating point (unless a
    result is subnormal), so a measure computed from scaled weights is the
    unscaled one bit for bit, without overflow or underflow of products.
    """
    if not 0.0 < total < math.inf:
        return 1.0
    return math.ldexp(1.0, -math.frexp(total)[1])


def seqsum(values: FloatArray) -> float:
    """Left-to-right sum (the rounding of a plain loop); 0.0 when empty."""
    if values.size == 0:
        return 0.0
    return float(np.cumsum(values)[-1])


def group_ends(neg_scores: FloatArray) -> IntArray:
    """Exclusive end index of every run of equal scores (-0.0 equals 0.0)."""
    n = neg_scores.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    change = np.flatnonzero(neg_scores[1:] != neg_scores[:-1]) + 1
    return np.append(change, n).astype(np.int64, copy=False)


def class_weights(correct: BoolArray, weight: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Cumulative weight of correct and of incorrect cases, rank by rank.

    Every weighted count of the kernel is read from these two sums, so that
    totals and curve points agree to the last bit.
    """
    return np.cumsum(np.where(correct, weight, 0.0)), np.cumsum(np.where(correct, 0.0, weight))


def operating_points(
    neg_scores: FloatArray, correct: BoolArray, ties: str, weight: FloatArray | None = None, *, distinct: bool = False
) -> Points:
    """The kernel: cut-offs with a curve point and the counts there.

    Complexity O(n) for ``"stable"``, O(n + t log n) for ``"grouped"`` with t
    correct cases that share their score with another case. ``weight``
    (None: every case weighs 1) turns every count into a sum of weights.
    ``distinct=True`` says the caller knows no two scores are equal (the
    ranking's own scan, :func:`scored_pr._core.ranking.rank_order_ties`):
    the grouped points are then the untied ones, without a scan of the
    scores here.
    """
    n = neg_scores.size
    if weight is not None:
        return _weighted_points(neg_scores, correct, ties, weight)
    correct_idx = np.flatnonzero(correct)
    n_correct = correct_idx.size
    if ties == "stable":
        return Points(neg_scores, False, n_correct, n - n_correct, correct_idx=_compact(correct_idx))
    if distinct:  # known by the ranking: every case is its own group
        return Points(neg_scores, True, n_correct, n - n_correct, correct_idx=_compact(correct_idx), untied=True)
    # Grouped: the end of the tie group of every correct case; a point where that end changes.
    differs = neg_scores[1:] != neg_scores[:-1]
    groups = int(np.count_nonzero(differs)) + 1
    if groups == n:  # no ties: every case is its own group
        return Points(neg_scores, True, n_correct, n - n_correct, correct_idx=_compact(correct_idx), untied=True)
    if 4 * groups < n:  # heavy ties: look the few group ends up among the correct cases
        group_end = np.append(np.flatnonzero(differs) + 1, n)
        tp_end = np.searchsorted(correct_idx, group_end)
        has_point = np.diff(tp_end, prepend=0) > 0
        return Points(
            neg_scores, True, n_correct, n - n_correct, retrieved=_compact(group_end[has_point]), tp=_compact(tp_end[has_point])
        )
    # Scattered ties: a correct case alone in its group is its own point (as untied); only the
    # few correct cases with an equal neighbour are looked up (their group's end).
    starts = np.ones(n + 1, dtype=bool)  # starts[i]: case i starts a tie group (i = n: the end)
    starts[1:n] = differs
    alone = starts[:-1] & starts[1:]  # alone[i]: case i is a tie group of its own
    tied = np.flatnonzero(~np.take(alone, correct_idx))
    del alone
    if not tied.size:  # the ties are all among incorrect cases: the points are the untied ones
        return Points(neg_scores, True, n_correct, n - n_correct, correct_idx=_compact(correct_idx), untied=True)
    # built in the compact dtype (see _compact: every value is at most n), not converted afterwards
    dtype = np.int32 if n < 2**31 - 1 else np.int64
    retrieved = correct_idx.astype(dtype)
    np.add(retrieved, 1, out=retrieved)
    end = _group_edges(neg_scores, starts, correct_idx[tied], "right")
    retrieved[tied] = end
    # a point only at the last correct case of a group
    shared = end[1:] == end[:-1]
    if not shared.any():  # one correct case per group: point i holds i + 1 correct cases
        start = _group_edges(neg_scores, starts, correct_idx[tied], "left")
        return Points(neg_scores, True, n_correct, n - n_correct, retrieved=retrieved, tied=tied, tied_start=start)
    last = np.ones(n_correct, dtype=bool)
    dropped = tied[:-1][shared]  # correct cases followed by another of their group (few)
    last[dropped] = False
    keep = np.append(~shared, True)
    kept = tied[keep]
    start = _group_edges(neg_scores, starts, correct_idx[kept], "left")
    # boolean indexing, not np.compress: with few cases dropped the mask is dense, and numpy
    # copies runs of a dense boolean mask (0.2 ms at 300,000 cases) where compress gathers (0.5 ms)
    tp = np.arange(1, n_correct + 1, dtype=dtype)[last]
    # the kept tied cases' indices among the points: minus the dropped cases before each, which
    # (dropped and kept together being ``tied``, in order) is its place in tied minus its place in kept
    tied = kept - (np.flatnonzero(keep) - np.arange(kept.size))
    return Points(
        neg_scores, True, n_correct, n - n_correct,
        retrieved=retrieved[last], tp=tp, tied=tied, tied_start=start,
    )  # fmt: skip


def _group_edges(neg_scores: FloatArray, starts: BoolArray, idx: IntArray, side: Literal["left", "right"]) -> IntArray:
    """Start (``"left"``) or exclusive end (``"right"``) of the tie group of each rank in ``idx``.

    ``starts[i]`` tells whether rank i starts a tie group (``starts[n]`` is
    True). Steps from every rank at once, so small tie groups cost a few
    O(len(idx)) passes and no binary search of the whole ranking (whose
    cache misses cost more); groups longer than 16 are finished by
    ``searchsorted``.
    """
    edge, step = (idx + 1, 1) if side == "right" else (idx.copy(), -1)
    active = np.flatnonzero(~starts[edge])
    for _ in range(16):
        if not active.size:
            return edge
        edge[active] += step
        active = active[~starts[edge[active]]]
    if active.size:
        edge[active] = np.searchsorted(neg_scores, neg_scores[idx[active]], side=side)
    return edge


def _weighted_points(neg_scores: FloatArray, correct: BoolArray, ties: str, weight: FloatArray) -> Points:
    correct_idx = np.flatnonzero(correct).astype(np.int64, copy=False)
    cp, cn = class_weights(correct, weight)
    total_tp = float(cp[-1]) if cp.size else 0.0
    total_fp = float(cn[-1]) if cn.size else 0.0
    if ties == "stable":
        idx = correct_idx[weight[correct_idx] > 0.0]
        tp, fp = cp[idx], cn[idx]
        return Points(
            neg_scores, False, total_tp, total_fp,
            correct_idx=correct_idx, retrieved=tp + fp, tp=tp, fp=fp, fp_before=fp, neg_score=neg_scores[idx],
        )  # fmt: skip
    ends = group_ends(neg_scores)
    tp_end, fp_end = cp[ends - 1], cn[ends - 1]
    tp_start = np.concatenate(([0.0], tp_end[:-1]))
    fp_start = np.concatenate(([0.0], fp_end[:-1]))
    has_point = tp_end > tp_start
    tp, fp = tp_end[has_point], fp_end[has_point]
    last = ends[has_point] - 1
    return Points(
        neg_scores, True, total_tp, total_fp,
        retrieved=tp + fp, tp=tp, fp=fp, fp_before=fp_start[has_point], neg_score=neg_scores[last],
    )  # fmt: skip


def every_rank(neg_scores: FloatArray, correct: BoolArray) -> Points:
    """Points at every cut-off, after incorrect cases too, ties in the given order.

    Row k - 1 holds the counts over the top k cases, k = 1..n; ``correct_idx``
    is as for the stable policy, so the functions of
    :class:`Points` that take cut-offs (:func:`.measures.true_positives_at`, ...) apply
    unchanged. LingPipe 4.x draws its curves through these points. O(n).
    """
    retrieved = np.arange(1, correct.size + 1, dtype=np.int64)
    tp = np.cumsum(correct, dtype=np.int64)
    fp = retrieved - tp
    correct_idx = np.flatnonzero(correct).astype(np.int64, copy=False)
    n_correct = correct_idx.size
    return Points(
        neg_scores, False, n_correct, correct.size - n_correct,
        correct_idx=correct_idx, retrieved=retrieved, tp=tp, fp=fp, fp_before=fp, neg_score=neg_scores,
    )  # fmt: skip
