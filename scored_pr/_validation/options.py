"""The checks of options: the arguments of constructors and measures, not of cases.

Tie policy and positive label, k, beta, fractions and recall levels, choices
and flags, averages, partial ROC area, confidence-interval options, curves
passed in, and the decorator that keeps a renamed keyword working.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

import numpy as np

from .errors import clipped, describe, fail


TIE_POLICIES = ("stable", "grouped")


_Func = TypeVar("_Func", bound=Callable[..., Any])


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


def check_ties(ties: Any, func: str = "ScoredPrecisionRecallEvaluation") -> str:
    if not isinstance(ties, str) or ties not in TIE_POLICIES:
        raise fail(ValueError, func, "ties", "one of " + ", ".join(repr(t) for t in TIE_POLICIES), ties)
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
            raise fail(ValueError, func, "pos_label", _POS_LABEL_EXPECTED, value)
        return int(value)
    if isinstance(value, (float, np.floating)) and math.isfinite(value):
        return float(value)
    if isinstance(value, (float, np.floating)) and not math.isnan(value):  # NaN is never a label: a TypeError, as before
        raise fail(ValueError, func, "pos_label", _POS_LABEL_EXPECTED, value)
    raise fail(TypeError, func, "pos_label", _POS_LABEL_EXPECTED, value)


def check_positive_int(value: Any, func: str, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise fail(TypeError, func, name, "an int >= 1", value)
    if value < 1:
        raise fail(ValueError, func, name, "an int >= 1", value)
    return int(value)


def check_beta(value: Any, func: str, name: str = "beta") -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise fail(TypeError, func, name, "a finite real number > 0", value)
    result = float(value)
    if not (math.isfinite(result) and result > 0.0):
        raise fail(ValueError, func, name, "a finite real number > 0", value)
    return result


def check_fraction(value: Any, func: str, name: str, low_open: bool) -> float:
    """A real number in (0, 1] (``low_open``) or [0, 1]."""
    expected = "a real number in (0, 1]" if low_open else "a real number in [0, 1]"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise fail(TypeError, func, name, expected, value)
    result = float(value)
    if not (0.0 < result <= 1.0 if low_open else 0.0 <= result <= 1.0):
        raise fail(ValueError, func, name, expected, value)
    return result


def check_choice(value: Any, func: str, name: str, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise fail(ValueError, func, name, "one of " + ", ".join(repr(c) for c in choices), value)
    return value


def check_flag(value: Any, func: str, name: str) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise fail(TypeError, func, name, "a bool", value)


def check_not_both(func: str, first: tuple[str, Any], second: tuple[str, Any]) -> None:
    """Two options that exclude each other: ValueError when both are given (not None)."""
    (a, va), (b, vb) = first, second
    if va is not None and vb is not None:
        raise ValueError(f"{func}: arguments '{a}' and '{b}' must not both be given; got {a}={va!r} and {b}={vb!r} instead.")


def check_shape(value: Any, ok: bool, func: str, name: str, expected: str) -> None:
    """ValueError naming ``expected`` and the array's shape when ``ok`` is False."""
    if not ok:
        raise ValueError(f"{func}: argument '{name}' must {expected}; got an array of shape {value.shape} instead.")


def check_optional_callable(value: Any, func: str, name: str, expected: str) -> Any:
    """A callable or None (a logger's ``step``, a window's ``clock``)."""
    if value is not None and not callable(value):
        raise TypeError(f"{func}: argument '{name}' must be {expected}; got {clipped(value, 80)} instead.")
    return value


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


def check_level(level: Any, func: str) -> float:
    """A confidence level strictly between 0 and 1."""
    if isinstance(level, bool) or not isinstance(level, (int, float, np.integer, np.floating)) or not (
        0.0 < float(level) < 1.0
    ):
        raise fail(ValueError, func, "level", "a real number strictly between 0 and 1", level)
    return float(level)


def check_resamples(n: Any, func: str) -> int:
    """A number of resamples: an int >= 10."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 10:
        raise fail(ValueError, func, "n_resamples", "an integer >= 10", n)
    return int(n)


def check_seed(seed: Any, func: str) -> int | None:
    """``seed`` if it is None or a non-negative integer (what ``numpy.random.default_rng`` takes)."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise fail(TypeError, func, "seed", "None or a non-negative integer", seed)
    if seed < 0:
        raise fail(ValueError, func, "seed", "None or a non-negative integer", seed)
    return int(seed)


def check_partial_auc(interpolate: bool, max_fpr: Any, standardized: Any, func: str = "area_under_roc_curve") -> tuple[float, bool]:
    """(max_fpr, standardized) of a partial ROC area: ``max_fpr`` in (0, 1], a bool, the uninterpolated curve."""
    if (
        isinstance(max_fpr, bool)
        or not isinstance(max_fpr, (int, float, np.integer, np.floating))
        or not (0.0 < float(max_fpr) <= 1.0)
    ):
        raise fail(ValueError, func, "max_fpr", "None or a real number in (0, 1]", max_fpr)
    if not isinstance(standardized, (bool, np.bool_)):
        raise fail(TypeError, func, "standardized", "a bool", standardized)
    if interpolate:
        raise fail(ValueError, func, "interpolate", "False when max_fpr is given", interpolate)
    return float(max_fpr), bool(standardized)


def check_average(value: Any, func: str, choices: tuple[str | None, ...]) -> str | None:
    """``average``: None or one of the strings in ``choices``."""
    if value is None and None in choices:
        return None
    if not isinstance(value, str) or value not in choices:
        raise fail(ValueError, func, "average", "one of " + ", ".join(repr(c) for c in choices), value)
    return value


def check_binary_only(func: str, context: str, **given: tuple[Any, Any]) -> None:
    """Options of the binary case (``name=(value, default)``) left at their default in a multi-output call."""
    for name, (value, default) in given.items():
        if not (value is default or value == default) or isinstance(value, (bool, np.bool_)) != isinstance(default, bool):
            raise fail(ValueError, func, name, f"{default!r} with {context} (it applies to one column of scores)", value)


def check_top_k(value: Any, func: str) -> int:
    """``k`` of top-k accuracy: an int >= 1."""
    return check_positive_int(value, func, "k")


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
            f"unweighted, as in scikit-learn); got {describe(sample_weight)} instead."
        )


def check_html_args(path: Any, title: Any, func: str) -> tuple[Any, str | None]:
    """``to_html``'s ``path`` (None, a str or an os.PathLike) and ``title`` (None or a str)."""
    import os

    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise fail(TypeError, func, "path", "None, a str or an os.PathLike", path)
    if title is not None and not isinstance(title, str):
        raise fail(TypeError, func, "title", "None or a str", title)
    return path, title
