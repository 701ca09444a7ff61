"""The trec_eval driver: which queries are evaluated, per-query values, the ``all`` line."""

from __future__ import annotations

import math
import os
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Union

from .._validation import check_c_long, check_grades, check_max_docs, check_measure_spec, check_trec_source
from ._cnum import LONG_MAX, LONG_MIN, seq_sum
from ._format import format_lines
from ._parse import GRADE_RANGE, Qrels, Run, read_qrels, read_run
from ._ranking import RankedRels, rank_query
from ._registry import Env, Selected, parse_measures

__all__ = ["TrecEval", "TrecMeasure", "TrecResults"]

#: The document trec_eval 10 "retrieves" for a query that has judgements but no run, under ``-c``.
BOGUS_DOCNO = "ceci_nest_pas_un_docno"

QrelsLike = Union[Qrels, Mapping[str, Mapping[str, int]], str, "os.PathLike[str]"]
RunLike = Union[Run, Mapping[str, Mapping[str, float]], str, "os.PathLike[str]"]


class TrecMeasure(NamedTuple):
    """One trec_eval measure: its printed name, the value of each query and the ``all`` value."""

    name: str
    per_query: dict[str, Any]
    mean: Any


@dataclass(frozen=True)
class TrecResults:
    """The values of a set of measures, per query and over all queries (trec_eval's ``all`` lines).

    Attributes
    ----------
    selection : tuple of Selected
        The measures, in trec_eval's printing order.
    per_query : dict
        ``per_query[query][name]``: every printed name of every measure (for
        gm_map and gm_bpref, the per-query logarithm trec_eval averages).
    summary : dict
        ``summary[name]``: the ``all`` value.
    queries : list of str
        The evaluated queries, in trec_eval's order (byte order of the id).
    """

    selection: tuple[Selected, ...]
    per_query: dict[str, dict[str, Any]]
    summary: dict[str, Any]
    queries: list[str]
    run_id: str

    def format(self, per_query: bool = False, summary: bool = True) -> str:
        """The text trec_eval prints (``-q`` for ``per_query``, ``-n`` for ``summary=False``)."""
        lines = format_lines(self.selection, self.queries, self.per_query, self.summary, per_query, summary)
        return "".join(line + "\n" for line in lines)


def _as_qrels(qrels: QrelsLike) -> Qrels:
    if isinstance(qrels, Qrels):
        return qrels
    if isinstance(qrels, (str, os.PathLike)):
        return read_qrels(qrels)
    check_trec_source(qrels, Qrels, "TrecEval", "qrels")
    judgements = {str(q): {str(d): int(g) for d, g in docs.items()} for q, docs in qrels.items()}
    check_grades(judgements, LONG_MIN, LONG_MAX, GRADE_RANGE, "TrecEval")
    return Qrels(judgements)


def _as_run(run: RunLike) -> Run:
    if isinstance(run, Run):
        return run
    if isinstance(run, (str, os.PathLike)):
        return read_run(run)
    check_trec_source(run, Run, "TrecEval", "run")
    return Run({str(q): [(str(d), float(s)) for d, s in docs.items()] for q, docs in run.items()}, "run")


