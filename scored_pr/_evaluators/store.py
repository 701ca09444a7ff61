"""The case store: a sorted container for arriving cases, numpy for the rest.

Cases are kept in two tiers:

* ``merged``: every case seen by the last query, as two numpy arrays in rank
  order: ``neg`` (float64 negated scores, ascending) and ``correct`` (bool).
  Equal scores are in insertion order. 9 bytes per case.
* pending: cases added since. Single cases go into a
  :class:`sortedcontainers.SortedList` of negated scores (plain floats), so
  they are kept in rank order as they arrive. A correct case is marked by the
  identity of its float: the dict ``_tags`` maps ``id(float)`` to that float,
  so the list needs no second array, no tuple per case and no float subclass
  (which is slower both to make and to compare). The dict keeps each tagged
  float alive, so no other live object can have its id: a pending float is
  correct iff its id is a key. ``SortedList.add`` inserts
  after equal values, which keeps equal scores in insertion order. Batches
  from ``add_cases`` (and the list's contents whenever a batch follows them)
  become numpy runs, in insertion order.

Sample weights cost nothing until a weight other than 1 arrives: then the
merged arrays gain a float64 ``weight`` array (17 bytes per case), a run may
carry one (``None`` means all ones), and single cases go to an append buffer
in insertion order instead of the sorted list (whose floats have no room for
a weight). A store with any weight array or buffered case is *weighted*.

A query calls :meth:`CaseStore.arrays`, which sorts only the pending cases
(O(k log k)) and merges them into the merged arrays in one O(n + k) pass,
then commits the result in one step (see :class:`CaseStore`);
pending cases always rank after merged cases with an equal score, because they
were added later. Nothing is re-sorted that was sorted before.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from sortedcontainers import SortedList

from .._core.ranking import frozen, merge, rank_order_ties


#: Most single cases kept in the sorted list; more become a sorted numpy run.
PENDING_LIMIT = 1 << 12


_EMPTY_NEG = np.zeros(0, dtype=np.float64)
_EMPTY_NEG.setflags(write=False)
_EMPTY_CORRECT = np.zeros(0, dtype=bool)
_EMPTY_CORRECT.setflags(write=False)


Run = tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], int, "npt.NDArray[np.float64] | None"]


def _labels_by_value(neg: npt.NDArray[np.float64], tags: dict[int, float]) -> npt.NDArray[np.bool_] | None:
    """The labels of the sorted pending scores ``neg`` found from the tagged floats' values, or None.

    Every tagged float must be in the list (the caller checks that no add was
    interrupted). Where each tagged value occurs exactly once in ``neg``, its
    position is its case: one ``searchsorted`` of the few correct values
    instead of a dict lookup per case. A tagged value that ties with another
    pending case needs the floats' identities: None, and the caller reads them.
    """
    cor = np.zeros(neg.size, dtype=bool)
    if not tags:
        return cor
    values = np.fromiter(tags.values(), dtype=np.float64, count=len(tags))
    values.sort()
    lo = np.searchsorted(neg, values, side="left")
    hi = np.searchsorted(neg, values, side="right")
    if not bool(((hi - lo) == 1).all()):  # a tie (or a value not in the list): identities decide
        return None
    cor[lo] = True
    return cor


class CaseStore:
    """Cases in rank order, merged lazily. Not thread-safe.

    Exception safety: every method computes what it needs into local
    variables first and then commits it with assignments on a single line
    that calls nothing, so an exception at any line boundary (MemoryError,
    KeyboardInterrupt) leaves the store as it was before the call or as it is
    after it, never in between. The counts are derived from the stored
    cases, never kept beside them, so they cannot disagree with them.
    """

    __slots__ = ("_pending", "_tags", "_count", "_buf", "_runs", "_neg", "_correct", "_weight", "_merged_correct", "_weight_hint", "_distinct")

    def __init__(self) -> None:
        self._pending: SortedList = SortedList()
        #: the pending correct cases: id of a negated score's float in _pending -> that float. An
        #: entry whose float never reached the list (an exception between the lines of add) marks
        #: nothing, since no live object shares its id.
        self._tags: dict[int, float] = {}
        #: at least len(_pending) (counted before each add, so an interrupted add only overcounts):
        #: when it reaches PENDING_LIMIT the list becomes a run. Cheaper than SortedList's len().
        self._count = 0
        #: True once a weight other than 1 may have arrived. It only routes single cases (to
        #: the buffer instead of the sorted list, which is always correct); results never
        #: depend on it, so it may be set before the weighted case is stored.
        self._weight_hint = False
        #: weighted single cases, in insertion order: (negated score, correct, weight)
        self._buf: list[tuple[float, bool, float]] = []
        #: batches (and flushed single cases) in insertion order: (neg, correct, number correct, weight)
        self._runs: tuple[Run, ...] = ()
        self._neg: npt.NDArray[np.float64] = _EMPTY_NEG
        self._correct: npt.NDArray[np.bool_] = _EMPTY_CORRECT
        self._weight: npt.NDArray[np.float64] | None = None
        self._merged_correct = 0
        #: True when the merged ranking is known to hold no two equal scores (its one value sort
        #: scanned them); False when unknown. A hint for the kernel, never a result.
        self._distinct = False

    @property
    def distinct(self) -> bool:
        """Whether the ranking of :meth:`arrays` (as last built) is known to hold no two equal scores. O(1)."""
        return self._distinct

    @property
    def weighted(self) -> bool:
        """Whether any stored case carries a weight (O(1) unless weights arrived)."""
        if not self._weight_hint:
            return False
        return bool(self._buf) or self._weight is not None or any(r[3] is not None for r in self._runs)

    def add(self, correct: bool, score: float, weight: float = 1.0) -> None:
        """Add one validated case. O(log k) amortised with k <= PENDING_LIMIT pending cases; O(1) weighted.

        The sorted list holds at most :data:`PENDING_LIMIT` cases: when full, its
        contents become a run that is already in rank order (so the next query
        merges it instead of sorting it), and the cost of a call does not grow
        with the number of cases added since the last query.
        """
        if weight == 1.0 and not self._weight_hint:
            count = self._count + 1
            self._count = count
            neg = -score  # a new float object: its identity carries the label
            if correct:
                self._tags[id(neg)] = neg
            self._pending.add(neg)
            if count >= PENDING_LIMIT:
                runs, fresh, tags = (*self._runs, self._pending_run()), SortedList(), {}  # type: ignore[var-annotated]
                self._runs, self._pending, self._tags, self._count = runs, fresh, tags, 0  # commit: one line, no call
            return
        self._weight_hint = True
        if self._pending:
            # The sorted list's cases were added first: they become a run, so
            # that equal scores keep insertion order.
            runs, fresh, tags = (*self._runs, self._pending_run()), SortedList(), {}  # type: ignore[var-annotated]
            self._runs, self._pending, self._tags, self._count = runs, fresh, tags, 0  # commit: one line, no call
        self._buf.append((-score, correct, weight))

    def add_batch(
        self,
        correct: npt.NDArray[np.bool_],
        scores: npt.NDArray[np.float64],
        weight: npt.NDArray[np.float64] | None = None,
    ) -> None:
        """Add a validated batch (copied); ``weight`` None means all ones. O(k)."""
        if scores.size == 0:
            return
        cor = np.array(correct, dtype=bool)
        w = None if weight is None else np.array(weight, dtype=np.float64)
        run = (np.negative(scores), cor, int(np.count_nonzero(cor)), w)
        if self._pending or self._buf:
            # The single cases were added before this batch: they become runs
            # first, so that equal scores keep insertion order.
            runs = (*self._runs, *self._single_runs(), run)
            fresh, empty, tags = SortedList(), [], {}  # type: ignore[var-annotated]
            hint = self._weight_hint or w is not None
            self._runs, self._pending, self._tags, self._count, self._buf, self._weight_hint = runs, fresh, tags, 0, empty, hint  # commit: one line, no call
        else:
            runs, hint = (*self._runs, run), self._weight_hint or w is not None
            self._runs, self._weight_hint = runs, hint  # commit: one line, no call

    def _pending_run(self) -> Run:
        """The pending cases as a run, in rank order (the list is not changed)."""
        pending = self._pending
        k = len(pending)
        neg = np.fromiter(pending, dtype=np.float64, count=k)
        tags = self._tags
        cor = None
        if self._count == k:  # no add was interrupted, so every tag's float is in the list
            cor = _labels_by_value(neg, tags)
        if cor is None:
            cor = np.fromiter(map(tags.__contains__, map(id, pending)), dtype=bool, count=k)
        return neg, cor, int(np.count_nonzero(cor)), None

    def _single_runs(self) -> tuple[Run, ...]:
        """The single cases not yet in a run (sorted list first, then the buffer), as runs."""
        out: tuple[Run, ...] = ()
        if self._pending:
            out = (self._pending_run(),)
        buf = self._buf
        if buf:
            k = len(buf)
            neg = np.fromiter((b[0] for b in buf), dtype=np.float64, count=k)
            cor = np.fromiter((b[1] for b in buf), dtype=bool, count=k)
            w = np.fromiter((b[2] for b in buf), dtype=np.float64, count=k)
            out = (*out, (neg, cor, int(np.count_nonzero(cor)), w))
        return out

    @property
    def num_correct(self) -> int:
        """Correct cases stored. O(1) once merged (after a query); O(k) with k pending single cases."""
        n = self._merged_correct
        for run in self._runs:
            n += run[2]
        if self._pending:
            pending = self._pending
            # with no interrupted add every tag is a pending correct case
            n += len(self._tags) if self._count == len(pending) else sum(map(self._tags.__contains__, map(id, pending)))
        if self._buf:
            n += sum(1 for b in self._buf if b[1])
        return n

    def arrays(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """(negated scores ascending, correct) for all cases, in rank order.

        The arrays are read-only and shared with the caller; they stay valid
        after later additions (which build new arrays). :meth:`weights` gives
        the weights in the same order.
        """
        runs = self._runs
        if self._pending or self._buf:
            runs = (*runs, *self._single_runs())
        if not runs:
            return self._neg, self._correct
        if len(runs) == 1:
            neg, cor = runs[0][0], runs[0][1]
        else:
            neg = np.concatenate([r[0] for r in runs])
            cor = np.concatenate([r[1] for r in runs])
        weighted = self._weight is not None or any(r[3] is not None for r in runs)
        w = None
        if weighted:
            w = np.concatenate([np.ones(r[0].size) if r[3] is None else r[3] for r in runs])
        distinct = False
        if w is None:
            neg, cor, distinct = rank_order_ties(neg, cor)
        else:
            order = np.argsort(neg, kind="stable")
            neg, cor, w = neg[order], cor[order], w[order]
            del order
        if self._neg.size:
            old_w = None
            if weighted:
                old_w = np.ones(self._neg.size) if self._weight is None else self._weight
            neg, cor, w = merge(self._neg, self._correct, neg, cor, old_w, w)
            distinct = False  # not scanned across the two runs
        neg.setflags(write=False)
        cor.setflags(write=False)
        if w is not None:
            w.setflags(write=False)
        merged_correct = self._merged_correct + sum(r[2] for r in runs)
        fresh, empty, tags = SortedList(), [], {}  # type: ignore[var-annotated]
        # commit: one line that calls nothing, so no exception can split it
        self._neg, self._correct, self._weight, self._merged_correct, self._runs, self._pending, self._tags, self._count, self._buf, self._distinct = neg, cor, w, merged_correct, (), fresh, tags, 0, empty, distinct
        return neg, cor

    def weights(self) -> npt.NDArray[np.float64] | None:
        """The weights in the order of :meth:`arrays` (read-only), or None when unweighted."""
        self.arrays()
        return self._weight

    @classmethod
    def from_sorted(
        cls,
        neg: npt.NDArray[np.float64],
        correct: npt.NDArray[np.bool_],
        weight: npt.NDArray[np.float64] | None = None,
    ) -> CaseStore:
        """A store holding arrays already in rank order (validated by the caller)."""
        store = cls()
        neg, correct = frozen(neg, np.float64), frozen(correct, np.bool_)
        w = None if weight is None else frozen(weight, np.float64)
        store._neg, store._correct, store._weight, store._weight_hint = neg, correct, w, w is not None
        store._merged_correct = int(np.count_nonzero(correct))
        return store

    def merged_with(self, other: CaseStore) -> CaseStore:
        """A store holding self's cases and then other's (other's rank after self's on ties)."""
        a_neg, a_cor = self.arrays()
        b_neg, b_cor = other.arrays()
        a_w, b_w = self._weight, other._weight
        if not b_neg.size:
            return CaseStore.from_sorted(a_neg, a_cor, a_w)
        if not a_neg.size:
            return CaseStore.from_sorted(b_neg, b_cor, b_w)
        if a_w is not None or b_w is not None:
            a_w = np.ones(a_neg.size) if a_w is None else a_w
            b_w = np.ones(b_neg.size) if b_w is None else b_w
        return CaseStore.from_sorted(*merge(a_neg, a_cor, b_neg, b_cor, a_w, b_w))

    def __len__(self) -> int:
        return self._neg.size + sum(r[0].size for r in self._runs) + len(self._pending) + len(self._buf)

    def _check(self) -> None:
        """Assert every structural invariant (for the tests)."""
        assert self._neg.dtype == np.float64 and self._correct.dtype == np.bool_
        assert self._neg.shape == self._correct.shape and self._neg.ndim == 1
        assert not np.isnan(self._neg).any()
        assert (self._neg[1:] >= self._neg[:-1]).all(), "merged scores out of order"
        assert not self._neg.flags.writeable and not self._correct.flags.writeable
        assert self._merged_correct == int(np.count_nonzero(self._correct)), "merged correct count"
        assert not self._distinct or not (self._neg[1:] == self._neg[:-1]).any(), "a tie in a ranking called distinct"
        merged_w = self._weight
        if merged_w is not None:
            assert merged_w.dtype == np.float64 and merged_w.shape == self._neg.shape and not merged_w.flags.writeable
            assert np.isfinite(merged_w).all() and (merged_w >= 0).all()
        assert isinstance(self._runs, tuple)
        for neg, cor, n, w in self._runs:
            assert neg.shape == cor.shape and neg.dtype == np.float64 and cor.dtype == np.bool_
            assert n == int(np.count_nonzero(cor)), "run correct count"
            assert w is None or (w.shape == neg.shape and (w >= 0).all())
        self._pending._check()
        assert all(type(v) is float for v in self._pending)
        assert all(id(v) == k for k, v in self._tags.items()), "a tag under another float's id"
        assert self._count >= len(self._pending), "the pending count undercounts"
        assert not (self._pending and self._buf), "single cases in both the list and the buffer"
        assert len(self._pending) < PENDING_LIMIT, "the sorted list outgrew its bound"
        if not self._weight_hint:
            assert self._weight is None and not self._buf and all(r[3] is None for r in self._runs)

    def copy(self) -> CaseStore:
        other = CaseStore()
        other._pending = self._pending.copy()  # the same float objects: the tags stay valid
        other._tags, other._count = dict(self._tags), self._count
        other._buf = list(self._buf)
        other._runs = self._runs
        other._neg, other._correct, other._weight = self._neg, self._correct, self._weight
        other._merged_correct, other._weight_hint, other._distinct = self._merged_correct, self._weight_hint, self._distinct
        return other
