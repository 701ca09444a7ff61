"""Decisions computed in the cluster (Spark, Dask, Ray) against the exact evaluator fed the same rows.

Each bucket chooses its least-cost and best operating-point candidates while it is ranked, the
driver reduces the choices with the evaluator's tie rules; the counts at cut-offs are summed per
partition; the cost curve comes from the ROC hull's vertices. Unweighted, every Decision must be
the evaluator's field for field; weighted, within 1e-12 relative (cumulative weights added in
another order). Rows hold ties of both classes, weights of 0 and misses.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation, UnsupportedQuery

pd = pytest.importorskip("pandas")

from test_engines import engine, engine_frame  # noqa: E402,F401 - the engine fixture (spark, dask, ray)

POINTS = [("recall", {"precision": 0.8}), ("f1", {}), ("precision", {"recall": 0.5, "fpr": 0.3}), ("youden", {}),
          ("recall", {"precision": 1.0, "fpr": 0.0}), ("accuracy", {"precision": 0.999}),
          ("net_benefit", {"accepted_fraction": 0.4})]  # the last two infeasible or at a single point
COSTS = [(1.0, 5.0, 0.0, 0.0), (2.0, 1.0, 0.5, 0.1), (-1.0, 2.0, 0.0, 0.0), (1.0, -3.0, 0.0, 0.0)]
THRESHOLDS = (0.0, 0.1, 0.25, 0.5, 0.73, 0.995)


def rows(seed: int, n: int, weights: bool) -> tuple[Any, np.ndarray, np.ndarray, Any]:
    """Probabilities rounded to 0.01 (ties holding both classes), outcomes drawn from them; weights 0 to 2."""
    rng = np.random.default_rng(seed)
    s = np.round(rng.random(n), 2)
    y = rng.random(n) < s
    w = rng.choice([0.0, 0.5, 1.0, 2.0], size=n) if weights else None
    data = {"label": y, "score": s}
    if weights:
        data["w"] = w
    return pd.DataFrame(data), y, s, w


def assert_same_decision(got: Any, want: Any, exact: bool) -> None:
    a, b = dataclasses.asdict(got), dataclasses.asdict(want)
    assert a.keys() == b.keys()
    for key, v in b.items():
        h = a[key]
        if isinstance(v, float) and not exact:
            assert (math.isnan(h) and math.isnan(v)) or h == v or abs(h - v) <= 1e-12 * abs(v), (key, h, v)
        else:
            assert h == v or (isinstance(v, float) and math.isnan(h) and math.isnan(v)), (key, h, v)
            assert type(h) is type(v), (key, h, v)  # ints stay ints (unweighted counts)


@pytest.mark.parametrize("weights,misses", [(False, 3), (True, 0)])
def test_decisions_in_the_cluster_equal_the_evaluator(engine: Any, weights: bool, misses: int) -> None:
    name, evaluate, spark = engine
    pdf, y, s, w = rows(41, 1200, weights)
    got = evaluate(engine_frame(name, pdf, spark, 3), "label", "score", weight_col="w" if weights else None,
                   misses=misses, partitions=3, costs=COSTS, operating_points=POINTS, thresholds=THRESHOLDS)
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s, w)
    ev.add_misses(misses)
    exact = not weights
    assert_same_decision(got.operating_point(), ev.operating_point(), exact)
    for maximize, subject_to in POINTS:
        assert_same_decision(got.operating_point(maximize, subject_to), ev.operating_point(maximize, subject_to), exact)
    assert_same_decision(got.operating_point("f1", None, 0.9), ev.operating_point("f1", None, 0.9), exact)
    assert_same_decision(got.min_cost_threshold(), ev.min_cost_threshold(), exact)
    for costs in COSTS:
        assert_same_decision(got.min_cost_threshold(*costs), ev.min_cost_threshold(*costs), exact)
    for t in THRESHOLDS:
        have, want = got.expected_cost(t, 2.0, 3.0, 0.5), ev.expected_cost(t, 2.0, 3.0, 0.5)
        assert have == want if exact else abs(have - want) <= 1e-12 * abs(want), (t, have, want)
    grid = [0.5, 0.1, 0.0, 0.73]  # any order, as the evaluator takes them
    for a, b in zip(got.net_benefit(grid), ev.net_benefit(grid)):
        np.testing.assert_allclose(a, b, rtol=0 if exact else 1e-12, atol=0 if exact else 1e-15)
    (x, c), (x_want, c_want) = got.cost_curve(), ev.cost_curve()
    # the same envelope: each curve's vertices lie on the other (a vertex listed twice within rounding may be one)
    np.testing.assert_allclose(np.interp(x_want, x, c), c_want, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.interp(x, x_want, c_want), c, rtol=0, atol=1e-12)


def test_requests_not_made_at_evaluate_are_refused_saying_which_argument(engine: Any) -> None:
    name, evaluate, spark = engine
    pdf, _, _, _ = rows(42, 300, False)
    got = evaluate(engine_frame(name, pdf, spark, 2), "label", "score", thresholds=(0.5,))
    with pytest.raises(UnsupportedQuery, match=r"pass operating_points=\(\('f1', \{\}\),\) \(or thresholds='all'\) to evaluate"):
        got.operating_point("f1")
    with pytest.raises(UnsupportedQuery, match=r"pass costs=\(\(1.0, 5.0, 0.0, 0.0\),\) \(or thresholds='all'\) to evaluate"):
        got.min_cost_threshold(1, 5)
    with pytest.raises(UnsupportedQuery, match=r"threshold 0.25 were not summed.*thresholds=\(0.25,\)"):
        got.expected_cost(0.25)
    with pytest.raises(UnsupportedQuery, match="the default thresholds are every distinct score"):
        got.net_benefit()
    with pytest.raises(UnsupportedQuery, match="fixed sequence"):
        got.operating_point("recall", {"precision": 0.5}, confidence=0.9)
    with pytest.raises(ValueError, match="'maximize'"):  # the evaluator's checks first
        got.operating_point("speed")
    for kwargs, error, match in (({"costs": ((1, 2),)}, ValueError, "'costs'"), ({"costs": "x"}, TypeError, "'costs'"),
                                 ({"costs": ((1, 2, 3, "4"),)}, TypeError, r"'costs\[gain_tn\]'"),
                                 ({"operating_points": (("f1", {"speed": 0.5}),)}, ValueError, "the key 'speed'"),
                                 ({"thresholds": (float("nan"),)}, ValueError, "'thresholds'"),
                                 ({"thresholds": "every"}, TypeError, "'thresholds'.*or \"all\"")):
        with pytest.raises(error, match=match):  # before any job
            evaluate(engine_frame(name, pdf, spark, 2), "label", "score", **kwargs)


def test_scores_outside_the_unit_interval_are_refused_for_net_benefit(engine: Any) -> None:
    name, evaluate, spark = engine
    pdf, y, s, _ = rows(43, 200, False)
    pdf["score"] = pdf["score"] * 3.0 - 1.0
    got = evaluate(engine_frame(name, pdf, spark, 2), "label", "score", thresholds=(0.5,),
                   operating_points=(("net_benefit", {}),))
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, pdf["score"].to_numpy())
    with pytest.raises(ValueError) as want:
        ev.net_benefit([0.5])
    with pytest.raises(ValueError) as have:
        got.net_benefit([0.5])
    assert str(have.value) == str(want.value)  # the top score, rank 1, named
    with pytest.raises(ValueError, match="must be probabilities"):
        got.operating_point("net_benefit")


@pytest.mark.parametrize("by", [None, "region"])
def test_every_candidate_answers_every_decision_query_as_the_evaluator(engine: Any, by: str | None) -> None:
    """thresholds="all": each bucket's candidates reach the driver; no request made at evaluate, every answer the evaluator's."""
    name, evaluate, spark = engine
    pdf, y, s, _ = rows(44, 1500, False)
    pdf["region"] = np.where(np.arange(len(pdf)) % 3 == 0, "eu", "us")
    got = evaluate(engine_frame(name, pdf, spark, 3), "label", "score", partitions=3, thresholds="all",
                   **({"misses": 2} if by is None else {"by": [by]}))
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    if by is None:
        ev.add_misses(2)
    else:  # one slice: the evaluator of its rows
        got = got.slice(region="eu")
        keep = pdf["region"].to_numpy() == "eu"
        ev = ScoredPrecisionRecallEvaluation()
        ev.add_cases(y[keep], s[keep])
    for maximize, subject_to in POINTS:
        assert_same_decision(got.operating_point(maximize, subject_to), ev.operating_point(maximize, subject_to), True)
    for maximize, subject_to in (("precision", {"recall": 0.6}), ("recall", {"fpr": 0.2}),
                                 ("f1", {"tnr": 0.5, "accepted_fraction": 0.6})):
        want = ev.operating_point(maximize, subject_to, 0.9)
        have = got.operating_point(maximize, subject_to, 0.9)
        np.testing.assert_equal(dataclasses.asdict(have), dataclasses.asdict(want))  # the bounds' NaN too
        assert (type(have.tp), type(have.fp)) == (type(want.tp), type(want.fp))
    for costs in COSTS:
        assert_same_decision(got.min_cost_threshold(*costs), ev.min_cost_threshold(*costs), True)
    for t in (0.0, 0.25, 0.333, 0.5, 0.99, 1.5):
        assert got.expected_cost(t, 2.0, 3.0, 0.5) == ev.expected_cost(t, 2.0, 3.0, 0.5)
    for a, b in zip(got.net_benefit(), ev.net_benefit()):  # every distinct score
        np.testing.assert_array_equal(a, b)
    for a, b in zip(got.cost_curve(), ev.cost_curve()):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(UnsupportedQuery, match="a fair coin per row drawn in rank order"):
        got.operating_point("recall", {"precision": 0.8}, 0.9)
