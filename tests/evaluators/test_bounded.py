"""BoundedEvaluation: exact below the budget, certified bounds above it, state and merges.

The reference for every value is ScoredPrecisionRecallEvaluation(ties="grouped")
fed the same cases; the threshold queries, which the evaluator does not have,
are checked against a literal computation over the cases.
"""

from __future__ import annotations

import json
import math
import pickle
import struct
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scored_pr import BoundedEvaluation, Bounds, ScoredPrecisionRecallEvaluation
from scored_pr._core import bins as B
from scored_pr._core import curves as C
SCORES = [-math.inf, -2.5, -1.0, -0.0, 0.0, 0.25, 0.5, 0.75, 1.0, 3.0, 1e300, math.inf]
WEIGHTS = [0.0, 0.5, 1.0, 2.0, 3.75]

cases_st = st.lists(
    st.tuples(st.booleans(), st.one_of(st.sampled_from(SCORES), st.floats(-10, 10, allow_nan=False))),
    max_size=40,
)


def reference(cases: list, weights: list | None, misses: int, negative_misses: int) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    if cases:
        ev.add_cases([c for c, _ in cases], [s for _, s in cases], sample_weight=weights)
    ev.add_misses(misses)
    ev.add_negative_misses(negative_misses)
    return ev


def close(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def same(a: float, b: float) -> bool:
    """The same float64, bit for bit (any NaN equals any NaN)."""
    return (math.isnan(a) and math.isnan(b)) or struct.pack("<d", float(a)) == struct.pack("<d", float(b))


def assert_within(bound: Bounds, exact: float, what: str) -> None:
    assert isinstance(bound, Bounds), what
    if math.isnan(exact):
        assert math.isnan(bound) and math.isnan(bound.lower) and math.isnan(bound.upper), (what, bound)
        return
    if bound.exact:  # a determined value: the evaluator's float, bit for bit
        assert same(float(bound), exact) and same(bound.lower, exact), (what, exact, repr(bound))
        return
    assert bound.lower <= exact <= bound.upper, (what, exact, repr(bound))
    assert bound.lower <= float(bound) <= bound.upper, (what, repr(bound))


def threshold_reference(cases: list, weights: list | None, misses: int, threshold: float) -> tuple[float, float]:
    """Literal precision and recall of accepting every case scored >= threshold."""
    w = [1.0] * len(cases) if weights is None else weights
    tp = math.fsum(wi for (c, s), wi in zip(cases, w) if c and s >= threshold)
    acc = math.fsum(wi for (_, s), wi in zip(cases, w) if s >= threshold)
    pos = math.fsum(wi for (c, _), wi in zip(cases, w) if c) + misses
    return (tp / acc if acc else math.nan), (tp / pos if pos else math.nan)


def roc_vertices(ev: ScoredPrecisionRecallEvaluation) -> np.ndarray:
    """Every vertex and segment midpoint of the exact grouped ROC path (recall, rejection recall)."""
    rows = C.roc_rows(ev._points(), ev._pos_ref(), ev._neg_ref())
    if rows.recall.size == 0:
        return np.zeros((0, 2))
    prev = np.concatenate(([0.0], rows.recall[:-1]))
    start = np.column_stack((prev, rows.rr_start))
    end = np.column_stack((rows.recall, rows.rr_end))
    return np.concatenate((start, end, (start + end) / 2.0))


def check_all(s: BoundedEvaluation, ev: ScoredPrecisionRecallEvaluation, cases: list, weights: list | None) -> None:
    """Every measure of the summary holds the exact value (equals it when the summary is exact)."""
    assert s.num_cases == ev.num_cases and s.num_positive_ref == ev.num_positive_ref
    assert s.num_negative_ref == ev.num_negative_ref
    assert math.isclose(s.positive_weight, ev.positive_weight, rel_tol=1e-12)
    exact = s.exact
    checks = [
        ("ap", s.average_precision(), ev.average_precision()),
        ("auc", s.area_under_roc_curve(), ev.area_under_roc_curve()),
        ("f1", s.maximum_f_measure(), ev.maximum_f_measure()),
        ("f0.5", s.maximum_f_measure(0.5), ev.maximum_f_measure(0.5)),
        ("f3", s.maximum_f_measure(3.0), ev.maximum_f_measure(3.0)),
    ]
    for t in sorted({sc for _, sc in cases} | {0.1, -5.0, 7.0}):
        p, r = threshold_reference(cases, weights, ev.num_misses, t)
        bp, br = s.precision_at_threshold(t), s.recall_at_threshold(t)
        if math.isnan(p) and not math.isnan(bp):  # nothing accepted: possible only in the top bin
            hi, lo, _, _ = s.bins()
            assert not (lo >= t).any(), (t, repr(bp))
        else:
            checks.append((f"precision>={t}", bp, p))
        checks.append((f"recall>={t}", br, r))
    if not s.weighted:
        checks += [
            ("rprec", s.r_precision(), ev.r_precision()),
            ("bep", s.pr_breakeven_point(), ev.pr_breakeven_point()),
            ("rr", s.reciprocal_rank(), ev.reciprocal_rank()),
        ]
        for k in range(1, ev.num_cases + 2):
            checks.append((f"p@{k}", s.precision_at(k), ev.precision_at(k)))
            checks.append((f"r@{k}", s.recall_at(k), ev.recall_at(k)))
    for what, bound, value in checks:
        assert_within(bound, value, what)
        if exact and not s.weighted:  # weighted results always carry (ulp-wide) bounds
            assert bound.exact and same(float(bound), value), (what, value, repr(bound))
    pr, roc = s.pr_band(), s.roc_band()
    exact_pr = ev.pr_curve()
    assert pr.contains(exact_pr).all(), (exact_pr, pr.boxes)
    if ev.negative_weight > 0:  # otherwise rejection recall is NaN (0/0)
        assert roc.contains(roc_vertices(ev)).all(), (roc_vertices(ev), roc.boxes)
    assert pr.exact == roc.exact == (exact and not s.weighted)
    if pr.exact:
        assert s.pr_curve().tobytes() == exact_pr.tobytes(), (s.pr_curve(), exact_pr)
        assert s.roc_curve().tobytes() == ev.roc_curve().tobytes(), (s.roc_curve(), ev.roc_curve())
    elif exact:
        np.testing.assert_allclose(s.pr_curve(), exact_pr, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(s.roc_curve(), ev.roc_curve(), rtol=1e-12, atol=1e-12)


def build(cases: list, weights: list | None, misses: int, negative_misses: int, shards: list[int], singles: int) -> BoundedEvaluation:
    """Cases split into shards (each its own budget), the first ``singles`` via add_case, merged left to right."""
    parts: list[BoundedEvaluation] = []
    bounds = np.linspace(0, len(cases), len(shards) + 1).astype(int)
    for i, max_bins in enumerate(shards):
        s = BoundedEvaluation(max_bins)
        lo, hi = bounds[i], bounds[i + 1]
        for j in range(lo, min(hi, lo + singles)):
            s.add_case(cases[j][0], cases[j][1], 1.0 if weights is None else weights[j])
        rest = range(min(hi, lo + singles), hi)
        if len(rest):
            s.add_cases([cases[j][0] for j in rest], [cases[j][1] for j in rest],
                        None if weights is None else [weights[j] for j in rest])
        parts.append(s)
    out = parts[0]
    for p in parts[1:]:
        out = out + p
    out.add_misses(misses)
    out.add_negative_misses(negative_misses)
    return out


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cases_st,
    st.one_of(st.none(), st.lists(st.sampled_from(WEIGHTS), min_size=40, max_size=40)),
    st.integers(0, 3),
    st.integers(0, 3),
    st.lists(st.integers(1, 6), min_size=1, max_size=3),
    st.integers(0, 5),
)
def test_bounds_contain_the_exact_value(cases, weights, misses, negative_misses, shards, singles) -> None:
    """Adversarial data: heavy ties, +-inf, one class, misses, weights, merges of shards with different edges."""
    w = None if weights is None else weights[: len(cases)]
    if w is not None and not any(wi != 1.0 for wi in w):
        w = None
    s = build(cases, w, misses, negative_misses, shards, singles)
    check_all(s, reference(cases, w, misses, negative_misses), cases, w)


@settings(max_examples=300, deadline=None)
@given(
    cases_st,
    st.one_of(st.none(), st.lists(st.sampled_from(WEIGHTS[1:]), min_size=40, max_size=40)),
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 3),
)
def test_exact_below_the_budget(cases, weights, misses, negative_misses, singles) -> None:
    """While the distinct scores fit the budget, every measure equals the grouped evaluator's."""
    w = None if weights is None else weights[: len(cases)]
    distinct = len({s + 0.0 for _, s in cases})
    s = build(cases, w, misses, negative_misses, [max(distinct, 1)], singles)
    assert s.exact and s.num_bins == distinct
    check_all(s, reference(cases, w, misses, negative_misses), cases, w)


