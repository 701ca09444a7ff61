"""``DistributedEvaluation``: the frozen result of an exact evaluation computed where the data lives.

:func:`scored_pr.spark.evaluate` and :func:`scored_pr.dask.evaluate` rank a
DataFrame's rows in the cluster (``scored_pr._core.partitioned``) and hand
back this object: every scalar of the measure table, the values at the ranks
asked for, and curves down-sampled to points of the exact curve. It answers
the queries of :class:`scored_pr.Evaluation` that those values determine,
with the names, arguments and values of
``ScoredPrecisionRecallEvaluation(ties="grouped")`` fed the same rows, and
raises :class:`scored_pr.UnsupportedQuery` for the rest (it holds no cases:
no threshold queries, intervals, hit curve or state file; it is a result,
not an accumulator, so it adds nothing either).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from .._core import multilabel as _ml
from .._core.thresholds import f_measure
from .._kinds import MUTATORS, STATE, Evaluation, QueriesForTyping, Query, answers_from_table
from .._measures import MEASURES, REPORT_RANKS
from .._validation import check_average, check_beta, check_choice, check_flag, check_positive_int
from .base import unsupported
from .distributed_calibration import DistributedCalibration
from .distributed_decisions import DistributedDecisions

_CLS = "DistributedEvaluation"
_RANK_BASED = (
    "every evaluator kind answers the curves, their areas, average_precision, maximum_f_measure and the "
    "threshold queries of weighted cases."
)


_INSTEAD = "evaluate with mode='bounded' or a ScoredPrecisionRecallEvaluation of the rows (or a sample) for it"


def _refuse(name: str, why: str) -> Callable[..., Any]:
    def method(self: DistributedEvaluation, *args: Any, **kwargs: Any) -> Any:
        raise unsupported(_CLS, name, why, _INSTEAD)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Not answered: {why} (raises :class:`~scored_pr.UnsupportedQuery`)."
    return method


def _refuse_query(q: Query) -> Callable[..., Any]:
    """The method of a query the table (``_kinds.QUERY_TABLE``) says a result of the cluster refuses."""
    if q.distributed is None:
        raise TypeError(f"{_CLS} must define {q.name}: the query table (_kinds.QUERY_TABLE) says it answers it")
    return _with_signature(_refuse(q.name, q.distributed.why))


def _with_signature(method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` (a refusal) with the protocol's signature for its query, for ``help()`` and ``inspect``."""
    query = getattr(Evaluation, method.__name__, None)
    if query is not None:
        method.__wrapped__ = query  # type: ignore[attr-defined]  # inspect.signature follows it
    return method


