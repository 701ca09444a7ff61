"""The answers of a :class:`~scored_pr.BoundedEvaluation`: its value types and every query over its bins.

:class:`Bounds` (a float with certified bounds) and :class:`CurveBand` (a
curve's estimate with the boxes that hold the exact curve) are what a summary
answers; :class:`BoundedQueries` holds the summary's queries, each one
validation, a cached call of :mod:`scored_pr._core.bins` and the wrapping of
its (lower, estimate, upper) triple. ``BoundedEvaluation``
(``_evaluators/bounded.py``) adds the storage: adding, merging and state.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple, TextIO, TypeVar

import numpy as np
import numpy.typing as npt

from .._core import bins as B
from .._core import thresholds as T
from .bounded_decisions import BoundedDecisions
from .._validation import (
    check_beta,
    check_choice,
    check_flag,
    check_fraction,
    check_positive_int,
    check_score,
    renamed_keyword,
)

_CLS = "BoundedEvaluation"
_T = TypeVar("_T")
_EPS = 2.0**-52


class Bounds(float):
    """A measure of a :class:`BoundedEvaluation`: a float with certified bounds.

    The float value is the estimate; ``lower`` and ``upper`` bound the exact
    value, which the full :class:`~scored_pr.ScoredPrecisionRecallEvaluation`
    with grouped ties would compute on the same cases:
    ``lower <= exact <= upper``. When ``exact`` is True, lower, estimate and
    upper are all equal to that value, the evaluator's float bit for bit
    (NaN included).

    Arithmetic on a Bounds gives a plain float (the estimate's).

    Examples
    --------
    >>> b = Bounds(0.75, 0.7, 0.8)
    >>> b, b.lower, b.upper, b.exact, round(b.width, 12)
    (Bounds(0.75, lower=0.7, upper=0.8), 0.7, 0.8, False, 0.1)
    >>> b + 0.25
    1.0
    >>> Bounds(0.5, 0.5, 0.5)
    0.5
    """

    __module__ = "scored_pr"  # pickles and reprs name the public module, wherever this file moves

    __slots__ = ("lower", "upper")
    lower: float
    upper: float

    def __new__(cls, estimate: float, lower: float, upper: float) -> Bounds:
        self = super().__new__(cls, estimate)
        self.lower = float(lower)
        self.upper = float(upper)
        return self

    @property
    def estimate(self) -> float:
        """The estimate as a plain float."""
        return float(self)

    @property
    def exact(self) -> bool:
        """True when the value is determined: lower == estimate == upper (or all NaN)."""
        if math.isnan(self.lower) and math.isnan(self.upper):
            return True
        return self.lower == self.upper

    @property
    def width(self) -> float:
        """upper - lower (0.0 when exact, NaN for NaN)."""
        return self.upper - self.lower

    def __repr__(self) -> str:
        if self.exact:
            return repr(float(self))
        return f"Bounds({float(self)!r}, lower={self.lower!r}, upper={self.upper!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Bounds, (float(self), self.lower, self.upper))


class CurveBand(NamedTuple):
    """A curve of a :class:`BoundedEvaluation` with boxes that hold the exact curve.

    ``estimate`` has the layout of the matching
    :class:`~scored_pr.ScoredPrecisionRecallEvaluation` curve (grouped ties,
    uninterpolated) and equals it when ``exact``. ``boxes`` has one row
    (x_low, x_high, y_low, y_high) per bin: every point of the exact curve
    lies in at least one box (for the ROC curve, every point of the segments
    that join its operating points as well). Boxes of exact bins are single
    points on the PR curve (widened by the rounding margin). ``exact``: every
    bin exact and no sample weights, so ``estimate`` is the evaluator's
    curve bit for bit.
    """

    estimate: npt.NDArray[np.float64]
    boxes: npt.NDArray[np.float64]
    exact: bool

    def contains(self, points: Any) -> npt.NDArray[np.bool_]:
        """Whether each (x, y) row of ``points`` lies in some box.

        Examples
        --------
        >>> band = CurveBand(np.zeros((0, 2)), np.array([[0.0, 0.5, 0.2, 0.4]]), False)
        >>> band.contains([[0.25, 0.3], [0.25, 0.5]]).tolist()
        [True, False]
        """
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        x, y = p[:, :1], p[:, 1:]
        b = self.boxes
        inside = (b[:, 0] <= x) & (x <= b[:, 1]) & (b[:, 2] <= y) & (y <= b[:, 3])
        return np.asarray(inside.any(axis=1), dtype=bool)


class BoundedQueries(BoundedDecisions):
    """The queries of a bounded summary over its bins (the base of :class:`~scored_pr.BoundedEvaluation`).

    Each validates its arguments, asks :mod:`scored_pr._core.bins` for the
    (lower, estimate, upper) of the measure, cached until the next change, and
    answers a :class:`Bounds` (or a :class:`CurveBand`). The subclass keeps the
    bins (``_bins``), the counts and the cache.
    """

    __slots__ = ()

    _bins: B.Bins
    _weighted: bool
    _num_cases: int
    _max_bins: int

    @property
    def num_bins(self) -> int:  # pragma: no cover - the subclass's
        raise NotImplementedError

    @property
    def exact(self) -> bool:  # pragma: no cover - the subclass's
        raise NotImplementedError

    @property
    def num_positive_ref(self) -> int:  # pragma: no cover - the subclass's
        raise NotImplementedError

    @property
    def num_cases(self) -> int:  # pragma: no cover - the subclass's
        raise NotImplementedError

    def _refs(self) -> tuple[float, float]:
        return self.positive_weight, self.negative_weight

    def _terms(self) -> int:
        """Rounded terms either computation may sum: the bins here, the cases in the evaluator."""
        return int(self._bins.hi.size) + self._num_cases

    def _bounds(self, t: B.Triple) -> Bounds:
        return Bounds(t.estimate, t.lower, t.upper)

    def _result(self, t: B.Triple, low: float = 0.0, high: float = 1.0, relative: bool = False) -> Bounds:
        # A weighted value is never reported exact: the summary sums weights
        # bin by bin, the evaluator case by case, and the two may differ in ulps.
        t = B.widen(t, self._terms(), low, high, force=self._weighted, relative=relative)
        return Bounds(t.estimate, t.lower, t.upper)

    # ------------------------------------------------------------------- scalars

    def average_precision(self, ties: str | None = None) -> Bounds:
        """Average precision (grouped ties), exact or with certified bounds.

        ``ties``: None or ``"grouped"`` (the summary's policy); ``"stable"``
        and ``"expected"`` raise :class:`~scored_pr.UnsupportedQuery` (a
        summary keeps neither the insertion order nor the tie groups inside
        a bin).

        AP = (1 / num_positive_ref) * sum over correct cases of the precision
        at the end of their tie group (misses contribute 0). NaN when
        num_positive_ref is 0.

        Bounds, per bin with P correct and N incorrect cases below c correct
        of t cases: upper P (c + P) / (t + P) (the bin's correct cases first,
        as one tie group); lower sum_{j=1..P} (c + j) / (t + N + j) (its
        incorrect cases first, then the correct ones one at a time), or the
        integral P - (t + N - c) ln(1 + P / (t + N)) with sample weights;
        estimate P (c + P) / (t + P + N) (the bin as one tie group). The
        derivation is in :func:`scored_pr._core.bins.average_precision`.

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation(max_bins=1)
        >>> s.add_cases([True, False, True], [3.0, 2.0, 1.0])
        >>> ap = s.average_precision()
        >>> round(ap.lower, 6), float(ap), ap.upper  # exact value: (1 + 2/3) / 2 = 0.8333...
        (0.583333, 0.6666666666666666, 1.0)
        >>> ap.lower <= (1 + 2 / 3) / 2 <= ap.upper
        True
        """
        if ties is not None:
            ties = check_choice(ties, "average_precision", "ties", ("stable", "grouped", "expected"))
            if ties != "grouped":
                raise self._unsupported(
                    f"average_precision(ties={ties!r})",
                    "a summary keeps neither the insertion order of tied cases nor the tie groups inside a bin",
                    "use ties='grouped' (the default), or an exact ScoredPrecisionRecallEvaluation",
                )

        def build() -> Bounds:
            pos_ref, _ = self._refs()
            return self._result(B.average_precision(self._bins, pos_ref, not self.weighted))

        return self._cached("ap", build)

    def _uninterpolated(self, func: str, interpolate: bool) -> None:
        if check_flag(interpolate, func, "interpolate"):
            raise self._unsupported(
                f"{func}(interpolate=True)",
                "a summary certifies bounds for the uninterpolated curves only",
                "use interpolate=False (with pr_band()/roc_band()), or an exact ScoredPrecisionRecallEvaluation",
            )

    def area_under_pr_curve(self, interpolate: bool = False) -> Bounds:
        """Uninterpolated area under the PR curve: :meth:`average_precision`, widened by its rounding.

        The area and AP are equal in exact arithmetic; the evaluator's
        ``area_under_pr_curve(False)`` sums recall step times precision row
        by row, AP sums the precisions and divides once, so the two floats
        differ by at most (m + 1) * 2**-51 for m correct cases (see the
        evaluator's ``average_precision``). The bounds are AP's, widened by
        that much (so they hold the evaluator's float; ``exact`` is False
        unless nothing correct was added); the estimate is AP's. 0.0 when no
        positive reference was added (an empty curve), as the evaluator.

        ``interpolate=True`` raises :class:`~scored_pr.UnsupportedQuery`.
        """
        self._uninterpolated("area_under_pr_curve", interpolate)
        if self._pos_ref() == 0:
            return Bounds(0.0, 0.0, 0.0)
        ap = self.average_precision()
        if math.isnan(ap):
            return ap
        slack = (self.num_cases + 1) * 2.0**-51
        return Bounds(float(ap), max(0.0, ap.lower - slack), min(1.0, ap.upper + slack))

    def area_under_roc_curve(
        self, interpolate: bool = False, *, max_fpr: float | None = None, standardized: bool = True
    ) -> Bounds:
        """ROC AUC (grouped ties, uninterpolated), exact or with certified bounds.

        ``interpolate=True`` and a partial area (``max_fpr``) raise
        :class:`~scored_pr.UnsupportedQuery`.

        The probability that a positive reference case ranks above a negative
        one, tied pairs counting 1/2, misses and negative misses tied below
        every returned case (as the evaluator's ``area_under_roc_curve()``).
        NaN when either reference count is 0.

        Bounds: pairs in different bins are ordered by the bins; the P N
        pairs inside a range bin count anywhere from 0 (incorrect cases
        first) to P N (correct cases first), P N / 2 in the estimate. So the
        width is sum over range bins of P N / (num_positive_ref *
        num_negative_ref), which is what merging minimises. Unweighted, each
        of the three is twice its pair count, an exact integer, divided by
        2 R Q once, as the evaluator divides it: exact results are its float.
        """
        self._uninterpolated("area_under_roc_curve", interpolate)
        if max_fpr is not None:
            raise self._unsupported(
                "area_under_roc_curve(max_fpr=...)",
                "a summary certifies no bound for a partial ROC area",
                "use the full area, or an exact ScoredPrecisionRecallEvaluation",
            )

        def build() -> Bounds:
            pos_ref, neg_ref = self._refs()
            return self._result(
                B.roc_area(self._bins, self._misses, self._negative_misses, pos_ref, neg_ref, not self.weighted)
            )

        return self._cached("auc", build)

    def maximum_f_measure(self, beta: float = 1.0) -> Bounds:
        """The best F-beta over the operating points of the PR curve, exact or bounded.

        0.0 without a correct case. Lower bound (and estimate): the best F at
        the bin ends, since every bin holding a correct case has an operating
        point at least that good; upper bound: the F of accepting each range
        bin's correct cases before its incorrect ones. See
        :func:`scored_pr._core.bins.maximum_f_measure`.
        """
        beta = check_beta(beta, "maximum_f_measure")

        def build() -> Bounds:
            pos_ref, _ = self._refs()
            return self._result(B.maximum_f_measure(self._bins, pos_ref, beta))

        return self._cached(("max_f", beta), build)

    def precision_at_threshold(self, threshold: float) -> Bounds:
        """Precision of accepting every case scored >= ``threshold``.

        Exact when no range bin straddles the threshold. NaN when no case is
        accepted; when the threshold falls in the top bin, the bounds cover
        the values the precision takes when at least one case is accepted.
        See :func:`scored_pr._core.bins.precision_at_threshold`.

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation()
        >>> s.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> s.precision_at_threshold(0.7), s.recall_at_threshold(0.75)
        (0.6666666666666666, 0.5)
        """
        threshold = check_score(threshold, "precision_at_threshold", "threshold")
        return self._cached(("p_thr", threshold), lambda: self._result(B.precision_at_threshold(self._bins, threshold)))

    def recall_at_threshold(self, threshold: float) -> Bounds:
        """Recall (over num_positive_ref) of accepting every case scored >= ``threshold``.

        Bounds: the straddling range bin's correct cases are all, or none,
        accepted. NaN when num_positive_ref is 0.
        """
        threshold = check_score(threshold, "recall_at_threshold", "threshold")

        def build() -> Bounds:
            pos_ref, _ = self._refs()
            if pos_ref == 0:
                return Bounds(math.nan, math.nan, math.nan)
            tp, _, _, _ = B.accepted_at(self._bins, threshold)
            return self._result(B.Triple(tp.lower / pos_ref, tp.estimate / pos_ref, tp.upper / pos_ref))

        return self._cached(("r_thr", threshold), build)

    def _count(self, t: B.Triple, scale: float) -> Bounds:
        """A weight (or count) as Bounds; weighted, widened by the rounding margin of sums up to ``scale``."""
        if not self._weighted:
            return Bounds(t.estimate, t.lower, t.upper)
        margin = 8.0 * (self._terms() + 8) * _EPS * max(1.0, scale)
        return Bounds(t.estimate, max(0.0, t.lower - margin), t.upper + margin)

    def confusion_at_threshold(self, threshold: float) -> T.Confusion:
        """TP, FP, TN, FN of accepting every case scored >= ``threshold``, each a :class:`Bounds`.

        As ``ScoredPrecisionRecallEvaluation.confusion_at_threshold``: TP and
        FP the correct and incorrect cases (weight) scored >= ``threshold``
        (a whole tie group on one side), FN = num_positive_ref - TP (misses
        included), TN = num_negative_ref - FP (negative misses included);
        all zero on an empty summary. Exact when no range bin straddles the
        threshold (lo < threshold <= hi) and there are no weights; otherwise
        any part of the straddling bin's P correct and N incorrect cases may
        be accepted: TP in [A, A + P], FP in [B, B + N], and FN, TN the
        complements; the estimate takes the share (hi - threshold) / (hi -
        lo) of the bin. Weighted: widened by the rounding margin of the sums.

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation()
        >>> s.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1]); s.add_misses(1)
        >>> s.confusion_at_threshold(0.75)
        Confusion(tp=1.0, fp=1.0, tn=1.0, fn=2.0)
        """
        threshold = check_score(threshold, "confusion_at_threshold", "threshold")

        def build() -> T.Confusion:
            pos_ref, neg_ref = self._refs()
            tp, fp, _, _ = B.accepted_at(self._bins, threshold)
            fn = B.Triple(pos_ref - tp.upper, pos_ref - tp.estimate, pos_ref - tp.lower)
            tn = B.Triple(neg_ref - fp.upper, neg_ref - fp.estimate, neg_ref - fp.lower)
            return T.Confusion(
                self._count(tp, pos_ref), self._count(fp, neg_ref), self._count(tn, neg_ref), self._count(fn, pos_ref)
            )

        return self._cached(("confusion", threshold), build)

    def f_measure_at_threshold(self, threshold: float, beta: float = 1.0) -> Bounds:
        """F-beta of accepting every case scored >= ``threshold``, exact or bounded.

        F = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP) with the counts of
        :meth:`confusion_at_threshold`, as the evaluator's
        ``f_measure_at_threshold``: NaN (0/0) when nothing is accepted and
        there is no positive reference. Exact (the evaluator's float) when no
        range bin straddles the threshold and there are no weights. Bounds:
        F grows with TP and falls with FP, so the lower bound accepts the
        straddling bin's incorrect cases and not its correct ones, the upper
        the reverse (see :func:`scored_pr._core.bins.f_measure_at_threshold`).

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation()
        >>> s.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
        >>> s.f_measure_at_threshold(0.7)
        0.8
        """
        threshold = check_score(threshold, "f_measure_at_threshold", "threshold")
        beta = check_beta(beta, "f_measure_at_threshold")

        def build() -> Bounds:
            pos_ref, _ = self._refs()
            return self._result(B.f_measure_at_threshold(self._bins, threshold, pos_ref, beta))

        return self._cached(("f_thr", threshold, beta), build)

    def f_measure_at(self, k: int, beta: float = 1.0) -> Bounds:
        """F-beta of the top ``k`` cases taken as the retrieved set, exact or bounded.

        As ``ScoredPrecisionRecallEvaluation.f_measure_at``: F = (1 + b^2) TP
        / ((1 + b^2) TP + b^2 FN + FP), TP and FP counted in the top min(k,
        num_cases) (a tie group cut by the rank contributes its expected
        correct count), FN = num_positive_ref - TP; NaN for 0/0. Exact (the
        evaluator's float) when the bin holding the rank is exact. Bounds:
        with the retrieved count fixed, F grows with TP, whose bounds are
        those of :meth:`precision_at`. ValueError on a weighted summary (a
        rank-based measure).
        """
        self._unweighted("f_measure_at")
        k = check_positive_int(k, "f_measure_at", "k")
        beta = check_beta(beta, "f_measure_at")

        def build() -> Bounds:
            return self._result(B.f_measure_top(self._bins, min(k, self._num_cases), self.num_positive_ref, beta))

        return self._cached(("f_at", k, beta), build)

    def e_measure_at(self, k: int, beta: float = 1.0) -> Bounds:
        """van Rijsbergen's E = 1 - F-beta of the top ``k`` cases, with the bounds of :meth:`f_measure_at` reversed."""
        k = check_positive_int(k, "e_measure_at", "k")
        beta = check_beta(beta, "e_measure_at")
        f = self.f_measure_at(k, beta)
        return Bounds(1.0 - float(f), 1.0 - f.upper, 1.0 - f.lower)

    @staticmethod
    def print_precision_recall_curve(curve: Any, file: TextIO | None = None) -> None:
        """Print a PR curve (e.g. :meth:`pr_curve`) as precision, recall and F1 columns.

        As ``ScoredPrecisionRecallEvaluation.print_precision_recall_curve``.
        LingPipe name: ``printPrecisionRecallCurve(double[][], PrintWriter)``.
        """
        import sys

        from .. import _report

        _report.print_curve(curve, sys.stdout if file is None else file)

    def average_precision_at(self, k: int) -> Bounds:
        """AP@k: the sum over the top ``k`` of precision(i) * rel(i), over min(k, num_positive_ref).

        As ``ScoredPrecisionRecallEvaluation.average_precision_at`` with
        grouped ties (correct cases get the precision at the end of their
        tie group; a group cut by ``k`` contributes pro rata); NaN when
        num_positive_ref is 0. Exact (the evaluator's float) when every bin
        in the top ``k`` is exact. Bounds: the :meth:`average_precision`
        bounds of the bins wholly in the top ``k``, and for the range bin
        that ``k`` cuts between 0 and min(P, s) (c + P) / (t + P) (see
        :func:`scored_pr._core.bins.average_precision_at`). ValueError on a
        weighted summary (a rank-based measure).

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation()
        >>> s.add_cases([True, False, True, True], [4, 3, 2, 1])
        >>> s.average_precision_at(3)  # (1/1 + 2/3) / min(3, 3)
        0.5555555555555555
        """
        self._unweighted("average_precision_at")
        k = check_positive_int(k, "average_precision_at", "k")
        return self._cached(
            ("ap_at", k), lambda: self._result(B.average_precision_at(self._bins, self.num_positive_ref, k))
        )

    def _at_recall(self, func: str, recall: float) -> tuple[Bounds, Bounds]:
        self._unweighted(func)
        recall = check_fraction(recall, func, "recall", low_open=True)

        def build() -> tuple[Bounds, Bounds]:
            hit = B.k_at_recall(self._bins, self.num_positive_ref, recall)
            if hit is None:
                nan = Bounds(math.nan, math.nan, math.nan)
                return nan, nan
            k, precision = hit
            return Bounds(k.estimate, k.lower, k.upper), self._result(precision)

        return self._cached(("at_recall", recall), build)

    def k_at_recall(self, recall: float) -> Bounds:
        """The smallest number of top cases whose recall is >= ``recall``, exact or bounded.

        As ``ScoredPrecisionRecallEvaluation.k_at_recall`` with grouped ties:
        the cut-off ends the tie group holding the m-th correct case, m the
        correct cases needed (recall compared as the curves' float64 value);
        NaN when unreachable (misses, no positive reference). Exact when
        that bin is exact. Bounds: between the bin's cases before the m-th
        correct one and the bin's end (see :func:`scored_pr._core.bins.k_at_recall`).
        ValueError on a weighted summary (a rank-based measure).

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation()
        >>> s.add_cases([False, True, False, True], [4, 3, 2, 1])
        >>> s.k_at_recall(0.5), s.precision_at_recall(1.0)
        (2.0, 0.5)
        """
        return self._at_recall("k_at_recall", recall)[0]

    def precision_at_recall(self, recall: float) -> Bounds:
        """Precision at :meth:`k_at_recall` (``recall``), exact or bounded; NaN when unreachable.

        Bounds: the cut-off takes at least the correct cases needed and any
        number of the bin's incorrect ones, so precision is between m / (t +
        m - c + N) and (c + P) / (t + P) (see
        :func:`scored_pr._core.bins.k_at_recall`). ValueError on a weighted
        summary.
        """
        return self._at_recall("precision_at_recall", recall)[1]

    def _tp_top(self, k: int, den: int) -> B.Triple:
        """Correct cases among the top min(k, num_cases), over ``den``, each an exact ratio rounded once."""
        return B.top_ratio(self._bins, min(k, self._num_cases), den)

    @renamed_keyword("rank", "k")
    def precision_at(self, k: int) -> Bounds:
        """Precision over the top ``k`` cases; NaN when fewer cases were added.

        Grouped ties: a tie group cut by the rank contributes its expected
        correct count. When the bin holding the rank is exact the value is
        the evaluator's float: the integer fraction (c (P + N) + s P) /
        ((P + N) k) rounded once. Bounds: the range bin holding the rank
        gives the top ``k`` between max(0, s - N) and min(P, s) of its
        cases' correct ones, s the number of its cases in the top ``k``.
        The former keyword ``rank=`` still works and emits a
        DeprecationWarning. LingPipe name: ``precisionAt(int)``; trec_eval:
        ``P_k``.

        Raises
        ------
        ValueError
            On a weighted summary (rank-based measures count cases).
        """
        self._unweighted("precision_at")
        rank = check_positive_int(k, "precision_at", "k")

        def build() -> Bounds:
            if rank > self._num_cases:
                return Bounds(math.nan, math.nan, math.nan)
            return self._result(self._tp_top(rank, rank))

        return self._cached(("p_at", rank), build)

    def recall_at(self, k: int) -> Bounds:
        """Recall over the top ``k`` cases (all cases when fewer); NaN without positive reference.

        Bounds as for :meth:`precision_at`. ValueError on a weighted summary.
        """
        self._unweighted("recall_at")
        k = check_positive_int(k, "recall_at", "k")

        def build() -> Bounds:
            r = self.num_positive_ref
            if r == 0:
                return Bounds(math.nan, math.nan, math.nan)
            return self._result(self._tp_top(k, r))

        return self._cached(("r_at", k), build)

    def r_precision(self) -> Bounds:
        """Precision over the top R cases, R = num_positive_ref; ranks past the cases count as errors.

        NaN when R is 0. Bounds as for :meth:`precision_at`. ValueError on a
        weighted summary. trec_eval name: ``Rprec``.
        """
        self._unweighted("r_precision")

        def build() -> Bounds:
            r = self.num_positive_ref
            if r == 0:
                return Bounds(math.nan, math.nan, math.nan)
            return self._result(self._tp_top(r, r))

        return self._cached("r_prec", build)

    def pr_breakeven_point(self) -> Bounds:
        """Precision-recall break-even point: :meth:`r_precision` (as in the evaluator)."""
        self._unweighted("pr_breakeven_point")
        return self.r_precision()

    def reciprocal_rank(self) -> Bounds:
        """1 / rank of the first correct case (expected over its tie group); 0.0 if none.

        Bounds: in a range bin with t cases above it and N incorrect cases,
        the first correct case ranks between t + 1 and t + N + 1. In an
        exact bin (one tie group) the expectation is summed term by term,
        as the evaluator does, while N < 4096 (exact, the evaluator's float);
        past that the remaining terms are bounded, so the value comes back
        with bounds a fraction of a percent wide. ValueError on a weighted
        summary. trec_eval name: ``recip_rank``.

        Notes
        -----
        O(bins + 4096) time and memory whatever the number of cases (a
        one-bin summary of 10**9 tied cases answers in about a millisecond).
        """
        self._unweighted("reciprocal_rank")
        return self._cached("rr", lambda: self._result(B.reciprocal_rank(self._bins), relative=True))

    # -------------------------------------------------------------------- curves

    def _curves(self) -> tuple[CurveBand, CurveBand]:
        def build() -> tuple[CurveBand, CurveBand]:
            pos_ref, neg_ref = self._refs()
            pr, roc = B.estimate_curves(self._bins, pos_ref, neg_ref, self._misses, self._negative_misses)
            pr_box, roc_box = B.curve_boxes(
                self._bins, pos_ref, neg_ref, self._misses, self._negative_misses, not self.weighted
            )
            # weighted: the evaluator sums weights case by case, the summary bin by bin
            exact = bool((self._bins.lo == self._bins.hi).all()) and not self._weighted
            margin = 8.0 * (self._terms() + 8) * 2.0**-52
            for box in (pr_box, roc_box):
                box[:, 0::2] -= margin
                box[:, 1::2] += margin
            for a in (pr, roc, pr_box, roc_box):
                a.setflags(write=False)
            return CurveBand(pr, pr_box, exact), CurveBand(roc, roc_box, exact)

        return self._cached("curves", build)

    def pr_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """The PR curve: (recall, precision) rows, one per bin holding a correct case.

        ``interpolate=True`` raises :class:`~scored_pr.UnsupportedQuery`.

        Equal to ``ScoredPrecisionRecallEvaluation(ties="grouped").pr_curve()``
        bit for bit when ``pr_band().exact`` (every bin exact, no weights);
        otherwise the estimate (each bin one tie group). :meth:`pr_band`
        gives the boxes that hold the exact curve.
        """
        self._uninterpolated("pr_curve", interpolate)
        return self._curves()[0].estimate

    def roc_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """The ROC curve: (recall, rejection recall) rows, the evaluator's grouped layout.

        ``interpolate=True`` raises :class:`~scored_pr.UnsupportedQuery`.

        Equal to the grouped evaluator's ``roc_curve()`` bit for bit when
        ``roc_band().exact``; otherwise the estimate. :meth:`roc_band` gives
        the boxes.
        """
        self._uninterpolated("roc_curve", interpolate)
        return self._curves()[1].estimate

    def pr_band(self) -> CurveBand:
        """The PR curve estimate with boxes that hold every point of the exact curve.

        A range bin with P correct and N incorrect cases below c correct of t
        cases has its points at recall in [(c + 1) / R, (c + P) / R] (c / R
        with weights) and precision in [(c + 1) / (t + N + 1), (c + P) / (t + P)]
        (see :func:`scored_pr._core.bins.curve_boxes`).

        Examples
        --------
        >>> from scored_pr import BoundedEvaluation
        >>> s = BoundedEvaluation(max_bins=1)
        >>> s.add_cases([True, False, True], [3.0, 2.0, 1.0])
        >>> band = s.pr_band()
        >>> band.boxes.round(3).tolist()
        [[0.5, 1.0, 0.5, 1.0]]
        >>> band.contains([[0.5, 1.0], [1.0, 2 / 3]]).tolist()  # the exact curve's points
        [True, True]
        """
        return self._curves()[0]

    def roc_band(self) -> CurveBand:
        """The ROC curve estimate with boxes that hold the exact curve and its segments.

        Inside a range bin the exact curve is a monotone path from the bin's
        first corner (recall c / R, rejection recall 1 - f / Q) to its last
        ((c + P) / R, 1 - (f + N) / Q); the box is that rectangle.
        """
        return self._curves()[1]
