"""trec_eval's graded measures: ndcg, dcg, ideal_dcg, ndcg_cut, ndcg_rel, Rndcg, G, binG and rbp.

The gain of a document is its grade, unless the measure's parameters map
grades to gains (``-m ndcg.1=3,2=9``: grade 1 gains 3, grade 2 gains 9, the
other grades keep their own value). Documents that are not judged gain 0.
The ideal ranking takes the judged documents by decreasing gain and stops at
the first gain that is not positive.

trec_eval orders the gain levels with ``qsort`` and a comparator that returns
the *integer part* of the difference of two gains, so gains closer than 1 (say
0.5 and 0) compare equal and keep their order of appearance (parameters first,
then the grades in increasing order). :func:`gain_levels` reproduces that with
the stable merge sort glibc's ``qsort`` uses, so fractional gains rank as in
trec_eval, quirk included.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ._cnum import atol, c_int, msort, seq_sum
from ._ranking import RankedRels

#: ``-m measure.name=value,...`` parameters, in the order given.
Pairs = Sequence[tuple[str, float]]


@dataclass
class GainLevel:
    """One gain level: the grade it applies to, its gain and how many judged documents have the grade."""

    rel_level: int
    gain: float
    count: int


def _valid_int(text: str) -> bool:
    body = text[1:] if text[:1] in "+-" else text
    return body.isdigit() and body.isascii()


#: Up to this many grades (0 .. the highest judged), the gain levels are trec_eval's: one per grade,
#: judged or not. Beyond, only the grades some document has get a level (see :func:`gain_levels`).
DENSE_GRADES = 4096


def gain_levels(r: RankedRels, pairs: Pairs = ()) -> list[GainLevel]:
    """trec_eval's ``setup_gains``: the gain of each grade, in increasing order of gain (see the module notes).

    trec_eval makes a level for every grade from 0 to the highest judged, with
    or without documents, so its memory and time grow with the highest grade.
    Here that holds up to :data:`DENSE_GRADES` grades; past it, only the grades
    some judged document has get a level. Levels without documents add nothing
    to any gain; they can only move other levels in the sort, and only where
    the comparator is not a consistent order: a fractional gain parameter
    within 1 of two levels, or gains 2**31 or more apart. trec_eval cannot
    evaluate such grades at all (it allocates a counter per grade, 8 bytes
    each, and fails or crashes).
    """
    levels = [GainLevel(atol(name), float(value), 0) for name, value in pairs if _valid_int(name)]
    by_grade: dict[int, GainLevel] = {}
    for level in reversed(levels):  # trec_eval updates the first level of a grade
        by_grade[level.rel_level] = level
    counts = dict(zip(r.grades.tolist(), r.grade_counts.tolist()))
    grades = range(r.num_rel_levels) if r.num_rel_levels <= DENSE_GRADES else counts
    for grade in grades:
        param = by_grade.get(grade)
        if param is not None:
            param.count = counts.get(grade, 0)
        else:
            levels.append(GainLevel(grade, float(grade), counts.get(grade, 0)))
    return msort(levels, lambda a, b: c_int(a.gain - b.gain))  # C: (int)(a - b), truncated


def _unmapped_extremes(r: RankedRels, pairs: Pairs) -> list[float]:
    """The gains (their own values) of the lowest and highest grades in 0 .. highest judged that no parameter maps.

    trec_eval has a gain level for each of them; O(number of parameters).
    """
    mapped = {atol(name) for name, _ in pairs if _valid_int(name)}
    n = r.num_rel_levels
    lo, hi = 0, n - 1
    while lo < n and lo in mapped:
        lo += 1
    while hi >= 0 and hi in mapped:
        hi -= 1
    return [float(g) for g in (lo, hi) if 0 <= g < n]


def _gains(r: RankedRels, levels: Sequence[GainLevel]) -> np.ndarray:
    table = {}
    for level in reversed(levels):  # the first level of a grade wins
        table[level.rel_level] = level.gain
    if not r.rels.size:
        return np.zeros(0, dtype=np.float64)
    lo = min(-2, min(table, default=0))  # relevance values are >= -2 (UNJUDGED)
    hi = max(int(r.rels.max()), max(table, default=0))
    if hi - lo > 1_000_000:  # a gain parameter for an absurd grade: look up one by one
        return np.array([table.get(int(v), 0.0) for v in r.rels], dtype=np.float64)
    lookup = np.zeros(hi - lo + 1, dtype=np.float64)
    for grade, gain in table.items():
        lookup[grade - lo] = gain
    return lookup[r.rels - lo]


def ideal_gains(levels: Sequence[GainLevel]) -> list[float]:
    """The gains of the ideal ranking: levels from the last down, each repeated by its count, up to the first non-positive gain."""
    if not levels or not levels[-1].gain > 0.0:  # (NaN stops it, as C's gain > 0.0 does)
        return []
    out: list[float] = []
    for level in reversed(levels):
        if level.count == 0:
            continue
        if not level.gain > 0.0:
            break
        out.extend([level.gain] * level.count)
    return out


_DISCOUNTS: npt.NDArray[np.float64] = np.zeros(0)


def _discounts(n: int) -> np.ndarray:
    """log2(i + 2) for ranks i = 0 .. n-1 (rank i + 1), by the C library's ``log2`` as trec_eval calls it.

    (numpy's vectorised log2 may differ from libm in the last bit.)
    """
    global _DISCOUNTS
    if _DISCOUNTS.size < n:
        size = max(n, 2 * _DISCOUNTS.size, 1024)
        _DISCOUNTS = np.array([math.log2(i + 2) for i in range(size)], dtype=np.float64)
        _DISCOUNTS.setflags(write=False)
    return _DISCOUNTS[:n]


def _log2(x: float) -> float:
    """C ``log2``: -inf at 0; below 0 the x86 default NaN (printed "-nan"); a NaN is returned as is.

    (``math.log2`` raises below 0 and at 0.)
    """
    if x > 0.0:
        return math.log2(x)
    if x != x:
        return x
    return -math.inf if x == 0.0 else -math.nan


def _dcg_terms(gains: np.ndarray) -> np.ndarray:
    return np.where(gains != 0.0, gains / _discounts(gains.size), 0.0)


def dcg(r: RankedRels, pairs: Pairs = ()) -> float:
    """``dcg``: Σ gain(rank i) / log2(i + 1) over the retrieved documents."""
    return seq_sum(_dcg_terms(_gains(r, gain_levels(r, pairs))).tolist())


def ideal_dcg(r: RankedRels, pairs: Pairs = ()) -> float:
    """``ideal_dcg``: the DCG of the ideal ranking of every judged document (not cut at the run's length)."""
    ideal = np.array(ideal_gains(gain_levels(r, pairs)), dtype=np.float64)
    return seq_sum((ideal / _discounts(ideal.size)).tolist())


def ndcg(r: RankedRels, pairs: Pairs = ()) -> float:
    """``ndcg``: dcg / ideal_dcg (Järvelin and Kekäläinen 2002); 0 when ideal_dcg is 0."""
    idcg = ideal_dcg(r, pairs)
    return dcg(r, pairs) / idcg if idcg > 0.0 else 0.0


def ndcg_cut(r: RankedRels, cutoffs: Sequence[int]) -> list[float]:
    """``ndcg_cut_k``: DCG over the top k / ideal DCG over the top k, the grades as gains.

    Only grades > 0 gain; the ideal ranking holds the judged documents of
    grade >= 1 by decreasing grade. Where the ideal DCG is 0 the DCG is
    returned undivided (it is then 0 as well).
    """
    gains = np.where(r.rels > 0, r.rels, 0).astype(np.float64)
    running = np.cumsum(_dcg_terms(gains))
    positive = r.grades > 0
    ideal = np.repeat(r.grades[positive][::-1].astype(np.float64), r.grade_counts[positive][::-1])
    ideal_running = np.cumsum(ideal / _discounts(ideal.size))
    out = []
    for k in cutoffs:
        m = min(k, running.size)
        value = float(running[m - 1]) if m > 0 else 0.0
        m = min(k, ideal_running.size)
        idcg = float(ideal_running[m - 1]) if m > 0 else 0.0
        out.append(value / idcg if idcg > 0.0 else value)
    return out


class _Ideal:
    """trec_eval's walk down the ideal ranking, one rank per :meth:`step`."""

    def __init__(self, levels: Sequence[GainLevel]) -> None:
        self.levels = levels
        self.cur = len(levels) - 1
        self.gain = levels[self.cur].gain if self.cur >= 0 else 0.0
        self.num_at_level = 0

    def step(self) -> float:
        self.num_at_level += 1
        while self.cur >= 0 and self.num_at_level > self.levels[self.cur].count:
            self.num_at_level = 1
            self.cur -= 1
            self.gain = self.levels[self.cur].gain if self.cur >= 0 else 0.0
        return self.gain


def ndcg_rel(r: RankedRels, pairs: Pairs = ()) -> float:
    """``ndcg_rel``: nDCG averaged over the ranks of the relevant documents.

    At each retrieved document with positive gain, dcg / ideal_dcg so far;
    each relevant document not retrieved adds the final dcg / ideal_dcg; the
    sum is divided by the number of documents in the ideal ranking. 0 when
    that average is not positive.
    """
    levels = gain_levels(r, pairs)
    gains = _gains(r, levels)
    ideal = _Ideal(levels)
    results_dcg = ideal_dcg = total = 0.0
    num_rel = num_rel_ret = 0
    i = 0
    while i < r.num_ret and ideal.gain > 0.0:
        g = float(gains[i])
        if g != 0:
            results_dcg += g / math.log2(i + 2)
        ig = ideal.step()
        if ig > 0.0:
            num_rel += 1
            ideal_dcg += ig / math.log2(i + 2)
        if g > 0:
            total += _div(results_dcg, ideal_dcg)
            num_rel_ret += 1
        i += 1
    while i < r.num_ret:
        g = float(gains[i])
        if g != 0:
            results_dcg += g / math.log2(i + 2)
        if g > 0:
            total += _div(results_dcg, ideal_dcg)
            num_rel_ret += 1
        i += 1
    while ideal.gain > 0.0:
        ig = ideal.step()
        if ig > 0.0:
            num_rel += 1
            ideal_dcg += ig / math.log2(i + 2)
        i += 1
    total += (num_rel - num_rel_ret) * _div(results_dcg, ideal_dcg)
    return total / num_rel if total > 0.0 else 0.0  # NaN > 0 is false, as in C


def _div(a: float, b: float) -> float:
    """C double division: x/0 is ±inf, 0/0 is NaN (Python would raise).

    The NaN has its sign bit set, as x86's 0/0 does, so that it prints as
    glibc prints it ("-nan").
    """
    if b == 0.0:
        if a == 0.0 or a != a:
            return -math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def r_ndcg(r: RankedRels, pairs: Pairs = ()) -> float:
    """``Rndcg``: nDCG averaged over the ranks where the ideal gain changes (the ends of the ideal's grade runs).

    0 when the query has no relevant document.
    """
    levels = gain_levels(r, pairs)
    if r.num_rel == 0:
        return 0.0
    gains = _gains(r, levels)
    ideal = _Ideal(levels)
    old_ideal_gain = ideal.gain
    results_dcg = ideal_dcg = total = 0.0
    changes = 0
    i = 0
    while i < r.num_ret and ideal.gain > 0.0:
        g = float(gains[i])
        ig = ideal.step()
        if old_ideal_gain != ig:
            if ideal_dcg > 0.0:
                total += results_dcg / ideal_dcg
                changes += 1
            old_ideal_gain = ig
        if g != 0:
            results_dcg += g / math.log2(i + 2)
        if ig > 0.0:
            ideal_dcg += ig / math.log2(i + 2)
        i += 1
    if i < r.num_ret:
        while i < r.num_ret:
            g = float(gains[i])
            if g != 0:
                results_dcg += g / math.log2(i + 2)
            i += 1
        if ideal_dcg > 0.0:
            total += results_dcg / ideal_dcg
            changes += 1
    while ideal.gain > 0.0:
        ig = ideal.step()
        if old_ideal_gain != ig:
            if ideal_dcg > 0.0:
                total += results_dcg / ideal_dcg
                changes += 1
            old_ideal_gain = ig
        if ig > 0.0:
            ideal_dcg += ig / math.log2(i + 2)
        i += 1
    return _div(total, float(changes))


def normalized_gain(r: RankedRels, pairs: Pairs = ()) -> float:
    """``G``: Σ gain(doc) / log2(2 + ideal cost so far - gain so far), over the ideal gain total.

    Buckley's experimental gain measure (trec_eval 9): the cost of each rank is
    the ideal gain there, at least 1; 0 when the ideal gain total is 0.
    """
    levels = gain_levels(r, pairs)
    gains = _gains(r, levels)
    ideal = _Ideal(levels)
    results_g = sum_results = sum_ideal = sum_cost = 0.0
    min_cost = 1.0
    i = 0
    while i < r.num_ret and ideal.gain > 0.0:
        g = float(gains[i])
        sum_results += g
        ig = ideal.step()
        if ig > 0.0:
            sum_ideal += ig
        sum_cost += ig if ig >= min_cost else min_cost
        if g != 0:
            results_g += _div(g, _log2(2 + sum_cost - sum_results))
        i += 1
    while i < r.num_ret:
        g = float(gains[i])
        sum_results += g
        sum_cost += min_cost
        if g != 0:
            results_g += _div(g, _log2(2 + sum_cost - sum_results))
        i += 1
    while ideal.gain > 0.0:
        ig = ideal.step()
        if ig > 0.0:
            sum_ideal += ig
    return results_g / sum_ideal if sum_ideal > 0.0 else 0.0


def binary_gain(r: RankedRels) -> float:
    """``binG``: (1/R) Σ over relevant retrieved documents of 1 / log2(2 + non-relevant documents above it)."""
    rel = r.relevant
    if not rel.any():
        return 0.0
    idx = np.flatnonzero(rel)
    nonrel_above = idx - np.arange(idx.size)  # i - (rel_so_far - 1)
    terms = [1.0 / math.log2(2 + int(k)) for k in nonrel_above]
    return seq_sum(terms) / r.num_rel


def rank_biased_precision(r: RankedRels, pairs: Pairs = ()) -> float:
    """``rbp``: (1 - p) Σ gain(rank i) p^(i-1), p = 0.9 unless given as ``p=...`` (Moffat and Zobel 2008).

    The gains are rescaled to [0, 1] by (g - min) / (max - min) when one lies
    outside. trec_eval 10 starts ``min`` and ``max`` uninitialised there
    (undefined behaviour: whatever the stack holds); this starts both at 0,
    as trec_eval built with ``-ftrivial-auto-var-init=zero`` does, so min is
    at most 0 and max at least 0. With the default gains (grade 0 gains 0)
    that is the minimum and maximum over the gain levels.
    """
    p = 0.9
    for name, value in pairs:
        if name == "p":
            p = value
    levels = gain_levels(r, pairs)
    if levels:
        # trec_eval has a level for every grade 0 .. the highest; gain_levels may leave out the ones
        # without documents (past DENSE_GRADES), so add the lowest and highest such grade back here.
        # min and max start at 0: trec_eval leaves them uninitialised (see the docstring)
        every = [0.0] + [lv.gain for lv in levels] + _unmapped_extremes(r, pairs)
        lo, hi = min(every), max(every)
        if lo < 0 or hi > 1:
            for lv in levels:
                lv.gain = (lv.gain - lo) / (hi - lo)
    gains = _gains(r, levels)
    total, cur_p = 0.0, 1.0
    for g in gains.tolist():
        if g != 0:
            total += g * cur_p
        cur_p *= p
    return (1.0 - p) * total
