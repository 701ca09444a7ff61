"""SlicedEvaluation: one evaluator of a chosen kind per slice of the cases (each value of a feature, or crossing).

A slice is a set of (key, value) pairs: ``()`` is every case (the overall
slice), ``(("region", "eu"),)`` the cases whose region is ``"eu"``, and a
crossing ``(("region", "eu"), ("device", "mobile"))`` both. A case goes to
every kept slice it belongs to. Each slice holds an evaluator of the kind
named at construction (made through the registry of kinds), so each slice's
every number is what that evaluator, fed only the slice's cases, gives.

The exact kind stores each case once (``sliced_store.SliceStore``: columns
of correctness, score, weight and one slice id per crossing) and makes a
slice's evaluator only when it is asked for (``slice``, ``ev[pairs]``), from
the slice's rows, as an evaluator fed them would hold them; :meth:`table`
and :meth:`summary` rank every slice at once (one sort by (slice, score),
``_core/slicing.segment_order``) and need no evaluator. A state loaded from
a file or a pickle holds one evaluator per slice, as the other kinds do; a
batch is then cut into its slices by one stable argsort per crossing.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _kinds
from .._core import slicing as G
from .._core.ranking import rank_order
from .._kinds import Kind, register
from .._measures import by_name as measure_by_name
from .._state import sliced as _sliced_state
from .._state.exact import ExactState
from .._validation import (
    UnsupportedQuery,
    check_batch,
    check_correct,
    check_count,
    check_same_setup,
    check_score,
    check_weight,
    check_weights,
    fail,
)
from .._validation.slices import (
    MISSING_TEXT,
    check_feature_names,
    check_features,
    check_max_slices,
    check_slice_keys,
    check_slice_kind,
    check_slice_request,
    check_slice_specs,
    feature_column,
    feature_value,
    no_such_slice,
    slice_text,
    too_many_slices,
)
from . import sliced_table as _sliced_table
from .base import HtmlReport, take_guard, writable
from .exact import add_trusted
from .guard import claim, guarded
from .sliced_queries import SliceGap, SliceQueries, WorstSlice  # noqa: F401 - re-exported
from .sliced_store import SliceStore

_CLS = "SlicedEvaluation"
#: Most combinations of key values whose slice ids add_case keeps (one dict lookup per case instead of one per crossing).
_IDS_KEPT = 1 << 16
#: The subclass of SlicedEvaluation that a kind's slices need (registered by its module), by kind.
VARIANTS: dict[str, type] = {}
#: One slice: its (key, value) pairs, in the order of the evaluation's keys (``()``: overall).
Pairs = tuple[tuple[str, Any], ...]


class SliceKey(tuple):  # type: ignore[type-arg]
    """A slice's (key, value) pairs: a plain tuple that prints as ``region=eu`` (``overall`` for ``()``)."""

    __slots__ = ()

    def __str__(self) -> str:
        return slice_text(tuple(self))


def _ranking_kinds() -> tuple[str, ...]:
    """The registered kinds a slice may hold: one ranking (exact or bounded) with a state file of its own."""
    return tuple(k.name for k in _kinds.KINDS.values() if k.holds in ("ranking", "bounded") and k.state_format)


