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
from typing import Callable, NamedTuple

import numpy as np
import numpy.typing as npt

from . import curves as C
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

_NORMAL = NormalDist()


class Interval(NamedTuple):
    """A point estimate with a two-sided confidence interval.

    ``method`` is ``"delong"``, ``"logit"``, ``"bootstrap"`` (percentile) or
    ``"bca"``. ``std_error`` and ``variance`` are NaN for methods without one
    (bootstrap intervals, percentile and BCa, report the standard deviation
    of the replicates as ``std_error``). ``note`` is empty, or says why the
    bounds are NaN although the replicates exist (a BCa interval that is
    undefined for the data, e.g. an inverted ranking).
    """

    estimate: float
    low: float
    high: float
    level: float
    method: str
    std_error: float = math.nan
    variance: float = math.nan
    note: str = ""


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


def placements(
    pos: FloatArray, neg: FloatArray, pos_count: IntArray | None = None, neg_count: IntArray | None = None
) -> tuple[float, FloatArray, FloatArray]:
    """AUC and the DeLong structural components (Sun & Xu's midrank form).

    ``v10[i]`` is the fraction of negatives ranked below positive ``i`` (ties
    one half), ``v01[j]`` the fraction of positives ranked above negative ``j``.
    ``pos_count``/``neg_count`` give each score a multiplicity (a block of
    tied cases, e.g. the misses, stored once): the components are those of
    every case of the block, and m, n count cases. O((P + N) log(P + N)) in
    the number of distinct entries, whatever the multiplicities.
    """
    if pos_count is not None or neg_count is not None:
        return _placements_counted(pos, neg, _ones(pos_count, pos.size), _ones(neg_count, neg.size))
    m, n = pos.size, neg.size
    tz = midranks(np.concatenate([pos, neg]))
    tx, ty = midranks(pos), midranks(neg)
    # without one of the classes every quantity is 0/0: NaN, silently (degenerate states never warn)
    with np.errstate(invalid="ignore", divide="ignore"):
        v10 = (tz[:m] - tx) / n
        v01 = 1.0 - (tz[m:] - ty) / m
        auc = float(np.float64(tz[:m].sum() - m * (m + 1) / 2.0) / np.float64(m * n))
    return auc, v10, v01


def _ones(count: IntArray | None, size: int) -> IntArray:
    return np.ones(size, dtype=np.int64) if count is None else np.asarray(count, dtype=np.int64)


def _placements_counted(
    pos: FloatArray, neg: FloatArray, cp: IntArray, cn: IntArray
) -> tuple[float, FloatArray, FloatArray]:
    # placements() with multiplicities: cumulative case counts over the sorted
    # scores of the other class; with unit counts equal to the midrank form
    m, n = int(cp.sum()), int(cn.sum())
    order_n = np.argsort(neg, kind="stable")
    neg_s, cum_n = neg[order_n], np.r_[0, np.cumsum(cn[order_n])]
    lo, hi = np.searchsorted(neg_s, pos, "left"), np.searchsorted(neg_s, pos, "right")
    below_n = cum_n[lo] + 0.5 * (cum_n[hi] - cum_n[lo])  # negatives below positive i, ties one half
    order_p = np.argsort(pos, kind="stable")
    pos_s, cum_p = pos[order_p], np.r_[0, np.cumsum(cp[order_p])]
    lo, hi = np.searchsorted(pos_s, neg, "left"), np.searchsorted(pos_s, neg, "right")
    above_p = (m - cum_p[hi]) + 0.5 * (cum_p[hi] - cum_p[lo])  # positives above negative j, ties one half
    with np.errstate(invalid="ignore", divide="ignore"):
        v10 = below_n / np.float64(n)
        v01 = above_p / np.float64(m)
        auc = float(np.float64(np.dot(cp, below_n)) / np.float64(m * n))
    return auc, v10, v01


