"""IR measures: hand-worked examples from the spec notes, literal references, brute force."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import Reference, paired
from scored_pr import ScoredPrecisionRecallEvaluation


def ranked(rels: str, misses: int = 0, ties: str = "stable") -> ScoredPrecisionRecallEvaluation:
    """An evaluation from a relevance string in rank order, e.g. '0101'."""
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    ev.add_cases([c == "1" for c in rels], [float(len(rels) - i) for i in range(len(rels))])
    ev.add_misses(misses)
    return ev


# ------------------------------------------------------------ spec worked examples


def test_spec_000_ranking_x_a_y_b_c_z() -> None:
    ev = ranked("010110")  # x a y b c z; relevant a, b, c
    assert [ev.precision_at(k) for k in range(1, 7)] == [0.0, 1 / 2, 1 / 3, 2 / 4, 3 / 5, 3 / 6]
    assert [ev.recall_at(k) for k in range(1, 7)] == [0.0, 1 / 3, 1 / 3, 2 / 3, 1.0, 1.0]
    assert ev.average_precision() == pytest.approx((1 / 2 + 2 / 4 + 3 / 5) / 3, rel=1e-15)
    assert ev.r_precision() == pytest.approx(1 / 3, rel=1e-15)  # precision = recall at K = R = 3
    assert ev.k_at_recall(2 / 3) == 4 and ev.precision_at_recall(2 / 3) == 0.5
    assert ev.k_at_recall(1.0) == 5 and ev.precision_at_recall(1.0) == 0.6
    # F1 = 2tp / (2tp + fp + fn) and E = (fp + fn) / (2tp + fp + fn), at k = 4: tp 2, fp 2, fn 1
    assert ev.f_measure_at(4) == pytest.approx(4 / 7, rel=1e-15)
    assert ev.e_measure_at(4) == pytest.approx(3 / 7, rel=1e-15)


def test_spec_002_average_precision_at_k() -> None:
    ev = ranked("110", misses=1)  # relevant at ranks 1 and 2, four relevant in all
    assert ev.average_precision_at(3) == pytest.approx(2 / 3, rel=1e-15)  # 2.00 / min(3, 4)
    assert ev.average_precision_at(1) == 1.0


def test_spec_002_f_beta() -> None:
    ev = ranked("1100", misses=2)  # P@4 = 1/2, R@4 = 1/2
    for beta in (0.5, 1.0, 2.0):
        p = r = 0.5
        assert ev.f_measure_at(4, beta) == pytest.approx((1 + beta**2) * p * r / (beta**2 * p + r), rel=1e-15)


def test_spec_003_average_precision_divides_by_all_relevant() -> None:
    ev = ranked("1001100100", misses=1)  # 4 of 5 relevant returned
    assert ev.average_precision() == pytest.approx((1 + 0.5 + 0.6 + 0.5) / 5, rel=1e-15)  # 0.52
    assert ev.precision_at(10) == pytest.approx(0.4) and ev.recall_at(10) == pytest.approx(0.8)
    assert ev.f_measure_at(10) == pytest.approx(2 * 0.4 * 0.8 / 1.2, rel=1e-15)


def test_spec_001_hit_curves() -> None:
    perfect = ranked("1111100000")
    assert perfect.hit_curve().tolist() == [1, 2, 3, 4, 5, 5, 5, 5, 5, 5]
    assert perfect.average_precision() == 1.0
    # A random ranking: every ordering of one tie group; h(t) = t * prevalence exactly.
    rnd = ScoredPrecisionRecallEvaluation(ties="grouped")
    rnd.add_cases([i < 50 for i in range(1000)], [0.0] * 1000)
    np.testing.assert_allclose(rnd.hit_curve(), np.arange(1, 1001) * 0.05, rtol=1e-12)
    # ... and the expected AP of a random ranking approaches the prevalence as n grows.
    big = ScoredPrecisionRecallEvaluation()
    big.add_cases(np.arange(100_000) < 10_000, np.zeros(100_000))
    assert big.average_precision(ties="expected") == pytest.approx(0.1, abs=0.002)


def test_eleven_point_roundings_differ_as_documented() -> None:
    ev = ranked("1010100")  # R = 3: precisions at the correct cases 1, 2/3, 3/5
    assert ev.eleven_point_interpolated_precision("exact")[7] == 0.6  # needs ceil(2.1) = 3
    assert ev.eleven_point_interpolated_precision("trec_eval9")[7] == pytest.approx(2 / 3)  # int(2.1 + 0.9) = 2
    assert ev.eleven_point_interpolated_precision("trec_eval10")[7] == pytest.approx(2 / 3)  # lround(2.1) = 2
    four = ranked("0101011", misses=0)  # R = 4, level 0.1: exact/te9 need 1, te10 needs lround(0.4) = 0
    assert four.eleven_point_interpolated_precision("trec_eval10")[1] == four.eleven_point_interpolated_precision("exact")[1]
    unreachable = ranked("10", misses=1)
    assert unreachable.eleven_point_interpolated_precision()[10] == 0.0
    assert unreachable.eleven_point_interpolated_precision()[5] == 1.0


# ------------------------------------------------------------- literal references


def ref_tp_top(ref: Reference, k: int) -> Fraction:
    return ref.expected_tp_top(min(k, len(ref.cases)))


def ref_ap_at(ref: Reference, k: int) -> float:
    den = min(k, ref.P)
    if den == 0:
        return math.nan
    total = Fraction(0)
    seen = 0
    tp = 0
    for group in ref.groups():
        pos = sum(c for c, _ in group)
        tp += pos
        prec = Fraction(tp, seen + len(group))
        inside = min(len(group), max(0, k - seen))
        total += Fraction(pos * inside, len(group)) * prec
        seen += len(group)
    return float(total / den)


def ref_k_at_recall(ref: Reference, level: float) -> tuple[int, int] | None:
    tp = k = 0
    for group in ref.groups():
        tp += sum(c for c, _ in group)
        k += len(group)
        if ref.P and tp and tp / ref.P >= level:  # recall as the curves report it (float64), not the exact ratio
            return k, tp
    return None


def ref_eleven(ref: Reference, rounding: str) -> list[float]:
    out = []
    for i in range(11):
        level = i / 10
        if rounding == "exact":
            need = math.ceil(Fraction(i, 10) * ref.P)
        elif rounding == "trec_eval9":
            need = int(level * ref.P + 0.9)
        else:
            need = math.floor(level * ref.P + 0.5)
        precisions = [p for r, p in zip([x[0] for x in ref.pr_curve()], [x[1] for x in ref.pr_curve()])]
        tps = [pt["tp"] for pt in ref.points()]
        good = [p for p, tp in zip(precisions, tps) if tp >= max(need, 1)]
        out.append(max(good) if good else 0.0)
    return out


scores = st.one_of(st.integers(-3, 3).map(float), st.floats(-5, 5, allow_nan=False))
cases = st.lists(st.tuples(st.booleans(), scores), max_size=40)


def close(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.parametrize("ties", ["stable", "grouped"])
@settings(max_examples=200, deadline=None)
@given(data=cases, misses=st.integers(0, 3), level=st.sampled_from([0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0]))
def test_ir_measures_match_literal_references(ties: str, data: list, misses: int, level: float) -> None:
    ev, ref = paired(ties, data, misses)
    n = len(data)
    for k in range(1, n + 3):
        expected_recall = float(ref_tp_top(ref, k) / ref.P) if ref.P else math.nan
        assert close(ev.recall_at(k), expected_recall), k
        assert close(ev.average_precision_at(k), ref_ap_at(ref, k)), k
        tp = ref_tp_top(ref, k)
        kk = min(k, n)
        den = 2 * tp + (ref.P - tp) + (kk - tp)
        f1 = float(2 * tp / den) if den else math.nan
        assert close(ev.f_measure_at(k), f1), k
        assert close(ev.e_measure_at(k), 1 - f1), k
    hit = ref_k_at_recall(ref, level)
    assert (ev.k_at_recall(level) == hit[0]) if hit else math.isnan(ev.k_at_recall(level))
    assert close(ev.precision_at_recall(level), hit[1] / hit[0] if hit else math.nan)
    hits = [float(ref.expected_tp_top(t)) for t in range(1, n + 1)]
    np.testing.assert_allclose(ev.hit_curve(), np.array(hits, dtype=float).reshape(-1), rtol=1e-12, atol=1e-12)
    for rounding in ("exact", "trec_eval9", "trec_eval10"):
        np.testing.assert_allclose(ev.eleven_point_interpolated_precision(rounding), ref_eleven(ref, rounding), rtol=1e-12)


# --------------------------------------------------- expected AP (McSherry & Najork)


def brute_force_expected_ap(data: list, misses: int) -> float:
    """Average the stable AP over every ordering of every tie group."""
    groups: dict[float, list[bool]] = {}
    for c, s in data:
        groups.setdefault(s, []).append(c)
    keys = sorted(groups, reverse=True)
    per_group = [sorted(set(itertools.permutations(groups[k]))) for k in keys]
    total, count = 0.0, 0
    for combo in itertools.product(*per_group):
        ev = ScoredPrecisionRecallEvaluation()
        rels = [c for part in combo for c in part]
        ev.add_cases(rels, list(range(len(rels), 0, -1)))
        ev.add_misses(misses)
        total += ev.average_precision()
        count += 1
    return total / count


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 2).map(float)), min_size=1, max_size=7),
    st.integers(0, 2),
)
def test_expected_average_precision_is_the_mean_over_tie_orderings(data: list, misses: int) -> None:
    ev = ScoredPrecisionRecallEvaluation()
    for c, s in data:
        ev.add_case(c, s)
    ev.add_misses(misses)
    if ev.num_positive_ref == 0:
        assert math.isnan(ev.average_precision(ties="expected"))
        return
    assert ev.average_precision(ties="expected") == pytest.approx(brute_force_expected_ap(data, misses), rel=1e-12)


def test_expected_equals_stable_for_distinct_scores() -> None:
    rng = np.random.default_rng(3)
    y, s = rng.random(500) < 0.3, rng.normal(size=500)
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    assert ev.average_precision(ties="expected") == pytest.approx(ev.average_precision(), rel=1e-12)
    assert ev.average_precision(ties="grouped") == pytest.approx(ev.average_precision(), rel=1e-12)


# --------------------------------------------------------------------- thresholds


def same_point(got: tuple, want: tuple) -> bool:
    return all((isinstance(w, float) and math.isnan(w) and math.isnan(g)) or g == w for g, w in zip(got, want))


def brute_thresholds(data: list, P: int):
    out = []
    for t in sorted({s for _, s in data}, reverse=True):
        acc = [c for c, s in data if s >= t]
        out.append((t, sum(acc) / len(acc), sum(acc) / P if P else math.nan, len(acc)))
    return out


@settings(max_examples=200, deadline=None)
@given(cases, st.integers(0, 2), st.sampled_from([0.0, 0.25, 0.5, 0.6, 0.75, 1.0]), st.sampled_from(["stable", "grouped"]))
def test_thresholds_match_brute_force(data: list, misses: int, target: float, ties: str) -> None:
    ev = ScoredPrecisionRecallEvaluation(ties=ties)
    for c, s in data:
        ev.add_case(c, s)
    ev.add_misses(misses)
    P = ev.num_positive_ref
    rows = brute_thresholds(data, P)
    ok = [r for r in rows if r[1] >= target]
    got = ev.threshold_at_precision(target)
    assert same_point(got, ok[-1]) if ok else (got.k == 0 and math.isnan(got.threshold))
    ok = [r for r in rows if P and sum(c for c, s in data if s >= r[0]) / P >= target]  # the float64 recall
    got = ev.threshold_at_recall(target)
    assert same_point(got, ok[0]) if ok else (got.k == 0 and math.isnan(got.recall))
    got = ev.maximum_f_measure_threshold()
    fs = [2 * p * r / (p + r) if p + r else 0.0 for _, p, r, _ in rows] if P else []
    if fs and max(fs) > 0:
        assert got.k == rows[fs.index(max(fs))][3]
    else:
        assert got.k == 0


def test_threshold_at_precision_matches_sklearn() -> None:
    from sklearn.metrics import precision_recall_curve

    rng = np.random.default_rng(7)
    y = rng.random(2000) < 0.3
    s = np.round(rng.normal(size=2000) + y, 1)
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    ev.add_cases(y, s)
    precision, recall, thresholds = precision_recall_curve(y, s)
    for target in (0.3, 0.5, 0.7, 0.9):
        ok = precision[:-1] >= target
        i = int(np.flatnonzero(ok)[0])  # thresholds ascend: the first qualifying is the lowest
        got = ev.threshold_at_precision(target)
        assert got.threshold == thresholds[i]
        assert got.precision == pytest.approx(precision[i], rel=1e-12)
        assert got.recall == pytest.approx(recall[i], rel=1e-12)
    for target in (0.1, 0.5, 0.9):
        ok = recall[:-1] >= target
        i = int(np.flatnonzero(ok)[-1])  # the highest threshold still reaching the recall
        assert ev.threshold_at_recall(target).threshold == thresholds[i]
