"""MultiLabelEvaluation at the top-scoring class: confusion matrix, accuracy, precision, recall, F.

Held to scikit-learn (``confusion_matrix``, ``accuracy_score``,
``precision_recall_fscore_support``, ``fbeta_score``) on multi-class rows
whose predicted class is ``argmax`` of the scores, for the exact, windowed and
bounded kinds, with and without sample weights, and with scores rounded so
that rows tie at the top.
"""

from __future__ import annotations

import copy
import math
import pickle
import warnings
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, confusion_matrix, fbeta_score, precision_recall_fscore_support

from scored_pr import MultiLabelEvaluation, UnsupportedQuery
from scored_pr.lingpipe import ConfusionMatrix

LABELS = ["ant", "bee", "cat", "dog"]
KINDS: list[dict[str, Any]] = [{}, {"window": 1000}, {"max_bins": 16}]


def _data(seed: int, n: int = 80, k: int = 4, absent: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, size=n)
    if absent is not None:
        y[y == absent] = (absent + 1) % k
    s = np.round(rng.random((n, k)) + 0.4 * np.eye(k)[y], 1)  # rounded: rows tie at their top score
    return y, s


def _sk(y: np.ndarray, s: np.ndarray, w: np.ndarray | None, average: str | None, beta: float = 1.0) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn's zero_division warning: the value is 0.0
        return precision_recall_fscore_support(y, s.argmax(axis=1), labels=range(s.shape[1]), average=average,
                                               sample_weight=w, beta=beta)  # fmt: skip


