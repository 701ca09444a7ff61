"""What an HTML report draws, as plain JSON-ready data, for every evaluator kind (read from the registry).

One ranking (exact, windowed, synchronized, or a class of the user's own
that satisfies :class:`scored_pr.Evaluation`) becomes a *threshold table*:
rows at distinct score thresholds, highest first, each with the exact
confusion counts ``confusion_at_threshold`` gives there. When the ranking
has more distinct scores than the budget, the rows are a subset chosen
along the curves (every drawn point is still an exact operating point):
the first and last thresholds, the best-F1 threshold, the rows either side
of the break-even point, and rows spaced evenly along the length of the PR
and ROC curves. A bounded summary becomes its estimate curves and the boxes
that certify where the exact curve lies; a multi-query or multi-label
evaluator becomes one entry per query or label (and the pooled, micro
curve), with a table of their figures.

Nothing here branches on classes: :func:`scored_pr._kinds.kind_of` says
what an object holds, and its ``report_view``, ``snapshot``, ``extra`` and
``figures`` say how to read it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _kinds, _measures
from .._core.jsonsafe import json_ready
from .._display.steps import pr_points, roc_boxes_xy, roc_points_xy
from .._validation import UnsupportedQuery
from . import calibration as _calibration
from . import decisions as _decisions
from . import notes as _notes
from . import slices as _slices
from .slices import subset as _subset

#: Threshold rows kept per ranking by default: enough that the drawn curves are
#: indistinguishable from the full ones at screen resolution (a chart is under
#: 1,000 pixels wide), small enough that the page stays under 1 MB.
BUDGET = 2000

#: At most this many queries or labels get curves of their own (all are in the table).
MAX_ITEMS_WITH_CURVES = 60

#: The least threshold rows a query or label keeps when the budget is shared.
MIN_ITEM_BUDGET = 200

def clean(value: Any) -> Any:
    """``value`` JSON-ready, every mapping key a str (see :func:`scored_pr._core.jsonsafe.json_ready`)."""
    return json_ready(value, str_keys=True)


def select(fpr: np.ndarray, tpr: np.ndarray, precision: np.ndarray, must: list[int], budget: int) -> np.ndarray:
    """Indices (ascending) of at most about ``budget`` rows: ``must`` plus rows evenly spaced along the curves.

    The spacing is by arc length in the (recall, precision) and (fpr, tpr)
    planes together (L1 steps), so steep and flat stretches get points in
    proportion to how far the curve travels there. O(n).
    """
    n = fpr.size
    if n <= budget:
        return np.arange(n)
    p = np.nan_to_num(precision, nan=0.0)
    step = np.abs(np.diff(np.nan_to_num(tpr))) + np.abs(np.diff(np.nan_to_num(fpr))) + np.abs(np.diff(p))
    length = np.concatenate(([0.0], np.cumsum(step)))
    spare = max(budget - len(must) - 2, 1)
    if length[-1] > 0:
        marks = np.linspace(0.0, length[-1], spare)
        picked = np.searchsorted(length, marks, side="left")
    else:
        picked = np.linspace(0, n - 1, spare).astype(np.int64)
    keep = np.unique(np.concatenate((picked, [0, n - 1], np.asarray(must, dtype=np.int64))))
    return keep[(keep >= 0) & (keep < n)]


def view_of(obj: Any, kind: _kinds.Kind) -> Any:
    """The exact evaluator that holds ``obj``'s one ranking, as the registry says to read it."""
    if kind.report_view is not None:
        return kind.report_view(obj)
    if kind.snapshot:
        return obj.snapshot()
    return obj


