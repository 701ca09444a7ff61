"""The exact evaluator's the threshold queries: a mixin of :class:`ScoredPrecisionRecallEvaluation`.

Its queries at a score threshold: the ROC points with their thresholds, the thresholds that reach a
precision, a recall or the maximum F, and the confusion counts, precision, recall and F at a threshold.
The methods validate, cache and delegate to :mod:`scored_pr._core`, reading the evaluator's stored cases and
memo through :class:`scored_pr._evaluators.exact_base.ExactShell`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .._core import points as P, thresholds as T
from .._validation import check_beta, check_fraction, check_score
from .exact_base import ExactShell, adopt, readonly as _readonly

__all__ = ["ThresholdQueries"]


class ThresholdQueries(ExactShell):
    """The the threshold queries of :class:`scored_pr.ScoredPrecisionRecallEvaluation` (a mixin; it holds no state)."""

    __slots__ = ()

    # ---------------------------------------------------------------- thresholds

    def roc_points(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The ROC curve as users plot it: (fpr, tpr, thresholds), scikit-learn's layout.

        One point per distinct score, whatever the tie policy (a threshold
        cannot split a tie), in descending threshold order, after a first
        point (0, 0) at threshold ``inf``: the layout of scikit-learn's
        ``roc_curve(y_true, y_score, drop_intermediate=False)``, which this
        equals when there are no misses. fpr = FP / num_negative_ref, tpr =
        TP / num_positive_ref (misses count in the denominator, so with
        misses tpr stops below 1). NaN for 0/0 (one class missing); empty
        input gives the single point (0, 0, inf) (NaN rates).

        :meth:`roc_curve` gives the same information in LingPipe's layout:
        (recall, rejection recall) = (tpr, 1 - fpr) rows, one per operating
        point of the tie policy.

        Returns
        -------
        fpr, tpr, thresholds : numpy.ndarray of float64, shape (n_distinct + 1,)

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.7, 0.7, 0.1])
        >>> fpr, tpr, thresholds = ev.roc_points()
        >>> fpr.tolist(), tpr.tolist(), thresholds.tolist()
        ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0], [inf, 0.9, 0.7, 0.1])
        """

        def build() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
            cut = self._cutoffs()
            tp = np.concatenate(([0], cut.tp))
            fp = np.concatenate(([0], cut.fp))
            with np.errstate(divide="ignore", invalid="ignore"):
                fpr = fp / np.float64(self._neg_ref())
                tpr = tp / np.float64(self._pos_ref())
            thresholds = np.concatenate(([np.inf], cut.score)).astype(np.float64)
            return _readonly(fpr), _readonly(tpr), _readonly(thresholds)

        return self._cached_weak("roc_points", build)

    def threshold_at_precision(self, precision: float) -> T.OperatingPoint:
        """The lowest score threshold whose precision is >= ``precision``.

        Thresholds are the distinct scores (accept every case scored >= the
        threshold), whatever the tie policy, since a threshold cannot split a
        tie. The lowest qualifying threshold has the highest recall.

        Precision is compared as the curves report it, weighted or not: the
        float64 value of TP / (TP + FP) >= ``precision``, which is how
        scikit-learn's ``precision_recall_curve`` computes its rows (equal
        to them with ``sample_weight``, grouped or stable ties, no misses).
        An integer weight k gives what k copies of the case give.

        Returns
        -------
        OperatingPoint
            (threshold, precision, recall, k); NaN fields and k = 0 when no
            threshold reaches the precision.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, True, False, True, False], [0.9, 0.8, 0.7, 0.6, 0.5])
        >>> ev.threshold_at_precision(0.75)
        OperatingPoint(threshold=0.6, precision=0.75, recall=1.0, k=4)
        """
        precision = check_fraction(precision, "threshold_at_precision", "precision", low_open=False)
        return T.threshold_at_precision(self._cutoffs(), self._pos_ref(), precision)

    def threshold_at_recall(self, recall: float) -> T.OperatingPoint:
        """The highest score threshold whose recall is >= ``recall``.

        Thresholds are the distinct scores, as for
        :meth:`threshold_at_precision`. Recall is compared as the curves
        report it, weighted or not: the float64 value of TP /
        num_positive_ref (weighted: TP weight / :attr:`positive_weight`) >=
        ``recall``, as in scikit-learn's ``precision_recall_curve``. So a
        recall read from :meth:`pr_curve` or :meth:`pr_score_curve` and
        passed back returns the threshold of that row (with grouped ties;
        with stable ties, a row inside a tie group gives its group's
        threshold), and an integer weight k gives what k copies give.
        NaN fields (k = 0) with no positive reference or when unreachable
        (misses).

        Returns
        -------
        OperatingPoint
            (threshold, precision, recall, k).

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, True, False, True, False], [0.9, 0.8, 0.7, 0.6, 0.5])
        >>> ev.threshold_at_recall(0.5)
        OperatingPoint(threshold=0.8, precision=1.0, recall=0.6666666666666666, k=2)
        """
        recall = check_fraction(recall, "threshold_at_recall", "recall", low_open=False)
        return T.threshold_at_recall(self._cutoffs(), self._pos_ref(), recall)

    def maximum_f_measure_threshold(self, beta: float = 1.0) -> T.OperatingPoint:
        """The score threshold with the greatest F-beta (the highest one on a tie).

        Unlike :meth:`maximum_f_measure`, which with stable ties may pick a
        point inside a tie group, this considers only achievable thresholds.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, True, False, True, False], [0.9, 0.8, 0.7, 0.6, 0.5])
        >>> ev.maximum_f_measure_threshold()
        OperatingPoint(threshold=0.6, precision=0.75, recall=1.0, k=4)
        """
        beta = check_beta(beta, "maximum_f_measure_threshold")
        return T.maximum_f_measure_threshold(self._cutoffs(), self._pos_ref(), beta)

    def confusion_at_threshold(self, threshold: float) -> T.Confusion:
        """The confusion counts of accepting every case scored >= ``threshold``.

        TP and FP are the correct and incorrect cases with score >=
        ``threshold``; FN = num_positive_ref - TP (misses, never returned,
        are FN at every threshold) and TN = num_negative_ref - FP (negative
        misses are TN). A threshold cannot split a tie group: all cases with
        one score are on the same side, whatever the tie policy. Weighted:
        sums of weights (misses weigh 1), the counts of scikit-learn's
        ``confusion_matrix(y, score >= threshold, sample_weight=w)``.

        Parameters
        ----------
        threshold : float
            Accept every case whose score is >= it; ``inf`` and ``-inf``
            allowed (``-inf`` accepts every returned case).

        Returns
        -------
        Confusion
            ``(tp, fp, tn, fn)``: ints, or floats when weighted. All zero on
            an empty evaluator.

        Raises
        ------
        TypeError, ValueError
            If ``threshold`` is not a real number, or is NaN.

        Notes
        -----
        Not in LingPipe (its ``ScoredPrecisionRecallEvaluation`` has no
        threshold queries). O(log d) for d distinct scores after the first
        query.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.7, 0.7, 0.1]); ev.add_misses(1)
        >>> ev.confusion_at_threshold(0.7)
        Confusion(tp=2, fp=1, tn=1, fn=1)
        """
        threshold = check_score(threshold, "confusion_at_threshold", "threshold")
        return T.confusion_at_threshold(self._cutoffs(), threshold, self._pos_ref(), self._neg_ref())

    def precision_at_threshold(self, threshold: float) -> float:
        """Precision of accepting every case scored >= ``threshold``: TP / (TP + FP).

        TP and FP as in :meth:`confusion_at_threshold` (a whole tie group is
        on one side of the threshold; weighted: sums of weights). NaN (0/0)
        when no case is accepted, as :meth:`precision_at` is NaN past the
        returned cases; with only incorrect cases, 0.0 wherever something is
        accepted.

        Raises
        ------
        TypeError, ValueError
            If ``threshold`` is not a real number, or is NaN.

        Notes
        -----
        Not in LingPipe. Equal to scikit-learn's ``precision_score(y, score
        >= threshold)`` (its ``zero_division`` aside: NaN here).

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> ev.precision_at_threshold(0.7), ev.precision_at_threshold(1.0)
        (0.6666666666666666, nan)
        """
        threshold = check_score(threshold, "precision_at_threshold", "threshold")
        c = T.confusion_at_threshold(self._cutoffs(), threshold, 0, 0)
        accepted = c.tp + c.fp
        return c.tp / accepted if accepted else float("nan")

    def recall_at_threshold(self, threshold: float) -> float:
        """Recall of accepting every case scored >= ``threshold``: TP / num_positive_ref.

        TP as in :meth:`confusion_at_threshold` (a whole tie group is on one
        side of the threshold); the denominator counts misses (weighted:
        :attr:`positive_weight`), so with misses recall stays below 1 even at
        ``-inf``. NaN (0/0) when there is no positive reference; 0.0 with
        positives but none accepted.

        Raises
        ------
        TypeError, ValueError
            If ``threshold`` is not a real number, or is NaN.

        Notes
        -----
        Not in LingPipe. Equal to scikit-learn's ``recall_score(y, score >=
        threshold)`` without misses.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1]); ev.add_misses(2)
        >>> ev.recall_at_threshold(0.75), ev.recall_at_threshold(float("-inf"))
        (0.25, 0.5)
        """
        threshold = check_score(threshold, "recall_at_threshold", "threshold")
        pos_ref = self._pos_ref()
        c = T.confusion_at_threshold(self._cutoffs(), threshold, pos_ref, 0)
        return c.tp / pos_ref if pos_ref else float("nan")

    def f_measure_at_threshold(self, threshold: float, beta: float = 1.0) -> float:
        """F-beta of accepting every case scored >= ``threshold``.

        F = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP), the weighted
        harmonic mean of :meth:`precision_at_threshold` and
        :meth:`recall_at_threshold`, with TP, FP, FN as in
        :meth:`confusion_at_threshold` (misses are FN; a whole tie group is
        on one side of the threshold; weighted: sums of weights). NaN (0/0)
        when nothing is accepted and there is no positive reference; 0.0
        when TP is 0 otherwise. The same formula as :meth:`f_measure_at`,
        with the accepted set chosen by score instead of by rank.

        Raises
        ------
        TypeError, ValueError
            If ``threshold`` is not a real number or is NaN, or ``beta`` is
            not a finite real number > 0.

        Notes
        -----
        Not in LingPipe. Equal to scikit-learn's ``fbeta_score(y, score >=
        threshold, beta=beta)`` without misses (its ``zero_division`` aside).

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> ev.f_measure_at_threshold(0.7)  # P = 2/3, R = 1
        0.8
        """
        threshold = check_score(threshold, "f_measure_at_threshold", "threshold")
        beta = check_beta(beta, "f_measure_at_threshold")
        pos_ref = self._pos_ref()
        c = T.confusion_at_threshold(self._cutoffs(), threshold, pos_ref, 0)
        return T.f_measure(c.tp, c.tp + c.fp, pos_ref, beta)



adopt(ThresholdQueries)
