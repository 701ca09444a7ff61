"""Decisions of a ranking whose rows live apart (Spark, Dask, Ray): each bucket's best candidates, chosen on the driver.

A decision query picks one candidate threshold (``inf``, then every distinct
score, descending) by a rule over the candidates' cumulative counts
(:mod:`scored_pr._core.decisions`). The ranking step already gives every
bucket its offsets (``partitioned.plan``), so each bucket knows the global
counts at each of its candidates; the rules reduce over buckets:

* **least cost** (``min_cost_threshold``): each bucket returns its first
  candidate of least ``(cost_fp + gain_tn) FP - (cost_fn + gain_tp) TP``
  (``decisions.min_cost`` on its candidates); the driver takes the first
  least over ``inf`` and the buckets in rank order: the evaluator's
  ``argmin`` (highest threshold on a tie).
* **an operating point** (``operating_point`` without ``confidence``): each
  bucket returns ``decisions.choose`` on its candidates: its best feasible
  candidate, or, with none, its nearest one (least total shortfall, then
  greatest objective). The driver takes the best feasible one over ``inf``
  and the buckets (greatest objective, NaN losing, the first on a tie); if
  none is feasible, the least shortfall, then the greatest objective: the
  evaluator's choice, since both are a first maximum over the same values.
* **counts at cut-offs** (``expected_cost(t)``, ``net_benefit(thresholds)``):
  the positive and negative weight of the rows scored >= each threshold, one
  sum per partition (:func:`partition_cutoffs`), added on the driver.
* **the cost curve**: the lower envelope of the candidates' cost lines is
  drawn by the vertices of the ROC upper hull, which the buckets already
  return (``Contribution.hull``): ``decisions.cost_curve`` over ``inf`` and
  the hull of those vertices (:func:`hull_candidates`).

* **every candidate** (``thresholds="all"`` of ``evaluate``): each bucket
  also returns its candidates, (score, TP, FP) of each of its tie groups
  with the global counts it already computes, and the driver joins them in
  rank order (:func:`every_candidate`): the evaluator's candidates, from
  which every decision query is answered as one machine answers it
  (any request, ``confidence=`` with monotone constraints, ``net_benefit()``
  at every distinct score, ``expected_cost`` at any threshold). What reaches
  the driver then grows with the distinct scores, not the rows.

The costs and constraints are fixed when the ranking runs (``costs=``,
``operating_points=``, ``thresholds=`` of ``evaluate``), as the ranks of
``ranks=`` are. What reaches the driver is O(buckets x requests) (plus
O(distinct scores) with ``thresholds="all"``), never the rows. Unweighted counts are integers, so every choice and value is the
evaluator's, bit for bit; weighted cumulative counts are sums in another
order (within 1e-15 relative), which can only move a choice between
candidates whose values tie within that.

Pure numpy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from . import decisions as D
from .curves import upper_hull

__all__ = [
    "EVERY", "Cutoffs", "DecisionSpecs", "best_cost", "best_point", "every_candidate", "hull_candidates", "merge_cutoffs",
    "partition_cutoffs",
]  # fmt: skip

F64 = npt.NDArray[np.float64]
#: An operating point's request: (maximize, ((constraint, target), ...)).
PointKey = tuple[str, tuple[tuple[str, float], ...]]
#: A cost request: (cost_fp, cost_fn, gain_tp, gain_tn).
CostKey = tuple[float, float, float, float]


@dataclass(frozen=True)
class DecisionSpecs:
    """What every bucket chooses while it is ranked: its least-cost and best operating-point candidates."""

    costs: tuple[CostKey, ...] = ()
    points: tuple[PointKey, ...] = ()
    #: every bucket also returns its candidates (``thresholds="all"``), under the key :data:`EVERY`
    every: bool = False

    def bucket(self, threshold: F64, tp: Any, fp: Any, pos_ref: float, neg_ref: float, weighted: bool
               ) -> dict[Any, Any]:
        """The bucket's choice for each request, from its candidates (descending, global cumulative counts)."""
        c = D.Candidates(np.asarray(threshold, np.float64), np.asarray(tp, np.float64), np.asarray(fp, np.float64),
                         float(pos_ref), float(neg_ref), not weighted)
        out: dict[Any, Any] = {cost: D.min_cost(c, *cost) for cost in self.costs}
        for key in self.points:
            out[key] = D.choose(c, key[0], dict(key[1]))
        if self.every:  # (score, TP, FP) rows: O(the bucket's distinct scores)
            out[EVERY] = np.column_stack((c.threshold, c.tp, c.fp))
        return out


