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
        (F.roc_rows(y, s, interpolate=True, ties=ties, misses=misses, negative_misses=neg), ev.roc_curve(True)),
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


def test_bad_input_gets_the_evaluators_checks_in_the_callers_name() -> None:
    # The checks are the evaluator's; the messages name the function called and its arguments
    # (they used to say "add_cases: arguments 'correct' and 'scores'" and "add_misses: argument 'count'").
    with pytest.raises(ValueError, match="^average_precision: arguments 'y_true' and 'y_score' must have the same length"):
        scored_pr.average_precision([1, 0], [0.5])
    with pytest.raises(ValueError, match="^average_precision: argument 'misses' must be a non-negative int"):
        scored_pr.average_precision([1, 0], [0.5, 0.2], misses=-1)
    with pytest.raises(ValueError, match="^precision_at: argument 'k'"):
        scored_pr.precision_at([1, 0], [0.5, 0.2], 0)


#: Every function of scored_pr.functional and the arguments it needs besides (y_true, y_score).
FUNCTIONS = {
    "evaluation": {},
    "average_precision": {},
    "area_under_pr_curve": {},
    "area_under_roc_curve": {},
    "maximum_f_measure": {},
    "pr_breakeven_point": {},
    "precision_at": {"k": 1},
    "recall_at": {"k": 1},
    "r_precision": {},
    "reciprocal_rank": {},
    "pr_curve": {},
    "roc_curve": {},
    "roc_points": {},
    "roc_rows": {},
    "precision_recall_curve": {},
    "threshold_at_precision": {"precision": 0.5},
    "brier_score": {},
    "calibration_curve": {},
    "calibration_slope_intercept": {},
    "expected_calibration_error": {},
    "log_loss": {},
    "reliability_diagram": {},
    "operating_point": {"maximize": "recall", "subject_to": {"precision": 0.5}},
    "min_cost_threshold": {"cost_fn": 2.0},
    "net_benefit": {},
}


#: Functions whose y_true is an (n, k) indicator matrix (or class labels with (n, k) scores) only:
#: tests/core/test_multilabel_functional.py covers them.
MULTI_OUTPUT_ONLY = {"coverage_error", "label_ranking_average_precision_score", "label_ranking_loss", "top_k_accuracy_score"}

#: Functions that take feature columns besides the cases, one row per slice: tests/evaluators/test_sliced.py
#: covers them.
PER_SLICE = {"sliced"}

#: Functions that accept (n, k) scores besides the binary (n,) form.
MULTI_OUTPUT_TOO = {"average_precision", "area_under_roc_curve"}


def test_the_table_covers_every_function() -> None:
    assert set(FUNCTIONS) | MULTI_OUTPUT_ONLY | PER_SLICE == set(F.__all__)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize(
    ("y_true", "y_score", "extra", "exc", "message"),
    [
        (np.ones((3, 2, 2)), [0.1, 0.2, 0.3], {}, ValueError, "argument 'y_true' must be 1-dimensional"),
        ([1, 0, 1], np.ones((3, 2)), {}, ValueError, "argument 'y_score' must be 1-dimensional"),
        ([1, 0], [0.5], {}, ValueError, "arguments 'y_true' and 'y_score' must have the same length"),
        (["spam", "ham"], [0.5, 0.2], {}, TypeError, "argument 'y_true' must be a label"),
        ([1, 0, -1], [0.5, 0.2, 0.1], {}, ValueError, "argument 'y_true' must use one label encoding"),
        ([1, 2], [0.5, 0.2], {}, ValueError, "argument 'y_true' must be a label"),
        ([1, 0], [0.5, float("nan")], {}, ValueError, "argument 'y_score' must be a real number"),
        ([1, 0], ["a", "b"], {}, TypeError, "argument 'y_score' must be numeric, not a string; got the string 'a' at index 0; convert scores to numbers first"),
        ([1, 0], [2**60 + 1, 0], {}, ValueError, "argument 'y_score' must be exactly representable as a float64"),
        ([1, 0], [0.5, 0.2], {"sample_weight": [1.0]}, ValueError, "argument 'sample_weight' must have one weight"),
        ([1, 0], [0.5, 0.2], {"sample_weight": [1.0, -1.0]}, ValueError, "argument 'sample_weight' must be a finite"),
        ([1, 0], [0.5, 0.2], {"pos_label": [1]}, TypeError, "argument 'pos_label' must be None"),
    ],
)
def test_errors_name_the_function_called_and_its_arguments(
    name: str, y_true: object, y_score: object, extra: dict[str, object], exc: type[Exception], message: str
) -> None:
    func = getattr(F, name)
    if name in MULTI_OUTPUT_TOO and np.ndim(y_score) == 2:
        pytest.skip("(n, k) scores are multi-class input here: tests/core/test_multilabel_functional.py")
    with pytest.raises(exc) as info:
        func(y_true, y_score, **extra, **FUNCTIONS[name])
    text = str(info.value)
    assert text.startswith(f"{name}: {message}"), text
    assert "add_cases" not in text and "'correct'" not in text and "'scores'" not in text


