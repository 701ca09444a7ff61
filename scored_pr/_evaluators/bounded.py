"""BoundedEvaluation: a summary of a few kilobytes with exact values or certified bounds.

The class validates input, keeps the bins (:mod:`scored_pr._core.bins`), caches
what queries derive and delegates every number to :mod:`scored_pr._core.bins`.
"""

from __future__ import annotations

import functools
import math
import os
import threading
from operator import itemgetter
from struct import pack_into as _pack_into
from typing import Any, Callable, TypeVar

import numpy as np
import numpy.typing as npt

from .._core import bins as B
from .._core import calibration_sums as CS
from .._measures import MEASURES
from .._state import bounded as _bounded_state
from .._state.bounded import MAX_BINS, MAX_CALIBRATION_BINS
from .._kinds import Kind, Query, QueriesForTyping, answers_from_table, register
from .base import Evaluation, unsupported
from .bounded_calibration import BoundedCalibration
from .bounded_queries import BoundedQueries, Bounds, CurveBand
from .guard import claim, guarded, guards_itself, locked_write
from .._validation import (
    check_batch,
    check_correct,
    check_count,
    check_pos_label,
    check_score,
    check_weight,
    check_weights,
    fail,
    MAX_WEIGHT as _MAX_WEIGHT,
    MIN_WEIGHT as _MIN_WEIGHT,
)

_CLS = "BoundedEvaluation"
_get_ident = threading.get_ident
_T = TypeVar("_T")

#: Cases sorted and binned at a time by add_cases: bounds the temporary memory
#: of a huge batch to a few times this many float64 values.
CHUNK = 1 << 20
#: Single cases (add_case) wait in a buffer of at most this many before they are binned, times
#: 2 for a summary of 4,096 bins or more: see _buffer_size.
PENDING = 4096
_FIRST, _SECOND, _THIRD = itemgetter(0), itemgetter(1), itemgetter(2)
#: add_case's default weight: a call that passes no weight is recognised by identity, in one step.
_ONE = 1.0
#: An unweighted chunk of more cases than this (and than 16 * max_bins) is binned without a sort
UNSORTED_MIN = 1 << 16


