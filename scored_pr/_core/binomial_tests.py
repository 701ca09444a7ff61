"""The exact binomial test of one decision constraint at many candidates, and the screens that spare most of it.

A constraint (precision, recall, fpr, tnr, accepted fraction) at a candidate threshold is a binomial
proportion: successes k of trials n (:func:`_sizes`). "The constraint fails" is rejected at level
``delta`` when its exact binomial p-value is <= delta (:func:`p_values`); :func:`screen` decides most
candidates from rigorous bounds (Chernoff, the median, the point mass), :func:`rejects` brackets
the tail of the rest and computes the exact tail only where nothing else can tell. Pure numpy;
:mod:`scored_pr._core.decisions` re-exports every name.
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np
import numpy.typing as npt

from . import binomial as B

FloatArray = npt.NDArray[np.float64]

#: The constrained measures and their direction: ">=" (at least) or "<=" (at most).
CONSTRAINTS: dict[str, str] = {"precision": ">=", "recall": ">=", "fpr": "<=", "tnr": ">=", "accepted_fraction": "<="}


def _sizes(key: str, tp: FloatArray, fp: FloatArray, pos: float, neg: float) -> tuple[FloatArray, FloatArray]:
    """(successes, trials) of a constraint's binomial proportion at each candidate."""
    if key == "precision":
        return tp, tp + fp
    if key == "recall":
        return tp, np.full(tp.shape, pos)
    if key == "tnr":
        return neg - fp, np.full(tp.shape, neg)
    if key == "fpr":
        return fp, np.full(tp.shape, neg)
    return tp + fp, np.full(tp.shape, pos + neg)  # accepted_fraction


def p_values(key: str, target: float, tp: FloatArray, fp: FloatArray, pos: float, neg: float) -> FloatArray:
    """The exact binomial p-value of "the constraint fails" at each candidate (small: it holds).

    ">= target": P(Binomial(n, target) >= k); "<= target": P(Binomial(n, target) <= k), with
    (k, n) the proportion's successes and trials. A vacuous constraint (>= 0, <= 1) has p = 0;
    no trials (n = 0) gives p = 1.
    """
    k, n = _sizes(key, tp, fp, pos, neg)
    if CONSTRAINTS[key] == ">=":
        if target <= 0.0:
            return np.zeros(k.shape)
        p = B.tail_at_least(k, n, target)
    else:
        if target >= 1.0:
            return np.zeros(k.shape)
        p = B.tail_at_most(k, n, target)
    return np.where(n > 0, p, 1.0)


def bound(key: str, k: float, n: float, confidence: float) -> float:
    """The one-sided Clopper-Pearson bound a constraint checks: lower for ">=", upper for "<="."""
    if CONSTRAINTS[key] == ">=":
        return B.clopper_pearson_lower(k, n, confidence)
    return B.clopper_pearson_upper(k, n, confidence)


def screen(key: str, target: float, tp: FloatArray, fp: FloatArray, pos: float, neg: float,
           delta: float) -> npt.NDArray[np.int8]:  # fmt: skip
    """What the exact binomial test at level ``delta`` decides, where two rigorous screens can tell.

    1: rejects "the constraint fails" (Chernoff's bound P(X >= k) <= exp(-n KL(k/n, p)), k/n > p,
    is already <= delta); 0: does not (k <= n p, so P(X >= k) >= 1/2, the binomial's median being
    floor(np) or ceil(np), with delta < 1/2; or no trials); -1: the exact tail must say.
    """
    k, n = _sizes(key, tp, fp, pos, neg)
    if CONSTRAINTS[key] == "<=":  # P(X <= k) under target = P(n - X >= n - k) under 1 - target
        k, target = n - k, 1.0 - target
    if target <= 0.0:
        return np.ones(k.shape, dtype=np.int8)
    out = np.full(k.shape, -1, dtype=np.int8)
    out[n <= 0] = 0
    if delta < 0.5:
        out[(n > 0) & (k <= n * target)] = 0
    if target < 1.0:
        with np.errstate(divide="ignore", invalid="ignore"):
            q = np.where(n > 0, k / np.where(n > 0, n, 1.0), 0.0)
            kl = (np.where(q > 0, q * np.log(q / target), 0.0)
                  + np.where(q < 1, (1 - q) * np.log((1 - q) / (1 - target)), 0.0))  # fmt: skip
        out[(out == -1) & (q > target) & (-n * kl <= math.log(delta) - 1e-9)] = 1
        _point_mass_screen(out, k, n, target, delta)
    return out


