"""Multi-label and multi-class one-call measures held to scikit-learn, plus literal small examples.

Every averaging mode of ``average_precision`` and ``area_under_roc_curve``,
both multi-class strategies, the label-ranking measures, top-k accuracy and
the scikit-learn-layout curves are compared with scikit-learn on thousands of
small inputs with heavy ties (integer-ish scores, -0.0 next to 0.0), weights
(some 0) and columns without a positive. Where the installed scikit-learn
raises for a column of one class (releases before 1.6 did, for ROC AUC), the
test compares with a literal reference of scikit-learn 1.9's rule instead.
"""

from __future__ import annotations

import itertools
import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import scored_pr
from scored_pr import functional as F

sk = pytest.importorskip("sklearn.metrics")

SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
AVERAGES = [None, "macro", "micro", "weighted", "samples"]
#: Scores with many ties, both signs, and -0.0 next to 0.0 (equal scores: one tie group).
SCORES = st.sampled_from([-1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 2.0, 3.0])
WEIGHTS = st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0])


def close(got: Any, want: Any) -> bool:
    return bool(np.allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=1e-12, atol=1e-12, equal_nan=True))


@st.composite
def multilabel(draw: Any, weighted: bool | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    n = draw(st.integers(1, 10))
    k = draw(st.integers(2, 4))
    y = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=k, max_size=k), min_size=n, max_size=n)))
    s = np.array(draw(st.lists(st.lists(SCORES, min_size=k, max_size=k), min_size=n, max_size=n)))
    use_weights = draw(st.booleans()) if weighted is None else weighted
    w = np.array(draw(st.lists(WEIGHTS, min_size=n, max_size=n))) if use_weights else None
    return y, s, w


def roc_auc_reference(y: Any, s: Any, **kwargs: Any) -> Any:
    """scikit-learn's ROC AUC; NaN where a label or row has one class, which scikit-learn gives
    from 1.6 on (with a warning) and refuses before (the floor run's 1.5.2 raises ValueError)."""
    try:
        return quietly(sk.roc_auc_score, y, s, **kwargs)
    except ValueError as exc:
        if "Only one class present" not in str(exc):
            raise
        return math.nan