# The queries the cluster does not compute refuse with the table's reason, built at class creation.
@answers_from_table(_refuse_query)
class DistributedEvaluation(DistributedCalibration, DistributedDecisions, QueriesForTyping):
    """The exact measures of a DataFrame's rows, computed in the cluster (Spark, Dask).

    Made by :func:`scored_pr.spark.evaluate` or :func:`scored_pr.dask.evaluate`,
    never by hand. Every value equals the one
    ``ScoredPrecisionRecallEvaluation(ties="grouped", pos_label=...)`` gives
    for the same rows and misses: the unweighted ROC areas bit for bit (the
    same integer numerator over 2 P N, rounded once), as are the maximum F,
    precision at k, R-precision and the reciprocal rank; the sums (average
    precision, the PR areas, weighted areas) to within 1e-12 relative, since
    the cluster adds the partitions' shares in another order.

    Rank-based queries (``precision_at``, ``recall_at``, ``f_measure_at``,
    ``e_measure_at``, ``average_precision_at``) answer at the ranks computed:
    5, 10, 25, 100, 500, every rank passed as ``ranks=`` and R; another
    rank raises :class:`~scored_pr.UnsupportedQuery` saying which ranks
    there are. ``pr_curve`` and ``roc_curve`` hold at most ``curve_points``
    + 2 rows, each a row of the exact curve (the first row to reach each
    recall step of 1 / curve_points, and the last); the interpolated curves
    are exact and complete.

    Calibration (scores in [0, 1]): ``expected_calibration_error``,
    ``calibration_curve`` (uniform bins: 5, 10, 15 and every count passed as
    ``calibration_bins=``), ``brier_score`` and ``log_loss`` answer from sums
    the cluster adds per bin, within 1e-12 relative; ``summary()`` has
    ``expected_calibration_error`` and ``brier_score`` exactly when every
    score lies in [0, 1], as the evaluator's does.

    Decisions: ``operating_point`` and ``min_cost_threshold`` answer their
    defaults and each request passed as ``operating_points=`` / ``costs=``
    (each bucket chooses while it is ranked), ``expected_cost`` and
    ``net_benefit`` at the cut-offs passed as ``thresholds=``, and
    ``cost_curve`` from the ROC hull; the evaluator's answers (unweighted:
    bit for bit). With ``thresholds="all"`` every candidate reaches the
    driver (O(distinct scores)) and every decision query is answered from
    them, ``confidence=`` with monotone constraints and ``net_benefit()``
    included.

    Notes
    -----
    Frozen: it holds numbers, not cases, and every query is O(1) or O(rows
    of a curve) (a decision query with ``thresholds="all"``: O(distinct
    scores)). Pickles as a plain object.
    """

    __module__ = "scored_pr"

    def __init__(self, values: dict[str, Any], *, pos_label: Any = None, engine: str = "") -> None:
        self._v = dict(values)
        self._pos_label = pos_label
        self._engine = engine

    # ------------------------------------------------------------ properties

    @property
    def ties(self) -> str:
        """``"grouped"``: every distinct score is one threshold."""
        return "grouped"

    @property
    def pos_label(self) -> Any:
        """The label of the positive class, or None."""
        return self._pos_label

    @property
    def num_cases(self) -> int:
        """Rows evaluated (misses excluded)."""
        return int(self._v["num_cases"])

    @property
    def num_positive_ref(self) -> int:
        """Correct rows plus misses."""
        return int(self._v["num_positive_ref"])

    @property
    def num_negative_ref(self) -> int:
        """Incorrect rows."""
        return int(self._v["num_negative_ref"])

    @property
    def num_misses(self) -> int:
        """Positive reference cases never returned (``misses=``)."""
        return int(self._v["num_misses"])

    @property
    def num_negative_misses(self) -> int:
        """Always 0: negative misses are not counted by the engines."""
        return 0

    @property
    def weighted(self) -> bool:
        """Whether some row's weight is not 1."""
        return bool(self._v["weighted"])

    @property
    def positive_weight(self) -> float:
        """Weight of the correct rows plus one per miss."""
        return float(self._v["pos_ref"])

    @property
    def negative_weight(self) -> float:
        """Weight of the incorrect rows."""
        return float(self._v["neg_ref"])

    # --------------------------------------------------------------- queries

    def average_precision(self, ties: str | None = None) -> float:
        """Average precision, grouped ties (see ``ScoredPrecisionRecallEvaluation.average_precision``)."""
        if ties is not None and check_choice(ties, "average_precision", "ties", ("stable", "grouped", "expected")) != "grouped":
            raise unsupported(_CLS, f"average_precision(ties={ties!r})", "the cluster ranks with grouped ties only",
                              "use ties=None or 'grouped'")
        return float(self._v["average_precision"])

    def area_under_pr_curve(self, interpolate: bool = False) -> float:
        """Step area under the PR curve (``ScoredPrecisionRecallEvaluation.area_under_pr_curve``)."""
        interpolate = check_flag(interpolate, "area_under_pr_curve", "interpolate")
        return float(self._v["area_under_pr_curve_interpolated" if interpolate else "area_under_pr_curve"])

    def area_under_roc_curve(
        self, interpolate: bool = False, *, max_fpr: float | None = None, standardized: bool = True
    ) -> float:
        """Area under the ROC curve or its convex hull (``ScoredPrecisionRecallEvaluation.area_under_roc_curve``)."""
        interpolate = check_flag(interpolate, "area_under_roc_curve", "interpolate")
        if max_fpr is not None:
            raise unsupported(_CLS, "area_under_roc_curve(max_fpr=...)", "the partial area is not computed in the cluster",
                              "evaluate the rows with ScoredPrecisionRecallEvaluation for a partial AUC")
        return float(self._v["area_under_roc_curve_interpolated" if interpolate else "area_under_roc_curve"])

    def maximum_f_measure(self, beta: float = 1.0) -> float:
        """The best F1 over the PR curve's operating points (beta = 1 only)."""
        beta = check_beta(beta, "maximum_f_measure")
        if beta != 1.0:
            raise unsupported(_CLS, f"maximum_f_measure(beta={beta!r})", "the cluster computes the best F1 only",
                              "use beta=1.0")
        return float(self._v["maximum_f_measure"])

    def _unweighted(self, func: str) -> None:
        if self.weighted:
            raise ValueError(f"{func}: this measure counts cases by rank and is not defined with sample weights; "
                             + _RANK_BASED)

    def _tp_at(self, func: str, k: int) -> None:
        """Raise: rank ``k`` was not computed."""
        have = ", ".join(str(r) for r in sorted(self._v["tp_at"]))
        raise unsupported(_CLS, f"{func}({k})", f"rank {k} was not computed in the cluster (ranks: {have})",
                          f"pass ranks=({k},) to evaluate")

    def precision_at(self, k: int) -> float:
        """Precision over the top ``k`` rows; NaN when ``k`` > num_cases."""
        self._unweighted("precision_at")
        k = check_positive_int(k, "precision_at", "k")
        if k > self.num_cases:
            return math.nan
        num, den = self._frac("precision_at", k)
        return num / (den * k)

    def recall_at(self, k: int) -> float:
        """Recall over the top min(k, num_cases) rows; NaN without a positive reference."""
        self._unweighted("recall_at")
        k = check_positive_int(k, "recall_at", "k")
        if self.num_positive_ref == 0:
            return math.nan
        kk = min(k, self.num_cases)
        if kk == 0:
            return 0.0
        num, den = self._frac("recall_at", kk)
        return num / (den * self.num_positive_ref)

    def _frac(self, func: str, k: int) -> tuple[int, int]:
        """(num, den): the correct rows in the top ``k`` as a fraction (expected count where k cuts a tie group)."""
        if k not in self._v["tp_at"]:
            self._tp_at(func, k)
        return self._v["tp_at"][k]  # type: ignore[no-any-return]

    def f_measure_at(self, k: int, beta: float = 1.0) -> float:
        """F-beta of the top ``k`` rows taken as the retrieved set."""
        self._unweighted("f_measure_at")
        k = check_positive_int(k, "f_measure_at", "k")
        beta = check_beta(beta, "f_measure_at")
        kk = min(k, self.num_cases)
        tp = 0.0
        if kk:
            num, den = self._frac("f_measure_at", kk)
            tp = num / den
        return f_measure(tp, kk, self.num_positive_ref, beta)

    def e_measure_at(self, k: int, beta: float = 1.0) -> float:
        """1 - F-beta of the top ``k`` rows."""
        k = check_positive_int(k, "e_measure_at", "k")
        beta = check_beta(beta, "e_measure_at")
        return 1.0 - self.f_measure_at(k, beta)

    def average_precision_at(self, k: int) -> float:
        """AP over the top ``k`` rows, over min(k, num_positive_ref); NaN without a positive reference."""
        self._unweighted("average_precision_at")
        k = check_positive_int(k, "average_precision_at", "k")
        den = min(k, self.num_positive_ref)
        if den == 0:
            return math.nan
        kk = min(k, self.num_cases)
        if kk == 0:
            return 0.0
        if kk not in self._v["ap_at"]:
            self._tp_at("average_precision_at", kk)
        return float(self._v["ap_at"][kk]) / den

    def r_precision(self) -> float:
        """Precision over the top R = num_positive_ref rows (absent ranks count as errors); NaN when R is 0."""
        self._unweighted("r_precision")
        r = self.num_positive_ref
        if r == 0:
            return math.nan
        kk = min(r, self.num_cases)
        if kk == 0:
            return 0.0
        num, den = self._frac("r_precision", kk)
        return num / (den * r)

    def pr_breakeven_point(self) -> float:
        """The break-even point: R-precision (see ``ScoredPrecisionRecallEvaluation.pr_breakeven_point``)."""
        self._unweighted("pr_breakeven_point")
        return self.r_precision()

    def reciprocal_rank(self) -> float:
        """Expected 1 / rank of the first correct row over the orderings of its tie group; 0.0 if none."""
        self._unweighted("reciprocal_rank")
        return float(self._v["reciprocal_rank"])

    # ---------------------------------------------------------------- curves

    def pr_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """(recall, precision) rows: down-sampled points of the exact curve, or the whole interpolated curve."""
        interpolate = check_flag(interpolate, "pr_curve", "interpolate")
        return _readonly(self._v["pr_interpolated" if interpolate else "pr"][:, :2])

    def pr_score_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """(recall, precision, score) rows of :meth:`pr_curve`."""
        interpolate = check_flag(interpolate, "pr_score_curve", "interpolate")
        return _readonly(self._v["pr_interpolated" if interpolate else "pr"])

    def roc_curve(self, interpolate: bool = False) -> npt.NDArray[np.float64]:
        """(recall, rejection recall) rows: down-sampled points of the exact curve, or the whole convex hull."""
        interpolate = check_flag(interpolate, "roc_curve", "interpolate")
        return _readonly(self._v["roc_interpolated" if interpolate else "roc"])

    @staticmethod
    def print_precision_recall_curve(curve: Any, file: Any = None) -> None:
        """Print a PR curve as precision, recall and F1 columns (as the exact evaluator does)."""
        from .exact import ScoredPrecisionRecallEvaluation

        ScoredPrecisionRecallEvaluation.print_precision_recall_curve(curve, file)

    # --------------------------------------------------------------- reports

    def summary(self) -> dict[str, float]:
        """Counts and every scalar measure in one flat dict, keys and order of the measure table.

        The same keys as ``ScoredPrecisionRecallEvaluation.summary()``; the
        rank-based entries are NaN when weighted.
        """
        nan = math.nan
        out: dict[str, float] = {}
        for m in MEASURES:
            if not m.summary or not m.applies_to(self):  # calibration: only when every score is in [0, 1]
                continue
            if m.kind == "per_rank":
                for k in REPORT_RANKS:
                    out[m.key(k)] = nan if self.weighted else m.compute(self, k=k)
            else:
                out[m.name] = nan if (self.weighted and m.rank_based) else m.compute(self)
        return out

    def __repr__(self) -> str:
        return (
            f"{_CLS}(engine={self._engine!r}, num_cases={self.num_cases}, num_positive_ref={self.num_positive_ref}, "
            f"num_negative_ref={self.num_negative_ref}, num_misses={self.num_misses})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self._v, self._pos_label, self._engine))


def _rebuild(values: dict[str, Any], pos_label: Any, engine: str) -> DistributedEvaluation:
    return DistributedEvaluation(values, pos_label=pos_label, engine=engine)


def _readonly(a: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    out = np.array(a, dtype=np.float64)
    out.setflags(write=False)
    return out


# What adds or saves refuses too: a result is frozen.
for _name in (*MUTATORS, *STATE):
    setattr(DistributedEvaluation, _name, _refuse(_name, "a result computed in the cluster is frozen: it adds no "
                                                  "cases and has no state file"))
del _name


# --------------------------------------------------------------------------- per query


_QUERY_FIELDS = ("average_precision", "reciprocal_rank", "r_precision")


def query_partials(
    queries: npt.NDArray[Any], correct: npt.NDArray[np.bool_], scores: npt.NDArray[np.float64],
    weights: npt.NDArray[np.float64] | None, ks: tuple[int, ...],
) -> dict[str, Any]:
    """The sums the means over queries need, for the queries whose every row is in these arrays.

    Each query is evaluated by a ``ScoredPrecisionRecallEvaluation`` of its rows,
    as :class:`scored_pr.MultiQueryEvaluation` does. Returns plain numbers:
    the query, case and positive counts, and for each of AP, reciprocal rank
    and R-precision the values of the queries with a positive reference
    (``<name>``, as a list of per-block fsum partials) and P@k's sum over
    every query; ``weighted`` when a query holds weights other than 1.
    """
    from .exact import ScoredPrecisionRecallEvaluation
    from .multi import _tp_top

    out: dict[str, Any] = {"num_queries": 0, "num_cases": 0, "num_positive_ref": 0, "with_relevant": 0,
                           "weighted": False}
    sums: dict[str, list[float]] = {name: [] for name in _QUERY_FIELDS}
    p_at: dict[int, list[float]] = {k: [] for k in ks}
    if queries.size == 0:
        out.update({name: 0.0 for name in _QUERY_FIELDS}, p_at={k: 0.0 for k in ks})
        return out
    order = np.argsort(queries, kind="stable")
    q = queries[order]
    cut = np.flatnonzero(q[1:] != q[:-1]) + 1
    for idx in np.split(order, cut):
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(correct[idx], scores[idx], None if weights is None else weights[idx])
        out["num_queries"] += 1
        out["num_cases"] += ev.num_cases
        out["num_positive_ref"] += ev.num_positive_ref
        if ev.weighted:
            out["weighted"] = True
            continue
        if ev.num_positive_ref:
            out["with_relevant"] += 1
            for name in _QUERY_FIELDS:
                sums[name].append(getattr(ev, name)())
        for k in ks:
            kk = min(k, ev.num_cases)
            p_at[k].append(_tp_top(ev, kk) / k)
    out.update({name: math.fsum(v) for name, v in sums.items()})
    out["p_at"] = {k: math.fsum(v) for k, v in p_at.items()}
    return out


class DistributedQueryEvaluation:
    """The means over queries of a DataFrame with a query column, computed in the cluster.

    Made by ``scored_pr.spark.evaluate(..., query_col=...)`` or
    ``scored_pr.dask.evaluate(..., query_col=...)``: every query's rows are
    evaluated together in one task, as
    :class:`scored_pr.MultiQueryEvaluation` evaluates them (grouped ties), and
    the driver receives sums, not rows. The means equal
    ``MultiQueryEvaluation``'s within 1e-12 relative (sums added in another
    order); ``summary()`` has its keys.
    """

    __module__ = "scored_pr"

    def __init__(self, parts: list[dict[str, Any]], ks: tuple[int, ...], engine: str = "") -> None:
        self._ks = ks
        self._engine = engine
        self._n = sum(p["num_queries"] for p in parts)
        self._cases = sum(p["num_cases"] for p in parts)
        self._pos = sum(p["num_positive_ref"] for p in parts)
        self._rel = sum(p["with_relevant"] for p in parts)
        self._weighted = any(p["weighted"] for p in parts)
        self._sums = {name: math.fsum(p[name] for p in parts) for name in _QUERY_FIELDS}
        self._p_at = {k: math.fsum(p["p_at"][k] for p in parts) for k in ks}

    @property
    def num_queries(self) -> int:
        """Queries (distinct values of the query column)."""
        return self._n

    def _mean(self, name: str, no_relevant: str, func: str) -> float:
        no_relevant = check_choice(no_relevant, func, "no_relevant", ("zero", "skip"))
        if self._weighted:
            raise ValueError(f"{func}: this measure counts cases by rank and is not defined with sample weights; "
                             + _RANK_BASED)
        count = self._n if no_relevant == "zero" else self._rel
        return self._sums[name] / count if count else math.nan

    def mean_average_precision(self, no_relevant: str = "zero") -> float:
        """MAP (``MultiQueryEvaluation.mean_average_precision``)."""
        return self._mean("average_precision", no_relevant, "mean_average_precision")

    def mean_reciprocal_rank(self, no_relevant: str = "zero") -> float:
        """MRR (``MultiQueryEvaluation.mean_reciprocal_rank``)."""
        return self._mean("reciprocal_rank", no_relevant, "mean_reciprocal_rank")

    def mean_r_precision(self, no_relevant: str = "zero") -> float:
        """Mean R-precision (``MultiQueryEvaluation.mean_r_precision``)."""
        return self._mean("r_precision", no_relevant, "mean_r_precision")

    def mean_precision_at(self, k: int) -> float:
        """trec_eval's P_k averaged over every query, at the ranks computed (5, 10, 25, 100, 500 and ``ranks=``)."""
        k = check_positive_int(k, "mean_precision_at", "k")
        if self._weighted:
            raise ValueError("mean_precision_at: this measure counts cases by rank and is not defined with sample "
                             "weights; " + _RANK_BASED)
        if k not in self._p_at:
            raise unsupported("DistributedQueryEvaluation", f"mean_precision_at({k})",
                              f"rank {k} was not computed in the cluster", f"pass ranks=({k},) to evaluate")
        return self._p_at[k] / self._n if self._n else math.nan

    def summary(self) -> dict[str, float]:
        """The keys of ``MultiQueryEvaluation.summary()`` (num_misses is 0: misses are not counted per query)."""
        out: dict[str, float] = {"num_queries": self._n, "num_cases": self._cases, "num_positive_ref": self._pos,
                                 "num_misses": 0}
        calls = [("mean_average_precision", self.mean_average_precision),
                 ("mean_reciprocal_rank", self.mean_reciprocal_rank), ("mean_r_precision", self.mean_r_precision),
                 *((f"mean_precision_at_{k}", lambda k=k: self.mean_precision_at(k)) for k in REPORT_RANKS)]
        for name, call in calls:
            try:
                out[name] = call()
            except ValueError:
                out[name] = math.nan
        return out

    def __repr__(self) -> str:
        return f"DistributedQueryEvaluation(engine={self._engine!r}, num_queries={self._n}, num_cases={self._cases})"


# --------------------------------------------------------------------------- multi-class and multi-label

_ML_CLS = "DistributedMultiLabelEvaluation"
_AVERAGES = (None, "micro", "macro", "weighted", "samples")


class DistributedMultiLabelEvaluation:
    """Per-label and averaged measures of a DataFrame with one score column per label, computed in the cluster.

    Made by ``scored_pr.spark.evaluate(df, label_col=..., score_cols=[...])``
    (multi-class: each class against the rest) or ``label_cols=[...],
    score_cols=[...]`` (multi-label), and the same calls of
    :func:`scored_pr.dask.evaluate`. Each label's ranking is one exact
    evaluation in the cluster (a :class:`DistributedEvaluation`), and so is
    the micro average's ranking, the n·k (row, label) pairs pooled; the
    averages are taken on the driver from those k + 1 results, by
    scikit-learn's rules as :func:`scored_pr.average_precision` and
    :func:`scored_pr.area_under_roc_curve` (``multi_class="ovr"``) give them
    for the same rows: per-label ROC areas and their macro mean bit for bit,
    the AP values within 1e-12 relative.

    ``average="samples"`` and one-vs-one ROC AUC need each row's k scores
    together and raise :class:`~scored_pr.UnsupportedQuery`, as does every
    other query of :class:`scored_pr.MultiLabelEvaluation`: ask a label's
    result (``result[label]``) or the pooled one (:meth:`pooled`).

    Notes
    -----
    Frozen: it holds k + 1 results, not rows; each query is O(k).
    """

    __module__ = "scored_pr"

    def __init__(self, labels: list[Any], per_label: list[DistributedEvaluation], pooled: DistributedEvaluation, *,
                 num_rows: int, multiclass: bool, engine: str = "") -> None:
        self._labels = list(labels)
        self._per_label = list(per_label)
        self._pooled = pooled
        self._num_rows = int(num_rows)
        self._multiclass = bool(multiclass)
        self._engine = engine
        self._index = {label: j for j, label in enumerate(self._labels)}

    @property
    def labels(self) -> list[Any]:
        """The labels (multi-label: the label columns; multi-class: the classes), in score column order."""
        return list(self._labels)

    @property
    def num_rows(self) -> int:
        """Rows of the DataFrame evaluated."""
        return self._num_rows

    @property
    def multiclass(self) -> bool:
        """True for one class column (one-vs-rest rankings), False for one indicator column per label."""
        return self._multiclass

    @property
    def ties(self) -> str:
        """``"grouped"``: every distinct score is one threshold."""
        return "grouped"

    def __getitem__(self, label: Any) -> DistributedEvaluation:
        """The :class:`DistributedEvaluation` of ``label``'s ranking (its rows against the rest for a class)."""
        try:
            j = self._index[label]
        except (KeyError, TypeError):
            raise KeyError(f"{_ML_CLS}: no label {label!r:.60}; the labels are {self._labels!r:.200}") from None
        return self._per_label[j]

    def pooled(self) -> DistributedEvaluation:
        """The :class:`DistributedEvaluation` of the n·k (row, label) pairs ranked together: the micro average's ranking."""
        return self._pooled

    def _values(self, measure: str) -> npt.NDArray[np.float64]:
        """Each label's value, scikit-learn's: AP 0.0 without a positive, ROC AUC NaN with one class."""
        return np.array([_label_value(ev, measure) for ev in self._per_label], dtype=np.float64)

    def _averaged(self, func: str, measure: str, average: Any) -> Any:
        average = check_average(average, func, _AVERAGES)
        if average == "samples":
            raise unsupported(_ML_CLS, f"{func}(average='samples')", "each row's average over its labels needs the "
                              "row's k scores together, which stay in the cluster",
                              "use 'macro', 'weighted' or 'micro', or a MultiLabelEvaluation of the rows")
        if average == "micro":
            return _label_value(self._pooled, measure)
        values = self._values(measure)
        weights = None
        if average == "weighted":  # each label's positive weight, as scikit-learn's _average_binary_score
            weights = np.array([ev.positive_weight for ev in self._per_label], dtype=np.float64)
        out = _ml.average_label_values(values, average, weights)
        return out.copy() if isinstance(out, np.ndarray) else float(out)

    def average_precision(self, average: str | None = "macro") -> Any:
        """Average precision of each label, averaged as scikit-learn's ``average_precision_score``.

        Each label's AP is Σ over its tie groups (R_g - R_{g-1}) · P_g (ties
        grouped; weights as ``weight_col``); 0.0 for a label without a
        positive (scikit-learn's value; no warning here).

        Parameters
        ----------
        average : {None, "macro", "micro", "weighted"}, default "macro"
            None: the k values (array, label order); "macro": their mean;
            "weighted": their mean weighted by each label's positive weight
            (0.0 with no positive at all); "micro": AP of the pooled ranking.
            "samples" raises :class:`~scored_pr.UnsupportedQuery`.

        Returns
        -------
        float or numpy.ndarray
            ``scored_pr.average_precision(Y, S, average=average)`` of the rows,
            within 1e-12 relative.
        """
        return self._averaged("average_precision", "average_precision", average)

    def area_under_roc_curve(self, average: str | None = "macro", multi_class: str = "ovr") -> Any:
        """ROC AUC of each label, averaged as scikit-learn's ``roc_auc_score`` (one-vs-rest for classes).

        Each label's AUC is the probability that a positive outranks a
        negative, tied pairs counting one half; NaN for a label with one
        class (which "weighted" counts 0 when it has no positive).

        Parameters
        ----------
        average : {None, "macro", "micro", "weighted"}, default "macro"
            As :meth:`average_precision`.
        multi_class : {"ovr"}, default "ovr"
            "ovo" (Hand & Till) raises :class:`~scored_pr.UnsupportedQuery`.

        Returns
        -------
        float or numpy.ndarray
            ``scored_pr.area_under_roc_curve(Y, S, average=average)`` of the
            rows (multi-class: ``multi_class="ovr"``); per-label values and
            "macro" bit for bit.
        """
        multi_class = check_choice(multi_class, "area_under_roc_curve", "multi_class", ("ovr", "ovo"))
        if multi_class == "ovo":
            raise unsupported(_ML_CLS, "area_under_roc_curve(multi_class='ovo')", "one-vs-one compares each pair "
                              "of classes on the rows of both, which needs every row's k scores together",
                              "use multi_class='ovr', or scored_pr.area_under_roc_curve on the rows")
        return self._averaged("area_under_roc_curve", "area_under_roc_curve", average)

    def summary(self) -> dict[str, Any]:
        """Per-label summaries and the averaged measures, shaped as ``MultiLabelEvaluation.summary()``.

        Keys: ``num_rows``; ``labels``: {label: ``result[label].summary()``};
        ``average_precision`` and ``area_under_roc_curve``: {average: value}
        for "macro", "micro" and "weighted" (no "samples": see the class).
        """
        out: dict[str, Any] = {"num_rows": self.num_rows,
                               "labels": {label: ev.summary() for label, ev in zip(self._labels, self._per_label)}}
        for measure in ("average_precision", "area_under_roc_curve"):
            out[measure] = {mode: float(self._averaged(measure, measure, mode)) for mode in ("macro", "micro", "weighted")}
        return out

    def __repr__(self) -> str:
        kind = "multi-class" if self._multiclass else "multi-label"
        return f"{_ML_CLS}(engine={self._engine!r}, {kind}, labels={self._labels!r:.200}, num_rows={self._num_rows})"


def _label_value(ev: DistributedEvaluation, measure: str) -> float:
    if measure == "average_precision":
        return float(ev.average_precision()) if ev.positive_weight > 0 else 0.0  # scikit-learn: no positive, 0.0
    return float(ev.area_under_roc_curve())


def _refuse_multi(name: str) -> Callable[..., Any]:
    def method(self: DistributedMultiLabelEvaluation, *args: Any, **kwargs: Any) -> Any:
        raise unsupported(_ML_CLS, name, "a result computed in the cluster answers the averaged AP and ROC AUC "
                          "only", "ask a label's result (result[label]) or the pooled ranking's (result.pooled())")

    method.__name__ = method.__qualname__ = name
    method.__doc__ = "Not answered (raises :class:`~scored_pr.UnsupportedQuery`): ask ``result[label]`` or ``pooled()``."
    return method


# Every query but the averaged AP and ROC AUC and the summary is refused, built from the table
# (answers_from_table); what adds or saves refuses too.
answers_from_table(lambda q: _with_signature(_refuse_multi(q.name)))(DistributedMultiLabelEvaluation)
for _name in (*MUTATORS, *STATE):
    setattr(DistributedMultiLabelEvaluation, _name, _refuse_multi(_name))
del _name
