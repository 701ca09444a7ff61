"""What moves cases out of a sliding window and keeps its ROC rank sum (the base of ``WindowedEvaluation``).

:class:`WindowMachinery` holds the window's expiry (by size: the oldest items
leave; by time: the items timed before ``now - seconds``, with the clock and
the explicit times) and the catch-up of the rank sum kept in the sorted
containers (:class:`~scored_pr._core.sortedblocks.PairedBlocks`): the cases
that left since the last ROC AUC query leave them, those that arrived enter,
or the containers are dropped and rebuilt from the window's ranking. Its
``_check`` asserts every invariant for the tests. ``WindowedEvaluation``
(``_evaluators/windowed.py``) adds the cases, the queries and the state.
"""

from __future__ import annotations

import math
import time as _time
from collections import deque
from itertools import islice, takewhile
from typing import Any, Callable, NamedTuple

import numpy as np
import numpy.typing as npt

from .._core import points as P
from .._core.sortedblocks import PairedBlocks
from .._validation import check_time, missing_time, time_off_clock
from .base import EvaluationBase

_INF = math.inf

#: WindowedEvaluation._hot: the lean short path of add_case (see there)
_LEAN = -1



class _Ranking(NamedTuple):
    """The window's cases in rank order, as of the last query."""

    neg: npt.NDArray[np.float64]  #: negated scores, ascending; ties in insertion order
    correct: npt.NDArray[np.bool_]
    ids: npt.NDArray[np.int64]  #: each case's number in the stream (0 for the first case ever added)
    weight: npt.NDArray[np.float64] | None
    end: int  #: the id of the first case not in this ranking


def _default_clock() -> float:
    """``time.monotonic()``: the clock of a time window created without ``clock=``.

    A distinct function, so that the window can tell the default from a
    clock the caller chose: a window on the default clock whose first item
    comes with an explicit time runs on explicit times (no clock) instead.
    """
    return _time.monotonic()


