"""scored_pr.MultiLabelEvaluation: the stateful multi-label evaluator against the functional API, scikit-learn and the binary kinds."""

from __future__ import annotations

import copy
import pathlib
import pickle
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scored_pr
from scored_pr import (
    BoundedEvaluation,
    MultiLabelEvaluation,
    ScoredPrecisionRecallEvaluation,
    UnsupportedQuery,
    WindowedEvaluation,
)

sklearn_metrics = pytest.importorskip("sklearn.metrics")

MODES = (None, "macro", "micro", "weighted", "samples")


def same(a, b) -> bool:
    """Bit for bit (NaN equal to NaN), for floats and arrays."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(np.array_equal(a.view(np.uint64), b.view(np.uint64)) or np.array_equal(a, b, equal_nan=True))


def flat(summary) -> list[float]:
    """Every number of a summary() in key order."""
    out = []
    for key in sorted(summary, key=str):
        value = summary[key]
        out.extend(flat(value) if isinstance(value, dict) else [float(value)])
    return out


def functional(measure, Y, S, w, average):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(scored_pr, measure)(Y, S, average=average, sample_weight=w)


@st.composite
def problems(draw, min_rows=1, max_rows=25):
    """(Y (n, k) bool, S (n, k) tied scores, weights or None, cut points for feeding in pieces)."""
    n = draw(st.integers(min_rows, max_rows))
    k = draw(st.integers(2, 5))
    Y = np.array(draw(st.lists(st.booleans(), min_size=n * k, max_size=n * k)), dtype=bool).reshape(n, k)
    levels = draw(st.integers(1, 4))  # few distinct scores: many ties, across labels and rows
    S = np.array(draw(st.lists(st.integers(0, levels), min_size=n * k, max_size=n * k)), dtype=np.float64).reshape(n, k) / levels
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0]), min_size=n, max_size=n)))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=3)))
    return Y, S, w, cuts


def feed(ev, Y, S, w, cuts):
    """Feed the rows in pieces: the first row by add_case, the rest in batches cut at ``cuts``."""
    ev.add_case(Y[0], S[0], 1.0 if w is None else w[0])
    bounds = [1, *[c for c in cuts if c > 1], Y.shape[0]]
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        if hi > lo:
            ev.add_cases(Y[lo:hi], S[lo:hi], None if w is None else w[lo:hi])
    return ev


def feed_column(ev, y, s, w, cuts):
    """Feed one label's column to a binary evaluator exactly as :func:`feed` feeds the rows."""
    ev.add_case(bool(y[0]), float(s[0]), 1.0 if w is None else float(w[0]))
    bounds = [1, *[c for c in cuts if c > 1], y.shape[0]]
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        if hi > lo:
            ev.add_cases(y[lo:hi], s[lo:hi], None if w is None else w[lo:hi])
    return ev


# ------------------------------------------------------------------ averages: functional API and scikit-learn


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_averages_equal_functional_api_bit_for_bit(problem):
    Y, S, w, cuts = problem
    ev = feed(MultiLabelEvaluation(Y.shape[1]), Y, S, w, cuts)
    for measure in ("average_precision", "area_under_roc_curve"):
        for average in MODES:
            got = getattr(ev, measure)(average=average)
            assert same(got, functional(measure, Y, S, w, average)), (measure, average)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_averages_equal_scikit_learn(problem):
    Y, S, w, cuts = problem
    ev = feed(MultiLabelEvaluation(Y.shape[1]), Y, S, w, cuts)
    for measure, sk in (("average_precision", sklearn_metrics.average_precision_score),
                        ("area_under_roc_curve", sklearn_metrics.roc_auc_score)):
        for average in MODES:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    expected = sk(Y, S, average=average, sample_weight=w)
                except (ValueError, ZeroDivisionError, IndexError):
                    # scikit-learn refuses this input (one class, every weight 0; 1.5's stable_cumsum raises
                    # IndexError when every weight is 0): no value to compare
                    continue
            np.testing.assert_allclose(getattr(ev, measure)(average=average), expected, rtol=1e-12, atol=1e-15,
                                       equal_nan=True, err_msg=f"{measure} {average}")