def _point_mass_screen(out: npt.NDArray[np.int8], k: FloatArray, n: FloatArray, target: float, delta: float) -> None:
    """Decide more of the undecided tests (``out == -1``) from the point mass P(X = k), X ~ Binomial(n, target).

    P(X >= k) >= P(X = k), so P(X = k) > delta cannot reject (0). For k > n target the terms after
    k shrink at least geometrically, by r = (n - k) target / ((k + 1) (1 - target)) < 1, so
    P(X >= k) <= P(X = k) / (1 - r): at most delta rejects (1). The log point mass comes from
    lgamma; the margin (1e-6 in the log, far above its rounding at any count numpy holds) keeps
    both screens on the side the exact tail would take. Only the band between the two is left.
    """
    live = np.flatnonzero(out == -1)
    if not live.size or not 0.0 < target < 1.0:
        return
    kk, nn = k[live], n[live]
    log_mass = (B.log_gamma(nn + 1.0) - B.log_gamma(kk + 1.0) - B.log_gamma(nn - kk + 1.0)
                + kk * math.log(target) + (nn - kk) * math.log1p(-target))  # fmt: skip
    log_delta = math.log(delta)
    out[live[log_mass >= log_delta + 1e-6]] = 0
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (nn - kk) * target / ((kk + 1.0) * (1.0 - target))
        log_upper = log_mass - np.log1p(-np.minimum(r, 1.0))
    sure = (kk > nn * target) & (r < 1.0) & (log_upper <= log_delta - 1e-6)
    out[live[sure & (out[live] == -1)]] = 1


def screened(key: str, target: float, tp: FloatArray, fp: FloatArray, pos: float, neg: float,
             delta: float) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64], FloatArray, FloatArray, float]:  # fmt: skip
    """:func:`screen`'s state, the positions it leaves open (-1), and theirs as an upper tail P(X >= k), X ~ Binomial(n, t).

    (successes, trials) of ">=" constraints; (failures, trials) and 1 - target of "<=" ones.
    """
    state = screen(key, target, tp, fp, pos, neg, delta)
    live = np.flatnonzero(state == -1)
    k, n = _sizes(key, tp[live], fp[live], pos, neg)
    t = target
    if CONSTRAINTS[key] == "<=":
        k, t = n - k, 1.0 - target
    return state, live, k, n, t


def rejects(key: str, target: float, tp: FloatArray, fp: FloatArray, pos: float, neg: float,
            delta: float) -> npt.NDArray[np.bool_]:  # fmt: skip
    """Whether the exact binomial test rejects "the constraint fails" at level ``delta``: ``p_values(...) <= delta``.

    The exact tail is computed only where :func:`screen` cannot decide.
    """
    state, live, k, n, t = screened(key, target, tp, fp, pos, neg, delta)
    if live.size:
        # the tail bracketed by the sum of the terms after k decides all but the tails within
        # about 1e-6 (relative) of delta (the point mass screen's margin), as the exact tail would;
        # if one is left, the exact tail of every one, as one batch: its vectorised continued
        # fraction runs until its slowest value converges, so a tail at delta itself could round
        # either way with another batch, and the batch is the one it always was
        decided = _bracketed(k, n, t, delta) if 0.0 < t < 1.0 else np.full(live.size, -1, dtype=np.int8)
        if (decided == -1).any():
            decided = (B.tail_at_least(k, n, t) <= delta).astype(np.int8)
        state[live] = decided
    return state == 1


def _bracketed(k: FloatArray, n: FloatArray, t: float, delta: float) -> npt.NDArray[np.int8]:
    """1 where P(X >= k) <= delta surely, 0 where surely not, -1 where only the exact tail can tell (0 < t < 1)."""
    log_mass = (B.log_gamma(n + 1.0) - B.log_gamma(k + 1.0) - B.log_gamma(n - k + 1.0)
                + k * math.log(t) + (n - k) * math.log1p(-t))  # fmt: skip
    low, high = B.log_tail_bracket(k, n, log_mass, t)
    log_delta = math.log(delta)
    return np.where(low >= log_delta + 1e-6, 0, np.where(high <= log_delta - 1e-6, 1, -1)).astype(np.int8)


def _all_reject(subject_to: Mapping[str, float], tp: FloatArray, fp: FloatArray, pos: float, neg: float,
                delta: float) -> npt.NDArray[np.bool_]:  # fmt: skip
    """The intersection-union test: rejected where every constraint's test rejects (each at the full level)."""
    ok = np.ones(tp.shape, dtype=bool)
    for key, target in subject_to.items():
        ok &= rejects(key, target, tp, fp, pos, neg, delta)
    return ok


def _all_screen(subject_to: Mapping[str, float], tp: FloatArray, fp: FloatArray, pos: float, neg: float,
                delta: float) -> npt.NDArray[np.int8]:  # fmt: skip
    """:func:`screen` of the intersection-union test: 0 if a constraint surely fails, 1 if all surely pass, else -1."""
    if len(subject_to) == 1:  # one constraint: its screen is the test's (no combining passes)
        key, target = next(iter(subject_to.items()))
        return screen(key, target, tp, fp, pos, neg, delta)
    state = np.ones(tp.shape, dtype=np.int8)
    for key, target in subject_to.items():
        st = screen(key, target, tp, fp, pos, neg, delta)
        state = np.where((state == 0) | (st == 0), 0, np.where((state == 1) & (st == 1), 1, -1)).astype(np.int8)
    return state
