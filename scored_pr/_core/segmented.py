"""Every summary measure of many rankings at once: segmented operating points over one concatenated ranking.

The input is the cases of S rankings (segments) laid end to end, each segment
in rank order as :mod:`.points` expects it (negated scores ascending, ties in
the tie policy's order), with ``offsets`` (length S + 1) marking where each
segment starts and ends, and each segment's misses and negative misses
(unweighted cases only). One pass of cumulative counts over the whole array
gives every segment's operating points at once (a point per correct case
under ``ties="stable"``, per tie group holding a correct case under
``ties="grouped"``); every measure is then an elementwise expression over the
points followed by a per-segment reduction, so the cost is O(n) plus a few
numpy calls, whatever S is. Only the grouped interpolated ROC area (a convex
hull per segment) loops over the segments, inside numpy.

Each value equals what :func:`.points.operating_points` and the functions of
:mod:`.scalars` and :mod:`.curves` give for the segment alone, bit for bit:
the same elementwise float64 operations in the same order, per-segment sums
taken left to right (``np.bincount`` adds in index order, as
:func:`.points.seqsum` does), counts and the exact ROC numerators in int64.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from . import curves as C
from .points import BoolArray, FloatArray, IntArray
from .scalars import expected_reciprocal_rank, f_beta

__all__ = ["segment_group_summaries", "segment_summaries"]

#: Sweeps of the segmented hull before the segments are handed to the curves' own hull (as that one does).
SWEEPS = 64

_EXACT = 2**53  # int64 -> float64 conversions below this are exact, so one float division is correctly rounded


def _segsum(values: FloatArray, seg: IntArray, count: int) -> FloatArray:
    """Left-to-right sum of ``values`` per segment (0.0 for an empty one), as :func:`.points.seqsum`."""
    # (astype: with no point at all bincount returns int64 zeros)
    return np.bincount(seg, weights=values, minlength=count).astype(np.float64, copy=False)


def _segsum_int(values: IntArray, seg: npt.NDArray[np.signedinteger[Any]], count: int) -> IntArray:
    """Exact int64 sum of ``values`` per segment (``seg`` ascending)."""
    out = np.zeros(count, dtype=np.int64)
    if values.size:
        starts = np.flatnonzero(np.diff(seg, prepend=-1))
        out[seg[starts]] = np.add.reduceat(values, starts)
    return out


def _ratio(num: IntArray, den: IntArray) -> FloatArray:
    """num / den per element, correctly rounded as Python's int / int (NaN where den is 0)."""
    if num.size and (int(np.abs(num).max()) >= _EXACT or int(den.max()) >= _EXACT):  # pragma: no cover (huge counts)
        return np.array([n / d if d else math.nan for n, d in zip(num.tolist(), den.tolist())], dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def segment_summaries(
    neg_scores: FloatArray,
    correct: BoolArray,
    offsets: IntArray,
    misses: IntArray,
    negative_misses: IntArray,
    ties: str,
    ranks: tuple[int, ...],
) -> dict[str, npt.NDArray[Any]]:
    """The summary measures of every segment: ``{name: array of length S}``.

    Parameters
    ----------
    neg_scores, correct : arrays of length n
        The segments' cases end to end, each segment in rank order.
    offsets : int array of length S + 1
        Segment s is ``[offsets[s], offsets[s + 1])``; ascending, from 0 to n.
    misses, negative_misses : int arrays of length S
        Each segment's unreturned positive and negative references.
    ties : {"stable", "grouped"}
    ranks : tuple of int
        The ranks k of ``precision_at_<k>``.

    Returns
    -------
    dict
        ``num_cases``, ``num_positive_ref``, ``num_negative_ref``,
        ``num_misses`` (int64) and ``average_precision``,
        ``area_under_pr_curve``, ``area_under_pr_curve_interpolated``,
        ``area_under_roc_curve``, ``area_under_roc_curve_interpolated``,
        ``maximum_f_measure``, ``r_precision``, ``reciprocal_rank`` and
        ``precision_at_<k>`` (float64), each equal to the evaluator's query
        on the segment alone (NaN and 0.0 where it gives them).

    Notes
    -----
    O(n + P log P) time for n cases and P points, O(n) memory.

    Examples
    --------
    >>> import numpy as np
    >>> from scored_pr._core.segmented import segment_summaries
    >>> out = segment_summaries(np.array([-0.9, -0.2, -0.8, -0.1]), np.array([True, False, False, True]),
    ...                         np.array([0, 2, 4]), np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64),
    ...                         "grouped", (1,))
    >>> out["average_precision"].tolist(), out["area_under_roc_curve"].tolist()
    ([1.0, 0.5], [1.0, 0.0])
    """
    count = offsets.size - 1
    n_total = neg_scores.size
    first = offsets[:-1].astype(np.int64)
    sizes = np.diff(offsets).astype(np.int64)
    # tie groups: a group starts at a segment's first case or where the score changes
    if ties == "grouped":
        new_group = np.ones(n_total, dtype=bool)
        if n_total > 1:
            new_group[1:] = neg_scores[1:] != neg_scores[:-1]
        new_group[first[sizes > 0]] = True
        if not new_group.all():
            bounds = np.append(np.flatnonzero(new_group), n_total)  # every group's start, then n
            del new_group
            cc0 = np.zeros(n_total + 1, dtype=np.int64)  # cc0[i]: correct cases among positions < i
            np.cumsum(correct, out=cc0[1:])
            return _summaries(offsets.astype(np.int64), bounds, cc0[bounds], misses, negative_misses, True,
                              ranks, None)
    return _summaries(offsets.astype(np.int64), None, None, misses, negative_misses, ties == "grouped", ranks,
                      correct)


def segment_group_summaries(
    counts: IntArray,
    positives: IntArray,
    group_offsets: IntArray,
    misses: IntArray,
    negative_misses: IntArray,
    ranks: tuple[int, ...],
) -> dict[str, npt.NDArray[Any]]:
    """:func:`segment_summaries` under ``ties="grouped"`` from the segments' tie groups, not their cases.

    ``counts[g]`` and ``positives[g]`` are the cases and the correct cases of
    tie group g (cases of one score in one segment); each segment's groups in
    rank order (negated scores ascending), segment s's groups being
    ``[group_offsets[s], group_offsets[s + 1])``. The values are those
    :func:`segment_summaries` gives for the cases the groups stand for, bit
    for bit (its grouped pass reads the cases only at the groups' bounds).
    O(G + P log P) for G groups: for few distinct scores (rounded) G is far
    below the number of cases, and no sort is needed to make the groups
    (one ``np.bincount`` of (segment, score) codes).

    Examples
    --------
    >>> import numpy as np
    >>> from scored_pr._core.segmented import segment_group_summaries
    >>> z = np.zeros(2, dtype=np.int64)
    >>> out = segment_group_summaries(np.array([2, 1, 1]), np.array([1, 0, 1]), np.array([0, 2, 3]), z, z, (1,))
    >>> out["average_precision"].tolist(), out["area_under_roc_curve"].tolist()
    ([0.5, 1.0], [0.75, nan])
    """
    bounds = np.zeros(counts.size + 1, dtype=np.int64)
    np.cumsum(counts, out=bounds[1:])
    cc_bounds = np.zeros(counts.size + 1, dtype=np.int64)
    np.cumsum(positives, out=cc_bounds[1:])
    return _summaries(bounds[group_offsets], bounds, cc_bounds, misses, negative_misses, True, ranks, None)


def _summaries(
    offsets: IntArray, bounds: IntArray | None, cc: IntArray | None, misses: IntArray, negative_misses: IntArray,
    grouped: bool, ranks: tuple[int, ...], correct: BoolArray | None,
) -> dict[str, npt.NDArray[Any]]:
    """The measures from the cases' counts: ``bounds`` (tie groups of two or more cases somewhere) the groups'
    bounds then ``cc`` the correct cases before each bound; else (``cc`` None) ``correct`` the cases'
    correctness, whose correct positions give the count before any position by one search (no cumulative
    count of every case)."""
    count = offsets.size - 1
    sizes = np.diff(offsets)
    first = offsets[:-1]
    tied = bounds is not None
    c_idx: IntArray = np.zeros(0, dtype=np.int64)
    if bounds is not None:
        assert cc is not None
        at_bound = np.searchsorted(bounds, offsets)
        base = cc[at_bound[:-1]]
        tp_total = cc[at_bound[1:]] - base
        g_start, g_end = bounds[:-1], bounds[1:]
    else:
        assert correct is not None
        c_idx = np.flatnonzero(correct)  # the correct cases' positions, ascending
        at_offsets = np.searchsorted(c_idx, offsets)  # the correct cases before each segment's bounds
        base = at_offsets[:-1]
        tp_total = at_offsets[1:] - base
        g_start = g_end = np.zeros(0, dtype=np.int64)
    pos_ref = tp_total + misses
    neg_ref = sizes - tp_total + negative_misses

    # operating points: position of the point's cut-off (exclusive end), its segment, counts; without
    # ties every group is one case, so the grouped points are the stable ones (a point per correct case)
    # cc_end, cc_start: the correct cases before each point's end and start (read once at the bounds)
    if bounds is not None:
        assert cc is not None
        g_correct = np.diff(cc)
        has = g_correct > 0
        p_end, p_start, dtp = g_end[has], g_start[has], g_correct[has]
        cc_end, cc_start = cc[1:][has], cc[:-1][has]
        del g_correct, has
    else:
        p_end, p_start, dtp = c_idx + 1, c_idx, np.ones(c_idx.size, dtype=np.int64)
        cc_end = np.arange(1, c_idx.size + 1, dtype=np.int64)  # the j-th correct case ends with j of them
    # each point's segment: the points are in case order, so a segment's points are the run between two
    # searches of its bounds (no segment id per case)
    p_seg = np.repeat(np.arange(count, dtype=np.int64), np.diff(np.searchsorted(p_start, offsets)))
    p_first = first[p_seg]
    p_base = base[p_seg]
    ret = p_end - p_first
    tp = cc_end - p_base
    fp = ret - tp
    fp_before = (p_start - p_first) - (cc_start - p_base) if tied else fp
    del cc_end, p_base
    P = pos_ref[p_seg].astype(np.float64)
    N = neg_ref[p_seg]
    prec = tp / ret.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        rec = np.true_divide(tp, P)
    pt_new_seg = np.ones(p_seg.size, dtype=bool)
    pt_new_seg[1:] = p_seg[1:] != p_seg[:-1]

    out: dict[str, npt.NDArray[Any]] = {
        "num_cases": sizes, "num_positive_ref": pos_ref, "num_negative_ref": neg_ref, "num_misses": misses,
    }  # fmt: skip
    no_pos = pos_ref == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        ap = _segsum(prec * dtp, p_seg, count) / pos_ref
    out["average_precision"] = np.where(no_pos, np.nan, ap)

    def step_area(keep: BoolArray | None) -> FloatArray:
        r, p, s, new = (rec, prec, p_seg, pt_new_seg) if keep is None else (rec[keep], prec[keep], p_seg[keep], None)
        if new is None:
            new = np.ones(s.size, dtype=bool)
            new[1:] = s[1:] != s[:-1]
        prev = np.empty_like(r)
        prev[1:] = r[:-1]
        prev[new] = 0.0
        return _segsum((r - prev) * p, s, count)

    out["area_under_pr_curve"] = step_area(None)
    # interpolation: keep a point whose precision beats every later point's of its segment. The key is the
    # complex number (count - segment) + i precision: numpy orders complex numbers lexicographically (real
    # part, then imaginary), so one running maximum from the end stays inside a segment (an earlier segment's
    # real part is larger) and compares the precisions themselves, exactly, with no sort to rank them
    # (precisions are never NaN: every point returns a case)
    key = np.empty(prec.size, dtype=np.complex128)
    key.real = count - p_seg
    key.imag = prec
    suffix = np.maximum.accumulate(key[::-1])[::-1]
    beats = np.ones(key.size, dtype=bool)  # a segment's last point has no later one
    np.greater(key[:-1], suffix[1:], out=beats[:-1])
    beats[:-1] |= pt_new_seg[1:]
    del key, suffix
    out["area_under_pr_curve_interpolated"] = step_area(beats)

    # maximum F(1) over the points; 0.0 without points
    best = np.zeros(count, dtype=np.float64)
    if p_seg.size:
        with np.errstate(divide="ignore", invalid="ignore"):
            f = f_beta(rec, prec, 1.0)
        starts = np.flatnonzero(pt_new_seg)
        best[p_seg[starts]] = np.maximum(np.fmax.reduceat(f, starts), 0.0)
    out["maximum_f_measure"] = np.nan_to_num(best, nan=0.0)

    # ROC areas: exact integer numerators over 2 P N
    den = 2 * pos_ref * neg_ref
    if grouped:
        num = _segsum_int(dtp * (2 * N - fp_before - fp), p_seg, count)
        num += misses * negative_misses  # the bottom tie group: unreturned positives against unreturned negatives
    else:
        num = 2 * _segsum_int(N - fp, p_seg, count)
    out["area_under_roc_curve"] = _ratio(num, den)
    out["area_under_roc_curve_interpolated"] = (
        _grouped_hulls(rec, tp, fp, N, p_seg, pt_new_seg, pos_ref, neg_ref, tp_total, sizes, count)
        if grouped else _stable_pruned(tp, fp, N, p_seg, pt_new_seg, den, count)
    )  # fmt: skip

    # ranks: correct cases in the top k (an expected count when k cuts a tie group)
    def top(k: IntArray) -> tuple[IntArray, IntArray]:
        at = first + k
        den_k: np.ndarray = np.ones(count, dtype=np.int64)
        if not tied:  # (without ties no group is cut)
            return np.searchsorted(c_idx, at) - base, den_k
        if not g_start.size:  # no case at all: every k is 0
            return np.zeros(count, dtype=np.int64), den_k
        inside = k > 0
        last = np.where(inside, at - 1, 0)
        gid = np.maximum(np.searchsorted(g_start, last, side="right") - 1, 0)
        gs, ge = g_start[gid], g_end[gid]
        assert cc is not None
        cs, ce = cc[gid], cc[gid + 1]  # the correct cases before the group and up to its end
        cut = inside & (ge != at)
        size = ge - gs
        num_k = np.where(inside, ce - base, 0)  # not cut: the top k end with the group (k = 0: none)
        split = (cs - base) * size + (at - gs) * (ce - cs)
        return np.where(cut, split, num_k), np.where(cut, size, den_k)

    r_rank = np.minimum(pos_ref, sizes)
    num_r, den_r = top(r_rank)
    out["r_precision"] = _ratio(num_r, den_r * pos_ref)
    for k in ranks:
        ok = sizes >= k
        num_k, den_k = top(np.where(ok, k, 0))
        out[f"precision_at_{k}"] = np.where(ok, _ratio(num_k, den_k * k), np.nan)

    # reciprocal rank: 1 / rank of the first correct case; its expectation over a mixed first tie group
    rr = np.zeros(count, dtype=np.float64)
    if p_seg.size:
        starts = np.flatnonzero(pt_new_seg)
        s0 = p_seg[starts]
        if tied:  # (without ties the first group holding a correct case is that one case)
            g0 = p_start[starts] - first[s0]
            for i, (s, start, size, pos) in enumerate(zip(
                s0.tolist(), g0.tolist(), (p_end - p_start)[starts].tolist(), dtp[starts].tolist()
            )):  # fmt: skip
                rr[s] = 1.0 / (start + 1.0) if pos == size else expected_reciprocal_rank(start, size, pos)
        else:
            rr[s0] = 1.0 / (p_end[starts] - first[s0])
    out["reciprocal_rank"] = rr
    return out


def _stable_pruned(
    tp: IntArray, fp: IntArray, N: IntArray, p_seg: IntArray, new_seg: BoolArray, den: IntArray, count: int
) -> FloatArray:
    """LingPipe's interpolated ROC area per segment: the points not dominated by a later one, exact."""
    # rejection recall never rises along a segment, so a point is dominated iff the next one has its fp
    keep = np.ones(tp.size, dtype=bool)
    if tp.size > 1:
        keep[:-1] = (fp[1:] != fp[:-1]) | new_seg[1:]
    tp_k, fp_k, s_k = tp[keep], fp[keep], p_seg[keep]
    prev = np.empty_like(tp_k)
    prev[1:] = tp_k[:-1]
    if prev.size:
        first = np.ones(s_k.size, dtype=bool)
        first[1:] = s_k[1:] != s_k[:-1]
        prev[first] = 0
    num = _segsum_int((tp_k - prev) * 2 * (N[keep] - fp_k), s_k, count)
    return _ratio(num, den)


def _grouped_hulls(
    rec: FloatArray, tp: IntArray, fp: IntArray, N: IntArray, p_seg: IntArray, new_seg: BoolArray,
    pos_ref: IntArray, neg_ref: IntArray, tp_total: IntArray, sizes: IntArray, count: int,
) -> FloatArray:  # fmt: skip
    """The ROC convex hull's area per segment (grouped ties), as :func:`.curves.roc_convex_hull` gives it.

    Every segment's polyline (the origin, its points, the misses' bottom
    row ending at (N, P)) is swept at once as :func:`.curves.upper_hull`
    sweeps one: a vertex on or below the chord of its neighbours in its own
    segment is dropped, until none is. The cross products are of integer
    counts (below 2**26 they are exact in float64; the curves' own hull
    scales by powers of two, which changes no sign). A segment still
    shrinking after 64 sweeps is finished by the curves' hull.
    """
    both = (pos_ref > 0) & (neg_ref > 0)
    miss = both & (pos_ref > tp_total)
    segs = np.flatnonzero(both)
    pts = both[p_seg]
    # a point with the next point of its segment straight above it (same fp) is never a hull vertex
    # (the sweep would drop it whatever its left neighbour): leave those out from the start
    if p_seg.size > 1:
        pts[:-1] &= (fp[1:] != fp[:-1]) | new_seg[1:]
    # each segment's origin, its points (in order), then the misses' row, segment after segment: every
    # vertex's place computed from the counts (the points are already in segment order)
    pt_seg = p_seg[pts]
    per = np.bincount(pt_seg, minlength=count).astype(np.int64)
    block = np.where(both, 1 + per + miss, 0)
    at = np.zeros(count, dtype=np.int64)  # each segment's origin
    np.cumsum(block[:-1], out=at[1:])
    first_pt = np.zeros(count, dtype=np.int64)
    np.cumsum(per[:-1], out=first_pt[1:])
    place = at[pt_seg] + 1 + (np.arange(pt_seg.size, dtype=np.int64) - first_pt[pt_seg])
    total = int(block.sum())
    seg: npt.NDArray[np.signedinteger[Any]] = np.empty(total, dtype=np.int32 if count < 1 << 31 else np.int64)
    x = np.zeros(total, dtype=np.int64)
    y = np.zeros(total, dtype=np.int64)
    seg[at[segs]] = segs  # the origins: (0, 0)
    seg[place], x[place], y[place] = pt_seg, fp[pts], tp[pts]
    ends = np.flatnonzero(miss)
    last = at[ends] + 1 + per[ends]
    seg[last], x[last], y[last] = ends, neg_ref[miss], pos_ref[miss]
    xf, yf = x.astype(np.float64), y.astype(np.float64)
    del x, y
    # the vertices still in, compacted after each sweep (neighbours are then slices, not gathers); the counts
    # ride along as floats only (whole numbers below 2**53: converted back exactly at the end), and the
    # segment ids as 32-bit integers when they fit (three narrower arrays to compact per sweep, not five)
    hs = seg
    for _ in range(SWEEPS):
        if hs.size <= 2:
            break
        inner = (hs[:-2] == hs[1:-1]) & (hs[1:-1] == hs[2:])
        ax, ay = xf[:-2], yf[:-2]
        drop = inner & ((xf[1:-1] - ax) * (yf[2:] - ay) - (yf[1:-1] - ay) * (xf[2:] - ax) >= 0.0)
        if not drop.any():
            break
        keep = np.ones(hs.size, dtype=bool)
        np.logical_not(drop, out=keep[1:-1])
        hs, xf, yf = hs[keep], xf[keep], yf[keep]
    else:  # still shrinking after SWEEPS sweeps: the curves' own hull (sweeps, then a monotone chain)
        return _hull_loop(rec, tp, fp, N, p_seg, new_seg, pos_ref, neg_ref, tp_total, count)
    hx, hy = xf.astype(np.int64), yf.astype(np.int64)
    start = np.ones(hs.size, dtype=bool)
    start[1:] = hs[1:] != hs[:-1]  # the origins
    prev_x, prev_y = np.roll(hx, 1), np.roll(hy, 1)
    term = (hy - prev_y) * (2 * neg_ref[hs] - prev_x - hx)
    num = _segsum_int(np.where(start, 0, term), hs, count)
    return np.where(both, _ratio(num, 2 * pos_ref * neg_ref), np.nan)


def _hull_loop(
    rec: FloatArray, tp: IntArray, fp: IntArray, N: IntArray, p_seg: IntArray, new_seg: BoolArray,
    pos_ref: IntArray, neg_ref: IntArray, tp_total: IntArray, count: int,
) -> FloatArray:
    out = np.full(count, np.nan)
    bounds = np.append(np.flatnonzero(new_seg), p_seg.size)
    where = {int(s): (int(a), int(b)) for s, a, b in zip(p_seg[bounds[:-1]], bounds[:-1], bounds[1:])}
    with np.errstate(divide="ignore", invalid="ignore"):
        rr_all = 1.0 - fp / N.astype(np.float64)
    for s in range(count):
        p, n = int(pos_ref[s]), int(neg_ref[s])
        if not p or not n:
            continue
        a, b = where.get(s, (0, 0))
        r, rr_end = rec[a:b], rr_all[a:b]
        tps, fps = tp[a:b].astype(np.float64), fp[a:b].astype(np.float64)
        if p > int(tp_total[s]):  # misses: the bottom tie group, ending at (1, 0)
            r, rr_end = np.append(r, 1.0), np.append(rr_end, 0.0)
            tps, fps = np.append(tps, float(p)), np.append(fps, float(n))
        rows = C.RocRows(r, rr_end, rr_end, tps, fps, fps)
        out[s] = C.roc_rows_area_exact(C.roc_convex_hull(rows), p, n)
    return out
