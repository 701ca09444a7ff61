"""Decisions: the threshold to ship under constraints or costs, net benefit, and the curves of deployment.

Pure functions over the threshold cut-offs (:class:`~scored_pr._core.thresholds.Cutoffs`: the
cumulative TP/FP counts, or weight sums, at each distinct score, descending) and the reference
counts. A threshold ``t`` accepts every case scored >= ``t`` (the ``confusion_at_threshold``
rule), so a tie group is never split. The candidates are ``inf`` (accept nothing) followed by
every distinct score, in descending order; misses are never accepted.

With a confidence level, a constraint is certified on new data from the same distribution by
Learn-then-Test (Angelopoulos, Bates, Candes, Jordan and Lei, 2021) with fixed-sequence testing
over exact binomial (Clopper-Pearson) tests: see :func:`choose_certified`.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from typing import Any, Mapping, NamedTuple

import numpy as np
import numpy.typing as npt

from .binomial_tests import (  # noqa: F401 - re-exported: the tests and the evaluators read them here
    CONSTRAINTS,
    _all_reject,
    _all_screen,
    _bracketed,
    _point_mass_screen,
    _sizes,
    bound,
    p_values,
    rejects,
    screen,
)
from . import split_prefix as SP
from . import split_walk as SW
from .thresholds import Cutoffs, threshold_cutoffs

FloatArray = npt.NDArray[np.float64]

#: The measures ``maximize`` takes.
MAXIMIZE = ("precision", "recall", "tnr", "f1", "accuracy", "youden", "net_benefit")
#: The end of the candidates where a constraint monotone in the threshold holds first.
_SAFE_END = {"recall": "low", "fpr": "high", "tnr": "high", "accepted_fraction": "high"}


@dataclass(frozen=True)
class Decision:
    """A chosen score threshold and what accepting every case scored at or above it gives.

    Counts are ints, or sums of weights (floats) for a weighted evaluator.
    When no threshold meets the constraints, ``feasible`` is False,
    ``threshold`` is None and the other fields describe the candidate
    nearest to feasibility (the smallest total shortfall). A bounded
    summary's decision also carries ``optimum`` (see
    ``BoundedEvaluation.operating_point``).
    """

    threshold: float | None  #: accept every case whose score is >= it (inf: accept nothing)
    feasible: bool  #: whether the constraints (certified, with a confidence) hold there
    precision: float  #: TP / (TP + FP); NaN when nothing is accepted
    recall: float  #: TP / num_positive_ref
    f1: float  #: 2 TP / (2 TP + FP + FN)
    fpr: float  #: FP / num_negative_ref
    tnr: float  #: TN / num_negative_ref
    accepted_fraction: float  #: (TP + FP) / (num_positive_ref + num_negative_ref)
    tp: Any
    fp: Any
    tn: Any
    fn: Any
    maximize: str | None = None  #: the measure maximized (None for a minimum cost)
    value: float = math.nan  #: its value there
    expected_cost: float | None = None  #: mean cost per case (:meth:`min_cost_threshold`)
    confidence: float | None = None  #: the level the constraints were certified at
    #: with a confidence: each constraint's one-sided Clopper-Pearson bound at that level
    bounds: Mapping[str, float] | None = field(default=None, hash=False)
    #: a bounded summary's answer only: a :class:`~scored_pr.Bounds` holding what the exact
    #: evaluator's same call would answer (its ``value``, or its ``expected_cost``); None otherwise
    optimum: float | None = None


Decision.__module__ = "scored_pr"


class Candidates(NamedTuple):
    """Every candidate threshold with its counts, float64: ``inf`` first, then each distinct score."""

    threshold: FloatArray
    tp: FloatArray
    fp: FloatArray
    pos: float
    neg: float
    integer: bool  #: counts are ints (unweighted)
    #: the number of ranked cases each candidate accepts (0 at ``inf``), when known
    ends: npt.NDArray[np.int64] | None = None


def _prefixed(values: npt.NDArray[Any], first: float) -> FloatArray:
    """``first`` then ``values`` as one float64 array (one allocation, one conversion pass)."""
    out = np.empty(values.size + 1, dtype=np.float64)
    out[0] = first
    out[1:] = values
    return out


def candidates(cut: Cutoffs, pos_ref: float, neg_ref: float) -> Candidates:
    integer = cut.tp.dtype.kind != "f"
    ends = np.empty(cut.retrieved.size + 1, dtype=np.int64)
    ends[0] = 0
    ends[1:] = cut.retrieved
    return Candidates(_prefixed(cut.score, np.inf), _prefixed(cut.tp, 0.0), _prefixed(cut.fp, 0.0),
                      float(pos_ref), float(neg_ref), integer, ends)  # fmt: skip


def ranking_candidates(neg_scores: FloatArray, correct: npt.NDArray[np.bool_], weight: FloatArray | None,
                       pos_ref: float, neg_ref: float) -> Candidates:  # fmt: skip
    """``candidates(threshold_cutoffs(neg_scores, correct, weight), pos_ref, neg_ref)``, built from the ranking.

    Unweighted, in one pass of each kind: the tie groups' ends from one comparison of neighbours
    (equal neighbours, 0.0 and -0.0 included, share a group, as ``threshold_cutoffs`` groups them),
    the counts from one int32 cumulative sum (exact: whole numbers, the values the int64 path
    converts to) read at the groups' ends and written as float64 after the ``inf`` candidate. With every score distinct (real-valued scores) each
    case is its own group: no gather at all. Weighted: the general path. O(n).
    """
    n = neg_scores.size
    if weight is not None or n == 0:
        return candidates(threshold_cutoffs(neg_scores, correct, weight), pos_ref, neg_ref)
    differ = neg_scores[1:] != neg_scores[:-1]
    groups = int(np.count_nonzero(differ)) + 1
    threshold = np.empty(groups + 1, dtype=np.float64)
    threshold[0] = np.inf
    tp = np.empty(groups + 1, dtype=np.float64)
    tp[0] = 0.0
    # the running count of correct cases in int32 (numpy's integer running sum is several times
    # faster than its float64 one over bools), converted to float64 where it is stored: exact
    whole: Any = np.int32 if n < 2**31 - 1 else np.int64
    if groups == n:  # every score distinct: candidate i accepts the first i ranked cases
        np.negative(neg_scores, out=threshold[1:])
        tp[1:] = np.cumsum(correct, dtype=whole)
        ends = np.arange(n + 1, dtype=np.int64)
    else:
        ends = np.empty(groups + 1, dtype=np.int64)
        ends[0] = 0
        ends[1:-1] = np.flatnonzero(differ)
        ends[1:-1] += 1
        ends[-1] = n
        # each group's last ranked case: where the next score differs (a boolean selection, cheaper
        # than a gather at the ends), and the last case
        np.negative(neg_scores[:-1][differ], out=threshold[1:-1])
        threshold[-1] = -neg_scores[-1]
        if groups * 8 < n:  # few groups (rounded scores): count each group's correct cases, then sum the counts
            np.cumsum(np.add.reduceat(correct, ends[:-1], dtype=np.int64), dtype=np.float64, out=tp[1:])
        else:
            run = np.cumsum(correct, dtype=whole)
            tp[1:-1] = run[:-1][differ]
            tp[-1] = run[-1]
    fp = np.subtract(ends, tp)  # exact: whole numbers below 2**53
    return Candidates(threshold, tp, fp, float(pos_ref), float(neg_ref), True, ends)


def _div(a: Any, b: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.true_divide(a, b)


def measure(name: str, c: Candidates) -> FloatArray:
    """One measure at every candidate (NaN for 0/0). ``net_benefit`` takes the thresholds as probabilities."""
    # Only the arrays the measure reads are made (FN and TN at every candidate are two passes a
    # precision or a recall does not need); the expressions, so the roundings, are unchanged.
    tp, fp, pos, neg = c.tp, c.fp, c.pos, c.neg
    n = pos + neg
    if name == "precision":
        accepted = np.add(tp, fp, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.divide(tp, accepted, out=accepted)  # in place: one array, not two
    if name == "recall":
        return np.asarray(_div(tp, pos), dtype=np.float64)
    if name == "fpr":
        return np.asarray(_div(fp, neg), dtype=np.float64)
    if name == "tnr":
        return np.asarray(_div(neg - fp, neg), dtype=np.float64)
    if name == "accepted_fraction":
        return np.asarray(_div(tp + fp, n), dtype=np.float64)
    if name == "f1":
        return np.asarray(_div(2.0 * tp, 2.0 * tp + fp + (pos - tp)), dtype=np.float64)
    if name == "accuracy":
        return np.asarray(_div(tp + (neg - fp), n), dtype=np.float64)
    if name == "youden":
        return np.asarray(_div(tp, pos) - _div(fp, neg), dtype=np.float64)
    if name == "net_benefit":
        return net_benefit_at(c.threshold, tp, fp, n)
    raise KeyError(name)


def net_benefit_at(threshold: FloatArray, tp: FloatArray, fp: FloatArray, n: float) -> FloatArray:
    """TP / n - FP / n * t / (1 - t) at each probability threshold t (0 at ``inf``: nothing treated).

    At t = 1 the odds are infinite: -inf where a false positive is accepted, TP / n otherwise.
    """
    t = np.where(np.isinf(threshold), 0.0, threshold)
    with np.errstate(divide="ignore", invalid="ignore"):
        odds = t / (1.0 - t)
        harm = np.where(fp > 0, fp / n * odds, 0.0)
        return np.asarray(tp / n - harm, dtype=np.float64)


def _satisfied(values: Mapping[str, FloatArray], subject_to: Mapping[str, float]) -> npt.NDArray[np.bool_]:
    ok: npt.NDArray[np.bool_] | None = None
    for key, target in subject_to.items():
        v = values[key]
        with np.errstate(invalid="ignore"):
            hit = (v >= target) if CONSTRAINTS[key] == ">=" else (v <= target)  # NaN never satisfies
        if ok is None:
            ok = hit  # the first constraint's comparison is the mask: no array of ones to AND into
        else:
            ok &= hit
    if ok is None:
        return np.ones(next(iter(values.values())).shape, dtype=bool) if values else np.ones(0, dtype=bool)
    return ok


def _shortfall(values: Mapping[str, FloatArray], subject_to: Mapping[str, float], size: int) -> FloatArray:
    total = np.zeros(size)
    for key, target in subject_to.items():
        v = values[key]
        gap = target - v if CONSTRAINTS[key] == ">=" else v - target
        total += np.where(np.isnan(gap), np.inf, np.maximum(gap, 0.0))
    return total


def _best(objective: FloatArray, among: npt.NDArray[np.bool_] | None) -> int | None:
    """The candidate of greatest objective among ``among`` (all: None; the highest threshold on a tie; NaN loses)."""
    if objective.size:
        # One masked pass and argmax, which returns the first maximum, or the first NaN if any is
        # left: a non-NaN answer inside ``among`` is then the answer below (no NaN among them).
        vals = objective if among is None else np.where(among, objective, -np.inf)
        i = int(np.argmax(vals))
        if not np.isnan(vals[i]) and (among is None or among[i]):
            return i
    keep = ~np.isnan(objective)
    if among is not None:
        keep &= among
    vals = np.where(keep, objective, -np.inf)
    if not vals.size:
        return None
    i = int(np.argmax(vals))  # the first maximum: the highest threshold
    if keep[i]:
        return i
    if among is None:
        return i  # every objective NaN: the first candidate
    hits = np.flatnonzero(among)  # only NaN objectives among them: the first
    return int(hits[0]) if hits.size else None


def point(c: Candidates, i: int, *, feasible: bool, maximize: str | None, value: float,
          expected_cost: float | None = None, confidence: float | None = None,
          bounds: Mapping[str, float] | None = None) -> Decision:  # fmt: skip
    """The :class:`Decision` of candidate ``i``."""
    tp, fp = c.tp[i], c.fp[i]
    fn, tn = c.pos - tp, c.neg - fp
    conv = int if c.integer else float
    one = Candidates(c.threshold[i : i + 1], c.tp[i : i + 1], c.fp[i : i + 1], c.pos, c.neg, c.integer)
    m = {k: float(measure(k, one)[0]) for k in ("precision", "recall", "f1", "fpr", "tnr", "accepted_fraction")}
    return Decision(
        float(c.threshold[i]) if feasible else None, feasible, m["precision"], m["recall"], m["f1"], m["fpr"],
        m["tnr"], m["accepted_fraction"], conv(tp), conv(fp), conv(tn), conv(fn), maximize, float(value),
        expected_cost, confidence, bounds,
    )


def _best_recall(c: Candidates, ok: npt.NDArray[np.bool_] | None) -> int | None:
    """``_best(measure("recall", c), ok)`` without the recall of every candidate (None: no candidate in ``ok``).

    The counts are cumulative, so TP, and TP / P (division by one positive number is monotone),
    never fall along the candidates: the greatest recall among ``ok`` is at its last candidate j,
    and the first candidate of that recall is found by a search on TP (then a step back over
    smaller TPs whose quotient rounds to the same float, which whole counts below 2**53 never
    give); the answer is the first candidate of ``ok`` from there. P > 0, so no recall is NaN.
    """
    n = c.tp.size
    if ok is None:
        j = n - 1
    else:
        j = n - 1 - int(np.argmax(ok[::-1]))  # the last candidate of ok
        if not ok[j]:
            return None
    k = _first_of_recall(c, j)
    return k if ok is None else k + int(np.argmax(ok[k : j + 1]))


def _first_of_recall(c: Candidates, j: int) -> int:
    """The first candidate whose recall (TP / P, P > 0) is candidate ``j``'s: a search on TP, then a step back."""
    tp, pos = c.tp, c.pos
    v = float(tp[j]) / pos
    k = int(np.searchsorted(tp, tp[j], side="left"))
    while k > 0 and float(tp[k - 1]) / pos == v:
        k -= 1
    return k


