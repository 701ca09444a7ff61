"""The checks of cases: labels, scores, weights, counts and times, one at a time or in batches.

These run on the hot paths (``add_case``, ``add_cases`` of every kind): each
check is a plain function, called directly, with the common case first and
the exact reason computed only once an input is refused.
"""

from __future__ import annotations

import inspect
import math
from decimal import Decimal
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import describe, fail


_CORRECT_EXPECTED = (
    "a label: bool, 0/1 or -1/1 (any integer or float type); other labels (strings, class ids) "
    "need pos_label= to say which value is the positive class"
)


_SCORE_EXPECTED = "a real number (int, float, decimal.Decimal or a numpy integer/floating scalar), not NaN"


def _string_score(value: Any, func: str, name: str, index: int | None) -> TypeError:
    """The refusal of a score given as text: say it is a string, and that scores must be numbers."""
    where = "" if index is None else f" at index {index}"
    text = str(value)
    shown = repr(text if len(text) <= 60 else text[:57] + "...")
    hint = ("convert scores to numbers first (e.g. numpy.asarray(scores, dtype=float))" if "score" in name
            else "pass a number")
    return TypeError(f"{func}: argument '{name}' must be numeric, not a string; got the string {shown}{where}; "
                     f"{hint}.")


def _decimal_score(value: Decimal, func: str, name: str, index: int | None) -> float:
    """A ``decimal.Decimal`` score as float64, correctly rounded (``float(value)``); NaN and overflow refused.

    Rounding to the nearest float64 keeps the order of any two Decimals (it
    is monotone); two distinct Decimals of one call that round to the same
    float64 would become a tie, and :func:`batch_scores` refuses them.
    """
    if value.is_nan():
        raise fail(ValueError, func, name, _SCORE_EXPECTED, value, index)
    result = float(value)
    if math.isinf(result) and value.is_finite():
        raise fail(ValueError, func, name, "representable as a float64 (finite numbers up to about 1.8e308)", value, index)
    return result


def _check_decimal_ties(s: np.ndarray, out: npt.NDArray[np.float64], func: str, name: str) -> None:
    """Refuse two distinct scores of one call, one of them a Decimal, that round to one float64.

    The rule of integers beyond 2**53, for Decimals: rounding may not merge
    distinct scores into a tie. Compared by exact value (``Decimal(0.5) ==
    Decimal("0.50")``); O(n) Python work, on object arrays that hold a Decimal.
    """
    seen: dict[float, tuple[int, Any, Decimal]] = {}
    for i, (v, f) in enumerate(zip(s.tolist(), out.tolist())):
        exact = v if isinstance(v, Decimal) else Decimal(int(v)) if isinstance(v, (int, np.integer)) else Decimal(f)
        first = seen.setdefault(f, (i, v, exact))
        if first[2] != exact:
            raise ValueError(
                f"{func}: argument '{name}' must hold scores that stay distinct as float64; got {describe(first[1])} "
                f"at index {first[0]} and {describe(v)} at index {i}, which both round to {f!r} instead "
                "(round them yourself if the tie is acceptable)."
            )


def host(value: Any, func: str, name: str) -> Any:
    """Tensors and foreign arrays as numpy, without a Python-level loop.

    torch tensors are detached when they require grad; an array on a device
    other than the CPU is refused (copying it is the caller's decision).
    Objects exposing ``__array__``, ``__array_interface__``, ``__dlpack__`` or
    the buffer protocol are converted by numpy; anything else is returned as is.
    pyarrow's ``Array``, ``ChunkedArray``, ``Table`` and ``RecordBatch`` become
    numpy arrays (a table's columns side by side, shape (n, k)), a ``Scalar``
    a 0-d array; a null is refused, naming its index (and column), as a
    masked value is.
    """
    if isinstance(value, np.ndarray):
        return value
    if type(value).__module__.startswith("pyarrow"):
        return _from_arrow(value, func, name)
    device = getattr(value, "device", None)
    if device is not None and not inspect.isroutine(device):
        kind = getattr(device, "type", None) or getattr(device, "platform", None)
        if kind is not None and str(kind) != "cpu":
            raise TypeError(
                f"{func}: argument '{name}' must be in host (CPU) memory; got a {type(value).__name__} on "
                f"device {device} instead. Call .cpu() first (torch: tensor.detach().cpu())."
            )
    if getattr(value, "requires_grad", False) and callable(getattr(value, "detach", None)):
        value = value.detach()
    if hasattr(value, "__array__") or hasattr(value, "__array_interface__"):
        return np.asarray(value)
    if hasattr(value, "__dlpack__"):
        return np.from_dlpack(value)
    if isinstance(value, (memoryview, bytearray)) or type(value).__name__ == "array":
        try:
            return np.asarray(memoryview(value))
        except TypeError:
            return value
    return value


