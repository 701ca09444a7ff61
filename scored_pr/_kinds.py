"""The evaluator kinds: the public protocol, the words for each kind, and one registry of kinds.

This module sits below every consumer of an evaluator (the text report, the
intervals, the state files, the evaluators themselves, plots, tests, sinks
and the command line), so that each can name the protocol and ask what kind
an object is without importing the layer that defines it.

- :class:`Evaluation` (public as ``scored_pr.Evaluation``): what every
  single-ranking kind answers, with the same names and signatures.
- :class:`Kind` and :func:`register`: each evaluator kind declares, once, its
  one-word name (the word its state files carry), its class, its state
  format, what it holds (one exact ranking, a bounded summary, one ranking per
  query or per label), and how consumers read it. :func:`kind_of` answers by
  the registered class, never by duck typing; :data:`KINDS` lists them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol, TextIO, TypeVar, runtime_checkable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ._core.calibration import ReliabilityDiagram
    from ._core.thresholds import Confusion, OperatingPoint
    from ._core.decisions import Decision, NetBenefit
    from ._core.stats import Interval

#: The properties every kind has (read-only).
PROPERTIES = (
    "ties", "pos_label", "num_cases", "num_positive_ref", "num_negative_ref", "num_misses",
    "num_negative_misses", "weighted", "positive_weight", "negative_weight",
)
#: The methods that add to an evaluator or empty it.
MUTATORS = ("add_case", "add_cases", "add_misses", "add_negative_misses", "reset")
#: What a summary of bounded memory offers instead, at the end of every refusal of the bounded kind.
_KEEP_EXACT = "keep a ScoredPrecisionRecallEvaluation (BoundedEvaluation.from_evaluation summarises one)"
#: Why a result computed in the cluster refuses a threshold query.
_NO_THRESHOLDS = "thresholds are not computed in the cluster"
#: Why a summary of bounded memory refuses a calibration query.
_NO_LOGISTIC_FIT_BOUNDED = ("the logistic fit needs the log-odds of every distinct score, which a summary does not keep "
                            "(its calibration sums give the binned error, the Brier score and the log loss)")
#: Why a result computed in the cluster refuses the calibration queries it does not compute (it answers the
#: binned ones, the Brier score and the log loss from sums per bin).
_NO_LOGISTIC_FIT = "the logistic recalibration's Newton steps need every distinct score, which stays in the cluster"
_NO_ISOTONIC_FIT = "the CORP diagram's isotonic fit needs every distinct score, which stays in the cluster"
#: Why a summary of bounded memory refuses a decision query (a threshold to choose, a curve over thresholds).
_BINS_HIDE_THRESHOLDS = ("the scores of the operating points inside a bin are not kept, so neither "
                            "is the threshold a decision needs")
_DECIDE_INSTEAD = f"use precision_at_threshold(t) and recall_at_threshold(t) on candidate thresholds (or bins()), or {_KEEP_EXACT}"
#: Why a result computed in the cluster refuses a query at a recall level.
_NO_RECALL_LEVELS = "the recall levels are not computed in the cluster"


@dataclass(frozen=True)
class Refusal:
    """Why a kind cannot answer a query (``why``) and what to use instead (``instead``; a kind may supply its own)."""

    why: str
    instead: str = ""


@dataclass(frozen=True)
class Query:
    """One read-only query of the protocol, declared once: its name and how each kind answers it.

    Its signature and docstring are the method of that name on :class:`Evaluation`
    (the exact evaluator's, which ``tests/evaluators/test_every_kind_interface.py``
    holds equal). The exact evaluator answers every query with a method of its own;
    the kinds that derive their queries from this table (:func:`answers_from_table`)
    get the rest built at class creation:

    - the windowed kind asks its window's evaluator (exactly), unless it defines the
      method itself (its incremental ROC area);
    - the synchronized kind asks its evaluator under its lock;
    - the bounded kind answers with :class:`~scored_pr.Bounds` in a method of its own
      when ``bounded`` is None, else refuses with :class:`~scored_pr.UnsupportedQuery`
      saying ``bounded.why``; ``bounded.instead``;
    - a result computed in the cluster (``DistributedEvaluation``) answers in a method
      of its own when ``distributed`` is None, else refuses saying ``distributed.why``.

    Attributes
    ----------
    name : str
        The method's name on every kind.
    bounded : Refusal or None
        None: ``BoundedEvaluation`` answers it (a method of its own, which the
        class must define); else why it refuses and what to use instead.
    distributed : Refusal or None
        None: ``DistributedEvaluation`` answers it (a method of its own); else
        why it refuses.
    static : bool
        A static method (``print_precision_recall_curve``): every kind takes the
        exact evaluator's function as it is.
    """

    name: str
    bounded: Refusal | None = None
    distributed: Refusal | None = None
    static: bool = False

    def answered_by(self, kind: str) -> bool:
        """Whether the kind ``kind`` (``"exact"``, ``"windowed"``, ``"synchronized"``, ``"bounded"``, ``"distributed"``) answers it."""
        if kind == "bounded":
            return self.bounded is None
        if kind == "distributed":
            return self.distributed is None
        return True


#: Every read-only query of the exact evaluator, which every kind answers or refuses with
#: UnsupportedQuery, in the order of the protocol (alphabetical). One entry per query: the
#: kinds below build or check their methods from it (see Query).
QUERY_TABLE: tuple[Query, ...] = (
    Query("area_under_pr_curve"),
    Query("area_under_prg_curve", bounded=Refusal(_BINS_HIDE_THRESHOLDS, _DECIDE_INSTEAD), distributed=Refusal(_NO_THRESHOLDS)),
    Query("area_under_roc_curve"),
    Query("average_precision"),
    Query("average_precision_at"),
    Query("brier_score"),
    Query("calibration_curve"),
    Query("calibration_slope_intercept", bounded=Refusal(_NO_LOGISTIC_FIT_BOUNDED, _KEEP_EXACT),
          distributed=Refusal(_NO_LOGISTIC_FIT)),
    Query("confidence_interval",
          bounded=Refusal("the cases a resampling or DeLong's variance needs are gone from a summary",
                          f"{_KEEP_EXACT} and call its confidence_interval"),
          distributed=Refusal("resampling needs the cases, which stay in the cluster")),
    Query("confusion_at_threshold", distributed=Refusal(_NO_THRESHOLDS)),
    Query("cost_curve", bounded=Refusal(_BINS_HIDE_THRESHOLDS, _DECIDE_INSTEAD)),
    Query("cumulative_gain_curve", bounded=Refusal(_BINS_HIDE_THRESHOLDS, _DECIDE_INSTEAD), distributed=Refusal(_NO_THRESHOLDS)),
    Query("det_curve", bounded=Refusal(_BINS_HIDE_THRESHOLDS, _DECIDE_INSTEAD), distributed=Refusal(_NO_THRESHOLDS)),
    Query("e_measure_at"),
    Query("eleven_point_interpolated_precision",
          bounded=Refusal("a summary certifies bounds for the uninterpolated curves only",
                          f"use pr_band(), or {_KEEP_EXACT}"),
          distributed=Refusal(_NO_RECALL_LEVELS)),
    Query("expected_calibration_error"),
    Query("expected_cost"),
    Query("f_measure_at"),
    Query("f_measure_at_threshold", distributed=Refusal(_NO_THRESHOLDS)),
    Query("hit_curve",
          bounded=Refusal("a hit curve has one entry per case, which a summary of bounded memory does not keep",
                          f"use recall_at(k) or precision_at(k), or {_KEEP_EXACT}"),
          distributed=Refusal("the hit curve has one entry per row")),
    Query("k_at_recall", distributed=Refusal(_NO_RECALL_LEVELS)),
    Query("ks_statistic", bounded=Refusal(_BINS_HIDE_THRESHOLDS, _DECIDE_INSTEAD), distributed=Refusal(_NO_THRESHOLDS)),
    Query("lift_curve", bounded=Refusal(_BINS_HIDE_THRESHOLDS, _DECIDE_INSTEAD), distributed=Refusal(_NO_THRESHOLDS)),
    Query("log_loss"),
    Query("maximum_f_measure"),
    Query("maximum_f_measure_threshold",
          bounded=Refusal("the best threshold may lie inside a bin, whose scores a summary does not keep",
                          f"use maximum_f_measure() and f_measure_at_threshold(t), or {_KEEP_EXACT}"),
          distributed=Refusal(_NO_THRESHOLDS)),
    Query("min_cost_threshold"),
    Query("net_benefit"),
    Query("operating_point"),
    Query("pr_breakeven_point"),
    Query("pr_curve"),
    Query("pr_score_curve",
          bounded=Refusal("the scores of the operating points inside a bin are not kept",
                          f"use pr_band() (and bins() for the score ranges), or {_KEEP_EXACT}")),
    Query("precision_at"),
    Query("precision_at_recall", distributed=Refusal(_NO_RECALL_LEVELS)),
    Query("precision_at_threshold", distributed=Refusal(_NO_THRESHOLDS)),
    Query("precision_recall_gain_curve", bounded=Refusal(_BINS_HIDE_THRESHOLDS, _DECIDE_INSTEAD), distributed=Refusal(_NO_THRESHOLDS)),
    Query("print_precision_recall_curve", static=True),
    Query("r_precision"),
    Query("recall_at"),
    Query("recall_at_threshold", distributed=Refusal(_NO_THRESHOLDS)),
    Query("reciprocal_rank"),
    Query("reliability_diagram",
          bounded=Refusal("the CORP diagram's isotonic fit needs every distinct score, which a summary does not keep",
                          _KEEP_EXACT),
          distributed=Refusal(_NO_ISOTONIC_FIT)),
    Query("roc_curve"),
    Query("roc_points",
          bounded=Refusal("the thresholds of the operating points inside a bin are not kept",
                          f"use roc_curve() or roc_band(), or {_KEEP_EXACT}"),
          distributed=Refusal("the curve is down-sampled")),
    Query("summary"),
    Query("threshold_at_precision",
          bounded=Refusal("the threshold may lie inside a bin, whose scores a summary does not keep",
                          f"use precision_at_threshold(t) on candidate thresholds (or bins()), or {_KEEP_EXACT}"),
          distributed=Refusal(_NO_THRESHOLDS)),
    Query("threshold_at_recall",
          bounded=Refusal("the threshold may lie inside a bin, whose scores a summary does not keep",
                          f"use recall_at_threshold(t) on candidate thresholds (or bins()), or {_KEEP_EXACT}"),
          distributed=Refusal(_NO_THRESHOLDS)),
)  # fmt: skip

#: The protocol's queries: the names of :data:`QUERY_TABLE` but its static text printing, in its order.
QUERIES = tuple(q.name for q in QUERY_TABLE if not q.static)


def query_entry(name: str) -> Query:
    """The entry of :data:`QUERY_TABLE` called ``name`` (KeyError if there is none)."""
    for q in QUERY_TABLE:
        if q.name == name:
            return q
    raise KeyError(name)


_C = TypeVar("_C", bound=type)

#: The classes whose queries are built from the table, each with the function that builds one
#: query's method (``Query -> function``): see :func:`answers_from_table`.
DERIVED: dict[type, Callable[[Query], Any]] = {}


def answers_from_table(make: Callable[[Query], Any]) -> Callable[[_C], _C]:
    """Class decorator: every query of :data:`QUERY_TABLE` the class does not define is ``make(query)``.

    ``make`` builds the method of one query for this kind (forwarding it, locking
    it, refusing it with the table's reason...); a method the class (or a base
    class of its own) defines is the kind's override and stays. The methods are
    set at class creation, so ``dir()``, ``help()``, ``inspect.signature`` and a
    class decorator applied after this one (the thread guard) see them; type
    checkers see the protocol's signatures through :data:`QueriesForTyping`.
    """

    def decorate(cls: _C) -> _C:
        DERIVED[cls] = make
        install_queries(cls)
        return cls

    return decorate


def install_queries(
    cls: type, table: tuple[Query, ...] | None = None, put: Callable[[type, str, Any], None] = setattr
) -> list[str]:
    """Set on ``cls`` (one of :data:`DERIVED`) each query of ``table`` it does not define yet; their names.

    ``table`` defaults to :data:`QUERY_TABLE` as it is now; ``put`` is how an
    attribute is set (a test adding a query passes ``monkeypatch.setattr``).
    """
    make = DERIVED[cls]
    own = {name for klass in cls.__mro__[:-1] for name in vars(klass)}
    added = []
    for q in QUERY_TABLE if table is None else table:
        if q.name not in own:
            put(cls, q.name, make(q))
            added.append(q.name)
    return added


#: The state methods (``from_dict`` and ``load`` are classmethods).
STATE = ("to_dict", "from_dict", "save", "load")
#: What every registered kind also offers, outside the protocol (so not asked of a class of the
#: user's own): its HTML report, which ``scored_pr._html`` builds from the protocol's queries.
DISPLAY = ("to_html",)
#: LingPipe's text printing of a PR curve, kept on every kind that holds a ranking (LingPipe code calls it),
#: outside the protocol: printing is a display's job, not a query's (a user's own class need not have it).
#: The table's ``static`` entries, which every kind builds as the exact evaluator's function.
TEXT = tuple(q.name for q in QUERY_TABLE if q.static)


def _not_answered(obj: Any, name: str) -> TypeError:
    """What a query of :class:`Queries` raises when a class subclassing the protocol does not define it."""
    return TypeError(f"{type(obj).__name__} does not define the query {name!r} of scored_pr.Evaluation")


class Queries(Protocol):
    """The read-only queries of :class:`Evaluation` (one per entry of :data:`QUERY_TABLE`), with their signatures.

    The part of the protocol that the kinds deriving their queries from the table
    (:func:`answers_from_table`) name as a base class for type checkers only
    (:data:`QueriesForTyping`): the methods built at class creation then have
    these signatures for mypy, and a kind's own override is checked against them.
    Each body raises (no class inherits it at run time).
    """

    # --------------------------------------------------------------- queries

    def pr_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """(recall, precision) rows, one per operating point."""
        raise _not_answered(self, "pr_curve")

    def pr_score_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """(recall, precision, score) rows."""
        raise _not_answered(self, "pr_score_curve")

    def roc_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """(recall, rejection recall) rows."""
        raise _not_answered(self, "roc_curve")

    def roc_points(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(fpr, tpr, thresholds), scikit-learn's layout."""
        raise _not_answered(self, "roc_points")

    def area_under_pr_curve(self, interpolate: bool = False) -> float:
        """Step area under the PR curve."""
        raise _not_answered(self, "area_under_pr_curve")

    def area_under_roc_curve(
        self, interpolate: bool = False, *, max_fpr: float | None = None, standardized: bool = True
    ) -> float:
        """Area under the ROC curve (partial with ``max_fpr``)."""
        raise _not_answered(self, "area_under_roc_curve")

    def average_precision(self, ties: str | None = None) -> float:
        """Average precision."""
        raise _not_answered(self, "average_precision")

    def average_precision_at(self, k: int) -> float:
        """AP over the top ``k``."""
        raise _not_answered(self, "average_precision_at")

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
        raise _not_answered(self, "confidence_interval")

    def confusion_at_threshold(self, threshold: float) -> Confusion:
        """(tp, fp, tn, fn) of accepting every case scored >= ``threshold``."""
        raise _not_answered(self, "confusion_at_threshold")

    def e_measure_at(self, k: int, beta: float = 1.0) -> float:
        """1 - F-beta of the top ``k``."""
        raise _not_answered(self, "e_measure_at")

    def eleven_point_interpolated_precision(self, rounding: str = "exact") -> npt.NDArray[np.float64]:
        """Interpolated precision at recall 0.0, 0.1, ..., 1.0."""
        raise _not_answered(self, "eleven_point_interpolated_precision")

    def f_measure_at(self, k: int, beta: float = 1.0) -> float:
        """F-beta of the top ``k``."""
        raise _not_answered(self, "f_measure_at")

    def f_measure_at_threshold(self, threshold: float, beta: float = 1.0) -> float:
        """F-beta of accepting every case scored >= ``threshold``."""
        raise _not_answered(self, "f_measure_at_threshold")

    def hit_curve(self) -> npt.NDArray[Any]:
        """Correct cases among the top t, t = 1..num_cases."""
        raise _not_answered(self, "hit_curve")

    def k_at_recall(self, recall: float) -> int | float:
        """The fewest top cases whose recall is >= ``recall``."""
        raise _not_answered(self, "k_at_recall")

    def maximum_f_measure(self, beta: float = 1.0) -> float:
        """The best F-beta over the PR curve's operating points."""
        raise _not_answered(self, "maximum_f_measure")

    def maximum_f_measure_threshold(self, beta: float = 1.0) -> OperatingPoint:
        """The threshold with the best F-beta."""
        raise _not_answered(self, "maximum_f_measure_threshold")

    def pr_breakeven_point(self) -> float:
        """Where precision equals recall."""
        raise _not_answered(self, "pr_breakeven_point")

    def precision_at(self, k: int) -> float:
        """Precision over the top ``k``."""
        raise _not_answered(self, "precision_at")

    def precision_at_recall(self, recall: float) -> float:
        """Precision at ``k_at_recall(recall)``."""
        raise _not_answered(self, "precision_at_recall")

    def precision_at_threshold(self, threshold: float) -> float:
        """Precision of accepting every case scored >= ``threshold``."""
        raise _not_answered(self, "precision_at_threshold")

    def r_precision(self) -> float:
        """Precision over the top num_positive_ref."""
        raise _not_answered(self, "r_precision")

    def recall_at(self, k: int) -> float:
        """Recall over the top ``k``."""
        raise _not_answered(self, "recall_at")

    def recall_at_threshold(self, threshold: float) -> float:
        """Recall of accepting every case scored >= ``threshold``."""
        raise _not_answered(self, "recall_at_threshold")

    def reciprocal_rank(self) -> float:
        """1 / rank of the first correct case."""
        raise _not_answered(self, "reciprocal_rank")

    def summary(self) -> dict[str, float]:
        """Counts and scalar measures in one flat dict."""
        raise _not_answered(self, "summary")

    # ----------------------------------------------------------- calibration

    def brier_score(self) -> float:
        """Mean squared gap between score and outcome (scores in [0, 1])."""
        raise _not_answered(self, "brier_score")

    def calibration_curve(
        self, n_bins: int = 5, strategy: str = "uniform"
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(fraction correct, mean score) of each non-empty bin."""
        raise _not_answered(self, "calibration_curve")

    def calibration_slope_intercept(self) -> tuple[float, float]:
        """Slope and intercept of the logistic recalibration."""
        raise _not_answered(self, "calibration_slope_intercept")

    def expected_calibration_error(
        self, n_bins: int = 15, norm: str = "l1", strategy: str = "uniform", debias: bool = False
    ) -> float:
        """Binned calibration error (l1, l2 or max)."""
        raise _not_answered(self, "expected_calibration_error")

    def log_loss(self) -> float:
        """Mean negative log likelihood of the outcomes."""
        raise _not_answered(self, "log_loss")

    def reliability_diagram(
        self, confidence: float = 0.9, n_resamples: int = 100, seed: int | None = 0
    ) -> ReliabilityDiagram:
        """The CORP reliability diagram and Brier decomposition."""
        raise _not_answered(self, "reliability_diagram")

    def threshold_at_precision(self, precision: float) -> OperatingPoint:
        """The lowest threshold whose precision is >= ``precision``."""
        raise _not_answered(self, "threshold_at_precision")

    def threshold_at_recall(self, recall: float) -> OperatingPoint:
        """The highest threshold whose recall is >= ``recall``."""
        raise _not_answered(self, "threshold_at_recall")

    # ------------------------------------------------------------ decisions (see _evaluators/exact_decisions.py)

    def operating_point(
        self,
        maximize: str = "recall",
        subject_to: dict[str, float] | None = None,
        confidence: float | None = None,
        *,
        seed: int = 0,
    ) -> Decision:
        """The threshold of greatest ``maximize`` meeting ``subject_to`` (certified at ``confidence``)."""
        raise _not_answered(self, "operating_point")

    def min_cost_threshold(
        self, cost_fp: float = 1.0, cost_fn: float = 1.0, gain_tp: float = 0.0, gain_tn: float = 0.0
    ) -> Decision:
        """The threshold of least expected cost per case."""
        raise _not_answered(self, "min_cost_threshold")

    def expected_cost(
        self, threshold: float, cost_fp: float = 1.0, cost_fn: float = 1.0, gain_tp: float = 0.0, gain_tn: float = 0.0
    ) -> float:
        """Mean cost per case of accepting every case scored >= ``threshold``."""
        raise _not_answered(self, "expected_cost")

    def cost_curve(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Drummond and Holte's cost curve: (probability cost, normalised expected cost)."""
        raise _not_answered(self, "cost_curve")

    def net_benefit(self, thresholds: Any = None) -> NetBenefit:
        """Net benefit at probability thresholds, with treat-all and treat-none."""
        raise _not_answered(self, "net_benefit")

    def det_curve(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(fpr, fnr, thresholds), scikit-learn's layout."""
        raise _not_answered(self, "det_curve")

    def cumulative_gain_curve(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(accepted fraction, recall, threshold)."""
        raise _not_answered(self, "cumulative_gain_curve")

    def lift_curve(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(accepted fraction, lift, threshold)."""
        raise _not_answered(self, "lift_curve")

    def ks_statistic(self) -> float:
        """The two-sample Kolmogorov-Smirnov statistic of the two classes' scores."""
        raise _not_answered(self, "ks_statistic")

    def precision_recall_gain_curve(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(recall gain, precision gain) at every distinct score."""
        raise _not_answered(self, "precision_recall_gain_curve")

    def area_under_prg_curve(self) -> float:
        """Area under the precision-recall-gain curve."""
        raise _not_answered(self, "area_under_prg_curve")




if TYPE_CHECKING:
    #: A base class, for type checkers only, of the kinds whose queries are built from the table.
    QueriesForTyping = Queries
else:
    QueriesForTyping = object


@runtime_checkable
class Evaluation(Queries, Protocol):
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


#: What a kind holds, which decides how every consumer reads it:
#: ``"ranking"``: one ranking answered exactly (the :class:`Evaluation` protocol);
#: ``"bounded"``: one ranking summarised in bins (queries answer ``Bounds``, curves come as bands);
#: ``"per_query"``: one ranking per query (means over queries);
#: ``"per_label"``: one ranking per label (per-label values and their averages);
#: ``"per_slice"``: one evaluator per slice of the cases (``SlicedEvaluation``: iterating gives the slices).
HOLDS = ("ranking", "bounded", "per_query", "per_label", "per_slice")


@dataclass(frozen=True)
class Kind:
    """One evaluator kind, declared once (see :func:`register`); every consumer reads it from here.

    Attributes
    ----------
    name : str
        The one word for the kind everywhere: the ``kind`` field of its state
        files, ``scored-pr report``'s output, messages.
    cls : type
        The public class.
    holds : str
        One of :data:`HOLDS`.
    state_format : str or None
        The ``format`` field of its state files (``"scored_pr.<Class>"``), or
        None for a kind that saves as another kind's state (a
        ``SynchronizedEvaluation`` saves its exact evaluator's).
    snapshot : bool
        Consumers read it through ``snapshot()`` (one moment: a window that
        slides, an evaluator other threads add to).
    load : callable or None
        How ``scored-pr report`` reads its state file into an object
        (``path -> object``); None when it has no state file of its own.
    figures : callable or None
        For a kind that is not one exact ranking: the flat dict of figures
        ``scored-pr report`` prints for it (``object -> dict``).
    report_view : callable or None
        For a kind that holds one ranking: the exact evaluator the full text
        report, curves, plots and intervals read (``object -> evaluator``),
        and ``extra`` the kind-specific fields of the report (``object -> dict``).
    new : callable or None
        An empty evaluator of this kind with tie policy ``ties``
        (``ties -> object``), keeping every case added to it (a window large
        enough): what the intervals resample into and the common tests feed.
    scope : str or callable
        What its figures cover: ``"cumulative"`` (every case added) or
        ``"window"`` (the cases in a sliding window); the sinks' ``scope``.
        A callable (``object -> str``) for a kind whose instances differ (a
        multi-label evaluation with or without ``window``); read it through
        :func:`scope_of`.
    seen : callable or None
        How many cases (rows, for a kind that holds one ranking per label)
        were ever added to an object of this kind (``object -> int``): what
        :class:`~scored_pr.streaming.SummaryLogger` counts and its default
        ``step``. None: ``num_cases_seen`` where the object has one (a
        window), else ``num_cases``; read it through :func:`seen_of`.
    to_state, from_state : callable or None
        How the state layer (``scored_pr._state``, below the evaluators) reads
        an object's contents as its state record (``object -> record``) and
        builds an object of a class of this kind from a validated record
        (``(cls, record) -> object``): checkpoints with an extra header, and the
        unpickling entry points of 0.1.0's pickles. Read them through
        :func:`state_hooks`.
    """

    name: str
    cls: type
    holds: str
    state_format: str | None = None
    snapshot: bool = False
    load: Callable[[str], Any] | None = None
    figures: Callable[[Any], dict[str, Any]] | None = None
    report_view: Callable[[Any], Any] | None = None
    extra: Callable[[Any], dict[str, Any]] | None = None
    new: Callable[[str], Any] | None = None
    scope: str | Callable[[Any], str] = "cumulative"
    seen: Callable[[Any], int] | None = None
    to_state: Callable[[Any], Any] | None = None
    from_state: Callable[[Any, Any], Any] | None = None


#: Every registered kind, by name, in the order registered.
KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    """Declare ``kind``; its name and class are then known to every consumer. Returns it."""
    if kind.holds not in HOLDS:
        raise ValueError(f"register: holds must be one of {HOLDS}; got {kind.holds!r}")
    for other in KINDS.values():
        if other.name != kind.name and other.cls is kind.cls:
            raise ValueError(f"register: {kind.cls.__name__} is already the kind {other.name!r}")
    KINDS[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    """Forget the kind ``name`` (for tests that register a kind of their own)."""
    KINDS.pop(name, None)


def kind_of(obj: Any) -> Kind | None:
    """The kind of ``obj``: the registered kind of its class (or of a registered base class).

    An object of no registered class that has every query, mutator and
    property of the public protocol :class:`Evaluation` (a class of the
    user's own, a proxy answering through ``__getattr__``) is a kind that
    holds one ranking, named ``"evaluation"`` and read by its public methods
    alone. None otherwise.
    """
    if isinstance(obj, type):
        return None
    mro = type(obj).__mro__
    best: Kind | None = None
    for kind in KINDS.values():
        if kind.cls in mro and (best is None or mro.index(kind.cls) < mro.index(best.cls)):
            best = kind
    if best is None and _satisfies_protocol(obj):
        return Kind("evaluation", type(obj), "ranking")
    return best


def state_hooks(cls: type) -> tuple[Callable[[Any], Any], Callable[[Any, Any], Any]]:
    """``(to_state, from_state)`` of the registered kind of class ``cls`` (or of its nearest registered base).

    Raises TypeError naming the class when its kind has no state record.
    """
    mro = cls.__mro__
    best: Kind | None = None
    for kind in KINDS.values():
        if kind.cls in mro and (best is None or mro.index(kind.cls) < mro.index(best.cls)):
            best = kind
    if best is None or best.to_state is None or best.from_state is None:
        raise TypeError(f"{cls.__qualname__} is of no registered kind with a state record")
    return best.to_state, best.from_state


def _satisfies_protocol(obj: Any) -> bool:
    """Whether ``obj`` has every query, mutator and property of :class:`Evaluation`, as ``getattr`` sees them.

    Not ``isinstance(obj, Evaluation)``: from Python 3.12 that looks names up
    statically, so a proxy answering through ``__getattr__`` would not count.
    """
    try:
        return all(callable(getattr(obj, name, None)) for name in (*QUERIES, *MUTATORS)) and all(
            hasattr(obj, name) for name in PROPERTIES
        )
    except Exception:  # a property that raises: not an evaluator this module can read
        return False


def scope_of(obj: Any) -> str:
    """What the figures of ``obj`` cover, ``"cumulative"`` or ``"window"`` (its kind's ``scope``; cumulative for no kind)."""
    kind = kind_of(obj)
    if kind is None:
        return "cumulative"
    return kind.scope if isinstance(kind.scope, str) else kind.scope(obj)


def seen_of(obj: Any) -> int:
    """Cases (rows for a per-label kind) ever added to ``obj``: its kind's ``seen``, else ``num_cases_seen`` or ``num_cases``."""
    return seen_counter(obj)()


def seen_counter(obj: Any) -> Callable[[], int]:
    """A function that reads :func:`seen_of` ``obj`` now, its kind looked up once (for a caller that asks often)."""
    kind = kind_of(obj)
    seen = None if kind is None else kind.seen
    if seen is not None:
        return lambda: int(seen(obj))
    if hasattr(obj, "num_cases_seen"):  # a window (or a kind wrapping one)
        return lambda: int(obj.num_cases_seen)
    return lambda: int(obj.num_cases)


def by_format(fmt: Any) -> Kind | None:
    """The kind whose state files carry ``format`` ``fmt``, or None."""
    for kind in KINDS.values():
        if kind.state_format is not None and kind.state_format == fmt:
            return kind
    return None