@pytest.mark.parametrize(
    ("name", "argument", "value", "exc"),
    [
        ("evaluation", "ties", "expected", ValueError),
        ("evaluation", "misses", -1, ValueError),
        ("evaluation", "negative_misses", 1.5, TypeError),
        ("average_precision", "ties", "nope", ValueError),
        ("average_precision", "misses", -1, ValueError),
        ("recall_at", "misses", True, TypeError),
        ("area_under_roc_curve", "negative_misses", -2, ValueError),
        ("roc_rows", "negative_misses", "1", TypeError),
        ("roc_points", "misses", 0.5, TypeError),
        ("threshold_at_precision", "misses", -1, ValueError),
    ],
)
def test_option_errors_name_the_function_and_option(name: str, argument: str, value: object, exc: type[Exception]) -> None:
    with pytest.raises(exc, match=f"^{name}: argument '{argument}' must be"):
        getattr(F, name)([1, 0], [0.5, 0.2], **{argument: value}, **FUNCTIONS[name])


def test_a_functional_evaluation_keeps_its_pos_label() -> None:
    ev = F.evaluation(["spam", "ham", "spam"], [0.9, 0.5, 0.1], pos_label="spam")
    assert ev.pos_label == "spam" and ev.num_positive_ref == 2
    ev.add_cases(["ham"], [0.95])  # later batches use the same labels
    assert ev.num_negative_ref == 2


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


def _rank_queries() -> list[tuple[str, object]]:
    """Every public callable taking a rank cut-off: functional functions and evaluator methods."""
    out: list[tuple[str, object]] = [(f"functional.{n}", getattr(F, n)) for n in ("precision_at", "recall_at")]
    for cls in (E, scored_pr.WindowedEvaluation, scored_pr.BoundedEvaluation, scored_pr.MultiQueryEvaluation):
        for name in dir(cls):
            if name.startswith("_") or not callable(getattr(cls, name)):
                continue
            if name.endswith("_at") or name.startswith("mean_precision_at"):
                out.append((f"{cls.__name__}.{name}", getattr(cls, name)))
    return out


def test_every_rank_cut_off_is_called_k() -> None:
    import inspect

    queries = _rank_queries()
    assert {"functional.precision_at", "ScoredPrecisionRecallEvaluation.precision_at",
            "ScoredPrecisionRecallEvaluation.recall_at", "WindowedEvaluation.precision_at",
            "BoundedEvaluation.precision_at"} <= {q for q, _ in queries}  # fmt: skip
    for qualname, func in queries:
        params = [p for p in inspect.signature(func).parameters if p not in ("self", "y_true", "y_score")]
        assert params and params[0] == "k", (qualname, params)


def _evaluators() -> list[object]:
    y, s = [True, False, True, True, False, False], [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]
    out: list[object] = []
    for cls in (E, scored_pr.WindowedEvaluation, scored_pr.BoundedEvaluation):
        ev = cls() if cls is not scored_pr.WindowedEvaluation else cls(size=100)
        ev.add_cases(y, s)
        out.append(ev)
    return out


@pytest.mark.parametrize("ev", _evaluators(), ids=lambda ev: type(ev).__name__)
def test_the_former_rank_keyword_still_works_with_a_deprecation_warning(ev: object) -> None:
    want = ev.precision_at(3)  # type: ignore[attr-defined]
    assert ev.precision_at(k=3) == want  # type: ignore[attr-defined]
    with pytest.warns(DeprecationWarning, match=r"precision_at: the argument 'rank' is now called 'k'"):
        assert ev.precision_at(rank=3) == want  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="got both 'k' and its deprecated former name 'rank'"):
        ev.precision_at(k=3, rank=3)  # type: ignore[attr-defined]


