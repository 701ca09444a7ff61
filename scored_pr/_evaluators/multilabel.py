"""``MultiLabelEvaluation``: k binary rankings (one per label) fed row by row, averaged as scikit-learn.

The evaluator stores what its kind needs, validates at the boundary and
delegates: the averaged measures of the exact and windowed kinds are
computed from the stored rows by :mod:`scored_pr._core.multilabel` (every
label sorted in one vectorised pass), the per-label evaluators are the
library's binary evaluators, so every query, state file, plot, assertion
and logger of :class:`scored_pr.Evaluation` works per label.
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import multilabel as _ml
from .._core import topclass as _top
from .._state import multilabel as _ml_state
from .._validation import (
    as_array,
    check_average,
    check_choice,
    check_classes,
    check_curve_average,
    check_grouped_for_bins,
    check_label_matrix,
    check_label_names,
    check_not_both,
    check_one_vs_one_rows,
    check_pos_label,
    check_positive_int,
    check_same_length,
    check_same_setup,
    check_score_matrix,
    check_shape,
    check_ties,
    check_type_named,
    check_weight,
    check_weights,
    dense_labels,
)
from .._kinds import Kind, register
from .._measures import MEASURES, Measure
from .base import unsupported
from .guard import SHARED_OWNER, claim, guarded
from .base import HtmlReport, take_guard
from .bounded import Bounds, BoundedEvaluation
from .exact import ScoredPrecisionRecallEvaluation
from .multilabel_calibration import LabelCalibrationQueries
from .multilabel_top import TopClassQueries
from .windowed import WindowedEvaluation

_CLS = "MultiLabelEvaluation"
_AVERAGES = (None, "micro", "macro", "weighted", "samples")
#: The measures this class averages itself (a method taking ``average``, scikit-learn's rules);
#: any other averaged entry of the table of measures is averaged from the labels' evaluators.
_SELF_AVERAGED = ("average_precision", "area_under_roc_curve")
#: Single rows (add_case) are joined into one chunk every this many rows: small arrays cost about
#: 100 bytes of overhead each, so a stream of single rows keeps about 9 bytes per (row, label) too.
_PENDING = 256
F64 = npt.NDArray[np.float64]
Bool = npt.NDArray[np.bool_]


@guarded
class MultiLabelEvaluation(TopClassQueries, LabelCalibrationQueries, HtmlReport):
    """k binary rankings, one per label, fed by rows of an indicator matrix and an (n, k) score matrix.

    Parameters
    ----------
    labels : int or list of str/int
        The number of labels k (named 0 .. k-1) or their k distinct names, in
        column order.
    ties : {"grouped", "stable"}, default "grouped"
        The tie policy of the per-label evaluators ``ev[label]``. The averaged
        measures are scikit-learn's, whose ties are always grouped.
    window : int, optional
        Keep only the last ``window`` rows: ``ev[label]`` is then a
        :class:`~scored_pr.WindowedEvaluation` of that size and every
        averaged measure is that of the rows in the window.
    pos_label : optional
        The value read as positive in a label matrix, as the binary
        evaluator's ``pos_label`` (every other value is negative). None: bool,
        0/1 or -1/1 labels, as the binary evaluator (scikit-learn's indicator
        matrix is 0/1 or bool).
    max_bins : int, optional
        Bounded memory: no row is kept; each label is a
        :class:`~scored_pr.BoundedEvaluation` of ``max_bins`` bins (and a
        pooled one answers ``"micro"``). Averages are then :class:`Bounds`
        (the mean of the labels' bounds) and ``"samples"`` raises
        :class:`~scored_pr.UnsupportedQuery` (it needs the rows).

    Notes
    -----
    Input: ``add_cases(Y, S)`` takes an indicator matrix ``Y`` (n, k) of
    0/1 or bool, or, for multi-class data, class labels ``Y`` of shape (n,)
    whose classes are the label names (each row's class is its one positive
    label, one-vs-rest, as the functional API's class labels). A row's
    weight applies to each of its k labels (scikit-learn's
    ``sample_weight``).

    Memory (exact kind): the rows as a bool matrix and a float64 matrix, 9
    bytes per (row, label), plus 8 bytes per row once a weight differs from
    1; a query keeps only its scalar results. ``ev[label]`` of the exact and
    windowed kinds is built from the rows on first access and cached until
    the next change (a snapshot: add cases through this evaluator, not
    through ``ev[label]``). Time: each averaged query is one O(n k log n)
    vectorised pass, cached until the next change.

    Not thread-safe: a call that overlaps another thread's call on the same
    evaluation raises RuntimeError (and changes nothing) instead of losing
    rows; serialise calls with a lock, or give each thread its own
    evaluation and :meth:`merge` them.

    Examples
    --------
    >>> from scored_pr import MultiLabelEvaluation
    >>> ev = MultiLabelEvaluation(["cat", "dog"])
    >>> ev.add_cases([[1, 0], [0, 1], [1, 1], [0, 0]], [[0.9, 0.2], [0.4, 0.8], [0.3, 0.6], [0.5, 0.3]])
    >>> ev.average_precision(average=None).tolist(), ev.average_precision(average="micro")
    ([0.75, 1.0], 0.8928571428571428)
    >>> ev["cat"].average_precision()
    0.75
    """

    __module__ = "scored_pr"  # pickles and reprs name the public module, wherever this file moves
    _KIND = _CLS
    _read_only = False  # a MultiLabelEvaluation is never read-only (see guard.py)
    _OWNED = True  # see guard.guarded: add_case and add_cases take the owner's fast path (guard.claim)
    # set by guard.claim in __init__
    _guard: threading.RLock
    _owner: int
    _busy: int

    def _acquire(self, what: str) -> None:
        """Take ``_guard`` for ``what`` without waiting; another thread inside the evaluation is a RuntimeError.

        A call from a thread other than the owner marks the evaluation shared
        first, and is refused while the owner is in a lock-free call
        (``guard.foreign_call``).
        """
        take_guard(self, what, "rows")

    def __init__(
        self, labels: Any, *, ties: str = "grouped", window: int | None = None, max_bins: int | None = None,
        pos_label: Any = None,
    ) -> None:
        self._labels: list[Any] = check_label_names(labels, _CLS)
        self._ties = check_ties(ties, _CLS)
        self._pos_label = check_pos_label(pos_label, _CLS)
        self._window = None if window is None else check_positive_int(window, _CLS, "window")
        self._max_bins = None if max_bins is None else check_positive_int(max_bins, _CLS, "max_bins")
        check_not_both(_CLS, ("window", self._window), ("max_bins", self._max_bins))
        if self._max_bins is not None:
            check_grouped_for_bins(self._ties, _CLS)
        self._index = {name: i for i, name in enumerate(self._labels)}
        claim(self)  # see guard.py: every public call holds the guard; add_case/add_cases from this thread the flag
        self._init_state()

    def _init_state(self) -> None:
        k = len(self._labels)
        self._chunks: list[tuple[Bool, F64, F64 | None]] = []  # batches not yet merged into _rows
        self._pending: list[tuple[Bool, F64, F64 | None]] = []  # single rows, joined into one chunk every _PENDING
        self._held = 0  # rows in _rows, _chunks and _pending
        self._seen = 0  # rows added since construction or reset (a window's num_rows_seen)
        self._rows: tuple[Bool, F64, F64 | None] = (np.zeros((0, k), dtype=bool), np.zeros((0, k)), None)
        self._memo: dict[Any, Any] = {}
        self._bounded: list[BoundedEvaluation] | None = None
        self._pooled_bounded: BoundedEvaluation | None = None
        #: bounded kind: the top-class counts (sparse confusion matrix and rows without one positive),
        #: None when unknown (a state saved before they were kept); unused by the kinds that keep rows
        self._top: tuple[npt.NDArray[np.int64], F64, int] | None = None
        if self._max_bins is not None:
            self._bounded = [BoundedEvaluation(self._max_bins) for _ in self._labels]
            self._pooled_bounded = BoundedEvaluation(self._max_bins)
            self._top = (np.zeros(0, dtype=np.int64), np.zeros(0), 0)

    # ------------------------------------------------------------------ properties

    @property
    def labels(self) -> list[Any]:
        """The label names, in column order."""
        return list(self._labels)

    @property
    def ties(self) -> str:
        """The tie policy of the per-label evaluators."""
        return self._ties

    @property
    def pos_label(self) -> Any:
        """The value read as positive in a label matrix (None: True, 1)."""
        return self._pos_label

    @property
    def window(self) -> int | None:
        """The number of rows kept (None: every row)."""
        return self._window

    @property
    def max_bins(self) -> int | None:
        """The bin budget of each label's bounded summary (None: rows are kept)."""
        return self._max_bins

    @property
    def num_rows(self) -> int:
        """Rows held (in the window for a windowed kind; every row added for the others)."""
        if self._bounded is not None:
            return self._bounded[0].num_cases
        return self._held if self._window is None else min(self._held, self._window)

    @property
    def num_rows_seen(self) -> int:
        """Rows ever added (since construction or :meth:`reset`): :attr:`num_rows` but for a window, every row.

        A windowed evaluation counts the rows that have left its window too,
        as :attr:`scored_pr.WindowedEvaluation.num_cases_seen` does: it is
        the default ``step`` of :class:`~scored_pr.streaming.SummaryLogger`.
        A merge counts the rows of both; a loaded state counts the rows it
        holds (the state keeps no count of the rows that left the window).
        The other kinds keep every row: their :attr:`num_rows`.
        """
        return self._seen if self._window is not None else self.num_rows

    @property
    def weighted(self) -> bool:
        """Whether a weight other than 1 was ever added (and is still held)."""
        if self._bounded is not None:
            return self._bounded[0].weighted
        return self._consolidate()[2] is not None

    def __len__(self) -> int:
        """The number of labels k."""
        return len(self._labels)

    def __iter__(self) -> Iterator[Any]:
        """The label names, in column order."""
        return iter(self._labels)

    def __contains__(self, label: object) -> bool:
        return label in self._index

    def __repr__(self) -> str:
        kind = "" if self._window is None and self._max_bins is None else (
            f", window={self._window}" if self._window is not None else f", max_bins={self._max_bins}")
        return f"{_CLS}({self._labels!r:.200}, ties={self._ties!r}{kind}, num_rows={self.num_rows})"

    # ------------------------------------------------------------------ adding rows

    def _checked(
        self, y: Any, s: Any, sample_weight: Any, func: str, names: tuple[str, str] = ("Y", "S")
    ) -> tuple[Bool, F64, F64 | None]:
        """(truth (n, k), scores (n, k), weights (n,) or None), owned copies, through _validation's checks."""
        k = len(self._labels)
        y_name, s_name = names
        scores = check_score_matrix(as_array(s, func, s_name), func, s_name)
        check_shape(scores, scores.shape[1] == k, func, s_name, f"have one column per label ({k})")
        n = scores.shape[0]
        y_arr = as_array(dense_labels(y), func, y_name)
        if k == 1 and y_arr.ndim == 1:
            # one label: a vector is its label column (one-vs-rest with a single class would make
            # every row positive, so class names are not read here)
            y_arr = y_arr.reshape(-1, 1)
        if y_arr.ndim == 2 and y_arr.shape[1] == k:
            truth = check_label_matrix(y_arr, scores.shape, func, y_name, self._pos_label)
        else:
            classes, _ = check_classes(y_arr, k, np.asarray(self._labels), func, y_name, own_labels=True)
            check_same_length(classes.size, n, func)
            truth = np.zeros((n, k), dtype=bool)
            truth[np.arange(n), classes] = True
        weight = None if sample_weight is None else check_weights(sample_weight, n, func)
        # copies the caller cannot change afterwards (the checks may return views of the input)
        return np.array(truth, dtype=bool, order="C"), np.array(scores, dtype=np.float64, order="C"), weight

    def add_cases(self, Y: Any, S: Any, sample_weight: Any = None) -> None:
        """Add n rows at once; atomic (a rejected call adds nothing).

        Parameters
        ----------
        Y : array-like or scipy.sparse matrix
            A label matrix (n, k), one column per label, read as the binary
            evaluator reads labels: bool, 0/1 or -1/1, or with ``pos_label``
            any values (an entry equal to it is positive); or class labels
            (n,) that are label names (multi-class: each row's class is its
            one positive label). A scipy.sparse label matrix is made dense
            (the rows are kept dense anyway).
        S : array-like of float, shape (n, k)
            The scores, one column per label; no NaN.
        sample_weight : array-like of float, shape (n,), optional
            One weight per row, applied to each of its labels: 0, or from
            2**-1022 (the smallest normal float64) to 2**970; an int must be
            exactly a float64 (the evaluator's rule).

        Raises
        ------
        TypeError, ValueError
            Naming ``add_cases``, the argument, the expectation and the value
            received.
        """
        self._add(*self._checked(Y, S, sample_weight, "add_cases"))

    def add_case(self, y_row: Any, s_row: Any, weight: float = 1.0) -> None:
        """Add one row: ``y_row`` k indicators (or one class label), ``s_row`` k scores, and its weight.

        Raises
        ------
        TypeError, ValueError
            Naming ``add_case``; nothing is added.
        """
        self._add(*self._checked_row(y_row, s_row, weight, "add_case"))

    def _checked_row(self, y_row: Any, s_row: Any, weight: Any, func: str) -> tuple[Bool, F64, F64 | None]:
        """One row as :meth:`add_case` takes it, checked: (truth (1, k), scores (1, k), weights (1,) or None)."""
        w = check_weight(weight, func)
        # a class label, not a row (with one label, a scalar is that label's value)
        scalar = isinstance(y_row, (str, bytes)) or np.ndim(y_row) == 0
        one_class = scalar and len(self._labels) > 1
        y = as_array([y_row] if scalar else y_row, func, "y_row")
        s = as_array(s_row, func, "s_row")
        check_shape(s, s.ndim == 1, func, "s_row", "be 1-dimensional, one score per label")
        check_shape(y, y.ndim <= 1, func, "y_row", "be k indicators or one class label")
        rows = y if one_class else y.reshape(1, -1)
        return self._checked(rows, s[None, :], None if w == 1.0 else [w], func, ("y_row", "s_row"))

    def _freeze(self) -> None:
        """Make this evaluation read-only to users (a slice's of a SlicedEvaluation): its writers raise TypeError."""
        self._read_only = True
        self._owner = SHARED_OWNER  # the owner's lock-free paths do not check _read_only: the locked one does

    def _add(self, truth: Bool, scores: F64, weight: F64 | None) -> None:
        n, k = scores.shape
        if n == 0:
            return
        self._memo = {}
        if self._bounded is not None:
            assert self._pooled_bounded is not None
            top = self._top_added(truth, scores, weight)  # computed first: assigned with the summaries
            # every label gets them (the summaries take checked columns of bools and non-NaN floats)
            if n == 1:  # a single row through each summary's add_case buffer (a batch call costs more);
                # each summary's add_case is atomic, but an interrupt between two labels leaves the
                # row in the first ones only: a bounded stream fed row by row is not interrupt-safe
                w = 1.0 if weight is None else float(weight[0])
                pooled = self._pooled_bounded
                for b, c, v in zip(self._bounded, truth[0].tolist(), scores[0].tolist()):
                    b.add_case(c, v, w)
                    pooled.add_case(c, v, w)
                self._top = top
                return
            # a batch goes into copies of the summaries that replace them in one assignment, so an
            # interrupt (MemoryError, KeyboardInterrupt) inside a summary's binning leaves every label
            # as it was, never some labels with the rows and some without
            staged = [copy.deepcopy(b) for b in self._bounded]
            staged_pooled = copy.deepcopy(self._pooled_bounded)
            for j, b in enumerate(staged):
                b.add_cases(truth[:, j], scores[:, j], weight)
            staged_pooled.add_cases(truth.ravel(), scores.ravel(), None if weight is None else np.repeat(weight, k))
            self._bounded, self._pooled_bounded, self._top = staged, staged_pooled, top
            return
        if n == 1:
            self._pending.append((truth, scores, weight))
            if len(self._pending) >= _PENDING:
                self._flush_pending()
        else:
            self._flush_pending()
            self._chunks.append((truth, scores, weight))
        self._held += n
        self._seen += n
        if self._window is not None and self._held >= 2 * self._window:
            self._consolidate()  # keep at most twice the window between queries

    def _top_added(self, truth: Bool, scores: F64, weight: F64 | None) -> tuple[npt.NDArray[np.int64], F64, int] | None:
        """The bounded kind's top-class counts with these rows added (not assigned; None stays unknown)."""
        if self._top is None:
            return None
        other = _top.other_rows(truth)
        keep = np.ones(truth.shape[0], dtype=bool)
        keep[other] = False
        added = _top.sparse_counts(_top.pair_codes(truth[keep], scores[keep]), None if weight is None else weight[keep])
        codes, counts = _top.merge_sparse(self._top[:2], added)
        return codes, counts, self._top[2] + int(other.size)

    def _flush_pending(self) -> None:
        """Join the single rows added since the last flush into one chunk."""
        if self._pending:
            parts = self._pending
            weight = None
            if any(p[2] is not None for p in parts):
                weight = np.concatenate([p[2] if p[2] is not None else np.ones(1) for p in parts])
            self._chunks.append((np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]), weight))
            self._pending = []

    def _consolidate(self) -> tuple[Bool, F64, F64 | None]:
        """The rows held, as one (truth, scores, weights) triple (pending chunks merged in, window applied)."""
        self._flush_pending()
        if self._chunks:
            parts = [self._rows, *self._chunks]
            truth = np.concatenate([p[0] for p in parts])
            scores = np.concatenate([p[1] for p in parts])
            weight = None
            if any(p[2] is not None for p in parts):
                weight = np.concatenate([p[2] if p[2] is not None else np.ones(p[0].shape[0]) for p in parts])
            if self._window is not None and truth.shape[0] > self._window:
                cut = truth.shape[0] - self._window
                truth, scores = truth[cut:].copy(), scores[cut:].copy()
                weight = None if weight is None else weight[cut:].copy()
            if weight is not None and (weight == 1.0).all():
                weight = None
            self._rows, self._chunks, self._held = (truth, scores, weight), [], truth.shape[0]
        return self._rows

    def rows(self) -> tuple[Bool, F64, F64 | None]:
        """The rows held: (indicator matrix (n, k) bool, scores (n, k) float64, weights (n,) or None), read-only.

        Raises UnsupportedQuery for the bounded kind, which keeps no row.
        """
        if self._bounded is not None:
            raise self._no_rows("rows")
        truth, scores, weight = self._consolidate()
        truth, scores = truth.view(), scores.view()
        truth.flags.writeable = scores.flags.writeable = False
        if weight is not None:
            weight = weight.view()
            weight.flags.writeable = False
        return truth, scores, weight

    def reset(self) -> None:
        """Forget every row (the labels and the kind stay)."""
        self._init_state()

    # ------------------------------------------------------------------ per-label evaluators

    def __getitem__(self, label: Any) -> Any:
        """The evaluator of ``label``, read-only: exact, windowed or bounded by this evaluator's kind.

        Every query of :class:`scored_pr.Evaluation` answers for that label
        alone, equal to what :meth:`summary` and the ``average=None`` queries
        report for it. It is read-only: its writers (``add_case``,
        ``add_cases``, ``add_misses``, ``reset``, ``+=``...) raise TypeError,
        since a row added to one label alone would make this evaluation
        disagree with itself; add rows to the MultiLabelEvaluation. It is a
        view of the rows as they are now (built once, until the next change);
        ``copy.copy(ev[label])`` is a writable snapshot.
        """
        try:
            j = self._index[label]
        except (KeyError, TypeError):
            raise KeyError(f"{_CLS}: no label {label!r:.60}; the labels are {self._labels!r:.200}") from None
        return self._cached(("label", j), lambda: self._column_evaluator(j))

    def _column_evaluator(self, j: int) -> Any:
        """Label ``j``'s evaluator, read-only (see :meth:`__getitem__`)."""
        ev: Any
        if self._bounded is not None:
            ev = self._bounded[j] + BoundedEvaluation(self._bounded[j].max_bins)  # a copy: the summary stays private
        else:
            truth, scores, weight = self._consolidate()
            if self._window is not None:
                ev = WindowedEvaluation(self._window, clock=None, ties=self._ties)
            else:
                ev = ScoredPrecisionRecallEvaluation(self._ties)
            ev.add_cases(truth[:, j], scores[:, j], weight)
        ev._freeze()
        return ev

    def _label_summary(self, j: int) -> dict[str, Any]:
        """Label ``j``'s summary: from its cached evaluator when one was asked for, else from one built and dropped."""
        if self._bounded is not None:
            return self._bounded[j].summary()  # type: ignore[no-any-return]
        cached = self._memo.get(("label", j))
        return (cached if cached is not None else self._column_evaluator(j)).summary()  # type: ignore[no-any-return]

    def pooled(self) -> Any:
        """The evaluator of the n·k (row, label) pairs ranked together: the micro average's ranking.

        Exact (or windowed: an exact evaluator of the window's pairs) or
        bounded by this evaluator's kind; each pair weighs its row's weight.
        Read-only, as a label's evaluator is (see :meth:`__getitem__`).
        """

        def build() -> Any:
            ev: Any
            if self._pooled_bounded is not None:
                ev = self._pooled_bounded + BoundedEvaluation(self._pooled_bounded.max_bins)  # a copy
            else:
                truth, scores, weight = self._consolidate()
                ev = ScoredPrecisionRecallEvaluation(self._ties)
                ev.add_cases(
                    truth.ravel(), scores.ravel(), None if weight is None else np.repeat(weight, truth.shape[1])
                )
            ev._freeze()
            return ev

        return self._cached("pooled", build)

    def _cached(self, key: Any, build: Any) -> Any:
        memo = self._memo
        if key not in memo:
            memo[key] = build()
        return memo[key]

    def _no_rows(self, query: str) -> Exception:
        return unsupported(_CLS, query, "a bounded multi-label evaluation keeps no row",
                           "use the exact or windowed kind (no max_bins) for samples averaging and the rows")

    # ------------------------------------------------------------------ averaged measures

    def _columns(self, mode: str) -> tuple[F64, F64, F64, F64]:
        """(AP, ROC AUC, positives, negatives) of each column (mode "columns"), the pooled column ("micro") or each row ("samples")."""

        def build() -> tuple[F64, F64, F64, F64]:
            truth, scores, weight = self._consolidate()
            if mode == "micro":
                k = truth.shape[1]
                return _ml.column_measures(truth.reshape(-1, 1), scores.reshape(-1, 1),
                                           None if weight is None else np.repeat(weight, k))
            if mode == "samples":
                return _ml.column_measures(truth.T, scores.T, None)
            return _ml.column_measures(truth, scores, weight)

        if mode == "samples":  # per-row arrays (32 bytes a row): not kept; the averages are cached instead
            return build()
        return self._cached(("columns", mode), build)  # type: ignore[no-any-return]

    def average_precision(self, average: str | None = "macro") -> Any:
        """Average precision of each label, averaged as scikit-learn's ``average_precision_score``.

        Each label's AP is Σ over its tie groups (R_g - R_{g-1}) · P_g (ties
        grouped: one threshold per distinct score; weights as
        ``sample_weight``); a label (or, for ``"samples"``, a row) without a
        positive has AP 0.0, scikit-learn's value (no warning here).

        Parameters
        ----------
        average : {None, "macro", "micro", "weighted", "samples"}, default "macro"
            None: the k values (array, column order); "macro": their mean;
            "weighted": their mean weighted by each label's positive weight
            (0.0 with no positive at all); "micro": AP of the n·k pairs ranked
            together (:meth:`pooled`); "samples": each row's AP over its k
            labels, averaged with the row weights (NaN when every weight is 0).

        Returns
        -------
        float, numpy.ndarray, Bounds or list of Bounds
            Bit for bit ``scored_pr.average_precision(Y, S, average=average,
            sample_weight=w)`` of the rows held, in value and type. With one
            label (k = 1) that call, like scikit-learn, reads the (n, 1)
            matrices as one binary ranking: every ``average`` (None
            included) is then the float
            ``ScoredPrecisionRecallEvaluation.average_precision`` of the
            label's column with grouped ties, NaN without a positive (not
            scikit-learn's 0.0). The bounded kind gives Bounds (the
            averaged estimate, lower and upper bounds; with
            ``average=None`` a list of each label's Bounds).

        Notes
        -----
        No LingPipe equivalent for the averages; each label's value is
        ``ev[label].average_precision()`` (LingPipe's ``averagePrecision()``)
        where that label has a positive. O(n k log n) once, then cached.
        """
        average = check_average(average, "average_precision", _AVERAGES)
        return self._averaged("average_precision", average)

    def area_under_roc_curve(self, average: str | None = "macro", multi_class: str = "ovr") -> Any:
        """ROC AUC of each label, averaged as scikit-learn's ``roc_auc_score`` (multi-label or multi-class).

        Each label's AUC is the probability that a positive outranks a
        negative, tied pairs counting one half (grouped ties, weights as
        ``sample_weight``); NaN for a label (or row) with one class, which
        ``"weighted"``/``"samples"`` count 0 when its averaging weight is 0.

        Parameters
        ----------
        average : {None, "macro", "micro", "weighted", "samples"}, default "macro"
            As :meth:`average_precision`; with ``multi_class="ovo"``
            "macro" or "weighted" (scikit-learn's choices there).
        multi_class : {"ovr", "ovo"}, default "ovr"
            "ovr": each label against the rest (the multi-label measure,
            and scikit-learn's one-vs-rest for a multi-class stream).
            "ovo": Hand & Till's one-vs-one measure of a multi-class stream
            (every row has exactly one positive label, its class): for each
            pair of classes present, the mean of A(a|b) and A(b|a), then
            the mean over pairs ("weighted": weighted by the pair's share
            of rows). NaN with fewer than two classes present (no row
            included).

        Returns
        -------
        float, numpy.ndarray, Bounds or list of Bounds
            Bit for bit ``scored_pr.area_under_roc_curve(Y, S, average=average,
            sample_weight=w)`` of the rows held, in value and type (one
            label, k = 1: the binary value of its column for every
            ``average``, as :meth:`average_precision`); Bounds for the
            bounded kind. ``"ovo"``: ``scored_pr.area_under_roc_curve(y,
            S, multi_class="ovo", average=average, labels=ev.labels)`` with
            ``y`` each row's class, equal to scikit-learn's
            ``roc_auc_score(y, S, multi_class="ovo", labels=...)``.

        Raises
        ------
        ValueError
            ``"ovo"`` with a row of no or several positive labels (not a
            multi-class stream), or with weighted rows (scikit-learn has
            no ``sample_weight`` for one-vs-one either).
        UnsupportedQuery
            ``"ovo"`` on the bounded kind, which keeps no row.

        Notes
        -----
        LingPipe name of each label's value: ``areaUnderRocCurve(false)``.
        Unlike the functional call, ``"ovo"`` does not require each row's
        scores to sum to 1 (Hand & Till's measure is defined for any
        scores; scikit-learn's rule is a check of the input). One-vs-one
        is O(n k log n + n k^2), cached until the next change.
        """
        func = "area_under_roc_curve"
        multi_class = check_choice(multi_class, func, "multi_class", ("ovr", "ovo"))
        if multi_class == "ovo":
            average = check_average(average, func, ("macro", "weighted"))
            if self._bounded is not None:
                raise self._no_rows("area_under_roc_curve(multi_class='ovo')")
            return self._cached(("ovo", average), lambda: self._one_vs_one(average))
        average = check_average(average, func, _AVERAGES)
        return self._averaged("area_under_roc_curve", average)

    def _one_vs_one(self, average: str | None) -> float:
        """Hand & Till's multi-class AUC of the rows held (see :meth:`area_under_roc_curve`)."""
        truth, scores, weight = self._consolidate()
        func = "area_under_roc_curve"
        check_one_vs_one_rows(truth, weight is not None, func)
        return _ml.ovo_roc_auc(np.argmax(truth, axis=1), scores, average == "weighted")

    def _averaged(self, measure: str, average: str | None) -> Any:
        """scikit-learn's ``_average_binary_score`` over the cached column values (see :meth:`average_precision`)."""
        if self._bounded is not None:
            return self._bounded_average(measure, average)
        return self._cached(("avg", measure, average), lambda: self._exact_average(measure, average))

    def _exact_average(self, measure: str, average: str | None) -> Any:
        truth, scores, weight = self._consolidate()
        if truth.shape[1] == 1:
            # one label: the functional API and scikit-learn read (n, 1) matrices as one binary ranking,
            # whatever the average, so every average is that ranking's float (grouped ties)
            one = self._cached("binary", lambda: _binary(truth[:, 0], scores[:, 0], weight))
            return getattr(one, measure)()
        pick = 0 if measure == "average_precision" else 1
        values = self._columns({"micro": "micro", "samples": "samples"}.get(str(average), "columns"))[pick]
        result = _ml.average_label_values(values, average, _ml.averaging_weights(average, truth, weight))
        return values.copy() if average is None else result

    def _bounded_average(self, measure: str, average: str | None) -> Any:
        assert self._bounded is not None and self._pooled_bounded is not None
        if average == "samples":
            raise self._no_rows(f"{measure}(average='samples')")

        def value(ev: BoundedEvaluation) -> Bounds:
            v = getattr(ev, measure)()
            if measure == "average_precision" and not ev.positive_weight > 0:
                return Bounds(0.0, 0.0, 0.0)  # scikit-learn's value for no positive
            return v if isinstance(v, Bounds) else Bounds(float(v), float(v), float(v))

        if average == "micro":
            return value(self._pooled_bounded)
        vals = [value(ev) for ev in self._bounded]
        est = np.array([float(v) for v in vals])
        lower = np.array([v.lower for v in vals])
        upper = np.array([v.upper for v in vals])
        if average is None:
            return vals
        w = np.array([ev.positive_weight for ev in self._bounded]) if average == "weighted" else None
        return Bounds(*(float(_ml.average_label_values(a, average, w)) for a in (est, lower, upper)))

    # ------------------------------------------------------------------ curves

    def _curve(self, name: str, average: str | None) -> Any:
        check_curve_average(average, name)
        if average == "micro":
            return getattr(self.pooled(), name)()
        return {label: getattr(self[label], name)() for label in self._labels}

    def pr_curve(self, average: str | None = "micro") -> Any:
        """Precision-recall curve(s) in the evaluator layout (rows of (recall, precision)).

        ``average="micro"``: the curve of :meth:`pooled` (the n·k pairs
        ranked together); None: {label: ``ev[label].pr_curve()``}.
        """
        return self._curve("pr_curve", average)

    def roc_curve(self, average: str | None = "micro") -> Any:
        """ROC curve(s) in the evaluator layout (rows of (recall, rejection recall)).

        ``average="micro"``: the curve of :meth:`pooled`; None:
        {label: ``ev[label].roc_curve()``}.
        """
        return self._curve("roc_curve", average)

    # ------------------------------------------------------------------ summary

    def summary(self) -> dict[str, Any]:
        """Per-label summaries and the averaged measures, for loggers and reports.

        Keys: ``num_rows``; ``labels``: {label: ``ev[label].summary()``};
        then, for every entry of the table of measures
        (``scored_pr._measures.MEASURES``) with averages over labels
        (``over_labels``: ``average_precision`` and ``area_under_roc_curve``),
        ``{average: value}`` for "macro", "micro", "weighted" and (not for the
        bounded kind) "samples" (a bounded kind's values are the estimates).
        Multi-class rows (some rows held, each with exactly one positive
        label), at the top-scoring class: ``accuracy``; ``precision``,
        ``recall`` and ``f_measure`` (F1) as {average: value} for "macro",
        "micro" and "weighted"; ``classes``: {label: {"precision", "recall",
        "f_measure", "support"}}; ``confusion_matrix``: {true label:
        {predicted label: count}} (:meth:`confusion_matrix`, counts as int,
        weight sums as float). Degenerate values are NaN or 0.0 as
        documented; nothing raises, and no warning is issued.
        """
        out: dict[str, Any] = {"num_rows": self.num_rows, "labels": {label: self._label_summary(j) for j, label in enumerate(self._labels)}}
        for m in MEASURES:
            if m.over_labels:
                out[m.name] = {mode: float(self._table_average(m, mode)) for mode in self._table_modes(m)}
        if self._one_label_rows():
            out.update(self._top_summary())
        return out

    def _table_values(self, m: Measure) -> list[Any]:
        """Table entry ``m``'s value for each label, in column order (what its averages average)."""
        if not m.args and m.method in _SELF_AVERAGED:
            return list(self._averaged(m.method, None))
        return [m.compute(self[label]) for label in self._labels]

    def _table_modes(self, m: Measure) -> tuple[str, ...]:
        """The averages of table entry ``m`` this evaluation reports (no "samples" without rows or a vectorised query)."""
        own = not m.args and m.method in _SELF_AVERAGED
        return tuple(a for a in m.over_labels if a != "samples" or (own and self._bounded is None))

    def _table_average(self, m: Measure, average: str) -> Any:
        """Table entry ``m`` averaged over the labels (see ``Measure.over_labels``).

        A measure this class computes (``average_precision``,
        ``area_under_roc_curve``) through its own query (scikit-learn's
        rules); any other from the labels' evaluators: "macro" their mean,
        "weighted" weighted by each label's positive weight, "micro" the
        pooled ranking's value (Bounds for the bounded kind).
        """
        if not m.args and m.method in _SELF_AVERAGED:
            return self._averaged(m.method, average)
        if average == "micro":
            return m.compute(self.pooled())
        values = self._table_values(m)
        w = None
        if average == "weighted":
            w = np.array([self[label].positive_weight for label in self._labels], dtype=np.float64)
        if values and isinstance(values[0], Bounds):
            parts = ([float(v) for v in values], [v.lower for v in values], [v.upper for v in values])
            return Bounds(*(float(_ml.average_label_values(np.array(a), average, w)) for a in parts))
        return _ml.average_label_values(np.array(values, dtype=np.float64), average, w)

    # ------------------------------------------------------------------ merge

    def merge(self, other: MultiLabelEvaluation) -> MultiLabelEvaluation:
        """A new evaluation of this one's rows followed by ``other``'s; neither input changes.

        Both must have the same labels, ties and kind. A windowed merge keeps
        the last ``window`` rows of the two in that order; a bounded merge
        merges each label's summary (and the pooled one).

        Raises
        ------
        TypeError, ValueError
            If ``other`` is not a MultiLabelEvaluation of the same labels and kind.
        """
        check_type_named(other, MultiLabelEvaluation, "merge", "other", f"a {_CLS}")
        mine = (self._labels, self._ties, self._window, self._max_bins, self._pos_label)
        theirs = (other._labels, other._ties, other._window, other._max_bins, other._pos_label)
        check_same_setup(mine, theirs, "merge", "other", "labels, ties, window, max_bins and pos_label")
        out = MultiLabelEvaluation(self._labels, ties=self._ties, window=self._window, max_bins=self._max_bins,
                                   pos_label=self._pos_label)
        if self._bounded is not None:
            assert other._bounded is not None and self._pooled_bounded is not None and other._pooled_bounded is not None
            out._bounded = [a.merge(b) for a, b in zip(self._bounded, other._bounded)]
            out._pooled_bounded = self._pooled_bounded.merge(other._pooled_bounded)
            a, b = self._top, other._top
            out._top = None if a is None or b is None else (*_top.merge_sparse(a[:2], b[:2]), a[2] + b[2])
            return out
        for part in (self._consolidate(), other._consolidate()):
            if part[0].shape[0]:
                out._chunks.append(part)
                out._held += part[0].shape[0]
        out._seen = self.num_rows_seen + other.num_rows_seen
        out._consolidate()
        return out

    def __add__(self, other: object) -> MultiLabelEvaluation:
        if not isinstance(other, MultiLabelEvaluation):
            return NotImplemented
        return self.merge(other)

    def __iadd__(self, other: object) -> MultiLabelEvaluation:
        if not isinstance(other, MultiLabelEvaluation):
            return NotImplemented
        merged = self.merge(other)
        (self._chunks, self._pending, self._held, self._seen, self._rows, self._bounded, self._pooled_bounded,
         self._top, self._memo) = (merged._chunks, merged._pending, merged._held, merged._seen, merged._rows,
                                   merged._bounded, merged._pooled_bounded, merged._top, {})
        return self

    def __eq__(self, other: object) -> bool:
        """Equal when labels, kind and held rows (or summaries) agree."""
        if not isinstance(other, MultiLabelEvaluation):
            return NotImplemented
        if (self._labels, self._ties, self._window, self._max_bins, self._pos_label) != (
            other._labels, other._ties, other._window, other._max_bins, other._pos_label
        ):
            return False
        if self._bounded is not None:
            mine, theirs = self._top, other._top
            same_top = (mine is None) == (theirs is None) and (mine is None or theirs is None or (
                np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1]) and mine[2] == theirs[2]))
            return self._bounded == other._bounded and self._pooled_bounded == other._pooled_bounded and same_top
        a, b = self._consolidate(), other._consolidate()
        same_w = (a[2] is None and b[2] is None) or (a[2] is not None and b[2] is not None and np.array_equal(a[2], b[2]))
        return bool(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and same_w)

    __hash__ = None  # type: ignore[assignment]  # mutable

    # ------------------------------------------------------------------ state

    def _state(self) -> _ml_state.MultiLabelState:
        if self._bounded is not None:
            assert self._pooled_bounded is not None
            return _ml_state.MultiLabelState(self._labels, self._ties, None, self._max_bins, None, None, None,
                                          [b.to_dict() for b in self._bounded], self._pooled_bounded.to_dict(),
                                          self._pos_label, self._top)
        truth, scores, weight = self._consolidate()
        return _ml_state.MultiLabelState(self._labels, self._ties, self._window, None, truth, scores, weight,
                                          pos_label=self._pos_label)

    @classmethod
    def _from_state(cls, st: _ml_state.MultiLabelState, func: str) -> MultiLabelEvaluation:
        try:
            ev = cls(st.labels, ties=st.ties, window=st.window, max_bins=st.max_bins, pos_label=st.pos_label)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{func}: the state's settings are invalid ({exc})") from None
        if st.max_bins is not None:
            assert st.per_label is not None and st.pooled is not None
            summaries = [BoundedEvaluation.from_dict(d) for d in st.per_label]
            pooled = BoundedEvaluation.from_dict(st.pooled)
            if any(s.max_bins != st.max_bins for s in [*summaries, pooled]):
                raise ValueError(f"{func}: every label's summary must have max_bins={st.max_bins}.")
            ev._bounded, ev._pooled_bounded, ev._top = summaries, pooled, st.top
            return ev
        assert st.truth is not None and st.scores is not None
        weights = None if st.weights is None or bool((st.weights == 1.0).all()) else st.weights  # as when added
        ev._rows, ev._held = (st.truth, st.scores, weights), st.truth.shape[0]
        ev._seen = ev._held
        return ev

    def to_dict(self) -> dict[str, Any]:
        """The state as a JSON-safe dict (kind ``"multilabel"``): rows, or each label's bounded state."""
        return _ml_state.to_dict(self._state())

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MultiLabelEvaluation:
        """The evaluation whose :meth:`to_dict` is ``d`` (validated; ValueError/TypeError otherwise)."""
        return cls._from_state(_ml_state.from_dict(d, "from_dict"), "from_dict")

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the state to ``path`` (an ``.npz`` state file of kind ``"multilabel"``), atomically."""
        _ml_state.save(self._state(), path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> MultiLabelEvaluation:
        """Read a state file written by :meth:`save` (validated before anything is built)."""
        return cls._from_state(_ml_state.load(path, "load"), "load")

    def __reduce__(self) -> tuple[Any, ...]:
        # restored through a classmethod of the public class: the pickle names only scored_pr.MultiLabelEvaluation
        return (type(self)._from_pickle, (_ml_state.to_pickle(self._state()),))

    @classmethod
    def _from_pickle(cls, state: Any) -> MultiLabelEvaluation:
        """Unpickling entry point (validated like every loader)."""
        return cls._from_state(_ml_state.from_pickle(state), "unpickle")


def _binary(truth: Bool, scores: F64, weight: F64 | None) -> ScoredPrecisionRecallEvaluation:
    """The binary evaluator of one label's column, grouped ties: what the functional API queries for (n, 1) input."""
    ev = ScoredPrecisionRecallEvaluation("grouped")
    ev.add_cases(truth, scores, weight)
    return ev


