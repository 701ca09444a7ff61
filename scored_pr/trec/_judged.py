"""trec_eval's measures that tell judged non-relevant documents from unjudged ones:
bpref, gm_bpref, infAP, unj and rbp_resid.

A retrieved document is *judged* when the qrels give it a grade >= 0;
*not in the pool* (:data:`~scored_pr.trec._ranking.NONPOOL`) when the qrels do
not list it; *in the pool but unjudged*
(:data:`~scored_pr.trec._ranking.UNJUDGED`) when its grade is negative.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ._cnum import seq_sum
from ._precision import MIN_GEO_MEAN
from ._ranking import NONPOOL, UNJUDGED, RankedRels

#: The smoothing constant of infAP's precision estimate (trec_eval's ``INFAP_EPSILON``).
INFAP_EPSILON = 0.00001


def _judged_masks(r: RankedRels) -> tuple[np.ndarray, np.ndarray]:
    """(judged relevant, judged non-relevant) masks over the ranking."""
    judged = r.rels >= 0
    nonrel = judged & (r.rels < r.relevance_level)
    return judged & ~nonrel, nonrel


def bpref(r: RankedRels) -> float:
    """``bpref`` (Buckley and Voorhees 2004): (1/R) Σ over judged relevant retrieved documents of
    1 - min(N_above, R) / min(N, R), where N_above counts the judged non-relevant documents ranked
    above it and N those of the query; a document with none above counts 1. Unjudged documents are
    skipped. 0 when R = 0.
    """
    rel, nonrel = _judged_masks(r)
    if not rel.any():
        return 0.0
    above = np.cumsum(nonrel, dtype=np.int64)[rel]
    denom = float(min(r.num_nonrel(), r.num_rel))
    terms = [1.0 - min(int(k), r.num_rel) / denom if k > 0 else 1.0 for k in above]
    total = seq_sum(terms)
    return total / r.num_rel if r.num_rel else total


def log_bpref(r: RankedRels) -> float:
    """``gm_bpref`` per query: log(max(bpref, 0.00001)); averaged geometrically over queries."""
    return math.log(max(bpref(r), MIN_GEO_MEAN))


def inferred_average_precision(r: RankedRels) -> float:
    """``infAP`` (Yilmaz and Aslam 2006), as trec_eval 8.1 and later compute it.

    For the judged relevant document at rank k (k > 1), the expected precision
    above it is estimated from the documents in the pool (judged or not) above
    it and the relevant fraction of the judged ones, smoothed by 0.00001:
    1/k + ((k-1)/k) · (pool_above / (k-1)) · ((rel_above + ε) / (rel_above + nonrel_above + 2ε));
    at rank 1 it is 1. Documents not in the pool count as non-relevant
    (they only lengthen the ranking). The sum is divided by R; 0 when R = 0.
    """
    total = 0.0
    rel_so_far = nonrel_so_far = unjudged_so_far = 0
    level = r.relevance_level
    for j, rel in enumerate(r.rels.tolist()):
        if rel == NONPOOL:
            continue
        if rel == UNJUDGED:
            unjudged_so_far += 1
            continue
        if 0 <= rel < level:
            nonrel_so_far += 1
            continue
        rel_so_far += 1
        if j == 0:
            total += 1.0
        else:
            fj = float(j)
            total += (
                1.0 / (fj + 1.0)
                + (fj / (fj + 1.0))
                * ((rel_so_far - 1 + nonrel_so_far + unjudged_so_far) / fj)
                * ((rel_so_far - 1 + INFAP_EPSILON) / (rel_so_far - 1 + nonrel_so_far + 2 * INFAP_EPSILON))
            )
    return total / r.num_rel if r.num_rel else total


def unjudged_at(r: RankedRels, cutoffs: Sequence[int]) -> list[float]:
    """``unj_k`` (trec_eval 10): the fraction of the top k that is not judged (absent from the qrels or
    graded negative); ranks beyond the run count as judged."""
    unj = np.cumsum(r.rels < 0, dtype=np.int64)
    out = []
    for k in cutoffs:
        m = min(k, unj.size)
        out.append((int(unj[m - 1]) if m > 0 else 0) / k)
    return out


def rbp_residual(r: RankedRels, pairs: Sequence[tuple[str, float]] = ()) -> float:
    """``rbp_resid`` (trec_eval 10): the RBP weight RBP could still gain, p = 0.9 unless ``p=...``.

    (1 - p) Σ p^(i-1) over the unjudged ranks i, plus p^n for the ranks
    beyond the run; 0 when every retrieved document is judged.
    """
    p = 0.9
    for name, value in pairs:
        if name == "p":
            p = value
    total, cur_p, unjudged = 0.0, 1.0, 0
    for rel in r.rels.tolist():
        if rel < 0:
            unjudged += 1
            total += cur_p
        cur_p *= p
    return cur_p + (1 - p) * total if unjudged else 0.0
