"""The split certification's fast path decides as the literal procedure written here.

The fast path draws the coins as raw 64-bit words (not floats), keeps the ordering half's running
counts in int32 and orders the feasible candidates with two unstable sorts; each is held to what it
replaces, and the whole certified choice to a slow, literal Learn-then-Test: a fair coin per case
(``rng.random() < 0.5``), the ordering half's counts by a loop, z-scores, a stable sort in Python,
exact binomial tails in rational arithmetic and fixed-sequence testing to the first failure.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from scored_pr._core import decisions as D


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3000) | st.sampled_from([65_536, 65_537, 200_001]))
def test_fair_coins_are_the_float_coins_and_leave_the_same_state(seed: int, size: int) -> None:
    fast, slow = np.random.default_rng(seed), np.random.default_rng(seed)
    np.testing.assert_array_equal(D._fair_coins(fast, size), slow.random(size) < 0.5)
    assert fast.binomial(1000, 0.5) == slow.binomial(1000, 0.5)  # the stream goes on from the same place


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([-math.inf, -1.5, 0.0, 0.25, 0.25000000000000006, 1.0, 3.0, math.inf, math.nan]),
                max_size=80))  # fmt: skip
def test_descending_stable_is_the_stable_argsort(values: list[float]) -> None:
    z = np.array(values, dtype=np.float64)
    np.testing.assert_array_equal(D._descending_stable(z), np.argsort(-z, kind="stable"))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans()), max_size=120),
       st.sampled_from(["bools", "weights"]))  # fmt: skip
def test_half_counts_are_the_running_counts_of_the_ordering_half(cases: list[tuple[bool, bool, bool]],
                                                                 coins: str) -> None:  # fmt: skip
    """Each candidate's (TP, FP) of the ordering half, as a loop counts them, with the ends of every case or of tie groups."""
    correct = np.array([c for c, _, _ in cases], dtype=bool)
    first: np.ndarray = np.array([f for _, f, _ in cases], dtype=bool)
    if coins == "weights":
        first = first.astype(np.float64) * 2.0
    ends_all = np.arange(len(cases) + 1)
    group_ends = np.array([0] + [i + 1 for i, (_, _, end) in enumerate(cases) if end or i == len(cases) - 1])
    for ends in (ends_all, group_ends):
        tp, fp = D._half_counts(ends, correct, first)
        want_tp = [float(sum(first[:e] * correct[:e])) for e in ends]
        want_fp = [float(sum(first[:e] * ~correct[:e])) for e in ends]
        np.testing.assert_array_equal(np.asarray(tp, dtype=np.float64), want_tp)
        np.testing.assert_array_equal(np.asarray(fp, dtype=np.float64), want_fp)


def _tail_at_least(k: int, n: int, target: float) -> Fraction:
    """P(Binomial(n, target) >= k), exactly (the target as the float it is)."""
    t = Fraction(target)
    return sum((math.comb(n, j) * t**j * (1 - t) ** (n - j) for j in range(max(k, 0), n + 1)), Fraction(0))


