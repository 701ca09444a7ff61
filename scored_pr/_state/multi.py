"""State of a MultiQueryEvaluation as a JSON-safe dict, a pickle-free file, and for pickle.

The state is the tie policy and positive label, every query's exact state
(:class:`scored_pr._state.exact.ExactState`) in the order the queries were
first added, and, for an evaluation read by ``from_trec``, the trec view: the
judgements, the run (each query's documents and scores in file order, its
run id), the two file names and the trec_eval options, from which
``MultiQueryEvaluation.measure`` recomputes every trec_eval measure.

This module knows no evaluator class: it checks the plain state on the way in
and out (``MultiState``), and the evaluation builds itself from it. A bad
input raises ValueError or TypeError and never yields a half-built evaluation.
"""

from __future__ import annotations

import math
import os
from typing import Any, NamedTuple

import numpy as np

from . import exact as _exact
from . import statefile as _statefile
from .exact import ExactState, _bad, _count

FORMAT = "scored_pr.MultiQueryEvaluation"
VERSION = 1
_KEYS = {"format", "kind", "version", "ties", "queries", "trec"}
_OPTIONAL = {"pos_label"}
_TREC_KEYS = {"qrels", "run", "run_id", "qrels_source", "run_source", "relevance_level", "complete", "max_docs",
              "judged_only", "num_docs_in_coll"}
#: a C long, as trec_eval reads grades and options
_LONG = 2**63


class MultiState(NamedTuple):
    """Everything a multi-query evaluation's answers depend on, as plain data."""

    ties: str
    pos_label: Any
    queries: list[tuple[Any, ExactState]]  #: (query id, its evaluator's state), in first-added order
    trec: dict[str, Any] | None  #: the trec view (keys :data:`_TREC_KEYS`), or None


# ------------------------------------------------------------------------- checks


def _check_query_id(q: Any, func: str, index: int) -> Any:
    if isinstance(q, bool) or not isinstance(q, (str, int)):
        raise TypeError(f"{func}: query ids must be str or int; got {q!r:.60} at index {index}.")
    return q


