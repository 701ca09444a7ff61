"""Multi-class measures at the top-scoring class: the confusion matrix and what it determines.

A multi-class row has one true class (its one positive label) and one
predicted class: the column of its highest score, the first such column when
several tie (``numpy.argmax``, as scikit-learn's ``predict`` of a
probability matrix). The k x k confusion matrix counts (true, predicted)
pairs, rows true and columns predicted in label order (scikit-learn's
``confusion_matrix``); accuracy, per-class and averaged precision, recall and
F-beta follow from it as scikit-learn's ``accuracy_score`` and
``precision_recall_fscore_support`` define them, a 0/0 ratio being 0.0
(its default ``zero_division``, without the warning).

Pure numpy; the pairs of a bounded evaluator are kept sparse (one code
``true * k + predicted`` per distinct pair seen), so memory grows with the
distinct pairs, never with the rows.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

F64 = npt.NDArray[np.float64]
Bool = npt.NDArray[np.bool_]
I64 = npt.NDArray[np.int64]


def other_rows(truth: Bool) -> I64:
    """The rows of the (n, k) indicator matrix ``truth`` that do not hold exactly one positive (indices)."""
    return np.flatnonzero(np.count_nonzero(truth, axis=1) != 1).astype(np.int64)


def pair_codes(truth: Bool, scores: F64) -> I64:
    """``true * k + predicted`` of each row: its one positive column, and its first column of highest score.

    Rows are assumed to hold exactly one positive (see :func:`other_rows`).
    """
    k = scores.shape[1]
    return truth.argmax(axis=1).astype(np.int64) * k + scores.argmax(axis=1).astype(np.int64)


def sparse_counts(codes: I64, weight: F64 | None) -> tuple[I64, F64]:
    """The distinct codes (ascending) and the count (or weight sum) of each."""
    distinct, inverse = np.unique(codes, return_inverse=True)
    counts = np.bincount(inverse.ravel(), weights=weight, minlength=distinct.size).astype(np.float64)
    return distinct.astype(np.int64), counts


def merge_sparse(a: tuple[I64, F64], b: tuple[I64, F64]) -> tuple[I64, F64]:
    """Two sparse counts added together (codes ascending)."""
    codes = np.concatenate([a[0], b[0]])
    distinct, inverse = np.unique(codes, return_inverse=True)
    counts = np.bincount(inverse.ravel(), weights=np.concatenate([a[1], b[1]]), minlength=distinct.size)
    return distinct.astype(np.int64), counts.astype(np.float64)


def dense(codes: I64, counts: F64, k: int, integer: bool) -> npt.NDArray[np.int64] | F64:
    """The k x k matrix of sparse counts (int64 when ``integer``: unweighted rows)."""
    out = np.zeros(k * k, dtype=np.float64)
    out[codes] = counts
    matrix = out.reshape(k, k)
    return np.rint(matrix).astype(np.int64) if integer else matrix


def confusion(truth: Bool, scores: F64, weight: F64 | None) -> npt.NDArray[np.int64] | F64:
    """The k x k confusion matrix of one-positive rows: int64 counts, or float64 weight sums when weighted."""
    k = scores.shape[1]
    counts = np.bincount(pair_codes(truth, scores), weights=weight, minlength=k * k).reshape(k, k)
    return counts.astype(np.int64) if weight is None else counts.astype(np.float64)


def accuracy(matrix: npt.NDArray[np.int64] | F64) -> float:
    """The diagonal over the total (weights: their sums); NaN with nothing counted."""
    total = float(matrix.sum())
    return float(np.trace(matrix)) / total if total > 0 else float("nan")


def _divide(num: F64, den: F64) -> F64:
    """num / den, 0.0 where den is 0 (scikit-learn's default zero_division)."""
    out = np.zeros_like(num, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


def precision_recall_f(
    matrix: npt.NDArray[np.int64] | F64, average: str | None, beta: float
) -> tuple[F64 | float, F64 | float, F64 | float, F64]:
    """(precision, recall, F-beta, support) as scikit-learn's ``precision_recall_fscore_support``.

    Per class: tp the diagonal, predicted the column sums, true the row sums;
    precision tp / predicted, recall tp / true, F-beta (1 + b^2) tp /
    (b^2 true + predicted), each 0.0 on 0/0. "micro" sums tp, predicted and
    true first; "macro" is the plain mean of the per-class values;
    "weighted" their mean weighted by the support (true counts), the plain
    mean when every support is 0. ``support`` is always per class.
    """
    m = np.asarray(matrix, dtype=np.float64)
    tp, pred, true = np.diag(m).copy(), m.sum(axis=0), m.sum(axis=1)
    if average == "micro":
        tp, pred, true = np.array([tp.sum()]), np.array([pred.sum()]), np.array([true.sum()])
    b2 = beta * beta
    precision = _divide(tp, pred)
    recall = _divide(tp, true)
    f = _divide((1 + b2) * tp, b2 * true + pred)  # beta > 0 (checked by the caller)
    support = m.sum(axis=1)
    if average is None:
        return precision, recall, f, support
    if average == "micro":
        return float(precision[0]), float(recall[0]), float(f[0]), support
    weights = support if average == "weighted" and support.sum() > 0 else None
    return (float(np.average(precision, weights=weights)), float(np.average(recall, weights=weights)),
            float(np.average(f, weights=weights)), support)  # fmt: skip
