"""Calibration of a ranking whose rows live apart (Spark, Dask, Ray): per-partition sums, added on the driver.

Every calibration measure the engines compute is a function of sums over the
rows, so each partition sums its own rows (:func:`partition_sums`) and the
driver adds the partitions' records (:func:`merge`):

* for each uniform bin count n (edges ``linspace(0, 1, n + 1)``) and each
  closure (``"left"``: the expected calibration error's bins; ``"right"``:
  the reliability curve's), per bin: the weight, the positive weight, the
  weighted score sum and the squared weights (Kish's effective size, for the
  debiased estimator). The bin of a score is
  :func:`scored_pr._core.calibration.bin_ids`, the exact evaluator's rule, so
  every row lands in the bin it lands in there;
* the Brier score's sum of w (s - y)**2 and the log loss's sum of
  -w log(s) (correct rows) or -w log(1 - s) (the others), s clipped to
  [EPS, 1 - EPS] as the evaluator clips it;
* the row count, the weight, the lowest and highest score and the highest
  negative one (a calibration or decision query refuses scores outside
  [0, 1], naming one, as the evaluator does);
* riding on the same pass, the decision queries' counts at the cut-offs
  asked for (``partitioned_decisions.partition_cutoffs``).

What the driver receives is O(partitions x sum of the bin counts), never the
rows. Unweighted, the bins' weights and positive weights are counts, so they
are exact; every other sum is added in another order than the evaluator's
(per distinct score, then per bin), so the measures agree to about 1e-15
relative. Quantile bins are not here: their edges are the scores' weighted
percentiles, which need the rows ranked across partitions.

Pure numpy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from .calibration import EPS, CalibrationBins, bin_ids
from .partitioned_decisions import Cutoffs, merge_cutoffs, partition_cutoffs

__all__ = ["DEFAULT_BIN_COUNTS", "CalibrationSums", "merge", "partition_sums"]

F64 = npt.NDArray[np.float64]

#: The bin counts the engines always sum: ``calibration_curve``'s default (5), a common choice (10) and
#: ``expected_calibration_error``'s default (15, the summary's).
DEFAULT_BIN_COUNTS = (5, 10, 15)


@dataclass
class CalibrationSums:
    """The calibration sums of some rows (one partition's, or every partition's added).

    ``bins[(n, closed)]`` is a (4, n) array: per bin, weight, positive weight,
    weighted score sum and squared weights. ``lowest``/``highest``: the
    extreme scores (+inf/-inf without a row).
    """

    rows: int = 0
    weight: float = 0.0
    brier: float = 0.0
    log_loss: float = 0.0
    lowest: float = math.inf
    highest: float = -math.inf
    highest_negative: float = -math.inf
    bins: dict[tuple[int, str], F64] = field(default_factory=dict)
    cutoffs: Cutoffs = field(default_factory=Cutoffs)

    def calibration_bins(self, n_bins: int, closed: str) -> CalibrationBins:
        """The sums as :class:`~scored_pr._core.calibration.CalibrationBins` (KeyError: that count was not summed)."""
        a = self.bins[(n_bins, closed)]
        edges: F64 = np.linspace(0.0, 1.0, n_bins + 1, dtype=np.float64)
        return CalibrationBins(edges, a[0], a[1], a[2], a[3])


def partition_sums(
    scores: F64, correct: npt.NDArray[np.bool_], weights: F64 | None, bin_counts: tuple[int, ...],
    thresholds: F64 | None = None,
) -> CalibrationSums:
    """The sums of one partition's rows (scores as float64, already checked: no NaN). O(rows x bin counts)."""
    w = np.ones(scores.size) if weights is None else np.asarray(weights, dtype=np.float64)
    y = np.asarray(correct, dtype=bool)
    wy = np.where(y, w, 0.0)
    ws = scores * w
    ww = w * w
    out = CalibrationSums(rows=int(scores.size), weight=float(np.sum(w)))
    if scores.size:
        out.lowest, out.highest = float(np.min(scores)), float(np.max(scores))
        if out.lowest < 0.0:
            out.highest_negative = float(np.max(scores[scores < 0.0]))
        with np.errstate(all="ignore"):  # scores outside [0, 1]: the queries refuse them, the sums are unused
            diff = scores - y
            out.brier = float(np.sum(w * diff * diff))
            s = np.clip(scores, EPS, 1.0 - EPS)
            out.log_loss = float(-np.sum(wy * np.log(s) + (w - wy) * np.log1p(-s)))
    for n in bin_counts:
        edges: F64 = np.linspace(0.0, 1.0, n + 1, dtype=np.float64)
        for closed in ("left", "right"):
            ids = bin_ids(scores, edges, closed)
            out.bins[(n, closed)] = np.stack([np.bincount(ids, weights=v, minlength=n)[:n] for v in (w, wy, ws, ww)])
    if thresholds is not None:
        out.cutoffs = partition_cutoffs(scores, y, w, thresholds)
    return out


def merge(parts: list[CalibrationSums], bin_counts: tuple[int, ...], thresholds: F64 | None = None
          ) -> CalibrationSums:
    """Every partition's sums added (the bins elementwise, the scalars with ``math.fsum``)."""
    out = CalibrationSums(
        rows=sum(p.rows for p in parts), weight=math.fsum(p.weight for p in parts),
        brier=math.fsum(p.brier for p in parts), log_loss=math.fsum(p.log_loss for p in parts),
        lowest=min((p.lowest for p in parts), default=math.inf),
        highest=max((p.highest for p in parts), default=-math.inf),
        highest_negative=max((p.highest_negative for p in parts), default=-math.inf),
    )
    if thresholds is not None:
        out.cutoffs = merge_cutoffs([p.cutoffs for p in parts], thresholds)
    for n in bin_counts:
        for closed in ("left", "right"):
            total = np.zeros((4, n))
            for p in parts:
                total += p.bins[(n, closed)]
            out.bins[(n, closed)] = total
    return out
