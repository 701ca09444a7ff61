"""MultiLabelEvaluation held to the functional API (bit for bit, value and type) and to scikit-learn.

A randomized differential test over shapes (n, k) with k = 1 included, tied and
continuous scores of both signs, labels without a positive (or without a
negative) and weights (some 0), fed in pieces to the exact and windowed kinds;
Hand & Till's one-vs-one AUC of multi-class streams against the functional call
and scikit-learn's ``roc_auc_score(multi_class="ovo")``; scipy.sparse label
matrices against dense ones.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scored_pr
from scored_pr import MultiLabelEvaluation, UnsupportedQuery

sk = pytest.importorskip("sklearn.metrics")

MODES = (None, "macro", "micro", "weighted", "samples")
MEASURES = ("average_precision", "area_under_roc_curve")
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same(got: Any, want: Any) -> bool:
    """The same type (float or ndarray) and the same bits (NaN equal to NaN)."""
    if type(got) is not type(want):
        return False
    a, b = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    return a.shape == b.shape and bool(np.array_equal(a.view(np.uint64), b.view(np.uint64)) or np.array_equal(a, b, equal_nan=True))


def quietly(func: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


@st.composite
def problems(draw: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, list[int]]:
    """(Y (n, k) bool, S (n, k), weights or None, cut points): k from 1, ties or continuous scores."""
    n = draw(st.integers(1, 30))
    k = draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    Y = rng.random((n, k)) < draw(st.sampled_from([0.0, 0.2, 0.5, 1.0]))
    if k > 1 and draw(st.booleans()):
        Y[:, draw(st.integers(0, k - 1))] = False  # a label without a positive
    kind = draw(st.sampled_from(["ties", "logits", "float32", "probabilities"]))
    z = rng.standard_normal((n, k)) + Y
    S = {
        "ties": np.round(z, 0) / 2, "logits": z, "float32": z.astype(np.float32).astype(np.float64),
        "probabilities": 1 / (1 + np.exp(-z)),
    }[kind]
    w = None
    if draw(st.booleans()):
        w = rng.choice([0.0, 0.5, 1.0, 2.0, 3.0], size=n)
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=3)))
    return Y, S, w, cuts


def feed(ev: MultiLabelEvaluation, Y: np.ndarray, S: np.ndarray, w: np.ndarray | None, cuts: list[int]) -> MultiLabelEvaluation:
    """The first row by add_case, the rest in batches cut at ``cuts``."""
    ev.add_case(Y[0], S[0], 1.0 if w is None else w[0])
    bounds = [1, *[c for c in cuts if c > 1], Y.shape[0]]
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        if hi > lo:
            ev.add_cases(Y[lo:hi], S[lo:hi], None if w is None else w[lo:hi])
    return ev


@SETTINGS
@given(problems(), st.sampled_from([None, 1, 7, 1000]))
def test_every_average_of_both_measures_is_the_functional_call_bit_for_bit(problem, window) -> None:
    Y, S, w, cuts = problem
    ev = feed(MultiLabelEvaluation(Y.shape[1], window=window), Y, S, w, cuts)
    if window is not None:  # the rows in the window
        Y, S, w = Y[-window:], S[-window:], None if w is None else w[-window:]
    for measure in MEASURES:
        for average in MODES:
            want = quietly(getattr(scored_pr, measure), Y, S, average=average, sample_weight=w)
            got = getattr(ev, measure)(average=average)
            assert same(got, want), (measure, average, got, want)
    summary = ev.summary()
    for measure in MEASURES:
        for average, value in summary[measure].items():
            assert same(value, float(quietly(getattr(scored_pr, measure), Y, S, average=average, sample_weight=w)))


def test_one_label_is_the_binary_ranking_as_in_scikit_learn() -> None:
    Y, S = np.array([[1], [0], [1], [0]]), np.array([[0.3], [0.2], [0.4], [0.5]])
    ev = MultiLabelEvaluation(1)
    ev.add_cases(Y, S)
    for average in MODES:
        # ranked 0.5-, 0.4+, 0.3+, 0.2-: AP = (1/2 + 2/3) / 2 = 0.58333; 2 of 4 pairs ordered: AUC 0.5
        assert same(ev.average_precision(average), 0.5833333333333333) and same(ev.average_precision(average), float(sk.average_precision_score(Y, S, average=average)))
        assert same(ev.area_under_roc_curve(average), 0.5) and same(ev.area_under_roc_curve(average), float(sk.roc_auc_score(Y, S, average=average)))


def test_one_label_without_a_positive_is_nan_as_the_functional_call() -> None:
    # scikit-learn's binary AP is 0.0 here; scored_pr's binary AP (and so the functional call) is NaN (0/0)
    ev = MultiLabelEvaluation(["only"])
    ev.add_cases([[0], [0], [0]], [[0.1], [0.2], [0.3]])
    for average in MODES:
        assert np.isnan(ev.average_precision(average)) and np.isnan(scored_pr.average_precision([[0], [0], [0]], [[0.1], [0.2], [0.3]], average=average))
        assert np.isnan(ev.area_under_roc_curve(average))
    assert quietly(sk.average_precision_score, [0, 0, 0], [0.1, 0.2, 0.3]) == 0.0


# ------------------------------------------------------------------ one-vs-one


@st.composite
def multiclass_streams(draw: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """(classes (n,), probability rows (n, m), m): tied or continuous probabilities, some classes absent."""
    n = draw(st.integers(1, 40))
    m = draw(st.integers(2, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y = rng.integers(0, draw(st.integers(1, m)), size=n)
    p = rng.random((n, m)) + np.eye(m)[y] * draw(st.sampled_from([0.0, 0.5, 2.0]))
    if draw(st.booleans()):
        p = np.round(p, 1) + 0.05  # ties
    return y, p / p.sum(axis=1, keepdims=True), m


@SETTINGS
@given(multiclass_streams(), st.sampled_from([None, 9]))
def test_one_vs_one_equals_the_functional_call_and_scikit_learn(stream, window) -> None:
    y, p, m = stream
    ev = MultiLabelEvaluation(m, window=window)
    ev.add_case(y[0], p[0])
    ev.add_cases(y[1:], p[1:])
    if window is not None:
        y, p = y[-window:], p[-window:]
    for average in ("macro", "weighted"):
        got = ev.area_under_roc_curve(average, multi_class="ovo")
        want = scored_pr.area_under_roc_curve(y, p, multi_class="ovo", average=average, labels=list(range(m)))
        assert same(got, want), (average, got, want)
        if np.unique(y).size >= 2 and m >= 3:  # scikit-learn reads two columns as binary input
            expected = sk.roc_auc_score(y, p, multi_class="ovo", average=average, labels=list(range(m)))
            assert got == pytest.approx(expected, abs=1e-15)
        elif np.unique(y).size < 2:
            assert np.isnan(got)  # no pair of classes present
    assert same(ev.area_under_roc_curve("macro", multi_class="ovr"), ev.area_under_roc_curve("macro"))


def test_one_vs_one_of_no_row_is_nan() -> None:
    ev = MultiLabelEvaluation(["a", "b", "c"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(ev.area_under_roc_curve("weighted", multi_class="ovo"))
        assert np.isnan(ev.area_under_roc_curve("macro", multi_class="ovo"))


@pytest.mark.parametrize("setup, Y, w, exc, message", [
    ({}, [[1, 1, 0], [0, 1, 0]], None, ValueError, "one positive label per row; got row 0 with 2"),
    ({}, [[0, 0, 0], [0, 1, 0]], None, ValueError, "got row 0 with 0 positive labels"),
    ({}, [[1, 0, 0], [0, 1, 0]], [1.0, 2.0], ValueError, "takes unweighted rows"),
    ({"max_bins": 8}, [[1, 0, 0], [0, 1, 0]], None, UnsupportedQuery, "keeps no row"),
])
def test_one_vs_one_refuses_what_it_cannot_answer(setup, Y, w, exc, message) -> None:
    ev = MultiLabelEvaluation(3, **setup)
    ev.add_cases(Y, [[0.5, 0.3, 0.2], [0.2, 0.5, 0.3]], w)
    with pytest.raises(exc, match=message):
        ev.area_under_roc_curve(multi_class="ovo")


@pytest.mark.parametrize("kwargs, message", [
    ({"multi_class": "ovo", "average": None}, "average"),
    ({"multi_class": "ovo", "average": "micro"}, "average"),
    ({"multi_class": "raise"}, "multi_class"),
])
def test_one_vs_one_arguments_are_checked(kwargs, message) -> None:
    ev = MultiLabelEvaluation(3)
    ev.add_cases([0, 1, 2], np.eye(3))
    with pytest.raises(ValueError, match=message):
        ev.area_under_roc_curve(**kwargs)


# ------------------------------------------------------------------ sparse label matrices


@pytest.mark.parametrize("fmt", ["csr_matrix", "csc_matrix", "coo_matrix", "csr_array", "lil_matrix"])
def test_a_sparse_label_matrix_is_its_dense_matrix(fmt) -> None:
    sparse = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(5)
    Y = (rng.random((40, 3)) < 0.3).astype(int)
    S = rng.standard_normal((40, 3))
    dense, sp_ev = MultiLabelEvaluation(3), MultiLabelEvaluation(3)
    dense.add_cases(Y, S)
    sp_ev.add_cases(getattr(sparse, fmt)(Y), S)
    assert sp_ev == dense
    assert same(sp_ev.average_precision(None), dense.average_precision(None))


@pytest.mark.parametrize("kind", [{}, {"window": 5}, {"max_bins": 8}], ids=["exact", "window", "bounded"])
def test_the_summary_of_no_row_issues_no_warning(kind: dict) -> None:
    """summary() promises no warning: with no row, "samples" is NaN (numpy would warn of an empty mean)."""
    ev = MultiLabelEvaluation(["a", "b"], **kind)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        summary = ev.summary()
    assert summary["num_rows"] == 0
    if "samples" in summary["average_precision"]:
        assert np.isnan(summary["average_precision"]["samples"])
