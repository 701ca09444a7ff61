"""operating_point(confidence=...) keeps its promise on new data: a simulation over 1,000 draws (soak tier).

Calibration cases are drawn from a known distribution (positives' scores N(2, 1), negatives'
N(0, 1), prevalence 0.3), so the precision and recall of any threshold on new data from it are
known exactly. The constraint certified at confidence 0.95 must fail on the distribution in at
most 5% of the draws (plus three standard errors of the simulation). benchmarks/bench_decisions.py
runs the same simulation with more draws and MAPIE's controller beside it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation

norm = pytest.importorskip("scipy.stats").norm

PREVALENCE, SHIFT = 0.3, 2.0


def true_precision(t: float) -> float:
    tp, fp = PREVALENCE * norm.sf(t - SHIFT), (1 - PREVALENCE) * norm.sf(t)
    return float(tp / (tp + fp)) if tp + fp > 0 else math.nan


def true_recall(t: float) -> float:
    return float(norm.sf(t - SHIFT))


def draw(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    y = rng.random(n) < PREVALENCE
    return y, rng.normal(size=n) + SHIFT * y


@pytest.mark.parametrize(("maximize", "constraint", "target", "truth"), [
    ("recall", "precision", 0.9, true_precision),  # not monotone: the split fixed sequence
    ("precision", "recall", 0.8, true_recall),  # monotone: the fixed sequence from the lowest threshold
])  # fmt: skip
def test_violation_rate_on_new_data_is_at_most_the_level(maximize: str, constraint: str, target: float, truth) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(2024)
    draws, violations, feasible, confidence = 1000, 0, 0, 0.95
    for i in range(draws):
        y, s = draw(rng, 4000)
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(y, s)
        point = ev.operating_point(maximize, {constraint: target}, confidence=confidence, seed=i)
        if point.feasible:
            feasible += 1
            violations += truth(point.threshold) < target
    rate = violations / draws
    se = math.sqrt(0.05 * 0.95 / draws)
    assert rate <= 0.05 + 3 * se, (rate, violations, feasible)
    assert feasible >= draws * 0.9  # the test has power: a certified threshold is found almost always
    # and the point estimate alone does not keep the promise (the simulation can fail)
    rng = np.random.default_rng(7)
    naive = 0
    for _ in range(200):
        y, s = draw(rng, 4000)
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(y, s)
        point = ev.operating_point(maximize, {constraint: target})
        naive += point.feasible and truth(point.threshold) < target
    assert naive / 200 > 0.05 + 3 * math.sqrt(0.05 * 0.95 / 200)
