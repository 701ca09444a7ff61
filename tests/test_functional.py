"""Each one-call function equals the evaluator's method of the same name."""

from __future__ import annotations

import math

import numpy as np
import pytest

import scored_pr
from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr import functional as F


def same(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    return a == b


@pytest.mark.parametrize("ties", ["grouped", "stable"])
@pytest.mark.parametrize("seed", range(6))
def test_every_function_equals_the_evaluator(ties: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 60))
    y = rng.random(n) < rng.uniform(0.0, 1.0)
    s = rng.integers(0, 8, n).astype(float)  # heavy ties
    misses, neg = int(rng.integers(0, 3)), int(rng.integers(0, 3))
    ev = E(ties=ties)
    ev.add_cases(y, s)
    ev.add_misses(misses)
    ev.add_negative_misses(neg)
    only_pos = E(ties=ties)
    only_pos.add_cases(y, s)
    only_pos.add_misses(misses)
    plain = E(ties=ties)
    plain.add_cases(y, s)
    k = int(rng.integers(1, 70))
    checks = [
        (F.average_precision(y, s, ties=ties, misses=misses), only_pos.average_precision()),
        (F.area_under_pr_curve(y, s, interpolate=True, ties=ties, misses=misses), only_pos.area_under_pr_curve(True)),
        (F.area_under_roc_curve(y, s, ties=ties, misses=misses, negative_misses=neg), ev.area_under_roc_curve()),
        (F.maximum_f_measure(y, s, beta=2.0, ties=ties, misses=misses), only_pos.maximum_f_measure(2.0)),
        (F.pr_breakeven_point(y, s, ties=ties, misses=misses), only_pos.pr_breakeven_point()),
        (F.precision_at(y, s, k, ties=ties), plain.precision_at(k)),
        (F.recall_at(y, s, k, ties=ties, misses=misses), only_pos.recall_at(k)),
        (F.r_precision(y, s, ties=ties, misses=misses), only_pos.r_precision()),
        (F.reciprocal_rank(y, s, ties=ties), plain.reciprocal_rank()),
        (F.pr_curve(y, s, ties=ties, misses=misses), only_pos.pr_curve()),
        (F.roc_curve(y, s, interpolate=True, ties=ties, misses=misses, negative_misses=neg), ev.roc_curve(True)),
    ]
    for got, want in checks:
        assert same(got, want), (got, want)
    grouped = E(ties="grouped")
    grouped.add_cases(y, s)
    got_point, want_point = F.threshold_at_precision(y, s, 0.5), grouped.threshold_at_precision(0.5)
    assert all(same(a, b) for a, b in zip(got_point, want_point))
    assert F.evaluation(y, s, ties=ties, misses=misses, negative_misses=neg) == ev


def test_the_defaults_are_scikit_learns() -> None:
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(11)
    y = rng.random(500) < 0.3
    s = np.round(rng.normal(size=500), 1)
    assert scored_pr.average_precision(y, s) == pytest.approx(sklearn_metrics.average_precision_score(y, s), abs=1e-12)
    assert scored_pr.area_under_roc_curve(y, s) == pytest.approx(sklearn_metrics.roc_auc_score(y, s), abs=1e-12)


def test_bad_input_gets_the_evaluators_errors() -> None:
    with pytest.raises(ValueError, match="add_cases: arguments 'correct' and 'scores' must have the same length"):
        scored_pr.average_precision([1, 0], [0.5])
    with pytest.raises(ValueError, match="add_misses: argument 'count'"):
        scored_pr.average_precision([1, 0], [0.5, 0.2], misses=-1)
    with pytest.raises(ValueError, match="precision_at: argument 'rank'"):
        scored_pr.precision_at([1, 0], [0.5, 0.2], 0)


def test_dir_lists_only_the_public_names_and_dunders() -> None:
    # Touch a lazy name first, so that the private module it loads is in the package's globals.
    assert scored_pr.average_precision([1, 0], [0.9, 0.1]) == 1.0
    names = dir(scored_pr)
    assert names == sorted(names)
    public = {name for name in names if not (name.startswith("__") and name.endswith("__"))}
    assert public == set(scored_pr.__all__) - {"__version__"}
    assert "__version__" in names and "__name__" in names and "__doc__" in names
    for helper in ("Any", "TYPE_CHECKING", "annotations", "_LAZY", "_evaluation", "_version"):
        assert helper not in names