def _report_figures(labelled: MultiLabelEvaluation) -> dict[str, Any]:
    """The figures ``scored-pr report`` prints for a multi-label state: rows, each label's values, the averages.

    From ``summary()``, for every entry of the table of measures with
    averages over labels (``over_labels``): ``<label>: <measure>`` per label
    (``average_precision``, ``area_under_roc_curve``), then
    ``<measure> (<average>)`` for every average the evaluator gives (a
    bounded one: estimates). Multi-class rows add ``accuracy``, each
    class's and the averaged precision, recall and F1, and the confusion
    matrix as ``confusion (<true> -> <predicted>)`` counts.
    """
    summary = labelled.summary()
    figures: dict[str, Any] = {"num_rows": summary["num_rows"]}
    averaged = [m.name for m in MEASURES if m.name in summary and m.over_labels]
    for label, own in summary["labels"].items():
        for name in averaged:
            figures[f"{label}: {name}"] = float(own[name])
    for name in averaged:
        for average, value in summary[name].items():
            figures[f"{name} ({average})"] = float(value)
    if "confusion_matrix" in summary:  # multi-class rows: the measures at the top-scoring class
        figures["accuracy"] = summary["accuracy"]
        for name in ("precision", "recall", "f_measure"):
            for label, own in summary["classes"].items():
                figures[f"{label}: {name}"] = own[name]
            for average, value in summary[name].items():
                figures[f"{name} ({average})"] = value
        for true, row in summary["confusion_matrix"].items():
            for predicted, count in row.items():
                figures[f"confusion ({true} -> {predicted})"] = count
    return figures