def _literal(scores: list[float], labels: list[bool], subject_to: dict[str, float], confidence: float,
             seed: int) -> tuple[float | None, int]:  # fmt: skip
    """Learn-then-Test with a split, as its docstring states it, one case and one candidate at a time."""
    rng = np.random.default_rng(seed)
    ranked = sorted(zip(scores, labels), key=lambda p: -p[0])  # ties: any order, a group is never split
    coin = [bool(rng.random() < 0.5) for _ in ranked]  # one fair coin per case, in ranked order
    thresholds = [math.inf] + sorted(set(scores), reverse=True)
    pos, neg = sum(labels), len(labels) - sum(labels)
    pos_a = sum(1 for (_, y), a in zip(ranked, coin) if a and y)
    neg_a = sum(1 for (_, y), a in zip(ranked, coin) if a and not y)

    def counts(t: float, half: bool | None) -> tuple[int, int]:
        keep = [(y, a) for (s, y), a in zip(ranked, coin) if s >= t and (half is None or a == half)]
        return sum(1 for y, _ in keep if y), sum(1 for y, _ in keep if not y)

    def sizes(key: str, tp: int, fp: int, p: int) -> tuple[int, int]:
        return (tp, tp + fp) if key == "precision" else (tp, p)

    def z(i: int) -> float:
        tp, fp = counts(thresholds[i], True)
        least = math.inf
        for key, target in subject_to.items():
            k, n = sizes(key, tp, fp, pos_a)
            least = min(least, -math.inf if n <= 0 else (k - target * n) / math.sqrt(n * (target * (1.0 - target))))
        return least

    order = sorted(range(len(thresholds)), key=lambda i: (-z(i), i))  # most sure first; ties: higher threshold
    delta = Fraction(1.0 - confidence)
    certified = []
    for i in order:  # fixed-sequence testing on the other half, to the first failure
        tp, fp = counts(thresholds[i], False)
        ok = True
        for key, target in subject_to.items():
            k, n = sizes(key, tp, fp, pos - pos_a)
            ok = ok and n > 0 and _tail_at_least(k, n, target) <= delta
        if not ok:
            break
        certified.append(i)
    if not certified:
        return None, -1
    # the greatest recall (TP over every case), the highest threshold on a tie
    best = max(certified, key=lambda i: (counts(thresholds[i], None)[0], -i))
    return thresholds[best], counts(thresholds[best], None)[0]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.booleans()), min_size=1, max_size=70),
       st.sampled_from([{"precision": 0.5}, {"precision": 0.3}, {"precision": 0.6, "recall": 0.2}]),
       st.sampled_from([0.6, 0.8, 0.95]), st.integers(0, 1000))  # fmt: skip
def test_certified_split_choice_is_the_literal_procedure(cases: list[tuple[int, bool]], subject_to: dict[str, float],
                                                         confidence: float, seed: int) -> None:  # fmt: skip
    scores = [s / 4.0 for s, _ in cases]
    labels = [y for _, y in cases]
    order = np.argsort(-np.array(scores), kind="stable")
    ranked = np.array(scores)[order]
    correct = np.array(labels, dtype=bool)[order]
    pos = float(sum(labels))
    c = D.ranking_candidates(-ranked, correct, None, pos, float(len(labels)) - pos)
    got = D.choose_certified(c, "recall", subject_to, confidence, (ranked, correct, None, 0, 0), seed)
    threshold, tp = _literal(scores, labels, subject_to, confidence, seed)
    if threshold is None:
        assert not got.feasible
    else:
        assert got.feasible and got.threshold == threshold and got.tp == tp


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 300_000), st.sampled_from([0.05, 0.3, 0.5, 0.9, 0.99]), st.floats(-1.0, 6.0))
def test_tail_bracket_holds_the_exact_tail(n: int, target: float, spreads: float) -> None:
    """log_tail_bracket's bounds hold scipy's exact binomial tail and are tight enough to decide at 1e-6."""
    scipy_stats = pytest.importorskip("scipy.stats")
    from scored_pr._core import binomial

    k = min(n, math.floor(n * target + spreads * math.sqrt(n * target * (1 - target))) + 1)
    kk, nn = np.array([float(k)]), np.array([float(n)])
    log_mass = np.array([scipy_stats.binom.logpmf(k, n, target)])
    low, high = binomial.log_tail_bracket(kk, nn, log_mass, target)
    exact = scipy_stats.binom.logsf(k - 1, n, target)
    # scipy's logpmf and logsf of counts near 300,000 carry about 1e-9 of rounding themselves (n = 256,888,
    # target 0.99 was off by 1.0e-9): 1e-8, still a hundredth of the 1e-6 margin the screens keep
    assert low[0] <= exact + 1e-8 and exact <= high[0] + 1e-8
    if k > n * target and exact > -700:
        assert high[0] - low[0] < 1e-7  # the band left to the exact tail is that narrow


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 4000), st.sampled_from([{"precision": 0.9}, {"precision": 0.6},
       {"precision": 0.7, "recall": 0.2}, {"precision": 0.5, "fpr": 0.3}]), st.sampled_from([0.5, 0.9, 0.95, 0.999]),
       st.integers(0, 3))  # fmt: skip
