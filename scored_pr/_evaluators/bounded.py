"""BoundedEvaluation: a summary of a few kilobytes with exact values or certified bounds.

The class validates input, keeps the bins (:mod:`scored_pr._core.bins`), caches
what queries derive and delegates every number to :mod:`scored_pr._core.bins`.
"""

from __future__ import annotations

import functools
import math
import os
from typing import Any, Callable, NamedTuple, TextIO, TypeVar

import numpy as np
import numpy.typing as npt

from .._core import bins as B
from .._core import thresholds as T
from .._measures import MEASURES
from .._state import bounded as _bounded_state
from .._state.bounded import MAX_BINS
from .._kinds import Kind, Query, QueriesForTyping, answers_from_table, register
from .base import Evaluation, EvaluationBase, unsupported
from .guard import guarded, new_guard
from .._validation import (
    check_batch,
    check_beta,
    check_choice,
    check_flag,
    check_fraction,
    check_correct,
    check_count,
    check_pos_label,
    check_positive_int,
    check_score,
    check_weight,
    check_weights,
    fail,
    MAX_WEIGHT as _MAX_WEIGHT,
    MIN_WEIGHT as _MIN_WEIGHT,
    renamed_keyword,
)

_CLS = "BoundedEvaluation"
_T = TypeVar("_T")
_EPS = 2.0**-52