def _from_arrow(value: Any, func: str, name: str) -> Any:
    """A pyarrow array, chunked array, table or record batch as numpy, without a Python loop; nulls refused.

    pyarrow is not imported here: an object of its types is asked for its
    own methods (``null_count``, ``is_null``, ``columns``), so nothing is
    imported unless the caller already holds a pyarrow object.
    """
    columns = getattr(value, "columns", None)
    if columns is not None and hasattr(value, "num_rows") and hasattr(value, "column_names"):  # Table, RecordBatch
        for column, column_name in zip(columns, value.column_names):
            _no_arrow_nulls(column, func, name, f" in column {column_name!r}")
        if not columns:
            return np.zeros((value.num_rows, 0))
        return np.column_stack([arrow_to_numpy(column) for column in columns])
    if hasattr(value, "null_count") and hasattr(value, "is_null"):  # Array, ChunkedArray
        _no_arrow_nulls(value, func, name, "")
        return arrow_to_numpy(value)
    if hasattr(value, "as_py") and hasattr(value, "is_valid"):  # a Scalar: its Python value as a 0-d array
        if not value.is_valid:
            raise ValueError(f"{func}: argument '{name}' must not be null; got a pyarrow {type(value).__name__} null instead.")
        return np.asarray(value.as_py())
    return value


def arrow_to_numpy(array: Any) -> np.ndarray:
    """An Arrow ``Array`` or ``ChunkedArray`` without nulls as numpy (string columns as numpy strings).

    A boolean or numeric array is read from its data buffer (chunk by chunk,
    any offset; numeric ones without a copy): ``numpy.asarray`` and
    ``to_numpy`` give the same values but import pandas to do it, seconds that
    ``scored-pr report`` of a Parquet file (whose batches import nothing else)
    does not spend. Other types go through ``numpy.asarray``.
    """
    import pyarrow as pa  # the caller holds a pyarrow object: it is imported already

    t = array.type
    if isinstance(array, pa.ChunkedArray):
        if pa.types.is_boolean(t) or pa.types.is_integer(t) or pa.types.is_floating(t):
            parts = [arrow_to_numpy(chunk) for chunk in array.chunks]
            return np.concatenate(parts) if parts else np.zeros(0, dtype=bool if pa.types.is_boolean(t) else np.float64)
    elif pa.types.is_boolean(t) or pa.types.is_integer(t) or pa.types.is_floating(t):
        n, offset = len(array), array.offset
        data = array.buffers()[1]
        if pa.types.is_boolean(t):  # one bit per value, least significant bit first
            if data is None or n == 0:
                return np.zeros(0, dtype=bool)
            bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little", count=offset + n)
            return bits[offset:].astype(bool)
        kind = "f" if pa.types.is_floating(t) else ("i" if pa.types.is_signed_integer(t) else "u")
        dtype = np.dtype(f"<{kind}{t.bit_width // 8}")
        if data is None or n == 0:
            return np.zeros(0, dtype=dtype)
        return np.frombuffer(data, dtype=dtype, count=n, offset=offset * dtype.itemsize)
    arr = np.asarray(array)
    if str(getattr(t, "value_type", t)) in _ARROW_STRINGS:
        arr = arr.astype(str)  # numpy's str dtype, not objects: class labels as numpy strings read them
    return arr


#: Arrow's string types (a dictionary-encoded column names its values' type).
_ARROW_STRINGS = frozenset({"string", "large_string", "string_view"})


