"""The curve kernels written into fewer buffers give what their plain numpy expressions gave, bit for bit."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import scored_pr._core.curves as C
import scored_pr._core.scalars as M

_BIG = float(np.finfo(np.float64).max)
_VALUES = st.sampled_from([0.0, 0.25, 0.5, 1.0, math.nan, math.inf, -math.inf, _BIG, -_BIG, 1e-300]) | st.floats(0, 1)


def _literal_mask(y: list[float]) -> list[bool]:
    """Keep y[i] iff it beats every later non-NaN y, as the kernel has always compared: the bar is
    the largest later value, an infinite one clipped to the largest float (numpy's nan_to_num), and
    with nothing later -inf (the last point of a longer curve: -largest float)."""
    m = len(y)
    keep = []
    for i, v in enumerate(y):
        later = [w for w in y[i + 1 :] if not math.isnan(w)]
        if later:
            bar = min(max(max(later), -_BIG), _BIG)
        elif i == m - 1 and m > 1:
            bar = -_BIG
        else:
            bar = -math.inf
        keep.append(v > bar)
    return keep


@settings(max_examples=300, deadline=None)
@given(st.lists(_VALUES, min_size=0, max_size=25), st.booleans())
def test_interpolation_mask_matches_the_literal_scan(y: list[float], column: bool) -> None:
    a = np.array(y, dtype=np.float64)
    if column:  # a column of a curve: a strided view, as interpolate() passes it
        a = np.column_stack((a, a))[:, 1]
    assert C.interpolation_mask(a).tolist() == _literal_mask(y)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_VALUES, _VALUES), min_size=0, max_size=25))
def test_step_area_and_maximum_f_match_their_expressions(rows: list[tuple[float, float]]) -> None:
    curve = np.array(rows, dtype=np.float64).reshape(-1, 2)
    with np.errstate(all="ignore"):
        area = 0.0 if not rows else float(np.cumsum(np.diff(curve[:, 0], prepend=0.0) * curve[:, 1])[-1])
        got = C.step_area(curve)
        assert (math.isnan(got) and math.isnan(area)) or got == area
        r, p = curve[:, 0], curve[:, 1]
        for beta in (0.5, 1.0, 3.0):
            want = (1.0 + beta * beta) * r * p / (r + beta * beta * p)
            np.testing.assert_array_equal(M.f_beta(r, p, beta), want)
            best = 0.0 if not rows or np.all(np.isnan(want)) else float(max(np.nanmax(want), 0.0))
            got_f = M.maximum_f_measure(curve, beta)
            assert got_f == best


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.sampled_from([0.0, 0.5, 1.0]) | st.floats(-5, 5)), max_size=40),
    st.sampled_from(["grouped", "stable"]),
    st.booleans(),
    st.integers(0, 3),
)
def test_pr_curve_is_the_stacked_columns(cases: list[tuple[bool, float]], ties: str, weighted: bool, misses: int) -> None:
    from scored_pr._core.points import operating_points
    from scored_pr._core.ranking import rank_order

    correct = np.array([c for c, _ in cases], dtype=bool)
    neg, cor = rank_order(-np.array([s for _, s in cases], dtype=np.float64), correct)
    w = np.linspace(0.5, 2.0, cor.size) if weighted else None
    points = operating_points(neg, cor, ties, w)
    p = points.total_tp + misses
    want = np.column_stack((C.recall(points, p), C.precision(points)))
    got = C.pr_curve(points, p)
    assert got.shape == want.shape and got.dtype == np.float64
    assert got.tobytes() == want.tobytes()
    r, prec = C.pr_columns(points, p)
    assert r.flags.c_contiguous and prec.flags.c_contiguous
    assert r.tobytes() == want[:, 0].tobytes() and prec.tobytes() == want[:, 1].tobytes()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_VALUES, _VALUES), min_size=0, max_size=25))
def test_the_column_kernels_equal_the_row_kernels(rows: list[tuple[float, float]]) -> None:
    """step_area_xy, maximum_f_columns and interpolate_columns on contiguous columns give, bit for bit,
    what step_area, maximum_f_measure and interpolate give on the rows (as summary() reads them)."""
    curve = np.array(rows, dtype=np.float64).reshape(-1, 2)
    x, y = curve[:, 0].copy(), curve[:, 1].copy()
    with np.errstate(all="ignore"):
        want_area, got_area = C.step_area(curve), C.step_area_xy(x, y)
        assert np.array([want_area]).tobytes() == np.array([got_area]).tobytes()
        for beta in (0.5, 1.0, 3.0):
            assert np.array([M.maximum_f_measure(curve, beta)]).tobytes() == np.array([M.maximum_f_columns(x, y, beta)]).tobytes()
    kept = C.interpolate(curve)
    kx, ky = C.interpolate_columns(x, y)
    assert kx.tobytes() == kept[:, 0].tobytes() and ky.tobytes() == kept[:, 1].tobytes()


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 3 * M.F_BLOCK + 5), st.booleans())
def test_the_column_kernels_in_blocks_are_the_whole_array_expressions(seed: int, n: int, signed: bool) -> None:
    """On columns longer than a block the step area is the left-to-right sum of every term and the maximum F
    (computed block by block) the maximum of every row's, bit for bit."""
    rng = np.random.default_rng(seed)
    x = np.cumsum(rng.random(n)) if not signed else rng.normal(size=n)
    y = rng.random(n)
    if signed:
        y[rng.integers(0, n, 3)] = [math.nan, -0.0, 0.0]
    with np.errstate(all="ignore"):
        want = float(np.cumsum(np.diff(x, prepend=0.0) * y)[-1])
        got = C.step_area_xy(x, y)
        assert np.array([got]).tobytes() == np.array([want]).tobytes()
        f = (1.0 + 1.0) * x * y / (x + y)
        best = 0.0 if np.all(np.isnan(f)) else float(max(np.nanmax(f), 0.0))
        assert M.maximum_f_columns(x, y, 1.0) == best