def test_the_functional_rank_keyword_still_works_with_a_deprecation_warning() -> None:
    y, s = [1, 0, 1, 1, 0], [0.9, 0.8, 0.7, 0.3, 0.2]
    want = F.precision_at(y, s, 2)
    assert F.precision_at(y, s, k=2) == want == 0.5
    with pytest.warns(DeprecationWarning, match="precision_at: the argument 'rank' is now called 'k'"):
        assert F.precision_at(y, s, rank=2) == want
    assert F.recall_at(y, s, k=2) == F.recall_at(y, s, 2)


def test_named_interval_measures_use_the_new_keyword() -> None:
    import warnings

    ev = E()
    ev.add_cases([True, False, True, False] * 5, np.linspace(1.0, 0.0, 20))
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        interval = ev.confidence_interval("precision_at", k=4, n_resamples=50, seed=0)
        assert interval.estimate == ev.precision_at(4)
        from scored_pr.testing import assert_metrics

        assert_metrics(ev, precision_at_4=(">=", 0.0), confidence=0.9)


@pytest.mark.parametrize("max_fpr", [0.05, 0.2, 0.5, 0.75, 1.0])
@pytest.mark.parametrize("seed", range(5))
def test_partial_roc_area_equals_scikit_learns_roc_auc_score_max_fpr(seed: int, max_fpr: float) -> None:
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 600))
    y = rng.random(n) < rng.uniform(0.2, 0.8)
    y[:2] = [True, False]
    s = np.round(rng.normal(size=n) + y, int(rng.integers(0, 3)))  # ties
    w = rng.gamma(1.0, 2.0, n) if seed % 2 else None
    want = sklearn_metrics.roc_auc_score(y, s, max_fpr=max_fpr, sample_weight=w)
    got = scored_pr.area_under_roc_curve(y, s, max_fpr=max_fpr, sample_weight=w)
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12)
    for ties in ("grouped", "stable"):  # a threshold cannot split a tie: the policy does not matter
        ev = E(ties=ties)
        ev.add_cases(y, s, sample_weight=w)
        assert F.area_under_roc_curve(y, s, ties=ties, max_fpr=max_fpr, sample_weight=w) == ev.area_under_roc_curve(max_fpr=max_fpr)
        raw = F.area_under_roc_curve(y, s, ties=ties, max_fpr=max_fpr, standardized=False, sample_weight=w)
        assert raw == ev.area_under_roc_curve(max_fpr=max_fpr, standardized=False) and 0.0 <= raw <= max_fpr


def test_partial_roc_area_slow_reference_with_misses() -> None:
    # Literal: positives at 0.9, 0.7 and one miss (below every case), negatives at 0.8, 0.1 and one
    # negative miss (tied with the miss). ROC points by threshold, fpr then tpr over P = 3, N = 3:
    # (0, 0) (0, 1/3) (1/3, 1/3) (1/3, 2/3) (2/3, 2/3) then the unreturned tie group to (1, 1).
    # Area for fpr <= 0.5: 1/3 * 1/3 + (0.5 - 1/3) * 2/3.
    raw = 1 / 9 + (0.5 - 1 / 3) * 2 / 3
    got = F.area_under_roc_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], misses=1, negative_misses=1, max_fpr=0.5, standardized=False)
    assert got == pytest.approx(raw, rel=1e-14)
    lo, hi = 0.5**2 / 2, 0.5
    std = F.area_under_roc_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], misses=1, negative_misses=1, max_fpr=0.5)
    assert std == pytest.approx(0.5 * (1 + (raw - lo) / (hi - lo)), rel=1e-14)


@pytest.mark.parametrize(
    ("kwargs", "exc", "message"),
    [
        ({"max_fpr": 0.0}, ValueError, "argument 'max_fpr' must be None or a real number in (0, 1]"),
        ({"max_fpr": 1.5}, ValueError, "argument 'max_fpr' must be None or a real number in (0, 1]"),
        ({"max_fpr": "0.5"}, ValueError, "argument 'max_fpr'"),
        ({"max_fpr": 0.5, "standardized": 1}, TypeError, "argument 'standardized' must be a bool"),
        ({"max_fpr": 0.5, "interpolate": True}, ValueError, "argument 'interpolate' must be False when max_fpr is given"),
    ],
)
def test_partial_roc_area_rejects_bad_options(kwargs: dict[str, object], exc: type[Exception], message: str) -> None:
    with pytest.raises(exc) as info:
        F.area_under_roc_curve([1, 0], [0.5, 0.2], **kwargs)
    assert str(info.value).startswith(f"area_under_roc_curve: {message}")


