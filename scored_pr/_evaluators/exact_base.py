"""What the exact evaluator's query mixins read from it: its stored cases, its memo and its counts.

:class:`ScoredPrecisionRecallEvaluation` is one class built from a shell
(:mod:`scored_pr._evaluators.exact`: storage, the memo, the mutators, the curves, combining and
state) and three mixins of queries, one module each by role
(:mod:`~scored_pr._evaluators.exact_scalars`, :mod:`~scored_pr._evaluators.exact_ranks`,
:mod:`~scored_pr._evaluators.exact_thresholds`). The mixins hold no state; :class:`ExactShell`
declares, for the type checker only, what they read from the evaluator they are mixed into.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    from .._core import curves as C, points as P, thresholds as T
    from .store import CaseStore

__all__ = ["HELD", "ExactShell", "adopt", "readonly"]

_T = TypeVar("_T")
_A = TypeVar("_A", bound=np.ndarray)
#: The memo's key, during summary(), of the list holding the curves built in the call (see summary).
HELD = object()


def readonly(a: _A) -> _A:
    """Mark a cached array read-only, so that no caller can corrupt the cache."""
    a.setflags(write=False)
    return a


class ExactShell:
    """The base of the exact evaluator's query mixins: no state, no methods at run time.

    Under type checking it declares the evaluator's members the mixins
    call; at run time the evaluator's own members answer.
    """

    __slots__ = ()

    if TYPE_CHECKING:
        _ties: str
        _store: CaseStore
        _memo: dict[Any, Any]

        def _cached(self, key: Any, build: Callable[[], _T]) -> _T: ...
        def _cached_weak(self, key: Any, build: Callable[[], _T]) -> _T: ...
        def _points(self, ties: str | None = None) -> P.Points: ...
        def _cutoffs(self) -> T.Cutoffs: ...
        def _curve(self, name: str, interpolate: bool) -> npt.NDArray[np.float64]: ...
        def _roc_rows(self, interpolate: bool) -> C.RocRows: ...
        def _pr_columns(self, interpolate: bool) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
        def _unweighted(self, func: str) -> None: ...
        def _pos_ref(self) -> int | float: ...
        def _neg_ref(self) -> int | float: ...
        def _freeze(self) -> None: ...
        def ranked_cases(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.float64] | None]: ...
        def r_precision(self) -> float: ...
        def f_measure_at(self, k: int, beta: float = 1.0) -> float: ...

        @property
        def num_cases(self) -> int: ...
        @property
        def num_positive_ref(self) -> int: ...
        @property
        def num_negative_ref(self) -> int: ...
        @property
        def num_misses(self) -> int: ...
        @property
        def num_negative_misses(self) -> int: ...


def adopt(mixin: type, owner: str = "ScoredPrecisionRecallEvaluation") -> None:
    """Name ``mixin``'s methods as the evaluator's own: ``owner.method``.

    Their ``__qualname__`` (``help()``, reprs, the documentation) and, where
    Python has it (3.11+), the code's ``co_qualname``, which Python's own
    TypeErrors quote ("ScoredPrecisionRecallEvaluation.precision_at() got an
    unexpected keyword argument ..."), so that the messages users read do not
    change with the module a method lives in. Decorated methods are renamed
    through their ``__wrapped__`` chain.
    """
    for name, member in vars(mixin).items():
        fn = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
        while callable(fn) and hasattr(fn, "__code__"):
            qualname = f"{owner}.{name}"
            fn.__qualname__ = qualname
            if sys.version_info >= (3, 11):  # Python 3.10's code objects have no co_qualname
                fn.__code__ = fn.__code__.replace(co_qualname=qualname)
            fn = getattr(fn, "__wrapped__", None)
