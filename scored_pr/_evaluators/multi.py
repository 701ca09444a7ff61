"""MultiQueryEvaluation: one evaluator per query, and the means IR reports (MAP, MRR)."""

from __future__ import annotations

import math
import os
from collections.abc import Hashable, Iterator
from typing import Any

import numpy as np

from .._core import points as P, scalars as M
from .._kinds import Kind, register
from .._measures import MEASURES, REPORT_RANKS, Measure
from .exact import ScoredPrecisionRecallEvaluation
from .guard import guarded, new_guard
from .base import HtmlReport
from .._state import multi as _multi_state
from .._validation import (
    check_measure_method,
    check_no_relevant,
    check_pos_label,
    check_positive_int,
    check_query_id,
    check_ties,
)
from ..trec import TrecEval, TrecMeasure, read_qrels, read_run, trec_order

_CLS = "MultiQueryEvaluation"


def _tp_top(ev: ScoredPrecisionRecallEvaluation, k: int) -> float:
    """Correct cases among the top ``k`` of ``ev`` (expected over a tie group cut by k, grouped ties).

    From the evaluator's public ranking (:meth:`ranked_cases`) through the
    kernel, as the evaluator's own ``precision_at`` counts them.
    """
    scores, correct, weights = ev.ranked_cases()
    return M.tp_top(P.operating_points(np.negative(scores), correct, ev.ties, weights), k)