def quietly(func: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


def sklearn_or_none(func: Any, *args: Any, **kwargs: Any) -> Any:
    """scikit-learn's value, or None where it refuses the input.

    IndexError: scikit-learn 1.5 (the dependency floor) crashes on a column whose weights are all
    0 (``stable_cumsum`` of nothing); the literal reference still holds the value there.
    """
    try:
        return quietly(func, *args, **kwargs)
    except (ValueError, ZeroDivisionError, IndexError):
        return None


# --- literal references (scikit-learn 1.9's rules, written out) --------------------------------


def slow_binary_ap(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> float:
    """Σ over distinct thresholds (R_t - R_{t-1}) P_t; 0.0 without a positive."""
    w = np.ones(len(y)) if w is None else w
    pos = float(np.sum(w[y == 1]))
    if pos == 0:
        return 0.0
    total, last_recall = 0.0, 0.0
    for t in sorted(set(s.tolist()), reverse=True):
        at = s >= t
        tp, fp = float(np.sum(w[at & (y == 1)])), float(np.sum(w[at & (y == 0)]))
        precision = tp / (tp + fp) if tp + fp > 0 else 0.0
        total += (tp / pos - last_recall) * precision
        last_recall = tp / pos
    return total


def slow_binary_auc(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> float:
    """Weighted Mann-Whitney: Σ w_i w_j [s_i > s_j] + 0.5 [s_i = s_j] over (positive i, negative j); NaN with one class."""
    w = np.ones(len(y)) if w is None else w
    num = den = 0.0
    for i in range(len(y)):
        for j in range(len(y)):
            if y[i] == 1 and y[j] == 0:
                num += w[i] * w[j] * (1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0)
                den += w[i] * w[j]
    return num / den if den > 0 else math.nan


def slow_average(binary: Any, y: np.ndarray, s: np.ndarray, w: np.ndarray | None, average: str | None) -> Any:
    """scikit-learn's _average_binary_score, spelled out with loops."""
    n, k = y.shape
    if average == "micro":
        return binary(y.ravel(), s.ravel(), None if w is None else np.repeat(w, k))
    if average == "samples":
        values = np.array([binary(y[i], s[i], None) for i in range(n)])
        weights = w
    else:
        values = np.array([binary(y[:, c], s[:, c], w) for c in range(k)])
        weights = None
        if average is None:
            return values
        if average == "weighted":
            weights = (y * (np.ones(n) if w is None else w)[:, None]).sum(axis=0)
            if np.isclose(weights.sum(), 0.0):
                return 0.0
    if weights is not None:
        if weights.sum() == 0:
            return math.nan
        values = np.where(weights == 0, 0.0, values)
    return float(np.average(values, weights=weights))


# --- multi-label average precision and ROC AUC ---------------------------------------------------


@SETTINGS
@given(multilabel(), st.sampled_from(AVERAGES))
def test_multilabel_average_precision_equals_scikit_learn(data: Any, average: str | None) -> None:
    y, s, w = data
    got = quietly(F.average_precision, y, s, average=average, sample_weight=w)
    assert close(got, slow_average(slow_binary_ap, y, s, w, average))
    want = sklearn_or_none(sk.average_precision_score, y, s, average=average, sample_weight=w)
    if want is not None:
        assert close(got, want), (got, want)


@SETTINGS
@given(multilabel(), st.sampled_from(AVERAGES), st.sampled_from([None, 1.0, 0.5]))
def test_multilabel_roc_auc_equals_scikit_learn(data: Any, average: str | None, max_fpr: float | None) -> None:
    y, s, w = data
    got = quietly(F.area_under_roc_curve, y, s, average=average, sample_weight=w, max_fpr=max_fpr)
    if max_fpr in (None, 1.0):
        assert close(got, slow_average(slow_binary_auc, y, s, w, average))
    want = sklearn_or_none(sk.roc_auc_score, y, s, average=average, sample_weight=w, max_fpr=max_fpr)
    if want is not None:
        assert close(got, want), (got, want)


def test_a_one_class_column_is_nan_with_one_warning_and_no_positive_ap_is_zero() -> None:
    y = np.array([[1, 0, 1], [0, 0, 1], [1, 0, 1]])
    s = np.array([[0.9, 0.1, 0.3], [0.2, 0.8, 0.4], [0.6, 0.5, 0.9]])
    with pytest.warns(UserWarning, match=r"^area_under_roc_curve: 2 of 3 label columns have a single class") as roc_warnings:
        per_label = F.area_under_roc_curve(y, s, average=None)
    assert len(roc_warnings) == 1
    assert per_label[0] == 1.0 and math.isnan(per_label[1]) and math.isnan(per_label[2])
    with pytest.warns(UserWarning, match=r"^average_precision: 1 of 3 label columns have no positive case") as ap_warnings:
        ap = F.average_precision(y, s, average=None)
    assert len(ap_warnings) == 1
    assert ap.tolist() == [1.0, 0.0, 1.0]  # scikit-learn 1.9: recall set to 1, so no area
    want = sklearn_or_none(sk.average_precision_score, y, s, average=None)
    assert want is None or close(ap, want)
    # "weighted" gives a column without positives weight 0, so its NaN ROC AUC does not spread;
    # a column of positives only keeps its weight, and its NaN spreads (as scikit-learn)
    assert quietly(F.area_under_roc_curve, y[:, :2], s[:, :2], average="weighted") == 1.0
    assert math.isnan(quietly(F.area_under_roc_curve, y, s, average="weighted"))
    assert math.isnan(quietly(F.area_under_roc_curve, y, s, average="macro"))


def test_samples_average_with_every_weight_zero_is_nan() -> None:
    y, s = [[1, 0], [0, 1]], [[0.3, 0.2], [0.1, 0.4]]
    assert math.isnan(F.average_precision(y, s, average="samples", sample_weight=[0, 0]))
    assert math.isnan(F.area_under_roc_curve(y, s, average="samples", sample_weight=[0.0, 0.0]))
    with pytest.raises(ZeroDivisionError):  # scikit-learn's answer to the same 0/0
        sk.average_precision_score(y, s, average="samples", sample_weight=[0, 0])


def test_samples_average_counts_rows_without_a_positive_as_zero() -> None:
    # A per-class loop that skipped rows without a positive label got NaN here;
    # scikit-learn's average="samples" scores such a row 0.0 (its recall is set to 1).
    y = np.array([[1, 0, 0], [0, 0, 0], [0, 1, 1], [1, 0, 1], [0, 0, 0]])
    s = np.array([[0.8, 0.3, 0.5], [0.2, 0.4, 0.1], [0.6, 0.7, 0.2], [0.9, 0.5, 0.3], [0.1, 0.6, 0.4]])
    rows = [slow_binary_ap(y[i], s[i], None) for i in range(len(y))]
    assert rows[1] == rows[4] == 0.0
    want = sum(rows) / len(rows)
    got = quietly(F.average_precision, y, s, average="samples")
    assert not math.isnan(got) and got == pytest.approx(want, abs=1e-15)
    assert got == pytest.approx(quietly(sk.average_precision_score, y, s, average="samples"), abs=1e-15)
    # the 17-line loop's mistake, kept as the contrast: NaN from 0/0 on the rows without a positive
    with np.errstate(invalid="ignore"):
        naive = np.mean([np.nan if y[i].sum() == 0 else rows[i] for i in range(len(y))])
    assert math.isnan(naive)


def test_literal_multilabel_example() -> None:
    y = [[1, 0], [0, 1], [1, 1], [0, 0]]
    s = [[0.9, 0.2], [0.4, 0.8], [0.3, 0.6], [0.5, 0.3]]
    # column 0 ranks +, -, -, +: (1/1 + 2/4) / 2; column 1 ranks its two positives first
    assert F.average_precision(y, s, average=None).tolist() == [0.75, 1.0]
    assert F.average_precision(y, s) == 0.875
    # micro: 0.9+ 0.8+ 0.6+ 0.5- 0.4- {0.3+, 0.3-} 0.2-: (1 + 1 + 1 + 4/7) / 4
    assert F.average_precision(y, s, average="micro") == pytest.approx(25 / 28, abs=1e-15)
    # ROC: column 0 has 2 positives x 2 negatives, 3 of 4 pairs ordered (0.3+ below 0.5- and 0.4-: 2 of 4)
    assert F.area_under_roc_curve(y, s, average=None).tolist() == [0.5, 1.0]
    assert F.area_under_roc_curve(y, s, average="weighted") == 0.75


def test_wide_scores_of_both_signs_take_the_argsort_path_with_the_same_values() -> None:
    # Scores of both signs whose magnitudes range over more than about 2**1023 (a subnormal beside
    # 1e300) leave no bit for the label: the argsort path runs. Logits (and s / 1e300 here) do not.
    rng = np.random.default_rng(3)
    y = (rng.random((60, 3)) < 0.4).astype(int)
    s = rng.choice([-1e300, -2.0, -5e-324, -0.0, 0.0, 3.0, 1e300], size=(60, 3))
    from scored_pr._core.multilabel import _label_keys

    assert _label_keys(y.astype(bool), s) is None and _label_keys(y.astype(bool), s / 1e300) is not None
    for average in AVERAGES:
        want = quietly(sk.average_precision_score, y, s, average=average)
        assert close(quietly(F.average_precision, y, s, average=average), want), average
        got = quietly(F.area_under_roc_curve, y, s, average=average)
        assert close(got, slow_average(slow_binary_auc, y, s, None, average)), average
        want = sklearn_or_none(sk.roc_auc_score, y, s, average=average)  # scikit-learn < 1.6 raised on one-class rows
        if want is not None:
            assert close(got, want), average


@pytest.mark.parametrize("scores", ["logits", "logits with zeros", "float32 logits", "float16 logits", "sigmoid", "rounded"])
def test_every_score_distribution_equals_scikit_learn_per_label(scores: str) -> None:
    # Each distribution takes its own key or tie path (both signs; exact zeros; float32's scattered
    # ties; float16's many ties; probabilities; rounded probabilities): every label equals sklearn.
    rng = np.random.default_rng(7)
    y = rng.random((3000, 4)) < 0.2
    z = rng.standard_normal((3000, 4)) + y
    s = {
        "logits": z, "logits with zeros": np.where(rng.random(z.shape) < 0.05, 0.0, z) * np.where(z < 0, 1, -1),
        "float32 logits": z.astype(np.float32), "float16 logits": z.astype(np.float16),
        "sigmoid": 1 / (1 + np.exp(-z)), "rounded": np.round(1 / (1 + np.exp(-z)), 2),
    }[scores]
    for j in range(4):
        assert close(F.average_precision(y, s, average=None)[j], sk.average_precision_score(y[:, j], s[:, j]))
        assert F.area_under_roc_curve(y, s, average=None)[j] == pytest.approx(sk.roc_auc_score(y[:, j], s[:, j]), abs=1e-15)
    assert close(F.average_precision(y, s, average="micro"), sk.average_precision_score(y, s, average="micro"))


@given(st.integers(0, 2**32 - 1), st.integers(1, 60), st.integers(1, 4), st.integers(0, 2))
@SETTINGS
def test_the_few_ties_path_equals_the_tie_group_path(seed: int, n: int, k: int, decimals: int) -> None:
    # The per-positive sums (few tied cases) and the per-tie-group sums give the same measures.
    from scored_pr._core import multilabel as ml

    rng = np.random.default_rng(seed)
    y = rng.random((n, k)) < rng.random()
    s = np.round(rng.standard_normal((n, k)), decimals)
    keys = ml._label_keys(y, s)
    assert keys is not None
    keys.sort(axis=1)
    labels = (keys & np.uint64(1)).astype(bool)
    values = keys >> np.uint64(1)
    is_start = np.ones((k, n), dtype=bool)
    is_start[:, 1:] = values[:, 1:] != values[:, :-1]
    few = ml._per_positive_block(labels, is_start)
    g = ml.group_ends(y, s)
    assert close(few[0], ml.average_precision_columns(g, k))
    assert np.array_equal(few[1], ml.roc_auc_columns(g, k), equal_nan=True)  # integer pair counts: exact
    assert np.array_equal(few[2], g.positives) and np.array_equal(few[3], g.negatives)


# --- multi-class: one-vs-rest and one-vs-one ----------------------------------------------------


@st.composite
def multiclass(draw: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, list[int] | None]:
    k = draw(st.integers(3, 5))
    n = draw(st.integers(k, 14))
    classes = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    counts = np.array(draw(st.lists(st.lists(st.integers(0, 3), min_size=k, max_size=k), min_size=n, max_size=n)), dtype=float)
    counts[:, 0] += counts.sum(axis=1) == 0  # no empty row
    p = counts / counts.sum(axis=1, keepdims=True)  # probabilities with ties
    w = np.array(draw(st.lists(WEIGHTS, min_size=n, max_size=n))) if draw(st.booleans()) else None
    labels = list(range(k)) if draw(st.booleans()) else None
    return np.array(classes), p, w, labels


@SETTINGS
@given(multiclass(), st.sampled_from(["ovr", "ovo"]), st.sampled_from([None, "macro", "weighted", "micro"]))
def test_multiclass_roc_auc_equals_scikit_learn(data: Any, multi_class: str, average: str | None) -> None:
    y, p, w, labels = data
    if multi_class == "ovo":
        w = None
        assume(average in ("macro", "weighted"))
    if labels is None:
        assume(len(set(y.tolist())) == p.shape[1])
    want = sklearn_or_none(sk.roc_auc_score, y, p, multi_class=multi_class, average=average, sample_weight=w, labels=labels)
    got = quietly(F.area_under_roc_curve, y, p, multi_class=multi_class, average=average, sample_weight=w, labels=labels)
    if want is not None:
        assert close(got, want), (got, want)
    if multi_class == "ovo":
        assert close(got, slow_hand_till(y, p, average == "weighted"))


def slow_hand_till(y: np.ndarray, p: np.ndarray, weighted: bool) -> float:
    """Hand & Till (2001): mean over pairs of present classes of (A(a|b) + A(b|a)) / 2."""
    present = sorted(set(y.tolist()))
    pairs, weights = [], []
    for a, b in itertools.combinations(present, 2):
        mask = (y == a) | (y == b)
        a_b = slow_binary_auc((y[mask] == a).astype(int), p[mask, a], None)
        b_a = slow_binary_auc((y[mask] == b).astype(int), p[mask, b], None)
        pairs.append((a_b + b_a) / 2)
        weights.append(mask.mean())
    if not pairs:  # fewer than two classes present: no pair to average, NaN (scored_pr's documented value)
        return math.nan
    return float(np.average(pairs, weights=weights if weighted else None))


@SETTINGS
@given(multiclass(), st.sampled_from(AVERAGES))
def test_multiclass_average_precision_equals_scikit_learn(data: Any, average: str | None) -> None:
    y, p, w, _ = data
    assume(len(set(y.tolist())) == p.shape[1])
    want = sklearn_or_none(sk.average_precision_score, y, p, average=average, sample_weight=w)
    got = quietly(F.average_precision, y, p, average=average, sample_weight=w)
    if want is not None:
        assert close(got, want), (got, want)
    onehot = (y[:, None] == np.arange(p.shape[1])).astype(int)
    assert close(got, slow_average(slow_binary_ap, onehot, p, w, average))


def test_string_classes_with_labels_choose_the_columns() -> None:
    y = np.array(["cat", "dog", "emu", "dog", "cat"])
    p = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.4, 0.4, 0.2], [0.5, 0.1, 0.4]])
    want = sk.roc_auc_score(y, p, multi_class="ovr")
    assert F.area_under_roc_curve(y, p, multi_class="ovr") == pytest.approx(want, abs=1e-15)
    # the columns in another order, said by labels=
    got = F.area_under_roc_curve(y, p[:, [2, 0, 1]], multi_class="ovr", labels=["emu", "cat", "dog"])
    assert got == pytest.approx(want, abs=1e-15)


