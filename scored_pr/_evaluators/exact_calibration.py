"""The exact evaluator's calibration queries: a mixin of :class:`ScoredPrecisionRecallEvaluation`.

Whether the scores are probabilities: the binned reliability curve and expected calibration
error, the Brier score and the log loss, the bin-free CORP reliability diagram with its Brier
decomposition and consistency band, and the logistic recalibration's slope and intercept. The
methods validate, cache and delegate to :mod:`scored_pr._core.calibration`, reading the
evaluator's stored cases (in rank order) through
:class:`scored_pr._evaluators.exact_base.ExactShell`.

Every calibration query needs scores in [0, 1] and raises ``ValueError`` naming a score
outside it. Misses (correct cases never returned) and negative misses have no score: they are
left out of every calibration measure, which covers the scored cases only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from .._core import calibration as K
from .._validation import (
    check_calibration_bins, check_ece_options, check_probability_scores, check_reliability_options,
)
from .exact_base import ExactShell, adopt, readonly as _readonly

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["CalibrationQueries"]

#: The end of a score-only query's docstring (:meth:`~CalibrationQueries.brier_score`,
#: :meth:`~CalibrationQueries.log_loss`): its one refusal, and the evaluator its example makes.
_REFUSED = """Raises
        ------
        ValueError
            A score outside [0, 1] (named in the message).

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()"""


def _refuses_other_scores(method: F) -> F:
    """``method`` with :data:`_REFUSED` in place of ``{refused}`` in its docstring (none under ``python -OO``, which drops docstrings)."""
    if method.__doc__:
        method.__doc__ = method.__doc__.replace("{refused}", _REFUSED)
    return method


class CalibrationQueries(ExactShell):
    """The calibration queries of :class:`scored_pr.ScoredPrecisionRecallEvaluation` (a mixin; it holds no state)."""

    __slots__ = ()

    def _calibration_groups(self, func: str) -> K.Groups:
        """The scored cases grouped by distinct score, after refusing scores outside [0, 1].

        O(n) on the first calibration query after a change, then kept in the memo until the next
        change (every calibration query reads them: asking all of them groups the cases once).
        Memory: five float64 arrays of the distinct scores' count, beside the stored cases.
        """
        self._check_probabilities(func)
        return self._cached(  # type: ignore[no-any-return]
            ("calibration_groups",), lambda: K.groups(*self._store.arrays(), self._store.weights())
        )

    def _calibration_logs(self, func: str) -> K.LogScores:
        """The logs of the distinct scores and of their complements (:func:`~scored_pr._core.calibration.log_scores`), kept.

        Read by :meth:`log_loss` and :meth:`calibration_slope_intercept`: two ``log`` passes on the
        first of them after a change, none for the other. Memory: two float64 arrays of the
        distinct scores' count, until the next change.
        """
        def build() -> K.LogScores:
            logs = K.log_scores(self._calibration_groups(func))
            return K.LogScores(_readonly(logs.score), _readonly(logs.complement))

        return self._cached(("calibration_logs",), build)  # type: ignore[no-any-return]

    def _check_probabilities(self, func: str) -> None:
        """Refuse scores outside [0, 1]: O(1) on the sorted cases (their first and last)."""
        neg = self._store.arrays()[0]
        if neg.size:
            check_probability_scores(float(-neg[-1]), float(-neg[0]), func)

    def scores_are_probabilities(self) -> bool:
        """Whether at least one case is scored and every score lies in [0, 1]. O(1).

        The calibration measures of ``summary()`` (``expected_calibration_error``,
        ``brier_score``) are there exactly when this is true; misses have no
        score and do not count.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.scores_are_probabilities()
        False
        >>> ev.add_cases([True, False], [0.9, 0.0])
        >>> ev.scores_are_probabilities(), "brier_score" in ev.summary()
        (True, True)
        >>> ev.add_case(False, 2.5)
        >>> ev.scores_are_probabilities(), "brier_score" in ev.summary()
        (False, False)
        """
        neg = self._store.arrays()[0]  # negated scores, ascending
        return bool(neg.size) and bool(-neg[-1] >= 0.0) and bool(-neg[0] <= 1.0)

    def _calibrated(self, func: str, key: tuple[object, ...], build: object) -> object:
        self._check_probabilities(func)  # refuses before anything is cached; a cached answer is O(1)
        return self._cached(key, lambda: build(self._calibration_groups(func)))  # type: ignore[operator]

    def calibration_curve(
        self, n_bins: int = 5, strategy: str = "uniform"
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The binned reliability curve: (fraction of correct cases, mean score) of each non-empty bin.

        Parameters
        ----------
        n_bins : int, default 5
            The number of bins (>= 1).
        strategy : {"uniform", "quantile"}, default "uniform"
            ``"uniform"``: edges ``linspace(0, 1, n_bins + 1)``; ``"quantile"``:
            the scores' percentiles at ``linspace(0, 100, n_bins + 1)``
            (numpy's linear interpolation; with sample weights, of the scores
            each repeated ``weight`` times).

        Returns
        -------
        prob_true, prob_pred : ndarray of float64
            For each bin holding a case, in ascending order of the bins: the
            weight of its correct cases over its weight, and its weighted mean
            score. Empty arrays when no case is scored.

        Raises
        ------
        ValueError
            A score outside [0, 1] (named in the message), ``n_bins < 1`` or
            an unknown ``strategy``.

        Notes
        -----
        Bins are closed on the right, as scikit-learn's
        ``sklearn.calibration.calibration_curve`` makes them: bin i holds the
        scores in (e_i, e_{i+1}], the first bin [e_0, e_1] (0.0 is in the first
        bin, a score equal to an inner edge in the bin below it, 1.0 in the
        last). Equal to ``calibration_curve(y, p, n_bins=n_bins,
        strategy=strategy)``; with sample weights, to that function on the
        cases repeated by their (integer) weights. Tied scores share a bin.
        Misses have no score and are left out. O(n) on the first call, O(1)
        cached. No LingPipe or trec_eval counterpart.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([False, False, True, True], [0.1, 0.4, 0.6, 0.9])
        >>> prob_true, prob_pred = ev.calibration_curve(n_bins=2)
        >>> prob_true.tolist(), prob_pred.tolist()
        ([0.0, 1.0], [0.25, 0.75])
        """
        n_bins, strategy = check_calibration_bins(n_bins, strategy, "calibration_curve")

        def build(g: K.Groups) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
            true, pred = K.calibration_curve(g, n_bins, strategy)
            return _readonly(true), _readonly(pred)

        return self._calibrated("calibration_curve", ("calibration_curve", n_bins, strategy), build)  # type: ignore[return-value]

    def expected_calibration_error(
        self, n_bins: int = 15, norm: str = "l1", strategy: str = "uniform", debias: bool = False
    ) -> float:
        """The binned calibration error: the gap between each bin's mean score and its fraction of correct cases.

        With bins b of weight share w_b, fraction correct acc_b and mean score
        conf_b: ``"l1"`` (the expected calibration error, ECE) is
        sum_b w_b abs(acc_b - conf_b); ``"l2"`` is sqrt(sum_b w_b (acc_b - conf_b)**2);
        ``"max"`` (the maximum calibration error) is max_b abs(acc_b - conf_b) over
        the bins holding a case.

        Parameters
        ----------
        n_bins : int, default 15
            The number of bins (>= 1).
        norm : {"l1", "l2", "max"}, default "l1"
        strategy : {"uniform", "quantile"}, default "uniform"
            The edges, as :meth:`calibration_curve` makes them.
        debias : bool, default False
            Kumar, Liang & Ma's (2019) debiased estimator (the
            ``uncertainty-calibration`` package's, on these bins), l1 and l2
            only. l2: sqrt(max(0, sum_b w_b ((acc_b - conf_b)**2 - acc_b (1 -
            acc_b) / (n_b - 1)))), a bin of fewer than 2 cases adding 0. l1:
            2 * ECE - sum_b w_b E abs(X_b - conf_b), X_b ~ Normal(acc_b, acc_b (1 -
            acc_b) / n_b) (the package draws 1,000 such resamples; here the
            expectation is exact, so the value is deterministic). With sample
            weights, n_b is the bin's effective size (sum w)**2 / sum w**2.

        Returns
        -------
        float
            In [0, 1] (the debiased l1 estimate may fall below 0). NaN when no
            case is scored.

        Raises
        ------
        ValueError
            A score outside [0, 1] (named), ``n_bins < 1``, an unknown
            ``norm`` or ``strategy``, or ``debias=True`` with ``norm="max"``.

        Notes
        -----
        Bins are closed on the left: bin i holds [e_i, e_{i+1}), the last bin
        [e_{n-1}, e_n] (0.0 is in the first bin, a score equal to an inner edge
        in the bin above it, 1.0 in the last). This equals torchmetrics'
        ``BinaryCalibrationError(n_bins, norm)`` on float64 inputs, except
        that torchmetrics gives a score of exactly 1.0 a bin of its own (its
        ``bucketize(..., right=True) - 1`` puts it past the last bin); the two
        differ exactly when such a bin's gap differs from that of the last
        bin's other cases. Tied scores share a bin; misses have no score and
        are left out. One class: the value is defined (each bin's fraction is
        0 or 1). O(n) on the first call, O(1) cached. No LingPipe or
        trec_eval counterpart.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([False, True, True, True], [0.2, 0.2, 0.8, 0.8])
        >>> round(ev.expected_calibration_error(n_bins=5), 6)
        0.25
        """
        n_bins, norm, strategy, debias = check_ece_options(n_bins, norm, strategy, debias, "expected_calibration_error")

        def build(g: K.Groups) -> float:
            if g.scores.size == 0:
                return float("nan")
            # the bins are kept: the plain and the debiased error (and each norm) of the same bins sum once
            b = self._cached(("ece_bins", n_bins, strategy), lambda: K.calibration_bins(g, K.edges(g, n_bins, strategy), "left"))
            return K.ece_of_bins(b, norm, debias)

        return self._calibrated(  # type: ignore[return-value]
            "expected_calibration_error", ("ece", n_bins, norm, strategy, debias), build
        )

    @_refuses_other_scores
    def brier_score(self) -> float:
        """The Brier score: the weighted mean of (score - outcome)**2, outcome 1 for a correct case, 0 otherwise.

        Returns
        -------
        float
            In [0, 1], lower is better; NaN when no case is scored.

        Notes
        -----
        Equal to scikit-learn's ``brier_score_loss`` (``sample_weight``
        too). Misses have no score and are left out. Defined with one class.
        :meth:`reliability_diagram` decomposes it (MCB - DSC + UNC). O(n) on
        the first call, O(1) cached. No LingPipe or trec_eval counterpart.

        {refused}
        >>> ev.add_cases([True, False], [0.75, 0.5])
        >>> ev.brier_score()
        0.15625
        """
        return self._calibrated("brier_score", ("brier",), K.brier_score)  # type: ignore[return-value]

    @_refuses_other_scores
    def log_loss(self) -> float:
        """The log loss: the weighted mean of -log(score) over correct and -log(1 - score) over incorrect cases.

        Scores are clipped to [eps, 1 - eps], eps the float64 machine epsilon,
        as scikit-learn's ``log_loss`` clips them, so 0.0 and 1.0 give a large
        finite loss.

        Returns
        -------
        float
            >= 0, lower is better; NaN when no case is scored.

        Notes
        -----
        Equal to scikit-learn's ``log_loss(y, p, labels=[0, 1])``
        (``sample_weight`` too; defined with one class). Misses have no score
        and are left out. O(n) on the first call, O(1) cached. No LingPipe or
        trec_eval counterpart.

        {refused}
        >>> ev.add_cases([True, False], [0.5, 0.5])
        >>> round(ev.log_loss(), 6)
        0.693147
        """
        return self._calibrated(  # type: ignore[return-value]
            "log_loss", ("log_loss",), lambda g: K.log_loss(g, self._calibration_logs("log_loss") if g.scores.size else None)
        )

    def reliability_diagram(
        self, confidence: float = 0.9, n_resamples: int = 100, seed: int | None = 0
    ) -> K.ReliabilityDiagram:
        """The CORP reliability diagram: the isotonic recalibration of the scores, no bins, and the Brier decomposition.

        CORP (Dimitriadis, Gneiting & Jordan 2021): the pool-adjacent-violators
        (PAV) fit of the outcomes on the scores, nondecreasing, weighted,
        evaluated at each distinct score, and the decomposition of the Brier
        score ``brier = mcb - dsc + unc`` into miscalibration (MCB = Brier of
        the scores - Brier of the fit), discrimination (DSC = UNC - Brier of
        the fit) and uncertainty (UNC = ybar (1 - ybar), the Brier of the base
        rate ybar).

        Parameters
        ----------
        confidence : float, default 0.9
            The level of the consistency band, strictly between 0 and 1.
        n_resamples : int, default 100
            Resamples of the band (0: no band). Each draws every case's
            outcome from its own score (a calibrated model's outcomes) and
            refits; the band at each distinct score is the (1 - confidence) / 2
            and (1 + confidence) / 2 quantiles of the refitted values.
        seed : int or None, default 0
            Seeds ``numpy.random.default_rng``: the same seed, the same band.

        Returns
        -------
        ReliabilityDiagram
            ``scores`` (distinct, ascending), ``recalibrated``, ``mcb``,
            ``dsc``, ``unc``, ``brier``, ``lower``, ``upper`` (None without
            resamples), ``confidence``. Empty arrays and NaN measures when no
            case is scored; one class: MCB = Brier, DSC = UNC = 0.

        Raises
        ------
        ValueError
            A score outside [0, 1] (named), a ``confidence`` outside (0, 1),
            a negative ``n_resamples``, a bad ``seed``.

        Notes
        -----
        ``recalibrated`` equals scikit-learn's ``IsotonicRegression().fit(p, y,
        sample_weight=w).predict(scores)``. Tied scores are one point (their
        outcomes pooled); misses have no score and are left out. The fit and
        decomposition are O(n) (the scores are already sorted: PAV is one
        pass); the band costs O(n_resamples * G) time and memory for G
        distinct scores: n_resamples isotonic fits, and an (n_resamples, G)
        float64 array, e.g. 800 MB for the default 100 resamples of 1,000,000
        distinct scores. ``n_resamples=0`` gives the fit and the
        decomposition alone. Cached for the same arguments. No LingPipe or
        trec_eval counterpart.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([False, True, False, True], [0.2, 0.4, 0.6, 0.8])
        >>> d = ev.reliability_diagram(n_resamples=0)
        >>> d.recalibrated.tolist()
        [0.0, 0.5, 0.5, 1.0]
        >>> round(d.mcb - d.dsc + d.unc, 12) == round(ev.brier_score(), 12)
        True
        """
        confidence, n_resamples, seed = check_reliability_options(confidence, n_resamples, seed, "reliability_diagram")

        def build(g: K.Groups) -> K.ReliabilityDiagram:
            d = K.corp(g, confidence, n_resamples, seed)
            for a in (d.scores, d.recalibrated, d.lower, d.upper):
                if a is not None:
                    _readonly(a)
            return d

        if seed is None:  # a fresh band each call: nothing to cache
            return build(self._calibration_groups("reliability_diagram"))
        return self._calibrated(  # type: ignore[return-value]
            "reliability_diagram", ("reliability", confidence, n_resamples, seed), build
        )

    def calibration_slope_intercept(self) -> tuple[float, float]:
        """The logistic recalibration (Cox 1958): the slope and intercept of logit P(correct) = a + b logit(score).

        Returns
        -------
        slope, intercept : float
            The maximum likelihood fit (weighted), by Newton's method. A
            calibrated model has slope 1 and intercept 0; a slope below 1 means
            scores too extreme (overconfident). NaN, NaN when no case is
            scored, with one class, with one distinct score, or when the
            classes are separated by the score (the estimate is infinite).

        Raises
        ------
        ValueError
            A score outside [0, 1] (named in the message).

        Notes
        -----
        Scores are clipped to [eps, 1 - eps] (eps the float64 machine epsilon,
        as :meth:`log_loss`) before the logit, so 0.0 and 1.0 have finite
        logits. Equal, within 1e-6, to ``statsmodels``' ``Logit(y,
        add_constant(logit(p)))`` (weighted: ``GLM(..., Binomial(),
        freq_weights=w)``). Tied scores are one term; misses have no score
        and are left out. O(n) on the first call (each Newton step O(G)), O(1)
        cached. No LingPipe or trec_eval counterpart.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([False, False, True, False, True, True, True, False],
        ...              [0.2, 0.2, 0.2, 0.5, 0.5, 0.8, 0.8, 0.8])
        >>> slope, intercept = ev.calibration_slope_intercept()
        >>> round(slope, 6), abs(round(intercept, 6))
        (0.5, 0.0)
        """
        func = "calibration_slope_intercept"
        return self._calibrated(  # type: ignore[return-value]
            func, ("slope_intercept",), lambda g: K.slope_intercept(g, self._calibration_logs(func) if g.scores.size >= 2 else None)
        )


adopt(CalibrationQueries)