def delong_variance(
    pos: FloatArray, neg: FloatArray, pos_count: IntArray | None = None, neg_count: IntArray | None = None
) -> tuple[float, float]:
    """(AUC, DeLong variance of the AUC); variance NaN with fewer than 2 of a class.

    Optional multiplicities as in :func:`placements` (the variance is that of
    the expanded cases: weighted sums of squares over m - 1 and n - 1).
    """
    m = pos.size if pos_count is None else int(np.sum(pos_count))
    n = neg.size if neg_count is None else int(np.sum(neg_count))
    if m == 0 or n == 0:
        return math.nan, math.nan
    auc, v10, v01 = placements(pos, neg, pos_count, neg_count)
    if m < 2 or n < 2:
        return auc, math.nan
    if pos_count is None and neg_count is None:
        return auc, float(np.var(v10, ddof=1) / m + np.var(v01, ddof=1) / n)
    cp, cn = _ones(pos_count, pos.size), _ones(neg_count, neg.size)
    var10 = float(np.dot(cp, (v10 - auc) ** 2)) / (m - 1)
    var01 = float(np.dot(cn, (v01 - auc) ** 2)) / (n - 1)
    return auc, var10 / m + var01 / n


def delong_interval(
    pos: FloatArray, neg: FloatArray, level: float, pos_count: IntArray | None = None,
    neg_count: IntArray | None = None,
) -> Interval:
    """Wald interval AUC +- z * sqrt(var_DeLong), clipped to [0, 1] (pROC's ``ci.auc``)."""
    auc, var = delong_variance(pos, neg, pos_count, neg_count)
    se = math.sqrt(var) if var >= 0 else math.nan
    z = normal_quantile(0.5 + level / 2.0)
    low, high = max(0.0, auc - z * se), min(1.0, auc + z * se)
    return Interval(auc, low, high, level, "delong", se, var)


def _ieee_div(a: float, b: float) -> float:
    # a / b as R and IEEE 754 compute it: x/0 is +-inf, 0/0 and anything with NaN is NaN
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(np.float64(a) / np.float64(b))


def _ieee_sqrt(x: float) -> float:
    # sqrt as R computes it: NaN (not an exception) below 0
    return math.sqrt(x) if x >= 0.0 else math.nan


def _cross(x: FloatArray, y: FloatArray, k: int, count: IntArray | None = None) -> float:
    # sum(x * y) / (k - 1) as pROC writes its DeLong covariances (x, y centred on
    # the AUC): with one case the division is 0/0 (NaN) or x/0 (inf), not skipped;
    # ``count`` repeats each term (a block of tied cases stored once)
    return _ieee_div(math.fsum(x * y if count is None else count * x * y), k - 1)


def _total(x: FloatArray, count: IntArray | None) -> int:
    return x.size if count is None else int(np.sum(count))


def delong_paired(
    correct: npt.NDArray[np.bool_], scores_a: FloatArray, scores_b: FloatArray, level: float
) -> Comparison:
    """Paired DeLong test of AUC_a - AUC_b on the same cases (pROC ``roc.test(paired=TRUE)``).

    Z = (AUC_a - AUC_b) / sqrt(L S L'), S the covariance matrix of the two
    AUCs from the structural components (sums of products centred on each
    AUC, over m - 1 and n - 1), L = (1, -1), computed in pROC 1.18's order.
    Degenerate cases follow pROC exactly: with a zero variance and equal AUCs
    (identical models, one a monotone transform of the other, two perfect
    rankings) Z = 0 and p = 1 (pROC's special case); with a zero variance and
    different AUCs Z = +-inf and p = 0; with one case of a class the sums are
    divided by zero, giving NaN (pROC stops with an error there when the AUCs
    are equal; we return NaN). The interval is difference +- z_q * sqrt(var),
    a single point when var = 0.
    """
    pa, na = scores_a[correct], scores_a[~correct]
    pb, nb = scores_b[correct], scores_b[~correct]
    m, n = pa.size, na.size
    auc_a, v10a, v01a = placements(pa, na)
    auc_b, v10b, v01b = placements(pb, nb)
    xa, xb, ya, yb = v10a - auc_a, v10b - auc_b, v01a - auc_a, v01b - auc_b
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        sx = np.array([[_cross(xa, xa, m), _cross(xa, xb, m)], [_cross(xb, xa, m), _cross(xb, xb, m)]])
        sy = np.array([[_cross(ya, ya, n), _cross(ya, yb, n)], [_cross(yb, ya, n), _cross(yb, yb, n)]])
        sm = sx / np.float64(m) + sy / np.float64(n)
        # L S L' with L = (1, -1), in R's matrix-product order: (S11 - S21) - (S12 - S22)
        var = float((sm[0, 0] - sm[1, 0]) - (sm[0, 1] - sm[1, 1]))
    diff = auc_a - auc_b
    se = _ieee_sqrt(var)
    z = _ieee_div(diff, se)
    if math.isnan(z) and diff == 0.0 and se == 0.0:
        z = 0.0  # pROC: "no difference between the AUCs produces a NaN", reported as Z = 0
    q = normal_quantile(0.5 + level / 2.0)
    iv = Interval(diff, diff - q * se, diff + q * se, level, "delong", se, var)
    return Comparison(auc_a, auc_b, diff, iv, z, normal_two_sided_p(z), "delong")


