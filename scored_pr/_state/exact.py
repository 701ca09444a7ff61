"""State of an evaluator as a JSON-safe dict, a pickle-free file, and for pickle.

The state is the ranking (scores in rank order, ties in insertion order, and
correctness), the sample weights if any, the two miss counts, the tie policy
and the positive label; every result is a function of it, so a round trip
reproduces every result exactly. Format 1 has no weights and no positive
label; format 2 adds both (optional). An evaluator without either is written
as format 1, which every scored_pr reads. Every
loader validates everything before it builds anything: a bad input raises
ValueError or TypeError and never yields a half-built evaluator.

This module knows no evaluator class: it turns an :class:`ExactState` (plain
arrays and counts) into a dict, a file or a pickled state and back, checking
everything on the way in; the evaluator gives its state
(``ScoredPrecisionRecallEvaluation._state``) and builds itself from one
(``_from_state``). The functions that take an evaluator or a class
(:func:`save`, :func:`load_with_extra`, :func:`pickle_state`, :func:`restore`)
only go through those two methods; :func:`restore` is the name pickles of
scored_pr 0.1.0 call, kept for them.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from . import statefile as _statefile
from .._kinds import state_hooks
from .._validation import MAX_COUNT, TIE_POLICIES

FORMAT = "scored_pr.ScoredPrecisionRecallEvaluation"
VERSION = 2
VERSIONS = (1, 2)
_KEYS = {"format", "version", "ties", "scores", "correct", "misses", "negative_misses"}
_OPTIONAL = {"weights", "pos_label"}  # format 2
_NONFINITE = {"Infinity": math.inf, "-Infinity": -math.inf}


class ExactState(NamedTuple):
    """Everything an exact evaluator's answers depend on, as plain data."""

    ties: str
    neg: npt.NDArray[np.float64]  #: negated scores, ascending (rank order), ties in insertion order
    correct: npt.NDArray[np.bool_]
    weights: npt.NDArray[np.float64] | None
    misses: int
    negative_misses: int
    pos_label: Any = None


def _bad(func: str, what: str) -> ValueError:
    return ValueError(f"{func}: {what}")


def check_format_and_kind(d: dict[str, Any], func: str, fmt: str, kind: str) -> None:
    """Fields ``format`` and ``kind`` of a per-kind state dict must be ``fmt`` and ``kind``.

    The message names the field that is wrong (``format`` first), and for a
    dict of another kind which class reads it.
    """
    for field, want in (("format", fmt), ("kind", kind)):
        got = d.get(field)
        if got != want or not isinstance(got, str):
            found = _statefile.kind_of_format(d.get("format"))
            what = f" (a {_statefile.class_name(found)}'s state: kind {found!r})" if found and found != kind else ""
            raise _bad(func, f"field {field!r} must be {want!r}; got {got!r:.60}{what} instead.")


def check_kind_header(d: dict[str, Any], func: str, fmt: str, kind: str, version: int) -> str:
    """The tie policy of a state dict whose ``format``, ``kind`` and ``version`` must be these.

    A dict of another kind is named in the error (which class reads it), as
    every loader of a per-kind state does.
    """
    check_format_and_kind(d, func, fmt, kind)
    if isinstance(d.get("version"), bool) or d.get("version") != version:
        raise _bad(func, f"field 'version' must be {version}; got {d.get('version')!r:.60} instead.")
    ties = d.get("ties")
    if not isinstance(ties, str) or ties not in TIE_POLICIES:
        raise _bad(func, f"field 'ties' must be one of {TIE_POLICIES}; got {ties!r:.60} instead.")
    return ties


