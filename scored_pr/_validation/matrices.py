"""The checks of multi-output input: (n, k) scores with class labels or a label matrix.

The functional API's multi-class and multi-label calls and
:class:`scored_pr.MultiLabelEvaluation` read their input here, with the
label and score rules of one ranking (:mod:`.cases`) applied entry by entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

import numpy as np
import numpy.typing as npt

from .cases import as_1d, batch_correct, batch_scores, host
from .errors import describe, fail
from .options import MAX_SAVED_INT, MIN_SAVED_INT, check_positive_int


def as_array(values: Any, func: str, name: str) -> np.ndarray:
    """An array-like (list of rows, numpy array, tensor, DataFrame) as a numpy array, untouched otherwise."""
    if isinstance(values, (str, bytes)) or isinstance(values, (AbstractSet, Mapping)):
        raise fail(TypeError, func, name, "an array-like of shape (n,) or (n, k)", values)
    values = host(values, func, name)
    if isinstance(values, np.ma.MaskedArray):
        if np.ma.getmaskarray(values).any():
            raise ValueError(f"{func}: argument '{name}' must not hold masked values (drop or fill them first); got a masked array instead.")
        values = np.ma.getdata(values)
    if not isinstance(values, np.ndarray):
        if not isinstance(values, Iterable):
            raise fail(TypeError, func, name, "an array-like of shape (n,) or (n, k)", values)
        try:
            values = np.asarray(values if isinstance(values, (list, tuple)) else list(values))
        except ValueError:  # ragged rows
            raise ValueError(f"{func}: argument '{name}' must have rows of one length; got ragged rows instead.") from None
    return values


def dense_labels(values: Any) -> Any:
    """A scipy.sparse label matrix (any format, matrix or array) as a dense numpy array; anything else untouched.

    scikit-learn takes sparse label matrices in some multi-label measures;
    scored_pr takes them wherever it takes a label matrix. Recognised by
    its type's module, so scipy is never imported here (it stays optional).
    The dense copy costs what the rows cost the evaluator anyway: O(n k).
    """
    if type(values).__module__.startswith("scipy.sparse") and callable(getattr(values, "toarray", None)):
        return values.toarray()
    return values


def multi_output(y_true: Any, y_score: Any, func: str) -> tuple[np.ndarray, np.ndarray] | None:
    """``(y_true, y_score)`` as arrays when the call is a multi-output one, else None.

    Multi-output: ``y_score`` of shape (n, k) with k >= 2 (class labels or an
    indicator matrix in ``y_true``), or ``y_true`` of shape (n, k) with k >= 2.
    A 1-dimensional or (n, 1) pair is the binary case, checked by
    :func:`check_batch` as before.
    """
    score = as_array(y_score, func, "y_score")
    truth = as_array(y_true, func, "y_true")
    if (score.ndim == 2 and score.shape[1] >= 2) or (truth.ndim == 2 and truth.shape[1] >= 2):
        return truth, score
    return None


def check_not_binary_proba(truth: np.ndarray, score: np.ndarray, labels: Any, func: str) -> None:
    """Refuse (n, 2) scores with binary class labels (n,) unless ``labels`` says the columns are classes.

    ``predict_proba(X)`` of a binary classifier is (n, 2): one column per
    class. Read as two classes it gives the average over both columns, not
    the positive class's value a binary call means; scikit-learn refuses it
    too. With ``labels=`` the caller says the columns are classes, and the
    call is the two-class multi-class one.
    """
    if labels is not None or score.ndim != 2 or score.shape[1] != 2:
        return
    if truth.ndim == 2 and truth.shape[1] == 1:
        truth = truth[:, 0]
    if truth.ndim != 1:
        return
    try:
        classes = np.unique(truth)
    except TypeError:  # labels of mixed types: check_classes names the offending one
        return
    if classes.size > 2:
        return  # not binary: check_classes says that y_true's classes do not match the columns
    raise ValueError(
        f"{func}: argument 'y_score' of shape (n, 2) with binary labels in 'y_true' is ambiguous: for the "
        "positive class's value pass its column only, e.g. predict_proba(X)[:, 1] (shape (n,)); to treat the "
        f"two columns as classes pass labels= (one class per column); got 'y_score' of shape {score.shape} and "
        f"{classes.size} distinct classes {classes.tolist()!r} in 'y_true' instead."
    )


def check_score_matrix(score: np.ndarray, func: str, name: str = "y_score") -> npt.NDArray[np.float64]:
    """Scores of shape (n, k) as float64, without NaN (exactly representable, as :func:`check_batch`)."""
    if score.ndim != 2:
        raise ValueError(
            f"{func}: argument '{name}' must be 2-dimensional, shape (n, k): one column per label or class; "
            f"got an array of shape {score.shape} instead."
        )
    flat = batch_scores(score.ravel(), func, name)  # the index it reports is row * k + column
    return flat.reshape(score.shape)


def check_label_matrix(
    truth: np.ndarray, shape: tuple[int, ...], func: str, name: str = "Y", pos_label: Any = None
) -> npt.NDArray[np.bool_]:
    """A label matrix of ``shape`` (n, k) read with the binary evaluator's label rules, entry by entry.

    Without ``pos_label``: bool, 0/1, or -1/1 (as ``add_cases`` of one
    ranking takes them; -1 and 0 are not mixed). With ``pos_label``: an entry
    equal to it is positive, any other value negative. The scikit-learn
    indicator matrix (0/1 or bool) is the common case; its errors name the
    row and column (:func:`check_indicator`).
    """
    if pos_label is None and not (truth.dtype.kind in "iuf" and truth.size and truth.min() == -1):
        return check_indicator(truth, shape, func, name)
    if truth.shape != shape:
        raise ValueError(
            f"{func}: argument '{name}' must be a label matrix of the shape of the scores {shape}; "
            f"got an array of shape {truth.shape} instead."
        )
    return batch_correct(truth.ravel(), func, pos_label, name).reshape(shape)


def check_indicator(truth: np.ndarray, shape: tuple[int, ...], func: str, name: str = "y_true") -> npt.NDArray[np.bool_]:
    """A label indicator matrix of ``shape`` (n, k): bool or 0/1 in any numeric type."""
    if truth.shape != shape:
        raise ValueError(
            f"{func}: argument '{name}' must be an indicator matrix of the shape of the scores {shape}; "
            f"got an array of shape {truth.shape} instead."
        )
    expected = "an indicator matrix of 0/1 or bool (one column per label)"
    kind = truth.dtype.kind
    if kind == "b":
        return truth.astype(bool, copy=False)
    if kind not in "iuf":
        raise fail(TypeError, func, name, expected, truth.ravel()[0] if truth.size else truth)
    bad = np.flatnonzero(~((truth == 0) | (truth == 1)))
    if bad.size:
        row, column = divmod(int(bad[0]), shape[1])
        raise ValueError(
            f"{func}: argument '{name}' must be {expected}; "
            f"got {describe(truth[row, column].item())} at row {row}, column {column} instead."
        )
    return np.asarray(truth == 1)


def check_classes(
    truth: np.ndarray, k: int, labels: Any, func: str, name: str = "y_true", own_labels: bool = False
) -> tuple[npt.NDArray[np.intp], np.ndarray]:
    """Class labels (n,) for k score columns: (column index of each case's class, the k class labels).

    Without ``labels`` the columns are the sorted distinct labels of
    ``y_true``, which must number k (scikit-learn's rule); with ``labels``
    (k distinct values, in column order) every label of ``y_true`` must be
    one of them. ``own_labels``: the labels are the evaluator's own, not an
    argument of ``func``, so a label of the wrong type blames ``name``.
    """
    if truth.ndim == 2 and truth.shape[1] == 1:
        truth = truth[:, 0]
    if truth.ndim != 1:
        raise ValueError(
            f"{func}: argument '{name}' must be class labels of shape (n,) or an indicator matrix of shape (n, {k}); "
            f"got an array of shape {truth.shape} instead."
        )
    if truth.dtype.kind == "f" and np.isnan(truth).any():
        i = int(np.argmax(np.isnan(truth)))
        raise fail(ValueError, func, name, "class labels, not NaN", truth[i].item(), i)
    if truth.dtype.kind not in "biufUS":
        raise fail(TypeError, func, name, "class labels of one type (ints, strs or bools)", truth[0] if truth.size else truth, 0)
    if labels is None:
        classes = np.unique(truth)
        if classes.size != k:
            raise ValueError(
                f"{func}: argument '{name}' must hold one class per column of 'y_score' ({k}), or pass labels=; "
                f"got {classes.size} distinct classes {describe(classes.tolist())} instead."
            )
    else:
        classes = as_1d(labels, func, "labels", labels=True)
        if classes.size != k or np.unique(classes).size != k:
            raise fail(ValueError, func, "labels", f"{k} distinct class labels, one per column of 'y_score'", labels)
        if (classes.dtype.kind in "US") != (truth.dtype.kind in "US"):
            if own_labels:  # the caller passed only the classes: they are what is of the wrong type
                what = "strs" if classes.dtype.kind in "US" else "ints or bools"
                shown = ", ".join(repr(c) for c in classes[:5].tolist()) + (", ..." if classes.size > 5 else "")
                raise fail(TypeError, func, name, f"the evaluator's labels ({what}: {shown}) or indicators, one "
                            "per label", truth[0].item() if truth.size else truth,
                            0 if truth.size else None)
            raise fail(TypeError, func, "labels", f"labels of the type of '{name}' ({truth.dtype})", labels)
    order = np.argsort(classes, kind="stable")
    pos = np.searchsorted(classes[order], truth)
    pos = np.minimum(pos, k - 1)
    found = classes[order][pos] == truth
    if not found.all():
        i = int(np.argmax(~found))
        raise fail(ValueError, func, name, f"one of labels {describe(classes.tolist())}", truth[i].item(), i)
    return np.asarray(order[pos], dtype=np.intp), classes


def check_probability_rows(score: npt.NDArray[np.float64], func: str, name: str = "y_score", dtype: Any = None) -> None:
    """Rows that sum to 1, as scikit-learn requires for multi-class ROC AUC, at the precision of the input.

    ``score`` is the checked float64 matrix, ``dtype`` the input's type. A
    row passes when its sum is within numpy's ``isclose`` of 1 (rtol 1e-5,
    atol 1e-8: scikit-learn's ``allclose`` rule), or, for input of a
    narrower float type (float16, float32), within 4 of that type's
    epsilon of 1 (float16: 0.0039): probabilities rounded to (or computed
    in) float16 need not sum to 1 within 1e-5. scikit-learn sums such rows
    in their own type and then applies the 1e-5 rule, which refuses most
    float16 probability rows.
    """
    sums = score.sum(axis=1)
    bad = ~np.isclose(sums, 1.0)
    if bad.any() and dtype is not None and np.dtype(dtype).kind == "f" and np.dtype(dtype).itemsize < 8:
        bad &= ~(np.abs(sums - 1.0) <= 4 * float(np.finfo(dtype).eps))
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"{func}: argument '{name}' must hold class probabilities whose rows sum to 1 for multi-class ROC AUC "
            f"(scikit-learn's rule); got a row summing to {float(sums[i])!r} at row {i} instead."
        )


def check_one_vs_one_rows(truth: npt.NDArray[np.bool_], weighted: bool, func: str) -> None:
    """An evaluation's rows that one-vs-one ROC AUC can read: one positive label each, unweighted.

    ``truth`` is the (n, k) label matrix held, ``weighted`` whether weights
    other than 1 are held (scikit-learn has no ``sample_weight`` for
    one-vs-one).
    """
    per_row = truth.sum(axis=1)
    if (per_row != 1).any():
        i = int(np.argmax(per_row != 1))
        raise ValueError(
            f"{func}: argument 'multi_class' 'ovo' needs a multi-class stream, one positive label per row; "
            f"got row {i} with {int(per_row[i])} positive labels instead."
        )
    if weighted:
        raise ValueError(
            f"{func}: argument 'multi_class' 'ovo' takes unweighted rows (scikit-learn has no sample_weight "
            "for one-vs-one); got an evaluation holding weighted rows instead."
        )


def check_same_length(n_true: int, n_score: int, func: str) -> None:
    """``y_true`` and ``y_score`` with one entry per case each."""
    if n_true != n_score:
        raise ValueError(
            f"{func}: arguments 'y_true' and 'y_score' must have the same length; got {n_true} and {n_score} instead."
        )


def check_no_labels(labels: Any, func: str) -> None:
    """``labels=`` is for class labels; an indicator matrix names its labels by its columns."""
    if labels is not None:
        raise ValueError(
            f"{func}: argument 'labels' must be None with an indicator matrix 'y_true' (its columns are the labels); "
            f"got {describe(labels)} instead."
        )


#: Most labels a multi-label evaluation takes (and its state files hold): 1,048,576. An evaluation
#: of that many labels takes about 120 MB before its first row (the exact kind).
MAX_LABELS = 1 << 20


def check_label_names(labels: Any, func: str, name: str = "labels") -> list[Any]:
    """The labels of a multi-label evaluation: a count k >= 1 (named 0 .. k-1) or k distinct str/int names.

    At most :data:`MAX_LABELS` of them, int names within int64/uint64: what a state file holds.
    """
    expected = (f"an int k between 1 and {MAX_LABELS} (MAX_LABELS) or a non-empty list of at most {MAX_LABELS} "
                "distinct label names (str, or int within int64 or uint64)")
    if isinstance(labels, (int, np.integer)) and not isinstance(labels, (bool, np.bool_)):
        k = check_positive_int(labels, func, name)
        if k > MAX_LABELS:  # refused before anything is allocated
            raise fail(ValueError, func, name, expected, labels)
        return list(range(k))
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable) or isinstance(labels, Mapping):
        raise fail(TypeError, func, name, expected, labels)
    names: list[Any] = []
    for v in labels:
        if len(names) == MAX_LABELS:  # an endless iterable is refused too
            raise fail(ValueError, func, name, expected, labels)
        names.append(v.item() if isinstance(v, np.generic) else v)
    for i, v in enumerate(names):
        if isinstance(v, bool) or not isinstance(v, (str, int)):
            raise fail(TypeError, func, name, expected, v, i)
        if isinstance(v, int) and not MIN_SAVED_INT <= v <= MAX_SAVED_INT:
            raise fail(ValueError, func, name, expected, v, i)
    if not names or len(set(names)) != len(names) or len({type(v) for v in names}) != 1:
        raise fail(ValueError, func, name, expected + " of one type", labels)
    return names