@guarded
class MultiQueryEvaluation(HtmlReport):
    """One :class:`ScoredPrecisionRecallEvaluation` per query, with means over queries.

    Parameters
    ----------
    ties : {"grouped", "stable"}, default "grouped"
        The tie policy of every per-query evaluator.
    pos_label : str, number or bool, optional
        The positive class's label, for every per-query evaluator (see
        :class:`ScoredPrecisionRecallEvaluation`).

    Notes
    -----
    Means are taken over every query. A query with no positive reference has
    no average precision or R-precision (the evaluator returns NaN for it);
    MAP, mean R-precision and MRR count it as 0, as trec_eval, pytrec_eval
    and torchmetrics do, unless ``no_relevant="skip"`` leaves it out. The
    means are NaN when no query counts.

    A :class:`MultiQueryEvaluation` read by :meth:`from_trec` also computes
    every trec_eval measure by name: :meth:`measure`.

    Examples
    --------
    >>> from scored_pr import MultiQueryEvaluation
    >>> multi = MultiQueryEvaluation()
    >>> multi.add_cases("q1", [True, False], [0.9, 0.1])
    >>> multi.add_cases("q2", [False, True], [0.9, 0.1])
    >>> multi.mean_average_precision(), multi.mean_reciprocal_rank()
    (0.75, 0.75)
    >>> multi["q2"].average_precision()
    0.5
    """

    __module__ = "scored_pr"  # pickles and reprs name the public module, wherever this file moves

    __slots__ = ("_ties", "_pos_label", "_queries", "_trec", "_guard", "__weakref__")
    _KIND = _CLS
    _read_only = False  # a MultiQueryEvaluation is never read-only (see guard.py)

    def __init__(self, ties: str = "grouped", *, pos_label: Any = None) -> None:
        self._ties = check_ties(ties, _CLS)
        self._pos_label = check_pos_label(pos_label, _CLS)
        self._queries: dict[Hashable, ScoredPrecisionRecallEvaluation] = {}
        self._trec: TrecEval | None = None
        self._guard = new_guard(self)  # see guard.py: every public call holds it

    def _acquire(self, what: str) -> None:
        """Take ``_guard`` for ``what`` without waiting; another thread inside the evaluation is a RuntimeError."""
        if not self._guard.acquire(False):
            raise RuntimeError(
                f"{_CLS}: {what} ran while another thread was using this evaluation; it is not thread-safe "
                "and concurrent calls could lose cases. Serialise the calls with one threading.Lock, or give "
                "each thread its own evaluation and merge them."
            )

    # ------------------------------------------------------------------ mutators
    # Validation happens on a scratch evaluator first, so that a rejected call
    # neither adds cases nor creates an empty query.

    def _add(self, query: Any, method: str, *args: Any) -> None:
        q = check_query_id(query, method)
        ev = self._queries.get(q)
        if ev is None:
            ev = ScoredPrecisionRecallEvaluation(ties=self._ties, pos_label=self._pos_label)
            getattr(ev, method)(*args)  # raises before the query exists
            self._queries[q] = ev
        else:
            getattr(ev, method)(*args)

    def add_case(self, query: Hashable, correct: bool, score: float, weight: float = 1.0) -> None:
        """Add one case to ``query`` (see :meth:`ScoredPrecisionRecallEvaluation.add_case`)."""
        self._add(query, "add_case", correct, score, weight)

    def add_cases(self, query: Hashable, correct: Any, scores: Any, sample_weight: Any = None) -> None:
        """Add a batch of cases to ``query``, atomically (see :meth:`ScoredPrecisionRecallEvaluation.add_cases`)."""
        self._add(query, "add_cases", correct, scores, sample_weight)

    def add_misses(self, query: Hashable, count: int) -> None:
        """Count relevant items of ``query`` that were never returned."""
        self._add(query, "add_misses", count)

    # ------------------------------------------------------------------- access

    @property
    def ties(self) -> str:
        """The tie policy of every per-query evaluator."""
        return self._ties

    def __getitem__(self, query: Hashable) -> ScoredPrecisionRecallEvaluation:
        """The evaluator of ``query`` (KeyError if the query has nothing)."""
        try:
            return self._queries[query]
        except KeyError:
            raise KeyError(f"no query {query!r} in this {_CLS}") from None

    def __contains__(self, query: object) -> bool:
        return query in self._queries

    def __len__(self) -> int:
        return len(self._queries)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(list(self._queries))  # a snapshot: iterating never races with an addition

    def queries(self) -> list[Hashable]:
        """The query ids, in the order they were first added."""
        return list(self._queries)

    def __repr__(self) -> str:
        return f"{_CLS}(ties={self._ties!r}, num_queries={len(self._queries)})"

    # -------------------------------------------------------------------- state

    def to_dict(self) -> dict[str, Any]:
        """The evaluation's state as a JSON-safe dict (``json.dumps`` works on it).

        Keys: ``format`` (``"scored_pr.MultiQueryEvaluation"``), ``kind``
        (``"multi"``), ``version`` (1), ``ties``, ``queries`` (``[query id,
        evaluator.to_dict()]`` pairs in the order the queries were first
        added), ``trec`` (null, or for an evaluation read by :meth:`from_trec`
        the judgements, the run with its documents in file order, its run id,
        the file names and trec_eval options, so that :meth:`measure` still
        answers) and, with a positive label, ``pos_label``.
        :meth:`from_dict` reproduces every result exactly.

        Examples
        --------
        >>> multi = MultiQueryEvaluation()
        >>> multi.add_cases("q1", [True, False], [0.9, 0.1])
        >>> d = multi.to_dict(); [q for q, _ in d["queries"]], d["trec"]
        (['q1'], None)
        >>> MultiQueryEvaluation.from_dict(d).to_dict() == d
        True
        """
        return _multi_state.to_dict(self._state())

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MultiQueryEvaluation:
        """The evaluation whose :meth:`to_dict` is ``d``; every field is validated first.

        Raises
        ------
        TypeError, ValueError
            If a field is missing, unexpected, of the wrong type or
            inconsistent (a query's state as for
            :meth:`ScoredPrecisionRecallEvaluation.from_dict`, a query id twice,
            a query whose tie policy or label differs from the evaluation's),
            or if ``d`` is another kind's state (the message names it).
        """
        return cls._from_state(_multi_state.from_dict(d))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the state to ``path`` as an uncompressed ``.npz`` (no pickle), atomically.

        The cases of every query in one set of arrays (about 8.1 bytes per
        case, as :meth:`ScoredPrecisionRecallEvaluation.save`, 8 more with
        weights), 16 bytes per query, the query ids and the trec view as
        JSON. Atomic as the evaluator's ``save``.
        """
        _multi_state.save(self._state(), path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> MultiQueryEvaluation:
        """Read an evaluation written by :meth:`save`, without pickle.

        Memory is bounded by the file: the header's counts fix the shape of
        every array, checked before any data is read.

        Raises
        ------
        FileNotFoundError
            If ``path`` does not exist.
        ValueError
            If the file is not a scored_pr state file, is corrupted or
            inconsistent, or holds another kind of state (the message names
            the kind found and the class whose ``load`` reads it).
        """
        return cls._from_state(_multi_state.load(path))

    def __reduce__(self) -> tuple[Any, ...]:
        # Restored through a classmethod of the public class: the pickle names only
        # scored_pr.MultiQueryEvaluation (no trec or evaluator module).
        return (type(self)._from_pickle, (_multi_state.to_pickle(self._state()),))

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        # Pickles of 0.1.0 hold the slots themselves (no _guard): restore them, with a new guard.
        for name, value in state[1].items():
            setattr(self, name, value)
        self._guard = new_guard(self)

    @classmethod
    def _from_pickle(cls, state: Any) -> MultiQueryEvaluation:
        """Unpickling entry point (validated like every loader)."""
        return cls._from_state(_multi_state.from_pickle(state))

    def _state(self) -> _multi_state.MultiState:
        """The evaluation as plain data."""
        trec = None
        if self._trec is not None:
            t = self._trec
            trec = {
                "qrels": {q: dict(docs) for q, docs in t.qrels.judgements.items()},
                "run": {q: list(docs) for q, docs in t.run.rankings.items()},
                "run_id": t.run.run_id, "qrels_source": t.qrels.source, "run_source": t.run.source,
                "relevance_level": t.relevance_level, "complete": t.complete, "max_docs": t.max_docs,
                "judged_only": t.judged_only, "num_docs_in_coll": t.env.num_docs_in_coll,
            }
        per_query = [(q, ev._state()) for q, ev in self._queries.items()]
        return _multi_state.MultiState(self._ties, self._pos_label, per_query, trec)

    @classmethod
    def _from_state(cls, st: _multi_state.MultiState) -> MultiQueryEvaluation:
        """The evaluation of a validated state."""
        multi = cls(ties=st.ties, pos_label=st.pos_label)
        for q, qs in st.queries:
            multi._queries[q] = ScoredPrecisionRecallEvaluation._from_state(qs)
        if st.trec is not None:
            from ..trec import Qrels, Run

            t = st.trec
            multi._trec = TrecEval(
                Qrels(t["qrels"], t["qrels_source"]), Run(t["run"], t["run_id"], t["run_source"]),
                relevance_level=t["relevance_level"], complete=t["complete"], max_docs=t["max_docs"],
                judged_only=t["judged_only"], num_docs_in_coll=t["num_docs_in_coll"],
            )
        return multi

    # -------------------------------------------------------------------- means

    def per_query(self, name: str, *args: Any) -> dict[Hashable, Any]:
        """``{query: evaluator.<name>(*args)}`` for every query.

        ``name`` is any measure method of the evaluator, e.g.
        ``per_query("average_precision")`` or ``per_query("precision_at", 10)``.
        """
        check_measure_method(name, ScoredPrecisionRecallEvaluation, "per_query")
        return {q: getattr(ev, name)(*args) for q, ev in self._queries.items()}

    def _mean_over_queries(self, name: str, no_relevant: str, func: str) -> float:
        check_no_relevant(no_relevant, func)
        values = []
        for q, v in self.per_query(name).items():
            if self._queries[q].num_positive_ref > 0:
                values.append(v)
            elif no_relevant == "zero":
                values.append(0.0)
        return math.fsum(values) / len(values) if values else float("nan")

    def mean_average_precision(self, no_relevant: str = "zero") -> float:
        """MAP: the mean of :meth:`~ScoredPrecisionRecallEvaluation.average_precision` over the queries.

        Parameters
        ----------
        no_relevant : {"zero", "skip"}, default "zero"
            A query with no positive reference (no relevant document) counts
            as 0, as in trec_eval and pytrec_eval, or is left out ("skip").
        """
        return self._mean_over_queries("average_precision", no_relevant, "mean_average_precision")

    def mean_reciprocal_rank(self, no_relevant: str = "zero") -> float:
        """MRR: the mean reciprocal rank (0.0 for a query that returned no correct case); see :meth:`mean_average_precision` for ``no_relevant``."""
        return self._mean_over_queries("reciprocal_rank", no_relevant, "mean_reciprocal_rank")

    def mean_r_precision(self, no_relevant: str = "zero") -> float:
        """The mean R-precision; see :meth:`mean_average_precision` for ``no_relevant``."""
        return self._mean_over_queries("r_precision", no_relevant, "mean_r_precision")

    def mean_precision_at(self, k: int) -> float:
        """trec_eval's P_k averaged over every query.

        Per query: correct cases in the top k divided by k, ranks beyond the
        returned cases counting as non-relevant (so it is never NaN, unlike
        :meth:`~ScoredPrecisionRecallEvaluation.precision_at`). NaN with no
        query at all.
        """
        k = check_positive_int(k, "mean_precision_at", "k")
        values = [_tp_top(ev, min(k, ev.num_cases)) / k for ev in self._queries.values()]
        return math.fsum(values) / len(values) if values else float("nan")

    def summary(self) -> dict[str, float]:
        """Totals and the means over queries, in one flat dict (what ``scored-pr report`` prints).

        Read from the table of measures (``scored_pr._measures.MEASURES``,
        each entry's ``over_queries``): ``num_queries``, then the totals over
        the queries of the counts (``num_cases``, ``num_positive_ref``,
        ``num_misses``), then the means over queries, ``mean_<key>``:
        ``mean_average_precision`` (MAP), ``mean_reciprocal_rank`` (MRR),
        ``mean_r_precision`` and ``mean_precision_at_<k>`` (trec_eval's P_k)
        for ``k`` in ``scored_pr._measures.REPORT_RANKS``. Means count a
        query without a relevant case as 0 (``no_relevant="zero"``,
        trec_eval's convention); NaN for a rank-based mean when a query holds
        weighted cases, and for every mean with no query.
        """
        evs = list(self._queries.values())
        out: dict[str, float] = {"num_queries": len(evs)}
        for m in MEASURES:
            if m.over_queries == "sum":
                out[m.name] = sum(m.compute(ev) for ev in evs)
        for m in MEASURES:
            if m.over_queries not in ("mean", "cutoff_mean"):
                continue
            ranks: tuple[int | None, ...] = REPORT_RANKS if m.kind == "per_rank" else (None,)
            for key, k in zip(m.query_keys(), ranks):
                try:
                    out[key] = self._table_mean(m, k)
                except ValueError:  # a weighted query has no rank-based measure
                    out[key] = math.nan
        return out

    def _table_mean(self, m: Measure, k: int | None) -> float:
        """The mean over queries of table entry ``m`` (at rank ``k`` for a per-rank entry), as ``m.over_queries`` says."""
        if m.over_queries == "cutoff_mean":
            assert k is not None
            return self.mean_precision_at(k)
        extra = {} if k is None else {"k": k}
        # every query's value is computed (a weighted query refuses a rank-based one: ValueError), then
        # a query without a positive reference counts 0 (no_relevant="zero")
        pairs = [(m.compute(ev, **extra), ev.num_positive_ref > 0) for ev in self._queries.values()]
        values = [v if relevant else 0.0 for v, relevant in pairs]
        return math.fsum(values) / len(values) if values else float("nan")

    # --------------------------------------------------------------------- TREC

    @classmethod
    def from_trec(
        cls,
        qrels_path: str | os.PathLike[str],
        run_path: str | os.PathLike[str],
        ties: str = "stable",
        docno_ties: bool = False,
        relevance_level: int = 1,
        complete: bool = False,
        max_docs: int | None = None,
        judged_only: bool = False,
    ) -> MultiQueryEvaluation:
        """Evaluate a TREC run file against a TREC qrels file.

        Parameters
        ----------
        qrels_path : path
            Lines ``query iteration docno grade``; a document is relevant
            when its grade is at least ``relevance_level``, judged
            non-relevant below that (down to 0), and unjudged when its grade
            is negative. Blank and ``#`` lines are skipped.
        run_path : path
            Lines ``query Q0 docno rank score run_id``, text after the sixth
            column ignored, as trec_eval reads them; the rank column is
            ignored, documents are ranked by score.
        ties : {"stable", "grouped"}
            The tie policy of the per-query evaluators. With "stable", equal
            scores keep run-file order, unless ``docno_ties`` is set.
        docno_ties : bool, default False
            Break score ties as trec_eval does: by document id, in
            descending string order. With ``ties="stable"`` the evaluators'
            measures then equal trec_eval's.
        relevance_level : int, default 1
            trec_eval's ``-l``: the least grade that counts as relevant.
        complete : bool, default False
            trec_eval's ``-c``: also evaluate the judged queries the run does
            not answer (as an empty ranking: every relevant document a miss).
            Otherwise only queries present in both files are evaluated.
        max_docs : int or None
            trec_eval's ``-M``: keep the first ``max_docs`` documents of
            trec_eval's ranking of each query.
        judged_only : bool, default False
            trec_eval's ``-J``: drop retrieved documents that are not judged.

        Returns
        -------
        MultiQueryEvaluation
            One evaluator per evaluated query, in trec_eval's query order.
            Retrieved documents that are not relevant (judged non-relevant,
            unjudged or absent from the qrels) are incorrect cases; relevant
            documents not retrieved become misses; judged non-relevant ones
            not retrieved become negative misses (for ROC). :meth:`measure`
            gives any trec_eval measure of the same files and options.

        Raises
        ------
        scored_pr._io.cases.InputError
            A ValueError naming the file and line of a malformed line, a NaN
            score, or a document retrieved or judged twice for one query.
        """
        check_ties(ties, "from_trec")
        trec = TrecEval(
            read_qrels(qrels_path),
            read_run(run_path),
            relevance_level=relevance_level,
            complete=complete,
            max_docs=max_docs,
            judged_only=judged_only,
        )
        multi = cls(ties=ties)
        multi._trec = trec
        level = trec.relevance_level
        if max_docs is None and not judged_only and not docno_ties and multi._from_columns(trec):
            return multi
        for query in trec.queries():
            judged = trec.qrels.judgements[query]
            docs = trec.run.rankings.get(query, [])
            ranked = trec_order(docs)
            if max_docs is not None:
                ranked = ranked[:max_docs]
            if judged_only:
                ranked = [d for d in ranked if judged.get(d[0], -1) >= 0]
            if not docno_ties:  # the documents trec_eval evaluates, in file order
                kept = {d for d, _ in ranked}
                ranked = [d for d in docs if d[0] in kept]
            retrieved = {d for d, _ in ranked}
            ev = ScoredPrecisionRecallEvaluation(ties=ties)
            ev.add_cases([judged.get(d, -1) >= level for d, _ in ranked], [s for _, s in ranked])
            ev.add_misses(sum(1 for d, g in judged.items() if g >= level and d not in retrieved))
            ev.add_negative_misses(sum(1 for d, g in judged.items() if 0 <= g < level and d not in retrieved))
            multi._queries[query] = ev
        return multi

    def _from_columns(self, trec: TrecEval) -> bool:
        """``from_trec``'s evaluators straight from the numpy columns of regular files (False: not read so).

        Every retrieved document is a case in run-file order; the judgements
        of all (query, document) pairs are looked up at once
        (``scored_pr.trec.match``) and the misses counted per query.
        """
        run, qrels = trec.run.columns, trec.qrels.columns
        if run is None or qrels is None:
            return False
        from ..trec import match

        matched = match(run, qrels)
        if matched is None:  # a hash collision between two document ids: take the general path
            return False
        level = trec.relevance_level
        found = matched >= 0
        grade = np.full(matched.size, -1, dtype=np.int64)  # judged.get(d, -1)
        grade[found] = qrels.grades[matched[found]]
        correct = grade >= level
        run_rows, run_offsets = run.rows_by_query()
        nq = len(run.query_ids)
        judged_rel = np.bincount(qrels.query, weights=qrels.grades >= level, minlength=len(qrels.query_ids))
        judged_non = np.bincount(qrels.query, weights=(qrels.grades >= 0) & (qrels.grades < level), minlength=len(qrels.query_ids))
        ret_rel = np.bincount(run.query, weights=found & correct, minlength=nq)
        ret_non = np.bincount(run.query, weights=found & (grade >= 0) & ~correct, minlength=nq)
        run_index = {q: i for i, q in enumerate(run.query_ids)}
        qrels_index = {q: i for i, q in enumerate(qrels.query_ids)}
        for query in trec.queries():
            j = qrels_index[query]
            ev = ScoredPrecisionRecallEvaluation(ties=self._ties)
            i = run_index.get(query)
            misses, negative_misses = int(judged_rel[j]), int(judged_non[j])
            if i is not None:
                rows = run_rows[run_offsets[i] : run_offsets[i + 1]]
                ev.add_cases(correct[rows], run.scores[rows])
                misses -= int(ret_rel[i])
                negative_misses -= int(ret_non[i])
            ev.add_misses(misses)
            ev.add_negative_misses(negative_misses)
            self._queries[query] = ev
        return True

    @property
    def trec(self) -> TrecEval:
        """The :class:`scored_pr.trec.TrecEval` of the files :meth:`from_trec` read (ValueError otherwise)."""
        if self._trec is None:
            raise ValueError(f"{_CLS}: trec_eval measures need an evaluation read by from_trec()")
        return self._trec

    def measure(self, spec: str) -> TrecMeasure:
        """A trec_eval measure by its trec_eval name, per query and over all queries.

        Parameters
        ----------
        spec : str
            A ``-m`` specification with one value (``"map"``, ``"P.10"``,
            ``"ndcg_cut.10"``, ``"ndcg.1=3,2=9"``) or a printed name
            (``"ndcg_cut_10"``, ``"iprec_at_recall_0.10"``).

        Returns
        -------
        scored_pr.trec.TrecMeasure
            ``(name, per_query, mean)``: the values trec_eval prints with
            ``-q`` and on its ``all`` line, under the options given to
            :meth:`from_trec`. Documents are ranked as trec_eval ranks them
            (score, then docno descending) whatever ``ties`` and
            ``docno_ties`` say; a query without a relevant document counts 0.

        Raises
        ------
        ValueError
            For an evaluation not read by :meth:`from_trec`, or an unknown
            measure.
        """
        return self.trec.measure(spec)


# MultiQueryEvaluation report the public module (pickles, reprs); __test__ keeps the doctests
# of the class collected from this file.
__test__ = {"MultiQueryEvaluation": MultiQueryEvaluation}


register(Kind(
    "multi", MultiQueryEvaluation, "per_query", state_format="scored_pr.MultiQueryEvaluation",
    load=MultiQueryEvaluation.load, figures=lambda m: m.summary(),
    new=lambda ties: MultiQueryEvaluation(ties=ties),
    seen=lambda m: sum(m[q].num_cases for q in m),
))
