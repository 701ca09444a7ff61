"""One evaluator interface: the public protocol and the base every single-ranking kind shares.

:class:`Evaluation` (public as ``scored_pr.Evaluation``) lists the queries and
properties that the exact evaluator (``ScoredPrecisionRecallEvaluation``),
``WindowedEvaluation``, ``BoundedEvaluation`` and ``SynchronizedEvaluation``
all answer, with the same names and signatures. :class:`EvaluationBase` holds
what the exact, windowed and bounded classes would otherwise each repeat: the
properties read from their counters, the "unweighted" error, the
concurrent-use error and the memo of query results, and the one way of
refusing a query (:class:`~scored_pr.UnsupportedQuery`). :func:`forward`
builds the windowed and synchronized kinds' queries from the exact
evaluator's, so that their signatures and docstrings are the exact
evaluator's.
"""

from __future__ import annotations

import functools
import inspect
import os
import threading
from typing import TYPE_CHECKING, Any, Callable, Concatenate, ParamSpec, Protocol, TextIO, TypeVar, runtime_checkable

from .._validation import UnsupportedQuery

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .._core.thresholds import Confusion, OperatingPoint
    from .._core.stats import Interval

_T = TypeVar("_T")
_P = ParamSpec("_P")
_R = TypeVar("_R")

#: The properties every kind has (read-only).
PROPERTIES = (
    "ties", "pos_label", "num_cases", "num_positive_ref", "num_negative_ref", "num_misses",
    "num_negative_misses", "weighted", "positive_weight", "negative_weight",
)
#: The methods that add to an evaluator or empty it.
MUTATORS = ("add_case", "add_cases", "add_misses", "add_negative_misses", "reset")
#: The read-only queries of the exact evaluator, which every kind answers (or refuses with UnsupportedQuery).
QUERIES = (
    "area_under_pr_curve", "area_under_roc_curve", "average_precision", "average_precision_at",
    "confidence_interval", "confusion_at_threshold", "e_measure_at", "eleven_point_interpolated_precision",
    "f_measure_at", "f_measure_at_threshold", "hit_curve", "k_at_recall", "maximum_f_measure",
    "maximum_f_measure_threshold", "pr_breakeven_point", "pr_curve", "pr_score_curve", "precision_at",
    "precision_at_recall", "precision_at_threshold", "print_precision_recall_curve", "r_precision",
    "recall_at", "recall_at_threshold", "reciprocal_rank", "roc_curve", "roc_points", "summary",
    "threshold_at_precision", "threshold_at_recall",
)
#: The state methods (``from_dict`` and ``load`` are classmethods).
STATE = ("to_dict", "from_dict", "save", "load")


