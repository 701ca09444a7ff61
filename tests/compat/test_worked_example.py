"""Every number of the worked example in the LingPipe 3.9.2 class documentation."""

from __future__ import annotations

import io

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation

# Rank, score, correct: the table of LingPipe 3.9.2's class documentation of ScoredPrecisionRecallEvaluation, ranks 0-9.
TABLE = [
    (-1.21, False), (-1.27, True), (-1.39, False), (-1.47, True), (-1.60, True),
    (-1.65, False), (-1.79, False), (-1.80, False), (-2.01, True), (-3.70, False),
]  # fmt: skip


@pytest.fixture(params=["in rank order", "shuffled", "batch"])
def ev(request: pytest.FixtureRequest) -> ScoredPrecisionRecallEvaluation:
    e = ScoredPrecisionRecallEvaluation(ties="stable")
    rows = list(TABLE)
    if request.param == "shuffled":
        rows = [rows[i] for i in (7, 2, 9, 0, 4, 1, 8, 3, 6, 5)]
    if request.param == "batch":
        e.add_cases([c for _, c in rows], [s for s, _ in rows])
    else:
        for score, correct in rows:
            e.add_case(correct, score)
    return e


def r2(curve: np.ndarray) -> list:
    return np.round(curve, 2).tolist()


def test_counts(ev: ScoredPrecisionRecallEvaluation) -> None:
    assert (ev.num_cases, ev.num_positive_ref, ev.num_negative_ref, ev.num_misses) == (10, 4, 6, 0)


def test_curves(ev: ScoredPrecisionRecallEvaluation) -> None:
    assert r2(ev.pr_curve(False)) == [[0.25, 0.50], [0.50, 0.50], [0.75, 0.60], [1.00, 0.44]]
    assert r2(ev.roc_curve(False)) == [[0.25, 0.83], [0.50, 0.67], [0.75, 0.67], [1.00, 0.17]]
    assert r2(ev.pr_curve(True)) == [[0.75, 0.60], [1.00, 0.44]]
    assert r2(ev.roc_curve(True)) == [[0.25, 0.83], [0.75, 0.67], [1.00, 0.17]]
    assert ev.pr_score_curve(False)[:, 2].tolist() == [-1.27, -1.47, -1.60, -2.01]
    assert ev.pr_score_curve(True)[:, 2].tolist() == [-1.60, -2.01]


def test_areas_and_statistics(ev: ScoredPrecisionRecallEvaluation) -> None:
    # (0.25)(0.50) + (0.25)(0.50) + (0.25)(0.60) + (0.25)(4/9)
    assert ev.area_under_pr_curve(False) == pytest.approx(0.25 * (0.5 + 0.5 + 0.6 + 4 / 9), rel=1e-15)
    assert round(ev.area_under_pr_curve(False), 2) == 0.51
    assert ev.area_under_pr_curve(True) == pytest.approx(0.75 * 0.6 + 0.25 * 4 / 9, rel=1e-15)
    assert round(ev.area_under_pr_curve(True), 2) == 0.56
    assert round(ev.area_under_roc_curve(False), 2) == 0.58
    assert round(ev.area_under_roc_curve(True), 2) == 0.58
    assert ev.average_precision() == pytest.approx((0.5 + 0.5 + 0.6 + 4 / 9) / 4, rel=1e-15)
    assert round(ev.average_precision(), 2) == 0.51
    assert round(ev.maximum_f_measure(), 2) == 0.67
    assert ev.maximum_f_measure() == pytest.approx(2 * 0.75 * 0.6 / 1.35, rel=1e-15)
    # Where precision equals recall: rank R = 4, both 2/4. (LingPipe 3.9.2 reports 0.6, the
    # precision of the first interpolated point with recall > precision; scored_pr.lingpipe does.)
    assert ev.pr_breakeven_point() == ev.r_precision() == 0.5
    assert ev.precision_at(5) == pytest.approx(0.6, rel=1e-15)
    assert ev.precision_at(10) == pytest.approx(0.4, rel=1e-15)
    assert ev.precision_at(11) != ev.precision_at(11)  # NaN: not enough cases
    assert ev.reciprocal_rank() == 0.5
    assert ev.r_precision() == 0.5  # 2 correct among the top 4


def test_print_precision_recall_curve(ev: ScoredPrecisionRecallEvaluation) -> None:
    out = io.StringIO()
    ScoredPrecisionRecallEvaluation.print_precision_recall_curve(ev.pr_curve(False), out)
    assert out.getvalue().splitlines() == [
        "  PRECI.   RECALL        F",
        "0.500000 0.250000 0.333333",
        "0.500000 0.500000 0.500000",
        "0.600000 0.750000 0.666667",
        "0.444444 1.000000 0.615385",
    ]


def test_report(ev: ScoredPrecisionRecallEvaluation) -> None:
    text = str(ev)
    assert "  Area Under PR Curve (interpolated)=0.5611111111111111" in text.splitlines()
    assert "  BEP (Precision-Recall break even point; always equals R-Precision)=0.5" in text.splitlines()
    assert "  Precision at 5=0.6" in text.splitlines()
    assert "Precision at 25" not in text  # only 10 cases
    assert repr(ev).startswith("ScoredPrecisionRecallEvaluation(ties='stable', num_cases=10,")


@pytest.mark.parametrize("ties", ["stable", "grouped"])
@pytest.mark.parametrize("seed", range(4))
def test_reports_give_the_break_even_point_once_as_r_precision(ties: str, seed: int) -> None:
    from scored_pr._cli import output as _cli
    from scored_pr.lingpipe import ScoredPrecisionRecallEvaluation as LingPipe

    rng = np.random.default_rng(seed)
    y = rng.random(40) < 0.4
    s = rng.integers(0, 6, 40).astype(float)  # ties cut by rank R
    e = ScoredPrecisionRecallEvaluation(ties=ties)
    e.add_cases(y, s)
    e.add_misses(seed)
    assert e.pr_breakeven_point() == e.r_precision()  # what lets the report print it once
    lines = str(e).splitlines()
    bep = [line for line in lines if "break even" in line or "R-Precision" in line]
    assert bep == [f"  BEP (Precision-Recall break even point; always equals R-Precision)={e.r_precision()!r}"]
    table = _cli._metrics_table(e).splitlines()
    rows = [row for row in table if "breakeven" in row or "r_precision" in row]
    assert len(rows) == 1 and "pr_breakeven_point (= r_precision)" in rows[0] and repr(e.r_precision()) in rows[0]
    assert {"pr_breakeven_point", "r_precision"} <= set(e.summary())  # the dict keeps both keys for programs
    # LingPipe's own toString() text is unchanged: its BEP line, no R-Precision line
    old = LingPipe()
    for correct, score in zip(y.tolist(), s.tolist()):
        old.addCase(correct, score)
    text = old.toString().splitlines()
    assert sum(line.startswith("  BEP (Precision-Recall break even point)=") for line in text) == 1
    assert not any("R-Precision" in line for line in text)