def test_ovo_skips_a_class_absent_from_y_true() -> None:
    y = np.array([0, 1, 0, 1, 1])
    p = np.array([[0.5, 0.3, 0.2], [0.2, 0.5, 0.3], [0.4, 0.4, 0.2], [0.3, 0.3, 0.4], [0.1, 0.6, 0.3]])
    got = F.area_under_roc_curve(y, p, multi_class="ovo", labels=[0, 1, 2])
    assert got == pytest.approx(sk.roc_auc_score(y, p, multi_class="ovo", labels=[0, 1, 2]), abs=1e-15)
    assert got == pytest.approx(slow_hand_till(y, p, False), abs=1e-15)


# --- label ranking measures and top-k accuracy --------------------------------------------------


@SETTINGS
@given(multilabel())
def test_label_ranking_measures_equal_scikit_learn(data: Any) -> None:
    y, s, w = data
    assume(w is None or w.sum() > 0)
    for name in ("label_ranking_average_precision_score", "coverage_error", "label_ranking_loss"):
        got = getattr(F, name)(y, s, sample_weight=w)
        want = quietly(getattr(sk, name), y, s, sample_weight=w)
        assert close(got, want), (name, got, want)


def test_label_ranking_literal_example() -> None:
    y = [[1, 0, 0], [0, 0, 1], [1, 1, 0]]
    s = [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1], [0.3, 0.3, 0.3]]
    # row 0: its label ranks 2nd (1/2); row 1: 3rd (1/3); row 2: all three tie, each relevant label has rank 3, L = 2
    assert F.label_ranking_average_precision_score(y, s) == pytest.approx((1 / 2 + 1 / 3 + 2 / 3) / 3, abs=1e-15)
    assert F.coverage_error(y, s) == pytest.approx((2 + 3 + 3) / 3, abs=1e-15)
    # mis-ordered pairs (ties count): 1 of 2, 2 of 2, 1 of 1 (the tie)
    assert F.label_ranking_loss(y, s) == pytest.approx((1 / 2 + 1 + 1) / 3, abs=1e-15)
    assert F.label_ranking_loss([[0, 0], [1, 1]], [[0.1, 0.2], [0.3, 0.4]]) == 0.0
    assert F.coverage_error([[0, 0, 0]], [[0.1, 0.2, 0.3]]) == 0.0


