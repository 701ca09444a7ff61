"""Java's rendering of doubles: ``Double.toString`` and ``String.format("%W.Pf")``.

Used by :mod:`scored_pr.lingpipe` so that its text output is character for
character what LingPipe prints on the JVM.

``Double.toString(double)`` (Java SE 19 and later, whose specification pins
the digits down exactly):

* ``NaN``, ``Infinity``, ``-Infinity``, ``0.0`` and ``-0.0`` literally.
* The digits are the *shortest* decimal that reads back as the same double;
  among several of that length, the one closest to the exact binary value.
  One twist: when a single digit would do, any two-digit decimal that reads
  back is a candidate too, and the closest wins; hence ``4.9E-324`` for the
  smallest subnormal, where Python's ``repr`` gives ``5e-324``.
* For 10^-3 <= abs(x) < 10^7 the number is written in plain notation with at
  least one digit after the point (``100.0``, ``0.001``, ``9999999.0``);
  otherwise as one digit, a point, at least one more digit, ``E`` and the
  exponent without a plus sign (``1.0E-4``, ``1.0E7``, ``1.2345678E7``).

Java 18 and earlier used an older algorithm that, for a few doubles, printed
more digits than needed (``9.999999999999999E22`` for ``1e23``); these
functions follow the current specification.

``String.format("%W.Pf", x)``: per the ``java.util.Formatter`` documentation,
the value is the decimal that ``Double.toString`` gives, rounded to P digits
after the point with the *round half up* algorithm (or padded with zeros);
``NaN`` and ``Infinity`` are written literally; the result is right-aligned in
W characters. This differs from Python's ``%f``, which rounds the exact binary
value half-to-even and writes ``nan``/``inf``: Java prints
``String.format("%8.6f", 5.0E-7)`` as ``0.000001`` where Python's
``"%8.6f" % 5e-7`` gives ``0.000000`` (the double is a hair below 5e-7).

Both functions are exact (integer and decimal arithmetic, no floating-point
rounding of their own) and O(d) in the number of digits printed.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

__all__ = ["double_to_string", "format_fixed"]


def _digits(x: float) -> tuple[str, int]:
    """Java's decimal for finite ``x > 0``: (digits without trailing zeros, q), x ~ int(digits) * 10**q."""
    # repr is the shortest decimal that reads back as x, the closest to x among
    # those (David Gay's dtoa, mode 0): the same choice Java makes.
    _, digit_tuple, exponent = Decimal(repr(x)).as_tuple()
    assert isinstance(exponent, int)  # x is finite
    digits = "".join(map(str, digit_tuple))
    stripped = digits.rstrip("0")
    q = exponent + len(digits) - len(stripped)
    if len(stripped) == 1:
        return _closest_two_digits(x, stripped, q)
    return stripped, q


def _closest_two_digits(x: float, digit: str, q: int) -> tuple[str, int]:
    """Java's rule when one digit suffices: the closest decimal of one or two digits that reads back as x."""
    exact = Fraction(x)
    best, best_q = digit, q
    best_error = abs(Fraction(int(digit)) * Fraction(10) ** q - exact)
    if best_error == 0:
        return best, best_q
    # The two-digit decimals on either side of x: c * 10**e with 10 <= c <= 100,
    # where 10 <= x / 10**e < 100 (q - 1 may be off by one near a power of ten).
    e = q - 1
    while exact / Fraction(10) ** e >= 100:
        e += 1
    while exact / Fraction(10) ** e < 10:
        e -= 1
    scale = Fraction(10) ** e
    low = math.floor(exact / scale)
    for c in (low, low + 1):
        value = c * scale
        error = abs(value - exact)
        # float(Fraction) is correctly rounded (exact integer division).
        if float(value) == x and (error < best_error or (error == best_error and c % 2 == 0)):
            text = str(c).rstrip("0")
            best, best_q, best_error = text, e + len(str(c)) - len(text), error
    return best, best_q


