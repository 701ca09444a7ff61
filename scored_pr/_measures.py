"""The table of scalar measures: every count and measure declared once.

Each :class:`Measure` says what a name means (the evaluator query and its
fixed arguments) and where it appears: the key of ``summary()`` and of
:func:`scored_pr.testing.metric_value`, the line of the text report, the short
field of a streaming summary line, the bounded summary, which confidence
interval methods apply, how a multi-query evaluation totals or means it over
its queries and which averages over labels a multi-label evaluation reports.
``summary()`` of every evaluator kind (multi-query and multi-label included),
:mod:`scored_pr.testing`, :mod:`scored_pr.streaming`, the interval code
(``confidence_interval`` / ``compare``), the text and table reports and the
command line all read :data:`MEASURES`; a measure added here reaches all of
them (``tests/structure/test_measures.py`` holds that).

The table sits above the pure-numpy kernel (which never imports it) and below
the evaluators; it imports nothing else from scored_pr.

The definitions (formula, tie handling, the value on empty and one-class
input, the LingPipe name) are in each query's docstring on
:class:`~scored_pr.ScoredPrecisionRecallEvaluation`; ``Measure.method`` names it.

Examples
--------
>>> from scored_pr import ScoredPrecisionRecallEvaluation
>>> ev = ScoredPrecisionRecallEvaluation()
>>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1])
>>> m = by_name("area_under_roc_curve_interpolated")
>>> m.method, m.kwargs, m.label, m.intervals
('area_under_roc_curve', {'interpolate': True}, 'Area Under ROC Curve (interpolated)', ('bootstrap', 'bca'))
>>> m.compute(ev) == ev.summary()["area_under_roc_curve_interpolated"]
True
>>> by_name("precision_at_<k>").keys()
('precision_at_5', 'precision_at_10', 'precision_at_25', 'precision_at_100', 'precision_at_500')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "BEP_LABEL", "DEFAULT_INTERVAL_MEASURE", "INTERVAL_METHODS", "LINE_RANKS", "MEASURES", "Measure",
    "REPORT_LINES", "REPORT_RANKS", "by_name", "comparable_measures", "headline", "interval_queries", "query",
]  # fmt: skip

#: The precision-at ranks of every output: summary(), the text report (which
#: prints those not beyond the number of cases), JSON and table.
REPORT_RANKS = (5, 10, 25, 100, 500)

#: The precision-at ranks a streaming summary line shows (``P@10``).
LINE_RANKS = (10,)

#: Every confidence interval method (``confidence_interval(method=...)``).
INTERVAL_METHODS = ("delong", "bootstrap", "bca", "logit")

#: ``confidence_interval`` and ``compare``'s default measure; it comes first
#: wherever measures with an interval are listed (error messages, ``--ci``).
DEFAULT_INTERVAL_MEASURE = "area_under_roc_curve"

#: The report's label for the break-even point. It is R-precision by
#: definition (precision = recall = TP / R at rank R = num_positive_ref, for
#: both tie policies), so the report prints the number once and says so.
BEP_LABEL = "BEP (Precision-Recall break even point; always equals R-Precision)"

_RESAMPLED = ("bootstrap", "bca")


@dataclass(frozen=True)
class Measure:
    """One scalar of an evaluator: what it is called, how it is computed, where it is shown.

    Attributes
    ----------
    name : str
        The key in ``summary()`` and ``metric_value``; for ``kind="per_rank"``
        the pattern ``<prefix><k>`` written ``precision_at_<k>``; for
        ``kind="query"`` the query's name.
    method : str
        The evaluator attribute: a property for a count, else a query method.
    args : tuple of (str, value) pairs
        Fixed keyword arguments of ``method`` (``interpolate=True``). The
        uninterpolated areas take none (the query's default), so the entry
        also calls a :class:`~scored_pr.BoundedEvaluation`, whose areas have
        no ``interpolate`` argument.
    kind : {"count", "measure", "per_rank", "query"}
        A count (an int property, exact, no interval); a measure (one float,
        no free argument); a measure at every rank k (``precision_at(k)``:
        the summary holds it at :data:`REPORT_RANKS`); a query that needs an
        argument from the user (``recall_at(k)``; only ``confidence_interval``
        takes it by name).
    label : str or None
        The text report's label (LingPipe's ``toString()`` wording); a
        ``{k}`` in it is the rank.
    rank_based : bool
        Counts cases, not weight: NaN in ``summary()`` when the evaluator has
        sample weights, and left out of the weighted text report.
    intervals : tuple of str
        The ``confidence_interval`` methods that apply, the default first
        (without measure arguments). Empty for counts (exact, no interval).
    summary : bool
        Whether ``summary()`` of the exact (and windowed) evaluator has it.
    bounded : bool
        Whether ``BoundedEvaluation.summary()`` has it: a count as an int, a
        measure as :class:`~scored_pr.Bounds` (the estimate under ``name``
        plus ``<name>_lower`` and ``<name>_upper``).
    higher_is_better : bool or None
        For a model comparison: True when a larger value is a better
        ranking, False when smaller is better, None for counts.
    short : str or None
        The field's name in a streaming summary line (``AP``); ``{k}`` is the
        rank, shown at :data:`LINE_RANKS`.
    resampled : str or None
        The vectorised bootstrap statistic of :mod:`scored_pr._core.stats`
        (``"roc_auc"``, ``"average_precision"``): such a measure has a fast
        interval, so ``report --ci`` shows it and ``compare`` accepts it.
    equals : str or None
        The name of a measure equal to this one by definition: tables show
        the number once (``pr_breakeven_point (= r_precision)``) and the text
        report does not repeat it.
    over_queries : {None, "sum", "mean", "cutoff_mean"}
        How :meth:`MultiQueryEvaluation.summary() <scored_pr.MultiQueryEvaluation.summary>`
        reports it over the queries. None: not at all. ``"sum"`` (counts):
        the total over the queries, under ``name``. ``"mean"``: the mean of
        each query's value, under ``mean_<key>``; a query with no positive
        reference counts 0 (trec_eval's convention, ``no_relevant="zero"``),
        and the mean is NaN when a query holds weighted cases and the
        measure is rank-based, or with no query. ``"cutoff_mean"`` (per-rank
        measures): trec_eval's mean at a cut-off, ranks beyond a query's
        returned cases counting as not relevant (never NaN for a query;
        ``mean_precision_at``).
    over_labels : tuple of str
        The averages over labels :meth:`MultiLabelEvaluation.summary()
        <scored_pr.MultiLabelEvaluation.summary>` reports under ``name`` as
        ``{average: value}``, in this order (empty: not averaged; only
        ``kind="measure"`` entries). ``"macro"``: the mean of the labels'
        values; ``"weighted"``: weighted by each label's positive weight;
        ``"micro"``: the value of the pooled ranking of every (row, label)
        pair; ``"samples"``: each row's value over its labels, averaged
        over the rows (not for the bounded kind, which keeps no row). A
        measure the multi-label evaluator computes itself (a method of that
        name taking ``average``, without fixed arguments:
        ``average_precision``, ``area_under_roc_curve``) follows
        scikit-learn's ``average_precision_score`` / ``roc_auc_score``
        (a label without a positive: AP 0.0); any other is averaged from
        the labels' evaluators ``ev[label]`` and ``pooled()``, and has no
        ``"samples"`` average.
    wide_key : str or None
        The key of its per-label column and of its averages in ``scored-pr
        report``'s wide-file report, when it differs from ``name``
        (``roc_auc``, the name that report has always used).
    headline : str or None
        Its label among the headline measures of the HTML report (``ROC AUC``),
        or None when the page does not show it there; :data:`HEADLINE` lists them.
    headline_order : int
        Its place among the headline measures (smaller first; ties keep the
        table's order).
    applies : {"always", "probabilities"}
        Which evaluators have it. ``"always"``: every evaluator. ``"probabilities"``
        (the calibration measures): only an evaluator that holds at least one
        scored case and whose every score lies in [0, 1] (its
        ``scores_are_probabilities()`` is true); for any other (logits, no
        scored case, a kind without calibration queries) the measure is
        absent from ``summary()``, the text report and every output read
        from it, never NaN. Asked for by name (``metric_value``,
        ``assert_metrics``) on scores outside [0, 1], the query raises a
        ValueError naming the score. Such a measure has no interval
        (``intervals=()``), is not meaned over queries nor averaged over
        labels (a multi-label evaluation's calibration is its own
        ``expected_calibration_error(average=...)``; each label's summary
        carries it). The bounded summary has it (``bounded=True``) as an
        exact value: its calibration sums give the evaluator's number.
    """

    name: str
    method: str
    args: tuple[tuple[str, Any], ...] = ()
    kind: Literal["count", "measure", "per_rank", "query"] = "measure"
    label: str | None = None
    rank_based: bool = False
    intervals: tuple[str, ...] = _RESAMPLED
    summary: bool = True
    bounded: bool = False
    higher_is_better: bool | None = True
    short: str | None = None
    resampled: str | None = None
    equals: str | None = None
    over_queries: Literal["sum", "mean", "cutoff_mean"] | None = None
    over_labels: tuple[str, ...] = ()
    wide_key: str | None = None
    headline: str | None = None
    headline_order: int = 0
    applies: Literal["always", "probabilities"] = "always"

    def applies_to(self, ev: Any) -> bool:
        """Whether evaluator ``ev`` has this measure (see ``applies``): O(1) on a sorted evaluator."""
        if self.applies == "always":
            return True
        check = getattr(ev, "scores_are_probabilities", None)
        return callable(check) and bool(check())

    @property
    def kwargs(self) -> dict[str, Any]:
        """The fixed arguments as a dict (a fresh one each time)."""
        return dict(self.args)

    def key(self, k: int) -> str:
        """The summary key at rank ``k`` of a ``per_rank`` measure (``precision_at_10``)."""
        return self.name.replace("<k>", str(k))

    def keys(self) -> tuple[str, ...]:
        """The summary keys of this measure: its name, or one per rank of :data:`REPORT_RANKS`."""
        if self.kind == "per_rank":
            return tuple(self.key(k) for k in REPORT_RANKS)
        return (self.name,)

    def compute(self, ev: Any, **extra: Any) -> Any:
        """The value on evaluator ``ev``: the count, or ``method(**args, **extra)``.

        ``extra`` is the free argument of a ``per_rank`` (``k=``) or ``query``
        measure.
        """
        attr = getattr(ev, self.method)
        if self.kind == "count":
            return attr
        return attr(**self.args_with(extra))

    def args_with(self, extra: dict[str, Any]) -> dict[str, Any]:
        """The fixed arguments plus ``extra`` (the rank of a per-rank measure...)."""
        return {**dict(self.args), **extra}

    def query_keys(self) -> tuple[str, ...]:
        """The keys of ``MultiQueryEvaluation.summary()`` for this entry (``mean_precision_at_10``...); none when not meaned."""
        if self.over_queries is None:
            return ()
        if self.over_queries == "sum":
            return (self.name,)
        return tuple("mean_" + key for key in self.keys())

    @property
    def column(self) -> str:
        """The key of the entry in the wide-file report (``wide_key``, else ``name``)."""
        return self.wide_key or self.name


def _count(name: str, *, summary: bool = True, short: str | None = None, over_queries: bool = True) -> Measure:
    return Measure(
        name, name, kind="count", intervals=(), summary=summary, bounded=summary, higher_is_better=None, short=short,
        over_queries="sum" if over_queries else None,
    )


#: The averages over labels of the measures a MultiLabelEvaluation computes itself.
_LABEL_AVERAGES = ("macro", "micro", "weighted", "samples")


#: Every count and scalar measure, in the order of ``summary()``.
MEASURES: tuple[Measure, ...] = (
    _count("num_cases", short="cases"),
    _count("num_positive_ref", short="pos"),
    _count("num_negative_ref", over_queries=False),
    _count("num_misses"),
    _count("num_negative_misses", summary=False, over_queries=False),
    Measure("average_precision", "average_precision", label="Average Precision", bounded=True, short="AP",
            intervals=("bootstrap", "bca", "logit"), resampled="average_precision", over_queries="mean",
            over_labels=_LABEL_AVERAGES, headline="Average precision", headline_order=0),
    Measure("area_under_pr_curve", "area_under_pr_curve", label="Area Under PR Curve (uninterpolated)",
            headline="PR AUC (step)", headline_order=2),
    Measure("area_under_pr_curve_interpolated", "area_under_pr_curve", (("interpolate", True),),
            label="Area Under PR Curve (interpolated)", headline="PR AUC (interpolated)", headline_order=3),
    Measure("area_under_roc_curve", "area_under_roc_curve",
            label="Area Under ROC Curve (uninterpolated)", bounded=True, short="AUC",
            intervals=("delong", "bootstrap", "bca"), resampled="roc_auc", over_labels=_LABEL_AVERAGES,
            wide_key="roc_auc", headline="ROC AUC", headline_order=1),
    Measure("area_under_roc_curve_interpolated", "area_under_roc_curve", (("interpolate", True),),
            label="Area Under ROC Curve (interpolated)", headline="ROC AUC (interpolated)", headline_order=4),
    Measure("maximum_f_measure", "maximum_f_measure", label="Maximum F(1) Measure", bounded=True, short="maxF1",
            headline="Maximum F1", headline_order=5),
    Measure("pr_breakeven_point", "pr_breakeven_point", label=BEP_LABEL, rank_based=True, short="BEP",
            headline="Break-even point", headline_order=6),
    Measure("reciprocal_rank", "reciprocal_rank", label="Reciprocal Rank", rank_based=True, over_queries="mean",
            headline="Reciprocal rank", headline_order=7),
    Measure("r_precision", "r_precision", label="R-Precision", rank_based=True, bounded=True,
            equals="pr_breakeven_point", over_queries="mean", headline="R-precision", headline_order=8),
    Measure("precision_at_<k>", "precision_at", kind="per_rank", label="Precision at {k}", rank_based=True,
            short="P@{k}", over_queries="cutoff_mean"),
    # queries with an argument from the user: confidence_interval(measure, **measure_args) only
    Measure("recall_at", "recall_at", kind="query", rank_based=True, summary=False),
    Measure("average_precision_at", "average_precision_at", kind="query", rank_based=True, summary=False),
    Measure("f_measure_at", "f_measure_at", kind="query", rank_based=True, summary=False),
    Measure("e_measure_at", "e_measure_at", kind="query", rank_based=True, summary=False, higher_is_better=False),
    Measure("precision_at_recall", "precision_at_recall", kind="query", rank_based=True, summary=False),
    Measure("k_at_recall", "k_at_recall", kind="query", rank_based=True, summary=False, higher_is_better=False),
    # calibration: only for probabilities (every score in [0, 1]); absent otherwise, no interval
    Measure("expected_calibration_error", "expected_calibration_error",
            label="Expected Calibration Error (15 uniform bins, l1)", intervals=(), higher_is_better=False,
            applies="probabilities", bounded=True, headline="Expected calibration error", headline_order=9),
    Measure("brier_score", "brier_score", label="Brier Score", intervals=(), higher_is_better=False,
            applies="probabilities", bounded=True, headline="Brier score", headline_order=10),
)  # fmt: skip

#: The measure lines of the text report, in LingPipe's ``toString()`` order
#: (the interpolated areas first; the rank-based lines last, left out with
#: sample weights). ``r_precision`` has no line: the BEP line is both.
REPORT_LINES = (
    "area_under_pr_curve_interpolated", "area_under_pr_curve", "area_under_roc_curve_interpolated",
    "area_under_roc_curve", "average_precision", "maximum_f_measure", "pr_breakeven_point", "reciprocal_rank",
    "precision_at_<k>", "expected_calibration_error", "brier_score",
)  # fmt: skip

_BY_NAME = {m.name: m for m in MEASURES}


def headline() -> tuple[tuple[str, str], ...]:
    """The headline measures of one ranking in the HTML report, in the order shown: (summary key, label).

    The entries of :data:`MEASURES` with a ``headline``, by ``headline_order``
    (ties in the table's order).
    """
    ranked = sorted(MEASURES, key=lambda m: m.headline_order)
    return tuple((m.name, m.headline) for m in ranked if m.headline is not None)


def by_name(name: str) -> Measure:
    """The table's entry called ``name`` (KeyError if there is none)."""
    return _BY_NAME[name]


def query(method: str) -> Measure:
    """The entry of query ``method`` called without measure arguments (the table's first with that method).

    ``confidence_interval(measure)`` names a query (``precision_at``); this is
    its entry: its ``intervals`` apply, the first is the default.
    """
    return _BY_METHOD[method]


_BY_METHOD: dict[str, Measure] = {}
for _m in MEASURES:
    _BY_METHOD.setdefault(_m.method, _m)
del _m


def _default_first(names: list[str]) -> tuple[str, ...]:
    names = list(dict.fromkeys(names))
    if DEFAULT_INTERVAL_MEASURE in names:
        names.remove(DEFAULT_INTERVAL_MEASURE)
        names.insert(0, DEFAULT_INTERVAL_MEASURE)
    return tuple(names)


def interval_queries() -> tuple[str, ...]:
    """The query names ``confidence_interval`` accepts: every method of a measure with an interval.

    The default measure first, then the table's order, each query once.
    """
    return _default_first([m.method for m in MEASURES if m.intervals])


def comparable_measures() -> tuple[str, ...]:
    """The measures with a vectorised interval (``compare``, ``report --ci``), the default first."""
    return _default_first([m.name for m in MEASURES if m.resampled is not None])
