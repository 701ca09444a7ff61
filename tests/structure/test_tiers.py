"""The test tiers: the README's fast command leaves out exactly what conftest.TIERS names, and CI runs it.

``tests/conftest.py`` marks the heavy tiers (engine, browser, server, soak) by the fixtures a test
takes and by the entries of ``tiers.TIERS``. An entry that names no test would silently put nothing in
its tier (or, renamed, move a heavy test into the fast tier), so each is held to a file and a
function that exist; the README's command and ``.ci/run`` are held to the markers.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from tiers import HEAVY, TIERS, tier_of

ROOT = Path(__file__).resolve().parents[2]


def _functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


@pytest.mark.parametrize("key", sorted(TIERS))
def test_every_tier_entry_names_a_test_that_exists(key: str) -> None:
    file, _, test = key.partition("::")
    path = ROOT / file
    assert path.is_file(), f"{key}: no such test file"
    tier, why = TIERS[key]
    assert tier in HEAVY and why
    if test:
        name = re.sub(r"\[.*\]$", "", test)
        assert name in _functions(path), f"{key}: {path.name} defines no {name}()"


def test_a_file_entry_covers_its_tests_and_their_parameters() -> None:
    assert tier_of("tests/integrations/test_html_browser.py::test_x[a-b]") == "browser"
    assert tier_of("tests/integrations/test_html_browser.pyx::test_x") is None
    assert tier_of("tests/cli/test_cli_commands.py::test_example_runs[spark_bounded.py]") == "engine"
    assert tier_of("tests/cli/test_cli_commands.py::test_example_runs[streaming_inference.py]") is None


def test_the_readme_runs_the_fast_tier_and_ci_runs_every_tier() -> None:
    readme = (ROOT / "README.md").read_text().splitlines()
    commands = [line for line in readme[:8] if line.startswith("python3 -m venv")]
    assert len(commands) == 2 and commands[1].endswith("-m pytest -n auto -m 'not heavy'"), commands
    run = (ROOT / ".ci" / "run").read_text()
    assert "SCORED_PR_STRICT_TIERS=1" in run and "-m heavy" in run
    assert commands[1].split(" && ", 1)[1] in run  # the README's install and test command, as written