def double_to_string(x: float) -> str:
    """Render ``x`` exactly as Java's ``Double.toString(double)`` does.

    Parameters
    ----------
    x : float
        Any float64 (Python float or numpy floating scalar).

    Returns
    -------
    str
        ``"NaN"``, ``"Infinity"``, ``"-Infinity"``, plain notation with at
        least one fraction digit for 10^-3 <= abs(x) < 10^7, computerized
        scientific notation (``d.dddE[-]n``) otherwise; the shortest digits
        that read back as ``x`` (Java SE 19+ specification).
        ``float(double_to_string(x)) == x`` for every finite ``x``.

    Notes
    -----
    Java name: ``java.lang.Double.toString(double)`` (also what string
    concatenation ``"" + d`` produces). O(1) for the usual doubles; O(d)
    with d digits for the rare ones where a single digit suffices.

    Examples
    --------
    >>> [double_to_string(v) for v in (0.5, 1.0, 100.0, 1e-4, 0.001, 1e7, 12345678.0)]
    ['0.5', '1.0', '100.0', '1.0E-4', '0.001', '1.0E7', '1.2345678E7']
    >>> double_to_string(float("nan")), double_to_string(-float("inf")), double_to_string(-0.0)
    ('NaN', '-Infinity', '-0.0')
    >>> double_to_string(5e-324)
    '4.9E-324'
    """
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0.0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    ax = abs(x)
    digits, q = _digits(ax)
    n = len(digits)
    # The double 0.001 lies above 10^-3 and 1e7 is exact, so float comparisons
    # decide the notation exactly as Java's comparison of the exact value does.
    if 1e-3 <= ax < 1e7:
        if q >= 0:
            whole, frac = digits + "0" * q, "0"
        elif n + q > 0:
            whole, frac = digits[: n + q], digits[n + q :]
        else:
            whole, frac = "0", "0" * (-q - n) + digits
        return f"{sign}{whole}.{frac}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{q + n - 1}"


def format_fixed(x: float, width: int = 8, precision: int = 6) -> str:
    """Render ``x`` as Java's ``String.format("%<width>.<precision>f", x)`` does.

    Parameters
    ----------
    x : float
        Any float64.
    width : int, default 8
        Minimum field width; shorter results are padded with spaces on the
        left.
    precision : int, default 6
        Digits after the decimal point.

    Returns
    -------
    str
        ``NaN``, ``Infinity`` or ``-Infinity`` (right-aligned), else the
        decimal of :func:`double_to_string` rounded half up to ``precision``
        fraction digits; ``-0.0`` keeps its sign (``-0.000000``).

    Notes
    -----
    Java name: ``java.util.Formatter`` conversion ``'f'`` (``printf``,
    ``String.format``). Python's ``%f`` differs twice: it rounds the exact
    binary value half to even, and it writes ``nan``/``inf``.

    Examples
    --------
    >>> format_fixed(0.6666666666666666)
    '0.666667'
    >>> format_fixed(float("nan"))
    '     NaN'
    >>> format_fixed(5e-7), "%8.6f" % 5e-7  # Java rounds the decimal 5.0E-7 half up
    ('0.000001', '0.000000')
    >>> format_fixed(0.125, 4, 2)
    '0.13'
    """
    x = float(x)
    if math.isnan(x):
        text = "NaN"
    elif math.isinf(x):
        text = "Infinity" if x > 0 else "-Infinity"
    else:
        if x == 0.0:
            value = Decimal("-0") if math.copysign(1.0, x) < 0 else Decimal(0)
        else:
            digits, q = _digits(abs(x))
            value = Decimal(int(digits)).scaleb(q)
            if x < 0:
                value = -value
        # quantize is exact here: the context precision is raised to fit the result.
        quantum = Decimal(1).scaleb(-precision)
        needed = max(28, value.adjusted() + precision + 2)
        with localcontext() as ctx:
            ctx.prec = needed
            text = format(value.quantize(quantum, rounding=ROUND_HALF_UP), "f")
    return text.rjust(width)