@SETTINGS
@given(multiclass(), st.integers(1, 4), st.booleans())
def test_top_k_accuracy_equals_scikit_learn(data: Any, k: int, normalize: bool) -> None:
    y, p, w, labels = data
    if labels is None:
        assume(len(set(y.tolist())) == p.shape[1])
    assume(w is None or w.sum() > 0)
    want = quietly(sk.top_k_accuracy_score, y, p, k=k, normalize=normalize, sample_weight=w, labels=labels)
    assert close(quietly(F.top_k_accuracy_score, y, p, k=k, normalize=normalize, sample_weight=w, labels=labels), want)


def test_top_k_ties_rank_the_higher_column_first_and_binary_scores() -> None:
    y = [0, 1, 2, 2]
    s = [[0.4, 0.4, 0.2], [0.4, 0.4, 0.2], [0.3, 0.3, 0.3], [0.5, 0.2, 0.3]]
    # k=1: row 0's tie puts class 1 first (a miss), row 1 a hit; row 2's three-way tie puts class 2 first
    assert F.top_k_accuracy_score(y, s, k=1) == 0.5 == sk.top_k_accuracy_score(y, s, k=1)
    yb, sb = [0, 1, 1, 0], [0.2, 0.7, 0.4, 0.6]
    assert F.top_k_accuracy_score(yb, sb, k=1) == 0.5 == sk.top_k_accuracy_score(yb, sb, k=1)
    assert F.top_k_accuracy_score(yb, [-1.0, 2.0, 0.5, -0.5], k=1) == 1.0
    with pytest.warns(UserWarning, match="^top_k_accuracy_score: k=2"):
        assert F.top_k_accuracy_score(yb, sb, k=2) == 1.0


