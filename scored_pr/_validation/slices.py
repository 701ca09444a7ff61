"""The arguments of a sliced evaluation: its keys, its crossings, and each case's feature values.

A feature value is a str, an int, a finite float or a bool (numpy scalars of
those types too); None and NaN are the missing value, a slice of its own
(shown ``(missing)``), kept as None. Every check raises before the caller has
changed anything, naming the key (and the row of a column).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .cases import as_1d
from .errors import describe, fail

#: What a feature value may be.
VALUE_EXPECTED = "a str, int, finite float, bool, or None/NaN for a missing value"
#: How a missing feature value is shown in tables, summaries and metric names.
MISSING_TEXT = "(missing)"
#: Names a key cannot take: the add methods' own parameters.
RESERVED = frozenset({"correct", "score", "scores", "weight", "sample_weight", "count", "by", "self"})


def check_slice_keys(keys: Any, func: str) -> tuple[str, ...]:
    """The key names as a tuple: one str, or a sequence of distinct str that are not the add methods' parameters."""
    if isinstance(keys, str):
        keys = (keys,)
    if not isinstance(keys, (tuple, list)) or not keys or not all(isinstance(k, str) and k for k in keys):
        raise fail(TypeError, func, "keys", "a non-empty str or sequence of non-empty str (the feature names)", keys)
    if len(set(keys)) != len(keys):
        raise fail(ValueError, func, "keys", "distinct names", keys)
    clash = [k for k in keys if k in RESERVED or "=" in k or "/" in k]
    if clash:
        raise fail(ValueError, func, "keys", f"names other than {sorted(RESERVED)} without '=' or '/'", clash[0])
    return tuple(keys)


def check_slice_specs(slices: Any, keys: tuple[str, ...], func: str) -> tuple[tuple[str, ...], ...]:
    """The crossings kept, each a tuple of keys in the order of ``keys``; default the overall one and each key alone."""
    if slices is None:
        return ((), *((k,) for k in keys))
    if isinstance(slices, (str, Mapping)) or not isinstance(slices, Iterable):
        raise fail(TypeError, func, "slices", "a sequence of crossings, each a tuple of key names (() for overall)", slices)
    out: list[tuple[str, ...]] = []
    for spec in slices:
        names = (spec,) if isinstance(spec, str) else spec
        if not isinstance(names, (tuple, list)) or not all(isinstance(n, str) for n in names):
            raise fail(TypeError, func, "slices", "crossings that are tuples of key names", spec)
        unknown = [n for n in names if n not in keys]
        if unknown:
            raise fail(ValueError, func, "slices", f"crossings of the keys {list(keys)}", unknown[0])
        if len(set(names)) != len(names):
            raise fail(ValueError, func, "slices", "crossings naming each key once", spec)
        ordered = tuple(k for k in keys if k in names)
        if ordered in out:
            raise fail(ValueError, func, "slices", "distinct crossings", spec)
        out.append(ordered)
    if not out:
        raise fail(ValueError, func, "slices", "at least one crossing", slices)
    out.sort(key=lambda s: (len(s), [keys.index(k) for k in s]))
    return tuple(out)


def check_slice_kind(kind: Any, allowed: tuple[str, ...], func: str) -> str:
    if not isinstance(kind, str) or kind not in allowed:
        raise fail(ValueError, func, "kind", "one of " + ", ".join(repr(k) for k in allowed), kind)
    return kind


def feature_value(value: Any, key: str, func: str, row: int | None = None) -> Any:
    """A feature value as a plain Python value (None when missing); TypeError/ValueError naming the key."""
    t = type(value)
    if t is str or t is int or t is bool:
        return value
    if value is None:
        return None
    if t is float:
        if value != value:
            return None
        if math.isinf(value):
            raise fail(ValueError, func, key, "a feature value: " + VALUE_EXPECTED, value, row)
        return value
    if isinstance(value, np.generic) and value.dtype.kind in "biufUS":
        return feature_value(value.item() if value.dtype.kind != "S" else value.tobytes().decode(), key, func, row)
    if isinstance(value, (str, int, float)):  # subclasses: their plain value
        base = str if isinstance(value, str) else (bool if isinstance(value, bool) else (int if isinstance(value, int) else float))
        return feature_value(base(value), key, func, row)
    try:
        hash(value)
    except TypeError:
        raise fail(TypeError, func, key, "a hashable feature value: " + VALUE_EXPECTED, value, row) from None
    raise fail(TypeError, func, key, "a feature value: " + VALUE_EXPECTED, value, row)


def check_features(features: Mapping[str, Any], keys: tuple[str, ...], func: str) -> tuple[Any, ...]:
    """One case's feature values in the order of ``keys``: every key given, no other."""
    check_feature_names(features, keys, func)
    return tuple(feature_value(features[k], k, func) for k in keys)


def check_feature_names(features: Mapping[str, Any], keys: tuple[str, ...], func: str) -> None:
    """Every key given as a keyword argument (a value or a column), no other."""
    if len(features) != len(keys) or any(k not in features for k in keys):
        missing = [k for k in keys if k not in features]
        extra = [k for k in features if k not in keys]
        raise TypeError(
            f"{func}: the features must be the keys {list(keys)}, each once, as keyword arguments; "
            f"got {'missing ' + repr(missing) if missing else ''}{' and ' if missing and extra else ''}"
            f"{'undeclared ' + repr(extra) if extra else ''} instead."
        )


