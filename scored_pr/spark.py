"""Exact (or bounded) evaluation of a Spark DataFrame where its rows live.

>>> from scored_pr.spark import evaluate              # doctest: +SKIP
>>> result = evaluate(df, "label", "score")           # doctest: +SKIP
>>> result.average_precision(), result.summary()      # doctest: +SKIP

``mode="exact"``: the rows are split by score into buckets (a function of
the score, so tied rows share one), each bucket's counts are summed in the
JVM, the driver turns them into offsets (what ranks above each bucket), and
each bucket is ranked and measured on an executor (``mapInArrow``, pyarrow)
with those offsets; the driver adds the buckets' shares
(``scored_pr._core.partitioned``). What reaches the driver grows with the
number of buckets, the ranks asked for and ``curve_points``, never with the
rows. The result, a :class:`scored_pr.DistributedEvaluation`, equals
``ScoredPrecisionRecallEvaluation(ties="grouped")`` fed the same rows.

``mode="bounded"``: one :class:`scored_pr.BoundedEvaluation` per partition,
merged pairwise on the executors (``treeReduce``); certified bounds.

Needs the ``spark`` extra (pyspark, pyarrow): ``pip install 'scored-pr[spark]'`` (in a checkout
of scored_pr: ``pip install '.[spark]'``).
"""

from __future__ import annotations

from typing import Any

from ._engines.driver import run
from ._engines.spark import SparkFrame

__all__ = ["evaluate"]

_FUNC = "scored_pr.spark.evaluate"