def _monotone_span(c: Candidates, subject_to: Mapping[str, float]) -> tuple[int, int] | None:
    """The run [lo, hi) of candidates meeting every constraint, when each is monotone in the threshold; else None.

    Along the candidates TP and FP never fall, so recall (TP / P) never falls and fpr (FP / N),
    the accepted fraction ((TP + FP) / n) never fall and tnr ((N - FP) / N) never rises: each
    rounded quotient too (float division by one positive number, and float addition, are monotone).
    So each such constraint holds on a suffix (recall) or a prefix (the others), found by bisection
    of the same elementwise comparison :func:`_satisfied` makes; their meet is a run. None (the
    general path) for precision, a reference count of 0 (NaN measures) or no constraint. O(log d).
    """
    if not subject_to or c.pos <= 0 or c.neg <= 0 or any(k not in _SAFE_END for k in subject_to):
        return None
    lo, hi = 0, c.tp.size

    for key in subject_to:
        single = {key: subject_to[key]}

        def hit(i: int) -> bool:
            one = Candidates(c.threshold[i : i + 1], c.tp[i : i + 1], c.fp[i : i + 1], c.pos, c.neg, c.integer)
            return bool(_satisfied({key: measure(key, one)}, single)[0])

        a, b = 0, c.tp.size  # the boundary is in [a, b]
        suffix = _SAFE_END[key] == "low"
        while a < b:  # suffix: the first index that holds; prefix: the first that fails
            mid = (a + b) // 2
            if hit(mid) == suffix:
                b = mid
            else:
                a = mid + 1
        if suffix:
            lo = max(lo, a)
        else:
            hi = min(hi, a)
    return lo, hi


