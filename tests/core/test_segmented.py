"""The segmented kernel behind SlicedEvaluation.table(): every summary measure of many rankings at once.

Each value must equal, bit for bit and of the same Python type, the
``summary()`` of an exact evaluator fed only that segment's cases:
Hypothesis over both tie policies with heavy ties, signed zeros, misses and
negative misses, and seeded larger segments that reach the evaluator's
scattered-ties and heavy-ties paths and the convex hull of long curves.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scored_pr import ScoredPrecisionRecallEvaluation as E
from scored_pr._core import segmented
from scored_pr._core.segmented import segment_summaries
from summaries import differing
REPORT_RANKS = (5, 10, 25, 100, 500)  # the summary's precision-at ranks (the measure table's REPORT_RANKS)
#: The summary's entries for probabilities only, which the evaluators answer themselves (not the kernel's).
CALIBRATION = ("expected_calibration_error", "brier_score")


def _same(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The keys where the two summaries differ; the calibration entries are not the kernel's."""
    return differing(a, b, CALIBRATION)


def _kernel_rows(evs: list[E], ties: str) -> list[dict[str, Any]]:
    """segment_summaries over the evaluators' ranked cases, in the summary's keys."""
    negs = [-ev.ranked_cases()[0] for ev in evs]
    cors = [ev.ranked_cases()[1] for ev in evs]
    offsets = np.concatenate(([0], np.cumsum([c.size for c in cors]))).astype(np.int64)
    out = segment_summaries(
        np.concatenate(negs), np.concatenate(cors), offsets,
        np.array([ev.num_misses for ev in evs], dtype=np.int64),
        np.array([ev.num_negative_misses for ev in evs], dtype=np.int64), ties, REPORT_RANKS,
    )  # fmt: skip
    return [{k: out["r_precision" if k == "pr_breakeven_point" else k][i].item() for k in evs[0].summary()
             if k not in CALIBRATION} for i in range(len(evs))]


segment = st.tuples(
    st.lists(st.tuples(st.booleans(), st.sampled_from([0.0, 0.25, 0.5, 0.5, 0.75, 1.0, -0.0, 0.3])), max_size=14),
    st.integers(0, 3),
    st.integers(0, 3),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ties=st.sampled_from(["stable", "grouped"]), segments=st.lists(segment, min_size=1, max_size=6))
def test_kernel_equals_each_segments_own_evaluator(ties: str, segments: list[Any]) -> None:
    evs = []
    for cases, misses, negative_misses in segments:
        ev = E(ties=ties)
        ev.add_cases([c for c, _ in cases], [s for _, s in cases])
        ev.add_misses(misses)
        ev.add_negative_misses(negative_misses)
        evs.append(ev)
    for ev, row in zip(evs, _kernel_rows(evs, ties)):
        assert _same(ev.summary(), row) == []


@pytest.mark.parametrize("sweeps", [64, 1])
def test_kernel_equals_the_evaluator_on_long_slices_with_every_kind_of_tie(sweeps: int, monkeypatch: Any) -> None:
    monkeypatch.setattr(segmented, "SWEEPS", sweeps)  # 1: the hulls the sweeps leave unfinished go to the curves' hull
    rng = np.random.default_rng(11)
    for ties in ("stable", "grouped"):
        evs = []
        for i in range(12):
            n = int(rng.integers(1, 3000))
            scores = rng.random(n)
            if i % 3 == 1:  # heavy ties: a few distinct values
                scores = np.round(scores, 1)
            elif i % 3 == 2:  # scattered ties: float32-like rounding
                scores = np.round(scores, 3)
            y = rng.random(n) < rng.uniform(0.05, 0.9)
            ev = E(ties=ties)
            ev.add_cases(y, scores)
            ev.add_misses(int(rng.integers(0, 5)))
            ev.add_negative_misses(int(rng.integers(0, 5)))
            evs.append(ev)
        for ev, row in zip(evs, _kernel_rows(evs, ties)):
            assert _same(ev.summary(), row) == []


@settings(max_examples=60, deadline=None)
@given(data=st.data(), n=st.integers(0, 60), count=st.integers(1, 9), columns=st.integers(1, 3),
       packed=st.booleans())
def test_segment_order_is_a_stable_sort_of_each_slice(data: Any, n: int, count: int, columns: int, packed: bool) -> None:
    """Each slice's rows ranked as a stable argsort of its scores (equal scores, -0.0 and 0.0, in arrival order),
    through the packed keys and through the lexsort that takes over when they do not fit."""
    import scored_pr._core.slicing as S

    neg = np.array(data.draw(st.lists(st.sampled_from([-0.5, -0.0, 0.0, 0.25, -1.0, np.inf]), min_size=n, max_size=n)),
                   dtype=np.float64)
    # each column (crossing) has slice ids of its own: j * count + 0 .. count - 1
    cols = [j * count + np.array(data.draw(st.lists(st.integers(0, count - 1), min_size=n, max_size=n)), dtype=np.int32)
            for j in range(columns)]
    count *= columns
    old = S.KEY_BITS
    S.KEY_BITS = 64 if packed else 0
    try:
        rows, offsets = S.segment_order(neg, cols, count)
    finally:
        S.KEY_BITS = old
    expected: list[int] = []
    sid = np.concatenate(cols) if cols else np.zeros(0, np.int64)
    index = np.tile(np.arange(n), columns)
    for k in range(count):
        mine = index[sid == k]
        expected += mine[np.argsort(neg[mine], kind="stable")].tolist()
        assert offsets[k + 1] - offsets[k] == mine.size
    assert rows.tolist() == expected


