"""The flows of ``scored_pr.spark``, ``scored_pr.dask`` and ``scored_pr.ray``, written once and engine-free.

:func:`run` checks the arguments (the evaluator's rules, one copy), asks the
engine's frame (``backend.Frame``) for the rows of each ranking, raises the
rows' faults, and then runs one flow:

* **exact**: the rows are cut by score into buckets (a function of the score,
  so tied rows share one); each bucket's counts are summed in the engine, the
  driver turns them into offsets (``_core.partitioned.plan``), every bucket is
  ranked and measured in one task with them, and the driver adds the buckets'
  shares (``combine``): a :class:`scored_pr.DistributedEvaluation` equal to
  ``ScoredPrecisionRecallEvaluation(ties="grouped")`` fed the same rows;
  before the buckets, one pass sums each partition's calibration bins, Brier
  and log-loss terms (``_core.partitioned_calibration``), added on the driver;
* **bounded**: one :class:`scored_pr.BoundedEvaluation` per partition, merged in the engine;
* **per query**: each query's rows in one task, the driver adds the sums
  (:class:`scored_pr.DistributedQueryEvaluation`);
* **wide** (multi-class or multi-label): an exact flow per label and one over
  the pooled pairs (:class:`scored_pr.DistributedMultiLabelEvaluation`);
* **sliced** (``by=``): the exact flow once, its key the slice and the bucket
  (each row once per crossing), one plan per slice; with ``mode="bounded"``, one
  bounded summary per slice and partition, merged slice by slice (a
  ``SlicedEvaluation(kind="bounded")``)
  (:class:`scored_pr.DistributedSlicedEvaluation`).

What reaches the driver grows with the buckets, the ranks, ``curve_points``,
the slices and the partitions, never with the rows.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import partitioned as K
from .._core import partitioned_decisions as PD
from .._core.partitioned_calibration import DEFAULT_BIN_COUNTS
from .._evaluators.distributed import (
    DistributedEvaluation, DistributedMultiLabelEvaluation, DistributedQueryEvaluation,
)
from .._evaluators.distributed_sliced import DistributedSlicedEvaluation
from .._evaluators.sliced import from_evaluators as sliced_of_evaluators
from .._measures import REPORT_RANKS
from .._validation import (
    QUERIES_EXPECTED, SCORES_EXPECTED, WEIGHTS_EXPECTED, bad_rows, check_bin_counts, check_column_names,
    check_column_type, check_decision_requests, check_engine_options, check_engine_slices, check_label_column,
    check_misses_count, check_pos_label, check_query_setup,
    check_weight_total, check_wide_columns, check_wide_setup, classes_not_found, mixed_negatives,
)
from .._validation.slices import feature_value, slice_text, too_many_slices
from .backend import Columns, Frame, Plans, Rows, Scan

#: Rows a bucket holds on average (a bucket is ranked in one task's memory: about 17 bytes a row).
ROWS_PER_BUCKET = 500_000
#: Rows per ranking task by default (at least the frame's parallelism).
ROWS_PER_TASK = 2_000_000
#: The decision requests always answered: ``min_cost_threshold()`` and ``operating_point()`` with their defaults.
DEFAULT_COSTS = (1.0, 1.0, 0.0, 0.0)
DEFAULT_POINT: PD.PointKey = ("recall", ())


@dataclasses.dataclass(frozen=True)
class Decide:
    """The decision requests of ``evaluate`` (checked): costs, operating points, thresholds to count at."""

    costs: tuple[PD.CostKey, ...] = ()
    points: tuple[PD.PointKey, ...] = ()
    thresholds: tuple[float, ...] = ()
    every: bool = False  #: ``thresholds="all"``: every bucket returns its candidates

    def specs(self) -> PD.DecisionSpecs:
        """What every bucket chooses: the defaults of ``min_cost_threshold()`` and ``operating_point()``, and these."""
        return PD.DecisionSpecs(tuple(dict.fromkeys((DEFAULT_COSTS, *self.costs))),
                                tuple(dict.fromkeys((DEFAULT_POINT, *self.points))), self.every)


def run(
    frame: Frame, func: str, label_col: Any = None, score_col: Any = None, *, weight_col: Any = None,
    pos_label: Any = None, misses: Any = 0, mode: Any = "exact", max_bins: Any = 4096, curve_points: Any = 1000,
    ranks: Any = (), partitions: Any = None, query_col: Any = None, label_cols: Any = None, score_cols: Any = None,
    classes: Any = None, by: Any = None, slices: Any = None, max_slices: Any = 10_000, calibration_bins: Any = (),
    costs: Any = (), operating_points: Any = (), thresholds: Any = (),
) -> Any:
    """``evaluate(...)`` of an engine's frame: the arguments and their meaning are ``scored_pr.spark.evaluate``'s.

    Every argument is checked before the first job runs; the rows' faults
    (null or NaN scores, labels that are not labels, bad weights or query
    ids) are raised after one pass over them and before any measure.
    """
    mode, max_bins, curve_points, ranks, partitions = check_engine_options(
        func, mode, max_bins, curve_points, ranks, partitions)
    misses = check_misses_count(misses, func)
    calibration_bins = check_bin_counts(func, calibration_bins)
    decide = Decide(*check_decision_requests(func, costs, operating_points, thresholds))
    pos_label = check_pos_label(pos_label, func)
    keys: tuple[str, ...] = ()
    if by is not None:
        if score_cols is not None or label_cols is not None or classes is not None:
            raise ValueError(f"{func}: by= slices one ranking; the multi-class and multi-label evaluations are not "
                             "sliced: evaluate each slice's rows")
        keys, specs, max_slices = check_engine_slices(func, by, slices, max_slices, frame.columns(), mode=mode,
                                                      misses=misses, query_col=query_col)
    if score_cols is not None or label_cols is not None or classes is not None:
        labels, lcols, scols = check_wide_columns(
            func, frame.columns(), label_col=label_col, label_cols=label_cols, score_col=score_col,
            score_cols=score_cols, classes=classes, weight_col=weight_col, query_col=query_col)
        check_wide_setup(func, label_cols is None, misses, mode, pos_label)
        return _wide(frame, func, labels, lcols, scols, label_cols is None, weight_col=weight_col,
                     pos_label=pos_label, curve_points=curve_points, ranks=ranks, partitions=partitions,
                     calibration_bins=calibration_bins, decide=decide)
    cols = Columns("label" if label_col is None else label_col, "score" if score_col is None else score_col,
                   weight_col, query_col, pos_label, keys)
    check_column_names(func, frame.columns(), label_col=cols.label, score_col=cols.score, weight_col=cols.weight,
                       query_col=cols.query)
    check_query_setup(func, cols.query, misses, mode)
    check_column_kinds(frame, func, cols)
    if keys and mode == "bounded":
        return _sliced_bounded(frame, func, cols, specs, max_slices, max_bins)
    if keys:
        return _sliced(frame, func, cols, specs, max_slices, curve_points=curve_points, ranks=ranks,
                       partitions=partitions, decisions=decide.specs())
    return _ranking(frame, func, cols, misses=misses, mode=mode, max_bins=max_bins, curve_points=curve_points,
                    ranks=ranks, partitions=partitions, calibration_bins=calibration_bins, decide=decide)


def check_column_kinds(frame: Frame, func: str, cols: Columns) -> None:
    """The label, score and weight columns' types, by the evaluator's rules (TypeError naming the argument)."""
    kind, name = frame.kind(cols.label)
    check_column_type(func, "label_col", cols.label, name, "a boolean, numeric or string column",
                      kind in ("b", "i", "u", "f", "U", "O"))
    check_label_column(func, cols.label, kind, name, cols.pos_label)
    for arg, column in (("score_col", cols.score), ("weight_col", cols.weight)):
        if column is not None:
            kind, name = frame.kind(column)
            check_column_type(func, arg, column, name, "numeric", kind in ("i", "u", "f"))
    for column in cols.by:
        kind, name = frame.kind(column)
        check_column_type(func, "by", column, name, "a boolean, numeric or string column",
                          kind in ("b", "i", "u", "f", "U", "O"))


def check_scan(func: str, cols: Columns, scan: Scan) -> None:
    """The rows' faults, in the order label, score, weight, query; then mixed negatives and the weights' total."""
    expected = {
        "label_col": "true/false, or 1 (positive) and 0 or -1 (negative): pass pos_label= for other labels"
        if cols.pos_label is None else f"labels comparable with pos_label={cols.pos_label!r} (no null)",
        "score_col": SCORES_EXPECTED, "weight_col": WEIGHTS_EXPECTED, "query_col": QUERIES_EXPECTED,
    }
    named = {"label_col": cols.label, "score_col": cols.score, "weight_col": cols.weight, "query_col": cols.query}
    for arg, column in named.items():
        count, example = scan.faults.get(arg, (0, None))
        if column is not None and count:
            raise bad_rows(func, arg, column, expected[arg], count, example)
    mixed = mixed_negatives(func, cols.label, scan.zeros, scan.minus)
    if mixed is not None:
        raise mixed
    if cols.weight is not None:
        check_weight_total(func, cols.weight, scan.total)


def _ranking(
    frame: Frame, func: str, cols: Columns, *, misses: int, mode: str, max_bins: int, curve_points: int,
    ranks: tuple[int, ...], partitions: int | None, calibration_bins: tuple[int, ...] = (),
    decide: Decide | None = None,
) -> Any:
    """One ranking (or one per query): the rows checked, then the flow the mode asks for."""
    rows = frame.rows(func, cols)
    check_scan(func, cols, rows.scan)
    weighted = cols.weight is not None and rows.scan.not_one
    if cols.query is not None:
        ks = tuple(sorted({*REPORT_RANKS, *ranks}))
        return DistributedQueryEvaluation(rows.query_parts(ks, partitions, cols.weight is not None), ks,
                                          engine=frame.engine)
    if mode == "bounded":
        total = rows.summary(max_bins, weighted)
        if misses:
            total.add_misses(misses)
        return total
    decide = decide or Decide()
    bin_counts = tuple(sorted({*DEFAULT_BIN_COUNTS, *calibration_bins}))
    cuts = np.unique(np.asarray(decide.thresholds, dtype=np.float64))
    calibration = rows.calibration(bin_counts, weighted, cuts)  # before the buckets take the rows over
    result = exact(rows, misses=misses, weighted=[weighted], curve_points=curve_points, ranks=ranks,
                   partitions=partitions, decisions=decide.specs())[0]
    result["calibration"] = calibration
    return DistributedEvaluation(result, pos_label=cols.pos_label, engine=frame.engine)


def _sliced(
    frame: Frame, func: str, cols: Columns, specs: tuple[tuple[str, ...], ...], max_slices: int, *,
    curve_points: int, ranks: tuple[int, ...], partitions: int | None, decisions: PD.DecisionSpecs | None = None,
) -> DistributedSlicedEvaluation:
    """Every slice's exact flow at once: the scan finds the cells, the driver names each cell's slice per
    crossing (refusing slice ``max_slices + 1`` before any ranking), one exact flow over (slice, bucket) keys."""
    rows = frame.rows(func, cols)
    check_scan(func, cols, rows.scan)
    pairs, ids = _slices_of(rows, func, cols, specs, max_slices)
    not_one = np.zeros(len(pairs), bool)
    for i, flag in enumerate(rows.scan.cell_not_one):
        not_one[ids[i]] |= flag
    results = exact(rows, misses=0, weighted=not_one.tolist(), curve_points=curve_points, ranks=ranks,
                    partitions=partitions, ids=ids, decisions=decisions)
    evaluations = [DistributedEvaluation(r, pos_label=cols.pos_label, engine=frame.engine) for r in results]
    return DistributedSlicedEvaluation(cols.by, specs, pairs, evaluations, engine=frame.engine)


def _sliced_bounded(
    frame: Frame, func: str, cols: Columns, specs: tuple[tuple[str, ...], ...], max_slices: int, max_bins: int,
) -> Any:
    """``mode="bounded"`` with ``by=``: a bounded summary per slice, each partition's merged slice by slice in the
    engine, returned as the ``SlicedEvaluation(kind="bounded", max_bins=...)`` one machine fed the rows holds."""
    rows = frame.rows(func, cols)
    check_scan(func, cols, rows.scan)
    pairs, ids = _slices_of(rows, func, cols, specs, max_slices)
    weighted = cols.weight is not None and rows.scan.not_one
    summaries = rows.slice_summaries(max_bins, weighted, (ids, len(pairs)))
    return sliced_of_evaluators(cols.by, specs, "bounded", {"max_bins": max_bins}, max_slices,
                                list(zip(pairs, summaries)))


def _slices_of(rows: Rows, func: str, cols: Columns, specs: tuple[tuple[str, ...], ...], max_slices: int,
               ) -> tuple[list[tuple[tuple[str, Any], ...]], npt.NDArray[np.int64]]:
    """Every slice's pairs, and the slice of each cell of the scan in each crossing (cells x crossings); refuses
    slice ``max_slices + 1`` before any further job."""
    keys = cols.by
    cells = [tuple(feature_value(v, k, func) for k, v in zip(keys, cell)) for cell in rows.scan.cells]
    pairs: list[tuple[tuple[str, Any], ...]] = [()] if () in specs else []
    index = {p: i for i, p in enumerate(pairs)}
    ids = np.zeros((len(cells), len(specs)), np.int64)
    for j, spec in enumerate(specs):  # a crossing's slices in ascending order of their values, missing last
        at = [keys.index(k) for k in spec]
        found = [tuple((keys[a], cell[a]) for a in at) for cell in cells]
        for p in sorted(set(found) - set(index), key=lambda p: [(v is None, isinstance(v, str), 0 if v is None else v)
                                                  for _, v in p]):
            made = len(index) - (() in index)  # the overall slice is not counted
            if made >= max_slices:
                raise too_many_slices(slice_text(p), made + 1, max_slices, func)
            index[p] = len(pairs)
            pairs.append(p)
        ids[:, j] = [index[p] for p in found]
    return pairs, ids


def exact(
    rows: Rows, *, misses: int, weighted: list[bool], curve_points: int, ranks: tuple[int, ...],
    partitions: int | None, ids: npt.NDArray[np.int64] | None = None, decisions: PD.DecisionSpecs | None = None,
) -> list[dict[str, Any]]:
    """The exact flow: buckets -> their totals -> the plans' offsets -> each bucket's share -> ``K.combine``.

    One ranking per entry of ``weighted`` (whether it counts weights): the whole frame, or with ``ids``
    (``Rows.bucket_totals``' slicing) one per slice, each keyed by slice and bucket and combined on its own.
    With ``decisions``, every bucket also chooses among its candidates (``_core.partitioned_decisions``).
    """
    n = rows.scan.rows
    if partitions is None:
        partitions = max(1, rows.parallelism, math.ceil(n / ROWS_PER_TASK))
        if rows.max_tasks is not None:
            partitions = min(rows.max_tasks, partitions)
    buckets = max(1, min(4 * partitions, 4 * math.ceil(n / ROWS_PER_BUCKET))) if n else 1
    bounds = K.choose_bounds(rows.sample(n, buckets), buckets) if buckets > 1 else np.zeros(0)
    nb = int(bounds.size) + 1
    nk = nb * len(weighted)
    groups = min(partitions, nk)
    per_part = rows.bucket_totals(bounds, groups, any(weighted), None if ids is None else (ids, len(weighted)))
    count = np.zeros(nk, np.int64)
    pos = np.zeros(nk, np.int64)
    for part in per_part:
        count += part[0]
        pos += part[1]
    plans = []
    for s, w in enumerate(weighted):
        totals = [K.BucketTotals(int(count[b]), int(pos[b]), math.fsum(float(p[2][b]) for p in per_part) if w else None,
                                 math.fsum(float(p[3][b]) for p in per_part) if w else None)
                  for b in range(s * nb, (s + 1) * nb)]
        size = sum(t.rows for t in totals)
        pl = K.plan(totals, misses, weighted=w, ranks=(*REPORT_RANKS, *ranks, size), curve_points=curve_points)
        if not w:  # R-precision's rank, once R is known
            pl = K.plan(totals, misses, weighted=False, ranks=(*pl.ranks, min(pl.num_pos + misses, size)),
                        curve_points=curve_points)
        if decisions is not None:  # each bucket chooses among its candidates while it is ranked
            pl = dataclasses.replace(pl, decisions=decisions)
        plans.append(pl)
    ranked = rows.rank(bounds, Plans(tuple(plans), nb), groups)
    parts: list[list[K.Contribution]] = [[] for _ in plans]
    for c in ranked.parts:
        parts[c.bucket // nb].append(c)
    try:  # the envelopes stay in the engine: each task reduces its own, given the later buckets of its slice
        shares = ranked.shares({b: m for group in parts for b, m in K.later_maxima(group).items()})
    finally:
        ranked.close()
    per_slice: list[list[K.EnvelopeShare]] = [[] for _ in plans]
    for x in shares:
        per_slice[x.bucket // nb].append(x)
    out = [K.combine(pl, group, got) for pl, group, got in zip(plans, parts, per_slice)]
    if decisions is not None:
        for o, pl, group in zip(out, plans, parts):
            o["decisions"] = PD.combine(decisions, group, float(pl.pos_ref), float(pl.neg_ref), pl.weighted)
    return out


def _wide(
    frame: Frame, func: str, labels: list[Any], label_cols: list[str], score_cols: list[str], multiclass: bool, *,
    weight_col: str | None, pos_label: Any, curve_points: int, ranks: tuple[int, ...], partitions: int | None,
    calibration_bins: tuple[int, ...], decide: Decide,
) -> DistributedMultiLabelEvaluation:
    """k one-vs-rest (or indicator) rankings, and the micro average's pooled ranking built in the engine."""
    opts: dict[str, Any] = {"curve_points": curve_points, "ranks": ranks, "partitions": partitions,
                            "calibration_bins": calibration_bins, "costs": decide.costs,
                            "operating_points": tuple((m, dict(s)) for m, s in decide.points),
                            "thresholds": "all" if decide.every else decide.thresholds}
    if multiclass:  # every row's class is one of the classes: else a row would be negative everywhere
        kind, name = frame.kind(label_cols[0])
        textual = all(isinstance(c, str) for c in labels)
        ok = kind == "O" or (kind == "U" if textual else
                             not any(isinstance(c, str) for c in labels) and kind in ("b", "i", "u", "f"))
        check_column_type(func, "label_col", label_cols[0], name,
                          f"{'a string' if textual else 'a boolean or numeric'} column, as the classes {labels!r:.200} "
                          "are (name the class of each score column with classes=)", ok)
        count, example = frame.not_a_class(label_cols[0], labels)
        if count:
            raise classes_not_found(func, label_cols[0], labels, count, example)
    positives = [label if multiclass else pos_label for label in labels]
    per_label = [run(frame, func, lc, sc, weight_col=weight_col, pos_label=p, **opts)
                 for p, lc, sc in zip(positives, label_cols, score_cols)]
    pooled = run(frame.pooled(list(zip(label_cols, score_cols, positives)), weight_col), func, "c", "s",
                 weight_col="w" if weight_col is not None else None, **opts)
    return DistributedMultiLabelEvaluation(labels, per_label, pooled, num_rows=per_label[0].num_cases,
                                           multiclass=multiclass, engine=frame.engine)
