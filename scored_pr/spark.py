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

import math
import pickle
import sys
from typing import Any, Iterator

import numpy as np
import numpy.typing as npt

from ._core import partitioned as K
from ._evaluators.bounded import BoundedEvaluation
from ._evaluators.distributed import (
    DistributedEvaluation, DistributedMultiLabelEvaluation, DistributedQueryEvaluation, query_partials,
)
from ._measures import REPORT_RANKS
from ._validation import (
    MAX_WEIGHT, MIN_WEIGHT, QUERIES_EXPECTED, SCORES_EXPECTED, WEIGHTS_EXPECTED, bad_rows, check_column_names,
    check_column_type, check_engine_options,
    check_frame, check_label_column, check_misses_count, check_pos_label, check_query_setup, check_weight_total,
    check_wide_columns, check_wide_setup, classes_not_found, mixed_negatives,
)

__all__ = ["evaluate"]

_FUNC = "scored_pr.spark.evaluate"
#: Rows a bucket holds on average (a bucket is ranked in one Python worker's memory: ~17 bytes a row).
_ROWS_PER_BUCKET = 500_000
#: Score samples per bucket for the bounds.
_SAMPLES_PER_BUCKET = 64


def _require() -> Any:
    try:
        import pyarrow  # noqa: F401
        import pyspark.sql
    except ImportError as e:  # pragma: no cover (the test extra has both)
        raise ImportError(
            f"scored_pr.spark needs pyspark and pyarrow ({e.name} is missing): pip install 'scored-pr[spark]' "
            "(in a checkout: pip install '.[spark]')"
        ) from e
    return pyspark.sql


def _is_spark_frame(sql: Any, df: Any) -> bool:
    """A classic or a Spark Connect DataFrame."""
    if isinstance(df, sql.DataFrame):
        return True
    # A Spark Connect DataFrame exists only once its module is imported: look it up rather than
    # import it (importing pyspark.sql.connect exits the process, SystemExit, when __main__ has no
    # file and Connect's dependencies are missing, as in a pytest-xdist worker).
    connect = sys.modules.get("pyspark.sql.connect.dataframe")
    return connect is not None and isinstance(df, connect.DataFrame)


def _label_expr(F: Any, T: Any, df: Any, label_col: str, pos_label: Any) -> tuple[Any, Any]:
    """(correct, bad) Spark expressions: the row's class, and whether its label is not a label."""
    col = F.col(label_col)
    dtype = df.schema[label_col].dataType
    is_str = isinstance(dtype, T.StringType)
    is_bool = isinstance(dtype, T.BooleanType)
    is_num = isinstance(dtype, T.NumericType)
    check_column_type(_FUNC, "label_col", label_col, dtype.simpleString(), "a boolean, numeric or string column",
                      is_str or is_bool or is_num)
    # the evaluator's type rule (a bool column takes True, False or a number, never a str pos_label)
    check_label_column(_FUNC, label_col, "b" if is_bool else "U" if is_str else "f", dtype.simpleString(), pos_label)
    if pos_label is None:
        if is_bool:
            return col, col.isNull()
        num = col.cast("double")
        bad = col.isNull() | F.isnan(num) | ~num.isin(1.0, 0.0, -1.0)
        return num == 1.0, bad
    if isinstance(pos_label, str):
        return col == F.lit(pos_label), col.isNull()
    if isinstance(dtype, T.IntegralType) and not isinstance(pos_label, (bool, float)) and -2**63 <= pos_label < 2**63:
        return col == F.lit(pos_label), col.isNull()  # long against long: exact beyond 2**53, as numpy compares
    num = col.cast("double")  # a bool as 1.0 or 0.0: pos_label=2 leaves no row positive, as in the evaluator
    return num == F.lit(float(pos_label)), col.isNull() | F.isnan(num)


def _number(text: Any) -> Any:
    """A score shown as its number when the text is an integer (a long refused as not exact), else as is."""
    try:
        return int(text)
    except (TypeError, ValueError):
        return text


def _bucket_expr(F: Any, score: Any, bounds: np.ndarray) -> Any:
    """A CASE tree (depth log2 of the buckets) giving each score's bucket: the bounds strictly above it."""

    def tree(lo: int, hi: int) -> Any:
        if lo == hi:
            return F.lit(lo)
        mid = (lo + hi) // 2  # bucket <= mid iff score >= bounds[mid]
        return F.when(score >= F.lit(float(bounds[mid])), tree(lo, mid)).otherwise(tree(mid + 1, hi))

    return tree(0, int(bounds.size))


