"""``_core.curves.upper_hull`` against a literal monotone-chain hull, on ROC count curves with ties."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from scored_pr._core.curves import upper_hull


def _slow_hull(x: list[int], y: list[int]) -> list[int]:
    """Andrew's monotone chain over the points in order: the strict upper hull's vertices."""
    hull: list[int] = []
    for i in range(len(x)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (x[b] - x[a]) * (y[i] - y[a]) - (y[b] - y[a]) * (x[i] - x[a]) >= 0:
                hull.pop()
            else:
                break
        hull.append(i)
    return hull


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=0, max_size=300))
def test_upper_hull_is_the_monotone_chain_hull(cases: list[tuple[bool, int]]) -> None:
    # a ROC curve in counts: cases ranked by descending (rounded, so tied) score, one point per tie group
    cases.sort(key=lambda c: -c[1])
    x, y = [0], [0]
    for j, (positive, score) in enumerate(cases):
        x.append(x[-1] + (not positive))
        y.append(y[-1] + positive)
        if j + 1 < len(cases) and cases[j + 1][1] == score:  # inside a tie group: no point
            x[-2:] = [x[-1]]
            y[-2:] = [y[-1]]
    xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    assert upper_hull(xs, ys).tolist() == _slow_hull(x, y)
