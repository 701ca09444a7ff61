"""C number conversions trec_eval relies on, written out so that Python gives the same numbers.

trec_eval reads measure parameters with ``atof``/``atol`` (the longest numeric
prefix; 0 when there is none), turns recall levels into document counts with
``lround`` (round half away from zero) or ``(long)(x + 0.9)`` (truncation),
and sums per-query values left to right in double precision. These helpers
do exactly that.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

__all__ = ["atof", "atol", "lround", "trunc_long", "seq_sum"]

_FLOAT = re.compile(
    r"\s*([+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan))", re.IGNORECASE
)
_INT = re.compile(r"\s*([+-]?\d+)")


def atof(text: str) -> float:
    """C ``atof``: the longest leading decimal number of ``text``; 0.0 if there is none.

    Examples
    --------
    >>> atof(".25"), atof("2x"), atof("x"), atof("1e-1,")
    (0.25, 2.0, 0.0, 0.1)
    """
    m = _FLOAT.match(text)
    return float(m.group(1)) if m else 0.0


def atol(text: str) -> int:
    """C ``atol``: the longest leading integer of ``text``; 0 if there is none.

    Examples
    --------
    >>> atol("23.4"), atol("-7"), atol("x")
    (23, -7, 0)
    """
    m = _INT.match(text)
    return int(m.group(1)) if m else 0


def lround(x: float) -> int:
    """C ``lround``: nearest integer, halves away from zero, decided on the exact binary value.

    Examples
    --------
    >>> lround(0.5), lround(2.4999999999999996), lround(-1.5), lround(0.7 * 3)
    (1, 2, -2, 2)
    """
    a = abs(x)
    f = math.floor(a)
    n = int(f) + (1 if a - f >= 0.5 else 0)  # a - f is exact for a double
    return -n if x < 0 else n


def trunc_long(x: float) -> int:
    """C ``(long) x``: truncation toward zero.

    Examples
    --------
    >>> trunc_long(0.7 * 3 + 0.9), trunc_long(-0.5)
    (2, 0)
    """
    return int(x)


def seq_sum(values: Iterable[float]) -> float:
    """Left-to-right double sum, as a C loop ``sum += v`` computes it (not ``math.fsum``).

    Examples
    --------
    >>> seq_sum([0.1, 0.2, 0.3]) == (0.1 + 0.2) + 0.3
    True
    """
    total = 0.0
    for v in values:
        total += v
    return total