# --- scikit-learn's curve layouts ---------------------------------------------------------------


@SETTINGS
@given(
    st.lists(st.tuples(st.integers(0, 1), SCORES, st.sampled_from([0.5, 1.0, 2.0])), min_size=1, max_size=14),
    st.booleans(),
    st.booleans(),
)
def test_curves_equal_scikit_learn(cases: list[tuple[int, float, float]], weighted: bool, drop: bool) -> None:
    y = np.array([c[0] for c in cases])
    s = np.array([c[1] for c in cases])
    w = np.array([c[2] for c in cases]) if weighted else None
    for ours, theirs in ((F.roc_curve, sk.roc_curve), (F.precision_recall_curve, sk.precision_recall_curve)):
        got = ours(y, s, sample_weight=w, drop_intermediate=drop)
        want = quietly(theirs, y, s, sample_weight=w, drop_intermediate=drop)
        for a, b in zip(got, want):
            assert a.shape == b.shape and close(a, b), (ours.__name__, got, want)


def test_curves_literal_and_pos_label_and_zero_weights() -> None:
    fpr, tpr, thr = scored_pr.roc_curve(["ham", "ham", "spam", "spam"], [0.1, 0.4, 0.35, 0.8], pos_label="spam")
    assert fpr.tolist() == [0.0, 0.0, 0.5, 0.5, 1.0] and tpr.tolist() == [0.0, 0.5, 0.5, 1.0, 1.0]
    assert thr.tolist() == [math.inf, 0.8, 0.4, 0.35, 0.1]
    precision, recall, thr = scored_pr.precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    assert precision.tolist() == [0.5, 2 / 3, 0.5, 1.0, 1.0] and recall.tolist() == [1.0, 1.0, 0.5, 0.5, 0.0]
    assert thr.tolist() == [0.1, 0.35, 0.4, 0.8]
    # a case of weight 0 adds no threshold
    fpr, tpr, thr = F.roc_curve([0, 1, 0], [0.2, 0.9, 0.5], sample_weight=[1.0, 1.0, 0.0], drop_intermediate=False)
    assert thr.tolist() == [math.inf, 0.9, 0.2]
    # one class: NaN rates (scikit-learn's values)
    fpr, tpr, _ = F.roc_curve([1, 1], [0.3, 0.6])
    assert np.isnan(fpr).all() and tpr.tolist() == [0.0, 0.5, 1.0]
    assert F.precision_recall_curve([0, 0], [0.3, 0.6])[1].tolist() == [1.0, 1.0, 0.0]