@guarded
class SlicedEvaluation(SliceQueries, HtmlReport):
    """Every number per segment: one evaluator per slice of the cases, by the values of named features.

    Parameters
    ----------
    keys : str or sequence of str
        The names of the slicing features, e.g. ``("region", "device")``;
        every case gives one value for each (a keyword argument of the add
        methods).
    slices : sequence of tuples of key names, optional
        The crossings kept (TFMA's slicing specs): ``()`` is the overall
        slice, ``("region",)`` one slice per region, ``("region", "device")``
        one per pair of values seen. Default: the overall slice and each key
        alone.
    kind : str, default "exact"
        The registered kind of each slice's evaluator: any kind holding one
        ranking, ``"exact"``, ``"windowed"`` (with ``size=``) or
        ``"bounded"`` (with ``max_bins=``); or ``"multilabel"`` (with
        ``labels=``, and ``window=`` or ``max_bins=``): a
        :class:`MultiLabelEvaluation` per slice, whose add methods take rows
        of labels and scores and whose :meth:`table` has a row per (slice,
        label) (see ``_evaluators/sliced_multilabel.py``).
    max_slices : int, default 10_000
        The most slices (the overall one not counted). A case that would make
        one more is refused with ValueError naming the slice and the count,
        and nothing of its call is added; what was added before stays.
    **kind_options
        Passed to each slice's evaluator (``ties``, ``pos_label``, ``size``,
        ``max_bins``...), checked once here by the kind itself.

    Notes
    -----
    A feature value is a str, int, finite float or bool; None and NaN are the
    missing value, a slice of its own (shown ``(missing)``). Memory, exact
    kind: each case is stored once (correct, score, one int32 slice id per
    crossing other than the overall one: 13 bytes with one key, 8 more
    once a weight is not 1) plus a few hundred bytes per slice (its pairs,
    index entries and miss counts); a slice's evaluator is made only when
    asked for (:meth:`slice`, ``ev[pairs]``), then kept, and fed the
    slice's later cases, until :meth:`reset`. ``add_case`` of the exact
    kind appends to lists (O(1)). :meth:`table` and :meth:`summary` of the
    exact kind rank every slice at once (one sort by (slice, score)) and
    compute every slice's measures in one segmented pass over the result,
    equal bit for bit to each slice's own ``summary()``; they make no
    evaluator per slice. Other kinds, and an evaluation read back from a
    state file or a pickle, hold one evaluator per slice, so a case is
    stored once per kept crossing.

    Examples
    --------
    >>> from scored_pr import SlicedEvaluation
    >>> ev = SlicedEvaluation(("region",))
    >>> ev.add_cases([True, False, True, False], [0.9, 0.8, 0.7, 0.1], region=["eu", "eu", "us", "us"])
    >>> ev.slices()
    [(), (('region', 'eu'),), (('region', 'us'),)]
    >>> ev.slice(region="eu").average_precision(), ev.overall.num_cases
    (1.0, 4)
    >>> [(str(row["slice"]), row["average_precision"]) for row in ev.table(["average_precision"])]
    [('overall', 0.8333333333333333), ('region=eu', 1.0), ('region=us', 1.0)]
    """

    __module__ = "scored_pr"
    __slots__ = (
        "_keys", "_specs", "_positions", "_kind", "_options", "_max_slices", "_cls", "_ties", "_pos_label",
        "_measure_keys", "_table_memo", "_index", "_evs", "_pairs", "_by_pairs", "_count", "_store", "_column_of",
        "_ids_of", "_made",
        "_added", "_guard", "_owner", "_busy", "__weakref__",
    )
    _KIND = _CLS
    _read_only = False  # the evaluation itself is never read-only; its slices' evaluators are to users
    _OWNED = True  # see guard.guarded: add_case and add_cases take the owner's fast path (guard.claim)

    def __init__(
        self,
        keys: Any,
        *,
        slices: Any = None,
        kind: str = "exact",
        max_slices: int = 10_000,
        **kind_options: Any,
    ) -> None:
        func = _CLS
        self._keys = check_slice_keys(keys, func)
        self._specs = check_slice_specs(slices, self._keys, func)
        self._kind = check_slice_kind(kind, _ranking_kinds() + ("multilabel",), func)
        self._max_slices = check_max_slices(max_slices, func)
        self._cls: Any = _kinds.KINDS[self._kind].cls
        proto = self._prototype(kind_options)  # the kind checks its own options, once
        self._options = dict(kind_options)
        self._ties = proto.ties
        self._pos_label = proto.pos_label
        self._measure_keys = self._measures_of(proto)
        self._positions = tuple(tuple(self._keys.index(k) for k in spec) for spec in self._specs)
        # the id column of each crossing in the store (None: the overall slice, every row)
        columns = [j for j, pos in enumerate(self._positions) if pos]
        self._column_of: list[int | None] = [columns.index(j) if j in columns else None for j in range(len(self._specs))]
        claim(self)  # _guard, _owner, _busy: the owner's add_case/add_cases take no lock
        self._clear()

    def __new__(cls, *args: Any, kind: str = "exact", **kwargs: Any) -> SlicedEvaluation:
        # a kind whose slices take other rows (multilabel: sliced_multilabel.py) has its own subclass
        return object.__new__(VARIANTS.get(kind, cls) if cls is SlicedEvaluation and isinstance(kind, str) else cls)

    def _prototype(self, options: dict[str, Any]) -> Any:
        """An empty evaluator of the slices' kind, made with ``options`` (the kind checks them)."""
        return self._cls(**options)

    def _measures_of(self, proto: Any) -> tuple[str, ...]:
        """The names :meth:`table` accepts: the keys of a slice's ``summary()``."""
        return tuple(proto.summary())

    @staticmethod
    def _rows_of(ev: Any) -> int:
        """The cases a slice's evaluator holds (what a loaded overall slice says was seen)."""
        return int(ev.num_cases)

    def _acquire(self, what: str) -> None:
        """Take ``_guard`` for ``what`` without waiting (``base.take_guard``): another thread inside is a RuntimeError."""
        take_guard(self, what)

    def _clear(self) -> None:
        self._table_memo: dict[Any, Any] = {}  # the last table of every slice (see sliced_table.summaries)
        self._index: list[dict[tuple[Any, ...], int]] = [{} for _ in self._specs]
        self._evs: list[Any] = []
        self._pairs: list[SliceKey] = []
        self._by_pairs: dict[Pairs, int] = {}
        self._count = 0  # slices other than the overall one
        self._added = 0
        # the exact kind: every case once, each slice's evaluator made when asked for (then kept, and fed)
        n_columns = sum(1 for pos in self._positions if pos)
        self._store: SliceStore | None = SliceStore(n_columns) if self._kind == "exact" else None
        self._ids_of: dict[tuple[Any, ...], tuple[list[int], tuple[int, ...]]] = {}  # see add_case
        self._made = False  # whether a slice of the store was made into an evaluator (then fed every case)
        if () in self._specs:
            self._new_slice(self._specs.index(()), ())

    def _new_slice(self, j: int, values: tuple[Any, ...]) -> int:
        pairs = SliceKey(zip(self._specs[j], values))
        ev = None
        if self._store is None:
            ev = self._cls(**self._options)
            ev._freeze()
        else:
            self._store.new_slice()
        sid = len(self._evs)
        self._evs.append(ev)
        self._pairs.append(pairs)
        self._by_pairs[pairs] = sid
        self._index[j][values] = sid
        if pairs:
            self._count += 1
        return sid

    # ------------------------------------------------------------------ setup

    @property
    def keys(self) -> tuple[str, ...]:
        """The names of the slicing features."""
        return self._keys

    @property
    def crossings(self) -> tuple[tuple[str, ...], ...]:
        """The crossings kept (``()`` is the overall slice), in the order of their slices."""
        return self._specs

    @property
    def kind(self) -> str:
        """The kind of each slice's evaluator (``"exact"``, ``"windowed"``, ``"bounded"``)."""
        return self._kind

    @property
    def ties(self) -> str:
        """The tie policy of every slice's evaluator."""
        return self._ties

    @property
    def pos_label(self) -> Any:
        """The positive label of every slice's evaluator, or None."""
        return self._pos_label

    @property
    def max_slices(self) -> int:
        """The most slices (the overall one not counted)."""
        return self._max_slices

    @property
    def num_cases_seen(self) -> int:
        """Cases ever added (each counted once, whatever the number of its slices)."""
        return self._added

    # --------------------------------------------------------------- mutators

    def _slice_ids(self, values: tuple[Any, ...], func: str) -> list[int]:
        """The slice of each crossing for one case's values, made if new (all checks first: refused, nothing made)."""
        found: list[int | None] = []
        new = 0
        for j, pos in enumerate(self._positions):
            sub = tuple(values[p] for p in pos)
            sid = self._index[j].get(sub)
            if sid is None and pos:
                new += 1
                if self._count + new > self._max_slices:
                    raise too_many_slices(slice_text(tuple(zip(self._specs[j], sub))), self._count + new,
                                          self._max_slices, func)
            found.append(sid)
        return [sid if sid is not None else self._new_slice(j, tuple(values[p] for p in self._positions[j]))
                for j, sid in enumerate(found)]

    def add_case(self, correct: bool, score: float, weight: float = 1.0, **features: Any) -> None:
        """Add one case to every kept slice it belongs to.

        Parameters
        ----------
        correct, score, weight
            As :meth:`ScoredPrecisionRecallEvaluation.add_case`.
        **features
            One value per key (``region="eu"``): a str, int, finite float or
            bool; None or NaN for a missing value.

        Raises
        ------
        TypeError, ValueError
            For a missing or undeclared key, a value of another type, a bad
            label, score or weight (the message names it), or a case that
            would make slice ``max_slices + 1``; nothing is added.

        Notes
        -----
        O(number of keys) for the exact kind (the case waits in a buffer
        until the next query); one ``add_case`` per kept crossing otherwise.
        """
        keys = self._keys
        values: tuple[Any, ...] = ()
        hit = None
        if len(features) == len(keys):  # fast path: every key given, each a str or an int
            try:
                values = tuple([features[k] for k in keys])
            except KeyError:
                values = ()
            for v in values:
                if type(v) is not str and type(v) is not int:
                    values = ()
                    break
            else:  # only str and int values here, so 1 and True or 1.0 never share an entry
                hit = self._ids_of.get(values)
        if not values:
            values = check_features(features, keys, "add_case")
        if type(correct) is not bool or self._pos_label is not None:
            correct = check_correct(correct, "add_case", pos_label=self._pos_label)
        if type(score) is not float or score != score:
            score = check_score(score, "add_case")
        if type(weight) is not float or weight != 1.0:
            weight = check_weight(weight, "add_case")
        if hit is None:
            ids = []
            for index, pos in zip(self._index, self._positions):
                sid = index.get(values if len(pos) == len(values) else tuple([values[p] for p in pos]))
                if sid is None:  # a new slice: made, or refused, below before anything is added
                    ids = self._slice_ids(values, "add_case")
                    break
                ids.append(sid)
            hit = (ids, tuple(sid for sid, col in zip(ids, self._column_of) if col is not None))
            if len(self._ids_of) < _IDS_KEPT and all(type(v) is str or type(v) is int for v in values):
                self._ids_of[values] = hit
        self._added += 1
        store = self._store
        if store is not None:
            store.add(correct, score, weight, hit[1])
            if not self._made:
                return
        evs = self._evs
        for sid in hit[0]:  # the evaluators made so far (every one without the store)
            if evs[sid] is not None:
                with writable(evs[sid]) as ev:
                    ev.add_case(correct, score, weight)

    def _add_grouped(self, ids: npt.NDArray[np.int64], c: Any, s: Any, w: Any) -> None:
        """Add rows of checked arrays to the slice each row's id names (one stable sort)."""
        order, starts, groups = G.group_rows(ids)
        if groups.size == 1:  # every row in one slice (the overall one): no copy
            self._add_checked(int(groups[0]), c, s, w)
            return
        for g, sid in enumerate(groups.tolist()):
            rows = order[starts[g]:starts[g + 1]]
            self._add_checked(sid, c[rows], s[rows], None if w is None else w[rows])

    def _add_checked(self, sid: int, c: Any, s: Any, w: Any) -> None:
        if w is not None and bool((w == 1.0).all()):  # as check_weights: no weights when each is 1
            w = None
        ev = self._evs[sid]
        if ev is None:  # a slice of the store not made into an evaluator
            return
        with writable(ev):
            if self._kind == "exact":
                add_trusted(ev, c, s, w, "add_cases")
            else:
                ev.add_cases(c, s, w)

    def add_cases(self, correct: Any, scores: Any, sample_weight: Any = None, *, by: Any = None, **columns: Any) -> None:
        """Add a batch of cases, each to every kept slice it belongs to; all or nothing.

        Parameters
        ----------
        correct, scores, sample_weight
            As :meth:`ScoredPrecisionRecallEvaluation.add_cases` (lists,
            numpy, pandas, polars, Arrow, tensors).
        by : DataFrame or mapping, optional
            A pandas or polars DataFrame, an Arrow table or a dict holding a
            column named for each key (other columns are ignored); instead
            of the keyword columns.
        **columns
            One column per key (``region=[...]``), of the batch's length:
            values as in :meth:`add_case`; None, NaN and nulls are missing.

        Raises
        ------
        TypeError, ValueError
            As :meth:`add_case`, naming the key and the row of a refused
            value, or a column of another length; nothing is added.

        Notes
        -----
        O(n log n): each column factorised once, each crossing's rows found
        by one stable argsort; each slice's evaluator then takes its rows as
        one batch.
        """
        func = "add_cases"
        columns = self._batch_columns(by, columns, func)
        c, s = check_batch(correct, scores, func, self._pos_label)
        w = None if sample_weight is None else check_weights(sample_weight, c.size, func)
        row_ids = self._commit_batch(*self._plan_batch(columns, c.size, func))
        self._added += int(c.size)
        if not c.size:
            return
        if self._store is not None:
            self._store.add_batch(c, s, w, [sids for _, sids in row_ids if sids is not None])
            if not self._made:
                return
        for j, sids in row_ids:
            if sids is None:
                self._add_checked(self._index[j][()], c, s, w)
            else:
                self._add_grouped(sids, c, s, w)

    def _batch_columns(self, by: Any, columns: dict[str, Any], func: str) -> dict[str, Any]:
        """The key columns of a batch, from ``by`` or the keyword columns, their names checked."""
        if by is not None:
            if columns:
                raise fail(TypeError, func, "by", "not given with keyword columns", by)
            columns = _frame_columns(by, self._keys, func)
        check_feature_names(columns, self._keys, func)
        return columns

    def _plan_batch(self, columns: dict[str, Any], n: int, func: str) -> tuple[list[Any], list[Any]]:
        """Each crossing's row codes and slices for a batch of ``n`` rows, and the new slices; checks all, changes nothing."""
        coded = [_codes(feature_column(columns[k], k, n, func)) for k in self._keys]
        plan: list[tuple[int, Any, Any]] = []
        new: list[tuple[int, tuple[Any, ...]]] = []
        for j, pos in enumerate(self._positions):
            if not pos:
                plan.append((j, None, None))
                continue
            combined, table = G.cross([coded[p][0] for p in pos], [len(coded[p][1]) for p in pos])
            local = []
            for row in table.tolist():
                values = tuple(coded[p][1][code] for p, code in zip(pos, row))
                sid = self._index[j].get(values)
                if sid is None:
                    new.append((j, values))
                    if self._count + len(new) > self._max_slices:
                        raise too_many_slices(slice_text(tuple(zip(self._specs[j], values))), self._count + len(new),
                                              self._max_slices, func)
                local.append((sid, values))
            plan.append((j, combined, local))
        return plan, new

    def _commit_batch(self, plan: list[Any], new: list[Any]) -> list[tuple[int, npt.NDArray[np.int64] | None]]:
        """Make a planned batch's new slices; each crossing's slice id per row (None: the overall slice)."""
        for j, values in new:
            self._new_slice(j, values)
        out: list[tuple[int, npt.NDArray[np.int64] | None]] = []
        for j, combined, local in plan:
            if combined is None:
                out.append((j, None))
                continue
            sids = np.array([self._index[j][values] for _, values in local], dtype=np.int64)
            same = bool((sids == np.arange(sids.size)).all())  # (the first batch: ids in code order, no gather)
            out.append((j, combined if same else sids[combined]))
        return out

    def _add_counted(self, method: str, count: int, features: dict[str, Any]) -> None:
        values = check_features(features, self._keys, method)
        count = check_count(count, method)
        ids = self._slice_ids(values, method)
        if self._store is not None:
            self._store.add_counts(ids, count if method == "add_misses" else 0, count if method != "add_misses" else 0)
        for sid in ids:
            if self._evs[sid] is not None:
                with writable(self._evs[sid]) as ev:
                    getattr(ev, method)(count)

    def add_misses(self, count: int, **features: Any) -> None:
        """Count positive reference cases never returned, in every kept slice of ``features`` (one value per key)."""
        self._add_counted("add_misses", count, features)

    def add_negative_misses(self, count: int, **features: Any) -> None:
        """Count negative reference cases never returned, in every kept slice of ``features``."""
        self._add_counted("add_negative_misses", count, features)

    def reset(self) -> None:
        """Remove every slice and case; the setup stays."""
        self._clear()

    # ------------------------------------------------------------------ access

    def slice(self, **values: Any) -> Any:
        """The evaluator of one slice, read-only (its add methods raise TypeError): ``slice(region="eu")``.

        No argument is the overall slice; a value None or NaN is the missing
        value. KeyError when the crossing is not kept or no case has those
        values.
        """
        pairs = check_slice_request(values, self._keys, "slice")
        sid = self._by_pairs.get(pairs)
        if sid is None:
            raise no_such_slice(pairs, self._specs, "slice")
        return self._ev(sid)

    @property
    def overall(self) -> Any:
        """The evaluator of every case (read-only); KeyError when ``()`` is not among the crossings kept."""
        return self.slice()

    def slices(self) -> list[SliceKey]:
        """Every slice's (key, value) pairs, in the order first seen (the overall slice ``()`` first)."""
        return list(self._pairs)

    def __len__(self) -> int:
        return len(self._pairs)

    def __iter__(self) -> Iterator[SliceKey]:
        return iter(list(self._pairs))

    def __contains__(self, pairs: object) -> bool:
        return pairs in self._by_pairs

    def __getitem__(self, pairs: Any) -> Any:
        """The evaluator of the slice ``pairs`` (as :meth:`slices` names it), read-only."""
        try:
            sid = self._by_pairs[pairs]
        except (KeyError, TypeError):
            raise KeyError(f"no slice {pairs!r} in this {_CLS}") from None
        return self._ev(sid)

    def __repr__(self) -> str:
        return (f"{_CLS}(keys={self._keys!r}, kind={self._kind!r}, num_slices={len(self._pairs)}, "
                f"num_cases_seen={self._added})")

    # ------------------------------------------------------------------ tables

    def table(self, measures: Any = None) -> list[dict[str, Any]]:
        """One row per slice: its pairs, key values, cases, positives and measures.

        Parameters
        ----------
        measures : sequence of str, optional
            Keys of the slices' ``summary()`` (the table of measures:
            ``"average_precision"``, ``"area_under_roc_curve"``,
            ``"precision_at_10"``...); default every one.

        Returns
        -------
        list of dict
            In the order of :meth:`slices`: ``slice`` (the pairs, printing
            as ``region=eu``), one entry per key (its value; ``"(missing)"``
            for the missing value; None when the slice does not fix that key),
            ``num_cases``, ``num_positive_ref``, then the measures. A
            measure's degenerate value is the evaluator's (NaN for one-class
            slices).
        """
        names = self._check_measures(measures, "table")
        every = self._summaries()
        rows = []
        for pairs, ev, summ in zip(self._pairs, self._evs, every):
            fixed = dict(pairs)
            row: dict[str, Any] = {"slice": pairs}
            for k in self._keys:
                row[k] = (MISSING_TEXT if fixed[k] is None else fixed[k]) if k in fixed else None
            if summ is None:
                row["num_cases"], row["num_positive_ref"] = ev.num_cases, ev.num_positive_ref
                row.update(self._values(ev, names))
            else:
                row["num_cases"], row["num_positive_ref"] = summ["num_cases"], summ["num_positive_ref"]
                row.update(summ if names is None else {n: summ[n] for n in names})
            rows.append(row)
        return rows

    def _summaries(self) -> list[Any]:
        """Every slice's ``summary()`` computed at once (exact kind), else None per slice (each asks its own)."""
        if self._kind != "exact":
            return [None] * len(self._evs)
        if self._store is None:
            return _sliced_table.summaries(self._evs, self._ties, self._table_memo)
        memo = self._table_memo
        if memo.get("version") != (self._store.version, len(self._pairs)):
            seg = self._segments(table=True)
            memo.clear()  # the old rows go before the new ones are made
            memo["rows"] = _sliced_table.segment_summaries_of(
                seg, self._ties, lambda sid, r: self._store_ev(sid, seg, r), self._overall_sid())
            memo["version"] = (self._store.version, len(self._pairs))
        return [dict(row) for row in memo["rows"]]

    # ------------------------------------------------------------ the store

    def _overall_sid(self) -> int | None:
        return self._by_pairs.get(())

    def _segments(self, column: int | None = None, table: bool = False) -> _sliced_table.Segments:
        """Every slice's ranked cases laid end to end, from the store (one sort by (slice, score)).

        With ``column``, the slices of that crossing only (the others' segments empty), kept until the
        next change: :meth:`_ev` makes a crossing's slices from it one after another in O(slice) each.
        With ``table`` (for the table only), few distinct scores, grouped ties, no weights and the overall
        slice kept: every slice (the overall one too) as (slice, score) groups instead of ranked cases
        (``Segments.groups``), counted with no sort.
        """
        store = self._store
        assert store is not None
        if column is not None:
            kept = self._table_memo.get(("crossing", column))
            if kept is not None and kept[0] == (store.version, len(self._pairs)):
                return kept[1]  # type: ignore[no-any-return]
        c, s, w, cols = store.columns()
        neg = np.negative(s)
        overall: tuple[Any, Any, Any] | None = None
        if column is None and self._overall_sid() is not None:
            # the overall slice's ranking first (its evaluator takes it, no sort of its own); grouping the ranked
            # cases by slice, keeping their order, then ranks every slice's cases
            few = G.few_value_ranks(neg) if table and w is None and self._ties == "grouped" else None
            groups = None if few is None else G.slice_score_groups(few[0], few[1], c, cols, len(self._pairs),
                                                                    self._overall_sid())
            if groups is not None:  # every slice's groups of equal scores, the overall's too, counted: no sort
                at = np.zeros(groups[1].size + 1, dtype=np.int64)
                np.cumsum(groups[1], out=at[1:])
                empty = np.zeros(0)
                return _sliced_table.Segments(empty, empty.astype(bool), None, at[groups[3]],
                                              np.asarray(store.misses, dtype=np.int64),
                                              np.asarray(store.negative_misses, dtype=np.int64), None,
                                              _sliced_table.Groups(*groups))
            direct = None if few is not None or w is not None else G.slice_ranking(neg, cols, len(self._pairs))
            if direct is not None:
                # no weights: the overall slice's ranked cases without a permutation (rank_order, as an
                # evaluator fed every case ranks them), and every slice's by one sort of its own: the same
                # arrays as the ranking then the grouping below, with two gathers of every case fewer
                rows, offsets, seg_neg = direct
                overall = (*rank_order(neg, c), None)
                return _sliced_table.Segments(seg_neg, c[rows], None, offsets,
                                              np.asarray(store.misses, dtype=np.int64),
                                              np.asarray(store.negative_misses, dtype=np.int64), overall)
            ranking, neg = G.rank_with_scores(neg, None if few is None else few[1].astype(np.int64))
            c, w = c[ranking], None if w is None else w[ranking]
            overall = (neg, c, w)
            rows, offsets = G.slice_order([col[ranking] for col in cols], len(self._pairs))
        else:
            rows, offsets = G.segment_order(neg, cols if column is None else [cols[column]], len(self._pairs))
        seg_w = None if w is None else w[rows]
        seg = _sliced_table.Segments(neg[rows], c[rows], seg_w, offsets,
                                     np.asarray(store.misses, dtype=np.int64),
                                     np.asarray(store.negative_misses, dtype=np.int64), overall)
        if column is not None:
            memo = self._table_memo
            for key in [k for k in memo if isinstance(k, tuple) and k[0] == "crossing"]:  # stale ones go
                del memo[key]
            memo[("crossing", column)] = ((store.version, len(self._pairs)), seg)
        return seg

    def _store_ev(self, sid: int, seg: _sliced_table.Segments | None, ranked: bool = True) -> Any:
        """A new evaluator of slice ``sid``'s cases, as one fed them holds them (read-only, not kept)."""
        store = self._store
        assert store is not None
        ev = self._evs[sid]
        if ev is not None:
            return ev
        if seg is not None and ranked and (self._pairs[sid] or seg.overall is not None):
            if not self._pairs[sid]:  # the overall slice: every case, ranked when the segments were made
                assert seg.overall is not None
                neg, cor, w = seg.overall
            else:
                a, b = int(seg.offsets[sid]), int(seg.offsets[sid + 1])
                neg, cor = seg.seg_neg[a:b], seg.seg_c[a:b]
                w = None if seg.seg_w is None else seg.seg_w[a:b]
            if w is not None and bool((w == 1.0).all()):
                w = None
            st = ExactState(self._ties, _sealed(neg), _sealed(cor), None if w is None else _sealed(w),
                            store.misses[sid], store.negative_misses[sid], self._pos_label)
            ev = _kinds.KINDS["exact"].from_state(self._cls, st)  # type: ignore[misc]
        else:
            j = self._specs.index(tuple(k for k, _ in self._pairs[sid]))
            rows = store.slice_rows(self._column_of[j], sid)
            c, s, w, _ = store.columns()
            if rows is not None:
                c, s, w = c[rows], s[rows], None if w is None else w[rows]
            if w is not None and bool((w == 1.0).all()):
                w = None
            ev = self._cls(**self._options)
            add_trusted(ev, c, s, w, "slice")
            ev.add_misses(store.misses[sid])
            ev.add_negative_misses(store.negative_misses[sid])
        ev._freeze()
        return ev

    def _ev(self, sid: int) -> Any:
        """Slice ``sid``'s evaluator; of the store, made now and kept (fed every later case of the slice)."""
        ev = self._evs[sid]
        if ev is None:
            pairs = self._pairs[sid]
            seg = None
            j = self._specs.index(tuple(k for k, _ in pairs))
            if pairs:  # a crossing's slices asked one after another (the sinks, the reports): one sort for all
                seg = self._segments(self._column_of[j])
            ev = self._evs[sid] = self._store_ev(sid, seg)
            self._made = True
            if pairs and all(self._evs[o] is not None for o in self._index[j].values()):
                self._table_memo.pop(("crossing", self._column_of[j]), None)  # every slice made: not needed
        return ev

    def _evaluators(self) -> list[Any]:
        """Every slice's evaluator, in the order of :meth:`slices`; those of the store not kept."""
        if self._store is None or all(ev is not None for ev in self._evs):
            return list(self._evs)
        seg = self._segments()
        return [self._store_ev(sid, seg) for sid in range(len(self._evs))]

    def _check_measures(self, measures: Any, func: str) -> tuple[str, ...] | None:
        if measures is None:
            return None
        names = (measures,) if isinstance(measures, str) else measures
        if not isinstance(names, (list, tuple)) or not all(isinstance(m, str) and m in self._measure_keys for m in names):
            raise fail(ValueError, func, "measures", "None or names of the summary's measures "
                       f"({', '.join(self._measure_keys)})", measures)
        return tuple(names)

    @staticmethod
    def _values(ev: Any, names: tuple[str, ...] | None) -> dict[str, Any]:
        if names is None:
            return dict(ev.summary())
        out: dict[str, Any] = {}
        summary = None
        for name in names:
            try:
                m = measure_by_name(name)
            except KeyError:
                m = None
            if m is not None and m.kind in ("count", "measure"):
                try:
                    out[name] = m.compute(ev)
                except ValueError:  # a rank-based measure of weighted cases: NaN, as summary() says
                    out[name] = math.nan
            else:
                summary = ev.summary() if summary is None else summary
                out[name] = summary[name]
        return out

    def to_pandas(self) -> Any:
        """:meth:`table` as a pandas DataFrame (the ``slice`` column as text; pandas must be installed)."""
        import pandas as pd

        rows = self.table()
        return pd.DataFrame([{**r, "slice": str(r["slice"])} for r in rows])

    def summary(self) -> dict[str, Any]:
        """Every slice's ``summary()``, nested under its name: ``{"overall": {...}, "region=eu": {...}}``.

        The sinks flatten it by their one rule (``summary_entries``): a
        measure's name is ``region=eu/average_precision``. A missing value
        is named ``(missing)``.
        """
        return {str(p): dict(ev.summary()) if summ is None else summ
                for p, ev, summ in zip(self._pairs, self._evs, self._summaries())}

    # ------------------------------------------------------------- combining

    def _setup(self) -> tuple[Any, ...]:
        return (self._keys, self._specs, self._kind, self._options, self._max_slices)

    def merge(self, other: SlicedEvaluation) -> SlicedEvaluation:
        """A new evaluation holding the cases of both, slice by slice (each slice its evaluators' ``merge``).

        Both must have the same keys, crossings, kind, options and
        ``max_slices``. A slice's evaluators that cannot be merged (the
        windowed kind) raise UnsupportedQuery.
        """
        if not isinstance(other, SlicedEvaluation):
            raise fail(TypeError, "merge", "other", "a SlicedEvaluation", other)
        check_same_setup(self._setup(), other._setup(), "merge", "other", "keys, crossings, kind, options and max_slices")
        if not hasattr(self._cls, "merge"):
            raise UnsupportedQuery(f"{_CLS}.merge: {self._kind} evaluators cannot be merged; merge the cases instead")
        union = list(self._pairs) + [p for p in other._pairs if p not in self._by_pairs]
        if sum(1 for p in union if p) > self._max_slices:
            raise ValueError(f"merge: the two evaluations have {sum(1 for p in union if p)} slices together, "
                             f"over max_slices={self._max_slices}; nothing was merged.")
        out = SlicedEvaluation(self._keys, slices=self._specs, kind=self._kind, max_slices=self._max_slices, **self._options)
        if self._store is not None and other._store is not None:  # both stores: one store of both, in turn
            for pairs in union:
                if pairs not in out._by_pairs:
                    out._new_slice(self._specs.index(tuple(k for k, _ in pairs)), tuple(v for _, v in pairs))
            map_a = np.array([out._by_pairs[p] for p in self._pairs], dtype=np.int64)
            map_b = np.array([out._by_pairs[p] for p in other._pairs], dtype=np.int64)
            out._store = SliceStore.joined(self._store, other._store, map_a, map_b, len(out._pairs))
        else:
            out._per_slice()
            mine, theirs = self._evaluators(), other._evaluators()
            empty = self._cls(**self._options)
            for pairs in union:
                a = mine[self._by_pairs[pairs]] if pairs in self._by_pairs else empty
                b = theirs[other._by_pairs[pairs]] if pairs in other._by_pairs else empty
                out._put(pairs, a.merge(b))
        out._added = self._added + other._added
        return out

    def _per_slice(self) -> None:
        """Hold one evaluator per slice from now on (a state read back, a merge with one): the store's are made."""
        if self._store is not None:
            self._evs = self._evaluators()
            self._store = None
            self._table_memo = {}

    def _put(self, pairs: Pairs, ev: Any) -> None:
        """Set the evaluator of slice ``pairs`` (made if new): for merge and the state loaders."""
        ev._freeze()
        sid = self._by_pairs.get(pairs)
        if sid is not None:
            self._evs[sid] = ev
            return
        names = tuple(k for k, _ in pairs)
        self._new_slice(self._specs.index(names), tuple(v for _, v in pairs))
        self._evs[-1] = ev

    def __add__(self, other: object) -> SlicedEvaluation:
        if not isinstance(other, SlicedEvaluation):
            return NotImplemented
        return self.merge(other)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SlicedEvaluation):
            return NotImplemented
        if self._setup() != other._setup() or set(self._pairs) != set(other._pairs):
            return False
        mine, theirs = self._evaluators(), other._evaluators()
        return all(bool(ev == theirs[other._by_pairs[p]]) for p, ev in zip(self._pairs, mine))

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ state

    def _state(self) -> _sliced_state.SlicedState:
        entries = [(tuple(p), ev.to_dict()) for p, ev in zip(self._pairs, self._evaluators())]
        return _sliced_state.SlicedState(self._keys, self._specs, self._kind, dict(self._options), self._max_slices, entries)

    @classmethod
    def _from_state(cls, st: _sliced_state.SlicedState, evaluators: list[Any] | None = None) -> SlicedEvaluation:
        try:
            out = cls(st.keys, slices=st.specs, kind=st.kind, max_slices=st.max_slices, **st.options)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"load: the state's setup is refused: {exc}") from None
        if tuple(st.specs) != out._specs:
            raise ValueError("load: the state's crossings are not in their canonical order.")
        out._per_slice()
        for i, (pairs, sub) in enumerate(st.entries):
            key = tuple((k, feature_value(v, k, "load")) for k, v in pairs)
            ev = evaluators[i] if evaluators is not None else out._cls.from_dict(sub)
            if not isinstance(ev, out._cls) or ev.ties != out._ties:
                raise ValueError(f"load: slice {slice_text(key)} holds another kind of evaluator than {st.kind!r}.")
            out._put(key, ev)
        out._added = sum(out._rows_of(ev) for p, ev in zip(out._pairs, out._evs) if not p) if () in out._specs else 0
        return out

    def to_dict(self) -> dict[str, Any]:
        """The state as a JSON-safe dict: the setup and each slice's pairs and evaluator ``to_dict()``.

        Keys: ``format`` (``"scored_pr.SlicedEvaluation"``), ``kind``
        (``"sliced"``), ``version`` (1), ``keys``, ``slices`` (the
        crossings), ``slice_kind``, ``options``, ``max_slices``, ``entries``
        (``[[[key, value], ...], state dict]`` per slice, in the order of
        :meth:`slices`). :meth:`from_dict` reproduces every result exactly.
        """
        return _sliced_state.to_dict(self._state())

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SlicedEvaluation:
        """The evaluation whose :meth:`to_dict` is ``d``; each slice's state checked by its kind's ``from_dict``."""
        return cls._from_state(_sliced_state.from_dict(d))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the state to ``path`` as an uncompressed ``.npz`` (no pickle), atomically.

        The header and the slices' states as one JSON member (about 20
        bytes per case and slice it belongs to).
        """
        _sliced_state.save(self._state(), path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> SlicedEvaluation:
        """Read an evaluation written by :meth:`save`, without pickle (ValueError for a file of another kind)."""
        return cls._from_state(_sliced_state.load(path))

    def __reduce__(self) -> tuple[Any, ...]:
        st = _sliced_state.SlicedState(self._keys, self._specs, self._kind, dict(self._options), self._max_slices,
                                       [(tuple(p), {}) for p in self._pairs])
        return (SlicedEvaluation._from_pickle, (_sliced_state.to_pickle(st, self._evaluators()),))

    @classmethod
    def _from_pickle(cls, state: Any) -> SlicedEvaluation:
        st, evaluators = _sliced_state.from_pickle(state)
        return cls._from_state(st, evaluators)


def _sealed(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A fresh array made read-only, so that the evaluator's store keeps it without a copy."""
    a = np.ascontiguousarray(a)
    if not a.flags.owndata:
        a = a.copy()
    a.setflags(write=False)
    return a


