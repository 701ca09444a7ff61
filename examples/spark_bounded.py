"""Evaluate a Spark DataFrame where its rows live: exact measures, and a bounded summary.

scored_pr.spark.evaluate ranks the rows bucket by bucket on the executors
(the driver receives a few numbers per bucket, never the rows) and returns
every measure of ScoredPrecisionRecallEvaluation(ties="grouped") fed the same
rows; mode="bounded" merges one BoundedEvaluation per partition on the
executors instead and returns certified bounds. The rows are generated in the
cluster (spark.range + rand), as a table would be read there.

Runs Spark in local mode (local[2]); on a cluster, build the SparkSession for
it (spark-submit --master ...) and nothing else changes. Needs the spark
extra and a Java runtime (17 or later for pyspark 4): pip install '.[spark]'
in a checkout of scored_pr.
"""

from __future__ import annotations

import os
import sys

ROWS = 400_000


def main() -> None:
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    from scored_pr.spark import evaluate

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # executors run this interpreter
    spark = (
        SparkSession.builder.master("local[2]").appName("scored_pr on Spark")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4").getOrCreate()
    )  # fmt: skip
    spark.sparkContext.setLogLevel("ERROR")
    try:
        df = spark.range(ROWS, numPartitions=4).select((F.rand(1) < 0.3).alias("label"))
        df = df.select("label", F.round(F.randn(2) + 1.2 * F.col("label").cast("double"), 3).alias("score")).cache()
        exact = evaluate(df, "label", "score", misses=100)  # a DistributedEvaluation
        bounded = evaluate(df, "label", "score", misses=100, mode="bounded", max_bins=4096)  # a BoundedEvaluation
    finally:
        spark.stop()

    print(f"{exact.num_cases:,} rows on local[2], {exact.num_misses} misses: every measure computed in the cluster")
    for name, value in exact.summary().items():
        print(f"  {name:34s} {value}")
    failures = 0
    for name in ("area_under_roc_curve", "average_precision", "maximum_f_measure"):
        value, bound = getattr(exact, name)(), getattr(bounded, name)()
        ok = bound.lower <= value <= bound.upper
        failures += not ok
        print(f"  bounded {name:22s} [{bound.lower:.6f}, {bound.upper:.6f}] holds {value:.6f}: {ok}")
    if failures:
        sys.exit("an exact value fell outside its certified interval")


if __name__ == "__main__":
    main()
