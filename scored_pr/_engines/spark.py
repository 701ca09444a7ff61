"""The Spark adapter: columns as SQL expressions, the checks and counts in the JVM, ranking in ``mapInArrow``.

The flows are ``driver.py``'s; the evaluator's rules as SQL expressions (what a
label is, which scores, weights and query ids are refused, a score's bucket)
are ``spark_sql.py``'s; the Python steps (ranking a bucket, a query's
sums, a bounded summary) are ``tasks.py``'s functions, run on the executors
over Arrow batches (:func:`_mapped`: one Python function per partition, its
results pickled back).
"""

from __future__ import annotations

import pickle
import sys
from typing import Any, Callable, Iterator, Sequence

import numpy as np
import numpy.typing as npt

from .._core import partitioned as K
from .._core import partitioned_calibration as C
from .._evaluators.bounded import BoundedEvaluation
from .._evaluators.distributed import query_partials
from .._validation import check_frame
from . import spark_sql as S
from . import tasks
from .backend import require as backend_require
from .backend import BucketArrays, Columns, Frame, Plans, Scan, Slicing, bucket_arrays

ENGINE = "spark"
#: Score samples per bucket for the bounds.
SAMPLES_PER_BUCKET = 64


def require() -> Any:
    """``pyspark.sql`` (with pyarrow), or ImportError saying which extra to install."""
    return backend_require(ENGINE, "pyspark and pyarrow", "pyarrow", "pyspark.sql")


def _is_spark_frame(sql: Any, df: Any) -> bool:
    """A classic or a Spark Connect DataFrame."""
    if isinstance(df, sql.DataFrame):
        return True
    # A Spark Connect DataFrame exists only once its module is imported: look it up rather than
    # import it (importing pyspark.sql.connect exits the process, SystemExit, when __main__ has no
    # file and Connect's dependencies are missing, as in a pytest-xdist worker).
    connect = sys.modules.get("pyspark.sql.connect.dataframe")
    return connect is not None and isinstance(df, connect.DataFrame)


def _arrays(batches: Iterator[Any], names: Sequence[str]) -> dict[str, Any] | None:
    """The Arrow batches of one partition as one numpy array per column (None: no batch).

    The narrow columns hold no null (the checks refused them), so Arrow's types give numpy's: long as int64,
    double as float64, boolean as bool, binary as objects.
    """
    cols: dict[str, list[Any]] = {n: [] for n in names}
    for batch in batches:
        for n in names:
            cols[n].append(batch.column(n).to_numpy(zero_copy_only=False))
    return {n: np.concatenate(v) for n, v in cols.items()} if cols[names[0]] else None


def _payloads(values: list[Any]) -> Any:
    import pyarrow as pa

    return pa.RecordBatch.from_arrays([pa.array([pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL)
                                                 for v in values], pa.binary())], ["payload"])


def _mapped(df: Any, fn: Callable[[dict[str, Any]], list[Any]]) -> Any:
    """``fn`` of each non-empty partition's columns (:func:`_arrays`), run on the executors: a DataFrame of pickles."""
    names = list(df.columns)

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        a = _arrays(batches, names)
        if a is not None:
            yield _payloads(fn(a))

    return df.mapInArrow(run, "payload binary")


def _each(payloads: Any, fn: Callable[[Any], Any]) -> Any:
    """``fn`` of each value of a DataFrame of pickles, run on the executors: a DataFrame of pickles."""
    return _mapped(payloads, lambda a: [fn(pickle.loads(p)) for p in a["payload"]])


def _collect(payloads: Any) -> list[Any]:
    """The values of a DataFrame of pickles, on the driver."""
    return [pickle.loads(r[0]) for r in payloads.collect()]


def _flat(payloads: Any) -> list[Any]:
    """The lists of a DataFrame of pickled lists, one after the other, on the driver."""
    return [x for group in _collect(payloads) for x in group]


def _with_w(weighted: bool, *names: str) -> list[str]:
    return [*names, "w"] if weighted else list(names)


