"""ScoredPrecisionRecallEvaluation: the stateful shell around the kernel.

The class validates input, stores cases (:mod:`scored_pr._evaluators.store`), caches what
queries derive, and delegates every number to :mod:`scored_pr._core` (points, curves, measures, thresholds).
"""

from __future__ import annotations

import os
import sys
import threading
import weakref
from typing import Any, Callable, TextIO, TypeVar

import numpy as np
import numpy.typing as npt

from .._core import curves as C, points as P, scalars as M, thresholds as T
from .. import _report
from .._measures import MEASURES, REPORT_RANKS
from .._state import exact as _exact_state
from .._kinds import Kind, register
from .base import EvaluationBase
from .exact_base import HELD, readonly as _readonly
from .exact_calibration import CalibrationQueries
from .exact_decisions import DecisionQueries
from .exact_ranks import RankQueries
from .exact_scalars import ScalarQueries
from .exact_thresholds import ThresholdQueries
from .guard import claim, guarded, guards_itself
from .store import CaseStore
from .._core.stats import Interval
from .._validation import (
    check_batch,
    check_beta,
    check_choice,
    check_correct,
    check_pos_label,
    check_weight,
    check_weights,
    MAX_WEIGHT as _MAX_WEIGHT,
    MIN_WEIGHT as _MIN_WEIGHT,
    check_count,
    check_flag,
    check_fraction,
    check_partial_auc,
    check_positive_int,
    check_same_ties,
    check_score,
    check_ties,
    check_type_named,
    read_only_evaluation,
    renamed_keyword,
)

_T = TypeVar("_T")

_CLS = "ScoredPrecisionRecallEvaluation"
#: add_case's default weight: a call that passes no weight is recognised by identity, in one step.
_ONE = 1.0

_get_ident = threading.get_ident
_HELD = HELD  # the memo's key of the curves held during summary() (see summary)


