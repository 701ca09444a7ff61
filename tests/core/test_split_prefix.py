"""The split certification's ordering-half counts in the kept blocks only (scored_pr._core.split_prefix).

Held to the counts at every candidate (``decisions._half_counts``) and the general path
(``decisions.certify`` with every candidate's counts, from the same coins), on data with ties,
weights and misses; blocks of 8 cases so that small data has many blocks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from scored_pr._core import decisions as D, split_prefix as SP

SUBJECTS = [{"precision": 0.9}, {"precision": 0.6}, {"precision": 0.75, "recall": 0.2}, {"precision": 0.5, "fpr": 0.3},
            {"recall": 0.5, "fpr": 0.4}, {"tnr": 0.7, "precision": 0.55}, {"precision": 0.7, "accepted_fraction": 0.6}]


def _cases(draw: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, int, int]:
    """Scores ranked descending (ties from a coarse grid or not), labels that follow them more or less."""
    n = draw(st.integers(1, 400))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    y = rng.random(n) < draw(st.sampled_from([0.2, 0.5, 0.8]))
    s = rng.normal(size=n) + draw(st.sampled_from([0.0, 1.0, 3.0])) * y
    if draw(st.booleans()):
        s = np.round(s, draw(st.integers(0, 2)))
    order = np.argsort(-s, kind="stable")
    w = rng.integers(1, 4, n).astype(np.float64)[order] if draw(st.booleans()) and draw(st.booleans()) else None
    return s[order], y[order], w, draw(st.integers(0, 20)), draw(st.integers(0, 20))


@st.composite
def cases(draw: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, int, int]:
    return _cases(draw)


def _candidates(s: np.ndarray, y: np.ndarray, w: np.ndarray | None, misses: int, neg_misses: int) -> D.Candidates:
    pos = float(y.sum() if w is None else (w * y).sum()) + misses
    neg = float((~y).sum() if w is None else (w * ~y).sum()) + neg_misses
    return D.ranking_candidates(-s, y, w, pos, neg)


@settings(max_examples=150, deadline=None)
@given(cases(), st.sampled_from(SUBJECTS), st.integers(0, 1000))
def test_kept_halves_are_the_feasible_candidates_with_their_counts(data, subject_to, seed) -> None:  # type: ignore[no-untyped-def]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SP, "BLOCK", 8)
        _check_kept(data, subject_to, seed)


def _check_kept(data: Any, subject_to: dict[str, float], seed: int) -> None:
    s, y, _, misses, neg_misses = data
    c = _candidates(s, y, None, misses, neg_misses)
    first, m1, nm1 = D.split_cases(y, None, misses, neg_misses, seed)
    tp_a, fp_a = D._half_counts(c.ends, y, first)
    pos_a, neg_a = float(tp_a[-1]) + m1, float(fp_a[-1]) + nm1
    feasible = D._surely_feasible(subject_to, tp_a, fp_a, pos_a, neg_a)
    kept = SP.kept_halves(subject_to, c.ends, y, first, m1, nm1, D._surely_feasible)
    assume(kept is not None)  # None: most candidates kept, the caller counts them all (the test below)
    assert kept is not None
    assert (kept.pos, kept.neg) == (pos_a, neg_a)
    np.testing.assert_array_equal(kept.tp, np.asarray(tp_a)[kept.at])
    np.testing.assert_array_equal(kept.fp, np.asarray(fp_a)[kept.at])
    np.testing.assert_array_equal(kept.at, feasible)  # the blocks left out hold none, the sure ones all
    for i in range(c.tp.size):
        assert kept.count_at(i) == (int(tp_a[i]), int(fp_a[i]))


@settings(max_examples=200, deadline=None)
@given(cases(), st.sampled_from(SUBJECTS), st.sampled_from(["recall", "precision", "f1"]),
       st.sampled_from([0.5, 0.8, 0.95]), st.integers(0, 1000), st.sampled_from([8, 64]))  # fmt: skip
def test_choose_certified_is_the_general_path_with_every_count(data, subject_to, maximize, confidence, seed,
                                                               block) -> None:  # type: ignore[no-untyped-def]  # fmt: skip
    """The same decision (threshold, counts, bounds) as certify with the counts at every candidate, same coins."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SP, "BLOCK", block)
        _check_general(data, subject_to, maximize, confidence, seed)


