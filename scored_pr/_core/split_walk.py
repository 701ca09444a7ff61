"""Fixed-sequence testing of the split certification without sorting the candidates.

Learn-then-Test with a split (:func:`scored_pr._core.decisions.certify`) tests the candidates in
the order of their ordering-half z-scores (descending; ties by ascending candidate) and certifies
those before the first hypothesis it cannot reject. That first failure is the failing candidate
of greatest (z, -index): so every test is decided where the screens can (elementwise, so the
order of the calls does not matter), the surest failure the screens find bounds the search, and
only the undecided candidates before it are bracketed. No sort of the candidates, no permutation
of their counts. Pure numpy over :mod:`scored_pr._core.binomial_tests`.
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np
import numpy.typing as npt

from . import binomial as B
from .binomial_tests import CONSTRAINTS, _all_screen, _sizes, screened

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Undecided tests bracketed at once: the bracket's terms per test stay at 4,000,000 / 1,024 and more.
_BATCH = 1024
#: Tests whose Bernstein screen is first tried at once, on the least favourable corner of their counts.
_RUN = 64
#: The terms a bracket sums, in spreads sqrt(n t (1 - t)) past k (and 64 more): at a tail near delta the terms
#: after 5 spreads are below 1e-9 of the sum; the bound of the rest keeps every bracket rigorous whatever it is.
_SPREADS = 6.0


def _bracketed(k: FloatArray, n: FloatArray, t: float, delta: float) -> npt.NDArray[np.int8]:
    """1 where P(X >= k) <= delta surely, 0 where surely not, -1 open; X ~ Binomial(n, t), 0 < t < 1, whole k.

    The bracket of :func:`~scored_pr._core.binomial.log_tail_bracket` (the sum of the m terms after
    k, and that sum plus the next term over 1 - r), its terms made by a running product of the
    ratios (n - j) t / ((j + 1) (1 - t)) instead of a running sum of their logs: no logarithm or
    exponential per term, a relative rounding of about m 1e-16 (m ~ 10 spreads: 1e-13), far
    inside the 1e-6 (in the log) both sides keep from delta. Past the mean (k > n t) the ratios
    fall below 1, so the products fall and never overflow; k <= n t is left open (the screens
    decide those). O(len(k) m).
    """
    out = np.full(k.shape, -1, dtype=np.int8)
    past = np.flatnonzero(k > n * t)
    if not past.size:
        return out
    k, n = k[past], n[past]
    m = int(min(_SPREADS * math.sqrt(float(np.max(n)) * t * (1.0 - t)) + 64.0, 4_000_000 // k.size))
    if m < 2:
        return out
    log_mass = (B.log_gamma(n + 1.0) - B.log_gamma(k + 1.0) - B.log_gamma(n - k + 1.0)
                + k * math.log(t) + (n - k) * math.log1p(-t))  # fmt: skip
    j = k[:, None] + np.arange(m - 1, dtype=np.float64)  # the ratio from term j to term j + 1
    terms = np.empty((k.size, m))
    terms[:, 0] = 1.0  # each term over P(X = k)
    ratio = np.maximum(n[:, None] - j, 0.0)
    ratio *= t
    ratio /= (j + 1.0) * (1.0 - t)
    np.cumprod(ratio, axis=1, out=terms[:, 1:])
    total = terms.sum(axis=1)
    last = k + m  # the first term left out
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (n - last) * t / ((last + 1.0) * (1.0 - t))
        after = terms[:, -1] * (np.maximum(n - (last - 1.0), 0.0) * t / (last * (1.0 - t)))
        rest = np.where(last > n, 0.0, after / (1.0 - np.minimum(r, 1.0)))
        low = log_mass + np.log(total)
        high = np.where((last > n) | (r < 1.0), log_mass + np.log(total + rest), np.inf)
    log_delta = math.log(delta)
    out[past] = np.where(low >= log_delta + 1e-6, 0, np.where(high <= log_delta - 1e-6, 1, -1))
    return out


def _decided(subject_to: Mapping[str, float], tp: FloatArray, fp: FloatArray, pos: float, neg: float,
             delta: float) -> npt.NDArray[np.int8]:  # fmt: skip
    """The intersection-union test where a screen or a bracket of the tail decides it: 1 rejected, 0 not, -1 open.

    What :func:`~scored_pr._core.binomial_tests.rejects` decides before its exact tail: each
    decision is the exact test's (the bracket holds the tail and keeps a margin of 1e-6 in the
    log, far above the exact tail's rounding), whatever the batch.
    """
    state = np.ones(tp.shape, dtype=np.int8)
    for key, target in subject_to.items():
        st, live, k, n, t = screened(key, target, tp, fp, pos, neg, delta)
        if live.size:
            if not 0.0 < t < 1.0:
                return np.full(tp.shape, -1, dtype=np.int8)  # no bracket: the exact tail must say (the sorted walk)
            for lo in range(0, live.size, _BATCH):
                st[live[lo : lo + _BATCH]] = _bracketed(k[lo : lo + _BATCH], n[lo : lo + _BATCH], t, delta)
        state = np.where((state == 0) | (st == 0), 0, np.where((state == 1) & (st == 1), 1, -1)).astype(np.int8)
    return state


def _bernstein_rejects(subject_to: Mapping[str, float], tp: FloatArray, fp: FloatArray, pos: float, neg: float,
                       delta: float) -> npt.NDArray[np.bool_]:  # fmt: skip
    """Where Bernstein's inequality already rejects every constraint's "it fails": a cheaper first screen, no logs.

    X ~ Binomial(n, t), s = k - n t > 0: P(X >= k) <= exp(-s^2 / (2 (n t (1 - t) + (1 - t) s / 3)))
    (the summands X_i - t are at most 1 - t). Rejects where that is <= delta, with the screens'
    margin (1e-6 in the log, and 1e-9 relative on the products). A subset of what Chernoff's
    bound in :func:`~scored_pr._core.binomial_tests.screen` rejects: a decision, never a guess.
    """
    ok = np.ones(tp.shape, dtype=bool)
    for key, target in subject_to.items():
        k, n = _sizes(key, tp, fp, pos, neg)
        t = target
        if CONSTRAINTS[key] == "<=":
            k, t = n - k, 1.0 - target
        if not 0.0 < t < 1.0:
            return np.zeros(tp.shape, dtype=bool)
        ok &= _bernstein_one(k, n, t, delta)
    return ok


def _bernstein_one(k: FloatArray, n: FloatArray, t: float, delta: float) -> npt.NDArray[np.bool_]:
    """:func:`_bernstein_rejects` of one upper tail P(X >= k), X ~ Binomial(n, t), 0 < t < 1."""
    need = 2.0 * (-math.log(delta) + 1e-6) * (1.0 + 1e-9)
    gap = np.multiply(n, t)
    np.subtract(k, gap, out=gap)  # s
    spread = np.multiply(n, t * (1.0 - t))
    spread += gap * ((1.0 - t) / 3.0)
    spread *= need
    ok = gap > 0.0
    np.multiply(gap, gap, out=gap)
    ok &= gap >= spread
    return ok


def _bernstein_runs(subject_to: Mapping[str, float], tp: FloatArray, fp: FloatArray, pos: float, neg: float,
                    delta: float) -> npt.NDArray[np.bool_]:  # fmt: skip
    """:func:`_bernstein_rejects` where the counts never fall along the positions, a run of :data:`_RUN` at a time first.

    In a run, each constraint's upper tail P(X >= k) (failures for "<=") is at most the tail of
    the run's largest n and smallest k (read at its two ends: each is monotone along the run),
    since a binomial tail grows with n and falls with k; where Bernstein's bound of that corner
    rejects, every test of the run is rejected (by the exact test too, whose p-value is then
    below delta by the margin). The runs left, and the last partial run, are screened one by one.
    """
    runs = tp.size // _RUN
    if runs < 4:
        return _bernstein_rejects(subject_to, tp, fp, pos, neg, delta)
    head = np.arange(runs) * _RUN
    tail = head + (_RUN - 1)
    sure = np.ones(runs, dtype=bool)
    for key, target in subject_to.items():
        k_a, n_a = _sizes(key, tp[head], fp[head], pos, neg)
        k_b, n_b = _sizes(key, tp[tail], fp[tail], pos, neg)
        t = target
        if CONSTRAINTS[key] == "<=":
            k_a, k_b, t = n_a - k_a, n_b - k_b, 1.0 - target
        if not 0.0 < t < 1.0:
            return np.zeros(tp.shape, dtype=bool)
        sure &= _bernstein_one(np.minimum(k_a, k_b), np.maximum(n_a, n_b), t, delta)
    out = np.zeros(tp.shape, dtype=bool)
    out[: runs * _RUN] = np.repeat(sure, _RUN)
    rest = np.flatnonzero(~out)
    out[rest] = _bernstein_rejects(subject_to, tp[rest], fp[rest], pos, neg, delta)
    return out


def _first_of(z: FloatArray, at: IntArray) -> int:
    """Among positions ``at`` (ascending), the first in the test order: greatest z, then the lowest position."""
    return int(at[int(np.argmax(z[at]))])  # argmax: the first greatest, so the lowest position on a tie


def certified_unsorted(subject_to: Mapping[str, float], z: FloatArray, tp: FloatArray, fp: FloatArray,
                       pos: float, neg: float, delta: float, cumulative: bool = False) -> npt.NDArray[np.bool_] | None:  # fmt: skip
    """Which of the ordered hypotheses fixed-sequence testing rejects, with no sort; None when it cannot tell.

    ``z``: each hypothesis's order statistic (finite or +inf; tested in descending z, ties by
    ascending position); ``tp``, ``fp``: the test half's counts, ``pos``, ``neg`` its reference
    counts; ``cumulative``: they never fall along the positions (candidates in ascending order), so
    Bernstein's screen is tried on runs of them first (:func:`_bernstein_runs`). Returns the mask of the hypotheses before the first that the test does not reject
    (every one when each is rejected). None where only the exact tail of a test could decide
    (a tail within about 1e-6 of ``delta``, or a target of 0 or 1 left open) or a z is NaN:
    the caller walks the sorted order then. O(d) passes plus O(u m) for u bracketed tests.
    """
    if np.isnan(z).any():
        return None
    screen = _bernstein_runs if cumulative else _bernstein_rejects
    sure = screen(subject_to, tp, fp, pos, neg, delta)
    rest = np.flatnonzero(~sure)
    state = np.ones(z.size, dtype=np.int8)
    state[rest] = _all_screen(subject_to, tp[rest], fp[rest], pos, neg, delta)
    fails = np.flatnonzero(state == 0)
    before: npt.NDArray[np.bool_] | None = None
    if fails.size:
        f = _first_of(z, fails)
        before = (z > z[f]) | ((z == z[f]) & (np.arange(z.size) < f))
        open_ = np.flatnonzero(before & (state == -1))
    else:
        open_ = np.flatnonzero(state == -1)
    if open_.size:  # the open tests in test order (few: a small sort), bracketed up to the first failure
        open_ = open_[np.lexsort((open_, -z[open_]))]
        i, batch = 0, 32
        while i < open_.size:
            part = open_[i : i + batch]
            got = _decided(subject_to, tp[part], fp[part], pos, neg, delta)
            if (got == -1).any():
                return None
            if (got == 0).any():
                f = int(part[int(np.argmin(got))])  # the first failure of the part, in test order
                before = (z > z[f]) | ((z == z[f]) & (np.arange(z.size) < f))
                break
            i, batch = i + batch, batch * 2
    return np.ones(z.size, dtype=bool) if before is None else before
