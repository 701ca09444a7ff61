"""The store's sort and the kernel's compact points against the algorithms they replaced.

``rank_order`` must give exactly what a stable argsort gives (every bit of
every score, -0.0 included, and the labels), and the compact ``Points`` must
hold exactly the counts of the straightforward construction below (group
ends of every case, then a point per group holding a correct case). Data
are drawn with numpy from Hypothesis-chosen parameters, so the arrays are
large enough to take every fast path (distinct scores, pure tie groups,
mixed tie groups with few or many distinct scores, signed zeros, infinities).
"""

from __future__ import annotations

import gc
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr._core import curves as C, points as P, scalars as M
from scored_pr._core.ranking import rank_order


def _data(
    seed: int, n: int, distinct: int, p_correct: float, zeros: float, infs: float, scatter: float = 0.0
) -> tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    if distinct == 0:
        scores = rng.normal(size=n)
    else:
        scores = rng.choice(rng.normal(size=distinct), size=n)
    if scatter:  # scattered ties: a few cases take the score of another case, as float32 scores do
        tied = rng.random(n) < scatter
        scores[tied] = scores[rng.integers(0, n, int(tied.sum()))]
    z = rng.random(n) < zeros
    scores[z] = np.where(rng.random(int(z.sum())) < 0.5, 0.0, -0.0)
    scores[rng.random(n) < infs] = np.inf
    scores[rng.random(n) < infs] = -np.inf
    correct = rng.random(n) < p_correct
    if p_correct > 0.5:  # pure tie groups: every tie among correct cases only
        correct |= np.isin(scores, scores[correct])
    return -scores, correct


params = st.tuples(
    st.integers(0, 2**32 - 1),
    st.integers(2040, 9000),
    st.sampled_from([0, 0, 1, 2, 7, 100, 1000, 3000]),
    st.sampled_from([0.0, 0.01, 0.3, 0.9, 1.0]),
    st.sampled_from([0.0, 0.0, 0.05, 0.5]),
    st.sampled_from([0.0, 0.001, 0.05]),
    st.sampled_from([0.0, 0.0, 0.001, 0.02, 0.2]),
)


@settings(max_examples=300, deadline=None)
@given(params)
def test_rank_order_is_a_stable_argsort_bit_for_bit(p: tuple[Any, ...]) -> None:
    neg, correct = _data(*p)
    o = np.argsort(neg, kind="stable")
    out, cor = rank_order(neg, correct)
    assert out.tobytes() == neg[o].tobytes()
    np.testing.assert_array_equal(cor, correct[o])


def _reference_points(neg: Any, correct: Any, ties: str) -> dict[str, Any]:
    """The previous construction: every tie group's end, then one point per group with a correct case."""
    correct_idx = np.flatnonzero(correct)
    if ties == "stable":
        retrieved = correct_idx + 1
        tp = np.arange(1, correct_idx.size + 1)
        return {"retrieved": retrieved, "tp": tp, "fp": retrieved - tp, "fp_before": retrieved - tp,
                "neg_score": neg[correct_idx]}  # fmt: skip
    n = neg.size
    ends = np.append(np.flatnonzero(neg[1:] != neg[:-1]) + 1, n) if n else np.zeros(0, dtype=np.int64)
    tp_end = np.searchsorted(correct_idx, ends)
    tp_start = np.concatenate(([0], tp_end[:-1]))
    start = np.concatenate(([0], ends[:-1]))
    has = tp_end > tp_start
    retrieved, tp = ends[has], tp_end[has]
    return {"retrieved": retrieved, "tp": tp, "fp": retrieved - tp, "fp_before": start[has] - tp_start[has],
            "neg_score": neg[retrieved - 1] if retrieved.size else neg[:0]}  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(params, st.sampled_from(["stable", "grouped"]))
