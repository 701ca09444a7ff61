"""Java's double arithmetic where Python's differs: division by zero, log and sqrt.

LingPipe's classifier statistics divide, take logs and square roots of
counts without guarding zeros; Java answers with IEEE 754 values (``0/0`` is
NaN, ``1/0`` is Infinity, ``log(0)`` is -Infinity, ``sqrt(-1)`` is NaN) where
Python raises. These helpers return what the JVM returns, so the ported
statistics keep LingPipe's NaN and infinite values in the same places.
"""

from __future__ import annotations

import math

__all__ = ["div", "log2", "sqrt"]

_INF = math.inf
_NAN = math.nan

#: ``com.aliasi.util.Math.INV_LN_2`` (LingPipe 4.1): 1 / ln 2, as Java computes it.
INV_LN_2 = 1.0 / math.log(2.0)


def div(x: float, y: float) -> float:
    """``x / y`` with Java's (IEEE 754) result for a zero divisor.

    >>> div(0.0, 0.0), div(1.0, 0.0), div(-1.0, 0.0), div(1.0, 4.0)
    (nan, inf, -inf, 0.25)
    """
    x = float(x)
    y = float(y)
    if y == 0.0:
        if x == 0.0 or math.isnan(x):
            return _NAN
        # sign of the infinity: sign(x) * sign(y), -0.0 counting as negative
        return math.copysign(_INF, x) * math.copysign(1.0, y)
    return x / y


def log2(x: float) -> float:
    """``com.aliasi.util.Math.log2``: ``java.lang.Math.log(x) * INV_LN_2``.

    ``log2(0)`` is -Infinity and the log of a negative number or NaN is NaN,
    as in Java. (Computed as the natural log times 1/ln 2, LingPipe 4.1's
    formula, not as :func:`math.log2`, which can differ in the last bit.)

    >>> log2(8.0), log2(0.0)  # LingPipe's value; math.log2(8.0) is 3.0
    (2.9999999999999996, -inf)
    """
    x = float(x)
    if math.isnan(x) or x < 0.0:
        return _NAN
    if x == 0.0:
        return -_INF
    if math.isinf(x):
        return _INF
    return math.log(x) * INV_LN_2


def sqrt(x: float) -> float:
    """``java.lang.Math.sqrt``: NaN for a negative argument or NaN.

    >>> sqrt(4.0), sqrt(-1.0)
    (2.0, nan)
    """
    x = float(x)
    if math.isnan(x) or x < 0.0:
        return _NAN
    return math.sqrt(x)
