"""The arguments of ``scored_pr.spark.evaluate`` and ``scored_pr.dask.evaluate``, and the rows they read.

A column argument names a column of the DataFrame; a data fault (a null or
NaN score, a label that is neither class, a negative weight) is reported with
the column, the argument that named it, how many rows hold it and one of them,
before any measure is computed.
"""

from __future__ import annotations

from typing import Any, Iterable

from .cases import _EXACT_EXPECTED, check_score, inexact_scores, label_expected, labels_of_kind
from .decisions import check_cost, check_maximize, check_subject_to
from .errors import describe, fail
from .options import check_choice, check_positive_int
from .slices import check_max_slices, check_slice_keys, check_slice_specs


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
        _named_once(func, arg, name, have)
        if name in seen:
            raise fail(ValueError, func, arg, f"another column than argument '{seen[name]}'s", name)
        seen[name] = arg
    return named


def _named_once(func: str, arg: str, name: str, have: list[Any]) -> None:
    """A DataFrame may hold two columns of one name: the argument that names one of them is ambiguous."""
    count = have.count(name)
    if count > 1:
        raise fail(ValueError, func, arg, f"the name of one column (the DataFrame has {count} columns of that name: "
                   "rename or drop the others)", name)


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


def check_bin_counts(func: str, value: Any) -> tuple[int, ...]:
    """``calibration_bins``: a tuple (or list) of ints >= 1, the extra uniform bin counts the engines sum."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
        raise fail(TypeError, func, "calibration_bins", "a tuple of ints >= 1", value)
    return tuple(check_positive_int(n, func, "calibration_bins") for n in value)


def _sequence(func: str, name: str, value: Any, expected: str) -> tuple[Any, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
        raise fail(TypeError, func, name, expected, value)
    return tuple(value)


def check_decision_requests(
    func: str, costs: Any, operating_points: Any, thresholds: Any
) -> tuple[tuple[tuple[float, float, float, float], ...], tuple[tuple[str, tuple[tuple[str, float], ...]], ...],
           tuple[float, ...], bool]:
    """``costs`` ((cost_fp, cost_fn, gain_tp, gain_tn), ...), ``operating_points`` ((maximize, subject_to), ...)
    and ``thresholds`` (real numbers, or ``"all"``: every distinct score): the decision requests the engines
    answer, each checked as the query that will ask for it checks it; the last item says ``"all"``."""
    out_costs = []
    for c in _sequence(func, "costs", costs, "a tuple of (cost_fp, cost_fn, gain_tp, gain_tn) tuples"):
        c = _sequence(func, "costs", c, "a tuple of (cost_fp, cost_fn, gain_tp, gain_tn) tuples")
        if len(c) != 4:
            raise fail(ValueError, func, "costs", "(cost_fp, cost_fn, gain_tp, gain_tn) tuples of 4 numbers", c)
        out_costs.append(tuple(check_cost(v, func, f"costs[{n}]")
                               for v, n in zip(c, ("cost_fp", "cost_fn", "gain_tp", "gain_tn"))))
    points = []
    for op in _sequence(func, "operating_points", operating_points, "a tuple of (maximize, subject_to) pairs"):
        op = _sequence(func, "operating_points", op, "a tuple of (maximize, subject_to) pairs")
        if len(op) != 2:
            raise fail(ValueError, func, "operating_points", "(maximize, subject_to) pairs", op)
        points.append((check_maximize(op[0], func), tuple(check_subject_to(op[1], func).items())))
    if isinstance(thresholds, str) and thresholds == "all":
        return tuple(out_costs), tuple(points), (), True  # type: ignore[return-value,arg-type]
    cuts = tuple(check_score(t, func, "thresholds")
                 for t in _sequence(func, "thresholds", thresholds, 'a tuple of real numbers, or "all"'))
    return tuple(out_costs), tuple(points), cuts, False  # type: ignore[return-value,arg-type]


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


def check_label_column(func: str, column: str, kind: str, type_name: str, pos_label: Any) -> None:
    """A typed label column whose labels cannot be labels, given ``pos_label``: TypeError, as the evaluator's.

    ``kind`` is the numpy dtype kind the column's values have ("b" boolean,
    "i"/"u"/"f" numeric, "U" string, "O" untyped: checked row by row); the
    rule is :func:`labels_of_kind`, the one ``add_cases`` applies, and the
    expectation is ``add_cases``' (``label_expected``). A boolean column
    takes ``pos_label`` True, False or a number (compared as 1 and 0, so
    ``pos_label=2`` leaves no row positive); a string ``pos_label`` is
    refused, never read as a bool.
    """
    if kind != "O" and not labels_of_kind(kind, pos_label):
        raise TypeError(f"{func}: column {column!r} (argument 'label_col') must hold {label_expected(pos_label)}; "
                        f"it is {type_name}.")


def label_classes(values: Any, pos_label: Any) -> tuple[Any, Any]:
    """(correct, bad): each label's class and whether it is no label, for a column of labels (numpy, vectorised).

    The rule of ``check_correct``: without ``pos_label``, bool, or the numbers
    1 (positive) and 0 or -1 (negative); with it, ``label == pos_label``
    compared as numpy compares them (a bool column with ``pos_label=2``: no
    positive), a string label never equal to a numeric one. Null and NaN are
    never labels. A typed column whose labels cannot match ``pos_label`` is
    refused first (:func:`check_label_column`).
    """
    import numpy as np
    import pandas as pd

    v = np.asarray(values)
    null = np.asarray(pd.isna(values))
    if v.dtype.kind == "b":
        return (v == pos_label) if pos_label is not None else v.astype(bool), null
    if v.dtype.kind in "iuf":
        if pos_label is None:
            return v == 1, null | ~((v == 1) | (v == 0) | (v == -1))
        if isinstance(pos_label, str):
            return np.zeros(v.size, bool), np.ones(v.size, bool)
        return v == pos_label, null
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


def _column_list(func: str, arg: str, value: Any, have: list[str]) -> list[str]:
    """A list or tuple of at least two distinct column names of the DataFrame (``arg[i]`` named when one is not)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise fail(TypeError, func, arg, "a list of column names", value)
    names = list(value)
    if len(names) < 2:
        raise fail(ValueError, func, arg, "at least two column names", value)
    shown = ", ".join(repr(c) for c in have[:20]) + (", ..." if len(have) > 20 else "")
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise fail(TypeError, func, f"{arg}[{i}]", "a column name (str)", name)
        if name not in have:
            raise fail(ValueError, func, f"{arg}[{i}]", f"a column of the DataFrame ({shown})", name)
        _named_once(func, f"{arg}[{i}]", name, have)
        if names.index(name) != i:
            raise fail(ValueError, func, f"{arg}[{i}]", f"a column not named twice (it is {arg}[{names.index(name)}])",
                       name)
    return names


