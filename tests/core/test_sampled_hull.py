"""The sampled ROC hull (unweighted counts) against the sweeping hull it shortcuts, and the literal one."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scored_pr._core.curves as C


def _counts(seed: int, m: int, p: float, shape: str) -> tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    correct = rng.random(m) < p
    if shape == "sorted":  # a perfect ranking: the hull is two edges
        correct = np.sort(correct)[::-1].copy()
    elif shape == "runs":  # long collinear runs
        correct = np.repeat(rng.random(m // 50 + 1) < p, 50)[:m]
    tp = np.cumsum(correct)[correct].astype(np.float64)
    fp = (np.flatnonzero(correct) + 1 - tp).astype(np.float64)
    return np.concatenate(([0.0], fp)), np.concatenate(([0.0], tp))


def _literal_hull(x: Any, y: Any) -> Any:
    """Andrew's monotone chain over every point, in exact integer arithmetic."""
    hull: list[int] = []
    xi_, yi_ = x.astype(np.int64).tolist(), y.astype(np.int64).tolist()
    for i in range(len(xi_)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (xi_[b] - xi_[a]) * (yi_[i] - yi_[a]) - (yi_[b] - yi_[a]) * (xi_[i] - xi_[a]) >= 0:
                hull.pop()
            else:
                break
        hull.append(i)
    return np.asarray(hull)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6000), st.sampled_from([0.02, 0.3, 0.7, 0.99]),
       st.sampled_from(["random", "sorted", "runs"]))  # fmt: skip
def test_sampled_hull_has_the_vertices_of_the_sweeping_hull(seed: int, m: int, p: float, shape: str) -> None:
    x, y = _counts(seed, m, p, shape)
    if x.size < 2:
        return
    want = C.upper_hull(x, y)
    np.testing.assert_array_equal(C._sampled_upper_hull(x, y), want)
    np.testing.assert_array_equal(want, _literal_hull(x, y))


@pytest.mark.parametrize("weighted", [False, True])
def test_roc_hull_samples_only_exact_counts(weighted: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Weights make the cross products inexact: then the hull is the sweeping one, unchanged."""
    from scored_pr import ScoredPrecisionRecallEvaluation

    calls: list[int] = []
    sampled = C._sampled_upper_hull

    def counting(x: Any, y: Any) -> Any:
        calls.append(x.size)
        return sampled(x, y)

    monkeypatch.setattr(C, "_sampled_upper_hull", counting)
    rng = np.random.default_rng(5)
    s = rng.normal(size=5000)
    y = rng.random(5000) < 1 / (1 + np.exp(-s))
    w = rng.random(5000) + 0.5 if weighted else None
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s, sample_weight=w)
    got = ev.area_under_roc_curve(True)
    assert bool(calls) is not weighted
    monkeypatch.setattr(C, "_sampled_upper_hull", C.upper_hull)  # the sweeping hull throughout
    ref = ScoredPrecisionRecallEvaluation()
    ref.add_cases(y, s, sample_weight=w)
    assert got == ref.area_under_roc_curve(True)
