"""Sample weights, labels (pos_label, 1.0/0.0, -1/1) and array-like ingestion.

Weighted measures are held against scikit-learn's ``sample_weight`` and
against the same cases repeated (an integer weight k is k copies under
grouped ties; under stable ties a weighted case is one block); labels
against scikit-learn's ``pos_label``.
"""

from __future__ import annotations

import array
import math
import pickle

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score, roc_curve

import scored_pr
from scored_pr import ScoredPrecisionRecallEvaluation as E


def weighted_data(seed: int, n: int = 300, zeros: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(y * 0.8, 1.0), 1)  # rounded: many ties
    w = rng.gamma(1.0, 2.0, n)
    if zeros:
        w[rng.random(n) < 0.05] = 0.0
    return y, s, w


@pytest.mark.parametrize("seed", range(12))
def test_weighted_measures_equal_scikit_learn(seed: int) -> None:
    y, s, w = weighted_data(seed)
    ev = E(ties="grouped")
    ev.add_cases(y, s, sample_weight=w)
    assert ev.weighted
    assert ev.average_precision() == pytest.approx(average_precision_score(y, s, sample_weight=w), abs=1e-12)
    assert ev.area_under_roc_curve() == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=1e-12)
    fpr, tpr, thr = ev.roc_points()
    sk_fpr, sk_tpr, sk_thr = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_allclose(fpr, sk_fpr, atol=1e-12)
    np.testing.assert_allclose(tpr, sk_tpr, atol=1e-12)
    np.testing.assert_array_equal(thr[1:], sk_thr[1:])  # the first threshold: inf here, max + 1 or inf there
    # every PR operating point is scikit-learn's point at that threshold
    prec, rec, pr_thr = precision_recall_curve(y, s, sample_weight=w, drop_intermediate=False)
    at = {t: (r, p) for t, r, p in zip(pr_thr, rec, prec)}
    rows = ev.pr_score_curve()
    assert rows.shape[0] > 5
    for r, p, t in rows:
        assert (r, p) == pytest.approx(at[t], abs=1e-12)
    assert ev.positive_weight == pytest.approx(w[y].sum()) and ev.negative_weight == pytest.approx(w[~y].sum())
    # thresholds: the lowest threshold with precision >= 0.6, checked on scikit-learn's arrays
    for target in (0.4, 0.6, 0.9):
        op = ev.threshold_at_precision(target)
        ok = [t for t, (r, p) in at.items() if p >= target]
        if not ok:
            assert math.isnan(op.threshold)
            continue
        assert op.threshold == min(ok)
        assert op.k == int(np.count_nonzero(s >= op.threshold))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.integers(-3, 3), st.integers(0, 3)), max_size=40),
    st.integers(0, 2),
    st.integers(0, 2),
)
def test_an_integer_weight_is_that_many_copies(cases: list, misses: int, neg_misses: int) -> None:
    weighted, copies = E(ties="grouped"), E(ties="grouped")
    weighted.add_cases([c for c, _, _ in cases], [float(s) for _, s, _ in cases], sample_weight=[w for *_, w in cases])
    for c, s, w in cases:
        for _ in range(w):
            copies.add_case(c, float(s))
    for ev in (weighted, copies):
        ev.add_misses(misses)
        ev.add_negative_misses(neg_misses)
    assert weighted.positive_weight == copies.num_positive_ref
    for name in ("average_precision", "maximum_f_measure"):
        a, b = getattr(weighted, name)(), getattr(copies, name)()
        assert a == pytest.approx(b, abs=1e-12) or (math.isnan(a) and math.isnan(b)), name
    for interpolate in (False, True):
        for name in ("area_under_pr_curve", "area_under_roc_curve"):
            a, b = getattr(weighted, name)(interpolate), getattr(copies, name)(interpolate)
            assert a == pytest.approx(b, abs=1e-12) or (math.isnan(a) and math.isnan(b)), (name, interpolate)
        for name in ("pr_curve", "roc_curve"):
            np.testing.assert_allclose(getattr(weighted, name)(interpolate), getattr(copies, name)(interpolate), atol=1e-12)
    for p in (0.0, 0.5, 0.9):
        a, b = weighted.threshold_at_precision(p), copies.threshold_at_precision(p)
        assert a[:3] == pytest.approx(b[:3], abs=1e-12, nan_ok=True)