def test_samples_average_counts_rows_without_a_positive_as_zero():
    # the case: a hand-written per-row loop gave NaN where a row has no positive label
    Y = np.array([[1, 0, 0], [0, 0, 0], [0, 1, 1], [0, 0, 0], [1, 0, 1]])
    S = np.array([[0.8, 0.3, 0.4], [0.2, 0.6, 0.1], [0.5, 0.4, 0.7], [0.3, 0.3, 0.3], [0.1, 0.9, 0.6]])
    ev = MultiLabelEvaluation(["a", "b", "c"])
    ev.add_cases(Y, S)

    def row_ap(y, s):  # slow literal reference: grouped ties, AP over the row's labels
        if not y.any():
            return 0.0
        total = 0.0
        for j in np.flatnonzero(y):
            above = s >= s[j]
            total += (y & above).sum() / above.sum()
        return total / y.sum()

    expected = np.mean([row_ap(Y[i].astype(bool), S[i]) for i in range(len(Y))])
    got = ev.average_precision(average="samples")
    assert not np.isnan(got)
    assert got == pytest.approx(expected, rel=1e-15)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns about the rows without a positive
        try:
            expected_sk = sklearn_metrics.average_precision_score(Y, S, average="samples")
        except ValueError:  # an older scikit-learn refusing rows without a positive: the literal reference holds
            expected_sk = expected
    assert got == pytest.approx(expected_sk, rel=1e-15)


def test_multiclass_class_labels_are_the_one_vs_rest_indicator_matrix():
    rng = np.random.default_rng(3)
    classes = rng.choice(["cat", "dog", "emu"], size=40)
    S = np.round(rng.random((40, 3)), 1)
    ev = MultiLabelEvaluation(["cat", "dog", "emu"])
    ev.add_cases(classes[:30], S[:30])
    ev.add_case(classes[30], S[30])
    ev.add_cases(classes[31:], S[31:])
    onehot = MultiLabelEvaluation(["cat", "dog", "emu"])
    onehot.add_cases(classes[:, None] == np.array(["cat", "dog", "emu"]), S)
    assert ev == onehot
    for average in ("macro", "micro", "weighted"):
        assert same(ev.average_precision(average), scored_pr.average_precision(classes, S, average=average))
    with pytest.raises(ValueError, match=r"add_cases: argument 'Y' must be one of labels"):
        ev.add_cases(["cat", "yak"], S[:2])


# ------------------------------------------------------------------ per-label evaluators of every kind


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from(["grouped", "stable"]))
def test_each_label_is_a_binary_evaluator_fed_that_column(problem, ties):
    Y, S, w, cuts = problem
    ev = feed(MultiLabelEvaluation([f"l{j}" for j in range(Y.shape[1])], ties=ties), Y, S, w, cuts)
    assert len(ev) == Y.shape[1] and list(ev) == ev.labels == [f"l{j}" for j in range(Y.shape[1])]
    for j, label in enumerate(ev):
        ref = ScoredPrecisionRecallEvaluation(ties)
        for i in range(Y.shape[0]):  # one case at a time: the slowest, most literal way
            ref.add_case(bool(Y[i, j]), S[i, j], 1.0 if w is None else w[i])
        assert type(ev[label]) is ScoredPrecisionRecallEvaluation
        assert ev[label] == ref
        assert same(list(ev[label].summary().values()), list(ref.summary().values()))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(min_rows=2, max_rows=30), st.integers(1, 12))
def test_window_keeps_the_last_rows_per_label_and_in_the_averages(problem, size):
    Y, S, w, cuts = problem
    ev = feed(MultiLabelEvaluation(Y.shape[1], window=size), Y, S, w, cuts)
    lo = max(0, Y.shape[0] - size)
    for j in ev:
        ref = WindowedEvaluation(size, clock=None)
        ref.add_cases(Y[:, j], S[:, j], w)
        assert type(ev[j]) is WindowedEvaluation
        assert ev[j].snapshot() == ref.snapshot()
    wl = None if w is None else w[lo:]
    for average in MODES:
        assert same(ev.average_precision(average), functional("average_precision", Y[lo:], S[lo:], wl, average))
        assert same(ev.area_under_roc_curve(average), functional("area_under_roc_curve", Y[lo:], S[lo:], wl, average))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(min_rows=1, max_rows=30), st.integers(1, 6))