def _no_arrow_nulls(array: Any, func: str, name: str, where: str) -> None:
    """Refuse an Arrow array holding nulls, naming the first one's index (numpy would make it NaN or None)."""
    if array.null_count:
        i = int(np.argmax(np.asarray(array.is_null())))
        raise ValueError(
            f"{func}: argument '{name}' must not hold nulls (drop or fill them first); got a pyarrow "
            f"{type(array).__name__} with {array.null_count} null(s){where}, the first at index {i}, instead."
        )


def _scalar(value: Any, func: str, name: str) -> Any:
    """A 0-d array or tensor as its numpy scalar; anything else unchanged."""
    if isinstance(value, (bool, int, float, str, np.generic)) or value is None:
        return value
    arr = host(value, func, name)
    if isinstance(arr, np.ndarray):
        if arr.ndim != 0:
            raise fail(TypeError, func, name, "a scalar (a 0-d array or tensor is fine)", value)
        return arr[()]
    return value


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def check_correct(value: Any, func: str, name: str = "correct", index: int | None = None, pos_label: Any = None) -> bool:
    """Return the label ``value`` as a bool (positive class or not).

    Without ``pos_label``: bool, or the numbers 1 (positive), 0 and -1
    (negative) in any integer or float type; a string or another number is an
    error that asks for ``pos_label``. With ``pos_label``: ``value ==
    pos_label``, where a string label never equals a numeric ``pos_label``
    and vice versa (a TypeError, not a silent False).
    """
    value = _scalar(value, func, name)
    if pos_label is not None:
        return _match(value, pos_label, func, name, index)
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if is_number(value):
        if value == 1:
            return True
        if value == 0 or value == -1:
            return False
        raise fail(ValueError, func, name, _CORRECT_EXPECTED, value, index)
    raise fail(TypeError, func, name, _CORRECT_EXPECTED, value, index)


def _match(value: Any, pos_label: Any, func: str, name: str, index: int | None) -> bool:
    if isinstance(pos_label, str):
        if isinstance(value, (str, np.str_)):
            return bool(value == pos_label)
    elif isinstance(value, (bool, np.bool_)) or (is_number(value) and not math.isnan(value)):
        return bool(value == pos_label)
    raise fail(TypeError, func, name, label_expected(pos_label), value, index)


def label_expected(pos_label: Any) -> str:
    """What a label must be, given ``pos_label`` (None: bool, 0/1 or -1/1): the expectation of every label check."""
    if pos_label is None:
        return _CORRECT_EXPECTED
    if isinstance(pos_label, str):
        return f"a str label, as pos_label={pos_label!r} is"
    return f"a number or bool label (not NaN), as pos_label={pos_label!r} is"


def labels_of_kind(kind: str, pos_label: Any) -> bool:
    """Whether labels of numpy dtype kind ``kind`` can be labels at all, given ``pos_label``.

    The type rule of :func:`batch_correct` for a typed column (not ``"O"``,
    whose elements are checked one by one): bool, integer and float labels go
    with a numeric or bool ``pos_label`` (or none), str labels (``"U"``,
    ``"S"``) with a str one. A bool column with ``pos_label=2`` is accepted:
    its labels are compared with 2 (``c == pos_label``) and none is positive.
    """
    if pos_label is None:
        return kind in "biuf"
    return kind in "biufUS" and (kind in "biuf") != isinstance(pos_label, str)


_EXACT_EXPECTED = "exactly representable as a float64 (convert it yourself if rounding is acceptable)"


def check_score(value: Any, func: str, name: str = "score", index: int | None = None) -> float:
    """Return ``value`` as a float; NaN, overflow and inexact conversion are ValueErrors.

    A score that float64 cannot hold exactly (an integer beyond 2**53 that is
    not a float64 value, a long double with extra precision) is rejected
    rather than rounded: rounding could merge distinct scores into a tie.
    0-d arrays and tensors are accepted as their scalar.
    """
    value = _scalar(value, func, name)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        if isinstance(value, Decimal):
            return _decimal_score(value, func, name, index)
        if isinstance(value, str):
            raise _string_score(value, func, name, index)
        raise fail(TypeError, func, name, _SCORE_EXPECTED, value, index)
    result = exact_float(value, func, name, index)
    if math.isnan(result):
        raise fail(ValueError, func, name, _SCORE_EXPECTED, value, index)
    return result


