"""Validation at the public boundary.

Every check here either returns a normalised value or raises before the
caller has changed any state. Messages follow one pattern::

    <function>: argument '<name>' must be <expectation>; got <repr> instead.

with the index inside a batch where there is one. Nothing else in the package
validates user input; the functional core trusts what it is given.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
import os
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

TIE_POLICIES = ("stable", "grouped")

_Func = TypeVar("_Func", bound=Callable[..., Any])


class UnsupportedQuery(NotImplementedError):
    """A query this evaluator kind cannot answer, with the reason in the message.

    Every evaluator kind answers the same queries (:class:`scored_pr.Evaluation`);
    where one kind cannot answer a query at all (for example a confidence
    interval from a bounded summary, which no longer holds the cases a
    resampling needs), it raises this error, never ``AttributeError``. The
    message names the kind, the query and why, and what to use instead.
    Subclasses :class:`NotImplementedError`, so ``except NotImplementedError``
    also catches it.
    """

    __module__ = "scored_pr"


def renamed_keyword(old: str, new: str) -> Callable[[_Func], _Func]:
    """Keep accepting the keyword ``old`` of a public function renamed to ``new``, with a DeprecationWarning.

    ``precision_at(rank=5)`` still works and means ``precision_at(k=5)``;
    passing both names is a TypeError that names them. Positional calls are
    unaffected and pay one dict lookup.
    """

    def decorate(func: _Func) -> _Func:
        name = func.__name__

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(
                        f"{name}: got both '{new}' and its deprecated former name '{old}'; pass only '{new}'."
                    )
                warnings.warn(
                    f"{name}: the argument '{old}' is now called '{new}' (the same number); "
                    f"'{old}=' will be removed in a future release.",
                    DeprecationWarning,
                    stacklevel=2,
                )
                kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return cast(_Func, wrapper)

    return decorate


def _describe(value: Any) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int of more digits than Python converts to text
        text = f"<an int of {value.bit_length()} bits>"
    if len(text) > 80:
        text = text[:77] + "..."
    return f"{text} ({type(value).__name__})"


def _fail(exc: type[Exception], func: str, name: str, expected: str, value: Any, index: int | None = None) -> Exception:
    where = "" if index is None else f" at index {index}"
    return exc(f"{func}: argument '{name}' must be {expected}; got {_describe(value)}{where} instead.")


def read_only_evaluation(kind: str, method: str) -> TypeError:
    """The error of a writer (``add_case``, ``reset``...) called on a read-only evaluator."""
    return TypeError(
        f"{kind}.{method}: this evaluator is read-only (one label's evaluator of a MultiLabelEvaluation, "
        "which answers every query for that label); add rows to the MultiLabelEvaluation itself, or "
        "take a writable snapshot with copy.copy(view)."
    )


_CORRECT_EXPECTED = (
    "a label: bool, 0/1 or -1/1 (any integer or float type); other labels (strings, class ids) "
    "need pos_label= to say which value is the positive class"
)
_SCORE_EXPECTED = "a real number (int, float or a numpy integer/floating scalar), not NaN"


def check_ties(ties: Any, func: str = "ScoredPrecisionRecallEvaluation") -> str:
    if not isinstance(ties, str) or ties not in TIE_POLICIES:
        raise _fail(ValueError, func, "ties", "one of " + ", ".join(repr(t) for t in TIE_POLICIES), ties)
    return ties


#: Saved ints (a positive label, label names) lie in [-2**63, 2**64): an int64 or a uint64, which
#: every state format (JSON text) writes and reads back exactly.
MIN_SAVED_INT, MAX_SAVED_INT = -(2**63), 2**64 - 1
_POS_LABEL_EXPECTED = (
    "None, a str, or a finite number or bool (the positive class's label; an int within int64 or uint64, "
    "as a state file holds it)"
)


def check_pos_label(value: Any, func: str) -> Any:
    """``pos_label``: None, a str, a bool, an int within int64/uint64, or a finite float.

    The limits are those of a state file: whatever an evaluator accepts, its
    ``save`` writes and ``load`` reads back.
    """
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        if not MIN_SAVED_INT <= value <= MAX_SAVED_INT:
            raise _fail(ValueError, func, "pos_label", _POS_LABEL_EXPECTED, value)
        return int(value)
    if isinstance(value, (float, np.floating)) and math.isfinite(value):
        return float(value)
    if isinstance(value, (float, np.floating)) and not math.isnan(value):  # NaN is never a label: a TypeError, as before
        raise _fail(ValueError, func, "pos_label", _POS_LABEL_EXPECTED, value)
    raise _fail(TypeError, func, "pos_label", _POS_LABEL_EXPECTED, value)


def _host(value: Any, func: str, name: str) -> Any:
    """Tensors and foreign arrays as numpy, without a Python-level loop.

    torch tensors are detached when they require grad; an array on a device
    other than the CPU is refused (copying it is the caller's decision).
    Objects exposing ``__array__``, ``__array_interface__``, ``__dlpack__`` or
    the buffer protocol are converted by numpy; anything else is returned as is.
    """
    if isinstance(value, np.ndarray):
        return value
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


def _scalar(value: Any, func: str, name: str) -> Any:
    """A 0-d array or tensor as its numpy scalar; anything else unchanged."""
    if isinstance(value, (bool, int, float, str, np.generic)) or value is None:
        return value
    arr = _host(value, func, name)
    if isinstance(arr, np.ndarray):
        if arr.ndim != 0:
            raise _fail(TypeError, func, name, "a scalar (a 0-d array or tensor is fine)", value)
        return arr[()]
    return value


def _is_number(value: Any) -> bool:
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
    if _is_number(value):
        if value == 1:
            return True
        if value == 0 or value == -1:
            return False
        raise _fail(ValueError, func, name, _CORRECT_EXPECTED, value, index)
    raise _fail(TypeError, func, name, _CORRECT_EXPECTED, value, index)


def _match(value: Any, pos_label: Any, func: str, name: str, index: int | None) -> bool:
    if isinstance(pos_label, str):
        if isinstance(value, (str, np.str_)):
            return bool(value == pos_label)
        expected = f"a str label, as pos_label={pos_label!r} is"
    else:
        if isinstance(value, (bool, np.bool_)) or (_is_number(value) and not math.isnan(value)):
            return bool(value == pos_label)
        expected = f"a number or bool label (not NaN), as pos_label={pos_label!r} is"
    raise _fail(TypeError, func, name, expected, value, index)


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


_WEIGHT_EXPECTED = "a finite real number >= 0 (a sample weight)"


def check_weight(value: Any, func: str, name: str = "weight") -> float:
    """A sample weight: a finite real number >= 0, as a float."""
    value = _scalar(value, func, name)
    if isinstance(value, (bool, np.bool_)) or not _is_number(value):
        raise _fail(TypeError, func, name, _WEIGHT_EXPECTED, value)
    result = float(value)
    if not (math.isfinite(result) and result >= 0.0):
        raise _fail(ValueError, func, name, _WEIGHT_EXPECTED, value)
    return result


def check_weights(values: Any, size: int, func: str, name: str = "sample_weight") -> npt.NDArray[np.float64] | None:
    """Sample weights for a batch of ``size`` cases; None when every weight is 1."""
    w = _as_1d(values, func, name)
    if len(w) != size:
        raise ValueError(
            f"{func}: argument '{name}' must have one weight per case; got {len(w)} weights for {size} cases instead."
        )
    if w.dtype.kind == "O":
        out = np.fromiter((check_weight(v, func, name) for v in w), dtype=np.float64, count=len(w))
    elif w.dtype.kind in "iuf":
        with np.errstate(all="ignore"):
            out = w.astype(np.float64)
    else:
        raise _fail(TypeError, func, name, _WEIGHT_EXPECTED, w[0].item() if len(w) else w, 0)
    bad = ~(np.isfinite(out) & (out >= 0.0))
    if bad.any():
        i = int(np.argmax(bad))
        raise _fail(ValueError, func, name, _WEIGHT_EXPECTED, w[i].item() if w.dtype.kind != "O" else w[i], i)
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
        raise _fail(TypeError, func, name, _COUNT_EXPECTED, value)
    if value < 0 or value > MAX_COUNT:
        raise _fail(ValueError, func, name, _COUNT_EXPECTED, value)
    if already + value > MAX_COUNT:
        raise _fail(ValueError, func, name, f"at most {MAX_COUNT - already} (the total must stay within 2**53)", value)
    return int(value)


def check_clock(value: Any, func: str) -> Any:
    """A window's ``clock``: a callable returning the time, or None."""
    if value is not None and not callable(value):
        raise _fail(TypeError, func, "clock", "a callable returning the time, or None", value)
    return value


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


# --- checks of the public modules' own arguments (sinks, loggers, windows, trec, lingpipe) ------
# Each keeps the exact message its module has always raised; tests match them.


def _clipped(value: Any, width: int) -> str:
    """``repr(value)`` cut at ``width`` characters, then its type: ``'abc...' (str)``."""
    return f"{value!r:.{width}} ({type(value).__name__})"


def check_instance(value: Any, cls: type | tuple[type, ...], func: str, name: str, expected: str) -> Any:
    """``value`` if it is an instance of ``cls`` (or None); TypeError naming ``expected`` otherwise."""
    if value is not None and not isinstance(value, cls):
        raise TypeError(f"{func}: argument '{name}' must be {expected}; got {_clipped(value, 80)} instead.")
    return value


def check_type_named(value: Any, cls: type, func: str, name: str, expected: str) -> Any:
    """``value`` if it is an instance of ``cls``; TypeError naming only the type received otherwise."""
    if not isinstance(value, cls):
        raise TypeError(f"{func}: argument '{name}' must be {expected}; got {type(value).__name__} instead.")
    return value


def check_not_both(func: str, first: tuple[str, Any], second: tuple[str, Any]) -> None:
    """Two options that exclude each other: ValueError when both are given (not None)."""
    (a, va), (b, vb) = first, second
    if va is not None and vb is not None:
        raise ValueError(f"{func}: arguments '{a}' and '{b}' must not both be given; got {a}={va!r} and {b}={vb!r} instead.")


def check_grouped_for_bins(ties: str, func: str) -> None:
    """A bounded summary (``max_bins``) keeps no insertion order: only grouped ties."""
    if ties != "grouped":
        raise ValueError(f"{func}: argument 'ties' must be 'grouped' with max_bins (a bounded summary keeps no "
                         f"insertion order, which the 'stable' policy needs); got {ties!r} instead.")


def check_curve_average(value: Any, func: str) -> Any:
    """A multi-label curve's ``average``: None (one curve per label) or ``"micro"``."""
    if value is not None and value != "micro":
        raise _fail(ValueError, func, "average", "None (one curve per label) or 'micro' (the pooled ranking's curve)", value)
    return value


def check_shape(value: Any, ok: bool, func: str, name: str, expected: str) -> None:
    """ValueError naming ``expected`` and the array's shape when ``ok`` is False."""
    if not ok:
        raise ValueError(f"{func}: argument '{name}' must {expected}; got an array of shape {value.shape} instead.")


def check_same_setup(mine: tuple[Any, ...], theirs: tuple[Any, ...], func: str, name: str, what: str) -> None:
    """Two evaluators combined must agree on ``what``: ValueError showing both otherwise."""
    if mine != theirs:
        raise ValueError(f"{func}: argument '{name}' must have the same {what} {mine!r:.200}; got {theirs!r:.200} instead.")


def check_optional_callable(value: Any, func: str, name: str, expected: str) -> Any:
    """A callable or None (a logger's ``step``, a window's ``clock``)."""
    if value is not None and not callable(value):
        raise TypeError(f"{func}: argument '{name}' must be {expected}; got {_clipped(value, 80)} instead.")
    return value


def check_callbacks(value: Any, func: str, name: str = "callback") -> Any:
    """A callable, or a list or tuple of callables; returned unchanged."""
    expected = "callable or a list of callables"
    if isinstance(value, (list, tuple)):
        for i, each in enumerate(value):
            if not callable(each):
                raise TypeError(f"{func}: argument '{name}' must be {expected}; got {_clipped(each, 80)} at index {i} instead.")
    elif not callable(value):
        raise TypeError(f"{func}: argument '{name}' must be {expected}; got {_clipped(value, 80)} instead.")
    return value


def check_same_pos_label(pos_label: Any, expected: Any, func: str, name: str) -> None:
    """A second evaluator (a logger's ``window``) with the first one's ``pos_label``.

    Otherwise a label could be accepted by one and rejected by the other.
    """
    if pos_label != expected:
        raise ValueError(
            f"{func}: argument '{name}' must have the evaluation's pos_label ({expected!r}); "
            f"got pos_label={pos_label!r} instead."
        )


def check_cadence(every: Any, seconds: Any, func: str) -> tuple[int | None, float | None]:
    """A logger's ``every`` (cases, an int >= 1) and ``seconds`` (> 0): one of them or both."""
    if every is None and seconds is None:
        raise ValueError(f"{func}: give 'every' (cases), 'seconds' or both; got neither.")
    return (
        None if every is None else check_positive_int(every, func, "every"),
        None if seconds is None else check_beta(seconds, func, "seconds"),
    )


def check_window_extent(size: Any, seconds: Any, func: str) -> tuple[int | None, float | None]:
    """A window's ``size`` (an int >= 1) or ``seconds`` (> 0): exactly one of them."""
    if (size is None) == (seconds is None):
        raise ValueError(
            f"{func}: give exactly one of 'size' (the last N cases) and 'seconds' (the last T seconds); "
            f"got size={size!r:.40} and seconds={seconds!r:.40} instead."
        )
    return (
        None if size is None else check_positive_int(size, func, "size"),
        None if seconds is None else check_beta(seconds, func, "seconds"),
    )


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


def check_query_id(value: Any, func: str, name: str = "query") -> Any:
    """A query id: a str or an int (a numpy integer becomes an int)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (str, int, np.integer)):
        raise TypeError(
            f"{func}: argument '{name}' must be a query id (str or int); got {value!r:.60} ({type(value).__name__}) instead."
        )
    return int(value) if isinstance(value, np.integer) else value


#: The mutators of an evaluator, which ``per_query`` refuses to call.
_MUTATORS = ("add_case", "add_cases", "add_misses", "add_negative_misses", "merge", "save")


def check_measure_method(name: Any, cls: type, func: str) -> str:
    """The name of a public measure method of ``cls`` (not a mutator)."""
    if not isinstance(name, str) or name.startswith("_") or not callable(getattr(cls, name, None)):
        raise ValueError(
            f"{func}: argument 'name' must name a measure method of {cls.__name__}; got {name!r:.60} instead."
        )
    if name in _MUTATORS:
        raise ValueError(f"{func}: argument 'name' must name a measure, not the mutator {name!r}.")
    return name


def check_no_relevant(value: Any, func: str) -> str:
    """What a mean over queries does with a query without relevant cases: 'zero' or 'skip'."""
    if value not in ("zero", "skip"):
        raise ValueError(f"{func}: argument 'no_relevant' must be 'zero' or 'skip'; got {value!r} instead.")
    return cast(str, value)


def check_same_ties(ties: str, own: str, func: str, name: str = "other") -> None:
    """A second evaluator (merged into this one) with this one's tie policy."""
    if ties != own:
        raise ValueError(
            f"{func}: argument '{name}' must use the same tie policy; got ties={ties!r} for ties={own!r} instead."
        )


def measure_arguments_error(func: str, measure: str, measure_args: Mapping[str, Any], exc: TypeError) -> TypeError:
    """The error of a query that refused the ``measure_args`` it was given (raised from the query's TypeError)."""
    return TypeError(f"{func}: bad arguments {measure_args!r} for measure {measure!r}: {exc}")


def check_curve_rows(curve: Any, func: str, name: str = "curve", columns: tuple[int, ...] | None = None) -> np.ndarray:
    """``curve`` as a float64 array of shape (n, 2) or (n, 3) (or (n, c), c in ``columns``); ValueError otherwise.

    An empty curve becomes shape (0, 2), or (0, c) when it already has c
    columns; with ``columns`` given, it too must have one of them.
    """
    try:
        arr = np.asarray(curve, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{func}: argument '{name}' must be an array of curve points; got {curve!r:.80} instead.") from None
    if arr.size == 0:
        arr = arr.reshape(0, arr.shape[1] if arr.ndim == 2 else 2)
    elif arr.ndim != 2 or arr.shape[1] not in (2, 3):
        raise ValueError(f"{func}: argument '{name}' must have shape (n, 2) or (n, 3); got shape {arr.shape} instead.")
    if columns is not None and arr.shape[1] not in columns:
        shape = " or ".join(f"(n, {c})" for c in columns)
        raise ValueError(f"{func}: argument '{name}' must have shape {shape}; got shape {arr.shape} instead.")
    return arr


def check_max_points(value: Any, func: str, name: str = "max_points") -> int | None:
    """None or an int >= 2: the most points of a curve written out."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{func}: argument '{name}' must be an int >= 2 or None; got {_clipped(value, 40)} instead.")
    if value < 2:
        raise ValueError(f"{func}: argument '{name}' must be an int >= 2; got {value!r} instead.")
    return int(value)


def check_sink_options(func: str, max_points: Any = 2, **strings: Any) -> None:
    """A sink's str options (``prefix``, ``artifact_path``) and its ``max_points``, an int >= 2."""
    for name, value in strings.items():
        if not isinstance(value, str):
            raise TypeError(f"{func}: argument '{name}' must be a str; got {value!r:.40} instead.")
    if isinstance(max_points, bool) or not isinstance(max_points, int) or max_points < 2:
        raise ValueError(f"{func}: argument 'max_points' must be an int >= 2; got {max_points!r:.40} instead.")


def check_tensorboard_options(curves: Any, flush_secs: Any) -> tuple[bool, float]:
    """TensorBoard's ``curves`` (a bool) and ``flush_secs`` (a finite number of seconds > 0)."""
    return check_flag(curves, "TensorBoard", "curves"), check_beta(flush_secs, "TensorBoard", "flush_secs")


def check_mlflow_options(curves: Any, timeout: Any, max_pending: Any) -> tuple[bool, float, int]:
    """MLflow's ``curves`` (a bool), ``timeout`` (seconds > 0) and ``max_pending`` (an int >= 1)."""
    return (check_flag(curves, "MLflow", "curves"), check_beta(timeout, "MLflow", "timeout"),
            check_positive_int(max_pending, "MLflow", "max_pending"))


def check_summary_writer(target: Any, func: str) -> bool:
    """A TensorBoard target: a log directory (True) or a writer with ``add_scalar`` and ``add_pr_curve_raw`` (False)."""
    if isinstance(target, (str, os.PathLike)):
        return True
    if callable(getattr(target, "add_scalar", None)) and callable(getattr(target, "add_pr_curve_raw", None)):
        return False
    raise TypeError(
        f"{func}: argument 'target' must be a log directory (str or path) or a writer with add_scalar "
        f"and add_pr_curve_raw (torch's or tensorboardX's SummaryWriter); got {_clipped(target, 80)} instead."
    )


#: A Prometheus label name (its data model); names starting "__" are reserved for Prometheus itself.
_LABEL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")


def check_metric_namespace(value: Any, func: str) -> str:
    """A Prometheus metric name prefix: ASCII letters, digits and '_', not starting with a digit."""
    if not isinstance(value, str) or not _LABEL_NAME.fullmatch(value):
        raise ValueError(
            f"{func}: argument 'namespace' must be a metric name prefix (letters, digits, '_'); got {value!r:.40} instead."
        )
    return value


def check_metric_labels(value: Mapping[str, str] | None, func: str) -> dict[str, str]:
    """Constant Prometheus labels: str names (not 'scope', the sink's own) to str values, as a new dict."""
    if value is not None and not isinstance(value, Mapping):
        raise TypeError(f"{func}: argument 'labels' must be a mapping of label names to str values or None; "
                        f"got {_clipped(value, 40)} instead.")
    labels = dict(value or {})
    for key, each in labels.items():
        if not isinstance(key, str) or not isinstance(each, str) or key == "scope":
            raise ValueError(
                f"{func}: argument 'labels' must map label names (str, not 'scope') to str values; "
                f"got {key!r:.40}: {each!r:.40} instead."
            )
        if not _LABEL_NAME.fullmatch(key) or key.startswith("__"):  # every write would fail: refuse the sink now
            raise ValueError(
                f"{func}: argument 'labels' must map label names to str values, a label name being ASCII letters, "
                "digits and '_', not starting with a digit or '__' (reserved by Prometheus); "
                f"got {key!r:.40}: {each!r:.40} instead."
            )
    return labels


def _is_real(value: Any) -> bool:
    """A real number as :mod:`numbers` defines it (Fraction too), not a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def check_confidence(value: Any, func: str) -> float:
    """A one-sided confidence level in [0.5, 1)."""
    if not _is_real(value) or not 0.5 <= value < 1.0:
        raise ValueError(f"{func}: argument 'confidence' must be a real number in [0.5, 1) (e.g. 0.95); got {value!r} instead.")
    return float(value)


def check_margin(value: Any, func: str) -> float:
    """A non-inferiority margin: a finite real number >= 0."""
    if not _is_real(value) or not 0.0 <= value < math.inf:
        raise ValueError(f"{func}: argument 'margin' must be a finite real number >= 0; got {value!r} instead.")
    return float(value)


def check_comparison_form(unpaired: bool, baseline_scores: Any, func: str) -> None:
    """Two evaluators (unpaired, no third positional argument), or labels with two score arrays (paired)."""
    if unpaired and baseline_scores is not None:
        raise TypeError(
            f"{func}: with two evaluators (the unpaired form assert_not_worse(candidate, baseline)) pass "
            f"'measure' and the other options by keyword; got a third positional argument "
            f"{baseline_scores!r:.60} instead."
        )
    if not unpaired and baseline_scores is None:
        raise TypeError(
            f"{func}: argument 'baseline_scores' is required with labels and scores (the paired form "
            "assert_not_worse(correct, candidate_scores, baseline_scores)); got None instead."
        )


def check_bounds_given(bounds: Mapping[str, Any], func: str) -> None:
    """At least one ``metric=bound`` keyword."""
    if not bounds:
        raise ValueError(f"{func}: give at least one metric=bound.")


def check_metric_bound(name: str, bound: Any, operators: Iterable[str], func: str) -> None:
    """A bound: a number, an (operator, number) pair, or an object compared with == (pytest.approx)."""
    ops = tuple(operators)
    if isinstance(bound, numbers.Real) and not isinstance(bound, (bool, np.bool_)):
        return
    if isinstance(bound, tuple) and len(bound) == 2 and isinstance(bound[0], str):
        op, limit = bound
        if op in ops and isinstance(limit, numbers.Real) and not isinstance(limit, (bool, np.bool_)):
            return
    elif not isinstance(bound, (str, bytes, tuple, list, dict, set, type(None), bool, np.bool_)):
        return
    raise ValueError(
        f"{func}: the bound of {name!r} must be a number, an (operator, number) pair with "
        f"operator one of {', '.join(ops)}, or an object compared with == such as "
        f"pytest.approx(...); got {bound!r} instead."
    )


def check_resamplable(evaluation: Any, func: str) -> None:
    """``confidence=`` needs an evaluator's cases: a summary mapping has none to resample."""
    if isinstance(evaluation, Mapping):
        raise ValueError(
            f"{func}: 'confidence' needs a ScoredPrecisionRecallEvaluation (a summary dict has no cases "
            f"to resample); got {type(evaluation).__name__} instead."
        )


def check_level(level: Any, func: str) -> float:
    """A confidence level strictly between 0 and 1."""
    if isinstance(level, bool) or not isinstance(level, (int, float, np.integer, np.floating)) or not (
        0.0 < float(level) < 1.0
    ):
        raise _fail(ValueError, func, "level", "a real number strictly between 0 and 1", level)
    return float(level)


def check_resamples(n: Any, func: str) -> int:
    """A number of resamples: an int >= 10."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 10:
        raise _fail(ValueError, func, "n_resamples", "an integer >= 10", n)
    return int(n)


def check_seed(seed: Any, func: str) -> int | None:
    """``seed`` if it is None or a non-negative integer (what ``numpy.random.default_rng`` takes)."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise _fail(TypeError, func, "seed", "None or a non-negative integer", seed)
    if seed < 0:
        raise _fail(ValueError, func, "seed", "None or a non-negative integer", seed)
    return int(seed)


def check_trec_source(value: Any, cls: type, func: str, name: str) -> Any:
    """trec_eval input: a path, an instance of ``cls`` (Qrels, Run) or a mapping."""
    if not isinstance(value, (cls, str, os.PathLike, Mapping)):
        raise TypeError(f"{func}: argument '{name}' must be a path, a {cls.__name__} or a mapping; got {type(value).__name__}")
    return value


def check_grades(judgements: Mapping[str, Mapping[str, int]], low: int, high: int, shown: str, func: str) -> None:
    """Every relevance grade of a qrels mapping within [low, high] (``shown`` says the range)."""
    for q, docs in judgements.items():
        for d, g in docs.items():
            if not low <= g <= high:
                raise ValueError(f"{func}: argument 'qrels': the grade of {d!r} for query {q!r} is out of range ({shown}); got {g!r}")


def check_c_long(value: Any, low: int, high: int, func: str, name: str) -> int:
    """An int within a C long's range [low, high], as trec_eval reads its options."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{func}: argument {name!r} must be an int; got {value!r}")
    if not low <= value <= high:
        raise ValueError(
            f"{func}: argument {name!r} must be an int from {low} to {high} (a C long, as trec_eval reads it); got {value!r}"
        )
    return value


def check_max_docs(value: Any, high: int, func: str) -> int | None:
    """None or an int from 0 to ``high``: trec_eval's ``-M``."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high):
        raise ValueError(f"{func}: argument 'max_docs' must be None or an int from 0 to {high}; got {value!r}")
    return value


def check_measure_spec(value: Any, func: str) -> str:
    """A trec_eval measure name or specification: a str (parsed by trec's registry)."""
    if not isinstance(value, str):
        raise TypeError(f"{func}: argument 'spec' must be a str; got {value!r}")
    return value


def check_ranked_scores(scores: Any, n: int, func: str) -> tuple[float, ...]:
    """``n`` real numbers (not NaN), one per category, in non-increasing order (rank 0 the best)."""
    expected = "a real number, not NaN"
    if isinstance(scores, (str, bytes)) or not isinstance(scores, (Sequence, np.ndarray)):
        raise _fail(TypeError, func, "scores", "a list of real numbers (one per category)", scores)
    values = list(scores)
    if len(values) != n:
        raise ValueError(
            f"{func}: arguments 'categories' and 'scores' must have the same length; "
            f"got {n} categories and {len(values)} scores instead."
        )
    out = []
    for i, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
            raise _fail(TypeError, func, "scores", expected, v, i)
        f = float(v)
        if math.isnan(f):
            raise _fail(ValueError, func, "scores", expected, v, i)
        out.append(f)
    for i in range(1, len(out)):
        if out[i - 1] < out[i]:
            raise ValueError(
                f"{func}: argument 'scores' must be in non-increasing order (rank 0 the best); "
                f"got scores[{i - 1}]={out[i - 1]!r} < scores[{i}]={out[i]!r} instead."
            )
    return tuple(out)


def check_known_categories(ranked: Iterable[Any], known: Mapping[Any, Any], func: str, name: str) -> None:
    """Every category of a ranking among the ``known`` ones (a mapping from each, in order, to its index)."""
    for rank, c in enumerate(ranked):
        if c not in known:
            raise ValueError(
                f"{func}: argument '{name}' must rank only the categories {list(known)!r}; got {c!r} at rank {rank} instead."
            )


def check_count_matrix(matrix: Any, k: int, func: str) -> list[list[int]]:
    """A k x k matrix of non-negative ints (a confusion matrix), as lists of ints."""
    expected = f"a {k}x{k} matrix (one row and one column per category) of non-negative ints"
    try:
        rows = [list(row) for row in matrix]
    except TypeError:
        raise _fail(TypeError, func, "matrix", expected, matrix) from None
    if len(rows) != k:
        raise ValueError(f"{func}: argument 'matrix' must be {expected}; got {len(rows)} rows instead.")
    out: list[list[int]] = []
    for i, row in enumerate(rows):
        if len(row) != k:
            raise ValueError(f"{func}: argument 'matrix' must be {expected}; got {len(row)} entries in row {i} instead.")
        out_row = []
        for j, v in enumerate(row):
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                raise TypeError(
                    f"{func}: argument 'matrix' must be {expected}; got {v!r} ({type(v).__name__}) at [{i}][{j}] instead."
                )
            if v < 0:
                raise ValueError(f"{func}: argument 'matrix' must be {expected}; got {v!r} at [{i}][{j}] instead.")
            out_row.append(int(v))
        out.append(out_row)
    return out


def check_arity(given: int, allowed: tuple[int, ...], forms: str, func: str) -> None:
    """A call with a variable argument list: ``given`` arguments, one of ``allowed`` (``forms`` shows them)."""
    if given not in allowed:
        raise TypeError(f"{func}: {forms}; got {given} arguments instead.")


def check_partial_auc(interpolate: bool, max_fpr: Any, standardized: Any, func: str = "area_under_roc_curve") -> tuple[float, bool]:
    """(max_fpr, standardized) of a partial ROC area: ``max_fpr`` in (0, 1], a bool, the uninterpolated curve."""
    if (
        isinstance(max_fpr, bool)
        or not isinstance(max_fpr, (int, float, np.integer, np.floating))
        or not (0.0 < float(max_fpr) <= 1.0)
    ):
        raise _fail(ValueError, func, "max_fpr", "None or a real number in (0, 1]", max_fpr)
    if not isinstance(standardized, (bool, np.bool_)):
        raise _fail(TypeError, func, "standardized", "a bool", standardized)
    if interpolate:
        raise _fail(ValueError, func, "interpolate", "False when max_fpr is given", interpolate)
    return float(max_fpr), bool(standardized)


def _as_1d(values: Any, func: str, name: str, labels: bool = False) -> np.ndarray:
    if isinstance(values, (str, bytes)):
        raise _fail(TypeError, func, name, "a 1-dimensional array-like or iterable", values)
    values = _host(values, func, name)
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
    c = _as_1d(correct, func, label_name, labels=True)
    s = _as_1d(scores, func, score_name)
    if len(c) != len(s):
        raise ValueError(
            f"{func}: arguments '{label_name}' and '{score_name}' must have the same length; "
            f"got {len(c)} and {len(s)} instead."
        )
    return _batch_correct(c, func, pos_label, label_name), _batch_scores(s, func, score_name)


def _batch_correct(c: np.ndarray, func: str, pos_label: Any = None, name: str = "correct") -> npt.NDArray[np.bool_]:
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
        numeric = not isinstance(pos_label, str)
        if (kind in "biuf") != numeric or kind not in "biufUS":
            check_correct(c[0], func, name, 0, pos_label)  # raises: the label's type cannot match
        if kind == "f":
            nan = np.isnan(c)
            if nan.any():
                i = int(np.argmax(nan))
                raise _fail(ValueError, func, name, "a label, not NaN", c[i].item(), i)
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
            raise _fail(ValueError, func, name, _CORRECT_EXPECTED, c[i].item(), i)
        _no_mixed_negatives(minus, zero, func, name)
        return pos
    raise _fail(TypeError, func, name, _CORRECT_EXPECTED, c[0].item(), 0)


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


def _batch_scores(s: np.ndarray, func: str, name: str = "scores") -> npt.NDArray[np.float64]:
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
            check_score(s[i], func, name, i)  # raises with the precise reason
            raise _fail(ValueError, func, name, _EXACT_EXPECTED, s[i].item(), i)  # pragma: no cover
    elif kind == "O":
        return np.fromiter(
            (check_score(v, func, name, i) for i, v in enumerate(s)), dtype=np.float64, count=len(s)
        )
    elif len(s) == 0:
        return np.zeros(0, dtype=np.float64)
    else:
        raise _fail(TypeError, func, name, _SCORE_EXPECTED, s[0].item(), 0)
    nan = np.isnan(out)
    if nan.any():
        i = int(np.argmax(nan))
        raise _fail(ValueError, func, name, _SCORE_EXPECTED, s[i].item(), i)
    return out


_TIME_EXPECTED = "a finite real number (a time on the window's clock)"


def check_time(value: Any, func: str, name: str = "time", index: int | None = None) -> float:
    """A time stamp: a finite real number (int, float, numpy scalar), as a float."""
    value = _scalar(value, func, name)
    if isinstance(value, (bool, np.bool_)) or not _is_number(value):
        raise _fail(TypeError, func, name, _TIME_EXPECTED, value, index)
    result = float(value)
    if not math.isfinite(result):
        raise _fail(ValueError, func, name, _TIME_EXPECTED, value, index)
    return result


def check_times(values: Any, size: int, func: str, name: str = "times") -> npt.NDArray[np.float64]:
    """Time stamps for a batch of ``size`` cases: finite and non-decreasing, as float64."""
    t = _as_1d(values, func, name)
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
        raise _fail(TypeError, func, name, _TIME_EXPECTED, t[0].item() if len(t) else t, 0)
    bad = ~np.isfinite(out)
    if bad.any():
        i = int(np.argmax(bad))
        raise _fail(ValueError, func, name, _TIME_EXPECTED, t[i].item() if t.dtype.kind != "O" else t[i], i)
    down = np.flatnonzero(out[1:] < out[:-1])
    if down.size:
        i = int(down[0]) + 1
        raise ValueError(
            f"{func}: argument '{name}' must be non-decreasing; got {float(out[i])!r} at index {i} after {float(out[i - 1])!r} instead."
        )
    return out


# ---------------------------------------------------------------------------
# evaluators handed to the consumers (testing, plot, streaming, intervals)

#: The kinds a consumer may be handed, as :func:`check_evaluation` names them.
EVALUATION_KINDS = ("single", "bounded", "multi", "multilabel")

_EVALUATION_EXPECTED = (
    "a ScoredPrecisionRecallEvaluation, WindowedEvaluation, BoundedEvaluation or SynchronizedEvaluation "
    "(an evaluator: any object with the queries of scored_pr.Evaluation)"
)
_SINGLE_QUERIES = ("pr_curve", "roc_curve", "average_precision", "area_under_roc_curve", "summary")
_BOUNDED_QUERIES = ("pr_band", "roc_band", "bins")
_MULTI_QUERIES = ("per_query", "queries", "mean_average_precision")
_MULTILABEL_QUERIES = ("pooled", "rows", "average_precision")
_PER_LABEL = ("it holds one ranking per label; pass evaluation[label] for one label, or evaluation.pooled() for "
              "the micro-averaged ranking of every (row, label) pair")


def _has(value: Any, names: tuple[str, ...]) -> bool:
    try:
        return all(callable(getattr(value, n, None)) for n in names)
    except Exception:  # a property that raises: not an evaluator we can read
        return False


def evaluation_kind(value: Any) -> str | None:
    """Which kind of evaluator ``value`` is, by the public methods it has (not by its class).

    ``"bounded"``: a summary with certified bounds (:class:`scored_pr.BoundedEvaluation`,
    queries return ``Bounds``, curves come with ``pr_band``/``roc_band``);
    ``"single"``: one ranking answered exactly (the exact evaluator, a window, a
    shared evaluator, or anything else with those queries); ``"multi"``: one
    ranking per query (:class:`scored_pr.MultiQueryEvaluation`); ``"multilabel"``: one
    ranking per label (:class:`scored_pr.MultiLabelEvaluation`); None otherwise.
    """
    if _has(value, _MULTILABEL_QUERIES):
        return "multilabel"
    if _has(value, _BOUNDED_QUERIES) and _has(value, ("average_precision", "summary")):
        return "bounded"
    if _has(value, _SINGLE_QUERIES):
        return "single"
    if _has(value, _MULTI_QUERIES):
        return "multi"
    return None


def check_evaluation(
    value: Any,
    func: str,
    name: str = "evaluation",
    *,
    bounded: str | None = None,
    multi: str | None = None,
    expected: str = _EVALUATION_EXPECTED,
    snapshot: bool = True,
) -> tuple[str, Any]:
    """(kind, view) of an evaluator handed to ``func``; the view answers every query of one moment.

    A kind with a ``snapshot()`` (:class:`scored_pr.WindowedEvaluation`,
    :class:`scored_pr.SynchronizedEvaluation`, which takes it under its lock)
    is read through one snapshot, so that every number a consumer reads comes
    from the same cases (a time window can otherwise slide between two
    queries, another thread add cases). Every other kind is its own view.

    ``bounded`` / ``multi``: None when ``func`` serves that kind, otherwise why
    it cannot and what to use instead; that kind then raises
    :class:`UnsupportedQuery` with the reason. Anything that is not an
    evaluator raises TypeError (``expected`` says what would do). Nothing is
    read or changed before the checks. ``snapshot=False``: the view is
    ``value`` itself (for a consumer that feeds the evaluator).
    """
    kind = evaluation_kind(value)
    if kind is None:
        raise _fail(TypeError, func, name, expected, value)
    reason = {"bounded": bounded, "multi": multi, "multilabel": _PER_LABEL}.get(kind)
    if reason is not None:
        raise UnsupportedQuery(f"{func}: {type(value).__name__} is not supported here: {reason}")
    if snapshot and kind == "single" and callable(getattr(value, "snapshot", None)):
        return kind, value.snapshot()
    return kind, value


# --- multi-output input (one score column per label or class) -----------------------------------


def as_array(values: Any, func: str, name: str) -> np.ndarray:
    """An array-like (list of rows, numpy array, tensor, DataFrame) as a numpy array, untouched otherwise."""
    if isinstance(values, (str, bytes)) or isinstance(values, (AbstractSet, Mapping)):
        raise _fail(TypeError, func, name, "an array-like of shape (n,) or (n, k)", values)
    values = _host(values, func, name)
    if isinstance(values, np.ma.MaskedArray):
        if np.ma.getmaskarray(values).any():
            raise ValueError(f"{func}: argument '{name}' must not hold masked values (drop or fill them first); got a masked array instead.")
        values = np.ma.getdata(values)
    if not isinstance(values, np.ndarray):
        if not isinstance(values, Iterable):
            raise _fail(TypeError, func, name, "an array-like of shape (n,) or (n, k)", values)
        try:
            values = np.asarray(values if isinstance(values, (list, tuple)) else list(values))
        except ValueError:  # ragged rows
            raise ValueError(f"{func}: argument '{name}' must have rows of one length; got ragged rows instead.") from None
    return values


def multi_output(y_true: Any, y_score: Any, func: str) -> tuple[np.ndarray, np.ndarray] | None:
    """``(y_true, y_score)`` as arrays when the call is a multi-output one, else None.

    Multi-output: ``y_score`` of shape (n, k) with k >= 2 (class labels or an
    indicator matrix in ``y_true``), or ``y_true`` of shape (n, k) with k >= 2.
    A 1-dimensional or (n, 1) pair is the binary case, checked by
    :func:`check_batch` as before.
    """
    score = as_array(y_score, func, "y_score")
    truth = as_array(y_true, func, "y_true")
    if (score.ndim == 2 and score.shape[1] >= 2) or (truth.ndim == 2 and truth.shape[1] >= 2):
        return truth, score
    return None


def check_score_matrix(score: np.ndarray, func: str, name: str = "y_score") -> npt.NDArray[np.float64]:
    """Scores of shape (n, k) as float64, without NaN (exactly representable, as :func:`check_batch`)."""
    if score.ndim != 2:
        raise ValueError(
            f"{func}: argument '{name}' must be 2-dimensional, shape (n, k): one column per label or class; "
            f"got an array of shape {score.shape} instead."
        )
    flat = _batch_scores(score.ravel(), func, name)  # the index it reports is row * k + column
    return flat.reshape(score.shape)


def check_label_matrix(
    truth: np.ndarray, shape: tuple[int, ...], func: str, name: str = "Y", pos_label: Any = None
) -> npt.NDArray[np.bool_]:
    """A label matrix of ``shape`` (n, k) read with the binary evaluator's label rules, entry by entry.

    Without ``pos_label``: bool, 0/1, or -1/1 (as ``add_cases`` of one
    ranking takes them; -1 and 0 are not mixed). With ``pos_label``: an entry
    equal to it is positive, any other value negative. The scikit-learn
    indicator matrix (0/1 or bool) is the common case; its errors name the
    row and column (:func:`check_indicator`).
    """
    if pos_label is None and not (truth.dtype.kind in "iuf" and truth.size and truth.min() == -1):
        return check_indicator(truth, shape, func, name)
    if truth.shape != shape:
        raise ValueError(
            f"{func}: argument '{name}' must be a label matrix of the shape of the scores {shape}; "
            f"got an array of shape {truth.shape} instead."
        )
    return _batch_correct(truth.ravel(), func, pos_label, name).reshape(shape)


def check_indicator(truth: np.ndarray, shape: tuple[int, ...], func: str, name: str = "y_true") -> npt.NDArray[np.bool_]:
    """A label indicator matrix of ``shape`` (n, k): bool or 0/1 in any numeric type."""
    if truth.shape != shape:
        raise ValueError(
            f"{func}: argument '{name}' must be an indicator matrix of the shape of the scores {shape}; "
            f"got an array of shape {truth.shape} instead."
        )
    expected = "an indicator matrix of 0/1 or bool (one column per label)"
    kind = truth.dtype.kind
    if kind == "b":
        return truth.astype(bool, copy=False)
    if kind not in "iuf":
        raise _fail(TypeError, func, name, expected, truth.ravel()[0] if truth.size else truth)
    bad = np.flatnonzero(~((truth == 0) | (truth == 1)))
    if bad.size:
        row, column = divmod(int(bad[0]), shape[1])
        raise ValueError(
            f"{func}: argument '{name}' must be {expected}; "
            f"got {_describe(truth[row, column].item())} at row {row}, column {column} instead."
        )
    return np.asarray(truth == 1)


def check_classes(
    truth: np.ndarray, k: int, labels: Any, func: str, name: str = "y_true", own_labels: bool = False
) -> tuple[npt.NDArray[np.intp], np.ndarray]:
    """Class labels (n,) for k score columns: (column index of each case's class, the k class labels).

    Without ``labels`` the columns are the sorted distinct labels of
    ``y_true``, which must number k (scikit-learn's rule); with ``labels``
    (k distinct values, in column order) every label of ``y_true`` must be
    one of them. ``own_labels``: the labels are the evaluator's own, not an
    argument of ``func``, so a label of the wrong type blames ``name``.
    """
    if truth.ndim == 2 and truth.shape[1] == 1:
        truth = truth[:, 0]
    if truth.ndim != 1:
        raise ValueError(
            f"{func}: argument '{name}' must be class labels of shape (n,) or an indicator matrix of shape (n, {k}); "
            f"got an array of shape {truth.shape} instead."
        )
    if truth.dtype.kind == "f" and np.isnan(truth).any():
        i = int(np.argmax(np.isnan(truth)))
        raise _fail(ValueError, func, name, "class labels, not NaN", truth[i].item(), i)
    if truth.dtype.kind not in "biufUS":
        raise _fail(TypeError, func, name, "class labels of one type (ints, strs or bools)", truth[0] if truth.size else truth, 0)
    if labels is None:
        classes = np.unique(truth)
        if classes.size != k:
            raise ValueError(
                f"{func}: argument '{name}' must hold one class per column of 'y_score' ({k}), or pass labels=; "
                f"got {classes.size} distinct classes {_describe(classes.tolist())} instead."
            )
    else:
        classes = _as_1d(labels, func, "labels", labels=True)
        if classes.size != k or np.unique(classes).size != k:
            raise _fail(ValueError, func, "labels", f"{k} distinct class labels, one per column of 'y_score'", labels)
        if (classes.dtype.kind in "US") != (truth.dtype.kind in "US"):
            if own_labels:  # the caller passed only the classes: they are what is of the wrong type
                what = "strs" if classes.dtype.kind in "US" else "ints or bools"
                shown = ", ".join(repr(c) for c in classes[:5].tolist()) + (", ..." if classes.size > 5 else "")
                raise _fail(TypeError, func, name, f"the evaluator's labels ({what}: {shown}) or indicators, one "
                            "per label", truth[0].item() if truth.size else truth,
                            0 if truth.size else None)
            raise _fail(TypeError, func, "labels", f"labels of the type of '{name}' ({truth.dtype})", labels)
    order = np.argsort(classes, kind="stable")
    pos = np.searchsorted(classes[order], truth)
    pos = np.minimum(pos, k - 1)
    found = classes[order][pos] == truth
    if not found.all():
        i = int(np.argmax(~found))
        raise _fail(ValueError, func, name, f"one of labels {_describe(classes.tolist())}", truth[i].item(), i)
    return np.asarray(order[pos], dtype=np.intp), classes


def check_average(value: Any, func: str, choices: tuple[str | None, ...]) -> str | None:
    """``average``: None or one of the strings in ``choices``."""
    if value is None and None in choices:
        return None
    if not isinstance(value, str) or value not in choices:
        raise _fail(ValueError, func, "average", "one of " + ", ".join(repr(c) for c in choices), value)
    return value


def check_binary_only(func: str, context: str, **given: tuple[Any, Any]) -> None:
    """Options of the binary case (``name=(value, default)``) left at their default in a multi-output call."""
    for name, (value, default) in given.items():
        if not (value is default or value == default) or isinstance(value, (bool, np.bool_)) != isinstance(default, bool):
            raise _fail(ValueError, func, name, f"{default!r} with {context} (it applies to one column of scores)", value)


def check_probability_rows(score: npt.NDArray[np.float64], func: str, name: str = "y_score") -> None:
    """Rows that sum to 1 (within numpy's ``allclose``), as scikit-learn requires for multi-class ROC AUC."""
    sums = score.sum(axis=1)
    bad = ~np.isclose(sums, 1.0)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"{func}: argument '{name}' must hold class probabilities whose rows sum to 1 for multi-class ROC AUC "
            f"(scikit-learn's rule); got a row summing to {float(sums[i])!r} at row {i} instead."
        )


def check_top_k(value: Any, func: str) -> int:
    """``k`` of top-k accuracy: an int >= 1."""
    return check_positive_int(value, func, "k")


def check_same_length(n_true: int, n_score: int, func: str) -> None:
    """``y_true`` and ``y_score`` with one entry per case each."""
    if n_true != n_score:
        raise ValueError(
            f"{func}: arguments 'y_true' and 'y_score' must have the same length; got {n_true} and {n_score} instead."
        )


def check_no_labels(labels: Any, func: str) -> None:
    """``labels=`` is for class labels; an indicator matrix names its labels by its columns."""
    if labels is not None:
        raise ValueError(
            f"{func}: argument 'labels' must be None with an indicator matrix 'y_true' (its columns are the labels); "
            f"got {_describe(labels)} instead."
        )


def check_multiclass_roc(func: str, multi_class: str, max_fpr: float | None, sample_weight: Any) -> None:
    """The options of multi-class ROC AUC, as scikit-learn allows them.

    ``multi_class`` chosen ('raise' is the default that asks for a choice),
    no partial AUC, and no weights for Hand & Till's one-vs-one measure.
    """
    if max_fpr is not None and max_fpr != 1.0:
        raise ValueError(
            f"{func}: argument 'max_fpr' must be None or 1 for multi-class input (no partial AUC there, as "
            f"scikit-learn); got {max_fpr!r} instead."
        )
    if multi_class == "raise":
        raise ValueError(
            f"{func}: argument 'multi_class' must be 'ovr' or 'ovo' for multi-class input (class labels with (n, k) "
            f"scores); got 'raise' instead."
        )
    if multi_class == "ovo" and sample_weight is not None:
        raise ValueError(
            f"{func}: argument 'sample_weight' must be None with multi_class='ovo' (Hand & Till's measure is "
            f"unweighted, as in scikit-learn); got {_describe(sample_weight)} instead."
        )


#: Most labels a multi-label evaluation takes (and its state files hold): 1,048,576. An evaluation
#: of that many labels takes about 120 MB before its first row (the exact kind).
MAX_LABELS = 1 << 20


def check_label_names(labels: Any, func: str, name: str = "labels") -> list[Any]:
    """The labels of a multi-label evaluation: a count k >= 1 (named 0 .. k-1) or k distinct str/int names.

    At most :data:`MAX_LABELS` of them, int names within int64/uint64: what a state file holds.
    """
    expected = (f"an int k between 1 and {MAX_LABELS} (MAX_LABELS) or a non-empty list of at most {MAX_LABELS} "
                "distinct label names (str, or int within int64 or uint64)")
    if isinstance(labels, (int, np.integer)) and not isinstance(labels, (bool, np.bool_)):
        k = check_positive_int(labels, func, name)
        if k > MAX_LABELS:  # refused before anything is allocated
            raise _fail(ValueError, func, name, expected, labels)
        return list(range(k))
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable) or isinstance(labels, Mapping):
        raise _fail(TypeError, func, name, expected, labels)
    names: list[Any] = []
    for v in labels:
        if len(names) == MAX_LABELS:  # an endless iterable is refused too
            raise _fail(ValueError, func, name, expected, labels)
        names.append(v.item() if isinstance(v, np.generic) else v)
    for i, v in enumerate(names):
        if isinstance(v, bool) or not isinstance(v, (str, int)):
            raise _fail(TypeError, func, name, expected, v, i)
        if isinstance(v, int) and not MIN_SAVED_INT <= v <= MAX_SAVED_INT:
            raise _fail(ValueError, func, name, expected, v, i)
    if not names or len(set(names)) != len(names) or len({type(v) for v in names}) != 1:
        raise _fail(ValueError, func, name, expected + " of one type", labels)
    return names
