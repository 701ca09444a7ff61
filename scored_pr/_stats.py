"""Sampling uncertainty of ranking measures: DeLong, bootstrap and logit intervals.

Pure functions over class-wise score arrays (``pos``: scores of the correct
cases, ``neg``: scores of the incorrect ones). Higher scores mean "more likely
correct"; a tied correct/incorrect pair counts one half, as in pROC and
scikit-learn. Nothing here validates input: the public callers do.

References
----------
DeLong, DeLong & Clarke-Pearson (1988), Biometrics 44:837-845.
Sun & Xu (2014), IEEE Signal Processing Letters 21(11):1389-1393 (midrank
computation of the structural components in O(n log n)).
Boyd, Eng & Page (2013), ECML PKDD, "Area under the precision-recall curve:
point estimates and confidence intervals" (logit interval).
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

_NORMAL = NormalDist()


class Interval(NamedTuple):
    """A point estimate with a two-sided confidence interval.

    ``std_error`` and ``variance`` are NaN for methods without one (bootstrap
    percentile intervals report the resampling standard deviation as
    ``std_error``).
    """

    estimate: float
    low: float
    high: float
    level: float
    method: str
    std_error: float = math.nan
    variance: float = math.nan


class Comparison(NamedTuple):
    """Difference ``a - b`` between two measures, its interval and test.

    ``df`` is the Welch-type degrees of freedom of the unpaired DeLong test
    (NaN otherwise); ``statistic`` is Z (paired) or t (unpaired).
    """

    estimate_a: float
    estimate_b: float
    difference: float
    interval: Interval
    statistic: float
    p_value: float
    method: str
    df: float = math.nan


# ----------------------------------------------------------------- distributions


def normal_quantile(p: float) -> float:
    """Inverse standard normal CDF."""
    return _NORMAL.inv_cdf(p)


def normal_two_sided_p(z: float) -> float:
    """2 * P(Z > |z|) for a standard normal Z."""
    if math.isnan(z):
        return math.nan
    return math.erfc(abs(z) / math.sqrt(2.0))


def _betacf(a: float, b: float, x: float) -> float:
    # Continued fraction of the regularised incomplete beta function (modified
    # Lentz's method), from its standard definition.
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularised incomplete beta function."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """2 * P(T > |t|) for Student's t with ``df`` (real) degrees of freedom."""
    if math.isnan(t) or math.isnan(df):
        return math.nan
    if math.isinf(df):
        return normal_two_sided_p(t)
    return regularized_beta(df / (df + t * t), df / 2.0, 0.5)


# ----------------------------------------------------------------- DeLong


def midranks(x: FloatArray) -> FloatArray:
    """Ranks 1..n of ``x`` in ascending order, ties given their mean rank. O(n log n)."""
    n = x.size
    order = np.argsort(x, kind="stable")
    xs = x[order]
    starts = np.flatnonzero(np.r_[True, xs[1:] != xs[:-1]])
    ends = np.r_[starts[1:], n]
    # mean of ranks start+1 .. end (1-based) for every tie group
    group_rank = (starts + 1 + ends) / 2.0
    ranks = np.empty(n, dtype=np.float64)
    ranks[order] = np.repeat(group_rank, ends - starts)
    return ranks


def placements(pos: FloatArray, neg: FloatArray) -> tuple[float, FloatArray, FloatArray]:
    """AUC and the DeLong structural components (Sun & Xu's midrank form).

    ``v10[i]`` is the fraction of negatives ranked below positive ``i`` (ties
    one half), ``v01[j]`` the fraction of positives ranked above negative ``j``.
    """
    m, n = pos.size, neg.size
    tz = midranks(np.concatenate([pos, neg]))
    tx, ty = midranks(pos), midranks(neg)
    v10 = (tz[:m] - tx) / n
    v01 = 1.0 - (tz[m:] - ty) / m
    auc = float((tz[:m].sum() - m * (m + 1) / 2.0) / (m * n))
    return auc, v10, v01


def delong_variance(pos: FloatArray, neg: FloatArray) -> tuple[float, float]:
    """(AUC, DeLong variance of the AUC); variance NaN with fewer than 2 of a class."""
    if pos.size == 0 or neg.size == 0:
        return math.nan, math.nan
    auc, v10, v01 = placements(pos, neg)
    if pos.size < 2 or neg.size < 2:
        return auc, math.nan
    return auc, float(np.var(v10, ddof=1) / pos.size + np.var(v01, ddof=1) / neg.size)


