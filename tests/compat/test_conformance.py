"""The stable evaluator against the 300 LingPipe 3.9.2 conformance vectors.

Every value must match within 1e-12 (relative), except average precision,
which scored_pr defines as the standard IR measure (divided by
num_positive_ref): it must equal LingPipe's uninterpolated PR area instead.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from scored_pr._core import scalars as M
from scored_pr import ScoredPrecisionRecallEvaluation
from lingpipe_vectors import load_vectors, same_float

VECTORS = load_vectors()
IDS = [f"v{i:03d}-n{v['expected']['numCases']}" for i, v in enumerate(VECTORS)]


def replay(ops: list, ev: ScoredPrecisionRecallEvaluation) -> ScoredPrecisionRecallEvaluation:
    for op in ops:
        if op[0] == "case":
            ev.add_case(op[1], float(op[2]))
        else:
            ev.add_misses(op[1])
    return ev


def assert_curve(actual: np.ndarray, expected: list, label: str) -> None:
    assert actual.shape == (len(expected), actual.shape[1] if len(expected) == 0 else len(expected[0])), label
    for i, (row_a, row_e) in enumerate(zip(actual.tolist(), expected)):
        for a, e in zip(row_a, row_e):
            assert same_float(a, e), f"{label} row {i}: {row_a} != {row_e}"


def test_vectors_cover_the_documented_range() -> None:
    assert len(VECTORS) == 300
    sizes = {v["expected"]["numCases"] for v in VECTORS}
    assert min(sizes) == 0 and max(sizes) == 300


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_stable_evaluator_matches_lingpipe(vector: dict) -> None:
    ev = replay(vector["ops"], ScoredPrecisionRecallEvaluation(ties="stable"))
    exp = vector["expected"]
    assert ev.num_cases == exp["numCases"]
    for interp in (False, True):
        key = "true" if interp else "false"
        assert_curve(ev.pr_curve(interp), exp[f"prCurve_{key}"], f"pr_curve({interp})")
        assert_curve(ev.pr_score_curve(interp), exp[f"prScoreCurve_{key}"], f"pr_score_curve({interp})")
        assert_curve(ev.roc_curve(interp), exp[f"rocCurve_{key}"], f"roc_curve({interp})")
        assert same_float(ev.area_under_pr_curve(interp), exp[f"areaUnderPrCurve_{key}"])
        if ev.num_positive_ref and ev.num_negative_ref:
            assert same_float(ev.area_under_roc_curve(interp), exp[f"areaUnderRocCurve_{key}"])
        else:  # deliberate difference: one-class ROC AUC is NaN in the main API
            assert math.isnan(ev.area_under_roc_curve(interp))
    assert same_float(ev.maximum_f_measure(), exp["maximumFMeasure"])
    assert same_float(ev.maximum_f_measure(0.5), exp["maximumFMeasure_0.5"])
    assert same_float(ev.maximum_f_measure(2.0), exp["maximumFMeasure_2"])
    # LingPipe 3.9.2's break-even point, from the kernel; the main API's is R-precision (4.1's).
    assert same_float(M.breakeven_point(ev.pr_curve(True)), exp["prBreakevenPoint"])
    assert same_float(ev.pr_breakeven_point(), ev.r_precision())
    assert same_float(ev.reciprocal_rank(), exp["reciprocalRank"])
    for rank, value in exp["precisionAt"].items():
        if int(rank) >= 1:
            assert same_float(ev.precision_at(int(rank)), value), f"precision_at({rank})"
    # Deliberate difference: standard AP = uninterpolated PR area (misses count).
    assert same_float(ev.average_precision(), exp["areaUnderPrCurve_false"]) or (
        math.isnan(ev.average_precision()) and ev.num_positive_ref == 0
    )
    if ev.num_misses == 0:
        assert same_float(ev.average_precision(), exp["averagePrecision"])


@pytest.mark.parametrize("vector", VECTORS[::10], ids=IDS[::10])
def test_batched_and_merged_inputs_give_the_same_values(vector: dict) -> None:
    """add_cases in chunks, with queries in between, equals the add_case replay."""
    single = replay(vector["ops"], ScoredPrecisionRecallEvaluation(ties="stable"))
    batched = ScoredPrecisionRecallEvaluation(ties="stable")
    cases = [op for op in vector["ops"] if op[0] == "case"]
    for start in range(0, len(cases), 7):
        chunk = cases[start : start + 7]
        batched.add_cases([c[1] for c in chunk], [float(c[2]) for c in chunk])
        batched.average_precision()  # force a merge between chunks
    batched.add_misses(single.num_misses)
    assert batched.summary() == pytest.approx(single.summary(), nan_ok=True, rel=0, abs=0)
    np.testing.assert_array_equal(batched.pr_score_curve(), single.pr_score_curve())
    np.testing.assert_array_equal(batched.roc_curve(True), single.roc_curve(True))
