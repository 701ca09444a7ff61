"""The checks of :mod:`scored_pr.lingpipe`'s arguments: ranked classifications, confusion matrices, arities."""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .errors import fail


def check_ranked_scores(scores: Any, n: int, func: str) -> tuple[float, ...]:
    """``n`` real numbers (not NaN), one per category, in non-increasing order (rank 0 the best)."""
    expected = "a real number, not NaN"
    if isinstance(scores, (str, bytes)) or not isinstance(scores, (Sequence, np.ndarray)):
        raise fail(TypeError, func, "scores", "a list of real numbers (one per category)", scores)
    values = list(scores)
    if len(values) != n:
        raise ValueError(
            f"{func}: arguments 'categories' and 'scores' must have the same length; "
            f"got {n} categories and {len(values)} scores instead."
        )
    out = []
    for i, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
            raise fail(TypeError, func, "scores", expected, v, i)
        f = float(v)
        if math.isnan(f):
            raise fail(ValueError, func, "scores", expected, v, i)
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
        raise fail(TypeError, func, "matrix", expected, matrix) from None
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


def check_whole_counts(matrix: Any, labels: list[Any], func: str, name: str) -> tuple[list[str], Any]:
    """A multi-label evaluation's confusion matrix and labels as LingPipe takes them: whole counts, distinct str names.

    Weight sums that are whole numbers (integer weights) become ints; any
    other weight sum is refused, as are labels whose ``str`` coincide.
    """
    m = np.asarray(matrix)
    if m.dtype.kind == "f":
        if not bool((m == np.floor(m)).all()):
            raise ValueError(f"{func}: argument {name!r} must hold whole-number counts (LingPipe's confusion matrix "
                             "counts rows; weights other than whole numbers make fractional sums); got weighted rows "
                             "instead.")
        m = m.astype(np.int64)
    names = [str(label) for label in labels]
    if len(set(names)) != len(names):
        raise ValueError(f"{func}: argument {name!r} must have labels whose names as str are distinct (LingPipe's "
                         f"categories are strings); got {labels!r:.120} instead.")
    return names, m


def check_arity(given: int, allowed: tuple[int, ...], forms: str, func: str) -> None:
    """A call with a variable argument list: ``given`` arguments, one of ``allowed`` (``forms`` shows them)."""
    if given not in allowed:
        raise TypeError(f"{func}: {forms}; got {given} arguments instead.")