@guarded
class ScoredPrecisionRecallEvaluation(ScalarQueries, RankQueries, ThresholdQueries, CalibrationQueries, DecisionQueries,
                                      EvaluationBase):
    """Precision-recall and ROC evaluation of scored cases, built incrementally.

    Cases ``(correct, score)`` arrive one at a time (:meth:`add_case`) or in
    batches (:meth:`add_cases`); relevant items the system never returned are
    counted with :meth:`add_misses`. Every query ranks the cases by descending
    score and derives its answer from that ranking; results are cached until
    the next addition.

    Parameters
    ----------
    ties : {"grouped", "stable"}, default "grouped"
        How cases with equal scores are ranked.

        ``"grouped"`` (the default, independent of insertion order): every
        distinct score is one threshold; tied cases enter
        together, so there is a cut-off after every tie group and a curve
        point after every group holding a correct case. Without misses,
        :meth:`average_precision` then equals scikit-learn's
        ``average_precision_score`` and ``area_under_roc_curve(False)`` its
        ``roc_auc_score``, whatever the insertion order. Rank-based measures
        (:meth:`precision_at`, :meth:`r_precision`, :meth:`reciprocal_rank`)
        take the expected value over all orderings of a tie group that the
        rank cuts through.

        ``"stable"`` (LingPipe 3.9.2 order): equal scores keep insertion
        order, there is a cut-off after every case and a curve point after
        every correct case. Results then depend on the order in which tied
        cases arrive; use it to reproduce LingPipe. A case with a sample
        weight is one block here (one cut-off after it, whatever its
        weight), so an integer weight k is not k copies under this policy.

    pos_label : str, number or bool, optional
        The label of the positive class. Without it, labels must be bool, or
        1 (positive) and 0 or -1 (negative) in any integer or float type
        (``1.0``/``0.0`` from pandas, ``-1``/``1`` from SVMs); with it, a
        case is correct when its label equals ``pos_label`` (e.g.
        ``pos_label="spam"``), and every other label is negative. A string
        label never equals a numeric ``pos_label`` (a TypeError, not a
        silent negative), and NaN is never a label.

    Raises
    ------
    ValueError
        If ``ties`` is not one of the two policies.
    TypeError
        If ``pos_label`` is not None, a str, a number or a bool.

    Notes
    -----
    LingPipe name: ``com.aliasi.classify.ScoredPrecisionRecallEvaluation``.
    Not thread-safe: share one instance between threads only behind a lock
    (:class:`SynchronizedEvaluation`). Calls that overlap from two threads
    raise RuntimeError instead of losing cases: the thread that made the
    evaluator checks this in ``add_case`` without a lock; once another
    thread has called it, every call takes an internal lock.

    Storage: 9 bytes per case once queried (a float64 score and a bool), plus
    the derived arrays of the last query; cases added since the last query sit
    in a ``sortedcontainers.SortedList`` until the next one.

    Examples
    --------
    >>> from scored_pr import ScoredPrecisionRecallEvaluation
    >>> ev = ScoredPrecisionRecallEvaluation()
    >>> ev.add_case(True, 0.9)
    >>> ev.add_case(False, 0.8)
    >>> ev.add_case(True, 0.4)
    >>> ev.add_misses(1)
    >>> ev.average_precision()  # (1/1 + 2/3) / 3
    0.5555555555555555
    >>> ev.precision_at(2)
    0.5
    """

    __module__ = "scored_pr"  # pickles and reprs name the public module, wherever this file moves

    __slots__ = (
        "_ties", "_pos_label", "_store", "_misses", "_negative_misses", "_memo", "_guard",
        "_read_only", "__weakref__",
    )
    _KIND = _CLS
    _CACHED_ANSWERS = True  # see guard._wrap_query: every mutation replaces _memo, none writes into it

    def __init__(self, ties: str = "grouped", *, pos_label: Any = None) -> None:
        self._ties: str = check_ties(ties)
        self._pos_label: Any = check_pos_label(pos_label, _CLS)
        self._store = CaseStore()
        self._misses = 0
        self._negative_misses = 0
        self._memo: dict[Any, Any] = {}
        # Misuse detection (see _concurrent_use). The thread that made the evaluator owns it:
        # its add_case only raises _busy around the change and re-reads _owner, which costs far
        # less than a lock. The first call from any other thread marks the evaluator shared
        # (guard.SHARED_OWNER) for good and checks _busy (see _acquire); from then on every call takes _guard
        # (re-entrant, so that a query may build on another query), as every other method
        # always does.
        claim(self)  # _guard, _owner, _busy
        self._read_only = False  # see _freeze

    # ------------------------------------------------------------------ mutators

    @guards_itself
    def add_case(self, correct: bool, score: float, weight: float = _ONE) -> None:
        """Add one case: whether the response was correct, and its score.

        Parameters
        ----------
        correct : bool or label
            True if the case is a positive reference (the response was
            correct): bool, or 1 vs 0/-1 in any integer or float type, or
            any label compared with ``pos_label`` when the evaluator has one.
            0-d numpy arrays and CPU tensors are accepted.
        score : float
            The response score; higher ranks first. int, float and numpy
            integer/floating scalars, 0-d arrays and CPU tensors; ``inf`` and
            ``-inf`` are allowed, and ``-0.0`` ties with ``0.0``.
        weight : float, default 1.0
            The case's sample weight: 0, or from 2**-1022 (the smallest
            normal float64) to 2**970; an int must be exactly a float64 (see
            docs/definitions.md, "Sample weights"). Anything else is a
            ValueError (TypeError for a non-number) that adds nothing.

        Raises
        ------
        TypeError
            If ``correct`` is not a label this evaluator accepts (a string
            without ``pos_label``, None), or ``score`` is not a real number
            (str, None, bool, complex), or a tensor is on a GPU (call
            ``.cpu()``).
        ValueError
            If ``correct`` is another number, or ``score`` is NaN or not
            exactly representable as float64. The evaluation is unchanged.

        Notes
        -----
        LingPipe name: ``addCase(boolean, double)``. O(log n) amortised: one
        ``SortedList.add``. From the thread that made the evaluator no lock
        is taken (a flag and a re-read detect another thread's call); after a
        call from another thread, every call takes the evaluator's lock.
        """
        # Fast path for the common types; anything else goes through the checks.
        if type(correct) is not bool or self._pos_label is not None:
            correct = check_correct(correct, "add_case", pos_label=self._pos_label)
        if type(score) is not float or score != score:
            score = check_score(score, "add_case")
        if weight is not _ONE and (type(weight) is not float or not (_MIN_WEIGHT <= weight <= _MAX_WEIGHT or weight == 0.0)):
            weight = check_weight(weight, "add_case")
        # Invalidate first: an exception between the two lines then leaves a
        # valid (empty) cache and the case either stored or not, never half.
        me = _get_ident()
        if self._owner == me:
            # The owner's path, without the lock: announce the call, then re-read _owner.
            # Another thread marks the evaluator shared before it reads _busy (_acquire), so,
            # one bytecode at a time under the GIL, either it sees _busy and refuses, or this
            # call sees it shared and takes the lock below.
            self._busy = me
            try:
                if self._owner == me:
                    if self._memo:
                        self._memo = {}
                    self._store.add(correct, score, weight)
                    return
            finally:
                self._busy = 0
        if self._read_only:
            raise read_only_evaluation(_CLS, "add_case")
        self._acquire("add_case")
        try:
            if self._memo:
                self._memo = {}
            self._store.add(correct, score, weight)
        finally:
            self._guard.release()

    def add_cases(self, correct: Any, scores: Any, sample_weight: Any = None) -> None:
        """Add a batch of cases; equivalent to ``add_case`` in a loop, but atomic.

        Parameters
        ----------
        correct : array-like or iterable of labels
            1-dimensional (or an (n, 1) column): bool, 1 vs 0 or -1 (any
            integer or float dtype; one batch uses either 0 or -1 for the
            negatives), or labels compared with ``pos_label``.
        scores : array-like or iterable of float
            1-dimensional, same length as ``correct``; no NaN.
        sample_weight : array-like of float, optional
            One weight per case (scikit-learn's ``sample_weight``): 0, or
            from 2**-1022 (the smallest normal float64) to 2**970; an int
            must be exactly a float64. The first weight refused is named
            with its index, and nothing is added.
            Counts become sums of weights: recall's denominator is
            :attr:`positive_weight` (misses weigh 1 each), precision is
            correct weight over accepted weight, and the curves, their areas,
            :meth:`average_precision`, :meth:`maximum_f_measure`,
            :meth:`roc_points` and the threshold queries equal scikit-learn's
            with ``sample_weight`` (grouped ties, no misses). With grouped
            ties an integer weight k gives what k copies of the case give.
            With stable ties it does not: a weighted case is one block,
            with one cut-off and curve point after the whole block, where k
            copies would give one after each copy (the weighted value is that
            of the k copies ranked as a tie group of their own). Rank-based
            measures (``precision_at``, ``r_precision``, ...) count cases, not
            weight, and raise ValueError on a weighted evaluator. Nothing is
            stored for weights until one differs from 1.

        numpy arrays, CPU torch tensors (detached if they require grad),
        pandas and polars Series and anything exposing ``__array__``,
        ``__dlpack__`` or the buffer protocol are converted by numpy
        without a Python-level loop; lists and iterables element by element.

        Raises
        ------
        TypeError, ValueError
            As :meth:`add_case`, naming the index of the first bad element;
            also if the lengths differ or an input is not 1-dimensional. Either
            every case is added or none is.

        Notes
        -----
        O(k) here (one copy); the O(k log k) sort happens at the next query.
        Scores are converted to float64.
        """
        c, s = check_batch(correct, scores, pos_label=self._pos_label)
        w = None if sample_weight is None else check_weights(sample_weight, c.size, "add_cases")
        self._add_checked(c, s, w, "add_cases")

    def _add_checked(
        self,
        c: npt.NDArray[np.bool_],
        s: npt.NDArray[np.float64],
        w: npt.NDArray[np.float64] | None,
        func: str,
    ) -> None:
        """Commit a batch already validated (by add_cases or a functional wrapper), all or nothing."""
        self._acquire(func)
        try:
            if self._memo and c.size:
                self._memo = {}
            self._store.add_batch(c, s, w)
        finally:
            self._guard.release()

    def add_misses(self, count: int) -> None:
        """Count positive reference cases that the system never returned.

        Misses raise ``num_positive_ref`` (so every recall denominator) but
        add no case to the ranking. LingPipe name: ``addMisses(int)``.

        Raises
        ------
        TypeError
            If ``count`` is not an int (bool and float are rejected).
        ValueError
            If ``count`` is negative.
        """
        self._add_count("add_misses", "_misses", count)

    def add_negative_misses(self, count: int) -> None:
        """Count negative reference cases that the system never returned.

        They raise ``num_negative_ref`` (the ROC denominator) and are treated
        as rejected at every threshold. No LingPipe equivalent.

        Raises
        ------
        TypeError
            If ``count`` is not an int (bool and float are rejected).
        ValueError
            If ``count`` is negative.
        """
        self._add_count("add_negative_misses", "_negative_misses", count)

    def _add_count(self, func: str, attr: str, count: int) -> None:
        """Validate ``count`` and add it to the counter ``attr``, invalidating the cache first."""
        self._acquire(func)
        try:
            # the total is read under the guard: read before it, a concurrent call's count was lost
            total = getattr(self, attr)
            count = check_count(count, func, already=total)
            if count and self._memo:
                self._memo = {}
            setattr(self, attr, total + count)
        finally:
            self._guard.release()

    def reset(self) -> None:
        """Remove every case, miss and negative miss: the evaluator is as new, with its settings.

        ``ties`` and ``pos_label`` are kept. For a fresh evaluation per
        epoch, day or shard without building a new object (and rewiring
        whatever holds it).

        Notes
        -----
        No LingPipe equivalent. O(1): the stored cases are dropped, not
        cleared one by one.

        Examples
        --------
        >>> ev = ScoredPrecisionRecallEvaluation(ties="stable")
        >>> ev.add_cases([True, False], [0.9, 0.1]); ev.add_misses(2)
        >>> ev.reset()
        >>> ev.num_cases, ev.num_misses, ev.ties, ev == ScoredPrecisionRecallEvaluation(ties="stable")
        (0, 0, 'stable', True)
        """
        fresh = CaseStore()
        self._acquire("reset")
        try:
            # one line that calls nothing, so no exception can split it
            self._store, self._misses, self._negative_misses, self._memo = fresh, 0, 0, {}
        finally:
            self._guard.release()

    # -------------------------------------------------------------------- counts

    @property
    def num_cases(self) -> int:
        """Cases added with add_case/add_cases (misses excluded). LingPipe: ``numCases()``."""
        return len(self._store)

    @property
    def num_positive_ref(self) -> int:
        """Positive reference cases: correct cases plus misses."""
        return self._store.num_correct + self._misses

    @property
    def num_negative_ref(self) -> int:
        """Negative reference cases: incorrect cases plus negative misses."""
        return len(self._store) - self._store.num_correct + self._negative_misses

    @property
    def weighted(self) -> bool:
        """Whether a sample weight other than 1 was ever added (O(1) after a query)."""
        return self._store.weighted

    def _pos_ref(self) -> int | float:
        """Recall's denominator: num_positive_ref, or the positive weight when weighted."""
        if not self._store.weighted:
            return self.num_positive_ref
        return self._points().total_tp + self._misses

    def _neg_ref(self) -> int | float:
        """The false positive rate's denominator: num_negative_ref or the negative weight."""
        if not self._store.weighted:
            return self.num_negative_ref
        return self._points().total_fp + self._negative_misses

    # --------------------------------------------------------------------- cache

    def _cached_weak(self, key: Any, build: Callable[[], _T]) -> _T:
        """As :meth:`_cached` for an array (or a tuple of arrays) of the curves' size.

        The cache keeps only weak references: a caller that holds the result
        gets the same object back in O(1), and a result nobody holds is freed,
        so that an evaluator retains its cases and little more.
        """
        refs = self._memo.get(key)
        if refs is not None:
            values = tuple(r() for r in refs)
            if all(v is not None for v in values):
                return values if len(values) > 1 else values[0]  # type: ignore[return-value]
        self._acquire("a query")
        try:
            value = build()
            items = value if isinstance(value, tuple) else (value,)
            memo = self._memo
            memo[key] = tuple(weakref.ref(v) for v in items)
            held = memo.get(_HELD)
            if held is not None:  # inside summary(): kept alive until it returns
                held.append(value)
        finally:
            self._guard.release()
        return value

    def _points(self, ties: str | None = None) -> P.Points:
        policy = self._ties if ties is None else ties

        def build() -> P.Points:
            neg, cor = self._store.arrays()
            return P.operating_points(neg, cor, policy, self._store.weights(), distinct=self._store.distinct)

        return self._cached(("points", policy), build)

    def _cutoffs(self) -> T.Cutoffs:
        return self._cached("cutoffs", lambda: T.threshold_cutoffs(*self._store.arrays(), self._store.weights()))

    def _curve(self, name: str, interpolate: bool) -> npt.NDArray[np.float64]:
        def build() -> npt.NDArray[np.float64]:
            if name == "roc":
                if not interpolate:  # the rows' ends only: no segment columns
                    return _readonly(C.roc_curve_rows(self._points(), self._pos_ref(), self._neg_ref()))
                rows = self._roc_rows(interpolate)
                return _readonly(np.column_stack((rows.recall, rows.rr_end)))
            if interpolate:
                return _readonly(C.interpolate(self._curve(name, False)))
            pts = self._points()
            if name == "pr":
                return _readonly(C.pr_curve(pts, self._pos_ref()))
            return _readonly(C.pr_score_curve(pts, self._pos_ref()))

        return self._cached_weak((name, interpolate), build)

    def _pr_columns(self, interpolate: bool) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(recall, precision) of ``pr_curve(interpolate)`` as two contiguous columns, bit for bit; cached weakly.

        What the PR areas, the maximum F and (inside summary()) the average
        precision read: built once per summary() (held there with the
        curves), with no strided rows and no copy of a curve; a PR curve
        a caller still holds is read in place.
        """

        def build() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
            refs = self._memo.get(("pr", interpolate))
            curve = None if refs is None else refs[0]()
            if curve is not None:  # a curve already built (and held): its columns, no new arrays
                return curve[:, 0], curve[:, 1]
            if interpolate:
                x, y = C.interpolate_columns(*self._pr_columns(False))
            else:
                x, y = C.pr_columns(self._points(), self._pos_ref())
            return _readonly(x), _readonly(y)

        return self._cached_weak(("pr_columns", interpolate), build)

    def _roc_rows(self, interpolate: bool) -> C.RocRows:
        """The ROC rows with their segments (see :class:`scored_pr._core.curves.RocRows`); not cached, O(P)."""

        def build() -> C.RocRows:
            if not interpolate:
                return C.roc_rows(self._points(), self._pos_ref(), self._neg_ref())
            if self._ties == "stable":  # LingPipe: prune dominated points, vertical steps
                raw = self._roc_rows(False)
                keep = C.interpolation_mask(raw.rr_end)
                fp = raw.fp[keep]
                return C.RocRows(raw.recall[keep], raw.rr_end[keep], raw.rr_end[keep], raw.tp[keep], fp, fp)
            if not self._store.weighted:  # the hull of the integer counts: no float rows of every point
                return C.roc_points_hull(self._points(), self.num_positive_ref, self.num_negative_ref)
            return C.roc_convex_hull(self._roc_rows(False))

        return build()

    def ranked_cases(
        self,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.float64] | None]:
        """The returned cases in rank order: (scores, correct, weights).

        The order every query ranks the cases in: scores descending, cases
        with equal scores in insertion order (under ``ties="grouped"`` that
        order inside a tie group changes no result). Misses and negative
        misses are not cases here (see :attr:`num_misses`,
        :attr:`num_negative_misses`). For code that needs the cases
        themselves: resampling (:func:`scored_pr.confidence_interval`),
        wrappers that derive their own curves (:mod:`scored_pr.lingpipe`).

        Returns
        -------
        scores : numpy.ndarray of float64, shape (num_cases,), read-only
        correct : numpy.ndarray of bool, shape (num_cases,), read-only
        weights : numpy.ndarray of float64, shape (num_cases,), read-only, or None
            None when no sample weight was given.

        Notes
        -----
        Not in LingPipe. O(n) for the first call after new cases (merging
        them into the ranking), O(1) after that: while a caller holds the
        arrays and no case, miss or reset changes the evaluator, a call
        returns the same array objects. The arrays stay valid (unchanged)
        after later additions.

        Examples
        --------
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True], [0.2, 0.9, 0.5])
        >>> scores, correct, weights = ev.ranked_cases()
        >>> scores.tolist(), correct.tolist(), weights
        ([0.9, 0.5, 0.2], [False, True, True], None)
        """

        def build() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
            neg, cor = self._store.arrays()
            return _readonly(np.negative(neg)), cor

        scores, correct = self._cached_weak("ranked_cases", build)
        return scores, correct, self._store.weights()

    # -------------------------------------------------------------------- curves

    def pr_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """The precision-recall curve: one (recall, precision) row per operating point.

        Parameters
        ----------
        interpolate : bool, default False
            If True, keep only the points whose precision is strictly greater
            than that of every point with higher recall (LingPipe's pruning of
            dominated points), so precision strictly decreases.

        Returns
        -------
        numpy.ndarray of float64, shape (n_points, 2), read-only
            Column 0 is recall = TP / num_positive_ref (misses included), in
            strictly increasing order; column 1 is precision = TP / k at the
            cut-off. Stable ties: a row after every correct case. Grouped: a
            row after every tie group that holds a correct case. No artificial
            end points (0, 1) or (1, 0) are added. Empty (shape (0, 2)) when no
            correct case was added.

        Notes
        -----
        LingPipe name: ``prCurve(boolean)``. O(1) while a caller holds the
        array it returned last (the cache keeps only a weak reference to
        curves), else O(P) for P points.
        Call ``.copy()`` for a writable array.

        Examples
        --------
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([False, True, True], [0.9, 0.5, 0.1])
        >>> ev.pr_curve().tolist()
        [[0.5, 0.5], [1.0, 0.6666666666666666]]
        >>> ev.pr_curve(interpolate=True).tolist()
        [[1.0, 0.6666666666666666]]
        """
        return self._curve("pr", check_flag(interpolate, "pr_curve", "interpolate"))

    def pr_score_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """The precision-recall curve with the score of each operating point.

        Returns
        -------
        numpy.ndarray of float64, shape (n_points, 3), read-only
            Rows (recall, precision, score), as :meth:`pr_curve` plus the
            score of the last case above the cut-off (the threshold).

        Notes
        -----
        LingPipe name: ``prScoreCurve(boolean)``.
        """
        return self._curve("pr_score", check_flag(interpolate, "pr_score_curve", "interpolate"))

    def roc_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """The ROC curve: one (recall, rejection recall) row per operating point.

        Parameters
        ----------
        interpolate : bool, default False
            If True, the interpolated curve, which lies on or above every
            operating point. Stable ties (LingPipe): keep only points whose
            rejection recall is strictly greater than that of every point
            with higher recall. Grouped ties: the vertices of the ROC convex
            hull (Provost & Fawcett 2001), every point of which a classifier
            reaches by choosing at random between the two thresholds at the
            ends of its edge.

        Returns
        -------
        numpy.ndarray of float64, shape (n_points, 2), read-only
            Column 0 is recall (sensitivity) TP / num_positive_ref, strictly
            increasing; column 1 is rejection recall (specificity)
            1 - FP / num_negative_ref. The same cut-offs as :meth:`pr_curve`;
            with grouped ties and misses, one more row (1.0, 0.0) for the
            bottom tie group of unreturned positives and negatives. When
            num_negative_ref is 0, rejection recall is NaN (0/0) and the
            interpolated curve is empty.

        Notes
        -----
        LingPipe name: ``rocCurve(boolean)``. :meth:`roc_points` gives the
        curve in scikit-learn's (fpr, tpr, thresholds) layout.
        """
        return self._curve("roc", check_flag(interpolate, "roc_curve", "interpolate"))

    # ------------------------------------------------------- combining and state

    def merge(self, other: ScoredPrecisionRecallEvaluation) -> ScoredPrecisionRecallEvaluation:
        """A new evaluator equal to one fed this evaluator's inputs and then ``other``'s.

        Cases, misses and negative misses add up; with stable ties, on equal
        scores this evaluator's cases rank before ``other``'s. Neither input
        changes. This is what sharded and multi-process evaluation combine
        with (``ev1 + ev2``, ``ev1 += ev2``).

        Raises
        ------
        TypeError
            If ``other`` is not a ScoredPrecisionRecallEvaluation.
        ValueError
            If the tie policies differ.

        Notes
        -----
        O(n + m): one merge of two sorted runs.

        Examples
        --------
        >>> a = ScoredPrecisionRecallEvaluation(ties="stable"); a.add_case(True, 0.5)
        >>> b = ScoredPrecisionRecallEvaluation(ties="stable"); b.add_case(False, 0.5); b.add_misses(1)
        >>> (a + b).pr_curve().tolist(), (b + a).pr_curve().tolist()
        ([[0.5, 1.0]], [[0.5, 0.5]])
        """
        check_type_named(other, ScoredPrecisionRecallEvaluation, "merge", "other", f"a {_CLS}")
        check_same_ties(other._ties, self._ties, "merge")
        out = type(self)(ties=self._ties, pos_label=self._pos_label)
        out._store = self._store.merged_with(other._store)
        out._misses = self._misses + other._misses
        out._negative_misses = self._negative_misses + other._negative_misses
        return out

    def __add__(self, other: object) -> ScoredPrecisionRecallEvaluation:
        if not isinstance(other, ScoredPrecisionRecallEvaluation):
            return NotImplemented
        return self.merge(other)

    def __iadd__(self, other: object) -> ScoredPrecisionRecallEvaluation:
        if not isinstance(other, ScoredPrecisionRecallEvaluation):
            return NotImplemented
        merged = self.merge(other)  # validates before anything changes
        fresh: dict[Any, Any] = {}
        # commit: one line that calls nothing, so no exception can split it
        self._store, self._misses, self._negative_misses, self._memo = merged._store, merged._misses, merged._negative_misses, fresh
        return self

    def __eq__(self, other: object) -> bool:
        """Equal when tie policy, counts and ranking agree (so every result agrees)."""
        if not isinstance(other, ScoredPrecisionRecallEvaluation):
            return NotImplemented
        if (self._ties, self._misses, self._negative_misses) != (
            other._ties, other._misses, other._negative_misses
        ):
            return False
        a, b = self._store.arrays(), other._store.arrays()
        if not (np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])):
            return False
        wa, wb = self._store.weights(), other._store.weights()
        if wa is None or wb is None:
            return wa is None and wb is None
        return bool(np.array_equal(wa, wb))

    __hash__ = None  # type: ignore[assignment]  # mutable

    def to_dict(self) -> dict[str, Any]:
        """The evaluator's state as a JSON-safe dict (``json.dumps`` works on it).

        Keys: ``format``, ``version`` (1), ``ties``, ``scores`` (in rank order,
        ties in insertion order; infinities as the strings ``"Infinity"`` and
        ``"-Infinity"``), ``correct`` (bools, same order), ``misses`` and
        ``negative_misses``. :meth:`from_dict` reproduces every result exactly.

        Examples
        --------
        >>> ev = ScoredPrecisionRecallEvaluation(); ev.add_cases([True, False], [0.2, float("inf")])
        >>> ev.to_dict()["scores"], ev.to_dict()["correct"]
        (['Infinity', 0.2], [False, True])
        >>> ScoredPrecisionRecallEvaluation.from_dict(ev.to_dict()) == ev
        True
        """
        return _exact_state.state_to_dict(self._state())

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ScoredPrecisionRecallEvaluation:
        """The evaluator whose :meth:`to_dict` is ``d``.

        Raises
        ------
        TypeError, ValueError
            If any field is missing, unexpected, of the wrong type, or
            inconsistent (unknown version or tie policy, lengths that differ,
            scores out of rank order, NaN, negative counts). Nothing is built
            then.
        """
        return cls._from_state(_exact_state.state_from_dict(d))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the state to ``path`` in numpy's ``.npz`` format (no pickle).

        About 8.1 bytes per case: the scores as float64 and the correctness
        bits packed, plus a small JSON header. The file is written at exactly
        ``path`` (no suffix is added).

        The write is atomic: the state goes to a temporary file in the same
        directory, which is flushed, fsynced and then renamed over ``path``.
        A crash, ``kill -9`` or full disk at any moment leaves the complete
        previous file (or none, if there was none) or the complete new one;
        on an exception the temporary file is removed.
        """
        _exact_state.write(path, self._state())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ScoredPrecisionRecallEvaluation:
        """Read a state written by :meth:`save`, without pickle (``allow_pickle=False``).

        Raises
        ------
        FileNotFoundError
            If ``path`` does not exist.
        ValueError
            If the file is not a scored_pr state file, or is truncated,
            corrupted, of another format version, or inconsistent, or holds
            another kind of state (a ``BoundedEvaluation``'s, a
            ``WindowedEvaluation``'s...: the message names the kind found).

        Notes
        -----
        Memory is bounded by the file: member names, dtypes and shapes are
        checked against the header before any array data is read, arrays
        must be stored uncompressed (as :meth:`save` writes them), and no
        array larger than the header's case count is read, so a small
        hostile file cannot make ``load`` allocate gigabytes.

        Pickle (which :class:`ScoredPrecisionRecallEvaluation` supports) runs
        code from the data it reads: never unpickle data you do not trust.
        ``load`` and ``from_dict`` are safe on untrusted input.
        """
        return cls._from_state(_exact_state.read(path)[0])

    def __reduce__(self) -> tuple[Any, ...]:
        # Restored through a classmethod of the public class, so a pickle names only
        # scored_pr.ScoredPrecisionRecallEvaluation, wherever the private modules move.
        return (type(self)._from_pickle, (_exact_state.state_to_pickle(self._state()),))

    @classmethod
    def _from_pickle(cls, state: Any) -> ScoredPrecisionRecallEvaluation:
        """Unpickling entry point: the evaluator of a pickled state (validated like every loader)."""
        return cls._from_state(_exact_state.state_from_pickle(state))

    def _state(self) -> _exact_state.ExactState:
        """What every answer depends on, as plain arrays and counts (for the state formats)."""
        neg, correct = self._store.arrays()
        return _exact_state.ExactState(
            self._ties, neg, correct, self._store.weights(), self._misses, self._negative_misses, self._pos_label
        )

    @classmethod
    def _from_state(cls, st: _exact_state.ExactState) -> ScoredPrecisionRecallEvaluation:
        """The evaluator holding a validated state (from the state formats)."""
        ev = cls(ties=st.ties, pos_label=st.pos_label)
        ev._store = CaseStore.from_sorted(st.neg, st.correct, st.weights)
        ev._misses = st.misses
        ev._negative_misses = st.negative_misses
        return ev

    # ------------------------------------------------------------------ reports

    def summary(self) -> dict[str, float]:
        """Counts and every scalar measure in one flat dict, for loggers.

        Keys: num_cases, num_positive_ref, num_negative_ref, num_misses,
        average_precision, area_under_pr_curve,
        area_under_pr_curve_interpolated, area_under_roc_curve,
        area_under_roc_curve_interpolated, maximum_f_measure,
        pr_breakeven_point, reciprocal_rank, r_precision, and precision_at_k
        for every k in ``scored_pr._measures.REPORT_RANKS`` (5, 10, 25, 100,
        500: the same ranks as the text report, JSON and table outputs): the
        entries of ``scored_pr._measures.MEASURES`` marked ``summary``, in
        that order. Degenerate values are NaN or 0.0 as
        documented per method; nothing raises. With sample weights, the
        rank-based entries (break-even point, reciprocal rank, R-precision,
        precision at k) are NaN. Then, when every score is a probability
        (:meth:`scores_are_probabilities`), ``expected_calibration_error``
        (15 uniform bins, l1) and ``brier_score``; absent otherwise.
        """
        nan = float("nan")
        ranked = not self._store.weighted  # rank-based measures are NaN for weighted cases
        # Several measures read the raw PR curve (its area, the interpolated curve's, the maximum
        # F); the cache holds curves by weak reference only, so the curve of a large ranking was
        # built three times per summary. The curves built during this call are held until it
        # returns (_cached_weak adds them to the memo's _HELD list); answers already cached
        # build nothing.
        memo = self._memo
        memo[_HELD] = []
        try:
            out: dict[str, float] = {}
            for m in MEASURES:
                if not m.summary or not m.applies_to(self):  # calibration measures: probabilities only
                    continue
                if m.kind == "per_rank":
                    for k in REPORT_RANKS:
                        out[m.key(k)] = m.compute(self, k=k) if ranked else nan
                else:
                    out[m.name] = m.compute(self) if ranked or not m.rank_based else nan
        finally:
            memo.pop(_HELD, None)
        return out

    def __str__(self) -> str:
        """A LingPipe-style text report (see :func:`scored_pr._report.report`)."""
        return _report.report(self)

    def __repr__(self) -> str:
        label = "" if self._pos_label is None else f"pos_label={self._pos_label!r}, "
        return (
            f"{_CLS}(ties={self._ties!r}, {label}num_cases={self.num_cases}, "
            f"num_positive_ref={self.num_positive_ref}, num_negative_ref={self.num_negative_ref}, "
            f"num_misses={self.num_misses})"
        )

    @staticmethod
    def print_precision_recall_curve(curve: Any, file: TextIO | None = None) -> None:
        """Print a PR curve as three columns: precision, recall and F1.

        Parameters
        ----------
        curve : array-like, shape (n, 2) or (n, 3)
            Rows starting (recall, precision), e.g. from :meth:`pr_curve`.
        file : text stream, optional
            Where to print; standard output by default.

        Notes
        -----
        LingPipe name: ``printPrecisionRecallCurve(double[][], PrintWriter)``.
        Header ``%8s %8s %8s`` of PRECI., RECALL, F; rows ``%8.6f`` each.

        Examples
        --------
        >>> ScoredPrecisionRecallEvaluation.print_precision_recall_curve([[0.5, 1.0], [1.0, 0.5]])
          PRECI.   RECALL        F
        1.000000 0.500000 0.666667
        0.500000 1.000000 0.666667
        """
        _report.print_curve(curve, sys.stdout if file is None else file)


