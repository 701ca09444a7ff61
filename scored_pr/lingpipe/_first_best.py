"""LingPipe's first-best ``PrecisionRecallEvaluation``: one 2x2 table and its statistics.

A first-best (thresholded) evaluation has no scores: each case is a
(reference, response) pair of booleans, counted into true positives (TP),
false negatives (FN), false positives (FP) and true negatives (TN). Every
statistic is a closed formula over the four counts, computed in the same
order of float64 operations as LingPipe's Java source, so the values agree
bit for bit; a zero denominator gives what Java gives (NaN for 0/0,
Infinity for x/0), never an exception.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._validation import check_arity, check_count, check_flag, fail
from ._javafmt import double_to_string
from ._javamath import div, sqrt

__all__ = ["PrecisionRecallEvaluation"]


def _f_measure(beta: float, recall: float, precision: float) -> float:
    # LingPipe's static fMeasure(beta, recall, precision), operation for operation.
    beta_sq = beta * beta
    return div((1.0 + beta_sq) * recall * precision, recall + (beta_sq * precision))


def _real(value: Any, func: str, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise fail(TypeError, func, name, "a real number", value)
    return float(value)


class PrecisionRecallEvaluation:
    """LingPipe's ``PrecisionRecallEvaluation``: counts of a first-best binary decision.

    Parameters
    ----------
    tp, fn, fp, tn : int, default 0
        Initial counts of true positives, false negatives, false positives
        and true negatives, *in LingPipe's argument order* (``tp, fn, fp,
        tn``). Each a non-negative int.

    Raises
    ------
    TypeError, ValueError
        If a count is not a non-negative int (LingPipe: IllegalArgumentException).

    Notes
    -----
    Java name: ``com.aliasi.classify.PrecisionRecallEvaluation`` (the same
    class and formulas in LingPipe 3.9.2 and 4.1). Definitions, with
    ``div`` Java's float64 division (0/0 = NaN, x/0 = Infinity):

    * ``accuracy = (TP+TN)/total``, ``recall = TP/(TP+FN)``,
      ``precision = TP/(TP+FP)``, ``rejectionRecall = TN/(TN+FP)``,
      ``rejectionPrecision = TN/(TN+FN)``;
    * ``fMeasure(beta) = (1+beta^2)*R*P / (R + beta^2*P)``;
    * ``jaccardCoefficient = TP/(TP+FN+FP)``;
    * ``fowlkesMallows = TP / sqrt(P*R)``: LingPipe's formula, which is *not*
      the Fowlkes-Mallows index sqrt(P*R) (LingPipe's own tests expect 12.49
      for TP=9, FN=3, FP=4); reproduced as LingPipe computes it;
    * ``yulesQ = (TP*TN - FP*FN)/(TP*TN + FP*FN)``, ``yulesY`` the same with
      square roots of the two products;
    * ``referenceLikelihood = (TP+FN)/total``, ``responseLikelihood = (TP+FP)/total``;
    * ``randomAccuracy = ref*resp + (1-ref)*(1-resp)``,
      ``randomAccuracyUnbiased = avg^2 + (1-avg)^2`` with avg their mean;
    * ``kappa = (accuracy - e)/(1 - e)`` with e the random accuracy
      (``kappaUnbiased`` with the unbiased one), ``kappaNoPrevalence = 2*accuracy - 1``;
    * ``chiSquared = total*(TP*TN - FP*FN)^2 / ((TP+FN)(FP+TN)(TP+FP)(FN+TN))``,
      ``phiSquared = chiSquared/total``;
    * ``accuracyDeviation = sqrt(accuracy*(1-accuracy)/total)``.

    Every method has LingPipe's name and signature. No ties (there are no
    scores). An empty evaluation (or one with no
    positive reference, no positive response, ...) gives NaN for every
    ratio whose denominator is 0, as LingPipe does.

    Examples
    --------
    The Cabernet-versus-all table of LingPipe's Javadoc:

    >>> ev = PrecisionRecallEvaluation(9, 3, 4, 11)
    >>> round(ev.precision(), 4), ev.recall(), round(ev.fMeasure(), 4)
    (0.6923, 0.75, 0.72)
    >>> ev.addCase(True, False)
    >>> ev.falseNegative()
    4
    """

    __slots__ = ("_tp", "_fn", "_fp", "_tn")

    def __init__(self, tp: int = 0, fn: int = 0, fp: int = 0, tn: int = 0) -> None:
        f = "PrecisionRecallEvaluation"
        counts = (check_count(tp, f, "tp"), check_count(fn, f, "fn"), check_count(fp, f, "fp"), check_count(tn, f, "tn"))
        self._tp, self._fn, self._fp, self._tn = counts

    # ------------------------------------------------------------------ mutators

    def addCase(self, reference: bool, response: bool) -> None:
        """Count one case: whether the reference and the response are positive.

        Raises
        ------
        TypeError
            If either argument is not a bool; nothing is counted.

        Notes
        -----
        Java name: ``addCase(boolean, boolean)``. O(1).
        """
        ref = check_flag(reference, "PrecisionRecallEvaluation.addCase", "reference")
        resp = check_flag(response, "PrecisionRecallEvaluation.addCase", "response")
        self._add(ref, resp, 1)

    def _add(self, reference: bool, response: bool, count: int) -> None:
        if reference and response:
            self._tp += count
        elif reference:
            self._fn += count
        elif response:
            self._fp += count
        else:
            self._tn += count

    # -------------------------------------------------------------------- counts

    def truePositive(self) -> int:
        """TP: cases with a positive reference and a positive response."""
        return self._tp

    def falsePositive(self) -> int:
        """FP: cases with a negative reference and a positive response."""
        return self._fp

    def trueNegative(self) -> int:
        """TN: cases with a negative reference and a negative response."""
        return self._tn

    def falseNegative(self) -> int:
        """FN: cases with a positive reference and a negative response."""
        return self._fn

    def positiveReference(self) -> int:
        """TP + FN."""
        return self._tp + self._fn

    def negativeReference(self) -> int:
        """TN + FP."""
        return self._tn + self._fp

    def positiveResponse(self) -> int:
        """TP + FP."""
        return self._tp + self._fp

    def negativeResponse(self) -> int:
        """TN + FN."""
        return self._tn + self._fn

    def correctResponse(self) -> int:
        """TP + TN."""
        return self._tp + self._tn

    def incorrectResponse(self) -> int:
        """FP + FN."""
        return self._fp + self._fn

    def total(self) -> int:
        """TP + FP + TN + FN."""
        return self._tp + self._fp + self._tn + self._fn

    # ---------------------------------------------------------------- statistics

    def referenceLikelihood(self) -> float:
        """(TP+FN)/total, the prevalence; NaN when empty."""
        return div(self.positiveReference(), self.total())

    def responseLikelihood(self) -> float:
        """(TP+FP)/total; NaN when empty."""
        return div(self.positiveResponse(), self.total())

    def accuracy(self) -> float:
        """(TP+TN)/total; NaN when empty."""
        return div(self.correctResponse(), self.total())

    def recall(self) -> float:
        """TP/(TP+FN); NaN without positive references."""
        return div(self._tp, self.positiveReference())

    def precision(self) -> float:
        """TP/(TP+FP); NaN without positive responses."""
        return div(self._tp, self.positiveResponse())

    def rejectionRecall(self) -> float:
        """TN/(TN+FP), the specificity; NaN without negative references."""
        return div(self._tn, self.negativeReference())

    def rejectionPrecision(self) -> float:
        """TN/(TN+FN); NaN without negative responses."""
        return div(self._tn, self.negativeResponse())

    def fMeasure(self: Any, *args: Any) -> float:
        """F-measure: ``fMeasure()`` (beta 1), ``fMeasure(beta)``, or the static ``fMeasure(beta, recall, precision)``.

        ``(1 + beta^2) * R * P / (R + beta^2 * P)``, operation for operation as
        LingPipe; NaN when R and P are both 0 or either is NaN.

        Called on the class with three arguments
        (``PrecisionRecallEvaluation.fMeasure(beta, recall, precision)``) it is
        LingPipe's static method; on an instance with none or one it is the
        instance method.

        Raises
        ------
        TypeError
            If an argument is not a real number, or the number of arguments
            matches neither form.

        Notes
        -----
        Java names: ``fMeasure()``, ``fMeasure(double)``, static ``fMeasure(double, double, double)``.
        """
        if isinstance(self, PrecisionRecallEvaluation):
            if len(args) == 0:
                return _f_measure(1.0, self.recall(), self.precision())
            if len(args) == 1:
                beta = _real(args[0], "PrecisionRecallEvaluation.fMeasure", "beta")
                return _f_measure(beta, self.recall(), self.precision())
            check_arity(len(args), (3,), "takes (), (beta) or (beta, recall, precision)", "PrecisionRecallEvaluation.fMeasure")
            values = args
        else:
            values = (self, *args)
            check_arity(len(values), (3,), "the static form takes (beta, recall, precision)", "PrecisionRecallEvaluation.fMeasure")
        f = "PrecisionRecallEvaluation.fMeasure"
        beta, recall, precision = (_real(v, f, n) for v, n in zip(values, ("beta", "recall", "precision")))
        return _f_measure(beta, recall, precision)

    def jaccardCoefficient(self) -> float:
        """TP/(TP+FN+FP); NaN when all three are 0."""
        return div(self._tp, self._tp + self._fn + self._fp)

    def chiSquared(self) -> float:
        """total * (TP*TN - FP*FN)^2 / ((TP+FN)(FP+TN)(TP+FP)(FN+TN)); NaN/inf on a zero margin."""
        tp, tn, fp, fn = float(self._tp), float(self._tn), float(self._fp), float(self._fn)
        tot = float(self.total())
        diff = tp * tn - fp * fn
        return div(tot * diff * diff, (tp + fn) * (fp + tn) * (tp + fp) * (fn + tn))

    def phiSquared(self) -> float:
        """chiSquared / total."""
        return div(self.chiSquared(), self.total())

    def yulesQ(self) -> float:
        """(TP*TN - FP*FN) / (TP*TN + FP*FN)."""
        tp, tn, fp, fn = float(self._tp), float(self._tn), float(self._fp), float(self._fn)
        return div(tp * tn - fp * fn, tp * tn + fp * fn)

    def yulesY(self) -> float:
        """(sqrt(TP*TN) - sqrt(FP*FN)) / (sqrt(TP*TN) + sqrt(FP*FN))."""
        tp, tn, fp, fn = float(self._tp), float(self._tn), float(self._fp), float(self._fn)
        return div(sqrt(tp * tn) - sqrt(fp * fn), sqrt(tp * tn) + sqrt(fp * fn))

    def fowlkesMallows(self) -> float:
        """LingPipe's ``TP / sqrt(precision * recall)`` (not the Fowlkes-Mallows index; see the class Notes)."""
        return div(float(self._tp), sqrt(self.precision() * self.recall()))

    def accuracyDeviation(self) -> float:
        """sqrt(accuracy * (1 - accuracy) / total), the binomial standard deviation of the accuracy."""
        p = self.accuracy()
        return sqrt(div(p * (1.0 - p), self.total()))

    def randomAccuracy(self) -> float:
        """ref*resp + (1-ref)*(1-resp), with the reference and response likelihoods."""
        ref = self.referenceLikelihood()
        resp = self.responseLikelihood()
        return ref * resp + (1.0 - ref) * (1.0 - resp)

    def randomAccuracyUnbiased(self) -> float:
        """avg^2 + (1-avg)^2 with avg the mean of the reference and response likelihoods."""
        avg = (self.referenceLikelihood() + self.responseLikelihood()) / 2.0
        return avg * avg + (1.0 - avg) * (1.0 - avg)

    def kappa(self) -> float:
        """(accuracy - randomAccuracy) / (1 - randomAccuracy)."""
        e = self.randomAccuracy()
        return div(self.accuracy() - e, 1 - e)

    def kappaUnbiased(self) -> float:
        """(accuracy - randomAccuracyUnbiased) / (1 - randomAccuracyUnbiased)."""
        e = self.randomAccuracyUnbiased()
        return div(self.accuracy() - e, 1 - e)

    def kappaNoPrevalence(self) -> float:
        """2 * accuracy - 1."""
        return 2.0 * self.accuracy() - 1.0

    # ---------------------------------------------------------------------- text

    def toString(self) -> str:
        """LingPipe's text report: ``  <Label>=<value>`` lines, numbers as Java prints them.

        Total, the four counts, the four margins, accuracy, recall,
        precision, rejection recall and precision, F(1), Fowlkes-Mallows,
        Jaccard, Yule's Q and Y, the two likelihoods, the two random
        accuracies, the three kappas, chi and phi squared and the accuracy
        deviation; joined by ``\\n`` with no trailing newline.
        """
        d = double_to_string
        lines = [
            f"  Total={self.total()}",
            f"  True Positive={self._tp}",
            f"  False Negative={self._fn}",
            f"  False Positive={self._fp}",
            f"  True Negative={self._tn}",
            f"  Positive Reference={self.positiveReference()}",
            f"  Positive Response={self.positiveResponse()}",
            f"  Negative Reference={self.negativeReference()}",
            f"  Negative Response={self.negativeResponse()}",
            f"  Accuracy={d(self.accuracy())}",
            f"  Recall={d(self.recall())}",
            f"  Precision={d(self.precision())}",
            f"  Rejection Recall={d(self.rejectionRecall())}",
            f"  Rejection Precision={d(self.rejectionPrecision())}",
            f"  F(1)={d(self.fMeasure(1))}",
            f"  Fowlkes-Mallows={d(self.fowlkesMallows())}",
            f"  Jaccard Coefficient={d(self.jaccardCoefficient())}",
            f"  Yule's Q={d(self.yulesQ())}",
            f"  Yule's Y={d(self.yulesY())}",
            f"  Reference Likelihood={d(self.referenceLikelihood())}",
            f"  Response Likelihood={d(self.responseLikelihood())}",
            f"  Random Accuracy={d(self.randomAccuracy())}",
            f"  Random Accuracy Unbiased={d(self.randomAccuracyUnbiased())}",
            f"  kappa={d(self.kappa())}",
            f"  kappa Unbiased={d(self.kappaUnbiased())}",
            f"  kappa No Prevalence={d(self.kappaNoPrevalence())}",
            f"  chi Squared={d(self.chiSquared())}",
            f"  phi Squared={d(self.phiSquared())}",
            f"  Accuracy Deviation={d(self.accuracyDeviation())}",
        ]
        return "\n".join(lines)

    def __str__(self) -> str:
        """The same text as :meth:`toString`."""
        return self.toString()

    def __repr__(self) -> str:
        return (
            f"scored_pr.lingpipe.PrecisionRecallEvaluation(tp={self._tp}, fn={self._fn}, "
            f"fp={self._fp}, tn={self._tn})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PrecisionRecallEvaluation):
            return NotImplemented
        return (self._tp, self._fn, self._fp, self._tn) == (other._tp, other._fn, other._fp, other._tn)

    __hash__ = None  # type: ignore[assignment]  # mutable
