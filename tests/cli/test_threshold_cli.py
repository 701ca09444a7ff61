"""``scored-pr threshold``: the operating point and the least-cost threshold of a file, in every input format."""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from cli_env import CMD, clean_env
from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr._cli.main import main


def _cases() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    y = rng.random(400) < 0.3
    return y, np.round(rng.normal(size=400) + 2.5 * y, 2)


def _write(path: Path, fmt: str, y: np.ndarray, s: np.ndarray) -> Path:
    if fmt == "parquet":
        pd = pytest.importorskip("pandas")
        pytest.importorskip("pyarrow")
        pd.DataFrame({"correct": y.astype(int), "score": s}).to_parquet(path)
        return path
    if fmt == "jsonl":
        text = "".join(json.dumps({"correct": int(c), "score": float(v)}) + "\n" for c, v in zip(y, s))
    else:
        sep = "\t" if fmt == "tsv" else ","
        text = f"correct{sep}score\n" + "".join(f"{int(c)}{sep}{float(v)!r}\n" for c, v in zip(y, s))
    if fmt == "csv.gz":
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return path


@pytest.mark.parametrize("fmt", ["csv", "tsv", "jsonl", "parquet", "csv.gz"])
def test_every_input_format_gives_the_evaluators_choice(fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    y, s = _cases()
    path = _write(tmp_path / f"preds.{fmt}", fmt, y, s)
    ev = ScoredPrecisionRecallEvaluation()
    ev.add_cases(y, s)
    want = ev.operating_point("recall", {"precision": 0.9}, 0.95)
    assert main(["threshold", str(path), "--maximize", "recall", "--min-precision", "0.9", "--confidence", "0.95",
                 "--format", "json"]) == (0 if want.feasible else 3)  # fmt: skip
    got = json.loads(capsys.readouterr().out)
    assert got["threshold"] == want.threshold and got["recall"] == want.recall and got["tp"] == want.tp
    assert got["bounds"] == dict(want.bounds or {}) and got["confidence"] == 0.95
    assert main(["threshold", str(path), "--cost-fp", "1", "--cost-fn", "20", "--format", "json"]) == 0
    cost = json.loads(capsys.readouterr().out)
    best = ev.min_cost_threshold(cost_fp=1, cost_fn=20)
    assert cost["threshold"] == best.threshold and cost["expected_cost"] == best.expected_cost


def test_text_output_and_the_exit_status_of_an_infeasible_constraint(tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_text("correct,score\n1,0.9\n1,0.8\n0,0.7\n1,0.6\n0,0.5\n")
    run = subprocess.run([*CMD, "threshold", str(path), "--min-precision", "0.7"], capture_output=True, text=True,
                         env=clean_env(), timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[1] == "maximize recall subject to precision >= 0.7"
    assert "  threshold          0.6" in lines and "  precision          0.75" in lines
    run = subprocess.run([*CMD, "threshold", str(path), "--min-precision", "0.9", "--confidence", "0.95"],
                         capture_output=True, text=True, env=clean_env(), timeout=120)  # fmt: skip
    assert run.returncode == 3 and "no threshold meets the constraints; the nearest point:" in run.stdout
    assert "precision lower bound at 0.95: 0.05" in run.stdout


def test_usage_errors_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.csv"
    path.write_text("correct,score\n1,0.9\n0,0.7\n")
    assert main(["threshold", str(path), "--min-precision", "0.9", "--cost-fn", "5"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["threshold", str(path), "--min-precision", "1.5"]) == 2
    assert "argument 'subject_to['precision']' must be a real number in [0, 1]" in capsys.readouterr().err
    bad = tmp_path / "logits.csv"
    bad.write_text("correct,score\n1,3.5\n0,-1\n")
    assert main(["threshold", str(bad), "--maximize", "net_benefit"]) == 2
    assert "the score 3.5 (rank 1) is not" in capsys.readouterr().err
