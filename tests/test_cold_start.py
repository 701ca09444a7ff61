"""Cold start: `scored-pr --help` and `import scored_pr` load neither numpy nor the evaluator.

The public names are imported on first use (PEP 562 module ``__getattr__``);
these tests hold the lazy surface to the eager one it replaced.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import scored_pr
import scored_pr.trec
from scored_pr import _cli, _validation


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys; print('\\n'.join(sys.modules))"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return set(out.stdout.split())


def test_help_imports_neither_numpy_nor_the_evaluator() -> None:
    code = "from scored_pr._cli import build_parser\nbuild_parser().format_help()"
    loaded = _modules_after(code)
    assert "numpy" not in loaded
    assert "scored_pr._evaluation" not in loaded and "scored_pr.trec._evaluate" not in loaded


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
    assert _cli.MAX_COUNT == _validation.MAX_COUNT


def test_every_subpackage_is_installed() -> None:
    """A non-editable install ships exactly the packages listed in pyproject.toml: list them all."""
    from pathlib import Path

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: the same parser as the backport (a test extra there)
        tomllib = pytest.importorskip("tomli")

    root = Path(__file__).resolve().parent.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(root).parts) for p in (root / "scored_pr").rglob("__init__.py")
    }
    assert found <= listed, f"packages missing from pyproject.toml: {sorted(found - listed)}"
