"""LingPipe 4.1.0's curves and scores: pure functions over the points at every rank.

LingPipe 4.x rebuilt ``ScoredPrecisionRecallEvaluation`` around one operating
point per rank (after incorrect cases too) and the limit points of each
curve. Every function here takes :func:`scored_pr._core.points.every_rank` points
(ties in insertion order, as LingPipe's stable sort leaves them) or a curve
built from them, and returns the float64 values LingPipe 4.1.0 returns, in its
order of operations. Nothing validates input or keeps state; the class in
:mod:`scored_pr.lingpipe._evaluation` does.

Throughout, R = ``numPositiveRef()`` (correct cases + misses) and N =
``numNegativeRef()`` (incorrect cases + negative misses); 0/0 is NaN, as in
Java's double arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

import numpy as np

from .._core import curves as C, points as P, scalars as M
FloatArray = P.FloatArray

#: prCurve's first row and the row every interpolated curve starts with.
PR_START = (0.0, 1.0)
#: prCurve's last row: everything returned, nothing left to find.
PR_END = (1.0, 0.0)
#: rocCurve's first and last rows.
ROC_START = (0.0, 0.0)
ROC_END = (1.0, 1.0)
#: recall levels of elevenPtInterpPrecision, computed as Java does (0.1 * i).
ELEVEN_LEVELS = tuple(0.1 * i for i in range(11))
#: elevenPtInterpPrecision's tolerance: a row counts when recall + 1e-13 >= the level.
RECALL_SLACK = 1e-13


def pr_curve(points: P.Points, num_positive_ref: int) -> FloatArray:
    """``prCurve(false)``: (recall, precision) after every rank, between the limit points.

    Rows: (0, 1); then (TP/R, TP/k) for k = 1..n, except rows where both are
    0 (incorrect cases ranked before the first correct one); then (1, 0).
    With R = 0 recall is NaN (0/0) and no row is skipped. Shape (m, 2),
    2 <= m <= n + 2.
    """
    r = C.recall(points, num_positive_ref)
    p = C.precision(points)
    keep = ~((r == 0.0) & (p == 0.0))
    return np.vstack((PR_START, np.column_stack((r[keep], p[keep])), PR_END))


def pr_score_curve(points: P.Points, num_positive_ref: int) -> FloatArray:
    """``prScoreCurve(false)``: (recall, precision, score) after every rank, no limit points."""
    return np.column_stack((C.recall(points, num_positive_ref), C.precision(points), -points.neg_score))


def interpolated_rows(curve: FloatArray) -> FloatArray:
    """The rows an interpolated PR curve keeps after its first row (0, 1).

    Precision becomes the running maximum from the right, that is the best
    precision at this or any higher recall (starting from 0.0; a NaN never
    raises it and is replaced by it). Then, of each run of rows with equal
    recall, only the first is kept, and a first run with recall 0 is dropped
    (the caller starts the curve with (0, 1) instead). NaN recalls never
    compare equal, so they are all kept. Columns beyond the second are
    carried along.
    """
    p = curve[:, 1]
    # [0, p_{n-1}, ..., p_0] accumulated, then reversed without the 0 seed.
    best = np.fmax.accumulate(np.concatenate(([0.0], p[::-1])))[:0:-1]
    r = curve[:, 0]
    keep = r != np.concatenate(([0.0], r[:-1]))
    out = curve[keep]
    out[:, 1] = best[keep]
    return out


def interpolated_pr_curve(curve: FloatArray) -> FloatArray:
    """``prCurve(true)`` from ``prCurve(false)``: (0, 1), then :func:`interpolated_rows`."""
    return np.vstack((PR_START, interpolated_rows(curve)))


class RaggedCurve(Sequence[FloatArray]):
    """LingPipe 4.1's interpolated ``prScoreCurve``: a ragged ``double[][]``.

    Row 0 is ``[0.0, 1.0]``, the (recall, precision) start of every
    interpolated 4.1 curve, with no score; every later row is
    ``[recall, precision, score]``. It indexes as Java's array does:
    ``len(curve)`` is ``curve.length``, ``curve[i]`` a row (a writable 1-d
    float64 view into this object), ``len(curve[i])`` is
    ``curve[i].length``, and ``curve[0][2]`` raises ``IndexError`` where
    Java throws ``ArrayIndexOutOfBoundsException``. Negative indices and
    slices (a list of rows) work as for a list. :attr:`rows` is the (n - 1,
    3) array of the scored rows and :meth:`tolist` the nested lists.

    Memory: one (n - 1, 3) array plus the first row, not an object per row.

    Examples
    --------
    >>> import numpy as np
    >>> curve = RaggedCurve(np.array([[0.5, 1.0, 2.0], [1.0, 0.5, 1.0]]))
    >>> len(curve), len(curve[0]), len(curve[1]), float(curve[1][2])
    (3, 2, 3, 2.0)
    >>> curve.tolist()
    [[0.0, 1.0], [0.5, 1.0, 2.0], [1.0, 0.5, 1.0]]
    """

    __slots__ = ("_first", "_rows")

    def __init__(self, rows: FloatArray, first: FloatArray | None = None) -> None:
        self._first = np.array(PR_START) if first is None else first
        self._rows = rows

    @property
    def rows(self) -> FloatArray:
        """The rows after the first, shape (n - 1, 3): (recall, precision, score)."""
        return self._rows

    def copy(self) -> RaggedCurve:
        """A copy that shares no memory with this curve."""
        return RaggedCurve(self._rows.copy(), self._first.copy())

    def tolist(self) -> list[list[float]]:
        """The rows as nested lists of floats, the first with two elements."""
        return [self._first.tolist(), *self._rows.tolist()]

    def __len__(self) -> int:
        return 1 + self._rows.shape[0]

    @overload
    def __getitem__(self, index: int) -> FloatArray: ...

    @overload
    def __getitem__(self, index: slice) -> list[FloatArray]: ...

    def __getitem__(self, index: int | slice) -> FloatArray | list[FloatArray]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError(f"row index {index} out of range for a curve of {n} rows")
        return self._first if i == 0 else self._rows[i - 1]

    def __iter__(self) -> Iterator[FloatArray]:
        yield self._first
        yield from self._rows

    def __repr__(self) -> str:
        return f"RaggedCurve({self.tolist()!r})"


def interpolated_pr_score_curve(curve: FloatArray) -> RaggedCurve:
    """``prScoreCurve(true)`` from ``prScoreCurve(false)``: ragged, as in LingPipe 4.1.0.

    The first row is the two-element (0, 1) that starts every interpolated
    curve (it has no score); then the three-element rows of
    :func:`interpolated_rows`.
    """
    return RaggedCurve(interpolated_rows(curve))


def roc_curve(points: P.Points, num_positive_ref: int, num_negative_ref: int) -> FloatArray:
    """``rocCurve(false)``: (1 - specificity, sensitivity) after every rank, between limit points.

    Rows: (0, 0); then (1 - TN/N, TP/R) for k = 1..n, TN = N - FP counting
    down from N (computed in that order: 1 - TN/N is not always the double
    FP/N); then (1, 1). NaN where N or R is 0.
    """
    tn = num_negative_ref - points.fp
    with np.errstate(divide="ignore", invalid="ignore"):
        x = 1.0 - tn / np.float64(num_negative_ref)
    y = C.recall(points, num_positive_ref)
    return np.vstack((ROC_START, np.column_stack((x, y)), ROC_END))


def interpolated_roc_curve(curve: FloatArray) -> FloatArray:
    """``rocCurve(true)``: drop every row whose x equals the next row's x; keep the last row.

    NaN never equals NaN, so rows with a NaN x are all kept.
    """
    x = curve[:, 0]
    return curve[np.append(x[:-1] != x[1:], True)]


def trapezoid_area(curve: FloatArray) -> float:
    """Area under the piecewise-linear curve through the rows (x, y).

    sum over consecutive rows of (y1 + y2) * (x2 - x1) / 2, in that operand
    order, summed left to right from 0.0; 0.0 with fewer than two rows. NaN
    if any row holds NaN.
    """
    if curve.shape[0] < 2:
        return 0.0
    x = curve[:, 0]
    y = curve[:, 1]
    # + 0.0: the Java loop starts from 0.0, so an all-zero sum is 0.0, never -0.0.
    return P.seqsum((y[:-1] + y[1:]) * (x[1:] - x[:-1]) / 2.0) + 0.0


def maximum_f_measure(curve: FloatArray, beta: float) -> float:
    """The largest F-beta over the rows of ``prCurve(false)``, limit points included.

    F_beta = (1 + b^2) R P / (R + b^2 P) per row; the result starts at 0.0
    and takes Java's ``Math.max`` row by row, which returns NaN as soon as
    one operand is NaN: with R = 0 and at least one case, every rank's
    recall is NaN and so is the result.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        f = M.f_beta(curve[:, 0], curve[:, 1], beta)
    if np.isnan(f).any():
        return float("nan")
    return float(max(0.0, float(f.max()))) if f.size else 0.0