#: The key of a bucket's candidates among its choices (no request is a string).
EVERY = "every candidate"


def _inf(pos: float, neg: float, integer: bool) -> D.Candidates:
    """The candidate ``inf``: accept nothing."""
    return D.Candidates(np.array([np.inf]), np.zeros(1), np.zeros(1), pos, neg, integer)


def best_cost(cost: CostKey, chosen: list[D.Decision], pos: float, neg: float, integer: bool) -> D.Decision:
    """The first least-cost choice over ``inf`` and the buckets' choices (in rank order)."""
    first = D.min_cost(_inf(pos, neg, integer), *cost)
    if pos + neg <= 0:  # no reference case: every cost is 0/0; the evaluator accepts nothing
        return first
    a, b = cost[0] + cost[3], cost[1] + cost[2]
    best, low = first, a * float(first.fp) - b * float(first.tp)
    for d in chosen:
        v = a * float(d.fp) - b * float(d.tp)
        if v < low:
            best, low = d, v
    return best


def _better(d: D.Decision, best: D.Decision | None) -> bool:
    """Whether ``d`` (later in rank order) beats ``best``: a greater objective, a number beating NaN."""
    if best is None:
        return True
    if math.isnan(d.value):
        return False
    return math.isnan(best.value) or d.value > best.value


def _shortfall(d: D.Decision, subject_to: dict[str, float]) -> float:
    """The total shortfall of ``d`` over the constraints, as ``decisions.choose`` adds it."""
    total = 0.0
    for key, target in subject_to.items():
        v = float(getattr(d, key))
        gap = target - v if D.CONSTRAINTS[key] == ">=" else v - target
        total += math.inf if math.isnan(gap) else max(gap, 0.0)
    return total


def best_point(key: PointKey, chosen: list[D.Decision], pos: float, neg: float, integer: bool) -> D.Decision:
    """The evaluator's ``operating_point(maximize, subject_to)`` from ``inf`` and the buckets' choices."""
    subject_to = dict(key[1])
    every = [D.choose(_inf(pos, neg, integer), key[0], subject_to), *chosen]
    best: D.Decision | None = None
    for d in every:
        if d.feasible and _better(d, best):
            best = d
    if best is not None:
        return best
    short = [_shortfall(d, subject_to) for d in every]
    least = min(short)
    for d, s in zip(every, short):
        if s == least and _better(d, best):
            best = d
    assert best is not None
    return best


@dataclass
class Cutoffs:
    """The positive and negative weight of the rows scored >= each of ``thresholds`` (ascending)."""

    thresholds: F64 = field(default_factory=lambda: np.zeros(0))
    tp: F64 = field(default_factory=lambda: np.zeros(0))
    fp: F64 = field(default_factory=lambda: np.zeros(0))

    def at(self, t: float) -> tuple[float, float] | None:
        """(TP, FP) of accepting every row scored >= ``t``; None when ``t`` was not counted."""
        i = int(np.searchsorted(self.thresholds, t))
        if i < self.thresholds.size and self.thresholds[i] == t:
            return float(self.tp[i]), float(self.fp[i])
        return None