def _same_point(a: tuple, b: tuple) -> bool:
    return all(x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(a, b))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.integers(-3, 3), st.integers(0, 4)), min_size=1, max_size=40),
    st.integers(0, 3),
)
@example([(True, 3, 2), (True, 2, 2), (True, 1, 2), (True, 0, 2), (True, -1, 2)], 0)  # the example
def test_level_queries_treat_an_integer_weight_as_that_many_copies(cases: list, misses: int) -> None:
    weighted, copies = E(ties="grouped"), E(ties="grouped")
    weighted.add_cases([c for c, _, _ in cases], [float(s) for _, s, _ in cases], sample_weight=[w for *_, w in cases])
    for c, s, w in cases:
        copies.add_cases([c] * w, [float(s)] * w)
    weighted.add_misses(misses)
    copies.add_misses(misses)
    # every level a user may read off either curve, plus round numbers
    curve = copies.pr_curve()
    recalls = {*curve[:, 0].tolist(), *weighted.pr_curve()[:, 0].tolist(), 0.0, 0.1, 0.2, 0.25, 1 / 3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0}
    precisions = {*curve[:, 1].tolist(), 0.0, 0.2, 1 / 3, 0.5, 2 / 3, 0.75, 1.0}
    for r in sorted(recalls):  # the same float64 ratios (integer sums are exact): equal to the bit
        a, b = weighted.threshold_at_recall(r), copies.threshold_at_recall(r)
        assert _same_point(a[:3], b[:3]), (r, a, b)
    for p in sorted(precisions):
        a, b = weighted.threshold_at_precision(p), copies.threshold_at_precision(p)
        assert _same_point(a[:3], b[:3]), (p, a, b)


def test_threshold_at_recall_is_the_same_with_and_without_weights() -> None:
    plain, doubled = E(), E()
    plain.add_cases([True] * 5, [5, 4, 3, 2, 1])
    doubled.add_cases([True] * 5, [5, 4, 3, 2, 1], sample_weight=[2] * 5)
    # 1/5 is reported as 0.2 (0.2's binary value is slightly above 1/5): the first case reaches it
    assert plain.threshold_at_recall(0.2) == doubled.threshold_at_recall(0.2) == (5.0, 1.0, 0.2, 1)
    assert plain.threshold_at_recall(0.6) == doubled.threshold_at_recall(0.6) == (3.0, 1.0, 0.6, 3)


