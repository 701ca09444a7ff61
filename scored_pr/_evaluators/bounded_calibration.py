"""The bounded kind's calibration queries: a mixin of :class:`~scored_pr.BoundedEvaluation`.

The summary keeps :mod:`scored_pr._core.calibration_sums` (per-cell sums at fixed
uniform edges and four totals), so the binned expected calibration error, the
binned reliability curve, the Brier score and the log loss are answered exactly
(the exact evaluator's formulas over the same sums; only the order of the
floating-point additions differs, so they agree to rounding). What needs every
distinct score (quantile bins, CORP's isotonic fit, the logistic recalibration)
is refused with :class:`~scored_pr.UnsupportedQuery` saying why.
"""

from __future__ import annotations

import math
from typing import Any, Callable, TypeVar

import numpy as np
import numpy.typing as npt

from .._core import calibration as K
from .._core import calibration_sums as CS
from .._validation import check_calibration_bins, check_ece_options, check_probability_scores
from .base import unsupported
from .bounded_queries import Bounds

__all__ = ["BoundedCalibration"]

_CLS = "BoundedEvaluation"
_T = TypeVar("_T")
_KEEP_EXACT = "keep a ScoredPrecisionRecallEvaluation (BoundedEvaluation.from_evaluation summarises one)"


#: The unit roundoff of float64 (half its machine epsilon).
_U = 2.0**-53


def _rounding(value: float, n: int, factor: int, root: bool = False) -> Bounds:
    """``value`` with bounds on the rounding that separates it from the exact evaluator's float.

    The summary and the evaluator add the same terms in other orders: a sum of n terms of one
    sign is off by at most (n - 1) u times their total (u the unit roundoff), for each of them.
    ``factor`` covers the few sums, products and quotients of a measure (and their magnitude:
    every calibration measure here is at most 1, the log loss's terms at most 37); ``root``: the
    value is the square root of such a quantity, whose bound is taken before the root.
    """
    if math.isnan(value):
        return Bounds(value, value, value)
    delta = factor * (n + 8) * _U * (1.0 + abs(value) * (1.0 if root else 37.0))
    if root:
        sq = value * value
        return Bounds(value, math.sqrt(max(sq - delta, 0.0)), math.sqrt(sq + delta))
    return Bounds(value, value - delta, value + delta)


