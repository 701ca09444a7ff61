"""assert_metrics(..., confidence=) and assert_not_worse: the bound compared is the interval's end."""

from __future__ import annotations

import numpy as np
import pytest

import scored_pr
from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr.testing import assert_metrics, assert_not_worse


def _ev(n: int = 300, shift: float = 1.2, seed: int = 0) -> ScoredPrecisionRecallEvaluation:
    rng = np.random.default_rng(seed)
    c = rng.random(n) < 0.4
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(c, rng.normal(size=n) + shift * c)
    return ev


def test_lower_bound_is_the_low_end_of_the_two_sided_interval() -> None:
    ev = _ev()
    for name, measure, args in [("area_under_roc_curve", "area_under_roc_curve", {}),
                                ("average_precision", "average_precision", {}),
                                ("precision_at_50", "precision_at", {"k": 50}),
                                ("area_under_pr_curve_interpolated", "area_under_pr_curve", {"interpolate": True})]:
        iv = ev.confidence_interval(measure, 0.9, None, 200, 0, **args)
        assert iv.low < iv.estimate
        assert_metrics(ev, confidence=0.95, n_resamples=200, **{name: iv.low})
        with pytest.raises(AssertionError, match=rf"{name}  >= .*FAILED"):
            assert_metrics(ev, confidence=0.95, n_resamples=200, **{name: iv.low + 1e-9})
        # the point value alone passes a bound the confidence bound does not
        assert_metrics(ev, **{name: (iv.low + iv.estimate) / 2})


def test_upper_bounds_use_the_high_end_and_equality_bounds_the_value() -> None:
    ev = _ev()
    iv = ev.confidence_interval("average_precision", 0.98, n_resamples=300, seed=4)
    assert_metrics(ev, confidence=0.99, n_resamples=300, seed=4, average_precision=("<=", iv.high))
    with pytest.raises(AssertionError, match=r"\(upper\)  FAILED"):
        assert_metrics(ev, confidence=0.99, n_resamples=300, seed=4, average_precision=("<", iv.high))
    ap = ev.average_precision()
    assert_metrics(ev, confidence=0.99, average_precision=pytest.approx(ap), num_cases=("==", 300))


def test_failure_table_shows_estimate_interval_and_bound() -> None:
    ev = _ev(60, shift=0.8)
    iv = ev.confidence_interval(level=0.9)
    with pytest.raises(AssertionError) as exc:
        assert_metrics(ev, confidence=0.95, area_under_roc_curve=0.7, num_cases=60)
    text = str(exc.value)
    assert text.startswith("1 of 2 metric bounds not met at 95% confidence (60 cases,")
    assert "90% interval" in text and f"[{iv.low:.4g}, {iv.high:.4g}]" in text
    assert f"{iv.low:.4g} (lower)  FAILED" in text and repr(iv.estimate) in text
    assert "num_cases             >= 60   60" in text


def test_confidence_argument_errors() -> None:
    ev = _ev(40)
    for bad in (1.0, 0.3, True, "0.95"):
        with pytest.raises(ValueError, match="argument 'confidence'"):
            assert_metrics(ev, confidence=bad, average_precision=0.5)
    with pytest.raises(ValueError, match="needs a ScoredPrecisionRecallEvaluation"):
        assert_metrics(ev.summary(), confidence=0.95, average_precision=0.5)
    w = ScoredPrecisionRecallEvaluation()
    w.add_cases([True, False], [0.6, 0.4], sample_weight=[2.0, 1.0])
    with pytest.raises(ValueError, match="sample weights"):
        assert_metrics(w, confidence=0.95, average_precision=0.5)
    with pytest.raises(ValueError, match="unknown metric"):
        assert_metrics(ev, confidence=0.95, no_such=0.5)


def test_confidence_assertion_rarely_passes_when_the_bound_is_the_truth() -> None:
    """At true AUC = bound a bare threshold passes about half the time; the 95% lower bound ~5%."""
    from statistics import NormalDist

    mu = 1.0
    true_auc = NormalDist().cdf(mu / 2**0.5)
    rng = np.random.default_rng(21)
    bare = conf = 0
    draws = 200
    for _ in range(draws):
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(np.r_[np.ones(100, bool), np.zeros(100, bool)], np.r_[rng.normal(mu, 1, 100), rng.normal(0, 1, 100)])
        bare += ev.area_under_roc_curve() >= true_auc
        try:
            assert_metrics(ev, confidence=0.95, area_under_roc_curve=true_auc)
            conf += 1
        except AssertionError:
            pass
    assert 0.38 < bare / draws < 0.62
    assert conf / draws < 0.11  # nominal 0.05; 200 draws


def _pair(n: int = 400, seed: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    c = rng.random(n) < 0.5
    base = rng.normal(size=n) + 1.5 * c
    return c, base, base + rng.normal(scale=1.0, size=n)  # a noisier candidate: worse


@pytest.mark.parametrize("measure", ["area_under_roc_curve", "average_precision"])
def test_not_worse_fails_on_a_regression_and_margin_is_the_upper_bound(measure: str) -> None:
    c, base, worse = _pair()
    r = scored_pr.compare(c, worse, base, measure=measure, level=0.9, seed=0)
    assert r.interval.high < 0
    with pytest.raises(AssertionError, match=f"worse than the baseline on {measure} at 95% confidence"):
        assert_not_worse(c, worse, base, measure=measure)
    # margin exactly at the bound: passes; a hair less: fails
    assert_not_worse(c, worse, base, measure=measure, margin=-r.interval.high)
    with pytest.raises(AssertionError, match="upper bound"):
        assert_not_worse(c, worse, base, measure=measure, margin=-r.interval.high - 1e-9)
    # the same model, or a better one, passes
    assert_not_worse(c, base + 0.5, base, measure=measure)
    assert_not_worse(c, base, worse, measure=measure)


def test_not_worse_passes_within_noise_and_takes_labels() -> None:
    rng = np.random.default_rng(8)
    c = rng.random(150) < 0.4
    a = rng.normal(size=150) + c
    b = a + rng.normal(scale=0.05, size=150)  # the same model up to noise
    assert_not_worse(c, b, a)
    assert_not_worse(np.where(c, "spam", "ham"), b, a, pos_label="spam")
    # no variance but a real difference (perfect vs inverted) still fails
    y = [True, False] * 5
    good = [1.0, 0.0] * 5
    with pytest.raises(AssertionError):
        assert_not_worse(y, [-v for v in good], good)


def test_not_worse_argument_errors() -> None:
    c, base, worse = _pair(50)
    with pytest.raises(ValueError, match="argument 'margin'"):
        assert_not_worse(c, worse, base, margin=-0.1)
    with pytest.raises(ValueError, match="argument 'confidence'"):
        assert_not_worse(c, worse, base, confidence=95)
    with pytest.raises(ValueError, match="argument 'measure'"):
        assert_not_worse(c, worse, base, measure="r_precision")
    with pytest.raises(ValueError, match="same length"):
        assert_not_worse(c, worse[:-1], base)
