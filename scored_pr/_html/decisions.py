"""What the HTML report draws of the threshold to ship: a constrained operating point, costs, net benefit.

For one exactly-answered ranking (see :func:`scored_pr._html.data.ranking`):

- ``constraint``: the greatest recall at precision >= :data:`MIN_PRECISION`
  (``operating_point("recall", {"precision": MIN_PRECISION})``), drawn as a
  line on the PR plot with the chosen point on it;
- ``frontier``: every threshold that is ``operating_point("recall",
  {"precision": p})`` for some target p (a superset: each threshold whose
  precision is not below that of every lower threshold), thresholds
  descending, with exact counts, so that the page's target input finds the
  answer for any p live; None when it holds more than half the page's row
  budget, and then ``targets``: the answers at p = 0, 0.05, ..., 1
  (:data:`TARGET_STEP`), to which the page's input snaps;
- ``cost``: the candidates of least expected cost for some costs and gains
  (the vertices of the ROC's upper convex hull, thresholds descending, with
  their exact counts), so that the page's cost and gain inputs find
  ``min_cost_threshold(cost_fp, cost_fn, gain_tp, gain_tn)`` among them
  live: a linear cost (cost_fp + gain_tn) FP - (cost_fn + gain_tp) TP with
  non-negative weights is least at a vertex of that hull;
- ``net_benefit``: for probability scores only, net benefit of the model,
  treat-all and treat-none at the page's thresholds in (0, 1).

Every value comes from the evaluator's public queries.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.curves import upper_hull

#: The precision the page's constrained operating point must reach.
MIN_PRECISION = 0.9

#: The default costs of the page's cost inputs (a false positive, a false negative).
DEFAULT_COSTS = (1.0, 1.0)
#: The default gains of the page's gain inputs (a true positive, a true negative).
DEFAULT_GAINS = (0.0, 0.0)
#: The step of the precision targets the page carries when the frontier is over its budget.
TARGET_STEP = 0.05


def frontier(ev: Any, fpr: np.ndarray, tpr: np.ndarray, thr: np.ndarray, most: int) -> dict[str, list[Any]] | None:
    """Every threshold that can be ``operating_point("recall", {"precision": p})``, with its exact counts.

    For a target p the answer is the feasible threshold of greatest recall (the highest on a
    tie): a threshold whose precision is below that of some lower threshold (recall at least
    as great) is never it. Scanning from the lowest threshold, one keeps each whose precision
    (from the rates, to within a relative 1e-9) reaches the greatest so far; the counts then
    come from ``confusion_at_threshold``. A superset of the answers gives the same answer (the
    page's rule takes the first of greatest recall among the feasible). None past ``most`` rows.
    """
    pos, neg = ev.positive_weight, ev.negative_weight
    with np.errstate(divide="ignore", invalid="ignore"):
        tp, fp = np.nan_to_num(tpr) * pos, np.nan_to_num(fpr) * neg
        prec = np.where(tp + fp > 0, tp / (tp + fp), -1.0)[1:][::-1]  # lowest threshold first; inf (NaN) left out
    best = np.maximum.accumulate(prec) if prec.size else prec
    keep = np.flatnonzero(prec >= best * (1.0 - 1e-9) - 1e-12)
    if keep.size > most:
        return None
    rows: dict[str, list[Any]] = {"threshold": [], "tp": [], "fp": []}
    for t in thr[1:][::-1][keep][::-1]:  # thresholds descending
        c = ev.confusion_at_threshold(float(t))
        rows["threshold"].append(float(t))
        rows["tp"].append(c.tp)
        rows["fp"].append(c.fp)
    return rows


def _point(d: Any) -> dict[str, Any]:
    return {"threshold": d.threshold, "feasible": d.feasible, "precision": d.precision, "recall": d.recall,
            "fpr": d.fpr, "tp": d.tp, "fp": d.fp, "tn": d.tn, "fn": d.fn, "expected_cost": d.expected_cost}


def decisions(ev: Any, thresholds: np.ndarray, budget: int = 2000) -> dict[str, Any]:
    """The decision data of the exact ranking ``ev``; ``thresholds``: the page's rows (descending); ``budget``: its row budget."""
    out: dict[str, Any] = {"min_precision": MIN_PRECISION}
    out["constraint"] = _point(ev.operating_point("recall", {"precision": MIN_PRECISION}))
    fpr, tpr, thr = (np.asarray(a, dtype=np.float64) for a in ev.roc_points())  # inf first, descending
    out["frontier"] = frontier(ev, fpr, tpr, thr, budget // 2)
    out["targets"] = None
    if out["frontier"] is None:  # the answers at a grid of targets, each the evaluator's own
        grid = [round(i * TARGET_STEP, 10) for i in range(int(round(1 / TARGET_STEP)) + 1)]
        out["targets"] = {"target": grid, "point": [_point(ev.operating_point("recall", {"precision": t})) for t in grid]}
    pos, neg = ev.num_positive_ref, ev.num_negative_ref
    # every linear cost cost_fp FP + cost_fn FN is least at a vertex of the ROC's upper hull (rates:
    # the counts scaled, the same hull); at a tie along an edge its higher-threshold end is a vertex
    keep = upper_hull(np.nan_to_num(fpr), np.nan_to_num(tpr)) if thr.size else np.zeros(0, dtype=np.int64)
    if thr.size:  # without negatives every point is on one vertical line: the first to reach all positives
        keep = np.union1d(keep, [int(np.argmax(np.nan_to_num(tpr)))])
    rows: dict[str, list[Any]] = {"threshold": [], "tp": [], "fp": [], "tn": [], "fn": []}
    for t in thr[keep]:
        c = ev.confusion_at_threshold(float(t))
        rows["threshold"].append(float(t))
        for field in ("tp", "fp", "tn", "fn"):
            rows[field].append(getattr(c, field))
    out["cost"] = {"candidates": rows, "default": list(DEFAULT_COSTS), "default_gains": list(DEFAULT_GAINS),
                   "chosen": _point(ev.min_cost_threshold(*DEFAULT_COSTS, *DEFAULT_GAINS))}
    probability = bool(thr.size <= 1 or (thr[1:].min() >= 0.0 and thr[1:].max() <= 1.0))
    if probability and thr.size > 1:
        t = np.sort(np.asarray([v for v in thresholds if 0.0 < v < 1.0], dtype=np.float64))
        nb = ev.net_benefit(t)
        out["net_benefit"] = {"threshold": nb.threshold, "model": nb.model, "treat_all": nb.treat_all,
                              "treat_none": nb.treat_none}
    else:
        out["net_benefit"] = None
    return out

