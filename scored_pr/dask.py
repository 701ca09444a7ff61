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

import dataclasses
import math
from typing import Any

import numpy as np

from ._core import partitioned as K
from ._evaluators.bounded import BoundedEvaluation
from ._evaluators.distributed import (
    DistributedEvaluation, DistributedMultiLabelEvaluation, DistributedQueryEvaluation, query_partials,
)
from ._measures import REPORT_RANKS
from ._validation import (
    MAX_WEIGHT, MIN_WEIGHT, QUERIES_EXPECTED, SCORES_EXPECTED, WEIGHTS_EXPECTED, bad_rows, check_column_names,
    check_column_type, check_engine_options,
    check_frame, check_label_column, check_misses_count, check_pos_label, check_query_setup, check_weight_total,
    check_wide_columns, check_wide_setup, classes_not_found, exact_scores, label_classes, mixed_negatives,
)

__all__ = ["evaluate"]

_FUNC = "scored_pr.dask.evaluate"
_ROWS_PER_BUCKET = 500_000
_SAMPLE = 4096  #: scores sampled per partition for the bounds


def _require() -> Any:
    try:
        import dask
        import dask.dataframe
    except ImportError as e:  # pragma: no cover (the test extra has it)
        raise ImportError(
            f"scored_pr.dask needs dask[dataframe] ({e.name} is missing): pip install 'scored-pr[dask]' "
            "(in a checkout: pip install '.[dask]')"
        ) from e
    return dask


def _prep(
    pdf: Any, label_col: str, score_col: str, weight_col: str | None, pos_label: Any, query_col: str | None = None
) -> dict[str, Any]:
    """One partition as numpy columns (class, score, weight), its faults and a sample of its scores."""
    import pandas as pd

    labels = pdf[label_col].to_numpy()
    correct, bad_label = label_classes(labels, pos_label)
    scores, bad_score = exact_scores(pdf[score_col].to_numpy())
    out: dict[str, Any] = {"c": np.asarray(correct, bool), "s": scores, "w": None, "rows": int(scores.size)}
    out["bad"] = {"label_col": _fault(bad_label, pdf[label_col]), "score_col": _fault(bad_score, pdf[score_col])}
    if pos_label is None and labels.dtype.kind in "iufO":  # 0 and -1 together: the evaluator refuses the encoding
        out["zeros"] = int(np.count_nonzero(np.asarray(labels == 0, bool) & ~bad_label))
        out["minus"] = int(np.count_nonzero(np.asarray(labels == -1, bool) & ~bad_label))
    if weight_col is not None:
        w = np.asarray(pdf[weight_col].to_numpy(), dtype=np.float64)
        bad_w = ~np.isfinite(w) | (w < 0) | ((w > 0) & ((w < MIN_WEIGHT) | (w > MAX_WEIGHT)))  # the evaluators' rule
        out["w"] = w
        out["bad"]["weight_col"] = _fault(bad_w, pdf[weight_col])
        out["not_one"] = bool(np.any(w != 1.0))
        with np.errstate(over="ignore"):  # an overflow is inf, refused on the client
            out["total"] = float(np.sum(w[~bad_w]))
    if query_col is not None:
        out["q"] = pdf[query_col].to_numpy()
        out["bad"]["query_col"] = _fault(np.asarray(pd.isna(pdf[query_col]), bool), pdf[query_col])
    rng = np.random.default_rng(scores.size)
    finite = scores[~bad_score]
    out["sample"] = finite if finite.size <= _SAMPLE else rng.choice(finite, _SAMPLE, replace=False)
    return out


def _fault(mask: Any, column: Any) -> tuple[int, Any]:
    n = int(np.count_nonzero(mask))
    example = column.iloc[int(np.argmax(mask))] if n else None
    return n, (example.item() if isinstance(example, np.generic) else example)  # shown as the Python value


def _head(part: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in part.items() if k not in ("c", "s", "w", "q")}


def _split(part: dict[str, Any], bounds: np.ndarray, groups: int, weighted: bool) -> list[Any]:
    """The partition's rows cut by bucket group (contiguous bucket ranges), with each bucket's totals."""
    b = K.bucket_of(part["s"], bounds)
    nb = bounds.size + 1
    per_group = math.ceil(nb / groups)
    out = []
    for g in range(groups):
        m = (b >= g * per_group) & (b < (g + 1) * per_group)
        w = part["w"][m] if weighted else None
        out.append((b[m], part["s"][m], part["c"][m], w))
    return out


