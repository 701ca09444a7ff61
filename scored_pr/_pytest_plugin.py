"""pytest plugin (entry point ``pytest11``): an evaluator fixture for tests that evaluate models.

Installed with scored_pr, it is active in every pytest run of the environment;
nothing to import or configure. Pair it with :mod:`scored_pr.testing`::

    from scored_pr.testing import assert_metrics

    def test_ranker_is_good_enough(scored_pr_evaluation):
        for correct, score in my_model_predictions():
            scored_pr_evaluation.add_case(correct, score)
        assert_metrics(scored_pr_evaluation, average_precision=0.80, area_under_roc_curve=0.90)
        # on a small test set, assert the 95% lower confidence bound instead of the point value:
        assert_metrics(scored_pr_evaluation, average_precision=0.75, confidence=0.95)

The tie policy defaults to ``"grouped"``; choose another with indirect
parametrization::

    @pytest.mark.parametrize("scored_pr_evaluation", ["stable"], indirect=True)
    def test_with_lingpipe_order(scored_pr_evaluation): ...

See ``examples/pytest_assertions/test_model.py`` for a runnable example.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ._evaluators.exact import ScoredPrecisionRecallEvaluation


@pytest.fixture
def scored_pr_evaluation(request: pytest.FixtureRequest) -> Iterator[ScoredPrecisionRecallEvaluation]:
    """A fresh :class:`~scored_pr.ScoredPrecisionRecallEvaluation` per test.

    Grouped ties unless the test parametrizes the fixture indirectly with a tie
    policy (``"stable"`` or ``"grouped"``). A fixture cannot run as a
    doctest; ``examples/pytest_assertions/test_model.py`` is the example.
    """
    ties = getattr(request, "param", "grouped")
    yield ScoredPrecisionRecallEvaluation(ties=ties)