def test_bounded_labels_are_bounded_summaries_of_each_column(problem, max_bins):
    Y, S, w, cuts = problem
    ev = feed(MultiLabelEvaluation(Y.shape[1], max_bins=max_bins), Y, S, w, cuts)
    n, k = Y.shape
    exact = MultiLabelEvaluation(k)
    exact.add_cases(Y, S, w)
    for j in ev:
        assert type(ev[j]) is BoundedEvaluation and ev[j].max_bins == max_bins
        ref = feed_column(BoundedEvaluation(max_bins), Y[:, j], S[:, j], w, cuts)
        assert ev[j] == ref
        assert ev[j].num_cases == n
        assert ev[j].positive_weight == pytest.approx(float(Y[:, j].astype(float) @ (np.ones(n) if w is None else w)))
    for measure in ("average_precision", "area_under_roc_curve"):
        for average in ("macro", "micro", "weighted"):
            b, e = getattr(ev, measure)(average), getattr(exact, measure)(average)
            if np.isnan(e):
                continue
            assert b.lower - 1e-12 <= e <= b.upper + 1e-12, (measure, average, b, e)
        with pytest.raises(UnsupportedQuery, match="keeps no row"):
            getattr(ev, measure)(average="samples")
    with pytest.raises(UnsupportedQuery):
        ev.rows()


# ------------------------------------------------------------------ micro curves, summary, merge, reset


def test_micro_curves_are_the_pooled_rankings_curves():
    rng = np.random.default_rng(7)
    Y, S = rng.random((30, 4)) < 0.4, np.round(rng.random((30, 4)), 1)
    ev = MultiLabelEvaluation(4)
    ev.add_cases(Y, S)
    pooled = ScoredPrecisionRecallEvaluation()
    pooled.add_cases(Y.ravel(), S.ravel())
    assert np.array_equal(ev.pr_curve(average="micro"), pooled.pr_curve())
    assert np.array_equal(ev.roc_curve(average="micro"), pooled.roc_curve())
    per_label = ev.pr_curve(average=None)
    assert list(per_label) == [0, 1, 2, 3] and np.array_equal(per_label[2], ev[2].pr_curve())
    assert ev.average_precision("micro") == pytest.approx(pooled.average_precision(), rel=1e-12)
    with pytest.raises(ValueError, match="pr_curve: argument 'average'"):
        ev.pr_curve(average="macro")


def test_summary_has_per_label_and_averaged_entries():
    rng = np.random.default_rng(1)
    Y, S = rng.random((25, 3)) < 0.5, rng.random((25, 3))
    ev = MultiLabelEvaluation(["x", "y", "z"])
    ev.add_cases(Y, S)
    s = ev.summary()
    assert s["num_rows"] == 25
    own = ev["y"].summary()
    assert s["labels"]["y"].keys() == own.keys() and all(same(s["labels"]["y"][key], own[key]) for key in own)
    for measure in ("average_precision", "area_under_roc_curve"):
        assert set(s[measure]) == {"macro", "micro", "weighted", "samples"}
        for mode, value in s[measure].items():
            assert same(value, functional(measure, Y, S, None, mode))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(min_rows=2), st.sampled_from([{}, {"window": 7}]))
def test_merge_equals_one_evaluation_fed_both(problem, kind):
    Y, S, w, _ = problem
    half = Y.shape[0] // 2
    k = Y.shape[1]
    a, b, both = (MultiLabelEvaluation(k, **kind) for _ in range(3))
    a.add_cases(Y[:half], S[:half], None if w is None else w[:half])
    b.add_cases(Y[half:], S[half:], None if w is None else w[half:])
    both.add_cases(Y, S, w)
    before = a.to_dict()
    merged = a + b
    assert merged == both and a.to_dict() == before
    for average in MODES:
        assert same(merged.average_precision(average), both.average_precision(average))
    a += b
    assert a == both


def test_bounded_merge_merges_each_label():
    rng = np.random.default_rng(2)
    Y, S = rng.random((40, 3)) < 0.5, rng.random((40, 3))
    a, b = MultiLabelEvaluation(3, max_bins=8), MultiLabelEvaluation(3, max_bins=8)
    a.add_cases(Y[:20], S[:20])
    b.add_cases(Y[20:], S[20:])
    merged = a.merge(b)
    for j in range(3):
        assert merged[j] == a[j].merge(b[j])
    assert merged.pooled() == a.pooled().merge(b.pooled())
    with pytest.raises(ValueError, match="merge: argument 'other' must have the same labels"):
        a.merge(MultiLabelEvaluation(3))