_RANGE_EXPECTED = "representable as a float64 (finite numbers up to about 1.8e308)"


def exact_float(value: Any, func: str, name: str, index: int | None = None) -> float:
    """A number (int, float, numpy integer or floating scalar) as the float64 that equals it, or a ValueError.

    An int beyond float64's range, or one that float64 cannot hold exactly (an
    integer beyond 2**53 that is not a float64 value), and a long double with
    extra precision are refused rather than rounded: the rule of scores and of
    weights alike. NaN passes (each caller says what it expects instead).
    """
    try:
        with np.errstate(all="ignore"):  # a long double's overflow is reported below, not warned
            result = float(value)
    except OverflowError:
        raise fail(ValueError, func, name, _RANGE_EXPECTED, value, index) from None
    if isinstance(value, (int, np.integer)):
        if math.isinf(result) or int(result) != int(value):
            raise fail(ValueError, func, name, _EXACT_EXPECTED, value, index)
    elif isinstance(value, np.floating) and value.dtype.itemsize > 8 and not math.isnan(result):
        if math.isinf(result) and not np.isinf(value):
            raise fail(ValueError, func, name, _RANGE_EXPECTED, value, index)
        if np.longdouble(result) != value:
            raise fail(ValueError, func, name, _EXACT_EXPECTED, value, index)
    return result


def exact_floats(s: np.ndarray, func: str, name: str, check_one: Any) -> npt.NDArray[np.float64]:
    """An integer or floating array as float64, refusing (as :func:`exact_float`) any value it would round.

    ``check_one(value, func, name, index)`` is the caller's check of one
    value: it is called on the first value lost, to raise its precise reason.
    """
    if s.dtype.kind == "f" and s.dtype.itemsize <= 8:
        return s.astype(np.float64, copy=False)
    out, lost = inexact_scores(s)
    if lost.any():
        i = int(np.argmax(lost))
        check_one(s[i], func, name, i)  # raises with the precise reason
        raise fail(ValueError, func, name, _EXACT_EXPECTED, s[i].item(), i)  # pragma: no cover
    return out


_WEIGHT_EXPECTED = "a finite real number >= 0 (a sample weight)"

#: The least positive weight: the smallest normal float64, 2**-1022. A
#: subnormal weight has fewer than 53 significant bits, so sums and ratios of
#: such weights lose the precision the measures promise.
MIN_WEIGHT = 2.0**-1022

#: The greatest weight, 2**970 (about 9.98e291): MAX_COUNT (2**53) cases of
#: this weight sum to 2**1023, so no total of weights, nor a sum of two totals
#: (accepted plus positive weight in an F-measure), overflows float64.
MAX_WEIGHT = 2.0**970

#: What an engine's weight column must hold: the evaluators' rule, row by row.
_WEIGHT_RANGE = (
    f"0 or between 2**-1022 ({MIN_WEIGHT!r}, the smallest normal float64) and 2**970 ({MAX_WEIGHT:.6g}), "
    "so that no weight is subnormal and no sum of weights overflows"
)

WEIGHTS_EXPECTED = f"weights {_WEIGHT_RANGE} (no null or NaN)"


def check_weight(value: Any, func: str, name: str = "weight", index: int | None = None) -> float:
    """A sample weight as a float: 0, or a real number in [:data:`MIN_WEIGHT`, :data:`MAX_WEIGHT`].

    An int (or numpy integer) must be exactly representable as a float64, as
    a score must (:func:`exact_float`): 2**53 + 1 and 10**400 are refused, not
    rounded.
    """
    value = _scalar(value, func, name)
    if isinstance(value, (bool, np.bool_)) or not is_number(value):
        raise fail(TypeError, func, name, _WEIGHT_EXPECTED, value, index)
    result = exact_float(value, func, name, index)
    if not (math.isfinite(result) and result >= 0.0):
        raise fail(ValueError, func, name, _WEIGHT_EXPECTED, value, index)
    if not (MIN_WEIGHT <= result <= MAX_WEIGHT or result == 0.0):
        raise fail(ValueError, func, name, _WEIGHT_RANGE, value, index)
    return result


