"""Exact grouped-ties measures of a ranking cut into score ranges that live apart (Spark, Dask).

The cases are split by score into *buckets*: bucket 0 holds the highest
scores, and every case of one score falls in one bucket (the bucket is a
function of the score, :func:`bucket_of`), so no tie group spans two
buckets. Each bucket is evaluated where it lives, in two steps:

1. :func:`bucket_totals`: its counts (cases, correct cases, and the weights).
   The driver turns the totals of every bucket into offsets
   (:func:`plan`): the cases, true and false positives ranked above each
   bucket. What crosses to the driver is one row per bucket.
2. :func:`bucket_contributions`: given its offsets, the bucket sorts its own
   cases, forms its tie groups and computes its share of every measure
   (:class:`Contribution`): the sum of precision over its points (average
   precision), its steps of the PR and ROC areas, its best F, its vertices
   of the ROC convex hull, its undominated PR points, the true positives at
   the requested ranks that fall in it, the reciprocal rank if it holds the
   first correct case, and its points of the down-sampled curves.

:func:`combine` adds the contributions into the measures of
``ScoredPrecisionRecallEvaluation(ties="grouped")`` fed every case. Counts
stay integers: the unweighted ROC area is the same integer numerator over
``2 P N``, rounded once, so it is equal bit for bit; the float sums (AP, the
PR areas, weighted areas) are summed in another order than the evaluator's
left-to-right loop and agree to about 1e-15 relative. Every other value (max
F, precision at k, R-precision, reciprocal rank) is the same float operation
on the same integers, hence equal bit for bit.

Pure numpy; what the driver receives grows with the number of buckets, the
requested ranks and ``curve_points``, not with the cases (the undominated PR
points and the hull vertices are few: see :class:`Contribution`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from .curves import upper_hull
from .points import FloatArray, group_ends
from .scalars import f_beta

__all__ = [
    "BucketTotals", "Contribution", "Plan", "bucket_contributions", "bucket_of", "bucket_totals", "choose_bounds",
    "combine", "evaluate_blocks", "plan", "recall_steps",
]  # fmt: skip


# ----------------------------------------------------------------------------- buckets


def choose_bounds(sample: npt.ArrayLike, buckets: int) -> FloatArray:
    """Descending score bounds that cut a sample of scores into about ``buckets`` equal parts.

    Bucket ``b`` holds the scores ``s`` with ``bounds[b - 1] > s >= bounds[b]``
    (:func:`bucket_of`); bounds are distinct, so a score heavier than a
    bucket's share gets a bucket of its own and never spans two. At most
    ``buckets - 1`` bounds; none for an empty sample.
    """
    s = np.asarray(sample, dtype=np.float64)
    s = s[np.isfinite(s)] + 0.0  # -0.0 -> 0.0: one value
    if s.size == 0 or buckets <= 1:
        return np.zeros(0, dtype=np.float64)
    s = np.sort(s)[::-1]
    at = (np.arange(1, buckets) * s.size) // buckets
    bounds = np.unique(s[at])[::-1]
    return np.ascontiguousarray(bounds[bounds > s[-1]])  # a bound at the minimum leaves an empty last bucket


def bucket_of(scores: npt.ArrayLike, bounds: FloatArray) -> npt.NDArray[np.int64]:
    """The bucket of each score: the number of bounds strictly above it (0 for the highest scores).

    A function of the score's value (-0.0 and 0.0 alike), so tied cases share a bucket.
    """
    s = np.asarray(scores, dtype=np.float64) + 0.0
    # bounds descending; ascending copy: count of bounds > s = len - count of bounds <= s
    asc = bounds[::-1]
    return (bounds.size - np.searchsorted(asc, s, side="right")).astype(np.int64)


@dataclass(frozen=True)
class BucketTotals:
    """The counts of one bucket: cases, correct cases, and the class weights (None unweighted)."""

    rows: int
    pos: int
    wpos: float | None = None
    wneg: float | None = None


def bucket_totals(correct: npt.NDArray[np.bool_], weight: FloatArray | None = None) -> BucketTotals:
    """:class:`BucketTotals` of one bucket's cases."""
    rows, pos = int(correct.size), int(np.count_nonzero(correct))
    if weight is None:
        return BucketTotals(rows, pos)
    return BucketTotals(rows, pos, float(np.sum(weight[correct])), float(np.sum(weight[~correct])))