def _totals(pieces: list[Any], nb: int, weighted: bool) -> list[tuple[int, int, float, float]]:
    rows = np.zeros(nb, np.int64)
    pos = np.zeros(nb, np.int64)
    wp = np.zeros(nb)
    wn = np.zeros(nb)
    for b, _, c, w in pieces:
        rows += np.bincount(b, minlength=nb)
        pos += np.bincount(b, weights=c, minlength=nb).astype(np.int64)
        if weighted:
            wp += np.bincount(b, weights=np.where(c, w, 0.0), minlength=nb)
            wn += np.bincount(b, weights=np.where(c, 0.0, w), minlength=nb)
    return [(int(r), int(p), float(x), float(y)) for r, p, x, y in zip(rows, pos, wp, wn)]


def _rank_group(pieces: list[Any], pl: K.Plan) -> list[K.Contribution]:
    """Every bucket of one group ranked and measured with its offsets (the pieces come from every partition)."""
    b = np.concatenate([p[0] for p in pieces])
    s = np.concatenate([p[1] for p in pieces])
    c = np.concatenate([p[2] for p in pieces])
    w = np.concatenate([p[3] for p in pieces]) if pl.weighted else None
    out = []
    for bucket in np.unique(b).tolist():
        m = b == bucket
        out.append(K.bucket_contributions(bucket, -s[m], c[m], None if w is None else w[m], pl))
    return out


def _light(group: list[K.Contribution]) -> list[K.Contribution]:
    """The contributions without their envelopes (which can hold a tenth of the rows)."""
    return [dataclasses.replace(c, envelope=c.envelope[:0]) for c in group]


def _shares(group: list[K.Contribution], later: dict[int, float], pl: K.Plan) -> list[K.EnvelopeShare]:
    return [K.envelope_share(c.bucket, c.envelope, later[c.bucket], pl) for c in group]


def _summarise(part: dict[str, Any], max_bins: int, weighted: bool) -> BoundedEvaluation:
    summary = BoundedEvaluation(max_bins=max_bins)
    summary.add_cases(part["c"], part["s"], part["w"] if weighted else None)
    return summary


def _query_part(part: dict[str, Any], weighted: bool, ks: tuple[int, ...]) -> dict[str, Any]:
    return query_partials(part["q"], part["c"], part["s"], part["w"] if weighted else None, ks)


def _add(a: BoundedEvaluation, b: BoundedEvaluation) -> BoundedEvaluation:
    return a + b