def test_roc_rows_keep_lingpipes_layout_and_top_level_roc_curve_is_scikit_learns() -> None:
    y, s = [1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    assert np.array_equal(F.roc_rows(y, s), ev.roc_curve())
    assert np.array_equal(scored_pr.roc_rows(y, s, interpolate=True), ev.roc_curve(True))
    assert scored_pr.roc_curve is F.roc_curve
    fpr, tpr, thr = scored_pr.roc_curve(y, s, drop_intermediate=False)
    for a, b in zip((fpr, tpr, thr), ev.roc_points()):
        assert np.array_equal(a, b)


# --- errors name the function and the argument ---------------------------------------------------

Y2 = [[1, 0], [0, 1], [1, 1]]
S2 = [[0.9, 0.2], [0.4, 0.8], [0.3, 0.6]]
P3 = [[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]]


@pytest.mark.parametrize(
    ("func", "args", "kwargs", "exc", "start"),
    [
        (F.average_precision, (Y2, S2), {"average": "mean"}, ValueError, "average_precision: argument 'average' must be one of"),
        (F.average_precision, (Y2, S2), {"ties": "stable"}, ValueError, "average_precision: argument 'ties' must be 'grouped' with scores of shape (n, k)"),
        (F.average_precision, (Y2, S2), {"misses": 2}, ValueError, "average_precision: argument 'misses' must be 0 with"),
        (F.average_precision, (Y2, S2), {"labels": [0, 1]}, ValueError, "average_precision: argument 'labels' must be None with an indicator"),
        (F.average_precision, ([[1, 2], [0, 1], [1, 1]], S2), {}, ValueError, "average_precision: argument 'y_true' must be an indicator matrix of 0/1 or bool"),
        (F.average_precision, ([[1, 0], [0, 1]], S2), {}, ValueError, "average_precision: argument 'y_true' must be an indicator matrix of the shape"),
        (F.average_precision, (Y2, [[0.9, float("nan")], [0.4, 0.8], [0.3, 0.6]]), {}, ValueError, "average_precision: argument 'y_score' must be a real number"),
        (F.average_precision, (Y2, S2), {"sample_weight": [1.0, 2.0]}, ValueError, "average_precision: argument 'sample_weight' must have one weight"),
        (F.average_precision, ([0, 1, 1], P3), {}, ValueError, "average_precision: argument 'y_true' must hold one class per column"),
        (F.average_precision, ([0, 1, 5], P3), {"labels": [0, 1, 2]}, ValueError, "average_precision: argument 'y_true' must be one of labels"),
        (F.average_precision, ([0, 1, 2], P3), {"labels": [0, 1, 1]}, ValueError, "average_precision: argument 'labels' must be 3 distinct"),
        (F.area_under_roc_curve, ([0, 1, 2], P3), {}, ValueError, "area_under_roc_curve: argument 'multi_class' must be 'ovr' or 'ovo'"),
        (F.area_under_roc_curve, ([0, 1, 2], P3), {"multi_class": "all"}, ValueError, "area_under_roc_curve: argument 'multi_class' must be one of"),
        (F.area_under_roc_curve, ([0, 1, 2], S2 + [[0.5, 0.5]]), {"multi_class": "ovr"}, ValueError, "area_under_roc_curve: argument 'y_true' must hold one class per column"),
        (F.area_under_roc_curve, ([0, 1, 2], [[0.6, 0.3, 0.2], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]]), {"multi_class": "ovr"}, ValueError, "area_under_roc_curve: argument 'y_score' must hold class probabilities whose rows sum to 1"),
        (F.area_under_roc_curve, ([0, 1, 2], P3), {"multi_class": "ovo", "average": None}, ValueError, "area_under_roc_curve: argument 'average' must be one of 'macro', 'weighted'"),
        (F.area_under_roc_curve, ([0, 1, 2], P3), {"multi_class": "ovr", "average": "samples"}, ValueError, "area_under_roc_curve: argument 'average' must be one of"),
        (F.area_under_roc_curve, ([0, 1, 2], P3), {"multi_class": "ovo", "sample_weight": [1, 1, 1]}, ValueError, "area_under_roc_curve: argument 'sample_weight' must be None with multi_class='ovo'"),
        (F.area_under_roc_curve, ([0, 1, 2], P3), {"multi_class": "ovr", "max_fpr": 0.5}, ValueError, "area_under_roc_curve: argument 'max_fpr' must be None or 1 for multi-class"),
        (F.area_under_roc_curve, (Y2, S2), {"max_fpr": 1.5}, ValueError, "area_under_roc_curve: argument 'max_fpr' must be a real number in (0, 1]"),
        (F.area_under_roc_curve, (Y2, S2), {"interpolate": True}, ValueError, "area_under_roc_curve: argument 'interpolate' must be False with"),
        (F.area_under_roc_curve, (Y2, S2), {"pos_label": 1}, ValueError, "area_under_roc_curve: argument 'pos_label' must be None with"),
        (F.coverage_error, ([1, 0, 1], S2), {}, ValueError, "coverage_error: argument 'y_true' must be an indicator matrix of the shape"),
        (F.label_ranking_loss, (Y2, [0.1, 0.2, 0.3]), {}, ValueError, "label_ranking_loss: argument 'y_score' must be 2-dimensional"),
        (F.top_k_accuracy_score, ([0, 1, 2], P3), {"k": 0}, ValueError, "top_k_accuracy_score: argument 'k' must be an int >= 1"),
        (F.top_k_accuracy_score, ([0, 1, 2], P3), {"normalize": 1}, TypeError, "top_k_accuracy_score: argument 'normalize' must be a bool"),
        (F.roc_curve, ([0, 1], [0.2, 0.4]), {"drop_intermediate": "yes"}, TypeError, "roc_curve: argument 'drop_intermediate' must be a bool"),
        (F.precision_recall_curve, ([0, 1], [0.2]), {}, ValueError, "precision_recall_curve: arguments 'y_true' and 'y_score' must have the same length"),
    ],
)
def test_errors_name_the_function_and_the_argument(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any], exc: type[Exception], start: str) -> None:
    with pytest.raises(exc) as info:
        func(*args, **kwargs)
    assert str(info.value).startswith(start), str(info.value)


