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
    grades : numpy.ndarray of int64
        The distinct grades >= 0 of the query's judged documents (retrieved
        or not), ascending. Read-only.
    grade_counts : numpy.ndarray of int64
        ``grade_counts[i]`` counts the documents judged with ``grades[i]``.
        Read-only. (trec_eval keeps one counter per grade from 0 to the
        highest, ``rel_levels``; these hold the same counts in memory that
        does not depend on how large a grade is.)
    relevance_level : int
        The least grade that counts as relevant (trec_eval's ``-l``).
    num_rel : int
        Judged documents with grade >= ``relevance_level`` (trec_eval's R).
    num_ret, num_rel_ret, num_nonpool, num_unjudged_in_pool : int
        Retrieved documents; relevant ones among them; retrieved documents
        absent from the qrels; retrieved documents with a negative grade.
    """

    rels: np.ndarray
    grades: np.ndarray
    grade_counts: np.ndarray
    relevance_level: int
    num_rel: int
    num_ret: int
    num_rel_ret: int
    num_nonpool: int
    num_unjudged_in_pool: int

    @property
    def num_rel_levels(self) -> int:
        """One more than the highest grade that some judged document has (0 if none)."""
        return int(self.grades[-1]) + 1 if self.grades.size else 0

    @property
    def rel_levels(self) -> np.ndarray:
        """trec_eval's dense ``rel_levels``: ``rel_levels[g]`` judged documents of grade g, g = 0 .. highest.

        Memory O(highest grade): for grades of any size use :attr:`grades`
        and :attr:`grade_counts`.
        """
        dense = np.zeros(self.num_rel_levels, dtype=np.int64)
        dense[self.grades] = self.grade_counts
        return dense

    @property
    def relevant(self) -> np.ndarray:
        """Boolean mask over ``rels``: grade >= relevance_level."""
        return self.rels >= self.relevance_level

    def num_nonrel(self) -> int:
        """Judged non-relevant documents of the query: grades 0 .. relevance_level - 1 (bpref's N)."""
        return int(self.grade_counts[self.grades < self.relevance_level].sum())


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
    # The distinct grades present and their counts: memory O(judged documents), whatever the grades
    # (np.bincount over the raw grades, like trec_eval's rel_levels, is O(highest grade)).
    grades, grade_counts = np.unique(
        np.fromiter((g for g in judgements.values() if g >= 0), dtype=np.int64), return_counts=True
    )
    grade_counts = grade_counts.astype(np.int64, copy=False)
    level = int(relevance_level)
    for a in (rels, grades, grade_counts):
        a.setflags(write=False)
    return RankedRels(
        rels=rels,
        grades=grades,
        grade_counts=grade_counts,
        relevance_level=level,
        num_rel=int(grade_counts[grades >= level].sum()),
        num_ret=int(rels.size),
        num_rel_ret=int(np.count_nonzero((rels >= 0) & (rels >= level))),
        num_nonpool=int(np.count_nonzero(rels == NONPOOL)),
        num_unjudged_in_pool=int(np.count_nonzero(rels == UNJUDGED)),
    )