def add_trusted(
    ev: ScoredPrecisionRecallEvaluation,
    correct: npt.NDArray[np.bool_],
    scores: npt.NDArray[np.float64],
    weights: npt.NDArray[np.float64] | None,
    func: str,
) -> None:
    """Add a batch that the caller has already checked, all or nothing, under ``ev``'s guard.

    For the layers above the evaluators that validate at their own boundary
    (the functional API, the command line's readers): ``correct`` is a bool
    array (labels already compared with ``pos_label``), ``scores`` float64
    without NaN, ``weights`` None or checked weights; ``func`` names the caller
    in a refusal (another thread inside ``ev``, a read-only evaluator).
    """
    ev._add_checked(correct, scores, weights, func)


def operating_points(ev: ScoredPrecisionRecallEvaluation, ties: str | None = None) -> P.Points:
    """``ev``'s operating points under tie policy ``ties`` (default its own), cached: for the LingPipe wrappers."""
    return ev._points(ties)


# ScoredPrecisionRecallEvaluation report the public module (pickles, reprs); __test__ keeps the doctests
# of the class collected from this file.
__test__ = {"ScoredPrecisionRecallEvaluation": ScoredPrecisionRecallEvaluation}


register(Kind(
    "exact", ScoredPrecisionRecallEvaluation, "ranking", state_format="scored_pr.ScoredPrecisionRecallEvaluation",
    load=ScoredPrecisionRecallEvaluation.load, report_view=lambda ev: ev,
    new=lambda ties: ScoredPrecisionRecallEvaluation(ties=ties),
    to_state=lambda ev: ev._state(), from_state=lambda cls, st: cls._from_state(st),
))
