"""The checks of the decision queries: what to maximize, constraints, confidence, costs, probabilities, prevalence."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .errors import fail
from .options import check_seed

MAXIMIZE = ("precision", "recall", "tnr", "f1", "accuracy", "youden", "net_benefit")
CONSTRAINT_KEYS = ("precision", "recall", "fpr", "tnr", "accepted_fraction")


def _real(value: Any) -> bool:
    return not isinstance(value, (bool, np.bool_)) and isinstance(value, (int, float, np.integer, np.floating))


def check_maximize(value: Any, func: str) -> str:
    if not isinstance(value, str) or value not in MAXIMIZE:
        raise fail(ValueError, func, "maximize", "one of " + ", ".join(repr(m) for m in MAXIMIZE), value)
    return value


def check_subject_to(value: Any, func: str) -> dict[str, float]:
    """A mapping of constraint name -> target in [0, 1]; a misspelled name lists the valid ones."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise fail(TypeError, func, "subject_to", "a mapping of constraint name to target, e.g. {'precision': 0.9}",
                   value)  # fmt: skip
    out: dict[str, float] = {}
    for key, target in value.items():
        if key not in CONSTRAINT_KEYS:
            raise fail(ValueError, func, "subject_to",
                       "a mapping whose keys are among " + ", ".join(repr(k) for k in CONSTRAINT_KEYS)
                       + f" (>= for precision, recall, tnr; <= for fpr, accepted_fraction); the key {key!r} is not",
                       dict(value))  # fmt: skip
        if not _real(target) or not 0.0 <= float(target) <= 1.0:
            raise fail(ValueError, func, f"subject_to[{key!r}]", "a real number in [0, 1]", target)
        out[str(key)] = float(target)
    return out


def check_decision_confidence(value: Any, func: str) -> float | None:
    """None, or a confidence level strictly between 0 and 1."""
    if value is None:
        return None
    if not _real(value) or not 0.0 < float(value) < 1.0:
        raise fail(ValueError, func, "confidence", "None or a real number strictly between 0 and 1 (e.g. 0.95)",
                   value)  # fmt: skip
    return float(value)


def check_integer_counts(ok: bool, func: str) -> None:
    """A binomial test needs whole counts: refuse non-integer sample weights with ``confidence``."""
    if not ok:
        raise ValueError(f"{func}: argument 'confidence' needs whole counts (no sample weights, or integer ones); "
                         "this evaluator holds non-integer sample weights.")  # fmt: skip


def check_cost(value: Any, func: str, name: str) -> float:
    if not _real(value) or not math.isfinite(float(value)):
        raise fail(ValueError if _real(value) else TypeError, func, name, "a finite real number", value)
    return float(value)


def check_costs(func: str, cost_fp: Any, cost_fn: Any, gain_tp: Any, gain_tn: Any) -> tuple[float, float, float, float]:
    """The four costs and gains of a cost query, each a finite real number, in that order."""
    return (check_cost(cost_fp, func, "cost_fp"), check_cost(cost_fn, func, "cost_fn"),
            check_cost(gain_tp, func, "gain_tp"), check_cost(gain_tn, func, "gain_tn"))  # fmt: skip


def check_operating_point(func: str, maximize: Any, subject_to: Any, confidence: Any,
                          seed: Any) -> tuple[str, dict[str, float], float | None, int]:  # fmt: skip
    """``operating_point``'s arguments, checked in order: the measure, the constraints, the level, the seed (None: 0)."""
    return (check_maximize(maximize, func), check_subject_to(subject_to, func),
            check_decision_confidence(confidence, func), check_seed(seed, func) or 0)  # fmt: skip


def check_probability_ranking(scores: np.ndarray, func: str) -> None:
    """Scores must be probabilities: name the first (in rank order) outside [0, 1]."""
    bad = np.flatnonzero((scores < 0.0) | (scores > 1.0))
    if bad.size:
        raise ValueError(f"{func}: the scores must be probabilities in [0, 1]; the score {float(scores[bad[0]])!r} "
                         f"(rank {int(bad[0]) + 1}) is not.")  # fmt: skip


def check_probability_range(highest: float, lowest: float, func: str) -> None:
    """Scores known by their range (a summary's bins) must be probabilities: name the extreme outside [0, 1]."""
    for score, which in ((highest, "highest"), (lowest, "lowest")):
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"{func}: the scores must be probabilities in [0, 1]; the {which} score, {score!r}, "
                             "is not.")  # fmt: skip


def check_probability_thresholds(value: Any, func: str) -> np.ndarray | None:
    """None, or a 1-D array of real thresholds in [0, 1); returned ascending as float64."""
    if value is None:
        return None
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise fail(TypeError, func, "thresholds", "None or a 1-D sequence of real numbers in [0, 1)", value) from None
    arr = np.atleast_1d(arr)
    if arr.ndim != 1:
        raise fail(ValueError, func, "thresholds", "None or a 1-D sequence of real numbers in [0, 1)", value)
    bad = np.flatnonzero(~((arr >= 0.0) & (arr < 1.0)))
    if bad.size:
        raise fail(ValueError, func, "thresholds", "real numbers in [0, 1)", float(arr[bad[0]]), int(bad[0]))
    return np.sort(arr)


def check_prevalence(value: Any, func: str) -> float:
    if not _real(value) or not 0.0 < float(value) < 1.0:
        raise fail(ValueError, func, "pi", "a real number strictly between 0 and 1", value)
    return float(value)


def check_prevalence_setup(pos: float, neg: float, negative_misses: int, func: str) -> None:
    """A prevalence view reweights the negatives: it needs both classes and no negative misses (which weigh 1)."""
    if pos <= 0 or neg <= 0:
        raise ValueError(f"{func}: the evaluator must hold positive and negative reference cases to be reweighted "
                         f"to a prevalence; it holds {pos!r} positive and {neg!r} negative.")  # fmt: skip
    if negative_misses:
        raise ValueError(f"{func}: negative misses cannot be reweighted (they are counts of weight 1); this evaluator "
                         f"holds {negative_misses}.")  # fmt: skip


#: The fields of a chosen point that ``assert_operating_point`` bounds, and the comparisons it takes.
POINT_FIELDS = ("threshold", "precision", "recall", "f1", "fpr", "tnr", "accepted_fraction", "value")
POINT_OPERATORS = ("ge", "gt", "le", "lt")


def check_point_bounds(bounds: Mapping[str, Any], func: str) -> list[tuple[str, str, float]]:
    """``field__op=number`` keywords as (field, op, limit); a misspelled one lists the valid forms."""
    out = []
    for key, limit in bounds.items():
        field_name, _, op = key.rpartition("__")
        if field_name not in POINT_FIELDS or op not in POINT_OPERATORS:
            raise ValueError(
                f"{func}: argument {key!r} must be FIELD__OP with FIELD one of {', '.join(POINT_FIELDS)} and OP one of "
                f"{', '.join(POINT_OPERATORS)} (e.g. recall__ge=0.8)."
            )
        if not _real(limit) or math.isnan(float(limit)):
            raise fail(ValueError, func, key, "a real number", limit)
        out.append((field_name, op, float(limit)))
    if not out:
        raise ValueError(f"{func}: give at least one bound, e.g. recall__ge=0.8; got none.")
    return out
