"""MultiQueryEvaluation: one evaluator per query, and the means IR reports (MAP, MRR)."""

from __future__ import annotations

import math
import os
from collections.abc import Hashable, Iterator
from typing import Any

import numpy as np

from . import _kernel as K
from ._evaluation import ScoredPrecisionRecallEvaluation
from ._io import parse_score
from ._validation import check_positive_int, check_ties

_CLS = "MultiQueryEvaluation"


def _check_query(query: Any, func: str) -> Hashable:
    if isinstance(query, (bool, np.bool_)) or not isinstance(query, (str, int, np.integer)):
        raise TypeError(
            f"{func}: argument 'query' must be a query id (str or int); got {query!r:.60} ({type(query).__name__}) instead."
        )
    return int(query) if isinstance(query, np.integer) else query


class MultiQueryEvaluation:
    """One :class:`ScoredPrecisionRecallEvaluation` per query, with means over queries.

    Parameters
    ----------
    ties : {"grouped", "stable"}, default "grouped"
        The tie policy of every per-query evaluator.

    Notes
    -----
    Means are taken over the queries where the measure is defined: a query
    with no positive reference has no average precision, R-precision or
    (meaningful) reciprocal rank and is left out of MAP, mean R-precision
    and MRR, as trec_eval leaves out queries without relevant documents.
    The means are NaN when no query qualifies. ``mean_precision_at`` counts
    every query.

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

    __slots__ = ("_ties", "_queries")

    def __init__(self, ties: str = "grouped") -> None:
        self._ties = check_ties(ties, _CLS)
        self._queries: dict[Hashable, ScoredPrecisionRecallEvaluation] = {}

    # ------------------------------------------------------------------ mutators
    # Validation happens on a scratch evaluator first, so that a rejected call
    # neither adds cases nor creates an empty query.

    def _add(self, query: Any, method: str, *args: Any) -> None:
        q = _check_query(query, method)
        ev = self._queries.get(q)
        if ev is None:
            ev = ScoredPrecisionRecallEvaluation(ties=self._ties)
            getattr(ev, method)(*args)  # raises before the query exists
            self._queries[q] = ev
        else:
            getattr(ev, method)(*args)

    def add_case(self, query: Hashable, correct: bool, score: float) -> None:
        """Add one case to ``query`` (see :meth:`ScoredPrecisionRecallEvaluation.add_case`)."""
        self._add(query, "add_case", correct, score)

    def add_cases(self, query: Hashable, correct: Any, scores: Any) -> None:
        """Add a batch of cases to ``query``, atomically."""
        self._add(query, "add_cases", correct, scores)

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
        return iter(self._queries)

    def queries(self) -> list[Hashable]:
        """The query ids, in the order they were first added."""
        return list(self._queries)

    def __repr__(self) -> str:
        return f"{_CLS}(ties={self._ties!r}, num_queries={len(self._queries)})"

    # -------------------------------------------------------------------- means

    def per_query(self, name: str, *args: Any) -> dict[Hashable, Any]:
        """``{query: evaluator.<name>(*args)}`` for every query.

        ``name`` is any measure method of the evaluator, e.g.
        ``per_query("average_precision")`` or ``per_query("precision_at", 10)``.
        """
        if not isinstance(name, str) or name.startswith("_") or not callable(
            getattr(ScoredPrecisionRecallEvaluation, name, None)
        ):
            raise ValueError(
                f"per_query: argument 'name' must name a measure method of ScoredPrecisionRecallEvaluation; got {name!r:.60} instead."
            )
        if name in ("add_case", "add_cases", "add_misses", "add_negative_misses", "merge", "save"):
            raise ValueError(f"per_query: argument 'name' must name a measure, not the mutator {name!r}.")
        return {q: getattr(ev, name)(*args) for q, ev in self._queries.items()}

    def _mean_defined(self, name: str) -> float:
        values = [v for q, v in self.per_query(name).items() if self._queries[q].num_positive_ref > 0]
        return math.fsum(values) / len(values) if values else float("nan")

    def mean_average_precision(self) -> float:
        """MAP: the mean of :meth:`~ScoredPrecisionRecallEvaluation.average_precision` over queries with a positive reference."""
        return self._mean_defined("average_precision")

    def mean_reciprocal_rank(self) -> float:
        """MRR: the mean reciprocal rank over queries with a positive reference (0.0 for a query that returned none)."""
        return self._mean_defined("reciprocal_rank")

    def mean_r_precision(self) -> float:
        """The mean R-precision over queries with a positive reference."""
        return self._mean_defined("r_precision")

    def mean_precision_at(self, k: int) -> float:
        """trec_eval's P_k averaged over every query.

        Per query: correct cases in the top k divided by k, ranks beyond the
        returned cases counting as non-relevant (so it is never NaN, unlike
        :meth:`~ScoredPrecisionRecallEvaluation.precision_at`). NaN with no
        query at all.
        """
        k = check_positive_int(k, "mean_precision_at", "k")
        values = [K.tp_top(ev._points(), min(k, ev.num_cases)) / k for ev in self._queries.values()]
        return math.fsum(values) / len(values) if values else float("nan")

    # --------------------------------------------------------------------- TREC

    @classmethod
    def from_trec(
        cls,
        qrels_path: str | os.PathLike[str],
        run_path: str | os.PathLike[str],
        ties: str = "stable",
        docno_ties: bool = False,
    ) -> MultiQueryEvaluation:
        """Evaluate a TREC run file against a TREC qrels file.

        Parameters
        ----------
        qrels_path : path
            Lines ``query iteration docno grade``; a document is relevant
            when its grade is > 0.
        run_path : path
            Lines ``query Q0 docno rank score tag``; the rank column is
            ignored, documents are ranked by score.
        ties : {"stable", "grouped"}
            The tie policy. With "stable", equal scores keep run-file order,
            unless ``docno_ties`` is set.
        docno_ties : bool, default False
            Break score ties as trec_eval does: by document id, in
            descending string order. With ``ties="stable"`` the results then
            equal trec_eval's.

        Returns
        -------
        MultiQueryEvaluation
            One evaluator for each query present in both files. Retrieved
            documents absent from the qrels count as non-relevant; relevant
            documents never retrieved become misses; judged non-relevant
            documents never retrieved become negative misses.

        Raises
        ------
        ValueError
            On a malformed line (naming the file and line), a NaN score, or a
            document retrieved twice for one query.
        """
        check_ties(ties, "from_trec")
        qrels: dict[str, dict[str, int]] = {}
        for lineno, fields in _read_fields(qrels_path, 4):
            query, _, docno, grade = fields
            try:
                qrels.setdefault(query, {})[docno] = int(grade)
            except ValueError:
                raise ValueError(f"{os.fspath(qrels_path)}:{lineno}: grade {grade!r} is not an integer") from None
        runs: dict[str, list[tuple[str, float]]] = {}
        seen: set[tuple[str, str]] = set()
        for lineno, fields in _read_fields(run_path, 6):
            query, _, docno, _, score, _ = fields
            try:
                value = parse_score(score)
            except ValueError as exc:
                raise ValueError(f"{os.fspath(run_path)}:{lineno}: {exc}") from None
            if (query, docno) in seen:
                raise ValueError(f"{os.fspath(run_path)}:{lineno}: document {docno!r} retrieved twice for query {query!r}")
            seen.add((query, docno))
            runs.setdefault(query, []).append((docno, value))
        multi = cls(ties=ties)
        for query, docs in runs.items():
            if query not in qrels:
                continue
            judged = qrels[query]
            if docno_ties:
                docs = sorted(docs, key=lambda d: d[0], reverse=True)  # docno descending...
                docs.sort(key=lambda d: -d[1])  # ...then score descending (a stable sort)
            retrieved = {d for d, _ in docs}
            ev = ScoredPrecisionRecallEvaluation(ties=ties)
            ev.add_cases([judged.get(d, 0) > 0 for d, _ in docs], [s for _, s in docs])
            ev.add_misses(sum(1 for d, g in judged.items() if g > 0 and d not in retrieved))
            ev.add_negative_misses(sum(1 for d, g in judged.items() if g <= 0 and d not in retrieved))
            multi._queries[query] = ev
        return multi


def _read_fields(path: str | os.PathLike[str], width: int) -> Iterator[tuple[int, list[str]]]:
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(
                    f"{os.fspath(path)}:{lineno}: not valid UTF-8 (byte {raw[exc.start]:#04x} at column {exc.start + 1})"
                ) from None
            fields = line.split()
            if not fields:
                continue
            if len(fields) != width:
                raise ValueError(
                    f"{os.fspath(path)}:{lineno}: expected {width} whitespace-separated fields; got {len(fields)}: {line.strip()!r:.80}"
                )
            yield lineno, fields