def test_the_binary_forms_are_unchanged() -> None:
    y, s = [1, 0, 1, 1, 0], [0.9, 0.8, 0.7, 0.3, 0.2]
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    assert F.average_precision(y, s) == ev.average_precision()
    assert F.average_precision(y, s, average=None) == ev.average_precision()  # average is ignored, as scikit-learn
    assert F.area_under_roc_curve(y, s, average="micro") == ev.area_under_roc_curve()
    assert F.average_precision(np.array(y)[:, None], np.array(s)[:, None]) == ev.average_precision()  # (n, 1): binary


@pytest.mark.parametrize("block", [7, 64, 1 << 21])
def test_blocks_of_columns_and_segments_of_a_long_column_give_the_same_values(monkeypatch: Any, block: int) -> None:
    # Large inputs run in blocks of columns and (micro) in segments cut at tie-group starts;
    # a small block size makes these small inputs cross many block and segment boundaries.
    from scored_pr._core import multilabel

    monkeypatch.setattr(multilabel, "BLOCK", block)
    rng = np.random.default_rng(block)
    y = (rng.random((300, 6)) < 0.2).astype(int)
    y[:, 5] = 0  # a column without a positive
    s = rng.integers(-5, 6, (300, 6)) / 2.0  # heavy ties, both signs
    for average in AVERAGES:
        want = quietly(sk.average_precision_score, y, s, average=average)
        assert close(quietly(F.average_precision, y, s, average=average), want), average
        want = sklearn_or_none(sk.roc_auc_score, y[:, :5], s[:, :5], average=average)
        assert close(quietly(F.area_under_roc_curve, y[:, :5], s[:, :5], average=average), want), average


@pytest.mark.parametrize("seed", range(20))
def test_untied_scores_equal_scikit_learn(seed: int) -> None:
    # Continuous scores have no tie: the sums then run over the positives alone.
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(1, 80)), int(rng.integers(2, 6))
    y = (rng.random((n, k)) < rng.random()).astype(int)
    s = rng.normal(size=(n, k)) * (1.0 if seed % 2 else 1e-3) + (0.0 if seed % 3 else 5.0)
    for average in AVERAGES:
        want = sklearn_or_none(sk.average_precision_score, y, s, average=average)
        got = quietly(F.average_precision, y, s, average=average)
        assert close(got, slow_average(slow_binary_ap, y, s, None, average))
        if want is not None:
            assert close(got, want), average
        got = quietly(F.area_under_roc_curve, y, s, average=average)
        assert close(got, slow_average(slow_binary_auc, y, s, None, average))


# --- where scored_pr answers and scikit-learn refuses, or differs --------------------------------