def test_compact_points_hold_the_counts_of_the_full_construction(p: tuple[Any, ...], ties: str) -> None:
    neg, correct = rank_order(*_data(*p))
    points = P.operating_points(neg, correct, ties)
    for field, expected in _reference_points(neg, correct, ties).items():
        got = getattr(points, field)
        assert got.dtype == expected.dtype or (got.dtype.kind == expected.dtype.kind == "i"), field
        assert got.tobytes() == expected.astype(got.dtype).tobytes(), field
    assert points.total_tp == int(correct.sum()) and points.total_fp == int((~correct).sum())
    expected = _reference_points(neg, correct, ties)
    precision = expected["tp"] / expected["retrieved"].astype(np.float64)
    assert C.precision(points).tobytes() == precision.tobytes()
    rng = np.random.default_rng(p[0])
    for rank in [0, 1, neg.size, *rng.integers(0, neg.size + 1, 20).tolist()]:
        # slow literal: correct cases in the top `rank`, expected over the orderings of a cut tie group
        above = int(correct[:rank].sum())
        if ties == "grouped" and 0 < rank < neg.size and neg[rank - 1] == neg[rank]:
            lo = int(np.searchsorted(neg, neg[rank], "left"))
            hi = int(np.searchsorted(neg, neg[rank], "right"))
            before, inside = int(correct[:lo].sum()), int(correct[lo:hi].sum())
            num, den = M.true_positives_at(points, rank)
            assert num * (hi - lo) == (before * (hi - lo) + (rank - lo) * inside) * den
        else:
            assert M.true_positives_at(points, rank) == (above, 1)


@pytest.mark.parametrize("ties", ["stable", "grouped"])
def test_curves_are_cached_while_held_and_freed_when_dropped(ties: str) -> None:
    rng = np.random.default_rng(3)
    ev = E(ties=ties)
    ev.add_cases(rng.random(5000) < 0.3, rng.normal(size=5000))
    first = ev.pr_curve()
    assert ev.pr_curve() is first  # held: the same read-only array, O(1)
    values = first.copy()
    fpr, tpr, thr = ev.roc_points()
    assert ev.roc_points()[0] is fpr
    del first
    gc.collect()
    again = ev.pr_curve()
    np.testing.assert_array_equal(again, values)
    assert not again.flags.writeable
    ev.add_case(True, 10.0)  # a change drops the cache
    assert ev.pr_curve() is not again


def test_rank_order_with_a_thousand_distinct_scores_at_scale() -> None:
    # large enough for the hash table of tie groups at 1,000 distinct scores
    neg, correct = _data(7, 600_000, 1000, 0.3, 0.05, 0.001)
    o = np.argsort(neg, kind="stable")
    out, cor = rank_order(neg, correct)
    assert out.tobytes() == neg[o].tobytes()
    np.testing.assert_array_equal(cor, correct[o])


def test_few_distinct_values_take_the_radix_path_even_when_the_sample_misses_some() -> None:
    """Rare values the every-16th sample misses join the table on a second lookup; the order stays stable."""
    from scored_pr._core.ranking import _few_values_order

    rng = np.random.default_rng(3)
    common = rng.normal(size=500)
    scores = rng.choice(common, size=100_000)
    rare = np.arange(1, 51) * 1000.0 + 0.5  # fifty values that occur once each
    scores[rng.choice(100_000, size=50, replace=False)] = rare
    scores[rng.random(100_000) < 0.01] = -0.0  # signed zeros share a rank, keep their signs
    scores[rng.random(100_000) < 0.01] = 0.0
    neg, correct = -scores, rng.random(100_000) < 0.3
    assert not np.isin(rare, -neg[::16]).all()  # the sample did miss some
    got = _few_values_order(neg, correct)
    assert got is not None
    o = np.argsort(neg, kind="stable")
    assert got[0].tobytes() == neg[o].tobytes()
    np.testing.assert_array_equal(got[1], correct[o])
    # many distinct values: not this path
    assert _few_values_order(-rng.normal(size=50_000), correct[:50_000]) is None


def _assert_stable_argsort(neg: Any, correct: Any) -> None:
    o = np.argsort(neg, kind="stable")
    out, cor = rank_order(neg, correct)
    assert out.tobytes() == neg[o].tobytes()
    np.testing.assert_array_equal(cor, correct[o])


def _binormal(n: int, seed: int = 0) -> tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    correct = rng.random(n) < 0.3
    return rng.normal(size=n) + correct, correct


def _scattered_ties() -> dict[str, tuple[Any, Any]]:
    """1M binormal cases as the scores users meet: float32 outputs and rounded probabilities."""
    scores, correct = _binormal(1_000_000)
    prob = 1.0 / (1.0 + np.exp(-scores))
    return {
        "float32": (np.float64(scores.astype(np.float32)), correct),  # ~7,000 tie groups, 2,800 mixed
        "float32 probabilities": (np.float64(prob.astype(np.float32)), correct),
        "probabilities rounded to 7 digits": (np.round(prob, 7), correct),
        "probabilities rounded to 6 digits": (np.round(prob, 6), correct),  # a third of the cases in mixed groups
    }


