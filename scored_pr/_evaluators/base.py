"""The base every single-ranking kind shares.

The public protocol :class:`Evaluation` (``scored_pr.Evaluation``) lives in
``scored_pr._kinds``, below its consumers; it is re-exported here for the
evaluators. :class:`EvaluationBase` holds
what the exact, windowed and bounded classes would otherwise each repeat: the
properties read from their counters, the "unweighted" error, the
concurrent-use error and the memo of query results, and the one way of
refusing a query (:class:`~scored_pr.UnsupportedQuery`). :func:`forward`
builds the windowed and synchronized kinds' queries from the exact
evaluator's, so that their signatures and docstrings are the exact
evaluator's.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import threading
from typing import Any, Callable, Concatenate, ParamSpec, TypeVar

from .._kinds import DISPLAY, MUTATORS, PROPERTIES, QUERIES, STATE, TEXT, Evaluation  # noqa: F401 - re-exported for the evaluators
from .._validation import UnsupportedQuery
from .guard import SHARED_OWNER, foreign_call

_T = TypeVar("_T")
_P = ParamSpec("_P")
_R = TypeVar("_R")


def unsupported(kind: str, query: str, why: str, instead: str) -> UnsupportedQuery:
    """The error of a query ``kind`` cannot answer: ``"<kind>.<query>: <why>; <instead>"``."""
    return UnsupportedQuery(f"{kind}.{query}: {why}; {instead}")


def html_report(obj: Any, path: Any, title: Any, func: str) -> str:
    """The self-contained HTML report of ``obj`` (any kind), written to ``path`` when given; the document.

    ``path`` and ``title`` are checked before anything is read or written
    (messages name ``func`` and the argument).
    """
    from .. import _html
    from .._validation import check_html_args

    path, title = check_html_args(path, title, func)
    document = _html.render(obj, title=title)
    if path is not None:
        _html.write(document, path)
    return document


def notebook_html(obj: Any) -> str:
    """What a notebook shows for ``obj``: its HTML report in an isolated ``<iframe>``."""
    from .. import _html

    return _html.notebook(obj.to_html())


def report_to_html(self: Any, path: str | os.PathLike[str] | None = None, *, title: str | None = None) -> str:
    """A self-contained HTML report: measures, PR, ROC and F1 curves, a threshold control.

    One file with its script, style and data inlined (no network request;
    opens from ``file://``). For one ranking (an exact evaluator, a
    window, a shared evaluator's snapshot): the headline measures, the PR
    and ROC curves (raw and interpolated) drawn from exact operating
    points, a tooltip per point (threshold, precision, recall, F1,
    TP/FP/TN/FN), a threshold slider and field whose confusion matrix
    equals ``confusion_at_threshold``, F1 by threshold with its maximum,
    and the break-even point; a window also shows its extent. A bounded
    summary shows its certified bands. A multi-query or multi-label
    evaluation shows its totals, means or averages (macro, micro,
    weighted, samples), a sortable table of every query or label (click a
    heading to sort, a row to draw its curves) and that one's curves
    (beside the micro, pooled, curve for labels).

    Parameters
    ----------
    path : str or os.PathLike, optional
        Also write the page there (UTF-8, atomically).
    title : str, optional
        The page's title (default "scored_pr report").

    Returns
    -------
    str
        The HTML document.

    Raises
    ------
    TypeError
        If ``path`` is not None, a str or an os.PathLike, or ``title`` not
        None or a str (nothing is written then).

    Notes
    -----
    O(n) for n cases the first time (then the cached curves); the page
    keeps at most 2,000 operating points per ranking, so it stays under
    1 MB whatever n. A synchronized evaluator is read under its lock.
    See docs/html.md.
    """
    with self._html_guard():
        return html_report(self, path, title, "to_html")


def report_repr_html(self: Any) -> str:
    """What a notebook shows: the report of :meth:`to_html` in an isolated ``<iframe>``."""
    return notebook_html(self)


class HtmlReport:
    """The HTML report methods every evaluator kind shares.

    Every kind takes it as a base (``EvaluationBase`` for the exact, windowed
    and bounded kinds), except the synchronized kind, which binds
    :func:`report_to_html` and :func:`report_repr_html` (its class stays a
    plain wrapper) and overrides :meth:`_html_guard` with its lock.
    """

    __slots__ = ()

    def _html_guard(self) -> Any:
        """The context the report is read in: none by default."""
        return contextlib.nullcontext()

    to_html = report_to_html
    _repr_html_ = report_repr_html


def take_guard(evaluation: Any, what: str, lost: str = "cases") -> None:
    """Take the guard of a collection of evaluators (sliced, multi-label) for ``what``, without waiting.

    A call from a thread other than the owner marks ``evaluation`` shared
    first (``guard.foreign_call``), and is refused with RuntimeError while
    the owner is in a lock-free call or another thread holds the guard;
    ``lost`` names what concurrent calls could lose.
    """
    if foreign_call(evaluation) or not evaluation._guard.acquire(False):
        raise RuntimeError(
            f"{evaluation._KIND}: {what} ran while another thread was using this evaluation; it is not thread-safe "
            f"and concurrent calls could lose {lost}. Serialise the calls with one threading.Lock, or give "
            "each thread its own evaluation and merge them."
        )


@contextlib.contextmanager
def writable(ev: Any) -> Any:
    """A read-only part (a slice's or a label's evaluator), writable for the duration by its owner only."""
    ev._read_only = False
    try:
        yield ev
    finally:
        ev._freeze()


class EvaluationBase(HtmlReport):
    """What the exact, windowed and bounded evaluators share.

    Subclasses set ``_KIND`` (the class name used in messages) and
    ``_NOUN`` (what the "unweighted" error calls the object), and keep
    ``_ties``, ``_pos_label``, ``_misses`` and ``_negative_misses``;
    :meth:`_pos_ref` and :meth:`_neg_ref` give the recall and false positive
    rate denominators. Hot paths (``add_case``) stay in the subclasses.

    Every instance belongs to the thread that made it until another thread
    calls it (``_owner``, ``_busy``): a subclass makes its guard with
    ``guard.claim(self)``, and its ``add_case``/``add_cases`` then run
    lock-free from that thread (``guard.owner_fast_path``).
    """

    __slots__ = ("_owner", "_busy")

    _KIND = "Evaluation"
    _NOUN = "evaluator"
    _OWNED = True  # see guard.guarded: add_case and add_cases take the owner's fast path
    _ties: str
    _pos_label: Any
    _misses: int
    _negative_misses: int
    _memo: dict[Any, Any]
    _guard: threading.RLock
    _read_only: bool

    @property
    def ties(self) -> str:
        """The tie policy, ``"stable"`` or ``"grouped"``."""
        return self._ties

    @property
    def pos_label(self) -> Any:
        """The label of the positive class, or None (bool, 1 vs 0 or -1)."""
        return self._pos_label

    @property
    def num_misses(self) -> int:
        """Positive reference cases never returned (the sum of add_misses counts)."""
        return self._misses

    @property
    def num_negative_misses(self) -> int:
        """Negative reference cases never returned (the sum of add_negative_misses counts)."""
        return self._negative_misses

    @property
    def positive_weight(self) -> float:
        """Sum of the weights of the correct cases, plus one per miss.

        Equal to ``num_positive_ref`` when unweighted; the denominator of
        recall (and of average precision) when weighted.
        """
        return float(self._pos_ref())

    @property
    def negative_weight(self) -> float:
        """Sum of the weights of the incorrect cases, plus one per negative miss.

        Equal to ``num_negative_ref`` when unweighted; the denominator of the
        false positive rate when weighted.
        """
        return float(self._neg_ref())

    def _pos_ref(self) -> int | float:  # pragma: no cover - every kind defines it
        raise NotImplementedError

    def _neg_ref(self) -> int | float:  # pragma: no cover - every kind defines it
        raise NotImplementedError

    @property
    def weighted(self) -> bool:  # pragma: no cover - every kind defines it
        """Whether a sample weight other than 1 was ever added."""
        raise NotImplementedError

    def _unweighted(self, func: str) -> None:
        """Rank-based measures count cases by rank: refuse them for weighted cases."""
        if self.weighted:
            raise ValueError(
                f"{func}: this measure counts cases by rank and is not defined with sample weights; "
                "every evaluator kind answers the curves, their areas, average_precision, "
                "maximum_f_measure and the threshold queries of weighted cases."
            )

    def _concurrent_use(self, what: str) -> RuntimeError:
        return RuntimeError(
            f"{self._KIND}: {what} ran while another thread was using this evaluator; an evaluator is not "
            "thread-safe and concurrent calls could lose cases. Share it as "
            "scored_pr.SynchronizedEvaluation(evaluator), or give each thread its own and merge them."
        )

    def _freeze(self) -> None:
        """Make this evaluator read-only: every writer raises TypeError (see ``guard.WRITERS``)."""
        setattr(self, "_read_only", True)  # the slot is each kind's
        self._owner = SHARED_OWNER  # the owner's lock-free paths do not check _read_only: the locked one does

    def _acquire(self, what: str) -> None:
        """Take ``_guard`` for ``what`` without waiting; another thread inside the evaluator is a RuntimeError.

        A call from a thread other than the owner marks the evaluator shared
        first, and is refused while the owner is in a lock-free call
        (``guard.foreign_call``).
        """
        if foreign_call(self) or not self._guard.acquire(False):
            raise self._concurrent_use(what)

    def _cached(self, key: Any, build: Callable[[], _T]) -> _T:
        """``build()``, memoised under ``key`` until the next mutation (which empties ``_memo``).

        Building a result merges pending cases, so it must not overlap a
        mutation: it holds ``_guard`` without waiting, and another thread
        inside the evaluator is a RuntimeError (see :meth:`_concurrent_use`).
        """
        memo = self._memo
        try:
            return memo[key]  # type: ignore[no-any-return]
        except KeyError:
            pass
        self._acquire("a query")
        try:
            value = self._memo[key] = build()
        finally:
            self._guard.release()
        return value

    def _unsupported(self, query: str, why: str, instead: str) -> UnsupportedQuery:
        return unsupported(self._KIND, query, why, instead)


def forward(
    method: Callable[Concatenate[Any, _P], _R], target: str, kind: str, module: str, note: str
) -> Callable[Concatenate[Any, _P], _R]:
    """A method of ``kind`` that calls ``method`` (an exact evaluator's query) on ``self.<target>()``.

    The result has the query's name, signature (``inspect.signature``
    follows ``__wrapped__``) and docstring, with ``note`` (what the kind
    answers over) as its first paragraph, so ``help()`` shows the exact
    evaluator's contract.
    """
    name = method.__name__

    def query(self: Any, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        return getattr(getattr(self, target)(), name)(*args, **kwargs)  # type: ignore[no-any-return]

    functools.update_wrapper(query, method)
    query.__qualname__ = f"{kind}.{name}"
    query.__module__ = module
    query.__doc__ = f"{note}\n\n{inspect.cleandoc(method.__doc__ or '')}"
    return query
