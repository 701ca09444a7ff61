"""The checks of :mod:`scored_pr.testing`'s assertions: bounds, margins, confidence levels, forms."""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np


def _is_real(value: Any) -> bool:
    """A real number as :mod:`numbers` defines it (Fraction too), not a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def check_confidence(value: Any, func: str) -> float:
    """A one-sided confidence level in [0.5, 1)."""
    if not _is_real(value) or not 0.5 <= value < 1.0:
        raise ValueError(f"{func}: argument 'confidence' must be a real number in [0.5, 1) (e.g. 0.95); got {value!r} instead.")
    return float(value)


def check_margin(value: Any, func: str) -> float:
    """A non-inferiority margin: a finite real number >= 0."""
    if not _is_real(value) or not 0.0 <= value < math.inf:
        raise ValueError(f"{func}: argument 'margin' must be a finite real number >= 0; got {value!r} instead.")
    return float(value)


def check_comparison_form(unpaired: bool, baseline_scores: Any, func: str) -> None:
    """Two evaluators (unpaired, no third positional argument), or labels with two score arrays (paired)."""
    if unpaired and baseline_scores is not None:
        raise TypeError(
            f"{func}: with two evaluators (the unpaired form assert_not_worse(candidate, baseline)) pass "
            f"'measure' and the other options by keyword; got a third positional argument "
            f"{baseline_scores!r:.60} instead."
        )
    if not unpaired and baseline_scores is None:
        raise TypeError(
            f"{func}: argument 'baseline_scores' is required with labels and scores (the paired form "
            "assert_not_worse(correct, candidate_scores, baseline_scores)); got None instead."
        )


def check_bounds_given(bounds: Mapping[str, Any], func: str) -> None:
    """At least one ``metric=bound`` keyword."""
    if not bounds:
        raise ValueError(f"{func}: give at least one metric=bound.")


def check_metric_bound(name: str, bound: Any, operators: Iterable[str], func: str) -> None:
    """A bound: a number, an (operator, number) pair, or an object compared with == (pytest.approx)."""
    ops = tuple(operators)
    if isinstance(bound, numbers.Real) and not isinstance(bound, (bool, np.bool_)):
        return
    if isinstance(bound, tuple) and len(bound) == 2 and isinstance(bound[0], str):
        op, limit = bound
        if op in ops and isinstance(limit, numbers.Real) and not isinstance(limit, (bool, np.bool_)):
            return
    elif not isinstance(bound, (str, bytes, tuple, list, dict, set, type(None), bool, np.bool_)):
        return
    raise ValueError(
        f"{func}: the bound of {name!r} must be a number, an (operator, number) pair with "
        f"operator one of {', '.join(ops)}, or an object compared with == such as "
        f"pytest.approx(...); got {bound!r} instead."
    )


def check_resamplable(evaluation: Any, func: str) -> None:
    """``confidence=`` needs an evaluator's cases: a summary mapping has none to resample."""
    if isinstance(evaluation, Mapping):
        raise ValueError(
            f"{func}: 'confidence' needs a ScoredPrecisionRecallEvaluation (a summary dict has no cases "
            f"to resample); got {type(evaluation).__name__} instead."
        )