def test_float16_probabilities_are_checked_at_their_own_precision() -> None:
    # softmax rounded to float16: its rows sum to 1 only within float16's rounding (here 0.99963...),
    # which scikit-learn's allclose(1, sums) refuses; both strategies answer, as on the float64 values
    rng = np.random.default_rng(11)
    y = rng.integers(0, 3, 400)
    logits = rng.standard_normal((400, 3)) + np.eye(3)[y]
    p16 = (np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)).astype(np.float16)
    p = p16.astype(np.float64)
    assert not np.allclose(1, p.sum(axis=1))
    with pytest.raises(ValueError, match="sum up to 1.0"):
        sk.roc_auc_score(y, p16, multi_class="ovr")
    onehot = np.eye(3, dtype=int)[y]
    for average in ("macro", "weighted"):
        got = F.area_under_roc_curve(y, p16, multi_class="ovr", average=average)
        assert close(got, sk.roc_auc_score(onehot, p, average=average))  # the same columns, as multi-label
        assert close(F.area_under_roc_curve(y, p16, multi_class="ovo", average=average), slow_hand_till(y, p, average == "weighted"))
    # far from 1 at float16's precision, and float64 rows held to numpy's isclose: still refused
    with pytest.raises(ValueError, match="rows sum to 1"):
        F.area_under_roc_curve(y, (p * 0.99).astype(np.float16), multi_class="ovr")
    with pytest.raises(ValueError, match="rows sum to 1"):
        F.area_under_roc_curve(y, p, multi_class="ovr")


@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_one_vs_one_without_two_classes_present_is_nan(average: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        empty = F.area_under_roc_curve(np.array([], int), np.zeros((0, 3)), multi_class="ovo", average=average, labels=[0, 1, 2])
        one = F.area_under_roc_curve([1, 1], [[0.2, 0.5, 0.3], [0.1, 0.8, 0.1]], multi_class="ovo", average=average, labels=[0, 1, 2])
    assert math.isnan(empty) and math.isnan(one)
    # scikit-learn 1.9: NaN for one class with "macro", numpy's bare ZeroDivisionError with "weighted"
    want = sklearn_or_none(sk.roc_auc_score, [1, 1], [[0.2, 0.5, 0.3], [0.1, 0.8, 0.1]], multi_class="ovo", average=average, labels=[0, 1, 2])
    assert want is None or math.isnan(want)
    with pytest.raises(ValueError):  # scikit-learn refuses an empty input
        sk.roc_auc_score(np.array([], int), np.zeros((0, 3)), multi_class="ovo", average=average, labels=[0, 1, 2])


@pytest.mark.parametrize("fmt", ["csr_matrix", "csc_matrix", "coo_matrix", "csr_array", "lil_matrix"])
def test_sparse_label_matrices_are_taken_by_every_label_matrix_function(fmt: str) -> None:
    sparse = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(13)
    y = (rng.random((50, 4)) < 0.3).astype(int)
    s = np.round(rng.standard_normal((50, 4)), 1)
    w = rng.choice([0.0, 1.0, 2.0], size=50)
    ys = getattr(sparse, fmt)(y)
    # scikit-learn takes sparse y_true here: equal to it
    assert close(F.label_ranking_average_precision_score(ys, s, sample_weight=w), sk.label_ranking_average_precision_score(ys, s, sample_weight=w))
    assert close(F.label_ranking_loss(ys, s, sample_weight=w), sk.label_ranking_loss(ys, s, sample_weight=w))
    # scikit-learn refuses sparse y_true here: equal to its value of the dense matrix
    assert close(F.coverage_error(ys, s, sample_weight=w), sk.coverage_error(y, s, sample_weight=w))
    for average in AVERAGES:
        assert close(quietly(F.average_precision, ys, s, average=average, sample_weight=w), quietly(sk.average_precision_score, y, s, average=average, sample_weight=w))
        assert close(quietly(F.area_under_roc_curve, ys, s, average=average, sample_weight=w), roc_auc_reference(y, s, average=average, sample_weight=w))
    # a sparse one-column matrix is the binary case, as its dense form
    assert F.average_precision(ys[:, [0]] if fmt != "coo_matrix" else sparse.csr_matrix(y[:, [0]]), s[:, [0]]) == F.average_precision(y[:, 0], s[:, 0])


def test_label_ranking_measures_answer_a_one_column_matrix() -> None:
    # one label: a row covers it (1) when it is relevant, else 0; no (relevant, irrelevant) pair in any row
    y, s = np.array([[1], [0], [1], [0]]), np.array([[0.3], [0.2], [0.4], [0.5]])
    assert F.coverage_error(y, s) == 0.5 and F.coverage_error(y, s, sample_weight=[3, 1, 0, 0]) == 0.75
    assert F.label_ranking_loss(y, s) == 0.0
    assert F.label_ranking_average_precision_score(y, s) == 1.0 == sk.label_ranking_average_precision_score(y, s)
    for refused in (sk.coverage_error, sk.label_ranking_loss):
        with pytest.raises(ValueError, match="binary format is not supported"):
            refused(y, s)