@settings(max_examples=200, deadline=None)
@given(cases_st, st.integers(0, 2), st.integers(1, 5))
def test_from_evaluation_equals_adding_the_cases(cases, misses, max_bins) -> None:
    ev = reference(cases, None, misses, 0)
    s = BoundedEvaluation.from_evaluation(ev, max_bins=max_bins)
    check_all(s, ev, cases, None)
    if len({c + 0.0 for _, c in cases}) <= max_bins:
        direct = build(cases, None, misses, 0, [max_bins], 0)
        assert s == direct


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.sampled_from(["continuous", "rounded", "extremes"]))
def test_streams_of_large_batches_keep_the_bounds(seed: int, max_bins: int, kind: str) -> None:
    """Batches with many distinct scores take the one-pass block path, beside existing bins."""
    rng = np.random.default_rng(seed)
    s, ev = BoundedEvaluation(max_bins), ScoredPrecisionRecallEvaluation()
    for shift in range(4):
        n = int(rng.integers(1, 400))
        y = rng.random(n) < rng.random()
        if kind == "continuous":
            scores = rng.normal(size=n) + y + 0.3 * shift
        elif kind == "rounded":
            scores = np.round(rng.normal(size=n) + y, 1)
        else:
            scores = rng.choice([-np.inf, -1e300, -0.0, 0.0, 5e-324, 1.0, np.inf], size=n)
        s.add_cases(y, scores)
        ev.add_cases(y, scores)
    assert s.num_bins <= max_bins
    for what, bound, exact in (
        ("ap", s.average_precision(), ev.average_precision()),
        ("auc", s.area_under_roc_curve(), ev.area_under_roc_curve()),
        ("f1", s.maximum_f_measure(), ev.maximum_f_measure()),
        ("rprec", s.r_precision(), ev.r_precision()),
        ("rr", s.reciprocal_rank(), ev.reciprocal_rank()),
        *((f"p@{k}", s.precision_at(k), ev.precision_at(k)) for k in (1, 2, 10, 100, ev.num_cases)),
    ):
        assert_within(bound, exact, what)
    assert s.pr_band().contains(ev.pr_curve()).all()
    if ev.num_negative_ref and ev.num_positive_ref:
        assert s.roc_band().contains(roc_vertices(ev)).all()