@dataclass(frozen=True)
class Plan:
    """What every bucket is told: the global counts, its offsets, and what to compute.

    ``rows_before[b]``, ``tp_before[b]`` and ``fp_before[b]`` are the cases,
    correct and incorrect cases (weights, when ``weighted``) ranked above
    bucket ``b``. ``ranks`` are the cut-offs (1 <= k <= num_cases) whose
    true positives are wanted; ``curve_points`` bounds the down-sampled
    curves.
    """

    num_cases: int
    num_pos: int
    num_neg: int
    pos_ref: int | float  #: recall's denominator: correct cases (weight) + misses
    neg_ref: int | float  #: the false positive rate's denominator
    misses: int
    weighted: bool
    rows_before: tuple[int, ...]
    tp_before: tuple[Any, ...]
    fp_before: tuple[Any, ...]
    first_pos_bucket: int  #: the bucket holding the first correct case (-1: none)
    ranks: tuple[int, ...]
    curve_points: int
    total_tp: int | float
    total_fp: int | float
    #: what each bucket chooses among its candidates (``partitioned_decisions.DecisionSpecs``), or None
    decisions: Any = None


def plan(
    totals: list[BucketTotals], misses: int = 0, *, weighted: bool = False, ranks: tuple[int, ...] = (),
    curve_points: int = 1000,
) -> Plan:
    """The offsets of every bucket (bucket order = rank order) from their totals.

    ``weighted``: the counts of the curves are weights (some weight is not 1).
    ``ranks`` beyond the number of cases are dropped (their precision is NaN).
    """
    rows = [t.rows for t in totals]
    pos = [t.pos for t in totals]
    neg = [r - p for r, p in zip(rows, pos)]
    rows_before = tuple(int(x) for x in np.cumsum([0, *rows[:-1]])) if totals else ()
    if weighted:
        wp = [float(t.wpos or 0.0) for t in totals]
        wn = [float(t.wneg or 0.0) for t in totals]
        tp_before = tuple(float(x) for x in np.cumsum([0.0, *wp[:-1]])) if totals else ()
        fp_before = tuple(float(x) for x in np.cumsum([0.0, *wn[:-1]])) if totals else ()
        total_tp: int | float = float(np.cumsum([0.0, *wp])[-1])
        total_fp: int | float = float(np.cumsum([0.0, *wn])[-1])
    else:
        tp_before = tuple(int(x) for x in np.cumsum([0, *pos[:-1]])) if totals else ()
        fp_before = tuple(int(x) for x in np.cumsum([0, *neg[:-1]])) if totals else ()
        total_tp, total_fp = sum(pos), sum(neg)
    num_cases = sum(rows)
    first = next((b for b, p in enumerate(pos) if p > 0), -1)
    return Plan(
        num_cases=num_cases, num_pos=sum(pos), num_neg=sum(neg), pos_ref=total_tp + misses, neg_ref=total_fp,
        misses=misses, weighted=weighted, rows_before=rows_before, tp_before=tp_before, fp_before=fp_before,
        first_pos_bucket=first, ranks=tuple(sorted({k for k in ranks if 1 <= k <= num_cases})),
        curve_points=curve_points, total_tp=total_tp, total_fp=total_fp,
    )  # fmt: skip


# ----------------------------------------------------------------------- one bucket