class TrecEval:
    """trec_eval over one qrels and one run, with its options.

    Parameters
    ----------
    qrels : path, Qrels or mapping
        The judgements (``{query: {docno: grade}}`` for a mapping).
    run : path, Run or mapping
        The run (``{query: {docno: score}}`` for a mapping).
    relevance_level : int, default 1
        ``-l``: the least grade that counts as relevant.
    complete : bool, default False
        ``-c``: evaluate every query of the qrels; one without a run scores
        as a run that retrieved nothing (trec_eval 10 evaluates it against a
        single unjudged document and resets the counts it would disturb).
        Otherwise only the queries in both files are evaluated.
    max_docs : int or None
        ``-M``: evaluate only the first ``max_docs`` documents of each ranking.
    judged_only : bool, default False
        ``-J``: drop unjudged documents from every ranking first.
    num_docs_in_coll : int, default 0
        ``-N``: the collection size, used by ``utility``'s fourth coefficient.

    Notes
    -----
    Documents are ranked as trec_eval ranks them: by score descending, ties
    by document id descending; the rank column of the run is ignored.
    Queries are evaluated in byte order of their ids, as trec_eval prints them.

    Examples
    --------
    >>> te = TrecEval({"q1": {"a": 1, "b": 0, "c": 2}}, {"q1": {"a": 0.9, "x": 0.8, "c": 0.1}})
    >>> te.measure("P.2").per_query, te.measure("map").mean
    ({'q1': 0.5}, 0.8333333333333333)
    >>> [line.split("\\t") for line in te.report(["map", "ndcg_cut.3"]).splitlines()]
    [['map                   ', 'all', '0.8333'], ['ndcg_cut_3            ', 'all', '0.7602']]
    """

    def __init__(
        self,
        qrels: QrelsLike,
        run: RunLike,
        *,
        relevance_level: int = 1,
        complete: bool = False,
        max_docs: int | None = None,
        judged_only: bool = False,
        num_docs_in_coll: int = 0,
    ) -> None:
        check_c_long(relevance_level, LONG_MIN, LONG_MAX, "TrecEval", "relevance_level")
        check_c_long(num_docs_in_coll, LONG_MIN, LONG_MAX, "TrecEval", "num_docs_in_coll")
        check_max_docs(max_docs, LONG_MAX, "TrecEval")
        self.qrels = _as_qrels(qrels)
        self.run = _as_run(run)
        self.relevance_level = relevance_level
        self.complete = bool(complete)
        self.max_docs = max_docs
        self.judged_only = bool(judged_only)
        self.env = Env(num_docs_in_coll)
        self._ranked: dict[str, RankedRels] = {}

    def queries(self) -> list[str]:
        """The evaluated queries in trec_eval's order: judged ones with a run (every judged one under ``complete``)."""
        run = self.run.rankings
        return sorted(q for q in self.qrels.judgements if self.complete or q in run)

    def missing(self, query: str) -> bool:
        """Whether ``query`` is judged but absent from the run (scored as empty under ``complete``)."""
        return query not in self.run.rankings

    def ranked(self, query: str) -> RankedRels:
        """The :class:`~scored_pr.trec._ranking.RankedRels` of ``query`` under these options."""
        r = self._ranked.get(query)
        if r is None:
            docs = self.run.rankings.get(query, [(BOGUS_DOCNO, 1.0)])
            r = rank_query(self.qrels.judgements[query], docs, self.relevance_level, self.max_docs, self.judged_only)
            self._ranked[query] = r
        return r

    def _values(self, s: Selected, query: str) -> list[Any]:
        r = self.ranked(query)
        values = s.measure.compute(r, s.params, self.env)
        if self.missing(query) and s.measure.name in _RESET_WHEN_MISSING:
            # trec_eval resets by printed name: num_ret, utility, relstring and rbp_resid only when
            # printed without parameters (utility_2,-1,0,0 keeps its value), every unj_k.
            reset = _RESET_WHEN_MISSING[s.measure.name]
            values = [reset if name == s.measure.name or name.startswith("unj") else v for name, v in zip(s.names, values)]
        return values

    def evaluate(self, measures: Iterable[str] | str = ("official",)) -> TrecResults:
        """Compute measures (``-m`` specifications) per query and over all queries.

        Raises
        ------
        ValueError
            On a bad measure specification, or when no query has both
            judgements and a run (trec_eval: "No queries with both results
            and relevance info").
        """
        selection = tuple(parse_measures([measures] if isinstance(measures, str) else measures))
        queries = self.queries()
        if not queries:
            raise ValueError("no query has both judgements and a run (trec_eval: 'No queries with both results and relevance info')")
        per_query: dict[str, dict[str, Any]] = {q: {} for q in queries}
        summary: dict[str, Any] = {}
        for s in selection:
            columns: list[list[Any]] = [[] for _ in s.names]
            for q in queries:
                for name, column, value in zip(s.names, columns, self._values(s, q)):
                    per_query[q][name] = value
                    column.append(value)
            for name, column in zip(s.names, columns):
                value = _summarise(s.measure.average, column, self.run.run_id)
                if value is not _NONE:
                    summary[name] = value
            if s.measure.name == "num_rel" and self.complete:
                # trec_eval 10 (m_num_rel.c, te_calc_avg_num_rel) recounts the qrels under -c: every
                # judgement with a grade > 0, whatever the relevance level -l says.
                summary["num_rel"] = sum(int(r.grade_counts[r.grades > 0].sum()) for r in map(self.ranked, queries))
        return TrecResults(selection, per_query, summary, queries, self.run.run_id)

    def measure(self, spec: str) -> TrecMeasure:
        """One measure by its trec_eval name or specification, per query and over all queries.

        ``spec`` is a ``-m`` specification that yields one printed name
        (``"map"``, ``"ndcg_cut.10"``, ``"P.5"``, ``"ndcg.1=3,2=9"``) or a
        printed name itself (``"ndcg_cut_10"``, ``"P_5"``,
        ``"iprec_at_recall_0.10"``).
        """
        selection = _single(spec)
        results = self.evaluate([selection])
        name = results.selection[0].names[0]
        return TrecMeasure(name, {q: v[name] for q, v in results.per_query.items()}, results.summary.get(name))

    def report(
        self, measures: Iterable[str] | str = ("official",), per_query: bool = False, summary: bool = True
    ) -> str:
        """trec_eval's output for ``measures``: ``-q`` lines when ``per_query``, then the ``all`` lines."""
        return self.evaluate(measures).format(per_query, summary)

    def __repr__(self) -> str:
        return (
            f"TrecEval(queries={len(self.queries())}, relevance_level={self.relevance_level}, "
            f"complete={self.complete}, max_docs={self.max_docs}, judged_only={self.judged_only})"
        )


