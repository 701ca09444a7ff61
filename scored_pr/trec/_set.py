"""trec_eval's set measures, on the retrieved documents as an unranked set:
set_P, set_recall, set_relative_P, set_map, set_F and utility.

Each is 0 where its denominator is 0 (trec_eval's convention), never NaN.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._ranking import RankedRels


def set_precision(r: RankedRels) -> float:
    """``set_P``: relevant retrieved / retrieved."""
    return r.num_rel_ret / r.num_ret if r.num_ret else 0.0


def set_recall(r: RankedRels) -> float:
    """``set_recall``: relevant retrieved / R."""
    return r.num_rel_ret / r.num_rel if r.num_rel else 0.0


def set_relative_precision(r: RankedRels) -> float:
    """``set_relative_P``: relevant retrieved / min(retrieved, R)."""
    if r.num_ret and r.num_rel:
        return r.num_rel_ret / min(r.num_ret, r.num_rel)
    return 0.0


def set_average_precision(r: RankedRels) -> float:
    """``set_map``: set precision × set recall, (rel_ret · rel_ret) / (ret · R)."""
    if r.num_ret and r.num_rel:
        return (float(r.num_rel_ret) * float(r.num_rel_ret)) / (float(r.num_ret) * float(r.num_rel))
    return 0.0


def set_f(r: RankedRels, params: Sequence[float] = (1.0,)) -> float:
    """``set_F``: (x + 1) P R / (x P + R) on the set, x = the first parameter (default 1); 0 if nothing relevant is retrieved."""
    if not r.num_rel_ret:
        return 0.0
    p = r.num_rel_ret / r.num_ret
    rec = r.num_rel_ret / r.num_rel
    x = params[0]
    return (x + 1.0) * p * rec / (x * p + rec)


def utility(r: RankedRels, params: Sequence[float] = (1.0, -1.0, 0.0, 0.0), num_docs_in_coll: int = 0) -> float:
    """``utility``: p1·a + p2·b + p3·c + p4·d over the contingency table of the retrieved set.

    a = relevant retrieved, b = non-relevant retrieved, c = relevant not
    retrieved, d = the rest of the collection (``num_docs_in_coll``, trec_eval's
    ``-N``, default 0, minus a + b + c).
    """
    a, ret, rel = r.num_rel_ret, r.num_ret, r.num_rel
    return (
        params[0] * a
        + params[1] * (ret - a)
        + params[2] * (rel - a)
        + params[3] * (num_docs_in_coll + a - ret - rel)
    )
