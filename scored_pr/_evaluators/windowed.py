"""Sliding windows: exact measures over the last N cases or the last T seconds.

:class:`WindowedEvaluation` keeps the cases of a window in insertion order
and answers every query of :class:`~scored_pr.ScoredPrecisionRecallEvaluation`
exactly on them, in memory bounded by the window.

How it works
------------
* The cases in the window sit in deques in insertion order (score, correct,
  and the time or the weight where there is one); the oldest leaves first.
* The scores of both classes sit in a :class:`~scored_pr._core.sortedblocks.PairedBlocks`
  (sorted blocks of floats shared by the two classes, with rank queries):
  entering and leaving cost O(log W) comparisons plus one ``list.insert``
  or ``del`` in a block, and the number of cases of the other class scored
  below (or tied with) a score is one rank query. From these, the doubled
  Mann-Whitney pair count ``_pairs2`` is maintained exactly as cases enter
  and leave, so :meth:`WindowedEvaluation.area_under_roc_curve` costs
  O(log W) per case and O(1) per query. ``add_case`` has two short paths
  for plain cases in a plain size window (see ``WindowedEvaluation._hot``).
  A ROC AUC query that finds the window's evaluator already built (another
  query asked first) and many changes pending asks that evaluator instead.
* Every other query goes to a plain evaluator of the window, built at the
  first query after a change and cached until the next one: the window's
  ranking (``WindowedEvaluation._ranking_now``) is kept from the last query
  and brought up to date by dropping what expired and merging in what
  arrived, as the main evaluator's store does, in O(W + k log k).
"""

from __future__ import annotations

import math
import threading
import time as _time
from collections import deque
from itertools import islice
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from .._kinds import Kind, Query, QueriesForTyping, answers_from_table, register
from .base import forward
from .window_machinery import _LEAN, _Ranking, _default_clock  # _default_clock: 0.1.0 pickles name it here
from .window_state import WindowState
from .fastcall import KW, keyword_only, too_many_positional
from .guard import claim, guarded, guards_itself, owner_fast_path
from .exact import ScoredPrecisionRecallEvaluation
from .._core.sortedblocks import PairedBlocks
from .._state.exact import ExactState
from .._validation import (
    check_batch,
    check_correct,
    check_count,
    check_optional_callable,
    check_pos_label,
    check_score,
    check_ties,
    check_times,
    check_weight,
    check_weights,
    check_window_extent,
    read_only_evaluation,
)

__all__ = ["WindowedEvaluation"]

_CLS = "WindowedEvaluation"
#: add_case's default weight: a call that passes no weight is recognised by identity, in one step.
_ONE = 1.0
_INF = math.inf
_NAN = math.nan
_get_ident = threading.get_ident
#: A ROC AUC query asks the window's evaluator rather than replay through the sorted
#: containers more changes than this and than W >> _REBUILD_SHIFT (see _many_changes):
#: a replayed change costs about 5 to 10 µs (two rank queries in Python), the
#: evaluator about 15 ns per case in the window (its ranking updated, then one
#: vectorised pass), so past about W / 500 changes the evaluator is cheaper.
_REBUILD_MIN = 256
_REBUILD_SHIFT = 9

#: A ROC AUC query that finds the window's evaluator up to date asks it rather than
#: move more than this many cases through the sorted containers (see area_under_roc_curve).
_REPLAY_MAX = 64


def _query(q: Query) -> Callable[..., Any]:
    """The window's query ``q`` (see ``_kinds.QUERY_TABLE``): the exact evaluator's, asked of the window's evaluator."""
    method = getattr(ScoredPrecisionRecallEvaluation, q.name)
    if q.static:
        return staticmethod(method)  # type: ignore[return-value]
    return forward(method, "_evaluation", _CLS, __name__, f"Over the window: as :meth:`ScoredPrecisionRecallEvaluation.{q.name}` on the cases and misses in the window.")