def _refuse(q: Query) -> Callable[..., Any]:
    """The bounded kind's method of query ``q`` (see ``_kinds.QUERY_TABLE``), which it refuses.

    Raises UnsupportedQuery with the table's reason; keeps the protocol's signature. A query
    the table says the summary answers has a method of its own in the class: none to build.
    """
    if q.bounded is None:
        raise TypeError(f"{_CLS} must define {q.name}: the query table (_kinds.QUERY_TABLE) says it answers it")
    why, instead = q.bounded.why, q.bounded.instead
    method = getattr(Evaluation, q.name, None)  # the protocol's signature and summary line
    name = q.name

    def refused(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise unsupported(_CLS, name, why, instead)

    if method is not None:
        functools.update_wrapper(refused, method)
    refused.__name__, refused.__qualname__ = name, f"{_CLS}.{name}"
    refused.__module__ = __name__
    refused.__doc__ = (
        f"Not answered by a {_CLS}: raises :class:`~scored_pr.UnsupportedQuery` ({why}; {instead}).\n\n"
        f"The exact evaluator's ``{name}``: {getattr(method, '__doc__', None) or ''}"
    )
    return refused


# The queries a summary cannot answer (the table's refusals) each raise UnsupportedQuery saying
# why, with the protocol's signature: built at class creation, then thread-guarded.
@guarded
@answers_from_table(_refuse)
class BoundedEvaluation(BoundedCalibration, BoundedQueries, QueriesForTyping):
    """Precision-recall and ROC evaluation in bounded memory, with certified error bounds.

    A summary of the cases: for every score range ("bin") the weight of the
    correct and of the incorrect cases in it, at most ``max_bins`` bins. While
    the cases have at most ``max_bins`` distinct scores, every bin holds one
    score and every measure equals that of
    ``ScoredPrecisionRecallEvaluation(ties="grouped")`` on the same cases,
    bit for bit: each is computed with the evaluator's formula and operation
    order, or as an exact integer ratio rounded once (with sample weights,
    which the summary sums bin by bin and the evaluator case by case, the
    result is instead a :class:`Bounds` a few ulps wide, never ``exact``).
    Past that, adjacent bins merge (choosing the merges that widen the bounds
    least) and every measure is returned as a :class:`Bounds`: a float (the
    estimate, as if each bin were one tie group) whose ``lower`` and
    ``upper`` are guaranteed to contain the exact grouped value, derived from
    the best and the worst orderings of the cases inside each bin (see
    :mod:`scored_pr._core.bins`).

    Parameters
    ----------
    max_bins : int, default 4096
        The most bins kept; the state is about 32 bytes per bin (four float64
        values). Between 1 and 2**24.
    ties : {"grouped"}, default "grouped"
        The tie policy; only ``"grouped"`` (every distinct score is one
        threshold) can be summarised: ``"stable"`` depends on the insertion
        order of tied cases, which a summary does not keep.
    pos_label : str, number or bool, optional
        The label of the positive class, as for
        :class:`~scored_pr.ScoredPrecisionRecallEvaluation`.
    calibration_bins : int or None, default 15
        Uniform bins on [0, 1] whose sums the summary keeps for calibration
        (per bin: weight, correct weight, score sum, squared weights; about
        160 bytes per bin), so :meth:`expected_calibration_error` (at this
        ``n_bins`` and the divisors whose edges are its edges),
        :meth:`calibration_curve`, :meth:`brier_score` and :meth:`log_loss`
        are the exact evaluator's values. Between 1 and 65,536; None keeps
        none (those queries then raise UnsupportedQuery).

    Raises
    ------
    TypeError, ValueError
        If ``max_bins`` is not an int in [1, 2**24], ``ties`` is not
        ``"grouped"``, ``pos_label`` is not a label or ``calibration_bins``
        is neither None nor an int in [1, 65536].

    Notes
    -----
    No LingPipe equivalent. Memory: the bins, plus a buffer of at most 4096
    single cases from :meth:`add_case` (8,192 from 4,096 bins on);
    :meth:`add_cases` sorts a batch in chunks of 2**20 cases. Bins never split, so a summary built from a stream
    whose scores drift is less precise than one built from the same cases in
    random order; the bounds hold either way.

    Sample weights: the counts become weights, as in the evaluator; the
    rank-based measures (:meth:`precision_at`, :meth:`recall_at`,
    :meth:`r_precision`, :meth:`pr_breakeven_point`,
    :meth:`reciprocal_rank`) count cases, not weight, and raise ValueError on
    a weighted summary, exactly as the evaluator does.

    Exception safety: every mutator and query either fully applies or
    changes nothing (a query whose binning of the :meth:`add_case` buffer
    fails keeps the buffer), as for the evaluator.

    Not thread-safe: give each thread (process, partition) its own summary
    and :meth:`merge` them.

    Examples
    --------
    >>> from scored_pr import BoundedEvaluation
    >>> s = BoundedEvaluation(max_bins=2)
    >>> s.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
    >>> auc = s.area_under_roc_curve()
    >>> auc.exact, auc.lower <= 0.75 <= auc.upper
    (False, True)
    >>> s = BoundedEvaluation()  # 4 distinct scores <= 4096 bins: exact
    >>> s.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
    >>> s.area_under_roc_curve()
    0.75
    """

    __module__ = "scored_pr"  # pickles and reprs name the public module, wherever this file moves

    _KIND = _CLS
    _NOUN = "summary"
    __slots__ = (
        "_max_bins", "_pos_label", "_bins", "_misses", "_negative_misses", "_num_cases", "_num_correct",
        "_weighted", "_pending_pos", "_pending_neg", "_pending", "_room", "_plain", "_memo", "_guard", "_read_only",
        "_calibration_bins", "_calib", "__weakref__",
    )
    #: the add_case buffer (see _empty_buffer)
    _pending_pos: list[float]
    _pending_neg: list[float]
    _pending: list[tuple[bool, float, float]]
    _room: int
    _plain: bool

    def __init__(
        self, max_bins: int = 4096, *, ties: str = "grouped", pos_label: Any = None, calibration_bins: int | None = 15
    ) -> None:
        self._max_bins = _check_max_bins(max_bins, _CLS)
        self._calibration_bins = _check_calibration_bins(calibration_bins, _CLS)
        if ties != "grouped":
            raise fail(
                ValueError, _CLS, "ties",
                "'grouped' (a summary keeps no insertion order, which the 'stable' policy needs)", ties,
            )
        self._pos_label: Any = check_pos_label(pos_label, _CLS)
        self._bins = B.empty_bins()
        self._misses = 0
        self._negative_misses = 0
        self._num_cases = 0
        self._num_correct = 0
        self._weighted = False
        self._empty_buffer()
        self._memo: dict[Any, Any] = {}
        #: the calibration sums (None: not kept, or cases were added without them; see _calibration_bins)
        self._calib = None if self._calibration_bins is None else CS.empty(self._calibration_bins)
        claim(self)  # see guard.py: every public call holds the guard; add_case/add_cases from this thread the flag
        self._read_only = False

    # ------------------------------------------------------------------ mutators

    @guards_itself
    def add_case(self, correct: bool, score: float, weight: float = _ONE) -> None:
        """Add one case; the arguments are those of ``ScoredPrecisionRecallEvaluation.add_case``.

        The weight follows the evaluator's rule: 0, or from 2**-1022 to
        2**970, an int only when exactly a float64. Products of weights (the
        ROC area's pairs) are taken on sums scaled by powers of two, so the
        bounds hold the exact value across that whole range.

        Notes
        -----
        O(1) amortised: the case waits in a buffer of at most 4096 cases
        (8,192 from 4,096 bins on), binned by the next query or when the
        buffer is full. From the thread that made the summary no lock is
        taken (a flag and a re-read detect another thread's call); after a
        call from another thread, every call takes the summary's lock.
        """
        # The owner's lock-free path (guard.owner_fast_path's, written out as in the exact and
        # windowed kinds' add_case: the wrapper's frame was about 6 % of this call). A plain case
        # (bool, float, no weight) of a summary without pos_label and with no whole case waiting
        # (_plain) joins its class's list here; anything else, and every call once another thread
        # has called, takes _add_one.
        me = _get_ident()
        if self._owner == me:
            was = self._busy
            self._busy = me
            try:
                if self._owner == me:
                    if type(correct) is bool and type(score) is float and weight is _ONE and score == score and self._plain:
                        (self._pending_pos if correct else self._pending_neg).append(score)
                        room = self._room - 1  # an interrupt after the append only delays the flush
                        self._room = room
                        if room <= 0:
                            self._flush()
                        return
                    self._add_one(correct, score, weight)
                    return
            finally:
                self._busy = was
        locked_write(self, "add_case", self._add_one, correct, score, weight)

    def _add_one(self, correct: Any, score: Any, weight: Any) -> None:
        """add_case's general path, under the guard or the owner's flag: any case, checked, then buffered."""
        if type(correct) is not bool or self._pos_label is not None:
            correct = check_correct(correct, "add_case", pos_label=self._pos_label)
        if type(score) is not float or score != score:
            score = check_score(score, "add_case")
        if weight is not _ONE and (type(weight) is not float or not (_MIN_WEIGHT <= weight <= _MAX_WEIGHT or weight == 0.0)):
            weight = check_weight(weight, "add_case")
        # The kept answers (_memo) stay: every reader of them bins the buffer first (_cached,
        # summary), and a flush that commits new cases empties them in its commit.
        # One append: a case is buffered whole or not at all. An unweighted case joins its
        # class's list of scores (read by numpy in one step at the flush); a weighted case, and
        # every case after it until the flush, a list of (correct, score, weight) in arrival order.
        if weight is _ONE and not self._pending:
            (self._pending_pos if correct else self._pending_neg).append(score)
        else:
            self._plain = False  # first: add_case's short path must not put a later case before this one
            self._pending.append((correct, score, weight))
        room = self._room - 1  # cases the buffer takes before it is binned (an interrupt here only delays that)
        self._room = room
        if room <= 0:
            self._flush()

    def add_cases(self, correct: Any, scores: Any, sample_weight: Any = None) -> None:
        """Add a batch of cases, vectorised; the arguments are those of ``ScoredPrecisionRecallEvaluation.add_cases``.

        Either every case is added or none is: validation happens first, and
        the chunks are binned into a staged copy of the bins that replaces the
        summary's in one step, so an exception part way (KeyboardInterrupt,
        MemoryError) leaves the summary exactly as it was.

        Notes
        -----
        No Python loop per case; the batch is binned in chunks of 2**20
        cases. An unweighted chunk of more than 65,536 cases (and more than
        16 * ``max_bins``) whose sample shows many distinct scores is binned
        without a sort, in O(n): one order-preserving key per case, the
        counts of its blocks by ``np.bincount`` and each bin's least and
        greatest score by ``np.minimum.at`` / ``np.maximum.at``; its bins
        then merge with the existing ones as another summary's would. Other
        chunks (weighted, small, or with few distinct scores, which may be
        binned exactly) are sorted per class, O(n log n): cases whose score
        falls inside an existing bin's range join it (a binary search of the
        bin edges), the others become new bins. Bins merge while there are
        more than ``max_bins``.
        """
        c, s = check_batch(correct, scores, pos_label=self._pos_label)
        w = None if sample_weight is None else check_weights(sample_weight, c.size, "add_cases")
        if c.size == 0:
            return
        self._flush()
        # Stage every chunk into local bins, then commit once: an exception
        # (MemoryError, KeyboardInterrupt) part way leaves the summary as it was.
        bins, weighted, calib = self._bins, self._weighted, self._calib
        for i in range(0, c.size, CHUNK):
            cw = None if w is None else w[i : i + CHUNK]
            bins, weighted = self._binned(bins, weighted, c[i : i + CHUNK], s[i : i + CHUNK], cw)
            calib = _calibrated(calib, c[i : i + CHUNK], s[i : i + CHUNK], cw)
        num_cases, num_correct = self._num_cases + int(c.size), self._num_correct + int(np.count_nonzero(c))
        self._bins, self._weighted, self._num_cases, self._num_correct, self._calib, self._memo = bins, weighted, num_cases, num_correct, calib, {}  # commit: one line, no call

    def add_misses(self, count: int) -> None:
        """Count positive reference cases never returned (see the evaluator's ``add_misses``)."""
        count = check_count(count, "add_misses", already=self._misses)
        self._memo = {}
        self._misses += count

    def add_negative_misses(self, count: int) -> None:
        """Count negative reference cases never returned (see the evaluator's ``add_negative_misses``)."""
        count = check_count(count, "add_negative_misses", already=self._negative_misses)
        self._memo = {}
        self._negative_misses += count

    def reset(self) -> None:
        """Remove every case and miss: the summary is as new, with its ``max_bins`` and ``pos_label``.

        Examples
        --------
        >>> s = BoundedEvaluation(max_bins=2)
        >>> s.add_cases([True, False, True], [0.9, 0.5, 0.1]); s.add_misses(1)
        >>> s.reset()
        >>> s.num_cases, s.num_misses, s.num_bins, s.max_bins
        (0, 0, 0, 2)
        """
        self._bins = B.empty_bins()
        self._misses = self._negative_misses = self._num_cases = self._num_correct = 0
        self._weighted = False
        self._empty_buffer()
        self._calib = None if self._calibration_bins is None else CS.empty(self._calibration_bins)
        self._memo = {}

    def _empty_buffer(self) -> None:
        """An empty add_case buffer: the scores of unweighted correct and incorrect cases, then whole cases."""
        self._pending_pos = []
        self._pending_neg = []
        self._pending = []
        self._room = self._buffer_size()
        #: add_case's short path applies: no pos_label to compare with, no whole case waiting in _pending
        self._plain = self._pos_label is None

    def _buffer_size(self) -> int:
        """How many single cases the buffer takes before they are binned.

        A flush costs about the same whatever its size (its binary searches and merges run over
        the bins), so a larger buffer spreads it over more cases: at 4,096 bins a flush of 4,096
        cases cost about 250 ns a case and one of 8,192 about 130 ns. Not more: a flush of 16,384
        distinct scores first bins them exactly and merges them down to the budget (dear when the
        bins are new), and its arrays pass the sizes at which the calibration sums' dot products
        start BLAS threads (measured 10 times slower on a busy machine).
        """
        return 2 * PENDING if self._max_bins >= 4096 else PENDING

    def _buffered(self) -> int:
        """The cases waiting in the add_case buffer."""
        return len(self._pending_pos) + len(self._pending_neg) + len(self._pending)

    def _buffer_columns(self) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.float64] | None]:
        """The buffered cases as arrays (correct, score, weight or None when every weight is 1).

        Each class's cases keep their arrival order (the unweighted ones all arrived before
        the first case of ``_pending``), which is all the binning reads: it sorts each class.
        """
        pos, neg, rest = self._pending_pos, self._pending_neg, self._pending
        n = len(pos) + len(neg) + len(rest)
        c = np.zeros(n, dtype=bool)
        c[: len(pos)] = True
        s = np.empty(n, dtype=np.float64)
        # The Python floats copied into the array by struct (native doubles, bit for bit: each
        # is a float, add_case checked its type), about 3 times faster than numpy's conversion
        # of a list, which first inspects every element to find a shape and a type.
        _pack_into(f"{len(pos)}d{len(neg)}d", s.data, 0, *pos, *neg)
        if not rest:
            return c, s, None
        tail = slice(n - len(rest), n)
        # the columns of the whole cases, each read by C (itemgetter), not by a generator's frame per case
        c[tail] = np.fromiter(map(_FIRST, rest), dtype=bool, count=len(rest))
        s[tail] = np.fromiter(map(_SECOND, rest), dtype=np.float64, count=len(rest))
        w = np.ones(n, dtype=np.float64)
        w[tail] = np.fromiter(map(_THIRD, rest), dtype=np.float64, count=len(rest))
        return c, s, None if (w == 1.0).all() else w

    def _add_arrays(self, c: npt.NDArray[np.bool_], s: npt.NDArray[np.float64], w: npt.NDArray[np.float64] | None) -> None:
        """Bin validated arrays (one chunk), merge bins down to the budget, and commit (all or nothing)."""
        bins, weighted = self._binned(self._bins, self._weighted, c, s, w)
        calib = _calibrated(self._calib, c, s, w)
        num_cases, num_correct = self._num_cases + int(c.size), self._num_correct + int(np.count_nonzero(c))
        self._bins, self._weighted, self._num_cases, self._num_correct, self._calib, self._memo = bins, weighted, num_cases, num_correct, calib, {}  # commit: one line, no call

    def _binned(
        self, bins: B.Bins, weighted: bool, c: npt.NDArray[np.bool_], s: npt.NDArray[np.float64],
        w: npt.NDArray[np.float64] | None, correct_first: int | None = None,
    ) -> tuple[B.Bins, bool]:
        """``bins`` with validated arrays added and merged down to the budget; changes nothing.

        ``correct_first``: when the first that many cases are the correct ones and the rest
        incorrect (the add_case buffer's unweighted lists), each class is a slice of ``s``.
        """
        if correct_first is not None and w is None and c.size <= UNSORTED_MIN:
            # the same sorted scores as the masks below give, without building and applying them
            sp, sn = np.sort(s[:correct_first] + 0.0), np.sort(s[correct_first:] + 0.0)
            return self._compress(B.add_sorted(bins, sp, None, sn, None, self._max_bins)), weighted
        if w is None and c.size > max(16 * self._max_bins, UNSORTED_MIN):
            # A large batch with many distinct scores is binned without a sort (keys and
            # bincounts; -0.0 taken as 0.0 there), then merged into the bins as another
            # summary would be. Below UNSORTED_MIN cases a sort is cheap and the batch goes
            # through add_sorted.
            fresh = B.unsorted_block_bins(c, s, 4 * self._max_bins)
            if fresh is not None:
                return self._compress(B.merge_bins(bins, fresh)), weighted
        s = s + 0.0  # -0.0 ties with 0.0: store one zero
        if w is None:
            sp, sn = np.sort(s[c]), np.sort(s[~c])
            wp = wn = None
        else:
            weighted = True
            keep = w > 0.0  # a case of weight 0 changes no measure
            cp, cn = c & keep, ~c & keep
            op = np.argsort(s[cp])
            on = np.argsort(s[cn])
            sp, wp = s[cp][op], w[cp][op]
            sn, wn = s[cn][on], w[cn][on]
        return self._compress(B.add_sorted(bins, sp, wp, sn, wn, self._max_bins)), weighted

    def _compress(self, bins: B.Bins) -> B.Bins:
        if bins.hi.size <= self._max_bins:  # within the budget: nothing to merge
            return bins
        pos_ref = float(bins.pos.sum()) + self._misses
        neg_ref = float(bins.neg.sum()) + self._negative_misses
        return B.compress(bins, self._max_bins, pos_ref, neg_ref)

    def _flush(self) -> None:
        """Bin the cases waiting in the add_case buffer; on an exception the buffer and bins stay as they were."""
        if not self._buffered():
            return
        c, s, w = self._buffer_columns()
        split = None if self._pending else len(self._pending_pos)  # unweighted: correct cases first
        bins, weighted = self._binned(self._bins, self._weighted, c, s, w, split)
        calib = _calibrated(self._calib, c, s, w)
        num_cases, num_correct = self._num_cases + int(c.size), self._num_correct + int(np.count_nonzero(c))
        room = self._buffer_size()
        plain = self._pos_label is None
        (self._bins, self._weighted, self._num_cases, self._num_correct, self._calib, self._pending_pos, self._pending_neg,
         self._pending, self._room, self._plain, self._memo) = (bins, weighted, num_cases, num_correct, calib, [], [], [],
                                                                room, plain, {})  # commit: one statement, no call

    # ------------------------------------------------------------ conversion

    @classmethod
    def from_evaluation(cls, evaluation: Any, max_bins: int = 4096, *, calibration_bins: int | None = 15) -> BoundedEvaluation:
        """The summary of every case, miss and weight of an evaluator, in one call.

        Parameters
        ----------
        evaluation : ScoredPrecisionRecallEvaluation
            Any tie policy; the summary answers with grouped ties.
        max_bins : int, default 4096
        calibration_bins : int or None, default 15
            As for the constructor.

        Raises
        ------
        TypeError
            If ``evaluation`` is not a ScoredPrecisionRecallEvaluation.

        Examples
        --------
        >>> from scored_pr import ScoredPrecisionRecallEvaluation
        >>> ev = ScoredPrecisionRecallEvaluation()
        >>> ev.add_cases([True, False, True], [0.9, 0.5, 0.2]); ev.add_misses(1)
        >>> s = BoundedEvaluation.from_evaluation(ev)
        >>> s.average_precision() == ev.average_precision()
        True
        """
        from .exact import ScoredPrecisionRecallEvaluation

        if not isinstance(evaluation, ScoredPrecisionRecallEvaluation):
            raise fail(TypeError, "from_evaluation", "evaluation", "a ScoredPrecisionRecallEvaluation", evaluation)
        out = cls(max_bins, pos_label=evaluation.pos_label, calibration_bins=calibration_bins)
        ranked, correct, weights = evaluation.ranked_cases()
        if ranked.size:
            scores = ranked[::-1].copy()  # ascending
            out._add_arrays(correct[::-1].copy(), scores, None if weights is None else weights[::-1].copy())
        out._weighted = evaluation.weighted
        out._misses = evaluation.num_misses
        out._negative_misses = evaluation.num_negative_misses
        return out

    # -------------------------------------------------------------------- counts

    @property
    def max_bins(self) -> int:
        """The bin budget."""
        return self._max_bins

    @property
    def num_bins(self) -> int:
        """The number of bins in use (at most ``max_bins``)."""
        self._flush()
        return int(self._bins.hi.size)

    @property
    def exact(self) -> bool:
        """True while every bin holds one distinct score: every measure is then determined.

        Unweighted, every result is then ``exact`` and the evaluator's float;
        weighted, results carry bounds a few ulps wide (see the class notes).
        """
        self._flush()
        return bool((self._bins.lo == self._bins.hi).all())

    @property
    def ties(self) -> str:
        """The tie policy, always ``"grouped"``."""
        return "grouped"

    @property
    def num_cases(self) -> int:
        """Cases added with add_case/add_cases (misses excluded)."""
        return self._num_cases + self._buffered()

    @property
    def num_positive_ref(self) -> int:
        """Positive reference cases: correct cases plus misses."""
        self._flush()
        return self._num_correct + self._misses

    @property
    def num_negative_ref(self) -> int:
        """Negative reference cases: incorrect cases plus negative misses."""
        self._flush()
        return self._num_cases - self._num_correct + self._negative_misses

    @property
    def weighted(self) -> bool:
        """Whether a sample weight other than 1 was ever added."""
        return self._weighted or any(p[2] != 1.0 for p in self._pending)

    def _pos_ref(self) -> float:
        """Weight of the correct cases plus one per miss (the base's positive_weight)."""
        self._flush()
        return float(self._bins.pos.sum()) + self._misses

    def _neg_ref(self) -> float:
        """Weight of the incorrect cases plus one per negative miss (the base's negative_weight)."""
        self._flush()
        return float(self._bins.neg.sum()) + self._negative_misses

    def bins(self) -> tuple[npt.NDArray[np.float64], ...]:
        """The bins in rank order: (hi, lo, positive weight, negative weight) arrays (copies).

        Bin ``i`` holds the cases scored in [lo[i], hi[i]]; ranges are
        disjoint and descending.
        """
        self._flush()
        return tuple(x.copy() for x in self._bins[:4])

    # --------------------------------------------------------------------- cache

    def _cached(self, key: Any, build: Callable[[], _T]) -> _T:
        """``build()``, kept in ``_memo`` until the next change; the one reader of ``_memo``.

        The add_case buffer is binned first: a flush that bins new cases empties ``_memo`` in
        its commit, so ``add_case`` itself need not (a kept answer is never read while cases wait).
        """
        self._flush()
        try:
            return self._memo[key]  # type: ignore[no-any-return]
        except KeyError:
            value = self._memo[key] = build()
            return value

    # ------------------------------------------------------------------ reports

    def summary(self) -> dict[str, float]:
        """Counts and the scalar measures in one flat dict: estimate, ``_lower`` and ``_upper`` keys.

        Keys: num_cases, num_positive_ref, num_negative_ref, num_misses,
        num_bins, exact, and for average_precision, area_under_roc_curve,
        maximum_f_measure and (unweighted only; NaN otherwise) r_precision:
        the estimate under the measure's name plus ``<name>_lower`` and
        ``<name>_upper``: the entries of ``scored_pr._measures.MEASURES``
        marked ``bounded``, in that order. When :meth:`scores_are_probabilities`
        is true, also ``expected_calibration_error`` and ``brier_score``
        (the exact evaluator's value to rounding, between bounds of that rounding); otherwise they are absent,
        as from the exact evaluator's summary. Kept until the next change: asked
        again, it is a copy of the kept dict.
        """

        def build() -> dict[str, float]:
            table = [m for m in MEASURES if m.bounded]  # scored_pr._measures: counts, then measures
            out: dict[str, float] = {m.name: m.compute(self) for m in table if m.kind == "count"}
            out["num_bins"] = self.num_bins
            out["exact"] = float(self.exact)
            nan = Bounds(math.nan, math.nan, math.nan)
            for m in table:
                if m.kind == "count" or not m.applies_to(self):
                    continue
                value = nan if m.rank_based and self.weighted else m.compute(self)
                out[m.name], out[m.name + "_lower"], out[m.name + "_upper"] = float(value), value.lower, value.upper
            return out

        self._flush()  # single cases waiting in the buffer are part of the summary (and empty the kept answers)
        return dict(self._cached(("summary",), build))

    def __repr__(self) -> str:
        label = "" if self._pos_label is None else f"pos_label={self._pos_label!r}, "
        return (
            f"{_CLS}(max_bins={self._max_bins}, {label}num_bins={self.num_bins}, exact={self.exact}, "
            f"num_cases={self.num_cases}, num_positive_ref={self.num_positive_ref}, "
            f"num_negative_ref={self.num_negative_ref})"
        )

    # ------------------------------------------------------- combining and state

    def merge(self, other: BoundedEvaluation) -> BoundedEvaluation:
        """A new summary of both summaries' cases and misses; neither input changes.

        Bins of the two summaries may have different edges: bins whose score
        ranges overlap (or touch) merge into one bin covering both, then bins
        merge down to this summary's ``max_bins``. The result's bounds hold
        for the union of the cases. Exact summaries whose distinct scores
        together fit the budget merge into an exact summary.

        Raises
        ------
        TypeError
            If ``other`` is not a BoundedEvaluation.

        Notes
        -----
        O(B log B) for B bins in all. ``a + b`` and ``a += b`` call this.
        Merging 1,000 summaries of 4,096 bins takes well under a second.
        """
        if not isinstance(other, BoundedEvaluation):
            raise fail(TypeError, "merge", "other", "a BoundedEvaluation", other)
        if other._calibration_bins != self._calibration_bins:
            raise fail(
                ValueError, "merge", "other",
                f"a BoundedEvaluation of calibration_bins={self._calibration_bins!r} (this summary's: sums over "
                "other bins do not add up to these)", other,
            )
        self._flush()
        other._flush()
        out = type(self)(self._max_bins, pos_label=self._pos_label, calibration_bins=self._calibration_bins)
        out._calib = None if self._calib is None or other._calib is None else CS.merge(self._calib, other._calib)
        out._misses = self._misses + other._misses
        out._negative_misses = self._negative_misses + other._negative_misses
        out._num_cases = self._num_cases + other._num_cases
        out._num_correct = self._num_correct + other._num_correct
        out._weighted = self._weighted or other._weighted
        out._bins = out._compress(B.merge_bins(self._bins, other._bins))
        return out

    def __add__(self, other: object) -> BoundedEvaluation:
        if not isinstance(other, BoundedEvaluation):
            return NotImplemented
        return self.merge(other)

    def __iadd__(self, other: object) -> BoundedEvaluation:
        if not isinstance(other, BoundedEvaluation):
            return NotImplemented
        merged = self.merge(other)
        (self._bins, self._misses, self._negative_misses, self._num_cases, self._num_correct, self._weighted,
         self._calib, self._memo) = (merged._bins, merged._misses, merged._negative_misses, merged._num_cases,
                                     merged._num_correct, merged._weighted, merged._calib, {})
        return self

    def __eq__(self, other: object) -> bool:
        """Equal when budget, label, counts, bins and calibration sums agree (so every result agrees).

        The calibration sums, float additions in the order the cases came, are compared to a
        relative 1e-9: the same cases added in another order or merged otherwise are equal,
        and their calibration answers agree to rounding.
        """
        if not isinstance(other, BoundedEvaluation):
            return NotImplemented
        self._flush()
        other._flush()
        same = (
            self._max_bins, self._pos_label, self._misses, self._negative_misses, self._num_cases,
            self._num_correct, self._weighted,
        ) == (
            other._max_bins, other._pos_label, other._misses, other._negative_misses, other._num_cases,
            other._num_correct, other._weighted,
        )
        return (
            same and self._calibration_bins == other._calibration_bins and _same_sums(self._calib, other._calib)
            and all(np.array_equal(a, b) for a, b in zip(self._bins, other._bins))
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def to_dict(self) -> dict[str, Any]:
        """The summary's state as a JSON-safe dict; :meth:`from_dict` reproduces every result.

        Keys: ``format``, ``version`` (1), ``max_bins``, ``hi``, ``lo``
        (scores, infinities as ``"Infinity"``/``"-Infinity"``), ``pos``,
        ``neg`` (weights), ``num_cases``, ``num_correct``, ``misses``,
        ``negative_misses``, ``weighted`` and, with a positive label,
        ``pos_label``.

        Examples
        --------
        >>> s = BoundedEvaluation(); s.add_cases([True, False], [0.5, float("-inf")])
        >>> d = s.to_dict(); d["hi"], d["pos"], d["neg"]
        ([0.5, '-Infinity'], [1.0, 0.0], [0.0, 1.0])
        >>> BoundedEvaluation.from_dict(d) == s
        True
        """
        self._flush()
        return _bounded_state.to_dict(self._state())

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BoundedEvaluation:
        """The summary whose :meth:`to_dict` is ``d``; every field is validated first.

        Raises
        ------
        TypeError, ValueError
            If a field is missing, unexpected, of the wrong type, or
            inconsistent (bins out of order or overlapping, more bins than
            ``max_bins``, negative or non-integer counts on an unweighted
            summary, NaN).
        """
        return cls._from_state(_bounded_state.from_dict(d))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the state to ``path`` as an uncompressed ``.npz`` (no pickle), atomically.

        About 32 bytes per bin plus a small JSON header, whatever the number
        of cases. The write is atomic as for the evaluator's ``save``.
        """
        self._flush()
        _bounded_state.save(self._state(), path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> BoundedEvaluation:
        """Read a state written by :meth:`save`, without pickle.

        Memory is bounded by the file: the header's bin count fixes the
        shape of every array, which is checked before any data is read.

        Raises
        ------
        FileNotFoundError
            If ``path`` does not exist.
        ValueError
            If the file is not a summary state file or is corrupted or
            inconsistent, or holds another kind of state (the message names
            the kind found).
        """
        return cls._from_state(_bounded_state.load(path))

    def __reduce__(self) -> tuple[Any, ...]:
        self._flush()
        # Restored through a classmethod of the public class: the pickle names only scored_pr.BoundedEvaluation.
        return (type(self)._from_pickle, (_bounded_state.pickle_state(self._state()),))

    @classmethod
    def _from_pickle(cls, state: Any) -> BoundedEvaluation:
        """Unpickling entry point: the summary of a pickled state (validated like every loader)."""
        return cls._from_state(_bounded_state.from_pickle(state))

    def _state(self) -> _bounded_state.BoundedState:
        """The bins and counters as plain data (for the state formats); flush first."""
        return _bounded_state.BoundedState(
            self._max_bins, self._bins, self._num_cases, self._num_correct, self._misses, self._negative_misses,
            self._weighted, self._pos_label, self._calibration_bins, self._calib,
        )

    @classmethod
    def _from_state(cls, st: _bounded_state.BoundedState) -> BoundedEvaluation:
        """The summary holding a validated state (from the state formats)."""
        ev = cls(st.max_bins, pos_label=st.pos_label, calibration_bins=st.calibration_bins)
        # a state without sums (written before summaries kept them) has them only when it holds no case
        if st.calibration is not None or st.num_cases:
            ev._calib = st.calibration
        ev._bins = st.bins
        ev._num_cases, ev._num_correct = st.num_cases, st.num_correct
        ev._misses, ev._negative_misses = st.misses, st.negative_misses
        ev._weighted = st.weighted
        return ev


def _check_calibration_bins(value: Any, func: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not 1 <= value <= MAX_CALIBRATION_BINS:
        raise fail(
            TypeError if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)) else ValueError,
            func, "calibration_bins", f"None or an int between 1 and {MAX_CALIBRATION_BINS}", value,
        )
    return int(value)


def _calibrated(
    calib: CS.CalibrationSums | None, c: npt.NDArray[np.bool_], s: npt.NDArray[np.float64], w: npt.NDArray[np.float64] | None
) -> CS.CalibrationSums | None:
    """The calibration sums with a validated chunk added (a new value), vectorised; None stays None."""
    return None if calib is None else CS.add(calib, c, s, w)


def _same_sums(a: CS.CalibrationSums | None, b: CS.CalibrationSums | None) -> bool:
    """Whether two summaries' calibration sums are those of the same cases.

    The sums are float additions in the order the cases came (a batch, a merge), so the same
    cases in another order give sums a few ulps apart: they are compared to a relative 1e-9
    (the rounding of 10**6 additions is below 1e-10), every count and bin exactly elsewhere.
    """
    if a is None or b is None:
        return a is b
    return a.n_bins == b.n_bins and a.bad == b.bad and all(
        np.allclose(x, y, rtol=1e-9, atol=0.0) for x, y in zip(a[1:6], b[1:6])
    )


def _check_max_bins(value: Any, func: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise fail(TypeError, func, "max_bins", f"an int between 1 and {MAX_BINS}", value)
    if not 1 <= value <= MAX_BINS:
        raise fail(ValueError, func, "max_bins", f"an int between 1 and {MAX_BINS}", value)
    return int(value)


# Bounds, CurveBand and BoundedEvaluation report the public module (pickles, reprs); __test__ keeps the doctests
# of these classes collected from this file.
CurveBand.__module__ = "scored_pr"
__test__ = {"Bounds": Bounds, "CurveBand": CurveBand, "BoundedEvaluation": BoundedEvaluation}


register(Kind(
    "bounded", BoundedEvaluation, "bounded", state_format="scored_pr.BoundedEvaluation",
    load=BoundedEvaluation.load, figures=lambda b: b.summary(),
    new=lambda ties: BoundedEvaluation(ties=ties),
    to_state=lambda ev: ev._state(), from_state=lambda cls, st: cls._from_state(st),
))