def test_stable_ties_make_a_weighted_case_one_block_not_k_copies() -> None:
    # The example of docs/usage.md: distinct scores, so the tie policy matters only through the weights.
    y, s, w = [1, 0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6, 0.5], [2, 1, 3, 2, 1]
    weighted = E(ties="stable")
    weighted.add_cases(y, s, sample_weight=w)
    copies = E(ties="stable")
    copies.add_cases(np.repeat(y, w), np.repeat(s, w))
    # literal: block ends at 2, 3, 6, 8, 9 cases with 2, 2, 5, 5, 6 correct; P = 6
    assert weighted.average_precision() == pytest.approx((2 * 2 / 2 + 3 * 5 / 6 + 1 * 6 / 9) / 6, rel=1e-15)
    assert round(weighted.average_precision(), 4) == 0.8611
    # k copies: a point after every copy, (1/1 + 2/2 + 3/4 + 4/5 + 5/6 + 6/9) / 6
    assert copies.average_precision() == pytest.approx((1 + 1 + 3 / 4 + 4 / 5 + 5 / 6 + 6 / 9) / 6, rel=1e-15)
    assert round(copies.average_precision(), 4) == 0.8417
    assert weighted.pr_curve().shape[0] == 3 and copies.pr_curve().shape[0] == 6
    # docs/usage.md ("Labels, weights and array types") promises k copies only where it holds,
    # and quotes these two numbers.
    import re
    from pathlib import Path

    docs = " ".join((Path(__file__).resolve().parents[2] / "docs" / "usage.md").read_text().split())
    assert "integer weight k is the same as k copies" in docs
    claim = re.search(r'Under `ties="grouped"` \(the default\) an integer weight k is the same as k copies of the case\. '
                      r'Under `ties="stable"` it is not: .*?AP (0\.\d{4}) weighted, (0\.\d{4}) with the cases repeated', docs)
    assert claim is not None
    assert claim.groups() == (f"{weighted.average_precision():.4f}", f"{copies.average_precision():.4f}")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.integers(-3, 3), st.integers(1, 4)), min_size=1, max_size=30),
    st.integers(0, 2),
)
def test_what_an_integer_weight_is_under_each_tie_policy(cases: list, misses: int) -> None:
    y = np.array([c for c, _, _ in cases], dtype=bool)
    s = np.array([float(v) for _, v, _ in cases])
    w = np.array([k for *_, k in cases])
    # grouped: k copies of the case (test_an_integer_weight_is_that_many_copies checks every measure)
    # stable: one block per weighted case = its k copies as a tie group of their own, i.e. grouped
    # copies under scores that keep the stable order (descending score, insertion order among ties)
    order = np.lexsort((np.arange(len(s)), -s))
    block_score = np.empty(len(s))
    block_score[order] = -np.arange(len(s), dtype=float)
    stable_weighted = E(ties="stable")
    stable_weighted.add_cases(y, s, sample_weight=w.astype(float))
    blocks = E(ties="grouped")
    blocks.add_cases(np.repeat(y, w), np.repeat(block_score, w))
    stable_copies = E(ties="stable")
    stable_copies.add_cases(np.repeat(y, w), np.repeat(s, w))
    for ev in (stable_weighted, blocks, stable_copies):
        ev.add_misses(misses)
    for name in ("average_precision", "maximum_f_measure"):
        a, b = getattr(stable_weighted, name)(), getattr(blocks, name)()
        assert a == pytest.approx(b, rel=1e-12, abs=1e-15) or (math.isnan(a) and math.isnan(b)), name
    for interpolate in (False, True):
        a, b = stable_weighted.area_under_pr_curve(interpolate), blocks.area_under_pr_curve(interpolate)
        assert a == pytest.approx(b, rel=1e-12, abs=1e-15)
        np.testing.assert_allclose(stable_weighted.pr_curve(interpolate), blocks.pr_curve(interpolate), rtol=1e-12)
    # and k copies under stable ties agree only when no weight above 1 splits a block
    if (w == 1).all():
        assert stable_copies.average_precision() == stable_weighted.average_precision() or math.isnan(
            stable_copies.average_precision()
        )


def test_single_weighted_cases_keep_insertion_order_with_stable_ties() -> None:
    looped, batch = E(ties="stable"), E(ties="stable")
    looped.add_case(True, 0.5)  # unweighted first: it sits in the sorted list
    looped.add_case(False, 0.5, weight=2.0)
    looped.add_case(True, 0.5, weight=0.5)
    batch.add_cases([True, False, True], [0.5, 0.5, 0.5], sample_weight=[1.0, 2.0, 0.5])
    assert looped == batch
    looped._store._check()
    # stable: points after the first case (1/1) and the third (1.5 / 3.5)
    assert looped.pr_curve().tolist() == [[1 / 1.5, 1.0], [1.0, 1.5 / 3.5]]


def test_weights_survive_merge_save_load_dict_and_pickle(tmp_path) -> None:
    y, s, w = weighted_data(3, 60)
    a, b = E(), E()
    a.add_cases(y[:30], s[:30], sample_weight=w[:30])
    b.add_cases(y[30:], s[30:])
    merged = a + b
    whole = E()
    whole.add_cases(y, s, sample_weight=np.concatenate([w[:30], np.ones(30)]))
    assert merged == whole and merged.weighted
    path = tmp_path / "w.npz"
    merged.save(path)
    for again in (E.load(path), E.from_dict(merged.to_dict()), pickle.loads(pickle.dumps(merged))):
        assert again == merged and again.summary().keys() == merged.summary().keys()
        assert again.average_precision() == merged.average_precision()
    assert merged.to_dict()["version"] == 2 and "weights" in merged.to_dict()


def test_unweighted_evaluators_store_no_weights_and_write_format_1() -> None:
    ev = E()
    ev.add_cases([True, False], [0.3, 0.2], sample_weight=[1, 1.0])
    ev.add_case(True, 0.1, weight=1.0)
    assert not ev.weighted and ev._store.weights() is None
    assert ev.to_dict()["version"] == 1 and "weights" not in ev.to_dict()


