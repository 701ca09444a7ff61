"""pyarrow arrays, chunked arrays, tables and record batches as inputs, held to the same numpy inputs.

Every evaluator entry point and the functional API take Arrow data as they take
numpy arrays, pandas and polars: the result equals that of the numpy arrays
holding the same values, and a null (which numpy would turn into NaN or None)
is refused naming the argument, the column and the first null's index.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import scored_pr
from scored_pr import MultiLabelEvaluation, ScoredPrecisionRecallEvaluation as E
from scored_pr import functional as F

pa = pytest.importorskip("pyarrow")


def data(seed: int, n: int = 200) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labels, scores with many ties (steps of 0.05) and weights."""
    rng = np.random.default_rng(seed)
    s = np.round(rng.random(n) * 20) / 20
    y = rng.random(n) < 0.3 + 0.4 * s
    return y, s, rng.integers(1, 4, n).astype(float)


def chunked(values: np.ndarray) -> object:
    """A ChunkedArray of three uneven chunks holding ``values``."""
    cut = [0, len(values) // 3, len(values) // 3 + 7, len(values)]
    return pa.chunked_array([pa.array(values[a:b]) for a, b in zip(cut, cut[1:])])


@pytest.mark.parametrize("ties", ["grouped", "stable"])
def test_add_cases_takes_arrays_and_chunked_arrays(ties: str) -> None:
    y, s, w = data(1)
    ref = E(ties=ties)
    ref.add_cases(y, s, sample_weight=w)
    for to_arrow in (pa.array, chunked):
        ev = E(ties=ties)
        ev.add_cases(to_arrow(y), to_arrow(s), sample_weight=to_arrow(w))
        assert ev == ref
        assert ev.average_precision() == ref.average_precision()
    ints = E(ties=ties)  # 0/1 integers and float32 scores, as the numpy arrays of those types
    ints.add_cases(pa.array(y.astype(np.int8)), pa.array(s.astype(np.float32)))
    ref32 = E(ties=ties)
    ref32.add_cases(y.astype(np.int8), s.astype(np.float32))
    assert ints == ref32


def test_add_case_takes_arrow_scalars_and_string_labels() -> None:
    ev = E()
    ev.add_case(pa.scalar(True), pa.scalar(0.75))
    ref = E()
    ref.add_case(True, 0.75)
    assert ev == ref
    spam = E(pos_label="spam")
    spam.add_cases(pa.array(["spam", "ham", "spam"]).dictionary_encode(), pa.array([0.9, 0.5, 0.1]))
    plain = E(pos_label="spam")
    plain.add_cases(np.array(["spam", "ham", "spam"]), np.array([0.9, 0.5, 0.1]))
    assert spam == plain


@pytest.mark.parametrize(("correct", "scores", "message"), [
    (pa.array([True, None, False]), pa.array([0.1, 0.2, 0.3]),
     r"add_cases: argument 'correct' must not hold nulls \(drop or fill them first\); got a pyarrow BooleanArray "
     r"with 1 null\(s\), the first at index 1"),
    (pa.array([1, 0, 1]), pa.chunked_array([[0.5], [0.2, None]]),
     r"argument 'scores' must not hold nulls .* ChunkedArray with 1 null\(s\), the first at index 2"),
])
def test_nulls_are_refused_and_nothing_is_added(correct: object, scores: object, message: str) -> None:
    ev = E()
    ev.add_cases([True], [0.5])
    before = ev.to_dict()
    with pytest.raises(ValueError, match=message):
        ev.add_cases(correct, scores)
    assert ev.to_dict() == before


def test_functional_api_binary_equals_numpy() -> None:
    y, s, w = data(2)
    for to_arrow in (pa.array, chunked):
        assert F.average_precision(to_arrow(y), to_arrow(s)) == F.average_precision(y, s)
        assert F.area_under_roc_curve(to_arrow(y), to_arrow(s), sample_weight=to_arrow(w)) == \
            F.area_under_roc_curve(y, s, sample_weight=w)
        np.testing.assert_array_equal(F.precision_recall_curve(to_arrow(y), to_arrow(s))[0],
                                      F.precision_recall_curve(y, s)[0])


def test_multilabel_and_multiclass_tables_equal_numpy() -> None:
    rng = np.random.default_rng(3)
    n, labels = 120, ["a", "b", "c"]
    S = np.round(rng.random((n, 3)) * 10) / 10
    Y = rng.random((n, 3)) < 0.2 + 0.6 * S
    table = pa.table({name: Y[:, j] for j, name in enumerate(labels)})
    scores = pa.record_batch({f"s_{name}": S[:, j] for j, name in enumerate(labels)})
    ev = MultiLabelEvaluation(labels)
    ev.add_cases(table, scores)
    ref = MultiLabelEvaluation(labels)
    ref.add_cases(Y, S)
    assert ev == ref
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rows of one class: the documented note, here as for numpy
        for average in ("macro", "micro", "weighted", "samples"):
            # assert_equal: NaN (the samples ROC AUC over rows of one class) equals NaN
            np.testing.assert_equal(F.average_precision(table, scores, average=average),
                                    F.average_precision(Y, S, average=average))
            np.testing.assert_equal(F.area_under_roc_curve(table, scores, average=average),
                                    F.area_under_roc_curve(Y, S, average=average))
    # multi-class: class names in an Arrow string array, probability rows in a table
    P = rng.random((n, 3))
    P /= P.sum(axis=1, keepdims=True)
    y = np.array(labels)[rng.integers(0, 3, n)]
    probs = pa.table({name: P[:, j] for j, name in enumerate(labels)})
    for average in ("macro", "weighted"):
        assert F.area_under_roc_curve(pa.array(y), probs, labels=labels, multi_class="ovo", average=average) == \
            F.area_under_roc_curve(y, P, labels=labels, multi_class="ovo", average=average)
    assert F.average_precision(pa.array(y), probs, labels=labels) == F.average_precision(y, P, labels=labels)
    by_class = MultiLabelEvaluation(labels)
    by_class.add_cases(pa.array(y), probs)
    numpy_class = MultiLabelEvaluation(labels)
    numpy_class.add_cases(y, P)
    assert by_class == numpy_class


def test_a_table_with_a_null_names_its_column() -> None:
    ev = MultiLabelEvaluation(["a", "b"])
    with pytest.raises(ValueError, match=r"argument 'Y' must not hold nulls .* in column 'b', the first at index 1"):
        ev.add_cases(pa.table({"a": [True, False], "b": [False, None]}), np.zeros((2, 2)))
    assert ev.num_rows == 0
    assert scored_pr.average_precision(pa.table({"a": [1, 0], "b": [0, 1]}), np.eye(2)) == 1.0


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int64, np.uint16, np.float32, np.float64])
def test_sliced_and_chunked_arrays_at_any_offset(dtype: type) -> None:
    """Boolean and numeric arrays are read from their data buffers, without a copy: a slice (an offset into
    the buffer, as a record batch's columns have) and every chunk hold their own values."""
    y, s, _ = data(5, n=61)
    labels = y.astype(dtype)
    scores = (s * 20).astype(dtype) if dtype != np.bool_ else s
    for start, length in [(0, 61), (3, 17), (9, 40), (60, 1), (13, 0)]:
        part_y, part_s = pa.array(labels).slice(start, length), pa.array(scores).slice(start, length)
        ev = E()
        ev.add_cases(part_y, part_s)
        ref = E()
        ref.add_cases(labels[start:start + length], scores[start:start + length])
        assert ev == ref
    ev = E()
    ev.add_cases(pa.chunked_array([pa.array(labels).slice(5, 20), pa.array(labels)[:3]]),
                 pa.chunked_array([pa.array(scores).slice(5, 20), pa.array(scores)[:3]]))
    ref = E()
    ref.add_cases(np.concatenate([labels[5:25], labels[:3]]), np.concatenate([scores[5:25], scores[:3]]))
    assert ev == ref

