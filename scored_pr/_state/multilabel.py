"""State of a MultiLabelEvaluation as a JSON-safe dict, a pickle-free file, and for pickle.

The state is the label names, the tie policy, the kind (``window`` rows or
``max_bins`` bins, or neither for the exact kind) and what the kind keeps:

- exact and windowed kinds: the rows, an (n, k) bool indicator matrix, the
  (n, k) float64 scores and the (n,) weights (absent when every weight is 1);
- bounded kind: each label's ``BoundedEvaluation.to_dict()`` and that of the
  pooled (micro) summary, the bounded kind's own state encoding, which its
  ``from_dict`` validates; and the top-class counts of multi-class rows (the
  sparse confusion matrix: each distinct (true, predicted) pair's code
  ``true * k + predicted`` and count, and the number of rows without exactly
  one positive). A state written before these counts existed has none
  (``top`` is None): it loads, and its top-class queries say so.

This module knows no evaluator class: it checks a :class:`MultiLabelState` on
the way in and out, and the evaluation builds itself from one. A bad input
raises ValueError or TypeError and never yields a half-built evaluation.
"""

from __future__ import annotations

import json
import os
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from . import bounded as _bounded
from . import exact as _exact
from . import statefile as _statefile
from .exact import _bad
from .._validation import MAX_LABELS  # the constructor's limit: what it takes, a file holds

FORMAT = "scored_pr.MultiLabelEvaluation"
KIND = "multilabel"
VERSION = 1
_KEYS = {"format", "kind", "version", "labels", "ties", "window", "max_bins", "pos_label"}
_ROWS = {"truth", "scores"}
_OPTIONAL = {"weights"}
_BINS = {"per_label", "pooled"}
_TOP = {"top"}  #: optional (bounded kind): absent from states written before the top-class counts
_TOP_FIELDS = {"codes", "counts", "other_rows"}


class MultiLabelState(NamedTuple):
    """Everything a multi-label evaluation's answers depend on, as plain data."""

    labels: list[Any]
    ties: str
    window: int | None
    max_bins: int | None
    truth: npt.NDArray[np.bool_] | None  #: (n, k) rows (exact and windowed kinds), else None
    scores: npt.NDArray[np.float64] | None
    weights: npt.NDArray[np.float64] | None  #: (n,), None when every weight is 1
    per_label: list[dict[str, Any]] | None = None  #: bounded kind: each label's BoundedEvaluation.to_dict()
    pooled: dict[str, Any] | None = None  #: bounded kind: the pooled summary's to_dict()
    pos_label: Any = None  #: the label value read as positive in an indicator matrix (None: 1/True)
    #: bounded kind: (codes int64 ascending, counts float64, rows without one positive), or None when unknown
    top: tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], int] | None = None


def check_top(codes: Any, counts: Any, other: Any, k: int, func: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], int]:
    """The top-class counts: distinct codes ascending in [0, k*k), finite counts >= 0, a row count >= 0."""
    if isinstance(other, bool) or not isinstance(other, int) or other < 0:
        raise _bad(func, f"field 'other_rows' of the top-class counts must be an int >= 0; got {other!r:.60} instead.")
    c = np.asarray(codes)
    w = np.asarray(counts)
    if (c.ndim != 1 or w.shape != c.shape or (c.size and (c.dtype.kind not in "iu" or w.dtype.kind not in "iuf"))):
        raise _bad(func, "the top-class counts must be two lists of one length: int codes and numeric counts.")
    c, w = c.astype(np.int64), w.astype(np.float64)
    if c.size and (c[0] < 0 or c[-1] >= k * k or not (np.diff(c) > 0).all()):
        raise _bad(func, f"the top-class codes must be distinct, ascending and in [0, {k * k}).")
    if not (np.isfinite(w) & (w >= 0)).all():
        raise _bad(func, "the top-class counts must be finite and >= 0.")
    return c, w, other


def _top_dict(top: Any, k: int, func: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], int] | None:
    """The ``top`` field of a dict state (None: absent, a state written before the counts existed)."""
    if top is None:
        return None
    if not isinstance(top, dict) or set(top) != _TOP_FIELDS:
        raise _bad(func, f"field 'top' must be a dict of {sorted(_TOP_FIELDS)}.")
    if not isinstance(top["codes"], list) or not isinstance(top["counts"], list):
        raise _bad(func, "fields 'codes' and 'counts' of 'top' must be lists.")
    return check_top(top["codes"], top["counts"], top["other_rows"], k, func)


