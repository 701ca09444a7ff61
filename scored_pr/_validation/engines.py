"""The arguments of ``scored_pr.spark.evaluate`` and ``scored_pr.dask.evaluate``, and the rows they read.

A column argument names a column of the DataFrame; a data fault (a null or
NaN score, a label that is neither class, a negative weight) is reported with
the column, the argument that named it, how many rows hold it and one of them,
before any measure is computed.
"""

from __future__ import annotations

from typing import Any, Iterable

from .errors import describe, fail
from .options import check_choice, check_positive_int


def check_column_names(func: str, columns: Iterable[str], **named: Any) -> dict[str, str | None]:
    """Each ``named`` argument (``label_col="label"``...) is None or the name of one of ``columns``.

    Returns the same mapping. Raises TypeError for a name that is not a str,
    ValueError (naming the argument, the column and the columns there are)
    for one the DataFrame does not have, or one column named twice.
    """
    have = list(columns)
    seen: dict[str, str] = {}
    for arg, name in named.items():
        if name is None:
            continue
        if not isinstance(name, str):
            raise fail(TypeError, func, arg, "a column name (str)", name)
        if name not in have:
            shown = ", ".join(repr(c) for c in have[:20]) + (", ..." if len(have) > 20 else "")
            raise fail(ValueError, func, arg, f"a column of the DataFrame ({shown})", name)
        if name in seen:
            raise fail(ValueError, func, arg, f"another column than argument '{seen[name]}'s", name)
        seen[name] = arg
    return named


def check_engine_options(
    func: str, mode: Any, max_bins: Any, curve_points: Any, ranks: Any, partitions: Any
) -> tuple[str, int, int, tuple[int, ...], int | None]:
    """``mode`` ("exact" or "bounded"), ``max_bins``, ``curve_points``, extra ``ranks`` and ``partitions``."""
    mode = check_choice(mode, func, "mode", ("exact", "bounded"))
    max_bins = check_positive_int(max_bins, func, "max_bins")
    curve_points = check_positive_int(curve_points, func, "curve_points")
    if isinstance(ranks, (str, bytes)) or not isinstance(ranks, (tuple, list)):
        raise fail(TypeError, func, "ranks", "a tuple of ints >= 1", ranks)
    ranks = tuple(check_positive_int(k, func, "ranks") for k in ranks)
    if partitions is not None:
        partitions = check_positive_int(partitions, func, "partitions")
    return mode, max_bins, curve_points, ranks, partitions


def check_misses_count(value: Any, func: str) -> int:
    """``misses``: an int >= 0."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise fail(TypeError if not isinstance(value, int) else ValueError, func, "misses", "an int >= 0", value)
    return int(value)


def bad_rows(func: str, arg: str, column: str, expected: str, count: int, example: Any) -> ValueError:
    """The error for ``count`` rows whose value in ``column`` (named by argument ``arg``) is not ``expected``."""
    return ValueError(
        f"{func}: column {column!r} (argument '{arg}') must hold {expected}; "
        f"{count} row{'s' if count != 1 else ''} do{'es' if count == 1 else ''} not (e.g. {describe(example)})."
    )


def check_column_type(func: str, arg: str, column: str, kind: str, expected: str, ok: bool) -> None:
    """A column of the wrong type: TypeError naming the argument, the column and its type."""
    if not ok:
        raise TypeError(f"{func}: column {column!r} (argument '{arg}') must be {expected}; it is {kind}.")


def label_classes(values: Any, pos_label: Any) -> tuple[Any, Any]:
    """(correct, bad): each label's class and whether it is no label, for a column of labels (numpy, vectorised).

    The rule of ``check_correct``: without ``pos_label``, bool, or the numbers
    1 (positive) and 0 or -1 (negative); with it, ``label == pos_label``, a
    string label never equal to a numeric one. Null and NaN are never labels.
    """
    import numpy as np
    import pandas as pd

    v = np.asarray(values)
    null = np.asarray(pd.isna(values))
    if v.dtype.kind == "b":
        return (v == bool(pos_label)) if pos_label is not None else v.astype(bool), null
    if v.dtype.kind in "iuf":
        f = v.astype(np.float64)
        if pos_label is None:
            return f == 1.0, null | ~np.isin(f, (1.0, 0.0, -1.0))
        if isinstance(pos_label, str):
            return np.zeros(v.size, bool), np.ones(v.size, bool)
        return f == float(pos_label), null
    # object / string labels: compared as Python values
    if pos_label is None:
        ok = np.array([isinstance(x, (bool, np.bool_)) or (isinstance(x, (int, float, np.number)) and x in (1, 0, -1))
                       for x in v.tolist()], dtype=bool)
        return np.array([bool(x == 1) if o else False for x, o in zip(v.tolist(), ok)], dtype=bool), ~ok | null
    if isinstance(pos_label, str):
        is_str = np.array([isinstance(x, str) for x in v.tolist()], dtype=bool)
        return (v == pos_label) & is_str, ~is_str | null
    is_num = np.array([isinstance(x, (bool, int, float, np.number)) and not isinstance(x, str) for x in v.tolist()],
                      dtype=bool)
    return np.array([bool(x == pos_label) if o else False for x, o in zip(v.tolist(), is_num)], dtype=bool), ~is_num | null


def check_frame(value: Any, ok: bool, func: str, name: str, expected: str) -> None:
    """The DataFrame argument: TypeError naming it when it is not ``expected``."""
    if not ok:
        raise fail(TypeError, func, name, expected, type(value).__name__)


def check_query_setup(func: str, query_col: Any, misses: int, mode: str) -> None:
    """``query_col`` goes with exact mode and no ``misses`` (a miss belongs to no query)."""
    if query_col is None:
        return
    if misses:
        raise fail(ValueError, func, "misses", "0 with query_col (a miss belongs to no query)", misses)
    if mode != "exact":
        raise fail(ValueError, func, "mode", "'exact' with query_col", mode)