def test_binormal_million_is_tight() -> None:
    """The issue's target, scaled to 200,000 cases for the suite: widths well under 1e-3."""
    rng = np.random.default_rng(7)
    n = 200_000
    y = rng.random(n) < 0.3
    scores = rng.normal(size=n) + 1.2 * y
    s = BoundedEvaluation(4096)
    s.add_cases(y, scores)
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, scores)
    assert s.num_bins <= 4096 and not s.exact
    for bound, exact in ((s.area_under_roc_curve(), ev.area_under_roc_curve()), (s.average_precision(), ev.average_precision())):
        assert bound.lower <= exact <= bound.upper
        assert bound.width < 1e-3, repr(bound)


def test_streaming_chunks_stay_within_the_budget() -> None:
    rng = np.random.default_rng(3)
    s = BoundedEvaluation(64)
    ev = ScoredPrecisionRecallEvaluation()
    for _ in range(30):
        y = rng.random(500) < 0.4
        scores = rng.normal(size=500) + y
        s.add_cases(y, scores)
        ev.add_cases(y, scores)
        assert s.num_bins <= 64
    for _ in range(300):  # single cases through the buffer
        c, sc = bool(rng.random() < 0.4), float(rng.normal())
        s.add_case(c, sc)
        ev.add_case(c, sc)
    assert_within(s.area_under_roc_curve(), ev.area_under_roc_curve(), "auc")
    assert_within(s.average_precision(), ev.average_precision(), "ap")
    assert s.num_bins <= 64 and s.num_cases == 15_300


# ------------------------------------------------------------------ the math


@pytest.mark.parametrize("a, b", [(0, 0), (0, 1), (0, 7), (3, 20), (15, 16), (16, 17), (99, 1000), (10**6, 10**6 + 5), (10**9, 10**9 + 1)])
def test_harmonic_diff_matches_exact_sums(a: int, b: int) -> None:
    exact = float(sum(Fraction(1, j) for j in range(a + 1, b + 1)))
    got = float(B.harmonic_diff(np.array([a], float), np.array([b], float))[0])
    assert math.isclose(got, exact, rel_tol=4e-15, abs_tol=1e-300)


def test_average_precision_bounds_are_reached_by_orderings() -> None:
    """Upper and lower AP bounds of a single range bin are the values of the best and worst orderings."""
    s = BoundedEvaluation(1)
    s.add_cases([True, True, False, False, False], [1.0, 2.0, 3.0, 4.0, 5.0])
    ap = s.average_precision()
    best = ScoredPrecisionRecallEvaluation()
    best.add_cases([True, True, False, False, False], [2.0, 2.0, 1.0, 1.0, 1.0])  # correct cases tied on top
    worst = ScoredPrecisionRecallEvaluation()
    worst.add_cases([True, True, False, False, False], [1.0, 2.0, 3.0, 4.0, 5.0])
    assert math.isclose(ap.upper, best.average_precision(), rel_tol=1e-12)
    assert math.isclose(ap.lower, worst.average_precision(), rel_tol=1e-12)
    auc = s.area_under_roc_curve()
    assert (auc.lower, float(auc), auc.upper) == (0.0, 0.5, 1.0)


def test_pure_bins_give_exact_values() -> None:
    """A range bin of one class leaves AUC and AP determined: they come back exact."""
    s = BoundedEvaluation(2)  # the two bins: the positive scores and the negative ones
    s.add_cases([True] * 3 + [False] * 3, [3.5, 3.25, 3.0, -1.0, -2.0, -3.0])
    assert not s.exact
    assert s.area_under_roc_curve().exact and s.area_under_roc_curve() == 1.0
    assert s.average_precision().exact and s.average_precision() == 1.0


def test_merge_with_different_edges_keeps_bins_and_bounds() -> None:
    """Partitions binned apart merge block by block: no collapse into a few wide bins."""
    rng = np.random.default_rng(11)
    parts, ev = [], ScoredPrecisionRecallEvaluation()
    for i in range(4):
        y = rng.random(50_000) < 0.3
        scores = rng.normal(size=y.size) + 1.2 * y + 0.05 * i  # shifted: every partition has its own edges
        s = BoundedEvaluation(1024)
        s.add_cases(y, scores)
        parts.append(s)
        ev.add_cases(y, scores)
    merged = parts[0] + parts[1] + parts[2] + parts[3]
    assert 512 <= merged.num_bins <= 1024  # nested blocks absorb each other; no chain reaction
    assert BoundedEvaluation.from_dict(merged.to_dict()) == merged  # a valid state
    for bound, exact in ((merged.area_under_roc_curve(), ev.area_under_roc_curve()),
                         (merged.average_precision(), ev.average_precision())):
        assert bound.lower <= exact <= bound.upper and bound.width < 5e-3, repr(bound)


