"""A SlicedEvaluation of kind "multilabel": one MultiLabelEvaluation per slice (per slice, per label).

``SlicedEvaluation(keys, kind="multilabel", labels=[...], **options)`` makes
an instance of :class:`SlicedMultiLabel` (``SlicedEvaluation.__new__``): the
same evaluation (slices, crossings, ``max_slices``, merge, ``==``, pickle,
``to_dict``, ``save``/``load``), whose add methods take rows as
:class:`~scored_pr.MultiLabelEvaluation` takes them (an indicator or label
matrix ``Y`` (n, k), or class labels (n,), and scores ``S`` (n, k)) beside
the key columns, and whose :meth:`SlicedMultiLabel.table` has one row per
(slice, label). Each slice's evaluator is a ``MultiLabelEvaluation`` of the
options given (``labels``, ``ties``, ``pos_label``, ``window``,
``max_bins``), read-only to users, equal to one fed only the slice's rows in
the same calls.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import slicing as G
from .._measures import MEASURES
from .._validation import UnsupportedQuery, check_choice, fail
from .._validation.slices import MISSING_TEXT, check_features
from .base import writable
from .guard import guarded
from .multilabel import add_rows_trusted
from .sliced import VARIANTS, SlicedEvaluation

_CLS = "SlicedEvaluation"
#: The averages over labels one row per slice can give (``table(average=...)``).
_AVERAGES = ("macro", "micro", "weighted", "samples")


@guarded
class SlicedMultiLabel(SlicedEvaluation):
    """One :class:`~scored_pr.MultiLabelEvaluation` per slice: made by ``SlicedEvaluation(..., kind="multilabel")``.

    Every method is :class:`~scored_pr.SlicedEvaluation`'s but the add
    methods (rows of labels and scores, as ``MultiLabelEvaluation`` takes
    them), :meth:`table` (a row per slice and label, or per slice at one
    average) and the per-slice comparisons (:meth:`worst`, :meth:`gaps`, the
    decisions and the HTML page), which need one ranking per slice and raise
    UnsupportedQuery: ask them of a slice's label, ``ev.slice(region="eu")["cat"]``.

    ``summary()`` nests each slice's ``MultiLabelEvaluation.summary()`` under
    the slice's name (slice, then ``labels``, then label); the sinks' one
    rule flattens it as ``region=eu/labels/cat/average_precision`` and
    ``region=eu/average_precision`` per average.
    """

    __slots__ = ("_proto",)

    def __init__(
        self, keys: Any, *, slices: Any = None, kind: str = "multilabel", max_slices: int = 10_000, **kind_options: Any,
    ) -> None:
        if "labels" not in kind_options:
            raise fail(TypeError, _CLS, "labels", "the label names or count of kind='multilabel' (labels=[...])", None)
        super().__init__(keys, slices=slices, kind=kind, max_slices=max_slices, **kind_options)

    def _prototype(self, options: dict[str, Any]) -> Any:
        self._proto = self._cls(**options)  # also checks each row's labels and scores (its _checked)
        return self._proto

    def _measures_of(self, proto: Any) -> tuple[str, ...]:
        return tuple(proto[proto.labels[0]].summary())  # a label's measures: the table's columns

    @staticmethod
    def _rows_of(ev: Any) -> int:
        return int(ev.num_rows_seen)

    @property
    def labels(self) -> list[Any]:
        """The label names of every slice's evaluator, in column order."""
        return list(self._proto.labels)

    # --------------------------------------------------------------- mutators

    def add_case(self, y_row: Any, s_row: Any, weight: float = 1.0, **features: Any) -> None:  # type: ignore[override]
        """Add one row to every kept slice it belongs to.

        Parameters
        ----------
        y_row, s_row, weight
            As :meth:`MultiLabelEvaluation.add_case`: k indicators (or one
            class label), k scores, the row's weight.
        **features
            One value per key (``region="eu"``), as
            :meth:`SlicedEvaluation.add_case`.

        Raises
        ------
        TypeError, ValueError
            Naming ``add_case`` and the argument; nothing is added.
        """
        values = check_features(features, self._keys, "add_case")
        truth, scores, w = self._proto._checked_row(y_row, s_row, weight, "add_case")
        ids = self._slice_ids(values, "add_case")
        self._added += 1
        for sid in ids:
            self._add_rows(sid, truth, scores, w)

    def add_cases(  # type: ignore[override]
        self, Y: Any, S: Any, sample_weight: Any = None, *, by: Any = None, **columns: Any,
    ) -> None:
        """Add n rows, each to every kept slice it belongs to; all or nothing.

        Parameters
        ----------
        Y, S, sample_weight
            As :meth:`MultiLabelEvaluation.add_cases`: a label matrix (n, k)
            or class labels (n,), scores (n, k), one weight per row.
        by : DataFrame or mapping, optional
            The key columns, as :meth:`SlicedEvaluation.add_cases`.
        **columns
            One column per key, of n values.

        Raises
        ------
        TypeError, ValueError
            Naming ``add_cases``, the argument and the row of a refused
            value; nothing is added.

        Notes
        -----
        O(n k log n): the rows of each crossing's slices found by one stable
        argsort, each slice's evaluator then takes its rows as one batch.
        """
        func = "add_cases"
        columns = self._batch_columns(by, columns, func)
        truth, scores, w = self._proto._checked(Y, S, sample_weight, func)
        n = truth.shape[0]
        row_ids = self._commit_batch(*self._plan_batch(columns, n, func))
        self._added += n
        if not n:
            return
        for j, sids in row_ids:
            if sids is None:
                self._add_rows(self._index[j][()], truth, scores, w)
                continue
            order, starts, groups = G.group_rows(sids)
            for g, sid in enumerate(groups.tolist()):
                rows = order[starts[g]:starts[g + 1]]
                self._add_rows(sid, truth[rows], scores[rows], None if w is None else w[rows])

    def _add_rows(self, sid: int, truth: npt.NDArray[np.bool_], scores: npt.NDArray[np.float64],
                  w: npt.NDArray[np.float64] | None) -> None:
        if w is not None and bool((w == 1.0).all()):  # as check_weights: no weights when each is 1
            w = None
        with writable(self._evs[sid]) as ev:
            add_rows_trusted(ev, truth, scores, w)

    def add_misses(self, count: int, **features: Any) -> None:
        """Refused: a multi-label evaluation counts no misses (UnsupportedQuery)."""
        raise UnsupportedQuery(f"{_CLS}.add_misses: MultiLabelEvaluation slices count no misses")

    def add_negative_misses(self, count: int, **features: Any) -> None:
        """Refused: a multi-label evaluation counts no misses (UnsupportedQuery)."""
        raise UnsupportedQuery(f"{_CLS}.add_negative_misses: MultiLabelEvaluation slices count no misses")

    # ------------------------------------------------------------------ tables

    def table(self, measures: Any = None, *, average: str | None = None) -> list[dict[str, Any]]:
        """One row per (slice, label), or with ``average`` one row per slice.

        Parameters
        ----------
        measures : sequence of str, optional
            Without ``average``: keys of a label's ``summary()``
            (``"average_precision"``, ``"precision_at_10"``...); with it:
            the measures averaged over labels (``"average_precision"``,
            ``"area_under_roc_curve"``). Default every one.
        average : {"macro", "micro", "weighted", "samples"}, optional
            One row per slice with each measure at that average over its
            labels, as ``MultiLabelEvaluation.summary()`` gives it
            (scikit-learn's rules; NaN where the slice's kind has no such
            average: ``"samples"`` of a bounded kind).

        Returns
        -------
        list of dict
            In the order of :meth:`slices` (and of the labels within a
            slice): ``slice``, one entry per key (as
            :meth:`SlicedEvaluation.table`), ``label`` (without
            ``average``) or ``average``, ``num_rows`` (the slice's rows),
            then per label ``num_cases``, ``num_positive_ref`` and the
            measures. A measure's degenerate value is the evaluator's (NaN
            for a label of one class in the slice).
        """
        over = tuple(m.name for m in MEASURES if m.over_labels)
        names: tuple[str, ...] | None
        if average is not None:
            average = check_choice(average, "table", "average", _AVERAGES)
            asked = over if measures is None else (measures,) if isinstance(measures, str) else measures
            if not isinstance(asked, (list, tuple)) or not all(isinstance(m, str) and m in over for m in asked):
                raise fail(ValueError, "table", "measures", f"None or measures averaged over labels ({', '.join(over)})",
                           measures)
            names = tuple(asked)
        else:
            names = self._check_measures(measures, "table")
        rows = []
        for pairs, ev in zip(self._pairs, self._evs):
            fixed = dict(pairs)
            head: dict[str, Any] = {"slice": pairs}
            for k in self._keys:
                head[k] = (MISSING_TEXT if fixed[k] is None else fixed[k]) if k in fixed else None
            if average is not None:
                summ = ev.summary()
                rows.append({**head, "average": average, "num_rows": summ["num_rows"],
                             **{n: summ[n].get(average, math.nan) for n in names or ()}})
                continue
            for label in ev.labels:
                one = ev[label]
                rows.append({**head, "label": label, "num_rows": ev.num_rows, "num_cases": one.num_cases,
                             "num_positive_ref": one.num_positive_ref, **self._values(one, names)})
        return rows

    # ------------------------------------------------------------ refusals

    def _one_ranking(self, method: str) -> UnsupportedQuery:
        return UnsupportedQuery(f"{_CLS}.{method}: the slices hold MultiLabelEvaluations, one ranking per label; "
                                "ask it of a slice's label (ev.slice(region=...)[label])")

    def worst(self, *args: Any, **kwargs: Any) -> Any:
        """Refused (UnsupportedQuery): the slices hold one ranking per label, not one."""
        raise self._one_ranking("worst")

    def gaps(self, *args: Any, **kwargs: Any) -> Any:
        """Refused (UnsupportedQuery): the slices hold one ranking per label, not one."""
        raise self._one_ranking("gaps")

    def operating_point(self, *args: Any, **kwargs: Any) -> Any:
        """Refused (UnsupportedQuery): the slices hold one ranking per label, not one."""
        raise self._one_ranking("operating_point")

    def min_cost_threshold(self, *args: Any, **kwargs: Any) -> Any:
        """Refused (UnsupportedQuery): the slices hold one ranking per label, not one."""
        raise self._one_ranking("min_cost_threshold")

    def to_html(self, *args: Any, **kwargs: Any) -> Any:
        """Refused (UnsupportedQuery): the page of a sliced evaluation shows one ranking per slice."""
        raise self._one_ranking("to_html")

    def _repr_html_(self) -> None:  # type: ignore[override]
        """None: a notebook shows the text repr (the page shows one ranking per slice)."""
        return None


VARIANTS["multilabel"] = SlicedMultiLabel
