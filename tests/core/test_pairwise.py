"""run_sums: numpy's pairwise float64 sum of many runs at once equals np.sum of each run, bit for bit."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scored_pr._core import pairwise
from scored_pr._core.pairwise import run_sums, tree_matches_numpy


def _bits(a: Any) -> list[int]:
    return np.asarray(a, dtype=np.float64).view(np.int64).tolist()


@settings(max_examples=100, deadline=None)
@given(data=st.data(), n=st.integers(0, 700), runs=st.integers(0, 8))
def test_each_run_sums_as_np_sum(data: Any, n: int, runs: int) -> None:
    """Runs of every length class (under 8, 8 to 128, split once or more), signed zeros and mixed signs."""
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    x = (rng.random(n) - 0.3) * rng.choice([1.0, 1e-9, 1e9], size=n)
    x[rng.random(n) < 0.1] = -0.0
    start = np.array([data.draw(st.integers(0, n)) for _ in range(runs)], dtype=np.int64)
    length = np.array([data.draw(st.integers(0, n - a)) for a in start.tolist()], dtype=np.int64)
    expected = [np.sum(x[a:a + k]) for a, k in zip(start.tolist(), length.tolist())]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(pairwise, "LOOP_RUNS_PER_VALUE", 10**12)  # the tree, whatever the runs
        assert _bits(run_sums(x, start, length)) == _bits(expected)
    assert _bits(run_sums(x, start, length)) == _bits(expected)


@pytest.mark.parametrize("loop_runs_per_value", [10**12, 1])  # the tree; a call per run (few long runs)
def test_long_runs_follow_numpys_splits(loop_runs_per_value: int, monkeypatch: Any) -> None:
    """Runs long enough for several levels of numpy's halving (and its multiple-of-8 split points)."""
    monkeypatch.setattr(pairwise, "LOOP_RUNS_PER_VALUE", loop_runs_per_value)
    rng = np.random.default_rng(11)
    x = rng.random(300_000) * 1e-3 + rng.random(300_000)
    start = np.array([0, 1, 7, 129, 1000, 77_777], dtype=np.int64)
    length = np.array([300_000, 299_990, 8191, 8193, 150_001, 222_223], dtype=np.int64)
    expected = [np.sum(x[a:a + k]) for a, k in zip(start.tolist(), length.tolist())]
    assert _bits(run_sums(x, start, length)) == _bits(expected)


def test_numpy_2_sums_by_the_tree() -> None:
    """numpy 2's np.sum is the tree run_sums follows (the fast path); numpy 1.23's buffered sum is not."""
    assert tree_matches_numpy() or int(np.__version__.split(".")[0]) < 2


def test_where_the_tree_is_not_numpys_each_run_is_summed_alone(monkeypatch: Any) -> None:
    """The fallback for a numpy whose sum cuts buffers: np.sum per run, bit for bit."""
    monkeypatch.setattr(pairwise, "_FOLLOWS", [False])
    rng = np.random.default_rng(5)
    x = rng.random(30_000) - 0.4
    start = np.array([0, 5, 9_000, 30_000], dtype=np.int64)
    length = np.array([30_000, 100, 20_000, 0], dtype=np.int64)
    expected = [np.sum(x[a:a + k]) for a, k in zip(start.tolist(), length.tolist())]
    assert _bits(run_sums(x, start, length)) == _bits(expected)
