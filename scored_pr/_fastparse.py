"""Whole blocks of CSV/TSV lines parsed with numpy, for :class:`scored_pr._io.CaseReader`.

Pure functions over a block of bytes (complete lines, each ending in ``\\n``),
viewed as a ``uint8`` array. Each one returns its values together with a
boolean mask of what it *proved*: a line, label or score outside the mask is
not necessarily wrong, only not certainly parsed exactly as the per-line
reader would parse it. The reader sends those lines through its per-line path,
which accepts them or reports them (``file:line: value``) as it always did, so
speed never changes a result or a message.

What is proved:

- :func:`delimited_fields`: lines with exactly ``width - 1`` delimiters (the
  caller has excluded blocks with quotes, NUL bytes and lone carriage
  returns, the cases where a physical line is not simply split).
- :func:`parse_labels`: ``0``, ``1``, ``true``, ``false``, ``yes``, ``no``
  in any ASCII case, without surrounding whitespace.
- :func:`parse_floats`: decimal numbers ``[+-]digits[.digits][e[+-]digits]``,
  converted to the float64 that ``float()`` returns (correctly rounded): by
  one exact multiplication or division when the digits fit in 53 bits and the
  power of ten is exact (Clinger's fast path), else in x87 extended precision
  with a check that the rounding to float64 is unambiguous, else by
  ``float()`` itself. Infinities, NaN, underscores and whitespace are left to
  the per-line path.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["delimited_fields", "field_matrix", "line_ends", "parse_floats", "parse_labels"]

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Bool = npt.NDArray[np.bool_]

#: Longest score field parsed with numpy; a longer one goes to ``float()``.
MAX_NUMBER_CHARS = 32
#: Bytes of zero padding the callers append to a block, so that a field
#: matrix may be read past the last byte.
PADDING = MAX_NUMBER_CHARS + 8

_POW10_F64 = np.array([10.0**k for k in range(23)])  # exact: 10**22 < 2**53 * 2**22
_TWO53 = 2**53

#: x87 extended precision (64-bit significand) or better, where ``longdouble`` has it.
_EXTENDED = np.finfo(np.longdouble).nmant >= 63
#: Powers of ten exactly representable with a 64-bit significand: 5**27 < 2**63.
_MAX_EXTENDED_POW = 27


def line_ends(a: U8) -> tuple[I64, I64, I64]:
    """Starts, content ends (before ``\\r\\n`` or ``\\n``) and newline positions of the lines of ``a``.

    ``a`` holds complete lines: its last byte is ``\\n``; a carriage return
    appears only right before a newline.

    Examples
    --------
    >>> starts, ends, nl = line_ends(np.frombuffer(b"ab\\r\\n\\ncd\\n", np.uint8))
    >>> starts.tolist(), ends.tolist(), nl.tolist()
    ([0, 4, 5], [2, 4, 7], [3, 4, 7])
    """
    nl = np.flatnonzero(a == 10)
    starts = np.empty_like(nl)
    starts[:1] = 0
    starts[1:] = nl[:-1] + 1
    before = np.maximum(nl - 1, 0)
    ends = nl - ((a[before] == 13) & (nl > starts))
    return starts, ends, nl


def delimited_fields(
    a: U8, starts: I64, ends: I64, nl: I64, delimiter: int, width: int
) -> tuple[I64, I64, Bool]:
    """Field boundaries of the lines of ``a`` that have exactly ``width`` fields.

    Parameters
    ----------
    a : uint8 array
        The block.
    starts, ends, nl : int64 arrays
        From :func:`line_ends`.
    delimiter : int
        The delimiter byte (``ord(",")`` or ``ord("\\t")``).
    width : int
        Fields per row (the header's), at least 2.

    Returns
    -------
    field_starts, field_ends : int64 arrays of shape (proven lines, width)
        Byte offsets of every field of every proven line, in line order.
    proven : bool array, one per line
        The lines with exactly ``width - 1`` delimiters.

    Examples
    --------
    >>> a = np.frombuffer(b"a,1,0.5\\nb,0\\nc,1,2\\n", np.uint8)
    >>> fs, fe, ok = delimited_fields(a, *line_ends(a), ord(","), 3)
    >>> ok.tolist(), fs.tolist(), fe.tolist()
    ([True, False, True], [[0, 2, 4], [12, 14, 16]], [[1, 3, 7], [13, 15, 17]])
    """
    n = nl.size
    gaps = width - 1
    d = np.flatnonzero(a == delimiter)
    if d.size == n * gaps:
        grid = d.reshape(n, gaps)
        # Sorted delimiters, grouped by line: when every line's first one is
        # inside it and its last one before its newline, each line has exactly
        # its own ``gaps`` delimiters (the total matches).
        if n == 0 or (bool(np.all(grid[:, 0] >= starts)) and bool(np.all(grid[:, -1] < nl))):
            proven = np.ones(n, dtype=bool)
            return _bounds(grid, starts, ends), _ends(grid, ends), proven
    line_of = np.searchsorted(nl, d)  # the line holding each delimiter
    counts = np.bincount(line_of, minlength=n)[:n]
    proven = counts == gaps
    grid = d[proven[line_of]].reshape(-1, gaps)
    return _bounds(grid, starts[proven], ends[proven]), _ends(grid, ends[proven]), proven


def _bounds(grid: I64, starts: I64, ends: I64) -> I64:
    return np.concatenate([starts[:, None], grid + 1], axis=1)


def _ends(grid: I64, ends: I64) -> I64:
    return np.concatenate([grid, ends[:, None]], axis=1)


def field_matrix(a: U8, starts: I64, lengths: I64, width: int) -> U8:
    """The first ``width`` bytes of each field as the rows of a matrix, zero past each field's end.

    ``a`` must extend at least ``width`` bytes past the last field (the
    callers pad blocks with :data:`PADDING` zero bytes).

    Examples
    --------
    >>> a = np.frombuffer(b"12,345,6" + bytes(8), np.uint8)
    >>> field_matrix(a, np.array([0, 3, 7]), np.array([2, 3, 1]), 3).tolist()
    [[49, 50, 0], [51, 52, 53], [54, 0, 0]]
    """
    windows = np.lib.stride_tricks.as_strided(a, shape=(a.size - width + 1, width), strides=(1, 1))
    m = windows[starts]  # one row copy per field
    m[np.arange(width) >= lengths[:, None]] = 0
    return m


_TRUE_WORDS = ("1", "true", "yes")
_FALSE_WORDS = ("0", "false", "no")


def _packed(word: str) -> int:
    return int.from_bytes(word.encode("ascii"), "little") | len(word) << 40


def parse_labels(a: U8, starts: I64, lengths: I64) -> tuple[Bool, Bool]:
    """Labels ``1``/``0``, ``true``/``false``, ``yes``/``no`` (any ASCII case) as booleans.

    Returns
    -------
    values : bool array
        The label of each field (False where not proved).
    proved : bool array
        Fields that are exactly one of those words; anything else (surrounding
        whitespace, other words, non-ASCII text) is left to :func:`scored_pr._io.parse_label`.

    Examples
    --------
    >>> a = np.frombuffer(b"1 0 TRUE no maybe  yes" + bytes(32), np.uint8)
    >>> v, ok = parse_labels(a, np.array([0, 2, 4, 9, 12, 18]), np.array([1, 1, 4, 2, 5, 4]))
    >>> v.tolist(), ok.tolist()
    ([True, False, True, False, False, False], [True, True, True, True, False, False])
    """
    n = starts.size
    if n and bool(np.all(lengths == 1)):  # the usual 1/0 column: one byte each
        byte = a[starts]
        return byte == 49, (byte == 49) | (byte == 48)
    width = 5  # the longest word, "false"
    short = lengths <= width
    m = field_matrix(a, starts, np.where(short, lengths, 0), width).astype(np.uint64)
    letters = (m | 32) - 97 < 26  # ASCII letters (uint64 wrap-around below 'a')
    m = np.where(letters, m | 32, m)  # lower case
    packed = (m << (np.arange(width, dtype=np.uint64) * np.uint64(8))).sum(axis=1, dtype=np.uint64)
    packed |= lengths.astype(np.uint64) << np.uint64(40)  # the length too: "yes\0" is not "yes"
    true = np.isin(packed, [_packed(w) for w in _TRUE_WORDS])
    false = np.isin(packed, [_packed(w) for w in _FALSE_WORDS])
    proved = (true | false) & short & (lengths > 0)
    return true & proved, proved


# The number grammar, as a finite automaton run over all fields at once, one
# character position at a time. Character classes:
_DIGIT, _DOT, _E, _SIGN, _END, _OTHER = range(6)
_CLASS = np.full(256, _OTHER, dtype=np.uint8)
_CLASS[48:58] = _DIGIT
_CLASS[46] = _DOT
_CLASS[[69, 101]] = _E
_CLASS[[43, 45]] = _SIGN
# States, after a character: the start, a leading sign, integer digits, a
# dot (without / after integer digits), fraction digits, "e", the exponent's
# sign, exponent digits, past the end of an accepted field, and failure.
(_START, _LEAD, _INT, _DOT0, _DOT1, _FRAC, _EXPE, _ESIGN, _EXP, _DONE, _FAIL) = range(11)
_ACCEPTING = (_INT, _DOT1, _FRAC, _EXP, _DONE)
_STEP = np.full((16, 8), _FAIL, dtype=np.uint8)  # _STEP[state, class]
for _state, _cls, _next in [
    (_START, _SIGN, _LEAD), (_START, _DIGIT, _INT), (_START, _DOT, _DOT0),
    (_LEAD, _DIGIT, _INT), (_LEAD, _DOT, _DOT0),
    (_INT, _DIGIT, _INT), (_INT, _DOT, _DOT1), (_INT, _E, _EXPE),
    (_DOT0, _DIGIT, _FRAC),
    (_DOT1, _DIGIT, _FRAC), (_DOT1, _E, _EXPE),
    (_FRAC, _DIGIT, _FRAC), (_FRAC, _E, _EXPE),
    (_EXPE, _SIGN, _ESIGN), (_EXPE, _DIGIT, _EXP), (_ESIGN, _DIGIT, _EXP),
    (_EXP, _DIGIT, _EXP),
]:  # fmt: skip
    _STEP[_state, _cls] = _next
_STEP[list(_ACCEPTING), _END] = _DONE
_STEP[_DONE, :] = _DONE
# One lookup per character: _NEXT[(state << 9) | (past the field's end) << 8 | byte].
_NEXT = np.full((16, 2, 256), _FAIL, dtype=np.uint16)
_NEXT[:, 0, :] = _STEP[:, _CLASS]
_NEXT[:, 1, :] = _STEP[:, _END][:, None]
_NEXT = _NEXT.ravel()

def parse_floats(a: U8, starts: I64, lengths: I64, data: bytes) -> tuple[F64, Bool]:
    """Decimal numbers as the float64 ``float()`` returns for them.

    Parameters
    ----------
    a : uint8 array
        The block, padded with at least :data:`MAX_NUMBER_CHARS` zero bytes.
    starts, lengths : int64 arrays
        The fields.
    data : bytes
        The same block as bytes (for the rare field handed to ``float()``).

    Returns
    -------
    values : float64 array
        ``float(field)`` for every proved field (0.0 elsewhere).
    proved : bool array
        Fields of the form ``[+-]digits[.digits][(e|E)[+-]digits]`` (a dot
        with digits on at least one side, at most 4 exponent digits, at most
        :data:`MAX_NUMBER_CHARS` characters). Values may be infinite (an
        overflow): callers check ranges themselves.

    Notes
    -----
    The grammar runs as a finite automaton over every field at once, one
    character position per step, accumulating the significand M (as an exact
    integer while it has at most 19 digits), the number of fraction digits
    and the exponent, so the value is M * 10**k.

    Exactness: M < 2**53 times or divided by 10**|k| with |k| <= 22 is one
    correctly rounded IEEE operation on exact operands (Clinger 1990), so it
    equals the correctly rounded decimal. Beyond that, with x87 extended
    precision, M < 2**64 and |k| <= 27 (both exact with a 64-bit
    significand) give q within half an extended ulp of the exact value; q's
    rounding to float64 is taken only when one extended ulp around q lies
    strictly inside a single float64's rounding interval. Anything else goes
    to ``float()``. Complexity O(n * w) for n fields of at most w characters.

    Examples
    --------
    >>> data = b"0.5,-3,1e-3,.25,7.,0.30000000000000004,1_0,inf,,-"
    >>> fields = data.split(b",")
    >>> starts = np.cumsum([0] + [len(f) + 1 for f in fields[:-1]])
    >>> a = np.frombuffer(data + bytes(32), np.uint8)
    >>> v, ok = parse_floats(a, starts, np.array([len(f) for f in fields]), data)
    >>> ok.tolist()
    [True, True, True, True, True, True, False, False, False, False]
    >>> v[ok].tolist() == [float(f) for f in fields[:6]]
    True
    """
    n = starts.size
    values = np.zeros(n, dtype=np.float64)
    if n == 0:
        return values, np.zeros(0, dtype=bool)
    fits = lengths <= MAX_NUMBER_CHARS
    width = min(int(lengths.max()), MAX_NUMBER_CHARS) + 1  # one step past the longest field: its end
    length8 = np.where(fits, lengths, 0).astype(np.uint8)
    state = np.full(n, _START, dtype=np.uint8)
    sig = np.zeros(n, dtype=np.uint64)
    ndigits = np.zeros(n, dtype=np.uint8)
    frac = np.zeros(n, dtype=np.int64)
    expo = np.zeros(n, dtype=np.int64)
    exp_negative = np.zeros(n, dtype=bool)
    ten = np.uint64(10)
    state = state.astype(np.uint16)
    at = starts.copy()
    for j in range(width):
        byte = np.take(a, at)
        at += 1
        key = (state << 9) | ((length8 <= j).view(np.uint8).astype(np.uint16) << 8) | byte
        state = np.take(_NEXT, key)
        if j == 0:
            negative = byte == 45
        significand = (state == _INT) | (state == _FRAC)
        if significand.any():
            digit = (byte - np.uint8(48)).astype(np.uint64)
            sig = np.where(significand, sig * ten + digit, sig)
            ndigits += significand
            frac += state == _FRAC
        if j and (state >= _EXPE).any():  # exponents are rare: skip the work without them
            in_exp = state == _EXP
            expo = np.where(in_exp, expo * 10 + (byte - np.uint8(48)).astype(np.int64), expo)
            expo = np.minimum(expo, 100_000)  # bounded: float() decides beyond the fast paths
            exp_negative |= (state == _ESIGN) & (byte == 45)
    proved = fits & (state == _DONE)
    power = np.where(exp_negative, -expo, expo) - frac
    todo = proved.copy()
    # M = 0 (any exponent) is 0.0; Clinger's fast path.
    zero = todo & (sig == 0) & (ndigits <= 19)
    fast = todo & ~zero & (ndigits <= 19) & (sig <= _TWO53) & (np.abs(power) <= 22)
    if fast.any():
        mf = sig[fast].astype(np.float64)
        p = power[fast]
        scale = _POW10_F64[np.abs(p)]
        values[fast] = np.where(p >= 0, mf * scale, mf / scale)
    todo &= ~(fast | zero)
    if _EXTENDED and todo.any():
        ext = todo & (ndigits <= 19) & (np.abs(power) <= _MAX_EXTENDED_POW)
        if ext.any():
            idx = np.flatnonzero(ext)
            got, sure = _extended(sig[idx], power[idx])
            values[idx[sure]] = got[sure]
            todo[idx[sure]] = False
    for i in np.flatnonzero(todo).tolist():  # rare: float() is the reference
        s = int(starts[i])
        values[i] = abs(float(data[s : s + int(lengths[i])]))
    return np.where(negative, -values, values), proved


def _extended(sig: npt.NDArray[np.uint64], power: I64) -> tuple[F64, Bool]:
    """|value| = sig * 10**power in extended precision, and where its rounding to float64 is certain."""
    ld = np.longdouble
    scale = np.array([ld(10) ** k for k in range(_MAX_EXTENDED_POW + 1)], dtype=ld)[np.abs(power)]  # exact
    m = sig.astype(ld)  # exact: < 2**64
    q = np.where(power >= 0, m * scale, m / scale)  # one rounding, to 64 bits
    r = q.astype(np.float64)
    rl = r.astype(ld)
    lo = (rl + np.nextafter(r, -np.inf).astype(ld)) / 2  # exact: 54-bit midpoints
    hi = (rl + np.nextafter(r, np.inf).astype(ld)) / 2
    u = np.spacing(q)  # the exact value is within u / 2 of q
    sure = (q - u > lo) & (q + u < hi) & np.isfinite(r)
    return r, sure
