"""DistributedSlicedEvaluation: the engines' ``evaluate(..., by=[...])``, one frozen result per slice.

Each slice's :class:`DistributedEvaluation` was computed in the cluster from
that slice's rows only; this class answers as :class:`scored_pr.SlicedEvaluation`
does (``slice(region="eu")``, ``slices()``, ``table()``, ``summary()``) with
the same keys, table columns and summary nesting.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .._validation import fail
from .._validation.slices import MISSING_TEXT, check_slice_request, no_such_slice
from .distributed import DistributedEvaluation
from .sliced import SliceKey

_CLS = "DistributedSlicedEvaluation"


class DistributedSlicedEvaluation:
    """Every exact measure per slice of a DataFrame's rows, computed in the cluster (Spark, Dask, Ray).

    Made by ``scored_pr.spark.evaluate(df, ..., by=[...])`` (and Dask's and
    Ray's), never by hand. Each slice's evaluation equals
    ``ScoredPrecisionRecallEvaluation(ties="grouped")`` fed only that slice's
    rows (as :class:`DistributedEvaluation` equals it for the whole frame),
    so the table equals ``SlicedEvaluation(keys, kind="exact", ties="grouped")``'s
    fed the same rows, but for the calibration entries, which the cluster does
    not compute.

    Notes
    -----
    Slices are ordered as :class:`scored_pr.SlicedEvaluation` orders those of
    numeric and string columns fed in one batch: the overall slice, then each
    crossing's slices in ascending order of their values, the missing value
    last (whatever the partitioning). A null or NaN feature value is the
    missing value, its own slice, shown ``(missing)``. Frozen; pickles as a
    plain object.
    """

    __module__ = "scored_pr"

    def __init__(
        self, keys: tuple[str, ...], crossings: tuple[tuple[str, ...], ...],
        slices: list[tuple[tuple[str, Any], ...]], evaluations: list[DistributedEvaluation], *, engine: str = "",
    ) -> None:
        self._keys, self._specs, self._engine = keys, crossings, engine
        self._slices = {SliceKey(p): ev for p, ev in zip(slices, evaluations)}  # in the order of slices()

    @property
    def keys(self) -> tuple[str, ...]:
        """The slicing features (the ``by`` columns)."""
        return self._keys

    @property
    def crossings(self) -> tuple[tuple[str, ...], ...]:
        """The crossings kept (``()`` is the overall slice)."""
        return self._specs

    @property
    def kind(self) -> str:
        """``"exact"``: each slice is a :class:`DistributedEvaluation`."""
        return "exact"

    @property
    def engine(self) -> str:
        """The engine that computed it (``"spark"``, ``"dask"``, ``"ray"``)."""
        return self._engine

    def slice(self, **values: Any) -> DistributedEvaluation:
        """The evaluation of one slice: ``slice(region="eu")``; no argument is the overall slice.

        A value None or NaN is the missing value. KeyError when the crossing
        is not kept or no row has those values.
        """
        pairs = check_slice_request(values, self._keys, "slice")
        found = self._slices.get(SliceKey(pairs))
        if found is None:
            raise no_such_slice(pairs, self._specs, "slice")
        return found

    @property
    def overall(self) -> DistributedEvaluation:
        """The evaluation of every row; KeyError when ``()`` is not among the crossings kept."""
        return self.slice()

    def slices(self) -> list[SliceKey]:
        """Every slice's (key, value) pairs: the overall slice ``()``, then each crossing's in ascending order
        of their values, the missing value last."""
        return [*self._slices]

    def __len__(self) -> int:
        return len(self._slices)

    def __iter__(self) -> Iterator[SliceKey]:
        return iter(self.slices())

    def __contains__(self, pairs: object) -> bool:
        return isinstance(pairs, tuple) and pairs in self._slices

    def __getitem__(self, pairs: Any) -> DistributedEvaluation:
        """The evaluation of the slice ``pairs`` (as :meth:`slices` names it)."""
        if pairs not in self:
            raise KeyError(f"no slice {pairs!r} in this {_CLS}")
        return self._slices[pairs]

    def __repr__(self) -> str:
        return f"{_CLS}(keys={self._keys!r}, engine={self._engine!r}, num_slices={len(self)})"

    def table(self, measures: Any = None) -> list[dict[str, Any]]:
        """One row per slice, as :meth:`scored_pr.SlicedEvaluation.table`: ``slice``, one entry per key (its
        value, ``"(missing)"``, or None when the slice does not fix it), ``num_cases``, ``num_positive_ref``, then
        the measures of ``summary()`` (``measures``: the names to keep; default every one)."""
        keys = tuple(next(iter(self._slices.values())).summary()) if self._slices else ()
        names = (measures,) if isinstance(measures, str) else measures
        if names is not None and (not isinstance(names, (list, tuple)) or not all(n in keys for n in names)):
            raise fail(ValueError, "table", "measures", f"None or names of the summary's measures ({', '.join(keys)})",
                       measures)
        rows = []
        for pairs, ev in self._slices.items():
            fixed = dict(pairs)
            row: dict[str, Any] = {"slice": pairs}
            for k in self._keys:
                row[k] = (MISSING_TEXT if fixed[k] is None else fixed[k]) if k in fixed else None
            row["num_cases"], row["num_positive_ref"] = ev.num_cases, ev.num_positive_ref
            summary = ev.summary()
            row.update(summary if names is None else {n: summary[n] for n in names})
            rows.append(row)
        return rows

    def to_pandas(self) -> Any:
        """:meth:`table` as a pandas DataFrame (the ``slice`` column as text)."""
        import pandas as pd

        return pd.DataFrame([{**r, "slice": str(r["slice"])} for r in self.table()])

    def summary(self) -> dict[str, Any]:
        """Every slice's ``summary()`` nested under its name: ``{"overall": {...}, "region=eu": {...}}``."""
        return {str(p): ev.summary() for p, ev in self._slices.items()}
