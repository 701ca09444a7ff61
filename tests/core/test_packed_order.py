"""The one-sort ranking of distinct scores (label packed into the sort key) against a stable argsort.

``rank_order`` packs each case's label into a uint64 key beside its score's
bits whenever the scores' magnitudes span less than about 2**1023, and
otherwise sorts each class and merges. Both must give exactly what a stable
argsort of the negated scores gives: every bit of every score (signed
zeros, subnormals, infinities) and every label.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scored_pr._core.ranking as ranking
from scored_pr._core.ranking import rank_order

_EXTREMES = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, -1e-300, 1e300, -1e300,
             np.finfo(np.float64).max, -np.finfo(np.float64).max, np.inf, -np.inf]  # fmt: skip


def _count_merges(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the rankings that took the per-class sort and merge, appended as they run."""
    calls: list[int] = []
    merged = ranking._merged_order

    def counting(neg: Any, correct: Any) -> Any:
        calls.append(neg.size)
        return merged(neg, correct)

    monkeypatch.setattr(ranking, "_merged_order", counting)
    return calls


def _assert_stable_argsort(neg: Any, correct: Any) -> None:
    o = np.argsort(neg, kind="stable")
    out, cor = rank_order(neg, correct)
    assert out.tobytes() == neg[o].tobytes()
    np.testing.assert_array_equal(cor, correct[o])


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(2048, 6000),
    st.sampled_from(["logits", "probabilities", "negative", "wide logits", "float32"]),
    st.sampled_from([0.0, 0.02, 0.5, 0.98, 1.0]),
    st.lists(st.sampled_from(_EXTREMES), max_size=4),
)
def test_distinct_scores_rank_as_a_stable_argsort(seed: int, n: int, kind: str, p: float, extra: list[float]) -> None:
    rng = np.random.default_rng(seed)
    scores = {
        "logits": lambda: rng.normal(size=n) * 4,
        "probabilities": lambda: rng.random(n),
        "negative": lambda: -rng.random(n) - 1.0,
        "wide logits": lambda: rng.normal(size=n) * 10.0 ** rng.integers(-5, 6, n),
        "float32": lambda: rng.normal(size=n).astype(np.float32).astype(np.float64),
    }[kind]()
    scores[rng.integers(0, n, len(extra))] = extra  # a lone -0.0, subnormals, huge magnitudes, infinities
    correct = rng.random(n) < p
    _assert_stable_argsort(-scores, correct)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_distinct_scores_take_one_packed_sort(sign: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Probabilities, logits and a lone -0.0 are sorted once, with no per-class sort and merge."""
    monkeypatch.setattr(ranking, "_merged_order", lambda *a: pytest.fail("the classes were sorted and merged"))
    rng = np.random.default_rng(7)
    for scores in (rng.random(5000), rng.normal(size=5000) * 8):
        scores = sign * scores
        scores[17] = -0.0
        _assert_stable_argsort(-scores, rng.random(scores.size) < 0.3)


def test_magnitudes_too_wide_for_a_spare_bit_sort_each_class_and_merge(monkeypatch: pytest.MonkeyPatch) -> None:
    """1e-300 beside 1e300 leaves no bit for the label: the classes are sorted and merged, exactly."""
    calls = _count_merges(monkeypatch)
    rng = np.random.default_rng(3)
    scores = rng.normal(size=4000)
    scores[:2] = [1e-300, -1e300]
    _assert_stable_argsort(-scores, rng.random(scores.size) < 0.4)
    assert calls == [4000]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(2048, 5000),
    st.sampled_from([64, 257, 1024]),
    st.lists(st.sampled_from(_EXTREMES), max_size=6),
)
def test_packed_keys_block_by_block_rank_as_a_stable_argsort(seed: int, n: int, block: int, extra: list[float]) -> None:
    """The extremes, the keys and the read-back go block by block: zeros in one block and the smallest
    magnitude in another, and the negative scores ending inside a block, still rank exactly."""
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=n) * 4
    scores[rng.integers(0, n, len(extra))] = extra
    scores[rng.integers(0, n // 2)] = 0.0  # a zero early, a tiny magnitude late
    scores[rng.integers(n // 2, n)] = 1e-9
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ranking, "_HASH_BLOCK", block)
        _assert_stable_argsort(-scores, rng.random(n) < 0.3)


def _literal_points(neg: Any, correct: Any, ties: str) -> tuple[Any, Any]:
    """(cut-offs, true positives) of every point, from a stable argsort and a loop over the cases."""
    o = np.argsort(neg, kind="stable")
    s, c = neg[o], correct[o]
    ret, tp, count = [], [], 0
    for i in range(s.size):
        count += int(c[i])
        if ties == "stable":  # a point after every correct case
            new_point = bool(c[i])
        else:  # a point at the end of every tie group that adds a correct case
            new_point = (i + 1 == s.size or s[i + 1] != s[i]) and count > (tp[-1] if tp else 0)
        if new_point:
            ret.append(i + 1)
            tp.append(count)
    return np.asarray(ret, dtype=np.int64), np.asarray(tp, dtype=np.int64)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(2048, 4000),
    st.sampled_from([0.5, 1.9, 6.0, 1e5]),  # off = 0 below 2, else a tiny offset
    st.sampled_from([0.0, 0.01, 0.3]),  # the share of zeros, of either sign
    st.sampled_from([0, 5, 400]),  # values repeated: ties, mixed groups among them
    st.lists(st.sampled_from([np.inf, -np.inf, 5e-324, -2.2250738585072014e-308, 1e-300]), max_size=2),
    st.sampled_from(["grouped", "stable"]),
)
def test_packed_keys_with_zeros_ties_and_extremes_equal_a_literal_stable_sort(
    seed: int, n: int, scale: float, zeros: float, repeats: int, extra: list[float], ties: str
) -> None:
    """The keys set from the largest magnitude: zeros of both signs inside the band (counted), a subnormal
    or an infinity beside large scores (the merge), ties and mixed tie groups; the rankings and the
    points of both tie policies equal those of a literal stable sort."""
    from scored_pr._core.points import operating_points

    rng = np.random.default_rng(seed)
    scores = rng.uniform(-scale, scale, n)
    z = rng.random(n) < zeros
    scores[z] = np.where(rng.random(int(z.sum())) < 0.5, 0.0, -0.0)
    if repeats:
        scores[rng.integers(0, n, repeats)] = scores[rng.integers(0, n, repeats)]
    scores[rng.integers(0, n, len(extra))] = extra
    correct = rng.random(n) < 0.4
    neg = -scores
    _assert_stable_argsort(neg, correct)
    out, cor = rank_order(neg, correct)
    points = operating_points(out, cor, ties)
    ret, tp = _literal_points(neg, correct, ties)
    np.testing.assert_array_equal(points.retrieved, ret)
    np.testing.assert_array_equal(points.tp, tp)


@pytest.mark.parametrize("scale", [0.9, 6.0])
def test_zeros_of_both_signs_take_the_packed_sort(scale: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Zeros (either sign, both classes) sit in the band of keys, which holds nothing else: no merge."""
    monkeypatch.setattr(ranking, "_merged_order", lambda *a: pytest.fail("the classes were sorted and merged"))
    rng = np.random.default_rng(9)
    scores = rng.normal(size=6000) * scale
    scores[::50] = 0.0
    scores[7::50] = -0.0
    _assert_stable_argsort(-scores, rng.random(scores.size) < 0.3)


def test_a_subnormal_beside_logits_sorts_each_class_and_merges(monkeypatch: pytest.MonkeyPatch) -> None:
    """5e-324 beside scores of magnitude 6 falls in the band with the zeros: the band is not only zeros,
    so the classes are sorted and merged, exactly."""
    calls = _count_merges(monkeypatch)
    rng = np.random.default_rng(4)
    scores = rng.normal(size=5000) * 2
    scores[:3] = [6.0, 5e-324, 0.0]
    _assert_stable_argsort(-scores, rng.random(scores.size) < 0.4)
    assert calls == [5000]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(2048, 6000),
    st.sampled_from([1.0, 4.0, 1e6]),
    st.integers(0, 40),
    st.lists(st.sampled_from(_EXTREMES), max_size=6),
)
def test_the_tie_scan_of_the_keys_is_the_scan_of_the_scores(seed: int, n: int, scale: float, repeats: int, extra: list[float]) -> None:
    """The packed keys' tie scan (made while they are read back) is ``out[1:] == out[:-1]`` of the sorted
    scores: zeros of both signs equal (their keys differ when the largest magnitude is 2 or more), every
    other pair equal iff its scores are; and rank_order_ties calls a ranking distinct iff it has no tie."""
    rng = np.random.default_rng(seed)
    neg = rng.normal(size=n) * scale
    neg[rng.integers(0, n, repeats)] = neg[rng.integers(0, n, repeats)]  # a few ties, maybe
    neg[: len(extra)] = extra
    correct = rng.random(n) < 0.4
    out, cor, distinct = ranking.rank_order_ties(neg, correct)
    o = np.argsort(neg, kind="stable")
    assert out.tobytes() == neg[o].tobytes()
    np.testing.assert_array_equal(cor, correct[o])
    assert distinct == (not np.any(out[1:] == out[:-1]))
    packed = ranking._packed_order(neg, correct)
    if packed[2] is not None:
        np.testing.assert_array_equal(packed[2], packed[0][1:] == packed[0][:-1])


def test_zeros_of_both_signs_beside_large_scores_are_one_tie_group() -> None:
    neg = np.linspace(-5.0, 5.0, 4000)
    neg[[10, 2000, 3000]] = [0.0, -0.0, 0.0]
    neg = np.where(neg == 0.0, neg, neg + 1e-3)  # the other scores distinct and away from zero
    correct = np.arange(4000) % 3 == 0
    out, cor, same = ranking._packed_order(neg, correct)
    assert same is not None
    zeros = np.flatnonzero(out == 0.0)
    assert zeros.size == 3 and same[zeros[:-1]].all() and not same[zeros[0] - 1] and not same[zeros[-1]]
    assert ranking.rank_order_ties(neg, correct)[2] is False
