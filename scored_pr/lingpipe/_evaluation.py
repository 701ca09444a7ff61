"""The LingPipe compatibility class: validation, storage and version dispatch.

Cases live in a main-API evaluator (``ties="stable"``); each method validates
its arguments with the Java method's name in the message and returns what the
chosen LingPipe release returns: for 3.9.2 mostly the main evaluator's values
(plus :mod:`._v392`), for 4.1 the functions of :mod:`._v41` over the points
at every rank. 4.1 results are cached in the main evaluator's memo, so any
mutation (here or through :attr:`ScoredPrecisionRecallEvaluation.evaluation`)
invalidates them.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Callable, TextIO, TypeVar

import numpy as np
import numpy.typing as npt

from .._core import curves as C, points as P, scalars as M
from .. import _report
from .._evaluators.exact import ScoredPrecisionRecallEvaluation as _Evaluation, operating_points
from .._validation import (
    check_beta,
    check_choice,
    check_correct,
    check_count,
    check_curve_rows,
    check_flag,
    check_score,
)
from . import _v41, _v392
from ._javafmt import double_to_string, format_fixed

__all__ = ["ScoredPrecisionRecallEvaluation", "VERSIONS"]

FloatArray = npt.NDArray[np.float64]
_T = TypeVar("_T")


def _same(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> bool:
    """Whether two arrays hold the same bits (the same object in O(1); signs of zero count)."""
    if a is b:
        return True
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return bool(np.array_equal(np.ascontiguousarray(a).view(np.uint8), np.ascontiguousarray(b).view(np.uint8)))

#: The LingPipe releases reproduced: each spelling ``version`` accepts, and the release it names.
VERSIONS: Mapping[str, str] = MappingProxyType({"3.9.2": "3.9.2", "4.1": "4.1", "4.1.0": "4.1"})

#: Ranks of toString's "Precision at" lines, in the order LingPipe tries them.
TO_STRING_RANKS = (5, 10, 25, 100, 500)


class ScoredPrecisionRecallEvaluation:
    """LingPipe's ``ScoredPrecisionRecallEvaluation``, method for method, as 3.9.2 or 4.1.0.

    Cases arrive through :meth:`addCase`; positive references the system
    never returned through :meth:`addMisses` (and, in 4.1, negative ones
    through :meth:`addNegativeMisses`). Queries rank the cases by descending
    score, equal scores in insertion order, and return exactly the float64
    values the chosen LingPipe release returns for the same calls.

    Parameters
    ----------
    version : {"3.9.2", "4.1", "4.1.0"}, default "3.9.2"
        The LingPipe release to reproduce; ``"4.1.0"`` is a synonym of
        ``"4.1"`` (LingPipe's last release). The two differ in almost every
        curve and score (see the porting guide's version table). Methods
        that 3.9.2 does not have (:meth:`addNegativeMisses`,
        :meth:`numPositiveRef`, :meth:`numNegativeRef`, :meth:`rPrecision`,
        :meth:`elevenPtInterpPrecision`) raise ``NotImplementedError`` on a
        3.9.2 instance.

    Raises
    ------
    ValueError
        If ``version`` is not one of the spellings above.

    Notes
    -----
    Java name: ``com.aliasi.classify.ScoredPrecisionRecallEvaluation``.
    Cases are stored in a :class:`scored_pr.ScoredPrecisionRecallEvaluation`
    with ``ties="stable"``, available as :attr:`evaluation`. Curves are
    returned as fresh, writable numpy arrays (Java returns a new
    ``double[][]`` per call); 4.1's interpolated ``prScoreCurve`` is ragged
    and comes as a :class:`RaggedCurve`. Not thread-safe.

    Examples
    --------
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> for correct, score in [(False, -1.21), (True, -1.27), (False, -1.39), (True, -1.47)]:
    ...     ev.addCase(correct, score)
    >>> ev.numCases()
    4
    >>> ev.prCurve(False).tolist()
    [[0.5, 0.5], [1.0, 0.5]]

    The same cases as LingPipe 4.1 sees them: a point per rank, limit
    points, and a skipped leading (0, 0):

    >>> ev41 = ScoredPrecisionRecallEvaluation(version="4.1")
    >>> for correct, score in [(False, -1.21), (True, -1.27), (False, -1.39), (True, -1.47)]:
    ...     ev41.addCase(correct, score)
    >>> ev41.prCurve(False).tolist()
    [[0.0, 1.0], [0.5, 0.5], [0.5, 0.3333333333333333], [1.0, 0.5], [1.0, 0.0]]
    """

    __module__ = "scored_pr.lingpipe"  # pickles and reprs name the public module, wherever this file moves

    __slots__ = ("_ev", "_version", "_memo", "_memo_cases")

    def __init__(self, version: str = "3.9.2") -> None:
        self._version = VERSIONS[check_choice(version, "ScoredPrecisionRecallEvaluation", "version", tuple(VERSIONS))]
        self._ev = _Evaluation(ties="stable")
        self._memo: dict[Any, Any] = {}
        self._memo_cases: tuple[Any, ...] = ()

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        # The evaluator and the version only, as 0.1.0 pickled them: never the memo.
        return None, {"_ev": self._ev, "_version": self._version}

    @property
    def version(self) -> str:
        """The LingPipe release reproduced: ``"3.9.2"`` or ``"4.1"``."""
        return self._version

    @property
    def evaluation(self) -> _Evaluation:
        """The main-API evaluator holding the same cases (shared, not a copy).

        Handy for comparing old and new numbers side by side during a port.
        Adding cases to it adds them here too; ``add_negative_misses`` on it
        changes the ROC values of a 3.9.2 instance, which 3.9.2 itself could
        not produce.
        """
        return self._ev

    # ------------------------------------------------------------ version dispatch

    def _require_41(self, method: str) -> None:
        if self._version != "4.1":
            raise NotImplementedError(
                f"{method}() is new in LingPipe 4.1: LingPipe {self._version}, which this evaluation "
                f"reproduces, has no such method. Create the evaluation with "
                f"ScoredPrecisionRecallEvaluation(version='4.1') to reproduce LingPipe 4.1."
            )

    def _cached41(self, key: Any, build: Callable[[], _T]) -> _T:
        # This wrapper's own memo, valid while the evaluator holds the cases it was built from
        # (changed here or through .evaluation). ranked_cases() returns the same arrays to a holder
        # (the memo holds them) until a case, miss or reset changes the evaluator, so the check is
        # O(1); new arrays are compared bit for bit before the memo is dropped.
        ev = self._ev
        cases = (*ev.ranked_cases()[:2], ev.num_misses, ev.num_negative_misses)
        held = self._memo_cases
        if not (len(held) == 4 and held[2:] == cases[2:] and _same(held[0], cases[0]) and _same(held[1], cases[1])):
            self._memo = {}
        self._memo_cases = cases
        memo = self._memo
        try:
            return memo[key]  # type: ignore[no-any-return]
        except KeyError:
            value = memo[key] = build()
            return value

    def _points41(self) -> P.Points:
        def build() -> P.Points:
            scores, correct, _ = self._ev.ranked_cases()
            return P.every_rank(np.negative(scores), correct)  # the kernel's rank order: negated scores

        return self._cached41("points", build)

    def _pr41(self, interpolate: bool) -> FloatArray:
        if interpolate:
            return self._cached41(("pr", True), lambda: _v41.interpolated_pr_curve(self._pr41(False)))
        return self._cached41(("pr", False), lambda: _v41.pr_curve(self._points41(), self._ev.num_positive_ref))

    def _roc41(self, interpolate: bool) -> FloatArray:
        if interpolate:
            return self._cached41(("roc", True), lambda: _v41.interpolated_roc_curve(self._roc41(False)))
        ev = self._ev
        return self._cached41(
            ("roc", False), lambda: _v41.roc_curve(self._points41(), ev.num_positive_ref, ev.num_negative_ref)
        )

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

        Misses raise the recall denominator; they add no case. In 4.1 they
        also count in :meth:`numCases` and :meth:`numPositiveRef`.

        Raises
        ------
        TypeError
            If ``count`` is not an int.
        ValueError
            If ``count`` is negative, as in LingPipe 4.1. For 3.9.2 this is a
            deliberate divergence: 3.9.2 accepted a negative count silently,
            lowering every recall denominator.

        Notes
        -----
        Java name: ``addMisses(int)``. Main API: ``add_misses``.
        """
        self._ev.add_misses(check_count(count, "addMisses"))

    def addNegativeMisses(self, count: int) -> None:
        """4.1 only: add ``count`` negative references that the system never returned.

        They raise the specificity denominator of :meth:`rocCurve` and count
        in :meth:`numCases` and :meth:`numNegativeRef`; they add no case.

        Raises
        ------
        NotImplementedError
            On a 3.9.2 instance (3.9.2 has no such method).
        TypeError
            If ``count`` is not an int.
        ValueError
            If ``count`` is negative (LingPipe 4.1 throws
            ``IllegalArgumentException``).

        Notes
        -----
        Java name: ``addNegativeMisses(int)``. Main API:
        ``add_negative_misses``.
        """
        self._require_41("addNegativeMisses")
        self._ev.add_negative_misses(check_count(count, "addNegativeMisses"))

    # -------------------------------------------------------------------- counts

    def numCases(self) -> int:
        """The number of cases: 3.9.2 counts the cases added; 4.1 adds every miss.

        3.9.2: the cases added with :meth:`addCase`. 4.1:
        ``numPositiveRef() + numNegativeRef()``, which counts misses and
        negative misses as well.

        Notes
        -----
        Java name: ``numCases()``. Main API: the ``num_cases`` property
        (3.9.2's count); 4.1's is ``num_positive_ref + num_negative_ref``.
        """
        ev = self._ev
        if self._version == "4.1":
            return ev.num_positive_ref + ev.num_negative_ref
        return ev.num_cases

    def numPositiveRef(self) -> int:
        """4.1 only: the correct cases added plus the misses.

        Raises
        ------
        NotImplementedError
            On a 3.9.2 instance.

        Notes
        -----
        Java name: ``numPositiveRef()``. Main API: ``num_positive_ref``.
        """
        self._require_41("numPositiveRef")
        return self._ev.num_positive_ref

    def numNegativeRef(self) -> int:
        """4.1 only: the incorrect cases added plus the negative misses.

        Raises
        ------
        NotImplementedError
            On a 3.9.2 instance.

        Notes
        -----
        Java name: ``numNegativeRef()``. Main API: ``num_negative_ref``.
        """
        self._require_41("numNegativeRef")
        return self._ev.num_negative_ref

    # -------------------------------------------------------------------- curves

    def prCurve(self, interpolate: bool) -> FloatArray:
        """The (recall, precision) operating points.

        Parameters
        ----------
        interpolate : bool
            3.9.2: drop every point whose precision is not strictly greater
            than that of all points of higher recall. 4.1: replace each
            precision by the best precision at this or any higher recall,
            then keep only the first row of each run of equal recall.

        Returns
        -------
        numpy.ndarray of float64, shape (n, 2)
            Recall = correct cases so far / (correct cases + misses);
            precision = correct cases so far / rank. A new writable array on
            every call.

            3.9.2: one row per correct case, recall strictly increasing, no
            end points.

            4.1: (0, 1), then one row per rank except the (0, 0) rows of
            incorrect cases ranked before the first correct one, then
            (1, 0). With no positive reference, recall is NaN (0/0).

        Notes
        -----
        Java name: ``prCurve(boolean)``. Main API: ``pr_curve`` (3.9.2's
        curve).

        Examples
        --------
        >>> ev = ScoredPrecisionRecallEvaluation(version="4.1")
        >>> ev.addCase(True, 0.9)
        >>> ev.addCase(False, 0.8)
        >>> ev.addCase(True, 0.4)
        >>> ev.prCurve(True).tolist()
        [[0.0, 1.0], [0.5, 1.0], [1.0, 0.6666666666666666]]
        """
        interpolate = check_flag(interpolate, "prCurve", "interpolate")
        if self._version == "4.1":
            return self._pr41(interpolate).copy()
        return self._ev.pr_curve(interpolate).copy()

    def prScoreCurve(self, interpolate: bool) -> FloatArray | _v41.RaggedCurve:
        """The (recall, precision, score) operating points.

        Returns
        -------
        numpy.ndarray of float64, shape (n, 3), or RaggedCurve
            3.9.2: :meth:`prCurve` plus the score of the case at each point.

            4.1, ``interpolate=False``: one row per rank, with no limit points
            and no row skipped, as an (n, 3) array.

            4.1, ``interpolate=True``: *ragged*, as in Java, so a
            :class:`~scored_pr.lingpipe.RaggedCurve`. The first row is the
            two-element ``[0.0, 1.0]`` that starts every interpolated 4.1
            curve (it has no score); the rows after it have three elements
            (4.1's interpolation of the rows above). ``curve[i][j]``,
            ``len(curve)`` and ``len(curve[i])`` read as ``curve[i][j]``,
            ``curve.length`` and ``curve[i].length`` do in Java, and
            ``curve[0][2]`` raises ``IndexError`` where Java throws
            ``ArrayIndexOutOfBoundsException``. ``curve.rows`` is the
            (n, 3) array of the scored rows, ``curve.tolist()`` the nested
            lists.

        Notes
        -----
        Java name: ``prScoreCurve(boolean)``. Main API: ``pr_score_curve``
        (3.9.2's curve).

        Examples
        --------
        >>> ev = ScoredPrecisionRecallEvaluation(version="4.1")
        >>> ev.addCase(False, 0.9)
        >>> ev.addCase(True, 0.4)
        >>> ev.prScoreCurve(False).tolist()
        [[0.0, 0.0, 0.9], [1.0, 0.5, 0.4]]
        >>> curve = ev.prScoreCurve(True)
        >>> curve.tolist()
        [[0.0, 1.0], [1.0, 0.5, 0.4]]
        >>> len(curve[0]), len(curve[1]), float(curve[1][2])
        (2, 3, 0.4)
        """
        interpolate = check_flag(interpolate, "prScoreCurve", "interpolate")
        if self._version != "4.1":
            return self._ev.pr_score_curve(interpolate).copy()
        curve = self._cached41(
            ("pr_score", False), lambda: _v41.pr_score_curve(self._points41(), self._ev.num_positive_ref)
        )
        if not interpolate:
            return curve.copy()
        return self._cached41(("pr_score", True), lambda: _v41.interpolated_pr_score_curve(curve)).copy()

    def rocCurve(self, interpolate: bool) -> FloatArray:
        """The ROC operating points.

        Returns
        -------
        numpy.ndarray of float64, shape (n, 2)
            3.9.2: (recall, rejection recall) rows, one per correct case;
            rejection recall = 1 - incorrect cases so far / incorrect cases
            added, NaN (0/0) when no incorrect case was added (the
            interpolated curve is then empty). Interpolation keeps the rows
            whose rejection recall beats every later row's.

            4.1: (1 - specificity, sensitivity) rows: (0, 0), then one row
            per rank, then (1, 1); specificity = true negatives left /
            (incorrect cases + negative misses), sensitivity = recall, NaN
            where a denominator is 0. Interpolation drops a row whose x
            equals the next row's x.

        Notes
        -----
        Java name: ``rocCurve(boolean)``. Main API: ``roc_curve`` (3.9.2's
        layout) and ``roc_points`` (fpr, tpr, thresholds).
        """
        interpolate = check_flag(interpolate, "rocCurve", "interpolate")
        if self._version == "4.1":
            return self._roc41(interpolate).copy()
        return self._ev.roc_curve(interpolate).copy()

    # ------------------------------------------------------------------- scalars

    def areaUnderPrCurve(self, interpolate: bool) -> float:
        """Area under :meth:`prCurve`.

        3.9.2: a step function from recall 0, sum_i (r_i - r_{i-1}) * p_i
        with r_0 = 0; 0.0 for an empty curve. 4.1: trapezoids between
        consecutive rows, sum_i (p_{i-1} + p_i) * (r_i - r_{i-1}) / 2, NaN if
        a row holds NaN.

        Notes
        -----
        Java name: ``areaUnderPrCurve(boolean)``. Main API:
        ``area_under_pr_curve`` (3.9.2's area).
        """
        interpolate = check_flag(interpolate, "areaUnderPrCurve", "interpolate")
        if self._version == "4.1":
            return self._cached41(("pr_area", interpolate), lambda: _v41.trapezoid_area(self._pr41(interpolate)))
        return self._ev.area_under_pr_curve(interpolate)

    def areaUnderRocCurve(self, interpolate: bool) -> float:
        """Area under :meth:`rocCurve`.

        3.9.2: a step function from recall 0, sum_i (r_i - r_{i-1}) * rr_i;
        0.0 for an empty curve, NaN uninterpolated when no incorrect case was
        added. 4.1: trapezoids between consecutive rows, NaN when either
        class has no reference.

        Notes
        -----
        Java name: ``areaUnderRocCurve(boolean)``. Main API:
        ``area_under_roc_curve``: with ``ties="stable"`` and both classes,
        3.9.2's area up to rounding (the main API divides the exact count of
        pairs in order once; 3.9.2 sums rounded terms left to right, which
        can differ in the last digits); NaN with one class.
        """
        interpolate = check_flag(interpolate, "areaUnderRocCurve", "interpolate")
        if self._version == "4.1":
            return self._cached41(("roc_area", interpolate), lambda: _v41.trapezoid_area(self._roc41(interpolate)))
        if interpolate:
            return C.step_area(self._ev.roc_curve(True))
        # 3.9.2's area is defined for one class too (0.0 without a correct case), where the
        # main API's is NaN.
        return C.roc_area(operating_points(self._ev), self._ev.num_positive_ref, self._ev.num_negative_ref)

    def averagePrecision(self) -> float:
        """Average precision: the precisions at the correct cases, summed, over a count.

        3.9.2 divides by the number of correct cases *returned* (the points of
        its ``prCurve(false)``): misses are ignored; NaN when no correct case
        was added. 4.1 divides by :meth:`numPositiveRef`, so misses count
        (each contributes precision 0); NaN when there is no positive
        reference. Sums run left to right, as Java's loop.

        Notes
        -----
        Java name: ``averagePrecision()``. Main API: ``average_precision``,
        which is 4.1's value (the standard definition); the two versions
        agree when there are no misses. O(n).

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
        if self._version == "4.1":
            return self._ev.average_precision()
        return _v392.average_precision(self._ev.pr_curve(False))

    def maximumFMeasure(self, beta: float = 1.0) -> float:
        """The best F-beta over the rows of ``prCurve(false)``.

        F_beta = (1 + beta^2) * R * P / (R + beta^2 * P). 3.9.2: 0.0 when
        there are no rows. 4.1: the limit points count too (each scores 0),
        and a NaN row (no positive reference) makes the result NaN, as
        Java's ``Math.max`` does.

        Raises
        ------
        TypeError, ValueError
            If ``beta`` is not a finite real number > 0 (as the main API).

        Notes
        -----
        Java name: ``maximumFMeasure()`` and ``maximumFMeasure(double)``.
        Main API: ``maximum_f_measure`` (3.9.2's value).
        """
        beta = check_beta(beta, "maximumFMeasure")
        if self._version == "4.1":
            return self._cached41(("max_f", beta), lambda: _v41.maximum_f_measure(self._pr41(False), beta))
        return self._ev.maximum_f_measure(beta)

    def prBreakevenPoint(self) -> float:
        """The precision-recall break-even point (BEP).

        3.9.2: the precision of the first row of ``prCurve(true)`` whose
        recall exceeds its precision; 0.0 if no row does (recall equal to
        precision does not count). 4.1: :meth:`rPrecision`.

        Notes
        -----
        Java name: ``prBreakevenPoint()``. Main API: ``pr_breakeven_point``.
        """
        if self._version == "4.1":
            return self.rPrecision()
        return M.breakeven_point(self._ev.pr_curve(True))

    def rPrecision(self) -> float:
        """4.1 only: LingPipe 4.1's R-precision, read off ``prCurve(false)`` by index.

        With R = :meth:`numPositiveRef` and m rows in ``prCurve(false)``:
        1.0 if R = 0; the precision of row R - 1 if R < m; otherwise 0.0
        (the last row's precision, 0, times (m - 1) / R). Row 0 is the (0, 1)
        limit point, so without skipped rows this is the precision at rank
        R - 1, not R (1.0 for R = 1), and skipped leading (0, 0) rows move
        it further down the ranking. It is *not* the textbook R-precision
        (precision over the top R cases), which the main API computes.

        Raises
        ------
        NotImplementedError
            On a 3.9.2 instance.

        Notes
        -----
        Java name: ``rPrecision()``. Main API: ``r_precision`` (the textbook
        definition; a different value).

        Examples
        --------
        >>> ev = ScoredPrecisionRecallEvaluation(version="4.1")
        >>> for correct, score in [(True, 4.0), (False, 3.0), (True, 2.0), (False, 1.0)]:
        ...     ev.addCase(correct, score)
        >>> ev.rPrecision(), ev.evaluation.r_precision()  # row 1 (rank 1) vs the top 2 cases
        (1.0, 0.5)
        """
        self._require_41("rPrecision")
        return self._cached41("r_prec", lambda: _v41.r_precision(self._pr41(False), self._ev.num_positive_ref))

    def elevenPtInterpPrecision(self) -> FloatArray:
        """4.1 only: interpolated precision at recall 0.0, 0.1, ..., 1.0.

        At each level (computed as ``0.1 * i``), the precision of the first
        row of ``prCurve(true)`` whose recall + 1e-13 reaches it; 0.0 if none
        does.

        Returns
        -------
        numpy.ndarray of float64, shape (11,)
            A new writable array on every call.

        Raises
        ------
        NotImplementedError
            On a 3.9.2 instance.

        Notes
        -----
        Java name: ``elevenPtInterpPrecision()``. Main API:
        ``eleven_point_interpolated_precision`` (the maximum precision at
        cut-offs with enough correct cases; it can differ).
        """
        self._require_41("elevenPtInterpPrecision")
        return self._cached41("11pt", lambda: _v41.eleven_point_precision(self._pr41(True))).copy()

    def precisionAt(self, rank: int) -> float:
        """Correct cases among the top ``rank`` divided by ``rank``.

        Returns
        -------
        float
            3.9.2: NaN when ``rank`` exceeds the cases added, and NaN for
            rank 0 (0/0). 4.1: 1.0 for rank 0, and ranks beyond the cases
            added count as incorrect (the denominator stays ``rank``).

        Raises
        ------
        TypeError
            If ``rank`` is not an int.
        ValueError
            If ``rank`` is negative.

        Notes
        -----
        Java name: ``precisionAt(int)``. Main API: ``precision_at``, which
        raises for rank 0 and is NaN beyond the cases added. O(log n) after
        the first query.

        Examples
        --------
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.addCase(True, 1.0)
        >>> ev.addCase(False, 0.5)
        >>> ev.precisionAt(0), ev.precisionAt(1), ev.precisionAt(2), ev.precisionAt(3)
        (nan, 1.0, 0.5, nan)
        """
        rank = check_count(rank, "precisionAt", "rank")
        if self._version == "4.1":
            return _v41.precision_at(self._points41(), rank)
        if rank == 0:
            return float("nan")
        return self._ev.precision_at(rank)

    def reciprocalRank(self) -> float:
        """1 / rank (counting from 1) of the first correct case; 0.0 if there is none.

        Notes
        -----
        Java name: ``reciprocalRank()``; the same in both versions. Main API:
        ``reciprocal_rank``.
        """
        return self._ev.reciprocal_rank()

    # ------------------------------------------------------------------- reports

    def toString(self) -> str:
        """LingPipe's text report, character for character.

        Eight lines ``  <label>=<value>``: the PR and ROC areas
        (interpolated, then uninterpolated), average precision, maximum
        F(1), break-even point and reciprocal rank, each as this version
        computes it; then lines ``  Precision at <k>=<value>`` for k in 5,
        10, 25, 100, 500 *while k exceeds* the number of cases added (both
        versions' inverted loop condition: all five with fewer than 5 cases
        added, none otherwise; misses do not count). Lines are joined by
        ``\\n`` with no trailing newline; numbers as Java's
        ``Double.toString``. The layout is the same in both versions; the
        values tell them apart (4.1's ``Precision at`` lines are numbers,
        3.9.2's are ``NaN``).

        Notes
        -----
        Java name: ``toString()``. Main API: ``str(evaluation)``, whose
        report has more lines and prints ``Precision at k`` for k <=
        num_cases. O(n).
        """
        fmt = double_to_string
        lines = [
            f"  Area Under PR Curve (interpolated)={fmt(self.areaUnderPrCurve(True))}",
            f"  Area Under PR Curve (uninterpolated)={fmt(self.areaUnderPrCurve(False))}",
            f"  Area Under ROC Curve (interpolated)={fmt(self.areaUnderRocCurve(True))}",
            f"  Area Under ROC Curve (uninterpolated)={fmt(self.areaUnderRocCurve(False))}",
            f"  Average Precision={fmt(self.averagePrecision())}",
            f"  Maximum F(1) Measure={fmt(self.maximumFMeasure())}",
            f"  BEP (Precision-Recall break even point)={fmt(self.prBreakevenPoint())}",
            f"  Reciprocal Rank={fmt(self.reciprocalRank())}",
        ]
        for rank in TO_STRING_RANKS:
            if rank <= self._ev.num_cases:  # LingPipe stops at the first rank it could evaluate
                break
            lines.append(f"  Precision at {rank}={fmt(self.precisionAt(rank))}")
        return "\n".join(lines)

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        # Pickles made before ``version`` existed hold only ``_ev``: they are 3.9.2 evaluations.
        slots = state[1]
        self._ev = slots["_ev"]
        self._version = slots.get("_version", "3.9.2")
        self._memo = {}
        self._memo_cases = ()

    def __str__(self) -> str:
        """The same text as :meth:`toString`."""
        return self.toString()

    def __repr__(self) -> str:
        return (
            f"scored_pr.lingpipe.ScoredPrecisionRecallEvaluation(version={self._version!r}, "
            f"numCases={self.numCases()})"
        )

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
        (static; the same in both versions). Main API:
        ``print_precision_recall_curve``.

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
        _print_columns(("PRECI.", "RECALL", "F"), (precision, recall, f1), pw)

    @staticmethod
    def printScorePrecisionRecallCurve(prScoreCurve: Any, pw: TextIO) -> None:
        """Print a PR-score curve as three columns: precision, recall and score.

        Parameters
        ----------
        prScoreCurve : array-like, shape (n, 3)
            Rows (recall, precision, score), as from ``prScoreCurve(false)``.
            4.1's ``prScoreCurve(true)`` is ragged: pass ``curve[1:]``, the
            rows after its two-element first row (Java throws
            ``ArrayIndexOutOfBoundsException`` on that row, after printing
            the header).
        pw : text stream
            Anything with ``write(str)``; the Java ``PrintWriter``. It is not
            flushed.

        Raises
        ------
        ValueError
            If ``prScoreCurve`` is not an array of rows of three numbers;
            nothing is written.

        Notes
        -----
        Java name: ``printScorePrecisionRecallCurve(double[][], PrintWriter)``
        (static, new in LingPipe 4.x; being static, it is available whatever
        the version). A header ``%8s %8s %8s`` of ``PRECI.``, ``RECALL``,
        ``SCORE``, then one line ``%8.6f %8.6f %8.6f`` per row, numbers as
        Java's ``%f`` (:func:`scored_pr.lingpipe.format_fixed`).

        Examples
        --------
        >>> import sys
        >>> ev = ScoredPrecisionRecallEvaluation(version="4.1")
        >>> ev.addCase(True, 2.5)
        >>> ev.addCase(False, -1.0)
        >>> ScoredPrecisionRecallEvaluation.printScorePrecisionRecallCurve(ev.prScoreCurve(False), sys.stdout)
          PRECI.   RECALL    SCORE
        1.000000 1.000000 2.500000
        0.500000 1.000000 -1.000000
        """
        rows = check_curve_rows(prScoreCurve, "printScorePrecisionRecallCurve", "prScoreCurve", columns=(3,))
        _print_columns(("PRECI.", "RECALL", "SCORE"), (rows[:, 1], rows[:, 0], rows[:, 2]), pw)


def _print_columns(header: tuple[str, str, str], columns: tuple[FloatArray, ...], pw: TextIO) -> None:
    """Java's ``printf("%8s %8s %8s\\n", ...)`` header, then ``%8.6f`` columns, in one write."""
    lines = ["%8s %8s %8s\n" % header]
    lines += [" ".join(format_fixed(v) for v in row) + "\n" for row in zip(*(c.tolist() for c in columns))]
    pw.write("".join(lines))


# ScoredPrecisionRecallEvaluation report the public module (pickles, reprs); __test__ keeps the doctests
# of the class collected from this file.
__test__ = {"ScoredPrecisionRecallEvaluation": ScoredPrecisionRecallEvaluation}
