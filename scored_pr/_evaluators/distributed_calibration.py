"""The calibration queries of a result computed in the cluster: a mixin of :class:`scored_pr.DistributedEvaluation`.

The engines sum, per partition, each uniform calibration bin's weight,
positive weight, score sum and squared weights, the Brier score's and the log
loss's terms, and the extreme scores
(:mod:`scored_pr._core.partitioned_calibration`); the driver adds them. The
queries here answer from those sums with the exact evaluator's formulas
(:func:`scored_pr._core.calibration.ece_of_bins` and ``curve_of_bins``), its
checks and its messages: a score outside [0, 1] is refused with the
evaluator's ValueError, naming the score. Quantile bins, and bin counts the
cluster did not sum, raise :class:`~scored_pr.UnsupportedQuery` saying why.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import calibration as K
from .._core.partitioned_calibration import CalibrationSums
from .._validation import check_calibration_bins, check_ece_options, check_probability_scores
from .base import unsupported

_CLS = "DistributedEvaluation"
_QUANTILE = ("quantile bins' edges are the scores' weighted percentiles, which need every row ranked across the "
             "partitions; the cluster sums uniform bins only")


class DistributedCalibration:
    """``expected_calibration_error``, ``brier_score``, ``log_loss``, ``calibration_curve`` from the cluster's sums."""

    _v: dict[str, Any]

    def _sums(self, func: str) -> CalibrationSums:
        """The sums, after refusing scores outside [0, 1] as the exact evaluator does (ValueError naming one)."""
        sums: CalibrationSums | None = self._v.get("calibration")
        if sums is None:  # a result pickled before the engines summed calibration
            raise unsupported(_CLS, func, "this result holds no calibration sums (a slice of evaluate(by=...), or "
                              "a result of an earlier scored_pr)", "evaluate the rows (of the slice) without by=")
        if sums.rows:
            check_probability_scores(sums.lowest, sums.highest, func)
        return sums

    def _bins(self, sums: CalibrationSums, func: str, n_bins: int, strategy: str, closed: str) -> K.CalibrationBins:
        if strategy != "uniform":
            raise unsupported(_CLS, f"{func}(strategy={strategy!r})", _QUANTILE,
                              "use strategy='uniform', or evaluate the rows with ScoredPrecisionRecallEvaluation")
        if (n_bins, closed) not in sums.bins:
            have = ", ".join(str(n) for n, c in sums.bins if c == closed)
            raise unsupported(_CLS, f"{func}(n_bins={n_bins})",
                              f"{n_bins} bins were not summed in the cluster (bin counts: {have})",
                              f"pass calibration_bins=({n_bins},) to evaluate")
        return sums.calibration_bins(n_bins, closed)

    def scores_are_probabilities(self) -> bool:
        """Whether at least one row is scored and every score lies in [0, 1] (``summary()`` then has ECE and Brier)."""
        sums: CalibrationSums | None = self._v.get("calibration")
        return sums is not None and bool(sums.rows) and sums.lowest >= 0.0 and sums.highest <= 1.0

    def expected_calibration_error(
        self, n_bins: int = 15, norm: str = "l1", strategy: str = "uniform", debias: bool = False
    ) -> float:
        """The binned calibration error, from the cluster's bin sums (``ScoredPrecisionRecallEvaluation.expected_calibration_error``).

        With bins b of weight share w_b, fraction correct acc_b and mean score
        conf_b: ``"l1"`` is sum_b w_b abs(acc_b - conf_b), ``"l2"`` sqrt(sum_b
        w_b (acc_b - conf_b)**2), ``"max"`` max_b abs(acc_b - conf_b); the
        bins are uniform, closed on the left (the last one holds 1.0), and the
        debiased estimator (l1, l2) is the evaluator's, on each bin's effective
        size. Tied rows share a bin; misses have no score and are left out.
        NaN without a row; defined with one class.

        Answered for the bin counts summed in the cluster: 5, 10, 15 and every
        count passed as ``calibration_bins=`` to ``evaluate``; another count,
        and ``strategy="quantile"``, raise :class:`~scored_pr.UnsupportedQuery`.
        Equal to the evaluator's value within 1e-12 relative (the sums are
        added in another order). No LingPipe or trec_eval counterpart.

        Raises
        ------
        ValueError
            A score outside [0, 1] (named), or a bad argument (as the evaluator).
        """
        func = "expected_calibration_error"
        n_bins, norm, strategy, debias = check_ece_options(n_bins, norm, strategy, debias, func)
        sums = self._sums(func)
        b = self._bins(sums, func, n_bins, strategy, "left")
        return K.ece_of_bins(b, norm, debias) if sums.rows else math.nan

    def calibration_curve(
        self, n_bins: int = 5, strategy: str = "uniform"
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(fraction of correct rows, mean score) of each non-empty uniform bin, closed on the right.

        ``ScoredPrecisionRecallEvaluation.calibration_curve`` (scikit-learn's
        ``calibration_curve``) from the cluster's bin sums: the same bins and
        order; empty arrays without a row. Bin counts and strategies as
        :meth:`expected_calibration_error`; within 1e-12 relative.
        """
        func = "calibration_curve"
        n_bins, strategy = check_calibration_bins(n_bins, strategy, func)
        sums = self._sums(func)
        b = self._bins(sums, func, n_bins, strategy, "right")
        true, pred = K.curve_of_bins(b) if sums.rows else (np.zeros(0), np.zeros(0))
        for a in (true, pred):
            a.setflags(write=False)
        return true, pred

    def brier_score(self) -> float:
        """The weighted mean of (score - outcome)**2 over the rows (``ScoredPrecisionRecallEvaluation.brier_score``).

        In [0, 1], lower is better; NaN without a row; misses left out; within
        1e-12 relative of the evaluator's value (scikit-learn's
        ``brier_score_loss``). Raises ValueError naming a score outside [0, 1].
        """
        sums = self._sums("brier_score")
        return sums.brier / sums.weight if sums.rows else math.nan

    def log_loss(self) -> float:
        """The weighted mean of -log(score) (correct rows) or -log(1 - score) (the others), scores clipped to [eps, 1 - eps].

        ``ScoredPrecisionRecallEvaluation.log_loss`` (scikit-learn's
        ``log_loss(labels=[0, 1])``) within 1e-12 relative; NaN without a
        row; misses left out. Raises ValueError naming a score outside [0, 1].
        """
        sums = self._sums("log_loss")
        return sums.log_loss / sums.weight if sums.rows else math.nan