def feature_column(values: Any, key: str, size: int, func: str) -> tuple[np.ndarray, bool]:
    """A feature column as a 1-d numpy array of ``size`` rows that :func:`scored_pr._core.slicing.factorize` takes.

    Numeric, boolean and string columns stay typed (a float column's NaN is
    the missing value; an infinite value is refused, naming its row); any
    other column (objects, nulls of pandas, polars or Arrow) becomes an
    object array of checked plain values, returned with ``True`` (its
    missing values are None).
    """
    if type(values).__module__.startswith("pyarrow") and hasattr(values, "to_pylist"):
        values = values.to_pylist()  # nulls are missing values here, not refused
    arr = as_1d(values, func, key)
    if len(arr) != size:
        raise ValueError(f"{func}: feature column '{key}' must have one value per case ({size}); got {len(arr)} instead.")
    kind = arr.dtype.kind
    if kind == "f":
        bad = np.isinf(arr)
        if bad.any():
            i = int(np.argmax(bad))
            raise fail(ValueError, func, key, "a feature value: " + VALUE_EXPECTED, arr[i].item(), i)
        return arr, False
    if kind in "biuU":
        return arr, False
    out = np.empty(arr.size, dtype=object)
    for i, v in enumerate(arr.tolist() if kind != "O" else arr):
        out[i] = feature_value(v, key, func, i)
    return out, True


def too_many_slices(slice_text: str, count: int, max_slices: int, func: str) -> ValueError:
    """The refusal of the case that would make slice ``max_slices + 1``."""
    return ValueError(
        f"{func}: the slice {slice_text} would be slice number {count} of this evaluation, over "
        f"max_slices={max_slices}; nothing of this call was added. A feature of many values (an id, a "
        "timestamp) makes a slice per value: slice by a coarser feature, or raise max_slices."
    )


def check_slice_request(values: Mapping[str, Any], keys: tuple[str, ...], func: str) -> tuple[tuple[str, Any], ...]:
    """The slice named by ``values`` (``region="eu"``): its (key, value) pairs in the order of ``keys``."""
    unknown = [k for k in values if k not in keys]
    if unknown:
        raise TypeError(f"{func}: {unknown[0]!r} is not a key of this evaluation; its keys are {list(keys)}.")
    return tuple((k, feature_value(values[k], k, func)) for k in keys if k in values)


def no_such_slice(pairs: tuple[tuple[str, Any], ...], specs: tuple[tuple[str, ...], ...], func: str) -> KeyError:
    names = tuple(k for k, _ in pairs)
    if names not in specs:
        return KeyError(f"{func}: the crossing {names!r} is not kept; the kept crossings are {list(specs)}")
    return KeyError(f"{func}: no case has {slice_text(pairs)}")


def slice_text(pairs: tuple[tuple[str, Any], ...]) -> str:
    """``region=eu, device=(missing)``; ``overall`` for the overall slice."""
    if not pairs:
        return "overall"
    return ", ".join(f"{k}={MISSING_TEXT if v is None else v}" for k, v in pairs)


def check_reference(reference: Any, func: str) -> Any:
    if reference == "overall" or isinstance(reference, Mapping):
        return reference
    raise fail(TypeError, func, "reference", "'overall' or a dict naming one slice ({'region': 'eu'})", reference)


def check_min_cases(value: Any, func: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise fail(ValueError, func, "min_cases", "a non-negative int", value)
    return int(value)


def check_max_slices(value: Any, func: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise fail(ValueError, func, "max_slices", "a positive int", value)
    return int(value)


def check_correction(value: Any, func: str) -> str:
    if value not in ("holm", "bonferroni"):
        raise fail(ValueError, func, "correction", "'holm' or 'bonferroni'", value)
    return str(value)


def check_by(by: Any, frame_columns: list[str], keys: tuple[str, ...], func: str) -> None:
    """A DataFrame given with ``by=``: each key a column of it."""
    missing = [k for k in keys if k not in frame_columns]
    if missing:
        raise ValueError(
            f"{func}: the key {missing[0]!r} is not a column of the DataFrame given as 'by'; "
            f"its columns are {frame_columns[:50]}; got {describe(by)} instead."
        )


def check_by_mapping(by: Any, func: str) -> tuple[str, ...]:
    """The keys of ``by``, a non-empty dict of feature names to columns."""
    if not isinstance(by, Mapping) or not by:
        raise fail(TypeError, func, "by", "a non-empty dict of feature names to columns ({'region': region})", by)
    return check_slice_keys(tuple(by), func)


def check_no_key_clash(labels: Mapping[str, str], keys: list[str], func: str) -> None:
    """A sink's constant labels beside a sliced summary: none may be named like a key, or 'scope'."""
    for name in labels:
        if name in keys or name == "scope":
            raise ValueError(
                f"{func}: argument 'labels' must not name {name!r} when the evaluation is sliced by {keys} (the "
                f"sink sets a label per key, and 'scope', itself); got {name!r}: {labels[name]!r:.40} instead. "
                "Nothing was written."
            )
