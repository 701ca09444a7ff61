"""The calibration queries against their references: scikit-learn, torchmetrics, uncertainty-calibration, statsmodels.

Hypothesis draws probabilities with ties (a coarse grid), the edge values 0.0 and 1.0 and the
bins' own edges, sample weights, and misses (which every calibration measure leaves out).
torchmetrics is optional (it pulls torch): its parity tests skip without it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from scored_pr import (
    BoundedEvaluation,
    ReliabilityDiagram,
    ScoredPrecisionRecallEvaluation as E,
    SynchronizedEvaluation,
    UnsupportedQuery,
    WindowedEvaluation,
)

sklearn_calibration = pytest.importorskip("sklearn.calibration")
from sklearn.isotonic import IsotonicRegression  # noqa: E402
from sklearn.metrics import brier_score_loss, log_loss  # noqa: E402

EPS = float(np.finfo(np.float64).eps)

#: Scores: a coarse grid (ties, 0.0, 1.0 and the uniform bins' edges) or any probability.
_score = st.one_of(st.sampled_from([0.0, 0.1, 0.2, 0.25, 0.4, 0.5, 0.6, 0.75, 0.8, 1.0]),
                   st.floats(0.0, 1.0, allow_nan=False))  # fmt: skip


@st.composite
def cases(draw: Any, weighted: bool = False, min_size: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    n = draw(st.integers(min_size, 40))
    p = np.array(draw(st.lists(_score, min_size=n, max_size=n)), dtype=np.float64)
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    w = np.array(draw(st.lists(st.integers(1, 4), min_size=n, max_size=n)), dtype=np.float64) if weighted else None
    return p, y, w


def _ev(p: np.ndarray, y: np.ndarray, w: np.ndarray | None = None, misses: int = 0) -> E:
    ev = E()
    ev.add_cases(y, p, sample_weight=w)
    ev.add_misses(misses)
    ev.add_negative_misses(misses)
    return ev


# --------------------------------------------------------------- slow literal references


def _ece_reference(p: np.ndarray, y: np.ndarray, w: np.ndarray | None, n_bins: int, norm: str,
                   edges: np.ndarray | None = None, one_own_bin: bool = False) -> float:  # fmt: skip
    """Bins [e_i, e_{i+1}), the last closed; with ``one_own_bin`` a score of 1.0 alone (torchmetrics)."""
    w = np.ones_like(p) if w is None else w
    e = np.linspace(0, 1, n_bins + 1) if edges is None else edges
    bins: dict[int, list[int]] = {}
    for i, s in enumerate(p):
        b = n_bins if (one_own_bin and s == 1.0) else min(max(int(np.searchsorted(e, s, "right")) - 1, 0), n_bins - 1)
        bins.setdefault(b, []).append(i)
    total = w.sum()
    gaps, props = [], []
    for idx in bins.values():
        ww = w[idx]
        gaps.append(abs(np.dot(ww, y[idx]) / ww.sum() - np.dot(ww, p[idx]) / ww.sum()))
        props.append(ww.sum() / total)
    g, pr = np.array(gaps), np.array(props)
    if norm == "l1":
        return float(np.dot(pr, g))
    if norm == "max":
        return float(g.max())
    return math.sqrt(float(np.dot(pr, g * g)))


def _logit(p: np.ndarray) -> np.ndarray:
    q = np.clip(p, EPS, 1 - EPS)
    return np.log(q) - np.log1p(-q)


# --------------------------------------------------------------- scikit-learn


@settings(max_examples=80, deadline=None)
@given(cases(), st.integers(1, 8), st.sampled_from(["uniform", "quantile"]), st.integers(0, 2))
def test_calibration_curve_equals_scikit_learn(c: Any, n_bins: int, strategy: str, misses: int) -> None:
    p, y, _ = c
    got = _ev(p, y, misses=misses).calibration_curve(n_bins=n_bins, strategy=strategy)
    want = sklearn_calibration.calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12, atol=1e-15)


@settings(max_examples=60, deadline=None)
@given(cases(weighted=True), st.integers(1, 8), st.sampled_from(["uniform", "quantile"]))
def test_weighted_calibration_curve_equals_scikit_learn_on_repeated_cases(c: Any, n_bins: int, strategy: str) -> None:
    p, y, w = c
    got = _ev(p, y, w).calibration_curve(n_bins=n_bins, strategy=strategy)
    reps = w.astype(int)
    want = sklearn_calibration.calibration_curve(np.repeat(y, reps), np.repeat(p, reps), n_bins=n_bins,
                                                 strategy=strategy)  # fmt: skip
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12, atol=1e-15)


@settings(max_examples=80, deadline=None)
@given(cases(), st.booleans(), st.integers(0, 2))
def test_brier_and_log_loss_equal_scikit_learn(c: Any, weighted: bool, misses: int) -> None:
    p, y, _ = c
    w = np.linspace(0.5, 3.0, p.size) if weighted else None  # non-integer weights
    ev = _ev(p, y, w, misses)
    assert ev.brier_score() == pytest.approx(brier_score_loss(y, p, sample_weight=w), rel=1e-12, abs=1e-15)
    want = log_loss(y, p, sample_weight=w, labels=[False, True])
    assert ev.log_loss() == pytest.approx(want, rel=1e-12, abs=1e-15)


@settings(max_examples=80, deadline=None)
@given(cases(weighted=True), st.booleans())
def test_corp_recalibration_equals_isotonic_regression_and_decomposes_brier(c: Any, weighted: bool) -> None:
    p, y, w = c
    p = np.round(p, 12)  # scikit-learn pools scores closer than 1e-15 (its float resolution); scored_pr does not
    w = w if weighted else None
    ev = _ev(p, y, w, misses=1)
    d = ev.reliability_diagram(n_resamples=0)
    np.testing.assert_array_equal(d.scores, np.unique(p))
    want = IsotonicRegression().fit(p, y.astype(float), sample_weight=w).predict(d.scores)
    np.testing.assert_allclose(d.recalibrated, want, rtol=1e-12, atol=1e-12)
    assert np.all(np.diff(d.recalibrated) >= 0)
    assert d.mcb - d.dsc + d.unc == pytest.approx(ev.brier_score(), abs=1e-12)
    assert d.mcb >= -1e-12 and d.dsc >= -1e-12  # the fit is the best nondecreasing recalibration
    base = np.average(y, weights=w)
    assert d.unc == pytest.approx(base * (1 - base), abs=1e-12)
    assert d.brier == ev.brier_score() and d.lower is None and d.upper is None


# --------------------------------------------------------------- the consistency band


def test_the_band_is_seeded_ordered_and_holds_a_calibrated_models_curve() -> None:
    rng = np.random.default_rng(3)
    p = np.round(rng.random(2000), 2)
    y = rng.random(2000) < p  # calibrated
    ev = _ev(p, y)
    d = ev.reliability_diagram(confidence=0.9, n_resamples=200, seed=5)
    assert d == ev.reliability_diagram(confidence=0.9, n_resamples=200, seed=5)  # same seed, same band
    assert d != ev.reliability_diagram(confidence=0.9, n_resamples=200, seed=6)
    assert d.lower is not None and d.upper is not None
    assert np.all(d.lower <= d.upper) and d.lower.shape == d.scores.shape
    inside = (d.lower <= d.recalibrated + 1e-12) & (d.recalibrated <= d.upper + 1e-12)
    assert inside.mean() > 0.8  # pointwise 90% band: most of a calibrated fit lies in it
    # a miscalibrated model (outcomes from the square of the score) leaves the band
    bad = _ev(p, rng.random(2000) < p**2).reliability_diagram(n_resamples=200, seed=5)
    assert bad.lower is not None and bad.upper is not None
    outside = (bad.recalibrated < bad.lower - 1e-12) | (bad.recalibrated > bad.upper + 1e-12)
    assert outside.mean() > 0.3


def test_weighted_band_draws_each_cases_outcome() -> None:
    rng = np.random.default_rng(4)
    p = np.round(rng.random(300), 1)
    y = rng.random(300) < p
    w = rng.uniform(0.5, 2.0, 300)
    d = _ev(p, y, w).reliability_diagram(n_resamples=50, seed=0)
    assert d.lower is not None and d.upper is not None
    assert np.all((0 <= d.lower) & (d.lower <= d.upper) & (d.upper <= 1))
    assert repr(d).startswith("ReliabilityDiagram(points=11, ")


# --------------------------------------------------------------- statsmodels


def _no_separation(p: np.ndarray, y: np.ndarray, w: np.ndarray | None) -> tuple[np.ndarray, ...]:
    """The cases plus four that overlap the classes, so the logistic fit is finite."""
    extra_p, extra_y = np.array([0.3, 0.3, 0.7, 0.7]), np.array([True, False, True, False])
    w2 = None if w is None else np.r_[w, np.ones(4)]
    return np.r_[p, extra_p], np.r_[y, extra_y], w2


@settings(max_examples=40, deadline=None)
@given(cases(weighted=True), st.booleans())
def test_calibration_slope_intercept_equals_statsmodels(c: Any, weighted: bool) -> None:
    sm = pytest.importorskip("statsmodels.api")
    p, y, w = _no_separation(c[0], c[1], c[2] if weighted else None)
    slope, intercept = _ev(p, y, w, misses=1).calibration_slope_intercept()
    x = sm.add_constant(_logit(p), has_constant="add")
    if w is None:
        params = sm.Logit(y.astype(float), x).fit(disp=0, method="newton", tol=1e-12, maxiter=200).params
    else:
        params = sm.GLM(y.astype(float), x, family=sm.families.Binomial(), freq_weights=w).fit(tol=1e-13).params
    assert slope == pytest.approx(params[1], abs=1e-6) and intercept == pytest.approx(params[0], abs=1e-6)


@pytest.mark.parametrize("weighted", [False, True])
def test_calibration_slope_intercept_of_many_distinct_scores_equals_statsmodels(weighted: bool) -> None:
    """Over 20,000 distinct scores the fit starts from a subset's fit: still statsmodels' maximum (ties and 0, 1 too)."""
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(21)
    n = 60_000
    p = 1.0 / (1.0 + np.exp(-rng.normal(0.0, 2.0, n)))
    p[:200] = np.round(p[:200], 1)  # some ties
    p[200:202] = (0.0, 1.0)
    y = rng.random(n) < 1.0 / (1.0 + np.exp(-(0.3 + 0.7 * _logit(p))))
    w = rng.random(n) + 0.5 if weighted else None
    slope, intercept = _ev(p, y, w).calibration_slope_intercept()
    x = sm.add_constant(_logit(p), has_constant="add")
    if w is None:
        params = sm.Logit(y.astype(float), x).fit(disp=0, method="newton", tol=1e-12, maxiter=200).params
    else:
        params = sm.GLM(y.astype(float), x, family=sm.families.Binomial(), freq_weights=w).fit(tol=1e-13).params
    assert slope == pytest.approx(params[1], abs=1e-6) and intercept == pytest.approx(params[0], abs=1e-6)
    assert abs(slope - 0.7) < 0.1 and abs(intercept - 0.3) < 0.1


def test_calibration_slope_is_nan_where_no_fit_exists() -> None:
    assert all(math.isnan(v) for v in _ev(np.array([0.2, 0.8]), np.array([True, True])).calibration_slope_intercept())
    assert all(math.isnan(v) for v in _ev(np.array([0.5, 0.5]), np.array([True, False])).calibration_slope_intercept())
    separated = _ev(np.array([0.1, 0.2, 0.8, 0.9]), np.array([False, False, True, True]))
    assert all(math.isnan(v) for v in separated.calibration_slope_intercept())
    assert all(math.isnan(v) for v in E().calibration_slope_intercept())


# --------------------------------------------------------------- expected calibration error


@settings(max_examples=80, deadline=None)
@given(cases(weighted=True), st.booleans(), st.integers(1, 12), st.sampled_from(["l1", "l2", "max"]),
       st.sampled_from(["uniform", "quantile"]))  # fmt: skip
def test_ece_equals_a_literal_reference(c: Any, weighted: bool, n_bins: int, norm: str, strategy: str) -> None:
    p, y, w = c
    w = w if weighted else None
    ev = _ev(p, y, w, misses=2)
    edges = None
    if strategy == "quantile":  # the percentiles of the cases repeated by their weights, as scikit-learn asks numpy
        reps = np.ones(p.size, int) if w is None else w.astype(int)
        edges = np.percentile(np.repeat(p, reps), np.linspace(0, 1, n_bins + 1) * 100)
    want = _ece_reference(p, y.astype(float), w, n_bins, norm, edges)
    got = ev.expected_calibration_error(n_bins=n_bins, norm=norm, strategy=strategy)
    assert got == pytest.approx(want, rel=1e-9, abs=1e-12)


def _torch_bins() -> list[int]:
    """The bin counts whose torch.linspace edges are numpy's, bit for bit (their floats may differ in the last ulp)."""
    torch = pytest.importorskip("torch")
    return [n for n in range(1, 21)
            if np.array_equal(torch.linspace(0, 1, n + 1, dtype=torch.float64).numpy(), np.linspace(0, 1, n + 1))]