def _readonly(a: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    a.flags.writeable = False
    return a


class BoundedCalibration:
    """The calibration queries of a bounded summary (a mixin; the summary holds the state).

    The subclass keeps ``_calibration_bins`` (the stored bin count, or None: no
    calibration kept), ``_calib`` (the sums, or None when some cases were added
    without them: a state written before the summary kept them) and provides
    ``_flush`` and ``_cached``.
    """

    __slots__ = ()

    _calibration_bins: int | None
    _calib: CS.CalibrationSums | None
    _num_cases: int
    _flush: Callable[[], None]
    _cached: Callable[[Any, Callable[[], Any]], Any]

    @property
    def calibration_bins(self) -> int | None:
        """The uniform calibration bins on [0, 1] the summary keeps sums for (None: none kept)."""
        return self._calibration_bins

    def _sums(self, func: str) -> CS.CalibrationSums:
        """The calibration sums after the refusals: none kept (UnsupportedQuery), a score outside [0, 1] (ValueError)."""
        self._flush()
        if self._calibration_bins is None:
            raise unsupported(
                _CLS, func, "this summary was built with calibration_bins=None and keeps no calibration sums",
                f"build it with calibration_bins=15 (the default), or {_KEEP_EXACT}",
            )
        sums = self._calib
        if sums is None:
            raise unsupported(
                _CLS, func,
                "this summary holds cases added without calibration sums (a state saved by scored_pr 0.1.0, "
                "which kept none, or a merge with one)",
                f"rebuild it from the cases, or {_KEEP_EXACT}",
            )
        if sums.bad is not None:
            check_probability_scores(sums.bad, sums.bad, func)
        return sums

    def _coarse_bins(self, sums: CS.CalibrationSums, n_bins: int, strategy: str, func: str) -> None:
        """Refuse bins the stored sums cannot give exactly (UnsupportedQuery naming the bin counts that work)."""
        if strategy != "uniform":
            raise unsupported(
                _CLS, func, "quantile bins need the scores' quantiles, which a summary does not keep",
                f"use strategy='uniform' with n_bins in {CS.coarse_counts(sums.n_bins)}, or {_KEEP_EXACT}",
            )
        counts = CS.coarse_counts(sums.n_bins)
        if n_bins not in counts:
            raise unsupported(
                _CLS, func,
                f"the summary keeps {sums.n_bins} uniform bins, which give exactly n_bins in {counts} only "
                f"(bins whose edges are stored edges); n_bins={n_bins} is not one",
                f"pass one of those, build the summary with calibration_bins={n_bins}, or {_KEEP_EXACT}",
            )

    def scores_are_probabilities(self) -> bool:
        """Whether the summary answers its calibration queries: a case was added, every score in [0, 1], sums kept.

        The calibration measures of ``summary()`` (``expected_calibration_error``,
        ``brier_score``) are there exactly when this is true. O(1) after the
        buffer of single cases is binned.

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation()
        >>> s.add_cases([True, False], [0.9, 0.0])
        >>> s.scores_are_probabilities(), "brier_score" in s.summary()
        (True, True)
        >>> s.add_case(False, 2.5)
        >>> s.scores_are_probabilities()
        False
        """
        self._flush()
        sums = self._calib
        return self._calibration_bins is not None and sums is not None and sums.bad is None and self._num_cases > 0

    def expected_calibration_error(
        self, n_bins: int = 15, norm: str = "l1", strategy: str = "uniform", debias: bool = False
    ) -> float:
        """The binned calibration error, exactly as the exact evaluator computes it (see its docstring).

        With bins b of weight share w_b, fraction correct acc_b and mean score
        conf_b: ``"l1"`` (ECE) is sum_b w_b abs(acc_b - conf_b), ``"l2"`` is
        sqrt(sum_b w_b (acc_b - conf_b)**2), ``"max"`` is max_b abs(acc_b - conf_b);
        ``debias`` is Kumar, Liang & Ma's estimator on the same bins.

        Parameters
        ----------
        n_bins : int, default 15
            Uniform bins; answered for the stored ``calibration_bins`` and for
            the divisors of it whose edges are stored edges bit for bit (15:
            1, 3 and 15), whose sums are the stored bins' added together.
        norm : {"l1", "l2", "max"}, default "l1"
        strategy : {"uniform"}, default "uniform"
        debias : bool, default False

        Returns
        -------
        Bounds
            The exact evaluator's value on the same cases, to rounding (the
            sums are added in another order): ``lower`` and ``upper`` bound
            that rounding (a relative width of about the number of cases
            times 1e-15). NaN when no case was added.

        Raises
        ------
        UnsupportedQuery
            ``strategy="quantile"`` (the quantiles are not kept), an
            ``n_bins`` the stored bins cannot give (the message lists those
            that work), or no calibration sums kept.
        ValueError
            A score outside [0, 1] was ever added (the first such score is
            named), or a bad option (as the exact evaluator's).

        Notes
        -----
        Bins are closed on the left ([e_i, e_{i+1}), 1.0 in the last), tied
        scores share a bin, misses have no score and are left out; one class:
        defined. O(calibration_bins). No LingPipe or trec_eval counterpart.

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation()
        >>> s.add_cases([False, True, True, True], [0.2, 0.2, 0.8, 0.8])
        >>> round(float(s.expected_calibration_error(n_bins=15)), 6)
        0.25
        """
        func = "expected_calibration_error"
        n_bins, norm, strategy, debias = check_ece_options(n_bins, norm, strategy, debias, func)
        sums = self._sums(func)
        self._coarse_bins(sums, n_bins, strategy, func)
        if self._num_cases == 0:
            return Bounds(math.nan, math.nan, math.nan)
        n, factor = self._num_cases, 64 if debias else 16
        return self._cached(  # type: ignore[no-any-return]
            ("ece", n_bins, norm, debias),
            lambda: _rounding(K.ece_of_bins(CS.coarse(sums, n_bins, "left"), norm, debias), n, factor, norm == "l2"),
        )

    def calibration_curve(
        self, n_bins: int = 5, strategy: str = "uniform"
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The binned reliability curve (fraction correct, mean score) of each non-empty bin, as the exact evaluator's.

        Bins closed on the right ((e_i, e_{i+1}], 0.0 in the first), as
        scikit-learn's ``calibration_curve``. ``n_bins`` must be one the
        stored bins give exactly (see :meth:`expected_calibration_error`:
        with the default 15 stored bins, 1, 3 or 15; the default 5 is not,
        since ``linspace(0, 1, 6)``'s edges are not ``linspace(0, 1, 16)``'s).

        Returns
        -------
        prob_true, prob_pred : ndarray of float64
            Read-only, bins ascending; empty when no case was added.

        Raises
        ------
        UnsupportedQuery, ValueError
            As :meth:`expected_calibration_error`.

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation()
        >>> s.add_cases([False, False, True, True], [0.1, 0.4, 0.6, 0.9])
        >>> prob_true, prob_pred = s.calibration_curve(n_bins=3)
        >>> prob_true.tolist(), prob_pred.round(6).tolist()
        ([0.0, 0.5, 1.0], [0.1, 0.5, 0.9])
        """
        func = "calibration_curve"
        n_bins, strategy = check_calibration_bins(n_bins, strategy, func)
        sums = self._sums(func)
        self._coarse_bins(sums, n_bins, strategy, func)

        def build() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
            true, pred = K.curve_of_bins(CS.coarse(sums, n_bins, "right"))
            return _readonly(true), _readonly(pred)

        return self._cached(("calibration_curve", n_bins), build)  # type: ignore[no-any-return]

    def brier_score(self) -> float:
        """The Brier score, (sum w s**2 - 2 sum_pos w s + W_pos) / W: the exact evaluator's to rounding.

        Returns
        -------
        Bounds
            In [0, 1], lower is better, with bounds on the rounding (as
            :meth:`expected_calibration_error`); NaN when no case was added. Misses are
            left out; defined with one class. O(calibration_bins). No LingPipe
            or trec_eval counterpart.

        Raises
        ------
        UnsupportedQuery, ValueError
            No calibration sums kept; a score outside [0, 1] was added (named).

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation()
        >>> s.add_cases([True, False], [0.75, 0.5])
        >>> b = s.brier_score()
        >>> float(b), b.lower <= 0.15625 <= b.upper
        (0.15625, True)
        """
        sums = self._sums("brier_score")
        return self._cached(("brier",), lambda: _rounding(CS.brier_score(sums), self._num_cases, 16))  # type: ignore[no-any-return]

    def log_loss(self) -> float:
        """The log loss, -(sum_pos w log s + sum_neg w log(1 - s)) / W, s clipped to [eps, 1 - eps].

        The summary keeps the sum of the clipped log terms, so the value is
        the exact evaluator's (scikit-learn's ``log_loss``) to rounding.

        Returns
        -------
        Bounds
            >= 0, lower is better, with bounds on the rounding; NaN when no case was added. Misses are left
            out; defined with one class. O(1). No LingPipe or trec_eval
            counterpart. Raises as :meth:`brier_score`.

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> coin = BoundedEvaluation(max_bins=8)
        >>> coin.add_cases([True, False], [0.5, 0.5]); round(float(coin.log_loss()), 6)
        0.693147
        """
        sums = self._sums("log_loss")
        return self._cached(("log_loss",), lambda: _rounding(CS.log_loss(sums), self._num_cases, 16))  # type: ignore[no-any-return]