def r_precision(curve: FloatArray, num_positive_ref: int) -> float:
    """LingPipe 4.1.0's ``rPrecision()``, read off ``prCurve(false)`` by row index.

    1.0 when R = 0. When R is smaller than the number of rows m, the
    precision of row R - 1 (row 0 being the (0, 1) limit point, so with no
    skipped rows this is the precision at rank R - 1, not R; skipped leading
    (0, 0) rows shift it further down the ranking); otherwise the last row's
    precision (0.0) times (m - 1) / R, which is 0.0.
    """
    if num_positive_ref == 0:
        return 1.0
    m = curve.shape[0]
    if num_positive_ref < m:
        return float(curve[num_positive_ref - 1, 1])
    return float(curve[m - 1, 1]) * (m - 1) / num_positive_ref


def eleven_point_precision(interpolated: FloatArray) -> FloatArray:
    """``elevenPtInterpPrecision()``: precision at recall 0.0, 0.1, ..., 1.0.

    At each level, the precision of the first row of ``prCurve(true)`` whose
    recall + 1e-13 >= the level; 0.0 if there is none. Shape (11,).
    """
    r = interpolated[:, 0] + RECALL_SLACK
    out = np.zeros(len(ELEVEN_LEVELS), dtype=np.float64)
    for i, level in enumerate(ELEVEN_LEVELS):
        hits = np.flatnonzero(r >= level)
        if hits.size:
            out[i] = interpolated[hits[0], 1]
    return out


def precision_at(points: P.Points, rank: int) -> float:
    """Correct cases among the top ``rank`` / ``rank``; 1.0 for rank 0.

    Ranks beyond the cases added count as incorrect (the denominator stays
    ``rank``).
    """
    if rank == 0:
        return 1.0
    return M.tp_top(points, min(rank, points.tp.size)) / rank
