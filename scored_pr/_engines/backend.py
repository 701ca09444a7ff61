"""What an engine provides to the driver: a frame (:class:`Frame`) and the rows of one ranking (:class:`Rows`).

The driver (``driver.py``) decides everything (checks, buckets, plans, the
combination of the parts); an adapter only runs steps where the rows live and
hands back small records: fault totals, a sample of scores, each bucket's
counts, each bucket's ranked share, per-query sums, bounded summaries. What
reaches the driver grows with the buckets, the ranks, ``curve_points`` and
the partitions, never with the rows.

An adapter either implements both protocols itself (Spark: columns as SQL
expressions, steps as Spark jobs) or hands the rows to
``tasks.TaskRows`` with a :class:`Tasks` runner (Dask, Ray: numpy partitions,
steps as tasks).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

import numpy as np
import numpy.typing as npt

from .._core import partitioned as K
from .._core.partitioned_calibration import CalibrationSums
from .._evaluators.bounded import BoundedEvaluation


def require(engine: str, needs: str, *modules: str) -> Any:
    """Import ``modules`` (returns the last), or ImportError saying which extra of scored_pr installs them."""
    try:
        return [importlib.import_module(m) for m in modules][-1]
    except ImportError as e:  # pragma: no cover (the test extras have them)
        raise ImportError(
            f"scored_pr.{engine} needs {needs} ({e.name} is missing): pip install 'scored-pr[{engine}]' "
            f"(in a checkout: pip install '.[{engine}]')"
        ) from e


@dataclass(frozen=True)
class Columns:
    """The columns of one ranking: label, score, optional weight and query id, and the positive label."""

    label: str
    score: str
    weight: str | None = None
    query: str | None = None
    pos_label: Any = None
    #: The slicing features' columns (``by=``): the scan finds their cells.
    by: tuple[str, ...] = ()

    @property
    def names(self) -> list[str]:
        """The columns read, in order (label, score, weight, query, the features; None left out)."""
        return [c for c in (self.label, self.score, self.weight, self.query, *self.by) if c is not None]


@dataclass
class Scan:
    """What one pass over the rows tells the driver before any measure: counts, faults and weight totals.

    ``faults`` maps an argument (``"label_col"``, ``"score_col"``,
    ``"weight_col"``, ``"query_col"``) to (rows at fault, one of their values
    as the engine shows it). ``zeros``/``minus``: rows labelled 0 and -1
    (numeric labels without ``pos_label``); ``total``: the sum of the valid
    weights (inf on overflow); ``not_one``: a weight other than 1 exists.
    With features (``Columns.by``), ``cells`` are the distinct tuples of
    their values (any order; an engine may give NaN and null apart: the driver makes both None), and
    ``cell_not_one`` tells for each whether it has a weight other than 1.
    """

    rows: int
    faults: dict[str, tuple[int, Any]] = field(default_factory=dict)
    zeros: int = 0
    minus: int = 0
    total: float = 0.0
    not_one: bool = False
    cells: list[tuple[Any, ...]] = field(default_factory=list)
    cell_not_one: list[bool] = field(default_factory=list)


#: One partition's (or the whole frame's) counts per bucket: rows, positives, positive and negative weight.
BucketArrays = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64]]


def bucket_arrays(nb: int, records: Sequence[Sequence[Any]]) -> BucketArrays:
    """:data:`BucketArrays` of ``nb`` buckets from records (bucket, rows, positives[, positive and negative
    weight]), one per bucket that has rows (an engine's grouped counts; a null sum is 0)."""
    out = (np.zeros(nb, np.int64), np.zeros(nb, np.int64), np.zeros(nb), np.zeros(nb))
    for record in records:
        for column, value in zip(out, record[1:]):
            column[int(record[0])] = value or 0
    return out


@dataclass(frozen=True)
class Plans:
    """One plan per slice (one in all without slices): key ``g`` of the rows is bucket ``g % width`` of slice
    ``g // width``, measured with that slice's plan; contributions and shares keep the key ``g``."""

    plans: tuple[K.Plan, ...]
    width: int

    @property
    def weighted(self) -> bool:
        """Some slice counts weights (the rows' weights must travel)."""
        return any(p.weighted for p in self.plans)

    def contribution(self, g: int, neg: Any, correct: Any, weight: Any) -> K.Contribution:
        """``K.bucket_contributions`` of key ``g``'s rows."""
        s, b = divmod(g, self.width)
        out = K.bucket_contributions(b, neg, correct, weight, self.plans[s])
        out.bucket = g
        return out

    def share(self, g: int, envelope: Any, later: float) -> K.EnvelopeShare:
        """``K.envelope_share`` of key ``g``'s envelope."""
        return K.envelope_share(g, envelope, later, self.plans[g // self.width])


#: The slices of the rows: (cells x crossings) slice ids, and the number of slices.
Slicing = tuple[npt.NDArray[np.int64], int]


class Ranked(Protocol):
    """The buckets ranked where they live: their shares (envelopes left behind) and a second round for them."""

    parts: list[K.Contribution]

    def shares(self, later: dict[int, float]) -> list[K.EnvelopeShare]:
        """Each bucket's envelope reduced to its share, given the maxima of the later buckets."""

    def close(self) -> None:
        """Release what the ranking keeps in the engine."""


class Rows(Protocol):
    """The rows of one ranking, checked once (:attr:`scan`); each step runs in the engine."""

    scan: Scan
    #: The frame's parallelism: the ranking's default number of tasks is at least this.
    parallelism: int
    #: The most ranking tasks by default (None: no limit).
    max_tasks: int | None

    def sample(self, rows: int, buckets: int) -> npt.NDArray[np.float64]:
        """Scores sampled from the rows (any sample: the bounds only balance the buckets)."""

    def calibration(
        self, bin_counts: tuple[int, ...], weighted: bool, thresholds: npt.NDArray[np.float64] | None = None
    ) -> CalibrationSums:
        """The calibration sums of every row (``_core.partitioned_calibration``), per partition, added; with
        ``thresholds``, the counts at those cut-offs too.

        Runs before :meth:`bucket_totals` (which may hand the rows on to the buckets)."""

    def bucket_totals(
        self, bounds: npt.NDArray[np.float64], groups: int, weighted: bool, slicing: Slicing | None = None,
    ) -> list[BucketArrays]:
        """Per key (bucket of ``bounds``, ``K.bucket_of``; with ``slicing``, slice * buckets + bucket, each row
        once per crossing: the slice of its cell ``Scan.cells[i]`` in crossing ``j`` is ``ids[i, j]``): its
        counts, one entry per partition (or one in all). The keys are cut into ``groups`` contiguous ranges."""

    def rank(self, bounds: npt.NDArray[np.float64], plan: Plans, groups: int) -> Ranked:
        """Every key ranked in one task (``groups`` tasks), measured with its slice's plan."""

    def query_parts(self, ks: tuple[int, ...], groups: int | None, weighted: bool) -> list[dict[str, Any]]:
        """``query_partials`` of every query, each query's rows in one task."""

    def summary(self, max_bins: int, weighted: bool) -> BoundedEvaluation:
        """One :class:`BoundedEvaluation` of every row (per partition, merged in the engine)."""

    def slice_summaries(self, max_bins: int, weighted: bool, slicing: Slicing) -> list[BoundedEvaluation]:
        """One :class:`BoundedEvaluation` per slice (``slicing`` as :meth:`bucket_totals` takes it: each row once
        per crossing), per partition, merged slice by slice in the engine; a slice's weights all 1 are none."""


class Frame(Protocol):
    """A DataFrame of an engine, as the driver sees it."""

    #: The engine's name (``DistributedEvaluation.engine``).
    engine: str

    def columns(self) -> list[str]:
        """The column names, in order (a name may occur twice)."""

    def kind(self, column: str) -> tuple[str, str]:
        """(numpy dtype kind of the column's values, its type's name): ``b``, ``i``, ``u``, ``f``, ``U`` (text),
        ``O`` (values checked one by one), anything else for another type."""

    def rows(self, func: str, cols: Columns) -> Rows:
        """The rows of ``cols``, checked: faults, counts and weight totals in :attr:`Rows.scan`."""

    def not_a_class(self, column: str, classes: list[Any]) -> tuple[int, Any]:
        """Rows whose value in ``column`` is none of ``classes`` (null included): count and one of them."""

    def pooled(self, pairs: Sequence[tuple[str, str, Any]], weight: str | None) -> Frame:
        """A frame of columns ``c`` (bool), ``s`` (float64) and ``w`` (with ``weight``): for each (label column,
        score column, positive label) of ``pairs``, every row's class and score, all pairs one below the other."""


class Tasks(Protocol):
    """A task runner over remote values (Dask delayed, Ray object references): what ``tasks.TaskRows`` needs."""

    def submit(self, fn: Callable[..., Any], *args: Any, returns: int | None = None) -> Any:
        """``fn(*args)`` as a task whose arguments may be remote values; with ``returns``, ``fn`` returns a
        sequence of that length and the task a list of as many handles."""

    def persist(self, handles: list[Any]) -> list[Any]:
        """The handles computed and kept where they ran."""

    def gather(self, handles: list[Any]) -> list[Any]:
        """The values of the handles, on the driver."""