def _codes(column: tuple[np.ndarray, bool]) -> tuple[npt.NDArray[np.int64], list[Any]]:
    """(codes, values) of a checked feature column; a missing value is None among the values."""
    arr, is_object = column
    if is_object:
        index: dict[Any, int] = {}
        codes = np.fromiter((index.setdefault(v, len(index)) for v in arr), dtype=np.int64, count=arr.size)
        return codes, list(index)
    codes, uniques, missing = G.factorize(arr)
    return codes, [*uniques, None] if missing else uniques


def _frame_columns(frame: Any, keys: tuple[str, ...], func: str) -> dict[str, Any]:
    """The key columns of a pandas or polars DataFrame, an Arrow table or a mapping given as ``by``."""
    from .._validation.slices import check_by

    if isinstance(frame, Mapping):
        names = list(frame)
    elif hasattr(frame, "column_names") and hasattr(frame, "column"):  # Arrow Table / RecordBatch
        names = list(frame.column_names)
    elif hasattr(frame, "columns"):  # pandas, polars
        names = [str(c) for c in frame.columns]
    else:
        raise fail(TypeError, func, "by", "a DataFrame, an Arrow table or a dict of columns", frame)
    check_by(frame, names, keys, func)
    if hasattr(frame, "column_names") and hasattr(frame, "column") and not isinstance(frame, Mapping):
        return {k: frame.column(k) for k in keys}
    return {k: frame[k] for k in keys}


