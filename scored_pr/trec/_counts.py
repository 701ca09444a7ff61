"""trec_eval's counts and the relevance string: num_ret, num_rel, num_rel_ret,
num_nonrel_judged_ret and relstring. Summed (not averaged) over queries, except relstring,
which is printed per query only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._cnum import trunc_long
from ._ranking import NONPOOL, UNJUDGED, RankedRels


def num_ret(r: RankedRels) -> int:
    """``num_ret``: documents retrieved (after ``-M`` and ``-J``)."""
    return r.num_ret


def num_rel(r: RankedRels) -> int:
    """``num_rel``: documents judged relevant (grade >= the relevance level), retrieved or not."""
    return r.num_rel


def num_rel_ret(r: RankedRels) -> int:
    """``num_rel_ret``: relevant documents retrieved."""
    return r.num_rel_ret


def num_nonrel_judged_ret(r: RankedRels) -> int:
    """``num_nonrel_judged_ret``: retrieved documents judged non-relevant (unjudged ones not counted)."""
    return r.num_ret - r.num_nonpool - r.num_unjudged_in_pool - r.num_rel_ret


def relevance_string(r: RankedRels, params: Sequence[float] = (10.0,)) -> str:
    """``relstring``: one character per document of the top N (default 10).

    The grade when it is 0-9, ``>`` above 9, ``-`` for a document not in the
    qrels, ``.`` for one graded negative (in the pool, unjudged).

    Examples
    --------
    >>> from scored_pr.trec._ranking import rank_query
    >>> relevance_string(rank_query({"a": 2, "b": 12, "c": -1}, [("a", 4.0), ("b", 3.0), ("c", 2.0), ("x", 1.0)]))
    '2>.-'
    """
    length = max(min(trunc_long(params[0]), r.num_ret), 0)  # C: (long) of the parameter, LONG_MIN if out of range
    chars = []
    for rel in r.rels[:length].tolist():
        if rel > 9:
            chars.append(">")
        elif rel >= 0:
            chars.append(str(rel))
        elif rel == NONPOOL:
            chars.append("-")
        elif rel == UNJUDGED:
            chars.append(".")
        else:
            chars.append("<")
    return "".join(chars)