def check_weights(values: Any, size: int, func: str, name: str = "sample_weight") -> npt.NDArray[np.float64] | None:
    """Sample weights for a batch of ``size`` cases; None when every weight is 1.

    Each weight follows :func:`check_weight`'s rule; the first one refused is
    named with its index.
    """
    w = as_1d(values, func, name)
    if len(w) != size:
        raise ValueError(
            f"{func}: argument '{name}' must have one weight per case; got {len(w)} weights for {size} cases instead."
        )
    if w.dtype.kind == "O":
        out = np.fromiter((check_weight(v, func, name, i) for i, v in enumerate(w)), dtype=np.float64, count=len(w))
    elif w.dtype.kind in "iuf":
        out = exact_floats(w, func, name, check_weight)
    else:
        raise fail(TypeError, func, name, _WEIGHT_EXPECTED, w[0].item() if len(w) else w, 0)
    bad = ~(np.isfinite(out) & (out >= 0.0))
    if bad.any():
        i = int(np.argmax(bad))
        raise fail(ValueError, func, name, _WEIGHT_EXPECTED, w[i].item() if w.dtype.kind != "O" else w[i], i)
    bad = ~(((out >= MIN_WEIGHT) & (out <= MAX_WEIGHT)) | (out == 0.0))
    if bad.any():
        i = int(np.argmax(bad))
        raise fail(ValueError, func, name, _WEIGHT_RANGE, w[i].item(), i)
    if (out == 1.0).all():
        return None
    return out


#: Largest count accepted: every count up to 2**53 is exact in float64, so
#: every ratio of counts (recall, precision) is the correctly rounded one.
MAX_COUNT = 2**53


_COUNT_EXPECTED = f"a non-negative int of at most 2**53 ({MAX_COUNT})"


def check_count(value: Any, func: str, name: str = "count", already: int = 0) -> int:
    """A non-negative int that keeps ``already + value`` within :data:`MAX_COUNT`."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise fail(TypeError, func, name, _COUNT_EXPECTED, value)
    if value < 0 or value > MAX_COUNT:
        raise fail(ValueError, func, name, _COUNT_EXPECTED, value)
    if already + value > MAX_COUNT:
        raise fail(ValueError, func, name, f"at most {MAX_COUNT - already} (the total must stay within 2**53)", value)
    return int(value)


def missing_time(func: str) -> ValueError:
    """The error of an item without ``time`` in a window that has no clock.

    Returned, not raised: the window's add path tests the condition inline
    (no call per case) and raises this only when it fails.
    """
    return ValueError(
        f"{func}: argument 'time' must be given, since this window has no clock (clock=None, or "
        "created without clock= and its first item came with a time); got None instead."
    )


def time_off_clock(func: str, name: str, t: float) -> ValueError:
    """The error of an explicit time given to a window timed by its default clock (another scale).

    Returned, not raised, as :func:`missing_time`.
    """
    return ValueError(
        f"{func}: argument '{name}' was given, but this window times the items added without one by "
        "its default clock, time.monotonic, and a time on another scale would expire them at once; "
        "give every item a time (the first item with a time makes a window run on explicit times), "
        f"or create the window with clock= the clock your times come from; got {t!r} instead."
    )


def as_1d(values: Any, func: str, name: str, labels: bool = False) -> np.ndarray:
    if isinstance(values, (str, bytes)):
        raise fail(TypeError, func, name, "a 1-dimensional array-like or iterable", values)
    values = host(values, func, name)
    if isinstance(values, (AbstractSet, Mapping)):
        # no defined order: labels and scores would be paired arbitrarily
        raise fail(TypeError, func, name, "an ordered sequence or array (a set or dict has no defined order)", values)
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
            raise fail(TypeError, func, name, "a 1-dimensional array-like or iterable", values)
        values = list(values)
    if isinstance(values, np.ndarray):
        arr = values
    else:
        try:
            arr = np.asarray(values)
        except ValueError:  # ragged nested sequences
            arr = np.asarray(values, dtype=object)
        if arr.ndim == 1 and _mixed(values, arr.dtype.kind, labels):
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


def _mixed(values: list[Any] | tuple[Any, ...], kind: str, labels: bool) -> bool:
    """Whether numpy's coercion of a list (of labels, or of numbers) hid an element of another kind."""
    if labels:
        if kind in "US":  # numpy turned every element into a str: were they all?
            return not all(isinstance(v, str) for v in values)
        return kind not in "biuf" or not _BOOL_TYPES.isdisjoint(set(map(type, values)))
    if kind not in "fiu" or not _BOOL_TYPES.isdisjoint(set(map(type, values))):
        return True
    # numpy converts a list holding a float and a large int to float64, rounding
    # the int; keep such lists as objects so that each score is checked exactly.
    return kind == "f" and any(
        (type(v) is int or isinstance(v, np.integer)) and not -MAX_COUNT <= v <= MAX_COUNT for v in values
    )


