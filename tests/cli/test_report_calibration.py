"""``scored-pr report --calibration``: the measures and the bins table, in text, table and JSON; refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from scored_pr import BoundedEvaluation, ScoredPrecisionRecallEvaluation
from scored_pr._cli.main import main

ROWS = [(1, 0.9), (0, 0.8), (1, 0.8), (0, 0.3), (1, 0.6), (0, 0.1), (1, 1.0), (0, 0.0), (1, 0.35), (0, 0.35)]


def _file(tmp_path: Path, rows: list[tuple[int, float]] = ROWS) -> str:
    path = tmp_path / "cases.csv"
    path.write_text("label,score\n" + "".join(f"{c},{s!r}\n" for c, s in rows))
    return str(path)


def _ev(rows: list[tuple[int, float]] = ROWS) -> ScoredPrecisionRecallEvaluation:
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases([bool(c) for c, _ in rows], [s for _, s in rows])
    return ev


def test_json_holds_the_evaluators_measures_and_the_bins(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", _file(tmp_path), "--calibration", "--format", "json", "--no-progress"]) == 0
    obj = json.loads(capsys.readouterr().out)
    ev = _ev()
    m = obj["calibration"]["measures"]
    d = ev.reliability_diagram(n_resamples=0)
    assert m["expected_calibration_error"] == ev.expected_calibration_error(n_bins=15)
    assert m["expected_calibration_error_debiased"] == ev.expected_calibration_error(n_bins=15, debias=True)
    assert m["maximum_calibration_error"] == ev.expected_calibration_error(n_bins=15, norm="max")
    assert (m["brier_score"], m["log_loss"]) == (ev.brier_score(), ev.log_loss())
    assert (m["miscalibration"], m["discrimination"], m["uncertainty"]) == (d.mcb, d.dsc, d.unc)
    assert (m["calibration_slope"], m["calibration_intercept"]) == ev.calibration_slope_intercept()
    bins = obj["calibration"]["bins"]
    assert len(bins) == 10 and sum(b["cases"] for b in bins) == len(ROWS)
    full = [b for b in bins if b["cases"]]
    prob_true, prob_pred = ev.calibration_curve(n_bins=10)  # the same bins, (e_i, e_{i+1}]
    np.testing.assert_allclose([b["fraction_correct"] for b in full], prob_true, rtol=1e-12)
    np.testing.assert_allclose([b["mean_score"] for b in full], prob_pred, rtol=1e-12)
    assert obj["num_cases"] == len(ROWS)  # the report's own keys are all there


def test_text_prints_the_report_unchanged_then_the_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(tmp_path)
    for fmt in ("text", "table"):
        assert main(["report", path, "--format", fmt, "--no-progress"]) == 0
        plain = capsys.readouterr().out
        assert main(["report", path, "--calibration", "--format", fmt, "--no-progress"]) == 0
        out = capsys.readouterr().out
        assert out.startswith(plain)  # the report itself does not change
        rest = out[len(plain):]
        assert re.search(rf"\| brier_score +\| +{re.escape(repr(_ev().brier_score()))} \|", rest)
        assert "| [0.0, 0.1] |     2 |   0.050000 |         0.000000 |" in rest
        assert "| (0.3, 0.4] |     2 |   0.350000 |         0.500000 |" in rest
        assert "| (0.1, 0.2] |     0 |            |                  |" in rest


def test_logits_stop_with_the_score_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(tmp_path, [(1, 2.5), (0, -1.0)])
    assert main(["report", path, "--calibration", "--no-progress"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "--calibration: " in captured.err and "got the score -1.0 instead" in captured.err and "sigmoid" in captured.err


def test_no_case_gives_null_measures_in_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", _file(tmp_path, []), "--calibration", "--format", "json", "--no-progress"]) == 0
    m = json.loads(capsys.readouterr().out)["calibration"]["measures"]
    assert m["brier_score"] is None and m["expected_calibration_error"] is None


def test_a_bounded_state_file_refuses_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    b = BoundedEvaluation()
    b.add_cases([True, False], [0.9, 0.2])
    b.save(tmp_path / "b.npz")
    assert main(["report", str(tmp_path / "b.npz"), "--calibration"]) == 2
    assert "--calibration: not available for a bounded state file" in capsys.readouterr().err


def test_an_exact_state_file_takes_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ev = _ev()
    ev.save(tmp_path / "e.npz")
    assert main(["report", str(tmp_path / "e.npz"), "--calibration", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["calibration"]["measures"]["log_loss"] == ev.log_loss()