class WindowMachinery(EvaluationBase):
    """Expiry and the rank sum's catch-up of a sliding window; see the module docstring.

    It declares the fields of a window (``WindowedEvaluation`` adds none).
    """

    __slots__ = (
        "_size",
        "_seconds",
        "_clock",
        "_clock_auto",
        "_ties",
        "_grouped",
        "_pos_label",
        "_scores",
        "_correct",
        "_weights",
        "_times",
        "_first_id",
        "_pb",
        "_pairs2",
        "_s_lo",
        "_s_hi",
        "_valid",
        "_n_correct",
        "_gone",
        "_eager",
        "_hot",
        "_seen",
        "_counted",
        "_lean_next",
        "_answer",
        "_asked",
        "_unit_off",
        "_runs",
        "_misses",
        "_negative_misses",
        "_now",
        "_ranking",
        "_snap",
        "_guard",
        "_read_only",
        "__weakref__",
    )

    _size: int | None
    _seconds: float | None
    _clock: Callable[[], float] | None
    _clock_auto: bool
    _grouped: bool
    _scores: deque[float]
    _correct: deque[bool]
    _weights: deque[float] | None
    _times: deque[float] | None
    _first_id: int
    _pb: PairedBlocks
    _pairs2: int
    _s_lo: int
    _s_hi: int
    _valid: bool
    _gone: deque[tuple[float, bool]]
    _n_correct: int
    _eager: bool
    _hot: int
    _seen: int
    _counted: int
    _lean_next: bool
    _answer: float | None
    _asked: bool
    _unit_off: int
    _runs: deque[list[Any]]
    _now: float
    _snap: Any

    def _ranking_now(self) -> _Ranking:  # pragma: no cover - WindowedEvaluation's
        raise NotImplementedError

    def _many_changes(self) -> bool:  # pragma: no cover - WindowedEvaluation's (its limits are set there)
        raise NotImplementedError

    def _leaving(self, now: float | None) -> tuple[int, int]:
        """How many cases may leave the deques, and how many leading runs of misses may change, at most.

        Size windows: the items beyond ``size``, oldest first (each run of
        misses it reaches changes). Time windows (``now``, the newest time):
        the cases and runs timed before ``now - seconds``.
        """
        if now is None:
            assert self._size is not None
            excess = max(0, len(self._scores) + self._misses + self._negative_misses - self._size)
            return min(excess, len(self._scores)), min(excess + 1, len(self._runs))
        assert self._seconds is not None and self._times is not None
        cutoff = now - self._seconds
        cases = sum(1 for _ in takewhile(lambda x: x < cutoff, self._times))
        runs = sum(1 for _ in takewhile(lambda r: r[0] < cutoff, self._runs))
        return cases, runs

    def _cool(self) -> None:
        """Leave the short paths' states (see _hot), writing back the range the rank sum counts if in sync.

        Out of the lean state, the counts are brought up to date and the
        deques made plain again (O(W), once: the state is entered only by a
        ROC AUC query that asks the window's evaluator, O(W) itself).
        """
        self._answer = None  # before any change (see WindowedEvaluation._answer)
        hot = self._hot
        if hot > 0:
            lo = self._first_id
            self._s_lo, self._s_hi = lo, lo + len(self._scores)
        elif hot < 0:
            self._count_lean()
            # plain deques: the general paths append first and then drop the oldest themselves
            self._scores, self._correct, self._hot = deque(self._scores), deque(self._correct), 0
        self._hot = 0

    def _count_lean(self) -> None:
        """A lean window's counts brought up to date: ``_first_id``, ``_n_correct`` and ``_snap`` (see _go_lean).

        O(1) when no case came since the last count; else O(W) (a C-level
        count of the window's correct flags).
        """
        seen = self._seen
        if self._hot < 0 and seen != self._counted:
            # one line: an interruption leaves the old counts or the new, never half of them
            self._first_id, self._n_correct, self._snap, self._counted = seen - len(self._scores), self._correct.count(True), None, seen

    def _drop_for_evaluator(self) -> None:
        """A ROC AUC query answers from the window's evaluator: the containers go, and a plain size window goes lean.

        Plain: no misses, no pos_label (the caller has seen no weights). The
        state is entered at the next add_case (:meth:`_lean_after_case`), not
        here: its deques are copied (O(W)), which a stream of batches
        (``add_cases``, which clears ``_lean_next``) would pay twice per query.
        """
        self._drop_containers()
        self._lean_next = self._hot >= 0 and self._size is not None and not self._runs and self._pos_label is None

    def _lean_after_case(self) -> None:
        """After add_case's general path: enter the lean state if a ROC AUC query asked for it and the window is plain."""
        self._lean_next = False
        if not self._valid and self._hot == 0 and self._size is not None and self._weights is None and not self._runs:
            self._go_lean()

    def _go_lean(self) -> None:
        """Enter the lean state: the containers dropped, plain cases only join the deques.

        For a size window with no misses, no weights and no pos_label (the
        caller checks). The deques get ``maxlen=size``, so appending the
        newest case drops the oldest by itself, and add_case's lean path only
        appends the case and counts it in ``_seen`` (the cases ever added):
        ``_first_id``, ``_n_correct`` and ``_snap`` are left as they were
        when the count ``_counted`` was taken, and every reader of them
        brings them up to date first (:meth:`_count_lean`), every other
        change leaves the state (:meth:`_cool`).
        """
        self._drop_containers()
        if self._hot < 0:
            return  # already lean
        size = self._size
        seen = self._first_id + len(self._scores)
        # one line (see _count_lean); the deques hold at most size cases here (no misses)
        self._scores, self._correct, self._seen, self._counted, self._hot = deque(self._scores, size), deque(self._correct, size), seen, seen, _LEAN

    # ------------------------------------------------------------------ expiry

    def _time_of(self, time: Any, func: str) -> float:
        """The time of an item: validated ``time``, or the clock's reading."""
        if time is None:
            clock = self._clock
            if clock is None:
                raise missing_time(func)  # the condition inline: no call per case
            # A clock that stepped back (a reading before the window's current
            # time) counts as the current time, as at a query: never an error
            # about a 'time' the caller did not pass.
            return max(check_time(clock(), func, "clock()"), self._now)
        t = check_time(time, func)
        self._check_explicit(func, "time", t)
        if t < self._now:
            raise self._backwards(func, "time", t)
        return t

    def _check_explicit(self, func: str, name: str, t: float) -> None:
        """An explicit time may not join items timed by the default clock (another scale)."""
        if self._clock is _default_clock and not self._clock_auto:
            raise time_off_clock(func, name, t)

    def _settle(self, explicit: bool) -> None:
        """The first item of a window on the default clock: explicit times mean no clock."""
        if self._clock_auto:
            self._clock, self._clock_auto = (None if explicit else self._clock), False

    def _backwards(self, func: str, name: str, t: float, index: int | None = None) -> ValueError:
        where = "" if index is None else f" at index {index}"
        return ValueError(
            f"{func}: argument '{name}' must not be earlier than the window's current time {self._now!r} "
            f"(times must be non-decreasing); got {t!r}{where} instead."
        )

    def _no_time(self, func: str, name: str = "time") -> TypeError:
        return TypeError(
            f"{func}: argument '{name}' is for time windows (seconds=...); this window holds the last "
            f"{self._size} items. Got a {name} for a size window."
        )

    def _advance(self, now: float) -> None:
        """Move the window's current time to ``now`` (>= the current time) and expire."""
        self._now = now
        assert self._seconds is not None and self._times is not None
        cutoff = now - self._seconds
        times = self._times
        while times and times[0] < cutoff:
            times.popleft()
            self._drop_oldest()
        runs = self._runs
        while runs and runs[0][0] < cutoff:
            self._drop_run(runs.popleft())

    def _expire_clock(self) -> None:
        """At a query: expire by the clock (time windows with a clock)."""
        clock = self._clock
        if clock is not None and not self._clock_auto:  # an undecided window holds nothing to expire
            now = check_time(clock(), "WindowedEvaluation", "clock()")
            if now > self._now:
                self._advance(now)

    def expire(self) -> None:
        """Expire by the clock now (time windows with a clock; otherwise nothing to do).

        Every query does this first; call it to drop old cases (and free
        their memory) without querying.
        """
        self._expire_clock()

    def _expire_size(self) -> None:
        """Drop the oldest items until at most ``size`` remain (misses count one each)."""
        size = self._size
        assert size is not None
        excess = len(self._scores) + self._misses + self._negative_misses - size
        runs = self._runs
        while excess > 0:
            if runs and runs[0][0] <= self._first_id:  # misses that arrived before the oldest case
                run = runs[0]
                take = min(excess, run[1])
                run[1] -= take
                if run[2]:
                    self._misses -= take
                else:
                    self._negative_misses -= take
                if not run[1]:
                    runs.popleft()
                excess -= take
            else:
                self._drop_oldest()
                excess -= 1
        self._snap = None

    def _drop_run(self, run: list[Any]) -> None:
        if run[2]:
            self._misses -= run[1]
        else:
            self._negative_misses -= run[1]
        self._snap = None

    def _drop_oldest(self) -> None:
        """The oldest case leaves (its time, if any, is popped by the caller).

        If the sorted containers are up to date, it leaves them at once, the
        reverse of entering: the oldest case ranks before every case of equal
        score under the stable policy. If they are not, but hold it, it is
        queued in _gone for the next _sync; if they do not hold it yet, there
        is nothing to undo.
        """
        score = self._scores.popleft()
        correct = self._correct.popleft()
        case_id = self._first_id
        self._first_id = case_id + 1
        self._snap = None
        weights = self._weights
        if weights is not None and weights.popleft() != 1.0:
            self._unit_off -= 1
            if not self._unit_off:
                self._weights = None
        if correct:
            self._n_correct -= 1
        if case_id >= self._s_hi or not self._valid:
            return
        if self._gone or self._s_hi != case_id + 1 + len(self._scores):
            self._gone.append((score, correct))
            return
        self._s_lo = case_id + 1
        if correct:
            lt, le = self._pb.leave(score, True)
            self._pairs2 -= lt + le if self._grouped else 2 * le
        else:
            lt, le = self._pb.leave(score, False)
            n = 2 * self._n_correct
            self._pairs2 -= n - lt - le if self._grouped else n - 2 * le

    def _changes(self) -> int:
        """How many cases _sync would have to move through the containers (all the window's if not valid)."""
        lo = self._first_id
        hi = lo + len(self._scores)
        if not self._valid:
            return hi - lo
        return len(self._gone) + hi - max(self._s_hi, lo)

    def _drop_containers(self) -> None:
        """Empty the containers; the rank sum is unknown until the next _sync rebuilds it."""
        lo = self._first_id
        self._pb = PairedBlocks()
        self._valid = self._eager = False
        self._pairs2 = 0
        self._gone.clear()
        self._s_lo, self._s_hi = lo, lo + len(self._scores)

    def _sync(self) -> None:
        """Bring the rank sum and the sorted containers up to date with the window.

        With the containers valid, the k cases that left since leave, oldest
        first, and those that arrived (and are still here) enter, oldest
        first, so each is the oldest or the newest when it moves, as in
        add_case: O(k log W). With the containers dropped, they are rebuilt
        from the window's ranking and the rank sum computed from it,
        vectorised: O(W + k log k). A ROC AUC query that finds more than
        W >> _REBUILD_SHIFT (and more than _REBUILD_MIN) changes does neither: it drops
        the containers and asks the window's evaluator, whose unweighted
        area is the same exact ratio (see area_under_roc_curve), so a stream
        queried now and then pays nothing per case for them. Every add_case
        that follows a ROC AUC query with the containers in sync keeps them
        so at once (_eager, and the short path).
        """
        lo = self._first_id
        hi = lo + len(self._scores)
        if not self._valid:
            self._rebuild()
            return
        gone = self._gone
        k = hi - max(self._s_hi, lo)
        pb, grouped = self._pb, self._grouped
        npos = pb.count(True)  # the correct cases in the containers, as they change
        pairs2 = self._pairs2
        while gone:
            score, correct = gone.popleft()
            lt, le = pb.leave(score, correct)
            if correct:
                npos -= 1
                pairs2 -= lt + le if grouped else 2 * le
            else:
                pairs2 -= 2 * npos - (lt + le if grouped else 2 * le)
        scores = list(islice(reversed(self._scores), k))
        flags = list(islice(reversed(self._correct), k))
        for i in range(k - 1, -1, -1):
            score, correct = scores[i], flags[i]
            lt, le = pb.enter(score, correct)
            if correct:
                npos += 1
                pairs2 += lt + le if grouped else 2 * lt
            else:
                pairs2 += 2 * npos - (lt + le if grouped else 2 * lt)
        self._pairs2, self._s_lo, self._s_hi = pairs2, lo, hi

    def _rebuild(self) -> None:
        """The rank sum and the containers from the window's ranking, O(W + k log k)."""
        r = self._ranking_now()
        neg, cor = r.neg, r.correct
        neg_cum = np.cumsum(~cor, dtype=np.int64)  # incorrect cases among the top i + 1
        n_neg = int(neg_cum[-1]) if neg_cum.size else 0
        if self._grouped:
            # per tie group: each correct case in it pairs with 2 * (incorrect cases below
            # the group) + 1 * (incorrect cases in the group)
            ends = P.group_ends(neg)
            neg_end = neg_cum[ends - 1]
            neg_in = np.diff(neg_end, prepend=0)
            pos_in = np.diff(ends - neg_end, prepend=0)  # correct cases in each group
            pairs2 = int(np.sum(pos_in * (2 * (n_neg - neg_end) + neg_in), dtype=np.int64))
        else:
            # stable: a correct case at rank i ranks before every incorrect case after it
            pairs2 = 2 * int(np.sum(n_neg - neg_cum[cor], dtype=np.int64))
        self._pb = PairedBlocks.from_sorted(np.negative(neg)[::-1], cor[::-1])  # ascending
        self._valid = True
        self._pairs2 = pairs2
        self._gone.clear()
        self._s_lo, self._s_hi = r.end - neg.size, r.end

    def _lean_if_plain(self) -> None:
        """A window with no rank sum to keep yet: plain cases take the lean path until an AUC query.

        For a size window with no pos_label, no misses and no weights, whose
        containers are dropped or empty: they are marked dropped (the rank
        sum is computed at the first ROC AUC query), so add_case only joins
        the deques.
        """
        if self._size is None or self._pos_label is not None or self._runs or self._weights is not None:
            return
        if self._valid and (len(self._pb) or self._gone or self._pairs2):
            return
        self._go_lean()

    def _check(self) -> None:
        """Assert every invariant, the rank sum against a brute-force count (for the tests).

        Brings valid sorted containers up to date first (:meth:`_sync`);
        dropped containers stay dropped, and their unknown rank sum is not
        checked (the ROC AUC then comes from the window's evaluator).
        """
        self._count_lean()
        lo = self._first_id
        plain = self._hot < 0
        # the lean state's deques drop the oldest case themselves; every other state's grow as told
        assert self._scores.maxlen == self._correct.maxlen == (self._size if plain else None)
        if plain:  # the lean state: check it, but keep it
            assert not self._valid and not len(self._pb) and not self._gone and self._size is not None
            assert not self._runs and self._weights is None and self._pos_label is None
            assert self._seen == self._counted == lo + len(self._scores)
        elif self._hot:  # in sync by definition (_s_lo and _s_hi are not kept): check it, but keep the state
            assert self._valid and not self._gone and self._size is not None and not self._runs
            assert self._weights is None and self._pos_label is None
        elif self._valid:
            if self._s_lo != lo or self._s_hi != lo + len(self._scores):
                self._sync()
            assert (self._s_lo, self._s_hi) == (lo, lo + len(self._scores)) and not self._gone
        assert self._n_correct == sum(self._correct)
        self._pb._check()
        n = len(self._scores)
        assert len(self._correct) == n
        assert self._times is None or len(self._times) == n
        assert self._weights is None or len(self._weights) == n
        if self._weights is None:
            assert self._unit_off == 0
        else:
            assert self._unit_off == sum(1 for w in self._weights if w != 1.0) > 0
        pos = [s for s, c in zip(self._scores, self._correct) if c]
        neg = [s for s, c in zip(self._scores, self._correct) if not c]
        if self._valid:
            assert sorted(pos) == self._pb.items(True) and sorted(neg) == self._pb.items(False)
        else:
            assert not len(self._pb) and not self._eager
        pairs2 = 0 if self._valid else self._pairs2  # dropped containers: the rank sum is unknown
        items = list(zip(self._scores, self._correct)) if self._valid else []
        for i, (si, ci) in enumerate(items):
            if not ci:
                continue
            for j, (sj, cj) in enumerate(items):
                if cj:
                    continue
                if si > sj:
                    pairs2 += 2
                elif si == sj:
                    pairs2 += 1 if self._grouped else 2 * (i < j)
        assert pairs2 == self._pairs2, (pairs2, self._pairs2)
        assert self._misses == sum(r[1] for r in self._runs if r[2])
        assert self._negative_misses == sum(r[1] for r in self._runs if not r[2])
        assert all(r[1] > 0 for r in self._runs)
        if self._size is not None:
            assert n + self._misses + self._negative_misses <= self._size
        if self._times is not None and self._seconds is not None:
            assert all(a <= b for a, b in zip(self._times, list(self._times)[1:]))
            cutoff = self._now - self._seconds
            assert all(t >= cutoff for t in self._times) and all(r[0] >= cutoff for r in self._runs)