class SparkRanked:
    """Each partition's ranked buckets kept in the cluster (their envelopes hold a tenth of the rows); the driver
    gets each bucket's share without its envelope, then the envelopes' shares: ``tasks._Ranked``'s two rounds."""

    def __init__(self, ranked: Any, pl: Plans) -> None:
        from pyspark import StorageLevel

        self._plan = pl
        self._out = _mapped(ranked, lambda a: [tasks.rank_buckets(a["b"], a["s"], a["c"], a.get("w"), pl)]).persist(
            StorageLevel.MEMORY_AND_DISK)
        self.parts = _flat(_each(self._out, tasks.light))

    def shares(self, later: dict[int, float]) -> list[K.EnvelopeShare]:
        pl = self._plan  # not self: the closure goes to the executors
        return _flat(_each(self._out, lambda group: tasks.shares(group, later, pl)))

    def close(self) -> None:
        self._out.unpersist()


class SparkRows:
    """The rows of one ranking as a narrow DataFrame (``c``, ``s``[, ``w``, ``q``]); the checks in one job."""

    max_tasks: int | None = None

    def __init__(self, df: Any, cols: Columns) -> None:
        from pyspark.sql import functions as F

        fields, checks, aggs = S.row_checks(df, cols)
        found = [r.asDict() for r in df.groupBy(*cols.by).agg(*aggs).collect()]  # one row per cell of the features

        def add(name: str) -> int:
            return sum(int(r.get(name) or 0) for r in found)

        faults = {arg: (add(f"n_{arg}"), next((r[f"ex_{arg}"] for r in found if r[f"ex_{arg}"] is not None), None))
                  for arg in checks}
        faults["score_col"] = (faults["score_col"][0], S.number(faults["score_col"][1]))
        self._cells = [tuple(r[c] for c in cols.by) for r in found]  # as Spark has them: the join's keys
        self.scan = Scan(add("rows"), faults, add("zeros"), add("minus"), sum(float(r.get("total") or 0.0) for r in found),
                         add("not_one") > 0, self._cells, [bool(r.get("not_one")) for r in found])
        self.parallelism = int(df.sparkSession.sparkContext.defaultParallelism)
        self._by = [df.schema[c] for c in cols.by]
        self._narrow = df.select(*fields, *[F.col(c).alias(f"_f{i}") for i, c in enumerate(cols.by)])
        self._staged: Any = None

    def sample(self, rows: int, buckets: int) -> npt.NDArray[np.float64]:
        fraction = min(1.0, SAMPLES_PER_BUCKET * buckets / rows)
        sample = self._narrow.select("s").sample(False, fraction, seed=20260101).collect()
        return np.array([r[0] for r in sample], dtype=np.float64)

    def calibration(self, bin_counts: tuple[int, ...], weighted: bool,
                    thresholds: npt.NDArray[np.float64] | None = None) -> C.CalibrationSums:
        """Each partition's sums on the executors (``tasks.calibration_part``), added on the driver."""
        narrow = self._narrow.select("c", "s", *(["w"] if weighted else []))
        parts = _collect(_mapped(narrow, lambda a: [tasks.calibration_part(a, bin_counts, weighted, thresholds)]))
        return C.merge(parts, bin_counts, thresholds)

    def bucket_totals(
        self, bounds: npt.NDArray[np.float64], groups: int, weighted: bool, slicing: Slicing | None = None,
    ) -> list[BucketArrays]:
        from pyspark.sql import functions as F

        nb, key = int(bounds.size) + 1, S.bucket_expr(F.col("s"), bounds)
        staged = self._narrow
        if slicing is not None:  # each row once per crossing, keyed by its slice there
            staged = self._keyed(slicing)
            key = F.col("k") * nb + key
        self._staged = staged.withColumn("b", key)
        sums = [F.count(F.lit(1)), F.sum(F.col("c").cast("long"))]
        if weighted:
            sums += [F.sum(F.when(F.col("c"), F.col("w")).otherwise(0.0)),
                     F.sum(F.when(F.col("c"), 0.0).otherwise(F.col("w")))]
        return [bucket_arrays(nb * (1 if slicing is None else slicing[1]), self._staged.groupBy("b").agg(*sums).collect())]

    def rank(self, bounds: npt.NDArray[np.float64], plan: Plans, groups: int) -> SparkRanked:
        return SparkRanked(self._staged.select(*_with_w(plan.weighted, "b", "s", "c")).repartition(groups, "b"), plan)

    def query_parts(self, ks: tuple[int, ...], groups: int | None, weighted: bool) -> list[dict[str, Any]]:
        narrow = self._narrow.select(*_with_w(weighted, "q", "c", "s"))
        shuffled = narrow.repartition(groups, "q") if groups else narrow.repartition("q")
        return _collect(_mapped(shuffled, lambda a: [query_partials(a["q"], a["c"], a["s"], a.get("w"), ks)]))

    def summary(self, max_bins: int, weighted: bool) -> BoundedEvaluation:
        narrow = self._narrow.select(*_with_w(weighted, "c", "s"))
        rdd = _mapped(narrow, lambda a: [tasks.summarise(a, max_bins, weighted)]).rdd.map(lambda r: pickle.loads(r[0]))
        return BoundedEvaluation(max_bins=max_bins) if rdd.isEmpty() else rdd.treeReduce(tasks.add, depth=3)

    def slice_summaries(self, max_bins: int, weighted: bool, slicing: Slicing) -> list[BoundedEvaluation]:
        n = slicing[1]
        keyed = self._keyed(slicing).select(*_with_w(weighted, "k", "c", "s"))
        rdd = _mapped(keyed, lambda a: [tasks.summarise_slices(
            a["k"], a["c"], a["s"], a.get("w"), max_bins, weighted, n)]).rdd.map(lambda r: pickle.loads(r[0]))
        return [BoundedEvaluation(max_bins=max_bins) for _ in range(n)] if rdd.isEmpty() else rdd.treeReduce(
            tasks.add_each, depth=3)

    def _keyed(self, slicing: Slicing) -> Any:
        """The rows with ``k``, each row once per crossing keyed by its slice there: a broadcast join of the cells."""
        from pyspark.sql import functions as F
        from pyspark.sql import types as T

        staged = self._narrow
        schema = T.StructType([T.StructField(f"_g{i}", f.dataType) for i, f in enumerate(self._by)]
                              + [T.StructField("_ks", T.ArrayType(T.LongType()))])
        cells = staged.sparkSession.createDataFrame(
            [(*cell, ids) for cell, ids in zip(self._cells, slicing[0].tolist())], schema)
        on = [staged[f"_f{i}"].eqNullSafe(cells[f"_g{i}"]) for i in range(len(self._by))]
        return staged.join(F.broadcast(cells), on, "inner").withColumn("k", F.explode("_ks"))