def _figures(ev: SlicedEvaluation) -> dict[str, Any]:
    """The flat figures ``scored-pr report`` prints for a sliced state: ``<slice>: <measure>``."""
    out: dict[str, Any] = {"num_slices": len(ev)}
    for name, summary in ev.summary().items():
        for key, value in summary.items():
            out[f"{name}: {key}"] = value
    return out


def state_of(ev: SlicedEvaluation) -> _sliced_state.SlicedState:
    """``ev``'s contents as the record its state file holds (``stream --by``'s checkpoints)."""
    return ev._state()


def from_state(st: _sliced_state.SlicedState) -> SlicedEvaluation:
    """The evaluation a state record holds (a checkpoint read back), checked as :meth:`SlicedEvaluation.load` checks it."""
    return SlicedEvaluation._from_state(st)


def from_evaluators(keys: tuple[str, ...], specs: tuple[tuple[str, ...], ...], kind: str, options: dict[str, Any],
                    max_slices: int, slices: list[tuple[Pairs, Any]]) -> SlicedEvaluation:
    """The evaluation holding each slice's given evaluator (the engines' bounded summaries per slice), checked as
    an unpickled one is: the setup by the constructor, each evaluator's kind and ties."""
    st = _sliced_state.SlicedState(keys, specs, kind, dict(options), max_slices, [(tuple(p), {}) for p, _ in slices])
    return SlicedEvaluation._from_state(st, [ev for _, ev in slices])


__test__ = {"SlicedEvaluation": SlicedEvaluation}

# the missing value's text, re-exported for the command line and the sinks
MISSING = MISSING_TEXT

register(Kind(
    "sliced", SlicedEvaluation, "per_slice", state_format=_sliced_state.FORMAT, load=SlicedEvaluation.load,
    figures=_figures, seen=lambda ev: ev.num_cases_seen,
    scope=lambda ev: _kinds.scope_of(ev._cls(**ev._options)),  # a window per slice: "window" (the sinks' scope label)
))
