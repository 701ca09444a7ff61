"""Readable names for the figures a report shows, and why an undefined (NaN) figure is undefined.

Shared by the HTML page (:mod:`.data`) and the text report of wide files
(``scored-pr report --label-cols/--label-col``): a NaN is never shown without
the reason, computed from what the evaluator holds (how many rows have no
positive label, which labels have no positive or no negative row, ...).

Everything here reads evaluators through their public queries only
(``summary()``, ``rows()``, ``ev[label]`` and the counts), never by class.
"""

from __future__ import annotations

import math
from typing import Any

from .._measures import MEASURES, REPORT_RANKS

#: The readable name of each measure of one ranking (the headline measures of the page).
NAMES = {
    "average_precision": "Average precision",
    "area_under_roc_curve": "ROC AUC",
    "area_under_pr_curve": "PR AUC (step)",
    "area_under_pr_curve_interpolated": "PR AUC (interpolated)",
    "area_under_roc_curve_interpolated": "ROC AUC (interpolated)",
    "maximum_f_measure": "Maximum F1",
    "pr_breakeven_point": "Break-even point",
    "reciprocal_rank": "Reciprocal rank",
    "r_precision": "R-precision",
    # counts
    "num_cases": "Cases",
    "num_rows": "Rows",
    "num_queries": "Queries",
    "num_positive_ref": "Positives",
    "num_negative_ref": "Negatives",
    "num_misses": "Misses",
    "num_negative_misses": "Negative misses",
    # multi-class rows, at the top-scoring class
    "accuracy": "Accuracy (top-scoring class)",
    "precision": "Precision (top-scoring class)",
    "recall": "Recall (top-scoring class)",
    "f_measure": "F1 (top-scoring class)",
    # the wide-file report's own keys
    "roc_auc": "ROC AUC",
    "top_1_accuracy": "Top-1 accuracy",
    "label_ranking_average_precision": "Label ranking average precision",
    "coverage_error": "Coverage error",
    "label_ranking_loss": "Label ranking loss",
}
for _k in REPORT_RANKS:
    NAMES[f"precision_at_{_k}"] = f"Precision at {_k}"
del _k

#: The measures that count ranks, not weight: undefined (NaN) once a sample weight other than 1 was added.
RANK_BASED = frozenset(k for m in MEASURES if m.rank_based for k in m.keys())

#: The measures that need a negative case as well as a positive one.
NEEDS_NEGATIVE = frozenset({"area_under_roc_curve", "area_under_roc_curve_interpolated", "roc_auc"})


def readable(key: str) -> str:
    """The readable name of figure ``key``: ``"average_precision (macro)"`` is ``"Average precision, macro"``.

    ``mean_<measure>`` (a mean over queries) is ``"Mean <measure>"``; an
    unknown key is shown with its underscores as spaces.
    """
    if key.endswith(")") and " (" in key:
        base, average = key[:-1].rsplit(" (", 1)
        return f"{readable(base)}, {average}"
    if key in NAMES:
        return NAMES[key]
    if key.startswith("mean_") and key[5:] in NAMES:
        inner = NAMES[key[5:]]
        return "Mean " + (inner[0].lower() + inner[1:] if inner[1:2].islower() else inner)
    return key.replace("_", " ")


def is_nan(value: Any) -> bool:
    """Whether ``value`` is a float NaN (None, the JSON form of NaN, counts too)."""
    if value is None:
        return True
    try:
        return math.isnan(float(value))
    except (TypeError, ValueError):
        return False


def ranking_reason(key: str, num_cases: int, positives: float, negatives: float, weighted: bool,
                   noun: str = "case") -> str:
    """Why measure ``key`` of one ranking with these counts is undefined (NaN).

    ``noun`` names what the ranking holds (``"case"``, ``"row"``).
    """
    if num_cases == 0 and not positives and not negatives:
        return f"undefined: no {noun}s yet"
    if weighted and key.removeprefix("mean_") in RANK_BASED:
        return "undefined with sample weights: it counts ranks, not weight"
    if not positives:
        return f"undefined: no positive {noun}"
    if key in NEEDS_NEGATIVE and not negatives:
        return f"undefined: no negative {noun}"
    return "undefined (0/0)"


def label_reason(key: str, ev: Any, noun: str = "row") -> str:
    """Why measure ``key`` of one label's (or query's) evaluator ``ev`` is undefined."""
    return ranking_reason(key, ev.num_cases, ev.num_positive_ref, ev.num_negative_ref, bool(ev.weighted), noun)