@dataclass
class Contribution:
    """One bucket's share of every measure (see :func:`bucket_contributions`).

    The lists of points (``hull``, ``envelope``, ``curve``) hold
    ``(tp, fp, score)`` rows in rank order, counts as float64 (exact for
    integers below 2**53). ``hull`` are the bucket's vertices of the upper
    hull of its ROC points (few: tens to thousands on real rankings),
    ``envelope`` its PR points whose precision beats every later point of the
    bucket (the interpolated PR curve keeps a prefix of them). The envelope
    can hold a tenth of the rows: an engine keeps it in the cluster and
    sends the driver only ``env_max`` (its first, highest precision); the
    driver answers with the highest precision of the later buckets and each
    bucket reduces its envelope to an :class:`EnvelopeShare`. ``at_rank``
    maps a rank to ``(num, den, ap_num)``: the true positives in the top k as
    the fraction num / den, and the precision sum over the top k (for
    AP@k).
    """

    bucket: int
    ap_sum: float = 0.0
    pr_area: float = 0.0
    roc_num: int = 0  #: unweighted: sum over its points of dtp * (2N - fp_before - fp), exact
    roc_area: float = 0.0  #: weighted: its trapezoids of the ROC area
    max_f: float = -math.inf
    points: int = 0
    rr: float | None = None
    hull: FloatArray = field(default_factory=lambda: np.zeros((0, 3)))
    envelope: FloatArray = field(default_factory=lambda: np.zeros((0, 3)))
    curve: FloatArray = field(default_factory=lambda: np.zeros((0, 3)))
    last: FloatArray | None = None  #: the bucket's last point (tp, fp, score), for the curve's end
    env_max: float = -math.inf  #: the highest precision of the bucket's points
    at_rank: dict[int, tuple[int, int, float]] = field(default_factory=dict)
    #: the bucket's choice for each decision request of the plan (``DecisionSpecs.bucket``), or None
    decisions: dict[Any, Any] | None = None


def _groups(
    neg: FloatArray, correct: npt.NDArray[np.bool_], weight: FloatArray | None
) -> tuple[FloatArray, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[np.int64]]:
    """(negated score, correct, incorrect, size) of every tie group, in rank order (weights when weighted)."""
    if weight is None:
        pos = np.sort(neg[correct])
        other = np.sort(neg[~correct])
        both = np.concatenate((pos, other))
        o = np.argsort(both, kind="stable")  # two sorted runs: timsort merges them in O(n)
        s = both[o]
        cor = o < pos.size
        w = None
    else:
        o = np.argsort(neg, kind="stable")
        s, cor, w = neg[o], correct[o], weight[o]
    ends = group_ends(s)
    starts = np.concatenate(([0], ends[:-1]))
    if w is None:
        cum = np.concatenate(([0], np.cumsum(cor, dtype=np.int64)))
        gp = cum[ends] - cum[starts]
        gn = (ends - starts) - gp
    else:
        cp = np.concatenate(([0.0], np.cumsum(np.where(cor, w, 0.0))))
        cn = np.concatenate(([0.0], np.cumsum(np.where(cor, 0.0, w))))
        gp = cp[ends] - cp[starts]
        gn = cn[ends] - cn[starts]
    return s[starts] if s.size else s, gp, gn, (ends - starts).astype(np.int64)


def bucket_contributions(
    bucket: int, neg: FloatArray, correct: npt.NDArray[np.bool_], weight: FloatArray | None, p: Plan
) -> Contribution:
    """The share of bucket ``bucket`` (its cases: negated scores, correct, weights or None) in every measure.

    O(n log n) for its n cases (one sort).
    """
    out = Contribution(bucket)
    if neg.size == 0:
        return out
    gneg, gp, gn, size = _groups(neg, correct, weight if p.weighted else None)
    tp0, fp0, rows0 = p.tp_before[bucket], p.fp_before[bucket], p.rows_before[bucket]
    if p.weighted:
        tp = tp0 + np.cumsum(gp)
        fp = fp0 + np.cumsum(gn)
        has = gp > 0.0
    else:
        tp = tp0 + np.cumsum(gp, dtype=np.int64)
        fp = fp0 + np.cumsum(gn, dtype=np.int64)
        has = gp > 0
    if p.decisions is not None:  # every tie group is a candidate threshold, with its global counts
        out.decisions = p.decisions.bucket(-gneg, tp, fp, p.pos_ref, p.neg_ref, p.weighted)
    fpb = fp - gn
    pts = np.flatnonzero(has)
    out.points = int(pts.size)
    ends_local = np.cumsum(size)
    if not p.weighted:
        _rank_queries(out, p, bucket, gp, size, ends_local, tp, fp, rows0, pts)
    if pts.size == 0:
        return out
    ptp, pfp, pfpb, pgp, pscore = tp[pts], fp[pts], fpb[pts], gp[pts], -gneg[pts]
    ftp, ffp = ptp.astype(np.float64), pfp.astype(np.float64)
    ret = ftp + ffp
    prec = ftp / ret
    out.ap_sum = float(np.sum(pgp * prec))
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.true_divide(ftp, np.float64(p.pos_ref))
        r_prev = np.concatenate(([np.float64(tp0) / np.float64(p.pos_ref)], r[:-1]))
        out.pr_area = float(np.sum((r - r_prev) * prec))
        f = f_beta(r, prec, 1.0)
    out.max_f = float(np.nanmax(f)) if not np.all(np.isnan(f)) else -math.inf
    rows3 = np.column_stack((ftp, ffp, pscore))
    if p.weighted:
        if p.neg_ref:
            rr_end = 1.0 - ffp / np.float64(p.neg_ref)
            rr_start = 1.0 - pfpb.astype(np.float64) / np.float64(p.neg_ref)
            out.roc_area = float(np.sum((r - r_prev) * ((rr_start + rr_end) / 2.0)))
    else:
        n2 = 2 * int(p.neg_ref)
        if 2 * int(p.pos_ref) * max(int(p.neg_ref), 1) < 2**62:
            out.roc_num = int(np.dot(pgp.astype(np.int64), (n2 - pfpb - pfp).astype(np.int64)))
        else:  # pragma: no cover (more than 2**31 cases)
            out.roc_num = sum(int(a) * (n2 - int(b) - int(c)) for a, b, c in zip(pgp, pfpb, pfp))
    hull = upper_hull(ffp, ftp)
    out.hull = rows3[hull]
    later = np.empty_like(prec)
    later[-1] = -np.inf
    if prec.size > 1:
        later[:-1] = np.maximum.accumulate(prec[:0:-1])[::-1]
    out.envelope = rows3[prec > later]
    out.env_max = float(prec.max())
    out.curve = rows3[_curve_picks(ptp, tp0, p)]
    out.last = rows3[-1]
    return out


