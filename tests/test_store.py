"""The case store's bounded pending list: single cases wait unsorted; beyond PENDING_LIMIT they become runs."""

from __future__ import annotations

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr._store import PENDING_LIMIT


@pytest.mark.parametrize("ties", ["stable", "grouped"])
def test_many_single_cases_flush_into_runs_and_keep_insertion_order(ties: str) -> None:
    rng = np.random.default_rng(1)
    n = 2 * PENDING_LIMIT + 17
    correct = rng.random(n) < 0.3
    scores = rng.integers(0, 50, n).astype(float)  # heavy ties: insertion order matters (stable)
    single, batch = E(ties=ties), E(ties=ties)
    for c, s in zip(correct.tolist(), scores.tolist()):
        single.add_case(c, s)
    assert len(single._store._runs) == 2 and len(single._store._pending) == 17
    single._store._check()
    batch.add_cases(correct, scores)
    assert single == batch
    np.testing.assert_array_equal(list(single.summary().values()), list(batch.summary().values()))
    single.add_case(True, 25.0, weight=2.0)  # a weighted case after flushed runs keeps its place
    batch.add_cases([True], [25.0], sample_weight=[2.0])
    assert single == batch


@pytest.mark.parametrize("ties", ["stable", "grouped"])
def test_single_cases_are_appended_unsorted_and_ranked_at_the_query(ties: str) -> None:
    """add_case is one append (O(1)), not a sorted insert: the cases wait in insertion order, whole."""
    from scored_pr._store import _Correct

    rng = np.random.default_rng(2)
    correct = (rng.random(500) < 0.3).tolist()
    scores = rng.integers(0, 40, 500).astype(float).tolist()  # ties across classes: insertion order matters
    ev = E(ties=ties)
    for c, s in zip(correct, scores):
        ev.add_case(c, s)
    pending = ev._store._pending
    assert [-v for v in pending] == scores  # insertion order, not rank order
    assert [type(v) is _Correct for v in pending] == correct  # each case's label rides on its score
    ev._store._check()
    assert ev.num_cases == 500 and ev.num_positive_ref == sum(correct)
    batch = E(ties=ties)
    batch.add_cases(correct, scores)
    assert ev == batch
    np.testing.assert_array_equal(list(ev.summary().values()), list(batch.summary().values()))
    assert not ev._store._pending  # the query merged them