# Every query but the incremental ROC area is the window's evaluator's, with its signature and
# docstring: built from the table at class creation (answers_from_table), then thread-guarded.
@guarded
@answers_from_table(_query)
class WindowedEvaluation(WindowState, QueriesForTyping):
    """Exact precision-recall and ROC evaluation of a sliding window of cases.

    ``WindowedEvaluation(size=N)`` holds the last N items added (cases, and
    misses, which take one place each); ``WindowedEvaluation(seconds=T)``
    holds the items whose time is at most T before the window's current time
    (the newest time added or read from the clock). Every query of
    :class:`~scored_pr.ScoredPrecisionRecallEvaluation` answers on the cases
    and misses still in the window, exactly as a fresh evaluator fed just
    them, in insertion order, would; memory is bounded by the window.

    Parameters
    ----------
    size : int, optional
        Keep the last ``size`` items (an int >= 1). Give ``size`` or
        ``seconds``, not both.
    seconds : float, optional
        Keep the items whose time ``t`` satisfies ``t >= now - seconds``,
        where ``now`` is the window's current time: the newest time it has
        seen, from an added item or from ``clock`` at a query.
    clock : callable or None, default time.monotonic
        Time windows only: the time of an item added without ``time=``, and
        read at every query, so that a window that receives nothing still
        expires. ``None``: every item needs an explicit ``time=`` and a query
        expires by the newest time added. Left at its default, the first
        item decides: given with ``time=`` (or ``times=``), the window runs
        on explicit times exactly as with ``clock=None`` (its current time is
        the newest time given, never ``time.monotonic()``, which is on another
        scale), and every later item needs a time too; given without one,
        the window reads ``time.monotonic`` and a later explicit time is a
        ValueError (pass ``clock=`` to mix times on that clock's scale). A
        clock reading earlier than the window's current time (a clock that
        stepped back) counts as the current time, in additions as in queries.
    ties : {"grouped", "stable"}, default "grouped"
        The tie policy, as for :class:`~scored_pr.ScoredPrecisionRecallEvaluation`.
    pos_label : str, number or bool, optional
        The label of the positive class, as for the main evaluator.

    Raises
    ------
    TypeError, ValueError
        If neither or both of ``size`` and ``seconds`` are given, ``size`` is
        not an int >= 1, ``seconds`` not a finite number > 0, ``clock`` not
        callable or None, or ``ties``/``pos_label`` invalid.

    Notes
    -----
    **Misses.** A miss (:meth:`add_misses`) is a relevant item that was never
    returned; a negative miss (:meth:`add_negative_misses`) a non-relevant
    one. In a size window each takes one of the ``size`` places, in the order
    of arrival, and leaves as cases do (``add_misses(3)`` counts as three
    items); in a time window misses carry the time they were added with and
    expire with it.

    **Exactness.** After any sequence of additions and expiries, every query
    equals the same query on a fresh ``ScoredPrecisionRecallEvaluation`` fed
    the cases still in the window in insertion order, plus the misses still
    in it: bit for bit, since the window hands its ranking to such an
    evaluator (:meth:`snapshot`). :meth:`area_under_roc_curve`, maintained
    incrementally, is the exact Mann-Whitney statistic over the window
    rounded once to float64, which is what the evaluator computes too (for
    unweighted cases): bit for bit as well.

    **Cost.** With ``area_under_roc_curve()`` asked after every case, adding
    a case costs O(log W) comparisons (the case enters the sorted container
    and the oldest leaves it, each with a rank query in the other class)
    and the query O(1): about 1.8x a bare ``SortedList.add`` + ``remove``
    of the same scores (``benchmarks/results-windows.md``). Asked less
    often, adding a case is O(1) (two deque appends, and two pops when the
    oldest leaves, or none in a plain size window whose deques drop it
    themselves); the next ROC AUC query catches up in O(k log W) for k
    changes, or, when k > max(256, W / 512), asks the window's evaluator
    (O(W + k log k), cheaper than the case-by-case catch-up past that
    point; the same when another query has just built it) and leaves the containers empty until a query finds few changes.
    Any other query after a change costs O(W + k log k) (the ranking is
    updated, not rebuilt) and then its own O(W); repeated queries with
    nothing changed are cached.

    Memory: about 60 bytes per case in the window (tracemalloc, a
    10,000-case window after a query): the deques (a score object and two
    references), the sorted containers while the ROC AUC is asked often,
    and the ranking and the evaluator of the last query. More with times or
    weights. Nothing outside the window is kept.

    **State.** A window pickles and copies (``pickle``, ``copy.copy``,
    ``copy.deepcopy``) with its settings, the items in it and their times;
    a clock given as ``clock=`` is pickled by reference (a module-level
    function is; a lambda is not), the default clock by a marker. A time
    window's times only mean something on the clock they came from.
    :meth:`to_dict`/:meth:`from_dict` and :meth:`save`/:meth:`load` keep the
    same state without pickle; a clock cannot be saved there, so a window
    loads with the default clock or no clock as it was saved, or with the
    ``clock=`` given to :meth:`load`/:meth:`from_dict` (required for a
    window saved with a clock of its own). A window has no ``merge`` and no
    ``+``: a window is a span of one stream's time, and the last N cases (or
    T seconds) of two streams depend on how the streams interleave, which two
    windows do not record. Merge what the windows hold now instead:
    ``a.snapshot() + b.snapshot()`` (a plain evaluator of both windows' cases).

    Not thread-safe.

    Examples
    --------
    >>> from scored_pr import WindowedEvaluation
    >>> w = WindowedEvaluation(size=3)
    >>> for correct, score in [(True, 0.9), (False, 0.8), (True, 0.7), (False, 0.95)]:
    ...     w.add_case(correct, score)
    >>> len(w), w.area_under_roc_curve()  # the first case has left: 0.95 F, 0.8 F, 0.7 T
    (3, 0.0)
    >>> w.average_precision()
    0.3333333333333333

    A time window with explicit times:

    >>> w = WindowedEvaluation(seconds=60.0, clock=None)
    >>> w.add_case(True, 0.9, time=0.0)
    >>> w.add_case(False, 0.4, time=30.0)
    >>> w.add_case(True, 0.2, time=61.0)  # the case at time 0 is now more than 60 s old
    >>> w.num_cases, w.area_under_roc_curve()
    (2, 0.0)
    """

    __module__ = "scored_pr"  # pickles and reprs name the public module, wherever this file moves

    _KIND = _CLS
    _NOUN = "window"
    __slots__ = ()  # the fields are WindowMachinery's

    def __init__(
        self,
        size: int | None = None,
        *,
        seconds: float | None = None,
        clock: Callable[[], float] | None = _default_clock,
        ties: str = "grouped",
        pos_label: Any = None,
    ) -> None:
        self._size, self._seconds = check_window_extent(size, seconds, _CLS)
        check_optional_callable(clock, _CLS, "clock", "a callable returning the time, or None")
        self._clock = clock if seconds is not None else None
        #: True while a time window on the default clock has received no item: the
        #: first one settles whether it runs on the clock or on explicit times
        self._clock_auto = self._clock is _default_clock
        self._ties: str = check_ties(ties, _CLS)
        self._grouped = self._ties == "grouped"
        self._pos_label: Any = check_pos_label(pos_label, _CLS)
        claim(self)  # see guard.py: every public call holds the guard; add_case/add_cases from this thread the flag
        self._read_only = False
        self._init_state()
        self._lean_if_plain()

    def _init_state(self) -> None:
        self._scores: deque[float] = deque()
        self._correct: deque[bool] = deque()
        #: weights of the cases in the window, or None while every one is 1
        self._weights: deque[float] | None = None
        self._times: deque[float] | None = None if self._seconds is None else deque()
        #: the number in the stream of the oldest case in the window
        self._first_id = 0
        #: the scores of the window's correct and incorrect cases, sorted
        self._pb = PairedBlocks()
        #: twice the Mann-Whitney count over the window's cases: a (correct,
        #: incorrect) pair adds 2 when the correct case ranks first, 1 for a
        #: tie under the grouped policy, 0 otherwise. An exact int.
        self._pairs2 = 0
        #: _pairs2 counts the cases with ids in [_s_lo, _s_hi). When _valid,
        #: the sorted containers hold the same cases, and _gone the (score,
        #: correct) of those among them that have left the window since,
        #: oldest first; when not, the containers are empty (see _sync).
        self._s_lo = self._s_hi = 0
        self._valid = True
        self._gone: deque[tuple[float, bool]] = deque()
        self._n_correct = 0  # correct cases in the window
        #: True right after an up-to-date ROC AUC query: the next add_case
        #: then updates the containers at once (see _sync)
        self._eager = False
        #: The short paths of add_case, for a size window with nothing but
        #: unweighted cases in it (no misses, no pos_label), taken by plain
        #: (bool, float) cases. 2: the containers are in sync with the window
        #: and the ROC AUC was asked for since the last case, which enters
        #: them at once (the short path sets 1); 1: in sync, not asked for
        #: (the general path). While 1 or 2, _s_lo and _s_hi are not kept:
        #: the rank sum counts the whole window, and _cool writes them back
        #: on leaving the state. -1 (_LEAN): the containers are not valid
        #: (empty), and a case only joins the deques (maxlen=size) and counts
        #: in _seen; its readers renew the counts (see _go_lean). 0: general.
        self._hot = 0
        #: the lean state's count of the cases ever added, and its value when the counts were last taken
        self._seen = self._counted = 0
        self._lean_next = False  # the next add_case enters the lean state (see _drop_for_evaluator)
        #: The plain ROC AUC of the window as it is, or None: kept only while _hot is 2, set
        #: under the guard (or the owner's flag) and cleared by every change before it changes
        #: anything (_cool, add_case's short path), so area_under_roc_curve reads it before the
        #: guard, as the exact evaluator's cached answers are read (docs/architecture.md).
        self._answer = None
        #: True when the ROC AUC was asked since the last case (a hint: written by any reader,
        #: it only chooses whether the next case keeps _answer up to date or leaves _hot 2)
        self._asked = False
        self._unit_off = 0  # cases in the window whose weight is not 1
        #: misses in arrival order: [key, count, positive], key = the id of
        #: the next case (size windows) or the time (time windows)
        self._runs: deque[list[Any]] = deque()
        self._misses = 0
        self._negative_misses = 0
        self._now = -_INF
        self._ranking: _Ranking | None = None
        self._snap: ScoredPrecisionRecallEvaluation | None = None

    def reset(self) -> None:
        """Empty the window: every case and miss leaves, as if it were new, with its settings.

        ``size``/``seconds``, ``clock``, ``ties`` and ``pos_label`` are
        kept; ``num_cases_seen`` restarts at 0, and a time window forgets
        the newest time it has seen (so items may again be added with
        earlier times). O(1) besides freeing the items.

        Examples
        --------
        >>> from scored_pr import WindowedEvaluation
        >>> w = WindowedEvaluation(size=2)
        >>> w.add_cases([True, False, True], [0.9, 0.8, 0.7])
        >>> w.reset()
        >>> len(w), w.num_cases_seen, w.size
        (0, 0, 2)
        """
        self._init_state()
        self._lean_if_plain()

    # ------------------------------------------------------------------ mutators

    @guards_itself
    @keyword_only  # time is keyword-only, without CPython's unspecialised call (see fastcall.py)
    def add_case(self, correct: bool, score: float, weight: float = _ONE, _kw: Any = KW, time: float | None = None) -> None:
        """Add one case; the oldest items leave if the window is full.

        Parameters
        ----------
        correct, score, weight
            As :meth:`ScoredPrecisionRecallEvaluation.add_case`.
        time : float, optional
            Time windows only: the case's time, on the clock's scale; not
            before the window's current time. Default: ``clock()``.

        Raises
        ------
        TypeError, ValueError
            As the main evaluator's ``add_case``; also if ``time`` is given to
            a size window, is not a finite number, is earlier than the
            window's current time, or is missing when ``clock`` is None. The
            window is then unchanged.

        Notes
        -----
        O(log W) while the ROC AUC is kept up to date: the case enters its
        class's sorted container and the ROC rank sum gains its pairs with the
        other class (one rank query); the case that leaves does the same in
        reverse. O(1) otherwise: a plain case (bool, float) of a plain size
        window is two appends to deques that drop the oldest themselves, the
        counts renewed at the next read of them. From the thread that made
        the window no lock is taken (a flag and a re-read detect another
        thread's call); after a call from another thread, every call takes
        the window's lock.
        """
        # The owner's lock-free path (guard.owner_fast_path's, written out as in the exact
        # evaluator's add_case: a wrapper's frame would be a third of this call). A plain case
        # (bool, float, no weight or time) of a plain size window takes a short path (see
        # _hot); anything else, and every call once another thread has called, _add_one.
        if _kw is not KW:
            raise too_many_positional(_CLS, "add_case", 3, _kw)
        me = _get_ident()
        if self._owner == me:
            was = self._busy
            self._busy = me
            try:
                if self._owner == me:
                    if (type(score) is float and type(correct) is bool and time is None and score == score
                            and (weight is _ONE or (type(weight) is float and weight == 1.0))):
                        hot = self._hot
                        if hot < 0:  # _LEAN: the oldest leaves the deques by itself; readers renew the counts
                            self._scores.append(score)
                            self._correct.append(correct)
                            self._seen += 1
                            return
                        if hot == 2:
                            # The ROC AUC was asked since the last case and the containers are in
                            # sync: the case enters them and the oldest leaves (the general path
                            # with every branch that cannot apply left out).
                            self._answer = None  # first: a reader before the guard never sees it stale
                            self._snap = None
                            scores = self._scores
                            scores.append(score)
                            flags = self._correct
                            flags.append(correct)
                            grouped = self._grouped
                            c = self._n_correct
                            if len(scores) > self._size:  # type: ignore[operator]  # a size window, full
                                # The case enters the containers and the oldest leaves them, in one
                                # call that returns what the rank sum gains (PairedBlocks.slide_pairs).
                                self._first_id += 1
                                old = scores.popleft()
                                old_correct = flags.popleft()
                                pairs2 = self._pairs2 + self._pb.slide_pairs(score, correct, old, old_correct, grouped, c)
                                if correct is not old_correct:
                                    c += 1 if correct else -1
                            else:
                                lt, le = self._pb.enter(score, correct)
                                if correct:
                                    c += 1
                                    pairs2 = self._pairs2 + (lt + le if grouped else 2 * lt)
                                else:
                                    pairs2 = self._pairs2 + 2 * c - (lt + le if grouped else 2 * lt)
                            self._n_correct = c
                            self._pairs2 = pairs2
                            if self._asked:  # asked since the last case: the answer is kept up to date
                                self._asked = False
                                n = len(scores) - c
                                self._answer = pairs2 / (2 * c * n) if c and n else _NAN
                            else:
                                self._hot = 1  # the next case comes here only if the ROC AUC is asked again
                            return
                    self._add_one(correct, score, weight, time)
                    if self._lean_next:
                        self._lean_after_case()
                    return
            finally:
                self._busy = was
        if self._read_only:
            raise read_only_evaluation(_CLS, "add_case")
        self._acquire("add_case")
        try:
            self._add_one(correct, score, weight, time)
        finally:
            self._guard.release()

    def _add_one(self, correct: Any, score: Any, weight: Any, time: Any) -> None:
        """add_case's general path, under the guard: any case, any window, any state of the short paths."""
        self._cool()
        if type(correct) is not bool or self._pos_label is not None:
            correct = check_correct(correct, "add_case", pos_label=self._pos_label)
        if type(score) is not float or score != score:
            score = check_score(score, "add_case")
        if weight != 1.0 or type(weight) is not float:
            weight = check_weight(weight, "add_case")
        if self._times is not None:
            t = self._time_of(time, "add_case")
            self._settle(time is not None)
            self._advance(t)
            self._times.append(t)
        elif time is not None:
            raise self._no_time("add_case")
        self._snap = None
        self._scores.append(score)
        self._correct.append(correct)
        if correct:
            self._n_correct += 1
        if self._weights is not None or weight != 1.0:
            self._add_weight(weight)
        if self._eager:
            # The ROC AUC was asked for since the last addition (and is up to
            # date): keep it so in O(log W). Otherwise the case waits for the
            # next ROC AUC query (_sync). The new case is the newest: under
            # the stable policy it ranks after every case of equal score.
            self._eager = False
            self._s_hi += 1
            if correct:
                lt, le = self._pb.enter(score, True)
                self._pairs2 += lt + le if self._grouped else 2 * lt
            else:
                lt, le = self._pb.enter(score, False)
                n = 2 * self._n_correct
                self._pairs2 += n - lt - le if self._grouped else n - 2 * lt
        size = self._size
        if size is not None and len(self._scores) + self._misses + self._negative_misses > size:
            if self._runs or self._weights is not None:
                self._expire_size()
                return
            # The common case, _drop_oldest inlined: the oldest case leaves.
            score = self._scores.popleft()
            case_id = self._first_id
            self._first_id = case_id + 1
            if not self._valid:  # the containers are empty: nothing to undo
                if self._correct.popleft():
                    self._n_correct -= 1
                return
            if self._correct.popleft():
                self._n_correct -= 1
                if case_id < self._s_hi:
                    if self._gone or self._s_hi != case_id + 1 + len(self._scores):
                        self._gone.append((score, True))
                    else:
                        self._s_lo = case_id + 1
                        lt, le = self._pb.leave(score, True)
                        self._pairs2 -= lt + le if self._grouped else 2 * le
            elif case_id < self._s_hi:
                if self._gone or self._s_hi != case_id + 1 + len(self._scores):
                    self._gone.append((score, False))
                else:
                    self._s_lo = case_id + 1
                    lt, le = self._pb.leave(score, False)
                    n = 2 * self._n_correct
                    self._pairs2 -= n - lt - le if self._grouped else n - 2 * le

    def add_cases(self, correct: Any, scores: Any, sample_weight: Any = None, *, times: Any = None) -> None:
        """Add a batch in order; equivalent to ``add_case`` in a loop, but atomic.

        Parameters
        ----------
        correct, scores, sample_weight
            As :meth:`ScoredPrecisionRecallEvaluation.add_cases`.
        times : array-like of float, optional
            Time windows only: one time per case, non-decreasing and not
            before the window's current time. Default: one ``clock()``
            reading for the whole batch.

        Raises
        ------
        TypeError, ValueError
            As the main evaluator's ``add_cases`` and :meth:`add_case`; either
            every case is added or none is, also when the batch is
            interrupted part way (KeyboardInterrupt, MemoryError): the window
            is then put back as it was.

        Notes
        -----
        O(k) for k cases (plus the items that leave); what the batch changes
        is saved as it goes, in O(k), for that rollback. Cases of a batch
        larger than a size window enter and leave in turn, as in a loop.
        """
        c, s = check_batch(correct, scores, pos_label=self._pos_label)
        w = None if sample_weight is None else check_weights(sample_weight, c.size, "add_cases")
        if self._times is not None:
            if times is None:
                if c.size == 0:
                    return
                t: npt.NDArray[np.float64] | None = np.full(c.size, self._time_of(None, "add_cases"))
            else:
                t = check_times(times, c.size, "add_cases")
                if c.size:
                    self._check_explicit("add_cases", "times", float(t[0]))
                if c.size and t[0] < self._now:
                    raise self._backwards("add_cases", "times", float(t[0]), index=0)
        elif times is not None:
            raise self._no_time("add_cases", "times")
        else:
            t = None
        if c.size == 0:
            return
        cs, ss = c.tolist(), s.tolist()
        ws = None if w is None else w.tolist()
        ts = None if t is None else t.tolist()
        # Validated: from here on nothing can fail but memory or an interrupt
        # (KeyboardInterrupt), and either puts the window back as it was. The
        # batch enters in two phases, each undone in O(its own work): every
        # case joins the deques at their right end (undone by popping the right
        # end back to its length), then the oldest items leave, as they would
        # one by one in a loop of add_case (undone by putting back the left
        # prefix saved before, as far as each deque lost it).
        self._lean_next = False  # a batch: the window stays off the lean state (see _drop_for_evaluator)
        if self._hot < 0:
            self._cool()  # out of the lean state first: its deques would drop the oldest on their own
        scalars = self._scalars()
        deques = [d for d in (self._scores, self._correct, self._times, self._weights) if d is not None]
        lengths = [len(d) for d in deques]
        weights0, gone0, runs0 = self._weights, len(self._gone), len(self._runs)
        left: list[tuple[deque[Any], int, list[Any]]] = []
        saved_runs: list[list[Any]] = []
        try:
            if self._times is not None:
                self._settle(times is not None)
            self._cool()
            self._snap = None
            self._eager = False  # the cases enter the sorted containers at the next _sync
            if self._times is not None:
                self._times.extend(ts)  # type: ignore[arg-type]
            self._scores.extend(ss)
            self._correct.extend(cs)
            self._n_correct += int(np.count_nonzero(c))
            if ws is not None and (self._weights is not None or any(x != 1.0 for x in ws)):
                if self._weights is None:
                    self._weights = deque([1.0] * (len(self._scores) - len(ss)))
                self._weights.extend(ws)
                self._unit_off += int(np.count_nonzero(w != 1.0))
            elif self._weights is not None:
                self._weights.extend([1.0] * len(ss))
            # Phase 2: what leaves. Save what may leave first.
            leaving, touched = self._leaving(None if ts is None else ts[-1])
            # Plain loops, not comprehensions: from Python 3.12 a comprehension is
            # inlined, and an exception raised at one of its loop's line starts
            # (a trace function's, as the fault-injection tests raise) skips
            # this handler. A partly built list is safe: nothing has left yet.
            for d in (self._scores, self._correct, self._times, self._weights):
                if d is not None:
                    left.append((d, len(d), list(islice(d, leaving))))
            for r in islice(self._runs, touched):
                saved_runs.append(list(r))
            if ts is not None:
                self._advance(ts[-1])
            else:
                self._expire_size()
        except BaseException:
            for d, n, prefix in left:  # phase 2: the left prefix back, as far as each deque lost it
                d.extendleft(reversed(prefix[: n - len(d)]))
            for d, n in zip(deques, lengths):  # phase 1: the right end back to its length
                while len(d) > n:
                    d.pop()
            runs = self._runs
            if saved_runs:
                while len(runs) > runs0 - len(saved_runs):
                    runs.popleft()
                runs.extendleft(reversed(saved_runs))
            while len(self._gone) > gone0:
                self._gone.pop()
            self._weights = weights0  # None again if this batch made it
            self._restore_scalars(scalars)
            raise

    _SCALARS = (
        "_clock", "_clock_auto", "_first_id", "_pairs2", "_s_lo", "_s_hi", "_valid", "_n_correct", "_eager",
        "_hot", "_unit_off", "_misses", "_negative_misses", "_now", "_snap",
    )  # fmt: skip

    def _scalars(self) -> tuple[Any, ...]:
        """The window's plain fields (add_cases puts them back if interrupted)."""
        return tuple(getattr(self, name) for name in self._SCALARS)

    def _restore_scalars(self, values: tuple[Any, ...]) -> None:
        for name, value in zip(self._SCALARS, values):
            setattr(self, name, value)

    def _add_weight(self, weight: float) -> None:
        weights = self._weights
        if weights is None:
            # The first weight other than 1: the cases before it weigh 1.
            weights = self._weights = deque([1.0] * (len(self._scores) - 1))
        weights.append(weight)
        if weight != 1.0:
            self._unit_off += 1

    def add_misses(self, count: int, *, time: float | None = None) -> None:
        """Count ``count`` relevant items that the system never returned.

        In a size window they take ``count`` places (and push out as many
        older items); in a time window they carry ``time`` (default
        ``clock()``) and leave the window with it.

        Raises
        ------
        TypeError, ValueError
            As :meth:`ScoredPrecisionRecallEvaluation.add_misses`, and for
            ``time`` as :meth:`add_case`.
        """
        self._add_run("add_misses", count, True, time)

    def add_negative_misses(self, count: int, *, time: float | None = None) -> None:
        """Count ``count`` non-relevant items never returned (see :meth:`add_misses`)."""
        self._add_run("add_negative_misses", count, False, time)

    def _add_run(self, func: str, count: int, positive: bool, time: float | None) -> None:
        count = check_count(count, func, already=self._misses if positive else self._negative_misses)
        if self._times is not None:
            t = self._time_of(time, func)
        elif time is not None:
            raise self._no_time(func)
        if not count:
            return
        self._cool()
        if self._times is not None:
            self._settle(time is not None)
            self._advance(t)
            key: float = t
        else:
            key = self._first_id + len(self._scores)  # the id of the next case
        self._snap = None
        runs = self._runs
        if runs and runs[-1][0] == key and runs[-1][2] is positive:
            runs[-1][1] += count
        else:
            runs.append([key, count, positive])
        if positive:
            self._misses += count
        else:
            self._negative_misses += count
        if self._size is not None:
            self._expire_size()

    def _many_changes(self) -> bool:
        """Whether the containers are further from the window than _sync should replay (see there)."""
        lo = self._first_id
        hi = lo + len(self._scores)
        limit = max(_REBUILD_MIN, (hi - lo) >> _REBUILD_SHIFT)
        if not self._valid:
            return lo - self._s_lo + hi - self._s_hi > limit
        return len(self._gone) + hi - max(self._s_hi, lo) > limit

    # ------------------------------------------------------------------ counts

    @property
    def size(self) -> int | None:
        """The number of items a size window holds; None for a time window."""
        return self._size

    @property
    def seconds(self) -> float | None:
        """The length of a time window in seconds; None for a size window."""
        return self._seconds

    @property
    def clock(self) -> Callable[[], float] | None:
        """The clock of a time window (None: explicit times only, or a size window).

        ``time.monotonic`` for a window created without ``clock=`` until its
        first item; None from then on if that item came with a time.
        """
        return _time.monotonic if self._clock is _default_clock else self._clock

    @property
    def now(self) -> float:
        """A time window's current time: the newest time added or read from the clock (-inf before any)."""
        return self._now

    def __len__(self) -> int:
        """The number of cases in the window (misses excluded), after expiry by the clock."""
        self._expire_clock()
        return len(self._scores)

    @property
    def num_cases(self) -> int:
        """Cases in the window (misses excluded). O(1)."""
        self._expire_clock()
        return len(self._scores)

    @property
    def num_cases_seen(self) -> int:
        """Cases ever added to the window, including those that have left it. O(1)."""
        return self._seen if self._hot < 0 else self._first_id + len(self._scores)

    @property
    def num_positive_ref(self) -> int:
        """Correct cases plus misses in the window.

        O(1); O(W) at the first call after plain cases were added to a window
        whose ROC AUC is not kept up to date (a C-level count of its flags).
        """
        self._expire_clock()
        self._count_lean()
        return self._n_correct + self._misses

    @property
    def num_negative_ref(self) -> int:
        """Incorrect cases plus negative misses in the window. O(1), or O(W) as :attr:`num_positive_ref`."""
        self._expire_clock()
        self._count_lean()
        return len(self._scores) - self._n_correct + self._negative_misses

    @property
    def num_misses(self) -> int:
        """Misses in the window. O(1)."""
        self._expire_clock()
        return self._misses

    @property
    def num_negative_misses(self) -> int:
        """Negative misses in the window. O(1)."""
        self._expire_clock()
        return self._negative_misses

    @property
    def weighted(self) -> bool:
        """Whether a case in the window has a weight other than 1. O(1)."""
        self._expire_clock()
        return self._unit_off > 0

    def _pos_ref(self) -> int | float:
        return self._evaluation()._pos_ref()

    def _neg_ref(self) -> int | float:
        return self._evaluation()._neg_ref()

    # ------------------------------------------------------------- the ranking

    def _ranking_now(self) -> _Ranking:
        """The window's cases in rank order, updated from the last query's ranking.

        Cases that expired since are dropped (a mask on their ids); the cases
        that arrived are appended in arrival order and the whole is sorted
        with numpy's stable sort, which finds the old ranking already in
        order and merges the new cases into it (timsort: O(W + k log k);
        measured faster here than sorting the new cases and merging them by
        binary search). Being stable and after the old ones, new cases rank
        after old ones on equal scores, so ties stay in insertion order.
        """
        self._count_lean()
        lo = self._first_id
        hi = lo + len(self._scores)
        old = self._ranking
        weights = self._weights
        if old is not None and old.end == hi and old.end - old.ids.size == lo and (old.weight is None) == (weights is None):
            return old  # nothing arrived or left since
        if old is not None and (old.end <= lo or (old.weight is None) != (weights is None)):
            old = None  # everything in it expired, or the weights appeared or went
        k = hi - lo if old is None else hi - old.end
        new_neg = np.negative(np.fromiter(islice(reversed(self._scores), k), np.float64, k)[::-1])
        new_cor = np.fromiter(islice(reversed(self._correct), k), bool, k)[::-1]
        new_ids = np.arange(hi - k, hi, dtype=np.int64)
        arrays: tuple[npt.NDArray[Any], ...] = (new_neg, new_cor, new_ids)
        if weights is not None:
            arrays = (*arrays, np.fromiter(islice(reversed(weights), k), np.float64, k)[::-1])
        if old is not None:
            kept: tuple[npt.NDArray[Any], ...] = (old.neg, old.correct, old.ids)
            if old.weight is not None:
                kept = (*kept, old.weight)
            if old.end - old.ids.size < lo:  # the ranking holds the ids [end - size, end)
                keep = old.ids >= lo
                kept = tuple(np.compress(keep, a) for a in kept)
        if old is not None:
            arrays = tuple(np.concatenate((a, b)) for a, b in zip(kept, arrays)) if k else kept
        if k:
            order = np.argsort(arrays[0], kind="stable")
            arrays = tuple(a[order] for a in arrays)
        for a in arrays:
            a.setflags(write=False)
        ranking = _Ranking(arrays[0], arrays[1], arrays[2], arrays[3] if len(arrays) > 3 else None, hi)
        self._ranking = ranking
        return ranking

    def _evaluation(self) -> ScoredPrecisionRecallEvaluation:
        """The evaluator of the window (expired by the clock first), cached until the next change."""
        self._expire_clock()
        self._count_lean()
        snap = self._snap
        if snap is None:
            snap = self._snap = self._build()
        return snap

    def _build(self) -> ScoredPrecisionRecallEvaluation:
        r = self._ranking_now()
        # The ranking is the evaluator's rank order (negated scores ascending,
        # ties in insertion order, signs of zero kept): the evaluator holds it
        # as its state, with no sort (the constructor the state formats use).
        # The correctness is already bools; pos_label is only reported.
        return ScoredPrecisionRecallEvaluation._from_state(
            ExactState(self._ties, r.neg, r.correct, r.weight, self._misses, self._negative_misses, self._pos_label)
        )

    def snapshot(self) -> ScoredPrecisionRecallEvaluation:
        """A plain evaluator of the window as it is now (a new one, independent of the window).

        It holds the cases in the window in rank order (ties in insertion
        order) and the misses in the window, so every query on it gives what
        a fresh evaluator fed those cases in insertion order gives. Use it to
        keep a window's state, to merge windows of several streams, or to
        call anything that wants a ``ScoredPrecisionRecallEvaluation``
        (plots, :func:`scored_pr.compare`).

        Notes
        -----
        O(W + k log k) for k cases added since the last query.

        Examples
        --------
        >>> w = WindowedEvaluation(size=2)
        >>> w.add_cases([True, False, True], [0.3, 0.2, 0.1])
        >>> w.snapshot().pr_curve().tolist()
        [[1.0, 0.5]]
        """
        ev = self._evaluation()
        return ev + ScoredPrecisionRecallEvaluation(self._ties, pos_label=self._pos_label)

    # ---------------------------------------------------------------- queries

    @guards_itself  # asked after every case by a streaming loop: the kept answer, else the guard (_roc_area)
    @keyword_only  # as add_case's
    def area_under_roc_curve(
        self, interpolate: bool = False, _kw: Any = KW, max_fpr: float | None = None, standardized: bool = True
    ) -> float:
        """Area under the ROC curve over the window; uninterpolated in O(1).

        As :meth:`ScoredPrecisionRecallEvaluation.area_under_roc_curve`. The
        uninterpolated full area of an unweighted window is the window's
        Mann-Whitney statistic, kept up to date as cases enter and leave::

            (pairs2 + 2 * C * NM + [grouped] M * NM) / (2 * P * N)

        where pairs2 counts each (correct, incorrect) pair of cases in the
        window 2 when the correct case ranks first and, under the grouped
        policy, 1 when they tie; C is the number of correct cases, M and NM
        the misses and negative misses in the window, P = C + M and N the
        incorrect cases plus NM. Under the stable policy, a correct and an
        incorrect case with equal scores are ranked in insertion order, and a
        miss ranks below every case (it counts 0 against a negative miss);
        under the grouped policy misses and negative misses tie at the
        bottom. The integer numerator is exact and the division rounds once.
        NaN when P or N is 0.

        The interpolated area, ``max_fpr`` and weighted windows are computed
        on the window's evaluator (O(W) after a change). So is the plain
        area when another query has already built that evaluator for the
        window as it is and more than a few dozen cases entered or left
        since the last ROC AUC query (periodic queries on batches): one
        vectorised pass over its ranking costs less than moving each case
        through the sorted containers, and gives the same exact ratio.

        Examples
        --------
        >>> w = WindowedEvaluation(size=4, ties="grouped")
        >>> w.add_cases([True, False, True, False, True], [0.9, 0.5, 0.5, 0.1, 0.8])
        >>> w.area_under_roc_curve()  # the last 4: 0.5 F, 0.5 T, 0.1 F, 0.8 T
        0.875
        """
        # A streaming loop asks after every case: the area kept by the last case (_answer) is
        # read before the guard; anything else takes the guard (the owner's lock-free path).
        if _kw is not KW:
            raise too_many_positional(_CLS, "area_under_roc_curve", 1, _kw)
        answer = self._answer
        if answer is not None and interpolate is False and max_fpr is None:
            self._asked = True
            return answer
        return self._roc_area(interpolate, max_fpr, standardized)

    def _roc_area_of_window(self, interpolate: bool, max_fpr: float | None, standardized: bool) -> float:
        """area_under_roc_curve's path under the guard (``_roc_area``: with it, the owner's lock-free path)."""
        if self._hot > 0 and interpolate is False and max_fpr is None:
            # the short path (see _hot): in sync, no misses, no weights, no clock
            self._hot = 2
            self._asked = True
            c = self._n_correct
            n = len(self._scores) - c
            answer = self._answer = self._pairs2 / (2 * c * n) if c and n else _NAN
            return answer
        if interpolate is not False or max_fpr is not None or self._unit_off:
            return self._evaluation().area_under_roc_curve(interpolate, max_fpr=max_fpr, standardized=standardized)
        if self._clock is not None:
            self._expire_clock()
        self._count_lean()
        lo = self._first_id
        if not self._valid or self._s_lo != lo or self._s_hi != lo + len(self._scores):
            if self._snap is not None and self._changes() > _REPLAY_MAX:
                # The window's evaluator is up to date (another query of this state
                # built it): its area costs one vectorised pass, far less than
                # replaying the changes through the containers case by case.
                self._drop_containers()
                return self._snap.area_under_roc_curve()
            if self._many_changes():
                self._drop_for_evaluator()
                return self._evaluation().area_under_roc_curve()
            if self._hot < 0:
                self._cool()  # out of the lean state (plain deques) before the containers are rebuilt
            self._sync()
        self._eager = valid = self._valid
        c = self._n_correct
        n = len(self._scores) - c
        nm = self._negative_misses
        m = self._misses
        if nm or m:
            p, n = c + m, n + nm
            num = self._pairs2 + 2 * c * nm + (m * nm if self._grouped else 0)
        else:
            p, num = c, self._pairs2
            # cases only: the next add_case may take a short path
            if self._size is not None and self._pos_label is None:
                if valid:
                    self._hot = 2
                    self._asked = True
                    answer = self._answer = num / (2 * p * n) if p and n else _NAN
                    return answer
        if not p or not n:
            return _NAN
        return num / (2 * p * n)  # int / int: correctly rounded

    _roc_area = owner_fast_path(_roc_area_of_window, name="area_under_roc_curve")

    def __str__(self) -> str:
        """The LingPipe-style text report of the window."""
        return str(self._evaluation())

    def __repr__(self) -> str:
        kind = f"size={self._size}" if self._size is not None else f"seconds={self._seconds!r}"
        label = "" if self._pos_label is None else f"pos_label={self._pos_label!r}, "
        return (
            f"{_CLS}({kind}, ties={self._ties!r}, {label}num_cases={self.num_cases}, "
            f"num_positive_ref={self.num_positive_ref}, num_negative_ref={self.num_negative_ref}, "
            f"area_under_roc_curve={self.area_under_roc_curve()!r})"
        )



# WindowedEvaluation report the public module (pickles, reprs); __test__ keeps the doctests
# of the class collected from this file.
__test__ = {"WindowedEvaluation": WindowedEvaluation}


register(Kind(
    "windowed", WindowedEvaluation, "ranking", state_format="scored_pr.WindowedEvaluation", snapshot=True,
    load=lambda path: WindowedEvaluation.load(path, clock=None),  # the window as saved: no clock read, nothing expires
    report_view=lambda w: w.snapshot(),
    extra=lambda w: {"window": {"size": w.size, "seconds": w.seconds, "num_cases_seen": w.num_cases_seen}},
    new=lambda ties: WindowedEvaluation(size=2**62, ties=ties), scope="window",
))