def _curve_picks(ptp: npt.NDArray[Any], tp0: Any, p: Plan) -> npt.NDArray[np.intp]:
    """The points that first reach each recall step of 1 / curve_points: at most curve_points + 1 overall."""
    if not p.pos_ref:
        return np.zeros(0, dtype=np.intp)
    step = recall_steps(ptp, p)
    prev = np.concatenate((recall_steps([tp0], p), step[:-1]))
    return np.flatnonzero(step > prev)


def recall_steps(tp: npt.ArrayLike, p: Plan) -> FloatArray:
    """The recall step of 1 / curve_points that each true positive count (weight) reaches: floor(tp * m / P).

    tp * m is exact for counts, so the step is the correctly rounded one; with
    weights near float64's largest value tp * m would overflow, and the step is
    taken from the recall tp / P instead (one choice per plan, so that every
    bucket uses the same one).
    """
    t = np.asarray(tp, dtype=np.float64)
    m, P = p.curve_points, float(p.pos_ref)
    if math.isfinite(P * m):
        return np.floor(t * m / P)
    return np.floor(t / P * m)


def _rank_queries(
    out: Contribution, p: Plan, bucket: int, gp: npt.NDArray[Any], size: npt.NDArray[np.int64],
    ends_local: npt.NDArray[np.int64], tp: npt.NDArray[Any], fp: npt.NDArray[Any], rows0: int,
    pts: npt.NDArray[np.intp],
) -> None:
    """The true positives (and precision sums) at the requested ranks in this bucket; the reciprocal rank."""
    n = int(ends_local[-1])
    ks = [k for k in p.ranks if rows0 < k <= rows0 + n]
    if ks:
        ret = (tp + fp).astype(np.float64)
        wprec = np.where(gp > 0, gp * (tp.astype(np.float64) / ret), 0.0)
        csum = np.concatenate(([0.0], np.cumsum(wprec)))
        for k in ks:
            local = k - rows0
            g = int(np.searchsorted(ends_local, local, side="left"))  # the group holding rank `local`
            end = int(ends_local[g])
            start = end - int(size[g])
            tp_before = int(tp[g]) - int(gp[g])
            if end == local:
                num, den = int(tp[g]), 1
                ap = float(csum[g + 1])
            else:
                num, den = tp_before * int(size[g]) + (local - start) * int(gp[g]), int(size[g])
                ap = float(csum[g])
                if gp[g] > 0:
                    share = float(gp[g]) * (local - start) / (end - start)
                    ap += share * float(tp[g]) / float(rows0 + end)
            out.at_rank[k] = (num, den, ap)
    if bucket == p.first_pos_bucket and pts.size:
        g = int(pts[0])
        end = int(ends_local[g])
        start = rows0 + end - int(size[g])
        sz = int(size[g])
        pos = int(gp[g])
        negs = sz - pos
        j = np.arange(negs + 1, dtype=np.float64)
        stay = np.concatenate(([1.0], np.cumprod((negs - j[:-1]) / (sz - j[:-1]))))
        prob = stay * pos / (sz - j)
        out.rr = float(np.cumsum(prob / (start + j + 1.0))[-1])