def test_partial_roc_area_of_one_class_is_nan() -> None:
    assert math.isnan(F.area_under_roc_curve([1, 1], [0.5, 0.2], max_fpr=0.5))
    assert math.isnan(F.area_under_roc_curve([], [], max_fpr=0.5))


def test_dir_of_the_trec_package_lists_only_its_public_names_and_dunders() -> None:
    import scored_pr.trec as trec

    assert trec.TrecEval is not None  # load a lazy name first, which imports private modules
    names = dir(trec)
    public = {name for name in names if not (name.startswith("__") and name.endswith("__"))}
    assert public == set(trec.__all__)
    for helper in ("Any", "TYPE_CHECKING", "annotations", "_LAZY"):
        assert helper not in names


def _slow_ap(y: list[int], s: list[float]) -> float:
    """Average precision with tie groups, written out: Σ over groups (ΔR) · precision at the group's end."""
    total = sum(y)
    ap, tp, seen = 0.0, 0, 0
    for score in sorted(set(s), reverse=True):
        group = [t for t, v in zip(y, s) if v == score]
        seen += len(group)
        gained = sum(group)
        tp += gained
        ap += gained / total * tp / seen
    return ap


# a binary classifier's predict_proba: column 1 is the positive class's probability
_Y2 = [0, 1, 1, 0, 1, 0, 0, 1]
_P2 = [[0.9, 0.1], [0.3, 0.7], [0.6, 0.4], [0.2, 0.8], [0.1, 0.9], [0.7, 0.3], [0.5, 0.5], [0.45, 0.55]]


@pytest.mark.parametrize("func", ["average_precision", "area_under_roc_curve", "top_k_accuracy_score"])
@pytest.mark.parametrize("y", [_Y2, [bool(t) for t in _Y2], ["spam" if t else "ham" for t in _Y2], [1] * 8,
                               np.array(_Y2)[:, None]])
def test_n_by_2_scores_with_binary_labels_are_refused_naming_the_column_to_pass(func: str, y: object) -> None:
    """(n, 2) predict_proba output with 1-d labels is ambiguous: refused, saying to pass predict_proba(X)[:, 1]."""
    with pytest.raises(ValueError) as info:
        getattr(F, func)(y, _P2)
    message = str(info.value)
    assert message.startswith(f"{func}: argument 'y_score' of shape (n, 2) with binary labels in 'y_true'")
    assert "predict_proba(X)[:, 1]" in message and "labels=" in message and "shape (8, 2)" in message


def test_n_by_2_scores_take_labels_or_an_indicator_matrix_and_the_positive_column_is_the_binary_value() -> None:
    p = np.array(_P2)
    # column 1 ranks 0.9 (+), 0.8, 0.7 (+), 0.55 (+), 0.5, 0.4 (+), ...: AP = (1 + 2/3 + 3/4 + 4/6) / 4 = 37/48
    assert F.average_precision(_Y2, p[:, 1]) == _slow_ap(_Y2, p[:, 1].tolist()) == pytest.approx(37 / 48, abs=1e-15)
    both = (_slow_ap([1 - t for t in _Y2], p[:, 0].tolist()) + _slow_ap(_Y2, p[:, 1].tolist())) / 2
    assert F.average_precision(_Y2, p, labels=[0, 1]) == pytest.approx(both, abs=1e-15)
    assert F.average_precision(_Y2, p, labels=[0, 1], average=None).tolist() == pytest.approx(
        [_slow_ap([1 - t for t in _Y2], p[:, 0].tolist()), _slow_ap(_Y2, p[:, 1].tolist())], abs=1e-15)
    indicator = np.stack([1 - np.array(_Y2), np.array(_Y2)], axis=1)  # a 2-d y: the columns are labels
    assert F.average_precision(indicator, p) == F.average_precision(_Y2, p, labels=[0, 1])
    # 16 positive/negative pairs, 12 ranked right by column 1 (0.9: 4, 0.7: 3, 0.55: 3, 0.4: 2)
    assert F.area_under_roc_curve(_Y2, p[:, 1]) == 0.75
    assert F.area_under_roc_curve(_Y2, p, labels=[0, 1], multi_class="ovr") == 0.75
    # 6 of 8 rows right at the 0.5 threshold; as classes the tied row (0.5, 0.5) goes to the later column: 5 of 8
    assert F.top_k_accuracy_score(_Y2, p[:, 1], k=1) == 0.75
    assert F.top_k_accuracy_score(_Y2, p, k=1, labels=[0, 1]) == 0.625
