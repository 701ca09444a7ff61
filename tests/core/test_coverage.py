"""Coverage of the 95% intervals of ROC AUC on a binormal model with known AUC.

Positives score N(mu, 1), negatives N(0, 1), so the AUC is Phi(mu / sqrt 2).
A 95% interval should contain it in 93-97% of the draws. The quick version
runs in CI (200 draws, a band that a too narrow or too wide interval still
fails); the full one (1,000 draws, 2,000 resamples each, also average
precision) is marked ``slow`` and runs with ``SCORED_PR_SLOW=1``:

    SCORED_PR_SLOW=1 python -m pytest tests/core/test_coverage.py -q
    python tests/core/test_coverage.py          # prints the coverage table
"""

from __future__ import annotations

import math
import os
from statistics import NormalDist

import numpy as np
import pytest

pytest.importorskip("scipy")

from scored_pr import ScoredPrecisionRecallEvaluation

SLOW = os.environ.get("SCORED_PR_SLOW", "") not in ("", "0")

#: (measure, method) pairs simulated; AP only in the full run.
AUC_METHODS = [("area_under_roc_curve", "delong"), ("area_under_roc_curve", "bootstrap"), ("area_under_roc_curve", "bca")]
AP_METHODS = [("average_precision", "logit"), ("average_precision", "bootstrap"), ("average_precision", "bca")]


def true_average_precision(mu: float, m: int, n: int, grid: int = 400_001) -> float:
    """The population AP of the binormal model at the sample's class ratio: the integral of
    precision m*TPR / (m*TPR + n*FPR) over recall (TPR), trapezoidal on a fine threshold grid."""
    from scipy.stats import norm

    t = np.linspace(mu + 10.0, -10.0, grid)
    tpr, fpr = norm.sf(t - mu), norm.sf(t)
    prec = m * tpr / (m * tpr + n * fpr)
    return float(np.sum(np.diff(tpr) * (prec[1:] + prec[:-1]) / 2.0))


def simulate(
    draws: int, methods: list[tuple[str, str]], mu: float = 1.0, m: int = 100, n: int = 100,
    n_resamples: int = 2000, level: float = 0.95, seed: int = 2024,
) -> dict[tuple[str, str], float]:
    """Share of ``draws`` simulated test sets whose interval contains the true value."""
    truth = {"area_under_roc_curve": NormalDist().cdf(mu / math.sqrt(2.0)),
             "average_precision": true_average_precision(mu, m, n)}  # fmt: skip
    rng = np.random.default_rng(seed)
    hits = dict.fromkeys(methods, 0)
    correct = np.r_[np.ones(m, bool), np.zeros(n, bool)]
    for k in range(draws):
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(correct, np.r_[rng.normal(mu, 1.0, m), rng.normal(0.0, 1.0, n)])
        for measure, method in methods:
            iv = ev.confidence_interval(measure, level, method, n_resamples, seed=k)
            hits[(measure, method)] += iv.low <= truth[measure] <= iv.high
    return {key: h / draws for key, h in hits.items()}


def test_quick_auc_coverage() -> None:
    cov = simulate(200, AUC_METHODS, n_resamples=400)
    for key, c in cov.items():
        # nominal 0.95; 200 draws give a standard error of 0.015
        assert 0.90 <= c <= 0.99, (key, c)


def test_quick_coverage_fails_for_a_wrong_level() -> None:
    """The quick band is tight enough to catch a 90% interval reported as 95%."""
    cov = simulate(200, [("area_under_roc_curve", "delong")], level=0.80)
    assert cov[("area_under_roc_curve", "delong")] < 0.90


def test_true_average_precision_matches_a_large_sample() -> None:
    rng = np.random.default_rng(0)
    ev = ScoredPrecisionRecallEvaluation()
    big = 200_000
    ev.add_cases(np.r_[np.ones(big, bool), np.zeros(big, bool)], np.r_[rng.normal(1.0, 1.0, big), rng.normal(0.0, 1.0, big)])
    assert ev.average_precision() == pytest.approx(true_average_precision(1.0, 1, 1), abs=2e-3)


@pytest.mark.slow
@pytest.mark.skipif(not SLOW, reason="slow: set SCORED_PR_SLOW=1")
def test_full_coverage_1000_draws() -> None:
    cov = simulate(1000, AUC_METHODS + AP_METHODS)
    for (measure, method), c in cov.items():
        print(f"{measure:22} {method:10} {c:.3f}")
        if measure == "area_under_roc_curve":
            assert 0.93 <= c <= 0.97, (measure, method, c)


if __name__ == "__main__":  # the coverage table of the closing note
    import sys
    import time

    draws = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for mu, m, n in [(1.0, 100, 100), (1.5, 50, 250)]:
        t0 = time.perf_counter()
        cov = simulate(draws, AUC_METHODS + AP_METHODS, mu=mu, m=m, n=n)
        print(f"\nmu={mu}, {m} positives, {n} negatives, {draws} draws, 2000 resamples "
              f"({time.perf_counter() - t0:.0f} s):")
        for (measure, method), c in cov.items():
            print(f"  {measure:22} {method:10} {c:.3f}")
