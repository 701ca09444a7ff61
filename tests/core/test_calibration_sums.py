"""The bounded kind's calibration sums: each score's cell by a multiply, and the sums of a batch.

Held against slow literal references written here: a score's cell by comparing it with every
edge in turn, and each cell's sums by a Python loop over the cases. Hypothesis draws scores at
the edges, one ulp either side of them, 0.0, 1.0 and anywhere, for bin counts up to the largest
a summary accepts.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings, strategies as st

from scored_pr._core import calibration_sums as CS

#: The largest ``calibration_bins`` a summary accepts (``_state/bounded.py``).
MAX_BINS = 1 << 16


def _literal_cell(s: float, e: list[float]) -> int:
    """2 i when s is the edge e_i, 2 i + 1 when e_i < s < e_{i+1}, found by walking the edges."""
    for i, edge in enumerate(e):
        if s == edge:
            return 2 * i
        if i + 1 < len(e) and edge < s < e[i + 1]:
            return 2 * i + 1
    raise AssertionError(f"{s!r} is outside [0, 1]")


@st.composite
def _scores(draw: st.DrawFn) -> tuple[int, np.ndarray]:
    n_bins = draw(st.one_of(st.integers(1, 40), st.sampled_from([15, 99, 1000, 4097, MAX_BINS])))
    e = CS.edges(n_bins)
    picks = draw(st.lists(st.integers(0, n_bins), min_size=1, max_size=60))
    at = e[picks]
    near = np.r_[np.nextafter(at, 2.0), np.nextafter(at, -1.0)]
    anywhere = np.array(draw(st.lists(st.floats(0.0, 1.0), max_size=60)), dtype=np.float64)
    s = np.clip(np.r_[at, near, anywhere, 0.0, 1.0], 0.0, 1.0)
    return n_bins, np.asarray(draw(st.permutations(s.tolist())), dtype=np.float64)


@settings(max_examples=150, deadline=None)
@given(_scores())
def test_the_cell_of_each_score_is_the_literal_walk_of_the_edges(c: tuple[int, np.ndarray]) -> None:
    n_bins, s = c
    e = CS.edges(n_bins).tolist()
    want = [_literal_cell(v, e) for v in s.tolist()]
    np.testing.assert_array_equal(CS.cells_of(s, n_bins), want)
    np.testing.assert_array_equal(CS.exact_cells(s, n_bins), want)


def test_every_score_of_a_fine_grid_and_its_neighbours_has_the_searched_cell() -> None:
    """Two decimals, three decimals and random scores, and one ulp either side of each: the multiply agrees with the search."""
    rng = np.random.default_rng(4)
    grid = np.r_[np.round(np.linspace(0, 1, 1001), 3), rng.random(20_000)]
    s = np.clip(np.r_[grid, np.nextafter(grid, 2.0), np.nextafter(grid, -1.0)], 0.0, 1.0)
    for n_bins in (1, 3, 5, 10, 15, 20, 30, 100, 1 << 10, MAX_BINS):
        np.testing.assert_array_equal(CS.cells_of(s, n_bins), CS.exact_cells(s, n_bins))


@settings(max_examples=60, deadline=None)
@given(_scores(), st.integers(0, 2**32 - 1), st.booleans())
def test_a_batchs_sums_are_the_literal_sums_of_its_cases(c: tuple[int, np.ndarray], seed: int, weighted: bool) -> None:
    n_bins, s = c
    rng = np.random.default_rng(seed)
    y = rng.random(s.size) < 0.4
    w = rng.integers(1, 4, s.size).astype(np.float64) if weighted else None
    got = CS.add(CS.empty(n_bins), y, s, w)
    e = CS.edges(n_bins).tolist()
    cells = 2 * n_bins + 1
    weight, positive, score = [0.0] * cells, [0.0] * cells, [0.0] * cells
    square_score = positive_score = log_terms = 0.0
    for v, hit, wt in zip(s.tolist(), y.tolist(), [1.0] * s.size if w is None else w.tolist()):
        k = _literal_cell(v, e)
        weight[k] += wt
        positive[k] += wt * hit
        score[k] += wt * v
        square_score += wt * v * v
        positive_score += wt * v * hit
        told = min(max(v if hit else 1.0 - v, CS.EPS), 1.0 - CS.EPS)
        log_terms += wt * math.log(told)
    np.testing.assert_array_equal(got.weight, weight)  # whole numbers: exact in any order
    np.testing.assert_array_equal(got.positive, positive)
    np.testing.assert_allclose(got.score, score, rtol=1e-12, atol=1e-300)
    np.testing.assert_array_equal(got.square, got.weight if w is None else np.bincount(CS.exact_cells(s, n_bins), w * w, cells))
    np.testing.assert_allclose(got.totals, [square_score, positive_score, log_terms], rtol=1e-12)