def check_wide_columns(
    func: str, columns: Iterable[str], *, label_col: Any, label_cols: Any, score_col: Any, score_cols: Any,
    classes: Any, weight_col: Any, query_col: Any,
) -> tuple[list[Any], list[str], list[str]]:
    """The multi-class (``label_col`` + ``score_cols``) or multi-label (``label_cols`` + ``score_cols``) columns.

    Returns (labels, label columns, score columns), the two lists of columns
    of equal length k: multi-class repeats ``label_col`` k times and its
    labels are ``classes`` (default: the score columns' names); multi-label's
    labels are the label columns' names. Raises TypeError or ValueError
    naming the argument (``score_cols[2]``...) for a missing column, a column
    named twice, lists of different lengths, both or neither of
    ``label_col`` and ``label_cols``, ``score_col`` or ``query_col`` with
    ``score_cols``, or ``classes`` with ``label_cols``.
    """
    have = list(columns)
    if score_cols is None:
        arg = "label_cols" if label_cols is not None else "classes"
        raise fail(ValueError, func, "score_cols", f"a list of score columns, one per label, with {arg}", None)
    if score_col is not None:
        raise fail(ValueError, func, "score_col", "None with score_cols (one score column per label)", score_col)
    if query_col is not None:
        raise fail(ValueError, func, "query_col", "None with score_cols (means over queries are binary only)",
                   query_col)
    if label_col is not None and label_cols is not None:
        raise fail(ValueError, func, "label_cols", "None with label_col: label_col names the class column "
                   "(multi-class), label_cols the indicator columns (multi-label); give one", label_cols)
    if label_col is None and label_cols is None:
        raise fail(ValueError, func, "label_col", "the class column (multi-class) with score_cols, or pass "
                   "label_cols= (one indicator column per label, multi-label)", None)
    scores = _column_list(func, "score_cols", score_cols, have)
    if label_cols is not None:
        if classes is not None:
            raise fail(ValueError, func, "classes", "None with label_cols (the labels are the label columns' names)",
                       classes)
        labels_in = _column_list(func, "label_cols", label_cols, have)
        if len(labels_in) != len(scores):
            raise ValueError(f"{func}: arguments 'label_cols' and 'score_cols' must name as many columns, paired by "
                             f"position; got {len(labels_in)} label columns {labels_in!r} and {len(scores)} score "
                             f"columns {scores!r} instead.")
        check_column_names(func, have, weight_col=weight_col)
        for j, (lc, sc) in enumerate(zip(labels_in, scores)):
            if lc in scores:
                raise fail(ValueError, func, f"label_cols[{j}]", "a column that is not a score column", lc)
        if weight_col in labels_in or weight_col in scores:
            raise fail(ValueError, func, "weight_col", "a column that is no label or score column", weight_col)
        return list(labels_in), labels_in, scores
    check_column_names(func, have, label_col=label_col, weight_col=weight_col)
    if label_col in scores or (weight_col is not None and weight_col in scores):
        arg = "label_col" if label_col in scores else "weight_col"
        raise fail(ValueError, func, arg, "a column that is not a score column", label_col if arg == "label_col"
                   else weight_col)
    if classes is None:
        labels = list(scores)
    else:
        if isinstance(classes, (str, bytes)) or not isinstance(classes, (list, tuple)):
            raise fail(TypeError, func, "classes", "a list of class labels, one per score column", classes)
        labels = list(classes)
        if len(labels) != len(scores):
            raise ValueError(f"{func}: arguments 'classes' and 'score_cols' must have the same length, paired by "
                             f"position; got {len(labels)} classes {labels!r} and {len(scores)} score columns "
                             f"{scores!r} instead.")
        for i, c in enumerate(labels):
            if c is None or isinstance(c, float) and c != c or not isinstance(c, (str, int, float)):
                raise fail(TypeError, func, f"classes[{i}]", "a class label (str, int, float or bool)", c)
            if labels.index(c) != i:
                raise fail(ValueError, func, f"classes[{i}]", "a class not given twice", c)
    return labels, [label_col] * len(scores), scores


