"""The HTML report's decision data, without a browser: the constrained point, the cost candidates, net benefit.

The page's script picks the minimum-cost threshold among the embedded candidates (the ROC hull's
vertices) by the rule restated literally in :func:`page_min_cost`; held against
``min_cost_threshold`` on data with ties, weights and misses, for many cost pairs (exact ties of
cost included). The browser test (``test_html_browser.py``) types costs into the page.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import scored_pr
from scored_pr._html import render


def page_data(document: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="scored-pr-data">(.*?)</script>', document, re.S)
    assert m is not None
    return json.loads(m.group(1))


def page_min_cost(cand: dict[str, list[Any]], cfp: float, cfn: float) -> int:
    """decisions.js's minCost: the first least cost_fp FP - cost_fn TP, candidates in descending threshold order."""
    best, best_v = -1, np.inf
    for i in range(len(cand["threshold"])):
        v = cfp * cand["fp"][i] - cfn * cand["tp"][i]
        if v < best_v:
            best, best_v = i, v
    return best


COSTS = [(1.0, 1.0), (1.0, 20.0), (20.0, 1.0), (0.0, 1.0), (1.0, 0.0), (2.0, 3.0), (3.0, 2.0), (1.0, 2.0), (5.0, 1.0)]


@settings(max_examples=60, deadline=None)
@given(
    labels=st.lists(st.booleans(), min_size=0, max_size=40),
    levels=st.integers(1, 6),
    weighted=st.booleans(),
    misses=st.integers(0, 3),
    seed=st.integers(0, 2**16),
)
def test_page_min_cost_is_min_cost_threshold(labels: list[bool], levels: int, weighted: bool, misses: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    y = np.asarray(labels, dtype=bool)
    s = rng.integers(0, levels, y.size) / levels  # ties, probabilities
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    if weighted:
        ev.add_cases(y, s, sample_weight=rng.integers(1, 4, y.size).astype(float))
    else:
        ev.add_cases(y, s)
    ev.add_misses(misses)
    dec = page_data(render(ev))["rankings"][0]["decisions"]
    cand = dec["cost"]["candidates"]
    for cfp, cfn in COSTS:
        want = ev.min_cost_threshold(cfp, cfn)
        i = page_min_cost(cand, cfp, cfn)
        got = cand["threshold"][i]
        assert (None if got is None else got) == (None if np.isinf(want.threshold) else want.threshold), (cfp, cfn)
        assert (cand["tp"][i], cand["fp"][i], cand["tn"][i], cand["fn"][i]) == (want.tp, want.fp, want.tn, want.fn)
    chosen = ev.min_cost_threshold(*dec["cost"]["default"])
    assert dec["cost"]["chosen"]["tp"] == chosen.tp and dec["cost"]["chosen"]["fp"] == chosen.fp


def test_constraint_point_and_net_benefit_are_the_evaluators() -> None:
    rng = np.random.default_rng(3)
    y = rng.random(500) < 0.3
    p = 1.0 / (1.0 + np.exp(-rng.normal(2.0 * y)))
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, np.round(p, 2))
    dec = page_data(render(ev))["rankings"][0]["decisions"]
    want = ev.operating_point("recall", {"precision": dec["min_precision"]})
    assert dec["min_precision"] == 0.9
    assert (dec["constraint"]["threshold"], dec["constraint"]["recall"], dec["constraint"]["precision"]) == (
        want.threshold, want.recall, want.precision)
    nb = dec["net_benefit"]
    assert nb["threshold"] == sorted(nb["threshold"]) and len(nb["threshold"]) > 10
    ref = ev.net_benefit(nb["threshold"])
    np.testing.assert_array_equal(nb["model"], ref.model)
    np.testing.assert_array_equal(nb["treat_all"], ref.treat_all)
    assert nb["treat_none"] == [0.0] * len(nb["threshold"])
    # literal net benefit at one threshold: TP/n - FP/n * t/(1-t), accepting scores >= t
    t = nb["threshold"][len(nb["threshold"]) // 2]
    acc = np.round(p, 2) >= t
    lit = np.sum(acc & y) / y.size - np.sum(acc & ~y) / y.size * t / (1 - t)
    assert nb["model"][len(nb["threshold"]) // 2] == pytest.approx(lit, abs=1e-12)


def test_no_net_benefit_for_scores_that_are_not_probabilities() -> None:
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False, True, False], [2.5, -1.0, 0.3, 0.1])
    dec = page_data(render(ev))["rankings"][0]["decisions"]
    assert dec["net_benefit"] is None
    assert dec["cost"]["chosen"]["threshold"] == ev.min_cost_threshold().threshold


def test_page_carries_the_decisions_script_and_stays_self_contained() -> None:
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases([True, False], [0.8, 0.2])
    doc = render(ev)
    assert "cost-panel" in doc and "Net benefit (decision curve)" in doc
    from scored_pr._html.page import asset

    script = asset("decisions.js")
    assert script in doc and not re.search(r"https?:|fetch\(|XMLHttpRequest|import\(", script)
    empty = page_data(render(scored_pr.ScoredPrecisionRecallEvaluation()))["rankings"][0]["decisions"]
    assert empty["cost"]["candidates"]["threshold"] == [None] and empty["net_benefit"] is None
