"""The queries of a ``MultiLabelEvaluation`` at the top-scoring class, for multi-class rows.

When every row has exactly one positive label (multi-class data), the
label with the highest score is the row's prediction, and the k x k
confusion matrix of (true, predicted) classes gives accuracy and each
class's precision, recall and F (scikit-learn's ``confusion_matrix``,
``accuracy_score``, ``precision_recall_fscore_support``; LingPipe's
``ConfusionMatrix``). The math is :mod:`scored_pr._core.topclass`; this
mixin validates, caches and delegates, reading the rows, the bounded
kind's exact counts and the memo of the evaluation it is mixed into.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from .._core import topclass as _top
from .._validation import check_average, check_beta
from .base import unsupported

__all__ = ["TopClassQueries"]

_CLS = "MultiLabelEvaluation"
F64 = npt.NDArray[np.float64]
Bool = npt.NDArray[np.bool_]


class TopClassQueries:
    """``confusion_matrix``, ``accuracy``, ``precision``, ``recall``, ``f_measure`` of ``MultiLabelEvaluation``.

    A mixin: the class it is mixed into keeps ``_labels``, ``_bounded``
    (the bounded kind's per-label summaries, or None), ``_top`` (the bounded
    kind's sparse (true, predicted) counts and how many rows had not one
    positive label), ``_cached``, ``_consolidate`` (the rows held),
    ``weighted`` and ``num_rows``.
    """

    _labels: list[Any]
    _bounded: Any
    _top: tuple[npt.NDArray[np.int64], F64, int] | None
    _cached: Callable[[Any, Any], Any]
    _consolidate: Callable[[], tuple[Bool, F64, F64 | None]]

    @property
    def weighted(self) -> bool:  # pragma: no cover - the evaluation's own property answers
        raise NotImplementedError

    @property
    def num_rows(self) -> int:  # pragma: no cover - the evaluation's own property answers
        raise NotImplementedError

    def _top_matrix(self, query: str) -> Any:
        """The k x k confusion matrix at the top-scoring class (int64, or float64 when weighted), cached.

        Raises UnsupportedQuery when a row held does not have exactly one
        positive label, or (bounded kind) when the counts are unknown.
        """
        k = len(self._labels)
        if self._bounded is not None:
            if self._top is None:
                raise unsupported(_CLS, query, "this bounded evaluation was saved before the top-class counts "
                                  "were kept, so its confusion matrix is unknown", "feed its rows to a new evaluation")
            if self._top[2]:
                raise self._not_one_label(query, f"{self._top[2]} of the rows added do not")
            return self._cached("top", lambda: _top.dense(self._top[0], self._top[1], k, not self.weighted))
        truth, scores, weight = self._consolidate()
        other = _top.other_rows(truth)
        if other.size:
            row = int(other[0])
            raise self._not_one_label(query, f"row {row} of the rows held has {int(truth[row].sum())} positive "
                                      f"labels ({other.size} such row{'' if other.size == 1 else 's'} in all)")
        return self._cached("top", lambda: _top.confusion(truth, scores, weight))

    def _not_one_label(self, query: str, which: str) -> Exception:
        return unsupported(_CLS, query, f"it needs one label per row (multi-class data: exactly one positive "
                           f"label in each row); {which}",
                           "use the ranking measures (average_precision, area_under_roc_curve), which take any number "
                           "of positives per row")

    def confusion_matrix(self) -> Any:
        """The k x k confusion matrix of multi-class rows at the top-scoring class.

        Row i, column j: the rows whose true class (their one positive label)
        is label i and whose highest score is in column j, in label order;
        with sample weights, the sum of their weights.

        Returns
        -------
        numpy.ndarray, shape (k, k)
            int64 counts (float64 weight sums when a weight other than 1 was
            added); all zeros with no row. A fresh array.

        Raises
        ------
        scored_pr.UnsupportedQuery
            When a row held does not have exactly one positive label (a
            multi-label row has no single true class), or for a bounded
            evaluation read from a state saved before these counts were kept.

        Notes
        -----
        Equal to scikit-learn's ``confusion_matrix(y, S.argmax(axis=1),
        labels=range(k), sample_weight=w)``. Ties at the top score: the first
        tied column (label order) is the prediction, as ``numpy.argmax``.
        The exact kind counts every row held, the windowed kind the rows in
        its window; the bounded kind keeps these counts exactly (one per
        distinct (true, predicted) pair seen, at most k x k) beside its
        bins. LingPipe: ``ConfusionMatrix.matrix()``; see
        ``scored_pr.lingpipe.ConfusionMatrix.from_evaluation``. O(n k) once,
        then cached.

        Examples
        --------
        >>> from scored_pr import MultiLabelEvaluation
        >>> ev = MultiLabelEvaluation(["cat", "dog", "eel"])
        >>> ev.add_cases(["cat", "dog", "dog", "eel"],
        ...              [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.6, 0.3, 0.1], [0.2, 0.2, 0.6]])
        >>> ev.confusion_matrix().tolist()
        [[1, 0, 0], [1, 1, 0], [0, 0, 1]]
        >>> ev.accuracy()
        0.75
        """
        return self._top_matrix("confusion_matrix").copy()

    def accuracy(self) -> float:
        """The fraction of multi-class rows whose top-scoring class is their true class (weighted by row weight).

        The confusion matrix's diagonal over its total: scikit-learn's
        ``accuracy_score(y, S.argmax(axis=1), sample_weight=w)``, and
        ``top_k_accuracy_score(..., k=1)`` when no score ties at the top.
        NaN with no row (or every weight 0). Raises
        :class:`~scored_pr.UnsupportedQuery` as :meth:`confusion_matrix`.
        LingPipe: ``ConfusionMatrix.totalAccuracy()``.
        """
        return _top.accuracy(self._top_matrix("accuracy"))

    def _prf(self, query: str, average: str | None, beta: float) -> tuple[Any, Any, Any]:
        average = check_average(average, query, (None, "macro", "micro", "weighted"))
        beta = check_beta(beta, query)
        p, r, f, _ = _top.precision_recall_f(self._top_matrix(query), average, beta)
        return p, r, f

    def precision(self, average: str | None = "macro") -> Any:
        """Precision of each class at the top-scoring class, or its average.

        A class's precision is the weight of the rows predicted (top score)
        as that class that are truly of it, over the weight of the rows
        predicted as it: column j of :meth:`confusion_matrix`, its diagonal
        entry over its sum; 0.0 for a class never predicted.

        Parameters
        ----------
        average : {None, "macro", "micro", "weighted"}, default "macro"
            None: the k values (array, label order); "macro": their mean;
            "weighted": their mean weighted by each class's support (its true
            rows' weight); "micro": from the summed counts (equal to
            :meth:`accuracy` for multi-class rows).

        Returns
        -------
        float or numpy.ndarray

        Raises
        ------
        ValueError
            For an unknown ``average``.
        scored_pr.UnsupportedQuery
            As :meth:`confusion_matrix`.

        Notes
        -----
        scikit-learn's ``precision_score(y, S.argmax(axis=1),
        labels=range(k), average=average, sample_weight=w)`` with its default
        ``zero_division`` ("warn": a 0/0 ratio is 0.0), without the warning.
        LingPipe: ``ConfusionMatrix.oneVsAll(i).precision()`` and
        ``macroAvgPrecision()`` (where LingPipe gives NaN for 0/0).
        """
        return self._prf("precision", average, 1.0)[0]

    def recall(self, average: str | None = "macro") -> Any:
        """Recall of each class at the top-scoring class, or its average.

        A class's recall is the weight of its true rows whose top score is in
        its column, over the weight of its true rows: row i of
        :meth:`confusion_matrix`, its diagonal entry over its sum; 0.0 for a
        class with no true row. ``average`` and the rest as :meth:`precision`
        (scikit-learn's ``recall_score``; "weighted" recall equals
        :meth:`accuracy`). LingPipe: ``oneVsAll(i).recall()``,
        ``macroAvgRecall()``.
        """
        return self._prf("recall", average, 1.0)[1]

    def f_measure(self, average: str | None = "macro", beta: float = 1.0) -> Any:
        """F-beta of each class at the top-scoring class, or its average.

        A class's F-beta is (1 + beta^2) tp / (beta^2 (tp + fn) + tp + fp),
        from its row and column of :meth:`confusion_matrix`; 0.0 when the
        class is neither true nor predicted anywhere (and when tp is 0).
        ``average`` as :meth:`precision` ("macro": the mean of the classes'
        F, not the F of the mean precision and recall). scikit-learn's
        ``fbeta_score`` / ``f1_score`` (default ``zero_division``, no
        warning). LingPipe: ``oneVsAll(i).fMeasure()``, ``macroAvgFMeasure()``.

        Raises
        ------
        ValueError
            For an unknown ``average``, or ``beta`` not a finite number > 0.
        scored_pr.UnsupportedQuery
            As :meth:`confusion_matrix`.
        """
        return self._prf("f_measure", average, beta)[2]

    def _one_label_rows(self) -> bool:
        """Whether the top-class queries answer: some row held, each with exactly one positive label."""
        if self.num_rows == 0:
            return False
        if self._bounded is not None:
            return self._top is not None and self._top[2] == 0
        return _top.other_rows(self._consolidate()[0]).size == 0

    def _top_summary(self) -> dict[str, Any]:
        """The top-class entries of :meth:`summary` (multi-class rows only)."""
        matrix = self._top_matrix("summary")
        p, r, f, support = (np.asarray(v) for v in _top.precision_recall_f(matrix, None, 1.0))
        as_number = int if matrix.dtype.kind == "i" else float
        out: dict[str, Any] = {"accuracy": _top.accuracy(matrix)}
        for name in ("precision", "recall", "f_measure"):
            out[name] = {a: self._prf(name, a, 1.0)[("precision", "recall", "f_measure").index(name)]
                         for a in ("macro", "micro", "weighted")}
        out["classes"] = {label: {"precision": float(p[j]), "recall": float(r[j]), "f_measure": float(f[j]),
                                  "support": as_number(support[j])} for j, label in enumerate(self._labels)}
        out["confusion_matrix"] = {label: {other: as_number(matrix[i, j]) for j, other in enumerate(self._labels)}
                                   for i, label in enumerate(self._labels)}
        return out