def test_reset_forgets_rows_and_cached_answers():
    ev = MultiLabelEvaluation(2)
    ev.add_cases([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]])
    assert ev.average_precision() == 1.0
    ev.reset()
    assert ev.num_rows == 0 and ev[0].num_cases == 0
    ev.add_cases([[0, 1], [1, 0]], [[0.9, 0.1], [0.2, 0.8]])
    assert ev.average_precision() == 0.5


def test_query_cache_is_cleared_by_every_add():
    ev = MultiLabelEvaluation(2)
    ev.add_cases([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]])
    first = ev.average_precision(average=None)
    label0 = ev[0]
    ev.add_case([1, 1], [0.05, 0.05])
    assert not same(first, ev.average_precision(average=None))
    assert ev[0] is not label0 and ev[0].num_cases == 3


# ------------------------------------------------------------------ errors: clear, and nothing changes


@pytest.mark.parametrize(
    "call, exc, message",
    [
        (lambda ev: ev.add_cases([[1, 0, 0]], [[0.1, 0.2]]), ValueError, r"add_cases: argument 'Y'"),
        (lambda ev: ev.add_cases([[1, 0, 0]], [[0.1, 0.2, 0.3]]), ValueError, r"add_cases: argument 'S' must have one column per label \(2\)"),
        (lambda ev: ev.add_cases([[1, 0], [2, 0]], [[0.1, 0.2], [0.3, 0.4]]), ValueError, r"add_cases: argument 'Y' .* got 2 .* at row 1, column 0"),
        (lambda ev: ev.add_cases([[1, 0], [0, 0]], [[0.1, 0.2], [np.nan, 0.4]]), ValueError, r"add_cases: argument 'S'"),
        (lambda ev: ev.add_cases([[1, 0]], [[0.1, 0.2]], sample_weight=[-1.0]), ValueError, r"add_cases: argument 'sample_weight'"),
        (lambda ev: ev.add_case([1, 0], [0.1, 0.2], weight=float("nan")), ValueError, r"add_case: argument 'weight'"),
        (lambda ev: ev.add_case([1, 0], [[0.1, 0.2]]), ValueError, r"add_case: argument 's_row' must be 1-dimensional"),
        (lambda ev: ev.add_case("a", [0.1, 0.2]), (TypeError, ValueError), r"add_case: argument '(y_row|labels)'"),
        (lambda ev: ev.add_case(5, [0.1, 0.2]), ValueError, r"add_case: argument 'y_row' must be one of labels \[0, 1\]"),
        (lambda ev: ev.average_precision(average="mean"), ValueError, r"average_precision: argument 'average'"),
        (lambda ev: ev["nope"], KeyError, r"no label 'nope'"),
    ],
)
@pytest.mark.parametrize("kind", [{}, {"window": 3}, {"max_bins": 4}])
def test_bad_input_is_refused_and_changes_nothing(call, exc, message, kind):
    ev = MultiLabelEvaluation(2, **kind)
    ev.add_cases([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]])
    before = (ev.to_dict(), flat(ev.summary()))
    with pytest.raises(exc, match=message):
        call(ev)
    after = (ev.to_dict(), flat(ev.summary()))
    assert after[0] == before[0] and same(after[1], before[1])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"labels": 0}, r"MultiLabelEvaluation: argument 'labels' must be an int >= 1"),
        ({"labels": ["a", "a"]}, r"MultiLabelEvaluation: argument 'labels' must be .* distinct"),
        ({"labels": "ab"}, r"MultiLabelEvaluation: argument 'labels'"),
        ({"labels": 2, "window": 0}, r"MultiLabelEvaluation: argument 'window'"),
        ({"labels": 2, "max_bins": 0}, r"MultiLabelEvaluation: argument 'max_bins'"),
        ({"labels": 2, "window": 3, "max_bins": 4}, r"must not both be given"),
        ({"labels": 2, "ties": "best"}, r"MultiLabelEvaluation: argument 'ties'"),
        ({"labels": 2, "ties": "stable", "max_bins": 8}, r"MultiLabelEvaluation: argument 'ties' must be 'grouped' with max_bins"),
    ],
)
def test_bad_constructor_arguments(kwargs, message):
    with pytest.raises((TypeError, ValueError), match=message):
        MultiLabelEvaluation(**kwargs)


