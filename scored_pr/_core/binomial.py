"""Exact binomial bounds without scipy: the regularized incomplete beta, its quantile, Clopper-Pearson.

Pure numpy and :mod:`math`. :func:`betainc` evaluates I_x(a, b) by the continued fraction of
Numerical Recipes (modified Lentz), vectorised over arrays; :func:`beta_ppf` inverts it by
bisection; the binomial tails and the one-sided Clopper-Pearson bounds follow from the identity
P(Binomial(n, p) >= k) = I_p(k, n - k + 1).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

_TINY = 1e-300
_EPS = 1e-14  # a tighter tolerance waits on rounding noise, not convergence
_lgamma = np.vectorize(math.lgamma, otypes=[np.float64])


def log_gamma(x: Any) -> FloatArray:
    """log Gamma(x), elementwise, for x > 0 (:func:`math.lgamma` on each value)."""
    return np.asarray(_lgamma(np.asarray(x, dtype=np.float64)), dtype=np.float64).reshape(np.shape(x))


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
        log_front = _lgamma(ai + bi) - _lgamma(ai) - _lgamma(bi) + ai * np.log(xi) + bi * np.log1p(-xi)
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
    """The q-quantile of Beta(a, b): the x with I_x(a, b) = q, by bisection (to about 1e-15)."""
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
