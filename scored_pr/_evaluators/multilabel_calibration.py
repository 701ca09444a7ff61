"""The calibration error of a ``MultiLabelEvaluation``'s rows: of the top-scoring label, or per label.

A mixin of :class:`scored_pr.MultiLabelEvaluation`; the math is
:mod:`scored_pr._core.calibration`. It reads the rows held (``_consolidate``) and the memo of the
evaluation it is mixed into; the bounded kind keeps no row and refuses.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from .._core import calibration as K
from .._validation import check_choice, check_ece_options, check_probability_scores
from .base import unsupported

__all__ = ["LabelCalibrationQueries"]

F64 = npt.NDArray[np.float64]
Bool = npt.NDArray[np.bool_]
#: The averages of ``expected_calibration_error`` over a row's labels.
AVERAGES = ("top_label", "classwise")


class LabelCalibrationQueries:
    """``expected_calibration_error`` of ``MultiLabelEvaluation`` (a mixin; it holds no state).

    The class it is mixed into keeps ``_bounded`` (the bounded kind's
    summaries, or None), ``_cached`` and ``_consolidate`` (the rows held).
    """

    _bounded: Any
    _cached: Callable[[Any, Any], Any]
    _consolidate: Callable[[], tuple[Bool, F64, F64 | None]]

    def expected_calibration_error(self, n_bins: int = 15, norm: str = "l1", average: str = "top_label") -> float:
        """The binned calibration error of the rows' probabilities (every score in [0, 1]).

        Parameters
        ----------
        n_bins : int, default 15
            Uniform bins, ``linspace(0, 1, n_bins + 1)``, closed on the left,
            the last closed (a score of 1.0 is in the last bin), as
            :meth:`ScoredPrecisionRecallEvaluation.expected_calibration_error`.
        norm : {"l1", "l2", "max"}, default "l1"
        average : {"top_label", "classwise"}, default "top_label"
            ``"top_label"``: each row's highest score against whether that
            label is a positive of the row (ties: the first column, as
            ``numpy.argmax``), one binary calibration error over the rows
            (the usual multi-class ECE). ``"classwise"``: each label's binary
            calibration error (its column of scores against its column of
            outcomes), averaged over the labels with equal weight.

        Returns
        -------
        float
            NaN with no row.

        Raises
        ------
        ValueError
            A score outside [0, 1] (named), ``n_bins < 1``, an unknown
            ``norm`` or ``average``.
        scored_pr.UnsupportedQuery
            For the bounded kind, which keeps no row.

        Notes
        -----
        ``"top_label"`` on multi-class rows equals torchmetrics'
        ``MulticlassCalibrationError(num_classes=k, n_bins, norm)`` given
        the rows as probabilities, except that torchmetrics gives a top
        score of exactly 1.0 a bin of its own. Sample weights weight the
        rows. The windowed kind answers on the rows in its window. O(n k)
        plus a sort of n (top label) or of each column (classwise), cached
        until the next change. No LingPipe or trec_eval counterpart.

        Examples
        --------
        >>> from scored_pr import MultiLabelEvaluation
        >>> ev = MultiLabelEvaluation(["cat", "dog"])
        >>> ev.add_cases(["cat", "dog", "dog", "cat"], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.7, 0.3]])
        >>> round(ev.expected_calibration_error(n_bins=5), 6)  # 0.6 < linspace's 0.6000000000000001: bin [0.4, 0.6)
        0.3
        """
        func = "expected_calibration_error"
        n_bins, norm, _, _ = check_ece_options(n_bins, norm, "uniform", False, func)
        average = check_choice(average, func, "average", AVERAGES)
        if self._bounded is not None:
            raise unsupported("MultiLabelEvaluation", func, "a bounded evaluation keeps no row, and its bins are "
                              "ranking bins, not calibration bins", "keep an exact MultiLabelEvaluation")
        truth, scores, weight = self._consolidate()
        if scores.size:
            check_probability_scores(float(scores.min()), float(scores.max()), func)
        return self._cached(  # type: ignore[no-any-return]
            ("calibration", n_bins, norm, average),
            lambda: K.multiclass_ece(scores, truth, weight, n_bins, norm, average),
        )
