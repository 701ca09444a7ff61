"""Exact (or bounded) evaluation of a Dask DataFrame where its partitions live.

>>> from scored_pr.dask import evaluate               # doctest: +SKIP
>>> result = evaluate(ddf, "label", "score")          # doctest: +SKIP

The same contract as :func:`scored_pr.spark.evaluate`: ``mode="exact"``
splits the rows by score into buckets (tied rows share one), sums each
bucket's counts on the workers, turns them into offsets on the client and
ranks each group of buckets in one task with them (``scored_pr._core.partitioned``);
``mode="bounded"`` builds one :class:`scored_pr.BoundedEvaluation` per
partition and merges them pairwise on the workers. It runs on whatever
scheduler is active (a ``distributed.Client``, or Dask's local one); with a
cluster, what reaches the client grows with the buckets, the ranks and
``curve_points``, never with the rows.

Needs the ``dask`` extra: ``pip install 'scored-pr[dask]'`` (in a checkout of scored_pr:
``pip install '.[dask]'``).
"""

from __future__ import annotations

from typing import Any

from ._engines.dask import DaskFrame
from ._engines.driver import run

__all__ = ["evaluate"]

_FUNC = "scored_pr.dask.evaluate"


def evaluate(
    ddf: Any, label_col: str | None = None, score_col: str | None = None, *, weight_col: str | None = None,
    pos_label: Any = None, misses: int = 0, mode: str = "exact", max_bins: int = 4096, curve_points: int = 1000,
    ranks: tuple[int, ...] = (), partitions: int | None = None, query_col: str | None = None,
    label_cols: list[str] | None = None, score_cols: list[str] | None = None, classes: list[Any] | None = None,
    by: str | list[str] | None = None, slices: Any = None, max_slices: int = 10_000,
    calibration_bins: tuple[int, ...] = (), costs: tuple[tuple[float, float, float, float], ...] = (),
    operating_points: tuple[tuple[str, dict[str, float]], ...] = (), thresholds: tuple[float, ...] | str = (),
) -> Any:
    """Evaluate the rows of a Dask DataFrame on its workers.

    Parameters, return value and errors as :func:`scored_pr.spark.evaluate`
    (``partitions``: the ranking tasks, default one per 2,000,000 rows and
    at least the DataFrame's partitions, up to 64). With ``score_cols``
    (multi-class with ``label_col``, multi-label with ``label_cols``), a
    :class:`scored_pr.DistributedMultiLabelEvaluation`: each label's ranking
    evaluated on the workers, and the micro average's ranking as the k
    (label, score) column pairs concatenated into one frame there.

    Notes
    -----
    The partitions are read once, kept on the workers as numpy columns (9
    bytes a row, 17 weighted) while the steps run: faults and a sample of
    scores, the buckets' counts, the ranking tasks (each takes its buckets'
    rows from every partition: one shuffle). The client holds
    O(partitions + buckets + ranks + curve_points) values.
    """
    return run(DaskFrame.of(_FUNC, ddf), _FUNC, label_col, score_col, weight_col=weight_col, pos_label=pos_label,
               misses=misses, mode=mode, max_bins=max_bins, curve_points=curve_points, ranks=ranks,
               partitions=partitions, query_col=query_col, label_cols=label_cols, score_cols=score_cols,
               classes=classes, by=by, slices=slices, max_slices=max_slices, calibration_bins=calibration_bins,
               costs=costs, operating_points=operating_points, thresholds=thresholds)
