"""Whole blocks of CSV/TSV lines parsed with numpy, for :class:`scored_pr._io.cases.CaseReader`.

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

import re
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = ["Fields", "delimited_fields", "field_matrix", "field_words", "line_ends", "parse_floats", "parse_ints", "parse_labels"]

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


class Fields(NamedTuple):
    """Where the fields of the proven lines of a block are: :func:`delimited_fields`'s result."""

    grid: I64  # (proven lines, width - 1): the delimiters' offsets
    line_starts: I64  # of the proven lines
    line_ends: I64  # content ends of the proven lines
    proven: Bool  # one per line of the block

    def start(self, k: int) -> I64:
        """Offsets of field ``k`` of every proven line."""
        return self.line_starts if k == 0 else self.grid[:, k - 1] + 1

    def end(self, k: int) -> I64:
        """Offsets just past field ``k`` of every proven line."""
        return self.line_ends if k == self.grid.shape[1] else self.grid[:, k]

    def select(self, keep: Bool) -> Fields:
        """The fields of the proven lines where ``keep`` (one flag per proven line) is set."""
        return Fields(self.grid[keep], self.line_starts[keep], self.line_ends[keep], self.proven)


def delimited_fields(
    a: U8, starts: I64, ends: I64, nl: I64, delimiter: int | tuple[int, ...], width: int
) -> Fields:
    """Field boundaries of the lines of ``a`` that have exactly ``width`` fields.

    Parameters
    ----------
    a : uint8 array
        The block.
    starts, ends, nl : int64 arrays
        From :func:`line_ends`.
    delimiter : int or tuple of int
        The delimiter byte (``ord(",")`` or ``ord("\\t")``), or several
        (any one of them separates two fields).
    width : int
        Fields per row (the header's), at least 2.

    Returns
    -------
    Fields
        ``proven`` flags the lines with exactly ``width - 1`` delimiters;
        ``start(k)`` and ``end(k)`` give the byte offsets of field ``k`` of
        each proven line, in line order.

    Examples
    --------
    >>> a = np.frombuffer(b"a,1,0.5\\nb,0\\nc,1,2\\n", np.uint8)
    >>> f = delimited_fields(a, *line_ends(a), ord(","), 3)
    >>> f.proven.tolist(), [f.start(k).tolist() for k in range(3)], [f.end(k).tolist() for k in range(3)]
    ([True, False, True], [[0, 12], [2, 14], [4, 16]], [[1, 13], [3, 15], [7, 17]])
    """
    n = nl.size
    gaps = width - 1
    if isinstance(delimiter, tuple):
        hit = a == delimiter[0]
        for other in delimiter[1:]:
            hit |= a == other
        d = np.flatnonzero(hit)
    else:
        d = np.flatnonzero(a == delimiter)
    if d.size == n * gaps:
        grid = d.reshape(n, gaps)
        # Sorted delimiters, grouped by line: when every line's first one is
        # inside it and its last one before its newline, each line has exactly
        # its own ``gaps`` delimiters (the total matches).
        if n == 0 or (bool(np.all(grid[:, 0] >= starts)) and bool(np.all(grid[:, -1] < nl))):
            return Fields(grid, starts, ends, np.ones(n, dtype=bool))
    line_of = np.searchsorted(nl, d)  # the line holding each delimiter
    counts = np.bincount(line_of, minlength=n)[:n]
    proven = counts == gaps
    grid = d[proven[line_of]].reshape(-1, gaps)
    return Fields(grid, starts[proven], ends[proven], proven)


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
        whitespace, other words, non-ASCII text) is left to :func:`scored_pr._io.cases.parse_label`.

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
_NEXT_3D = np.full((16, 2, 256), _FAIL, dtype=np.uint16)
_NEXT_3D[:, 0, :] = _STEP[:, _CLASS]
_NEXT_3D[:, 1, :] = _STEP[:, _END][:, None]
_NEXT = _NEXT_3D.ravel()


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
    Each field is split into sign, significand digits M (an exact integer
    when it has at most 19 digits) and power of ten k, so that its value is
    M * 10**k. Plain decimals (``[+-]digits[.digits]``, up to 24 characters
    after the sign) are read eight characters at a time as 64-bit words
    (SIMD within a register: byte classes by masks, eight digits to an
    integer by three multiplications); the rest (exponents, longer fields,
    anything those masks reject) goes through a finite automaton over all
    such fields at once, one character position per step.

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
    if n == 0:
        return np.zeros(0, dtype=np.float64), np.zeros(0, dtype=bool)
    sig, power, ndigits, negative, proved = _plain_decimals(a, starts, lengths)
    values = np.where(negative, -1.0, 1.0) * _magnitudes(sig, power, ndigits, proved, a, starts, lengths, data)
    rest = np.flatnonzero(~proved)
    if rest.size > _FEW:  # exponents, long fields, anything else: the automaton decides
        r_sig, r_power, r_ndigits, r_negative, r_proved = _automaton(a, starts[rest], lengths[rest])
        r_values = _magnitudes(r_sig, r_power, r_ndigits, r_proved, a, starts[rest], lengths[rest], data)
        values[rest] = np.where(r_negative, -r_values, r_values)
        proved[rest] = r_proved
    else:  # a few (an exponent here and there): the same grammar, field by field
        for i in rest.tolist():
            s = int(starts[i])
            field = data[s : s + int(lengths[i])]
            if _GRAMMAR.fullmatch(field) and len(field) <= MAX_NUMBER_CHARS:
                values[i] = float(field)
                proved[i] = True
    return values, proved


