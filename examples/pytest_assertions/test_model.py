"""A model's test suite that asserts it is good enough, with scored_pr's pytest helpers.

Run it with:  python -m pytest examples/pytest_assertions

- The ``scored_pr_evaluation`` fixture comes from scored_pr's pytest plugin
  (registered when scored_pr is installed): a fresh evaluator per test.
- ``assert_metrics`` checks any measures against bounds; a plain number means
  "at least", ``("<=", x)`` and the other operators say otherwise, and
  ``pytest.approx`` pins a value. On failure pytest shows a table of every
  metric, its bound and its value.
- ``assert_curve_close`` pins a whole curve and lists the points that moved.

Replace ``validation_set`` and ``score`` with your data and your model.
"""

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr.testing import assert_curve_close, assert_metrics

WEIGHTS = np.array([1.5, -2.0, 0.5])


def validation_set(n=1000, seed=0):
    """Features and relevance labels of a held-out set (synthetic here)."""
    rng = np.random.default_rng(seed)
    features = rng.normal(size=(n, 3))
    relevant = features @ WEIGHTS + rng.normal(scale=1.5, size=n) > 1.0
    return features, relevant


def score(features):
    """The model under test: a linear scorer with slightly wrong weights."""
    return features @ np.array([1.2, -1.8, 0.0])


@pytest.fixture(scope="module")
def predictions():
    features, relevant = validation_set()
    return relevant, score(features)


def test_model_is_good_enough(scored_pr_evaluation, predictions):
    relevant, scores = predictions
    scored_pr_evaluation.add_cases(relevant, scores)
    assert_metrics(
        scored_pr_evaluation,
        average_precision=0.80,  # at least
        area_under_roc_curve=0.85,
        precision_at_10=1.0,
        maximum_f_measure=(">", 0.7),
    )


def test_one_case_at_a_time(scored_pr_evaluation, predictions):
    # e.g. scoring a stream of requests: the same numbers as a batch
    relevant, scores = predictions
    for correct, s in zip(relevant.tolist(), scores.tolist()):
        scored_pr_evaluation.add_case(correct, s)
    batch = ScoredPrecisionRecallEvaluation()
    batch.add_cases(relevant, scores)
    assert_metrics(scored_pr_evaluation, average_precision=pytest.approx(batch.average_precision(), abs=1e-12))
    assert_curve_close(scored_pr_evaluation.pr_curve(), batch.pr_curve())


def test_items_never_returned_lower_recall(scored_pr_evaluation, predictions):
    relevant, scores = predictions
    top = np.argsort(-scores)[:200]  # a retrieval system returns only its top 200
    scored_pr_evaluation.add_cases(relevant[top], scores[top])
    scored_pr_evaluation.add_misses(int(relevant.sum() - relevant[top].sum()))
    # misses count against recall: AP drops, precision at the top does not
    assert_metrics(scored_pr_evaluation, precision_at_100=0.9, average_precision=("<", 0.6), num_misses=("==", 174))


@pytest.mark.parametrize("scored_pr_evaluation", ["grouped"], indirect=True)
def test_coarse_scores_with_grouped_ties(scored_pr_evaluation, predictions):
    # scores rounded to one decimal tie a lot: "grouped" makes the result order-independent
    relevant, scores = predictions
    scored_pr_evaluation.add_cases(relevant, np.round(scores, 1))
    assert scored_pr_evaluation.ties == "grouped"
    assert_metrics(scored_pr_evaluation, area_under_roc_curve=0.85)


def test_small_ranking_has_the_expected_pr_curve(scored_pr_evaluation):
    # a regression test pinning a whole curve: (recall, precision) rows
    scored_pr_evaluation.add_cases([True, False, True, True, False], [0.9, 0.8, 0.7, 0.4, 0.3])
    assert_curve_close(scored_pr_evaluation.pr_curve(), [[1 / 3, 1.0], [2 / 3, 2 / 3], [1.0, 0.75]], atol=1e-12)