def choose(c: Candidates, maximize: str, subject_to: Mapping[str, float]) -> Decision:
    """The candidate of greatest ``maximize`` whose point estimates meet every constraint.

    Ties: the highest threshold. None feasible: the candidate of least total shortfall
    (sum over constraints of how far each misses its target), then of greatest objective.
    O(d) for d distinct scores.
    """
    span = _monotone_span(c, subject_to)
    if span is not None and span[0] < span[1]:  # a run of candidates meets them: the objective there only
        lo, hi = span
        sub = Candidates(c.threshold[lo:hi], c.tp[lo:hi], c.fp[lo:hi], c.pos, c.neg, c.integer)
        if maximize == "recall" and c.pos > 0:
            r = _best_recall(sub, None)
            assert r is not None
            return point(c, lo + r, feasible=True, maximize=maximize, value=float(c.tp[lo + r]) / c.pos)
        sub_objective = measure(maximize, sub)
        i = _best(sub_objective, None)
        assert i is not None
        return point(c, lo + i, feasible=True, maximize=maximize, value=float(sub_objective[i]))
    values = {k: measure(k, c) for k in subject_to}
    ok = _satisfied(values, subject_to) if subject_to else None
    if maximize == "recall" and c.pos > 0 and c.tp.size:
        r = _best_recall(c, ok)
        if r is not None:
            return point(c, r, feasible=True, maximize=maximize, value=float(c.tp[r]) / c.pos)
    objective = measure(maximize, c)
    i = _best(objective, ok)
    if i is not None:
        return point(c, i, feasible=True, maximize=maximize, value=float(objective[i]))
    short = _shortfall(values, subject_to, c.tp.size)
    nearest = short == short.min()
    j = _best(objective, nearest)
    assert j is not None
    return point(c, j, feasible=False, maximize=maximize, value=float(objective[j]))


# ------------------------------------------------------------------ certified constraints


