"""The case store's bounded sorted list: single cases beyond PENDING_LIMIT become sorted runs."""

from __future__ import annotations

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr._evaluators.store import PENDING_LIMIT


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
