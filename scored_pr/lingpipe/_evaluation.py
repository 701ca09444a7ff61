"""LingPipe 3.9.2 compatibility: a camelCase drop-in that reproduces its numbers bit for bit.

:class:`ScoredPrecisionRecallEvaluation` here has the method names and
signatures of ``com.aliasi.classify.ScoredPrecisionRecallEvaluation`` in
LingPipe 3.9.2 and returns what that release returns, quirks included, so a
port of a Java pipeline can be checked against the numbers it reported
before moving to the main API (:class:`scored_pr.ScoredPrecisionRecallEvaluation`).
It is a thin shell: every curve and score comes from the main evaluator,
with stable ties (insertion order among equal scores), which already
computes them the way 3.9.2 does.

Where 3.9.2 and the main API differ (see ``docs/porting-from-lingpipe.md``):

* ``averagePrecision()`` divides by the number of points of the
  uninterpolated PR curve (the correct cases returned), so misses do not
  lower it; the main API divides by all positive references.
* ``precisionAt(0)`` is NaN; the main API raises.
* ``toString()`` is 3.9.2's text, with its inverted loop condition: the
  ``Precision at`` lines appear only for ranks above ``numCases()`` (NaN).
* Numbers in text are rendered as Java renders them. The two renderers are
  exported for ported code that prints numbers itself:
  :func:`double_to_string` is Java's ``Double.toString`` (what ``"AP=" + ap``
  prints in Java) and :func:`format_fixed` is Java's ``String.format("%W.Pf")``.

One deliberate divergence: ``addMisses`` with a negative count raises
ValueError (as later LingPipe releases do); 3.9.2 accepted it and silently
lowered every recall denominator.

Examples
--------
>>> from scored_pr.lingpipe import ScoredPrecisionRecallEvaluation
>>> ev = ScoredPrecisionRecallEvaluation()
>>> ev.addCase(True, 0.9)
>>> ev.addCase(False, 0.8)
>>> ev.addCase(True, 0.4)
>>> ev.addMisses(1)
>>> ev.averagePrecision()  # (1/1 + 2/3) / 2: the miss is ignored
0.8333333333333333
>>> print(ev)
  Area Under PR Curve (interpolated)=0.5555555555555556
  Area Under PR Curve (uninterpolated)=0.5555555555555556
  Area Under ROC Curve (interpolated)=0.3333333333333333
  Area Under ROC Curve (uninterpolated)=0.3333333333333333
  Average Precision=0.8333333333333333
  Maximum F(1) Measure=0.6666666666666666
  BEP (Precision-Recall break even point)=0.0
  Reciprocal Rank=1.0
  Precision at 5=NaN
  Precision at 10=NaN
  Precision at 25=NaN
  Precision at 100=NaN
  Precision at 500=NaN
"""

from __future__ import annotations

from typing import Any, TextIO

import numpy as np
import numpy.typing as npt

from .. import _kernel as K
from .. import _report
from .._evaluation import ScoredPrecisionRecallEvaluation as _Evaluation
from .._validation import check_beta, check_correct, check_count, check_flag, check_score
from ._javafmt import double_to_string, format_fixed

__all__ = ["ScoredPrecisionRecallEvaluation", "double_to_string", "format_fixed"]

#: Ranks of toString's "Precision at" lines, in the order 3.9.2 tries them.
TO_STRING_RANKS = (5, 10, 25, 100, 500)


