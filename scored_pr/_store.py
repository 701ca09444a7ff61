"""The case store: a sorted container for arriving cases, numpy for the rest.

Cases are kept in two tiers:

* ``merged``: every case seen by the last query, as two numpy arrays in rank
  order: ``neg`` (float64 negated scores, ascending) and ``correct`` (bool).
  Equal scores are in insertion order. 9 bytes per case.
* pending: cases added since. Single cases go into a
  :class:`sortedcontainers.SortedList` of negated scores, so they are kept in
  rank order as they arrive; a correct case is stored as an instance of the
  float subclass :class:`_Correct`, which compares like its value, so the list
  needs no second array and no tuple per case. ``SortedList.add`` inserts
  after equal values, which keeps equal scores in insertion order. Batches
  from ``add_cases`` (and the list's contents whenever a batch follows them)
  become numpy runs, in insertion order.

A query calls :meth:`CaseStore.arrays`, which sorts only the pending cases
(O(k log k)) and merges them into the merged arrays in one O(n + k) pass,
then commits the result in one step (see :class:`CaseStore`);
pending cases always rank after merged cases with an equal score, because they
were added later. Nothing is re-sorted that was sorted before.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from sortedcontainers import SortedList


class _Correct(float):
    """A negated score whose case was correct (compares as a plain float)."""

    __slots__ = ()


_EMPTY_NEG = np.zeros(0, dtype=np.float64)
_EMPTY_NEG.setflags(write=False)
_EMPTY_CORRECT = np.zeros(0, dtype=bool)
_EMPTY_CORRECT.setflags(write=False)


class CaseStore:
    """Cases in rank order, merged lazily. Not thread-safe.

    Exception safety: every method computes what it needs into local
    variables first and then commits it with assignments on a single line
    that calls nothing, so an exception at any line boundary (MemoryError,
    KeyboardInterrupt) leaves the store as it was before the call or as it is
    after it, never in between. The counts are derived from the stored
    cases, never kept beside them, so they cannot disagree with them.
    """

    __slots__ = ("_pending", "_runs", "_neg", "_correct", "_merged_correct")

    def __init__(self) -> None:
        self._pending: SortedList = SortedList()
        #: batches (and flushed single cases) in insertion order: (neg, correct, number correct)
        self._runs: tuple[tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], int], ...] = ()
        self._neg: npt.NDArray[np.float64] = _EMPTY_NEG
        self._correct: npt.NDArray[np.bool_] = _EMPTY_CORRECT
        self._merged_correct = 0

    def add(self, correct: bool, score: float) -> None:
        """Add one validated case. O(log n) amortised (SortedList.add)."""
        self._pending.add(_Correct(-score) if correct else -score)

    def add_batch(self, correct: npt.NDArray[np.bool_], scores: npt.NDArray[np.float64]) -> None:
        """Add a validated batch (copied). O(k)."""
        if scores.size == 0:
            return
        cor = np.array(correct, dtype=bool)
        run = (np.negative(scores), cor, int(np.count_nonzero(cor)))
        if self._pending:
            # The pending cases were added before this batch: they become a run
            # first, so that equal scores keep insertion order.
            fresh = SortedList()
            runs = (*self._runs, self._pending_run(), run)
            self._runs, self._pending = runs, fresh  # commit: one line, no call
        else:
            self._runs = (*self._runs, run)

    def _pending_run(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], int]:
        """The pending cases as a run, in rank order (the list is not changed)."""
        pending = self._pending
        k = len(pending)
        neg = np.fromiter(pending, dtype=np.float64, count=k)
        cor = np.fromiter((type(v) is _Correct for v in pending), dtype=bool, count=k)
        return neg, cor, int(np.count_nonzero(cor))

    @property
    def num_correct(self) -> int:
        """Correct cases stored. O(1) once merged (after a query); O(k) with k pending single cases."""
        n = self._merged_correct
        for run in self._runs:
            n += run[2]
        if self._pending:
            n += sum(1 for v in self._pending if type(v) is _Correct)
        return n

    def arrays(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """(negated scores ascending, correct) for all cases, in rank order.

        The arrays are read-only and shared with the caller; they stay valid
        after later additions (which build new arrays).
        """
        runs = self._runs
        if self._pending:
            runs = (*runs, self._pending_run())
        if not runs:
            return self._neg, self._correct
        if len(runs) == 1:
            neg, cor = runs[0][0], runs[0][1]
        else:
            neg = np.concatenate([r[0] for r in runs])
            cor = np.concatenate([r[1] for r in runs])
        order = np.argsort(neg, kind="stable")
        neg = neg[order]
        cor = cor[order]
        del order
        if self._neg.size:
            neg, cor = _merge(self._neg, self._correct, neg, cor)
        neg.setflags(write=False)
        cor.setflags(write=False)
        merged_correct = self._merged_correct + sum(r[2] for r in runs)
        fresh = SortedList()
        # commit: one line that calls nothing, so no exception can split it
        self._neg, self._correct, self._merged_correct, self._runs, self._pending = neg, cor, merged_correct, (), fresh
        return neg, cor

    @classmethod
    def from_sorted(cls, neg: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_]) -> CaseStore:
        """A store holding arrays already in rank order (validated by the caller)."""
        store = cls()
        neg = np.array(neg, dtype=np.float64)
        correct = np.array(correct, dtype=bool)
        neg.setflags(write=False)
        correct.setflags(write=False)
        store._neg, store._correct, store._merged_correct = neg, correct, int(np.count_nonzero(correct))
        return store

    def merged_with(self, other: CaseStore) -> CaseStore:
        """A store holding self's cases and then other's (other's rank after self's on ties)."""
        a_neg, a_cor = self.arrays()
        b_neg, b_cor = other.arrays()
        if not b_neg.size:
            return CaseStore.from_sorted(a_neg, a_cor)
        if not a_neg.size:
            return CaseStore.from_sorted(b_neg, b_cor)
        return CaseStore.from_sorted(*_merge(a_neg, a_cor, b_neg, b_cor))

    def __len__(self) -> int:
        return self._neg.size + sum(r[0].size for r in self._runs) + len(self._pending)

    def _check(self) -> None:
        """Assert every structural invariant (for the tests)."""
        assert self._neg.dtype == np.float64 and self._correct.dtype == np.bool_
        assert self._neg.shape == self._correct.shape and self._neg.ndim == 1
        assert not np.isnan(self._neg).any()
        assert (self._neg[1:] >= self._neg[:-1]).all(), "merged scores out of order"
        assert not self._neg.flags.writeable and not self._correct.flags.writeable
        assert self._merged_correct == int(np.count_nonzero(self._correct)), "merged correct count"
        assert isinstance(self._runs, tuple)
        for neg, cor, n in self._runs:
            assert neg.shape == cor.shape and neg.dtype == np.float64 and cor.dtype == np.bool_
            assert n == int(np.count_nonzero(cor)), "run correct count"
        self._pending._check()
        assert all(type(v) in (float, _Correct) for v in self._pending)

    def copy(self) -> CaseStore:
        other = CaseStore()
        other._pending = self._pending.copy()
        other._runs = self._runs
        other._neg, other._correct, other._merged_correct = self._neg, self._correct, self._merged_correct
        return other


def _merge(
    old_neg: npt.NDArray[np.float64],
    old_cor: npt.NDArray[np.bool_],
    new_neg: npt.NDArray[np.float64],
    new_cor: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """Merge two sorted runs; on equal keys the old run comes first. O(n + k)."""
    n, k = old_neg.size, new_neg.size
    at = np.searchsorted(old_neg, new_neg, side="right") + np.arange(k)
    is_old = np.ones(n + k, dtype=bool)
    is_old[at] = False
    neg = np.empty(n + k, dtype=np.float64)
    cor = np.empty(n + k, dtype=bool)
    neg[at] = new_neg
    neg[is_old] = old_neg
    cor[at] = new_cor
    cor[is_old] = old_cor
    return neg, cor