#: Fewer fields than this left by the word-at-a-time pass are read one by one.
_FEW = 64
#: The grammar of the automaton, for those few fields.
_GRAMMAR = re.compile(rb"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


_ASCII_ZEROS = np.uint64(0x3030303030303030)
_DOTS = np.uint64(0x2E2E2E2E2E2E2E2E)
_HIGH = np.uint64(0x8080808080808080)
_LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_NIBBLES = np.uint64(0x0F0F0F0F0F0F0F0F)
_PLUS_118 = np.uint64(0x7676767676767676)
#: _FIRST[k]: the low k bytes of a word; _FIRST_HIGH[k]: their high bits.
_FIRST = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)
_FIRST_HIGH = _FIRST & _HIGH
# 10**k modulo 2**64: exact up to k = 19; larger ones only ever multiply a zero integer part.
_POW10_U64 = np.array([10**k % 2**64 for k in range(MAX_NUMBER_CHARS + 1)], dtype=np.uint64)
_ONES = np.uint64(0x0101010101010101)


def _count_high(m: npt.NDArray[np.uint64]) -> I64:
    """How many bytes of each word have their high bit set (``m`` holds only high bits)."""
    return ((m >> np.uint64(7)) * _ONES >> np.uint64(56)).astype(np.int64)


def _eight_digits(x: npt.NDArray[np.uint64], k: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """The integer written by the first ``k`` bytes (ASCII digits, most significant first) of each word."""
    # Shifting left by 8 * (8 - k) drops the bytes past the k-th and leaves
    # leading zero digits (numpy shifts by 64 or more give 0: k = 0 is 0).
    d = (x & _NIBBLES) << (np.uint64(64) - (k << np.uint64(3)))
    with np.errstate(over="ignore"):  # the multiplications wrap by design
        d = (d * np.uint64(2561)) >> np.uint64(8)  # pairs: 10 * d[i] + d[i + 1]
        d = ((d & np.uint64(0x00FF00FF00FF00FF)) * np.uint64(6553601)) >> np.uint64(16)  # quads
        return ((d & np.uint64(0x0000FFFF0000FFFF)) * np.uint64(42949672960001)) >> np.uint64(32)  # type: ignore[no-any-return]


def _digits(
    a: U8, at: I64, count: I64, first: npt.NDArray[np.uint64] | None = None
) -> npt.NDArray[np.uint64]:
    """The integer written by ``count`` (at most 19) ASCII digits from ``at``; ``first``: the word at ``at``, if read."""
    unaligned: npt.NDArray[np.uint64] = np.ndarray(shape=(a.size - 7,), dtype="<u8", buffer=a, strides=(1,))
    words = -(-int(count.max()) // 8) if count.size else 0
    total: npt.NDArray[np.uint64] = np.zeros(at.size, dtype=np.uint64)
    for w in range(words):
        n = np.clip(count - 8 * w, 0, 8)  # digits in this word; int64: numpy < 2 refuses uint64 indices
        x = first if (w == 0 and first is not None) else unaligned[at + 8 * w]
        value = _eight_digits(x, n.astype(np.uint64))
        total = value if w == 0 else total * np.take(_POW10_U64, n) + value
    return total


def _plain_decimals(a: U8, starts: I64, lengths: I64) -> tuple[npt.NDArray[np.uint64], I64, I64, Bool, Bool]:
    """Significand, power of ten, significant digits, sign of the fields ``[+-]digits[.digits]``, eight bytes at a time."""
    first = a[starts]
    negative = first == 45
    signed = negative | (first == 43)
    at = starts + signed
    size = lengths - signed
    ok = (size >= 1) & (size <= 24)
    size = np.where(ok, size, 0)
    nwords = -(-int(size.max()) // 8)
    words = field_words(a, at, size, nwords)
    ndigits = np.zeros(starts.size, dtype=np.int64)
    ndots = np.zeros(starts.size, dtype=np.int64)
    dot_at = size.copy()  # no dot: all digits are integer digits
    for w in range(nwords):
        x = words[:, w]
        inside = np.take(_FIRST_HIGH, np.clip(size - 8 * w, 0, 8))
        t = x ^ _ASCII_ZEROS  # a digit becomes 0..9
        digit = ~(((t & _LOW7) + _PLUS_118) | t) & _HIGH & inside  # byte < 10, without carries between bytes
        t = x ^ _DOTS
        dot = ~(((t & _LOW7) + _LOW7) | t) & _HIGH & inside  # byte == '.'
        ok &= (digit | dot) == inside
        ndigits += _count_high(digit)
        if dot.any():
            ndots += _count_high(dot)
            byte_of_dot = (np.frexp(dot.astype(np.float64))[1] - 8) // 8  # one bit at 8 * k + 7: k
            dot_at = np.where(dot != 0, 8 * w + byte_of_dot, dot_at)
    int_digits = dot_at
    frac_digits = np.where(ndots > 0, size - dot_at - 1, 0)
    ok &= (ndots <= 1) & (ndigits >= 1) & (int_digits <= 16)
    int_digits = np.where(ok, int_digits, 0)
    frac_digits = np.where(ok, frac_digits, 0)
    integer = _digits(a, at, int_digits, words[:, 0] if nwords else None)
    frac_at = at + int_digits + 1
    unaligned: npt.NDArray[np.uint64] = np.ndarray(shape=(a.size - 7,), dtype="<u8", buffer=a, strides=(1,))
    first_frac = unaligned[frac_at]
    fraction = _digits(a, frac_at, frac_digits, first_frac)
    # Significant digits: without the leading zeros of "0.000123" (up to 8 of them).
    t = first_frac ^ _ASCII_ZEROS
    nonzero = (((t & _LOW7) + _LOW7) | t | ~np.take(_FIRST_HIGH, np.minimum(frac_digits, 8))) & _HIGH
    lowest = nonzero & (~nonzero + np.uint64(1))
    leading = np.where(nonzero == 0, 8, (np.frexp(lowest.astype(np.float64))[1] - 8) // 8)
    significant = ndigits - np.where(integer == 0, int_digits + leading, 0)
    ok &= significant <= 19  # M below 10**19: exact in 64 bits
    with np.errstate(over="ignore"):
        sig = integer * np.take(_POW10_U64, frac_digits) + fraction
    return sig, -frac_digits, significant, negative, ok


def _automaton(a: U8, starts: I64, lengths: I64) -> tuple[npt.NDArray[np.uint64], I64, I64, Bool, Bool]:
    """Significand, power of ten, significant digits, sign of decimal fields with exponents, one character per step."""
    n = starts.size
    fits = lengths <= MAX_NUMBER_CHARS
    width = min(int(lengths.max()), MAX_NUMBER_CHARS) + 1  # one step past the longest field: its end
    length8 = np.where(fits, lengths, 0).astype(np.uint8)
    state: npt.NDArray[np.uint16] = np.full(n, _START, dtype=np.uint16)
    sig: npt.NDArray[np.uint64] = np.zeros(n, dtype=np.uint64)
    ndigits = np.zeros(n, dtype=np.int64)
    frac = np.zeros(n, dtype=np.int64)
    expo: I64 = np.zeros(n, dtype=np.int64)
    exp_negative = np.zeros(n, dtype=bool)
    negative = np.take(a, starts) == 45
    started = np.zeros(n, dtype=bool)  # a nonzero significand digit seen
    ten = np.uint64(10)
    at = starts.copy()
    for j in range(width):
        byte = np.take(a, at)
        at += 1
        key = (state << 9) | ((length8 <= j).view(np.uint8).astype(np.uint16) << 8) | byte
        state = np.take(_NEXT, key)
        significand = (state == _INT) | (state == _FRAC)
        if significand.any():
            digit = (byte - np.uint8(48)).astype(np.uint64)
            with np.errstate(over="ignore"):  # beyond 19 significant digits M is not used
                sig = np.where(significand, sig * ten + digit, sig)
            started |= significand & (digit != 0)
            ndigits += significand & started  # significant digits: not the leading zeros
            frac += state == _FRAC
        if j and (state >= _EXPE).any():  # exponents are rare: skip the work without them
            in_exp = state == _EXP
            expo = np.where(in_exp, expo * 10 + (byte - np.uint8(48)).astype(np.int64), expo)
            expo = np.minimum(expo, 100_000)  # bounded: float() decides beyond the fast paths
            exp_negative |= (state == _ESIGN) & (byte == 45)
    proved = fits & (state == _DONE)
    return sig, np.where(exp_negative, -expo, expo) - frac, ndigits, negative, proved


def _magnitudes(
    sig: npt.NDArray[np.uint64], power: I64, ndigits: I64, proved: Bool, a: U8, starts: I64, lengths: I64, data: bytes
) -> F64:
    """|M * 10**power| as float64, correctly rounded (0.0 where not proved)."""
    values = np.zeros(sig.size, dtype=np.float64)
    todo = proved.copy()
    exact = ndigits <= 19  # at most 19 significant digits: M is exact, not wrapped
    # M = 0 (any exponent) is 0.0; Clinger's fast path.
    zero = todo & exact & (sig == 0)
    fast = todo & ~zero & exact & (sig <= _TWO53) & (np.abs(power) <= 22)
    if fast.any():
        mf = sig[fast].astype(np.float64)
        p = power[fast]
        scale = _POW10_F64[np.abs(p)]
        values[fast] = np.where(p >= 0, mf * scale, mf / scale)
    todo &= ~(fast | zero)
    if _EXTENDED and todo.any():
        ext = todo & exact & (np.abs(power) <= _MAX_EXTENDED_POW)
        if ext.any():
            idx = np.flatnonzero(ext)
            got, sure = _extended(sig[idx], power[idx])
            values[idx[sure]] = got[sure]
            todo[idx[sure]] = False
    for i in np.flatnonzero(todo).tolist():  # rare: float() is the reference
        s = int(starts[i])
        values[i] = abs(float(data[s : s + int(lengths[i])]))
    return values


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


def field_words(a: U8, starts: I64, lengths: I64, nwords: int) -> npt.NDArray[np.uint64]:
    """The bytes of each field as ``nwords`` 64-bit words (little-endian), zero past the field's end.

    Two fields of at most ``8 * nwords`` bytes are equal exactly when their
    lengths and words are; comparing the byte-swapped words (big-endian) in
    order compares the fields in byte order, as ``strcmp`` does. ``a`` must
    extend ``8 * nwords`` bytes past every field start.

    Examples
    --------
    >>> a = np.frombuffer(b"doc12 d" + bytes(16), np.uint8)
    >>> w = field_words(a, np.array([0, 6]), np.array([5, 1]), 1)
    >>> [int(x).to_bytes(8, "little") for x in w[:, 0]]
    [b'doc12\\x00\\x00\\x00', b'd\\x00\\x00\\x00\\x00\\x00\\x00\\x00']
    """
    unaligned: npt.NDArray[np.uint64] = np.ndarray(shape=(a.size - 7,), dtype="<u8", buffer=a, strides=(1,))  # a word at every byte
    out = np.empty((starts.size, nwords), dtype=np.uint64)
    keep = np.array([0] + [(1 << (8 * k)) - 1 for k in range(1, 8)] + [(1 << 64) - 1], dtype=np.uint64)
    for w in range(nwords):
        valid = np.clip(lengths - 8 * w, 0, 8)
        out[:, w] = unaligned[starts + 8 * w] & keep[valid]  # fancy indexing: np.take would copy the strided view
    return out


def parse_ints(a: U8, starts: I64, lengths: I64) -> tuple[I64, Bool]:
    """Integers ``[+-]digits`` (at most 18 digits) as int64, as ``int()`` reads them.

    Returns the values and which fields have that form; anything else
    (underscores, whitespace, more digits) is for ``int()`` itself.

    Examples
    --------
    >>> data = b"0,-3,+12,007,1_0,,x"
    >>> fields = data.split(b",")
    >>> starts = np.cumsum([0] + [len(f) + 1 for f in fields[:-1]])
    >>> v, ok = parse_ints(np.frombuffer(data + bytes(32), np.uint8), starts, np.array([len(f) for f in fields]))
    >>> v[ok].tolist(), ok.tolist()
    ([0, -3, 12, 7], [True, True, True, True, False, False, False])
    """
    n = starts.size
    values: I64 = np.zeros(n, dtype=np.int64)
    ok = (lengths > 0) & (lengths <= 19)
    if n == 0:
        return values, ok
    first = np.take(a, starts, mode="clip")
    signed = (first == 43) | (first == 45)
    ndigits = lengths - signed
    ok &= (ndigits >= 1) & (ndigits <= 18)
    width = int(lengths[ok].max()) if ok.any() else 0
    for j in range(width):
        byte = np.take(a, starts + j, mode="clip")
        inside = (j < lengths) & ~(signed & (j == 0))
        digit = byte.astype(np.int64) - 48
        ok &= ~inside | ((digit >= 0) & (digit <= 9))
        values = np.where(inside, values * 10 + digit, values)
    return np.where(first == 45, -values, values), ok
