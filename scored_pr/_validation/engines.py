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