#: Values trec_eval 10 resets for a query without a run under ``-c`` (its "clean up leftovers"): by the
#: printed name, so only the measures printed under their own name, and unj_k (a prefix match).
_RESET_WHEN_MISSING: dict[str, Any] = {"num_ret": 0, "utility": 0.0, "relstring": "", "unj": 0.0, "rbp_resid": 0.0}

_NONE = object()


def _summarise(average: str, column: list[Any], run_id: str) -> Any:
    if average == "mean":
        return seq_sum(column) / len(column)
    if average == "sum":
        return int(seq_sum(float(v) for v in column))
    if average == "gm":
        return math.exp(seq_sum(column) / len(column))
    if average == "num_q":
        return len(column)
    if average == "runid":
        return run_id
    return _NONE


def _single(spec: str) -> str:
    """Turn a printed name (``P_5``, ``iprec_at_recall_0.10``) into a ``-m`` specification; keep specifications."""
    check_measure_spec(spec, "measure")
    from ._registry import _BY_NAME

    base, dot, params = spec.partition(".")
    if base in _BY_NAME:
        selection = parse_measures([spec])
        if len(selection) == 1 and len(selection[0].names) == 1:
            return spec
        raise ValueError(f"measure: {spec!r} names {len(selection[0].names)} values; give one cutoff (e.g. 'P.10')")
    # a printed name: the longest measure name followed by '_' and the parameters
    for m in sorted(_BY_NAME.values(), key=lambda m: -len(m.name)):
        if spec.startswith(m.name + "_") and m.params != "none":
            return f"{m.name}.{spec[len(m.name) + 1:]}"
    raise ValueError(f"unknown trec_eval measure {spec!r}")
