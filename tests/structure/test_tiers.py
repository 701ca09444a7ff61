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
from tiers import FRACTION_FLOOR, HEAVY, TIERS, fewer_examples, tier_of

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


def test_the_other_environments_run_every_hypothesis_test_with_a_fraction_of_its_examples() -> None:
    """SCORED_PR_HYPOTHESIS_FRACTION (.ci/run's floor and 3.13 steps) scales max_examples, never skips."""
    from types import SimpleNamespace

    from hypothesis import given, settings, strategies as st
    from hypothesis.stateful import RuleBasedStateMachine, rule

    @settings(max_examples=200)
    @given(st.integers())
    def big(x: int) -> None:
        pass

    @settings(max_examples=12)
    @given(st.integers())
    def small(x: int) -> None:
        pass

    class Machine(RuleBasedStateMachine):
        @rule()
        def step(self) -> None:
            pass

    Machine.TestCase.settings = settings(max_examples=80)

    def plain() -> None:
        pass

    items = [SimpleNamespace(obj=big), SimpleNamespace(obj=small), SimpleNamespace(obj=plain),
             SimpleNamespace(obj=Machine.TestCase("runTest").runTest, cls=Machine.TestCase)]
    assert fewer_examples(items, 0.25) == 3  # type: ignore[arg-type]
    assert big._hypothesis_internal_use_settings.max_examples == 50  # type: ignore[attr-defined]
    assert small._hypothesis_internal_use_settings.max_examples == FRACTION_FLOOR  # type: ignore[attr-defined]
    assert Machine.TestCase.settings.max_examples == 20
    calls = []

    @settings(max_examples=400, database=None)
    @given(st.integers())
    def counted(x: int) -> None:
        calls.append(x)

    fewer_examples([SimpleNamespace(obj=counted)], 0.1)  # type: ignore[list-item]
    counted()
    # the scaled setting is the one the test runs with: about 40 calls, not the 400 asked (Hypothesis may
    # add a few calls of its own, e.g. replaying an example, when other tests ran before in the process)
    assert counted._hypothesis_internal_use_settings.max_examples == 40  # type: ignore[attr-defined]
    assert 0 < len(calls) <= 100, len(calls)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.count("SCORED_PR_HYPOTHESIS_FRACTION=0.25 .venv-") == 2  # the floor and 3.13, not newest
    assert "SCORED_PR_HYPOTHESIS_FRACTION" not in (ROOT / "README.md").read_text(encoding="utf-8")