def test_merge_of_exact_summaries_stays_exact() -> None:
    a = BoundedEvaluation(8)
    a.add_cases([True, False], [0.1, 0.2])
    b = BoundedEvaluation(8)
    b.add_cases([False, True], [0.2, 0.3])
    m = a + b
    assert m.exact and m.bins()[0].tolist() == [0.3, 0.2, 0.1] and m.bins()[3].tolist() == [0.0, 2.0, 0.0]


def test_merging_a_thousand_summaries_keeps_the_bin_limit_and_every_case() -> None:
    """1,000 merges of 4,096-bin summaries (benchmarks/bounded.py times them)."""
    rng = np.random.default_rng(0)
    parts = []
    for _ in range(20):
        s = BoundedEvaluation(4096)
        y = rng.random(20_000) < 0.3
        s.add_cases(y, rng.normal(size=y.size) + y)
        parts.append(s)
    total = parts[0]
    for i in range(1, 1000):
        total = total + parts[i % 20]
    assert total.num_bins <= 4096 and total.num_cases == 1000 * 20_000


# --------------------------------------------------------------- API details


def test_weighted_summary_refuses_rank_measures() -> None:
    s = BoundedEvaluation()
    s.add_cases([True, False], [0.5, 0.2], sample_weight=[2.0, 1.0])
    for call in (lambda: s.precision_at(1), lambda: s.recall_at(1), s.r_precision, s.reciprocal_rank, s.pr_breakeven_point):
        with pytest.raises(ValueError, match="not defined with sample weights"):
            call()
    assert s.summary()["r_precision"] != s.summary()["r_precision"]  # NaN


def test_arguments_are_validated() -> None:
    with pytest.raises(ValueError, match="'max_bins' must be an int between 1"):
        BoundedEvaluation(0)
    with pytest.raises(TypeError, match="'max_bins'"):
        BoundedEvaluation(4.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'ties' must be 'grouped'"):
        BoundedEvaluation(ties="stable")
    s = BoundedEvaluation()
    with pytest.raises(ValueError, match="'scores'"):
        s.add_cases([True], [float("nan")])
    with pytest.raises(TypeError, match="'other'"):
        s.merge(ScoredPrecisionRecallEvaluation())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="'evaluation'"):
        BoundedEvaluation.from_evaluation(s)
    assert s.num_cases == 0


def test_pos_label_and_weights_follow_the_evaluator() -> None:
    s = BoundedEvaluation(pos_label="spam")
    s.add_cases(["spam", "ham", "spam"], [0.9, 0.8, 0.1], sample_weight=[1.0, 2.0, 0.5])
    ev = ScoredPrecisionRecallEvaluation(pos_label="spam")
    ev.add_cases(["spam", "ham", "spam"], [0.9, 0.8, 0.1], sample_weight=[1.0, 2.0, 0.5])
    assert s.weighted and s.exact
    assert close(s.average_precision(), ev.average_precision())
    assert close(s.area_under_roc_curve(), ev.area_under_roc_curve())
    assert s.positive_weight == ev.positive_weight == 1.5


def test_bounds_is_a_float_that_pickles() -> None:
    b = Bounds(0.5, 0.25, 0.75)
    assert b == 0.5 and b * 2 == 1.0 and not b.exact and b.width == 0.5
    c = pickle.loads(pickle.dumps(b))
    assert (float(c), c.lower, c.upper) == (0.5, 0.25, 0.75)
    assert repr(Bounds(math.nan, math.nan, math.nan)) == "nan" and Bounds(math.nan, math.nan, math.nan).exact


# ------------------------------------------------------------------ state


def sample_summary(max_bins: int = 16, weighted: bool = False) -> BoundedEvaluation:
    rng = np.random.default_rng(5)
    y = rng.random(1000) < 0.3
    scores = np.round(rng.normal(size=1000) + y, 2)
    scores[:3] = [np.inf, -np.inf, -0.0]
    s = BoundedEvaluation(max_bins, pos_label=None)
    s.add_cases(y, scores, sample_weight=rng.random(1000) if weighted else None)
    s.add_misses(4)
    s.add_negative_misses(2)
    return s


@pytest.mark.parametrize("weighted", [False, True])
def test_state_round_trips(tmp_path: Path, weighted: bool) -> None:
    s = sample_summary(weighted=weighted)
    d = json.loads(json.dumps(s.to_dict(), allow_nan=False))
    for other in (BoundedEvaluation.from_dict(d), pickle.loads(pickle.dumps(s))):
        assert other == s
        assert repr(other.area_under_roc_curve()) == repr(s.area_under_roc_curve())
    s.save(tmp_path / "s.npz")
    loaded = BoundedEvaluation.load(tmp_path / "s.npz")
    assert loaded == s and repr(loaded.average_precision()) == repr(s.average_precision())


