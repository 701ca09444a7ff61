"""Validation at the public boundary.

Every check here either returns a normalised value or raises before the
caller has changed any state. Messages follow one pattern::

    <function>: argument '<name>' must be <expectation>; got <repr> instead.

with the index inside a batch where there is one. Nothing else in the package
validates user input; the functional core trusts what it is given.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

import numpy as np
import numpy.typing as npt

TIE_POLICIES = ("stable", "grouped")


def _describe(value: Any) -> str:
    text = repr(value)
    if len(text) > 80:
        text = text[:77] + "..."
    return f"{text} ({type(value).__name__})"


def _fail(exc: type[Exception], func: str, name: str, expected: str, value: Any, index: int | None = None) -> Exception:
    where = "" if index is None else f" at index {index}"
    return exc(f"{func}: argument '{name}' must be {expected}; got {_describe(value)}{where} instead.")


_CORRECT_EXPECTED = "a bool (True/False, numpy.bool_ or the integers 0/1)"
_SCORE_EXPECTED = "a real number (int, float or a numpy integer/floating scalar), not NaN"


def check_ties(ties: Any, func: str = "ScoredPrecisionRecallEvaluation") -> str:
    if not isinstance(ties, str) or ties not in TIE_POLICIES:
        raise _fail(ValueError, func, "ties", "one of " + ", ".join(repr(t) for t in TIE_POLICIES), ties)
    return ties


def check_correct(value: Any, func: str, name: str = "correct", index: int | None = None) -> bool:
    """Return ``value`` as a bool; strings, floats and None are TypeErrors."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        if value == 0 or value == 1:
            return bool(value)
        raise _fail(ValueError, func, name, _CORRECT_EXPECTED, value, index)
    raise _fail(TypeError, func, name, _CORRECT_EXPECTED, value, index)


_EXACT_EXPECTED = "exactly representable as a float64 (convert it yourself if rounding is acceptable)"


def check_score(value: Any, func: str, name: str = "score", index: int | None = None) -> float:
    """Return ``value`` as a float; NaN, overflow and inexact conversion are ValueErrors.

    A score that float64 cannot hold exactly (an integer beyond 2**53 that is
    not a float64 value, a long double with extra precision) is rejected
    rather than rounded: rounding could merge distinct scores into a tie.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise _fail(TypeError, func, name, _SCORE_EXPECTED, value, index)
    try:
        with np.errstate(all="ignore"):  # a long double's overflow is reported below, not warned
            result = float(value)
    except OverflowError:
        raise _fail(ValueError, func, name, "representable as a float64 (finite numbers up to about 1.8e308)", value, index) from None
    if math.isnan(result):
        raise _fail(ValueError, func, name, _SCORE_EXPECTED, value, index)
    if isinstance(value, (int, np.integer)):
        if math.isinf(result) or int(result) != int(value):
            raise _fail(ValueError, func, name, _EXACT_EXPECTED, value, index)
    elif isinstance(value, np.floating) and value.dtype.itemsize > 8:
        if math.isinf(result) and not np.isinf(value):
            raise _fail(ValueError, func, name, "representable as a float64 (finite numbers up to about 1.8e308)", value, index)
        if np.longdouble(result) != value:
            raise _fail(ValueError, func, name, _EXACT_EXPECTED, value, index)
    return result


#: Largest count accepted: every count up to 2**53 is exact in float64, so
#: every ratio of counts (recall, precision) is the correctly rounded one.
MAX_COUNT = 2**53
_COUNT_EXPECTED = f"a non-negative int of at most 2**53 ({MAX_COUNT})"


def check_count(value: Any, func: str, name: str = "count", already: int = 0) -> int:
    """A non-negative int that keeps ``already + value`` within :data:`MAX_COUNT`."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise _fail(TypeError, func, name, _COUNT_EXPECTED, value)
    if value < 0 or value > MAX_COUNT:
        raise _fail(ValueError, func, name, _COUNT_EXPECTED, value)
    if already + value > MAX_COUNT:
        raise _fail(ValueError, func, name, f"at most {MAX_COUNT - already} (the total must stay within 2**53)", value)
    return int(value)