@settings(max_examples=40, deadline=None)
@given(cases(), st.integers(0, 50), st.sampled_from(["l1", "l2", "max"]))
def test_ece_equals_torchmetrics_where_no_score_is_one(c: Any, which: int, norm: str) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("torchmetrics")
    from torchmetrics.functional.classification import binary_calibration_error

    bins = _torch_bins()
    n_bins = bins[which % len(bins)]
    p, y, _ = c
    keep = p < 1.0
    p, y = p[keep], y[keep]
    if p.size == 0:
        return
    want = float(binary_calibration_error(torch.tensor(p, dtype=torch.float64), torch.tensor(y.astype(np.int64)),
                                          n_bins=n_bins, norm=norm))  # fmt: skip
    got = _ev(p, y).expected_calibration_error(n_bins=n_bins, norm=norm)
    assert got == pytest.approx(want, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
def test_ece_puts_one_in_the_last_bin_where_torchmetrics_gives_it_a_bin_of_its_own(norm: str) -> None:
    p = np.array([0.92, 0.95, 1.0, 1.0, 0.3])
    y = np.array([True, True, False, False, False])
    ev = _ev(p, y)
    got = ev.expected_calibration_error(n_bins=10, norm=norm)
    # scored_pr: 0.92, 0.95 and 1.0 share [0.9, 1.0]; torchmetrics' rule: 1.0 alone
    assert got == pytest.approx(_ece_reference(p, y.astype(float), None, 10, norm), abs=1e-15)
    torchmetrics_rule = _ece_reference(p, y.astype(float), None, 10, norm, one_own_bin=True)
    assert got != pytest.approx(torchmetrics_rule)
    if norm == "l1":  # 0.3's bin, then [0.9, 1]: fraction 0.5, mean score 0.9675; torchmetrics: 0.935 / 1 apart
        assert (got, torchmetrics_rule) == (pytest.approx(0.2 * 0.3 + 0.8 * 0.4675), pytest.approx(0.06 + 0.4 * 0.065 + 0.4))
    try:
        import torch
        from torchmetrics.classification import BinaryCalibrationError
    except ImportError:
        return
    want = float(BinaryCalibrationError(n_bins=10, norm=norm)(torch.tensor(p, dtype=torch.float64),
                                                               torch.tensor(y.astype(np.int64))))  # fmt: skip
    assert want == pytest.approx(torchmetrics_rule, abs=1e-12)  # the difference is that rule, nothing else


# --------------------------------------------------------------- the debiased estimator


def _binned(ev_p: np.ndarray, y: np.ndarray, n_bins: int) -> list[np.ndarray]:
    """The cases as uncertainty-calibration's binned data, on scored_pr's bins ([e_i, e_{i+1}), last closed)."""
    ids = np.clip(np.searchsorted(np.linspace(0, 1, n_bins + 1), ev_p, "right") - 1, 0, n_bins - 1)
    data = np.column_stack((ev_p, y.astype(float)))
    return [data[ids == b] for b in range(n_bins)]


@settings(max_examples=60, deadline=None)
@given(cases(min_size=2), st.integers(1, 6))
def test_debiased_l2_equals_uncertainty_calibrations_estimator(c: Any, n_bins: int) -> None:
    cal = pytest.importorskip("calibration.utils")
    p, y, _ = c
    got = _ev(p, y, misses=1).expected_calibration_error(n_bins=n_bins, norm="l2", debias=True)
    assert got == pytest.approx(cal.unbiased_l2_ce(_binned(p, y, n_bins)), rel=1e-9, abs=1e-12)
    plain = _ev(p, y).expected_calibration_error(n_bins=n_bins, norm="l2")
    assert plain == pytest.approx(cal.plugin_ce(_binned(p, y, n_bins), power=2), rel=1e-9, abs=1e-12)


def test_debiased_l1_is_the_expectation_uncertainty_calibration_draws() -> None:
    cal = pytest.importorskip("calibration.utils")
    rng = np.random.default_rng(0)
    p = rng.random(400)
    y = rng.random(400) < p
    got = _ev(p, y).expected_calibration_error(n_bins=5, norm="l1", debias=True)
    np.random.seed(1)  # the package draws from numpy's global generator
    draws = [cal.normal_debiased_ce(_binned(p, y, 5), power=1, resamples=5000) for _ in range(6)]
    # its Monte Carlo mean of 30,000 resamples, against the exact expectation: within 4 standard errors
    error = float(np.std(draws, ddof=1)) / math.sqrt(len(draws))
    assert abs(got - float(np.mean(draws))) < 4 * max(error, 2e-5)
    assert got < _ev(p, y).expected_calibration_error(n_bins=5, norm="l1")


def test_weighted_debias_uses_the_effective_size() -> None:
    rng = np.random.default_rng(1)
    p = np.round(rng.random(200), 2)
    y = rng.random(200) < p
    for norm in ("l1", "l2"):
        plain = _ev(p, y).expected_calibration_error(n_bins=4, norm=norm, debias=True)
        same = _ev(p, y, np.full(200, 2.5)).expected_calibration_error(n_bins=4, norm=norm, debias=True)
        assert same == pytest.approx(plain, rel=1e-12)  # equal weights: the effective size is the count


def test_debiased_ece_is_closer_to_zero_on_calibrated_data() -> None:
    """A small version of the benchmark's simulation: 200 draws of n = 200 calibrated cases."""
    rng = np.random.default_rng(7)
    plain, debiased, plain_l2, debiased_l2 = [], [], [], []
    for _ in range(200):
        p = rng.random(200)
        y = rng.random(200) < p
        ev = _ev(p, y)
        plain.append(ev.expected_calibration_error(n_bins=15))
        debiased.append(ev.expected_calibration_error(n_bins=15, debias=True))
        plain_l2.append(ev.expected_calibration_error(n_bins=15, norm="l2"))
        debiased_l2.append(ev.expected_calibration_error(n_bins=15, norm="l2", debias=True))
    assert np.mean(plain) > 0.08  # the plug-in estimate's bias at n = 200
    assert abs(np.mean(debiased)) < 0.7 * np.mean(plain)
    assert abs(np.mean(debiased_l2)) < 0.5 * np.mean(plain_l2)


# --------------------------------------------------------------- degenerate input, misses, bad input


def test_empty_is_nan_and_one_class_is_defined() -> None:
    empty = E()
    empty.add_misses(3)
    assert math.isnan(empty.brier_score()) and math.isnan(empty.log_loss())
    assert math.isnan(empty.expected_calibration_error())
    assert [a.size for a in empty.calibration_curve()] == [0, 0]
    d = empty.reliability_diagram()
    assert d.scores.size == 0 and math.isnan(d.mcb) and math.isnan(d.unc)
    one = _ev(np.array([0.2, 0.6, 0.6]), np.array([True, True, True]))
    assert one.brier_score() == pytest.approx((0.64 + 0.16 + 0.16) / 3)
    d = one.reliability_diagram(n_resamples=0)
    assert d.unc == 0.0 and d.dsc == 0.0 and d.mcb == pytest.approx(one.brier_score())
    assert one.expected_calibration_error(n_bins=5) == pytest.approx((0.8 + 2 * 0.4) / 3)


def test_misses_are_left_out() -> None:
    p, y = np.array([0.1, 0.4, 0.4, 0.9]), np.array([False, True, False, True])
    plain, with_misses = _ev(p, y), _ev(p, y, misses=5)
    for name, kwargs in (("brier_score", {}), ("log_loss", {}), ("expected_calibration_error", {"n_bins": 3}),
                         ("calibration_slope_intercept", {}), ("calibration_curve", {})):  # fmt: skip
        np.testing.assert_equal(getattr(with_misses, name)(**kwargs), getattr(plain, name)(**kwargs))
    assert with_misses.reliability_diagram() == plain.reliability_diagram()


@pytest.mark.parametrize("name", ["brier_score", "log_loss", "expected_calibration_error", "calibration_curve",
                                  "reliability_diagram", "calibration_slope_intercept"])  # fmt: skip
def test_logits_are_refused_naming_the_score(name: str) -> None:
    ev = _ev(np.array([0.5, 2.5, -0.25]), np.array([True, False, True]))
    before = ev.to_dict()
    with pytest.raises(ValueError, match=rf"^{name}: every score must be a probability in \[0, 1\]; "
                                         r"got the score -0.25 instead\. .*sigmoid"):  # fmt: skip
        getattr(ev, name)()
    assert ev.to_dict() == before
    high = _ev(np.array([0.5, 1.5]), np.array([True, False]))
    with pytest.raises(ValueError, match="got the score 1.5 instead"):
        getattr(high, name)()


@pytest.mark.parametrize(("call", "match"), [
    (lambda ev: ev.expected_calibration_error(n_bins=0), r"argument 'n_bins' must be an int >= 1; got 0"),
    (lambda ev: ev.expected_calibration_error(norm="l3"), r"argument 'norm' must be one of 'l1', 'l2', 'max'; got 'l3'"),
    (lambda ev: ev.expected_calibration_error(strategy="equal"),
     r"argument 'strategy' must be one of 'uniform', 'quantile'; got 'equal'"),
    (lambda ev: ev.expected_calibration_error(norm="max", debias=True), r"argument 'norm' must be 'l1' or 'l2' when debias"),
    (lambda ev: ev.calibration_curve(n_bins=-1), r"^calibration_curve: argument 'n_bins' must be an int >= 1"),
    (lambda ev: ev.calibration_curve(strategy="q"), r"^calibration_curve: argument 'strategy' must be one of"),
    (lambda ev: ev.reliability_diagram(confidence=1.0), r"argument 'confidence' must be a real number strictly"),
    (lambda ev: ev.reliability_diagram(n_resamples=-1), r"argument 'n_resamples' must be an int >= 0"),
])  # fmt: skip
def test_bad_options_are_refused(call: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        call(_ev(np.array([0.2, 0.8]), np.array([False, True])))


# --------------------------------------------------------------- other kinds


def test_the_window_answers_on_its_window_and_the_synchronized_kind_as_the_exact() -> None:
    rng = np.random.default_rng(2)
    p = np.round(rng.random(300), 2)
    y = rng.random(300) < p
    window, shared = WindowedEvaluation(size=100), SynchronizedEvaluation()
    for i in range(300):
        window.add_case(bool(y[i]), float(p[i]))
    shared.add_cases(y, p)
    last = _ev(p[-100:], y[-100:])
    whole = _ev(p, y)
    for name, kwargs in (("expected_calibration_error", {"n_bins": 10}), ("brier_score", {}), ("log_loss", {}),
                         ("calibration_curve", {"strategy": "quantile"}), ("calibration_slope_intercept", {}),
                         ("reliability_diagram", {"n_resamples": 20})):  # fmt: skip
        np.testing.assert_equal(getattr(window, name)(**kwargs), getattr(last, name)(**kwargs))
        np.testing.assert_equal(getattr(shared, name)(**kwargs), getattr(whole, name)(**kwargs))


def test_the_bounded_kind_refuses_what_its_sums_cannot_give_saying_why() -> None:
    """Binned ECE and Brier are answered from the summary's sums (tests/evaluators/test_bounded_calibration.py); CORP is not."""
    b = BoundedEvaluation()
    b.add_cases([True, False], [0.9, 0.2])
    with pytest.raises(UnsupportedQuery, match=r"^BoundedEvaluation.expected_calibration_error: .*quantiles"):
        b.expected_calibration_error(strategy="quantile")
    with pytest.raises(UnsupportedQuery, match=r"^BoundedEvaluation.reliability_diagram: .*isotonic"):
        b.reliability_diagram()


def test_results_are_cached_and_read_only() -> None:
    ev = _ev(np.array([0.2, 0.4, 0.9]), np.array([False, True, True]))
    curve = ev.calibration_curve()
    assert ev.calibration_curve() is curve and not curve[0].flags.writeable
    d = ev.reliability_diagram()
    assert ev.reliability_diagram() is d and not d.recalibrated.flags.writeable
    assert isinstance(d, ReliabilityDiagram) and type(d).__module__ == "scored_pr"
    ev.add_case(True, 0.1)  # a mutation clears the cache
    assert ev.calibration_curve() is not curve and ev.reliability_diagram().scores.size == 4


def test_debiased_ece_bias_from_100_to_100000_calibrated_cases() -> None:
    """The debiased estimators' bias on calibrated data against the plug-in ECE's (soak tier; the benchmark's table in full)."""
    rng = np.random.default_rng(11)
    for n, draws in ((100, 400), (1000, 200), (10000, 50), (100000, 10)):
        plain, l1, l2 = [], [], []
        for _ in range(draws):
            p = rng.random(n)
            ev = _ev(p, rng.random(n) < p)
            plain.append(ev.expected_calibration_error())
            l1.append(ev.expected_calibration_error(debias=True))
            l2.append(ev.expected_calibration_error(norm="l2", debias=True))
        # the plug-in ECE of a calibrated model shrinks like 1 / sqrt(n) but never reaches 0;
        # both debiased estimates are nearer 0 at every size
        assert np.mean(plain) > 0.5 * math.sqrt(15 / (2 * math.pi * n)), n
        assert abs(np.mean(l1)) < 0.75 * np.mean(plain), n
        assert abs(np.mean(l2)) < 0.6 * np.mean(plain), n


def test_the_functional_forms_equal_the_evaluator() -> None:
    from scored_pr import functional as F

    rng = np.random.default_rng(5)
    p = np.round(rng.random(60), 1)
    y = np.where(rng.random(60) < p, "spam", "ham")
    w = rng.uniform(0.5, 2.0, 60)
    ev = E(pos_label="spam")
    ev.add_cases(y, p, sample_weight=w)
    kw = {"pos_label": "spam", "sample_weight": w}
    np.testing.assert_equal(F.calibration_curve(y, p, n_bins=4, strategy="quantile", **kw),
                            ev.calibration_curve(4, "quantile"))  # fmt: skip
    assert F.expected_calibration_error(y, p, n_bins=7, norm="l2", debias=True, **kw) == \
        ev.expected_calibration_error(7, "l2", "uniform", True)  # fmt: skip
    assert F.brier_score(y, p, **kw) == ev.brier_score() and F.log_loss(y, p, **kw) == ev.log_loss()
    assert F.reliability_diagram(y, p, n_resamples=10, **kw) == ev.reliability_diagram(n_resamples=10)
    assert F.calibration_slope_intercept(y, p, **kw) == ev.calibration_slope_intercept()
    with pytest.raises(ValueError, match=r"^brier_score: every score must be a probability in \[0, 1\]; got the score 3.0"):
        F.brier_score([1, 0], [3.0, 0.5])


def test_plot_reliability_draws_the_diagram_and_the_bins() -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from scored_pr.plot import plot_reliability

    rng = np.random.default_rng(8)
    p = np.round(rng.random(200), 2)
    ev = _ev(p, rng.random(200) < p)
    ax = plot_reliability(ev, Figure().subplots(), n_bins=5, n_resamples=30)
    d = ev.reliability_diagram(n_resamples=30)
    lines = {line.get_label(): line for line in ax.get_lines()}
    np.testing.assert_array_equal(lines["CORP (isotonic)"].get_xdata(), d.scores)
    np.testing.assert_array_equal(lines["CORP (isotonic)"].get_ydata(), d.recalibrated)
    prob_true, prob_pred = ev.calibration_curve(n_bins=5)
    np.testing.assert_array_equal(lines["5 bins (95% Clopper-Pearson)"].get_xdata(), prob_pred)
    np.testing.assert_array_equal(lines["5 bins (95% Clopper-Pearson)"].get_ydata(), prob_true)
    assert f"MCB {d.mcb:.4f}" in ax.get_legend().get_title().get_text()
    logits = _ev(np.array([0.5, 2.0]), np.array([True, False]))
    with pytest.raises(ValueError, match="got the score 2.0"):
        plot_reliability(logits, Figure().subplots())
    bounded = BoundedEvaluation()
    bounded.add_cases([True], [0.5])
    with pytest.raises(UnsupportedQuery, match="reliability_diagram"):
        plot_reliability(bounded, Figure().subplots())


# --------------------------------------------------------------- multi-class and multi-label rows


def _rows(n: int, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    raw = rng.dirichlet(np.ones(k), size=n)
    y = np.array([rng.choice(k, p=row) for row in raw])
    return np.round(raw, 3), y


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("seed", range(3))
def test_top_label_ece_equals_torchmetrics_multiclass(norm: str, seed: int) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("torchmetrics")
    from torchmetrics.functional.classification import multiclass_calibration_error

    from scored_pr import MultiLabelEvaluation

    probs, y = _rows(300, 4, seed)
    probs = probs[probs.max(axis=1) < 1.0]  # torchmetrics bins a top score of 1.0 alone
    y = y[: probs.shape[0]]
    assert all(len(set(r)) == 4 or r.max() > sorted(r)[-2] for r in probs)  # no tie at the top
    # torchmetrics' multi-class path computes in float32: scores it holds exactly, and 7 bins, whose
    # edges k / 7 lie far from every 3-decimal score, so float32 and float64 bin alike
    probs = probs.astype(np.float32).astype(np.float64)
    ev = MultiLabelEvaluation(list(range(4)))
    ev.add_cases(y, probs)
    want = float(multiclass_calibration_error(torch.tensor(probs, dtype=torch.float32), torch.tensor(y), 4,
                                              n_bins=7, norm=norm))  # fmt: skip
    assert ev.expected_calibration_error(n_bins=7, norm=norm) == pytest.approx(want, rel=1e-5, abs=1e-7)


def test_top_label_and_classwise_ece_equal_binary_evaluators_of_the_rows() -> None:
    from scored_pr import MultiLabelEvaluation

    probs, y = _rows(200, 3, 9)
    w = np.linspace(0.5, 2.0, 200)
    ev = MultiLabelEvaluation(["a", "b", "c"])
    ev.add_cases(np.array(["a", "b", "c"])[y], probs, sample_weight=w)
    pred = probs.argmax(axis=1)
    top = _ev(probs.max(axis=1), pred == y, w)
    assert ev.expected_calibration_error(n_bins=8, norm="l2") == pytest.approx(
        top.expected_calibration_error(n_bins=8, norm="l2"), rel=1e-12)
    per_label = [_ev(probs[:, j], y == j, w).expected_calibration_error(n_bins=8) for j in range(3)]
    assert ev.expected_calibration_error(n_bins=8, average="classwise") == pytest.approx(np.mean(per_label), rel=1e-12)
    with pytest.raises(ValueError, match=r"argument 'average' must be one of 'top_label', 'classwise'; got 'macro'"):
        ev.expected_calibration_error(average="macro")
    logits = MultiLabelEvaluation(["a", "b"])
    logits.add_cases(["a", "b"], [[2.0, -1.0], [0.1, 0.3]])
    with pytest.raises(ValueError, match="got the score -1.0 instead"):
        logits.expected_calibration_error()
    assert math.isnan(MultiLabelEvaluation(["a", "b"]).expected_calibration_error())
    window = MultiLabelEvaluation(["a", "b", "c"], window=50)
    window.add_cases(np.array(["a", "b", "c"])[y], probs)
    last = MultiLabelEvaluation(["a", "b", "c"])
    last.add_cases(np.array(["a", "b", "c"])[y[-50:]], probs[-50:])
    assert window.expected_calibration_error() == last.expected_calibration_error()


def test_reliability_display_holds_the_diagram_the_bins_with_clopper_pearson_and_the_histogram() -> None:
    """The display's data against the queries, scipy's Beta quantiles and numpy's histogram; weighted too."""
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure
    from scipy.stats import beta

    from scored_pr import ReliabilityDisplay

    rng = np.random.default_rng(11)
    p = np.round(rng.random(300), 2)
    p[:2] = (0.0, 1.0)
    y = rng.random(300) < p
    ev = _ev(p, y)
    d = ReliabilityDisplay.from_evaluation(ev, n_bins=8, n_resamples=20, level=0.9)
    assert d.diagram == ev.reliability_diagram(n_resamples=20)
    prob_true, prob_pred = ev.calibration_curve(n_bins=8)
    np.testing.assert_allclose(d.bin_fraction, prob_true, rtol=0, atol=1e-15)
    np.testing.assert_allclose(d.bin_score, prob_pred, rtol=0, atol=1e-15)
    ids = np.searchsorted(np.linspace(0, 1, 9)[1:-1], p, side="left")  # scikit-learn's bins (closed right)
    counts = np.bincount(ids, minlength=8).astype(float)
    np.testing.assert_array_equal(d.histogram, counts)
    np.testing.assert_array_equal(d.bin_weight, counts[counts > 0])
    hits = np.bincount(ids, weights=y.astype(float), minlength=8)[counts > 0]
    n = counts[counts > 0]
    lower = np.where(hits > 0, beta.ppf(0.05, np.maximum(hits, 1e-300), n - hits + 1), 0.0)
    upper = np.where(hits < n, beta.ppf(0.95, hits + 1, np.maximum(n - hits, 1e-300)), 1.0)
    np.testing.assert_allclose(d.bin_lower, lower, atol=1e-9)
    np.testing.assert_allclose(d.bin_upper, upper, atol=1e-9)
    assert np.all(d.bin_lower <= d.bin_fraction) and np.all(d.bin_fraction <= d.bin_upper)
    ax = d.plot(Figure().subplots(), name="m").ax_
    assert "m (CORP)" in [line.get_label() for line in ax.get_lines()]
    # weighted: the histogram holds the weights, the intervals use the effective size
    w = rng.random(300) + 0.5
    wev = _ev(p, y, w)
    wd = ReliabilityDisplay.from_evaluation(wev, n_bins=8, n_resamples=0)
    np.testing.assert_allclose(wd.histogram, np.bincount(ids, weights=w, minlength=8), rtol=1e-12)
    assert wd.diagram.lower is None
    with pytest.raises(ValueError, match="argument 'level' must be a real number strictly between 0 and 1"):
        ReliabilityDisplay.from_evaluation(ev, level=1.0)
    with pytest.raises(ValueError, match="got the score 2.0"):
        ReliabilityDisplay.from_evaluation(_ev(np.array([0.5, 2.0]), np.array([True, False])))
