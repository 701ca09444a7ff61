"""The reliability diagram's entry of the HTML report, for a ranking whose scores are probabilities.

What :class:`scored_pr._display.reliability.ReliabilityDisplay` holds, thinned to the
page's budget: the CORP curve as step vertices, its consistency band as boxes (for
rankings of at most :data:`BAND_LIMIT` distinct scores: the band resamples the whole
fit), the binned points with their Clopper-Pearson intervals, the score histogram and
the Brier decomposition.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._display.reliability import ReliabilityDisplay

__all__ = ["BAND_LIMIT", "reliability"]

#: The most distinct scores whose CORP fit the page draws with a consistency band
#: (100 resamples, each a PAV over the distinct scores).
BAND_LIMIT = 20_000


def _thin(x: np.ndarray, budget: int) -> np.ndarray:
    """At most about ``budget`` indices into ``x`` (evenly spaced, both ends kept)."""
    if x.size <= budget:
        return np.arange(x.size)
    return np.unique(np.linspace(0, x.size - 1, budget).astype(np.int64))


def reliability(ev: Any, budget: int) -> dict[str, Any] | None:
    """The page's reliability entry of the exact evaluator ``ev``; None unless every score is a probability."""
    if not ev.scores_are_probabilities():
        return None
    distinct = int(np.unique(ev.ranked_cases()[0]).size)
    band = distinct <= BAND_LIMIT
    d = ReliabilityDisplay.from_evaluation(ev, n_bins=10, n_resamples=100 if band else 0, seed=0)
    diagram = d.diagram
    keep = _thin(diagram.scores, budget)
    xs, ys = diagram.scores[keep], diagram.recalibrated[keep]
    # step vertices: (x_i, y_i), (x_{i+1}, y_i), ...
    step_x = np.repeat(xs, 2)[1:]
    step_y = np.repeat(ys, 2)[:-1]
    boxes = None
    if diagram.lower is not None and diagram.upper is not None and xs.size:
        right = np.r_[xs[1:], xs[-1]]
        boxes = np.column_stack((xs, right, diagram.lower[keep], diagram.upper[keep])).tolist()
    return {
        "corp_x": step_x.tolist(), "corp_y": step_y.tolist(), "band": boxes,
        "confidence": diagram.confidence,
        "bins": np.column_stack((d.bin_score, d.bin_fraction, d.bin_lower, d.bin_upper, d.bin_weight)).tolist(),
        "level": d.level,
        "histogram": np.column_stack((d.edges[:-1], d.edges[1:], d.histogram)).tolist(),
        "mcb": diagram.mcb, "dsc": diagram.dsc, "unc": diagram.unc, "distinct": distinct,
    }