def _ranked_segments(segments: list[Any]) -> tuple[list[Any], list[Any], Any, Any, Any]:
    """Each segment's (correct, score) cases ranked by an evaluator: per segment and laid end to end, with offsets."""
    negs, cors = [], []
    for seg in segments:
        ev = E(ties="stable")
        ev.add_cases([c for c, _ in seg], [s for _, s in seg])
        scores, correct, _ = ev.ranked_cases()
        negs.append(-scores)
        cors.append(correct)
    offsets = np.concatenate(([0], np.cumsum([c.size for c in cors]))).astype(np.int64)
    neg = np.concatenate(negs) if negs else np.zeros(0)
    cor = np.concatenate(cors) if cors else np.zeros(0, bool)
    return negs, cors, neg, cor, offsets


@settings(max_examples=60, deadline=None)
@given(segments=st.lists(st.lists(st.tuples(st.booleans(), st.sampled_from([0.0, -0.0, 0.25, 0.5, 1.0, 0.7])),
                                  max_size=10), max_size=5))
def test_segment_groups_equal_each_segments_own_groups(segments: list[Any]) -> None:
    """The calibration groups of every segment at once hold the values groups() gives each segment alone."""
    from scored_pr._core.calibration import groups, segment_groups

    negs, cors, neg, cor, offsets = _ranked_segments(segments)
    together = segment_groups(neg, cor, offsets)
    assert len(together) == len(segments)
    for g, n, c in zip(together, negs, cors):
        alone = groups(n, c, None)
        for field in ("scores", "weight", "positive", "square", "counts"):
            a, b = getattr(g, field), getattr(alone, field)
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), field
        assert g.weighted is alone.weighted is False


@settings(max_examples=80, deadline=None)
@given(segments=st.lists(st.lists(st.tuples(st.booleans(), st.sampled_from([0.0, -0.0, 0.25, 0.5, 1.0, 0.7, 1 / 3, 0.9999])),
                                  max_size=30), max_size=6))
def test_segment_calibration_equals_each_segments_own_ece_and_brier(segments: list[Any]) -> None:
    """Every segment's ECE (15 uniform bins, l1) and Brier score at once equal ece()/brier_score() of it alone, bit for bit."""
    from scored_pr._core.calibration import brier_score, ece, groups, segment_calibration

    negs, cors, neg, cor, offsets = _ranked_segments(segments)
    e, b = segment_calibration(neg, cor, offsets, 15)
    for k, (n, c) in enumerate(zip(negs, cors)):
        g = groups(n, c, None)
        assert repr(e[k].item()) == repr(ece(g, 15, "l1", "uniform", False)), k
        assert repr(b[k].item()) == repr(brier_score(g)), k


_EDGES = np.linspace(0.0, 1.0, 16)
_NEAR_EDGES = sorted({*_EDGES.tolist(), *np.nextafter(_EDGES, -1.0).tolist(), *np.nextafter(_EDGES, 2.0).tolist(),
                      -np.inf, -3.0, 2.5, np.inf})


@settings(max_examples=150, deadline=None)
@given(segments=st.lists(st.lists(st.sampled_from(_NEAR_EDGES), max_size=40), max_size=6))
def test_bin_starts_are_where_each_segments_bin_changes(segments: list[list[float]]) -> None:
    """The binary searches of every (segment, edge) pair find the runs np.searchsorted's bin of every group
    gives: a segment's first group, or a group whose bin differs from the one before (scores on, just
    below and just above every edge, and outside [0, 1])."""
    from scored_pr._core.calibration import _bin_starts

    distinct = np.array([v for seg in segments for v in sorted(set(seg))], dtype=np.float64)
    sizes = [len(set(seg)) for seg in segments]
    lo = np.cumsum([0, *sizes[:-1]]).astype(np.int64)
    hi = lo + np.array(sizes, dtype=np.int64)
    ids = np.searchsorted(_EDGES[1:-1], distinct, side="right")
    literal = [i for a, b in zip(lo.tolist(), hi.tolist()) for i in range(a, b) if i == a or ids[i] != ids[i - 1]]
    assert _bin_starts(distinct, lo, hi, _EDGES[1:-1]).tolist() == literal