def test_rows_are_copies_the_caller_cannot_change():
    Y, S = np.array([[1, 0], [0, 1]]), np.array([[0.9, 0.1], [0.2, 0.8]])
    ev = MultiLabelEvaluation(2)
    ev.add_cases(Y, S)
    S[0, 0] = 0.0
    Y[0, 0] = 0
    assert ev.rows()[1][0, 0] == 0.9 and ev.rows()[0][0, 0]
    with pytest.raises(ValueError):
        ev.rows()[1][0, 0] = 1.0


# ------------------------------------------------------------------ state: dict, npz, pickle


def _kinds():
    rng = np.random.default_rng(5)
    Y, S, w = rng.random((30, 3)) < 0.4, np.round(rng.random((30, 3)), 2), rng.random(30)
    S[0, 0] = np.inf
    out = []
    for kind in ({}, {"window": 12}, {"max_bins": 6}, {"ties": "stable"}):
        for weights in (None, w):
            ev = MultiLabelEvaluation(["a", "b", "c"], **kind)
            ev.add_cases(Y, S, weights)
            out.append(ev)
    return out


@pytest.mark.parametrize("ev", _kinds(), ids=lambda ev: repr(ev))
def test_state_round_trips(ev, tmp_path):
    import json

    d = json.loads(json.dumps(ev.to_dict(), allow_nan=False))  # JSON-safe
    restored = [MultiLabelEvaluation.from_dict(d), pickle.loads(pickle.dumps(ev)), copy.deepcopy(ev)]
    ev.save(tmp_path / "ml.npz")
    restored.append(MultiLabelEvaluation.load(tmp_path / "ml.npz"))
    from scored_pr._state.statefile import kind_of

    assert kind_of(tmp_path / "ml.npz", "load") == "multilabel"
    for r in restored:
        assert r == ev and type(r) is MultiLabelEvaluation
        for measure in ("average_precision", "area_under_roc_curve"):
            for average in ("macro", "micro", "weighted"):
                assert same(getattr(r, measure)(average), getattr(ev, measure)(average))
        assert same(flat(r.summary()), flat(ev.summary()))


def test_pickle_names_only_public_names():
    ev = MultiLabelEvaluation(2)
    ev.add_cases([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]])
    data = pickle.dumps(ev)
    assert b"scored_pr._" not in data and type(ev).__module__ == "scored_pr"


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d.update(kind="multi"), "field 'kind' must be 'multilabel'; got 'multi'"),
        (lambda d: d.update(labels=["a", "a"]), "distinct"),
        (lambda d: d["scores"][0].append(0.5), "row 0"),
        (lambda d: d.update(window=1), "more than its window"),
        (lambda d: d["truth"].__setitem__(0, [1, 0]), "must hold bools"),
    ],
)
def test_bad_state_is_refused(edit, message):
    ev = MultiLabelEvaluation(["a", "b"])
    ev.add_cases([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]])
    d = ev.to_dict()
    edit(d)
    with pytest.raises((TypeError, ValueError), match=message):
        MultiLabelEvaluation.from_dict(d)


def test_load_refuses_another_kinds_file(tmp_path):
    single = ScoredPrecisionRecallEvaluation()
    single.add_cases([True, False], [0.5, 0.2])
    single.save(tmp_path / "one.npz")
    with pytest.raises(ValueError, match="read it with ScoredPrecisionRecallEvaluation.load"):
        MultiLabelEvaluation.load(tmp_path / "one.npz")


# ------------------------------------------------------------------ memory and the plot


def test_retained_memory_is_at_most_10_bytes_per_row_and_label():
    rng = np.random.default_rng(0)
    n, k = 20_000, 50
    Y = rng.random((n, k)) < 0.1
    S = rng.random((n, k)).astype(np.float32)
    tracemalloc.start()
    try:
        ev = MultiLabelEvaluation(k)
        base = tracemalloc.get_traced_memory()[0]
        for lo in range(0, n, 5_000):
            ev.add_cases(Y[lo : lo + 5_000], S[lo : lo + 5_000])
        ev.average_precision()
        ev.area_under_roc_curve(average="micro")
        ev.summary()  # every label's summary: built and dropped, not k evaluators kept
        retained = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert retained / (n * k) <= 10.0


