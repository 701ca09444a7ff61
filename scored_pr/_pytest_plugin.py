"""pytest plugin (entry point ``pytest11``): fixtures for tests that evaluate models."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ._evaluation import ScoredPrecisionRecallEvaluation


@pytest.fixture
def scored_pr_evaluation() -> Iterator[ScoredPrecisionRecallEvaluation]:
    """A fresh :class:`~scored_pr.ScoredPrecisionRecallEvaluation` (stable ties) per test."""
    yield ScoredPrecisionRecallEvaluation()
