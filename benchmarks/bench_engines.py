"""scored_pr.spark.evaluate, scored_pr.dask.evaluate and scored_pr.ray.evaluate at scale: driver memory, time, and
Spark's binned areas.

(a) Driver memory: the peak growth of the driver Python process's resident
    set size (RSS) while ``evaluate`` runs, sampled every 10 ms by a thread
    (psutil), for N generated rows and for an empty DataFrame (what the
    machinery itself costs). The rows are generated in the cluster
    (``spark.range`` + ``rand``/``randn``; for Dask, each partition made on a
    worker by ``dd.from_map``; for Ray, each block made in a task by
    ``ray.data.range(...).map_batches``), never on the driver.
(b) Time on the same cached DataFrame: every exact measure of scored_pr
    (``evaluate(...).summary()``) against pyspark.ml's
    ``BinaryClassificationEvaluator`` computing its two areas (areaUnderROC and
    areaUnderPR: two ``evaluate`` calls) with numBins=1000 and numBins=0 (no
    down-sampling), and the error of its areaUnderPR against the exact AP.

(c) ``--by S``: the same rows with a feature ``region`` of S values (uniform), materialised
    in the cluster first; ``evaluate(df, by="region").table()`` (the overall slice and S
    slices: every row ranked twice) beside ``evaluate(df).summary()`` of the same DataFrame,
    in the same process, ``--reps`` runs each, the minimum reported, and their ratio.

Scores: binormal, ``randn() + 1.2 * label`` with 30% positives (distinct float64s).

Usage: python benchmarks/bench_engines.py [--rows 10000000 50000000] [--engines spark dask ray] [--out FILE.md]
       python benchmarks/bench_engines.py --rows 10000000 --by 100 --reps 3 --engines dask ray
"""

from __future__ import annotations

import argparse
import gc
import math
import logging
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)


class PeakRSS:
    """Peak RSS of this process above its RSS at start, sampled every 10 ms in a thread."""

    def __init__(self) -> None:
        self.proc = psutil.Process()
        self.peak = 0
        self._stop = threading.Event()

    def __enter__(self) -> "PeakRSS":
        gc.collect()
        self.base = self.proc.memory_info().rss
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.proc.memory_info().rss - self.base)
            time.sleep(0.01)

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self.thread.join()
        self.peak = max(self.peak, self.proc.memory_info().rss - self.base)