def _first_failure(passes_at: Any, size: int, screen_at: Any = None, start: int = 0) -> int:
    """The number of leading hypotheses rejected before the first that is not.

    ``passes_at(positions)`` says exactly which of those positions of the sequence are
    rejected. Without ``screen_at`` the rejections are a prefix (monotone p-values): bisection,
    O(log d) tests. Else chunks of doubling size are screened (``screen_at(lo, hi)``, see
    :func:`_all_screen`) and the undecided positions are tested exactly in order, in batches,
    only up to the first failure. ``start``: the positions before it are known to be rejected.
    """
    if screen_at is None:
        lo, hi = 0, size  # every position < lo rejects; the answer is in [lo, hi]
        while lo < hi:
            mid = (lo + hi) // 2
            if bool(passes_at(np.array([mid]))[0]):
                lo = mid + 1
            else:
                hi = mid
        return lo
    chunk = 256
    while start < size:
        stop = min(size, start + chunk)
        state = screen_at(start, stop)
        sure_fail = np.flatnonzero(state == 0)
        end = int(sure_fail[0]) if sure_fail.size else state.size
        unknown = np.flatnonzero(state[:end] == -1)
        i, batch = 0, 32
        while i < unknown.size:
            part = unknown[i : i + batch]
            ok = passes_at(start + part)
            if not ok.all():
                return start + int(part[int(np.argmin(ok))])
            i, batch = i + batch, batch * 2
        if sure_fail.size:
            return start + end
        start, chunk = stop, chunk * 2
    return size


def _integer_counts(values: FloatArray) -> bool:
    return bool(np.all(values == np.round(values)))


def _fair_coins(rng: np.random.Generator, size: int) -> npt.NDArray[np.bool_]:
    """``rng.random(size) < 0.5``, the same coins from the same stream, without making the floats.

    ``Generator.random`` turns each raw 64-bit word u of the bit generator into (u >> 11) * 2**-53,
    which is < 0.5 exactly when u < 2**63 (its top bit is 0); one word per coin, so the generator
    is left in the same state. Only for PCG64 (``default_rng``'s), whose doubles are made that
    way; any other bit generator falls back to the floats.
    """
    bits = rng.bit_generator
    if not isinstance(bits, np.random.PCG64):
        return rng.random(size) < 0.5
    coins = np.empty(size, dtype=bool)
    step = 1 << 16  # the words in chunks that stay in cache (the coins are 1/64 of their size)
    for lo in range(0, size, step):
        hi = min(size, lo + step)
        np.less(bits.random_raw(hi - lo), np.uint64(1 << 63), out=coins[lo:hi])
    return coins


def split_cases(
    correct: npt.NDArray[np.bool_], weights: FloatArray | None, misses: int, negative_misses: int, seed: int
) -> tuple[npt.NDArray[Any], float, float]:
    """Each case's (and miss's) count in the ordering half: a fair coin per copy (seeded); bools unweighted.

    Integer weight w: Binomial(w, 1/2) of its copies go to the ordering half, the rest to the
    test half, which is what splitting w copies one by one gives.
    """
    rng = np.random.default_rng(seed)
    first: npt.NDArray[Any]
    if weights is None:
        first = _fair_coins(rng, correct.size)  # one coin per case, kept as bools (summed as counts)
    else:
        first = rng.binomial(np.asarray(weights).astype(np.int64), 0.5).astype(np.float64)
    return first, float(rng.binomial(misses, 0.5)), float(rng.binomial(negative_misses, 0.5))