@pytest.mark.parametrize("kind", ["pr", "roc"])
def test_plot_multilabel_draws_each_labels_curve_and_the_micro_curve(kind):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from scored_pr.plot import plot_multilabel, pr_steps, roc_steps

    rng = np.random.default_rng(4)
    Y, S = rng.random((30, 3)) < 0.4, np.round(rng.random((30, 3)), 1)
    ev = MultiLabelEvaluation(["a", "b", "c"])
    ev.add_cases(Y, S)
    ax = plot_multilabel(ev, kind, Figure().add_subplot())
    lines = [line for line in ax.get_lines() if not line.get_label().startswith("_")]
    steps = pr_steps if kind == "pr" else roc_steps
    expected = [steps(ev[label]) for label in ev] + [steps(ev.pooled())]
    assert len(lines) == len(expected) == 4
    for line, (x, y) in zip(lines, expected):
        assert np.array_equal(line.get_xdata(), x) and np.array_equal(line.get_ydata(), y)
    assert [line.get_label().split(" ")[0] for line in lines] == ["a", "b", "c", "micro"]
    with pytest.raises(ValueError, match="plot_multilabel: argument 'kind'"):
        plot_multilabel(ev, "det", Figure().add_subplot())
    with pytest.raises(TypeError, match="plot_multilabel: argument 'evaluation'"):
        plot_multilabel(ev["a"], "pr", Figure().add_subplot())


def test_single_ranking_consumers_ask_for_one_label():
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from scored_pr.plot import plot_pr
    from scored_pr.testing import assert_metrics

    ev = MultiLabelEvaluation(["a", "b"])
    ev.add_cases([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]])
    with pytest.raises(UnsupportedQuery, match=r"plot_pr: .* one ranking per label; pass evaluation\[label\]"):
        plot_pr(ev, Figure().add_subplot())
    with pytest.raises(UnsupportedQuery, match="one ranking per label"):
        assert_metrics(ev, average_precision=0.5)
    plot_pr(ev["a"], Figure().add_subplot())
    assert_metrics(ev["a"], average_precision=0.5)


@pytest.mark.parametrize("window", [None, 300])
def test_a_stream_of_single_rows_equals_one_batch(window):
    rng = np.random.default_rng(11)
    n, k = 700, 3  # more single rows than are joined into one chunk at a time
    Y, S = rng.random((n, k)) < 0.3, np.round(rng.random((n, k)), 2)
    w = rng.choice([0.5, 1.0, 2.0], size=n)
    stream = MultiLabelEvaluation(k, window=window)
    for i in range(n):
        stream.add_case(Y[i], S[i], w[i])
        if i == 400:
            stream.average_precision()  # a query in the middle consolidates the rows held so far
    batch = MultiLabelEvaluation(k, window=window)
    batch.add_cases(Y, S, w)
    assert stream == batch and stream.num_rows == (n if window is None else window)
    lo = 0 if window is None else n - window
    for average in MODES:
        assert same(stream.average_precision(average), functional("average_precision", Y[lo:], S[lo:], w[lo:], average))


def test_a_state_missing_a_field_names_it():
    ev = MultiLabelEvaluation(["a", "b"])
    ev.add_cases([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]])
    d = ev.to_dict()
    del d["scores"]
    with pytest.raises(ValueError, match=r"missing \['scores'\], unexpected \[\]"):
        MultiLabelEvaluation.from_dict(d)


@pytest.mark.parametrize("kind", [{}, {"window": 1000}, {"max_bins": 4096}])
def test_labels_are_read_as_the_binary_evaluator_reads_them(kind: dict[str, Any]) -> None:
    """-1/1 matrices and pos_label give what 0/1 gives; each label equals a binary evaluator fed that column."""
    from scored_pr import ScoredPrecisionRecallEvaluation

    rng = np.random.default_rng(3)
    y = rng.random((40, 3)) < 0.4
    y[0], y[1] = True, False
    s = np.round(rng.random((40, 3)), 1)
    plain = MultiLabelEvaluation(3, **kind)
    plain.add_cases(y, s)
    minus = MultiLabelEvaluation(3, **kind)
    minus.add_cases(np.where(y, 1, -1), s)
    words = MultiLabelEvaluation(3, pos_label="yes", **kind)
    words.add_cases(np.where(y, "yes", "no"), s)
    words.add_case(np.where(y[0], "yes", "no"), s[0])
    minus.add_case(np.where(y[0], 1, -1), s[0])
    plain.add_case(y[0], s[0])
    assert minus == plain
    for ev in (minus, words):
        for average in ("macro", "micro"):
            assert float(ev.average_precision(average=average)) == float(plain.average_precision(average=average))
    for j in range(3):
        binary = ScoredPrecisionRecallEvaluation(pos_label="yes")
        binary.add_cases(np.where(y[:, j], "yes", "no"), s[:, j])
        binary.add_case("yes" if y[0, j] else "no", s[0, j])
        assert float(words[j].average_precision()) == binary.average_precision()
    with pytest.raises(ValueError, match=r"add_cases: argument 'Y'"):  # -1 and 0 together, as the binary evaluator refuses
        MultiLabelEvaluation(3).add_cases(np.where(y, 0, -1), s)
    saved = MultiLabelEvaluation.from_dict(words.to_dict())
    assert saved.pos_label == "yes" and saved == words
    with pytest.raises(ValueError, match="pos_label"):
        plain + words