def test_segment_calibration_of_large_segments_is_bit_for_bit() -> None:
    """Segments of thousands of distinct and of heavily tied scores: numpy's pairwise sums, followed run by run."""
    from scored_pr._core.calibration import brier_score, ece, groups, segment_calibration

    rng = np.random.default_rng(5)
    negs, cors = [], []
    for size, rounded in ((20_000, False), (9_000, True), (300, False), (1, True)):
        s = rng.random(size)
        if rounded:
            s = np.round(s, 2)
        neg = np.sort(-s, kind="stable")
        negs.append(neg)
        cors.append(rng.random(size) < 0.3)
    offsets = np.concatenate(([0], np.cumsum([c.size for c in cors]))).astype(np.int64)
    e, b = segment_calibration(np.concatenate(negs), np.concatenate(cors), offsets, 15)
    for k, (n, c) in enumerate(zip(negs, cors)):
        g = groups(n, c, None)
        assert e[k].item() == ece(g, 15, "l1", "uniform", False) and b[k].item() == brier_score(g), k


def _literal_groups(negs: list[Any], cors: list[Any]) -> tuple[Any, Any, Any, Any]:
    """Each ranked segment's runs of one score, counted one case at a time: (neg, counts, positives, offsets)."""
    neg, counts, positives, offsets = [], [], [], [0]
    for n, c in zip(negs, cors):
        for x, y in zip(n.tolist(), c.tolist()):
            if len(neg) > offsets[-1] and neg[-1] == x:
                counts[-1] += 1
                positives[-1] += int(y)
            else:
                neg.append(x)
                counts.append(1)
                positives.append(int(y))
        offsets.append(len(neg))
    return (np.array(neg, dtype=np.float64), np.array(counts, dtype=np.int64), np.array(positives, dtype=np.int64),
            np.array(offsets, dtype=np.int64))


def _bits_equal(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return [k for k in a if a[k].dtype != b[k].dtype or a[k].tobytes() != b[k].tobytes()]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(segments=st.lists(segment, min_size=1, max_size=6))
def test_the_group_entry_equals_the_case_entry_bit_for_bit(segments: list[Any]) -> None:
    """segment_group_summaries of every segment's tie groups (ties, misses, negative misses, empty segments, signed
    zeros) gives every array segment_summaries gives for the cases, and segment_group_calibration every value
    segment_calibration gives."""
    from scored_pr._core.calibration import segment_calibration, segment_group_calibration
    from scored_pr._core.segmented import segment_group_summaries

    negs, cors, neg, cor, offsets = _ranked_segments([cases for cases, _, _ in segments])
    misses = np.array([m for _, m, _ in segments], dtype=np.int64)
    negative_misses = np.array([m for _, _, m in segments], dtype=np.int64)
    g_neg, counts, positives, g_offsets = _literal_groups(negs, cors)
    cases = segment_summaries(neg, cor, offsets, misses, negative_misses, "grouped", REPORT_RANKS)
    grouped = segment_group_summaries(counts, positives, g_offsets, misses, negative_misses, REPORT_RANKS)
    assert set(cases) == set(grouped) and _bits_equal(cases, grouped) == []
    e, b = segment_calibration(neg, cor, offsets, 15)
    ge, gb = segment_group_calibration(g_neg, counts, positives, g_offsets, 15)
    assert e.tobytes() == ge.tobytes() and b.tobytes() == gb.tobytes()


def test_the_group_entry_on_long_rounded_segments_is_bit_for_bit() -> None:
    """Thousands of cases per segment, rounded scores (few long tie groups), an empty segment, one of one case."""
    from scored_pr._core.calibration import segment_calibration, segment_group_calibration
    from scored_pr._core.segmented import segment_group_summaries

    rng = np.random.default_rng(17)
    negs, cors = [], []
    for size, digits in ((20_000, 3), (0, 2), (7_000, 1), (1, 2), (3_000, 2)):
        negs.append(np.sort(-np.round(rng.random(size), digits), kind="stable"))
        cors.append(rng.random(size) < rng.uniform(0.05, 0.9))
    offsets = np.concatenate(([0], np.cumsum([c.size for c in cors]))).astype(np.int64)
    neg, cor = np.concatenate(negs), np.concatenate(cors)
    misses = rng.integers(0, 4, len(negs)).astype(np.int64)
    negative_misses = rng.integers(0, 4, len(negs)).astype(np.int64)
    g_neg, counts, positives, g_offsets = _literal_groups(negs, cors)
    cases = segment_summaries(neg, cor, offsets, misses, negative_misses, "grouped", REPORT_RANKS)
    grouped = segment_group_summaries(counts, positives, g_offsets, misses, negative_misses, REPORT_RANKS)
    assert _bits_equal(cases, grouped) == []
    e, b = segment_calibration(neg, cor, offsets, 15)
    ge, gb = segment_group_calibration(g_neg, counts, positives, g_offsets, 15)
    assert e.tobytes() == ge.tobytes() and b.tobytes() == gb.tobytes()
