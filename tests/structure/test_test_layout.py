"""The test suite's layout: each folder tests one layer and imports only that layer's private modules.

``tests/`` holds one folder per layer of the package (``core/``, ``evaluators/``, ``state/``,
``cli/``, ``compat/``, ``integrations/``, ``structure/``); the shared helpers stay at its root
(``conftest.py`` puts it on ``sys.path``). A test reaches the rest of the package through the
public API, so moving a private module breaks the tests of its own layer, not the whole suite.
Every import of a test file is read with :mod:`ast` (function-level ones included) and each
private module it names (a name starting with ``_`` below ``scored_pr``) must belong to a unit
:data:`ALLOWED` grants its folder, or to an entry of :data:`EXCEPTIONS`, which says why.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]

#: Folder -> the private units its tests may import, each with the reason. A unit is the first
#: private name below ``scored_pr`` with its public parents: ``_core`` covers ``scored_pr._core.bins``,
#: ``trec`` covers ``scored_pr.trec._parse``. ``"*"`` grants every unit.
ALLOWED: dict[str, dict[str, str]] = {
    "core": {
        "_core": "the kernel itself: ranking, points, curves, scalars, bins, stats, multilabel",
        "_uncertainty": "the bootstrap and BCa engine that drives _core.stats, held to the same references",
    },
    "evaluators": {
        "_evaluators": "the evaluator kinds, their store, thread guard and shared base",
        "_measures": "the measure table is the list of queries every kind is asked",
        "_kinds": "the registry of kinds is the list of kinds every check runs over",
    },
    "state": {
        "_state": "the state modules and the state-file reader",
        "_validation": "the limits a loader enforces (MAX_COUNT, MAX_LABELS, MAX_SAVED_INT) are defined there",
        "_atomic": "the one atomic-write helper every state file, checkpoint, page and plot goes through",
        "_kinds": "the atomic-write tests save and render every registered kind",
    },
    "cli": {
        "_cli": "the command line",
        "_io": "its readers and parsers (CSV, JSON lines, wide files, the numpy fast path)",
        "_state": "stream checkpoints carry their line in the state file's extra header, and the "
        "damaged-state tests write files through the state modules",
    },
    "compat": {
        "lingpipe": "the LingPipe facade's private formatting (Java's Double.toString)",
        "trec": "the trec_eval reimplementation's readers and measures",
        "_cli": "scored-pr trec and report are held to trec_eval and LingPipe byte for byte "
        "through the command's entry point, in process",
    },
    "integrations": {},
    "structure": {"*": "structure tests read the whole package: layering, cold start, one place for checks"},
}

#: (file under tests/, unit) -> why that file needs a private module of another layer.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("compat/test_conformance.py", "_core"): "the vectors' breakeven point is also held on the kernel's "
    "scalar function (_core.scalars.breakeven_point), which the facade does not expose",
    ("compat/test_trec_columns.py", "_io"): "the TREC readers raise _io.cases.InputError, the "
    "library's one file-error type, not exported",
    ("evaluators/test_bounded.py", "_core"): "the bounded summary is checked against its bins "
    "kernel (_core.bins) and the exact curves (_core.curves) it must bracket",
    ("evaluators/test_windows.py", "_core"): "the window's sorted container (_core.sortedblocks) "
    "is tested with the kind that owns it, against the store it replaced",
    ("evaluators/test_window_per_case.py", "_core"): "the full window's per-case call into its sorted "
    "container (_core.sortedblocks.PairedBlocks.slide_pairs) is held to a literal pair count beside the kind",
    ("integrations/test_html_decisions.py", "_html"): "the page's decisions script (_html.page.asset) "
    "and the data _html.render embeds are read to hold the page's cost rule to min_cost_threshold",
    ("integrations/test_html_sliced.py", "_html"): "the page's limits (_html.data.MAX_ITEMS_WITH_CURVES, "
    "_html.slices.MAX_OVERLAYS) are lowered so that a small evaluation reaches the overlays and their cap, "
    "and one overlay's size is measured (_html.slices.overlay) to state the page's size for 1,000 slices",
    ("evaluators/test_display.py", "_html"): "the HTML page's curves are compared with the displays' "
    "points (one source), and every kind's to_html with _html.render",
    ("evaluators/test_every_kind.py", "_core"): "the LingPipe 4.1 memo is observed by counting "
    "calls to _core.points.every_rank",
    ("evaluators/test_every_kind.py", "_uncertainty"): "the module-level confidence_interval every "
    "consumer calls is compared with each kind's method",
    ("evaluators/test_every_kind_interface.py", "_windows"): "0.1.0 pickled the default clock as "
    "scored_pr._windows._default_clock: the old path the pickle shim (_imports.MOVED) keeps must load",
    ("evaluators/test_fault_injection.py", "_core"): "a fault is injected at every line from "
    "add_case to a saved file: the kernel, the evaluators and the state modules",
    ("evaluators/test_fault_injection.py", "_state"): "as above: saving is on the guaranteed path",
    ("evaluators/test_multilabel_evaluation.py", "_state"): "a saved multi-label evaluator reads "
    "back as kind 'multilabel' (_state.statefile.kind_of)",
    ("evaluators/test_stateful.py", "_state"): "the state machine round-trips through a "
    "checkpoint's extra header (save(extra=) / load_with_extra), which only the state module offers",
}


def private_units(tree: ast.AST) -> set[str]:
    """The private units of scored_pr that ``tree`` imports, at any depth."""
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    units = set()
    for name in names:
        parts = name.split(".")
        if parts[0] != "scored_pr":
            continue
        for i, part in enumerate(parts[1:], start=1):
            if part.startswith("_") and not part.startswith("__"):
                units.add(".".join(parts[1:i]) if i > 1 else part)
                break
    return units


def granted(folder: str, rel: str, unit: str) -> bool:
    allowed = ALLOWED[folder]
    return "*" in allowed or unit in allowed or (rel, unit) in EXCEPTIONS


def layer_test_files() -> list[Path]:
    return sorted(TESTS.glob("*/test_*.py"))


@pytest.mark.parametrize("path", layer_test_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_test_imports_only_the_private_modules_of_its_layer(path: Path) -> None:
    folder, rel = path.parent.name, f"{path.parent.name}/{path.name}"
    assert folder in ALLOWED, f"tests/{folder}/ is in no row of ALLOWED: add it with the units it tests"
    units = private_units(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    stray = sorted(u for u in units if not granted(folder, rel, u))
    assert not stray, (
        f"tests/{rel} imports scored_pr private units {stray}, which tests/{folder}/ does not test: "
        "use the public API, move the test to the folder of that layer, or add an EXCEPTIONS entry with the reason"
    )


def test_every_exception_is_still_needed() -> None:
    for rel, unit in EXCEPTIONS:
        path = TESTS / rel
        assert path.is_file(), f"EXCEPTIONS names tests/{rel}, which no longer exists"
        assert unit in private_units(ast.parse(path.read_text(encoding="utf-8"))), (
            f"tests/{rel} no longer imports {unit}: drop its EXCEPTIONS entry"
        )
        assert unit not in ALLOWED[path.parent.name], f"{unit} is already granted to tests/{path.parent.name}/"


def test_tests_live_in_the_layer_folders_only() -> None:
    assert not sorted(TESTS.glob("test_*.py")), "a test file at tests/ itself: put it in the folder of its layer"
    folders = {p.parent.name for p in TESTS.glob("*/test_*.py") if p.parent.name != "data"}
    assert folders == set(ALLOWED), folders ^ set(ALLOWED)


def test_shared_helpers_import_no_private_module() -> None:
    """cli_env, faults, lingpipe_vectors, reference: used from every folder, so public API only."""
    for path in sorted(TESTS.glob("*.py")):
        assert not private_units(ast.parse(path.read_text(encoding="utf-8"))), path.name


def test_test_file_names_are_unique_across_folders() -> None:
    """The folders are not packages: pytest's default import mode imports a test file by its basename."""
    counts = Counter(p.name for p in TESTS.rglob("test_*.py") if "data" not in p.relative_to(TESTS).parts)
    assert not [name for name, n in counts.items() if n > 1]