def delong_unpaired(
    pos_a: FloatArray, neg_a: FloatArray, pos_b: FloatArray, neg_b: FloatArray, level: float,
    counts: tuple[IntArray, IntArray, IntArray, IntArray] | None = None,
) -> Comparison:
    """Unpaired DeLong test (pROC ``roc.test(paired=FALSE, method="delong")``).

    t = (AUC_a - AUC_b) / sqrt(var_a + var_b) with Welch-Satterthwaite-type
    degrees of freedom as pROC computes them from the two DeLong variances and
    the total case counts N_a, N_b:
    df = (var_a + var_b)^2 / (var_a^2 / (N_a - 1) + var_b^2 / (N_b - 1)).

    Degenerate cases are computed as pROC 1.18 computes them (IEEE
    arithmetic, never an exception): with both variances 0 (two perfect
    rankings) df is 0/0 and t is 0/0 or +-inf, so p is NaN; with one case of
    a class a variance is x/0 = inf (t = 0 or NaN, df and p NaN) or 0/0 =
    NaN; an evaluator without both classes (which pROC cannot represent)
    gives NaN. ``counts`` (optional) are the multiplicities of pos_a,
    neg_a, pos_b, neg_b (see :func:`placements`).
    """
    cpa, cna, cpb, cnb = counts if counts is not None else (None, None, None, None)
    auc_a, v10a, v01a = placements(pos_a, neg_a, cpa, cna)
    auc_b, v10b, v01b = placements(pos_b, neg_b, cpb, cnb)
    ma, na = _total(pos_a, cpa), _total(neg_a, cna)
    mb, nb = _total(pos_b, cpb), _total(neg_b, cnb)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        xa, ya, xb, yb = v10a - auc_a, v01a - auc_a, v10b - auc_b, v01b - auc_b
        var_a = _ieee_div(_cross(xa, xa, ma, cpa), ma) + _ieee_div(_cross(ya, ya, na, cna), na)
        var_b = _ieee_div(_cross(xb, xb, mb, cpb), mb) + _ieee_div(_cross(yb, yb, nb, cnb), nb)
        var = var_a + var_b
        n_a, n_b = ma + na, mb + nb
        df = _ieee_div(var * var, _ieee_div(var_a * var_a, n_a - 1) + _ieee_div(var_b * var_b, n_b - 1))
    diff = auc_a - auc_b
    se = _ieee_sqrt(var)
    stat = _ieee_div(diff, se)
    q = normal_quantile(0.5 + level / 2.0)
    iv = Interval(diff, diff - q * se, diff + q * se, level, "delong", se, var)
    return Comparison(auc_a, auc_b, diff, iv, stat, t_two_sided_p(stat, df), "delong", df)


# ----------------------------------------------------------------- partial AUC


# The point measure lives with the other measures in the kernel; the
# intervals use it from there and it stays importable here.
partial_roc_auc = C.partial_roc_auc


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
#
# A resample is a vector of case counts. Counts are drawn per class
# (stratified: every resample keeps the class sizes) or over all cases, as one
# bincount of uniform draws per resample, so that the resampled measure is an
# integer-weighted sum over the cases in rank order: no case is copied and no
# Python loop runs over cases or evaluators.
#
# Both measures are written over the positives in descending score order.
# For positive i, hi_p[i] is the number of positives scored >= s_i, hi_n[i]
# (lo_n[i]) the number of negatives scored >= s_i (> s_i). With Cp and Cn the
# cumulative counts of the resampled positives and negatives in descending
# order (a leading 0 column), and W_i the count of positive i:
#
#   ROC AUC = sum_i W_i * (2 N - Cn[hi_n[i]] - Cn[lo_n[i]]) / (2 P N)
#             (negatives below s_i plus one half of those tied with it)
#   AP      = sum_i W_i * Cp[hi_p[i]] / (Cp[hi_p[i]] + Cn[hi_n[i]]) / P
#             (precision at the end of i's tie group: grouped ties)
#
# with P, N the resampled class totals. The AUC numerator is an exact integer.
# For AP, positives that were never returned (the bottom ``n_unreturned``
# cases) contribute 0.