def test_rank_measures_refuse_weights_and_reports_leave_them_out() -> None:
    ev = E()
    ev.add_cases([True, False, True], [0.9, 0.5, 0.1], sample_weight=[2.0, 1.0, 1.0])
    for call in (lambda: ev.precision_at(1), ev.r_precision, ev.pr_breakeven_point, ev.reciprocal_rank,
                 lambda: ev.recall_at(2), lambda: ev.average_precision(ties="expected")):  # fmt: skip
        with pytest.raises(ValueError, match="not defined with sample weights"):
            call()
    summary = ev.summary()
    assert math.isnan(summary["precision_at_5"]) and math.isnan(summary["r_precision"])
    assert summary["average_precision"] == pytest.approx(average_precision_score([1, 0, 1], [0.9, 0.5, 0.1], sample_weight=[2, 1, 1]))
    text = str(ev)
    assert "Positive Weight=3.0" in text and "Precision at" not in text


@pytest.mark.parametrize(
    "weights, exc, words",
    [
        ([1.0, -1.0], ValueError, ["'sample_weight'", ">= 0", "index 1"]),
        ([1.0, float("nan")], ValueError, ["'sample_weight'", "index 1"]),
        ([float("inf"), 1.0], ValueError, ["'sample_weight'", "index 0"]),
        ([1.0], ValueError, ["'sample_weight'", "one weight per case", "1 weights for 2 cases"]),
        (["a", "b"], TypeError, ["'sample_weight'", "'a'"]),
    ],
)
def test_bad_weights_are_rejected_and_change_nothing(weights: list, exc: type, words: list) -> None:
    ev = E()
    ev.add_case(True, 0.4)
    before = ev.to_dict()
    with pytest.raises(exc) as info:
        ev.add_cases([True, False], [0.3, 0.2], sample_weight=weights)
    assert all(word in str(info.value) for word in words), str(info.value)
    assert ev.to_dict() == before


@pytest.mark.parametrize("weight, exc", [(-1.0, ValueError), (math.nan, ValueError), (math.inf, ValueError), ("2", TypeError), (True, TypeError)])
def test_a_bad_single_weight_is_rejected_and_changes_nothing(weight: object, exc: type) -> None:
    ev = E()
    ev.add_case(True, 0.4)
    with pytest.raises(exc, match=r"add_case: argument 'weight' must be a finite real number >= 0"):
        ev.add_case(True, 0.3, weight=weight)
    assert ev.num_cases == 1 and not ev.weighted


# ------------------------------------------------------------------ labels


def test_float_and_minus_one_labels_equal_bools() -> None:
    y = np.array([1, 0, 1, 1, 0, 0, 1], dtype=bool)
    s = np.array([0.9, 0.8, 0.7, 0.5, 0.5, 0.2, 0.1])
    ref = E()
    ref.add_cases(y, s)
    for labels in (y.astype(np.float32), y.astype(float).tolist(), np.where(y, 1, -1), np.where(y, 1.0, -1.0).tolist()):
        ev = E()
        ev.add_cases(labels, s)
        assert ev == ref
    one = E()
    for label, score in zip(np.where(y, 1.0, -1.0), s):
        one.add_case(label, score)
    assert one == ref


def test_string_labels_with_pos_label_equal_scikit_learn() -> None:
    rng = np.random.default_rng(5)
    labels = rng.choice(["spam", "ham"], 200)
    s = np.round(rng.random(200), 2)
    ev = E(pos_label="spam")
    ev.add_cases(labels, s)
    assert ev.average_precision() == pytest.approx(average_precision_score(labels, s, pos_label="spam"), abs=1e-12)
    fpr, tpr, _ = ev.roc_points()
    sk_fpr, sk_tpr, _ = roc_curve(labels, s, pos_label="spam", drop_intermediate=False)
    np.testing.assert_allclose(fpr, sk_fpr) and np.testing.assert_allclose(tpr, sk_tpr)
    again = E(pos_label="spam")
    for label, score in zip(labels.tolist(), s.tolist()):
        again.add_case(label, score)
    assert again == ev and "pos_label='spam'" in repr(ev)
    assert E.from_dict(ev.to_dict()).pos_label == "spam"
    # class ids: positive class 2 of three
    ids = E(pos_label=2)
    ids.add_cases([0, 2, 1, 2], [0.1, 0.9, 0.8, 0.2])
    assert ids.num_positive_ref == 2