def evaluate(
    df: Any, label_col: str | None = None, score_col: str | None = None, *, weight_col: str | None = None,
    pos_label: Any = None, misses: int = 0, mode: str = "exact", max_bins: int = 4096, curve_points: int = 1000,
    ranks: tuple[int, ...] = (), partitions: int | None = None, query_col: str | None = None,
    label_cols: list[str] | None = None, score_cols: list[str] | None = None, classes: list[Any] | None = None,
    by: str | list[str] | None = None, slices: Any = None, max_slices: int = 10_000,
    calibration_bins: tuple[int, ...] = (), costs: tuple[tuple[float, float, float, float], ...] = (),
    operating_points: tuple[tuple[str, dict[str, float]], ...] = (), thresholds: tuple[float, ...] | str = (),
) -> Any:
    """Evaluate the rows of a Spark DataFrame in the cluster.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        One row per case.
    label_col, score_col : str, default "label" and "score"
        The label column (boolean; 1 vs 0/-1; or any value with ``pos_label``)
        and the score column (numeric, no null or NaN). With ``score_cols``,
        ``label_col`` is the class column of a multi-class evaluation.
    weight_col : str, optional
        Sample weights (numeric, finite, >= 0). Rank-based measures are then
        NaN in ``summary()`` unless every weight is 1, as for the evaluator.
    pos_label : str, number or bool, optional
        The positive class's label; every other label is negative.
    misses : int, default 0
        Relevant items the system never returned (``add_misses``).
    mode : {"exact", "bounded"}
        ``"exact"``: a :class:`scored_pr.DistributedEvaluation`. ``"bounded"``: a
        :class:`scored_pr.BoundedEvaluation` of ``max_bins`` bins (certified bounds).
    max_bins : int, default 4096
        The bounded summary's size.
    curve_points : int, default 1000
        The exact mode's curves keep at most this many recall steps (each row a
        row of the exact curve).
    ranks : tuple of int
        Ranks k for ``precision_at(k)`` and the other ``*_at(k)`` queries,
        besides 5, 10, 25, 100, 500 and R.
    partitions : int, optional
        Partitions of the ranking step (default: one per 2,000,000 rows, at
        least the default parallelism).
    query_col : str, optional
        A query id per row: every query is ranked on its own and the result
        is a :class:`scored_pr.DistributedQueryEvaluation` of the means over
        queries (MAP, MRR, mean R-precision, mean P@k), equal to
        :class:`scored_pr.MultiQueryEvaluation` fed the same rows (a query's
        rows are evaluated in one task). ``misses`` must then be 0.
    score_cols : list of str, optional
        One score column per label: the result is a
        :class:`scored_pr.DistributedMultiLabelEvaluation` (per-label and
        macro / weighted / micro averaged AP and ROC AUC, as
        :func:`scored_pr.average_precision`). With ``label_col``
        (multi-class), the column holding each row's class; each class's
        ranking is its score column with the rows of that class positive
        (one-vs-rest). With ``label_cols`` (multi-label), an indicator column
        per label, paired with ``score_cols`` by position.
    label_cols : list of str, optional
        Multi-label: the indicator columns (boolean; 1 vs 0/-1; or
        ``pos_label``), one per score column.
    classes : list, optional
        Multi-class: the class of each score column (default: the score
        columns' names), e.g. ``classes=[0, 1, 2]`` for integer classes.
        Every row's class must be one of them.
    by : str or list of str, optional
        Feature columns to slice by (boolean, numeric or string): the result
        is a :class:`scored_pr.DistributedSlicedEvaluation`, one exact
        evaluation per slice computed in the same pass (the slice is part of
        each bucket's key), answering ``slice(region="eu")``, ``slices()``,
        ``table()`` and ``summary()`` as :class:`scored_pr.SlicedEvaluation`
        does. A null or NaN value is its own slice, ``(missing)``. With
        ``mode="bounded"``: a ``SlicedEvaluation(kind="bounded")`` of the
        slices' merged summaries. Without ``query_col``, ``misses`` or wide columns.
    slices : sequence of tuples of column names, optional
        The crossings kept, as ``SlicedEvaluation(slices=)``: default the
        overall slice and each ``by`` column alone.
    max_slices : int, default 10_000
        The most slices (the overall one not counted); one more is refused
        with ValueError naming it, before any ranking job.
    calibration_bins : tuple of int
        Uniform bin counts for ``expected_calibration_error(n_bins)`` and
        ``calibration_curve(n_bins)``, besides 5, 10 and 15 (each partition
        sums its rows per bin; scores in [0, 1]).
    costs : tuple of (cost_fp, cost_fn, gain_tp, gain_tn)
        Costs for ``min_cost_threshold(...)``, besides its defaults (1, 1, 0, 0):
        each bucket of the ranking chooses its least-cost candidate.
    operating_points : tuple of (maximize, subject_to)
        Requests for ``operating_point(maximize, subject_to)`` (point
        estimates), besides its default ("recall", no constraint).
    thresholds : tuple of float, or "all"
        Cut-offs for ``expected_cost(t)`` and ``net_benefit(thresholds)``: the
        positive and negative weight scored >= each, summed per partition.
        ``"all"``: every bucket of the ranking also returns its candidates
        (each distinct score with its counts: memory on the driver grows
        with the distinct scores, 24 bytes each, not with the rows), and the
        result answers every decision query as the evaluator does: any
        ``operating_point`` or ``min_cost_threshold`` request,
        ``confidence=`` with constraints monotone in the threshold,
        ``net_benefit()`` at every distinct score, ``expected_cost`` at any
        threshold, the cost curve.

    Returns
    -------
    DistributedEvaluation, BoundedEvaluation, DistributedQueryEvaluation, DistributedMultiLabelEvaluation or
    DistributedSlicedEvaluation

    Raises
    ------
    ValueError
        A column the DataFrame does not have (naming the argument), rows with
        a null or NaN score, a label that is neither class, a weight that is
        null, NaN, infinite or negative (with their count and an example).
    TypeError
        A column of the wrong type.
    ImportError
        Without pyspark and pyarrow (the ``spark`` extra).

    Notes
    -----
    Exact mode runs five Spark jobs: the counts and checks, the calibration
    sums of each partition, a sample of the scores (the buckets' bounds), each
    bucket's counts, and one shuffle of
    (bucket, score, label[, weight]) to rank each bucket in one task. The
    driver holds O(buckets + ranks + curve_points) values.
    """
    return run(SparkFrame.of(_FUNC, df), _FUNC, label_col, score_col, weight_col=weight_col, pos_label=pos_label,
               misses=misses, mode=mode, max_bins=max_bins, curve_points=curve_points, ranks=ranks,
               partitions=partitions, query_col=query_col, label_cols=label_cols, score_cols=score_cols,
               classes=classes, by=by, slices=slices, max_slices=max_slices, calibration_bins=calibration_bins,
               costs=costs, operating_points=operating_points, thresholds=thresholds)
