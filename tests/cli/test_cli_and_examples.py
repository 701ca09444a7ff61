"""The README's main command and every example script run and print what they should."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_env import clean_env

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.py"))


#: Examples that start a cluster (worker processes, a JVM) get more time than the rest.
SLOW = {"distributed_dask.py", "spark_bounded.py"}
HAS_SPARK = importlib.util.find_spec("pyspark") is not None and shutil.which("java") is not None


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env=clean_env())


def example_param(path: Path) -> object:
    if path.name == "spark_bounded.py":
        return pytest.param(path, marks=pytest.mark.skipif(not HAS_SPARK, reason="needs pyspark and a Java runtime"))
    return path


def test_demo_prints_the_worked_example_report() -> None:
    result = run("-m", "scored_pr", "demo")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  Area Under PR Curve (uninterpolated)=0.5111111111111111" in lines
    # the break-even point is R-precision by definition: one line says so (there used to be two rows)
    assert "  BEP (Precision-Recall break even point; always equals R-Precision)=0.5" in lines
    assert not any(line.startswith("  R-Precision=") for line in lines)
    assert "0.600000 0.750000 0.666667" in lines


def test_unknown_command_exits_2() -> None:
    result = run("-m", "scored_pr", "frobnicate")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


@pytest.mark.parametrize("script", [example_param(p) for p in EXAMPLES], ids=[p.name for p in EXAMPLES])
def test_example_runs(script: Path) -> None:
    result = run(str(script), timeout=900 if script.name in SLOW else 120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


def test_benchmark_script_smoke_run() -> None:
    """The benchmark suite runs from a clone (its timings are judged in benchmarks/, not here)."""
    result = run("benchmarks/bench.py", "--quick", "--only", "cached,memory")
    assert result.returncode == 0, result.stderr
    assert "| memory: bulk add_cases" in result.stdout and "passed" in result.stdout.splitlines()[-1]


def test_readme_quickstart_runs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Quickstart", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    result = run("-c", block)
    assert result.returncode == 0, result.stderr
    assert "Average Precision=" in result.stdout


def test_readme_first_lines_are_the_two_commands() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert lines[3].endswith(".venv/bin/scored-pr demo")
    assert lines[4].endswith(".venv/bin/python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ".venv/bin/python -m pytest\n" in ci and "'.[test]'" in ci