def test_one_label_reads_a_vector_as_its_label_column_not_as_class_names() -> None:
    """With k = 1, [0, 0, 1] are the label's values (0 was read as the class name of label 0: all positive)."""
    from scored_pr import ScoredPrecisionRecallEvaluation

    ev = MultiLabelEvaluation(1)
    ev.add_cases([0, 0, 1], [[0.1], [0.2], [0.3]])
    ev.add_case(1, [0.05])
    binary = ScoredPrecisionRecallEvaluation()
    binary.add_cases([0, 0, 1, 1], [0.1, 0.2, 0.3, 0.05])
    assert ev[0] == binary and ev.average_precision(average="macro") == binary.average_precision()


def test_unit_weights_are_no_weights_after_a_round_trip_too() -> None:
    ev = MultiLabelEvaluation(2)
    ev.add_cases([[1, 0], [0, 1]], [[0.3, 0.2], [0.1, 0.4]], sample_weight=[1.0, 1.0])
    back = MultiLabelEvaluation.from_dict(ev.to_dict())
    assert not ev.weighted and not back.weighted and "weights" not in back.to_dict()
    forced = {**ev.to_dict(), "weights": [1.0, 1.0]}  # a dict written with explicit unit weights
    assert not MultiLabelEvaluation.from_dict(forced).weighted


def test_an_interrupted_bounded_batch_changes_no_label(monkeypatch: pytest.MonkeyPatch) -> None:
    from scored_pr import BoundedEvaluation

    rng = np.random.default_rng(4)
    ev = MultiLabelEvaluation(4, max_bins=64)
    ev.add_cases(rng.random((30, 4)) < 0.5, rng.random((30, 4)))
    before = ev.to_dict()
    calls = []
    real = BoundedEvaluation.add_cases

    def third_fails(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(BoundedEvaluation, "add_cases", third_fails)
    with pytest.raises(KeyboardInterrupt):
        ev.add_cases(rng.random((50, 4)) < 0.5, rng.random((50, 4)))
    assert ev.to_dict() == before


@pytest.mark.parametrize("call", ["add_case", "add_cases", "average_precision", "summary", "reset", "merge", "save"])
def test_a_call_overlapping_another_threads_call_is_refused_and_changes_nothing(call, tmp_path, monkeypatch):
    """Concurrent use is detected: the second call raises RuntimeError, the first completes, no row is lost."""
    import threading

    ev = MultiLabelEvaluation(["a", "b"])
    ev.add_cases([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]])
    inside, go = threading.Event(), threading.Event()
    real = MultiLabelEvaluation._flush_pending

    def paused(self):
        inside.set()
        assert go.wait(10)
        real(self)

    monkeypatch.setattr(MultiLabelEvaluation, "_flush_pending", paused)
    calls = {
        "add_case": lambda: ev.add_case([1, 1], [0.5, 0.5]),
        "add_cases": lambda: ev.add_cases([[1, 1]], [[0.5, 0.5]]),
        "average_precision": lambda: ev.average_precision(),
        "summary": lambda: ev.summary(),
        "reset": lambda: ev.reset(),
        "merge": lambda: ev.merge(ev),
        "save": lambda: ev.save(tmp_path / "ml.npz"),
    }
    outcome = []

    def other():
        assert inside.wait(10)
        try:
            calls[call]()
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - the outcome is the test
            outcome.append(exc)
        finally:
            go.set()

    t = threading.Thread(target=other)
    t.start()
    ev.add_cases([[0, 0], [1, 1]], [[0.3, 0.4], [0.6, 0.7]])  # flushes: pauses until the other call is made
    t.join()
    monkeypatch.undo()
    assert len(outcome) == 1 and isinstance(outcome[0], RuntimeError), outcome
    assert "another thread" in str(outcome[0]) and "MultiLabelEvaluation" in str(outcome[0])
    assert not (tmp_path / "ml.npz").exists()
    truth, scores, _ = ev.rows()
    assert truth.astype(int).tolist() == [[1, 0], [0, 1], [0, 0], [1, 1]]
    assert scores.tolist() == [[0.9, 0.1], [0.2, 0.8], [0.3, 0.4], [0.6, 0.7]]
    calls[call]()  # from one thread at a time, every call works


