"""10,000,000 cases in 8 partitions on a dask.distributed cluster of worker processes.

Every partition is evaluated where its data lives, twice: exactly (a
ScoredPrecisionRecallEvaluation, ~9 bytes per case on the wire) and as a
BoundedEvaluation summary (a few kilobytes whatever the partition's size).
Both are combined by pairwise merges on the workers; only the results cross
to the client. The script checks that every certified interval of the
summary holds the exact value, and prints the bytes each partition sends.

Runs on a LocalCluster of two worker processes; the same code runs on a real
cluster by passing its address to Client(...) instead. Needs the `dask`
extra: pip install '.[dask]' in a checkout of scored_pr.
"""

from __future__ import annotations

import logging
import pickle
import sys
import time

import numpy as np

from scored_pr import BoundedEvaluation, ScoredPrecisionRecallEvaluation

CASES = 10_000_000
PARTITIONS = 8


def load_partition(i: int) -> tuple[np.ndarray, np.ndarray]:
    """Stand-in for reading one partition of predictions: 30% positive, binormal scores."""
    rng = np.random.default_rng(1000 + i)
    n = CASES // PARTITIONS
    labels = rng.random(n) < 0.3
    scores = rng.normal(size=n) + 1.2 * labels
    return labels, scores


def exact_partition(i: int) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(*load_partition(i))
    ev.add_misses(100)  # relevant items this partition's system never returned
    return ev


def summary_partition(i: int) -> BoundedEvaluation:
    s = BoundedEvaluation(max_bins=4096)
    s.add_cases(*load_partition(i))
    s.add_misses(100)
    return s


def merge(a, b):  # type: ignore[no-untyped-def]
    return a + b


def wire_bytes(obj: object) -> int:
    """What a partition's result costs on the network: its pickled size."""
    return len(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


def tree_reduce(client, futures):  # type: ignore[no-untyped-def]
    """Pairwise merges on the workers, log2(partitions) levels deep."""
    while len(futures) > 1:
        pairs = [client.submit(merge, futures[i], futures[i + 1]) for i in range(0, len(futures) - 1, 2)]
        futures = pairs + ([futures[-1]] if len(futures) % 2 else [])
    return futures[0]


def run(client, make) -> tuple[object, list[int], float]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    parts = client.map(make, range(PARTITIONS))
    sizes = client.gather(client.map(wire_bytes, parts))  # measured on the workers
    result = tree_reduce(client, parts).result()
    return result, sizes, time.perf_counter() - start


def main() -> None:
    from dask.distributed import Client, LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    ) as cluster, Client(cluster) as client:
        exact, exact_sizes, exact_s = run(client, exact_partition)
        summary, summary_sizes, summary_s = run(client, summary_partition)

    assert isinstance(exact, ScoredPrecisionRecallEvaluation) and isinstance(summary, BoundedEvaluation)
    print(f"{PARTITIONS} partitions, {summary.num_cases:,} cases on 2 worker processes")
    print(f"  exact evaluators: {exact_s:6.1f} s, {np.mean(exact_sizes) / 1e6:8.2f} MB per partition")
    print(f"  summaries:        {summary_s:6.1f} s, {np.mean(summary_sizes) / 1e3:8.1f} KB per partition "
          f"({summary.num_bins} bins)")
    failures = 0
    rows = [
        ("area_under_roc_curve", exact.area_under_roc_curve(), summary.area_under_roc_curve()),
        ("average_precision", exact.average_precision(), summary.average_precision()),
        ("maximum_f_measure", exact.maximum_f_measure(), summary.maximum_f_measure()),
        ("r_precision", exact.r_precision(), summary.r_precision()),
        ("precision_at(1000)", exact.precision_at(1000), summary.precision_at(1000)),
    ]
    print(f"  {'measure':22s} {'exact':>10s} {'lower':>10s} {'estimate':>10s} {'upper':>10s} {'width':>9s}")
    for name, value, bound in rows:
        ok = bound.lower <= value <= bound.upper
        failures += not ok
        print(f"  {name:22s} {value:10.6f} {bound.lower:10.6f} {float(bound):10.6f} {bound.upper:10.6f} "
              f"{bound.width:9.2e}{'' if ok else '  OUTSIDE'}")
    if failures:
        sys.exit("an exact value fell outside its certified interval")


if __name__ == "__main__":
    main()