def _count(value: Any, func: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{func}: field '{name}' must be a non-negative int; got {value!r:.60} instead.")
    if value < 0 or value > MAX_COUNT:
        raise _bad(func, f"field '{name}' must be a non-negative int of at most 2**53; got {value!r:.60} instead.")
    return int(value)


def _version_of(st: ExactState) -> int:
    return 2 if st.weights is not None or st.pos_label is not None else 1


def check_pos_label(pos_label: Any, func: str) -> Any:
    """A saved positive label: None, a str, a number or a bool (not NaN)."""
    if pos_label is not None and not isinstance(pos_label, (str, int, float)) or (
        isinstance(pos_label, float) and math.isnan(pos_label)
    ):
        raise _bad(func, f"field 'pos_label' must be a str, number or bool; got {pos_label!r:.60} instead.")
    return pos_label


def check(
    ties: Any,
    neg: npt.NDArray[np.float64],
    correct: npt.NDArray[np.bool_],
    misses: Any,
    negative_misses: Any,
    func: str,
    weights: npt.NDArray[np.float64] | None = None,
    pos_label: Any = None,
) -> ExactState:
    """Validate a ranking and the counts; the state they make."""
    if not isinstance(ties, str) or ties not in TIE_POLICIES:
        raise _bad(func, f"field 'ties' must be one of {TIE_POLICIES}; got {ties!r:.60} instead.")
    check_pos_label(pos_label, func)
    misses = _count(misses, func, "misses")
    negative_misses = _count(negative_misses, func, "negative_misses")
    if neg.ndim != 1 or correct.ndim != 1 or neg.shape != correct.shape:
        raise _bad(func, f"scores and correct must be 1-dimensional of equal length; got shapes {neg.shape} and {correct.shape}.")
    if np.isnan(neg).any():
        raise _bad(func, f"scores must not contain NaN (index {int(np.argmax(np.isnan(neg)))}).")
    in_order = neg[1:] >= neg[:-1]  # not np.diff: inf - inf is NaN
    if not in_order.all():
        i = int(np.argmax(~in_order))
        raise _bad(func, f"scores must be in rank order (non-increasing); index {i + 1} exceeds index {i}.")
    if weights is not None:
        if weights.shape != neg.shape:
            raise _bad(func, f"weights must have one entry per case; got shape {weights.shape} for {neg.size} cases.")
        bad = ~(np.isfinite(weights) & (weights >= 0.0))
        if bad.any():
            raise _bad(func, f"weights must be finite and >= 0 (index {int(np.argmax(bad))}).")
    return ExactState(ties, neg, correct, weights, misses, negative_misses, pos_label)


def encode_scores(neg: npt.NDArray[np.float64]) -> list[Any]:
    """Negated scores as the JSON list of scores (infinities as strings)."""
    return [-v if math.isfinite(v) else ("-Infinity" if v > 0 else "Infinity") for v in neg.tolist()]


def state_to_dict(st: ExactState) -> dict[str, Any]:
    """The JSON-safe dict of a state (``to_dict``)."""
    d = {
        "format": FORMAT,
        "version": _version_of(st),
        "ties": st.ties,
        "scores": encode_scores(st.neg),
        "correct": st.correct.tolist(),
        "misses": st.misses,
        "negative_misses": st.negative_misses,
    }
    if st.weights is not None:
        d["weights"] = st.weights.tolist()
    if st.pos_label is not None:
        d["pos_label"] = st.pos_label
    return d


def decode_numbers(values: Any, func: str, name: str, nonfinite: bool = True) -> npt.NDArray[np.float64]:
    """A JSON list of numbers as float64 (``"Infinity"``/``"-Infinity"`` too if ``nonfinite``)."""
    if not isinstance(values, list):
        raise TypeError(f"{func}: field {name!r} must be a list.")
    out = []
    for i, v in enumerate(values):
        if nonfinite and isinstance(v, str) and v in _NONFINITE:
            v = _NONFINITE[v]
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"{func}: field {name!r} must hold numbers; got {v!r:.60} at index {i}.")
        out.append(v)
    try:
        return np.array(out, dtype=np.float64)
    except OverflowError:
        raise _bad(func, f"field {name!r} holds a number too large for float64.") from None