class SparkFrame:
    """A Spark DataFrame as the driver's ``backend.Frame``."""

    engine = ENGINE

    def __init__(self, df: Any) -> None:
        self._df = df

    @classmethod
    def of(cls, func: str, df: Any) -> Frame:
        """The frame of ``df``; TypeError naming argument ``df`` when it is no Spark DataFrame."""
        check_frame(df, _is_spark_frame(require(), df), func, "df", "a pyspark.sql.DataFrame")
        return cls(df)

    def columns(self) -> list[str]:
        return list(self._df.columns)

    def kind(self, column: str) -> tuple[str, str]:
        from pyspark.sql import types as T

        dtype = self._df.schema[column].dataType
        kind = ("b" if isinstance(dtype, T.BooleanType) else "i" if isinstance(dtype, T.IntegralType)
                else "f" if isinstance(dtype, T.NumericType) else "U" if isinstance(dtype, T.StringType) else "?")
        return kind, dtype.simpleString()

    def rows(self, func: str, cols: Columns) -> SparkRows:
        return SparkRows(self._df, cols)

    def not_a_class(self, column: str, classes: list[Any]) -> tuple[int, Any]:
        from pyspark.sql import functions as F

        bad = F.coalesce(~F.col(column).isin(*classes), F.lit(True))
        n, example = self._df.agg(S.count(bad), S.first(bad, F.col(column))).collect()[0]
        return int(n or 0), example

    def pooled(self, pairs: Sequence[tuple[str, str, Any]], weight: str | None) -> Frame:
        """The k (class, score[, weight]) pairs of each row exploded into k rows in the cluster."""
        from pyspark.sql import functions as F

        structs = [F.struct(S.label_expr(self._df, lc, pos)[0].alias("c"), F.col(sc).cast("double").alias("s"),
                            *([] if weight is None else [F.col(weight).cast("double").alias("w")]))
                   for lc, sc, pos in pairs]
        return SparkFrame(self._df.select(F.explode(F.array(*structs)).alias("p")).select("p.*"))
