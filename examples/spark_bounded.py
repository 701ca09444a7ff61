"""Bounded-memory evaluation on Apache Spark: mapPartitions + treeReduce of summaries.

Each partition builds a BoundedEvaluation of its own cases where they live
(mapPartitions); summaries of a few kilobytes are merged pairwise on the
executors (treeReduce) and only the final one reaches the driver. The script
compares the certified intervals with the exact values of a single evaluator.

Runs Spark in local mode (local[2]); on a cluster, build the SparkSession for
it (spark-submit --master ...) and nothing else changes. Needs pyspark and a
Java runtime (17 or later for pyspark 4): pip install pyspark.
"""

from __future__ import annotations

import os
import pickle
import sys
from typing import Iterator

import numpy as np

from scored_pr import BoundedEvaluation, ScoredPrecisionRecallEvaluation

CASES = 2_000_000
PARTITIONS = 8


def load_partition(i: int) -> tuple[np.ndarray, np.ndarray]:
    """Stand-in for one partition of predictions: 30% positive, binormal scores."""
    rng = np.random.default_rng(2000 + i)
    n = CASES // PARTITIONS
    labels = rng.random(n) < 0.3
    return labels, rng.normal(size=n) + 1.2 * labels


def summarise(partition_ids: Iterator[int]) -> Iterator[BoundedEvaluation]:
    summary = BoundedEvaluation(max_bins=4096)
    for i in partition_ids:
        summary.add_cases(*load_partition(i))
    yield summary


def main() -> None:
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # executors run this interpreter
    spark = (
        SparkSession.builder.master("local[2]").appName("scored_pr bounded")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "2").getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        rdd = spark.sparkContext.parallelize(range(PARTITIONS), PARTITIONS)
        summaries = rdd.mapPartitions(summarise)
        sizes = summaries.map(lambda s: len(pickle.dumps(s))).collect()  # measured on the executors
        total = summaries.treeReduce(lambda a, b: a + b, depth=3)
    finally:
        spark.stop()

    exact = ScoredPrecisionRecallEvaluation()
    for i in range(PARTITIONS):
        exact.add_cases(*load_partition(i))
    print(f"{PARTITIONS} partitions, {total.num_cases:,} cases; {np.mean(sizes) / 1e3:.1f} KB per partition "
          f"sent to the reduce, {total.num_bins} bins in the result")
    failures = 0
    for name, value, bound in (
        ("area_under_roc_curve", exact.area_under_roc_curve(), total.area_under_roc_curve()),
        ("average_precision", exact.average_precision(), total.average_precision()),
        ("maximum_f_measure", exact.maximum_f_measure(), total.maximum_f_measure()),
    ):
        ok = bound.lower <= value <= bound.upper
        failures += not ok
        print(f"  {name:22s} exact {value:.6f} in [{bound.lower:.6f}, {bound.upper:.6f}]: {ok}")
    if failures:
        sys.exit("an exact value fell outside its certified interval")


if __name__ == "__main__":
    main()