def _fed(kind: dict[str, Any], y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> MultiLabelEvaluation:
    ev = MultiLabelEvaluation(LABELS[: s.shape[1]], **kind)
    ev.add_cases(np.array(LABELS)[y], s, sample_weight=w)
    return ev


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("kind", KINDS, ids=["exact", "windowed", "bounded"])
@pytest.mark.parametrize("seed", range(4))
def test_every_top_class_measure_is_scikit_learns(kind: dict[str, Any], weighted: bool, seed: int) -> None:
    y, s = _data(seed, absent=2 if seed == 3 else None)  # seed 3: a class with no true row
    w = np.random.default_rng(seed + 9).integers(0, 4, size=y.size).astype(float) + 0.5 if weighted else None
    ev = _fed(kind, y, s, w)
    pred = s.argmax(axis=1)
    want = confusion_matrix(y, pred, labels=range(4), sample_weight=w)
    got = ev.confusion_matrix()
    assert got.dtype == (np.float64 if weighted else np.int64)
    if weighted:
        np.testing.assert_allclose(got, want, rtol=1e-12)
    else:
        np.testing.assert_array_equal(got, want)
    assert ev.accuracy() == pytest.approx(accuracy_score(y, pred, sample_weight=w), rel=1e-12)
    for average in (None, "macro", "micro", "weighted"):
        p, r, f, _ = _sk(y, s, w, average)
        np.testing.assert_allclose(ev.precision(average), p, rtol=1e-12, atol=0)
        np.testing.assert_allclose(ev.recall(average), r, rtol=1e-12, atol=0)
        np.testing.assert_allclose(ev.f_measure(average), f, rtol=1e-12, atol=0)
        for beta in (0.5, 2.0, 3):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ref = fbeta_score(y, pred, beta=beta, labels=range(4), average=average, sample_weight=w)
            np.testing.assert_allclose(ev.f_measure(average, beta=beta), ref, rtol=1e-12, atol=0)
    summary = ev.summary()
    assert summary["accuracy"] == ev.accuracy()
    for name in ("precision", "recall", "f_measure"):
        assert summary[name] == {a: getattr(ev, name)(a) for a in ("macro", "micro", "weighted")}
    support = _sk(y, s, w, None)[3] if not weighted else np.bincount(y, weights=w, minlength=4)
    for j, label in enumerate(LABELS):
        assert summary["classes"][label]["support"] == pytest.approx(support[j])
        assert summary["confusion_matrix"][label] == {other: got[j, i] for i, other in enumerate(LABELS)}


def test_a_tie_at_the_top_predicts_the_first_tied_column() -> None:
    ev = MultiLabelEvaluation(["a", "b", "c"])
    ev.add_cases(["b", "c", "a"], [[0.4, 0.4, 0.2], [0.1, 0.5, 0.5], [0.3, 0.3, 0.3]])
    assert ev.confusion_matrix().tolist() == [[1, 0, 0], [1, 0, 0], [0, 1, 0]]  # numpy.argmax's rule
    assert ev.accuracy() == pytest.approx(1 / 3)


def test_the_window_counts_only_its_rows() -> None:
    y, s = _data(5, n=50)
    ev = _fed({"window": 20}, y, s, None)
    np.testing.assert_array_equal(ev.confusion_matrix(), confusion_matrix(y[-20:], s[-20:].argmax(axis=1), labels=range(4)))
    for row in range(5):  # single rows slide the window
        ev.add_case(LABELS[int(y[row])], s[row])
    yy, ss = np.concatenate([y[-15:], y[:5]]), np.concatenate([s[-15:], s[:5]])
    np.testing.assert_array_equal(ev.confusion_matrix(), confusion_matrix(yy, ss.argmax(axis=1), labels=range(4)))


def test_bounded_counts_survive_single_rows_merge_state_and_pickle() -> None:
    y, s = _data(6, n=60)
    a = _fed({"max_bins": 8}, y[:30], s[:30], None)
    for row in range(30, 60):
        a.add_case(LABELS[int(y[row])], s[row])
    want = confusion_matrix(y, s.argmax(axis=1), labels=range(4))
    np.testing.assert_array_equal(a.confusion_matrix(), want)
    b = _fed({"max_bins": 8}, y[:30], s[:30], None) + _fed({"max_bins": 8}, y[30:], s[30:], None)
    np.testing.assert_array_equal(b.confusion_matrix(), want)
    c = _fed({"max_bins": 8}, y[:30], s[:30], None)
    c += _fed({"max_bins": 8}, y[30:], s[30:], None)
    np.testing.assert_array_equal(c.confusion_matrix(), want)
    for back in (MultiLabelEvaluation.from_dict(a.to_dict()), pickle.loads(pickle.dumps(a)), copy.deepcopy(a)):
        assert back == a
        np.testing.assert_array_equal(back.confusion_matrix(), want)
    a.reset()
    assert a.confusion_matrix().sum() == 0 and "accuracy" not in a.summary()


def test_a_bounded_state_without_the_counts_loads_and_says_so() -> None:
    y, s = _data(7)
    ev = _fed({"max_bins": 16}, y, s, None)
    d = ev.to_dict()
    del d["top"]  # as written before the counts were kept
    old = MultiLabelEvaluation.from_dict(d)
    assert old.summary()["average_precision"] == ev.summary()["average_precision"]
    assert "accuracy" not in old.summary()
    with pytest.raises(UnsupportedQuery, match="saved before the top-class counts"):
        old.confusion_matrix()
    assert old != ev


@pytest.mark.parametrize("kind", KINDS, ids=["exact", "windowed", "bounded"])
def test_multi_label_rows_are_refused_with_the_reason(kind: dict[str, Any]) -> None:
    ev = MultiLabelEvaluation(["a", "b"], **kind)
    ev.add_cases([[1, 0], [1, 1], [0, 1]], [[0.9, 0.1], [0.5, 0.6], [0.2, 0.7]])
    for query in ("confusion_matrix", "accuracy", "precision", "recall", "f_measure"):
        with pytest.raises(UnsupportedQuery, match=rf"MultiLabelEvaluation.{query}: it needs one label per row"):
            getattr(ev, query)()
    summary = ev.summary()
    assert not {"accuracy", "precision", "confusion_matrix", "classes"} & set(summary)
    with pytest.raises(UnsupportedQuery):
        ConfusionMatrix.from_evaluation(ev)


def test_a_row_without_a_positive_is_not_multi_class_either() -> None:
    ev = MultiLabelEvaluation(["a", "b"])
    ev.add_cases([[1, 0], [0, 0]], [[0.9, 0.1], [0.5, 0.6]])
    with pytest.raises(UnsupportedQuery, match="row 1 of the rows held has 0 positive labels"):
        ev.accuracy()


def test_no_row_gives_zero_counts_and_nan_accuracy() -> None:
    for kind in KINDS:
        ev = MultiLabelEvaluation(["a", "b", "c"], **kind)
        assert ev.confusion_matrix().tolist() == [[0] * 3] * 3
        assert math.isnan(ev.accuracy())
        assert ev.precision(None).tolist() == [0.0, 0.0, 0.0]  # 0/0 is 0.0, scikit-learn's zero_division
        assert "accuracy" not in ev.summary()


def test_a_bad_average_or_beta_is_refused_and_changes_nothing() -> None:
    y, s = _data(8)
    ev = _fed({}, y, s, None)
    before = ev.summary()
    with pytest.raises(ValueError, match="precision: argument 'average' must be one of None, 'macro', 'micro', 'weighted'"):
        ev.precision("samples")
    with pytest.raises(ValueError, match="f_measure: argument 'beta'"):
        ev.f_measure("macro", beta=-1.0)
    after = ev.summary()
    assert after.keys() == before.keys() and after["accuracy"] == before["accuracy"]


def test_the_lingpipe_confusion_matrix_reads_it() -> None:
    y, s = _data(9)
    ev = _fed({}, y, s, None)
    cm = ConfusionMatrix.from_evaluation(ev)
    assert cm.categories() == LABELS
    np.testing.assert_array_equal(np.asarray(cm.matrix()), ev.confusion_matrix())
    assert cm.totalAccuracy() == pytest.approx(ev.accuracy())
    for j in range(4):
        assert cm.oneVsAll(j).recall() == pytest.approx(ev.recall(None)[j])
    whole = _fed({}, y, s, np.full(y.size, 2.0))  # whole-number weights: whole counts
    np.testing.assert_array_equal(np.asarray(ConfusionMatrix.from_evaluation(whole).matrix()), 2 * ev.confusion_matrix())
    fractional = _fed({}, y, s, np.full(y.size, 0.5))
    with pytest.raises(ValueError, match="argument 'evaluation' must hold whole-number counts"):
        ConfusionMatrix.from_evaluation(fractional)
    with pytest.raises(TypeError, match="argument 'evaluation' must be a MultiLabelEvaluation"):
        ConfusionMatrix.from_evaluation(ev.pooled())
    numbered = MultiLabelEvaluation(3)
    numbered.add_cases([0, 1, 2], np.eye(3))
    assert ConfusionMatrix.from_evaluation(numbered).categories() == ["0", "1", "2"]