def partition_cutoffs(scores: F64, correct: npt.NDArray[np.bool_], weights: F64 | None, thresholds: F64) -> Cutoffs:
    """One partition's counts at the (ascending, distinct) thresholds: O(rows log thresholds)."""
    w = np.ones(scores.size) if weights is None else weights
    # slot i: thresholds[i - 1] <= score < thresholds[i]; a row counts for every threshold at or below its score
    slot = np.searchsorted(thresholds, scores, side="right")
    y = np.asarray(correct, bool)
    m = thresholds.size + 1
    pos = np.bincount(slot, weights=np.where(y, w, 0.0), minlength=m)
    neg = np.bincount(slot, weights=np.where(y, 0.0, w), minlength=m)
    above_p: F64 = np.cumsum(pos[::-1])[::-1].astype(np.float64)  # rows in slots >= i + 1: scored >= thresholds[i]
    above_n: F64 = np.cumsum(neg[::-1])[::-1].astype(np.float64)
    return Cutoffs(thresholds, above_p[1:], above_n[1:])


def merge_cutoffs(parts: list[Cutoffs], thresholds: F64) -> Cutoffs:
    """Every partition's counts added."""
    tp, fp = np.zeros(thresholds.size), np.zeros(thresholds.size)
    for p in parts:
        tp += p.tp
        fp += p.fp
    return Cutoffs(thresholds, tp, fp)


def hull_candidates(hulls: list[F64], pos: float, neg: float, integer: bool) -> D.Candidates:
    """``inf`` and the vertices of the ROC upper hull of every bucket's hull rows ``(tp, fp, score)``, in rank order."""
    rows = [h for h in hulls if h.shape[0]]
    pts = np.concatenate(rows) if rows else np.zeros((0, 3))
    fp = np.concatenate(([0.0], pts[:, 1]))
    tp = np.concatenate(([0.0], pts[:, 0]))
    keep = upper_hull(fp, tp)
    threshold = np.concatenate(([np.inf], pts[:, 2]))
    return D.Candidates(threshold[keep], tp[keep], fp[keep], pos, neg, integer)


def every_candidate(rows: list[F64], pos: float, neg: float, integer: bool) -> D.Candidates:
    """``inf`` and every bucket's (score, TP, FP) rows, buckets in rank order: the evaluator's candidates.

    Each bucket's counts are global (its offsets added), so joining them is the one-machine
    ``decisions.candidates`` of the whole ranking: unweighted, bit for bit (whole counts below
    2**53); weighted, sums in another order. ``ends`` stays None (the rows stay in the cluster).
    """
    pts = np.concatenate(rows) if rows else np.zeros((0, 3))
    return D.Candidates(np.concatenate(([np.inf], pts[:, 0])), np.concatenate(([0.0], pts[:, 1])),
                        np.concatenate(([0.0], pts[:, 2])), pos, neg, integer)  # fmt: skip


def combine(specs: DecisionSpecs, parts: list[Any], pos: float, neg: float, weighted: bool) -> dict[str, Any]:
    """Every request's choice from the buckets' (``Contribution``: ``bucket``, ``decisions``, ``hull``) and the
    cost curve's candidates: ``{"costs": {key: Decision}, "points": {key: Decision}, "hull": Candidates}``, and
    with ``specs.every`` ``"candidates"``: every candidate (:func:`every_candidate`)."""
    ordered = sorted(parts, key=lambda c: c.bucket)
    chosen = [c.decisions for c in ordered if c.decisions is not None]
    integer = not weighted
    out: dict[str, Any] = {
        "costs": {k: best_cost(k, [d[k] for d in chosen], pos, neg, integer) for k in specs.costs},
        "points": {k: best_point(k, [d[k] for d in chosen], pos, neg, integer) for k in specs.points},
        "hull": hull_candidates([c.hull for c in ordered], pos, neg, integer),
    }
    if specs.every:
        out["candidates"] = every_candidate([d[EVERY] for d in chosen], pos, neg, integer)
    return out
