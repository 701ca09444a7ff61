"""``scored-pr report --calibration``: the calibration of one ranking's scores, after its report.

The measures (expected calibration error with 15 uniform bins, its debiased estimate, the Brier
score and its CORP decomposition, the log loss, the logistic recalibration's slope and
intercept) and the table of 10 uniform bins (edges, cases, mean score, fraction correct). In
JSON, one ``calibration`` object inside the report's object; as text, the two tables of
:func:`.output.print_calibration`. Scores outside [0, 1] stop the command with status 2 and the
query's message (which names the score).
"""

from __future__ import annotations

import argparse
from typing import Any

from .._io.values import finite_or_none

__all__ = ["BINS", "add_option", "calibration_json"]

#: The bins of the printed table (uniform), and of the measures' ECE (torchmetrics' default).
BINS = 10
ECE_BINS = 15


def add_option(p: argparse.ArgumentParser) -> None:
    """``--calibration`` on ``report``."""
    p.add_argument(
        "--calibration", action="store_true",
        help="also report the calibration of the scores, which must be probabilities in [0, 1]: ECE (15 uniform "
        "bins, plain and debiased), Brier score with its CORP decomposition, log loss, the logistic "
        f"recalibration's slope and intercept, and a table of {BINS} uniform bins",
    )  # fmt: skip


def calibration_json(ev: Any) -> dict[str, Any]:
    """The measures and the bins as plain data (ValueError for a score outside [0, 1])."""
    import numpy as np  # here: `scored-pr --help` imports no numpy
    d = ev.reliability_diagram(n_resamples=0)
    slope, intercept = ev.calibration_slope_intercept()
    measures = {
        "expected_calibration_error": ev.expected_calibration_error(n_bins=ECE_BINS),
        "expected_calibration_error_debiased": ev.expected_calibration_error(n_bins=ECE_BINS, debias=True),
        "maximum_calibration_error": ev.expected_calibration_error(n_bins=ECE_BINS, norm="max"),
        "brier_score": ev.brier_score(), "miscalibration": d.mcb, "discrimination": d.dsc, "uncertainty": d.unc,
        "log_loss": ev.log_loss(), "calibration_slope": slope, "calibration_intercept": intercept,
    }  # fmt: skip
    ranked, correct, weights = ev.ranked_cases()  # scores descending
    scores = np.asarray(ranked, dtype=np.float64)
    w = np.ones_like(scores) if weights is None else np.asarray(weights, dtype=np.float64)
    edges = np.linspace(0.0, 1.0, BINS + 1)
    ids = np.searchsorted(edges[1:-1], scores, side="left")  # (e_i, e_{i+1}], as calibration_curve
    count = np.bincount(ids, minlength=BINS)
    weight = np.bincount(ids, weights=w, minlength=BINS)
    score = np.bincount(ids, weights=w * scores, minlength=BINS)
    hits = np.bincount(ids, weights=w * np.asarray(correct, dtype=np.float64), minlength=BINS)
    bins = []
    for i in range(BINS):
        full = weight[i] > 0
        bins.append({"low": float(edges[i]), "high": float(edges[i + 1]), "cases": int(count[i]),
                     "mean_score": float(score[i] / weight[i]) if full else None,
                     "fraction_correct": float(hits[i] / weight[i]) if full else None})  # fmt: skip
    return {"measures": {k: finite_or_none(v) for k, v in measures.items()}, "bins": bins}
