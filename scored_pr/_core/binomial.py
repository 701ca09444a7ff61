"""Exact binomial bounds without scipy: the regularized incomplete beta, its quantile, Clopper-Pearson.

Pure numpy and :mod:`math`. :func:`betainc` evaluates I_x(a, b) by the continued fraction of
Numerical Recipes (modified Lentz), vectorised over arrays; :func:`beta_ppf` inverts it by
bisection; the binomial tails and the one-sided Clopper-Pearson bounds follow from the identity
P(Binomial(n, p) >= k) = I_p(k, n - k + 1).
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

_TINY = 1e-300
_EPS = 1e-14  # a tighter tolerance waits on rounding noise, not convergence


def log_gamma(x: Any) -> FloatArray:
    """log Gamma(x), elementwise, for x > 0 (:func:`math.lgamma` on each value).

    The same function on each value as ``np.vectorize`` would call it, mapped over a list of
    Python floats (a third less time: the screens of the certified decisions call it on
    thousands of counts).
    """
    values = np.asarray(x, dtype=np.float64)
    out = np.fromiter(map(math.lgamma, values.ravel().tolist()), dtype=np.float64, count=values.size)
    return out.reshape(values.shape)


def _continued_fraction(a: FloatArray, b: FloatArray, x: FloatArray) -> FloatArray:
    """The continued fraction of I_x(a, b), converging for x < (a + 1) / (a + b + 2)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(x)
    d = 1.0 - qab * x / qap
    d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
    h = d.copy()
    # about sqrt(max(a, b)) terms near the mean; the cap is far above that for any count numpy holds
    for m in range(1, 200_000):
        m2 = 2.0 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
        c = 1.0 + aa / c
        c = np.where(np.abs(c) < _TINY, _TINY, c)
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
        c = 1.0 + aa / c
        c = np.where(np.abs(c) < _TINY, _TINY, c)
        step = d * c
        h *= step
        if np.all(np.abs(step - 1.0) < _EPS):
            break
    return h


def _fraction_scalar(a: float, b: float, x: float) -> float:
    """:func:`_continued_fraction` of one value in plain floats (a numpy call per term costs 50 times more).

    The two half-steps of each term written out (no tuple of the pair of coefficients per term):
    the same float operations in the same order, so the same value, with a quarter less of the
    interpreter's work (the certified decisions' Clopper-Pearson bound runs some fifty of these
    fractions of hundreds of terms).
    """
    tiny, eps = _TINY, _EPS
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) >= tiny else tiny)
    h = d
    for m in range(1, 200_000):
        m2 = 2.0 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) >= tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) >= tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) >= tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) >= tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < eps:
            break
    return h