@pytest.mark.parametrize(
    "pos_label, labels, exc, words",
    [
        (None, ["spam", "ham"], TypeError, ["pos_label", "'spam'"]),
        ("spam", [1, 0], TypeError, ["a str label", "pos_label='spam'"]),
        (1, ["1", "0"], TypeError, ["a number or bool label", "'1'"]),
        (1, [1.0, float("nan")], ValueError, ["not NaN", "index 1"]),
        (None, [0, -1], ValueError, ["one label encoding", "index 0", "index 1"]),
        (None, [2, 1], ValueError, ["'correct'", "2", "index 0"]),
    ],
)
def test_label_errors_say_what_to_do(pos_label: object, labels: list, exc: type, words: list) -> None:
    ev = E(pos_label=pos_label)
    with pytest.raises(exc) as info:
        ev.add_cases(np.array(labels), [0.5, 0.4])
    assert all(w in str(info.value) for w in words), str(info.value)
    assert ev.num_cases == 0


def test_pos_label_must_be_a_scalar_label() -> None:
    with pytest.raises(TypeError, match="'pos_label'"):
        E(pos_label=[1])
    with pytest.raises(TypeError, match="'pos_label'"):
        E(pos_label=float("nan"))


# ----------------------------------------------------------------- ingestion


def test_zero_d_arrays_buffers_and_columns() -> None:
    ref = E()
    ref.add_cases([True, False, True], [0.5, 0.25, 0.125])
    ev = E()
    for c, s in ((np.array(True), np.array(0.5)), (np.array(0), np.float32(0.25)), (np.array(1.0), np.array([[0.125]])[0, 0])):
        ev.add_case(c, s)
    assert ev == ref
    ev = E()
    ev.add_cases(memoryview(np.array([1, 0, 1], dtype=np.int8)), array.array("d", [0.5, 0.25, 0.125]))
    assert ev == ref
    with pytest.raises(TypeError, match="a scalar"):
        E().add_case(np.array([True, False]), 0.5)


class FakeDeviceArray:
    """An array-like on a GPU, as CuPy/torch CUDA tensors present themselves."""

    class device:
        type = "cuda"

    def __array__(self, dtype=None, copy=None):  # pragma: no cover - must never be called
        raise AssertionError("a device array was copied implicitly")

    def __len__(self) -> int:
        return 2


def test_device_arrays_are_refused_with_advice() -> None:
    with pytest.raises(TypeError, match=r"host \(CPU\) memory.*\.cpu\(\)"):
        E().add_cases(FakeDeviceArray(), [0.1, 0.2])


def test_torch_tensors() -> None:
    torch = pytest.importorskip("torch")
    y = torch.tensor([1, 0, 1, 1, 0])
    s = torch.tensor([0.9, 0.8, 0.7, 0.6, 0.5], requires_grad=True) * 1.0  # a non-leaf tensor in a graph
    ev = E()
    ev.add_cases(y, s)
    ref = E()
    ref.add_cases([1, 0, 1, 1, 0], np.array([0.9, 0.8, 0.7, 0.6, 0.5], dtype=np.float32))
    assert ev == ref
    one = E()
    for label, score in zip(y, s):  # 0-d tensors, as a serving loop passes them
        one.add_case(label, score)
    assert one == ref
    one.add_case(torch.tensor(True), torch.tensor(0.3, dtype=torch.float64), weight=torch.tensor(2.0))
    assert one.weighted


def test_pandas_and_polars_series() -> None:
    pd = pytest.importorskip("pandas")
    y = pd.Series([True, False, True], index=[10, 20, 30])
    s = pd.Series([0.5, 0.25, 0.125], index=[10, 20, 30])
    ref = E()
    ref.add_cases([True, False, True], [0.5, 0.25, 0.125])
    ev = E()
    ev.add_cases(y, s)
    assert ev == ref
    ev = E()
    ev.add_cases(pd.Series([1.0, 0.0, 1.0]), s, sample_weight=pd.Series([1, 1, 1]))
    assert ev == ref
    with pytest.raises(TypeError, match=r"'correct'.*<NA>"):  # a missing label is not a negative
        E().add_cases(pd.Series([True, None, False], dtype="boolean"), s)
    pl = pytest.importorskip("polars")
    ev = E()
    ev.add_cases(pl.Series([True, False, True]), pl.Series([0.5, 0.25, 0.125]))
    assert ev == ref
    strings = E(pos_label="yes")
    strings.add_cases(pl.Series(["yes", "no", "yes"]), s)
    assert strings == E.from_dict({**ref.to_dict(), "version": 2, "pos_label": "yes"})


