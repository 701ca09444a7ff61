"""Evaluate a Dask DataFrame on a dask.distributed cluster: exact measures and a bounded summary.

scored_pr.dask.evaluate ranks the rows bucket by bucket on the workers (the
client receives a few numbers per bucket, never the rows) and returns every
measure of ScoredPrecisionRecallEvaluation(ties="grouped") fed the same rows;
mode="bounded" merges one BoundedEvaluation per partition pairwise on the
workers and returns certified bounds. Each partition is made on a worker
(dd.from_map), as it would be read there.

Runs on a LocalCluster of two worker processes; on a real cluster pass its
address to Client(...) instead. Needs the dask extra: pip install '.[dask]'
in a checkout of scored_pr.
"""

from __future__ import annotations

import logging
import sys

import numpy as np
import pandas as pd

ROWS, PARTITIONS = 2_000_000, 8


def load_partition(i: int) -> pd.DataFrame:
    """Stand-in for reading one partition of predictions: 30% positive, binormal scores."""
    rng = np.random.default_rng(1000 + i)
    labels = rng.random(ROWS // PARTITIONS) < 0.3
    return pd.DataFrame({"label": labels, "score": rng.normal(size=labels.size) + 1.2 * labels})


def main() -> None:
    import dask.dataframe as dd
    from dask.distributed import Client, LocalCluster

    from scored_pr.dask import evaluate

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    ) as cluster, Client(cluster):
        ddf = dd.from_map(load_partition, range(PARTITIONS))
        exact = evaluate(ddf, "label", "score", misses=100)  # a DistributedEvaluation
        bounded = evaluate(ddf, "label", "score", misses=100, mode="bounded")  # a BoundedEvaluation

    print(f"{exact.num_cases:,} rows in {PARTITIONS} partitions on 2 worker processes")
    for name, value in exact.summary().items():
        print(f"  {name:34s} {value}")
    failures = 0
    for name in ("area_under_roc_curve", "average_precision", "maximum_f_measure", "r_precision"):
        value, bound = getattr(exact, name)(), getattr(bounded, name)()
        ok = bound.lower <= value <= bound.upper
        failures += not ok
        print(f"  bounded {name:22s} [{bound.lower:.6f}, {bound.upper:.6f}] width {bound.width:.1e} holds {value:.6f}")
    if failures:
        sys.exit("an exact value fell outside its certified interval")


if __name__ == "__main__":
    main()