def check_wide_setup(func: str, multiclass: bool, misses: int, mode: str, pos_label: Any) -> None:
    """The options a multi-class or multi-label evaluation takes: exact mode, no misses, no ``pos_label`` (multi-class)."""
    if misses:
        raise fail(ValueError, func, "misses", "0 with score_cols (a miss belongs to no label)", misses)
    if mode != "exact":
        raise fail(ValueError, func, "mode", "'exact' with score_cols", mode)
    if multiclass and pos_label is not None:
        raise fail(ValueError, func, "pos_label", "None with label_col and score_cols (each class is positive "
                   "in its own ranking; name the classes with classes=)", pos_label)


def classes_not_found(func: str, column: str, classes: list[Any], count: int, example: Any) -> ValueError:
    """The error for ``count`` rows whose class (in ``column``) is none of ``classes``."""
    return bad_rows(func, "label_col", column, f"one of the classes {classes!r:.200} (name them with classes=, one "
                    "per score column)", count, example)


def mixed_negatives(func: str, column: str, zeros: int, minus: int) -> ValueError | None:
    """The evaluator's refusal of a label column using both 0 and -1 as the negative label (no ``pos_label``)."""
    if not (zeros and minus):
        return None
    return ValueError(f"{func}: column {column!r} (argument 'label_col') must use one label encoding, 0/1 or -1/1; "
                      f"{zeros} row{'s' if zeros != 1 else ''} hold 0 and {minus} hold -1. Pass pos_label= to say "
                      "which value is the positive class.")


