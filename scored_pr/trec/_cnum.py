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
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")

__all__ = ["LONG_MAX", "LONG_MIN", "atof", "atol", "c_int", "lround", "msort", "trunc_long", "seq_sum"]

#: The range of a C ``long`` on the 64-bit platforms trec_eval is built for: grades, cutoffs and
#: options (``-l``, ``-M``, ``-N``) are ``long`` there.
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1

_FLOAT = re.compile(
    r"\s*([+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan))", re.IGNORECASE
)
#: strtod's hexadecimal form (glibc): 0x, hex digits with an optional point, an optional binary exponent.
_HEX = re.compile(r"\s*([+-]?)0x((?:[0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p[+-]?\d+)?)", re.IGNORECASE)
_INT = re.compile(r"\s*([+-]?\d+)")


def atof(text: str) -> float:
    """C ``atof``: the longest leading decimal number of ``text``; 0.0 if there is none.

    Examples
    --------
    >>> atof(".25"), atof("2x"), atof("x"), atof("1e-1,"), atof("0x10"), atof("-0x1.8p1"), atof("0x")
    (0.25, 2.0, 0.0, 0.1, 16.0, -3.0, 0.0)
    """
    h = _HEX.match(text)
    if h:  # glibc's atof reads hexadecimal floats ("0x10" is 16)
        try:
            value = float.fromhex("0x" + h.group(2))
        except OverflowError:
            value = math.inf
        return -value if h.group(1) == "-" else value
    m = _FLOAT.match(text)
    return float(m.group(1)) if m else 0.0


def atol(text: str) -> int:
    """C ``atol``: the longest leading integer of ``text``; 0 if there is none; clamped to a long.

    glibc's ``atol`` is ``strtol``, which returns LONG_MAX or LONG_MIN for a
    number beyond the range of ``long``.

    Examples
    --------
    >>> atol("23.4"), atol("-7"), atol("x"), atol("99999999999999999999") == LONG_MAX
    (23, -7, 0, True)
    """
    m = _INT.match(text)
    return min(max(int(m.group(1)), LONG_MIN), LONG_MAX) if m else 0


def lround(x: float) -> int:
    """C ``lround``: nearest integer, halves away from zero, decided on the exact binary value.

    Beyond the range of ``long`` (and for NaN) glibc returns ``(long) x``,
    which is LONG_MIN on x86-64 (:func:`trunc_long`).

    Examples
    --------
    >>> lround(0.5), lround(2.4999999999999996), lround(-1.5), lround(0.7 * 3), lround(math.inf) == LONG_MIN
    (1, 2, -2, 2, True)
    """
    if not abs(x) < 2.0**63:  # out of range or NaN: glibc returns (long) x, LONG_MIN on x86-64
        return LONG_MIN
    a = abs(x)
    f = math.floor(a)
    n = int(f) + (1 if a - f >= 0.5 else 0)  # a - f is exact for a double
    return -n if x < 0 else n


def trunc_long(x: float) -> int:
    """C ``(long) x``: truncation toward zero; LONG_MIN where the result is not a long.

    C leaves a double outside the range of ``long`` (or NaN) undefined; the
    x86-64 conversion trec_eval is built with (``cvttsd2si``) gives LONG_MIN,
    the "integer indefinite" value, and so does this.

    Examples
    --------
    >>> trunc_long(0.7 * 3 + 0.9), trunc_long(-0.5), trunc_long(1e308) == LONG_MIN == trunc_long(math.nan)
    (2, 0, True)
    """
    if not -(2.0**63) <= x < 2.0**63:  # also NaN
        return LONG_MIN
    return int(x)


def c_int(x: float) -> int:
    """C ``(int) x`` for a double: truncation toward zero; INT_MIN where the result is not a 32-bit int.

    As for :func:`trunc_long`, an out-of-range or NaN double gives INT_MIN, what
    x86-64's ``cvttsd2si`` gives. trec_eval's gain comparator returns ``(int)``
    of a difference of gains, so huge or infinite gains compare as x86 makes them.

    Examples
    --------
    >>> c_int(-0.5), c_int(2.9), c_int(math.inf), c_int(3e9), c_int(math.nan)
    (0, 2, -2147483648, -2147483648, -2147483648)
    """
    if not -(2.0**31) - 1.0 < x < 2.0**31:  # also NaN
        return -(2**31)
    return int(x)


def msort(items: Sequence[T], cmp: Callable[[T, T], int]) -> list[T]:
    """glibc's ``qsort`` (its ``msort``): top-down merge sort, left half of n // 2, the left item first unless cmp > 0.

    trec_eval's comparators are not always consistent orders (differences
    truncated to an int, NaN equal to everything), so the result depends on
    the algorithm; this is the one glibc uses.
    """
    n = len(items)
    if n <= 1:
        return list(items)
    left, right = msort(items[: n // 2], cmp), msort(items[n // 2 :], cmp)
    out: list[T] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if cmp(left[i], right[j]) <= 0:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out + left[i:] + right[j:]


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