def test_functional_api_takes_pos_label_and_sample_weight() -> None:
    y, s, w = weighted_data(9, 120)
    labels = np.where(y, "pos", "neg")
    assert scored_pr.average_precision(labels, s, pos_label="pos", sample_weight=w) == pytest.approx(
        average_precision_score(y, s, sample_weight=w), abs=1e-12
    )
    assert scored_pr.area_under_roc_curve(labels, s, pos_label="pos", sample_weight=w) == pytest.approx(
        roc_auc_score(y, s, sample_weight=w), abs=1e-12
    )


def test_multi_query_evaluation_takes_labels_and_weights() -> None:
    multi = scored_pr.MultiQueryEvaluation(pos_label="rel")
    multi.add_cases("q1", ["rel", "non", "rel"], [0.9, 0.5, 0.1])
    multi.add_case("q2", "rel", 0.3, weight=2.0)
    assert multi["q1"].num_positive_ref == 2 and multi["q2"].positive_weight == 2.0
    with pytest.raises(TypeError, match="pos_label"):
        multi.add_case("q3", 1, 0.5)
    assert "q3" not in multi.per_query("average_precision")


def test_a_perfect_weighted_ranking_has_average_precision_exactly_one() -> None:
    """The rounded sum of weight x precision exceeded the rounded total weight: AP was 1.0000000000000002."""
    from sklearn.metrics import average_precision_score

    weights = [5.50558593851583, 6.561845902689189, 8.558941414595028, 7.831145308272103, 8.066272962239163]
    correct, scores = [True, True, True, True, False], [8.0, 7.0, 5.0, 5.0, 2.0]
    for ties in ("grouped", "stable"):
        ev = E(ties=ties)
        ev.add_cases(correct, scores, sample_weight=weights)
        assert ev.average_precision() == 1.0
    assert average_precision_score(correct, scores, sample_weight=weights) == 1.0


# ------------------------------------------------------------------ the weight rule: range and exactness

#: Every kind that takes weights, with a call of each of its add paths given one weight ``w``.
_ADDERS = {
    "exact": (lambda: E(), [lambda ev, w: ev.add_case(True, 0.3, w), lambda ev, w: ev.add_cases([True, False], [0.3, 0.2], sample_weight=[1.0, w])]),
    "windowed": (lambda: scored_pr.WindowedEvaluation(100), [
        lambda ev, w: ev.add_case(True, 0.3, w),
        lambda ev, w: ev.add_cases([True, False], [0.3, 0.2], sample_weight=[1.0, w]),
    ]),
    "windowed-seconds": (lambda: scored_pr.WindowedEvaluation(seconds=10.0, clock=None), [
        lambda ev, w: ev.add_case(True, 0.3, w, time=1.0),
        lambda ev, w: ev.add_cases([True, False], [0.3, 0.2], sample_weight=[1.0, w], times=[1.0, 1.0]),
    ]),
    "bounded": (lambda: scored_pr.BoundedEvaluation(8), [
        lambda ev, w: ev.add_case(True, 0.3, w),
        lambda ev, w: ev.add_cases([True, False], [0.3, 0.2], sample_weight=[1.0, w]),
    ]),
    "synchronized": (lambda: scored_pr.SynchronizedEvaluation(), [
        lambda ev, w: ev.add_case(True, 0.3, w),
        lambda ev, w: ev.add_cases([True, False], [0.3, 0.2], sample_weight=[1.0, w]),
    ]),
    "multi-query": (lambda: scored_pr.MultiQueryEvaluation(), [
        lambda ev, w: ev.add_case("q", True, 0.3, w),
        lambda ev, w: ev.add_cases("q", [True, False], [0.3, 0.2], sample_weight=[1.0, w]),
    ]),
    "multi-label": (lambda: scored_pr.MultiLabelEvaluation(["a", "b"]), [
        lambda ev, w: ev.add_case([1, 0], [0.3, 0.2], w),
        lambda ev, w: ev.add_cases([[1, 0], [0, 1]], [[0.3, 0.2], [0.1, 0.4]], sample_weight=[1.0, w]),
    ]),
    "multi-label-bounded": (lambda: scored_pr.MultiLabelEvaluation(["a", "b"], max_bins=8), [
        lambda ev, w: ev.add_case([1, 0], [0.3, 0.2], w),
        lambda ev, w: ev.add_cases([[1, 0], [0, 1]], [[0.3, 0.2], [0.1, 0.4]], sample_weight=[1.0, w]),
    ]),
}

