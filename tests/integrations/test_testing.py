"""scored_pr.testing (assert_metrics, assert_curve_close) and the pytest plugin's fixture."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr.testing import assert_curve_close, assert_metrics, metric_value

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ev() -> ScoredPrecisionRecallEvaluation:
    e = ScoredPrecisionRecallEvaluation()
    e.add_cases([True, False, True, True, False], [0.95, 0.90, 0.72, 0.40, 0.33])
    return e


# --------------------------------------------------------------------------- assert_metrics


def test_every_summary_key_is_a_metric(ev: ScoredPrecisionRecallEvaluation) -> None:
    summary = ev.summary()
    for key, value in summary.items():
        got = metric_value(ev, key)
        assert got == value or (math.isnan(got) and math.isnan(value))
    assert metric_value(ev, "precision_at_3") == ev.precision_at(3)
    assert metric_value(ev, "num_negative_misses") == 0


@pytest.mark.parametrize(
    "bounds",
    [
        {"average_precision": 0.8},  # a number: at least
        {"average_precision": (">", 0.8), "precision_at_1": ("==", 1.0)},
        {"num_cases": ("==", 5), "num_misses": ("<=", 0), "reciprocal_rank": ("!=", 0.5)},
        {"area_under_roc_curve": (">=", 2 / 3), "precision_at_5": ("<", 0.7)},
        {"average_precision": pytest.approx(0.8056, abs=1e-4)},
        {"precision_at_100": ("!=", 0.5)},  # NaN != anything
    ],
)
def test_bounds_that_hold(ev: ScoredPrecisionRecallEvaluation, bounds: dict) -> None:
    assert_metrics(ev, **bounds)
    assert_metrics(ev.summary(), **{k: v for k, v in bounds.items() if k in ev.summary()})


@pytest.mark.parametrize(
    "bounds, failing",
    [
        ({"average_precision": 0.9}, ["average_precision"]),
        ({"average_precision": (">", 0.81)}, ["average_precision"]),
        ({"num_cases": ("==", 6), "average_precision": 0.5}, ["num_cases"]),
        ({"average_precision": pytest.approx(0.9, abs=1e-3)}, ["average_precision"]),
        ({"precision_at_100": 0.0}, ["precision_at_100"]),  # NaN meets no bound
        ({"precision_at_100": ("==", float("nan"))}, ["precision_at_100"]),
        ({"maximum_f_measure": ("<", 0.5), "r_precision": 0.9}, ["maximum_f_measure", "r_precision"]),
    ],
)
def test_failures_show_a_table_of_every_metric(ev, bounds: dict, failing: list[str]) -> None:
    with pytest.raises(AssertionError) as exc:
        assert_metrics(ev, **bounds)
    lines = str(exc.value).splitlines()
    assert lines[0] == f"{len(failing)} of {len(bounds)} metric bounds not met (5 cases, 3 positive):"
    assert lines[1].split() == ["metric", "bound", "value"]
    rows = {line.split()[0]: line for line in lines[2:]}
    assert set(rows) == set(bounds)
    for name in bounds:
        value = metric_value(ev, name)
        assert (repr(float(value)) if not isinstance(value, int) else str(value)) in rows[name]
        assert rows[name].endswith("FAILED" if name in failing else "ok")


def test_a_bound_equal_to_the_value_holds(ev: ScoredPrecisionRecallEvaluation) -> None:
    ap = ev.average_precision()
    assert_metrics(ev, average_precision=ap, r_precision=("<=", ev.r_precision()))
    with pytest.raises(AssertionError):
        assert_metrics(ev, average_precision=(">", ap))


def test_failure_message_shows_the_bound(ev: ScoredPrecisionRecallEvaluation) -> None:
    with pytest.raises(AssertionError) as exc:
        assert_metrics(ev, average_precision=0.9, precision_at_5=("<", 0.5), r_precision=pytest.approx(1.0, abs=0.01))
    text = str(exc.value)
    assert ">= 0.9" in text and "< 0.5" in text and "== 1.0 ± " in text


def test_a_mapping_without_counts(ev: ScoredPrecisionRecallEvaluation) -> None:
    with pytest.raises(AssertionError) as exc:
        assert_metrics({"ap": 0.5}, ap=0.9)
    assert str(exc.value).splitlines()[0] == "1 of 1 metric bounds not met:"


@pytest.mark.parametrize(
    "bounds, match",
    [
        ({}, "at least one"),
        ({"avg_precision": 0.5}, "unknown metric 'avg_precision'"),
        ({"precision_at_0": 0.5}, "unknown metric 'precision_at_0'"),
        ({"average_precision": "0.9"}, "the bound of 'average_precision'"),
        ({"average_precision": ("=>", 0.9)}, "operator one of >=, >, <=, <, ==, !="),
        ({"average_precision": (">=", "0.9")}, "must be a number"),
        ({"average_precision": (0.8, 0.9)}, "must be a number"),
        ({"average_precision": True}, "must be a number"),
        ({"average_precision": None}, "must be a number"),
    ],
)
def test_usage_errors_are_not_assertion_errors(ev, bounds: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        assert_metrics(ev, **bounds)


def test_evaluation_type_is_checked() -> None:
    with pytest.raises(TypeError, match="ScoredPrecisionRecallEvaluation or a mapping"):
        assert_metrics([0.5], average_precision=0.1)
    with pytest.raises(ValueError, match="the mapping has a"):
        assert_metrics({"a": 1}, average_precision=0.1)


def test_numpy_bounds_and_values(ev: ScoredPrecisionRecallEvaluation) -> None:
    assert_metrics(ev, average_precision=np.float64(0.8), num_cases=("==", np.int64(5)))
    assert_metrics({"average_precision": np.float32(0.9)}, average_precision=0.85)


# --------------------------------------------------------------------------- assert_curve_close


def test_curves_close(ev: ScoredPrecisionRecallEvaluation) -> None:
    curve = ev.pr_curve()
    assert_curve_close(curve, curve.copy())
    assert_curve_close(curve, curve.tolist())
    assert_curve_close(curve, curve + 1e-10)  # default atol 1e-9
    assert_curve_close(curve, curve * (1 + 1e-6), atol=0.0, rtol=1e-5)
    assert_curve_close([], np.zeros((0, 2)))
    nan_roc = [[0.5, float("nan")], [1.0, float("nan")]]
    assert_curve_close(nan_roc, nan_roc)  # NaN equals NaN


def test_curves_differ_lists_the_points(ev: ScoredPrecisionRecallEvaluation) -> None:
    curve = ev.pr_curve()
    other = curve.copy()
    other[1, 1] += 0.01
    with pytest.raises(AssertionError) as exc:
        assert_curve_close(curve, other, atol=1e-3)
    lines = str(exc.value).splitlines()
    assert lines[0] == "curves differ at 1 of 3 points (atol=0.001, rtol=0.0):"
    assert lines[1].split() == ["index", "actual", "expected", "max", "|diff|"]
    assert lines[2].split()[0] == "1"
    assert f"({float(curve[1, 0])!r}, {float(curve[1, 1])!r})" in lines[2]
    assert f"{float(other[1, 1])!r})" in lines[2]
    assert lines[2].split()[-1] == "0.01"


def test_curves_of_different_lengths(ev: ScoredPrecisionRecallEvaluation) -> None:
    curve = ev.pr_curve()
    with pytest.raises(AssertionError) as exc:
        assert_curve_close(curve, curve[:2])
    text = str(exc.value)
    assert "actual has 3 points, expected 2" in text
    assert text.splitlines()[-1].split()[0] == "2" and text.splitlines()[-1].split()[-1] == "-"
    with pytest.raises(AssertionError, match="different columns"):
        assert_curve_close(ev.pr_score_curve(), curve)


def test_many_differences_are_truncated() -> None:
    a = np.column_stack((np.linspace(0.01, 1, 100), np.full(100, 0.5)))
    b = a.copy()
    b[:, 1] = 0.6
    with pytest.raises(AssertionError) as exc:
        assert_curve_close(a, b, max_rows=4)
    lines = str(exc.value).splitlines()
    assert lines[0].startswith("curves differ at 100 of 100 points")
    assert len(lines) == 2 + 4 + 1 and lines[-1] == "  ... and 96 more"


@pytest.mark.parametrize("bad", ["abc", [1.0, 2.0], [[[1.0]]], [["a", "b"]]])
def test_curve_arguments_are_checked(bad) -> None:
    with pytest.raises(ValueError, match="assert_curve_close: argument 'actual'"):
        assert_curve_close(bad, [[0.5, 0.5]])


# --------------------------------------------------------------------------- the pytest plugin


def test_fixture_is_a_fresh_grouped_evaluator(scored_pr_evaluation: ScoredPrecisionRecallEvaluation) -> None:
    assert isinstance(scored_pr_evaluation, ScoredPrecisionRecallEvaluation)
    assert scored_pr_evaluation.num_cases == 0 and scored_pr_evaluation.ties == "grouped"
    scored_pr_evaluation.add_case(True, 1.0)  # the next test must not see this case


def test_fixture_is_fresh_again(scored_pr_evaluation: ScoredPrecisionRecallEvaluation) -> None:
    assert scored_pr_evaluation.num_cases == 0


@pytest.mark.parametrize("scored_pr_evaluation", ["grouped", "stable"], indirect=True)
def test_fixture_tie_policy_by_indirect_parametrization(scored_pr_evaluation, request) -> None:
    assert scored_pr_evaluation.ties == request.node.callspec.params["scored_pr_evaluation"]


def run_pytest(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        capture_output=True, text=True, timeout=300, cwd=cwd,
    )  # fmt: skip


def test_the_example_test_suite_passes() -> None:
    result = run_pytest("-q", "examples/pytest_assertions")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 passed" in result.stdout


def test_a_failing_model_test_shows_the_table_in_pytest(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_weak_model.py").write_text(
        textwrap.dedent(
            """
            from scored_pr.testing import assert_metrics

            def test_weak_model(scored_pr_evaluation):
                scored_pr_evaluation.add_cases([True, False, False, True], [0.9, 0.8, 0.7, 0.1])
                assert_metrics(scored_pr_evaluation, average_precision=0.9, area_under_roc_curve=0.4)
            """
        )
    )
    result = run_pytest("-q", "test_weak_model.py", cwd=tmp_path)
    assert result.returncode == 1
    out = result.stdout
    assert "AssertionError: 1 of 2 metric bounds not met (4 cases, 2 positive):" in out
    assert "average_precision     >= 0.9  0.75   FAILED" in out
    assert "area_under_roc_curve  >= 0.4  0.5    ok" in out
    assert "raise AssertionError" not in out  # __tracebackhide__: the frame inside scored_pr is hidden
