"""tp_through searches the points' stored (int32) core with a key of its dtype, and counts as a search of int64 ranks does."""

from __future__ import annotations

import numpy as np
import pytest

from scored_pr._core.points import operating_points
from scored_pr._core.ranking import rank_order


@pytest.mark.parametrize("ties", ["stable", "grouped"])
@pytest.mark.parametrize("rounded", [False, True])
def test_tp_through_counts_as_the_int64_search(ties: str, rounded: bool) -> None:
    rng = np.random.default_rng(3)
    y = rng.random(5000) < 0.3
    s = rng.normal(size=5000) + y
    if rounded:  # heavy ties: grouped points keep cut-offs and counts
        s = np.round(s, 1)
    neg, cor = rank_order(-s, y)
    points = operating_points(neg, cor, ties)
    core = points.correct_idx_raw if points.retrieved_raw is None else points.retrieved_raw
    assert core.dtype == np.int32  # the compact core this search reads without a conversion
    ends = np.append(np.flatnonzero(neg[1:] != neg[:-1]) + 1, neg.size)  # every tie group's end
    ks = [0, 1, 5, 10, 499, 4999, 5000] if ties == "stable" and not rounded else [0, *ends[:50].tolist(), *ends[-3:].tolist()]
    for k in ks:
        assert points.tp_through(k) == int(np.count_nonzero(cor[:k])), k


def test_the_points_of_a_ranking_known_distinct_are_the_scanned_ones() -> None:
    """operating_points(..., distinct=True) skips the tie scan and returns the points the scan finds."""
    rng = np.random.default_rng(8)
    y = rng.random(5000) < 0.3
    neg, cor = rank_order(-(rng.normal(size=5000) + y), y)
    told, scanned = operating_points(neg, cor, "grouped", distinct=True), operating_points(neg, cor, "grouped")
    assert told.untied and scanned.untied and told.grouped
    assert told.correct_idx_raw.tobytes() == scanned.correct_idx_raw.tobytes()
    assert (told.total_tp, told.total_fp) == (scanned.total_tp, scanned.total_fp)