def evaluate(
    df: Any, label_col: str | None = None, score_col: str | None = None, *, weight_col: str | None = None,
    pos_label: Any = None, misses: int = 0, mode: str = "exact", max_bins: int = 4096, curve_points: int = 1000,
    ranks: tuple[int, ...] = (), partitions: int | None = None, query_col: str | None = None,
    label_cols: list[str] | None = None, score_cols: list[str] | None = None, classes: list[Any] | None = None,
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

    Returns
    -------
    DistributedEvaluation, BoundedEvaluation, DistributedQueryEvaluation or DistributedMultiLabelEvaluation

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
    Exact mode runs four Spark jobs: the counts and checks, a sample of the
    scores (the buckets' bounds), each bucket's counts, and one shuffle of
    (bucket, score, label[, weight]) to rank each bucket in one task. The
    driver holds O(buckets + ranks + curve_points) values.
    """
    sql = _require()
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    check_frame(df, _is_spark_frame(sql, df), _FUNC, "df", "a pyspark.sql.DataFrame")
    mode, max_bins, curve_points, ranks, partitions = check_engine_options(
        _FUNC, mode, max_bins, curve_points, ranks, partitions)
    misses = check_misses_count(misses, _FUNC)
    pos_label = check_pos_label(pos_label, _FUNC)
    if score_cols is not None or label_cols is not None or classes is not None:
        labels, lcols, scols = check_wide_columns(
            _FUNC, df.columns, label_col=label_col, label_cols=label_cols, score_col=score_col, score_cols=score_cols,
            classes=classes, weight_col=weight_col, query_col=query_col)
        check_wide_setup(_FUNC, label_cols is None, misses, mode, pos_label)
        return _wide(df, labels, lcols, scols, label_cols is None, weight_col=weight_col, pos_label=pos_label,
                     curve_points=curve_points, ranks=ranks, partitions=partitions)
    label_col = "label" if label_col is None else label_col
    score_col = "score" if score_col is None else score_col
    check_column_names(_FUNC, df.columns, label_col=label_col, score_col=score_col, weight_col=weight_col,
                       query_col=query_col)
    check_query_setup(_FUNC, query_col, misses, mode)
    sdt = df.schema[score_col].dataType
    check_column_type(_FUNC, "score_col", score_col, sdt.simpleString(), "numeric", isinstance(sdt, T.NumericType))
    if weight_col is not None:
        wdt = df.schema[weight_col].dataType
        check_column_type(_FUNC, "weight_col", weight_col, wdt.simpleString(), "numeric",
                          isinstance(wdt, T.NumericType))
    correct, bad_label = _label_expr(F, T, df, label_col, pos_label)
    score = F.col(score_col).cast("double") + F.lit(0.0)  # -0.0 -> 0.0: one score, as in the evaluator
    bad_score = F.col(score_col).isNull() | F.isnan(F.col(score_col).cast("double"))
    if isinstance(sdt, T.LongType):  # beyond 2**53 a long may not be a float64: refused, not rounded into a tie
        as_double = F.col(score_col).cast("double")
        # floor() of a double below 2**63 is the long it equals (a cast back to long would be optimised away as
        # a round trip); 2**63 itself (the double of 2**63 - 1 and its neighbours) is no long: refused first
        bad_score = bad_score | F.when(as_double >= F.lit(2.0**63), F.lit(True)).otherwise(
            F.floor(as_double) != F.col(score_col))
    cols = [correct.alias("c"), score.alias("s")]
    aggs = [
        F.count(F.lit(1)).alias("rows"),
        F.sum(F.when(bad_label, 1).otherwise(0)).alias("bad_label"),
        F.first(F.when(bad_label, F.coalesce(F.col(label_col).cast("string"), F.lit("null"))), True).alias("ex_label"),
        F.sum(F.when(bad_score, 1).otherwise(0)).alias("bad_score"),
        F.first(F.when(bad_score, F.coalesce(F.col(score_col).cast("string"), F.lit("null"))), True).alias("ex_score"),
    ]
    if weight_col is not None:
        w = F.col(weight_col).cast("double")
        bad_w = (F.col(weight_col).isNull() | F.isnan(w) | (w < 0) | (F.abs(w) == float("inf"))
                 | ((w > 0) & ((w < MIN_WEIGHT) | (w > MAX_WEIGHT))))  # the evaluators' rule
        aggs += [
            F.sum(F.when(bad_w, 1).otherwise(0)).alias("bad_weight"),
            F.first(F.when(bad_w, F.coalesce(F.col(weight_col).cast("string"), F.lit("null"))), True).alias("ex_weight"),
            F.sum(F.when(w != 1.0, 1).otherwise(0)).alias("not_one"),
            F.sum(F.when(~bad_w, w)).alias("total_w"),  # a double sum: an overflow is Infinity
        ]
        cols.append(w.alias("w"))
    ldt = df.schema[label_col].dataType
    if pos_label is None and isinstance(ldt, T.NumericType):  # 0 and -1 together: the evaluator refuses the encoding
        num = F.col(label_col).cast("double")
        aggs += [F.sum(F.when(num == 0.0, 1).otherwise(0)).alias("zeros"),
                 F.sum(F.when(num == -1.0, 1).otherwise(0)).alias("minus")]
    if query_col is not None:
        cols.append(F.col(query_col).alias("q"))
        q = F.col(query_col)
        bad_q = q.isNull()
        if isinstance(df.schema[query_col].dataType, (T.FloatType, T.DoubleType)):
            bad_q = bad_q | F.isnan(q)
        aggs += [F.sum(F.when(bad_q, 1).otherwise(0)).alias("bad_query"),
                 F.first(F.when(bad_q, F.coalesce(q.cast("string"), F.lit("null"))), True).alias("ex_query")]
    head = df.agg(*aggs).collect()[0]
    if head["bad_label"]:
        expected = ("true/false, or 1 (positive) and 0 or -1 (negative): pass pos_label= for other labels"
                    if pos_label is None else "non-null labels")
        raise bad_rows(_FUNC, "label_col", label_col, expected, head["bad_label"], head["ex_label"])
    if head["bad_score"]:
        raise bad_rows(_FUNC, "score_col", score_col, SCORES_EXPECTED, head["bad_score"], _number(head["ex_score"]))
    if weight_col is not None and head["bad_weight"]:
        raise bad_rows(_FUNC, "weight_col", weight_col, WEIGHTS_EXPECTED, head["bad_weight"],
                       head["ex_weight"])
    if query_col is not None and head["bad_query"]:
        raise bad_rows(_FUNC, "query_col", query_col, QUERIES_EXPECTED, head["bad_query"], head["ex_query"])
    if "zeros" in head:
        mixed = mixed_negatives(_FUNC, label_col, int(head["zeros"] or 0), int(head["minus"] or 0))
        if mixed is not None:
            raise mixed
    if weight_col is not None:
        check_weight_total(_FUNC, weight_col, float(head["total_w"] or 0.0))
    weighted = weight_col is not None and bool(head["not_one"])
    rows = int(head["rows"])
    narrow = df.select(*cols)
    if query_col is not None:
        return _per_query(narrow, weight_col is not None, tuple(sorted({*REPORT_RANKS, *ranks})), partitions)
    if mode == "bounded":
        return _bounded(narrow, weighted, misses, max_bins, pos_label)
    spark = df.sparkSession
    if partitions is None:
        partitions = max(int(spark.sparkContext.defaultParallelism), math.ceil(rows / 2_000_000))
    buckets = max(1, min(4 * partitions, math.ceil(rows / _ROWS_PER_BUCKET) * 4 if rows else 1))
    bounds: npt.NDArray[np.float64] = np.zeros(0)
    if rows and buckets > 1:
        fraction = min(1.0, _SAMPLES_PER_BUCKET * buckets / rows)
        sample = narrow.select("s").sample(False, fraction, seed=20260101).collect()
        bounds = K.choose_bounds(np.array([r[0] for r in sample], dtype=np.float64), buckets)
    nb = int(bounds.size) + 1
    staged = narrow.withColumn("b", _bucket_expr(F, F.col("s"), bounds))
    sums = [F.count(F.lit(1)).alias("rows"), F.sum(F.col("c").cast("long")).alias("pos")]
    if weighted:
        sums += [F.sum(F.when(F.col("c"), F.col("w")).otherwise(0.0)).alias("wp"),
                 F.sum(F.when(F.col("c"), 0.0).otherwise(F.col("w"))).alias("wn")]
    totals = [K.BucketTotals(0, 0, 0.0 if weighted else None, 0.0 if weighted else None) for _ in range(nb)]
    for r in staged.groupBy("b").agg(*sums).collect():
        totals[int(r["b"])] = K.BucketTotals(
            int(r["rows"]), int(r["pos"] or 0), float(r["wp"] or 0.0) if weighted else None,
            float(r["wn"] or 0.0) if weighted else None)
    pl = K.plan(totals, misses, weighted=weighted, ranks=(*REPORT_RANKS, *ranks, rows), curve_points=curve_points)
    if not weighted:
        r_rank = min(pl.num_pos + misses, rows)
        pl = K.plan(totals, misses, weighted=False, ranks=(*pl.ranks, r_rank), curve_points=curve_points)
    keep = ["b", "s", "c"] + (["w"] if weighted else [])
    ranked = staged.select(*keep).repartition(min(partitions, nb), "b")
    from pyspark import StorageLevel

    # one row per bucket (its share, without the envelope) and its envelope's rows, kept in the cluster
    out = ranked.mapInArrow(_contributions(pl, weighted), _OUT_SCHEMA).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        parts = [pickle.loads(r["payload"]) for r in out.where("payload IS NOT NULL").select("payload").collect()]
        later = K.later_maxima(parts)
        envelopes = out.where("payload IS NULL").select("b", "tp", "fp", "score")
        shares = [pickle.loads(r[0]) for r in envelopes.mapInArrow(_envelope_shares(later, pl), "payload binary").collect()]
    finally:
        out.unpersist()
    return DistributedEvaluation(K.combine(pl, parts, shares), pos_label=pos_label, engine="spark")


def _wide(
    df: Any, labels: list[Any], label_cols: list[str], score_cols: list[str], multiclass: bool, *,
    weight_col: str | None, pos_label: Any, curve_points: int, ranks: tuple[int, ...], partitions: int | None,
) -> DistributedMultiLabelEvaluation:
    """k one-vs-rest (or indicator) rankings, each evaluated in the cluster, and the micro average's pooled ranking.

    The pooled ranking is the k (label, score[, weight]) pairs of each row
    exploded into k rows in the cluster: nothing about the rows reaches the
    driver.
    """
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    opts: dict[str, Any] = {"weight_col": weight_col, "curve_points": curve_points, "ranks": ranks,
                            "partitions": partitions}
    if multiclass:  # every row's class is one of the classes: else a row would be negative everywhere
        col = F.col(label_cols[0])
        dtype = df.schema[label_cols[0]].dataType
        textual = all(isinstance(c, str) for c in labels)
        ok = (isinstance(dtype, T.StringType) if textual else
              not any(isinstance(c, str) for c in labels) and isinstance(dtype, (T.NumericType, T.BooleanType)))
        check_column_type(_FUNC, "label_col", label_cols[0], dtype.simpleString(),
                          f"{'a string' if textual else 'a boolean or numeric'} column, as the classes {labels!r:.200} "
                          "are (name the class of each score column with classes=)", ok)
        bad = F.coalesce(~col.isin(*labels), F.lit(True))
        head = df.agg(F.sum(F.when(bad, 1).otherwise(0)).alias("n"),
                      F.first(F.when(bad, F.coalesce(col.cast("string"), F.lit("null"))), True).alias("ex")).collect()[0]
        if head["n"]:
            raise classes_not_found(_FUNC, label_cols[0], labels, int(head["n"]), head["ex"])
    per_label = [evaluate(df, lc, sc, pos_label=label if multiclass else pos_label, **opts)
                 for label, lc, sc in zip(labels, label_cols, score_cols)]
    pairs = []
    for label, lc, sc in zip(labels, label_cols, score_cols):
        correct, _ = _label_expr(F, T, df, lc, label if multiclass else pos_label)
        fields = [correct.alias("c"), F.col(sc).cast("double").alias("s")]
        if weight_col is not None:
            fields.append(F.col(weight_col).cast("double").alias("w"))
        pairs.append(F.struct(*fields))
    long = df.select(F.explode(F.array(*pairs)).alias("p")).select("p.*")
    pooled = evaluate(long, "c", "s", **{**opts, "weight_col": "w" if weight_col is not None else None})
    return DistributedMultiLabelEvaluation(labels, per_label, pooled, num_rows=per_label[0].num_cases,
                                           multiclass=multiclass, engine="spark")


def _contributions(pl: K.Plan, weighted: bool) -> Any:
    """The mapInArrow function: every bucket of one partition ranked and measured with its offsets."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        b, s, c, w = [], [], [], []
        for batch in batches:
            b.append(batch.column("b").to_numpy(zero_copy_only=False))
            s.append(batch.column("s").to_numpy(zero_copy_only=False))
            c.append(batch.column("c").to_numpy(zero_copy_only=False))
            if weighted:
                w.append(batch.column("w").to_numpy(zero_copy_only=False))
        if not b:
            return
        bb = np.concatenate(b).astype(np.int64)
        ss = np.concatenate(s).astype(np.float64)
        cc = np.concatenate(c).astype(bool)
        ww = np.concatenate(w).astype(np.float64) if weighted else None
        del b, s, c, w
        for bucket in np.unique(bb).tolist():
            m = bb == bucket
            part = K.bucket_contributions(bucket, -ss[m], cc[m], None if ww is None else ww[m], pl)
            env, part.envelope = part.envelope, part.envelope[:0]
            blob = pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL)
            n = env.shape[0]
            yield pa.RecordBatch.from_arrays([
                pa.array(np.full(n + 1, bucket, np.int64)),
                pa.array([blob] + [None] * n, pa.binary()),
                pa.array(np.concatenate(([0.0], env[:, 0]))), pa.array(np.concatenate(([0.0], env[:, 1]))),
                pa.array(np.concatenate(([0.0], env[:, 2]))),
            ], ["b", "payload", "tp", "fp", "score"])

    return run


_OUT_SCHEMA = "b long, payload binary, tp double, fp double, score double"


def _envelope_shares(later: dict[int, float], pl: K.Plan) -> Any:
    """The mapInArrow function of the second round: each bucket's envelope reduced to its share."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        cols: dict[str, list[Any]] = {"b": [], "tp": [], "fp": [], "score": []}
        for batch in batches:
            for name in cols:
                cols[name].append(batch.column(name).to_numpy(zero_copy_only=False))
        if not cols["b"]:
            return
        b = np.concatenate(cols["b"]).astype(np.int64)
        env = np.column_stack([np.concatenate(cols[n]).astype(np.float64) for n in ("tp", "fp", "score")])
        blobs = []
        for bucket in np.unique(b).tolist():  # a bucket's rows are in one partition, in rank order
            share = K.envelope_share(bucket, env[b == bucket], later[bucket], pl)
            blobs.append(pickle.dumps(share, protocol=pickle.HIGHEST_PROTOCOL))
        yield pa.RecordBatch.from_arrays([pa.array(blobs, pa.binary())], ["payload"])

    return run


def _per_query(narrow: Any, weighted: bool, ks: tuple[int, ...], partitions: int | None) -> Any:
    """Every query's rows in one task (a shuffle by query), evaluated there; the driver adds the sums."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        q, c, s, w = [], [], [], []
        for batch in batches:
            q.append(batch.column("q").to_numpy(zero_copy_only=False))
            c.append(batch.column("c").to_numpy(zero_copy_only=False))
            s.append(batch.column("s").to_numpy(zero_copy_only=False))
            if weighted:
                w.append(batch.column("w").to_numpy(zero_copy_only=False))
        if not q:
            return
        part = query_partials(np.concatenate(q), np.concatenate(c).astype(bool), np.concatenate(s).astype(np.float64),
                              np.concatenate(w).astype(np.float64) if weighted else None, ks)
        yield pa.RecordBatch.from_arrays([pa.array([pickle.dumps(part)], pa.binary())], ["payload"])

    keep = ["q", "c", "s"] + (["w"] if weighted else [])
    shuffled = narrow.select(*keep)
    shuffled = shuffled.repartition(partitions, "q") if partitions else shuffled.repartition("q")
    parts = [pickle.loads(r[0]) for r in shuffled.mapInArrow(run, "payload binary").collect()]
    return DistributedQueryEvaluation(parts, ks, engine="spark")


def _bounded(narrow: Any, weighted: bool, misses: int, max_bins: int, pos_label: Any) -> BoundedEvaluation:
    """One BoundedEvaluation per partition, merged pairwise on the executors."""

    def summarise(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        summary = BoundedEvaluation(max_bins=max_bins)
        for batch in batches:
            c = batch.column("c").to_numpy(zero_copy_only=False).astype(bool)
            s = batch.column("s").to_numpy(zero_copy_only=False).astype(np.float64)
            w = batch.column("w").to_numpy(zero_copy_only=False).astype(np.float64) if weighted else None
            summary.add_cases(c, s, w)
        yield pa.RecordBatch.from_arrays([pa.array([pickle.dumps(summary)], pa.binary())], ["payload"])

    cols = ["c", "s"] + (["w"] if weighted else [])
    rdd = narrow.select(*cols).mapInArrow(summarise, "payload binary").rdd.map(lambda r: pickle.loads(r[0]))
    if rdd.isEmpty():
        total = BoundedEvaluation(max_bins=max_bins)
    else:
        total = rdd.treeReduce(lambda a, b: a + b, depth=3)
    if misses:
        total.add_misses(misses)
    return total