# ----------------------------------------------------------------------------- combine


def combine(p: Plan, parts: list[Contribution], shares: list[EnvelopeShare] | None = None) -> dict[str, Any]:
    """Every measure of the ranking from the contributions of all its buckets (any order).

    Returns a dict: the counts, ``average_precision``, ``area_under_pr_curve``
    (and ``_interpolated``), ``area_under_roc_curve`` (and ``_interpolated``),
    ``maximum_f_measure``, ``reciprocal_rank``, ``tp_at`` (rank -> (num,
    den)), ``ap_at`` (rank -> precision sum over the top k), and the curves
    ``pr`` (rows recall, precision, score), ``pr_interpolated``, ``roc``,
    ``roc_interpolated`` as float64 arrays. ``shares``: the buckets'
    :class:`EnvelopeShare` (None: made here from the contributions' envelopes).
    """
    parts = sorted(parts, key=lambda c: c.bucket)
    P, N = p.pos_ref, p.neg_ref
    nan = math.nan
    out: dict[str, Any] = {
        "num_cases": p.num_cases, "num_positive_ref": p.num_pos + p.misses, "num_negative_ref": p.num_neg,
        "num_misses": p.misses, "weighted": p.weighted, "pos_ref": P, "neg_ref": N,
    }  # fmt: skip
    ap_sum = float(math.fsum(c.ap_sum for c in parts))
    if P == 0:
        out["average_precision"] = nan
    else:
        ap = ap_sum / P
        out["average_precision"] = min(1.0, ap) if p.weighted else ap
    out["area_under_pr_curve"] = float(math.fsum(c.pr_area for c in parts)) if any(c.points for c in parts) else 0.0
    best = max((c.max_f for c in parts), default=-math.inf)
    out["maximum_f_measure"] = float(max(best, 0.0)) if best != -math.inf else 0.0
    # interpolated PR: each bucket keeps the prefix of its envelope that beats every later bucket
    if shares is None:
        later = later_maxima(parts)
        shares = [envelope_share(c.bucket, c.envelope, later[c.bucket], p) for c in parts]
    area, rows_i = interpolated_pr(shares, p)
    out["area_under_pr_curve_interpolated"] = area
    out["pr_interpolated"] = _pr_rows(rows_i, P)
    # ROC
    misses_row = P > p.total_tp  # grouped ties: unreturned positives and negatives form the bottom tie group
    if P == 0 or N == 0:
        out["area_under_roc_curve"] = nan
        out["area_under_roc_curve_interpolated"] = nan
    else:
        if p.weighted:
            area = math.fsum(c.roc_area for c in parts)
            if misses_row:
                area += (1.0 - p.total_tp / P) * ((1.0 - p.total_fp / N) + 0.0) / 2.0
            out["area_under_roc_curve"] = float(area)
        else:
            num = sum(c.roc_num for c in parts)
            if misses_row:
                num += (int(P) - int(p.total_tp)) * (int(N) - int(p.total_fp))
            out["area_under_roc_curve"] = num / (2 * int(P) * int(N))  # int / int: correctly rounded
        out["area_under_roc_curve_interpolated"], out["roc_interpolated"] = _hull_area(p, parts, misses_row)
    out["reciprocal_rank"] = next((c.rr for c in parts if c.rr is not None), 0.0)
    tp_at: dict[int, tuple[int, int]] = {}
    ap_at: dict[int, float] = {}
    cum_ap = 0.0
    for c in parts:
        for k, (num, den, apk) in c.at_rank.items():
            tp_at[k] = (num, den)
            ap_at[k] = cum_ap + apk
        cum_ap += c.ap_sum
    out["tp_at"], out["ap_at"] = tp_at, ap_at
    # down-sampled curves: points of the exact curve (the first to reach each recall step, and the last)
    curve = [c.curve for c in parts if c.curve.shape[0]]
    last = [c.last for c in parts if c.last is not None]
    rows = np.concatenate(curve) if curve else np.zeros((0, 3))
    if last and (rows.shape[0] == 0 or not np.array_equal(rows[-1], last[-1])):
        rows = np.vstack((rows, last[-1]))
    out["pr"] = _pr_rows(rows, P)
    roc = _roc_rows(rows, P, N)
    if misses_row and roc.shape[0] >= 0 and P:
        roc = np.vstack((roc, [1.0, 0.0 if N else nan]))
    out["roc"] = roc
    out.setdefault("roc_interpolated", np.zeros((0, 2)))
    return out