#: What a score column holds (no null or NaN, no integer float64 would round: rounding merges distinct scores).
SCORES_EXPECTED = f"numbers (no null or NaN), each {_EXACT_EXPECTED}"
#: What a query column holds: every row belongs to a query, as MultiQueryEvaluation requires a query id.
QUERIES_EXPECTED = "query ids (no null or NaN: every row belongs to a query, as MultiQueryEvaluation requires)"


def exact_scores(values: Any) -> tuple[Any, Any]:
    """(scores as float64, bad): the scores of one partition and which are NaN or not exact in float64.

    The evaluator's rule (``inexact_scores``): an integer score float64 cannot
    hold (2**53 + 1) is refused, not rounded into a tie with its neighbour.
    """
    import numpy as np

    v = np.asarray(values)
    if v.dtype.kind in "iuf":
        scores, lost = inexact_scores(v)
    else:  # nullable columns arrive as objects (pd.NA): NaN here, reported as null
        scores, lost = np.asarray(values, dtype=np.float64), np.zeros(v.shape, dtype=bool)
    scores = scores + 0.0  # -0.0 -> 0.0
    return scores, np.isnan(scores) | lost


def check_weight_total(func: str, column: str, total: float) -> None:
    """Weights whose sum overflows float64: every ratio of weights would be NaN. ValueError naming ``weight_col``."""
    import math

    if not math.isfinite(total):
        raise ValueError(f"{func}: column {column!r} (argument 'weight_col') must hold weights whose total is a "
                         "finite float64 (at most about 1.8e308); their sum overflows (scale them down: every "
                         "measure is a ratio of weights).")


def check_engine_slices(
    func: str, by: Any, slices: Any, max_slices: Any, columns: list[str], *, mode: str, misses: int, query_col: Any,
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], int]:
    """``by`` (a column name or a list of them: each a column of the frame), the crossings ``slices`` and
    ``max_slices`` as :class:`scored_pr.SlicedEvaluation` takes them; what the engines cannot slice is refused."""
    names = [by] if isinstance(by, str) else by
    if not isinstance(names, (list, tuple)) or not names or not all(isinstance(k, str) and k for k in names):
        raise fail(TypeError, func, "by", "a column name or a non-empty list of column names", by)
    have = list(columns)
    for name in names:
        if name not in have:
            shown = ", ".join(repr(c) for c in have[:20]) + (", ..." if len(have) > 20 else "")
            raise fail(ValueError, func, "by", f"names of columns of the DataFrame ({shown})", name)
        _named_once(func, "by", name, have)
    keys = check_slice_keys(tuple(names), func)
    specs, max_slices = check_slice_specs(slices, keys, func), check_max_slices(max_slices, func)
    for arg, value, ok, why in (
        ("query_col", query_col, query_col is None, "the per-query means are not sliced: evaluate each slice's rows"),
        ("misses", misses, misses == 0, "misses belong to no slice: use SlicedEvaluation.add_misses per slice"),
    ):
        if not ok:
            raise fail(ValueError, func, arg, f"its default with by= ({why})", value)
    return keys, specs, max_slices
