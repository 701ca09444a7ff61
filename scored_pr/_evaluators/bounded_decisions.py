"""A bounded summary's decision queries: thresholds at its bin edges, with certified bounds on the exact optimum.

A mixin of :class:`~scored_pr.BoundedEvaluation` (through its queries' base): each method
validates, caches and delegates to :mod:`scored_pr._core.bin_decisions` and
:mod:`scored_pr._core.decisions`, reading the bins the subclass keeps.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Callable, TypeVar

import numpy as np

from .._core import bin_decisions as BD
from .._core import bins as B
from .._core import decisions as D
from .._validation import (
    check_costs,
    check_integer_counts,
    check_operating_point,
    check_probability_range,
    check_probability_thresholds,
    check_score,
)
from .base import EvaluationBase

_T = TypeVar("_T")


class BoundedDecisions(EvaluationBase):
    """``operating_point``, ``min_cost_threshold``, ``expected_cost`` and ``net_benefit`` of a bounded summary (a mixin; no state)."""

    __slots__ = ()

    _bins: B.Bins
    _weighted: bool
    _misses: int
    _negative_misses: int

    def _cached(self, key: Any, build: Callable[[], _T]) -> _T:  # pragma: no cover - the subclass's
        raise NotImplementedError

    def _terms(self) -> int:  # pragma: no cover - the subclass's
        raise NotImplementedError

    def _bounds(self, t: B.Triple) -> float:  # pragma: no cover - the subclass's: a Bounds
        raise NotImplementedError

    def _edges(self) -> D.Candidates:
        def build() -> D.Candidates:
            c = BD.edges(self._bins, self.positive_weight, self.negative_weight, not self._weighted)
            for a in (c.threshold, c.tp, c.fp):
                a.setflags(write=False)
            return c

        return self._cached("decision_edges", build)

    def operating_point(
        self,
        maximize: str = "recall",
        subject_to: dict[str, float] | None = None,
        confidence: float | None = None,
        *,
        seed: int = 0,
    ) -> D.Decision:
        """The bin edge of greatest ``maximize`` meeting ``subject_to``, with bounds on the exact optimum.

        The candidates are ``inf`` (accept nothing) and each bin's lowest
        score: a threshold there accepts whole bins, so its counts (and every
        field of the returned :class:`~scored_pr.Decision`) are exact, equal
        to the exact evaluator's ``confusion_at_threshold`` on the same cases
        (sums of weights may differ in the last bits). The choice among them
        follows the exact evaluator's rules (ties: the highest threshold; none
        feasible: the least total shortfall). While every bin holds one
        score (at most ``max_bins`` distinct scores) these are all the exact
        evaluator's candidates, and the answer is its answer.

        Parameters
        ----------
        maximize, subject_to, seed
            As for ``ScoredPrecisionRecallEvaluation.operating_point``.
        confidence : float, optional
            As for the exact evaluator, over the edges. Constraints monotone
            in the threshold with the same safe end (recall; or fpr, tnr,
            accepted_fraction) are tested from that end on every case: the
            guarantee holds whatever the bins, since only the counts at the
            tested thresholds enter and those are exact. Otherwise (precision,
            or opposite ends) the split needs a fair coin per case; a
            Binomial(count, 1/2) draw per bin and class has the same law, so
            an exact summary certifies as the exact evaluator does (the same
            guarantee; another draw of the coins). A summary with range bins
            refuses it (:class:`~scored_pr.UnsupportedQuery`): its edges were
            chosen by merges that read every case's label, so the tested
            half would have helped choose its own hypotheses.

        Returns
        -------
        Decision
            The exact evaluator's fields at the chosen edge, plus
            ``optimum``: a :class:`~scored_pr.Bounds` certified to hold the
            ``value`` that the exact evaluator's ``operating_point`` (same
            ``maximize`` and ``subject_to``, no confidence) returns when some
            threshold meets the constraints, with -inf standing for "no
            feasible threshold". So ``optimum.lower`` is the chosen value (a
            feasible edge is feasible for the exact evaluator too), or -inf
            when no edge is feasible; ``optimum.upper`` is at least the best
            value any threshold inside a range bin could reach with the
            constraints met: inside a bin with P correct and N incorrect
            cases below c and f, at most c + P correct and at least f
            incorrect cases are accepted, and every measure maximized or
            constrained improves with more correct and fewer incorrect cases
            (the accepted fraction caps the correct ones it allows; net
            benefit's odds are least at the bin's lowest score). An upper of
            -inf certifies that the exact evaluator finds no feasible
            threshold either. ``optimum.exact`` when no range bin can do
            better than the chosen edge (always, for an exact summary).
            With ``confidence``: ``optimum`` is None (the certified choice is
            random; the bounds above are for point estimates).

        Raises
        ------
        ValueError
            As the exact evaluator's (names, targets, levels, whole counts
            for ``confidence``, probabilities for net benefit).
        UnsupportedQuery
            ``confidence`` with constraints that need the split, on a
            summary holding range bins.

        Notes
        -----
        Not in LingPipe. O(B) for B bins (O(B + tests) with a confidence);
        cached until the next change.

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation(max_bins=2)
        >>> s.add_cases([True, True, False, True, False], [0.9, 0.8, 0.7, 0.6, 0.5])
        >>> s.bins()[1].tolist()  # each bin's lowest score: the candidates
        [0.8, 0.5]
        >>> p = s.operating_point("recall", {"precision": 0.7})
        >>> p.threshold, p.recall, p.feasible
        (0.8, 0.6666666666666666, True)
        >>> p.optimum  # the exact optimum (recall 1.0 at 0.6) lies in these bounds
        Bounds(0.6666666666666666, lower=0.6666666666666666, upper=1.0)
        """
        func = "operating_point"
        maximize, subject, level, seed_ = check_operating_point(func, maximize, subject_to, confidence, seed)
        c = self._edges()
        if maximize == "net_benefit" and self._bins.hi.size:
            check_probability_range(float(self._bins.hi[0]), float(self._bins.lo[-1]), func)
        if level is not None and subject:
            check_integer_counts(D.counts_are_integers(c), func)
            if D.needs_split(subject) and bool((self._bins.lo < self._bins.hi).any()):
                raise self._unsupported(
                    f"{func}(confidence=...)",
                    "certifying these constraints splits the cases in two and orders the thresholds by one half, "
                    "but a summary's range-bin edges were chosen by merges that read every case's label, the tested "
                    "half's too",
                    "certify monotone constraints (recall; or fpr, tnr, accepted_fraction), use a summary whose "
                    "bins are exact (max_bins at least the distinct scores), or an exact ScoredPrecisionRecallEvaluation",
                )
        key = ("operating_point", maximize, tuple(sorted(subject.items())), level, seed_)

        def build() -> D.Decision:
            if level is not None and subject:
                b = self._bins

                def ordering() -> D.Halves:
                    return D.split_group_counts(b.pos, b.neg, self._misses, self._negative_misses, seed_)

                return D.certify(c, maximize, subject, level, ordering)
            d = D.choose(c, maximize, subject)
            inside = BD.inside_best(self._bins, c, maximize, subject, self._terms())
            return replace(d, optimum=self._bounds(BD.optimum_bounds(d, inside)))

        return self._cached(key, build)

    def min_cost_threshold(
        self, cost_fp: float = 1.0, cost_fn: float = 1.0, gain_tp: float = 0.0, gain_tn: float = 0.0
    ) -> D.Decision:
        """The bin edge of least expected cost per case, with bounds on the exact evaluator's least cost.

        The candidates and their exact counts are those of
        :meth:`operating_point`; the cost and tie rule are the exact
        evaluator's ``min_cost_threshold`` (equal to it while every bin holds
        one score). ``optimum`` is a :class:`~scored_pr.Bounds` holding the
        exact evaluator's least ``expected_cost``: at most the chosen edge's
        cost, at least the least cost of accepting, inside any range bin, all
        of its correct cases and none of its incorrect ones, or the reverse
        (the cost is linear in the two, so least at a corner). NaN costs on
        an empty summary.

        Raises
        ------
        TypeError, ValueError
            If a cost or gain is not a finite real number.

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation(max_bins=2)
        >>> s.add_cases([True, False, True, False, False], [0.9, 0.8, 0.7, 0.2, 0.1])
        >>> s.bins()[1].tolist()  # the edges: 0.2 (the top four cases), 0.1 (all)
        [0.2, 0.1]
        >>> p = s.min_cost_threshold(cost_fp=1, cost_fn=5)
        >>> p.threshold, p.expected_cost, p.optimum.lower <= 0.2 <= p.optimum.upper  # exact: 0.2 at 0.7
        (0.2, 0.4, True)
        """
        costs = check_costs("min_cost_threshold", cost_fp, cost_fn, gain_tp, gain_tn)

        def build() -> D.Decision:
            c = self._edges()
            d = D.min_cost(c, *costs)
            cost = d.expected_cost if d.expected_cost is not None else math.nan
            least = BD.least_cost_bound(self._bins, c, *costs, self._terms())
            return replace(d, optimum=self._bounds(B.Triple(min(cost, least), cost, cost)))

        return self._cached(("min_cost_threshold", costs), build)

    def expected_cost(
        self, threshold: float, cost_fp: float = 1.0, cost_fn: float = 1.0, gain_tp: float = 0.0, gain_tn: float = 0.0
    ) -> float:
        """Mean cost per case of accepting every case scored >= ``threshold``, exact or with certified bounds.

        (cost_fp FP + cost_fn FN - gain_tp TP - gain_tn TN) / n with the
        counts of :meth:`confusion_at_threshold`: exact (the evaluator's
        float) when no range bin straddles the threshold; else a
        :class:`~scored_pr.Bounds` over every share of the straddling bin's
        correct and incorrect cases (the cost is linear in them: its bounds
        are at the corners), the estimate taking the share
        :meth:`confusion_at_threshold` estimates. NaN on an empty summary.

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation(max_bins=1)  # one bin from 0.1 to 0.9: 0.5 falls inside it
        >>> s.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> c = s.expected_cost(0.5, cost_fp=1, cost_fn=5)  # exact: 1 FP, 0 FN over 4 cases
        >>> round(c.upper, 9), c.lower <= 0.25 <= c.upper  # at most: both incorrect, no correct accepted
        (3.0, True)
        """
        t = check_score(threshold, "expected_cost", "threshold")
        costs = check_costs("expected_cost", cost_fp, cost_fn, gain_tp, gain_tn)

        def build() -> float:
            pos, neg = self.positive_weight, self.negative_weight
            tp, fp, _, _ = B.accepted_at(self._bins, t)
            r = BD.cost_at(tp, fp, pos, neg, costs)
            scale = max(1.0, *(abs(v) for v in costs))
            r = B.widen(r, self._terms(), -math.inf, math.inf, force=self._weighted)
            if r.lower < r.upper:  # the sums' rounding, scaled by the largest cost
                pad = BD.margin(self._terms()) * scale
                r = B.Triple(r.lower - pad, r.estimate, r.upper + pad)
            return self._bounds(r)

        return self._cached(("expected_cost", t, costs), build)

    def net_benefit(self, thresholds: Any = None) -> D.NetBenefit:
        """Net benefit at probability thresholds, exact or with certified bounds, with treat-all and treat-none.

        The exact evaluator's ``net_benefit``: model TP/n - FP/n * t/(1-t),
        accepting every case scored >= t; treat all P/n - N/n * t/(1-t);
        treat none 0 (P, N the reference weights with misses, n = P + N).
        A threshold no range bin straddles has exact counts, and its model
        value is the evaluator's float (unweighted: bit for bit). A range bin
        straddling t (lo < t <= hi) holding p correct and q incorrect cases
        lets any 0..p and 0..q of them be accepted; the model value rises
        with TP and falls with FP, so its least is at (TP, FP + q) and its
        greatest at (TP + p, FP), each computed as the evaluator computes
        it (float rounding is monotone, so the evaluator's value lies
        between them); the estimate takes the share of the bin that
        ``confusion_at_threshold`` estimates. Weighted, the bounds are
        widened by the sums' rounding (scaled by max(1, t/(1-t))).

        Parameters
        ----------
        thresholds : array-like of float in [0, 1), optional
            Default: every distinct score in (0, 1), which only a summary
            whose bins are all exact (one score each) holds.

        Returns
        -------
        NetBenefit
            (threshold, model, treat_all, treat_none), thresholds ascending;
            ``model`` is an object array of :class:`~scored_pr.Bounds`, one
            per threshold (``Bounds.exact`` where no range bin straddles it;
            ``np.asarray(model, float)`` gives the estimates); treat-all and
            treat-none are exact float64 arrays.

        Raises
        ------
        ValueError
            As the exact evaluator's: a score outside [0, 1] (the summary's
            highest or lowest), a threshold outside [0, 1).
        UnsupportedQuery
            The default thresholds on a summary holding range bins: the
            distinct scores inside a bin are not kept.

        Notes
        -----
        Decision curve analysis (Vickers and Elkin, 2006). Not in LingPipe.
        O(B log B + m B) for m thresholds and B bins.

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation(max_bins=1)  # one bin, 0.1 to 0.9: 0.5 falls inside it
        >>> s.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> m = s.net_benefit([0.05, 0.5]).model
        >>> m[0], m[0].exact  # every case accepted at 0.05: exact, 2/4 - 2/4 * 0.05/0.95
        (0.47368421052631576, True)
        >>> round(m[1].lower, 9), round(m[1].upper, 9)  # any share of the bin at 0.5: the exact value is 0.25
        (-0.5, 0.5)
        """
        func = "net_benefit"
        t = check_probability_thresholds(thresholds, func)
        b = self._bins
        if b.hi.size:
            check_probability_range(float(b.hi[0]), float(b.lo[-1]), func)
        if t is None:
            if bool((b.lo < b.hi).any()):
                raise self._unsupported(
                    f"{func}()", "the default thresholds are every distinct score, and the scores inside a range "
                    "bin are not kept",
                    "pass thresholds=(...) (each answered exactly, or with certified bounds where a range bin "
                    "straddles it), or keep every distinct score (max_bins at least their number)")
            t = D.net_benefit(self._edges(), None).threshold  # exact bins: every distinct score in (0, 1)
        return self._cached(("net_benefit", t.tobytes()), lambda: self._net_benefit(t))

    def _net_benefit(self, t: Any) -> D.NetBenefit:
        b, pos, neg = self._bins, self.positive_weight, self.negative_weight
        desc = np.unique(t)[::-1]
        at = [B.accepted_at(b, float(v)) for v in desc.tolist()]
        # The evaluator's formulas at three sets of counts: the least (TP, FP + q), the estimate and the
        # greatest (TP + p, FP); candidates holding exactly the thresholds asked, so each finds its own.
        corners = []
        for tp_of, fp_of in ((lambda a: a[0].lower, lambda a: a[1].upper), (lambda a: a[0].estimate, lambda a: a[1].estimate),
                             (lambda a: a[0].upper, lambda a: a[1].lower)):  # fmt: skip
            c = D.Candidates(np.concatenate(([np.inf], desc)), np.array([0.0] + [tp_of(a) for a in at]),
                             np.array([0.0] + [fp_of(a) for a in at]), float(pos), float(neg), not self._weighted)
            corners.append(D.net_benefit(c, t))
        low, mid, high = corners
        terms = self._terms()
        model = np.empty(t.size, dtype=object)
        for i, v in enumerate(t.tolist()):
            r = B.widen(B.Triple(float(low.model[i]), float(mid.model[i]), float(high.model[i])), terms,
                        -math.inf, math.inf, force=self._weighted)
            if self._weighted and r.lower < r.upper:  # the weight sums' rounding, scaled by the odds (FP's cost)
                pad = BD.margin(terms) * max(1.0, v / (1.0 - v))
                r = B.Triple(r.lower - pad, r.estimate, r.upper + pad)
            model[i] = self._bounds(r)
        return D.NetBenefit(mid.threshold, model, mid.treat_all, mid.treat_none)