def test_serialised_summary_is_small_at_any_size(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    s = BoundedEvaluation(4096)
    for _ in range(5):
        y = rng.random(200_000) < 0.3
        s.add_cases(y, rng.normal(size=y.size) + y)
    s.save(tmp_path / "s.npz")
    assert (tmp_path / "s.npz").stat().st_size <= 128 * 1024
    assert len(pickle.dumps(s)) <= 128 * 1024


def test_from_dict_rejects_inconsistent_states() -> None:
    good = sample_summary().to_dict()
    bad_cases = [
        ({"hi": good["hi"][::-1]}, "disjoint score ranges"),
        ({"max_bins": 2}, "more than its max_bins"),
        ({"pos": [0.5] + good["pos"][1:]}, "whole counts"),
        ({"num_cases": 3}, "exceeds 'num_cases'|disagree"),
        ({"format": "other"}, "'format'"),
        ({"version": 3}, "'version'"),
        ({"misses": -1}, "'misses'"),
    ]
    for change, message in bad_cases:
        with pytest.raises(ValueError, match=message):
            BoundedEvaluation.from_dict({**good, **change})
    with pytest.raises(ValueError, match="unexpected"):
        BoundedEvaluation.from_dict({**good, "extra": 1})
    with pytest.raises(TypeError, match="'hi' must hold numbers"):
        BoundedEvaluation.from_dict({**good, "hi": ["x"] * len(good["hi"])})


def test_load_refuses_foreign_and_oversized_files(tmp_path: Path) -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True], [0.5])
    ev.save(tmp_path / "ev.npz")
    # an evaluator's file read as a summary: the message names the kind found and who reads it
    with pytest.raises(ValueError, match=r"kind 'exact'\), not of a BoundedEvaluation; read it with ScoredPrecisionRecallEvaluation.load"):
        BoundedEvaluation.load(tmp_path / "ev.npz")
    s = sample_summary()
    s.save(tmp_path / "s.npz")
    data = bytearray((tmp_path / "s.npz").read_bytes())
    header = data.find(b'"num_bins": ')
    assert header > 0
    data[header + 12 : header + 14] = b"99"  # the header now claims more bins than the arrays hold
    (tmp_path / "bad.npz").write_bytes(bytes(data))
    with pytest.raises(ValueError):
        BoundedEvaluation.load(tmp_path / "bad.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a scored_pr state file"):
        BoundedEvaluation.load(tmp_path / "junk.npz")


# ------------------------------------------------------- cost independent of the cases


def one_bin_state(p: int, n: int) -> dict:
    """The state of a summary whose cases all share one score: p correct, n incorrect."""
    return {
        "format": "scored_pr.BoundedEvaluation", "version": 1, "max_bins": 4096, "hi": [0.5], "lo": [0.5],
        "pos": [float(p)], "neg": [float(n)], "level": [0], "num_cases": p + n, "num_correct": p,
        "misses": 0, "negative_misses": 0, "weighted": False,
    }


def test_a_billion_tied_cases_answer_every_query_in_bounded_memory(tmp_path: Path) -> None:
    """A hand-made 1e9-case, one-bin state file: every query without per-case memory, RR bounds hold the closed form."""
    import tracemalloc

    m = 10**9
    BoundedEvaluation.from_dict(one_bin_state(1, m - 1)).save(tmp_path / "big.npz")
    tracemalloc.start()
    try:
        s = BoundedEvaluation.load(tmp_path / "big.npz")
        rr = s.reciprocal_rank()
        others = [s.precision_at(m // 3), s.recall_at(m // 2), s.r_precision(), *s.summary().values(),
                  s.precision_at_threshold(0.5), s.maximum_f_measure()]
        s.pr_band(), s.roc_band()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20, peak  # one float per case would be 7.45 GiB
    assert others[0] == 1 / m and others[1] == 0.5  # the expected count of a cut tie group: s p / (p + n)
    # one correct case among m tied ones: E[1 / rank] = H(m) / m
    exact = (math.log(m) + 0.5772156649015329 + 1 / (2 * m) - 1 / (12 * m * m)) / m
    assert rr.lower <= exact <= rr.upper and rr.width < 1e-5 * exact, repr(rr)


@pytest.mark.parametrize(("p", "n"), [(1, 5000), (2, 4095), (2, 4096), (3, 20_000), (40, 30_000), (7, 9000), (5000, 60_000)])
def test_reciprocal_rank_of_a_big_tie_group_holds_the_evaluators_value(p: int, n: int) -> None:
    """Past RR_TERMS incorrect cases the expectation is bounded, not summed; below it, it is the evaluator's float."""
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases([False] * 3 + [True] * p + [False] * n, [2.0] * 3 + [1.0] * (p + n))
    s = BoundedEvaluation.from_evaluation(ev)
    rr, exact = s.reciprocal_rank(), ev.reciprocal_rank()
    if n < B.RR_TERMS:
        assert rr.exact and float(rr).hex() == exact.hex()
    else:
        assert rr.lower <= exact <= rr.upper and rr.width < 0.02 * exact, (exact, repr(rr))


# ------------------------------------------------------- exact means equal


def test_a_rank_that_cuts_a_tie_group_is_the_evaluators_float() -> None:
    """The issue's reproducer: precision_at(3) was 0.5555555555555555 with .exact True, the evaluator 0.5555555555555556."""
    c, sc = [False, True, True, False], [1.0, 1.0, 2.0, 1.0]
    ev = reference(list(zip(c, sc)), None, 0, 0)
    s = BoundedEvaluation()
    s.add_cases(c, sc)
    for k in range(1, 6):
        for bound, value in ((s.precision_at(k), ev.precision_at(k)), (s.recall_at(k), ev.recall_at(k))):
            assert bound.exact and same(bound, value), (k, repr(bound), value)
    assert same(s.precision_at(3), 0.5555555555555556) and same(s.r_precision(), ev.r_precision())


tied_cases_st = st.lists(st.tuples(st.booleans(), st.integers(0, 5).map(float)), max_size=30)
#: arbitrary float weights (not subnormal: products of those lose the relative precision the margin assumes)
weight_st = st.one_of(st.just(0.0), st.floats(1e-3, 10.0))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tied_cases_st,
    st.one_of(st.none(), st.lists(weight_st, min_size=30, max_size=30)),
    st.integers(0, 3),
    st.integers(0, 3),
    st.lists(st.integers(1, 8), min_size=1, max_size=3),
    st.integers(0, 4),
)
@example(  # a weighted ROC AUC estimated at 1.0000000000000002, above its upper limit of 1
    [(False, 0.0)] * 4 + [(True, 1.0), (False, 0.0), (True, 2.0)],
    [0.0] * 4 + [6.0, 1.2168162759018082, 0.5] + [0.0] * 23, 0, 1, [3], 0,
)
def test_exact_results_are_the_evaluators_floats_and_bounds_hold_them(cases, weights, misses, negative_misses, shards, singles) -> None:
    """Where a result says exact it is the evaluator's float bit for bit; otherwise lower <= evaluator <= upper.

    Heavy ties (six distinct scores), arbitrary float weights, misses and
    shards with budgets below and above the distinct scores: every measure,
    both curves.
    """
    w = None if weights is None else weights[: len(cases)]
    if w is not None and all(wi == 1.0 for wi in w):
        w = None
    s = build(cases, w, misses, negative_misses, shards, singles)
    ev = reference(cases, w, misses, negative_misses)
    check_all(s, ev, cases, w)
    if s.weighted:  # weights are summed bin by bin here, case by case there: never claimed exact
        assert not s.average_precision().exact or math.isnan(s.average_precision())