def check_positive_int(value: Any, func: str, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise _fail(TypeError, func, name, "an int >= 1", value)
    if value < 1:
        raise _fail(ValueError, func, name, "an int >= 1", value)
    return int(value)


def check_beta(value: Any, func: str, name: str = "beta") -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise _fail(TypeError, func, name, "a finite real number > 0", value)
    result = float(value)
    if not (math.isfinite(result) and result > 0.0):
        raise _fail(ValueError, func, name, "a finite real number > 0", value)
    return result


def check_fraction(value: Any, func: str, name: str, low_open: bool) -> float:
    """A real number in (0, 1] (``low_open``) or [0, 1]."""
    expected = "a real number in (0, 1]" if low_open else "a real number in [0, 1]"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise _fail(TypeError, func, name, expected, value)
    result = float(value)
    if not (0.0 < result <= 1.0 if low_open else 0.0 <= result <= 1.0):
        raise _fail(ValueError, func, name, expected, value)
    return result


def check_choice(value: Any, func: str, name: str, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise _fail(ValueError, func, name, "one of " + ", ".join(repr(c) for c in choices), value)
    return value


def check_flag(value: Any, func: str, name: str) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise _fail(TypeError, func, name, "a bool", value)


def _as_1d(values: Any, func: str, name: str) -> np.ndarray:
    if isinstance(values, (str, bytes, bytearray)):
        raise _fail(TypeError, func, name, "a 1-dimensional array-like or iterable", values)
    if isinstance(values, (AbstractSet, Mapping)):
        # no defined order: labels and scores would be paired arbitrarily
        raise _fail(TypeError, func, name, "an ordered sequence or array (a set or dict has no defined order)", values)
    if isinstance(values, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(values)
        if mask.any():
            i = int(np.argmax(mask.ravel()))
            raise ValueError(
                f"{func}: argument '{name}' must not hold masked values (drop or fill them first); "
                f"got a masked array with {int(mask.sum())} masked at index {i} instead."
            )
        values = np.ma.getdata(values)
    if not isinstance(values, (np.ndarray, list, tuple)):
        if not isinstance(values, Iterable):
            raise _fail(TypeError, func, name, "a 1-dimensional array-like or iterable", values)
        values = list(values)
    if isinstance(values, np.ndarray):
        arr = values
    else:
        try:
            arr = np.asarray(values)
        except ValueError:  # ragged nested sequences
            arr = np.asarray(values, dtype=object)
        if arr.ndim == 1 and _mixed(values, arr.dtype.kind, name):
            # numpy would have coerced the odd element (True -> 1.0, 1 -> '1'):
            # keep the originals so that the check reports what the user passed.
            arr = np.empty(len(values), dtype=object)
            arr[:] = values
    if arr.ndim == 2 and arr.shape[1] == 1:  # a column vector, as scikit-learn's column_or_1d accepts
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(
            f"{func}: argument '{name}' must be 1-dimensional or an (n, 1) column; got an array of shape {arr.shape} instead."
        )
    return arr


_BOOL_TYPES = {bool, np.bool_}


def _mixed(values: list[Any] | tuple[Any, ...], kind: str, name: str) -> bool:
    """Whether numpy's coercion of a list hid an element of another kind."""
    if name == "correct":
        return kind not in "biu"
    if kind not in "fiu" or not _BOOL_TYPES.isdisjoint(set(map(type, values))):
        return True
    # numpy converts a list holding a float and a large int to float64, rounding
    # the int; keep such lists as objects so that each score is checked exactly.
    return kind == "f" and any(
        (type(v) is int or isinstance(v, np.integer)) and not -MAX_COUNT <= v <= MAX_COUNT for v in values
    )


def check_batch(
    correct: Any, scores: Any, func: str = "add_cases"
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """Validate a batch; return (bool array, float64 array) of equal length."""
    c = _as_1d(correct, func, "correct")
    s = _as_1d(scores, func, "scores")
    if len(c) != len(s):
        raise ValueError(
            f"{func}: arguments 'correct' and 'scores' must have the same length; "
            f"got {len(c)} and {len(s)} instead."
        )
    return _batch_correct(c, func), _batch_scores(s, func)


def _batch_correct(c: np.ndarray, func: str) -> npt.NDArray[np.bool_]:
    kind = c.dtype.kind
    if kind == "b":
        return c.astype(bool, copy=False)
    if kind in "iu":
        bad = np.flatnonzero((c != 0) & (c != 1))
        if bad.size:
            i = int(bad[0])
            raise _fail(ValueError, func, "correct", _CORRECT_EXPECTED, c[i].item(), i)
        return c.astype(bool)
    if kind == "O":
        return np.fromiter(
            (check_correct(v, func, "correct", i) for i, v in enumerate(c)), dtype=bool, count=len(c)
        )
    if len(c) == 0:
        return np.zeros(0, dtype=bool)
    raise _fail(TypeError, func, "correct", _CORRECT_EXPECTED, c[0].item(), 0)


def _batch_scores(s: np.ndarray, func: str) -> npt.NDArray[np.float64]:
    kind = s.dtype.kind
    if kind == "f" and s.dtype.itemsize <= 8:
        out = s.astype(np.float64, copy=False)
    elif kind in "iuf":  # integers and long doubles: converted only if exact
        with np.errstate(all="ignore"):
            out = s.astype(np.float64)
            back = out.astype(s.dtype) if kind == "f" else np.where(np.isfinite(out), out, 0).astype(s.dtype)
            lost = (back != s) | (np.isinf(out) & ~np.isinf(s)) if kind == "f" else (back != s) | ~np.isfinite(out)
        if kind == "f":
            lost &= ~np.isnan(s)
        if lost.any():
            i = int(np.argmax(lost))
            check_score(s[i], func, "scores", i)  # raises with the precise reason
            raise _fail(ValueError, func, "scores", _EXACT_EXPECTED, s[i].item(), i)  # pragma: no cover
    elif kind == "O":
        return np.fromiter(
            (check_score(v, func, "scores", i) for i, v in enumerate(s)), dtype=np.float64, count=len(s)
        )
    elif len(s) == 0:
        return np.zeros(0, dtype=np.float64)
    else:
        raise _fail(TypeError, func, "scores", _SCORE_EXPECTED, s[0].item(), 0)
    nan = np.isnan(out)
    if nan.any():
        i = int(np.argmax(nan))
        raise _fail(ValueError, func, "scores", _SCORE_EXPECTED, s[i].item(), i)
    return out
