"""Calibration computed in the cluster (Spark, Dask, Ray) against the exact evaluator fed the same rows.

Each partition sums its rows per uniform calibration bin, and the Brier and log-loss terms; the
driver adds them. Every answer must equal ``ScoredPrecisionRecallEvaluation``'s within 1e-12
relative (the bins' counts and fractions of unweighted rows bit for bit), refuse scores outside
[0, 1] with the evaluator's message, and refuse quantile bins and bin counts never summed.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation, UnsupportedQuery

pd = pytest.importorskip("pandas")

from test_engines import engine, engine_frame  # noqa: E402,F401 - the engine fixture (spark, dask, ray)

#: (n_bins, norm, debias) asked of both: the defaults, another count summed on request, every norm.
ECE_CALLS = [(15, "l1", False), (5, "l2", False), (10, "max", False), (7, "l1", False), (15, "l1", True),
             (7, "l2", True)]


def probability_rows(seed: int, n: int, weights: bool) -> tuple[Any, np.ndarray, np.ndarray, Any]:
    """Probabilities rounded to 0.05 (ties holding both classes, scores on the bins' edges), 0.0 and 1.0 included."""
    rng = np.random.default_rng(seed)
    s = np.round(rng.random(n) * 20) / 20
    s[:7], s[7:12] = 1.0, 0.0
    s[12:20] = np.linspace(0.0, 1.0, 16)[3]  # exactly an edge of the 15 bins
    y = rng.random(n) < s
    w = rng.choice([0.0, 0.5, 1.0, 3.0], size=n) if weights else None
    data = {"id": np.arange(n), "label": y, "score": s}
    if weights:
        data["w"] = w
    return pd.DataFrame(data), y, s, w


@pytest.mark.parametrize("weights,misses", [(False, 0), (True, 4)])
def test_calibration_in_the_cluster_equals_the_evaluator(engine: Any, weights: bool, misses: int) -> None:
    name, evaluate, spark = engine
    pdf, y, s, w = probability_rows(31, 1500, weights)
    got = evaluate(engine_frame(name, pdf, spark, 3), "label", "score", weight_col="w" if weights else None,
                   misses=misses, calibration_bins=(7,))
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s, w)
    ev.add_misses(misses)
    assert got.scores_are_probabilities() and ev.scores_are_probabilities()
    for n_bins, norm, debias in ECE_CALLS:
        want = ev.expected_calibration_error(n_bins, norm, debias=debias)
        have = got.expected_calibration_error(n_bins, norm, debias=debias)
        assert abs(have - want) <= 1e-12 * abs(want), (n_bins, norm, debias, have, want)
    for query in ("brier_score", "log_loss"):
        want, have = getattr(ev, query)(), getattr(got, query)()
        assert abs(have - want) <= 1e-12 * abs(want), (query, have, want)
    for n_bins in (5, 7, 15):
        (true, pred), (true_want, pred_want) = got.calibration_curve(n_bins), ev.calibration_curve(n_bins)
        if not weights:  # counts over counts: the same float division
            np.testing.assert_array_equal(true, true_want)
        np.testing.assert_allclose(true, true_want, rtol=1e-12)
        np.testing.assert_allclose(pred, pred_want, rtol=1e-12)
    have_summary, want_summary = got.summary(), ev.summary()
    assert list(have_summary) == list(want_summary)  # the calibration entries are there, in the table's order
    for key in ("expected_calibration_error", "brier_score"):
        assert abs(have_summary[key] - want_summary[key]) <= 1e-12 * want_summary[key], key


def test_scores_outside_the_unit_interval_are_refused_as_the_evaluator_refuses_them(engine: Any) -> None:
    name, evaluate, spark = engine
    pdf, y, s, _ = probability_rows(32, 300, False)
    pdf["score"] = np.where(pdf["id"] == 17, 1.25, pdf["score"])
    s = pdf["score"].to_numpy()
    got = evaluate(engine_frame(name, pdf, spark, 2), "label", "score")
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    assert not got.scores_are_probabilities()
    for query in ("expected_calibration_error", "brier_score", "log_loss", "calibration_curve"):
        with pytest.raises(ValueError) as want:
            getattr(ev, query)()
        with pytest.raises(ValueError, match="the score 1.25") as have:
            getattr(got, query)()
        assert str(have.value) == str(want.value)
    summary = got.summary()
    assert "brier_score" not in summary and "expected_calibration_error" not in summary
    assert list(summary) == list(ev.summary())


def test_quantile_bins_and_counts_never_summed_are_refused_saying_why(engine: Any) -> None:
    name, evaluate, spark = engine
    pdf, _, _, _ = probability_rows(33, 200, False)
    got = evaluate(engine_frame(name, pdf, spark, 2), "label", "score")
    with pytest.raises(UnsupportedQuery, match="quantile bins' edges are the scores' weighted percentiles"):
        got.expected_calibration_error(strategy="quantile")
    with pytest.raises(UnsupportedQuery, match="quantile"):
        got.calibration_curve(strategy="quantile")
    with pytest.raises(UnsupportedQuery, match=r"12 bins were not summed.*\(bin counts: 5, 10, 15\).*"
                                               r"calibration_bins=\(12,\)"):
        got.expected_calibration_error(n_bins=12)
    with pytest.raises(ValueError, match="'norm'"):  # the evaluator's argument checks come first
        got.expected_calibration_error(n_bins=12, norm="l3")
    for bad, error in (("5", TypeError), ((0,), ValueError), ((2.5,), TypeError)):
        with pytest.raises(error, match="calibration_bins"):
            evaluate(engine_frame(name, pdf, spark, 2), "label", "score", calibration_bins=bad)


def test_an_empty_frame_has_no_calibration_entries_and_nan_measures(engine: Any) -> None:
    name, evaluate, spark = engine
    pdf, _, _, _ = probability_rows(34, 40, False)
    empty = engine_frame(name, pdf, spark, 1).where("false") if name == "spark" else engine_frame(name, pdf.iloc[:0])
    got = evaluate(empty, "label", "score", misses=2)
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_misses(2)
    assert not got.scores_are_probabilities()
    assert math.isnan(got.brier_score()) and math.isnan(got.log_loss()) and math.isnan(got.expected_calibration_error())
    assert [a.size for a in got.calibration_curve()] == [0, 0]
    assert list(got.summary()) == list(ev.summary())
