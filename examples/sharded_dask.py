"""Sharded evaluation with Dask: one evaluator per shard, combined by merge in a tree.

Runs on Dask's local threaded scheduler; the same graph runs unchanged on a
cluster (pass a distributed Client). Needs the `dask` extra:
    pip install '.[dask]'   (in a checkout of scored_pr)
"""

from __future__ import annotations

import numpy as np
from dask import delayed

from scored_pr import ScoredPrecisionRecallEvaluation


def load_shard(i: int, n: int = 50_000) -> tuple[np.ndarray, np.ndarray]:
    """Stand-in for reading one partition of predictions (deterministic per shard)."""
    rng = np.random.default_rng(i)
    labels = rng.random(n) < 0.3
    scores = np.round(rng.normal(size=n) + labels, 2)  # rounded: plenty of ties across shards
    return labels, scores


def evaluate_shard(i: int) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(*load_shard(i))
    ev.add_misses(10)  # relevant items this shard's system never returned
    return ev


def merge(a: ScoredPrecisionRecallEvaluation, b: ScoredPrecisionRecallEvaluation) -> ScoredPrecisionRecallEvaluation:
    return a.merge(b)  # a's cases rank before b's on ties: shard order is kept


def tree_reduce(nodes: list) -> object:
    """Pairwise merges, log2(shards) levels deep, keeping left-to-right order."""
    while len(nodes) > 1:
        nodes = [delayed(merge)(nodes[i], nodes[i + 1]) if i + 1 < len(nodes) else nodes[i] for i in range(0, len(nodes), 2)]
    return nodes[0]


def main() -> None:
    shards = 8
    total = tree_reduce([delayed(evaluate_shard)(i) for i in range(shards)])
    combined = total.compute(scheduler="threads")

    single = ScoredPrecisionRecallEvaluation()  # the same data fed to one evaluator
    for i in range(shards):
        single.add_cases(*load_shard(i))
        single.add_misses(10)
    if combined != single:
        raise SystemExit("sharded result differs from the single evaluator")
    print(f"{shards} shards, {combined.num_cases} cases: sharded result == single evaluator")
    for name, value in combined.summary().items():
        print(f"  {name:34s} {value}")


if __name__ == "__main__":
    main()