def _check_general(data: Any, subject_to: dict[str, float], maximize: str, confidence: float, seed: int) -> None:
    s, y, w, misses, neg_misses = data
    c = _candidates(s, y, w, misses, neg_misses)
    got = D.choose_certified(c, maximize, subject_to, confidence, (s, y, w, misses, neg_misses), seed)
    first, m1, nm1 = D.split_cases(y, w, misses, neg_misses, seed)

    def ordering() -> D.Halves:
        tp_a, fp_a = D._half_counts(c.ends, y, first)
        return tp_a, fp_a, float(tp_a[-1]) + m1, float(fp_a[-1]) + nm1

    want = D.certify(c, maximize, subject_to, confidence, ordering)
    assert repr(got) == repr(want)


def test_the_kept_path_answers_a_precision_target_on_an_informative_ranking() -> None:
    """On a ranking whose precision falls below the target, the kept blocks are few and answer without the walk."""
    rng = np.random.default_rng(3)
    y = rng.random(20_000) < 0.3
    s = np.sort(rng.normal(size=y.size) + 2.0 * y)[::-1]
    y = y[np.argsort(-(rng.normal(size=y.size) + 2.0 * y), kind="stable")]
    c = _candidates(s, y, None, 0, 0)
    first, m1, nm1 = D.split_cases(y, None, 0, 0, 7)
    kept = SP.kept_halves({"precision": 0.9}, c.ends, y, first, m1, nm1, D._surely_feasible)
    assert kept is not None and kept.at.size < c.tp.size // 2
    got = D._kept_choice(c, "recall", {"precision": 0.9}, 0.95, kept)
    assert got is not None and got.feasible
    assert repr(got) == repr(D.choose_certified(c, "recall", {"precision": 0.9}, 0.95, (s, y, None, 0, 0), 7))


@pytest.mark.parametrize("n", [1, 63, 64, 65, 1000])
def test_block_sums_count_each_block(n: int) -> None:
    step = np.zeros(-(-n // SP.BLOCK) * SP.BLOCK, dtype=np.uint8)
    step[:n] = np.random.default_rng(n).random(n) < 0.5
    np.testing.assert_array_equal(SP._block_sums(step), step.reshape(-1, SP.BLOCK).sum(axis=1))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 3000), st.sampled_from(SUBJECTS[:4] + [{"recall": 0.4, "fpr": 0.5}]),
       st.sampled_from([0.5, 0.9, 0.95, 0.999]))  # fmt: skip
def test_bernstein_on_runs_of_cumulative_counts_is_bernstein_on_each(seed: int, size: int, subject_to: dict[str, float],
                                                                     confidence: float) -> None:  # fmt: skip
    """A run is rejected at its corner only where each of its tests is rejected by the exact test; elsewhere the
    runs' screen is Bernstein's on each test."""
    from scored_pr._core import split_walk as SW

    rng = np.random.default_rng(seed)
    p = rng.uniform(0.3, 1.0)
    steps = rng.random(size) < np.linspace(p, rng.uniform(0.0, p), size)  # precision falling along the ranking
    tp = np.cumsum(steps * rng.integers(1, 3, size)).astype(np.float64)
    fp = np.cumsum(~steps * rng.integers(1, 3, size)).astype(np.float64)
    pos, neg = float(tp[-1] + rng.integers(0, 50)), float(fp[-1] + rng.integers(0, 50))
    delta = 1.0 - confidence
    runs = SW._bernstein_runs(subject_to, tp, fp, pos, neg, delta)
    each = SW._bernstein_rejects(subject_to, tp, fp, pos, neg, delta)
    extra = runs & ~each  # rejected at a run's corner only (rounding at Bernstein's edge): the exact test agrees
    assert D._all_reject(subject_to, tp[extra], fp[extra], pos, neg, delta).all()
    assert not (each & ~runs).any()  # a run not rejected at its corner is screened test by test
    assert D._all_reject(subject_to, tp[runs], fp[runs], pos, neg, delta).all()