_REFUSED_WEIGHTS = [
    (1.7e308, "between 2**-1022"),  # a few of these sum past float64's range
    (2.0**970 * 1.5, "between 2**-1022"),
    (1e300, "between 2**-1022"),
    (5e-324, "between 2**-1022"),  # subnormal: fewer than 53 significant bits
    (1e-310, "between 2**-1022"),
    (np.nextafter(2.0**-1022, 0.0), "between 2**-1022"),
    (10**400, "representable as a float64"),  # a bare OverflowError before
    (2**53 + 1, "exactly representable as a float64"),  # silently rounded to 2**53 before
    (np.uint64(2**64 - 1), "exactly representable as a float64"),
]


def _state(ev: object) -> object:
    """What a refused call must leave unchanged: the kind's full state."""
    return pickle.dumps(ev.to_dict()) if hasattr(ev, "to_dict") else (ev.num_cases, ev.summary())


@pytest.mark.parametrize("kind", sorted(_ADDERS))
@pytest.mark.parametrize("weight, words", _REFUSED_WEIGHTS, ids=lambda v: repr(v)[:24])
def test_every_add_path_refuses_weights_out_of_range_or_inexact_and_changes_nothing(kind: str, weight: object, words: str) -> None:
    make, adders = _ADDERS[kind]
    for i, add in enumerate(adders):
        ev = make()
        add(ev, 2.0)  # a weighted case already there
        before = _state(ev)
        with pytest.raises(ValueError) as info:
            add(ev, weight)
        message = str(info.value)
        assert words in message, message
        assert ("argument 'weight'" if i == 0 else "argument 'sample_weight'") in message, message
        assert "index 1" in message or i == 0, message
        assert _state(ev) == before


@pytest.mark.parametrize("kind", sorted(_ADDERS))
def test_every_add_path_accepts_the_ends_of_the_weight_range(kind: str) -> None:
    make, adders = _ADDERS[kind]
    for add in adders:
        for weight in (0.0, 2.0**-1022, 2.0**970, 2**53, np.int64(2**60), np.float32(1e-40), 2**970):
            ev = make()
            empty = _state(ev)
            add(ev, weight)
            assert _state(ev) != empty


def test_functional_api_applies_the_weight_rule() -> None:
    for weight, words in _REFUSED_WEIGHTS:
        for w in ([1.0, weight], np.array([1.0, weight], dtype=object)):
            with pytest.raises(ValueError, match=r"average_precision: argument 'sample_weight' must be .*index 1") as info:
                scored_pr.average_precision([1, 0], [0.9, 0.1], sample_weight=w)
            assert words in str(info.value)
    # an int64 array beyond 2**53 is refused as a score array is, not rounded
    with pytest.raises(ValueError, match="exactly representable as a float64.*index 1"):
        scored_pr.area_under_roc_curve([1, 0], [0.9, 0.1], sample_weight=np.array([1, 2**53 + 1], dtype=np.int64))


def test_a_total_weight_that_would_overflow_is_refused_whole_across_calls() -> None:
    """No total can overflow: 2**53 cases of the largest weight sum to 2**1023; the weight that would is refused."""
    ev = E()
    ev.add_cases([True, False], [0.9, 0.1], sample_weight=[2.0**970, 2.0**970])
    before = ev.to_dict()
    with pytest.raises(ValueError, match="sample_weight"):
        ev.add_cases([True, False, True], [0.5, 0.4, 0.3], sample_weight=[1.0, 1.7e308, 1.0])
    assert ev.to_dict() == before and ev.num_cases == 2
    assert math.isfinite(ev.positive_weight) and ev.area_under_roc_curve() == 1.0


# weights 1e155, 3e-162 and 1e-170 used to give NaN, bounds that missed the value, a ZeroDivisionError;
# 1.7e308 an AP of 1.0, subnormal weights an AP off in the fourth digit
_EXTREME = [1e155, 3e-162, 1e-170, 2.0**-1022, 2.0**970, 1e-300, 1e291]


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return repr(a) == repr(b)


