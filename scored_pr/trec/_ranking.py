"""One query's ranking as trec_eval sees it: the relevance value of each retrieved document.

This is trec_eval's ``form_res_rels``: documents are ranked by score
descending, ties broken by document id descending (byte order, ``strcmp``),
the ranking is cut to ``max_docs`` (``-M``), and each retrieved document gets

- its grade from the qrels when it was judged (grade >= 0),
- :data:`UNJUDGED` (-2) when the qrels list it with a negative grade
  (in the pool but not judged, as infAP's sampled pools are written),
- :data:`NONPOOL` (-1) when the qrels do not list it at all.

With ``judged_only`` (``-J``) every document that is not judged (grade < 0 or
absent) is removed before any measure is computed. Every measure of
:mod:`scored_pr.trec` is a pure function of the :class:`RankedRels` built here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["NONPOOL", "UNJUDGED", "RankedRels", "rank_query", "trec_order"]

#: Relevance value of a retrieved document absent from the qrels (trec_eval's RELVALUE_NONPOOL).
NONPOOL = -1
#: Relevance value of a retrieved document the qrels list with a negative grade (RELVALUE_UNJUDGED).
UNJUDGED = -2


@dataclass(frozen=True)
class RankedRels:
    """The relevance values of one query's retrieved documents, in rank order, with the counts measures use.

    Attributes
    ----------
    rels : numpy.ndarray of int64
        ``rels[i]`` is the relevance value of the document at rank ``i + 1``:
        a grade >= 0, :data:`NONPOOL` or :data:`UNJUDGED`. Read-only.
    rel_levels : numpy.ndarray of int64
        ``rel_levels[g]`` counts the documents of the query judged with grade
        ``g`` (retrieved or not), for g = 0 .. the highest grade judged.
    relevance_level : int
        The least grade that counts as relevant (trec_eval's ``-l``).
    num_rel : int
        Judged documents with grade >= ``relevance_level`` (trec_eval's R).
    num_ret, num_rel_ret, num_nonpool, num_unjudged_in_pool : int
        Retrieved documents; relevant ones among them; retrieved documents
        absent from the qrels; retrieved documents with a negative grade.
    """

    rels: np.ndarray
    rel_levels: np.ndarray
    relevance_level: int
    num_rel: int
    num_ret: int
    num_rel_ret: int
    num_nonpool: int
    num_unjudged_in_pool: int

    @property
    def num_rel_levels(self) -> int:
        """One more than the highest grade that some judged document has (0 if none)."""
        nonzero = np.flatnonzero(self.rel_levels)
        return int(nonzero[-1]) + 1 if nonzero.size else 0

    @property
    def relevant(self) -> np.ndarray:
        """Boolean mask over ``rels``: grade >= relevance_level."""
        return self.rels >= self.relevance_level

    def num_nonrel(self) -> int:
        """Judged non-relevant documents of the query: grades 0 .. relevance_level - 1 (bpref's N)."""
        return int(self.rel_levels[: max(self.relevance_level, 0)].sum())


def trec_order(docs: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
    """``(docno, score)`` pairs in trec_eval's rank order: score descending, then docno descending.

    Python compares ``str`` by code point, which is the byte order of their
    UTF-8 encoding, so the order is ``strcmp``'s on the file's bytes.

    Examples
    --------
    >>> trec_order([("a", 1.0), ("c", 2.0), ("b", 1.0)])
    [('c', 2.0), ('b', 1.0), ('a', 1.0)]
    """
    ranked = sorted(docs, key=lambda d: d[0], reverse=True)
    ranked.sort(key=lambda d: -d[1])  # stable: equal scores keep docno descending
    return ranked


def rank_query(
    judgements: Mapping[str, int],
    docs: Sequence[tuple[str, float]],
    relevance_level: int = 1,
    max_docs: int | None = None,
    judged_only: bool = False,
) -> RankedRels:
    """Build the :class:`RankedRels` of one query.

    Parameters
    ----------
    judgements : mapping docno -> grade
        The query's qrels.
    docs : sequence of (docno, score)
        The query's retrieved documents, in any order (no docno twice).
    relevance_level : int, default 1
        trec_eval's ``-l``.
    max_docs : int or None
        trec_eval's ``-M``: keep only the first ``max_docs`` ranks (after
        ranking, before ``judged_only``).
    judged_only : bool
        trec_eval's ``-J``: drop the documents that are not judged.

    Examples
    --------
    >>> r = rank_query({"a": 2, "b": 0, "c": -1, "z": 1}, [("a", 3.0), ("b", 2.0), ("c", 1.5), ("x", 1.0)])
    >>> r.rels.tolist(), r.num_rel, r.num_rel_ret, r.num_nonpool, r.num_unjudged_in_pool
    ([2, 0, -2, -1], 2, 1, 1, 1)
    >>> rank_query({"a": 2, "b": 0, "c": -1}, [("a", 3.0), ("x", 2.0), ("b", 1.0)], judged_only=True).rels.tolist()
    [2, 0]
    """
    ranked = trec_order(docs)
    if max_docs is not None:
        ranked = ranked[: max(max_docs, 0)]
    rels = np.fromiter(
        (NONPOOL if (g := judgements.get(d)) is None else (UNJUDGED if g < 0 else g) for d, _ in ranked),
        dtype=np.int64,
        count=len(ranked),
    )
    if judged_only:
        rels = rels[rels >= 0]
    grades = np.fromiter((g for g in judgements.values() if g >= 0), dtype=np.int64)
    rel_levels = np.bincount(grades) if grades.size else np.zeros(0, dtype=np.int64)
    level = int(relevance_level)
    rels.setflags(write=False)
    rel_levels.setflags(write=False)
    return RankedRels(
        rels=rels,
        rel_levels=rel_levels,
        relevance_level=level,
        num_rel=int(rel_levels[max(level, 0):].sum()),
        num_ret=int(rels.size),
        num_rel_ret=int(np.count_nonzero((rels >= 0) & (rels >= level))),
        num_nonpool=int(np.count_nonzero(rels == NONPOOL)),
        num_unjudged_in_pool=int(np.count_nonzero(rels == UNJUDGED)),
    )