def _check_labels(labels: Any, func: str) -> list[Any]:
    if not isinstance(labels, list) or not 1 <= len(labels) <= MAX_LABELS:
        raise TypeError(f"{func}: field 'labels' must be a non-empty list of label names; got {labels!r:.60} instead.")
    for i, name in enumerate(labels):
        if isinstance(name, bool) or not isinstance(name, (str, int)):
            raise TypeError(f"{func}: label names must be str or int; got {name!r:.60} at index {i}.")
    if len(set(labels)) != len(labels):
        raise _bad(func, f"label names must be distinct; got {labels!r:.80}.")
    return labels


def _check_optional_int(value: Any, func: str, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _bad(func, f"field {name!r} must be null or an int >= 1; got {value!r:.60} instead.")
    return value


def _check_header(d: dict[str, Any], func: str) -> tuple[list[Any], str, int | None, int | None, Any]:
    ties = _exact.check_kind_header(d, func, FORMAT, KIND, VERSION)
    window = _check_optional_int(d.get("window"), func, "window")
    max_bins = _check_optional_int(d.get("max_bins"), func, "max_bins")
    if window is not None and max_bins is not None:
        raise _bad(func, "fields 'window' and 'max_bins' must not both be set.")
    return _check_labels(d.get("labels"), func), ties, window, max_bins, _exact.check_pos_label(d.get("pos_label"), func)


def check_rows(
    truth: npt.NDArray[np.bool_], scores: npt.NDArray[np.float64], weights: npt.NDArray[np.float64] | None,
    k: int, window: int | None, func: str,
) -> None:
    """Rows of the exact and windowed kinds: shapes agree, no NaN score, weights finite and >= 0."""
    if truth.ndim != 2 or truth.shape != scores.shape or truth.shape[1] != k:
        raise _bad(func, f"the state's rows must be (n, {k}) truth and scores; got {truth.shape} and {scores.shape}.")
    if np.isnan(scores).any():
        raise _bad(func, "the state's scores hold NaN.")
    if weights is not None and (weights.shape != (truth.shape[0],) or not (np.isfinite(weights) & (weights >= 0)).all()):
        raise _bad(func, "the state's weights must be one finite weight >= 0 per row.")
    if window is not None and truth.shape[0] > window:
        raise _bad(func, f"the state holds {truth.shape[0]} rows, more than its window of {window}.")


def _header(st: MultiLabelState) -> dict[str, Any]:
    return {"format": FORMAT, "kind": KIND, "version": VERSION, "labels": list(st.labels), "ties": st.ties,
            "window": st.window, "max_bins": st.max_bins, "pos_label": st.pos_label}


def to_dict(st: MultiLabelState) -> dict[str, Any]:
    """The JSON-safe dict: the header and the rows (as lists of rows) or each label's bounded state."""
    d = _header(st)
    if st.max_bins is not None:
        d["per_label"] = st.per_label
        d["pooled"] = st.pooled
        if st.top is not None:
            d["top"] = {"codes": st.top[0].tolist(), "counts": st.top[1].tolist(), "other_rows": st.top[2]}
        return d
    assert st.truth is not None and st.scores is not None
    k = len(st.labels)
    flat = _exact.encode_scores(-st.scores.ravel())
    d["truth"] = st.truth.tolist()
    d["scores"] = [flat[i : i + k] for i in range(0, len(flat), k)]
    if st.weights is not None:
        d["weights"] = st.weights.tolist()
    return d


def from_dict(d: Any, func: str = "from_dict") -> MultiLabelState:
    if not isinstance(d, dict):
        raise TypeError(f"{func}: argument 'd' must be a dict from to_dict(); got {type(d).__name__} instead.")
    labels, ties, window, max_bins, pos_label = _check_header(d, func)
    body = _BINS if max_bins is not None else _ROWS
    optional = _TOP if max_bins is not None else _OPTIONAL
    if not _KEYS | body <= set(d) <= _KEYS | body | optional:
        missing, extra = sorted((_KEYS | body) - set(d)), sorted(set(d) - _KEYS - body - optional)
        raise _bad(func, f"fields must be {sorted(_KEYS | body)} (optionally {sorted(optional)}); "
                         f"missing {missing}, unexpected {extra}.")
    k = len(labels)
    if max_bins is not None:
        per_label, pooled = d["per_label"], d["pooled"]
        if not isinstance(per_label, list) or len(per_label) != k or not all(isinstance(x, dict) for x in per_label):
            raise TypeError(f"{func}: field 'per_label' must be a list of {k} state dicts.")
        if not isinstance(pooled, dict):
            raise TypeError(f"{func}: field 'pooled' must be a state dict.")
        top = _top_dict(d.get("top"), k, func)
        return MultiLabelState(labels, ties, window, max_bins, None, None, None, per_label, pooled, pos_label, top)
    rows_t, rows_s = d["truth"], d["scores"]
    if not isinstance(rows_t, list) or not isinstance(rows_s, list) or len(rows_t) != len(rows_s):
        raise TypeError(f"{func}: fields 'truth' and 'scores' must be lists of rows of one length.")
    n = len(rows_t)
    for i in range(n):
        if not isinstance(rows_t[i], list) or not isinstance(rows_s[i], list) or len(rows_t[i]) != k or len(rows_s[i]) != k:
            raise _bad(func, f"row {i} of 'truth' and 'scores' must hold {k} entries each.")
    truth = _exact.decode_bools([v for row in rows_t for v in row], func, "truth").reshape(n, k)
    scores = _exact.decode_numbers([v for row in rows_s for v in row], func, "scores").reshape(n, k)
    weights = _exact.decode_numbers(d["weights"], func, "weights", nonfinite=False) if "weights" in d else None
    check_rows(truth, scores, weights, k, window, func)
    return MultiLabelState(labels, ties, window, max_bins, truth, scores, weights, pos_label=pos_label)


#: Most bytes one bin takes in a bounded state's JSON: hi and lo (a float's repr: at most 24
#: characters, or "-Infinity" quoted), pos and neg (whole counts below 2**53 or a float's repr),
#: the level (0 to 64) and the separators (", ") around each: 4 * (24 + 2) + 2 + 2 = 108, rounded up.
_BIN_JSON_BYTES = 128
#: Most bytes of a bounded state's JSON besides its bins and its positive label (field names,
#: counts, flags and brackets: about 250).
_STATE_JSON_BYTES = 512
#: Most bytes of a bounded state's calibration sums in JSON (each label's summary keeps the default
#: 15 bins): 4 arrays of 31 cells and 3 totals, a float's repr and its separator each (at most 26),
#: plus the field names and the bad score.
_CALIBRATION_JSON_BYTES = 32 * (4 * (2 * _bounded.DEFAULT_CALIBRATION_BINS + 1) + 3) + 256


def max_bins_bytes(k: int, max_bins: int, pos_label: Any) -> int:
    """The largest 'bins' member a multi-label state of ``k`` labels and ``max_bins`` can have.

    k + 1 bounded states (each label's and the pooled one), each of at most
    ``max_bins`` bins: a member larger than this was not written by save()
    and is refused before it is parsed.
    """
    label = len(json.dumps(pos_label))
    return 64 + (k + 1) * (_STATE_JSON_BYTES + _CALIBRATION_JSON_BYTES + label + _BIN_JSON_BYTES * max_bins)


def save(st: MultiLabelState, path: str | os.PathLike[str], extra: dict[str, Any] | None = None) -> None:
    """Write ``st`` atomically: rows as arrays (truth bit-packed), or the bounded states as one JSON member.

    ``extra`` (JSON-safe) rides in the header: ``scored-pr stream``'s checkpoints keep there the
    input line they consumed and the wide file's layout (:func:`load_with_extra` reads it back).
    """
    meta = _header(st)
    if extra is not None:
        meta["extra"] = extra
    arrays: dict[str, np.ndarray] = {}
    if st.max_bins is not None:
        arrays["bins"] = _statefile.encode_json({"per_label": st.per_label, "pooled": st.pooled}, "bins")
        if st.top is not None:  # the sparse confusion matrix: its size in the header fixes the arrays' shapes
            meta["top_pairs"], meta["top_other_rows"] = int(st.top[0].size), st.top[2]
            arrays["top_codes"], arrays["top_counts"] = st.top[0], st.top[1]
    else:
        assert st.truth is not None and st.scores is not None
        meta["num_rows"] = int(st.truth.shape[0])
        meta["weighted"] = st.weights is not None
        arrays["truth"] = np.packbits(st.truth.ravel())
        arrays["scores"] = st.scores
        if st.weights is not None:
            arrays["weights"] = st.weights
    arrays["meta"] = _statefile.encode_meta(meta)  # the header is encoded before anything is written
    _statefile.write_npz(path, arrays)


def load(path: str | os.PathLike[str], func: str = "load") -> MultiLabelState:
    """The state saved at ``path``; every array's shape is fixed by the header before it is read."""
    return load_with_extra(path, func)[0]


@_statefile.file_reader
def load_with_extra(path: str | os.PathLike[str], func: str = "load") -> tuple[MultiLabelState, Any]:
    """The state saved at ``path`` and the ``extra`` header it was saved with (None if none)."""
    with _statefile.NpzReader(path, func) as npz:
        meta = _statefile.read_meta(npz, KIND)
        extra = meta.get("extra")
        labels, ties, window, max_bins, pos_label = _check_header(meta, func)
        k = len(labels)
        if max_bins is not None:
            pairs = meta.get("top_pairs")
            has_top = pairs is not None
            if npz.names != {"meta", "bins"} | ({"top_codes", "top_counts"} if has_top else set()):
                raise npz.error(f"is not a scored_pr multi-label state file (arrays {npz.listing}).")
            top = None
            if has_top:
                if isinstance(pairs, bool) or not isinstance(pairs, int) or not 0 <= pairs <= k * k or 16 * pairs > npz.size:
                    raise npz.error("has an invalid 'top_pairs' field.")
                top = check_top(npz.read("top_codes", np.int64, shape=(pairs,)).copy(),
                                npz.read("top_counts", np.float64, shape=(pairs,)).copy(), meta.get("top_other_rows"), k, func)
            # {"per_label": [k states], "pooled": state}, each state an object with five
            # arrays (hi, lo, pos, neg, level) and five of calibration sums: 2 + 11 (k + 1) objects and arrays
            body = _statefile.read_json(npz, "bins", max_bins_bytes(k, max_bins, pos_label), max_containers=2 + 11 * (k + 1))
            if not isinstance(body, dict):
                raise npz.error("has a corrupted 'bins' member.")
            st = from_dict({**{key: meta.get(key) for key in _KEYS}, **{key: body.get(key) for key in _BINS}}, func)
            assert st.per_label is not None and st.pooled is not None
            for d in (*st.per_label, st.pooled):  # checked here, so a bad one is this file's ValueError
                _bounded.from_dict(d, func)
            return st._replace(top=top), extra
        n, weighted = meta.get("num_rows"), meta.get("weighted")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0 or not isinstance(weighted, bool):
            raise npz.error("has an invalid 'num_rows' or 'weighted' field.")
        expected = {"meta", "truth", "scores"} | ({"weights"} if weighted else set())
        if npz.names != expected:
            raise npz.error(f"is not a scored_pr multi-label state file (arrays {npz.listing}).")
        if n * k * 8 > npz.size:  # each (row, label) takes 8 bytes of scores: no larger array can be in the file
            raise npz.error(f"declares {n} rows of {k} labels, more than the file holds.")
        flat = np.unpackbits(npz.read("truth", np.uint8, shape=((n * k + 7) // 8,)), count=n * k).astype(bool)
        scores = npz.read("scores", np.float64, shape=(n, k)).copy()
        weights = npz.read("weights", np.float64, shape=(n,)).copy() if weighted else None
    truth = flat.reshape(n, k)
    check_rows(truth, scores, weights, k, window, func)
    return MultiLabelState(labels, ties, window, max_bins, truth, scores, weights, pos_label=pos_label), extra


def to_pickle(st: MultiLabelState) -> dict[str, Any]:
    """What pickling stores: the header and the arrays (or bounded states) as they are."""
    out = {**_header(st), "truth": st.truth, "scores": st.scores, "weights": st.weights,
           "per_label": st.per_label, "pooled": st.pooled}
    if st.top is not None:
        out["top"] = {"codes": st.top[0].tolist(), "counts": st.top[1].tolist(), "other_rows": st.top[2]}
    return out


def from_pickle(state: Any, func: str = "unpickle") -> MultiLabelState:
    base = _KEYS | _ROWS | _OPTIONAL | _BINS
    if not isinstance(state, dict) or set(state) not in (base, base | _TOP):  # pickles before the counts: no 'top'
        raise _bad(func, "the pickled state is not a scored_pr MultiLabelEvaluation's.")
    labels, ties, window, max_bins, pos_label = _check_header(state, func)
    if max_bins is not None:
        top = {"top": state["top"]} if state.get("top") is not None else {}
        return from_dict({**{key: state[key] for key in _KEYS}, "per_label": state["per_label"],
                          "pooled": state["pooled"], **top}, func)
    truth, scores, weights = state["truth"], state["scores"], state["weights"]
    if (not isinstance(truth, np.ndarray) or truth.dtype != bool or not isinstance(scores, np.ndarray)
            or scores.dtype != np.float64 or not (weights is None or (isinstance(weights, np.ndarray) and weights.dtype == np.float64))):
        raise _bad(func, "the pickled rows must be bool and float64 arrays.")
    check_rows(truth, scores, weights, len(labels), window, func)
    return MultiLabelState(labels, ties, window, max_bins, truth, scores, weights, pos_label=pos_label)
