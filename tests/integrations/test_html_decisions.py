"""The HTML report's decision data, without a browser: the constrained point, the cost candidates, net benefit.

The page's script picks the minimum-cost threshold among the embedded candidates (the ROC hull's
vertices) by the rule restated literally in :func:`page_min_cost`; held against
``min_cost_threshold`` on data with ties, weights and misses, for many costs and gains (exact ties
of cost included). Its precision-target input picks the operating point among the embedded
frontier by the rule restated in :func:`page_constrained`, held against ``operating_point`` at
targets that are candidates' own precisions (the boundary cases). The browser test
(``test_html_browser.py``) types costs, gains and targets into the page.
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


def page_min_cost(cand: dict[str, list[Any]], cfp: float, cfn: float, gtp: float = 0.0, gtn: float = 0.0) -> int:
    """decisions.js's minCost: the first least (cfp + gtn) FP - (cfn + gtp) TP, candidates in descending threshold order."""
    best, best_v = -1, np.inf
    a, b = cfp + gtn, cfn + gtp
    for i in range(len(cand["threshold"])):
        v = a * cand["fp"][i] - b * cand["tp"][i]
        if v < best_v:
            best, best_v = i, v
    return best


def page_cost(cand: dict[str, list[Any]], i: int, counts: dict[str, Any], costs: tuple[float, ...]) -> float:
    """decisions.js's expected cost of candidate i: (cfp FP + cfn FN - gtp TP - gtn TN) / n, n the reference weight."""
    cfp, cfn, gtp, gtn = costs
    n = counts["positive_weight"] + counts["negative_weight"]
    tp, fp, tn, fn = (cand[k][i] for k in ("tp", "fp", "tn", "fn"))
    return (cfp * fp + cfn * fn - gtp * tp - gtn * tn) / n if n else float("nan")


def page_constrained(front: dict[str, list[Any]], pos: float, target: float) -> int:
    """decisions.js's constrained: the first of greatest recall among the frontier's rows of precision >= target (-1: none)."""
    best, best_r = -1, float("nan")
    for i in range(len(front["threshold"])):
        tp, fp = front["tp"][i], front["fp"][i]
        prec = tp / (tp + fp) if tp + fp else float("nan")
        if not prec >= target:
            continue
        rec = tp / pos if pos else float("nan")
        if best < 0 or (not np.isnan(rec) and (np.isnan(best_r) or rec > best_r)):
            best, best_r = i, rec
    return best


COSTS = [(1.0, 1.0), (1.0, 20.0), (20.0, 1.0), (0.0, 1.0), (1.0, 0.0), (2.0, 3.0), (3.0, 2.0), (1.0, 2.0), (5.0, 1.0)]


def rankings(most: int, levels: int) -> dict[str, Any]:
    """Strategies of a ranking with ties: up to ``most`` labels, scores on up to ``levels`` levels, weights, misses."""
    return {"labels": st.lists(st.booleans(), min_size=0, max_size=most), "levels": st.integers(1, levels),
            "weighted": st.booleans(), "misses": st.integers(0, 3), "seed": st.integers(0, 2**16)}  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(**rankings(40, 6))
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
    counts = page_data(render(ev))["rankings"][0]["counts"]
    for costs in ((1.0, 1.0, 0.5, 0.0), (1.0, 2.0, 0.0, 3.0), (2.0, 0.0, 1.0, 1.0), (0.0, 0.0, 0.0, 2.0)):
        want = ev.min_cost_threshold(*costs)
        i = page_min_cost(cand, *costs)
        assert (cand["tp"][i], cand["fp"][i], cand["tn"][i], cand["fn"][i]) == (want.tp, want.fp, want.tn, want.fn), costs
        got_cost = page_cost(cand, i, counts, costs)
        assert got_cost == want.expected_cost or (np.isnan(got_cost) and np.isnan(want.expected_cost)), costs
    chosen = ev.min_cost_threshold(*dec["cost"]["default"], *dec["cost"]["default_gains"])
    assert dec["cost"]["chosen"]["tp"] == chosen.tp and dec["cost"]["chosen"]["fp"] == chosen.fp


@settings(max_examples=60, deadline=None)
@given(**rankings(60, 12))
def test_page_target_point_is_operating_point(labels: list[bool], levels: int, weighted: bool, misses: int,
                                              seed: int) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    y = np.asarray(labels, dtype=bool)
    s = rng.integers(0, levels, y.size) / levels
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s, sample_weight=rng.integers(1, 4, y.size).astype(float) if weighted else None)
    ev.add_misses(misses)
    ranking = page_data(render(ev))["rankings"][0]
    front, pos = ranking["decisions"]["frontier"], ranking["counts"]["positive_weight"]
    # every candidate's own precision (the boundary of each answer), and values between them
    fp_all = [ev.confusion_at_threshold(t) for t in np.unique(s)]
    targets = {c.tp / (c.tp + c.fp) for c in fp_all if c.tp + c.fp} | {0.0, 0.25, 0.5, 0.9, 1.0}
    for target in sorted(targets):
        want = ev.operating_point("recall", {"precision": target})
        i = page_constrained(front, pos, target)
        assert (i >= 0) == want.feasible, target
        if want.feasible:
            assert (front["threshold"][i], front["tp"][i], front["fp"][i]) == (want.threshold, want.tp, want.fp), target


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


def test_past_half_the_budget_the_page_carries_the_answers_at_a_grid_of_targets() -> None:
    from scored_pr._html import decisions as html_decisions

    rng = np.random.default_rng(5)
    y = rng.random(400) < 0.4
    ev = scored_pr.ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, rng.normal(size=400) + y)
    thresholds = np.unique(ev.ranked_cases()[0])[::-1]
    full = html_decisions.decisions(ev, thresholds)["frontier"]
    assert full is not None and 1 < len(full["threshold"]) <= 400
    dec = html_decisions.decisions(ev, thresholds, budget=2 * (len(full["threshold"]) - 1))
    assert dec["frontier"] is None and dec["targets"] is not None
    grid = dec["targets"]["target"]
    assert grid == [round(0.05 * i, 10) for i in range(21)]
    for t, point in zip(grid, dec["targets"]["point"]):
        want = ev.operating_point("recall", {"precision": t})
        assert (point["feasible"], point["threshold"], point["recall"], point["tp"]) == (
            want.feasible, want.threshold if want.feasible else None, want.recall, want.tp), t
