"""The ROC hull read from the points' integer counts equals the hull of the float rows, bit for bit."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scored_pr._core.curves as C
from scored_pr._core.points import operating_points
from scored_pr._core.ranking import rank_order


def _same_rows(got: C.RocRows, want: C.RocRows) -> None:
    for field in C.RocRows._fields:
        a, b = getattr(got, field), getattr(want, field)
        assert a.dtype == b.dtype == np.float64, field
        np.testing.assert_array_equal(a, b, err_msg=field)  # NaN == NaN, exact values
        assert np.array_equal(np.signbit(a), np.signbit(b)), field


def _check(correct: Any, scores: Any, ties: str, misses: int, negative_misses: int) -> None:
    neg, cor = rank_order(-np.asarray(scores, dtype=np.float64), np.asarray(correct, dtype=bool))
    points = operating_points(neg, cor, ties)
    p = int(cor.sum()) + misses
    n = int((~cor).sum()) + negative_misses
    _same_rows(C.roc_points_hull(points, p, n), C.roc_convex_hull(C.roc_rows(points, p, n)))


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]) | st.floats(-5, 5)), max_size=60),
    st.sampled_from(["grouped", "stable"]),
    st.integers(0, 3),
    st.integers(0, 3),
)
def test_points_hull_equals_the_hull_of_the_rows(
    cases: list[tuple[bool, float]], ties: str, misses: int, negative_misses: int
) -> None:
    correct = [c for c, _ in cases]
    scores = [s for _, s in cases]
    _check(correct, scores, ties, misses, negative_misses)


@pytest.mark.parametrize("kind", ["distinct", "scattered ties", "heavy ties", "one class", "all correct"])
@pytest.mark.parametrize("ties", ["grouped", "stable"])
def test_points_hull_on_long_rankings(kind: str, ties: str) -> None:
    """Long enough for the sampled hull, with every shape of points the kernel keeps."""
    rng = np.random.default_rng(11)
    m = 20_000
    y = rng.random(m) < 0.3
    s = rng.normal(size=m) + y
    if kind == "scattered ties":
        s = s.astype(np.float32).astype(np.float64)
        s[1::7] = s[::7][: s[1::7].size]  # a tie with the neighbour
    elif kind == "heavy ties":
        s = np.round(1 / (1 + np.exp(-s)), 2)
    elif kind == "one class":
        y[:] = False
    elif kind == "all correct":
        y[:] = True
    for misses, negative_misses in [(0, 0), (5, 0), (0, 7), (40, 9)]:
        _check(y, s, ties, misses, negative_misses)


def test_points_hull_is_empty_without_negatives() -> None:
    """N = 0: rejection recall is NaN everywhere, and the hull is empty, as roc_convex_hull's."""
    _check([True, True, True], [0.9, 0.5, 0.1], "grouped", 2, 0)
    assert C.roc_points_hull(operating_points(np.array([-0.9]), np.array([True]), "grouped"), 1, 0).recall.size == 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2000, 8000), st.sampled_from([7, 64, 333]),
       st.sampled_from([0.3, 0.6, 0.9]))  # fmt: skip
def test_sampled_hull_block_by_block_keeps_the_vertices(seed: int, m: int, block: int, p: float) -> None:
    """The filter tests every point against its sample edge block by block: blocks that start and end
    inside edges, and edges inside one block, give the sweeping hull's vertices."""
    rng = np.random.default_rng(seed)
    correct = rng.random(m) < p
    tp = np.cumsum(correct)[correct].astype(np.float64)
    fp = (np.flatnonzero(correct) + 1 - tp).astype(np.float64)
    x, y = np.concatenate(([0.0], fp)), np.concatenate(([0.0], tp))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(C, "_HULL_BLOCK", block)
        got = C._sampled_upper_hull(x, y)
    np.testing.assert_array_equal(got, C.upper_hull(x, y))
