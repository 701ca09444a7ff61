"""The decision queries (operating_point, costs, net benefit, DET/gain/lift/KS, PRG, prevalence) against references.

Each query is held to a slow literal reference written here (every distinct threshold tried one
by one, from the raw cases), or to the package that defines it: scikit-learn's ``det_curve``,
scipy's ``ks_2samp`` and ``beta.ppf``, ``dcurves.dca``, torchmetrics' recall at fixed precision.
Hypothesis data have ties (rounded scores), weights and misses.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from scored_pr import ScoredPrecisionRecallEvaluation

MAXIMIZE = ("precision", "recall", "tnr", "f1", "accuracy", "youden", "net_benefit")
GE = ("precision", "recall", "tnr")
LE = ("fpr", "accepted_fraction")


# ------------------------------------------------------------------ the literal reference


def _counts(labels: list[bool], scores: list[float], weights: list[float], t: float) -> tuple[float, float]:
    tp = fp = 0.0
    for y, s, w in zip(labels, scores, weights):
        if s >= t:
            if y:
                tp += w
            else:
                fp += w
    return tp, fp


def _measures(tp: float, fp: float, pos: float, neg: float, t: float) -> dict[str, float]:
    def div(a: float, b: float) -> float:
        return a / b if b else math.nan

    n = pos + neg
    fn, tn = pos - tp, neg - fp
    if math.isinf(t):
        nb = 0.0
    elif t >= 1.0:
        nb = tp / n if fp == 0 else -math.inf
    else:
        nb = tp / n - (fp / n * (t / (1 - t)) if fp > 0 else 0.0)
    return {
        "precision": div(tp, tp + fp), "recall": div(tp, pos), "fpr": div(fp, neg), "tnr": div(tn, neg),
        "accepted_fraction": div(tp + fp, n), "f1": div(2 * tp, 2 * tp + fp + fn), "accuracy": div(tp + tn, n),
        "youden": div(tp, pos) - div(fp, neg), "net_benefit": nb,
    }  # fmt: skip


def reference_operating_point(labels, scores, weights, misses, maximize, subject_to):  # type: ignore[no-untyped-def]
    """Every candidate (inf, then each distinct score of positive weight, descending) tried one by one."""
    pos = sum(w for y, w in zip(labels, weights) if y) + misses
    neg = sum(w for y, w in zip(labels, weights) if not y)
    cands = [math.inf]
    for s in sorted(set(scores), reverse=True):
        if sum(w for x, w in zip(scores, weights) if x == s) > 0:
            cands.append(s)
    rows = []
    for t in cands:
        tp, fp = _counts(labels, scores, weights, t)
        m = _measures(tp, fp, pos, neg, t)
        ok, short = True, 0.0
        for key, target in subject_to.items():
            v = m[key]
            gap = (target - v) if key in GE else (v - target)
            if math.isnan(v):
                ok, short = False, math.inf
            elif gap > 0:
                ok, short = False, short + gap
        obj = m[maximize]
        rows.append((t, ok, short, -math.inf if math.isnan(obj) else obj, m, tp, fp))
    feasible = [r for r in rows if r[1]]
    if feasible:
        best = max(r[3] for r in feasible)
        row = next(r for r in feasible if r[3] == best)  # the highest threshold on a tie
        return True, row
    least = min(r[2] for r in rows)
    near = [r for r in rows if r[2] == least]
    best = max(r[3] for r in near)
    return False, next(r for r in near if r[3] == best)


@st.composite
def cases(draw: Any, weighted: bool | None = None, probabilities: bool = False) -> tuple[Any, ...]:
    n = draw(st.integers(1, 30))
    labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    grid = draw(st.sampled_from([4, 10, 100]))  # few values: ties
    scores = [draw(st.integers(0, grid)) / grid if probabilities else draw(st.integers(-grid, grid)) / grid
              for _ in range(n)]  # fmt: skip
    use_w = draw(st.booleans()) if weighted is None else weighted
    weights = [draw(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0])) for _ in range(n)] if use_w else [1.0] * n
    misses = draw(st.integers(0, 3))
    return labels, scores, weights, misses, use_w


def _evaluator(labels, scores, weights, misses, use_w):  # type: ignore[no-untyped-def]
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(labels, scores, sample_weight=weights if use_w else None)
    ev.add_misses(misses)
    return ev


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b or abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(probabilities=True), st.sampled_from(MAXIMIZE),
       st.dictionaries(st.sampled_from(GE + LE), st.sampled_from([0.0, 0.2, 0.5, 0.75, 0.9, 1.0]), max_size=2))
def test_operating_point_equals_trying_every_threshold(data: Any, maximize: str, subject_to: dict) -> None:  # type: ignore[type-arg]
    labels, scores, weights, misses, use_w = data
    ev = _evaluator(*data)
    got = ev.operating_point(maximize, subject_to)
    feasible, (t, _, _, obj, m, tp, fp) = reference_operating_point(labels, scores, weights, misses, maximize, subject_to)
    assert got.feasible == feasible
    assert got.threshold == (t if feasible else None)
    assert _same(float(got.tp), tp) and _same(float(got.fp), fp), (got, t, tp, fp)
    for key in ("precision", "recall", "f1", "fpr", "tnr", "accepted_fraction"):
        assert _same(getattr(got, key), m[key]), (key, got, m)
    pos = sum(w for y, w in zip(labels, weights) if y) + misses
    assert _same(float(got.fn), pos - tp) and got.maximize == maximize


def test_misspelled_keys_are_refused_listing_the_valid_ones_and_change_nothing() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True], [0.9, 0.5, 0.2])
    with pytest.raises(ValueError, match=r"operating_point: argument 'subject_to' must be a mapping whose keys are "
                                         r"among 'precision', 'recall', 'fpr', 'tnr', 'accepted_fraction'.*'precison'"):
        ev.operating_point("recall", {"precison": 0.9})
    with pytest.raises(ValueError, match=r"argument 'maximize' must be one of 'precision', 'recall', 'tnr', 'f1', "
                                         r"'accuracy', 'youden', 'net_benefit'; got 'recal'"):
        ev.operating_point("recal")
    with pytest.raises(ValueError, match=r"argument 'subject_to\['recall'\]' must be a real number in \[0, 1\]"):
        ev.operating_point("precision", {"recall": 1.5})
    with pytest.raises(ValueError, match="argument 'confidence'"):
        ev.operating_point("recall", {"precision": 0.5}, confidence=1.0)
    assert ev.num_cases == 3 and ev.operating_point().threshold == 0.2


def test_infeasible_constraint_gives_the_nearest_point_not_an_exception() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([False, True, False, True], [0.9, 0.8, 0.7, 0.6])
    p = ev.operating_point("recall", {"precision": 0.9})
    # precisions 0, 1/2, 1/3, 1/2: the nearest are the two at 1/2; the greater recall wins
    assert (p.feasible, p.threshold, p.precision, p.recall, p.tp, p.fp) == (False, None, 0.5, 1.0, 2, 2)
    empty = ScoredPrecisionRecallEvaluation().operating_point("recall", {"precision": 0.5})
    assert not empty.feasible and empty.threshold is None and math.isnan(empty.precision)


def test_torchmetrics_recall_at_fixed_precision() -> None:
    torch = pytest.importorskip("torch")
    tm = pytest.importorskip("torchmetrics.classification")
    rng = np.random.default_rng(3)
    for trial in range(8):
        n = int(rng.integers(5, 200))
        y = rng.random(n) < 0.4
        s = np.round(rng.random(n) * 0.5 + 0.5 * y * rng.random(n), 2)  # ties
        if not y.any() or y.all():
            continue
        for level in (0.3141, 0.6173, 0.9011):  # off the small-denominator ratios float32 rounds across
            metric = tm.BinaryRecallAtFixedPrecision(min_precision=level)
            recall, threshold = metric(torch.tensor(s, dtype=torch.float64), torch.tensor(y.astype(int)))
            ev = ScoredPrecisionRecallEvaluation()
            ev.add_cases(y, s)
            p = ev.operating_point("recall", {"precision": level})
            want = float(recall)
            assert (p.recall if p.feasible else 0.0) == pytest.approx(want, abs=1e-6), (trial, level)
            if p.feasible and want > 0:
                assert p.threshold == pytest.approx(float(threshold), abs=1e-6) or p.recall == want


# ------------------------------------------------------------------ with a confidence


def _fixed_sequence_reference(ev: ScoredPrecisionRecallEvaluation, key: str, target: float, confidence: float) -> Any:
    """Recall >= target alone: test every threshold from the lowest up, one by one, stop at the first failure."""
    scipy_stats = pytest.importorskip("scipy.stats")
    _, tpr, thresholds = ev.roc_points()
    pos = ev.num_positive_ref
    certified = []
    for t, r in reversed(list(zip(thresholds.tolist(), tpr.tolist()))):
        k = round(r * pos)
        p_value = scipy_stats.binom.sf(k - 1, pos, target)  # P(Binomial(P, target) >= k)
        if p_value > 1 - confidence:
            break
        certified.append((t, k))
    return certified


@settings(max_examples=40, deadline=None)
@given(cases(weighted=False), st.sampled_from([0.3, 0.5, 0.8]), st.sampled_from([0.8, 0.95]))
def test_certified_recall_is_the_fixed_sequence_of_exact_binomial_tests(data: Any, target: float, conf: float) -> None:
    assume(any(data[0]) or data[3])
    ev = _evaluator(*data)
    got = ev.operating_point("precision", {"recall": target}, confidence=conf)
    certified = _fixed_sequence_reference(ev, "recall", target, conf)
    if not certified:
        assert not got.feasible and got.threshold is None
        return
    assert got.feasible
    best = max(range(len(certified)), key=lambda i: (ev.precision_at_threshold(certified[i][0])
                                                     if not math.isinf(certified[i][0]) else -1, certified[i][0]))  # fmt: skip
    want_t = certified[best][0]
    assert got.threshold == want_t or ev.precision_at_threshold(got.threshold) == ev.precision_at_threshold(want_t)
    scipy_stats = pytest.importorskip("scipy.stats")
    k, n = got.tp, ev.num_positive_ref
    lower = 0.0 if k == 0 else scipy_stats.beta.ppf(1 - conf, k, n - k + 1)
    assert got.bounds is not None and got.bounds["recall"] == pytest.approx(lower, rel=1e-8, abs=1e-12)
    assert got.bounds["recall"] >= target - 1e-12 and got.confidence == conf


def test_certified_precision_holds_its_bound_on_the_test_half_and_is_reproducible() -> None:
    rng = np.random.default_rng(0)
    y = rng.random(4000) < 0.3
    s = rng.normal(size=4000) + 2.0 * y
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    point = ev.operating_point("recall", {"precision": 0.9}, confidence=0.95)
    assert point.feasible and point.bounds is not None and point.bounds["precision"] >= 0.9
    estimate = ev.operating_point("recall", {"precision": 0.9})
    assert point.threshold >= estimate.threshold  # the guarantee costs recall, never adds it
    again = ScoredPrecisionRecallEvaluation()
    again.add_cases(y, s)
    assert again.operating_point("recall", {"precision": 0.9}, confidence=0.95) == point
    other = again.operating_point("recall", {"precision": 0.9}, confidence=0.95, seed=1)
    assert other.feasible and other.bounds is not None and other.bounds["precision"] >= 0.9


def test_confidence_needs_whole_counts() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True], [0.9, 0.5, 0.2], sample_weight=[0.5, 1.0, 1.0])
    with pytest.raises(ValueError, match="argument 'confidence' needs whole counts"):
        ev.operating_point("recall", {"precision": 0.5}, confidence=0.9)
    integer = ScoredPrecisionRecallEvaluation()
    integer.add_cases([True, False, True], [0.9, 0.5, 0.2], sample_weight=[20, 1, 30])
    copies = ScoredPrecisionRecallEvaluation()
    copies.add_cases([True] * 20 + [False] + [True] * 30, [0.9] * 20 + [0.5] + [0.2] * 30)
    a = integer.operating_point("precision", {"recall": 0.3}, confidence=0.9)
    b = copies.operating_point("precision", {"recall": 0.3}, confidence=0.9)
    assert (a.threshold, a.bounds) == (b.threshold, b.bounds)


# ------------------------------------------------------------------ costs


@settings(max_examples=80, deadline=None)
@given(cases(), st.sampled_from([0.0, 1.0, 3.0]), st.sampled_from([1.0, 20.0]), st.sampled_from([0.0, 2.0]),
       st.sampled_from([0.0, 0.5]))
def test_min_cost_equals_trying_every_threshold(data: Any, cfp: float, cfn: float, gtp: float, gtn: float) -> None:
    labels, scores, weights, misses, use_w = data
    ev = _evaluator(*data)
    pos = sum(w for y, w in zip(labels, weights) if y) + misses
    neg = sum(w for y, w in zip(labels, weights) if not y)
    assume(pos + neg > 0)
    best = None
    for t in [math.inf, *sorted(set(scores), reverse=True)]:
        tp, fp = _counts(labels, scores, weights, t)
        cost = (cfp * fp + cfn * (pos - tp) - gtp * tp - gtn * (neg - fp)) / (pos + neg)
        assert ev.expected_cost(t, cfp, cfn, gtp, gtn) == pytest.approx(cost, abs=1e-12)
        if best is None or cost < best[1] - 1e-12:
            best = (t, cost)
    got = ev.min_cost_threshold(cfp, cfn, gtp, gtn)
    assert got.expected_cost == pytest.approx(best[1], abs=1e-12)
    assert ev.expected_cost(got.threshold, cfp, cfn, gtp, gtn) == pytest.approx(best[1], abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(cases())
def test_cost_curve_is_the_lower_envelope_of_every_threshold(data: Any) -> None:
    labels, scores, weights, misses, use_w = data
    ev = _evaluator(*data)
    pos = sum(w for y, w in zip(labels, weights) if y) + misses
    neg = sum(w for y, w in zip(labels, weights) if not y)
    x, y = ev.cost_curve()
    if pos <= 0 or neg <= 0:
        assert x.size == 0
        return
    lines = []
    for t in [math.inf, *sorted(set(scores), reverse=True)]:
        tp, fp = _counts(labels, scores, weights, t)
        lines.append((fp / neg, (pos - tp) / pos))
    assert x[0] == 0.0 and x[-1] == 1.0 and np.all(np.diff(x) > 0)
    grid = np.unique(np.concatenate((np.linspace(0, 1, 201), x)))
    envelope = np.min([fpr * (1 - grid) + fnr * grid for fpr, fnr in lines], axis=0)
    np.testing.assert_allclose(np.interp(grid, x, y), envelope, atol=1e-12)


# ------------------------------------------------------------------ net benefit, DET, gain, lift, KS


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # dcurves: ~1 s a call
@given(cases(weighted=False, probabilities=True))
def test_net_benefit_equals_dcurves(data: Any) -> None:
    dcurves = pytest.importorskip("dcurves")
    pd = pytest.importorskip("pandas")
    labels, scores, weights, misses, _ = data
    assume(any(labels) and not all(labels))
    scores = [0.01 + 0.98 * s for s in scores]  # dcurves counts no false positive at a score of exactly 0
    ev = _evaluator(labels, scores, weights, 0, False)
    thresholds = [i / 20 for i in range(20)]
    frame = pd.DataFrame({"y": np.asarray(labels, dtype=int), "m": scores})
    got = ev.net_benefit(thresholds)
    out = dcurves.dca(data=frame, outcome="y", modelnames=["m"], thresholds=thresholds)
    for name, column in (("m", got.model), ("all", got.treat_all), ("none", got.treat_none)):
        want = out[out["model"] == name].sort_values("threshold")["net_benefit"].to_numpy()
        np.testing.assert_allclose(column, want, atol=1e-12, err_msg=name)
    default = ev.net_benefit()
    inner = sorted({s for s in scores if 0 < s < 1})
    assert default.threshold.tolist() == inner


def test_net_benefit_names_the_first_score_outside_zero_one() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True], [0.3, 1.7, -2.0])
    with pytest.raises(ValueError, match=r"net_benefit: the scores must be probabilities in \[0, 1\]; the score 1.7 "
                                         r"\(rank 1\) is not"):
        ev.net_benefit()
    with pytest.raises(ValueError, match="operating_point: the scores must be probabilities"):
        ev.operating_point("net_benefit")
    with pytest.raises(ValueError, match=r"argument 'thresholds' must be real numbers in \[0, 1\); got 1.0"):
        ScoredPrecisionRecallEvaluation().net_benefit([0.5, 1.0])


@settings(max_examples=80, deadline=None)
@given(cases(probabilities=True))
def test_det_curve_equals_scikit_learn(data: Any) -> None:
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    import inspect

    if "drop_intermediate" not in inspect.signature(sklearn_metrics.det_curve).parameters:
        # before scikit-learn 1.7 det_curve cut the curve where the false negatives end; det_curve
        # follows the newer releases, which keep every threshold (CI's newest and 3.13 steps hold it)
        pytest.skip("scikit-learn before 1.7 trims the DET curve's ends")
    labels, scores, weights, _, use_w = data
    ev = _evaluator(labels, scores, weights, 0, use_w)
    pos = sum(w for y, w in zip(labels, weights) if y)
    neg = sum(w for y, w in zip(labels, weights) if not y)
    assume(pos > 0 and neg > 0 and any(labels) and not all(labels))
    want = sklearn_metrics.det_curve(labels, scores, sample_weight=weights if use_w else None)
    for got, ref in zip(ev.det_curve(), want):
        np.testing.assert_allclose(got, ref, rtol=1e-12)


@settings(max_examples=80, deadline=None)
@given(cases(weighted=False))
def test_ks_statistic_equals_scipy_and_gain_lift_equal_their_definitions(data: Any) -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    labels, scores, weights, misses, _ = data
    ev = _evaluator(*data)
    pos_scores = [s for y, s in zip(labels, scores) if y]
    neg_scores = [s for y, s in zip(labels, scores) if not y]
    if pos_scores and neg_scores:
        assert ev.ks_statistic() == pytest.approx(scipy_stats.ks_2samp(pos_scores, neg_scores, method="asymp").statistic, abs=1e-12)
    else:
        assert math.isnan(ev.ks_statistic())
    frac, rec, thr = ev.cumulative_gain_curve()
    pos, n = len(pos_scores) + misses, len(scores) + misses
    want_t = [math.inf, *sorted(set(scores), reverse=True)]
    assert thr.tolist() == want_t
    for f, r, t in zip(frac, rec, want_t):
        tp, fp = _counts(labels, scores, weights, t)
        assert f == pytest.approx((tp + fp) / n) and (r == pytest.approx(tp / pos) if pos else math.isnan(r))
    lf, lift, lt = ev.lift_curve()
    assert lt.tolist() == want_t[1:]
    if pos:
        np.testing.assert_allclose(lift, rec[1:] / frac[1:])


def test_weighted_ks_is_the_weighted_distributions_gap() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, True, False, False], [0.9, 0.2, 0.5, 0.1], sample_weight=[3, 1, 1, 1])
    # shares >= t: positives 3/4 at 0.9, 3/4 at 0.5, 1 at 0.2; negatives 0, 1/2, 1/2
    assert ev.ks_statistic() == 0.75


# ------------------------------------------------------------------ precision-recall gain


def _prg_reference(labels: list[bool], scores: list[float], misses: int) -> tuple[list[float], list[float], float]:
    """Flach and Kull (2015) from their definitions, one threshold at a time."""
    pos = sum(labels) + misses
    neg = len(labels) - sum(labels)
    pi = pos / (pos + neg)
    rgs, pgs = [], []
    for t in sorted(set(scores), reverse=True):
        tp, fp = _counts(labels, scores, [1.0] * len(labels), t)
        prec, rec = tp / (tp + fp), tp / pos
        pgs.append((prec - pi) / ((1 - pi) * prec) if prec else -math.inf)
        rgs.append((rec - pi) / ((1 - pi) * rec) if rec else -math.inf)
    area = 0.0
    pts = list(zip(rgs, pgs))
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x1 <= 0 or not math.isfinite(y0) or not math.isfinite(y1):
            continue
        if x0 < 0:  # cut the segment at recall gain 0
            if not math.isfinite(x0):
                continue
            y0, x0 = y0 + (y1 - y0) * (0 - x0) / (x1 - x0), 0.0
        area += (x1 - x0) * (y0 + y1) / 2
    return rgs, pgs, area


@settings(max_examples=80, deadline=None)
@given(cases(weighted=False))
def test_precision_recall_gain_equals_its_definition(data: Any) -> None:
    labels, scores, weights, misses, _ = data
    assume(any(labels) and not all(labels))
    ev = _evaluator(*data)
    rg, pg = ev.precision_recall_gain_curve()
    want_rg, want_pg, area = _prg_reference(labels, scores, misses)
    np.testing.assert_allclose(rg, want_rg, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(pg, want_pg, rtol=1e-12, atol=1e-12)
    got = ev.area_under_prg_curve()
    if np.any(np.asarray(want_rg) >= 0):
        assert got == pytest.approx(area, abs=1e-12)


# ------------------------------------------------------------------ prevalence


@settings(max_examples=60, deadline=None)
@given(cases(weighted=False), st.integers(1, 4))
def test_at_prevalence_equals_integer_weight_copies(data: Any, copies: int) -> None:
    labels, scores, weights, misses, _ = data
    pos = sum(labels) + misses
    neg = len(labels) - sum(labels)
    assume(pos > 0 and neg > 0)
    ev = _evaluator(*data)
    pi = pos / (pos + copies * neg)
    view = ev.at_prevalence(pi)
    ref = ScoredPrecisionRecallEvaluation()
    ref.add_cases([y for y in labels for _ in range(1 if y else copies)],
                  [s for y, s in zip(labels, scores) for _ in range(1 if y else copies)])  # fmt: skip
    ref.add_misses(misses)
    for q in ("average_precision", "maximum_f_measure", "area_under_pr_curve", "area_under_roc_curve"):
        assert getattr(view, q)() == pytest.approx(getattr(ref, q)(), rel=1e-9, abs=1e-12), q
    np.testing.assert_allclose(view.pr_curve(), ref.pr_curve(), rtol=1e-9)
    a, b = view.operating_point("recall", {"precision": 0.5}), ref.operating_point("recall", {"precision": 0.5})
    assert a.threshold == b.threshold and a.precision == pytest.approx(b.precision)
    np.testing.assert_allclose(view.roc_points()[1], ev.roc_points()[1])  # ROC unchanged
    np.testing.assert_allclose(view.roc_points()[0], ev.roc_points()[0], rtol=1e-12)
    with pytest.raises(TypeError, match="read-only"):
        view.add_case(True, 0.5)


def test_at_prevalence_refuses_what_it_cannot_reweight() -> None:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False], [0.9, 0.1])
    with pytest.raises(ValueError, match=r"at_prevalence: argument 'pi' must be a real number strictly between 0 and 1"):
        ev.at_prevalence(1.0)
    ev.add_negative_misses(2)
    with pytest.raises(ValueError, match="negative misses cannot be reweighted"):
        ev.at_prevalence(0.1)


# ------------------------------------------------------------------ the functional forms and the CI gate


def test_functional_forms_equal_the_evaluators() -> None:
    from scored_pr import functional as F

    y, s, w = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.4, 0.3, 0.1], [1.0, 2.0, 1.0, 3.0, 1.0, 1.0]
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s, sample_weight=w)
    ev.add_misses(1)
    assert F.operating_point(y, s, "f1", {"fpr": 0.5}, sample_weight=w, misses=1) == ev.operating_point("f1", {"fpr": 0.5})
    assert F.min_cost_threshold(y, s, 1.0, 4.0, sample_weight=w, misses=1) == ev.min_cost_threshold(1.0, 4.0)
    got, want = F.net_benefit(y, s, [0.2, 0.5], sample_weight=w), None
    plain = ScoredPrecisionRecallEvaluation()
    plain.add_cases(y, s, sample_weight=w)
    want = plain.net_benefit([0.2, 0.5])
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="operating_point: argument 'subject_to'"):
        F.operating_point(y, s, "recall", {"recall_at": 0.5})


def test_assert_operating_point_gates_on_the_chosen_point() -> None:
    from scored_pr.testing import assert_operating_point

    rng = np.random.default_rng(1)
    y = rng.random(3000) < 0.3
    s = rng.normal(size=3000) + 3.0 * y
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    point = assert_operating_point(ev, maximize="recall", subject_to={"precision": 0.9}, recall__ge=0.5,
                                   confidence=0.95)  # fmt: skip
    assert point == ev.operating_point("recall", {"precision": 0.9}, 0.95) and point.recall >= 0.5
    with pytest.raises(AssertionError, match=r"(?s)1 of 2 bounds not met at the threshold .*recall  >= 0.99 .*FAILED"):
        assert_operating_point(ev, "recall", {"precision": 0.9}, recall__ge=0.99, fpr__le=0.5)
    with pytest.raises(AssertionError, match=r"no threshold meets precision >= 1.0 at confidence 0.95"):
        assert_operating_point(ev, "recall", {"precision": 1.0}, confidence=0.95, recall__ge=0.1)
    with pytest.raises(ValueError, match=r"argument 'recall_ge' must be FIELD__OP"):
        assert_operating_point(ev, "recall", {"precision": 0.9}, recall_ge=0.5)


def last_all(y: np.ndarray, s: np.ndarray) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    return ev


def test_every_kind_answers_on_its_own_cases_or_refuses_saying_why() -> None:
    from scored_pr import BoundedEvaluation, MultiLabelEvaluation, UnsupportedQuery, WindowedEvaluation

    rng = np.random.default_rng(4)
    y = rng.random(60) < 0.4
    s = np.round(rng.random(60) * 0.6 + 0.4 * y, 2)
    window = WindowedEvaluation(size=25)
    window.add_cases(y, s)
    last = ScoredPrecisionRecallEvaluation()
    last.add_cases(y[-25:], s[-25:])
    assert window.operating_point("f1", {"fpr": 0.3}) == last.operating_point("f1", {"fpr": 0.3})
    assert window.min_cost_threshold(1, 5) == last.min_cost_threshold(1, 5)
    np.testing.assert_array_equal(window.net_benefit().model, last.net_benefit().model)
    labels = np.column_stack((y, ~y))
    ml = MultiLabelEvaluation(["a", "b"])
    ml.add_cases(labels, np.column_stack((s, 1 - s)))
    other = ScoredPrecisionRecallEvaluation()
    other.add_cases(~y, 1 - s)
    assert ml["b"].operating_point("recall", {"precision": 0.6}) == other.operating_point("recall", {"precision": 0.6})
    bounded = BoundedEvaluation()  # 60 cases, at most 61 distinct scores: exact bins, the exact answer
    bounded.add_cases(y, s)
    point = bounded.operating_point("recall", {"precision": 0.6})
    assert point.optimum is not None and point.optimum.exact
    import dataclasses
    assert dataclasses.replace(point, optimum=None) == last_all(y, s).operating_point("recall", {"precision": 0.6})
    # exact bins: net benefit at every distinct score is the evaluator's, each value an exact Bounds
    np.testing.assert_array_equal(np.asarray(bounded.net_benefit().model, dtype=float), last_all(y, s).net_benefit().model)
    coarse = BoundedEvaluation(max_bins=4)  # range bins: the default thresholds are refused, saying what to pass
    coarse.add_cases(y, s)
    with pytest.raises(UnsupportedQuery, match=r"^BoundedEvaluation.net_benefit\(\): the default thresholds are "
                                               r"every distinct score.*; pass thresholds="):
        coarse.net_benefit()