def delong_interval(pos: FloatArray, neg: FloatArray, level: float) -> Interval:
    """Wald interval AUC +- z * sqrt(var_DeLong), clipped to [0, 1] (pROC's ``ci.auc``)."""
    auc, var = delong_variance(pos, neg)
    se = math.sqrt(var) if var >= 0 else math.nan
    z = normal_quantile(0.5 + level / 2.0)
    low, high = max(0.0, auc - z * se), min(1.0, auc + z * se)
    return Interval(auc, low, high, level, "delong", se, var)


def delong_paired(
    correct: npt.NDArray[np.bool_], scores_a: FloatArray, scores_b: FloatArray, level: float
) -> Comparison:
    """Paired DeLong test of AUC_a - AUC_b on the same cases (pROC ``roc.test(paired=TRUE)``)."""
    pa, na = scores_a[correct], scores_a[~correct]
    pb, nb = scores_b[correct], scores_b[~correct]
    m, n = pa.size, na.size
    auc_a, v10a, v01a = placements(pa, na)
    auc_b, v10b, v01b = placements(pb, nb)
    s10 = np.cov(np.vstack([v10a, v10b]), ddof=1)
    s01 = np.cov(np.vstack([v01a, v01b]), ddof=1)
    s = s10 / m + s01 / n
    var = float(s[0, 0] + s[1, 1] - 2.0 * s[0, 1])
    diff = auc_a - auc_b
    se = math.sqrt(var) if var > 0 else math.nan
    z = diff / se if var > 0 else math.nan
    q = normal_quantile(0.5 + level / 2.0)
    iv = Interval(diff, diff - q * se, diff + q * se, level, "delong", se, var)
    return Comparison(auc_a, auc_b, diff, iv, z, normal_two_sided_p(z), "delong")


def delong_unpaired(
    pos_a: FloatArray, neg_a: FloatArray, pos_b: FloatArray, neg_b: FloatArray, level: float
) -> Comparison:
    """Unpaired DeLong test (pROC ``roc.test(paired=FALSE, method="delong")``).

    t = (AUC_a - AUC_b) / sqrt(var_a + var_b) with Welch-Satterthwaite-type
    degrees of freedom as pROC computes them from the two DeLong variances and
    the total case counts N_a, N_b:
    df = (var_a + var_b)^2 / (var_a^2 / (N_a - 1) + var_b^2 / (N_b - 1)).
    """
    _, var_a = delong_variance(pos_a, neg_a)
    _, var_b = delong_variance(pos_b, neg_b)
    auc_a, auc_b = placements(pos_a, neg_a)[0], placements(pos_b, neg_b)[0]
    var = var_a + var_b
    n_a, n_b = pos_a.size + neg_a.size, pos_b.size + neg_b.size
    df = var * var / (var_a * var_a / (n_a - 1) + var_b * var_b / (n_b - 1))
    diff = auc_a - auc_b
    se = math.sqrt(var)
    stat = diff / se if se > 0 else math.nan
    q = normal_quantile(0.5 + level / 2.0)
    iv = Interval(diff, diff - q * se, diff + q * se, level, "delong", se, var)
    return Comparison(auc_a, auc_b, diff, iv, stat, t_two_sided_p(stat, df), "delong", df)


# ----------------------------------------------------------------- partial AUC