class ScoredPrecisionRecallEvaluation:
    """LingPipe 3.9.2's ``ScoredPrecisionRecallEvaluation``, method for method.

    Cases arrive through :meth:`addCase`; positive references the system
    never returned through :meth:`addMisses`. Queries rank the cases by
    descending score, equal scores in insertion order, and return exactly
    the float64 values LingPipe 3.9.2 returns for the same calls.

    Notes
    -----
    Java name: ``com.aliasi.classify.ScoredPrecisionRecallEvaluation``
    (LingPipe 3.9.2). Every number is delegated to
    :class:`scored_pr.ScoredPrecisionRecallEvaluation` with
    ``ties="stable"``, available as :attr:`evaluation`; only
    :meth:`averagePrecision`, :meth:`precisionAt` for rank 0 and the text
    output are computed here. Curves are returned as fresh, writable numpy
    arrays (Java returns a new ``double[][]`` per call). Not thread-safe.

    Examples
    --------
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> for correct, score in [(False, -1.21), (True, -1.27), (False, -1.39), (True, -1.47)]:
    ...     ev.addCase(correct, score)
    >>> ev.numCases()
    4
    >>> ev.prCurve(False).tolist()
    [[0.5, 0.5], [1.0, 0.5]]
    """

    __slots__ = ("_ev",)

    def __init__(self) -> None:
        self._ev = _Evaluation(ties="stable")

    @property
    def evaluation(self) -> _Evaluation:
        """The main-API evaluator holding the same cases (shared, not a copy).

        Handy for comparing old and new numbers side by side during a port.
        Adding cases to it adds them here too; ``add_negative_misses`` on it
        changes the ROC values here, which 3.9.2 could not produce.
        """
        return self._ev

    # ------------------------------------------------------------------ mutators

    def addCase(self, correct: bool, score: float) -> None:
        """Add a case: whether the response was correct, and its score.

        Parameters
        ----------
        correct : bool
            True if the reference was positive too. bool, ``numpy.bool_`` and
            the integers 0/1.
        score : float
            The response score; higher ranks first. ``inf``/``-inf`` allowed;
            ``-0.0`` ties with ``0.0``.

        Raises
        ------
        TypeError, ValueError
            As :meth:`scored_pr.ScoredPrecisionRecallEvaluation.add_case`
            (e.g. a NaN score, a string flag); nothing is added.

        Notes
        -----
        Java name: ``addCase(boolean, double)``. Main API: ``add_case``.
        O(log n) amortised.
        """
        self._ev.add_case(check_correct(correct, "addCase"), check_score(score, "addCase"))

    def addMisses(self, count: int) -> None:
        """Add ``count`` positive references that the system never returned.

        Misses raise the recall denominator; they add no case.

        Raises
        ------
        TypeError
            If ``count`` is not an int.
        ValueError
            If ``count`` is negative. Deliberate divergence: LingPipe 3.9.2
            accepted a negative count silently, lowering every recall
            denominator; later LingPipe releases reject it, as here.

        Notes
        -----
        Java name: ``addMisses(int)``. Main API: ``add_misses``.
        """
        self._ev.add_misses(check_count(count, "addMisses"))

    # -------------------------------------------------------------------- counts

    def numCases(self) -> int:
        """The number of cases added with :meth:`addCase` (misses excluded).

        Notes
        -----
        Java name: ``numCases()``. Main API: the ``num_cases`` property.
        """
        return self._ev.num_cases

    # -------------------------------------------------------------------- curves

    def prCurve(self, interpolate: bool) -> npt.NDArray[np.float64]:
        """The (recall, precision) operating points, one per correct case.

        Parameters
        ----------
        interpolate : bool
            If True, drop every point whose precision is not strictly greater
            than that of all points of higher recall.

        Returns
        -------
        numpy.ndarray of float64, shape (n, 2)
            Recall = correct cases so far / (correct cases + misses), strictly
            increasing; precision = correct cases so far / rank. No end
            points (0, 1) or (1, 0). A new writable array on every call.

        Notes
        -----
        Java name: ``prCurve(boolean)``. Main API: ``pr_curve``.
        """
        return self._ev.pr_curve(check_flag(interpolate, "prCurve", "interpolate")).copy()

    def prScoreCurve(self, interpolate: bool) -> npt.NDArray[np.float64]:
        """The (recall, precision, score) operating points.

        Returns
        -------
        numpy.ndarray of float64, shape (n, 3)
            :meth:`prCurve` plus the score of the case at each point.

        Notes
        -----
        Java name: ``prScoreCurve(boolean)``. Main API: ``pr_score_curve``.
        """
        return self._ev.pr_score_curve(check_flag(interpolate, "prScoreCurve", "interpolate")).copy()

    def rocCurve(self, interpolate: bool) -> npt.NDArray[np.float64]:
        """The (recall, rejection recall) operating points, one per correct case.

        Returns
        -------
        numpy.ndarray of float64, shape (n, 2)
            Recall as in :meth:`prCurve`; rejection recall = 1 - incorrect
            cases so far / incorrect cases added. NaN (0/0) when no incorrect
            case was added; the interpolated curve is then empty.

        Notes
        -----
        Java name: ``rocCurve(boolean)``. Main API: ``roc_curve``.
        """
        return self._ev.roc_curve(check_flag(interpolate, "rocCurve", "interpolate")).copy()

    # ------------------------------------------------------------------- scalars

    def areaUnderPrCurve(self, interpolate: bool) -> float:
        """Area under :meth:`prCurve` taken as a step function from recall 0.

        sum_i (r_i - r_{i-1}) * p_i with r_0 = 0; 0.0 for an empty curve.

        Notes
        -----
        Java name: ``areaUnderPrCurve(boolean)``. Main API:
        ``area_under_pr_curve``.
        """
        return self._ev.area_under_pr_curve(check_flag(interpolate, "areaUnderPrCurve", "interpolate"))

    def areaUnderRocCurve(self, interpolate: bool) -> float:
        """Area under :meth:`rocCurve` taken as a step function from recall 0.

        sum_i (r_i - r_{i-1}) * rr_i; 0.0 for an empty curve, NaN
        uninterpolated when no incorrect case was added.

        Notes
        -----
        Java name: ``areaUnderRocCurve(boolean)``. Main API:
        ``area_under_roc_curve``.
        """
        return self._ev.area_under_roc_curve(check_flag(interpolate, "areaUnderRocCurve", "interpolate"))

    def averagePrecision(self) -> float:
        """3.9.2's average precision: the mean precision over the uninterpolated PR curve.

        The precisions at the correct cases, summed left to right, divided
        by the number of points of ``prCurve(false)``, that is by the number
        of correct cases *returned*: misses are ignored. NaN when no correct
        case was added.

        Notes
        -----
        Java name: ``averagePrecision()``. Main API: ``average_precision``,
        which divides by all positive references (misses included) as its
        documentation (and 3.9.2's own) says; the two agree when there are
        no misses. O(n).

        Examples
        --------
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.addCase(True, 2.0)
        >>> ev.addCase(False, 1.0)
        >>> ev.addCase(True, 0.0)
        >>> ev.addMisses(2)
        >>> ev.averagePrecision(), ev.evaluation.average_precision()
        (0.8333333333333333, 0.41666666666666663)
        """
        precisions = self._ev.pr_curve(False)[:, 1]
        if precisions.size == 0:
            return float("nan")
        # seqsum: a left-to-right loop's rounding, as in Java.
        return K.seqsum(precisions) / precisions.size

    def maximumFMeasure(self, beta: float = 1.0) -> float:
        """The best F-beta over the points of ``prCurve(false)``; 0.0 if there are none.

        F_beta = (1 + beta^2) * R * P / (R + beta^2 * P).

        Raises
        ------
        TypeError, ValueError
            If ``beta`` is not a finite real number > 0 (as the main API).

        Notes
        -----
        Java name: ``maximumFMeasure()`` and ``maximumFMeasure(double)``.
        Main API: ``maximum_f_measure``.
        """
        return self._ev.maximum_f_measure(check_beta(beta, "maximumFMeasure"))

    def prBreakevenPoint(self) -> float:
        """Precision of the first point of ``prCurve(true)`` whose recall exceeds its precision.

        0.0 if no point does (recall equal to precision does not count).

        Notes
        -----
        Java name: ``prBreakevenPoint()``. Main API: ``pr_breakeven_point``.
        """
        return self._ev.pr_breakeven_point()

    def precisionAt(self, rank: int) -> float:
        """Correct cases among the top ``rank`` divided by ``rank``.

        Returns
        -------
        float
            NaN when ``rank`` exceeds :meth:`numCases`, and NaN for rank 0
            (0/0), as in 3.9.2.

        Raises
        ------
        TypeError
            If ``rank`` is not an int.
        ValueError
            If ``rank`` is negative.

        Notes
        -----
        Java name: ``precisionAt(int)``. Main API: ``precision_at``, which
        raises for rank 0. O(log n) after the first query.

        Examples
        --------
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.addCase(True, 1.0)
        >>> ev.addCase(False, 0.5)
        >>> ev.precisionAt(0), ev.precisionAt(1), ev.precisionAt(2), ev.precisionAt(3)
        (nan, 1.0, 0.5, nan)
        """
        rank = check_count(rank, "precisionAt", "rank")
        if rank == 0:
            return float("nan")
        return self._ev.precision_at(rank)

    def reciprocalRank(self) -> float:
        """1 / rank (counting from 1) of the first correct case; 0.0 if there is none.

        Notes
        -----
        Java name: ``reciprocalRank()``. Main API: ``reciprocal_rank``.
        """
        return self._ev.reciprocal_rank()

    # ------------------------------------------------------------------- reports

    def toString(self) -> str:
        """3.9.2's text report, character for character.

        Eight lines ``  <label>=<value>``: the PR and ROC areas
        (interpolated, then uninterpolated), average precision, maximum
        F(1), break-even point and reciprocal rank; then lines
        ``  Precision at <k>=<value>`` for k in 5, 10, 25, 100, 500 *while k
        exceeds* :meth:`numCases` (3.9.2's inverted loop condition: all five,
        each NaN, with fewer than 5 cases; none otherwise). Lines are joined
        by ``\\n`` with no trailing newline; numbers as Java's
        ``Double.toString``.

        Notes
        -----
        Java name: ``toString()``. Main API: ``str(evaluation)``, whose
        report has more lines and prints ``Precision at k`` for k <=
        num_cases. O(n).
        """
        ev = self._ev
        fmt = double_to_string
        lines = [
            f"  Area Under PR Curve (interpolated)={fmt(ev.area_under_pr_curve(True))}",
            f"  Area Under PR Curve (uninterpolated)={fmt(ev.area_under_pr_curve(False))}",
            f"  Area Under ROC Curve (interpolated)={fmt(ev.area_under_roc_curve(True))}",
            f"  Area Under ROC Curve (uninterpolated)={fmt(ev.area_under_roc_curve(False))}",
            f"  Average Precision={fmt(self.averagePrecision())}",
            f"  Maximum F(1) Measure={fmt(ev.maximum_f_measure())}",
            f"  BEP (Precision-Recall break even point)={fmt(ev.pr_breakeven_point())}",
            f"  Reciprocal Rank={fmt(ev.reciprocal_rank())}",
        ]
        for rank in TO_STRING_RANKS:
            if rank <= ev.num_cases:  # 3.9.2 stops at the first rank it could evaluate
                break
            lines.append(f"  Precision at {rank}={fmt(self.precisionAt(rank))}")
        return "\n".join(lines)

    def __str__(self) -> str:
        """The same text as :meth:`toString`."""
        return self.toString()

    def __repr__(self) -> str:
        return f"scored_pr.lingpipe.ScoredPrecisionRecallEvaluation(numCases={self.numCases()})"

    @staticmethod
    def printPrecisionRecallCurve(prCurve: Any, pw: TextIO) -> None:
        """Print a PR curve as three columns: precision, recall and F1.

        Parameters
        ----------
        prCurve : array-like, shape (n, 2) or (n, 3)
            Rows starting (recall, precision), as from :meth:`prCurve`.
        pw : text stream
            Anything with ``write(str)`` (``sys.stdout``, an open text file,
            ``io.StringIO``); the Java ``PrintWriter``. It is not flushed.

        Raises
        ------
        ValueError
            If ``prCurve`` is not an array of rows of at least two numbers.

        Notes
        -----
        Java name: ``printPrecisionRecallCurve(double[][], PrintWriter)``
        (static). Main API: ``print_precision_recall_curve``.

        A header ``%8s %8s %8s`` of ``PRECI.``, ``RECALL``, ``F``, then one
        line ``%8.6f %8.6f %8.6f`` of precision, recall and F1 =
        2 * R * P / (R + P) per row, each line ending in ``\\n``. The numbers
        follow Java's ``%f`` (:func:`scored_pr.lingpipe.format_fixed`), not
        Python's: the decimal of ``Double.toString`` is rounded half up, so
        0.0000005 prints ``0.000001`` (Python: ``0.000000``), and NaN prints
        as ``NaN`` (Python: ``nan``); F1 of a (0, 0) row is 0/0 = NaN.

        Examples
        --------
        >>> import sys
        >>> curve = [[0.5, 1.0], [1.0, 0.5], [0.0, 0.0]]
        >>> ScoredPrecisionRecallEvaluation.printPrecisionRecallCurve(curve, sys.stdout)
          PRECI.   RECALL        F
        1.000000 0.500000 0.666667
        0.500000 1.000000 0.666667
        0.000000 0.000000      NaN
        """
        rows = _report.curve_rows(prCurve, "printPrecisionRecallCurve", "prCurve")
        recall = rows[:, 0]
        precision = rows[:, 1]
        # Java's double arithmetic: 0/0 is NaN, x/0 is infinite, no exceptions.
        with np.errstate(divide="ignore", invalid="ignore"):
            f1 = (1.0 + 1.0) * recall * precision / (recall + 1.0 * precision)
        lines = ["%8s %8s %8s\n" % ("PRECI.", "RECALL", "F")]
        lines += [
            f"{format_fixed(p)} {format_fixed(r)} {format_fixed(f)}\n"
            for r, p, f in zip(recall.tolist(), precision.tolist(), f1.tolist())
        ]
        pw.write("".join(lines))