def _weighted_answers(ev: object) -> dict:
    out = dict(ev.summary())
    for t in (-0.5, 0.3, 1.0):
        out[("p", t)] = ev.precision_at_threshold(t)
        out[("f", t)] = ev.f_measure_at_threshold(t, 3.0)
    out["roc"] = np.asarray(ev.roc_curve()).tobytes() if not isinstance(ev, scored_pr.BoundedEvaluation) else repr(ev.roc_band())
    out["pr"] = np.asarray(ev.pr_curve()).tobytes() if not isinstance(ev, scored_pr.BoundedEvaluation) else repr(ev.pr_band())
    out["auc_hull"] = ev.area_under_roc_curve(interpolate=True) if not isinstance(ev, scored_pr.BoundedEvaluation) else None
    return out


@pytest.mark.parametrize("make", [
    lambda: E(), lambda: E(ties="stable"), lambda: scored_pr.WindowedEvaluation(1000),
    lambda: scored_pr.BoundedEvaluation(), lambda: scored_pr.BoundedEvaluation(8),
], ids=["exact", "exact-stable", "windowed", "bounded", "bounded-8-bins"])
def test_weights_scaled_by_a_power_of_two_give_identical_answers_from_1e_minus_300_to_1e291(make) -> None:
    """AUC, AP, F and the curves are ratios of weight sums: w and w * 2**k answer the same, bit for bit."""
    y, s, w = weighted_data(5, n=200)
    w = np.ldexp(np.maximum(w, 0.5), 0)
    w[:7] = 0.0
    ev = make()
    ev.add_cases(y, s, sample_weight=w)
    base = _weighted_answers(ev)
    for k in range(-1016, 961, 41):  # weights from about 1e-306 to 1e291
        scaled = make()
        scaled.add_cases(y, s, sample_weight=np.ldexp(w, k))
        got = _weighted_answers(scaled)
        diff = [key for key in base if not _same(base[key], got[key])]
        assert not diff, (k, [(key, base[key], got[key]) for key in diff if key not in ("roc", "pr")])


@pytest.mark.parametrize("w", _EXTREME)
def test_uniform_extreme_weights_answer_as_their_mantissa_does(w: float) -> None:
    """A weight m * 2**e answers as the weight m in [0.5, 1): the exact evaluator, the functional API and multi-label."""
    m, _ = math.frexp(w)
    c = [1, 0, 1, 0, 1, 0, 1, 1, 0]
    sc = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.4, 0.3, 0.1]
    for ties in ("grouped", "stable"):
        a, b = E(ties=ties), E(ties=ties)
        a.add_cases(c, sc, sample_weight=[w] * len(c))
        b.add_cases(c, sc, sample_weight=[m] * len(c))
        ra, rb = _weighted_answers(a), _weighted_answers(b)
        assert all(_same(ra[key], rb[key]) for key in ra), (w, ties)
        unweighted = E(ties=ties)
        unweighted.add_cases(c, sc)
        assert a.area_under_roc_curve() == pytest.approx(unweighted.area_under_roc_curve(), rel=1e-15)
        assert a.average_precision() == pytest.approx(unweighted.average_precision(), rel=1e-14)
        assert a.maximum_f_measure() == pytest.approx(unweighted.maximum_f_measure(), rel=1e-14)
    assert scored_pr.average_precision(c, sc, sample_weight=[w] * len(c)) == scored_pr.average_precision(c, sc, sample_weight=[m] * len(c))
    Y = np.column_stack([c, c[::-1]])
    S = np.column_stack([sc, sc[::-1]])
    mw, mm = scored_pr.MultiLabelEvaluation(["a", "b"]), scored_pr.MultiLabelEvaluation(["a", "b"])
    mw.add_cases(Y, S, sample_weight=[w] * len(c))
    mm.add_cases(Y, S, sample_weight=[m] * len(c))
    for average in ("macro", "micro", "weighted"):
        assert mw.average_precision(average) == mm.average_precision(average)
        assert mw.area_under_roc_curve(average) == mm.area_under_roc_curve(average)
    q1, q2 = scored_pr.MultiQueryEvaluation(), scored_pr.MultiQueryEvaluation()
    q1.add_cases("q", c, sc, sample_weight=[w] * len(c))
    q2.add_cases("q", c, sc, sample_weight=[m] * len(c))
    assert q1.mean_average_precision() == q2.mean_average_precision()