@runtime_checkable
class Evaluation(Protocol):
    """What every single-ranking evaluator kind answers, with the same names and signatures.

    Satisfied by :class:`~scored_pr.ScoredPrecisionRecallEvaluation` (exact),
    :class:`~scored_pr.WindowedEvaluation` (exact, over a sliding window),
    :class:`~scored_pr.BoundedEvaluation` (bounded memory: each measure a
    :class:`~scored_pr.Bounds`, exact or with certified bounds) and
    :class:`~scored_pr.SynchronizedEvaluation` (thread-safe view of an exact
    evaluator): ``isinstance(x, scored_pr.Evaluation)`` holds for each. Code
    written against this protocol (plots, tests, loggers) takes any kind.

    Every method has the meaning, parameters and degenerate values
    documented on :class:`~scored_pr.ScoredPrecisionRecallEvaluation`. A
    kind that cannot answer a query at all raises
    :class:`~scored_pr.UnsupportedQuery` naming the kind, the query, why,
    and what to use instead (never ``AttributeError``); one that can only
    bound the answer returns :class:`~scored_pr.Bounds`.

    Examples
    --------
    >>> import scored_pr
    >>> kinds = [scored_pr.ScoredPrecisionRecallEvaluation(), scored_pr.WindowedEvaluation(size=10),
    ...          scored_pr.BoundedEvaluation(), scored_pr.SynchronizedEvaluation()]
    >>> for ev in kinds:
    ...     ev.add_cases([True, False, True], [0.9, 0.5, 0.2])
    >>> all(isinstance(ev, scored_pr.Evaluation) for ev in kinds)
    True
    >>> [float(ev.precision_at_threshold(0.5)) for ev in kinds]
    [0.5, 0.5, 0.5, 0.5]
    """

    # ------------------------------------------------------------ properties

    @property
    def ties(self) -> str:
        """The tie policy, ``"stable"`` or ``"grouped"``."""

    @property
    def pos_label(self) -> Any:
        """The label of the positive class, or None."""

    @property
    def num_cases(self) -> int:
        """Cases added (misses excluded)."""

    @property
    def num_positive_ref(self) -> int:
        """Correct cases plus misses."""

    @property
    def num_negative_ref(self) -> int:
        """Incorrect cases plus negative misses."""

    @property
    def num_misses(self) -> int:
        """Positive reference cases never returned."""

    @property
    def num_negative_misses(self) -> int:
        """Negative reference cases never returned."""

    @property
    def weighted(self) -> bool:
        """Whether a sample weight other than 1 was added."""

    @property
    def positive_weight(self) -> float:
        """Weight of the correct cases plus one per miss."""

    @property
    def negative_weight(self) -> float:
        """Weight of the incorrect cases plus one per negative miss."""

    # -------------------------------------------------------------- mutators

    def add_case(self, correct: bool, score: float, weight: float = 1.0) -> None:
        """Add one case."""

    def add_cases(self, correct: Any, scores: Any, sample_weight: Any = None) -> None:
        """Add a batch of cases, all or nothing."""

    def add_misses(self, count: int) -> None:
        """Count positive reference cases never returned."""

    def add_negative_misses(self, count: int) -> None:
        """Count negative reference cases never returned."""

    def reset(self) -> None:
        """Remove every case and miss; the settings stay."""

    # --------------------------------------------------------------- queries

    def pr_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """(recall, precision) rows, one per operating point."""

    def pr_score_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """(recall, precision, score) rows."""

    def roc_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """(recall, rejection recall) rows."""

    def roc_points(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(fpr, tpr, thresholds), scikit-learn's layout."""

    def area_under_pr_curve(self, interpolate: bool = False) -> float:
        """Step area under the PR curve."""

    def area_under_roc_curve(
        self, interpolate: bool = False, *, max_fpr: float | None = None, standardized: bool = True
    ) -> float:
        """Area under the ROC curve (partial with ``max_fpr``)."""

    def average_precision(self, ties: str | None = None) -> float:
        """Average precision."""

    def average_precision_at(self, k: int) -> float:
        """AP over the top ``k``."""

    def confidence_interval(
        self,
        measure: str = "area_under_roc_curve",
        level: float = 0.95,
        method: str | None = None,
        n_resamples: int = 2000,
        seed: int | None = None,
        *,
        stratified: bool = True,
        **measure_args: Any,
    ) -> Interval:
        """Confidence interval of a scalar measure."""

    def confusion_at_threshold(self, threshold: float) -> Confusion:
        """(tp, fp, tn, fn) of accepting every case scored >= ``threshold``."""

    def e_measure_at(self, k: int, beta: float = 1.0) -> float:
        """1 - F-beta of the top ``k``."""

    def eleven_point_interpolated_precision(self, rounding: str = "exact") -> npt.NDArray[np.float64]:
        """Interpolated precision at recall 0.0, 0.1, ..., 1.0."""

    def f_measure_at(self, k: int, beta: float = 1.0) -> float:
        """F-beta of the top ``k``."""

    def f_measure_at_threshold(self, threshold: float, beta: float = 1.0) -> float:
        """F-beta of accepting every case scored >= ``threshold``."""

    def hit_curve(self) -> npt.NDArray[Any]:
        """Correct cases among the top t, t = 1..num_cases."""

    def k_at_recall(self, recall: float) -> int | float:
        """The fewest top cases whose recall is >= ``recall``."""

    def maximum_f_measure(self, beta: float = 1.0) -> float:
        """The best F-beta over the PR curve's operating points."""

    def maximum_f_measure_threshold(self, beta: float = 1.0) -> OperatingPoint:
        """The threshold with the best F-beta."""

    def pr_breakeven_point(self) -> float:
        """Where precision equals recall."""

    def precision_at(self, k: int) -> float:
        """Precision over the top ``k``."""

    def precision_at_recall(self, recall: float) -> float:
        """Precision at ``k_at_recall(recall)``."""

    def precision_at_threshold(self, threshold: float) -> float:
        """Precision of accepting every case scored >= ``threshold``."""

    @staticmethod
    def print_precision_recall_curve(curve: Any, file: TextIO | None = None) -> None:
        """Print a PR curve as precision, recall and F1 columns."""

    def r_precision(self) -> float:
        """Precision over the top num_positive_ref."""

    def recall_at(self, k: int) -> float:
        """Recall over the top ``k``."""

    def recall_at_threshold(self, threshold: float) -> float:
        """Recall of accepting every case scored >= ``threshold``."""

    def reciprocal_rank(self) -> float:
        """1 / rank of the first correct case."""

    def summary(self) -> dict[str, float]:
        """Counts and scalar measures in one flat dict."""

    def threshold_at_precision(self, precision: float) -> OperatingPoint:
        """The lowest threshold whose precision is >= ``precision``."""

    def threshold_at_recall(self, recall: float) -> OperatingPoint:
        """The highest threshold whose recall is >= ``recall``."""

    # ----------------------------------------------------------------- state

    def to_dict(self) -> dict[str, Any]:
        """The state as a JSON-safe dict."""

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Any:
        """The evaluator whose ``to_dict`` is ``d``."""

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the state to ``path`` (no pickle)."""

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Any:
        """Read a state written by ``save``."""


Evaluation.__module__ = "scored_pr"


def unsupported(kind: str, query: str, why: str, instead: str) -> UnsupportedQuery:
    """The error of a query ``kind`` cannot answer: ``"<kind>.<query>: <why>; <instead>"``."""
    return UnsupportedQuery(f"{kind}.{query}: {why}; {instead}")


class EvaluationBase:
    """What the exact, windowed and bounded evaluators share.

    Subclasses set ``_KIND`` (the class name used in messages) and
    ``_NOUN`` (what the "unweighted" error calls the object), and keep
    ``_ties``, ``_pos_label``, ``_misses`` and ``_negative_misses``;
    :meth:`_pos_ref` and :meth:`_neg_ref` give the recall and false positive
    rate denominators. Hot paths (``add_case``) stay in the subclasses.
    """

    __slots__ = ()

    _KIND = "Evaluation"
    _NOUN = "evaluator"
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
        setattr(self, "_read_only", True)  # the slot is each kind's (this base has no slots of its own)

    def _acquire(self, what: str) -> None:
        """Take ``_guard`` for ``what`` without waiting; another thread inside the evaluator is a RuntimeError."""
        if not self._guard.acquire(False):
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