def test_the_unsorted_walk_certifies_what_the_sorted_walk_does(seed: int, size: int, subject_to: dict[str, float],
                                                                confidence: float, digits: int) -> None:  # fmt: skip
    """The first failure found without a sort (screens, then brackets up to the surest failure) is the sorted walk's.

    Test-half counts of precisions around the target, each ordered by its own z-score plus noise
    (rounded: ties, which go to the lower position), so that the walk certifies a good part of them
    before its first failure; the sorted walk is ``_first_failure`` over ``np.argsort(-z, kind="stable")``.
    """
    from scored_pr._core import split_walk

    rng = np.random.default_rng(seed)
    t = subject_to["precision"]
    n = rng.integers(1, 3000, size).astype(np.float64)
    tp = rng.binomial(n.astype(np.int64), rng.uniform(t - 0.1, min(1.0, t + 0.1), size)).astype(np.float64)
    fp = n - tp
    pos, neg = float(tp.max() + rng.integers(0, 500)), float(fp.max() + rng.integers(0, 500))
    z = np.round((tp - t * n) / np.sqrt(n * t * (1 - t)) + rng.normal(0.0, 0.5, size), digits)
    delta = 1.0 - confidence
    got = split_walk.certified_unsorted(subject_to, z, tp, fp, pos, neg, delta)
    order = np.argsort(-z, kind="stable")
    tp_b, fp_b = tp[order], fp[order]
    passed = D._first_failure(lambda at: D._all_reject(subject_to, tp_b[at], fp_b[at], pos, neg, delta), size,
                              lambda lo, hi: D._all_screen(subject_to, tp_b[lo:hi], fp_b[lo:hi], pos, neg, delta))  # fmt: skip
    want = np.zeros(size, dtype=bool)
    want[order[:passed]] = True
    if got is not None:  # None: an exact tail had to decide, and the certification walks the sorted order
        np.testing.assert_array_equal(got, want)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 1.0, 2.0, 0.1, 1e-17]), st.booleans()), min_size=1, max_size=40),
       st.sampled_from([0.0, 1.0, 2.0**60]))  # fmt: skip
def test_best_certified_recall_is_best_of_the_certified_recalls(steps: list[tuple[float, bool]], extra: float) -> None:
    tp = np.cumsum([0.0] + [a for a, _ in steps])
    c = D.Candidates(np.arange(tp.size, dtype=np.float64)[::-1], tp, np.zeros(tp.size), float(tp[-1] + extra), 1.0,
                     False)  # fmt: skip
    if c.pos <= 0:
        return
    certified = np.flatnonzero([True] + [keep for _, keep in steps])
    j = D._best(D.measure("recall", c)[certified], None)
    assert j is not None and D._best_certified(c, "recall", certified) == int(certified[j])


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 300_000), st.sampled_from([0.05, 0.3, 0.5, 0.9, 0.99]), st.floats(-1.0, 6.0),
       st.sampled_from([0.5, 0.1, 0.05, 0.001]))  # fmt: skip
def test_product_bracket_decides_as_the_exact_tail(n: int, target: float, spreads: float, delta: float) -> None:
    """split_walk's bracket (a running product of the terms' ratios) decides only as scipy's exact tail does,
    and leaves open only tails near delta."""
    scipy_stats = pytest.importorskip("scipy.stats")
    from scored_pr._core import split_walk

    k = min(n, math.floor(n * target + spreads * math.sqrt(n * target * (1 - target))) + 1)
    got = int(split_walk._bracketed(np.array([float(k)]), np.array([float(n)]), target, delta)[0])
    exact = scipy_stats.binom.logsf(k - 1, n, target)
    if got != -1:
        assert got == int(exact <= math.log(delta))
    elif k > n * target:
        assert abs(exact - math.log(delta)) < 1e-5  # open only at delta itself