def partial_roc_auc(pos: FloatArray, neg: FloatArray, max_fpr: float, standardized: bool) -> float:
    """Area under the ROC curve for false positive rates in [0, max_fpr].

    The curve joins the operating points of the distinct scores by straight
    lines (a tie group is a diagonal segment, so a tied pair counts one half);
    the area up to ``max_fpr`` is the trapezoidal area with the curve's value
    at ``max_fpr`` interpolated linearly (pROC's uncorrected partial AUC).
    ``standardized`` applies McClish's correction
    0.5 * (1 + (A - max_fpr^2 / 2) / (max_fpr - max_fpr^2 / 2)), equal to
    scikit-learn's ``roc_auc_score(max_fpr=...)``. NaN without both classes.
    """
    m, n = pos.size, neg.size
    if m == 0 or n == 0:
        return math.nan
    s = np.concatenate([pos, neg])
    c = np.concatenate([np.ones(m, bool), np.zeros(n, bool)])
    order = np.argsort(-s, kind="stable")
    s, c = s[order], c[order]
    ends = np.r_[np.flatnonzero(s[1:] != s[:-1]), s.size - 1]
    tpr = np.r_[0.0, np.cumsum(c)[ends] / m]
    fpr = np.r_[0.0, np.cumsum(~c)[ends] / n]
    stop = int(np.searchsorted(fpr, max_fpr, side="right"))
    if stop < fpr.size:
        # linear interpolation of the segment crossing max_fpr
        x0, x1, y0, y1 = fpr[stop - 1], fpr[stop], tpr[stop - 1], tpr[stop]
        y = y0 + (y1 - y0) * (max_fpr - x0) / (x1 - x0)
        fpr = np.r_[fpr[:stop], max_fpr]
        tpr = np.r_[tpr[:stop], y]
    area = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2.0))
    if not standardized:
        return area
    min_area = 0.5 * max_fpr * max_fpr
    return 0.5 * (1.0 + (area - min_area) / (max_fpr - min_area))


# ----------------------------------------------------------------- logit AP


def logit_interval(ap: float, num_positive: int, level: float) -> Interval:
    """Boyd, Eng & Page (2013) logit interval for average precision.

    logit(AP) +- z / sqrt(n_pos * AP * (1 - AP)), mapped back with the
    logistic function; NaN bounds when AP is 0, 1 or NaN or n_pos is 0.
    """
    if num_positive == 0 or not (0.0 < ap < 1.0):
        return Interval(ap, math.nan, math.nan, level, "logit")
    eta = math.log(ap / (1.0 - ap))
    tau = 1.0 / math.sqrt(num_positive * ap * (1.0 - ap))
    z = normal_quantile(0.5 + level / 2.0)
    low = 1.0 / (1.0 + math.exp(-(eta - z * tau)))
    high = 1.0 / (1.0 + math.exp(-(eta + z * tau)))
    return Interval(ap, low, high, level, "logit")


# ----------------------------------------------------------------- bootstrap


def _group_sums(w: FloatArray, starts: npt.NDArray[np.intp]) -> FloatArray:
    return np.add.reduceat(w, starts, axis=1)


def weighted_roc_auc(weights: FloatArray, correct: npt.NDArray[np.bool_], starts: npt.NDArray[np.intp]) -> FloatArray:
    """ROC AUC per row of ``weights`` (rows: resamples; columns: cases sorted by ascending score).

    ``starts`` are the first indices of the tie groups. A tied pair counts one
    half. NaN for a row with zero total weight in a class.
    """
    p = _group_sums(weights * correct, starts)
    n = _group_sums(weights * ~correct, starts)
    n_below = np.cumsum(n, axis=1) - n
    num = (p * (n_below + 0.5 * n)).sum(axis=1)
    den = p.sum(axis=1) * n.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return num / den  # type: ignore[no-any-return]


def weighted_average_precision(
    weights: FloatArray, correct: npt.NDArray[np.bool_], starts: npt.NDArray[np.intp], returned_groups: int | None = None
) -> FloatArray:
    """Grouped-ties average precision per row (columns sorted by DESCENDING score).

    AP = sum over the first ``returned_groups`` tie groups (all by default) of
    (positive weight in the group) * precision after the group, over the total
    positive weight (scikit-learn's definition; positives in later groups,
    never returned, contribute zero precision).
    """
    p = _group_sums(weights * correct, starts)
    t = _group_sums(weights, starts)
    g = p.shape[1] if returned_groups is None else returned_groups
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = np.cumsum(p[:, :g], axis=1) / np.cumsum(t[:, :g], axis=1)
        return np.nansum(p[:, :g] * prec, axis=1) / p.sum(axis=1)  # type: ignore[no-any-return]


def _resample_counts(
    rng: np.random.Generator, idx: npt.NDArray[np.intp], rows: int, size: int
) -> FloatArray:
    # Draw len(idx) cases with replacement from ``idx`` for each row, return
    # the per-case counts as a (rows, size) matrix (one bincount for all rows).
    k = idx.size
    draws = idx[rng.integers(0, k, size=(rows, k))]
    flat = (draws + (np.arange(rows)[:, None] * size)).ravel()
    return np.bincount(flat, minlength=rows * size).reshape(rows, size).astype(np.float64)


