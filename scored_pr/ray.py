"""Exact (or bounded) evaluation of a Ray Dataset where its blocks live.

>>> from scored_pr.ray import evaluate                # doctest: +SKIP
>>> result = evaluate(ds, "label", "score")           # doctest: +SKIP

The same contract as :func:`scored_pr.spark.evaluate`: ``mode="exact"``
splits the rows by score into buckets (tied rows share one), sums each
bucket's counts in Ray tasks, turns them into offsets on the driver and
ranks each group of buckets in one task with them
(``scored_pr._core.partitioned``); ``mode="bounded"`` builds one
:class:`scored_pr.BoundedEvaluation` per block and merges them pairwise in
tasks. It runs on the Ray instance the process is connected to
(``ray.init``); what reaches the driver grows with the blocks, the buckets,
the ranks and ``curve_points``, never with the rows.

Needs the ``ray`` extra: ``pip install 'scored-pr[ray]'`` (in a checkout of scored_pr:
``pip install '.[ray]'``).
"""

from __future__ import annotations

from typing import Any

from ._engines.driver import run
from ._engines.ray import RayFrame

__all__ = ["evaluate"]

_FUNC = "scored_pr.ray.evaluate"


def evaluate(
    ds: Any, label_col: str | None = None, score_col: str | None = None, *, weight_col: str | None = None,
    pos_label: Any = None, misses: int = 0, mode: str = "exact", max_bins: int = 4096, curve_points: int = 1000,
    ranks: tuple[int, ...] = (), partitions: int | None = None, query_col: str | None = None,
    label_cols: list[str] | None = None, score_cols: list[str] | None = None, classes: list[Any] | None = None,
    by: str | list[str] | None = None, slices: Any = None, max_slices: int = 10_000,
    calibration_bins: tuple[int, ...] = (), costs: tuple[tuple[float, float, float, float], ...] = (),
    operating_points: tuple[tuple[str, dict[str, float]], ...] = (), thresholds: tuple[float, ...] | str = (),
) -> Any:
    """Evaluate the rows of a Ray Dataset in Ray tasks.

    Parameters, return value and errors as :func:`scored_pr.spark.evaluate`
    (``ds``: a ``ray.data.Dataset``; ``partitions``: the ranking tasks,
    default one per 2,000,000 rows and at least the Dataset's blocks, up to
    64). With ``score_cols`` (multi-class with ``label_col``, multi-label
    with ``label_cols``), a :class:`scored_pr.DistributedMultiLabelEvaluation`:
    each label's ranking evaluated in tasks, and the micro average's ranking
    as the k (label, score) column pairs in one Dataset (``union``).

    Notes
    -----
    The blocks are read once (as pandas) and kept in Ray's object store as
    numpy columns (9 bytes a row, 17 weighted) while the steps run: faults
    and a sample of scores, the buckets' counts, the ranking tasks (each
    takes its buckets' rows from every block). The driver holds
    O(blocks + buckets + ranks + curve_points) values and object references.
    """
    return run(RayFrame.of(_FUNC, ds), _FUNC, label_col, score_col, weight_col=weight_col, pos_label=pos_label,
               misses=misses, mode=mode, max_bins=max_bins, curve_points=curve_points, ranks=ranks,
               partitions=partitions, query_col=query_col, label_cols=label_cols, score_cols=score_cols,
               classes=classes, by=by, slices=slices, max_slices=max_slices, calibration_bins=calibration_bins,
               costs=costs, operating_points=operating_points, thresholds=thresholds)