class Ranked(NamedTuple):
    """One score vector prepared for resampling (see the comment above).

    ``pos_perm`` / ``neg_perm`` map the descending-score order of a class to
    the case order in which counts are drawn (None: the same order).
    """

    pos_perm: npt.NDArray[np.intp] | None
    neg_perm: npt.NDArray[np.intp] | None
    hi_p: npt.NDArray[np.intp] | None  # None: no two positives tied (hi_p[i] = i + 1)
    hi_n: npt.NDArray[np.intp]
    lo_n: npt.NDArray[np.intp]
    returned_pos: int


def rank_positions(
    scores: FloatArray, correct: npt.NDArray[np.bool_], n_unreturned: int = 0,
    pos_cases: npt.NDArray[np.intp] | None = None, neg_cases: npt.NDArray[np.intp] | None = None,
) -> tuple[Ranked, npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Prepare ``scores`` for :func:`resampled_measure`.

    Returns the :class:`Ranked` arrays and the case indices of the positives
    and negatives in the order counts are drawn: ``pos_cases``/``neg_cases``
    when given (a shared order for paired resampling), else descending score
    order. The ``n_unreturned`` lowest-scored cases were never returned (they
    must be tied only among themselves).
    """
    pos_sorted = np.flatnonzero(correct)
    neg_sorted = np.flatnonzero(~correct)
    pos_sorted = pos_sorted[np.argsort(-scores[pos_sorted], kind="stable")]
    neg_sorted = neg_sorted[np.argsort(-scores[neg_sorted], kind="stable")]
    sp, sn = scores[pos_sorted], scores[neg_sorted]
    # descending order: searchsorted on the negated (ascending) scores
    hi_p = np.searchsorted(-sp, -sp, side="right").astype(np.intp)
    hi_n = np.searchsorted(-sn, -sp, side="right").astype(np.intp)
    lo_n = np.searchsorted(-sn, -sp, side="left").astype(np.intp)
    if np.array_equal(lo_n, hi_n):
        lo_n = hi_n  # the same object: resampled_measure skips the second lookup
    if n_unreturned:
        cut = np.sort(scores)[n_unreturned - 1]  # the unreturned cases' (tied) score
        returned_pos = int(np.count_nonzero(sp > cut))
    else:
        returned_pos = sp.size

    def perm(order: npt.NDArray[np.intp], cases: npt.NDArray[np.intp] | None) -> npt.NDArray[np.intp] | None:
        if cases is None or np.array_equal(cases, order):
            return None
        where = np.empty(correct.size, dtype=np.intp)
        where[cases] = np.arange(cases.size)
        return where[order]

    distinct = bool(np.all(hi_p == np.arange(1, sp.size + 1)))
    ranked = Ranked(
        perm(pos_sorted, pos_cases), perm(neg_sorted, neg_cases), None if distinct else hi_p, hi_n, lo_n, returned_pos
    )
    return ranked, (pos_sorted if pos_cases is None else pos_cases), (neg_sorted if neg_cases is None else neg_cases)


def resampled_measure(
    measure: str, ranked: Ranked, w_pos: npt.NDArray[np.int64], w_neg: npt.NDArray[np.int64]
) -> FloatArray:
    """``measure`` ("roc_auc" or "average_precision") for each row of case counts.

    ``w_pos`` (rows, P) and ``w_neg`` (rows, N) are the counts of the
    positives and negatives in the order of :func:`rank_positions`. NaN for a
    row without a positive (or, for ROC AUC, without a negative).
    """
    if ranked.pos_perm is not None:
        w_pos = w_pos[:, ranked.pos_perm]
    if ranked.neg_perm is not None:
        w_neg = w_neg[:, ranked.neg_perm]
    rows = w_pos.shape[0]
    cn = np.zeros((rows, w_neg.shape[1] + 1), dtype=np.int64)
    np.cumsum(w_neg, axis=1, out=cn[:, 1:])
    total_p = w_pos.sum(axis=1)
    # np.take is about twice as fast as fancy indexing along axis 1
    above_n = np.take(cn, ranked.hi_n, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        if measure == "roc_auc":
            total_n = cn[:, -1]
            if ranked.lo_n is ranked.hi_n:  # no positive tied with a negative
                below2 = 2 * (total_n[:, None] - above_n)
            else:
                below2 = 2 * total_n[:, None] - above_n - np.take(cn, ranked.lo_n, axis=1)
            num2 = np.einsum("ij,ij->i", w_pos, below2)
            return num2 / (2.0 * total_p * total_n)  # type: ignore[no-any-return]
        k = ranked.returned_pos
        cp = np.cumsum(w_pos[:, :k], axis=1)
        tp = cp if ranked.hi_p is None else np.take(np.c_[np.zeros(rows, np.int64), cp], ranked.hi_p[:k], axis=1)
        tot = tp + above_n[:, :k]
        prec = np.divide(tp, tot, out=np.zeros(tp.shape), where=tot > 0)
        return np.einsum("ij,ij->i", w_pos[:, :k], prec) / total_p  # type: ignore[no-any-return]


def _counts(rng: np.random.Generator, k: int, rows: int) -> npt.NDArray[np.int64]:
    # k draws with replacement among k cases, for each row: the case counts.
    # One bincount per row keeps the counted slice in cache (a flat bincount
    # over many rows is about 1.5x slower); below 2,000 cases the per-call
    # overhead dominates, so rows are counted in groups of ~256k cells.
    draws = rng.integers(0, k, size=(rows, k))
    out = np.empty((rows, k), dtype=np.int64)
    if k >= 2000:
        for r in range(rows):
            out[r] = np.bincount(draws[r], minlength=k)
        return out
    sub = max(1, 262_144 // max(k, 1))
    for r0 in range(0, rows, sub):
        r1 = min(rows, r0 + sub)
        flat = (draws[r0:r1] + np.arange(r1 - r0)[:, None] * k).ravel()
        out[r0:r1] = np.bincount(flat, minlength=(r1 - r0) * k).reshape(r1 - r0, k)
    return out


def draw(rng: np.random.Generator, mult: IntArray | None, rows: int) -> IntArray:
    """Bootstrap counts of the entries of one stratum, for ``rows`` resamples.

    ``mult[e]`` is how many (tied, interchangeable) cases entry ``e`` stands
    for; a resample draws sum(mult) cases with replacement. Unit entries are
    drawn as by :func:`_counts` (the same random stream when every count is 1);
    the few blocks (e.g. the misses) get their share of the draws from one
    multinomial per resample, and the rest of the draws fall on the unit
    entries uniformly, which is the same distribution as drawing every case
    of a block separately, in O(1) per block instead of O(block size).
    """
    k = 0 if mult is None else mult.size
    if mult is None or bool(np.all(mult == 1)):
        return _counts(rng, k if mult is not None else 0, rows)
    big = np.flatnonzero(mult != 1)
    unit = np.flatnonzero(mult == 1)
    total = int(mult.sum())
    shares = np.r_[mult[big], unit.size].astype(np.float64) / total
    drawn = rng.multinomial(total, shares, size=rows)  # (rows, blocks + 1): the blocks, then all unit entries
    out = np.zeros((rows, k), dtype=np.int64)
    out[:, big] = drawn[:, :-1]
    rest = drawn[:, -1]
    if unit.size and rest.any():
        # the unit entries' draws of every row in one flat bincount (row r's draws offset by r * unit.size)
        flat = rng.integers(0, unit.size, size=int(rest.sum())) + np.repeat(np.arange(rows) * unit.size, rest)
        out[:, unit] = np.bincount(flat, minlength=rows * unit.size).reshape(rows, unit.size)
    return out


def paired_bootstrap_distribution(
    score_sets: list[FloatArray],
    correct: npt.NDArray[np.bool_],
    measure: str,
    n_resamples: int,
    seed: int | None,
    stratified: bool = True,
    n_unreturned: list[int] | None = None,
    chunk_cells: int = 4_000_000,
    counts: IntArray | None = None,
    progress: Callable[[int], None] | None = None,
) -> FloatArray:
    """Replicates of ``measure`` for several score vectors on the SAME resampled cases.

    Returns shape (len(score_sets), n_resamples); row k uses ``score_sets[k]``.
    Reproducible: ``numpy.random.default_rng(seed)``; stratified by class by
    default. ``counts`` (optional) gives each entry a multiplicity (see
    :func:`draw`: the misses are one entry, however many). O(n_resamples *
    entries) time, O(chunk_cells) memory. ``progress`` is called with the
    number of resamples done after every block of them.
    """
    rng = np.random.default_rng(seed)
    unret = n_unreturned or [0] * len(score_sets)
    first, pos_cases, neg_cases = rank_positions(score_sets[0], correct, unret[0])
    prepared = [first] + [rank_positions(s, correct, u, pos_cases, neg_cases)[0] for s, u in zip(score_sets[1:], unret[1:])]
    m, n = pos_cases.size, neg_cases.size
    c_pos = None if counts is None else counts[pos_cases]
    c_neg = None if counts is None else counts[neg_cases]
    c_all = None if counts is None else np.r_[c_pos, c_neg]
    out = np.empty((len(score_sets), n_resamples), dtype=np.float64)
    block = max(1, chunk_cells // max(m + n, 1))
    for lo in range(0, n_resamples, block):
        rows = min(block, n_resamples - lo)
        if stratified:
            if counts is None:
                w_pos, w_neg = _counts(rng, m, rows), _counts(rng, n, rows)
            else:
                w_pos, w_neg = draw(rng, c_pos, rows), draw(rng, c_neg, rows)
        else:
            # cases in the order positives, then negatives
            w = _counts(rng, m + n, rows) if counts is None else draw(rng, c_all, rows)
            w_pos, w_neg = w[:, :m], w[:, m:]
        for k, ranked in enumerate(prepared):
            out[k, lo : lo + rows] = resampled_measure(measure, ranked, w_pos, w_neg)
        if progress is not None:
            progress(lo + rows)
    return out


def bootstrap_distribution(
    scores: FloatArray,
    correct: npt.NDArray[np.bool_],
    measure: str,
    n_resamples: int,
    seed: int | None,
    stratified: bool = True,
    n_unreturned: int = 0,
    chunk_cells: int = 4_000_000,
    counts: IntArray | None = None,
    progress: Callable[[int], None] | None = None,
) -> FloatArray:
    """``n_resamples`` bootstrap replicates of ``measure`` ("roc_auc" or "average_precision").

    See :func:`paired_bootstrap_distribution`; the ``n_unreturned``
    lowest-scored entries were never returned (for average precision their
    positives add no precision).
    """
    return paired_bootstrap_distribution(
        [scores], correct, measure, n_resamples, seed, stratified, [n_unreturned], chunk_cells, counts, progress
    )[0]


# ----------------------------------------------------------------- jackknife and BCa

#: Leave-one-out for at most this many blocks per class; larger classes are
#: split into this many interleaved blocks (grouped jackknife).
JACKKNIFE_BLOCKS = 200


def jackknife_blocks(size: int, max_blocks: int = JACKKNIFE_BLOCKS) -> npt.NDArray[np.intp]:
    """Block number of each of ``size`` cases (in rank order): one case per block up
    to ``max_blocks`` cases, else cases dealt round-robin into ``max_blocks`` blocks,
    so that every block spans the whole ranking."""
    return (np.arange(size) % max(1, min(size, max_blocks))).astype(np.intp)


def jackknife_roc_auc(
    scores: FloatArray, correct: npt.NDArray[np.bool_], counts: IntArray | None = None
) -> tuple[FloatArray, FloatArray]:
    """Leave-one-out ROC AUC of every positive and every negative case, exactly.

    From the structural components: AUC without positive i is
    (m * AUC - v10[i]) / (m - 1), without negative j (n * AUC - v01[j]) / (n - 1)
    (NaN when the class has one case). Returns (positives, negatives) in input
    order; with ``counts`` (multiplicities) one value per entry, the value of
    each of its cases.
    """
    pos, neg = scores[correct], scores[~correct]
    if counts is None:
        m, n = pos.size, neg.size
        auc, v10, v01 = placements(pos, neg)
    else:
        m, n = int(counts[correct].sum()), int(counts[~correct].sum())
        auc, v10, v01 = placements(pos, neg, counts[correct], counts[~correct])
    with np.errstate(invalid="ignore", divide="ignore"):
        return (m * auc - v10) / (m - 1), (n * auc - v01) / (n - 1)


def jackknife_kept(mult: IntArray, g0: int, g1: int, max_blocks: int = JACKKNIFE_BLOCKS) -> IntArray:
    """Cases of each entry kept when block g (g0 <= g < g1) is left out, shape (g1 - g0, entries).

    The stratum's sum(mult) cases are dealt round-robin into
    min(cases, max_blocks) blocks in entry order (:func:`jackknife_blocks`);
    entry e holds the cases at positions [start_e, start_e + mult[e]), so block
    g takes ceil((end - g) / G) - ceil((start - g) / G) of them: O(1) per
    entry, whatever its multiplicity.
    """
    end = np.cumsum(mult)
    start = end - mult
    blocks = max(1, min(int(end[-1]) if end.size else 0, max_blocks))
    g = np.arange(g0, g1)[:, None]
    removed = (g - start[None, :]) // blocks - (g - end[None, :]) // blocks
    return mult[None, :] - removed


def jackknife_measure(
    measure: str, ranked: Ranked, m: int, n: int, stratified: bool = True, max_blocks: int = JACKKNIFE_BLOCKS,
    chunk_cells: int = 4_000_000, counts: IntArray | None = None,
) -> list[FloatArray]:
    """Leave-one-block-out values of ``measure`` per stratum (positives, negatives; or all cases).

    Blocks are dealt over the cases in rank order (:func:`jackknife_blocks`):
    exact leave-one-out with up to ``max_blocks`` cases per stratum. Rows of
    counts are built ``chunk_cells`` cells at a time. ``counts`` (optional)
    are the multiplicities of the m + n entries in draw order (positives,
    then negatives): a block of tied cases stored once is dealt as its cases.
    """
    mult = np.ones(m + n, dtype=np.int64) if counts is None else np.asarray(counts, dtype=np.int64)
    strata = [(0, m), (m, m + n)] if stratified else [(0, m + n)]
    out: list[FloatArray] = []
    step = max(1, chunk_cells // max(m + n, 1))
    for lo, hi in strata:
        if hi == lo:
            continue
        g = max(1, min(int(mult[lo:hi].sum()), max_blocks))
        values = np.empty(g)
        for g0 in range(0, g, step):
            g1 = min(g, g0 + step)
            w = np.repeat(mult[None, :], g1 - g0, axis=0)
            w[:, lo:hi] = jackknife_kept(mult[lo:hi], g0, g1, max_blocks)
            # counts are in case order; the ranked perm (if any) reorders them
            values[g0:g1] = resampled_measure(measure, ranked, w[:, :m], w[:, m:])
        out.append(values)
    return out


def acceleration(jackknife: list[FloatArray], weights: list[IntArray] | None = None) -> float:
    """BCa acceleration from leave-one-(block-)out values, one array per stratum.

    a = sum d^3 / (6 * (sum d^2)^(3/2)) with d = mean - value, centred within
    each stratum (Efron 1987; Davison & Hinkley 1997, section 5.3, for
    strata). Raw differences carry each stratum's 1/n_s scale, as the
    stratified formula requires. 0 when every value is equal; NaN values (a
    stratum of one case) are left out. ``weights`` (optional, one array per
    stratum) count a value that many times (an entry standing for tied cases).
    """
    if weights is None:
        d = [np.nanmean(v) - v for v in jackknife if np.isfinite(v).any()]
        dd = np.concatenate(d) if d else np.zeros(0)
        dd = dd[np.isfinite(dd)]
        s2 = float(np.sum(dd * dd))
        if s2 == 0.0:
            return 0.0
        return float(np.sum(dd**3)) / (6.0 * s2**1.5)
    s2 = s3 = 0.0
    for values, count in zip(jackknife, weights):
        ok = np.isfinite(values)
        if not ok.any():
            continue
        x, wt = values[ok], np.asarray(count, dtype=np.float64)[ok]
        dx = float(np.dot(wt, x)) / float(wt.sum()) - x
        s2 += float(np.dot(wt, dx * dx))
        s3 += float(np.dot(wt, dx**3))
    if s2 == 0.0:
        return 0.0
    return s3 / (6.0 * s2**1.5)


def bca_interval(estimate: float, statistic: float, replicates: FloatArray, accel: float, level: float) -> Interval:
    """Bias-corrected and accelerated (BCa) bootstrap interval (Efron 1987).

    z0 = Phi^-1(p) with p the share of replicates below ``statistic`` (ties
    count one half); the bounds are the replicate quantiles at
    Phi(z0 + (z0 + z_q) / (1 - a (z0 + z_q))) for z_q = Phi^-1((1 -+ level) / 2).
    ``statistic`` is the value the replicates resample (it may differ from
    ``estimate``, the reported point value, only in its tie policy). NaN
    replicates (resamples without a class) are dropped.

    BCa is undefined when ``statistic`` sits at an end of the replicates: p
    is 0 or 1 (z0 infinite), or z0 is so extreme that both adjusted levels
    fall within 1/B of the same end, so both bounds would be the extreme
    replicate and the interval would collapse to zero width although the
    replicates vary (an inverted ranking does this to AP). The bounds are then
    NaN and ``note`` says why (``std_error`` is still the replicates' standard
    deviation); scipy's ``bootstrap(method="BCa")`` also gives NaN there.
    Replicates that are all equal give the zero-width interval at their value.
    """
    r = replicates[~np.isnan(replicates)]
    if r.size == 0 or math.isnan(statistic):
        return Interval(estimate, math.nan, math.nan, level, "bca")
    b = r.size
    sd = float(np.std(r, ddof=1)) if b > 1 else math.nan
    below, tied = int(np.count_nonzero(r < statistic)), int(np.count_nonzero(r == statistic))
    share = (below + 0.5 * tied) / b
    probs = []
    if 0.0 < share < 1.0:
        z0 = normal_quantile(share)
        alpha = (1.0 - level) / 2.0
        for q in (alpha, 1.0 - alpha):
            zq = normal_quantile(q)
            den = 1.0 - accel * (z0 + zq)
            # a huge |a| turns the map over; the interval then runs to the end of the replicates
            adj = _NORMAL.cdf(z0 + (z0 + zq) / den) if den > 0 else (0.0 if q < 0.5 else 1.0)
            probs.append(min(max(adj, 0.0), 1.0))
    varies = bool(r.min() < r.max())
    if varies and (not probs or max(probs) <= 1.0 / b or min(probs) >= 1.0 - 1.0 / b):
        end = "bottom" if share < 0.5 else "top"
        note = (
            f"BCa is undefined here: the estimate is at the {end} of the {b:,} bootstrap replicates ({below:,} "
            f"below it, {b - below - tied:,} above), so the bias correction would put both bounds on the extreme "
            "replicate (a degenerate ranking, e.g. an inverted one); use the percentile interval "
            "(method='bootstrap'; --bootstrap percentile)"
        )
        return Interval(estimate, math.nan, math.nan, level, "bca", sd, math.nan, note)
    if not probs:  # every replicate equal to the statistic's side: nothing to correct
        probs = [0.0, 1.0]
    low, high = np.quantile(r, probs)
    return Interval(estimate, float(low), float(high), level, "bca", sd)


def bootstrap_comparison(
    estimate_a: float, estimate_b: float, reps_a: FloatArray, reps_b: FloatArray, level: float,
    accel: float | None = None, statistic: float | None = None,
) -> Comparison:
    """Difference a - b with a percentile (or, given ``accel``, BCa) interval of the replicate differences.

    The test statistic is D = (a - b) / sd(replicate differences), referred
    to the standard normal (pROC's bootstrap ``roc.test``). When every
    replicate difference is equal (sd = 0), D = 0 and p = 1 if the
    difference is 0 (identical rankings: the convention of pROC's DeLong
    test), else D = +-inf and p = 0.
    """
    d = reps_a - reps_b
    d = d[~np.isnan(d)]
    diff = estimate_a - estimate_b
    if accel is None:
        iv = percentile_interval(diff, d, level)
        name = "bootstrap"
    else:
        iv = bca_interval(diff, diff if statistic is None else statistic, d, accel, level)
        name = "bca"
    sd = iv.std_error
    stat = _ieee_div(diff, sd)
    if math.isnan(stat) and diff == 0.0 and sd == 0.0:
        stat = 0.0  # no difference in any resample: as pROC's DeLong test reports it
    return Comparison(estimate_a, estimate_b, diff, iv, stat, normal_two_sided_p(stat), name)


def percentile_interval(estimate: float, replicates: FloatArray, level: float) -> Interval:
    """Percentile bootstrap interval (NaN replicates, from one-class resamples, are dropped)."""
    r = replicates[~np.isnan(replicates)]
    if r.size == 0:
        return Interval(estimate, math.nan, math.nan, level, "bootstrap")
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(r, [alpha, 1.0 - alpha])
    return Interval(estimate, float(low), float(high), level, "bootstrap", float(np.std(r, ddof=1)) if r.size > 1 else math.nan)


# Interval and Comparison report the public module (pickles, reprs); __test__ keeps the doctests
# of these classes collected from this file.
Interval.__module__ = "scored_pr"
Comparison.__module__ = "scored_pr"
__test__ = {"Interval": Interval, "Comparison": Comparison}
