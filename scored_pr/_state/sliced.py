"""State of a SlicedEvaluation as a JSON-safe dict, a pickle-free file, and for pickle.

The state is the evaluation's setup (its keys, the crossings kept, the kind of
each slice's evaluator and that kind's options, ``max_slices``) and, for each
slice in the order it was first seen, its (key, value) pairs and its
evaluator's own state dict (``to_dict()`` of that kind). This module knows no
evaluator class: it checks the sliced part of the state, and the evaluation
builds each slice's evaluator with its kind's ``from_dict``, which checks the
rest. A bad input raises ValueError or TypeError and never yields a
half-built evaluation.
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

import numpy as np

from . import statefile as _statefile
from .exact import _bad

FORMAT = "scored_pr.SlicedEvaluation"
KIND = "sliced"
VERSION = 1
_KEYS = {"format", "kind", "version", "keys", "slices", "slice_kind", "options", "max_slices", "entries"}
_VALUE_TYPES = (str, int, float, bool, type(None))


class SlicedState(NamedTuple):
    keys: tuple[str, ...]
    specs: tuple[tuple[str, ...], ...]
    kind: str
    options: dict[str, Any]
    max_slices: int
    #: ((key, value) pairs, the slice evaluator's to_dict()) per slice
    entries: list[tuple[tuple[tuple[str, Any], ...], dict[str, Any]]]


def _header(st: SlicedState) -> dict[str, Any]:
    return {"format": FORMAT, "kind": KIND, "version": VERSION, "keys": list(st.keys),
            "slices": [list(s) for s in st.specs], "slice_kind": st.kind, "options": dict(st.options),
            "max_slices": st.max_slices}


def _check(d: dict[str, Any], func: str) -> SlicedState:
    """The header fields of ``d`` checked (entries as given, checked by :func:`_entries`)."""
    if d.get("format") != FORMAT or d.get("kind") != KIND:
        raise _bad(func, f"the state is not a SlicedEvaluation's (format {d.get('format')!r:.60}).")
    if d.get("version") != VERSION:
        raise _bad(func, f"unsupported SlicedEvaluation state version {d.get('version')!r:.20}.")
    keys = d.get("keys")
    if not isinstance(keys, list) or not keys or not all(isinstance(k, str) and k for k in keys) or len(set(keys)) != len(keys):
        raise _bad(func, "the state's 'keys' must be a list of distinct names.")
    specs = d.get("slices")
    if not isinstance(specs, list) or not all(isinstance(s, list) and all(k in keys for k in s) for s in specs):
        raise _bad(func, "the state's 'slices' must be a list of crossings of its keys.")
    kind, options, max_slices = d.get("slice_kind"), d.get("options"), d.get("max_slices")
    if not isinstance(kind, str) or not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise _bad(func, "the state's 'slice_kind' and 'options' must be a kind name and a dict.")
    if isinstance(max_slices, bool) or not isinstance(max_slices, int) or max_slices < 1:
        raise _bad(func, f"the state's 'max_slices' must be a positive int; got {max_slices!r:.40}.")
    return SlicedState(tuple(keys), tuple(tuple(s) for s in specs), kind, options, max_slices, [])


def _entries(raw: Any, st: SlicedState, func: str) -> SlicedState:
    if not isinstance(raw, list):
        raise _bad(func, "the state's 'entries' must be a list of [pairs, state] items.")
    seen: set[tuple[tuple[str, Any], ...]] = set()
    entries = []
    for i, item in enumerate(raw):
        if not isinstance(item, (list, tuple)) or len(item) != 2 or not isinstance(item[1], dict):
            raise _bad(func, f"the state's entry {i} must be [pairs, state dict].")
        pairs = item[0]
        if not isinstance(pairs, (list, tuple)) or not all(
            isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[1], _VALUE_TYPES) for p in pairs
        ):
            raise _bad(func, f"the state's entry {i} must name its slice as [key, value] pairs.")
        key = tuple((str(k), v) for k, v in pairs)
        names = tuple(k for k, _ in key)
        if names not in st.specs or key in seen:
            raise _bad(func, f"the state's entry {i} names a slice {names!r} that is not kept, or twice.")
        seen.add(key)
        entries.append((key, item[1]))
    if len(entries) - (1 if () in st.specs else 0) > st.max_slices:
        raise _bad(func, f"the state holds more slices than its max_slices={st.max_slices}.")
    return st._replace(entries=entries)


def to_dict(st: SlicedState) -> dict[str, Any]:
    """The JSON-safe dict of a state: the header and ``entries`` as [[[key, value], ...], state dict] items."""
    return {**_header(st), "entries": [[[list(p) for p in key], sub] for key, sub in st.entries]}


def from_dict(d: Any, func: str = "from_dict") -> SlicedState:
    if not isinstance(d, dict):
        raise TypeError(f"{func}: argument 'd' must be a dict from to_dict(); got {type(d).__name__} instead.")
    if set(d) != _KEYS:
        raise _bad(func, f"fields must be {sorted(_KEYS)}; missing {sorted(_KEYS - set(d))}, unexpected {sorted(set(d) - _KEYS)}.")
    return _entries(d["entries"], _check(d, func), func)


def save(st: SlicedState, path: str | os.PathLike[str], extra: dict[str, Any] | None = None) -> None:
    """Write ``st`` atomically: the header as ``meta`` and the slices' states as one JSON member.

    ``extra`` (JSON-safe) rides in the header: ``scored-pr stream --by``'s checkpoints keep there the
    input line they consumed (:func:`load_with_extra` reads it back).
    """
    meta = {**_header(st), "num_slices": len(st.entries)}
    if extra is not None:
        meta["extra"] = extra
    arrays: dict[str, np.ndarray] = {
        "meta": _statefile.encode_meta(meta),
        "entries": _statefile.encode_json(to_dict(st)["entries"], "slices"),
    }
    _statefile.write_npz(path, arrays)


def load(path: str | os.PathLike[str], func: str = "load") -> SlicedState:
    """The state saved at ``path`` (the slices' member bounded by the file's size before it is parsed)."""
    return load_with_extra(path, func)[0]


@_statefile.file_reader
def load_with_extra(path: str | os.PathLike[str], func: str = "load") -> tuple[SlicedState, Any]:
    """The state saved at ``path`` and the ``extra`` header it was saved with (None if none)."""
    with _statefile.NpzReader(path, func) as npz:
        meta = _statefile.read_meta(npz, KIND)
        if npz.names != {"meta", "entries"}:
            raise npz.error(f"is not a scored_pr sliced state file (arrays {npz.listing}).")
        n = meta.get("num_slices")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise npz.error(f"has an invalid num_slices {n!r:.40}.")
        raw = _statefile.read_json(npz, "entries")
    if not isinstance(raw, list) or len(raw) != n:
        raise _bad(func, f"the state file's slices do not match its header's num_slices={n}.")
    header = {k: v for k, v in meta.items() if k not in ("num_slices", "extra")}
    return _entries(raw, _check(header, func), func), meta.get("extra")


def to_pickle(st: SlicedState, evaluators: list[Any]) -> dict[str, Any]:
    """What pickling stores: the header and each slice's (pairs, evaluator), the evaluators pickled as themselves."""
    return {**_header(st), "entries": [(key, ev) for (key, _), ev in zip(st.entries, evaluators)]}


def from_pickle(state: Any, func: str = "unpickle") -> tuple[SlicedState, list[Any]]:
    if not isinstance(state, dict) or set(state) != _KEYS:
        raise _bad(func, "the pickled state is not a scored_pr SlicedEvaluation's.")
    st = _check(state, func)
    raw = state["entries"]
    if not isinstance(raw, list) or not all(isinstance(e, tuple) and len(e) == 2 for e in raw):
        raise _bad(func, "the pickled slices are not (pairs, evaluator) pairs.")
    checked = _entries([(e[0], {}) for e in raw], st, func)
    return checked, [e[1] for e in raw]
