"""The test suite's root: its helper modules importable from every folder.

The tests live in folders by the layer they test (``core/``, ``evaluators/``, ``state/``,
``cli/``, ``compat/``, ``integrations/``, ``structure/``; ``structure/test_test_layout.py``
holds which private modules each folder may import). They are plain directories, not
packages, so pytest's default ``prepend`` import mode imports each test file by its basename
(basenames are therefore unique across folders). The helpers shared between folders stay here
(``cli_env.py``, ``faults.py``, ``lingpipe_vectors.py``, ``reference.py``, ``data/``), and this
file puts this directory first on ``sys.path`` so ``from reference import Reference`` works
from any folder, whichever subset of the suite runs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)


# --------------------------------------------------------------------------- the tiers
# tiers.py says which tests are heavy (engine, browser, server, soak) and why; here they are marked.
from tiers import ENGINE_FIXTURES, HEAVY, fewer_examples, tier_of  # noqa: E402 - needs TESTS on sys.path


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "heavy: not in the README's fast tier (any of engine, browser, server, soak)")
    config.addinivalue_line("markers", "engine: needs a JVM or a cluster (Spark, Dask LocalCluster, Ray)")
    config.addinivalue_line("markers", "browser: drives Chromium")
    config.addinivalue_line("markers", "server: serves or scrapes a network server on localhost")
    config.addinivalue_line("markers", "soak: a long fault, kill or signal simulation")
    stale = [path for path in LONGEST_FIRST if not (Path(TESTS).parent / path).is_file()]
    if stale:
        raise pytest.UsageError(f"tests/conftest.py: LONGEST_FIRST names files that do not exist: {stale}")


#: The files whose tests run longest (measured with ``--durations``: mypy, the Sphinx build, the
#: stateful machines, the long Hypothesis comparisons), which run first, longest first, each file's
#: tests together (module fixtures such as the built site stay built once). Under pytest-xdist the
#: first tests go to the first worker as one batch, so no long test starts last and keeps one
#: worker busy while the others wait at the end.
LONGEST_FIRST = (
    "tests/structure/test_typing.py",
    "tests/structure/test_docs.py",
    "tests/evaluators/test_windows.py",
    "tests/evaluators/test_multilabel_evaluation.py",
    "tests/structure/test_readme.py",
    "tests/evaluators/test_stateful.py",
    "tests/evaluators/test_bounded.py",
)


def longest_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """``items`` with the tests of LONGEST_FIRST's files first, in its order; the rest as collected."""
    rank = {path: n for n, path in enumerate(LONGEST_FIRST)}
    first = [item for item in items if item.nodeid.split("::", 1)[0] in rank]
    first.sort(key=lambda item: rank[item.nodeid.split("::", 1)[0]])  # stable: a file keeps its order
    return first + [item for item in items if item.nodeid.split("::", 1)[0] not in rank]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items[:] = longest_first(items)
    fraction = os.environ.get("SCORED_PR_HYPOTHESIS_FRACTION")
    if fraction:
        fewer_examples(items, float(fraction))
    for item in items:
        tiers = {m.name for m in item.iter_markers() if m.name in HEAVY}
        found = tier_of(item.nodeid)
        if found:
            tiers.add(found)
        for fixture, group in ENGINE_FIXTURES.items():
            if fixture in getattr(item, "fixturenames", ()):
                tiers.add("engine")
                item.add_marker(pytest.mark.xdist_group(group))
        for tier in sorted(tiers):
            item.add_marker(getattr(pytest.mark, tier))
        if tiers:
            item.add_marker(pytest.mark.heavy)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """With SCORED_PR_STRICT_TIERS=1 (.ci/run) a heavy test that skips fails: CI must run it."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("SCORED_PR_STRICT_TIERS") == "1" and item.get_closest_marker("heavy"):
        report.outcome = "failed"
        report.longrepr = f"{item.nodeid}: a heavy-tier test skipped in CI ({report.longrepr})"