# ------------------------------------------------ what the command line calls besides the public API

def add_rows_trusted(ev: MultiLabelEvaluation, truth: Bool, scores: F64, weights: F64 | None) -> None:
    """Add rows that the caller has already checked (the wide stream's reader): ``truth`` an (n, k) bool
    array in ``ev``'s label order, ``scores`` (n, k) float64 without NaN, ``weights`` None or checked."""
    ev._add(truth, scores, weights)


def label_values(ev: MultiLabelEvaluation, m: Measure) -> list[Any]:
    """Measure-table entry ``m``'s value for each label, in column order (what its averages average)."""
    return ev._table_values(m)


def state_of(ev: MultiLabelEvaluation) -> _ml_state.MultiLabelState:
    """``ev``'s contents as the record its state file holds (for the command line's checkpoints)."""
    return ev._state()


def from_state(st: _ml_state.MultiLabelState, func: str) -> MultiLabelEvaluation:
    """The evaluation a state record holds (a checkpoint read back); ``func`` names the caller in errors."""
    return MultiLabelEvaluation._from_state(st, func)

register(Kind(
    "multilabel", MultiLabelEvaluation, "per_label", state_format="scored_pr.MultiLabelEvaluation",
    load=MultiLabelEvaluation.load, figures=_report_figures,
    scope=lambda ev: "cumulative" if ev.window is None else "window", seen=lambda ev: ev.num_rows_seen,
))