# ------------------------------------------------- the sort-free batch kernel


def _batch(kind: str, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    z = rng.normal(size=n) + 1.2 * y
    if kind == "binormal":
        return y, 1.0 / (1.0 + np.exp(-z))
    if kind == "signed":  # negative and positive scores, -0.0 and 0.0 among them
        z[:50] = 0.0
        z[50:100] = -0.0
        return y, z * 1e3
    if kind == "float32":  # scattered ties
        return y, (1.0 / (1.0 + np.exp(-z))).astype(np.float32).astype(np.float64)
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["binormal", "signed", "float32"])
@pytest.mark.parametrize("target", [64, 1024, 16384])
def test_unsorted_block_bins_are_the_sorted_block_bins_bit_for_bit(kind: str, target: int) -> None:
    """At every coarse level, the sort-free kernel makes exactly the bins of block_bins over the sorted classes."""
    y, s = _batch(kind, 300_000, target)
    s = s + 0.0
    sp, sn = np.sort(s[y]), np.sort(s[~y])
    k = np.sort(B.keys(s))
    chosen = B._level_for(k[:: max(1, k.size // (8 * target))], max(2, target // 8))
    for coarse in sorted({chosen, max(chosen - 2, 0), chosen + 3}):
        new = B.unsorted_block_bins(y, s, target, coarse_level=coarse)
        if new is None:  # too many coarse blocks to count in an array at this level
            assert coarse < chosen
            continue
        old = B.block_bins(sp, None, sn, None, target, coarse_level=coarse)
        for name, a, b in zip(B.Bins._fields, new, old):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), f"{kind}, target {target}, level {coarse}: {name} differs"


def test_unsorted_block_bins_leave_few_distinct_scores_to_the_exact_path() -> None:
    """A batch whose sample shows few distinct scores may be binned exactly: the kernel declines it."""
    rng = np.random.default_rng(1)
    y = rng.random(200_000) < 0.5
    assert B.unsorted_block_bins(y, np.round(rng.normal(size=y.size), 2), 4 * 64) is None
    assert B.unsorted_block_bins(y[:0], np.zeros(0), 4 * 64) is None
    s = BoundedEvaluation(4096)  # 16 * 4096 > 801 distinct scores: every bin exact
    s.add_cases(y, np.round(rng.normal(size=y.size), 2))
    assert s.exact


@pytest.mark.parametrize("kind", ["binormal", "signed", "float32"])
def test_large_batches_binned_without_a_sort_keep_the_bounds(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Large unweighted batches never reach the sorting path, and every bound holds the evaluator's value."""
    import scored_pr._evaluators.bounded as BE

    def no_sort(*args: object) -> object:
        raise AssertionError("a large unweighted batch was sorted")

    monkeypatch.setattr(BE, "CHUNK", 90_000)  # 250,000 cases: three chunks, the later ones beside existing bins
    monkeypatch.setattr(B, "add_sorted", no_sort)
    ev, summary = ScoredPrecisionRecallEvaluation(), BoundedEvaluation(256)
    for seed in range(2):
        y, s = _batch(kind, 250_000, seed)
        summary.add_cases(y, s)
        ev.add_cases(y, s)
    assert summary.num_bins <= 256 and summary.num_cases == ev.num_cases == 500_000
    assert int(summary.bins()[2].sum()) == ev.num_positive_ref
    for what, bound, exact in (
        ("ap", summary.average_precision(), ev.average_precision()),
        ("auc", summary.area_under_roc_curve(), ev.area_under_roc_curve()),
        ("f1", summary.maximum_f_measure(), ev.maximum_f_measure()),
        ("rprec", summary.r_precision(), ev.r_precision()),
        *((f"p@{k}", summary.precision_at(k), ev.precision_at(k)) for k in (1, 10, 1000, 100_000)),
    ):
        assert_within(bound, exact, what)
    assert summary.pr_band().contains(ev.pr_curve()).all()
    assert summary.roc_band().contains(roc_vertices(ev)).all()


def test_sort_free_batch_interrupted_at_a_chunk_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while the third chunk is binned without a sort: no case of the batch is counted."""
    import scored_pr._evaluators.bounded as BE

    monkeypatch.setattr(BE, "CHUNK", 2000)
    monkeypatch.setattr(BE, "UNSORTED_MIN", 1000)
    rng = np.random.default_rng(0)
    s = BoundedEvaluation(4)
    s.add_cases(rng.random(3000) < 0.5, rng.normal(size=3000))
    before = json.dumps(s.to_dict(), sort_keys=True)
    real, calls = B.unsorted_block_bins, 0

    def interrupted(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(B, "unsorted_block_bins", interrupted)
    with pytest.raises(KeyboardInterrupt):
        s.add_cases(rng.random(7000) < 0.5, rng.normal(size=7000))
    assert calls == 3
    assert json.dumps(s.to_dict(), sort_keys=True) == before and s.num_cases == 3000


# ------------------------------------------------------------------ extreme weights


def _pair_auc(correct: list, scores: list, weights: list) -> float:
    """The weighted Mann-Whitney statistic over every (correct, incorrect) pair, in exact fractions."""
    pos = [(s, Fraction(w)) for c, s, w in zip(correct, scores, weights) if c]
    neg = [(s, Fraction(w)) for c, s, w in zip(correct, scores, weights) if not c]
    wins = sum((wp * wn * (1 if sp > sn else Fraction(1, 2) if sp == sn else 0) for sp, wp in pos for sn, wn in neg), Fraction(0))
    return float(wins / (sum(w for _, w in pos) * sum(w for _, w in neg)))


_C = [True, False, True, False, True, False, True, True, False]
_S = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.4, 0.3, 0.1]


@pytest.mark.parametrize("w", [1e155, 3e-162, 1e-170, 2.0**-1022, 2.0**970, 1e-300, 1e291])
@pytest.mark.parametrize("max_bins", [2, 4, 4096])
def test_extreme_weights_give_bounds_that_hold_the_exact_value(w: float, max_bins: int) -> None:
    """1e155 gave NaN bounds marked exact, 3e-162 bounds that missed the value, 1e-170 a ZeroDivisionError."""
    m, _ = math.frexp(w)
    safe = ScoredPrecisionRecallEvaluation(ties="grouped")
    safe.add_cases(_C, _S, sample_weight=[m] * len(_C))  # the same ratios, weights in a safe range
    truth = _pair_auc(_C, _S, [1.0] * len(_C))
    assert safe.area_under_roc_curve() == pytest.approx(truth, rel=1e-15)
    for single in (False, True):
        s = BoundedEvaluation(max_bins)
        if single:
            for c, sc in zip(_C, _S):
                s.add_case(c, sc, w)
        else:
            s.add_cases(_C, _S, sample_weight=[w] * len(_C))
        for what, bound, value in [
            ("auc", s.area_under_roc_curve(), truth),
            ("auc-evaluator", s.area_under_roc_curve(), safe.area_under_roc_curve()),
            ("ap", s.average_precision(), safe.average_precision()),
            ("f1", s.maximum_f_measure(), safe.maximum_f_measure()),
            ("f3", s.maximum_f_measure(3.0), safe.maximum_f_measure(3.0)),
        ]:
            assert math.isfinite(bound.lower) and math.isfinite(bound.upper), (what, repr(bound))
            assert not bound.exact, (what, repr(bound))  # weighted: never exact
            assert_within(bound, value, what)
        if max_bins == 4096:  # every bin exact: only the rounding margin, a few ulps
            assert s.area_under_roc_curve().width < 1e-12 and s.average_precision().width < 1e-12


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(-1020, 960), st.integers(-1020, 960), st.sampled_from([2, 8, 4096]))
def test_bounds_hold_when_the_classes_weigh_2_to_the_2000_apart(seed: int, ep: int, en: int, max_bins: int) -> None:
    """Positive and negative weights of any magnitudes in the accepted range, e.g. 1e-300 against 1e280."""
    rng = np.random.default_rng(seed)
    n = 24
    y = rng.random(n) < 0.5
    sc = np.round(rng.normal(y * 0.5, 1.0), 1)
    w = np.where(y, np.ldexp(rng.random(n) + 0.5, ep + rng.integers(0, 8, n)), np.ldexp(rng.random(n) + 0.5, en + rng.integers(0, 8, n)))
    s = BoundedEvaluation(max_bins)
    s.add_cases(y, sc, sample_weight=w)
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases(y, sc, sample_weight=w)
    if y.any() and not y.all():
        assert_within(s.area_under_roc_curve(), _pair_auc(list(y), list(sc), list(w)), "auc (fractions)")
        assert_within(s.area_under_roc_curve(), ev.area_under_roc_curve(), "auc")
    assert_within(s.average_precision(), ev.average_precision(), "ap")
    assert_within(s.maximum_f_measure(), ev.maximum_f_measure(), "f1")
    for t in (-0.5, 0.0, 0.5):
        assert_within(s.f_measure_at_threshold(t, 2.0), ev.f_measure_at_threshold(t, 2.0), f"f2>={t}")


@pytest.mark.parametrize("weight, words", [
    (1.7e308, "between 2**-1022"), (5e-324, "between 2**-1022"), (1e-310, "between 2**-1022"),
    (10**400, "representable as a float64"), (2**53 + 1, "exactly representable as a float64"),
])
def test_weights_out_of_range_are_refused_and_change_nothing(weight: object, words: str) -> None:
    s = BoundedEvaluation(8)
    s.add_cases([True, False], [0.5, 0.2], sample_weight=[2.0, 3.0])
    before = (s.num_cases, s.positive_weight, s.negative_weight, repr(s.summary()), repr(s.to_dict()))
    with pytest.raises(ValueError, match=r"add_case: argument 'weight' must be ") as info:
        s.add_case(True, 0.4, weight)
    assert words in str(info.value)
    with pytest.raises(ValueError, match=r"add_cases: argument 'sample_weight' must be .* at index 1") as info:
        s.add_cases([True, False], [0.3, 0.1], sample_weight=[1.0, weight])
    assert words in str(info.value)
    assert (s.num_cases, s.positive_weight, s.negative_weight, repr(s.summary()), repr(s.to_dict())) == before


@pytest.mark.parametrize("weighted_at", [None, 0, 1500, 4095, 5000])
def test_add_case_buffer_bins_what_add_cases_of_each_chunk_bins(weighted_at: int | None) -> None:
    """Single cases wait in the buffer (a list of scores per class, whole cases from the first
    weighted one on) and are binned 4,096 at a time: bit for bit what ``add_cases`` of each
    4,096-case chunk, in arrival order, gives, weighted or not."""
    rng = np.random.default_rng(5)
    n = 9000
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + y, 3)  # ties inside and across chunks
    w = np.ones(n)
    if weighted_at is not None:
        w[weighted_at::7] = rng.choice([0.0, 0.5, 2.0, 3.25], size=w[weighted_at::7].size)
    singles, chunks = BoundedEvaluation(64), BoundedEvaluation(64)
    for c, x, wt in zip(y.tolist(), s.tolist(), w.tolist()):
        if wt == 1.0:
            singles.add_case(c, x)
        else:
            singles.add_case(c, x, wt)
    for lo in range(0, n, 4096):
        chunks.add_cases(y[lo : lo + 4096], s[lo : lo + 4096], None if (w[lo : lo + 4096] == 1.0).all() else w[lo : lo + 4096])
    assert singles.num_cases == n and singles.weighted == (weighted_at is not None)
    for a, b in zip(singles.bins(), chunks.bins()):
        assert a.tobytes() == b.tobytes()
    assert singles.to_dict() == chunks.to_dict()


@pytest.mark.parametrize(("max_bins", "buffer"), [(4095, 4096), (4096, 8192)])
def test_a_summary_of_4096_bins_or_more_bins_single_cases_8192_at_a_time(max_bins: int, buffer: int) -> None:
    """From 4,096 bins on, single cases wait in a buffer of 8,192 (a flush costs about the same
    at either size): the bins are bit for bit those of ``add_cases`` of each chunk of that size,
    and a chunk one case short leaves the bins as they were until a query."""
    rng = np.random.default_rng(11)
    n = 2 * buffer + 100
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y  # distinct scores: more than max_bins, so every flush merges
    singles, chunks = BoundedEvaluation(max_bins), BoundedEvaluation(max_bins)
    for c, x in zip(y[: buffer - 1].tolist(), s[: buffer - 1].tolist()):
        singles.add_case(c, x)
    assert singles._bins.hi.size == 0  # still buffered
    for c, x in zip(y[buffer - 1 :].tolist(), s[buffer - 1 :].tolist()):
        singles.add_case(c, x)
    for lo in range(0, n, buffer):
        chunks.add_cases(y[lo : lo + buffer], s[lo : lo + buffer])
    assert singles.num_cases == n
    for a, b in zip(singles.bins(), chunks.bins()):
        assert a.tobytes() == b.tobytes()
    assert singles.to_dict() == chunks.to_dict()


@pytest.mark.parametrize("pos_label", [None, "yes"])
def test_a_query_after_more_single_cases_counts_them_on_every_add_case_path(pos_label: str | None) -> None:
    """add_case leaves the kept answers to the flush that every query runs first: asked again after
    more cases (the short path, a weighted case and the cases after it, labels through pos_label),
    each answer is that of a summary given every case so far in one batch (without calibration
    sums, whose float totals depend on the batching in their last bits)."""
    rng = np.random.default_rng(17)
    ev = BoundedEvaluation(64, pos_label=pos_label, calibration_bins=None)
    ys: list[object] = []
    ss: list[float] = []
    ws: list[float] = []
    for i in range(300):
        c = bool(rng.random() < 0.4)
        y = c if pos_label is None else ("yes" if c else "no")
        x = float(np.round(rng.random(), 1))  # 11 distinct scores: exact bins, whatever the batching
        w = 2.0 if i in (40, 41, 200) else 1.0
        if w == 1.0:
            ev.add_case(y, x)
        else:
            ev.add_case(y, x, w)
        ys.append(y)
        ss.append(x)
        ws.append(w)
        if i % 37 == 0 or i in (40, 41, 42, 201):
            fresh = BoundedEvaluation(64, pos_label=pos_label, calibration_bins=None)
            fresh.add_cases(ys, ss, None if all(v == 1.0 for v in ws) else ws)
            assert repr(ev.summary()) == repr(fresh.summary())
            assert repr(ev.area_under_roc_curve()) == repr(fresh.area_under_roc_curve())  # NaN while one class is empty
            assert ev.num_cases == i + 1 and ev.weighted == fresh.weighted
