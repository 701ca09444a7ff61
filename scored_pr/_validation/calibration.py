"""The checks of the calibration queries: their options, and scores that must be probabilities."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .errors import fail
from .options import check_choice, check_flag, check_positive_int, check_seed

__all__ = ["NORMS", "STRATEGIES", "check_calibration_bins", "check_ece_options", "check_probability_scores",
           "check_reliability_options"]  # fmt: skip

#: The norms of ``expected_calibration_error``.
NORMS = ("l1", "l2", "max")
#: The bin strategies of ``calibration_curve`` and ``expected_calibration_error``.
STRATEGIES = ("uniform", "quantile")


def check_probability_scores(lowest: float, highest: float, func: str) -> None:
    """Refuse a calibration query when a score lies outside [0, 1], naming the score."""
    if lowest < 0.0 or highest > 1.0:
        bad = lowest if lowest < 0.0 else highest
        raise ValueError(
            f"{func}: every score must be a probability in [0, 1]; got the score {bad!r} instead. "
            "Calibration compares scores with outcome frequencies, so pass probabilities "
            "(for logits, their sigmoid 1 / (1 + exp(-score)))."
        )


def check_calibration_bins(n_bins: Any, strategy: Any, func: str) -> tuple[int, str]:
    """``n_bins`` an int >= 1 and ``strategy`` one of :data:`STRATEGIES`."""
    return check_positive_int(n_bins, func, "n_bins"), check_choice(strategy, func, "strategy", STRATEGIES)


def check_ece_options(n_bins: Any, norm: Any, strategy: Any, debias: Any, func: str) -> tuple[int, str, str, bool]:
    """The options of ``expected_calibration_error``; ``debias`` applies to the l1 and l2 norms only."""
    n_bins, strategy = check_calibration_bins(n_bins, strategy, func)
    norm = check_choice(norm, func, "norm", NORMS)
    debias = check_flag(debias, func, "debias")
    if debias and norm == "max":
        raise fail(ValueError, func, "norm", "'l1' or 'l2' when debias=True (the maximum has no debiased estimator)", norm)
    return n_bins, norm, strategy, debias


def check_reliability_options(confidence: Any, n_resamples: Any, seed: Any, func: str) -> tuple[float, int, int | None]:
    """``confidence`` strictly between 0 and 1, ``n_resamples`` an int >= 0 (0: no band), ``seed`` as numpy takes it."""
    if isinstance(confidence, (bool, np.bool_)) or not isinstance(confidence, (int, float, np.integer, np.floating)) or not (
        0.0 < float(confidence) < 1.0 and math.isfinite(float(confidence))
    ):
        raise fail(ValueError, func, "confidence", "a real number strictly between 0 and 1", confidence)
    if isinstance(n_resamples, (bool, np.bool_)) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 0:
        raise fail(ValueError, func, "n_resamples", "an int >= 0 (0: no band)", n_resamples)
    return float(confidence), int(n_resamples), check_seed(seed, func)