def _names(items: list[str], limit: int = 6) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items) - limit} more)" if len(items) > limit else "")


def _one_class_labels(obj: Any, key: str) -> tuple[list[str], list[str]]:
    """The labels of ``obj`` without a positive row, and those without a negative row (ROC measures only)."""
    no_pos, no_neg = [], []
    for label in obj:
        ev = obj[label]
        if not ev.num_positive_ref:
            no_pos.append(str(label))
        elif key in NEEDS_NEGATIVE and not ev.num_negative_ref:
            no_neg.append(str(label))
    return no_pos, no_neg


def _have(n: int, total: int, noun: str, rest: str) -> str:
    """``"1 of 3 labels has ..."`` / ``"2 of 3 labels have ..."``."""
    return f"{n} of {total} {noun}s {'has' if n == 1 else 'have'} {rest}"


def label_average_reason(obj: Any, key: str, average: str, noun: str = "label") -> str:
    """Why the ``average`` over labels of measure ``key`` of a multi-label evaluation ``obj`` is undefined.

    ``key``: ``"average_precision"`` or ``"area_under_roc_curve"`` (``"roc_auc"``
    as the wide-file report calls it). "samples" counts the rows (of
    non-zero weight) with no positive label and with every label positive;
    "macro" and "weighted" name the labels with a single class in their
    column; "micro" looks at the pooled ranking of every (row, label) pair.
    ``noun``: what the columns are (``"label"``, or ``"class"`` for multi-class rows).
    """
    nouns = "classes" if noun == "class" else f"{noun}s"
    labels = [str(label) for label in obj]
    k = len(labels)
    if not obj.num_rows:
        return "undefined: no rows yet"
    if average == "samples":
        truth, _, weight = obj.rows()
        positives = truth.sum(axis=1)
        counted = weight != 0 if weight is not None else slice(None)
        positives = positives[counted]
        n = int(positives.size)
        if n == 0:
            return "undefined: every row has weight 0"
        no_pos = int((positives == 0).sum())
        all_pos = int((positives == k).sum())
        parts = []
        if no_pos:
            parts.append(_have(no_pos, n, "row", f"no positive {noun}"))
        if key in NEEDS_NEGATIVE and all_pos:
            parts.append(_have(all_pos, n, "row", f"every {noun} positive"))
        if parts:
            return "undefined: " + " and ".join(parts) + (
                f" (a row's ROC AUC needs a positive and a negative {noun})" if key in NEEDS_NEGATIVE else "")
        return "undefined (0/0)"
    if average == "micro":
        pooled = obj.pooled()
        return ranking_reason(key, pooled.num_cases, pooled.num_positive_ref, pooled.num_negative_ref,
                              bool(pooled.weighted), "row")
    labels_no_pos, labels_no_neg = _one_class_labels(obj, key)
    if average == "weighted":
        labels_no_pos = []  # a label without a positive weighs 0 in the weighted average
    parts = []
    if labels_no_pos:
        parts.append(_have(len(labels_no_pos), k, noun, f"no positive row ({_names(labels_no_pos)})").replace(f"{noun}s", nouns))
    if labels_no_neg:
        parts.append(_have(len(labels_no_neg), k, noun, f"no negative row ({_names(labels_no_neg)})").replace(f"{noun}s", nouns))
    if parts:
        return "undefined: " + " and ".join(parts)
    return "undefined (0/0)"


def figure_reasons(obj: Any, holds: str, figures: dict[str, Any]) -> dict[str, str]:
    """{key: why} for every NaN among ``figures`` (a kind's ``figures``) of a multi-query or multi-label ``obj``."""
    out: dict[str, str] = {}
    items = list(obj)
    noun = "row" if holds == "per_label" else "case"
    for key, value in figures.items():
        if not is_nan(value):
            continue
        if not items:
            out[key] = f"undefined: no {'labels' if holds == 'per_label' else 'queries'} yet"
        elif key.endswith(")") and " (" in key and holds == "per_label":
            base, average = key[:-1].rsplit(" (", 1)
            if base in NAMES and base not in ("precision", "recall", "f_measure"):
                out[key] = label_average_reason(obj, base, average)
            elif not obj.num_rows:
                out[key] = "undefined: no rows yet"
            else:
                out[key] = "undefined (0/0)"
        elif holds == "per_label" and not obj.num_rows:
            out[key] = "undefined: no rows yet"
        elif key.startswith("mean_"):
            weighted = any(obj[q].weighted for q in items)
            out[key] = ranking_reason(key, 1, 1, 1, weighted, noun)
        else:
            out[key] = "undefined (0/0)"
    return out
