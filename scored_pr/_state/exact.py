"""State of an evaluator as a JSON-safe dict, a pickle-free file, and for pickle.

The state is the ranking (scores in rank order, ties in insertion order, and
correctness), the sample weights if any, the two miss counts, the tie policy
and the positive label; every result is a function of it, so a round trip
reproduces every result exactly. Format 1 has no weights and no positive
label; format 2 adds both (optional). An evaluator without either is written
as format 1, which every scored_pr reads. Every
loader validates everything before it builds anything: a bad input raises
ValueError or TypeError and never yields a half-built evaluator.
"""

from __future__ import annotations

import json
import math
import os
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import statefile as _statefile
from .._evaluators.store import CaseStore
from .._validation import MAX_COUNT, TIE_POLICIES

if TYPE_CHECKING:
    from .._evaluators.exact import ScoredPrecisionRecallEvaluation

FORMAT = "scored_pr.ScoredPrecisionRecallEvaluation"
VERSION = 2
VERSIONS = (1, 2)
_KEYS = {"format", "version", "ties", "scores", "correct", "misses", "negative_misses"}
_OPTIONAL = {"weights", "pos_label"}  # format 2
_NONFINITE = {"Infinity": math.inf, "-Infinity": -math.inf}


def _bad(func: str, what: str) -> ValueError:
    return ValueError(f"{func}: {what}")


def _count(value: Any, func: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{func}: field '{name}' must be a non-negative int; got {value!r:.60} instead.")
    if value < 0 or value > MAX_COUNT:
        raise _bad(func, f"field '{name}' must be a non-negative int of at most 2**53; got {value!r:.60} instead.")
    return int(value)


def _version_of(ev: ScoredPrecisionRecallEvaluation) -> int:
    return 2 if ev.weighted or ev.pos_label is not None else 1


def _check_version(version: Any, where: str, func: str) -> int:
    if isinstance(version, bool) or not isinstance(version, int) or version not in VERSIONS:
        raise _bad(func, f"{where} has state format version {version!r:.60}; this scored_pr reads {VERSIONS}.")
    return version


def build(
    cls: type[ScoredPrecisionRecallEvaluation],
    ties: Any,
    neg: npt.NDArray[np.float64],
    correct: npt.NDArray[np.bool_],
    misses: Any,
    negative_misses: Any,
    func: str,
    weights: npt.NDArray[np.float64] | None = None,
    pos_label: Any = None,
) -> ScoredPrecisionRecallEvaluation:
    """Validate a ranking and build the evaluator holding it."""
    if not isinstance(ties, str) or ties not in TIE_POLICIES:
        raise _bad(func, f"field 'ties' must be one of {TIE_POLICIES}; got {ties!r:.60} instead.")
    if pos_label is not None and not isinstance(pos_label, (str, int, float)) or (
        isinstance(pos_label, float) and math.isnan(pos_label)
    ):
        raise _bad(func, f"field 'pos_label' must be a str, number or bool; got {pos_label!r:.60} instead.")
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
    ev = cls(ties=ties, pos_label=pos_label)
    ev._store = CaseStore.from_sorted(neg, correct, weights)
    ev._misses = misses
    ev._negative_misses = negative_misses
    return ev


def to_dict(ev: ScoredPrecisionRecallEvaluation) -> dict[str, Any]:
    neg, correct = ev._store.arrays()
    scores = [-v if math.isfinite(v) else ("-Infinity" if v > 0 else "Infinity") for v in neg.tolist()]
    d = {
        "format": FORMAT,
        "version": _version_of(ev),
        "ties": ev.ties,
        "scores": scores,
        "correct": correct.tolist(),
        "misses": ev.num_misses,
        "negative_misses": ev.num_negative_misses,
    }
    weights = ev._store.weights()
    if weights is not None:
        d["weights"] = weights.tolist()
    if ev.pos_label is not None:
        d["pos_label"] = ev.pos_label
    return d


def from_dict(cls: type[ScoredPrecisionRecallEvaluation], d: Any) -> ScoredPrecisionRecallEvaluation:
    func = "from_dict"
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
    for i, v in enumerate(correct):
        if not isinstance(v, bool):
            raise TypeError(f"{func}: field 'correct' must hold bools; got {v!r:.60} at index {i}.")
    values = []
    for i, v in enumerate(scores):
        if isinstance(v, str) and v in _NONFINITE:
            v = _NONFINITE[v]
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"{func}: field 'scores' must hold numbers; got {v!r:.60} at index {i}.")
        values.append(v)
    try:
        neg = -np.array(values, dtype=np.float64)
    except OverflowError:
        raise _bad(func, "field 'scores' holds a number too large for float64.") from None
    return build(
        cls, d["ties"], neg, np.array(correct, dtype=bool), d["misses"], d["negative_misses"], func, weights,
        d.get("pos_label"),
    )