def decode_bools(values: Any, func: str, name: str) -> npt.NDArray[np.bool_]:
    if not isinstance(values, list):
        raise TypeError(f"{func}: field {name!r} must be a list.")
    for i, v in enumerate(values):
        if not isinstance(v, bool):
            raise TypeError(f"{func}: field {name!r} must hold bools; got {v!r:.60} at index {i}.")
    return np.array(values, dtype=bool)


def state_from_dict(d: Any, func: str = "from_dict") -> ExactState:
    """The state of a dict from ``to_dict``, every field checked."""
    if not isinstance(d, dict):
        raise TypeError(f"{func}: argument 'd' must be a dict from to_dict(); got {type(d).__name__} instead.")
    allowed = _KEYS | (_OPTIONAL if d.get("version") == 2 else set())
    if not _KEYS <= set(d) <= allowed:
        missing, extra = sorted(_KEYS - set(d)), sorted(set(d) - allowed)
        raise _bad(func, f"fields must be {sorted(_KEYS)} (format 2 also {sorted(_OPTIONAL)}); missing {missing}, unexpected {extra}.")
    if d["format"] != FORMAT:
        raise _bad(func, f"field 'format' must be {FORMAT!r}; got {d['format']!r:.60} instead.")
    if isinstance(d["version"], bool) or not isinstance(d["version"], int) or d["version"] not in VERSIONS:
        raise _bad(func, f"field 'version' must be one of {VERSIONS} (scored_pr's state formats); got {d['version']!r:.60}.")
    weights = None
    if "weights" in d:
        w = d["weights"]
        if not isinstance(w, list) or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in w):
            raise TypeError(f"{func}: field 'weights' must be a list of numbers.")
        weights = np.array(w, dtype=np.float64)
    scores, correct = d["scores"], d["correct"]
    if not isinstance(scores, list) or not isinstance(correct, list):
        raise TypeError(f"{func}: fields 'scores' and 'correct' must be lists.")
    flags = decode_bools(correct, func, "correct")
    neg = -decode_numbers(scores, func, "scores")
    return check(d["ties"], neg, flags, d["misses"], d["negative_misses"], func, weights, d.get("pos_label"))


def state_arrays(st: ExactState, extra: dict[str, Any] | None = None) -> dict[str, np.ndarray]:
    """The members of a state file holding ``st`` (``extra``, JSON-safe, rides in the header)."""
    meta: dict[str, Any] = {"format": FORMAT, "kind": "exact", "version": _version_of(st), "ties": st.ties,
                            "num_cases": int(st.neg.size), "misses": st.misses, "negative_misses": st.negative_misses}
    if st.pos_label is not None:
        meta["pos_label"] = st.pos_label
    if extra is not None:
        meta["extra"] = extra
    arrays: dict[str, np.ndarray] = {
        "meta": _statefile.encode_meta(meta),
        "neg_scores": st.neg,
        "correct": np.packbits(st.correct),
    }
    if st.weights is not None:
        arrays["weights"] = st.weights
    return arrays


def write(path: str | os.PathLike[str], st: ExactState, extra: dict[str, Any] | None = None) -> None:
    """Write ``st`` to ``path`` atomically; ``extra`` (JSON-safe) rides in the header (checkpoints)."""
    _statefile.write_npz(path, state_arrays(st, extra))