def _check_long(value: Any, func: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not -_LONG <= value < _LONG:
        raise _bad(func, f"trec field {name!r} must be an int (a C long); got {value!r:.60} instead.")
    return value


def check_trec(trec: Any, func: str) -> dict[str, Any] | None:
    """The trec view of a saved evaluation, every field checked (None: none)."""
    if trec is None:
        return None
    if not isinstance(trec, dict) or set(trec) != _TREC_KEYS:
        got = sorted(trec) if isinstance(trec, dict) else type(trec).__name__
        raise _bad(func, f"field 'trec' must be null or a dict with keys {sorted(_TREC_KEYS)}; got {got}.")
    qrels, run = trec["qrels"], trec["run"]
    if not isinstance(qrels, dict) or not isinstance(run, dict):
        raise TypeError(f"{func}: trec fields 'qrels' and 'run' must be dicts.")
    judgements: dict[str, dict[str, int]] = {}
    for q, docs in qrels.items():
        if not isinstance(q, str) or not isinstance(docs, dict):
            raise TypeError(f"{func}: trec 'qrels' must map query ids (str) to {{docno: grade}}; got {q!r:.40}.")
        for d, g in docs.items():
            if not isinstance(d, str):
                raise TypeError(f"{func}: trec 'qrels' docnos must be str; got {d!r:.40} in query {q!r:.40}.")
            _check_long(g, func, f"qrels[{q!r:.40}][{d!r:.40}]")
        judgements[q] = dict(docs)
    rankings: dict[str, list[tuple[str, float]]] = {}
    for q, docs in run.items():
        if not isinstance(q, str) or not isinstance(docs, list):
            raise TypeError(f"{func}: trec 'run' must map query ids (str) to [[docno, score], ...]; got {q!r:.40}.")
        pairs = []
        for i, pair in enumerate(docs):
            if (not isinstance(pair, (list, tuple)) or len(pair) != 2 or not isinstance(pair[0], str)
                    or isinstance(pair[1], bool) or not isinstance(pair[1], (int, float, str))):
                raise TypeError(f"{func}: trec 'run' entries must be [docno, score]; got {pair!r:.60} at index {i} of {q!r:.40}.")
            score = float(_exact.decode_numbers([pair[1]], func, "run score")[0])
            if math.isnan(score):
                raise _bad(func, f"trec 'run' score of {pair[0]!r:.40} in query {q!r:.40} is NaN.")
            pairs.append((pair[0], score))
        if len({d for d, _ in pairs}) != len(pairs):
            raise _bad(func, f"trec 'run' retrieves a document twice for query {q!r:.40}.")
        rankings[q] = pairs
    for name in ("run_id", "qrels_source", "run_source"):
        if not isinstance(trec[name], str):
            raise TypeError(f"{func}: trec field {name!r} must be a str; got {trec[name]!r:.60} instead.")
    for name in ("complete", "judged_only"):
        if not isinstance(trec[name], bool):
            raise TypeError(f"{func}: trec field {name!r} must be a bool; got {trec[name]!r:.60} instead.")
    max_docs = trec["max_docs"]
    if max_docs is not None and (_check_long(max_docs, func, "max_docs") < 0):
        raise _bad(func, f"trec field 'max_docs' must be null or an int >= 0; got {max_docs!r}.")
    return {**trec, "qrels": judgements, "run": rankings,
            "relevance_level": _check_long(trec["relevance_level"], func, "relevance_level"),
            "num_docs_in_coll": _check_long(trec["num_docs_in_coll"], func, "num_docs_in_coll")}


def _check_queries(ties: str, pos_label: Any, queries: list[tuple[Any, ExactState]], func: str) -> None:
    seen = set()
    for i, (q, st) in enumerate(queries):
        _check_query_id(q, func, i)
        if q in seen:
            raise _bad(func, f"query {q!r:.60} appears twice.")
        seen.add(q)
        if st.ties != ties or st.pos_label != pos_label or type(st.pos_label) is not type(pos_label):
            raise _bad(func, f"query {q!r:.60} has ties={st.ties!r:.20}, pos_label={st.pos_label!r:.40}; every "
                             f"query must have the evaluation's ({ties!r}, {pos_label!r:.40}).")


def _check_header(d: dict[str, Any], func: str) -> tuple[str, Any]:
    ties = _exact.check_kind_header(d, func, FORMAT, "multi", VERSION)
    return ties, _exact.check_pos_label(d.get("pos_label"), func)


# ------------------------------------------------------------------------ formats


def _header(st: MultiState) -> dict[str, Any]:
    d: dict[str, Any] = {"format": FORMAT, "kind": "multi", "version": VERSION, "ties": st.ties}
    if st.pos_label is not None:
        d["pos_label"] = st.pos_label
    return d


def _trec_json(trec: dict[str, Any] | None) -> dict[str, Any] | None:
    if trec is None:
        return None
    run = {q: [[d, _exact.encode_scores(np.array([-s]))[0]] for d, s in docs] for q, docs in trec["run"].items()}
    return {**trec, "qrels": {q: dict(docs) for q, docs in trec["qrels"].items()}, "run": run}


def to_dict(st: MultiState) -> dict[str, Any]:
    """The JSON-safe dict of a state: the header, ``queries`` as [id, exact dict] pairs, ``trec``."""
    d = _header(st)
    d["queries"] = [[q, _exact.state_to_dict(qs)] for q, qs in st.queries]
    d["trec"] = _trec_json(st.trec)
    return d


def from_dict(d: Any, func: str = "from_dict") -> MultiState:
    if not isinstance(d, dict):
        raise TypeError(f"{func}: argument 'd' must be a dict from to_dict(); got {type(d).__name__} instead.")
    if not _KEYS <= set(d) <= _KEYS | _OPTIONAL:
        missing, extra = sorted(_KEYS - set(d)), sorted(set(d) - _KEYS - _OPTIONAL)
        raise _bad(func, f"fields must be {sorted(_KEYS)} (optionally {sorted(_OPTIONAL)}); missing {missing}, unexpected {extra}.")
    ties, pos_label = _check_header(d, func)
    if not isinstance(d["queries"], list):
        raise TypeError(f"{func}: field 'queries' must be a list of [query id, state dict] pairs.")
    queries = []
    for i, pair in enumerate(d["queries"]):
        if not isinstance(pair, list) or len(pair) != 2:
            raise TypeError(f"{func}: field 'queries' must hold [query id, state dict] pairs; got {pair!r:.60} at index {i}.")
        queries.append((_check_query_id(pair[0], func, i), _exact.state_from_dict(pair[1], func)))
    _check_queries(ties, pos_label, queries, func)
    return MultiState(ties, pos_label, queries, check_trec(d["trec"], func))


def save(st: MultiState, path: str | os.PathLike[str]) -> None:
    """Write ``st`` atomically: the cases of every query in one set of arrays, cut by ``offsets``."""
    states = [qs for _, qs in st.queries]
    sizes = [qs.neg.size for qs in states]
    weighted = [qs.weights is not None for qs in states]
    meta = {**_header(st), "num_queries": len(states), "num_cases": int(sum(sizes)), "weighted": any(weighted),
            "has_trec": st.trec is not None}
    arrays: dict[str, np.ndarray] = {
        "meta": _statefile.encode_meta(meta),
        "query_ids": _statefile.encode_json([q for q, _ in st.queries], "query ids"),
        "offsets": np.concatenate(([0], np.cumsum(sizes, dtype=np.int64))).astype(np.int64),
        "neg_scores": np.concatenate([qs.neg for qs in states]) if states else np.zeros(0),
        "correct": np.packbits(np.concatenate([qs.correct for qs in states]) if states else np.zeros(0, bool)),
        "misses": np.array([qs.misses for qs in states], dtype=np.int64),
        "negative_misses": np.array([qs.negative_misses for qs in states], dtype=np.int64),
    }
    if any(weighted):
        arrays["weights"] = np.concatenate(
            [qs.weights if qs.weights is not None else np.ones(qs.neg.size) for qs in states])
        arrays["weighted_queries"] = np.packbits(np.array(weighted, dtype=bool))
    if st.trec is not None:
        arrays["trec"] = _statefile.encode_json(_trec_json(st.trec), "trec view")
    _statefile.write_npz(path, arrays)


@_statefile.file_reader
def load(path: str | os.PathLike[str], func: str = "load") -> MultiState:
    """The state saved at ``path``; every array's shape is fixed by the header before it is read."""
    with _statefile.NpzReader(path, func) as npz:
        meta = _statefile.read_meta(npz, "multi")
        ties, pos_label = _check_header(meta, func)
        counts = {}
        for name in ("num_queries", "num_cases"):
            v = meta.get(name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise npz.error(f"has an invalid {name} {v!r:.60}.")
            counts[name] = v
        q, n = counts["num_queries"], counts["num_cases"]
        weighted, has_trec = meta.get("weighted"), meta.get("has_trec")
        if not isinstance(weighted, bool) or not isinstance(has_trec, bool):
            raise npz.error("has invalid 'weighted' or 'has_trec' flags.")
        expected = {"meta", "query_ids", "offsets", "neg_scores", "correct", "misses", "negative_misses"}
        expected |= {"weights", "weighted_queries"} if weighted else set()
        expected |= {"trec"} if has_trec else set()
        if npz.names != expected:
            raise npz.error(f"is not a scored_pr multi-query state file (arrays {npz.listing}).")

        # the offsets first: their q + 1 int64 must be in the file, which bounds q
        offsets = npz.read("offsets", np.int64, shape=(q + 1,))
        # query ids and the trec view hold what the evaluation was given (ids and docnos
        # of any length): bounded by the file's size, as what save() writes must load;
        # the ids are one list of q ids, checked before they are parsed
        ids = _statefile.read_json(npz, "query_ids", max_containers=1, max_items=max(q, 1))
        if not isinstance(ids, list) or len(ids) != q:
            raise npz.error(f"has {len(ids) if isinstance(ids, list) else 'no'} query ids for {q} queries.")
        neg = npz.read("neg_scores", np.float64, shape=(n,))
        correct = np.unpackbits(npz.read("correct", np.uint8, shape=((n + 7) // 8,)), count=n).astype(bool)
        misses = npz.read("misses", np.int64, shape=(q,))
        negative_misses = npz.read("negative_misses", np.int64, shape=(q,))
        weights = npz.read("weights", np.float64, shape=(n,)) if weighted else None
        flags = (np.unpackbits(npz.read("weighted_queries", np.uint8, shape=((q + 7) // 8,)), count=q).astype(bool)
                 if weighted else np.zeros(q, dtype=bool))
        trec = _statefile.read_json(npz, "trec") if has_trec else None
    if offsets[0] != 0 or offsets[-1] != n or (np.diff(offsets) < 0).any():
        raise _bad(func, "the state's query offsets do not cut its cases in order.")
    queries = []
    for i, qid in enumerate(ids):
        a, b = int(offsets[i]), int(offsets[i + 1])
        w = weights[a:b] if weights is not None and flags[i] else None
        qs = _exact.check(ties, neg[a:b], correct[a:b], _count(int(misses[i]), func, "misses"),
                     _count(int(negative_misses[i]), func, "negative_misses"), func, w, pos_label)
        queries.append((_check_query_id(qid, func, i), qs))
    _check_queries(ties, pos_label, queries, func)
    return MultiState(ties, pos_label, queries, check_trec(trec, func))


def to_pickle(st: MultiState) -> dict[str, Any]:
    """What pickling stores: the header and every query's pickled exact state (arrays, not lists)."""
    return {**_header(st), "queries": [(q, _exact.state_to_pickle(qs)) for q, qs in st.queries], "trec": st.trec}


def from_pickle(state: Any, func: str = "unpickle") -> MultiState:
    if not isinstance(state, dict) or not _KEYS <= set(state) <= _KEYS | _OPTIONAL:
        raise _bad(func, "the pickled state is not a scored_pr MultiQueryEvaluation's.")
    ties, pos_label = _check_header(state, func)
    if not isinstance(state["queries"], list):
        raise _bad(func, "the pickled queries are not a list.")
    queries = []
    for i, pair in enumerate(state["queries"]):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise _bad(func, f"the pickled queries must be (query id, state) pairs; got {pair!r:.60} at index {i}.")
        queries.append((_check_query_id(pair[0], func, i), _exact.state_from_pickle(pair[1], func)))
    _check_queries(ties, pos_label, queries, func)
    return MultiState(ties, pos_label, queries, check_trec(state["trec"], func))