def timed(f: Callable[[], Any]) -> tuple[Any, float]:
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def spark_session() -> Any:
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[2]").appName("scored_pr bench")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "8g").config("spark.sql.shuffle.partitions", "8")
        .getOrCreate()
    )  # fmt: skip
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def spark_rows(spark: Any, n: int, slices: int = 0) -> Any:
    from pyspark.sql import functions as F

    parts = max(2, n // 2_000_000)
    df = spark.range(n, numPartitions=parts).select((F.rand(1) < 0.3).alias("label"))
    region = [(F.floor(F.rand(3) * slices).cast("long").alias("region"))] if slices else []
    df = df.select("label", (F.randn(2) + F.col("label").cast("double") * 1.2).alias("score"), *region)
    return df


def bench_spark(rows: list[int], out: list[str], bce_rows: int) -> None:
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import functions as F

    from scored_pr.spark import evaluate

    spark = spark_session()
    empty = spark_rows(spark, 10).limit(0).cache()
    empty.count()
    evaluate(empty)  # warm the Python workers and the JVM's code paths
    with PeakRSS() as m0:
        evaluate(empty).summary()
    out.append(f"Spark local[2], driver Python RSS growth during `evaluate(...).summary()` of an empty DataFrame: "
               f"{m0.peak / 1e6:.1f} MB\n")
    out.append("| rows | scored_pr exact, all measures | driver RSS growth | BCE numBins=1000 (ROC + PR) | "
               "BCE numBins=0 (ROC + PR) | scored_pr / BCE(1000) | BCE(1000) areaUnderPR - AP | "
               "BCE(0) areaUnderPR - AP | BCE(1000) AUC - exact AUC |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for n in rows:
        df = spark_rows(spark, n).cache()
        df.count()
        with PeakRSS() as m:
            (res, t_ours) = timed(lambda: evaluate(df))
            summary = res.summary()
        cast = df.select(F.col("score").alias("rawPrediction"), F.col("label").cast("double").alias("label"))
        bce = {1000: (math.nan, math.nan, math.nan), 0: (math.nan, math.nan, math.nan)}
        for bins in ((1000, 0) if n <= bce_rows else ()):
            ev = BinaryClassificationEvaluator(rawPredictionCol="rawPrediction", labelCol="label", numBins=bins)
            (roc, t1) = timed(lambda: ev.evaluate(cast, {ev.metricName: "areaUnderROC"}))
            (pr, t2) = timed(lambda: ev.evaluate(cast, {ev.metricName: "areaUnderPR"}))
            bce[bins] = (roc, pr, t1 + t2)
        ap, auc = summary["average_precision"], summary["area_under_roc_curve"]
        out.append(
            f"| {n:,} | {t_ours:.1f} s | {m.peak / 1e6:.1f} MB | {bce[1000][2]:.1f} s | {bce[0][2]:.1f} s | "
            f"{t_ours / bce[1000][2]:.2f} | {bce[1000][1] - ap:+.2e} | {bce[0][1] - ap:+.2e} | {bce[1000][0] - auc:+.2e} |"
        )
        print(out[-1], flush=True)
        df.unpersist()
    spark.stop()


def dask_rows(n: int, parts: int, slices: int = 0) -> Any:
    import dask.dataframe as dd

    return dd.from_map(_dask_part, [(i, n // parts, slices) for i in range(parts)])


def _dask_part(arg: tuple[int, int, int]) -> Any:
    import numpy as np
    import pandas as pd

    i, m, slices = arg
    rng = np.random.default_rng(1000 + i)
    y = rng.random(m) < 0.3
    out = pd.DataFrame({"label": y, "score": rng.normal(size=m) + 1.2 * y})
    if slices:
        out["region"] = rng.integers(0, slices, size=m)
    return out


def bench_dask(rows: list[int], out: list[str]) -> None:
    from dask.distributed import Client, LocalCluster

    from scored_pr.dask import evaluate

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        evaluate(dask_rows(4, 2))
        with PeakRSS() as m0:
            evaluate(dask_rows(0, 2)).summary()
        out.append(f"\nDask LocalCluster (2 worker processes), client RSS growth for an empty DataFrame: "
                   f"{m0.peak / 1e6:.1f} MB\n")
        out.append("| rows | scored_pr exact, all measures (generation included) | client RSS growth |")
        out.append("|---|---|---|")
        for n in rows:
            ddf = dask_rows(n, max(2, n // 2_000_000))
            with PeakRSS() as m:
                (res, t) = timed(lambda: evaluate(ddf).summary())
            out.append(f"| {n:,} | {t:.1f} s | {m.peak / 1e6:.1f} MB |")
            print(out[-1], flush=True)
            client.run(gc.collect)


def _ray_part(batch: Any, slices: int = 0) -> Any:
    import numpy as np
    import pandas as pd

    ids = batch["id"]
    rng = np.random.default_rng(1000 + int(ids[0]) if len(ids) else 0)
    y = rng.random(len(ids)) < 0.3
    out = pd.DataFrame({"label": y, "score": rng.normal(size=len(ids)) + 1.2 * y})
    if slices:
        out["region"] = rng.integers(0, slices, size=len(ids))
    return out


def ray_rows(n: int, parts: int, slices: int = 0) -> Any:
    import ray.data

    return ray.data.range(n, override_num_blocks=parts).map_batches(_ray_part, batch_format="numpy",
                                                                     batch_size=None, fn_kwargs={"slices": slices})


def bench_by(engine: str, evaluate: Callable[..., Any], df: Any, n: int, slices: int, reps: int, out: list[str]) -> None:
    """``evaluate(df, by="region").table()`` beside ``evaluate(df).summary()``: the minimum of ``reps`` runs each."""
    plain, sliced = math.inf, math.inf
    for _ in range(reps):
        plain = min(plain, timed(lambda: evaluate(df).summary())[1])
        with PeakRSS() as m:
            (table, t) = timed(lambda: evaluate(df, by="region").table())
        sliced = min(sliced, t)
    assert len(table) == slices + 1
    out.append(f"| {engine} | {n:,} | {slices} | {plain:.1f} s | {sliced:.1f} s | {sliced / plain:.2f} | "
               f"{m.peak / 1e6:.1f} MB |")
    print(out[-1], flush=True)


BY_HEADER = ["| engine | rows | slices | `evaluate(df).summary()` | `evaluate(df, by=\"region\").table()` | "
             "sliced / unsliced | driver RSS growth (sliced) |", "|---|---|---|---|---|---|---|"]


def bench_by_engines(engines: list[str], rows: list[int], slices: int, reps: int, out: list[str]) -> None:
    out.extend(BY_HEADER)
    if "spark" in engines:
        from scored_pr.spark import evaluate as spark_evaluate

        spark = spark_session()
        for n in rows:
            df = spark_rows(spark, n, slices).cache()
            df.count()
            bench_by("Spark local[2]", spark_evaluate, df, n, slices, reps, out)
            df.unpersist()
        spark.stop()
    if "dask" in engines:
        from dask.distributed import Client, LocalCluster

        from scored_pr.dask import evaluate as dask_evaluate

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
            for n in rows:
                ddf = client.persist(dask_rows(n, max(2, n // 2_000_000), slices))
                bench_by("Dask, 2 worker processes", dask_evaluate, ddf, n, slices, reps, out)
                del ddf
                client.run(gc.collect)
    if "ray" in engines:
        import ray
        import ray.data

        from scored_pr.ray import evaluate as ray_evaluate

        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR,
                 runtime_env={"env_vars": {"PYTHONPATH": os.environ["PYTHONPATH"]}})
        ray.data.DataContext.get_current().enable_progress_bars = False
        try:
            for n in rows:
                ds = ray_rows(n, max(2, n // 2_000_000), slices).materialize()
                bench_by("Ray, num_cpus=2", ray_evaluate, ds, n, slices, reps, out)
        finally:
            ray.shutdown()


def bench_ray(rows: list[int], out: list[str]) -> None:
    import ray
    import ray.data

    from scored_pr.ray import evaluate

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR,
             runtime_env={"env_vars": {"PYTHONPATH": os.environ["PYTHONPATH"]}})
    ray.data.DataContext.get_current().enable_progress_bars = False
    try:
        evaluate(ray_rows(4, 2))
        import pandas as pd

        empty = ray.data.from_pandas(pd.DataFrame({"label": pd.Series(dtype=bool), "score": pd.Series(dtype=float)}))
        with PeakRSS() as m0:  # an empty Dataset whose columns are known (no task of map_batches ran to tell them)
            evaluate(empty).summary()
        out.append(f"\nRay (ray.init(num_cpus=2)), driver RSS growth for an empty Dataset: {m0.peak / 1e6:.1f} MB\n")
        out.append("| rows | scored_pr exact, all measures (generation included) | driver RSS growth |")
        out.append("|---|---|---|")
        for n in rows:
            ds = ray_rows(n, max(2, n // 2_000_000))
            with PeakRSS() as m:
                (res, t) = timed(lambda: evaluate(ds).summary())
            out.append(f"| {n:,} | {t:.1f} s | {m.peak / 1e6:.1f} MB |")
            print(out[-1], flush=True)
    finally:
        ray.shutdown()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, nargs="+", default=[1_000_000])
    ap.add_argument("--engines", nargs="+", default=["spark", "dask"])
    ap.add_argument("--out")
    ap.add_argument("--bce-rows", type=int, default=10**12, help="run BinaryClassificationEvaluator up to this many rows")
    ap.add_argument("--by", type=int, default=0, help="(c): a feature of this many values, sliced beside unsliced")
    ap.add_argument("--reps", type=int, default=3, help="(c): runs of each, the minimum reported")
    args = ap.parse_args()
    out: list[str] = []
    if args.by:
        bench_by_engines(args.engines, args.rows, args.by, args.reps, out)
        text = "\n".join(out) + "\n"
        print(text)
        if args.out:
            Path(args.out).write_text(text, encoding="utf-8")
        return
    if "spark" in args.engines:
        bench_spark(args.rows, out, args.bce_rows)
    if "dask" in args.engines:
        bench_dask(args.rows, out)
    if "ray" in args.engines:
        bench_ray(args.rows, out)
    text = "\n".join(out) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