@pytest.mark.parametrize("kind", list(_scattered_ties()))
def test_rank_order_with_scattered_ties_at_scale_is_a_stable_argsort(kind: str) -> None:
    scores, correct = _scattered_ties()[kind]
    _assert_stable_argsort(-scores, correct)
    signed = -scores
    signed[::1000] = np.where(np.arange(signed[::1000].size) % 2, 0.0, -0.0)  # a mixed tie group of signed zeros
    _assert_stable_argsort(signed, correct)


@pytest.mark.parametrize("kind", list(_scattered_ties()))
def test_scattered_ties_order_only_the_mixed_groups(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scores with scattered ties are not key-sorted case by case: only the mixed groups' cases are ordered."""
    import scored_pr._core.ranking as store

    def refuse(*args: Any) -> Any:
        raise AssertionError("every case was key-sorted or argsorted for a few scattered ties")

    monkeypatch.setattr(store, "_tie_order", refuse)
    scores, correct = _scattered_ties()[kind]
    _assert_stable_argsort(-scores, correct)


@pytest.mark.parametrize("kind", list(_scattered_ties()))
def test_grouped_points_of_scattered_ties_look_up_only_the_tied_points(kind: str) -> None:
    """The kernel reads the few points of a tie group apart; every field still equals the full construction."""
    scores, correct = _scattered_ties()[kind]
    neg, cor = rank_order(-scores, correct)
    points = P.operating_points(neg, cor, "grouped")
    few = points.size if "6 digits" in kind else points.size // 10  # rounding to 6 digits ties a third of the cases
    assert points._tied is not None and 0 < points._tied.size < few
    expected = _reference_points(neg, cor, "grouped")
    for field, want in expected.items():
        assert getattr(points, field).tobytes() == want.astype(getattr(points, field).dtype).tobytes(), field
    p, n = int(cor.sum()), int((~cor).sum())
    rows = C.roc_rows(points, p, n)
    assert rows.fp_start.tobytes() == expected["fp_before"].astype(np.float64).tobytes()
    assert rows.rr_start.tobytes() == (1.0 - expected["fp_before"] / np.float64(n)).tobytes()
    assert rows.rr_end.tobytes() == (1.0 - expected["fp"] / np.float64(n)).tobytes()
    # average precision: the sum of precision * (correct cases added) over the points, bit for bit
    dtp = np.diff(expected["tp"], prepend=0)
    want = P.seqsum(expected["tp"] / expected["retrieved"].astype(np.float64) * dtp) / p
    assert M.average_precision(points, p) == want


def test_scattered_ties_match_scikit_learn() -> None:
    from sklearn.metrics import average_precision_score, roc_auc_score

    scores, correct = _scattered_ties()["float32"]
    ev = E(ties="grouped")
    ev.add_cases(correct, scores)
    assert ev.average_precision() == pytest.approx(average_precision_score(correct, scores), rel=1e-12)
    assert ev.area_under_roc_curve(False) == pytest.approx(roc_auc_score(correct, scores), rel=1e-12)


@pytest.mark.parametrize("golden", ["_GOLDEN", "_GOLDEN2"])
def test_mixed_group_order_is_exact_when_every_score_shares_a_hash_slot(golden: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hash collisions only cost time: with a multiplier of 0 every case is a candidate, or every group is searched for."""
    import scored_pr._core.ranking as store

    monkeypatch.setattr(store, golden, np.uint64(0) if golden == "_GOLDEN" else 0)
    monkeypatch.setattr(store, "_tie_order", lambda *a: pytest.fail("the scattered ties were not ordered by _mixed_group_order"))
    for seed in range(3):
        neg, correct = _data(seed, 20_000, 0, 0.3, 0.002, 0.001, scatter=0.01)
        _assert_stable_argsort(neg, correct)


def test_tie_group_edges_by_stepping_match_a_binary_search() -> None:
    """Groups longer than the 16 steps are finished by searchsorted; every edge equals the binary search's."""
    from scored_pr._core.ranking import _run_bounds

    rng = np.random.default_rng(4)
    out = np.sort(np.repeat(rng.normal(size=300), rng.integers(1, 40, 300)))
    same = out[1:] == out[:-1]
    ranks = np.sort(rng.choice(out.size, 200, replace=False))
    start, end = _run_bounds(out, same, ranks)
    np.testing.assert_array_equal(start, np.searchsorted(out, out[ranks], side="left"))
    np.testing.assert_array_equal(end, np.searchsorted(out, out[ranks], side="right"))
    starts = np.ones(out.size + 1, dtype=bool)
    starts[1 : out.size] = ~same
    for side in ("left", "right"):
        got = P._group_edges(out, starts, ranks, side)
        np.testing.assert_array_equal(got, np.searchsorted(out, out[ranks], side=side))
