"""The decision queries of a result computed in the cluster: a mixin of :class:`scored_pr.DistributedEvaluation`.

How the cluster computes them (:mod:`scored_pr._core.partitioned_decisions`):
each bucket, while it is ranked with its offsets, chooses its least-cost and
best operating-point candidates for the requests fixed at ``evaluate``
(``costs=``, ``operating_points=``; the defaults of ``min_cost_threshold()``
and ``operating_point()`` always), and the driver reduces the buckets'
choices with the evaluator's tie rules; ``expected_cost(t)`` and
``net_benefit(thresholds)`` read the counts at the cut-offs of
``thresholds=``, summed per partition in the calibration pass; the cost curve
is the lower envelope of the lines of the ROC hull's vertices, which the
buckets return for the hull area.

With ``thresholds="all"`` at ``evaluate`` every bucket also returns its
candidates (each distinct score with its global counts), joined on the
driver in rank order: the evaluator's candidates. Every query here is then
answered as the evaluator answers it, from the same functions of
:mod:`scored_pr._core.decisions`: any request, ``confidence=`` with
constraints monotone in the threshold (recall; fpr, tnr, accepted fraction:
Learn-then-Test walks the candidates from their safe end, no rows needed),
``net_benefit()`` at every distinct score, ``expected_cost`` at any threshold
and the cost curve of every candidate.

Refused with :class:`~scored_pr.UnsupportedQuery` saying why: a request not
made at ``evaluate`` (without ``thresholds="all"``), and ``confidence=`` with
constraints that are not monotone together (precision; or constraints
pulling opposite ways), whose certification splits the rows by a seeded fair
coin per row in rank order: the driver holds counts per distinct score, not
the rows those coins fall on.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import decisions as D
from .._core.partitioned_calibration import CalibrationSums
from .._validation import (
    check_cost, check_decision_confidence, check_integer_counts, check_maximize, check_probability_ranking,
    check_probability_thresholds, check_score, check_seed, check_subject_to,
)
from .base import unsupported


_CLS = "DistributedEvaluation"
_CONFIDENCE = ("certifying constraints tests the candidates in a fixed sequence over every distinct score, which "
               "reach the driver only with thresholds='all' at evaluate")
_SPLIT = ("these constraints are not monotone together in the threshold (precision; or constraints pulling opposite "
          "ways), so Learn-then-Test orders the candidates by a fair coin per row drawn in rank order (seed=), and "
          "the rows stay in the cluster: the driver holds counts per distinct score only")


def _no_rows() -> D.Halves:  # pragma: no cover - monotone constraints never split the rows
    raise AssertionError("monotone constraints are certified without a split of the rows")


class DistributedDecisions:
    """``operating_point``, ``min_cost_threshold``, ``expected_cost``, ``cost_curve`` and ``net_benefit`` from the cluster."""

    _v: dict[str, Any]

    def _decisions(self, func: str) -> dict[str, Any]:
        out: dict[str, Any] | None = self._v.get("decisions")
        if out is None:  # a result pickled before the engines chose thresholds
            raise unsupported(_CLS, func, "this result holds no decisions (made by an earlier scored_pr)",
                              "evaluate the rows again")
        return out

    def _every(self, func: str) -> D.Candidates | None:
        """Every candidate (``thresholds="all"`` at ``evaluate``), or None."""
        out: D.Candidates | None = self._decisions(func).get("candidates")
        return out

    def _probabilities(self, func: str) -> None:
        """Refuse scores outside [0, 1], naming the first in rank order (its rank when it is the top score)."""
        sums: CalibrationSums | None = self._v.get("calibration")
        if sums is None or not sums.rows:
            return
        if sums.highest > 1.0:
            check_probability_ranking(np.array([sums.highest]), func)  # the top score: rank 1
        if sums.lowest < 0.0:
            raise ValueError(f"{func}: the scores must be probabilities in [0, 1]; the score "
                             f"{sums.highest_negative!r} is not.")

    def _costs(self, func: str, *values: Any) -> tuple[float, float, float, float]:
        names = ("cost_fp", "cost_fn", "gain_tp", "gain_tn")
        return tuple(check_cost(v, func, n) for v, n in zip(values, names))  # type: ignore[return-value]

    def operating_point(
        self, maximize: str = "recall", subject_to: dict[str, float] | None = None, confidence: float | None = None,
        *, seed: int = 0,
    ) -> D.Decision:
        """The threshold of greatest ``maximize`` among those meeting ``subject_to`` (point estimates), chosen in the cluster.

        ``ScoredPrecisionRecallEvaluation.operating_point``: every distinct
        score and ``inf`` are the candidates (a tie group never split;
        misses never accepted); ties go to the highest threshold; with no
        feasible candidate, the nearest (least total shortfall) with
        ``feasible=False``. Answered for ``operating_point()`` and for each
        (maximize, subject_to) passed as ``operating_points=`` to
        ``evaluate`` (any request with ``thresholds="all"``); the same
        Decision as the evaluator's (unweighted: bit for bit).
        ``confidence`` with constraints needs ``thresholds="all"`` and
        constraints monotone in the threshold (recall; fpr, tnr, accepted
        fraction), then certifies as the evaluator does; precision (a coin
        per row) raises :class:`~scored_pr.UnsupportedQuery` saying why;
        without constraints it changes nothing, as for the evaluator. Not
        in LingPipe.
        """
        func = "operating_point"
        maximize = check_maximize(maximize, func)
        subject = check_subject_to(subject_to, func)
        level = check_decision_confidence(confidence, func)
        check_seed(seed, func)
        found = self._decisions(func)["points"]
        every = self._every(func)
        if maximize == "net_benefit":
            self._probabilities(func)
        if level is not None and subject:
            if every is None:
                raise unsupported(_CLS, f"{func}(confidence={level!r})", _CONFIDENCE,
                                  "pass thresholds='all' to evaluate (the counts at every distinct score reach the "
                                  "driver), or evaluate the rows (or a sample) with ScoredPrecisionRecallEvaluation")
            if D.needs_split(subject):
                raise unsupported(_CLS, f"{func}({maximize!r}, {subject!r}, confidence={level!r})", _SPLIT,
                                  "certify constraints monotone in the threshold (recall >=, fpr <=, tnr >=, "
                                  "accepted_fraction <=), or evaluate the rows (or a sample) with "
                                  "ScoredPrecisionRecallEvaluation for a certified precision")
            check_integer_counts(D.counts_are_integers(every), func)
            return D.certify(every, maximize, subject, level, _no_rows)
        for (m, pairs), decision in found.items():
            if m == maximize and dict(pairs) == subject:
                return decision  # type: ignore[no-any-return]
        if every is not None:
            return D.choose(every, maximize, subject)
        request = (maximize, subject)
        raise unsupported(_CLS, f"{func}({maximize!r}, {subject!r})", "this request was not chosen in the cluster",
                          f"pass operating_points=({request!r},) (or thresholds='all') to evaluate")

    def min_cost_threshold(
        self, cost_fp: float = 1.0, cost_fn: float = 1.0, gain_tp: float = 0.0, gain_tn: float = 0.0
    ) -> D.Decision:
        """The threshold of least expected cost per case, (cost_fp FP + cost_fn FN - gain_tp TP - gain_tn TN) / n, chosen in the cluster.

        ``ScoredPrecisionRecallEvaluation.min_cost_threshold``: candidates
        ``inf`` and every distinct score, ties to the highest threshold;
        ``inf`` and NaN cost without a reference case. Answered for the
        default costs and for each (cost_fp, cost_fn, gain_tp, gain_tn) passed
        as ``costs=`` to ``evaluate`` (any costs with ``thresholds="all"``);
        the evaluator's Decision (unweighted: bit for bit). Not in LingPipe.
        """
        func = "min_cost_threshold"
        costs = self._costs(func, cost_fp, cost_fn, gain_tp, gain_tn)
        found = self._decisions(func)["costs"]
        if costs not in found:
            every = self._every(func)
            if every is not None:
                return D.min_cost(every, *costs)
            raise unsupported(_CLS, f"{func}{costs!r}", "these costs were not minimised in the cluster",
                              f"pass costs=({costs!r},) (or thresholds='all') to evaluate")
        return found[costs]  # type: ignore[no-any-return]

    def _cutoff(self, func: str, t: float) -> tuple[float, float]:
        every = self._every(func)
        if every is not None:  # the last candidate scored >= t (inf: none): the evaluator's search
            i = int(np.searchsorted(-every.threshold, -t, side="right")) - 1
            return float(every.tp[i]), float(every.fp[i])
        sums: CalibrationSums | None = self._v.get("calibration")
        counts = None if sums is None else sums.cutoffs.at(t)
        if counts is None:
            raise unsupported(_CLS, f"{func}({t!r})", f"the counts at the threshold {t!r} were not summed in the "
                              "cluster", f"pass thresholds=({t!r},) to evaluate")
        return counts

    def expected_cost(
        self, threshold: float, cost_fp: float = 1.0, cost_fn: float = 1.0, gain_tp: float = 0.0, gain_tn: float = 0.0
    ) -> float:
        """Mean cost per case of accepting every row scored >= ``threshold``, at a threshold passed as ``thresholds=``.

        (cost_fp FP + cost_fn FN - gain_tp TP - gain_tn TN) / n with n the
        reference count (misses are false negatives); NaN without a
        reference case. The counts are summed per partition (with
        ``thresholds="all"``: read from every candidate, at any threshold):
        unweighted, the evaluator's value bit for bit.
        """
        func = "expected_cost"
        t = check_score(threshold, func, "threshold")
        costs = self._costs(func, cost_fp, cost_fn, gain_tp, gain_tn)
        tp, fp = self._cutoff(func, t)
        one = D.Candidates(np.array([t]), np.array([tp]), np.array([fp]), float(self._v["pos_ref"]),
                           float(self._v["neg_ref"]), not self._v["weighted"])
        return float(D.expected_costs(one, *costs)[0])

    def cost_curve(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Drummond and Holte's cost curve: the lower envelope of the candidates' lines FPR (1 - x) + FNR x.

        ``ScoredPrecisionRecallEvaluation.cost_curve``, from the vertices of
        the ROC convex hull (only they reach the envelope): the same curve;
        where the evaluator lists one vertex twice (lines meeting at one
        point, x equal within rounding) it may appear once here. Empty
        arrays without both classes.
        """
        every = self._every("cost_curve")
        x, y = D.cost_curve(self._decisions("cost_curve")["hull"] if every is None else every)
        for a in (x, y):
            a.setflags(write=False)
        return x, y

    def net_benefit(self, thresholds: Any = None) -> D.NetBenefit:
        """Net benefit TP/n - FP/n t/(1-t), treat-all and treat-none at probability thresholds passed as ``thresholds=``.

        ``ScoredPrecisionRecallEvaluation.net_benefit(thresholds)`` from the
        counts at those cut-offs (summed per partition), or, with
        ``thresholds="all"`` at ``evaluate``, from every candidate: then any
        thresholds and ``thresholds=None`` (every distinct score, the
        evaluator's default). Otherwise ``thresholds=None`` raises
        :class:`~scored_pr.UnsupportedQuery`: the distinct scores stay in
        the cluster.
        """
        func = "net_benefit"
        t = check_probability_thresholds(thresholds, func)
        self._probabilities(func)
        every = self._every(func)
        if every is not None:  # the evaluator's candidates: its answer, default thresholds included
            return D.net_benefit(every, t)
        if t is None:
            raise unsupported(_CLS, f"{func}()", "the default thresholds are every distinct score, which reach the "
                              "driver only with thresholds='all' at evaluate",
                              "pass thresholds='all' to evaluate, or thresholds=(...) and ask net_benefit(those "
                              "thresholds)")
        counts = [self._cutoff(func, float(v)) for v in t.tolist()]
        desc = np.unique(t)[::-1]
        at = {float(v): c for v, c in zip(t.tolist(), counts)}
        c = D.Candidates(np.concatenate(([np.inf], desc)), np.array([0.0] + [at[float(v)][0] for v in desc]),
                         np.array([0.0] + [at[float(v)][1] for v in desc]), float(self._v["pos_ref"]),
                         float(self._v["neg_ref"]), not self._v["weighted"])
        return D.net_benefit(c, t)