def betainc_scalar(a: float, b: float, x: float) -> float:
    """:func:`betainc` of one value, in plain floats."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return min(1.0, max(0.0, front * _fraction_scalar(a, b, x) / a))
    return min(1.0, max(0.0, 1.0 - front * _fraction_scalar(b, a, 1.0 - x) / b))


def betainc(a: Any, b: Any, x: Any) -> FloatArray:
    """The regularized incomplete beta function I_x(a, b), a, b > 0, x in [0, 1], elementwise."""
    a, b, x = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (a, b, x)))
    if a.size <= 16:  # a few values: plain floats
        flat = [betainc_scalar(float(p), float(q), float(v)) for p, q, v in zip(a.ravel(), b.ravel(), x.ravel())]
        return np.asarray(flat, dtype=np.float64).reshape(a.shape)
    out = np.empty(a.shape, dtype=np.float64)
    out[x <= 0.0] = 0.0
    out[x >= 1.0] = 1.0
    inner = (x > 0.0) & (x < 1.0)
    if inner.any():
        ai, bi, xi = a[inner], b[inner], x[inner]
        log_front = log_gamma(ai + bi) - log_gamma(ai) - log_gamma(bi) + ai * np.log(xi) + bi * np.log1p(-xi)
        front = np.exp(log_front)
        direct = xi < (ai + 1.0) / (ai + bi + 2.0)  # where the fraction converges; else by symmetry
        val = np.empty(xi.shape, dtype=np.float64)
        if direct.any():
            val[direct] = front[direct] * _continued_fraction(ai[direct], bi[direct], xi[direct]) / ai[direct]
        flip = ~direct
        if flip.any():
            val[flip] = 1.0 - front[flip] * _continued_fraction(bi[flip], ai[flip], 1.0 - xi[flip]) / bi[flip]
        out[inner] = np.clip(val, 0.0, 1.0)
    return out


def beta_ppf(q: float, a: float, b: float) -> float:
    """The q-quantile of Beta(a, b): the x with I_x(a, b) = q, by bisection (to about 1e-15).

    The bisection from [0, 1] compares :func:`betainc_scalar` at each midpoint with ``q`` and
    stops when the midpoint is an end; its answer is the last midpoint. Most of those midpoints
    are far from the quantile, where the comparison is known without the continued fraction:
    :func:`_sure_bracket` finds, from a few evaluations by Newton's method, points xl and xh
    whose computed values are below and above ``q`` by more than twice the rounding the computed
    function can carry, so that every midpoint at or below xl (above xh) compares as xl (xh)
    does. Only the midpoints between them are evaluated (about 20 of 53 at large counts): the
    same comparisons, so the same answer bit for bit as :func:`_bisection_ppf`.
    """
    if q <= 0.0:
        return 0.0
    if q >= 1.0:
        return 1.0
    low, high = _sure_bracket(q, a, b)
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if mid <= low or (mid < high and betainc_scalar(a, b, mid) < q):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _bisection_ppf(q: float, a: float, b: float) -> float:
    """:func:`beta_ppf` evaluating the incomplete beta at every midpoint: the reference its shortcut keeps."""
    if q <= 0.0:
        return 0.0
    if q >= 1.0:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if betainc_scalar(a, b, mid) < q:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _sure_bracket(q: float, a: float, b: float) -> tuple[float, float]:
    """(xl, xh), 0 <= xl < xh <= 1: :func:`betainc_scalar` is < q at every x <= xl and >= q at every x >= xh.

    The computed I_x(a, b) differs from the true (increasing) one by a relative error eps of its
    value (the direct fraction, x < (a + 1) / (a + b + 2)) or of 1 - its value (the symmetric
    one), each at most 1: the exponent of the front factor (three log-gammas and two products, of
    magnitude at most M) carries a few ulps of M, the fraction's terms some 1e-13; eps below is
    32 ulps of M plus 1e-11, several times over. So a point evaluated at v is an xl when
    v (1 + 3 eps) < q (direct: every x below it is direct too) or v + 2 eps < q, and an xh when
    1 - (1 - v)(1 + 3 eps) >= q (symmetric: so is every x above it) or v - 2 eps >= q. The points
    are the iterates of Newton's method on I_x - q (the density from the log-gammas) from the
    normal approximation (with a skewness term), kept inside what it has seen, then twice the margin either side of its
    root. (0, 1), the plain bisection, when none qualifies (a or b below 1: no shortcut).
    """
    lo, hi = 0.0, 1.0  # the sure bracket so far
    if not (a >= 1.0 and b >= 1.0 and math.isfinite(a + b)):
        return lo, hi
    lg = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    magnitude = abs(math.lgamma(a + b)) + abs(math.lgamma(a)) + abs(math.lgamma(b))
    cut = (a + 1.0) / (a + b + 2.0)

    def gaps(x: float) -> tuple[float, float]:
        """How far below and above q a value at x must be to make x an xl and an xh (eps of this x)."""
        eps = 32.0 * (magnitude + a * abs(math.log(x)) + b * abs(math.log1p(-x))) * 2.0**-52 + 1e-11
        direct = x < cut
        return (3.0 * eps * q if direct else 2.0 * eps), (2.0 * eps if direct else 3.0 * eps * (1.0 - q))

    def record(x: float, v: float) -> None:
        nonlocal lo, hi
        below, above = gaps(x)
        # the conditions above, with a margin of 1% for the rounding of these lines themselves
        if v < q and q - v > 1.01 * below * (1.0 + v):
            lo = max(lo, x)
        elif v >= q and v - q > 1.01 * above * (1.0 + (1.0 - v)):
            hi = min(hi, x)

    mean = a / (a + b)
    z = NormalDist().inv_cdf(q)
    skew = 2.0 * (b - a) * math.sqrt(a + b + 1.0) / ((a + b + 2.0) * math.sqrt(a * b))
    # the normal approximation with Cornish and Fisher's skewness term: a start Newton needs ~3 steps from
    x = mean + (z + skew * (z * z - 1.0) / 6.0) * math.sqrt(a * b / ((a + b) * (a + b) * (a + b + 1.0)))
    if not 0.0 < x < 1.0:
        x = mean
    seen_lo, seen_hi = 0.0, 1.0  # where the computed value was below / not below q: Newton's safeguard
    for _ in range(12):
        v = betainc_scalar(a, b, x)
        record(x, v)
        if v < q:
            seen_lo = max(seen_lo, x)
        else:
            seen_hi = min(seen_hi, x)
        density = math.exp(lg + (a - 1.0) * math.log(x) + (b - 1.0) * math.log1p(-x))
        if not (density > 0.0 and math.isfinite(density)):
            break
        below, above = gaps(x)
        if abs(v - q) <= 0.01 * min(below, above):  # at the root: twice each margin either side
            for y in (x - 2.0 * below / density, x + 2.0 * above / density):
                if 0.0 < y < 1.0:
                    record(y, betainc_scalar(a, b, y))
            break
        step = x - (v - q) / density
        x = step if seen_lo < step < seen_hi else 0.5 * (seen_lo + seen_hi)
    return lo, hi


def tail_at_least(k: Any, n: Any, p: float) -> FloatArray:
    """P(Binomial(n, p) >= k), elementwise (1 for k <= 0, 0 for k > n)."""
    k, n = np.broadcast_arrays(np.asarray(k, dtype=np.float64), np.asarray(n, dtype=np.float64))
    out = np.where(k <= 0, 1.0, 0.0)
    mid = (k > 0) & (k <= n)
    if mid.any():
        out[mid] = betainc(k[mid], n[mid] - k[mid] + 1.0, np.full(int(mid.sum()), p))
    return out


def tail_at_most(k: Any, n: Any, p: float) -> FloatArray:
    """P(Binomial(n, p) <= k), elementwise (1 for k >= n, 0 for k < 0)."""
    k, n = np.broadcast_arrays(np.asarray(k, dtype=np.float64), np.asarray(n, dtype=np.float64))
    return tail_at_least(n - k, n, 1.0 - p)


def clopper_pearson_lower(k: float, n: float, confidence: float) -> float:
    """One-sided lower bound of a binomial proportion at ``confidence``: 0 with k = 0, NaN with n = 0."""
    if n <= 0:
        return float("nan")
    return 0.0 if k <= 0 else beta_ppf(1.0 - confidence, k, n - k + 1.0)


def clopper_pearson_upper(k: float, n: float, confidence: float) -> float:
    """One-sided upper bound of a binomial proportion at ``confidence``: 1 with k = n, NaN with n = 0."""
    if n <= 0:
        return float("nan")
    return 1.0 if k >= n else beta_ppf(confidence, k + 1.0, n - k)


def log_tail_bracket(k: FloatArray, n: FloatArray, log_mass: FloatArray, p: float,
                     budget: int = 4_000_000) -> tuple[FloatArray, FloatArray]:  # fmt: skip
    """Lower and upper bounds on log P(X >= k), X ~ Binomial(n, p), for whole k > n p, from the terms after k.

    ``log_mass``: log P(X = k). The terms P(X = k + i), i < m, follow from P(X = k) by the ratios
    (n - j) p / ((j + 1) (1 - p)), which fall with j; their sum is a lower bound, and that sum plus
    P(X = k + m) / (1 - r), r the ratio at k + m (< 1 past the mean), an upper bound (0 past n). m
    is ten spreads sqrt(n p (1 - p)) and more (capped so that the terms held stay under ``budget``),
    where the rest is far below the float64 rounding of the sum. O(len(k) m).
    """
    lower = np.full(k.shape, -np.inf)
    upper = np.full(k.shape, np.inf)
    if not k.size:
        return lower, upper
    m = int(min(10.0 * math.sqrt(float(np.max(n)) * p * (1.0 - p)) + 64.0, budget // k.size))
    if m < 2:
        return lower, upper
    j = k[:, None] + np.arange(m - 1, dtype=np.float64)  # the ratio from term j to term j + 1
    with np.errstate(divide="ignore", invalid="ignore"):
        log_ratio = np.log(np.maximum(n[:, None] - j, 0.0) * p) - np.log((j + 1.0) * (1.0 - p))
    log_terms = np.empty((k.size, m))
    log_terms[:, 0] = log_mass
    np.cumsum(log_ratio, axis=1, out=log_terms[:, 1:])
    log_terms[:, 1:] += log_mass[:, None]
    peak = np.max(log_terms, axis=1)  # the sum is taken relative to its largest term: no overflow
    total = np.exp(log_terms - peak[:, None]).sum(axis=1)
    lower = peak + np.log(total)
    last = k + m  # the first term left out
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (n - last) * p / ((last + 1.0) * (1.0 - p))
        log_last = log_terms[:, -1] + np.log(np.maximum(n - (last - 1.0), 0.0) * p) - np.log(last * (1.0 - p))
        rest = np.where(last > n, 0.0, np.exp(log_last - peak) / (1.0 - np.minimum(r, 1.0)))
    upper = np.where((last > n) | (r < 1.0), peak + np.log(total + rest), np.inf)
    return lower, upper