def save(ev: ScoredPrecisionRecallEvaluation, path: str | os.PathLike[str], extra: dict[str, Any] | None = None) -> None:
    """Write ``ev`` to ``path`` atomically; ``extra`` (JSON-safe) rides in the header (checkpoints)."""
    neg, correct = ev._store.arrays()
    weights = ev._store.weights()
    meta: dict[str, Any] = {"format": FORMAT, "version": _version_of(ev), "ties": ev.ties, "num_cases": int(neg.size),
                            "misses": ev.num_misses, "negative_misses": ev.num_negative_misses}
    if ev.pos_label is not None:
        meta["pos_label"] = ev.pos_label
    if extra is not None:
        meta["extra"] = extra
    arrays: dict[str, np.ndarray] = {
        "meta": np.frombuffer(json.dumps(meta, allow_nan=False).encode("utf-8"), dtype=np.uint8),
        "neg_scores": neg,
        "correct": np.packbits(correct),
    }
    if weights is not None:
        arrays["weights"] = weights
    _statefile.write_npz(path, arrays)


#: Largest JSON header a state file may carry (ours are about 200 bytes).
_MAX_META_BYTES = 1 << 16


def load(cls: type[ScoredPrecisionRecallEvaluation], path: str | os.PathLike[str]) -> ScoredPrecisionRecallEvaluation:
    return load_with_extra(cls, path)[0]


def load_with_extra(
    cls: type[ScoredPrecisionRecallEvaluation], path: str | os.PathLike[str], func: str = "load"
) -> tuple[ScoredPrecisionRecallEvaluation, Any]:
    """The evaluator saved at ``path`` and the ``extra`` header it was saved with (None if none)."""
    with _statefile.NpzReader(path, func) as npz:
        if npz.names not in ({"meta", "neg_scores", "correct"}, {"meta", "neg_scores", "correct", "weights"}):
            raise npz.error(f"is not a scored_pr state file (arrays {sorted(npz.names)}).")
        meta_raw = npz.read("meta", np.uint8, max_items=_MAX_META_BYTES)
        try:
            meta = json.loads(meta_raw.tobytes().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise npz.error("has a corrupted header.") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise npz.error("is not a scored_pr state file.")
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
    ev = build(
        cls, meta.get("ties"), neg, correct, meta.get("misses"), meta.get("negative_misses"), func, weights,
        meta.get("pos_label"),
    )
    return ev, meta.get("extra")


_PICKLE_KEYS = {"ties", "neg_scores", "correct", "misses", "negative_misses"}


def pickle_state(ev: ScoredPrecisionRecallEvaluation) -> dict[str, Any]:
    """What ``__reduce__`` pickles: the ranking, the counts and the format version."""
    neg, correct = ev._store.arrays()
    state = {
        "version": _version_of(ev), "ties": ev.ties, "neg_scores": neg, "correct": correct,
        "misses": ev.num_misses, "negative_misses": ev.num_negative_misses,
    }
    weights = ev._store.weights()
    if weights is not None:
        state["weights"] = weights
    if ev.pos_label is not None:
        state["pos_label"] = ev.pos_label
    return state


def restore(cls: type[ScoredPrecisionRecallEvaluation], state: Any) -> ScoredPrecisionRecallEvaluation:
    """Unpickling entry point (validated like every other loader).

    States pickled before the version field existed are format 1.
    """
    func = "unpickle"
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
    return build(
        cls, state["ties"], neg, correct, state["misses"], state["negative_misses"], func, weights,
        state.get("pos_label"),
    )