def test_rows_added_from_several_threads_are_never_lost_silently():
    """Unsynchronised sharing: every row is either held or its call raised RuntimeError."""
    import sys
    import threading

    ev = MultiLabelEvaluation(["a", "b", "c"])
    accepted, refused = [0] * 4, [0] * 4
    barrier = threading.Barrier(4)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        def work(i):
            barrier.wait()
            for j in range(1500):
                try:
                    if j % 300 == 299:
                        ev.average_precision(average="micro")
                    else:
                        ev.add_case([j % 2, 1, 0], [float(j), 0.5, float(i)])
                        accepted[i] += 1
                except RuntimeError as exc:
                    assert "another thread" in str(exc)
                    refused[i] += 1

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert ev.num_rows == sum(accepted) == ev.rows()[0].shape[0]
    assert sum(refused) > 0, "the threads never overlapped: the test proved nothing"


@pytest.mark.parametrize("kind", [{}, {"window": 50}, {"max_bins": 16}], ids=["exact", "windowed", "bounded"])
def test_a_labels_evaluator_and_the_pooled_one_are_read_only_views(kind):
    """ev[label] and pooled() refuse every writer (TypeError, nothing changes); copy.copy is a writable snapshot."""
    rng = np.random.default_rng(11)
    Y, S = rng.random((40, 3)) < 0.4, rng.random((40, 3))
    ev = MultiLabelEvaluation(["a", "b", "c"], **kind)
    ev.add_cases(Y, S)
    before = ev.to_dict()
    per_label = ev.average_precision(average=None)
    for view in (ev["b"], ev.pooled()):
        n = view.num_cases
        writers = [
            lambda v: v.add_case(True, 0.5), lambda v: v.add_cases([True], [0.5]), lambda v: v.add_misses(1),
            lambda v: v.add_negative_misses(1), lambda v: v.reset(),
        ]
        if not kind.get("window"):
            writers.append(lambda v: v.__iadd__(copy.copy(v)))
        for write in writers:
            with pytest.raises(TypeError, match="read-only"):
                write(view)
        assert view.num_cases == n
        mine = copy.copy(view)
        mine.add_case(True, 0.5)
        assert mine.num_cases == n + 1 and view.num_cases == n
    # the parent is as it was, and its per-label values still agree with its summary
    assert ev.to_dict() == before
    assert ev.summary()["labels"]["b"]["average_precision"] == float(per_label[1])
    assert ev["b"].average_precision() == float(per_label[1])


def test_num_rows_seen_counts_every_row_a_window_has_seen(tmp_path: pathlib.Path) -> None:
    """A window's num_rows falls back to its size; num_rows_seen counts the rows that left it too (the
    logger's default step), a merge the rows of both, a loaded state the rows it holds; the other kinds'
    num_rows_seen is their num_rows."""
    rng = np.random.default_rng(11)
    y, s = rng.random((25, 2)) < 0.5, rng.random((25, 2))
    for kwargs in ({}, {"window": 7}, {"max_bins": 4}):
        ev = MultiLabelEvaluation(["a", "b"], **kwargs)
        ev.add_cases(y[:20], s[:20])
        for i in range(20, 25):
            ev.add_case(y[i], s[i])
        assert ev.num_rows_seen == 25
        assert ev.num_rows == (7 if "window" in kwargs else 25)
        assert (ev + ev).num_rows_seen == 50
        ev.save(tmp_path / "ml.npz")
        assert MultiLabelEvaluation.load(tmp_path / "ml.npz").num_rows_seen == ev.num_rows
        with pytest.raises(ValueError):
            ev.add_case([1, 0], [0.5, float("nan")])  # rejected: not counted
        assert ev.num_rows_seen == 25
        merged = MultiLabelEvaluation(["a", "b"], **kwargs)
        merged += ev
        assert merged.num_rows_seen == 25
        ev.reset()
        assert ev.num_rows_seen == 0