def _half_counts(ends: npt.NDArray[np.int64], correct: npt.NDArray[np.bool_],
                 first: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:  # fmt: skip
    """Cumulative (TP, FP) count of the ordering half at each candidate's end rank (0 for ``inf``).

    Coins (bools): int32 counts, both from one int64 running sum of the packed steps (a correct
    case in the ordering half adds 1 to the high 32-bit word, an incorrect one to the low word;
    each word stays below 2**31, so no carry), read back as two strided int32 views, no copy;
    every reader promotes them to float64 exactly, so the answers are those of float64 counts.
    Weighted: float64 (whole numbers below 2**53).
    """
    if first.dtype == np.bool_ and first.size < 2**31 - 1:
        packed = np.empty(first.size + 1, dtype=np.int64)
        packed[0] = 0
        words = packed[1:].view(np.int32).reshape(-1, 2)
        low, high = (0, 1) if sys.byteorder == "little" else (1, 0)
        np.greater(first, correct, out=words[:, low])  # in the half and incorrect: an FP step
        np.logical_and(first, correct, out=words[:, high])  # a TP step
        if (ends.size - 1) * 8 < first.size:  # few tie groups (rounded scores): each group's steps summed, then
            sums = np.add.reduceat(packed[1:], ends[:-1])  # the running sum of the groups (reduceat: SIMD sums)
            packed = np.empty(sums.size + 1, dtype=np.int64)
            packed[0] = 0
            np.cumsum(sums, out=packed[1:])
            halves_at_ends: npt.NDArray[Any] = packed.view(np.int32)
            return halves_at_ends[high::2], halves_at_ends[low::2]
        np.cumsum(packed[1:], out=packed[1:])
        halves: npt.NDArray[Any] = packed.view(np.int32)
        tp_run: npt.NDArray[Any] = halves[high::2]
        fp_run = halves[low::2]
        if ends.size == first.size + 1:  # every case its own score: the ends are 0, 1, ..., n
            return tp_run, fp_run
        return tp_run[ends], fp_run[ends]
    both = np.multiply(first, correct)
    tp_run = np.zeros(first.size + 1)
    np.cumsum(both, out=tp_run[1:])
    fp_run = np.zeros(first.size + 1)
    np.cumsum(first, out=fp_run[1:])  # every case of the half; FP once TP is taken off
    tp = tp_run[ends]
    fp = fp_run[ends]
    fp -= tp
    return tp, fp


def _descending_stable(z: FloatArray) -> npt.NDArray[np.int64]:
    """``np.argsort(-z, kind="stable")``: descending, ties in ascending position, from two fast unstable sorts.

    numpy's unstable sorts (SIMD where the CPU has it) are several times faster than its stable
    one on floats; the ties are then put in position order by sorting (run of equal keys, position)
    packed in one int64. NaN (not ordered by equality): the stable sort itself.
    """
    key = np.negative(z)
    if key.size < 2 or key.size >= 2**31 or np.isnan(key).any():
        return np.argsort(key, kind="stable")
    perm = np.argsort(key)
    ranked = key[perm]
    new_run = ranked[1:] != ranked[:-1]
    if new_run.all():  # no ties: the order is the stable one
        return perm
    packed = np.empty(perm.size, dtype=np.int64)
    packed[0] = 0
    np.cumsum(new_run, dtype=np.int64, out=packed[1:])  # the run of equal keys, ascending
    packed <<= 32
    packed |= perm
    packed.sort()
    packed &= 0xFFFFFFFF
    return packed


def _order_statistic(subject_to: Mapping[str, float], tp: FloatArray, fp: FloatArray, pos: float, neg: float) -> FloatArray:
    """How surely each candidate meets every constraint on the ordering half: the least z-score.

    z = (k - target n) / sqrt(n target (1 - target)) for ">=" (the gap reversed for "<="); no
    trials: -inf (never sure); a target of 0 or 1 (no spread): +inf where the gap is >= 0, else -inf.
    """
    z: FloatArray | None = None
    for key, target in subject_to.items():
        k, n = _sizes(key, tp, fp, pos, neg)
        gap = k - target * n if CONSTRAINTS[key] == ">=" else target * n - k
        if 0.0 < target < 1.0:
            empty = n <= 0
            spread = np.multiply(n, target * (1.0 - target))  # in place from here: a million candidates
            np.sqrt(spread, out=spread)
            with np.errstate(divide="ignore", invalid="ignore"):
                zk = np.divide(gap, spread, out=spread)
            zk[empty] = -np.inf
        else:
            zk = np.where(gap >= 0, np.inf, -np.inf)
            zk[n <= 0] = -np.inf
        z = zk if z is None else np.minimum(z, zk, out=z)
    assert z is not None
    return z


def _surely_feasible(subject_to: Mapping[str, float], tp: FloatArray, fp: FloatArray, pos: float,
                     neg: float) -> npt.NDArray[np.int64]:  # fmt: skip
    """The candidates whose :func:`_order_statistic` is > 0, without computing it: every gap > 0 with trials.

    z > 0 exactly when each constraint's gap (k - target n, reversed for "<=") is > 0 with n > 0
    (>= 0 for a target of 0 or 1, whose z is +inf there): the spread is > 0 then, and a positive
    gap of whole counts is far above the spread times the smallest float.
    """
    ok: npt.NDArray[np.bool_] | None = None
    for key, target in subject_to.items():
        k, n = _sizes(key, tp, fp, pos, neg)
        gap = np.multiply(n, target)  # n target, rounded as the z-score's gap rounds it
        # k - gap > 0 exactly when k > gap (a float difference is 0 only between equal floats): one
        # comparison, no difference. Whole k of an integer type (the coins' counts): k > floor(gap),
        # compared as integers (no conversion of k in the loop); gap >= 0 is below k's type's
        # limit (0 <= k <= n), so the conversion's truncation is the floor
        if not 0.0 < target < 1.0:  # 0 <= k <= n: no trials gives a gap of 0, not > 0
            m = np.greater_equal(k, gap) if CONSTRAINTS[key] == ">=" else np.greater_equal(gap, k)
            m &= n > 0
        elif CONSTRAINTS[key] == "<=":
            m = np.greater(gap, k)
        elif k.dtype.kind == "i":
            m = np.greater(k, gap.astype(k.dtype))
        else:
            m = np.greater(k, gap)
        ok = m if ok is None else np.logical_and(ok, m, out=ok)
    return np.flatnonzero(ok) if ok is not None else np.arange(tp.size)


def _best_certified(c: Candidates, maximize: str, certified: npt.NDArray[np.int64]) -> int | None:
    """:func:`_best` of ``maximize`` among the ``certified`` candidates (ascending), computed at those only."""
    if not certified.size:
        return None
    if maximize == "recall" and c.pos > 0:
        # recall never falls along the candidates (see _best_recall): its greatest among them is at
        # the last, and the first of them with that recall follows from a search, not a gather
        k = _first_of_recall(c, int(certified[-1]))
        return int(certified[int(np.searchsorted(certified, k, side="left"))])
    lo, hi = int(certified[0]), int(certified[-1]) + 1
    # a run of candidates (the monotone constraints certify one from their safe end): views, no gather
    at: slice | npt.NDArray[np.int64] = slice(lo, hi) if hi - lo == certified.size else certified
    sub = Candidates(c.threshold[at], c.tp[at], c.fp[at], c.pos, c.neg, c.integer)
    j = _best(measure(maximize, sub), None)
    return None if j is None else int(certified[j])


#: The ordering half's (TP, FP) at every candidate and its (positive, negative) reference counts.
Halves = tuple[npt.NDArray[Any], npt.NDArray[Any], float, float]  # whole counts: float64 or an int type


def choose_certified(
    c: Candidates,
    maximize: str,
    subject_to: Mapping[str, float],
    confidence: float,
    cases: tuple[FloatArray | None, npt.NDArray[np.bool_], FloatArray | None, int, int],
    seed: int = 0,
) -> Decision:
    """:func:`certify` with the ordering half drawn from the ranked cases: a fair coin per case (``seed``).

    ``cases``: (scores descending, correct, weights or None, misses, negative misses); the scores
    are read only when ``c`` does not carry its ends (None is accepted then). Unweighted, the
    ordering half is counted only in the blocks of cases where it may find a candidate feasible
    (:func:`~scored_pr._core.split_prefix.kept_halves`), and the first failure found without a
    sort; where that cannot conclude, the counts at every candidate and :func:`certify`, with the
    same coins: the same answer either way.
    """
    if not needs_split(subject_to):
        return certify(c, maximize, subject_to, confidence, None)
    scores, correct, weights, misses, neg_misses = cases
    ends = c.ends
    if ends is None:
        assert scores is not None, "the ranked scores are needed where the candidates carry no ends"
        ends = np.concatenate(([0], np.searchsorted(-scores, -c.threshold[1:], side="right")))
    first, m1, nm1 = split_cases(correct, weights, misses, neg_misses, seed)
    if first.dtype == np.bool_:
        kept = SP.kept_halves(subject_to, ends, correct, first, m1, nm1, _surely_feasible)
        if kept is not None:
            got = _kept_choice(c, maximize, subject_to, confidence, kept)
            if got is not None:
                return got

    def ordering() -> Halves:
        tp_a, fp_a = _half_counts(ends, correct, first)
        return tp_a, fp_a, float(tp_a[-1]) + m1, float(fp_a[-1]) + nm1  # tp_a starts with inf: never empty

    return certify(c, maximize, subject_to, confidence, ordering)


def _kept_choice(c: Candidates, maximize: str, subject_to: Mapping[str, float], confidence: float,
                 kept: SP.KeptHalves) -> Decision | None:  # fmt: skip
    """:func:`certify`'s split answer from the ordering half's counts at the kept candidates; None: certify must walk.

    The feasible candidates are :func:`_surely_feasible`'s (the kept blocks' test), with the same
    counts, so the same z-scores and tests; answered
    here when the walk without a sort stops at a failure among them (else the sorted walk, and
    the tests past them, need every candidate's counts).
    """
    top, tp_top, fp_top = kept.at, kept.tp, kept.fp
    pos, neg = c.pos - kept.pos, c.neg - kept.neg
    z = _order_statistic(subject_to, tp_top, fp_top, kept.pos, kept.neg)
    tp_t, fp_t = c.tp[top] - tp_top, c.fp[top] - fp_top
    before = SW.certified_unsorted(subject_to, z, tp_t, fp_t, pos, neg, 1.0 - confidence, cumulative=True)
    if before is None or before.all() or top.size == c.tp.size:
        return None
    return _certified_choice(c, maximize, subject_to, confidence, top[before], kept.count_at, pos, neg)


def needs_split(subject_to: Mapping[str, float]) -> bool:
    """Whether Learn-then-Test orders the candidates by a split of the cases (else: from the constraints' safe end)."""
    ends_sides = {_SAFE_END.get(k) for k in subject_to}
    return not (len(ends_sides) == 1 and None not in ends_sides)


def split_group_counts(pos: FloatArray, neg: FloatArray, misses: int, negative_misses: int,
                       seed: int) -> Halves:  # fmt: skip
    """The ordering half of cases known only by their tie groups' counts: a fair coin per case (``seed``).

    ``pos``, ``neg``: each candidate's group of correct and incorrect cases (whole counts), in
    candidate order after ``inf``. Binomial(count, 1/2) of a group's cases go to the ordering
    half, which is the law of one fair coin per case, as :func:`split_cases` draws them; the
    counts at a candidate (the cumulative sums) depend on nothing else.
    """
    rng = np.random.default_rng(seed)
    tp_a = np.zeros(pos.size + 1)
    fp_a = np.zeros(pos.size + 1)
    np.cumsum(rng.binomial(pos.astype(np.int64), 0.5), out=tp_a[1:])
    np.cumsum(rng.binomial(neg.astype(np.int64), 0.5), out=fp_a[1:])
    return tp_a, fp_a, float(tp_a[-1] + rng.binomial(misses, 0.5)), float(fp_a[-1] + rng.binomial(negative_misses, 0.5))


def certify(
    c: Candidates,
    maximize: str,
    subject_to: Mapping[str, float],
    confidence: float,
    ordering: Any,
) -> Decision:
    """The candidate of greatest ``maximize`` among those Learn-then-Test certifies.

    Each candidate threshold t is a null hypothesis H_t, "some constraint fails at t on the
    distribution the cases were drawn from", tested by the exact binomial test of each constraint
    (an intersection-union test: H_t is rejected when every constraint's p-value is <= delta =
    1 - confidence). Fixed-sequence testing rejects hypotheses in an order fixed before the test's
    labels are seen and stops at the first it cannot reject; the family-wise error (certifying any
    threshold where a constraint fails) is then at most delta, since an error needs the first
    false hypothesis in the order to be rejected. The order:

    - every constraint monotone in the threshold with the same safe end (recall: the lowest
      thresholds; fpr, tnr, accepted_fraction: the highest): the thresholds from that end, on every
      case; the p-values are then monotone along the order and the first failure is found by
      bisection;
    - otherwise (precision is not monotone in the threshold; or constraints pull opposite ways):
      the cases (each copy of an integer weight, the misses too) are split by a fair coin,
      ``ordering()`` giving the ordering half's counts (:data:`Halves`); that half orders the
      candidates (the least z-score over the constraints, most sure first; ties by descending
      threshold) and the other half tests them.

    Among the certified candidates the one of greatest objective (point estimate on every case)
    is returned; the bounds are those of the test (each constraint's one-sided Clopper-Pearson
    bound at ``confidence``). Assumes the cases are independent draws from the distribution the
    threshold will meet.
    """
    delta = 1.0 - confidence
    split: Any = None  # the ordering half's (TP, FP) at one candidate, when split
    if not needs_split(subject_to):
        high = _SAFE_END[next(iter(subject_to))] == "high"
        size, pos, neg = c.tp.size, c.pos, c.neg

        def passes_at(at: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
            sel = at if high else size - 1 - at  # the order: the candidates from the safe end
            return _all_reject(subject_to, c.tp[sel], c.fp[sel], pos, neg, delta)

        passed = _first_failure(passes_at, size)
        # the certified ones are a run from the safe end: its positions, ascending, with no mask
        run = np.arange(passed) if high else np.arange(size - passed, size)
        return _certified_choice(c, maximize, subject_to, confidence, run, split, pos, neg)
    else:
        # the ordering half's counts; the test half's are the rest (whole counts: exact in float64)
        tp_a, fp_a, pos_a, neg_a = ordering()

        def half_at(i: int) -> tuple[Any, Any]:
            return tp_a[i], fp_a[i]

        split = half_at
        pos, neg = c.pos - pos_a, c.neg - neg_a
        # most sure first; ties: the higher threshold. Fixed-sequence testing stops at its first
        # failure, so only the candidates the ordering half already finds feasible (z > 0) get
        # z-scores; the rest only if the tests get there. The first failure is found without a sort
        # (split_walk); the sorted walk below only where an exact tail must decide, or past them all.
        top = _surely_feasible(subject_to, tp_a, fp_a, pos_a, neg_a)
        tp_top, fp_top = tp_a[top], fp_a[top]  # ascending positions: streamed, not scattered, reads
        z = _order_statistic(subject_to, tp_top, fp_top, pos_a, neg_a)
        # the test half's counts (the totals minus the ordering half's; whole counts: exact)
        tp_t, fp_t = c.tp[top] - tp_top, c.fp[top] - fp_top
        whole = top.size == c.tp.size
        # the first failure found without sorting (the same certified set); else the sorted walk
        before = SW.certified_unsorted(subject_to, z, tp_t, fp_t, pos, neg, delta, cumulative=True)
        if before is not None and (whole or not before.all()):
            return _certified_choice(c, maximize, subject_to, confidence, top[before], split, pos, neg)
        rank = _descending_stable(z)
        order = top[rank]
        # the test half's counts in test order, once: the tests then read slices, not gathers
        tp_b, fp_b = tp_t[rank], fp_t[rank]

        def tested_at(at: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
            return _all_reject(subject_to, tp_b[at], fp_b[at], pos, neg, delta)

        def screen_at(lo: int, hi: int) -> npt.NDArray[np.int8]:
            return _all_screen(subject_to, tp_b[lo:hi], fp_b[lo:hi], pos, neg, delta)

        passed = _first_failure(tested_at, order.size, screen_at)
        if passed == order.size and not whole:  # every sorted one certified: test on in the full order
            later = np.ones(c.tp.size, dtype=bool)
            later[top] = False
            rest = np.flatnonzero(later)
            rest = rest[_descending_stable(_order_statistic(subject_to, tp_a[rest], fp_a[rest], pos_a, neg_a))]
            order = np.concatenate((order, rest))
            tp_b = np.concatenate((tp_b, c.tp[rest] - tp_a[rest]))
            fp_b = np.concatenate((fp_b, c.fp[rest] - fp_a[rest]))
            passed = _first_failure(tested_at, order.size, screen_at, start=passed)
    certified = np.zeros(c.tp.size, dtype=bool)
    certified[order[:passed]] = True
    return _certified_choice(c, maximize, subject_to, confidence, np.flatnonzero(certified), split, pos, neg)


def _certified_choice(c: Candidates, maximize: str, subject_to: Mapping[str, float], confidence: float,
                      certified: npt.NDArray[np.int64], split: Any, pos: float, neg: float) -> Decision:  # fmt: skip
    """The :class:`Decision` of :func:`certify`: the best of the ``certified`` candidates (ascending), with its bounds.

    ``split(i)``: the ordering half's (TP, FP) at candidate i (the test half's are the rest), None when every
    case tested;
    ``pos``, ``neg``: the tested reference counts.
    """
    i = _best_certified(c, maximize, certified)
    feasible = i is not None
    if i is None:  # nothing certified: the point-estimate choice (or the nearest), reported infeasible
        i = _index_of(c, choose(c, maximize, subject_to))
    at = np.array([i])
    if split is None:
        tp_i, fp_i = c.tp[at], c.fp[at]
    else:
        tp_a, fp_a = split(i)
        tp_i, fp_i = c.tp[at] - float(tp_a), c.fp[at] - float(fp_a)
    bounds = {}
    for key in subject_to:
        k, n = _sizes(key, tp_i, fp_i, pos, neg)
        bounds[key] = bound(key, float(k[0]), float(n[0]), confidence)
    value = float(measure(maximize, Candidates(c.threshold[at], c.tp[at], c.fp[at], c.pos, c.neg, c.integer))[0])
    return point(c, i, feasible=feasible, maximize=maximize, value=value, confidence=confidence,
                 bounds=bounds)  # fmt: skip


def _index_of(c: Candidates, d: Decision) -> int:
    """The candidate a :class:`Decision` describes (its counts identify it; the first such)."""
    hits = np.flatnonzero((c.tp == float(d.tp)) & (c.fp == float(d.fp)))
    return int(hits[0])


def counts_are_integers(c: Candidates) -> bool:
    """Whether every count is a whole number (unweighted, or integer weights): what a binomial test needs."""
    return c.integer or (_integer_counts(c.tp) and _integer_counts(c.fp) and float(c.pos).is_integer()
                         and float(c.neg).is_integer())  # fmt: skip


# ------------------------------------------------------------------ costs


def expected_costs(c: Candidates, cost_fp: float, cost_fn: float, gain_tp: float, gain_tn: float) -> FloatArray:
    """Mean cost per case at every candidate: (cost_fp FP + cost_fn FN - gain_tp TP - gain_tn TN) / n."""
    n = c.pos + c.neg
    fn, tn = c.pos - c.tp, c.neg - c.fp
    total = cost_fp * c.fp + cost_fn * fn - gain_tp * c.tp - gain_tn * tn
    return np.asarray(_div(total, n), dtype=np.float64)


def min_cost(c: Candidates, cost_fp: float, cost_fn: float, gain_tp: float, gain_tn: float) -> Decision:
    """The candidate of least expected cost (the highest threshold on a tie).

    With FN = P - TP and TN = N - FP the total cost is (cost_fp + gain_tn) FP - (cost_fn + gain_tp) TP
    plus a constant, so one pass over the counts ranks every candidate; the cost itself is
    computed at the chosen one only.
    """
    if c.pos + c.neg <= 0:  # no reference case: every cost is 0/0; accept nothing
        i = 0
    else:
        # the first minimum (argmin): the highest threshold on a tie
        i = int(np.argmin((cost_fp + gain_tn) * c.fp - (cost_fn + gain_tp) * c.tp))
    one = Candidates(c.threshold[i : i + 1], c.tp[i : i + 1], c.fp[i : i + 1], c.pos, c.neg, c.integer)
    cost = float(expected_costs(one, cost_fp, cost_fn, gain_tp, gain_tn)[0])
    return point(c, i, feasible=True, maximize=None, value=-cost, expected_cost=cost)


def cost_curve(c: Candidates) -> tuple[FloatArray, FloatArray]:
    """Drummond and Holte's cost curve: the lower envelope of every candidate's cost line.

    Candidate i is the line NEC(x) = FPR_i (1 - x) + FNR_i x over probability cost x in [0, 1].
    Returns the envelope's vertices (x ascending from 0 to 1, NEC there), exact up to float
    rounding of the intersections. Empty arrays when a class has no reference case.
    """
    if c.pos <= 0 or c.neg <= 0:
        return np.zeros(0), np.zeros(0)
    fpr, fnr = c.fp / c.neg, (c.pos - c.tp) / c.pos
    slope, icpt = fnr - fpr, fpr
    # lines by slope descending (the envelope's first line at x = 0 has the largest slope among the lowest)
    order = np.lexsort((icpt, -slope))
    hull: list[int] = []
    starts: list[float] = []  # the x from which each hull line is the lowest
    for j in order.tolist():
        if hull and slope[hull[-1]] == slope[j]:
            continue  # same slope, higher or equal intercept: never lower
        while hull:
            i = hull[-1]
            x = (icpt[j] - icpt[i]) / (slope[i] - slope[j])  # where j gets below i
            if x <= starts[-1]:
                hull.pop()
                starts.pop()
            else:
                starts.append(x)
                break
        if not hull:
            starts = [-np.inf]
        hull.append(j)
    xs, ys = [0.0], []
    seg = [k for k in range(len(hull)) if (starts[k + 1] if k + 1 < len(hull) else np.inf) > 0.0 and starts[k] < 1.0]
    ys.append(float(icpt[hull[seg[0]]]))
    for k in seg[1:]:
        x = float(starts[k])
        xs.append(x)
        ys.append(float(icpt[hull[k]] + slope[hull[k]] * x))
    xs.append(1.0)
    ys.append(float(icpt[hull[seg[-1]]] + slope[hull[seg[-1]]]))
    return np.asarray(xs), np.asarray(ys)


# ------------------------------------------------------------------ curves of deployment


class NetBenefit(NamedTuple):
    """Net benefit at each probability threshold, with the two reference strategies."""

    threshold: FloatArray  #: ascending probability thresholds
    model: FloatArray  #: TP/n - FP/n * t/(1-t), accepting every case scored >= t
    treat_all: FloatArray  #: P/n - N/n * t/(1-t)
    treat_none: FloatArray  #: 0


NetBenefit.__module__ = "scored_pr"


def net_benefit(c: Candidates, thresholds: FloatArray | None = None) -> NetBenefit:
    """Net benefit of the model, treat-all and treat-none at ``thresholds`` (each in [0, 1)).

    Default: every distinct score in (0, 1), ascending; their counts are the candidates' own,
    so no search is needed. One vectorised pass: the odds t / (1 - t) are computed once and
    shared by the model and treat-all.
    """
    n = c.pos + c.neg
    if thresholds is None:
        s = c.threshold[::-1]  # ascending; the last is inf
        lo = int(np.searchsorted(s, 0.0, side="right"))
        hi = int(np.searchsorted(s, 1.0, side="left"))
        thresholds = s[lo:hi].copy()  # the cached candidates stay unshared
        idx = slice(c.threshold.size - hi, c.threshold.size - lo)  # the same candidates, descending
        tp, fp = c.tp[idx][::-1], c.fp[idx][::-1]
    else:
        # counts at each threshold: the last candidate whose score is >= t (candidates descending)
        at = np.searchsorted(-c.threshold, -thresholds, side="right") - 1
        tp, fp = c.tp[at], c.fp[at]
    zero = np.zeros(thresholds.shape)
    if n <= 0:
        nan = np.full(thresholds.shape, np.nan)
        return NetBenefit(thresholds, nan, nan.copy(), zero)
    # in place where possible: at a million thresholds the temporaries cost more than the arithmetic
    odds = 1.0 - thresholds
    np.divide(thresholds, odds, out=odds)  # t / (1 - t), finite: every threshold is < 1
    model = np.multiply(fp, odds)
    np.subtract(tp, model, out=model)
    model /= n
    every = np.multiply(odds, -c.neg, out=odds)
    every += c.pos
    every /= n
    return NetBenefit(thresholds, model, every, zero)


def ks_statistic(c: Candidates) -> float:
    """max |TP/total_tp - FP/total_fp| over the candidates: the two-sample KS statistic of the returned scores."""
    if c.tp.size < 2 or c.tp[-1] <= 0 or c.fp[-1] <= 0:
        return float("nan")
    return float(np.max(np.abs(c.tp / c.tp[-1] - c.fp / c.fp[-1])))


def prg_points(c: Candidates) -> tuple[FloatArray, FloatArray]:
    """(recall gain, precision gain) at every distinct score (Flach and Kull 2015), thresholds descending.

    pi = num_positive_ref / (num_positive_ref + num_negative_ref); gain(v) = (v - pi) / ((1 - pi) v).
    Recall gain is -inf where recall is 0.
    """
    pi = c.pos / (c.pos + c.neg) if c.pos + c.neg else float("nan")
    tp, fp = c.tp[1:], c.fp[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        prec, rec = tp / (tp + fp), tp / c.pos
        pg = (prec - pi) / ((1.0 - pi) * prec)
        rg = (rec - pi) / ((1.0 - pi) * rec)
    return np.asarray(rg, dtype=np.float64), np.asarray(pg, dtype=np.float64)


def area_under_prg(rg: FloatArray, pg: FloatArray) -> float:
    """Area under the PRG curve over recall gain in [0, 1], linear between points in PRG space.

    The points are taken in order of ascending recall gain; the segment crossing recall gain 0 is
    cut there (its precision gain interpolated), and the points left of 0 are dropped. NaN when
    no point has recall gain >= 0 or the gains are undefined (one class missing).
    """
    ok = ~np.isnan(rg) & ~np.isnan(pg)
    rg, pg = rg[ok], pg[ok]
    if not rg.size or rg[-1] < 0.0 or np.all(rg < 0.0):
        return float("nan")
    first = int(np.searchsorted(rg, 0.0, side="left"))  # rg ascending along descending thresholds
    xs, ys = list(rg[first:]), list(pg[first:])
    if first > 0 and rg[first] > 0.0 and np.isfinite(rg[first - 1]):
        x0, y0, x1, y1 = rg[first - 1], pg[first - 1], rg[first], pg[first]
        xs.insert(0, 0.0)
        ys.insert(0, float(y0 + (y1 - y0) * (0.0 - x0) / (x1 - x0)))
    x, y = np.asarray(xs), np.asarray(ys)
    return float(np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0))


__test__ = {"Decision": Decision}