def bootstrap_distribution(
    scores: FloatArray,
    correct: npt.NDArray[np.bool_],
    measure: str,
    n_resamples: int,
    seed: int | None,
    stratified: bool = True,
    n_unreturned: int = 0,
    chunk_cells: int = 4_000_000,
) -> FloatArray:
    """``n_resamples`` bootstrap replicates of ``measure`` ("roc_auc" or "average_precision").

    Each resample is a vector of case counts (multinomial: stratified by class
    by default, so every resample keeps the class sizes); the weighted measure
    is computed for a block of resamples at once in numpy. Reproducible:
    ``numpy.random.default_rng(seed)``. The ``n_unreturned`` lowest-scored
    cases were never returned: for average precision their positives add no
    precision (they must be tied only among themselves).
    """
    return paired_bootstrap_distribution(
        [scores], correct, measure, n_resamples, seed, stratified, [n_unreturned], chunk_cells
    )[0]


def paired_bootstrap_distribution(
    score_sets: list[FloatArray],
    correct: npt.NDArray[np.bool_],
    measure: str,
    n_resamples: int,
    seed: int | None,
    stratified: bool = True,
    n_unreturned: list[int] | None = None,
    chunk_cells: int = 4_000_000,
) -> FloatArray:
    """Replicates of ``measure`` for several score vectors on the SAME resampled cases.

    Returns shape (len(score_sets), n_resamples); row k uses ``score_sets[k]``.
    """
    rng = np.random.default_rng(seed)
    size = correct.size
    unret = n_unreturned or [0] * len(score_sets)
    prepared = []
    for scores, nu in zip(score_sets, unret):
        order = np.argsort(scores if measure == "roc_auc" else -scores, kind="stable")
        s = scores[order]
        starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]]).astype(np.intp)
        prepared.append((order, correct[order], starts, int(np.searchsorted(starts, size - nu))))
    pos_idx, neg_idx = np.flatnonzero(correct), np.flatnonzero(~correct)
    all_idx = np.arange(size)
    out = np.empty((len(score_sets), n_resamples), dtype=np.float64)
    block = max(1, chunk_cells // max(size, 1))
    for lo in range(0, n_resamples, block):
        rows = min(block, n_resamples - lo)
        if stratified:
            w = _resample_counts(rng, pos_idx, rows, size) + _resample_counts(rng, neg_idx, rows, size)
        else:
            w = _resample_counts(rng, all_idx, rows, size)
        for k, (order, c, starts, returned_groups) in enumerate(prepared):
            ws = w[:, order]
            if measure == "roc_auc":
                out[k, lo : lo + rows] = weighted_roc_auc(ws, c, starts)
            else:
                out[k, lo : lo + rows] = weighted_average_precision(ws, c, starts, returned_groups)
    return out


def bootstrap_comparison(
    estimate_a: float, estimate_b: float, reps_a: FloatArray, reps_b: FloatArray, level: float
) -> Comparison:
    """Difference a - b with a percentile interval of the replicate differences.

    The test statistic is D = (a - b) / sd(replicate differences), referred
    to the standard normal (pROC's bootstrap ``roc.test``).
    """
    d = reps_a - reps_b
    d = d[~np.isnan(d)]
    diff = estimate_a - estimate_b
    iv = percentile_interval(diff, d, level)
    sd = iv.std_error
    stat = diff / sd if sd > 0 else math.nan
    return Comparison(estimate_a, estimate_b, diff, iv, stat, normal_two_sided_p(stat), "bootstrap")


def percentile_interval(estimate: float, replicates: FloatArray, level: float) -> Interval:
    """Percentile bootstrap interval (NaN replicates, from one-class resamples, are dropped)."""
    r = replicates[~np.isnan(replicates)]
    if r.size == 0:
        return Interval(estimate, math.nan, math.nan, level, "bootstrap")
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(r, [alpha, 1.0 - alpha])
    return Interval(estimate, float(low), float(high), level, "bootstrap", float(np.std(r, ddof=1)) if r.size > 1 else math.nan)