@_statefile.file_reader
def read(path: str | os.PathLike[str], func: str = "load") -> tuple[ExactState, Any]:
    """The state saved at ``path`` and the ``extra`` header it was saved with (None if none)."""
    with _statefile.NpzReader(path, func) as npz:
        meta = _statefile.read_meta(npz, "exact")
        if npz.names not in ({"meta", "neg_scores", "correct"}, {"meta", "neg_scores", "correct", "weights"}):
            raise npz.error(f"is not a scored_pr state file (arrays {npz.listing}).")
        version = meta.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version not in VERSIONS:
            raise npz.error(f"has state format version {version!r}; this scored_pr reads {VERSIONS}.")
        if version == 1 and ("weights" in npz.names or "pos_label" in meta):
            raise npz.error("has weights or a positive label, which state format 1 does not have.")
        n = meta.get("num_cases")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise npz.error(f"has an invalid case count {n!r:.60}.")
        # The header's count bounds every allocation below: each array must
        # declare exactly the shape that count implies before it is read.
        neg = npz.read("neg_scores", np.float64, shape=(n,))
        packed = npz.read("correct", np.uint8, shape=((n + 7) // 8,))
        weights = npz.read("weights", np.float64, shape=(n,)) if "weights" in npz.names else None
    correct = np.unpackbits(packed, count=n).astype(bool)
    st = check(
        meta.get("ties"), neg, correct, meta.get("misses"), meta.get("negative_misses"), func, weights,
        meta.get("pos_label"),
    )
    return st, meta.get("extra")


_PICKLE_KEYS = {"ties", "neg_scores", "correct", "misses", "negative_misses"}


def state_to_pickle(st: ExactState) -> dict[str, Any]:
    """What ``__reduce__`` pickles: the ranking, the counts and the format version."""
    state = {
        "version": _version_of(st), "ties": st.ties, "neg_scores": st.neg, "correct": st.correct,
        "misses": st.misses, "negative_misses": st.negative_misses,
    }
    if st.weights is not None:
        state["weights"] = st.weights
    if st.pos_label is not None:
        state["pos_label"] = st.pos_label
    return state


def state_from_pickle(state: Any, func: str = "unpickle") -> ExactState:
    """The state of a pickled state dict (validated like every other loader).

    States pickled before the version field existed are format 1.
    """
    if not isinstance(state, dict):
        raise TypeError(f"{func}: the pickled state must be a dict; got {type(state).__name__} instead.")
    version = state.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version not in VERSIONS:
        raise _bad(func, f"the pickled state has format version {version!r:.60}; this scored_pr reads {VERSIONS}.")
    keys = set(state) - {"version"}
    allowed = _PICKLE_KEYS | (_OPTIONAL if version == 2 else set())
    if not _PICKLE_KEYS <= keys <= allowed:
        missing, extra = sorted(_PICKLE_KEYS - keys), sorted(keys - allowed)
        raise _bad(func, f"the pickled state is not a scored_pr evaluator's: missing {missing}, unexpected {extra}.")
    try:
        neg = np.asarray(state["neg_scores"], dtype=np.float64)
        correct = np.asarray(state["correct"], dtype=bool)
        weights = np.asarray(state["weights"], dtype=np.float64) if "weights" in state else None
    except (TypeError, ValueError) as exc:
        raise _bad(func, f"the pickled scores, labels or weights are not numeric arrays ({exc}).") from None
    return check(
        state["ties"], neg, correct, state["misses"], state["negative_misses"], func, weights,
        state.get("pos_label"),
    )


# ------------------------- through the evaluator's kind (its state hooks, registered with _kinds)

def save(ev: Any, path: str | os.PathLike[str], extra: dict[str, Any] | None = None) -> None:
    """Write evaluator ``ev`` to ``path`` atomically, with ``extra`` in the header (the CLI's checkpoints)."""
    to_state, _ = state_hooks(type(ev))
    write(path, to_state(ev), extra)


def load_with_extra(cls: Any, path: str | os.PathLike[str], func: str = "load") -> tuple[Any, Any]:
    """The evaluator of class ``cls`` saved at ``path`` and the ``extra`` header it was saved with."""
    st, extra = read(path, func)
    return state_hooks(cls)[1](cls, st), extra


def pickle_state(ev: Any) -> dict[str, Any]:
    """What pickling ``ev`` stores (see :func:`state_to_pickle`)."""
    return state_to_pickle(state_hooks(type(ev))[0](ev))


def restore(cls: Any, state: Any) -> Any:
    """The unpickling entry point of scored_pr 0.1.0's pickles: ``cls`` built from ``state``."""
    return state_hooks(cls)[1](cls, state_from_pickle(state))