def evaluate(
    ddf: Any, label_col: str | None = None, score_col: str | None = None, *, weight_col: str | None = None,
    pos_label: Any = None, misses: int = 0, mode: str = "exact", max_bins: int = 4096, curve_points: int = 1000,
    ranks: tuple[int, ...] = (), partitions: int | None = None, query_col: str | None = None,
    label_cols: list[str] | None = None, score_cols: list[str] | None = None, classes: list[Any] | None = None,
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
    dask = _require()
    import dask.dataframe as dd

    check_frame(ddf, isinstance(ddf, dd.DataFrame), _FUNC, "ddf", "a dask.dataframe.DataFrame")
    mode, max_bins, curve_points, ranks, partitions = check_engine_options(
        _FUNC, mode, max_bins, curve_points, ranks, partitions)
    misses = check_misses_count(misses, _FUNC)
    pos_label = check_pos_label(pos_label, _FUNC)
    if score_cols is not None or label_cols is not None or classes is not None:
        labels, lcols, scols = check_wide_columns(
            _FUNC, list(ddf.columns), label_col=label_col, label_cols=label_cols, score_col=score_col,
            score_cols=score_cols, classes=classes, weight_col=weight_col, query_col=query_col)
        check_wide_setup(_FUNC, label_cols is None, misses, mode, pos_label)
        return _wide(ddf, labels, lcols, scols, label_cols is None, weight_col=weight_col, pos_label=pos_label,
                     curve_points=curve_points, ranks=ranks, partitions=partitions)
    label_col = "label" if label_col is None else label_col
    score_col = "score" if score_col is None else score_col
    check_column_names(_FUNC, list(ddf.columns), label_col=label_col, score_col=score_col, weight_col=weight_col,
                       query_col=query_col)
    check_query_setup(_FUNC, query_col, misses, mode)
    dtypes = ddf.dtypes
    check_label_column(_FUNC, label_col, dtypes[label_col].kind, str(dtypes[label_col]), pos_label)
    check_column_type(_FUNC, "score_col", score_col, str(dtypes[score_col]), "numeric",
                      dtypes[score_col].kind in "iuf")
    if weight_col is not None:
        check_column_type(_FUNC, "weight_col", weight_col, str(dtypes[weight_col]), "numeric",
                          dtypes[weight_col].kind in "iuf")
    delayed = dask.delayed
    cols = [c for c in (label_col, score_col, weight_col, query_col) if c is not None]
    frame = ddf[cols]
    if query_col is not None:  # every query's rows in one partition
        frame = frame.shuffle(query_col, npartitions=partitions) if partitions else frame.shuffle(query_col)
    prepped = [delayed(_prep)(p, label_col, score_col, weight_col, pos_label, query_col) for p in frame.to_delayed()]
    prepped = list(dask.persist(*prepped))
    heads = dask.compute(*[delayed(_head)(p) for p in prepped])
    for arg, column in (("label_col", label_col), ("score_col", score_col), ("weight_col", weight_col),
                        ("query_col", query_col)):
        if column is None:
            continue
        count = sum(h["bad"][arg][0] for h in heads)
        if count:
            example = next(h["bad"][arg][1] for h in heads if h["bad"][arg][0])
            expected = {
                "label_col": "true/false, or 1 (positive) and 0 or -1 (negative): pass pos_label= for other labels"
                if pos_label is None else f"labels comparable with pos_label={pos_label!r} (no null)",
                "score_col": SCORES_EXPECTED,
                "weight_col": WEIGHTS_EXPECTED,
                "query_col": QUERIES_EXPECTED,
            }[arg]
            raise bad_rows(_FUNC, arg, column, expected, count, example)
    mixed = mixed_negatives(_FUNC, label_col, sum(h.get("zeros", 0) for h in heads),
                            sum(h.get("minus", 0) for h in heads))
    if mixed is not None:
        raise mixed
    if weight_col is not None:  # each partition's sum is finite or inf; their sum overflows to inf
        check_weight_total(_FUNC, weight_col, sum((h["total"] for h in heads), 0.0))
    weighted = weight_col is not None and any(h.get("not_one") for h in heads)
    rows = sum(h["rows"] for h in heads)
    if query_col is not None:
        ks = tuple(sorted({*REPORT_RANKS, *ranks}))
        has_w = weight_col is not None
        parts = dask.compute(*[delayed(_query_part)(p, has_w, ks) for p in prepped])
        return DistributedQueryEvaluation(list(parts), ks, engine="dask")
    if mode == "bounded":
        nodes = [delayed(_summarise)(p, max_bins, weighted) for p in prepped]
        while len(nodes) > 1:  # pairwise merges on the workers
            nodes = [delayed(_add)(nodes[i], nodes[i + 1]) if i + 1 < len(nodes) else nodes[i]
                     for i in range(0, len(nodes), 2)]
        total = nodes[0].compute() if nodes else BoundedEvaluation(max_bins=max_bins)
        if misses:
            total.add_misses(misses)
        return total
    if partitions is None:
        partitions = min(64, max(len(prepped), math.ceil(rows / 2_000_000)))
    buckets = max(1, min(4 * partitions, 4 * math.ceil(rows / _ROWS_PER_BUCKET))) if rows else 1
    sample = np.concatenate([_weighted_sample(h, rows, len(heads)) for h in heads]) if heads else np.zeros(0)
    bounds = K.choose_bounds(sample, buckets)
    nb = int(bounds.size) + 1
    groups = min(partitions, nb)
    splits = list(dask.persist(*[delayed(_split)(p, bounds, groups, weighted) for p in prepped]))
    del prepped
    per_partition = dask.compute(*[delayed(_totals)(s, nb, weighted) for s in splits])
    totals = []
    for b in range(nb):
        r = sum(t[b][0] for t in per_partition)
        p = sum(t[b][1] for t in per_partition)
        wp = math.fsum(t[b][2] for t in per_partition) if weighted else None
        wn = math.fsum(t[b][3] for t in per_partition) if weighted else None
        totals.append(K.BucketTotals(r, p, wp, wn))
    pl = K.plan(totals, misses, weighted=weighted, ranks=(*REPORT_RANKS, *ranks, rows), curve_points=curve_points)
    if not weighted:
        pl = K.plan(totals, misses, weighted=False, ranks=(*pl.ranks, min(pl.num_pos + misses, rows)),
                    curve_points=curve_points)
    ranked = list(dask.persist(*[delayed(_rank_group)([s[g] for s in splits], pl) for g in range(groups)]))
    del splits
    parts = [c for group in dask.compute(*[delayed(_light)(r) for r in ranked]) for c in group]
    later = K.later_maxima(parts)  # the envelopes stay on the workers: each group reduces its own
    shares = [x for group in dask.compute(*[delayed(_shares)(r, later, pl) for r in ranked]) for x in group]
    return DistributedEvaluation(K.combine(pl, parts, shares), pos_label=pos_label, engine="dask")


def _pair_frame(pdf: Any, label_col: str, score_col: str, weight_col: str | None, pos_label: Any) -> Any:
    """One partition's (class, score[, weight]) pairs of one label: a piece of the pooled ranking."""
    import pandas as pd

    correct, _ = label_classes(pdf[label_col].to_numpy(), pos_label)
    out = {"c": np.asarray(correct, bool), "s": np.asarray(pdf[score_col].to_numpy(), dtype=np.float64)}
    if weight_col is not None:
        out["w"] = np.asarray(pdf[weight_col].to_numpy(), dtype=np.float64)
    return pd.DataFrame(out, index=pdf.index)


def _not_a_class(pdf: Any, label_col: str, labels: list[Any]) -> tuple[int, Any]:
    """Rows of one partition whose class is none of ``labels`` (count and one of them)."""
    import pandas as pd

    values = pdf[label_col]
    bad = ~np.asarray(values.isin(labels), bool) | np.asarray(pd.isna(values), bool)
    return _fault(bad, values)


def _wide(
    ddf: Any, labels: list[Any], label_cols: list[str], score_cols: list[str], multiclass: bool, *,
    weight_col: str | None, pos_label: Any, curve_points: int, ranks: tuple[int, ...], partitions: int | None,
) -> DistributedMultiLabelEvaluation:
    """k one-vs-rest (or indicator) rankings, each evaluated on the workers, and the micro average's pooled one.

    The pooled ranking is the concatenation of the k (class, score[, weight])
    column pairs, built partition by partition on the workers.
    """
    import dask
    import dask.dataframe as dd
    import pandas as pd

    opts: dict[str, Any] = {"weight_col": weight_col, "curve_points": curve_points, "ranks": ranks,
                            "partitions": partitions}
    if multiclass:  # every row's class is one of the classes: else a row would be negative everywhere
        found = dask.compute(*[dask.delayed(_not_a_class)(p, label_cols[0], labels)
                               for p in ddf[[label_cols[0]]].to_delayed()])
        count = sum(n for n, _ in found)
        if count:
            raise classes_not_found(_FUNC, label_cols[0], labels, count, next(ex for n, ex in found if n))
    per_label = [evaluate(ddf, lc, sc, pos_label=label if multiclass else pos_label, **opts)
                 for label, lc, sc in zip(labels, label_cols, score_cols)]
    meta = {"c": pd.Series(dtype=bool), "s": pd.Series(dtype=np.float64)}
    if weight_col is not None:
        meta["w"] = pd.Series(dtype=np.float64)
    pieces = [ddf.map_partitions(_pair_frame, lc, sc, weight_col, label if multiclass else pos_label,
                                 meta=pd.DataFrame(meta))
              for label, lc, sc in zip(labels, label_cols, score_cols)]
    pooled = evaluate(dd.concat(pieces), "c", "s", **{**opts, "weight_col": "w" if weight_col is not None else None})
    return DistributedMultiLabelEvaluation(labels, per_label, pooled, num_rows=per_label[0].num_cases,
                                           multiclass=multiclass, engine="dask")


def _weighted_sample(head: dict[str, Any], rows: int, parts: int) -> np.ndarray:
    """A partition's sample thinned to its share of the rows, so that a partition weighs as many rows as it holds.

    Each partition sampled up to ``_SAMPLE`` scores; an even share of the
    rows keeps them all, a smaller share keeps proportionally fewer. The
    bounds only balance the buckets: any bounds give the same measures.
    """
    s = head["sample"]
    if not rows or not s.size:
        return s
    want = math.ceil(_SAMPLE * parts * head["rows"] / rows)
    return s[: min(s.size, want)]
