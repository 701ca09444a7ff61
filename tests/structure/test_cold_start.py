"""Cold start: `scored-pr --help` and `import scored_pr` load neither numpy nor the evaluator.

The public names are imported on first use (PEP 562 module ``__getattr__``);
these tests hold the lazy surface to the eager one it replaced.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import scored_pr
import scored_pr.trec
from scored_pr._cli import main as _cli
from scored_pr._cli import options as _cli_options
from scored_pr import _validation

ROOT = Path(__file__).resolve().parents[2]


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys; print('\\n'.join(sys.modules))"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return set(out.stdout.split())


def test_help_imports_neither_numpy_nor_the_evaluator() -> None:
    code = "from scored_pr._cli.main import build_parser\nbuild_parser().format_help()"
    loaded = _modules_after(code)
    assert "numpy" not in loaded
    assert "scored_pr._evaluators.exact" not in loaded and "scored_pr.trec._evaluate" not in loaded


def test_import_scored_pr_is_light() -> None:
    loaded = _modules_after("import scored_pr\nimport scored_pr.trec")
    assert "numpy" not in loaded and "sortedcontainers" not in loaded


def test_help_runs_as_a_command() -> None:
    out = subprocess.run([sys.executable, "-m", "scored_pr", "--help"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "report" in out.stdout and "trec" in out.stdout


@pytest.mark.parametrize("package", [scored_pr, scored_pr.trec], ids=["scored_pr", "scored_pr.trec"])
def test_every_public_name_resolves(package) -> None:
    for name in package.__all__:
        value = getattr(package, name)
        assert value is not None
        if name != "__version__" and hasattr(value, "__module__"):
            assert value.__module__.startswith(package.__name__)
    assert set(package.__all__) <= set(dir(package))


def test_unknown_names_are_attribute_errors() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        scored_pr.nope  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        scored_pr.trec.nope  # noqa: B018
    with pytest.raises(ImportError):
        exec("from scored_pr import nope", {})


def test_the_cli_count_limit_is_the_evaluators() -> None:
    assert _cli_options.MAX_COUNT == _validation.MAX_COUNT


def _pyproject() -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: the same parser as the backport (a test extra there)
        tomllib = pytest.importorskip("tomli")
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_subpackage_is_installed() -> None:
    """A non-editable install ships exactly the packages listed in pyproject.toml: list them all."""
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "scored_pr").rglob("__init__.py")
    }
    assert found <= listed, f"packages missing from pyproject.toml: {sorted(found - listed)}"


def _release(version: str) -> tuple[int, ...]:
    parts = tuple(int(p) for p in version.split("."))
    return parts + (0,) * (3 - len(parts))


def test_the_declared_floor_is_what_ci_tests() -> None:
    """pyproject's lower bounds are the versions CI's floor run pins, on the oldest declared Python.

    numpy>=1.23 was declared while only the newest numpy was tested, and saved
    state failed to load on numpy < 2.1: a bound nobody runs is not a claim.
    """
    project = _pyproject()["project"]
    declared = {}
    for requirement in project["dependencies"]:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+)", requirement)
        assert match, f"runtime dependency {requirement!r} must be 'name>=version' (the tested floor)"
        declared[match[1]] = match[2]
    pins = {}
    for line in (ROOT / ".ci" / "floor.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[name.strip()] = version.strip()
    for name, version in declared.items():
        assert name in pins, f"{name} has no pin in .ci/floor.txt"
        assert _release(pins[name]) == _release(version), (name, pins[name], version)
    oldest = re.fullmatch(r">=(3\.\d+)", project["requires-python"])
    assert oldest, project["requires-python"]
    run = (ROOT / ".ci" / "run").read_text()
    assert f"find_python {oldest[1]}" in run and "-c .ci/floor.txt" in run
    readme = (ROOT / "README.md").read_text()
    assert f"`numpy` >= {declared['numpy']}" in readme and f"Python >= {oldest[1]}" in readme


def test_ci_installs_what_the_array_and_spark_tests_need() -> None:
    """The pandas, polars, torch input tests and the Spark example skip without their packages.

    They skipped in CI (none was installed), so the README's array-type and
    Spark claims were checked by no one: pandas and polars are test extras (the
    fast tier), pyspark a test-heavy extra (the engine tier); torch, never a
    declared dependency, is installed by .ci/run.
    """
    project = _pyproject()["project"]
    extras = project["optional-dependencies"]

    def names(extra: str) -> set[str]:
        return {re.match(r"[A-Za-z0-9_.-]+", r)[0].lower() for r in extras[extra]}

    assert {"pandas", "polars", "pytest-xdist"} <= names("test")
    assert {"pyspark", "distributed", "playwright"} <= names("test-heavy")
    # the bench extra may name torch; the runtime and test dependencies never do
    assert not any(r.startswith("torch") for r in project["dependencies"] + extras["test"] + extras["test-heavy"])
    run = (ROOT / ".ci" / "run").read_text()
    assert "pip install --quiet torch==" in run
    assert "preflight .venv pandas polars pyspark torch" in run
