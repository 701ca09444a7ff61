"""Sharing one evaluator between threads."""

from __future__ import annotations

import functools
import inspect
import os
import threading
from typing import Any, Callable

from .._validation import check_type_named
from .exact import ScoredPrecisionRecallEvaluation
from .._kinds import Kind, Query, QueriesForTyping, answers_from_table, register
from .base import MUTATORS, PROPERTIES, report_repr_html, report_to_html
from .guard import new_guard


def _locked(name: str) -> Callable[..., Any]:
    """The evaluator's method ``name``, called under the lock, with its signature and docstring."""
    method = getattr(ScoredPrecisionRecallEvaluation, name)

    def call(self: SynchronizedEvaluation, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return getattr(self._ev, name)(*args, **kwargs)

    functools.update_wrapper(call, method)
    call.__qualname__ = f"SynchronizedEvaluation.{name}"
    call.__module__ = __name__
    call.__doc__ = f"Under the lock: as :meth:`ScoredPrecisionRecallEvaluation.{name}`.\n\n{inspect.cleandoc(method.__doc__ or '')}"
    return call


def _locked_property(name: str) -> property:
    """The evaluator's property ``name``, read under the lock."""
    doc = getattr(ScoredPrecisionRecallEvaluation, name).__doc__

    def get(self: SynchronizedEvaluation) -> Any:
        with self._lock:
            return getattr(self._ev, name)

    return property(get, doc=doc)


def _locked_query(q: Query) -> Callable[..., Any]:
    """The query ``q`` of the table (see ``_kinds.QUERY_TABLE``): the evaluator's, under the lock."""
    if q.static:
        return staticmethod(getattr(ScoredPrecisionRecallEvaluation, q.name))  # type: ignore[return-value]
    return _locked(q.name)


# Every query of scored_pr.Evaluation is the shared evaluator's under the lock, built from the
# table at class creation (so isinstance(..., Evaluation), dir() and help() see them).
@answers_from_table(_locked_query)
class SynchronizedEvaluation(QueriesForTyping):
    """A thread-safe view of a :class:`ScoredPrecisionRecallEvaluation`.

    Every method call and property read of the wrapped evaluator runs under
    one re-entrant lock, so any number of threads may add cases and query
    concurrently: no case is lost, and every query sees the cases of the
    calls that completed before it. Queries are serialised too (a query
    merges pending cases and fills caches, so it mutates internal state).
    Curves come back as read-only arrays and stay valid after later
    additions.

    Parameters
    ----------
    evaluation : ScoredPrecisionRecallEvaluation, optional
        The evaluator to share; a new one (with ``ties``) by default. Do not
        use it directly while it is shared.
    ties : {"grouped", "stable"}, default "grouped"
        The tie policy of a new evaluator.

    Notes
    -----
    A plain :class:`ScoredPrecisionRecallEvaluation` is not thread-safe.
    Cost: about a microsecond of lock and dispatch per call. Under
    ``ties="stable"``, cases added concurrently by different threads rank
    in the order the lock admitted them. Hold :attr:`lock` to make several
    calls atomic together. :meth:`snapshot` returns an independent copy,
    e.g. to merge with another evaluator.

    Examples
    --------
    >>> import threading
    >>> from scored_pr import SynchronizedEvaluation
    >>> shared = SynchronizedEvaluation()
    >>> def work(seed):
    ...     for i in range(1000):
    ...         shared.add_case(i % 2 == 0, seed + i / 1000)
    >>> threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    >>> for t in threads: t.start()
    >>> for t in threads: t.join()
    >>> shared.num_cases, shared.num_positive_ref
    (4000, 2000)
    """

    __module__ = "scored_pr"  # pickles and reprs name the public module, wherever this file moves

    __slots__ = ("_ev", "_lock", "__weakref__")

    def __init__(
        self, evaluation: ScoredPrecisionRecallEvaluation | None = None, *, ties: str = "grouped", pos_label: Any = None
    ) -> None:
        if evaluation is None:
            evaluation = ScoredPrecisionRecallEvaluation(ties=ties, pos_label=pos_label)
        else:
            check_type_named(
                evaluation, ScoredPrecisionRecallEvaluation, "SynchronizedEvaluation", "evaluation",
                "a ScoredPrecisionRecallEvaluation",
            )
        self._ev = evaluation
        self._lock = new_guard(self)

    @property
    def lock(self) -> threading.RLock:
        """The lock every call takes; hold it to group calls atomically."""
        return self._lock

    def snapshot(self) -> ScoredPrecisionRecallEvaluation:
        """An independent copy of the evaluator as it is now."""
        with self._lock:
            return self._ev.merge(ScoredPrecisionRecallEvaluation(ties=self._ev.ties, pos_label=self._ev.pos_label))

    def reset(self) -> None:
        """Empty the shared evaluator under the lock (see ``ScoredPrecisionRecallEvaluation.reset``).

        Every case added by a call that completed before it is gone; every
        call after it sees an empty evaluator.
        """
        with self._lock:
            self._ev.reset()

    # the HTML report of a snapshot, written once (base.HtmlReport), read under the lock
    to_html = report_to_html
    _repr_html_ = report_repr_html

    def _html_guard(self) -> Any:
        return self._lock

    def __dir__(self) -> list[str]:
        """Its own names and every public name of the wrapped evaluator (what ``__getattr__`` answers)."""
        mine = set(super().__dir__())
        return sorted(mine | {n for n in dir(ScoredPrecisionRecallEvaluation) if not n.startswith("_")})

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        lock = self._lock
        with lock:
            value = getattr(self._ev, name)  # properties are read under the lock
        if not callable(value):
            return value

        @functools.wraps(value)
        def locked(*args: Any, **kwargs: Any) -> Any:
            with lock:
                return value(*args, **kwargs)

        return locked

    # Combining, comparing and pickling work with plain evaluators on either side; the
    # other operand is read under its own lock when it is shared too.

    @staticmethod
    def _plain(other: object) -> ScoredPrecisionRecallEvaluation | None:
        if isinstance(other, SynchronizedEvaluation):
            return other.snapshot()
        if isinstance(other, ScoredPrecisionRecallEvaluation):
            return other
        return None

    def __add__(self, other: object) -> SynchronizedEvaluation:
        plain = self._plain(other)
        if plain is None:
            return NotImplemented
        with self._lock:
            return SynchronizedEvaluation(self._ev.merge(plain))

    def __radd__(self, other: object) -> SynchronizedEvaluation:
        if not isinstance(other, ScoredPrecisionRecallEvaluation):
            return NotImplemented
        return SynchronizedEvaluation(other.merge(self.snapshot()))

    def __iadd__(self, other: object) -> SynchronizedEvaluation:
        plain = self._plain(other)
        if plain is None:
            return NotImplemented
        with self._lock:
            self._ev += plain
        return self

    def __eq__(self, other: object) -> bool:
        plain = self._plain(other)
        if plain is None:
            return NotImplemented
        with self._lock:
            return self._ev == plain

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __reduce__(self) -> tuple[Any, ...]:
        return (SynchronizedEvaluation, (self.snapshot(),))

    # State: to_dict() and save() are the shared evaluator's (read under the lock), so a
    # saved SynchronizedEvaluation is an exact evaluator's state, of kind "exact".

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SynchronizedEvaluation:
        """A shared evaluator holding ``ScoredPrecisionRecallEvaluation.from_dict(d)`` (validated the same way)."""
        return cls(ScoredPrecisionRecallEvaluation.from_dict(d))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> SynchronizedEvaluation:
        """A shared evaluator holding ``ScoredPrecisionRecallEvaluation.load(path)`` (any exact state file)."""
        return cls(ScoredPrecisionRecallEvaluation.load(path))

    def __str__(self) -> str:
        with self._lock:
            return str(self._ev)

    def __repr__(self) -> str:
        with self._lock:
            return f"SynchronizedEvaluation({self._ev!r})"


# The mutators, properties and state methods of scored_pr.Evaluation are the class's own too;
# anything else public still reaches the evaluator through __getattr__, under the lock too.
for _name in MUTATORS + ("to_dict", "save"):
    if _name != "reset":
        setattr(SynchronizedEvaluation, _name, _locked(_name))
for _name in PROPERTIES:
    setattr(SynchronizedEvaluation, _name, _locked_property(_name))
del _name


# SynchronizedEvaluation report the public module (pickles, reprs); __test__ keeps the doctests
# of the class collected from this file.
__test__ = {"SynchronizedEvaluation": SynchronizedEvaluation}


# Its state is its evaluator's (kind "exact"): no state format, no loader of its own.
register(Kind("synchronized", SynchronizedEvaluation, "ranking", snapshot=True,
              new=lambda ties: SynchronizedEvaluation(ties=ties)))