def check_batch(
    correct: Any,
    scores: Any,
    func: str = "add_cases",
    pos_label: Any = None,
    names: tuple[str, str] = ("correct", "scores"),
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """Validate a batch; return (bool array, float64 array) of equal length.

    ``func`` and ``names`` are what the messages call the function and its two
    arguments: the evaluators' ``("correct", "scores")``, the functional API's
    ``("y_true", "y_score")``.
    """
    label_name, score_name = names
    c = as_1d(correct, func, label_name, labels=True)
    s = as_1d(scores, func, score_name)
    if len(c) != len(s):
        raise ValueError(
            f"{func}: arguments '{label_name}' and '{score_name}' must have the same length; "
            f"got {len(c)} and {len(s)} instead."
        )
    return batch_correct(c, func, pos_label, label_name), batch_scores(s, func, score_name)


def batch_correct(c: np.ndarray, func: str, pos_label: Any = None, name: str = "correct") -> npt.NDArray[np.bool_]:
    kind = c.dtype.kind
    if len(c) == 0:
        return np.zeros(0, dtype=bool)
    if kind == "O":
        out = np.fromiter(
            (check_correct(v, func, name, i, pos_label) for i, v in enumerate(c)), dtype=bool, count=len(c)
        )
        if pos_label is None:
            _no_mixed_negatives(np.array([v == -1 for v in c]), np.array([v == 0 for v in c]), func, name)
        return out
    if pos_label is not None:
        if not labels_of_kind(kind, pos_label):
            check_correct(c[0], func, name, 0, pos_label)  # raises: the label's type cannot match
        if kind == "f":
            nan = np.isnan(c)
            if nan.any():
                i = int(np.argmax(nan))
                raise fail(ValueError, func, name, "a label, not NaN", c[i].item(), i)
        return np.asarray(c == pos_label, dtype=bool)
    if kind == "b":
        return c.astype(bool, copy=False)
    if kind in "iu":  # the integers in [-1, 1] are exactly the accepted labels: two reductions
        low, high = c.min(), c.max()
        if low >= -1 and high <= 1:
            if low == -1 and (c == 0).any():
                _no_mixed_negatives(c == -1, c == 0, func, name)
            return c == 1
    if kind in "iuf":
        pos, zero, minus = c == 1, c == 0, c == -1
        bad = np.flatnonzero(~(pos | zero | minus))
        if bad.size:
            i = int(bad[0])
            raise fail(ValueError, func, name, _CORRECT_EXPECTED, c[i].item(), i)
        _no_mixed_negatives(minus, zero, func, name)
        return pos
    raise fail(TypeError, func, name, _CORRECT_EXPECTED, c[0].item(), 0)


def _no_mixed_negatives(
    minus: npt.NDArray[np.bool_], zero: npt.NDArray[np.bool_], func: str, name: str = "correct"
) -> None:
    """0/1 and -1/1 are both accepted, but one batch must not use 0 and -1 together."""
    if minus.any() and zero.any():
        i, j = int(np.argmax(zero)), int(np.argmax(minus))
        raise ValueError(
            f"{func}: argument '{name}' must use one label encoding, 0/1 or -1/1; got 0 at index {i} "
            f"and -1 at index {j}. Pass pos_label= to say which value is the positive class."
        )


def inexact_scores(s: np.ndarray) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """(as float64, lost): integer or float scores converted, and which ones float64 does not hold exactly.

    An integer beyond 2**53 that is not a float64 value (2**53 + 1), or a long
    double with extra precision or beyond float64's range, would be rounded,
    and rounding can merge distinct scores into a tie: :func:`batch_scores`
    refuses them, and so do the engines, with this one rule. NaN is not
    "lost" (it is refused as NaN). O(n).
    """
    kind = s.dtype.kind
    with np.errstate(all="ignore"):
        out = s.astype(np.float64)
        if kind == "f" and s.dtype.itemsize <= 8:
            return out, np.zeros(s.shape, dtype=bool)
        back = out.astype(s.dtype) if kind == "f" else np.where(np.isfinite(out), out, 0).astype(s.dtype)
        lost = (back != s) | (np.isinf(out) & ~np.isinf(s)) if kind == "f" else (back != s) | ~np.isfinite(out)
    if kind == "f":
        lost &= ~np.isnan(s)
    return out, lost


def batch_scores(s: np.ndarray, func: str, name: str = "scores") -> npt.NDArray[np.float64]:
    kind = s.dtype.kind
    if kind in "iuf":  # integers and long doubles: converted only if exact
        out = exact_floats(s, func, name, check_score)
    elif kind == "O":
        out = np.fromiter(
            (check_score(v, func, name, i) for i, v in enumerate(s)), dtype=np.float64, count=len(s)
        )
        if any(isinstance(v, Decimal) for v in s.tolist()):
            _check_decimal_ties(s, out, func, name)
        return out
    elif len(s) == 0:
        return np.zeros(0, dtype=np.float64)
    elif kind == "U":
        raise _string_score(str(s[0]), func, name, 0)
    else:
        raise fail(TypeError, func, name, _SCORE_EXPECTED, s[0].item(), 0)
    # np.min propagates NaN: one reduction and no temporary; the NaN's index only when there is one
    if out.size and np.isnan(np.min(out)):
        i = int(np.argmax(np.isnan(out)))
        raise fail(ValueError, func, name, _SCORE_EXPECTED, s[i].item(), i)
    return out


_TIME_EXPECTED = "a finite real number (a time on the window's clock)"


def check_time(value: Any, func: str, name: str = "time", index: int | None = None) -> float:
    """A time stamp: a finite real number (int, float, numpy scalar), as a float."""
    value = _scalar(value, func, name)
    if isinstance(value, (bool, np.bool_)) or not is_number(value):
        raise fail(TypeError, func, name, _TIME_EXPECTED, value, index)
    result = float(value)
    if not math.isfinite(result):
        raise fail(ValueError, func, name, _TIME_EXPECTED, value, index)
    return result


def check_times(values: Any, size: int, func: str, name: str = "times") -> npt.NDArray[np.float64]:
    """Time stamps for a batch of ``size`` cases: finite and non-decreasing, as float64."""
    t = as_1d(values, func, name)
    if len(t) != size:
        raise ValueError(
            f"{func}: argument '{name}' must have one time per case; got {len(t)} times for {size} cases instead."
        )
    if t.dtype.kind == "O" or t.dtype.kind == "b":
        out = np.fromiter((check_time(v, func, name, i) for i, v in enumerate(t)), dtype=np.float64, count=len(t))
    elif t.dtype.kind in "iuf":
        with np.errstate(all="ignore"):
            out = t.astype(np.float64)
    else:
        raise fail(TypeError, func, name, _TIME_EXPECTED, t[0].item() if len(t) else t, 0)
    bad = ~np.isfinite(out)
    if bad.any():
        i = int(np.argmax(bad))
        raise fail(ValueError, func, name, _TIME_EXPECTED, t[i].item() if t.dtype.kind != "O" else t[i], i)
    down = np.flatnonzero(out[1:] < out[:-1])
    if down.size:
        i = int(down[0]) + 1
        raise ValueError(
            f"{func}: argument '{name}' must be non-decreasing; got {float(out[i])!r} at index {i} after {float(out[i - 1])!r} instead."
        )
    return out
