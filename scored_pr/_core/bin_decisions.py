"""Decisions over a bounded summary's bins: exact answers at the bin edges, certified bounds on the exact optimum.

A threshold at a bin's lowest score ``lo[b]`` accepts every case of bins ``0..b`` and nothing
below (ranges are disjoint and descending), so its counts are the cumulative bin counts: exact.
These *edges* (with ``inf``, accepting nothing) are the candidates a summary chooses among; each
is also a candidate of the exact evaluator (``lo[b]`` is a score it holds), with the same counts.

The exact evaluator has more candidates: the distinct scores strictly inside a range bin
(``lo < s <= hi``). Such a threshold accepts the bins above (c correct, f incorrect) and some
``x`` in [0, P] correct and ``y`` in [0, N] incorrect cases of the bin. Every measure a decision
maximizes (precision, recall, tnr, f1, accuracy, Youden's J, net benefit) and every constraint
but the accepted fraction is non-decreasing in x and non-increasing in y, and the accepted
fraction (at most a target) is non-decreasing in both: so the best any inside threshold can
reach, constraints met, is at most the value at y = 0 and x = min(P, what the accepted fraction
allows); a bin where even that point misses a constraint holds no feasible inside threshold.
Net benefit also falls as the threshold rises (its odds t / (1 - t)), so ``lo`` bounds it.
A linear expected cost is least over the rectangle at one of its corners.
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np

from . import decisions as D
from .binning import Bins, Triple

FloatArray = D.FloatArray
_EPS = 2.0**-52


def edges(b: Bins, pos_ref: float, neg_ref: float, integer: bool) -> D.Candidates:
    """The candidates at the bin edges: ``inf``, then each bin's lowest score, with the cumulative counts."""
    tp = np.zeros(b.pos.size + 1)
    fp = np.zeros(b.pos.size + 1)
    np.cumsum(b.pos, out=tp[1:])
    np.cumsum(b.neg, out=fp[1:])
    ends = None
    if integer:
        ends = np.zeros(b.pos.size + 1, dtype=np.int64)
        np.cumsum((b.pos + b.neg).astype(np.int64), out=ends[1:])
    return D.Candidates(np.concatenate(([np.inf], b.lo)), tp, fp, float(pos_ref), float(neg_ref), integer, ends)


def margin(terms: int) -> float:
    """The relative rounding margin of sums over ``terms`` terms (bins here, cases in the evaluator)."""
    return 8.0 * (terms + 8) * _EPS


def inside_best(b: Bins, c: D.Candidates, maximize: str, subject_to: Mapping[str, float], terms: int) -> float:
    """An upper bound of ``maximize`` over every threshold strictly inside a range bin that may meet ``subject_to``.

    -inf when no range bin may hold one (or every such value is undefined); never above 1, which
    no measure here exceeds. Whole counts (unweighted, no accepted-fraction cap) make the bound's
    point a whole-count point, where each measure is the same correctly rounded formula as the
    evaluator's, monotone in the counts; otherwise (weights summed in another order, a cap that
    is not a whole count) constraints are checked with the rounding margin in their favour and
    the bound is widened by it, so the bound holds for the exact evaluator's floats.
    """
    inside = np.flatnonzero(b.lo < b.hi)
    if not inside.size:
        return -math.inf
    eps = 0.0 if c.integer and "accepted_fraction" not in subject_to else margin(terms)
    tp0, fp0 = c.tp[inside], c.fp[inside]  # candidate i is the edge above bin i: the counts before it
    x = b.pos[inside].astype(np.float64)
    keep = np.ones(inside.size, dtype=bool)
    if "accepted_fraction" in subject_to:
        room = subject_to["accepted_fraction"] * (c.pos + c.neg) * (1.0 + eps) + eps - tp0 - fp0
        keep &= room >= 0.0
        x = np.minimum(x, np.maximum(room, 0.0))
    one = D.Candidates(b.lo[inside], tp0 + x, fp0, c.pos, c.neg, c.integer)
    # an inside threshold accepts at least one case: where the bound's point accepts none (no
    # correct case above or in the bin), precision and F1 are 0 there, their limit as y -> 0+
    none = (tp0 + x + fp0) == 0

    def at(key: str) -> FloatArray:
        v = D.measure(key, one)
        if key in ("precision", "f1"):
            v[none] = 0.0
        return v

    for key, target in subject_to.items():
        if key == "accepted_fraction":
            continue  # met by the choice of x
        v = at(key)
        with np.errstate(invalid="ignore"):
            keep &= (v >= target - eps) if D.CONSTRAINTS[key] == ">=" else (v <= target + eps)
    value = at(maximize)[keep]
    value = value[~np.isnan(value)]
    if not value.size:
        return -math.inf
    best = float(value.max())
    return min(1.0, best + eps * max(1.0, abs(best))) if math.isfinite(best) else best


def optimum_bounds(decision: D.Decision, inside: float) -> Triple:
    """(lower, estimate, upper) of the exact evaluator's optimum value, -inf meaning "no feasible threshold".

    A feasible edge is a feasible threshold of the exact evaluator with the same value: the
    optimum is at least it. Nothing exceeds the best edge or the best inside bound.
    """
    if decision.feasible and not math.isnan(decision.value):
        best = decision.value
        return Triple(best, best, max(best, inside))
    return Triple(-math.inf, -math.inf, inside)


def least_cost_bound(b: Bins, c: D.Candidates, cost_fp: float, cost_fn: float, gain_tp: float, gain_tn: float,
                     terms: int) -> float:  # fmt: skip
    """A lower bound of the expected cost at every threshold strictly inside a range bin (+inf without one).

    The cost is linear in the bin's accepted (x, y), least at a corner of [0, P] x [0, N]; the
    corners (0, 0) and (P, N) are edges, (P, 0) and (0, N) are not.
    """
    inside = np.flatnonzero(b.lo < b.hi)
    if not inside.size or c.pos + c.neg <= 0:
        return math.inf
    tp0, fp0 = c.tp[inside], c.fp[inside]
    p, n = b.pos[inside], b.neg[inside]
    corners = (D.Candidates(b.lo[inside], tp0 + p, fp0, c.pos, c.neg, c.integer),
               D.Candidates(b.lo[inside], tp0, fp0 + n, c.pos, c.neg, c.integer))  # fmt: skip
    least = min(float(D.expected_costs(k, cost_fp, cost_fn, gain_tp, gain_tn).min()) for k in corners)
    scale = max(abs(cost_fp), abs(cost_fn), abs(gain_tp), abs(gain_tn), 1.0)
    return least - margin(terms) * scale * 4.0


def cost_at(tp: Triple, fp: Triple, pos: float, neg: float, costs: tuple[float, float, float, float]) -> Triple:
    """(lower, estimate, upper) of the expected cost with TP and FP in their bounds (linear: a corner each)."""
    cost_fp, cost_fn, gain_tp, gain_tn = costs

    def at(x: float, y: float) -> float:
        one = D.Candidates(np.zeros(1), np.array([x]), np.array([y]), pos, neg, True)
        return float(D.expected_costs(one, cost_fp, cost_fn, gain_tp, gain_tn)[0])

    est = at(tp.estimate, fp.estimate)
    if tp.lower == tp.upper and fp.lower == fp.upper:
        return Triple(est, est, est)
    values = [at(x, y) for x in (tp.lower, tp.upper) for y in (fp.lower, fp.upper)]
    return Triple(min(values), est, max(values))
