"""The exact evaluator's decision queries: a mixin of :class:`ScoredPrecisionRecallEvaluation`.

The threshold to ship under constraints (with a guarantee on new data) or under costs, the cost
curve, net benefit, the DET, gain and lift curves, the KS statistic, precision-recall-gain and
the view at a deployment prevalence. The methods validate, cache and delegate to
:mod:`scored_pr._core.decisions`, reading the evaluator through
:class:`scored_pr._evaluators.exact_base.ExactShell`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import decisions as D
from .._validation import (
    check_costs,
    check_integer_counts,
    check_operating_point,
    check_prevalence,
    check_prevalence_setup,
    check_probability_ranking,
    check_probability_thresholds,
    check_score,
)
from .exact_base import ExactShell, adopt, readonly as _readonly

__all__ = ["DecisionQueries"]

_Arrays = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]


class DecisionQueries(ExactShell):
    """The decision queries of :class:`scored_pr.ScoredPrecisionRecallEvaluation` (a mixin; it holds no state)."""

    __slots__ = ()

    def _candidates(self) -> D.Candidates:
        def build() -> D.Candidates:
            # straight from the ranking (not through the cut-offs, which a decision query alone never needs)
            neg, correct = self._store.arrays()
            return D.ranking_candidates(neg, correct, self._store.weights(), self._pos_ref(), self._neg_ref())

        return self._cached("decision_candidates", build)

    def _probabilities(self, func: str) -> None:
        scores = self._candidates().threshold[1:]  # the distinct scores, descending
        check_probability_ranking(scores, func)

    # ---------------------------------------------------------------- constraints

    def operating_point(
        self,
        maximize: str = "recall",
        subject_to: dict[str, float] | None = None,
        confidence: float | None = None,
        *,
        seed: int = 0,
    ) -> D.Decision:
        """The score threshold of greatest ``maximize`` among those meeting ``subject_to``.

        Every distinct score is a candidate threshold (accept every case
        scored >= it, the :meth:`confusion_at_threshold` rule; a tie group is
        never split), and so is ``inf`` (accept nothing). Misses are never
        accepted (they are false negatives everywhere).

        Parameters
        ----------
        maximize : {"precision", "recall", "tnr", "f1", "accuracy", "youden", "net_benefit"}
            The measure to maximize: TP/(TP+FP), TP/P, TN/N, 2TP/(2TP+FP+FN),
            (TP+TN)/(P+N), TP/P - FP/N (Youden's J) or TP/n - FP/n t/(1-t)
            (net benefit at the threshold itself; the scores must then be
            probabilities). P and N are the reference counts (misses
            included), n = P + N. Ties: the highest threshold.
        subject_to : dict, optional
            Constraint name -> target in [0, 1]: ``"precision"``,
            ``"recall"`` and ``"tnr"`` must be >= their target, ``"fpr"``
            and ``"accepted_fraction"`` ((TP+FP)/n) <= theirs. A measure that
            is NaN (precision when nothing is accepted) never meets one.
        confidence : float, optional
            With a level (0.95), each constraint must hold **on new data
            from the same distribution** with probability at least
            ``confidence``: Learn-then-Test with fixed-sequence testing over
            exact binomial tests (see Notes). Needs whole counts (no weights,
            or integer ones).
        seed : int, default 0
            The seed of the split that orders the tests when the constraints
            are not all monotone in the threshold (precision; or constraints
            pulling opposite ways).

        Returns
        -------
        Decision
            threshold, feasible, precision, recall, f1, fpr, tnr,
            accepted_fraction, tp, fp, tn, fn, the maximized value and, with
            ``confidence``, each constraint's one-sided Clopper-Pearson bound
            (lower for >=, upper for <=) at that level. When no candidate
            meets the constraints: ``feasible=False``, ``threshold=None`` and
            the fields of the candidate nearest to feasibility (least total
            shortfall over the constraints; with a confidence, the
            point-estimate choice, or that nearest one).

        Raises
        ------
        ValueError
            If ``maximize`` or a key of ``subject_to`` is not one of the
            names above (the message lists them), a target is outside [0, 1],
            ``confidence`` is not in (0, 1), ``confidence`` is given with
            non-integer weights, or ``maximize="net_benefit"`` meets a score
            outside [0, 1].

        Notes
        -----
        Learn-then-Test (Angelopoulos, Bates, Candes, Jordan and Lei, 2021):
        each candidate t is the null hypothesis "some constraint fails at t"
        and is rejected when every constraint's exact binomial p-value is <=
        1 - confidence (precision: TP successes in TP+FP trials; recall: TP
        in P; tnr and fpr: TN or FP in N; accepted fraction: TP+FP in n).
        Fixed-sequence testing rejects in an order fixed before the tested
        labels are seen and stops at the first hypothesis it cannot reject,
        which bounds the chance of certifying any threshold where a
        constraint fails by 1 - confidence. Constraints monotone in the
        threshold with the same safe end (recall: low thresholds; fpr, tnr,
        accepted fraction: high ones) are tested from that end on every
        case; otherwise a fair coin per case (``seed``) splits the cases, one
        half orders the candidates (the surest first) and the other half
        tests them. Among the certified thresholds the one of greatest
        ``maximize`` is returned. Assumes the cases are independent draws
        from the distribution the threshold will meet.

        Not in LingPipe. O(d) for d distinct scores (O(d + tests) with a
        confidence); the result is cached until the next addition.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, True, False, True, False], [0.9, 0.8, 0.7, 0.6, 0.5])
        >>> p = ev.operating_point("recall", {"precision": 0.7})
        >>> p.threshold, p.precision, p.recall, p.feasible
        (0.6, 0.75, 1.0, True)
        >>> ev.operating_point("recall", {"precision": 1.0, "fpr": 0.0}).threshold
        0.8
        """
        func = "operating_point"
        maximize, subject, level, seed_ = check_operating_point(func, maximize, subject_to, confidence, seed)
        c = self._candidates()
        if maximize == "net_benefit":
            self._probabilities(func)
        if level is not None and subject:
            check_integer_counts(D.counts_are_integers(c), func)
        key = ("operating_point", maximize, tuple(sorted(subject.items())), level, seed_)

        def build() -> D.Decision:
            if level is None or not subject:
                return D.choose(c, maximize, subject)
            # the ranked scores only where the candidates carry no ends (never from the ranking):
            # their negation is a pass over every case the certification does not need
            _, correct = self._store.arrays()
            scores = None if c.ends is not None else self.ranked_cases()[0]
            cases = (scores, correct, self._store.weights(), self.num_misses, self.num_negative_misses)
            return D.choose_certified(c, maximize, subject, level, cases, seed_)

        return self._cached(key, build)

    # ---------------------------------------------------------------- costs

    def min_cost_threshold(
        self, cost_fp: float = 1.0, cost_fn: float = 1.0, gain_tp: float = 0.0, gain_tn: float = 0.0
    ) -> D.Decision:
        """The threshold of least expected cost per case.

        Expected cost at threshold t: (cost_fp FP + cost_fn FN - gain_tp TP
        - gain_tn TN) / n, with the counts of accepting every case scored >=
        t (a tie group never split; misses are FN, negative misses TN; n =
        num_positive_ref + num_negative_ref). The candidates are ``inf``
        (accept nothing) and every distinct score; ties go to the highest
        threshold. On an empty evaluator: threshold ``inf`` and NaN cost.

        Returns
        -------
        Decision
            Its ``expected_cost`` is the minimum; ``maximize`` is None.

        Raises
        ------
        TypeError, ValueError
            If a cost or gain is not a finite real number.

        Notes
        -----
        Not in LingPipe. O(d) for d distinct scores.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> p = ev.min_cost_threshold(cost_fp=1, cost_fn=5)
        >>> p.threshold, p.expected_cost
        (0.7, 0.25)
        """
        costs = check_costs("min_cost_threshold", cost_fp, cost_fn, gain_tp, gain_tn)
        return self._cached(("min_cost_threshold", costs), lambda: D.min_cost(self._candidates(), *costs))

    def expected_cost(
        self, threshold: float, cost_fp: float = 1.0, cost_fn: float = 1.0, gain_tp: float = 0.0, gain_tn: float = 0.0
    ) -> float:
        """Mean cost per case of accepting every case scored >= ``threshold``.

        (cost_fp FP + cost_fn FN - gain_tp TP - gain_tn TN) / n with the
        counts of :meth:`confusion_at_threshold`; NaN on an empty evaluator.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> ev.expected_cost(0.8, cost_fp=1, cost_fn=5)  # 1 FP, 1 FN over 4 cases
        1.5
        """
        t = check_score(threshold, "expected_cost", "threshold")
        costs = check_costs("expected_cost", cost_fp, cost_fn, gain_tp, gain_tn)
        c = self._candidates()
        i = int(np.searchsorted(-c.threshold, -t, side="right")) - 1
        one = D.Candidates(c.threshold[i : i + 1], c.tp[i : i + 1], c.fp[i : i + 1], c.pos, c.neg, c.integer)
        return float(D.expected_costs(one, *costs)[0])

    def cost_curve(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Drummond and Holte's cost curve: normalised expected cost against probability cost.

        Each candidate threshold (``inf`` and every distinct score) is the
        line ``NEC(x) = FPR (1 - x) + FNR x``, with the probability cost
        ``x = p C(-|+) / (p C(-|+) + (1 - p) C(+|-))``; the curve is their lower envelope
        over x in [0, 1], exact (its vertices where the best threshold
        changes). FNR counts misses. Empty arrays without both classes.

        Returns
        -------
        probability_cost, normalized_expected_cost : numpy.ndarray of float64
            The envelope's vertices, x ascending from 0 to 1.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> x, y = ev.cost_curve()
        >>> x.tolist(), y.tolist()
        ([0.0, 0.5, 1.0], [0.0, 0.25, 0.0])
        """

        def build() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
            x, y = D.cost_curve(self._candidates())
            return _readonly(x), _readonly(y)

        return self._cached_weak("cost_curve", build)

    # ---------------------------------------------------------------- curves of deployment

    def net_benefit(self, thresholds: Any = None) -> D.NetBenefit:
        """Net benefit (decision curve analysis) at probability thresholds, with treat-all and treat-none.

        Model: TP/n - FP/n * t/(1-t), accepting every case scored >= t;
        treat all: P/n - N/n * t/(1-t); treat none: 0 (P, N the reference
        counts with misses, n = P + N). Equal to ``dcurves.dca`` at its
        thresholds.

        Parameters
        ----------
        thresholds : array-like of float in [0, 1), optional
            Default: every distinct score in (0, 1).

        Returns
        -------
        NetBenefit
            (threshold, model, treat_all, treat_none), thresholds ascending.

        Raises
        ------
        ValueError
            If a score is outside [0, 1] (the first, in rank order, is
            named) or a threshold outside [0, 1).

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> nb = ev.net_benefit([0.5])
        >>> nb.model.tolist(), nb.treat_all.tolist()
        ([0.25], [0.0])
        """
        func = "net_benefit"
        t = check_probability_thresholds(thresholds, func)
        self._probabilities(func)
        return D.net_benefit(self._candidates(), t)

    def det_curve(self) -> _Arrays:
        """The detection error trade-off: (fpr, fnr, thresholds), scikit-learn's ``det_curve`` layout.

        From the first threshold with no false positive to the first with no
        false negative, thresholds ascending; FNR counts misses. Equal to
        ``sklearn.metrics.det_curve`` (weights included) without misses.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([False, False, True, True], [0.1, 0.4, 0.35, 0.8])
        >>> [a.tolist() for a in ev.det_curve()]
        [[0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8]]
        """

        def build() -> _Arrays:
            c = self._candidates()
            fps, tps = c.fp, c.tp
            first = int(np.searchsorted(fps, fps[0], side="right")) - 1
            last = int(np.searchsorted(tps, tps[-1])) + 1
            sl = slice(first, last)
            with np.errstate(divide="ignore", invalid="ignore"):
                fpr = fps[sl][::-1] / c.neg
                fnr = (c.pos - tps[sl])[::-1] / c.pos
            return _readonly(fpr), _readonly(fnr), _readonly(c.threshold[sl][::-1].copy())

        return self._cached_weak("det_curve", build)

    def cumulative_gain_curve(self) -> _Arrays:
        """(accepted fraction, recall, threshold) at ``inf`` and every distinct score, thresholds descending.

        Accepted fraction (TP+FP)/n, recall TP/P (misses count); starts at
        (0, 0, inf). NaN rates on an empty evaluator.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> [a.tolist() for a in ev.cumulative_gain_curve()]
        [[0.0, 0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [inf, 0.9, 0.8, 0.7, 0.1]]
        """

        def build() -> _Arrays:
            c = self._candidates()
            return (_readonly(D.measure("accepted_fraction", c)), _readonly(D.measure("recall", c)),
                    _readonly(c.threshold.copy()))  # fmt: skip

        return self._cached_weak("cumulative_gain_curve", build)

    def lift_curve(self) -> _Arrays:
        """(accepted fraction, lift, threshold) at every distinct score, thresholds descending.

        Lift = recall / accepted fraction = precision / prevalence, with
        prevalence P / n (misses count).

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> [a.tolist() for a in ev.lift_curve()]
        [[0.25, 0.5, 0.75, 1.0], [2.0, 1.0, 1.3333333333333333, 1.0], [0.9, 0.8, 0.7, 0.1]]
        """

        def build() -> _Arrays:
            frac, rec, thr = self.cumulative_gain_curve()
            with np.errstate(divide="ignore", invalid="ignore"):
                lift = rec[1:] / frac[1:]
            return _readonly(frac[1:].copy()), _readonly(lift), _readonly(thr[1:].copy())

        return self._cached_weak("lift_curve", build)

    def ks_statistic(self) -> float:
        """The two-sample Kolmogorov-Smirnov statistic of the positives' and negatives' scores.

        ``max over t of |F+(t) - F-(t)|``, F the empirical share of a
        class's returned cases scored >= t; equal to ``scipy.stats.ks_2samp``
        on the two classes' scores. Weighted: the weighted empirical
        distributions (shares of weight). Misses have no score and are left
        out. NaN without a returned case of each class.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> ev.ks_statistic()
        0.5
        """
        return self._cached("ks_statistic", lambda: D.ks_statistic(self._candidates()))

    def precision_recall_gain_curve(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(recall gain, precision gain) at every distinct score (Flach and Kull, 2015), thresholds descending.

        With pi = P / n: precision gain = (precision - pi) / ((1 - pi)
        precision), recall gain = (recall - pi) / ((1 - pi) recall) (-inf
        at recall 0). NaN without both classes.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> [a.round(12).tolist() for a in ev.precision_recall_gain_curve()]
        [[0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 0.5, 0.0]]
        """

        def build() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
            rg, pg = D.prg_points(self._candidates())
            return _readonly(rg), _readonly(pg)

        return self._cached_weak("prg_curve", build)

    def area_under_prg_curve(self) -> float:
        """Area under the precision-recall-gain curve (Flach and Kull, 2015).

        Trapezoids between the points of :meth:`precision_recall_gain_curve`
        over recall gain in [0, 1], the segment crossing recall gain 0 cut
        there; NaN without both classes.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> round(ev.area_under_prg_curve(), 12)
        0.25
        """

        def build() -> float:
            rg, pg = self.precision_recall_gain_curve()
            return D.area_under_prg(rg, pg)

        return self._cached("area_under_prg", build)

    def at_prevalence(self, pi: float) -> Any:
        """A read-only view of this evaluator at deployment prevalence ``pi``.

        The negatives (and their weights) are reweighted by w = P (1 - pi) /
        (pi N), so that positives make a fraction ``pi`` of the reference
        weight; every query of the view (precision, AP, F, the PR curve,
        break-even, operating points) is then the one at that prevalence.
        ROC measures are unchanged (up to rounding). Where w is an integer,
        the view equals the evaluator fed w copies of every negative.

        Raises
        ------
        ValueError
            If ``pi`` is not in (0, 1), a class is missing, or the
            evaluator holds negative misses (counts, which cannot be
            reweighted).

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> ev.at_prevalence(0.2).precision_at_threshold(0.7)  # 2 / (2 + 4 * 1)
        0.3333333333333333
        """
        func = "at_prevalence"
        pi = check_prevalence(pi, func)
        pos, neg = self._pos_ref(), self._neg_ref()
        check_prevalence_setup(pos, neg, self.num_negative_misses, func)
        w = pos * (1.0 - pi) / (pi * neg)
        if w >= 0.5 and abs(w - round(w)) <= 1e-9 * w:
            # pi = P / (P + k N) comes back as k up to rounding: take k itself, so that the view is
            # exactly the evaluator of k copies of every negative (a precision of 1/2, not 0.49999999999999994)
            w = float(round(w))
        scores, correct, weights = self.ranked_cases()
        base = np.ones(correct.size) if weights is None else np.asarray(weights, dtype=np.float64)
        view: Any = type(self)(self._ties)  # type: ignore[call-arg]  # the evaluator's own class
        view.add_cases(correct, scores, sample_weight=np.where(correct, base, base * w))
        view.add_misses(self.num_misses)
        view._freeze()
        return view


adopt(DecisionQueries)
