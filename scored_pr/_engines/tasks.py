"""The rows of an engine that runs tasks over pandas partitions (Dask, Ray): every step written once.

An adapter hands :class:`TaskFrame` its partitions and a :class:`backend.Tasks`
runner; the steps below run as tasks where the partitions live, the
partitions' numpy columns stay there between steps (9 bytes a row, 17
weighted), and only small records reach the driver. The per-partition
functions check rows with the evaluator's own rules
(``_validation.label_classes``, ``exact_scores``).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable, Sequence

import numpy as np
import numpy.typing as npt

from .._core import partitioned as K
from .._core import partitioned_calibration as C
from .._evaluators.bounded import BoundedEvaluation
from .._evaluators.distributed import query_partials
from .._validation import MAX_WEIGHT, MIN_WEIGHT, exact_scores, label_classes
from .backend import BucketArrays, Columns, Plans, Scan, Slicing, Tasks

#: Scores sampled per partition for the buckets' bounds.
SAMPLE = 4096
#: The most ranking tasks by default.
MAX_TASKS = 64


# ----------------------------------------------------------------------------- per partition (run in the engine)


def prep(pdf: Any, cols: Columns) -> dict[str, Any]:
    """One partition as numpy columns (class, score, weight, query), its faults and a sample of its scores."""
    import pandas as pd

    labels = pdf[cols.label].to_numpy()
    correct, bad_label = label_classes(labels, cols.pos_label)
    scores, bad_score = exact_scores(pdf[cols.score].to_numpy())
    out: dict[str, Any] = {"c": np.asarray(correct, bool), "s": scores, "w": None, "rows": int(scores.size)}
    out["bad"] = {"label_col": fault(bad_label, pdf[cols.label]), "score_col": fault(bad_score, pdf[cols.score])}
    if cols.pos_label is None and labels.dtype.kind in "iufO":  # 0 and -1 together: the evaluator refuses them
        out["zeros"] = int(np.count_nonzero(np.asarray(labels == 0, bool) & ~bad_label))
        out["minus"] = int(np.count_nonzero(np.asarray(labels == -1, bool) & ~bad_label))
    if cols.weight is not None:
        w = np.asarray(pdf[cols.weight].to_numpy(), dtype=np.float64)
        bad_w = ~np.isfinite(w) | (w < 0) | ((w > 0) & ((w < MIN_WEIGHT) | (w > MAX_WEIGHT)))  # the evaluators' rule
        out["w"] = w
        out["bad"]["weight_col"] = fault(bad_w, pdf[cols.weight])
        out["not_one"] = bool(np.any(w != 1.0))
        with np.errstate(over="ignore"):  # an overflow is inf, refused on the driver
            out["total"] = float(np.sum(w[~bad_w]))
    if cols.query is not None:
        out["q"] = pdf[cols.query].to_numpy()
        out["bad"]["query_col"] = fault(np.asarray(pd.isna(pdf[cols.query]), bool), pdf[cols.query])
    if cols.by:  # each row's cell: the distinct tuples of the features' values, in the order first seen
        groups = pdf.groupby(list(cols.by), dropna=False, sort=False)
        out["k"] = groups.ngroup().to_numpy(np.int64)
        out["cells"] = [tuple(_value(v) for v in (key if len(cols.by) > 1 else (key,))) for key in groups.size().index]
        if cols.weight is not None:
            out["cell_not_one"] = np.bincount(out["k"], weights=out["w"] != 1.0, minlength=len(out["cells"])) > 0
    rng = np.random.default_rng(scores.size)
    finite = scores[~bad_score]
    out["sample"] = finite if finite.size <= SAMPLE else rng.choice(finite, SAMPLE, replace=False)
    return out


def _value(v: Any) -> Any:
    """A feature value as a plain Python value, None when missing (null, NaN): cells found apart then match."""
    import pandas as pd

    if isinstance(v, np.generic):
        v = v.item()
    return None if v is None or (isinstance(v, float) and v != v) or v is pd.NaT or v is pd.NA else v


def fault(mask: Any, column: Any) -> tuple[int, Any]:
    """(rows at fault, the first one's value as a Python value) of a pandas column."""
    n = int(np.count_nonzero(mask))
    example = column.iloc[int(np.argmax(mask))] if n else None
    return n, (example.item() if isinstance(example, np.generic) else example)


def head(part: dict[str, Any]) -> dict[str, Any]:
    """A prepared partition without its columns: what the driver reads of it."""
    return {k: v for k, v in part.items() if k not in ("c", "s", "w", "q", "k")}


def split(
    part: dict[str, Any], bounds: npt.NDArray[np.float64], groups: int, weighted: bool, keys: int,
    ids: npt.NDArray[np.int64] | None = None,
) -> list[Any]:
    """The partition's rows cut by key group (contiguous ranges of the ``keys`` keys): (key, score, class, weight).

    The key is the bucket; with ``ids`` (the slice of each of the partition's cells in each crossing), slice *
    buckets + bucket, and each row comes once per crossing.
    """
    b = K.bucket_of(part["s"], bounds)
    rows: Any = slice(None)
    if ids is not None:
        b = (ids[part["k"]] * (bounds.size + 1) + b[:, None]).T.ravel()  # crossing by crossing
        rows = np.tile(np.arange(part["s"].size), ids.shape[1])
    s, c, w = part["s"][rows], part["c"][rows], part["w"][rows] if weighted else None
    per_group = math.ceil(keys / groups)
    out = []
    for g in range(groups):
        m = (b >= g * per_group) & (b < (g + 1) * per_group)
        out.append((b[m], s[m], c[m], None if w is None else w[m]))
    return out


def calibration_part(part: dict[str, Any], bin_counts: tuple[int, ...], weighted: bool,
                     thresholds: npt.NDArray[np.float64] | None = None) -> C.CalibrationSums:
    """One partition's calibration sums (and counts at ``thresholds``)."""
    return C.partition_sums(part["s"], part["c"], part["w"] if weighted else None, bin_counts, thresholds)


def pick(values: Sequence[Any], i: int) -> Any:
    """``values[i]``, as a task."""
    return values[i]


def totals(nb: int, weighted: bool, *pieces: Any) -> BucketArrays:
    """One partition's counts per bucket, from its pieces."""
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
    return rows, pos, wp, wn


def rank_buckets(
    b: npt.NDArray[np.int64], s: npt.NDArray[np.float64], c: npt.NDArray[np.bool_],
    w: npt.NDArray[np.float64] | None, pl: Plans,
) -> list[K.Contribution]:
    """Every key among the rows ranked and measured with its slice's plan (a key's rows all here).

    One stable sort by key, then each key's rows as a run: O(n log n) however many keys (slices x buckets).
    """
    order = np.argsort(b, kind="stable")
    keys, starts = np.unique(b[order], return_index=True)
    ends = [*starts[1:].tolist(), b.size]
    out = []
    for key, start, end in zip(keys.tolist(), starts.tolist(), ends):
        m = order[start:end]
        out.append(pl.contribution(key, -s[m], c[m], None if w is None else w[m]))
    return out


def rank_group(pl: Plans, *pieces: Any) -> list[K.Contribution]:
    """The buckets of one group, their pieces gathered from every partition, ranked."""
    if not pieces:
        return []
    w = np.concatenate([p[3] for p in pieces]) if pl.weighted else None
    return rank_buckets(np.concatenate([p[0] for p in pieces]), np.concatenate([p[1] for p in pieces]),
                        np.concatenate([p[2] for p in pieces]), w, pl)


def light(group: list[K.Contribution]) -> list[K.Contribution]:
    """The contributions without their envelopes (which can hold a tenth of the rows)."""
    return [dataclasses.replace(c, envelope=c.envelope[:0]) for c in group]


def shares(group: list[K.Contribution], later: dict[int, float], pl: Plans) -> list[K.EnvelopeShare]:
    """Each contribution's envelope reduced to its share."""
    return [pl.share(c.bucket, c.envelope, later[c.bucket]) for c in group]


def summarise(part: dict[str, Any], max_bins: int, weighted: bool) -> BoundedEvaluation:
    """One partition's bounded summary."""
    summary = BoundedEvaluation(max_bins=max_bins)
    summary.add_cases(part["c"], part["s"], part["w"] if weighted else None)
    return summary


def add(a: BoundedEvaluation, b: BoundedEvaluation) -> BoundedEvaluation:
    """Two summaries merged."""
    return a + b


def summarise_slices(k: npt.NDArray[np.int64], c: Any, s: Any, w: Any, max_bins: int, weighted: bool,
                     slices: int) -> list[BoundedEvaluation]:
    """One bounded summary per slice of rows keyed by slice (``k``): the rows of each slice as one batch, in order.

    A slice's weights that are all 1 are no weights, as a slice's evaluator of ``SlicedEvaluation`` takes them.
    """
    out = [BoundedEvaluation(max_bins=max_bins) for _ in range(slices)]
    if not k.size:
        return out
    order = np.argsort(k, kind="stable")
    ks = k[order]
    starts = np.flatnonzero(np.r_[True, ks[1:] != ks[:-1]])
    for a, b in zip(starts, np.r_[starts[1:], ks.size]):
        rows = order[a:b]
        wr = w[rows] if weighted and w is not None else None
        out[int(ks[a])].add_cases(c[rows], s[rows], None if wr is None or bool((wr == 1.0).all()) else wr)
    return out


def summarise_part_slices(part: dict[str, Any], max_bins: int, weighted: bool, ids: npt.NDArray[np.int64],
                          slices: int) -> list[BoundedEvaluation]:
    """A partition's bounded summary per slice: each row once per crossing, in the slice of its cell there."""
    k = ids[part["k"]].T.ravel()  # crossing by crossing
    rows = np.tile(np.arange(part["s"].size), ids.shape[1])
    w = part["w"][rows] if weighted and part["w"] is not None else None
    return summarise_slices(k, part["c"][rows], part["s"][rows], w, max_bins, weighted, slices)


def add_each(a: list[BoundedEvaluation], b: list[BoundedEvaluation]) -> list[BoundedEvaluation]:
    """Two lists of summaries (one per slice) merged slice by slice."""
    return [x + y for x, y in zip(a, b)]


def query_split(part: dict[str, Any], groups: int, weighted: bool) -> list[Any]:
    """The partition's rows cut by a hash of their query id: a query's rows land in one group from any partition.

    Numbers hash as float64 (1 and 1.0 alike), anything else as its text;
    two queries sharing a group is harmless, one query in two groups is not.
    """
    import pandas as pd

    q = part["q"]
    if q.dtype.kind in "biuf":
        keys = q.astype(np.float64)
    else:
        keys = np.array([float(x) if isinstance(x, (int, float, np.number)) and not isinstance(x, bool) else x
                         for x in q.tolist()], dtype=object)
    g = (pd.util.hash_array(keys) % np.uint64(groups)).astype(np.int64) if keys.size else np.zeros(0, np.int64)
    return [(q[g == i], part["c"][g == i], part["s"][g == i], part["w"][g == i] if weighted else None)
            for i in range(groups)]


def query_group(ks: tuple[int, ...], weighted: bool, *pieces: Any) -> dict[str, Any]:
    """``query_partials`` of the queries of one group, their rows gathered from every partition."""
    w = np.concatenate([p[3] for p in pieces]) if weighted else None
    return query_partials(np.concatenate([p[0] for p in pieces]), np.concatenate([p[1] for p in pieces]),
                          np.concatenate([p[2] for p in pieces]), w, ks)


def pair_frame(pdf: Any, label_col: str, score_col: str, weight_col: str | None, pos_label: Any) -> Any:
    """One partition's (class, score[, weight]) pairs of one label: a piece of the pooled ranking."""
    import pandas as pd

    correct, _ = label_classes(pdf[label_col].to_numpy(), pos_label)
    out = {"c": np.asarray(correct, bool), "s": np.asarray(pdf[score_col].to_numpy(), dtype=np.float64)}
    if weight_col is not None:
        out["w"] = np.asarray(pdf[weight_col].to_numpy(), dtype=np.float64)
    return pd.DataFrame(out, index=pdf.index)


def not_a_class(pdf: Any, label_col: str, labels: list[Any]) -> tuple[int, Any]:
    """Rows of one partition whose class is none of ``labels`` (count and one of them)."""
    import pandas as pd

    values = pdf[label_col]
    return fault(~np.asarray(values.isin(labels), bool) | np.asarray(pd.isna(values), bool), values)


# ----------------------------------------------------------------------------- on the driver


class _Ranked:
    """The ranked groups kept in the engine; their light parts on the driver."""

    def __init__(self, tasks: Tasks, ranked: list[Any], pl: Plans) -> None:
        self._tasks, self._ranked, self._plan = tasks, ranked, pl
        self.parts = [c for group in tasks.gather([tasks.submit(light, r) for r in ranked]) for c in group]

    def shares(self, later: dict[int, float]) -> list[K.EnvelopeShare]:
        t = self._tasks
        return [x for group in t.gather([t.submit(shares, r, later, self._plan) for r in self._ranked]) for x in group]

    def close(self) -> None:
        self._ranked = []


class TaskRows:
    """The rows of one ranking as prepared partitions kept in the engine (:class:`backend.Rows`)."""

    max_tasks: int | None = MAX_TASKS

    def __init__(self, tasks: Tasks, partitions: list[Any], cols: Columns) -> None:
        self._tasks = tasks
        self._prepped = tasks.persist([tasks.submit(prep, p, cols) for p in partitions])
        self._heads = tasks.gather([tasks.submit(head, p) for p in self._prepped])
        self.parallelism = len(self._prepped)
        self._splits: list[list[Any]] = []
        cells: dict[tuple[Any, ...], int] = {}  # every partition's cells as one list, in the order first seen
        self._remaps = [np.array([cells.setdefault(c, len(cells)) for c in h.get("cells", [])], np.int64)
                        for h in self._heads]
        not_one = np.zeros(len(cells), bool)
        for h, remap in zip(self._heads, self._remaps):
            if "cell_not_one" in h:
                not_one[remap] |= h["cell_not_one"]
        faults: dict[str, tuple[int, Any]] = {}
        for arg in ("label_col", "score_col", "weight_col", "query_col"):
            found = [h["bad"][arg] for h in self._heads if arg in h["bad"]]
            count = sum(n for n, _ in found)
            faults[arg] = (count, next((ex for n, ex in found if n), None))
        self.scan = Scan(
            rows=sum(h["rows"] for h in self._heads), faults=faults,
            zeros=sum(h.get("zeros", 0) for h in self._heads), minus=sum(h.get("minus", 0) for h in self._heads),
            total=sum((h.get("total", 0.0) for h in self._heads), 0.0),  # each finite or inf; the sum overflows to inf
            not_one=any(h.get("not_one") for h in self._heads), cells=list(cells), cell_not_one=not_one.tolist(),
        )

    def sample(self, rows: int, buckets: int) -> npt.NDArray[np.float64]:
        """Each partition's sample thinned to its share of the rows (a partition weighs as many rows as it holds)."""
        out = []
        for h in self._heads:
            s = h["sample"]
            want = math.ceil(SAMPLE * len(self._heads) * h["rows"] / rows) if rows else s.size
            out.append(s[: min(s.size, want)])
        return np.concatenate(out) if out else np.zeros(0)

    def calibration(self, bin_counts: tuple[int, ...], weighted: bool,
                    thresholds: npt.NDArray[np.float64] | None = None) -> C.CalibrationSums:
        t = self._tasks
        parts = t.gather([t.submit(calibration_part, p, bin_counts, weighted, thresholds) for p in self._prepped])
        return C.merge(parts, bin_counts, thresholds)

    def bucket_totals(
        self, bounds: npt.NDArray[np.float64], groups: int, weighted: bool, slicing: Slicing | None = None,
    ) -> list[BucketArrays]:
        t = self._tasks
        keys = (int(bounds.size) + 1) * (1 if slicing is None else slicing[1])
        self._splits = [t.persist(t.submit(split, p, bounds, groups, weighted, keys,
                                           None if slicing is None else slicing[0][remap], returns=groups))
                        for p, remap in zip(self._prepped, self._remaps)]
        self._prepped = []  # the rows live on in the splits
        return list(t.gather([t.submit(totals, keys, weighted, *pieces) for pieces in self._splits]))

    def rank(self, bounds: npt.NDArray[np.float64], plan: Plans, groups: int) -> _Ranked:
        t = self._tasks
        ranked = t.persist([t.submit(rank_group, plan, *[s[g] for s in self._splits]) for g in range(groups)])
        self._splits = []
        return _Ranked(t, ranked, plan)

    def query_parts(self, ks: tuple[int, ...], groups: int | None, weighted: bool) -> list[dict[str, Any]]:
        t = self._tasks
        n = groups or max(1, len(self._prepped))
        if not self._prepped:
            return [query_partials(np.zeros(0), np.zeros(0, bool), np.zeros(0), None, ks)]
        pieces = [t.submit(query_split, p, n, weighted, returns=n) for p in self._prepped]
        return list(t.gather([t.submit(query_group, ks, weighted, *[p[g] for p in pieces]) for g in range(n)]))

    def summary(self, max_bins: int, weighted: bool) -> BoundedEvaluation:
        t = self._tasks
        return self._merged([t.submit(summarise, p, max_bins, weighted) for p in self._prepped], add,
                            BoundedEvaluation(max_bins=max_bins))

    def slice_summaries(self, max_bins: int, weighted: bool, slicing: Slicing) -> list[BoundedEvaluation]:
        t = self._tasks
        ids, n = slicing
        nodes = [t.submit(summarise_part_slices, p, max_bins, weighted, ids[remap], n)
                 for p, remap in zip(self._prepped, self._remaps)]
        return self._merged(nodes, add_each, [BoundedEvaluation(max_bins=max_bins) for _ in range(n)])  # type: ignore[no-any-return]

    def _merged(self, nodes: list[Any], merge: Callable[[Any, Any], Any], empty: Any) -> Any:
        """The tasks' results merged pairwise in the engine (``empty`` when there is none)."""
        t = self._tasks
        while len(nodes) > 1:
            nodes = [t.submit(merge, nodes[i], nodes[i + 1]) if i + 1 < len(nodes) else nodes[i]
                     for i in range(0, len(nodes), 2)]
        return t.gather(nodes)[0] if nodes else empty


class TaskFrame:
    """The steps of :class:`backend.Frame` an engine of pandas partitions shares; an adapter adds
    ``engine``, ``columns``, ``kind``, ``pooled``, ``_tasks`` and ``_partitions``."""

    engine: str
    _tasks: Tasks

    def _partitions(self, columns: list[str]) -> list[Any]:
        """Handles of the frame's partitions as pandas DataFrames of ``columns``."""
        raise NotImplementedError

    def rows(self, func: str, cols: Columns) -> TaskRows:
        """The rows of ``cols``, prepared in the engine and checked."""
        return TaskRows(self._tasks, self._partitions(cols.names), cols)

    def not_a_class(self, column: str, classes: list[Any]) -> tuple[int, Any]:
        """Rows whose class is none of ``classes``: count and one of them."""
        t = self._tasks
        found = t.gather([t.submit(not_a_class, p, column, classes) for p in self._partitions([column])])
        return sum(n for n, _ in found), next((ex for n, ex in found if n), None)