#: Cases sorted and binned at a time by add_cases: bounds the temporary memory
#: of a huge batch to a few times this many float64 values.
CHUNK = 1 << 20
#: Single cases (add_case) wait in a buffer of at most this many before they are binned.
PENDING = 4096
#: An unweighted chunk of more cases than this (and than 16 * max_bins) is binned without a sort
UNSORTED_MIN = 1 << 16


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
class BoundedEvaluation(EvaluationBase, QueriesForTyping):
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

    Raises
    ------
    TypeError, ValueError
        If ``max_bins`` is not an int in [1, 2**24], ``ties`` is not
        ``"grouped"`` or ``pos_label`` is not a label.

    Notes
    -----
    No LingPipe equivalent. Memory: the bins, plus a buffer of at most 4096
    single cases from :meth:`add_case`; :meth:`add_cases` sorts a batch in
    chunks of 2**20 cases. Bins never split, so a summary built from a stream
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
        "_weighted", "_pending", "_memo", "_guard", "_read_only", "__weakref__",
    )

    def __init__(self, max_bins: int = 4096, *, ties: str = "grouped", pos_label: Any = None) -> None:
        self._max_bins = _check_max_bins(max_bins, _CLS)
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
        self._pending: list[tuple[bool, float, float]] = []
        self._memo: dict[Any, Any] = {}
        self._guard = new_guard(self)  # see guard.py: every public call holds it
        self._read_only = False

    # ------------------------------------------------------------------ mutators

    def add_case(self, correct: bool, score: float, weight: float = 1.0) -> None:
        """Add one case; the arguments are those of ``ScoredPrecisionRecallEvaluation.add_case``.

        The weight follows the evaluator's rule: 0, or from 2**-1022 to
        2**970, an int only when exactly a float64. Products of weights (the
        ROC area's pairs) are taken on sums scaled by powers of two, so the
        bounds hold the exact value across that whole range.

        Notes
        -----
        O(1) amortised: the case waits in a buffer of at most 4096 cases,
        binned by the next query or when the buffer is full.
        """
        if type(correct) is not bool or self._pos_label is not None:
            correct = check_correct(correct, "add_case", pos_label=self._pos_label)
        if type(score) is not float or score != score:
            score = check_score(score, "add_case")
        if type(weight) is not float or not (_MIN_WEIGHT <= weight <= _MAX_WEIGHT or weight == 0.0):
            weight = check_weight(weight, "add_case")
        self._memo = {}
        self._pending.append((correct, score, weight))
        if len(self._pending) >= PENDING:
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
        bins, weighted = self._bins, self._weighted
        for i in range(0, c.size, CHUNK):
            bins, weighted = self._binned(bins, weighted, c[i : i + CHUNK], s[i : i + CHUNK], None if w is None else w[i : i + CHUNK])
        num_cases, num_correct = self._num_cases + int(c.size), self._num_correct + int(np.count_nonzero(c))
        self._bins, self._weighted, self._num_cases, self._num_correct, self._memo = bins, weighted, num_cases, num_correct, {}  # commit: one line, no call

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
        self._pending = []
        self._memo = {}

    def _add_arrays(self, c: npt.NDArray[np.bool_], s: npt.NDArray[np.float64], w: npt.NDArray[np.float64] | None) -> None:
        """Bin validated arrays (one chunk), merge bins down to the budget, and commit (all or nothing)."""
        bins, weighted = self._binned(self._bins, self._weighted, c, s, w)
        num_cases, num_correct = self._num_cases + int(c.size), self._num_correct + int(np.count_nonzero(c))
        self._bins, self._weighted, self._num_cases, self._num_correct, self._memo = bins, weighted, num_cases, num_correct, {}  # commit: one line, no call

    def _binned(
        self, bins: B.Bins, weighted: bool, c: npt.NDArray[np.bool_], s: npt.NDArray[np.float64], w: npt.NDArray[np.float64] | None
    ) -> tuple[B.Bins, bool]:
        """``bins`` with validated arrays added and merged down to the budget; changes nothing."""
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
        pending = self._pending
        if not pending:
            return
        c = np.fromiter((p[0] for p in pending), dtype=bool, count=len(pending))
        s = np.fromiter((p[1] for p in pending), dtype=np.float64, count=len(pending))
        w = np.fromiter((p[2] for p in pending), dtype=np.float64, count=len(pending))
        bins, weighted = self._binned(self._bins, self._weighted, c, s, None if (w == 1.0).all() else w)
        num_cases, num_correct = self._num_cases + int(c.size), self._num_correct + int(np.count_nonzero(c))
        self._bins, self._weighted, self._num_cases, self._num_correct, self._pending, self._memo = bins, weighted, num_cases, num_correct, [], {}  # commit: one line, no call

    # ------------------------------------------------------------ conversion

    @classmethod
    def from_evaluation(cls, evaluation: Any, max_bins: int = 4096) -> BoundedEvaluation:
        """The summary of every case, miss and weight of an evaluator, in one call.

        Parameters
        ----------
        evaluation : ScoredPrecisionRecallEvaluation
            Any tie policy; the summary answers with grouped ties.
        max_bins : int, default 4096

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
        out = cls(max_bins, pos_label=evaluation.pos_label)
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
        return self._num_cases + len(self._pending)

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
        self._flush()
        try:
            return self._memo[key]  # type: ignore[no-any-return]
        except KeyError:
            value = self._memo[key] = build()
            return value

    def _refs(self) -> tuple[float, float]:
        return self.positive_weight, self.negative_weight

    def _terms(self) -> int:
        """Rounded terms either computation may sum: the bins here, the cases in the evaluator."""
        return int(self._bins.hi.size) + self._num_cases

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

    # ------------------------------------------------------------------ reports

    def summary(self) -> dict[str, float]:
        """Counts and the scalar measures in one flat dict: estimate, ``_lower`` and ``_upper`` keys.

        Keys: num_cases, num_positive_ref, num_negative_ref, num_misses,
        num_bins, exact, and for average_precision, area_under_roc_curve,
        maximum_f_measure and (unweighted only; NaN otherwise) r_precision:
        the estimate under the measure's name plus ``<name>_lower`` and
        ``<name>_upper``: the entries of ``scored_pr._measures.MEASURES``
        marked ``bounded``, in that order.
        """
        table = [m for m in MEASURES if m.bounded]  # scored_pr._measures: counts, then measures
        out: dict[str, float] = {m.name: m.compute(self) for m in table if m.kind == "count"}
        out["num_bins"] = self.num_bins
        out["exact"] = float(self.exact)
        nan = Bounds(math.nan, math.nan, math.nan)
        for m in table:
            if m.kind == "count":
                continue
            value = nan if m.rank_based and self.weighted else m.compute(self)
            out[m.name], out[m.name + "_lower"], out[m.name + "_upper"] = float(value), value.lower, value.upper
        return out

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
        self._flush()
        other._flush()
        out = type(self)(self._max_bins, pos_label=self._pos_label)
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
         self._memo) = (merged._bins, merged._misses, merged._negative_misses, merged._num_cases,
                        merged._num_correct, merged._weighted, {})
        return self

    def __eq__(self, other: object) -> bool:
        """Equal when budget, label, counts and bins agree (so every result agrees)."""
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
        return same and all(np.array_equal(a, b) for a, b in zip(self._bins, other._bins))

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
            self._weighted, self._pos_label,
        )

    @classmethod
    def _from_state(cls, st: _bounded_state.BoundedState) -> BoundedEvaluation:
        """The summary holding a validated state (from the state formats)."""
        ev = cls(st.max_bins, pos_label=st.pos_label)
        ev._bins = st.bins
        ev._num_cases, ev._num_correct = st.num_cases, st.num_correct
        ev._misses, ev._negative_misses = st.misses, st.negative_misses
        ev._weighted = st.weighted
        return ev


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
))