def ranking(ev: Any, name: str, kind_name: str, budget: int = BUDGET, intervals: dict[str, Any] | None = None) -> dict[str, Any]:
    """The entry of one exactly-answered ranking: its counts, headline measures, threshold table and curves."""
    fpr, tpr, thresholds = (np.asarray(a, dtype=np.float64) for a in ev.roc_points())
    pos, neg = ev.num_positive_ref, ev.num_negative_ref
    # rows at the distinct scores (roc_points' first row is the threshold inf: nothing accepted)
    fpr, tpr, thresholds = fpr[1:], tpr[1:], thresholds[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        tp_est, fp_est = tpr * float(pos), fpr * float(neg)  # only to choose rows; the counts shown are exact
        precision = tp_est / (tp_est + fp_est)
    must: list[int] = []
    best = ev.maximum_f_measure_threshold()
    if thresholds.size:
        if math.isfinite(best.threshold):
            must.append(int(np.searchsorted(-thresholds, -best.threshold)))
        crossing = np.flatnonzero(np.nan_to_num(tpr) > np.nan_to_num(precision))
        if crossing.size:  # the rows either side of where recall overtakes precision
            must += [int(crossing[0]) - 1, int(crossing[0])]
    keep = select(fpr, tpr, precision, must, budget)
    table: dict[str, list[Any]] = {"threshold": [], "tp": [], "fp": [], "tn": [], "fn": []}
    for t in thresholds[keep]:
        c = ev.confusion_at_threshold(float(t))
        table["threshold"].append(float(t))
        for field in ("tp", "fp", "tn", "fn"):
            table[field].append(getattr(c, field))
    summary = ev.summary()
    measures = []
    for key, label in _measures.headline():  # the table's headline measures, in order
        if key in summary:
            iv = (intervals or {}).get(key)
            measures.append({"key": key, "label": label, "value": summary[key],
                             **({"low": iv.low, "high": iv.high, "method": iv.method, "level": iv.level} if iv else {}),
                             **_note(key, summary[key], ev)})
    for key, iv in (intervals or {}).items():  # intervals of measures not among the headline ones
        if key not in dict(_measures.headline()):
            measures.append({"key": key, "label": key.replace("_", " "), "value": iv.estimate,
                             "low": iv.low, "high": iv.high, "method": iv.method, "level": iv.level})
    roc_interp = roc_points_xy(ev.roc_curve(interpolate=True))  # the display's (fpr, tpr) operating points
    return {
        "name": name,
        "kind": kind_name,
        "counts": {"num_cases": ev.num_cases, "num_positive_ref": pos, "num_negative_ref": neg,
                   "num_misses": ev.num_misses, "num_negative_misses": ev.num_negative_misses,
                   "weighted": bool(ev.weighted), "ties": ev.ties,
                   # the denominators of recall and the false positive rate (sums of weights when weighted)
                   "positive_weight": ev.positive_weight if ev.weighted else pos,
                   "negative_weight": ev.negative_weight if ev.weighted else neg},
        "measures": measures,
        "table": table,
        "distinct": int(thresholds.size),
        "complete": bool(keep.size == thresholds.size),
        "best": {"threshold": best.threshold, "f": ev.f_measure_at_threshold(best.threshold)
                 if math.isfinite(best.threshold) else None},
        "bep": summary.get("pr_breakeven_point"),  # rank-based: not in a weighted evaluator's summary
        "pr_interp": _subset(pr_points(ev, True, False), budget),
        # the (fpr, tpr) points from (0, 0): accepting nothing (threshold inf)
        "roc_interp": np.vstack(([[0.0, 0.0]], _subset(roc_interp, budget))) if roc_interp.size else [],
        # the reliability diagram, for probabilities only (scored_pr._html.calibration)
        "reliability": _calibration.reliability(ev, budget),
        # the threshold to ship: constrained point, min-cost candidates, net benefit (see .decisions)
        "decisions": _decisions.decisions(ev, thresholds[keep], budget) if hasattr(ev, "operating_point") else None,
    }


def _note(key: str, value: Any, ev: Any, noun: str = "case") -> dict[str, str]:
    """``{"note": why}`` when ``value`` (measure ``key`` of the ranking ``ev``) is undefined (NaN), else ``{}``."""
    return {"note": _notes.label_reason(key, ev, noun)} if _notes.is_nan(value) else {}


def bounded(ev: Any, name: str, kind_name: str) -> dict[str, Any]:
    """The entry of a bounded summary: estimate curves, the boxes that certify them, measures with bounds."""
    pr, roc = ev.pr_band(), ev.roc_band()
    summary = ev.summary()
    measures = []
    for key, label in _measures.headline():  # the table's headline measures, in order
        if key in summary:
            measures.append({"key": key, "label": label, "value": summary[key],
                             "lower": summary.get(f"{key}_lower"), "upper": summary.get(f"{key}_upper"),
                             **_note(key, summary[key], ev)})
    return {
        "name": name,
        "kind": kind_name,
        "bounded": True,
        "exact": bool(pr.exact and roc.exact),
        "counts": {"num_cases": ev.num_cases, "num_positive_ref": ev.num_positive_ref,
                   "num_negative_ref": ev.num_negative_ref, "num_misses": ev.num_misses,
                   "num_bins": summary.get("num_bins"), "weighted": bool(ev.weighted), "ties": ev.ties},
        "measures": measures,
        "pr_estimate": np.asarray(pr.estimate, dtype=np.float64).reshape(-1, 2),
        "pr_boxes": np.asarray(pr.boxes, dtype=np.float64).reshape(-1, 4),
        # ROC points and boxes in (fpr, tpr), as the displays draw them
        "roc_estimate": roc_points_xy(roc.estimate),
        "roc_boxes": roc_boxes_xy(roc.boxes),
    }


def entry(obj: Any, name: str, budget: int = BUDGET, intervals: dict[str, Any] | None = None) -> dict[str, Any]:
    """The entry of one ranking of any kind that holds one (ranking or bounded)."""
    kind = _kinds.kind_of(obj)
    if kind is None:
        raise UnsupportedQuery(f"to_html: {type(obj).__name__!r} is no evaluator kind scored_pr knows")
    if kind.holds == "bounded":
        return bounded(obj, name, kind.name)
    if kind.holds != "ranking":
        raise UnsupportedQuery(f"to_html: a {kind.name} evaluator holds more than one ranking")
    out = ranking(view_of(obj, kind), name, kind.name, budget, intervals)
    if kind.extra is not None:
        out["extra"] = kind.extra(obj)
    return out


#: The measures of each query's or label's row in the page's table (each NaN gets a note).
_ITEM_MEASURES = ("average_precision", "area_under_roc_curve", "maximum_f_measure", "r_precision")


#: A sliced page marks the slice with the lowest average precision among those with at least this many cases.
WORST_MIN_CASES = 100


def page_data(obj: Any, title: str, intervals: dict[str, Any] | None = None, budget: int = BUDGET,
              gaps: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the page shows for ``obj`` (an evaluator of any registered kind).

    ``gaps``: a sliced evaluation's gaps table (:func:`scored_pr._html.slices.gaps`' argument), or None.
    """
    kind = _kinds.kind_of(obj)
    if kind is None:
        raise UnsupportedQuery(f"to_html: {type(obj).__name__!r} is no evaluator kind scored_pr knows")
    if kind.holds in ("ranking", "bounded"):
        one = entry(obj, "model", budget, intervals)
        c = one["counts"]
        empty = not (c["num_cases"] or c["num_misses"] or c.get("num_negative_misses"))
        return clean({"title": title, "layout": "single", "kind": kind.name, "rankings": [one], "empty": empty})
    items = list(obj)  # the queries or the labels, in order
    noun = "row" if kind.holds == "per_label" else "case"
    own_budget = max(MIN_ITEM_BUDGET, budget // max(1, min(len(items), MAX_ITEMS_WITH_CURVES)))
    rankings = []
    if kind.holds == "per_label":
        rankings.append(entry(obj.pooled(), "micro (pooled)", budget))
    rows = []
    for i, item in enumerate(items):
        ev = obj[item]
        summary = ev.summary()
        row = {"name": str(item), "num_cases": summary.get("num_cases"), "positives": summary.get("num_positive_ref"),
               "negatives": summary.get("num_negative_ref"), "average_precision": summary.get("average_precision"),
               "area_under_roc_curve": summary.get("area_under_roc_curve"),
               "maximum_f_measure": summary.get("maximum_f_measure"), "r_precision": summary.get("r_precision"),
               "curve": None}
        row["notes"] = {k: _notes.label_reason(k, ev, noun) for k in _ITEM_MEASURES if _notes.is_nan(row[k])}
        if kind.holds == "per_slice" and intervals:  # {slice: {measure: Interval}}: shown beside the slice's values
            row["intervals"] = {m: [iv.low, iv.high, iv.level, iv.method] for m, iv in intervals.get(item, {}).items()}
        if i < MAX_ITEMS_WITH_CURVES:
            row["curve"] = len(rankings)
            rankings.append(entry(ev, str(item), own_budget))
        elif kind.holds == "per_slice" and i < MAX_ITEMS_WITH_CURVES + _slices.MAX_OVERLAYS:
            row["overlay"] = _slices.overlay(ev)  # drawn over the overall curves on click
        rows.append(row)
    figures = kind.figures(obj) if kind.figures is not None else {}
    figures = {k: v for k, v in figures.items() if not any(k.startswith(f"{r['name']}: ") for r in rows)}
    confusion = None
    if kind.holds == "per_label":
        matrix = obj.summary().get("confusion_matrix")
        if matrix is not None:  # multi-class rows: shown as a k x k table, not as k^2 figures
            confusion = {"labels": [str(t) for t in matrix], "matrix": [list(r.values()) for r in matrix.values()]}
            figures = {k: v for k, v in figures.items() if not k.startswith("confusion (")}
    why = _notes.figure_reasons(obj, kind.holds, figures)
    averages = [{"key": k, "label": _notes.readable(k), "value": v, **({"note": why[k]} if k in why else {})}
                for k, v in figures.items()]
    empty = not items or (kind.holds == "per_label" and not obj.num_rows) or all(not obj[q].num_cases for q in items)
    # a sliced evaluation's page is laid out as a multi-query one's: a table of its slices, a slice's curves on click
    layout = "per_query" if kind.holds == "per_slice" else kind.holds
    item_noun = {"per_label": "label", "per_slice": "slice"}.get(kind.holds, "query")
    worst = None
    if kind.holds == "per_slice":  # the slice with the lowest AP among those large enough to trust, marked
        found = obj.worst("average_precision", min_cases=WORST_MIN_CASES)
        if found is not None:
            for item, row in zip(items, rows):
                row["worst"] = tuple(item) == tuple(found.slice)
                if row["worst"]:
                    worst = {"name": row["name"], "measure": "average_precision", "value": found.value,
                             "min_cases": WORST_MIN_CASES}
    sliced: dict[str, Any] = {}
    if kind.holds == "per_slice":  # a slice's curves are drawn over the overall ones (rankings[base])
        base = rows[0]["curve"] if items and tuple(items[0]) == () else None
        sliced = {"base": base, "gaps": None if gaps is None else _slices.gaps(gaps),
                  "items_with_overlays": min(len(items), MAX_ITEMS_WITH_CURVES + _slices.MAX_OVERLAYS)}
    return clean({"title": title, "layout": layout, "kind": kind.name, "rankings": rankings, "items": rows,
                  "item_noun": item_noun, "averages": averages, "worst": worst,
                  "confusion": confusion, "empty": empty,
                  "items_with_curves": min(len(items), MAX_ITEMS_WITH_CURVES), **sliced})


def compare_data(a: Any, b: Any, names: tuple[str, str], comparisons: dict[str, Any], title: str,
                 budget: int = BUDGET, same_ranking: bool = False, slices: list[dict[str, Any]] | None = None,
                 paired: bool = True) -> dict[str, Any]:
    """Two models overlaid, with their comparisons (``Comparison`` per measure).

    ``slices``: ``compare --by``'s comparison per slice (:func:`scored_pr._html.slices.comparisons`' rows),
    drawn as a table below the overall one; ``paired``: whether the overall comparison is paired.
    """
    rows = [_slices.comparison_row(m, r) for m, r in comparisons.items()]
    data = {"title": title, "layout": "compare", "kind": "exact",
            "rankings": [entry(a, names[0], budget), entry(b, names[1], budget)],
            "comparisons": rows, "same_ranking": same_ranking, "paired": paired}
    if slices is not None:
        data["slice_comparisons"] = slices
    return clean(data)