@dataclass
class EnvelopeShare:
    """What one bucket's envelope adds to the interpolated PR curve, given the best precision after the bucket.

    ``kept`` rows of the envelope survive (a prefix: the envelope's
    precision falls along it); ``first`` and ``last`` are the first and last
    kept rows (tp, fp, score), ``inner`` the sum over the kept rows after the
    first of (r_i - r_{i-1}) * p_i, and ``curve`` the kept rows that first
    reach each recall step of 1 / curve_points.
    """

    bucket: int
    kept: int = 0
    first: FloatArray | None = None
    last: FloatArray | None = None
    inner: float = 0.0
    curve: FloatArray = field(default_factory=lambda: np.zeros((0, 3)))


def later_maxima(parts: list[Contribution]) -> dict[int, float]:
    """For each bucket, the highest precision of the points of every later bucket (-inf for the last)."""
    out: dict[int, float] = {}
    best = -math.inf
    for c in sorted(parts, key=lambda c: c.bucket, reverse=True):
        out[c.bucket] = best
        best = max(best, c.env_max)
    return out


def envelope_share(bucket: int, envelope: FloatArray, later: float, p: Plan) -> EnvelopeShare:
    """The part of a bucket's envelope (tp, fp, score rows) on the interpolated PR curve. O(len(envelope))."""
    out = EnvelopeShare(bucket)
    if envelope.shape[0] == 0:
        return out
    tp, fp = envelope[:, 0], envelope[:, 1]
    prec = tp / (tp + fp)
    kept = envelope[prec > later]
    out.kept = int(kept.shape[0])
    if not out.kept:
        return out
    out.first, out.last = kept[0], kept[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = kept[:, 0] / np.float64(p.pos_ref)
        kp = kept[:, 0] / (kept[:, 0] + kept[:, 1])
    out.inner = float(np.sum(np.diff(r) * kp[1:]))
    # the first kept row, and each kept row in a higher recall step than the row before it
    step = recall_steps(kept[:, 0], p)
    pick = np.concatenate(([True], step[1:] > step[:-1]))
    out.curve = kept[pick]
    return out


def interpolated_pr(shares: list[EnvelopeShare], p: Plan) -> tuple[float, FloatArray]:
    """The area under the interpolated PR curve and its rows (tp, fp, score), down-sampled to recall steps."""
    shares = sorted((s for s in shares if s.kept), key=lambda s: s.bucket)
    P = np.float64(p.pos_ref)
    terms = []
    r_prev = 0.0
    rows = []
    step_prev = -1.0
    for s in shares:
        assert s.first is not None and s.last is not None
        terms.append((s.first[0] / P - r_prev) * (s.first[0] / (s.first[0] + s.first[1])))
        terms.append(s.inner)
        r_prev = float(s.last[0] / P)
        for row in s.curve:  # the first kept row of each recall step, over all buckets
            step = float(recall_steps(row[0], p))
            if step > step_prev:
                rows.append(row)
                step_prev = step
    if shares:
        last = shares[-1].last
        assert last is not None
        if not rows or not np.array_equal(rows[-1], last):
            rows.append(last)
    area = float(math.fsum(terms)) if shares else 0.0
    return area, (np.vstack(rows) if rows else np.zeros((0, 3)))


def _pr_rows(rows: FloatArray, P: float) -> FloatArray:
    """(recall, precision, score) of (tp, fp, score) rows."""
    if rows.shape[0] == 0:
        return np.zeros((0, 3))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.column_stack((rows[:, 0] / np.float64(P), rows[:, 0] / (rows[:, 0] + rows[:, 1]), rows[:, 2]))


def _roc_rows(rows: FloatArray, P: float, N: float) -> FloatArray:
    if rows.shape[0] == 0:
        return np.zeros((0, 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.column_stack((rows[:, 0] / np.float64(P), 1.0 - rows[:, 1] / np.float64(N)))


def _hull_area(p: Plan, parts: list[Contribution], misses_row: bool) -> tuple[float, FloatArray]:
    """Area and rows (recall, rejection recall) of the ROC convex hull from every bucket's hull vertices."""
    P, N = p.pos_ref, p.neg_ref
    cand = [c.hull[:, :2] for c in parts if c.hull.shape[0]]
    pts = np.concatenate(cand) if cand else np.zeros((0, 2))
    if misses_row:
        pts = np.vstack((pts, [float(P), float(N)]))
    if pts.shape[0] == 0:
        return 0.0, np.zeros((0, 2))
    x = np.concatenate(([0.0], pts[:, 1]))
    y = np.concatenate(([0.0], pts[:, 0]))
    keep = upper_hull(x, y)[1:]
    tp, fp = y[keep], x[keep]
    fp_start = np.concatenate(([0.0], fp[:-1]))
    rows = np.column_stack((tp / np.float64(P), 1.0 - fp / np.float64(N)))
    if p.weighted:
        r = tp / np.float64(P)
        mid = ((1.0 - fp_start / np.float64(N)) + (1.0 - fp / np.float64(N))) / 2.0
        return float(math.fsum(np.diff(r, prepend=0.0) * mid)), rows
    ti, fi, fsi = tp.astype(np.int64), fp.astype(np.int64), fp_start.astype(np.int64)
    num = int(np.dot(np.diff(ti, prepend=0), 2 * int(N) - fsi - fi))
    return num / (2 * int(P) * int(N)), rows


# ----------------------------------------------------------------------- in one process


def evaluate_blocks(
    blocks: list[tuple[FloatArray, npt.NDArray[np.bool_], FloatArray | None]], misses: int = 0, *,
    buckets: int = 8, ranks: tuple[int, ...] = (), curve_points: int = 1000, decisions: Any = None,
) -> dict[str, Any]:
    """The whole protocol in one process over partitions ``(scores, correct, weights)``: for tests and as a model.

    ``decisions`` (``partitioned_decisions.DecisionSpecs``): each bucket's choices, reduced under ``"decisions"``.

    Bounds from all scores, each partition's cases split by bucket, totals,
    plan, contributions, combine: what an engine does with each step where
    the data lives.
    """
    scores = np.concatenate([b[0] for b in blocks]) if blocks else np.zeros(0)
    bounds = choose_bounds(scores, buckets)
    nb = bounds.size + 1
    per: list[list[tuple[FloatArray, npt.NDArray[np.bool_], FloatArray | None]]] = [[] for _ in range(nb)]
    weighted = any(w is not None and bool(np.any(w != 1.0)) for _, _, w in blocks)
    for s, c, w in blocks:
        b = bucket_of(s, bounds)
        for i in range(nb):
            m = b == i
            per[i].append((s[m], c[m], None if w is None else w[m]))
    cases = []
    for parts in per:
        s = np.concatenate([x[0] for x in parts]) if parts else np.zeros(0)
        c = np.concatenate([x[1] for x in parts]) if parts else np.zeros(0, bool)
        ws = [x[2] if x[2] is not None else np.ones(x[0].size) for x in parts]
        w = np.concatenate(ws) if (weighted and ws) else None
        cases.append((s, c, w))
    totals = [bucket_totals(c, w) for _, c, w in cases]
    pl = plan(totals, misses, weighted=weighted, ranks=ranks, curve_points=curve_points)
    if decisions is not None:
        pl = replace(pl, decisions=decisions)
    contribs = [bucket_contributions(i, -s, c, w, pl) for i, (s, c, w) in enumerate(cases)]
    out = combine(pl, contribs)
    if decisions is not None:
        from .partitioned_decisions import combine as choose  # it imports nothing of this module

        out["decisions"] = choose(decisions, contribs, float(pl.pos_ref), float(pl.neg_ref), weighted)
    return out
